//! Any inputs at all, in any order: the core never panics, keeps its
//! invariants, and its journal replays it to the same state.

use proptest::prelude::*;
use shakmaty::{ByColor, Color};

use super::settings;
use crate::referee::{GameResult, Termination};
use crate::tournament::journal::Line;
use crate::tournament::{
    Absence, BoardId, GameDecision, GameState, Input, Output, PlayerId, SideStats, Tournament,
};

/// Any result, `*` too.
fn result() -> impl Strategy<Value = GameResult> {
    prop_oneof![
        Just(GameResult::Win(Color::White)),
        Just(GameResult::Win(Color::Black)),
        Just(GameResult::Draw),
        Just(GameResult::None),
    ]
}

fn input() -> impl Strategy<Value = Input> {
    let result = result();
    prop_oneof![
        (0..7usize).prop_map(|p| Input::SignedOn {
            instance: 0,
            player: PlayerId(p)
        }),
        (0..7usize).prop_map(|p| Input::Lost {
            instance: 0,
            player: PlayerId(p),
            reason: "gone".into()
        }),
        (0..20u32, result, proptest::option::of("\\PC{0,20}")).prop_map(
            |(game, result, ending)| Input::GameFinished {
                game,
                result,
                termination: Termination::Normal,
                sides: ByColor::new_with(|_| SideStats::default()),
                ending,
            }
        ),
        (0..4u32).prop_map(|b| Input::BoardFree { board: BoardId(b) }),
        Just(Input::Timer),
        proptest::collection::vec((0..7usize).prop_map(PlayerId), 0..3)
            .prop_map(|on_cables| Input::Resumed { on_cables }),
    ]
}

proptest! {
    #[test]
    fn any_inputs_keep_the_invariants_and_replay(
        steps in prop::collection::vec((input(), 0..20_000u64), 0..200),
        wait in any::<bool>(),
    ) {
        let s = settings(5, |s| {
            s.boards = Some(2);
            s.schedule.cycles = 2;
            if !wait {
                s.absence = Absence::Forfeit { after_ms: 30_000 };
            }
        });
        let mut t = Tournament::new(s.clone()).unwrap();
        let mut at = 0;
        let mut decided = Vec::new();
        let mut outputs = Vec::new();
        for (i, dt) in &steps {
            at += dt;
            outputs.extend(t.handle(i.clone(), at));
            let playing: Vec<_> = t.in_progress();
            prop_assert!(playing.len() <= 2);
            for (k, (b, g)) in playing.iter().enumerate() {
                for (b2, g2) in &playing[k + 1..] {
                    prop_assert_ne!(b, b2);
                    prop_assert!(!g2.has(g.white) && !g2.has(g.black));
                }
            }
            for n in &decided {
                prop_assert!(matches!(t.game_state(*n), Some(GameState::Decided(_))));
            }
            decided = t
                .games()
                .filter(|(_, s)| matches!(s, GameState::Decided(_)))
                .map(|(g, _)| g.number)
                .collect();
            prop_assert_eq!(t.is_over(), decided.len() == 20);
        }
        prop_assert!(outputs.iter().filter(|o| **o == Output::TournamentOver).count() <= 1);
        // The journal lines of the inputs give the same tournament.
        let mut again = Tournament::new(s).unwrap();
        let mut at = 0;
        for (i, dt) in steps {
            at += dt;
            let line = Line::Input { at, input: i };
            let Ok(Line::Input { at, input }) = Line::parse(&line.payload()) else {
                panic!("{}", line.payload());
            };
            again.handle(input, at);
        }
        prop_assert_eq!(again, t);
    }
}

/// The inputs of an event of many games on several boards: any input,
/// but mostly results of the games being played and boards freed.
#[derive(Debug, Clone)]
enum Step {
    Raw(Input),
    /// The k-th game being played ends with this result.
    Finish(usize, GameResult),
    /// The k-th board holding a game is freed.
    Free(usize),
}

fn step() -> impl Strategy<Value = Step> {
    let result = result();
    prop_oneof![
        1 => (0..6usize, 0..3u32).prop_map(|(p, n)| Step::Raw(Input::SignedOn {
            instance: n,
            player: PlayerId(p)
        })),
        1 => (0..6usize, 0..3u32).prop_map(|(p, n)| Step::Raw(Input::Lost {
            instance: n,
            player: PlayerId(p),
            reason: "gone".into()
        })),
        5 => (0..4usize, result).prop_map(|(k, r)| Step::Finish(k, r)),
        5 => (0..4usize).prop_map(Step::Free),
        1 => Just(Step::Raw(Input::Timer)),
        1 => (0..6usize).prop_map(|p| Step::Raw(Input::CannotStart {
            player: PlayerId(p),
            reason: "no".into()
        })),
    ]
}

