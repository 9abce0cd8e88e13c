//! Hand-worked move numbers (document 2.4), record round trips and bad
//! records.

use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Position};

use super::movegen::{move_of_number, number_of_move};
use super::record::{EncodeError, HEADER_LEN, decode_record, encode_record, record_len};
use super::*;

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn number(fen: &str, san: &str) -> usize {
    let p = pos(fen);
    let m = san.parse::<San>().unwrap().to_move(&p).unwrap();
    let n = number_of_move(&p, &m).unwrap();
    assert_eq!(move_of_number(&p, n as u8).unwrap(), m, "{san}");
    n
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// From the start: a2 (a4 1, a3 2), Nb1 (a3 3, c3 4), b2 (5, 6), c2, d2,
/// e2 (e4 11, e3 12), f2, Ng1 (f3 15, h3 16), g2, h2: 20 moves.
#[test]
fn pawns_and_knights_from_the_start() {
    assert_eq!(number(START, "a4"), 1);
    assert_eq!(number(START, "Na3"), 3);
    assert_eq!(number(START, "Nc3"), 4);
    assert_eq!(number(START, "e4"), 11);
    assert_eq!(number(START, "Nf3"), 15);
    assert_eq!(number(START, "h3"), 20);
    assert_eq!(super::movegen::candidates(&pos(START)).len(), 20);
}

/// Black after 1. e4: a7 (1, 2), b7 (3, 4), Nb8 (a6 5, c6 6), c7, d7, e7
/// (e5 11).
#[test]
fn black_counts_the_same_way() {
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert_eq!(number(fen, "Nc6"), 6);
    assert_eq!(number(fen, "e5"), 11);
}

/// King on d4: c3 c4 c5 d3 d5 e3 e4 e5 (the document's 1..8).
#[test]
fn king_order() {
    let fen = "8/8/8/8/3K4/8/8/k7 w - - 0 1";
    for (i, san) in ["Kc3", "Kc4", "Kc5", "Kd3", "Kd5", "Ke3", "Ke4", "Ke5"]
        .iter()
        .enumerate()
    {
        assert_eq!(number(fen, san), i + 1, "{san}");
    }
}

/// Queen on d4 (after the a1 king's three): bishop runs left-down (c3 b2),
/// right-down (e3 f2 g1), right-up (e5..h8), left-up (c5 b6 a7), then rook
/// runs left (c4..a4), down (d3..d1), right (e4..h4), up (d5..d8).
#[test]
fn queen_is_bishop_then_rook() {
    let fen = "k7/8/8/8/3Q4/8/8/K7 w - - 0 1";
    assert_eq!(number(fen, "Qc3"), 4);
    assert_eq!(number(fen, "Qg1"), 8);
    assert_eq!(number(fen, "Qh8+"), 12);
    assert_eq!(number(fen, "Qa7+"), 15);
    assert_eq!(number(fen, "Qa4+"), 18);
    assert_eq!(number(fen, "Qd1"), 21);
    assert_eq!(number(fen, "Qh4"), 25);
    assert_eq!(number(fen, "Qd8+"), 29);
}

/// Rook a1: right b1 c1 d1, up a2..a8 (capture); king e1: d1 d2 e2 f1 f2,
/// then 0-0, then 0-0-0.
#[test]
fn rook_runs_and_castling() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(number(fen, "Rb1"), 1);
    assert_eq!(number(fen, "Rd1"), 3);
    assert_eq!(number(fen, "Rxa8+"), 10);
    assert_eq!(number(fen, "Kd1"), 11);
    assert_eq!(number(fen, "Kf2"), 15);
    assert_eq!(number(fen, "O-O"), 16);
    assert_eq!(number(fen, "O-O-O"), 17);
}

/// Bishop c1 (rook a1 and king b... none): left-down none, right-down none,
/// right-up d2 e3 f4 g5 h6, left-up b2 a3.
#[test]
fn bishop_runs() {
    let fen = "7k/8/8/8/8/8/8/2B4K w - - 0 1";
    assert_eq!(number(fen, "Bd2"), 1);
    assert_eq!(number(fen, "Bh6"), 5);
    assert_eq!(number(fen, "Bb2+"), 6);
    assert_eq!(number(fen, "Ba3"), 7);
}

