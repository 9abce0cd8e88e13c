//! The audience's HTTP server: an accept thread, and a thread per
//! connection, both bounded. A request is read (at most
//! [`http::MAX_HEAD`] bytes, within [`READ_WITHIN`]), answered and the
//! connection closed; `/events` keeps its thread as a viewer of the
//! [`Hub`] until the viewer goes, falls behind or cannot be written to
//! within [`WRITE_WITHIN`]. Requests and viewers are capped in all and
//! per address ([`guard`](crate::web::guard)); a connection past a cap is
//! answered at once (`429` or `503`, with the reason) and closed, and the
//! refusals are logged at most once per address per
//! [`LOG_EVERY`](crate::web::guard::LOG_EVERY).
//!
//! Why no HTTP server crate: tiny_http, the small blocking one, starts a
//! thread for every connection with no cap and sets no socket timeouts,
//! so a crowd of idle or unread connections would hold threads and memory
//! without bound. The request head is parsed by `httparse` (hyper's
//! parser); the rest is what this module does: caps, timeouts, routes.

use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::RecvTimeoutError;
use log::{info, warn};

use crate::web::assets::{asset, asset_path};
use crate::web::guard::{Refused, Slot, Slots, Source, ThinnedLog, lock};
use crate::web::http::{
    self, Head, HeadError, Route, parse_head, response_head, route, sse_event, stream_head,
    text_response,
};
use crate::web::hub::{Hub, Publisher};

/// How long a client has to send its whole request head, from the
/// connection's accept. A browser sends it at once, with the handshake's
/// last packet (a few milliseconds on a LAN; docs/web.md): this leaves a
/// slow phone a retransmission or two, and a client that sends half a
/// head holds its place that long only.
pub const READ_WITHIN: Duration = Duration::from_secs(2);
/// How long one write to a client may block before it is given up.
pub const WRITE_WITHIN: Duration = Duration::from_secs(10);
/// A comment line on the event stream this often, so that a viewer gone
/// without a word is noticed.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// How often a quiet stream looks whether its viewer closed the
/// connection (a page reloaded or left), so that its place, counted
/// against its address, is given back soon, not at a failed write.
const GONE_CHECK: Duration = Duration::from_secs(1);
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
    /// Requests being served, and viewers, from one address (an IPv6
    /// /64) at once: each count apart, each within its total above.
    pub per_address: usize,
}

/// The default of [`Limits::per_address`]: more than the six connections
/// a browser opens to one server at once, and a household's devices.
pub const PER_ADDRESS: u16 = 8;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            viewers: 256,
            queue: 32,
            requests: 32,
            per_address: usize::from(PER_ADDRESS),
        }
    }
}

/// A running server: where it listens and the loop's publisher.
pub struct Served {
    pub addr: SocketAddr,
    pub publisher: Publisher,
}

/// Why the web server did not start: the `--http` value and what the
/// system said. Nothing listens then.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("--http {addr:?}: not an ADDRESS:PORT ({source})")]
    NotAnAddress { addr: String, source: io::Error },
    #[error("--http {addr}: cannot listen: {source}")]
    Listen { addr: String, source: io::Error },
    #[error("--http {addr}: {source}")]
    Bound { addr: String, source: io::Error },
    /// A thread of the server could not be started (which one).
    #[error("cannot start {what}: {source}")]
    Thread {
        what: &'static str,
        source: io::Error,
    },
}

error_words!(ServeError);

/// Binds `addr` (exactly that address; port 0 picks a free port) and
/// starts the server's threads.
pub fn serve(addr: &str, limits: Limits) -> Result<Served, ServeError> {
    let addrs: Vec<SocketAddr> = addr
        .to_socket_addrs()
        .map_err(|source| ServeError::NotAnAddress {
            addr: addr.to_string(),
            source,
        })?
        .collect();
    let listener = TcpListener::bind(&addrs[..]).map_err(|source| ServeError::Listen {
        addr: addr.to_string(),
        source,
    })?;
    let bound = listener.local_addr().map_err(|source| ServeError::Bound {
        addr: addr.to_string(),
        source,
    })?;
    let hub = Hub::new(limits.viewers, limits.per_address, limits.queue);
    let publisher = Publisher::start(hub.clone())?;
    let shared = Arc::new(Shared {
        hub,
        slots: Slots::new(limits.requests, limits.per_address),
        refusals: Mutex::new(ThinnedLog::default()),
        bad_heads: Mutex::new(ThinnedLog::default()),
    });
    thread::Builder::new()
        .name("web accept".into())
        .spawn(move || accept(listener, &shared))
        .map_err(|source| ServeError::Thread {
            what: "the web server",
            source,
        })?;
    info!("web: serving the audience on http://{bound}/");
    Ok(Served {
        addr: bound,
        publisher,
    })
}

