//! The referee's command-line options, the TOML config file that can hold
//! the same settings, and how the two are merged into the core's
//! [`Settings`] (command-line flags win over the file, the file over the
//! defaults).

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use clap::Args;
use serde::Deserialize;
use shakmaty::Chess;

use crate::app::links::EndpointArgs;
use crate::app::syzygy::Syzygy;
use crate::client::MoverKind;
use crate::client::engine::{CommandLine, EngineLog, EngineSettings, Protocol, Untimed};
use crate::clock::{TimeControl, parse_friendly};
use crate::epd::Record;
use crate::game::{self, Game};
use crate::link::{Flow, LineEnd, Parity, PortSettings};
use crate::record::openings::{Opening, load_openings};
use crate::referee::settings::parse_policy;
use crate::referee::{ByClient, ClientFault, FalseClaim, IllegalMove, Policy, Settings, Start};

/// The command line's parser of a [`Policy`]: its choices (with their
/// help) come from the policy's one list, [`Policy::ALL`].
fn policy_parser<P: Policy + Send + Sync>() -> impl clap::builder::TypedValueParser<Value = P> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = P::ALL
        .iter()
        .map(|p| PossibleValue::new(p.name()).help(p.help()));
    PossibleValuesParser::new(values).try_map(|s| parse_policy::<P>(&s))
}

/// Serial line options shared by `referee`, `client` and `demo`.
#[derive(Debug, Clone, Default, Args, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineOptions {
    /// Baud rate [default: 9600].
    #[arg(long)]
    pub baud: Option<u32>,
    /// Data bits, 5-8 [default: 8].
    #[arg(long)]
    pub data_bits: Option<u8>,
    /// Parity [default: none].
    #[arg(long, value_enum)]
    pub parity: Option<Parity>,
    /// Stop bits, 1 or 2 [default: 1].
    #[arg(long)]
    pub stop_bits: Option<u8>,
    /// Flow control [default: none].
    #[arg(long, value_enum)]
    pub flow: Option<Flow>,
    /// Line end argus sends [default: crlf]; it accepts LF, CR, CRLF and NUL.
    #[arg(long, value_enum)]
    pub line_end: Option<LineEnd>,
}

impl LineOptions {
    /// `self` where set, else `file`.
    pub fn or(self, file: LineOptions) -> LineOptions {
        LineOptions {
            baud: self.baud.or(file.baud),
            data_bits: self.data_bits.or(file.data_bits),
            parity: self.parity.or(file.parity),
            stop_bits: self.stop_bits.or(file.stop_bits),
            flow: self.flow.or(file.flow),
            line_end: self.line_end.or(file.line_end),
        }
    }

    /// The port settings, checked.
    pub fn port_settings(&self) -> Result<PortSettings, String> {
        let d = PortSettings::default();
        let s = PortSettings {
            baud: self.baud.unwrap_or(d.baud),
            data_bits: self.data_bits.unwrap_or(d.data_bits),
            parity: self.parity.unwrap_or(d.parity),
            stop_bits: self.stop_bits.unwrap_or(d.stop_bits),
            flow: self.flow.unwrap_or(d.flow),
            line_end: self.line_end.unwrap_or(d.line_end),
        };
        if s.baud == 0 {
            return Err("--baud must be above 0".into());
        }
        if !(5..=8).contains(&s.data_bits) {
            return Err(format!("--data-bits must be 5 to 8, not {}", s.data_bits));
        }
        if !(1..=2).contains(&s.stop_bits) {
            return Err(format!("--stop-bits must be 1 or 2, not {}", s.stop_bits));
        }
        Ok(s)
    }
}

