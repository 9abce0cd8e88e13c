//! In-process links: two [`Link`](super::Link) ends joined by channels,
//! for a program argus runs on a thread of its own (a tournament's
//! `engine:` and `mover:` players). No socket and no thread of their own:
//! a record sent on one end is framed on the sender's thread, exactly as a
//! reader thread frames the bytes it reads ([`Framer`]: the same `Line` or
//! `Dropped`, the same `raw` bytes with their line end), and handed to the
//! other end's channel at once.
//!
//! The two ends are not alike. The *far* end's owner (the program's loop,
//! `app::client::serve`) confirms each event it takes from its channel
//! with [`Link::took`](super::Link::took): a record the near end sent is
//! reported [`Sent`](LinkEventKind::Sent) to the near end's owner when the
//! far end took it (stamped then, by the far end's thread), so the near
//! end's owner (the referee's loop) never writes into its own channel,
//! which it alone empties and which may be bounded. A record the far end
//! sends is reported `Sent` on the far end's own channel at once. So the
//! far end's channel must be unbounded (the near end's sends never wait);
//! the near end's is written only by the far end's thread, which may wait.
//!
//! Closing (dropping) an end reports to the other end's owner every
//! record it had sent that was never taken ([`SendFailed`]) and then
//! [`Lost`]; nothing reaches a closed end's channel after it was closed.
//!
//! [`SendFailed`]: LinkEventKind::SendFailed
//! [`Lost`]: LinkEventKind::Lost

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use crossbeam_channel::Sender;

use super::event::{LinkEvent, LinkEventKind, LinkId, Stamp};
use super::framer::Framer;
use super::reader::frame_event;
use super::thread::{MAX_QUEUED, SendError};

/// What one end of an in-process link is known by, and where its owner
/// hears of it: the id put on its events, its name in logs, the epoch its
/// times count from, and its owner's channel.
pub struct LocalEnd<Id> {
    pub id: Id,
    pub path: String,
    pub epoch: Instant,
    pub events: Sender<LinkEvent<Id>>,
}

/// The near end (0) and the far end (1).
const NEAR: usize = 0;
const FAR: usize = 1;

/// One end of an in-process link, as its [`Link`](super::Link) holds it.
pub(super) struct End<Id> {
    pub id: Id,
    pub path: String,
    side: usize,
    pair: Arc<Pair>,
}

/// What both ends share.
struct Pair {
    sides: [Side; 2],
    line_end: &'static [u8],
    state: Mutex<State>,
}

/// How events reach one end's owner.
struct Side {
    /// `ID (PATH)`, for the log.
    name: String,
    /// The end's path, for the other end's loss.
    path: String,
    epoch: Instant,
    /// Hands an event to the owner's channel with the end's id (a closed
    /// receiver is not an error: the owner stopped listening).
    emit: Box<dyn Fn(LinkEventKind) + Send + Sync>,
    /// Open until the end is closed; held while an event goes to the
    /// owner, so that nothing reaches it once it was closed.
    gate: Mutex<bool>,
}

impl Side {
    /// Reports `kind` to this end's owner, unless the end was closed.
    fn tell(&self, kind: LinkEventKind) {
        let open = self.gate.lock().unwrap_or_else(PoisonError::into_inner);
        if *open {
            (self.emit)(kind);
        }
    }

    fn now(&self) -> Stamp {
        Stamp::since(self.epoch)
    }
}

/// A record sent by one end that the far end has not yet taken.
struct Waiting {
    seq: u64,
    text: String,
    wire: Vec<u8>,
    /// Frames it made that are not yet taken (0 for an empty record,
    /// which makes none: it counts as taken with the frame after it).
    frames: usize,
    /// The last record of a unit given to `send_all`.
    ends_unit: bool,
}

/// The link's state, by sending end.
#[derive(Default)]
struct State {
    /// The near end's records the far end has not yet taken, in order.
    waiting: VecDeque<Waiting>,
    /// Units of `waiting` (at most [`MAX_QUEUED`]).
    units: usize,
    /// Each end's framer of the bytes it sends.
    framers: [Framer<Stamp>; 2],
    /// Which ends are closed.
    closed: [bool; 2],
}

