//! A game's movetext as a tree: the main line with its comments, NAGs and
//! variations (RAVs), as [`super::pgn_read`] reads it and [`write_tree`]
//! writes it back (`specs/pgn-standard-1994.txt` sections 8.2.5, 8.2.4.x).
//!
//! No chess here: moves are SAN strings as written.

use super::pgn::{clean_san, push_comment, render, result_token, wrap};

/// One line of moves: a game's main line or a variation.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PgnLine {
    /// Comments before the line's first move (`(1... c5` is preceded by
    /// them in `( {Sicilian} 1... c5 )`).
    pub comments: Vec<String>,
    /// The moves, in order.
    pub moves: Vec<PgnNode>,
}

/// One move with what follows it in the movetext.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PgnNode {
    /// The move as written (no move number, no `!`/`?` suffix).
    pub san: String,
    /// 1-based input line of the move (0 when not read from a file).
    pub line: usize,
    /// NAGs after the move (`$n`; the suffixes `!` `?` `!!` `??` `!?` `?!`
    /// as NAGs 1-6).
    pub nags: Vec<u8>,
    /// Comments after the move, each without its braces.
    pub comments: Vec<String>,
    /// Alternatives to this move, each a line from the position before it.
    pub variations: Vec<PgnLine>,
}

impl PgnLine {
    /// The number of moves in the line and all its variations.
    pub fn count(&self) -> usize {
        self.moves
            .iter()
            .map(|n| 1 + n.variations.iter().map(PgnLine::count).sum::<usize>())
            .sum()
    }

    /// The line with every input line number 0, for comparing lines that
    /// were read from different texts.
    pub fn without_lines(&self) -> PgnLine {
        PgnLine {
            comments: self.comments.clone(),
            moves: self
                .moves
                .iter()
                .map(|n| PgnNode {
                    line: 0,
                    variations: n.variations.iter().map(PgnLine::without_lines).collect(),
                    ..n.clone()
                })
                .collect(),
        }
    }
}

/// The NAG of a move suffix (`!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6).
pub fn suffix_nag(s: &str) -> Option<u8> {
    ["!", "?", "!!", "??", "!?", "?!"]
        .iter()
        .position(|x| *x == s)
        .map(|i| i as u8 + 1)
}

/// A game as a tree for [`write_tree`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TreeGame {
    /// Tag pairs, ordered and escaped as [`super::pgn::write_pgn`] does.
    pub tags: Vec<(String, String)>,
    /// The number of the first move (from the FEN; 0 is written as 1).
    pub first_move_number: u32,
    /// The first move of the main line is Black's.
    pub black_first: bool,
    /// The movetext.
    pub moves: PgnLine,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (anything else is written as `*`).
    pub result: String,
}

/// Renders `g` in PGN export format with its variations as `( ... )` and
/// its comments as `{...}` (a `}` in a comment is written as `)`, line ends
/// as spaces), NAGs as `$n`, every line under 80 columns.
pub fn write_tree(g: &TreeGame) -> String {
    let mut tokens = Vec::new();
    let ply = u64::from(g.first_move_number.max(1) - 1) * 2 + u64::from(g.black_first);
    line_tokens(&mut tokens, &g.moves, ply);
    tokens.push(result_token(&g.result).to_string());
    render(&g.tags, &g.result, &wrap(&tokens))
}

/// Longest token an embedded command is kept in (a longer one, or one never
/// closed, may be broken across lines like any text).
const MAX_COMMAND_TOKEN: usize = 60;

/// Pushes a comment as [`push_comment`] does, each embedded command
/// (`[%clk 0:05:05]`, as a match game's comments carry) kept in one token:
/// the clock supplement puts one space between a command's name and its
/// operand, and readers look for that space, not a line end.
fn push_text_comment(tokens: &mut Vec<String>, text: &str) -> bool {
    let start = tokens.len();
    let pushed = push_comment(tokens, text);
    let mut i = start;
    while i + 1 < tokens.len() {
        let t = &tokens[i];
        let open = t.rfind("[%").is_some_and(|at| !t[at..].contains(']'));
        if open && t.len() + 1 + tokens[i + 1].len() <= MAX_COMMAND_TOKEN {
            let next = tokens.remove(i + 1);
            tokens[i].push(' ');
            tokens[i].push_str(&next);
        } else {
            i += 1;
        }
    }
    pushed
}

