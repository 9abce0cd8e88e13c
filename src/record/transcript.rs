//! The session transcript: a text file from which a person (or a tool, with
//! [`parse_line`]) can reconstruct every byte that went in and out of every
//! port, and when.
//!
//! One line per event:
//!
//! ```text
//! 000012.345 2024-05-01T10:00:12.345Z A < refreq sign_on;\x0d\x0a
//! 000012.350 2024-05-01T10:00:12.350Z A > refcom reset;\x0d\x0a
//! 000013.001 2024-05-01T10:00:13.001Z B ! \x01\x02junk\x0d\x0a<TAB>line has control bytes
//! 000013.002 2024-05-01T10:00:13.002Z - # match paused by the supervisor
//! ```
//!
//! Fields, separated by one space: seconds since the session start with
//! milliseconds (monotonic, at least six digits before the point); the
//! wall-clock UTC time of the event; the port label (spaces and other
//! non-printables escaped, `-` for notes); the direction (`<` in, `>` out,
//! `!` received but rejected, `#` a note); then the bytes exactly, with
//! bytes outside printable ASCII and `\` written as `\xNN` (so line ends are
//! visible). A rejected line adds a TAB and the escaped reason; a TAB cannot
//! occur unescaped in the bytes, so the split is unambiguous.

use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::time::{Duration, SystemTime};

use super::escape::escape_onto;
pub use super::escape::unescape;
use super::timestamp::write_utc;

/// Which way the bytes of a transcript line went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Received from the port (`<`).
    In,
    /// Sent to the port (`>`).
    Out,
    /// Received but rejected, e.g. a line with bad bytes (`!`).
    Rejected,
    /// A note from argus, not port traffic (`#`).
    Note,
}

impl Direction {
    /// The character that marks this direction in the transcript.
    pub fn symbol(self) -> char {
        match self {
            Direction::In => '<',
            Direction::Out => '>',
            Direction::Rejected => '!',
            Direction::Note => '#',
        }
    }

    /// The direction a transcript character marks.
    pub fn from_symbol(c: char) -> Option<Direction> {
        match c {
            '<' => Some(Direction::In),
            '>' => Some(Direction::Out),
            '!' => Some(Direction::Rejected),
            '#' => Some(Direction::Note),
            _ => None,
        }
    }
}

/// A transcript writer.
///
/// Flush policy: every event is formatted into one line and handed to the
/// operating system at once (one `write` per event), so a crash of argus
/// loses nothing already logged; the file is not fsynced (serial traffic is
/// a few lines a second, but fsync per line would still stall the main loop
/// on slow disks; the journal is what must survive a power cut).
#[derive(Debug)]
pub struct Transcript<W: Write = BufWriter<File>> {
    out: W,
    wall_origin: SystemTime,
    line: String,
    /// Whether each event is flushed at once (the default), or waits for
    /// [`Transcript::flush`] (see [`Transcript::held`]).
    flush_each: bool,
}

impl Transcript<BufWriter<File>> {
    /// Opens (creating it if needed) the transcript file at `path` for
    /// appending, so that a restarted session keeps the earlier log. Times
    /// are measured from now: pass `at` as the time since the session start.
    pub fn create(path: impl AsRef<Path>) -> io::Result<Self> {
        let path = path.as_ref();
        let f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("cannot open transcript {}: {e}", path.display()),
                )
            })?;
        Ok(Transcript::new(BufWriter::new(f), SystemTime::now()))
    }
}

impl<W: Write> Transcript<W> {
    /// Times `at` are measured from `origin` on: the wall-clock time of an
    /// event at `at` is `origin + at` (a tournament's boards and resumes,
    /// whose times are the event's journal time, not the file's age).
    pub fn set_wall_origin(&mut self, origin: SystemTime) {
        self.wall_origin = origin;
    }

    /// A transcript written to `out`; the wall-clock time of an event at `at`
    /// is `wall_origin + at`.
    pub fn new(out: W, wall_origin: SystemTime) -> Self {
        Transcript {
            out,
            wall_origin,
            line: String::new(),
            flush_each: true,
        }
    }

    /// The same transcript, its events held in the buffer until
    /// [`Transcript::flush`]: a referee's loop flushes once at the end of
    /// each turn, after the records that turn sent have left, instead of
    /// writing each line before them.
    pub fn held(mut self) -> Self {
        self.flush_each = false;
        self
    }

    /// Logs bytes received on `port` at `at` (time since session start).
    pub fn incoming(&mut self, at: Duration, port: &str, raw: &[u8]) -> io::Result<()> {
        self.event(at, port, Direction::In, raw, None)
    }

    /// Logs bytes sent on `port`.
    pub fn outgoing(&mut self, at: Duration, port: &str, raw: &[u8]) -> io::Result<()> {
        self.event(at, port, Direction::Out, raw, None)
    }

