//! The 1993 ChessBase formats (`specs/chessbase-cbf-format-1993.txt`):
//! CBF game records with their CBI index, and FBK opening books.
//!
//! The codec does no I/O: bytes in, games out and back.
//!
//! * [`movegen`]: the move numbering (the document's generation order).
//! * [`record`]: one CBF game record (header, texts, moves and variations,
//!   comments, starting position).
//! * [`index`]: the CBI index.
//! * [`fbk`]: FBK opening books.
//!
//! docs/chessbase.md states every decision taken where the document is
//! silent or ambiguous.

use shakmaty::Move;

pub mod base;
pub mod fbk;
pub mod index;
pub mod movegen;
pub mod pgn;
pub mod record;

/// Deepest variation nesting read or written.
pub const MAX_DEPTH: usize = 32;

/// What was wrong in a record, and at which byte (from the record's start,
/// or from the file's start where the caller says so).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("byte {offset}: {fault}")]
pub struct CbError {
    /// Byte offset of the problem.
    pub offset: usize,
    /// What was wrong.
    pub fault: CbFault,
}

/// What is wrong in a game record or a book (the kinds; [`CbError`] adds
/// the byte).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CbFault {
    #[error("header move length 0 (it counts the moves part + 1)")]
    NoMoveLength,
    /// Fewer bytes than a header (`have` of them).
    #[error("truncated header ({have} of {} bytes)", record::HEADER_LEN)]
    TruncatedHeader { have: usize },
    /// Fewer bytes than the header's lengths add up to.
    #[error("truncated record: the header's lengths add up to {total} bytes, {have} are there")]
    TruncatedRecord { total: usize, have: usize },
    /// A starting position's piece code that names no piece.
    #[error("piece code {code} on {square} in the starting position")]
    PieceCode { code: u8, square: shakmaty::Square },
    /// A starting position that is not legal (the chess library's words).
    #[error("illegal starting position: {0}")]
    IllegalPosition(String),
    #[error("more comments than moves marked as commented")]
    MoreComments,
    #[error("fewer comments than moves marked as commented")]
    FewerComments,
    #[error("variations nested deeper than {MAX_DEPTH}")]
    TooDeep,
    #[error("variation before any move of its line")]
    VariationFirst,
    #[error("variation end without a start")]
    EndWithoutStart,
    #[error("move byte 0")]
    MoveByteZero,
    /// A move byte whose number names no move.
    #[error(transparent)]
    Move(#[from] movegen::NumberError),
    #[error("variation not closed at the end of the moves")]
    Unclosed,
    /// A book's last move cut in half.
    #[error("odd last byte (a move takes two)")]
    OddByte,
    /// A book's move that is not legal where its line has come (the
    /// line's first byte); the line is dropped.
    #[error("{from}{to} is not a legal move (line starting at byte {line}, dropped)")]
    IllegalBookMove {
        from: shakmaty::Square,
        to: shakmaty::Square,
        line: usize,
    },
}

/// A game's result as the header holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CbResult {
    /// 1-0.
    WhiteWins,
    /// 1/2-1/2.
    Draw,
    /// 0-1.
    BlackWins,
    /// Code 3: a "variant" result (1 +-, 4 =, 8 -+, 14 T, 0 none).
    Other(u8),
    /// No result (code 3, variant 0).
    #[default]
    Unknown,
}

/// A comment on a move (document 2.5): three evaluation bytes (0 for none)
/// and a text.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Comment {
    /// Move evaluation (PGN NAG numbers 1-9, see docs/chessbase.md).
    pub move_eval: u8,
    /// Position evaluation (NAG 10-135).
    pub pos_eval: u8,
    /// Additional evaluation (NAG 136-255).
    pub extra: u8,
    /// The text, line ends as `\n`.
    pub text: String,
}

/// One half-move with its comment and the variations that replace it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ply {
    /// The move (legal in its position).
    pub mv: Move,
    /// The comment on it, if any.
    pub comment: Option<Comment>,
    /// Alternatives to this move, each a line from the position before it.
    pub variations: Vec<Vec<Ply>>,
}

/// One game as a CBF record holds it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CbGame {
    /// White's name (the player text before its first `-`).
    pub white: String,
    /// Black's name (after it).
    pub black: String,
    /// The source text (PGN Event).
    pub source: String,
    /// The year, if given.
    pub year: Option<i32>,
    /// The result.
    pub result: CbResult,
    /// White's Elo (1605-2875 in steps of 5).
    pub white_elo: Option<u16>,
    /// Black's Elo.
    pub black_elo: Option<u16>,
    /// The ECO code, e.g. `B12` (only without a starting position).
    pub eco: Option<String>,
    /// ECO2, the sub-code (0-99).
    pub eco_sub: u8,
    /// Marked (bold in ChessBase's list).
    pub marked: bool,
    /// Deleted (grey in ChessBase's list).
    pub deleted: bool,
    /// The starting position as FEN, when not the usual one.
    pub start: Option<String>,
    /// The main line.
    pub moves: Vec<Ply>,
}

impl CbResult {
    /// The PGN result token.
    pub fn pgn(self) -> &'static str {
        match self {
            CbResult::WhiteWins | CbResult::Other(1) => "1-0",
            CbResult::BlackWins | CbResult::Other(8) => "0-1",
            CbResult::Draw | CbResult::Other(4) => "1/2-1/2",
            _ => "*",
        }
    }

    /// From a PGN result token.
    pub fn from_pgn(r: &str) -> CbResult {
        match r {
            "1-0" => CbResult::WhiteWins,
            "0-1" => CbResult::BlackWins,
            "1/2-1/2" => CbResult::Draw,
            _ => CbResult::Unknown,
        }
    }
}

#[cfg(test)]
mod tests;
