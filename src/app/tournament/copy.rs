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
use crate::journal::feed::multi::{self, FeedLineError, MAX_FEED_LINE};
use crate::journal::reader::{RawLine, read_line, read_line_within};

/// At most this many files in a copy.
pub const MAX_FILES: usize = 100_000;
/// At most this many of its files open at once.
const OPEN_FILES: usize = 16;
/// Malformed lines reported one by one per connection; the rest counted.
const TOLD_MALFORMED: usize = 3;

/// Why the copy cannot take what it is given: a file of it that cannot
/// be had, or a line the copy must not keep.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    /// A file or directory of the copy that cannot be made, read, written,
    /// cut or synced: what was being done (`make the copy directory DIR`,
    /// `write the copy of NAME`, ...), and the I/O error.
    #[error("cannot {doing}: {source}")]
    Io {
        doing: String,
        source: std::io::Error,
    },
    /// The copy's tournament journal is locked by another watcher, or
    /// cannot be locked (the error names the file).
    #[error("{0}")]
    Lock(std::io::Error),
    /// The copy at the directory already holds more files than a copy may.
    #[error("the copy {0} holds more than {MAX_FILES} files")]
    HoldsTooMany(PathBuf),
    /// A file name the copy does not take.
    #[error(transparent)]
    Name(#[from] FeedLineError),
    /// The feed's line `number` of `name` is not the copy's: another
    /// tournament's feed.
    #[error(
        "the feed's {name} differs from the copy's at line {number}: it serves \
         another tournament? use another copy directory"
    )]
    Differs { name: String, number: u64 },
    /// The feed sent line `number` of `name` with the copy at `have`.
    #[error("the feed skipped lines of {name}: line {number} came after line {have}")]
    Skipped {
        name: String,
        number: u64,
        have: u64,
    },
    /// The feed names more files than a copy may hold; `name` not kept.
    #[error("the feed serves more than {MAX_FILES} files; {0} is not kept")]
    ServesTooMany(String),
}

