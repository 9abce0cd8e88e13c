//! The arguments of `argus client`: the reference client's own flags and
//! the engine bridge's options (docs/engines.md), also those of `argus epd`.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::LineOptions;
use crate::client::MoverKind;
use crate::client::engine::bridge::BookPlay;
use crate::client::engine::log::LogCreateError;
use crate::client::engine::process::CommandError;
use crate::client::engine::time::LimitError as TimeLimitError;
use crate::client::engine::{CommandLine, EngineLog, EngineSettings, Protocol, SearchLimits};

/// `argus client PORT [options]`.
#[derive(Debug, Clone, Args)]
pub struct ClientArgs {
    /// Where the referee is: a serial port wired to it, tcp://HOST:PORT
    /// (connects, and connects again with backoff after a drop), or
    /// tcp-listen://ADDR:PORT (waits for the referee to connect).
    pub port: String,
    /// The referee's shared secret (its --password), sent on every TCP
    /// connection before the sign-on.
    #[arg(long, value_name = "SECRET")]
    pub password: Option<String>,
    #[command(flatten)]
    pub line: LineOptions,
    /// Say every record: each reply sent, each respond repeated (without
    /// it, only what matters: connections, games, the end).
    #[arg(short, long)]
    pub verbose: bool,
    /// Name sent with tcsi at sign-on [default: the engine's own name with
    /// --engine, else the mover, seed and port, e.g. "argus-random-1@ttyUSB0"].
    #[arg(long)]
    pub name: Option<String>,
    /// How to choose moves.
    #[arg(long, value_enum, default_value_t = MoverKind::Random)]
    pub mover: MoverKind,
    /// Seed for the mover, and for the choice among a --book's moves: the
    /// same seed plays the same moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Milliseconds to think before each reply.
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// Do not claim draws (threefold repetition, fifty moves) when due:
    /// the built-in mover's, and those argus claims for a UCI engine
    /// (--engine), which has no way to claim them itself.
    #[arg(long)]
    pub no_claims: bool,
    /// Send lines without the `Acrc` line check. By default every line
    /// ends with a CRC-32 that argus verifies, so a bit flipped on the
    /// cable cannot change a move unnoticed; referees that do not know the
    /// check ignore it (a private EPD opcode).
    #[arg(long)]
    pub no_line_check: bool,
    #[command(flatten)]
    pub engine: EngineOptions,
}

/// The engine bridge options of `argus client` (docs/engines.md).
#[derive(Debug, Clone, Args)]
pub struct EngineOptions {
    /// Play with this chess engine instead of the built-in mover: its
    /// command line, "CMD [ARGS]" (quotes group words).
    #[arg(long, value_name = "CMD")]
    pub engine: Option<String>,
    /// The engine's protocol.
    #[arg(long, value_enum, default_value_t = Protocol::Uci, requires = "engine")]
    pub protocol: Protocol,
    /// An engine option, NAME=VALUE (UCI setoption, XBoard option); may be
    /// repeated.
    #[arg(long = "option", value_name = "NAME=VALUE", requires = "engine")]
    pub options: Vec<String>,
    /// The engine thinks at most this many milliseconds per move (UCI
    /// `go movetime`, XBoard `st` in whole seconds, rounded up). In a timed
    /// game it goes with the clocks and the engine stops at whichever
    /// comes first [default without a time control and without --depth or
    /// --nodes: 1000].
    #[arg(long, value_name = "MS", requires = "engine")]
    pub movetime: Option<u64>,
    /// The engine searches at most to this depth, in plies (UCI `go
    /// depth`, XBoard `sd`); with the clocks in a timed game.
    #[arg(long, value_name = "N", requires = "engine")]
    pub depth: Option<u32>,
    /// The engine searches at most this many nodes per move (UCI `go
    /// nodes`; XBoard engines take no node limit); with the clocks in a
    /// timed game.
    #[arg(long, value_name = "N", requires = "engine")]
    pub nodes: Option<u64>,
    /// Milliseconds an engine may run over its own time before it counts
    /// as hung (then it is restarted).
    #[arg(long, value_name = "MS", default_value_t = ENGINE_MARGIN_MS, requires = "engine")]
    pub margin_ms: u64,
    /// Write the engine traffic, with times, to this file.
    #[arg(long, value_name = "FILE", requires = "engine")]
    pub log: Option<PathBuf>,
    /// Play the opening from this Polyglot book (.bin): while it has a
    /// move for the position, argus plays one (by the entries' weights,
    /// chosen with --seed) without asking the engine.
    #[arg(long, value_name = "FILE", requires = "engine")]
    pub book: Option<PathBuf>,
    /// The book plays only the game's first N plies, counted from the
    /// game's start (an opening's moves count) [default: as long as it has
    /// a move].
    #[arg(long, value_name = "N", requires = "book")]
    pub book_depth: Option<u32>,
    /// The engine thinks on the opponent's time: a UCI engine ponders on
    /// the reply it predicts (`go ponder`, then `ponderhit` or `stop`;
    /// the `Ponder` option set), an XBoard engine is told `hard`. The
    /// ponder-hit rate is said at the end.
    #[arg(long, requires = "engine")]
    pub ponder: bool,
}

