//! One CBF game record (document section 2): bytes in, [`CbGame`] out, and
//! back. No I/O. The reader is lenient where docs/chessbase.md says so; the
//! writer is canonical.

use std::num::NonZeroU32;

use shakmaty::FromSetup;
use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, Move, Piece, Position, Setup,
    Square,
};

use super::movegen::{move_of_number, number_of_move};
use super::{CbError, CbFault, CbGame, CbResult, Comment, MAX_DEPTH, Ply};

/// Bytes of the game header.
pub const HEADER_LEN: usize = 14;
/// Bytes of the starting position part.
pub const POSITION_LEN: usize = 33;
/// Longest player or source text.
pub const MAX_TEXT: usize = 63;
/// Longest moves part (the header word holds its length + 1).
pub const MAX_MOVES_PART: usize = 0xFFFE;
/// Longest comments part.
pub const MAX_COMMENTS_PART: usize = 0xFFFF;

const VARIATION_START: u8 = 0xFF;
const VARIATION_END: u8 = 0x80;
const COMMENTED: u8 = 0x80;
const NEWLINE: u8 = 0xFE;
const NO_YEAR: i8 = 127;

/// Undoes (or applies: XOR is its own inverse) the header key schedule.
fn header_keys(h: &mut [u8; HEADER_LEN]) {
    let mut k: u8 = 101;
    for b in h.iter_mut().rev() {
        *b ^= k;
        k = k.wrapping_mul(3);
    }
}

fn byte11_key(h: &[u8; HEADER_LEN]) -> u8 {
    14u8.wrapping_add(h[4] & 63).wrapping_add(h[5] & 63)
}

/// The decoded header of the record starting with `raw`.
pub fn decode_header(raw: &[u8; HEADER_LEN]) -> [u8; HEADER_LEN] {
    let mut h = *raw;
    header_keys(&mut h);
    h[11] ^= byte11_key(&h);
    h
}

fn encode_header(plain: &[u8; HEADER_LEN]) -> [u8; HEADER_LEN] {
    let mut h = *plain;
    h[11] ^= byte11_key(&h);
    header_keys(&mut h);
    h
}

/// The player and source texts' XOR (section 2.3); its own inverse.
fn text_keys(text: &mut [u8]) {
    let mut k = (3 * text.len()) as u8;
    for b in text.iter_mut().rev() {
        *b ^= k;
        k = k.wrapping_mul(3);
    }
}

/// The moves part's XOR (section 2.4, first byte left as is); its own
/// inverse. `s` is the header's mlen (the part's length + 1).
fn move_keys(moves: &mut [u8]) {
    let s = moves.len() + 1;
    let mut k = (49 * s) as u8;
    for b in moves.iter_mut().skip(1).rev() {
        *b ^= k;
        k = k.wrapping_mul(7);
    }
}

fn word(h: &[u8], i: usize) -> usize {
    usize::from(h[i]) << 8 | usize::from(h[i + 1])
}

/// The lengths of a record's parts, from its decoded header.
#[derive(Debug, Clone, Copy)]
struct Parts {
    text: usize,
    moves: usize,
    comments: usize,
    position: usize,
}

fn parts(h: &[u8; HEADER_LEN]) -> Result<Parts, CbError> {
    let mlen = word(h, 2);
    let moves = mlen.checked_sub(1).ok_or(CbError {
        offset: 2,
        fault: CbFault::NoMoveLength,
    })?;
    Ok(Parts {
        text: usize::from(h[4] & 63) + usize::from(h[5] & 63),
        moves,
        comments: word(h, 6),
        position: if h[10] & 1 == 1 { POSITION_LEN } else { 0 },
    })
}

/// The whole record's length in bytes, from its first [`HEADER_LEN`] bytes
/// as stored (at most 14 + 126 + 65534 + 65535 + 33).
pub fn record_len(raw: &[u8; HEADER_LEN]) -> Result<usize, CbError> {
    let p = parts(&decode_header(raw))?;
    Ok(HEADER_LEN + p.text + p.moves + p.comments + p.position)
}

/// A text byte as a character: $FE a line end, 177-182 the piece letters
/// K Q N B R P, anything else its Latin-1 character.
fn text_char(b: u8) -> char {
    match b {
        NEWLINE => '\n',
        177 => 'K',
        178 => 'Q',
        179 => 'N',
        180 => 'B',
        181 => 'R',
        182 => 'P',
        b => char::from(b),
    }
}

fn decode_text(bytes: &[u8]) -> String {
    bytes.iter().map(|b| text_char(*b)).collect()
}

