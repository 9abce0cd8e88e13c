//! Argus over IP, on loopback: the real `argus referee` listening, real
//! `argus client`s connecting with `tcp://`, and raw sockets for the bad
//! peers (a refused address, a stolen seat, a wrong password, idle and
//! flooding connections).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::process::{Proc, describe_if_panicking};
use crate::common::{Cable, argus_bin, free_port, socat_or_skip, temp_dir};
use argus::epd::line_check;
use argus::epd::{Fields, Operation, Record, RefReq};
use argus::link::seats::password_line;
use argus::record::pgn_read::{PgnText, read_pgn_games};

/// A referee on a loopback port with its clients and files.
struct Net {
    dir: tempfile::TempDir,
    addr: SocketAddr,
    referee: Option<Proc>,
    clients: Vec<Proc>,
}

impl Net {
    fn new() -> Net {
        let dir = temp_dir("argus-tcp-");
        Net {
            dir,
            addr: free_port(),
            referee: None,
            clients: Vec::new(),
        }
    }

    /// A referee listening, alpha on seat A and beta on seat B (each
    /// thinking `think_ms`), their game started.
    fn playing(think_ms: &str) -> Net {
        let mut net = Net::new();
        net.listen(&[]);
        net.seated("alpha", "A", 1, &["--think-ms", think_ms]);
        net.seated("beta", "B", 2, &["--think-ms", think_ms]);
        net.wait_game();
        net
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn logs(&self) -> PathBuf {
        self.path("logs")
    }

    fn url(&self) -> String {
        format!("tcp://{}", self.addr)
    }

    /// Starts the referee with `endpoints` (e.g. `--listen ADDR`) and
    /// `extra` flags; returns once it is listening.
    fn start_referee(&mut self, endpoints: &[String], extra: &[&str]) {
        let mut args: Vec<String> = vec!["referee".into()];
        args.extend(endpoints.iter().cloned());
        for a in [
            "--headless",
            "--reset-delay",
            "0.2",
            "--conclude-delay",
            "0.2",
        ] {
            args.push(a.into());
        }
        args.push("--log-dir".into());
        args.push(text(&self.logs()));
        args.push("--pgn".into());
        args.push(text(&self.path("games.pgn")));
        args.extend(extra.iter().map(|s| s.to_string()));
        let mut p = Proc::spawn("referee", &argus_bin(), &args);
        let deadline = Instant::now() + Duration::from_secs(30);
        while !self.log().contains("referee session:") {
            assert!(p.running(), "the referee exited at start\n{}", p.describe());
            assert!(
                Instant::now() < deadline,
                "the referee did not start\n{}",
                p.describe()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        self.referee = Some(p);
    }

    fn listen(&mut self, extra: &[&str]) {
        let listen = vec!["--listen".to_string(), self.addr.to_string()];
        self.start_referee(&listen, extra);
    }

    /// Starts `argus client` on `endpoint` named `name`.
    fn client(&mut self, endpoint: &str, name: &str, seed: u64, extra: &[&str]) -> usize {
        let mut args: Vec<String> = vec!["client".into(), endpoint.into(), "--name".into()];
        args.push(name.into());
        args.push("--seed".into());
        args.push(seed.to_string());
        args.extend(extra.iter().map(|s| s.to_string()));
        self.clients
            .push(Proc::spawn(&format!("client {name}"), &argus_bin(), &args));
        self.clients.len() - 1
    }

    /// Starts `argus client` and waits until it has a seat (`A` or `B`),
    /// so that the seats go in a known order.
    fn seated(&mut self, name: &str, seat: &str, seed: u64, extra: &[&str]) -> usize {
        let url = self.url();
        let i = self.client(&url, name, seed, extra);
        self.wait_log(&format!("signed on as \"{name}\": seat {seat}"));
        i
    }

    fn referee(&mut self) -> &mut Proc {
        self.referee.as_mut().expect("the referee was started")
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.logs().join("argus.log")).unwrap_or_default()
    }

    fn transcript(&self) -> String {
        crate::common::transcript_text(&self.logs())
    }

    fn journal(&self) -> String {
        crate::common::journal_text(&self.logs())
    }

    /// Waits until the referee's stdout shows the game started.
    fn wait_game(&mut self) {
        self.referee()
            .wait_stdout(Duration::from_secs(60), "the game's start", |l| {
                l.starts_with("game 1:")
            });
    }

    /// Waits until the transcript holds `n` lines from A.
    fn wait_lines_from_a(&self, n: usize) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.transcript().matches("A < ").count() < n {
            assert!(Instant::now() < deadline, "A never sent {n} lines");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits for the referee's log to say `what`.
    fn wait_log(&mut self, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !self.log().contains(what) {
            assert!(
                Instant::now() < deadline,
                "the log never said {what:?}:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits for the referee and every client to exit; their codes.
    fn finish(&mut self) -> Vec<i32> {
        let mut codes = vec![self.referee().wait_exit(Duration::from_secs(240))];
        for c in &mut self.clients {
            codes.push(c.wait_exit(Duration::from_secs(20)));
        }
        codes
    }

    /// The games in the PGN file, each checked to have a real result.
    fn games(&self) -> Vec<PgnText> {
        let text = std::fs::read_to_string(self.path("games.pgn")).unwrap_or_default();
        let games = read_pgn_games(&text).unwrap_or_else(|e| panic!("games.pgn: {e}"));
        for g in &games {
            let result = g.tag("Result").unwrap_or("*");
            assert_ne!(result, "*", "a game without a result:\n{text}");
            assert_ne!(g.tag("Termination"), Some("unterminated"), "{text}");
        }
        games
    }
}

impl Drop for Net {
    fn drop(&mut self) {
        let log = self.log();
        describe_if_panicking(self.referee.iter().chain(self.clients.iter()), &log);
    }
}

fn text(p: &Path) -> String {
    p.to_str().expect("temporary paths are UTF-8").to_string()
}

/// The sign-on record of a raw test peer named `name`.
fn sign_on(name: &str) -> String {
    let mut r = Record::new(Fields::initial())
        .with(Operation::refreq(RefReq::SignOn))
        .with(Operation::tcsi("", name))
        .to_canonical();
    line_check::append(&mut r);
    r.push_str("\r\n");
    r
}

/// Reads what a peer is sent until it is closed (or 15 s pass).
fn read_to_close(s: &mut TcpStream) -> String {
    s.set_read_timeout(Some(Duration::from_secs(15))).ok();
    let mut got = Vec::new();
    let _ = s.read_to_end(&mut got);
    String::from_utf8_lossy(&got).into_owned()
}

const QUICK: [&str; 2] = ["--think-ms", "0"];

#[test]
fn two_clients_play_a_whole_match_over_tcp() {
    let mut net = Net::new();
    net.listen(&["--games", "2", "--tc", "5m+1"]);
    net.seated("alpha", "A", 1, &QUICK);
    net.seated("beta", "B", 2, &["--think-ms", "0", "--mover", "greedy"]);
    assert_eq!(net.finish(), [0, 0, 0]);
    let games = net.games();
    assert_eq!(games.len(), 2);
    // The clients' consoles say what matters, not every record (that is
    // -v); a client closing after the referee's disconnect is no warning.
    for c in &net.clients {
        let err = c.stderr_text();
        assert!(
            !err.contains("client: reply:"),
            "a reply said without -v:\n{err}"
        );
        assert!(
            err.contains("disconnect: the referee ended the session"),
            "{err}"
        );
    }
    let log = net.log();
    assert!(
        !log.lines()
            .any(|l| l.contains("[WARN]") && l.contains("link lost")),
        "a normal end warned of a lost link:\n{log}"
    );
    // Seated in sign-on order, colours alternating: both names play.
    let whites: Vec<_> = games.iter().filter_map(|g| g.tag("White")).collect();
    assert!(
        whites.contains(&"alpha") && whites.contains(&"beta"),
        "{whites:?}"
    );
    let transcript = net.transcript();
    assert_eq!(
        transcript.matches("connected from 127.0.0.1:").count(),
        2,
        "each client's address is in the transcript:\n{transcript}"
    );
    let shown = net.referee().stdout_lines();
    assert!(
        shown
            .iter()
            .any(|l| l.starts_with("B: connected from 127.0.0.1:")),
        "the headless output names each peer: {shown:?}"
    );
    let journal = net.journal();
    assert!(journal.contains(&format!("set port-a tcp-listen://{}", net.addr)));
    // No baud rate: the line's wire-time credit is zero.
    assert!(journal.contains("set line-a 0 8 0 1"), "{journal}");
    assert!(journal.contains("note A:\\x20connected\\x20from\\x20127.0.0.1:"));
}

/// A PGN file that can be written at the start but not when the game
/// ends: the game is kept in the log, the match goes on, and the exit
/// status says something failed.
#[test]
fn a_pgn_file_that_fails_later_ends_the_referee_with_status_1() {
    let mut net = Net::new();
    net.listen(&["--games", "1", "--max-moves", "6"]);
    net.seated("alpha", "A", 1, &["--think-ms", "100"]);
    net.seated("beta", "B", 2, &["--think-ms", "100"]);
    net.wait_game();
    // The PGN file's place is taken by a directory.
    std::fs::create_dir(net.path("games.pgn")).expect("a directory in the PGN's place");
    let codes = net.finish();
    assert_eq!(codes[0], 1, "the referee's exit status");
    let err = net.referee().stderr_text();
    assert!(
        err.contains("cannot write the PGN file") && err.contains("Is a directory"),
        "{err}"
    );
    assert!(net.log().contains("the game is kept here"), "{}", net.log());
}

/// Waits until `text()` holds `what`; panics after 30 s, showing it.
fn wait_text(what: &str, text: impl Fn() -> String) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let t = text();
        if t.contains(what) {
            return;
        }
        assert!(Instant::now() < deadline, "never said {what:?}:\n{t}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A client and a referee that connect to where nothing listens say
/// "connection refused" (and keep trying), not only that they wait.
#[test]
fn a_refused_connection_is_said_by_the_client_and_the_referee() {
    let net = Net::new();
    let nobody = [free_port(), free_port()].map(|a| format!("tcp://{a}"));
    let mut client = Proc::spawn(
        "client",
        &argus_bin(),
        &["client".to_string(), nobody[0].clone()],
    );
    wait_text("connection refused", || client.stderr_text());
    assert!(client.running(), "the client keeps trying");
    let err = client.stderr_text();
    assert!(!err.contains("no answer from the referee"), "{err}");
    client.kill();
    let mut referee = Proc::spawn(
        "referee",
        &argus_bin(),
        &[
            "referee".into(),
            nobody[0].clone(),
            nobody[1].clone(),
            "--headless".into(),
            "--log-dir".into(),
            text(&net.logs()),
        ],
    );
    for (port, url) in ["A", "B"].iter().zip(&nobody) {
        wait_text(&format!("{port}: {url}: cannot connect"), || net.log());
    }
    let log = net.log();
    assert!(log.contains("connection refused"), "{log}");
    assert!(
        net.transcript().contains("connection refused"),
        "{}",
        net.transcript()
    );
    assert!(referee.running(), "the referee keeps trying");
    referee.kill();
}

/// The referee's board shows a link it cannot connect as UNREACHABLE, not
/// "up" (it said "up" while every attempt was refused).
#[test]
fn the_board_shows_a_connection_that_cannot_be_made_as_unreachable() {
    skip_unless_tmux!();
    let dir = temp_dir("argus-unreachable-");
    let nobody = [free_port(), free_port()].map(|a| format!("tcp://{a}"));
    let command = format!(
        "'{}' referee {} {} --log-dir '{}'",
        argus_bin().display(),
        nobody[0],
        nobody[1],
        dir.path().join("logs").display()
    );
    let tmux = crate::tmux::Tmux::start(120, 40, dir.path(), &command);
    let screen = tmux.wait_for("both links unreachable", Duration::from_secs(30), |s| {
        s.matches("UNREACHABLE").count() == 2
    });
    assert!(!screen.contains("TCP  up"), "{screen}");
}

#[test]
fn a_tcp_client_plays_one_on_a_serial_cable() {
    if !socat_or_skip() {
        return;
    }
    let cable = Cable::new();
    let mut net = Net::new();
    let ends = [
        format!("tcp-listen://{}", net.addr),
        cable.a_str().to_string(),
    ];
    net.start_referee(&ends, &["--tc", "5m+1"]);
    let url = net.url();
    net.client(&url, "over-ip", 1, &QUICK);
    net.client(cable.b_str(), "on-serial", 2, &QUICK);
    assert_eq!(net.finish(), [0, 0, 0]);
    let games = net.games();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tag("White"), Some("over-ip"));
    assert_eq!(games[0].tag("Black"), Some("on-serial"));
    let journal = net.journal();
    assert!(journal.contains("set line-a 0 8 0 1"), "TCP: no credit");
    assert!(
        journal.contains("set line-b 9600 8 0 1"),
        "serial: 9600 baud"
    );
}

#[test]
fn a_client_killed_mid_game_reconnects_and_the_game_completes() {
    let mut net = Net::playing("30");
    let url = net.url();
    let a = 0;
    // Let a few moves be played, then kill A and start it again.
    net.wait_lines_from_a(8);
    let mut killed = net.clients.remove(a);
    killed.kill();
    net.wait_log("): link lost");
    net.client(&url, "alpha", 1, &["--think-ms", "30"]);
    let codes = net.finish();
    assert_eq!(codes[0], 0, "the referee finished the match");
    let games = net.games();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tag("White"), Some("alpha"), "A kept its seat");
    let log = net.log();
    assert!(log.contains("signed on as \"alpha\": seat A"), "{log}");
    assert!(net.transcript().contains("A: link back"));
    assert!(
        net.transcript().contains("refcom execute"),
        "A was resynced"
    );
}

/// A match whose client dropped out says whom it waits for and since
/// when at once (the every-minute repetition is the `Reminder`'s unit
/// test): on stdout when headless, in the log and on the web page.
#[test]
fn a_match_says_at_once_whom_it_waits_for_since_when_when_a_client_drops_out() {
    let mut net = Net::new();
    net.listen(&["--http", "127.0.0.1:0", "--http-linger", "0"]);
    let page = net
        .referee()
        .wait_stdout(Duration::from_secs(30), "the page's address", |l| {
            l.starts_with("the audience's page: http://")
        })
        .trim_start_matches("the audience's page: http://")
        .trim_end_matches('/')
        .to_string();
    net.seated("alpha", "A", 1, &["--think-ms", "30"]);
    net.seated("beta", "B", 2, &["--think-ms", "30"]);
    net.wait_game();
    net.wait_lines_from_a(8);
    let mut killed = net.clients.remove(0);
    killed.kill();
    // `waiting for alpha since HH:MM:SS`, with a wall-clock time.
    let is_waiting = |l: &str| {
        l.strip_prefix("waiting for alpha since ").is_some_and(|t| {
            t.len() == 8
                && t.bytes().enumerate().all(|(i, b)| match i {
                    2 | 5 => b == b':',
                    _ => b.is_ascii_digit(),
                })
        })
    };
    let line = net
        .referee()
        .wait_stdout(Duration::from_secs(30), "whom it waits for", is_waiting);
    net.wait_log(&line);
    // The page gets the state from its own thread: asked until it has it.
    let want = format!("\"waiting\":[\"{line}\"]");
    wait_text(&want, || crate::common::http::get(&page, "/state.json"));
    let url = net.url();
    net.client(&url, "alpha", 1, &["--think-ms", "30"]);
    assert_eq!(net.finish()[0], 0, "the referee finished the match");
}

#[test]
fn a_connection_from_an_address_not_allowed_is_closed_unread() {
    let mut net = Net::new();
    net.listen(&["--allow", "10.0.0.0/8"]);
    let mut s = TcpStream::connect(net.addr).expect("connect");
    let _ = s.write_all(sign_on("intruder").as_bytes());
    assert_eq!(read_to_close(&mut s), "", "closed without a byte");
    net.wait_log("refused a connection from 127.0.0.1");
    assert!(net.log().contains("not in --allow"));
    assert!(!net.transcript().contains("intruder"));
    net.referee().interrupt();
    assert_eq!(net.referee().wait_exit(Duration::from_secs(20)), 3);
}

#[test]
fn a_second_connection_cannot_steal_a_taken_seat() {
    let mut net = Net::playing("20");
    let mut thief = TcpStream::connect(net.addr).expect("connect");
    thief.write_all(sign_on("alpha").as_bytes()).expect("write");
    let got = read_to_close(&mut thief);
    assert!(got.contains("refcom disconnect;"), "{got:?}");
    net.wait_log("seat A is taken by a live connection of \"alpha\"");
    assert_eq!(net.finish(), [0, 0, 0], "the game went on");
    assert_eq!(net.games().len(), 1);
}

#[test]
fn the_password_is_checked_and_never_recorded() {
    let mut net = Net::new();
    net.listen(&["--password", "s3cret-pw"]);
    // A wrong password, and none at all: refused.
    let mut wrong = TcpStream::connect(net.addr).expect("connect");
    let mut line = password_line("guess");
    line.push_str("\r\n");
    line.push_str(&sign_on("guesser"));
    wrong.write_all(line.as_bytes()).expect("write");
    assert!(read_to_close(&mut wrong).contains("refcom disconnect;"));
    net.wait_log("gave a wrong password");
    let mut none = TcpStream::connect(net.addr).expect("connect");
    none.write_all(sign_on("no-pw").as_bytes()).expect("write");
    assert!(read_to_close(&mut none).contains("refcom disconnect;"));
    net.wait_log("signed on without the password");
    // argus client with a wrong password says it was refused, and fails.
    let url = net.url();
    let wrong = net.client(&url, "gamma", 3, &["--password", "nope"]);
    assert_eq!(net.clients[wrong].wait_exit(Duration::from_secs(20)), 1);
    let said = net.clients.remove(wrong).stderr_text();
    assert!(
        said.contains("argus client: disconnect before anything else: the referee refused"),
        "{said}"
    );
    // The right one: a whole game.
    let pw = ["--password", "s3cret-pw", "--think-ms", "0"];
    net.client(&url, "alpha", 1, &pw);
    net.client(&url, "beta", 2, &pw);
    assert_eq!(net.finish(), [0, 0, 0]);
    assert_eq!(net.games().len(), 1);
    for (what, text) in [
        ("transcript", net.transcript()),
        ("journal", net.journal()),
        ("log", net.log()),
    ] {
        assert!(!text.contains("s3cret"), "the {what} holds the password");
        assert!(!text.contains("guess\""), "the {what} holds a guess");
    }
}

/// The referee's resident memory in KiB, from /proc.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

#[test]
fn idle_and_flooding_connections_do_not_stop_the_game() {
    let mut net = Net::playing("10");
    let pid = net.referee().pid().expect("the referee runs");
    let before = rss_kib(pid);
    // 200 connections that say nothing (most are closed at once: at most
    // 16 may wait to sign on), and one that floods without a line end.
    let idle: Vec<TcpStream> = (0..200)
        .filter_map(|_| TcpStream::connect(net.addr).ok())
        .collect();
    let addr = net.addr;
    let flood = std::thread::spawn(move || {
        let Ok(mut s) = TcpStream::connect(addr) else {
            return 0usize;
        };
        let chunk = vec![b'x'; 64 * 1024];
        let mut sent = 0usize;
        // Until the referee closes it, or 64 MiB.
        while sent < 64 << 20 {
            match s.write(&chunk) {
                Ok(n) if n > 0 => sent += n,
                _ => break,
            }
        }
        sent
    });
    let mut peak = before;
    while !flood.is_finished() {
        peak = peak.max(rss_kib(pid));
        std::thread::sleep(Duration::from_millis(50));
    }
    let flooded = flood.join().unwrap_or(0);
    assert_eq!(net.finish(), [0, 0, 0], "the game finished normally");
    assert_eq!(net.games().len(), 1);
    drop(idle);
    let log = net.log();
    assert!(
        log.contains("connections are already waiting to sign on"),
        "the greeting places ran out and later connections were closed"
    );
    assert!(
        flooded < 64 << 20,
        "the flooding connection was never cut off"
    );
    // Bounded: a few MiB of thread stacks and buffers, not the flood.
    assert!(
        peak < before + 64 * 1024,
        "the referee grew from {before} KiB to {peak} KiB"
    );
}

#[test]
fn a_resumed_referee_seats_the_reconnecting_clients_by_their_names() {
    let mut net = Net::playing("30");
    net.wait_lines_from_a(6);
    net.referee().kill();
    // The clients lose the referee and connect again with backoff; the new
    // one seats them by the names the journal knows, whoever comes first.
    // The match's journal: the event's on the tournament's loop.
    let journal = ["tournament.journal", "journal.log"]
        .map(|name| net.logs().join(name))
        .into_iter()
        .find(|path| path.exists())
        .expect("the match's journal");
    let args: Vec<String> = vec![
        "resume".into(),
        text(&journal),
        "--listen".into(),
        net.addr.to_string(),
        "--headless".into(),
    ];
    net.referee = Some(Proc::spawn("resumed referee", &argus_bin(), &args));
    assert_eq!(net.finish(), [0, 0, 0]);
    let games = net.games();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tag("White"), Some("alpha"));
    let log = net.log();
    for seat in ["\"alpha\": seat A", "\"beta\": seat B"] {
        assert_eq!(
            log.matches(seat).count(),
            2,
            "{seat} before and after:\n{log}"
        );
    }
}

#[test]
fn a_seated_client_that_floods_lines_does_not_grow_the_referee() {
    let mut net = Net::new();
    net.listen(&[]);
    net.seated("alpha", "A", 1, &["--think-ms", "0"]);
    let mut flood = TcpStream::connect(net.addr).expect("connect");
    flood
        .write_all(sign_on("flood").as_bytes())
        .expect("sign on");
    net.wait_log("signed on as \"flood\": seat B");
    let pid = net.referee().pid().expect("the referee runs");
    let before = rss_kib(pid);
    // Short bad lines as fast as the socket takes them, for 2 s: each
    // is rejected; the referee reads them no faster than it handles them.
    flood
        .set_write_timeout(Some(Duration::from_millis(200)))
        .ok();
    let lines = "refreq nonsense;\r\n".repeat(4096);
    let (mut peak, mut sent) = (before, 0usize);
    let end = Instant::now() + Duration::from_secs(2);
    while Instant::now() < end {
        if let Ok(n) = flood.write(lines.as_bytes()) {
            sent += n;
        }
        peak = peak.max(rss_kib(pid));
    }
    assert!(sent > 1 << 20, "the flood sent only {sent} bytes");
    assert!(net.referee().running(), "the referee survived the flood");
    assert!(
        peak < before + 64 * 1024,
        "the referee grew from {before} KiB to {peak} KiB under {sent} bytes of flood"
    );
    net.referee().interrupt();
    assert_eq!(net.referee().wait_exit(Duration::from_secs(60)), 3);
}

/// The referee reaches seat A by connecting out (`tcp://`), through
/// `argus wire` listening on TCP and carrying the line on to a serial
/// cable, where the client sits; seat B listens for a TCP client. The
/// wire paces the bytes at 115200 baud both ways, and the match is played.
#[test]
fn a_referee_connecting_out_reaches_a_client_through_argus_wire() {
    if !socat_or_skip() {
        return;
    }
    let cable = Cable::new();
    let mut net = Net::new();
    let wire_addr = free_port();
    let mut wire = crate::common::wire_to_cable(wire_addr, cable.a_str());
    net.client(cable.b_str(), "behind-the-wire", 1, &QUICK);
    let ends = [
        format!("tcp://{wire_addr}"),
        format!("tcp-listen://{}", net.addr),
    ];
    net.start_referee(&ends, &["--tc", "5m+1"]);
    let url = net.url();
    net.client(&url, "over-ip", 2, &QUICK);
    assert_eq!(net.finish(), [0, 0, 0]);
    let games = net.games();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tag("White"), Some("behind-the-wire"));
    assert_eq!(games[0].tag("Black"), Some("over-ip"));
    assert!(
        net.journal()
            .contains(&format!("set port-a tcp://{wire_addr}")),
        "{}",
        net.journal()
    );
    // The referee hung up after the match: the wire's TCP end ends, and
    // the wire stops with what it carried both ways.
    // (A peer that hangs up ends the wire normally, and it says so.)
    assert_eq!(
        wire.wait_exit(Duration::from_secs(20)),
        0,
        "{}",
        wire.describe()
    );
    assert!(
        wire.stderr_text()
            .contains("the other side closed the connection"),
        "{}",
        wire.describe()
    );
    let said = wire.stdout_lines().join("\n");
    assert_eq!(said.matches(" delivered, 0 corrupted").count(), 2, "{said}");
    assert!(
        !said.contains(": 0 bytes"),
        "a direction carried nothing: {said}"
    );
}

/// An engine client named with --name says both names: the one it signs
/// on with and the engine's own.
#[test]
fn an_engine_client_named_otherwise_says_both_names() {
    let engine = crate::common::fixture("uci-random").display().to_string();
    let nobody = format!("tcp://{}", free_port());
    let mut client = Proc::spawn(
        "client",
        &argus_bin(),
        &[
            "client".into(),
            nobody,
            "--engine".into(),
            engine,
            "--name".into(),
            "SF-A".into(),
        ],
    );
    wait_text("is ready", || client.stderr_text());
    let err = client.stderr_text();
    assert!(
        err.contains("client: engine \"SF-A\" (uci-random) is ready"),
        "{err}"
    );
    client.kill();
}
