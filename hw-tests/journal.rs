//! The journal with real binaries over socat cables: a short match between
//! two seeded reference clients is played once without interruption
//! (watched live from the journal file and over the TCP feed), once with
//! the referee SIGKILLed and resumed at 20 points (moves, game ends, the
//! conclude pause, between games), and once taken over from a watcher's
//! copy. The games must come out the same every time, none lost or
//! written twice. Skipped, with a message, where socat is not installed.

#![cfg(unix)]

use std::fs;
use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

use crate::common::{Cable, argus_bin};
use argus::record::pgn_read::{PgnText, read_pgn_games};

/// Upper bound for a whole match (generous: CI machines are slow).
const MATCH_WITHIN: Duration = Duration::from_secs(120);
/// Upper bound for one step of a test to happen.
const WITHIN: Duration = Duration::from_secs(30);
const GAMES: u32 = 4;

/// A queen ending: games of a few dozen plies (the random and the greedy
/// mover rarely mate; most games end drawn by the rules).
const OPENING: &str = "k7/8/2K5/8/8/8/8/7Q w - -\n";

/// A match's files and the two cables (A and B); the clients run on the
/// cables' far ends.
struct Rig {
    dir: tempfile::TempDir,
    cables: [Cable; 2],
    clients: Vec<Child>,
    /// The openings file and its `--opening-plies`, and how many games.
    openings: PathBuf,
    opening_plies: usize,
    games: u32,
}

impl Rig {
    fn new() -> Rig {
        let dir = tempfile::Builder::new()
            .prefix("argus-journal-test-")
            .tempdir()
            .unwrap();
        let openings = dir.path().join("openings.epd");
        fs::write(&openings, OPENING).unwrap();
        Rig {
            dir,
            cables: [Cable::new(), Cable::new()],
            clients: Vec::new(),
            openings,
            opening_plies: 16,
            games: GAMES,
        }
    }

