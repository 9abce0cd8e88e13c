//! Games at once: a player with several instances (an engine started once
//! per board, a `tcp:NAME` connected once per board) plays several games
//! at once, one per instance; the SPRT stops a two-player event.

use std::collections::BTreeSet;

use shakmaty::Color;

use super::resume::header;
use super::{Run, settings};
use crate::referee::GameResult;
use crate::stats::sprt::Hypothesis;
use crate::tournament::core::EventError;
use crate::tournament::journal::{TournamentWriter, load};
use crate::tournament::{
    BoardId, GameState, Input, Output, PlayerId, Settings, SprtRunning, Tournament,
};

/// Two players, `games` games between them (colours alternating, an
/// opening for each pair), on `boards` boards with as many instances.
fn match_of(games: u32, boards: u32) -> Settings {
    settings(2, |s| {
        s.schedule.games_per_pairing = games;
        s.schedule.openings = 4;
        s.boards = Some(boards);
        s.instances = boards;
    })
}

impl Run {
    /// Signs on instances `0..n` of each of `players`.
    fn sign_on_instances(&mut self, players: impl IntoIterator<Item = usize> + Clone, n: u32) {
        for i in 0..n {
            for p in players.clone() {
                self.input(Input::SignedOn {
                    player: PlayerId(p),
                    instance: i,
                });
            }
        }
    }
}

/// The result of `game` when `winner` wins every game.
fn won_by(r: &Run, game: u32, winner: PlayerId) -> GameResult {
    let g = r.t.schedule().game(game).unwrap();
    GameResult::Win(if g.white == winner {
        Color::White
    } else {
        Color::Black
    })
}

#[test]
fn a_two_player_event_on_8_boards_plays_8_games_at_once_each_instance_on_one() {
    let mut r = Run::new(match_of(40, 8));
    assert_eq!(r.t.board_count(), 8);
    r.sign_on_instances([0, 1], 8);
    // The first 8 games of the schedule, one per board; the harness checks
    // that no instance is on two boards.
    assert_eq!(r.started(), (1..=8).collect::<Vec<_>>());
    let boards: BTreeSet<_> = r.running.iter().map(|(b, _)| b.0).collect();
    assert_eq!(boards, (1..=8).collect());
    // Games end in any order; each free board takes the next game.
    for number in [5, 2, 8] {
        r.finish(number, GameResult::Draw);
    }
    assert_eq!(r.started().len(), 11);
    r.play_out();
    assert!(r.t.is_over());
    let mut started = r.started();
    started.sort_unstable();
    assert_eq!(started, (1..=40).collect::<Vec<_>>());
}

#[test]
fn games_pair_by_opening_with_colours_swapped_whatever_board_plays_them() {
    let r = Run::new(match_of(16, 8));
    let games = r.t.schedule().games();
    for pair in games.chunks(2) {
        let [a, b] = pair else { panic!("an odd count") };
        assert_eq!(a.opening, b.opening, "games {} and {}", a.number, b.number);
        assert_eq!((a.white, a.black), (b.black, b.white));
    }
    // Every opening with both colours, twice over 16 games.
    let openings: BTreeSet<_> = games.iter().filter_map(|g| g.opening).collect();
    assert_eq!(openings, (0..4).collect());
    // Played on 8 boards and finished newest first, so that games of
    // different pairs end next to each other: the first player wins both
    // games of pairs 1, 3, 5, 7 and loses both of the others. Paired by
    // the schedule, that is 4 pairs won twice and 4 lost twice, never a
    // pair split.
    let mut r = Run::new(match_of(16, 8));
    r.sign_on_instances([0, 1], 8);
    while let Some(&(_, g)) = r.running.back() {
        let result = if (g.number - 1) / 2 % 2 == 0 {
            won_by(&r, g.number, PlayerId(0))
        } else {
            won_by(&r, g.number, PlayerId(1))
        };
        r.finish(g.number, result);
    }
    assert!(r.t.is_over());
    let tallies = crate::tournament::stats::Tallies::of(&r.t);
    assert_eq!(tallies.pairings[0].2.pentanomial(), [4, 0, 0, 0, 4]);
}

#[test]
fn one_instance_each_keeps_one_game_at_a_time_as_before() {
    // Without instances the boards of a two-player event are capped at
    // a round's width: one.
    let mut s = match_of(10, 8);
    s.instances = 1;
    let mut r = Run::new(s);
    assert_eq!(r.t.board_count(), 1);
    r.sign_on([0, 1]);
    assert_eq!(r.started(), vec![1]);
}

