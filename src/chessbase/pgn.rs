//! CBF games to and from PGN (no I/O): a [`CbGame`] as a PGN tree
//! ([`to_tree`]), and a PGN game as read ([`PgnText`]) as a [`CbGame`]
//! ([`from_pgn`]) with every part the format cannot hold reported.
//!
//! docs/chessbase.md lists what maps to what and what is reported.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use super::record::{MAX_COMMENTS_PART, MAX_TEXT, text_byte};
use super::{CbGame, CbResult, Comment, MAX_DEPTH, Ply};
use crate::game::{parse_san, san_of};
use crate::record::pgn::{PgnGame, write_pgn};
use crate::record::pgn_read::{PgnText, read_pgn_games};
use crate::record::pgn_tree::{PgnLine, PgnNode, TreeGame};

/// Most half-moves (main line and variations) of a game, as the document
/// says (section 2: "Moves (max. 250) with variants").
pub const MAX_HALF_MOVES: usize = 250;

/// Tags a CBF record holds (besides what its moves say).
const KEPT_TAGS: [&str; 10] = [
    "Event", "White", "Black", "Date", "Result", "WhiteElo", "BlackElo", "ECO", "FEN", "SetUp",
];

/// The game as PGN tags and a movetext tree.
pub fn to_tree(g: &CbGame) -> TreeGame {
    let mut tags = vec![
        ("Event".to_string(), or_unknown(&g.source)),
        ("White".to_string(), or_unknown(&g.white)),
        ("Black".to_string(), or_unknown(&g.black)),
        (
            "Date".to_string(),
            g.year
                .map_or_else(|| "????.??.??".to_string(), |y| format!("{y:04}.??.??")),
        ),
    ];
    for (name, elo) in [("WhiteElo", g.white_elo), ("BlackElo", g.black_elo)] {
        if let Some(e) = elo {
            tags.push((name.to_string(), e.to_string()));
        }
    }
    if let Some(eco) = &g.eco {
        tags.push(("ECO".to_string(), eco.clone()));
    }
    let (pos, first_move_number, black_first) = match g.start.as_deref().and_then(start_pos) {
        Some(p) => {
            tags.push(("SetUp".to_string(), "1".to_string()));
            tags.push((
                "FEN".to_string(),
                Fen::from_position(&p, EnPassantMode::Legal).to_string(),
            ));
            let n = p.fullmoves().get();
            let black = p.turn() == shakmaty::Color::Black;
            (p, n, black)
        }
        None => (Chess::default(), 1, false),
    };
    TreeGame {
        tags,
        first_move_number,
        black_first,
        moves: tree_line(&g.moves, pos),
        result: g.result.pgn().to_string(),
    }
}

fn or_unknown(s: &str) -> String {
    if s.trim().is_empty() {
        "?".to_string()
    } else {
        s.to_string()
    }
}

fn start_pos(fen: &str) -> Option<Chess> {
    fen.parse::<Fen>()
        .ok()?
        .into_position(CastlingMode::Standard)
        .ok()
}

fn tree_line(line: &[Ply], mut pos: Chess) -> PgnLine {
    let mut out = PgnLine::default();
    for ply in line {
        let mut node = PgnNode {
            san: san_of(&pos, &ply.mv),
            ..PgnNode::default()
        };
        if let Some(c) = &ply.comment {
            node.nags = [c.move_eval, c.pos_eval, c.extra]
                .into_iter()
                .filter(|n| *n != 0)
                .collect();
            if !c.text.trim().is_empty() {
                node.comments.push(c.text.clone());
            }
        }
        node.variations = ply
            .variations
            .iter()
            .map(|v| tree_line(v, pos.clone()))
            .collect();
        out.moves.push(node);
        pos.play_unchecked(ply.mv);
    }
    out
}

/// A PGN game converted: the game as stored (or why it cannot be stored
/// at all: the first problem) and what was changed or left out, one
/// message each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Converted {
    /// The game for the CBF, or why there is none.
    pub game: Result<CbGame, ConvertError>,
    /// What the format could not hold (cut, rounded or left out).
    pub losses: Vec<String>,
    /// Tags with a value that the format has no place for.
    pub tags_not_kept: Vec<String>,
}

