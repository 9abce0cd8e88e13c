//! A TCP listener that seats the clients which sign on: an edge thread
//! that accepts, checks the peer's address against `--allow` before a byte
//! is read, reads each new connection's greeting on a thread of its own (at
//! most [`MAX_PENDING`] at a time, each with a time limit and a byte
//! budget), asks [`Seats`] which seat it gets and hands it to that seat's
//! [`Link`](super::Link). Refused connections get `refcom disconnect;` and
//! are logged; nothing a peer sends before its sign-on reaches a link, so
//! a password line is never recorded.

use std::io::{ErrorKind, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use ipnet::IpNet;

use super::connector::{Connection, Connector, stream_connection};
use super::framer::{Frame, Framer};
use super::seats::{Decision, Greeting, Seats, Step, disconnect_line};

/// Connections that may be waiting for their sign-on at once; more are
/// closed as they come.
pub const MAX_PENDING: usize = 16;

/// How often the accept loop looks for a stop request.
const ACCEPT_POLL: Duration = Duration::from_millis(100);

/// How a listener is set up.
#[derive(Debug, Clone, Default)]
pub struct ListenConfig {
    /// Peers allowed to connect (none: everyone).
    pub allow: Vec<IpNet>,
    /// The shared secret a client must send before its sign-on.
    pub password: Option<String>,
    /// The seats, in the order they are filled: label and expected `tcsi`
    /// name.
    pub seats: Vec<(String, Option<String>)>,
}

/// Parses an `--allow` value: `10.0.0.0/8`, `192.168.1.7` (one host) or
/// `fd00::/8`.
pub fn parse_allow(text: &str) -> Result<IpNet, BadAllow> {
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Ok(IpNet::from(ip));
    }
    text.parse::<IpNet>()
        .map_err(|_| BadAllow(text.to_string()))
}

/// An `--allow` value that is neither an address nor a network (the value
/// as given).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--allow {0:?}: expected an address or a network, e.g. 192.168.1.0/24")]
pub struct BadAllow(pub String);

error_words!(BadAllow);

/// What a seat calls when a connection was handed to it.
pub(super) type Ring = Box<dyn Fn() + Send + Sync>;

/// What the listener's threads share.
struct Shared {
    addr: SocketAddr,
    config: ListenConfig,
    seats: Mutex<Seats>,
    handoffs: Vec<Sender<Connection>>,
    /// Per seat, what to call when a connection was handed to it (the
    /// readiness loop's bell: a seat waiting there has no thread).
    rings: Vec<Mutex<Option<Ring>>>,
    pending: AtomicUsize,
    stop: AtomicBool,
    epoch: Instant,
}

impl Shared {
    fn seats(&self) -> MutexGuard<'_, Seats> {
        self.seats.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn allowed(&self, ip: IpAddr) -> bool {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        self.config.allow.is_empty() || self.config.allow.iter().any(|n| n.contains(&ip))
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// Stops the listener when the last seat's link lets go of it.
struct Guard(Arc<Shared>);

impl Drop for Guard {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::SeqCst);
    }
}

/// One seat of a listener, given to the seat's link as its
/// [`Connector::Seat`].
pub struct SeatHandle {
    index: usize,
    rx: Receiver<Connection>,
    shared: Arc<Shared>,
    _guard: Arc<Guard>,
}

impl SeatHandle {
    /// A connection seated here and not yet taken, if any.
    pub(super) fn try_take(&self) -> Option<Connection> {
        self.rx.try_recv().ok()
    }

    /// Where seated connections arrive.
    pub(super) fn handoffs(&self) -> &Receiver<Connection> {
        &self.rx
    }

    /// Calls `ring` (none: no longer) each time a connection is handed to
    /// this seat, after it was handed: one may be waiting already.
    pub(super) fn on_handoff(&self, ring: Option<Ring>) {
        if let Some(slot) = self.shared.rings.get(self.index) {
            *slot.lock().unwrap_or_else(PoisonError::into_inner) = ring;
        }
    }

    /// The link lost this seat's connection.
    pub(super) fn freed(&self) {
        self.shared.seats().freed(self.index);
    }
}

/// Why argus cannot listen on an address: which address, and what the
/// system said.
#[derive(Debug, thiserror::Error)]
pub enum ListenError {
    #[error("cannot listen on {addr}: {error} (is another program, or another argus, on it?)")]
    Bind {
        addr: SocketAddr,
        error: std::io::Error,
    },
    #[error("cannot listen on {addr}: {error}")]
    NonBlocking {
        addr: SocketAddr,
        error: std::io::Error,
    },
    #[error("cannot start the listener thread for {addr}: {error}")]
    Thread {
        addr: SocketAddr,
        error: std::io::Error,
    },
}

