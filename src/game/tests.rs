//! Tests of SAN in and out, the game history, repetitions, automatic ends
//! and draw claims.

use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Color, Move, Position, Role, Square};

use super::*;

/// Fischer-Spassky 1992 game 29, the example game of the PGN standard.
const FISCHER_SPASSKY: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 \
7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 \
15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 \
22. Bxc4 Nb6 23. Ne5 Rae8 24. Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 \
28. Qxg5 hxg5 29. b3 Ke6 30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5 \
35. Ra7 g6 36. Ra6+ Kc5 37. Ke1 Nf4 38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6 Nf2 \
42. g4 Bd3 43. Re6 1/2-1/2";

fn pos(fen: &str) -> Chess {
    let fen: Fen = fen.parse().expect("test FEN parses");
    fen.into_position(CastlingMode::Standard)
        .expect("test FEN is legal")
}

fn game_from(fen: &str) -> Game {
    Game::new(pos(fen))
}

fn played(sans: &[&str]) -> Game {
    let mut g = Game::new(Chess::default());
    for s in sans {
        if let Err(e) = g.play_san(s) {
            panic!("{s}: {e}");
        }
    }
    g
}

fn mv(p: &Chess, san: &str) -> Move {
    parse_san(p, san).unwrap_or_else(|e| panic!("{e}"))
}

fn err_kind(p: &Chess, san: &str) -> SanErrorKind {
    match parse_san(p, san) {
        Ok(m) => panic!("{san:?} was accepted as {m:?}"),
        Err(e) => e.kind,
    }
}

fn normal(role: Role, from: Square, to: Square, capture: Option<Role>) -> Move {
    Move::Normal {
        role,
        from,
        capture,
        to,
        promotion: None,
    }
}

// ---- SAN ---------------------------------------------------------------

#[test]
fn fischer_spassky_replays_with_identical_san() {
    let mut game = Game::new(Chess::default());
    let tokens = FISCHER_SPASSKY
        .split_whitespace()
        .filter(|t| !t.ends_with('.') && *t != "1/2-1/2");
    let mut count = 0;
    for token in tokens {
        let before = game.position().clone();
        let m = game.play_san(token).unwrap_or_else(|e| panic!("{e}"));
        // An independent reading by shakmaty's own strict SAN parser.
        let strict = San::from_ascii(token.as_bytes()).unwrap().to_move(&before);
        assert_eq!(strict, Ok(m), "{token}");
        assert_eq!(san_of(&before, &m), token);
        assert_eq!(game.sans().last().map(String::as_str), Some(token));
        count += 1;
    }
    assert_eq!(count, 85);
    assert_eq!(game.ply(), 85);
    assert_eq!(
        fen_of(game.position()),
        "8/8/4R1p1/2k3p1/1p4P1/1P1b1P2/3K1n2/8 b - - 2 43"
    );
    assert_eq!(game.automatic_end(), None);
    assert_eq!(game.position_at(0), Some(&Chess::default()));
    assert_eq!(game.position_at(85), Some(game.position()));
    assert_eq!(game.position_at(86), None);
}