/// Why a PGN game cannot be stored at all (what it can lose is a loss,
/// said in [`Converted::losses`], not an error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    /// The FEN tag is not a legal position.
    #[error("FEN {0:?} is not a legal position")]
    Fen(String),
    /// A move (on the given line of the PGN text) does not read or is not
    /// legal.
    #[error("line {line}: move {san:?}: {why}")]
    Move {
        line: usize,
        san: String,
        why: crate::game::SanError,
    },
    /// A match game's PGN text reads back as another number of games.
    #[error("its PGN reads as {0} games")]
    Games(usize),
    /// A match game's PGN text does not read back.
    #[error("its PGN does not read back: {0}")]
    ReadBack(String),
    /// The converted game does not fit a record.
    #[error(transparent)]
    Encode(#[from] super::record::EncodeError),
}

impl Converted {
    /// Nothing stored, for `why`.
    fn failed(why: ConvertError) -> Converted {
        Converted {
            game: Err(why),
            losses: Vec::new(),
            tags_not_kept: Vec::new(),
        }
    }

    /// The game encoded as a CBF record, or why it cannot be.
    pub fn record(&self) -> Result<Vec<u8>, ConvertError> {
        match &self.game {
            Ok(g) => Ok(super::record::encode_record(g)?),
            Err(e) => Err(e.clone()),
        }
    }
}

/// Converts one PGN game for a CBF record.
pub fn from_pgn(t: &PgnText) -> Converted {
    let mut losses = Vec::new();
    let game = convert(t, &mut losses);
    let mut c = Converted {
        game,
        losses,
        tags_not_kept: Vec::new(),
    };
    c.tags_not_kept = t
        .tags
        .iter()
        .filter(|(n, v)| {
            let v = v.trim();
            !KEPT_TAGS.contains(&n.as_str()) && !v.is_empty() && v != "?" && v != "-"
        })
        .map(|(n, _)| n.clone())
        .collect();
    // The record holds the year only.
    if t.tag("Date")
        .and_then(|d| d.get(4..))
        .is_some_and(|md| md.bytes().any(|b| b.is_ascii_digit()))
    {
        c.tags_not_kept.push("Date (month and day)".into());
    }
    c
}

/// Converts a game as argus writes it (a finished match game) for a CBF
/// record, through its PGN text: what [`from_pgn`] keeps of that text (its
/// clock comments too) and reports.
pub fn from_pgn_game(g: &PgnGame) -> Converted {
    match read_pgn_games(&write_pgn(g)) {
        Ok(games) if games.len() == 1 => from_pgn(&games[0]),
        Ok(games) => Converted::failed(ConvertError::Games(games.len())),
        Err(e) => Converted::failed(ConvertError::ReadBack(e.to_string())),
    }
}

