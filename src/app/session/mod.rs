//! The referee's main loop: links in, core decisions, records and display
//! out. One thread, blocking on a crossbeam `select!` over the links'
//! events, the keyboard, Ctrl-C and the core's next deadline; no busy loop.
//! One input's way through the core and out is `hand`, shared with the
//! tournament's boards; a port's bookkeeping and its events as inputs are
//! `ports`.

mod hand;
mod ports;

use crate::app::pace::Pace;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, after, never, select, unbounded};
use log::{info, warn};

use crate::app::links::Links;
use crate::app::signals::Stop;
use crate::app::syzygy::Syzygy;
use crate::app::waiting::{Reminder, match_waiting};
use crate::app::writers::Writers;
use crate::app::{Completion, Exit, Failure};
use crate::display::{InputEvent, InputThread, Role, TerminalGuard, Ui, next_redraw_in};
use crate::link::{Link, LinkEvent, OpenError, PortSettings};
use crate::referee::{ByClient, ClientId, Command, Input, Referee, Snapshot};

pub(crate) use hand::{
    Decided, Edges, Staged, Wires, commit, decide, deliver, hand_to_core, open_tables,
};
use ports::link_views;
pub(crate) use ports::{PortBook, link_input};

/// How long the loop waits for the last records (`disconnect`) to leave
/// the ports once the session is over.
const DRAIN_GRACE: Duration = Duration::from_secs(3);
/// The least time between two states the loop builds for the web page.
const PUBLISH_EVERY_MS: u64 = 100;

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

/// Where the session writes.
#[derive(Debug, Clone)]
pub struct SessionFiles {
    pub pgn: Option<PathBuf>,
    pub live_pgn: Option<PathBuf>,
    pub log_dir: PathBuf,
}

/// Opens the referee's two ports (A and B) with `settings`; their events,
/// each with its client's id, come on the returned channel, stamped from
/// `epoch`.
pub fn open_links(
    ports: [&str; 2],
    settings: PortSettings,
    epoch: Instant,
) -> Result<(Links, Receiver<LinkEvent<ClientId>>), OpenError> {
    let (tx, rx) = unbounded();
    let a = Link::open(ClientId::A, ports[0], settings, epoch, tx.clone())?;
    let b = Link::open(ClientId::B, ports[1], settings, epoch, tx)?;
    Ok((ByClient::new(a, b), rx))
}

/// Everything a session runs with.
pub struct Session {
    pub core: Referee,
    /// Clients A and B.
    pub links: Links,
    /// Where both links report.
    pub link_events: Receiver<LinkEvent<ClientId>>,
    /// How each link is shown on the status line (`9600 8N1`, `TCP`).
    pub line_views: ByClient<String>,
    /// The instant the links count their times from.
    pub epoch: Instant,
    pub outputs: Writers,
    pub view: View,
    /// A message here ends the session cleanly (Ctrl-C, SIGTERM, SIGHUP).
    pub ctrl_c: Receiver<Stop>,
    /// `Some(t)` when the core was rebuilt from a journal whose last input
    /// came at `t`: times go on from `t` (the outage is charged to nobody)
    /// and the first input is [`Input::Resumed`].
    pub resumed_at: Option<u64>,
}

/// Runs a referee session until it ends.
pub fn run(session: Session) -> Exit {
    let Session {
        core,
        links,
        link_events,
        line_views,
        epoch,
        outputs,
        view,
        ctrl_c,
        resumed_at,
    } = session;
    let syzygy = open_tables(core.settings().syzygy.as_deref(), |t| {
        outputs.headless_line(t)
    });
    let (key_tx, key_rx) = unbounded();
    let board = open_board(view, key_tx)?;
    let keys = if board.is_some() { key_rx } else { never() };
    // Those awaited at the start were named by the session's first line
    // (or are named by the resumed journal's lines).
    let start = resumed_at.unwrap_or(0);
    let reminder = Reminder::from(core.waiting().into_iter().map(|(c, _)| c).collect(), start);
    let mut run = Running {
        core,
        links,
        link_events,
        line_views,
        outputs,
        ctrl_c,
        keys,
        board,
        syzygy,
        books: ByClient::new_with(|_| PortBook::up()),
        clock: Clock {
            epoch,
            base: resumed_at.unwrap_or(0),
        },
        reminder,
        drain_until: None,
        dirty: true,
        publish_pace: Pace::new(PUBLISH_EVERY_MS),
        stopped_by: None,
        ended_early: false,
        terminal_lost: false,
    };
    if let Some(t) = resumed_at {
        run.hand(Input::Resumed, t);
    }
    run.publish();
    let failure = loop {
        match run.turn() {
            Ok(true) => {}
            Ok(false) => break None,
            Err(f) => break Some(f),
        }
    };
    run.finish(failure)
}

