//! The links benchmark (issue 35): argus's TCP links against a bare
//! readiness loop for all sockets, the same relay workload side by side,
//! at 1, 10, 50 and 100 boards (2, 20, 100 and 200 connections). (Until
//! 2026-11-29 argus's links had a reader and a writer thread each, and
//! this bench chose between the two: docs/performance.md; now they are on
//! one readiness loop themselves, `link::poll`.)
//!
//! * The clients (this process): a board is two TCP clients ping-ponging
//!   a 117-byte EPD-like line through the referee, one thread per board
//!   writing on one socket and reading the other's, all boards at once.
//!   A hop is from the client's write returning to the other client's
//!   read returning; every relayed line is checked against the one sent.
//!   Each client listens on a loopback port of its own and the referee
//!   connects to it, as a `tcp://` link does.
//! * The referee (this bench again, `--referee VARIANT PORTS`, a fresh
//!   process per run, so that its memory, threads and CPU time are its
//!   own): `argus` opens one [`argus::link::Link`] per connection
//!   (`Connector::Connect`, argus's own links on its readiness loop, every
//!   event on one channel as the director has them) and a loop thread
//!   that sends each line read on connection 2i to connection 2i+1 and
//!   back; `readiness` is one `mio` thread polling every socket, framing
//!   lines with argus's [`Framer`] and writing them to the paired socket
//!   without blocking (what would block is buffered, at most
//!   [`OUT_CAP`] bytes a socket; a socket whose peer's buffer is full is
//!   not read until it drains); `handoff` is the same poll thread handing
//!   each line to a loop thread over a channel and getting it back to
//!   write (woken by a `mio::Waker`), as argus's loop would sit behind one
//!   poll thread for all its sockets.
//!
//! Per variant and size: hops, the hop's median and p99 (us), lines/s
//! over the measured phase, the referee's CPU time (user+sys from
//! `getrusage` over the measured phase) and per line, its resident memory
//! (VmRSS) growth from before the links opened to after they were open
//! and warmed up (thread stacks included), per connection, and its
//! thread count (`/proc/self/status`).
//!
//! Run: `cargo bench --bench links`, or with `-- --hops 500` (hops per
//! board; default max(500, 20000 / boards)) and `--boards 1,10`. A run
//! that sees nothing for 20 s fails with a message.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use argus::link::framer::{Frame, Framer};
use argus::link::{Connector, Link, LinkEventKind, PortSettings};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};

#[path = "hops.rs"]
mod hops;
use hops::percentile;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The boards of a run when `--boards` is not given.
const SIZES: [usize; 4] = [1, 10, 50, 100];
/// Hops per board before the measured phase (connections, caches and the
/// allocator warm up; the memory is read after them).
const WARM_HOPS: usize = 20;
/// A run that sees nothing for this long has failed.
const STALL: Duration = Duration::from_secs(20);
/// The most a relayed line may be, line end included, as the clients read
/// it (longer is an error, not a growing buffer).
const MAX_READ: u64 = 1024;
/// The readiness loop buffers at most this much for one socket.
const OUT_CAP: usize = 64 * 1024;
/// How often a relay loop looks for the stop request.
const STOP_POLL: Duration = Duration::from_millis(50);

/// Every variant, in the order each size runs them.
const VARIANTS: [Variant; 3] = [Variant::Argus, Variant::Readiness, Variant::Handoff];

/// How the referee relays.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Variant {
    Argus,
    Readiness,
    Handoff,
}

