//! The reader thread of a [`Link`](super::Link): reads, frames, reports;
//! detects loss and reopens the port.

use std::io::ErrorKind;
use std::sync::atomic::Ordering;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, TryRecvError};
use serialport::SerialPort;

use super::event::LinkId;
use super::event::{LinkEventKind, Stamp};
use super::framer::{Frame, Framer};
use super::thread::{REOPEN_INTERVAL, Shared, WriterMsg, open_pair};

/// Bytes asked for per read.
const READ_CHUNK: usize = 1024;

/// While a line is arriving, [`LinkEventKind::Receiving`] is reported at
/// most this often (a line at 300 baud can take seconds).
pub const RECEIVING_EVERY_MS: u64 = 500;

/// Runs until `stop` is signalled or disconnected. `port` is the reader's
/// handle; `wake` reaches the writer after a reopen.
pub(super) fn run<Id: LinkId>(
    shared: &Shared<Id>,
    mut port: Box<dyn SerialPort>,
    stop: &Receiver<()>,
    wake: &Sender<WriterMsg>,
) {
    let mut framer = Framer::new();
    loop {
        let Some(reason) = read_until_lost(shared, port.as_mut(), &mut framer, stop) else {
            return;
        };
        let at = Stamp::since(shared.epoch);
        if let Some(frame) = framer.abandon(at, "the link was lost") {
            emit_frame(shared, frame);
        }
        framer.reset();
        {
            let mut slot = shared.slot();
            slot.port = None;
            slot.write_failure = None;
            shared.write_failed.store(false, Ordering::SeqCst);
        }
        drop(port);
        log::warn!("port {} ({}): link lost: {reason}", shared.id, shared.path);
        shared.emit(LinkEventKind::Lost {
            reason,
            at_ms: at.ms,
            at_us: at.us,
        });
        port = match reopen(shared, stop, wake) {
            Some(p) => p,
            None => return,
        };
    }
}

/// Reads and frames until the link is lost (returns why) or the link is
/// being closed (returns `None`).
fn read_until_lost<Id: LinkId>(
    shared: &Shared<Id>,
    port: &mut dyn SerialPort,
    framer: &mut Framer,
    stop: &Receiver<()>,
) -> Option<String> {
    let mut buf = [0u8; READ_CHUNK];
    let mut receiving_reported: Option<u64> = None;
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
                let frames = framer.push(chunk, at);
                if !frames.is_empty() {
                    receiving_reported = None;
                }
                for frame in frames {
                    emit_frame(shared, frame);
                }
                // Part of a line is in: the client is talking (a resend
                // after silence must not cross its reply).
                if framer.pending_len() > 0
                    && receiving_reported
                        .is_none_or(|t| at.ms >= t.saturating_add(RECEIVING_EVERY_MS))
                {
                    receiving_reported = Some(at.ms);
                    shared.emit(LinkEventKind::Receiving {
                        at_ms: at.ms,
                        at_us: at.us,
                    });
                }
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

/// Tries to reopen the port every [`REOPEN_INTERVAL`] until it succeeds
/// (reports `Back`, installs the writer's handle, wakes the writer, returns
/// the reader's handle) or the link is closed (`None`).
fn reopen<Id: LinkId>(
    shared: &Shared<Id>,
    stop: &Receiver<()>,
    wake: &Sender<WriterMsg>,
) -> Option<Box<dyn SerialPort>> {
    let mut attempts: u64 = 0;
    loop {
        match stop.recv_timeout(REOPEN_INTERVAL) {
            Err(RecvTimeoutError::Timeout) => {}
            Ok(()) | Err(RecvTimeoutError::Disconnected) => return None,
        }
        if shared.stopping() {
            return None;
        }
        attempts = attempts.saturating_add(1);
        match open_pair(&shared.path, &shared.settings) {
            Ok((port, writer_port)) => {
                // Back goes out before the writer can use the port, so that
                // no Sent of the new connection precedes it.
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
                {
                    let mut slot = shared.slot();
                    slot.port = Some(writer_port);
                    slot.write_failure = None;
                    shared.write_failed.store(false, Ordering::SeqCst);
                }
                let _ = wake.send(WriterMsg::Wake);
                return Some(port);
            }
            Err(e) => log::debug!("port {}: reopen attempt {attempts}: {e}", shared.id),
        }
    }
}

fn emit_frame<Id: LinkId>(shared: &Shared<Id>, frame: Frame<Stamp>) {
    shared.emit(match frame {
        Frame::Line {
            text,
            raw,
            replaced,
            at,
            ..
        } => LinkEventKind::Line {
            text,
            raw,
            replaced,
            at_ms: at.ms,
            at_us: at.us,
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
    });
}