/// The match and protocol options of `argus referee` (also the keys of the
/// `--config` TOML file, with `-` written as `_`).
#[derive(Debug, Clone, Default, Args, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchOptions {
    /// Time control. A bare number is seconds, as in PGN TimeControl,
    /// cutechess-cli and fastchess; fractions keep milliseconds; `M:SS` or
    /// a unit (`s`, `m`, `h`) for other units. Examples: `60+1` (60 s + 1 s),
    /// `10+0.1`, `5` (5 s), `3m+2` (3 min + 2 s), `0:30+1`, `1:30+1`,
    /// `40/7200:3600` (40 moves in 2 h, then 1 h), `40/2h:30m`, `*3m`
    /// (sandclock), `-` (none) [default: -].
    #[arg(long = "tc", value_name = "TIMECONTROL")]
    pub tc: Option<String>,
    /// Number of games [default: 1].
    #[arg(long)]
    pub games: Option<u32>,
    /// Keep colours: A has White in every game (default: alternate).
    #[arg(long)]
    #[serde(default)]
    pub no_swap: bool,
    /// Openings: an EPD file (one position per line), a PGN file (the
    /// moves of each game), a ChessBase base (.cbi, its .cbf beside it: the
    /// main line of each game) or FBK book (.fbk: each line); each opening
    /// is played once with each colour.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Use at most this many plies of each PGN, CBI or FBK opening
    /// [default: 16].
    #[arg(long, value_name = "N")]
    pub opening_plies: Option<usize>,
    /// Shuffle the openings with this seed (default: file order).
    #[arg(long, value_name = "SEED")]
    pub shuffle: Option<u64>,
    /// PGN Event tag [default: "argus match"].
    #[arg(long)]
    pub event: Option<String>,
    /// PGN Site tag [default: "?"].
    #[arg(long)]
    pub site: Option<String>,
    /// PGN Round tag (default: the game number).
    #[arg(long)]
    pub round: Option<String>,
    /// Name of client A (default: its tcsi name, else the port).
    #[arg(long)]
    pub name_a: Option<String>,
    /// Name of client B (default: its tcsi name, else the port).
    #[arg(long)]
    pub name_b: Option<String>,
    /// Seconds to wait after `refcom reset;` [default: 5].
    #[arg(long, value_name = "SECS")]
    pub reset_delay: Option<f64>,
    /// Seconds to wait after `refcom conclude;` [default: 5].
    #[arg(long, value_name = "SECS")]
    pub conclude_delay: Option<f64>,
    /// What a false draw claim costs [default: forfeit].
    #[arg(long, value_parser = policy_parser::<FalseClaim>())]
    pub false_claim: Option<FalseClaim>,
    /// What an illegal or unparsable move costs [default: forfeit].
    #[arg(long, value_parser = policy_parser::<IllegalMove>())]
    pub illegal: Option<IllegalMove>,
    /// What a client's `refreq fault;` does [default: pause with the board,
    /// continue with --headless, where nobody could resume].
    #[arg(long, value_parser = policy_parser::<ClientFault>())]
    pub client_fault: Option<ClientFault>,
    /// Send the respond record again when the client on move has been
    /// silent this many seconds (0: never). Use it on noisy lines, where a
    /// lost record would stall an untimed game [default: 0].
    #[arg(long, value_name = "SECS")]
    pub resend_after: Option<f64>,
    /// Times a turn the position is resent to a client that echoes it
    /// wrong (or, with --illegal retry, sends a bad move), before that
    /// counts as a fault [default: 2].
    #[arg(long, value_name = "N")]
    pub max_resends: Option<u32>,
    /// Stop the match by the sequential probability ratio test on the game
    /// pairs (1-2, 3-4, ...): `elo0=0 elo1=5 alpha=0.05 beta=0.05
    /// [model=normalized|logistic]` (fastchess's and fishtest's test; alpha
    /// and beta default to 0.05, the model to normalized).
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// Adjudicate a game as a draw once this many full moves have been
    /// played, opening moves included (Termination "adjudication").
    #[arg(long, value_name = "N")]
    pub max_moves: Option<u32>,
    /// Adjudicate a draw when, from full move M on, both programs' scores
    /// (`ce` in their replies) have stayed within S centipawns of zero for
    /// N consecutive moves each; a capture or pawn move starts the count
    /// again: `movenumber=M movecount=N score=S` (cutechess-cli's -draw).
    #[arg(long, value_name = "SPEC")]
    pub draw_adjudication: Option<String>,
    /// Adjudicate a loss when a program's score has been S centipawns or
    /// more below zero for N consecutive moves of its own (with twosided,
    /// and the opponent's S or more above zero): `movecount=N score=S
    /// [twosided]` (cutechess-cli's -resign).
    #[arg(long, value_name = "SPEC")]
    pub resign_adjudication: Option<String>,
    /// Adjudicate a game once its position is in these Syzygy endgame
    /// tables (a directory, or several joined by ':'): won, lost or drawn
    /// with best play, a win the 50-move rule spoils counting as a draw.
    #[arg(long, value_name = "DIR")]
    pub syzygy: Option<String>,
}

