//! A read-only picture of the referee's state, for the display and the
//! headless printer. Taking one never changes the core.

use shakmaty::{ByColor, Chess, Color, Square};

use crate::referee::client::{ByClient, ClientId};
pub use crate::referee::event::EventKind;
use crate::referee::event::{Ending, Event, PauseReason};
use crate::stats::Report;

/// What the session is doing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for one or both clients to send `refreq sign_on;`.
    WaitingForSignOn,
    /// `reset` sent; waiting out the reset delay before `inform`.
    Starting,
    /// A game is being played.
    Playing,
    /// Clocks stopped by the supervisor or by a fault; the reason says which.
    Paused { reason: PauseReason },
    /// A game ended; waiting out the conclude delay before the next one.
    GameOver,
    /// The match is over or the session was ended; `disconnect` sent.
    SessionOver,
}

/// One client as the display shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientView {
    pub id: ClientId,
    /// The port name given on the command line.
    pub port: String,
    /// The name used in the PGN (settings, else `tcsi`, else the port);
    /// already stripped of control characters.
    pub name: String,
    pub signed_on: bool,
    pub link_up: bool,
    /// It signed on with a checked line: its lines carry the `Acrc` check.
    pub line_check: bool,
    /// Its colour in the current game, once the game has started.
    pub color: Option<Color>,
}

/// One side's clock as the display shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockView {
    /// Time left in the current control at [`Snapshot::at_ms`]; `None` when
    /// the game is played without clocks (TimeControl `-` or `?`).
    pub remaining_ms: Option<u64>,
    /// Total time used in this game at [`Snapshot::at_ms`].
    pub used_ms: u64,
    /// Whether this clock is running.
    pub running: bool,
    /// Whether this side's flag has fallen.
    pub flagged: bool,
}

/// An event for the log pane (`referee::words::sentence` says it).
#[derive(Debug, Clone, PartialEq)]
pub struct EventView {
    /// Milliseconds since the session started.
    pub at_ms: u64,
    pub event: Event,
}

/// The result of a finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultView {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The PGN Termination value: `normal`, `time forfeit`, ...
    pub termination: String,
    /// Why it ended (`Display` says it: `White checkmated`, ...).
    pub ending: Ending,
}

/// Everything the display needs, copied out of the core.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// Core time at which the snapshot was taken (ms since session start).
    pub at_ms: u64,
    pub phase: Phase,
    /// The game's starting position (gives the first move number and side).
    pub start: Chess,
    /// The current position.
    pub position: Chess,
    /// The moves played so far in canonical SAN.
    pub sans: Vec<String>,
    /// The last move's from and to squares (for a highlight).
    pub last_move: Option<(Square, Square)>,
    /// Clients A and B.
    pub clients: ByClient<ClientView>,
    /// The two clocks, by colour.
    pub clocks: ByColor<ClockView>,
    /// The PGN TimeControl value, e.g. `40/7200:3600` or `-`.
    pub time_control: String,
    /// 1-based number of the current game, and how many the match has
    /// (`u32::MAX`: no fixed number, as in the demo).
    pub game_number: u32,
    pub games_total: u32,
    /// Match score in half points, by client.
    pub score_halves: ByClient<u32>,
    /// Set when the current game has ended.
    pub result: Option<ResultView>,
    /// The match statistics from A's view, once a game has a result.
    pub stats: Option<Report>,
    /// The most recent events, oldest first (bounded).
    pub events: Vec<EventView>,
}

impl Snapshot {
    /// The clock of `color`, by colour.
    pub fn clock(&self, color: Color) -> &ClockView {
        self.clocks.get(color)
    }

    /// Time left on `color`'s clock at `now_ms` (ms since session start),
    /// counting down from the snapshot if that clock is running. `None` when
    /// there is no clock.
    pub fn remaining_at(&self, color: Color, now_ms: u64) -> Option<u64> {
        let c = self.clock(color);
        let left = c.remaining_ms?;
        if c.running {
            Some(left.saturating_sub(now_ms.saturating_sub(self.at_ms)))
        } else {
            Some(left)
        }
    }

    /// The client playing `color` in the current game, if colours are set.
    pub fn client_of(&self, color: Color) -> Option<&ClientView> {
        self.clients.values().find(|c| c.color == Some(color))
    }

    /// `game 3 of 10`, or `game 3` when the number of games is open.
    pub fn game_label(&self) -> String {
        if self.games_total == u32::MAX {
            format!("game {}", self.game_number)
        } else {
            format!("game {} of {}", self.game_number, self.games_total)
        }
    }

    /// Whether any clock is running (the display ticks only then).
    pub fn clock_running(&self) -> bool {
        self.clocks.iter().any(|c| c.running)
    }
}
