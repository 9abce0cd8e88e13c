//! The bad-client catalogue: the real `argus referee` against scripted
//! misbehaving clients over socat cables, one test per behaviour
//! (docs/bad-clients.md is the table these tests back).
//!
//! Each scenario is a small file in `hw-tests/scenarios/` written in the
//! scenario language of [`crate::common::scripted`]:
//!
//! ```text
//! sign-on [NAME]        sign on (tcsi name NAME)
//! send TEXT             TEXT and CR LF
//! send-bytes HEX ...    raw bytes, nothing added
//! long N                one line of N bytes
//! flood N               N junk lines, back to back
//! expect REFCOM         wait for a record with this refcom
//! reply SAN [OPS]       reply to the last respond with the right echo
//!                       (SAN `any`: the first legal move; `-`: no sm)
//! echo-wrong SAN        reply echoing the initial position
//! wait MS               pause (still reading)
//! ```
//!
//! Usually one side is the scripted client and the other the reference
//! client (`argus client`); for draw offers both are scripted. For every
//! scenario the test checks that the referee exits 0, that every PGN game
//! replays legally, that every move relayed to a client in a `respond` is in
//! the PGN, that the result and termination are the table's, and the
//! expected headless lines and rejected (`!`) transcript lines. For the long
//! line and the flood it prints the referee's peak memory (VmHWM) and
//! asserts a generous bound.

#![cfg(unix)]

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::common::argus_bin;
use crate::common::process::Proc;
use crate::common::scripted::{Scripted, load_script};
use argus::epd::{Record, RefCom};
use argus::game::{self, Chess, Game};
use argus::record::pgn_read::{PgnText, read_pgn_games};
use argus::record::transcript::{Direction, TranscriptLine, parse_line};

/// Port labels in the transcript.
const PORTS: [&str; 2] = ["A", "B"];
/// The most peak memory (kB) the referee may use in any scenario.
const MEMORY_BOUND_KB: u64 = 200 * 1024;
/// The most the referee's peak memory (kB) may grow during a scenario.
const MEMORY_GROWTH_KB: u64 = 16 * 1024;

/// Who plays one side.
#[derive(Clone, Copy)]
enum Side {
    /// The reference client with these extra options.
    Good(&'static [&'static str]),
    /// A scripted client playing `hw-tests/scenarios/NAME.txt`.
    Script(&'static str),
}

/// One row of the catalogue.
struct Case {
    /// White in game 1 (port A) and Black (port B).
    sides: [Side; 2],
    /// Extra referee options.
    referee: &'static [&'static str],
    /// An openings file: its name (the extension matters) and text.
    openings: Option<(&'static str, &'static str)>,
    /// Send Ctrl-C to the referee once the scripts are done.
    interrupt: bool,
    /// The PGN Result and Termination of the one game (`None`: no game).
    outcome: Option<(&'static str, &'static str)>,
    /// PGN tags the game must have (name, value).
    tags: &'static [(&'static str, &'static str)],
    /// Substrings that some headless stdout line must contain.
    stdout: &'static [&'static str],
    /// Substrings that the reasons of rejected lines must contain (one
    /// rejected line each, in any order).
    rejected: &'static [&'static str],
    /// Substrings that some line of the application log (`argus.log`,
    /// where the core's rejections are written) must contain.
    log: &'static [&'static str],
    /// Print and bound the referee's peak memory.
    memory: bool,
    /// The command and its own options, before the ports (`referee`).
    command: &'static [&'static str],
}

const GOOD: Side = Side::Good(&[]);
/// The reference client, slow enough that a reply out of turn is one.
const SLOW: Side = Side::Good(&["--think-ms", "1500"]);

impl Case {
    /// Black (port B) scripted against the reference client.
    const fn black(script: &'static str) -> Case {
        Case {
            sides: [GOOD, Side::Script(script)],
            referee: &[],
            openings: None,
            interrupt: false,
            outcome: Some(("1-0", "normal")),
            tags: &[],
            stdout: &[],
            rejected: &[],
            log: &[],
            memory: false,
            command: &["referee"],
        }
    }
}

// ----- running a case -------------------------------------------------------

