//! Whether an outside program a test needs (socat, tmux, an engine) is there, and the
//! one rule for when it is not: print `SKIPPED: PROGRAM not installed
//! (TEST)` and let the test return, unless the environment variable that
//! requires the program is `1`, in which case the test fails.
//!
//! Used by `common`, `tmux` and the engine tests.

use std::process::{Command, Stdio};

/// Whether `program -V` runs and succeeds.
pub fn available(program: &str) -> bool {
    Command::new(program)
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// Returns `true` if the test may go on (`is_available`); otherwise prints
/// the SKIPPED line and returns `false`, or panics when `require_var=1`.
/// The test's name is the current thread's, which the test harness sets.
pub fn or_skip(program: &str, is_available: bool, require_var: &str) -> bool {
    if is_available {
        return true;
    }
    let current = std::thread::current();
    let test = current.name().unwrap_or("test");
    if std::env::var(require_var).is_ok_and(|v| v == "1") {
        panic!("{test}: {program} is not installed but {require_var}=1");
    }
    println!("SKIPPED: {program} not installed ({test})");
    false
}

/// The first of `candidates` that starts (`program ARGS`, its standard
/// input closed), or the one rule for a missing program when none does.
fn installed(
    candidates: &[&str],
    args: &[&str],
    program: &str,
    require_var: &str,
) -> Option<String> {
    let found = candidates.iter().find(|p| {
        Command::new(p)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok()
    });
    match found {
        Some(p) => Some(p.to_string()),
        None => {
            or_skip(program, false, require_var);
            None
        }
    }
}

/// Stockfish (`stockfish` on the path, or Debian's /usr/games/stockfish);
/// `None` with the SKIPPED line when it is not installed, a failure with
/// `ARGUS_REQUIRE_STOCKFISH=1` (as `.ci/run` sets).
pub fn stockfish() -> Option<String> {
    installed(
        &["stockfish", "/usr/games/stockfish"],
        &[],
        "stockfish",
        "ARGUS_REQUIRE_STOCKFISH",
    )
}

/// pgn-extract (`pgn-extract` on the path, or Debian's
/// /usr/games/pgn-extract), a common checker of PGN files; `None` with the
/// SKIPPED line when it is not installed, a failure with
/// `ARGUS_REQUIRE_PGN_EXTRACT=1` (as `.ci/run` sets).
pub fn pgn_extract() -> Option<String> {
    installed(
        &["pgn-extract", "/usr/games/pgn-extract"],
        &["--version"],
        "pgn-extract",
        "ARGUS_REQUIRE_PGN_EXTRACT",
    )
}

/// GNU Chess as an XBoard engine (`gnuchess --xboard`); `None` with the
/// SKIPPED line when it is not installed, a failure with
/// `ARGUS_REQUIRE_GNUCHESS=1`.
pub fn gnuchess() -> Option<String> {
    installed(
        &["gnuchess", "/usr/games/gnuchess"],
        &["--version"],
        "gnuchess",
        "ARGUS_REQUIRE_GNUCHESS",
    )
    .map(|p| format!("{p} --xboard"))
}

/// A program Debian installs in /usr/games (`hoichess`, `toga2`), by its
/// name on the path or there; `None` with the SKIPPED line when it is not
/// installed, a failure when `require_var` is `1`.
pub fn games_program(name: &str, require_var: &str) -> Option<String> {
    let in_games = format!("/usr/games/{name}");
    installed(&[name, &in_games], &[], name, require_var)
}
