//! The audience's HTTP server: an accept thread, and a thread per
//! connection, both bounded. A request is read (at most
//! [`http::MAX_HEAD`] bytes, within [`READ_WITHIN`]), answered and the
//! connection closed; `/events` keeps its thread as a viewer of the
//! [`Hub`] until the viewer goes, falls behind or cannot be written to
//! within [`WRITE_WITHIN`].
//!
//! Why no HTTP server crate: tiny_http, the small blocking one, starts a
//! thread for every connection with no cap and sets no socket timeouts,
//! so a crowd of idle or unread connections would hold threads and memory
//! without bound. The request head is parsed by `httparse` (hyper's
//! parser); the rest is what this module does: caps, timeouts, routes.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::RecvTimeoutError;
use log::{info, warn};

use crate::web::assets::{asset, asset_path};
use crate::web::http::{
    self, Head, HeadError, Route, parse_head, response_head, route, sse_event, stream_head,
    text_response,
};
use crate::web::hub::{Hub, Publisher};

/// How long a client has to send its request head.
pub const READ_WITHIN: Duration = Duration::from_secs(5);
/// How long one write to a client may block before it is given up.
pub const WRITE_WITHIN: Duration = Duration::from_secs(10);
/// A comment line on the event stream this often, so that a viewer gone
/// without a word is noticed.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// The kernel's send buffer for a viewer's stream: small, so that a
/// viewer that stops reading fills it (and then its queue) soon and is
/// dropped, and so that each viewer holds little kernel memory.
const STREAM_SEND_BUFFER: usize = 32 * 1024;
/// How long the page waits before reconnecting (the stream's `retry`).
const RETRY_MS: u32 = 2_000;

/// The server's bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Viewers of `/events` at once.
    pub viewers: usize,
    /// Updates queued for one viewer before it is dropped as too slow.
    pub queue: usize,
    /// Other requests being served at once (the page, JSON, PGN).
    pub requests: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            viewers: 256,
            queue: 32,
            requests: 32,
        }
    }
}

/// A running server: where it listens and the loop's publisher.
pub struct Served {
    pub addr: SocketAddr,
    pub publisher: Publisher,
}

/// Binds `addr` (exactly that address; port 0 picks a free port) and
/// starts the server's threads.
pub fn serve(addr: &str, limits: Limits) -> Result<Served, String> {
    let addrs: Vec<SocketAddr> = addr
        .to_socket_addrs()
        .map_err(|e| format!("--http {addr:?}: not an ADDRESS:PORT ({e})"))?
        .collect();
    let listener =
        TcpListener::bind(&addrs[..]).map_err(|e| format!("--http {addr}: cannot listen: {e}"))?;
    let bound = listener
        .local_addr()
        .map_err(|e| format!("--http {addr}: {e}"))?;
    let hub = Hub::new(limits.viewers, limits.queue);
    let publisher = Publisher::start(hub.clone())?;
    let busy = Arc::new(AtomicUsize::new(0));
    thread::Builder::new()
        .name("web accept".into())
        .spawn(move || accept(listener, hub, busy, limits.requests))
        .map_err(|e| format!("cannot start the web server: {e}"))?;
    info!("web: serving the audience on http://{bound}/");
    Ok(Served {
        addr: bound,
        publisher,
    })
}

/// One request being served: taken from the count of busy slots while
/// fewer than the cap are, given back when dropped (also when answering
/// panics, so a panic cannot leak a slot).
struct Slot(Arc<AtomicUsize>);

impl Slot {
    /// A slot, if fewer than `max` are taken.
    fn take(busy: &Arc<AtomicUsize>, max: usize) -> Option<Slot> {
        let taken = busy.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < max).then_some(n + 1)
        });
        taken.ok().map(|_| Slot(busy.clone()))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Takes connections for ever; each gets a thread while fewer than `max`