/// A character as a text byte; `None` for one the format cannot hold.
pub fn text_byte(c: char) -> Option<u8> {
    match c {
        '\n' => Some(NEWLINE),
        '\0' | '\u{FE}' | '\u{FF}' | '\u{B1}'..='\u{B6}' => None,
        c => u8::try_from(u32::from(c)).ok(),
    }
}

fn encode_text(s: &str, what: &'static str) -> Result<Vec<u8>, EncodeError> {
    s.chars()
        .map(|c| text_byte(c).ok_or(EncodeError::Character { what, c }))
        .collect()
}

/// Why a game cannot be encoded as a record: the part that does not fit
/// the format (nothing of the game is written).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// A text holds a character the format has no byte for.
    #[error("{what}: character {c:?} cannot be stored")]
    Character { what: &'static str, c: char },
    /// The players' or the source text is longer than a record holds.
    #[error("{0} longer than {MAX_TEXT} bytes")]
    TextTooLong(&'static str),
    /// The starting position's FEN does not read or is not legal.
    #[error("FEN {fen:?}: {why}")]
    Fen { fen: String, why: String },
    /// The moves, with their variations, take more bytes than a record has.
    #[error("moves part longer than {MAX_MOVES_PART} bytes")]
    MovesTooLong,
    /// The comments take more bytes than a record has.
    #[error("comments longer than {MAX_COMMENTS_PART} bytes in all")]
    CommentsTooLong,
    /// The year is outside the one byte the header has for it.
    #[error("year {0} outside 1772-2026")]
    Year(i32),
    /// The ECO code is not one the header can hold.
    #[error("ECO {0:?} is not A00-F99")]
    Eco(String),
    /// The Elo is not one the header can hold.
    #[error("Elo {0} is not 1605-2875 in steps of 5")]
    Elo(u16),
    /// Variations nested deeper than the format reads.
    #[error("variations nested deeper than {MAX_DEPTH}")]
    TooDeep,
    /// A move is not legal where it is played.
    #[error("{mv:?} is not legal in {fen}")]
    Illegal { mv: Move, fen: String },
    /// A legal move the format's numbering does not list.
    #[error("{0:?} is not in the move numbering")]
    NotNumbered(Move),
    /// A move's number is past what a move byte holds.
    #[error("move number {number} over {limit} (the format's limit)")]
    MoveNumber { number: usize, limit: usize },
}

/// Decodes one record from the start of `bytes` (which may go on past it).
/// Offsets in errors are from the record's start.
pub fn decode_record(bytes: &[u8]) -> Result<CbGame, CbError> {
    let raw: &[u8; HEADER_LEN] = bytes
        .get(..HEADER_LEN)
        .and_then(|b| b.try_into().ok())
        .ok_or(CbError {
            offset: bytes.len(),
            fault: CbFault::TruncatedHeader { have: bytes.len() },
        })?;
    let h = decode_header(raw);
    let p = parts(&h)?;
    let total = HEADER_LEN + p.text + p.moves + p.comments + p.position;
    if bytes.len() < total {
        return Err(CbError {
            offset: bytes.len(),
            fault: CbFault::TruncatedRecord {
                total,
                have: bytes.len(),
            },
        });
    }
    let mut at = HEADER_LEN;
    let mut text = bytes[at..at + p.text].to_vec();
    text_keys(&mut text);
    let plen = usize::from(h[4] & 63);
    let player = decode_text(&text[..plen]);
    let source = decode_text(&text[plen..]);
    at += p.text;
    let moves_at = at;
    let mut moves = bytes[at..at + p.moves].to_vec();
    move_keys(&mut moves);
    at += p.moves;
    let comments_at = at;
    let comments = decode_comments(&bytes[at..at + p.comments]);
    at += p.comments;
    let mut g = CbGame::default();
    let (white, black) = match player.split_once('-') {
        Some((w, b)) => (w.trim().to_string(), b.trim().to_string()),
        None => (player.trim().to_string(), String::new()),
    };
    g.white = white;
    g.black = black;
    g.source = source.trim().to_string();
    let gy = h[0] as i8;
    g.year = (gy != NO_YEAR).then_some(1900 + i32::from(gy));
    g.result = match h[1] & 3 {
        0 => CbResult::BlackWins,
        1 => CbResult::Draw,
        2 => CbResult::WhiteWins,
        _ => match h[1] >> 2 & 15 {
            0 => CbResult::Unknown,
            v => CbResult::Other(v),
        },
    };
    g.white_elo = (h[8] > 0).then(|| 1600 + 5 * u16::from(h[8]));
    g.black_elo = (h[9] > 0).then(|| 1600 + 5 * u16::from(h[9]));
    g.marked = h[10] & 0x40 != 0;
    g.deleted = h[10] & 0x80 != 0;
    let start = if p.position > 0 {
        let pos = decode_position(&h, &bytes[at..at + POSITION_LEN])
            .map_err(|fault| CbError { offset: at, fault })?;
        g.start = Some(Fen::from_position(&pos, EnPassantMode::Legal).to_string());
        pos
    } else {
        let eco1 =
            u16::from(h[10] >> 1 & 31) | u16::from(h[4] >> 6) << 5 | u16::from(h[5] >> 6) << 7;
        if eco1 > 0 {
            let letter = char::from(b'A' + ((eco1 - 1) / 100) as u8);
            g.eco = Some(format!("{letter}{:02}", (eco1 - 1) % 100));
            g.eco_sub = (h[11] & 63) | (h[11] >> 7) << 6;
        }
        Chess::default()
    };
    let mut reader = MoveReader {
        moves: &moves,
        base: moves_at,
        i: 0,
        comments: comments.into_iter(),
        comments_at,
    };
    g.moves = reader.line(start, 0)?;
    if reader.comments.next().is_some() {
        return Err(CbError {
            offset: comments_at,
            fault: CbFault::MoreComments,
        });
    }
    Ok(g)
}

struct MoveReader<'a> {
    moves: &'a [u8],
    base: usize,
    i: usize,
    comments: std::vec::IntoIter<Comment>,
    comments_at: usize,
}