/// Pawn a7 promotes (after the a1 king's a2 b1 b2): =Q =R =B =N.
#[test]
fn promotions() {
    let fen = "8/P7/8/8/8/8/8/K6k w - - 0 1";
    assert_eq!(number(fen, "a8=Q"), 4);
    assert_eq!(number(fen, "a8=R"), 5);
    assert_eq!(number(fen, "a8=B"), 6);
    assert_eq!(number(fen, "a8=N"), 7);
}

/// King e1 (d1 d2 e2 f1 f2), then the e5 pawn: e6, then exd6 e.p.
#[test]
fn en_passant() {
    let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
    assert_eq!(number(fen, "e6"), 6);
    assert_eq!(number(fen, "exd6"), 7);
}

#[test]
fn a_number_that_is_not_a_legal_move_is_refused() {
    // Rook a1 pinned? No: numbers past the list and moves into check.
    assert!(move_of_number(&pos(START), 21).is_err());
    // King d4 next to a rook on e8's file: Ke4 (7) walks into check.
    let p = pos("4r3/8/8/8/3K4/8/8/k7 w - - 0 1");
    assert!(move_of_number(&p, 7).is_err());
    assert!(move_of_number(&p, 1).is_ok());
}

fn line(start: &Chess, sans: &[&str]) -> Vec<Ply> {
    let mut p = start.clone();
    sans.iter()
        .map(|s| {
            let m = s.parse::<San>().unwrap().to_move(&p).unwrap();
            p.play_unchecked(m);
            Ply {
                mv: m,
                comment: None,
                variations: Vec::new(),
            }
        })
        .collect()
}

fn sample() -> CbGame {
    let start = Chess::default();
    let mut moves = line(&start, &["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    moves[1].comment = Some(Comment {
        move_eval: 1,
        pos_eval: 10,
        extra: 0,
        text: "The classical reply.\nSee K and Q".into(),
    });
    let after_e4 = {
        let mut p = start.clone();
        p.play_unchecked(moves[0].mv);
        p
    };
    let mut sicilian = line(&after_e4, &["c5", "Nf3", "d6"]);
    let mut after_c5 = after_e4.clone();
    after_c5.play_unchecked(sicilian[0].mv);
    sicilian[1].variations.push(line(&after_c5, &["c3"]));
    sicilian[2].comment = Some(Comment {
        text: "Najdorf next".into(),
        ..Comment::default()
    });
    moves[1].variations.push(sicilian);
    moves[1].variations.push(line(&after_e4, &["e6"]));
    CbGame {
        white: "Fischer, R".into(),
        black: "Spassky, B".into(),
        source: "Reykjavik".into(),
        year: Some(1972),
        result: CbResult::Draw,
        white_elo: Some(2785),
        black_elo: Some(2660),
        eco: Some("C65".into()),
        eco_sub: 7,
        marked: true,
        deleted: false,
        start: None,
        moves,
    }
}

fn round_trip(g: &CbGame) -> CbGame {
    let bytes = encode_record(g).unwrap();
    let raw: [u8; HEADER_LEN] = bytes[..HEADER_LEN].try_into().unwrap();
    assert_eq!(record_len(&raw).unwrap(), bytes.len());
    decode_record(&bytes).unwrap()
}

#[test]
fn a_game_with_variations_and_comments_comes_back_whole() {
    let g = sample();
    assert_eq!(round_trip(&g), g);
}

#[test]
fn results_years_and_no_eco() {
    for (result, year) in [
        (CbResult::WhiteWins, Some(1871)),
        (CbResult::BlackWins, None),
        (CbResult::Unknown, Some(2026)),
        (CbResult::Other(14), Some(1900)),
    ] {
        let g = CbGame {
            result,
            year,
            eco: None,
            eco_sub: 0,
            ..sample()
        };
        assert_eq!(round_trip(&g), g);
    }
}

