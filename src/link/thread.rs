//! [`Link`]: one serial port with a reader thread and a writer thread, or
//! one TCP connection on the readiness loop ([`poll`](super::poll)), or an
//! in-process end.
//!
//! A serial port's ownership of the stream: the reader thread owns one handle and reads
//! through it; the writer's handle (a second handle on the same port or
//! socket) lives in a shared slot that the writer locks for the length of
//! one record. When the link is lost the reader empties the slot and drops
//! its own handle, so every descriptor (and a port's exclusive lock) is
//! gone before it gets a new connection from its [`Connector`]; then it
//! puts the new writer handle in the slot and wakes the writer. When a
//! write fails, the writer empties the slot and leaves a note there that
//! makes the reader treat the link as lost. Because the writer holds the
//! lock for the whole record, a failure it notes always concerns the handle
//! currently in the slot.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use super::connector::{Conduit, Connector};
use super::event::{LinkEvent, LinkEventKind, LinkId};
use super::framer::MAX_LINE;
use super::local::{self, LocalEnd};
use super::open::{OpenError, OpenErrorKind};
use super::poll::PolledLink;
use super::settings::PortSettings;
use super::{reader, writer};

/// Units (a record, or a batch given to [`Link::send_all`]) that may wait
/// to be written (while the link is down, or when records come faster than
/// the line carries them). [`Link::send`] refuses more with
/// [`SendError::QueueFull`].
pub const MAX_QUEUED: usize = 64;

/// One unit fewer waiting in a link's queue count (never below zero).
pub(super) fn dequeued(queued: &AtomicUsize) {
    let _ = queued.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
        Some(n.saturating_sub(1))
    });
}

/// How long closing a link waits for the writer thread (which may be stuck
/// draining a port held off by flow control) before leaving it behind.
const CLOSE_WAIT: Duration = Duration::from_secs(2);

/// Why [`Link::send`] refused a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendError {
    /// The text holds a CR, LF or NUL (the writer adds the line end).
    LineEndInText {
        /// 0-based byte offset of the first such character.
        at: usize,
    },
    /// The text is longer than [`MAX_LINE`] bytes.
    TooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// [`MAX_QUEUED`] records are already waiting to be written (the link
    /// is down or the line is slower than the records come).
    QueueFull,
    /// The writer thread is gone (the link is being closed).
    Closed,
}

impl fmt::Display for SendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendError::LineEndInText { at } => write!(
                f,
                "record not sent: it holds a line end (CR, LF or NUL) at byte {at}"
            ),
            SendError::TooLong { len } => write!(
                f,
                "record not sent: {len} bytes is longer than the {MAX_LINE}-byte line limit"
            ),
            SendError::QueueFull => write!(
                f,
                "record not sent: {MAX_QUEUED} records are already waiting (the link is down or \
                 too slow)"
            ),
            SendError::Closed => f.write_str("record not sent: the link is closed"),
        }
    }
}

impl std::error::Error for SendError {}

/// Messages to the writer thread.
pub(super) enum WriterMsg {
    /// Queue records (without line end) with their sequence numbers,
    /// written in order; they take one place in the queue.
    Send(Vec<(u64, String)>),
    /// The port was reopened: try the queue again.
    Wake,
    /// Finish.
    Stop,
}

/// The writer's handle, shared with the reader, which replaces it on reopen.
pub(super) struct WriterSlot {
    /// `None` while the link is down.
    pub port: Option<Box<dyn Conduit>>,
    /// Set by the writer when a write on the current handle failed; the
    /// reader then treats the link as lost. Cleared on reopen.
    pub write_failure: Option<String>,
}

/// What both threads of a link share.
pub(super) struct Shared<Id> {
    pub id: Id,
    /// The port or endpoint, for logs and the display.
    pub path: String,
    pub settings: PortSettings,
    /// Where the stream comes from, and comes again after a loss.
    pub connector: Connector,
    pub epoch: Instant,
    pub events: Sender<LinkEvent<Id>>,
    pub slot: Mutex<WriterSlot>,
    /// Cheap flag mirroring `slot.write_failure.is_some()`, so the reader
    /// does not take the lock after every read.
    pub write_failed: AtomicBool,
    /// Set when the link is being closed.
    pub stop: AtomicBool,
    /// Set once the owner said goodbye (the referee's `disconnect`): the
    /// peer closing after it is expected, not a warning.
    pub farewell: AtomicBool,
    /// Records accepted by `Link::send` and not yet sent or failed.
    pub queued: AtomicUsize,
}

