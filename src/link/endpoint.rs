//! Where a link goes: a serial port, or a TCP connection made or accepted.
//!
//! * `NAME` or `serial:NAME`: a serial port (`/dev/ttyUSB0`, `COM3`, a
//!   socat link). The `serial:` prefix is for a name that would otherwise
//!   look like a URL.
//! * `tcp://HOST:PORT`: connect to `HOST:PORT` (a name or an address;
//!   `[::1]:7000` for IPv6).
//! * `tcp-listen://ADDR:PORT`: listen on that address (an IP address, not
//!   a name: the socket binds to exactly what is given) and accept the
//!   client that signs on.

use std::fmt;
use std::net::SocketAddr;

/// A parsed endpoint (see the module's documentation for the forms).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Endpoint {
    /// A serial port by its path or name.
    Serial(String),
    /// Connect to `host:port` (the text as given, resolved at each connect).
    Connect {
        /// The host name or address, without brackets for IPv6.
        host: String,
        port: u16,
    },
    /// Listen on this address and accept the client that signs on.
    Listen(SocketAddr),
}

/// An endpoint that does not read: the text as given, what was wrong and
/// what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EndpointError {
    /// `tcp://` without a usable `HOST:PORT`.
    #[error("{text:?}: {why}; expected tcp://HOST:PORT, e.g. tcp://192.168.1.10:7000")]
    Connect { text: String, why: AddressError },
    /// `tcp-listen://` without a usable `ADDRESS:PORT`.
    #[error(
        "{text:?}: {why}; expected tcp-listen://ADDRESS:PORT with an IP address, \
         e.g. tcp-listen://192.168.1.5:7000"
    )]
    Listen { text: String, why: AddressError },
    /// `serial:` and nothing after it.
    #[error("{0:?}: no port name after serial:")]
    NoSerialName(String),
    /// A URL of a kind argus does not know.
    #[error(
        "{text:?}: unknown kind of endpoint {scheme:?}; use a serial port name, serial:NAME, \
         tcp://HOST:PORT or tcp-listen://ADDRESS:PORT"
    )]
    UnknownKind { text: String, scheme: String },
    /// Nothing at all.
    #[error("no port or endpoint given")]
    Empty,
}

/// What is wrong with a `HOST:PORT` or `ADDRESS:PORT`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    #[error("an IPv6 address needs its closing ']'")]
    NoClosingBracket,
    #[error("no port after the address")]
    NoPortAfterAddress,
    #[error("no port")]
    NoPort,
    #[error("no host")]
    NoHost,
    #[error("{0:?} is not a host name or address (IPv6 goes in brackets)")]
    BadHost(String),
    #[error("port 0 is not a port to use")]
    PortZero,
    #[error("{0:?} is not a port number (1-65535)")]
    BadPort(String),
    #[error("{0:?} is not an IP address (a listener binds to an address, not a name)")]
    NotAnAddress(String),
}

const TCP: &str = "tcp://";
const TCP_LISTEN: &str = "tcp-listen://";
const SERIAL: &str = "serial:";

impl Endpoint {
    /// Parses an endpoint; the error says what was expected.
    pub fn parse(text: &str) -> Result<Endpoint, EndpointError> {
        if let Some(rest) = text.strip_prefix(TCP) {
            let (host, port) = host_port(rest).map_err(|why| EndpointError::Connect {
                text: text.to_string(),
                why,
            })?;
            return Ok(Endpoint::Connect { host, port });
        }
        if let Some(rest) = text.strip_prefix(TCP_LISTEN) {
            let addr = listen_addr(rest).map_err(|why| EndpointError::Listen {
                text: text.to_string(),
                why,
            })?;
            return Ok(Endpoint::Listen(addr));
        }
        if let Some(name) = text.strip_prefix(SERIAL) {
            if name.is_empty() {
                return Err(EndpointError::NoSerialName(text.to_string()));
            }
            return Ok(Endpoint::Serial(name.to_string()));
        }
        if let Some((scheme, _)) = text.split_once("://") {
            return Err(EndpointError::UnknownKind {
                text: text.to_string(),
                scheme: scheme.to_string(),
            });
        }
        if text.is_empty() {
            return Err(EndpointError::Empty);
        }
        Ok(Endpoint::Serial(text.to_string()))
    }

    /// Whether this is a network endpoint (no baud rate, no wire-time
    /// credit).
    pub fn is_network(&self) -> bool {
        !matches!(self, Endpoint::Serial(_))
    }

    /// The serial port's name, for a serial endpoint.
    pub fn serial(&self) -> Option<&str> {
        match self {
            Endpoint::Serial(name) => Some(name),
            _ => None,
        }
    }
}

