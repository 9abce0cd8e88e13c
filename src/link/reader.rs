//! The reader thread of a [`Link`](super::Link): reads, frames, reports;
//! detects loss and gets a new connection from the link's connector.

use std::io::ErrorKind;
use std::sync::atomic::Ordering;

use crossbeam_channel::{Receiver, Sender, TryRecvError};

use super::connector::{Conduit, Incoming};
use super::event::LinkId;
use super::event::{LinkEventKind, Stamp};
use super::framer::{Frame, Framer};
use super::thread::{Shared, WriterMsg};

/// Bytes asked for per read.
const READ_CHUNK: usize = 1024;

/// While a line is arriving, [`LinkEventKind::Receiving`] is reported at
/// most this often (a line at 300 baud can take seconds).
pub const RECEIVING_EVERY_MS: u64 = 500;

/// What a link makes of the bytes it reads, whoever reads them (a serial
/// link's reader thread, the readiness loop): its lines and drops, and
/// `Receiving` while a line is arriving.
pub(super) struct Intake {
    framer: Framer<Stamp>,
    /// When `Receiving` was last said for the line now arriving.
    receiving_said: Option<u64>,
}

impl Intake {
    pub fn new() -> Intake {
        Intake {
            framer: Framer::new(),
            receiving_said: None,
        }
    }

    /// Bytes someone else read first (a listener's sign-on line): their
    /// lines.
    pub fn preread(&mut self, bytes: &[u8], at: Stamp, mut emit: impl FnMut(LinkEventKind)) {
        for frame in self.framer.push(bytes, at) {
            emit(frame_event(frame));
        }
    }

    /// A chunk read at `at`: its lines and drops, then `Receiving` if part
    /// of a line is in (the client is talking: a resend after silence must
    /// not cross its reply), at most every [`RECEIVING_EVERY_MS`].
    pub fn chunk(&mut self, chunk: &[u8], at: Stamp, mut emit: impl FnMut(LinkEventKind)) {
        let frames = self.framer.push(chunk, at);
        if !frames.is_empty() {
            self.receiving_said = None;
        }
        for frame in frames {
            emit(frame_event(frame));
        }
        if self.framer.pending_len() > 0
            && self
                .receiving_said
                .is_none_or(|t| at.ms >= t.saturating_add(RECEIVING_EVERY_MS))
        {
            self.receiving_said = Some(at.ms);
            emit(LinkEventKind::Receiving {
                at_ms: at.ms,
                at_us: at.us,
            });
        }
    }

    /// The link was lost at `at`: a line it cut off is dropped, and the
    /// next connection starts afresh.
    pub fn lost(&mut self, at: Stamp, mut emit: impl FnMut(LinkEventKind)) {
        if let Some(frame) = self.framer.abandon(at, "the link was lost") {
            emit(frame_event(frame));
        }
        self.framer.reset();
        self.receiving_said = None;
    }
}

/// The `Connected` event of link `name` on `path` to `peer` at `at`, said
/// in the log as well.
pub(super) fn connected(
    name: &dyn std::fmt::Display,
    path: &str,
    peer: std::net::SocketAddr,
    at: Stamp,
) -> LinkEventKind {
    log::info!("port {name} ({path}): connected to {peer}");
    LinkEventKind::Connected {
        peer: peer.to_string(),
        at_ms: at.ms,
        at_us: at.us,
    }
}

/// Runs until `stop` is signalled or disconnected. `first` is the
/// connection the link was opened with (none: it starts down); `wake`
/// reaches the writer after a new connection.
pub(super) fn run<Id: LinkId>(
    shared: &Shared<Id>,
    first: Option<Incoming>,
    stop: &Receiver<()>,
    wake: &Sender<WriterMsg>,
) {
    let mut intake = Intake::new();
    if let Some(peer) = first.as_ref().and_then(|c| c.peer) {
        emit_connected(shared, peer);
    }
    let mut next = first;
    let mut was_up = false;
    loop {
        let incoming = match next.take() {
            Some(c) => c,
            None => match reconnect(shared, stop, wake, was_up) {
                Some(c) => c,
                None => return,
            },
        };
        let Incoming {
            mut reader,
            preread,
            ..
        } = incoming;
        if !preread.is_empty() {
            intake.preread(&preread, Stamp::since(shared.epoch), |k| shared.emit(k));
        }
        let Some(reason) = read_until_lost(shared, reader.as_mut(), &mut intake, stop) else {
            return;
        };
        let at = Stamp::since(shared.epoch);
        intake.lost(at, |k| shared.emit(k));
        {
            let mut slot = shared.slot();
            slot.port = None;
            slot.write_failure = None;
            shared.write_failed.store(false, Ordering::SeqCst);
        }
        drop(reader);
        shared.connector.lost();
        was_up = true;
        let level = match shared.farewell.load(Ordering::SeqCst) {
            true => log::Level::Info,
            false => log::Level::Warn,
        };
        log::log!(
            level,
            "port {} ({}): link lost: {reason}",
            shared.id,
            shared.path
        );
        shared.emit(LinkEventKind::Lost {
            reason,
            at_ms: at.ms,
            at_us: at.us,
        });
    }
}

