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
use std::path::Path;
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
    Failed(String),
}

/// Sends the whole lines of the journal of kind `kind` at `path` as they
/// are written, until nobody listens. An
/// incomplete last line is read again from its start on every look (a
/// resume may have cut it off and written other lines in its place).
pub fn follow_file(path: &Path, kind: Kind, tx: &Sender<SourceReport>) {
    let fail = |what: String| {
        let _ = tx.send(SourceReport::Failed(what));
    };
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) => return fail(format!("cannot open the journal {}: {e}", path.display())),
    };
    // The end of the last whole line sent.
    let mut pos: u64 = 0;
    let mut buf = vec![0u8; 2 * MAX_LINE + 16];
    loop {
        let len = match file.metadata() {
            Ok(m) => m.len(),
            Err(e) => return fail(format!("cannot read {}: {e}", path.display())),
        };
        if len < pos {
            pos = len;
            if tx.send(SourceReport::Shrunk(len)).is_err() {
                return;
            }
        }
        let n = match file
            .seek(SeekFrom::Start(pos))
            .and_then(|_| file.read(&mut buf))
        {
            Ok(n) => n,
            Err(e) => return fail(format!("cannot read {}: {e}", path.display())),
        };
        let chunk = &buf[..n];
        if pos == 0 && !kind.may_be(chunk) {
            return fail(not_a_journal(path, Some(kind)));
        }
        let whole = chunk.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if whole == 0 && n == buf.len() {
            return fail(format!(
                "{}: a line longer than {MAX_LINE} bytes (not a journal?)",
                path.display()
            ));
        }
        let mut start = 0;
        for (i, &b) in chunk[..whole].iter().enumerate() {
            if b == b'\n' {
                if tx
                    .send(SourceReport::Line(chunk[start..i].to_vec()))
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
            if tx.send(SourceReport::Idle).is_err() {
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