    /// One game from a PGN opening of `plies` plies.
    fn long_game(mut self, plies: usize) -> Rig {
        self.openings = self.path("long.pgn");
        let pgn = format!(
            "[Event \"long\"]\n\n{}*\n",
            crate::common::long_opening(plies)
        );
        fs::write(&self.openings, pgn).unwrap();
        self.opening_plies = plies;
        self.games = 1;
        self
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn journal(&self) -> PathBuf {
        self.path("journal.log")
    }

    fn pgn(&self) -> PathBuf {
        self.path("games.pgn")
    }

    fn common_args(&self, cmd: &mut Command) {
        cmd.arg(self.cables[0].a_str())
            .arg(self.cables[1].a_str())
            .arg("--headless")
            .arg("--log-dir")
            .arg(self.path("logs"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
    }

    /// Starts `argus referee` (with extra arguments).
    fn referee(&self, extra: &[&str]) -> Child {
        let mut cmd = Command::new(argus_bin());
        cmd.arg("referee");
        self.common_args(&mut cmd);
        cmd.args(["--games", &self.games.to_string()])
            .arg("--openings")
            .arg(&self.openings)
            .args(["--opening-plies", &self.opening_plies.to_string()])
            .args(["--reset-delay", "0.2", "--conclude-delay", "0.3"])
            .arg("--pgn")
            .arg(self.pgn())
            .arg("--journal")
            .arg(self.journal())
            .args(extra);
        cmd.spawn().expect("cannot start argus referee")
    }

    /// Starts `argus resume` on `journal` with the PGN file `pgn`.
    fn resume(&self, journal: &Path, pgn: &Path) -> Child {
        let mut cmd = Command::new(argus_bin());
        cmd.arg("resume").arg(journal);
        self.common_args(&mut cmd);
        cmd.arg("--pgn").arg(pgn);
        // Keep what resume says: a failed resume must show why.
        if let Ok(f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.path("resume.err"))
        {
            cmd.stderr(f);
        }
        cmd.spawn().expect("cannot start argus resume")
    }

    /// Starts the two seeded clients once the referee's ends are open
    /// (the journal exists then).
    fn clients(&mut self) {
        wait_until(WITHIN, "the referee's journal", || self.journal().exists());
        for (i, (name, mover, seed)) in [("alpha", "random", "7"), ("beta", "greedy", "8")]
            .into_iter()
            .enumerate()
        {
            let child = Command::new(argus_bin())
                .arg("client")
                .arg(self.cables[i].b_str())
                .args(["--name", name, "--mover", mover, "--seed", seed])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("cannot start argus client");
            self.clients.push(child);
        }
    }

    /// Waits for both clients to end (after `disconnect`).
    fn clients_done(&mut self) {
        for c in &mut self.clients {
            let status = wait_exit(c, WITHIN, "a client");
            assert!(status.success(), "a client ended with {status}");
        }
        self.clients.clear();
    }
}

impl Drop for Rig {
    fn drop(&mut self) {
        for c in &mut self.clients {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn wait_until(within: Duration, what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + within;
    while !cond() {
        assert!(Instant::now() < deadline, "no {what} within {within:?}");
        thread::sleep(Duration::from_millis(5));
    }
}

fn wait_exit(child: &mut Child, within: Duration, what: &str) -> ExitStatus {
    let deadline = Instant::now() + within;
    loop {
        if let Some(s) = child.try_wait().expect("cannot wait for a child") {
            return s;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not end within {within:?}");
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// (Round, White, Black, moves, result) of each game in a PGN file.
type Summary = Vec<(String, String, String, Vec<String>, String)>;

fn games(pgn: &Path) -> Summary {
    let text = fs::read_to_string(pgn).unwrap_or_default();
    read_pgn_games(&text)
        .unwrap_or_else(|e| panic!("{}: {e:?}", pgn.display()))
        .into_iter()
        .map(|g: PgnText| {
            (
                g.tag("Round").unwrap_or("?").to_string(),
                g.tag("White").unwrap_or("?").to_string(),
                g.tag("Black").unwrap_or("?").to_string(),
                g.sans.clone(),
                g.result.clone().unwrap_or_default(),
            )
        })
        .collect()
}

/// Counts of `check` and `pgn` lines in a match's journals: the match's
/// progress (one check per move or game end, one pgn per game written).
/// The journal, and on the event's loop each game's beside it
/// (`game-NNN/journal.log`).
fn progress(journal: &Path) -> (usize, usize) {
    let mut text = fs::read_to_string(journal).unwrap_or_default();
    if let Some(dir) = journal.parent() {
        text.push_str(&crate::common::game_journals_text(dir));
    }
    let checks = text.lines().filter(|l| l.starts_with("check ")).count();
    let saved = text.lines().filter(|l| l.starts_with("pgn ")).count();
    (checks, saved)
}

/// The moves `argus watch --headless` printed, per game: lines
/// `game N: 12. Nf3` and `game N: 12... Nf6`.
fn watched_moves(out: &str) -> Vec<Vec<String>> {
    let mut games: Vec<Vec<String>> = Vec::new();
    for line in out.lines() {
        let Some(rest) = line.strip_prefix("game ") else {
            continue;
        };
        let Some((n, what)) = rest.split_once(": ") else {
            continue;
        };
        let Ok(n) = n.parse::<usize>() else { continue };
        let mut words = what.split(' ');
        let (Some(number), Some(san), None) = (words.next(), words.next(), words.next()) else {
            continue;
        };
        if !number.ends_with('.') || !number.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        while games.len() < n {
            games.push(Vec::new());
        }
        games[n - 1].push(san.to_string());
    }
    games
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("no free TCP port")
}

fn spawn_watch(args: &[&str], source: &str) -> Child {
    Command::new(argus_bin())
        .arg("watch")
        .arg(source)
        .arg("--headless")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start argus watch")
}

fn watch_output(child: &mut Child) -> String {
    let status = wait_exit(child, WITHIN, "argus watch");
    if !status.success() {
        let mut err = String::new();
        if let Some(mut e) = child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut e, &mut err);
        }
        panic!("argus watch ended with {status}; it said:\n{err}");
    }
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    out
}

/// The uninterrupted match, and its journal's progress at each game's end.
struct Reference {
    games: Summary,
    /// Check lines when game g (1-based index g-1) was written.
    checks_at_end: Vec<usize>,
    total_checks: usize,
    /// The finished match's journals: the event's (`journal.log`) and
    /// each game's (`game-NNN/journal.log`), by path beside it.
    journals: Vec<(PathBuf, Vec<u8>)>,
}

/// The event journal at `journal` and each game's journal beside it, by
/// their paths relative to the journal's directory.
fn journal_files(journal: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = journal.parent().unwrap();
    let mut files = vec![(PathBuf::from("journal.log"), fs::read(journal).unwrap())];
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path().join("journal.log");
        if path.is_file() {
            let name = path.strip_prefix(dir).unwrap().to_path_buf();
            files.push((name, fs::read(&path).unwrap()));
        }
    }
    files.sort();
    files
}

/// The copy a watcher keeps of a feed: every journal in it, each a prefix
/// of the journal of the same name beside `journal` (the copy's event
/// journal is `tournament.journal`); the number of games' journals.
fn check_copy(copy: &Path, journal: &Path) -> usize {
    let dir = journal.parent().unwrap();
    let event = fs::read_to_string(copy.join("tournament.journal")).unwrap();
    assert!(event.len() > 1000, "{event}");
    assert!(
        fs::read_to_string(journal).unwrap().starts_with(&event),
        "the copy's event journal is not a prefix of the journal"
    );
    let mut games = 0;
    for entry in fs::read_dir(copy).unwrap() {
        let path = entry.unwrap().path().join("journal.log");
        if path.is_file() {
            let name = path.strip_prefix(copy).unwrap();
            let copied = fs::read_to_string(&path).unwrap();
            let original = fs::read_to_string(dir.join(name)).unwrap();
            assert!(
                original.starts_with(&copied),
                "the copy's {} is not a prefix of the game's journal",
                name.display()
            );
            games += 1;
        }
    }
    games
}

/// The size of every file under `dir`, summed.
fn total_size(dir: &Path) -> u64 {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| {
            let p = e.path();
            if p.is_dir() {
                total_size(&p)
            } else {
                fs::metadata(&p).map_or(0, |m| m.len())
            }
        })
        .sum()
}

/// Whether the event whose journal is `journal` is over.
fn event_over(journal: &Path) -> bool {
    argus::tournament::journal::load(journal)
        .unwrap_or_else(|e| panic!("{}: {e}", journal.display()))
        .tournament
        .is_over()
}

/// Plays the reference match once (for every test), watching it live
/// from the journal file and over the TCP feed; checks what the watchers
/// saw.
fn reference() -> &'static Reference {
    static REFERENCE: OnceLock<Reference> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let mut rig = Rig::new();
        let port = free_port();
        let feed = format!("127.0.0.1:{port}");
        let mut referee = rig.referee(&["--feed", &feed]);
        let copy = rig.path("copy");
        let mut tcp_watch = spawn_watch(
            &["--copy", copy.to_str().unwrap()],
            &format!("tcp://{feed}"),
        );
        // The feed's watcher is following before the match begins (as in
        // `a_standby_takes_over_from_its_copy`).
        wait_until(WITHIN, "the copy's first lines", || {
            fs::metadata(copy.join("tournament.journal")).is_ok_and(|m| m.len() > 0)
        });
        rig.clients();
        let journal = rig.journal();
        let mut file_watch = spawn_watch(&[], journal.to_str().unwrap());
        // Progress at each game's end, seen live.
        let mut checks_at_end = Vec::new();
        let deadline = Instant::now() + MATCH_WITHIN;
        while referee.try_wait().unwrap().is_none() {
            assert!(Instant::now() < deadline, "the reference match did not end");
            let (checks, saved) = progress(&journal);
            while checks_at_end.len() < saved {
                checks_at_end.push(checks);
            }
            thread::sleep(Duration::from_millis(2));
        }
        let status = wait_exit(&mut referee, WITHIN, "the referee");
        assert!(status.success(), "the referee ended with {status}");
        rig.clients_done();
        let games = games(&rig.pgn());
        assert_eq!(games.len(), GAMES as usize, "{games:?}");
        let (total_checks, saved) = progress(&journal);
        assert_eq!(saved, GAMES as usize);
        // A game end seen late is counted at the end of the journal; the
        // kill points only need rough places.
        while checks_at_end.len() < saved {
            checks_at_end.push(total_checks);
        }

        // What the watchers saw: the same moves as the PGN.
        let pgn_moves: Vec<Vec<String>> = games.iter().map(|g| g.3.clone()).collect();
        let file_out = watch_output(&mut file_watch);
        assert_eq!(
            watched_moves(&file_out),
            pgn_moves,
            "watch (file):\n{file_out}"
        );
        assert!(file_out.contains("match over:"), "{file_out}");
        let tcp_out = watch_output(&mut tcp_watch);
        assert_eq!(
            watched_moves(&tcp_out),
            pgn_moves,
            "watch (tcp):\n{tcp_out}"
        );
        for (i, g) in games.iter().enumerate() {
            let want = format!("game {}: {} (", i + 1, g.4);
            assert!(file_out.contains(&want), "{want:?} in\n{file_out}");
        }
        // The copy is the journals (up to where the match ended).
        assert_eq!(check_copy(&copy, &journal), GAMES as usize);
        assert!(event_over(&copy.join("tournament.journal")));
        Reference {
            games,
            checks_at_end,
            total_checks,
            journals: journal_files(&journal),
        }
    })
}

/// Where to kill the referee.
#[derive(Debug, Clone, Copy)]
enum Kill {
    /// Once the journal has this many check lines (moves).
    Checks(usize),
    /// This long after game g was written (0: at once; about 150 ms: in
    /// the conclude pause; about 400 ms: the next game's reset pause).
    AfterGame(usize, u64),
}

#[test]
fn sigkill_at_twenty_points_and_resume_gives_the_same_games() {
    skip_unless_socat!();
    let reference = reference();
    let ends = &reference.checks_at_end;
    // Game ends: at once, in the conclude pause, between games (not after
    // the last game's conclude pause: the match is over then).
    let mut plan: Vec<(usize, u64, Kill)> = Vec::new();
    for (g, &at) in ends.iter().enumerate() {
        let delays: &[u64] = if g + 1 < ends.len() {
            &[0, 150, 400]
        } else {
            &[0]
        };
        for &d in delays {
            plan.push((at, d + 1, Kill::AfterGame(g + 1, d)));
        }
    }
    // Moves: spread over the match, away from the game ends.
    let moves_wanted = 20usize.saturating_sub(plan.len());
    let total = reference.total_checks;
    for i in 1..=moves_wanted {
        let mut k = i * total / (moves_wanted + 1);
        while ends.contains(&k) {
            k += 1;
        }
        plan.push((k, 0, Kill::Checks(k)));
    }
    plan.sort_by_key(|(k, d, _)| (*k, *d));
    assert_eq!(plan.len(), 20, "{plan:?}");

    let mut rig = Rig::new();
    let journal = rig.journal();
    let mut referee = rig.referee(&[]);
    rig.clients();
    let mut kills = 0;
    for (_, _, kill) in &plan {
        // Wait for the point (or the end of the match).
        let deadline = Instant::now() + WITHIN;
        loop {
            if referee.try_wait().unwrap().is_some() {
                break;
            }
            let (checks, saved) = progress(&journal);
            let reached = match *kill {
                Kill::Checks(k) => checks >= k,
                Kill::AfterGame(g, _) => saved >= g,
            };
            if reached {
                break;
            }
            assert!(Instant::now() < deadline, "{kill:?} not reached");
            thread::sleep(Duration::from_millis(1));
        }
        if let Kill::AfterGame(_, d) = *kill {
            thread::sleep(Duration::from_millis(d));
        }
        if referee.try_wait().unwrap().is_some() {
            break;
        }
        referee.kill().unwrap(); // SIGKILL
        let _ = referee.wait();
        kills += 1;
        referee = rig.resume(&journal, &rig.pgn());
    }
    let status = wait_exit(&mut referee, MATCH_WITHIN, "the last referee");
    assert!(
        status.success(),
        "the last referee ended with {status}; resume said:\n{}",
        std::fs::read_to_string(rig.path("resume.err")).unwrap_or_default()
    );
    rig.clients_done();
    assert!(kills >= 18, "only {kills} of the 20 kills happened");
    assert_eq!(
        games(&rig.pgn()),
        reference.games,
        "games after {kills} kills differ from the uninterrupted match"
    );
    assert!(event_over(&journal));
}

#[test]
fn a_resume_past_move_100_sends_every_resync_record_and_the_game_goes_on() {
    skip_unless_socat!();
    const PLIES: usize = 210;
    let mut rig = Rig::new().long_game(PLIES);
    let journal = rig.journal();
    let mut referee = rig.referee(&[]);
    rig.clients();
    // A few moves after the opening's 210 executes, kill the referee.
    wait_until(WITHIN, "4 moves", || progress(&journal).0 >= 4);
    referee.kill().unwrap(); // SIGKILL
    let _ = referee.wait();
    let mut referee = rig.resume(&journal, &rig.pgn());
    let status = wait_exit(&mut referee, MATCH_WITHIN, "the resumed referee");
    assert!(
        status.success(),
        "the resumed referee ended with {status}; resume said:\n{}",
        std::fs::read_to_string(rig.path("resume.err")).unwrap_or_default()
    );
    rig.clients_done();
    let games = games(&rig.pgn());
    assert_eq!(games.len(), 1, "{games:?}");
    let sans = &games[0].3;
    assert!(
        sans.len() > PLIES + 4,
        "the game went on: {} plies",
        sans.len()
    );
    // Every resync record reached the wire: the transcripts hold, for each
    // client, reset then inform then one execute per move so far, in order,
    // and nothing was refused.
    // Every transcript file, in the log directory and (on the event's
    // loop) in each game's directory, merged in the order written.
    let mut text = String::new();
    let logs = rig.path("logs");
    let mut dirs = vec![logs.clone()];
    for entry in fs::read_dir(&logs).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            dirs.push(path);
        }
    }
    for dir in dirs {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("transcript"))
            {
                text.push_str(&fs::read_to_string(&path).unwrap_or_default());
            }
        }
    }
    let text = crate::common::in_wall_time_order(&text);
    assert!(!text.contains("not queued"), "records were refused");
    for port in ["A", "B"] {
        let out: Vec<&str> = text
            .lines()
            .filter(|l| l.split(' ').nth(2) == Some(port) && l.split(' ').nth(3) == Some(">"))
            .collect();
        let last_reset = out
            .iter()
            .rposition(|l| l.contains("refcom reset;"))
            .expect("a reset");
        let executes: Vec<String> = out[last_reset..]
            .iter()
            .filter(|l| l.contains("refcom execute;"))
            .map(|l| {
                let sm = l.split("sm ").nth(1).expect("an execute's sm");
                sm.split(';').next().unwrap().to_string()
            })
            .collect();
        assert!(
            executes.len() > PLIES,
            "{port}: {} executes",
            executes.len()
        );
        assert_eq!(
            executes,
            sans[..executes.len()],
            "{port}: the resync's executes in order"
        );
    }
}

