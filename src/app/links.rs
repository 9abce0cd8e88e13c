//! A match's endpoints as its command line gives them: serial ports,
//! `tcp://`, `tcp-listen://`, or `--listen` for both, with `--allow` and
//! `--password` (the director opens them as a match's players), and how
//! many link events may wait for a loop.

use clap::Args;

use crate::app::start;
use crate::clock::LineSettings;
use crate::link::{Endpoint, EndpointError, PortSettings};
use crate::referee::ClientId;
use crate::text::strip_control;
use crate::tournament::player::is_tournament_only;

/// The clients' endpoints of `argus referee` and `argus resume`.
#[derive(Debug, Clone, Args)]
pub struct EndpointArgs {
    /// Client A's endpoint: a serial port (e.g. /dev/ttyUSB0, COM3, a socat
    /// link), tcp://HOST:PORT or tcp-listen://ADDR:PORT (none with --listen,
    /// or to resume a tournament's journal).
    pub port_a: Option<String>,
    /// Client B's endpoint.
    pub port_b: Option<String>,
    #[command(flatten)]
    pub net: NetOptions,
}

/// Why a referee's two endpoints are not two it can open: which endpoint
/// or flag, and what is wrong with it.
#[derive(Debug, thiserror::Error)]
pub enum EndpointsError {
    #[error("--listen: {0}")]
    Listen(EndpointError),
    #[error("--listen takes both clients: give it without PORT_A and PORT_B")]
    ListenAndPorts,
    /// A tournament's players given to the referee (what to say instead).
    #[error("{0}")]
    TournamentPlayers(String),
    #[error("client {client}: {why}")]
    Client {
        client: ClientId,
        why: EndpointError,
    },
    #[error(
        "give two endpoints (PORT_A PORT_B: serial ports, tcp://HOST:PORT or \
         tcp-listen://ADDR:PORT), or --listen ADDR:PORT for both"
    )]
    NotTwo,
    #[error("client A and client B are the same endpoint ({0}): each client needs its own")]
    Same(Endpoint),
    /// The serial ports are the same one, or not devices.
    #[error(transparent)]
    Ports(#[from] start::StartError),
}

impl EndpointArgs {
    /// The endpoints of A and B, parsed (or `--listen` for both).
    pub fn endpoints(&self) -> Result<[Endpoint; 2], EndpointsError> {
        self.net
            .endpoints([self.port_a.as_deref(), self.port_b.as_deref()])
    }
}

/// Link events that may wait for the director's loop; then the links'
/// reader threads wait (see [`crate::link::Link::open`]).
pub const LINK_EVENTS: usize = 4096;

/// The network options of `argus referee` and `argus resume`.
#[derive(Debug, Clone, Default, Args)]
pub struct NetOptions {
    /// Listen on ADDR:PORT for both clients (instead of PORT_A and
    /// PORT_B): the first to sign on is A, the second B; with --name-a and
    /// --name-b (on resume: the names the journal knows), each seat takes
    /// only the client that signs on with that tcsi name. Give the machine's LAN address (e.g. 192.168.1.5:7000);
    /// 0.0.0.0 listens on every network the machine is on.
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<String>,
    /// Accept TCP connections only from this address or network (e.g.
    /// 192.168.1.0/24); may be repeated. Others are closed before a byte
    /// is read [default: any].
    #[arg(long, value_name = "CIDR")]
    pub allow: Vec<String>,
    /// A shared secret the clients must send (argus client --password)
    /// before they sign on over TCP; it is never written to the transcript
    /// or the journal.
    #[arg(long, value_name = "SECRET")]
    pub password: Option<String>,
}

impl NetOptions {
    /// The endpoints of A and B: `ports`, or `--listen` for both.
    pub fn endpoints(&self, ports: [Option<&str>; 2]) -> Result<[Endpoint; 2], EndpointsError> {
        let client = |client, text| {
            Endpoint::parse(text).map_err(|why| EndpointsError::Client { client, why })
        };
        match (&self.listen, ports) {
            (Some(addr), [None, None]) => {
                let addr = Endpoint::parse(&format!("tcp-listen://{addr}"))
                    .map_err(EndpointsError::Listen)?;
                Ok([addr.clone(), addr])
            }
            (Some(_), _) => Err(EndpointsError::ListenAndPorts),
            (None, [Some(a), Some(b)]) if [a, b].into_iter().any(is_tournament_only) => {
                Err(EndpointsError::TournamentPlayers(tournament_players(a, b)))
            }
            (None, [Some(a), Some(b)]) => Ok([client(ClientId::A, a)?, client(ClientId::B, b)?]),
            (None, _) => Err(EndpointsError::NotTwo),
        }
    }
}

