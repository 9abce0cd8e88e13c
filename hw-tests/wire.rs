//! `argus wire` between the referee and the reference clients: every line
//! goes referee <-> cable <-> wire <-> cable <-> client, paced at 9600 baud
//! 8N1 and, in some tests, damaged on the way (flipped bits, a pulled
//! cable). Needs socat (each test prints `SKIPPED: ...` without it).
//!
//! What is checked: the session ends normally; every PGN game replays; no
//! game contains a move that neither client played (each client prints
//! every reply it sends, `client: reply: ...`, before the line can damage
//! it; every PGN move must be one of them, in the same position); damage
//! the wire reports is either detected by the referee (a rejected or
//! dropped line, a resend, a fault) or harmless.
//!
//! The long noise experiment (50 games at a bit error rate of 1e-4) is the
//! ignored test `noise_experiment`, run by `scripts/noise.sh`; its short
//! version (2 games) runs with the others.

#![cfg(unix)]

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::Cable;
use crate::common::argus_bin;
use crate::common::process::Proc;
use argus::epd::{Fields, Record};
use argus::game::{self, Chess, Game};
use argus::record::pgn_read::{PgnText, read_pgn_games};

/// The clients' names (sent with `tcsi`).
const NAMES: [&str; 2] = ["alpha", "beta"];

/// How a session's lines are impaired (the options of `argus wire`).
#[derive(Debug, Clone, Default)]
struct Noise {
    bit_error_rate: f64,
    cut: Option<(f64, f64)>,
    /// The time control unless `ARGUS_NOISE_TC` says otherwise.
    tc: &'static str,
}

/// The time control of noisy sessions (`ARGUS_NOISE_TC`; 60 s sudden
/// death for the experiment, 15 s for the short tests). A record lost on
/// the line is asked for again after 2 s of silence (`--resend-after`); if
/// even that is lost for good, the clock ends the game and the match goes
/// on. The clients move at once and the line time is credited, so only
/// those 2 s stalls use the clock.
fn noisy_tc(default: &str) -> String {
    env_or("ARGUS_NOISE_TC", default.to_string())
}

/// What a session produced, for the checks and the report.
#[derive(Debug, Default)]
struct Outcome {
    games: Vec<PgnText>,
    /// Games whose Termination is `normal` (mate, draw, claim).
    normal: usize,
    /// Games lost on time (a stall after a lost record).
    time_forfeits: usize,
    /// Games lost by a rules infraction (a bad move with no retries left).
    infractions: usize,
    /// Lines the wires delivered damaged (or lost to a cut), all four
    /// directions.
    damaged_lines: u64,
    /// Lines the wires carried, all four directions.
    lines: u64,
    /// Bytes with flipped bits.
    corrupted_bytes: u64,
    /// Lines the referee rejected or dropped (all of the next three).
    rejected: usize,
    /// ... of them dropped by its framer (a byte outside printable ASCII).
    dropped: usize,
    /// ... of them refused for a wrong or missing line check (`Acrc`).
    check_failed: usize,
    /// Respond records the referee sent again: after a bad echo, a silence,
    /// a damaged line or an `Anak`.
    resends: usize,
    /// ... of them at once, after a damaged line or an `Anak`.
    resends_at_once: usize,
    /// `Anak` records the referee got (a client's "that arrived damaged").
    naks: usize,
    /// Clients asked again after an illegal or unparsable move.
    retries: usize,
    /// Faults and forfeits (`rules infraction`).
    faults: usize,
    /// Records the clients did not act on: dropped by their framer, failed
    /// line checks, lines that were not records.
    client_ignored: usize,
    /// ... of them for a wrong line check.
    client_check_failed: usize,
    /// Plies in all games, and the plies the clients did not play.
    plies: usize,
    foreign_moves: Vec<String>,
    secs: f64,
}

/// Four socat cables, two wires, the referee and two clients.
struct Session {
    dir: tempfile::TempDir,
    /// Referee side (index 0 = A, 1 = B) and client side cables.
    referee_cables: [Cable; 2],
    client_cables: [Cable; 2],
}