/// The board, when there is one: the terminal, its input thread and the
/// view's state.
struct Board {
    guard: TerminalGuard,
    _input: InputThread,
    ui: Ui,
}

/// Sets up the board the view asks for (none when headless); its keys
/// come on `key_tx`.
fn open_board(view: View, key_tx: Sender<InputEvent>) -> Result<Option<Board>, Failure> {
    let View::Board { ascii } = view else {
        return Ok(None);
    };
    let guard = TerminalGuard::init()
        .map_err(|e| Failure::failed(format!("cannot set up the terminal: {e}")))?;
    let input = InputThread::spawn(key_tx).map_err(Failure::failed)?;
    Ok(Some(Board {
        guard,
        _input: input,
        ui: Ui::new(ascii, Role::Referee),
    }))
}

/// The session's time: milliseconds since the links' epoch, going on from
/// the journal's last input (`base`) when resumed.
#[derive(Clone, Copy)]
struct Clock {
    epoch: Instant,
    base: u64,
}

impl Clock {
    fn now_ms(self) -> u64 {
        self.base
            .saturating_add(self.epoch.elapsed().as_millis() as u64)
    }
}

/// A running session: what [`run`] turns the loop with.
struct Running {
    core: Referee,
    links: Links,
    link_events: Receiver<LinkEvent<ClientId>>,
    line_views: ByClient<String>,
    outputs: Writers,
    ctrl_c: Receiver<Stop>,
    keys: Receiver<InputEvent>,
    board: Option<Board>,
    syzygy: Option<Syzygy>,
    books: ByClient<PortBook>,
    clock: Clock,
    /// When to say whom the match waits for.
    reminder: Reminder<ClientId>,
    /// Once the match is over: how long the last records may take to leave.
    drain_until: Option<Instant>,
    /// Whether the board must be drawn again.
    dirty: bool,
    /// The web page's state: built after an input changed the core, at
    /// most every [`PUBLISH_EVERY_MS`] (the session's clock).
    publish_pace: Pace,
    /// The signal that ended the session, if one did.
    stopped_by: Option<&'static str>,
    /// The session ended before the match was played out.
    ended_early: bool,
    /// The board's terminal hung up (seen by a draw); the next turn ends
    /// the session as SIGHUP does.
    terminal_lost: bool,
}

impl Running {
    /// One turn of the loop: draw, wait for what comes next, hand it to
    /// the core. `Ok(false)` once the session is over.
    fn turn(&mut self) -> Result<bool, Failure> {
        // Draw when something changed, and at 10 Hz while a clock runs. The
        // snapshot is taken only for a board (headless, nothing reads it).
        let snap = self
            .board
            .as_ref()
            .map(|_| self.core.snapshot(self.clock.now_ms()));
        if let Some(snap) = snap.as_ref()
            && self.dirty
            && let Err(e) = self.draw(snap)
        {
            if !crate::display::hung_up() {
                return Err(e);
            }
            self.lose_terminal();
        }
        if self.core.is_over() && self.drained() {
            return Ok(false);
        }
        let deadline = self.core.next_deadline();
        let wait = self.wait(deadline, snap.as_ref());
        // First pick what woke the loop, then handle it (gitui's
        // `select_event`): each kind of wake-up becomes core inputs.
        let wake = match std::mem::take(&mut self.terminal_lost) {
            true => Wake::Stop(Some(Stop::TerminalLost)),
            false => select_event(&self.link_events, &self.keys, &self.ctrl_c, wait),
        };
        let inputs = self.inputs(wake, deadline, snap.as_ref())?;
        // The web view gets the state after every input the core took,
        // with outputs or not (a record sent starts a clock).
        let mut handed = false;
        for (input, at) in inputs {
            if self.core.is_over() && !matches!(input, Input::Sent { .. }) {
                continue;
            }
            // The session ended before the match was played out.
            self.ended_early |= matches!(input, Input::Supervisor(Command::EndSession));
            handed = true;
            self.hand(input, at);
        }
        self.remind();
        self.outputs.end_turn();
        if handed {
            self.publish_pace.changed();
        }
        if self.publish_pace.ready(self.clock.now_ms()) {
            self.publish();
        }
        Ok(true)
    }

