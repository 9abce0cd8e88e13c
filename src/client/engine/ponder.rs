//! Pondering (`--ponder`), I/O-free: what a UCI engine ponders on, whether
//! the game went the way it guessed, and the clocks it ponders with.
//!
//! After `bestmove X ponder Y` the engine is given the game with `X Y` and
//! `go ponder` with the clocks ([`ponder_go`]); [`Ponder::started`] keeps
//! the game it ponders on. When the referee next asks for a move,
//! [`Ponder::resume`] compares the game then with that one: the same game
//! is a hit (the driver sends `ponderhit` and the search goes on), another
//! is a miss (`stop`, its move discarded, then a search of the game as it
//! is). A game that ends while the engine ponders ([`Ponder::abandon`])
//! is neither: the ponder is stopped and not counted. The hit rate is
//! hits over hits and misses.

use shakmaty::{Chess, Color, Move, Position};

use super::notation;
use super::time::Limit;

/// What the engine ponders on: the game's start and its moves, the
/// engine's move and the reply it expects included.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Line {
    start: Chess,
    moves: Vec<Move>,
}

/// The ponder state of one engine.
#[derive(Debug, Clone, Default)]
pub struct Ponder {
    line: Option<Line>,
}

/// The game when the engine is next asked for a move, against its ponder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resume {
    /// It was not pondering: a search as usual.
    Idle,
    /// The game is the one it pondered on: `ponderhit`.
    Hit,
    /// Another game (the opponent played another move, or the game was
    /// taken back): `stop`, its move dropped, then a search as usual.
    Miss,
}

impl Resume {
    /// The outcome to report with the move (`None`: no ponder).
    pub fn hit(self) -> Option<bool> {
        match self {
            Resume::Idle => None,
            Resume::Hit => Some(true),
            Resume::Miss => Some(false),
        }
    }
}

impl Ponder {
    /// Whether the engine is pondering.
    pub fn pondering(&self) -> bool {
        self.line.is_some()
    }

    /// The engine was given `moves` from `start` (its move and the reply
    /// it expects the last two) with `go ponder`.
    pub fn started(&mut self, start: &Chess, moves: Vec<Move>) {
        self.line = Some(Line {
            start: start.clone(),
            moves,
        });
    }

    /// The engine is asked for a move in the game `moves` from `start`:
    /// whether that is the game it ponders on. The ponder is over either
    /// way.
    pub fn resume(&mut self, start: &Chess, moves: &[Move]) -> Resume {
        match self.line.take() {
            None => Resume::Idle,
            Some(l) if l.start == *start && l.moves == moves => Resume::Hit,
            Some(_) => Resume::Miss,
        }
    }

    /// The game ended (or a new one begins) while the engine pondered:
    /// the ponder is over, not counted. Whether it was pondering.
    pub fn abandon(&mut self) -> bool {
        self.line.take().is_some()
    }
}

/// The game to ponder on after the engine's `best` move in `position`:
/// `ponder` (the engine's word after `bestmove X ponder`) read in the
/// position after `best`. `None` when there is no ponder move, it is not
/// legal there, or the game is over after it (nothing to ponder).
pub fn ponder_move(position: &Chess, best: &Move, ponder: Option<&str>) -> Option<Move> {
    let mut after = position.clone();
    after.play_unchecked(*best);
    let m = notation::from_uci(&after, ponder?).ok()?;
    after.play_unchecked(m);
    (!after.legal_moves().is_empty()).then_some(m)
}

/// The `go ponder` command for an engine playing `me` that was told
/// `limit` for its move and took `spent_ms` over it: its clock less that
/// time plus its increment, the opponent's as it was (the opponent's
/// clock runs while the engine ponders; the engine counts from its own
/// `go`), `movestogo` one fewer (none once its period is over: the
/// engine then spreads its time over the rest of the game, the safe
/// side), and its own limits.
pub fn ponder_go(limit: &Limit, me: Color, spent_ms: u64) -> String {
    let mut limit = *limit;
    if let Limit::Clock(t, _) = &mut limit {
        let inc = *t.increment_ms.get(me);
        let left = t.remaining_ms.get_mut(me);
        *left = left.saturating_sub(spent_ms).saturating_add(inc);
        let togo = t.moves_to_go.get_mut(me);
        *togo = togo.and_then(|n| n.checked_sub(1)).filter(|n| *n > 0);
    }
    let go = super::time::uci_go(&limit, me);
    match go.strip_prefix("go") {
        Some(rest) => format!("go ponder{rest}"),
        None => go,
    }
}

/// Hits and ponders, counted ([`Tally::line`] says them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub hits: u64,
    /// Hits and misses (ponders a game's end cut short are not counted).
    pub ponders: u64,
}

impl Tally {
    /// Counts one ponder's outcome.
    pub fn count(&mut self, hit: bool) {
        self.ponders += 1;
        if hit {
            self.hits += 1;
        }
    }

