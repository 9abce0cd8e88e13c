//! Adjudication rules ending games the players have not ended.

use super::harness::*;
use crate::referee::io::{GameResult, Termination};
use crate::referee::settings::Settings;

#[test]
fn max_moves_draws_by_adjudication_after_the_last_allowed_move() {
    let mut h = Harness::new(Settings {
        max_moves: Some(2),
        ..settings()
    });
    let t = h.start();
    let t = h.play(t, 1_000, &["e4", "e5", "Nf3"]);
    assert!(h.game_overs().is_empty(), "3 plies are not 2 moves");
    h.play(t, 1_000, &["Nc6"]);
    let g = h.game_over();
    assert_eq!(g.result, GameResult::Draw);
    assert_eq!(g.termination, Termination::Adjudication);
    assert_eq!(
        g.reason,
        "draw by adjudication: 2 moves played (--max-moves)"
    );
    let pgn = h.final_pgn();
    assert!(pgn.contains("[Termination \"adjudication\"]"), "{pgn}");
    assert!(pgn.contains("1/2-1/2"), "{pgn}");
    assert!(
        h.transcript()
            .contains("draw by adjudication: 2 moves played"),
        "{}",
        h.transcript()
    );
}

#[test]
fn a_mate_on_the_last_allowed_move_is_a_mate() {
    let mut h = Harness::new(Settings {
        max_moves: Some(2),
        ..settings()
    });
    let t = h.start();
    h.play(t, 1_000, &["f3", "e5", "g4", "Qh4"]);
    let g = h.game_over();
    assert_eq!(g.result, GameResult::Win(shakmaty::Color::Black));
    assert_eq!(g.termination, Termination::Normal);
}