#[test]
fn a_standby_takes_over_from_its_copy() {
    skip_unless_socat!();
    let reference = reference();
    let mut rig = Rig::new();
    let port = free_port();
    let feed = format!("127.0.0.1:{port}");
    let mut referee = rig.referee(&["--feed", &feed]);
    let copy = rig.path("standby");
    let standby_pgn = rig.path("standby.pgn");
    let mut watch = spawn_watch(
        &[
            "--copy",
            copy.to_str().unwrap(),
            "--pgn",
            standby_pgn.to_str().unwrap(),
        ],
        &format!("tcp://{feed}"),
    );
    // The standby follows the feed before the match begins: a watcher that
    // started while the referee was still opening its feed retries after a
    // second, and on an idle machine the movers can reach the second game
    // in that second (the copy then stayed empty: the test's old flake).
    wait_until(WITHIN, "the copy's first lines", || {
        fs::metadata(copy.join("tournament.journal")).is_ok_and(|m| m.len() > 0)
    });
    rig.clients();
    // The primary dies in the middle of the second game.
    let target = (reference.checks_at_end[0] + reference.checks_at_end[1]) / 2;
    wait_until(WITHIN, "the second game", || {
        progress(&rig.journal()).0 >= target
    });
    referee.kill().unwrap();
    let _ = referee.wait();
    // The watcher keeps what it got; stop it (it holds the copy's lock).
    let mut last = 0;
    wait_until(WITHIN, "the copy to settle", || {
        let len = total_size(&copy);
        let settled = len > 0 && len == last;
        last = len;
        thread::sleep(Duration::from_millis(100));
        settled
    });
    watch.kill().unwrap();
    let _ = watch.wait();
    // The standby resumes from its copy and writes its own PGN file.
    check_copy(&copy, &rig.journal());
    let mut standby = rig.resume(&copy.join("tournament.journal"), &standby_pgn);
    let status = wait_exit(&mut standby, MATCH_WITHIN, "the standby referee");
    assert!(status.success(), "the standby ended with {status}");
    rig.clients_done();
    assert_eq!(games(&standby_pgn), reference.games);
}

