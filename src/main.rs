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
use argus::app::cbf::CbfVerb;
use argus::app::epd::EpdVerb;
use argus::app::options::{ClientArgs, DemoArgs, RefereeArgs, ResumeArgs, WatchArgs};
use argus::app::swiss::SwissVerb;
use argus::app::tournament::args::{TournamentArgs, match_as_tournament};
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
    /// Referee a match between the clients on two serial ports or over TCP.
    ///
    /// Client A (on PORT_A) has White in game 1; colours alternate unless
    /// --no-swap. An endpoint is a serial port, tcp://HOST:PORT (argus
    /// connects) or tcp-listen://ADDR:PORT (argus listens); --listen
    /// ADDR:PORT takes both clients on one address, seated in sign-on order
    /// or by --name-a/--name-b (docs/network.md). One referee per log
    /// directory at a time.
    ///
    /// A match is a tournament of two: it runs as `argus tournament A B`,
    /// --games N being its --games-per-pairing N, said in a match's words,
    /// with the tournament's options (programs argus runs: engine:NAME=CMD,
    /// mover:NAME; tcp:NAME players; --boards N plays N games at once, each
    /// with its own instance of each engine; --sprt stops it when it
    /// decides) and its files: DIR/tournament.journal (or --journal FILE)
    /// and each game's journal and transcript in DIR/game-NNN/
    /// (docs/tournament.md).
    ///
    /// Exit status: 0 when the match was played out (every game has a
    /// result), 3 when it ended early (Ctrl-C, SIGTERM, SIGHUP or the board's
    /// terminal hanging up, or the supervisor ended it; the journal is
    /// kept), 2 for bad usage or a start that failed (a port or file that
    /// cannot be opened, an output that cannot be written, a log directory
    /// in use), 1 when something failed during the match (a file that could
    /// not be written: what it lost is in the log).
    #[command(after_help = "Examples:\n  \
        argus referee /dev/ttyUSB0 /dev/ttyUSB1 --tc 40/7200:3600 --games 6 --pgn match.pgn \
        --http 192.168.1.5:8080\n  \
        argus referee engine:new=./sf-new engine:base=./sf-base --boards 8 --games 2000 \
        --tc 10+0.1 --openings book.epd --sprt \"elo0=0 elo1=5\" --results-json results.json \
        --headless\n  \
        argus referee --listen 192.168.1.5:7000 --allow 192.168.1.0/24 --tc 5m+3 --games 4 \
        --password s3cret")]
    Referee(Box<RefereeArgs>),
    /// Carry on with a match or tournament whose referee stopped (crash,
    /// power cut, Ctrl-C).
    ///
    /// Replays the event's journal (DIR/tournament.journal, or the
    /// --journal it was given) and each game's in progress, brings the
    /// players back in line (reset, inform, one execute per move, respond
    /// to the side on move) and goes on, appending to the same journals.
    /// The time while no referee ran is charged to nobody. Its players and
    /// settings are recorded; a match's players may be on other endpoints
    /// now (PORT_A PORT_B, or --listen ADDR:PORT). It writes to the files
    /// the event was started with (PGN, live PGN, log directory, feed)
    /// unless flags say otherwise (a standby resuming from a watcher's
    /// copy writes its own); a match that is already over is said to be,
    /// with its result, and its players are sent `disconnect`. A match's
    /// one journal written by argus before 0.2.0 is refused, naming the
    /// version that resumes it. Exit status as for `referee`.
    #[command(after_help = "Examples:\n  \
        argus resume argus-logs/tournament.journal\n  \
        argus resume standby/tournament.journal /dev/ttyS0 /dev/ttyS1 --pgn standby.pgn\n  \
        argus resume argus-logs/tournament.journal --headless --http 0.0.0.0:8080")]
    Resume(Box<ResumeArgs>),
    /// Referee a tournament: a round robin, gauntlet, Swiss or knockout of
    /// programs on serial cables, over TCP and run by argus itself, several
    /// boards at once.
    ///
    /// Each game is played on a free board as soon as both its players are
    /// free and signed on; a missing player holds up only its own games.
    /// Every game has its journal and transcript in DIR/game-NNN/, the
    /// tournament its journal in DIR/tournament.journal; the standings and
    /// crosstable follow every game (--report), every game goes to one PGN
    /// with Round tags ROUND.BOARD (docs/tournament.md). Exit status: 0 when
    /// every game is decided, 3 when stopped early (Ctrl-C, SIGTERM,
    /// SIGHUP), 2 for bad usage or a start that failed, 1 when something
    /// failed on the way.
    #[command(after_help = "Examples:\n  \
        argus tournament /dev/ttyUSB0 /dev/ttyUSB1 tcp:Fritz tcp:Genius --listen 192.168.1.5:7000 \
        --cycles 2 --boards 2 --tc 40/7200:3600 --pgn club.pgn --report club.txt\n  \
        argus tournament engine:sf=stockfish engine:gnu=gnuchessx mover:rnd --protocol gnu:xboard \
        --engine-option sf:Threads=2 --ponder sf --tc 60+1 --headless --rating-interval 10 \
        --feed 0.0.0.0:7070\n  \
        argus tournament engine:sf=stockfish engine:gnu=gnuchessx COM3 COM4 mover:m --protocol \
        gnu:xboard --schedule swiss --rounds 4 --rating sf:3500 --rating gnu:2400 --bye COM4:2 \
        --trf event.trf --book sf:gm2001.bin --tc 5m+3 --tc sf:1m+1")]
    Tournament(Box<TournamentArgs>),
    /// Follow a match from its journal, read-only: the live board, or
    /// (--headless) one line per move and result.
    ///
    /// SOURCE is a journal file (followed as it grows; a tournament's
    /// DIR/tournament.journal follows the whole tournament) or
    /// tcp://HOST:PORT (a referee's or a tournament's --feed); --copy keeps
    /// a copy of a fed journal (of a tournament's: a directory of them) for
    /// a standby machine to take over with `argus resume`. Exit status: 0
    /// when the match (the tournament) is over, 1 if the journal is damaged
    /// (or is not a journal) or the feed fails for good, 2 for bad usage.
    #[command(after_help = "Examples:\n  \
        argus watch argus-logs/journal.log\n  \
        argus watch tcp://10.0.0.5:7070 --copy standby-journal.log --pgn standby.pgn\n  \
        argus watch tcp://referee.local:7070 --headless --http 192.168.1.7:8080")]
    Watch(WatchArgs),
    /// Run a client on a serial port or over TCP: the built-in mover, or
    /// (--engine) a bridge to a UCI or XBoard chess engine.
    ///
    /// It signs on, answers the referee's records as the EPD spec says and
    /// exits 0 when the referee sends `disconnect` (docs/engines.md for the
    /// engine bridge). Over TCP (tcp://HOST:PORT) it connects again by
    /// itself after a drop, with backoff, and signs on again; a connection
    /// that cannot be made is said (connection refused, no route, timed
    /// out) with how long it has been tried. Exit status: 0 after the
    /// referee's disconnect, 1 when the referee refuses it (a disconnect
    /// before anything else: a wrong or missing --password, a seat taken, a
    /// name it does not expect) or the link or engine fails for good, 2 for
    /// bad usage or a port or engine that cannot be had.
    #[command(after_help = "Examples:\n  \
        argus client /dev/ttyUSB0 --name \"Random 1\" --mover random --seed 7\n  \
        argus client /dev/ttyS0 --engine stockfish --option \"Skill Level=3\" --movetime 500 \
        --depth 12 --book gm2001.bin --book-depth 16 --seed 5 --ponder\n  \
        argus client tcp://192.168.1.5:7000 --engine \"gnuchess -x\" --protocol xboard --password s3cret")]
    Client(ClientArgs),
    /// Watch two built-in clients play, refereed live (no hardware needed).
    ///
    /// Two pseudo-terminal cables are made inside the process; a random and
    /// a greedy mover play game after game until you quit.
    #[command(after_help = "Examples:\n  \
        argus demo\n  \
        argus demo --headless --games 2 --pgn demo.pgn\n  \
        argus demo --http 127.0.0.1:8080")]
    Demo(DemoArgs),
    /// EPD Kit: check, normalise and purge EPD files; analyse, mate-search
    /// and solve them with an engine; report on test-suite results.
    ///
    /// Every verb reads EPD records one line at a time (blank lines are
    /// skipped; lines over 4096 bytes are reported and skipped) and reports
    /// each bad record as FILE:LINE: reason. Exit status: 0 when every
    /// record was good, 1 when some record was bad, 2 when a file could not
    /// be read or written (or is not an EPD file: its first records all
    /// bad); 130 when an engine verb was interrupted (--resume goes on). A
    /// FILE of "-" means standard input or output.
    #[command(after_help = "Examples:
  \
        argus epd check openings.epd
  \
        argus epd solve wac.epd wac-sf.epd --engine stockfish --movetime 1000
  \
        argus epd report wac-sf.epd wac-gnu.epd --html report.html")]
    Epd {
        #[command(subcommand)]
        verb: EpdVerb,
    },
    /// Simulate a serial line between two ports or TCP endpoints: paced at
    /// the baud rate, with optional bit errors, lost bytes and a pulled
    /// cable.
    ///
    /// Put it between the inner ends of two virtual cables (socat) to
    /// rehearse a match over a slow or noisy line, or between a program and
    /// a referee that talk over TCP (tcp-listen:// accepts one connection
    /// and is opened first, tcp:// connects). Seeded: the same seed gives
    /// the same damage.
    #[command(after_help = "Examples:\n  \
        argus wire /tmp/a-inner /tmp/b-inner --baud 9600\n  \
        argus wire /tmp/a-inner /tmp/b-inner --baud 2400 --bit-error-rate 0.0001 --seed 3 \
        --cut-at 30 --cut-for 10 --log wire.log\n  \
        argus wire tcp-listen://127.0.0.1:7001 tcp://127.0.0.1:7000 --baud 2400 --drop-rate 0.001")]
    Wire(WireArgs),
    /// ChessBase 1993 bases (CBF games + CBI index): to PGN, from PGN,
    /// checked.
    ///
    /// Every bad game is reported with its number and why; the other games
    /// are still read and written. Exit status: 0 when every game was good,
    /// 1 when some game was bad (or, for from-pgn, lost a part the format
    /// cannot hold), 2 when a file cannot be read or written, or is not a
    /// base (docs/chessbase.md).
    #[command(after_help = "Examples:\n  \
        argus cbf to-pgn GAMES.CBI games.pgn\n  \
        argus cbf from-pgn match.pgn MATCH\n  \
        argus cbf check GAMES.CBI")]
    Cbf {
        #[command(subcommand)]
        verb: CbfVerb,
    },
    /// Pair a Swiss event by FIDE's Dutch rules from a TRF file, or check
    /// an event's pairings round by round.
    ///
    /// The standalone pairing engine (the interface of JaVaFo and
    /// bbpPairings): TRF-2026 and TRF(x) in, the next round's boards out.
    /// Exit status: 0 when paired or every round agrees, 1 when no pairing
    /// exists or a round differs, 2 when the file cannot be read or used
    /// (docs/swiss.md).
    #[command(after_help = "Examples:\n  \
        argus swiss pair event.trf\n  \
        argus swiss check event.trf")]
    Swiss {
        #[command(subcommand)]
        verb: SwissVerb,
    },
    /// List this machine's serial ports (USB adapters with their ids).
    #[command(after_help = "Examples:\n  \
        argus ports\n  \
        argus ports | grep -i ftdi")]
    Ports,
}

