//! Where each game of the event stands, and the counts the tournament
//! core asks after every input, kept in step with every change: the games
//! not decided (in all and per round), the games being played and those
//! played over the board, and each player's games not started, in
//! schedule order. Every change of a game's state goes through
//! [`Progress::set`], so the core answers "is the round over?", "is the
//! event over?", "does this player still have a game to start?" and
//! "which game starts next?" without going through every game of the
//! event: a 10,000-game event pays per result for what the result changed,
//! not for the games before it (docs/performance.md).

use std::collections::BTreeSet;

use crate::tournament::messages::{BoardId, GameDecision};
use crate::tournament::schedule::{PlayerId, ScheduledGame};

/// Where a scheduled game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameState {
    /// Not started yet (or to be played again).
    Pending,
    /// Being played on this board.
    Playing(BoardId),
    /// Decided.
    Decided(GameDecision),
}

impl GameState {
    /// Whether the game is decided.
    pub fn is_decided(&self) -> bool {
        matches!(self, GameState::Decided(_))
    }
}

/// What a game is to the counts: its round and players.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Game {
    state: GameState,
    round: u32,
    white: PlayerId,
    black: PlayerId,
}

/// Every game's state (game `n` at index `n - 1`) and the counts kept in
/// step with it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Progress {
    games: Vec<Game>,
    /// The games of each round not decided (round `r` at index `r - 1`).
    undecided_in_round: Vec<usize>,
    /// The games not decided.
    undecided: usize,
    /// The games being played.
    playing: usize,
    /// The games decided over the board (not forfeited).
    played: usize,
    /// Each player's games not started (pending), by number (player `p`
    /// at index `p`).
    pending: Vec<BTreeSet<u32>>,
}

impl Progress {
    /// No games yet, for `players` players.
    pub fn new(players: usize) -> Progress {
        Progress {
            pending: vec![BTreeSet::new(); players],
            ..Progress::default()
        }
    }

    /// Appends `game`, the next of the schedule, not started. A game whose
    /// number is not the next, or whose player is not one of the event's,
    /// is a caller's mistake the schedule rules out (`Schedule::new` and
    /// `add_round` check them); it is not added.
    pub fn add(&mut self, game: &ScheduledGame) {
        let next = u32::try_from(self.games.len() + 1).ok();
        let players = self.pending.len();
        if next != Some(game.number)
            || game.white.0 >= players
            || game.black.0 >= players
            || game.round == 0
        {
            debug_assert!(false, "game {game:?} does not follow game {:?}", next);
            return;
        }
        self.games.push(Game {
            state: GameState::Pending,
            round: game.round,
            white: game.white,
            black: game.black,
        });
        let r = game.round as usize - 1;
        if self.undecided_in_round.len() <= r {
            self.undecided_in_round.resize(r + 1, 0);
        }
        self.undecided_in_round[r] += 1;
        self.undecided += 1;
        self.pending[game.white.0].insert(game.number);
        self.pending[game.black.0].insert(game.number);
    }

    /// Game `number` now stands at `state`; every count follows. A number
    /// the event does not have changes nothing (`false`).
    pub fn set(&mut self, number: u32, state: GameState) -> bool {
        let Some(g) = index(number).and_then(|i| self.games.get_mut(i)) else {
            return false;
        };
        let was = std::mem::replace(&mut g.state, state);
        let g = *g;
        self.count(number, &g, was, -1);
        self.count(number, &g, state, 1);
        true
    }

    /// Counts game `number` (`g`) standing at `state` in (`by` 1) or out
    /// (`by` -1).
    fn count(&mut self, number: u32, g: &Game, state: GameState, by: isize) {
        let step = |n: &mut usize| *n = n.checked_add_signed(by).unwrap_or(0);
        match state {
            GameState::Pending => {
                for p in [g.white, g.black] {
                    if by > 0 {
                        self.pending[p.0].insert(number);
                    } else {
                        self.pending[p.0].remove(&number);
                    }
                }
            }
            GameState::Playing(_) => step(&mut self.playing),
            GameState::Decided(o) => {
                if matches!(o, GameDecision::Played { .. }) {
                    step(&mut self.played);
                }
                return;
            }
        }
        // Pending and playing: not decided.
        step(&mut self.undecided);
        if let Some(n) = self.undecided_in_round.get_mut(g.round as usize - 1) {
            step(n);
        }
    }

    /// Where game `number` stands.
    pub fn state(&self, number: u32) -> Option<GameState> {
        Some(self.games.get(index(number)?)?.state)
    }

    /// Every game's state, in schedule order.
    pub fn states(&self) -> impl Iterator<Item = GameState> + '_ {
        self.games.iter().map(|g| g.state)
    }

    /// How many games there are.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether there are no games (yet).
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The games not decided.
    pub fn undecided(&self) -> usize {
        self.undecided
    }

    /// The games decided.
    pub fn decided(&self) -> usize {
        self.games.len() - self.undecided
    }

    /// Round `round`'s games not decided (0 for a round without games).
    pub fn undecided_in(&self, round: u32) -> usize {
        let r = (round as usize).checked_sub(1);
        r.and_then(|r| self.undecided_in_round.get(r))
            .copied()
            .unwrap_or(0)
    }

    /// The games being played.
    pub fn playing(&self) -> usize {
        self.playing
    }

    /// The games decided over the board (forfeits not counted).
    pub fn played(&self) -> usize {
        self.played
    }

    /// Whether player `p` has a game not started.
    pub fn has_pending(&self, p: PlayerId) -> bool {
        self.pending.get(p.0).is_some_and(|s| !s.is_empty())
    }

    /// Player `p`'s games not started, numbered after `after`, in
    /// schedule order.
    pub fn pending_of(&self, p: PlayerId, after: u32) -> impl Iterator<Item = u32> + '_ {
        self.pending
            .get(p.0)
            .into_iter()
            .flat_map(move |s| s.range(after.saturating_add(1)..))
            .copied()
    }
}

