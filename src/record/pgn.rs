//! The PGN writer: one game in PGN export format
//! (`specs/pgn-standard-1994.txt` section 8, clock comments from
//! `specs/pgn-supplement-2001-clock.txt`).
//!
//! The writer never fails and never panics: whatever the strings hold, the
//! output is well-formed PGN. Tag values are escaped, control characters are
//! dropped, comments cannot close early, and every movetext line stays under
//! 80 characters.

pub use super::durable::{append_pgn, write_atomic};

use crate::clock::{clk_command, emt_command};

/// One move (half-move) of a game as it goes into the PGN.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PgnMove {
    /// The move in SAN, as the game module wrote it (e.g. `Nf3`, `exd8=Q+`).
    /// Only PGN symbol characters (`A-Za-z0-9_+#=:-`) are written.
    pub san: String,
    /// The mover's time left after the move, in milliseconds (`[%clk]`).
    pub clk_ms: Option<u64>,
    /// The time the move took, in milliseconds (`[%emt]`).
    pub emt_ms: Option<u64>,
    /// What the mover said of the position with its move (EPD `ce`,
    /// `acd`, `acn`, `pv`), written first in the move's comment as
    /// cutechess-cli writes an engine's evaluation: `{+0.35/12 0.50s}`.
    pub eval: Option<MoveEval>,
    /// The mover played it from its opening book (its reply carried
    /// `Abook`): the comment opens with `book`, as cutechess-cli writes a
    /// book move, in place of the evaluation.
    pub book: bool,
    /// The mover's engine pondered before it, and whether the opponent
    /// played the move it pondered on (its reply's `Aponder`). Not
    /// written: the tournament's statistics count it.
    pub ponder_hit: Option<bool>,
}

/// An evaluation sent with a move, for [`PgnMove::eval`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MoveEval {
    /// EPD `ce` (spec 6.7): centipawns from the mover's view; above 32000
    /// a mate for the mover in `32767 - ce` plies, below -32000 a mate
    /// against it in `32767 + ce` plies.
    pub ce: i32,
    /// Search depth in plies (`acd`).
    pub depth: Option<u32>,
    /// Selective search depth in plies (the private `Aseldepth`).
    pub seldepth: Option<u32>,
    /// The move's time in milliseconds, as the referee measured it.
    pub time_ms: u64,
    /// Nodes searched (`acn`).
    pub nodes: Option<u64>,
    /// The engine's own speed in nodes a second (the private `Anps`).
    pub nps: Option<u64>,
    /// The principal variation in SAN (`pv`), from the mover's move on.
    pub pv: Vec<String>,
}

/// `ce` values beyond this (either sign) are mate scores (spec 6.7).
const MATE_CE: i32 = 32000;
/// The `ce` of a mate on the board: plies to mate count from it.
const MATED_CE: i32 = 32767;

impl MoveEval {
    /// The score as cutechess-cli writes it: pawns with two decimals and a
    /// sign when positive (`+0.35`, `0.00`, `-1.20`), mates as `+M` or
    /// `-M` and the plies to mate (`+M5`: the mover mates in five plies;
    /// `-M4`: it is mated in four), which is what cutechess-cli's
    /// `MoveEvaluation::scoreText` prints.
    pub fn score_text(&self) -> String {
        let ce = self.ce;
        if ce > MATE_CE {
            format!("+M{}", MATED_CE - ce)
        } else if ce < -MATE_CE {
            format!("-M{}", MATED_CE + ce)
        } else {
            let sign = if ce > 0 {
                "+"
            } else if ce < 0 {
                "-"
            } else {
                ""
            };
            let abs = ce.unsigned_abs();
            format!("{sign}{}.{:02}", abs / 100, abs % 100)
        }
    }