#[test]
fn only_signed_on_instances_play_and_an_unknown_instance_is_ignored() {
    let mut r = Run::new(match_of(40, 4));
    // Three of the first player's instances, one of the second's: one game.
    r.sign_on_instances([0], 3);
    r.sign_on_instances([1], 1);
    assert_eq!(r.running.len(), 1);
    r.input(Input::SignedOn {
        player: PlayerId(1),
        instance: 1,
    });
    assert_eq!(r.running.len(), 2);
    let out = r.input(Input::SignedOn {
        player: PlayerId(1),
        instance: 4,
    });
    assert!(
        out.iter().any(|o| matches!(o, Output::Ignored { reason }
            if reason.contains("instance 5 of player 2 is not in the tournament (4 instances a player)"))),
        "{out:?}"
    );
    assert_eq!(r.running.len(), 2);
}

#[test]
fn an_instance_lost_on_one_board_leaves_the_others_playing() {
    let mut r = Run::new(match_of(40, 3));
    r.sign_on_instances([0, 1], 3);
    assert_eq!(r.running.len(), 3);
    let on_board = |r: &Run, n: u32| -> bool {
        r.running.iter().any(|(b, g)| {
            let i = r.t.instances_on(*b).unwrap();
            (g.white == PlayerId(0) && i.white == n) || (g.black == PlayerId(0) && i.black == n)
        })
    };
    assert!(on_board(&r, 1));
    // Instance 2 of the first player goes: the player is still there.
    r.input(Input::Lost {
        player: PlayerId(0),
        instance: 1,
        reason: "engine gone".into(),
    });
    assert!(r.t.players()[0].present);
    assert!(r.t.waiting().is_empty());
    // Its game finishes and its board is free: the next game takes the
    // board with another instance; the lost one gets nothing.
    let game = r
        .running
        .iter()
        .find(|(b, g)| {
            let i = r.t.instances_on(*b).unwrap();
            (g.white == PlayerId(0) && i.white == 1) || (g.black == PlayerId(0) && i.black == 1)
        })
        .map(|(_, g)| g.number)
        .unwrap();
    r.finish(game, GameResult::Draw);
    assert!(!on_board(&r, 1));
    assert_eq!(r.running.len(), 2, "two instances of each left: two boards");
    // Every instance gone: the player is away.
    for n in [0, 2] {
        r.input(Input::Lost {
            player: PlayerId(0),
            instance: n,
            reason: "engine gone".into(),
        });
    }
    assert!(!r.t.players()[0].present);
    assert_eq!(r.t.waiting().len(), 1);
}

/// The game instance `n` of `p` plays, if it plays one.
fn game_of(r: &Run, p: PlayerId, n: u32) -> Option<u32> {
    r.running
        .iter()
        .find(|(b, g)| {
            let i = r.t.instances_on(*b).unwrap();
            (g.white == p && i.white == n) || (g.black == p && i.black == n)
        })
        .map(|(_, g)| g.number)
}

#[test]
fn a_game_aborted_for_an_instance_given_up_is_played_again_by_another() {
    // Its program stopped mid-game and could not be started again: the
    // referee's loop gave the instance up and aborted its game.
    let mut r = Run::new(match_of(40, 3));
    r.sign_on_instances([0, 1], 3);
    let gone = PlayerId(0);
    let game = game_of(&r, gone, 1).unwrap();
    r.input(Input::Lost {
        player: gone,
        instance: 1,
        reason: "engine gone".into(),
    });
    r.finish(game, GameResult::None);
    assert!(r.outputs.contains(&Output::Replay { game }));
    assert_eq!(r.t.game_state(game), Some(GameState::Pending));
    // The next board free takes it, with an instance still there.
    let other = r.running.front().unwrap().1.number;
    r.finish(other, GameResult::Draw);
    assert!(matches!(r.t.game_state(game), Some(GameState::Playing(_))));
    let mine = r.instances[&game];
    let g = r.t.schedule().game(game).unwrap();
    let n = if g.white == gone {
        mine.white
    } else {
        mine.black
    };
    assert_ne!(n, 1, "the given-up instance plays no more");
    assert_eq!(game_of(&r, gone, 1), None);
    play_out_decided(&mut r);
    assert!(r.t.is_over());
    assert!(r.t.games().all(|(_, s)| matches!(
        s,
        GameState::Decided(crate::tournament::GameDecision::Played { .. })
    )));
}

