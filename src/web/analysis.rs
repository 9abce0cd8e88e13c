//! What the programs said of their moves, for the audience: each move's
//! time, the mover's clock after it and its score from White's view (for
//! the evaluation graph and the time chart), each side's last evaluation
//! with its principal variation in canonical SAN (for the side panels),
//! and the last mover's expected continuation as squares (for arrows on
//! the board). Built from the game's moves as the PGN keeps them
//! ([`PgnMove`]: `[%clk]`, `[%emt]`, and `ce`/`acd`/`acn`/`pv` read from
//! the reply); pure functions, no I/O.
//!
//! Nothing is made up: a move whose reply carried no `ce` has no score,
//! a side that never sent one has no panel, and a PV is kept only as far
//! as its moves are legal from the position before the move, starting
//! with the move played.

use serde::Serialize;
use shakmaty::{Chess, Color, Move, Position};

use crate::game::{parse_san, san_of};
use crate::record::pgn::{MoveEval, PgnMove};

/// The most PV moves published per side (the reply keeps at most 24).
pub const PV_PUBLISHED: usize = 12;
/// The most moves of the last mover's PV drawn on the board.
pub const ARROWS: usize = 2;
/// `ce` values beyond this (either sign) are mate scores (spec 6.7).
const MATE_CE: i32 = 32000;
/// The `ce` of a mate on the board.
const MATED_CE: i32 = 32767;

/// One move's times and score, aligned with the board's `moves`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct PlyState {
    /// The time the move took (`[%emt]`); left out in an untimed game and
    /// for an opening's moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emt_ms: Option<u64>,
    /// The mover's time left after the move (`[%clk]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clk_ms: Option<u64>,
    /// The mover's score in centipawns from White's view; left out for a
    /// mate score and for a move without `ce`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// A mate score: the side that mates (`white` or `black`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate_for: Option<&'static str>,
    /// A mate score: the plies to the mate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate_plies: Option<u32>,
}

/// A side's last evaluation, for its panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SideEval {
    /// The move it came with: its index in `moves`.
    pub ply: usize,
    /// The score from White's view as text: `+0.35`, `-1.20`, `+M5`
    /// (White mates in 5 plies), `-M4` (Black mates in 4).
    pub score: String,
    /// Search depth in plies (`acd`), when sent.
    pub depth: Option<u32>,
    /// Selective depth in plies (`Aseldepth`), when sent.
    pub seldepth: Option<u32>,
    /// Nodes searched (`acn`), when sent.
    pub nodes: Option<u64>,
    /// Nodes a second: the engine's own figure (`Anps`) when sent, else
    /// `nodes` over `time_ms` when both are there.
    pub nps: Option<u64>,
    /// The move's time as the referee measured it.
    pub time_ms: u64,
    /// The principal variation in canonical SAN from the move played on,
    /// as far as its moves are legal (at most [`PV_PUBLISHED`]); empty
    /// when none was sent or its first move is not the move played.
    pub pv: Vec<String>,
}

/// The analysis part of a board.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Analysis {
    pub plies: Vec<PlyState>,
    /// White's last evaluation, then Black's.
    pub sides: [Option<SideEval>; 2],
    /// The last mover's PV past its move, from the current position: at
    /// most [`ARROWS`] moves as from and to squares.
    pub arrows: Vec<[String; 2]>,
}

/// `ce` from White's view: the mover's `ce`, negated for Black.
fn white_ce(ce: i32, mover: Color) -> i32 {
    match mover {
        Color::White => ce,
        Color::Black => -ce,
    }
}

/// The times and score of one move played by `mover`.
fn ply_state(m: &PgnMove, mover: Color) -> PlyState {
    let mut ply = PlyState {
        emt_ms: m.emt_ms,
        clk_ms: m.clk_ms,
        ..PlyState::default()
    };
    if let Some(e) = &m.eval {
        let ce = white_ce(e.ce, mover);
        if ce > MATE_CE {
            ply.mate_for = Some("white");
            ply.mate_plies = Some(u32::try_from(MATED_CE - ce).unwrap_or(0));
        } else if ce < -MATE_CE {
            ply.mate_for = Some("black");
            ply.mate_plies = Some(u32::try_from(MATED_CE + ce).unwrap_or(0));
        } else {
            ply.cp = Some(ce);
        }
    }
    ply
}