    /// Logs bytes received on `port` and rejected, with the reason.
    pub fn rejected(
        &mut self,
        at: Duration,
        port: &str,
        raw: &[u8],
        reason: &str,
    ) -> io::Result<()> {
        self.event(at, port, Direction::Rejected, raw, Some(reason))
    }

    /// Logs a note (not port traffic), e.g. "game 3 started".
    pub fn note(&mut self, at: Duration, text: &str) -> io::Result<()> {
        self.event(at, "", Direction::Note, text.as_bytes(), None)
    }

    /// Hands anything buffered to the operating system (every event already
    /// does, unless the transcript is [`Transcript::held`]).
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The underlying writer.
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    fn event(
        &mut self,
        at: Duration,
        port: &str,
        dir: Direction,
        raw: &[u8],
        reason: Option<&str>,
    ) -> io::Result<()> {
        let wall = self.wall_origin.checked_add(at).unwrap_or(self.wall_origin);
        let ms = at.as_millis();
        // The line is built in place: no string of its own for each field
        // (a transcript line is written for every byte in and out).
        self.line.clear();
        let _ = write!(self.line, "{:06}.{:03} ", ms / 1000, ms % 1000);
        write_utc(&mut self.line, wall);
        self.line.push(' ');
        if port.is_empty() {
            self.line.push('-');
        } else {
            escape_onto(&mut self.line, port.as_bytes(), true);
        }
        self.line.push(' ');
        self.line.push(dir.symbol());
        self.line.push(' ');
        escape_onto(&mut self.line, raw, false);
        if let Some(r) = reason {
            self.line.push('\t');
            escape_onto(&mut self.line, r.as_bytes(), false);
        }
        self.line.push('\n');
        self.out.write_all(self.line.as_bytes())?;
        if self.flush_each {
            self.out.flush()?;
        }
        Ok(())
    }
}

/// One transcript line, parsed back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranscriptLine {
    /// Time since the session start (millisecond resolution).
    pub at: Duration,
    /// The wall-clock field as written (`YYYY-MM-DDTHH:MM:SS.mmmZ`).
    pub wall: String,
    /// The port label (unescaped); `-` for notes.
    pub port: String,
    /// Which way the bytes went.
    pub direction: Direction,
    /// The bytes exactly as they were on the wire (or the note's text).
    pub bytes: Vec<u8>,
    /// Why the bytes were rejected (direction `!` only).
    pub reason: Option<String>,
}

/// Parses a line [`Transcript`] wrote (without its `\n`); the error says
/// which field is wrong.
pub fn parse_line(line: &str) -> Result<TranscriptLine, TranscriptError> {
    let mut fields = line.splitn(5, ' ');
    let mut next = |field: &'static str| {
        fields.next().ok_or_else(|| TranscriptError::Missing {
            field,
            line: line.to_string(),
        })
    };
    let (mono, wall, port, dir, payload) = (
        next("time")?,
        next("wall-clock")?,
        next("port")?,
        next("direction")?,
        next("bytes")?,
    );
    let at = parse_mono(mono).ok_or_else(|| TranscriptError::Time(mono.to_string()))?;
    let direction = match dir.chars().collect::<Vec<_>>().as_slice() {
        [c] => Direction::from_symbol(*c),
        _ => None,
    }
    .ok_or_else(|| TranscriptError::Direction(dir.to_string()))?;
    let (bytes, reason) = match payload.split_once('\t') {
        Some((b, r)) => (b, Some(String::from_utf8_lossy(&unescape(r)).into_owned())),
        None => (payload, None),
    };
    Ok(TranscriptLine {
        at,
        wall: wall.to_string(),
        port: String::from_utf8_lossy(&unescape(port)).into_owned(),
        direction,
        bytes: unescape(bytes),
        reason,
    })
}

/// A transcript line that does not read: the field and what was there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TranscriptError {
    #[error("transcript line has no {field} field: {line:?}")]
    Missing { field: &'static str, line: String },
    #[error("bad time field {0:?}")]
    Time(String),
    #[error("bad direction field {0:?}")]
    Direction(String),
}

