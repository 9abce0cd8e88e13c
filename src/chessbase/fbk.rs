//! FBK opening books (document section 3): two bytes per move, the from
//! square then the to square (a1 = 0 ... h8 = 63) in bits 0-5. In the first
//! byte, bit 6 clear starts a new line from the initial position and bit 7
//! set ends a line; bit 7 of the second byte marks a weak move. Lines are
//! read as docs/chessbase.md says: a line ends at its end bit (or where the
//! next line starts, or at the end of the book), and a line is kept up to
//! its first weak move.

use shakmaty::{Chess, Move, Position, Role, Square};

/// Most lines read from one book.
pub const MAX_LINES: usize = 100_000;
/// Most moves kept in one line.
pub const MAX_LINE_MOVES: usize = 500;

/// One line of a book: its moves and the byte offset where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookLine {
    /// Byte offset of its first move.
    pub offset: usize,
    /// The moves, legal from the initial position.
    pub moves: Vec<Move>,
}

/// A problem in a book, with the byte offset of the move.
pub type BookError = super::CbError;
use super::CbFault;

/// The lines of `bytes`; a line with an illegal move is reported (the moves
/// before it are dropped with it) and reading goes on with the next line.
pub fn read_book(bytes: &[u8]) -> (Vec<BookLine>, Vec<BookError>) {
    let mut lines = Vec::new();
    let mut errors = Vec::new();
    let mut cur: Option<(BookLine, Chess, bool)> = None; // line, position, cut (weak/bad)
    let finish = |cur: &mut Option<(BookLine, Chess, bool)>, lines: &mut Vec<BookLine>| {
        if let Some((line, _, _)) = cur.take()
            && !line.moves.is_empty()
            && lines.len() < MAX_LINES
        {
            lines.push(line);
        }
    };
    for (i, pair) in bytes.chunks(2).enumerate() {
        let offset = i * 2;
        let [a, b] = pair else {
            errors.push(BookError {
                offset,
                fault: CbFault::OddByte,
            });
            break;
        };
        if a & 0x40 == 0 || cur.is_none() {
            finish(&mut cur, &mut lines);
            cur = Some((
                BookLine {
                    offset,
                    moves: Vec::new(),
                },
                Chess::default(),
                false,
            ));
        }
        if let Some((line, pos, cut)) = cur.as_mut()
            && !*cut
        {
            {
                if b & 0x80 != 0 || line.moves.len() >= MAX_LINE_MOVES {
                    *cut = true;
                } else {
                    match find_move(pos, a & 63, b & 63) {
                        Some(m) => {
                            pos.play_unchecked(m);
                            line.moves.push(m);
                        }
                        None => {
                            errors.push(BookError {
                                offset,
                                fault: CbFault::IllegalBookMove {
                                    from: Square::new(u32::from(a & 63)),
                                    to: Square::new(u32::from(b & 63)),
                                    line: line.offset,
                                },
                            });
                            line.moves.clear();
                            *cut = true;
                        }
                    }
                }
            }
        }
        if a & 0x80 != 0 {
            finish(&mut cur, &mut lines);
        }
    }
    finish(&mut cur, &mut lines);
    (lines, errors)
}

/// The legal move from `from` to `to` (a promotion is to a queen; castling
/// is the king's two-square step).
fn find_move(pos: &Chess, from: u8, to: u8) -> Option<Move> {
    let (from, to) = (Square::new(u32::from(from)), Square::new(u32::from(to)));
    pos.legal_moves().into_iter().find(|m| {
        let target = match m {
            Move::Castle { king, rook } => {
                let file = if rook.file() > king.file() { 6 } else { 2 };
                Square::new(u32::from(king.rank()) * 8 + file)
            }
            m => m.to(),
        };
        m.from() == Some(from) && target == to && m.promotion().is_none_or(|r| r == Role::Queen)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> u8 {
        name.parse::<Square>().unwrap() as u8
    }

    /// A book of two lines: 1. e4 e5 2. Nf3 (ended), 1. d4 then a weak Nf6.
    #[test]
    fn lines_end_and_weak_moves_cut() {
        let book = [
            sq("e2"),
            sq("e4"),
            0x40 | sq("e7"),
            sq("e5"),
            0xC0 | sq("g1"),
            sq("f3"),
            sq("d2"),
            sq("d4"),
            0x40 | sq("g8"),
            0x80 | sq("f6"),
            0xC0 | sq("c2"),
            sq("c4"),
        ];
        let (lines, errors) = read_book(&book);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].moves.len(), 3);
        assert_eq!(lines[1].moves.len(), 1);
        assert_eq!(lines[1].offset, 6);
    }

    #[test]
    fn an_illegal_move_drops_its_line_only() {
        let book = [
            sq("e2"),
            sq("e5"),
            0x80 | 0x40 | sq("e7"),
            sq("e5"),
            sq("d2"),
            sq("d4"),
        ];
        let (lines, errors) = read_book(&book);
        assert_eq!(lines.len(), 1);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].offset, 0);
    }
}
