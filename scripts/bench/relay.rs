//! The relay benchmark: two instant movers (reference clients, no thinking
//! time) play each other over two in-process virtual cables
//! (`link::VirtualCable`, pseudo-terminal pairs) as a match refereed by the
//! tournament's director in-process (`app::tournament::launch`, as `argus
//! demo` runs: `argus referee PORT_A PORT_B` on the cables' referee ends,
//! an endless match with no reset or conclude delay), untimed, game after
//! game, until enough moves have been relayed; then it stops the match as
//! Ctrl-C would (SIGINT to itself).
//!
//! It reports:
//!
//! * plies per second, over the whole run (relayed plies over the time from
//!   the first reply to the last, game changes included) and in steady
//!   play (from the median time between two replies);
//! * the relay overhead: from a reply's last byte in (its `Line` event's
//!   `at_us` on the referee's side) to the last byte out of the `respond`
//!   that relays the move (its `Sent` event's `at_us`), median, p90, p99
//!   and maximum. Both stamps are taken by the referee's link threads, so
//!   the virtual cable's own relay threads add to the ply time but not to
//!   this figure. The director hands every board's timings to the bench
//!   (`Launch::relay_timings`) as it counts them for its log, once a loop
//!   turn.
//!
//! The director always writes its journals: the match's
//! (`tournament.journal`) and each game's journal and transcript, each
//! move's journal line synced to disk before the move is relayed (the
//! relay overhead includes that `fdatasync`). They go to a temporary
//! directory on disk (removed at the end), to `/dev/shm` with `--tmpfs`
//! (no disk under the sync), or to `--files DIR`, which also writes the
//! match's PGN there (`DIR/relay.pgn`); `--live-pgn` adds the live PGN
//! (rewritten and synced to disk after every move, as `argus referee
//! --live-pgn` does). The old match loop (`app::session::run`, retired)
//! could relay with no file at all; that run, relaying without a journal,
//! no longer exists, and its figures are not comparable with these
//! (docs/performance.md).
//!
//! `--viewers N` serves the audience's web page (`--http` on a loopback
//! port) with N viewers following its live stream (`/events`), each
//! reading every state as it comes: run it beside a run without, and
//! compare the relay overhead.
//!
//! `--push` also starts the broadcast pusher (`--broadcast-push`) to a
//! receiver on a loopback port in the benchmark (it answers every POST
//! with 200 at once), so that the pusher's work is measured with the
//! viewers'.
//!
//! `--think-ms N` gives the movers a thinking time (default 0): with
//! instant movers a reply can arrive while the loop is still busy with the
//! previous move's files, and then waits; with a thinking time longer than
//! that work it does not.
//!
//! The director runs headless: its lines (each game's start, result and
//! the match's statistics after it) come among the benchmark's.
//!
//! Run: `cargo bench --bench relay` (release build), or
//! `cargo bench --bench relay -- --plies 5000 --files /tmp/relay --live-pgn`.
//! Targets: median relay overhead under 100 us, at least 2,000 plies per
//! second.

#[path = "hops.rs"]
mod hops;

use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::thread;
use std::time::{Duration, Instant};

use argus::app::Completion;
use argus::app::client;
use argus::app::options::{MatchOptions, ViewOptions, WebOptions};
use argus::app::tournament::args::TournamentArgs;
use argus::app::tournament::{self, Launch};
use argus::app::writers::RelayTiming;
use argus::client::{ClientProtocol, Mover, MoverKind};
use argus::link::{PortSettings, VirtualCable};
use crossbeam_channel::{RecvTimeoutError, unbounded};
use hops::{STALL, WARM_UP, percentile};

/// The same allocator as the `argus` binary (see src/main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Relayed plies measured when `--plies` is not given.
const DEFAULT_PLIES: usize = 4_000;

