//! A tournament's feed (`argus tournament --feed`), followed into a copy
//! directory: the feed's tagged lines ([`crate::journal::feed::multi`])
//! are written to the files they name under the copy, which then has the
//! tournament's own layout (`tournament.journal`, `game-NNN/journal.log`),
//! so `argus watch tcp://...` follows the copy as it follows a
//! tournament's directory, and `argus resume COPY/tournament.journal` can
//! take over from it.
//!
//! The wire is not trusted: a line that does not read (or is too long) is
//! reported and skipped, never kept; a line that would leave a gap in its
//! file, or differs from what the copy already holds, stops the watch
//! (the copy would be wrong). Memory stays bounded: one line at a time, a
//! few files open, and per file its line count and a hash of its last line.

use std::collections::BTreeMap;
use std::collections::hash_map::DefaultHasher;
use std::fs::{File, OpenOptions};
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use crossbeam_channel::Sender;

use crate::app::tail::{FeedState, each_connection};
use crate::journal::feed::multi::{self, MAX_FEED_LINE};
use crate::journal::reader::{RawLine, read_line, read_line_within};

/// At most this many files in a copy.
pub const MAX_FILES: usize = 100_000;
/// At most this many of its files open at once.
const OPEN_FILES: usize = 16;
/// Malformed lines reported one by one per connection; the rest counted.
const TOLD_MALFORMED: usize = 3;

/// What the feed's reader reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FeedReport {
    /// Something to tell the user; the reader goes on.
    Status(String),
    /// The feed closed (the referee ended or stopped): the copy holds
    /// everything received, synced. The reader connects again.
    Closed(String),
    /// The copy cannot go on.
    Failed(String),
}

/// What the copy holds of one file.
#[derive(Debug, Clone, Copy)]
struct Kept {
    lines: u64,
    /// A hash of its last line, to check a feed that is read again.
    last: u64,
}

fn hash_of(line: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    line.hash(&mut h);
    h.finish()
}

/// The copy directory.
pub struct CopyDir {
    dir: PathBuf,
    kept: BTreeMap<String, Kept>,
    open: BTreeMap<String, File>,
    /// The copy of the tournament journal, held open and locked: one
    /// watcher per copy.
    _lock: File,
}