/// requests are being served, else a 503.
fn accept(listener: TcpListener, hub: Arc<Hub>, busy: Arc<AtomicUsize>, max: usize) {
    for conn in listener.incoming() {
        let mut stream = match conn {
            Ok(s) => s,
            Err(e) => {
                warn!("web: cannot accept a connection: {e}");
                // Out of file descriptors, say: do not spin.
                thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        let _ = stream.set_write_timeout(Some(WRITE_WITHIN));
        let _ = stream.set_read_timeout(Some(READ_WITHIN));
        let peer = stream
            .peer_addr()
            .unwrap_or_else(|_| SocketAddr::from(([0, 0, 0, 0], 0)));
        let Some(slot) = Slot::take(&busy, max) else {
            warn!("web: {peer} refused: {max} requests are being served");
            let _ = stream.write_all(text_response(503, "busy, try again", false).as_bytes());
            continue;
        };
        let hub = hub.clone();
        // A thread that cannot start drops its closure, and with it the slot.
        let spawned = thread::Builder::new()
            .name("web client".into())
            .spawn(move || handle(stream, peer, &hub, slot));
        if let Err(e) = spawned {
            warn!("web: {peer} refused: cannot start a thread: {e}");
        }
    }
}

/// Reads the request head; `None` if there is none to serve (an error
/// response has been sent).
fn read_head(stream: &mut TcpStream, peer: SocketAddr) -> Option<Head> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    // The whole head within READ_WITHIN, not each read: a client that
    // trickles a byte at a time does not keep its thread.
    let deadline = Instant::now() + READ_WITHIN;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let read = if left.is_zero() {
            Err(std::io::ErrorKind::TimedOut.into())
        } else {
            stream
                .set_read_timeout(Some(left))
                .and_then(|()| stream.read(&mut chunk))
        };
        let n = match read {
            Ok(0) => return None,
            Ok(n) => n,
            Err(e) => {
                let timed_out = matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                );
                if timed_out {
                    info!("web: {peer}: no request within {READ_WITHIN:?}");
                    let _ = stream.write_all(text_response(408, "too slow", false).as_bytes());
                }
                return None;
            }
        };
        buf.extend_from_slice(&chunk[..n]);
        match parse_head(&buf) {
            Ok(Some(head)) => return Some(head),
            Ok(None) => {}
            Err(e) => {
                let (status, why) = match e {
                    HeadError::TooLong => {
                        (431, format!("request head over {} bytes", http::MAX_HEAD))
                    }
                    HeadError::Malformed(m) => (400, format!("not an HTTP request: {m}")),
                };
                info!("web: {peer}: {why}");
                let _ = stream.write_all(text_response(status, &why, false).as_bytes());
                return None;
            }
        }
    }
}

/// Serves one connection; it holds its `slot` until it is answered (a
/// viewer is counted by the hub instead).
fn handle(mut stream: TcpStream, peer: SocketAddr, hub: &Hub, slot: Slot) {
    let head = read_head(&mut stream, peer);
    let Some(head) = head else {
        return;
    };
    info!("web: {peer} {}", head.for_log());
    let head_only = head.method == "HEAD";
    let route = route(&head.method, &head.path, asset_path);
    if route == Route::Events && !head_only {
        drop(slot);
        stream_events(stream, peer, hub);
        return;
    }
    let response = respond(&route, hub, head_only);
    if let Err(e) = stream.write_all(&response) {
        info!("web: {peer}: response not sent: {e}");
    }
    drop(slot);
}

/// Why a viewer is turned away.
fn too_many_viewers(max: usize) -> String {
    format!("too many viewers (at most {max})")
}

/// The whole response to a request other than the stream (a HEAD of the
/// stream included).
fn respond(route: &Route, hub: &Hub, head_only: bool) -> Vec<u8> {
    let ok = |content_type: &str, body: &[u8], cache: bool| {
        let mut r = response_head(200, content_type, body.len(), cache).into_bytes();
        if !head_only {
            r.extend_from_slice(body);
        }
        r
    };
    let text = |status, body: &str| text_response(status, body, head_only).into_bytes();
    let latest = hub.latest();
    match route {
        Route::Asset(path) => match asset(path) {
            Some((content_type, body)) => ok(content_type, body, true),
            None => text(404, "not found"),
        },
        // A HEAD of the stream: the head a viewer would get, no events.
        Route::Events if hub.viewer_count() >= hub.max_viewers => {
            text(503, &too_many_viewers(hub.max_viewers))
        }
        Route::Events => stream_head().into_bytes(),
        Route::State => match latest {
            Some(f) => ok(
                "application/json",
                f.envelope(Instant::now()).as_bytes(),
                false,
            ),
            None => text(503, "no state yet"),
        },
        Route::Games => {
            let mut all = String::new();
            for g in latest.iter().flat_map(|f| f.games.all()) {
                all.push_str(&g.text);
            }
            ok(
                "application/x-chess-pgn; charset=utf-8",
                all.as_bytes(),
                false,
            )
        }
        Route::Game(n) => match latest.as_ref().and_then(|f| f.games.get(*n)) {
            Some(g) => ok(
                "application/x-chess-pgn; charset=utf-8",
                g.text.as_bytes(),
                false,
            ),
            None => text(404, &format!("no game {n} (yet, or any more)")),
        },
        Route::NotFound => text(404, "not found"),
        Route::MethodNotAllowed => text(405, "read-only: only GET and HEAD"),
    }
}

