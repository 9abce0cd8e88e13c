//! Reading a journal: lines checked one at a time (the chained check),
//! the header gathered, and the rule for a damaged line: the last line may
//! be torn (the machine died while writing it) and is then ignored; a bad
//! line anywhere else refuses the journal with its line number.

use std::fmt;
use std::io::{BufRead, BufReader, Read};

use crate::journal::checksum::{CHAIN_START, line_check};
use crate::journal::format::{Entry, MAX_LINE};
use crate::journal::header::{Header, HeaderBuilder};

/// Why a journal cannot be used: where, and what is wrong there.
#[derive(Debug, thiserror::Error)]
#[error("{}{problem}", at_line(*line))]
pub struct JournalError {
    /// The 1-based line it concerns (0: the file as a whole).
    pub line: usize,
    pub problem: Problem,
}

/// `line N: `, or nothing for the file as a whole.
fn at_line(line: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!("line {line}: ")
    }
}

/// A line's own error, whichever journal's it is (a match journal's
/// `LineError`, a tournament journal's `BadLine`, their headers').
pub type LineSource = Box<dyn std::error::Error + Send + Sync>;

/// What is wrong with a journal, one variant per kind.
#[derive(Debug, thiserror::Error)]
pub enum Problem {
    /// A bad line with lines after it: not torn, damaged.
    #[error("{0}; the journal is damaged (lines follow it)")]
    Damaged(LineFault),
    /// The file ends inside the header with a line that is not one.
    #[error("{0} (is this an argus journal?)")]
    NotAJournal(LineFault),
    #[error("the journal is empty")]
    Empty,
    /// The file ends inside its header, after this many good lines.
    #[error("the journal ends inside its header (after line {0})")]
    HeaderUnfinished(usize),
    /// A line with no end within [`MAX_LINE`] bytes.
    #[error("line longer than {MAX_LINE} bytes")]
    TooLong,
    #[error("cannot read: {0}")]
    Read(std::io::Error),
    /// The line's framing is good but its words are not a line of this
    /// journal.
    #[error("{0}")]
    Line(LineSource),
    /// A header line that does not fit the header read so far.
    #[error("{0}")]
    Header(LineSource),
    /// The header is complete but what it says cannot be started.
    #[error("the header: {0}")]
    Start(LineSource),
    /// A header line after the header.
    #[error("a header line after the header (two journals joined?)")]
    HeaderAgain,
    #[error("an entry before the header")]
    EntryBeforeHeader,
    #[error("no header")]
    NoHeader,
    /// An input's time before the one before it.
    #[error("time {at} is earlier than the previous input's ({previous})")]
    TimeBackwards { at: u64, previous: u64 },
    /// A checkpoint that the replay does not reach.
    #[error("{0}")]
    Check(Box<crate::journal::replay::Mismatch>),
    /// A line this journal has no use for after its header.
    #[error("unexpected line `{0}`")]
    Unexpected(String),
}

impl JournalError {
    pub fn new(line: usize, problem: Problem) -> JournalError {
        JournalError { line, problem }
    }
}

/// What is wrong with a journal line's framing (before its payload is
/// read): torn if it is the last line, damage if lines follow it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineFault {
    #[error("longer than {MAX_LINE} bytes")]
    TooLong,
    #[error("bytes outside printable ASCII")]
    NotPrintable,
    #[error("no check at the end")]
    NoCheck,
    #[error("{0:?} is not a check (8 hex digits)")]
    NotACheck(String),
    #[error("check {found:08x} does not match the line (expected {expected:08x})")]
    Mismatch { found: u32, expected: u32 },
    /// The file ends without a line end after its last line.
    #[error("no line end")]
    NoLineEnd,
}

/// A last line that was ignored because it is incomplete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Torn {
    /// Its 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub reason: LineFault,
    /// Where it starts in the file: the valid journal is the bytes before.
    pub offset: u64,
}

