//! The journal over TCP (`argus referee --feed ADDR:PORT`): every
//! connection gets the journal from its first line and then each line as
//! it is appended, read from the file itself (so the file is the only
//! buffer: a slow watcher costs no memory). A watcher keeps its own copy
//! and can take over with `argus resume` on another machine.
//!
//! A tournament (`argus tournament --feed`) serves several journals at
//! once, its own and every game's, as a [`FileSet`]: each line goes out
//! tagged with its file's name and number ([`multi`] has the form), read
//! from the files in the same way.

pub mod multi;

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::net::{Shutdown, TcpListener, TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use log::{info, warn};

use crate::journal::format::MAX_LINE;

/// How often a connection looks for new lines.
const POLL: Duration = Duration::from_millis(50);
/// At most this many watchers at once.
pub const MAX_WATCHERS: usize = 16;
/// How long a write to a watcher may block before it is dropped.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// A running feed.
pub struct Feed {
    addr: std::net::SocketAddr,
    closing: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

impl Feed {
    /// Listens on `addr` and serves the journal at `path` to every
    /// connection. The error names the address.
    pub fn start(addr: &str, path: &Path) -> io::Result<Feed> {
        Feed::serve(addr, Served::Journal(path.to_path_buf()))
    }

    /// Listens on `addr` and serves every file of `files` to every
    /// connection, each line tagged ([`multi`]). The error names the
    /// address.
    pub fn start_files(addr: &str, files: FileSet) -> io::Result<Feed> {
        Feed::serve(addr, Served::Files(files))
    }

    fn serve(addr: &str, served: Served) -> io::Result<Feed> {
        let addrs: Vec<_> = addr
            .to_socket_addrs()
            .map_err(|e| io::Error::new(e.kind(), format!("feed address {addr:?}: {e}")))?
            .collect();
        let listener = TcpListener::bind(&addrs[..])
            .map_err(|e| io::Error::new(e.kind(), format!("cannot listen on {addr}: {e}")))?;
        listener.set_nonblocking(true)?;
        let local = listener.local_addr()?;
        let closing = Arc::new(AtomicBool::new(false));
        let flag = closing.clone();
        let acceptor = thread::Builder::new()
            .name("journal feed".into())
            .spawn(move || accept_loop(listener, served, flag))?;
        info!("journal feed on {local}");
        Ok(Feed {
            addr: local,
            closing,
            acceptor: Some(acceptor),
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> std::net::SocketAddr {
        self.addr
    }

    /// Stops accepting, lets every watcher receive the journal to its end
    /// (for at most `grace`), then closes the connections.
    pub fn close(mut self, grace: Duration) {
        self.closing.store(true, Ordering::SeqCst);
        let deadline = Instant::now() + grace;
        if let Some(a) = self.acceptor.take() {
            while !a.is_finished() && Instant::now() < deadline {
                thread::sleep(Duration::from_millis(10));
            }
            if a.is_finished() {
                let _ = a.join();
            }
        }
    }
}

impl Drop for Feed {
    fn drop(&mut self) {
        self.closing.store(true, Ordering::SeqCst);
    }
}

/// What a feed serves.
#[derive(Clone)]
enum Served {
    /// One journal, its lines as they are.
    Journal(PathBuf),
    /// Several, each line tagged with its file.
    Files(FileSet),
}

fn accept_loop(listener: TcpListener, served: Served, closing: Arc<AtomicBool>) {
    let active = Arc::new(AtomicUsize::new(0));
    let mut workers: Vec<JoinHandle<()>> = Vec::new();
    while !closing.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, peer)) => {
                workers.retain(|w| !w.is_finished());
                if active.load(Ordering::SeqCst) >= MAX_WATCHERS {
                    warn!("journal feed: {peer} refused ({MAX_WATCHERS} watchers already)");
                    let _ = stream.shutdown(Shutdown::Both);
                    continue;
                }
                info!("journal feed: {peer} connected");
                active.fetch_add(1, Ordering::SeqCst);
                let (served, closing, active) = (served.clone(), closing.clone(), active.clone());
                let spawned = thread::Builder::new()
                    .name("journal feed watcher".into())
                    .spawn(move || {
                        let done = match &served {
                            Served::Journal(path) => serve(stream, path, &closing),
                            Served::Files(files) => serve_files(stream, files, &closing),
                        };
                        if let Err(e) = done {
                            info!("journal feed: {peer}: {e}");
                        }
                        active.fetch_sub(1, Ordering::SeqCst);
                    });
                match spawned {
                    Ok(w) => workers.push(w),
                    Err(e) => warn!("journal feed: cannot serve {peer}: {e}"),
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => thread::sleep(POLL),
            Err(e) => {
                warn!("journal feed: accept failed: {e}");
                thread::sleep(POLL);
            }
        }
    }
    // Closing: the watchers send what is left and stop.
    for w in workers {
        let _ = w.join();
    }
}

/// Sets a watcher's connection up for writing.
fn prepare(stream: &TcpStream) -> io::Result<()> {
    stream.set_nodelay(true)?;
    stream.set_write_timeout(Some(WRITE_TIMEOUT))
}

/// Sends the journal's complete lines as they appear; once `closing` is
/// set, sends what is left and closes.
fn serve(mut stream: TcpStream, path: &Path, closing: &AtomicBool) -> io::Result<()> {
    prepare(&stream)?;
    let mut c = Cursor::new(SetFile {
        name: String::new(),
        path: path.to_path_buf(),
        closed: false,
    });
    let mut buf = vec![0u8; 2 * MAX_LINE + 16];
    let mut out = Vec::with_capacity(buf.len());
    loop {
        // Checked before reading: after the flag, one more full read.
        let last_round = closing.load(Ordering::SeqCst);
        send_file(&mut stream, &mut c, &mut buf, &mut out, as_is)?;
        if last_round || c.done {
            stream.flush()?;
            let _ = stream.shutdown(Shutdown::Write);
            return Ok(());
        }
        thread::sleep(POLL);
    }
}

/// A line of a single journal's feed: as it is in the file.
fn as_is(_: &str, _: u64, line: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(line);
    out.push(b'\n');
}

/// The files a tournament's feed serves: paths under one directory, named
/// by their path from it; a file is added when it is started and closed
/// when nothing more will be written to it (so a watcher stops looking at
/// it once it has sent it all). Cloned handles share the set.
#[derive(Clone, Debug)]
pub struct FileSet {
    root: PathBuf,
    files: Arc<Mutex<Vec<SetFile>>>,
}

#[derive(Clone, Debug)]
struct SetFile {
    name: String,
    path: PathBuf,
    closed: bool,
}

/// Why a file cannot be served in a [`FileSet`]: the file, and what
/// keeps its name from being served.
#[derive(Debug, thiserror::Error)]
pub enum FileSetError {
    #[error("{} is not in {}, the directory the feed serves", path.display(), root.display())]
    Outside { path: PathBuf, root: PathBuf },
    #[error("{}: not a UTF-8 name", .0.display())]
    NotUtf8(PathBuf),
    #[error("{}: {error}", path.display())]
    Name {
        path: PathBuf,
        error: multi::FeedLineError,
    },
}

error_words!(FileSetError);

impl FileSet {
    /// An empty set of files under `root`.
    pub fn new(root: &Path) -> FileSet {
        FileSet {
            root: root.to_path_buf(),
            files: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// Serves `path` (under the root; [`multi::check_name`] says which
    /// names can be served); a file already served is only opened again.
    pub fn add(&self, path: &Path, closed: bool) -> Result<(), FileSetError> {
        let name = self.name_of(path)?;
        self.serve(path, name, closed);
        Ok(())
    }

    /// Serves `path`, wherever it is, by the name `name` (an event's
    /// journal is `tournament.journal` on the wire, whatever its file is
    /// called).
    pub fn add_as(&self, path: &Path, name: &str, closed: bool) -> Result<(), FileSetError> {
        multi::check_name(name).map_err(|error| FileSetError::Name {
            path: path.to_path_buf(),
            error,
        })?;
        self.serve(path, name.to_string(), closed);
        Ok(())
    }

    fn serve(&self, path: &Path, name: String, closed: bool) {
        let mut files = self.files.lock().unwrap_or_else(PoisonError::into_inner);
        match files.iter_mut().find(|f| f.name == name) {
            Some(f) => f.closed = closed,
            None => files.push(SetFile {
                name,
                path: path.to_path_buf(),
                closed,
            }),
        }
    }

    /// Nothing more will be written to `path`.
    pub fn close(&self, path: &Path) {
        let mut files = self.files.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(f) = files.iter_mut().find(|f| f.path == path) {
            f.closed = true;
        }
    }

    /// The name `path` is served by: its path from the root, `/` between
    /// the parts.
    fn name_of(&self, path: &Path) -> Result<String, FileSetError> {
        let rel = path
            .strip_prefix(&self.root)
            .map_err(|_| FileSetError::Outside {
                path: path.to_path_buf(),
                root: self.root.clone(),
            })?;
        let parts: Option<Vec<&str>> = rel.iter().map(|p| p.to_str()).collect();
        let name = parts
            .map(|p| p.join("/"))
            .ok_or_else(|| FileSetError::NotUtf8(path.to_path_buf()))?;
        multi::check_name(&name).map_err(|error| FileSetError::Name {
            path: path.to_path_buf(),
            error,
        })?;
        Ok(name)
    }

    /// The files from the `from`th on, and whether each file is closed.
    fn look(&self, from: usize) -> (Vec<SetFile>, Vec<bool>) {
        let files = self.files.lock().unwrap_or_else(PoisonError::into_inner);
        let new = files.iter().skip(from).cloned().collect();
        (new, files.iter().map(|f| f.closed).collect())
    }
}

/// Where a watcher is in one file of a set.
struct Cursor {
    file: SetFile,
    open: Option<File>,
    /// Bytes and lines sent.
    sent: u64,
    lines: u64,
    /// Sent to the end of a closed file (or given up): not looked at again.
    done: bool,
}

impl Cursor {
    fn new(file: SetFile) -> Cursor {
        Cursor {
            file,
            open: None,
            sent: 0,
            lines: 0,
            done: false,
        }
    }
}

/// Sends every file of the set, each line tagged with its file's name and
/// number, as the lines appear; once `closing` is set, sends what is left
/// and closes. The games' lines go before the tournament's in each round
/// (the first file is the tournament's), so a watcher sees a game's moves
/// before its result.
fn serve_files(mut stream: TcpStream, files: &FileSet, closing: &AtomicBool) -> io::Result<()> {
    prepare(&stream)?;
    stream.write_all(format!("{}\n", multi::greeting()).as_bytes())?;
    let mut cursors: Vec<Cursor> = Vec::new();
    let mut buf = vec![0u8; 2 * MAX_LINE + 16];
    let mut out = Vec::with_capacity(buf.len() + 4096);
    loop {
        let last_round = closing.load(Ordering::SeqCst);
        let (new, closed) = files.look(cursors.len());
        cursors.extend(new.into_iter().map(Cursor::new));
        let order = (1..cursors.len()).chain((!cursors.is_empty()).then_some(0));
        for i in order {
            let c = &mut cursors[i];
            if c.done {
                continue;
            }
            let was_closed = closed.get(i).copied().unwrap_or(false);
            send_file(&mut stream, c, &mut buf, &mut out, multi::encode)?;
            if was_closed {
                // Everything written before it was closed is sent.
                c.done = true;
                c.open = None;
            }
        }
        if last_round {
            stream.flush()?;
            let _ = stream.shutdown(Shutdown::Write);
            return Ok(());
        }
        thread::sleep(POLL);
    }
}

/// Sends the whole lines of one file that appeared since the last look,
/// each as `encode` (given the file's name, the line's number and the
/// line) puts it.
fn send_file(
    stream: &mut TcpStream,
    c: &mut Cursor,
    buf: &mut [u8],
    out: &mut Vec<u8>,
    encode: fn(&str, u64, &[u8], &mut Vec<u8>),
) -> io::Result<()> {
    if c.open.is_none() {
        match File::open(&c.file.path) {
            Ok(f) => c.open = Some(f),
            // Not there yet: looked for again next round.
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => {
                warn!("journal feed: {}: {e}; not served", c.file.path.display());
                c.done = true;
                return Ok(());
            }
        }
    }
    let Some(file) = c.open.as_mut() else {
        return Ok(());
    };
    loop {
        file.seek(SeekFrom::Start(c.sent))?;
        let n = file.read(buf)?;
        let chunk = &buf[..n];
        let Some(end) = chunk.iter().rposition(|&b| b == b'\n') else {
            if n == buf.len() {
                warn!(
                    "journal feed: {}: a line longer than {MAX_LINE} bytes; the rest of \
                     the file is not served",
                    c.file.path.display()
                );
                c.done = true;
            }
            return Ok(());
        };
        out.clear();
        for line in chunk[..end].split(|&b| b == b'\n') {
            c.lines += 1;
            encode(&c.file.name, c.lines, line, out);
        }
        stream.write_all(out)?;
        c.sent += end as u64 + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::reader::{RawLine, read_line_within};
    use std::io::BufReader;

    /// A line of a files feed: its file, its number, the line.
    type Fed = (String, u64, Vec<u8>);

    /// Reads a files feed to its end: its greeting, then its lines.
    fn read_feed(addr: std::net::SocketAddr) -> (Vec<u8>, Vec<Fed>) {
        let stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let mut r = BufReader::new(stream);
        let mut buf = Vec::new();
        assert_eq!(
            read_line_within(&mut r, &mut buf, multi::MAX_FEED_LINE).unwrap(),
            RawLine::Whole
        );
        let greeting = buf.clone();
        let mut lines = Vec::new();
        while read_line_within(&mut r, &mut buf, multi::MAX_FEED_LINE).unwrap() == RawLine::Whole {
            let l = multi::parse(&buf).unwrap();
            lines.push((l.name.to_string(), l.number, l.line.to_vec()));
        }
        (greeting, lines)
    }

    #[test]
    fn a_file_set_is_served_tagged_games_before_the_tournament_and_to_its_end() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        // The event journal (`--journal m.journal`) is served by the name
        // a copy's layout gives it.
        let t = root.join("m.journal");
        std::fs::write(&t, "t1\nt2\n").unwrap();
        std::fs::create_dir(root.join("game-001")).unwrap();
        let g = root.join("game-001").join("journal.log");
        std::fs::write(&g, "g1\ng2\ntorn").unwrap();
        let set = FileSet::new(root);
        set.add_as(&t, "tournament.journal", false).unwrap();
        assert!(set.add_as(&t, "../x", false).is_err(), "a name not plain");
        set.add(&g, false).unwrap();
        // A file not under the root, or with a name that is not plain, is
        // refused.
        assert!(set.add(Path::new("/etc/passwd"), true).is_err());
        assert!(set.add(&root.join(".hidden"), true).is_err());
        // Added before it exists: served once it does.
        let later = root.join("game-002").join("journal.log");
        set.add(&later, false).unwrap();
        let feed = Feed::start_files("127.0.0.1:0", set.clone()).unwrap();
        let addr = feed.local_addr();
        let reader = thread::spawn(move || read_feed(addr));
        thread::sleep(Duration::from_millis(200));
        std::fs::create_dir(root.join("game-002")).unwrap();
        std::fs::write(&later, "h1\n").unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&g)
            .unwrap()
            .write_all(b" line\n")
            .unwrap();
        set.close(&g);
        thread::sleep(Duration::from_millis(200));
        std::fs::write(&t, "t1\nt2\nt3\n").unwrap();
        feed.close(Duration::from_secs(5));
        let (greeting, lines) = reader.join().unwrap();
        assert_eq!(greeting, multi::greeting().as_bytes());
        let of = |name: &str| -> Vec<String> {
            lines
                .iter()
                .filter(|l| l.0 == name)
                .map(|l| format!("{} {}", l.1, String::from_utf8_lossy(&l.2)))
                .collect()
        };
        assert_eq!(of("tournament.journal"), ["1 t1", "2 t2", "3 t3"]);
        assert_eq!(of("game-001/journal.log"), ["1 g1", "2 g2", "3 torn line"]);
        assert_eq!(of("game-002/journal.log"), ["1 h1"]);
        assert!(of("m.journal").is_empty());
        assert_eq!(lines.len(), 7);
        // In the first round the game's lines went before the tournament's.
        let first_t = lines.iter().position(|l| l.0 == "tournament.journal");
        let first_g = lines.iter().position(|l| l.0 == "game-001/journal.log");
        assert!(first_g < first_t, "{lines:?}");
    }
}
