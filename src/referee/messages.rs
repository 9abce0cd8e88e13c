//! The core's inputs and outputs. Every input comes with the time it
//! happened (milliseconds since the session started), passed to
//! [`crate::referee::Referee::handle`] beside it.

use shakmaty::Color;

use serde::{Serialize, Serializer};

use crate::clock::Arrival;
use crate::epd::sign_on::SignOn;
use crate::referee::client::ClientId;
use crate::referee::event::Event;
use crate::referee::tablebase::TablebaseVerdict;

/// Something that happened outside the core.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A whole line from a client; the time is that of its last byte.
    /// `wire_bytes` is how many bytes it took on the wire, line end
    /// included, and `arrival` how it came in (for the wire-time credit,
    /// [`clock::line_credit_ms`](crate::clock::line_credit_ms); `None`:
    /// not known, as in journals written before it was, and the credit is
    /// the line's full wire time).
    Line {
        from: ClientId,
        text: String,
        wire_bytes: usize,
        arrival: Option<Arrival>,
    },
    /// Part of a line from a client has arrived (not yet its line end): the
    /// client is not silent (see `Settings::resend_after_ms`).
    Receiving { from: ClientId },
    /// A line the framer dropped (too long, or bytes outside printable
    /// ASCII); the reason says which. Logged, never acted on.
    Dropped { from: ClientId, reason: String },
    /// The record with this sequence number has left the port: its last
    /// byte is on the wire.
    Sent { to: ClientId, seq: u64 },
    /// The link refused the records to `to` handed over with this one
    /// (its queue was full): none of them will leave. The client missed
    /// them and is brought back in line.
    Refused { to: ClientId, seq: u64 },
    /// The client's port reported an error or went away.
    LinkLost { client: ClientId, reason: String },
    /// The client's port is open again.
    LinkBack { client: ClientId },
    /// The time given by [`crate::referee::Referee::next_deadline`] has come.
    Timer,
    /// The supervisor did something.
    Supervisor(Command),
    /// The endgame tables' verdict on the position after a move
    /// (`--syzygy`): the game ends by adjudication if it is still at that
    /// position.
    Tablebase(TablebaseVerdict),
    /// The event seated `client` on this board: its program signed on to
    /// the event (a tournament) before the game was set up, with
    /// `sign_on`, and the board takes that as the client's sign-on; no line
    /// of its own came (a match's clients sign on by their lines).
    Seated { client: ClientId, sign_on: SignOn },
    /// The referee restarted from its journal (`argus resume`): the state
    /// was rebuilt by replaying the inputs, and the clients must be brought
    /// back in line as if both had restarted. A clock running at the crash
    /// is halted and goes on when the new `respond` has left the port, so
    /// that neither the outage nor the resync is charged to anybody.
    Resumed,
}

/// What the wall clock read at one moment of the core's time: journal time
/// `at` (ms) was `unix_ms` (ms since 1970), in a local time `utc_offset_min`
/// minutes east of UTC. The edge reads it when a referee starts or resumes
/// and the journal keeps it (its `epoch` line); the core dates its games'
/// starts and ends by it (the PGN's `GameStartTime`, `GameEndTime`,
/// `GameDuration`) without reading a clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WallClock {
    pub at: u64,
    pub unix_ms: u64,
    pub utc_offset_min: i32,
}

impl WallClock {
    /// The wall-clock time (ms since 1970) of journal time `at` (not
    /// before this reading's `at`).
    pub fn wall_of(&self, at: u64) -> u64 {
        self.unix_ms.saturating_add(at.saturating_sub(self.at))
    }
}

/// The supervisor's commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "command", content = "arg", rename_all = "snake_case")]
pub enum Command {
    /// Stop the clocks.
    Pause,
    /// Start them again; after a fault the client on move is asked again.
    Resume,
    /// End the game with this result.
    Adjudicate(Verdict),
    /// End the game without a result (`*`, Termination "abandoned"); the
    /// match goes on with the next game.
    AbortGame,
    /// Bring a client back in line: `reset`, `inform`, one `execute` per
    /// move, and `respond` if it is on move.
    RestartClient(ClientId),
    /// End the session: an unfinished game is recorded as unterminated and
    /// both clients get `refcom disconnect;`.
    EndSession,
}

/// A result the supervisor can impose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    WhiteWins,
    BlackWins,
    Draw,
}

/// How a game ended, as PGN says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    Normal,
    TimeForfeit,
    RulesInfraction,
    Adjudication,
    Abandoned,
    Unterminated,
}

impl Termination {
    /// The PGN Termination tag value.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Adjudication => "adjudication",
            Termination::Abandoned => "abandoned",
            Termination::Unterminated => "unterminated",
        }
    }
}

/// The result of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    Win(Color),
    Draw,
    /// No result (`*`): aborted or unterminated.
    None,
}

impl GameResult {
    /// The PGN result string.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::Win(Color::White) => "1-0",
            GameResult::Win(Color::Black) => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::None => "*",
        }
    }
}

/// Something the core wants done or known: a record to send, or an
/// [`Event`] (what happened, as data; `referee::words` says it in words).
/// str0m's `Output::{Transmit, Event}` is the model.
#[derive(Debug, Clone)]
pub enum Output {
    /// Send this record (without line end) to a client. Report
    /// [`Input::Sent`] with the same `seq` when its last byte has left.
    Send {
        to: ClientId,
        seq: u64,
        text: String,
    },
    Event(Event),
}

impl Output {
    /// The event, if this output is one.
    pub fn event(&self) -> Option<&Event> {
        match self {
            Output::Event(e) => Some(e),
            Output::Send { .. } => None,
        }
    }
}

impl Serialize for Termination {
    /// As the PGN Termination tag says it.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl Serialize for GameResult {
    /// As PGN says it: `1-0`, `0-1`, `1/2-1/2`, `*`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}