    /// The whole comment text: `+0.35/12 0.50s` (score, `/depth` when
    /// known, the time as cutechess-cli rounds it), then, each when
    /// known, in fastchess's order and words: `, tl=59.500s` (the mover's
    /// time left after the move, `time_left_ms`, to the millisecond),
    /// `, n=NODES`, `, sd=SELDEPTH`, `, nps=SPEED` and `, pv="..."`.
    pub fn text(&self, time_left_ms: Option<u64>) -> String {
        let mut s = self.score_text();
        if let Some(d) = self.depth {
            s.push_str(&format!("/{d}"));
        }
        s.push(' ');
        s.push_str(&seconds_text(self.time_ms));
        if let Some(ms) = time_left_ms {
            s.push_str(&format!(", tl={}.{:03}s", ms / 1000, ms % 1000));
        }
        if let Some(n) = self.nodes {
            s.push_str(&format!(", n={n}"));
        }
        if let Some(d) = self.seldepth {
            s.push_str(&format!(", sd={d}"));
        }
        if let Some(n) = self.nps {
            s.push_str(&format!(", nps={n}"));
        }
        let pv: Vec<String> = self
            .pv
            .iter()
            .map(|m| clean_san(m))
            .filter(|m| !m.is_empty())
            .collect();
        if !pv.is_empty() {
            s.push_str(&format!(", pv=\"{}\"", pv.join(" ")));
        }
        s
    }
}

/// A move time as cutechess-cli writes it: `0s`, else seconds with three
/// decimals under 0.1 s, two under 1 s, one under 10 s, none from 10 s on.
fn seconds_text(ms: u64) -> String {
    if ms == 0 {
        return "0s".into();
    }
    let decimals = match ms {
        0..100 => 3,
        100..1000 => 2,
        1000..10_000 => 1,
        _ => 0,
    };
    // Rounded to the decimals kept, in integer arithmetic.
    let unit = 10u64.pow(3 - decimals);
    let scaled = (ms + unit / 2) / unit;
    let ten = 10u64.pow(decimals);
    if decimals == 0 {
        format!("{scaled}s")
    } else {
        format!(
            "{}.{:0w$}s",
            scaled / ten,
            scaled % ten,
            w = decimals as usize
        )
    }
}

/// A whole game for [`write_pgn`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in any order. The Seven Tag Roster is written first in its
    /// order whatever is given (missing ones as `"?"`, Date as
    /// `"????.??.??"`, Result always from [`PgnGame::result`]); the other
    /// tags follow in ASCII order of name. A name given twice is written once
    /// (its first value). Names keep only `A-Za-z0-9_`; a name left empty is
    /// dropped.
    pub tags: Vec<(String, String)>,
    /// The number of the first move (1 for a normal game; from the FEN for a
    /// set-up position). 0 is written as 1.
    pub first_move_number: u32,
    /// The first move in [`PgnGame::moves`] is Black's (set-up position with
    /// Black to move): numbering starts with `N...`.
    pub black_first: bool,
    /// The moves played, in order.
    pub moves: Vec<PgnMove>,
    /// The game termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`. Anything
    /// else is written as `*`.
    pub result: String,
    /// A comment written after the last move and before the result, e.g. the
    /// illegal move that forfeited the game (never written as a move).
    pub final_comment: Option<String>,
}

impl PgnGame {
    /// The game as `--pgn-min` writes it (cutechess-cli's `-pgnout FILE
    /// min`): the Seven Tag Roster (and `SetUp`/`FEN` for a set-up
    /// position and `Variant` for Chess960, without which the moves cannot
    /// be read), the moves and
    /// the result; no comments, evaluations or clock annotations.
    pub fn minimal(&self) -> PgnGame {
        PgnGame {
            tags: self
                .tags
                .iter()
                .filter(|(name, _)| {
                    SEVEN_TAG_ROSTER.contains(&name.as_str())
                        || ["SetUp", "FEN", "Variant"].contains(&name.as_str())
                })
                .cloned()
                .collect(),
            moves: self
                .moves
                .iter()
                .map(|m| PgnMove {
                    san: m.san.clone(),
                    ..PgnMove::default()
                })
                .collect(),
            final_comment: None,
            ..self.clone()
        }
    }
}

impl Default for PgnGame {
    fn default() -> Self {
        PgnGame {
            tags: Vec::new(),
            first_move_number: 1,
            black_first: false,
            moves: Vec::new(),
            result: "*".to_string(),
            final_comment: None,
        }
    }
}

/// The Seven Tag Roster, in export order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Movetext lines have fewer than this many characters.
const LINE_LIMIT: usize = 80;
/// Longest piece of a comment word put on one line (leaves room for a space
/// that keeps a `%` away from the first column).
const CHUNK: usize = LINE_LIMIT - 2;

