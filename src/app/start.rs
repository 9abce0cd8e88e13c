//! The start of a referee session, before the match: the two ports checked
//! (not the same one twice, not a regular file), one referee per log
//! directory (a lock that names its holder's pid), and nothing left behind
//! by a start that fails (no empty log directory, log or transcript).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The lock file in a log directory.
pub const LOCK_FILE: &str = "argus.lock";

/// Refuses the same port given twice, and a path that is a regular file
/// or a directory (a serial device is a character device; a name that
/// does not exist is left for the open to report, as are COM names).
pub fn check_ports(ports: [&str; 2]) -> Result<(), String> {
    let same = ports[0] == ports[1]
        || matches!(
            (std::fs::canonicalize(ports[0]), std::fs::canonicalize(ports[1])),
            (Ok(a), Ok(b)) if a == b
        );
    if same {
        return Err(format!(
            "port A and port B are the same port ({}): each client needs its own port",
            ports[0]
        ));
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
            return Err(format!(
                "port {label} ({port}) is {what}, not a serial device"
            ));
        }
    }
    Ok(())
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
fn in_use(dir: &Path, lock: &File) -> String {
    let mut text = String::new();
    let _ = lock.take(64).read_to_string(&mut text);
    let holder = match text.trim().parse::<u32>() {
        Ok(pid) => format!("pid {pid}"),
        Err(_) => "a process that did not write its pid".into(),
    };
    format!(
        "the log directory {} is in use by another argus ({holder}): one referee \
         per log directory; give this one another --log-dir",
        dir.display()
    )
}

impl LogDir {
    /// Creates `dir` if needed and takes its lock, writing this process's
    /// pid into it. Refused, naming the holder's pid, while another argus
    /// holds it.
    pub fn claim(dir: &Path) -> Result<LogDir, String> {
        let made_dir = !dir.exists();
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the log directory {}: {e}", dir.display()))?;
        let path = dir.join(LOCK_FILE);
        let made_lock = !path.exists();
        let failed = |why: String| {
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
            .map_err(|e| failed(format!("cannot open the lock file {}: {e}", path.display())))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Err(in_use(dir, &file)),
            Err(TryLockError::Error(e)) => {
                return Err(failed(format!(
                    "cannot lock the log directory {} ({}): {e}",
                    dir.display(),
                    path.display()
                )));
            }
        }
        let written = file
            .set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .and_then(|_| writeln!(file, "{}", std::process::id()));
        if let Err(e) = written {
            return Err(failed(format!(
                "cannot write the lock file {}: {e}",
                path.display()
            )));
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
        assert!(e.contains("the same port (/dev/null-x)"), "{e}");
        let e = check_ports(["/dev/null", f]).unwrap_err();
        assert!(e.contains("is a regular file, not a serial device"), "{e}");
        assert!(e.starts_with("port B"), "{e}");
        check_ports(["/dev/null", "/dev/zero"]).unwrap();
    }

    #[test]
    fn a_second_claim_names_the_holder_and_a_failed_start_leaves_nothing() {
        let base = tempfile::tempdir().unwrap();
        let dir = base.path().join("logs");
        let mut first = LogDir::claim(&dir).unwrap();
        first.keep();
        let e = LogDir::claim(&dir).unwrap_err();
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