#[test]
fn disambiguation_examples_of_the_pgn_standard() {
    // Knights on c3 and g1 can both go to e2.
    let p = pos("4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1");
    let nce2 = normal(Role::Knight, Square::C3, Square::E2, None);
    let nge2 = normal(Role::Knight, Square::G1, Square::E2, None);
    assert_eq!(san_of(&p, &nce2), "Nce2");
    assert_eq!(san_of(&p, &nge2), "Nge2");
    assert_eq!(mv(&p, "Nce2"), nce2);
    assert_eq!(mv(&p, "Nge2"), nge2);
    assert_eq!(err_kind(&p, "Ne2"), SanErrorKind::Ambiguous);
    let e = parse_san(&p, "Ne2").unwrap_err();
    assert_eq!(e.to_string(), "ambiguous move \"Ne2\": matches Nce2, Nge2");

    // The bishop on b4 pins the c3 knight: no disambiguation needed.
    let p = pos("4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1");
    assert_eq!(san_of(&p, &nge2), "Ne2");
    assert_eq!(mv(&p, "Ne2"), nge2);
    assert_eq!(mv(&p, "Nge2"), nge2);
    assert_eq!(err_kind(&p, "Nce2"), SanErrorKind::Illegal);

    // Rank, and file and rank.
    let p = pos("8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1");
    let m = normal(Role::Queen, Square::H4, Square::E1, None);
    assert_eq!(san_of(&p, &m), "Qh4e1");
    assert_eq!(mv(&p, "Qh4e1"), m);
    assert_eq!(err_kind(&p, "Qhe1"), SanErrorKind::Ambiguous);
    assert_eq!(err_kind(&p, "Q4e1"), SanErrorKind::Ambiguous);
    let m = normal(Role::Queen, Square::H4, Square::H3, None);
    assert_eq!(san_of(&p, &m), "Q4h3");
    assert_eq!(mv(&p, "Q4h3"), m);
}

#[test]
fn leniencies_are_accepted() {
    let start = Chess::default();
    let nf3 = normal(Role::Knight, Square::G1, Square::F3, None);
    let e4 = normal(Role::Pawn, Square::E2, Square::E4, None);
    for text in [
        "Nf3", "Nf3+", "Nf3#", "Nf3++", "Nf3!", "Nf3?", "Nf3!!", "Nf3!?", "Nf3?!", "Nf3??",
        "Nf3+!?", "Nxf3", "Ng1f3", "Ngf3", "N1f3", "Ng1xf3", "nf3", "nxf3", " Nf3 ",
    ] {
        assert_eq!(mv(&start, text), nf3, "{text}");
    }
    for text in ["e4", "Pe4", "pe4", "e2e4", "Pe2e4", "e4!", "e4+", "e2e4#?"] {
        assert_eq!(mv(&start, text), e4, "{text}");
    }
    // Missing x on a pawn capture, and ':' for x.
    let g = played(&["e4", "d5"]);
    let exd5 = normal(Role::Pawn, Square::E4, Square::D5, Some(Role::Pawn));
    for text in ["exd5", "ed5", "e:d5", "Pexd5", "e4d5", "exd5+"] {
        assert_eq!(mv(g.position(), text), exd5, "{text}");
    }
    // A pawn capture must name its file.
    assert_eq!(err_kind(g.position(), "xd5"), SanErrorKind::Illegal);
    assert_eq!(err_kind(g.position(), "d5"), SanErrorKind::Illegal);
    // Missing x on a piece capture, lower-case queen.
    let g = played(&["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"]);
    let qxf7 = normal(Role::Queen, Square::H5, Square::F7, Some(Role::Pawn));
    for text in ["Qxf7#", "Qf7", "qxf7", "Qf7+", "Qh5f7", "Qxf7#!!"] {
        assert_eq!(mv(g.position(), text), qxf7, "{text}");
    }
    assert_eq!(san_of(g.position(), &qxf7), "Qxf7#");
}

#[test]
fn castling_with_letter_o_and_zero() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = Move::Castle {
        king: Square::E1,
        rook: Square::H1,
    };
    let long = Move::Castle {
        king: Square::E1,
        rook: Square::A1,
    };
    for text in ["O-O", "0-0", "O-O+", "0-0!", "O-O#?"] {
        assert_eq!(mv(&p, text), short, "{text}");
    }
    for text in ["O-O-O", "0-0-0", "0-0-0+"] {
        assert_eq!(mv(&p, text), long, "{text}");
    }
    assert_eq!(san_of(&p, &short), "O-O");
    assert_eq!(san_of(&p, &long), "O-O-O");
    let p = pos("3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(san_of(&p, &long), "O-O-O+");
    assert_eq!(mv(&p, "0-0-0+"), long);
    // No rights: illegal, with a reason.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1");
    let e = parse_san(&p, "0-0").unwrap_err();
    assert_eq!(e.kind, SanErrorKind::Illegal);
    assert_eq!(
        e.to_string(),
        "illegal move \"0-0\": White cannot castle kingside here"
    );
    // Mixed or lower-case forms are not castling.
    assert_eq!(err_kind(&p, "O-0"), SanErrorKind::Unparsable);
    assert_eq!(err_kind(&p, "o-o"), SanErrorKind::Unparsable);
}

