//! The line framer: turns the bytes read from a port, chunk by chunk, into
//! text lines. Pure: no I/O, no clock (the caller passes the time each chunk
//! was read).
//!
//! Rules:
//!
//! * LF, CR, CRLF and NUL all end a line. CRLF is one line end, even when
//!   the CR and the LF arrive in different chunks.
//! * Empty lines are ignored.
//! * A line longer than the cap ([`MAX_LINE`] bytes by default, line end not
//!   counted) is dropped whole and reported. Only the first `cap` bytes are
//!   kept; the rest is counted until the line ends, so memory stays bounded.
//! * A line with a byte outside printable ASCII (0x20..=0x7E; tab is allowed
//!   and becomes a space in the text) outside a quoted string is dropped
//!   whole and reported with the first offending byte and its column.
//! * Inside a quoted string (`"..."`, an EPD string operand: a name, a
//!   comment) such bytes are replaced by `?` and the line is kept, with a
//!   note saying what was replaced: a program named in Latin-1 is not left
//!   waiting for ever, and an escape sequence never reaches a terminal or a
//!   file as such.
//! * Nothing after a dropped line is lost.
//! * A line is stamped with the time of the chunk that held its line end,
//!   i.e. the arrival of its last byte, and carries the time of the chunk
//!   that held its first byte and how many of its bytes that chunk brought:
//!   a line paced at its baud rate comes in over several chunks, one that
//!   a pseudo-terminal pair delivered all at once in one (see the clock's
//!   wire-time credit, `clock::line_credit_ms`).

/// The default line cap, in bytes (line end not counted).
pub const MAX_LINE: usize = 4096;

/// What the framer makes of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame<T> {
    /// A good line.
    Line {
        /// The line without its line end; every byte is printable ASCII
        /// (tabs are turned into spaces).
        text: String,
        /// The bytes as received, tabs kept, with the line end bytes that
        /// arrived in the same chunk (the LF of a CRLF split across two
        /// chunks is not included).
        raw: Vec<u8>,
        /// `raw.len()`: bytes this line took on the wire.
        raw_len: usize,
        /// What was replaced by `?` inside quoted strings, in words (the
        /// number of bytes, the first one in hex and its column); `None`
        /// when nothing was.
        replaced: Option<String>,
        /// The time passed with the chunk holding the line end.
        at: T,
        /// The time passed with the chunk holding the line's first byte
        /// (`at` when one chunk held the whole line).
        first_at: T,
        /// How many of `raw`'s bytes came in that first chunk (`raw_len`
        /// when one chunk held the whole line).
        first_bytes: usize,
    },
    /// A line that was dropped.
    Dropped {
        /// Why, in words: the length and the cap, or the first bad byte
        /// (hex) and its 1-based column, and how many bytes are not in `raw`.
        reason: String,
        /// The first bytes of the line, at most the cap, line end not included.
        raw: Vec<u8>,
        /// The full length of the dropped line, line end not included.
        len: usize,
        /// The time passed with the chunk holding the line end.
        at: T,
    },
}

impl<T: Copy> Frame<T> {
    /// The time stamp of this frame.
    pub fn at(&self) -> T {
        match self {
            Frame::Line { at, .. } | Frame::Dropped { at, .. } => *at,
        }
    }
}