impl CopyDir {
    /// Opens (or creates) the copy at `dir`, whose tournament journal is
    /// `journal` (a name in it). The files it holds already are counted
    /// (and a torn last line cut off), so a feed read again goes on after
    /// them.
    pub fn open(dir: &Path, journal: &str) -> Result<CopyDir, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot make the copy directory {}: {e}", dir.display()))?;
        let path = dir.join(journal);
        let lock = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("cannot open the copy {}: {e}", path.display()))?;
        crate::journal::writer::lock(&lock, &path, "copy").map_err(|e| e.to_string())?;
        let mut copy = CopyDir {
            dir: dir.to_path_buf(),
            kept: BTreeMap::new(),
            open: BTreeMap::new(),
            _lock: lock,
        };
        copy.count(dir, "", 0)?;
        Ok(copy)
    }

    /// Counts the lines of the files under `dir` (named from the copy's
    /// root with `prefix`), `depth` parts down.
    fn count(&mut self, dir: &Path, prefix: &str, depth: usize) -> Result<(), String> {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| format!("cannot read the copy directory {}: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry
                .map_err(|e| format!("cannot read the copy directory {}: {e}", dir.display()))?;
            let Some(part) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            let name = format!("{prefix}{part}");
            if multi::check_name(&name).is_err() {
                continue;
            }
            let path = entry.path();
            if path.is_dir() && depth + 1 < multi::MAX_PARTS {
                self.count(&path, &format!("{name}/"), depth + 1)?;
            } else if path.is_file() {
                let kept = count_lines(&path)?;
                if kept.lines > 0 {
                    if self.kept.len() >= MAX_FILES {
                        return Err(format!(
                            "the copy {} holds more than {MAX_FILES} files",
                            self.dir.display()
                        ));
                    }
                    self.kept.insert(name, kept);
                }
            }
        }
        Ok(())
    }

    /// How many lines of `name` the copy holds.
    pub fn lines(&self, name: &str) -> u64 {
        self.kept.get(name).map_or(0, |k| k.lines)
    }

    /// Takes line `number` of file `name` from the feed: a line the copy
    /// has is checked (the last one it has must be the same), the next one
    /// is appended; a line further on is an error (lines were lost).
    pub fn take(&mut self, name: &str, number: u64, line: &[u8]) -> Result<(), String> {
        multi::check_name(name)?;
        let kept = self.kept.get(name).copied();
        let have = kept.map_or(0, |k| k.lines);
        if number <= have {
            if number == have && kept.is_some_and(|k| k.last != hash_of(line)) {
                return Err(format!(
                    "the feed's {name} differs from the copy's at line {number}: it serves \
                     another tournament? use another copy directory"
                ));
            }
            return Ok(());
        }
        if number > have + 1 {
            return Err(format!(
                "the feed skipped lines of {name}: line {number} came after line {have}"
            ));
        }
        if kept.is_none() && self.kept.len() >= MAX_FILES {
            return Err(format!(
                "the feed serves more than {MAX_FILES} files; {name} is not kept"
            ));
        }
        let file = self.file(name)?;
        file.write_all(line)
            .and_then(|()| file.write_all(b"\n"))
            .map_err(|e| format!("cannot write the copy of {name}: {e}"))?;
        self.kept.insert(
            name.to_string(),
            Kept {
                lines: number,
                last: hash_of(line),
            },
        );
        Ok(())
    }

    /// The open file `name` (opened, and its directory made, if need be).
    fn file(&mut self, name: &str) -> Result<&mut File, String> {
        if !self.open.contains_key(name) {
            if self.open.len() >= OPEN_FILES
                && let Some((old, f)) = self.open.pop_first()
            {
                f.sync_data()
                    .map_err(|e| format!("cannot sync the copy of {old}: {e}"))?;
            }
            let path = self.dir.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("cannot make {}: {e}", parent.display()))?;
            }
            let f = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .map_err(|e| format!("cannot open the copy {}: {e}", path.display()))?;
            self.open.insert(name.to_string(), f);
        }
        self.open
            .get_mut(name)
            .ok_or_else(|| format!("the copy of {name} is not open"))
    }

    /// Syncs what was written.
    pub fn sync(&mut self) -> Result<(), String> {
        for (name, f) in &self.open {
            f.sync_data()
                .map_err(|e| format!("cannot sync the copy of {name}: {e}"))?;
        }
        Ok(())
    }
}

/// The whole lines of a file the copy holds; a torn last line is cut off
/// (the watcher stopped while writing it; the feed sends it again).
fn count_lines(path: &Path) -> Result<Kept, String> {
    let what = |e: std::io::Error| format!("cannot read the copy {}: {e}", path.display());
    let file = File::open(path).map_err(what)?;
    let mut r = BufReader::new(&file);
    let mut buf = Vec::new();
    let (mut lines, mut last, mut whole) = (0u64, 0u64, 0u64);
    loop {
        match read_line(&mut r, &mut buf).map_err(what)? {
            RawLine::Whole => {
                lines += 1;
                last = hash_of(&buf);
                whole += buf.len() as u64 + 1;
            }
            RawLine::End => break,
            RawLine::Partial => {
                drop(r);
                OpenOptions::new()
                    .write(true)
                    .open(path)
                    .and_then(|f| f.set_len(whole))
                    .map_err(|e| format!("cannot cut the torn end of {}: {e}", path.display()))?;
                break;
            }
        }
    }
    Ok(Kept { lines, last })
}