/// Renders `g` in PGN export format: tag pairs, a blank line, the movetext
/// wrapped under 80 columns, and a blank line after the game, so that games
/// can simply be concatenated into one file.
///
/// Moves are numbered `1.` for White; Black's move gets `12...` when it is the
/// first move of the game or follows a comment (such as a clock comment).
/// A move's evaluation ([`MoveEval::text`]) opens its comment, before these.
/// A move with a time gets `{[%clk h:mm:ss] [%emt h:mm:ss]}` (whichever are
/// present; `%clk` is truncated to whole seconds, `%emt` under a minute
/// keeps milliseconds, `0:00:00.347`).
pub fn write_pgn(g: &PgnGame) -> String {
    let result = result_token(&g.result);
    render(&g.tags, result, &wrap(&movetext_tokens(g, result)))
}

/// The tag pairs of `tags` in export order, a blank line, the movetext
/// `lines`, and a blank line.
pub(super) fn render(tags: &[(String, String)], result: &str, lines: &[String]) -> String {
    let mut out = String::new();
    for (name, value) in ordered_tags(tags, result_token(result)) {
        out.push('[');
        out.push_str(&name);
        out.push_str(" \"");
        out.push_str(&escape_tag_value(&value));
        out.push_str("\"]\n");
    }
    out.push('\n');
    for line in lines {
        out.push_str(line);
        out.push('\n');
    }
    out.push('\n');
    out
}

pub(crate) fn result_token(r: &str) -> &'static str {
    match r.trim() {
        "1-0" => "1-0",
        "0-1" => "0-1",
        "1/2-1/2" => "1/2-1/2",
        _ => "*",
    }
}

/// The tags in export order, with clean names and unescaped values.
fn ordered_tags(tags: &[(String, String)], result: &str) -> Vec<(String, String)> {
    let mut seen: Vec<String> = Vec::new();
    let mut others: Vec<(String, String)> = Vec::new();
    let mut roster: Vec<Option<String>> = vec![None; SEVEN_TAG_ROSTER.len()];
    for (name, value) in tags {
        let name: String = name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() || seen.contains(&name) {
            continue;
        }
        seen.push(name.clone());
        match SEVEN_TAG_ROSTER.iter().position(|r| *r == name) {
            Some(i) => {
                if let Some(slot) = roster.get_mut(i) {
                    *slot = Some(value.clone());
                }
            }
            None => others.push((name, value.clone())),
        }
    }
    others.sort_by(|a, b| a.0.cmp(&b.0));
    let mut all = Vec::with_capacity(SEVEN_TAG_ROSTER.len() + others.len());
    for (name, given) in SEVEN_TAG_ROSTER.iter().zip(roster) {
        let value = match *name {
            "Result" => result.to_string(),
            "Date" => given.unwrap_or_else(|| "????.??.??".to_string()),
            _ => given.unwrap_or_else(|| "?".to_string()),
        };
        all.push((name.to_string(), value));
    }
    all.extend(others);
    all
}

