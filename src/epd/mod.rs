//! EPD records (Extended Position Description, spec sections 4-7): parse,
//! write, normalise, and typed access to the opcodes the referee uses. This
//! module knows nothing of chess rules.
//!
//! * [`Record::parse`] / [`Record::parse_bytes`] read one line
//!   ([`EpdError`] says what was wrong and at which column).
//! * `Display` for [`Record`] writes it back as given;
//!   [`Record::to_canonical`] and [`Record::normalize`] give the canonical
//!   form of spec 7.1.
//! * [`Record::refcom`], [`Record::cc`], [`Record::sm`], ... read typed
//!   operands ([`OpError`] on malformed ones); [`Operation::refcom`],
//!   [`Operation::cc`], ... build operations that always write as valid EPD.
//!
//! ```
//! use argus::epd::{Operation, RefCom, Record};
//! let mut r = Record::parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 sm e4;").unwrap();
//! r.set(Operation::refcom(RefCom::Respond));
//! assert_eq!(r.refcom().unwrap(), Some(RefCom::Respond));
//! assert_eq!(r.to_canonical(),
//!     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 refcom respond; sm e4;");
//! ```

pub mod basetype;
pub mod build;
pub mod error;
pub mod line_check;
pub mod ops;
pub mod parse;
pub mod record;
pub mod sign_on;
pub mod write;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use basetype::{BasetypeError, ClockValue, Date, TimeOfDay};
pub use error::EpdError;
pub use ops::{IntegerError, OpError, RefCom, RefReq};
pub use parse::{MAX_LINE, MAX_STRING};
pub use record::{Fields, Operand, Operation, Record};

/// `Aclk`, argus's private opcode for the clocks to the millisecond
/// (EPD spec 5.1, 5.3: a private opcode starts with an upper-case letter;
/// programs that do not know it ignore it): `Aclk WHITE BLACK;`, the time
/// left on White's and on Black's clock in milliseconds, on every record
/// the referee sends in a timed game (docs/protocol.md, "Clocks").
pub const CLOCK_LEFT: &str = "Aclk";

/// `Abook`, argus's private opcode on a reply whose move the client
/// played from its opening book (the engine bridge's `--book`): the PGN
/// marks the move `{book}` in place of an evaluation.
pub const BOOK_MOVE: &str = "Abook";

/// `Aponder hit|miss`, argus's private opcode on a reply whose engine
/// pondered before the move (the bridge's `--ponder`): whether the
/// opponent played the move it pondered on. The referee counts the hits
/// per player.
pub const PONDER: &str = "Aponder";

/// `Asearch MS`, argus's private opcode on a reply whose engine the
/// bridge asked: the engine's own time for the move in milliseconds,
/// rounded up, from its `go` written to its move read from the pipe. A referee that runs
/// the bridge itself (an `engine:` player) charges the move this time,
/// crediting its own hops beyond it (docs/protocol.md, "Clocks"); from
/// any other client it is only noted.
pub const SEARCH_TIME: &str = "Asearch";
/// `Atc "WHITE" "BLACK"`, argus's private opcode for time odds: each
/// colour's own time control (PGN form) in this game, on every `inform`
/// of a game whose sides play under different controls (`--tc
/// NAME:CONTROL`; docs/protocol.md, "Clocks"). The PGN's tags for them,
/// `WhiteTimeControl` and `BlackTimeControl`, are one letter too long for
/// an EPD identifier (15 at most), so `ptp` cannot carry them.
pub const TIME_CONTROLS: &str = "Atc";

/// `Aseldepth N`, argus's private opcode for the selective search depth
/// in plies that the engine reported with its move (UCI `seldepth`), as
/// `acd` carries the nominal depth: the PGN writes it as `sd=N`.
pub const SELDEPTH: &str = "Aseldepth";

/// `Anps N`, argus's private opcode for the speed in nodes a second that
/// the engine reported with its move (UCI `nps`): the PGN writes it as
/// `nps=N`, the web page shows it.
pub const NPS: &str = "Anps";