/// What to say when a referee is given a tournament's players (`engine:`,
/// `mover:`, `tcp:NAME`) as its endpoints: where they are taken.
fn tournament_players(a: &str, b: &str) -> String {
    let given = [a, b]
        .into_iter()
        .filter(|s| is_tournament_only(s))
        .map(|s| format!("{:?}", strip_control(s)))
        .collect::<Vec<_>>()
        .join(" and ");
    let instead = if is_tournament_only(a) && is_tournament_only(b) {
        format!(
            "; a match between these two is a tournament of two: argus tournament {} {} \
             [--games-per-pairing N]",
            shell_word(a),
            shell_word(b)
        )
    } else {
        String::new()
    };
    format!(
        "{given}: engine:, mover: and tcp:NAME players are for `argus tournament` (for now){instead}. \
         argus referee takes serial ports, tcp://HOST:PORT or tcp-listen://ADDR:PORT"
    )
}

/// `s` as one word of a shell command line (quoted if it has blanks or
/// quotes), control characters removed.
fn shell_word(s: &str) -> String {
    let s = strip_control(s);
    if s.contains(|c: char| c.is_whitespace() || "'\"$`\\".contains(c)) {
        format!("'{}'", s.replace('\'', "'\\''"))
    } else {
        s
    }
}

/// Checks the endpoints before anything is opened: two serial ports must
/// differ (and be devices); a TCP endpoint may not be given twice except a
/// listener, which then seats both clients.
pub fn check_endpoints(endpoints: &[Endpoint; 2]) -> Result<(), EndpointsError> {
    match endpoints {
        [Endpoint::Serial(a), Endpoint::Serial(b)] => Ok(start::check_ports([a, b])?),
        [a @ Endpoint::Connect { .. }, b] if a == b => Err(EndpointsError::Same(a.clone())),
        [Endpoint::Serial(p), _] | [_, Endpoint::Serial(p)] => Ok(start::check_ports([p, ""])?),
        _ => Ok(()),
    }
}

/// The line the clock credits for a client's reply on `endpoint`: a TCP
/// line has no baud rate (0: no wire-time credit).
pub fn line_of(endpoint: &Endpoint, settings: &PortSettings) -> LineSettings {
    if endpoint.is_network() {
        LineSettings {
            baud: 0,
            ..settings.line()
        }
    } else {
        settings.line()
    }
}

/// How a link is shown on the status line: the serial settings, or `TCP`.
pub fn line_view(endpoint: &Endpoint, settings: &PortSettings) -> String {
    if endpoint.is_network() {
        "TCP".into()
    } else {
        settings.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net(listen: Option<&str>) -> NetOptions {
        NetOptions {
            listen: listen.map(str::to_string),
            ..NetOptions::default()
        }
    }

    #[test]
    fn listen_stands_for_both_endpoints() {
        let e = net(Some("192.168.1.5:7000"))
            .endpoints([None, None])
            .unwrap();
        assert_eq!(e[0].to_string(), "tcp-listen://192.168.1.5:7000");
        assert_eq!(e[0], e[1]);
        let e = net(Some("192.168.1.5:7000"))
            .endpoints([Some("/dev/ttyS0"), None])
            .unwrap_err();
        assert!(matches!(e, EndpointsError::ListenAndPorts), "{e}");
        assert!(e.to_string().contains("without PORT_A"), "{e}");
        let e = net(None).endpoints([Some("/dev/ttyS0"), None]).unwrap_err();
        assert!(matches!(e, EndpointsError::NotTwo), "{e}");
        assert!(e.to_string().contains("--listen"), "{e}");
        let e = net(Some("referee:7000"))
            .endpoints([None, None])
            .unwrap_err();
        assert!(matches!(e, EndpointsError::Listen(_)), "{e}");
        assert!(e.to_string().contains("--listen"), "{e}");
        let e = net(None)
            .endpoints([Some("/dev/ttyS0"), Some("udp://x:1")])
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("client B: \"udp://x:1\": unknown kind"),
            "{e}"
        );
        let e = net(None)
            .endpoints([Some("tcp-listen://127.0.0.1:7000"), Some("/dev/ttyS1")])
            .unwrap();
        assert!(e[0].is_network() && !e[1].is_network());
    }

    #[test]
    fn the_same_endpoint_twice_is_refused_unless_it_is_a_listener() {
        let p = |a: &str, b: &str| [Endpoint::parse(a).unwrap(), Endpoint::parse(b).unwrap()];
        assert!(matches!(
            check_endpoints(&p("tcp://h:1", "tcp://h:1")),
            Err(EndpointsError::Same(_))
        ));
        assert!(matches!(
            check_endpoints(&p("/dev/x", "/dev/x")),
            Err(EndpointsError::Ports(start::StartError::SamePort(_)))
        ));
        check_endpoints(&p("tcp-listen://127.0.0.1:1", "tcp-listen://127.0.0.1:1")).unwrap();
        check_endpoints(&p("tcp://h:1", "/dev/ttyS9")).unwrap();
    }

    #[test]
    fn a_tcp_line_has_no_wire_time_credit() {
        let s = PortSettings::default();
        assert_eq!(line_of(&Endpoint::parse("tcp://h:1").unwrap(), &s).baud, 0);
        assert_eq!(
            line_of(&Endpoint::parse("/dev/ttyS0").unwrap(), &s).baud,
            9600
        );
        assert_eq!(line_view(&Endpoint::parse("tcp://h:1").unwrap(), &s), "TCP");
    }
}