/// The two ends of a new in-process link: `near`'s and `far`'s (see the
/// module docs for what each owner must do), with `line_end` after each
/// record.
pub(super) fn pair<N: LinkId, F: LinkId>(
    near: LocalEnd<N>,
    far: LocalEnd<F>,
    line_end: &'static [u8],
) -> (End<N>, End<F>) {
    let (near_id, near_path, near_side) = side(near);
    let (far_id, far_path, far_side) = side(far);
    let pair = Arc::new(Pair {
        sides: [near_side, far_side],
        line_end,
        state: Mutex::new(State::default()),
    });
    (
        End {
            id: near_id,
            path: near_path,
            side: NEAR,
            pair: Arc::clone(&pair),
        },
        End {
            id: far_id,
            path: far_path,
            side: FAR,
            pair,
        },
    )
}

/// An end's id and path, and how events reach its owner.
fn side<I: LinkId>(end: LocalEnd<I>) -> (I, String, Side) {
    let LocalEnd {
        id,
        path,
        epoch,
        events,
    } = end;
    let side = Side {
        name: format!("{id} ({path})"),
        path: path.clone(),
        epoch,
        emit: {
            let id = id.clone();
            Box::new(move |kind| {
                let _ = events.send(LinkEvent {
                    id: id.clone(),
                    kind,
                });
            })
        },
        gate: Mutex::new(true),
    };
    (id, path, side)
}

impl<Id> End<Id> {
    fn state(&self) -> MutexGuard<'_, State> {
        self.pair
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn other(&self) -> usize {
        1 - self.side
    }

    /// Hands `records` (already checked by `Link::send_all`) to the other
    /// end, in order, as one unit.
    pub fn send_all(&self, records: Vec<(u64, String)>) -> Result<(), SendError> {
        let (me, other) = (self.side, self.other());
        let to = &self.pair.sides[other];
        let last = records.len().saturating_sub(1);
        let mut frames = Vec::with_capacity(records.len());
        let mut sent_now = Vec::new();
        {
            let mut state = self.state();
            if state.closed[me] || state.closed[other] {
                return Err(SendError::Closed);
            }
            if me == NEAR {
                if state.units >= MAX_QUEUED {
                    return Err(SendError::QueueFull);
                }
                state.units += 1;
            }
            let at = to.now();
            for (i, (seq, text)) in records.into_iter().enumerate() {
                let mut wire = Vec::with_capacity(text.len() + self.pair.line_end.len());
                wire.extend_from_slice(text.as_bytes());
                wire.extend_from_slice(self.pair.line_end);
                let made = state.framers[me].push(&wire, at);
                let count = made.len();
                frames.extend(made);
                if me == NEAR {
                    state.waiting.push_back(Waiting {
                        seq,
                        text,
                        wire,
                        frames: count,
                        ends_unit: i == last,
                    });
                } else {
                    sent_now.push((seq, text, wire));
                }
            }
        }
        // Not under the state's lock: the far end's thread may wait here
        // for the near end's owner to empty its channel.
        for frame in frames {
            to.tell(frame_event(frame));
        }
        let from = &self.pair.sides[me];
        for (seq, text, wire) in sent_now {
            let at = from.now();
            from.tell(LinkEventKind::Sent {
                seq,
                text,
                wire,
                at_ms: at.ms,
                at_us: at.us,
            });
        }
        Ok(())
    }

