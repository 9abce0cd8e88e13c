//! A board view whose terminal goes away, and signals while the board is
//! shown (and one for `argus watch`'s board): `argus referee` with its board in tmux, the tmux server killed
//! (every pane's terminal hangs up) or the process sent SIGTERM / SIGINT.
//! The process must be gone soon after (a bound on "gone", polled; not a
//! measure of speed), with exit status 3 (ended early, as the help says
//! for SIGHUP) and its journal kept, ending with the session's end.
//!
//! The shell in the pane traps SIGHUP (so it lives on to write the exit
//! status) and does not pass it on: argus learns of the hang-up from its
//! terminal alone.

use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

use crate::tmux::Tmux;

/// Long enough for a debug build on a busy two-core machine to start.
const START: Duration = Duration::from_secs(30);
/// How soon argus must be gone once its terminal hung up or a signal came.
const GONE: Duration = Duration::from_secs(2);
/// How long the pane's shell may take to write the exit status.
const STATUS: Duration = Duration::from_secs(10);

fn text(p: &Path) -> &str {
    let s = p.to_str().expect("UTF-8 path");
    assert!(!s.contains('\''), "path with a quote: {s}");
    s
}

/// The process id of argus, the pane's shell's child.
fn argus_in_pane(tmux: &Tmux) -> u32 {
    let shell = tmux.pane_pid();
    let children = format!("/proc/{shell}/task/{shell}/children");
    std::fs::read_to_string(&children)
        .unwrap_or_else(|e| panic!("{children}: {e}"))
        .split_whitespace()
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no argus under the pane's shell {shell}"))
}

/// `argus referee` showing its board in tmux, waiting for two clients
/// that never come.
struct Board {
    tmux: Tmux,
    /// argus's process id (the pane's shell's child).
    pid: u32,
    /// The pane's shell, which becomes `sleep 600` once argus has ended
    /// (keeping the pane, and its screen, for the checks): ended by drop,
    /// as the hang-up leaves it running with no terminal to end it.
    shell: u32,
    status: PathBuf,
    logs: PathBuf,
    _cwd: tempfile::TempDir,
}

impl Board {
    fn start() -> Board {
        let cwd = tempfile::tempdir().expect("working directory");
        let status = cwd.path().join("status");
        let logs = cwd.path().join("logs");
        let command = format!(
            "trap true HUP; '{bin}' referee --listen {addr} --log-dir '{logs}'; \
             echo $? > '{status}'; exec sleep 600",
            addr = crate::common::free_port(),
            bin = text(&crate::common::argus_bin()),
            logs = text(&logs),
            status = text(&status),
        );
        let tmux = Tmux::start(120, 40, cwd.path(), &command);
        tmux.wait_for("the board", START, |s| {
            s.contains("Moves") && s.contains("Waiting for the clients to sign on")
        });
        let shell = tmux.pane_pid();
        let pid = argus_in_pane(&tmux);
        Board {
            tmux,
            pid,
            shell,
            status,
            logs,
            _cwd: cwd,
        }
    }

    /// Waits (at most [`GONE`]) for argus to be gone; panics, saying what
    /// it is doing, if it is still there.
    fn expect_gone(&self, after: &str) {
        let stat = format!("/proc/{}/stat", self.pid);
        let deadline = Instant::now() + GONE;
        loop {
            // Gone, or a zombie its shell has yet to reap.
            match std::fs::read_to_string(&stat) {
                Err(_) => return,
                Ok(s)
                    if s.rsplit(')')
                        .next()
                        .is_some_and(|r| r.trim_start().starts_with('Z')) =>
                {
                    return;
                }
                Ok(s) if Instant::now() >= deadline => {
                    panic!(
                        "argus (pid {}) still runs {GONE:?} after {after}: {s}",
                        self.pid
                    )
                }
                Ok(_) => thread::sleep(Duration::from_millis(50)),
            }
        }
    }

