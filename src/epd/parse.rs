//! Reading one EPD record from one line of text (spec sections 4 and 5).
//!
//! The parser is lenient about whitespace (runs of blanks and tabs anywhere
//! a separator may go, leading and trailing blanks, blanks before `;`, no
//! blank between one operation's `;` and the next opcode) and strict about
//! everything else: the four position fields are syntax-checked, opcodes and
//! operands must follow section 5.1, each opcode may appear once, and the
//! line must be printable ASCII of at most [`MAX_LINE`] bytes. It never
//! panics and never allocates more than a small multiple of the line length.

use super::error::EpdError;
use super::record::{Fields, Operand, Operation, Record};

/// The longest line accepted, in bytes, without its line end (spec section
/// 4 suggests 4096 characters).
pub const MAX_LINE: usize = 4096;

/// The longest string operand, in bytes between the quotes (spec 5.1: "less
/// than 256 bytes").
pub const MAX_STRING: usize = 255;

/// The longest opcode: a letter and up to fourteen more characters.
pub const MAX_OPCODE: usize = 15;

/// How much of an offending field is echoed back in an error message.
const SHOWN: usize = 24;

impl Record {
    /// Parses one EPD record from a line without its line end.
    ///
    /// Accepts the four position fields (syntax only: legality is for the
    /// `game` module) and zero or more operations. Unknown opcodes and
    /// private (upper-case) opcodes are kept. Errors carry the 1-based byte
    /// column of the problem:
    ///
    /// ```
    /// use argus::epd::Record;
    /// let r = Record::parse("8/8/8/8/8/8/8/K6k w - - id \"BK.15\";").unwrap();
    /// assert_eq!(r.op("id").unwrap().operands[0].text(), "BK.15");
    /// let e = Record::parse("8/8/8/8/8/8/8/K6k w - - c0 \"open").unwrap_err();
    /// assert_eq!(e.to_string(), "column 28: string operand not closed");
    /// ```
    pub fn parse(line: &str) -> Result<Record, EpdError> {
        Parser::of_str(line)?.record()
    }

    /// [`Record::parse`] for raw bytes, e.g. a line straight off a port.
    /// Non-ASCII bytes are reported with their column like any other error.
    pub fn parse_bytes(line: &[u8]) -> Result<Record, EpdError> {
        Parser::new(line)?.record()
    }
}

/// Whether `s` is a syntactically valid opcode: a letter followed by at
/// most fourteen letters, digits or underscores (spec 5.1).
pub fn is_valid_opcode(s: &str) -> bool {
    let b = s.as_bytes();
    matches!(b.first(), Some(c) if c.is_ascii_alphabetic())
        && b.len() <= MAX_OPCODE
        && b.iter().all(|&c| is_opcode_byte(c))
}

fn is_opcode_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

/// Quotes at most [`SHOWN`] bytes of an offending text for a message.
fn shown(b: &[u8]) -> String {
    let cut = b.get(..SHOWN).unwrap_or(b);
    let more = if cut.len() < b.len() { "..." } else { "" };
    format!("\"{}{}\"", String::from_utf8_lossy(cut), more)
}

/// Names one byte for a message: `';'`, or `end of line`.
fn byte_name(c: Option<u8>) -> String {
    match c {
        Some(c) => format!("'{}'", char::from(c)),
        None => "end of line".to_string(),
    }
}

