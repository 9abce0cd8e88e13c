//! python-chess, the common reader of chess files, reading what argus
//! writes: whether it is installed (skipped otherwise, saying so, unless
//! `ARGUS_REQUIRE_PYTHON_CHESS=1`), and the PGN games of files as it reads
//! them, checked for the tags and the closing comment testers' tools read.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Whether python3 with python-chess is there; otherwise says `SKIPPED`
/// and returns false (or fails under `ARGUS_REQUIRE_PYTHON_CHESS=1`).
pub fn available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import chess"])
        .stdin(Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success());
    crate::common::tool::or_skip(
        "python3 with python-chess",
        ok,
        "ARGUS_REQUIRE_PYTHON_CHESS",
    )
}

/// Runs the Python `script` (`python3 -c`) with `files` as its arguments.
pub fn run<F: AsRef<OsStr>>(script: &str, files: &[F]) -> Output {
    Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(files)
        .stdin(Stdio::null())
        .output()
        .expect("python3 runs")
}

/// One game as python-chess reads it.
#[derive(Debug, Clone)]
pub struct PyGame {
    /// The file it was read from.
    pub file: String,
    /// What python-chess found wrong in it (`Game.errors`).
    pub errors: Vec<String>,
    /// Its tags, in order.
    pub headers: Vec<(String, String)>,
    /// The moves of its main line.
    pub plies: usize,
    /// The comment after its last move (`game.end().comment`, which
    /// python-chess joins from every comment there), without the
    /// `[%clk ...]` and `[%emt ...]` commands.
    pub end_comment: String,
}

impl PyGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

const READ: &str = "import sys, json, re, chess.pgn\n\
out = []\n\
for path in sys.argv[1:]:\n\
\x20   with open(path) as f:\n\
\x20       while True:\n\
\x20           g = chess.pgn.read_game(f)\n\
\x20           if g is None:\n\
\x20               break\n\
\x20           out.append({'file': path, 'errors': [str(e) for e in g.errors],\n\
\x20                       'headers': list(g.headers.items()),\n\
\x20                       'plies': len(list(g.mainline_moves())),\n\
\x20                       'end_comment': re.sub(r'\\[%[^]]*\\]', '', g.end().comment)})\n\
print(json.dumps(out))\n";

/// Every game of `files` as python-chess reads them, in file order.
pub fn read_games(files: &[&Path]) -> Vec<PyGame> {
    let o = run(READ, files);
    assert!(
        o.status.success(),
        "python-chess could not read {files:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("the reader's JSON");
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .into_iter()
            .flatten()
            .map(|s| s.as_str().unwrap_or_default().to_string())
            .collect()
    };
    v.as_array()
        .expect("a list of games")
        .iter()
        .map(|g| PyGame {
            file: g["file"].as_str().unwrap_or_default().to_string(),
            errors: strings(&g["errors"]),
            headers: g["headers"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|kv| {
                    let kv = strings(kv);
                    (kv[0].clone(), kv[1].clone())
                })
                .collect(),
            plies: g["plies"].as_u64().unwrap_or_default() as usize,
            end_comment: g["end_comment"].as_str().unwrap_or_default().to_string(),
        })
        .collect()
}

/// Seconds since 1970 of a `GameStartTime` / `GameEndTime` value as
/// fastchess writes it, `YYYY-MM-DDTHH:MM:SS +hhmm`, with its offset
/// (`+hhmm`); panics on any other form.
pub fn game_time(v: &str) -> (i64, String) {
    let bad = || -> ! { panic!("not a fastchess time: {v:?}") };
    let (local, offset) = v.split_once(' ').unwrap_or_else(|| bad());
    let b = local.as_bytes();
    if b.len() != 19 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' {
        bad();
    }
    let n = |r: std::ops::Range<usize>| -> i64 { local[r].parse().unwrap_or_else(|_| bad()) };
    let (y, mo, d, h, mi, s) = (n(0..4), n(5..7), n(8..10), n(11..13), n(14..16), n(17..19));
    let ob = offset.as_bytes();
    if ob.len() != 5 || !(ob[0] == b'+' || ob[0] == b'-') {
        bad();
    }
    let off_min: i64 = offset[1..3].parse::<i64>().unwrap_or_else(|_| bad()) * 60
        + offset[3..5].parse::<i64>().unwrap_or_else(|_| bad());
    let off_min = if ob[0] == b'-' { -off_min } else { off_min };
    // Days from the civil date (Howard Hinnant's days_from_civil).
    let y = if mo <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (mo + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let local_secs = days * 86_400 + h * 3600 + mi * 60 + s;
    (local_secs - off_min * 60, offset.to_string())
}

/// Seconds of a `GameDuration` value (`HH:MM:SS`).
pub fn duration(v: &str) -> i64 {
    let parts: Vec<i64> = v
        .split(':')
        .map(|p| p.parse().unwrap_or_else(|_| panic!("not HH:MM:SS: {v:?}")))
        .collect();
    assert!(parts.len() == 3 && v.len() >= 8, "not HH:MM:SS: {v:?}");
    parts[0] * 3600 + parts[1] * 60 + parts[2]
}

/// Checks a finished game as testers' tools read it: no errors, a closing
/// comment on the last move, and `Termination`, `PlyCount` (the moves
/// read), `GameStartTime` and `GameEndTime` (with `offset`, the end not
/// before the start) and `GameDuration` (the end less the start, to the
/// second). Returns its closing comment, its white space made single
/// spaces (the PGN writer breaks a long comment across lines).
pub fn check_finished(g: &PyGame, offset: &str) -> String {
    let what = format!(
        "{} game {:?} - {:?}",
        g.file,
        g.tag("White"),
        g.tag("Black")
    );
    assert!(
        g.errors.is_empty(),
        "{what}: python-chess errors {:?}",
        g.errors
    );
    assert!(g.plies > 0, "{what}: no moves");
    assert!(!g.end_comment.is_empty(), "{what}: no closing comment");
    let tag = |name: &str| {
        g.tag(name)
            .unwrap_or_else(|| panic!("{what}: no {name} tag in {:?}", g.headers))
    };
    assert!(!tag("Termination").is_empty(), "{what}");
    assert_eq!(tag("PlyCount"), g.plies.to_string(), "{what}: PlyCount");
    let (start, start_off) = game_time(tag("GameStartTime"));
    let (end, end_off) = game_time(tag("GameEndTime"));
    assert_eq!(start_off, offset, "{what}: GameStartTime's offset");
    assert_eq!(end_off, offset, "{what}: GameEndTime's offset");
    assert!(end >= start, "{what}: ends before it starts");
    let d = duration(tag("GameDuration"));
    assert!(
        (d - (end - start)).abs() <= 1,
        "{what}: GameDuration {d} s, end - start {} s",
        end - start
    );
    g.end_comment
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}
