//! How a [`Link`](super::Link) gets (and gets again) the byte stream it
//! reads and writes: a serial port opened by path, a TCP connection it
//! makes, or a TCP connection a listener accepted for its seat. A link's
//! threads (or the readiness loop) see only a [`Connection`]; everything
//! that differs between the kinds of stream is here.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, select};

use super::endpoint::Endpoint;
use super::listen::SeatHandle;
use super::open::{IO_TIMEOUT, OpenError, OpenErrorKind, open_port};
use super::settings::PortSettings;

/// A byte stream a link's thread reads or writes.
pub(super) trait Conduit: Read + Write + Send {}

impl<T: Read + Write + Send> Conduit for T {}

/// One open stream: a serial port's two handles, or a TCP connection.
pub struct Connection {
    pub(super) stream: Stream,
    /// The peer's address, for a TCP connection.
    pub(super) peer: Option<SocketAddr>,
    /// Bytes already read from it by someone else (the sign-on line a
    /// listener read before it seated the connection); framed first.
    pub(super) preread: Vec<u8>,
}

/// The stream of a [`Connection`]: a serial port's handles, read and
/// written by a link's two threads, or a TCP socket, which the readiness
/// loop ([`poll`](super::poll)) reads and writes.
pub(super) enum Stream {
    /// The reader's handle and the writer's.
    Port {
        reader: Box<dyn Conduit>,
        writer: Box<dyn Conduit>,
    },
    /// A connected socket, TCP_NODELAY and keepalive set.
    Tcp(TcpStream),
}

/// The reader's half of a [`Connection`].
pub(super) struct Incoming {
    pub reader: Box<dyn Conduit>,
    pub peer: Option<SocketAddr>,
    pub preread: Vec<u8>,
}

impl Connection {
    /// The reader's half and the writer's handle, for a link's threads (a
    /// socket's reads and writes then time out after [`IO_TIMEOUT`], so
    /// the threads see a stop request).
    pub(super) fn split(self) -> std::io::Result<(Incoming, Box<dyn Conduit>)> {
        let (reader, writer): (Box<dyn Conduit>, Box<dyn Conduit>) = match self.stream {
            Stream::Port { reader, writer } => (reader, writer),
            Stream::Tcp(s) => {
                s.set_read_timeout(Some(IO_TIMEOUT))?;
                s.set_write_timeout(Some(IO_TIMEOUT))?;
                let writer = s.try_clone()?;
                (Box::new(s), Box::new(writer))
            }
        };
        Ok((
            Incoming {
                reader,
                peer: self.peer,
                preread: self.preread,
            },
            writer,
        ))
    }
}

/// How long the reader of a serial link waits between attempts to reopen
/// a lost port.
pub const REOPEN_INTERVAL: Duration = Duration::from_secs(1);

/// The first wait before connecting again to a TCP endpoint; it doubles
/// after each failed attempt, up to [`RECONNECT_MAX`].
pub const RECONNECT_FIRST: Duration = Duration::from_millis(250);

/// The longest wait between two attempts to connect to a TCP endpoint.
pub const RECONNECT_MAX: Duration = Duration::from_secs(5);

/// A write on a serial port may be held off this long (flow control)
/// before the link counts as lost.
const SERIAL_STALL_LIMIT: Duration = Duration::from_secs(30);

/// A TCP peer that reads nothing for this long (its buffers full) is
/// dropped: a slow reader is never waited for longer.
pub const TCP_STALL_LIMIT: Duration = Duration::from_secs(10);

/// Where a link's stream comes from.
pub enum Connector {
    /// A serial port, opened (and reopened) by path.
    Serial {
        path: String,
        settings: PortSettings,
    },
    /// A TCP connection to `host:port`, made again with backoff when lost.
    Connect {
        host: String,
        port: u16,
        /// A line written first on every new connection, before any
        /// record (the client's password line).
        hello: Option<String>,
    },
    /// The connections a listener seats on this link.
    Seat(SeatHandle),
}

impl Connector {
    /// The connector for a serial or `tcp://` endpoint, `hello` written
    /// first on each TCP connection; `None` for `tcp-listen://`, whose
    /// connectors come from [`listen`](super::listen()).
    pub fn to(
        endpoint: &Endpoint,
        settings: PortSettings,
        hello: Option<String>,
    ) -> Option<Connector> {
        match endpoint {
            Endpoint::Serial(path) => Some(Connector::Serial {
                path: path.clone(),
                settings,
            }),
            Endpoint::Connect { host, port } => Some(Connector::Connect {
                host: host.clone(),
                port: *port,
                hello,
            }),
            Endpoint::Listen(_) => None,
        }
    }