/// Splits a byte stream into lines. See the module docs for the rules.
///
/// ```
/// use argus::link::framer::{Framer, Frame};
/// let mut f = Framer::new();
/// assert!(f.push(b"refreq sign", 1).is_empty());
/// let out = f.push(b"_on;\r", 2);
/// assert!(matches!(&out[..], [Frame::Line { text, at: 2, .. }] if text == "refreq sign_on;"));
/// assert!(f.push(b"\n", 3).is_empty()); // the LF of the CRLF
/// ```
#[derive(Debug, Clone)]
pub struct Framer<T> {
    cap: usize,
    /// The first `cap` bytes of the current line.
    buf: Vec<u8>,
    /// Length of the current line so far (may exceed `cap`).
    len: usize,
    /// First non-printable byte of the current line and its 1-based column.
    bad: Option<(u8, usize)>,
    /// Number of non-printable bytes in the current line.
    bad_count: usize,
    /// Inside a quoted string of the current line.
    quoted: bool,
    /// First non-printable byte inside a quoted string, its column, and
    /// how many there are: replaced by `?`, the line kept.
    replaced: Option<(u8, usize)>,
    replaced_count: usize,
    /// The last byte seen was a CR that ended a line.
    after_cr: bool,
    /// The time of the chunk that held the current line's first byte.
    first_at: Option<T>,
    /// How many of the current line's bytes that chunk held (set at the
    /// end of that chunk).
    first_bytes: usize,
}

impl<T: Copy> Default for Framer<T> {
    fn default() -> Self {
        Framer::new()
    }
}

impl<T: Copy> Framer<T> {
    /// A framer with the default cap, [`MAX_LINE`].
    pub fn new() -> Framer<T> {
        Framer::with_cap(MAX_LINE)
    }

    /// A framer that drops lines longer than `cap` bytes (at least 1).
    pub fn with_cap(cap: usize) -> Framer<T> {
        Framer {
            cap: cap.max(1),
            buf: Vec::new(),
            len: 0,
            bad: None,
            bad_count: 0,
            quoted: false,
            replaced: None,
            replaced_count: 0,
            after_cr: false,
            first_at: None,
            first_bytes: 0,
        }
    }

    /// The line cap in bytes.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Bytes of an unfinished line held so far (counted, not all stored).
    pub fn pending_len(&self) -> usize {
        self.len
    }

    /// Feeds one chunk read at time `at`; returns the lines and drops it
    /// completed, in order.
    pub fn push(&mut self, chunk: &[u8], at: T) -> Vec<Frame<T>> {
        let mut out = Vec::new();
        // Index in `out` of a frame ended by a CR in this chunk, so that the
        // LF that follows can be added to its raw bytes.
        let mut cr_frame: Option<usize> = None;
        // The current line began in this chunk.
        let mut began_here = false;
        let mut rest = chunk;
        while let Some((&byte, after)) = rest.split_first() {
            // A run of plain bytes (printable ASCII but the quote: nearly
            // all of a record) is taken whole, as byte by byte below
            // would take each of them.
            let run = rest.iter().take_while(|&&b| plain(b)).count();
            if run > 0 {
                let (taken, tail) = rest.split_at(run);
                self.after_cr = false;
                cr_frame = None;
                if self.len == 0 {
                    began_here = true;
                    self.first_at = Some(at);
                }
                self.len = self.len.saturating_add(run);
                let room = self.cap.saturating_sub(self.buf.len());
                self.buf
                    .extend_from_slice(taken.get(..room).unwrap_or(taken));
                rest = tail;
                continue;
            }
            rest = after;
            match byte {
                b'\n' if self.after_cr => {
                    // The LF of a CRLF: not a line end of its own.
                    self.after_cr = false;
                    if let Some(Frame::Line {
                        raw,
                        raw_len,
                        first_bytes,
                        ..
                    }) = cr_frame.take().and_then(|i| out.get_mut(i))
                    {
                        // The whole line came in this chunk: so did its LF.
                        if *first_bytes == *raw_len {
                            *first_bytes = first_bytes.saturating_add(1);
                        }
                        raw.push(b'\n');
                        *raw_len = raw.len();
                    }
                }
                b'\r' | b'\n' | 0 => {
                    let emitted = self.end_line(byte, at, began_here, &mut out);
                    began_here = false;
                    self.after_cr = byte == b'\r';
                    cr_frame = if self.after_cr && emitted {
                        out.len().checked_sub(1)
                    } else {
                        None
                    };
                }
                _ => {
                    self.after_cr = false;
                    cr_frame = None;
                    if self.len == 0 {
                        began_here = true;
                        self.first_at = Some(at);
                    }
                    self.len = self.len.saturating_add(1);
                    if byte == b'"' {
                        self.quoted = !self.quoted;
                    } else if !printable(byte) && self.quoted {
                        self.replaced_count = self.replaced_count.saturating_add(1);
                        if self.replaced.is_none() {
                            self.replaced = Some((byte, self.len));
                        }
                    } else if !printable(byte) {
                        self.bad_count = self.bad_count.saturating_add(1);
                        if self.bad.is_none() {
                            self.bad = Some((byte, self.len));
                        }
                    }
                    if self.buf.len() < self.cap {
                        self.buf.push(byte);
                    }
                }
            }
        }
        if began_here {
            self.first_bytes = self.len;
        }
        out
    }

