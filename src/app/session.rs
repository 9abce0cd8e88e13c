//! The referee's main loop: links in, core decisions, records and display
//! out. One thread, blocking on a crossbeam `select!` over the links'
//! events, the keyboard, Ctrl-C and the core's next deadline; no busy loop.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, after, never, select, unbounded};
use log::{info, warn};

use crate::app::signals::Stop;
use crate::app::syzygy::Syzygy;
use crate::app::writers::{Writers, wants_checkpoint};
use crate::app::{Ending, Failure, Outcome};
use crate::display::{InputEvent, InputThread, LinkView, Role, TerminalGuard, Ui, next_redraw_in};
use crate::link::{Link, LinkEvent, LinkEventKind, OpenError, PortSettings, SendError};
use crate::referee::{ByClient, ClientId, Command, Event, Input, Output, Referee, Snapshot};

/// How long the loop waits for the last records (`disconnect`) to leave
/// the ports once the session is over.
const DRAIN_GRACE: Duration = Duration::from_secs(3);

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
}

impl PortBook {
    /// The book of a link that is up.
    pub fn up() -> PortBook {
        PortBook {
            up: true,
            ..PortBook::default()
        }
    }
}

/// Where a referee core's records go: the links of its two clients
/// (a match's two links, or the links of a tournament board's players).
pub(crate) trait Wires {
    /// Hands `to`'s records to its link as one unit, in order.
    fn send_all(&self, to: ClientId, unit: Vec<(u64, String)>) -> Result<(), SendError>;
}

impl Wires for Links {
    fn send_all(&self, to: ClientId, unit: Vec<(u64, String)>) -> Result<(), SendError> {
        self[to].send_all(unit)
    }
}

