//! A plain HTTP client over a loopback socket, for the web server's
//! tests: one request, `Connection: close`, the response read to its end
//! (or, for a stream, as far as asked), every wait bounded.

use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// How long a request may take.
const WITHIN: Duration = Duration::from_secs(20);

/// A response: status, head (status line and headers) and body.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub head: String,
    pub body: Vec<u8>,
}

impl Response {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The value of header `name` (case-insensitive), if there.
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    }
}

/// Connects to `addr` from the loopback address `from` (any of 127/8 on
/// Linux), so that a test has several clients' addresses; `None` if the
/// server refused the connection outright.
pub fn connect_from(from: IpAddr, addr: &str) -> Option<TcpStream> {
    use socket2::{Domain, Socket, Type};
    let to: SocketAddr = addr.parse().unwrap_or_else(|e| panic!("{addr}: {e}"));
    let socket = Socket::new(Domain::for_address(to), Type::STREAM, None).unwrap();
    socket
        .bind(&SocketAddr::new(from, 0).into())
        .unwrap_or_else(|e| panic!("bind {from}: {e}"));
    socket.connect(&to.into()).ok()?;
    let s = TcpStream::from(socket);
    s.set_read_timeout(Some(WITHIN)).unwrap();
    s.set_write_timeout(Some(WITHIN)).unwrap();
    Some(s)
}

/// Connects to `addr` and sends `method path` (no body).
pub fn send(addr: &str, method: &str, path: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect {addr}: {e}"));
    s.set_read_timeout(Some(WITHIN)).unwrap();
    s.set_write_timeout(Some(WITHIN)).unwrap();
    let req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes())
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    s
}

/// Splits a whole response into head and body.
fn parse(bytes: &[u8], what: &str) -> Response {
    let end = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("{what}: no response head in {bytes:?}"));
    let head = String::from_utf8_lossy(&bytes[..end]).into_owned();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{what}: no status in {head:?}"));
    Response {
        status,
        head,
        body: bytes[end + 4..].to_vec(),
    }
}

/// One request, its whole response.
pub fn request(addr: &str, method: &str, path: &str) -> Response {
    request_within(addr, method, path, WITHIN)
}

/// One request, its whole response, each read of which must come within
/// `within`.
pub fn request_within(addr: &str, method: &str, path: &str, within: Duration) -> Response {
    let mut s = send(addr, method, path);
    s.set_read_timeout(Some(within)).unwrap();
    let mut bytes = Vec::new();
    s.read_to_end(&mut bytes)
        .unwrap_or_else(|e| panic!("{method} {path}: nothing more within {within:?}: {e}"));
    parse(&bytes, &format!("{method} {path}"))
}

/// Reads what a server answers until it closes the connection, resets it
/// or says nothing more for `WITHIN` (a refusal's answer, say).
pub fn answer(s: &mut TcpStream) -> String {
    let mut bytes = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n) = s.read(&mut buf) {
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// `GET path`, which must answer 200; its body as text.
pub fn get(addr: &str, path: &str) -> String {
    let r = request(addr, "GET", path);
    assert_eq!(r.status, 200, "GET {path}: {}\n{}", r.head, r.text());
    r.text()
}

/// Reads from a stream until `done` accepts what came so far, or fails
/// after `within`; returns what came.
pub fn read_until(
    s: &mut TcpStream,
    within: Duration,
    what: &str,
    done: impl Fn(&str) -> bool,
) -> String {
    let deadline = Instant::now() + within;
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    s.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    loop {
        if done(&String::from_utf8_lossy(&got)) {
            return String::from_utf8_lossy(&got).into_owned();
        }
        assert!(
            Instant::now() < deadline,
            "no {what} within {within:?}; got:\n{}",
            String::from_utf8_lossy(&got)
        );
        match s.read(&mut buf) {
            Ok(0) => panic!(
                "the stream ended before {what}; got:\n{}",
                String::from_utf8_lossy(&got)
            ),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => panic!("reading for {what}: {e}"),
        }
    }
}