impl<Id: LinkId> Shared<Id> {
    /// Sends an event; a closed receiver is not an error here (the owner
    /// stopped listening and will drop the link).
    pub fn emit(&self, kind: LinkEventKind) {
        let _ = self.events.send(LinkEvent {
            id: self.id.clone(),
            kind,
        });
    }

    /// Locks the slot, ignoring poisoning (the slot stays consistent: every
    /// change is a single assignment).
    pub fn slot(&self) -> MutexGuard<'_, WriterSlot> {
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// One record fewer waiting (sent, or failed at close).
    pub fn dequeued(&self) {
        dequeued(&self.queued);
    }
}

/// One serial port, read and written by two threads of its own, or one
/// TCP connection, read and written by the one readiness loop of every
/// socket ([`poll`](super::poll)): the same events either way.
///
/// Lines read are framed by [`Framer`](super::framer::Framer) and sent, with
/// everything else that happens, as [`LinkEvent`]s on the channel given to
/// [`Link::open`]. Records passed to [`Link::send`] are written in order,
/// each followed by the configured line end and drained to the wire.
///
/// When the port fails (read or write error, end of file, USB adapter
/// unplugged, socat killed, connection closed) the link reports
/// [`LinkEventKind::Lost`] once, then asks its [`Connector`] for a new
/// stream (a serial port is reopened every
/// [`REOPEN_INTERVAL`](super::REOPEN_INTERVAL), a TCP connection made again
/// with backoff, a listener's seat given the next client that signs on for
/// it) and reports [`LinkEventKind::Back`]. Records sent while the link
/// is down stay queued (up to [`MAX_QUEUED`]) and go out after `Back`. A
/// record whose write was cut off by the loss is written again in full
/// after `Back`, preceded by a line end so that the cut-off part stands as a
/// line of its own.
///
/// Dropping the link (or [`Link::close`]) stops its threads (or takes it
/// off the loop) and closes the port; records still queued are reported as `SendFailed`.
///
/// An in-process link ([`Link::in_process`]) is the other kind: two ends
/// joined by channels, with no thread and no stream (see
/// [`LocalEnd`](super::LocalEnd)).
pub struct Link<Id: LinkId> {
    kind: Kind<Id>,
    settings: PortSettings,
}

/// A link's kind: a serial port with its two threads, a TCP connection
/// on the readiness loop, or an in-process end.
enum Kind<Id: LinkId> {
    Threads(Threads<Id>),
    Polled(PolledLink<Id>),
    Local(local::End<Id>),
}

/// A serial port's or TCP connection's reader and writer threads.
struct Threads<Id: LinkId> {
    shared: Arc<Shared<Id>>,
    writer_tx: Option<Sender<WriterMsg>>,
    stop_tx: Option<Sender<()>>,
    writer_done: Receiver<()>,
    reader: Option<JoinHandle<()>>,
    writer: Option<JoinHandle<()>>,
}

impl<Id: LinkId> fmt::Debug for Link<Id> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Link")
            .field("id", &self.id().to_string())
            .field("path", &self.path())
            .field("settings", &self.settings)
            .finish()
    }
}

impl<Id: LinkId> Link<Id> {
    /// Opens `path` exclusively with `settings` (see
    /// [`open_port`](super::open_port)) and starts the reader and writer
    /// threads. Events carry `id` and times since `epoch`.
    ///
    /// Fails, saying which port and why, if the port cannot be opened now;
    /// a port that is busy is tried again for a moment first
    /// ([`FIRST_OPEN_BUSY_FOR`](super::FIRST_OPEN_BUSY_FOR): a process
    /// forked at that moment holds the port's lock until its exec).
    ///
    /// `events` may be bounded: when it is full the reader and writer wait
    /// (input then queues in the operating system's buffer), nothing is
    /// lost; for a TCP link the readiness loop waits, and with it every
    /// TCP link of the process. If its receiver is dropped, events are
    /// discarded.
    pub fn open(
        id: Id,
        path: &str,
        settings: PortSettings,
        epoch: Instant,
        events: Sender<LinkEvent<Id>>,
    ) -> Result<Link<Id>, OpenError> {
        let connector = Connector::Serial {
            path: path.to_string(),
            settings,
        };
        Link::open_with(id, connector, path, settings, epoch, events)
    }

