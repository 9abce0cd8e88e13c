//! What the tournament director's loop shares with its boards: how the
//! event is shown ([`View`]), what woke the loop ([`select_event`]), one
//! input's way through a board's core and out (`hand`), and a port's
//! bookkeeping and its events as inputs (`ports`).

mod hand;
mod ports;

use std::time::Duration;

use crossbeam_channel::{Receiver, after, never, select};

use crate::app::signals::Stop;
use crate::display::InputEvent;
use crate::link::LinkEvent;

pub(crate) use hand::{Decided, Edges, Staged, Wires, commit, decide, deliver, open_tables};
pub(crate) use ports::{PortBook, link_input};

/// How the session is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// One line per event that matters, on stdout.
    Headless,
    /// The live board in the terminal.
    Board { ascii: bool },
}

impl View {
    /// The view the `--headless` and `--ascii` flags ask for.
    pub fn from_flags(headless: bool, ascii: bool) -> View {
        if headless {
            View::Headless
        } else {
            View::Board { ascii }
        }
    }
}

/// What woke a referee's loop (a match's or a tournament's, whose links
/// carry ids of type `Id`).
pub(crate) enum Wake<Id> {
    /// A link's report; `None`: the link threads are gone.
    Link(Option<LinkEvent<Id>>),
    /// A key or a terminal event.
    Key(InputEvent),
    /// Ctrl-C, SIGTERM or SIGHUP (`None`: the signal thread is gone).
    Stop(Option<Stop>),
    /// The wait ran out: a core's deadline or a redraw.
    Timer,
    /// The keyboard's channel closed.
    KeysGone,
}

/// Blocks until a link event, a key, a stop request or the end of `wait`
/// (forever without one).
pub(crate) fn select_event<Id>(
    link_events: &Receiver<LinkEvent<Id>>,
    keys: &Receiver<InputEvent>,
    ctrl_c: &Receiver<Stop>,
    wait: Option<Duration>,
) -> Wake<Id> {
    let timer = wait.map_or_else(never, after);
    select! {
        recv(link_events) -> ev => Wake::Link(ev.ok()),
        recv(keys) -> ev => ev.map_or(Wake::KeysGone, Wake::Key),
        recv(ctrl_c) -> stop => Wake::Stop(stop.ok()),
        recv(timer) -> _ => Wake::Timer,
    }
}