error_words!(ListenError);

/// Binds `addr` and starts accepting: one [`Connector`] per seat of
/// `config`, in order. The listener stops when all of them are dropped.
pub fn listen(addr: SocketAddr, config: ListenConfig) -> Result<Vec<Connector>, ListenError> {
    let listener = TcpListener::bind(addr).map_err(|error| ListenError::Bind { addr, error })?;
    let addr = listener.local_addr().unwrap_or(addr);
    listener
        .set_nonblocking(true)
        .map_err(|error| ListenError::NonBlocking { addr, error })?;
    let (txs, rxs): (Vec<_>, Vec<_>) = config
        .seats
        .iter()
        .map(|_| crossbeam_channel::bounded::<Connection>(1))
        .unzip();
    let shared = Arc::new(Shared {
        addr,
        seats: Mutex::new(Seats::new(config.seats.clone())),
        config,
        rings: txs.iter().map(|_| Mutex::new(None)).collect(),
        handoffs: txs,
        pending: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        epoch: Instant::now(),
    });
    let guard = Arc::new(Guard(Arc::clone(&shared)));
    {
        let shared = Arc::clone(&shared);
        std::thread::Builder::new()
            .name(format!("argus-listen-{addr}"))
            .spawn(move || accept_loop(&shared, &listener))
            .map_err(|error| ListenError::Thread { addr, error })?;
    }
    log::info!("listening on {addr}");
    Ok(rxs
        .into_iter()
        .enumerate()
        .map(|(index, rx)| {
            Connector::Seat(SeatHandle {
                index,
                rx,
                shared: Arc::clone(&shared),
                _guard: Arc::clone(&guard),
            })
        })
        .collect())
}

fn accept_loop(shared: &Arc<Shared>, listener: &TcpListener) {
    while !shared.stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, peer)) => admit(shared, stream, peer),
            Err(e) if e.kind() == ErrorKind::WouldBlock => std::thread::sleep(ACCEPT_POLL),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => {
                // Out of descriptors and the like: say so, wait, go on.
                log::warn!("listener {}: accept failed: {e}", shared.addr);
                std::thread::sleep(ACCEPT_POLL);
            }
        }
    }
    log::info!("listener {}: stopped", shared.addr);
}

/// A new connection: refused unless its address is allowed and a greeting
/// place is free; else its greeting is read on a thread of its own.
fn admit(shared: &Arc<Shared>, stream: TcpStream, peer: SocketAddr) {
    if !shared.allowed(peer.ip()) {
        log::warn!(
            "listener {}: refused a connection from {peer}: not in --allow",
            shared.addr
        );
        return;
    }
    if shared.pending.fetch_add(1, Ordering::SeqCst) >= MAX_PENDING {
        shared.pending.fetch_sub(1, Ordering::SeqCst);
        log::warn!(
            "listener {}: refused a connection from {peer}: {MAX_PENDING} connections are \
             already waiting to sign on",
            shared.addr
        );
        return;
    }
    let worker = Arc::clone(shared);
    let spawned = std::thread::Builder::new()
        .name(format!("argus-greet-{peer}"))
        .spawn(move || {
            greet(&worker, stream, peer);
            worker.pending.fetch_sub(1, Ordering::SeqCst);
        });
    if let Err(e) = spawned {
        shared.pending.fetch_sub(1, Ordering::SeqCst);
        log::warn!("listener {}: cannot read from {peer}: {e}", shared.addr);
    }
}

