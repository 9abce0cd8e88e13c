//! Between EPD's four position fields and a checked `shakmaty` position:
//! [`position_from_fields`], [`fields_of`], [`fen_of`]; in Chess960 the
//! castling field is read as X-FEN or Shredder-FEN and written as X-FEN
//! ([`position_from_fields_in`]).

use std::fmt;
use std::num::NonZeroU32;

use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, Board, CastlingSide, Chess, Color, EnPassantMode, FromSetup, Piece, Position,
    PositionErrorKinds, Rank, Role, Setup, Square,
};

use super::variant::Variant;
use crate::epd::{Fields, Record};

/// Longest placement field worth reading: 64 piece letters and 7 solidi.
const MAX_PLACEMENT_LEN: usize = 71;

/// Why a set of position fields does not describe a legal position, or is
/// not readable at all. The text is complete and says which field was wrong,
/// e.g. `illegal position: Black has two kings` or
/// `placement field: rank 3 has 9 squares, expected 8`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionError {}

/// Reads a position from a FEN string (the four EPD fields, then the
/// halfmove clock and the fullmove number, which may be missing), with
/// the same checks and messages as [`position_from_fields`].
///
/// # Errors
///
/// [`PositionError`] when there are not four to six fields, a counter is
/// not a number, or the position is illegal.
pub fn position_from_fen(fen: &str) -> Result<Chess, PositionError> {
    position_from_fen_in(fen, Variant::Standard)
}

/// [`position_from_fen`] by the rules of `variant` (in Chess960 the
/// castling field may be X-FEN or Shredder-FEN).
///
/// # Errors
///
/// As [`position_from_fen`].
pub fn position_from_fen_in(fen: &str, variant: Variant) -> Result<Chess, PositionError> {
    let parts: Vec<&str> = fen.split_ascii_whitespace().collect();
    if !(4..=6).contains(&parts.len()) {
        return Err(PositionError(format!(
            "FEN has {} fields, expected 4 to 6",
            parts.len()
        )));
    }
    let number = |i: usize, what: &str| -> Result<Option<u32>, PositionError> {
        parts
            .get(i)
            .map(|t| {
                t.parse::<u32>()
                    .map_err(|_| PositionError(format!("FEN {what} {t:?} is not a number")))
            })
            .transpose()
    };
    let fields = Fields {
        placement: parts[0].to_string(),
        side: parts[1].to_string(),
        castling: parts[2].to_string(),
        en_passant: parts[3].to_string(),
    };
    position_from_fields_in(
        &fields,
        number(4, "halfmove clock")?,
        number(5, "fullmove number")?,
        variant,
    )
}

/// The position an EPD record describes: its four fields, with its `hmvc`
/// and `fmvn` operations when present. The error names a malformed
/// operand or the position's problem.
pub fn position_of_record(record: &Record) -> Result<Chess, RecordError> {
    position_of_record_in(record, Variant::Standard)
}

/// [`position_of_record`] by the rules of `variant`.
pub fn position_of_record_in(record: &Record, variant: Variant) -> Result<Chess, RecordError> {
    let hmvc = record.hmvc()?;
    let fmvn = record.fmvn()?;
    Ok(position_from_fields_in(
        &record.fields,
        hmvc,
        fmvn,
        variant,
    )?)
}

