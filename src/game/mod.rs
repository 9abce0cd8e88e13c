//! The game: position and history on top of `shakmaty`, SAN in and out, and
//! the rules that end or may end a game.
//!
//! * [`position_from_fields`], [`fields_of`], [`fen_of`]: between EPD's four
//!   position fields (plus `hmvc`/`fmvn`) and a checked [`Chess`] position.
//! * [`echo_mismatch`]: does a client's echoed position agree with ours?
//! * [`Variant`]: standard chess or Chess960 (a position keeps its own:
//!   [`Variant::of`]); [`chess960_start`] the 960 start positions by
//!   Scharnagl number, [`double_chess960_start`] a different one per side.
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
mod variant;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use echo::echo_mismatch;
pub use end::{AutomaticEnd, DrawClaim, can_mate};
pub use history::Game;
pub use san::{SanError, SanErrorKind, parse_san, san_of};
pub use setup::{
    PositionError, RecordError, castling_text, fen_of, fields_of, position_from_fen,
    position_from_fen_in, position_from_fields, position_from_fields_in, position_of_record,
    position_of_record_in,
};
pub use variant::{
    CHESS960_POSITIONS, STANDARD_NUMBER, UnknownVariant, Variant, chess960_back_rank,
    chess960_start, double_chess960_start, in_variant,
};

/// Re-exported so that users of this module need not name `shakmaty` for
/// the basic types.
pub use shakmaty::{Chess, Color, Move};
