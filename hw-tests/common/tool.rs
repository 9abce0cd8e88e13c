//! Whether an outside program a test needs (socat, tmux) is there, and the
//! one rule for when it is not: print `SKIPPED: PROGRAM not installed
//! (TEST)` and let the test return, unless the environment variable that
//! requires the program is `1`, in which case the test fails.
//!
//! Shared by `common` and `tmux` (the latter includes this file by path).

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