/// Why an EPD record gives no position: a malformed `hmvc` or `fmvn`
/// operand, or the position's problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error(transparent)]
    Operand(#[from] crate::epd::OpError),
    #[error(transparent)]
    Position(#[from] PositionError),
}

error_words!(RecordError);

/// Builds a position from EPD's four fields plus the half-move clock and
/// full move number (EPD opcodes `hmvc` and `fmvn`; missing ones default to
/// 0 and 1).
///
/// The fields are read strictly as EPD section 4 defines them, except that
/// the castling letters may come in any order. The position must be legal
/// in the sense of `shakmaty` (standard chess, not Chess960): one king each,
/// no pawns on the back ranks, castling rights that match kings and rooks on
/// their original squares, an en passant square right behind a pawn that
/// could just have advanced two squares, the side not to move not in check,
/// a possible check, and no more material than eight pawns and their
/// promotions allow. The en passant square is kept even when no capture is
/// possible (EPD's convention), so [`fields_of`] gives it back.
///
/// # Errors
///
/// [`PositionError`] naming the field and the problem, e.g.
/// `illegal position: side not to move (White) is in check`, or
/// `full move number 0: must be at least 1`.
pub fn position_from_fields(
    fields: &Fields,
    hmvc: Option<u32>,
    fmvn: Option<u32>,
) -> Result<Chess, PositionError> {
    position_from_fields_in(fields, hmvc, fmvn, Variant::Standard)
}

/// [`position_from_fields`] by the rules of `variant`. In Chess960 the
/// castling field may be X-FEN (`K`/`Q` for the outermost rook on that
/// side of the king, a file letter for another: `KQkq`, `Kq`, `AHah`'s
/// `K` spelt `H`) or Shredder-FEN (the rooks' files: `HAha`); the king and
/// the rooks may stand on any squares of the back rank.
///
/// # Errors
///
/// As [`position_from_fields`].
pub fn position_from_fields_in(
    fields: &Fields,
    hmvc: Option<u32>,
    fmvn: Option<u32>,
    variant: Variant,
) -> Result<Chess, PositionError> {
    let board = parse_placement(&fields.placement)?;
    let turn = parse_side(&fields.side)?;
    let castling_rights = parse_castling(&fields.castling, &board, variant)?;
    let ep_square = parse_en_passant(&fields.en_passant)?;
    let fullmoves = NonZeroU32::new(fmvn.unwrap_or(1))
        .ok_or_else(|| PositionError("full move number 0: must be at least 1".to_string()))?;

    let mut setup = Setup::empty();
    setup.board = board;
    setup.turn = turn;
    setup.castling_rights = castling_rights;
    setup.ep_square = ep_square;
    setup.halfmoves = hmvc.unwrap_or(0);
    setup.fullmoves = fullmoves;

    let reasons_for = setup.clone();
    Chess::from_setup(setup, variant.castling_mode()).map_err(|e| {
        PositionError(format!(
            "illegal position: {}",
            describe_kinds(e.kinds(), &reasons_for, variant)
        ))
    })
}

/// The four EPD fields of a position. The en passant field is written
/// whenever the last move was a double pawn push, whether or not a capture
/// is possible (EPD spec 4.4; `shakmaty`'s `EnPassantMode::Always`).
/// Castling letters are in the canonical order `KQkq`; in Chess960 they
/// are X-FEN ([`castling_text`]).
pub fn fields_of(pos: &Chess) -> Fields {
    let castling = castling_text(pos);
    // Appended as bytes, not through `Display` (a `fmt::Formatter` call
    // for every character): the same text, for a fraction of the work.
    let mut placement = String::with_capacity(72);
    pos.board().board_fen().append_to_string(&mut placement);
    Fields {
        placement,
        side: side_text(pos.turn()).to_string(),
        castling,
        en_passant: pos
            .ep_square(EnPassantMode::Always)
            .map_or_else(|| "-".to_string(), |sq| sq.to_string()),
    }
}

/// The full six-field FEN of a position, for the PGN `FEN` tag. Like
/// [`fields_of`], the en passant square is given whenever the last move was
/// a double pawn push (the 1994 PGN standard, section 16.1.3.4, says so for
/// FEN as for EPD), not only when a capture is legal.
pub fn fen_of(pos: &Chess) -> String {
    let mut s = String::with_capacity(90);
    Fen::from_position(pos, EnPassantMode::Always).append_to_string(&mut s);
    s
}

/// The castling field of a position, as X-FEN: for each side White first,
/// `K` (`k`) for the right with the rook on the king's h-side and `Q` (`q`)
/// for the a-side, as in standard chess, as long as that rook is the
/// outermost one on its side of the king; when another rook stands beyond
/// it, the rook's file instead (`B`, `g`), which is what Shredder-FEN
/// writes for every right. In standard chess this is `KQkq` or a part.
pub fn castling_text(pos: &Chess) -> String {
    let castles = pos.castles();
    let board = pos.board();
    let mut text = String::new();
    for color in Color::ALL {
        let rooks = board.by_piece(color.rook()) & color.backrank();
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            let Some(rook) = castles.rook(color, side) else {
                continue;
            };
            let outermost = match side {
                CastlingSide::KingSide => rooks.last(),
                CastlingSide::QueenSide => rooks.first(),
            };
            let letter = if outermost == Some(rook) {
                match side {
                    CastlingSide::KingSide => 'k',
                    CastlingSide::QueenSide => 'q',
                }
            } else {
                rook.file().char()
            };
            text.push(match color {
                Color::White => letter.to_ascii_uppercase(),
                Color::Black => letter,
            });
        }
    }
    if text.is_empty() {
        text.push('-');
    }
    text
}