/// Pushes the tokens of `line`, whose first move is half-move `ply`
/// (0 = White's first).
fn line_tokens(tokens: &mut Vec<String>, line: &PgnLine, ply: u64) {
    let mut need_number = true;
    for c in &line.comments {
        push_text_comment(tokens, c);
    }
    for (i, node) in line.moves.iter().enumerate() {
        let p = ply + i as u64;
        let number = p / 2 + 1;
        if p.is_multiple_of(2) {
            tokens.push(format!("{number}."));
        } else if need_number {
            tokens.push(format!("{number}..."));
        }
        tokens.push(clean_san(&node.san));
        need_number = false;
        for nag in &node.nags {
            tokens.push(format!("${nag}"));
        }
        for c in &node.comments {
            need_number |= push_text_comment(tokens, c);
        }
        for v in &node.variations {
            tokens.push("(".to_string());
            line_tokens(tokens, v, p);
            tokens.push(")".to_string());
            need_number = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::pgn_read::read_pgn_games;

    const GAME: &str = "[Event \"E\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
        {Start} 1. e4 $1 {King's pawn} e5 (1... c5 {Sicilian} 2. Nf3 (2. c3) d6) \
        (1... e6!?) 2. Nf3 ?! Nc6 3. Bb5 {Ruy} 1-0\n";

    fn node(san: &str) -> PgnNode {
        PgnNode {
            san: san.into(),
            ..PgnNode::default()
        }
    }

    #[test]
    fn reader_keeps_variations_comments_and_nags() {
        let g = &read_pgn_games(GAME).unwrap()[0];
        assert_eq!(g.sans, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        let t = &g.tree;
        assert_eq!(t.comments, ["Start"]);
        assert_eq!(t.moves[0].nags, [1]);
        assert_eq!(t.moves[0].comments, ["King's pawn"]);
        let vars = &t.moves[1].variations;
        assert_eq!(vars.len(), 2);
        assert_eq!(vars[0].moves[0].san, "c5");
        assert_eq!(vars[0].moves[0].comments, ["Sicilian"]);
        assert_eq!(vars[0].moves[1].variations[0].moves[0].san, "c3");
        assert_eq!(vars[0].moves[2].san, "d6");
        assert_eq!(vars[1].moves[0].nags, [5]);
        assert_eq!(t.moves[2].nags, [6]);
        assert_eq!(t.moves[4].comments, ["Ruy"]);
        assert_eq!(t.count(), 10);
    }

    #[test]
    fn writer_numbers_variations_and_reads_back() {
        let g = &read_pgn_games(GAME).unwrap()[0];
        let tree = TreeGame {
            tags: g.tags.clone(),
            first_move_number: 1,
            black_first: false,
            moves: g.tree.clone(),
            result: "1-0".into(),
        };
        let text = write_tree(&tree);
        assert!(
            text.replace('\n', " ").contains(
                "{Start} 1. e4 $1 {King's pawn} 1... e5 ( 1... c5 {Sicilian} 2. Nf3 ( 2. c3 ) \
                 2... d6 ) ( 1... e6 $5 ) 2. Nf3 $6 Nc6 3. Bb5 {Ruy} 1-0"
            ),
            "{text}"
        );
        let back = &read_pgn_games(&text).unwrap()[0];
        assert_eq!(
            PgnLine::without_lines(&back.tree),
            PgnLine::without_lines(&g.tree)
        );
    }

    #[test]
    fn comments_cannot_close_early_and_lines_stay_short() {
        let mut moves = PgnLine::default();
        for i in 0..60 {
            let mut n = node(if i % 2 == 0 { "Nf3" } else { "Nf6" });
            n.comments.push(format!(
                "a }} brace and a long comment number {i}\nwith a line end"
            ));
            n.variations.push(PgnLine {
                comments: vec![],
                moves: vec![node("e4"), node("e5")],
            });
            moves.moves.push(n);
        }
        let text = write_tree(&TreeGame {
            moves,
            result: "*".into(),
            ..TreeGame::default()
        });
        assert!(text.lines().all(|l| l.chars().count() <= 79), "{text}");
        let back = &read_pgn_games(&text).unwrap()[0];
        assert_eq!(back.tree.moves.len(), 60);
        assert_eq!(
            back.tree.moves[0].comments,
            ["a ) brace and a long comment number 0 with a line end"]
        );
        assert_eq!(back.tree.count(), 180);
    }

    #[test]
    fn embedded_commands_are_never_broken_across_lines() {
        let mut moves = PgnLine::default();
        for i in 0..40 {
            let mut n = node(if i % 2 == 0 { "Nf3" } else { "Nf6" });
            n.comments
                .push(format!("[%clk 0:05:{i:02}] [%emt 0:00:00.{i:03}] and text"));
            moves.moves.push(n);
        }
        let mut open = node("e4");
        open.comments
            .push(format!("[%never closed {}", "word ".repeat(30)));
        moves.moves.push(open);
        let text = write_tree(&TreeGame {
            moves,
            result: "*".into(),
            ..TreeGame::default()
        });
        assert!(text.lines().all(|l| l.chars().count() <= 79), "{text}");
        assert_eq!(text.matches("[%clk 0:05:").count(), 40, "{text}");
        assert_eq!(text.matches("[%emt 0:00:00.").count(), 40, "{text}");
    }
}
