//! The audience's web view (`--http`) end to end: the real binary serving
//! over loopback, read with a plain HTTP client and with a real headless
//! browser (Chromium through chromedriver, `common::browser`).
//!
//! The server tests run `argus demo` (no cables needed); the match tests
//! run `argus referee` between scripted clients on socat cables, so that
//! the test decides when each move is made and what the programs are
//! called. With `ARGUS_WEB_SCREENSHOTS=DIR` the page's screenshots at
//! projector and phone size are kept in DIR (docs/ keeps the last ones).

use std::net::TcpStream;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use argus::record::pgn_read::read_pgn_games;
use serde_json::Value;

use crate::common::argus_bin;
use crate::common::http::{get, read_until, request, send};
use crate::common::process::Proc;
use crate::common::rig::Rig;
use crate::common::scripted::{Scripted, Step, parse_script};

mod broadcast;
mod eval;
mod guard;
mod page;
mod schedule;

/// Long enough for a debug build on a busy two-core machine.
const START: Duration = Duration::from_secs(30);
const PLAY: Duration = Duration::from_secs(60);

/// The program name that must stay text on the page.
const HOSTILE: &str = "<img src=x onerror=alert(1)>";

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// The address the server says it serves on (`--http 127.0.0.1:0`).
fn served_addr(p: &mut Proc) -> String {
    let line = p.wait_stdout(START, "the audience's page", |l| {
        l.starts_with("the audience's page: http://")
    });
    line.trim_start_matches("the audience's page: http://")
        .trim_end_matches('/')
        .to_string()
}

/// A headless demo serving the page; its process and address.
fn demo(extra: &[&str]) -> (Proc, String) {
    let mut args = strings(&["demo", "--headless", "--http", "127.0.0.1:0"]);
    args.extend(strings(extra));
    let mut p = Proc::spawn("demo", &argus_bin(), &args);
    let addr = served_addr(&mut p);
    (p, addr)
}

/// The state the server publishes now.
fn state(addr: &str) -> Value {
    let env: Value = serde_json::from_str(&get(addr, "/state.json")).expect("JSON state");
    env["state"].clone()
}

