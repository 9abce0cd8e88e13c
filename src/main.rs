//! The `argus` command: parses the command line and hands over to the
//! library. No logic lives here.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use argus::app;

/// mimalloc: parsing an EPD record is bound by its ~20 small allocations,
/// and mimalloc makes them about twice as fast as the system allocator
/// (docs/performance.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use argus::app::epd::EpdVerb;
use argus::app::options::{ClientArgs, DemoArgs, RefereeArgs, ResumeArgs, WatchArgs};
use argus::app::wire::WireArgs;

/// argus: a referee for computer chess played across serial cables.
///
/// Two chess programs, each on its own PC, are wired by null-modem cables
/// to the machine running argus. Argus signs them on, tells each when to
/// move, checks every move, keeps both clocks, relays moves, ends the game
/// by the rules, writes PGN, logs every byte and shows the live board. The
/// protocol is EPD's referee protocol (docs/protocol.md).
#[derive(Parser)]
#[command(version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Referee a match between the clients on two serial ports.
    ///
    /// Client A (on PORT_A) has White in game 1; colours alternate unless
    /// --no-swap. Exit status: 0 when the session ended normally, 2 for bad
    /// usage or a port that cannot be opened, 1 for anything else.
    #[command(after_help = "Examples:\n  \
        argus referee /dev/ttyUSB0 /dev/ttyUSB1 --tc 40/7200:3600 --games 6 --pgn match.pgn\n  \
        argus referee COM1 COM2 --headless --tc 10+0.1 --games 2000 --openings book.epd \
        --sprt \"elo0=0 elo1=5\" --results-json results.json\n  \
        argus referee /dev/ttyS0 /dev/ttyS1 --config event.toml")]
    Referee(Box<RefereeArgs>),
    /// Carry on with a match whose referee stopped (crash, power cut).
    ///
    /// Replays the journal into a new referee, checks it reaches the state
    /// the journal recorded, brings both clients back in line (reset,
    /// inform, one execute per move, respond to the side on move) and goes
    /// on with the match, appending to the same journal. The time while no
    /// referee ran is charged to nobody. Exit status as for `referee`.
    Resume(Box<ResumeArgs>),
    /// Follow a match from its journal, read-only: the live board, or
    /// (--headless) one line per move and result.
    ///
    /// SOURCE is a journal file (followed as it grows) or tcp://HOST:PORT
    /// (a referee's --feed); --copy keeps a copy of a fed journal for a
    /// standby machine to take over with `argus resume`. Exit status: 0
    /// when the match is over, 1 if the journal is damaged or the feed
    /// fails for good, 2 for bad usage.
    Watch(WatchArgs),
    /// Run a client on a serial port: the built-in mover, or (--engine) a
    /// bridge to a UCI or XBoard chess engine.
    ///
    /// It signs on, answers the referee's records as the EPD spec says and
    /// exits 0 when the referee sends `disconnect` (docs/engines.md for the
    /// engine bridge).
    Client(ClientArgs),
    /// Watch two built-in clients play, refereed live (no hardware needed).
    ///
    /// Two pseudo-terminal cables are made inside the process; a random and
    /// a greedy mover play game after game until you quit.
    Demo(DemoArgs),
    /// EPD Kit: check, normalise and purge EPD files.
    ///
    /// Every verb reads EPD records one line at a time (blank lines are
    /// skipped; lines over 4096 bytes are reported and skipped) and reports
    /// each bad record as FILE:LINE: reason. Exit status: 0 when every
    /// record was good, 1 when some record was bad, 2 when a file could not
    /// be read or written. A FILE of "-" means standard input or output.
    Epd {
        #[command(subcommand)]
        verb: EpdVerb,
    },
    /// Simulate a serial line between two ports: paced at the baud rate,
    /// with optional bit errors, lost bytes and a pulled cable.
    ///
    /// Put it between the inner ends of two virtual cables (socat) to
    /// rehearse a match over a slow or noisy line. Seeded: the same seed
    /// gives the same damage.
    Wire(WireArgs),
    /// List this machine's serial ports (USB adapters with their ids).
    Ports,
}

fn main() -> ExitCode {
    let code = match Cli::parse().command {
        Cmd::Referee(args) => app::referee::main(*args),
        Cmd::Resume(args) => app::resume::main(*args),
        Cmd::Watch(args) => app::watch::main(args),
        Cmd::Client(args) => app::client::main(args),
        Cmd::Demo(args) => app::demo::main(args),
        Cmd::Epd { verb } => app::epd::main(verb),
        Cmd::Ports => app::ports::main(),
        Cmd::Wire(args) => app::wire::main(args),
    };
    ExitCode::from(code)
}