/// Reads the feed at `addr` into `copy`, connecting again whenever it
/// closes, until nobody listens to `tx`.
pub fn follow(addr: &str, mut copy: CopyDir, tx: &Sender<FeedReport>) {
    let tell = |state: FeedState| match state {
        FeedState::Unreachable(say) | FeedState::Connected(say) => {
            tx.send(FeedReport::Status(say)).is_ok()
        }
        FeedState::Waiting => true,
    };
    each_connection(addr, tell, |stream| {
        let ended = read_feed(BufReader::new(stream), &mut copy, tx)
            .map_err(|e| format!("the feed at {addr}: {e}"))
            .and_then(|why| copy.sync().map(|()| why));
        let report = match ended {
            Ok(why) => FeedReport::Closed(format!("{why}; reconnecting to {addr}")),
            Err(e) => {
                let _ = tx.send(FeedReport::Failed(e));
                return ControlFlow::Break(());
            }
        };
        match tx.send(report) {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()),
        }
    });
}

/// Reads one connection of a files feed into `copy`: why it ended, or the
/// error that stops the copy.
pub fn read_feed(
    mut r: BufReader<impl Read>,
    copy: &mut CopyDir,
    tx: &Sender<FeedReport>,
) -> Result<String, String> {
    let mut buf = Vec::new();
    match read_line_within(&mut r, &mut buf, MAX_FEED_LINE) {
        Ok(RawLine::Whole) => {}
        Ok(_) => return Ok("the feed closed before its first line".into()),
        Err(e) => return Ok(format!("the feed failed: {e}")),
    }
    if !multi::is_greeting(&buf)? {
        return Err(format!(
            "not a tournament's feed (its first line begins {:?})",
            crate::text::strip_control(&String::from_utf8_lossy(&buf[..buf.len().min(40)]))
        ));
    }
    let (mut lines, mut malformed) = (0u64, 0usize);
    let why = loop {
        match read_line_within(&mut r, &mut buf, MAX_FEED_LINE) {
            Ok(RawLine::Whole) => {}
            Ok(RawLine::End) => break "the feed closed".to_string(),
            Ok(RawLine::Partial) if buf.len() > MAX_FEED_LINE => {
                // Too long: its rest is skipped, never kept.
                if let Err(e) = r.skip_until(b'\n') {
                    break format!("the feed failed: {e}");
                }
                buf.clear();
                buf.extend_from_slice(b"(too long)");
            }
            Ok(RawLine::Partial) => break "the feed sent a line without an end".to_string(),
            Err(e) => break format!("the feed failed: {e}"),
        }
        match multi::parse(&buf) {
            Ok(l) => {
                copy.take(l.name, l.number, l.line)?;
                lines += 1;
            }
            Err(e) => {
                malformed += 1;
                if malformed <= TOLD_MALFORMED {
                    let say = format!("a line of the feed skipped: {e}");
                    if tx.send(FeedReport::Status(say)).is_err() {
                        return Ok("nobody watches".into());
                    }
                }
            }
        }
        if r.buffer().is_empty() {
            copy.sync()?;
        }
    };
    let skipped = if malformed > 0 {
        format!(" ({malformed} malformed lines skipped)")
    } else {
        String::new()
    };
    Ok(format!("{why} after {lines} lines{skipped}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::format::MAX_LINE;
    use crossbeam_channel::unbounded;

    fn feed(lines: &[&[u8]]) -> Vec<u8> {
        let mut v = format!("{}\n", multi::greeting()).into_bytes();
        for l in lines {
            v.extend_from_slice(l);
            v.push(b'\n');
        }
        v
    }

    fn read(dir: &Path, input: &[u8]) -> (Result<String, String>, Vec<FeedReport>) {
        let mut copy = CopyDir::open(dir, "tournament.journal").unwrap();
        let (tx, rx) = unbounded();
        let got = read_feed(BufReader::new(input), &mut copy, &tx);
        (got, rx.try_iter().collect())
    }

    #[test]
    fn the_lines_go_to_their_files_and_a_feed_read_again_goes_on_after_them() {
        let dir = tempfile::tempdir().unwrap();
        let first: [&[u8]; 4] = [
            b"tournament.journal 1 t1",
            b"game-001/journal.log 1 g1",
            b"game-001/journal.log 2 g2",
            b"tournament.journal 2 t2",
        ];
        let input = feed(&first);
        let (got, reports) = read(dir.path(), &input);
        assert_eq!(got.unwrap(), "the feed closed after 4 lines");
        assert!(reports.is_empty(), "{reports:?}");
        let text = |n: &str| std::fs::read_to_string(dir.path().join(n)).unwrap();
        assert_eq!(text("tournament.journal"), "t1\nt2\n");
        assert_eq!(text("game-001/journal.log"), "g1\ng2\n");
        // A torn last line in the copy is cut; the same feed, longer, read
        // again from its start: only the new lines are added.
        let mut f = OpenOptions::new()
            .append(true)
            .open(dir.path().join("game-001/journal.log"))
            .unwrap();
        f.write_all(b"g3 to").unwrap();
        drop(f);
        let mut again = first.to_vec();
        again.extend([
            &b"game-001/journal.log 3 g3"[..],
            b"tournament.journal 3 t3",
        ]);
        let input = feed(&again);
        let (got, _) = read(dir.path(), &input);
        assert!(got.is_ok(), "{got:?}");
        assert_eq!(text("tournament.journal"), "t1\nt2\nt3\n");
        assert_eq!(text("game-001/journal.log"), "g1\ng2\ng3\n");
    }

    #[test]
    fn malformed_and_oversize_lines_are_skipped_and_said_never_kept() {
        let dir = tempfile::tempdir().unwrap();
        let mut long = b"game-001/journal.log 2 ".to_vec();
        long.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        let mut endless = b"tournament.journal 2 ".to_vec();
        endless.extend(std::iter::repeat_n(b'y', 3 * MAX_FEED_LINE));
        let input = feed(&[
            b"tournament.journal 1 t1",
            b"../escape 1 x",
            b"/etc/passwd 1 x",
            b"game-001/journal.log zero g",
            b"\xff\xfe\x00",
            &long,
            &endless,
            b"",
            b"game-001/journal.log 1 g1",
        ]);
        let (got, reports) = read(dir.path(), &input);
        let got = got.unwrap();
        assert!(
            got.contains("after 2 lines") && got.contains("7 malformed lines skipped"),
            "{got}"
        );
        assert_eq!(reports.len(), TOLD_MALFORMED, "{reports:?}");
        assert!(
            matches!(&reports[0], FeedReport::Status(s) if s.contains("plain relative path")),
            "{reports:?}"
        );
        let text = |n: &str| std::fs::read_to_string(dir.path().join(n)).unwrap();
        assert_eq!(text("tournament.journal"), "t1\n");
        assert_eq!(text("game-001/journal.log"), "g1\n");
        assert!(!dir.path().parent().unwrap().join("escape").exists());
        // Only the two files were made.
        let made: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(made.len(), 2, "{made:?}");
    }

    #[test]
    fn a_gap_a_difference_or_another_feed_stops_the_copy() {
        let dir = tempfile::tempdir().unwrap();
        let (got, _) = read(dir.path(), &feed(&[b"tournament.journal 2 t2"]));
        assert!(got.unwrap_err().contains("line 2 came after line 0"));
        let (got, _) = read(dir.path(), &feed(&[b"tournament.journal 1 t1"]));
        assert!(got.is_ok());
        let (got, _) = read(dir.path(), &feed(&[b"tournament.journal 1 other"]));
        assert!(
            got.unwrap_err()
                .contains("differs from the copy's at line 1")
        );
        let (got, _) = read(dir.path(), b"argus-journal 1 argus 0.1.0\n");
        assert!(got.unwrap_err().contains("not a tournament's feed"));
        let (got, _) = read(dir.path(), b"argus-feed-files 9\n");
        assert!(got.unwrap_err().contains("version"));
        let (got, _) = read(dir.path(), b"");
        assert_eq!(got.unwrap(), "the feed closed before its first line");
    }

    #[test]
    fn a_copy_is_held_by_one_watcher() {
        let dir = tempfile::tempdir().unwrap();
        let _first = CopyDir::open(dir.path(), "tournament.journal").unwrap();
        assert!(CopyDir::open(dir.path(), "tournament.journal").is_err());
    }
}
