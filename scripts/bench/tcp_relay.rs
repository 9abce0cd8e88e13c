//! The TCP relay benchmark: how long a move takes from one client to the
//! other through argus over TCP loopback, against a dumb relay (socat
//! `TCP-LISTEN` to `TCP`) in the same run.
//!
//! * argus: the real binary (the bench's build of `argus`), started as
//!   `argus referee --listen 127.0.0.1:PORT --games N --headless
//!   --reset-delay 0 --conclude-delay 0 --log-dir DIR` (one listener for
//!   both seats), two instant random movers connected with `tcp://` links.
//!   A hop is from the moment a client's reply write returned (its `Sent`
//!   stamp) to the moment the other client read the `respond` relaying
//!   that move (its `Line` stamp); both clients stamp from one epoch, in
//!   this process. Once enough hops are counted the referee is stopped as
//!   Ctrl-C would (`kill -INT`), or it ends with its games.
//! * socat: `socat TCP-LISTEN:P1 TCP:127.0.0.1:P2`, a line written to P1
//!   and read at P2, the same 100-byte line each time. A hop is from the
//!   write's return to the read's return.
//!
//! Both hops cross the kernel twice (in, and out again) and one user-space
//! program; argus also checks the move, journals it (each move's journal
//! line is synced to disk before the move is relayed) and writes the
//! respond. It reports the median and p90 of each, their ratio, and the
//! plies per second the clients saw (from the first measured hop to the
//! last, game changes included).
//!
//! The referee's journals and transcripts go to a temporary directory on
//! disk (removed at the end), to one in `/dev/shm` with `--tmpfs` (no disk
//! under the sync), or to `--dir DIR` (kept). `--games N` sets the
//! referee's games (default 1000, more than a run needs).
//!
//! Run: `cargo bench --bench tcp_relay` (needs socat), or with
//! `-- --plies 2000 --tmpfs`.

#[path = "hops.rs"]
mod hops;

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use argus::link::Connector;
use crossbeam_channel::unbounded;
use hops::{WARM_UP, collect_timed_hops, summary};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The referee's games when `--games` is not given.
const DEFAULT_GAMES: u32 = 1_000;
/// How long the referee may take to end after `kill -INT`.
const STOP_WAIT: Duration = Duration::from_secs(10);

/// The command line.
struct Options {
    plies: usize,
    games: u32,
    /// Where the referee writes (a temporary directory if none).
    dir: Option<PathBuf>,
    /// The temporary directory in /dev/shm rather than on disk.
    tmpfs: bool,
}

impl Options {
    /// Reads `--plies N`, `--games N`, `--dir DIR` and `--tmpfs`; other
    /// arguments (cargo's `--bench`) are ignored.
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
        let mut o = Options {
            plies: 2_000,
            games: DEFAULT_GAMES,
            dir: None,
            tmpfs: false,
        };
        while let Some(a) = args.next() {
            match a.as_str() {
                "--plies" => {
                    o.plies = match args.next().and_then(|v| v.parse().ok()) {
                        Some(n) if n > 0 => n,
                        _ => return Err("--plies needs a number above 0".into()),
                    }
                }
                "--games" => {
                    o.games = match args.next().and_then(|v| v.parse().ok()) {
                        Some(n) if n > 0 => n,
                        _ => return Err("--games needs a number above 0".into()),
                    }
                }
                "--dir" => o.dir = Some(args.next().ok_or("--dir needs a directory")?.into()),
                "--tmpfs" => o.tmpfs = true,
                _ => {}
            }
        }
        Ok(o)
    }
}

fn main() -> ExitCode {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("tcp_relay: {e}");
            return ExitCode::from(2);
        }
    };
    let (dir, _temp) =
        match hops::files_dir(options.dir.as_deref(), options.tmpfs, "argus-tcp-relay-") {
            Ok(d) => d,
            Err(e) => {
                eprintln!("tcp_relay: {e}");
                return ExitCode::FAILURE;
            }
        };
    println!("tcp_relay: the referee's files in {}", dir.display());
    let plies = options.plies + WARM_UP;
    let argus = match argus_hops(plies, options.games, &dir) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("tcp_relay: argus: {e}");
            return ExitCode::FAILURE;
        }
    };
    let socat = match socat_hops(plies) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("tcp_relay: socat: {e}");
            return ExitCode::FAILURE;
        }
    };
    let hops: Vec<u64> = argus.iter().map(|&(hop, _)| hop).collect();
    let a = summary("tcp_relay", "argus referee", &hops);
    let s = summary("tcp_relay", "socat relay", &socat);
    println!(
        "tcp_relay: ratio argus / socat: median {:.2}, p90 {:.2}",
        a.0 as f64 / s.0.max(1) as f64,
        a.1 as f64 / s.1.max(1) as f64
    );
    let measured = argus.get(WARM_UP..).unwrap_or_default();
    if let (Some(first), Some(last)) = (measured.first(), measured.last()) {
        let span_us = last.1.saturating_sub(first.1).max(1);
        println!(
            "tcp_relay: argus referee: {:.0} plies/s over {:.2} s (game changes included)",
            (measured.len() - 1) as f64 * 1e6 / span_us as f64,
            span_us as f64 / 1e6
        );
    }
    ExitCode::SUCCESS
}

