//! Event loops that wire ports, the referee core, records and the display.
//! Everything here is an edge: the decisions are the core's.

/// Exit status of every session command: it ended normally.
pub const EXIT_OK: u8 = 0;
/// Exit status: something failed on the way (a link, the journal, a file).
pub const EXIT_FAILED: u8 = 1;
/// Exit status: bad usage, or a port, file or engine that cannot be opened.
pub const EXIT_USAGE: u8 = 2;

pub mod client;
pub mod demo;
pub mod epd;
pub mod logging;
pub mod options;
pub mod output;
pub mod ports;
pub mod referee;
pub mod resume;
pub mod session;
pub mod signals;
pub mod watch;
pub mod wire;