/// `w` or `b`.
pub(crate) fn side_text(color: Color) -> &'static str {
    match color {
        Color::White => "w",
        Color::Black => "b",
    }
}

/// `White` or `Black`.
pub(crate) fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Shows at most the first 20 characters of a field that came from
/// outside, with control characters removed, for use in error messages.
pub(crate) fn shown(text: &str) -> String {
    let clean = crate::text::strip_control(text);
    let mut out: String = clean.chars().take(20).collect();
    if clean.chars().nth(20).is_some() {
        out.push_str("...");
    }
    out
}

/// Reads EPD's piece placement field (spec 4.1) into a board.
pub(crate) fn parse_placement(text: &str) -> Result<Board, PositionError> {
    let err = |what: String| PositionError(format!("placement field: {what}"));
    if text.len() > MAX_PLACEMENT_LEN {
        return Err(err(format!(
            "{} characters is too long (at most {MAX_PLACEMENT_LEN})",
            text.len()
        )));
    }
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(err(format!(
            "{} ranks in \"{}\", expected 8 separated by '/'",
            ranks.len(),
            shown(text)
        )));
    }
    let mut board = Board::empty();
    for (rank, row) in Rank::ALL.iter().rev().zip(&ranks) {
        let mut file: u32 = 0;
        for ch in row.chars() {
            if let Some(empty) = ch.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += empty;
            } else if let Some(piece) = Piece::from_char(ch) {
                if let Some(f) = shakmaty::File::ALL.get(file as usize) {
                    board.set_piece_at(Square::from_coords(*f, *rank), piece);
                }
                file += 1;
            } else {
                return Err(err(format!(
                    "unexpected character {ch:?} in rank {}",
                    rank.char()
                )));
            }
            if file > 8 {
                return Err(err(format!(
                    "rank {} (\"{}\") has more than 8 squares",
                    rank.char(),
                    shown(row)
                )));
            }
        }
        if file < 8 {
            return Err(err(format!(
                "rank {} (\"{}\") has {file} squares, expected 8",
                rank.char(),
                shown(row)
            )));
        }
    }
    Ok(board)
}

/// Reads the active colour field (spec 4.2).
pub(crate) fn parse_side(text: &str) -> Result<Color, PositionError> {
    match text {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        _ => Err(PositionError(format!(
            "active colour field: \"{}\" is neither w nor b",
            shown(text)
        ))),
    }
}

/// Reads the castling field (spec 4.3) into the set of rook squares that
/// `shakmaty` uses. The letters may come in any order, each right at most
/// once. In standard chess only `K`, `Q`, `k`, `q` (the rooks of h1, a1,
/// h8, a8); in Chess960 also X-FEN and Shredder-FEN: `K`/`Q` are the
/// outermost rook of that colour's back rank on the king's h-side/a-side,
/// a file letter (upper case for White) the rook on that file.
pub(crate) fn parse_castling(
    text: &str,
    board: &Board,
    variant: Variant,
) -> Result<Bitboard, PositionError> {
    let err = |what: String| PositionError(format!("castling field: {what}"));
    if text == "-" {
        return Ok(Bitboard::EMPTY);
    }
    if text.is_empty() {
        return Err(err("empty (use \"-\" for no castling)".to_string()));
    }
    let mut rights = Bitboard::EMPTY;
    for ch in text.chars() {
        let sq = match variant {
            Variant::Standard => match ch {
                'K' => Square::H1,
                'Q' => Square::A1,
                'k' => Square::H8,
                'q' => Square::A8,
                _ => {
                    return Err(err(format!(
                        "unexpected character {ch:?} in \"{}\" (only K, Q, k, q or -)",
                        shown(text)
                    )));
                }
            },
            Variant::Chess960 => chess960_right(ch, board)
                .map_err(|why| err(format!("{why} in \"{}\"", shown(text))))?,
        };
        if rights.contains(sq) {
            return Err(err(format!("{ch} appears twice in \"{}\"", shown(text))));
        }
        rights.add(sq);
    }
    Ok(rights)
}

/// Why a Chess960 castling letter names no rook: the letter, and what the
/// position lacks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum BadRight {
    #[error("{ch}: no {side} king on rank {rank}")]
    NoKing { ch: char, side: String, rank: char },
    #[error("{ch}: no {side} rook on the {wing}side of the king on {king}")]
    NoOuterRook {
        ch: char,
        side: String,
        wing: &'static str,
        king: Square,
    },
    #[error("{ch}: no {side} rook on {sq}")]
    NoRookOn { ch: char, side: String, sq: Square },
    #[error("unexpected character {0:?} (only K, Q, k, q, a file letter A-H or a-h, or -)")]
    Unexpected(char),
}