/// Streams the state to a viewer until it goes, is dropped, or the
/// session ends.
fn stream_events(mut stream: TcpStream, peer: SocketAddr, hub: &Hub) {
    small_send_buffer(&stream);
    let ticket = match hub.join(peer, stream.try_clone().ok()) {
        Ok(t) => t,
        Err(full) => {
            warn!("web: {peer} refused: {} viewers already", full.max);
            let why = too_many_viewers(full.max);
            let _ = stream.write_all(text_response(503, &why, false).as_bytes());
            return;
        }
    };
    let start = format!("{}retry: {RETRY_MS}\n\n", stream_head());
    let mut alive = stream.write_all(start.as_bytes()).is_ok();
    while alive {
        let text = match ticket.frames.recv_timeout(KEEP_ALIVE) {
            Ok(frame) => sse_event("state", &frame.envelope(Instant::now())),
            Err(RecvTimeoutError::Timeout) => ": keep-alive\n\n".to_string(),
            Err(RecvTimeoutError::Disconnected) => break,
        };
        alive = stream.write_all(text.as_bytes()).is_ok();
    }
    hub.leave(ticket.id);
}

/// Sets the stream's send buffer to [`STREAM_SEND_BUFFER`] (which also
/// stops the kernel from growing it). Where that cannot be done, a slow
/// viewer is still dropped, only later.
fn small_send_buffer(stream: &TcpStream) {
    if let Err(e) = socket2::SockRef::from(stream).set_send_buffer_size(STREAM_SEND_BUFFER) {
        log::debug!("web: cannot set a stream's send buffer: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::pgn::PgnGame;
    use crate::web::state::WebState;

    #[test]
    fn a_slot_is_given_back_when_dropped_and_when_its_thread_panics() {
        let busy = Arc::new(AtomicUsize::new(0));
        let a = Slot::take(&busy, 2).expect("first slot");
        let b = Slot::take(&busy, 2).expect("second slot");
        assert!(Slot::take(&busy, 2).is_none(), "past the cap");
        drop(a);
        assert_eq!(busy.load(Ordering::SeqCst), 1);
        let panicked = thread::spawn(move || {
            let _held = b;
            panic!("answering failed");
        })
        .join();
        assert!(panicked.is_err());
        assert_eq!(busy.load(Ordering::SeqCst), 0, "the panic leaked a slot");
        assert!(Slot::take(&busy, 2).is_some());
    }

    /// Sends `method path` to `addr` and reads the answer: all of it, or
    /// for the stream up to the end of its head.
    fn ask(addr: SocketAddr, method: &str, path: &str) -> String {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let req = format!("{method} {path} HTTP/1.1\r\nHost: x\r\n\r\n");
        s.write_all(req.as_bytes()).unwrap();
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            let n = s.read(&mut buf).unwrap();
            got.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&got);
            let stream_head_read = path == "/events" && text.contains("\r\n\r\n");
            if n == 0 || stream_head_read {
                return text.into_owned();
            }
        }
    }

    /// The head of a response (up to the blank line).
    fn head_of(response: &str) -> &str {
        let end = response.find("\r\n\r\n").expect("a response head") + 4;
        &response[..end]
    }

    fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
        head.lines().find_map(|l| {
            let (n, v) = l.split_once(": ")?;
            n.eq_ignore_ascii_case(name).then_some(v)
        })
    }

    #[test]
    fn a_head_answers_the_head_a_get_would_and_no_body() {
        let mut served = serve("127.0.0.1:0", Limits::default()).unwrap();
        let addr = served.addr;
        let game = PgnGame {
            tags: vec![("White".into(), "w".into())],
            ..PgnGame::default()
        };
        served
            .publisher
            .publish(WebState::default(), vec![(1, game)], Instant::now());
        let deadline = Instant::now() + Duration::from_secs(10);
        while ask(addr, "GET", "/state.json").starts_with("HTTP/1.1 503") {
            assert!(Instant::now() < deadline, "no state published");
            thread::sleep(Duration::from_millis(20));
        }
        for path in [
            "/",
            "/app.js",
            "/chessground/chessground.min.js",
            "/state.json",
            "/games.pgn",
            "/game/1.pgn",
            "/game/2.pgn",
            "/nothing",
            "/events",
        ] {
            let got = ask(addr, "GET", path);
            let head = ask(addr, "HEAD", path);
            assert_eq!(head, head_of(&head), "HEAD {path} has a body: {head}");
            if path == "/state.json" {
                // The state's age, so its length, may differ by a digit.
                let without_length = |h: &str| {
                    h.lines()
                        .filter(|l| !l.starts_with("Content-Length"))
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                assert_eq!(without_length(&head), without_length(head_of(&got)));
                assert!(header(&head, "Content-Length").is_some(), "{head}");
            } else {
                assert_eq!(head, head_of(&got), "HEAD and GET {path}");
            }
            if path == "/events" {
                assert_eq!(header(&head, "Content-Length"), None, "{head}");
                assert_eq!(
                    header(&head, "Content-Type"),
                    Some("text/event-stream; charset=utf-8")
                );
            } else {
                assert_ne!(header(&head, "Content-Length"), Some("0"), "{path}: {head}");
            }
        }
    }
}