impl MatchOptions {
    /// `self` where set, else `f`.
    pub fn or(self, f: MatchOptions) -> MatchOptions {
        MatchOptions {
            tc: self.tc.or(f.tc),
            games: self.games.or(f.games),
            no_swap: self.no_swap || f.no_swap,
            openings: self.openings.or(f.openings),
            opening_plies: self.opening_plies.or(f.opening_plies),
            shuffle: self.shuffle.or(f.shuffle),
            event: self.event.or(f.event),
            site: self.site.or(f.site),
            round: self.round.or(f.round),
            name_a: self.name_a.or(f.name_a),
            name_b: self.name_b.or(f.name_b),
            reset_delay: self.reset_delay.or(f.reset_delay),
            conclude_delay: self.conclude_delay.or(f.conclude_delay),
            false_claim: self.false_claim.or(f.false_claim),
            illegal: self.illegal.or(f.illegal),
            client_fault: self.client_fault.or(f.client_fault),
            resend_after: self.resend_after.or(f.resend_after),
            max_resends: self.max_resends.or(f.max_resends),
            sprt: self.sprt.or(f.sprt),
            max_moves: self.max_moves.or(f.max_moves),
            draw_adjudication: self.draw_adjudication.or(f.draw_adjudication),
            resign_adjudication: self.resign_adjudication.or(f.resign_adjudication),
            syzygy: self.syzygy.or(f.syzygy),
        }
    }
}

/// Where the referee writes its records.
#[derive(Debug, Clone, Default, Args, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputOptions {
    /// Append every finished game to this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Rewrite the game in progress to this PGN file after every move
    /// (atomically), for broadcast viewers.
    #[arg(long, value_name = "FILE")]
    pub live_pgn: Option<PathBuf>,
    /// Directory for the application log and the byte transcript
    /// [default: argus-logs].
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
    /// Publish the journal over TCP on this address (e.g. 0.0.0.0:7070)
    /// for `argus watch tcp://HOST:PORT` on other machines.
    #[arg(long, value_name = "ADDR:PORT")]
    pub feed: Option<String>,
    /// The journal file: `journal` in the config file's `[output]` table,
    /// `--journal` on `argus referee`'s command line (resume is given its
    /// journal).
    #[arg(skip)]
    pub journal: Option<PathBuf>,
    /// Rewrite the match statistics to this JSON file (atomically) after
    /// every game: games, wins, draws, losses, pentanomial, elo,
    /// elo_error95, los, and with --sprt llr, lower_bound, upper_bound,
    /// sprt_result.
    #[arg(long, value_name = "FILE")]
    pub results_json: Option<PathBuf>,
    /// Also append every finished game to this ChessBase 1993 base
    /// (BASE.cbf + BASE.cbi; created if missing): the games file synced,
    /// then the index replaced atomically. What the format cannot hold
    /// (over 250 half-moves, names over 63 bytes, ...) is reported with the
    /// game's number (docs/chessbase.md).
    #[arg(long, value_name = "BASE")]
    pub cbf: Option<PathBuf>,
}

impl OutputOptions {
    /// These options, each missing one taken from `f`.
    pub fn or(self, f: OutputOptions) -> OutputOptions {
        OutputOptions {
            pgn: self.pgn.or(f.pgn),
            live_pgn: self.live_pgn.or(f.live_pgn),
            log_dir: self.log_dir.or(f.log_dir),
            feed: self.feed.or(f.feed),
            journal: self.journal.or(f.journal),
            results_json: self.results_json.or(f.results_json),
            cbf: self.cbf.or(f.cbf),
        }
    }

    /// The log directory, defaulted.
    pub fn log_dir(&self) -> PathBuf {
        self.log_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from("argus-logs"))
    }
}