#[test]
fn en_passant() {
    let mut g = played(&["e4", "Nf6", "e5", "d5"]);
    assert_eq!(fields_of(g.position()).en_passant, "d6");
    let ep = Move::EnPassant {
        from: Square::E5,
        to: Square::D6,
    };
    for text in ["exd6", "ed6", "exd6+", "e5d6"] {
        assert_eq!(mv(g.position(), text), ep, "{text}");
    }
    assert_eq!(err_kind(g.position(), "d6"), SanErrorKind::Illegal);
    assert_eq!(g.play(ep).unwrap(), "exd6");
    assert_eq!(
        fields_of(g.position()).placement,
        "rnbqkb1r/ppp1pppp/3P1n2/8/8/8/PPPP1PPP/RNBQKBNR"
    );
}

#[test]
fn promotion_and_underpromotion_with_check() {
    let p = pos("3r4/4P1k1/8/8/8/8/8/K7 w - - 0 1");
    let promo = |to, capture, role| Move::Normal {
        role: Role::Pawn,
        from: Square::E7,
        capture,
        to,
        promotion: Some(role),
    };
    let e8n = promo(Square::E8, None, Role::Knight);
    assert_eq!(san_of(&p, &e8n), "e8=N+");
    for text in [
        "e8=N+", "e8=N", "e8N", "e8=n", "e8n+", "Pe8=N", "e7e8N", "e8=N!",
    ] {
        assert_eq!(mv(&p, text), e8n, "{text}");
    }
    let e8q = promo(Square::E8, None, Role::Queen);
    assert_eq!(san_of(&p, &e8q), "e8=Q");
    assert_eq!(mv(&p, "e8Q"), e8q);
    let e8b = promo(Square::E8, None, Role::Bishop);
    assert_eq!(mv(&p, "e8=b"), e8b);
    assert_eq!(mv(&p, "e8b"), e8b);
    let exd8r = promo(Square::D8, Some(Role::Rook), Role::Rook);
    assert_eq!(san_of(&p, &exd8r), "exd8=R");
    assert_eq!(mv(&p, "exd8R"), exd8r);
    assert_eq!(mv(&p, "ed8=R"), exd8r);
    // A promotion must name its piece, and only to N, B, R or Q.
    let e = parse_san(&p, "e8").unwrap_err();
    assert_eq!(e.kind, SanErrorKind::Illegal);
    assert!(e.reason.contains("must promote"), "{e}");
    assert_eq!(err_kind(&p, "e8=K"), SanErrorKind::Unparsable);
    assert_eq!(err_kind(&p, "e8="), SanErrorKind::Unparsable);
    assert_eq!(err_kind(&p, "e8=P"), SanErrorKind::Unparsable);
    // Promotion is not for pieces, nor before the last rank.
    assert_eq!(err_kind(&p, "Ka2=Q"), SanErrorKind::Illegal);
}

