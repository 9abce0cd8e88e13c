//! Fuzzing the places where outside bytes enter argus: the EPD parser
//! ([`Record::parse`]), the line framer ([`Framer::push`]) and the
//! ChessBase decoders (CBF records, a base through its CBI index, FBK
//! books). Inputs come from a seeded generator (random bytes, printable
//! text, and valid records damaged the way a noisy line damages them:
//! flipped bits, lost, doubled and inserted bytes, cut lines). Nothing may panic, and memory must stay bounded: the framer's
//! pending line, what a decoder makes of a few bytes.
//!
//! `ARGUS_FUZZ_CASES` sets the number of inputs per target (default 200,000,
//! which takes a few seconds; an input is a record for the parser, a chunk
//! for the framer, a record, base or book for the decoders);
//! `ARGUS_FUZZ_SEED` the seed (default 1).
//! `scripts/fuzz.sh` runs 10 million each in release mode. A failing case
//! prints its seed, its number and the input.
//!
//! The referee core has its fuzzer beside its other tests, on fake time:
//! src/referee/tests/simulation/fuzz.rs.

use std::panic::{AssertUnwindSafe, catch_unwind};

use argus::chessbase::Ply;
use argus::chessbase::base::BaseReader;
use argus::chessbase::fbk::read_book;
use argus::chessbase::index::encode_index;
use argus::chessbase::pgn::from_pgn;
use argus::chessbase::record::{decode_record, encode_record};
use argus::epd::Record;
use argus::game::{self};
use argus::link::{Frame, Framer};
use argus::record::pgn_read::{PgnText, read_pgn_games};
use shakmaty::{Chess, Position};

