//! Move notation between the referee (SAN) and engines: UCI long
//! algebraic (`e2e4`, `e1g1` for castling, `e7e8q` for promotions) and
//! XBoard's coordinate notation (the same, or SAN for engines that ask for
//! it with `feature san=1`). In Chess960 a UCI castling move is the king
//! taking its own rook (`b1a1`, with `UCI_Chess960` on), an XBoard one
//! `O-O` or `O-O-O` (as XBoard sends it in `variant fischerandom`).

use shakmaty::uci::UciMove;
use shakmaty::{CastlingSide, Chess, Move, Position};

use crate::game::{self, Variant};

/// Longest move text an engine may send (anything longer is not a move).
const MAX_MOVE_LEN: usize = 16;

/// A legal move in UCI long algebraic notation, castling as the king's
/// two-square step (`e1g1`, `e8c8`) in standard chess and as the king
/// taking its rook (`e1h1`, `b8a8`) in Chess960, promotions with a
/// lower-case letter (`e7e8q`, `a2a1n`).
pub fn to_uci(m: &Move, variant: Variant) -> String {
    let mut s = String::with_capacity(5);
    push_uci(&mut s, m, variant);
    s
}

/// [`to_uci`] appended to `s` (a `position ... moves` line is built of
/// them): bytes pushed as they are, not through `Display`'s
/// `fmt::Formatter` one character at a time.
pub fn push_uci(s: &mut String, m: &Move, variant: Variant) {
    m.to_uci(variant.castling_mode()).append_to_string(s);
}

/// A legal move as an XBoard engine wants it: coordinate notation (as
/// UCI), or SAN when the engine asked for SAN (`feature san=1`); castling
/// in Chess960 as `O-O` or `O-O-O` either way.
pub fn to_xboard(pos: &Chess, m: &Move, san: bool) -> String {
    let variant = Variant::of(pos);
    match m.castling_side() {
        Some(side) if variant == Variant::Chess960 => match side {
            CastlingSide::KingSide => "O-O".to_string(),
            CastlingSide::QueenSide => "O-O-O".to_string(),
        },
        _ if san => game::san_of(pos, m),
        _ => to_uci(m, variant),
    }
}

/// An engine's move that does not read or is not legal: the text (trimmed,
/// cut to [`MAX_MOVE_LEN`]) and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    #[error("{0:?} is not a move in UCI notation")]
    NotUci(String),
    #[error("{0:?} is not a legal move here")]
    Illegal(String),
    #[error("{0:?} is not a move")]
    NotAMove(String),
    /// Neither coordinates nor SAN that reads here.
    #[error(transparent)]
    San(#[from] game::SanError),
}

/// Reads a UCI engine's move: long algebraic only (castling as `e1g1` or
/// king-takes-rook `e1h1`). The error says what was wrong.
pub fn from_uci(pos: &Chess, text: &str) -> Result<Move, MoveTextError> {
    let t = text.trim();
    if t.is_empty() || t.len() > MAX_MOVE_LEN || !t.is_ascii() {
        return Err(MoveTextError::NotUci(shorten(t)));
    }
    let uci: UciMove = t
        .parse()
        .map_err(|_| MoveTextError::NotUci(t.to_string()))?;
    let m = uci
        .to_move(pos)
        .map_err(|_| MoveTextError::Illegal(t.to_string()))?;
    if pos.is_legal(m) {
        Ok(m)
    } else {
        Err(MoveTextError::Illegal(t.to_string()))
    }
}

/// Reads an XBoard engine's move: coordinate notation (`e2e4`, `e7e8q`,
/// also `e7e8=q`), else SAN (`Nf3`, `O-O`, `exd6`), read leniently. The
/// error says what was wrong.
pub fn from_xboard(pos: &Chess, text: &str) -> Result<Move, MoveTextError> {
    let t = text.trim();
    if t.is_empty() || t.len() > MAX_MOVE_LEN || !t.is_ascii() {
        return Err(MoveTextError::NotAMove(shorten(t)));
    }
    let coordinate = t.replace('=', "").to_ascii_lowercase();
    if let Ok(m) = from_uci(pos, &coordinate) {
        return Ok(m);
    }
    Ok(game::parse_san(pos, t)?)
}