impl MoveReader<'_> {
    fn err(&self, fault: CbFault) -> CbError {
        CbError {
            offset: self.base + self.i,
            fault,
        }
    }

    /// Reads a line from `pos`: to the end of the part at depth 0, to its
    /// $80 inside a variation.
    fn line(&mut self, mut pos: Chess, depth: usize) -> Result<Vec<Ply>, CbError> {
        let mut line: Vec<Ply> = Vec::new();
        let mut before: Option<Chess> = None;
        while let Some(&b) = self.moves.get(self.i) {
            match b {
                VARIATION_START => {
                    if depth + 1 > MAX_DEPTH {
                        return Err(self.err(CbFault::TooDeep));
                    }
                    let (Some(last), Some(from)) = (line.last_mut(), before.clone()) else {
                        return Err(self.err(CbFault::VariationFirst));
                    };
                    self.i += 1;
                    let v = self.line(from, depth + 1)?;
                    last.variations.push(v);
                }
                VARIATION_END => {
                    if depth == 0 {
                        return Err(self.err(CbFault::EndWithoutStart));
                    }
                    self.i += 1;
                    return Ok(line);
                }
                0 => return Err(self.err(CbFault::MoveByteZero)),
                b => {
                    let m = move_of_number(&pos, b & 0x7F).map_err(|e| self.err(e.into()))?;
                    let comment = if b & COMMENTED != 0 {
                        Some(self.comments.next().ok_or(CbError {
                            offset: self.comments_at,
                            fault: CbFault::FewerComments,
                        })?)
                    } else {
                        None
                    };
                    before = Some(pos.clone());
                    pos.play_unchecked(m);
                    line.push(Ply {
                        mv: m,
                        comment,
                        variations: Vec::new(),
                    });
                    self.i += 1;
                }
            }
        }
        if depth > 0 {
            return Err(self.err(CbFault::Unclosed));
        }
        Ok(line)
    }
}

/// Splits the comments part at its $FF bytes (a doubled $FF at the start,
/// as the document's first author describes, counts once).
fn decode_comments(part: &[u8]) -> Vec<Comment> {
    if part.is_empty() {
        return Vec::new();
    }
    let part = if part.starts_with(&[0xFF, 0xFF]) {
        &part[1..]
    } else {
        part
    };
    let part = part.strip_prefix(&[0xFF]).unwrap_or(part);
    let mut out = Vec::new();
    for chunk in part.split(|b| *b == 0xFF) {
        let byte = |i: usize| chunk.get(i).copied().unwrap_or(0);
        let (evals, text) = if chunk.len() >= 4 && chunk[3] == 0 {
            (3, &chunk[4..])
        } else {
            (chunk.len().min(3), chunk.get(3..).unwrap_or(&[]))
        };
        out.push(Comment {
            move_eval: if evals > 0 { byte(0) } else { 0 },
            pos_eval: if evals > 1 { byte(1) } else { 0 },
            extra: if evals > 2 { byte(2) } else { 0 },
            text: decode_text(text),
        });
    }
    out
}