fn convert(t: &PgnText, losses: &mut Vec<String>) -> Result<CbGame, ConvertError> {
    let tag = |n: &str| {
        t.tag(n)
            .map(str::trim)
            .filter(|v| !v.is_empty() && *v != "?")
    };
    let mut g = CbGame {
        result: CbResult::from_pgn(t.result.as_deref().or(tag("Result")).unwrap_or("*")),
        ..CbGame::default()
    };
    let white = storable(tag("White").unwrap_or(""), "White", losses);
    let black = storable(tag("Black").unwrap_or(""), "Black", losses);
    // The player text is "White-Black": a '-' in White's name would move
    // the split, so it is written as a space.
    let white = if white.contains('-') {
        losses.push(format!(
            "White {white:?}: '-' written as ' ' (it separates the names)"
        ));
        white.replace('-', " ")
    } else {
        white
    };
    let room = MAX_TEXT - 1;
    (g.white, g.black) = if white.chars().count() + black.chars().count() > room {
        // Each name gets half the room, and what the other leaves.
        let bl = black.chars().count();
        let w = cut(&white, (room / 2).max(room.saturating_sub(bl)));
        let b = cut(&black, room - w.chars().count());
        losses.push(format!(
            "players {white:?} and {black:?}: cut to {w:?} and {b:?} (the player text holds {MAX_TEXT} bytes)"
        ));
        (w, b)
    } else {
        (white, black)
    };
    let source = storable(tag("Event").unwrap_or(""), "Event", losses);
    g.source = cut(&source, MAX_TEXT);
    if g.source != source {
        losses.push(format!(
            "Event {source:?}: cut to {:?} ({MAX_TEXT} bytes)",
            g.source
        ));
    }
    if let Some(date) = tag("Date") {
        match date.get(..4).and_then(|y| y.parse::<i32>().ok()) {
            Some(y) if (1772..=2026).contains(&y) => g.year = Some(y),
            Some(y) => losses.push(format!("year {y} left out (the format holds 1772-2026)")),
            None => {}
        }
    }
    for (name, slot) in [
        ("WhiteElo", &mut g.white_elo),
        ("BlackElo", &mut g.black_elo),
    ] {
        let Some(v) = tag(name) else { continue };
        match v.parse::<u16>() {
            Ok(e) if (1603..=2877).contains(&e) => {
                let r = (e + 2) / 5 * 5;
                if r != e {
                    losses.push(format!("{name} {e} rounded to {r} (steps of 5)"));
                }
                *slot = Some(r);
            }
            _ => losses.push(format!(
                "{name} {v:?} left out (the format holds 1605-2875)"
            )),
        }
    }
    let start = match tag("FEN") {
        Some(fen) => {
            let p = start_pos(fen).ok_or_else(|| ConvertError::Fen(fen.to_string()))?;
            if p.halfmoves() > 0 {
                losses.push(format!(
                    "FEN {fen:?}: the halfmove clock {} left out (the format holds the move number only)",
                    p.halfmoves()
                ));
            }
            (p != Chess::default()).then_some(p)
        }
        None => None,
    };
    if let Some(eco) = tag("ECO") {
        let ok = eco.len() == 3
            && ('A'..='F').contains(&eco.chars().next().unwrap_or(' '))
            && eco.bytes().skip(1).all(|b| b.is_ascii_digit());
        if !ok {
            losses.push(format!("ECO {eco:?} left out (not A00-F99)"));
        } else if start.is_some() {
            losses.push(format!(
                "ECO {eco} left out (a game with a starting position has no ECO field)"
            ));
        } else {
            g.eco = Some(eco.to_string());
        }
    }
    g.start = start
        .as_ref()
        .map(|p| Fen::from_position(p, EnPassantMode::Legal).to_string());
    let pos = start.unwrap_or_default();
    for c in &t.tree.comments {
        losses.push(format!(
            "comment {:?} before the first move left out (a CBF comment follows a move)",
            short(c)
        ));
    }
    let mut budget = Budget {
        half_moves: 0,
        comment_bytes: 0,
    };
    let mut moves = plies(&t.tree, pos.clone(), 0, losses, &mut budget)?;
    if budget.half_moves > MAX_HALF_MOVES {
        let variations: usize = moves
            .iter()
            .map(|p| p.variations.iter().map(|v| count(v)).sum::<usize>())
            .sum();
        if moves.len() <= MAX_HALF_MOVES {
            losses.push(format!(
                "{variations} half-moves of variations left out (the format holds {MAX_HALF_MOVES} half-moves with variations)"
            ));
        } else {
            losses.push(format!(
                "the main line cut after {MAX_HALF_MOVES} of {} half-moves and {variations} half-moves of variations left out (the format holds {MAX_HALF_MOVES})",
                moves.len()
            ));
            moves.truncate(MAX_HALF_MOVES);
        }
        for p in &mut moves {
            p.variations.clear();
        }
    }
    g.moves = moves;
    Ok(g)
}

/// What a game has used so far of the format's limits.
struct Budget {
    half_moves: usize,
    comment_bytes: usize,
}

fn count(line: &[Ply]) -> usize {
    line.iter()
        .map(|p| 1 + p.variations.iter().map(|v| count(v)).sum::<usize>())
        .sum()
}

fn plies(
    line: &PgnLine,
    mut pos: Chess,
    depth: usize,
    losses: &mut Vec<String>,
    budget: &mut Budget,
) -> Result<Vec<Ply>, ConvertError> {
    let mut out = Vec::with_capacity(line.moves.len());
    for node in &line.moves {
        let mv = parse_san(&pos, &node.san).map_err(|why| ConvertError::Move {
            line: node.line,
            san: node.san.clone(),
            why,
        })?;
        budget.half_moves += 1;
        let mut variations = Vec::new();
        for v in &node.variations {
            if depth + 1 > MAX_DEPTH {
                losses.push(format!(
                    "line {}: a variation nested deeper than {MAX_DEPTH} left out",
                    node.line
                ));
                continue;
            }
            for c in &v.comments {
                losses.push(format!(
                    "line {}: comment {:?} before a variation's first move left out",
                    node.line,
                    short(c)
                ));
            }
            variations.push(plies(v, pos.clone(), depth + 1, losses, budget)?);
        }
        let comment = comment_of(node, &pos, &mv, losses, budget);
        out.push(Ply {
            mv,
            comment,
            variations,
        });
        pos.play_unchecked(mv);
    }
    Ok(out)
}

