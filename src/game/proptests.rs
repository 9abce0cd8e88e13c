//! Property tests: random legal games round-trip through SAN and through
//! the EPD fields; no text makes the readers panic.

use proptest::prelude::*;
use shakmaty::{Chess, Position};

use super::*;
use crate::epd::Fields;

/// Plays the game chosen by `choices` (each picks one of the legal moves),
/// checking every move and position on the way. Returns the game.
fn check_random_game(choices: &[u16]) -> Result<Game, TestCaseError> {
    let mut game = Game::new(Chess::default());
    for choice in choices {
        if game.automatic_end().is_some() {
            break;
        }
        let pos = game.position().clone();
        let legal = pos.legal_moves();
        prop_assert!(!legal.is_empty());
        let m = legal[usize::from(*choice) % legal.len()];

        // SAN out and back in gives the same move.
        let san = san_of(&pos, &m);
        prop_assert_eq!(parse_san(&pos, &san), Ok(m), "{}", san);
        // Also without its check sign, and with a pawn letter or an
        // annotation, as import format allows.
        let bare = san.trim_end_matches(['+', '#']);
        prop_assert_eq!(parse_san(&pos, bare), Ok(m), "{}", bare);
        let annotated = format!("{san}!?");
        prop_assert_eq!(parse_san(&pos, &annotated), Ok(m), "{}", annotated);

        prop_assert_eq!(game.play(m).map(str::to_owned), Ok(san));

        // The fields and counters describe the same position.
        let now = game.position();
        let fields = fields_of(now);
        let back =
            position_from_fields(&fields, Some(now.halfmoves()), Some(now.fullmoves().get()));
        prop_assert!(back.is_ok(), "{:?}: {:?}", fields, back);
        if let Ok(back) = back {
            prop_assert_eq!(fen_of(&back), fen_of(now));
            prop_assert_eq!(&back, now);
        }
        prop_assert_eq!(echo_mismatch(now, &fields), None);
        prop_assert!(game.repetitions() >= 1);
        let _ = game.claimable_draw();
    }
    Ok(game)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_games_round_trip(choices in proptest::collection::vec(any::<u16>(), 0..300)) {
        let game = check_random_game(&choices)?;
        // Replaying the recorded SAN gives the same game.
        let mut replay = Game::new(Chess::default());
        for san in game.sans() {
            prop_assert!(replay.play_san(san).is_ok(), "{}", san);
        }
        prop_assert_eq!(replay.moves(), game.moves());
        prop_assert_eq!(replay.position(), game.position());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_string_never_panics_parse_san(text in any::<String>()) {
        let _ = parse_san(&Chess::default(), &text);
    }

    #[test]
    fn san_like_strings_never_panic(text in "[KQRBNPkqrbnpa-iO0-9x:=+#!?@ -]{0,12}") {
        let p = Chess::default();
        if let Err(e) = parse_san(&p, &text) {
            prop_assert!(!e.reason.is_empty());
            prop_assert!(e.text.chars().count() <= 23);
        }
    }

    #[test]
    fn any_fields_never_panic(
        placement in "[pnbrqkPNBRQK1-9/~x]{0,80}",
        side in "[wb ]{0,2}",
        castling in "[KQkq-]{0,5}",
        en_passant in "[a-h1-8-]{0,3}",
        hmvc in proptest::option::of(any::<u32>()),
        fmvn in proptest::option::of(any::<u32>()),
    ) {
        let f = Fields { placement, side, castling, en_passant };
        if let Ok(pos) = position_from_fields(&f, hmvc, fmvn) {
            // Whatever was accepted can be played from without trouble.
            let mut game = Game::new(pos);
            let _ = game.automatic_end();
            let _ = game.claimable_draw();
            if let Some(m) = game.position().legal_moves().first().copied() {
                let _ = game.claimable_draw_after(&m);
                prop_assert!(game.automatic_end().is_some() || game.play(m).is_ok());
            }
        }
        let _ = echo_mismatch(&Chess::default(), &f);
    }

    #[test]
    fn arbitrary_text_fields_never_panic(
        placement in any::<String>(),
        side in any::<String>(),
        castling in any::<String>(),
        en_passant in any::<String>(),
    ) {
        let f = Fields { placement, side, castling, en_passant };
        let _ = position_from_fields(&f, None, None);
        let _ = echo_mismatch(&Chess::default(), &f);
    }
}