    /// Builds the web page's state from the core and hands it over (the
    /// page sends at most one state every `web::hub::SEND_EVERY`, so the
    /// loop builds one at most every [`PUBLISH_EVERY_MS`]: building one per
    /// input cost the relay a tenth of its overhead with instant movers).
    fn publish(&mut self) {
        let now = self.clock.now_ms();
        self.outputs.publish(&self.core, now);
        self.publish_pace.done(now);
    }

    /// Says whom the match waits for, when it is time (at once for a
    /// client newly away, then every minute), in the log and on stdout
    /// when headless.
    fn remind(&mut self) {
        let now = self.clock.now_ms();
        let ids: Vec<ClientId> = self.core.waiting().into_iter().map(|(c, _)| c).collect();
        if self.reminder.due(&ids, now) {
            let line = crate::referee::words::waiting_line(&match_waiting(&self.core, now));
            info!("{line}");
            self.outputs.headless_line(&line);
            self.dirty = true;
        }
    }

    /// Draws the board (there is one, with `snap` its snapshot).
    fn draw(&mut self, snap: &Snapshot) -> Result<(), Failure> {
        let Some(board) = self.board.as_mut() else {
            return Ok(());
        };
        let links = link_views(&self.links, &self.books, &self.line_views);
        let clock = self.clock;
        board
            .ui
            .set_waiting(match_waiting(&self.core, clock.now_ms()));
        board
            .guard
            .terminal()
            .draw(|f| board.ui.render(f, snap, &links, clock.now_ms()))
            .map_err(|e| Failure::failed(format!("cannot draw on the terminal: {e}")))?;
        self.dirty = false;
        Ok(())
    }

    /// Whether the last records have left the ports since the match ended,
    /// or the grace for them is up.
    fn drained(&mut self) -> bool {
        let drained = self.books.values().all(|b| b.in_flight == 0);
        let until = *self
            .drain_until
            .get_or_insert_with(|| Instant::now() + DRAIN_GRACE);
        drained || Instant::now() >= until
    }

    /// How long the loop may wait: until the core's deadline, the board's
    /// next tick, the next reminder of whom the match waits for, and
    /// briefly while the last records drain.
    fn wait(&self, deadline: Option<u64>, snap: Option<&Snapshot>) -> Option<Duration> {
        let now = self.clock.now_ms();
        let remind = (!self.core.waiting().is_empty()).then(|| self.reminder.next());
        let wake = deadline.into_iter().chain(remind).min();
        let mut wait = wake.map(|d| Duration::from_millis(d.saturating_sub(now)));
        if let Some(tick) = snap.and_then(next_redraw_in) {
            wait = Some(wait.map_or(tick, |w| w.min(tick)));
        }
        if self.core.is_over() {
            wait = Some(wait.map_or(DRAIN_GRACE, |w| w.min(Duration::from_millis(50))));
        }
        if let Some(due) = self.publish_pace.due() {
            // The state not yet built goes out when its time comes.
            let left = Duration::from_millis(due.saturating_sub(now));
            wait = Some(wait.map_or(left, |w| w.min(left)));
        }
        wait
    }

