//! The analysis verbs end to end: `argus epd analyse | mate | solve |
//! report` as a user runs them, with the fixture engines
//! (`hw-tests/fixtures/`, built here as examples: `uci-random --analyse`
//! reports its thinking deterministically and plays a mate in one when it
//! has one) and, when installed, Stockfish on a few classic test
//! positions.

#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::fixture;
use argus::client::engine::analysis::{Score, mate_length, replay};
use argus::epd::Record;
use argus::game::position_of_record;

const SCHOLAR: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq -";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
const MATED: &str = "7k/6Q1/6K1/8/8/8/8/8 b - -";

fn argus() -> Command {
    Command::new(env!("CARGO_BIN_EXE_argus"))
}

fn fake(args: &str) -> String {
    format!("{} --analyse {args}", fixture("uci-random").display())
}

fn run(args: &[&str]) -> Output {
    argus()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("argus runs")
}

/// `argus epd VERB IN OUT --engine ENGINE REST...`.
fn verb(name: &str, input: &str, out: &str, engine: &str, rest: &[&str]) -> Output {
    let mut args = vec!["epd", name, input, out, "--engine", engine];
    args.extend_from_slice(rest);
    run(&args)
}

/// A record's pv.
fn pv_of(r: &Record) -> Vec<String> {
    r.op("pv")
        .map(|o| o.operands.iter().map(|x| x.text().to_string()).collect())
        .unwrap_or_default()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn records(path: &Path) -> Vec<Record> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| Record::parse(l).ok())
        .collect()
}

struct Files {
    dir: tempfile::TempDir,
}

impl Files {
    fn new() -> Files {
        Files {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn write(&self, name: &str, body: &str) -> String {
        let p = self.dir.path().join(name);
        std::fs::write(&p, body).unwrap();
        p.display().to_string()
    }

    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).display().to_string()
    }
}

fn suite() -> String {
    format!(
        "{SCHOLAR} bm Qxf7#; id \"scholar\"; c0 \"kept\";\n\
         {START} id \"start\";\n\
         garbage line\n\
         {MATED} id \"mated\";\n\
         {SCHOLAR} am Qxf7#; id \"avoid\";\n"
    )
}

