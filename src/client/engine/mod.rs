//! The engine bridge: `argus client PORT --engine "CMD [ARGS]"` plays with
//! a UCI or XBoard (CECP) chess engine running as a child process.
//!
//! * [`bridge`]: [`Bridge`] turns referee records into engine requests and
//!   the engine's answers into reply records; it restarts a faulty engine.
//! * [`uci`], [`xboard`]: the two protocols behind one [`Driver`] trait.
//! * [`process`]: the child process, its output lines, its end.
//! * [`notation`]: SAN <-> UCI / XBoard moves. [`time`]: clocks for engines.
//! * [`log`]: `--log FILE`, the engine traffic with times.
//! * [`analysis`]: fixed searches and the engine's thinking (UCI `info`,
//!   XBoard `post` lines) for `argus epd analyse | mate | solve`.
//!
//! The game itself is followed by [`crate::client::track`], shared with
//! the reference client.
//!
//! See docs/engines.md for the user's view.

pub mod analysis;
pub mod bridge;
pub mod log;
pub mod notation;
pub mod ponder;
pub mod process;
pub mod search;
pub mod time;
pub mod uci;
pub mod xboard;

use std::fmt;
use std::time::{Duration, Instant};

use crossbeam_channel::Receiver;
use shakmaty::{Chess, Move};

use crate::clock::TimeControl;
use crate::game::Variant;
pub use bridge::Bridge;
pub use log::EngineLog;
pub use process::CommandLine;
use process::{EngineProcess, Heard, Next};
use search::Pending;
pub use time::{Limit, SearchLimits};

/// The protocol the engine speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Protocol {
    /// The Universal Chess Interface (`uci`, `position`, `go`, `bestmove`).
    Uci,
    /// XBoard / WinBoard (CECP, `protover 2`).
    Xboard,
}

/// How long an engine may take to answer the handshake (`uciok`, the
/// XBoard features, `readyok`, `pong`).
pub const HANDSHAKE: Duration = Duration::from_secs(10);

/// Everything needed to start (and restart) an engine.
#[derive(Debug, Clone)]
pub struct EngineSettings {
    pub command: CommandLine,
    pub protocol: Protocol,
    /// `--option NAME=VALUE`, in order: UCI `setoption`, XBoard `option`.
    pub options: Vec<(String, String)>,
    /// The engine's own search limits (in an untimed game, its whole
    /// search: [`SearchLimits::untimed`]).
    pub limits: SearchLimits,
    /// Added to the engine's own time before it counts as hung.
    pub margin: Duration,
    /// The wait for a depth search without a clock, before the margin.
    pub depth_wait: Duration,
    pub log: EngineLog,
    /// `--ponder`: the engine thinks on the opponent's time (UCI `go
    /// ponder` on its predicted reply, [`ponder`]; XBoard `hard`).
    pub ponder: bool,
}

/// One request for a move: the whole game (so the engine sees
/// repetitions), the time control and the search limit.
#[derive(Debug, Clone, Copy)]
pub struct Job<'a> {
    /// The position the game started from.
    pub start: &'a Chess,
    /// Every move played since, the opponent's last included.
    pub moves: &'a [Move],
    /// The position after those moves, where the engine is to move.
    pub position: &'a Chess,
    /// The control of the engine's side (its own with time odds): what
    /// XBoard's `level` says.
    pub time_control: &'a TimeControl,
    /// The clocks as the referee gave them when it asked for the move.
    pub limit: Limit,
    /// When the referee's request arrived: the time since is off the
    /// engine's own clock when it is told its time ([`Job::limit_now`]).
    pub asked_at: std::time::Instant,
    /// How long to wait for the move before the engine counts as hung.
    pub wait: Duration,
    /// The opponent offered a draw with its last move.
    pub draw_offered: bool,
}

impl Job<'_> {
    /// The limit as the engine is to be told it now: its own clock less
    /// the time since the request arrived (the bridge's own moment, a
    /// restart), which the referee's clock has counted already.
    pub fn limit_now(&self) -> Limit {
        let mut limit = self.limit;
        if let Limit::Clock(t, _) = &mut limit {
            let spent = u64::try_from(self.asked_at.elapsed().as_millis()).unwrap_or(u64::MAX);
            let left = t
                .remaining_ms
                .get_mut(shakmaty::Position::turn(self.position));
            *left = left.saturating_sub(spent);
        }
        limit
    }
}