/// What a case left behind.
struct Outcome {
    games: Vec<PgnText>,
    lines: Vec<TranscriptLine>,
    stdout: Vec<String>,
    /// The application log.
    log: String,
    /// Peak memory of the referee (kB) before the scripts ran and after.
    memory_kb: (u64, u64),
}

fn run(name: &str, case: &Case) -> Option<Outcome> {
    let rig = rig_or_skip_opt()?;
    let dir = tempfile::Builder::new()
        .prefix("argus-bad-")
        .tempdir()
        .expect("temporary directory");
    let log_dir = dir.path().join("logs");
    let pgn = dir.path().join("games.pgn");
    let mut args: Vec<String> = strings(case.command);
    args.extend(rig.referee.iter().cloned());
    args.extend(strings(&["--headless", "--log-dir"]));
    args.push(path_arg(&log_dir));
    args.push("--pgn".into());
    args.push(path_arg(&pgn));
    args.extend(strings(&[
        "--reset-delay",
        "0.2",
        "--conclude-delay",
        "0.2",
    ]));
    if let Some((file, text)) = case.openings {
        let path = dir.path().join(file);
        std::fs::write(&path, text).expect("write the openings");
        args.extend(strings(&[
            "--openings",
            &path_arg(&path),
            "--opening-plies",
            "40",
        ]));
    }
    args.extend(strings(case.referee));
    args.extend(rig.line_args().iter().cloned());
    let mut referee = Proc::spawn("referee", &argus_bin(), &args);
    wait_for_session(&mut referee, &log_dir);
    let before = peak_kb(&referee);

    let stop = Arc::new(AtomicBool::new(false));
    let mut goods: Vec<Proc> = Vec::new();
    let mut scripts: Vec<(usize, JoinHandle<Result<(), String>>)> = Vec::new();
    let mut dones: Vec<Arc<AtomicBool>> = Vec::new();
    for (i, side) in case.sides.iter().enumerate() {
        let port = rig.client[i].clone();
        match *side {
            Side::Good(extra) => {
                let mut a = vec!["client".to_string(), port, "--name".into(), "good".into()];
                a.extend(strings(&["--seed", "7"]));
                a.extend(strings(extra));
                a.extend(rig.line_args().iter().cloned());
                goods.push(Proc::spawn(
                    &format!("client {}", PORTS[i]),
                    &argus_bin(),
                    &a,
                ));
            }
            Side::Script(file) => {
                let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("hw-tests/scenarios")
                    .join(format!("{file}.txt"));
                let steps = load_script(&path).unwrap_or_else(|e| panic!("{e}"));
                let stop = Arc::clone(&stop);
                let done = Arc::new(AtomicBool::new(false));
                dones.push(Arc::clone(&done));
                scripts.push((
                    i,
                    std::thread::spawn(move || {
                        let mut s = Scripted::open(&port)?;
                        s.run(&steps, &done, &stop, Duration::from_secs(90))
                    }),
                ));
            }
        }
    }

    let mut failures = Vec::new();
    if case.interrupt {
        // Once the scripts have done their steps (or failed).
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline
            && !scripts
                .iter()
                .zip(&dones)
                .all(|((_, h), d)| d.load(Ordering::SeqCst) || h.is_finished())
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        referee.interrupt();
    }
    // The scripts end at `disconnect`; the referee then exits.
    let deadline = Instant::now() + Duration::from_secs(90);
    let mut after = before;
    while referee.running() && Instant::now() < deadline {
        after = after.max(peak_kb(&referee));
        std::thread::sleep(Duration::from_millis(50));
    }
    let code = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        referee.wait_exit(Duration::from_secs(5))
    }));
    stop.store(true, Ordering::SeqCst);
    for (i, h) in scripts {
        match h.join() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => failures.push(format!("scripted client {}: {e}", PORTS[i])),
            Err(_) => failures.push(format!("scripted client {} panicked", PORTS[i])),
        }
    }
    match code {
        Ok(0) => {}
        // Interrupted before the match was played out.
        Ok(3) if case.interrupt => {}
        Ok(c) => failures.push(format!("the referee exited with {c}")),
        Err(_) => failures.push("the referee did not exit cleanly".into()),
    }
    for g in goods.iter_mut() {
        let c = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            g.wait_exit(Duration::from_secs(15))
        }));
        // A referee stopped before any game sends its only record, the
        // disconnect: to the client a refusal (it played nothing), 1.
        let refused = case.interrupt && case.outcome.is_none() && matches!(c, Ok(1));
        if !matches!(c, Ok(0)) && !refused {
            failures.push(format!("{} did not exit with 0: {c:?}", g.name()));
        }
    }
    let lines = transcript(&log_dir);
    if !failures.is_empty() {
        let tail: Vec<String> = lines
            .iter()
            .rev()
            .take(40)
            .rev()
            .map(|l| {
                format!(
                    "{:?} {} {:?} {}",
                    l.at,
                    l.port,
                    l.direction,
                    String::from_utf8_lossy(&l.bytes)
                )
            })
            .collect();
        panic!(
            "{name}: {}\n{}\n{}\n--- transcript tail:\n{}",
            failures.join("\n"),
            referee.describe(),
            goods
                .iter()
                .map(Proc::describe)
                .collect::<Vec<_>>()
                .join("\n"),
            tail.join("\n")
        );
    }
    let games = match std::fs::read_to_string(&pgn) {
        Ok(text) => read_pgn_games(&text).unwrap_or_else(|e| panic!("{name}: PGN: {e}")),
        Err(_) => Vec::new(),
    };
    Some(Outcome {
        games,
        lines,
        stdout: referee.stdout_lines(),
        log: std::fs::read_to_string(log_dir.join("argus.log")).unwrap_or_default(),
        memory_kb: (before, after),
    })
}