/// The document's starting position example (2.6), byte for byte.
#[test]
fn the_documents_starting_position() {
    let g = CbGame {
        start: Some("kqrbn3/p7/8/8/8/8/P7/KQRBN3 w - - 0 55".into()),
        ..CbGame::default()
    };
    let bytes = encode_record(&g).unwrap();
    let position = &bytes[bytes.len() - 33..];
    let expected: [u8; 33] = [
        0x12, 0x54, 0x30, 0x00, 0x60, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0xE0, 0, 0, 0, 0x9A, 0xDC, 0xB0, 0x00, 54,
    ];
    assert_eq!(position, expected);
    assert_eq!(round_trip(&g), g);
}

#[test]
fn a_set_up_position_with_black_to_move_castling_and_en_passant() {
    let fen = "r3k2r/8/8/8/3pP3/8/8/R3K2R b Kq e3 0 30";
    let start = pos(fen);
    let g = CbGame {
        start: Some(fen.into()),
        moves: line(&start, &["dxe3", "O-O"]),
        ..CbGame::default()
    };
    assert_eq!(round_trip(&g), g);
}

#[test]
fn bad_records_say_what_and_where() {
    let bytes = encode_record(&sample()).unwrap();
    let cut = decode_record(&bytes[..bytes.len() - 3]).unwrap_err();
    assert!(
        matches!(cut.fault, CbFault::TruncatedRecord { .. }),
        "{cut}"
    );
    assert!(cut.to_string().contains("truncated record"), "{cut}");
    let short = decode_record(&bytes[..5]).unwrap_err();
    assert!(
        matches!(short.fault, CbFault::TruncatedHeader { .. }),
        "{short}"
    );
    assert!(short.to_string().contains("truncated header"), "{short}");
    // Change the first move byte (not coded) to 21: not a move at the start.
    let mut bad = bytes.clone();
    let moves_at = HEADER_LEN + "Fischer, R-Spassky, B".len() + "Reykjavik".len();
    bad[moves_at] = 21;
    let e = decode_record(&bad).unwrap_err();
    assert_eq!(e.offset, moves_at, "{e}");
    assert!(matches!(e.fault, CbFault::Move(_)), "{e}");
    assert!(e.to_string().contains("move number 21"), "{e}");
}

#[test]
fn overlong_nesting_is_refused_by_the_writer() {
    let start = Chess::default();
    let mut inner = line(&start, &["d4"]);
    for _ in 0..MAX_DEPTH + 1 {
        let mut outer = line(&start, &["e4"]);
        outer[0].variations.push(inner);
        inner = outer;
    }
    let g = CbGame {
        moves: inner,
        ..CbGame::default()
    };
    assert_eq!(encode_record(&g).unwrap_err(), EncodeError::TooDeep);
}

/// A random legal game with random variations and comments.
fn random_line(p: &Chess, seed: &mut u64, len: usize, depth: usize) -> Vec<Ply> {
    let mut p = p.clone();
    let mut out: Vec<Ply> = Vec::new();
    for _ in 0..len {
        let legal = p.legal_moves();
        if legal.is_empty() {
            break;
        }
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let r = (*seed >> 33) as usize;
        let m = legal[r % legal.len()];
        let variations = if depth < 3 && r.is_multiple_of(5) {
            vec![random_line(&p, seed, r % 6 + 1, depth + 1)]
        } else {
            Vec::new()
        };
        let comment = (r.is_multiple_of(7)).then(|| Comment {
            move_eval: (r % 3) as u8,
            pos_eval: 0,
            extra: 0,
            text: format!("note {r}"),
        });
        p.play_unchecked(m);
        out.push(Ply {
            mv: m,
            comment,
            variations,
        });
    }
    out
}

proptest! {
    #[test]
    fn random_games_round_trip(seed in any::<u64>(), len in 0usize..120) {
        let mut s = seed;
        let g = CbGame {
            white: "A".into(),
            black: "B".into(),
            moves: random_line(&Chess::default(), &mut s, len, 0),
            ..CbGame::default()
        };
        prop_assert_eq!(round_trip(&g), g);
    }

    #[test]
    fn any_bytes_decode_without_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = decode_record(&bytes);
        let _ = super::fbk::read_book(&bytes);
    }
}