/// What the engine decided.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answer {
    /// Its move (legal in the job's position), if it made one.
    pub mv: Option<Move>,
    /// It offers a draw (sent with its move).
    pub offer_draw: bool,
    /// It accepted the opponent's offer.
    pub accept_draw: bool,
    /// It resigned.
    pub resign: bool,
    /// It claimed a draw (XBoard `1/2-1/2 {...}`).
    pub claim_draw: bool,
    /// What it reported while thinking (score, pv, depth), if anything:
    /// the reply carries it as `ce`, `pv`, `acd`.
    pub thinking: Option<analysis::Analysis>,
    /// The engine pondered before this move: whether the opponent played
    /// the move it pondered on (`None`: no ponder).
    pub ponder_hit: Option<bool>,
    /// The bridge played it from its opening book (the engine was not
    /// asked): the reply carries `Abook`.
    pub book: bool,
    /// The engine's own time for the move, as the bridge measured it from
    /// its `go` out to its move read from the pipe
    /// ([`process::EngineProcess::since`]): the reply carries it as
    /// `Asearch` (milliseconds, rounded up).
    pub searched: Option<std::time::Duration>,
}

/// Why the engine could not be used: what happened and its last output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub what: String,
    /// The engine's last output lines, oldest first.
    pub recent: Vec<String>,
    /// Whether trying again can help.
    pub kind: FaultKind,
}

/// What kind of fault an engine's is: whether trying again can help.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// Its process could not be started at all (no such program, not
    /// executable): trying again cannot help.
    NotStarted,
    /// It did not answer in time: it may be merely slow (a machine under
    /// load), so trying again may help.
    Hung,
    /// Anything else: it exited, closed its pipe, or refused what it was
    /// given (an option it does not have, the game's rules).
    Failed,
}

impl Fault {
    pub fn new(what: impl Into<String>, recent: Vec<String>) -> Fault {
        Fault {
            what: what.into(),
            recent,
            kind: FaultKind::Failed,
        }
    }

    /// The engine's process could not be started.
    pub fn not_started(what: impl Into<String>) -> Fault {
        Fault {
            kind: FaultKind::NotStarted,
            ..Fault::new(what, Vec::new())
        }
    }

    /// The engine did not answer in time.
    pub fn hung(what: impl Into<String>, recent: Vec<String>) -> Fault {
        Fault {
            kind: FaultKind::Hung,
            ..Fault::new(what, recent)
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.what)?;
        if self.recent.is_empty() {
            f.write_str("; the engine said nothing")
        } else {
            write!(f, "; its last output: {}", self.recent.join(" | "))
        }
    }
}

