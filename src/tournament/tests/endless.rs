//! A match with no number of games (`argus demo` without `--games`): game
//! pairs added as it goes, never over until it is stopped, said without a
//! total, journaled and replayed like any other event.

use super::resume::header;
use super::{Run, settings};
use crate::tournament::journal::{TournamentWriter, load};
use crate::tournament::schedule::{Schedule, ScheduleError, ScheduleSettings};
use crate::tournament::{Form, Input, Output, PlayerId, Settings, Tournament, Withdrawal};

/// An endless match between P1 and P2.
fn endless(f: impl FnOnce(&mut Settings)) -> Settings {
    settings(2, |s| {
        s.schedule.endless = true;
        s.form = Form::Match;
        f(s);
    })
}

#[test]
fn an_endless_schedule_plays_the_games_a_fixed_match_of_that_length_plays() {
    for (openings, seed, swap) in [(0, None, true), (5, Some(9), true), (3, None, false)] {
        let s = ScheduleSettings {
            openings,
            openings_seed: seed,
            swap,
            endless: true,
            ..ScheduleSettings::default()
        };
        let mut open = Schedule::new(&s).unwrap();
        assert_eq!(open.games().len(), 2, "it starts with one pair");
        while open.games().len() < 40 {
            assert!(open.add_pair());
        }
        let fixed = Schedule::new(&ScheduleSettings {
            endless: false,
            games_per_pairing: 40,
            ..s
        })
        .unwrap();
        assert_eq!(open.games(), fixed.games(), "{openings} {seed:?} {swap}");
        assert_eq!(open.rounds(), 40);
    }
    // A schedule with an end is given no pair.
    let mut fixed = Schedule::new(&ScheduleSettings::default()).unwrap();
    assert!(!fixed.add_pair());
    assert_eq!(fixed.games().len(), 1);
}

#[test]
fn only_a_match_of_two_may_be_endless() {
    let three = ScheduleSettings {
        players: 3,
        endless: true,
        ..ScheduleSettings::default()
    };
    let e = Schedule::new(&three).unwrap_err();
    assert!(
        matches!(e, ScheduleError::Endless { players: 3, .. }),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "only a match (a round robin of 2 players, one cycle) plays until it is stopped: not a \
         round-robin of 3 players"
    );
    let gauntlet = ScheduleSettings {
        format: crate::tournament::schedule::Format::Gauntlet,
        endless: true,
        ..ScheduleSettings::default()
    };
    assert!(Schedule::new(&gauntlet).is_err());
}

#[test]
fn an_endless_match_goes_on_game_after_game_and_its_schedule_keeps_one_pair_ahead() {
    let mut r = Run::new(endless(|s| s.boards = Some(1)));
    assert_eq!(r.t.games_total(), u32::MAX, "no total: `game 5`, not `of`");
    r.sign_on(0..2);
    for n in 1..=25u32 {
        assert_eq!(r.finish_next(), Some(n), "game {n} is the one played");
        assert!(!r.t.is_over(), "over after {n} games");
        // Bounded: never more than the games played, the one running and
        // the next pair.
        let scheduled = r.t.schedule().games().len();
        assert!(scheduled <= n as usize + 3, "{scheduled} after {n}");
        assert!(
            r.t.games()
                .any(|(_, s)| s == crate::tournament::GameState::Pending),
            "a game waits after game {n}"
        );
    }
    assert_eq!(r.started(), (1..=26).collect::<Vec<_>>());
    assert_eq!(r.count(|o| matches!(o, Output::TournamentOver)), 0);
    // Colours alternate, A White in every odd game.
    for (g, _) in r.t.games().take(26) {
        let a_white = g.number % 2 == 1;
        assert_eq!(g.white == PlayerId(0), a_white, "game {}", g.number);
    }
    // The pairs are tallied as in a match: 12 pairs of the 25 games.
    let tally = r.t.pairing_tally().unwrap();
    assert_eq!(tally.wdl().iter().sum::<u32>(), 25);
    assert_eq!(tally.pairs(), 12);
    assert_eq!(
        crate::tournament::words::extent(&r.t),
        "games until it is stopped"
    );
}