/// The CBF comment for a move: its NAGs (one per kind) and its comments
/// joined by line ends.
fn comment_of(
    node: &PgnNode,
    pos: &Chess,
    mv: &shakmaty::Move,
    losses: &mut Vec<String>,
    budget: &mut Budget,
) -> Option<Comment> {
    if node.nags.is_empty() && node.comments.is_empty() {
        return None;
    }
    let mut c = Comment::default();
    for &n in &node.nags {
        let slot = match n {
            0 => continue,
            1..=9 => &mut c.move_eval,
            10..=135 => &mut c.pos_eval,
            _ => &mut c.extra,
        };
        if *slot == 0 {
            *slot = n;
        } else {
            losses.push(format!(
                "line {}: NAG ${n} left out (one of its kind per move; ${} kept)",
                node.line, *slot
            ));
        }
    }
    let what = format!("line {}: comment", node.line);
    c.text = storable(&node.comments.join("\n"), &what, losses);
    let number = super::movegen::number_of_move(pos, mv).unwrap_or(127);
    let size = 5 + c.text.len();
    if number > 126 {
        losses.push(format!(
            "line {}: the comment on {} left out (a commented move must be numbered under 127, it is {number})",
            node.line, node.san
        ));
        return None;
    }
    if budget.comment_bytes + size > MAX_COMMENTS_PART {
        losses.push(format!(
            "line {}: comment {:?} left out (the comments of a game hold {MAX_COMMENTS_PART} bytes)",
            node.line,
            short(&c.text)
        ));
        return None;
    }
    budget.comment_bytes += size;
    Some(c)
}

/// `s` with every character the format cannot hold as `?` (reported).
fn storable(s: &str, what: &str, losses: &mut Vec<String>) -> String {
    let out: String = s
        .chars()
        .map(|c| if text_byte(c).is_some() { c } else { '?' })
        .collect();
    if out != s {
        losses.push(format!(
            "{what} {:?}: characters outside Latin-1 written as '?'",
            short(s)
        ));
    }
    out
}