    /// Ends an unfinished line without a line end (the link was lost, or
    /// the input is over). Returns it as [`Frame::Dropped`] with `why` in
    /// the reason, or `None` if nothing was pending. The framer is then
    /// ready for a fresh line.
    pub fn abandon(&mut self, at: T, why: &str) -> Option<Frame<T>> {
        self.after_cr = false;
        if self.len == 0 {
            return None;
        }
        let len = self.len;
        let raw = std::mem::take(&mut self.buf);
        let kept = raw.len();
        self.reset_line();
        Some(Frame::Dropped {
            reason: format!(
                "incomplete line of {len} bytes without a line end ({why}){}",
                more_note(len, kept)
            ),
            raw,
            len,
            at,
        })
    }

    /// Forgets any unfinished line and CRLF state.
    pub fn reset(&mut self) {
        self.reset_line();
        self.after_cr = false;
    }

    fn reset_line(&mut self) {
        self.buf = Vec::new();
        self.len = 0;
        self.bad = None;
        self.bad_count = 0;
        self.quoted = false;
        self.replaced = None;
        self.replaced_count = 0;
        self.first_at = None;
        self.first_bytes = 0;
    }

    /// Finishes the current line on line end byte `end` that came in the
    /// chunk of time `at` (`began_here`: so did the line's first byte).
    /// Returns whether a frame was emitted (empty lines are not).
    fn end_line(&mut self, end: u8, at: T, began_here: bool, out: &mut Vec<Frame<T>>) -> bool {
        if self.len == 0 {
            return false;
        }
        let len = self.len;
        let first_at = self.first_at.unwrap_or(at);
        let first_bytes = if began_here {
            None
        } else {
            Some(self.first_bytes)
        };
        let bad = self.bad;
        let bad_count = self.bad_count;
        let replaced = self.replaced.map(|(byte, column)| {
            format!(
                "{} byte{} not printable ASCII inside a quoted string replaced by '?' (the first, \
                 0x{byte:02X}, at column {column})",
                self.replaced_count,
                if self.replaced_count == 1 { "" } else { "s" }
            )
        });
        let mut raw = std::mem::take(&mut self.buf);
        self.reset_line();
        let kept = raw.len();
        let mut problems = Vec::new();
        if len > self.cap {
            problems.push(format!(
                "line of {len} bytes is longer than the {}-byte limit",
                self.cap
            ));
        }
        if let Some((byte, column)) = bad {
            let others = bad_count.saturating_sub(1);
            let tail = match others {
                0 => String::new(),
                1 => " (and 1 more such byte)".to_string(),
                n => format!(" (and {n} more such bytes)"),
            };
            problems.push(format!(
                "byte 0x{byte:02X} at column {column} is not printable ASCII{tail}"
            ));
        }
        if problems.is_empty() {
            // A line all of printable ASCII (nearly every one) is its own
            // text, copied whole; the others byte by byte.
            let text = if raw.iter().all(|b| (0x20..=0x7e).contains(b)) {
                String::from_utf8_lossy(&raw).into_owned()
            } else {
                raw.iter()
                    .map(|&b| match b {
                        b'\t' => ' ',
                        b if printable(b) => char::from(b),
                        _ => '?',
                    })
                    .collect()
            };
            raw.push(end);
            let raw_len = raw.len();
            out.push(Frame::Line {
                text,
                raw,
                raw_len,
                replaced,
                at,
                first_at,
                first_bytes: first_bytes.unwrap_or(raw_len).min(raw_len),
            });
        } else {
            out.push(Frame::Dropped {
                reason: format!("{}{}", problems.join("; "), more_note(len, kept)),
                raw,
                len,
                at,
            });
        }
        true
    }
}

