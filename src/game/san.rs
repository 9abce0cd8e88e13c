//! SAN in (lenient, PGN import format) and out (canonical, PGN export
//! format): [`parse_san`], [`san_of`].

use std::fmt;

use shakmaty::san::SanPlus;
use shakmaty::{CastlingSide, Chess, File, Move, Position, Rank, Role, Square};

use super::setup::{color_name, shown};

/// Longer than any move in SAN with its check sign and a suffix annotation
/// (`Qa6xb7#??` is 9 characters); anything longer is not a move.
const MAX_SAN_LEN: usize = 16;

/// What kind of problem a move in SAN had.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SanErrorKind {
    /// The text is not a move in SAN at all (`hello`, `e2-e4`, `Nf9`).
    Unparsable,
    /// The text reads as a move but no legal move in the position matches
    /// it (`Ke3` when the king is on g1), or the game has already ended.
    Illegal,
    /// More than one legal move matches (`Nd2` with knights on b1 and f3).
    Ambiguous,
}

impl SanErrorKind {
    fn word(self) -> &'static str {
        match self {
            SanErrorKind::Unparsable => "unparsable",
            SanErrorKind::Illegal => "illegal",
            SanErrorKind::Ambiguous => "ambiguous",
        }
    }
}

/// A move in SAN that could not be played. Displays as
/// `illegal move "Ke3": no white king can move to e3`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SanError {
    /// Which kind of problem.
    pub kind: SanErrorKind,
    /// The move as given (control characters removed, cut to 20 characters
    /// so that a garbage line cannot bloat logs).
    pub text: String,
    /// What was wrong, in words.
    pub reason: String,
}

impl SanError {
    pub(crate) fn new(kind: SanErrorKind, text: &str, reason: impl Into<String>) -> SanError {
        SanError {
            kind,
            text: shown(text),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} move \"{}\": {}",
            self.kind.word(),
            self.text,
            self.reason
        )
    }
}

impl std::error::Error for SanError {}

/// The canonical SAN of a legal move, as PGN export format writes it:
/// minimal disambiguation (file, then rank, then both), `x` for captures,
/// `=Q` for promotions, `O-O`/`O-O-O`, and `+` or `#` when the move checks
/// or mates. For a move that is not legal in `pos` the text is a best
/// effort without a check sign (it never panics).
pub fn san_of(pos: &Chess, m: &Move) -> String {
    let mut s = String::with_capacity(8);
    SanPlus::from_move(pos.clone(), *m).append_to_string(&mut s);
    s
}

