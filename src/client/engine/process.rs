//! The engine as a child process: started from a command line, spoken to
//! on its standard input, heard on its standard output (and standard
//! error, which is only logged and remembered for fault reports). Two
//! reader threads turn the output into lines; lines are capped in length
//! and the channel is bounded, so an engine that floods cannot grow the
//! bridge's memory without limit.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, TryRecvError, bounded};

use super::log::{Dir, EngineLog};

/// Longest line kept from an engine; the rest of a longer line is dropped.
pub const MAX_ENGINE_LINE: usize = 16 * 1024;
/// Lines from the engine waiting to be read, at most (the reader thread
/// then waits, and so does the engine).
const QUEUE: usize = 4096;
/// Output lines remembered for a fault report.
pub const RECENT_LINES: usize = 12;
/// How long a quitting engine gets before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);
/// How long an engine told to stop (the game ended while it thought) gets
/// to answer before it counts as hung.
pub const STOP_WAIT: Duration = Duration::from_secs(2);

/// The longest [`wait_read`] waits for the engine to read a line.
pub const PACE_LIMIT: Duration = Duration::from_millis(100);
/// [`wait_read`]'s first look again, doubled each time up to
/// [`PACE_STEP_MAX`]: an engine with a reader thread has the line within
/// tens of microseconds, and a whole millisecond asleep every time cost
/// Stockfish at depth 1 more than half of each move.
const PACE_STEP: Duration = Duration::from_micros(20);
/// How many times [`wait_read`] first only yields the core (the engine's
/// reader thread may be waiting for it) before it sleeps: a sleep lasts
/// at least the timer slack (50 µs), more than the engine needs.
const PACE_YIELDS: u32 = 20;
/// [`wait_read`]'s longest step.
const PACE_STEP_MAX: Duration = Duration::from_millis(1);

/// Waits until the engine has read everything sent to it (nothing is left
/// in its input pipe), at most [`PACE_LIMIT`], so that each line arrives in
/// a read of its own: called before a line is written, so the last line of
/// a burst (`go`) costs no wait. GNU Chess 6.2.7 reads its input with
/// `select` and stdio: of several lines that came in one read it handles
/// the first and leaves the others in its buffer until more input wakes
/// it, so lines sent back to back fall ever further behind (seen on a
/// loaded machine: its `go` never reached it). An engine with a reader
/// thread (every UCI engine) has read the line by the first or second look.
#[cfg(unix)]
fn wait_read(stdin: &ChildStdin) {
    use std::os::fd::AsRawFd;
    let fd = stdin.as_raw_fd();
    let until = Instant::now() + PACE_LIMIT;
    let mut step = PACE_STEP;
    let mut looks = 0u32;
    loop {
        let mut unread: libc::c_int = 0;
        // SAFETY: FIONREAD writes one c_int through the pointer, which
        // points at a live c_int; the descriptor is the child's open stdin
        // (on Linux a pipe answers FIONREAD on its write end too).
        let r = unsafe { libc::ioctl(fd, libc::FIONREAD, &mut unread) };
        if r != 0 || unread <= 0 || Instant::now() >= until {
            return;
        }
        looks += 1;
        if looks <= PACE_YIELDS {
            thread::yield_now();
        } else {
            thread::sleep(step);
            step = (step * 2).min(PACE_STEP_MAX);
        }
    }
}

/// Elsewhere the lines go as they are.
#[cfg(not(unix))]
fn wait_read(_stdin: &ChildStdin) {}

/// A program and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLine {
    pub program: String,
    pub args: Vec<String>,
}

