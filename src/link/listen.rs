//! A TCP listener that seats the clients which sign on, on the links'
//! readiness loop ([`poll`](super::poll)): it accepts, checks the peer's
//! address against `--allow` before a byte is read, reads each new
//! connection's greeting ([`Greeter`]: at most [`MAX_PENDING`] at a time,
//! each with a time limit and a byte budget), asks [`Seats`] which seat it
//! gets and hands it to that seat's [`Link`](super::Link). Refused
//! connections get `refcom disconnect;` and are logged; nothing a peer
//! sends before its sign-on reaches a link, so a password line is never
//! recorded.

use std::io::{ErrorKind, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use ipnet::IpNet;

use super::connector::{Connection, Connector, stream_connection};
use super::framer::{Frame, Framer};
use super::poll::{self, Listening};
use super::seats::{Decision, Greeting, Seats, Step, disconnect_line};

/// Connections that may be waiting for their sign-on at once; more are
/// closed as they come.
pub const MAX_PENDING: usize = 16;

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

/// What the listener, its greetings and its seats share.
struct Shared {
    addr: SocketAddr,
    config: ListenConfig,
    seats: Mutex<Seats>,
    handoffs: Vec<Sender<Connection>>,
    /// Per seat, what to call when a connection was handed to it (the
    /// readiness loop's bell: a seat waiting there has no thread).
    rings: Vec<Mutex<Option<Ring>>>,
    pending: AtomicUsize,
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

/// One seat of a listener, given to the seat's link as its
/// [`Connector::Seat`].
pub struct SeatHandle {
    index: usize,
    rx: Receiver<Connection>,
    shared: Arc<Shared>,
    /// The listener stops when the last seat's link lets go of it.
    _listening: Arc<Listening>,
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
    /// The links' readiness loop could not take it.
    #[error("cannot listen on {addr}: {why}")]
    Loop { addr: SocketAddr, why: String },
}

error_words!(ListenError);

/// Binds `addr` and puts it on the links' readiness loop: one
/// [`Connector`] per seat of `config`, in order. The listener stops when
/// all of them are dropped.
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
        epoch: Instant::now(),
    });
    let listening = poll::listen(Listener {
        socket: mio::net::TcpListener::from_std(listener),
        shared: Arc::clone(&shared),
    })
    .map_err(|why| ListenError::Loop {
        addr,
        why: why.to_string(),
    })?;
    let listening = Arc::new(listening);
    log::info!("listening on {addr}");
    Ok(rxs
        .into_iter()
        .enumerate()
        .map(|(index, rx)| {
            Connector::Seat(SeatHandle {
                index,
                rx,
                shared: Arc::clone(&shared),
                _listening: Arc::clone(&listening),
            })
        })
        .collect())
}

/// A listening socket on the readiness loop, and what its greetings and
/// seats share.
pub(super) struct Listener {
    pub socket: mio::net::TcpListener,
    shared: Arc<Shared>,
}

impl Listener {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.shared.addr
    }

    /// A connection accepted from `peer`: its greeting, or `None` when it
    /// is closed unread (its address is not allowed, or [`MAX_PENDING`]
    /// connections are already signing on), which is logged.
    pub fn admit(&self, stream: mio::net::TcpStream, peer: SocketAddr) -> Option<Greeter> {
        let shared = &self.shared;
        if !shared.allowed(peer.ip()) {
            log::warn!(
                "listener {}: refused a connection from {peer}: not in --allow",
                shared.addr
            );
            return None;
        }
        if shared.pending.fetch_add(1, Ordering::SeqCst) >= MAX_PENDING {
            shared.pending.fetch_sub(1, Ordering::SeqCst);
            log::warn!(
                "listener {}: refused a connection from {peer}: {MAX_PENDING} connections are \
                 already waiting to sign on",
                shared.addr
            );
            return None;
        }
        Some(Greeter {
            stream,
            peer,
            greeting: Greeting::new(shared.config.password.as_deref(), shared.now_ms()),
            framer: Framer::new(),
            _place: Place(Arc::clone(shared)),
            shared: Arc::clone(shared),
        })
    }
}

/// A place among the [`MAX_PENDING`] greetings, given back when dropped.
struct Place(Arc<Shared>);

impl Drop for Place {
    fn drop(&mut self) {
        self.0.pending.fetch_sub(1, Ordering::SeqCst);
    }
}

/// One connection from its accept to its sign-on, read by the loop.
pub(super) struct Greeter {
    pub stream: mio::net::TcpStream,
    peer: SocketAddr,
    greeting: Greeting,
    framer: Framer<()>,
    shared: Arc<Shared>,
    _place: Place,
}

