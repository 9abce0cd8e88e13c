//! `argus referee` refereeing two `argus client`s, all three the real
//! binary as child processes, over virtual null-modem cables (socat) or,
//! when `ARGUS_HW_A`, `ARGUS_HW_B`, `ARGUS_HW_CLIENT_A` and
//! `ARGUS_HW_CLIENT_B` are set, over real serial ports (see
//! docs/hardware.md). Without either, each test prints `SKIPPED: ...`.
//!
//! Each test checks what a tournament director would: the exit codes, the
//! PGN file (every game replayed move by move, the result consistent with
//! the final position and the Termination tag), the byte transcript (every
//! move relayed and received as an `sm`), and the headless printout.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::process::Proc;
use crate::common::rig::Rig;
use crate::common::{argus_bin, long_opening};
use argus::epd::line_check::{self, Checked};
use argus::epd::{Record, RefCom, RefReq};
use argus::game::{self, Chess, Game};
use argus::link::{PortSettings, open_port};
use argus::record::pgn_read::{PgnText, read_pgn_games};
use argus::record::transcript::{Direction, TranscriptLine, parse_line};
use shakmaty::Position;

/// The clients' names (sent with `tcsi`).
const NAMES: [&str; 2] = ["alpha", "beta"];
/// Port labels in the transcript.
const PORTS: [&str; 2] = ["A", "B"];

// ----- a session under test ---------------------------------------------

/// One referee session: the wiring, a temporary directory for its files,
/// and the processes. On a failed test it prints everything it knows.
struct Bout {
    rig: Rig,
    dir: tempfile::TempDir,
    referee: Option<Proc>,
    clients: [Option<Proc>; 2],
    /// Where the referee writes its transcript.
    log_dir: PathBuf,
    /// Added to the referee's environment.
    env: Vec<(&'static str, &'static str)>,
}

impl Bout {
    fn new(rig: Rig) -> Bout {
        let dir = tempfile::Builder::new()
            .prefix("argus-referee-")
            .tempdir()
            .unwrap_or_else(|e| panic!("cannot make a temporary directory: {e}"));
        let log_dir = dir.path().join("logs");
        Bout {
            rig,
            dir,
            referee: None,
            clients: [None, None],
            log_dir,
            env: Vec::new(),
        }
    }

    /// A file in the session's temporary directory.
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn pgn_path(&self) -> PathBuf {
        self.path("games.pgn")
    }

    /// Starts the referee with the usual files and short delays, plus
    /// `extra` options, and waits until it has opened its ports.
    fn start_referee(&mut self, extra: &[&str]) {
        let mut args = self.referee_ports();
        args.extend(strings(&["--headless", "--log-dir"]));
        args.push(path_arg(&self.log_dir));
        args.push("--pgn".into());
        args.push(path_arg(&self.pgn_path()));
        args.extend(strings(&[
            "--reset-delay",
            "0.2",
            "--conclude-delay",
            "0.2",
        ]));
        args.extend(strings(extra));
        self.start_referee_raw(args, None);
    }

    /// `referee PORT_A PORT_B` (the rest of the command line is the
    /// caller's).
    fn referee_ports(&self) -> Vec<String> {
        let mut args = vec!["referee".to_string()];
        args.extend(self.rig.referee.iter().cloned());
        args
    }

