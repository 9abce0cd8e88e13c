//! The tournament referee's own core: the schedule, which game starts on
//! which board and when, drop-outs, standings and the final report, and
//! its journal. Like the referee core it does no I/O and reads no clock:
//! [`Tournament::handle`] takes an [`Input`] and its time and returns
//! [`Output`]s. docs/tournament.md describes it.

pub mod schedule;

pub use schedule::{Bye, Format, PlayerId, Schedule, ScheduleSettings, ScheduledGame};

#[cfg(test)]
mod tests;
