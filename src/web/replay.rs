//! A finished game for the audience to step through (`/game/N.json`):
//! the position after each move, each move's squares, and what the PGN
//! keeps of each move (times and scores, as the live boards have them),
//! built from the game's [`PgnGame`] by a pure function; no I/O.
//!
//! The start position is the PGN's `FEN` tag (by the `Variant` tag's
//! rules), else the initial position; the moves are replayed from it and
//! stop at the first that does not play (the referee wrote them, so this
//! cannot happen; the view then shows the moves up to it).

use serde::Serialize;
use shakmaty::{Color, Position};

use crate::game::{Variant, fen_of, parse_san, position_from_fen_in};
use crate::record::pgn::PgnGame;
use crate::text::strip_control;
use crate::web::analysis::{PlyState, analysis_of};

/// One finished game, as the page steps through it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameView {
    /// The game's number in the event.
    pub game: u32,
    /// The PGN `Round` tag (`3.2`), `?` when none.
    pub round: String,
    /// Stripped of control characters; still to be escaped where shown.
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The PGN `Termination` tag, when there is one.
    pub termination: Option<String>,
    /// The PGN `TimeControl` tag, `-` when none.
    pub time_control: String,
    /// The position before the first move.
    pub start_fen: String,
    /// The moves in SAN.
    pub moves: Vec<String>,
    /// The position after each move (`fens[i]` after `moves[i]`).
    pub fens: Vec<String>,
    /// Each move's from and to squares.
    pub last_moves: Vec<[String; 2]>,
    /// The side to move is in check after each move.
    pub checks: Vec<bool>,
    /// The start position's full move number and whether Black moves first.
    pub first_move_number: u32,
    pub black_first: bool,
    /// Each move's time, the mover's clock after it and its score from
    /// White's view, aligned with `moves` (as a live board's `plies`).
    pub plies: Vec<PlyState>,
}

fn tag<'a>(g: &'a PgnGame, name: &str) -> Option<&'a str> {
    g.tags
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The view of game `number`, whose PGN is `g`.
pub fn view_of(number: u32, g: &PgnGame) -> GameView {
    let variant = match tag(g, "Variant") {
        Some(v) if v.eq_ignore_ascii_case("chess960") || v.eq_ignore_ascii_case("fischerandom") => {
            Variant::Chess960
        }
        _ => Variant::Standard,
    };
    let start = tag(g, "FEN")
        .and_then(|fen| position_from_fen_in(fen, variant).ok())
        .unwrap_or_default();
    let mut pos = start.clone();
    let mut view = GameView {
        game: number,
        round: strip_control(tag(g, "Round").unwrap_or("?")),
        white: strip_control(tag(g, "White").unwrap_or("?")),
        black: strip_control(tag(g, "Black").unwrap_or("?")),
        result: crate::record::pgn::result_token(&g.result).to_string(),
        termination: tag(g, "Termination").map(strip_control),
        time_control: strip_control(tag(g, "TimeControl").unwrap_or("-")),
        start_fen: fen_of(&start),
        moves: Vec::new(),
        fens: Vec::new(),
        last_moves: Vec::new(),
        checks: Vec::new(),
        first_move_number: start.fullmoves().get(),
        black_first: start.turn() == Color::Black,
        plies: Vec::new(),
    };
    for m in &g.moves {
        let Ok(mv) = parse_san(&pos, &m.san) else {
            break;
        };
        view.moves.push(crate::game::san_of(&pos, &mv));
        let from = mv.from().map_or_else(String::new, |s| s.to_string());
        view.last_moves.push([from, mv.to().to_string()]);
        pos.play_unchecked(mv);
        view.fens.push(fen_of(&pos));
        view.checks.push(pos.is_check());
    }
    let played = &g.moves[..view.moves.len()];
    view.plies = analysis_of(&start, &view.moves, played).plies;
    view
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::pgn::{MoveEval, PgnMove};

    fn mv(san: &str) -> PgnMove {
        PgnMove {
            san: san.into(),
            ..PgnMove::default()
        }
    }

    #[test]
    fn each_move_gives_the_position_after_it_and_its_squares() {
        let mut moves = vec![
            mv("e4"),
            mv("e5"),
            mv("Qh5"),
            mv("Nc6"),
            mv("Bc4"),
            mv("Nf6"),
            mv("Qxf7#"),
        ];
        moves[2].eval = Some(MoveEval {
            ce: 50,
            ..MoveEval::default()
        });
        let g = PgnGame {
            tags: vec![
                ("White".into(), "A\x1b[31m<b>".into()),
                ("Black".into(), "B".into()),
                ("Round".into(), "2.1".into()),
            ],
            moves,
            result: "1-0".into(),
            ..PgnGame::default()
        };
        let v = view_of(7, &g);
        assert_eq!(v.game, 7);
        assert_eq!((v.white.as_str(), v.round.as_str()), ("A[31m<b>", "2.1"));
        assert_eq!(v.moves.len(), 7);
        assert_eq!(
            v.fens[0],
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
        );
        assert_eq!(
            v.fens[6],
            "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
        );
        assert_eq!(v.last_moves[6], ["h5".to_string(), "f7".to_string()]);
        assert_eq!(v.checks, [false, false, false, false, false, false, true]);
        assert_eq!(v.plies[2].cp, Some(50));
        assert_eq!(v.plies[3].cp, None);
        assert_eq!(v.result, "1-0");
        assert!(!v.black_first && v.first_move_number == 1);
    }

    #[test]
    fn a_set_up_start_and_a_move_that_does_not_play() {
        let g = PgnGame {
            tags: vec![("FEN".into(), "4k3/8/8/8/8/8/4P3/4K3 b - - 0 12".into())],
            moves: vec![mv("Kd7"), mv("e4"), mv("Qh5"), mv("Kc7")],
            ..PgnGame::default()
        };
        let v = view_of(1, &g);
        assert_eq!(v.moves, ["Kd7", "e4"]);
        assert_eq!(v.plies.len(), 2);
        assert!(v.black_first);
        assert_eq!(v.first_move_number, 12);
        assert_eq!(v.start_fen, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 12");
    }
}