/// The PV `texts` read from `before` (the position the move `played` was
/// made in): its legal moves, stopping at the first that is not, and none
/// at all unless the first is the move played. At most [`PV_PUBLISHED`].
fn pv_moves(before: &Chess, played: &Move, texts: &[String]) -> Vec<(Chess, Move)> {
    let mut pos = before.clone();
    let mut moves = Vec::new();
    for text in texts.iter().take(PV_PUBLISHED) {
        let Ok(m) = parse_san(&pos, text) else {
            break;
        };
        if moves.is_empty() && m != *played {
            return Vec::new();
        }
        let at = pos.clone();
        pos.play_unchecked(m);
        moves.push((at, m));
    }
    moves
}

/// A side's panel from its evaluation `e` of the move at `ply`, whose
/// PV is `pv` (each move with the position it is made in).
fn side_eval(ply: usize, mover: Color, e: &MoveEval, pv: &[(Chess, Move)]) -> SideEval {
    let white = MoveEval {
        ce: white_ce(e.ce, mover),
        ..MoveEval::default()
    };
    SideEval {
        ply,
        score: white.score_text(),
        depth: e.depth,
        seldepth: e.seldepth,
        nodes: e.nodes,
        nps: e.nps.or_else(|| {
            e.nodes
                .filter(|_| e.time_ms > 0)
                .map(|n| n.saturating_mul(1000) / e.time_ms)
        }),
        time_ms: e.time_ms,
        pv: pv.iter().map(|(pos, m)| san_of(pos, m)).collect(),
    }
}

