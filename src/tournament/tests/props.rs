//! Any inputs at all, in any order: the core never panics, keeps its
//! invariants, and its journal replays it to the same state.

use proptest::prelude::*;
use shakmaty::{ByColor, Color};

use super::settings;
use crate::referee::{GameResult, Termination};
use crate::tournament::journal::Line;
use crate::tournament::{
    Absence, BoardId, GameState, Input, Output, PlayerId, SideStats, Tournament,
};

fn input() -> impl Strategy<Value = Input> {
    let result = prop_oneof![
        Just(GameResult::Win(Color::White)),
        Just(GameResult::Win(Color::Black)),
        Just(GameResult::Draw),
        Just(GameResult::None),
    ];
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