/// The rook square one Chess960 castling letter names (X-FEN or
/// Shredder-FEN), or why it names none.
fn chess960_right(ch: char, board: &Board) -> Result<Square, BadRight> {
    let color = if ch.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let back = color.backrank();
    let side = color_name(color).to_lowercase();
    let rooks = board.by_piece(color.rook()) & back;
    let king = (board.by_piece(color.king()) & back).first();
    let outer = |kingside: bool| -> Result<Square, BadRight> {
        let Some(king) = king else {
            return Err(BadRight::NoKing {
                ch,
                side: side.clone(),
                rank: back.char(),
            });
        };
        let beyond = if kingside {
            rooks.into_iter().rfind(|r| r.file() > king.file())
        } else {
            rooks.into_iter().find(|r| r.file() < king.file())
        };
        beyond.ok_or_else(|| BadRight::NoOuterRook {
            ch,
            side: side.clone(),
            wing: if kingside { "king" } else { "queen" },
            king,
        })
    };
    match ch.to_ascii_lowercase() {
        'k' => outer(true),
        'q' => outer(false),
        f @ 'a'..='h' => {
            let file = shakmaty::File::from_char(f).ok_or(BadRight::Unexpected(ch))?;
            let sq = Square::from_coords(file, back);
            if rooks.contains(sq) {
                Ok(sq)
            } else {
                Err(BadRight::NoRookOn { ch, side, sq })
            }
        }
        _ => Err(BadRight::Unexpected(ch)),
    }
}

/// Reads the en passant field (spec 4.4).
pub(crate) fn parse_en_passant(text: &str) -> Result<Option<Square>, PositionError> {
    if text == "-" {
        return Ok(None);
    }
    match text.parse::<Square>() {
        Ok(sq) if text.len() == 2 => Ok(Some(sq)),
        _ => Err(PositionError(format!(
            "en passant field: \"{}\" is neither a square like e3 nor -",
            shown(text)
        ))),
    }
}

/// The reasons `shakmaty` gave, in words, with the details that make them
/// actionable (which side, which square).
fn describe_kinds(kinds: PositionErrorKinds, setup: &Setup, variant: Variant) -> String {
    let board = &setup.board;
    let mut reasons: Vec<String> = Vec::new();
    if kinds.contains(PositionErrorKinds::EMPTY_BOARD) {
        reasons.push("the board is empty".to_string());
    }
    for color in Color::ALL {
        let kings = (board.kings() & board.by_color(color)).count();
        if kinds.contains(PositionErrorKinds::MISSING_KING) && kings == 0 {
            reasons.push(format!("{} has no king", color_name(color)));
        }
        if kinds.contains(PositionErrorKinds::TOO_MANY_KINGS) && kings > 1 {
            let n = if kings == 2 {
                "two".to_string()
            } else {
                kings.to_string()
            };
            reasons.push(format!("{} has {n} kings", color_name(color)));
        }
    }
    if kinds.contains(PositionErrorKinds::PAWNS_ON_BACKRANK) {
        let squares: Vec<String> = (board.pawns() & Bitboard::BACKRANKS)
            .into_iter()
            .map(|sq| sq.to_string())
            .collect();
        reasons.push(format!("pawn on a back rank ({})", squares.join(", ")));
    }
    if kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) {
        reasons.push(match variant {
            Variant::Standard => describe_castling(setup),
            Variant::Chess960 => "castling rights need the king between its rooks on the \
                                  back rank, at most one right on each side"
                .to_string(),
        });
    }
    if kinds.contains(PositionErrorKinds::INVALID_EP_SQUARE) {
        reasons.push(describe_en_passant(setup));
    }
    if kinds.contains(PositionErrorKinds::OPPOSITE_CHECK) {
        reasons.push(format!(
            "side not to move ({}) is in check",
            color_name(!setup.turn)
        ));
    }
    if kinds.contains(PositionErrorKinds::IMPOSSIBLE_CHECK) {
        reasons.push(format!(
            "impossible check: {} is checked in a way no single move can give",
            color_name(setup.turn)
        ));
    }
    if kinds.contains(PositionErrorKinds::TOO_MUCH_MATERIAL) {
        let sides: Vec<&str> = Color::ALL
            .into_iter()
            .filter(|c| too_much_material(board, *c))
            .map(color_name)
            .collect();
        let who = if sides.is_empty() {
            "a side".to_string()
        } else {
            sides.join(" and ")
        };
        reasons.push(format!(
            "too much material: {who} has more pieces than 8 pawns and their promotions allow"
        ));
    }
    if reasons.is_empty() {
        reasons.push(format!("rejected by the rules library ({kinds:?})"));
    }
    reasons.join("; ")
}