    /// Starts the referee with exactly `args` (plus the rig's line
    /// options); `log_dir`, when given, is where it logs.
    fn start_referee_raw(&mut self, mut args: Vec<String>, log_dir: Option<PathBuf>) {
        if let Some(d) = log_dir {
            self.log_dir = d;
        }
        args.extend(self.rig.line_args().iter().cloned());
        let mut p = Proc::spawn_env("referee", &argus_bin(), &args, &self.env);
        // Clients started before the referee opens its ports would lose
        // their first sign-on (argus discards stale input at open) and
        // repeat it only seconds later: wait for the session to begin.
        let log = self.log_dir.join("argus.log");
        let within = self.rig.within(20);
        let deadline = Instant::now() + within;
        loop {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            if text.contains("referee session:") {
                break;
            }
            if !p.running() {
                let _ = p.wait_exit(Duration::from_secs(1));
                panic!("the referee exited at start\n{}", p.describe());
            }
            if Instant::now() >= deadline {
                panic!(
                    "the referee did not open its ports within {within:?}\n{}",
                    p.describe()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.referee = Some(p);
    }

    /// Starts client `i` (0 = A, 1 = B) with its name, `seed` and `extra`
    /// options, replacing a previous one.
    fn start_client(&mut self, i: usize, seed: u64, extra: &[&str]) {
        let mut args = vec!["client".to_string(), self.rig.client[i].clone()];
        args.extend(strings(&["--name", NAMES[i], "--seed"]));
        args.push(seed.to_string());
        args.extend(strings(extra));
        args.extend(self.rig.line_args().iter().cloned());
        let label = format!("client {}", PORTS[i]);
        self.clients[i] = Some(Proc::spawn(&label, &argus_bin(), &args));
    }

    fn referee(&mut self) -> &mut Proc {
        self.referee.as_mut().expect("the referee was started")
    }

    fn client(&mut self, i: usize) -> &mut Proc {
        self.clients[i].as_mut().expect("the client was started")
    }

    /// Waits for the referee and then both clients to exit; returns their
    /// exit codes `[referee, A, B]`.
    fn finish(&mut self, referee_secs: u64) -> [i32; 3] {
        let r = self.rig.within(referee_secs);
        let c = self.rig.within(15);
        let code = self.referee().wait_exit(r);
        [
            code,
            self.client(0).wait_exit(c),
            self.client(1).wait_exit(c),
        ]
    }

    /// The transcript so far (complete lines only), parsed.
    fn transcript(&self) -> Vec<TranscriptLine> {
        crate::common::transcript_text(&self.log_dir)
            .lines()
            .enumerate()
            .map(|(i, l)| {
                parse_line(l).unwrap_or_else(|e| {
                    let dir = self.log_dir.display();
                    panic!("{dir}: transcript line {}: {e}", i + 1)
                })
            })
            .collect()
    }

    /// Waits until the transcript satisfies `pred`; panics naming `what`
    /// after `secs` (stretched for hardware) or when the referee exits.
    fn wait_transcript(
        &mut self,
        secs: u64,
        what: &str,
        pred: impl Fn(&[TranscriptLine]) -> bool,
    ) -> Vec<TranscriptLine> {
        let within = self.rig.within(secs);
        let deadline = Instant::now() + within;
        loop {
            let lines = self.transcript();
            if pred(&lines) {
                return lines;
            }
            if !self.referee().running() {
                panic!("the referee exited before the transcript showed {what}");
            }
            if Instant::now() >= deadline {
                panic!("the transcript did not show {what} within {within:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The games in the PGN file at `path`.
    fn games_in(&self, path: &Path) -> Vec<PgnText> {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read the PGN file {}: {e}", path.display()));
        read_pgn_games(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }
}

impl Drop for Bout {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            return;
        }
        // The processes are killed when their fields drop, after this.
        let procs = std::iter::once(&self.referee).chain(self.clients.iter());
        for p in procs.flatten() {
            eprintln!("{}", p.describe());
        }
        let path = self.log_dir.join("transcript.log");
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let from = lines.len().saturating_sub(40);
        eprintln!(
            "--- last lines of {}:\n{}",
            path.display(),
            lines[from..].join("\n")
        );
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn path_arg(p: &Path) -> String {
    p.to_str()
        .unwrap_or_else(|| panic!("temporary path is not UTF-8: {}", p.display()))
        .to_string()
}

// ----- checks -------------------------------------------------------------

/// Replays a PGN game from its start (the `FEN` tag with `SetUp "1"`, else
/// the initial position); every move must be legal and written in the
/// canonical SAN.
fn replay(g: &PgnText) -> Game {
    let start = match g.tag("FEN") {
        Some(fen) => {
            assert_eq!(
                g.tag("SetUp"),
                Some("1"),
                "game at line {}: FEN without SetUp",
                g.line
            );
            game::position_from_fen(fen)
                .unwrap_or_else(|e| panic!("game at line {}: bad FEN {fen:?}: {e}", g.line))
        }
        None => Chess::default(),
    };
    let mut replayed = Game::new(start);
    for (i, san) in g.sans.iter().enumerate() {
        if let Err(e) = replayed.play_san(san) {
            panic!(
                "game at line {}: ply {} {san:?} is not legal: {e}",
                g.line,
                i + 1
            );
        }
        let written = replayed.sans().last().map(String::as_str);
        assert_eq!(
            written,
            Some(san.as_str()),
            "game at line {}: SAN not canonical",
            g.line
        );
    }
    replayed
}

/// Checks one finished (or unterminated) game: the result marker equals the
/// Result tag, the moves replay, and the result is what the final position
/// and the Termination tag say it must be. Returns the replayed game.
fn check_game(g: &PgnText) -> Game {
    let at = g.line;
    let result = g
        .tag("Result")
        .unwrap_or_else(|| panic!("game at line {at}: no Result tag"));
    assert_eq!(
        g.result.as_deref(),
        Some(result),
        "game at line {at}: marker vs tag"
    );
    for tag in [
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "TimeControl",
    ] {
        assert!(g.tag(tag).is_some(), "game at line {at}: no {tag} tag");
    }
    let replayed = replay(g);
    let pos = replayed.position();
    let termination = g
        .tag("Termination")
        .unwrap_or_else(|| panic!("game at line {at}: no Termination tag"));
    match termination {
        "normal" => match replayed.automatic_end() {
            Some(end) => assert_eq!(result, end.result(), "game at line {at}: {end}"),
            None => {
                // The reference clients neither resign nor agree draws: a
                // normal end without an automatic one is a draw claim, valid
                // now or with the (unplayed) claiming move.
                assert_eq!(result, "1/2-1/2", "game at line {at}: normal end, no mate");
                let claimable = replayed.claimable_draw().is_some()
                    || pos
                        .legal_moves()
                        .iter()
                        .any(|m| replayed.claimable_draw_after(m).is_some());
                assert!(
                    claimable,
                    "game at line {at}: drawn but no draw was claimable"
                );
            }
        },
        "time forfeit" => {
            let loser = pos.turn();
            let want = if game::can_mate(pos, !loser) {
                if loser.is_white() { "0-1" } else { "1-0" }
            } else {
                "1/2-1/2"
            };
            assert_eq!(
                result, want,
                "game at line {at}: flag of the side to move fell"
            );
            assert!(
                replayed.automatic_end().is_none(),
                "game at line {at}: over before the flag"
            );
        }
        "unterminated" => assert_eq!(result, "*", "game at line {at}"),
        other => panic!("game at line {at}: unexpected Termination {other:?} (result {result})"),
    }
    replayed
}

/// The record in a transcript line's bytes (line end stripped), if it
/// parses.
fn record_of(l: &TranscriptLine) -> Option<Record> {
    let text = String::from_utf8_lossy(&l.bytes);
    Record::parse(text.trim_end_matches(['\r', '\n', '\0'])).ok()
}

fn is_reply(r: &Record) -> bool {
    matches!(r.refreq(), Ok(Some(RefReq::Reply)))
}

fn is_refcom(r: &Record, c: RefCom) -> bool {
    r.refcom().ok().flatten() == Some(c)
}

/// The records that went `dir` on `port`, in order.
fn records(lines: &[TranscriptLine], port: &str, dir: Direction) -> Vec<Record> {
    lines
        .iter()
        .filter(|l| l.port == port && l.direction == dir)
        .filter_map(record_of)
        .collect()
}

/// How many replies client `port` has sent.
fn replies(lines: &[TranscriptLine], port: &str) -> usize {
    records(lines, port, Direction::In)
        .iter()
        .filter(|r| is_reply(r))
        .count()
}

/// Every item of `want` must be in `have` at least as often.
fn assert_contains_counted(want: &[String], have: &[String], what: &str) {
    let mut left: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for h in have {
        *left.entry(h.as_str()).or_default() += 1;
    }
    for (i, w) in want.iter().enumerate() {
        match left.get_mut(w.as_str()) {
            Some(n) if *n > 0 => *n -= 1,
            _ => panic!(
                "{what}: {w:?} (number {} of {}) is missing\nwanted: {want:?}\nfound: {have:?}",
                i + 1,
                want.len()
            ),
        }
    }
}

/// `want` must be a subsequence of `have` (in order, gaps allowed).
fn assert_subsequence(want: &[String], have: &[String], what: &str) {
    let mut it = have.iter();
    for (i, w) in want.iter().enumerate() {
        if !it.any(|h| h == w) {
            panic!(
                "{what}: {w:?} (number {} of {}) is missing or out of order\nwanted: {want:?}\nfound: {have:?}",
                i + 1,
                want.len()
            );
        }
    }
}

/// Checks the transcript against the PGN: both directions on both ports;
/// every move but each game's last went out to a client as an `sm`
/// (`respond`, or `execute` for opening moves and resyncs); every move the
/// clients played (after `opening_plies[k]` plies of game k) came in as the
/// `sm` of a reply.
fn check_transcript(lines: &[TranscriptLine], games: &[PgnText], opening_plies: &[usize]) {
    for port in PORTS {
        for dir in [Direction::In, Direction::Out] {
            assert!(
                lines.iter().any(|l| l.port == port && l.direction == dir),
                "transcript: nothing went {dir:?} on {port}"
            );
        }
    }
    let sm = |r: &Record| r.sm().ok().flatten().map(str::to_string);
    let sent: Vec<String> = lines
        .iter()
        .filter(|l| l.direction == Direction::Out)
        .filter_map(record_of)
        .filter_map(|r| sm(&r))
        .collect();
    let received: Vec<String> = lines
        .iter()
        .filter(|l| l.direction == Direction::In)
        .filter_map(record_of)
        .filter(is_reply)
        .filter_map(|r| sm(&r))
        .collect();
    let relayed: Vec<String> = games
        .iter()
        .flat_map(|g| g.sans[..g.sans.len().saturating_sub(1)].iter().cloned())
        .collect();
    // Counted, not ordered: the transcript writes a record when its
    // writer thread reports it gone, and under load the report of a
    // respond to A can come after A's reply has been relayed to B. (The
    // replies, below, are in causal order: each is read before anything
    // it causes is sent.)
    assert_contains_counted(&relayed, &sent, "moves sent to the clients");
    let played: Vec<String> = games
        .iter()
        .zip(opening_plies)
        .flat_map(|(g, &o)| g.sans.iter().skip(o).cloned())
        .collect();
    assert_subsequence(&played, &received, "moves received from the clients");
}

/// Checks the headless printout against the PGN: a start line and a result
/// line for every game.
fn check_headless(stdout: &[String], games: &[PgnText]) {
    for (i, g) in games.iter().enumerate() {
        let n = i + 1;
        let tag = |t: &str| g.tag(t).unwrap_or("?");
        let start = format!(
            "game {n}: {} (White) vs {} (Black)",
            tag("White"),
            tag("Black")
        );
        assert!(stdout.contains(&start), "no line {start:?} in {stdout:#?}");
        // The result, then how the game ended in words (the PGN's closing
        // comment), e.g. "game 1: 1-0 (Black resigns)".
        let over = format!("game {n}: {} (", tag("Result"));
        assert!(
            stdout.iter().any(|l| l.starts_with(&over)),
            "no line starting {over:?} in {stdout:#?}"
        );
    }
}

/// Points as the summary writes them (`3`, `2.5`).
fn points(halves: u32) -> String {
    if halves.is_multiple_of(2) {
        format!("{}", halves / 2)
    } else {
        format!("{}.5", halves / 2)
    }
}

/// The match summary line the referee must print for these games.
/// The headless "match over" line is there, with the score of `games` and
/// how many of them had a result.
fn assert_summary(stdout: &[String], games: &[PgnText]) {
    let summary = expected_summary(games);
    let decided = games
        .iter()
        .filter(|g| g.tag("Result") != Some("*"))
        .count();
    let count = format!(
        "({decided} game{} with a result)",
        if decided == 1 { "" } else { "s" }
    );
    assert!(
        stdout
            .iter()
            .any(|l| l.starts_with(&summary) && l.contains(&count)),
        "no summary {summary:?} {count:?} in {stdout:#?}"
    );
}

fn expected_summary(games: &[PgnText]) -> String {
    let mut halves = [0u32; 2];
    for g in games {
        let white = usize::from(g.tag("White") != Some(NAMES[0]));
        match g.tag("Result") {
            Some("1-0") => halves[white] += 2,
            Some("0-1") => halves[1 - white] += 2,
            Some("1/2-1/2") => {
                halves[0] += 1;
                halves[1] += 1;
            }
            _ => {}
        }
    }
    format!(
        "match over: {} {} - {} {}",
        NAMES[0],
        points(halves[0]),
        points(halves[1]),
        NAMES[1]
    )
}

/// The four position fields of a FEN or EPD line.
fn four_fields(s: &str) -> String {
    s.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

// ----- the tests ------------------------------------------------------------

/// What testers' tools read in a match's PGN (python-chess): every game
/// without errors, its closing comment as the last move's comment and in
/// the console's result line, `Termination`, `PlyCount`, and the times
/// fastchess writes, in the local time of the referee's time zone (`TZ`
/// five and a half hours east of UTC), in the PGN file and the live PGN.
#[test]
fn python_chess_reads_a_matchs_closing_comments_and_tags() {
    if !crate::common::python_chess::available() {
        return;
    }
    let rig = rig_or_skip!();
    let mut bout = Bout::new(rig);
    bout.env = vec![("TZ", "IST-5:30")];
    let live = bout.path("live.pgn");
    bout.start_referee(&["--games", "2", "--live-pgn", &path_arg(&live)]);
    bout.start_client(0, 3, &[]);
    bout.start_client(1, 4, &[]);
    assert_eq!(bout.finish(90), [0, 0, 0]);
    let stdout = bout.referee().stdout_lines();
    let pgn = bout.pgn_path();
    let games = crate::common::python_chess::read_games(&[&pgn, &live]);
    assert_eq!(games.len(), 3, "two games and the live one: {games:#?}");
    for (i, g) in games.iter().enumerate() {
        let comment = crate::common::python_chess::check_finished(g, "+0530");
        let n = if i < 2 { i + 1 } else { 2 };
        let words = comment.split("; ").next().unwrap_or_default();
        let line = format!("game {n}: {} ({words})", g.tag("Result").unwrap_or("?"));
        assert!(
            stdout.contains(&line),
            "no line {line:?} for the closing comment {comment:?}: {stdout:#?}"
        );
    }
    // The live PGN was last rewritten with game 2 as the file has it.
    assert_eq!(games[2].headers, games[1].headers);
    assert_eq!(games[2].end_comment, games[1].end_comment);
}

#[test]
fn a_full_game_between_two_reference_clients() {
    let rig = rig_or_skip!();
    let mut bout = Bout::new(rig);
    let live = bout.path("live.pgn");
    bout.start_referee(&["--live-pgn", &path_arg(&live)]);
    // A checks its lines (the default), B does not.
    bout.start_client(0, 1, &[]);
    bout.start_client(1, 2, &["--no-line-check"]);
    assert_eq!(bout.finish(60), [0, 0, 0]);

    let games = bout.games_in(&bout.pgn_path());
    assert_eq!(games.len(), 1);
    let g = &games[0];
    check_game(g);
    // The live PGN was last rewritten with the finished game.
    let live_games = bout.games_in(&live);
    assert_eq!(live_games.len(), 1, "the live PGN holds one game");
    assert_eq!(live_games[0].sans, g.sans);
    assert_eq!(live_games[0].tag("Result"), g.tag("Result"));
    assert_eq!(g.tag("White"), Some(NAMES[0]));
    assert_eq!(g.tag("Black"), Some(NAMES[1]));
    assert_eq!(g.tag("TimeControl"), Some("-"));
    assert_eq!(g.tag("Termination"), Some("normal"));
    assert!(g.sans.len() >= 2, "a game of {} plies", g.sans.len());

    let lines = bout.transcript();
    check_transcript(&lines, &games, &[0]);
    // Every line to and from A carries a good Acrc check; no line of B's.
    for l in lines.iter().filter(|l| l.direction != Direction::Note) {
        let text = String::from_utf8_lossy(&l.bytes);
        let text = text.trim_end_matches(['\r', '\n']);
        let check = line_check::verify(text);
        if l.port == PORTS[0] {
            assert!(matches!(check, Checked::Valid(_)), "A: {text}");
        } else {
            assert_eq!(check, Checked::Absent, "B: {text}");
        }
    }
    for (i, port) in PORTS.iter().enumerate() {
        let sign_on = records(&lines, port, Direction::In)
            .into_iter()
            .find(|r| matches!(r.refreq(), Ok(Some(RefReq::SignOn))))
            .unwrap_or_else(|| panic!("no sign-on from {port}"));
        assert_eq!(
            sign_on.tcsi().ok().flatten().map(|(_, n)| n),
            Some(NAMES[i].to_string())
        );
        let out = records(&lines, port, Direction::Out);
        assert!(
            out.first().is_some_and(|r| is_refcom(r, RefCom::Reset)),
            "{port}: reset first"
        );
        assert!(
            out.last().is_some_and(|r| is_refcom(r, RefCom::Disconnect)),
            "{port}: disconnect last"
        );
    }

    let stdout = bout.referee().stdout_lines();
    check_headless(&stdout, &games);
    assert_summary(&stdout, &games);
    for i in 0..2 {
        let err = bout.client(i).stderr_text();
        assert!(
            err.contains("disconnect"),
            "client {i} did not see disconnect: {err}"
        );
    }
}

#[test]
fn a_six_game_match_alternates_colours_and_plays_each_opening_with_each_colour() {
    let rig = rig_or_skip!();
    let mut bout = Bout::new(rig);
    let openings = [
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"sicilian\";",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -",
    ];
    let file = bout.path("openings.epd");
    std::fs::write(&file, openings.join("\n") + "\n").expect("write the openings");
    let file = path_arg(&file);
    bout.start_referee(&["--games", "6", "--openings", &file, "--tc", "300+5"]);
    bout.start_client(0, 3, &[]);
    bout.start_client(1, 4, &[]);
    assert_eq!(bout.finish(120), [0, 0, 0]);

    let games = bout.games_in(&bout.pgn_path());
    assert_eq!(games.len(), 6, "games in the PGN");
    let mut white_per_opening = vec![Vec::new(); openings.len()];
    for (i, g) in games.iter().enumerate() {
        let n = i + 1;
        check_game(g);
        assert_eq!(g.tag("Round"), Some(n.to_string().as_str()));
        assert_eq!(g.tag("TimeControl"), Some("300+5"));
        let (white, black) = if n % 2 == 1 {
            (NAMES[0], NAMES[1])
        } else {
            (NAMES[1], NAMES[0])
        };
        assert_eq!(
            (g.tag("White"), g.tag("Black")),
            (Some(white), Some(black)),
            "game {n}"
        );
        let fen = g
            .tag("FEN")
            .unwrap_or_else(|| panic!("game {n}: no FEN tag"));
        let opening = openings
            .iter()
            .position(|o| four_fields(o) == four_fields(fen))
            .unwrap_or_else(|| panic!("game {n}: FEN {fen:?} is none of the openings"));
        white_per_opening[opening].push(white);
    }
    for (o, whites) in white_per_opening.iter_mut().enumerate() {
        whites.sort_unstable();
        assert_eq!(whites, &[NAMES[0], NAMES[1]], "opening {} colours", o + 1);
    }
    let pgn_text = std::fs::read_to_string(bout.pgn_path()).unwrap_or_default();
    assert!(pgn_text.contains("[%clk "), "a timed game records %clk");

    check_transcript(&bout.transcript(), &games, &[0; 6]);
    let stdout = bout.referee().stdout_lines();
    check_headless(&stdout, &games);
    assert_summary(&stdout, &games);
}

#[test]
fn a_slow_client_loses_on_time() {
    let rig = rig_or_skip!();
    let mut bout = Bout::new(rig);
    bout.start_referee(&["--tc", "2s"]);
    bout.start_client(0, 5, &[]);
    // Black thinks longer than its whole clock.
    bout.start_client(1, 6, &["--think-ms", "3500"]);
    assert_eq!(bout.finish(60), [0, 0, 0]);

    let games = bout.games_in(&bout.pgn_path());
    assert_eq!(games.len(), 1);
    let g = &games[0];
    let replayed = check_game(g);
    assert_eq!(g.tag("Termination"), Some("time forfeit"));
    assert_eq!(g.tag("Result"), Some("1-0"), "Black (the slow side) loses");
    assert_eq!(g.sans.len(), 1, "White moved, Black never did");
    assert!(replayed.position().turn().is_black());
    assert_eq!(g.tag("TimeControl"), Some("2"));

    check_transcript(&bout.transcript(), &games, &[0]);
    let stdout = bout.referee().stdout_lines();
    check_headless(&stdout, &games);
}

#[test]
fn a_move_that_took_150_ms_never_reads_less_than_100_ms() {
    // Over socat cables a reply line comes whole in one read: it spent no
    // time on a wire, so no wire-time credit may be taken off the time the
    // client thought (at 9600 baud the ~100-byte reply's full wire time,
    // ~100 ms, would leave some 50 ms of a 150 ms think, or nothing).
    // Over real ports the line is paced and its wire time is credited:
    // the move still took its 150 ms.
    let rig = rig_or_skip!();
    let mut bout = Bout::new(rig);
    bout.start_referee(&["--tc", "5m", "--max-moves", "6"]);
    bout.start_client(0, 3, &["--think-ms", "150"]);
    bout.start_client(1, 4, &["--think-ms", "150"]);
    assert_eq!(bout.finish(60), [0, 0, 0]);

    let games = bout.games_in(&bout.pgn_path());
    assert_eq!(games.len(), 1);
    replay(&games[0]);
    let text = std::fs::read_to_string(bout.pgn_path()).expect("the PGN");
    let emts: Vec<u64> = text
        .split("[%emt ")
        .skip(1)
        .map(|rest| {
            let time = rest.split(']').next().unwrap_or_default();
            argus::clock::parse_hms(time).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    assert_eq!(emts.len(), games[0].sans.len(), "an emt per move:\n{text}");
    assert!(
        emts.iter().all(|&ms| ms >= 100),
        "a move of 150 ms read less than 100 ms: {emts:?}\n{text}"
    );
}

/// The transcript's notes (link lost, records not queued, ...).
fn notes_of(lines: &[TranscriptLine]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.direction == Direction::Note)
        .map(|l| String::from_utf8_lossy(&l.bytes).into_owned())
        .collect()
}

/// Plays one game between two quick clients; after `replies` replies from
/// A, kills A and starts it again. Returns the game (checked, not
/// unterminated) and the transcript length at the kill.
fn kill_and_restart_a(
    bout: &mut Bout,
    args: &[&str],
    replies_before: usize,
) -> (Vec<PgnText>, usize) {
    bout.start_referee(args);
    bout.start_client(0, 1, &["--think-ms", "20"]);
    bout.start_client(1, 2, &["--think-ms", "20"]);
    let what = format!("{replies_before} replies from A");
    let before = bout.wait_transcript(60, &what, |l| replies(l, "A") >= replies_before);
    bout.client(0).kill();
    let killed_at = before.len();
    bout.start_client(0, 7, &["--think-ms", "20"]);
    assert_eq!(bout.finish(120), [0, 0, 0]);
    let games = bout.games_in(&bout.pgn_path());
    assert_eq!(games.len(), 1);
    check_game(&games[0]);
    assert_ne!(games[0].tag("Termination"), Some("unterminated"));
    (games, killed_at)
}

#[test]
fn a_killed_client_is_restarted_and_brought_back_in_line() {
    let rig = rig_or_skip!();
    let mut bout = Bout::new(rig);
    let (games, killed_at) = kill_and_restart_a(&mut bout, &[], 12);
    let g = &games[0];

    let lines = bout.transcript();
    let after = &lines[killed_at.min(lines.len())..];
    let a_in = records(after, "A", Direction::In);
    assert!(
        a_in.iter()
            .any(|r| matches!(r.refreq(), Ok(Some(RefReq::SignOn)))),
        "the restarted client signed on"
    );
    // After the restart A got reset, then the game so far as executes.
    let a_out = records(after, "A", Direction::Out);
    let reset = a_out
        .iter()
        .position(|r| is_refcom(r, RefCom::Reset))
        .expect("a reset to the restarted client");
    let executes: Vec<String> = a_out[reset..]
        .iter()
        .filter(|r| is_refcom(r, RefCom::Execute))
        .filter_map(|r| r.sm().ok().flatten().map(str::to_string))
        .collect();
    assert!(executes.len() >= 23, "{} executes", executes.len());
    assert_eq!(
        executes,
        g.sans[..executes.len()],
        "the executes replay the game from its start"
    );
    check_transcript(&lines, &games, &[0]);
    check_headless(&bout.referee().stdout_lines(), &games);
}

#[test]
fn a_client_restarted_after_move_100_gets_every_resync_record_in_order() {
    const PLIES: usize = 210;
    let rig = rig_or_skip!();
    let mut bout = Bout::new(rig);
    let file = bout.path("long.pgn");
    let pgn = format!("[Event \"long\"]\n\n{}*\n", long_opening(PLIES));
    std::fs::write(&file, pgn).expect("write the opening");
    let file = path_arg(&file);
    let plies = PLIES.to_string();
    // Already the game's start sends 210 executes in one burst.
    let args = [
        "--openings",
        file.as_str(),
        "--opening-plies",
        plies.as_str(),
    ];
    let (games, killed_at) = kill_and_restart_a(&mut bout, &args, 3);
    let g = &games[0];
    let lines = bout.transcript();
    let notes = notes_of(&lines);
    assert!(
        !notes.iter().any(|n| n.contains("not queued")),
        "records were refused: {:?}",
        notes
            .iter()
            .filter(|n| n.contains("not queued"))
            .take(3)
            .collect::<Vec<_>>()
    );
    // The game's start: every opening move went to both as an execute, in
    // order.
    for port in PORTS {
        let out = records(&lines[..killed_at.min(lines.len())], port, Direction::Out);
        let executes: Vec<String> = out
            .iter()
            .filter(|r| is_refcom(r, RefCom::Execute))
            .filter_map(|r| r.sm().ok().flatten().map(str::to_string))
            .collect();
        assert_eq!(executes, g.sans[..PLIES], "{port}: the opening's executes");
    }
    // The restart, past move 100: reset, inform, one execute per move so
    // far (all of them, in order), then play went on.
    let after = &lines[killed_at.min(lines.len())..];
    let a_out = records(after, "A", Direction::Out);
    let reset = a_out
        .iter()
        .position(|r| is_refcom(r, RefCom::Reset))
        .expect("a reset to the restarted client");
    let resync: Vec<&Record> = a_out[reset + 1..]
        .iter()
        .take_while(|r| !is_refcom(r, RefCom::Respond) && !is_refcom(r, RefCom::Conclude))
        .collect();
    assert!(
        is_refcom(resync[0], RefCom::Inform),
        "inform after the reset"
    );
    let executes: Vec<String> = resync[1..]
        .iter()
        .map(|r| {
            assert!(is_refcom(r, RefCom::Execute), "only executes after inform");
            r.sm()
                .ok()
                .flatten()
                .map(str::to_string)
                .expect("an execute's sm")
        })
        .collect();
    assert!(executes.len() > PLIES, "{} executes", executes.len());
    assert_eq!(
        executes,
        g.sans[..executes.len()],
        "the executes replay the game from its start, in order"
    );
    assert!(
        g.sans.len() > executes.len(),
        "the game went on after the resync ({} plies, {:?}): {:?}",
        g.sans.len(),
        g.tag("Result"),
        bout.referee().stdout_lines()
    );
    check_transcript(&lines, &games, &[PLIES]);
}

#[test]
fn a_pulled_cable_is_replugged_and_the_game_goes_on() {
    let rig = rig_or_skip!();
    if !rig.can_pull_or_skip() {
        return;
    }
    let within = rig.within(20);
    let mut bout = Bout::new(rig);
    bout.start_referee(&[]);
    bout.start_client(0, 1, &["--think-ms", "20"]);
    bout.start_client(1, 2, &["--think-ms", "20"]);
    bout.wait_transcript(30, "12 replies from A", |l| replies(l, "A") >= 12);
    bout.rig.pull(0);
    bout.referee()
        .wait_stdout(within, "A: link lost", |l| l.starts_with("A: link lost"));
    bout.rig.replug(0);
    bout.referee()
        .wait_stdout(within, "A: link back", |l| l == "A: link back");
    assert_eq!(bout.finish(90), [0, 0, 0]);

    let err = bout.client(0).stderr_text();
    assert!(err.contains("link lost"), "client A saw the loss: {err}");
    assert!(
        err.contains("link back"),
        "client A saw the link back: {err}"
    );
    let games = bout.games_in(&bout.pgn_path());
    assert_eq!(games.len(), 1);
    check_game(&games[0]);
    assert_eq!(games[0].tag("Termination"), Some("normal"));
    let lines = bout.transcript();
    let notes = notes_of(&lines);
    assert!(
        notes.iter().any(|n| n.starts_with("A: link lost")),
        "{notes:?}"
    );
    assert!(notes.iter().any(|n| n == "A: link back"), "{notes:?}");
    check_transcript(&lines, &games, &[0]);
}

#[test]
fn bad_usage_and_unopenable_ports_exit_with_status_2() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let logs = path_arg(&dir.path().join("logs"));
    let missing = ["/nonexistent/argus-port-a", "/nonexistent/argus-port-b"];
    let run = |args: &[&str]| -> (i32, String) {
        let mut p = Proc::spawn("argus", &argus_bin(), &strings(args));
        let code = p.wait_exit(Duration::from_secs(30));
        (code, p.stderr_text())
    };
    let base = [
        "referee",
        missing[0],
        missing[1],
        "--headless",
        "--log-dir",
        &logs,
    ];

    let (code, err) = run(&base);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(missing[0]), "names the port: {err}");

    for (flag, value, says) in [
        ("--tc", "fortnightly", "--tc"),
        ("--games", "0", "--games"),
        ("--baud", "0", "--baud"),
        (
            "--draw-adjudication",
            "movenumber=40 movecount=0 score=10",
            "--draw-adjudication \"movenumber=40 movecount=0 score=10\": movecount must be at least 1",
        ),
        (
            "--resign-adjudication",
            "score=400",
            "--resign-adjudication \"score=400\": movecount is missing",
        ),
        (
            "--openings",
            "/nonexistent/openings.epd",
            "/nonexistent/openings.epd",
        ),
    ] {
        let mut args = base.to_vec();
        args.extend([flag, value]);
        let (code, err) = run(&args);
        assert_eq!(code, 2, "{flag} {value}: {err}");
        assert!(err.contains(says), "{flag} {value}: says {says:?}: {err}");
    }

    // Usage errors caught by the command-line parser.
    let (code, err) = run(&["referee", missing[0]]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("PORT_B"), "{err}");
    let (code, err) = run(&["referee", missing[0], missing[1], "--no-such-flag"]);
    assert_eq!(code, 2, "{err}");

    let (code, err) = run(&["client", missing[0]]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(missing[0]), "names the port: {err}");
}

#[test]
fn outputs_that_cannot_be_written_are_refused_at_start_with_status_2() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let logs = dir.path().join("logs");
    let logs_arg = path_arg(&logs);
    let games_dir = path_arg(dir.path());
    let missing = path_arg(&dir.path().join("nope").join("r.json"));
    let addr = crate::common::free_port().to_string();
    let run = |args: &[&str]| -> (i32, String) {
        let mut p = Proc::spawn("argus", &argus_bin(), &strings(args));
        let code = p.wait_exit(Duration::from_secs(30));
        (code, p.stderr_text())
    };
    let referee = [
        "referee",
        "--listen",
        &addr,
        "--headless",
        "--log-dir",
        &logs_arg,
    ];
    for (flag, value, says) in [
        ("--pgn", games_dir.as_str(), "is a directory"),
        (
            "--results-json",
            missing.as_str(),
            "No such file or directory",
        ),
        (
            "--results-json",
            "/proc/nope/r.json",
            "No such file or directory",
        ),
        ("--live-pgn", games_dir.as_str(), "is a directory"),
        ("--cbf", missing.as_str(), "No such file or directory"),
    ] {
        let mut args = referee.to_vec();
        args.extend([flag, value]);
        let (code, err) = run(&args);
        assert_eq!(code, 2, "{flag} {value}: {err}");
        assert!(
            err.contains(&format!("{flag} ")) && err.contains(says),
            "{flag} {value}: says {says:?}: {err}"
        );
        assert!(
            !logs.exists(),
            "{flag} {value}: the refused start made its log directory"
        );
    }
    let tournament = [
        "tournament",
        "mover:a",
        "mover:b",
        "--headless",
        "--log-dir",
        &logs_arg,
    ];
    for (flag, value) in [
        ("--pgn", games_dir.as_str()),
        ("--report", missing.as_str()),
        ("--results-json", missing.as_str()),
    ] {
        let mut args = tournament.to_vec();
        args.extend([flag, value]);
        let (code, err) = run(&args);
        assert_eq!(code, 2, "tournament {flag} {value}: {err}");
        assert!(
            err.contains(&format!("{flag} ")),
            "tournament {flag} {value}: {err}"
        );
        assert!(
            !logs.exists(),
            "tournament {flag}: the refused start made its log directory"
        );
    }
    let (code, err) = run(&["demo", "--headless", "--pgn", &games_dir]);
    assert_eq!(code, 2, "demo --pgn DIR: {err}");
    assert!(err.contains("is a directory"), "{err}");
}

#[test]
fn a_port_in_use_is_refused_with_status_2() {
    let rig = rig_or_skip!();
    let bout = Bout::new(rig);
    // Something else holds the referee's port A (here the test itself,
    // opening it exclusively as argus does).
    let _held = open_port(&bout.rig.referee[0], &PortSettings::default())
        .unwrap_or_else(|e| panic!("cannot hold the port: {e}"));
    let mut args = bout.referee_ports();
    args.extend(strings(&["--headless", "--log-dir"]));
    args.push(path_arg(&bout.path("logs")));
    args.extend(bout.rig.line_args().iter().cloned());
    let mut p = Proc::spawn("referee", &argus_bin(), &args);
    let code = p.wait_exit(bout.rig.within(10));
    let err = p.stderr_text();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&bout.rig.referee[0]), "names the port: {err}");
    assert!(err.contains("in use"), "says why: {err}");
}

#[test]
fn ctrl_c_ends_the_session_and_keeps_the_unfinished_game_for_resume() {
    let rig = rig_or_skip!();
    let within = rig.within(20);
    let mut bout = Bout::new(rig);
    bout.start_referee(&[]);
    bout.start_client(0, 1, &["--think-ms", "20"]);
    bout.start_client(1, 2, &["--think-ms", "20"]);
    bout.wait_transcript(30, "8 replies from A", |l| replies(l, "A") >= 8);
    bout.referee().interrupt();
    bout.referee().wait_stdout(within, "the Ctrl-C line", |l| {
        l.starts_with("Ctrl-C (SIGINT): ending the session")
    });
    // 3: the match ended before it was played out.
    assert_eq!(bout.finish(30), [3, 0, 0]);

    // No game in the PGN: the unfinished one is kept in its journal.
    let pgn = std::fs::read_to_string(bout.pgn_path()).unwrap_or_default();
    assert!(read_pgn_games(&pgn).unwrap().is_empty(), "{pgn}");
    let game_journal = bout.log_dir.join("game-001").join("journal.log");
    let loaded = argus::journal::load(&game_journal)
        .unwrap_or_else(|e| panic!("{}: {e}", game_journal.display()));
    assert!(!loaded.replay.core().is_over());
    assert!(
        loaded.replay.checks() >= 15,
        "{} moves",
        loaded.replay.checks()
    );

    let lines = bout.transcript();
    for port in PORTS {
        // Disconnect last: nothing sent to the port after it. The
        // session's transcript and the game's are merged by wall-clock
        // time, to the millisecond: a record of the disconnect's own
        // millisecond may come after it in the merge, so the check is by
        // time, not by place.
        let sent: Vec<(&str, Record)> = lines
            .iter()
            .filter(|l| l.port == port && l.direction == Direction::Out)
            .filter_map(|l| record_of(l).map(|r| (l.wall.as_str(), r)))
            .collect();
        let disconnect = sent
            .iter()
            .rposition(|(_, r)| is_refcom(r, RefCom::Disconnect))
            .unwrap_or_else(|| panic!("{port}: no disconnect sent"));
        let at = sent[disconnect].0;
        let after: Vec<_> = sent[disconnect + 1..]
            .iter()
            .filter(|(wall, _)| *wall > at)
            .collect();
        assert!(
            after.is_empty(),
            "{port}: sent after its disconnect at {at}: {after:?}"
        );
    }
    // The moves relayed before the stop, in the order they were played
    // (each a reply read before anything was relayed).
    let played: Vec<String> = lines
        .iter()
        .filter(|l| l.direction == Direction::In)
        .filter_map(record_of)
        .filter(is_reply)
        .filter_map(|r| r.sm().ok().flatten().map(str::to_string))
        .collect();
    let stdout = bout.referee().stdout_lines();
    assert!(
        stdout
            .iter()
            .any(|l| l.starts_with("game 1: ") && l.ends_with("(Black)")),
        "{stdout:#?}"
    );
    assert!(
        !stdout.iter().any(|l| l.starts_with("game 1: 1")
            || l.starts_with("game 1: 0")
            || l.starts_with("game 1: *")),
        "{stdout:#?}"
    );
    for i in 0..2 {
        let err = bout.client(i).stderr_text();
        assert!(err.contains("disconnect"), "client {i}: {err}");
    }

    // `argus resume` carries the game on from where it stopped.
    let journal = bout.log_dir.join("tournament.journal");
    let mut args = vec![
        "resume".to_string(),
        path_arg(&journal),
        "--headless".into(),
    ];
    args.extend(bout.rig.line_args().iter().cloned());
    let mut resumed = Proc::spawn("resume", &argus_bin(), &args);
    bout.start_client(0, 1, &["--think-ms", "20"]);
    bout.start_client(1, 2, &["--think-ms", "20"]);
    assert_eq!(
        resumed.wait_exit(bout.rig.within(60)),
        0,
        "{}",
        resumed.describe()
    );
    let games = bout.games_in(&bout.pgn_path());
    assert_eq!(games.len(), 1);
    let g = &games[0];
    check_game(g);
    assert_ne!(g.tag("Result"), Some("*"));
    assert!(
        g.sans.starts_with(&played),
        "the resumed game does not begin with the moves played before the stop: {:?} then {:?}",
        played,
        g.sans
    );
}

#[test]
fn config_file_settings_apply_and_flags_win() {
    let rig = rig_or_skip!();
    let mut bout = Bout::new(rig);
    let openings = bout.path("openings.pgn");
    std::fs::write(
        &openings,
        "[Event \"opening\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n",
    )
    .expect("write the openings");
    let pgn = bout.path("from-config.pgn");
    let logs = bout.path("config-logs");
    let config = bout.path("argus.toml");
    // Paths in TOML basic strings: Rust's {:?} escapes as TOML does for
    // these (ASCII) paths.
    let toml = format!(
        "[line]\nbaud = 9600\n\n[match]\ngames = 2\nopenings = {:?}\nopening_plies = 4\n\
         event = \"From the file\"\nsite = \"Config Site\"\nname_a = \"file-a\"\n\
         reset_delay = 0.2\nconclude_delay = 0.2\n\n[output]\npgn = {:?}\nlog_dir = {:?}\n",
        path_arg(&openings),
        path_arg(&pgn),
        path_arg(&logs)
    );
    std::fs::write(&config, toml).expect("write the config");
    let mut args = bout.referee_ports();
    args.extend(strings(&["--headless", "--config"]));
    args.push(path_arg(&config));
    args.extend(strings(&["--event", "From the flag"]));
    bout.start_referee_raw(args, Some(logs.clone()));
    bout.start_client(0, 8, &[]);
    bout.start_client(1, 9, &[]);
    assert_eq!(bout.finish(60), [0, 0, 0]);

    let games = bout.games_in(&pgn);
    assert_eq!(games.len(), 2, "games = 2 from the file");
    for (i, g) in games.iter().enumerate() {
        check_game(g);
        assert_eq!(g.tag("Event"), Some("From the flag"), "the flag wins");
        assert_eq!(g.tag("Site"), Some("Config Site"), "the file applies");
        let file_a = if i == 0 {
            g.tag("White")
        } else {
            g.tag("Black")
        };
        assert_eq!(
            file_a,
            Some("file-a"),
            "name_a from the file, game {}",
            i + 1
        );
        assert_eq!(
            g.sans[..4],
            ["e4", "e5", "Nf3", "Nc6"],
            "the opening, cut at 4 plies"
        );
    }
    assert!(
        logs.join("transcript.log").exists(),
        "log_dir from the file"
    );
    check_transcript(&bout.transcript(), &games, &[4, 4]);

    // A config file with an unknown key is refused, naming file and key.
    let bad = bout.path("bad.toml");
    std::fs::write(&bad, "[match]\ngamez = 3\n").expect("write the bad config");
    let mut args = bout.referee_ports();
    args.extend(strings(&["--headless", "--config"]));
    args.push(path_arg(&bad));
    let mut p = Proc::spawn("referee (bad config)", &argus_bin(), &args);
    let code = p.wait_exit(Duration::from_secs(30));
    let err = p.stderr_text();
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&path_arg(&bad)) && err.contains("gamez"),
        "{err}"
    );

    // The adjudication keys are the flags' (and checked the same way).
    std::fs::write(
        &bad,
        "[match]\nresign_adjudication = \"movecount=3 score=400 twosided\"\n\
         draw_adjudication = \"movenumber=40 score=10\"\n",
    )
    .expect("write the bad config");
    let mut p = Proc::spawn("referee (bad rule)", &argus_bin(), &args);
    let code = p.wait_exit(Duration::from_secs(30));
    let err = p.stderr_text();
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--draw-adjudication \"movenumber=40 score=10\": movecount is missing"),
        "{err}"
    );
}

/// Reads lines from `port` until `want` accepts one (returned) or `within`
/// passes (panics, showing what came).
fn read_line_until(
    port: &mut Box<dyn serialport::SerialPort>,
    pending: &mut Vec<u8>,
    within: Duration,
    want: impl Fn(&str) -> bool,
) -> String {
    let deadline = Instant::now() + within;
    let mut seen = Vec::new();
    loop {
        while let Some(end) = pending.iter().position(|&b| b == b'\n' || b == b'\r') {
            let line: Vec<u8> = pending.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line).trim().to_string();
            if text.is_empty() {
                continue;
            }
            if want(&text) {
                return text;
            }
            seen.push(text);
        }
        assert!(
            Instant::now() < deadline,
            "no wanted line within {within:?}; got {seen:#?}"
        );
        let mut buf = [0u8; 512];
        match port.read(&mut buf) {
            Ok(n) => pending.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(e) => panic!("reading the client's port: {e}"),
        }
    }
}

