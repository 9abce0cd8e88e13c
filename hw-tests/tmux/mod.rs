//! A private tmux server for end-to-end tests of the terminal board: start
//! a command in a detached session of a given size, read the screen as a
//! user sees it, type keys, and wait (boundedly) for the screen to show
//! something. The server has its own socket in a temporary directory, so
//! tests running in parallel never meet, and it is killed when the
//! [`Tmux`] is dropped (also when a test fails and unwinds).
//!
//! Declared once, in `hw-tests/main.rs`, with `#[macro_use]`.

#![allow(dead_code)]

use crate::common::tool;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

/// How often the screen is looked at while waiting.
const POLL: Duration = Duration::from_millis(100);

/// Whether `tmux` can be run (asked once per test run).
pub fn tmux_available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| tool::available("tmux"))
}

/// Returns `true` if the test may go on. Without tmux prints
/// `SKIPPED: tmux not installed (TEST)` and returns `false`, unless the
/// environment has `ARGUS_REQUIRE_TMUX=1`, in which case it panics.
pub fn tmux_or_skip() -> bool {
    tool::or_skip("tmux", tmux_available(), "ARGUS_REQUIRE_TMUX")
}

/// Returns from the calling test (after printing `SKIPPED: tmux not
/// installed`) when tmux is missing; panics instead when
/// `ARGUS_REQUIRE_TMUX=1`.
#[macro_export]
macro_rules! skip_unless_tmux {
    () => {
        if !$crate::tmux::tmux_or_skip() {
            return;
        }
    };
}

/// A detached tmux session running one shell command in one pane, on a
/// private server.
pub struct Tmux {
    /// Holds the socket (and whatever the test puts there).
    dir: tempfile::TempDir,
    socket: PathBuf,
}

impl Tmux {
    /// Starts `command` (run by `sh -c`) in a new `width` x `height`
    /// session, in the working directory `cwd`. No user configuration is
    /// read. Panics (with tmux's message) if the session cannot start.
    pub fn start(width: u16, height: u16, cwd: &Path, command: &str) -> Tmux {
        let dir = tempfile::Builder::new()
            .prefix("argus-tmux-")
            .tempdir()
            .expect("temporary directory for the tmux socket");
        let socket = dir.path().join("s");
        let t = Tmux { dir, socket };
        let (w, h) = (width.to_string(), height.to_string());
        let cwd = cwd.to_str().expect("UTF-8 working directory");
        t.run_ok(&[
            "new-session",
            "-d",
            "-x",
            &w,
            "-y",
            &h,
            "-c",
            cwd,
            "sh",
            "-c",
            command,
        ]);
        t
    }

    /// The directory holding the socket; free for the test's own files.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// Runs a tmux command on this server.
    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-f")
            .arg("/dev/null")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot run tmux {args:?}: {e}"))
    }

    /// Runs a tmux command and returns its stdout; panics if it fails.
    fn run_ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "tmux {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The screen as text, one line per row (`capture-pane -p`).
    pub fn screen(&self) -> String {
        self.run_ok(&["capture-pane", "-p"])
    }

    /// The screen with its colours as escape sequences (`capture-pane -p -e`).
    pub fn screen_with_colours(&self) -> String {
        self.run_ok(&["capture-pane", "-p", "-e"])
    }

    /// A pane format value, e.g. `#{alternate_on}`.
    pub fn format(&self, format: &str) -> String {
        self.run_ok(&["display-message", "-p", format])
            .trim()
            .to_string()
    }

    /// Whether the pane shows the alternate screen (a full-screen program).
    pub fn alternate_screen(&self) -> bool {
        self.format("#{alternate_on}") == "1"
    }

    /// Types keys, in tmux's names (`q`, `C-c`, `Escape`, `Enter`).
    pub fn send_keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys"];
        args.extend_from_slice(keys);
        self.run_ok(&args);
    }

    /// Types text literally.
    pub fn send_text(&self, text: &str) {
        self.run_ok(&["send-keys", "-l", text]);
    }

    /// Resizes the window (and so the pane and the program's terminal).
    pub fn resize(&self, width: u16, height: u16) {
        let (w, h) = (width.to_string(), height.to_string());
        self.run_ok(&["resize-window", "-x", &w, "-y", &h]);
    }

    /// The process id of the pane's command (the `sh -c` of [`Tmux::start`]).
    pub fn pane_pid(&self) -> u32 {
        let pid = self.format("#{pane_pid}");
        pid.parse()
            .unwrap_or_else(|e| panic!("pane_pid {pid:?}: {e}"))
    }

    /// Ends the tmux server now, as `tmux kill-server` does: every pane's
    /// terminal hangs up.
    pub fn kill_server(&self) {
        let _ = self.run(&["kill-server"]);
    }

    /// Looks at the screen every [`POLL`] until `ready` accepts it, and
    /// returns that screen; after `within`, panics saying what was awaited
    /// and showing the last screen.
    pub fn wait_for(&self, what: &str, within: Duration, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + within;
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            if Instant::now() >= deadline {
                panic!("waited {within:?} for {what}; the screen was:\n{screen}");
            }
            thread::sleep(POLL);
        }
    }

    /// Waits until `path` exists and is not empty, and returns its text;
    /// panics after `within`, showing the screen.
    pub fn wait_for_file(&self, path: &Path, within: Duration) -> String {
        let deadline = Instant::now() + within;
        loop {
            if let Ok(text) = std::fs::read_to_string(path)
                && !text.is_empty()
            {
                return text;
            }
            if Instant::now() >= deadline {
                panic!(
                    "waited {within:?} for {}; the screen was:\n{}",
                    path.display(),
                    self.screen()
                );
            }
            thread::sleep(POLL);
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        // Ends the program under test too (its terminal goes away).
        let _ = self.run(&["kill-server"]);
    }
}