#[test]
fn b_is_a_file_first_then_a_bishop() {
    let with_pawn = pos("4k3/8/8/8/8/2n5/1P6/4B1K1 w - - 0 1");
    let pawn = normal(Role::Pawn, Square::B2, Square::C3, Some(Role::Knight));
    let bishop = normal(Role::Bishop, Square::E1, Square::C3, Some(Role::Knight));
    assert_eq!(mv(&with_pawn, "bxc3"), pawn);
    assert_eq!(mv(&with_pawn, "bc3"), pawn);
    assert_eq!(mv(&with_pawn, "Bxc3"), bishop);
    assert_eq!(mv(&with_pawn, "Bc3"), bishop);
    let no_pawn = pos("4k3/8/8/8/8/2n5/8/4B1K1 w - - 0 1");
    assert_eq!(mv(&no_pawn, "bxc3"), bishop);
    assert_eq!(mv(&no_pawn, "bc3"), bishop);
    assert_eq!(
        mv(&no_pawn, "bd2"),
        normal(Role::Bishop, Square::E1, Square::D2, None)
    );
    assert_eq!(err_kind(&no_pawn, "bxc4"), SanErrorKind::Illegal);
}

#[test]
fn rejections_by_kind() {
    let start = Chess::default();
    for text in [
        "",
        "   ",
        "hello",
        "e2-e4",
        "Nf9",
        "Ni3",
        "N",
        "x",
        "--",
        "Q@e4",
        "Nf3!!!",
        "Nf3!+",
        "E4",
        "1-0",
        "Ke1e2e3",
        "e4 e5",
        "é4",
        "\u{1b}[2J",
    ] {
        assert_eq!(err_kind(&start, text), SanErrorKind::Unparsable, "{text:?}");
    }
    for text in [
        "Ke3", "e5", "Nf4", "Bc4", "Nb1f3", "Nf3=Q", "O-O", "exd3", "Qxd7",
    ] {
        assert_eq!(err_kind(&start, text), SanErrorKind::Illegal, "{text:?}");
    }
    let e = parse_san(&start, "Ke3").unwrap_err();
    assert_eq!(
        e.to_string(),
        "illegal move \"Ke3\": no white king can move to e3"
    );
    let e = parse_san(&start, "Nb1f3").unwrap_err();
    assert_eq!(e.reason, "no white knight from b1 can move to f3");
    let g = played(&["d4", "d5", "Nf3", "Nf6"]);
    let e = parse_san(g.position(), "Nd2").unwrap_err();
    assert_eq!(e.kind, SanErrorKind::Ambiguous);
    assert_eq!(e.reason, "matches Nbd2, Nfd2");
    let e = parse_san(&start, "hello").unwrap_err();
    assert_eq!(
        e.to_string(),
        "unparsable move \"hello\": not a move in SAN"
    );
}

#[test]
fn long_or_hostile_text_is_rejected_quietly() {
    let start = Chess::default();
    let long = "Nf3".repeat(400);
    let e = parse_san(&start, &long).unwrap_err();
    assert_eq!(e.kind, SanErrorKind::Unparsable);
    assert!(e.text.len() <= 23, "{}", e.text);
    let e = parse_san(&start, "\u{1b}[31mNf3").unwrap_err();
    assert!(!e.to_string().contains('\u{1b}'));
}

// ---- Game --------------------------------------------------------------