/// Finds the legal move that `text` denotes in `pos`, reading SAN leniently
/// as PGN import format allows. Accepted besides canonical SAN:
///
/// * castling with zeros: `0-0`, `0-0-0`;
/// * a missing or wrong check sign (`+`, `#`, also `++`), which is ignored;
/// * one suffix annotation at the very end: `!`, `?`, `!!`, `!?`, `?!`, `??`;
/// * a missing or superfluous `x` (also `:`) before the target square;
/// * promotion without `=` (`e8Q`), and a lower-case promotion letter;
/// * an explicit pawn letter (`Pe4`, `Pexd5`);
/// * over-disambiguation (`Ng1f3`, `e2e4`);
/// * lower-case piece letters (`nf3`, `qxd8`). `b` is read as a file first:
///   `bxc3` is a pawn capture if the b-pawn can take on c3, otherwise a
///   bishop move.
///
/// A pawn capture must name the pawn's file (`exd5` or `ed5`; `d5` is
/// never a capture). Surrounding white space is ignored.
///
/// # Errors
///
/// [`SanError`] with kind [`SanErrorKind::Unparsable`] for text that is not
/// a move (including anything over 16 characters or not ASCII),
/// [`SanErrorKind::Illegal`] when no legal move matches, and
/// [`SanErrorKind::Ambiguous`] when several do (the reason lists them).
pub fn parse_san(pos: &Chess, text: &str) -> Result<Move, SanError> {
    let trimmed = text.trim();
    let unparsable = |reason: &str| SanError::new(SanErrorKind::Unparsable, text, reason);
    if trimmed.is_empty() {
        return Err(unparsable("empty"));
    }
    if trimmed.len() > MAX_SAN_LEN {
        return Err(unparsable("too long to be a move in SAN"));
    }
    if !trimmed.is_ascii() {
        return Err(unparsable("contains a character that is not ASCII"));
    }
    let body = strip_suffixes(trimmed.as_bytes());

    if let Some(side) = castling_side(body) {
        return pos.castling_moves(side).first().copied().ok_or_else(|| {
            SanError::new(
                SanErrorKind::Illegal,
                text,
                format!(
                    "{} cannot castle {} here",
                    color_name(pos.turn()),
                    match side {
                        CastlingSide::KingSide => "kingside",
                        CastlingSide::QueenSide => "queenside",
                    }
                ),
            )
        });
    }

    let (first, rest) = match body.split_first() {
        Some(split) => split,
        None => return Err(unparsable("no move before the check or annotation sign")),
    };
    // Interpretations in order of preference.
    let mut readings: [Option<Pattern>; 2] = [None, None];
    match first {
        b'K' | b'Q' | b'R' | b'B' | b'N' | b'P' | b'k' | b'q' | b'r' | b'n' | b'p' => {
            let role = Role::from_char(char::from(*first).to_ascii_lowercase());
            readings[0] = role.and_then(|role| Pattern::parse(role, rest));
        }
        b'b' => {
            readings[0] = Pattern::parse(Role::Pawn, body);
            readings[1] = Pattern::parse(Role::Bishop, rest);
        }
        _ => readings[0] = Pattern::parse(Role::Pawn, body),
    }

    let legal = pos.legal_moves();
    let mut first_failure: Option<SanError> = None;
    let mut any_reading = false;
    for pattern in readings.into_iter().flatten() {
        any_reading = true;
        let mut found = legal.iter().filter(|m| pattern.matches(m));
        match (found.next(), found.next()) {
            (Some(m), None) => return Ok(*m),
            (Some(a), Some(b)) => {
                let mut names = vec![san_of(pos, a), san_of(pos, b)];
                names.extend(found.take(4).map(|m| san_of(pos, m)));
                names.sort();
                return Err(SanError::new(
                    SanErrorKind::Ambiguous,
                    text,
                    format!("matches {}", names.join(", ")),
                ));
            }
            (None, _) => {
                if first_failure.is_none() {
                    first_failure = Some(SanError::new(
                        SanErrorKind::Illegal,
                        text,
                        pattern.why_illegal(pos),
                    ));
                }
            }
        }
    }
    Err(match first_failure {
        Some(e) if any_reading => e,
        _ => unparsable("not a move in SAN"),
    })
}

/// Drops one suffix annotation and then a check or mate sign.
fn strip_suffixes(mut s: &[u8]) -> &[u8] {
    for annotation in [&b"!!"[..], b"!?", b"?!", b"??", b"!", b"?"] {
        if let Some(rest) = s.strip_suffix(annotation) {
            s = rest;
            break;
        }
    }
    for sign in [&b"++"[..], b"+", b"#"] {
        if let Some(rest) = s.strip_suffix(sign) {
            return rest;
        }
    }
    s
}