/// The rig, or `None` when there is neither socat nor hardware.
fn rig_or_skip_opt() -> Option<crate::common::rig::Rig> {
    crate::common::rig::Rig::new()
}

/// Waits until the referee has opened its ports (a match's or a
/// tournament's first line in its log).
fn wait_for_session(referee: &mut Proc, log_dir: &Path) {
    let log = log_dir.join("argus.log");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if text.contains("referee session:") || text.contains("waiting for the players to sign on")
        {
            return;
        }
        if !referee.running() || Instant::now() >= deadline {
            panic!(
                "the referee did not start its session\n{}",
                referee.describe()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The process's peak resident memory in kB (`VmHWM`), 0 once it is gone.
fn peak_kb(p: &Proc) -> u64 {
    let Some(pid) = p.pid() else { return 0 };
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn transcript(log_dir: &Path) -> Vec<TranscriptLine> {
    crate::common::transcript_text(log_dir)
        .lines()
        .map(|l| parse_line(l).unwrap_or_else(|e| panic!("bad transcript line: {e}")))
        .collect()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn path_arg(p: &Path) -> String {
    p.to_str().expect("temporary paths are UTF-8").to_string()
}

// ----- the checks -----------------------------------------------------------

/// Replays a PGN game from its start; every move must be legal.
fn replay(g: &PgnText) -> Game {
    let start = match g.tag("FEN") {
        Some(fen) => game::position_from_fen(fen)
            .unwrap_or_else(|e| panic!("game at line {}: bad FEN {fen:?}: {e}", g.line)),
        None => Chess::default(),
    };
    let mut replayed = Game::new(start);
    for (i, san) in g.sans.iter().enumerate() {
        if let Err(e) = replayed.play_san(san) {
            panic!(
                "game at line {}: ply {} {san:?} is illegal: {e}",
                g.line,
                i + 1
            );
        }
    }
    replayed
}

fn record_of(l: &TranscriptLine) -> Option<Record> {
    let text = String::from_utf8_lossy(&l.bytes);
    Record::parse(text.trim_end_matches(['\r', '\n', '\0'])).ok()
}

/// Every move relayed in a `respond` (resends counted once) must be a PGN
/// move, in order.
fn check_relayed(name: &str, lines: &[TranscriptLine], games: &[PgnText]) {
    let mut relayed: Vec<String> = Vec::new();
    let mut last: Option<Record> = None;
    for l in lines.iter().filter(|l| l.direction == Direction::Out) {
        let Some(r) = record_of(l) else { continue };
        if r.refcom().ok().flatten() != Some(RefCom::Respond) {
            continue;
        }
        if let Ok(Some(sm)) = r.sm()
            && last.as_ref() != Some(&r)
        {
            relayed.push(sm.to_string());
        }
        last = Some(r);
    }
    let played: Vec<String> = games.iter().flat_map(|g| g.sans.iter().cloned()).collect();
    let mut it = played.iter();
    for m in &relayed {
        assert!(
            it.any(|p| p == m),
            "{name}: relayed move {m:?} is not in the PGN (in order)\nrelayed {relayed:?}\nPGN {played:?}"
        );
    }
}

/// Runs the scenario and checks everything the catalogue promises.
fn check(name: &str, case: Case) {
    let Some(out) = run(name, &case) else { return };
    for g in &out.games {
        replay(g);
    }
    check_relayed(name, &out.lines, &out.games);
    match case.outcome {
        None => assert!(out.games.is_empty(), "{name}: no game was expected"),
        Some((result, termination)) => {
            assert_eq!(out.games.len(), 1, "{name}: games in the PGN");
            let g = &out.games[0];
            assert_eq!(g.tag("Result"), Some(result), "{name}: Result");
            assert_eq!(
                g.tag("Termination"),
                Some(termination),
                "{name}: Termination"
            );
            for (tag, value) in case.tags {
                assert_eq!(g.tag(tag), Some(*value), "{name}: tag {tag}");
            }
        }
    }
    for want in case.stdout {
        assert!(
            out.stdout.iter().any(|l| l.contains(want)),
            "{name}: no stdout line with {want:?} in {:#?}",
            out.stdout
        );
    }
    let reasons: Vec<String> = out
        .lines
        .iter()
        .filter(|l| l.direction == Direction::Rejected)
        .map(|l| l.reason.clone().unwrap_or_default())
        .collect();
    for want in case.rejected {
        assert!(
            reasons.iter().any(|r| r.contains(want)),
            "{name}: no rejected line for {want:?}; rejected: {reasons:#?}"
        );
    }
    let notes: Vec<String> = out
        .lines
        .iter()
        .filter(|l| l.direction == Direction::Note)
        .map(|l| String::from_utf8_lossy(&l.bytes).into_owned())
        .collect();
    for want in case.log {
        let warnings: Vec<&str> = out.log.lines().filter(|l| l.contains("WARN")).collect();
        assert!(
            warnings.iter().any(|l| l.contains(want)),
            "{name}: no log warning with {want:?}; warnings: {warnings:#?}"
        );
        // The core's notices are `#` notes in the transcript as well.
        assert!(
            notes.iter().any(|n| n.contains(want)),
            "{name}: no transcript note with {want:?}; notes: {notes:#?}"
        );
    }
    if case.memory {
        let (before, after) = out.memory_kb;
        println!("{name}: referee peak memory (VmHWM) {before} kB before, {after} kB after");
        assert!(after < MEMORY_BOUND_KB, "{name}: {after} kB");
        // The bound that could fail: keeping a 20 MB line would add 20 MB.
        assert!(
            after.saturating_sub(before) < MEMORY_GROWTH_KB,
            "{name}: grew {} kB",
            after.saturating_sub(before)
        );
    }
}

/// One test per scenario.
macro_rules! scenario {
    ($name:ident, $case:expr) => {
        #[test]
        fn $name() {
            check(stringify!($name), $case);
        }
    };
}

// ----- the catalogue ----------------------------------------------------------

scenario!(
    garbage_bytes,
    Case {
        log: &["B: rejected (not an EPD record"],
        ..Case::black("garbage-bytes")
    }
);
scenario!(
    binary_noise,
    Case {
        rejected: &["not printable ASCII"],
        ..Case::black("binary-noise")
    }
);
scenario!(
    a_100_kb_line,
    Case {
        rejected: &["longer than the 4096-byte limit"],
        memory: true,
        ..Case::black("long-line")
    }
);
scenario!(
    a_20_mb_line,
    Case {
        rejected: &["line of 20000000 bytes is longer than the 4096-byte limit"],
        memory: true,
        ..Case::black("huge-line")
    }
);
scenario!(
    non_ascii_bytes,
    Case {
        rejected: &["not printable ASCII"],
        ..Case::black("non-ascii")
    }
);
scenario!(
    escapes_in_a_tcsi_name,
    Case {
        tags: &[("Black", "bad")],
        log: &[
            "line kept, 2 bytes not printable ASCII inside a quoted string replaced by '?' (the first, 0x1B"
        ],
        ..Case::black("tcsi-escape")
    }
);
// The same on the director's match, which starts the game once both
// have signed on: the clean sign-on that follows at once still names the
// player, in the record and in the event.
scenario!(
    escapes_in_a_tcsi_name_on_the_events_loop,
    Case {
        tags: &[("Black", "bad")],
        log: &[
            "line kept, 2 bytes not printable ASCII inside a quoted string replaced by '?' (the first, 0x1B"
        ],
        command: &["tournament", "--as-match"],
        ..Case::black("tcsi-escape")
    }
);
scenario!(
    a_second_sign_on_in_the_reset_delay_renames_the_player,
    Case {
        tags: &[("Black", "second")],
        ..Case::black("sign-on-renamed")
    }
);
scenario!(
    a_second_sign_on_in_the_reset_delay_renames_the_player_on_the_events_loop,
    Case {
        tags: &[("Black", "second")],
        command: &["tournament", "--as-match"],
        ..Case::black("sign-on-renamed")
    }
);
scenario!(
    a_latin1_name_signs_on_with_the_byte_replaced,
    Case {
        tags: &[("Black", "Schr?der 3")],
        log: &["0xF6"],
        ..Case::black("latin1-name")
    }
);
// The same on the tournament's loop, where the sign-on is read before
// the player has a board: its note goes to the event's transcript.
scenario!(
    a_latin1_name_signs_on_with_the_byte_replaced_in_a_tournament,
    Case {
        tags: &[("Black", "Schr?der 3")],
        log: &["0xF6"],
        command: &["tournament", "--games-per-pairing", "1"],
        ..Case::black("latin1-name")
    }
);
scenario!(
    a_record_with_no_operations,
    Case {
        log: &["B: rejected (record without refreq)"],
        ..Case::black("no-operations")
    }
);
scenario!(an_unknown_opcode, Case::black("unknown-opcode"));
scenario!(
    an_unknown_refreq,
    Case {
        log: &["unknown request \"dance\""],
        ..Case::black("unknown-refreq")
    }
);
scenario!(
    a_duplicate_opcode,
    Case {
        log: &["duplicate opcode \"sm\""],
        ..Case::black("duplicate-opcode")
    }
);
scenario!(
    a_reply_out_of_turn,
    Case {
        sides: [SLOW, Side::Script("out-of-turn")],
        log: &["B: rejected (reply out of turn)"],
        ..Case::black("")
    }
);
scenario!(
    two_replies_to_one_respond,
    Case {
        sides: [SLOW, Side::Script("two-replies")],
        log: &["B: rejected (reply out of turn)"],
        ..Case::black("")
    }
);
scenario!(
    a_reply_without_a_move,
    Case {
        outcome: Some(("1-0", "rules infraction")),
        stdout: &["Black forfeits"],
        ..Case::black("no-sm")
    }
);
scenario!(
    an_illegal_move,
    Case {
        outcome: Some(("1-0", "rules infraction")),
        stdout: &["illegal move \"Ke7\""],
        ..Case::black("illegal-move")
    }
);
scenario!(
    an_unparsable_move,
    Case {
        outcome: Some(("1-0", "rules infraction")),
        stdout: &["Zz9"],
        ..Case::black("unparsable-move")
    }
);
scenario!(
    an_unparsable_move_under_illegal_retry_is_asked_again,
    Case {
        referee: &["--illegal", "retry"],
        log: &["B: unparsable move \"Zz9\"", "asking again (1 of 2)"],
        stdout: &["Black resigns"],
        ..Case::black("unparsable-move-retry")
    }
);
scenario!(
    a_wrong_echo_once,
    Case {
        // The wrong echo is answered by the same respond again, not taken.
        log: &[
            "B: echoed position differs",
            "resending the position (1 of 2)",
        ],
        ..Case::black("echo-once")
    }
);
scenario!(
    a_wrong_echo_every_time,
    Case {
        outcome: Some(("1-0", "rules infraction")),
        stdout: &["Black forfeits"],
        ..Case::black("echo-always")
    }
);
scenario!(
    a_false_draw_claim,
    Case {
        outcome: Some(("1-0", "rules infraction")),
        ..Case::black("false-claim")
    }
);
scenario!(
    a_threefold_claim,
    Case {
        openings: Some((
            "threefold.pgn",
            "[Event \"x\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *\n"
        )),
        outcome: Some(("1/2-1/2", "normal")),
        stdout: &["3-fold"],
        ..Case::black("claim-threefold")
    }
);
scenario!(
    a_fifty_move_claim,
    Case {
        sides: [Side::Script("claim-fifty"), GOOD],
        openings: Some(("fifty.epd", "7k/8/8/8/8/8/R7/K7 w - - hmvc 99; fmvn 80;\n")),
        outcome: Some(("1/2-1/2", "normal")),
        stdout: &["fifty"],
        ..Case::black("")
    }
);
scenario!(
    an_insufficient_material_claim,
    Case {
        sides: [Side::Script("claim-material"), GOOD],
        openings: Some(("material.epd", "7k/8/8/8/8/8/1p6/1K4N1 w - -\n")),
        outcome: Some(("1/2-1/2", "normal")),
        stdout: &["material"],
        ..Case::black("")
    }
);
scenario!(
    a_draw_offer_accepted,
    Case {
        sides: [Side::Script("offer-a-accepted"), Side::Script("accept-b")],
        outcome: Some(("1/2-1/2", "normal")),
        stdout: &["agreement"],
        ..Case::black("")
    }
);
scenario!(
    a_draw_offer_declined,
    Case {
        sides: [Side::Script("offer-a-declined"), Side::Script("decline-b")],
        outcome: Some(("0-1", "normal")),
        stdout: &["White resigns"],
        ..Case::black("")
    }
);
scenario!(
    a_resignation,
    Case {
        stdout: &["Black resigns"],
        ..Case::black("resign")
    }
);
scenario!(
    a_client_that_never_signs_on,
    Case {
        interrupt: true,
        outcome: None,
        stdout: &["Ctrl-C"],
        ..Case::black("never-signs-on")
    }
);
scenario!(signing_on_twice, Case::black("sign-on-twice"));
scenario!(
    signing_off_mid_game,
    Case {
        referee: &["--tc", "3"],
        outcome: Some(("1-0", "time forfeit")),
        // Told apart from a client that just stops answering.
        log: &["B: bad signed off; its clock keeps running"],
        ..Case::black("sign-off")
    }
);
scenario!(
    a_client_that_stops_answering,
    Case {
        referee: &["--tc", "2"],
        outcome: Some(("1-0", "time forfeit")),
        ..Case::black("silent")
    }
);
scenario!(
    a_flood_of_lines,
    Case {
        log: &["B: rejected (not an EPD record"],
        memory: true,
        ..Case::black("flood")
    }
);

// ----- tablebase adjudication (`--syzygy`, the 3-piece tables in fixtures) ----

const SYZYGY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/hw-tests/fixtures/syzygy");

scenario!(
    a_won_ending_adjudicated_by_the_tables,
    Case {
        sides: [GOOD, GOOD],
        referee: &["--syzygy", SYZYGY],
        openings: Some(("krk.epd", "8/8/8/4k3/8/8/8/R3K3 w - -\n")),
        outcome: Some(("1-0", "adjudication")),
        stdout: &["White wins by adjudication: SyzygyTB (KRvK is won in the tables)"],
        ..Case::black("")
    }
);
scenario!(
    a_drawn_ending_adjudicated_by_the_tables,
    Case {
        sides: [GOOD, GOOD],
        referee: &["--syzygy", SYZYGY],
        openings: Some(("kpk.epd", "k7/8/8/8/8/8/P7/K7 w - -\n")),
        outcome: Some(("1/2-1/2", "adjudication")),
        stdout: &["Draw by adjudication: SyzygyTB (KPvK is drawn in the tables)"],
        ..Case::black("")
    }
);
