//! Event loops that wire ports, the referee core, records and the display.
//! Everything here is an edge: the decisions are the core's.

/// Exit status of every session command: it ended normally.
pub const EXIT_OK: u8 = 0;
/// Exit status: something failed on the way (a link, the journal, a file).
pub const EXIT_FAILED: u8 = 1;
/// Exit status: bad usage, or a port, file or engine that cannot be opened.
pub const EXIT_USAGE: u8 = 2;
/// Exit status of `referee` and `resume`: the session ended before the
/// match was played out (a signal, or the supervisor ended it).
pub const EXIT_ENDED_EARLY: u8 = 3;

/// The log target of fatal errors: they go to the log file, and to stderr
/// once, by [`fatal`] (the stderr logger leaves them out).
pub const FATAL_TARGET: &str = "argus::fatal";

/// Says `why` once on stderr, prefixed with `command` ("argus referee"),
/// and in the log file; returns `status`.
pub fn fatal(command: &str, why: &str, status: u8) -> u8 {
    log::error!(target: FATAL_TARGET, "{why}");
    eprintln!("{command}: {why}");
    status
}

pub mod cbf;
pub mod client;
pub mod demo;
pub mod epd;
pub mod logging;
pub mod options;
pub mod output;
pub mod ports;
pub mod referee;
pub mod resume;
pub mod session;
pub mod signals;
pub mod start;
pub mod watch;
pub mod wire;
