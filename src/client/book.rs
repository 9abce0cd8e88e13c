//! Polyglot opening books (`.bin`), read from bytes: no file, no clock.
//!
//! A Polyglot book is a run of 16-byte entries, big-endian: the position's
//! key (u64), the move (u16), its weight (u16) and a learn value (u32),
//! sorted by key (the format's page, "Polyglot opening book format",
//! hgm.nubati.net/book_format.html). The key is Polyglot's Zobrist hash,
//! which shakmaty computes with its published random numbers
//! ([`polyglot_key`]). A move is `to` in bits 0..6, `from` in bits 6..12
//! (file, then rank, three bits each) and a promotion in bits 12..15
//! (1 knight, 2 bishop, 3 rook, 4 queen); castling is written as the king
//! taking its own rook (`e1h1`), which [`decode_move`] turns into
//! shakmaty's castling move.
//!
//! [`Book::pick`] chooses among a position's legal book moves as Polyglot
//! itself does with its random choice: by weight, a move of weight 0
//! never (a position whose moves all weigh 0 has no book move), with a
//! seeded [`crate::splitmix`] generator, so a seed replays the same
//! choices. The file is read at the edge and handed in as bytes
//! ([`Book::from_bytes`]), whole; [`MAX_BOOK_BYTES`] bounds it.

use std::fmt;

use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, File, Move, Position, Rank, Role, Square};

use crate::splitmix::{splitmix64, splitmix64_step};

/// The bytes of one entry.
pub const ENTRY_BYTES: usize = 16;
/// The largest book read (512 MiB: 33.5 million entries; the big public
/// books are a few hundred MB at most).
pub const MAX_BOOK_BYTES: u64 = 512 * 1024 * 1024;

/// One book entry, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    pub mv: u16,
    pub weight: u16,
    pub learn: u32,
}

impl Entry {
    /// The entry's 16 bytes, as a book file holds them.
    pub fn to_bytes(&self) -> [u8; ENTRY_BYTES] {
        let mut b = [0; ENTRY_BYTES];
        b[0..8].copy_from_slice(&self.key.to_be_bytes());
        b[8..10].copy_from_slice(&self.mv.to_be_bytes());
        b[10..12].copy_from_slice(&self.weight.to_be_bytes());
        b[12..16].copy_from_slice(&self.learn.to_be_bytes());
        b
    }

    fn from_bytes(b: &[u8]) -> Entry {
        let int = |r: std::ops::Range<usize>| b[r].iter().fold(0u64, |n, x| n << 8 | u64::from(*x));
        // Each range is at most as wide as its type: the casts keep every bit.
        Entry {
            key: int(0..8),
            mv: int(8..10) as u16,
            weight: int(10..12) as u16,
            learn: int(12..16) as u32,
        }
    }
}

/// Why bytes are not a Polyglot book; the edge puts the file's name before
/// it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BookError {
    /// No entries at all.
    Empty,
    /// Larger than [`MAX_BOOK_BYTES`].
    TooLarge { bytes: u64 },
    /// A size that is not a whole number of entries.
    Size { bytes: u64 },
    /// Entry `index` (from 0) has a key below the entry before it.
    Unsorted { index: usize, key: u64, before: u64 },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Empty => f.write_str("not a Polyglot book: it is empty (no entries)"),
            BookError::TooLarge { bytes } => write!(
                f,
                "too large: {bytes} bytes, more than the {} MiB a book may have",
                MAX_BOOK_BYTES / (1024 * 1024)
            ),
            BookError::Size { bytes } => write!(
                f,
                "not a Polyglot book: its size, {bytes} bytes, is not a multiple of \
                 {ENTRY_BYTES} (one entry); {} bytes are left over after entry {}",
                bytes % ENTRY_BYTES as u64,
                bytes / ENTRY_BYTES as u64
            ),
            BookError::Unsorted { index, key, before } => write!(
                f,
                "not a Polyglot book: its keys are not sorted: entry {} (byte {}) has key \
                 {key:#018x}, below entry {}'s {before:#018x}",
                index + 1,
                index * ENTRY_BYTES,
                index
            ),
        }
    }
}

impl std::error::Error for BookError {}