/// Why one connection of a feed stops the copy.
#[derive(Debug, thiserror::Error)]
pub enum FeedError {
    /// Its first line is not a files feed's greeting (how it begins).
    #[error("not a tournament's feed (its first line begins {0:?})")]
    NotAFeed(String),
    /// Its greeting is a files feed's of a version argus does not read.
    #[error(transparent)]
    Greeting(FeedLineError),
    /// The copy could not take a line of it.
    #[error(transparent)]
    Copy(#[from] CopyError),
}

/// Why following a feed stopped: the feed at `addr`, or syncing the copy
/// after a connection.
#[derive(Debug, thiserror::Error)]
pub enum FollowError {
    #[error("the feed at {addr}: {error}")]
    Feed { addr: String, error: FeedError },
    #[error(transparent)]
    Sync(CopyError),
}

fn io_error(doing: String) -> impl FnOnce(std::io::Error) -> CopyError {
    move |source| CopyError::Io { doing, source }
}

/// What the feed's reader reports.
#[derive(Debug)]
pub enum FeedReport {
    /// Something to tell the user; the reader goes on.
    Status(String),
    /// The feed closed (the referee ended or stopped): the copy holds
    /// everything received, synced. The reader connects again.
    Closed(String),
    /// The copy cannot go on.
    Failed(FollowError),
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
    pub fn open(dir: &Path, journal: &str) -> Result<CopyDir, CopyError> {
        std::fs::create_dir_all(dir).map_err(io_error(format!(
            "make the copy directory {}",
            dir.display()
        )))?;
        let path = dir.join(journal);
        let lock = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(io_error(format!("open the copy {}", path.display())))?;
        crate::journal::writer::lock(&lock, &path, "copy").map_err(CopyError::Lock)?;
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
    fn count(&mut self, dir: &Path, prefix: &str, depth: usize) -> Result<(), CopyError> {
        let doing = || format!("read the copy directory {}", dir.display());
        let entries = std::fs::read_dir(dir).map_err(io_error(doing()))?;
        for entry in entries {
            let entry = entry.map_err(io_error(doing()))?;
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
                        return Err(CopyError::HoldsTooMany(self.dir.clone()));
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
    pub fn take(&mut self, name: &str, number: u64, line: &[u8]) -> Result<(), CopyError> {
        multi::check_name(name)?;
        let kept = self.kept.get(name).copied();
        let have = kept.map_or(0, |k| k.lines);
        if number <= have {
            if number == have && kept.is_some_and(|k| k.last != hash_of(line)) {
                return Err(CopyError::Differs {
                    name: name.to_string(),
                    number,
                });
            }
            return Ok(());
        }
        if number > have + 1 {
            return Err(CopyError::Skipped {
                name: name.to_string(),
                number,
                have,
            });
        }
        if kept.is_none() && self.kept.len() >= MAX_FILES {
            return Err(CopyError::ServesTooMany(name.to_string()));
        }
        let file = self.file(name)?;
        file.write_all(line)
            .and_then(|()| file.write_all(b"\n"))
            .map_err(io_error(format!("write the copy of {name}")))?;
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
    fn file(&mut self, name: &str) -> Result<&mut File, CopyError> {
        if !self.open.contains_key(name)
            && self.open.len() >= OPEN_FILES
            && let Some((old, f)) = self.open.pop_first()
        {
            f.sync_data()
                .map_err(io_error(format!("sync the copy of {old}")))?;
        }
        match self.open.entry(name.to_string()) {
            std::collections::btree_map::Entry::Occupied(f) => Ok(f.into_mut()),
            std::collections::btree_map::Entry::Vacant(slot) => {
                let path = self.dir.join(name);
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(io_error(format!("make {}", parent.display())))?;
                }
                let f = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&path)
                    .map_err(io_error(format!("open the copy {}", path.display())))?;
                Ok(slot.insert(f))
            }
        }
    }

    /// Syncs what was written.
    pub fn sync(&mut self) -> Result<(), CopyError> {
        for (name, f) in &self.open {
            f.sync_data()
                .map_err(io_error(format!("sync the copy of {name}")))?;
        }
        Ok(())
    }
}

/// The whole lines of a file the copy holds; a torn last line is cut off
/// (the watcher stopped while writing it; the feed sends it again).
fn count_lines(path: &Path) -> Result<Kept, CopyError> {
    let what = || io_error(format!("read the copy {}", path.display()));
    let file = File::open(path).map_err(what())?;
    let mut r = BufReader::new(&file);
    let mut buf = Vec::new();
    let (mut lines, mut last, mut whole) = (0u64, 0u64, 0u64);
    loop {
        match read_line(&mut r, &mut buf).map_err(what())? {
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
                    .map_err(io_error(format!("cut the torn end of {}", path.display())))?;
                break;
            }
        }
    }
    Ok(Kept { lines, last })
}

/// Reads the feed at `addr` into `copy`, connecting again whenever it
/// closes, until nobody listens to `tx`.
pub fn follow<T: From<FeedReport>>(addr: &str, mut copy: CopyDir, tx: &Sender<T>) {
    let tell = |state: FeedState| match state {
        FeedState::Unreachable(say) | FeedState::Connected(say) => {
            tx.send(FeedReport::Status(say).into()).is_ok()
        }
        FeedState::Waiting => true,
    };
    each_connection(addr, tell, |stream| {
        let ended = read_feed(BufReader::new(stream), &mut copy, tx)
            .map_err(|error| FollowError::Feed {
                addr: addr.to_string(),
                error,
            })
            .and_then(|why| copy.sync().map(|()| why).map_err(FollowError::Sync));
        let report = match ended {
            Ok(why) => FeedReport::Closed(format!("{why}; reconnecting to {addr}")),
            Err(e) => {
                let _ = tx.send(FeedReport::Failed(e).into());
                return ControlFlow::Break(());
            }
        };
        match tx.send(report.into()) {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()),
        }
    });
}

/// Reads one connection of a files feed into `copy`: why it ended, or the
/// error that stops the copy.
pub fn read_feed<T: From<FeedReport>>(
    mut r: BufReader<impl Read>,
    copy: &mut CopyDir,
    tx: &Sender<T>,
) -> Result<String, FeedError> {
    let mut buf = Vec::new();
    match read_line_within(&mut r, &mut buf, MAX_FEED_LINE) {
        Ok(RawLine::Whole) => {}
        Ok(_) => return Ok("the feed closed before its first line".into()),
        Err(e) => return Ok(format!("the feed failed: {e}")),
    }
    if !multi::is_greeting(&buf).map_err(FeedError::Greeting)? {
        return Err(FeedError::NotAFeed(crate::text::strip_control(
            &String::from_utf8_lossy(&buf[..buf.len().min(40)]),
        )));
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
                    if tx.send(FeedReport::Status(say).into()).is_err() {
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

    fn read(dir: &Path, input: &[u8]) -> (Result<String, FeedError>, Vec<FeedReport>) {
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
        let e = got.unwrap_err();
        assert!(
            matches!(
                &e,
                FeedError::Copy(CopyError::Skipped {
                    number: 2,
                    have: 0,
                    ..
                })
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("line 2 came after line 0"), "{e}");
        let (got, _) = read(dir.path(), &feed(&[b"tournament.journal 1 t1"]));
        assert!(got.is_ok());
        let (got, _) = read(dir.path(), &feed(&[b"tournament.journal 1 other"]));
        let e = got.unwrap_err();
        assert!(
            matches!(&e, FeedError::Copy(CopyError::Differs { number: 1, .. })),
            "{e:?}"
        );
        assert!(
            e.to_string().contains("differs from the copy's at line 1"),
            "{e}"
        );
        let (got, _) = read(dir.path(), b"argus-journal 1 argus 0.1.0\n");
        let e = got.unwrap_err();
        assert!(matches!(&e, FeedError::NotAFeed(_)), "{e:?}");
        assert!(e.to_string().contains("not a tournament's feed"), "{e}");
        let (got, _) = read(dir.path(), b"argus-feed-files 9\n");
        let e = got.unwrap_err();
        assert!(matches!(&e, FeedError::Greeting(_)), "{e:?}");
        assert!(e.to_string().contains("version"), "{e}");
        let (got, _) = read(dir.path(), b"");
        assert_eq!(got.unwrap(), "the feed closed before its first line");
    }

    #[test]
    fn a_copy_is_held_by_one_watcher() {
        let dir = tempfile::tempdir().unwrap();
        let _first = CopyDir::open(dir.path(), "tournament.journal").unwrap();
        let Err(e) = CopyDir::open(dir.path(), "tournament.journal") else {
            panic!("a second watcher took the copy")
        };
        assert!(matches!(e, CopyError::Lock(_)), "{e:?}");
        assert!(e.to_string().contains("in use by another argus"), "{e}");
    }
}