/// A byte that is kept as it is and changes nothing in the framer's
/// state but the line's length: printable ASCII but the quote.
fn plain(byte: u8) -> bool {
    byte != b'"' && (0x20..=0x7e).contains(&byte)
}

/// Printable ASCII, or a tab (read as a space).
fn printable(byte: u8) -> bool {
    byte == b'\t' || (0x20..=0x7e).contains(&byte)
}

/// ", the first N bytes are kept and M more were discarded" when the line
/// was longer than what was kept.
fn more_note(len: usize, kept: usize) -> String {
    match len.checked_sub(kept) {
        Some(more) if more > 0 => {
            format!("; the first {kept} bytes are kept, {more} more were discarded")
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn texts(frames: &[Frame<u32>]) -> Vec<String> {
        frames
            .iter()
            .map(|f| match f {
                Frame::Line { text, .. } => text.clone(),
                Frame::Dropped { len, .. } => format!("<dropped {len}>"),
            })
            .collect()
    }

    /// A line that came in one chunk.
    fn line(text: &str, raw: &[u8], at: u32) -> Frame<u32> {
        spread(text, raw, at, raw.len(), at)
    }

    /// A line that came in several chunks: the first at `first_at` with
    /// `first_bytes` of it.
    fn spread(text: &str, raw: &[u8], first_at: u32, first_bytes: usize, at: u32) -> Frame<u32> {
        Frame::Line {
            text: text.to_string(),
            raw: raw.to_vec(),
            raw_len: raw.len(),
            replaced: None,
            at,
            first_at,
            first_bytes,
        }
    }

    #[test]
    fn non_ascii_inside_a_quoted_string_is_replaced_and_the_line_kept() {
        let mut f = Framer::new();
        let input = b"8/8/8/8/8/8/8/K6k w - - refreq sign_on; tcsi \"\" \"Schr\xf6der 3\";\r\n";
        let out = f.push(input, 1);
        let [
            Frame::Line {
                text,
                raw,
                replaced,
                ..
            },
        ] = &out[..]
        else {
            panic!("expected one line, got {out:?}");
        };
        assert!(text.ends_with("tcsi \"\" \"Schr?der 3\";"), "{text}");
        assert_eq!(
            raw,
            &input[..],
            "the bytes as received are kept for the transcript"
        );
        let why = replaced.as_deref().expect("a note of what was replaced");
        assert!(
            why.contains("1 byte ") && why.contains("0xF6") && why.contains("column 54"),
            "{why}"
        );
        // The record is kept: its name reads with the byte replaced.
        let record = crate::epd::Record::parse(text).expect("a record");
        let (_, name) = record.tcsi().expect("a tcsi").expect("a tcsi");
        assert_eq!(name, "Schr?der 3");
    }

    #[test]
    fn an_escape_sequence_in_a_quoted_string_never_comes_out_as_such() {
        let mut f = Framer::new();
        let out = f.push(b"x tcsi \"\x1b[2J\x1b]0;pwned\x07\" \"n\";\n", 1);
        let [Frame::Line { text, replaced, .. }] = &out[..] else {
            panic!("expected one line, got {out:?}");
        };
        assert_eq!(text, "x tcsi \"?[2J?]0;pwned?\" \"n\";");
        assert!(text.bytes().all(|b| (0x20..=0x7e).contains(&b)));
        assert!(
            replaced
                .as_deref()
                .is_some_and(|w| w.starts_with("3 bytes"))
        );
    }

    #[test]
    fn outside_quoted_strings_the_framer_stays_strict() {
        let mut f = Framer::new();
        // Before, between and after quoted strings; an unclosed quote ends
        // with the line.
        let out = f.push(
            b"caf\xe9 \"ok\"\n\"a\" \xff \"b\"\n\"ok\" x\x1b\n\"open\n\xe9\n",
            1,
        );
        assert_eq!(
            texts(&out),
            [
                "<dropped 9>",
                "<dropped 9>",
                "<dropped 7>",
                "\"open",
                "<dropped 1>"
            ]
        );
        assert!(matches!(&out[3], Frame::Line { replaced: None, .. }));
    }

    #[test]
    fn every_line_end_ends_a_line() {
        let mut f = Framer::new();
        let out = f.push(b"a\nb\rc\r\nd\0", 7);
        assert_eq!(
            out,
            vec![
                line("a", b"a\n", 7),
                line("b", b"b\r", 7),
                line("c", b"c\r\n", 7),
                line("d", b"d\0", 7),
            ]
        );
    }

    #[test]
    fn crlf_split_across_chunks_is_one_line_end() {
        let mut f = Framer::new();
        assert_eq!(f.push(b"abc\r", 1), vec![line("abc", b"abc\r", 1)]);
        assert_eq!(f.push(b"\n", 2), vec![]);
        assert_eq!(f.push(b"def\n", 3), vec![line("def", b"def\n", 3)]);
        assert_eq!(f.pending_len(), 0);
    }

    #[test]
    fn empty_lines_are_ignored() {
        let mut f = Framer::new();
        assert_eq!(texts(&f.push(b"\r\n\r\n\n\n\r\r\0\0x\n\n", 0)), vec!["x"]);
    }

    #[test]
    fn lf_cr_is_two_line_ends_but_yields_one_line() {
        let mut f = Framer::new();
        assert_eq!(texts(&f.push(b"x\n\ry\n", 0)), vec!["x", "y"]);
    }

    #[test]
    fn stamp_is_the_chunk_holding_the_line_end() {
        let mut f = Framer::new();
        assert!(f.push(b"ref", 10).is_empty());
        assert!(f.push(b"req", 20).is_empty());
        let out = f.push(b";\nnext", 30);
        assert_eq!(out, vec![spread("refreq;", b"refreq;\n", 10, 3, 30)]);
        assert_eq!(
            f.push(b"\r", 40),
            vec![spread("next", b"next\r", 30, 4, 40)]
        );
    }

    #[test]
    fn a_line_knows_its_first_chunk_and_how_much_it_brought() {
        let mut f = Framer::new();
        // Line ends before the line do not start it; the LF of a CRLF in
        // the same chunk as the whole line counts with it.
        let out = f.push(b"\r\nab\r\ncd", 5);
        assert_eq!(out, vec![line("ab", b"ab\r\n", 5)]);
        assert!(f.push(b"e", 6).is_empty());
        // The CR ends the line in this chunk, its LF comes in the next:
        // neither is in the first chunk.
        assert_eq!(f.push(b"f\r", 7), vec![spread("cdef", b"cdef\r", 5, 2, 7)]);
        assert!(f.push(b"\n", 8).is_empty());
        // A line that began in one chunk and ended with CRLF in another.
        assert!(f.push(b"gh", 9).is_empty());
        assert_eq!(f.push(b"\r\n", 10), vec![spread("gh", b"gh\r\n", 9, 2, 10)]);
        // An abandoned line leaves nothing behind for the next one.
        assert!(f.push(b"lost", 11).is_empty());
        assert!(f.abandon(12, "link lost").is_some());
        assert_eq!(f.push(b"new\n", 13), vec![line("new", b"new\n", 13)]);
    }

    #[test]
    fn tab_becomes_space_in_text_but_stays_in_raw() {
        let mut f = Framer::new();
        assert_eq!(f.push(b"a\tb\n", 0), vec![line("a b", b"a\tb\n", 0)]);
    }

    #[test]
    fn line_at_the_cap_is_kept_one_over_is_dropped() {
        let mut f = Framer::with_cap(8);
        assert_eq!(texts(&f.push(b"12345678\n", 0)), vec!["12345678"]);
        let out = f.push(b"123456789\nok\n", 1);
        match &out[..] {
            [
                Frame::Dropped {
                    reason,
                    raw,
                    len,
                    at,
                },
                Frame::Line { text, .. },
            ] => {
                assert_eq!(raw, b"12345678");
                assert_eq!(*len, 9);
                assert_eq!(*at, 1);
                assert!(reason.contains("9 bytes"), "{reason}");
                assert!(reason.contains("8-byte limit"), "{reason}");
                assert!(reason.contains("1 more were discarded"), "{reason}");
                assert_eq!(text, "ok");
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn over_long_line_is_counted_not_buffered() {
        let mut f = Framer::new();
        for _ in 0..100 {
            assert!(f.push(&[b'x'; 1000], 0).is_empty());
            assert!(f.buf.len() <= MAX_LINE);
        }
        let out = f.push(b"\r\nrefreq sign_on;\r\n", 5);
        match &out[..] {
            [Frame::Dropped { raw, len, .. }, Frame::Line { text, .. }] => {
                assert_eq!(raw.len(), MAX_LINE);
                assert_eq!(*len, 100_000);
                assert_eq!(text, "refreq sign_on;");
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn non_ascii_line_is_dropped_with_byte_and_column() {
        let mut f = Framer::new();
        let out = f.push(b"ab\xe9c\x1bd\r\nnext;\n", 3);
        match &out[..] {
            [
                Frame::Dropped {
                    reason, raw, len, ..
                },
                Frame::Line { text, .. },
            ] => {
                assert_eq!(raw, b"ab\xe9c\x1bd");
                assert_eq!(*len, 6);
                assert!(reason.contains("0xE9 at column 3"), "{reason}");
                assert!(reason.contains("1 more such byte"), "{reason}");
                assert_eq!(text, "next;");
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn del_and_other_controls_are_not_printable() {
        let mut f = Framer::new();
        for bad in [0x7fu8, 0x01, 0x0b, 0x0c, 0x1b, 0x80, 0xff] {
            let out = f.push(&[b'a', bad, b'\n'], 0);
            assert!(
                matches!(&out[..], [Frame::Dropped { .. }]),
                "byte {bad:#x}: {out:?}"
            );
        }
    }

    #[test]
    fn both_problems_are_reported() {
        let mut f = Framer::with_cap(4);
        let out = f.push(b"abc\x01efgh\n", 0);
        match &out[..] {
            [Frame::Dropped { reason, .. }] => {
                assert!(reason.contains("longer than the 4-byte limit"), "{reason}");
                assert!(reason.contains("0x01 at column 4"), "{reason}");
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn abandon_reports_a_partial_line_and_resets() {
        let mut f = Framer::new();
        assert!(f.push(b"half a li", 1).is_empty());
        match f.abandon(2, "link lost") {
            Some(Frame::Dropped {
                reason, raw, len, ..
            }) => {
                assert_eq!(raw, b"half a li");
                assert_eq!(len, 9);
                assert!(reason.contains("link lost"), "{reason}");
            }
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(f.abandon(3, "again"), None);
        assert_eq!(texts(&f.push(b"whole\n", 4)), vec!["whole"]);
    }

    #[test]
    fn abandon_after_cr_forgets_the_crlf_state() {
        let mut f = Framer::new();
        assert_eq!(texts(&f.push(b"a\r", 0)), vec!["a"]);
        assert_eq!(f.abandon(1, "lost"), None);
        // After a reopen a lone LF is just an (empty, ignored) line end.
        assert_eq!(texts(&f.push(b"\nb\n", 2)), vec!["b"]);
    }

    /// Splits `data` at the given (sorted, deduplicated) cut points.
    fn split<'a>(data: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
        let mut parts = Vec::new();
        let mut start = 0;
        for &c in cuts {
            let c = c.min(data.len());
            if c > start {
                parts.push(&data[start..c]);
                start = c;
            }
        }
        parts.push(&data[start..]);
        parts
    }

    fn run(f: &mut Framer<u32>, parts: &[&[u8]]) -> Vec<Frame<u32>> {
        let mut all = Vec::new();
        for (i, p) in parts.iter().enumerate() {
            all.extend(f.push(p, u32::try_from(i).unwrap_or(u32::MAX)));
        }
        all
    }

    /// What must not depend on chunk boundaries: the text of each line, and
    /// the length and reason of each drop.
    fn summary(frames: &[Frame<u32>]) -> Vec<(bool, String, usize)> {
        frames
            .iter()
            .map(|f| match f {
                Frame::Line { text, .. } => (true, text.clone(), text.len()),
                Frame::Dropped { reason, len, .. } => (false, reason.clone(), *len),
            })
            .collect()
    }

    fn bytes_strategy() -> impl Strategy<Value = Vec<u8>> {
        // Mostly printable text with line ends and some garbage mixed in.
        let byte = prop_oneof![
            8 => 0x20u8..=0x7e,
            2 => prop_oneof![Just(b'\r'), Just(b'\n'), Just(0u8), Just(b'\t')],
            1 => any::<u8>(),
        ];
        proptest::collection::vec(byte, 0..300)
    }

    proptest! {
        #[test]
        fn arbitrary_chunks_never_yield_bad_lines(
            chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..64), 0..20),
            cap in 1usize..40,
        ) {
            let mut f = Framer::with_cap(cap);
            for (i, c) in chunks.iter().enumerate() {
                for frame in f.push(c, i) {
                    prop_assert_eq!(frame.at(), i);
                    match frame {
                        Frame::Line { text, raw, raw_len, first_at, first_bytes, .. } => {
                            prop_assert!(first_at <= i);
                            prop_assert!(first_bytes >= 1 && first_bytes <= raw_len);
                            // One chunk held it all exactly when it began in the last.
                            prop_assert_eq!(first_at == i, first_bytes == raw_len);
                            prop_assert!(!text.is_empty());
                            prop_assert!(text.len() <= cap);
                            prop_assert!(text.bytes().all(|b| (0x20..=0x7e).contains(&b)));
                            prop_assert_eq!(raw.len(), raw_len);
                            prop_assert!(raw_len <= cap + 2);
                        }
                        Frame::Dropped { raw, len, .. } => {
                            prop_assert!(raw.len() <= cap);
                            prop_assert!(raw.len() <= len);
                        }
                    }
                }
                prop_assert!(f.buf.len() <= cap);
            }
        }

        #[test]
        fn chunk_boundaries_do_not_change_the_lines(
            data in bytes_strategy(),
            mut cuts in proptest::collection::vec(0usize..300, 0..12),
            cap in 1usize..40,
        ) {
            cuts.sort_unstable();
            cuts.dedup();
            let whole = run(&mut Framer::with_cap(cap), &[&data[..]]);
            let parts = split(&data, &cuts);
            let pieces = run(&mut Framer::with_cap(cap), &parts);
            prop_assert_eq!(summary(&whole), summary(&pieces));
            let bytewise: Vec<&[u8]> = data.chunks(1).collect();
            let singles = run(&mut Framer::with_cap(cap), &bytewise);
            prop_assert_eq!(summary(&whole), summary(&singles));
        }
    }
}
