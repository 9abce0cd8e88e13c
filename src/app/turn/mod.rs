//! One turn of a loop: what woke it ([`Wake`], picked by [`select_event`]
//! from the loop's source, the keyboard, the stop signals and the next
//! deadline), then handed over. The referee's loop (the tournament's
//! director, which runs every match and tournament) reads its links'
//! events; both watchers read the journal they follow. Then one input's
//! way through a referee
//! core and out (`hand`: journaled, decided, synced with the turn's other
//! boards, then delivered; `ports`: a port's bookkeeping and its link
//! events as core inputs).

mod hand;
mod ports;

use std::time::Duration;

use crossbeam_channel::{Receiver, after, never, select};

use crate::app::signals::Stop;
use crate::display::InputEvent;

pub(crate) use hand::{Decided, Edges, Staged, Wires, commit, decide, deliver, open_tables};
pub(crate) use ports::{PortBook, link_input};

/// What woke a loop whose source sends `E`: a link's event
/// ([`crate::link::LinkEvent`]) for the referee, a journal's line
/// ([`crate::app::tail::SourceReport`]) for a watcher.
pub(crate) enum Wake<E> {
    /// The source's report; `None`: the threads feeding it are gone.
    Source(Option<E>),
    /// A key or a terminal event.
    Key(InputEvent),
    /// Ctrl-C, SIGTERM or SIGHUP (`None`: the signal thread is gone).
    Stop(Option<Stop>),
    /// The wait ran out: a core's deadline or a redraw.
    Timer,
    /// The keyboard's channel closed.
    KeysGone,
}

/// Blocks until the source sends, a key, a stop request or the end of
/// `wait` (forever without one). A loop with no keyboard passes
/// `&never()`.
pub(crate) fn select_event<E>(
    source: &Receiver<E>,
    keys: &Receiver<InputEvent>,
    ctrl_c: &Receiver<Stop>,
    wait: Option<Duration>,
) -> Wake<E> {
    let timer = wait.map_or_else(never, after);
    select! {
        recv(source) -> ev => Wake::Source(ev.ok()),
        recv(keys) -> ev => ev.map_or(Wake::KeysGone, Wake::Key),
        recv(ctrl_c) -> stop => Wake::Stop(stop.ok()),
        recv(timer) -> _ => Wake::Timer,
    }
}