    /// Like [`Link::open`], with the stream from `connector`; `name` (the
    /// port or endpoint) names it in logs. A TCP link may start down (its
    /// server not up yet, its seat not taken): it reports
    /// [`LinkEventKind::Connected`] when the first connection comes, and
    /// fails here only when retrying cannot help (a host name that does not
    /// resolve). `settings` gives the line end (and, for a serial port,
    /// everything else).
    pub fn open_with(
        id: Id,
        connector: Connector,
        path: &str,
        settings: PortSettings,
        epoch: Instant,
        events: Sender<LinkEvent<Id>>,
    ) -> Result<Link<Id>, OpenError> {
        if !matches!(connector, Connector::Serial { .. }) {
            let line_end = settings.line_end.as_bytes();
            let polled = PolledLink::open(id, connector, path, line_end, epoch, events)?;
            return Ok(Link {
                kind: Kind::Polled(polled),
                settings,
            });
        }
        let (first, writer_port) = match connector.first()? {
            Some(c) => {
                let (incoming, writer) = c.split().map_err(|e| OpenError {
                    port: path.to_string(),
                    kind: OpenErrorKind::Other,
                    reason: format!("opened, but cannot set it up: {e}"),
                })?;
                (Some(incoming), Some(writer))
            }
            None => (None, None),
        };
        let name = id.to_string();
        let shared = Arc::new(Shared {
            id,
            path: path.to_string(),
            settings,
            connector,
            epoch,
            events,
            slot: Mutex::new(WriterSlot {
                port: writer_port,
                write_failure: None,
            }),
            write_failed: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            farewell: AtomicBool::new(false),
            queued: AtomicUsize::new(0),
        });
        let (writer_tx, writer_rx) = crossbeam_channel::unbounded();
        let (stop_tx, stop_rx) = crossbeam_channel::bounded::<()>(1);
        let (done_tx, writer_done) = crossbeam_channel::bounded::<()>(1);
        let spawn_error = |e: std::io::Error| OpenError {
            port: path.to_string(),
            kind: OpenErrorKind::Other,
            reason: format!("could not start a thread for it: {e}"),
        };

        let writer = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name(format!("argus-write-{name}"))
                .spawn(move || writer::run(&shared, &writer_rx, done_tx))
                .map_err(spawn_error)?
        };
        let reader = {
            let shared = Arc::clone(&shared);
            let wake = writer_tx.clone();
            std::thread::Builder::new()
                .name(format!("argus-read-{name}"))
                .spawn(move || reader::run(&shared, first, &stop_rx, &wake))
        };
        let reader = match reader {
            Ok(r) => r,
            Err(e) => {
                shared.stop.store(true, Ordering::SeqCst);
                let _ = writer_tx.send(WriterMsg::Stop);
                let _ = writer.join();
                return Err(spawn_error(e));
            }
        };
        Ok(Link {
            kind: Kind::Threads(Threads {
                shared,
                writer_tx: Some(writer_tx),
                stop_tx: Some(stop_tx),
                writer_done,
                reader: Some(reader),
                writer: Some(writer),
            }),
            settings,
        })
    }

    /// The two ends of an in-process link, `near`'s and `far`'s, each
    /// reporting to its own channel: a program argus runs on a thread of
    /// its own talks on the far end, its referee on the near one. A record
    /// sent on one end is framed on the sender's thread and handed to the
    /// other end's owner as the same [`LinkEventKind::Line`] (bytes, line
    /// end from `settings`) a reader thread would report; no thread, no
    /// socket. The far end's owner must call [`Link::took`] with each
    /// event it takes, and its channel must be unbounded: a near end's
    /// record is reported `Sent` when the far end took it (see
    /// [`LocalEnd`](super::LocalEnd)).
    pub fn in_process<Far: LinkId>(
        near: LocalEnd<Id>,
        far: LocalEnd<Far>,
        settings: PortSettings,
    ) -> (Link<Id>, Link<Far>) {
        let (n, f) = local::pair(near, far, settings.line_end.as_bytes());
        (
            Link {
                kind: Kind::Local(n),
                settings,
            },
            Link {
                kind: Kind::Local(f),
                settings,
            },
        )
    }

    /// The owner took `event` from its channel. Only the far end of an
    /// in-process link needs to hear it (the near end's record it
    /// delivered is then reported `Sent`); for every other link it does
    /// nothing.
    pub fn took(&self, event: &LinkEventKind) {
        if let Kind::Local(end) = &self.kind {
            end.took(event);
        }
    }

    /// Queues one record for writing with its sequence number; the writer
    /// appends the line end. The outcome comes back, with `seq`, as
    /// [`LinkEventKind::Sent`] or [`LinkEventKind::SendFailed`] (only when
    /// the link is closed first). Refused at once if the text holds a line
    /// end, is over [`MAX_LINE`] bytes, or [`MAX_QUEUED`] records are
    /// already waiting.
    pub fn send(&self, seq: u64, text: String) -> Result<(), SendError> {
        self.send_all(vec![(seq, text)])
    }

    /// Queues records that belong together (a resync: `reset`, `inform`,
    /// one `execute` per move, `respond`) as one unit: they take one place
    /// in the queue, so a long game's resync is never cut short by the
    /// queue limit; each is reported `Sent` as it leaves. All are refused
    /// (nothing queued) if one would be.
    pub fn send_all(&self, records: Vec<(u64, String)>) -> Result<(), SendError> {
        for (_, text) in &records {
            if let Some(at) = text.bytes().position(|b| matches!(b, b'\r' | b'\n' | 0)) {
                return Err(SendError::LineEndInText { at });
            }
            if text.len() > MAX_LINE {
                return Err(SendError::TooLong { len: text.len() });
            }
        }
        if records.is_empty() {
            return Ok(());
        }
        let t = match &self.kind {
            Kind::Threads(t) => t,
            Kind::Polled(p) => return p.send_all(records),
            Kind::Local(end) => return end.send_all(records),
        };
        let Some(tx) = &t.writer_tx else {
            return Err(SendError::Closed);
        };
        if t.shared.queued.fetch_add(1, Ordering::SeqCst) >= MAX_QUEUED {
            t.shared.dequeued();
            return Err(SendError::QueueFull);
        }
        tx.send(WriterMsg::Send(records)).map_err(|_| {
            t.shared.dequeued();
            SendError::Closed
        })
    }

    /// The id given to [`Link::open`].
    pub fn id(&self) -> &Id {
        match &self.kind {
            Kind::Threads(t) => &t.shared.id,
            Kind::Polled(p) => &p.id,
            Kind::Local(end) => &end.id,
        }
    }

    /// The port path or name given to [`Link::open`].
    pub fn path(&self) -> &str {
        match &self.kind {
            Kind::Threads(t) => &t.shared.path,
            Kind::Polled(p) => &p.path,
            Kind::Local(end) => &end.path,
        }
    }

    /// The settings the port was opened with.
    pub fn settings(&self) -> &PortSettings {
        &self.settings
    }

    /// The owner said goodbye to the peer (the referee sent `disconnect`):
    /// the peer closing the link from now on is expected, logged as
    /// information rather than a warning (an in-process link's loss
    /// always is).
    pub fn farewell(&self) {
        match &self.kind {
            Kind::Threads(t) => t.shared.farewell.store(true, Ordering::SeqCst),
            Kind::Polled(p) => p.farewell(),
            Kind::Local(_) => {}
        }
    }

    /// Stops its threads (or takes it off the readiness loop) and closes
    /// the port (the same as dropping it).
    pub fn close(self) {}
}