impl CommandLine {
    /// Splits `"CMD [ARGS]"` at white space; single or double quotes keep
    /// white space inside an argument, a backslash escapes the next
    /// character (outside single quotes).
    pub fn parse(s: &str) -> Result<CommandLine, CommandError> {
        let mut words = Vec::new();
        let mut cur = String::new();
        let mut in_word = false;
        let mut quote: Option<char> = None;
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            match (quote, c) {
                (Some('\''), '\'') => quote = None,
                (Some('\''), _) => cur.push(c),
                (_, '\\') => {
                    in_word = true;
                    match chars.next() {
                        Some(n) => cur.push(n),
                        None => return Err(CommandError::Backslash(s.to_string())),
                    }
                }
                (Some('"'), '"') => quote = None,
                (Some(_), _) => cur.push(c),
                (None, '"' | '\'') => {
                    quote = Some(c);
                    in_word = true;
                }
                (None, c) if c.is_whitespace() => {
                    if in_word {
                        words.push(std::mem::take(&mut cur));
                        in_word = false;
                    }
                }
                (None, _) => {
                    cur.push(c);
                    in_word = true;
                }
            }
        }
        if let Some(q) = quote {
            return Err(CommandError::Unclosed {
                text: s.to_string(),
                quote: q,
            });
        }
        if in_word {
            words.push(cur);
        }
        let mut words = words.into_iter();
        let program = words.next().ok_or(CommandError::Empty)?;
        Ok(CommandLine {
            program,
            args: words.collect(),
        })
    }
}

/// Why an engine command does not split into a program and its
/// arguments (the command as given).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("engine command {0:?} ends with a backslash")]
    Backslash(String),
    #[error("engine command {text:?} has an unclosed {quote} quote")]
    Unclosed { text: String, quote: char },
    #[error("the engine command is empty")]
    Empty,
}

/// What went wrong starting an engine or writing to it: which command,
/// and what the system said.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The program is not on the search path (or not at the path given).
    #[error("cannot start the engine {cmd}: no program {program:?} found")]
    NoProgram { cmd: String, program: String },
    #[error("cannot start the engine {cmd}: {error}")]
    Spawn { cmd: String, error: io::Error },
    #[error("cannot start a thread for the engine: {0}")]
    Thread(io::Error),
    #[error("the engine {0} started without its standard streams")]
    NoStreams(String),
    /// The engine's input was closed before (see `close_input`).
    #[error("the engine's input is closed")]
    InputClosed,
    #[error("cannot write to the engine: {0}")]
    Write(io::Error),
}

error_words!(CommandError, EngineError);

impl std::fmt::Display for CommandLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.program)?;
        for a in &self.args {
            write!(f, " {a}")?;
        }
        Ok(())
    }
}

/// What came from the engine, as its reader threads send it. Only
/// [`EngineProcess`] reads it; a caller waits on [`EngineProcess::output`]
/// to learn that something came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heard {
    /// A line of standard output, and when its reader thread read it.
    Out(String, Instant),
    Err(String),
    /// Standard output closed: the engine exited or closed it.
    Closed,
    /// Standard error closed.
    ErrClosed,
}

/// The result of waiting for the engine's next output line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    Line(String),
    /// Nothing before the deadline.
    Timeout,
    /// The engine's output ended; the text says how it exited, if known.
    Gone(String),
}

/// A running engine. Dropping it kills the process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    heard: Receiver<Heard>,
    recent: VecDeque<String>,
    log: EngineLog,
    closed: bool,
    /// When the last write to the engine began (after the wait for the
    /// line before it to be read).
    sent_at: Option<Instant>,
    /// When the reader thread read the last output line taken.
    line_at: Option<Instant>,
}

