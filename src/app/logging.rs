//! The application log: a file in the log directory (info and above), and
//! warnings on stderr in headless mode.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::Path;

use log::LevelFilter;
use simplelog::{
    ColorChoice, CombinedLogger, Config, ConfigBuilder, SharedLogger, TermLogger, TerminalMode,
    WriteLogger,
};

/// Starts logging to `dir/file_name` (appended) and, if `stderr`, warnings
/// to stderr. Call once per process.
pub fn init(dir: &Path, file_name: &str, stderr: bool) -> Result<(), LogError> {
    std::fs::create_dir_all(dir).map_err(|error| LogError::Dir {
        dir: dir.to_path_buf(),
        error,
    })?;
    let path = dir.join(file_name);
    let file = match OpenOptions::new().create(true).append(true).open(&path) {
        Ok(f) => f,
        Err(error) => return Err(LogError::File { path, error }),
    };
    let mut loggers: Vec<Box<dyn SharedLogger>> = vec![WriteLogger::new(
        LevelFilter::Info,
        config(),
        WholeLines::new(file),
    )];
    if stderr {
        // Fatal errors reach stderr once, by `app::exit_status`.
        let mut quiet = ConfigBuilder::new();
        quiet.add_filter_ignore_str(crate::app::FATAL_TARGET);
        loggers.push(TermLogger::new(
            LevelFilter::Warn,
            config_from(quiet),
            TerminalMode::Stderr,
            ColorChoice::Never,
        ));
    }
    CombinedLogger::init(loggers).map_err(LogError::Start)
}

/// Why logging could not be started: the log's directory or file, or the
/// logger itself (one was started already).
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error("cannot create the log directory {}: {error}", dir.display())]
    Dir {
        dir: std::path::PathBuf,
        error: std::io::Error,
    },
    #[error("cannot open the log file {}: {error}", path.display())]
    File {
        path: std::path::PathBuf,
        error: std::io::Error,
    },
    #[error("cannot start logging: {0}")]
    Start(log::SetLoggerError),
}

fn config() -> Config {
    config_from(ConfigBuilder::new())
}

/// RFC 3339 times, no thread or target names.
fn config_from(mut builder: ConfigBuilder) -> Config {
    builder
        .set_time_format_rfc3339()
        .set_thread_level(LevelFilter::Off)
        .set_target_level(LevelFilter::Off)
        .build()
}

/// The most a log entry is held before it is written even without its
/// line's end (an entry longer than this goes out in pieces).
const HELD_AT_MOST: usize = 64 * 1024;

/// A writer that hands each log entry to its file in one `write`: the
/// logger writes an entry in a score of pieces (the time's fields, the
/// level, the message, the newline), each a system call on the loop's
/// thread if written as it comes. An entry's pieces are held until its
/// line ends (the logger ends every entry with one), or until
/// [`HELD_AT_MOST`] bytes, or a flush, or the writer is dropped.
struct WholeLines<W: Write> {
    out: W,
    held: Vec<u8>,
}

impl<W: Write> WholeLines<W> {
    fn new(out: W) -> Self {
        WholeLines {
            out,
            held: Vec::new(),
        }
    }
}

impl<W: Write> Write for WholeLines<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.held.extend_from_slice(buf);
        if self.held.ends_with(b"\n") || self.held.len() >= HELD_AT_MOST {
            self.flush()?;
        }
        Ok(buf.len())
    }

    /// Writes what is held; on an error it is dropped (the logger has
    /// nowhere to say it), so that it cannot grow without bound.
    fn flush(&mut self) -> io::Result<()> {
        let written = self.out.write_all(&self.held);
        self.held.clear();
        written.and_then(|()| self.out.flush())
    }
}

impl<W: Write> Drop for WholeLines<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the writes that reach it, and keeps their bytes.
    #[derive(Default)]
    struct Counted {
        writes: Vec<Vec<u8>>,
    }

    impl Write for &mut Counted {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.writes.push(buf.to_vec());
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_log_entry_reaches_the_file_in_one_write() {
        let mut file = Counted::default();
        let mut w = WholeLines::new(&mut file);
        let entry = [
            "2026-11-29",
            "T05:01:33Z",
            " ",
            "[INFO]",
            " ",
            "sf-a signed on",
            "\n",
        ];
        for piece in entry {
            w.write_all(piece.as_bytes()).unwrap();
        }
        w.write_all(b"two\nlines").unwrap();
        w.write_all(b"\n").unwrap();
        drop(w);
        assert_eq!(
            file.writes,
            vec![
                b"2026-11-29T05:01:33Z [INFO] sf-a signed on\n".to_vec(),
                b"two\nlines\n".to_vec()
            ]
        );
    }

    #[test]
    fn what_is_held_is_written_when_dropped_and_never_grows_past_its_bound() {
        let mut file = Counted::default();
        let mut w = WholeLines::new(&mut file);
        w.write_all(&vec![b'x'; HELD_AT_MOST + 10]).unwrap();
        assert!(w.held.is_empty(), "held past its bound");
        w.write_all(b"no line end").unwrap();
        drop(w);
        assert_eq!(file.writes.len(), 2);
        assert_eq!(file.writes[1], b"no line end".to_vec());
    }

    /// A log directory that cannot be made is its own kind, named in the
    /// words (no logger is started: the test process keeps its own).
    #[test]
    fn a_log_directory_that_cannot_be_made_says_which() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a-file");
        std::fs::write(&file, "x").unwrap();
        let e = init(&file.join("logs"), "argus.log", false).unwrap_err();
        assert!(matches!(&e, LogError::Dir { .. }), "{e}");
        assert!(
            e.to_string().starts_with(&format!(
                "cannot create the log directory {}",
                file.join("logs").display()
            )),
            "{e}"
        );
    }
}