fn main() -> ExitCode {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("relay: {e}");
            return ExitCode::from(2);
        }
    };
    // The journals' directory: `--files DIR`, or a temporary one (on disk,
    // or in /dev/shm with `--tmpfs`) removed at the end.
    let (dir, _temp) =
        match hops::files_dir(options.files.as_deref(), options.tmpfs, "argus-relay-") {
            Ok(d) => d,
            Err(e) => {
                eprintln!("relay: {e}");
                return ExitCode::FAILURE;
            }
        };
    let live = if options.live_pgn { ", live PGN" } else { "" };
    let pgn = if options.files.is_some() { ", PGN" } else { "" };
    println!(
        "relay: files: journals, transcripts{pgn}{live} in {}",
        dir.display()
    );
    if !options.think.is_zero() {
        println!("relay: movers think {} ms", options.think.as_millis());
    }
    let web = match web_options(options.viewers, options.push) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("relay: {e}");
            return ExitCode::FAILURE;
        }
    };
    let args = match_args(&options, &dir, web);
    match run(options.plies, options.think, args, options.viewers) {
        Ok(timings) => {
            report(&timings, options.think.is_zero());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("relay: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The command line.
struct Options {
    /// Relayed plies to collect, warm-up included.
    plies: usize,
    /// Where to write the match's files (a temporary directory if none).
    files: Option<PathBuf>,
    /// The temporary directory in /dev/shm rather than on disk.
    tmpfs: bool,
    /// Whether to write the live PGN too.
    live_pgn: bool,
    /// The movers' thinking time.
    think: Duration,
    /// Viewers of the web page's live stream (none: no web server).
    viewers: usize,
    /// Push the games to a receiver in the benchmark (`--push`).
    push: bool,
}

impl Options {
    /// Reads `--plies N`, `--files DIR`, `--tmpfs`, `--live-pgn`,
    /// `--think-ms N`, `--viewers N` and `--push`; other arguments
    /// (cargo's `--bench`) are ignored.
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
        let mut plies = DEFAULT_PLIES;
        let mut files = None;
        let mut tmpfs = false;
        let mut live_pgn = false;
        let mut think = Duration::ZERO;
        let mut viewers = 0;
        let mut push = false;
        while let Some(a) = args.next() {
            match a.as_str() {
                "--plies" => {
                    let v = args.next().ok_or("--plies needs a number")?;
                    plies = match v.parse::<usize>() {
                        Ok(0) => return Err("--plies must be at least 1".into()),
                        Ok(n) => n,
                        Err(e) => return Err(format!("--plies {v:?}: {e}")),
                    };
                }
                "--files" => {
                    files = Some(PathBuf::from(
                        args.next().ok_or("--files needs a directory")?,
                    ))
                }
                "--tmpfs" => tmpfs = true,
                "--live-pgn" => live_pgn = true,
                "--push" => push = true,
                "--viewers" => {
                    let v = args.next().ok_or("--viewers needs a number")?;
                    viewers = v.parse().map_err(|e| format!("--viewers {v:?}: {e}"))?;
                }
                "--think-ms" => {
                    let v = args.next().ok_or("--think-ms needs a number")?;
                    let ms = v.parse().map_err(|e| format!("--think-ms {v:?}: {e}"))?;
                    think = Duration::from_millis(ms);
                }
                _ => {}
            }
        }
        Ok(Options {
            plies: plies + WARM_UP,
            files,
            tmpfs,
            live_pgn,
            think,
            viewers,
            push,
        })
    }
}

/// The web options: with `viewers`, the web page on a loopback port (its
/// address picked here, so that the viewers know it); with `push`, the
/// broadcast pusher to a receiver of [`receiver`].
fn web_options(viewers: usize, push: bool) -> Result<WebOptions, String> {
    let (broadcast_push, broadcast_token_file) = if push {
        let token = std::env::temp_dir().join(format!("argus-bench-token-{}", std::process::id()));
        std::fs::write(&token, "bench-token\n").map_err(|e| format!("token file: {e}"))?;
        println!("relay: the broadcast push to a receiver on a loopback port");
        (vec![receiver()?], Some(token))
    } else {
        (Vec::new(), None)
    };
    let http = if viewers > 0 {
        // A free port now, given to the web server at once.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("web page: {e}"))?
            .port();
        Some(format!("127.0.0.1:{port}"))
    } else {
        None
    };
    Ok(WebOptions {
        http,
        broadcast_push,
        broadcast_token_file,
        http_viewers: u16::try_from(viewers).map_err(|_| "--viewers: at most 65535")?,
        // Every viewer comes from 127.0.0.1.
        http_per_address: u16::try_from(viewers).map_err(|_| "--viewers: at most 65535")?,
        // The benchmark ends with its match.
        http_linger: Some(0.0),
    })
}

/// Starts `viewers` viewers of the web page's live stream at `addr`, each
/// reading as fast as states come (they end with the process).
fn start_viewers(addr: &str, viewers: usize) {
    for _ in 0..viewers {
        let addr = addr.to_string();
        thread::spawn(move || {
            use std::io::{Read, Write};
            let Ok(mut s) = std::net::TcpStream::connect(&addr) else {
                eprintln!("relay: a viewer cannot connect to {addr}");
                return;
            };
            let _ = s.write_all(b"GET /events HTTP/1.1\r\nHost: bench\r\n\r\n");
            let mut buf = [0u8; 16 * 1024];
            while matches!(s.read(&mut buf), Ok(n) if n > 0) {}
        });
    }
    println!("relay: {viewers} viewers of the web page's live stream");
}

/// The match as `argus referee PORT_A PORT_B` takes it (the ports are set
/// by [`run`]): headless, no reset or conclude delay, its files in `dir`
/// (the PGN only with `--files`), the web options.
fn match_args(options: &Options, dir: &std::path::Path, web: WebOptions) -> TournamentArgs {
    TournamentArgs {
        as_match: true,
        matches: MatchOptions {
            event: Some("argus relay benchmark".into()),
            reset_delay: Some(0.0),
            conclude_delay: Some(0.0),
            ..MatchOptions::default()
        },
        pgn: options.files.as_ref().map(|d| d.join("relay.pgn")),
        live_pgn: options.live_pgn.then(|| dir.join("live.pgn")),
        log_dir: Some(dir.to_path_buf()),
        web,
        view: ViewOptions {
            headless: true,
            ascii: false,
        },
        ..TournamentArgs::default()
    }
}

/// A push receiver on a loopback port: reads each request (head and
/// `Content-Length` body) and answers `200` at once; its URL.
fn receiver() -> Result<String, String> {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener =
        std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| format!("receiver: {e}"))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("receiver: {e}"))?;
    thread::spawn(move || {
        for s in listener.incoming().flatten() {
            thread::spawn(move || {
                let Ok(mut out) = s.try_clone() else { return };
                let mut r = BufReader::new(s);
                loop {
                    let mut length = 0usize;
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    loop {
                        let mut h = String::new();
                        if r.read_line(&mut h).unwrap_or(0) == 0 {
                            return;
                        }
                        let h = h.trim_end().to_ascii_lowercase();
                        if h.is_empty() {
                            break;
                        }
                        if let Some(v) = h.strip_prefix("content-length:") {
                            length = v.trim().parse().unwrap_or(0);
                        }
                    }
                    let mut body = vec![0; length];
                    if r.read_exact(&mut body).is_err()
                        || out
                            .write_all(
                                b"HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n{\"games\":[]}",
                            )
                            .is_err()
                    {
                        return;
                    }
                }
            });
        }
    });
    Ok(format!("http://{addr}/api/broadcast/round/Bench001/push"))
}