    /// The far end's owner took `kind` from its channel: a line (or a
    /// dropped one) of the near end's records was delivered, and the
    /// records it completes are reported `Sent` to the near end's owner.
    pub fn took(&self, kind: &LinkEventKind) {
        if self.side != FAR
            || !matches!(
                kind,
                LinkEventKind::Line { .. } | LinkEventKind::Dropped { .. }
            )
        {
            return;
        }
        let delivered = {
            let mut state = self.state();
            let mut done = Vec::new();
            let mut counted = false;
            while let Some(head) = state.waiting.front_mut() {
                if head.frames > 0 {
                    if counted {
                        break;
                    }
                    counted = true;
                    head.frames -= 1;
                    if head.frames > 0 {
                        break;
                    }
                }
                let Some(w) = state.waiting.pop_front() else {
                    break;
                };
                if w.ends_unit {
                    state.units = state.units.saturating_sub(1);
                }
                done.push(w);
            }
            done
        };
        let near = &self.pair.sides[NEAR];
        for w in delivered {
            let at = near.now();
            near.tell(LinkEventKind::Sent {
                seq: w.seq,
                text: w.text,
                wire: w.wire,
                at_ms: at.ms,
                at_us: at.us,
            });
        }
    }

    /// Closes this end: nothing reaches its owner from now on; the other
    /// end's owner is told of its records this end never took, then that
    /// the link was lost.
    fn close(&self) {
        let (me, other) = (self.side, self.other());
        let (untaken, other_closed) = {
            let mut state = self.state();
            if state.closed[me] {
                return;
            }
            state.closed[me] = true;
            state.units = 0;
            let waiting = std::mem::take(&mut state.waiting);
            let untaken = if me == FAR { waiting } else { VecDeque::new() };
            (untaken, state.closed[other])
        };
        *self.pair.sides[me]
            .gate
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = false;
        // The other end, closed first, hears nothing more (and its loss
        // is not logged: its owner closed it).
        if other_closed {
            return;
        }
        let to = &self.pair.sides[other];
        for w in untaken {
            to.tell(LinkEventKind::SendFailed {
                seq: w.seq,
                text: w.text,
                reason: "the program's end of the in-process link was closed before it took \
                         the record"
                    .to_string(),
            });
        }
        let reason = format!(
            "the in-process link was closed at its other end ({})",
            self.pair.sides[me].path
        );
        log::info!("{}: link lost: {reason}", to.name);
        let at = to.now();
        to.tell(LinkEventKind::Lost {
            reason,
            at_ms: at.ms,
            at_us: at.us,
        });
    }
}

