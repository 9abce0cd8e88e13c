//! `argus tournament` end to end: the real binary with players on socat
//! cables, over TCP on loopback and run in-process (engines and the
//! built-in mover); every game's PGN replayed move by move, and the
//! standings of the report checked against the PGN's results.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::process::{Proc, describe_if_panicking};
use crate::common::{Cable, argus_bin, check_pgn, free_port, temp_dir};
use crate::tmux::Tmux;
use argus::record::pgn_read::read_pgn_games;

/// A tournament's directory, its process and its clients.
struct Event {
    dir: tempfile::TempDir,
    argus: Option<Proc>,
    clients: Vec<Proc>,
    /// Added to the environment of argus (the tournament and its resume).
    env: Vec<(&'static str, &'static str)>,
}

impl Event {
    fn new() -> Event {
        let dir = temp_dir("argus-tournament-");
        Event {
            dir,
            argus: None,
            clients: Vec::new(),
            env: Vec::new(),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.path("logs").join("argus.log")).unwrap_or_default()
    }

    /// Starts `argus tournament` with `players` and `extra` flags (headless,
    /// short delays, its files in the directory); returns once its log
    /// says `ready`.
    fn start(&mut self, players: &[String], extra: &[&str], ready: &str) {
        let mut args: Vec<String> = vec!["tournament".into()];
        args.extend(players.iter().cloned());
        for a in [
            "--headless",
            "--reset-delay",
            "0.2",
            "--conclude-delay",
            "0.2",
        ] {
            args.push(a.into());
        }
        for (flag, file) in [
            ("--log-dir", "logs"),
            ("--pgn", "games.pgn"),
            ("--report", "report.txt"),
        ] {
            args.push(flag.into());
            args.push(text(&self.path(file)));
        }
        args.extend(extra.iter().map(|s| s.to_string()));
        let mut p = Proc::spawn_env("tournament", &argus_bin(), &args, &self.env);
        let deadline = Instant::now() + Duration::from_secs(60);
        while !self.log().contains(ready) {
            assert!(
                p.running(),
                "the tournament exited at start\n{}",
                p.describe()
            );
            assert!(
                Instant::now() < deadline,
                "the tournament did not start\n{}",
                p.describe()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        self.argus = Some(p);
    }

    /// Starts `argus client` on `endpoint` as `name`.
    fn client(&mut self, endpoint: &str, name: &str, extra: &[&str]) {
        let mut args: Vec<String> = vec!["client".into(), endpoint.into(), "--name".into()];
        args.push(name.into());
        args.extend(extra.iter().map(|s| s.to_string()));
        self.clients
            .push(Proc::spawn(&format!("client {name}"), &argus_bin(), &args));
    }

    /// Waits for the tournament, then every client, to exit; their codes.
    fn finish(&mut self, within: Duration) -> Vec<i32> {
        let argus = self.argus.as_mut().expect("the tournament was started");
        let mut codes = vec![argus.wait_exit(within)];
        for c in &mut self.clients {
            codes.push(c.wait_exit(Duration::from_secs(20)));
        }
        codes
    }

    /// Kills the tournament with SIGKILL (it must still be running).
    fn kill(&mut self) {
        let argus = self.argus.as_mut().expect("started");
        assert!(argus.running(), "the tournament ended before the kill");
        argus.kill();
    }

    /// `argus resume` of the tournament's journal, headless, which must
    /// finish it within `within`; its stdout.
    fn resume(&self, within: Duration) -> String {
        let journal = text(&self.path("logs").join("tournament.journal"));
        let mut resumed = Proc::spawn_env(
            "resume",
            &argus_bin(),
            &["resume".to_string(), journal, "--headless".to_string()],
            &self.env,
        );
        assert_eq!(resumed.wait_exit(within), 0, "{}", resumed.describe());
        resumed.stdout_lines().join("\n")
    }

    /// An executable shell script `name` in the directory, with `body`
    /// after its `#!/bin/sh` line.
    #[cfg(unix)]
    fn script(&self, name: &str, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = self.path(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    fn pgn(&self) -> String {
        std::fs::read_to_string(self.path("games.pgn")).unwrap_or_default()
    }

    fn report(&self) -> String {
        std::fs::read_to_string(self.path("report.txt")).unwrap_or_default()
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        let log = self.log();
        describe_if_panicking(self.argus.iter().chain(self.clients.iter()), &log);
    }
}

fn text(p: &Path) -> String {
    p.to_str().expect("temporary paths are UTF-8").to_string()
}

/// Whether `line` is a move as the watcher prints it (`game 5: 12. Nf3`);
/// the game's number and the move's words.
fn move_of(line: &str) -> Option<(u32, &str)> {
    let (game, rest) = line.strip_prefix("game ")?.split_once(": ")?;
    let (number, san) = rest.split_once(' ')?;
    number.trim_end_matches('.').parse::<u32>().ok()?;
    Some((game.parse().ok()?, san))
}

fn is_move_line(line: &str) -> bool {
    move_of(line).is_some()
}

/// Four in-process movers, two random and two greedy.
fn four_movers() -> Vec<String> {
    ["a", "b=greedy", "c", "d=greedy"]
        .iter()
        .map(|p| format!("mover:{p}"))
        .collect()
}

/// Each player's points in half points, from the PGN's results.
fn pgn_points(pgn: &str) -> BTreeMap<String, u32> {
    let mut points = BTreeMap::new();
    for (white, black, result, _) in check_pgn(pgn) {
        let (w, b) = match result.as_str() {
            "1-0" => (2, 0),
            "0-1" => (0, 2),
            "1/2-1/2" => (1, 1),
            other => panic!("result {other:?}"),
        };
        *points.entry(white).or_insert(0) += w;
        *points.entry(black).or_insert(0) += b;
    }
    points
}

/// Each player's points in half points, from the report's standings.
fn report_points(report: &str) -> BTreeMap<String, u32> {
    let section = report
        .split("\nStandings\n")
        .nth(1)
        .and_then(|s| s.split("\n\n").next())
        .unwrap_or_else(|| panic!("no standings in the report:\n{report}"));
    let mut points = BTreeMap::new();
    for row in section.lines().skip(2) {
        let cells: Vec<&str> = row.split_whitespace().collect();
        let (name, p) = (cells[1], cells[2]);
        let halves = match p.strip_suffix('½') {
            Some("") => 1,
            Some(n) => n.parse::<u32>().unwrap() * 2 + 1,
            None => p.parse::<u32>().unwrap() * 2,
        };
        points.insert(name.to_string(), halves);
    }
    points
}

/// The Round tags of the PGN's games, as (round, board).
fn rounds(pgn: &str) -> Vec<(u32, u32)> {
    read_pgn_games(pgn)
        .expect("the PGN reads")
        .iter()
        .map(|g| {
            // A match's games (`argus referee`) are numbered: `Round "7"`.
            let tag = g.tag("Round").expect("a Round tag");
            let (r, b) = tag.split_once('.').unwrap_or((tag, "0"));
            (
                r.parse().unwrap_or_else(|_| panic!("Round {tag:?}")),
                b.parse().unwrap_or_else(|_| panic!("Round {tag:?}")),
            )
        })
        .collect()
}

#[test]
fn a_double_round_robin_over_cables_and_tcp_on_two_boards() {
    skip_unless_socat!();
    let cables = [Cable::new(), Cable::new()];
    let addr = free_port();
    let mut ev = Event::new();
    let players = vec![
        cables[0].a_str().to_string(),
        cables[1].a_str().to_string(),
        "tcp:gamma".to_string(),
        "tcp:delta".to_string(),
    ];
    let listen = addr.to_string();
    let results = text(&ev.path("results.json"));
    ev.start(
        &players,
        &[
            "--results-json",
            &results,
            "--listen",
            &listen,
            "--cycles",
            "2",
            "--boards",
            "2",
            "--max-moves",
            "30",
            "--tc",
            "60+1",
        ],
        "listening on",
    );
    ev.client(cables[0].b_str(), "alpha", &["--seed", "1"]);
    ev.client(
        cables[1].b_str(),
        "beta",
        &["--seed", "2", "--mover", "greedy"],
    );
    let url = format!("tcp://{addr}");
    ev.client(&url, "gamma", &["--seed", "3"]);
    ev.client(&url, "delta", &["--seed", "4", "--mover", "greedy"]);
    let codes = ev.finish(Duration::from_secs(300));
    assert_eq!(codes, vec![0; 5], "every program ends normally");
    let pgn = ev.pgn();
    // 4 players, double round robin: 12 games, every one legal.
    let games = check_pgn(&pgn);
    assert_eq!(games.len(), 12, "{pgn}");
    let rounds = rounds(&pgn);
    let mut sorted = rounds.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), 12, "each (round, board) once: {rounds:?}");
    assert!(
        rounds
            .iter()
            .all(|&(r, b)| (1..=6).contains(&r) && (1..=2).contains(&b))
    );
    assert!(
        rounds.iter().any(|&(_, b)| b == 2),
        "board 2 was used: {rounds:?}"
    );
    // Every pairing met twice, once with each colour.
    let mut pairings = BTreeMap::new();
    for (w, b, _, _) in &games {
        *pairings.entry((w.clone(), b.clone())).or_insert(0) += 1;
    }
    assert_eq!(pairings.len(), 12, "{pairings:?}");
    // The standings are the PGN's results.
    let report = ev.report();
    assert_eq!(report_points(&report), pgn_points(&pgn), "{report}");
    assert!(
        report.contains("Complete: all 12 games decided."),
        "{report}"
    );
    // Every move relayed on either board was timed: all but the last of
    // each game (which ends it).
    let log = std::fs::read_to_string(ev.path("logs").join("argus.log")).unwrap();
    let plies: usize = games.iter().map(|g| g.3).sum();
    let relayed: usize = log
        .split("relay overhead on all boards: ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no relay overhead in the log:\n{log}"));
    assert!(
        (plies - 12..=plies).contains(&relayed),
        "{relayed} relays timed of {plies} plies in 12 games"
    );
    // Each game has its journal and transcript; the players were told
    // `disconnect` at the end (the clients exited 0).
    for n in 1..=12 {
        let dir = ev.path("logs").join(format!("game-{n:03}"));
        assert!(dir.join("journal.log").is_file(), "{}", dir.display());
        assert!(dir.join("transcript.log").is_file(), "{}", dir.display());
    }
}

#[test]
fn three_local_engines_play_a_round_robin() {
    let Some(sf) = crate::engine::stockfish() else {
        return;
    };
    let Some(gnu) = crate::engine::gnuchess() else {
        return;
    };
    let mut ev = Event::new();
    let players = vec![
        format!("engine:sf={sf}"),
        format!("engine:gnu={gnu}"),
        "mover:rnd=greedy".to_string(),
    ];
    ev.start(
        &players,
        &[
            "--protocol",
            "gnu:xboard",
            "--engine-option",
            "sf:Threads=1",
            "--engine-option",
            "sf:Hash=16",
            "--tc",
            "10+0.1",
            "--max-moves",
            "20",
        ],
        "waiting for the players",
    );
    let codes = ev.finish(Duration::from_secs(240));
    assert_eq!(codes, vec![0]);
    let pgn = ev.pgn();
    let games = check_pgn(&pgn);
    assert_eq!(games.len(), 3, "{pgn}");
    let report = ev.report();
    let points = report_points(&report);
    assert_eq!(points, pgn_points(&pgn), "{report}");
    assert_eq!(
        points.keys().cloned().collect::<Vec<_>>(),
        ["gnu", "rnd", "sf"],
        "{report}"
    );
    // The engines' traffic is in the log directory, in their protocols.
    let logs = ev.path("logs");
    let sf_log = std::fs::read_to_string(logs.join("engine-sf.log")).unwrap_or_default();
    assert!(
        sf_log.contains("> setoption name Hash value 16"),
        "{sf_log}"
    );
    let gnu_log = std::fs::read_to_string(logs.join("engine-gnu.log")).unwrap_or_default();
    assert!(gnu_log.contains("> level 0 0:10 0.100"), "{gnu_log}");
}

#[test]
fn a_killed_tournament_resumed_plays_exactly_the_scheduled_games() {
    let mut ev = Event::new();
    ev.start(
        &four_movers(),
        &["--cycles", "2", "--tc", "60+1", "--max-moves", "60"],
        "waiting for the players",
    );
    // Killed in the middle of a game of the second round or later.
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let mid_game = (3..=12).any(|n| {
            let j = ev
                .path("logs")
                .join(format!("game-{n:03}"))
                .join("journal.log");
            std::fs::read_to_string(j).is_ok_and(|t| t.matches(" line ").count() > 20)
        });
        if mid_game {
            break;
        }
        assert!(Instant::now() < deadline, "no game of round 2 began");
        std::thread::sleep(Duration::from_millis(5));
    }
    kill_and_resume_to_every_game_once(&mut ev, 12);
    let report = ev.report();
    assert!(
        report.contains("Complete: all 12 games decided."),
        "{report}"
    );
}