fn parse_mono(s: &str) -> Option<Duration> {
    let (secs, ms) = s.split_once('.')?;
    if ms.len() != 3 || !secs.bytes().chain(ms.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let secs: u64 = secs.parse().ok()?;
    let ms: u64 = ms.parse().ok()?;
    Duration::from_secs(secs).checked_add(Duration::from_millis(ms))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::time::UNIX_EPOCH;

    fn transcript() -> Transcript<Vec<u8>> {
        Transcript::new(Vec::new(), UNIX_EPOCH + Duration::from_secs(1_700_000_000))
    }

    fn text(t: &Transcript<Vec<u8>>) -> String {
        String::from_utf8(t.get_ref().clone()).unwrap()
    }

    /// A held transcript hands its lines to the file only when flushed;
    /// the default one at each line.
    #[test]
    fn a_held_transcript_writes_on_flush_only() {
        let origin = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let mut held = Transcript::new(BufWriter::new(Vec::new()), origin).held();
        held.incoming(Duration::from_millis(1), "A", b"x\r\n")
            .unwrap();
        held.note(Duration::from_millis(2), "y").unwrap();
        assert!(held.get_ref().get_ref().is_empty());
        held.flush().unwrap();
        assert_eq!(
            held.get_ref()
                .get_ref()
                .iter()
                .filter(|&&b| b == b'\n')
                .count(),
            2
        );
        let mut each = Transcript::new(BufWriter::new(Vec::new()), origin);
        each.note(Duration::from_millis(2), "y").unwrap();
        assert!(!each.get_ref().get_ref().is_empty());
    }

    #[test]
    fn line_format() {
        let mut t = transcript();
        t.incoming(Duration::from_millis(12_345), "A", b"refreq sign_on;\r\n")
            .unwrap();
        t.outgoing(
            Duration::from_millis(12_350),
            "COM 1",
            b"refcom reset;\\\r\n",
        )
        .unwrap();
        t.rejected(
            Duration::from_millis(13_001),
            "B",
            b"\x01junk\r\n",
            "bad\tbyte",
        )
        .unwrap();
        t.note(Duration::from_secs(1_234_567), "paused").unwrap();
        assert_eq!(
            text(&t),
            "000012.345 2023-11-14T22:13:32.345Z A < refreq sign_on;\\x0d\\x0a\n\
             000012.350 2023-11-14T22:13:32.350Z COM\\x201 > refcom reset;\\x5c\\x0d\\x0a\n\
             000013.001 2023-11-14T22:13:33.001Z B ! \\x01junk\\x0d\\x0a\tbad\\x09byte\n\
             1234567.000 2023-11-29T05:09:27.000Z - # paused\n"
        );
    }

    #[test]
    fn lines_parse_back() {
        let mut t = transcript();
        t.rejected(
            Duration::from_millis(1_500),
            "port A",
            b"x y\tz\r\n",
            "too long",
        )
        .unwrap();
        t.incoming(Duration::ZERO, "B", b"").unwrap();
        let s = text(&t);
        let lines: Vec<&str> = s.lines().collect();
        let l = parse_line(lines[0]).unwrap();
        assert_eq!(l.at, Duration::from_millis(1_500));
        assert_eq!(l.port, "port A");
        assert_eq!(l.direction, Direction::Rejected);
        assert_eq!(l.bytes, b"x y\tz\r\n");
        assert_eq!(l.reason.as_deref(), Some("too long"));
        let l = parse_line(lines[1]).unwrap();
        assert_eq!(l.bytes, b"");
        assert_eq!(l.reason, None);
    }

    #[test]
    fn bad_lines_are_errors() {
        let e = |line: &str| parse_line(line).unwrap_err().to_string();
        assert!(e("").contains("wall-clock"));
        assert_eq!(
            parse_line("12 w A < x").unwrap_err(),
            TranscriptError::Time("12".into())
        );
        assert!(e("000001.000 w A ? x").contains("direction"));
    }

    #[test]
    fn file_is_appended_not_truncated() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.log");
        Transcript::create(&path)
            .unwrap()
            .note(Duration::ZERO, "one")
            .unwrap();
        let mut t = Transcript::create(&path).unwrap();
        t.note(Duration::ZERO, "two").unwrap();
        // Written through without an explicit flush.
        let s = std::fs::read_to_string(&path).unwrap();
        assert_eq!(s.lines().count(), 2);
        assert!(s.lines().next().unwrap().ends_with("# one"));
    }

    proptest! {
        #[test]
        fn every_event_round_trips(
            raw in proptest::collection::vec(any::<u8>(), 0..300),
            port in "\\PC{0,12}",
            reason in "\\PC{0,40}",
            ms in 0u64..10_000_000_000,
            kind in 0u8..3,
        ) {
            let mut t = transcript();
            let at = Duration::from_millis(ms);
            match kind {
                0 => t.incoming(at, &port, &raw).unwrap(),
                1 => t.outgoing(at, &port, &raw).unwrap(),
                _ => t.rejected(at, &port, &raw, &reason).unwrap(),
            }
            let s = text(&t);
            prop_assert_eq!(s.matches('\n').count(), 1);
            let l = parse_line(s.trim_end_matches('\n')).unwrap();
            prop_assert_eq!(l.at, at);
            prop_assert_eq!(l.bytes, raw);
            let expected_port = if port.is_empty() { "-".to_string() } else { port };
            prop_assert_eq!(l.port, expected_port);
            if kind == 2 {
                prop_assert_eq!(l.reason, Some(reason));
            }
        }

        #[test]
        fn parse_line_never_panics(s in "\\PC{0,80}") {
            let _ = parse_line(&s);
        }
    }
}
