//! The options of an event run on the director, match or tournament:
//! how argus runs the programs it starts (`engine:` and `mover:`
//! players) and how many games it plays at once. `argus referee` and
//! `argus tournament` flatten both groups, so each option is declared,
//! documented and read in one place.

use std::path::PathBuf;

use clap::Args;

/// The engine players' options: protocol, UCI/XBoard options, books,
/// search limits, pondering and draw claims.
#[derive(Debug, Clone, Default, Args)]
pub struct ProgramOptions {
    /// An option for engine player NAME: NAME:OPT=VALUE (UCI setoption,
    /// XBoard option); may be repeated.
    #[arg(long = "engine-option", value_name = "NAME:OPT=VALUE")]
    pub engine_options: Vec<String>,
    /// Engine player NAME's protocol: NAME:uci or NAME:xboard [default: uci].
    #[arg(long = "protocol", value_name = "NAME:PROTOCOL")]
    pub protocols: Vec<String>,
    /// Engine player NAME plays the opening from this Polyglot book (.bin):
    /// NAME:FILE. While the book has a move, argus plays one (by the
    /// entries' weights) without asking the engine.
    #[arg(long = "book", value_name = "NAME:FILE")]
    pub books: Vec<String>,
    /// Engine player NAME's book plays only the game's first N plies (the
    /// opening's moves included): NAME:N [default: as long as it has a
    /// move].
    #[arg(long = "book-depth", value_name = "NAME:N")]
    pub book_depths: Vec<String>,
    /// Engine player NAME thinks at most MS milliseconds per move: NAME:MS
    /// (UCI `go movetime`, XBoard `st` in whole seconds, rounded up); a
    /// bare MS is every engine player's without one of its own. In a timed
    /// game it goes with the clocks and the engine stops at whichever
    /// comes first [default without a time control and without a depth or
    /// node limit: 1000].
    #[arg(long = "movetime", value_name = "[NAME:]MS")]
    pub movetimes: Vec<String>,
    /// Engine player NAME searches at most N plies: NAME:N (UCI `go
    /// depth`, XBoard `sd`); with the clocks in a timed game.
    #[arg(long = "depth", value_name = "NAME:N")]
    pub depths: Vec<String>,
    /// Engine player NAME searches at most N nodes per move: NAME:N (UCI
    /// `go nodes`; XBoard engines take no node limit); with the clocks in a
    /// timed game.
    #[arg(long = "nodes", value_name = "NAME:N")]
    pub nodes: Vec<String>,
    /// Engine player NAME thinks on the opponent's time (a UCI engine
    /// ponders on the reply it predicts: `go ponder`, `ponderhit`; an
    /// XBoard engine is told `hard`); may be repeated for several engines.
    #[arg(long = "ponder", value_name = "NAME")]
    pub ponder: Vec<String>,
    /// Do not claim draws for the UCI engine players. UCI has no draw
    /// claim; by default argus claims threefold repetition and fifty moves
    /// for them, as cutechess-cli and fastchess end such games.
    #[arg(long)]
    pub no_claims: bool,
}

/// Games at once, what a decided SPRT does to them, absent players and
/// the event's report.
#[derive(Debug, Clone, Default, Args)]
pub struct EventOptions {
    /// Games at once [default: as many as a round has: a program plays one
    /// game at a time]. With K > 1 a player that can be more than one
    /// program plays up to K games at once: an engine or mover is started
    /// K times, a tcp:NAME player may connect K times (a serial port stays
    /// one program).
    #[arg(long, value_name = "K")]
    pub boards: Option<u32>,
    /// What happens to the games running when --sprt decides: finish (they
    /// are played out and count) or abort (ended `*`, counting for
    /// nothing) [default: finish].
    #[arg(long, value_name = "WHAT", value_parser = ["finish", "abort"])]
    pub sprt_running: Option<String>,
    /// A player away this many seconds (from the start, or since its link
    /// was lost) forfeits every game it has not started [default: its
    /// games wait for it].
    #[arg(long, value_name = "SECS")]
    pub absent_forfeit: Option<f64>,
    /// Write the event's report (standings, crosstable, games, player
    /// statistics) to FILE as text and beside it as Markdown (FILE.md),
    /// rewritten after every game.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
}