/// Waits until the published state passes `pred`; returns it.
fn wait_state(addr: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + PLAY;
    loop {
        if request(addr, "GET", "/state.json").status == 200 {
            let s = state(addr);
            if pred(&s) {
                return s;
            }
        }
        assert!(
            Instant::now() < deadline,
            "no state with {what} within {PLAY:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn plies(s: &Value) -> usize {
    s["boards"][0]["moves"].as_array().map_or(0, Vec::len)
}

#[test]
fn only_get_and_head_are_served_and_unknown_paths_are_404() {
    let (_demo, addr) = demo(&[]);
    for (method, path) in [
        ("POST", "/"),
        ("PUT", "/state.json"),
        ("DELETE", "/games.pgn"),
    ] {
        let r = request(&addr, method, path);
        assert_eq!(r.status, 405, "{method} {path}: {}", r.head);
        assert_eq!(r.header("Allow").as_deref(), Some("GET, HEAD"));
    }
    for path in [
        "/nothing",
        "/game/999.pgn",
        "/../Cargo.toml",
        "/src/main.rs",
    ] {
        assert_eq!(request(&addr, "GET", path).status, 404, "{path}");
    }
    let page = request(&addr, "GET", "/");
    assert_eq!(page.status, 200);
    assert!(
        page.text().contains("<main id=\"boards\">"),
        "{}",
        page.text()
    );
    let head = request(&addr, "HEAD", "/app.js");
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty(), "a HEAD response has no body");
    assert_ne!(head.header("Content-Length").as_deref(), Some("0"));
    // The board widget and its licence are built in: no network needed.
    assert!(get(&addr, "/chessground/chessground.min.js").contains("Chessground"));
    assert!(get(&addr, "/chessground/LICENSE").contains("GNU GENERAL PUBLIC LICENSE"));
}

#[test]
fn a_request_head_trickled_a_byte_at_a_time_is_cut_off() {
    use std::io::{Read, Write};
    let (_demo, addr) = demo(&[]);
    let mut s = TcpStream::connect(&addr).unwrap();
    s.set_read_timeout(Some(Duration::from_millis(900)))
        .unwrap();
    let started = Instant::now();
    let mut got = Vec::new();
    // A byte every 900 ms: each read alone is quick enough, the head not.
    for b in b"GET / HTTP/1.1\r\nX-Slow: ".iter().cycle() {
        if s.write_all(&[*b]).is_err() {
            break;
        }
        match s.read_to_end(&mut got) {
            Ok(_) => break,
            Err(_) if !got.is_empty() => break,
            Err(_) => {}
        }
        assert!(
            started.elapsed() < PLAY,
            "the trickled request was never cut off"
        );
    }
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
}

/// Opens `/events` and reads up to its first state.
fn viewer(addr: &str) -> TcpStream {
    let mut s = send(addr, "GET", "/events");
    read_until(&mut s, START, "the first state", |t| {
        t.contains("event: state")
    });
    s
}

#[test]
fn viewers_past_the_cap_are_turned_away_until_one_leaves() {
    let (_demo, addr) = demo(&["--http-viewers", "2"]);
    let first = viewer(&addr);
    let _second = viewer(&addr);
    let refused = request(&addr, "GET", "/events");
    assert_eq!(refused.status, 503, "{}", refused.head);
    assert!(refused.text().contains("at most 2"), "{}", refused.text());
    // The page and the PGN are still served.
    assert_eq!(request(&addr, "GET", "/games.pgn").status, 200);
    drop(first);
    // The server notices the gone viewer at its next write.
    let deadline = Instant::now() + PLAY;
    loop {
        let mut s = send(&addr, "GET", "/events");
        let got = read_until(&mut s, START, "an answer", |t| t.contains("\r\n\r\n"));
        if got.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(Instant::now() < deadline, "the freed place was not given");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Makes the socket's receive buffer (so its window) small: a viewer that
/// does not read is then found out in seconds.
fn small_receive_buffer(s: &TcpStream) {
    use std::os::fd::AsRawFd;
    let size: libc::c_int = 4096;
    // SAFETY: a valid socket, a live c_int and its size, as setsockopt(2) asks.
    let r = unsafe {
        libc::setsockopt(
            s.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_RCVBUF,
            (&size as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    assert_eq!(r, 0, "setsockopt: {}", std::io::Error::last_os_error());
}

/// Reads a viewer's stream for ever on a thread of its own; the number
/// is the last state's `seq` it has seen.
fn keep_reading(mut s: TcpStream) -> Arc<AtomicU64> {
    let last = Arc::new(AtomicU64::new(0));
    let seen = last.clone();
    std::thread::spawn(move || {
        use std::io::{BufRead, BufReader};
        s.set_read_timeout(None).unwrap();
        for line in BufReader::new(&mut s).lines() {
            let Ok(line) = line else { break };
            let seq = line
                .strip_prefix("data: {\"seq\":")
                .and_then(|r| r.split(',').next())
                .and_then(|n| n.parse().ok());
            if let Some(n) = seq {
                seen.store(n, Ordering::SeqCst);
            }
        }
    });
    last
}

#[test]
fn a_slow_viewer_is_dropped_while_the_match_goes_on() {
    let (demo, addr) = demo(&["--think-ms", "1"]);
    // It asks for the stream and never reads it.
    let mut slow = send(&addr, "GET", "/events");
    small_receive_buffer(&slow);
    let quick = keep_reading(viewer(&addr));
    // Its socket fills, then its queue, and the server drops it for that.
    let deadline = Instant::now() + Duration::from_secs(180);
    while !demo
        .stderr_text()
        .contains("dropped: it fell 32 updates behind")
    {
        assert!(
            Instant::now() < deadline,
            "the server did not drop the slow viewer:\n{}",
            demo.describe()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // Its stream ends: what was sent, then the end.
    slow.set_read_timeout(Some(START)).unwrap();
    let mut rest = Vec::new();
    use std::io::{ErrorKind, Read};
    if let Err(e) = slow.read_to_end(&mut rest) {
        let timed_out = matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut);
        assert!(!timed_out, "the slow viewer's stream did not end");
    }
    // The match goes on, and the quick viewer keeps getting every change.
    let start = plies(&state(&addr));
    let seen = quick.load(Ordering::SeqCst);
    assert!(seen > 0, "the quick viewer saw no state");
    wait_state(&addr, "more moves", |s| plies(s) != start);
    let deadline = Instant::now() + START;
    while quick.load(Ordering::SeqCst) <= seen {
        assert!(
            Instant::now() < deadline,
            "the quick viewer got nothing more"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        demo.stderr_text().matches("dropped: it fell").count(),
        1,
        "the quick viewer was dropped too:\n{}",
        demo.describe()
    );
}

/// A match between two scripted clients on socat cables, refereed by
/// `argus referee --http`: A (White) is called [`HOSTILE`].
struct Match {
    referee: Proc,
    addr: String,
    /// The referee's journal (for `argus watch`).
    journal: PathBuf,
    clients: [Scripted; 2],
    _logs: tempfile::TempDir,
    _rig: Rig,
}

impl Match {
    fn start() -> Option<Match> {
        Match::start_with(&[])
    }

    /// A match with `extra` flags for the referee (`--http-linger 0`
    /// unless they give it).
    fn start_with(extra: &[String]) -> Option<Match> {
        let rig = Rig::new()?;
        let logs = tempfile::tempdir().unwrap();
        let log_dir = logs.path().join("logs");
        let mut args = strings(&["referee", &rig.referee[0], &rig.referee[1]]);
        args.extend(strings(&[
            "--headless",
            "--http",
            "127.0.0.1:0",
            "--tc",
            "300",
            "--reset-delay",
            "0.2",
            "--conclude-delay",
            "0.2",
            "--log-dir",
            log_dir.to_str().unwrap(),
        ]));
        args.extend(rig.line_args().iter().cloned());
        if !extra.iter().any(|a| a == "--http-linger") {
            // (The match's end ends the referee.)
            args.extend(strings(&["--http-linger", "0"]));
        }
        args.extend(extra.iter().cloned());
        let mut referee = Proc::spawn("referee", &argus_bin(), &args);
        let addr = served_addr(&mut referee);
        let clients = [
            Scripted::open(&rig.client[0]).unwrap(),
            Scripted::open(&rig.client[1]).unwrap(),
        ];
        let mut m = Match {
            referee,
            addr,
            journal: log_dir.join("tournament.journal"),
            clients,
            _logs: logs,
            _rig: rig,
        };
        m.play(0, &format!("sign-on {HOSTILE}"));
        m.play(1, "sign-on Bob");
        m.play(0, "expect respond");
        Some(m)
    }

    /// Client `i` (0 = A) carries out `script` (see `common::scripted`).
    fn play(&mut self, i: usize, script: &str) {
        let steps: Vec<Step> = parse_script(script).unwrap();
        let flag = Arc::new(AtomicBool::new(false));
        self.clients[i]
            .run(&steps, &flag, &flag, Duration::ZERO)
            .unwrap_or_else(|e| panic!("client {i}: {e}\n{}", self.referee.describe()));
    }
}

/// Fool's mate: A (White) plays f3 and g4, B mates with Qh4.
const FOOLS_MATE: [(usize, &str); 4] = [(0, "f3"), (1, "e5"), (0, "g4"), (1, "Qh4#")];

#[test]
fn games_pgn_equals_the_live_game_after_every_move() {
    let Some(mut m) = Match::start() else {
        return;
    };
    let addr = m.addr.clone();
    // An observer following the journal serves the same games.
    let journal = m.journal.to_str().unwrap().to_string();
    let args = strings(&["watch", &journal, "--headless", "--http", "127.0.0.1:0"]);
    let mut watch = Proc::spawn("watch", &argus_bin(), &args);
    let watch_addr = served_addr(&mut watch);
    let mut played: Vec<&str> = Vec::new();
    for (k, (i, san)) in FOOLS_MATE.iter().enumerate() {
        if k > 0 {
            m.play(*i, "expect respond");
        }
        m.play(*i, &format!("reply {san}"));
        played.push(san);
        wait_state(&addr, san, |s| plies(s) == played.len());
        if k + 1 < FOOLS_MATE.len() {
            // (The watch ends with the match.)
            let w = wait_state(&watch_addr, san, |s| plies(s) == played.len());
            let sans = read_pgn_games(&get(&watch_addr, "/games.pgn")).unwrap()[0]
                .sans
                .clone();
            assert_eq!(sans, played);
            assert_eq!(w["boards"][0]["white"], HOSTILE);
        }
        let text = get(&addr, "/games.pgn");
        let games = read_pgn_games(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(games.len(), 1, "{text}");
        let g = &games[0];
        assert_eq!(g.sans, played, "{text}");
        let tag = |n: &str| g.tags.iter().find(|(t, _)| t == n).map(|(_, v)| v.clone());
        assert_eq!(tag("White").as_deref(), Some(HOSTILE));
        assert_eq!(text.matches("[%clk ").count(), played.len(), "{text}");
        assert_eq!(get(&addr, "/game/1.pgn"), text);
        // A game in progress has its start time, not yet an end (the
        // last move mates: the game is over then).
        assert!(tag("GameStartTime").is_some(), "{text}");
        if k + 1 < FOOLS_MATE.len() {
            assert_eq!(tag("GameEndTime"), None, "{text}");
        }
    }
    let s = wait_state(&addr, "the result", |s| !s["boards"][0]["result"].is_null());
    assert_eq!(s["boards"][0]["result"]["result"], "0-1");
    let text = get(&addr, "/games.pgn");
    let g = &read_pgn_games(&text).unwrap()[0];
    assert_eq!(g.result.as_deref(), Some("0-1"));
    // The finished game as the PGN file has it: the closing comment, the
    // plies and the times testers' tools read.
    assert!(text.contains("} {Black mates} 0-1"), "{text}");
    let tag = |n: &str| g.tags.iter().find(|(t, _)| t == n).map(|(_, v)| v.clone());
    assert_eq!(tag("PlyCount").as_deref(), Some("4"), "{text}");
    for name in ["GameStartTime", "GameEndTime", "GameDuration"] {
        assert!(tag(name).is_some(), "no {name}: {text}");
    }
    m.referee.wait_exit(PLAY);
}

/// A tournament of four in-process movers on two boards, headless, its
/// logs in `logs`, with `extra` flags (games slow enough to be seen: a
/// second's reset delay, 5+5).
fn tournament(logs: &std::path::Path, extra: &[&str]) -> Proc {
    let mut args = strings(&[
        "tournament",
        "mover:alpha",
        "mover:beta=greedy",
        "mover:gamma",
        "mover:delta=greedy",
        "--headless",
        "--tc",
        "5+5",
        "--cycles",
        "2",
        "--reset-delay",
        "1",
        "--log-dir",
    ]);
    args.push(logs.display().to_string());
    args.extend(strings(extra));
    Proc::spawn("tournament", &argus_bin(), &args)
}

/// A round robin of three movers on one board (a bye in each of its
/// three rounds), each game cut at `max_moves` moves and `reset_delay`
/// seconds between games, serving the page on a loopback port and
/// keeping it two minutes once over; its logs in `logs`, with `extra`
/// flags. Its process and the page's address.
fn three_movers(
    logs: &std::path::Path,
    max_moves: &str,
    reset_delay: &str,
    extra: &[&str],
) -> (Proc, String) {
    let mut args = strings(&[
        "tournament",
        "mover:alpha",
        "mover:beta=greedy",
        "mover:gamma",
        "--headless",
        "--boards",
        "1",
        "--tc",
        "30+1",
        "--max-moves",
        max_moves,
        "--reset-delay",
        reset_delay,
        "--http",
        "127.0.0.1:0",
        "--http-linger",
        "120",
    ]);
    args.extend(strings(extra));
    args.push("--log-dir".into());
    args.push(logs.display().to_string());
    let mut p = Proc::spawn("tournament", &argus_bin(), &args);
    let addr = served_addr(&mut p);
    (p, addr)
}

#[test]
fn argus_watch_serves_a_tournament_it_follows() {
    let logs = tempfile::tempdir().unwrap();
    let mut t = tournament(logs.path(), &[]);
    let journal = logs.path().join("tournament.journal");
    let deadline = Instant::now() + START;
    while !journal.is_file() {
        assert!(Instant::now() < deadline, "no journal\n{}", t.describe());
        std::thread::sleep(Duration::from_millis(20));
    }
    let journal = journal.display().to_string();
    let mut w = Proc::spawn(
        "watch",
        &argus_bin(),
        &strings(&["watch", &journal, "--headless", "--http", "127.0.0.1:0"]),
    );
    let addr = served_addr(&mut w);
    // The watcher publishes the boards it follows from their journals, by
    // their numbers in the tournament, and the standings.
    let s = wait_state(&addr, "two boards and four players", |s| {
        s["boards"].as_array().map_or(0, Vec::len) == 2
            && s["standings"]["rows"].as_array().map_or(0, Vec::len) == 4
    });
    for b in s["boards"].as_array().unwrap() {
        assert!((1..=12).contains(&b["game"].as_u64().unwrap()), "{s}");
    }
    w.kill();
    t.kill();
}

/// A game as PGN says it, wherever it stands in its file: its tags, its
/// moves each with its comments (the clocks), its result.
type Said = (
    Vec<(String, String)>,
    Vec<(String, Vec<String>)>,
    Option<String>,
);

/// The finished games of a PGN text (no `*` result), by their Round tag.
fn finished_games(text: &str) -> Vec<Said> {
    let games = read_pgn_games(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut said: Vec<Said> = games
        .into_iter()
        .filter(|g| g.result.as_deref().is_some_and(|r| r != "*"))
        .map(|g| {
            let moves = g.tree.moves.into_iter().map(|m| (m.san, m.comments));
            (g.tags, moves.collect(), g.result)
        })
        .collect();
    let round = |s: &Said| {
        s.0.iter()
            .find(|(t, _)| t == "Round")
            .map(|(_, v)| v.clone())
    };
    said.sort_by_key(round);
    said
}

/// Polls `/games.pgn` at `addr` until it holds at least `n` finished
/// games; those.
fn wait_finished(addr: &str, n: usize, p: &Proc) -> Vec<Said> {
    let deadline = Instant::now() + PLAY;
    loop {
        let got = finished_games(&get(addr, "/games.pgn"));
        if got.len() >= n {
            return got;
        }
        assert!(
            Instant::now() < deadline,
            "/games.pgn has {} finished games, not {n}\n{}",
            got.len(),
            p.describe()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn games_pgn_of_a_watched_or_resumed_tournament_holds_the_games_before_it() {
    let logs = tempfile::tempdir().unwrap();
    let pgn = logs.path().join("games.pgn");
    let pgn_arg = pgn.display().to_string();
    let extra = [
        "--http",
        "127.0.0.1:0",
        "--pgn",
        &pgn_arg,
        "--max-moves",
        "30",
    ];
    let mut t = tournament(logs.path(), &extra);
    served_addr(&mut t);
    let in_file = || finished_games(&std::fs::read_to_string(&pgn).unwrap_or_default());
    // Two games decided and their boards freed (`free N` in the
    // tournament journal): no one follows them as games in progress any
    // more.
    let journal = logs.path().join("tournament.journal");
    let freed = || {
        let text = std::fs::read_to_string(&journal).unwrap_or_default();
        text.lines().filter(|l| l.contains(" free ")).count()
    };
    let deadline = Instant::now() + Duration::from_secs(180);
    while in_file().len() < 2 || freed() < 2 {
        assert!(
            Instant::now() < deadline,
            "no two games over and their boards freed\n{}",
            t.describe()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    t.kill();
    let before = in_file();
    assert!(before.len() < 12, "the tournament was over before the kill");
    let journal = journal.display().to_string();
    // A watcher started now serves every game that ended before it came,
    // as the referee wrote them to its PGN file.
    let args = strings(&["watch", &journal, "--headless", "--http", "127.0.0.1:0"]);
    let mut w = Proc::spawn("watch", &argus_bin(), &args);
    let addr = served_addr(&mut w);
    assert_eq!(wait_finished(&addr, before.len(), &w), before);
    w.kill();
    // So does the tournament resumed, from its start on, on the address
    // its resume gives (over the one in its command line).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let http = format!("127.0.0.1:{port}");
    let args = strings(&["resume", &journal, "--headless", "--http", &http]);
    let mut r = Proc::spawn("resume", &argus_bin(), &args);
    let addr = served_addr(&mut r);
    assert_eq!(addr, http, "the resume's --http was not taken");
    let served = wait_finished(&addr, before.len(), &r);
    for g in &before {
        assert!(served.contains(g), "{g:?} is not served:\n{served:#?}");
    }
    r.kill();
}

/// A match killed after two games and resumed with `--http`: its
/// `/games.pgn` holds the games decided before the kill, as the referee
/// wrote them to its `--pgn` file (the tournament's resume has its own
/// test above).
#[test]
fn games_pgn_of_a_resumed_match_holds_the_games_before_it() {
    let Some(rig) = Rig::new() else { return };
    let logs = tempfile::tempdir().unwrap();
    let pgn = logs.path().join("games.pgn");
    let log_dir = logs.path().join("logs");
    let common = strings(&[
        "--headless",
        "--pgn",
        pgn.to_str().unwrap(),
        "--log-dir",
        log_dir.to_str().unwrap(),
        "--http",
        "127.0.0.1:0",
    ]);
    let mut args = strings(&["referee", &rig.referee[0], &rig.referee[1]]);
    args.extend(strings(&[
        "--games",
        "20",
        "--max-moves",
        "30",
        "--reset-delay",
        "0",
        "--conclude-delay",
        "0",
    ]));
    args.extend(common.iter().cloned());
    args.extend(rig.line_args().iter().cloned());
    let mut referee = Proc::spawn("referee", &argus_bin(), &args);
    served_addr(&mut referee);
    let mut clients: Vec<Proc> = (0..2)
        .map(|i| {
            let mut a = strings(&["client", &rig.client[i], "--seed", &(i + 1).to_string()]);
            a.extend(rig.line_args().iter().cloned());
            Proc::spawn(&format!("client {i}"), &argus_bin(), &a)
        })
        .collect();
    let in_file = || finished_games(&std::fs::read_to_string(&pgn).unwrap_or_default());
    let deadline = Instant::now() + PLAY;
    while in_file().len() < 2 {
        assert!(
            Instant::now() < deadline,
            "no two games played\n{}",
            referee.describe()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    referee.kill();
    let before = in_file();
    assert!(before.len() < 20, "the match was over before the kill");
    let journal = log_dir.join("tournament.journal");
    let mut args = strings(&[
        "resume",
        journal.to_str().unwrap(),
        &rig.referee[0],
        &rig.referee[1],
    ]);
    args.extend(common.iter().cloned());
    args.extend(rig.line_args().iter().cloned());
    let mut resumed = Proc::spawn("resume", &argus_bin(), &args);
    let addr = served_addr(&mut resumed);
    let served = wait_finished(&addr, before.len(), &resumed);
    for g in &before {
        assert!(served.contains(g), "{g:?} is not served:\n{served:#?}");
    }
    resumed.kill();
    for c in &mut clients {
        c.kill();
    }
}
