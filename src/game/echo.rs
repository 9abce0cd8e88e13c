//! The referee's echo check: does the position a client sent back agree
//! with the position the referee holds? ([`echo_mismatch`])

use shakmaty::{Chess, EnPassantMode, Position, Square};

use super::setup::{
    fields_of, parse_castling, parse_en_passant, parse_placement, parse_side, shown, side_text,
};
use super::variant::Variant;
use crate::epd::Fields;

/// Compares a client's echoed position fields with the authoritative
/// position. `None` when they agree on placement, side to move and castling
/// rights (castling letters in any order), and the en passant field is
/// either `-` or exactly the square behind a pawn that just advanced two
/// squares (programs differ on whether to give it when no capture is
/// possible; both are accepted).
///
/// Otherwise a short description of the first difference, expected value
/// first: `placement differs at e4 (expected P, got empty)`,
/// `side to move w vs b`, `castling KQkq vs KQ`, `en passant - vs e3`, or
/// why a field could not be read. Never panics, whatever `given` holds;
/// text taken from `given` is cut short and stripped of control characters.
pub fn echo_mismatch(expected: &Chess, given: &Fields) -> Option<String> {
    let board = match parse_placement(&given.placement) {
        Ok(board) => board,
        Err(e) => return Some(e.0),
    };
    if let Some(sq) = Square::ALL
        .into_iter()
        .find(|sq| board.piece_at(*sq) != expected.board().piece_at(*sq))
    {
        let name = |p: Option<shakmaty::Piece>| p.map_or("empty".to_string(), |p| p.char().into());
        return Some(format!(
            "placement differs at {sq} (expected {}, got {})",
            name(expected.board().piece_at(sq)),
            name(board.piece_at(sq))
        ));
    }

    let side = match parse_side(&given.side) {
        Ok(side) => side,
        Err(e) => return Some(e.0),
    };
    if side != expected.turn() {
        return Some(format!(
            "side to move {} vs {}",
            side_text(expected.turn()),
            side_text(side)
        ));
    }

    let expected_fields = fields_of(expected);
    match parse_castling(&given.castling, &board, Variant::of(expected)) {
        Ok(rights) if rights == expected.castles().castling_rights() => {}
        Ok(_) => {
            return Some(format!(
                "castling {} vs {}",
                expected_fields.castling,
                shown(&given.castling)
            ));
        }
        Err(e) => return Some(e.0),
    }

    match parse_en_passant(&given.en_passant) {
        Ok(None) => None,
        Ok(Some(sq)) if Some(sq) == expected.ep_square(EnPassantMode::Always) => None,
        Ok(Some(sq)) => Some(format!("en passant {} vs {sq}", expected_fields.en_passant)),
        Err(e) => Some(e.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, position_from_fields};

    fn after(sans: &[&str]) -> Chess {
        let mut g = Game::new(Chess::default());
        for s in sans {
            g.play_san(s).unwrap();
        }
        g.position().clone()
    }

    #[test]
    fn own_fields_match() {
        for sans in [
            &[][..],
            &["e4"],
            &["e4", "c5", "Nf3"],
            &["Nf3", "Nf6", "g3"],
        ] {
            let pos = after(sans);
            assert_eq!(echo_mismatch(&pos, &fields_of(&pos)), None, "{sans:?}");
        }
    }

    #[test]
    fn en_passant_dash_or_double_push_square() {
        let pos = after(&["e4"]);
        let mut f = fields_of(&pos);
        assert_eq!(f.en_passant, "e3");
        f.en_passant = "-".into();
        assert_eq!(echo_mismatch(&pos, &f), None);
        f.en_passant = "d3".into();
        assert_eq!(
            echo_mismatch(&pos, &f).as_deref(),
            Some("en passant e3 vs d3")
        );
        let pos = after(&["Nf3"]);
        let mut f = fields_of(&pos);
        f.en_passant = "f3".into();
        assert_eq!(
            echo_mismatch(&pos, &f).as_deref(),
            Some("en passant - vs f3")
        );
        f.en_passant = "zz".into();
        assert!(
            echo_mismatch(&pos, &f)
                .unwrap()
                .contains("en passant field")
        );
    }

    #[test]
    fn first_difference_is_described() {
        let pos = after(&["e4"]);
        let mut f = fields_of(&pos);
        f.placement = Fields::initial().placement;
        assert_eq!(
            echo_mismatch(&pos, &f).as_deref(),
            Some("placement differs at e2 (expected empty, got P)")
        );
        let mut f = fields_of(&pos);
        f.side = "w".into();
        assert_eq!(
            echo_mismatch(&pos, &f).as_deref(),
            Some("side to move b vs w")
        );
        let mut f = fields_of(&pos);
        f.castling = "KQ".into();
        assert_eq!(
            echo_mismatch(&pos, &f).as_deref(),
            Some("castling KQkq vs KQ")
        );
        f.castling = "kqQK".into();
        assert_eq!(echo_mismatch(&pos, &f), None);
        f.side = "white".into();
        assert!(
            echo_mismatch(&pos, &f)
                .unwrap()
                .contains("active colour field")
        );
    }

    #[test]
    fn non_canonical_placement_is_read() {
        let pos = position_from_fields(&Fields::initial(), None, None).unwrap();
        let mut f = Fields::initial();
        f.placement = "rnbqkbnr/pppppppp/44/35/8/11111111/PPPPPPPP/RNBQKBNR".into();
        assert_eq!(echo_mismatch(&pos, &f), None);
    }

    #[test]
    fn garbage_never_panics() {
        let pos = Chess::default();
        let junk = [
            "",
            "/",
            "////////",
            "\u{1b}[2J",
            "9/9/9/9/9/9/9/9",
            "KKKKKKKKK/8/8/8/8/8/8/8",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/",
            "ééééé",
        ];
        for a in junk {
            for b in junk {
                let f = Fields {
                    placement: a.into(),
                    side: b.into(),
                    castling: b.into(),
                    en_passant: a.into(),
                };
                let got = echo_mismatch(&pos, &f);
                assert!(got.is_some());
                assert!(!got.unwrap().contains('\u{1b}'));
            }
        }
        let long = Fields {
            placement: "x".repeat(5000),
            ..Fields::initial()
        };
        assert!(echo_mismatch(&pos, &long).unwrap().len() < 200);
    }
}
