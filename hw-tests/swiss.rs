//! `argus swiss` end to end, as an arbiter runs it: `check` on tournaments
//! generated and paired by bbpPairings (hw-tests/fixtures/swiss, where they
//! came from is in its README), `pair` against bbpPairings' own output for
//! the next round, a tampered round reported, a malformed file refused with
//! its line number.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::argus_bin;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("hw-tests/fixtures/swiss")
        .join(name)
}

fn swiss(args: &[&str]) -> Output {
    Command::new(argus_bin())
        .arg("swiss")
        .args(args)
        .output()
        .expect("argus runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn swiss_check_agrees_with_bbppairings_in_every_round() {
    for (name, rounds) in [
        ("bbp-24-players-seed-2026.trf", 9),
        ("bbp-63-players-seed-32.trf", 11),
    ] {
        let path = fixture(name);
        let out = swiss(&["check", path.to_str().expect("a UTF-8 path")]);
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {stdout}{}",
            text(&out.stderr)
        );
        assert!(
            stdout.ends_with(&format!("{rounds} rounds checked, 0 differ\n")),
            "{stdout}"
        );
    }
}

#[test]
fn swiss_pair_prints_what_bbppairings_prints() {
    let path = fixture("bbp-63-players-seed-32-after-6.trf");
    let expected = std::fs::read_to_string(fixture("bbp-63-players-seed-32-round-7.txt"))
        .expect("the fixture");
    let out = swiss(&["pair", path.to_str().expect("a UTF-8 path")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), expected);
    // --output writes the same to a file.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("round7.txt");
    let out = swiss(&[
        "pair",
        path.to_str().expect("a UTF-8 path"),
        "--output",
        file.to_str().expect("UTF-8"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&file).expect("written"), expected);
}

/// The file with round `round`'s colours swapped on the board of player
/// `player` (both lines changed, so the file stays consistent).
fn swap_colours(trf: &str, round: usize, player: usize) -> String {
    let at = 91 + 10 * (round - 1);
    let lines: Vec<String> = trf.split('\r').map(str::to_string).collect();
    let line_of = |id: usize| {
        lines
            .iter()
            .position(|l| l.starts_with("001") && l[4..8].trim() == id.to_string())
            .expect("the player's line")
    };
    let mine = line_of(player);
    let opponent: usize = lines[mine][at..at + 4].trim().parse().expect("an opponent");
    let mut out = lines.clone();
    for index in [mine, line_of(opponent)] {
        let mut chars: Vec<char> = out[index].chars().collect();
        chars[at + 5] = if chars[at + 5] == 'w' { 'b' } else { 'w' };
        out[index] = chars.into_iter().collect();
    }
    out.join("\r")
}

#[test]
fn swiss_check_reports_a_round_paired_otherwise() {
    let original =
        std::fs::read_to_string(fixture("bbp-24-players-seed-2026.trf")).expect("the fixture");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let tampered = dir.path().join("tampered.trf");
    std::fs::write(&tampered, swap_colours(&original, 3, 1)).expect("written");
    let out = swiss(&["check", tampered.to_str().expect("UTF-8")]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("round 3: the pairing differs"), "{stdout}");
    assert!(
        !stdout.contains("round 1:") && !stdout.contains("round 2:"),
        "{stdout}"
    );
}

#[test]
fn swiss_refuses_a_malformed_file_with_its_line() {
    let original =
        std::fs::read_to_string(fixture("bbp-24-players-seed-2026.trf")).expect("the fixture");
    let mut lines: Vec<&str> = original.split('\r').collect();
    lines.insert(3, "ZZZ not a TRF line");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bad = dir.path().join("bad.trf");
    std::fs::write(&bad, lines.join("\r")).expect("written");
    for verb in ["check", "pair"] {
        let out = swiss(&[verb, bad.to_str().expect("UTF-8")]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{verb}: {stderr}");
        assert!(
            stderr.contains("line 4:") && stderr.contains("\"ZZZ\""),
            "{verb}: {stderr}"
        );
    }
}