impl<Id: LinkId> Threads<Id> {
    fn shutdown(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(tx) = self.writer_tx.take() {
            let _ = tx.send(WriterMsg::Stop);
        }
        // Dropping the sender wakes the reader if it waits to reopen.
        self.stop_tx = None;
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
        if let Some(writer) = self.writer.take() {
            match self.writer_done.recv_timeout(CLOSE_WAIT) {
                Ok(()) | Err(RecvTimeoutError::Disconnected) => {
                    let _ = writer.join();
                }
                Err(RecvTimeoutError::Timeout) => log::warn!(
                    "port {} ({}): the writer did not finish within {:?} (a drain held off \
                     by flow control?); leaving it behind",
                    self.shared.id,
                    self.shared.path,
                    CLOSE_WAIT
                ),
            }
        }
    }
}

impl<Id: LinkId> Drop for Threads<Id> {
    fn drop(&mut self) {
        self.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn send_error_messages_say_what_was_wrong() {
        assert!(
            SendError::LineEndInText { at: 3 }
                .to_string()
                .contains("byte 3")
        );
        assert!(
            SendError::TooLong { len: 5000 }
                .to_string()
                .contains("5000")
        );
    }

    #[test]
    fn open_of_a_missing_port_fails_with_its_name() {
        let (tx, _rx) = crossbeam_channel::unbounded();
        let e = Link::open(
            "A",
            "/nonexistent/argus-a",
            PortSettings::default(),
            Instant::now(),
            tx,
        )
        .unwrap_err();
        assert!(e.to_string().contains("/nonexistent/argus-a"), "{e}");
    }
}
