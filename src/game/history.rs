//! [`Game`]: a start position and the moves played from it, with the SAN of
//! each move, every position on the way, and repetition counting.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use super::san::{SanError, SanErrorKind, parse_san, san_of};

/// A game in progress: the start position and the legal moves played from
/// it. Every position is kept, so any earlier position can be looked at
/// ([`Game::position_at`]) and repetitions counted.
///
/// A game refuses moves once it has ended by itself (checkmate, stalemate,
/// dead position, 75-move rule, fivefold repetition; see
/// [`Game::automatic_end`]). Together with the 75-move rule this bounds a
/// game to some thousands of plies, so its memory (a few hundred bytes per
/// ply) cannot grow without limit.
#[derive(Debug, Clone)]
pub struct Game {
    start: Chess,
    /// `after[i]` is the position after move `i`.
    after: Vec<Chess>,
    moves: Vec<Move>,
    sans: Vec<String>,
    /// FIDE identity hash of the position at each ply (0 = start): board,
    /// side to move, castling rights, and the en passant square only when a
    /// capture is legal.
    keys: Vec<u64>,
}

impl Game {
    /// A game with no moves yet, starting from `start` (which may be any
    /// legal position, with its own move counters).
    pub fn new(start: Chess) -> Game {
        let key = key_of(&start);
        Game {
            start,
            after: Vec::new(),
            moves: Vec::new(),
            sans: Vec::new(),
            keys: vec![key],
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Chess {
        &self.start
    }

    /// The current position (the start position if no move was played).
    pub fn position(&self) -> &Chess {
        self.after.last().unwrap_or(&self.start)
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The canonical SAN of each move played (with `+`/`#`), in order.
    pub fn sans(&self) -> &[String] {
        &self.sans
    }

    /// The number of half-moves played so far.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The position after `ply` half-moves (0 = start), or `None` beyond
    /// the current ply.
    pub fn position_at(&self, ply: usize) -> Option<&Chess> {
        match ply.checked_sub(1) {
            None => Some(&self.start),
            Some(i) => self.after.get(i),
        }
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<&Move> {
        self.moves.last()
    }

    /// Plays a move and returns its canonical SAN.
    ///
    /// # Errors
    ///
    /// [`SanErrorKind::Illegal`] (with the move's SAN or long algebraic
    /// text) if the move is not legal in the current position or the game
    /// has already ended by itself. The game is unchanged then.
    pub fn play(&mut self, m: Move) -> Result<&str, SanError> {
        let pos = self.position();
        let san = san_of(pos, &m);
        if let Some(end) = self.automatic_end() {
            return Err(SanError::new(
                SanErrorKind::Illegal,
                &san,
                format!("the game has already ended ({end})"),
            ));
        }
        if !pos.is_legal(m) {
            return Err(SanError::new(
                SanErrorKind::Illegal,
                &m.to_string(),
                "not a legal move in this position",
            ));
        }
        let mut next = pos.clone();
        next.play_unchecked(m);
        self.keys.push(key_of(&next));
        self.after.push(next);
        self.moves.push(m);
        self.sans.push(san);
        Ok(self.sans.last().map_or("", String::as_str))
    }

    /// Reads a move in SAN (leniently, see [`parse_san`]) and plays it.
    /// Returns the move; its canonical SAN is then the last of
    /// [`Game::sans`].
    ///
    /// # Errors
    ///
    /// As [`parse_san`], and [`SanErrorKind::Illegal`] if the game has
    /// already ended by itself. The game is unchanged then.
    pub fn play_san(&mut self, text: &str) -> Result<Move, SanError> {
        if let Some(end) = self.automatic_end() {
            return Err(SanError::new(
                SanErrorKind::Illegal,
                text,
                format!("the game has already ended ({end})"),
            ));
        }
        let m = parse_san(self.position(), text)?;
        self.play(m)?;
        Ok(m)
    }

    /// How often the current position has occurred in this game, counting
    /// itself (so at least 1). Positions are the same by FIDE 9.2.2: same
    /// placement, side to move, castling rights, and en passant possibility
    /// (an en passant square counts only when a capture is legal). Only
    /// positions since the last pawn move or capture are compared; earlier
    /// ones cannot match. Positions before the start position are unknown
    /// and not counted.
    pub fn repetitions(&self) -> u32 {
        let pos = self.position();
        self.occurrences(pos, key_of(pos), self.ply())
    }

    /// Occurrences of `pos` (with hash `key`) if it stood at `ply`: itself
    /// plus the equal positions at `ply - 2`, `ply - 4`, ... back to the last
    /// irreversible move.
    pub(crate) fn occurrences(&self, pos: &Chess, key: u64, ply: usize) -> u32 {
        let window = usize::try_from(pos.halfmoves()).unwrap_or(usize::MAX);
        let earliest = ply.saturating_sub(window);
        let mut count: u32 = 1;
        let mut q = ply;
        while let Some(earlier) = q.checked_sub(2) {
            if earlier < earliest {
                break;
            }
            q = earlier;
            if self.keys.get(q) == Some(&key) && self.position_at(q) == Some(pos) {
                count = count.saturating_add(1);
            }
        }
        count
    }
}

/// The FIDE identity hash of a position (en passant only when legal).
pub(crate) fn key_of(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}