/// Game `number`'s index (game 1 at 0).
fn index(number: u32) -> Option<usize> {
    usize::try_from(number).ok()?.checked_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::{GameResult, Termination};
    use crate::tournament::messages::{Absent, SideStats};
    use proptest::prelude::*;
    use shakmaty::{ByColor, Color};

    fn game(number: u32, round: u32, white: usize, black: usize) -> ScheduledGame {
        ScheduledGame {
            number,
            round,
            board: 1,
            white: PlayerId(white),
            black: PlayerId(black),
            opening: None,
        }
    }

    fn played(result: GameResult) -> GameState {
        GameState::Decided(GameDecision::Played {
            result,
            termination: Termination::Normal,
            sides: ByColor::new_with(|_| SideStats::default()),
        })
    }

    /// The counts recounted from the states, the slow way.
    fn recount(p: &Progress, games: &[ScheduledGame]) {
        let states: Vec<GameState> = p.states().collect();
        let undecided = states.iter().filter(|s| !s.is_decided()).count();
        assert_eq!(p.undecided(), undecided);
        assert_eq!(p.decided(), states.len() - undecided);
        let playing = states
            .iter()
            .filter(|s| matches!(s, GameState::Playing(_)))
            .count();
        assert_eq!(p.playing(), playing);
        let over_the_board = states
            .iter()
            .filter(|s| matches!(s, GameState::Decided(GameDecision::Played { .. })))
            .count();
        assert_eq!(p.played(), over_the_board);
        let last = games.iter().map(|g| g.round).max().unwrap_or(0);
        for round in 0..=last + 1 {
            let n = games
                .iter()
                .zip(&states)
                .filter(|(g, s)| g.round == round && !s.is_decided())
                .count();
            assert_eq!(p.undecided_in(round), n, "round {round}");
        }
        for player in 0..p.pending.len() + 1 {
            let player = PlayerId(player);
            let pending: Vec<u32> = games
                .iter()
                .zip(&states)
                .filter(|(g, s)| g.has(player) && **s == GameState::Pending)
                .map(|(g, _)| g.number)
                .collect();
            assert_eq!(p.pending_of(player, 0).collect::<Vec<_>>(), pending);
            assert_eq!(p.has_pending(player), !pending.is_empty());
            // From a game on: those after it.
            if let Some(&first) = pending.first() {
                let after: Vec<u32> = pending[1..].to_vec();
                assert_eq!(p.pending_of(player, first).collect::<Vec<_>>(), after);
            }
        }
    }

    #[test]
    fn a_round_and_the_event_are_counted_decided_as_their_games_are() {
        let games = [game(1, 1, 0, 1), game(2, 1, 2, 3), game(3, 2, 0, 2)];
        let mut p = Progress::new(4);
        for g in &games {
            p.add(g);
        }
        assert_eq!(
            (p.undecided(), p.undecided_in(1), p.undecided_in(2)),
            (3, 2, 1)
        );
        assert_eq!(p.pending_of(PlayerId(0), 0).collect::<Vec<_>>(), [1, 3]);
        assert!(p.set(1, GameState::Playing(BoardId(1))));
        assert_eq!(
            (p.playing(), p.undecided_in(1)),
            (1, 2),
            "playing: not decided"
        );
        assert_eq!(p.pending_of(PlayerId(0), 0).collect::<Vec<_>>(), [3]);
        p.set(1, played(GameResult::Draw));
        assert_eq!((p.playing(), p.played(), p.undecided_in(1)), (0, 1, 1));
        p.set(2, GameState::Decided(GameDecision::Forfeited(Absent::Both)));
        assert_eq!((p.played(), p.undecided_in(1), p.undecided()), (1, 0, 1));
        assert!(!p.has_pending(PlayerId(1)) && p.has_pending(PlayerId(2)));
        // Played again: pending once more, in its place.
        p.set(3, GameState::Playing(BoardId(2)));
        p.set(3, GameState::Pending);
        assert_eq!(p.pending_of(PlayerId(2), 0).collect::<Vec<_>>(), [3]);
        assert!(!p.set(4, GameState::Pending), "no game 4");
        assert_eq!(p.state(4), None);
        recount(&p, &games);
    }

    fn any_state() -> impl Strategy<Value = GameState> {
        prop_oneof![
            Just(GameState::Pending),
            (1..4u32).prop_map(|b| GameState::Playing(BoardId(b))),
            Just(played(GameResult::Win(Color::White))),
            Just(played(GameResult::Draw)),
            Just(GameState::Decided(GameDecision::Forfeited(Absent::One(
                Color::Black
            )))),
        ]
    }

    proptest! {
        /// Any changes in any order (even those the core never makes,
        /// such as a decided game pending again): the counts always equal
        /// a recount.
        #[test]
        fn the_counts_always_equal_a_recount(
            pairs in prop::collection::vec((0..5usize, 0..5usize, 0..3u32), 1..30),
            changes in prop::collection::vec((1..32u32, any_state()), 0..200),
        ) {
            let mut games = Vec::new();
            let mut round = 1;
            for (i, &(w, b, step)) in pairs.iter().enumerate() {
                round += step;
                games.push(game(u32::try_from(i + 1).unwrap(), round, w, b));
            }
            let mut p = Progress::new(5);
            for g in &games {
                p.add(g);
            }
            recount(&p, &games);
            for (number, state) in changes {
                let known = p.set(number, state);
                prop_assert_eq!(known, (number as usize) <= games.len());
                recount(&p, &games);
            }
        }
    }
}
