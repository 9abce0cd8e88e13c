//! The relay benchmark: two instant movers (reference clients, no thinking
//! time) play each other over two in-process virtual cables
//! (`link::VirtualCable`, pseudo-terminal pairs) under the real referee
//! loop (`app::session::run`), untimed, game after game, until enough
//! moves have been relayed.
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
//!   this figure.
//!
//! By default the session writes nothing. With `--files DIR` it writes
//! what `argus referee --pgn` writes: the byte transcript and the PGN file,
//! in DIR; `--live-pgn` adds the live PGN (rewritten and synced to disk
//! after every move, as `argus referee --live-pgn` does).
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
//! Run: `cargo bench --bench relay` (release build), or
//! `cargo bench --bench relay -- --plies 5000 --files /tmp/relay --live-pgn`.
//! Targets: median relay overhead under 100 us, at least 2,000 plies per
//! second.

use std::path::PathBuf;
use std::process::ExitCode;
use std::thread;
use std::time::{Duration, Instant};

use argus::app::audience::Audience;
use argus::app::client;
use argus::app::options::WebOptions;
use argus::app::session::{self, Session, View};
use argus::app::writers::{RelayTiming, Writers};
use argus::client::{ClientProtocol, Mover, MoverKind};
use argus::link::{Link, PortSettings, VirtualCable};
use argus::referee::{ByClient, ClientId, Referee, Settings};
use crossbeam_channel::{RecvTimeoutError, unbounded};

/// The same allocator as the `argus` binary (see src/main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Relayed plies measured when `--plies` is not given.
const DEFAULT_PLIES: usize = 4_000;
/// The first relays are left out of the figures (threads and caches warm up).
const WARM_UP: usize = 50;
/// A run that relays nothing for this long has failed.
const STALL: Duration = Duration::from_secs(20);

fn main() -> ExitCode {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("relay: {e}");
            return ExitCode::from(2);
        }
    };
    let outputs = match &options.files {
        None => Writers::none(false),
        Some(dir) => match Writers::open(
            dir,
            Some(dir.join("relay.pgn")),
            options.live_pgn.then(|| dir.join("live.pgn")),
            false,
        ) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("relay: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let live = if options.live_pgn {
        " and live PGN"
    } else {
        ""
    };
    let files = options.files.as_ref().map_or("none".to_string(), |d| {
        format!("transcript, PGN{live} in {}", d.display())
    });
    println!("relay: files: {files}");
    if !options.think.is_zero() {
        println!("relay: movers think {} ms", options.think.as_millis());
    }
    let outputs = match with_viewers(outputs, options.viewers, options.push) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("relay: {e}");
            return ExitCode::FAILURE;
        }
    };
    match run(options.plies, options.think, outputs) {
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
    /// Where to write the session's files, if anywhere.
    files: Option<PathBuf>,
    /// Whether to write the live PGN too (with `files`).
    live_pgn: bool,
    /// The movers' thinking time.
    think: Duration,
    /// Viewers of the web page's live stream (none: no web server).
    viewers: usize,
    /// Push the games to a receiver in the benchmark (`--push`).
    push: bool,
}

impl Options {
    /// Reads `--plies N`, `--files DIR`, `--live-pgn` and `--think-ms N`;
    /// other arguments (cargo's `--bench`) are ignored.
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
        let mut plies = DEFAULT_PLIES;
        let mut files = None;
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
        if live_pgn && files.is_none() {
            return Err("--live-pgn needs --files DIR".into());
        }
        Ok(Options {
            plies: plies + WARM_UP,
            files,
            live_pgn,
            think,
            viewers,
            push,
        })
    }
}

