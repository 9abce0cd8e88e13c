//! Helpers shared by the integration tests in `hw-tests/`: virtual
//! null-modem cables made with socat, skipping when socat is missing, a
//! plain peer port, waiting for link events, and the path of the built
//! `argus` binary; in submodules, child processes with captured output
//! ([`process`]) and the two-cable wiring of a referee session, virtual or
//! real ([`rig`]).
//!
//! Declared once, in `hw-tests/main.rs`, with `#[macro_use]`.

#![allow(dead_code)]

#[macro_use]
pub mod browser;
pub mod http;
pub mod process;
pub mod python_chess;
#[macro_use]
pub mod rig;
pub mod scripted;
pub mod tool;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use argus::game::{Game, position_from_fen};
use argus::link::{LinkEvent, LinkEventKind};
use argus::record::pgn_read::read_pgn_games;
use crossbeam_channel::{Receiver, RecvTimeoutError};
use serialport::SerialPort;
use shakmaty::Chess;

/// How long to wait for socat to set up a cable.
const SOCAT_START: Duration = Duration::from_secs(10);

/// Whether `socat` can be run (asked once per test run).
pub fn socat_available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| tool::available("socat"))
}

/// Returns `true` if the test may go on. Without socat prints
/// `SKIPPED: socat not installed (TEST)` and returns `false`, unless the
/// environment has `ARGUS_REQUIRE_SOCAT=1`, in which case it panics.
pub fn socat_or_skip() -> bool {
    tool::or_skip("socat", socat_available(), "ARGUS_REQUIRE_SOCAT")
}

/// Returns from the calling test (after printing `SKIPPED: socat not
/// installed`) when socat is missing; panics instead when
/// `ARGUS_REQUIRE_SOCAT=1`.
#[macro_export]
macro_rules! skip_unless_socat {
    () => {
        if !$crate::common::socat_or_skip() {
            return;
        }
    };
}

/// The `argus` binary built for this test run (or `ARGUS_BIN`).
pub fn argus_bin() -> PathBuf {
    // ARGUS_BIN runs the suite against another build (a trial branch's,
    // copied aside) without rebuilding this one.
    std::env::var_os("ARGUS_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_argus")))
}

/// socat's option for a raw pty: `rawer` where socat knows it, else
/// `raw,echo=0` (old socat).
fn raw_mode() -> &'static str {
    static MODE: OnceLock<&'static str> = OnceLock::new();
    MODE.get_or_init(|| {
        let help = Command::new("socat")
            .arg("-hhh")
            .stderr(Stdio::null())
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        if help.split_whitespace().any(|w| w == "rawer") {
            "rawer"
        } else {
            "raw,echo=0"
        }
    })
}

/// A virtual null-modem cable: two ptys joined by socat, reachable through
/// the links `a` and `b` in a temporary directory. socat is killed when the
/// cable is dropped.
pub struct Cable {
    /// One end (give it to argus).
    pub a: PathBuf,
    /// The other end (give it to a client or a test peer).
    pub b: PathBuf,
    child: Option<Child>,
    _dir: tempfile::TempDir,
}

impl Cable {
    /// Makes a cable, panicking with socat's own words if it cannot.
    pub fn new() -> Cable {
        Cable::try_new().unwrap_or_else(|e| panic!("cannot make a virtual cable: {e}"))
    }

    /// Makes a cable; the error says what socat did.
    pub fn try_new() -> Result<Cable, String> {
        let dir = tempfile::Builder::new()
            .prefix("argus-cable-")
            .tempdir()
            .map_err(|e| format!("cannot make a temporary directory: {e}"))?;
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        let mut cable = Cable {
            a,
            b,
            child: None,
            _dir: dir,
        };
        cable.start()?;
        Ok(cable)
    }

    /// `a` as a `&str` (the link paths are always UTF-8).
    pub fn a_str(&self) -> &str {
        self.a.to_str().unwrap_or_default()
    }

    /// `b` as a `&str`.
    pub fn b_str(&self) -> &str {
        self.b.to_str().unwrap_or_default()
    }

