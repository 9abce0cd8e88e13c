//! The cable relay benchmark (issue 20's first ratio): how long a move
//! takes from one client to the other through `argus referee` over socat
//! cables, with its journal on disk and on tmpfs, against a dumb relay
//! (socat joining the referee's two cable ends) in the same run.
//!
//! * Cables: `socat pty,raw,echo=0,link=A.ref pty,raw,echo=0,link=A.cli`,
//!   the same for B: the null-modem cables of a developer's machine.
//! * argus: the release `argus` binary, `argus referee A.ref B.ref
//!   --headless --pgn DIR/bench.pgn --log-dir DIR/logs` (so it writes its
//!   journal, synced before each relayed move, its transcript and its log,
//!   as at an event), two instant random movers (the library's client) on
//!   A.cli and B.cli. A hop: a client's reply written (its link's `Sent`
//!   stamp) to the other client reading the `respond` that relays it (its
//!   `Line` stamp).
//! * Dumb relay: `socat A.ref B.ref` instead of argus, two clients on the
//!   same links playing ping-pong with 100-byte lines, stamped the same way.
//!
//! DIR is on disk (`target/tmp`, or `--disk DIR`) and on tmpfs (`/dev/shm`,
//! or `--tmpfs DIR`). The three set-ups run in turn, `--rounds` times
//! (default 2), and the hops of each are pooled; it prints each one's
//! median/p90/p99, the floor the disk sets (a 100-byte append and
//! `fdatasync`, timed in the same directories), one thread hand-off (a
//! channel to a parked thread: argus's reader, loop and writer threads
//! make two per move that socat does not), the ratios of the medians to
//! the dumb relay's, and the floor those give (dumb hop + 2 hand-offs, +
//! the sync on disk).
//!
//! `--before PATH` adds another argus binary (an earlier build, copied
//! aside before a change) on disk and on tmpfs to every round, so a change
//! is measured against what it replaced in the same run.
//!
//! Run: `cargo bench --bench cable_relay` (needs socat), or
//! `-- --plies 2000 --rounds 3`, or `-- --before /tmp/argus-before`.

#[path = "hops.rs"]
mod hops;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use argus::link::{Connector, PortSettings};
use crossbeam_channel::{Sender, unbounded};
use hops::{Stamp, WARM_UP, collect_hops, summary};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const ME: &str = "cable_relay";

struct Options {
    plies: usize,
    rounds: usize,
    disk: PathBuf,
    tmpfs: PathBuf,
    before: Option<PathBuf>,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        plies: 2_000,
        rounds: 2,
        disk: PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cable-relay"),
        tmpfs: PathBuf::from("/dev/shm/argus-cable-relay"),
        before: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--plies" => o.plies = value()?.parse().map_err(|_| "--plies: a number")?,
            "--rounds" => o.rounds = value()?.parse().map_err(|_| "--rounds: a number")?,
            "--disk" => o.disk = value()?.into(),
            "--tmpfs" => o.tmpfs = value()?.into(),
            "--before" => o.before = Some(value()?.into()),
            "--bench" => {}
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if o.plies == 0 || o.rounds == 0 {
        return Err("--plies and --rounds must be at least 1".into());
    }
    Ok(o)
}

