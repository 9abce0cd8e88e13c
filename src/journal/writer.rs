//! Appending to a journal: one line per entry, each followed by its chained
//! check; inputs are synced to disk (`fdatasync`) before the caller acts on
//! them. Lines wait in memory until the next sync or flush, so that the
//! lines of one loop turn reach the file in one write (an error writing
//! them shows there). The file is locked while a referee writes it, so
//! that two argus processes never write one journal.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::journal::checksum::line_check;
use crate::journal::format::Entry;
use crate::journal::header::Header;
use crate::referee::WallClock;

/// An open journal, positioned at its end.
#[derive(Debug)]
pub struct JournalWriter {
    file: File,
    path: PathBuf,
    chain: u32,
    lines: usize,
    /// Lines written since the last flush: they reach the file together.
    pending: String,
}

fn context(e: io::Error, what: &str, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{what} {}: {e}", path.display()))
}

/// Takes the exclusive lock on `file` (the `what` at `path`: "journal",
/// "copy"), so that two argus processes never write one file.
pub(crate) fn lock(file: &File, path: &Path, what: &str) -> io::Result<()> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(TryLockError::WouldBlock) => Err(io::Error::new(
            io::ErrorKind::WouldBlock,
            format!(
                "the {what} {} is in use by another argus process",
                path.display()
            ),
        )),
        Err(TryLockError::Error(e)) => Err(context(e, &format!("cannot lock the {what}"), path)),
    }
}

/// Opens the journal at `path` with `options` (`verb` for the error:
/// "create", "open"), locks it, and returns it with its length.
fn open_locked(options: &OpenOptions, path: &Path, verb: &str) -> io::Result<(File, u64)> {
    let file = options
        .open(path)
        .map_err(|e| context(e, &format!("cannot {verb} the journal"), path))?;
    lock(&file, path, "journal")?;
    let len = file
        .metadata()
        .map_err(|e| context(e, "cannot inspect the journal", path))?
        .len();
    Ok((file, len))
}

impl JournalWriter {
    /// Starts a new journal at `path` (which must not exist, or be empty):
    /// the header, then `epoch 0 UNIX_MS OFFSET` (`wall`, read at journal
    /// time 0), synced.
    pub fn create(path: &Path, header: &Header, wall: WallClock) -> io::Result<JournalWriter> {
        let mut payloads: Vec<String> = header.entries().iter().map(Entry::payload).collect();
        payloads.push(Entry::Epoch(WallClock { at: 0, ..wall }).payload());
        JournalWriter::create_lines(path, &payloads)
    }

    /// Starts a new journal at `path` (which must not exist, or be empty)
    /// with these lines (payloads, without their checks), synced: the
    /// framing of any argus journal (the tournament's uses it too).
    pub fn create_lines(path: &Path, payloads: &[String]) -> io::Result<JournalWriter> {
        let (file, len) = open_locked(
            OpenOptions::new().create(true).append(true).read(true),
            path,
            "create",
        )?;
        if len > 0 {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("the journal {} is not empty", path.display()),
            ));
        }
        let mut w = JournalWriter {
            file,
            path: path.to_path_buf(),
            chain: crate::journal::checksum::CHAIN_START,
            lines: 0,
            pending: String::new(),
        };
        let mut text = String::new();
        for p in payloads {
            text.push_str(&w.line(p));
        }
        w.put(&text)?;
        w.sync()?;
        Ok(w)
    }

    /// Opens an existing journal to go on with it: cuts it to its first
    /// `valid_len` bytes (dropping a torn last line), and continues the
    /// chain from `chain` (the last good line's check) after `lines` lines.
    pub fn append(
        path: &Path,
        valid_len: u64,
        chain: u32,
        lines: usize,
    ) -> io::Result<JournalWriter> {
        let (mut file, len) = open_locked(OpenOptions::new().write(true).read(true), path, "open")?;
        if len < valid_len {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "the journal {} shrank while it was read ({len} bytes, {valid_len} expected)",
                    path.display()
                ),
            ));
        }
        if len > valid_len {
            file.set_len(valid_len)
                .map_err(|e| context(e, "cannot cut the torn line off", path))?;
        }
        file.seek(SeekFrom::Start(valid_len))
            .map_err(|e| context(e, "cannot seek in", path))?;
        Ok(JournalWriter {
            file,
            path: path.to_path_buf(),
            chain,
            lines,
            pending: String::new(),
        })
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Lines in the journal.
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// The line of `payload`, its check appended, chained on.
    fn line(&mut self, payload: &str) -> String {
        let check = line_check(self.chain, payload);
        self.chain = check;
        self.lines += 1;
        format!("{payload} {check:08x}\n")
    }

    fn put(&mut self, text: &str) -> io::Result<()> {
        self.file
            .write_all(text.as_bytes())
            .map_err(|e| context(e, "cannot write to the journal", &self.path))
    }

    /// Appends one line: it reaches the file with the next
    /// [`JournalWriter::flush`] and the disk with the next
    /// [`JournalWriter::sync`].
    pub fn write(&mut self, e: &Entry) {
        self.write_payload(&e.payload());
    }

    /// Appends one line given as its payload (not flushed, not synced).
    pub fn write_payload(&mut self, payload: &str) {
        let line = self.line(payload);
        self.pending.push_str(&line);
    }

    /// Hands the lines written since the last flush to the file, in one
    /// write (readers following the file see them; not synced).
    pub fn flush(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        self.put(&pending)
    }

    /// The file, with the lines written since the last flush handed to
    /// it: for a sync that covers many journals at once
    /// (`record::durable::sync_file_systems`).
    pub fn flushed_file(&mut self) -> io::Result<&File> {
        self.flush()?;
        Ok(&self.file)
    }

    /// Waits until everything written is on disk.
    pub fn sync(&mut self) -> io::Result<()> {
        self.flush()?;
        self.file
            .sync_data()
            .map_err(|e| context(e, "cannot sync the journal", &self.path))
    }
}

impl Drop for JournalWriter {
    /// The lines not yet flushed still reach the file (not synced: they are
    /// lines whose outputs never left, or notes and checks the replay can
    /// do without).
    fn drop(&mut self) {
        if let Err(e) = self.flush() {
            log::warn!("{e}; the journal's last lines are lost");
        }
    }
}