impl Variant {
    fn name(self) -> &'static str {
        match self {
            Variant::Argus => "argus",
            Variant::Readiness => "readiness",
            Variant::Handoff => "handoff",
        }
    }

    fn parse(text: &str) -> Option<Variant> {
        VARIANTS.into_iter().find(|v| v.name() == text)
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--referee") {
        return match referee(args.get(i + 1..).unwrap_or_default()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("links: referee: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let (sizes, hops) = match parse_options(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("links: {e}");
            return ExitCode::from(2);
        }
    };
    print_machine();
    for boards in sizes {
        let n = hops.unwrap_or((20_000 / boards).max(500));
        for variant in VARIANTS {
            match run(variant, boards, n) {
                Ok(r) => r.print(),
                Err(e) => {
                    eprintln!("links: {} at {boards} boards: {e}", variant.name());
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    ExitCode::SUCCESS
}

/// `--boards 1,10,...` and `--hops N`; other arguments (cargo's
/// `--bench`) are ignored.
fn parse_options(args: &[String]) -> Result<(Vec<usize>, Option<usize>), String> {
    let mut sizes = SIZES.to_vec();
    let mut hops = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--boards" => {
                let v = it.next().ok_or("--boards needs a list, e.g. 1,10")?;
                sizes = v
                    .split(',')
                    .map(|s| s.parse().ok().filter(|&n: &usize| (1..=500).contains(&n)))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| format!("--boards {v:?}: numbers from 1 to 500, with commas"))?;
            }
            "--hops" => {
                hops = match it.next().and_then(|v| v.parse().ok()) {
                    Some(n) if (2..=1_000_000).contains(&n) => Some(n),
                    _ => return Err("--hops needs a number from 2 to 1000000".into()),
                }
            }
            _ => {}
        }
    }
    Ok((sizes, hops))
}

fn print_machine() {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "?".into());
    let load = std::fs::read_to_string("/proc/loadavg")
        .map(|t| t.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into());
    let date = Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|_| "?".into());
    let cores = thread::available_parallelism().map_or(0, |n| n.get());
    println!("links: date {date}; cpu {cpu}; cores {cores}; load {load} (1, 5, 15 min)");
}

/// What one run measured.
struct Report {
    variant: Variant,
    boards: usize,
    hops: Vec<u64>,
    wall: Duration,
    cpu_us: u64,
    rss_before_kib: u64,
    rss_after_kib: u64,
    threads: u64,
}

impl Report {
    fn print(mut self) {
        self.hops.sort_unstable();
        let p = |q: f64| percentile(&self.hops, q);
        let n = self.hops.len();
        let conns = 2 * self.boards;
        let rss = self.rss_after_kib.saturating_sub(self.rss_before_kib);
        println!(
            "links: {:<9} {:>3} boards {:>3} conns: {n} hops, us median {} p99 {}, \
             {:.0} lines/s, referee cpu {} ms ({:.1} us/line), rss +{rss} KiB \
             ({:.1} KiB/conn; {} KiB before), {} threads",
            self.variant.name(),
            self.boards,
            conns,
            p(50.0),
            p(99.0),
            n as f64 / self.wall.as_secs_f64().max(1e-9),
            self.cpu_us / 1000,
            self.cpu_us as f64 / n.max(1) as f64,
            rss as f64 / conns as f64,
            self.rss_before_kib,
            self.threads
        );
    }
}

/// One board's two client connections (to connection 2i and 2i+1 of the
/// referee).
struct Board {
    index: usize,
    a: BufReader<TcpStream>,
    b: BufReader<TcpStream>,
}

impl Board {
    /// Ping-pongs `n` lines (a to b, b to a, ...): each hop in us.
    fn play(&mut self, n: usize) -> Result<Vec<u64>, String> {
        let mut hops = Vec::with_capacity(n);
        let mut got = String::new();
        for k in 0..n {
            let (from, to) = if k % 2 == 0 {
                (&mut self.a, &mut self.b)
            } else {
                (&mut self.b, &mut self.a)
            };
            let text = epd_line(self.index, k);
            from.get_mut()
                .write_all(format!("{text}\r\n").as_bytes())
                .map_err(|e| format!("board {}, line {k}: write: {e}", self.index))?;
            let wrote = Instant::now();
            got.clear();
            let read = to
                .by_ref()
                .take(MAX_READ)
                .read_line(&mut got)
                .map_err(|e| match e.kind() {
                    ErrorKind::WouldBlock | ErrorKind::TimedOut => format!(
                        "board {}, line {k}: nothing relayed for {STALL:?}",
                        self.index
                    ),
                    _ => format!("board {}, line {k}: read: {e}", self.index),
                })?;
            let at = Instant::now();
            if read == 0 {
                return Err(format!(
                    "board {}, line {k}: the referee closed",
                    self.index
                ));
            }
            if got.trim_end_matches(['\r', '\n']) != text {
                return Err(format!(
                    "board {}, line {k}: relayed {got:?}, sent {text:?}",
                    self.index
                ));
            }
            hops.push(u64::try_from(at.duration_since(wrote).as_micros()).unwrap_or(u64::MAX));
        }
        Ok(hops)
    }
}