/// A match of two movers on four boards (`argus referee ... --boards 4`),
/// killed while games run on several boards and resumed: each game in
/// progress carries on on its board with the instances that played it,
/// and every scheduled game is played exactly once.
#[test]
fn a_four_board_match_killed_with_games_running_resumes_to_every_game_once() {
    let mut ev = Event::new();
    let dir = ev.dir.path().to_path_buf();
    let args: Vec<String> = [
        "referee",
        "mover:a",
        "mover:b=greedy",
        "--boards",
        "4",
        "--games",
        "24",
        "--tc",
        "60+1",
        "--max-moves",
        "60",
        "--headless",
        "--log-dir",
        &text(&dir.join("logs")),
        "--pgn",
        &text(&dir.join("games.pgn")),
        "--report",
        &text(&dir.join("report.txt")),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    ev.argus = Some(Proc::spawn("referee", &argus_bin(), &args));
    // Killed once four games have begun past their openings at once.
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        // Two players: game N is round N.
        let finished: Vec<u32> = rounds(&ev.pgn()).into_iter().map(|(r, _)| r).collect();
        let running = (1..=24)
            .filter(|n| {
                let dir = ev.path("logs").join(format!("game-{n:03}"));
                let journal = std::fs::read_to_string(dir.join("journal.log")).unwrap_or_default();
                journal.matches(" line ").count() > 10 && !finished.contains(n)
            })
            .count();
        if running >= 3 {
            break;
        }
        assert!(Instant::now() < deadline, "no three games at once");
        std::thread::sleep(Duration::from_millis(5));
    }
    kill_and_resume_to_every_game_once(&mut ev, 24);
}

/// Kills the running tournament of `games` games (before its last game
/// ended), resumes it, and checks that every scheduled game was played
/// once (each legal, each round once) and the report's points are the
/// PGN's.
fn kill_and_resume_to_every_game_once(ev: &mut Event, games: usize) {
    ev.kill();
    let before = read_pgn_games(&ev.pgn()).map_or(0, |g| g.len());
    assert!(before < games, "the kill came after the last game");
    let out = ev.resume(Duration::from_secs(240));
    assert!(out.contains("resuming the tournament from"), "{out}");
    let pgn = ev.pgn();
    let played = check_pgn(&pgn);
    assert_eq!(played.len(), games, "every scheduled game once:\n{pgn}");
    let mut rounds = rounds(&pgn);
    rounds.sort_unstable();
    rounds.dedup();
    assert_eq!(rounds.len(), games, "{rounds:?}");
    let report = ev.report();
    assert_eq!(report_points(&report), pgn_points(&pgn), "{report}");
}

/// Each journaled game by (round, board): (White, Black) by name.
type Paired = BTreeMap<(u32, u32), (String, String)>;

/// The games of each round as the tournament journal's `paired` lines
/// record them, by (round, board): (White, Black) by name; and how many
/// times each round was paired.
fn journaled_pairings(journal: &str) -> (Paired, BTreeMap<u32, u32>) {
    let names: Vec<String> = journal
        .lines()
        .filter_map(|l| l.strip_prefix("player "))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    let mut games = BTreeMap::new();
    let mut times = BTreeMap::new();
    for line in journal.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() < 4 || words[0] != "in" || words[2] != "paired" {
            continue;
        }
        let round: u32 = words[3].parse().unwrap();
        *times.entry(round).or_insert(0) += 1;
        let mut board = 0;
        for w in &words[4..] {
            if let Some((a, b)) = w.split_once('-') {
                board += 1;
                let name = |s: &str| names[s.parse::<usize>().unwrap()].clone();
                games.insert((round, board), (name(a), name(b)));
            }
        }
    }
    (games, times)
}

/// A 7-round Swiss of 12 built-in movers on 4 boards, killed (SIGKILL) in
/// the middle of round 4 and resumed with `argus resume`: every round
/// paired exactly once, before and after the kill every game played as
/// its round's journaled pairing says (so the resumed event kept the
/// pairings it had), every game once, and the `--trf` file it wrote
/// passes `argus swiss check`.
#[test]
fn a_swiss_of_twelve_movers_killed_in_round_four_resumes_with_its_pairings() {
    let mut ev = Event::new();
    let players: Vec<String> = (1..=12)
        .map(|i| format!("mover:m{i:02}{}", if i % 3 == 0 { "=greedy" } else { "" }))
        .collect();
    let trf = text(&ev.path("event.trf"));
    ev.start(
        &players,
        &[
            "--schedule",
            "swiss",
            "--rounds",
            "7",
            "--boards",
            "4",
            "--tc",
            "60+1",
            "--max-moves",
            "60",
            "--trf",
            &trf,
            "--rating",
            "m07:2400",
            "--rating",
            "m03:2200",
        ],
        "waiting for the players",
    );
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        let in_four = rounds(&ev.pgn()).iter().filter(|(r, _)| *r == 4).count();
        if in_four >= 1 {
            assert!(in_four < 6, "round 4 was over before the kill");
            break;
        }
        assert!(Instant::now() < deadline, "round 4 did not begin");
        std::thread::sleep(Duration::from_millis(5));
    }
    let journal_path = ev.path("logs").join("tournament.journal");
    let trf_before = std::fs::read_to_string(ev.path("event.trf")).unwrap();
    assert!(trf_before.contains("142 7"), "{trf_before}");
    kill_and_resume_to_every_game_once(&mut ev, 42);
    let journal = std::fs::read_to_string(&journal_path).unwrap();
    let (paired, times) = journaled_pairings(&journal);
    assert_eq!(
        times,
        (1..=7).map(|r| (r, 1)).collect::<BTreeMap<_, _>>(),
        "each round paired once"
    );
    assert_eq!(paired.len(), 42);
    for g in read_pgn_games(&ev.pgn()).unwrap() {
        let tag = g.tag("Round").unwrap();
        let (r, b) = tag.split_once('.').unwrap();
        let key = (r.parse().unwrap(), b.parse().unwrap());
        let want = &paired[&key];
        assert_eq!(
            (g.tag("White").unwrap(), g.tag("Black").unwrap()),
            (want.0.as_str(), want.1.as_str()),
            "game {tag} as journaled"
        );
    }
    // m07 and m03 (rated) come first, then the others by name: the
    // highest-rated has White on board 1 of round 1.
    assert_eq!(paired[&(1, 1)].0, "m07");
    let file = std::fs::read_to_string(ev.path("event.trf")).unwrap();
    assert_eq!(file.lines().filter(|l| l.starts_with("001")).count(), 12);
    let mut check = Proc::spawn(
        "swiss check",
        &argus_bin(),
        &["swiss".to_string(), "check".to_string(), trf],
    );
    assert_eq!(
        check.wait_exit(Duration::from_secs(60)),
        0,
        "{}\n{file}",
        check.describe()
    );
    let report = ev.report();
    assert!(
        report.contains("BH-C1") && report.contains("Swiss"),
        "{report}"
    );
}

/// What testers' tools read in a tournament's PGN (python-chess), killed
/// in the middle of a game and resumed: every game without errors, its
/// closing comment as the last move's comment and in the console's result
/// line, `Termination`, `PlyCount` and the times fastchess writes, in the
/// local time of argus's time zone (`TZ` three hours west of UTC); the
/// game the kill cut keeps the start it had before it (and its duration
/// counts the time argus was down).
#[test]
fn python_chess_reads_a_resumed_tournaments_closing_comments_and_tags() {
    use crate::common::python_chess::{available, check_finished, game_time, read_games};
    if !available() {
        return;
    }
    let mut ev = Event::new();
    ev.env = vec![("TZ", "ART3")];
    ev.start(
        &["mover:a".to_string(), "mover:b=greedy".to_string()],
        // Timed: the last move's clock comment and the closing comment
        // are read as one.
        &["--cycles", "2", "--max-moves", "80", "--tc", "60+1"],
        "waiting for the players",
    );
    let deadline = Instant::now() + Duration::from_secs(120);
    let game_journal = |n: u32| {
        ev.path("logs")
            .join(format!("game-{n:03}"))
            .join("journal.log")
    };
    while !std::fs::read_to_string(game_journal(2)).is_ok_and(|t| t.matches(" line ").count() > 20)
    {
        assert!(Instant::now() < deadline, "game 2 did not begin");
        std::thread::sleep(Duration::from_millis(5));
    }
    ev.kill();
    let killed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    assert!(
        read_pgn_games(&ev.pgn()).map_or(0, |g| g.len()) < 2,
        "the kill came after the last game"
    );
    // Down for more than a second, so the wall clock shows it.
    std::thread::sleep(Duration::from_millis(1_500));
    let out = ev.resume(Duration::from_secs(120));
    let before = ev.argus.as_ref().unwrap().stdout_lines().join("\n");
    let games = read_games(&[&ev.path("games.pgn")]);
    assert_eq!(games.len(), 2, "{games:#?}");
    for (i, g) in games.iter().enumerate() {
        let comment = check_finished(g, "-0300");
        let round = g.tag("Round").unwrap_or("?");
        let n = i + 1;
        let words = comment.split("; ").next().unwrap_or_default();
        let line = format!(
            "game {n} (round {round}): {} - {} {} ({words})",
            g.tag("White").unwrap_or("?"),
            g.tag("Black").unwrap_or("?"),
            g.tag("Result").unwrap_or("?"),
        );
        assert!(
            out.contains(&line) || before.contains(&line),
            "no line {line:?} for the closing comment {comment:?}:\n{before}\n{out}"
        );
    }
    let g2 = &games[1];
    let (start, _) = game_time(g2.tag("GameStartTime").unwrap());
    let (end, _) = game_time(g2.tag("GameEndTime").unwrap());
    assert!(
        start <= killed,
        "game 2 started at {start}, after the kill at {killed}"
    );
    assert!(
        end > killed,
        "game 2 ended at {end}, before the kill at {killed}"
    );
}