fn main() -> ExitCode {
    // A match between programs argus runs (or tcp:NAME players) is a
    // tournament of two.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let (cli, tournament) = match match_as_tournament(&args) {
        Some(tournament) => (parse_match(&args, &tournament), "argus referee"),
        None => (Cli::parse_from(args), "argus tournament"),
    };
    let code = match cli.command {
        // Rewritten above as the tournament of two it is: only its help
        // is parsed as `referee`.
        Cmd::Referee(_) => app::exit_status(
            "argus referee",
            Err(app::Failure::usage(
                "this command line was not read as a match (argus tournament --as-match)",
            )),
        ),
        Cmd::Resume(args) => app::exit_status("argus resume", app::resume::run(*args)),
        Cmd::Tournament(args) => app::exit_status(tournament, app::tournament::run(*args)),
        Cmd::Watch(args) => app::exit_status("argus watch", app::watch::run(args)),
        Cmd::Client(args) => app::exit_status("argus client", app::client::run(args)),
        Cmd::Demo(args) => app::exit_status("argus demo", app::demo::run(args)),
        Cmd::Wire(args) => app::exit_status("argus wire", app::wire::run(args)),
        Cmd::Epd { verb } => app::exit_status("argus epd", app::epd::run(verb)),
        Cmd::Cbf { verb } => app::exit_status("argus cbf", app::cbf::run(verb)),
        Cmd::Swiss { verb } => app::exit_status(verb.command(), app::swiss::run(verb)),
        Cmd::Ports => app::exit_status("argus ports", app::ports::run()),
    };
    ExitCode::from(code)
}