/// The line a board sends as its `k`th: a position, its board and count.
fn epd_line(board: usize, k: usize) -> String {
    format!(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 hmvc 0; fmvn 1; \
         id \"board {board:03} line {k:06}\"; c0 \"links bench\";"
    )
}

/// Every board plays `n` hops at once; all hops.
fn play_all(boards: &mut [Board], n: usize) -> Result<Vec<u64>, String> {
    let results: Vec<Result<Vec<u64>, String>> = thread::scope(|s| {
        let handles: Vec<_> = boards
            .iter_mut()
            .map(|b| s.spawn(move || b.play(n)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a board's thread panicked".into()))
            })
            .collect()
    });
    let mut all = Vec::with_capacity(n * boards.len());
    for r in results {
        all.extend(r?);
    }
    Ok(all)
}

/// The referee process and its lines on stdout.
struct RefereeProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl RefereeProcess {
    fn start(variant: Variant, ports: &[u16]) -> Result<RefereeProcess, String> {
        let exe = std::env::current_exe().map_err(|e| format!("this bench's path: {e}"))?;
        let ports: Vec<String> = ports.iter().map(u16::to_string).collect();
        let mut child = Command::new(exe)
            .args(["--referee", variant.name(), &ports.join(",")])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the referee process: {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("the referee process has no stdin or stdout".into());
        };
        let (tx, lines) = unbounded();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(RefereeProcess {
            child,
            stdin,
            lines,
        })
    }

    /// Says `word` (if any) and waits for the answer starting with `want`.
    fn ask(&mut self, word: Option<&str>, want: &str) -> Result<Vec<u64>, String> {
        if let Some(w) = word {
            writeln!(self.stdin, "{w}").map_err(|e| format!("telling the referee {w}: {e}"))?;
        }
        let line = match self.lines.recv_timeout(STALL) {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!(
                    "the referee said nothing for {STALL:?} (waiting for {want})"
                ));
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(format!("the referee ended before saying {want}"));
            }
        };
        let mut words = line.split_whitespace();
        if words.next() != Some(want) {
            return Err(format!("the referee said {line:?}, expected {want}"));
        }
        words
            .map(|w| w.parse().map_err(|_| format!("the referee said {line:?}")))
            .collect()
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One run: `boards` boards through a fresh referee of `variant`.
fn run(variant: Variant, boards: usize, n: usize) -> Result<Report, String> {
    let listeners = (0..2 * boards)
        .map(|_| TcpListener::bind("127.0.0.1:0"))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("cannot listen on loopback: {e}"))?;
    let ports = listeners
        .iter()
        .map(|l| l.local_addr().map(|a| a.port()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("a listener's port: {e}"))?;
    let mut referee = RefereeProcess::start(variant, &ports)?;
    let measured = measure(&mut referee, &listeners, variant, boards, n);
    match measured {
        Ok(report) => {
            // The clients' sockets are closed by now: the referee ends.
            let deadline = Instant::now() + STALL;
            loop {
                match referee.child.try_wait() {
                    Ok(Some(status)) if status.success() => return Ok(report),
                    Ok(Some(status)) => return Err(format!("the referee ended with {status}")),
                    Ok(None) if Instant::now() < deadline => {
                        thread::sleep(Duration::from_millis(10));
                    }
                    Ok(None) => {
                        referee.kill();
                        return Err(format!("the referee did not end within {STALL:?}"));
                    }
                    Err(e) => return Err(format!("waiting for the referee: {e}")),
                }
            }
        }
        Err(e) => {
            referee.kill();
            Err(e)
        }
    }
}

