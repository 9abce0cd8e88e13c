//! The game: position and history on top of `shakmaty`, SAN in and out, and
//! the rules that end or may end a game.
//!
//! * [`position_from_fields`], [`fields_of`], [`fen_of`]: between EPD's four
//!   position fields (plus `hmvc`/`fmvn`) and a checked [`Chess`] position.
//! * [`echo_mismatch`]: does a client's echoed position agree with ours?
//! * [`parse_san`] (lenient, PGN import format) and [`san_of`] (canonical,
//!   PGN export format).
//! * [`Game`]: start position plus the moves played, with the SAN of each,
//!   every position on the way, and FIDE repetition counting.
//! * [`AutomaticEnd`], [`DrawClaim`], [`can_mate`]: what ends a game without
//!   a claim, what a player may claim, and whether a side can still mate
//!   (for flag fall).
//!
//! Everything here is pure and panic-free on any input: positions and moves
//! that came from a client are checked before use.
//!
//! ```
//! use argus::game::{Game, AutomaticEnd};
//! use shakmaty::{Chess, Color};
//!
//! let mut game = Game::new(Chess::default());
//! for san in ["f3", "e5", "g4", "Qh4"] {
//!     game.play_san(san).unwrap();
//! }
//! assert_eq!(game.sans().last().map(String::as_str), Some("Qh4#"));
//! assert_eq!(game.automatic_end(), Some(AutomaticEnd::Checkmate { winner: Color::Black }));
//! ```

mod echo;
mod end;
mod history;
mod san;
mod setup;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use echo::echo_mismatch;
pub use end::{AutomaticEnd, DrawClaim, can_mate};
pub use history::Game;
pub use san::{SanError, SanErrorKind, parse_san, san_of};
pub use setup::{
    PositionError, fen_of, fields_of, position_from_fen, position_from_fields, position_of_record,
};

/// Re-exported so that users of this module need not name `shakmaty` for
/// the basic types.
pub use shakmaty::{Chess, Color, Move};
