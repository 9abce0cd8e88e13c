//! The sans-IO referee core: the EPD referee protocol (spec section 8) as a
//! synchronous state machine. It does no I/O and never reads the clock:
//! [`Referee::handle`] takes an [`Input`] and the time it happened and
//! returns [`Output`]s; [`Referee::next_deadline`] says when to wake it.
//! Given the same inputs it produces the same outputs, so a journal of its
//! inputs is enough to rebuild it.

pub mod adjudication;
pub mod client;
pub mod core;
pub mod eval;
pub mod event;
pub mod messages;
pub mod settings;
pub mod snapshot;
pub mod tablebase;
pub mod words;

pub use self::core::{Progress, Referee};
pub use client::{ByClient, ClientId};
pub use event::{Ending, Event, EventKind, GameOver};
pub use messages::{Command, GameResult, Input, Output, Termination, Verdict, WallClock};
pub use settings::{ClientFault, FalseClaim, IllegalMove, Policy, Settings, Start};
pub use snapshot::Snapshot;

#[cfg(test)]
mod tests;
