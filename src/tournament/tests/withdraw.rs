//! Withdrawals from a Swiss event or a knockout: by the supervisor during
//! the event (the game in progress lost on its board, the games not begun
//! forfeited, paired no more), announced before it (`--withdraw
//! NAME:ROUND`), journaled and replayed.

use shakmaty::Color;

use super::resume::header;
use super::swiss::{pairings, swiss};
use super::{Run, settings};
use crate::referee::GameResult;
use crate::tournament::journal::{Line, TournamentWriter, load};
use crate::tournament::knockout::By;
use crate::tournament::schedule::Format;
use crate::tournament::{
    Absent, ByeKind, GameDecision, GameState, Input, Output, PlayerId, Withdrawal, report,
};

/// Whether `p` has a game in round `round`.
fn plays_in(r: &Run, p: PlayerId, round: u32) -> bool {
    r.t.games().any(|(g, _)| g.round == round && g.has(p))
}

#[test]
fn the_supervisor_withdraws_a_player_mid_game_it_loses_that_game_and_is_paired_no_more() {
    let mut r = Run::new(swiss(6, 4, |_| {}));
    r.sign_on(0..6);
    let (board, game) = r.running[1];
    let gone = game.white;
    r.at += 500;
    r.input(Input::Withdraw { player: gone });
    assert!(
        r.outputs.contains(&Output::Withdrawn {
            player: gone,
            why: Withdrawal::Supervisor { round: 1 },
        }),
        "{:?}",
        r.outputs
    );
    assert!(r.t.players()[gone.0].withdrawn);
    // Its game goes on until its board ends it, lost by White.
    assert_eq!(
        r.t.concessions(),
        vec![(board, game.number, Some(Color::White))]
    );
    assert_eq!(r.t.game_state(game.number), Some(GameState::Playing(board)));
    r.finish(game.number, GameResult::Win(Color::Black));
    assert!(r.t.concessions().is_empty());
    r.play_out();
    assert!(r.t.is_over());
    let p = pairings(&r.outputs);
    assert_eq!(p.len(), 4);
    for round in &p[1..] {
        assert!(
            round.byes.contains(&(gone, ByeKind::Zero)),
            "round {}: {round:?}",
            round.round
        );
        assert!(!plays_in(&r, gone, round.round));
    }
    // A game begun is a game played: a loss over the board, not a forfeit.
    let st = crate::tournament::Standings::of(&r.t);
    let row = st.rows.iter().find(|x| x.player == gone).unwrap();
    assert_eq!((row.losses, row.forfeits_lost, row.halves), (1, 0, 0));
    let text = report::text(&r.t);
    let name = r.t.name(gone).to_string();
    assert!(
        text.contains(&format!(
            "Withdrawn, paired no more: {name} (by the supervisor in round 1)"
        )),
        "{text}"
    );
    // The TRF: its rounds after the first are zero-point byes, and every
    // round re-pairs the same.
    let trf = crate::tournament::swiss_event::trf(&r.t, &Default::default());
    let line = trf
        .lines()
        .find(|l| l.starts_with("001") && l.contains(&name))
        .unwrap();
    assert_eq!(line.matches("0000 - Z").count(), 3, "{line}");
    let read = crate::swiss::trf::read(&trf, false).unwrap();
    for c in crate::swiss::check::check(&read.event) {
        assert_eq!(c.verdict, crate::swiss::check::Verdict::Same, "{trf}");
    }
}

#[test]
fn a_withdrawn_players_game_not_begun_is_forfeited_at_once() {
    let mut r = Run::new(swiss(6, 3, |s| s.boards = Some(1)));
    r.sign_on(0..6);
    assert_eq!(r.running.len(), 1);
    let pending =
        r.t.games()
            .find(|(_, s)| *s == GameState::Pending)
            .map(|(g, _)| *g)
            .unwrap();
    r.input(Input::Withdraw {
        player: pending.black,
    });
    assert_eq!(
        r.t.game_state(pending.number),
        Some(GameState::Decided(GameDecision::Forfeited(Absent::One(
            Color::Black
        ))))
    );
    // Nothing on a board is its: nothing to concede.
    assert!(r.t.concessions().is_empty());
    r.play_out();
    assert!(r.t.is_over());
}

#[test]
fn a_conceded_game_that_ends_without_a_result_is_forfeited_not_played_again() {
    let mut r = Run::new(swiss(4, 2, |_| {}));
    r.sign_on(0..4);
    let (_, game) = r.running[0];
    r.input(Input::Withdraw { player: game.white });
    r.input(Input::Withdraw { player: game.black });
    // Both withdrew: the board ends the game without a result.
    assert_eq!(r.t.concessions()[0].2, None);
    r.finish(game.number, GameResult::None);
    assert_eq!(
        r.t.game_state(game.number),
        Some(GameState::Decided(GameDecision::Forfeited(Absent::Both)))
    );
    r.play_out();
    assert!(r.t.is_over());
}

