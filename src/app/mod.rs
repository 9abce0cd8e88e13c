//! Event loops that wire ports, the referee core, records and the display.
//! Everything here is an edge: the decisions are the core's.
//!
//! Each command is a `run(args) -> Exit`: how it ended, or why it
//! failed ([`Failure`]); [`exit_status`] turns that into the exit status.

use std::fmt;

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
/// once, by [`exit_status`] (the stderr logger leaves them out).
pub const FATAL_TARGET: &str = "argus::fatal";

/// Why a command failed; each kind has its exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Bad usage, or a start that failed (a port, file, log directory or
    /// engine that cannot be had): exit status [`EXIT_USAGE`].
    Usage(String),
    /// Something failed on the way (a link, the journal, a file, the
    /// terminal): exit status [`EXIT_FAILED`].
    Failed(String),
}

impl Failure {
    /// A [`Failure::Usage`] saying `why`.
    pub fn usage(why: impl fmt::Display) -> Failure {
        Failure::Usage(why.to_string())
    }

    /// A [`Failure::Failed`] saying `why`.
    pub fn failed(why: impl fmt::Display) -> Failure {
        Failure::Failed(why.to_string())
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Usage(why) | Failure::Failed(why) => f.write_str(why),
        }
    }
}

/// How a command that did not fail ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// It did its work (a match played out, a watched match over, a
    /// client disconnected by its referee).
    Normal,
    /// A match ended before every game was played: a signal or the
    /// supervisor ended it; the message says which. Exit status
    /// [`EXIT_ENDED_EARLY`].
    EndedEarly(String),
}

/// What a command's `run` gives.
pub type Exit = Result<Completion, Failure>;

/// The one mapping from a command's outcome to its exit status. A failure
/// is said once on stderr, prefixed with `command` ("argus referee"), and
/// in the log file.
pub fn exit_status(command: &str, outcome: Exit) -> u8 {
    match outcome {
        Ok(Completion::Normal) => EXIT_OK,
        Ok(Completion::EndedEarly(_)) => EXIT_ENDED_EARLY,
        Err(failure) => {
            log::error!(target: FATAL_TARGET, "{failure}");
            eprintln!("{command}: {failure}");
            match failure {
                Failure::Usage(_) => EXIT_USAGE,
                Failure::Failed(_) => EXIT_FAILED,
            }
        }
    }
}

pub mod audience;
pub mod book;
pub mod cbf;
pub mod client;
pub mod demo;
pub mod epd;
pub mod links;
pub mod logging;
pub mod options;
pub mod ports;
pub mod referee;
pub mod resume;
pub mod session;
pub mod signals;
pub mod start;
pub mod stdout;
pub mod swiss;
pub mod syzygy;
pub mod tail;
pub mod tournament;
pub mod waiting;
pub mod wall;
pub mod watch;
pub mod wire;
pub mod writers;