/// A Polyglot book, read whole and kept as its bytes (an entry is decoded
/// when looked at, so a book costs its file's size and no more).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Book {
    bytes: Vec<u8>,
}

/// Polyglot's key of `pos`: shakmaty's Zobrist hash with Polyglot's random
/// numbers, en passant counted when a pawn of the side to move stands
/// beside the pawn that just made its double step (pseudo-legal, as the
/// format says: "a pawn next to it belonging to the player to move").
pub fn polyglot_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0
}

/// The move `mv` of a book entry in `pos`, if it is legal there: castling
/// comes as the king taking its own rook, promotions with their piece.
pub fn decode_move(pos: &Chess, mv: u16) -> Option<Move> {
    let square = |bits: u16| {
        let file = File::new(u32::from(bits & 7));
        let rank = Rank::new(u32::from((bits >> 3) & 7));
        Square::from_coords(file, rank)
    };
    let promotion = match (mv >> 12) & 7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    let uci = UciMove::Normal {
        from: square(mv >> 6),
        to: square(mv),
        promotion,
    };
    // UciMove reads a king onto its own castling rook's square as castling.
    uci.to_move(pos).ok()
}

/// The entry's move field for `m`: castling as king takes rook.
pub fn encode_move(m: &Move) -> u16 {
    let (from, to, promotion) = match *m {
        Move::Castle { king, rook } => (king, rook, None),
        _ => (m.from().unwrap_or(m.to()), m.to(), m.promotion()),
    };
    let bits = |s: Square| (u16::from(s.rank()) << 3) | u16::from(s.file());
    let piece = match promotion {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    };
    (piece << 12) | (bits(from) << 6) | bits(to)
}

impl Book {
    /// Reads a book's bytes, checking that they are one: a whole number of
    /// entries, at least one, sorted by key, within [`MAX_BOOK_BYTES`].
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Book, BookError> {
        let size = bytes.len() as u64;
        if size > MAX_BOOK_BYTES {
            return Err(BookError::TooLarge { bytes: size });
        }
        if bytes.is_empty() {
            return Err(BookError::Empty);
        }
        if !bytes.len().is_multiple_of(ENTRY_BYTES) {
            return Err(BookError::Size { bytes: size });
        }
        let book = Book { bytes };
        for index in 1..book.len() {
            let (before, key) = (book.key(index - 1), book.key(index));
            if key < before {
                return Err(BookError::Unsorted { index, key, before });
            }
        }
        Ok(book)
    }

    /// How many entries the book has.
    pub fn len(&self) -> usize {
        self.bytes.len() / ENTRY_BYTES
    }

    /// Whether the book has no entries (never, once read).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Entry `i` (below [`Book::len`]).
    fn entry(&self, i: usize) -> Entry {
        Entry::from_bytes(&self.bytes[i * ENTRY_BYTES..(i + 1) * ENTRY_BYTES])
    }

    /// The key of entry `i`.
    fn key(&self, i: usize) -> u64 {
        self.entry(i).key
    }