#[test]
fn a_game_aborted_for_a_player_that_cannot_start_is_forfeited_not_played_again() {
    let mut r = Run::new(match_of(4, 2));
    r.sign_on_instances([0, 1], 2);
    let gone = PlayerId(0);
    let game = game_of(&r, gone, 0).unwrap();
    for n in 0..2 {
        r.input(Input::Lost {
            player: gone,
            instance: n,
            reason: "engine gone".into(),
        });
    }
    r.input(Input::CannotStart {
        player: gone,
        reason: "no uciok".into(),
    });
    r.finish(game, GameResult::None);
    assert!(
        !r.outputs.contains(&Output::Replay { game }),
        "{:?}",
        r.outputs
    );
    let g = r.t.schedule().game(game).unwrap();
    let absent = crate::tournament::Absent::One(if g.white == gone {
        Color::White
    } else {
        Color::Black
    });
    assert_eq!(
        r.t.game_state(game),
        Some(GameState::Decided(
            crate::tournament::GameDecision::Forfeited(absent)
        ))
    );
}

/// Plays out every game the core starts, each to a result.
fn play_out_decided(r: &mut Run) {
    while let Some(g) = r.running.front().map(|x| x.1.number) {
        r.finish(g, GameResult::Draw);
    }
}

/// Plays `r` with the first player winning every game until the SPRT
/// decides; the number of games started then.
fn play_until_decided(r: &mut Run) -> usize {
    for _ in 0..400 {
        if r.t.sprt_decided().is_some() {
            return r.started().len();
        }
        let game = r.running.front().unwrap().1.number;
        let result = won_by(r, game, PlayerId(0));
        r.finish(game, result);
    }
    panic!("the SPRT never decided");
}

#[test]
fn the_sprt_stops_starting_games_once_it_decides_and_the_running_ones_finish() {
    let mut s = match_of(400, 4);
    s.sprt = Some("elo0=0 elo1=10".parse().unwrap());
    let mut r = Run::new(s);
    r.sign_on_instances([0, 1], 4);
    let started = play_until_decided(&mut r);
    assert_eq!(r.t.sprt_decided(), Some(Hypothesis::H1));
    assert_eq!(
        r.count(|o| matches!(
            o,
            Output::SprtDecided {
                hypothesis: Hypothesis::H1,
                ..
            }
        )),
        1
    );
    // The games running when it decided are played out; none starts.
    assert!(!r.t.is_over() && !r.running.is_empty());
    r.play_out();
    assert_eq!(r.started().len(), started);
    assert!(r.t.is_over());
    assert_eq!(r.count(|o| *o == Output::TournamentOver), 1);
    let pending =
        r.t.games()
            .filter(|(_, s)| *s == GameState::Pending)
            .count();
    assert_eq!(pending, 400 - started);
}

/// A match of `games` games on one board under the SPRT `sprt`, played
/// until it is over with `winner` winning every game.
fn match_won_by(games: u32, sprt: &str, winner: PlayerId) -> Run {
    let mut s = match_of(games, 1);
    s.sprt = Some(sprt.parse().unwrap());
    let mut r = Run::new(s);
    r.sign_on_instances([0, 1], 1);
    while let Some(game) = r.running.front().map(|x| x.1.number) {
        let result = won_by(&r, game, winner);
        r.finish(game, result);
    }
    r
}

/// A match on one board, the second player winning every game, under
/// the logistic model: the SPRT accepts H0, and stops at the end of a
/// pair (a game pair is what it counts); the match's last line says so.
#[test]
fn the_sprt_accepts_h0_when_the_first_player_loses_and_stops_at_a_pair() {
    let r = match_won_by(200, "elo0=0 elo1=200 model=logistic", PlayerId(1));
    assert_eq!(r.t.sprt_decided(), Some(Hypothesis::H0));
    assert!(r.t.is_over());
    let played = r.started().len();
    assert!(played < 200 && played.is_multiple_of(2), "{played}");
    let summary = crate::tournament::words::match_summary(&r.t).to_string();
    assert!(summary.ends_with("; SPRT: H0 accepted"), "{summary}");
}

/// Without a decision the match plays every game it has, and its last
/// line names no SPRT; a first player winning all of them is 4 - 0.
#[test]
fn without_an_sprt_decision_the_match_plays_all_its_games() {
    let r = match_won_by(4, "elo0=0 elo1=5", PlayerId(0));
    assert_eq!(r.started().len(), 4);
    assert!(r.t.is_over());
    assert_eq!(r.t.sprt_decided(), None);
    let summary = crate::tournament::words::match_summary(&r.t);
    assert_eq!(summary.score_halves, [8, 0]);
    assert!(!summary.to_string().contains("SPRT"), "{summary}");
}

#[test]
fn an_sprt_needs_two_players() {
    let e = Tournament::new(settings(3, |s| {
        s.sprt = Some("elo0=0 elo1=5".parse().unwrap());
    }))
    .unwrap_err();
    assert_eq!(e, EventError::SprtPlayers(3));
    assert!(e.to_string().contains("it needs 2 players, not 3"), "{e}");
}