#[test]
fn game_records_moves_positions_and_san() {
    let mut g = Game::new(Chess::default());
    assert_eq!(g.ply(), 0);
    assert_eq!(g.last_move(), None);
    assert_eq!(g.position(), g.start());
    let m = g.play_san("e4").unwrap();
    assert_eq!(g.last_move(), Some(&m));
    let m2 = mv(g.position(), "c5");
    assert_eq!(g.play(m2).unwrap(), "c5");
    g.play_san("Nf3").unwrap();
    assert_eq!(g.sans(), ["e4", "c5", "Nf3"]);
    assert_eq!(g.moves().len(), 3);
    assert_eq!(g.moves()[1], m2);
    // The positions of the PGN standard's FEN examples.
    assert_eq!(
        g.position_at(1).map(fen_of).as_deref(),
        Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    );
    assert_eq!(
        g.position_at(2).map(fen_of).as_deref(),
        Some("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2")
    );
    assert_eq!(
        fen_of(g.position()),
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
}

#[test]
fn illegal_moves_leave_the_game_unchanged() {
    let mut g = played(&["e4"]);
    let e = g
        .play(normal(Role::Pawn, Square::E2, Square::E4, None))
        .unwrap_err();
    assert_eq!(e.kind, SanErrorKind::Illegal);
    assert!(e.to_string().contains("not a legal move"), "{e}");
    assert!(g.play_san("Ke7e6").is_err());
    assert!(g.play_san("garbage").is_err());
    assert_eq!(g.ply(), 1);
    assert_eq!(g.sans(), ["e4"]);
}

#[test]
fn game_from_a_set_up_position_keeps_its_counters() {
    let f = crate::epd::Fields {
        placement: "4k3/8/8/8/8/8/4P3/4K3".into(),
        side: "w".into(),
        castling: "-".into(),
        en_passant: "-".into(),
    };
    let mut g = Game::new(position_from_fields(&f, Some(5), Some(39)).unwrap());
    g.play_san("Kd2").unwrap();
    assert_eq!(fen_of(g.position()), "4k3/8/8/8/8/8/3KP3/8 b - - 6 39");
    g.play_san("Kd7").unwrap();
    assert_eq!(g.position().fullmoves().get(), 40);
}

// ---- automatic ends ----------------------------------------------------

#[test]
fn checkmate_ends_the_game_and_refuses_further_moves() {
    let mut g = played(&["f3", "e5", "g4"]);
    assert_eq!(g.automatic_end(), None);
    assert_eq!(
        g.play_san("Qh4").unwrap(),
        Move::Normal {
            role: Role::Queen,
            from: Square::D8,
            capture: None,
            to: Square::H4,
            promotion: None
        }
    );
    assert_eq!(g.sans().last().map(String::as_str), Some("Qh4#"));
    let end = g.automatic_end();
    assert_eq!(
        end,
        Some(AutomaticEnd::Checkmate {
            winner: Color::Black
        })
    );
    assert_eq!(end.map(AutomaticEnd::result), Some("0-1"));
    assert_eq!(g.claimable_draw(), None);
    let e = g.play_san("Kf2").unwrap_err();
    assert_eq!(e.kind, SanErrorKind::Illegal);
    assert_eq!(
        e.to_string(),
        "illegal move \"Kf2\": the game has already ended (checkmate, Black wins)"
    );
}

#[test]
fn stalemate() {
    let mut g = game_from("k7/8/8/2Q5/8/8/8/K7 w - - 0 1");
    g.play_san("Qb6").unwrap();
    assert_eq!(g.automatic_end(), Some(AutomaticEnd::Stalemate));
    assert_eq!(AutomaticEnd::Stalemate.result(), "1/2-1/2");
}

#[test]
fn dead_position_and_insufficient_material() {
    let mut g = game_from("k7/8/8/8/8/8/1r6/KB6 w - - 0 1");
    assert_eq!(g.automatic_end(), None);
    assert!(can_mate(g.position(), Color::Black));
    let kxb2 = mv(g.position(), "Kxb2");
    assert_eq!(
        g.claimable_draw_after(&kxb2),
        Some(DrawClaim::InsufficientMaterial)
    );
    g.play(kxb2).unwrap();
    assert_eq!(g.automatic_end(), Some(AutomaticEnd::DeadPosition));
    assert_eq!(g.claimable_draw(), Some(DrawClaim::InsufficientMaterial));
    assert!(!can_mate(g.position(), Color::White));
    assert!(!can_mate(g.position(), Color::Black));
    // Same-coloured bishops on both sides: dead.
    let g = game_from("kb6/8/8/8/8/8/8/K1B5 w - - 0 1");
    assert_eq!(g.automatic_end(), Some(AutomaticEnd::DeadPosition));
    // Opposite-coloured bishops: a mate is possible.
    let g = game_from("k1b5/8/8/8/8/8/8/K1B5 w - - 0 1");
    assert_eq!(g.automatic_end(), None);
}

#[test]
fn can_mate_by_material() {
    assert!(can_mate(&Chess::default(), Color::White));
    let p = pos("k7/8/8/8/8/8/8/KN6 w - - 0 1");
    assert!(!can_mate(&p, Color::White));
    // A knight can mate a king that has a pawn to block itself in.
    let p = pos("k7/p7/8/8/8/8/8/KN6 w - - 0 1");
    assert!(can_mate(&p, Color::White));
    assert!(can_mate(&p, Color::Black));
    let p = pos("k7/8/8/8/8/8/8/KR6 w - - 0 1");
    assert!(can_mate(&p, Color::White));
    assert!(!can_mate(&p, Color::Black));
}

#[test]
fn seventy_five_moves_unless_the_last_move_mates() {
    let fen = "k7/8/1K6/8/8/8/8/7R w - - 149 100";
    let mut g = game_from(fen);
    assert_eq!(g.automatic_end(), None);
    assert_eq!(g.claimable_draw(), Some(DrawClaim::FiftyMoves));
    g.play_san("Rh2").unwrap();
    assert_eq!(g.position().halfmoves(), 150);
    assert_eq!(g.automatic_end(), Some(AutomaticEnd::SeventyFiveMoves));
    assert!(g.play_san("Kb8").is_err());

    let mut g = game_from(fen);
    let mate = mv(g.position(), "Rh8");
    assert_eq!(g.claimable_draw_after(&mate), None);
    assert_eq!(g.play(mate).unwrap(), "Rh8#");
    assert_eq!(g.position().halfmoves(), 150);
    assert_eq!(
        g.automatic_end(),
        Some(AutomaticEnd::Checkmate {
            winner: Color::White
        })
    );
}

#[test]
fn fifty_move_claims_now_and_after_a_move() {
    let mut g = game_from("k7/8/1K6/8/8/8/8/7R w - - 98 80");
    assert_eq!(g.claimable_draw(), None);
    let rh2 = mv(g.position(), "Rh2");
    assert_eq!(g.claimable_draw_after(&rh2), None); // 99 half-moves
    g.play(rh2).unwrap();
    assert_eq!(g.claimable_draw(), None);
    let kb8 = mv(g.position(), "Kb8");
    assert_eq!(g.claimable_draw_after(&kb8), Some(DrawClaim::FiftyMoves));
    g.play(kb8).unwrap();
    assert_eq!(g.claimable_draw(), Some(DrawClaim::FiftyMoves));
    // A capture resets the count.
    let mut g = game_from("k7/8/1K6/8/8/8/7p/7R w - - 99 80");
    let rxh2 = mv(g.position(), "Rxh2");
    assert_eq!(g.claimable_draw_after(&rxh2), None);
    g.play(rxh2).unwrap();
    assert_eq!(g.claimable_draw(), None);
    // An illegal move supports no claim.
    let g = game_from("k7/8/1K6/8/8/8/8/7R w - - 120 80");
    let illegal = normal(Role::Rook, Square::H1, Square::A2, None);
    assert_eq!(g.claimable_draw_after(&illegal), None);
}

const SHUFFLE: [&str; 4] = ["Nf3", "Nf6", "Ng1", "Ng8"];

#[test]
fn threefold_now_and_after_a_move_then_fivefold() {
    let mut g = Game::new(Chess::default());
    assert_eq!(g.repetitions(), 1);
    for s in SHUFFLE {
        g.play_san(s).unwrap();
    }
    assert_eq!(g.repetitions(), 2);
    assert_eq!(g.claimable_draw(), None);
    for s in &SHUFFLE[..3] {
        g.play_san(s).unwrap();
    }
    // Black may claim by writing down Ng8.
    assert_eq!(g.claimable_draw(), None);
    let ng8 = mv(g.position(), "Ng8");
    assert_eq!(
        g.claimable_draw_after(&ng8),
        Some(DrawClaim::ThreefoldRepetition)
    );
    assert_eq!(g.claimable_draw_after(&mv(g.position(), "Nc6")), None);
    g.play(ng8).unwrap();
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.claimable_draw(), Some(DrawClaim::ThreefoldRepetition));
    assert_eq!(g.automatic_end(), None);
    for s in SHUFFLE.iter().chain(&SHUFFLE[..3]) {
        g.play_san(s).unwrap();
        assert_eq!(g.automatic_end(), None);
    }
    assert_eq!(g.repetitions(), 4);
    g.play_san("Ng8").unwrap();
    assert_eq!(g.repetitions(), 5);
    assert_eq!(g.automatic_end(), Some(AutomaticEnd::FivefoldRepetition));
    assert_eq!(g.claimable_draw_after(&mv(g.position(), "Nf3")), None);
    let e = g.play_san("Nf3").unwrap_err();
    assert!(e.reason.contains("fivefold repetition"), "{e}");
}