/// The referee's two links, one per client.
pub type Links = ByClient<Link<ClientId>>;

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
pub fn run(session: Session) -> Outcome {
    let Session {
        mut core,
        links,
        link_events,
        line_views,
        epoch,
        mut outputs,
        view,
        ctrl_c,
        resumed_at,
    } = session;
    let mut books = ByClient::new_with(|_| PortBook::up());
    let syzygy = open_tables(core.settings().syzygy.as_deref(), &mut outputs);
    let syzygy = syzygy.as_ref();
    let base = resumed_at.unwrap_or(0);
    let now_ms = || base.saturating_add(epoch.elapsed().as_millis() as u64);

    // The board, if there is one: terminal, input thread and view state.
    let (key_tx, key_rx) = unbounded();
    let mut board = match view {
        View::Headless => None,
        View::Board { ascii } => {
            let guard = match TerminalGuard::init() {
                Ok(g) => g,
                Err(e) => return Err(Failure::failed(format!("cannot set up the terminal: {e}"))),
            };
            let input = match InputThread::spawn(key_tx) {
                Ok(t) => t,
                Err(e) => return Err(Failure::failed(e)),
            };
            Some((guard, input, Ui::new(ascii, Role::Referee)))
        }
    };
    let mut keys: Receiver<InputEvent> = if board.is_some() { key_rx } else { never() };

    if let Some(t) = resumed_at {
        let edges = Edges {
            links: &links,
            syzygy,
        };
        hand_to_core(
            Input::Resumed,
            t,
            &mut core,
            edges,
            &mut books,
            &mut outputs,
        );
    }
    outputs.publish(&core, now_ms());
    let mut drain_until: Option<Instant> = None;
    let mut dirty = true;
    let mut failure: Option<Failure> = None;
    let mut stopped_by: Option<&str> = None;
    let mut ended_early = false;
    loop {
        // Draw when something changed, and at 10 Hz while a clock runs. The
        // snapshot is taken only for a board (headless, nothing reads it).
        let snap = board.as_ref().map(|_| core.snapshot(now_ms()));
        if let Some((guard, _, ui)) = board.as_mut()
            && let Some(snap) = snap.as_ref()
            && dirty
        {
            let links = link_views(&links, &books, &line_views);
            if let Err(e) = guard
                .terminal()
                .draw(|f| ui.render(f, snap, &links, now_ms()))
            {
                failure = Some(Failure::failed(format!("cannot draw on the terminal: {e}")));
                break;
            }
            dirty = false;
        }
        if core.is_over() {
            let drained = books.values().all(|b| b.in_flight == 0);
            let until = *drain_until.get_or_insert_with(|| Instant::now() + DRAIN_GRACE);
            if drained || Instant::now() >= until {
                break;
            }
        }
        let deadline = core.next_deadline();
        let mut wait = deadline.map(|d| Duration::from_millis(d.saturating_sub(now_ms())));
        if let Some(tick) = snap.as_ref().and_then(next_redraw_in) {
            wait = Some(wait.map_or(tick, |w| w.min(tick)));
        }
        if core.is_over() {
            wait = Some(wait.map_or(DRAIN_GRACE, |w| w.min(Duration::from_millis(50))));
        }
        // First pick what woke the loop, then handle it (gitui's
        // `select_event`): each kind of wake-up becomes core inputs.
        let wake = select_event(&link_events, &keys, &ctrl_c, wait);
        let mut inputs: Vec<(Input, u64)> = Vec::new();
        match wake {
            Wake::Link(Some(ev)) => {
                if let Some((input, at)) = link_input(ev, &mut books, &mut outputs, now_ms()) {
                    inputs.push((input, at.saturating_add(base)));
                }
            }
            Wake::Link(None) => {
                failure = Some(Failure::failed("the serial link threads stopped"));
                break;
            }
            Wake::Key(ev) => {
                if let Some(cmd) = key_command(ev, board.as_mut().map(|b| &mut b.2), snap.as_ref())
                {
                    inputs.push((Input::Supervisor(cmd), now_ms()));
                }
                dirty = true;
            }
            Wake::Stop(stop) => {
                let name = stop.map_or("a stop request", Stop::name);
                info!("{name}: ending the session");
                outputs.headless_line(&format!("{name}: ending the session"));
                stopped_by.get_or_insert(name);
                inputs.push((Input::Supervisor(Command::EndSession), now_ms()));
            }
            Wake::Timer => {
                let now = now_ms();
                if deadline.is_some_and(|d| now >= d) {
                    inputs.push((Input::Timer, now));
                }
                dirty = true;
            }
            // The keyboard's thread is gone: stop listening to it.
            Wake::KeysGone => keys = never(),
        }
        // The web view gets the state after every input the core took,
        // with outputs or not (a record sent starts a clock).
        let mut handed = false;
        for (input, at) in inputs {
            if core.is_over() && !matches!(input, Input::Sent { .. }) {
                continue;
            }
            // The session ended before the match was played out.
            ended_early |= matches!(input, Input::Supervisor(Command::EndSession));
            handed = true;
            let edges = Edges {
                links: &links,
                syzygy,
            };
            dirty |= hand_to_core(input, at, &mut core, edges, &mut books, &mut outputs);
        }
        if handed {
            outputs.publish(&core, now_ms());
        }
    }
    let had_board = board.is_some();
    drop(board);
    // The match summary, printed once the board is gone (the screen with
    // the last result vanishes with the alternate screen).
    if had_board && core.is_over() {
        println!("{}", core.summary());
        println!("stats: {}", core.stats().line());
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
    if !ended_early {
        return Ok(Ending::Normal);
    }
    Ok(Ending::EndedEarly(match stopped_by {
        Some(name) => format!("{name} ended the session before the match was played out"),
        None => "the session ended before the match was played out".into(),
    }))
}

/// What woke the session loop.
enum Wake {
    /// A link's report; `None`: the link threads are gone.
    Link(Option<LinkEvent<ClientId>>),
    /// A key or a terminal event.
    Key(InputEvent),
    /// Ctrl-C, SIGTERM or SIGHUP (`None`: the signal thread is gone).
    Stop(Option<Stop>),
    /// The wait ran out: the core's deadline or a redraw.
    Timer,
    /// The keyboard's channel closed.
    KeysGone,
}

/// Blocks until a link event, a key, a stop request or the end of `wait`
/// (forever without one).
fn select_event(
    link_events: &Receiver<LinkEvent<ClientId>>,
    keys: &Receiver<InputEvent>,
    ctrl_c: &Receiver<Stop>,
    wait: Option<Duration>,
) -> Wake {
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
        InputEvent::Resize { .. } => None,
        InputEvent::Failed(why) => {
            warn!("terminal input failed: {why}; ending the session");
            Some(Command::EndSession)
        }
    }
}

