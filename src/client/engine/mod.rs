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
    pub what: Trouble,
    /// The engine's last output lines, oldest first.
    pub recent: Vec<String>,
}

/// What went wrong with an engine, one variant per kind: the text says
/// what the engine did (or did not do) and when.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Trouble {
    /// Its process could not be started (the system's refusal, in words:
    /// [`process::EngineError`] holds an `io::Error`, which cannot be
    /// cloned).
    #[error("{0}")]
    NotStarted(String),
    /// A line could not be written to it.
    #[error("{0}")]
    Write(String),
    /// It did not answer `awaited` (`uciok`, `readyok`, `pong 3`) in time.
    #[error("the engine hung: no {awaited} in time")]
    Hung { awaited: String },
    /// It did not answer a search (`bestmove`, a move) within `wait`.
    #[error(
        "the engine hung: no {awaited} within {:.1} s (its time plus the margin)",
        wait.as_secs_f64()
    )]
    HungSearch {
        awaited: &'static str,
        wait: Duration,
    },
    /// Its output ended (`exit`: how it exited, if known) between
    /// requests.
    #[error("{exit}")]
    Gone { exit: String },
    /// Its output ended while argus waited for `awaited`.
    #[error("{exit} while argus waited for {awaited}")]
    GoneAwaiting { exit: String, awaited: String },
    /// Its output ended during the handshake.
    #[error("{exit} during the handshake")]
    GoneInHandshake { exit: String },
    /// `--option NAME=VALUE` names an option it did not declare.
    #[error("the engine has no option {name:?} ({})", declares(declared))]
    NoOption { name: String, declared: Vec<String> },
    /// It cannot play the game's variant.
    #[error("{0}")]
    CannotPlay(Refusal),
    /// It sent a move that does not read or is not legal.
    #[error("the engine sent an illegal move: {0}")]
    IllegalMove(notation::MoveTextError),
    /// It said (XBoard `Illegal move`, `Error`) that it refused `what`
    /// argus gave it (`the game`, `the position`).
    #[error("the engine refused {what}: {said}")]
    Refused { what: &'static str, said: String },
    /// The search asks for what the protocol cannot say.
    #[error("{0}")]
    Limit(time::LimitError),
    /// It was stopped after a fault and not started again.
    #[error("the engine is not running")]
    NotRunning,
    /// A search was waited for that was not asked for.
    #[error("the search ended without an answer")]
    NoAnswer,
}

/// The options an engine declared, for [`Trouble::NoOption`].
fn declares(declared: &[String]) -> String {
    if declared.is_empty() {
        "it declares none".into()
    } else {
        format!("it declares: {}", declared.join(", "))
    }
}

/// Why an engine cannot play a variant ([`Driver::refuses`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// A UCI engine without the `UCI_Chess960` option.
    #[error(
        "the engine cannot play Chess960: it declares no {} option",
        uci::CHESS960_OPTION
    )]
    NoChess960Option,
    /// An XBoard engine whose `feature variants` lacks `fischerandom`.
    #[error(
        "the engine cannot play Chess960: its feature variants does not list {} ({})",
        xboard::FISCHERANDOM,
        listed_variants(listed)
    )]
    NoFischerandom { listed: Vec<String> },
    /// An XBoard engine without `setboard`: `edit` cannot give a Chess960
    /// position its castling rights.
    #[error(
        "the engine cannot play Chess960: it has no feature setboard=1, and edit \
         cannot give a Chess960 position its castling rights"
    )]
    NoSetboard,
}

/// The variants an XBoard engine listed, for [`Refusal::NoFischerandom`].
fn listed_variants(listed: &[String]) -> String {
    if listed.is_empty() {
        "none listed, so normal only".into()
    } else {
        listed.join(",")
    }
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

impl Trouble {
    /// Whether trying again can help.
    pub fn kind(&self) -> FaultKind {
        match self {
            Trouble::NotStarted(_) => FaultKind::NotStarted,
            Trouble::Hung { .. } | Trouble::HungSearch { .. } => FaultKind::Hung,
            _ => FaultKind::Failed,
        }
    }
}

impl Fault {
    pub fn new(what: Trouble, recent: Vec<String>) -> Fault {
        Fault { what, recent }
    }

    /// A fault before the engine said anything that matters to it.
    pub fn bare(what: Trouble) -> Fault {
        Fault::new(what, Vec::new())
    }

    /// Whether trying again can help.
    pub fn kind(&self) -> FaultKind {
        self.what.kind()
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.what)?;
        if self.recent.is_empty() {
            f.write_str("; the engine said nothing")
        } else {
            write!(f, "; its last output: {}", self.recent.join(" | "))
        }
    }
}

impl std::error::Error for Fault {}

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
            Next::Timeout => Fault::new(
                Trouble::HungSearch {
                    awaited,
                    wait: job.wait,
                },
                recent,
            ),
            Next::Gone(exit) => Fault::new(
                Trouble::GoneAwaiting {
                    exit,
                    awaited: format!("its {awaited}"),
                },
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
            return Some(Err(Fault::new(
                Trouble::Write(e.to_string()),
                proc.recent(),
            )));
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
                return Err(Fault::bare(Trouble::NoAnswer));
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
    fn refuses(&self, variant: Variant) -> Option<Refusal>;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether a start is tried again is decided on the kind: only a
    /// program that could not be started at all is not.
    #[test]
    fn kinds_follow_the_trouble() {
        let kind = |t: Trouble| Fault::bare(t).kind();
        assert_eq!(
            kind(Trouble::NotStarted("no program".into())),
            FaultKind::NotStarted
        );
        assert_eq!(
            kind(Trouble::Hung {
                awaited: "uciok".into()
            }),
            FaultKind::Hung
        );
        assert_eq!(
            kind(Trouble::HungSearch {
                awaited: "bestmove",
                wait: Duration::from_millis(1500)
            }),
            FaultKind::Hung
        );
        for failed in [
            Trouble::Gone {
                exit: "the engine exited (exit status: 3)".into(),
            },
            Trouble::Write("cannot write to the engine: broken pipe".into()),
            Trouble::NotRunning,
            Trouble::CannotPlay(Refusal::NoSetboard),
        ] {
            assert_eq!(kind(failed), FaultKind::Failed);
        }
    }

    #[test]
    fn faults_say_what_and_the_last_output() {
        let hung = Fault::new(
            Trouble::HungSearch {
                awaited: "bestmove",
                wait: Duration::from_millis(1500),
            },
            vec!["info depth 3".into(), "info depth 4".into()],
        );
        assert_eq!(
            hung.to_string(),
            "the engine hung: no bestmove within 1.5 s (its time plus the margin); \
             its last output: info depth 3 | info depth 4"
        );
        let option = Fault::bare(Trouble::NoOption {
            name: "Skil Level".into(),
            declared: Vec::new(),
        });
        assert_eq!(
            option.to_string(),
            "the engine has no option \"Skil Level\" (it declares none); the engine said nothing"
        );
        let variants = Refusal::NoFischerandom {
            listed: vec!["normal".into(), "suicide".into()],
        };
        assert_eq!(
            variants.to_string(),
            "the engine cannot play Chess960: its feature variants does not list \
             fischerandom (normal,suicide)"
        );
    }
}
