//! The rules a game is played by: standard chess or Chess960 ([`Variant`]),
//! and the Chess960 start positions by their Scharnagl number
//! ([`chess960_start`], [`double_chess960_start`]).
//!
//! A position remembers its variant: `shakmaty` keeps the castling mode in
//! the position's castling rights, so [`Variant::of`] reads it back and the
//! code that writes a move or a position needs no variant of its own.

use std::fmt;
use std::str::FromStr;

use shakmaty::{
    Bitboard, Board, ByColor, CastlingMode, Chess, Color, File, FromSetup, Piece, Position, Rank,
    Role, Setup, Square,
};

/// The number of Chess960 start positions (Scharnagl numbers `0..960`).
pub const CHESS960_POSITIONS: u16 = 960;

/// The Scharnagl number of the standard start position.
pub const STANDARD_NUMBER: u16 = 518;

/// The rules of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Standard chess (FIDE Laws).
    #[default]
    Standard,
    /// Chess960 (Fischer random chess): the pieces of the back rank in any
    /// of 960 arrangements, castling by the Chess960 rules (FIDE Laws,
    /// Guidelines III): the king and the rook end on the squares they would
    /// reach in standard chess, whatever squares they started on.
    Chess960,
}

impl Variant {
    /// Every variant, in the order `--help` lists them.
    pub const ALL: [Variant; 2] = [Variant::Standard, Variant::Chess960];

    /// The name argus writes (journal, `--variant`, the `inform` record):
    /// `standard` or `chess960`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Chess960 => "chess960",
        }
    }

    /// The PGN `Variant` tag's value (`Chess960`, as lichess, cutechess and
    /// python-chess write it), `None` for standard chess (no tag).
    pub fn pgn_tag(self) -> Option<&'static str> {
        match self {
            Variant::Standard => None,
            Variant::Chess960 => Some("Chess960"),
        }
    }

    /// `shakmaty`'s castling mode for these rules.
    pub fn castling_mode(self) -> CastlingMode {
        match self {
            Variant::Standard => CastlingMode::Standard,
            Variant::Chess960 => CastlingMode::Chess960,
        }
    }

    /// The variant a position was set up in.
    pub fn of(pos: &Chess) -> Variant {
        match pos.castles().mode() {
            CastlingMode::Standard => Variant::Standard,
            CastlingMode::Chess960 => Variant::Chess960,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// `standard` (also `normal`, `chess`), `chess960` (also `fischerandom`
    /// as cutechess-cli and XBoard spell it, `frc`, `960`), any case.
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        match s.trim().to_ascii_lowercase().as_str() {
            "standard" | "normal" | "chess" => Ok(Variant::Standard),
            "chess960" | "fischerandom" | "frc" | "960" => Ok(Variant::Chess960),
            _ => Err(UnknownVariant(crate::text::strip_control(s))),
        }
    }
}

/// A variant name argus does not play (as given, control characters
/// removed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant {0:?}: expected standard or chess960 (also fischerandom)")]
pub struct UnknownVariant(pub String);

error_words!(UnknownVariant);

/// `pos` set up again by the rules of `variant` (the same pieces, side,
/// castling rooks, en passant square and counters): `None` when those
/// rules do not allow it (a Chess960 position's castling in standard
/// chess).
pub fn in_variant(pos: &Chess, variant: Variant) -> Option<Chess> {
    if Variant::of(pos) == variant {
        return Some(pos.clone());
    }
    let setup = pos.to_setup(shakmaty::EnPassantMode::Always);
    Chess::from_setup(setup, variant.castling_mode()).ok()
}