impl fmt::Display for Torn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {} is torn ({}): ignored, as the last line of a journal whose writer stopped mid-line",
            self.line, self.reason
        )
    }
}

/// The framing every argus journal shares (the match's and the
/// tournament's): lines checked in order against the chain, counted, and
/// the rule for a bad line (held back: torn if it is the last, damage if
/// anything follows it).
#[derive(Debug)]
pub struct LineChain {
    chain: u32,
    lines: usize,
    /// Bytes of the good lines so far.
    offset: u64,
    /// A bad line, held back: it is only torn if nothing follows it.
    held: Option<(usize, LineFault, u64)>,
}

impl Default for LineChain {
    fn default() -> LineChain {
        LineChain {
            chain: CHAIN_START,
            lines: 0,
            offset: 0,
            held: None,
        }
    }
}

impl LineChain {
    /// Good lines so far.
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// The check of the last good line (to append after it).
    pub fn chain(&self) -> u32 {
        self.chain
    }

    /// Bytes of the good lines so far, line ends included.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Forgets a bad line held back.
    pub fn drop_held(&mut self) {
        self.held = None;
    }

    /// Takes one line, without its `\n`: its payload, or `None` when it is
    /// bad and held back. A line after a held one is an error (the journal
    /// is damaged).
    pub fn push<'a>(&mut self, line: &'a [u8]) -> Result<Option<&'a str>, JournalError> {
        if let Some((n, reason, _)) = self.held.take() {
            return Err(JournalError::new(n, Problem::Damaged(reason)));
        }
        match check_line(self.chain, line) {
            Ok((payload, check)) => {
                self.chain = check;
                self.lines += 1;
                self.offset += line.len() as u64 + 1;
                Ok(Some(payload))
            }
            Err(reason) => {
                self.held = Some((self.lines + 1, reason, self.offset));
                Ok(None)
            }
        }
    }

    /// The end of the journal: `tail` is what follows the last line end
    /// (empty if the file ends with one). Returns the torn last line, if
    /// any.
    pub fn finish(&mut self, tail: &[u8]) -> Result<Option<Torn>, JournalError> {
        match (self.held.take(), tail.is_empty()) {
            (Some((n, reason, offset)), true) => Ok(Some(Torn {
                line: n,
                reason,
                offset,
            })),
            (Some((n, reason, _)), false) => Err(JournalError::new(n, Problem::Damaged(reason))),
            (None, false) => Ok(Some(Torn {
                line: self.lines + 1,
                reason: LineFault::NoLineEnd,
                offset: self.offset,
            })),
            (None, true) => Ok(None),
        }
    }
}

/// Checks a line's form and its check against the previous line's
/// `chain`; returns its payload and its check.
fn check_line(chain: u32, line: &[u8]) -> Result<(&str, u32), LineFault> {
    if line.len() > MAX_LINE {
        return Err(LineFault::TooLong);
    }
    let text = std::str::from_utf8(line)
        .ok()
        .filter(|t| t.bytes().all(|b| (0x20..=0x7e).contains(&b)))
        .ok_or(LineFault::NotPrintable)?;
    let (payload, check) = text.rsplit_once(' ').ok_or(LineFault::NoCheck)?;
    let check = (check.len() == 8)
        .then(|| u32::from_str_radix(check, 16).ok())
        .flatten()
        .ok_or_else(|| LineFault::NotACheck(check.to_string()))?;
    let want = line_check(chain, payload);
    if check != want {
        return Err(LineFault::Mismatch {
            found: check,
            expected: want,
        });
    }
    Ok((payload, check))
}

