//! A child process of the test (the real `argus` binary) with its output
//! captured line by line, bounded waits, signals, and a kill on drop so a
//! failing test never leaves processes behind.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Most lines kept of each output stream; later lines are counted only.
const MAX_LINES: usize = 20_000;
/// How often waits look again.
const POLL: Duration = Duration::from_millis(20);

/// Lines captured from one stream.
#[derive(Debug, Default)]
struct Captured {
    lines: Vec<String>,
    dropped: usize,
}

type Shared = Arc<Mutex<Captured>>;

fn lock(c: &Shared) -> std::sync::MutexGuard<'_, Captured> {
    // A reader thread never panics while holding the lock, but a poisoned
    // lock must not hide the output of a failed test.
    c.lock().unwrap_or_else(|p| p.into_inner())
}

/// A running (or finished) child process with captured stdout and stderr.
/// Dropping it kills the process if it is still running.
pub struct Proc {
    name: String,
    args: Vec<String>,
    child: Child,
    status: Option<ExitStatus>,
    out: Shared,
    err: Shared,
    readers: Vec<JoinHandle<()>>,
}

impl Proc {
    /// Starts `program` with `args`; `name` labels it in messages
    /// (e.g. "referee", "client A"). Panics if it cannot be started.
    pub fn spawn(name: &str, program: &Path, args: &[String]) -> Proc {
        Proc::spawn_env(name, program, args, &[])
    }

    /// [`Proc::spawn`] with these variables added to its environment
    /// (`TZ`, for a known local time).
    pub fn spawn_env(name: &str, program: &Path, args: &[String], env: &[(&str, &str)]) -> Proc {
        let mut child = Command::new(program)
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name} ({}): {e}", program.display()));
        let out = Shared::default();
        let err = Shared::default();
        let mut readers = Vec::new();
        if let Some(s) = child.stdout.take() {
            readers.push(capture(s, Arc::clone(&out)));
        }
        if let Some(s) = child.stderr.take() {
            readers.push(capture(s, Arc::clone(&err)));
        }
        Proc {
            name: name.to_string(),
            args: args.to_vec(),
            child,
            status: None,
            out,
            err,
            readers,
        }
    }

    /// The label given at spawn.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The process id while it has not been reaped (`None` after).
    pub fn pid(&self) -> Option<u32> {
        self.status.is_none().then(|| self.child.id())
    }

    /// The lines printed on stdout so far.
    pub fn stdout_lines(&self) -> Vec<String> {
        lock(&self.out).lines.clone()
    }

    /// Everything printed on stderr so far, one line each.
    pub fn stderr_text(&self) -> String {
        lock(&self.err).lines.join("\n")
    }

    /// Whether the process is still running (reaps it if it has exited).
    pub fn running(&mut self) -> bool {
        if self.status.is_some() {
            return false;
        }
        match self.child.try_wait() {
            Ok(Some(s)) => {
                self.status = Some(s);
                false
            }
            Ok(None) => true,
            Err(_) => false,
        }
    }

    /// Waits for a stdout line that `pred` accepts and returns it; panics
    /// naming `what` (with the output so far) after `within`, or as soon as
    /// the process has exited without printing it.
    pub fn wait_stdout(
        &mut self,
        within: Duration,
        what: &str,
        pred: impl Fn(&str) -> bool,
    ) -> String {
        let deadline = Instant::now() + within;
        loop {
            if let Some(l) = lock(&self.out).lines.iter().find(|l| pred(l)) {
                return l.clone();
            }
            if !self.running() {
                // Its last lines may still be in the pipe.
                self.join_readers();
                if let Some(l) = lock(&self.out).lines.iter().find(|l| pred(l)) {
                    return l.clone();
                }
                panic!(
                    "{} exited without printing {what}\n{}",
                    self.name,
                    self.describe()
                );
            }
            if Instant::now() >= deadline {
                panic!(
                    "{} printed no {what} within {within:?}\n{}",
                    self.name,
                    self.describe()
                );
            }
            std::thread::sleep(POLL);
        }
    }

    /// Waits for the process to exit and returns its exit code. After
    /// `within` it is killed and the test panics; a death by signal panics
    /// too. Either panic shows the process's output.
    pub fn wait_exit(&mut self, within: Duration) -> i32 {
        let deadline = Instant::now() + within;
        while self.running() {
            if Instant::now() >= deadline {
                self.kill();
                panic!(
                    "{} did not exit within {within:?} (killed)\n{}",
                    self.name,
                    self.describe()
                );
            }
            std::thread::sleep(POLL);
        }
        self.join_readers();
        match self.status.and_then(|s| s.code()) {
            Some(code) => code,
            None => panic!(
                "{} was ended by a signal ({:?})\n{}",
                self.name,
                self.status,
                self.describe()
            ),
        }
    }

    /// Kills the process (SIGKILL on Unix) and reaps it.
    pub fn kill(&mut self) {
        if self.running() {
            let _ = self.child.kill();
            if let Ok(s) = self.child.wait() {
                self.status = Some(s);
            }
        }
    }

    /// Sends SIGINT (what Ctrl-C sends) if the process is still running.
    #[cfg(unix)]
    pub fn interrupt(&mut self) {
        if !self.running() {
            return; // never signal a pid that may have been reused
        }
        let pid = self.child.id().to_string();
        let ok = Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "cannot send SIGINT to {} (pid {pid})", self.name);
    }

    /// The command line, exit status and output, for failure messages.
    pub fn describe(&self) -> String {
        let out = lock(&self.out);
        let err = lock(&self.err);
        let more = |c: &Captured| {
            if c.dropped > 0 {
                format!("\n  ({} more lines not kept)", c.dropped)
            } else {
                String::new()
            }
        };
        format!(
            "--- {} (argus {}), status {:?}\n  stdout:\n    {}{}\n  stderr:\n    {}{}",
            self.name,
            self.args.join(" "),
            self.status,
            out.lines.join("\n    "),
            more(&out),
            err.lines.join("\n    "),
            more(&err),
        )
    }

    fn join_readers(&mut self) {
        // The pipes close when the process (the only writer) is gone.
        for r in self.readers.drain(..) {
            let _ = r.join();
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Reads `stream` line by line into `into` until it closes.
fn capture(stream: impl Read + Send + 'static, into: Shared) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stream);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf)
                        .trim_end_matches(['\r', '\n'])
                        .to_string();
                    let mut c = lock(&into);
                    if c.lines.len() < MAX_LINES {
                        c.lines.push(line);
                    } else {
                        c.dropped += 1;
                    }
                }
            }
        }
    })
}

/// When a test is failing, prints what `procs` said and the referee's
/// `log`: call it from a test rig's `Drop`.
pub fn describe_if_panicking<'a>(procs: impl Iterator<Item = &'a Proc>, log: &str) {
    if std::thread::panicking() {
        for p in procs {
            eprintln!("{}", p.describe());
        }
        eprintln!("--- argus.log:\n{log}");
    }
}