/// What the core's outputs go out through, and what answers them at once.
#[derive(Clone, Copy)]
pub(crate) struct Edges<'a> {
    pub links: &'a dyn Wires,
    /// The endgame tables, probed after each move (`--syzygy`).
    pub syzygy: Option<&'a Syzygy>,
}

/// Opens the endgame tables the settings name, if any. A resumed match
/// whose tables are gone goes on without them, and says so.
pub(crate) fn open_tables(dirs: Option<&str>, outputs: &mut Writers) -> Option<Syzygy> {
    match Syzygy::open(dirs?) {
        Ok(t) => {
            info!(
                "Syzygy tables in {} (up to {} pieces)",
                t.paths(),
                t.max_pieces()
            );
            Some(t)
        }
        Err(e) => {
            let told = format!("{e}; the match goes on without tablebase adjudication");
            warn!("{told}");
            outputs.headless_line(&told);
            None
        }
    }
}

/// The tables' verdict on the game's position after a move, if they have
/// one. A table that cannot be read is logged and the game goes on.
fn probe_tables(syzygy: Option<&Syzygy>, core: &Referee) -> Option<Input> {
    let (pos, ply) = core.position_in_play()?;
    match syzygy?.probe(pos, ply) {
        Ok(verdict) => verdict.map(Input::Tablebase),
        Err(e) => {
            warn!("{e}; no tablebase adjudication for this position");
            None
        }
    }
}

/// Hands one input to the core: journaled (and synced) first, then its
/// outputs carried out, then the journal's checkpoint if a move was played
/// or a game ended. Returns whether there were outputs.
pub(crate) fn hand_to_core(
    input: Input,
    at: u64,
    core: &mut Referee,
    edges: Edges,
    books: &mut ByClient<PortBook>,
    outputs: &mut Writers,
) -> bool {
    hand_to_core_seeing(input, at, core, edges, books, outputs, &mut |_| {})
}

