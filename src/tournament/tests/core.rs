//! The state machine: starting games, boards, absences, replays.

use shakmaty::Color;

use super::{Run, finished, settings};
use crate::referee::{GameResult, Termination};
use crate::tournament::{
    Absence, Absent, BoardId, GameDecision, GameState, Input, Output, PlayerId, Tournament,
    Withdrawal,
};

fn all_decided(t: &Tournament) -> bool {
    t.games().all(|(_, s)| matches!(s, GameState::Decided(_)))
}

#[test]
fn a_double_round_robin_plays_every_game_once_on_as_many_boards_as_a_round_has() {
    let mut r = Run::new(settings(4, |s| s.schedule.cycles = 2));
    assert_eq!(r.t.board_count(), 2);
    r.sign_on(0..3);
    // P1 and P2 came first: their game (4, of round 2) goes ahead; P3's
    // games wait for P2 or for P4.
    assert_eq!(r.started(), vec![4]);
    r.sign_on([3]);
    assert_eq!(r.started(), vec![4, 3]);
    assert_eq!(r.running[1].0, BoardId(2));
    r.play_out();
    let mut started = r.started();
    started.sort_unstable();
    assert_eq!(started, (1..=12).collect::<Vec<_>>());
    assert!(all_decided(&r.t) && r.t.is_over());
    assert_eq!(r.count(|o| *o == Output::TournamentOver), 1);
    for round in 1..=6 {
        assert_eq!(
            r.count(|o| *o == Output::RoundOver { round }),
            1,
            "round {round}"
        );
    }
    assert_eq!(r.count(|o| matches!(o, Output::Scored { .. })), 12);
    assert!(r.t.next_deadline().is_none());
}

#[test]
fn the_boards_limit_holds_and_a_player_is_busy_until_its_board_is_free() {
    let mut r = Run::new(settings(6, |s| s.boards = Some(2)));
    r.sign_on(0..6);
    assert_eq!(r.running.len(), 2);
    let before = r.started().len();
    // A game ends but its board is not free yet: its players stay busy and
    // no other game can take the board either.
    let (board, game) = r.running.pop_front().unwrap();
    r.input(finished(game.number));
    assert_eq!(r.started().len(), before);
    // Decided, it still holds its board while it concludes.
    assert!(
        !r.t.in_progress()
            .iter()
            .any(|(_, g)| g.number == game.number)
    );
    assert!(r.t.held().contains(&(board, game)));
    r.input(Input::BoardFree { board });
    assert_eq!(r.started().len(), before + 1);
    assert_eq!(r.running.back().unwrap().0, board);
    r.play_out();
    assert!(r.t.is_over());
    // More boards than a round has games are never used.
    let t = Tournament::new(settings(4, |s| s.boards = Some(100))).unwrap();
    assert_eq!(t.board_count(), 2);
    assert!(Tournament::new(settings(4, |s| s.boards = Some(0))).is_err());
    assert!(Tournament::new(settings(4, |s| s.names.pop().map(drop).unwrap_or(()))).is_err());
}

#[test]
fn with_wait_a_player_absent_at_the_start_holds_only_its_own_games() {
    let mut r = Run::new(settings(4, |_| {}));
    r.sign_on(0..3);
    r.play_out();
    // Every game without P4 is played; P4's three wait, for ever if need be.
    let pending: Vec<u32> =
        r.t.games()
            .filter(|(_, s)| *s == GameState::Pending)
            .map(|(g, _)| g.number)
            .collect();
    assert_eq!(pending.len(), 3);
    assert!(
        pending
            .iter()
            .all(|&n| r.t.schedule().game(n).unwrap().has(PlayerId(3)))
    );
    assert!(!r.t.is_over());
    assert_eq!(r.t.next_deadline(), None);
    r.at += 3_600_000;
    assert!(r.input(Input::Timer).is_empty());
    r.sign_on([3]);
    r.play_out();
    assert!(r.t.is_over());
}

#[test]
fn with_forfeit_a_player_that_never_comes_forfeits_at_the_deadline() {
    let mut r = Run::new(settings(4, |s| {
        s.absence = Absence::Forfeit { after_ms: 60_000 }
    }));
    r.sign_on(0..3);
    assert_eq!(r.t.next_deadline(), Some(60_000));
    r.at = 59_999;
    r.input(Input::Timer);
    assert_eq!(r.count(|o| matches!(o, Output::Withdrawn { .. })), 0);
    r.at = 60_000;
    r.input(Input::Timer);
    assert_eq!(
        r.count(|o| *o
            == Output::Withdrawn {
                player: PlayerId(3),
                why: Withdrawal::AwayTooLong,
            }),
        1
    );
    for (g, s) in r.t.games().filter(|(g, _)| g.has(PlayerId(3))) {
        let colour = if g.white == PlayerId(3) {
            Color::White
        } else {
            Color::Black
        };
        assert_eq!(
            s,
            GameState::Decided(GameDecision::Forfeited(Absent::One(colour)))
        );
    }
    assert_eq!(r.t.next_deadline(), None);
    r.play_out();
    assert!(r.t.is_over());
    // Coming back later changes nothing.
    let out = r.input(Input::SignedOn {
        instance: 0,
        player: PlayerId(3),
    });
    assert!(
        matches!(&out[..], [Output::Ignored { reason }] if reason.contains("P4 signed on again"))
    );
}

