//! The tournament core's inputs and outputs, and what a game's end tells
//! it. Every input comes with the time it happened (ms since the
//! tournament started), passed to [`crate::tournament::Tournament::handle`]
//! beside it.

use std::fmt;

use shakmaty::{ByColor, Color};

use crate::referee::{GameResult, Termination};
use crate::tournament::schedule::{PlayerId, ScheduledGame};

/// One of the referee's boards: a referee core that plays one game at a
/// time (`--boards K` gives boards 1 to K).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BoardId(pub u32);

impl fmt::Display for BoardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "board {}", self.0)
    }
}

/// What one side of a finished game did, as its board reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SideStats {
    /// Moves the program played (opening moves not counted).
    pub moves: u32,
    /// Time its clock charged for them, in ms.
    pub used_ms: u64,
    /// Time left on its clock at the end, in ms (`None`: untimed).
    pub left_ms: Option<u64>,
    /// Faults charged to it (bad records, refused replies, lost links).
    pub faults: u32,
    /// Times it was brought back in line after it restarted.
    pub restarts: u32,
    /// Moves its engine pondered for (`--ponder`), and of those the ones
    /// whose ponder was a hit.
    pub ponders: u32,
    pub ponder_hits: u32,
}

/// Who stayed away from a game that was forfeited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Absent {
    /// One side: the other wins.
    One(Color),
    /// Both: both lose.
    Both,
}

/// How a game of the schedule was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Played to a result on a board.
    Played {
        /// A win or a draw (never `*`: a game without a result is played
        /// again).
        result: GameResult,
        termination: Termination,
        sides: ByColor<SideStats>,
    },
    /// Not played: a player that had dropped out forfeited it.
    Forfeited(Absent),
}

impl Outcome {
    /// The points of each side, in half points.
    pub fn halves(&self) -> ByColor<u32> {
        match *self {
            Outcome::Played { result, .. } => match result {
                GameResult::Win(c) => ByColor::new_with(|side| if side == c { 2 } else { 0 }),
                GameResult::Draw => ByColor::new_with(|_| 1),
                GameResult::None => ByColor::new_with(|_| 0),
            },
            Outcome::Forfeited(Absent::One(c)) => {
                ByColor::new_with(|side| if side == c { 0 } else { 2 })
            }
            Outcome::Forfeited(Absent::Both) => ByColor::new_with(|_| 0),
        }
    }

    /// The result as a PGN-like text: `1-0`, `0-1`, `1/2-1/2`, and for
    /// forfeits `+/-`, `-/+` or `-/-`.
    pub fn result_text(&self) -> &'static str {
        match *self {
            Outcome::Played { result, .. } => result.as_str(),
            Outcome::Forfeited(Absent::One(Color::Black)) => "+/-",
            Outcome::Forfeited(Absent::One(Color::White)) => "-/+",
            Outcome::Forfeited(Absent::Both) => "-/-",
        }
    }

    /// How it ended, in words: the PGN Termination, or who forfeited.
    pub fn how(&self) -> &'static str {
        match *self {
            Outcome::Played { termination, .. } => termination.as_str(),
            Outcome::Forfeited(Absent::One(Color::White)) => "forfeit: White absent",
            Outcome::Forfeited(Absent::One(Color::Black)) => "forfeit: Black absent",
            Outcome::Forfeited(Absent::Both) => "forfeit: both absent",
        }
    }
}

/// What a player that is away does to its games (`--absent-forfeit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Absence {
    /// Its games wait until it is back (the others' games go on); a game it
    /// was playing goes on without it, its clock running, so it may lose
    /// on time. The tournament is not over until it is back and has played.
    Wait,
    /// After this long away without a break (from the start for a player
    /// that never signed on), it forfeits every game it has not started,
    /// and takes no further part.
    Forfeit { after_ms: u64 },
}

/// Something that happened outside the core.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// The player's program signed on (first time, or back after it was
    /// lost).
    SignedOn { player: PlayerId },
    /// The player's link went away or its program stopped answering.
    Lost { player: PlayerId, reason: String },
    /// The game on its board ended. `*` (aborted, unterminated) puts the
    /// game back in the queue, to be played again from its start.
    GameFinished {
        game: u32,
        result: GameResult,
        termination: Termination,
        sides: ByColor<SideStats>,
        /// How it ended in the referee's words, as its PGN's closing
        /// comment says it (`Black resigns`; `referee::Ending`'s
        /// `Display`); `None` from a journal written before they were kept.
        ending: Option<String>,
    },
    /// The board's last game is over and concluded: the board and its two
    /// players can take another game.
    BoardFree { board: BoardId },
    /// The time given by [`crate::tournament::Tournament::next_deadline`]
    /// has come.
    Timer,
    /// The player is a program argus runs, and argus could not start it
    /// (again): it forfeits every game it has not started, at once, as a
    /// player away too long does (nothing can bring it back).
    CannotStart { player: PlayerId, reason: String },
    /// The tournament was rebuilt from its journal after the referee was
    /// killed: every player must sign on again (its absence counts from
    /// now); games in progress carry on on their boards.
    Resumed,
}

/// Why a player forfeits the games it has not started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Withdrawal {
    /// It was away longer than `--absent-forfeit` allows.
    AwayTooLong,
    /// argus could not start its program; the reason as it was given.
    CannotStart(String),
}

/// Something the core wants done or known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Start this game on this board.
    StartGame { board: BoardId, game: ScheduledGame },
    /// A game was decided (played or forfeited): the standings changed.
    /// `ending`: how a played game ended in the referee's words, if known.
    Scored {
        game: u32,
        outcome: Outcome,
        ending: Option<String>,
    },
    /// A game ended without a result and will be played again.
    Replay { game: u32 },
    /// A player has forfeited every game it had not started, and why.
    Withdrawn { player: PlayerId, why: Withdrawal },
    /// Every game of this round is decided.
    RoundOver { round: u32 },
    /// Every game of the tournament is decided.
    TournamentOver,
    /// An input that was not acted on, and why.
    Ignored { reason: String },
}
