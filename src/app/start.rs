//! The start of a referee session, before the match: the two ports checked
//! (not the same one twice, not a regular file), one referee per log
//! directory (a lock that names its holder's pid), the output files
//! checked (each can be written), and nothing left behind by a start that
//! fails (no empty log directory, log or transcript).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The lock file in a log directory.
pub const LOCK_FILE: &str = "argus.lock";

/// Why a session does not start: which port, output or log directory, and
/// what is wrong with it. Nothing is left behind (see [`LogDir`]).
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("port A and port B are the same port ({0}): each client needs its own port")]
    SamePort(String),
    /// A port's name is a regular file or a directory (`what`).
    #[error("port {label} ({port}) is {what}, not a serial device")]
    NotADevice {
        label: &'static str,
        port: String,
        what: &'static str,
    },
    /// An output that could not be written: its flag, its path and why.
    #[error("{flag} {}: {why}", .path.display())]
    Output {
        flag: String,
        path: PathBuf,
        why: OutputProblem,
    },
    #[error("cannot create the log directory {}: {source}", .dir.display())]
    CreateLogDir { dir: PathBuf, source: io::Error },
    #[error("cannot open the lock file {}: {source}", .path.display())]
    OpenLock { path: PathBuf, source: io::Error },
    /// Another argus holds the log directory (`holder`: its pid, in words).
    #[error(
        "the log directory {} is in use by another argus ({holder}): one referee per log \
         directory; give this one another --log-dir",
        .dir.display()
    )]
    LogDirInUse { dir: PathBuf, holder: String },
    #[error("cannot lock the log directory {} ({}): {source}", .dir.display(), .lock.display())]
    Lock {
        dir: PathBuf,
        lock: PathBuf,
        source: io::Error,
    },
    #[error("cannot write the lock file {}: {source}", .path.display())]
    WriteLock { path: PathBuf, source: io::Error },
}

error_words!(StartError);

/// Why an output file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputProblem {
    #[error("is a directory; give a file")]
    IsADirectory,
    #[error("cannot be written: {0}")]
    NotWritable(io::Error),
    #[error("{0}")]
    Unreadable(io::Error),
    #[error("{} is not a directory", .0.display())]
    ParentNotADirectory(PathBuf),
    #[error("its directory {}: {source}", .dir.display())]
    NoDirectory { dir: PathBuf, source: io::Error },
    #[error("its directory {} takes no new files: {source}", .dir.display())]
    DirectoryReadOnly { dir: PathBuf, source: io::Error },
}

/// Refuses the same port given twice, and a path that is a regular file
/// or a directory (a serial device is a character device; a name that
/// does not exist is left for the open to report, as are COM names).
pub fn check_ports(ports: [&str; 2]) -> Result<(), StartError> {
    let same = ports[0] == ports[1]
        || matches!(
            (std::fs::canonicalize(ports[0]), std::fs::canonicalize(ports[1])),
            (Ok(a), Ok(b)) if a == b
        );
    if same {
        return Err(StartError::SamePort(ports[0].to_string()));
    }
    for (label, port) in ["A", "B"].into_iter().zip(ports) {
        if let Ok(m) = std::fs::metadata(port) {
            let what = if m.is_file() {
                "a regular file"
            } else if m.is_dir() {
                "a directory"
            } else {
                continue;
            };
            return Err(StartError::NotADevice {
                label,
                port: port.to_string(),
                what,
            });
        }
    }
    Ok(())
}

/// How an output file is written, which says what it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writes {
    /// Appended to (the PGN file): an existing file must open for append;
    /// a new one needs its directory.
    Append,
    /// Replaced whole, through a new file beside it renamed over it (the
    /// live PGN, the results file, a report, a ChessBase index): its
    /// directory must take new files.
    Replace,
}

/// Refuses, before the session starts, an output that could not be
/// written: a path that is a directory, an existing file that does not
/// open for writing, a directory that does not exist, is not one or takes
/// no new files. Each is `(flag, path, how it is written)`; the error
/// names the flag, the path and the reason. Creates, truncates and
/// changes nothing (an existing file is opened for append, not written).
pub fn check_outputs(outputs: &[(&str, &Path, Writes)]) -> Result<(), StartError> {
    for &(flag, path, writes) in outputs {
        check_output(path, writes).map_err(|why| StartError::Output {
            flag: flag.to_string(),
            path: path.to_path_buf(),
            why,
        })?;
    }
    Ok(())
}