/// The test plays the referee by hand: a `respond` sent again while the
/// client is still thinking about the first gets the same reply at once,
/// without thinking again (an engine is not asked twice).
#[test]
fn the_client_answers_a_repeated_respond_with_the_same_reply_without_thinking_again() {
    use std::io::Write;
    let rig = rig_or_skip!();
    let mut port = open_port(&rig.referee[0], &PortSettings::default())
        .unwrap_or_else(|e| panic!("cannot open the referee's end: {e}"));
    port.set_timeout(Duration::from_millis(100))
        .expect("set a read timeout");
    let mut args = strings(&[
        "client",
        &rig.client[0],
        "--name",
        "t",
        "--think-ms",
        "800",
        "-v",
    ]);
    args.extend(rig.line_args().iter().cloned());
    let mut client = Proc::spawn("client", &argus_bin(), &args);
    let mut pending = Vec::new();
    read_line_until(&mut port, &mut pending, rig.within(10), |l| {
        l.contains("refreq sign_on")
    });
    let fields = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    let send = |port: &mut Box<dyn serialport::SerialPort>, text: String| {
        let mut line = text;
        line_check::append(&mut line);
        port.write_all(format!("{line}\r\n").as_bytes())
            .expect("write to the client");
    };
    send(
        &mut port,
        format!("{fields} cc 000:00:00:00 000:00:00:00; fmvn 1; hmvc 0; refcom reset;"),
    );
    send(
        &mut port,
        format!("{fields} cc 000:00:00:00 000:00:00:00; fmvn 1; hmvc 0; refcom respond;"),
    );
    std::thread::sleep(Duration::from_millis(200));
    send(
        &mut port,
        format!("{fields} cc 000:00:00:01 000:00:00:00; fmvn 1; hmvc 0; refcom respond;"),
    );
    let is_reply = |l: &str| l.contains("refreq reply");
    let first = read_line_until(&mut port, &mut pending, rig.within(10), is_reply);
    let second = read_line_until(&mut port, &mut pending, rig.within(10), is_reply);
    assert_eq!(first, second, "the same reply twice");
    assert!(
        matches!(line_check::verify(&first), Checked::Valid(_)),
        "{first}"
    );
    send(
        &mut port,
        format!("{fields} cc 000:00:00:01 000:00:00:00; fmvn 1; hmvc 0; refcom disconnect;"),
    );
    let code = client.wait_exit(rig.within(10));
    let err = client.stderr_text();
    assert_eq!(code, 0, "{err}");
    // It thought once ("reply:") and repeated once.
    assert_eq!(err.matches("client: reply: ").count(), 1, "{err}");
    assert_eq!(err.matches("the same respond again").count(), 1, "{err}");
}