fn castling_side(s: &[u8]) -> Option<CastlingSide> {
    match s {
        b"O-O" | b"0-0" => Some(CastlingSide::KingSide),
        b"O-O-O" | b"0-0-0" => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// One reading of a non-castling move: which piece goes where, from which
/// file and/or rank, promoting to what.
#[derive(Debug, Clone, Copy)]
struct Pattern {
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
}

impl Pattern {
    /// Reads `[file][rank][x|:]square[[=]promotion]`, the part after the
    /// piece letter (or the whole move for a pawn).
    fn parse(role: Role, s: &[u8]) -> Option<Pattern> {
        let mut s = s;
        let mut promotion = None;
        if let Some((last, before)) = s.split_last() {
            if let Some(p) = promotion_role(*last) {
                match before.split_last() {
                    Some((b'=', b)) => s = b,
                    Some((d, _)) if d.is_ascii_digit() => s = before,
                    _ => return None,
                }
                promotion = Some(p);
            } else if *last == b'=' {
                return None;
            }
        }
        let split = s.len().checked_sub(2)?;
        let (prefix, target) = s.split_at(split);
        let to = Square::from_ascii(target).ok()?;
        let prefix = match prefix.split_last() {
            Some((b'x' | b':', p)) => p,
            _ => prefix,
        };
        let (file, rank) = match prefix {
            [] => (None, None),
            [c] => match (file_of(*c), rank_of(*c)) {
                (Some(f), _) => (Some(f), None),
                (None, Some(r)) => (None, Some(r)),
                (None, None) => return None,
            },
            [f, r] => (Some(file_of(*f)?), Some(rank_of(*r)?)),
            _ => return None,
        };
        Some(Pattern {
            role,
            file,
            rank,
            to,
            promotion,
        })
    }

    fn origin_matches(&self, from: Square) -> bool {
        self.file.is_none_or(|f| f == from.file()) && self.rank.is_none_or(|r| r == from.rank())
    }

    fn matches(&self, m: &Move) -> bool {
        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                role == self.role
                    && to == self.to
                    && promotion == self.promotion
                    && self.origin_matches(from)
                    // A pawn capture must name the file it comes from.
                    && (role != Role::Pawn || capture.is_none() || self.file.is_some())
            }
            Move::EnPassant { from, to } => {
                self.role == Role::Pawn
                    && to == self.to
                    && self.promotion.is_none()
                    && self.file.is_some()
                    && self.origin_matches(from)
            }
            Move::Castle { .. } | Move::Put { .. } => false,
        }
    }

    /// Why no legal move matches, as specifically as cheaply possible.
    fn why_illegal(&self, pos: &Chess) -> String {
        let who = color_name(pos.turn()).to_lowercase();
        let piece = role_name(self.role);
        if self.role == Role::Pawn && self.promotion.is_none() {
            let needs_promotion = pos.legal_moves().iter().any(|m| {
                matches!(*m, Move::Normal { role: Role::Pawn, to, promotion: Some(_), from, .. }
                    if to == self.to && self.origin_matches(from))
            });
            if needs_promotion {
                return format!(
                    "a pawn reaching {} must promote: add =Q, =R, =B or =N",
                    self.to
                );
            }
        }
        if self.promotion.is_some() && self.role != Role::Pawn {
            return format!("only a pawn can promote, not a {piece}");
        }
        let mut from = String::new();
        if let Some(f) = self.file {
            from.push(f.char());
        }
        if let Some(r) = self.rank {
            from.push(r.char());
        }
        let from = if from.is_empty() {
            String::new()
        } else {
            format!(" from {from}")
        };
        match self.promotion {
            Some(p) => format!(
                "no {who} {piece}{from} can move to {} and promote to a {}",
                self.to,
                role_name(p)
            ),
            None => format!("no {who} {piece}{from} can move to {}", self.to),
        }
    }
}

fn promotion_role(c: u8) -> Option<Role> {
    match c {
        b'Q' | b'q' => Some(Role::Queen),
        b'R' | b'r' => Some(Role::Rook),
        b'B' | b'b' => Some(Role::Bishop),
        b'N' | b'n' => Some(Role::Knight),
        _ => None,
    }
}

fn file_of(c: u8) -> Option<File> {
    if (b'a'..=b'h').contains(&c) {
        File::from_char(char::from(c))
    } else {
        None
    }
}

fn rank_of(c: u8) -> Option<Rank> {
    Rank::from_char(char::from(c))
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}