fn describe_castling(setup: &Setup) -> String {
    let board = &setup.board;
    let mut bad: Vec<String> = Vec::new();
    for (letter, color, rook) in [
        ('K', Color::White, Square::H1),
        ('Q', Color::White, Square::A1),
        ('k', Color::Black, Square::H8),
        ('q', Color::Black, Square::A8),
    ] {
        if !setup.castling_rights.contains(rook) {
            continue;
        }
        let king = Square::from_coords(shakmaty::File::E, color.backrank());
        let king_ok = board.piece_at(king) == Some(color.king());
        let rook_ok = board.piece_at(rook) == Some(color.rook());
        if !king_ok || !rook_ok {
            bad.push(format!(
                "{letter} needs the {} king on {king} and a rook on {rook}",
                color_name(color).to_lowercase()
            ));
        }
    }
    if bad.is_empty() {
        "castling rights do not match the kings and rooks".to_string()
    } else {
        format!("castling right {}", bad.join(", "))
    }
}

fn describe_en_passant(setup: &Setup) -> String {
    let Some(ep) = setup.ep_square else {
        return "invalid en passant square".to_string();
    };
    let mover = !setup.turn; // the side that would just have pushed
    let expected_rank = setup.turn.relative_rank(Rank::Sixth);
    if ep.rank() != expected_rank {
        return format!(
            "en passant square {ep} is not on rank {} (behind a {} pawn that just advanced two squares)",
            expected_rank.char(),
            color_name(mover).to_lowercase()
        );
    }
    let (pushed_to, pushed_from) = match mover {
        Color::White => (ep.offset(8), ep.offset(-8)),
        Color::Black => (ep.offset(-8), ep.offset(8)),
    };
    match (pushed_to, pushed_from) {
        (Some(to), Some(from)) => {
            if board_piece(setup, to) != Some(Role::Pawn.of(mover)) {
                format!(
                    "en passant square {ep}: no {} pawn on {to}",
                    color_name(mover).to_lowercase()
                )
            } else if setup.board.occupied().contains(ep) || setup.board.occupied().contains(from) {
                format!("en passant square {ep}: {ep} and {from} must be empty after a double push")
            } else {
                format!("invalid en passant square {ep}")
            }
        }
        _ => format!("invalid en passant square {ep}"),
    }
}

fn board_piece(setup: &Setup, sq: Square) -> Option<Piece> {
    setup.board.piece_at(sq)
}

