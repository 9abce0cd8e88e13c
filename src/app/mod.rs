//! Event loops that wire ports, the referee core, records and the display.
//! Everything here is an edge: the decisions are the core's.

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