/// The audience's web view (`--http`), on `referee`, `resume`, `watch`
/// and `demo`.
#[derive(Debug, Clone, Default, Args)]
pub struct WebOptions {
    /// Serve the audience's live page on this address (e.g.
    /// 0.0.0.0:8080 for everyone on the network, 127.0.0.1:8080 for this
    /// machine only; port 0 picks a free one): the board, clocks and moves
    /// at /, the live stream at /events, /state.json, and every game as PGN
    /// at /games.pgn and /game/N.pgn (docs/web.md). Read-only.
    #[arg(long, value_name = "ADDR:PORT")]
    pub http: Option<String>,
    /// The most viewers of the live page at once; more are turned away.
    #[arg(long, value_name = "N", default_value_t = 256, requires = "http",
          value_parser = clap::value_parser!(u16).range(1..))]
    pub http_viewers: u16,
}

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
    pub output: OutputOptions,
    /// Read settings from this TOML file (tables [line], [match], [output]
    /// with the flags' names, `-` as `_`); command-line flags win.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// No board: print one line per event that matters.
    #[arg(long)]
    pub headless: bool,
    #[command(flatten)]
    pub web: WebOptions,
    /// Draw pieces as letters instead of chess glyphs.
    #[arg(long)]
    pub ascii: bool,
    /// The journal: every input, synced to disk before it is acted on, so
    /// that `argus resume` can carry on after a crash [default:
    /// journal.log in the log directory]. A journal holds one match: an
    /// existing one is never written into by a new match.
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
    /// No board: print one line per event that matters.
    #[arg(long)]
    pub headless: bool,
    #[command(flatten)]
    pub web: WebOptions,
    /// Draw pieces as letters instead of chess glyphs.
    #[arg(long)]
    pub ascii: bool,
}

/// `argus watch SOURCE [options]`.
#[derive(Debug, Clone, Args)]
pub struct WatchArgs {
    /// A journal file, or `tcp://HOST:PORT` for a referee's `--feed`.
    pub source: String,
    /// With a `tcp://` source: keep a copy of the journal in this file, so
    /// that this machine can take over with `argus resume FILE ...`.
    #[arg(long, value_name = "FILE")]
    pub copy: Option<PathBuf>,
    /// Append every game that ends while watching to this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// No board: print each move and result as a line.
    #[arg(long)]
    pub headless: bool,
    #[command(flatten)]
    pub web: WebOptions,
    /// Draw pieces as letters instead of chess glyphs.
    #[arg(long)]
    pub ascii: bool,
}

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
    /// Name sent with tcsi at sign-on [default: the engine's own name with
    /// --engine, else the mover, seed and port, e.g. "argus-random-1@ttyUSB0"].
    #[arg(long)]
    pub name: Option<String>,
    /// How to choose moves.
    #[arg(long, value_enum, default_value_t = MoverKind::Random)]
    pub mover: MoverKind,
    /// Seed for the mover: the same seed plays the same moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Milliseconds to think before each reply.
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// Do not claim draws (threefold repetition, fifty moves) when due.
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
    /// Without a time control: milliseconds per move [default: 1000].
    #[arg(long, value_name = "MS", conflicts_with = "depth", requires = "engine")]
    pub movetime: Option<u64>,
    /// Without a time control: search to this depth instead.
    #[arg(long, value_name = "N", requires = "engine")]
    pub depth: Option<u32>,
    /// Milliseconds an engine may run over its own time before it counts
    /// as hung (then it is restarted).
    #[arg(long, value_name = "MS", default_value_t = 3000, requires = "engine")]
    pub margin_ms: u64,
    /// Write the engine traffic, with times, to this file.
    #[arg(long, value_name = "FILE", requires = "engine")]
    pub log: Option<PathBuf>,
}