fn measure(
    referee: &mut RefereeProcess,
    listeners: &[TcpListener],
    variant: Variant,
    boards: usize,
    n: usize,
) -> Result<Report, String> {
    let opened = referee.ask(None, "open")?;
    let rss_before_kib = opened.first().copied().unwrap_or(0);
    let mut conns = Vec::with_capacity(listeners.len());
    for (i, l) in listeners.iter().enumerate() {
        conns.push(accept(l).map_err(|e| format!("connection {i}: {e}"))?);
    }
    let mut list = Vec::with_capacity(boards);
    let mut it = conns.into_iter();
    while let (Some(a), Some(b)) = (it.next(), it.next()) {
        list.push(Board {
            index: list.len(),
            a: BufReader::new(a),
            b: BufReader::new(b),
        });
    }
    play_all(&mut list, WARM_HOPS)?;
    let warm = referee.ask(Some("measure"), "warm")?;
    let started = Instant::now();
    let hops = play_all(&mut list, n)?;
    let wall = started.elapsed();
    let cpu = referee.ask(Some("end"), "cpu")?;
    drop(list);
    Ok(Report {
        variant,
        boards,
        hops,
        wall,
        cpu_us: cpu.first().copied().unwrap_or(0),
        rss_before_kib,
        rss_after_kib: warm.first().copied().unwrap_or(0),
        threads: warm.get(1).copied().unwrap_or(0),
    })
}

/// The referee's connection to `l`, within [`STALL`].
fn accept(l: &TcpListener) -> Result<TcpStream, String> {
    l.set_nonblocking(true)
        .map_err(|e| format!("non-blocking listener: {e}"))?;
    let deadline = Instant::now() + STALL;
    let s = loop {
        match l.accept() {
            Ok((s, _)) => break s,
            Err(e) if e.kind() == ErrorKind::WouldBlock && Instant::now() < deadline => {
                thread::sleep(Duration::from_millis(1));
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                return Err(format!("the referee did not connect within {STALL:?}"));
            }
            Err(e) => return Err(format!("accept: {e}")),
        }
    };
    s.set_nonblocking(false)
        .and_then(|()| s.set_nodelay(true))
        .and_then(|()| s.set_read_timeout(Some(STALL)))
        .and_then(|()| s.set_write_timeout(Some(STALL)))
        .map_err(|e| format!("setting up the client's socket: {e}"))?;
    Ok(s)
}

// ---- the referee process ----

/// `--referee VARIANT PORT,PORT,...`: opens the links, relays, and
/// answers on stdout: `open RSS` (KiB, before the links opened), then on
/// `measure`: `warm RSS THREADS`, then on `end`: `cpu US` (user+sys
/// since `measure`); then stops.
fn referee(args: &[String]) -> Result<(), String> {
    let variant = args
        .first()
        .and_then(|v| Variant::parse(v))
        .ok_or("expected argus, readiness or handoff")?;
    let ports = args
        .get(1)
        .ok_or("expected the clients' ports")?
        .split(',')
        .map(str::parse)
        .collect::<Result<Vec<u16>, _>>()
        .map_err(|e| format!("the clients' ports: {e}"))?;
    if ports.is_empty() || ports.len() % 2 != 0 {
        return Err(format!(
            "{} ports: expected a positive even number",
            ports.len()
        ));
    }
    let rss_before = status_kib("VmRSS:");
    let stop = Arc::new(AtomicBool::new(false));
    let relay = match variant {
        Variant::Argus => start_argus(&ports, Arc::clone(&stop))?,
        Variant::Readiness => start_readiness(&ports, Arc::clone(&stop), false)?,
        Variant::Handoff => start_readiness(&ports, Arc::clone(&stop), true)?,
    };
    let mut out = std::io::stdout();
    let mut stdin = std::io::stdin().lock();
    let mut word = String::new();
    let mut next = |word: &mut String| -> Result<String, String> {
        word.clear();
        stdin
            .by_ref()
            .take(64)
            .read_line(word)
            .map_err(|e| format!("stdin: {e}"))?;
        Ok(word.trim().to_string())
    };
    let say = |out: &mut std::io::Stdout, text: String| {
        writeln!(out, "{text}")
            .and_then(|()| out.flush())
            .map_err(|e| format!("stdout: {e}"))
    };
    say(&mut out, format!("open {rss_before}"))?;
    if next(&mut word)? != "measure" {
        return Err("expected measure".into());
    }
    let cpu_before = cpu_us();
    say(
        &mut out,
        format!("warm {} {}", status_kib("VmRSS:"), status_kib("Threads:")),
    )?;
    if next(&mut word)? != "end" {
        return Err("expected end".into());
    }
    let cpu = cpu_us().saturating_sub(cpu_before);
    say(&mut out, format!("cpu {cpu}"))?;
    stop.store(true, Ordering::SeqCst);
    relay
        .join()
        .map_err(|_| "the relay thread panicked".to_string())?
}

