//! Links: serial ports and TCP connections; port settings, endpoints,
//! opening, the line framer, a serial port's reader and writer threads,
//! the one readiness loop of every TCP socket, the TCP listener.
//!
//! * [`Endpoint`]: a serial name, `tcp://HOST:PORT` or
//!   `tcp-listen://ADDR:PORT`, parsed.
//! * [`Connector`]: where a link's stream comes from (and comes again).
//! * [`listen()`]: a TCP listener that seats the clients signing on
//!   ([`seats`]: who gets which seat, I/O-free).
//! * [`PortSettings`]: baud rate, character format, flow control, line end.
//! * [`open_port`]: open one port exclusively and configured.
//! * [`list_ports`]: the serial ports of this machine (`argus ports`).
//! * [`framer::Framer`]: bytes to lines (pure, no I/O).
//! * [`Link`]: a serial port with a reader and a writer thread, or a TCP
//!   connection on the readiness loop (`poll`: one thread for every
//!   socket), reporting [`LinkEvent`]s and reopening a lost port.
//! * [`LocalEnd`]: one end of an in-process link ([`Link::in_process`]),
//!   channels to a program argus runs on a thread of its own.
//! * [`cable`]: in-process virtual cables (pseudo-terminal pairs).
//! * [`simulator`]: the line simulator of `argus wire` (pacing, bit
//!   errors, pulled cables).

pub mod cable;
mod connector;
mod endpoint;
mod event;
pub mod framer;
mod list;
mod listen;
mod local;
mod open;
mod poll;
mod reader;
pub mod seats;
mod settings;
pub mod simulator;
mod thread;
pub mod wire_ends;
mod writer;

pub use cable::{CableError, VirtualCable};
pub use connector::{
    ConnectError, Connection, Connector, FIRST_OPEN_BUSY_FOR, RECONNECT_FIRST, RECONNECT_MAX,
    REOPEN_INTERVAL, SAY_AGAIN, TCP_STALL_LIMIT, Trying, backoff, connect_words,
};
pub use endpoint::{AddressError, Endpoint, EndpointError, listen_addr};
pub use event::{LinkEvent, LinkEventKind, LinkId, Stamp};
pub use framer::{Frame, Framer, MAX_LINE};
pub use list::{ListError, PortInfo, PortKind, UsbDetails, list_ports};
pub use listen::{
    BadAllow, ListenConfig, ListenError, MAX_PENDING, SeatHandle, listen, parse_allow,
};
pub use local::LocalEnd;
pub use open::{IO_TIMEOUT, OpenError, OpenErrorKind, open_port};
pub use settings::{Flow, LineEnd, Parity, PortSettings, SettingsError};
pub use thread::{Link, MAX_QUEUED, SendError};