impl EngineProcess {
    /// Starts `cmd` with piped standard streams, its output line-buffered
    /// where the system can do that (see [`command`]). The error names the
    /// command and says what the system refused.
    pub fn spawn(cmd: &CommandLine, log: EngineLog) -> Result<EngineProcess, EngineError> {
        let (mut command, how) = command(cmd)?;
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| EngineError::Spawn {
                cmd: cmd.to_string(),
                error,
            })?;
        let (tx, rx) = bounded(QUEUE);
        let spawn_reader = |name: &str, r: Box<dyn Read + Send>, out: bool, tx: Sender<Heard>| {
            let log = log.clone();
            thread::Builder::new()
                .name(name.into())
                .spawn(move || read_lines(r, out, &tx, &log))
                .map_err(EngineError::Thread)
        };
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::NoStreams(cmd.to_string()));
        };
        let readers = spawn_reader("engine-out", Box::new(stdout), true, tx.clone())
            .and_then(|_| spawn_reader("engine-err", Box::new(stderr), false, tx));
        if let Err(e) = readers {
            let _ = child.kill();
            let _ = child.wait();
            return Err(e);
        }
        log.line(
            Dir::Note,
            &format!("started {cmd} (pid {}{how})", child.id()),
        );
        Ok(EngineProcess {
            child,
            stdin: Some(stdin),
            heard: rx,
            recent: VecDeque::new(),
            log,
            closed: false,
            sent_at: None,
            line_at: None,
        })
    }

    /// Sends one command line (a line end is added), logged.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.log.line(Dir::ToEngine, line);
        self.write_line(line)
    }

    /// Sends `lines` empty lines in one write, unlogged: the nudge that
    /// lets an engine which prints only when input arrives speak (see
    /// `xboard`).
    pub fn nudge(&mut self, lines: usize) -> Result<(), EngineError> {
        self.write_bytes(&vec![b'\n'; lines.max(1)])
    }

    /// Waits (up to [`PACE_LIMIT`]) until the engine has read the lines
    /// before (see [`wait_read`]), then writes `line` and a line end.
    fn write_line(&mut self, line: &str) -> Result<(), EngineError> {
        // One write: a line end written on its own wakes the engine twice.
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.write_bytes(&bytes)
    }

    /// [`write_line`](Self::write_line)'s wait, then `bytes` in one write.
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), EngineError> {
        let stdin = self.stdin.as_mut().ok_or(EngineError::InputClosed)?;
        wait_read(stdin);
        self.sent_at = Some(Instant::now());
        stdin
            .write_all(bytes)
            .and_then(|()| stdin.flush())
            .map_err(EngineError::Write)?;
        Ok(())
    }

    /// When the last write to the engine began (its `go`, once the lines
    /// before it were read): where a search's time starts.
    pub fn sent_at(&self) -> Option<Instant> {
        self.sent_at
    }

    /// The engine's own time for what it was asked at `asked` (from
    /// [`sent_at`](Self::sent_at)): from then to the moment the reader
    /// thread read the last output line taken (its `bestmove`), as
    /// fastchess times `go` to `bestmove` on the thread that reads the
    /// pipe. The hand-over from the reader thread to the bridge, and
    /// anything after, are not in it. `None` without a line read since.
    pub fn since(&self, asked: Option<Instant>) -> Option<Duration> {
        let (asked, read) = (asked?, self.line_at?);
        (read >= asked).then(|| read - asked)
    }

    /// A note of the bridge's in the engine log.
    pub fn log_note(&self, text: &str) {
        self.log.line(Dir::Note, text);
    }

    /// The next output line, waiting until `deadline` at most.
    pub fn next_line(&mut self, deadline: Instant) -> Next {
        loop {
            if self.closed {
                return Next::Gone(self.exit_description());
            }
            // Checked first, so that an engine that never stops talking
            // cannot hold the wait open.
            let now = Instant::now();
            if now >= deadline {
                return Next::Timeout;
            }
            let left = deadline.saturating_duration_since(now);
            match self.heard.recv_timeout(left) {
                Ok(h) => {
                    if let Some(next) = self.take(h) {
                        return next;
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Next::Timeout,
                Err(RecvTimeoutError::Disconnected) => self.closed = true,
            }
        }
    }

    /// Where the engine's output arrives: a caller that waits for the
    /// engine beside other channels selects on it (a line, its end), then
    /// takes what came with [`try_line`](Self::try_line).
    pub fn output(&self) -> &Receiver<Heard> {
        &self.heard
    }

    /// Reads the lines that have already arrived, without waiting, at most
    /// [`QUEUE`] of them (an engine that never stops talking cannot hold
    /// the bridge here), and hands each to `each`. Returns how the engine
    /// ended if its output is over.
    pub fn drain(&mut self, mut each: impl FnMut(&str)) -> Option<String> {
        for _ in 0..QUEUE {
            match self.try_line()? {
                Next::Line(l) => each(&l),
                Next::Gone(why) => return Some(why),
                Next::Timeout => return None,
            }
        }
        None
    }

    /// An output line that has already arrived, without waiting.
    pub fn try_line(&mut self) -> Option<Next> {
        loop {
            if self.closed {
                return Some(Next::Gone(self.exit_description()));
            }
            match self.heard.try_recv() {
                Ok(h) => {
                    if let Some(next) = self.take(h) {
                        return Some(next);
                    }
                }
                Err(TryRecvError::Empty) => return None,
                Err(TryRecvError::Disconnected) => self.closed = true,
            }
        }
    }

    fn take(&mut self, h: Heard) -> Option<Next> {
        match h {
            Heard::Out(s, at) => {
                self.line_at = Some(at);
                self.remember(s.clone());
                Some(Next::Line(s))
            }
            Heard::Err(s) => {
                self.remember(format!("(stderr) {s}"));
                None
            }
            Heard::Closed => {
                self.closed = true;
                None
            }
            Heard::ErrClosed => None,
        }
    }

    fn remember(&mut self, s: String) {
        if self.recent.len() == RECENT_LINES {
            self.recent.pop_front();
        }
        self.recent.push_back(s);
    }

    /// The engine's last output lines (standard error marked), oldest first.
    pub fn recent(&self) -> Vec<String> {
        self.recent.iter().cloned().collect()
    }

    /// How the process ended (waits a moment for it), or that it still
    /// runs. What it wrote to standard error before it ended is collected
    /// first (its last words), for a moment at most.
    fn exit_description(&mut self) -> String {
        let until = Instant::now() + QUIT_GRACE;
        let why = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break format!("the engine exited ({status})"),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(10)),
                Ok(None) => break "the engine closed its output but still runs".into(),
                Err(e) => break format!("the engine's output ended ({e})"),
            }
        };
        while let Ok(h) = self.heard.recv_deadline(until) {
            match h {
                Heard::Err(s) => self.remember(format!("(stderr) {s}")),
                Heard::ErrClosed => break,
                Heard::Out(..) | Heard::Closed => {}
            }
        }
        why
    }

    /// Sends `quit_command` (if any), gives the engine a moment to exit,
    /// then kills it.
    pub fn quit(mut self, quit_command: Option<&str>) {
        if let Some(q) = quit_command {
            let _ = self.send(q);
        }
        self.stdin = None;
        let until = Instant::now() + QUIT_GRACE;
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => thread::sleep(Duration::from_millis(10)),
            }
        }
        // Drop kills it.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            self.log.line(Dir::Note, "engine killed");
        }
        let _ = self.child.wait();
    }
}