/// The longest prefix of `s` that fits in `max` bytes (Latin-1: one byte a
/// character).
fn cut(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

fn short(s: &str) -> String {
    let mut t: String = s.chars().take(40).collect();
    if t.len() < s.len() {
        t.push_str("...");
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chessbase::record::{decode_record, encode_record};
    use crate::record::pgn_read::read_pgn_games;
    use crate::record::pgn_tree::write_tree;

    fn one(pgn: &str) -> Converted {
        from_pgn(&read_pgn_games(pgn).unwrap()[0])
    }

    const ANNOTATED: &str = "[Event \"Hastings\"]\n[Site \"Hastings ENG\"]\n[Date \"1895.08.05\"]\n\
        [White \"Pillsbury, H\"]\n[Black \"Tarrasch, S\"]\n[Result \"0-1\"]\n[WhiteElo \"2600\"]\n\
        [ECO \"D63\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. Nf3 Nbd7 6. Rc1 O-O \
        7. e3 b6 $6 {Loses time} (7... c5 $1 {Better} 8. dxc5 (8. Qa4 a6) 8... Nxc5) 8. cxd5 exd5 0-1\n";

    #[test]
    fn a_game_goes_through_a_record_and_back_with_everything() {
        let c = one(ANNOTATED);
        assert_eq!(c.losses, Vec::<String>::new());
        assert_eq!(c.tags_not_kept, ["Site", "Date (month and day)"]);
        let g = c.game.unwrap();
        let back = decode_record(&encode_record(&g).unwrap()).unwrap();
        assert_eq!(back, g);
        let text = write_tree(&to_tree(&back));
        for want in [
            "[Event \"Hastings\"]",
            "[Date \"1895.??.??\"]",
            "[White \"Pillsbury, H\"]",
            "[Result \"0-1\"]",
            "[WhiteElo \"2600\"]",
            "[ECO \"D63\"]",
        ] {
            assert!(text.contains(want), "{want} in {text}");
        }
        let again = &read_pgn_games(&text).unwrap()[0];
        let g2 = from_pgn(again).game.unwrap();
        assert_eq!(g2, g);
        assert_eq!(g.moves[13].comment.as_ref().unwrap().move_eval, 6);
        assert_eq!(
            g.moves[13].variations[0][0].comment.as_ref().unwrap().text,
            "Better"
        );
    }

    #[test]
    fn what_does_not_fit_is_reported() {
        let long = "x".repeat(70);
        let mut pgn = format!(
            "[Event \"{long}\"]\n[White \"A-B\"]\n[WhiteElo \"2412\"]\n[BlackElo \"3100\"]\n\
             [Date \"1700.01.01\"]\n[ECO \"Z12\"]\n\n{{intro}} 1. e4 $1 $3 "
        );
        for _ in 0..70 {
            pgn.push_str("Nf6 Nf3 Ng8 Ng1 ");
        }
        pgn.push('*');
        let c = one(&pgn);
        let g = c.game.unwrap();
        assert_eq!(g.moves.len(), MAX_HALF_MOVES);
        assert_eq!(g.white, "A B");
        assert_eq!(g.white_elo, Some(2410));
        assert_eq!(g.black_elo, None);
        assert_eq!(g.year, None);
        assert_eq!(g.source.len(), MAX_TEXT);
        let all = c.losses.join("\n");
        for want in [
            "Event",
            "'-' written",
            "rounded to 2410",
            "BlackElo",
            "year 1700",
            "ECO \"Z12\"",
            "before the first move",
            "NAG $3",
            "cut after 250 of 281",
        ] {
            assert!(all.contains(want), "{want} in {all}");
        }
        assert!(encode_record(&g).is_ok());
    }

    #[test]
    fn an_illegal_move_is_an_error_with_its_line() {
        let c = one("[White \"A\"]\n\n1. e4 e5\n2. Ke3 *\n");
        let e = c.game.unwrap_err();
        assert!(
            matches!(&e, ConvertError::Move { line: 4, san, .. } if san == "Ke3"),
            "{e}"
        );
        assert!(e.to_string().starts_with("line 4: move \"Ke3\""), "{e}");
    }

    #[test]
    fn a_match_game_goes_through_its_pgn_text() {
        use crate::record::pgn::PgnMove;
        let g = PgnGame {
            tags: vec![
                ("White".into(), "alpha".into()),
                ("Black".into(), "beta".into()),
                ("Event".into(), "argus match".into()),
                ("Site".into(), "lab".into()),
            ],
            moves: ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
                .iter()
                .map(|san| PgnMove {
                    san: san.to_string(),
                    ..PgnMove::default()
                })
                .collect(),
            ..PgnGame::default()
        };
        let c = from_pgn_game(&g);
        assert_eq!(c.tags_not_kept, ["Site"]);
        let cb = c.game.unwrap();
        assert_eq!((cb.white.as_str(), cb.black.as_str()), ("alpha", "beta"));
        assert_eq!(cb.moves.len(), 7);
        let bad = PgnGame {
            moves: vec![PgnMove {
                san: "Ke2".into(),
                ..PgnMove::default()
            }],
            ..PgnGame::default()
        };
        let e = from_pgn_game(&bad).game.unwrap_err().to_string();
        assert!(e.contains("Ke2"), "{e}");
    }

    #[test]
    fn a_starting_position_is_kept() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 3 40";
        let c = one(&format!(
            "[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n40... Kd7 41. e4 *\n"
        ));
        assert_eq!(c.losses.len(), 1, "{:?}", c.losses);
        assert!(c.losses[0].contains("halfmove clock 3"), "{:?}", c.losses);
        let g = c.game.unwrap();
        let back = decode_record(&encode_record(&g).unwrap()).unwrap();
        let t = to_tree(&back);
        assert_eq!(t.first_move_number, 40);
        assert!(t.black_first);
        assert!(write_tree(&t).contains("40... Kd7 41. e4 *"));
    }
}
