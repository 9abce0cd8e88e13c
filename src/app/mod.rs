//! Event loops that wire ports, the referee core, records and the display.
//! Everything here is an edge: the decisions are the core's.
//!
//! Each command is a `run(args) -> Exit`: how it ended, or why it
//! failed ([`Failure`]); [`crate::exit::status`], the one mapping for every
//! command, turns that into the exit status.

pub use crate::exit::{
    Completion, EXIT_ENDED_EARLY, EXIT_FAILED, EXIT_OK, EXIT_USAGE, Exit, FATAL_TARGET, Failure,
    status as exit_status,
};

pub mod audience;
pub mod book;
pub mod cbf;
pub mod client;
pub mod demo;
pub mod epd;
pub mod links;
pub mod logging;
pub mod options;
pub mod ports;
pub mod resume;
pub mod signals;
pub mod start;
pub mod stdout;
pub mod swiss;
pub mod syzygy;
pub mod tail;
pub mod tournament;
pub mod turn;
pub mod waiting;
pub mod wall;
pub mod watch;
pub mod wire;
pub mod writers;
