//! What a [`Link`](super::Link) reports to the main loop.

use std::fmt;
use std::time::Instant;

/// What a link is known by to its owner: the id given to
/// [`Link::open`](super::Link::open) comes back with each of its events
/// (the referee uses its `ClientId`), and names its threads and log lines.
pub trait LinkId: Clone + fmt::Display + Send + Sync + 'static {}

impl<T: Clone + fmt::Display + Send + Sync + 'static> LinkId for T {}

/// One report from a link's reader or writer thread (a TCP link's: from
/// the readiness loop).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkEvent<Id> {
    /// The id the link was opened with.
    pub id: Id,
    /// What happened.
    pub kind: LinkEventKind,
}

/// What happened on a link. Times are since the `epoch` given to
/// [`Link::open`](super::Link::open): `at_ms` in milliseconds and `at_us` in
/// microseconds (the same instant; `at_ms == at_us / 1000`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkEventKind {
    /// A good line arrived. Stamped with the read that brought its line end.
    Line {
        /// Printable ASCII, no line end, tabs turned into spaces, other
        /// bytes inside quoted strings turned into `?`.
        text: String,
        /// The bytes as received, with the line end bytes that came in the
        /// same read (see [`Frame::Line`](super::framer::Frame::Line)).
        raw: Vec<u8>,
        /// What was replaced by `?` inside quoted strings, in words.
        replaced: Option<String>,
        at_ms: u64,
        at_us: u64,
        /// When the read that brought the line's first byte returned, in
        /// microseconds (`at_us` when one read brought the whole line).
        first_at_us: u64,
        /// How many of `raw`'s bytes that read brought (`raw.len()` when it
        /// brought them all): with `first_at_us`, whether the line came
        /// paced at its baud rate or all at once, for the wire-time credit.
        first_bytes: usize,
    },
    /// A line was dropped (too long, not printable ASCII, or cut off when
    /// the link was lost).
    Dropped {
        /// What was wrong, with the byte and column or the lengths.
        reason: String,
        /// At most the first 4096 bytes of the line, line end not included.
        raw: Vec<u8>,
        /// The full length of the dropped line.
        len: usize,
        at_ms: u64,
        at_us: u64,
    },
    /// Bytes of a line are arriving (its line end has not): the other
    /// side is not silent. Reported when a chunk leaves a line unfinished,
    /// at most once per [`RECEIVING_EVERY_MS`](super::reader::RECEIVING_EVERY_MS).
    Receiving { at_ms: u64, at_us: u64 },
    /// A record was written and drained: its last byte has left the port.
    Sent {
        /// The sequence number given with it to [`Link::send`](super::Link::send).
        seq: u64,
        /// The record as given to [`Link::send`](super::Link::send).
        text: String,
        /// The bytes written, exactly: the record and its line end (after
        /// one line end more if an earlier attempt had been cut off by a
        /// lost link).
        wire: Vec<u8>,
        /// When the drain finished.
        at_ms: u64,
        at_us: u64,
    },
    /// A record was queued but will not be sent: the link was closed with
    /// it still waiting (e.g. while the port was down).
    SendFailed {
        /// The sequence number given with it.
        seq: u64,
        /// The record as given to [`Link::send`](super::Link::send).
        text: String,
        /// Why.
        reason: String,
    },
    /// The link was lost (read or write error, end of file, device gone).
    /// Reported once; the reader then tries to reopen the port every second.
    Lost {
        /// The error, in words.
        reason: String,
        at_ms: u64,
        at_us: u64,
    },
    /// A TCP connection was made or seated on this link (each time, the
    /// first one included); `Back` follows if the link had been lost.
    Connected {
        /// The peer's address, `IP:PORT`.
        peer: String,
        at_ms: u64,
        at_us: u64,
    },
    /// The port was reopened (or a new connection came) after
    /// [`LinkEventKind::Lost`]. Input that
    /// arrived while it was down was discarded.
    Back { at_ms: u64, at_us: u64 },
    /// A connection could not be made (again); the link keeps trying.
    /// Said at once, again when the reason changes and then now and then
    /// ([`Trying`](super::Trying)), with how long it has been tried:
    /// `tcp://127.0.0.1:7000: cannot connect to 127.0.0.1:7000: connection
    /// refused (nothing listens there); still trying, for 30 s`.
    Unreachable {
        /// What, in words.
        message: String,
    },
    /// Something went wrong that did not (yet) lose the link, e.g. a write
    /// stalled by flow control. For the log.
    Error {
        /// What, in words.
        message: String,
    },
}

/// A time since an epoch: milliseconds and microseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Stamp {
    /// Milliseconds since the epoch.
    pub ms: u64,
    /// Microseconds since the epoch.
    pub us: u64,
}

impl Stamp {
    /// The time elapsed since `epoch` now (zero if `epoch` is in the
    /// future; saturates instead of overflowing).
    pub fn since(epoch: Instant) -> Stamp {
        let us = u64::try_from(epoch.elapsed().as_micros()).unwrap_or(u64::MAX);
        Stamp { ms: us / 1000, us }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamp_ms_is_us_divided() {
        let epoch = Instant::now();
        let s = Stamp::since(epoch);
        assert_eq!(s.ms, s.us / 1000);
        let later = Stamp::since(epoch);
        assert!(later >= s);
    }

    #[test]
    fn epoch_in_the_future_gives_zero() {
        let future = Instant::now() + std::time::Duration::from_secs(3600);
        assert_eq!(Stamp::since(future), Stamp { ms: 0, us: 0 });
    }
}