impl<Id> Drop for End<Id> {
    fn drop(&mut self) {
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use crossbeam_channel::{Receiver, unbounded};

    use super::super::settings::PortSettings;
    use super::super::thread::Link;
    use super::*;

    type Ends = (
        Link<u8>,
        Receiver<LinkEvent<u8>>,
        Link<&'static str>,
        Receiver<LinkEvent<&'static str>>,
    );

    fn ends() -> Ends {
        let (ntx, nrx) = unbounded();
        let (ftx, frx) = unbounded();
        let now = Instant::now();
        let (near, far) = Link::in_process(
            LocalEnd {
                id: 7u8,
                path: "engine:x".into(),
                epoch: now,
                events: ntx,
            },
            LocalEnd {
                id: "client",
                path: "in-process".into(),
                epoch: now,
                events: ftx,
            },
            PortSettings::default(),
        );
        (near, nrx, far, frx)
    }

    fn next<I>(rx: &Receiver<LinkEvent<I>>) -> LinkEventKind {
        rx.try_recv().expect("an event").kind
    }

    #[test]
    fn a_near_record_arrives_as_a_framed_line_and_is_sent_once_taken() {
        let (near, nrx, far, frx) = ends();
        near.send_all(vec![(1, "a b;".into()), (2, "c\td;".into())])
            .unwrap();
        let first = next(&frx);
        assert!(
            matches!(&first, LinkEventKind::Line { text, raw, .. }
                if text == "a b;" && raw == b"a b;\r\n"),
            "{first:?}"
        );
        // Nothing is reported sent until the far end took the line.
        assert!(nrx.try_recv().is_err());
        far.took(&first);
        assert!(
            matches!(next(&nrx), LinkEventKind::Sent { seq: 1, text, wire, .. }
                if text == "a b;" && wire == b"a b;\r\n")
        );
        // A tab becomes a space in the text, as a reader's framer makes it.
        let second = next(&frx);
        assert!(
            matches!(&second, LinkEventKind::Line { text, raw, .. }
                if text == "c d;" && raw == b"c\td;\r\n"),
            "{second:?}"
        );
        assert!(nrx.try_recv().is_err());
        far.took(&second);
        assert!(matches!(next(&nrx), LinkEventKind::Sent { seq: 2, .. }));
        // The near end's taking confirms nothing.
        near.took(&second);
        assert!(nrx.try_recv().is_err() && frx.try_recv().is_err());
    }

    #[test]
    fn a_far_record_arrives_as_a_line_and_is_sent_at_once() {
        let (_near, nrx, far, frx) = ends();
        far.send(5, "reply;".into()).unwrap();
        assert!(
            matches!(next(&nrx), LinkEventKind::Line { text, raw, at_us, first_at_us, first_bytes, .. }
            if text == "reply;" && raw == b"reply;\r\n" && at_us == first_at_us && first_bytes == 8)
        );
        assert!(
            matches!(next(&frx), LinkEventKind::Sent { seq: 5, wire, .. } if wire == b"reply;\r\n")
        );
    }

    #[test]
    fn a_bad_byte_is_dropped_as_a_reader_drops_it_and_the_record_counts_as_taken() {
        let (near, nrx, far, frx) = ends();
        near.send(3, "x\u{7}y;".into()).unwrap();
        let dropped = next(&frx);
        assert!(
            matches!(&dropped, LinkEventKind::Dropped { reason, .. } if reason.contains("0x07")),
            "{dropped:?}"
        );
        far.took(&dropped);
        assert!(matches!(next(&nrx), LinkEventKind::Sent { seq: 3, .. }));
    }

    #[test]
    fn an_empty_record_counts_as_taken_with_the_line_after_it() {
        let (near, nrx, far, frx) = ends();
        near.send(1, String::new()).unwrap();
        near.send(2, "z;".into()).unwrap();
        let line = next(&frx);
        assert!(frx.try_recv().is_err(), "an empty record makes no line");
        far.took(&line);
        assert!(matches!(next(&nrx), LinkEventKind::Sent { seq: 1, .. }));
        assert!(matches!(next(&nrx), LinkEventKind::Sent { seq: 2, .. }));
    }

    #[test]
    fn untaken_records_are_bounded() {
        let (near, _nrx, _far, _frx) = ends();
        for seq in 0..MAX_QUEUED as u64 {
            near.send(seq, "r;".into()).unwrap();
        }
        assert_eq!(near.send(99, "r;".into()), Err(SendError::QueueFull));
    }

    #[test]
    fn closing_the_far_end_fails_what_it_never_took_then_loses_the_link() {
        let (near, nrx, far, frx) = ends();
        near.send(1, "one;".into()).unwrap();
        near.send(2, "two;".into()).unwrap();
        far.took(&next(&frx));
        drop(far);
        assert!(matches!(next(&nrx), LinkEventKind::Sent { seq: 1, .. }));
        assert!(matches!(
            next(&nrx),
            LinkEventKind::SendFailed { seq: 2, .. }
        ));
        assert!(
            matches!(next(&nrx), LinkEventKind::Lost { reason, .. } if reason.contains("in-process"))
        );
        assert!(nrx.try_recv().is_err());
        assert_eq!(near.send(3, "three;".into()), Err(SendError::Closed));
    }

    #[test]
    fn nothing_reaches_a_closed_near_end() {
        let (near, nrx, far, frx) = ends();
        near.send(1, "one;".into()).unwrap();
        let line = next(&frx);
        drop(near);
        assert!(matches!(next(&frx), LinkEventKind::Lost { .. }));
        far.took(&line);
        assert_eq!(far.send(2, "late;".into()), Err(SendError::Closed));
        assert!(nrx.try_recv().is_err(), "nothing after the close");
    }
}