/// The input `step` means for `t` as it stands (`None`: no such game or
/// board).
fn resolve(t: &Tournament, step: &Step) -> Option<Input> {
    Some(match step {
        Step::Raw(i) => i.clone(),
        Step::Finish(k, result) => Input::GameFinished {
            game: t.in_progress().get(*k)?.1.number,
            result: *result,
            termination: Termination::Normal,
            sides: ByColor::new_with(|_| SideStats::default()),
            ending: None,
        },
        Step::Free(k) => Input::BoardFree {
            board: t.held().get(*k)?.0,
        },
    })
}

/// Whether player `p` has an instance signed on and not playing.
fn has_free_instance(t: &Tournament, p: PlayerId) -> bool {
    let held = t.held();
    !t.players()[p.0].withdrawn
        && (0..t.instances()).any(|n| {
            t.is_present(p, n)
                && !held.iter().any(|(b, g)| {
                    let on = t.instances_on(*b).unwrap();
                    (g.white == p && on.white == n) || (g.black == p && on.black == n)
                })
        })
}

proptest! {
    /// What the core keeps as games change (where each stands, counted;
    /// a match's tally) always equals a recount from the games, and it
    /// starts games as a pass through the whole schedule would: in
    /// schedule order, each game whose players both have an instance
    /// free, while a board is free.
    #[test]
    fn the_kept_counts_equal_a_recount_and_games_start_in_schedule_order(
        two in any::<bool>(),
        steps in prop::collection::vec((step(), 0..20_000u64), 0..250),
    ) {
        let s = if two {
            settings(2, |s| {
                s.boards = Some(3);
                s.instances = 3;
                s.schedule.games_per_pairing = 30;
                s.absence = Absence::Forfeit { after_ms: 30_000 };
            })
        } else {
            settings(6, |s| {
                s.boards = Some(3);
                s.instances = 2;
                s.schedule.cycles = 2;
                s.absence = Absence::Forfeit { after_ms: 30_000 };
            })
        };
        let mut t = Tournament::new(s).unwrap();
        let mut at = 0;
        for (st, dt) in &steps {
            at += dt;
            let Some(input) = resolve(&t, st) else { continue };
            let out = t.handle(input, at);
            let states: Vec<GameState> = t.games().map(|(_, s)| s).collect();
            let p = t.progress();
            prop_assert_eq!(p.undecided(), states.iter().filter(|s| !s.is_decided()).count());
            prop_assert_eq!(
                p.playing(),
                states.iter().filter(|s| matches!(s, GameState::Playing(_))).count()
            );
            prop_assert_eq!(
                p.played(),
                states
                    .iter()
                    .filter(|s| matches!(s, GameState::Decided(GameDecision::Played { .. })))
                    .count()
            );
            for round in 1..=t.schedule().rounds() {
                let open = t.games().filter(|(g, s)| g.round == round && !s.is_decided()).count();
                prop_assert_eq!(p.undecided_in(round), open);
            }
            if two {
                let tallies = crate::tournament::stats::Tallies::of(&t);
                let kept = t.pairing_tally().unwrap();
                prop_assert_eq!(kept.wdl(), tallies.pairings[0].2.wdl());
                prop_assert_eq!(kept.pentanomial(), tallies.pairings[0].2.pentanomial());
            }
            // Started in schedule order: no game waits before one started
            // whose players are both free now (they were then too).
            let pending_free: Vec<u32> = t
                .games()
                .filter(|(g, s)| {
                    *s == GameState::Pending
                        && has_free_instance(&t, g.white)
                        && has_free_instance(&t, g.black)
                })
                .map(|(g, _)| g.number)
                .collect();
            for o in &out {
                if let Output::StartGame { game, .. } = o {
                    prop_assert!(
                        pending_free.iter().all(|&n| n > game.number),
                        "game {} started before {:?}", game.number, pending_free
                    );
                }
            }
            // While a board is free, no game that could start waits.
            if t.held().len() < t.board_count() as usize {
                prop_assert!(pending_free.is_empty(), "{:?} wait", pending_free);
            }
        }
    }
}
