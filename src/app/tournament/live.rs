//! A tournament's `--live-pgn`: the game on every board in one PGN file,
//! in board order, rewritten as the games are played. A board's last game
//! stays in the file (with its result) until the board starts another, so
//! that the file ends the event holding each board's last game, as a
//! match's live PGN ends holding its last game.
//!
//! [`LiveSet`] decides what the file holds (pure: a board's game is built
//! again only when its core took something since); [`LiveGames`] hands it
//! to the file's writer thread ([`Latest`]), which never makes the loop
//! wait for the disk.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::record::durable::write_atomic;
use crate::record::latest::Latest;
use crate::record::pgn::{PgnGame, write_pgn};
use crate::referee::Referee;

/// The least time between two looks at every board (and between two
/// rewrites of the file): a match's live PGN's, ten a second at most.
pub use crate::app::writers::LIVE_PGN_GAP as LIVE_GAP;

/// Each board's game as last built.
#[derive(Debug, Default)]
pub struct LiveSet {
    boards: BTreeMap<u32, Shown>,
}

#[derive(Debug)]
struct Shown {
    game: u32,
    /// What the game was built from: its board core's time then.
    stamp: u64,
    pgn: PgnGame,
}

impl LiveSet {
    /// Board `board` plays game `game`, whose core last took something at
    /// `stamp`: the game is built (`build`) unless the set has it as of
    /// that time already. Whether the set changed.
    pub fn offer(
        &mut self,
        board: u32,
        game: u32,
        stamp: u64,
        build: impl FnOnce() -> Option<PgnGame>,
    ) -> bool {
        if self
            .boards
            .get(&board)
            .is_some_and(|s| s.game == game && s.stamp == stamp)
        {
            return false;
        }
        let Some(pgn) = build() else {
            return false;
        };
        self.boards.insert(board, Shown { game, stamp, pgn });
        true
    }

    /// The games, in board order.
    pub fn games(&self) -> Vec<PgnGame> {
        self.boards.values().map(|s| s.pgn.clone()).collect()
    }
}

/// Renders the games one after another and replaces the file with them
/// atomically.
#[allow(
    clippy::ptr_arg,
    reason = "the writer thread's `WriteFn<Vec<PgnGame>>`"
)]
fn write_games(path: &Path, games: &Vec<PgnGame>) -> io::Result<()> {
    let text: String = games.iter().map(write_pgn).collect();
    write_atomic(path, &text)
}

/// The `--live-pgn` file of a tournament and what it holds.
pub struct LiveGames {
    file: Latest<Vec<PgnGame>>,
    set: LiveSet,
    last_look: Option<Instant>,
}

impl LiveGames {
    /// Starts the file's writer thread.
    pub fn start(path: PathBuf) -> io::Result<LiveGames> {
        Ok(LiveGames {
            file: Latest::start(path, write_games, LIVE_GAP)?,
            set: LiveSet::default(),
            last_look: None,
        })
    }

    /// Looks at every board (board number, game number, its core) at
    /// tournament time `at`, if [`LIVE_GAP`] has passed since the last
    /// look (`now`); the file is rewritten if a game changed.
    pub fn look<'a>(
        &mut self,
        boards: impl IntoIterator<Item = (u32, u32, &'a Referee)>,
        at: u64,
        now: Instant,
    ) {
        if self
            .last_look
            .is_some_and(|t| now.saturating_duration_since(t) < LIVE_GAP)
        {
            return;
        }
        self.last_look = Some(now);
        self.see(boards, at);
    }

    /// Every board as it is now, whenever the last look was; the file is
    /// rewritten if a game changed.
    pub fn see<'a>(&mut self, boards: impl IntoIterator<Item = (u32, u32, &'a Referee)>, at: u64) {
        let mut changed = false;
        for (board, game, core) in boards {
            changed |= self
                .set
                .offer(board, game, core.time(), || core.live_pgn(at));
        }
        if changed {
            self.file.set(self.set.games());
        }
    }

    /// Writes the newest games and stops the writer.
    pub fn close(self) {
        self.file.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(white: &str) -> PgnGame {
        PgnGame {
            tags: vec![("White".into(), white.into())],
            ..PgnGame::default()
        }
    }

    fn whites(set: &LiveSet) -> Vec<String> {
        set.games()
            .iter()
            .map(|g| g.tags[0].1.clone())
            .collect::<Vec<_>>()
    }

    #[test]
    fn a_game_is_built_again_only_when_its_core_took_something() {
        let mut set = LiveSet::default();
        assert!(set.offer(1, 7, 100, || Some(game("a"))));
        let mut built = false;
        assert!(!set.offer(1, 7, 100, || {
            built = true;
            Some(game("b"))
        }));
        assert!(!built, "nothing new on board 1: not built");
        assert!(set.offer(1, 7, 150, || Some(game("c"))));
        assert_eq!(whites(&set), ["c"]);
    }

    #[test]
    fn boards_are_in_board_order_and_a_last_game_stays_until_the_next() {
        let mut set = LiveSet::default();
        set.offer(2, 1, 10, || Some(game("two")));
        set.offer(1, 2, 10, || Some(game("one")));
        assert_eq!(whites(&set), ["one", "two"]);
        // Board 1's game 2 is over and gone from the floor: it stays.
        // Board 1 starts game 3 (at the same core time: a new core).
        assert!(set.offer(1, 3, 10, || Some(game("three"))));
        assert_eq!(whites(&set), ["three", "two"]);
        // A core with no game to show changes nothing.
        assert!(!set.offer(2, 4, 0, || None));
        assert_eq!(whites(&set), ["three", "two"]);
    }
}