fn shorten(s: &str) -> String {
    s.chars().take(MAX_MOVE_LEN).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Role, Square};

    fn pos(fen: &str) -> Chess {
        game::position_from_fen(fen).unwrap()
    }

    /// Both castling kinds for both colours.
    const CASTLE_W: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    const CASTLE_B: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1";

    #[test]
    fn castling_goes_out_as_the_king_step_and_comes_back() {
        for (fen, uci, san) in [
            (CASTLE_W, "e1g1", "O-O"),
            (CASTLE_W, "e1c1", "O-O-O"),
            (CASTLE_B, "e8g8", "O-O"),
            (CASTLE_B, "e8c8", "O-O-O"),
        ] {
            let p = pos(fen);
            let m = game::parse_san(&p, san).unwrap();
            assert!(m.is_castle());
            assert_eq!(to_uci(&m, Variant::Standard), uci);
            assert_eq!(to_xboard(&p, &m, false), uci);
            assert_eq!(to_xboard(&p, &m, true), san);
            assert_eq!(from_uci(&p, uci).unwrap(), m, "{uci}");
            assert_eq!(from_xboard(&p, uci).unwrap(), m, "{uci}");
            assert_eq!(from_xboard(&p, san).unwrap(), m, "{san}");
            assert_eq!(game::san_of(&p, &from_uci(&p, uci).unwrap()), san);
        }
    }

    #[test]
    fn king_takes_rook_castling_is_read_too() {
        let p = pos(CASTLE_W);
        assert_eq!(game::san_of(&p, &from_uci(&p, "e1h1").unwrap()), "O-O");
        let p = pos(CASTLE_B);
        assert_eq!(game::san_of(&p, &from_uci(&p, "e8a8").unwrap()), "O-O-O");
    }

    #[test]
    fn a_king_step_without_the_right_is_not_castling() {
        // White has lost the kingside right: e1g1 is not a legal move.
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
        assert!(from_uci(&p, "e1g1").is_err());
        assert!(from_uci(&p, "e1c1").is_ok());
    }

    #[test]
    fn promotions_including_under_promotions() {
        let p = pos("1n2k3/P7/8/8/8/8/7p/4K3 w - - 0 1");
        for (uci, san, role) in [
            ("a7a8q", "a8=Q", Role::Queen),
            ("a7a8r", "a8=R", Role::Rook),
            ("a7a8b", "a8=B", Role::Bishop),
            ("a7a8n", "a8=N", Role::Knight),
            ("a7b8n", "axb8=N", Role::Knight),
        ] {
            let m = from_uci(&p, uci).unwrap();
            assert_eq!(m.promotion(), Some(role), "{uci}");
            assert_eq!(game::san_of(&p, &m), san);
            assert_eq!(to_uci(&m, Variant::Standard), uci);
            assert_eq!(from_xboard(&p, san).unwrap(), m);
            assert_eq!(from_xboard(&p, &uci.to_uppercase()).unwrap(), m);
        }
        assert_eq!(
            from_xboard(&p, "a7a8=n").unwrap().promotion(),
            Some(Role::Knight)
        );
        // Black promotes on the first rank.
        let p = pos("4k3/8/8/8/8/8/7p/4K3 b - - 0 1");
        let m = from_uci(&p, "h2h1n").unwrap();
        assert_eq!(game::san_of(&p, &m), "h1=N");
        // A pawn reaching the last rank must say what it becomes.
        let p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert!(from_uci(&p, "a7a8").is_err());
    }

    #[test]
    fn en_passant_both_colours() {
        let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        let m = from_uci(&p, "e5d6").unwrap();
        assert!(m.is_en_passant());
        assert_eq!(game::san_of(&p, &m), "exd6");
        assert_eq!(to_uci(&m, Variant::Standard), "e5d6");
        assert_eq!(from_xboard(&p, "exd6").unwrap(), m);

        let p = pos("4k3/8/8/8/4pP2/8/8/4K3 b - f3 0 2");
        let m = from_uci(&p, "e4f3").unwrap();
        assert!(m.is_en_passant());
        assert_eq!(m.from(), Some(Square::E4));
        assert_eq!(game::san_of(&p, &m), "exf3");
    }

    #[test]
    fn bad_moves_say_what_was_wrong() {
        let p = Chess::default();
        assert_eq!(
            from_uci(&p, "e2e5"),
            Err(MoveTextError::Illegal("e2e5".into()))
        );
        assert!(
            from_uci(&p, "e2e5")
                .unwrap_err()
                .to_string()
                .contains("not a legal move")
        );
        assert!(
            from_uci(&p, "Nf3")
                .unwrap_err()
                .to_string()
                .contains("not a move")
        );
        assert!(from_uci(&p, "").is_err());
        assert!(from_uci(&p, "0000").is_err());
        assert!(from_uci(&p, &"e".repeat(1000)).is_err());
        assert!(from_uci(&p, "é2e4").is_err());
        assert!(from_xboard(&p, "Ke2").is_err());
        assert!(from_xboard(&p, "xyz").is_err());
        // SAN is fine for XBoard engines, not for UCI ones.
        assert_eq!(
            to_uci(&from_xboard(&p, "Nf3").unwrap(), Variant::Standard),
            "g1f3"
        );
    }

    /// Chess960 castling: out as the king taking its rook for UCI and as
    /// `O-O`/`O-O-O` for XBoard (SAN or not); in as either, and as SAN.
    #[test]
    fn chess960_castling_both_ways() {
        let p = game::position_from_fen_in(
            "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w KQkq - 0 1",
            Variant::Chess960,
        )
        .unwrap();
        let short = from_uci(&p, "f1g1").unwrap();
        let long = from_uci(&p, "f1b1").unwrap();
        for (m, uci, xboard) in [(short, "f1g1", "O-O"), (long, "f1b1", "O-O-O")] {
            assert!(m.is_castle());
            assert_eq!(to_uci(&m, Variant::of(&p)), uci);
            assert_eq!(to_xboard(&p, &m, false), xboard);
            assert_eq!(to_xboard(&p, &m, true), xboard);
            assert_eq!(from_xboard(&p, xboard).unwrap(), m);
            assert_eq!(from_xboard(&p, uci).unwrap(), m);
        }
        // The same move in a standard game is the king's two-square step.
        let std = Chess::default();
        let mut g = game::Game::new(std);
        for san in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"] {
            g.play_san(san).unwrap();
        }
        let castle = game::parse_san(g.position(), "O-O").unwrap();
        assert_eq!(to_xboard(g.position(), &castle, false), "e1g1");
        assert_eq!(to_uci(&castle, Variant::Standard), "e1g1");
    }
}
