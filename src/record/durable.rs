//! Putting text on disk so that a crash or power cut cannot leave half of it:
//! appending a finished game with fsync, and replacing a file atomically.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::pgn::{PgnGame, write_pgn};

/// Appends one game (as [`write_pgn`] renders it) to the file at `path`,
/// creating it if needed, and syncs it to disk before returning.
///
/// Errors name the file and what failed.
pub fn append_pgn(path: impl AsRef<Path>, game: &PgnGame) -> io::Result<()> {
    append_text(path.as_ref(), &write_pgn(game), "a game")
}

/// Appends `text` (`what` it is, for errors) to the file at `path`,
/// creating it if needed, and syncs it to disk before returning: the PGN's
/// games, `--epd-out`'s lines.
pub fn append_text(path: &Path, text: &str, what: &str) -> io::Result<()> {
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| context(e, "cannot open for appending", path))?;
    f.write_all(text.as_bytes())
        .map_err(|e| context(e, &format!("cannot append {what} to"), path))?;
    f.sync_data().map_err(|e| context(e, "cannot sync", path))
}

/// Replaces the file at `path` with `contents` atomically: readers see the
/// old file or the new one, never a mix. Writes a temporary file in the same
/// directory (`.<name>.tmp-<pid>`), syncs it, renames it over `path`, then
/// (on Unix) syncs the directory so the rename itself survives a crash.
/// The temporary file is removed if anything fails before the rename.
pub fn write_atomic(path: impl AsRef<Path>, contents: &str) -> io::Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(contents.as_bytes())?;
    f.commit()
}

/// A file written piece by piece that replaces `path` atomically when
/// [`AtomicFile::commit`] is called, as [`write_atomic`] does with a whole
/// text. Dropped without a commit, it removes its temporary file and leaves
/// `path` as it was.
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Creates the temporary file beside `path`.
    pub fn create(path: impl AsRef<Path>) -> io::Result<AtomicFile> {
        let path = path.as_ref().to_path_buf();
        let tmp = temp_path(&path)?;
        let f = File::create(&tmp).map_err(|e| context(e, "cannot create", &tmp))?;
        Ok(AtomicFile {
            path,
            tmp,
            file: Some(BufWriter::new(f)),
        })
    }

    /// Flushes and syncs the temporary file, renames it over the path, and
    /// syncs the directory.
    pub fn commit(mut self) -> io::Result<()> {
        let Some(w) = self.file.take() else {
            return Ok(());
        };
        let f = w
            .into_inner()
            .map_err(|e| context(e.into_error(), "cannot write", &self.tmp))?;
        f.sync_all()
            .map_err(|e| context(e, "cannot sync", &self.tmp))?;
        fs::rename(&self.tmp, &self.path)
            .map_err(|e| context(e, "cannot rename temporary file onto", &self.path))?;
        sync_dir(&self.path);
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.file.as_mut() {
            Some(f) => f
                .write(buf)
                .map_err(|e| context(e, "cannot write", &self.tmp)),
            None => Ok(0),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.file.as_mut() {
            Some(f) => f.flush().map_err(|e| context(e, "cannot write", &self.tmp)),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

fn temp_path(path: &Path) -> io::Result<PathBuf> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} does not name a file", path.display()),
        )
    })?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    Ok(path.with_file_name(tmp_name))
}

/// Makes everything written to `files` durable with one sync per file
/// system they are on (`syncfs`, Linux), instead of one `fdatasync` per
/// file: a sync costs about the same whatever the number of files written,
/// so many files written at once (a tournament's journals in one loop
/// turn) cost about one sync (docs/performance.md, "Group commit"). It
/// also syncs whatever else is dirty on those file systems. Elsewhere each
/// file is synced in turn. An error does not say which file failed: sync
/// each to know.
pub fn sync_file_systems(files: &[&File]) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::MetadataExt;
        let mut synced: Vec<u64> = Vec::new();
        for f in files {
            let dev = f.metadata()?.dev();
            if synced.contains(&dev) {
                continue;
            }
            // SAFETY: syncfs takes an open descriptor, which `f` holds for
            // the call's length; it reads no memory of ours.
            if unsafe { libc::syncfs(f.as_raw_fd()) } != 0 {
                return Err(io::Error::last_os_error());
            }
            synced.push(dev);
        }
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    {
        files.iter().try_for_each(|f| f.sync_data())
    }
}

/// Best effort: a failure here only weakens durability, not correctness.
fn sync_dir(path: &Path) {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

fn context(e: io::Error, what: &str, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{what} {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::pgn::PgnMove;

    fn one_move_game(san: &str) -> PgnGame {
        PgnGame {
            moves: vec![PgnMove {
                san: san.into(),
                ..PgnMove::default()
            }],
            ..PgnGame::default()
        }
    }

    #[test]
    fn append_adds_games_one_after_another() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pgn");
        append_pgn(&path, &one_move_game("e4")).unwrap();
        append_pgn(&path, &one_move_game("d4")).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        let expected = format!(
            "{}{}",
            write_pgn(&one_move_game("e4")),
            write_pgn(&one_move_game("d4"))
        );
        assert_eq!(text, expected);
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("live.pgn");
        write_atomic(&path, "old").unwrap();
        write_atomic(&path, "new contents").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new contents");
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("live.pgn")]);
    }

    #[test]
    fn atomic_write_error_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing-dir").join("live.pgn");
        let err = write_atomic(&path, "x").unwrap_err();
        assert!(err.to_string().contains("missing-dir"), "{err}");
    }

    #[test]
    fn an_atomic_file_dropped_uncommitted_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("base.cbf");
        write_atomic(&path, "old").unwrap();
        {
            let mut f = AtomicFile::create(&path).unwrap();
            f.write_all(b"half of the new").unwrap();
        }
        assert_eq!(fs::read(&path).unwrap(), b"old");
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"new").unwrap();
        f.commit().unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn atomic_write_rejects_a_path_without_file_name() {
        let err = write_atomic("/", "x").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    }
}