/// One output of [`check_outputs`]: why it cannot be written.
fn check_output(path: &Path, writes: Writes) -> Result<(), OutputProblem> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => return Err(OutputProblem::IsADirectory),
        Ok(_) => {
            OpenOptions::new()
                .append(true)
                .open(path)
                .map_err(OutputProblem::NotWritable)?;
            if writes == Writes::Append {
                return Ok(());
            }
        }
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) => {}
        Err(e) => return Err(OutputProblem::Unreadable(e)),
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(OutputProblem::ParentNotADirectory(dir.to_path_buf())),
        Err(source) => {
            return Err(OutputProblem::NoDirectory {
                dir: dir.to_path_buf(),
                source,
            });
        }
    }
    writable_dir(dir).map_err(|source| OutputProblem::DirectoryReadOnly {
        dir: dir.to_path_buf(),
        source,
    })
}

/// Whether new files can be made in `dir` (`access(2)`, which makes none).
fn writable_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let c = std::ffi::CString::new(dir.as_os_str().as_bytes())
            .map_err(|_| std::io::Error::other("a NUL byte in the name"))?;
        // SAFETY: a valid NUL-terminated path, only read by the call.
        if unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }
    #[cfg(not(unix))]
    {
        let m = std::fs::metadata(dir)?;
        if m.permissions().readonly() {
            return Err(std::io::Error::other("read-only"));
        }
        Ok(())
    }
}

/// A log directory this process holds: while it lives, no other argus
/// referee starts on it. Until [`LogDir::keep`], dropping it removes what
/// this start created (files noted with [`LogDir::note`], the lock file,
/// and the directory if it made it and it is empty).
#[derive(Debug)]
pub struct LogDir {
    path: PathBuf,
    _lock: File,
    made_dir: bool,
    new_files: Vec<PathBuf>,
    kept: bool,
}

/// Why a log directory another argus holds is refused, naming the
/// holder's pid from its lock file.
fn in_use(dir: &Path, lock: &File) -> StartError {
    let mut text = String::new();
    let _ = lock.take(64).read_to_string(&mut text);
    let holder = match text.trim().parse::<u32>() {
        Ok(pid) => format!("pid {pid}"),
        Err(_) => "a process that did not write its pid".into(),
    };
    StartError::LogDirInUse {
        dir: dir.to_path_buf(),
        holder,
    }
}

impl LogDir {
    /// Creates `dir` if needed and takes its lock, writing this process's
    /// pid into it. Refused, naming the holder's pid, while another argus
    /// holds it.
    pub fn claim(dir: &Path) -> Result<LogDir, StartError> {
        let made_dir = !dir.exists();
        std::fs::create_dir_all(dir).map_err(|source| StartError::CreateLogDir {
            dir: dir.to_path_buf(),
            source,
        })?;
        let path = dir.join(LOCK_FILE);
        let made_lock = !path.exists();
        let failed = |why: StartError| {
            if made_lock {
                let _ = std::fs::remove_file(&path);
            }
            if made_dir {
                let _ = std::fs::remove_dir(dir);
            }
            why
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|source| {
                failed(StartError::OpenLock {
                    path: path.clone(),
                    source,
                })
            })?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Err(in_use(dir, &file)),
            Err(TryLockError::Error(source)) => {
                return Err(failed(StartError::Lock {
                    dir: dir.to_path_buf(),
                    lock: path.clone(),
                    source,
                }));
            }
        }
        let written = file
            .set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .and_then(|_| writeln!(file, "{}", std::process::id()));
        if let Err(source) = written {
            return Err(failed(StartError::WriteLock {
                path: path.clone(),
                source,
            }));
        }
        let mut new_files = Vec::new();
        if made_lock {
            new_files.push(path);
        }
        Ok(LogDir {
            path: dir.to_path_buf(),
            _lock: file,
            made_dir,
            new_files,
            kept: false,
        })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Call before creating `file`: if it does not exist yet, a failed
    /// start removes it.
    pub fn note(&mut self, file: &Path) {
        if !file.exists() {
            self.new_files.push(file.to_path_buf());
        }
    }