/// [`hand_to_core`], showing `seen` every event the core emitted (a
/// tournament board learns its game's result and the players' faults so).
pub(crate) fn hand_to_core_seeing(
    input: Input,
    at: u64,
    core: &mut Referee,
    edges: Edges,
    books: &mut ByClient<PortBook>,
    outputs: &mut Writers,
    seen: &mut dyn FnMut(&Event),
) -> bool {
    // A record the link refuses is an input too (the core must not wait
    // for it to leave): it is fed right after the input that sent it; so
    // is the tables' verdict on a move just played.
    let links = edges.links;
    let mut any = false;
    let mut queue = VecDeque::from([input]);
    while let Some(input) = queue.pop_front() {
        // Events from different threads can arrive slightly out of time order
        // (a link event stamped just before a timer that was handled first):
        // the core takes such a time as its current one, and the journal must
        // record the time the core used, so that its times never go back.
        let at = at.max(core.time());
        outputs.journal_input(&input, at);
        let mover = match &input {
            Input::Line { from, .. } if outputs.times_relays() => Some(*from),
            _ => None,
        };
        let outs = core.handle(input, at);
        any |= !outs.is_empty();
        let checkpoint = wants_checkpoint(&outs);
        let moved = outs
            .iter()
            .any(|o| matches!(o.event(), Some(Event::MoveMade { .. })));
        if outs.iter().any(|o| {
            matches!(
                o,
                Output::Send { .. } | Output::Event(Event::GameOver(_) | Event::SessionOver(_))
            )
        }) {
            outputs.journal_sync();
        }
        if let Some(from) = mover
            && let Some((to, seq)) = relayed_move(&outs, from)
        {
            outputs.relay_expected(to, seq, books[from].last_line_us);
        }
        // Records first, in order: the file work of the other outputs (the live
        // PGN is written and synced to disk) must not hold back a respond,
        // whose clock starts only once it has left.
        // The records to one client from one input go to its link as one unit
        // (a resync is hundreds of records late in a game), in order.
        let mut units: Vec<(ClientId, Vec<(u64, String)>)> = Vec::new();
        let mut others = Vec::new();
        for o in outs {
            match o {
                Output::Send { to, seq, text } => match units.iter_mut().find(|(t, _)| *t == to) {
                    Some((_, unit)) => unit.push((seq, text)),
                    None => units.push((to, vec![(seq, text)])),
                },
                o => others.push(o),
            }
        }
        let mut refused = None;
        for (to, unit) in units {
            if let Some(seq) = send_unit(to, unit, links, books, outputs, at) {
                refused.get_or_insert(Input::Refused { to, seq });
            }
        }
        queue.extend(refused);
        for o in others {
            if let Some(event) = o.event() {
                seen(event);
            }
            carry_out(o, core, outputs, at);
        }
        if checkpoint {
            outputs.journal_checkpoint(core, at);
        }
        if moved && let Some(verdict) = probe_tables(edges.syzygy, core) {
            queue.push_back(verdict);
        }
    }
    any
}