#[test]
fn a_new_match_refuses_another_matchs_journal() {
    skip_unless_socat!();
    let rig = Rig::new();
    // Another match's unfinished journal at the --journal path.
    let other = argus::journal::Header {
        session: "0123456789abcdef".into(),
        settings: argus::referee::Settings::default(),
        port: argus::link::PortSettings::default(),
        output: argus::journal::OutputSettings::default(),
    };
    let zero = argus::referee::WallClock {
        at: 0,
        unix_ms: 0,
        utc_offset_min: 0,
    };
    let mut w = argus::journal::JournalWriter::create(&rig.journal(), &other, zero).unwrap();
    w.write(&argus::journal::Entry::Input {
        at: 1,
        input: argus::referee::Input::Timer,
    });
    drop(w);
    let before = fs::read(rig.journal()).unwrap();
    let mut cmd = Command::new(argus_bin());
    cmd.arg("referee");
    rig.common_args(&mut cmd);
    cmd.arg("--journal").arg(rig.journal());
    cmd.stderr(Stdio::piped());
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("another match (session 0123456789abcdef"),
        "{err}"
    );
    assert!(err.contains("argus resume"), "{err}");
    assert_eq!(
        fs::read(rig.journal()).unwrap(),
        before,
        "the journal was touched"
    );
}

