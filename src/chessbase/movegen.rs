//! The move numbering of the CBF moves part (document section 2.4): every
//! move a position offers, pseudo-legal, in the document's generation order.
//! A CBF move byte is the 1-based place of the move in this list.
//!
//! Squares are visited a1, a2, ..., a8, b1, ..., h8. For each piece of the
//! side to move: king (eight steps in the order of the document's diagram,
//! then short and long castling), queen (bishop runs then rook runs), rook
//! (left, down, right, up), bishop (left-down, right-down, right-up,
//! left-up), knight (the document's diagram, 1 to 8), pawn (double step,
//! single step or its four promotions =Q =R =B =N, capture left, capture
//! right, each capture onto the last rank as four promotions, then en
//! passant). Directions are seen from White; Black's are the same on the
//! board (a Black pawn's "up" is toward rank 1). See docs/chessbase.md for
//! the choices where the document is silent.

use shakmaty::{Chess, Color, Move, Position, Role, Square};

/// One numbered move: what the generator produced, before legality.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Candidate {
    /// A piece or pawn goes from `from` to `to` (promoting to `promotion`).
    Normal {
        /// Starting square.
        from: Square,
        /// Target square.
        to: Square,
        /// The promotion piece, for a pawn reaching the last rank.
        promotion: Option<Role>,
    },
    /// Castling: `short` for 0-0, else 0-0-0.
    Castle {
        /// True for the king side.
        short: bool,
    },
    /// An en passant capture.
    EnPassant {
        /// The capturing pawn's square.
        from: Square,
        /// The square it moves to.
        to: Square,
    },
}

