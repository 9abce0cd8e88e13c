//! The audience's web view (`--http ADDR:PORT`): a read-only HTTP server
//! at the edge. The referee's loop publishes a small state after every
//! change ([`hub::Publisher`], which never waits); the server's own
//! threads serve the page, the live stream of states (`/events`), the
//! state (`/state.json`) and the games as PGN (`/games.pgn`,
//! `/game/N.pgn`, `/round/N.pgn`), and a finished game to step through
//! (`/game/N.json`); the broadcast pusher ([`push`]) POSTs
//! the same PGN to a lichess broadcast round. See docs/web.md and
//! docs/broadcast.md.
//!
//! * [`state`]: what the page shows, as serializable values (I/O-free);
//! * [`analysis`]: the programs' scores, times and PVs for it (I/O-free);
//! * [`replay`]: a finished game's positions move by move, for stepping
//!   through it (`/game/N.json`; I/O-free);
//! * [`hub`]: the slot between the loop and the server, and the viewers'
//!   bounded queues;
//! * [`guard`]: what one address may hold (request places, and the
//!   reasons a connection is refused, the viewers' too) and the refusals'
//!   log thinned per address (I/O-free);
//! * [`http`]: request heads, routes and response heads (I/O-free);
//! * [`server`]: the accept and connection threads;
//! * [`push`]: the broadcast pusher's thread, and its schedule (newest
//!   state, back-off; I/O-free);
//! * `assets`: the page's files, built in.

pub mod analysis;
mod assets;
pub mod guard;
pub mod http;
pub mod hub;
pub mod push;
pub mod replay;
pub mod server;
pub mod state;

pub use hub::{GamePgn, Games, Publisher};
pub use server::{Limits, Served, serve};
pub use state::{
    BoardState, Pairing, RoundBye, RoundState, StandingRow, Standings, TiebreakValue, WebState,
    board_of,
};