#[test]
fn an_announced_withdrawal_takes_effect_before_its_round_is_paired() {
    let gone = PlayerId(2);
    let mut r = Run::new(swiss(6, 3, |s| s.swiss.withdrawals = vec![(gone, 2)]));
    r.sign_on(0..6);
    assert!(plays_in(&r, gone, 1));
    r.play_out();
    assert!(r.t.is_over());
    let said = r
        .outputs
        .iter()
        .position(|o| {
            *o == Output::Withdrawn {
                player: gone,
                why: Withdrawal::Planned { round: 2 },
            }
        })
        .expect("its withdrawal is said");
    let paired_2 = r
        .outputs
        .iter()
        .position(|o| matches!(o, Output::Paired(p) if p.round == 2))
        .unwrap();
    assert!(said < paired_2, "withdrawn before round 2 is paired");
    for round in &pairings(&r.outputs)[1..] {
        assert!(round.byes.contains(&(gone, ByeKind::Zero)), "{round:?}");
    }
    // No game of its was forfeited: it had none left.
    assert_eq!(
        r.count(|o| matches!(
            o,
            Output::Scored {
                outcome: GameDecision::Forfeited(_),
                ..
            }
        )),
        0
    );
}

#[test]
fn a_knockout_player_withdrawn_loses_its_match_by_walkover() {
    let s = settings(4, |s| {
        s.schedule.format = Format::Knockout;
        s.schedule.games_per_pairing = 2;
        s.ratings = vec![1400, 1300, 1200, 1100];
    });
    let mut r = Run::new(s);
    r.sign_on(0..4);
    // Seed 1 (P1) meets seed 4 (P4), seed 2 (P2) seed 3 (P3).
    let (board, game) = *r.running.iter().find(|(_, g)| g.has(PlayerId(3))).unwrap();
    r.input(Input::Withdraw {
        player: PlayerId(3),
    });
    let loser = if game.white == PlayerId(3) {
        Color::White
    } else {
        Color::Black
    };
    assert_eq!(r.t.concessions(), vec![(board, game.number, Some(loser))]);
    r.finish(game.number, GameResult::Win(!loser));
    while let Some(g) = r.running.front().map(|x| x.1.number) {
        r.finish(g, GameResult::Win(Color::White));
    }
    assert!(r.t.is_over());
    let k = r.t.knockout().unwrap();
    let first = k.rounds()[0]
        .iter()
        .find(|m| m.sides.iter().flatten().any(|s| s.1 == PlayerId(3)))
        .unwrap();
    assert_eq!(first.decided.map(|d| d.0), Some(By::Walkover));
    assert_eq!(first.winner(), Some(PlayerId(0)));
    // Its second game was never played.
    assert!(
        !r.t.games()
            .any(|(g, _)| g.number > game.number && g.has(PlayerId(3)))
    );
}

#[test]
fn a_withdrawal_is_refused_from_a_round_robin_twice_and_for_nobody() {
    let mut r = Run::new(settings(4, |_| {}));
    r.sign_on(0..4);
    let out = r.input(Input::Withdraw {
        player: PlayerId(1),
    });
    assert!(
        matches!(&out[..], [Output::Ignored { reason }] if reason.contains("round-robin")),
        "{out:?}"
    );
    let mut r = Run::new(swiss(4, 2, |_| {}));
    r.input(Input::Withdraw {
        player: PlayerId(1),
    });
    let out = r.input(Input::Withdraw {
        player: PlayerId(1),
    });
    assert!(
        matches!(&out[..], [Output::Ignored { reason }] if reason.contains("already")),
        "{out:?}"
    );
    let out = r.input(Input::Withdraw {
        player: PlayerId(9),
    });
    assert!(matches!(&out[..], [Output::Ignored { .. }]), "{out:?}");
}

#[test]
fn a_withdrawal_is_journaled_and_a_resume_still_ends_its_game() {
    let line = Line::Input {
        at: 12,
        input: Input::Withdraw {
            player: PlayerId(4),
        },
    };
    assert_eq!(line.payload(), "in 12 withdraw 4");
    assert_eq!(Line::parse(&line.payload()).unwrap(), line);
    assert!(Line::parse("in 12 withdraw x").is_err());
    assert!(Line::parse("in 12 withdraw").is_err());

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.journal");
    let s = swiss(6, 3, |s| s.swiss.withdrawals = vec![(PlayerId(5), 3)]);
    let mut w = TournamentWriter::create(&path, &header(s.clone()), 1_700_000_000_000).unwrap();
    let mut r = Run::new(s);
    r.sign_on(0..6);
    let (board, game) = *r.running.iter().find(|(_, g)| !g.has(PlayerId(5))).unwrap();
    r.input(Input::Withdraw { player: game.black });
    for (at, input) in &r.inputs {
        w.input(*at, input).unwrap();
    }
    // Killed before the board ended the game: the resumed core still
    // wants it ended, lost by Black.
    let loaded = load(&path).unwrap();
    assert_eq!(loaded.tournament.withdrawals(), r.t.withdrawals());
    assert_eq!(
        loaded.tournament.concessions(),
        vec![(board, game.number, Some(Color::Black))]
    );
    assert_eq!(
        loaded.tournament.settings().swiss.withdrawals,
        vec![(PlayerId(5), 3)]
    );
    let mut again = Run::from(loaded.tournament);
    again.at = loaded.last_at + 1000;
    again.input(Input::Resumed { on_cables: vec![] });
    again.sign_on(0..6);
    again.finish(game.number, GameResult::Win(Color::White));
    assert!(again.t.concessions().is_empty());
    again.play_out();
    assert!(again.t.is_over());
    let gone: Vec<PlayerId> = again.t.withdrawals().iter().map(|w| w.0).collect();
    assert_eq!(gone, vec![game.black, PlayerId(5)]);
}
