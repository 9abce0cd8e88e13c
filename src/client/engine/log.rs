//! `--log FILE`: the engine traffic, one line per message with the time
//! since the bridge started, the direction and the text:
//!
//! ```text
//! # argus engine log, started 1712345678 s after the Unix epoch
//!     0.012 > uci
//!     0.015 < id name Stockfish 15.1
//!     2.410 ! engine stderr text
//!     2.411 # engine exited (exit status: 3); restarting it
//! ```

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// The direction or kind of a log line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// Sent to the engine (`>`).
    ToEngine,
    /// Read from the engine's standard output (`<`).
    FromEngine,
    /// Read from the engine's standard error (`!`).
    Stderr,
    /// A note from the bridge (`#`).
    Note,
}

impl Dir {
    fn mark(self) -> char {
        match self {
            Dir::ToEngine => '>',
            Dir::FromEngine => '<',
            Dir::Stderr => '!',
            Dir::Note => '#',
        }
    }
}

/// A shared, thread-safe engine log; cloning shares the same file. A log
/// that cannot be written any more is silently closed (the bridge goes on).
#[derive(Debug, Clone)]
pub struct EngineLog {
    inner: Option<Arc<Mutex<Inner>>>,
}

#[derive(Debug)]
struct Inner {
    out: Option<BufWriter<File>>,
    epoch: Instant,
}

/// An engine log that cannot be created: the file and what the system
/// said.
#[derive(Debug, thiserror::Error)]
#[error("cannot create the engine log {}: {source}", .path.display())]
pub struct LogCreateError {
    pub path: std::path::PathBuf,
    pub source: std::io::Error,
}

error_words!(LogCreateError);

impl EngineLog {
    /// A log that writes nowhere.
    pub fn none() -> EngineLog {
        EngineLog { inner: None }
    }

    /// Creates (truncates) `path`; the error names the file.
    pub fn create(path: &Path) -> Result<EngineLog, LogCreateError> {
        let file = File::create(path).map_err(|source| LogCreateError {
            path: path.to_path_buf(),
            source,
        })?;
        let log = EngineLog {
            inner: Some(Arc::new(Mutex::new(Inner {
                out: Some(BufWriter::new(file)),
                epoch: Instant::now(),
            }))),
        };
        let since = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        log.raw(&format!(
            "# argus engine log, started {since} s after the Unix epoch"
        ));
        Ok(log)
    }

    /// Writes one line. Flushed at once, so that a crash loses nothing,
    /// except an engine's `info` lines: they come a dozen or more to a
    /// move at the controls testers use, a system call each, so they wait
    /// in the buffer for the next other line (the
    /// `bestmove` that ends the search, or the next line sent): a crash
    /// in mid-search loses that search's `info` lines, nothing else.
    pub fn line(&self, dir: Dir, text: &str) {
        let Some(inner) = &self.inner else { return };
        let flush = !(dir == Dir::FromEngine && text.starts_with("info "));
        let Ok(mut g) = inner.lock() else { return };
        let t = g.epoch.elapsed();
        let line = format!(
            "{:>5}.{:03} {} {}",
            t.as_secs(),
            t.subsec_millis(),
            dir.mark(),
            crate::text::strip_control(text)
        );
        write_or_close(&mut g, &line, flush);
    }

    fn raw(&self, text: &str) {
        let Some(inner) = &self.inner else { return };
        let Ok(mut g) = inner.lock() else { return };
        write_or_close(&mut g, text, true);
    }
}

fn write_or_close(g: &mut Inner, text: &str, flush: bool) {
    let Some(out) = g.out.as_mut() else { return };
    let ok = writeln!(out, "{text}")
        .and_then(|()| if flush { out.flush() } else { Ok(()) })
        .is_ok();
    if !ok {
        g.out = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_wait_for_the_next_other_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("engine.log");
        let log = EngineLog::create(&path).unwrap();
        log.line(Dir::ToEngine, "go wtime 1000 btime 1000");
        log.line(Dir::FromEngine, "info depth 1 score cp 20 time 1 pv e2e4");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("> go wtime"), "{text}");
        assert!(!text.contains("info depth"), "{text}");
        log.line(Dir::FromEngine, "bestmove e2e4");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("< info depth 1"), "{text}");
        assert!(text.ends_with("< bestmove e2e4\n"), "{text}");
    }

    #[test]
    fn lines_carry_time_direction_and_text() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("engine.log");
        let log = EngineLog::create(&path).unwrap();
        log.line(Dir::ToEngine, "uci");
        log.clone().line(Dir::FromEngine, "id name X\u{7}");
        log.line(Dir::Stderr, "oops");
        log.line(Dir::Note, "restarting");
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("# argus engine log"));
        assert!(lines[1].ends_with(" > uci"), "{}", lines[1]);
        assert!(lines[2].ends_with(" < id name X"), "{}", lines[2]);
        assert!(lines[3].ends_with(" ! oops"));
        assert!(lines[4].ends_with(" # restarting"));
        assert!(lines[1].trim_start().starts_with("0."));
    }

    #[test]
    fn an_unwritable_path_is_an_error_naming_it() {
        let e = EngineLog::create(Path::new("/nonexistent-dir/x.log"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("/nonexistent-dir/x.log"), "{e}");
        EngineLog::none().line(Dir::Note, "goes nowhere");
    }
}