    /// Pulls the cable: kills socat and removes the links. Both ends see a
    /// hang-up; opening them fails until [`Cable::remake`].
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        for link in [&self.a, &self.b] {
            if link.symlink_metadata().is_ok() {
                let _ = std::fs::remove_file(link);
            }
        }
    }

    /// Plugs a new cable in at the same paths (new ptys behind them).
    pub fn remake(&mut self) {
        self.kill();
        if let Err(e) = self.start() {
            panic!("cannot remake the virtual cable: {e}");
        }
    }

    fn start(&mut self) -> Result<(), String> {
        let mode = raw_mode();
        let mut child = Command::new("socat")
            .arg("-d")
            .arg("-d")
            .arg(format!("PTY,{mode},link={}", self.a.display()))
            .arg(format!("PTY,{mode},link={}", self.b.display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run socat: {e}"))?;
        let stderr = child.stderr.take();
        let (tx, rx) = crossbeam_channel::unbounded::<String>();
        if let Some(stderr) = stderr {
            // Reads socat's log until it exits, so the pipe never fills.
            std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines() {
                    match line {
                        Ok(l) => {
                            let _ = tx.send(l);
                        }
                        Err(_) => break,
                    }
                }
            });
        }
        self.child = Some(child);
        let deadline = Instant::now() + SOCAT_START;
        let mut log = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    let ready = line.contains("starting data transfer loop");
                    log.push(line);
                    if ready {
                        break;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(format!(
                        "socat did not start within {SOCAT_START:?}; it said: {}",
                        log.join(" | ")
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.kill();
                    return Err(format!("socat exited; it said: {}", log.join(" | ")));
                }
            }
        }
        let missing = [&self.a, &self.b]
            .into_iter()
            .find(|l| !l.exists())
            .map(|l| l.display().to_string());
        if let Some(missing) = missing {
            self.kill();
            return Err(format!(
                "socat is running but {missing} does not exist; it said: {}",
                log.join(" | ")
            ));
        }
        Ok(())
    }
}

impl Drop for Cable {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Opens `path` as a plain test peer: 9600 8N1, 200 ms timeout, exclusive,
/// without discarding input already waiting.
pub fn open_peer(path: &Path) -> Box<dyn SerialPort> {
    let name = path.to_string_lossy().into_owned();
    serialport::new(name.as_str(), 9600)
        .timeout(Duration::from_millis(200))
        .open()
        .unwrap_or_else(|e| panic!("cannot open test peer {name}: {e}"))
}

/// Writes all of `bytes` to `port` and drains them.
pub fn write_all(port: &mut dyn SerialPort, bytes: &[u8]) {
    port.write_all(bytes)
        .unwrap_or_else(|e| panic!("test peer write failed: {e}"));
    port.flush()
        .unwrap_or_else(|e| panic!("test peer drain failed: {e}"));
}

/// Reads from `port` until exactly `n` bytes have arrived (panics after
/// `within` or if more arrive in the same read).
pub fn read_bytes(port: &mut dyn SerialPort, n: usize, within: Duration) -> Vec<u8> {
    let deadline = Instant::now() + within;
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    while got.len() < n {
        if Instant::now() >= deadline {
            panic!(
                "test peer: wanted {n} bytes within {within:?}, got {}: {:?}",
                got.len(),
                String::from_utf8_lossy(&got)
            );
        }
        match port.read(&mut buf) {
            Ok(k) => got.extend_from_slice(&buf[..k]),
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(e) => panic!("test peer read failed: {e}"),
        }
    }
    assert_eq!(
        got.len(),
        n,
        "test peer got more than expected: {:?}",
        String::from_utf8_lossy(&got)
    );
    got
}

/// The next event, or a panic naming what was awaited after `within`.
/// `Receiving` reports (part of a line is in) are passed over: tests of
/// lines see only whole lines.
pub fn next_event<Id>(rx: &Receiver<LinkEvent<Id>>, within: Duration, what: &str) -> LinkEvent<Id> {
    let deadline = Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let ev = rx
            .recv_timeout(left)
            .unwrap_or_else(|e| panic!("no event within {within:?} while waiting for {what}: {e}"));
        if !matches!(ev.kind, LinkEventKind::Receiving { .. }) {
            return ev;
        }
    }
}