    /// The legal moves the book has for `pos`, with their weights, in the
    /// book's order (an entry whose move is not legal there is left out).
    pub fn moves(&self, pos: &Chess) -> Vec<(Move, u16)> {
        let key = polyglot_key(pos);
        // The first entry whose key is not below `key` (binary search).
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let mid = low + (high - low) / 2;
            if self.key(mid) < key {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        (low..self.len())
            .map(|i| self.entry(i))
            .take_while(|e| e.key == key)
            .filter_map(|e| decode_move(pos, e.mv).map(|m| (m, e.weight)))
            .collect()
    }

    /// A book move for `pos`, chosen by weight with the generator `state`
    /// (stepped once per choice); `None` if the book has no move of weight
    /// above 0 there.
    pub fn pick(&self, pos: &Chess, state: &mut u64) -> Option<Move> {
        let moves = self.moves(pos);
        let total: u64 = moves.iter().map(|(_, w)| u64::from(*w)).sum();
        if total == 0 {
            return None;
        }
        *state = splitmix64_step(*state);
        let mut r = splitmix64(*state) % total;
        for (m, w) in moves {
            let w = u64::from(w);
            if r < w {
                return Some(m);
            }
            r -= w;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn uci(p: &Chess, text: &str) -> Move {
        text.parse::<UciMove>().unwrap().to_move(p).unwrap()
    }

    /// A book's bytes from entries (sorted here, as a book must be).
    fn book_bytes(mut entries: Vec<Entry>) -> Vec<u8> {
        entries.sort_by_key(|e| e.key);
        entries.iter().flat_map(Entry::to_bytes).collect()
    }

    fn entry(p: &Chess, m: &str, weight: u16) -> Entry {
        Entry {
            key: polyglot_key(p),
            mv: encode_move(&uci(p, m)),
            weight,
            learn: 0,
        }
    }

    #[test]
    fn keys_are_the_formats_published_test_values() {
        // The Polyglot book format page's positions and keys.
        let published = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                0x463b_9618_1691_fc9c,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                0x823c_9b50_fd11_4196,
            ),
            (
                "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
                0x0756_b944_61c5_0fb0,
            ),
            (
                "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
                0x662f_afb9_65db_29d4,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                0x22a4_8b5a_8e47_ff78,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
                0x652a_607c_a3f2_42c1,
            ),
            (
                "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
                0x00fd_d303_c946_bdd9,
            ),
            (
                "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
                0x3c81_23ea_7b06_7637,
            ),
            (
                "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
                0x5c3f_9b82_9b27_9560,
            ),
        ];
        for (fen, key) in published {
            assert_eq!(polyglot_key(&pos(fen)), key, "{fen}");
        }
    }

    #[test]
    fn en_passant_counts_when_a_pawn_stands_beside_even_if_pinned() {
        // The d5 pawn could take e6 but for the rook on h5 behind the
        // pawns (a pseudo-legal capture): Polyglot hashes the file in,
        // as python-chess's chess.polyglot.zobrist_hash does.
        assert_eq!(
            polyglot_key(&pos("4k3/8/8/K2Pp2r/8/8/8/8 w - e6 0 2")),
            0xd671_855a_b22c_ebfb
        );
        assert_eq!(
            polyglot_key(&pos("4k3/8/8/K2Pp2r/8/8/8/8 w - - 0 2")),
            0x1940_c084_b8f1_a972
        );
    }

    #[test]
    fn castling_is_read_as_king_takes_rook_and_written_so() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        // e1h1: to h1 (7, 0), from e1 (4, 0).
        let e1h1 = (4 << 6) | 7;
        let m = decode_move(&p, e1h1).unwrap();
        assert_eq!(m, uci(&p, "e1g1"));
        assert!(m.is_castle());
        let e1a1 = 4 << 6;
        assert_eq!(decode_move(&p, e1a1).unwrap(), uci(&p, "e1c1"));
        assert_eq!(encode_move(&m), e1h1);
        let b = pos("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
        let e8a8 = ((7 << 3 | 4) << 6) | (7 << 3);
        assert_eq!(decode_move(&b, e8a8).unwrap(), uci(&b, "e8c8"));
        // Without the right, the king cannot take its rook.
        let no_right = pos("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
        assert_eq!(decode_move(&no_right, e1h1), None);
    }

    #[test]
    fn promotions_are_read_by_their_piece() {
        let p = pos("8/1P2k3/8/8/8/8/8/4K3 w - - 0 1");
        let b7b8 = ((6 << 3 | 1) << 6) | (7 << 3 | 1);
        for (piece, role) in [
            (1, Role::Knight),
            (2, Role::Bishop),
            (3, Role::Rook),
            (4, Role::Queen),
        ] {
            let m = decode_move(&p, piece << 12 | b7b8).unwrap();
            assert_eq!(m.promotion(), Some(role));
            assert_eq!(encode_move(&m), piece << 12 | b7b8);
        }
        assert_eq!(decode_move(&p, 5 << 12 | b7b8), None, "no such piece");
        assert_eq!(
            decode_move(&p, b7b8),
            None,
            "a pawn on the last rank must promote"
        );
    }

    #[test]
    fn the_start_positions_moves_come_back_with_their_weights() {
        let start = Chess::default();
        let e4 = start.clone().play(uci(&start, "e2e4")).unwrap();
        let bytes = book_bytes(vec![
            entry(&start, "e2e4", 10),
            entry(&start, "d2d4", 5),
            entry(&e4, "e7e5", 3),
            // An illegal move in a book is left out.
            Entry {
                mv: encode_move(&uci(&start, "e2e4")),
                ..entry(&e4, "c7c5", 1)
            },
        ]);
        // Other positions' entries on both sides, for the binary search.
        let mut bytes: Vec<u8> = (0..9)
            .flat_map(|k| {
                Entry {
                    key: k,
                    ..entry(&start, "g1f3", 1)
                }
                .to_bytes()
            })
            .chain(bytes)
            .collect();
        bytes.extend((0..7).flat_map(|k| {
            Entry {
                key: u64::MAX - 6 + k,
                ..entry(&start, "g1f3", 1)
            }
            .to_bytes()
        }));
        let book = Book::from_bytes(bytes).unwrap();
        assert_eq!(book.len(), 20);
        let moves = book.moves(&start);
        assert_eq!(moves.len(), 2);
        assert!(moves.contains(&(uci(&start, "e2e4"), 10)));
        assert!(moves.contains(&(uci(&start, "d2d4"), 5)));
        assert_eq!(book.moves(&e4), vec![(uci(&e4, "e7e5"), 3)]);
        let d4 = start.clone().play(uci(&start, "d2d4")).unwrap();
        assert!(book.moves(&d4).is_empty());
    }

    #[test]
    fn the_choice_follows_the_weights_and_the_seed() {
        let start = Chess::default();
        let book = Book::from_bytes(book_bytes(vec![
            entry(&start, "e2e4", 30),
            entry(&start, "d2d4", 10),
            entry(&start, "c2c4", 0),
        ]))
        .unwrap();
        let run = |seed: u64| {
            let mut state = seed;
            (0..400)
                .map(|_| book.pick(&start, &mut state).unwrap())
                .collect::<Vec<_>>()
        };
        let picks = run(7);
        assert_eq!(picks, run(7), "the same seed, the same choices");
        assert_ne!(picks, run(8), "another seed, other choices");
        let c4 = uci(&start, "c2c4");
        assert!(!picks.contains(&c4), "a move of weight 0 is never chosen");
        let e4 = picks.iter().filter(|m| **m == uci(&start, "e2e4")).count();
        // 3 to 1: e4 about 300 times of 400.
        assert!((260..=340).contains(&e4), "e4 {e4} times of 400");
        let zero = Book::from_bytes(book_bytes(vec![entry(&start, "c2c4", 0)])).unwrap();
        assert_eq!(
            zero.pick(&start, &mut 1),
            None,
            "only weight 0: no book move"
        );
    }

    #[test]
    fn what_is_not_a_book_is_refused_with_the_reason_and_the_entry() {
        let start = Chess::default();
        assert_eq!(Book::from_bytes(Vec::new()), Err(BookError::Empty));
        assert_eq!(
            Book::from_bytes(Vec::new()).unwrap_err().to_string(),
            "not a Polyglot book: it is empty (no entries)"
        );
        let e = Book::from_bytes(vec![0; 40]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "not a Polyglot book: its size, 40 bytes, is not a multiple of 16 (one entry); \
             8 bytes are left over after entry 2"
        );
        let mut bytes = book_bytes(vec![entry(&start, "e2e4", 1), entry(&start, "d2d4", 1)]);
        bytes.extend(
            Entry {
                key: 5,
                ..entry(&start, "c2c4", 1)
            }
            .to_bytes(),
        );
        let e = Book::from_bytes(bytes).unwrap_err();
        assert_eq!(
            e,
            BookError::Unsorted {
                index: 2,
                key: 5,
                before: 0x463b_9618_1691_fc9c
            }
        );
        assert_eq!(
            e.to_string(),
            "not a Polyglot book: its keys are not sorted: entry 3 (byte 32) has key \
             0x0000000000000005, below entry 2's 0x463b96181691fc9c"
        );
        let big = vec![0; (MAX_BOOK_BYTES + 16) as usize];
        let e = Book::from_bytes(big).unwrap_err();
        assert!(e.to_string().contains("more than the 512 MiB"), "{e}");
    }
}
