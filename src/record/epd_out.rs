//! `--epd-out FILE`: each finished game's final position as one EPD line
//! (cutechess-cli's `-epdout`), with its move counters as `hmvc` and
//! `fmvn` (EPD spec 6.4, 6.3), so the line reads as a whole FEN. The
//! position comes from the game's start (its `FEN` tag, read by the rules
//! its `Variant` tag names, or the initial position) and its moves, as the
//! PGN has them.

use shakmaty::Position;

use crate::epd::{Operation, Record};
use crate::game::{
    Chess, PositionError, SanError, UnknownVariant, Variant, fields_of, parse_san,
    position_from_fen_in,
};
use crate::record::pgn::PgnGame;

/// The EPD line of `game`'s final position, without a line end; the error
/// says which move or which `FEN` tag could not be read.
pub fn final_position(game: &PgnGame) -> Result<String, FinalPositionError> {
    let tag = |tag: &str| game.tags.iter().find(|(name, _)| name == tag);
    let variant = match tag("Variant") {
        Some((_, v)) => v.parse::<Variant>()?,
        None => Variant::Standard,
    };
    let mut pos = match tag("FEN") {
        Some((_, fen)) => {
            position_from_fen_in(fen, variant).map_err(|why| FinalPositionError::Fen {
                fen: fen.clone(),
                why,
            })?
        }
        None => Chess::default(),
    };
    for (i, m) in game.moves.iter().enumerate() {
        let mv = parse_san(&pos, &m.san).map_err(|why| FinalPositionError::Move {
            number: i + 1,
            san: m.san.clone(),
            why,
        })?;
        pos.play_unchecked(mv);
    }
    let record = Record::new(fields_of(&pos))
        .with(Operation::new("hmvc").token(pos.halfmoves().to_string()))
        .with(Operation::new("fmvn").token(pos.fullmoves().to_string()));
    Ok(record.to_canonical())
}

/// Why a game's final position cannot be had: its `Variant` tag, its
/// `FEN` tag or which of its moves.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FinalPositionError {
    #[error(transparent)]
    Variant(#[from] UnknownVariant),
    #[error("its FEN tag {fen:?}: {why}")]
    Fen { fen: String, why: PositionError },
    /// Move `number` (1-based, in plies) does not read or is not legal.
    #[error("its move {number} ({san:?}): {why}")]
    Move {
        number: usize,
        san: String,
        why: SanError,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::pgn::PgnMove;

    fn game(fen: Option<&str>, sans: &[&str]) -> PgnGame {
        PgnGame {
            tags: fen
                .map(|f| vec![("SetUp".into(), "1".into()), ("FEN".into(), f.into())])
                .unwrap_or_default(),
            moves: sans
                .iter()
                .map(|s| PgnMove {
                    san: s.to_string(),
                    ..PgnMove::default()
                })
                .collect(),
            result: "*".into(),
            ..PgnGame::default()
        }
    }

    #[test]
    fn the_final_position_with_its_counters() {
        assert_eq!(
            final_position(&game(None, &["e4", "e5", "Nf3", "Nc6", "Bb5"])).unwrap(),
            "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - fmvn 3; hmvc 3;"
        );
        assert_eq!(
            final_position(&game(None, &[])).unwrap(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - fmvn 1; hmvc 0;"
        );
        // From a set-up position (its FEN tag), Black to move.
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 7 40";
        assert_eq!(
            final_position(&game(Some(fen), &["Kd7", "e4"])).unwrap(),
            "8/3k4/8/8/4P3/8/8/4K3 b - e3 fmvn 41; hmvc 0;"
        );
    }

    #[test]
    fn a_move_that_does_not_read_is_named() {
        let e = final_position(&game(None, &["e4", "Ke3"])).unwrap_err();
        assert!(
            matches!(&e, FinalPositionError::Move { number: 2, .. }),
            "{e}"
        );
        let e = e.to_string();
        assert!(e.starts_with("its move 2 (\"Ke3\")"), "{e}");
        let e = final_position(&game(Some("8/8 w"), &[]))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("its FEN tag \"8/8 w\""), "{e}");
    }

    /// A Chess960 game's start is read by its `Variant` tag's rules (its
    /// king on f1 could not castle in standard chess), and the final
    /// position's castling field is X-FEN.
    #[test]
    fn a_chess960_game_by_its_variant_tag() {
        let fen = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w KQkq - 0 1";
        let mut g = game(Some(fen), &["O-O"]);
        g.tags.push(("Variant".into(), "Chess960".into()));
        assert_eq!(
            final_position(&g).unwrap(),
            "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b kq - fmvn 1; hmvc 1;"
        );
        g.tags.pop();
        assert!(final_position(&g).is_err());
    }
}
