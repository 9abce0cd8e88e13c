//! Each port's bookkeeping at the edge (records in flight, bytes, up or
//! down) and its link's events turned into core inputs, with their
//! transcript lines.

use log::{info, warn};

use crate::app::writers::Writers;
use crate::clock::Arrival;
use crate::display::LinkState;
use crate::link::{LinkEvent, LinkEventKind};
use crate::referee::{ByClient, ClientId, Input};

/// Per-port bookkeeping at the edge: records handed to the link and not
/// yet reported sent or failed, and byte counts for the status line.
#[derive(Debug, Default)]
pub(crate) struct PortBook {
    /// Records in the writer's queue (the session ends once none is).
    pub in_flight: usize,
    /// The `at_us` of the last line in from this port.
    pub last_line_us: u64,
    pub bytes_in: u64,
    pub bytes_out: u64,
    pub up: bool,
    /// A connection argus makes was refused or unanswered, and none has
    /// been made since.
    pub unreachable: bool,
}

impl PortBook {
    /// The book of a link that is up.
    pub fn up() -> PortBook {
        PortBook {
            up: true,
            ..PortBook::default()
        }
    }

    /// How its status line shows the link.
    pub fn state(&self) -> LinkState {
        if self.unreachable {
            LinkState::Unreachable
        } else {
            LinkState::up_or_lost(self.up)
        }
    }

    /// Counts what a link event says about the port: bytes in and out,
    /// records that left (or never will), the link lost or back.
    pub(crate) fn count(&mut self, kind: &LinkEventKind) {
        match kind {
            LinkEventKind::Line { raw, at_us, .. } => {
                self.bytes_in += raw.len() as u64;
                self.last_line_us = *at_us;
            }
            LinkEventKind::Dropped { len, .. } => self.bytes_in += *len as u64,
            LinkEventKind::Sent { wire, .. } => {
                self.bytes_out += wire.len() as u64;
                self.in_flight = self.in_flight.saturating_sub(1);
            }
            LinkEventKind::SendFailed { .. } => {
                self.in_flight = self.in_flight.saturating_sub(1);
            }
            LinkEventKind::Lost { .. } => self.up = false,
            LinkEventKind::Back { .. } => self.up = true,
            LinkEventKind::Connected { .. } => self.unreachable = false,
            LinkEventKind::Unreachable { .. } => self.unreachable = true,
            LinkEventKind::Receiving { .. } | LinkEventKind::Error { .. } => {}
        }
    }
}

/// Turns a link event into a core input (and the transcript line).
pub(crate) fn link_input(
    ev: LinkEvent<ClientId>,
    books: &mut ByClient<PortBook>,
    outputs: &mut Writers,
    now: u64,
) -> Option<(Input, u64)> {
    let id = ev.id;
    books[id].count(&ev.kind);
    match ev.kind {
        LinkEventKind::Line {
            text,
            raw,
            replaced,
            at_ms,
            at_us,
            first_at_us,
            first_bytes,
        } => {
            let arrival = Arrival {
                first_bytes,
                span_us: at_us.saturating_sub(first_at_us),
            };
            let input = line_in(id, (text, arrival), &raw, replaced, at_ms, outputs);
            Some((input, at_ms))
        }
        LinkEventKind::Dropped {
            reason, raw, at_ms, ..
        } => {
            outputs.transcript_rejected(at_ms, id, &raw, &reason);
            Some((Input::Dropped { from: id, reason }, at_ms))
        }
        LinkEventKind::Sent {
            seq,
            wire,
            at_ms,
            at_us,
            ..
        } => {
            outputs.transcript_out(at_ms, id, &wire);
            outputs.relay_sent(id, seq, at_us);
            Some((Input::Sent { to: id, seq }, at_ms))
        }
        LinkEventKind::SendFailed { text, reason, .. } => {
            warn!("{id}: record not sent ({reason}): {text}");
            outputs.transcript_note(now, &format!("{id}: record not sent ({reason}): {text}"));
            None
        }
        LinkEventKind::Lost { reason, at_ms, .. } => {
            outputs.transcript_note(at_ms, &format!("{}: link lost: {reason}", id.letter()));
            Some((Input::LinkLost { client: id, reason }, at_ms))
        }
        LinkEventKind::Connected { peer, at_ms, .. } => {
            connected(id, &peer, at_ms, outputs);
            None
        }
        LinkEventKind::Back { at_ms, .. } => {
            outputs.transcript_note(at_ms, &format!("{}: link back", id.letter()));
            Some((Input::LinkBack { client: id }, at_ms))
        }
        LinkEventKind::Receiving { at_ms, .. } => Some((Input::Receiving { from: id }, at_ms)),
        LinkEventKind::Error { message } => {
            warn!("{}: {message}", id.letter());
            None
        }
        LinkEventKind::Unreachable { message } => {
            let line = format!("{}: {message}", id.letter());
            warn!("{line}");
            outputs.transcript_note(now, &line);
            None
        }
    }
}

/// A good line in: its bytes to the transcript, with a note if bytes in
/// its quoted strings were replaced; the core's input, with how the line
/// came in (for the wire-time credit).
fn line_in(
    id: ClientId,
    (text, arrival): (String, Arrival),
    raw: &[u8],
    replaced: Option<String>,
    at_ms: u64,
    outputs: &mut Writers,
) -> Input {
    outputs.transcript_in(at_ms, id, raw);
    if let Some(what) = replaced {
        let note = format!("{}: line kept, {what}: {text}", id.letter());
        warn!("{note}");
        outputs.transcript_note(at_ms, &note);
    }
    Input::Line {
        from: id,
        text,
        wire_bytes: raw.len(),
        arrival: Some(arrival),
    }
}

/// Who is on the other end goes on the record: the transcript and the
/// journal (a note, not a core input).
fn connected(id: ClientId, peer: &str, at_ms: u64, outputs: &mut Writers) {
    let note = format!("{}: connected from {peer}", id.letter());
    info!("{note}");
    outputs.headless_line(&note);
    outputs.transcript_note(at_ms, &note);
    outputs.journal_note(&note);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connection_that_cannot_be_made_shows_unreachable_until_one_is() {
        let mut book = PortBook::up();
        assert_eq!(book.state(), LinkState::Up);
        book.count(&LinkEventKind::Unreachable {
            message: "cannot connect to 127.0.0.1:1: connection refused".into(),
        });
        assert_eq!(book.state(), LinkState::Unreachable);
        book.count(&LinkEventKind::Connected {
            peer: "127.0.0.1:1".into(),
            at_ms: 5,
            at_us: 5_000,
        });
        assert_eq!(book.state(), LinkState::Up);
        book.count(&LinkEventKind::Lost {
            reason: "end of file".into(),
            at_ms: 9,
            at_us: 9_000,
        });
        assert_eq!(book.state(), LinkState::Lost);
        // Trying to connect again after the loss, and failing.
        book.count(&LinkEventKind::Unreachable {
            message: "connection refused".into(),
        });
        assert_eq!(book.state(), LinkState::Unreachable);
    }
}