/// Hands the records for `to` to its link as one unit. If the link refuses
/// them, says so and returns the first one's sequence number.
fn send_unit(
    to: ClientId,
    unit: Vec<(u64, String)>,
    links: &dyn Wires,
    books: &mut ByClient<PortBook>,
    outputs: &mut Writers,
    at: u64,
) -> Option<u64> {
    let first = unit.first().map(|(seq, _)| *seq);
    let count = unit.len();
    match links.send_all(to, unit.clone()) {
        Ok(()) => {
            books[to].in_flight += count;
            None
        }
        Err(e) => {
            for (_, text) in &unit {
                warn!("{to}: cannot queue a record ({e}): {text}");
                outputs.transcript_note(at, &format!("{to}: record not queued ({e}): {text}"));
            }
            first
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
    let book = &mut books[id];
    match ev.kind {
        LinkEventKind::Line {
            text,
            raw,
            replaced,
            at_ms,
            at_us,
        } => {
            book.bytes_in += raw.len() as u64;
            book.last_line_us = at_us;
            outputs.transcript_in(at_ms, id, &raw);
            if let Some(what) = replaced {
                let note = format!("{}: line kept, {what}: {text}", id.letter());
                warn!("{note}");
                outputs.transcript_note(at_ms, &note);
            }
            Some((
                Input::Line {
                    from: id,
                    text,
                    wire_bytes: raw.len(),
                },
                at_ms,
            ))
        }
        LinkEventKind::Dropped {
            reason,
            raw,
            len,
            at_ms,
            ..
        } => {
            book.bytes_in += len as u64;
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
            book.bytes_out += wire.len() as u64;
            book.in_flight = book.in_flight.saturating_sub(1);
            outputs.transcript_out(at_ms, id, &wire);
            outputs.relay_sent(id, seq, at_us);
            Some((Input::Sent { to: id, seq }, at_ms))
        }
        LinkEventKind::SendFailed { text, reason, .. } => {
            book.in_flight = book.in_flight.saturating_sub(1);
            warn!("{id}: record not sent ({reason}): {text}");
            outputs.transcript_note(now, &format!("{id}: record not sent ({reason}): {text}"));
            None
        }
        LinkEventKind::Lost { reason, at_ms, .. } => {
            book.up = false;
            outputs.transcript_note(at_ms, &format!("{}: link lost: {reason}", id.letter()));
            Some((Input::LinkLost { client: id, reason }, at_ms))
        }
        LinkEventKind::Connected { peer, at_ms, .. } => {
            // Who is on the other end goes on the record: the transcript
            // and the journal (a note, not a core input).
            let note = format!("{}: connected from {peer}", id.letter());
            info!("{note}");
            outputs.headless_line(&note);
            outputs.transcript_note(at_ms, &note);
            outputs.journal_note(&note);
            None
        }
        LinkEventKind::Back { at_ms, .. } => {
            book.up = true;
            outputs.transcript_note(at_ms, &format!("{}: link back", id.letter()));
            Some((Input::LinkBack { client: id }, at_ms))
        }
        LinkEventKind::Receiving { at_ms, .. } => Some((Input::Receiving { from: id }, at_ms)),
        LinkEventKind::Error { message } => {
            warn!("{}: {message}", id.letter());
            None
        }
    }
}

/// For relay timings: when the core's answer to a line from `from` plays
/// a move and relays it (a `MoveMade`, no `GameOver`, and a record to the
/// opponent: the `respond` carrying the move), the opponent and that
/// record's sequence number.
fn relayed_move(outs: &[Output], from: ClientId) -> Option<(ClientId, u64)> {
    let moved = outs
        .iter()
        .any(|o| matches!(o.event(), Some(Event::MoveMade { .. })));
    let over = outs
        .iter()
        .any(|o| matches!(o.event(), Some(Event::GameOver(_))));
    let to = from.other();
    let seq = outs.iter().find_map(|o| match o {
        Output::Send { to: t, seq, .. } if *t == to => Some(*seq),
        _ => None,
    })?;
    (moved && !over).then_some((to, seq))
}

/// Carries out one event of the core (records go out through
/// [`send_unit`]): its words to the transcript, the log and headless
/// output, then what it changes on disk.
fn carry_out(o: Output, core: &Referee, outputs: &mut Writers, at: u64) {
    let Output::Event(event) = o else { return };
    outputs.event(&event, at);
    match event {
        Event::GameStarted { .. } | Event::MoveMade { .. } => {
            outputs.live_pgn(|| core.live_pgn(at))
        }
        Event::GameOver(g) => {
            outputs.live_pgn(|| Some((*g.pgn).clone()));
            outputs.finished_game(g.game_number, &g.pgn);
            outputs.audience_game_over(&g);
            outputs.match_stats(&core.stats());
        }
        _ => {}
    }
}

fn link_views(
    links: &Links,
    books: &ByClient<PortBook>,
    lines: &ByClient<String>,
) -> [LinkView; 2] {
    ClientId::BOTH.map(|id| LinkView {
        port: links[id].path().to_string(),
        settings: lines[id].clone(),
        up: books[id].up,
        bytes_in: books[id].bytes_in,
        bytes_out: books[id].bytes_out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Color;

    fn moved() -> Output {
        Output::Event(Event::MoveMade {
            game: 1,
            ply: 1,
            number: 1,
            color: Color::White,
            san: "e4".into(),
            charged_ms: None,
        })
    }

    fn send(to: ClientId) -> Output {
        Output::Send {
            to,
            seq: 7,
            text: "refcom respond;".into(),
        }
    }

    #[test]
    fn a_played_move_relayed_to_the_opponent_is_timed_by_its_record() {
        let outs = [moved(), send(ClientId::B)];
        assert_eq!(relayed_move(&outs, ClientId::A), Some((ClientId::B, 7)));
    }

    #[test]
    fn no_move_or_no_record_to_the_opponent_is_not_timed() {
        // A rejected reply asked again: a record back to the mover only.
        assert_eq!(relayed_move(&[send(ClientId::A)], ClientId::A), None);
        assert_eq!(relayed_move(&[moved()], ClientId::A), None);
        assert_eq!(
            relayed_move(&[moved(), send(ClientId::A)], ClientId::A),
            None
        );
    }
}