/// Plays until `plies` moves were relayed; returns their timings.
fn run(
    plies: usize,
    think: Duration,
    mut args: TournamentArgs,
    viewers: usize,
) -> Result<Vec<RelayTiming>, String> {
    let cables = [VirtualCable::new()?, VirtualCable::new()?];
    let port_settings = PortSettings::default();
    args.players = cables.iter().map(|c| c.a().to_string()).collect();
    let http = args.web.http.clone();

    // A watcher collects the timings and ends the match (as Ctrl-C would)
    // once there are enough, or when nothing comes any more.
    let (timing_tx, timing_rx) = unbounded();
    let watcher = thread::spawn(move || {
        let mut timings = Vec::with_capacity(plies);
        let mut stalled = false;
        while timings.len() < plies {
            match timing_rx.recv_timeout(STALL) {
                Ok(t) => timings.push(t),
                Err(RecvTimeoutError::Timeout) => {
                    stalled = true;
                    break;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        let stop = interrupt_me();
        (timings, stalled, stop)
    });

    let mut clients = Vec::new();
    let ending = tournament::launch(
        args,
        Launch {
            me: "relay",
            command: vec!["relay-benchmark".into()],
            // An endless match on in-process cables (as `argus demo`'s):
            // no wire time to credit, and no resume.
            plan: Box::new(|plan| {
                plan.schedule.endless = true;
                plan.wire_credit = false;
                plan.resumable = false;
            }),
            opened: Box::new(|| {
                clients = start_clients(&cables, port_settings, think);
                if let Some(addr) = &http {
                    start_viewers(addr, viewers);
                }
            }),
            relay_timings: Some(timing_tx),
        },
    );
    let (timings, stalled, stop) = watcher
        .join()
        .map_err(|_| "the timing watcher panicked".to_string())?;
    // The clients end on `disconnect`; dropping the cables ends any other.
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline && clients.iter().any(|c| !c.is_finished()) {
        thread::sleep(Duration::from_millis(10));
    }
    drop(cables);
    match ending {
        Ok(Completion::EndedEarly(_)) => {}
        Ok(other) => return Err(format!("the match ended unasked: {other:?}")),
        Err(why) => return Err(format!("the match failed: {why}")),
    }
    stop?;
    if stalled {
        return Err(format!(
            "no move relayed for {} s after {} moves",
            STALL.as_secs(),
            timings.len()
        ));
    }
    if timings.len() < plies {
        return Err(format!(
            "the match ended after {} of {plies} moves",
            timings.len()
        ));
    }
    Ok(timings)
}

/// Two random movers on the cables' far ends that never claim draws: long
/// games, few restarts.
fn start_clients(
    cables: &[VirtualCable; 2],
    port_settings: PortSettings,
    think: Duration,
) -> Vec<thread::JoinHandle<Result<(), client::ClientError>>> {
    let mut clients = Vec::new();
    for (i, cable) in cables.iter().enumerate() {
        let path = cable.b().to_string();
        let protocol = ClientProtocol::new(
            &format!("instant mover {}", i + 1),
            Mover::new(MoverKind::Random, 1 + i as u64),
            false,
        );
        clients.push(thread::spawn(move || {
            client::run_on_port(
                &path,
                port_settings,
                protocol,
                think,
                client::Voice::Quiet,
                true,
            )
        }));
    }
    clients
}

/// Stops the match as Ctrl-C does: SIGINT to this process (the director
/// catches it and ends the match, its journal kept).
fn interrupt_me() -> Result<(), String> {
    let status = Command::new("kill")
        .args(["-INT", &std::process::id().to_string()])
        .status()
        .map_err(|e| format!("cannot run kill: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("kill -INT ended with {status}"))
    }
}

/// Prints the figures; the targets (which are for instant movers) only
/// with `instant`.
fn report(all: &[RelayTiming], instant: bool) {
    let timings = all.get(WARM_UP..).unwrap_or_default();
    let (Some(first), Some(last)) = (timings.first(), timings.last()) else {
        println!("relay: no timings");
        return;
    };
    let n = timings.len();
    let span_us = last.line_at_us.saturating_sub(first.line_at_us).max(1);
    let overall = (n - 1) as f64 * 1e6 / span_us as f64;
    let mut periods: Vec<u64> = timings
        .windows(2)
        .map(|w| w[1].line_at_us.saturating_sub(w[0].line_at_us))
        .collect();
    periods.sort_unstable();
    let period = percentile(&periods, 50.0);
    let mut overhead: Vec<u64> = timings.iter().map(RelayTiming::overhead_us).collect();
    overhead.sort_unstable();
    println!(
        "relay: {n} relayed plies measured (after {WARM_UP} warm-up), {:.2} s",
        span_us as f64 / 1e6
    );
    println!(
        "relay: plies/s: {overall:.0} overall (game changes included); {:.0} in steady play (median ply {period} us)",
        1e6 / period.max(1) as f64
    );
    println!(
        "relay: overhead reply-in to respond-out (us): median {} p90 {} p99 {} max {}",
        percentile(&overhead, 50.0),
        percentile(&overhead, 90.0),
        percentile(&overhead, 99.0),
        overhead.last().copied().unwrap_or(0)
    );
    if !instant {
        return;
    }
    let median = percentile(&overhead, 50.0);
    println!(
        "relay: targets: median overhead < 100 us: {}; >= 2000 plies/s overall: {}",
        verdict(median < 100),
        verdict(overall >= 2000.0)
    );
}

fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "NOT met" }
}
