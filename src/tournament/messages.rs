//! The tournament core's inputs and outputs, and what a game's end tells
//! it. Every input comes with the time it happened (ms since the
//! tournament started), passed to [`crate::tournament::Tournament::handle`]
//! beside it.

use std::fmt;

use shakmaty::{ByColor, Color};

use crate::referee::{GameResult, Termination};
use crate::stats::sprt::Hypothesis;
use crate::tournament::schedule::{PlayerId, RoundPairing, ScheduledGame};

/// One of the referee's boards: a referee core that plays one game at a
/// time (`--boards K` gives boards 1 to K).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BoardId(pub u32);

impl fmt::Display for BoardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "board {}", self.0)
    }
}

/// One instance of a player: its program on one board at a time. A
/// serial port is one instance (0); an engine or mover argus starts runs
/// one instance per board; a `tcp:NAME` player may connect once per
/// board, each connection an instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Instance {
    pub player: PlayerId,
    /// 0-based.
    pub n: u32,
}

impl Instance {
    pub fn new(player: PlayerId, n: u32) -> Instance {
        Instance { player, n }
    }

    /// `name` said of this instance: `name` for the first, `name #K` for
    /// instance K > 1 (counting from 1).
    pub fn named(&self, name: &str) -> String {
        match self.n {
            0 => name.to_string(),
            n => format!("{name} #{}", n + 1),
        }
    }
}

impl Instance {
    /// Its lines' label in a transcript: a match's `A` and `B` (the
    /// clients `argus referee A B` names, whatever colour they play), a
    /// tournament's `P1`, `P2`, ... (seeds); `#K` after it for instance
    /// K > 1.
    pub fn transcript_label(&self, form: crate::tournament::Form) -> String {
        let player = match form {
            crate::tournament::Form::Match => match self.player.0 {
                0 => "A".to_string(),
                1 => "B".to_string(),
                n => format!("P{}", n + 1),
            },
            crate::tournament::Form::Tournament => format!("P{}", self.player.0 + 1),
        };
        match self.n {
            0 => player,
            n => format!("{player}#{}", n + 1),
        }
    }
}

impl fmt::Display for Instance {
    /// `player N`, and `player N #K` for its instance K > 1 (counting from
    /// 1 as the player list does).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.named(&self.player.to_string()))
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
pub enum GameDecision {
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

impl GameDecision {
    /// The points of each side, in half points.
    pub fn halves(&self) -> ByColor<u32> {
        match *self {
            GameDecision::Played { result, .. } => match result {
                GameResult::Win(c) => ByColor::new_with(|side| if side == c { 2 } else { 0 }),
                GameResult::Draw => ByColor::new_with(|_| 1),
                GameResult::None => ByColor::new_with(|_| 0),
            },
            GameDecision::Forfeited(Absent::One(c)) => {
                ByColor::new_with(|side| if side == c { 0 } else { 2 })
            }
            GameDecision::Forfeited(Absent::Both) => ByColor::new_with(|_| 0),
        }
    }

    /// The result as a PGN-like text: `1-0`, `0-1`, `1/2-1/2`, and for
    /// forfeits `+/-`, `-/+` or `-/-`.
    pub fn result_text(&self) -> &'static str {
        match *self {
            GameDecision::Played { result, .. } => result.as_str(),
            GameDecision::Forfeited(Absent::One(Color::Black)) => "+/-",
            GameDecision::Forfeited(Absent::One(Color::White)) => "-/+",
            GameDecision::Forfeited(Absent::Both) => "-/-",
        }
    }