/// `argus referee` between programs, parsed as the tournament it runs
/// (`tournament`); its help is the referee's, and an error is said as the
/// referee's user typed the command (`argus referee`, not the tournament
/// it became). Exits on an error or help, as clap does.
fn parse_match(args: &[std::ffi::OsString], tournament: &[String]) -> Cli {
    use clap::error::ErrorKind;
    match Cli::try_parse_from(tournament) {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            Cli::parse_from(args)
        }
        Err(e) => {
            let text = e
                .render()
                .to_string()
                .replace("argus tournament --as-match", "argus referee")
                .replace("argus tournament", "argus referee");
            eprint!("{text}");
            std::process::exit(e.exit_code())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every command's help (subcommands' too) ends with two or three
    /// examples, each a whole `argus ...` command line.
    #[test]
    fn every_help_ends_with_examples() {
        fn walk(cmd: &clap::Command, path: &str, checked: &mut usize) {
            for sub in cmd.get_subcommands() {
                let path = format!("{path} {}", sub.get_name());
                if sub.has_subcommands() {
                    walk(sub, &path, checked);
                    continue;
                }
                let help = sub
                    .get_after_help()
                    .map(|h| h.to_string())
                    .unwrap_or_default();
                let examples: Vec<&str> = help
                    .strip_prefix("Examples:\n")
                    .unwrap_or_else(|| panic!("{path}: no examples: {help:?}"))
                    .lines()
                    .collect();
                assert!((2..=3).contains(&examples.len()), "{path}: {examples:?}");
                for e in examples {
                    assert!(e.starts_with(&format!("  {path}")), "{path}: {e:?}");
                    // The command line parses (up to a pipe or redirection).
                    let words = shell_words(e.split(['|', '<', '>']).next().unwrap_or(""));
                    // A match between programs parses as the tournament it is.
                    let words = match_as_tournament(&words).unwrap_or(words);
                    if let Err(err) = Cli::try_parse_from(&words) {
                        panic!("{path}: {e:?} does not parse: {err}");
                    }
                }
                *checked += 1;
            }
        }
        /// Words split at blanks, "..." kept together.
        fn shell_words(line: &str) -> Vec<String> {
            let mut words = Vec::new();
            for (i, part) in line.split('"').enumerate() {
                if i % 2 == 1 {
                    words.push(part.to_string());
                } else {
                    words.extend(part.split_whitespace().map(str::to_string));
                }
            }
            words
        }
        let cli = Cli::command();
        cli.clone().debug_assert();
        let mut checked = 0;
        walk(&cli, "argus", &mut checked);
        assert!(checked >= 10, "{checked}");
    }

    /// `argus referee`'s help offers every option a match takes: each of
    /// the tournament's options but those a match refuses
    /// (`TOURNAMENT_ONLY`), and nothing the tournament it becomes does not
    /// read.
    #[test]
    fn the_referee_offers_every_option_a_match_takes() {
        use argus::app::tournament::args::TOURNAMENT_ONLY;
        fn longs(command: &str, hidden: bool) -> Vec<String> {
            let cli = Cli::command();
            let sub = cli.find_subcommand(command).unwrap();
            sub.get_arguments()
                .filter(|a| hidden || !a.is_hide_set())
                .filter_map(|a| a.get_long().map(str::to_string))
                .collect()
        }
        let referee = longs("referee", false);
        let tournament = longs("tournament", false);
        for o in &tournament {
            let refused = TOURNAMENT_ONLY.contains(&o.as_str());
            // --games N is the match's --games-per-pairing N.
            let as_games = o == "games-per-pairing";
            assert!(
                refused || as_games || referee.contains(o),
                "--{o}: a match takes it but argus referee --help does not offer it"
            );
            assert!(!(refused && referee.contains(o)), "--{o}");
        }
        let read = longs("tournament", true);
        for o in &referee {
            assert!(
                read.contains(o),
                "--{o}: argus referee offers it but its tournament does not read it"
            );
        }
    }

    /// The options a tournament refuses (they are for a match) are not in
    /// its help; the referee's help offers them.
    #[test]
    fn the_tournament_offers_no_match_only_option() {
        fn options(command: &str) -> Vec<String> {
            let mut cli = Cli::command();
            let sub = cli.find_subcommand_mut(command).unwrap();
            let help = sub.render_long_help().to_string();
            help.split(|c: char| c.is_whitespace() || c == ',' || c == '/')
                .filter(|w| w.starts_with("--"))
                .map(|w| w.trim_end_matches(['.', ';', ')']).to_string())
                .collect()
        }
        let match_only = ["--games", "--name-a", "--name-b", "--round"];
        let tournament = options("tournament");
        assert!(tournament.iter().any(|o| o == "--games-per-pairing"));
        for o in match_only {
            assert!(!tournament.iter().any(|t| t == o), "{o}: {tournament:?}");
        }
        assert!(tournament.iter().any(|o| o == "--no-swap"));
        let referee = options("referee");
        for o in match_only {
            assert!(referee.iter().any(|t| t == o), "{o}: {referee:?}");
        }
    }
}
