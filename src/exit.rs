//! How a command ended, and the one mapping from that to its exit status.
//!
//! Every command's `run` gives an [`Exit`]: how it ended
//! ([`Completion`]), or why it failed ([`Failure`]). [`status`] is the one
//! place that turns it into the process's exit status and says a failure
//! on standard error; `main.rs` calls it for every command (ripgrep's
//! `run -> Result<ExitCode>` is the model). The statuses are the ones the
//! docs promise:
//!
//! | status | meaning |
//! |---|---|
//! | 0 | the command did its work ([`Completion::Normal`]) |
//! | 1 | it did its work but some records, games or rounds were bad, each said on the way ([`Completion::SomeBad`]); or something failed on the way ([`Failure::Failed`]) |
//! | 2 | bad usage, or a start that failed: a port, file, engine or log directory that cannot be had ([`Failure::Usage`]) |
//! | 3 | a match or tournament ended before it was played out ([`Completion::EndedEarly`]) |
//! | 130 | a long run was interrupted and can be resumed ([`Completion::Interrupted`]) |

use std::fmt;

/// Exit status: the command did its work.
pub const EXIT_OK: u8 = 0;
/// Exit status: something failed on the way (a link, the journal, a
/// file), or some records, games or rounds were bad.
pub const EXIT_FAILED: u8 = 1;
/// Exit status: bad usage, or a port, file or engine that cannot be opened.
pub const EXIT_USAGE: u8 = 2;
/// Exit status of `referee`, `tournament` and `resume`: the session ended
/// before the event was played out (a signal, or the supervisor ended it).
pub const EXIT_ENDED_EARLY: u8 = 3;
/// Exit status of a long run that was interrupted (SIGINT's customary
/// 128 + 2) and can be resumed.
pub const EXIT_INTERRUPTED: u8 = 130;

/// The log target of fatal errors: they go to the log file, and to stderr
/// once, by [`status`] (the stderr logger leaves them out).
pub const FATAL_TARGET: &str = "argus::fatal";

/// Why a command failed; each kind has its exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Bad usage, or a start that failed (a port, file, log directory or
    /// engine that cannot be had), or a file the command exists to read or
    /// write that cannot be: exit status [`EXIT_USAGE`].
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
    /// client disconnected by its referee, every record good).
    Normal,
    /// It did its work, but some records, games or rounds were bad (or
    /// differed, or lost a part), each said on the way: exit status
    /// [`EXIT_FAILED`].
    SomeBad,
    /// A match ended before every game was played: a signal or the
    /// supervisor ended it; the message says which. Exit status
    /// [`EXIT_ENDED_EARLY`].
    EndedEarly(String),
    /// A long run (the EPD Kit's analysis) was interrupted; what it did
    /// is kept and `--resume` goes on. Exit status [`EXIT_INTERRUPTED`].
    Interrupted,
}

impl Completion {
    /// [`Completion::Normal`] when nothing was bad, else
    /// [`Completion::SomeBad`].
    pub fn bad_if(any_bad: bool) -> Completion {
        if any_bad {
            Completion::SomeBad
        } else {
            Completion::Normal
        }
    }
}

/// What a command's `run` gives.
pub type Exit = Result<Completion, Failure>;

/// The exit status of `outcome`, without saying anything.
pub fn code(outcome: &Exit) -> u8 {
    match outcome {
        Ok(Completion::Normal) => EXIT_OK,
        Ok(Completion::SomeBad) => EXIT_FAILED,
        Ok(Completion::EndedEarly(_)) => EXIT_ENDED_EARLY,
        Ok(Completion::Interrupted) => EXIT_INTERRUPTED,
        Err(Failure::Usage(_)) => EXIT_USAGE,
        Err(Failure::Failed(_)) => EXIT_FAILED,
    }
}

/// The one mapping from a command's outcome to its exit status. A failure
/// is said once on stderr, prefixed with `command` ("argus referee"), and
/// in the log file.
pub fn status(command: &str, outcome: Exit) -> u8 {
    if let Err(failure) = &outcome {
        log::error!(target: FATAL_TARGET, "{failure}");
        eprintln!("{command}: {failure}");
    }
    code(&outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_outcome_has_the_status_the_docs_promise() {
        let cases: [(Exit, u8); 6] = [
            (Ok(Completion::Normal), 0),
            (Ok(Completion::SomeBad), 1),
            (Ok(Completion::EndedEarly("SIGTERM".into())), 3),
            (Ok(Completion::Interrupted), 130),
            (Err(Failure::usage("no such port")), 2),
            (Err(Failure::failed("the journal")), 1),
        ];
        for (outcome, want) in cases {
            assert_eq!(code(&outcome), want, "{outcome:?}");
        }
        assert_eq!(Completion::bad_if(false), Completion::Normal);
        assert_eq!(Completion::bad_if(true), Completion::SomeBad);
    }
}