#[test]
fn a_player_that_drops_out_mid_event_finishes_nothing_more_but_the_others_play_on() {
    let mut r = Run::new(settings(4, |s| {
        s.absence = Absence::Forfeit { after_ms: 30_000 }
    }));
    r.sign_on(0..4);
    assert_eq!(r.started(), vec![4, 3]);
    // P4 (in game 3, on board 2) is lost; its game goes on on its board.
    r.at = 5_000;
    r.input(Input::Lost {
        instance: 0,
        player: PlayerId(3),
        reason: "hang-up".into(),
    });
    assert_eq!(r.t.next_deadline(), Some(35_000));
    // Back within the grace time: nothing is forfeited.
    r.at = 20_000;
    r.sign_on([3]);
    assert_eq!(r.t.next_deadline(), None);
    r.at = 21_000;
    r.input(Input::Lost {
        instance: 0,
        player: PlayerId(3),
        reason: "hang-up".into(),
    });
    r.play_out();
    // Every game without P4 is played; P4's two others wait.
    assert!(
        r.t.games()
            .all(|(g, s)| g.has(PlayerId(3)) || s != GameState::Pending)
    );
    assert!(
        r.t.games()
            .any(|(g, s)| g.has(PlayerId(3)) && s == GameState::Pending)
    );
    r.at = 51_000;
    r.input(Input::Timer);
    assert_eq!(r.count(|o| matches!(o, Output::Withdrawn { .. })), 1);
    r.play_out();
    assert!(r.t.is_over());
    let played = r.t.game_state(3).unwrap();
    assert!(
        matches!(played, GameState::Decided(GameDecision::Played { .. })),
        "{played:?}"
    );
    let forfeits =
        r.t.games()
            .filter(|(_, s)| matches!(s, GameState::Decided(GameDecision::Forfeited(_))))
            .count();
    assert_eq!(forfeits, 2);
}

#[test]
fn a_program_argus_cannot_start_forfeits_at_once_even_when_the_others_wait() {
    // Issue 29: the tournament waited for ever for an engine it had started
    // itself and could not start again.
    let mut r = Run::new(settings(3, |_| {}));
    r.sign_on(0..3);
    assert_eq!(r.started().len(), 1);
    let (_, game) = r.running[0];
    let gone = game.white;
    r.at = 5_000;
    r.input(Input::Lost {
        instance: 0,
        player: gone,
        reason: "end of file".into(),
    });
    r.at = 6_000;
    let out = r.input(Input::CannotStart {
        player: gone,
        reason: "the engine exited at once".into(),
    });
    let why = Withdrawal::CannotStart("the engine exited at once".into());
    assert!(
        out.contains(&Output::Withdrawn { player: gone, why }),
        "{out:?}"
    );
    // The game it was playing goes on on its board; its other game is
    // forfeited; the others' game is played: the tournament finishes.
    assert_eq!(
        r.t.game_state(game.number),
        Some(GameState::Playing(BoardId(1)))
    );
    r.play_out();
    assert!(r.t.is_over());
    let forfeited =
        r.t.games()
            .filter(|(_, s)| matches!(s, GameState::Decided(GameDecision::Forfeited(_))))
            .count();
    assert_eq!(forfeited, 1);
    // Said once: a second report changes nothing.
    let out = r.input(Input::CannotStart {
        player: gone,
        reason: "again".into(),
    });
    assert!(!out.iter().any(|o| matches!(o, Output::Withdrawn { .. })));
}

#[test]
fn the_tournament_waits_for_the_players_away_with_games_to_play() {
    let mut r = Run::new(settings(3, |_| {}));
    // At the start, for everyone, since time 0.
    assert_eq!(
        r.t.waiting(),
        vec![(PlayerId(0), 0), (PlayerId(1), 0), (PlayerId(2), 0)]
    );
    r.sign_on(0..3);
    assert_eq!(r.t.waiting(), vec![]);
    r.at = 7_000;
    r.input(Input::Lost {
        instance: 0,
        player: PlayerId(1),
        reason: "hang-up".into(),
    });
    assert_eq!(r.t.waiting(), vec![(PlayerId(1), 7_000)]);
    // Withdrawn: nobody waits for it.
    r.input(Input::CannotStart {
        player: PlayerId(1),
        reason: "gone".into(),
    });
    assert_eq!(r.t.waiting(), vec![]);
}