/// A number from `/proc/self/status` (`VmRSS:` in KiB, `Threads:`); 0
/// when it cannot be read.
fn status_kib(key: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix(key))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// This process's CPU time so far (user+sys), in microseconds.
fn cpu_us() -> u64 {
    // SAFETY: getrusage only writes the struct it is given, which is a
    // plain-data struct for which all zeroes is a valid value.
    let ru = unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut ru) != 0 {
            return 0;
        }
        ru
    };
    let us = |t: libc::timeval| {
        u64::try_from(t.tv_sec).unwrap_or(0) * 1_000_000 + u64::try_from(t.tv_usec).unwrap_or(0)
    };
    us(ru.ru_utime) + us(ru.ru_stime)
}

/// argus's links, one per port (TCP links: on argus's one readiness
/// loop, `link::poll`), and the loop thread relaying between them.
fn start_argus(
    ports: &[u16],
    stop: Arc<AtomicBool>,
) -> Result<thread::JoinHandle<Result<(), String>>, String> {
    let epoch = Instant::now();
    let (tx, rx) = unbounded();
    let mut links = Vec::with_capacity(ports.len());
    for (i, &port) in ports.iter().enumerate() {
        let connector = Connector::Connect {
            host: "127.0.0.1".into(),
            port,
            hello: None,
        };
        let path = format!("tcp://127.0.0.1:{port}");
        let link = Link::open_with(
            i,
            connector,
            &path,
            PortSettings::default(),
            epoch,
            tx.clone(),
        )
        .map_err(|e| format!("{path}: {e}"))?;
        links.push(link);
    }
    drop(tx);
    thread::Builder::new()
        .name("relay".into())
        .spawn(move || {
            let mut seq = 0u64;
            while !stop.load(Ordering::SeqCst) {
                let ev = match rx.recv_timeout(STOP_POLL) {
                    Ok(ev) => ev,
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => break,
                };
                if let LinkEventKind::Line { text, .. } = ev.kind {
                    seq += 1;
                    let to = &links[ev.id ^ 1];
                    to.send(seq, text)
                        .map_err(|e| format!("connection {}: {e}", ev.id ^ 1))?;
                }
            }
            Ok(())
        })
        .map_err(|e| format!("cannot start the relay thread: {e}"))
}

/// One connection of the readiness loop.
struct Conn {
    stream: mio::net::TcpStream,
    framer: Framer<()>,
    /// Bytes waiting for the socket to take them (at most [`OUT_CAP`]).
    out: Vec<u8>,
    /// Not read because the paired socket's `out` is full.
    paused: bool,
    closed: bool,
}

/// The poll thread's channels to the loop thread (`handoff`): lines read
/// (connection, text) go, lines to write come back. Unbounded: each board
/// has one line in flight at a time.
struct Hand {
    to_loop: Sender<(usize, String)>,
    back: Receiver<(usize, String)>,
}

/// The token of the loop thread's waker (no connection's).
const WAKE: mio::Token = mio::Token(usize::MAX);