/// Reads and frames until the link is lost (returns why) or the link is
/// being closed (returns `None`).
fn read_until_lost<Id: LinkId>(
    shared: &Shared<Id>,
    port: &mut dyn Conduit,
    intake: &mut Intake,
    stop: &Receiver<()>,
) -> Option<String> {
    let mut buf = [0u8; READ_CHUNK];
    loop {
        if !matches!(stop.try_recv(), Err(TryRecvError::Empty)) || shared.stopping() {
            return None;
        }
        if shared.write_failed.load(Ordering::SeqCst) {
            let why = shared.slot().write_failure.take();
            return Some(why.unwrap_or_else(|| "a write failed".to_string()));
        }
        match port.read(&mut buf) {
            Ok(0) => {
                return Some("end of file: the port was closed or the device is gone".to_string());
            }
            Ok(n) => {
                let at = Stamp::since(shared.epoch);
                let chunk = buf.get(..n).unwrap_or(&buf[..]);
                intake.chunk(chunk, at, |k| shared.emit(k));
            }
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::TimedOut | ErrorKind::WouldBlock | ErrorKind::Interrupted
                ) => {}
            Err(e) => return Some(format!("read failed: {e} ({:?})", e.kind())),
        }
    }
}

/// Asks the connector for a new connection until one comes (reports it,
/// and `Back` if the link had been up before; installs the writer's
/// handle, wakes the writer, returns the reader's half) or the link is
/// closed (`None`).
fn reconnect<Id: LinkId>(
    shared: &Shared<Id>,
    stop: &Receiver<()>,
    wake: &Sender<WriterMsg>,
    was_up: bool,
) -> Option<Incoming> {
    loop {
        let (c, attempts) = shared.connector.redial(&shared.path, stop, |message| {
            shared.emit(LinkEventKind::Unreachable { message });
        })?;
        if shared.stopping() {
            return None;
        }
        let (incoming, writer) = match c.split() {
            Ok(halves) => halves,
            Err(e) => {
                log::warn!(
                    "port {} ({}): cannot use the new connection: {e}",
                    shared.id,
                    shared.path
                );
                shared.connector.lost();
                continue;
            }
        };
        // Back goes out before the writer can use the stream, so
        // that no Sent of the new connection precedes it.
        if let Some(peer) = incoming.peer {
            emit_connected(shared, peer);
        }
        if was_up {
            let at = Stamp::since(shared.epoch);
            log::info!(
                "port {} ({}): link back after {attempts} attempt(s)",
                shared.id,
                shared.path
            );
            shared.emit(LinkEventKind::Back {
                at_ms: at.ms,
                at_us: at.us,
            });
        }
        {
            let mut slot = shared.slot();
            slot.port = Some(writer);
            slot.write_failure = None;
            shared.write_failed.store(false, Ordering::SeqCst);
        }
        let _ = wake.send(WriterMsg::Wake);
        return Some(incoming);
    }
}

fn emit_connected<Id: LinkId>(shared: &Shared<Id>, peer: std::net::SocketAddr) {
    let at = Stamp::since(shared.epoch);
    shared.emit(connected(&shared.id, &shared.path, peer, at));
}

/// The event that reports `frame`.
pub(super) fn frame_event(frame: Frame<Stamp>) -> LinkEventKind {
    match frame {
        Frame::Line {
            text,
            raw,
            replaced,
            at,
            first_at,
            first_bytes,
            ..
        } => LinkEventKind::Line {
            text,
            raw,
            replaced,
            at_ms: at.ms,
            at_us: at.us,
            first_at_us: first_at.us,
            first_bytes,
        },
        Frame::Dropped {
            reason,
            raw,
            len,
            at,
        } => LinkEventKind::Dropped {
            reason,
            raw,
            len,
            at_ms: at.ms,
            at_us: at.us,
        },
    }
}