/// A cursor over a line already checked to be printable ASCII (plus tabs).
struct Parser<'a> {
    b: &'a [u8],
    /// The same line as `b`, as text.
    s: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    /// Checks the length and the byte set of the whole line.
    fn new(b: &'a [u8]) -> Result<Parser<'a>, EpdError> {
        Parser::check_line(b)?;
        // Printable ASCII is valid UTF-8; the fallback cannot happen.
        let s = std::str::from_utf8(b).unwrap_or_default();
        Ok(Parser { b, s, pos: 0 })
    }

    /// [`Parser::new`] for a line that is text already (no second UTF-8
    /// check).
    fn of_str(s: &'a str) -> Result<Parser<'a>, EpdError> {
        let b = s.as_bytes();
        Parser::check_line(b)?;
        Ok(Parser { b, s, pos: 0 })
    }

    /// The checks on the whole line: its length, and printable ASCII (plus
    /// tabs) only.
    fn check_line(b: &[u8]) -> Result<(), EpdError> {
        if b.len() > MAX_LINE {
            return Err(EpdError::at(
                MAX_LINE,
                format!("line is {} bytes long; the limit is {MAX_LINE}", b.len()),
            ));
        }
        // Branch-free pass first (it vectorises); find the culprit only if
        // there is one.
        let bad = |c: u8| c != b'\t' && !(b' '..=b'~').contains(&c);
        if b.iter().fold(false, |acc, &c| acc | bad(c))
            && let Some((i, &c)) = b.iter().enumerate().find(|&(_, &c)| bad(c))
        {
            let what = if c.is_ascii() {
                "control byte"
            } else {
                "non-ASCII byte"
            };
            return Err(EpdError::at(i, format!("{what} 0x{c:02x}")));
        }
        Ok(())
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    /// Moves the cursor past the bytes for which `keep` holds.
    fn skip_while(&mut self, keep: impl Fn(u8) -> bool) {
        let rest = self.b.get(self.pos..).unwrap_or_default();
        self.pos += rest.iter().position(|&c| !keep(c)).unwrap_or(rest.len());
    }

    fn skip_blanks(&mut self) {
        self.skip_while(is_blank);
    }

    /// The bytes in `start..end` (empty if out of range, which cannot happen).
    fn slice(&self, start: usize, end: usize) -> &'a [u8] {
        self.b.get(start..end).unwrap_or_default()
    }

    /// The bytes in `start..end` as an owned string (the line is ASCII, so
    /// every offset is a character boundary).
    fn text(&self, start: usize, end: usize) -> String {
        self.s.get(start..end).unwrap_or_default().to_owned()
    }

    fn record(mut self) -> Result<Record, EpdError> {
        let placement = self.field("piece placement")?;
        check_placement(self.slice(placement.0, placement.1), placement.0)?;
        let side = self.field("active color")?;
        check_side(self.slice(side.0, side.1), side.0)?;
        let castling = self.field("castling availability")?;
        check_castling(self.slice(castling.0, castling.1), castling.0)?;
        let en_passant = self.field("en passant target square")?;
        check_en_passant(self.slice(en_passant.0, en_passant.1), en_passant.0)?;
        let fields = Fields {
            placement: self.text(placement.0, placement.1),
            side: self.text(side.0, side.1),
            castling: self.text(castling.0, castling.1),
            en_passant: self.text(en_passant.0, en_passant.1),
        };
        let rest = self.slice(self.pos, self.b.len());
        // Room for one operation per ';' (capped: a hostile line of
        // semicolons must not reserve much).
        let mut ops = Vec::with_capacity(rest.iter().filter(|&&c| c == b';').count().min(32));
        loop {
            self.skip_blanks();
            if self.peek().is_none() {
                break;
            }
            let start = self.pos;
            let op = self.operation()?;
            check_duplicates(&ops, &op.opcode, start)?;
            ops.push(op);
        }
        Ok(Record { fields, ops })
    }

    /// One position field: a run of non-blank bytes after optional blanks.
    fn field(&mut self, name: &str) -> Result<(usize, usize), EpdError> {
        self.skip_blanks();
        let start = self.pos;
        self.skip_while(|c| !is_blank(c));
        if start == self.pos {
            return Err(EpdError::at(
                start,
                format!("missing {name} field (end of line)"),
            ));
        }
        Ok((start, self.pos))
    }

    /// One operation, starting at a non-blank byte.
    fn operation(&mut self) -> Result<Operation, EpdError> {
        let start = self.pos;
        match self.peek() {
            Some(c) if c.is_ascii_alphabetic() => {}
            c => {
                return Err(EpdError::at(
                    start,
                    format!("expected an opcode (a letter), found {}", byte_name(c)),
                ));
            }
        }
        self.skip_while(is_opcode_byte);
        let len = self.pos - start;
        if len > MAX_OPCODE {
            return Err(EpdError::at(
                start,
                format!(
                    "opcode {} is {len} characters long; at most {MAX_OPCODE} are allowed",
                    shown(self.slice(start, self.pos))
                ),
            ));
        }
        match self.peek() {
            None | Some(b' ' | b'\t' | b';') => {}
            Some(c) => {
                return Err(EpdError::at(
                    self.pos,
                    format!(
                        "invalid character '{}' in opcode (letters, digits and '_' only)",
                        char::from(c)
                    ),
                ));
            }
        }
        let opcode = self.text(start, self.pos);
        // Most operations have one or two operands (`cc` has two): room
        // for two at once is cheaper than growing from empty, and none is
        // reserved for an operation without operands.
        self.skip_blanks();
        let mut operands = match self.peek() {
            Some(b';') | None => Vec::new(),
            Some(_) => Vec::with_capacity(2),
        };
        loop {
            self.skip_blanks();
            match self.peek() {
                None => {
                    return Err(EpdError::at(
                        self.b.len(),
                        format!("operation \"{opcode}\" not ended by ';'"),
                    ));
                }
                Some(b';') => {
                    self.pos += 1;
                    break;
                }
                Some(b'"') => operands.push(self.string()?),
                Some(_) => operands.push(self.token()?),
            }
        }
        Ok(Operation { opcode, operands })
    }

    /// A string operand, the cursor on its opening quote.
    fn string(&mut self) -> Result<Operand, EpdError> {
        let open = self.pos;
        let body = open + 1;
        let rest = self.slice(body, self.b.len());
        let Some(len) = rest.iter().position(|&c| c == b'"') else {
            return Err(EpdError::at(open, "string operand not closed"));
        };
        let close = body + len;
        if let Some(tab) = rest.iter().take(len).position(|&c| c == b'\t') {
            return Err(EpdError::at(body + tab, "tab inside a string operand"));
        }
        if len > MAX_STRING {
            return Err(EpdError::at(
                open,
                format!("string operand is {len} bytes long; at most {MAX_STRING} are allowed"),
            ));
        }
        self.pos = close + 1;
        match self.peek() {
            None | Some(b' ' | b'\t' | b';') => Ok(Operand::Str(self.text(body, close))),
            Some(c) => Err(EpdError::at(
                self.pos,
                format!(
                    "expected a blank or ';' after a string operand, found '{}'",
                    char::from(c)
                ),
            )),
        }
    }

    /// An unquoted operand: non-blank printing bytes up to a blank or `;`.
    fn token(&mut self) -> Result<Operand, EpdError> {
        let start = self.pos;
        self.skip_while(|c| !matches!(c, b' ' | b'\t' | b';' | b'"'));
        if self.peek() == Some(b'"') {
            return Err(EpdError::at(self.pos, "'\"' inside an unquoted operand"));
        }
        Ok(Operand::Token(self.text(start, self.pos)))
    }
}

/// Rejects a second operation with an opcode already seen (`at` is the
/// 0-based offset of the second one). Linear: a line of at most 4096 bytes
/// holds at most 2048 operations, so this stays cheap even for hostile input.
fn check_duplicates(ops: &[Operation], opcode: &str, at: usize) -> Result<(), EpdError> {
    if ops.iter().any(|o| o.opcode == opcode) {
        return Err(EpdError::at(
            at,
            format!("duplicate opcode \"{opcode}\" (an opcode may appear only once per record)"),
        ));
    }
    Ok(())
}

/// Piece placement (spec 4.1): eight ranks separated by seven `/`, each
/// rank piece letters and digits 1-8 adding up to eight squares.
fn check_placement(f: &[u8], at: usize) -> Result<(), EpdError> {
    // Ranks are given from the eighth down to the first.
    let mut rank: u8 = 8;
    let mut squares: u32 = 0;
    let mut prev_digit = false;
    let bad_count = |i: usize, rank: u8, squares: u32| {
        EpdError::at(
            at + i,
            format!("piece placement: rank {rank} has {squares} squares, expected 8"),
        )
    };
    for (i, &c) in f.iter().enumerate() {
        match c {
            b'/' => {
                if squares != 8 {
                    return Err(bad_count(i, rank, squares));
                }
                if rank == 1 {
                    return Err(EpdError::at(at + i, "piece placement: more than 8 ranks"));
                }
                rank -= 1;
                squares = 0;
                prev_digit = false;
            }
            b'1'..=b'8' => {
                if prev_digit {
                    return Err(EpdError::at(
                        at + i,
                        format!(
                            "piece placement: two digits in a row in rank {rank} (a run of empty squares is one digit)"
                        ),
                    ));
                }
                squares += u32::from(c - b'0');
                prev_digit = true;
                if squares > 8 {
                    return Err(EpdError::at(
                        at + i,
                        format!("piece placement: rank {rank} has more than 8 squares"),
                    ));
                }
            }
            b'P' | b'N' | b'B' | b'R' | b'Q' | b'K' | b'p' | b'n' | b'b' | b'r' | b'q' | b'k' => {
                squares += 1;
                prev_digit = false;
                if squares > 8 {
                    return Err(EpdError::at(
                        at + i,
                        format!("piece placement: rank {rank} has more than 8 squares"),
                    ));
                }
            }
            _ => {
                return Err(EpdError::at(
                    at + i,
                    format!(
                        "piece placement: unexpected '{}' (expected a piece letter PNBRQKpnbrqk, a digit 1-8 or '/')",
                        char::from(c)
                    ),
                ));
            }
        }
    }
    if squares != 8 {
        return Err(bad_count(f.len(), rank, squares));
    }
    if rank != 1 {
        return Err(EpdError::at(
            at + f.len(),
            format!("piece placement has {} ranks, expected 8", 9 - rank),
        ));
    }
    Ok(())
}

/// Active colour (spec 4.2): `w` or `b`.
fn check_side(f: &[u8], at: usize) -> Result<(), EpdError> {
    match f {
        b"w" | b"b" => Ok(()),
        _ => Err(EpdError::at(
            at,
            format!("active color must be 'w' or 'b', found {}", shown(f)),
        )),
    }
}

/// Castling availability (spec 4.3): `-` or a non-empty subset of `KQkq`
/// in that order; or, for Chess960, X-FEN or Shredder-FEN: up to two of
/// White's letters (`K`, `Q`, a rook's file `A`-`H`), then up to two of
/// Black's (`k`, `q`, `a`-`h`). Which rook a letter names is for the
/// game's rules to say (`game::position_from_fields_in`).
fn check_castling(f: &[u8], at: usize) -> Result<(), EpdError> {
    if f == b"-" {
        return Ok(());
    }
    if !f.iter().all(|c| b"KQkq".contains(c)) && is_chess960_castling(f) {
        return Ok(());
    }
    let mut next = 0; // index into "KQkq" of the next allowed letter
    for (i, &c) in f.iter().enumerate() {
        let found = b"KQkq".iter().skip(next).position(|&k| k == c);
        match found {
            Some(k) => next += k + 1,
            None => {
                return Err(EpdError::at(
                    at + i,
                    format!(
                        "castling availability must be '-' or letters from KQkq in that order \
                         (in Chess960 also a rook's file: White's, then Black's), found {}",
                        shown(f)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Chess960's castling field: White's letters, then Black's, at most two
/// each, one at least.
fn is_chess960_castling(f: &[u8]) -> bool {
    let white = f
        .iter()
        .take_while(|c| matches!(c, b'K' | b'Q' | b'A'..=b'H'))
        .count();
    let black = &f[white..];
    !f.is_empty()
        && white <= 2
        && black.len() <= 2
        && black.iter().all(|c| matches!(c, b'k' | b'q' | b'a'..=b'h'))
}

/// En passant target square (spec 4.4): `-` or a file a-h and rank 3 or 6.
fn check_en_passant(f: &[u8], at: usize) -> Result<(), EpdError> {
    match f {
        b"-" | [b'a'..=b'h', b'3' | b'6'] => Ok(()),
        _ => Err(EpdError::at(
            at,
            format!(
                "en passant target square must be '-' or a square on rank 3 or 6, found {}",
                shown(f)
            ),
        )),
    }
}