impl EngineOptions {
    /// The bridge's settings, checked; `None` without --engine.
    pub fn settings(&self) -> Result<Option<EngineSettings>, String> {
        let Some(cmd) = &self.engine else {
            return Ok(None);
        };
        let command = CommandLine::parse(cmd).map_err(|e| format!("--engine: {e}"))?;
        let options = self
            .options
            .iter()
            .map(|o| match o.split_once('=') {
                Some((n, v)) if !n.trim().is_empty() => Ok((n.trim().to_string(), v.to_string())),
                _ => Err(format!("--option {o:?}: expected NAME=VALUE")),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let untimed = match (self.movetime, self.depth) {
            (_, Some(0)) => return Err("--depth must be at least 1".into()),
            (Some(0), _) => return Err("--movetime must be at least 1 ms".into()),
            (_, Some(d)) => Untimed::Depth(d),
            (Some(ms), None) => Untimed::MoveTime(ms),
            (None, None) => Untimed::default(),
        };
        let log = match &self.log {
            Some(p) => EngineLog::create(p)?,
            None => EngineLog::none(),
        };
        Ok(Some(EngineSettings {
            command,
            protocol: self.protocol,
            options,
            untimed,
            margin: Duration::from_millis(self.margin_ms),
            depth_wait: DEPTH_WAIT,
            log,
        }))
    }
}

/// How long a depth search without a clock may take before the margin.
pub const DEPTH_WAIT: Duration = Duration::from_secs(600);

/// A `--NAME SECS` option's value in milliseconds: from 0 to `max`
/// seconds, fractions allowed (rounded to the millisecond).
pub fn seconds_ms(v: f64, name: &str, max: f64) -> Result<u64, String> {
    if v.is_finite() && (0.0..=max).contains(&v) {
        Ok((v * 1000.0).round() as u64)
    } else {
        Err(format!(
            "--{name} must be between 0 and {max} seconds, not {v}"
        ))
    }
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
    /// No board: print results only (for scripts and tests).
    #[arg(long)]
    pub headless: bool,
    #[command(flatten)]
    pub web: WebOptions,
    /// Draw pieces as letters instead of chess glyphs.
    #[arg(long)]
    pub ascii: bool,
}

/// The `--config` file: the same settings as the flags, in three tables
/// (`[line]`, `[match]`, `[output]`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    #[serde(default)]
    pub line: LineOptions,
    #[serde(default, rename = "match")]
    pub matches: MatchOptions,
    #[serde(default)]
    pub output: OutputOptions,
}

impl ConfigFile {
    /// Reads and parses a config file; the error names the file and says
    /// what is wrong (TOML errors carry line and column).
    pub fn load(path: &Path) -> Result<ConfigFile, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read config file {}: {e}", path.display()))?;
        toml::from_str(&text).map_err(|e| format!("config file {}: {e}", path.display()))
    }
}

/// Everything `argus referee` needs, merged and checked.
#[derive(Debug, Clone)]
pub struct RefereePlan {
    pub ports: [String; 2],
    pub port_settings: PortSettings,
    pub settings: Settings,
    pub output: OutputOptions,
}