/// The process to start for `cmd`, and how it is run (for the log). An
/// engine written in C whose output is a pipe has it held in a 4 KB buffer
/// unless it flushes after each line, as CECP asks; GNU Chess 6.2.7 does
/// not, and its moves sat in that buffer until its thinking output filled
/// it. Where coreutils' `stdbuf` is installed (GNU/Linux), the engine is
/// run under `stdbuf -oL`, which makes C's stdio write each line as it
/// ends (programs that do their own output, as Rust's or Python's, are not
/// affected). A terminal would do the same, but GNU Chess reads its input
/// with readline when its output is a terminal, and then loops. The
/// program is looked up first, so that a missing engine is reported as
/// such and not as a failure of `stdbuf`.
fn command(cmd: &CommandLine) -> Result<(Command, &'static str), EngineError> {
    let program = find_program(&cmd.program).ok_or_else(|| EngineError::NoProgram {
        cmd: cmd.to_string(),
        program: cmd.program.clone(),
    })?;
    match stdbuf() {
        Some(stdbuf) => {
            let mut c = Command::new(stdbuf);
            c.arg("-oL").arg(program).args(&cmd.args);
            Ok((c, ", output line-buffered by stdbuf -oL"))
        }
        None => {
            let mut c = Command::new(program);
            c.args(&cmd.args);
            Ok((c, ""))
        }
    }
}