/// The analysis of a game from `start` whose moves (in SAN, as the
/// referee wrote them) are `sans`, with what the PGN keeps of each in
/// `moves` (aligned with `sans`; missing ones have nothing).
pub fn analysis_of(start: &Chess, sans: &[String], moves: &[PgnMove]) -> Analysis {
    let nothing = PgnMove::default();
    let mover = |i: usize| {
        if i.is_multiple_of(2) == (start.turn() == Color::White) {
            Color::White
        } else {
            Color::Black
        }
    };
    let record = |i: usize| moves.get(i).unwrap_or(&nothing);
    let plies = (0..sans.len())
        .map(|i| ply_state(record(i), mover(i)))
        .collect();
    // The last move of each colour that carried an evaluation.
    let last_of = |c: Color| {
        (0..sans.len())
            .rev()
            .find(|&i| mover(i) == c && record(i).eval.is_some())
    };
    let wanted = [last_of(Color::White), last_of(Color::Black)];
    let mut sides = [None, None];
    let mut arrows = Vec::new();
    if let Some(until) = wanted.iter().flatten().max().copied() {
        let mut pos = start.clone();
        for (i, san) in sans.iter().enumerate().take(until + 1) {
            let Ok(m) = parse_san(&pos, san) else {
                // The referee's own SAN: cannot happen; show no panel.
                break;
            };
            for (k, w) in wanted.iter().enumerate() {
                if *w == Some(i)
                    && let Some(e) = &record(i).eval
                {
                    let pv = pv_moves(&pos, &m, &e.pv);
                    sides[k] = Some(side_eval(i, mover(i), e, &pv));
                    if i + 1 == sans.len() {
                        arrows = pv
                            .iter()
                            .skip(1)
                            .take(ARROWS)
                            .filter_map(|(_, m)| Some([m.from()?.to_string(), m.to().to_string()]))
                            .collect();
                    }
                }
            }
            pos.play_unchecked(m);
        }
    }
    Analysis {
        plies,
        sides,
        arrows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(ce: i32, depth: Option<u32>, pv: &[&str]) -> Option<MoveEval> {
        Some(MoveEval {
            ce,
            depth,
            time_ms: 2000,
            nodes: Some(3_000_000),
            pv: pv.iter().map(|s| s.to_string()).collect(),
            ..MoveEval::default()
        })
    }

    fn mv(san: &str, eval: Option<MoveEval>) -> PgnMove {
        PgnMove {
            san: san.into(),
            clk_ms: Some(60_000),
            emt_ms: Some(2000),
            eval,
            book: false,
            ponder_hit: None,
        }
    }

    fn sans(moves: &[PgnMove]) -> Vec<String> {
        moves.iter().map(|m| m.san.clone()).collect()
    }

    #[test]
    fn scores_are_from_whites_view_and_a_move_without_ce_has_none() {
        let moves = vec![
            mv("e4", eval(35, Some(12), &[])),
            mv("e5", eval(20, Some(11), &[])),
            mv("Nf3", None),
        ];
        let a = analysis_of(&Chess::default(), &sans(&moves), &moves);
        let cps: Vec<Option<i32>> = a.plies.iter().map(|p| p.cp).collect();
        assert_eq!(cps, vec![Some(35), Some(-20), None]);
        assert_eq!(a.plies[2].emt_ms, Some(2000));
        assert_eq!(a.sides[0].as_ref().unwrap().score, "+0.35");
        assert_eq!(a.sides[1].as_ref().unwrap().score, "-0.20");
        let json = serde_json::to_value(&a.plies[2]).unwrap();
        assert_eq!(json, serde_json::json!({"emt_ms": 2000, "clk_ms": 60000}));
    }

    #[test]
    fn mate_scores_name_the_side_that_mates() {
        let moves = vec![
            // White mates in 5 plies; then Black says it is mated in 4.
            mv("e4", eval(32767 - 5, None, &[])),
            mv("e5", eval(-(32767 - 4), None, &[])),
            mv("Nf3", eval(32767 - 3, None, &[])),
            // Black says it mates in 2.
            mv("Nc6", eval(32767 - 2, None, &[])),
        ];
        let a = analysis_of(&Chess::default(), &sans(&moves), &moves);
        let mates: Vec<(Option<&str>, Option<u32>, Option<i32>)> = a
            .plies
            .iter()
            .map(|p| (p.mate_for, p.mate_plies, p.cp))
            .collect();
        assert_eq!(
            mates,
            vec![
                (Some("white"), Some(5), None),
                (Some("white"), Some(4), None),
                (Some("white"), Some(3), None),
                (Some("black"), Some(2), None),
            ]
        );
        assert_eq!(a.sides[0].as_ref().unwrap().score, "+M3");
        assert_eq!(a.sides[1].as_ref().unwrap().score, "-M2");
    }

    #[test]
    fn the_pv_is_canonical_san_from_the_position_before_the_move() {
        let moves = vec![
            mv("e4", eval(30, Some(10), &["e2e4", "e5", "ng1f3"])),
            // Black's PV: lenient SAN made canonical, cut at the illegal move.
            mv("Nc6", eval(-10, Some(9), &["Nb8c6", "Nf3", "e5", "Ke4"])),
        ];
        let a = analysis_of(&Chess::default(), &sans(&moves), &moves);
        let white = a.sides[0].as_ref().unwrap();
        assert_eq!(white.pv, vec!["e4", "e5", "Nf3"]);
        assert_eq!(white.ply, 0);
        assert_eq!(white.depth, Some(10));
        assert_eq!(white.nps, Some(1_500_000));
        // The engine's own speed and selective depth, when it sent them.
        let own = MoveEval {
            seldepth: Some(21),
            nps: Some(7_000),
            ..eval(30, Some(10), &["e4"]).unwrap()
        };
        let one = vec![mv("e4", Some(own))];
        let side = analysis_of(&Chess::default(), &sans(&one), &one).sides[0].clone();
        let side = side.unwrap();
        assert_eq!((side.nps, side.seldepth), (Some(7_000), Some(21)));
        let black = a.sides[1].as_ref().unwrap();
        assert_eq!(black.pv, vec!["Nc6", "Nf3", "e5"]);
        // Black moved last: its PV past Nc6 is drawn, at most ARROWS moves.
        assert_eq!(
            a.arrows,
            vec![
                ["g1".to_string(), "f3".to_string()],
                ["e7".to_string(), "e5".to_string()]
            ]
        );
    }

    #[test]
    fn a_pv_that_does_not_start_with_the_move_played_is_not_shown() {
        let moves = vec![mv("e4", eval(30, Some(10), &["d4", "d5"]))];
        let a = analysis_of(&Chess::default(), &sans(&moves), &moves);
        assert!(a.sides[0].as_ref().unwrap().pv.is_empty());
        assert!(a.arrows.is_empty());
        assert!(a.sides[1].is_none());
    }

    #[test]
    fn the_published_pv_is_capped() {
        let long: Vec<&str> = ["Nf3", "Nf6", "Ng1", "Ng8"]
            .iter()
            .cycle()
            .take(24)
            .copied()
            .collect();
        let moves = vec![mv("Nf3", eval(0, None, &long))];
        let a = analysis_of(&Chess::default(), &sans(&moves), &moves);
        assert_eq!(a.sides[0].as_ref().unwrap().pv.len(), PV_PUBLISHED);
    }

    #[test]
    fn a_game_from_a_black_to_move_position_has_its_colours_right() {
        let start: Chess = crate::game::position_from_fen(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        )
        .unwrap();
        let moves = vec![mv("e5", eval(50, Some(7), &["e5", "Nf3"]))];
        let a = analysis_of(&start, &sans(&moves), &moves);
        assert_eq!(a.plies[0].cp, Some(-50));
        assert!(a.sides[0].is_none());
        assert_eq!(a.sides[1].as_ref().unwrap().pv, vec!["e5", "Nf3"]);
        assert_eq!(a.arrows, vec![["g1".to_string(), "f3".to_string()]]);
    }
}
