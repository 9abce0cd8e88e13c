//! The two ends the line simulator (`argus wire`) joins: serial ports, or
//! TCP connections, so that a damaged serial line can be put between a
//! program and a referee that talk over TCP (`argus wire
//! tcp-listen://127.0.0.1:7001 tcp://127.0.0.1:7000` between an `argus
//! client tcp://127.0.0.1:7001` and `argus referee --listen
//! 127.0.0.1:7000`). The bytes are paced at the line's baud rate and
//! damaged as on a cable whichever kind the ends are.
//!
//! A TCP end is one connection: `tcp-listen://` accepts the first peer and
//! closes the listener, `tcp://` connects once. When a peer closes, that
//! direction of the wire stops, as when a serial port fails.

use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use crate::link::endpoint::Endpoint;
use crate::link::open::{IO_TIMEOUT, OpenError, open_port};
use crate::link::settings::PortSettings;

/// How long a write to a TCP end may block (a peer that reads nothing)
/// before that direction of the wire gives up.
const WRITE_LIMIT: Duration = Duration::from_secs(10);

/// One end of the simulated line, readable with a timeout ([`IO_TIMEOUT`])
/// and writable, and cloned for the other direction.
pub trait WireEnd: Read + Write + Send {
    fn try_clone_end(&self) -> io::Result<Box<dyn WireEnd>>;
}

impl WireEnd for Box<dyn serialport::SerialPort> {
    fn try_clone_end(&self) -> io::Result<Box<dyn WireEnd>> {
        Ok(Box::new(self.try_clone()?))
    }
}

impl WireEnd for TcpStream {
    fn try_clone_end(&self) -> io::Result<Box<dyn WireEnd>> {
        Ok(Box::new(self.try_clone()?))
    }
}

/// Opens the ends in the order they can be opened without losing a byte:
/// first the listeners (each waits for its peer; `waiting` is told of
/// each), then the serial ports, then the connections out, so that a
/// referee reached by `tcp://` sees its client only once the line is
/// whole. Errors say which end and why.
pub fn open_ends(
    ends: [&Endpoint; 2],
    settings: &PortSettings,
    waiting: &dyn Fn(&Endpoint),
) -> Result<[Box<dyn WireEnd>; 2], EndError> {
    let rank = |e: &Endpoint| match e {
        Endpoint::Listen(_) => 0,
        Endpoint::Serial(_) => 1,
        Endpoint::Connect { .. } => 2,
    };
    let [one, two] = ends;
    if rank(two) < rank(one) {
        let second = open_end(two, settings, waiting)?;
        Ok([open_end(one, settings, waiting)?, second])
    } else {
        let first = open_end(one, settings, waiting)?;
        Ok([first, open_end(two, settings, waiting)?])
    }
}

fn open_end(
    end: &Endpoint,
    settings: &PortSettings,
    waiting: &dyn Fn(&Endpoint),
) -> Result<Box<dyn WireEnd>, EndError> {
    match end {
        Endpoint::Serial(name) => Ok(Box::new(open_port(name, settings)?)),
        Endpoint::Listen(addr) => {
            let listener =
                TcpListener::bind(addr).map_err(|error| EndError::Listen { addr: *addr, error })?;
            waiting(end);
            let (stream, _) = listener
                .accept()
                .map_err(|error| EndError::Accept { addr: *addr, error })?;
            tcp_end(stream, end)
        }
        Endpoint::Connect { host, port } => {
            let stream =
                TcpStream::connect((host.as_str(), *port)).map_err(|error| EndError::Connect {
                    end: end.to_string(),
                    error,
                })?;
            tcp_end(stream, end)
        }
    }
}

/// Why an end of a wire could not be opened: which end, and what the
/// system said.
#[derive(Debug, thiserror::Error)]
pub enum EndError {
    #[error(transparent)]
    Serial(#[from] OpenError),
    #[error("cannot listen on {addr}: {error}")]
    Listen {
        addr: std::net::SocketAddr,
        error: io::Error,
    },
    /// Listening, but waiting for the peer failed.
    #[error("no connection on {addr}: {error}")]
    Accept {
        addr: std::net::SocketAddr,
        error: io::Error,
    },
    #[error("cannot connect to {end}: {error}")]
    Connect { end: String, error: io::Error },
    /// Connected, but the stream's options could not be set.
    #[error("{end}: cannot set up the connection: {error}")]
    Setup { end: String, error: io::Error },
}

fn tcp_end(stream: TcpStream, end: &Endpoint) -> Result<Box<dyn WireEnd>, EndError> {
    let set = |r: io::Result<()>| {
        r.map_err(|error| EndError::Setup {
            end: end.to_string(),
            error,
        })
    };
    set(stream.set_nodelay(true))?;
    set(stream.set_read_timeout(Some(IO_TIMEOUT)))?;
    set(stream.set_write_timeout(Some(WRITE_LIMIT)))?;
    Ok(Box::new(stream))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::SocketAddr;

    #[test]
    fn a_listening_end_is_opened_before_a_connecting_one_and_both_carry_bytes() {
        // The far side: a listener this test owns, for the `tcp://` end.
        let far = TcpListener::bind("127.0.0.1:0").unwrap();
        let far_addr = far.local_addr().unwrap();
        let near_addr: SocketAddr = {
            let l = TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap()
        };
        let connect = Endpoint::parse(&format!("tcp://{far_addr}")).unwrap();
        let listen = Endpoint::parse(&format!("tcp-listen://{near_addr}")).unwrap();
        let peer = std::thread::spawn(move || {
            // Connect to the wire's listening end (retrying until it is up).
            for _ in 0..200 {
                if let Ok(s) = TcpStream::connect(near_addr) {
                    return s;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            panic!("the wire never listened");
        });
        // The connecting end is given first, but opened second.
        let settings = PortSettings::default();
        let told = std::sync::Mutex::new(Vec::new());
        let [mut out, mut inn] = open_ends([&connect, &listen], &settings, &|e| {
            told.lock().unwrap().push(e.to_string())
        })
        .unwrap();
        assert_eq!(*told.lock().unwrap(), [listen.to_string()]);
        let (mut far_side, _) = far.accept().unwrap();
        let mut near_side = peer.join().unwrap();
        near_side.write_all(b"ping\n").unwrap();
        let mut got = [0u8; 5];
        inn.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"ping\n");
        out.write_all(b"pong\n").unwrap();
        far_side.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"pong\n");
    }

    #[test]
    fn an_end_that_cannot_be_reached_says_which() {
        let free = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap();
        let e = Endpoint::parse(&format!("tcp://{free}")).unwrap();
        let serial = Endpoint::parse("/no/such/port").unwrap();
        let err = open_ends([&serial, &e], &PortSettings::default(), &|_| {})
            .err()
            .unwrap();
        assert!(matches!(err, EndError::Serial(_)), "{err:?}");
        assert!(err.to_string().contains("/no/such/port"), "{err}");
        let err = open_ends([&e, &e], &PortSettings::default(), &|_| {})
            .err()
            .unwrap();
        assert!(matches!(err, EndError::Connect { .. }), "{err:?}");
        assert!(
            err.to_string()
                .starts_with(&format!("cannot connect to tcp://{free}: ")),
            "{err}"
        );
    }
}