    /// The start succeeded: everything stays (the lock is held until this
    /// is dropped).
    pub fn keep(&mut self) {
        self.kept = true;
    }
}

impl Drop for LogDir {
    fn drop(&mut self) {
        if self.kept {
            return;
        }
        for f in self.new_files.iter().rev() {
            let _ = std::fs::remove_file(f);
        }
        if self.made_dir {
            let _ = std::fs::remove_dir(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_port_twice_and_a_regular_file_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("notes.txt");
        std::fs::write(&file, "x").unwrap();
        let f = file.to_str().unwrap();
        let e = check_ports(["/dev/null-x", "/dev/null-x"]).unwrap_err();
        assert!(matches!(e, StartError::SamePort(_)), "{e}");
        let e = e.to_string();
        assert!(e.contains("the same port (/dev/null-x)"), "{e}");
        let e = check_ports(["/dev/null", f]).unwrap_err().to_string();
        assert!(e.contains("is a regular file, not a serial device"), "{e}");
        assert!(e.starts_with("port B"), "{e}");
        check_ports(["/dev/null", "/dev/zero"]).unwrap();
    }

    #[test]
    fn outputs_that_cannot_be_written_are_refused_and_nothing_is_touched() {
        let dir = tempfile::tempdir().unwrap();
        let existing = dir.path().join("games.pgn");
        std::fs::write(&existing, "[Event \"kept\"]\n").unwrap();
        let new = dir.path().join("new.json");
        let ok = [
            ("--pgn", existing.as_path(), Writes::Append),
            ("--results-json", new.as_path(), Writes::Replace),
            ("--report", Path::new("report.txt"), Writes::Replace),
        ];
        check_outputs(&ok).unwrap();
        assert_eq!(
            std::fs::read_to_string(&existing).unwrap(),
            "[Event \"kept\"]\n"
        );
        assert!(!new.exists(), "the check made a file");
        let e = check_outputs(&[("--pgn", dir.path(), Writes::Append)]).unwrap_err();
        assert!(
            matches!(
                &e,
                StartError::Output {
                    why: OutputProblem::IsADirectory,
                    ..
                }
            ),
            "{e}"
        );
        let e = e.to_string();
        assert!(
            e.starts_with("--pgn ") && e.ends_with("is a directory; give a file"),
            "{e}"
        );
        let missing = dir.path().join("nope").join("r.json");
        let e = check_outputs(&[("--results-json", &missing, Writes::Replace)])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("its directory") && e.contains("No such file"),
            "{e}"
        );
        let under_file = existing.join("r.json");
        let e = check_outputs(&[("--live-pgn", &under_file, Writes::Replace)])
            .unwrap_err()
            .to_string();
        assert!(e.contains("is not a directory"), "{e}");
    }

    #[test]
    fn a_second_claim_names_the_holder_and_a_failed_start_leaves_nothing() {
        let base = tempfile::tempdir().unwrap();
        let dir = base.path().join("logs");
        let mut first = LogDir::claim(&dir).unwrap();
        first.keep();
        let e = LogDir::claim(&dir).unwrap_err();
        assert!(matches!(e, StartError::LogDirInUse { .. }), "{e}");
        let e = e.to_string();
        assert!(
            e.contains(&format!(
                "in use by another argus (pid {})",
                std::process::id()
            )),
            "{e}"
        );
        drop(first);
        // Released: a start that fails removes what it made.
        let other = base.path().join("other");
        let mut second = LogDir::claim(&other).unwrap();
        let transcript = other.join("transcript.log");
        second.note(&transcript);
        std::fs::write(&transcript, "").unwrap();
        drop(second);
        assert!(!other.exists(), "the failed start left its log directory");
        // An existing directory stays, with what was in it.
        let mut third = LogDir::claim(&dir).unwrap();
        third.note(&dir.join("argus.log"));
        drop(third);
        assert!(dir.exists());
    }
}