impl Session {
    fn new() -> Session {
        let dir = tempfile::Builder::new()
            .prefix("argus-wire-")
            .tempdir()
            .unwrap_or_else(|e| panic!("cannot make a temporary directory: {e}"));
        Session {
            dir,
            referee_cables: [Cable::new(), Cable::new()],
            client_cables: [Cable::new(), Cable::new()],
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Runs `games` games through two wires with `noise` and returns what
    /// happened; `within` bounds the whole session.
    fn run(&self, games: usize, noise: &Noise, seed: u64, within: Duration) -> Outcome {
        let started = Instant::now();
        let mut wires: Vec<Proc> = (0..2)
            .map(|i| {
                let mut args = vec![
                    "wire".to_string(),
                    self.referee_cables[i].b_str().to_string(),
                    self.client_cables[i].a_str().to_string(),
                    "--seed".to_string(),
                    (seed * 2 + i as u64).to_string(),
                    "--bit-error-rate".to_string(),
                    noise.bit_error_rate.to_string(),
                    "--log".to_string(),
                    path_arg(&self.path(&format!("wire-{i}.log"))),
                ];
                if let Some((at, len)) = noise.cut {
                    args.extend(["--cut-at".into(), at.to_string()]);
                    args.extend(["--cut-for".into(), len.to_string()]);
                }
                Proc::spawn(&format!("wire {i}"), &argus_bin(), &args)
            })
            .collect();
        for w in &mut wires {
            wait_until(w, "its ports open", |p| {
                p.stderr_text().contains("argus wire: ")
            });
        }
        let log_dir = self.path("logs");
        let pgn = self.path("games.pgn");
        let mut args = vec![
            "referee".to_string(),
            self.referee_cables[0].a_str().to_string(),
            self.referee_cables[1].a_str().to_string(),
            "--headless".into(),
            "--log-dir".into(),
            path_arg(&log_dir),
            "--pgn".into(),
            path_arg(&pgn),
            "--games".into(),
            games.to_string(),
            "--reset-delay".into(),
            "0.5".into(),
            "--conclude-delay".into(),
            "0.2".into(),
        ];
        args.extend(["--max-resends".into(), "5".into()]);
        if noise.bit_error_rate > 0.0 || noise.cut.is_some() {
            // A record lost on the line is asked for again after 2 s of
            // silence, a move damaged into an illegal one is asked for
            // again; the clock still ends a game that cannot recover.
            args.extend(["--tc".into(), noisy_tc(noise.tc)]);
            args.extend(["--resend-after".into(), "2".into()]);
            args.extend(["--illegal".into(), "retry".into()]);
        }
        let mut referee = Proc::spawn("referee", &argus_bin(), &args);
        wait_for_file(&log_dir.join("argus.log"), "referee session:", &mut referee);
        let mut clients: Vec<Proc> = (0..2)
            .map(|i| {
                let args = vec![
                    "client".to_string(),
                    self.client_cables[i].b_str().to_string(),
                    "--name".into(),
                    NAMES[i].into(),
                    "--seed".into(),
                    (seed * 10 + i as u64 + 1).to_string(),
                    "--mover".into(),
                    "greedy".into(),
                    // Every reply on stderr, compared with the PGN.
                    "-v".into(),
                ];
                Proc::spawn(&format!("client {i}"), &argus_bin(), &args)
            })
            .collect();
        let left = within.saturating_sub(started.elapsed());
        let code = referee.wait_exit(left);
        let show = |procs: &[&Proc]| {
            procs
                .iter()
                .map(|p| p.describe())
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(code, 0, "referee failed\n{}", show(&[&referee]));
        let noisy = noise.bit_error_rate > 0.0 || noise.cut.is_some();
        for c in &mut clients {
            if noisy {
                // Its `disconnect` may have been lost on the line.
                let deadline = Instant::now() + Duration::from_secs(5);
                while c.running() && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(50));
                }
                c.kill();
            } else {
                let code = c.wait_exit(Duration::from_secs(20));
                assert_eq!(code, 0, "client failed\n{}", c.describe());
            }
        }
        let mut out = Outcome::default();
        for w in &mut wires {
            w.interrupt();
            let code = w.wait_exit(Duration::from_secs(10));
            assert_eq!(code, 0, "wire failed\n{}", w.describe());
            for l in w.stdout_lines() {
                println!("{}: {l}", w.name());
                if let Some(s) = parse_wire_summary(&l) {
                    out.lines += s.0;
                    out.damaged_lines += s.1;
                    out.corrupted_bytes += s.2;
                }
            }
        }
        out.secs = started.elapsed().as_secs_f64();
        let text = std::fs::read_to_string(&pgn)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", pgn.display()));
        out.games = read_pgn_games(&text).unwrap_or_else(|e| panic!("{}: {e}", pgn.display()));
        let log = std::fs::read_to_string(log_dir.join("argus.log")).unwrap_or_default();
        count_detections(&log, &mut out);
        let replies = client_replies(&clients);
        for c in &clients {
            for l in c.stderr_text().lines() {
                if l.contains("ignored a") || l.contains("dropped a line") {
                    out.client_ignored += 1;
                }
                if l.contains("ignored a damaged record") {
                    out.client_check_failed += 1;
                }
            }
        }
        let games = std::mem::take(&mut out.games);
        for (k, g) in games.iter().enumerate() {
            match g.tag("Termination") {
                Some("normal") => out.normal += 1,
                Some("time forfeit") => out.time_forfeits += 1,
                Some("rules infraction") => out.infractions += 1,
                _ => {}
            }
            check_moves(k + 1, g, &replies, &mut out);
        }
        out.games = games;
        out
    }
}

impl Outcome {
    fn report(&self, what: &str) -> String {
        format!(
            "{what}: {} games ({} ended normally, {} on time, {} by a rules infraction), {} plies, \
             {} foreign moves; wire: {} lines, {} damaged, {} bytes corrupted; referee: {} lines \
             rejected or dropped ({} dropped, {} failed the line check), {} Anak, {} resends ({} at \
             once), {} bad moves \
             asked again, {} faults/forfeits; clients ignored {} records ({} failed the line \
             check); {:.0} s",
            self.games.len(),
            self.normal,
            self.time_forfeits,
            self.infractions,
            self.plies,
            self.foreign_moves.len(),
            self.lines,
            self.damaged_lines,
            self.corrupted_bytes,
            self.rejected,
            self.dropped,
            self.check_failed,
            self.naks,
            self.resends,
            self.resends_at_once,
            self.retries,
            self.faults,
            self.client_ignored,
            self.client_check_failed,
            self.secs
        )
    }
}

/// `(lines, damaged lines, corrupted bytes)` from a wire summary line.
fn parse_wire_summary(l: &str) -> Option<(u64, u64, u64)> {
    // "...: N bytes, N delivered, N corrupted (N bits flipped), N dropped,
    //  N lost to the cut; N lines, N of them damaged"
    let (head, tail) = l.split_once("; ")?;
    let mut t = tail.split_whitespace();
    let lines = t.next()?.parse().ok()?;
    let damaged = t.nth(1)?.parse().ok()?;
    let corrupted = head
        .split(", ")
        .find(|p| p.contains(" corrupted "))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some((lines, damaged, corrupted))
}

/// Counts what the referee's log says it detected.
fn count_detections(log: &str, out: &mut Outcome) {
    for l in log.lines() {
        if l.contains("(Anak)") {
            out.naks += 1;
        }
        if l.contains("resending the position") || l.contains("sending the respond again") {
            out.resends += 1;
        } else if l.contains("asking again after") || l.contains("asking again its record") {
            out.resends += 1;
            out.resends_at_once += 1;
        } else if l.contains("; asking again (") {
            out.retries += 1;
        } else if l.contains("rejected") || l.contains("line dropped") {
            out.rejected += 1;
            if l.contains("line dropped") {
                out.dropped += 1;
            } else if l.contains("damaged line") {
                out.check_failed += 1;
            }
        } else if l.contains("rules infraction") || l.contains("[ERROR]") {
            out.faults += 1;
        }
    }
}

/// Every reply the clients sent, as (position fields, canonical SAN).
fn client_replies(clients: &[Proc]) -> HashSet<(Fields, String)> {
    let mut set = HashSet::new();
    for c in clients {
        for l in c.stderr_text().lines() {
            let Some(text) = l.strip_prefix("client: reply: ") else {
                continue;
            };
            let r = Record::parse(text)
                .unwrap_or_else(|e| panic!("{}: a reply it sent does not parse: {e}", c.name()));
            let Ok(Some(sm)) = r.sm() else { continue };
            let pos = game::position_from_fields(&r.fields, None, None)
                .unwrap_or_else(|e| panic!("{}: reply in a bad position: {e}", c.name()));
            let m = game::parse_san(&pos, sm)
                .unwrap_or_else(|e| panic!("{}: sent an illegal move {sm}: {e}", c.name()));
            set.insert((four(&pos), game::san_of(&pos, &m)));
        }
    }
    set
}

/// The four fields compared (en passant as the core writes it).
fn four(pos: &Chess) -> Fields {
    game::fields_of(pos)
}

/// Replays game `n`; every move must be one a client sent in that position.
fn check_moves(n: usize, g: &PgnText, replies: &HashSet<(Fields, String)>, out: &mut Outcome) {
    assert!(g.tag("FEN").is_none(), "game {n}: no openings are used");
    let mut replayed = Game::new(Chess::default());
    for (i, san) in g.sans.iter().enumerate() {
        let key = (four(replayed.position()), san.clone());
        if !replies.contains(&key) {
            out.foreign_moves
                .push(format!("game {n} ply {}: {san} in {:?}", i + 1, key.0));
        }
        if let Err(e) = replayed.play_san(san) {
            panic!("game {n}: ply {} {san:?} is not legal: {e}", i + 1);
        }
        out.plies += 1;
    }
}

/// Waits (at most 20 s) until `ready` says yes; panics if `p` exits first.
fn wait_until(p: &mut Proc, what: &str, ready: impl Fn(&Proc) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !ready(p) {
        assert!(p.running(), "{} exited early\n{}", p.name(), p.describe());
        assert!(
            Instant::now() < deadline,
            "{}: not {what} within 20 s\n{}",
            p.name(),
            p.describe()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn wait_for_file(path: &Path, needle: &str, p: &mut Proc) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if std::fs::read_to_string(path).is_ok_and(|t| t.contains(needle)) {
            return;
        }
        assert!(
            p.running(),
            "{} exited at start\n{}",
            p.name(),
            p.describe()
        );
        assert!(
            Instant::now() < deadline,
            "no {needle:?} in {} within 20 s\n{}",
            path.display(),
            p.describe()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn path_arg(p: &Path) -> String {
    p.to_str()
        .unwrap_or_else(|| panic!("temporary path is not UTF-8: {}", p.display()))
        .to_string()
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

// ----- the tests -------------------------------------------------------------

#[test]
fn a_clean_wire_passes_a_whole_game() {
    skip_unless_socat!();
    let s = Session::new();
    let out = s.run(1, &Noise::default(), 1, Duration::from_secs(120));
    println!("{}", out.report("clean"));
    assert_eq!(out.games.len(), 1);
    assert_eq!(out.normal, 1, "the game ends normally on a clean line");
    assert!(out.foreign_moves.is_empty(), "{:?}", out.foreign_moves);
    assert_eq!(out.damaged_lines, 0);
    assert_eq!(out.rejected + out.resends + out.faults, 0, "{out:?}");
    assert!(out.plies > 0 && out.lines > out.plies as u64);
}

#[test]
fn bit_errors_are_detected_or_harmless() {
    skip_unless_socat!();
    let s = Session::new();
    let noise = Noise {
        bit_error_rate: 1e-3,
        cut: None,
        tc: "15",
    };
    let out = s.run(1, &noise, 7, Duration::from_secs(120));
    println!("{}", out.report("bit error rate 1e-3"));
    assert_eq!(out.games.len(), 1);
    assert!(out.damaged_lines > 0, "at 1e-3 some lines are hit: {out:?}");
    // Detected: the damage was refused or answered somewhere.
    assert!(
        out.rejected + out.resends + out.naks + out.client_ignored > 0,
        "damaged lines but no detection: {out:?}"
    );
    assert!(out.foreign_moves.is_empty(), "{:#?}", out.foreign_moves);
}

#[test]
fn a_session_survives_a_pulled_cable() {
    skip_unless_socat!();
    let s = Session::new();
    let noise = Noise {
        bit_error_rate: 0.0,
        // 8 s after the wires start: the game (about 50 s of line time)
        // is under way even when starting the processes is slow.
        cut: Some((8.0, 2.0)),
        tc: "15",
    };
    let out = s.run(1, &noise, 3, Duration::from_secs(120));
    println!("{}", out.report("cable pulled at 8 s for 2 s"));
    assert_eq!(out.games.len(), 1);
    assert!(out.damaged_lines > 0, "the cut lost lines: {out:?}");
    assert!(out.foreign_moves.is_empty(), "{:#?}", out.foreign_moves);
    // What the cut lost was asked for again (after 2 s of silence), and
    // the game went on to an end.
    assert!(out.resends > 0, "nothing was sent again: {out:?}");
    assert!(out.games[0].tag("Termination").is_some());
}

/// The noise experiment with `ARGUS_NOISE_GAMES` games (2 here; 50 from
/// `scripts/noise.sh`) at `ARGUS_NOISE_BER` (1e-4), split over
/// `ARGUS_NOISE_SESSIONS` referee sessions run at once (each with its own
/// cables, wires and seeds; the line is paced, so they hardly compete).
fn noise_experiment_with(default_games: usize, tc: &'static str) {
    let games = env_or("ARGUS_NOISE_GAMES", default_games);
    let ber = env_or("ARGUS_NOISE_BER", 1e-4);
    let seed = env_or("ARGUS_NOISE_SEED", 1u64);
    let sessions = env_or("ARGUS_NOISE_SESSIONS", 1usize).clamp(1, games.max(1));
    let noise = Noise {
        bit_error_rate: ber,
        cut: None,
        tc,
    };
    let outcomes: Vec<Outcome> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..sessions)
            .map(|k| {
                let n = games / sessions + usize::from(k < games % sessions);
                let noise = noise.clone();
                let seed = seed + 1000 * k as u64;
                scope.spawn(move || {
                    let s = Session::new();
                    let out = s.run(n, &noise, seed, Duration::from_secs(120 + 120 * n as u64));
                    println!("NOISE session {k}: {}", out.report(&format!("seed {seed}")));
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| panic!("a noise session failed"))
            })
            .collect()
    });
    let mut total = Outcome::default();
    for o in outcomes {
        total.games.extend(o.games);
        total.normal += o.normal;
        total.time_forfeits += o.time_forfeits;
        total.infractions += o.infractions;
        total.retries += o.retries;
        total.damaged_lines += o.damaged_lines;
        total.lines += o.lines;
        total.corrupted_bytes += o.corrupted_bytes;
        total.rejected += o.rejected;
        total.resends += o.resends;
        total.resends_at_once += o.resends_at_once;
        total.naks += o.naks;
        total.faults += o.faults;
        total.client_ignored += o.client_ignored;
        total.client_check_failed += o.client_check_failed;
        total.dropped += o.dropped;
        total.check_failed += o.check_failed;
        total.plies += o.plies;
        total.foreign_moves.extend(o.foreign_moves);
        total.secs = total.secs.max(o.secs);
    }
    println!(
        "NOISE TOTAL {}",
        total.report(&format!("bit error rate {ber}, {sessions} sessions"))
    );
    for f in &total.foreign_moves {
        println!("FOREIGN MOVE {f}");
    }
    assert_eq!(total.games.len(), games);
    assert!(total.foreign_moves.is_empty(), "{:#?}", total.foreign_moves);
}

#[test]
fn noise_experiment_short() {
    skip_unless_socat!();
    noise_experiment_with(2, "15");
}

#[test]
#[ignore = "long: 50 games at 9600 baud; run by scripts/noise.sh"]
fn noise_experiment() {
    skip_unless_socat!();
    noise_experiment_with(50, "60");
}