/// Whether no event but `Receiving` reports is waiting.
pub fn nothing_more<Id>(rx: &Receiver<LinkEvent<Id>>) -> bool {
    rx.try_iter()
        .all(|ev| matches!(ev.kind, LinkEventKind::Receiving { .. }))
}

/// Waits for the first event that `pred` accepts; panics after `within`
/// listing the events that were passed over.
pub fn wait_for<Id: std::fmt::Debug>(
    rx: &Receiver<LinkEvent<Id>>,
    within: Duration,
    what: &str,
    pred: impl Fn(&LinkEventKind) -> bool,
) -> LinkEvent<Id> {
    let deadline = Instant::now() + within;
    let mut skipped = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(ev) if pred(&ev.kind) => return ev,
            Ok(ev) => skipped.push(ev),
            Err(_) => panic!("no {what} within {within:?}; other events: {skipped:?}"),
        }
    }
}

/// A legal game of `plies` plies that has not ended, as PGN movetext,
/// chosen by a fixed pseudo-random walk that prefers pawn moves and
/// captures and ends with a low halfmove clock (so that no draw rule ends
/// the game early).
pub fn long_opening(plies: usize) -> String {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut rand = move |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize % n.max(1)
    };
    'attempt: loop {
        let mut game = argus::game::Game::new(argus::game::Chess::default());
        let mut text = String::new();
        for ply in 0..plies {
            let moves: Vec<_> = shakmaty::Position::legal_moves(game.position())
                .into_iter()
                .filter(|m| {
                    let mut g = game.clone();
                    g.play(*m).is_ok()
                        && g.automatic_end().is_none()
                        && g.claimable_draw().is_none()
                })
                .collect();
            let pawn: Vec<_> = moves
                .iter()
                .filter(|m| m.role() == shakmaty::Role::Pawn || m.is_capture())
                .collect();
            let m = match (pawn.is_empty(), moves.is_empty()) {
                (_, true) => continue 'attempt,
                (false, _) if rand(10) > 0 => *pawn[rand(pawn.len())],
                _ => moves[rand(moves.len())],
            };
            if ply % 2 == 0 {
                text.push_str(&format!("{}. ", ply / 2 + 1));
            }
            let san = game.play(m).expect("a legal move").to_string();
            text.push_str(&san);
            text.push(' ');
        }
        // Far from the fifty-move rule, or the clients claim it at once.
        if shakmaty::Position::halfmoves(game.position()) <= 10 {
            return text;
        }
    }
}

/// A fixture engine (`hw-tests/fixtures/`, built as examples once per
/// test run): `uci-random` or `xboard-random`.
pub fn fixture(name: &str) -> PathBuf {
    static BUILT: OnceLock<Result<(), String>> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = Command::new(cargo)
            .args([
                "build",
                "--quiet",
                "--example",
                "uci-random",
                "--example",
                "xboard-random",
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    });
    if let Err(e) = built {
        panic!("cannot build the fixture engines: {e}");
    }
    let path = PathBuf::from(env!("CARGO_BIN_EXE_argus"))
        .parent()
        .expect("the argus binary has a directory")
        .join("examples")
        .join(name);
    assert!(path.exists(), "fixture {} was not built", path.display());
    path
}

/// Every game of the PGN replays legally and has a result; returns
/// (white, black, result, plies) per game.
pub fn check_pgn(pgn: &str) -> Vec<(String, String, String, usize)> {
    let games = read_pgn_games(pgn).expect("the PGN reads");
    assert!(!games.is_empty(), "no game in the PGN:\n{pgn}");
    games
        .iter()
        .map(|g| {
            let start = match g.tag("FEN") {
                Some(f) => position_from_fen(f).expect("FEN tag"),
                None => Chess::default(),
            };
            let mut game = Game::new(start);
            for san in &g.sans {
                game.play_san(san)
                    .unwrap_or_else(|e| panic!("illegal move in the PGN: {e}\n{pgn}"));
            }
            let result = g.result.clone().expect("a game termination marker");
            assert_ne!(result, "*", "an unfinished game:\n{pgn}");
            assert_eq!(g.tag("Result"), Some(result.as_str()));
            (
                g.tag("White").unwrap_or("").to_string(),
                g.tag("Black").unwrap_or("").to_string(),
                result,
                g.sans.len(),
            )
        })
        .collect()
}