fn cases() -> u64 {
    std::env::var("ARGUS_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000)
}

fn seed() -> u64 {
    std::env::var("ARGUS_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
}

/// Valid records of the kinds that cross the line.
const CORPUS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - refreq sign_on; tcsi \"\" \"alpha 1.0\";",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - refcom respond; cc 600000 600000;",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 refreq reply; sm e5; hmvc 0; fmvn 1;",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - refcom respond; sm e4; draw_offer;",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - refreq reply; sm O-O; draw_claim;",
    "4k3/8/8/8/8/8/8/4K3 w - - refcom conclude; pfdn \"mate\"; ce 32767;",
    "8/P7/8/8/8/8/8/k6K w - - refreq reply; sm a8=Q+; c0 \"a \\\"quoted\\\" comment\";",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - refcom inform; tcgs \"3\"; tcri \"argus\" \"1.0\"; tcsi \"b\" \"beta\";",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - refcom execute; sm Nf3; id \"x\"; bm e4 d4; pv e4 e5 Nf3;",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - refreq fault; refreq sign_off; resign;",
];

/// Bytes a damaged record often gains.
const SPICE: &[u8] = b" ;\"/\\-0123456789abcdefghKQRBNPkqrbnpwx+#=\t\r\n\0\x7f\xff";

/// One input for the parser or framer.
fn input(rng: &mut fastrand::Rng) -> Vec<u8> {
    match rng.u8(0..10) {
        0 => (0..rng.usize(0..300)).map(|_| rng.u8(..)).collect(),
        1 => (0..rng.usize(0..300))
            .map(|_| SPICE[rng.usize(..SPICE.len())])
            .collect(),
        2 => (0..rng.usize(0..200)).map(|_| rng.u8(0x20..0x7f)).collect(),
        _ => {
            let valid = CORPUS[rng.usize(..CORPUS.len())];
            mutate(rng, valid.as_bytes())
        }
    }
}

/// A valid record damaged a few times, as a noisy line would.
fn mutate(rng: &mut fastrand::Rng, valid: &[u8]) -> Vec<u8> {
    let mut v = valid.to_vec();
    for _ in 0..rng.usize(1..5) {
        if v.is_empty() {
            v.push(rng.u8(..));
            continue;
        }
        let i = rng.usize(..v.len());
        match rng.u8(0..7) {
            0 | 1 => v[i] ^= 1 << rng.u8(0..8),
            2 => {
                v.remove(i);
            }
            3 => v.insert(i, SPICE[rng.usize(..SPICE.len())]),
            4 => v.truncate(i),
            5 => {
                let j = rng.usize(i..v.len());
                let piece = v[i..j].to_vec();
                v.splice(j..j, piece);
            }
            _ => v[i] = rng.u8(..),
        }
    }
    v
}

/// Runs `cases()` inputs through `target`; a panic is reported with the
/// seed, the case number and the input, then re-raised.
fn fuzz<I: std::fmt::Debug>(
    name: &str,
    make: impl Fn(&mut fastrand::Rng) -> I,
    target: impl Fn(&I) -> u64,
) {
    let (n, seed) = (cases(), seed());
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut inputs = 0u64;
    let started = std::time::Instant::now();
    let mut case = 0u64;
    while inputs < n {
        case += 1;
        let i = make(&mut rng);
        match catch_unwind(AssertUnwindSafe(|| target(&i))) {
            Ok(k) => inputs += k,
            Err(e) => {
                eprintln!("FUZZ {name}: seed {seed}, case {case} failed on input:\n{i:?}");
                std::panic::resume_unwind(e);
            }
        }
    }
    println!(
        "FUZZ {name}: seed {seed}, {case} cases, {inputs} inputs, {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn epd_parser_takes_any_bytes() {
    fuzz("epd", input, |b| {
        let r = Record::parse_bytes(b);
        let text = String::from_utf8_lossy(b);
        let s = Record::parse(&text);
        for r in [r, s].into_iter().flatten() {
            let _ = (r.refreq(), r.refcom(), r.sm());
            // What argus writes, it reads back the same.
            let canon = r.to_canonical();
            let again = Record::parse(&canon)
                .unwrap_or_else(|e| panic!("canonical form {canon:?} does not parse: {e}"));
            assert_eq!(again.to_canonical(), canon);
            let _ = game::position_from_fields(&r.fields, None, None);
        }
        1
    });
}

#[test]
fn framer_takes_any_chunks() {
    fuzz(
        "framer",
        |rng| {
            let cap = if rng.bool() { 4096 } else { rng.usize(1..200) };
            let chunks: Vec<Vec<u8>> = (0..rng.usize(1..12)).map(|_| input(rng)).collect();
            (cap, chunks)
        },
        |(cap, chunks)| {
            let mut f = Framer::with_cap(*cap);
            let mut pushed = 0;
            for (t, c) in chunks.iter().enumerate() {
                for frame in f.push(c, t) {
                    match frame {
                        Frame::Line { text, raw, .. } => {
                            assert!(text.len() <= *cap, "line over the cap");
                            assert!(raw.len() <= *cap + 2, "raw over the cap");
                        }
                        Frame::Dropped { raw, .. } => assert!(raw.len() <= *cap + 2),
                    }
                }
                pushed += 1;
            }
            // The unfinished line is counted, but at most `cap` bytes of it
            // are kept.
            let pending = f.pending_len();
            match f.abandon(0, "fuzz") {
                Some(Frame::Dropped { raw, len, .. }) => {
                    assert_eq!(len, pending);
                    assert!(raw.len() <= *cap, "{} bytes kept, cap {cap}", raw.len());
                }
                Some(other) => panic!("abandon gave {other:?}"),
                None => assert_eq!(pending, 0),
            }
            assert_eq!(f.pending_len(), 0);
            pushed
        },
    );
}

/// ChessBase games with variations, comments, NAGs, a starting position.
const CHESSBASE_PGN: &str = "[Event \"Hastings\"]\n[White \"Pillsbury, H\"]\n\
    [Black \"Tarrasch, S\"]\n[Date \"1895\"]\n[WhiteElo \"2600\"]\n[ECO \"D63\"]\n[Result \"0-1\"]\n\n\
    1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. Nf3 Nbd7 6. Rc1 O-O 7. e3 b6 $6 {Loses time}\n\
    (7... c5 $1 $14 {Better} 8. dxc5 (8. Qa4 a6 (8... Qc7 $146) 9. Qb3) 8... Nxc5)\n\
    8. cxd5 exd5 9. Qa4 c5 10. Qc6 Rb8 0-1\n\n\
    [White \"A\"]\n[Black \"B\"]\n[SetUp \"1\"]\n[FEN \"4k3/1P6/8/3pP3/8/8/6p1/R3K2R w KQ d6 0 50\"]\n\n\
    50. exd6 $1 (50. b8=N {under} g1=Q+ 51. Rxg1) (50. O-O-O g1=Q 51. Rhxg1) 50... g1=R+\n\
    51. Rxg1 Kd7 52. b8=Q 1-0\n\n\
    [White \"C\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 *\n";

/// The main lines of [`CHESSBASE_PGN`]'s games from the initial position
/// as FBK books: from and to squares, bit 6 going on with the line, bit 7
/// ending it, and a weak last move.
fn fbk_of(games: &[PgnText]) -> Vec<u8> {
    let mut out = Vec::new();
    for g in games.iter().filter(|g| g.tag("FEN").is_none()) {
        let mut pos = Chess::default();
        for (i, san) in g.sans.iter().enumerate() {
            let m = game::parse_san(&pos, san).unwrap();
            let to = match m {
                shakmaty::Move::Castle { king, rook } => {
                    let file = if rook.file() > king.file() { 6 } else { 2 };
                    u32::from(king.rank()) * 8 + file
                }
                m => m.to() as u32,
            };
            let go_on = if i > 0 { 0x40 } else { 0 };
            let end = if i + 1 == g.sans.len() { 0x80 } else { 0 };
            let weak = if i + 1 == g.sans.len() { 0x80 } else { 0 };
            out.push(m.from().unwrap() as u8 | go_on | end);
            out.push(to as u8 | weak);
            pos.play_unchecked(m);
        }
    }
    out
}

/// Number of moves in a CBF line and its variations.
fn plies(line: &[Ply]) -> usize {
    line.iter()
        .map(|p| 1 + p.variations.iter().map(|v| plies(v)).sum::<usize>())
        .sum()
}

#[test]
fn chessbase_decoders_take_any_bytes() {
    let games = read_pgn_games(CHESSBASE_PGN).unwrap();
    let records: Vec<Vec<u8>> = games
        .iter()
        .map(|g| encode_record(&from_pgn(g).game.unwrap()).unwrap())
        .collect();
    let book = fbk_of(&games);
    // A case is one record, one base (an index and a games file) or one
    // book; each counts as one input.
    fuzz(
        "chessbase",
        |rng| {
            let kind = rng.u8(0..3);
            let valid = match kind {
                0 => records[rng.usize(..records.len())].clone(),
                1 => {
                    let cbf = records.concat();
                    let mut offsets = vec![0u32];
                    for r in &records[..records.len() - 1] {
                        offsets.push(offsets.last().unwrap() + r.len() as u32);
                    }
                    let mut base = encode_index(&offsets, cbf.len() as u32);
                    base.extend(cbf);
                    base
                }
                _ => book.clone(),
            };
            let bytes = match rng.u8(0..8) {
                0 => (0..rng.usize(0..300)).map(|_| rng.u8(..)).collect(),
                _ => mutate(rng, &valid),
            };
            (kind, bytes)
        },
        |(kind, bytes)| {
            let n = bytes.len();
            match kind {
                0 => {
                    if let Ok(g) = decode_record(bytes) {
                        assert!(
                            plies(&g.moves) <= n,
                            "{} moves from {n} bytes",
                            plies(&g.moves)
                        );
                        assert!(g.white.len() + g.black.len() + g.source.len() <= 4 * n);
                        // What argus reads, it writes back the same.
                        if let Ok(again) = encode_record(&g) {
                            assert_eq!(decode_record(&again).as_ref(), Ok(&g));
                        }
                    }
                }
                1 => {
                    // The index is the first 20 bytes (four entries and a
                    // count), or less when the input is shorter.
                    let cut = n.min(20);
                    let cbf = bytes[cut..].to_vec();
                    let len = cbf.len() as u64;
                    if let Ok(reader) =
                        BaseReader::new(bytes[..cut].to_vec(), std::io::Cursor::new(cbf), len)
                    {
                        assert!(reader.count() <= cut / 4);
                    }
                }
                _ => {
                    let (lines, errors) = read_book(bytes);
                    let moves: usize = lines.iter().map(|l| l.moves.len()).sum();
                    assert!(moves <= n / 2, "{moves} moves from {n} bytes");
                    assert!(lines.len() + errors.len() <= n / 2 + 1);
                }
            }
            1
        },
    );
}