    /// The first connection: `Ok(None)` when there is none yet and the
    /// link starts down (a seat nobody took, a TCP server not up yet).
    /// An error is one that retrying will not mend: a serial port that
    /// cannot be opened now, a host name that does not resolve.
    pub(super) fn first(&self) -> Result<Option<Connection>, OpenError> {
        match self {
            Connector::Serial { path, settings } => {
                open_serial_first(path, settings, std::thread::sleep).map(Some)
            }
            Connector::Connect { host, port, hello } => {
                let addrs = resolve(host, *port)?;
                match connect(&addrs, hello.as_deref()) {
                    Ok(c) => Ok(Some(c)),
                    Err(why) => {
                        log::info!("tcp://{host}:{port}: {why}; trying again");
                        Ok(None)
                    }
                }
            }
            Connector::Seat(seat) => Ok(seat.try_take()),
        }
    }

    /// Waits before the next attempt (`attempt` counts from 1 since the
    /// link was lost), then tries: the new connection, or why not. `None`
    /// when `stop` is signalled.
    pub(super) fn next(
        &self,
        stop: &Receiver<()>,
        attempt: u64,
    ) -> Option<Result<Connection, ConnectError>> {
        match self {
            Connector::Serial { path, settings } => {
                wait(stop, REOPEN_INTERVAL)?;
                Some(open_serial(path, settings).map_err(ConnectError::Open))
            }
            Connector::Connect { host, port, hello } => {
                wait(stop, backoff(attempt))?;
                Some(
                    resolve(host, *port)
                        .map_err(ConnectError::Resolve)
                        .and_then(|a| connect(&a, hello.as_deref())),
                )
            }
            Connector::Seat(seat) => select! {
                recv(stop) -> _ => None,
                recv(seat.handoffs()) -> c => c.ok().map(Ok),
            },
        }
    }

    /// Tries again and again (waiting before each attempt as
    /// [`Connector::next`] does) until a connection comes, with the number
    /// of attempts it took, or `stop` is signalled or disconnected
    /// (`None`). A failure worth saying ([`Trying`]: the first, a new
    /// reason, then now and then) goes to `unreachable`, in words that
    /// start with the link's `path`.
    pub(super) fn redial(
        &self,
        path: &str,
        stop: &Receiver<()>,
        unreachable: impl Fn(String),
    ) -> Option<(Connection, u64)> {
        let mut attempts: u64 = 0;
        let mut trying = Trying::default();
        loop {
            attempts = attempts.saturating_add(1);
            match self.next(stop, attempts)? {
                Ok(c) => {
                    // Stopped while connecting: the connection is not wanted.
                    return match stop.try_recv() {
                        Err(crossbeam_channel::TryRecvError::Empty) => Some((c, attempts)),
                        _ => None,
                    };
                }
                Err(e) => {
                    log::debug!("{path}: attempt {attempts}: {e}");
                    if let Some(say) = trying.failed(&e.to_string(), Instant::now()) {
                        unreachable(format!("{path}: {say}"));
                    }
                }
            }
        }
    }

    /// The link lost its connection (a seat is free again).
    pub(super) fn lost(&self) {
        if let Connector::Seat(seat) = self {
            seat.freed();
        }
    }

    /// How long a write may make no progress before the link is lost.
    pub(super) fn stall_limit(&self) -> Duration {
        match self {
            Connector::Serial { .. } => SERIAL_STALL_LIMIT,
            Connector::Connect { .. } | Connector::Seat(_) => TCP_STALL_LIMIT,
        }
    }
}

/// Waits `d` unless stopped first (`None`).
fn wait(stop: &Receiver<()>, d: Duration) -> Option<()> {
    match stop.recv_timeout(d) {
        Err(RecvTimeoutError::Timeout) => Some(()),
        Ok(()) | Err(RecvTimeoutError::Disconnected) => None,
    }
}

/// The wait before connection attempt `attempt` (1, 2, ...): 250 ms,
/// 500 ms, 1 s, ... up to [`RECONNECT_MAX`].
pub fn backoff(attempt: u64) -> Duration {
    let doublings = u32::try_from(attempt.saturating_sub(1))
        .unwrap_or(u32::MAX)
        .min(8);
    RECONNECT_FIRST
        .saturating_mul(1u32 << doublings)
        .min(RECONNECT_MAX)
}

