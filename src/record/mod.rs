//! What argus writes and reads as files: PGN (writer and reader), openings,
//! the byte transcript of a session.
//!
//! * [`pgn`]: [`pgn::write_pgn`] renders a game in PGN export format;
//!   [`pgn::append_pgn`] and [`pgn::write_atomic`] put it on disk durably.
//! * [`pgn_read`]: a streaming PGN reader with bounded memory per game.
//! * [`openings`]: opening lines from EPD or PGN files and the order in which
//!   a match plays them.
//! * [`transcript`]: the line-oriented log of every byte in and out.
//! * [`latest`]: a file kept at the newest state by its own thread (the
//!   live PGN).
//!
//! No chess rules live here: moves are SAN strings as the game module wrote
//! or will check them.

pub mod cbf_files;
pub mod durable;
pub mod epd_out;
pub mod escape;
pub mod latest;
pub mod lines;
pub mod opening_order;
pub mod openings;
pub mod pgn;
pub mod pgn_read;
pub mod pgn_tree;
pub mod timestamp;
pub mod transcript;