/// `stdbuf` on the search path, looked up once.
fn stdbuf() -> Option<&'static std::path::Path> {
    static STDBUF: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    STDBUF
        .get_or_init(|| {
            if cfg!(target_os = "linux") {
                find_program("stdbuf")
            } else {
                None
            }
        })
        .as_deref()
}

/// A program as the system would find it: a name with a path separator as
/// it is (if it is a file), a bare name in the directories of `PATH`.
fn find_program(name: &str) -> Option<std::path::PathBuf> {
    let is_file = |p: &std::path::Path| p.is_file();
    let path = std::path::Path::new(name);
    if path.components().count() > 1 || path.is_absolute() {
        return is_file(path).then(|| path.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| is_file(p))
}

/// Reads lines until the stream ends; each is logged and sent on.
fn read_lines(r: Box<dyn Read + Send>, out: bool, tx: &Sender<Heard>, log: &EngineLog) {
    let mut r = BufReader::new(r);
    while let Ok(Some(line)) = read_bounded_line(&mut r, MAX_ENGINE_LINE) {
        // Stamped before the log's write: the engine's time ends here.
        let at = Instant::now();
        let dir = if out { Dir::FromEngine } else { Dir::Stderr };
        log.line(dir, &line);
        let heard = if out {
            Heard::Out(line, at)
        } else {
            Heard::Err(line)
        };
        if tx.send(heard).is_err() {
            return;
        }
    }
    let _ = tx.send(if out { Heard::Closed } else { Heard::ErrClosed });
}

/// One line (LF or CR LF ended; the end of the stream ends the last line),
/// at most `max` bytes kept, invalid UTF-8 replaced. `None` at the end of
/// the stream.
pub fn read_bounded_line(r: &mut impl BufRead, max: usize) -> std::io::Result<Option<String>> {
    let mut kept: Vec<u8> = Vec::new();
    let mut any = false;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            if !any {
                return Ok(None);
            }
            break;
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = max.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(buf.len());
        r.consume(used);
        if done.is_some() {
            break;
        }
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    Ok(Some(String::from_utf8_lossy(&kept).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_with_quotes() {
        let c = CommandLine::parse("  /usr/games/stockfish ").unwrap();
        assert_eq!(c.program, "/usr/games/stockfish");
        assert!(c.args.is_empty());
        let c = CommandLine::parse(r#"eng --name "Big Blue" 'a b' c\ d """#).unwrap();
        assert_eq!(c.program, "eng");
        assert_eq!(c.args, ["--name", "Big Blue", "a b", "c d", ""]);
        assert_eq!(CommandLine::parse("  "), Err(CommandError::Empty));
        assert_eq!(
            CommandLine::parse("eng \"x").unwrap_err().to_string(),
            "engine command \"eng \\\"x\" has an unclosed \" quote"
        );
        assert!(
            CommandLine::parse("eng x\\")
                .unwrap_err()
                .to_string()
                .ends_with("ends with a backslash")
        );
    }

    #[test]
    fn bounded_lines() {
        let mut r = BufReader::with_capacity(4, &b"ab\r\ncdefghij\nk"[..]);
        assert_eq!(read_bounded_line(&mut r, 5).unwrap().unwrap(), "ab");
        assert_eq!(read_bounded_line(&mut r, 5).unwrap().unwrap(), "cdefg");
        assert_eq!(read_bounded_line(&mut r, 5).unwrap().unwrap(), "k");
        assert_eq!(read_bounded_line(&mut r, 5).unwrap(), None);
        let mut r = BufReader::new(&b"\xff\n"[..]);
        assert_eq!(read_bounded_line(&mut r, 5).unwrap().unwrap(), "\u{fffd}");
    }

    #[cfg(unix)]
    #[test]
    fn a_process_is_heard_and_its_end_reported() {
        let cmd = CommandLine::parse("sh -c 'read x; echo got $x; echo bad >&2; exit 3'").unwrap();
        let mut p = EngineProcess::spawn(&cmd, EngineLog::none()).unwrap();
        p.send("hello").unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        assert_eq!(p.next_line(deadline), Next::Line("got hello".into()));
        match p.next_line(deadline) {
            Next::Gone(why) => assert!(why.contains('3'), "{why}"),
            other => panic!("{other:?}"),
        }
        assert!(p.recent().contains(&"got hello".to_string()));
    }

    /// The engine's time for a search ends when the reader thread read
    /// its answer, not when the bridge took it: the bridge here takes the
    /// line a second after it came, and the time is still about the
    /// engine's 0.2 s.
    #[cfg(unix)]
    #[test]
    fn the_engines_time_ends_when_its_line_is_read_not_when_it_is_taken() {
        let cmd = CommandLine::parse("sh -c 'read x; sleep 0.2; echo bestmove e2e4'").unwrap();
        let mut p = EngineProcess::spawn(&cmd, EngineLog::none()).unwrap();
        assert_eq!(p.since(p.sent_at()), None);
        p.send("go").unwrap();
        let asked = p.sent_at();
        thread::sleep(Duration::from_secs(1));
        let deadline = Instant::now() + Duration::from_secs(10);
        assert_eq!(p.next_line(deadline), Next::Line("bestmove e2e4".into()));
        let t = p.since(asked).unwrap();
        assert!(
            t >= Duration::from_millis(200) && t < Duration::from_secs(1),
            "{t:?}"
        );
        // Asked after the line was read: no time.
        assert_eq!(p.since(Some(Instant::now())), None);
    }

    /// Two lines sent back to back reach the engine in two reads: the
    /// second waits until the first was read. The "engine" reads once
    /// after 50 ms (one `dd` read), prints an empty line, and reads again;
    /// sent together, both lines would come in the first read.
    #[cfg(target_os = "linux")]
    #[test]
    fn lines_sent_back_to_back_reach_the_engine_in_reads_of_their_own() {
        let cmd = CommandLine::parse(
            "sh -c 'sleep 0.05; dd bs=4096 count=1 2>/dev/null; echo; dd bs=4096 count=1 2>/dev/null'",
        )
        .unwrap();
        let mut p = EngineProcess::spawn(&cmd, EngineLog::none()).unwrap();
        p.send("position startpos").unwrap();
        p.send("go depth 1").unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        let heard: Vec<Next> = (0..3).map(|_| p.next_line(deadline)).collect();
        assert_eq!(
            heard,
            ["position startpos", "", "go depth 1"].map(|l| Next::Line(l.into()))
        );
    }

    /// A C program that does not flush (here sed, with its output on a
    /// pipe) still hands over each line as it ends: GNU Chess 6.2.7's
    /// moves otherwise waited in its stdio buffer.
    #[cfg(target_os = "linux")]
    #[test]
    fn an_engine_that_does_not_flush_is_heard_line_by_line() {
        assert!(stdbuf().is_some(), "coreutils' stdbuf is not installed");
        let cmd = CommandLine::parse("sed s/^/got-/").unwrap();
        let mut p = EngineProcess::spawn(&cmd, EngineLog::none()).unwrap();
        p.send("hello").unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        assert_eq!(p.next_line(deadline), Next::Line("got-hello".into()));
    }

    #[test]
    fn a_missing_program_is_an_error_naming_it() {
        let cmd = CommandLine::parse("/nonexistent/engine --x").unwrap();
        let e = EngineProcess::spawn(&cmd, EngineLog::none()).err().unwrap();
        assert!(
            matches!(&e, EngineError::NoProgram { program, .. } if program == "/nonexistent/engine"),
            "{e:?}"
        );
        assert!(e.to_string().contains("/nonexistent/engine"), "{e}");
    }
}