#[test]
fn a_resume_with_games_on_several_boards_carries_each_on_with_its_instances() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.journal");
    let mut s = match_of(24, 4);
    s.sprt = Some("elo0=-5 elo1=5".parse().unwrap());
    s.sprt_running = SprtRunning::Abort;
    let mut w = TournamentWriter::create(&path, &header(s.clone()), 1_700_000_000_000).unwrap();
    let mut r = Run::new(s);
    r.sign_on_instances([0, 1], 4);
    for number in [3, 1, 4] {
        r.finish(number, GameResult::Draw);
    }
    let running: Vec<_> = r
        .running
        .iter()
        .map(|(b, g)| (*b, g.number, r.t.instances_on(*b).unwrap()))
        .collect();
    assert_eq!(running.len(), 4);
    for (at, input) in &r.inputs {
        w.input(*at, input).unwrap();
    }
    drop(w);
    // Killed here: the journal rebuilds the event, the instances on every
    // board and the SPRT's settings too.
    let loaded = load(&path).unwrap();
    assert_eq!(loaded.header.settings, *r.t.settings());
    assert_eq!(loaded.tournament, r.t);
    let after: Vec<_> = loaded
        .tournament
        .in_progress()
        .iter()
        .map(|(b, g)| (*b, g.number, loaded.tournament.instances_on(*b).unwrap()))
        .collect();
    assert_eq!(after, running);
    // Resumed: everyone signs on again, the running games are finished on
    // their boards, and the rest is played once each.
    let mut again = Run::from(loaded.tournament);
    again.at = r.at + 5_000;
    again.input(Input::Resumed { on_cables: vec![] });
    again.sign_on_instances([0, 1], 4);
    assert_eq!(
        again.running.len(),
        4,
        "the running games keep their boards"
    );
    again.play_out();
    assert!(again.t.is_over());
    let mut started = r.started();
    started.extend(again.started());
    started.sort_unstable();
    assert_eq!(started, (1..=24).collect::<Vec<_>>());
}

#[test]
fn with_sprt_running_abort_the_running_games_are_aborted_and_not_played_again() {
    let mut s = match_of(400, 4);
    s.sprt = Some("elo0=0 elo1=10".parse().unwrap());
    s.sprt_running = SprtRunning::Abort;
    let mut r = Run::new(s);
    r.sign_on_instances([0, 1], 4);
    let started = play_until_decided(&mut r);
    let aborts: Vec<(BoardId, u32)> = r
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Abort { board, game } => Some((*board, *game)),
            _ => None,
        })
        .collect();
    let running: Vec<(BoardId, u32)> = r.running.iter().map(|(b, g)| (*b, g.number)).collect();
    assert!(!running.is_empty());
    assert_eq!(aborts, running, "every running game, board by board");
    // The boards end them without a result: none is played again.
    for (_, game) in running {
        r.finish(game, GameResult::None);
    }
    assert_eq!(r.count(|o| matches!(o, Output::Replay { .. })), 0);
    assert_eq!(r.started().len(), started);
    assert!(r.t.is_over());
    assert_eq!(r.count(|o| *o == Output::TournamentOver), 1);
}

#[test]
fn an_instance_is_named_with_its_number_from_the_second_on() {
    use crate::tournament::Instance;
    assert_eq!(Instance::new(PlayerId(1), 0).named("fish"), "fish");
    assert_eq!(Instance::new(PlayerId(1), 3).named("fish"), "fish #4");
    assert_eq!(Instance::new(PlayerId(1), 3).to_string(), "player 2 #4");
}

/// A player's games in all are known when the schedule is fixed: a
/// gauntlet's first player meets every other, each other plays once (so
/// argus starts it once, whatever --boards); a double round robin's each
/// play twice each other; a Swiss event's are not known.
#[test]
fn a_players_games_in_all_are_known_only_in_a_fixed_schedule() {
    use crate::tournament::schedule::Format;
    let gauntlet = Run::new(settings(4, |s| s.schedule.format = Format::Gauntlet));
    let games: Vec<_> = (0..4)
        .map(|p| gauntlet.t.games_in_all(PlayerId(p)))
        .collect();
    assert_eq!(games, [Some(3), Some(1), Some(1), Some(1)]);
    let double = Run::new(settings(3, |s| s.schedule.cycles = 2));
    assert_eq!(double.t.games_in_all(PlayerId(2)), Some(4));
    let swiss = Run::new(settings(4, |s| {
        s.schedule.format = Format::Swiss;
        s.schedule.rounds = 3;
    }));
    assert_eq!(swiss.t.games_in_all(PlayerId(0)), None);
}