/// How a greeting ended: signed on (its `tcsi` name and every byte read
/// from the sign-on line on), or refused.
pub(super) enum Greeted {
    SignedOn {
        name: Option<String>,
        preread: Vec<u8>,
    },
    Refused(Refusal),
}

impl Greeter {
    /// When it runs out of time to sign on.
    pub fn deadline(&self) -> Instant {
        self.shared
            .epoch
            .checked_add(Duration::from_millis(self.greeting.deadline()))
            .unwrap_or(self.shared.epoch)
    }

    /// Out of time at `now`: how it ended, if it did.
    pub fn tick(&self, now: Instant) -> Option<Greeted> {
        let ms = u64::try_from(now.saturating_duration_since(self.shared.epoch).as_millis())
            .unwrap_or(u64::MAX);
        match self.greeting.tick(ms) {
            Step::Refuse(why) => Some(Greeted::Refused(Refusal::Greeting(why))),
            _ => None,
        }
    }

    /// Reads what came until the socket has no more (at most the
    /// greeting's byte budget): how it ended, if it did.
    pub fn read(&mut self) -> Option<Greeted> {
        let mut buf = [0u8; 1024];
        loop {
            if let Some(ended) = self.tick(Instant::now()) {
                return Some(ended);
            }
            let n = match self.stream.read(&mut buf) {
                Ok(0) => return Some(Greeted::Refused(Refusal::ClosedEarly)),
                Ok(n) => n,
                Err(e) if e.kind() == ErrorKind::WouldBlock => return None,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Some(Greeted::Refused(Refusal::Read(e))),
            };
            if let Step::Refuse(why) = self.greeting.received(n) {
                return Some(Greeted::Refused(Refusal::Greeting(why)));
            }
            let chunk = buf.get(..n).unwrap_or_default();
            // Byte by byte, to know where the sign-on line ends: what
            // follows it in the chunk is the link's.
            for (i, &b) in chunk.iter().enumerate() {
                for frame in self.framer.push(std::slice::from_ref(&b), ()) {
                    let step = match frame {
                        Frame::Line { text, raw, .. } => match self.greeting.line(&text) {
                            Step::SignedOn { name } => {
                                let mut preread = raw;
                                preread.extend_from_slice(chunk.get(i + 1..).unwrap_or_default());
                                return Some(Greeted::SignedOn { name, preread });
                            }
                            step => step,
                        },
                        Frame::Dropped { reason, .. } => self.greeting.dropped(&reason),
                    };
                    if let Step::Refuse(why) = step {
                        return Some(Greeted::Refused(Refusal::Greeting(why)));
                    }
                }
            }
        }
    }

    /// Ends the greeting (the loop has taken the socket off its poll):
    /// a connection that signed on is handed to its seat, if it gets one;
    /// any other gets `refcom disconnect;` and is closed.
    pub fn finish(self, ended: Greeted) {
        let shared = &self.shared;
        let peer = self.peer;
        let (name, preread) = match ended {
            Greeted::SignedOn { name, preread } => (name, preread),
            Greeted::Refused(why) => return refuse(shared, self.stream, peer, &why.to_string()),
        };
        let decision = shared.seats().sign_on(name.as_deref());
        let i = match decision {
            Decision::Seat(i) => i,
            Decision::Refuse(why) => return refuse(shared, self.stream, peer, &why),
        };
        let label = shared.seats().label(i).to_string();
        let connection = match stream_connection(self.stream.into(), preread) {
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
        if !matches!(handed, Some(Ok(()))) {
            shared.seats().freed(i);
            log::warn!(
                "listener {}: seat {label} could not take {peer}",
                shared.addr
            );
            return;
        }
        if let Some(ring) = shared.rings.get(i)
            && let Some(ring) = &*ring.lock().unwrap_or_else(PoisonError::into_inner)
        {
            ring();
        }
    }
}

/// Refuses a connection: says why in the log, sends it `refcom
/// disconnect;` (as far as the socket takes it at once) and closes it.
fn refuse(shared: &Shared, mut stream: mio::net::TcpStream, peer: SocketAddr, why: &str) {
    log::warn!(
        "listener {}: refused {peer}: {why}; sent it refcom disconnect",
        shared.addr
    );
    let mut line = disconnect_line();
    line.push_str("\r\n");
    let _ = stream.write(line.as_bytes());
    let _ = stream.shutdown(std::net::Shutdown::Both);
}

/// Why a connection is refused before it signs on.
#[derive(Debug, thiserror::Error)]
pub(super) enum Refusal {
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