/// How long a serial port's first open keeps trying while the port is
/// busy. The serialport crate `flock`s the port (since 4.8); a process
/// argus forks at that moment (an engine instance) holds a copy of the
/// descriptor, and so the lock, until its exec closes it: microseconds,
/// tens of milliseconds on a loaded machine. Two seconds is far beyond
/// that, and short enough that a port another program really holds is
/// still refused at once, as people see it. (A lost port is reopened
/// every [`REOPEN_INTERVAL`] for ever; this is only the first open.)
pub const FIRST_OPEN_BUSY_FOR: Duration = Duration::from_secs(2);

/// The wait between two tries of a busy port's first open.
const FIRST_OPEN_BUSY_EVERY: Duration = Duration::from_millis(50);

/// Whether a port's first open, failed with `kind` `waited` after its
/// first try, is tried again, and after how long: only a busy port, and
/// only until [`FIRST_OPEN_BUSY_FOR`] has passed.
fn first_open_retry(kind: OpenErrorKind, waited: Duration) -> Option<Duration> {
    let left = FIRST_OPEN_BUSY_FOR.checked_sub(waited)?;
    (kind == OpenErrorKind::Busy && !left.is_zero()).then(|| FIRST_OPEN_BUSY_EVERY.min(left))
}

/// A serial port's first open ([`open_serial`]), tried again while the
/// port is busy ([`first_open_retry`]; `sleep` waits between tries): a
/// port still busy then says for how long it was tried.
fn open_serial_first(
    path: &str,
    settings: &PortSettings,
    mut sleep: impl FnMut(Duration),
) -> Result<Connection, OpenError> {
    let mut waited = Duration::ZERO;
    loop {
        match open_serial(path, settings) {
            Ok(c) => return Ok(c),
            Err(e) => match first_open_retry(e.kind, waited) {
                Some(wait) => {
                    sleep(wait);
                    waited += wait;
                }
                None if e.kind == OpenErrorKind::Busy => {
                    return Err(OpenError {
                        reason: format!(
                            "{} (still so after {:.1} s of tries)",
                            e.reason,
                            waited.as_secs_f64()
                        ),
                        ..e
                    });
                }
                None => return Err(e),
            },
        }
    }
}

/// Opens a serial port and a second handle on it for the writer.
fn open_serial(path: &str, settings: &PortSettings) -> Result<Connection, OpenError> {
    let port = open_port(path, settings)?;
    let writer = port.try_clone().map_err(|e| OpenError {
        port: path.to_string(),
        kind: OpenErrorKind::Other,
        reason: format!("opened, but could not make a second handle for writing: {e}"),
    })?;
    Ok(Connection {
        stream: Stream::Port {
            reader: Box::new(port),
            writer: Box::new(writer),
        },
        peer: None,
        preread: Vec::new(),
    })
}

fn resolve(host: &str, port: u16) -> Result<Vec<SocketAddr>, OpenError> {
    let name = format!("tcp://{host}:{port}");
    let addrs: Vec<SocketAddr> = (host, port)
        .to_socket_addrs()
        .map_err(|e| {
            OpenError::new(
                &name,
                OpenErrorKind::NotFound,
                format!("cannot resolve {host}: {e}"),
            )
        })?
        .collect();
    if addrs.is_empty() {
        return Err(OpenError::new(
            &name,
            OpenErrorKind::NotFound,
            format!("{host} has no address"),
        ));
    }
    Ok(addrs)
}

/// How long one connection attempt may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// Connects to the first address that answers, and writes `hello` (with
/// CR LF) on the new connection.
fn connect(addrs: &[SocketAddr], hello: Option<&str>) -> Result<Connection, ConnectError> {
    let mut last = ConnectError::NoAddress;
    for addr in addrs {
        match TcpStream::connect_timeout(addr, CONNECT_TIMEOUT) {
            Ok(s) => {
                let c = stream_connection(s, Vec::new())?;
                if let (Some(line), Stream::Tcp(s)) = (hello, &c.stream) {
                    let mut s: &TcpStream = s;
                    s.write_all(format!("{line}\r\n").as_bytes())
                        .map_err(|error| ConnectError::Hello { addr: *addr, error })?;
                }
                return Ok(c);
            }
            Err(error) => last = ConnectError::Refused { addr: *addr, error },
        }
    }
    Err(last)
}