/// Merges flags over the config file over defaults and checks everything:
/// the time control parses, the openings load and are legal. `date` is
/// today's date for the PGN (`yyyy.mm.dd`).
pub fn plan(
    ports: [String; 2],
    line: LineOptions,
    matches: MatchOptions,
    output: OutputOptions,
    config: Option<&Path>,
    date: String,
    headless: bool,
) -> Result<RefereePlan, String> {
    let file = match config {
        Some(p) => ConfigFile::load(p)?,
        None => ConfigFile::default(),
    };
    let line = line.or(file.line);
    let m = matches.or(file.matches);
    let output = output.or(file.output);
    let port_settings = line.port_settings()?;
    let time_control = match &m.tc {
        Some(s) => parse_friendly(s).map_err(|e| format!("--tc {s:?}: {e}"))?,
        None => TimeControl::Untimed,
    };
    let openings = match &m.openings {
        Some(p) => load_starts(p, m.opening_plies.unwrap_or(16))?,
        None => Vec::new(),
    };
    let defaults = Settings::default();
    let settings = Settings {
        event: m.event.unwrap_or(defaults.event),
        site: m.site.unwrap_or(defaults.site),
        date,
        round: m.round,
        names: ByClient::new(m.name_a, m.name_b),
        ports: ByClient::new(ports[0].clone(), ports[1].clone()),
        lines: ByClient::new(port_settings.line(), port_settings.line()),
        time_control,
        games: match m.games {
            Some(0) => return Err("--games must be at least 1".into()),
            Some(n) => n,
            None => 1,
        },
        swap_colors: !m.no_swap,
        openings,
        openings_seed: m.shuffle,
        reset_delay_ms: match m.reset_delay {
            Some(secs) => seconds_ms(secs, "reset-delay", 3600.0)?,
            None => defaults.reset_delay_ms,
        },
        conclude_delay_ms: match m.conclude_delay {
            Some(secs) => seconds_ms(secs, "conclude-delay", 3600.0)?,
            None => defaults.conclude_delay_ms,
        },
        false_claim: m.false_claim.unwrap_or_default(),
        illegal_move: m.illegal.unwrap_or_default(),
        client_fault: m
            .client_fault
            .unwrap_or_else(|| ClientFault::default_for(headless)),
        max_resends: m.max_resends.unwrap_or(defaults.max_resends),
        resend_after_ms: match m.resend_after {
            Some(secs) => seconds_ms(secs, "resend-after", 86_400.0)?,
            None => defaults.resend_after_ms,
        },
        max_moves: match m.max_moves {
            Some(0) => return Err("--max-moves must be at least 1".into()),
            n => n,
        },
        sprt: parse_spec("--sprt", m.sprt.as_deref())?,
        draw_adjudication: parse_spec("--draw-adjudication", m.draw_adjudication.as_deref())?,
        resign_adjudication: parse_spec("--resign-adjudication", m.resign_adjudication.as_deref())?,
        // Opened here only to refuse a directory without tables before
        // anything starts; the session opens them for the match.
        syzygy: match m.syzygy {
            Some(dirs) => Syzygy::open(&dirs).map(|_| Some(dirs))?,
            None => None,
        },
        disconnect_at_end: true,
    };
    Ok(RefereePlan {
        ports,
        port_settings,
        settings,
        output,
    })
}

/// A `KEY=VALUE ...` option's value parsed, or an error naming the option
/// and the value.
fn parse_spec<T: FromStr<Err = String>>(
    flag: &str,
    spec: Option<&str>,
) -> Result<Option<T>, String> {
    spec.map(|s| s.parse().map_err(|e| format!("{flag} {s:?}: {e}")))
        .transpose()
}

/// Loads an openings file and checks every opening against the rules: a
/// position must be legal, moves must be legal in order.
pub fn load_starts(path: &Path, ply_limit: usize) -> Result<Vec<Start>, String> {
    let openings = load_openings(path, ply_limit)?;
    if openings.is_empty() {
        return Err(format!(
            "openings file {} holds no openings",
            path.display()
        ));
    }
    openings.into_iter().map(opening_to_start).collect()
}

fn opening_to_start(o: Opening) -> Result<Start, String> {
    match o {
        Opening::Position { epd, source } => {
            let rec = Record::parse(&epd).map_err(|e| format!("{source}: {e}"))?;
            let position = game::position_of_record(&rec).map_err(|e| format!("{source}: {e}"))?;
            Ok(Start {
                position,
                moves: Vec::new(),
                source,
            })
        }
        Opening::Moves {
            sans,
            fen,
            source,
            move_sources,
        } => {
            let start = match &fen {
                Some(f) => game::position_from_fen(f).map_err(|e| format!("{source}: {e}"))?,
                None => Chess::default(),
            };
            let mut line = Game::new(start.clone());
            for (i, san) in sans.iter().enumerate() {
                // The move's own line (the game's if it is not known).
                let at = move_sources.get(i).unwrap_or(&source);
                line.play_san(san)
                    .map_err(|e| format!("{at}: {e} (move {} of the game at {source})", i + 1))?;
            }
            Ok(Start {
                position: start,
                moves: line.moves().to_vec(),
                source,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        matches: MatchOptions,
    }

    #[test]
    fn policy_flags_take_the_policies_names_and_list_them() {
        let cli = Cli::try_parse_from(["t", "--illegal", "retry", "--false-claim", "play-on"]);
        let m = cli.map(|c| c.matches).map_err(|e| e.to_string()).unwrap();
        assert_eq!(m.illegal, Some(IllegalMove::Retry));
        assert_eq!(m.false_claim, Some(FalseClaim::PlayOn));
        let err = Cli::try_parse_from(["t", "--client-fault", "shrug"])
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("[possible values: pause, continue]"), "{err}");
    }
}