#[test]
fn a_player_lost_in_its_last_game_is_waited_for_as_its_game_waits() {
    let mut r = Run::new(settings(2, |_| {}));
    r.sign_on(0..2);
    assert_eq!(
        r.t.game_state(1),
        Some(GameState::Playing(BoardId(1))),
        "its only game is being played"
    );
    r.at = 5_000;
    r.input(Input::Lost {
        instance: 0,
        player: PlayerId(0),
        reason: "hang-up".into(),
    });
    assert_eq!(r.t.waiting(), vec![(PlayerId(0), 5_000)]);
    r.input(Input::SignedOn {
        player: PlayerId(0),
        instance: 0,
    });
    assert_eq!(r.t.waiting(), vec![]);
}

#[test]
fn two_players_away_at_one_deadline_both_lose_their_game() {
    let mut r = Run::new(settings(3, |s| {
        s.absence = Absence::Forfeit { after_ms: 1_000 }
    }));
    r.sign_on([2]);
    r.at = 1_000;
    r.input(Input::Timer);
    assert!(r.t.is_over());
    let state = |a: usize, b: usize| {
        r.t.games()
            .find(|(g, _)| g.has(PlayerId(a)) && g.has(PlayerId(b)))
            .map(|(g, s)| (*g, s))
            .unwrap()
    };
    assert_eq!(
        state(0, 1).1,
        GameState::Decided(GameDecision::Forfeited(Absent::Both))
    );
    for p in [0, 1] {
        let (g, s) = state(p, 2);
        let colour = if g.white == PlayerId(p) {
            Color::White
        } else {
            Color::Black
        };
        assert_eq!(
            s,
            GameState::Decided(GameDecision::Forfeited(Absent::One(colour)))
        );
    }
    assert_eq!(r.count(|o| matches!(o, Output::Withdrawn { .. })), 2);
    assert_eq!(r.count(|o| *o == Output::TournamentOver), 1);
}

#[test]
fn a_game_without_a_result_is_played_again() {
    let mut r = Run::new(settings(2, |_| {}));
    r.sign_on(0..2);
    let (board, game) = r.running.pop_front().unwrap();
    let out = r.input(Input::GameFinished {
        game: game.number,
        result: GameResult::None,
        termination: Termination::Abandoned,
        sides: super::sides(1),
        ending: None,
    });
    assert_eq!(out, vec![Output::Replay { game: 1 }]);
    r.input(Input::BoardFree { board });
    assert_eq!(r.started(), vec![1, 1]);
    // A board freed before its game had a result gives the same.
    let (board, _) = r.running.pop_front().unwrap();
    let out = r.input(Input::BoardFree { board });
    assert_eq!(out[0], Output::Replay { game: 1 });
    assert_eq!(r.started(), vec![1, 1, 1]);
    r.play_out();
    assert!(r.t.is_over());
}

#[test]
fn inputs_that_make_no_sense_are_ignored_with_a_reason() {
    let mut t = Tournament::new(settings(4, |_| {})).unwrap();
    let reason = |out: Vec<Output>| match &out[..] {
        [Output::Ignored { reason }] => reason.clone(),
        other => panic!("{other:?}"),
    };
    assert!(
        reason(t.handle(
            Input::SignedOn {
                instance: 0,
                player: PlayerId(9)
            },
            0
        ))
        .contains("player 10")
    );
    assert!(reason(t.handle(finished(3), 0)).contains("game 3, which is not being played"));
    assert!(reason(t.handle(finished(99), 0)).contains("game 99"));
    let free = |b| Input::BoardFree { board: BoardId(b) };
    assert!(reason(t.handle(free(0), 0)).contains("board 0 is not one"));
    assert!(reason(t.handle(free(3), 0)).contains("board 3 is not one"));
    assert!(reason(t.handle(free(1), 0)).contains("board 1 was already free"));
    // Time never goes back.
    t.handle(Input::Timer, 500);
    t.handle(Input::Timer, 100);
    assert_eq!(t.time(), 500);
}

#[test]
fn same_inputs_give_same_outputs() {
    let mut a = Run::new(settings(5, |s| {
        s.schedule.games_per_pairing = 2;
        s.absence = Absence::Forfeit { after_ms: 10_000 };
    }));
    a.sign_on([0, 2, 4, 1]);
    a.play_out();
    a.at += 20_000;
    a.input(Input::Timer);
    a.play_out();
    assert!(a.t.is_over());
    let mut b = Tournament::new(a.t.settings().clone()).unwrap();
    let outputs: Vec<Output> = a
        .inputs
        .iter()
        .flat_map(|(at, i)| b.handle(i.clone(), *at))
        .collect();
    assert_eq!(outputs, a.outputs);
    assert_eq!(b, a.t);
}
