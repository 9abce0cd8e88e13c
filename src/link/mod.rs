//! Serial links: port settings, opening, the line framer, reader and writer
//! threads.
//!
//! * [`PortSettings`]: baud rate, character format, flow control, line end.
//! * [`open_port`]: open one port exclusively and configured.
//! * [`list_ports`]: the serial ports of this machine (`argus ports`).
//! * [`framer::Framer`]: bytes to lines (pure, no I/O).
//! * [`Link`]: a port with a reader and a writer thread, reporting
//!   [`LinkEvent`]s and reopening a lost port.
//! * [`cable`]: in-process virtual cables (pseudo-terminal pairs).
//! * [`simulator`]: the line simulator of `argus wire` (pacing, bit
//!   errors, pulled cables).

pub mod cable;
mod event;
pub mod framer;
mod list;
mod open;
mod reader;
mod settings;
pub mod simulator;
mod thread;
mod writer;

pub use cable::VirtualCable;
pub use event::{LinkEvent, LinkEventKind, LinkId, Stamp};
pub use framer::{Frame, Framer, MAX_LINE};
pub use list::{PortInfo, PortKind, UsbDetails, list_ports};
pub use open::{IO_TIMEOUT, OpenError, OpenErrorKind, open_port};
pub use settings::{Flow, LineEnd, Parity, PortSettings};
pub use thread::{Link, MAX_QUEUED, REOPEN_INTERVAL, SendError};