/// A PGN openings file with an illegal move names the line the move is
/// on (not the line of the game's first tag), before any port is opened.
#[test]
fn a_bad_move_in_the_openings_names_its_own_line() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.pgn");
    std::fs::write(
        &book,
        "[Event \"book\"]\n[Site \"?\"]\n\n1. e4 e5 2. Nf3 Nc6\n3. Bb5 Ke3 *\n",
    )
    .unwrap();
    let out = std::process::Command::new(argus_bin())
        .args(["referee", "/nonexistent/a", "/nonexistent/b", "--headless"])
        .arg("--openings")
        .arg(&book)
        .arg("--log-dir")
        .arg(dir.path().join("logs"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("{}:5: ", book.display())), "{err}");
    assert!(err.contains("Ke3"), "{err}");
    assert!(!dir.path().join("logs").exists(), "{err}");
}

#[test]
fn a_headless_match_prints_statistics_writes_the_results_file_and_stops_by_sprt() {
    let rig = rig_or_skip!();
    let mut bout = Bout::new(rig);
    let json = bout.path("results.json");
    // B thinks longer than its whole clock: A wins every game on time, so
    // every pair is WW. With these bounds (ln(0.7/0.3) = 0.85) the logistic
    // LLR crosses the upper one after the second pair (1.20), not the
    // first (0.60): the match stops after 4 of its 10 games.
    bout.start_referee(&[
        "--tc",
        "2s",
        "--games",
        "10",
        "--sprt",
        "elo0=0 elo1=400 alpha=0.3 beta=0.3 model=logistic",
        "--results-json",
        &path_arg(&json),
    ]);
    bout.start_client(0, 7, &[]);
    bout.start_client(1, 8, &["--think-ms", "3500"]);
    assert_eq!(bout.finish(120), [0, 0, 0]);

    let games = bout.games_in(&bout.pgn_path());
    assert_eq!(games.len(), 4, "the SPRT stops the match after two pairs");
    let stdout = bout.referee().stdout_lines();
    check_headless(&stdout, &games);
    assert_summary(&stdout, &games);
    // One statistics line after every game.
    // Whose figures they are: A's, named.
    let stats: Vec<&String> = stdout
        .iter()
        .filter(|l| l.starts_with("stats for "))
        .collect();
    assert_eq!(stats.len(), 4, "{stdout:#?}");
    let a = games[0].tag("White").expect("A's name, White in game 1");
    assert!(
        stats[0].starts_with(&format!("stats for {a}: 1 game, W-D-L 1-0-0, score 100.0%")),
        "{stats:#?}"
    );
    // One game: its error is not known, not 0.
    assert!(stats[0].contains("+/- ? (1 game is too few)"), "{stats:#?}");
    assert!(stats[1].contains("; 1 pair [0, 0, 0, 0, 1]"), "{stats:#?}");
    assert!(
        stats[3].starts_with(&format!("stats for {a}: 4 games, W-D-L 4-0-0")),
        "{stats:#?}"
    );
    assert!(stats[3].ends_with(" H1 accepted"), "{stats:#?}");
    assert!(
        stdout.iter().any(|l| l.contains("SPRT: H1 accepted")),
        "{stdout:#?}"
    );

    let text = std::fs::read_to_string(&json).expect("the results file");
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(v["games"], 4);
    assert_eq!(
        (v["wins"].clone(), v["draws"].clone(), v["losses"].clone()),
        (4.into(), 0.into(), 0.into())
    );
    assert_eq!(v["pentanomial"], serde_json::json!([0, 0, 0, 0, 2]));
    assert!(v["elo"].is_null(), "a 100% score has no finite Elo: {v}");
    assert!(v["elo_error95"].is_null());
    assert_eq!(v["los"], 1.0);
    assert_eq!(v["sprt_result"], "H1");
    let (llr, upper) = (
        v["llr"].as_f64().unwrap(),
        v["upper_bound"].as_f64().unwrap(),
    );
    assert!(llr >= upper && upper > 0.8 && upper < 0.9, "{v}");
    assert!(v["lower_bound"].as_f64().unwrap() < 0.0);
    // Only the file itself: the temporary file was renamed over it.
    let names: Vec<String> = std::fs::read_dir(json.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("results"))
        .collect();
    assert_eq!(names, ["results.json"]);
}

