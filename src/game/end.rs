//! The rules that end a game: what ends it by itself ([`AutomaticEnd`]),
//! what a player may claim ([`DrawClaim`]), and whether a side can still
//! mate ([`can_mate`], for flag fall).

use std::fmt;

use shakmaty::{Chess, Color, Move, Position};

use super::history::{Game, key_of};
use super::setup::color_name;

/// Half-moves without a pawn move or capture after which a draw may be
/// claimed (FIDE 9.3: fifty moves by each player).
const FIFTY_MOVES: u32 = 100;
/// Half-moves without a pawn move or capture after which the game is drawn
/// (FIDE 9.6.2: seventy-five moves by each player).
const SEVENTY_FIVE_MOVES: u32 = 150;

/// Why a game ended by itself, without any claim or agreement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AutomaticEnd {
    /// The side to move is checkmated (FIDE 5.1.1).
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check (FIDE 5.2.1).
    Stalemate,
    /// Neither side can mate by any series of legal moves (FIDE 5.2.2),
    /// judged by material: K v K, K+minor v K, K+B v K+B with bishops on
    /// one colour, and the like.
    DeadPosition,
    /// Seventy-five moves by each side without a pawn move or capture
    /// (FIDE 9.6.2); a mate on the last move takes precedence.
    SeventyFiveMoves,
    /// The same position for the fifth time (FIDE 9.6.1).
    FivefoldRepetition,
}

impl AutomaticEnd {
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        match self {
            AutomaticEnd::Checkmate {
                winner: Color::White,
            } => "1-0",
            AutomaticEnd::Checkmate {
                winner: Color::Black,
            } => "0-1",
            _ => "1/2-1/2",
        }
    }
}

impl fmt::Display for AutomaticEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AutomaticEnd::Checkmate { winner } => {
                write!(f, "checkmate, {} wins", color_name(*winner))
            }
            AutomaticEnd::Stalemate => f.write_str("stalemate"),
            AutomaticEnd::DeadPosition => f.write_str("dead position: neither side can checkmate"),
            AutomaticEnd::SeventyFiveMoves => {
                f.write_str("75 moves by each side without a pawn move or capture")
            }
            AutomaticEnd::FivefoldRepetition => f.write_str("fivefold repetition"),
        }
    }
}

/// A draw a player may claim (FIDE 9.2, 9.3; insufficient material as the
/// computer-chess rules allow a claim of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawClaim {
    /// The same position for at least the third time (FIDE 9.2).
    ThreefoldRepetition,
    /// At least fifty moves by each side without a pawn move or capture
    /// (FIDE 9.3).
    FiftyMoves,
    /// Neither side has mating material (see [`AutomaticEnd::DeadPosition`];
    /// such a game has already ended by itself, a claim just confirms it).
    InsufficientMaterial,
}

impl fmt::Display for DrawClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawClaim::ThreefoldRepetition => "threefold repetition",
            DrawClaim::FiftyMoves => "50 moves by each side without a pawn move or capture",
            DrawClaim::InsufficientMaterial => "insufficient material",
        })
    }
}

/// Whether `color` has any material to mate with at all, i.e. whether some
/// series of legal moves (with the opponent's help) could end in `color`
/// giving mate. Used at flag fall: if the flagged side's opponent cannot
/// mate, the game is drawn (FIDE 6.9).
///
/// This looks at material only (`shakmaty`'s `has_insufficient_material`):
/// a lone king, or king and one knight or same-coloured bishops against
/// material that cannot help to mate itself, cannot mate; a pawn, rook or
/// queen always can. Blocked positions are not detected.
pub fn can_mate(pos: &Chess, color: Color) -> bool {
    !pos.has_insufficient_material(color)
}

impl Game {
    /// Whether the game has ended by itself in the current position, and
    /// why. Checks in this order: checkmate, stalemate, dead position,
    /// fivefold repetition, 75-move rule, so a mate on the move that
    /// completes 75 moves is a mate (FIDE 9.6.2).
    pub fn automatic_end(&self) -> Option<AutomaticEnd> {
        let pos = self.position();
        if pos.legal_moves().is_empty() {
            return Some(if pos.is_check() {
                AutomaticEnd::Checkmate {
                    winner: !pos.turn(),
                }
            } else {
                AutomaticEnd::Stalemate
            });
        }
        if pos.is_insufficient_material() {
            return Some(AutomaticEnd::DeadPosition);
        }
        if self.repetitions() >= 5 {
            return Some(AutomaticEnd::FivefoldRepetition);
        }
        if pos.halfmoves() >= SEVENTY_FIVE_MOVES {
            return Some(AutomaticEnd::SeventyFiveMoves);
        }
        None
    }

    /// A draw the player to move could claim in the current position
    /// (FIDE 9.2.1.2, 9.3.2): threefold repetition first, then the fifty-move
    /// rule, then insufficient material. `None` if no claim is valid, or the
    /// side to move is checkmated (the mate ended the game).
    pub fn claimable_draw(&self) -> Option<DrawClaim> {
        let pos = self.position();
        if pos.is_checkmate() {
            return None;
        }
        claim_for(pos, self.repetitions())
    }

    /// A draw the player to move could claim by writing down `m` and
    /// declaring the intention to play it (FIDE 9.2.1.1, 9.3.1): the claim
    /// is judged on the position after `m`, as for
    /// [`Game::claimable_draw`]. `None` if `m` is not legal here, the game
    /// has already ended by itself, or `m` gives mate (a mate ends the game
    /// at once, FIDE 5.1.1).
    pub fn claimable_draw_after(&self, m: &Move) -> Option<DrawClaim> {
        let pos = self.position();
        if self.automatic_end().is_some() || !pos.is_legal(*m) {
            return None;
        }
        let mut next = pos.clone();
        next.play_unchecked(*m);
        if next.is_checkmate() {
            return None;
        }
        let ply = self.ply().saturating_add(1);
        let repetitions = self.occurrences(&next, key_of(&next), ply);
        claim_for(&next, repetitions)
    }
}

fn claim_for(pos: &Chess, repetitions: u32) -> Option<DrawClaim> {
    if repetitions >= 3 {
        Some(DrawClaim::ThreefoldRepetition)
    } else if pos.halfmoves() >= FIFTY_MOVES {
        Some(DrawClaim::FiftyMoves)
    } else if pos.is_insufficient_material() {
        Some(DrawClaim::InsufficientMaterial)
    } else {
        None
    }
}