#[test]
fn an_endless_match_on_several_boards_keeps_every_board_busy() {
    let mut r = Run::new(endless(|s| {
        s.boards = Some(4);
        s.instances = 4;
    }));
    assert_eq!(r.t.board_count(), 4, "not capped at the first pair");
    for n in 0..4 {
        r.input(Input::SignedOn {
            player: PlayerId(0),
            instance: n,
        });
        r.input(Input::SignedOn {
            player: PlayerId(1),
            instance: n,
        });
    }
    assert_eq!(r.running.len(), 4);
    for _ in 0..30 {
        r.finish_next();
        assert_eq!(r.running.len(), 4, "a board left idle");
    }
}

#[test]
fn an_endless_match_ends_with_its_games_once_a_player_withdrew() {
    let mut r = Run::new(endless(|s| s.boards = Some(1)));
    r.sign_on(0..2);
    for _ in 0..5 {
        r.finish_next();
    }
    let out = r.input(Input::CannotStart {
        player: PlayerId(1),
        reason: "the engine exited at once".into(),
    });
    assert!(out.contains(&Output::Withdrawn {
        player: PlayerId(1),
        why: Withdrawal::CannotStart("the engine exited at once".into()),
    }));
    r.play_out();
    assert!(r.t.is_over(), "the match ends: no pair is added");
    assert!(r.t.schedule().games().len() <= 8);
}

#[test]
fn an_endless_match_stops_when_its_sprt_decides() {
    let sprt = "elo0=0 elo1=10 alpha=0.05 beta=0.05".parse().unwrap();
    let mut r = Run::new(endless(|s| {
        s.boards = Some(1);
        s.sprt = Some(sprt);
    }));
    r.sign_on(0..2);
    // P1 wins every game: H1 is accepted in time.
    for _ in 0..2_000 {
        let Some((_, g)) = r.running.front().copied() else {
            break;
        };
        let winner = if g.white == PlayerId(0) {
            shakmaty::Color::White
        } else {
            shakmaty::Color::Black
        };
        r.finish(g.number, crate::referee::GameResult::Win(winner));
    }
    assert!(r.t.sprt_decided().is_some());
    assert!(r.t.is_over());
}

#[test]
fn an_endless_matchs_journal_replays_to_the_same_event() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tournament.journal");
    let s = endless(|s| s.boards = Some(1));
    let h = header(s.clone());
    assert!(
        h.lines().iter().any(|l| l.payload() == "set games endless"),
        "{:?}",
        h.lines()
    );
    let mut w = TournamentWriter::create(&path, &h, 1_700_000_000_000).unwrap();
    let mut r = Run::new(s.clone());
    r.sign_on(0..2);
    for _ in 0..9 {
        r.finish_next();
    }
    for (at, input) in &r.inputs {
        w.input(*at, input).unwrap();
    }
    drop(w);
    let loaded = load(&path).unwrap();
    assert_eq!(loaded.header.settings, s, "the header keeps it endless");
    assert_eq!(loaded.tournament, r.t);
    // The same inputs on a fresh core: the same pairs added.
    let mut again = Tournament::new(s).unwrap();
    for (at, input) in &r.inputs {
        again.handle(input.clone(), *at);
    }
    assert_eq!(again, r.t);
}

#[test]
fn an_endless_matchs_report_says_no_total() {
    let mut r = Run::new(endless(|s| s.boards = Some(1)));
    r.sign_on(0..2);
    for _ in 0..3 {
        r.finish_next();
    }
    let text = crate::tournament::report::text(&r.t);
    assert!(
        text.contains("2 players: games until it is stopped, on 1 board."),
        "{text}"
    );
    assert!(
        text.contains("Not over: 3 games decided; it goes on until it is stopped."),
        "{text}"
    );
    assert!(!text.contains(" of 6 games"), "{text}");
}
