//! The 8x8 board: squares in colour, pieces as glyphs or letters, file and
//! rank labels, the last move and a checked king highlighted.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use shakmaty::{Color, File, Piece, Position, Rank, Role as PieceRole, Square};

use super::layout::Scale;
use super::style;
use crate::referee::Snapshot;

/// Width of the rank labels left of the board (label and a space).
pub const LABEL_WIDTH: u16 = 2;

/// How a board is drawn: orientation and piece set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardLook {
    /// Size of one square in cells.
    pub scale: Scale,
    /// Black at the bottom instead of White.
    pub flipped: bool,
    /// Letters (upper case White, lower case Black) instead of glyphs.
    pub ascii: bool,
}

/// The board's text lines, top row first: `8 * scale.h` square rows with
/// rank labels, then one row of file labels. Each line is
/// `LABEL_WIDTH + 8 * scale.w` cells wide.
pub fn board_lines(snap: &Snapshot, look: BoardLook) -> Vec<Line<'static>> {
    let Scale { w, h } = look.scale;
    let board = snap.position.board();
    let checked_king = if snap.position.checkers().any() {
        board.king_of(snap.position.turn())
    } else {
        None
    };
    let (ranks, files) = orientation(look.flipped);
    let mut lines = Vec::with_capacity(usize::from(h) * 8 + 1);
    for rank in ranks {
        for sub in 0..h {
            let middle = sub == h / 2;
            let label = if middle { rank.char() } else { ' ' };
            let mut spans = vec![Span::styled(format!("{label} "), style::label())];
            for file in files {
                let sq = Square::from_coords(file, rank);
                let bg = square_bg(sq, snap.last_move, checked_king);
                let piece = if middle { board.piece_at(sq) } else { None };
                spans.push(square_span(piece, w, bg, look.ascii));
            }
            lines.push(Line::from(spans));
        }
    }
    let mut labels = vec![Span::raw(" ".repeat(usize::from(LABEL_WIDTH)))];
    for file in files {
        labels.push(Span::styled(centered(file.char(), w), style::label()));
    }
    lines.push(Line::from(labels));
    lines
}

/// Ranks top to bottom and files left to right as drawn.
fn orientation(flipped: bool) -> ([Rank; 8], [File; 8]) {
    let mut ranks = Rank::ALL;
    let mut files = File::ALL;
    if flipped {
        files.reverse();
    } else {
        ranks.reverse();
    }
    (ranks, files)
}

/// The background of a square: check beats last move beats the square
/// colour.
pub fn square_bg(
    sq: Square,
    last_move: Option<(Square, Square)>,
    checked_king: Option<Square>,
) -> ratatui::style::Color {
    if checked_king == Some(sq) {
        style::CHECK
    } else if last_move.is_some_and(|(from, to)| sq == from || sq == to) {
        style::LAST_MOVE
    } else if sq.is_light() {
        style::LIGHT_SQUARE
    } else {
        style::DARK_SQUARE
    }
}

/// One row of one square: the piece (if any) centred, padded to `w` cells.
fn square_span(
    piece: Option<Piece>,
    w: u16,
    bg: ratatui::style::Color,
    ascii: bool,
) -> Span<'static> {
    match piece {
        Some(p) => {
            let glyph = if ascii { p.char() } else { glyph(p) };
            Span::styled(
                centered(glyph, w),
                style::piece(p.color == Color::White).bg(bg),
            )
        }
        None => Span::styled(" ".repeat(usize::from(w)), Style::new().bg(bg)),
    }
}

/// `c` centred in `w` cells (one cell wide itself).
fn centered(c: char, w: u16) -> String {
    let w = usize::from(w.max(1));
    let left = (w - 1) / 2;
    let right = w - 1 - left;
    format!("{}{c}{}", " ".repeat(left), " ".repeat(right))
}

/// The Unicode chess glyph of a piece: outlined for White, filled for Black.
pub fn glyph(p: Piece) -> char {
    match (p.color, p.role) {
        (Color::White, PieceRole::King) => '♔',
        (Color::White, PieceRole::Queen) => '♕',
        (Color::White, PieceRole::Rook) => '♖',
        (Color::White, PieceRole::Bishop) => '♗',
        (Color::White, PieceRole::Knight) => '♘',
        (Color::White, PieceRole::Pawn) => '♙',
        (Color::Black, PieceRole::King) => '♚',
        (Color::Black, PieceRole::Queen) => '♛',
        (Color::Black, PieceRole::Rook) => '♜',
        (Color::Black, PieceRole::Bishop) => '♝',
        (Color::Black, PieceRole::Knight) => '♞',
        (Color::Black, PieceRole::Pawn) => '♟',
    }
}