/// The back rank (files a to h) of Chess960 start position `n`, by
/// Scharnagl's numbering: `None` when `n` is not below 960.
///
/// Number 518 is the standard position `RNBQKBNR`, 0 is `BBQNNRKR`.
pub fn chess960_back_rank(n: u16) -> Option<[Role; 8]> {
    if n >= CHESS960_POSITIONS {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let n = usize::from(n);
    // The light-squared bishop on b, d, f or h; the dark one on a, c, e, g.
    rank[(n % 4) * 2 + 1] = Some(Role::Bishop);
    rank[((n / 4) % 4) * 2] = Some(Role::Bishop);
    let rest = n / 16;
    place_on_empty(&mut rank, rest % 6, Role::Queen);
    // The knights on two of the five squares left, in the table's order
    // (0: the first two, ..., 9: the last two).
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (first, second) = KNIGHTS[rest / 6];
    // The second index counts the first knight's square, still empty when
    // the first is placed: place the later one first.
    place_on_empty(&mut rank, second, Role::Knight);
    place_on_empty(&mut rank, first, Role::Knight);
    // Rook, king, rook on the three squares left.
    for role in [Role::Rook, Role::King, Role::Rook] {
        place_on_empty(&mut rank, 0, role);
    }
    let mut out = [Role::Pawn; 8];
    for (o, r) in out.iter_mut().zip(rank) {
        *o = r?;
    }
    Some(out)
}

/// Puts `role` on the `index`-th empty square of `rank` (counted from 0).
fn place_on_empty(rank: &mut [Option<Role>; 8], index: usize, role: Role) {
    if let Some(slot) = rank.iter_mut().filter(|s| s.is_none()).nth(index) {
        *slot = Some(role);
    }
}

/// Chess960 start position `n` (Scharnagl's numbering, `0..960`), both
/// sides with the same back rank, castling rights on all four rooks.
pub fn chess960_start(n: u16) -> Option<Chess> {
    double_chess960_start(n, n)
}

/// A double Chess960 start position: White's back rank is position
/// `white`, Black's position `black` (each `0..960`), every rook with its
/// castling right.
pub fn double_chess960_start(white: u16, black: u16) -> Option<Chess> {
    let ranks = ByColor {
        white: chess960_back_rank(white)?,
        black: chess960_back_rank(black)?,
    };
    let mut board = Board::empty();
    let mut rights = Bitboard::EMPTY;
    for color in Color::ALL {
        let back = color.backrank();
        let pawns = color.fold_wb(Rank::Second, Rank::Seventh);
        for (file, role) in File::ALL.into_iter().zip(*ranks.get(color)) {
            let sq = Square::from_coords(file, back);
            board.set_piece_at(sq, Piece { color, role });
            board.set_piece_at(Square::from_coords(file, pawns), color.pawn());
            if role == Role::Rook {
                rights.add(sq);
            }
        }
    }
    let mut setup = Setup::empty();
    setup.board = board;
    setup.castling_rights = rights;
    Chess::from_setup(setup, CastlingMode::Chess960).ok()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use shakmaty::{CastlingSide, Move};

    use super::*;
    use crate::epd::Fields;
    use crate::game::{
        Game, castling_text, fen_of, fields_of, parse_san, position_from_fen_in,
        position_from_fields_in, san_of,
    };

    fn rank_text(n: u16) -> String {
        chess960_back_rank(n)
            .unwrap()
            .iter()
            .map(|r| r.upper_char())
            .collect()
    }

    fn pos960(fen: &str) -> Chess {
        position_from_fen_in(fen, Variant::Chess960).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// The castling move `side` for the side to move, played: the FEN after
    /// it, its SAN and its UCI (king takes rook).
    fn castle(fen: &str, side: CastlingSide) -> (String, String, String) {
        let pos = pos960(fen);
        let m = *pos
            .castling_moves(side)
            .first()
            .unwrap_or_else(|| panic!("{fen}: no {side:?} castling"));
        let san = san_of(&pos, &m);
        let uci = m.to_uci(Variant::of(&pos).castling_mode()).to_string();
        let mut after = pos;
        after.play_unchecked(m);
        (fen_of(&after), san, uci)
    }

    #[test]
    fn start_positions_by_scharnagl_number() {
        // Numbers and back ranks as python-chess's from_chess960_pos gives
        // them (Scharnagl's table).
        for (n, rank) in [
            (0, "BBQNNRKR"),
            (1, "BQNBNRKR"),
            (2, "BQNNRBKR"),
            (100, "QBBNRNKR"),
            (300, "QBNRKRBN"),
            (518, "RNBQKBNR"),
            (700, "RBQKNNBR"),
            (959, "RKRNNQBB"),
        ] {
            assert_eq!(rank_text(n), rank, "position {n}");
        }
        assert_eq!(chess960_back_rank(960), None);
        assert_eq!(chess960_start(960), None);
        // 518 is the standard position, with all four castling rights.
        let standard = chess960_start(STANDARD_NUMBER).unwrap();
        assert_eq!(
            fen_of(&standard),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(Variant::of(&standard), Variant::Chess960);
    }

    #[test]
    fn all_960_start_positions_differ_and_keep_the_rules() {
        let mut seen = HashSet::new();
        for n in 0..CHESS960_POSITIONS {
            let rank = chess960_back_rank(n).unwrap();
            assert!(seen.insert(rank), "position {n} repeats");
            let at = |role: Role| -> Vec<usize> {
                (0..8).filter(|i| rank[*i] == role).collect::<Vec<_>>()
            };
            let (bishops, rooks, king) = (at(Role::Bishop), at(Role::Rook), at(Role::King));
            assert_eq!(bishops.len(), 2, "{n}");
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}: bishops on one colour");
            assert!(
                rooks[0] < king[0] && king[0] < rooks[1],
                "{n}: king not between"
            );
            assert_eq!(at(Role::Knight).len(), 2, "{n}");
            assert_eq!(at(Role::Queen).len(), 1, "{n}");
            let pos = chess960_start(n).unwrap();
            assert_eq!(fields_of(&pos).castling, "KQkq", "{n}");
            // Pawns and knights move; castling only where the king and a
            // rook stand side by side on their goals' squares (e.g. king
            // f1, rook g1: they swap).
            let moves = pos.legal_moves();
            let castles = moves.iter().filter(|m| m.is_castle()).count();
            assert_eq!(moves.len() - castles, 16 + knight_moves(&rank), "{n}");
        }
        assert_eq!(seen.len(), 960);
    }

    /// The knights' moves to the third rank: two each, one from a corner.
    fn knight_moves(rank: &[Role; 8]) -> usize {
        (0..8)
            .filter(|i| rank[*i] == Role::Knight)
            .map(|i| usize::from(i > 0) + usize::from(i < 7))
            .sum::<usize>()
    }

    #[test]
    fn double_chess960_gives_each_side_its_own_rank() {
        let pos = double_chess960_start(0, 959).unwrap();
        assert_eq!(
            fen_of(&pos),
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
        );
        assert_eq!(double_chess960_start(0, 960), None);
    }

    #[test]
    fn castling_in_every_form() {
        use CastlingSide::{KingSide, QueenSide};
        let cases = [
            // The standard position: the king moves two squares.
            (
                "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
                KingSide,
                "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1",
                "O-O",
                "e1h1",
            ),
            // The king on g1 does not move; the rook jumps to f1.
            (
                "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w KQkq - 0 1",
                KingSide,
                "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b kq - 1 1",
                "O-O",
                "g1h1",
            ),
            // King f1, rook g1: the rook's square is the king's goal, the
            // king's square the rook's (they swap).
            (
                "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w KQkq - 0 1",
                KingSide,
                "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b kq - 1 1",
                "O-O",
                "f1g1",
            ),
            // King b1 passes through its rook's neighbour squares to g1.
            (
                "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1",
                KingSide,
                "rk5r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1",
                "O-O",
                "b1h1",
            ),
            // Queenside with the king on b1: the king moves right, to c1.
            (
                "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1",
                QueenSide,
                "rk5r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1",
                "O-O-O",
                "b1a1",
            ),
            // King c1 stays; the rook from a1 jumps over to d1.
            (
                "r1k4r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R w KQkq - 0 1",
                QueenSide,
                "r1k4r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1",
                "O-O-O",
                "c1a1",
            ),
            // King d1, rook c1: they swap.
            (
                "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/2RK3R w KQkq - 0 1",
                QueenSide,
                "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1",
                "O-O-O",
                "d1c1",
            ),
            // King e1, rook f1: the king passes through the rook's square.
            (
                "r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w KQkq - 0 1",
                KingSide,
                "r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1",
                "O-O",
                "e1f1",
            ),
            // Black, king on b8 castling short across the board.
            (
                "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R b KQkq - 0 1",
                KingSide,
                "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQ - 1 2",
                "O-O",
                "b8h8",
            ),
        ];
        for (fen, side, after, san, uci) in cases {
            let (got_after, got_san, got_uci) = castle(fen, side);
            assert_eq!(got_after, after, "{fen} {side:?}");
            assert_eq!(got_san, san, "{fen} {side:?}");
            assert_eq!(got_uci, uci, "{fen} {side:?}");
            // SAN in, both spellings, and UCI in (king takes rook) give
            // the same move.
            let pos = pos960(fen);
            let by_san = parse_san(&pos, san).unwrap();
            let zeros = parse_san(&pos, &san.replace('O', "0")).unwrap();
            let by_uci = uci
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&pos)
                .unwrap();
            assert_eq!(by_san, by_uci, "{fen}");
            assert_eq!(zeros, by_uci, "{fen}");
            assert!(matches!(by_uci, Move::Castle { .. }), "{fen}");
        }
    }

    #[test]
    fn castling_is_refused_through_an_attacked_square_or_a_piece() {
        // King b1 to g1 would cross e1, attacked by the rook on e8.
        let pos = pos960("rk2r3/8/8/8/8/8/8/RK5R w KQ - 0 1");
        assert!(pos.castling_moves(CastlingSide::KingSide).is_empty());
        assert_eq!(pos.castling_moves(CastlingSide::QueenSide).len(), 1);
        // A knight on f1 stands on the rook's goal.
        let pos = pos960("rk5r/8/8/8/8/8/8/RK3N1R w KQ - 0 1");
        assert!(pos.castling_moves(CastlingSide::KingSide).is_empty());
        assert!(parse_san(&pos, "O-O").is_err());
    }

    #[test]
    fn a_standard_game_keeps_standard_castling() {
        // e1g1 is castling in standard chess and king-takes-rook in UCI for
        // Chess960; the standard position's variant stays standard.
        let mut g = Game::new(Chess::default());
        for san in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"] {
            g.play_san(san).unwrap();
        }
        let m = *g.moves().last().unwrap();
        assert_eq!(
            m.to_uci(Variant::of(g.start()).castling_mode()).to_string(),
            "e1g1"
        );
        let pos = chess960_start(STANDARD_NUMBER).unwrap();
        let mut g = Game::new(pos);
        for san in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"] {
            g.play_san(san).unwrap();
        }
        let m = *g.moves().last().unwrap();
        assert_eq!(
            m.to_uci(Variant::of(g.start()).castling_mode()).to_string(),
            "e1h1"
        );
    }

    #[test]
    fn x_fen_and_shredder_fen_are_read_and_x_fen_written() {
        let fields = |castling: &str| Fields {
            placement: "1r2k1r1/pppppppp/8/8/8/8/PPPPPPP1/RR2K2R".into(),
            side: "w".into(),
            castling: castling.into(),
            en_passant: "-".into(),
        };
        // The white rook on b1 is not the outermost (a1 is), so X-FEN names
        // it by file; Black's b8 and g8 are outermost.
        for given in ["KBkq", "HBgb", "BHbg", "KBgb", "HBkq"] {
            let pos = position_from_fields_in(&fields(given), None, None, Variant::Chess960)
                .unwrap_or_else(|e| panic!("{given}: {e}"));
            assert_eq!(castling_text(&pos), "KBkq", "{given}");
            assert_eq!(fields_of(&pos), fields("KBkq"), "{given}");
            // Written, read again: the same position.
            let again = position_from_fen_in(&fen_of(&pos), Variant::Chess960).unwrap();
            assert_eq!(again, pos);
        }
        // Every start position round-trips through its FEN, in both
        // spellings.
        for n in [0, 1, 300, 518, 959] {
            let pos = chess960_start(n).unwrap();
            let fen = fen_of(&pos);
            assert_eq!(position_from_fen_in(&fen, Variant::Chess960).unwrap(), pos);
            let rank = fen.split('/').next_back().unwrap();
            let files: Vec<char> = rank
                .chars()
                .take(8)
                .enumerate()
                .filter(|(_, c)| *c == 'R')
                .map(|(i, _)| (b'A' + i as u8) as char)
                .collect();
            let shredder = format!(
                "{}{}{}{}",
                files[1],
                files[0],
                files[1].to_ascii_lowercase(),
                files[0].to_ascii_lowercase()
            );
            let shredder_fen = fen.replace(" KQkq ", &format!(" {shredder} "));
            assert_eq!(
                position_from_fen_in(&shredder_fen, Variant::Chess960).unwrap(),
                pos,
                "{shredder_fen}"
            );
        }
    }

    #[test]
    fn bad_chess960_castling_fields_are_named() {
        let f = |castling: &str| Fields {
            placement: "rk5r/8/8/8/8/8/8/RK5R".into(),
            side: "w".into(),
            castling: castling.into(),
            en_passant: "-".into(),
        };
        for (given, want) in [
            ("C", "C: no white rook on c1"),
            ("KK", "K appears twice"),
            ("Kz", "unexpected character 'z'"),
            ("HH", "H appears twice"),
        ] {
            let e = position_from_fields_in(&f(given), None, None, Variant::Chess960)
                .unwrap_err()
                .to_string();
            assert!(e.contains(want), "{given}: {e}");
        }
        // The same Shredder letters are not standard chess.
        let e = crate::game::position_from_fields(&f("HA"), None, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("only K, Q, k, q"), "{e}");
        // A king with no rook beyond it on that side.
        let f = Fields {
            placement: "k7/8/8/8/8/8/8/R6K".into(),
            side: "w".into(),
            castling: "K".into(),
            en_passant: "-".into(),
        };
        let e = position_from_fields_in(&f, None, None, Variant::Chess960)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no white rook on the kingside of the king on h1"),
            "{e}"
        );
    }

    #[test]
    fn variant_names() {
        for (text, v) in [
            ("chess960", Variant::Chess960),
            ("fischerandom", Variant::Chess960),
            ("FRC", Variant::Chess960),
            ("standard", Variant::Standard),
            ("normal", Variant::Standard),
        ] {
            assert_eq!(text.parse::<Variant>(), Ok(v));
        }
        let e = "crazyhouse".parse::<Variant>().unwrap_err();
        assert_eq!(e, UnknownVariant("crazyhouse".into()));
        assert!(
            e.to_string().contains("expected standard or chess960"),
            "{e}"
        );
        assert_eq!(Variant::Chess960.pgn_tag(), Some("Chess960"));
        assert_eq!(Variant::Standard.pgn_tag(), None);
    }
}