/// Whether `color` has more pieces than eight pawns and their promotions
/// can produce (the same rule as `shakmaty`'s TOO_MUCH_MATERIAL).
fn too_much_material(board: &Board, color: Color) -> bool {
    let our = board.by_color(color);
    let count = |bb: Bitboard| (bb & our).count();
    let extra = count(board.queens()).saturating_sub(1)
        + count(board.rooks()).saturating_sub(2)
        + count(board.knights()).saturating_sub(2)
        + count(board.bishops() & Bitboard::LIGHT_SQUARES).saturating_sub(1)
        + count(board.bishops() & Bitboard::DARK_SQUARES).saturating_sub(1);
    count(board.pawns()) + extra > 8 || our.count() > 16
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(p: &str, s: &str, c: &str, e: &str) -> Fields {
        Fields {
            placement: p.into(),
            side: s.into(),
            castling: c.into(),
            en_passant: e.into(),
        }
    }

    fn err_of(f: &Fields) -> String {
        match position_from_fields(f, None, None) {
            Ok(_) => panic!("accepted {f:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn initial_position_round_trips() {
        let pos = position_from_fields(&Fields::initial(), None, None).unwrap();
        assert_eq!(pos, Chess::default());
        assert_eq!(pos.halfmoves(), 0);
        assert_eq!(pos.fullmoves().get(), 1);
        assert_eq!(fields_of(&pos), Fields::initial());
        assert_eq!(
            fen_of(&pos),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
    }

    #[test]
    fn counters_are_taken() {
        let f = fields("4k3/8/8/8/8/8/4P3/4K3", "w", "-", "-");
        let pos = position_from_fields(&f, Some(5), Some(39)).unwrap();
        assert_eq!(fen_of(&pos), "4k3/8/8/8/8/8/4P3/4K3 w - - 5 39");
        let e = position_from_fields(&f, None, Some(0)).unwrap_err();
        assert!(e.0.contains("full move number 0"), "{e}");
    }

    #[test]
    fn en_passant_kept_even_without_capture() {
        // PGN standard example: after 1. e4 the FEN has e3.
        let f = fields(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR",
            "b",
            "KQkq",
            "e3",
        );
        let pos = position_from_fields(&f, Some(0), Some(1)).unwrap();
        assert_eq!(fields_of(&pos), f);
        assert_eq!(
            fen_of(&pos),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
        );
    }

    #[test]
    fn castling_letters_any_order_written_canonically() {
        let f = fields("r3k2r/8/8/8/8/8/8/R3K2R", "w", "qkQK", "-");
        let pos = position_from_fields(&f, None, None).unwrap();
        assert_eq!(fields_of(&pos).castling, "KQkq");
        let f = fields("r3k2r/8/8/8/8/8/8/R3K2R", "w", "Kq", "-");
        let pos = position_from_fields(&f, None, None).unwrap();
        assert_eq!(fields_of(&pos).castling, "Kq");
    }

    #[test]
    fn unreadable_fields_are_named() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        let cases = [
            (fields("8/8/8", "w", "-", "-"), "placement field: 3 ranks"),
            (
                fields(
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR",
                    "w",
                    "-",
                    "-",
                ),
                "rank 1",
            ),
            (
                fields("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "w", "-", "-"),
                "rank 7 (\"ppppppp\") has 7 squares",
            ),
            (
                fields("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN~", "w", "-", "-"),
                "unexpected character '~' in rank 1",
            ),
            (fields(start, "W", "-", "-"), "active colour field"),
            (fields(start, "w", "KX", "-"), "castling field: unexpected"),
            (fields(start, "w", "KK", "-"), "K appears twice"),
            (fields(start, "w", "", "-"), "castling field: empty"),
            (fields(start, "w", "-", "e9"), "en passant field"),
            (fields(start, "w", "-", "e3x"), "en passant field"),
            (
                fields(&"8/".repeat(500), "w", "-", "-"),
                "placement field: 1000 characters",
            ),
        ];
        for (f, want) in cases {
            let e = err_of(&f);
            assert!(e.contains(want), "{f:?}: {e}");
        }
    }

    #[test]
    fn illegal_positions_are_rejected_with_reason() {
        let cases = [
            (
                fields("8/8/8/8/8/8/8/8", "w", "-", "-"),
                "the board is empty",
            ),
            (
                fields("k7/8/8/8/8/8/8/8", "w", "-", "-"),
                "White has no king",
            ),
            (
                fields("k6k/8/8/8/8/8/8/K7", "w", "-", "-"),
                "Black has two kings",
            ),
            (
                fields("k7/8/8/8/8/8/8/K3P3", "w", "-", "-"),
                "pawn on a back rank (e1)",
            ),
            (
                fields("k7/8/8/8/8/8/8/R3K3", "w", "K", "-"),
                "castling right K needs the white king on e1 and a rook on h1",
            ),
            (
                fields("k7/8/8/8/8/8/8/K7", "w", "-", "e6"),
                "en passant square e6: no black pawn on e5",
            ),
            (
                fields("k7/8/8/4p3/8/8/8/K7", "b", "-", "e6"),
                "is not on rank 3",
            ),
            (
                fields("k6R/8/8/8/8/8/8/K7", "w", "-", "-"),
                "side not to move (Black) is in check",
            ),
            (
                fields("k7/8/8/8/8/8/8/K6r", "b", "-", "-"),
                "side not to move (White) is in check",
            ),
            (
                fields("4k3/8/8/8/8/3n1n2/8/4K3", "w", "-", "-"),
                "impossible check",
            ),
            (
                fields("k7/pppppppp/8/8/8/8/PPPPPPPP/KQQQQQQQ", "w", "-", "-"),
                "too much material: White",
            ),
        ];
        for (f, want) in cases {
            let e = err_of(&f);
            assert!(e.starts_with("illegal position: "), "{e}");
            assert!(e.contains(want), "{f:?}: {e}");
        }
    }
}