/// With `viewers`, starts the web server on a loopback port and that many
/// viewers of its stream, each reading as fast as states come (they end
/// with the process); with `push`, the broadcast pusher to a receiver of
/// [`receiver`].
fn with_viewers(outputs: Writers, viewers: usize, push: bool) -> Result<Writers, String> {
    if viewers == 0 && !push {
        return Ok(outputs);
    }
    let (broadcast_push, broadcast_token_file) = if push {
        let token = std::env::temp_dir().join(format!("argus-bench-token-{}", std::process::id()));
        std::fs::write(&token, "bench-token\n").map_err(|e| format!("token file: {e}"))?;
        (vec![receiver()?], Some(token))
    } else {
        (Vec::new(), None)
    };
    let options = WebOptions {
        http: (viewers > 0).then(|| "127.0.0.1:0".into()),
        broadcast_push,
        broadcast_token_file,
        http_viewers: u16::try_from(viewers).map_err(|_| "--viewers: at most 65535")?,
        // Every viewer comes from 127.0.0.1.
        http_per_address: u16::try_from(viewers).map_err(|_| "--viewers: at most 65535")?,
        // The benchmark ends with its match.
        http_linger: Some(0.0),
    };
    let audience = Audience::start(&options)
        .map_err(|e| e.to_string())?
        .ok_or("no web server")?;
    if push {
        println!("relay: the broadcast push to a receiver on a loopback port");
    }
    if viewers == 0 {
        return Ok(outputs.with_audience(Some(audience)));
    }
    let addr = audience.addr().ok_or("no web server")?;
    for _ in 0..viewers {
        let mut s = std::net::TcpStream::connect(addr).map_err(|e| format!("viewer: {e}"))?;
        thread::spawn(move || {
            use std::io::{Read, Write};
            let _ = s.write_all(b"GET /events HTTP/1.1\r\nHost: bench\r\n\r\n");
            let mut buf = [0u8; 16 * 1024];
            while matches!(s.read(&mut buf), Ok(n) if n > 0) {}
        });
    }
    println!("relay: {viewers} viewers of the web page's live stream");
    Ok(outputs.with_audience(Some(audience)))
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
fn run(plies: usize, think: Duration, outputs: Writers) -> Result<Vec<RelayTiming>, String> {
    let cables = [VirtualCable::new()?, VirtualCable::new()?];
    let port_settings = PortSettings::default();
    let epoch = Instant::now();
    let (tx, rx) = unbounded();
    let open = |id: ClientId| {
        Link::open(id, cables[id.index()].a(), port_settings, epoch, tx.clone())
            .map_err(|e| e.to_string())
    };
    let links = ByClient::new(open(ClientId::A)?, open(ClientId::B)?);

    // Two random movers that never claim draws: long games, few restarts.
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

    let settings = Settings {
        event: "argus relay benchmark".into(),
        ports: [cables[0].a().to_string(), cables[1].a().to_string()].into(),
        lines: [port_settings.line(), port_settings.line()].into(),
        games: 1_000_000,
        reset_delay_ms: 0,
        conclude_delay_ms: 0,
        ..Settings::default()
    };

    // A watcher collects the timings and ends the session (as Ctrl-C
    // would) once there are enough, or when nothing comes any more.
    let (timing_tx, timing_rx) = unbounded();
    let (stop_tx, stop_rx) = unbounded();
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
        let _ = stop_tx.send(argus::app::signals::Stop::Interrupt);
        (timings, stalled)
    });

    let ending = session::run(Session {
        core: Referee::new(settings),
        links,
        link_events: rx,
        line_views: ByClient::new(port_settings.to_string(), port_settings.to_string()),
        epoch,
        outputs: outputs.with_relay_timings(timing_tx),
        view: View::Headless,
        ctrl_c: stop_rx,
        resumed_at: None,
    });
    let (timings, stalled) = watcher
        .join()
        .map_err(|_| "the timing watcher panicked".to_string())?;
    // The clients end on `disconnect`; dropping the cables ends any other.
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline && clients.iter().any(|c| !c.is_finished()) {
        thread::sleep(Duration::from_millis(10));
    }
    drop(cables);
    if let Err(why) = ending {
        return Err(format!("the session failed: {why}"));
    }
    if stalled {
        return Err(format!(
            "no move relayed for {} s after {} moves",
            STALL.as_secs(),
            timings.len()
        ));
    }
    if timings.len() < plies {
        return Err(format!(
            "the session ended after {} of {plies} moves",
            timings.len()
        ));
    }
    Ok(timings)
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

/// The nearest-rank percentile of sorted values (0 when empty).
fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}