/// Byte 10's castling bits (white 0-0-0, 0-0, black 0-0-0, 0-0) as rook
/// corners.
const CASTLING: [(u8, Square); 4] = [
    (4, Square::A1),
    (8, Square::H1),
    (16, Square::A8),
    (32, Square::H8),
];

const CODES: [(u8, Piece); 12] = [
    (1, Color::White.king()),
    (2, Color::White.queen()),
    (3, Color::White.knight()),
    (4, Color::White.bishop()),
    (5, Color::White.rook()),
    (6, Color::White.pawn()),
    (9, Color::Black.king()),
    (10, Color::Black.queen()),
    (11, Color::Black.knight()),
    (12, Color::Black.bishop()),
    (13, Color::Black.rook()),
    (14, Color::Black.pawn()),
];

fn decode_position(h: &[u8; HEADER_LEN], bytes: &[u8]) -> Result<Chess, CbFault> {
    let mut board = Board::empty();
    for (i, b) in bytes.iter().take(32).enumerate() {
        for (half, code) in [(0, b >> 4), (1, b & 15)] {
            if code == 0 {
                continue;
            }
            let sq = Square::new((i * 2 + half) as u32);
            let piece = CODES
                .iter()
                .find(|(c, _)| *c == code)
                .map(|(_, p)| *p)
                .ok_or(CbFault::PieceCode { code, square: sq })?;
            board.set_piece_at(sq, piece);
        }
    }
    let turn = if h[10] & 2 != 0 {
        Color::Black
    } else {
        Color::White
    };
    let mut rights = Bitboard::EMPTY;
    for (bit, sq) in CASTLING {
        if h[10] & bit != 0 {
            rights.add(sq);
        }
    }
    let ep_file = h[11] & 15;
    let ep_square = (1..=8).contains(&ep_file).then(|| {
        let rank = if turn == Color::White { 5 } else { 2 };
        Square::new(rank * 8 + u32::from(ep_file - 1))
    });
    let setup = Setup {
        board,
        turn,
        castling_rights: rights,
        ep_square,
        fullmoves: NonZeroU32::new(u32::from(bytes[32]) + 1).unwrap_or(NonZeroU32::MIN),
        ..Setup::empty()
    };
    let lenient = |e: shakmaty::PositionError<Chess>| match e.ignore_invalid_castling_rights() {
        Ok(pos) => Ok(pos),
        Err(e) => e
            .ignore_invalid_ep_square()
            .map_err(|e| CbFault::IllegalPosition(e.to_string())),
    };
    Chess::from_setup(setup, CastlingMode::Standard).or_else(lenient)
}

fn encode_position(pos: &Chess, h: &mut [u8; HEADER_LEN]) -> [u8; POSITION_LEN] {
    let mut out = [0u8; POSITION_LEN];
    for (sq, piece) in pos.board().iter() {
        let code = CODES
            .iter()
            .find(|(_, p)| *p == piece)
            .map_or(0, |(c, _)| *c);
        let i = sq as usize;
        out[i / 2] |= if i.is_multiple_of(2) { code << 4 } else { code };
    }
    out[32] = (pos.fullmoves().get().saturating_sub(1)).min(255) as u8;
    h[10] |= 1;
    if pos.turn() == Color::Black {
        h[10] |= 2;
    }
    let rights = pos.castles().castling_rights();
    for (bit, sq) in CASTLING {
        if rights.contains(sq) {
            h[10] |= bit;
        }
    }
    if let Some(ep) = pos.ep_square(EnPassantMode::Legal) {
        h[11] |= u32::from(ep.file()) as u8 + 1;
    }
    out
}

/// The ECO code ("B12") as ECO1 (1 + 100 * letter + number).
fn eco1(eco: &str) -> Option<u16> {
    let mut c = eco.chars();
    let letter = c.next()?;
    let digits: String = c.collect();
    if !('A'..='F').contains(&letter) || digits.len() != 2 {
        return None;
    }
    let n: u16 = digits.parse().ok()?;
    Some(1 + 100 * (letter as u16 - 'A' as u16) + n)
}