impl std::str::FromStr for Endpoint {
    type Err = EndpointError;

    fn from_str(s: &str) -> Result<Endpoint, EndpointError> {
        Endpoint::parse(s)
    }
}

impl fmt::Display for Endpoint {
    /// The form [`Endpoint::parse`] reads back (a serial name as it was
    /// given, with `serial:` only where the name would look like a URL).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Endpoint::Serial(name) if name.contains("://") || name.starts_with(SERIAL) => {
                write!(f, "{SERIAL}{name}")
            }
            Endpoint::Serial(name) => f.write_str(name),
            Endpoint::Connect { host, port } if host.contains(':') => {
                write!(f, "{TCP}[{host}]:{port}")
            }
            Endpoint::Connect { host, port } => write!(f, "{TCP}{host}:{port}"),
            Endpoint::Listen(addr) => write!(f, "{TCP_LISTEN}{addr}"),
        }
    }
}

/// `HOST:PORT` or `[V6]:PORT` split, the port checked.
fn host_port(text: &str) -> Result<(String, u16), AddressError> {
    let (host, port) = if let Some(rest) = text.strip_prefix('[') {
        let (host, after) = rest.split_once(']').ok_or(AddressError::NoClosingBracket)?;
        let port = after
            .strip_prefix(':')
            .ok_or(AddressError::NoPortAfterAddress)?;
        (host, port)
    } else {
        text.rsplit_once(':').ok_or(AddressError::NoPort)?
    };
    if host.is_empty() {
        return Err(AddressError::NoHost);
    }
    if host.contains(['/', ' ']) || (host.contains(':') && !text.starts_with('[')) {
        return Err(AddressError::BadHost(host.to_string()));
    }
    let port = parse_port(port)?;
    Ok((host.to_string(), port))
}

fn parse_port(port: &str) -> Result<u16, AddressError> {
    match port.parse::<u16>() {
        Ok(0) => Err(AddressError::PortZero),
        Ok(p) => Ok(p),
        Err(_) => Err(AddressError::BadPort(port.to_string())),
    }
}

/// The address to listen on: an IP address and a port.
pub fn listen_addr(text: &str) -> Result<SocketAddr, AddressError> {
    let (host, port) = host_port(text)?;
    let ip: std::net::IpAddr = host
        .parse()
        .map_err(|_| AddressError::NotAnAddress(host.clone()))?;
    Ok(SocketAddr::new(ip, port))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_parses_and_writes_back() {
        for text in [
            "/dev/ttyUSB0",
            "COM3",
            "tcp://referee.local:7000",
            "tcp://192.168.1.5:7000",
            "tcp://[::1]:7000",
            "tcp-listen://192.168.1.5:7000",
            "tcp-listen://[::1]:7000",
            "serial:tcp://odd-name",
        ] {
            let e = Endpoint::parse(text).unwrap();
            assert_eq!(e.to_string(), text);
            assert_eq!(Endpoint::parse(&e.to_string()).unwrap(), e);
        }
        assert_eq!(
            Endpoint::parse("serial:/dev/ttyS0").unwrap(),
            Endpoint::Serial("/dev/ttyS0".into())
        );
        assert_eq!(
            Endpoint::parse("tcp://h:1").unwrap(),
            Endpoint::Connect {
                host: "h".into(),
                port: 1
            }
        );
        assert!(Endpoint::parse("tcp://h:1").unwrap().is_network());
        assert!(!Endpoint::parse("COM1").unwrap().is_network());
    }

    #[test]
    fn bad_endpoints_say_what_was_expected() {
        let err = |t: &str| Endpoint::parse(t).unwrap_err().to_string();
        assert!(
            err("tcp://host").contains("no port"),
            "{}",
            err("tcp://host")
        );
        assert!(err("tcp://host:99999").contains("not a port number"));
        assert!(err("tcp://host:0").contains("port 0"));
        assert!(err("tcp://:7000").contains("no host"));
        assert!(err("tcp://::1:7000").contains("brackets"));
        assert!(err("tcp-listen://referee.local:7000").contains("not an IP address"));
        assert!(err("tcp-listen://0.0.0.0").contains("tcp-listen://ADDRESS:PORT"));
        assert!(err("udp://h:1").contains("unknown kind of endpoint \"udp\""));
        assert!(err("serial:").contains("no port name"));
        assert!(err("").contains("no port"));
        assert_eq!(
            Endpoint::parse("tcp://host:0"),
            Err(EndpointError::Connect {
                text: "tcp://host:0".into(),
                why: AddressError::PortZero
            })
        );
        assert_eq!(Endpoint::parse(""), Err(EndpointError::Empty));
    }
}