    /// The exit status the pane's shell wrote.
    fn exit_status(&self) -> String {
        let deadline = Instant::now() + STATUS;
        loop {
            if let Ok(s) = std::fs::read_to_string(&self.status)
                && s.ends_with('\n')
            {
                return s.trim().to_string();
            }
            assert!(Instant::now() < deadline, "no exit status written");
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// The match's journal is there and its last line is the session's
    /// end: the note that the match was stopped (`what`: the signal's
    /// name, or the lost terminal's).
    fn expect_journal_kept(&self, what: &str) {
        let path = self.logs.join("tournament.journal");
        let journal =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let last = journal.lines().last().unwrap_or_default();
        // The note's words are one token: blanks escaped.
        let what = what.replace(' ', "\\x20");
        assert!(
            last.starts_with("note ")
                && last.contains(&what)
                && last.contains("stopped\\x20the\\x20match"),
            "the journal does not end with the session's end:\n{journal}"
        );
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &self.shell.to_string()])
            .stderr(std::process::Stdio::null())
            .status();
    }
}

#[test]
fn a_board_whose_terminal_hangs_up_ends_as_for_sighup() {
    skip_unless_tmux!();
    let board = Board::start();
    board.tmux.kill_server();
    board.expect_gone("its terminal hung up");
    assert_eq!(board.exit_status(), "3", "exit status after the hang-up");
    board.expect_journal_kept("the terminal hung up");
}

#[test]
fn sigterm_and_sigint_end_a_shown_board() {
    skip_unless_tmux!();
    for signal in ["-TERM", "-INT"] {
        let board = Board::start();
        let killed = std::process::Command::new("kill")
            .args([signal, &board.pid.to_string()])
            .status()
            .expect("run kill");
        assert!(killed.success(), "kill {signal}");
        board.expect_gone(signal);
        assert_eq!(board.exit_status(), "3", "exit status after kill {signal}");
        board.expect_journal_kept(if signal == "-TERM" {
            "SIGTERM"
        } else {
            "Ctrl-C (SIGINT)"
        });
        assert!(
            !board.tmux.alternate_screen(),
            "still on the alternate screen after kill {signal}"
        );
    }
}

/// `argus watch` showing a match's board ends on SIGTERM with its
/// terminal put back (the signal's default action left it raw, on the
/// alternate screen).
#[test]
fn sigterm_ends_a_watched_board_with_the_terminal_put_back() {
    skip_unless_tmux!();
    let cwd = tempfile::tempdir().expect("working directory");
    let logs = cwd.path().join("logs");
    // A finished game's journal to watch: one game between two movers.
    let played = std::process::Command::new(crate::common::argus_bin())
        .args([
            "tournament",
            "mover:a",
            "mover:b",
            "--cycles",
            "1",
            "--headless",
        ])
        .arg("--log-dir")
        .arg(&logs)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run argus tournament");
    assert!(played.success(), "the tournament: {played}");
    let journal = logs.join("game-001").join("journal.log");
    assert!(journal.is_file(), "{}", journal.display());
    let status = cwd.path().join("status");
    let command = format!(
        "'{bin}' watch '{journal}'; echo $? > '{status}'; exec sleep 600",
        bin = text(&crate::common::argus_bin()),
        journal = text(&journal),
        status = text(&status),
    );
    let tmux = Tmux::start(120, 40, cwd.path(), &command);
    tmux.wait_for("the watched board", START, |s| s.contains("Moves"));
    assert!(
        tmux.alternate_screen(),
        "the board is on the alternate screen"
    );
    let pid = argus_in_pane(&tmux).to_string();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("run kill");
    assert!(killed.success());
    let deadline = Instant::now() + STATUS;
    while !status.is_file() {
        assert!(
            Instant::now() < deadline,
            "argus watch still runs after SIGTERM"
        );
        thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !tmux.alternate_screen(),
        "still on the alternate screen after SIGTERM"
    );
}