#[test]
fn en_passant_that_cannot_be_taken_does_not_distinguish_positions() {
    // After 1. e4 no black pawn can take on e3: the position after 3. Ng1
    // is the same as after 1. e4.
    let mut g = played(&["e4", "Nf6", "Nf3", "Ng8", "Ng1"]);
    assert_eq!(g.repetitions(), 2);
    for s in ["Nf6", "Nf3", "Ng8", "Ng1"] {
        g.play_san(s).unwrap();
    }
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.claimable_draw(), Some(DrawClaim::ThreefoldRepetition));
}

#[test]
fn en_passant_that_can_be_taken_distinguishes_positions() {
    // After 2... d5 White may take en passant; the same placement later,
    // without that right, is a different position.
    let mut g = played(&["e4", "Nf6", "e5", "d5"]);
    assert_eq!(g.repetitions(), 1);
    for s in ["Nf3", "Ng8", "Ng1", "Nf6"] {
        g.play_san(s).unwrap();
    }
    assert_eq!(g.repetitions(), 1);
    for s in ["Nf3", "Ng8", "Ng1", "Nf6"] {
        g.play_san(s).unwrap();
    }
    assert_eq!(g.repetitions(), 2);
    assert_eq!(g.claimable_draw(), None);
    for s in ["Nf3", "Ng8", "Ng1"] {
        g.play_san(s).unwrap();
    }
    let nf6 = mv(g.position(), "Nf6");
    assert_eq!(
        g.claimable_draw_after(&nf6),
        Some(DrawClaim::ThreefoldRepetition)
    );
}

