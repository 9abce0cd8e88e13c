//! The writer thread of a [`Link`](super::Link): writes queued records with
//! their line end, drains them, reports `Sent`.

use std::collections::VecDeque;
use std::io::ErrorKind;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TryRecvError};

use super::event::{LinkEventKind, LinkId, Stamp};
use super::thread::{Shared, WriterMsg};

/// After this long without a byte accepted by the port, the write is
/// reported as stalled (once per record).
pub(super) const STALL_REPORT: Duration = Duration::from_secs(2);

/// A record waiting to be written.
pub(super) struct Pending {
    pub seq: u64,
    pub text: String,
    /// What to write: the text and line end (and a leading line end after a
    /// cut-off attempt).
    pub bytes: Vec<u8>,
    /// Bytes of `bytes` already written.
    pub progress: usize,
    /// The last record of a unit given to `Link::send_all`: its place in
    /// the queue is freed when this one is done.
    pub ends_unit: bool,
}

impl Pending {
    /// The records of one unit given to `Link::send_all`, each with
    /// `line_end`, the last one ending the unit.
    pub fn unit(records: Vec<(u64, String)>, line_end: &[u8]) -> impl Iterator<Item = Pending> {
        let last = records.len().saturating_sub(1);
        records
            .into_iter()
            .enumerate()
            .map(move |(i, (seq, text))| {
                let mut bytes = Vec::with_capacity(text.len().saturating_add(2));
                bytes.extend_from_slice(text.as_bytes());
                bytes.extend_from_slice(line_end);
                Pending {
                    seq,
                    text,
                    bytes,
                    progress: 0,
                    ends_unit: i == last,
                }
            })
    }

    /// The bytes still to write (none: the record is written).
    pub fn rest(&self) -> &[u8] {
        self.bytes.get(self.progress..).unwrap_or_default()
    }

    /// `n` more bytes were written.
    pub fn wrote(&mut self, n: usize) {
        self.progress = self.progress.saturating_add(n).min(self.bytes.len());
    }

    /// The link was lost with this record on its way: it is written again
    /// in full on the next connection, after a line end that ends the
    /// part already written (if any) as a line of its own.
    pub fn cut_off(&mut self, line_end: &[u8]) {
        if self.progress > 0 {
            let mut bytes = Vec::with_capacity(self.text.len().saturating_add(4));
            bytes.extend_from_slice(line_end);
            bytes.extend_from_slice(self.text.as_bytes());
            bytes.extend_from_slice(line_end);
            self.bytes = bytes;
            self.progress = 0;
        }
    }

    /// The event that reports it sent, drained at `at`.
    pub fn sent(self, at: Stamp) -> LinkEventKind {
        LinkEventKind::Sent {
            seq: self.seq,
            text: self.text,
            wire: self.bytes,
            at_ms: at.ms,
            at_us: at.us,
        }
    }
}

/// What a link reports when writing `text` on `path` has made no progress
/// for [`STALL_REPORT`].
pub(super) fn stalled_words(path: &str, text: &str) -> String {
    format!(
        "port {path}: writing \"{}\" has been stalled for {} s (flow control?); still trying",
        crate::text::strip_control(text)
            .chars()
            .take(60)
            .collect::<String>(),
        STALL_REPORT.as_secs()
    )
}

/// Why a link is lost when no byte could be written for `limit`.
pub(super) fn stall_limit_words(limit: Duration) -> String {
    format!(
        "no byte could be written for {} s (flow control held off by the other side, or a \
         peer that reads nothing?)",
        limit.as_secs()
    )
}

enum Delivery {
    /// Written and drained; the stamp is when the drain finished.
    Sent(Stamp),
    /// No port (the link is down) or the write failed; wait for `Wake`.
    Down,
    /// The link is being closed.
    Stopping,
}