const KING: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];
const ROOK: [(i32, i32); 4] = [(-1, 0), (0, -1), (1, 0), (0, 1)];
const BISHOP: [(i32, i32); 4] = [(-1, -1), (1, -1), (1, 1), (-1, 1)];
const KNIGHT: [(i32, i32); 8] = [
    (-2, -1),
    (-2, 1),
    (2, -1),
    (2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
];
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

fn square(file: i32, rank: i32) -> Option<Square> {
    ((0..8).contains(&file) && (0..8).contains(&rank))
        .then(|| Square::new((rank * 8 + file) as u32))
}

fn coords(sq: Square) -> (i32, i32) {
    (u32::from(sq.file()) as i32, u32::from(sq.rank()) as i32)
}

/// Every numbered move of `pos`, in the document's order.
pub fn candidates(pos: &Chess) -> Vec<Candidate> {
    let board = pos.board();
    let us = pos.turn();
    let mut out = Vec::with_capacity(64);
    let free = |f: i32, r: i32| square(f, r).is_some_and(|s| board.piece_at(s).is_none());
    let step = |out: &mut Vec<Candidate>, from: Square, f: i32, r: i32| -> bool {
        // Adds the move to (f, r) when it is on the board and not our own
        // piece; returns whether a run may go on past it.
        let Some(to) = square(f, r) else { return false };
        match board.color_at(to) {
            Some(c) if c == us => false,
            other => {
                out.push(Candidate::Normal {
                    from,
                    to,
                    promotion: None,
                });
                other.is_none()
            }
        }
    };
    for file in 0..8 {
        for rank in 0..8 {
            let Some(from) = square(file, rank) else {
                continue;
            };
            let Some(piece) = board.piece_at(from) else {
                continue;
            };
            if piece.color != us {
                continue;
            }
            let runs = |out: &mut Vec<Candidate>, dirs: &[(i32, i32)]| {
                for (df, dr) in dirs {
                    let (mut f, mut r) = (file + df, rank + dr);
                    while step(out, from, f, r) {
                        f += df;
                        r += dr;
                    }
                }
            };
            match piece.role {
                Role::King => {
                    for (df, dr) in KING {
                        step(&mut out, from, file + df, rank + dr);
                    }
                    castling(pos, from, &mut out);
                }
                Role::Queen => {
                    runs(&mut out, &BISHOP);
                    runs(&mut out, &ROOK);
                }
                Role::Rook => runs(&mut out, &ROOK),
                Role::Bishop => runs(&mut out, &BISHOP),
                Role::Knight => {
                    for (df, dr) in KNIGHT {
                        step(&mut out, from, file + df, rank + dr);
                    }
                }
                Role::Pawn => pawn(pos, from, &free, &mut out),
            }
        }
    }
    out
}

/// Short then long castling: the king on its home square, the rook on its
/// corner, the squares between them empty (the document's test; rights and
/// checks are left to the legality check).
fn castling(pos: &Chess, from: Square, out: &mut Vec<Candidate>) {
    let board = pos.board();
    let us = pos.turn();
    let home = if us == Color::White { 0 } else { 7 };
    if coords(from) != (4, home) {
        return;
    }
    for (short, rook_file, between) in [(true, 7, &[5, 6][..]), (false, 0, &[1, 2, 3][..])] {
        let rook = square(rook_file, home).and_then(|s| board.piece_at(s));
        let empty = between
            .iter()
            .all(|f| square(*f, home).is_some_and(|s| board.piece_at(s).is_none()));
        if rook.is_some_and(|p| p.role == Role::Rook && p.color == us) && empty {
            out.push(Candidate::Castle { short });
        }
    }
}

fn pawn(pos: &Chess, from: Square, free: &dyn Fn(i32, i32) -> bool, out: &mut Vec<Candidate>) {
    let board = pos.board();
    let us = pos.turn();
    let (file, rank) = coords(from);
    let (up, start, last) = if us == Color::White {
        (1, 1, 7)
    } else {
        (-1, 6, 0)
    };
    let push = |out: &mut Vec<Candidate>, f: i32, r: i32| {
        let Some(to) = square(f, r) else { return };
        if r == last {
            for p in PROMOTIONS {
                out.push(Candidate::Normal {
                    from,
                    to,
                    promotion: Some(p),
                });
            }
        } else {
            out.push(Candidate::Normal {
                from,
                to,
                promotion: None,
            });
        }
    };
    if rank == start && free(file, rank + up) && free(file, rank + 2 * up) {
        push(out, file, rank + 2 * up);
    }
    if free(file, rank + up) {
        push(out, file, rank + up);
    }
    for df in [-1, 1] {
        let target = square(file + df, rank + up).and_then(|s| board.color_at(s));
        if target.is_some_and(|c| c != us) {
            push(out, file + df, rank + up);
        }
    }
    if let Some(ep) = pos.ep_square(shakmaty::EnPassantMode::PseudoLegal) {
        let (ef, er) = coords(ep);
        if er == rank + up && (ef - file).abs() == 1 {
            out.push(Candidate::EnPassant { from, to: ep });
        }
    }
}

fn matches(c: &Candidate, m: &Move) -> bool {
    match (c, m) {
        (
            Candidate::Normal {
                from,
                to,
                promotion,
            },
            Move::Normal {
                from: f,
                to: t,
                promotion: p,
                ..
            },
        ) => from == f && to == t && promotion == p,
        (Candidate::Castle { short }, Move::Castle { king, rook }) => {
            *short == (rook.file() > king.file())
        }
        (Candidate::EnPassant { from, to }, Move::EnPassant { from: f, to: t }) => {
            from == f && to == t
        }
        _ => false,
    }
}

/// Why a move byte's number names no move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NumberError {
    /// Numbers start at 1.
    #[error("move number 0")]
    Zero,
    /// The position has fewer numbered moves.
    #[error("move number {number} but the position has only {count} numbered moves")]
    Beyond { number: u8, count: usize },
    /// The numbered move is not legal here (its king would be in check).
    #[error("move number {number} ({candidate:?}) is not a legal move")]
    NotLegal { number: u8, candidate: Candidate },
}

/// The legal move numbered `number` (1-based) in `pos`, or why there is none.
pub fn move_of_number(pos: &Chess, number: u8) -> Result<Move, NumberError> {
    let list = candidates(pos);
    let index = usize::from(number)
        .checked_sub(1)
        .ok_or(NumberError::Zero)?;
    let c = list.get(index).ok_or(NumberError::Beyond {
        number,
        count: list.len(),
    })?;
    pos.legal_moves()
        .into_iter()
        .find(|m| matches(c, m))
        .ok_or(NumberError::NotLegal {
            number,
            candidate: *c,
        })
}

/// The 1-based number of the legal move `m` in `pos`; `None` if the
/// generator does not list it (it always does for a legal standard move).
pub fn number_of_move(pos: &Chess, m: &Move) -> Option<usize> {
    candidates(pos)
        .iter()
        .position(|c| matches(c, m))
        .map(|i| i + 1)
}