    /// How it ended, in words: the PGN Termination, or who forfeited.
    pub fn how(&self) -> &'static str {
        match *self {
            GameDecision::Played { termination, .. } => termination.as_str(),
            GameDecision::Forfeited(Absent::One(Color::White)) => "forfeit: White absent",
            GameDecision::Forfeited(Absent::One(Color::Black)) => "forfeit: Black absent",
            GameDecision::Forfeited(Absent::Both) => "forfeit: both absent",
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
    /// One instance of the player's program signed on (first time, or
    /// back after it was lost): instance 0 of a player that plays one game
    /// at a time; instance `n` of `--boards` instances otherwise (see
    /// [`crate::tournament::Settings::instances`]).
    SignedOn { player: PlayerId, instance: u32 },
    /// A player with no name of its own (a serial port, a `tcp://`
    /// endpoint: named by where it is) told its name in its first sign-on
    /// (`tcsi`): the event calls it so from now on, in its games' PGN, the
    /// standings and the report. Handed before that sign-on's
    /// [`Input::SignedOn`]; a name another player has already is told apart
    /// by the old one (`Fritz (/dev/ttyS1)`).
    Named { player: PlayerId, name: String },
    /// That instance's link went away or its program stopped answering.
    Lost {
        player: PlayerId,
        instance: u32,
        reason: String,
    },
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
    /// now); games in progress carry on on their boards. But the players
    /// `on_cables`, on serial cables, count as signed on again at once (a
    /// cable does not tell a program that its referee restarted; one that
    /// is not there loses its game on time, as a player that left the
    /// board would). Programs over TCP and those argus runs sign on again
    /// by themselves.
    Resumed { on_cables: Vec<PlayerId> },
    /// The next round's pairing, from the event's pairer
    /// ([`crate::tournament::Tournament::pairing_due`]), journaled before
    /// any game of the round starts.
    Paired(RoundPairing),
    /// The pairer could pair no further round (a Swiss with more rounds
    /// than its players can play): the event ends with the rounds it has.
    Unpairable { round: u32, reason: String },
    /// The supervisor withdrew the player from a Swiss event or a
    /// knockout: it loses the game it is playing (its board is told to
    /// end it: [`crate::tournament::Tournament::concessions`]), forfeits
    /// those it has not begun, and is paired no more.
    Withdraw { player: PlayerId },
}

/// What happens to the games running when the SPRT decides
/// (`--sprt-running`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SprtRunning {
    /// They are played out, and count.
    #[default]
    Finish,
    /// They are aborted (`*`): they count for nothing.
    Abort,
}

impl SprtRunning {
    /// The word on the command line and in the journal.
    pub fn as_str(self) -> &'static str {
        match self {
            SprtRunning::Finish => "finish",
            SprtRunning::Abort => "abort",
        }
    }

    /// Reads [`SprtRunning::as_str`].
    pub fn parse(s: &str) -> Result<SprtRunning, UnknownSprtRunning> {
        match s {
            "finish" => Ok(SprtRunning::Finish),
            "abort" => Ok(SprtRunning::Abort),
            other => Err(UnknownSprtRunning(other.to_string())),
        }
    }
}

/// A word for the games running at an SPRT's stop that is neither
/// `finish` nor `abort` (as given).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?}: finish or abort")]
pub struct UnknownSprtRunning(pub String);

error_words!(UnknownSprtRunning);

/// Why a player forfeits the games it has not started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Withdrawal {
    /// It was away longer than `--absent-forfeit` allows.
    AwayTooLong,
    /// argus could not start its program; the reason as it was given.
    CannotStart(String),
    /// The supervisor withdrew it, with `round` rounds paired (it loses
    /// the game it was playing).
    Supervisor { round: u32 },
    /// It withdraws from round `round` on, as announced before the event
    /// (`--withdraw NAME:ROUND`): a Swiss round, or a knockout's bracket
    /// round.
    Planned { round: u32 },
}

/// Something the core wants done or known.
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    /// Start this game on this board, with these instances of its
    /// players (White's, Black's).
    StartGame {
        board: BoardId,
        game: ScheduledGame,
        instances: ByColor<u32>,
    },
    /// A game was decided (played or forfeited): the standings changed.
    /// `ending`: how a played game ended in the referee's words, if known.
    Scored {
        game: u32,
        outcome: GameDecision,
        ending: Option<String>,
    },
    /// A game ended without a result and will be played again.
    Replay { game: u32 },
    /// Abort the game on this board (`*`): the SPRT decided and the
    /// running games are not to be played out.
    Abort { board: BoardId, game: u32 },
    /// A player has forfeited every game it had not started, and why.
    Withdrawn { player: PlayerId, why: Withdrawal },
    /// Every game of this round is decided.
    RoundOver { round: u32 },
    /// A round was paired: its games are in the schedule.
    Paired(RoundPairing),
    /// No further round could be paired, and why.
    Unpairable { round: u32, reason: String },
    /// The SPRT accepted `hypothesis` at this LLR (its bounds: lower,
    /// upper): no game starts from now on; the games running are played
    /// out.
    SprtDecided {
        hypothesis: Hypothesis,
        llr: f64,
        bounds: (f64, f64),
    },
    /// Every game of the tournament is decided (or, after the SPRT
    /// decided, every game that was running).
    TournamentOver,
    /// The player, on a cable, counts as signed on again after a resume
    /// (see [`Input::Resumed`]).
    OnCable { player: PlayerId },
    /// The player is called `name` from now on ([`Input::Named`]); it was
    /// called `was`.
    Named {
        player: PlayerId,
        was: String,
        name: String,
    },
    /// An input that was not acted on, and why.
    Ignored { reason: String },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::Form;

    #[test]
    fn an_instance_is_labelled_by_letter_in_a_match_and_by_seed_in_a_tournament() {
        let label = |p, n, form| Instance::new(PlayerId(p), n).transcript_label(form);
        assert_eq!(label(0, 0, Form::Match), "A");
        assert_eq!(label(1, 0, Form::Match), "B");
        assert_eq!(label(1, 2, Form::Match), "B#3");
        assert_eq!(label(0, 0, Form::Tournament), "P1");
        assert_eq!(label(4, 1, Form::Tournament), "P5#2");
    }
}
