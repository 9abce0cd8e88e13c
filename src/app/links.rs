//! A match's endpoints as its command line gives them: serial ports,
//! `tcp://`, `tcp-listen://`, or `--listen` for both, with `--allow` and
//! `--password` (the director opens them as a match's players), and how
//! many link events may wait for a loop.

use clap::Args;

use crate::link::EndpointError;

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

/// Why a match's endpoint flags do not go together: `--listen`'s address,
/// or `--listen` given with PORT_A and PORT_B.
#[derive(Debug, thiserror::Error)]
pub enum EndpointsError {
    #[error("--listen: {0}")]
    Listen(EndpointError),
    #[error("--listen takes both clients: give it without PORT_A and PORT_B")]
    ListenAndPorts,
}

/// Link events that may wait for the director's loop; then the links'
/// reader threads and the TCP links' readiness loop wait (see
/// [`crate::link::Link::open`]).
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