/// Reads a connection's greeting and seats it, or refuses it.
fn greet(shared: &Shared, mut stream: TcpStream, peer: SocketAddr) {
    let refuse = |mut stream: TcpStream, why: &str| {
        log::warn!(
            "listener {}: refused {peer}: {why}; sent it refcom disconnect",
            shared.addr
        );
        let mut line = disconnect_line();
        line.push_str("\r\n");
        let _ = stream.write_all(line.as_bytes());
        let _ = stream.shutdown(std::net::Shutdown::Both);
    };
    match read_greeting(shared, &mut stream) {
        Ok((name, preread)) => {
            let decision = shared.seats().sign_on(name.as_deref());
            match decision {
                Decision::Seat(i) => {
                    let label = shared.seats().label(i).to_string();
                    let connection = match stream_connection(stream, preread) {
                        Ok(c) => c,
                        Err(why) => {
                            shared.seats().freed(i);
                            log::warn!("listener {}: {peer}: {why}", shared.addr);
                            return;
                        }
                    };
                    log::info!(
                        "listener {}: {peer} signed on as {:?}: seat {label}",
                        shared.addr,
                        crate::text::strip_control(name.as_deref().unwrap_or(""))
                    );
                    let handed = shared.handoffs.get(i).map(|tx| tx.try_send(connection));
                    if let (Some(Ok(())), Some(ring)) = (&handed, shared.rings.get(i))
                        && let Some(ring) = &*ring.lock().unwrap_or_else(PoisonError::into_inner)
                    {
                        ring();
                    }
                    if !matches!(handed, Some(Ok(()))) {
                        shared.seats().freed(i);
                        log::warn!(
                            "listener {}: seat {label} could not take {peer}",
                            shared.addr
                        );
                    }
                }
                Decision::Refuse(why) => refuse(stream, &why),
            }
        }
        Err(why) => refuse(stream, &why.to_string()),
    }
}

/// Why a connection is refused before it signs on.
#[derive(Debug, thiserror::Error)]
enum Refusal {
    #[error("the referee is closing")]
    Closing,
    #[error("closed the connection before signing on")]
    ClosedEarly,
    #[error("read failed: {0}")]
    Read(std::io::Error),
    /// The greeting's rules refused it (too slow, too much, a bad
    /// password), in their words.
    #[error("{0}")]
    Greeting(String),
}

/// Reads until the sign-on: its `tcsi` name and every byte read from the
/// sign-on line on (the lines before it, a password among them, are
/// dropped), or why the connection is refused.
fn read_greeting(
    shared: &Shared,
    stream: &mut TcpStream,
) -> Result<(Option<String>, Vec<u8>), Refusal> {
    let mut greeting = Greeting::new(shared.config.password.as_deref(), shared.now_ms());
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let mut framer = Framer::new();
    let mut buf = [0u8; 1024];
    loop {
        if shared.stop.load(Ordering::SeqCst) {
            return Err(Refusal::Closing);
        }
        if let Step::Refuse(why) = greeting.tick(shared.now_ms()) {
            return Err(Refusal::Greeting(why));
        }
        let n = match stream.read(&mut buf) {
            Ok(0) => return Err(Refusal::ClosedEarly),
            Ok(n) => n,
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => continue,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(Refusal::Read(e)),
        };
        if let Step::Refuse(why) = greeting.received(n) {
            return Err(Refusal::Greeting(why));
        }
        let chunk = buf.get(..n).unwrap_or_default();
        // Byte by byte, to know where the sign-on line ends: what follows
        // it in the chunk is the link's.
        for (i, &b) in chunk.iter().enumerate() {
            let frames = framer.push(std::slice::from_ref(&b), ());
            for frame in frames {
                let step = match frame {
                    Frame::Line { text, raw, .. } => match greeting.line(&text) {
                        Step::SignedOn { name } => {
                            let mut rest = raw;
                            rest.extend_from_slice(chunk.get(i + 1..).unwrap_or_default());
                            return Ok((name, rest));
                        }
                        step => step,
                    },
                    Frame::Dropped { reason, .. } => greeting.dropped(&reason),
                };
                if let Step::Refuse(why) = step {
                    return Err(Refusal::Greeting(why));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allow_takes_hosts_and_networks() {
        let shared = |allow: &[&str]| Shared {
            addr: "127.0.0.1:1".parse().unwrap(),
            config: ListenConfig {
                allow: allow.iter().map(|a| parse_allow(a).unwrap()).collect(),
                ..ListenConfig::default()
            },
            seats: Mutex::new(Seats::new(Vec::new())),
            handoffs: Vec::new(),
            rings: Vec::new(),
            pending: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            epoch: Instant::now(),
        };
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let s = shared(&["10.0.0.0/8", "192.168.1.7"]);
        assert!(s.allowed(ip("10.1.2.3")));
        assert!(s.allowed(ip("192.168.1.7")));
        assert!(!s.allowed(ip("192.168.1.8")));
        assert!(!s.allowed(ip("127.0.0.1")));
        // An IPv4 peer on a dual-stack socket.
        assert!(s.allowed(ip("::ffff:10.0.0.1")));
        assert!(shared(&[]).allowed(ip("8.8.8.8")));
        assert!(
            parse_allow("10.0.0.0/33")
                .unwrap_err()
                .to_string()
                .contains("--allow")
        );
    }
}