#[test]
fn lost_castling_rights_distinguish_positions() {
    // Ke2 Ke7 Ke1 Ke8 returns to the start placement without castling rights.
    let mut g = played(&["e4", "e5", "Ke2", "Ke7", "Ke1", "Ke8"]);
    assert_eq!(g.repetitions(), 1);
    for s in ["Ke2", "Ke7", "Ke1", "Ke8"] {
        g.play_san(s).unwrap();
    }
    assert_eq!(g.repetitions(), 2);
}

#[test]
fn round_trip_fields_of_and_position_from_fields() {
    let g = played(&[
        "e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6",
    ]);
    for ply in 0..=g.ply() {
        let p = g.position_at(ply).unwrap();
        let back = position_from_fields(
            &fields_of(p),
            Some(p.halfmoves()),
            Some(p.fullmoves().get()),
        )
        .unwrap();
        assert_eq!(fen_of(&back), fen_of(p), "ply {ply}");
    }
}

#[test]
fn display_of_ends_and_claims() {
    assert_eq!(
        AutomaticEnd::Checkmate {
            winner: Color::White
        }
        .to_string(),
        "checkmate, White wins"
    );
    assert_eq!(
        AutomaticEnd::Checkmate {
            winner: Color::White
        }
        .result(),
        "1-0"
    );
    assert_eq!(
        DrawClaim::ThreefoldRepetition.to_string(),
        "threefold repetition"
    );
}