/// Issue 35: an `engine:` player is charged its engine's own time, as
/// its bridge measured it (`Asearch` on each reply), not argus's own
/// threads' hops beyond it: every move's `[%emt]` is at most the
/// `Asearch` of its reply (before, it was the time argus measured,
/// respond out to reply in, which the hops make longer). The game
/// journal says whose `Asearch` counts, for a resume.
#[test]
fn an_engine_player_is_charged_its_engines_own_time() {
    let Some(sf) = crate::common::tool::stockfish() else {
        return;
    };
    let dir = temp_dir("argus-own-time-");
    let path = |f: &str| text(&dir.path().join(f));
    let args: Vec<String> = [
        "referee",
        &format!("engine:a={sf}"),
        &format!("engine:b={sf}"),
        "--games",
        "2",
        "--tc",
        "60+1",
        "--depth",
        "a:4",
        "--depth",
        "b:4",
        "--max-moves",
        "30",
        "--headless",
        "--log-dir",
        &path("logs"),
        "--pgn",
        &path("games.pgn"),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut p = Proc::spawn("referee", &argus_bin(), &args);
    assert_eq!(p.wait_exit(Duration::from_secs(120)), 0, "{}", p.describe());
    let pgn = std::fs::read_to_string(dir.path().join("games.pgn")).unwrap();
    let charged = emts(&pgn);
    let mut searched = Vec::new();
    for game in ["game-001", "game-002"] {
        let journal = dir.path().join("logs").join(game).join("journal.log");
        let lines = text_lines(&journal);
        assert!(
            lines.iter().any(|l| l.contains("set own-search-time a b")),
            "{journal:?}: {lines:?}"
        );
        // Spaces in a journaled line are written `\x20`.
        searched.extend(lines.iter().filter_map(|l| {
            let rest = l.split("Asearch\\x20").nth(1)?;
            rest.split(';').next()?.trim().parse::<u64>().ok()
        }));
    }
    assert!(charged.len() >= 40, "{} moves\n{pgn}", charged.len());
    assert_eq!(charged.len(), searched.len(), "an Asearch per move\n{pgn}");
    let over: Vec<(u64, u64)> = charged
        .iter()
        .zip(&searched)
        .filter(|(c, s)| c > s)
        .map(|(c, s)| (*c, *s))
        .collect();
    assert!(
        over.is_empty(),
        "charged more than the engine's time: {over:?}"
    );
}

/// Every `[%emt H:MM:SS.mmm]` of the PGN, in ms, in order.
fn emts(pgn: &str) -> Vec<u64> {
    pgn.split("[%emt ")
        .skip(1)
        .map(|rest| {
            let t = rest.split(']').next().unwrap_or_default();
            let parts: Vec<&str> = t.split(':').collect();
            let [h, m, s] = parts[..] else {
                panic!("emt {t:?}")
            };
            let (secs, ms) = s.split_once('.').unwrap_or((s, "0"));
            let n = |x: &str| x.parse::<u64>().unwrap_or_else(|_| panic!("emt {t:?}"));
            ((n(h) * 60 + n(m)) * 60 + n(secs)) * 1000 + n(ms)
        })
        .collect()
}

/// Issue 29: a resumed tournament's games kept no clocks (the links'
/// times were taken as journal times from before the stop, so every move
/// after the resume took 0 ms and the flag fell on wall time alone).
#[test]
fn a_resumed_engine_tournament_keeps_its_clocks() {
    let uci = crate::common::fixture("uci-random").display().to_string();
    let players: Vec<String> = ["a", "b"]
        .iter()
        .map(|n| format!("engine:{n}={uci} --think 50 --name {n}"))
        .collect();
    let mut ev = Event::new();
    ev.start(
        &players,
        &["--cycles", "2", "--tc", "8+0.1", "--max-moves", "40"],
        "waiting for the players",
    );
    // Killed in the middle of the first game.
    let game = ev.path("logs").join("game-001").join("journal.log");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !std::fs::read_to_string(&game).is_ok_and(|t| t.matches(" line ").count() > 20) {
        assert!(
            Instant::now() < deadline,
            "the first game did not get going"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    ev.kill();
    ev.resume(Duration::from_secs(120));
    let pgn = ev.pgn();
    assert_eq!(check_pgn(&pgn).len(), 2, "{pgn}");
    assert!(!pgn.contains("time forfeit"), "{pgn}");
    // Each engine takes 50 ms over every move, before the stop and after.
    let emts = emts(&pgn);
    assert!(emts.len() > 40, "{pgn}");
    assert!(emts.iter().all(|&t| t >= 40), "{emts:?}\n{pgn}");
    let log = ev.log();
    assert!(!log.contains("echoed position differs"), "{log}");
}

/// Issue 29: an engine player's program failed, the bridge's restart
/// failed too, and the tournament waited for it for ever. Its command here
/// works once (the engine crashes in its first game), then fails: argus
/// starts it again, cannot, and its remaining games are forfeited with the
/// reason; the tournament finishes.
#[cfg(unix)]
#[test]
fn an_engine_whose_command_fails_after_its_first_game_forfeits_the_rest() {
    let uci = crate::common::fixture("uci-random").display().to_string();
    let mut ev = Event::new();
    let marker = ev.path("started-once");
    let script = ev.script(
        "once.sh",
        &format!(
            "if [ -e '{m}' ]; then echo 'no more starts' >&2; exit 1; fi\n\
             touch '{m}'\nexec '{uci}' --crash-after 6\n",
            m = text(&marker)
        ),
    );
    let players = vec![
        format!("engine:bad={}", text(&script)),
        "mover:x".to_string(),
        "mover:y".to_string(),
    ];
    ev.start(
        &players,
        &["--tc", "5+0.1", "--max-moves", "30"],
        "waiting for the players",
    );
    let codes = ev.finish(Duration::from_secs(120));
    assert_eq!(codes, vec![0], "the tournament finishes");
    let log = ev.log();
    assert!(
        log.contains("bad: its program stopped; argus starts it again"),
        "{log}"
    );
    assert!(
        log.contains("bad: argus cannot start its program (") && log.contains("no more starts"),
        "{log}"
    );
    let report = ev.report();
    assert!(
        report.contains("Complete: all 3 games decided."),
        "{report}"
    );
    // Its one game not begun is forfeited; the one it crashed in was played.
    let pgn = ev.pgn();
    assert_eq!(check_pgn(&pgn).len(), 2, "{pgn}");
    assert!(report.contains("forfeit"), "{report}");
}

/// 128 engines started at once on two cores: one missed its handshake,
/// and its player forfeited every game though its other instances played.
/// Here the second instance's first start fails (the command's second and
/// third runs, the engine bridge trying once more itself; the first
/// instance is started, through its handshake, before the others): argus
/// says why and starts it again, it signs on, and every game is played,
/// nobody forfeiting. (Seen failing with the retry taken out,
/// `START_TRIES` 1: the instance was given up and never signed on.)
#[cfg(unix)]
#[test]
fn an_instance_whose_first_start_fails_is_started_again_and_plays() {
    let mut ev = Event::new();
    start_scripted_against_steady(
        &mut ev,
        "flaky",
        "if mkdir '{runs}/1' 2>/dev/null; then exec '{uci}'; fi\n\
         if mkdir '{runs}/2' 2>/dev/null || mkdir '{runs}/3' 2>/dev/null; then\n\
         echo 'this start fails' >&2; exit 1; fi\n\
         exec '{uci}'\n",
        2,
        4,
    );
    let codes = ev.finish(Duration::from_secs(120));
    assert_eq!(codes, vec![0], "the tournament finishes");
    let log = ev.log();
    assert!(
        log.contains("flaky #2: its program stopped before it signed on (")
            && log.contains("this start fails")
            && log.contains("argus starts it again (start 2 of 3)"),
        "the retry is said with its reason:\n{log}"
    );
    assert!(log.contains("flaky #2 signed on"), "{log}");
    assert!(
        !log.contains("cannot start") && !log.contains("gives this instance up"),
        "{log}"
    );
    // The second start of the second instance played: its engine log has
    // its moves.
    let second =
        std::fs::read_to_string(ev.path("logs").join("engine-flaky.2-2.log")).unwrap_or_default();
    assert!(second.contains("uciok"), "{second}");
    assert_every_game_played(&ev, 4);
}

/// Starts engine player `name`, a shell script of `body` (where `{runs}`
/// is an empty directory to count its runs in and `{uci}` the fixture
/// engine), against the fixture engine `steady`: `games` games on
/// `boards` boards.
#[cfg(unix)]
fn start_scripted_against_steady(ev: &mut Event, name: &str, body: &str, boards: u32, games: u32) {
    let uci = crate::common::fixture("uci-random").display().to_string();
    let runs = ev.path("runs");
    std::fs::create_dir(&runs).unwrap();
    let body = body.replace("{runs}", &text(&runs)).replace("{uci}", &uci);
    let script = ev.script(&format!("{name}.sh"), &body);
    let players = vec![
        format!("engine:{name}={}", text(&script)),
        format!("engine:steady={uci}"),
    ];
    let (boards, games) = (boards.to_string(), games.to_string());
    ev.start(
        &players,
        &[
            "--boards",
            &boards,
            "--games-per-pairing",
            &games,
            "--tc",
            "10+0.1",
            "--max-moves",
            "30",
        ],
        "waiting for the players",
    );
}

/// Every one of the event's `games` games was played, and nobody
/// forfeited nor was given up.
#[cfg(unix)]
fn assert_every_game_played(ev: &Event, games: usize) {
    let report = ev.report();
    assert!(
        report.contains(&format!("Complete: all {games} games decided.")),
        "{report}"
    );
    let log = ev.log();
    assert!(
        !log.contains("forfeits the games") && !log.contains("cannot start"),
        "nobody forfeits:\n{log}"
    );
    let pgn = ev.pgn();
    assert_eq!(check_pgn(&pgn).len(), games, "every game played:\n{pgn}");
}

/// 128 engines starting at once on two cores: a player's first instance
/// (the check, before the event, that the program runs) did not answer
/// `uciok` within the handshake, and the event ended with status 2. Here
/// the engine's first two runs (its first start, the bridge trying once
/// more itself) answer 12 s late, past the 10 s handshake: the event
/// begins all the same, argus starts the instance again by its usual
/// rules, and every game is played. (Seen failing before the change: the
/// tournament exited at start, "engine \"slow\" ...: the engine hung: no
/// uciok in time".)
#[cfg(unix)]
#[test]
fn an_engines_first_start_that_answers_late_does_not_end_the_event() {
    let mut ev = Event::new();
    start_scripted_against_steady(
        &mut ev,
        "slow",
        "if mkdir '{runs}/1' 2>/dev/null || mkdir '{runs}/2' 2>/dev/null; then sleep 12; fi\n\
         exec '{uci}'\n",
        1,
        2,
    );
    let codes = ev.finish(Duration::from_secs(120));
    assert_eq!(codes, vec![0], "the tournament finishes");
    let log = ev.log();
    assert!(
        log.contains("slow: its program's first start did not answer in time (")
            && log.contains("no uciok in time"),
        "the late first start is said with its reason:\n{log}"
    );
    assert!(
        log.contains("slow: its program stopped before it signed on (")
            && log.contains("argus starts it again (start 2 of 3)"),
        "and retried by the usual rules:\n{log}"
    );
    assert!(log.contains("slow signed on"), "{log}");
    assert_every_game_played(&ev, 2);
}

/// What the check at the start still refuses, with status 2 and the
/// engine, its command and the cause named: a command that does not
/// exist, and a program that exits at once. (The late answer above is
/// not refused.)
#[cfg(unix)]
#[test]
fn an_engine_that_cannot_run_is_refused_before_the_event_begins() {
    let ev = Event::new();
    let quits = ev.script("quits.sh", "echo 'no network file' >&2\nexit 3\n");
    for (command, cause) in [
        (
            "/nonexistent/argus-engine".to_string(),
            "/nonexistent/argus-engine",
        ),
        // Gone before its `uci` was written (a broken pipe) or while
        // argus waited for `uciok`: either way refused, its command named.
        (text(&quits), "quits.sh"),
    ] {
        let logs = ev.path("logs");
        let started = Instant::now();
        let mut p = Proc::spawn(
            "tournament",
            &argus_bin(),
            &[
                "tournament".to_string(),
                format!("engine:bad={command}"),
                "mover:x".to_string(),
                "--headless".to_string(),
                "--log-dir".to_string(),
                text(&logs),
            ],
        );
        assert_eq!(p.wait_exit(Duration::from_secs(30)), 2, "{}", p.describe());
        let err = p.stderr_text();
        assert!(
            err.contains("engine \"bad\" (") && err.contains(cause),
            "{command}: {err}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{command}: refused at once, not after a handshake's wait"
        );
    }
}

#[test]
fn the_board_view_shows_every_board_and_any_one_full_size() {
    skip_unless_tmux!();
    let cwd = temp_dir("argus-tournament-tui-");
    let dir = text(cwd.path());
    let status = cwd.path().join("status");
    let command = format!(
        "'{bin}' tournament mover:alpha mover:beta=greedy mover:gamma mover:delta=greedy \
         --tc 5+5 --cycles 2 --log-dir '{dir}/logs'; echo $? > '{status}'; \
         echo argus-test-done; sleep 600",
        bin = text(&argus_bin()),
        status = text(&status),
    );
    let tmux = Tmux::start(110, 34, cwd.path(), &command);
    let within = Duration::from_secs(60);
    let screen = tmux.wait_for("the overview with a game on board 1", within, |s| {
        s.contains("Boards")
            && s.contains("Standings")
            && s.contains("game ")
            && s.contains("│1  game")
    });
    assert!(
        screen.contains("alpha") && screen.contains("delta"),
        "{screen}"
    );
    tmux.send_keys(&["1"]);
    let board = tmux.wait_for("board 1 full size", within, |s| {
        s.contains("Moves") && s.contains("a    b    c    d    e    f    g    h")
    });
    assert!(
        board.contains("mover:"),
        "its links on the status lines:\n{board}"
    );
    // The tournament's game number of all its 12 games (the board's core
    // plays a one-game match: it said "Game 1 of 1").
    assert!(
        board.contains(" of 12") && !board.contains("Game 1 of 1 "),
        "the game's number in the tournament:\n{board}"
    );
    tmux.send_keys(&["Escape"]);
    tmux.wait_for("the overview again", within, |s| s.contains("Standings"));
    tmux.send_keys(&["q"]);
    tmux.wait_for("the question", within, |s| {
        s.contains("quit the tournament?")
    });
    tmux.send_keys(&["y"]);
    let code = tmux.wait_for_file(&status, within);
    assert_eq!(code.trim(), "3", "a stopped tournament exits 3");
    let after = tmux.wait_for("the shell line", within, |s| s.contains("argus-test-done"));
    assert!(!tmux.alternate_screen(), "{after}");
    assert!(
        after.contains("the supervisor stopped the tournament") && after.contains("Rank  Player"),
        "the standings after the view:\n{after}"
    );
}

/// A match of programs argus runs (`argus referee mover:a mover:b`) runs
/// on the director but looks as a match always has: its one board full
/// size whenever it has a game, with the match's score (not the board's
/// one-game match), its Event tag a match's; Esc shows the overview.
#[test]
fn a_match_on_one_board_shows_its_board_as_a_match_does() {
    skip_unless_tmux!();
    let cwd = temp_dir("argus-match-tui-");
    let dir = text(cwd.path());
    let status = cwd.path().join("status");
    let command = format!(
        "'{bin}' referee mover:alpha mover:beta=greedy --games 40 --tc 40/60 --max-moves 8 \
         --reset-delay 0.3 --conclude-delay 0.3 --log-dir '{dir}/logs' --pgn '{dir}/m.pgn'; \
         echo $? > '{status}'; echo argus-test-done; sleep 600",
        bin = text(&argus_bin()),
        status = text(&status),
    );
    let tmux = Tmux::start(110, 34, cwd.path(), &command);
    let within = Duration::from_secs(60);
    // Without a key: the board, and the match's score once games ended.
    let board = tmux.wait_for("the board in its third game", within, |s| {
        s.contains("a    b    c    d    e    f    g    h") && s.contains("Game 3 of 40")
    });
    assert!(!board.contains("Standings"), "{board}");
    // Two games decided: two points between them, not the board's 0 - 0.
    assert!(
        board.contains("Match  A ") && !board.contains("A 0 - 0 B"),
        "{board}"
    );
    tmux.send_keys(&["Escape"]);
    let overview = tmux.wait_for("the overview", within, |s| s.contains("Standings"));
    assert!(overview.contains("argus match:"), "{overview}");
    // It stays there (Esc stops following the board).
    std::thread::sleep(Duration::from_millis(1500));
    assert!(tmux.screen().contains("Standings"));
    tmux.send_keys(&["q"]);
    tmux.wait_for("the question", within, |s| s.contains("quit the match?"));
    tmux.send_keys(&["y"]);
    let code = tmux.wait_for_file(&status, within);
    assert_eq!(code.trim(), "3", "a stopped match exits 3");
    let pgn = std::fs::read_to_string(cwd.path().join("m.pgn")).unwrap();
    assert!(pgn.contains("[Event \"argus match\"]"), "{pgn}");
}

/// `argus watch tcp://...` follows a tournament's `--feed` (its own
/// journal and every game's, multiplexed) to the end: it says what the
/// referee says, and its copy directory holds the referee's journals byte
/// for byte, so the standings and games replayed from the copy are the
/// referee's.
#[test]
fn argus_watch_follows_a_tournament_from_its_feed() {
    let mut ev = Event::new();
    let feed = free_port().to_string();
    let copy = ev.path("copy");
    // The watcher first: it waits for the feed to come up.
    let mut watch = Proc::spawn(
        "watch",
        &argus_bin(),
        &[
            "watch".to_string(),
            format!("tcp://{feed}"),
            "--headless".to_string(),
            "--copy".to_string(),
            text(&copy),
        ],
    );
    ev.start(
        &four_movers(),
        &[
            "--tc",
            "60+1",
            "--max-moves",
            "40",
            "--boards",
            "2",
            "--feed",
            &feed,
        ],
        "waiting for the players",
    );
    assert_eq!(ev.finish(Duration::from_secs(240)), vec![0]);
    assert_eq!(
        watch.wait_exit(Duration::from_secs(60)),
        0,
        "{}",
        watch.describe()
    );
    // The watcher says what the referee says (results, rounds' standings,
    // the report), except what only the referee sees: its players signing
    // on, and its first line (the watcher's is its own).
    let told: Vec<String> = ev.argus.as_ref().unwrap().stdout_lines();
    let told: Vec<String> = told
        .into_iter()
        .skip(1)
        .filter(|l| !l.ends_with(" signed on"))
        .collect();
    // (The watcher also prints each move, which the referee does not.)
    let (moves, watched): (Vec<String>, Vec<String>) = watch
        .stdout_lines()
        .into_iter()
        .partition(|l| is_move_line(l));
    assert!(!moves.is_empty(), "{watched:#?}");
    assert!(
        watched[0].starts_with("watching argus tournament: 4 players, 6 games"),
        "{watched:#?}"
    );
    assert_eq!(watched[1..], told[..]);
    assert!(
        told.iter().any(|l| l == "Complete: all 6 games decided."),
        "{told:#?}"
    );
    // The copy is the referee's journals, byte for byte.
    let logs = ev.path("logs");
    let mut names = vec!["tournament.journal".to_string()];
    names.extend((1..=6).map(|n| format!("game-{n:03}/journal.log")));
    for name in &names {
        let (theirs, ours) = (
            std::fs::read(logs.join(name)).unwrap(),
            std::fs::read(copy.join(name)).unwrap_or_default(),
        );
        assert!(theirs.len() > 100, "{name}");
        assert!(
            theirs == ours,
            "the copy's {name} differs from the referee's"
        );
    }
    // Replayed from the copy: the referee's standings and games.
    let loaded = argus::tournament::journal::load(&copy.join("tournament.journal")).unwrap();
    assert!(loaded.tournament.is_over());
    let standings = argus::tournament::report::standings_text(&loaded.tournament);
    assert!(ev.report().contains(&standings), "{standings}");
    let pgn = ev.pgn();
    assert_eq!(check_pgn(&pgn).len(), 6);
    for n in 1..=6 {
        let mut ended = Vec::new();
        let path = copy.join(format!("game-{n:03}/journal.log"));
        let game = argus::journal::load_seeing(&path, &mut |e| {
            if let argus::referee::Event::GameOver(g) = e {
                ended.push(argus::record::pgn::write_pgn(&g.pgn));
            }
        })
        .unwrap();
        assert!(game.replay.core().is_over(), "game {n}");
        assert_eq!(ended.len(), 1, "game {n}");
        assert!(
            pgn.contains(&ended[0]),
            "game {n} from the copy:\n{}",
            ended[0]
        );
    }
}

#[test]
fn argus_watch_follows_a_tournament_from_its_journal() {
    let mut ev = Event::new();
    ev.start(
        &four_movers(),
        &["--tc", "60+1", "--max-moves", "40"],
        "waiting for the players",
    );
    let journal = text(&ev.path("logs").join("tournament.journal"));
    let mut watch = Proc::spawn(
        "watch",
        &argus_bin(),
        &["watch".to_string(), journal, "--headless".to_string()],
    );
    assert_eq!(ev.finish(Duration::from_secs(240)), vec![0]);
    assert_eq!(
        watch.wait_exit(Duration::from_secs(30)),
        0,
        "{}",
        watch.describe()
    );
    // The watcher says every result the referee said, in the same words.
    let results = |lines: Vec<String>| {
        let mut r: Vec<String> = lines
            .into_iter()
            .filter(|l| l.starts_with("game ") && l.contains("): "))
            .collect();
        r.sort();
        r
    };
    let told = results(ev.argus.as_ref().unwrap().stdout_lines());
    let watched = results(watch.stdout_lines());
    assert_eq!(told.len(), 6, "{told:#?}");
    assert_eq!(watched, told);
    let out = watch.stdout_lines().join("\n");
    assert!(out.contains("Complete: all 6 games decided."), "{out}");
    // And every move of every game, as the match's watcher prints it
    // (`game N: 12. Nf3`, by the game's number in the tournament).
    assert_moves_are_the_pgns(&watch.stdout_lines(), &ev.pgn());
    // So does a watcher that comes after the end (from each game's
    // journal).
    let journal = text(&ev.path("logs").join("tournament.journal"));
    let mut late = Proc::spawn(
        "late watch",
        &argus_bin(),
        &["watch".to_string(), journal, "--headless".to_string()],
    );
    assert_eq!(
        late.wait_exit(Duration::from_secs(30)),
        0,
        "{}",
        late.describe()
    );
    assert_moves_are_the_pgns(&late.stdout_lines(), &ev.pgn());
}

/// Each game's moves the watcher printed (`lines`), in order, are those
/// of a game in `pgn`, every game's.
fn assert_moves_are_the_pgns(lines: &[String], pgn: &str) {
    let mut printed: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for l in lines {
        if let Some((game, san)) = move_of(l) {
            printed.entry(game).or_default().push(san.to_string());
        }
    }
    let mut watched: Vec<Vec<String>> = printed.into_values().collect();
    let mut played: Vec<Vec<String>> = read_pgn_games(pgn)
        .unwrap()
        .into_iter()
        .map(|g| g.sans)
        .collect();
    watched.sort();
    played.sort();
    assert!(!played.is_empty());
    assert_eq!(watched, played, "the moves the watcher printed");
}

/// `argus resume` of a tournament that is over prints its report and
/// starts nothing: no player, no line in its journal.
#[test]
fn resuming_a_finished_tournament_prints_its_report_and_starts_nothing() {
    let mut ev = Event::new();
    ev.start(
        &four_movers()[..2],
        &["--max-moves", "10"],
        "waiting for the players",
    );
    assert_eq!(ev.finish(Duration::from_secs(120)), vec![0]);
    let journal = ev.path("logs").join("tournament.journal");
    let before = std::fs::read(&journal).unwrap();
    let mut resumed = Proc::spawn(
        "resume",
        &argus_bin(),
        &[
            "resume".to_string(),
            text(&journal),
            "--headless".to_string(),
        ],
    );
    assert_eq!(
        resumed.wait_exit(Duration::from_secs(30)),
        0,
        "{}",
        resumed.describe()
    );
    let out = resumed.stdout_lines().join("\n");
    assert!(
        out.contains("is already over: nothing to carry on"),
        "{out}"
    );
    assert!(out.contains("Complete: all 1 games decided."), "{out}");
    assert!(!out.contains("waiting for the players"), "{out}");
    assert_eq!(
        std::fs::read(&journal).unwrap(),
        before,
        "the journal changed"
    );
}

/// `argus referee` between two engines argus runs is a tournament of two:
/// `--boards 4` plays four games at once, each engine started once per
/// board, and `--sprt` stops the match when it decides (here a depth-6
/// Stockfish against a depth-1 one at skill 0: H1 comes long before game
/// 40). Every
/// game of the PGN is legal, and the statistics are the PGN's results.
#[test]
fn a_two_engine_match_on_four_boards_stops_when_the_sprt_decides() {
    let Some(sf) = crate::common::tool::stockfish() else {
        return;
    };
    let dir = temp_dir("argus-match-boards-");
    let path = |f: &str| text(&dir.path().join(f));
    let args: Vec<String> = [
        "referee",
        &format!("engine:strong={sf}"),
        &format!("engine:weak={sf}"),
        "--boards",
        "4",
        "--games",
        "40",
        "--sprt",
        "elo0=0 elo1=200 model=logistic",
        "--tc",
        "60+1",
        "--depth",
        "strong:6",
        "--depth",
        "weak:1",
        "--engine-option",
        "strong:Hash=16",
        "--engine-option",
        "weak:Hash=16",
        // Skill 0 plays with randomness of its own: the pairs differ.
        "--engine-option",
        "weak:Skill Level=0",
        "--headless",
        "--log-dir",
        &path("logs"),
        "--pgn",
        &path("games.pgn"),
        "--results-json",
        &path("results.json"),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut p = crate::common::process::Proc::spawn("referee", &argus_bin(), &args);
    assert_eq!(p.wait_exit(Duration::from_secs(300)), 0, "{}", p.describe());
    let out = p.stdout_lines().join("\n");
    assert!(out.contains("SPRT: H1 accepted"), "{out}");
    // Said as a match is: each game's start on its board, and the end.
    assert!(out.contains("(Black) on board 4"), "{out}");
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("match over: strong ") && last.ends_with("; SPRT: H1 accepted"),
        "{out}"
    );
    let pgn = std::fs::read_to_string(dir.path().join("games.pgn")).unwrap();
    let games = check_pgn(&pgn);
    assert!(
        games.len() >= 4 && games.len() < 40,
        "stopped by the SPRT: {} games\n{out}",
        games.len()
    );
    // Four instances of each engine, each with its own log.
    for name in ["strong", "weak"] {
        for log in [format!("engine-{name}.log"), format!("engine-{name}.4.log")] {
            assert!(dir.path().join("logs").join(&log).is_file(), "{log}");
        }
    }
    // The statistics are the PGN's results, from the first player's view.
    let (mut w, mut d, mut l) = (0, 0, 0);
    for (white, _, result, _) in &games {
        match (result.as_str(), white == "strong") {
            ("1/2-1/2", _) => d += 1,
            ("1-0", true) | ("0-1", false) => w += 1,
            _ => l += 1,
        }
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("results.json")).unwrap())
            .unwrap();
    // A match's results file: the first player's figures at the top.
    assert!(json.get("pairings").is_none(), "{json:#}");
    assert_eq!(
        (
            json["wins"].as_u64(),
            json["draws"].as_u64(),
            json["losses"].as_u64()
        ),
        (Some(w), Some(d), Some(l)),
        "{json:#}"
    );
    assert_eq!(json["sprt_result"], "H1", "{json:#}");
}

/// A `tcp:NAME` player may connect once per board: two connections of
/// each of two players play two games at once, each connection on its own
/// board, and every connection is sent away at the end.
#[test]
fn two_tcp_instances_of_each_player_play_on_two_boards() {
    let addr = free_port();
    let mut ev = Event::new();
    let players = vec!["tcp:alpha".to_string(), "tcp:beta".to_string()];
    let listen = addr.to_string();
    ev.start(
        &players,
        &[
            "--listen",
            &listen,
            "--games-per-pairing",
            "6",
            "--boards",
            "2",
            "--max-moves",
            "30",
            "--tc",
            "60+1",
        ],
        "listening on",
    );
    let url = format!("tcp://{addr}");
    for (name, seed) in [("alpha", "1"), ("beta", "2"), ("alpha", "3"), ("beta", "4")] {
        ev.client(&url, name, &["--seed", seed]);
    }
    let codes = ev.finish(Duration::from_secs(240));
    assert_eq!(codes, vec![0; 5], "every program ends normally");
    let log = ev.log();
    for want in [
        "alpha #2 signed on",
        "beta #2 signed on",
        "starts on board 2",
    ] {
        assert!(log.contains(want), "{want}\n{log}");
    }
    let pgn = ev.pgn();
    let games = check_pgn(&pgn);
    assert_eq!(games.len(), 6, "{pgn}");
    assert_eq!(report_points(&ev.report()), pgn_points(&pgn));
}

/// A PGN file that can be written at the start but not when the first
/// game ends (its place taken by a directory while the TCP player is not
/// there yet): the game is kept in the log, the tournament goes on, and
/// the exit status is 1, saying why.
#[test]
fn a_pgn_file_that_fails_later_ends_the_tournament_with_status_1() {
    let dir = temp_dir("argus-tournament-");
    let addr = free_port().to_string();
    let pgn = dir.path().join("games.pgn");
    let logs = dir.path().join("logs");
    let args: Vec<String> = [
        "tournament",
        "mover:a",
        "tcp:b",
        "--listen",
        &addr,
        "--headless",
        "--tc",
        "5+0",
        "--max-moves",
        "4",
        "--pgn",
        &text(&pgn),
        "--log-dir",
        &text(&logs),
    ]
    .map(String::from)
    .to_vec();
    let mut t = Proc::spawn("tournament", &argus_bin(), &args);
    t.wait_stdout(Duration::from_secs(30), "the tournament's start", |l| {
        l.contains("waiting for the players to sign on")
    });
    std::fs::create_dir(&pgn).expect("a directory in the PGN's place");
    let client = [
        "client".to_string(),
        format!("tcp://{addr}"),
        "--name".into(),
        "b".into(),
    ];
    let mut b = Proc::spawn("client b", &argus_bin(), &client);
    assert_eq!(t.wait_exit(Duration::from_secs(120)), 1, "the exit status");
    let err = t.stderr_text();
    assert!(
        err.contains("argus tournament: game 1: cannot write the PGN file")
            && err.contains("Is a directory"),
        "{err}"
    );
    b.kill();
}

/// `--pgn-min`: the PGN has the Seven Tag Roster, the moves and the result,
/// and no comment or clock annotation; the games still read and replay.
#[test]
fn pgn_min_writes_tags_moves_and_results_only() {
    let mut ev = Event::new();
    ev.start(
        &four_movers(),
        &["--tc", "60+1", "--max-moves", "30", "--pgn-min"],
        "waiting for the players",
    );
    assert_eq!(ev.finish(Duration::from_secs(120)), vec![0]);
    let pgn = ev.pgn();
    let games = check_pgn(&pgn);
    assert_eq!(games.len(), 6, "{pgn}");
    assert!(!pgn.contains('{') && !pgn.contains("%clk"), "{pgn}");
    for g in read_pgn_games(&pgn).expect("the PGN reads") {
        let names: Vec<&str> = g.tags.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["Event", "Site", "Date", "Round", "White", "Black", "Result"],
            "{pgn}"
        );
        assert!(!g.sans.is_empty(), "{pgn}");
    }
}

/// `--epd-out FILE`: one EPD line per finished game, the final position of
/// that game as its PGN's moves give it, with its move counters.
#[test]
fn epd_out_appends_each_games_final_position() {
    use argus::epd::Record;
    use argus::game::{fields_of, parse_san};
    use shakmaty::{Chess, Position};
    let mut ev = Event::new();
    let epd = ev.path("final.epd");
    ev.start(
        &four_movers(),
        &[
            "--tc",
            "60+1",
            "--max-moves",
            "30",
            "--epd-out",
            &text(&epd),
        ],
        "waiting for the players",
    );
    assert_eq!(ev.finish(Duration::from_secs(120)), vec![0]);
    let pgn = ev.pgn();
    let games = read_pgn_games(&pgn).expect("the PGN reads");
    let lines: Vec<String> = text_lines(&epd);
    assert_eq!(lines.len(), games.len(), "{lines:?}");
    assert_eq!(games.len(), 6, "{pgn}");
    // Boards finish in any order: each game's final position is one line,
    // compared as a whole FEN.
    let fen = |f: &argus::epd::Fields, half: String, full: String| {
        format!(
            "{} {} {} {} {half} {full}",
            f.placement, f.side, f.castling, f.en_passant
        )
    };
    let mut wanted: Vec<String> = games
        .iter()
        .map(|g| {
            let mut pos = Chess::default();
            for san in &g.sans {
                let m = parse_san(&pos, san).expect("the PGN's move is legal");
                pos.play_unchecked(m);
            }
            fen(
                &fields_of(&pos),
                pos.halfmoves().to_string(),
                pos.fullmoves().to_string(),
            )
        })
        .collect();
    let mut got: Vec<String> = lines
        .iter()
        .map(|l| {
            let r = Record::parse(l).unwrap_or_else(|e| panic!("{l:?}: {e:?}"));
            let count = |op: &str| {
                r.op(op)
                    .and_then(|o| o.operands.first())
                    .unwrap_or_else(|| panic!("no {op} in {l:?}"))
                    .text()
                    .to_string()
            };
            fen(&r.fields, count("hmvc"), count("fmvn"))
        })
        .collect();
    wanted.sort();
    got.sort();
    assert_eq!(got, wanted);
}

fn text_lines(p: &Path) -> Vec<String> {
    std::fs::read_to_string(p)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// `--rating-interval 2` in a tournament of two movers' four games: the
/// standings and ratings after games 2 and 4, not after 1 or 3.
#[test]
fn a_rating_interval_says_the_standings_every_n_games() {
    let mut ev = Event::new();
    let players: Vec<String> = ["a", "b=greedy"]
        .iter()
        .map(|p| format!("mover:{p}"))
        .collect();
    ev.start(
        &players,
        &[
            "--games-per-pairing",
            "4",
            "--max-moves",
            "10",
            "--rating-interval",
            "2",
        ],
        "waiting for the players",
    );
    assert_eq!(ev.finish(Duration::from_secs(120)), vec![0]);
    let log = ev.log();
    for n in [2, 4] {
        let said = format!("after {n} games; standings:");
        assert_eq!(log.matches(&said).count(), 1, "{said}\n{log}");
    }
    assert!(!log.contains("after 1 game;"), "{log}");
    assert!(!log.contains("after 3 games;"), "{log}");
    assert!(log.contains("against the field:"), "{log}");
}

/// A knockout of six movers (`--schedule knockout`), every game drawn
/// (`--max-moves 1`): seeds 1 and 2 have byes, every match is level and
/// goes through its three tie-break sets at the tie-break's control to the
/// decisive game, which the higher seed, with Black, wins by its draw.
/// Killed in the middle and resumed: every game of the bracket once.
#[test]
fn a_knockout_of_six_movers_goes_through_tie_breaks_to_the_decisive_games() {
    let mut ev = Event::new();
    let players: Vec<String> = ["a", "b", "c", "d", "e", "f"]
        .iter()
        .map(|p| format!("mover:{p}"))
        .collect();
    let json = text(&ev.path("results.json"));
    ev.start(
        &players,
        &[
            "--schedule",
            "knockout",
            "--games-per-pairing",
            "2",
            "--knockout-tiebreak",
            // The decisive game with time odds: White (the lower seed)
            // twice Black's time.
            "2@1+0.01,armageddon=2+0.01/1+0.01",
            // c is seed 1; the others, unrated, by name: a b d e f.
            "--rating",
            "c:2500",
            "--tc",
            "60+1",
            "--max-moves",
            "1",
            "--boards",
            "2",
            "--results-json",
            &json,
        ],
        "waiting for the players",
    );
    // 5 matches of 2 + 3 x 2 + 1 games.
    let games = 45;
    let deadline = Instant::now() + Duration::from_secs(120);
    while read_pgn_games(&ev.pgn()).map_or(0, |g| g.len()) < 12 {
        assert!(Instant::now() < deadline, "12 games were not played");
        std::thread::sleep(Duration::from_millis(5));
    }
    ev.kill();
    let out = ev.resume(Duration::from_secs(240));
    assert!(out.contains("resuming the tournament from"), "{out}");
    let pgn = ev.pgn();
    let played = check_pgn(&pgn);
    assert_eq!(
        played.len(),
        games,
        "every game of the bracket once:\n{pgn}"
    );
    let parsed = read_pgn_games(&pgn).unwrap();
    let tag = |g: &argus::record::pgn_read::PgnText, k: &str| {
        g.tags
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let mut rounds: Vec<String> = parsed.iter().map(|g| tag(g, "Round")).collect();
    rounds.sort_unstable();
    rounds.dedup();
    assert_eq!(rounds.len(), games, "each game once: {rounds:?}");
    // Two regular games a match at 60+1, six tie-break games at 1+0.01,
    // and the decisive game with its odds: White 2+0.01, Black 1+0.01.
    let fast = parsed
        .iter()
        .filter(|g| tag(g, "TimeControl") == "1+0.01")
        .count();
    let slow = parsed
        .iter()
        .filter(|g| tag(g, "TimeControl") == "60+1")
        .count();
    assert_eq!((slow, fast), (10, 30), "{pgn}");
    let odds: Vec<_> = parsed
        .iter()
        .filter(|g| !tag(g, "WhiteTimeControl").is_empty())
        .collect();
    assert_eq!(odds.len(), 5, "the 5 decisive games:\n{pgn}");
    for g in odds {
        assert_eq!(
            (
                tag(g, "WhiteTimeControl"),
                tag(g, "BlackTimeControl"),
                tag(g, "TimeControl")
            ),
            ("2+0.01".into(), "1+0.01".into(), "2+0.01".into()),
            "{pgn}"
        );
    }
    let report = ev.report();
    for line in [
        "Knockout (a bracket seeded by rating, then name), 6 players, 2 games a match, 2 byes",
        "c (1)        bye",
        "d (4)        e (5)",
        "Winner: c.",
        "one decisive game at 2+0.01 for White and 1+0.01 for Black",
        "its tie-break games and decisive game decide the match",
    ] {
        assert!(report.contains(line), "{line:?} in\n{report}");
    }
    // Every match played decided by the decisive game, the higher seed
    // (Black) going on with its draw.
    assert_eq!(report.matches("armageddon ½-½").count(), 5, "{report}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(ev.path("results.json")).unwrap()).unwrap();
    let k = &v["knockout"];
    assert_eq!(k["winner"], "c", "{k:#}");
    assert_eq!(k["rounds"][0]["matches"][0]["decided_by"], "bye");
    let final_ = &k["rounds"][2]["matches"][0];
    assert_eq!(final_["decided_by"], "armageddon", "{k:#}");
    let decisive = final_["games"].as_array().unwrap().last().unwrap();
    assert_eq!(
        (&decisive["white"], &decisive["black"]),
        (&"a".into(), &"c".into())
    );
    assert_eq!(decisive["halves"], serde_json::json!([1, 1]));
}

/// The supervisor withdraws a player from a running Swiss event in the
/// board view (x, the arrows, Enter, then y), while its round-1 game is
/// still starting (an 8 s reset delay): the overview lists the round's
/// pairings and bye and then the next round's, where the player does not
/// play; its game, once under way, is adjudicated lost; the journal has
/// the withdrawal, the report and the TRF show it, and the TRF, with its
/// header records, passes `argus swiss check`.
#[test]
fn the_supervisor_withdraws_a_player_from_a_swiss_in_the_board_view() {
    skip_unless_tmux!();
    let cwd = temp_dir("argus-tournament-withdraw-");
    let dir = text(cwd.path());
    let status = cwd.path().join("status");
    let command = format!(
        "'{bin}' tournament mover:a mover:b mover:c mover:d mover:e --schedule swiss \
         --rounds 3 --boards 2 --tc 60+1 --max-moves 40 --reset-delay 8 --conclude-delay 0.2 \
         --log-dir '{dir}/logs' --pgn '{dir}/games.pgn' --report '{dir}/report.txt' \
         --trf '{dir}/event.trf'; echo $? > '{status}'; echo argus-test-done; sleep 600",
        bin = text(&argus_bin()),
        status = text(&status),
    );
    let tmux = Tmux::start(120, 40, cwd.path(), &command);
    let within = Duration::from_secs(60);
    // By name: a, b, c, d, e; e (the lowest) has the pairing bye.
    let screen = tmux.wait_for("round 1 with its games on the boards", within, |s| {
        s.contains("round 1 of 3")
            && s.contains("1. a - c  playing on board")
            && s.contains("2. d - b  playing on board")
            && s.contains("e has the bye (1 point)")
    });
    assert!(screen.contains("x withdraw a player"), "{screen}");
    tmux.send_keys(&["x"]);
    tmux.wait_for("whom", within, |s| s.contains("withdraw whom? a (1 of 5)"));
    tmux.send_keys(&["Right"]);
    tmux.wait_for("the next one", within, |s| {
        s.contains("withdraw whom? b (2 of 5)")
    });
    tmux.send_keys(&["Left"]);
    tmux.wait_for("back", within, |s| s.contains("withdraw whom? a (1 of 5)"));
    tmux.send_keys(&["Enter"]);
    tmux.wait_for("the question", within, |s| {
        s.contains("withdraw a? It loses")
    });
    tmux.send_keys(&["y"]);
    tmux.wait_for("the withdrawal said", within, |s| {
        s.contains("a is withdrawn by the supervisor in round 1")
    });
    tmux.wait_for("round 2 without a", within, |s| {
        s.contains("round 2 of 3") && s.contains("a does not play (0 points)")
    });
    let code = tmux.wait_for_file(&status, Duration::from_secs(120));
    assert_eq!(code.trim(), "0", "{}", tmux.screen());

    let read = |name: &str| std::fs::read_to_string(cwd.path().join(name)).unwrap();
    let journal = read("logs/tournament.journal");
    assert_eq!(
        journal
            .lines()
            .filter(|l| l.contains(" withdraw 0 "))
            .count(),
        1,
        "{journal}"
    );
    let report = read("report.txt");
    assert!(
        report.contains("Withdrawn, paired no more: a (by the supervisor in round 1)"),
        "{report}"
    );
    // Its one game: begun, so played and lost (adjudicated), not forfeited.
    let pgn = read("games.pgn");
    let games = read_pgn_games(&pgn).unwrap();
    let theirs: Vec<_> = games
        .iter()
        .filter(|g| g.tag("White") == Some("a") || g.tag("Black") == Some("a"))
        .collect();
    assert_eq!(theirs.len(), 1, "{pgn}");
    assert_eq!(theirs[0].tag("Termination"), Some("adjudication"), "{pgn}");
    assert_eq!(theirs[0].tag("Result"), Some("0-1"), "a had White:\n{pgn}");
    assert_eq!(games.len(), 6, "2 games a round:\n{pgn}");
    let trf = read("event.trf");
    let line = trf.lines().find(|l| l.starts_with("001    1")).unwrap();
    assert!(
        line.contains(" a ") && line.matches("0000 - Z").count() == 2,
        "{trf}"
    );
    for record in [
        "062 5",
        "072 0",
        "142 3",
        "XXR 3",
        "122 60 s + 1 s per move",
    ] {
        assert!(trf.lines().any(|l| l == record), "{record}:\n{trf}");
    }
    assert!(trf.lines().any(|l| l.starts_with("042 20")), "{trf}");
    assert!(trf.lines().any(|l| l.starts_with("052 20")), "{trf}");
    let mut check = Proc::spawn(
        "swiss check",
        &argus_bin(),
        &[
            "swiss".to_string(),
            "check".to_string(),
            text(&cwd.path().join("event.trf")),
        ],
    );
    assert_eq!(
        check.wait_exit(Duration::from_secs(60)),
        0,
        "{}\n{trf}",
        check.describe()
    );
}

/// The match's output flags on a tournament of two on two boards:
/// `--no-swap` (the first player White in every game), `--cbf` (every game
/// in the ChessBase base, read back with `argus cbf to-pgn`) and
/// `--live-pgn` (at the end, each board's last game with its result).
#[test]
fn a_two_board_match_keeps_colours_and_writes_its_base_and_live_pgn() {
    let mut ev = Event::new();
    let base = ev.path("match");
    let live = ev.path("live.pgn");
    ev.start(
        &["mover:a".to_string(), "mover:b=greedy".to_string()],
        &[
            "--games-per-pairing",
            "4",
            "--boards",
            "2",
            "--no-swap",
            "--tc",
            "60+1",
            "--max-moves",
            "30",
            "--cbf",
            &text(&base),
            "--live-pgn",
            &text(&live),
        ],
        "waiting for the players",
    );
    assert_eq!(ev.finish(Duration::from_secs(120)), vec![0]);
    let pgn = ev.pgn();
    let games = read_pgn_games(&pgn).expect("the PGN reads");
    assert_eq!(games.len(), 4, "{pgn}");
    let tag = |g: &argus::record::pgn_read::PgnText, name: &str| {
        g.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    for g in &games {
        assert_eq!(
            (tag(g, "White"), tag(g, "Black")),
            ("a".into(), "b".into()),
            "{pgn}"
        );
    }
    let mut moves: Vec<Vec<String>> = games.iter().map(|g| g.sans.clone()).collect();
    moves.sort();

    let back = ev.path("back.pgn");
    let out = std::process::Command::new(argus_bin())
        .args(["cbf", "to-pgn", &text(&base), &text(&back)])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let from_base = read_pgn_games(&std::fs::read_to_string(&back).unwrap()).unwrap();
    let mut base_moves: Vec<Vec<String>> = from_base.iter().map(|g| g.sans.clone()).collect();
    base_moves.sort();
    assert_eq!(base_moves, moves, "the base holds every game");

    let live_text = std::fs::read_to_string(&live).expect("the live PGN is written");
    let on_boards = read_pgn_games(&live_text).expect("the live PGN reads");
    assert_eq!(on_boards.len(), 2, "a game per board:\n{live_text}");
    for g in &on_boards {
        assert_ne!(tag(g, "Result"), "*", "each with its result:\n{live_text}");
        assert!(moves.contains(&g.sans), "one of the games:\n{live_text}");
    }
    assert_ne!(on_boards[0].sans, on_boards[1].sans, "{live_text}");
}

/// A match's TCP endpoints as tournament players: argus connects out to
/// one (`tcp://`, here `argus wire` listening, carrying the line on to a
/// cable where the client sits) and listens for the other on an address
/// of its own (`tcp-listen://`). Each is one program.
#[test]
fn tcp_endpoints_a_match_takes_are_tournament_players() {
    skip_unless_socat!();
    let cable = Cable::new();
    let wire_addr = free_port();
    let mut wire = crate::common::wire_to_cable(wire_addr, cable.a_str());
    let listen = free_port();
    let mut ev = Event::new();
    let out = format!("tcp://{wire_addr}");
    let in_ = format!("tcp-listen://{listen}");
    ev.start(
        &[out.clone(), in_.clone()],
        &[
            "--games-per-pairing",
            "2",
            "--max-moves",
            "30",
            "--tc",
            "60+1",
        ],
        "waiting for the players",
    );
    ev.client(cable.b_str(), "behind-the-wire", &["--seed", "1"]);
    ev.client(&format!("tcp://{listen}"), "over-ip", &["--seed", "2"]);
    assert_eq!(ev.finish(Duration::from_secs(120)), vec![0, 0, 0]);
    let pgn = ev.pgn();
    let games = check_pgn(&pgn);
    assert_eq!(games.len(), 2, "{pgn}");
    // Each is called by the name its program signed on with, not by
    // where it is.
    let pairs: Vec<(String, String)> = games.iter().map(|g| (g.0.clone(), g.1.clone())).collect();
    let (a, b) = ("behind-the-wire".to_string(), "over-ip".to_string());
    assert_eq!(pairs, [(a.clone(), b.clone()), (b, a)], "{pgn}");
    let log = ev.log();
    assert!(
        log.contains(&format!("{out} signed on as behind-the-wire")),
        "{log}"
    );
    assert!(ev.report().contains("behind-the-wire"), "{}", ev.report());
    wire.kill();
}

/// The supervisor aborts a game in the board view: the game is played
/// again from the start in a directory of its own (`game-001-2`), the
/// aborted attempt's journal kept in `game-001`, and the event completes
/// with every game decided.
#[test]
fn a_game_aborted_by_the_supervisor_is_played_again_and_the_event_completes() {
    skip_unless_tmux!();
    let cwd = temp_dir("argus-tournament-abort-");
    let dir = text(cwd.path());
    let status = cwd.path().join("status");
    let addr = free_port();
    let command = format!(
        "'{bin}' tournament tcp:a tcp:b --listen {addr} --games-per-pairing 2 --tc 60+1 \
         --max-moves 20 --log-dir '{dir}/logs' --pgn '{dir}/games.pgn'; echo $? > '{status}'; \
         echo argus-test-done; sleep 600",
        bin = text(&argus_bin()),
        status = text(&status),
    );
    let tmux = Tmux::start(110, 34, cwd.path(), &command);
    let within = Duration::from_secs(60);
    tmux.wait_for("the overview", within, |s| s.contains("Standings"));
    let mut clients: Vec<Proc> = ["a", "b"]
        .iter()
        .map(|name| {
            let args: Vec<String> = [
                "client",
                &format!("tcp://{addr}"),
                "--name",
                name,
                "--think-ms",
                "150",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect();
            Proc::spawn(&format!("client {name}"), &argus_bin(), &args)
        })
        .collect();
    tmux.wait_for("game 1 on board 1", within, |s| s.contains("│1  game"));
    tmux.send_keys(&["1"]);
    tmux.wait_for("game 1 being played", within, |s| {
        s.contains("Moves") && s.contains("playing")
    });
    tmux.send_keys(&["a"]);
    tmux.wait_for("the question", within, |s| s.contains("Abort this game?"));
    tmux.send_keys(&["y"]);
    let code = tmux.wait_for_file(&status, Duration::from_secs(120));
    assert_eq!(code.trim(), "0", "{}", tmux.screen());
    for c in &mut clients {
        assert_eq!(c.wait_exit(Duration::from_secs(20)), 0, "{}", c.describe());
    }
    // The aborted attempt is in the PGN as a match writes one (`*`,
    // abandoned) if it had begun; each game has its result once.
    let pgn = std::fs::read_to_string(cwd.path().join("games.pgn")).unwrap();
    let games = read_pgn_games(&pgn).expect("the PGN reads");
    let decided: Vec<&str> = games
        .iter()
        .filter(|g| g.tag("Result") != Some("*"))
        .filter_map(|g| g.tag("Round"))
        .collect();
    assert_eq!(
        decided,
        ["1.1", "2.1"],
        "each game once, with a result:\n{pgn}"
    );
    for g in games.iter().filter(|g| g.tag("Result") == Some("*")) {
        assert_eq!(g.tag("Termination"), Some("abandoned"), "{pgn}");
    }
    assert!(games.len() <= 3, "{pgn}");
    let logs = cwd.path().join("logs");
    let first = std::fs::read_to_string(logs.join("game-001").join("journal.log")).unwrap();
    assert!(
        first.contains("abort"),
        "the aborted attempt is kept:\n{first}"
    );
    assert!(logs.join("game-001-2").join("journal.log").is_file());
    assert!(logs.join("game-002").join("journal.log").is_file());
}

/// A match between programs runs as a tournament, but its user typed
/// `argus referee`: a bad flag is said with the referee's usage, and
/// `--help` is the referee's help.
#[test]
fn a_match_of_programs_speaks_as_the_referee_on_bad_usage_and_help() {
    let run = |extra: &str| {
        std::process::Command::new(argus_bin())
            .args(["referee", "mover:a", "mover:b", extra])
            .output()
            .unwrap()
    };
    let out = run("--no-such-flag");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("unexpected argument '--no-such-flag'")
            && err.contains("Usage: argus referee"),
        "{err}"
    );
    assert!(
        !err.contains("tournament") && !err.contains("--as-match"),
        "{err}"
    );
    let out = run("--help");
    let help = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(help.starts_with("Referee a match"), "{help}");
}

/// A match between two cabled programs on the director (as `argus
/// referee PORT_A PORT_B` runs it: `--as-match`), killed after its first
/// game, its programs moved to two other cables, and resumed with `argus
/// resume JOURNAL PORT_A PORT_B`: it goes on on the new ports, the players
/// keep the names they signed on with, and every game is played once.
#[test]
fn a_match_between_cables_resumes_on_the_ports_given() {
    skip_unless_socat!();
    let first = [Cable::new(), Cable::new()];
    let mut ev = Event::new();
    ev.start(
        &[
            "--as-match".to_string(),
            first[0].a_str().to_string(),
            first[1].a_str().to_string(),
        ],
        &[
            "--games-per-pairing",
            "4",
            "--max-moves",
            "40",
            "--tc",
            "60+1",
        ],
        "waiting for A and B to sign on",
    );
    ev.client(
        first[0].b_str(),
        "alpha",
        &["--seed", "1", "--think-ms", "20"],
    );
    ev.client(
        first[1].b_str(),
        "beta",
        &["--seed", "2", "--think-ms", "20"],
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    while read_pgn_games(&ev.pgn()).map_or(0, |g| g.len()) < 1 {
        assert!(Instant::now() < deadline, "no game ended:\n{}", ev.log());
        std::thread::sleep(Duration::from_millis(10));
    }
    ev.kill();
    for c in &mut ev.clients {
        c.kill();
    }
    ev.clients.clear();
    let before = read_pgn_games(&ev.pgn()).map_or(0, |g| g.len());
    assert!(before < 4, "the kill came after the last game");
    // The programs on two other cables now.
    let second = [Cable::new(), Cable::new()];
    ev.client(second[0].b_str(), "alpha", &["--seed", "3"]);
    ev.client(second[1].b_str(), "beta", &["--seed", "4"]);
    let journal = text(&ev.path("logs").join("tournament.journal"));
    let mut resumed = Proc::spawn(
        "resume",
        &argus_bin(),
        &[
            "resume".to_string(),
            journal,
            second[0].a_str().to_string(),
            second[1].a_str().to_string(),
            "--headless".to_string(),
        ],
    );
    assert_eq!(
        resumed.wait_exit(Duration::from_secs(120)),
        0,
        "{}",
        resumed.describe()
    );
    let out = resumed.stdout_lines().join("\n");
    assert!(out.contains("match over: alpha "), "{out}");
    let games = check_pgn(&ev.pgn());
    assert_eq!(games.len(), 4, "every game once:\n{}", ev.pgn());
    for (w, b, _, _) in &games {
        assert!(
            [w.as_str(), b.as_str()] == ["alpha", "beta"]
                || [w.as_str(), b.as_str()] == ["beta", "alpha"],
            "{w} - {b}"
        );
    }
}

/// A match on the director, headless, prints its board's link and fault
/// lines as a match does (`B: link lost: ...`), beside the event's own.
#[test]
fn a_headless_match_says_a_clients_lost_link_as_a_match_does() {
    let (a, b) = (free_port(), free_port());
    let mut ev = Event::new();
    ev.start(
        &[
            "--as-match".to_string(),
            format!("tcp-listen://{a}"),
            format!("tcp-listen://{b}"),
        ],
        &["--games-per-pairing", "2", "--tc", "60+1"],
        "waiting for A and B to sign on",
    );
    ev.client(&format!("tcp://{a}"), "alpha", &["--think-ms", "100"]);
    ev.client(&format!("tcp://{b}"), "beta", &["--think-ms", "100"]);
    let deadline = Instant::now() + Duration::from_secs(60);
    while !ev.log().contains("game 1: alpha (White) vs beta (Black)") {
        assert!(Instant::now() < deadline, "no game began:\n{}", ev.log());
        std::thread::sleep(Duration::from_millis(20));
    }
    ev.clients[1].kill();
    let argus = ev.argus.as_mut().expect("started");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let out = argus.stdout_lines().join("\n");
        if out.contains("B: link lost") {
            break;
        }
        assert!(Instant::now() < deadline, "no link line:\n{out}");
        std::thread::sleep(Duration::from_millis(20));
    }
    ev.kill();
}

/// `argus watch` of a match's journal (a match of programs, run on the
/// director) says it as the referee did: a match's words, its end the
/// last line, no tournament report.
#[test]
fn argus_watch_says_a_matchs_journal_as_a_match() {
    let dir = temp_dir("argus-match-watch-");
    let logs = text(&dir.path().join("logs"));
    let run = |args: &[&str]| {
        let out = std::process::Command::new(argus_bin())
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let referee = run(&[
        "referee",
        "mover:alpha",
        "mover:beta=greedy",
        "--games",
        "2",
        "--max-moves",
        "20",
        "--tc",
        "60+1",
        "--headless",
        "--log-dir",
        &logs,
    ]);
    let journal = text(&dir.path().join("logs").join("tournament.journal"));
    let watched = run(&["watch", &journal, "--headless"]);
    for out in [&referee, &watched] {
        let last = out.lines().last().unwrap_or_default();
        assert!(last.starts_with("match over: alpha "), "{out}");
        assert!(
            out.contains("game 2: beta (White) vs alpha (Black)"),
            "{out}"
        );
        assert!(!out.contains("tournament report"), "{out}");
    }
    assert!(
        watched.starts_with("watching argus match: a match of 2 games"),
        "{watched}"
    );
}

/// `argus watch` of a played match's journal on the board view says the
/// match's score once the board is gone, as the referee's board view does
/// (headless, the watcher's last line says it).
#[test]
fn argus_watch_on_the_board_says_a_played_matchs_score_after_the_board() {
    skip_unless_tmux!();
    let dir = temp_dir("argus-match-watch-board-");
    let logs = dir.path().join("logs");
    mover_match(
        &logs,
        &["--games", "2", "--max-moves", "20", "--tc", "60+1"],
    );
    let journal = text(&logs.join("tournament.journal"));
    let bin = text(&argus_bin());
    for p in [&journal, &bin] {
        assert!(!p.contains('\''), "path with a quote: {p}");
    }
    let command = format!("'{bin}' watch '{journal}'; echo argus-test-done; sleep 600");
    let t = Tmux::start(100, 30, dir.path(), &command);
    let screen = t.wait_for("the watcher's end", Duration::from_secs(30), |s| {
        s.contains("argus-test-done")
    });
    assert!(
        screen.contains("match over: alpha ") && screen.contains("stats for alpha: 2 games"),
        "no score after the board:\n{screen}"
    );
}

/// Plays `argus referee mover:alpha mover:beta=greedy EXTRA --headless
/// --log-dir LOGS` to its end, which must be a normal one (exit 0).
fn mover_match(logs: &Path, extra: &[&str]) -> std::process::Output {
    let out = std::process::Command::new(argus_bin())
        .args(["referee", "mover:alpha", "mover:beta=greedy"])
        .args(extra)
        .args(["--headless", "--log-dir", &text(logs)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    out
}

/// `--rating-interval 2` in a match of programs over five games: the
/// statistics line after games 2 and 4 and after the last (5), as a match
/// between ports says it, and no standings table (nor sign-on lines).
#[test]
fn a_matchs_rating_interval_says_its_statistics_every_n_games_and_at_the_end() {
    let dir = temp_dir("argus-match-interval-");
    let out = mover_match(
        &dir.path().join("logs"),
        &["--games", "5", "--max-moves", "8", "--rating-interval", "2"],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stats: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("stats for "))
        .collect();
    assert_eq!(stats.len(), 3, "{stdout}");
    for (line, games) in stats.iter().zip([2, 4, 5]) {
        assert!(
            line.contains(&format!(": {games} games, W-D-L")),
            "{stdout}"
        );
    }
    assert!(!stdout.contains("standings"), "{stdout}");
    // Sign-ons are the log's, not a match's stdout.
    assert!(!stdout.contains("signed on"), "{stdout}");
}

/// A match of programs reads `argus referee`'s config file: the [match]
/// table's games and names and the [output] table's files, each flag
/// winning over the file.
#[test]
fn a_match_of_programs_takes_its_config_files_match_and_output_tables() {
    let dir = temp_dir("argus-match-config-");
    let pgn = dir.path().join("from-config.pgn");
    let logs = dir.path().join("config-logs");
    let config = dir.path().join("argus.toml");
    std::fs::write(
        &config,
        format!(
            "[match]\ngames = 2\nevent = \"From the file\"\nsite = \"Config Site\"\n\
             name_a = \"file-a\"\nmax_moves = 8\n\n[output]\npgn = {:?}\nlog_dir = {:?}\n",
            text(&pgn),
            text(&logs)
        ),
    )
    .unwrap();
    let out = std::process::Command::new(argus_bin())
        .current_dir(dir.path())
        .args([
            "referee",
            "mover:alpha",
            "mover:beta=greedy",
            "--headless",
            "--config",
            &text(&config),
            "--event",
            "From the flag",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let games = read_pgn_games(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert_eq!(games.len(), 2, "games = 2 from the file");
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.tag("Event"), Some("From the flag"), "the flag wins");
        assert_eq!(g.tag("Site"), Some("Config Site"), "the file applies");
        let white = if i == 0 { "file-a" } else { "beta" };
        assert_eq!(g.tag("White"), Some(white), "game {}", i + 1);
    }
    assert!(
        logs.join("tournament.journal").is_file(),
        "the file's log_dir"
    );
    assert!(!dir.path().join("argus-logs").exists());
}

/// A match's transcripts name its clients `A` and `B` as its command line
/// does, whatever colour each plays: in game 2 (colours swapped) A's
/// lines are Black's, and the notes about a client name it by player too.
#[test]
fn a_matchs_transcripts_name_its_players_a_and_b_whatever_their_colour() {
    let dir = temp_dir("argus-match-sides-");
    let logs = dir.path().join("logs");
    mover_match(&logs, &["--games", "2", "--max-moves", "4"]);
    let event = std::fs::read_to_string(logs.join("transcript.log")).unwrap();
    let sign_on = |label: &str| {
        event
            .lines()
            .find(|l| l.contains(&format!(" {label} < ")) && l.contains("sign_on"))
            .unwrap_or_else(|| panic!("no sign-on of {label}: {event}"))
            .to_string()
    };
    assert!(sign_on("A").contains("\"alpha\""), "{event}");
    assert!(sign_on("B").contains("\"beta\""), "{event}");
    // Both signed on checking their lines (Acrc): the last record each
    // gets, the disconnect, is checked too.
    let farewells: Vec<&str> = event
        .lines()
        .filter(|l| l.contains("refcom disconnect"))
        .collect();
    assert_eq!(farewells.len(), 2, "{event}");
    for f in farewells {
        let line = f
            .split(" > ")
            .nth(1)
            .unwrap()
            .trim_end_matches("\\x0d\\x0a");
        assert!(
            matches!(
                argus::epd::line_check::verify(line),
                argus::epd::line_check::Checked::Valid(_)
            ),
            "{f}"
        );
    }
    let second = std::fs::read_to_string(logs.join("game-002/transcript.log")).unwrap();
    // The game is the match's second of two, not its board's one.
    assert!(
        second.contains("# game 2 of 2: beta (White) vs alpha (Black)"),
        "{second}"
    );
    assert!(second.contains("# A: alpha signed on"), "{second}");
    assert!(second.contains("# B: beta signed on"), "{second}");
    // A's replies in game 2 are Black's: each is about a position with
    // Black to move.
    let replies: Vec<&str> = second
        .lines()
        .filter(|l| l.contains(" A < ") && l.contains("refreq reply"))
        .collect();
    assert!(!replies.is_empty(), "{second}");
    for r in replies {
        let fields: Vec<&str> = r.split(" < ").nth(1).unwrap().split(' ').collect();
        assert_eq!(fields[1], "b", "a reply of A's is Black's in game 2: {r}");
    }
}

/// The board view of a tournament whose endpoints cannot be reached says
/// why in its latest lines, each endpoint once (the link says it now and
/// then, not at every attempt), not only the log.
#[test]
fn the_overview_says_why_an_endpoint_cannot_be_reached() {
    skip_unless_tmux!();
    let dir = temp_dir("argus-overview-refused-");
    let nobody = [free_port(), free_port()].map(|a| format!("tcp://{a}"));
    let command = format!(
        "'{}' tournament {} {} --log-dir '{}'",
        argus_bin().display(),
        nobody[0],
        nobody[1],
        dir.path().join("logs").display()
    );
    let tmux = Tmux::start(160, 40, dir.path(), &command);
    let screen = tmux.wait_for("both refusals", Duration::from_secs(30), |s| {
        nobody
            .iter()
            .all(|n| s.contains(&format!("{n}: cannot connect to ")))
    });
    for n in &nobody {
        assert_eq!(
            screen.matches(&format!("{n}: cannot connect")).count(),
            1,
            "{screen}"
        );
    }
}

/// A match's board view shows its board from the start, as a match
/// between ports always has: before its first game, the player who
/// signed on as such, the endpoint that cannot be reached as
/// UNREACHABLE; `q` `y` ends the match with its score.
#[test]
fn a_matchs_board_view_shows_its_board_before_the_first_game() {
    skip_unless_tmux!();
    let dir = temp_dir("argus-match-waiting-");
    let nobody = format!("tcp://{}", free_port());
    let command = format!(
        "'{}' referee mover:alpha {nobody} --log-dir '{}'; echo EXIT=$?; sleep 60",
        argus_bin().display(),
        dir.path().join("logs").display()
    );
    let tmux = Tmux::start(120, 40, dir.path(), &command);
    let screen = tmux.wait_for("the waiting board", Duration::from_secs(30), |s| {
        s.contains("UNREACHABLE") && s.contains("signed on, lines checked")
    });
    assert!(
        screen.contains("Waiting for the clients to sign on"),
        "{screen}"
    );
    assert!(screen.contains(&format!("B {nobody}")), "{screen}");
    assert!(!screen.contains("Standings"), "not the overview: {screen}");
    tmux.send_keys(&["q"]);
    tmux.send_keys(&["y"]);
    let screen = tmux.wait_for("the end", Duration::from_secs(30), |s| s.contains("EXIT="));
    assert!(
        screen.contains(&format!(
            "match over: alpha 0 - 0 {nobody} (0 games with a result)"
        )),
        "{screen}"
    );
    assert!(screen.contains("EXIT=3"), "{screen}");
}

/// Ctrl-C stops a match of programs as it stops a match between ports:
/// `Ctrl-C (SIGINT): ending the session`, the journals kept, the exit
/// status that of a match ended early (3).
#[test]
fn ctrl_c_ends_a_match_of_programs_in_a_matchs_words() {
    let dir = temp_dir("argus-match-ctrl-c-");
    let args: Vec<String> = [
        "referee",
        "mover:alpha",
        "mover:beta=greedy",
        "--games",
        "1000",
        "--tc",
        "60+1",
        "--headless",
        "--log-dir",
        &text(&dir.path().join("logs")),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut p = crate::common::process::Proc::spawn("referee", &argus_bin(), &args);
    p.wait_stdout(Duration::from_secs(30), "game 1's start", |l| {
        l.starts_with("game 1: ")
    });
    p.interrupt();
    p.wait_stdout(Duration::from_secs(30), "the Ctrl-C line", |l| {
        l.starts_with("Ctrl-C (SIGINT): ending the session; its journal (")
    });
    // Its last line is the score so far, as a match between ports says.
    p.wait_stdout(Duration::from_secs(30), "the match's end", |l| {
        l.starts_with("match over: alpha ")
            && l.contains(" beta (")
            && l.ends_with(" with a result)")
    });
    assert_eq!(p.wait_exit(Duration::from_secs(30)), 3, "{}", p.describe());
}

/// Players that connect out to where nothing listens: the event's
/// transcript says why each connection cannot be made (as a match's
/// transcript does), not only the log, and the referee keeps trying.
#[test]
fn a_refused_connection_is_in_the_events_transcript() {
    let dir = temp_dir("argus-refused-");
    let logs = dir.path().join("logs");
    let nobody = [free_port(), free_port()].map(|a| format!("tcp://{a}"));
    let args: Vec<String> = [
        "tournament",
        &nobody[0],
        &nobody[1],
        "--headless",
        "--log-dir",
        &text(&logs),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut p = crate::common::process::Proc::spawn("referee", &argus_bin(), &args);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let t = std::fs::read_to_string(logs.join("transcript.log")).unwrap_or_default();
        if nobody
            .iter()
            .all(|n| t.contains(&format!(": {n}: cannot connect to ")))
            && t.contains("connection refused")
        {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no refusal in the transcript:\n{t}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // The log says it once per endpoint, not named twice.
    let log = std::fs::read_to_string(logs.join("argus.log")).unwrap_or_default();
    for n in &nobody {
        assert!(log.contains(&format!("{n}: cannot connect to ")), "{log}");
        assert!(!log.contains(&format!("{n}: {n}: ")), "{log}");
    }
    assert!(p.running(), "the referee keeps trying");
    p.kill();
}

/// `argus referee mover:alpha mover:beta --journal KEPT/m.journal
/// --log-dir LOGS` (issue 31): the match's journal is at KEPT/m.journal
/// and each game's beside it (KEPT/game-NNN/), the transcripts and the log
/// in LOGS. SIGKILLed in the middle of a game, `argus resume
/// KEPT/m.journal` finishes the match with its two games, each once; a
/// watcher of the feed keeps the journals in its copy under the
/// tournament's names, and `argus watch KEPT/m.journal` prints every move
/// of both games from the journals beside it.
#[test]
fn a_matchs_journal_elsewhere_keeps_its_games_journals_beside_it_for_resume_and_watch() {
    let dir = temp_dir("argus-match-journal-");
    let (logs, kept) = (dir.path().join("logs"), dir.path().join("kept"));
    let (journal, pgn) = (kept.join("m.journal"), dir.path().join("games.pgn"));
    let (feed, copy) = (free_port().to_string(), dir.path().join("copy"));
    let mut watch = Proc::spawn(
        "feed watch",
        &argus_bin(),
        &[
            "watch".to_string(),
            format!("tcp://{feed}"),
            "--headless".to_string(),
            "--copy".to_string(),
            text(&copy),
        ],
    );
    let args: Vec<String> = [
        "referee",
        "mover:alpha",
        "mover:beta=greedy",
        "--games",
        "2",
        "--tc",
        "60+1",
        "--max-moves",
        "80",
        // Time for the feed's watcher (which tries every second) to
        // connect before each game, the resumed one's too.
        "--reset-delay",
        "2",
        "--headless",
        "--feed",
        &feed,
        "--journal",
        &text(&journal),
        "--log-dir",
        &text(&logs),
        "--pgn",
        &text(&pgn),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut referee = Proc::spawn("referee", &argus_bin(), &args);
    let games_in = |pgn: &Path| {
        std::fs::read_to_string(pgn)
            .ok()
            .and_then(|t| read_pgn_games(&t).ok())
            .map_or(0, |g| g.len())
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let mid_game = (1..=2).any(|n| {
            let j = kept.join(format!("game-{n:03}")).join("journal.log");
            std::fs::read_to_string(j).is_ok_and(|t| t.matches(" line ").count() > 20)
        });
        if mid_game {
            break;
        }
        assert!(referee.running(), "{}", referee.describe());
        assert!(Instant::now() < deadline, "no game began");
        std::thread::sleep(Duration::from_millis(2));
    }
    referee.kill();
    assert!(games_in(&pgn) < 2, "the kill came after the last game");
    // The journals at KEPT, the rest in LOGS.
    assert!(journal.is_file());
    assert!(kept.join("game-001/journal.log").is_file());
    for f in ["tournament.journal", "game-001/journal.log"] {
        assert!(!logs.join(f).exists(), "{f} in the log directory");
    }
    for f in ["argus.log", "transcript.log", "game-001/transcript.log"] {
        assert!(logs.join(f).is_file(), "no {f} in the log directory");
    }
    assert!(!kept.join("game-001/transcript.log").exists());

    let resumed = run_to_end("resume", &["resume", &text(&journal), "--headless"], 120);
    let out = resumed.stdout_lines().join("\n");
    assert!(out.contains("resuming the tournament from"), "{out}");
    let played = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(check_pgn(&played).len(), 2, "each game once:\n{played}");
    assert!(!logs.join("game-002/journal.log").exists());
    assert!(logs.join("game-002/transcript.log").is_file());

    // The feed's copy: the journals under the tournament's names.
    assert_eq!(
        watch.wait_exit(Duration::from_secs(60)),
        0,
        "{}",
        watch.describe()
    );
    let read = |p: PathBuf| std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    assert_eq!(read(copy.join("tournament.journal")), read(journal.clone()));
    for g in ["game-001/journal.log", "game-002/journal.log"] {
        assert_eq!(read(copy.join(g)), read(kept.join(g)), "{g}");
    }

    let watched = run_to_end("watch", &["watch", &text(&journal), "--headless"], 30).stdout_lines();
    assert!(
        watched
            .last()
            .is_some_and(|l| l.starts_with("match over: alpha ")),
        "{watched:#?}"
    );
    assert_moves_are_the_pgns(&watched, &played);
}

/// Runs argus with `args`, which must end normally (exit 0) within
/// `within_s` seconds.
fn run_to_end(name: &str, args: &[&str], within_s: u64) -> Proc {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let mut p = Proc::spawn(name, &argus_bin(), &args);
    assert_eq!(
        p.wait_exit(Duration::from_secs(within_s)),
        0,
        "{}",
        p.describe()
    );
    p
}

/// A gauntlet on two boards starts its first player twice (it meets
/// every other, two games at once) and each opponent once (it has one
/// game): argus starts no program that has no game to play.
#[test]
fn a_gauntlets_opponents_are_started_once_whatever_the_boards() {
    let dir = temp_dir("gauntlet");
    let args: Vec<String> = [
        "tournament",
        "mover:a",
        "mover:b",
        "mover:c",
        "mover:d",
        "--schedule",
        "gauntlet",
        "--boards",
        "2",
        "--tc",
        "60+1",
        "--max-moves",
        "40",
        "--headless",
        "--log-dir",
        &text(&dir.path().join("logs")),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut argus = Proc::spawn("gauntlet", &argus_bin(), &args);
    assert_eq!(
        argus.wait_exit(Duration::from_secs(120)),
        0,
        "{}",
        argus.describe()
    );
    let out = argus.stdout_lines();
    assert!(
        out.iter().any(|l| l == "a #2 signed on"),
        "the first player's second instance:\n{}",
        out.join("\n")
    );
    for p in ["b", "c", "d"] {
        assert!(
            !out.iter().any(|l| *l == format!("{p} #2 signed on")),
            "{p}, one game, was started twice:\n{}",
            out.join("\n")
        );
    }
}