/// A journal's lines turned into what they say, one at a time: the match
/// journal's [`Decoder`] and the tournament journal's decoder.
pub trait LineDecoder {
    /// What a line gives.
    type Item;
    /// Takes one line, without its `\n`.
    fn push(&mut self, line: &[u8]) -> Result<Self::Item, JournalError>;
    /// The end of the journal (see [`LineChain::finish`]).
    fn finish(&mut self, tail: &[u8]) -> Result<Option<Torn>, JournalError>;
    /// Its lines' framing: the good lines so far, their bytes, the last
    /// one's check, a bad line held back.
    fn framing(&self) -> &LineChain;
    /// See [`LineDecoder::framing`] (to forget a held line).
    fn framing_mut(&mut self) -> &mut LineChain;
    /// Good lines so far.
    fn lines(&self) -> usize {
        self.framing().lines()
    }
}

/// Checks journal lines in order and turns them into entries.
#[derive(Debug)]
pub struct Decoder {
    framing: LineChain,
    header: Option<HeaderBuilder>,
}

impl Default for Decoder {
    fn default() -> Decoder {
        Decoder::new()
    }
}

/// What a line of a journal gave (`H`: its header, `E`: a line after the
/// header; the match journal's [`Header`] and [`Entry`], or the
/// tournament journal's).
#[derive(Debug, Clone)]
pub enum Decoded<H = Header, E = Entry> {
    /// A header line (already taken in).
    HeaderLine,
    /// The header is complete.
    Header(Box<H>),
    /// A line after the header.
    Entry(E),
    /// A bad line, held back until it is known whether it is the last.
    Held,
}

impl Decoder {
    /// A decoder for a journal's first line.
    pub fn new() -> Decoder {
        Decoder {
            framing: LineChain::default(),
            header: Some(HeaderBuilder::default()),
        }
    }

    /// Good lines so far.
    pub fn lines(&self) -> usize {
        self.framing.lines()
    }

    /// The check of the last good line (to append after it).
    pub fn chain(&self) -> u32 {
        self.framing.chain()
    }

    /// Bytes of the good lines so far, line ends included.
    pub fn offset(&self) -> u64 {
        self.framing.offset()
    }

    /// Forgets a bad line held back (the file was cut before it, or the
    /// caller knows it was the last).
    pub fn drop_held(&mut self) {
        self.framing.drop_held();
    }

    /// Takes one line, without its `\n`.
    pub fn push(&mut self, line: &[u8]) -> Result<Decoded, JournalError> {
        let number = self.framing.lines() + 1;
        let Some(payload) = self.framing.push(line)? else {
            return Ok(Decoded::Held);
        };
        let entry = Entry::parse(payload)
            .map_err(|e| JournalError::new(number, Problem::Line(e.into())))?;
        match self.header.as_mut() {
            Some(b) => match b
                .push(entry)
                .map_err(|e| JournalError::new(number, Problem::Header(e.into())))?
            {
                Some(h) => {
                    self.header = None;
                    Ok(Decoded::Header(Box::new(h)))
                }
                None => Ok(Decoded::HeaderLine),
            },
            None => match entry {
                Entry::Magic { .. }
                | Entry::Session(_)
                | Entry::Set { .. }
                | Entry::Opening { .. }
                | Entry::Begin => Err(JournalError::new(number, Problem::HeaderAgain)),
                e => Ok(Decoded::Entry(e)),
            },
        }
    }

    /// The end of the journal: `tail` is what follows the last line end
    /// (empty if the file ends with one). Returns the torn last line, if
    /// any; a journal that ends inside its header is refused.
    pub fn finish(&mut self, tail: &[u8]) -> Result<Option<Torn>, JournalError> {
        let torn = self.framing.finish(tail)?;
        if self.header.is_some() {
            return Err(unfinished_header(torn, self.lines()));
        }
        Ok(torn)
    }
}

/// The error for a journal that ends before its header does (`torn`: its
/// torn last line, if any; `lines`: its good lines).
pub fn unfinished_header(torn: Option<Torn>, lines: usize) -> JournalError {
    if let Some(t) = torn {
        return JournalError::new(t.line, Problem::NotAJournal(t.reason));
    }
    JournalError::new(
        0,
        if lines == 0 {
            Problem::Empty
        } else {
            Problem::HeaderUnfinished(lines)
        },
    )
}

