//! The journal over TCP (`argus referee --feed ADDR:PORT`): every
//! connection gets the journal from its first line and then each line as
//! it is appended, read from the file itself (so the file is the only
//! buffer: a slow watcher costs no memory). A watcher keeps its own copy
//! and can take over with `argus resume` on another machine.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::net::{Shutdown, TcpListener, TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
        let addrs: Vec<_> = addr
            .to_socket_addrs()
            .map_err(|e| io::Error::new(e.kind(), format!("feed address {addr:?}: {e}")))?
            .collect();
        let listener = TcpListener::bind(&addrs[..])
            .map_err(|e| io::Error::new(e.kind(), format!("cannot listen on {addr}: {e}")))?;
        listener.set_nonblocking(true)?;
        let local = listener.local_addr()?;
        let closing = Arc::new(AtomicBool::new(false));
        let path = path.to_path_buf();
        let flag = closing.clone();
        let acceptor = thread::Builder::new()
            .name("journal feed".into())
            .spawn(move || accept_loop(listener, path, flag))?;
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

fn accept_loop(listener: TcpListener, path: PathBuf, closing: Arc<AtomicBool>) {
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
                let (path, closing, active) = (path.clone(), closing.clone(), active.clone());
                let spawned = thread::Builder::new()
                    .name("journal feed watcher".into())
                    .spawn(move || {
                        if let Err(e) = serve(stream, &path, &closing) {
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

/// Sends the journal's complete lines as they appear; once `closing` is
/// set, sends what is left and closes.
fn serve(mut stream: TcpStream, path: &Path, closing: &AtomicBool) -> io::Result<()> {
    stream.set_nodelay(true)?;
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    let mut file = File::open(path)?;
    let mut sent: u64 = 0;
    let mut buf = vec![0u8; 2 * MAX_LINE + 16];
    loop {
        // Checked before reading: after the flag, one more full read.
        let last_round = closing.load(Ordering::SeqCst);
        file.seek(SeekFrom::Start(sent))?;
        loop {
            let n = file.read(&mut buf)?;
            if n == 0 {
                break;
            }
            // Only whole lines: up to the last line end read.
            let Some(end) = buf[..n].iter().rposition(|&b| b == b'\n') else {
                break;
            };
            stream.write_all(&buf[..=end])?;
            sent += end as u64 + 1;
            file.seek(SeekFrom::Start(sent))?;
        }
        if last_round {
            stream.flush()?;
            let _ = stream.shutdown(Shutdown::Write);
            return Ok(());
        }
        thread::sleep(POLL);
    }
}