/// Openings from a ChessBase base (`.cbi`, written by `argus cbf from-pgn`:
/// each game's main line, its variations left aside) and from an FBK book
/// (each line): every game of the match starts with its opening's moves
/// (games cut short by --max-moves: their moves are what counts here).
#[test]
fn openings_come_from_a_chessbase_base_and_an_fbk_book() {
    let rig = rig_or_skip!();
    let mut bout = Bout::new(rig);
    let pgn = bout.path("book.pgn");
    std::fs::write(
        &pgn,
        "[White \"book\"]\n\n1. d4 (1. e4 e5) 1... d5 2. c4 {Queen's Gambit} e6 *\n",
    )
    .expect("write the book");
    let base = bout.path("BOOK");
    let out = std::process::Command::new(argus_bin())
        .args(["cbf", "from-pgn", &path_arg(&pgn), &path_arg(&base)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // The FBK line 1. c4 e5 2. Nc3 (from square, to square; bit 6 goes
    // on with the line, bit 7 of the first byte ends it).
    let fbk = bout.path("book.fbk");
    std::fs::write(&fbk, [10u8, 26, 0x40 | 52, 36, 0xC0 | 1, 18]).expect("write the FBK");

    let cbi = path_arg(&bout.path("BOOK.cbi"));
    bout.start_referee(&["--games", "2", "--openings", &cbi, "--max-moves", "12"]);
    bout.start_client(0, 3, &[]);
    bout.start_client(1, 4, &[]);
    assert_eq!(bout.finish(60), [0, 0, 0]);
    let games = bout.games_in(&bout.pgn_path());
    assert_eq!(games.len(), 2);
    for g in &games {
        replay(g);
        assert_eq!(g.sans[..4], ["d4", "d5", "c4", "e6"], "{:?}", g.sans);
    }

    let mut bout = Bout::new(rig_or_skip!());
    bout.start_referee(&["--openings", &path_arg(&fbk), "--max-moves", "12"]);
    bout.start_client(0, 5, &[]);
    bout.start_client(1, 6, &[]);
    assert_eq!(bout.finish(60), [0, 0, 0]);
    let games = bout.games_in(&bout.pgn_path());
    assert_eq!(games.len(), 1);
    replay(&games[0]);
    assert_eq!(games[0].sans[..3], ["c4", "e5", "Nc3"]);
}

/// `--cbf BASE` appends every finished game to a ChessBase base beside the
/// PGN: `argus cbf to-pgn` reads back the same games (moves, players,
/// results, the clock comments).
#[test]
fn a_match_is_written_as_a_chessbase_base_too() {
    let rig = rig_or_skip!();
    let mut bout = Bout::new(rig);
    let base = bout.path("MATCH");
    let base_arg = path_arg(&base);
    bout.start_referee(&[
        "--games",
        "2",
        "--max-moves",
        "15",
        "--tc",
        "300+5",
        "--cbf",
        &base_arg,
    ]);
    bout.start_client(0, 11, &[]);
    bout.start_client(1, 12, &[]);
    assert_eq!(bout.finish(60), [0, 0, 0]);
    let games = bout.games_in(&bout.pgn_path());
    assert_eq!(games.len(), 2);

    let back = bout.path("back.pgn");
    let out = std::process::Command::new(argus_bin())
        .args(["cbf", "to-pgn", &base_arg, &path_arg(&back)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let cb = bout.games_in(&back);
    assert_eq!(cb.len(), 2);
    for (g, c) in games.iter().zip(&cb) {
        assert_eq!(g.sans, c.sans);
        for tag in ["White", "Black", "Result", "Event"] {
            assert_eq!(g.tag(tag), c.tag(tag), "{tag}");
        }
        let clocks = c
            .tree
            .moves
            .iter()
            .filter(|n| n.comments.first().is_some_and(|t| t.contains("[%clk ")));
        assert_eq!(
            clocks.count(),
            c.sans.len(),
            "a clock comment on every move"
        );
    }
}

/// Runs the scripted clients (scenario text, as in hw-tests/scenarios) on
/// the client ports, waits for the referee to exit and returns its exit
/// code; a script that failed fails the test.
fn run_scripted_clients(bout: &mut Bout, scripts: [&str; 2]) -> i32 {
    use crate::common::scripted::{Scripted, parse_script};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    let stop = Arc::new(AtomicBool::new(false));
    let handles: Vec<_> = scripts
        .iter()
        .zip(bout.rig.client.clone())
        .map(|(text, port)| {
            let steps = parse_script(text).unwrap_or_else(|e| panic!("{e}"));
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let done = Arc::new(AtomicBool::new(false));
                Scripted::open(&port)?.run(&steps, &done, &stop, Duration::from_secs(60))
            })
        })
        .collect();
    let within = bout.rig.within(90);
    let code = bout.referee().wait_exit(within);
    stop.store(true, Ordering::SeqCst);
    for (h, port) in handles.into_iter().zip(PORTS) {
        match h.join() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => panic!("scripted client {port}: {e}"),
            Err(_) => panic!("scripted client {port} panicked"),
        }
    }
    code
}

#[test]
fn evaluations_in_the_replies_adjudicate_a_draw_and_a_loss_and_go_into_the_pgn() {
    let rig = rig_or_skip!();
    let mut bout = Bout::new(rig);
    bout.start_referee(&[
        "--games",
        "2",
        "--draw-adjudication",
        "movenumber=2 movecount=2 score=10",
        "--resign-adjudication",
        "movecount=2 score=300",
    ]);
    // Game 1: A has White; both say 0.0x for two moves each (a draw).
    // Game 2: B has White; A (Black) says -3.00 and then "mated in 5".
    let a = "sign-on alpha
             expect respond
             reply Nf3 ce 5; acd 7;
             expect respond
             reply Ng1 ce 0; acd 8;
             expect conclude
             expect respond
             reply f6 ce -300; acd 9; acn 12345;
             expect respond
             reply g5 ce -32762; acd 9; pv g5 Qh5#;
             expect disconnect";
    let b = "sign-on beta
             expect respond
             reply Nf6 ce -5; acd 7;
             expect respond
             reply Ng8 ce 10;
             expect conclude
             expect respond
             reply e4 ce 50; acd 9;
             expect respond
             reply d4 ce 120; acd 10;
             expect disconnect";
    assert_eq!(run_scripted_clients(&mut bout, [a, b]), 0);

    let games = bout.games_in(&bout.pgn_path());
    assert_eq!(games.len(), 2);
    for (g, result) in games.iter().zip(["1/2-1/2", "1-0"]) {
        assert_eq!(g.tag("Result"), Some(result));
        assert_eq!(g.result.as_deref(), Some(result));
        assert_eq!(g.tag("Termination"), Some("adjudication"));
        let replayed = replay(g);
        assert_eq!(replayed.ply(), 4);
        assert!(replayed.automatic_end().is_none());
    }
    assert_eq!(games[1].tag("White"), Some("beta"));
    let stdout = bout.referee().stdout_lines();
    check_headless(&stdout, &games);
    assert_summary(&stdout, &games);
    let draw = "Draw by adjudication: both scores within 10 cp of 0 for 2 moves \
                (--draw-adjudication)";
    let resign = "White wins by adjudication: Black's score at or below -300 cp for 2 moves \
                  (--resign-adjudication)";
    for why in [draw, resign] {
        assert!(stdout.iter().any(|l| l.contains(why)), "{why}: {stdout:#?}");
    }
    // The comments: score/depth and the time (which varies), the nodes
    // and the pv when sent, and the reason before the result.
    let text = std::fs::read_to_string(bout.pgn_path()).unwrap();
    let movetext: Vec<String> = text
        .split("\n\n")
        .filter(|p| !p.trim().is_empty() && !p.starts_with('['))
        .map(|p| p.trim().replace('\n', " "))
        .collect();
    assert_eq!(movetext.len(), 2, "{text}");
    let comments = |m: &str| -> Vec<String> {
        m.split('{')
            .skip(1)
            .map(|c| c.split('}').next().unwrap().to_string())
            .collect()
    };
    let (one, two) = (comments(&movetext[0]), comments(&movetext[1]));
    let starts = [
        ["+0.05/7 ", "-0.05/7 ", "0.00/8 ", "+0.10 "],
        ["+0.50/9 ", "-3.00/9 ", "+1.20/10 ", "-M5/9 "],
    ];
    for (got, want) in [(&one, starts[0]), (&two, starts[1])] {
        assert_eq!(got.len(), 5, "{got:?}");
        for (c, w) in got.iter().zip(want) {
            assert!(
                c.starts_with(w) && c.contains("s"),
                "{c:?} should start {w:?}"
            );
        }
    }
    assert!(two[1].ends_with(", n=12345"), "{two:?}");
    assert!(two[3].ends_with(", pv=\"g5 Qh5#\""), "{two:?}");
    assert_eq!((one[4].as_str(), two[4].as_str()), (draw, resign));
    assert!(
        movetext[0].ends_with(&format!("{{{draw}}} 1/2-1/2")),
        "{}",
        movetext[0]
    );
    // The transcript has the reasons too.
    let log = std::fs::read_to_string(bout.log_dir.join("argus.log")).unwrap_or_default();
    assert!(log.contains(draw) && log.contains(resign), "{log}");
}

/// `--rating-interval 2` over five games: the statistics line after
/// games 2 and 4 only, and after the last (5), not after every game.
#[test]
fn a_rating_interval_says_the_statistics_every_n_games_and_at_the_end() {
    let rig = rig_or_skip!();
    let mut bout = Bout::new(rig);
    bout.start_referee(&["--games", "5", "--max-moves", "8", "--rating-interval", "2"]);
    bout.start_client(0, 7, &[]);
    bout.start_client(1, 8, &[]);
    assert_eq!(bout.finish(120), [0, 0, 0]);
    let stdout = bout.referee().stdout_lines();
    let stats: Vec<&String> = stdout
        .iter()
        .filter(|l| l.starts_with("stats for "))
        .collect();
    assert_eq!(stats.len(), 3, "{stdout:#?}");
    for (line, games) in stats.iter().zip([2, 4, 5]) {
        assert!(
            line.contains(&format!(": {games} games, W-D-L")),
            "{stats:#?}"
        );
    }
}