/// Encodes `g` as a record. Fails (saying why) when a part does not fit the
/// format; the caller decides what to cut before calling.
pub fn encode_record(g: &CbGame) -> Result<Vec<u8>, EncodeError> {
    let player = encode_text(&format!("{}-{}", g.white, g.black), "players")?;
    let source = encode_text(&g.source, "source")?;
    for (t, what) in [(&player, "player text"), (&source, "source text")] {
        if t.len() > MAX_TEXT {
            return Err(EncodeError::TextTooLong(what));
        }
    }
    let start = match &g.start {
        Some(fen) => Some(
            fen.parse::<Fen>()
                .map_err(|e| fen_error(fen, e))?
                .into_position::<Chess>(CastlingMode::Standard)
                .map_err(|e| fen_error(fen, e))?,
        ),
        None => None,
    };
    let mut moves = Vec::new();
    let mut comments = Vec::new();
    let pos = start.clone().unwrap_or_default();
    encode_line(&g.moves, pos, 0, &mut moves, &mut comments)?;
    if moves.len() > MAX_MOVES_PART {
        return Err(EncodeError::MovesTooLong);
    }
    if comments.len() > MAX_COMMENTS_PART {
        return Err(EncodeError::CommentsTooLong);
    }
    let mut h = [0u8; HEADER_LEN];
    h[0] = match g.year {
        Some(y) if (1900 - 128..=1900 + 126).contains(&y) => (y - 1900) as i8 as u8,
        Some(y) => return Err(EncodeError::Year(y)),
        None => NO_YEAR as u8,
    };
    h[1] = match g.result {
        CbResult::BlackWins => 0,
        CbResult::Draw => 1,
        CbResult::WhiteWins => 2,
        CbResult::Other(v) => 3 | (v & 15) << 2,
        CbResult::Unknown => 3,
    };
    let mlen = moves.len() + 1;
    h[2] = (mlen >> 8) as u8;
    h[3] = mlen as u8;
    h[4] = player.len() as u8;
    h[5] = source.len() as u8;
    h[6] = (comments.len() >> 8) as u8;
    h[7] = comments.len() as u8;
    h[8] = elo_byte(g.white_elo)?;
    h[9] = elo_byte(g.black_elo)?;
    h[10] |= u8::from(g.marked) << 6 | u8::from(g.deleted) << 7;
    let position = match &start {
        Some(pos) => Some(encode_position(pos, &mut h)),
        None => {
            if let Some(eco) = &g.eco {
                let e = eco1(eco).ok_or_else(|| EncodeError::Eco(eco.clone()))?;
                h[10] |= ((e & 31) as u8) << 1;
                h[4] |= ((e >> 5 & 3) as u8) << 6;
                h[5] |= ((e >> 7 & 3) as u8) << 6;
                h[11] = (g.eco_sub & 63) | (g.eco_sub >> 6 & 1) << 7;
            }
            None
        }
    };
    let black_first = start.as_ref().is_some_and(|p| p.turn() == Color::Black);
    h[12] = ((g.moves.len() + usize::from(black_first)).div_ceil(2)).min(255) as u8;
    let mut text = player;
    text.extend_from_slice(&source);
    text_keys(&mut text);
    move_keys(&mut moves);
    let mut out = encode_header(&h).to_vec();
    out.extend_from_slice(&text);
    out.extend_from_slice(&moves);
    out.extend_from_slice(&comments);
    if let Some(p) = position {
        out.extend_from_slice(&p);
    }
    Ok(out)
}

fn fen_error(fen: &str, why: impl std::fmt::Display) -> EncodeError {
    EncodeError::Fen {
        fen: fen.to_string(),
        why: why.to_string(),
    }
}

fn elo_byte(elo: Option<u16>) -> Result<u8, EncodeError> {
    match elo {
        None => Ok(0),
        Some(e) if e > 1600 && e <= 1600 + 5 * 255 && e % 5 == 0 => Ok(((e - 1600) / 5) as u8),
        Some(e) => Err(EncodeError::Elo(e)),
    }
}

fn encode_line(
    line: &[Ply],
    mut pos: Chess,
    depth: usize,
    out: &mut Vec<u8>,
    comments: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    if depth > MAX_DEPTH {
        return Err(EncodeError::TooDeep);
    }
    for ply in line {
        if !pos.is_legal(ply.mv) {
            return Err(EncodeError::Illegal {
                mv: ply.mv,
                fen: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
            });
        }
        let n = number_of_move(&pos, &ply.mv).ok_or(EncodeError::NotNumbered(ply.mv))?;
        let limit = if ply.comment.is_some() { 126 } else { 127 };
        if n > limit {
            return Err(EncodeError::MoveNumber { number: n, limit });
        }
        let mut b = n as u8;
        if let Some(c) = &ply.comment {
            b |= COMMENTED;
            comments.extend_from_slice(&[0xFF, c.move_eval, c.pos_eval, c.extra, 0]);
            comments.extend(encode_text(&c.text, "comment")?);
        }
        out.push(b);
        let before = pos.clone();
        pos.play_unchecked(ply.mv);
        for v in &ply.variations {
            out.push(VARIATION_START);
            encode_line(v, before.clone(), depth + 1, out, comments)?;
            out.push(VARIATION_END);
        }
    }
    Ok(())
}