impl LineDecoder for Decoder {
    type Item = Decoded;
    fn push(&mut self, line: &[u8]) -> Result<Decoded, JournalError> {
        Decoder::push(self, line)
    }
    fn finish(&mut self, tail: &[u8]) -> Result<Option<Torn>, JournalError> {
        Decoder::finish(self, tail)
    }
    fn framing(&self) -> &LineChain {
        &self.framing
    }
    fn framing_mut(&mut self) -> &mut LineChain {
        &mut self.framing
    }
}

/// What [`read_line`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RawLine {
    /// A whole line, now in the buffer without its `\n`.
    Whole,
    /// Bytes without a line end (a torn last line, or more than
    /// [`MAX_LINE`] + 1 bytes), in the buffer.
    Partial,
    /// Nothing more.
    End,
}

/// Reads one journal line from `r` into `buf` (cleared first), never more
/// than [`MAX_LINE`] + 2 bytes of it, so memory stays bounded whatever the
/// input.
pub fn read_line(r: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<RawLine> {
    read_line_within(r, buf, MAX_LINE)
}

/// Reads one line of at most `max` bytes (see [`read_line`]): never more
/// than `max` + 2 bytes of it are kept; a longer line is [`RawLine::Partial`]
/// and its rest is still to be read.
pub fn read_line_within(
    r: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<RawLine> {
    buf.clear();
    let n = r.take(max as u64 + 2).read_until(b'\n', buf)?;
    Ok(match buf.last() {
        _ if n == 0 => RawLine::End,
        Some(b'\n') => {
            buf.pop();
            RawLine::Whole
        }
        _ => RawLine::Partial,
    })
}

/// Reads `reader` line by line into `decoder`, calling `each` for every
/// header and entry; returns the torn last line, if any. Memory stays
/// bounded by [`MAX_LINE`] whatever the input.
pub fn read_all<D: LineDecoder>(
    reader: impl Read,
    decoder: &mut D,
    mut each: impl FnMut(usize, D::Item) -> Result<(), JournalError>,
) -> Result<Option<Torn>, JournalError> {
    let mut r = BufReader::new(reader);
    let mut buf = Vec::new();
    loop {
        let line = read_line(&mut r, &mut buf)
            .map_err(|e| JournalError::new(decoder.lines() + 1, Problem::Read(e)))?;
        if line == RawLine::End {
            return decoder.finish(&[]);
        }
        if line == RawLine::Partial {
            if buf.len() > MAX_LINE {
                return Err(JournalError::new(decoder.lines() + 1, Problem::TooLong));
            }
            return decoder.finish(&buf);
        }
        let decoded = decoder.push(&buf)?;
        each(decoder.lines(), decoded)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A journal that ends before its header does says which of the ways
    /// it ended: nothing at all, a header cut short, or a last line that
    /// is not an argus line.
    #[test]
    fn an_unfinished_header_names_its_kind() {
        let empty = unfinished_header(None, 0);
        assert!(matches!(empty.problem, Problem::Empty));
        assert_eq!(empty.to_string(), "the journal is empty");
        let cut = unfinished_header(None, 4);
        assert!(matches!(cut.problem, Problem::HeaderUnfinished(4)));
        assert_eq!(
            cut.to_string(),
            "the journal ends inside its header (after line 4)"
        );
        let torn = Torn {
            line: 1,
            reason: LineFault::NoCheck,
            offset: 0,
        };
        let alien = unfinished_header(Some(torn), 0);
        assert!(matches!(
            alien.problem,
            Problem::NotAJournal(LineFault::NoCheck)
        ));
        assert_eq!(
            alien.to_string(),
            "line 1: no check at the end (is this an argus journal?)"
        );
    }
}