/// Starts the argus binary as a referee listening on `port`, writing to
/// `dir`; its output goes to `dir/referee.out`.
fn start_referee(port: u16, games: u32, dir: &Path) -> Result<Child, String> {
    let out = std::fs::File::create(dir.join("referee.out"))
        .map_err(|e| format!("{}: {e}", dir.join("referee.out").display()))?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    Command::new(env!("CARGO_BIN_EXE_argus"))
        .arg("referee")
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .args(["--games", &games.to_string()])
        .args(["--headless", "--reset-delay", "0", "--conclude-delay", "0"])
        .arg("--log-dir")
        .arg(dir.join("logs"))
        .args(["--event", "argus tcp relay benchmark"])
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", env!("CARGO_BIN_EXE_argus")))
}

/// Hops through the referee, `plies` of them: each with its read's time.
fn argus_hops(plies: usize, games: u32, dir: &Path) -> Result<Vec<(u64, u64)>, String> {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let mut referee = start_referee(port, games, dir)?;
    let epoch = Instant::now();
    let (stamps_tx, stamps_rx) = unbounded();
    let mut clients = Vec::new();
    for who in 0..2 {
        let tx = stamps_tx.clone();
        clients.push(thread::spawn(move || {
            let connector = Connector::Connect {
                host: "127.0.0.1".into(),
                port,
                hello: None,
            };
            hops::mover(who, connector, "bench", epoch, &tx);
        }));
    }
    drop(stamps_tx);
    let hops = collect_timed_hops(&stamps_rx, plies);
    let stopped = stop(&mut referee);
    for c in clients {
        let _ = c.join();
    }
    let said = std::fs::read_to_string(dir.join("referee.out")).unwrap_or_default();
    stopped.map_err(|e| format!("{e}; it said:\n{said}"))?;
    if hops.len() < plies {
        return Err(format!(
            "only {} of {plies} hops; the referee said:\n{said}",
            hops.len()
        ));
    }
    Ok(hops)
}

/// Stops the referee as Ctrl-C does (`kill -INT`), unless it is over, and
/// waits for it: an error if it failed or would not stop.
fn stop(referee: &mut Child) -> Result<(), String> {
    if referee.try_wait().map_err(|e| e.to_string())?.is_none() {
        let _ = Command::new("kill")
            .args(["-INT", &referee.id().to_string()])
            .status();
    }
    let deadline = Instant::now() + STOP_WAIT;
    loop {
        if let Some(status) = referee.try_wait().map_err(|e| e.to_string())? {
            // 0: its games played out; 3: ended early (the SIGINT).
            return match status.code() {
                Some(0 | 3) => Ok(()),
                _ => Err(format!("the referee ended with {status}")),
            };
        }
        if Instant::now() >= deadline {
            let _ = referee.kill();
            let _ = referee.wait();
            return Err(format!(
                "the referee did not stop within {} s of SIGINT",
                STOP_WAIT.as_secs()
            ));
        }
        thread::sleep(Duration::from_millis(20));
    }
}
/// One line through `socat TCP-LISTEN:P1 TCP:127.0.0.1:P2`, `n` times.
fn socat_hops(n: usize) -> Result<Vec<u64>, String> {
    let sink = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let p2 = sink.local_addr().map_err(|e| e.to_string())?.port();
    let p1 = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let mut socat = Command::new("socat")
        .arg(format!("TCP-LISTEN:{p1},bind=127.0.0.1,reuseaddr"))
        .arg(format!("TCP:127.0.0.1:{p2},nodelay"))
        .stdin(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start socat: {e}"))?;
    let result = (|| {
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut input = loop {
            match TcpStream::connect(("127.0.0.1", p1)) {
                Ok(s) => break s,
                Err(e) if Instant::now() >= deadline => return Err(format!("socat: {e}")),
                Err(_) => thread::sleep(Duration::from_millis(20)),
            }
        };
        input.set_nodelay(true).map_err(|e| e.to_string())?;
        let (output, _) = sink.accept().map_err(|e| e.to_string())?;
        let mut output = BufReader::new(output);
        let line = format!("{}\r\n", "x".repeat(98));
        let mut got = String::new();
        let epoch = Instant::now();
        let mut hops = Vec::with_capacity(n);
        for _ in 0..n {
            input
                .write_all(line.as_bytes())
                .map_err(|e| e.to_string())?;
            let t0 = epoch.elapsed();
            got.clear();
            output.read_line(&mut got).map_err(|e| e.to_string())?;
            let t1 = epoch.elapsed();
            hops.push(u64::try_from((t1 - t0).as_micros()).unwrap_or(u64::MAX));
        }
        Ok(hops)
    })();
    let _ = socat.kill();
    let _ = socat.wait();
    result
}
