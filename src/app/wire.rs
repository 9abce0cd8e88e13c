//! `argus wire`: the line simulator between two ports.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Args;
use crossbeam_channel::{after, never, select};

use crate::app::options::{BadSeconds, LineOptions, seconds_ms};
use crate::app::signals;
use crate::app::{Completion, Exit, Failure};
use crate::link::Endpoint;
use crate::link::simulator::{CLOSED, DirectionStats, Impairments, Wire};
use crate::link::wire_ends::open_ends;

/// `argus wire PORT_1 PORT_2 [options]`.
#[derive(Debug, Clone, Args)]
pub struct WireArgs {
    /// One end: a serial port (e.g. the inner end of a socat cable to the
    /// referee), `tcp://HOST:PORT` (connect to it) or
    /// `tcp-listen://ADDR:PORT` (accept one connection).
    pub port_1: String,
    /// The other end (e.g. the inner end of a cable to a client).
    pub port_2: String,
    #[command(flatten)]
    pub line: LineOptions,
    /// Probability that any one bit is flipped, e.g. 1e-4.
    #[arg(long, default_value_t = 0.0)]
    pub bit_error_rate: f64,
    /// Probability that a byte is lost.
    #[arg(long, default_value_t = 0.0)]
    pub drop_rate: f64,
    /// Pull the cable this many seconds after the start...
    #[arg(long, value_name = "SECS")]
    pub cut_at: Option<f64>,
    /// ...for this many seconds (bytes sent meanwhile are lost).
    #[arg(long, value_name = "SECS", default_value_t = 5.0)]
    pub cut_for: f64,
    /// Seed for the errors: the same seed gives the same damage.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop after this many seconds (default: until Ctrl-C).
    #[arg(long, value_name = "SECS")]
    pub duration: Option<f64>,
    /// Write every impairment (time, direction, byte) to this file.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

fn seconds(v: f64, name: &str) -> Result<Duration, BadSeconds> {
    seconds_ms(v, name, 1e6).map(Duration::from_millis)
}

/// Runs `argus wire`: it ends normally after the duration or Ctrl-C; a
/// bad usage or a port that cannot be opened is a usage failure, a port
/// that fails while copying a failure on the way.
pub fn run(args: WireArgs) -> Exit {
    let settings = args.line.port_settings().map_err(Failure::usage)?;
    let end_1 = Endpoint::parse(&args.port_1).map_err(Failure::usage)?;
    let end_2 = Endpoint::parse(&args.port_2).map_err(Failure::usage)?;
    let impairments = impairments_of(&args)?;
    let duration = args
        .duration
        .map(|d| seconds(d, "duration"))
        .transpose()
        .map_err(Failure::usage)?;
    let log = open_log(args.log.as_ref())?;
    let waiting = |e: &Endpoint| eprintln!("argus wire: waiting for a connection on {e}");
    let ends = open_ends([&end_1, &end_2], &settings, &waiting).map_err(Failure::usage)?;
    let names = [args.port_1.as_str(), args.port_2.as_str()];
    let cut = impairments.cut;
    let wire = Wire::start(ends, names, settings, impairments, log).map_err(Failure::failed)?;
    eprintln!(
        "argus wire: {} <-> {} at {settings}, bit error rate {}, drop rate {}{}",
        args.port_1,
        args.port_2,
        args.bit_error_rate,
        args.drop_rate,
        cut.map_or(String::new(), |(a, l)| format!(
            ", cable pulled at {:.1} s for {:.1} s",
            a.as_secs_f64(),
            l.as_secs_f64()
        ))
    );
    let ctrl_rx = signals::stop_requests("argus wire");
    let end = duration.map_or_else(never, after);
    let started = Instant::now();
    let mut failed = false;
    loop {
        select! {
            recv(ctrl_rx) -> _ => break,
            recv(end) -> _ => break,
            default(Duration::from_millis(200)) => {
                if !wire.running() {
                    failed = true;
                    break;
                }
            }
        }
    }
    report(&args, wire.stop(), started, failed)
}

/// The impairments the flags ask for, checked.
fn impairments_of(args: &WireArgs) -> Result<Impairments, Failure> {
    for (v, name) in [
        (args.bit_error_rate, "bit-error-rate"),
        (args.drop_rate, "drop-rate"),
    ] {
        if !(0.0..=1.0).contains(&v) {
            return Err(Failure::usage(format!(
                "--{name} must be a probability from 0 to 1, not {v}"
            )));
        }
    }
    let cut = args
        .cut_at
        .map(|a| Ok::<_, BadSeconds>((seconds(a, "cut-at")?, seconds(args.cut_for, "cut-for")?)))
        .transpose()
        .map_err(Failure::usage)?;
    Ok(Impairments {
        bit_error_rate: args.bit_error_rate,
        drop_rate: args.drop_rate,
        cut,
        seed: args.seed,
    })
}

/// What the wire writes its log lines with.
type LogLine = Arc<dyn Fn(&str) + Send + Sync>;

/// Where the wire's log lines go: the `--log` file (appended), or nowhere.
fn open_log(path: Option<&PathBuf>) -> Result<LogLine, Failure> {
    let log_file = match path {
        Some(p) => Some(Mutex::new(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| Failure::usage(format!("cannot open the log {}: {e}", p.display())))?,
        )),
        None => None,
    };
    Ok(Arc::new(move |line: &str| {
        if let Some(f) = &log_file
            && let Ok(mut f) = f.lock()
        {
            let _ = writeln!(f, "{line}");
        }
    }))
}

/// Prints each direction's counts and the time run, and says why the
/// wire stopped: a port that failed (`failed`, not a peer that closed its
/// connection) is a failure, named.
fn report(args: &WireArgs, stats: Vec<DirectionStats>, started: Instant, failed: bool) -> Exit {
    for (s, dir) in stats.iter().zip([
        format!("{} -> {}", args.port_1, args.port_2),
        format!("{} -> {}", args.port_2, args.port_1),
    ]) {
        crate::app::stdout::line(&summary(&dir, s).to_string());
    }
    crate::app::stdout::line(&format!("ran {:.1} s", started.elapsed().as_secs_f64()));
    // A peer that closed its TCP connection ended the session: the wire
    // ends with it. A port that failed is a failure, named.
    let why: Vec<&str> = stats.iter().filter_map(|s| s.stopped.as_deref()).collect();
    for w in &why {
        eprintln!("argus wire: {w}");
    }
    if failed && !why.iter().all(|w| w.ends_with(CLOSED)) {
        return Err(Failure::failed(format!(
            "a port failed while copying: {}",
            why.join("; ")
        )));
    }
    Ok(Completion::Normal)
}

/// One line about one direction.
pub fn summary(dir: &str, s: &DirectionStats) -> String {
    format!(
        "{dir}: {} bytes, {} delivered, {} corrupted ({} bits flipped), {} dropped, {} lost to the cut; {} lines, {} of them damaged",
        s.bytes,
        s.delivered,
        s.corrupted_bytes,
        s.flipped_bits,
        s.dropped,
        s.cut,
        s.lines.lines,
        s.lines.damaged_lines
    )
}