    /// The core inputs a wake-up brings, with their times; an error when
    /// the links' threads are gone.
    fn inputs(
        &mut self,
        wake: Wake<ClientId>,
        deadline: Option<u64>,
        snap: Option<&Snapshot>,
    ) -> Result<Vec<(Input, u64)>, Failure> {
        let mut inputs: Vec<(Input, u64)> = Vec::new();
        match wake {
            Wake::Link(Some(ev)) => {
                let now = self.clock.now_ms();
                match link_input(ev, &mut self.books, &mut self.outputs, now) {
                    Some((input, at)) => inputs.push((input, at.saturating_add(self.clock.base))),
                    // No input, but the link's status line may have changed
                    // (unreachable, connected).
                    None => self.dirty = true,
                }
            }
            Wake::Link(None) => return Err(Failure::failed("the serial link threads stopped")),
            Wake::Key(InputEvent::HungUp) => {
                self.lose_terminal();
            }
            Wake::Key(ev) => {
                let ui = self.board.as_mut().map(|b| &mut b.ui);
                if let Some(cmd) = key_command(ev, ui, snap) {
                    inputs.push((Input::Supervisor(cmd), self.clock.now_ms()));
                }
                self.dirty = true;
            }
            Wake::Stop(stop) => {
                let name = stop.map_or("a stop request", Stop::name);
                info!("{name}: ending the session");
                self.outputs
                    .headless_line(&format!("{name}: ending the session"));
                self.stopped_by.get_or_insert(name);
                inputs.push((Input::Supervisor(Command::EndSession), self.clock.now_ms()));
            }
            Wake::Timer => {
                let now = self.clock.now_ms();
                if deadline.is_some_and(|d| now >= d) {
                    inputs.push((Input::Timer, now));
                }
                self.dirty = true;
            }
            // The keyboard's thread is gone: stop listening to it.
            Wake::KeysGone => self.keys = never(),
        }
        Ok(inputs)
    }

    /// The board's terminal hung up: the board is let go (nothing more is
    /// drawn or read) and the session ends as for SIGHUP, its journal kept.
    fn lose_terminal(&mut self) {
        if self.board.take().is_some() {
            warn!("the terminal hung up; ending the session");
        }
        self.keys = never();
        self.terminal_lost = true;
    }

    /// Hands one input to the core ([`hand_to_core`]).
    fn hand(&mut self, input: Input, at: u64) {
        let edges = Edges {
            links: &self.links,
            syzygy: self.syzygy.as_ref(),
        };
        let outputs = &mut self.outputs;
        let (core, books) = (&mut self.core, &mut self.books);
        self.dirty |= hand_to_core(input, at, core, edges, books, outputs, &mut |_| {});
    }

    /// Ends the session: the board gone, the summary printed, the links
    /// closed, the files finished, then the web page's final state served
    /// until the operator ends argus (a match played out); the session's
    /// outcome.
    fn finish(mut self, failure: Option<Failure>) -> Exit {
        // The page's last state: the core as it ended.
        if self.publish_pace.pending() {
            self.publish();
        }
        let Running {
            core,
            links,
            link_events,
            board,
            mut outputs,
            stopped_by,
            ended_early,
            ctrl_c,
            ..
        } = self;
        let had_board = board.is_some();
        drop(board);
        // The match summary, printed once the board is gone (the screen with
        // the last result vanishes with the alternate screen).
        if had_board && core.is_over() {
            crate::app::stdout::line(&core.summary().to_string());
            crate::app::stdout::line(&core.stats().line_for(&core.client_name(ClientId::A)));
        }
        // No more events are read: a reader blocked on a full (bounded) event
        // channel is released before its link is closed and joined.
        drop(link_events);
        for l in links.into_array() {
            l.close();
        }
        outputs.finish();
        if let Some(f) = failure {
            return Err(f);
        }
        // A file that could not be written is said at the end, whatever
        // else the session did (what it could not write is kept elsewhere).
        if let Some(why) = outputs.failed() {
            return Err(Failure::failed(format!(
                "{why}; the match went on, but not everything was written (see the log)"
            )));
        }
        if !ended_early {
            if let Some(a) = outputs.take_audience() {
                a.linger(&ctrl_c);
            }
            return Ok(Completion::Normal);
        }
        Ok(Completion::EndedEarly(match stopped_by {
            Some(name) => format!("{name} ended the session before the match was played out"),
            None => "the session ended before the match was played out".into(),
        }))
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

/// The supervisor command a key or terminal event asks for, if any.
fn key_command(ev: InputEvent, ui: Option<&mut Ui>, snap: Option<&Snapshot>) -> Option<Command> {
    match ev {
        InputEvent::Key(k) => {
            let (ui, snap) = (ui?, snap?);
            ui.handle_key(k, snap)
        }
        InputEvent::Resize { .. } | InputEvent::HungUp => None,
        InputEvent::Failed(why) => {
            warn!("terminal input failed: {why}; ending the session");
            Some(Command::EndSession)
        }
    }
}