fn main() -> ExitCode {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{ME}: {e}");
            return ExitCode::from(2);
        }
    };
    let argus = PathBuf::from(env!("CARGO_BIN_EXE_argus"));
    let (disk, tmpfs) = (&o.disk, &o.tmpfs);
    // Each set-up: its name and how to take its times once.
    type Run<'a> = Box<dyn Fn() -> Result<Vec<u64>, String> + 'a>;
    let n = o.plies + WARM_UP;
    let mut setups: Vec<(String, Run)> = vec![
        (
            "dumb relay (socat)".into(),
            Box::new(|| dumb_hops(&o.disk, n)),
        ),
        (
            format!("argus, journal on disk ({})", o.disk.display()),
            Box::new(|| argus_hops(&argus, &o.disk, n)),
        ),
        (
            format!("argus, journal on tmpfs ({})", o.tmpfs.display()),
            Box::new(|| argus_hops(&argus, &o.tmpfs, n)),
        ),
        (
            "floor: a 100-byte append and fdatasync on disk".into(),
            Box::new(|| sync_times(&o.disk, o.plies.min(1_000) + WARM_UP)),
        ),
        (
            "floor: a 100-byte append and fdatasync on tmpfs".into(),
            Box::new(|| sync_times(&o.tmpfs, o.plies.min(1_000) + WARM_UP)),
        ),
        (
            "floor: one thread hand-off (a channel to a parked thread)".into(),
            Box::new(|| handoff_times(o.plies.min(1_000) + WARM_UP)),
        ),
    ];
    if let Some(before) = &o.before {
        setups.push((
            format!("before ({}), journal on disk", before.display()),
            Box::new(move || argus_hops(before, disk, n)),
        ));
        setups.push((
            format!("before ({}), journal on tmpfs", before.display()),
            Box::new(move || argus_hops(before, tmpfs, n)),
        ));
    }
    let mut pooled = vec![Vec::new(); setups.len()];
    for round in 0..o.rounds {
        for ((_, run), pool) in setups.iter().zip(pooled.iter_mut()) {
            match run() {
                Ok(h) => pool.extend(h.get(WARM_UP..).unwrap_or_default()),
                Err(e) => {
                    eprintln!("{ME}: round {}: {e}", round + 1);
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    // The pools hold no warm-up hops: pad so `summary` skips nothing real.
    let pad = |v: &Vec<u64>| [vec![0; WARM_UP], v.clone()].concat();
    let medians: Vec<(u64, u64)> = setups
        .iter()
        .zip(&pooled)
        .map(|((name, _), pool)| summary(ME, name, &pad(pool)))
        .collect();
    let ratio = |i: usize| medians[i].0 as f64 / medians[0].0.max(1) as f64;
    println!(
        "{ME}: ratio of medians to the dumb relay: journal on disk {:.2}, on tmpfs {:.2}",
        ratio(1),
        ratio(2)
    );
    // argus's shape (a reader thread, the loop, a writer thread) puts two
    // hand-offs on every relayed move that socat's one thread does not
    // make, and on disk the journal's sync.
    let (dumb, handoff) = (medians[0].0, medians[5].0);
    let floor_tmpfs = dumb + 2 * handoff;
    let floor_disk = floor_tmpfs + medians[3].0;
    println!(
        "{ME}: floor (dumb hop + 2 hand-offs [+ sync]): tmpfs {floor_tmpfs} us ({:.2}), \
         disk {floor_disk} us ({:.2})",
        floor_tmpfs as f64 / dumb.max(1) as f64,
        floor_disk as f64 / dumb.max(1) as f64
    );
    if o.before.is_some() {
        println!(
            "{ME}: the build before: journal on disk {:.2}, on tmpfs {:.2}",
            ratio(6),
            ratio(7)
        );
    }
    ExitCode::SUCCESS
}

/// How long appending a journal-sized line and `fdatasync` take in
/// `base` (what the journal's durability costs each relayed move at
/// least), `n` times.
fn sync_times(base: &Path, n: usize) -> Result<Vec<u64>, String> {
    let dir = fresh(base, "sync")?;
    let path = dir.join("sync.bin");
    let mut f = std::fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let line = [b'x'; 100];
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let t0 = Instant::now();
        f.write_all(&line)
            .and_then(|()| f.sync_data())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        times.push(u64::try_from(t0.elapsed().as_micros()).unwrap_or(u64::MAX));
    }
    Ok(times)
}

/// How long a value sent on a channel takes to reach a thread parked on
/// it (what argus's reader-to-loop and loop-to-writer steps cost at
/// least), `n` times: the sender waits 300 µs before each send, so the
/// receiver is asleep.
fn handoff_times(n: usize) -> Result<Vec<u64>, String> {
    let (tx, rx) = crossbeam_channel::bounded::<Instant>(1);
    let receiver = thread::spawn(move || {
        rx.iter()
            .map(|sent| u64::try_from(sent.elapsed().as_micros()).unwrap_or(u64::MAX))
            .collect::<Vec<u64>>()
    });
    for _ in 0..n {
        thread::sleep(Duration::from_micros(300));
        tx.send(Instant::now())
            .map_err(|_| "the hand-off receiver stopped".to_string())?;
    }
    drop(tx);
    receiver
        .join()
        .map_err(|_| "the hand-off receiver panicked".to_string())
}

/// A child process (socat, argus), killed when dropped.
struct Process(Child);

/// Starts `command` with no input and no output.
fn quiet(command: &mut Command) -> Result<Process, String> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map(Process)
        .map_err(|e| format!("cannot start {:?}: {e}", command.get_program()))
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A virtual null-modem cable: a socat pty pair with its ends linked at
/// `DIR/NAME.ref` (the referee's) and `DIR/NAME.cli` (the client's).
fn cable(dir: &Path, name: &str) -> Result<(Process, String, String), String> {
    let (r, c) = (
        dir.join(format!("{name}.ref")),
        dir.join(format!("{name}.cli")),
    );
    for p in [&r, &c] {
        let _ = std::fs::remove_file(p);
    }
    let process = quiet(
        Command::new("socat")
            .arg(format!("pty,raw,echo=0,link={}", r.display()))
            .arg(format!("pty,raw,echo=0,link={}", c.display())),
    )?;
    let deadline = Instant::now() + Duration::from_secs(5);
    while !(r.exists() && c.exists()) {
        if Instant::now() > deadline {
            return Err("socat made no pty pair within 5 s".into());
        }
        thread::sleep(Duration::from_millis(10));
    }
    Ok((process, r.display().to_string(), c.display().to_string()))
}

fn serial(path: &str) -> Connector {
    Connector::Serial {
        path: path.to_string(),
        settings: PortSettings::default(),
    }
}

/// A fresh directory `base/name-N`, N counting the runs: a client of an
/// earlier run that is still reopening its cable's path never finds a
/// new cable there.
fn fresh(base: &Path, name: &str) -> Result<PathBuf, String> {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = base.join(format!("{name}-{run}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    Ok(dir)
}

/// Two cables joined by socat, ping-pong between their client ends.
fn dumb_hops(base: &Path, n: usize) -> Result<Vec<u64>, String> {
    let middle = |a_ref: &str, b_ref: &str, _: &Path| {
        quiet(
            Command::new("socat")
                .arg(format!("FILE:{a_ref},raw,echo=0"))
                .arg(format!("FILE:{b_ref},raw,echo=0")),
        )
    };
    let client = move |who, path: String, epoch, tx: Sender<Stamp>| {
        hops::pinger(who, serial(&path), &path, epoch, &tx, n);
    };
    hops_between(base, "dumb", n, middle, client)
}

/// Two cables with `argus referee` (the binary `argus`) between them, its
/// files in `base`.
fn argus_hops(argus: &Path, base: &Path, n: usize) -> Result<Vec<u64>, String> {
    let middle = |a_ref: &str, b_ref: &str, dir: &Path| {
        quiet(
            Command::new(argus)
                .args(["referee", a_ref, b_ref, "--headless", "--games", "10000"])
                .args(["--reset-delay", "0", "--conclude-delay", "0"])
                .arg("--pgn")
                .arg(dir.join("bench.pgn"))
                .arg("--log-dir")
                .arg(dir.join("logs")),
        )
    };
    let client = |who, path: String, epoch, tx: Sender<Stamp>| {
        hops::mover(who, serial(&path), &path, epoch, &tx);
    };
    hops_between(base, "argus", n, middle, client)
}

/// Two fresh cables in `base/name` with `middle` (given both referee ends
/// and the directory) between them and `client` on each client end (B's
/// first): the first `n` hops between the clients.
fn hops_between(
    base: &Path,
    name: &str,
    n: usize,
    middle: impl FnOnce(&str, &str, &Path) -> Result<Process, String>,
    client: impl Fn(usize, String, Instant, Sender<Stamp>) + Clone + Send + 'static,
) -> Result<Vec<u64>, String> {
    let dir = fresh(base, name)?;
    let (_a, a_ref, a_cli) = cable(&dir, "A")?;
    let (_b, b_ref, b_cli) = cable(&dir, "B")?;
    let _middle = middle(&a_ref, &b_ref, &dir)?;
    thread::sleep(Duration::from_millis(300));
    let epoch = Instant::now();
    let (tx, rx) = unbounded();
    for (who, path) in [(1, b_cli), (0, a_cli)] {
        let (tx, client) = (tx.clone(), client.clone());
        thread::spawn(move || client(who, path, epoch, tx));
        thread::sleep(Duration::from_millis(100));
    }
    drop(tx);
    let hops = collect_hops(&rx, n);
    if hops.len() < n {
        return Err(format!(
            "{name} in {}: only {} of {n} hops",
            dir.display(),
            hops.len()
        ));
    }
    Ok(hops)
}
