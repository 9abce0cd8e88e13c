//! The arguments of `argus referee`, `resume`, `watch` and `demo`: the
//! shared option groups flattened, and each command's own flags.

use std::path::PathBuf;

use clap::Args;

use super::{
    EventOptions, LineOptions, MatchOptions, OutputOptions, ProgramOptions, ViewOptions, WebOptions,
};
use crate::app::links::EndpointArgs;

/// `argus referee PORT_A PORT_B [options]`.
#[derive(Debug, Clone, Args)]
pub struct RefereeArgs {
    #[command(flatten)]
    pub ends: EndpointArgs,
    #[command(flatten)]
    pub line: LineOptions,
    #[command(flatten)]
    pub matches: MatchOptions,
    #[command(flatten)]
    pub programs: ProgramOptions,
    #[command(flatten)]
    pub event: EventOptions,
    #[command(flatten)]
    pub output: OutputOptions,
    /// Read settings from this TOML file (tables [line], [match], [output]
    /// with the flags' names, `-` as `_`); command-line flags win.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub view: ViewOptions,
    #[command(flatten)]
    pub web: WebOptions,
    /// The journal: every input, synced to disk before it is acted on, so
    /// that `argus resume` can carry on after a crash [default:
    /// journal.log in the log directory]. A journal holds one match: an
    /// existing one is never written into by a new match. A match of
    /// programs (engine:, mover:, tcp:NAME players) keeps its journals in
    /// the log directory (tournament.journal, game-NNN/journal.log), or
    /// with --journal FILE its journal at FILE and each game's beside it
    /// (game-NNN/ in FILE's directory, one match's journals per
    /// directory).
    #[arg(long, value_name = "FILE")]
    pub journal: Option<PathBuf>,
}

/// `argus resume JOURNAL PORT_A PORT_B [options]`.
#[derive(Debug, Clone, Args)]
pub struct ResumeArgs {
    /// The journal of the interrupted match (appended to from here on).
    pub journal: PathBuf,
    #[command(flatten)]
    pub ends: EndpointArgs,
    /// Line settings: those of the journal unless given here.
    #[command(flatten)]
    pub line: LineOptions,
    /// Outputs: those the journal recorded (the same files as before)
    /// unless given here.
    #[command(flatten)]
    pub output: OutputOptions,
    #[command(flatten)]
    pub view: ViewOptions,
    #[command(flatten)]
    pub web: WebOptions,
}

/// `argus watch SOURCE [options]`.
#[derive(Debug, Clone, Args)]
pub struct WatchArgs {
    /// A journal file (a match's, or a tournament's tournament.journal),
    /// or `tcp://HOST:PORT` for a referee's or a tournament's `--feed`.
    pub source: String,
    /// With a `tcp://` source: keep a copy of the journal in this file (a
    /// match's feed), or of every journal in this directory, laid out as
    /// the tournament's log directory (a tournament's feed), so that this
    /// machine can take over with `argus resume PATH ...`.
    #[arg(long, value_name = "PATH")]
    pub copy: Option<PathBuf>,
    /// Append every game that ends while watching to this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    #[command(flatten)]
    pub view: ViewOptions,
    #[command(flatten)]
    pub web: WebOptions,
}

/// `argus demo [options]`.
#[derive(Debug, Clone, Args)]
pub struct DemoArgs {
    /// Number of games (default: until you quit).
    #[arg(long)]
    pub games: Option<u32>,
    /// Time control (a bare number is seconds; see `argus referee --help`):
    /// `3m+2` is 3 min + 2 s, `60+1` 60 s + 1 s, `0:30+1` 30 s + 1 s.
    #[arg(long, default_value = "3m+2")]
    pub tc: String,
    /// Seed for the two movers.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Milliseconds each client thinks per move.
    #[arg(long, default_value_t = 400)]
    pub think_ms: u64,
    /// Append the games to this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    #[command(flatten)]
    pub view: ViewOptions,
    #[command(flatten)]
    pub web: WebOptions,
}