/// `argus resume JOURNAL PORT_A PORT_B` (run from another directory,
/// with no output flag) writes to the files the match was started with;
/// resumed once more when the match is over, it says so and what it found.
#[test]
fn a_bare_resume_writes_to_the_same_files_and_a_finished_match_says_so() {
    skip_unless_socat!();
    let reference = reference();
    let mut rig = Rig::new();
    let mut referee = rig.referee(&[]);
    rig.clients();
    let journal = rig.journal();
    wait_until(WITHIN, "a few moves", || progress(&journal).0 >= 3);
    referee.kill().unwrap();
    let _ = referee.wait();
    let elsewhere = rig.path("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    let bare = |rig: &Rig| {
        let mut cmd = Command::new(argus_bin());
        cmd.current_dir(&elsewhere)
            .arg("resume")
            .arg(&journal)
            .arg(rig.cables[0].a_str())
            .arg(rig.cables[1].a_str())
            .arg("--headless")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd.spawn().expect("cannot start argus resume")
    };
    let mut resumed = bare(&rig);
    let status = wait_exit(&mut resumed, MATCH_WITHIN, "the resumed referee");
    let out = resumed.wait_with_output().unwrap();
    assert!(
        status.success(),
        "resume ended with {status}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    rig.clients_done();
    assert_eq!(games(&rig.pgn()), reference.games);
    assert!(
        fs::read_dir(&elsewhere).unwrap().next().is_none(),
        "the resume wrote into its working directory"
    );
    assert!(rig.path("logs").join("transcript.log").exists());

    // The match is over: a resume says so instead of resuming.
    let again = bare(&rig).wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&again.stdout);
    assert!(
        said.contains("is already over: match over:"),
        "{said}\n{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(!said.contains("resuming session"), "{said}");
    // Nor does it begin a session or wait for sign-ons: it only sends the
    // players their farewell.
    assert!(!said.contains("referee session:"), "{said}");
    assert!(!said.contains("waiting for"), "{said}");
    assert_eq!(
        games(&rig.pgn()),
        reference.games,
        "a game was written twice"
    );
}

/// A second referee on a log directory in use refuses to start, says once
/// which process holds it, and touches none of the first one's files.
#[test]
fn a_second_referee_on_the_same_log_dir_is_refused() {
    skip_unless_socat!();
    let rig = Rig::new();
    let logs = rig.path("logs");
    // The first one with its journal in the log directory (the default).
    let mut cmd = Command::new(argus_bin());
    cmd.arg("referee");
    rig.common_args(&mut cmd);
    let mut first = cmd.spawn().unwrap();
    // Its journal written whole (the header and the epoch line come just
    // after the file is created: its size is compared below).
    let journal = "tournament.journal";
    wait_until(WITHIN, "the first referee's journal", || {
        fs::read_to_string(logs.join(journal)).is_ok_and(|j| j.contains("\nepoch 0 "))
    });
    let files = [journal, "argus.log", "transcript.log"];
    let before: Vec<_> = files
        .iter()
        .map(|f| fs::metadata(logs.join(f)).map(|m| m.len()).ok())
        .collect();
    let others = [Cable::new(), Cable::new()];
    let (code, err) = refused_start([others[0].a_str(), others[1].a_str()], &logs, &[]);
    let _ = first.kill();
    let _ = first.wait();
    assert_eq!(code, Some(2), "{err}");
    let want = format!("is in use by another argus (pid {})", first.id());
    assert_eq!(err.matches(&want).count(), 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let after: Vec<_> = files
        .iter()
        .map(|f| fs::metadata(logs.join(f)).map(|m| m.len()).ok())
        .collect();
    assert_eq!(
        before[0], after[0],
        "the first referee's journal was touched"
    );
    assert!(after[0].is_some(), "the first referee's journal is gone");
    assert_eq!(
        fs::read_dir(&logs).unwrap().count(),
        4, // the lock, the log, the transcript and the journal
        "{:?}",
        fs::read_dir(&logs).unwrap().collect::<Vec<_>>()
    );
}

/// A referee stopped by SIGTERM says SIGTERM, and exits 3: the match was
/// not played out.
#[test]
fn sigterm_is_named_and_the_exit_status_says_the_match_ended_early() {
    skip_unless_socat!();
    let mut rig = Rig::new();
    let mut cmd = Command::new(argus_bin());
    cmd.arg("referee");
    rig.common_args(&mut cmd);
    cmd.arg("--journal")
        .arg(rig.journal())
        .args(["--games", "3"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut referee = cmd.spawn().unwrap();
    rig.clients();
    wait_until(WITHIN, "a move", || progress(&rig.journal()).0 >= 1);
    let ok = Command::new("kill")
        .args(["-TERM", &referee.id().to_string()])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "cannot send SIGTERM");
    let status = wait_exit(&mut referee, WITHIN, "the referee");
    let out = referee.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(status.code(), Some(3), "{said}");
    assert!(said.contains("SIGTERM: ending the session"), "{said}");
    assert!(!said.contains("Ctrl-C"), "{said}");
    assert!(
        said.contains("waiting for A and B to sign on"),
        "a headless referee does not say it waits: {said}"
    );
}

/// The same port twice, and a regular file as a port: one line on stderr
/// saying exactly that, exit 2, and no log directory left behind.
#[test]
fn a_start_that_fails_says_why_once_and_leaves_nothing() {
    skip_unless_socat!();
    let rig = Rig::new();
    let file = rig.path("not-a-port.txt");
    fs::write(&file, "hello\n").unwrap();
    let cases = [
        (
            [rig.cables[0].a_str(), rig.cables[0].a_str()],
            "are the same port".to_string(),
        ),
        (
            [rig.cables[0].a_str(), file.to_str().unwrap()],
            "is a regular file, not a serial device".to_string(),
        ),
    ];
    for (ports, want) in cases {
        let logs = rig.path("fresh-logs");
        let (code, err) = refused_start(ports, &logs, &[]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains(&want), "{err}");
        assert_eq!(err.lines().count(), 1, "said more than once: {err}");
        assert!(!err.contains("typewriter"), "{err}");
        assert!(!logs.exists(), "a failed start left {}", logs.display());
    }
    // A start that fails after the ports (a bad feed address) removes the
    // log directory, log, transcript and journal it made.
    let logs = rig.path("fresh-logs");
    let (code, err) = refused_start(
        [rig.cables[0].a_str(), rig.cables[1].a_str()],
        &logs,
        &["--feed", "not an address"],
    );
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "said more than once: {err}");
    assert!(!logs.exists(), "a failed start left {}", logs.display());
}

/// Runs `argus referee PORTS --headless --log-dir LOGS EXTRA` to its end;
/// its exit code and stderr.
fn refused_start(ports: [&str; 2], logs: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(argus_bin())
        .arg("referee")
        .args(ports)
        .arg("--headless")
        .arg("--log-dir")
        .arg(logs)
        .args(extra)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `argus watch ... --headless | head`: the watcher's stdout is a pipe
/// whose reader has gone (closed here before the watcher prints anything,
/// so every line it prints fails); it ends quietly instead of panicking in
/// `println!` (exit 101, as it did).
#[test]
fn a_watcher_whose_stdout_closes_ends_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in &reference().journals {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, bytes).unwrap();
    }
    let file = dir.path().join("journal.log");
    let mut watch = spawn_watch(&[], file.to_str().unwrap());
    drop(watch.stdout.take());
    let status = wait_exit(&mut watch, WITHIN, "argus watch with its stdout closed");
    let mut err = String::new();
    watch
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{status}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// `argus watch` on a file that is not a journal says so at once (it used
/// to wait for ever), and `argus resume` says it in the same words (it
/// used to call the file a damaged journal).
#[test]
fn watching_or_resuming_a_file_that_is_not_a_journal_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.pgn");
    fs::write(&file, "[Event \"club\"]\n\n1. e4 *\n").unwrap();
    let mut watch = spawn_watch(&[], file.to_str().unwrap());
    let status = wait_exit(&mut watch, WITHIN, "argus watch on a PGN file");
    let out = watch.wait_with_output().unwrap();
    let watch_err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(status.code(), Some(2), "{watch_err}");
    let said = format!("{} is not an argus journal", file.display());
    assert!(watch_err.contains(&said), "{watch_err}");
    let resume = Command::new(argus_bin())
        .args(["resume", file.to_str().unwrap(), "/dev/null", "/dev/null"])
        .output()
        .unwrap();
    let resume_err = String::from_utf8_lossy(&resume.stderr).to_string();
    assert_eq!(resume.status.code(), Some(2), "{resume_err}");
    assert!(resume_err.contains(&said), "{resume_err}");
    assert!(!resume_err.contains("damaged"), "{resume_err}");
    assert_eq!(
        watch_err.strip_prefix("argus watch: "),
        resume_err.strip_prefix("argus resume: "),
        "the same words"
    );
}