/// A free port on loopback (bound, read, released).
pub fn free_port() -> std::net::SocketAddr {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    l.local_addr().expect("its address")
}

/// A temporary directory named `PREFIX...`, removed when dropped.
pub fn temp_dir(prefix: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir()
        .unwrap_or_else(|e| panic!("cannot make a temporary directory: {e}"))
}

/// `argus wire` listening on TCP at `addr` and carrying the line on to
/// `cable_end` at 115200 baud both ways; returned once it listens.
pub fn wire_to_cable(addr: std::net::SocketAddr, cable_end: &str) -> process::Proc {
    let mut wire = process::Proc::spawn(
        "wire",
        &argus_bin(),
        &[
            "wire".into(),
            format!("tcp-listen://{addr}"),
            cable_end.into(),
            "--duration".into(),
            "200".into(),
            "--baud".into(),
            "115200".into(),
        ],
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !wire.stderr_text().contains("waiting for a connection") {
        assert!(wire.running(), "argus wire exited\n{}", wire.describe());
        assert!(
            std::time::Instant::now() < deadline,
            "argus wire never listened"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    wire
}

/// The text of every transcript a referee wrote in `log_dir`, complete
/// lines only, in the order they were written: the session's
/// `transcript.log` (a match between ports, or an event's sign-ons and
/// final `disconnect`s) and each game's `game-NNN/transcript.log` (a
/// match or tournament on the tournament's loop; a match's lines are
/// labelled by player, `A` and `B`, a tournament's game's by colour),
/// merged by each line's wall-clock time (a stable sort: lines of the
/// same millisecond keep their files' order).
pub fn transcript_text(log_dir: &Path) -> String {
    in_wall_time_order(&log_files_text(log_dir, "transcript.log"))
}

/// Transcript lines (`SECONDS WALL-TIME ...`) from several files in the
/// order they were written: a stable sort by wall-clock time, a line
/// without one kept after the line before it.
pub fn in_wall_time_order(text: &str) -> String {
    let mut lines: Vec<(String, &str)> = Vec::new();
    let mut key = String::new();
    for line in text.split_inclusive('\n') {
        // `SECONDS WALL-TIME ...`; a line without one stays after the
        // line before it.
        if let Some(wall) = line.split(' ').nth(1).filter(|w| w.ends_with('Z')) {
            key = wall.to_string();
        }
        lines.push((key.clone(), line));
    }
    lines.sort_by(|a, b| a.0.cmp(&b.0));
    lines.into_iter().map(|(_, l)| l).collect()
}

/// The text of every match journal a referee wrote in `log_dir`, complete
/// lines only: each game's `game-NNN/journal.log` in game order, then the
/// event's `tournament.journal` (where a match's notes between games are).
pub fn journal_text(log_dir: &Path) -> String {
    let mut text = game_journals_text(log_dir);
    text.push_str(&complete_lines(&log_dir.join("tournament.journal")));
    text
}

/// The complete lines of the file at `path` (none if it cannot be read).
fn complete_lines(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    match text.rfind('\n') {
        Some(end) => text[..=end].to_string(),
        None => String::new(),
    }
}

/// `log_dir/NAME`, then each `log_dir/game-*/NAME` in order: complete
/// lines only.
fn log_files_text(log_dir: &Path, name: &str) -> String {
    let mut text = complete_lines(&log_dir.join(name));
    text.push_str(&game_files_text(log_dir, name));
    text
}

/// Each `dir/game-*/NAME` in order: complete lines only.
fn game_files_text(dir: &Path, name: &str) -> String {
    let mut games: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("game-"))
                })
                .collect()
        })
        .unwrap_or_default();
    games.sort();
    games
        .iter()
        .map(|g| complete_lines(&g.join(name)))
        .collect()
}

/// The text of each game's journal in `dir` (`game-NNN/journal.log`, in
/// game order; the event's journal beside them), complete lines only.
pub fn game_journals_text(dir: &Path) -> String {
    game_files_text(dir, "journal.log")
}