#[test]
fn analyse_copies_each_record_with_pv_ce_pm_and_counts() {
    let f = Files::new();
    let input = f.write("in.epd", &suite());
    let out = f.path("out.epd");
    let o = verb("analyse", &input, &out, &fake(""), &["--depth", "2"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(err.contains("in.epd:3: column 1:"), "{err}");
    assert!(err.contains("copied unchanged"), "{err}");
    let lines: Vec<String> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[2], "garbage line");
    assert_eq!(
        lines[0],
        format!(
            "{SCHOLAR} bm Qxf7#; id \"scholar\"; c0 \"kept\"; pv Qxf7#; ce 32766; pm Qxf7#; sm Qxf7#; acn 42; acs 0; acd 2; Ar_ms 3;"
        )
    );
    assert_eq!(lines[3], format!("{MATED} id \"mated\"; pv; ce -32767;"));
    let start = Record::parse(&lines[1]).unwrap();
    assert_eq!(start.ce().unwrap(), Some(17));
    let pos = position_of_record(&start).unwrap();
    let pv = pv_of(&start);
    assert_eq!(pv.len(), 1);
    replay(&pos, &pv).unwrap();

    // --drop-bad leaves the bad line out.
    let out2 = f.path("out2.epd");
    let o = verb(
        "analyse",
        &input,
        &out2,
        &fake(""),
        &["--depth", "2", "--drop-bad"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("left out"));
    assert_eq!(records(Path::new(&out2)).len(), 4);
    assert!(!std::fs::read_to_string(&out2).unwrap().contains("garbage"));
}

#[test]
fn solve_marks_solved_and_missed_and_the_report_reads_them() {
    let f = Files::new();
    let input = f.write("in.epd", &suite());
    let out = f.path("solved.epd");
    let o = verb(
        "solve",
        &input,
        &out,
        &fake(""),
        &["--nodes", "100", "--concurrency", "2"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let recs = records(Path::new(&out));
    let by_id = |id: &str| {
        recs.iter()
            .find(|r| r.id().unwrap() == Some(id))
            .unwrap()
            .to_canonical()
    };
    assert!(
        by_id("scholar").contains("Ar_solved_depth 2; Ar_solved_ms 3; Ar_solved_nodes 42;"),
        "{}",
        by_id("scholar")
    );
    assert!(by_id("avoid").contains("Ar_missed;"), "{}", by_id("avoid"));
    assert!(!by_id("start").contains("Ar_solved") && !by_id("start").contains("Ar_missed"));

    let html = f.path("r.html");
    let o = run(&["epd", "report", &out, &out, "--html", &html]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let md = text(&o.stdout);
    assert!(md.contains("| 4 | 2 | 1 (50.0%) | 1 | 0 |"), "{md}");
    assert!(md.contains("Missed (1): avoid"), "{md}");
    assert!(md.contains("solved by both: 1"), "{md}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("<svg") && page.contains("<polyline"),
        "{page}"
    );
}

#[test]
fn mate_writes_dm_for_mates_found_and_skips_solved_records() {
    let f = Files::new();
    let input = f.write(
        "in.epd",
        &format!("{SCHOLAR} id \"m1\";\n{START} id \"none\";\n{SCHOLAR} dm 1; id \"known\";\n"),
    );
    let out = f.path("mates.epd");
    let o = verb(
        "mate",
        &input,
        &out,
        &fake(""),
        &["--moves", "2", "--upto", "--depth", "2"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let recs = records(Path::new(&out));
    assert_eq!(recs.len(), 3);
    assert!(
        recs[0].to_canonical().contains("dm 1; "),
        "{}",
        recs[0].to_canonical()
    );
    assert!(recs[0].to_canonical().contains("pm Qxf7#;"));
    let pv: Vec<String> = recs[0]
        .op("pv")
        .unwrap()
        .operands
        .iter()
        .map(|o| o.text().to_string())
        .collect();
    assert_eq!(
        mate_length(&position_of_record(&recs[0]).unwrap(), &pv),
        Some(1)
    );
    assert!(!recs[1].has("dm"));
    // Already solved: copied as it was.
    assert_eq!(
        recs[2].to_canonical(),
        format!("{SCHOLAR} dm 1; id \"known\";")
    );
}

#[test]
fn a_crashing_or_hanging_engine_is_restarted_and_the_record_marked() {
    let f = Files::new();
    let body: String = (0..4).map(|i| format!("{START} id \"r{i}\";\n")).collect();
    let input = f.write("in.epd", &body);
    for (what, flag) in [("crash", "--crash-after"), ("hang", "--hang-after")] {
        let once = f.path(&format!("{what}.once"));
        let out = f.path(&format!("{what}.epd"));
        let engine = fake(&format!("{flag} 1 --once {once}"));
        let o = verb(
            "analyse",
            &input,
            &out,
            &engine,
            &["--movetime", "50", "--margin-ms", "300"],
        );
        assert_eq!(o.status.code(), Some(1), "{what}: {}", text(&o.stderr));
        let recs = records(Path::new(&out));
        assert_eq!(recs.len(), 4, "{what}");
        assert!(
            recs[1].has("Ar_fault"),
            "{what}: {}",
            recs[1].to_canonical()
        );
        for i in [0, 2, 3] {
            assert!(
                recs[i].has("pv") && !recs[i].has("Ar_fault"),
                "{what}: {}",
                recs[i].to_canonical()
            );
        }
        assert!(
            text(&o.stderr).contains("1 engine faults"),
            "{}",
            text(&o.stderr)
        );
    }
    // An engine that does not start at all stops the run before it begins.
    let out = f.path("none.epd");
    let o = verb(
        "analyse",
        &input,
        &out,
        "/nonexistent/engine",
        &["--depth", "1"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("/nonexistent/engine"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn resume_goes_on_after_an_interruption() {
    let f = Files::new();
    let body: String = (0..6).map(|i| format!("{START} id \"r{i}\";\n")).collect();
    let input = f.write("in.epd", &body);
    let out = f.path("out.epd");
    // The first engine hangs on its third position: Ctrl-C then.
    let once = f.path("hang.once");
    let engine = fake(&format!("--hang-after 2 --once {once}"));
    let child = argus()
        .args([
            "epd", "analyse", &input, &out, "--engine", &engine, "--depth", "1",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while records(Path::new(&out)).len() < 2 {
        assert!(Instant::now() < deadline, "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    // The hung engine is argus's child; it is ended at the end (a
    // terminal's Ctrl-C would reach it too).
    let engines = Command::new("pgrep")
        .args(["-P", &child.id().to_string()])
        .output()
        .unwrap();
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted: 2 records are in"), "{err}");
    assert!(err.contains("--resume"), "{err}");
    for pid in text(&engines.stdout).split_whitespace() {
        let _ = Command::new("kill").arg(pid).status();
    }
    // Without --resume the output is not overwritten.
    let o = verb("analyse", &input, &out, &fake(""), &["--depth", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--resume continues it"));
    assert_eq!(records(Path::new(&out)).len(), 2);
    // With it, the rest is appended, in order.
    let o = verb(
        "analyse",
        &input,
        &out,
        &fake(""),
        &["--depth", "1", "--resume"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("2 already done"),
        "{}",
        text(&o.stderr)
    );
    let ids: Vec<String> = records(Path::new(&out))
        .iter()
        .map(|r| r.id().unwrap().unwrap().to_string())
        .collect();
    assert_eq!(ids, ["r0", "r1", "r2", "r3", "r4", "r5"]);
}

#[test]
fn xboard_engines_analyse_too() {
    let f = Files::new();
    let input = f.write(
        "in.epd",
        &format!("{START} id \"s\";\n{SCHOLAR} id \"q\";\n"),
    );
    let out = f.path("out.epd");
    let engine = fixture("xboard-random").display().to_string();
    let o = verb(
        "analyse",
        &input,
        &out,
        &engine,
        &["--protocol", "xboard", "--depth", "1"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    for r in records(Path::new(&out)) {
        let pos = position_of_record(&r).unwrap();
        let pv = pv_of(&r);
        assert_eq!(pv.len(), 1, "{}", r.to_canonical());
        replay(&pos, &pv).unwrap();
        // Its thinking line (`post`) gives ce, acd and acn.
        let text = r.to_canonical();
        assert!(
            text.contains("ce 17;") && text.contains("acd 1;") && text.contains("acn 42;"),
            "{text}"
        );
    }
    let o = verb(
        "analyse",
        &input,
        &out,
        &engine,
        &["--protocol", "xboard", "--nodes", "5"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("no node limit"),
        "{}",
        text(&o.stderr)
    );
}

use crate::common::tool::stockfish;

/// Win At Chess (Reinfeld) 1, 3, 4, 5 and Bratko-Kopec 1, 2: easy at a
/// short time; and a quiet position with an am.
const CLASSICS: &str = "\
2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";
5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - bm Rg3; id \"WAC.003\";
r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - bm Qxh7+; id \"WAC.004\";
5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - bm Qc4+; id \"WAC.005\";
1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";
3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - bm d5; id \"BK.02\";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - am Kd2 Ke2; id \"start\";
";

#[test]
fn stockfish_solves_classic_positions_with_legal_lines_and_real_mates() {
    let Some(sf) = stockfish() else { return };
    let f = Files::new();
    let input = f.write("classics.epd", CLASSICS);
    let solved = f.path("solved.epd");
    let o = verb(
        "solve",
        &input,
        &solved,
        &sf,
        &[
            "--option",
            "Threads=1",
            "--option",
            "Hash=16",
            "--movetime",
            "500",
            "--concurrency",
            "2",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let recs = records(Path::new(&solved));
    assert_eq!(recs.len(), 7);
    for r in &recs {
        let pos = position_of_record(r).unwrap();
        let pv = pv_of(r);
        assert!(!pv.is_empty(), "{}", r.to_canonical());
        replay(&pos, &pv).unwrap_or_else(|e| panic!("{e}: {}", r.to_canonical()));
        assert_eq!(r.op("pm").unwrap().operands[0].text(), pv[0]);
        assert!(r.has("acn") && r.has("acd") && r.has("ce"));
        // A mate score comes with a pv that mates.
        if let Some(Score::Mate(n)) = r.ce().unwrap().map(Score::from_ce)
            && n > 0
            && pv.len() == usize::try_from(2 * n - 1).unwrap()
        {
            assert!(mate_length(&pos, &pv).is_some(), "{}", r.to_canonical());
        }
    }
    let n_solved = recs.iter().filter(|r| r.has("Ar_solved_depth")).count();
    assert!(
        n_solved >= 6,
        "only {n_solved} solved: {}",
        text(&std::fs::read(&solved).unwrap())
    );

    let mates = f.path("mates.epd");
    let o = verb(
        "mate",
        &input,
        &mates,
        &sf,
        &[
            "--option",
            "Threads=1",
            "--moves",
            "3",
            "--upto",
            "--movetime",
            "1000",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let recs = records(Path::new(&mates));
    let found: Vec<&Record> = recs.iter().filter(|r| r.has("dm")).collect();
    // WAC.001, WAC.004 and WAC.005 are mates in 2.
    assert!(
        found.len() >= 3,
        "{}",
        text(&std::fs::read(&mates).unwrap())
    );
    for r in found {
        let pos = position_of_record(r).unwrap();
        let pv = pv_of(r);
        let dm: u32 = r.op("dm").unwrap().operands[0].text().parse().unwrap();
        assert_eq!(mate_length(&pos, &pv), Some(dm), "{}", r.to_canonical());
    }
}

#[test]
fn the_engine_bridge_replies_with_ce_pv_and_acd() {
    use argus::client::Action;
    use argus::client::engine::{
        Bridge, CommandLine, EngineLog, EngineSettings, Protocol, SearchLimits,
    };
    let settings = EngineSettings {
        command: CommandLine::parse(&fake("")).unwrap(),
        protocol: Protocol::Uci,
        options: Vec::new(),
        limits: SearchLimits::depth(2),
        margin: Duration::from_secs(5),
        depth_wait: Duration::from_secs(30),
        ponder: false,
        log: EngineLog::none(),
    };
    let mut bridge = Bridge::start(settings, None).unwrap();
    for cmd in ["reset", "inform", "respond"] {
        let actions = bridge.handle_line(&format!("{SCHOLAR} refcom {cmd};"));
        if cmd != "respond" {
            continue;
        }
        let reply = actions
            .iter()
            .find_map(|a| match a {
                Action::Reply(r) => Some(Record::parse(r).unwrap()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no reply: {actions:?}"));
        let text = reply.to_canonical();
        assert!(text.contains("sm Qxf7#;"), "{text}");
        assert!(text.contains("ce 32766;"), "{text}");
        assert!(text.contains("pv Qxf7#;"), "{text}");
        assert!(text.contains("acd 2;"), "{text}");
    }
}

/// Known mates in 1, 2 and 3, and a position with none.
fn known_mates() -> String {
    format!(
        "{SCHOLAR} id \"mate1\";\n\
         r6k/6pp/8/8/8/8/1Q6/1RR3K1 w - - id \"mate2\";\n\
         8/7k/8/8/8/8/R7/1R4K1 w - - id \"mate3\";\n\
         {START} id \"none\";\n"
    )
}

/// `argus epd mate` (the help's example) writes every mate Stockfish
/// finds: in "mate2" Stockfish answers `go mate 3` with `score mate 2
/// ... pv b2b8 a8b8`, a line cut short before the mate, which argus once
/// dropped silently; now argus's own search finishes it (`dm 2`, the whole
/// line in `pv`).
#[test]
fn epd_mate_proves_the_mates_stockfish_cuts_short() {
    let Some(sf) = stockfish() else { return };
    let f = Files::new();
    let input = f.write("mates.epd", &known_mates());
    let out = f.path("out.epd");
    let o = verb(
        "mate",
        &input,
        &out,
        &sf,
        &[
            "--option",
            "Threads=1",
            "--moves",
            "3",
            "--movetime",
            "1000",
        ],
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("3 solved"), "{err}");
    assert!(!err.contains("unproven"), "{err}");
    let recs = records(Path::new(&out));
    let all = text(&std::fs::read(&out).unwrap());
    for (id, dm) in [("mate1", 1), ("mate2", 2), ("mate3", 3)] {
        let r = recs
            .iter()
            .find(|r| r.id().unwrap() == Some(id))
            .unwrap_or_else(|| panic!("{id} missing:\n{all}"));
        let want = dm.to_string();
        assert_eq!(
            r.op("dm").map(|o| o.operands[0].text()),
            Some(want.as_str()),
            "{all}"
        );
        let pos = position_of_record(r).unwrap();
        assert_eq!(mate_length(&pos, &pv_of(r)), Some(dm), "{all}");
        assert!(!r.has("Ar_unproven"), "{all}");
    }
    let none = recs
        .iter()
        .find(|r| r.id().unwrap() == Some("none"))
        .unwrap();
    assert!(!none.has("dm"), "{all}");
}

/// python3 with python-chess, if installed (skipped otherwise, saying
/// so): its `Board.from_epd` is the common EPD reader.
fn python_chess() -> bool {
    crate::common::python_chess::available()
}

/// What argus writes (analyse, solve with solved and missed records, mate,
/// an engine fault) loads in python-chess's `Board.from_epd`, and argus's
/// own opcodes are private ones (upper-case first letter, spec 5.1).
/// `ar_solved 5 2 502;` (three numbers in one operation) made it fail.
#[test]
fn python_chess_reads_every_file_argus_writes() {
    if !python_chess() {
        return;
    }
    let f = Files::new();
    let input = f.write("in.epd", &suite());
    let mates = f.write("mates.epd", &known_mates());
    let mut outputs = Vec::new();
    for (name, verb_name, file, rest) in [
        ("analysed.epd", "analyse", &input, vec!["--depth", "2"]),
        ("solved.epd", "solve", &input, vec!["--nodes", "100"]),
        (
            "mated.epd",
            "mate",
            &mates,
            vec!["--moves", "1", "--depth", "2"],
        ),
    ] {
        let out = f.path(name);
        let o = verb(verb_name, file, &out, &fake(""), &rest);
        assert!(o.status.code().is_some(), "{}", text(&o.stderr));
        outputs.push(out);
    }
    // A record whose engine fails (it crashes after its first search).
    let out = f.path("fault.epd");
    let once = f.path("crash.once");
    let engine = fake(&format!("--crash-after 1 --once {once}"));
    let o = verb("analyse", &input, &out, &engine, &["--movetime", "50"]);
    assert!(o.status.code().is_some(), "{}", text(&o.stderr));
    outputs.push(out);
    let all: String = outputs
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    for must in ["Ar_ms", "Ar_solved_depth", "Ar_missed", "Ar_fault", "dm 1"] {
        assert!(all.contains(must), "no {must} in:\n{all}");
    }
    let script = "import sys, chess\n\
                  n = 0\n\
                  for path in sys.argv[1:]:\n\
                  \x20   for line in open(path):\n\
                  \x20       line = line.strip()\n\
                  \x20       if not line or line == 'garbage line':\n\
                  \x20           continue\n\
                  \x20       board, ops = chess.Board.from_epd(line)\n\
                  \x20       n += 1\n\
                  print(n, 'records read')\n";
    let o = crate::common::python_chess::run(script, &outputs);
    assert!(
        o.status.success(),
        "python-chess could not read argus's output: {}\n{all}",
        text(&o.stderr)
    );
    for r in all.lines().filter_map(|l| Record::parse(l).ok()) {
        for op in &r.ops {
            assert!(
                !op.opcode.starts_with("ar_"),
                "a private opcode in lower case: {}",
                r.to_canonical()
            );
        }
    }
}