    /// `ponder: 12 hits of 20 ponders (60 %)`.
    pub fn line(&self) -> String {
        let rate = (self.hits * 100)
            .checked_div(self.ponders)
            .map_or_else(|| "no rate".to_string(), |r| format!("{r} %"));
        format!(
            "ponder: {} hit{} of {} ponder{} ({rate})",
            self.hits,
            if self.hits == 1 { "" } else { "s" },
            self.ponders,
            if self.ponders == 1 { "" } else { "s" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::engine::time::{SearchLimits, Times};
    use crate::game::Game;
    use shakmaty::ByColor;

    fn game(sans: &[&str]) -> Game {
        let mut g = Game::new(Chess::default());
        for s in sans {
            g.play_san(s).unwrap();
        }
        g
    }

    #[test]
    fn the_same_game_is_a_hit_another_a_miss_and_each_ends_the_ponder() {
        let start = Chess::default();
        let mut p = Ponder::default();
        assert_eq!(p.resume(&start, &[]), Resume::Idle);
        // The engine played e4 and expects e5.
        p.started(&start, game(&["e4", "e5"]).moves().to_vec());
        assert!(p.pondering());
        assert_eq!(p.resume(&start, game(&["e4", "e5"]).moves()), Resume::Hit);
        assert!(!p.pondering(), "a hit ends the ponder");
        assert_eq!(p.resume(&start, game(&["e4", "e5"]).moves()), Resume::Idle);
        // It expects e5; the opponent plays c5.
        p.started(&start, game(&["e4", "e5"]).moves().to_vec());
        assert_eq!(p.resume(&start, game(&["e4", "c5"]).moves()), Resume::Miss);
        assert!(!p.pondering());
        // The same moves from another start are another game.
        let other = crate::game::position_from_fen(
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1",
        )
        .unwrap();
        p.started(&start, game(&["e4", "e5"]).moves().to_vec());
        assert_eq!(p.resume(&other, game(&["e4", "e5"]).moves()), Resume::Miss);
        // A game over while it ponders: abandoned, not a miss.
        p.started(&start, game(&["e4", "e5"]).moves().to_vec());
        assert!(p.abandon());
        assert!(!p.abandon());
        assert_eq!(p.resume(&start, game(&["e4", "e5"]).moves()), Resume::Idle);
        assert_eq!(Resume::Hit.hit(), Some(true));
        assert_eq!(Resume::Miss.hit(), Some(false));
        assert_eq!(Resume::Idle.hit(), None);
    }

    #[test]
    fn the_ponder_move_must_be_legal_after_the_engines_move_and_leave_a_game() {
        let start = Chess::default();
        let e4 = notation::from_uci(&start, "e2e4").unwrap();
        let after = ponder_move(&start, &e4, Some("e7e5")).unwrap();
        assert_eq!(
            notation::to_uci(&after, crate::game::Variant::Standard),
            "e7e5"
        );
        assert_eq!(ponder_move(&start, &e4, None), None);
        assert_eq!(ponder_move(&start, &e4, Some("e2e4")), None, "not legal");
        assert_eq!(ponder_move(&start, &e4, Some("junk")), None);
        // Fool's mate: after g4 the expected Qh4# ends the game.
        let g = game(&["f3", "e5"]);
        let pos = g.position().clone();
        let g4 = notation::from_uci(&pos, "g2g4").unwrap();
        assert_eq!(ponder_move(&pos, &g4, Some("d8h4")), None);
    }

    #[test]
    fn go_ponder_has_the_engines_clock_after_its_move() {
        let t = Times {
            remaining_ms: ByColor {
                white: 10_000,
                black: 8_000,
            },
            increment_ms: ByColor {
                white: 100,
                black: 100,
            },
            moves_to_go: ByColor {
                white: Some(3),
                black: Some(3),
            },
        };
        let limit = Limit::Clock(t, SearchLimits::default());
        assert_eq!(
            ponder_go(&limit, Color::White, 1_500),
            "go ponder wtime 8600 btime 8000 winc 100 binc 100 movestogo 2"
        );
        // The period's last move: no movestogo.
        let mut last = t;
        last.moves_to_go.black = Some(1);
        let limit = Limit::Clock(last, SearchLimits::default());
        assert_eq!(
            ponder_go(&limit, Color::Black, 9_000),
            "go ponder wtime 10000 btime 100 winc 100 binc 100"
        );
        let fixed = Limit::Fixed(SearchLimits::movetime(200));
        assert_eq!(
            ponder_go(&fixed, Color::White, 200),
            "go ponder movetime 200"
        );
    }

    #[test]
    fn the_tally_says_hits_of_ponders_and_the_rate() {
        let mut t = Tally::default();
        assert_eq!(t.line(), "ponder: 0 hits of 0 ponders (no rate)");
        t.count(true);
        assert_eq!(t.line(), "ponder: 1 hit of 1 ponder (100 %)");
        t.count(false);
        t.count(false);
        assert_eq!((t.hits, t.ponders), (1, 3));
        assert_eq!(t.line(), "ponder: 1 hit of 3 ponders (33 %)");
    }
}