/// An engine behind its protocol.
pub trait Driver: Send {
    /// The engine's own name (`id name`, `feature myname`), if it gave one.
    fn name(&self) -> Option<&str>;
    /// A new game begins.
    fn new_game(&mut self) -> Result<(), Fault>;
    /// Asks for a move without waiting for it: the engine is given the
    /// game and its `go`, and its answer is read by [`Driver::poll`].
    /// `Some` when it answered without a search (an XBoard engine that
    /// resigned between moves).
    fn begin(&mut self, job: &Job<'_>) -> Result<Option<Answer>, Fault>;
    /// One line the engine said while it searches for `job`: the
    /// search's answer once it is complete.
    fn hear(
        &mut self,
        job: &Job<'_>,
        search: &mut Pending,
        line: String,
    ) -> Option<Result<Answer, Fault>>;
    /// What a search waits for, in a fault's words (UCI `bestmove`).
    fn awaited(&self) -> &'static str;
    /// The search in progress, set by [`Driver::begin`].
    fn search(&mut self) -> &mut Option<Pending>;
    /// The engine's process.
    fn process(&mut self) -> &mut EngineProcess;
    /// What stops a search (UCI `stop`, XBoard `?`).
    fn stop_command(&self) -> &'static str;

    /// Takes what the engine said since, without waiting (at most
    /// [`search::POLL_LINES`] lines): the answer to the search in
    /// progress once it is in, or its fault (the engine died, or hung
    /// past the job's wait). `None` while it thinks, or with no search.
    fn poll(&mut self, job: &Job<'_>) -> Option<Result<Answer, Fault>> {
        let mut search = self.search().take()?;
        for _ in 0..search::POLL_LINES {
            let Some(next) = search.next(self.process()) else {
                break;
            };
            if let Some(done) = self.take(job, &mut search, next) {
                return Some(done);
            }
        }
        *self.search() = Some(search);
        None
    }

    /// One thing heard in a search: a line for [`Driver::hear`]; the
    /// engine's end or its time up, the search's fault.
    fn take(
        &mut self,
        job: &Job<'_>,
        search: &mut Pending,
        next: Next,
    ) -> Option<Result<Answer, Fault>> {
        let awaited = self.awaited();
        let recent = self.process().recent();
        Some(Err(match next {
            Next::Line(line) => return self.hear(job, search, line),
            Next::Timeout => Fault::hung(
                format!(
                    "the engine hung: no {awaited} within {:.1} s (its time plus the margin)",
                    job.wait.as_secs_f64()
                ),
                recent,
            ),
            Next::Gone(why) => Fault::new(
                format!("{why} while argus waited for its {awaited}"),
                recent,
            ),
        }))
    }

    /// When the search in progress counts as hung: [`Driver::poll`] is
    /// due then even if the engine says nothing.
    fn deadline(&mut self) -> Option<Instant> {
        self.search().as_ref().map(|s| s.deadline)
    }

    /// Where the engine's output arrives: ready when [`Driver::poll`] has
    /// something to take.
    fn output(&mut self) -> &Receiver<Heard> {
        self.process().output()
    }

    /// Stops the search in progress (its game is over): the stop command,
    /// then its answer, waited for [`process::STOP_WAIT`] at most.
    fn stop(&mut self, job: &Job<'_>) -> Option<Result<Answer, Fault>> {
        let mut search = self.search().take()?;
        let command = self.stop_command();
        let proc = self.process();
        proc.log_note("the game is over: stopping the search");
        if let Err(e) = proc.send(command) {
            return Some(Err(Fault::new(e.to_string(), proc.recent())));
        }
        search.stopped();
        loop {
            let next = self.process().next_line(search.deadline);
            if let Some(done) = self.take(job, &mut search, next) {
                return Some(done);
            }
        }
    }

    /// Asks for a move and waits for it on this thread.
    fn play(&mut self, job: &Job<'_>) -> Result<Answer, Fault> {
        if let Some(answer) = self.begin(job)? {
            return Ok(answer);
        }
        loop {
            let Some(deadline) = self.deadline() else {
                return Err(Fault::new("the search ended without an answer", Vec::new()));
            };
            let output = self.output().clone();
            let mut wait = crossbeam_channel::Select::new();
            wait.recv(&output);
            // Ready or not: the poll reads what came, or finds the
            // deadline past.
            let _ = wait.ready_deadline(deadline);
            if let Some(done) = self.poll(job) {
                return done;
            }
        }
    }

    /// The game ended with `result` (`1-0`, `0-1`, `1/2-1/2`, `*`).
    fn game_over(&mut self, result: &str);
    /// The game is over or left: a ponder on it is stopped (`--ponder`).
    fn stop_pondering(&mut self) {}
    /// Searches `position` on its own (no game history) with `search`,
    /// waiting `wait` at most for the engine's move (see [`analysis`]).
    fn analyse(
        &mut self,
        position: &Chess,
        search: &analysis::Search,
        wait: Duration,
    ) -> Result<analysis::Analysis, Fault>;
    /// Why the engine cannot play `variant`, if it cannot (Chess960: a UCI
    /// engine without `UCI_Chess960`, an XBoard engine whose `feature
    /// variants` lacks `fischerandom`).
    fn refuses(&self, variant: Variant) -> Option<String>;
    /// Says goodbye and stops the process.
    fn quit(self: Box<Self>);
}

/// Starts the engine and completes the handshake.
pub fn start(settings: &EngineSettings) -> Result<Box<dyn Driver>, Fault> {
    match settings.protocol {
        Protocol::Uci => Ok(Box::new(uci::Uci::start(settings)?)),
        Protocol::Xboard => Ok(Box::new(xboard::Xboard::start(settings)?)),
    }
}