impl EngineOptions {
    /// The book to play from (`--book`, read and checked now), choosing
    /// with `seed`; `None` without --book.
    pub fn book(&self, seed: u64) -> Result<Option<BookPlay>, BookError> {
        let Some(file) = &self.book else {
            return Ok(None);
        };
        book_play(file, self.book_depth, seed, "--book-depth").map(Some)
    }

    /// The bridge's settings, checked; `None` without --engine.
    pub fn settings(&self) -> Result<Option<EngineSettings>, EngineFlagError> {
        let Some(cmd) = &self.engine else {
            return Ok(None);
        };
        let command = CommandLine::parse(cmd).map_err(EngineFlagError::Command)?;
        let options = self
            .options
            .iter()
            .map(|o| match o.split_once('=') {
                Some((n, v)) if !n.trim().is_empty() => Ok((n.trim().to_string(), v.to_string())),
                _ => Err(EngineFlagError::Option(o.clone())),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let limits = SearchLimits {
            movetime_ms: self.movetime,
            depth: self.depth,
            nodes: self.nodes,
        };
        limits
            .check(self.protocol)
            .map_err(EngineFlagError::Limits)?;
        let log = match &self.log {
            Some(p) => EngineLog::create(p).map_err(EngineFlagError::Log)?,
            None => EngineLog::none(),
        };
        Ok(Some(EngineSettings {
            command,
            protocol: self.protocol,
            options,
            limits,
            margin: Duration::from_millis(self.margin_ms),
            depth_wait: DEPTH_WAIT,
            log,
            ponder: self.ponder,
        }))
    }
}

/// Why the engine bridge's flags cannot be used: the flag that is wrong
/// and what is wrong with it.
#[derive(Debug, thiserror::Error)]
pub enum EngineFlagError {
    #[error("--engine: {0}")]
    Command(CommandError),
    /// `--option` without `NAME=`.
    #[error("--option {0:?}: expected NAME=VALUE")]
    Option(String),
    #[error("--movetime/--depth/--nodes: {0}")]
    Limits(TimeLimitError),
    /// `--log FILE` cannot be created.
    #[error("{0}")]
    Log(LogCreateError),
}

error_words!(EngineFlagError);

/// Why an engine's book cannot be played from: its depth flag (named)
/// given as 0, or a book file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("{0} must be at least 1 (a book that plays no move: leave out the book)")]
    ZeroDepth(String),
    #[error(transparent)]
    Book(#[from] crate::app::book::BadBook),
}

error_words!(BookError);

/// The book at `file` read and checked, to play `depth` plies (`flag`
/// names the depth's flag in the error for 0).
pub fn book_play(
    file: &std::path::Path,
    depth: Option<u32>,
    seed: u64,
    flag: &str,
) -> Result<BookPlay, BookError> {
    if depth == Some(0) {
        return Err(BookError::ZeroDepth(flag.to_string()));
    }
    Ok(BookPlay {
        book: std::sync::Arc::new(crate::app::book::load(file)?),
        file: file.display().to_string(),
        depth: depth.map(|d| d as usize),
        seed,
    })
}

/// How long an engine may run over its own time before it counts as hung
/// (`--margin-ms`; a tournament's engines have it too).
pub const ENGINE_MARGIN_MS: u64 = 3000;

/// How long a depth search without a clock may take before the margin.
pub const DEPTH_WAIT: Duration = Duration::from_secs(600);