/// Why a link's connection could not be made (again): a port that did not
/// open, a host that did not resolve, an address that did not answer, or a
/// connection that could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error(transparent)]
    Open(OpenError),
    /// The host name: the resolver's words alone (the link names the host).
    #[error("{}", .0.reason)]
    Resolve(OpenError),
    #[error("no address")]
    NoAddress,
    #[error("cannot connect to {addr}: {}", connect_words(error))]
    Refused {
        addr: SocketAddr,
        error: std::io::Error,
    },
    /// Connected, but the `hello` line could not be written.
    #[error("connected to {addr}, but cannot write: {error}")]
    Hello {
        addr: SocketAddr,
        error: std::io::Error,
    },
    /// Connected, but the stream's options or second handle failed.
    #[error("cannot set up the connection: {0}")]
    Setup(std::io::Error),
}

/// Why a TCP connection could not be made, in a user's words: "connection
/// refused", "no route to the host", "timed out", else the system's.
/// `argus watch`'s feed and every TCP link say it so.
pub fn connect_words(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::ConnectionRefused => "connection refused (nothing listens there)".into(),
        ErrorKind::HostUnreachable | ErrorKind::NetworkUnreachable => "no route to the host".into(),
        ErrorKind::TimedOut | ErrorKind::WouldBlock => "timed out (no answer)".into(),
        _ => e.to_string(),
    }
}

/// How often a connection that keeps failing for the same reason is said
/// again (with how long it has been tried).
pub const SAY_AGAIN: Duration = Duration::from_secs(30);

/// A connection tried again and again (a link's reconnection, a watcher's
/// feed): when a failure is worth saying (the first, a new reason, and
/// then every [`SAY_AGAIN`]) and how long it has been tried. I/O-free:
/// the times come in.
#[derive(Debug, Default)]
pub struct Trying {
    since: Option<Instant>,
    said: Option<(Instant, String)>,
}

impl Trying {
    /// An attempt failed at `now` for `why`: the line to say, if it is
    /// time to say one.
    pub fn failed(&mut self, why: &str, now: Instant) -> Option<String> {
        let since = *self.since.get_or_insert(now);
        let due = match &self.said {
            None => true,
            Some((at, last)) => last != why || now.saturating_duration_since(*at) >= SAY_AGAIN,
        };
        if !due {
            return None;
        }
        self.said = Some((now, why.to_string()));
        let tried = now.saturating_duration_since(since);
        Some(if tried < Duration::from_secs(1) {
            format!("{why}; trying again")
        } else {
            format!("{why}; still trying, for {}", span_words(tried))
        })
    }

    /// The connection was made: the next failure starts a new count.
    pub fn succeeded(&mut self) {
        *self = Trying::default();
    }
}

/// A span of time in words: `45 s`, `3 min 20 s`, `2 h 5 min`.
fn span_words(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s / 60 % 60),
    }
}

/// Silence on a TCP link after which the system starts probing the peer
/// (keepalive); then a probe every [`KEEPALIVE_INTERVAL`]. A peer whose
/// machine lost power or network is found dead within about a minute
/// (the system's probe count, 9 on Linux), and its link is lost.
pub const KEEPALIVE_IDLE: Duration = Duration::from_secs(10);

/// The time between two keepalive probes.
pub const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(5);

fn keepalive(s: &TcpStream) -> std::io::Result<()> {
    let params = socket2::TcpKeepalive::new().with_time(KEEPALIVE_IDLE);
    #[cfg(any(target_os = "linux", target_os = "macos", target_os = "windows"))]
    let params = params.with_interval(KEEPALIVE_INTERVAL);
    socket2::SockRef::from(s).set_tcp_keepalive(&params)
}