/// What the server's threads share: the viewers, the request places and
/// the thinned logs of what a client can cause at will.
struct Shared {
    hub: Arc<Hub>,
    slots: Arc<Slots>,
    /// Connections turned away.
    refusals: Mutex<ThinnedLog>,
    /// Request heads too slow, too long or not HTTP.
    bad_heads: Mutex<ThinnedLog>,
}

impl Shared {
    /// Logs (a warning) that `peer` was refused, if its address's line is
    /// due.
    fn log_refusal(&self, peer: SocketAddr, refused: &Refused) {
        let line = lock(&self.refusals).note(Source::of(peer.ip()), Instant::now());
        if let Some(line) = line {
            warn!("web: {peer} refused: {refused}{}", line.suffix());
        }
    }

    /// Logs what was wrong with `peer`'s request head, if its address's
    /// line is due.
    fn log_bad_head(&self, peer: SocketAddr, why: &str) {
        let line = lock(&self.bad_heads).note(Source::of(peer.ip()), Instant::now());
        if let Some(line) = line {
            info!("web: {peer}: {why}{}", line.suffix());
        }
    }
}

/// Takes connections for ever; each gets a thread while its address and
/// the server have a request place free, else it is turned away.
fn accept(listener: TcpListener, shared: &Arc<Shared>) {
    for conn in listener.incoming() {
        let stream = match conn {
            Ok(s) => s,
            Err(e) => {
                warn!("web: cannot accept a connection: {e}");
                // Out of file descriptors, say: do not spin.
                thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        let accepted = Instant::now();
        let peer = stream
            .peer_addr()
            .unwrap_or_else(|_| SocketAddr::from(([0, 0, 0, 0], 0)));
        let slot = match shared.slots.take(Source::of(peer.ip())) {
            Ok(slot) => slot,
            Err(refused) => {
                shared.log_refusal(peer, &refused);
                turn_away(stream, &refused);
                continue;
            }
        };
        let _ = stream.set_write_timeout(Some(WRITE_WITHIN));
        let shared = shared.clone();
        // A thread that cannot start drops its closure, and with it the slot.
        let spawned = thread::Builder::new()
            .name("web client".into())
            .spawn(move || handle(stream, peer, accepted, &shared, slot));
        if let Err(e) = spawned {
            warn!("web: {peer} refused: cannot start a thread: {e}");
        }
    }
}

/// Answers a refused connection with its reason and closes it, without
/// ever waiting for the client (this is the accept thread): what it sent
/// so far is read first, so that closing does not reset the connection
/// and lose the answer.
fn turn_away(mut stream: TcpStream, refused: &Refused) {
    if stream.set_nonblocking(true).is_err() {
        return;
    }
    let mut sink = [0u8; 1024];
    let mut left = http::MAX_HEAD;
    while left > 0 {
        match stream.read(&mut sink) {
            Ok(n) if n > 0 => left = left.saturating_sub(n),
            _ => break,
        }
    }
    let answer = text_response(refused.status(), &refused.to_string(), false);
    let _ = stream.write_all(answer.as_bytes());
    let _ = stream.shutdown(Shutdown::Write);
}

/// Reads the request head; `None` if there is none to serve (an error
/// response has been sent).
fn read_head(
    stream: &mut TcpStream,
    peer: SocketAddr,
    accepted: Instant,
    shared: &Shared,
) -> Option<Head> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    // The whole head within READ_WITHIN, not each read: a client that
    // trickles a byte at a time does not keep its thread.
    let deadline = accepted + READ_WITHIN;
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
                    shared.log_bad_head(peer, &format!("no request within {READ_WITHIN:?}"));
                    let why = format!("too slow: no request head within {READ_WITHIN:?}");
                    let _ = stream.write_all(text_response(408, &why, false).as_bytes());
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
                shared.log_bad_head(peer, &why);
                let _ = stream.write_all(text_response(status, &why, false).as_bytes());
                return None;
            }
        }
    }
}