/// One thread polling every socket, relaying lines between pairs (with
/// `handoff`, through a loop thread).
fn start_readiness(
    ports: &[u16],
    stop: Arc<AtomicBool>,
    handoff: bool,
) -> Result<thread::JoinHandle<Result<(), String>>, String> {
    let poll = mio::Poll::new().map_err(|e| format!("mio::Poll: {e}"))?;
    let mut conns = Vec::with_capacity(ports.len());
    for (i, &port) in ports.iter().enumerate() {
        let s = TcpStream::connect(("127.0.0.1", port))
            .and_then(|s| s.set_nodelay(true).map(|()| s))
            .and_then(|s| s.set_nonblocking(true).map(|()| s))
            .map_err(|e| format!("127.0.0.1:{port}: {e}"))?;
        let mut stream = mio::net::TcpStream::from_std(s);
        poll.registry()
            .register(
                &mut stream,
                mio::Token(i),
                mio::Interest::READABLE | mio::Interest::WRITABLE,
            )
            .map_err(|e| format!("127.0.0.1:{port}: register: {e}"))?;
        conns.push(Conn {
            stream,
            framer: Framer::new(),
            out: Vec::new(),
            paused: false,
            closed: false,
        });
    }
    let (hand, the_loop) = if handoff {
        let waker =
            mio::Waker::new(poll.registry(), WAKE).map_err(|e| format!("mio::Waker: {e}"))?;
        let (to_loop, lines) = unbounded::<(usize, String)>();
        let (to_poll, back) = unbounded();
        let the_loop = thread::Builder::new()
            .name("loop".into())
            .spawn(move || {
                for (from, text) in lines {
                    if to_poll.send((from ^ 1, text)).is_err() || waker.wake().is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| format!("cannot start the loop thread: {e}"))?;
        (Some(Hand { to_loop, back }), Some(the_loop))
    } else {
        (None, None)
    };
    thread::Builder::new()
        .name("relay".into())
        .spawn(move || {
            let r = readiness_loop(poll, conns, hand.as_ref(), &stop);
            drop(hand);
            if let Some(t) = the_loop {
                t.join()
                    .map_err(|_| "the loop thread panicked".to_string())?;
            }
            r
        })
        .map_err(|e| format!("cannot start the relay thread: {e}"))
}

fn readiness_loop(
    mut poll: mio::Poll,
    mut conns: Vec<Conn>,
    hand: Option<&Hand>,
    stop: &AtomicBool,
) -> Result<(), String> {
    let mut events = mio::Events::with_capacity(1024);
    let mut buf = vec![0u8; 4096];
    while !stop.load(Ordering::SeqCst) {
        match poll.poll(&mut events, Some(STOP_POLL)) {
            Ok(()) => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("poll: {e}")),
        }
        for ev in &events {
            let i = ev.token().0;
            if i >= conns.len() {
                continue;
            }
            if ev.is_writable() {
                flush(&mut conns[i]).map_err(|e| format!("connection {i}: write: {e}"))?;
                let j = i ^ 1;
                if conns[j].paused && conns[i].out.len() < OUT_CAP {
                    conns[j].paused = false;
                    read_ready(&mut conns, j, &mut buf, hand)?;
                }
            }
            if ev.is_readable() {
                read_ready(&mut conns, i, &mut buf, hand)?;
            }
        }
        if let Some(h) = hand {
            for (to, text) in h.back.try_iter() {
                let c = &mut conns[to];
                c.out.extend_from_slice(text.as_bytes());
                c.out.extend_from_slice(b"\r\n");
                if c.out.len() > OUT_CAP {
                    return Err(format!("connection {to}: over {OUT_CAP} bytes waiting"));
                }
                flush(c).map_err(|e| format!("connection {to}: write: {e}"))?;
            }
        }
    }
    Ok(())
}

/// Reads connection `i` until it would block, relaying its lines to its
/// pair; pauses it when the pair's buffer is full.
fn read_ready(
    conns: &mut [Conn],
    i: usize,
    buf: &mut [u8],
    hand: Option<&Hand>,
) -> Result<(), String> {
    let j = i ^ 1;
    loop {
        if conns[i].closed {
            return Ok(());
        }
        if conns[j].out.len() >= OUT_CAP {
            conns[i].paused = true;
            return Ok(());
        }
        match conns[i].stream.read(buf) {
            Ok(0) => conns[i].closed = true,
            Ok(n) => {
                let frames = conns[i].framer.push(&buf[..n], ());
                for f in frames {
                    let Frame::Line { text, .. } = f else {
                        continue;
                    };
                    if let Some(h) = hand {
                        h.to_loop
                            .send((i, text))
                            .map_err(|_| "the loop thread is gone".to_string())?;
                    } else {
                        conns[j].out.extend_from_slice(text.as_bytes());
                        conns[j].out.extend_from_slice(b"\r\n");
                    }
                }
                flush(&mut conns[j]).map_err(|e| format!("connection {j}: write: {e}"))?;
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(()),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            // The clients are gone: the run is over.
            Err(e) if e.kind() == ErrorKind::ConnectionReset => conns[i].closed = true,
            Err(e) => return Err(format!("connection {i}: read: {e}")),
        }
    }
}

/// Writes what connection `c` holds until the socket would block.
fn flush(c: &mut Conn) -> std::io::Result<()> {
    while !c.out.is_empty() && !c.closed {
        match c.stream.write(&c.out) {
            Ok(0) => return Err(ErrorKind::WriteZero.into()),
            Ok(n) => {
                c.out.drain(..n);
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(()),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
