//! Adjudication rules ending games the players have not ended.

use super::harness::*;
use crate::referee::adjudication::Adjudged;
use crate::referee::event::Ending;
use crate::referee::messages::{GameResult, Termination};
use crate::referee::settings::Settings;
use crate::referee::tablebase::TablebaseOutcome;

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
    let why = "Draw by adjudication: 2 moves played (--max-moves)";
    assert_eq!(g.ending, Ending::Rule(Adjudged::MaxMoves { moves: 2 }));
    assert_eq!(g.ending.to_string(), why);
    let pgn = h.final_pgn();
    assert!(pgn.contains("[Termination \"adjudication\"]"), "{pgn}");
    assert!(pgn.contains("1/2-1/2"), "{pgn}");
    assert!(
        h.transcript()
            .contains("Draw by adjudication: 2 moves played"),
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

/// Plays `moves` alternately, each reply carrying `ce` with its move.
fn play_with_ce(h: &mut Harness, mut at: u64, moves: &[(&str, i32)]) -> u64 {
    for (san, ce) in moves {
        let who = h.on_move().expect("someone is on move");
        at += 1_000;
        h.reply_with(who, at, Some(san), &format!("ce {ce}; acd 9;"));
    }
    at
}

#[test]
fn draw_adjudication_ends_a_quiet_game_on_the_evaluations() {
    let mut h = Harness::new(Settings {
        draw_adjudication: Some("movenumber=2 movecount=2 score=10".parse().unwrap()),
        ..no_credit(settings())
    });
    let t = h.start();
    let t = play_with_ce(&mut h, t, &[("Nf3", 10), ("Nf6", -10), ("Ng1", 0)]);
    assert!(
        h.game_overs().is_empty(),
        "three plies are not two moves each"
    );
    play_with_ce(&mut h, t, &[("Ng8", 5)]);
    let g = h.game_over();
    assert_eq!(g.result, GameResult::Draw);
    assert_eq!(g.termination, Termination::Adjudication);
    let why = "Draw by adjudication: both scores within 10 cp of 0 for 2 moves \
               (--draw-adjudication)";
    let rule = Adjudged::Draw {
        score: 10,
        moves: 2,
    };
    assert_eq!(g.ending, Ending::Rule(rule));
    assert_eq!(g.ending.to_string(), why);
    let pgn = h.final_pgn().replace('\n', " ");
    assert!(pgn.contains("[Termination \"adjudication\"]"), "{pgn}");
    assert!(
        pgn.contains("1. Nf3 {+0.10/9 1.0s} 1... Nf6 {-0.10/9"),
        "{pgn}"
    );
    assert!(pgn.contains(&format!("{{{why}}} 1/2-1/2")), "{pgn}");
    assert!(h.transcript().contains(why), "{}", h.transcript());
}

#[test]
fn a_pawn_move_or_a_reply_without_ce_starts_the_draw_count_again() {
    let mut h = Harness::new(Settings {
        draw_adjudication: Some("movenumber=0 movecount=1 score=10".parse().unwrap()),
        ..settings()
    });
    let t = h.start();
    // e5 is a pawn move: it starts the count again (with itself).
    let t = play_with_ce(&mut h, t, &[("Nf3", 0), ("e5", 0)]);
    assert!(h.game_overs().is_empty());
    let who = h.on_move().unwrap();
    h.reply(who, t + 1_000, "Nc3");
    let t = play_with_ce(&mut h, t + 1_000, &[("Nc6", 0)]);
    assert!(
        h.game_overs().is_empty(),
        "a reply without ce breaks the run"
    );
    play_with_ce(&mut h, t, &[("Nb1", 0)]);
    assert_eq!(h.game_over().termination, Termination::Adjudication);
}

#[test]
fn resign_adjudication_gives_the_game_to_the_side_the_loser_agrees_is_winning() {
    let mut h = Harness::new(Settings {
        resign_adjudication: Some("movecount=2 score=300".parse().unwrap()),
        ..no_credit(settings())
    });
    let t = h.start();
    let t = play_with_ce(&mut h, t, &[("e4", 50), ("f6", -300), ("d4", 0)]);
    assert!(h.game_overs().is_empty());
    play_with_ce(&mut h, t, &[("g5", -32762)]);
    let g = h.game_over();
    assert_eq!(g.result, GameResult::Win(shakmaty::Color::White));
    assert_eq!(g.termination, Termination::Adjudication);
    let reason = g.ending.to_string();
    assert!(
        reason.starts_with("White wins by adjudication: Black's score at or below -300 cp"),
        "{reason}"
    );
    let pgn = h.final_pgn().replace('\n', " ");
    assert!(
        pgn.contains("2... g5 {-M5/9 1.0s} {White wins by adjudication"),
        "{pgn}"
    );
    assert!(pgn.ends_with("(--resign-adjudication)} 1-0  "), "{pgn:?}");
}

fn verdict(ply: usize, material: &str, outcome: &str) -> crate::referee::Input {
    crate::referee::Input::Tablebase(format!("{ply} {material} {outcome}").parse().unwrap())
}

#[test]
fn a_tablebase_verdict_on_the_position_in_play_ends_the_game_by_adjudication() {
    // White to move with king and rook against king: the tables win it.
    let mut h = Harness::new(at_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 60"));
    let t = h.start();
    let t = h.play(t, 1_000, &["Ra5+", "Kd4"]);
    h.feed(verdict(2, "KRvK", "1-0"), t + 5);
    let g = h.game_over();
    assert_eq!(g.result, GameResult::Win(shakmaty::Color::White));
    assert_eq!(g.termination, Termination::Adjudication);
    assert_eq!(
        g.ending,
        Ending::Tablebase {
            material: "KRvK".into(),
            outcome: TablebaseOutcome::Win(shakmaty::Color::White),
        }
    );
    assert_eq!(
        g.ending.to_string(),
        "White wins by adjudication: SyzygyTB (KRvK is won in the tables)"
    );
    let pgn = h.final_pgn();
    assert!(pgn.contains("[Termination \"adjudication\"]"), "{pgn}");
    assert!(
        pgn.contains("{White wins by adjudication: SyzygyTB"),
        "{pgn}"
    );
    // Both clients are told the result.
    for who in crate::referee::ClientId::BOTH {
        assert_eq!(h.last(who).refcom(), crate::epd::RefCom::Conclude);
    }
}

#[test]
fn a_cursed_win_is_adjudicated_a_draw() {
    let mut h = Harness::new(at_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 60"));
    let t = h.start();
    h.feed(verdict(0, "KRvK", "cursed-1-0"), t + 5);
    let g = h.game_over();
    assert_eq!(g.result, GameResult::Draw);
    let reason = g.ending.to_string();
    assert!(
        reason.contains("but not before the 50-move rule"),
        "{reason}"
    );
}

#[test]
fn a_verdict_on_a_position_the_game_has_left_is_ignored() {
    let mut h = Harness::new(at_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 60"));
    let t = h.start();
    let t = h.play(t, 1_000, &["Ra5+"]);
    // The verdict was probed before Black's reply came in: stale.
    let t = h.play(t, 1_000, &["Kd4"]);
    h.feed(verdict(1, "KRvK", "1-0"), t + 5);
    assert!(h.game_overs().is_empty(), "a stale verdict ended the game");
    // Nor does a verdict end a game that is already over.
    h.command(crate::referee::Command::AbortGame, t + 10);
    h.feed(verdict(2, "KRvK", "1-0"), t + 20);
    assert_eq!(h.game_overs().len(), 1);
    assert_eq!(h.game_over().termination, Termination::Abandoned);
}
