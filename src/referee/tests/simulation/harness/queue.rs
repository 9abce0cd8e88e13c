//! What the simulation schedules: events in fake time (in the order they
//! were scheduled at equal times), and what the harness expects of each
//! line it delivers.

use std::cmp::Ordering;

use crate::referee::{ClientId, Command};

use super::super::spec::OffenceKind;

/// What the harness expects of a line it delivers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Expect {
    /// A genuine reply, sign-on or sign-off: only the global checks.
    Normal,
    /// Never valid: must be rejected and change nothing.
    Junk,
    /// A reply the referee may not be waiting for: if it is not, the line
    /// must be rejected and change nothing.
    Stray,
    /// A reply with an offence in it.
    Offence(OffenceKind),
}

#[derive(Debug, Clone)]
pub(super) enum EventBody {
    /// The last byte of a record from the referee has left for `to` (and
    /// reached it).
    Arrive {
        to: ClientId,
        seq: u64,
        text: String,
        /// The game in progress when the referee sent it.
        game: u32,
    },
    /// A line from a client has fully reached the referee.
    Line {
        from: ClientId,
        text: String,
        expect: Expect,
        /// The game in progress when the client wrote the line.
        game: u32,
    },
    /// A client has sent its reply and reads its next line.
    ClientFree { client: ClientId },
    /// A line the framer dropped.
    Dropped { from: ClientId },
    /// A signed-off client comes back.
    SignOnAgain { client: ClientId },
    /// The supervisor acts.
    Supervisor(Command),
}

/// Something scheduled to happen in the simulation at a time.
#[derive(Debug, Clone)]
pub(super) struct Scheduled {
    pub(super) at: u64,
    pub(super) order: u64,
    pub(super) body: EventBody,
}

impl PartialEq for Scheduled {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Scheduled {}
impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Scheduled {
    /// Reversed, so that the max-heap pops the earliest event first (ties
    /// in the order they were scheduled).
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at, other.order).cmp(&(self.at, self.order))
    }
}
