//! Following a journal's lines as they are written, on a thread of its
//! own: from a file that grows ([`follow_file`]) or from a feed over TCP,
//! connected to again whenever it closes ([`each_connection`]). Shared by
//! `argus watch` of a match (`app::watch`) and of a tournament
//! (`app::tournament::watch`, and `app::tournament::copy` for its feed),
//! which import it and not each other; what the lines say is the journal
//! follower's business ([`crate::journal::follow`]).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::net::{TcpStream, ToSocketAddrs};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::Sender;

use crate::journal::format::MAX_LINE;
use crate::journal::kind::{Kind, not_a_journal};
use crate::link::{Trying, connect_words};

/// How often a journal file is looked at for new lines.
const FILE_POLL: Duration = Duration::from_millis(100);
/// How long to wait before connecting to a feed again.
pub const RECONNECT: Duration = Duration::from_secs(1);

/// What the source thread reports.
#[derive(Debug)]
pub enum SourceReport {
    /// A whole line, without its line end.
    Line(Vec<u8>),
    /// The file was cut to this length (a resume dropped a torn line).
    Shrunk(u64),
    /// Something to tell the user; the source goes on.
    Status(String),
    /// Nothing new (the source checks that someone still listens).
    Idle,
    /// The source cannot go on.
    Failed(SourceError),
}

/// Why a journal's source cannot go on: its file cannot be read or is no
/// journal, or its feed is not the one a copy was made of.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("cannot open the journal {}: {error}", path.display())]
    Open { path: PathBuf, error: io::Error },
    #[error("cannot read {}: {error}", path.display())]
    Read { path: PathBuf, error: io::Error },
    /// Its first line is not a journal's of the kind expected.
    #[error("{}", not_a_journal(path, Some(*kind)))]
    NotAJournal { path: PathBuf, kind: Kind },
    /// No line end within [`MAX_LINE`] bytes.
    #[error("{}: a line longer than {MAX_LINE} bytes (not a journal?)", path.display())]
    TooLong { path: PathBuf },
    /// The feed's session line is not the copy's.
    #[error(
        "the feed at {addr} serves another match ({served}) than the copy ({copied}): \
         use another --copy file"
    )]
    OtherMatch {
        addr: String,
        served: String,
        copied: String,
    },
    /// The feed's last line the copy has differs from the copy's.
    #[error("the feed at {addr} differs from the copy at line {line}: use another --copy file")]
    Differs { addr: String, line: usize },
}

/// Sends the whole lines of the journal of kind `kind` at `path` as they
/// are written, until nobody listens. An
/// incomplete last line is read again from its start on every look (a
/// resume may have cut it off and written other lines in its place).
pub fn follow_file<T: From<SourceReport>>(path: &Path, kind: Kind, tx: &Sender<T>) {
    let fail = |what: SourceError| {
        let _ = tx.send(SourceReport::Failed(what).into());
    };
    let read = |error: io::Error| SourceError::Read {
        path: path.to_path_buf(),
        error,
    };
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(error) => {
            return fail(SourceError::Open {
                path: path.to_path_buf(),
                error,
            });
        }
    };
    // The end of the last whole line sent.
    let mut pos: u64 = 0;
    let mut buf = vec![0u8; 2 * MAX_LINE + 16];
    loop {
        let len = match file.metadata() {
            Ok(m) => m.len(),
            Err(e) => return fail(read(e)),
        };
        if len < pos {
            pos = len;
            if tx.send(SourceReport::Shrunk(len).into()).is_err() {
                return;
            }
        }
        let n = match file
            .seek(SeekFrom::Start(pos))
            .and_then(|_| file.read(&mut buf))
        {
            Ok(n) => n,
            Err(e) => return fail(read(e)),
        };
        let chunk = &buf[..n];
        if pos == 0 && !kind.may_be(chunk) {
            return fail(SourceError::NotAJournal {
                path: path.to_path_buf(),
                kind,
            });
        }
        let whole = chunk.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if whole == 0 && n == buf.len() {
            return fail(SourceError::TooLong {
                path: path.to_path_buf(),
            });
        }
        let mut start = 0;
        for (i, &b) in chunk[..whole].iter().enumerate() {
            if b == b'\n' {
                if tx
                    .send(SourceReport::Line(chunk[start..i].to_vec()).into())
                    .is_err()
                {
                    return;
                }
                start = i + 1;
            }
        }
        pos += whole as u64;
        if whole == 0 {
            thread::sleep(FILE_POLL);
            // Stop when nobody listens any more.
            if tx.send(SourceReport::Idle.into()).is_err() {
                return;
            }
        }
    }
}

/// Where a feed's connection stands, for [`each_connection`]'s caller to
/// tell.
pub enum FeedState {
    /// It cannot be reached (said at once, then now and then with how long
    /// it has been tried: [`Trying`]): what to say.
    Unreachable(String),
    /// Another try failed; the next is in a second.
    Waiting,
    /// Connected: what to say.
    Connected(String),
}

/// Connects to the feed at `addr`, and again a second after each failure
/// or end, handing each connection to `read`; `tell` hears how it stands
/// (false: nobody listens, stop); `read` breaks to stop.
pub fn each_connection(
    addr: &str,
    mut tell: impl FnMut(FeedState) -> bool,
    mut read: impl FnMut(TcpStream) -> ControlFlow<()>,
) {
    let mut trying = Trying::default();
    loop {
        match connect(addr) {
            Ok(stream) => {
                trying.succeeded();
                let said = format!("connected to the feed at {addr}");
                if !tell(FeedState::Connected(said)) || read(stream).is_break() {
                    return;
                }
            }
            Err(e) => {
                let why = format!("cannot reach the feed at {addr}: {}", connect_words(&e));
                if let Some(say) = trying.failed(&why, Instant::now())
                    && !tell(FeedState::Unreachable(say))
                {
                    return;
                }
                thread::sleep(RECONNECT);
                if !tell(FeedState::Waiting) {
                    return;
                }
                continue;
            }
        }
        thread::sleep(RECONNECT);
    }
}

/// Connects to a feed at `addr` (each of its addresses in turn).
pub fn connect(addr: &str) -> io::Result<TcpStream> {
    let mut last = io::Error::new(io::ErrorKind::NotFound, "no address");
    for a in addr.to_socket_addrs()? {
        match TcpStream::connect_timeout(&a, Duration::from_secs(3)) {
            Ok(s) => return Ok(s),
            Err(e) => last = e,
        }
    }
    Err(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the source reported last before it stopped.
    fn failure_of(path: &Path) -> SourceError {
        let (tx, rx) = crossbeam_channel::unbounded();
        follow_file(path, Kind::Match, &tx);
        drop(tx);
        rx.iter()
            .find_map(|r| match r {
                SourceReport::Failed(e) => Some(e),
                _ => None,
            })
            .expect("the source failed")
    }

    #[test]
    fn a_file_source_says_why_it_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.journal");
        let e = failure_of(&missing);
        assert!(
            matches!(&e, SourceError::Open { path, .. } if *path == missing),
            "{e}"
        );
        assert!(e.to_string().starts_with("cannot open the journal "), "{e}");

        let other = dir.path().join("notes.txt");
        std::fs::write(&other, "shopping list\n").unwrap();
        let e = failure_of(&other);
        assert!(
            matches!(
                &e,
                SourceError::NotAJournal {
                    kind: Kind::Match,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("is not an argus journal"), "{e}");
    }
}
