//! A search in progress, read on the caller's thread: the engine was given
//! the game and its `go` ([`super::Driver::begin`]), and what it says is
//! taken as it comes ([`super::Driver::poll`]) by a caller that waits on
//! the engine's output beside its other inputs (the bridge's client loop
//! waits on the referee's lines and the engine's at once). No thread of
//! the bridge's own sits between the engine's pipe reader and the reply.
//!
//! [`Pending`] is what a driver keeps between the lines of one search:
//! when its `go` went out (the engine's own time starts there,
//! [`super::process::EngineProcess::since`]), how long it may take, what
//! it reports while thinking, and what its answer holds so far.

use std::time::Instant;

use shakmaty::{Chess, Move};

use super::analysis::{Analysis, Collector};
use super::process::{EngineProcess, Next, STOP_WAIT};
use super::{Answer, Job};

/// Lines one [`super::Driver::poll`] takes at most: an engine that never
/// stops talking cannot hold its caller (the referee's lines are read
/// between two polls).
pub const POLL_LINES: usize = 256;

/// One search the engine is on.
#[derive(Debug, Clone)]
pub struct Pending {
    /// When its `go` (or `ponderhit`, or the move it pondered on) went
    /// out: where the engine's own time starts.
    pub asked: Option<Instant>,
    /// When the driver began to wait for its answer.
    pub started: Instant,
    /// When the engine counts as hung (its time plus the margin).
    pub deadline: Instant,
    /// Its thinking lines, the last kept.
    pub thinking: Collector,
    /// The answer as far as it is known (a ponder's outcome, a draw
    /// offer heard before the move).
    pub answer: Answer,
}

impl Pending {
    /// The search for `job` whose `go` went out last on `proc`, its
    /// moves read in XBoard's notation or UCI's.
    pub fn new(proc: &EngineProcess, job: &Job<'_>, xboard: bool, answer: Answer) -> Pending {
        let started = Instant::now();
        Pending {
            asked: proc.sent_at(),
            started,
            deadline: started + job.wait,
            thinking: Collector::new(job.position.clone(), xboard),
            answer,
        }
    }

    /// What the engine said since, without waiting: a line, its end, or
    /// [`Next::Timeout`] once the deadline is past; `None` while nothing
    /// came and time is left.
    pub fn next(&self, proc: &mut EngineProcess) -> Option<Next> {
        if Instant::now() >= self.deadline {
            return Some(Next::Timeout);
        }
        proc.try_line()
    }

    /// What the engine reported while it thought, finished with its move
    /// `best`.
    pub fn thought(&mut self, best: Move) -> Analysis {
        let done = std::mem::replace(&mut self.thinking, Collector::new(Chess::default(), false));
        done.finish(Some(best), self.started.elapsed())
    }

    /// The wait for the answer to a stop sent now: [`STOP_WAIT`], within
    /// the search's own deadline.
    pub fn stopped(&mut self) {
        self.deadline = self.deadline.min(Instant::now() + STOP_WAIT);
    }
}