/// Escapes `\` and `"` and drops control characters.
fn escape_tag_value(v: &str) -> String {
    let mut s = String::with_capacity(v.len());
    for c in v.chars().filter(|c| !c.is_control()) {
        if c == '\\' || c == '"' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// Comment text made safe: `}` becomes `)`, tabs and line ends become
/// spaces, other control characters go, runs of spaces collapse.
fn comment_words(text: &str) -> Vec<String> {
    let cleaned: String = text
        .chars()
        .filter_map(|c| match c {
            '}' => Some(')'),
            c if c.is_whitespace() => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    cleaned.split_whitespace().map(str::to_string).collect()
}

/// Pushes a comment as tokens `{first`, `middle`, ..., `last}`, so that it
/// can be wrapped between words.
pub(super) fn push_comment(tokens: &mut Vec<String>, text: &str) -> bool {
    let words = comment_words(text);
    if words.is_empty() {
        return false;
    }
    let last = words.len() - 1;
    for (i, w) in words.into_iter().enumerate() {
        let mut t = String::with_capacity(w.len() + 2);
        if i == 0 {
            t.push('{');
        }
        t.push_str(&w);
        if i == last {
            t.push('}');
        }
        tokens.push(t);
    }
    true
}

/// Pushes words and embedded commands (`[%clk 1:05:23]`) as one comment,
/// each a single token so that wrapping never breaks a line inside one:
/// the clock supplement (section 3.2.2) puts exactly one space between a
/// command's name and its operand, and readers look for that space.
fn push_commands(tokens: &mut Vec<String>, commands: Vec<String>) -> bool {
    let Some(last) = commands.len().checked_sub(1) else {
        return false;
    };
    for (i, c) in commands.into_iter().enumerate() {
        let open = if i == 0 { "{" } else { "" };
        let close = if i == last { "}" } else { "" };
        tokens.push(format!("{open}{c}{close}"));
    }
    true
}

pub(super) fn clean_san(san: &str) -> String {
    san.chars()
        .filter(|c| c.is_ascii_alphanumeric() || "_+#=:-".contains(*c))
        .collect()
}

fn movetext_tokens(g: &PgnGame, result: &str) -> Vec<String> {
    let mut tokens = Vec::with_capacity(g.moves.len() * 4 + 4);
    let first = u64::from(g.first_move_number.max(1));
    let offset = u64::from(g.black_first);
    let mut after_comment = false;
    for (i, mv) in g.moves.iter().enumerate() {
        let ply = (i as u64).saturating_add(offset);
        let number = first.saturating_add(ply / 2);
        let black = ply % 2 == 1;
        if !black {
            tokens.push(format!("{number}."));
        } else if i == 0 || after_comment {
            tokens.push(format!("{number}..."));
        }
        tokens.push(clean_san(&mv.san));
        let mut parts: Vec<String> = match &mv.eval {
            _ if mv.book => vec!["book".to_string()],
            Some(e) => e
                .text(mv.clk_ms)
                .split_whitespace()
                .map(str::to_string)
                .collect(),
            None => Vec::new(),
        };
        if let Some(ms) = mv.clk_ms {
            parts.push(clk_command(ms));
        }
        if let Some(ms) = mv.emt_ms {
            parts.push(emt_command(ms));
        }
        after_comment = push_commands(&mut tokens, parts);
    }
    if let Some(c) = &g.final_comment {
        push_comment(&mut tokens, c);
    }
    tokens.push(result.to_string());
    tokens
}

/// Lays tokens out on lines of fewer than 80 characters, one space between
/// tokens. A token too long for a line is cut into pieces (this can only
/// happen inside a comment, where a line end is just a space). A line never
/// starts with `%`, which PGN reserves for escape lines.
pub(super) fn wrap(tokens: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut width = 0usize;
    for token in tokens {
        for piece in chunks(token, CHUNK) {
            let w = piece.chars().count();
            if width > 0 && width + 1 + w < LINE_LIMIT {
                line.push(' ');
                line.push_str(piece);
                width += 1 + w;
            } else {
                if width > 0 {
                    lines.push(std::mem::take(&mut line));
                }
                width = w;
                if piece.starts_with('%') {
                    line.push(' ');
                    width += 1;
                }
                line.push_str(piece);
            }
        }
    }
    if width > 0 {
        lines.push(line);
    }
    lines
}

/// `s` cut into pieces of at most `max` characters (at least 1), in
/// order: `s` itself when it is no longer (a move, a clock comment),
/// without a copy. Nothing for an empty `s`.
fn chunks(s: &str, max: usize) -> impl Iterator<Item = &str> {
    let max = max.max(1);
    let mut rest = s;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let cut = rest.char_indices().nth(max).map_or(rest.len(), |(i, _)| i);
        let (piece, tail) = rest.split_at(cut);
        rest = tail;
        Some(piece)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How `chunks` cut a token before it stopped copying each one: by
    /// characters, into strings of its own.
    fn chunks_copied(s: &str, max: usize) -> Vec<String> {
        let chars: Vec<char> = s.chars().collect();
        chars
            .chunks(max.max(1))
            .map(|c| c.iter().collect())
            .collect()
    }

    #[test]
    fn a_token_is_cut_into_the_pieces_it_always_was() {
        let long = "é".repeat(200) + &"x".repeat(77) + "ü";
        for token in ["", "e4", "{[%emt 0:00:01]}", "ab", long.as_str()] {
            for max in [0, 1, 2, 3, CHUNK, 500] {
                let cut: Vec<&str> = chunks(token, max).collect();
                assert_eq!(cut, chunks_copied(token, max), "{token:?} by {max}");
            }
        }
    }

    fn mv(san: &str) -> PgnMove {
        PgnMove {
            san: san.to_string(),
            ..PgnMove::default()
        }
    }

    fn tag(n: &str, v: &str) -> (String, String) {
        (n.to_string(), v.to_string())
    }

    fn game(sans: &[&str]) -> PgnGame {
        PgnGame {
            moves: sans.iter().map(|s| mv(s)).collect(),
            ..PgnGame::default()
        }
    }

    #[test]
    fn seven_tag_roster_first_then_ascii_order() {
        let g = PgnGame {
            tags: vec![
                tag("TimeControl", "40/7200"),
                tag("White", "Alpha"),
                tag("Clock", "W/1:00:00"),
                tag("Result", "0-1"),
                tag("Black", "Beta"),
                tag("FEN", "8/8/8/8/8/8/8/K6k w - - 0 1"),
                tag("Event", "Test"),
                tag("SetUp", "1"),
                tag("Termination", "normal"),
            ],
            result: "1-0".into(),
            ..game(&["e4"])
        };
        let text = write_pgn(&g);
        let expected = "[Event \"Test\"]\n\
                        [Site \"?\"]\n\
                        [Date \"????.??.??\"]\n\
                        [Round \"?\"]\n\
                        [White \"Alpha\"]\n\
                        [Black \"Beta\"]\n\
                        [Result \"1-0\"]\n\
                        [Clock \"W/1:00:00\"]\n\
                        [FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\
                        [SetUp \"1\"]\n\
                        [Termination \"normal\"]\n\
                        [TimeControl \"40/7200\"]\n\
                        \n\
                        1. e4 1-0\n\
                        \n";
        assert_eq!(text, expected);
    }

    #[test]
    fn duplicate_and_bad_tag_names() {
        let g = PgnGame {
            tags: vec![
                tag("Annotator", "first"),
                tag("Annotator", "second"),
                tag("Bad Name\n", "x"),
                tag("\"]", "gone"),
            ],
            ..game(&[])
        };
        let text = write_pgn(&g);
        assert!(text.contains("[Annotator \"first\"]\n"));
        assert!(!text.contains("second"));
        assert!(text.contains("[BadName \"x\"]\n"));
        assert!(!text.contains("gone"));
        assert!(text.ends_with("\n\n*\n\n"));
    }

    #[test]
    fn tag_values_are_escaped_and_stripped() {
        let g = PgnGame {
            tags: vec![tag("White", "Deep \"Blue\" \\ 2\r\n\x1b[31m")],
            ..game(&[])
        };
        let text = write_pgn(&g);
        assert!(
            text.contains("[White \"Deep \\\"Blue\\\" \\\\ 2[31m\"]\n"),
            "{text}"
        );
    }

    #[test]
    fn unknown_result_becomes_star() {
        let g = PgnGame {
            tags: vec![tag("Result", "1-0")],
            result: "white wins".into(),
            ..game(&["e4"])
        };
        let text = write_pgn(&g);
        assert!(text.contains("[Result \"*\"]"));
        assert!(text.ends_with("1. e4 *\n\n"));
    }

    #[test]
    fn numbering_plain_game() {
        let text = write_pgn(&game(&["e4", "e5", "Nf3", "Nc6", "Bb5"]));
        assert!(
            text.ends_with("\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n"),
            "{text}"
        );
    }

    #[test]
    fn numbering_when_black_starts() {
        let g = PgnGame {
            first_move_number: 12,
            black_first: true,
            ..game(&["Kg7", "Qd4+", "Kh6"])
        };
        let text = write_pgn(&g);
        assert!(text.ends_with("\n\n12... Kg7 13. Qd4+ Kh6 *\n\n"), "{text}");
    }

    #[test]
    fn move_number_zero_is_one() {
        let g = PgnGame {
            first_move_number: 0,
            ..game(&["e4"])
        };
        assert!(write_pgn(&g).ends_with("1. e4 *\n\n"));
    }

    #[test]
    fn clock_comments_and_numbering_after_comment() {
        let g = PgnGame {
            moves: vec![
                PgnMove {
                    san: "e4".into(),
                    clk_ms: Some(3_599_999),
                    emt_ms: Some(1_500),
                    eval: None,
                    book: false,
                    ponder_hit: None,
                },
                PgnMove {
                    san: "e5".into(),
                    clk_ms: Some(36_000_000),
                    emt_ms: None,
                    eval: None,
                    book: false,
                    ponder_hit: None,
                },
                mv("Nf3"),
                mv("Nc6"),
            ],
            result: "1/2-1/2".into(),
            ..PgnGame::default()
        };
        let text = write_pgn(&g);
        let movetext = text.split("\n\n").nth(1).unwrap();
        assert_eq!(
            movetext,
            "1. e4 {[%clk 0:59:59] [%emt 0:00:01.500]} 1... e5 {[%clk 10:00:00]} 2. Nf3 Nc6\n1/2-1/2"
        );
    }

    #[test]
    fn final_comment_before_result_and_sanitised() {
        let g = PgnGame {
            final_comment: Some("illegal move {e9}\r\n by White".into()),
            result: "0-1".into(),
            ..game(&["e4", "e5"])
        };
        let text = write_pgn(&g);
        assert!(
            text.ends_with("1. e4 e5 {illegal move {e9) by White} 0-1\n\n"),
            "{text}"
        );
    }

    #[test]
    fn empty_final_comment_is_omitted() {
        let g = PgnGame {
            final_comment: Some(" \r\n".into()),
            ..game(&["e4"])
        };
        assert!(write_pgn(&g).ends_with("\n\n1. e4 *\n\n"));
    }

    #[test]
    fn san_loses_characters_that_would_break_movetext() {
        let text = write_pgn(&game(&["e4 {x}", "e5;"]));
        assert!(text.ends_with("1. e4x e5 *\n\n"), "{text}");
    }

    fn movetext_lines(text: &str) -> Vec<&str> {
        let body = text.split("\n\n").nth(1).unwrap();
        body.lines().collect()
    }

    #[test]
    fn long_games_wrap_under_80_columns() {
        let sans: Vec<&str> = ["Nf3", "Nf6", "Ng1", "Ng8"]
            .iter()
            .cycle()
            .take(300)
            .copied()
            .collect();
        let mut g = game(&sans);
        for m in &mut g.moves {
            m.clk_ms = Some(5_400_000);
            m.emt_ms = Some(12_000);
        }
        let text = write_pgn(&g);
        let lines = movetext_lines(&text);
        assert!(lines.len() > 50);
        for l in &lines {
            assert!(l.chars().count() < 80, "{l:?}");
            assert!(!l.starts_with(' '));
            assert!(!l.ends_with(' '));
            // A clock command is never split between its name and operand.
            assert!(!l.ends_with("[%clk") && !l.ends_with("[%emt"), "{l:?}");
        }
        // Packed: joining a line with the next token would pass 79 (a
        // clock command, space and all, is one token).
        for pair in lines.windows(2) {
            let next = match pair[1].find(']') {
                Some(i) if pair[1].starts_with("[%") || pair[1].starts_with("{[%") => {
                    let end = if pair[1][i + 1..].starts_with('}') {
                        i + 2
                    } else {
                        i + 1
                    };
                    &pair[1][..end]
                }
                _ => pair[1].split(' ').next().unwrap(),
            };
            assert!(pair[0].chars().count() + 1 + next.chars().count() >= 80);
        }
    }

    #[test]
    fn long_comment_wraps_and_huge_word_is_cut() {
        let long = format!("{} {}", "word ".repeat(40), "x".repeat(200));
        let g = PgnGame {
            final_comment: Some(long),
            ..game(&["e4"])
        };
        let text = write_pgn(&g);
        let lines = movetext_lines(&text);
        for l in &lines {
            assert!(l.chars().count() < 80, "{l:?}");
        }
        let joined = lines.join("");
        assert_eq!(joined.matches('x').count(), 200);
        assert!(text.ends_with("} *\n\n"));
    }

    #[test]
    fn no_line_starts_with_percent() {
        let g = PgnGame {
            final_comment: Some(format!("{} %escape", "y".repeat(76))),
            ..game(&[])
        };
        let text = write_pgn(&g);
        for l in movetext_lines(&text) {
            assert!(!l.starts_with('%'), "{l:?}");
            assert!(l.chars().count() < 80);
        }
        assert!(text.contains("\n %escape}"));
    }

    #[test]
    fn move_times_under_a_minute_keep_milliseconds() {
        let times = [
            (0, "0:00:00.000"),
            (347, "0:00:00.347"),
            (59_999, "0:00:59.999"),
        ];
        for (ms, text) in times {
            let g = PgnGame {
                moves: vec![PgnMove {
                    san: "e4".into(),
                    clk_ms: None,
                    emt_ms: Some(ms),
                    eval: None,
                    book: false,
                    ponder_hit: None,
                }],
                ..PgnGame::default()
            };
            let want = format!("1. e4 {{[%emt {text}]}}");
            assert!(write_pgn(&g).contains(&want), "{ms} ms");
            // It reads back to the millisecond.
            assert_eq!(crate::clock::parse_hms(text), Ok(ms));
        }
    }

    fn eval(ce: i32, depth: Option<u32>, time_ms: u64) -> MoveEval {
        MoveEval {
            ce,
            depth,
            time_ms,
            ..MoveEval::default()
        }
    }

    #[test]
    fn scores_are_pawns_from_the_movers_view_and_mates_count_plies() {
        let cases = [
            (35, "+0.35"),
            (0, "0.00"),
            (-5, "-0.05"),
            (-120, "-1.20"),
            (32000, "+320.00"),
            (-32000, "-320.00"),
            // Spec 6.7: mate in 3 moves is 32767 - 5; cutechess-cli writes
            // the plies, +M5.
            (32762, "+M5"),
            (32766, "+M1"),
            // Mated in 2 moves: -32767 + 4.
            (-32763, "-M4"),
            (-32767, "-M0"),
        ];
        for (ce, want) in cases {
            assert_eq!(eval(ce, None, 0).score_text(), want, "ce {ce}");
        }
    }

    #[test]
    fn times_are_rounded_as_cutechess_cli_rounds_them() {
        let cases = [
            (0, "0s"),
            (7, "0.007s"),
            (99, "0.099s"),
            (500, "0.50s"),
            (999, "1.00s"),
            (1234, "1.2s"),
            (9_960, "10.0s"),
            (12_345, "12s"),
            (12_500, "13s"),
        ];
        for (ms, want) in cases {
            assert_eq!(seconds_text(ms), want, "{ms} ms");
        }
    }

    #[test]
    fn the_evaluation_opens_the_moves_comment_before_the_clock() {
        let g = PgnGame {
            moves: vec![
                PgnMove {
                    san: "e4".into(),
                    clk_ms: Some(299_000),
                    emt_ms: Some(500),
                    eval: Some(eval(35, Some(12), 500)),
                    book: false,
                    ponder_hit: None,
                },
                PgnMove {
                    san: "e5".into(),
                    clk_ms: Some(287_001),
                    eval: Some(MoveEval {
                        nodes: Some(123_456),
                        seldepth: Some(17),
                        nps: Some(1_002_003),
                        pv: vec!["e5".into(), "Nf3}".into(), "".into(), "Nc6".into()],
                        ..eval(-32763, None, 12_345)
                    }),
                    ..PgnMove::default()
                },
                mv("Nf3"),
            ],
            ..PgnGame::default()
        };
        let text = write_pgn(&g).replace('\n', " ");
        assert!(
            text.contains(
                "1. e4 {+0.35/12 0.50s, tl=299.000s [%clk 0:04:59] [%emt 0:00:00.500]} \
                 1... e5 {-M4 12s, tl=287.001s, n=123456, sd=17, nps=1002003, \
                 pv=\"e5 Nf3 Nc6\" [%clk 0:04:47]} 2. Nf3 *"
            ),
            "{text}"
        );
        // The clock reader still finds its commands.
        let comment = text.split('{').nth(1).unwrap();
        assert_eq!(crate::clock::find_command(comment, "clk"), Some("0:04:59"));
    }
}