/// Runs until `Stop` arrives or the channel closes; then reports every
/// record not sent (queued here or still in the channel) as `SendFailed`
/// and signals `done`.
pub(super) fn run<Id: LinkId>(shared: &Shared<Id>, rx: &Receiver<WriterMsg>, done: Sender<()>) {
    let mut queue: VecDeque<Pending> = VecDeque::new();
    let mut down = false;
    let line_end = shared.settings.line_end.as_bytes();
    loop {
        if shared.stopping() {
            break;
        }
        let msg = if queue.is_empty() || down {
            match rx.recv() {
                Ok(m) => Some(m),
                Err(_) => break,
            }
        } else {
            match rx.try_recv() {
                Ok(m) => Some(m),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => break,
            }
        };
        // Any message is a reason to try again, so a Wake that was missed
        // cannot leave the writer asleep while records wait.
        match msg {
            Some(WriterMsg::Send(records)) => {
                // `Link::send_all` keeps the units in the channel and in
                // this queue under MAX_QUEUED together.
                queue.extend(Pending::unit(records, line_end));
                down = false;
            }
            Some(WriterMsg::Wake) => down = false,
            Some(WriterMsg::Stop) => break,
            None => {}
        }
        if down {
            continue;
        }
        let Some(head) = queue.front_mut() else {
            continue;
        };
        match write_record(shared, head, line_end) {
            Delivery::Sent(at) => {
                if let Some(done) = queue.pop_front() {
                    if done.ends_unit {
                        shared.dequeued();
                    }
                    shared.emit(done.sent(at));
                }
            }
            Delivery::Down => down = true,
            Delivery::Stopping => break,
        }
    }
    // Report what is left, oldest first: the queue, then the channel.
    let unsent = queue
        .into_iter()
        .map(|p| (p.seq, p.text, p.ends_unit))
        .chain(rx.try_iter().flat_map(|m| match m {
            WriterMsg::Send(records) => {
                let last = records.len().saturating_sub(1);
                records
                    .into_iter()
                    .enumerate()
                    .map(|(i, (seq, t))| (seq, t, i == last))
                    .collect()
            }
            WriterMsg::Wake | WriterMsg::Stop => Vec::new(),
        }));
    for (seq, text, ends_unit) in unsent {
        if ends_unit {
            shared.dequeued();
        }
        shared.emit(LinkEventKind::SendFailed {
            seq,
            text,
            reason: "the link was closed before the record could be sent".to_string(),
        });
    }
    let _ = done.send(());
}

/// Writes the rest of `head` and drains it, holding the port slot.
fn write_record<Id: LinkId>(shared: &Shared<Id>, head: &mut Pending, line_end: &[u8]) -> Delivery {
    let mut slot = shared.slot();
    let Some(port) = slot.port.as_mut() else {
        return Delivery::Down;
    };
    let mut last_progress = Instant::now();
    let mut stall_reported = false;
    let failure = loop {
        if shared.stopping() {
            return Delivery::Stopping;
        }
        let rest = head.rest();
        if rest.is_empty() {
            break match port.flush() {
                Ok(()) => return Delivery::Sent(Stamp::since(shared.epoch)),
                Err(e) => format!("drain failed: {e} ({:?})", e.kind()),
            };
        }
        match port.write(rest) {
            Ok(0) => break "the port accepted no bytes".to_string(),
            Ok(n) => {
                head.wrote(n);
                last_progress = Instant::now();
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), ErrorKind::TimedOut | ErrorKind::WouldBlock) => {
                let stalled = last_progress.elapsed();
                let limit = shared.connector.stall_limit();
                if stalled >= limit {
                    break stall_limit_words(limit);
                }
                if stalled >= STALL_REPORT && !stall_reported {
                    stall_reported = true;
                    shared.emit(LinkEventKind::Error {
                        message: stalled_words(&shared.path, &head.text),
                    });
                }
            }
            Err(e) => break format!("write failed: {e} ({:?})", e.kind()),
        }
    };
    // The port failed under us: give up this handle and let the reader
    // reset the link. Retry the whole record after the reopen; if part of it
    // went out, a line end first ends that fragment.
    slot.port = None;
    slot.write_failure = Some(failure);
    shared.write_failed.store(true, Ordering::SeqCst);
    drop(slot);
    head.cut_off(line_end);
    Delivery::Down
}