/// Serves one connection, accepted at `accepted`; it holds its `slot`
/// until it is answered (a viewer is counted by the hub instead).
fn handle(mut stream: TcpStream, peer: SocketAddr, accepted: Instant, shared: &Shared, slot: Slot) {
    let head = read_head(&mut stream, peer, accepted, shared);
    let Some(head) = head else {
        return;
    };
    info!("web: {peer} {}", head.for_log());
    let head_only = head.method == "HEAD";
    let route = route(&head.method, &head.path, asset_path);
    if route == Route::Events && !head_only {
        drop(slot);
        stream_events(stream, peer, shared);
        return;
    }
    let response = respond(&route, peer, &shared.hub, head_only);
    if let Err(e) = stream.write_all(&response) {
        info!("web: {peer}: response not sent: {e}");
    }
    drop(slot);
}

/// The whole response to a request from `peer` other than the stream (a
/// HEAD of the stream included).
fn respond(route: &Route, peer: SocketAddr, hub: &Hub, head_only: bool) -> Vec<u8> {
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
        Route::Events => match hub.has_room(peer) {
            Ok(()) => stream_head().into_bytes(),
            Err(refused) => text(refused.status(), &refused.to_string()),
        },
        Route::State => match latest {
            Some(f) => ok(
                "application/json",
                f.envelope(Instant::now()).as_bytes(),
                false,
            ),
            None => text(503, "no state yet"),
        },
        Route::Games => {
            let all = latest.map(|f| f.games.pgn()).unwrap_or_default();
            ok(
                "application/x-chess-pgn; charset=utf-8",
                all.as_bytes(),
                false,
            )
        }
        Route::Round(n) => {
            let round = latest.map(|f| f.games.round_pgn(*n)).unwrap_or_default();
            ok(
                "application/x-chess-pgn; charset=utf-8",
                round.as_bytes(),
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
        Route::GameView(n) => match latest.as_ref().and_then(|f| f.games.whole(*n)) {
            Some(g) => {
                let view = crate::web::replay::view_of(*n, g);
                match serde_json::to_string(&view) {
                    Ok(json) => ok("application/json", json.as_bytes(), false),
                    Err(e) => text(500, &format!("game {n} could not be written: {e}")),
                }
            }
            None => text(404, &format!("no finished game {n} (yet, or any more)")),
        },
        Route::NotFound => text(404, "not found"),
        Route::MethodNotAllowed => text(405, "read-only: only GET and HEAD"),
    }
}

/// Streams the state to a viewer until it goes, is dropped, or the
/// session ends.
fn stream_events(mut stream: TcpStream, peer: SocketAddr, shared: &Shared) {
    let hub = &shared.hub;
    small_send_buffer(&stream);
    let ticket = match hub.join(peer, stream.try_clone().ok()) {
        Ok(t) => t,
        Err(refused) => {
            shared.log_refusal(peer, &refused);
            let answer = text_response(refused.status(), &refused.to_string(), false);
            let _ = stream.write_all(answer.as_bytes());
            return;
        }
    };
    let start = format!("{}retry: {RETRY_MS}\n\n", stream_head());
    let mut alive = stream.write_all(start.as_bytes()).is_ok();
    let mut written = Instant::now();
    while alive {
        let text = match ticket.frames.recv_timeout(GONE_CHECK) {
            Ok(frame) => sse_event("state", &frame.envelope(Instant::now())),
            Err(RecvTimeoutError::Timeout) if closed_by_peer(&stream) => break,
            Err(RecvTimeoutError::Timeout) if written.elapsed() < KEEP_ALIVE => continue,
            Err(RecvTimeoutError::Timeout) => ": keep-alive\n\n".to_string(),
            Err(RecvTimeoutError::Disconnected) => break,
        };
        alive = stream.write_all(text.as_bytes()).is_ok();
        written = Instant::now();
    }
    hub.leave(ticket.id);
}

/// Whether the viewer at the other end of `stream` has closed it (or it
/// failed), looked at without waiting and without taking what it sent.
fn closed_by_peer(stream: &TcpStream) -> bool {
    if stream.set_nonblocking(true).is_err() {
        return true;
    }
    let mut byte = [0u8; 1];
    let closed = match stream.peek(&mut byte) {
        Ok(n) => n == 0,
        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
    };
    stream.set_nonblocking(false).is_err() || closed
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
        served.publisher.publish(
            WebState::default(),
            Default::default(),
            vec![(1, game)],
            Instant::now(),
        );
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