/// A TCP stream set up as a link's connection: TCP_NODELAY (a record goes
/// out at once, not held back to fill a segment), keepalive probes (a
/// vanished peer is found dead), and writes that time out after
/// [`IO_TIMEOUT`] while it is still blocking (the `hello` line).
pub(super) fn stream_connection(
    s: TcpStream,
    preread: Vec<u8>,
) -> Result<Connection, ConnectError> {
    let peer = s.peer_addr().ok();
    keepalive(&s)
        .and_then(|()| s.set_nodelay(true))
        .and_then(|()| s.set_write_timeout(Some(IO_TIMEOUT)))
        .map_err(ConnectError::Setup)?;
    Ok(Connection {
        stream: Stream::Tcp(s),
        peer,
        preread,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_ports_first_open_is_tried_again_for_two_seconds_and_nothing_else_is() {
        let ms = Duration::from_millis;
        assert_eq!(first_open_retry(OpenErrorKind::Busy, ms(0)), Some(ms(50)));
        assert_eq!(
            first_open_retry(OpenErrorKind::Busy, ms(1950)),
            Some(ms(50))
        );
        assert_eq!(
            first_open_retry(OpenErrorKind::Busy, ms(1980)),
            Some(ms(20))
        );
        assert_eq!(first_open_retry(OpenErrorKind::Busy, ms(2000)), None);
        assert_eq!(first_open_retry(OpenErrorKind::Busy, ms(9000)), None);
        for kind in [
            OpenErrorKind::NotFound,
            OpenErrorKind::PermissionDenied,
            OpenErrorKind::InvalidSettings,
            OpenErrorKind::Other,
        ] {
            assert_eq!(first_open_retry(kind, ms(0)), None, "{kind:?}");
        }
    }

    #[test]
    fn a_missing_ports_first_open_fails_at_once() {
        let e = match open_serial_first("/nonexistent/argus-port", &PortSettings::default(), |d| {
            panic!("waited {d:?} for a port that does not exist")
        }) {
            Err(e) => e,
            Ok(_) => panic!("opened a port that does not exist"),
        };
        assert_eq!(e.port, "/nonexistent/argus-port");
        assert!(!e.reason.contains("tries"), "{e}");
    }

    #[test]
    fn a_failing_connection_is_said_at_once_on_a_new_reason_and_now_and_then_with_its_time() {
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let mut t = Trying::default();
        let refused = "connection refused";
        assert_eq!(
            t.failed(refused, at(0)).as_deref(),
            Some("connection refused; trying again")
        );
        assert_eq!(t.failed(refused, at(5)), None);
        assert_eq!(t.failed(refused, at(29)), None);
        assert_eq!(
            t.failed(refused, at(30)).as_deref(),
            Some("connection refused; still trying, for 30 s")
        );
        assert_eq!(
            t.failed("timed out", at(35)).as_deref(),
            Some("timed out; still trying, for 35 s")
        );
        assert_eq!(
            t.failed("timed out", at(200)).as_deref(),
            Some("timed out; still trying, for 3 min 20 s")
        );
        t.succeeded();
        assert_eq!(
            t.failed(refused, at(300)).as_deref(),
            Some("connection refused; trying again")
        );
    }

    #[test]
    fn connection_failures_are_said_in_a_users_words() {
        use std::io::{Error, ErrorKind};
        let words = |k| connect_words(&Error::from(k));
        assert!(words(ErrorKind::ConnectionRefused).starts_with("connection refused"));
        assert_eq!(words(ErrorKind::HostUnreachable), "no route to the host");
        assert_eq!(words(ErrorKind::NetworkUnreachable), "no route to the host");
        assert!(words(ErrorKind::TimedOut).starts_with("timed out"));
        // A real refusal on loopback: a port nobody listens on.
        let free = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = free.local_addr().expect("address");
        drop(free);
        let e = TcpStream::connect(addr).expect_err("nothing listens");
        assert!(connect_words(&e).starts_with("connection refused"), "{e}");
    }

    #[test]
    fn the_backoff_doubles_up_to_its_cap() {
        assert_eq!(backoff(1), Duration::from_millis(250));
        assert_eq!(backoff(2), Duration::from_millis(500));
        assert_eq!(backoff(3), Duration::from_secs(1));
        assert_eq!(backoff(6), RECONNECT_MAX);
        assert_eq!(backoff(u64::MAX), RECONNECT_MAX);
    }

    #[test]
    fn a_tcp_connection_has_nodelay_and_keepalive() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let s = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let c = stream_connection(s.try_clone().unwrap(), Vec::new()).unwrap();
        assert_eq!(c.peer, l.local_addr().ok());
        let r = socket2::SockRef::from(&s);
        assert!(r.tcp_nodelay().unwrap());
        assert!(r.keepalive().unwrap());
    }

    #[test]
    fn a_name_that_does_not_resolve_fails_at_once() {
        let c = Connector::Connect {
            host: "no-such-host.invalid".into(),
            port: 7000,
            hello: None,
        };
        let e = c.first().map(|_| ()).unwrap_err();
        assert!(e.to_string().contains("cannot resolve"), "{e}");
    }

    #[test]
    fn a_server_not_up_yet_starts_the_link_down() {
        // A port nobody listens on (bound, then closed).
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let c = Connector::Connect {
            host: "127.0.0.1".into(),
            port,
            hello: None,
        };
        assert!(c.first().unwrap().is_none());
    }
}
