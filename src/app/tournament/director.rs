//! The tournament's loop, which runs every match too: every player's link
//! in, the tournament core and one referee core per board deciding,
//! records, journals and the headless printout out. One thread, blocking
//! on a crossbeam `select!` over the links' events, Ctrl-C and the
//! earliest deadline of all the cores; each turn first picks what woke it
//! (`app::turn::select_event`), then hands it on.
//!
//! Who gets a line: the board the instance that sent it plays on, if any
//! (its client A for White, B for Black); a sign-on also tells the
//! tournament the instance is there. A line from an instance between
//! games, other than a sign-on, is logged and dropped.

use crate::app::writers::GameFiles;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, never, unbounded};
use log::{info, warn};

use crate::app::audience::Audience;
use crate::app::options::View;
use crate::app::signals::Stop;
use crate::app::syzygy::Syzygy;
use crate::app::tournament::args::report_paths;
use crate::app::tournament::board::{Board, Committing, GameSetup, Pace, Voice, link_view};
use crate::app::tournament::live::{LIVE_GAP, LiveGames};
use crate::app::tournament::players::{Field, PerInstance};
use crate::app::tournament::restart::{self, Restart, Starts};
use crate::app::tournament::screen::{Ask, OnBoard, Screen, Waiting};
use crate::app::turn::{PortBook, Staged, Wake, commit, open_tables, select_event};
use crate::app::waiting::{Reminder, since_clock};
use crate::app::writers::RelayTiming;
use crate::app::{Completion, Exit, Failure};
use crate::clock::LineSettings;
use crate::display::InputEvent;
use crate::epd::sign_on::{self, SignOn};
use crate::journal::feed::FileSet;
use crate::link::{LinkEvent, LinkEventKind, PortSettings};
use crate::record::durable::write_atomic;
use crate::record::transcript::Transcript;
use crate::referee::{
    ByClient, ClientId, Command, Input as RefInput, Referee as RefereeCore, Settings, Verdict,
};
use crate::stats::latency::Latencies;
use crate::text::strip_control;
use crate::tournament::journal::TournamentWriter;
use crate::tournament::stats::Tallies;
use crate::tournament::words;
use crate::tournament::{
    self, BoardId, Form, Input, Instance, Output, Player, PlayerId, Tournament, report,
};

/// How often the board view is redrawn (at most).
const REDRAW: Duration = Duration::from_millis(100);

/// How long the end waits for the last records (`disconnect`) to leave.
const DRAIN_GRACE: Duration = Duration::from_secs(3);

/// How often the loop looks whether records it waits for have left.
const DRAIN_TICK: Duration = Duration::from_millis(50);

/// The most link events one loop turn takes: the one that woke the loop,
/// then those already waiting, whose boards' journals are synced together
/// at the turn's end (group commit). Bounded, so that a flood of events
/// cannot hold back the timers, the keys and a stop.
const TURN_EVENTS: usize = 1024;

/// An instance of a player at the edge: what its program last signed on
/// with, and its link while it plays no game.
#[derive(Debug)]
struct Seat {
    /// What it last signed on with (it is seated with it on its next
    /// board).
    sign_on: Option<SignOn>,
    /// Its link between games: records the tournament itself sent it
    /// (the final `disconnect`) that have not left yet, bytes, and whether
    /// it is up or cannot be reached (a board keeps its own while the
    /// instance plays there).
    book: PortBook,
    /// A program argus runs: how it started and stopped.
    starts: Starts,
}

impl Default for Seat {
    fn default() -> Seat {
        Seat {
            sign_on: None,
            book: PortBook::up(),
            starts: Starts::default(),
        }
    }
}

/// What the tournament runs with.
pub struct Director {
    pub core: Tournament,
    pub journal: Option<TournamentWriter>,
    pub field: Field,
    /// Every board's referee settings (see `args::TournamentPlan`).
    pub referee: Settings,
    /// The event's openings: each game's board gets the one the schedule
    /// gives it.
    pub openings: Vec<crate::referee::Start>,
    /// Each player's own time control, by seed (time odds).
    pub own_controls: Vec<Option<crate::clock::TimeControl>>,
    /// Which of the referee's delays were given.
    pub pace: Pace,
    pub port: PortSettings,
    /// Whether a player on a serial line is credited its records' wire
    /// time (not on `argus demo`'s in-process cables).
    pub wire_credit: bool,
    /// Whether `argus resume` carries the event on (a stop says how).
    pub resumable: bool,
    /// The players, in seed order.
    pub players: Vec<Player>,
    /// Where the games' journals and transcripts go.
    pub layout: crate::app::tournament::layout::Layout,
    pub games: GameFiles,
    pub report: Option<PathBuf>,
    /// `--results-json`.
    pub results_json: Option<PathBuf>,
    /// `--trf`: a Swiss event as TRF-2026, rewritten after every round.
    pub trf: Option<PathBuf>,
    /// The wall-clock time the tournament started (its journal's first
    /// `epoch`; the TRF's start date), when known.
    pub started_unix_ms: Option<u64>,
    /// `--rating-interval N`: the standings said every N games.
    pub rating_interval: Option<crate::stats::interval::RatingInterval>,
    /// One line per result on stdout, or the board view.
    pub view: View,
    pub epoch: Instant,
    /// Journal time at `epoch` (the last input's, on resume).
    pub base: u64,
    pub ctrl_c: Receiver<Stop>,
    /// The tournament-level transcript: bytes to and from players between
    /// games (a game's bytes are in its own directory).
    pub transcript: Option<Transcript>,
    /// The boards' games in progress, on resume (empty at a start).
    pub boards: Vec<Option<Board>>,
    /// Rebuilt from its journals after a stop: the cores are told so first.
    pub resumed: bool,
    /// The board view, while it is shown.
    pub screen: Option<Screen>,
    /// The audience's web page (`--http`).
    pub audience: Option<Audience>,
    /// `--live-pgn`: the game on every board.
    pub live: Option<LiveGames>,
    /// The files the feed serves (`--feed`): each game's journal is added
    /// as it starts and closed as its board is freed.
    pub feed: Option<FileSet>,
    /// Every board's relay overhead.
    pub relays: Relays,
    /// The first file that could not be written (a game's PGN, the
    /// results file, the report, ...): the tournament then exits 1.
    pub write_failed: std::cell::OnceCell<String>,
    /// When the report and results files are rewritten after a result.
    pub report_pace: ReportPace,
}

/// When the report and the results file are rewritten after a game: at
/// once, unless the last rewrite was less than [`REPORT_SHARE`] times its
/// own cost ago; then as soon as that much time has passed (the loop
/// wakes for it). They list every game, so a rewrite after every game of
/// a 10,000-game event of quick games would cost the square of the
/// games; so paced, the rewrites take at most about one part in
/// [`REPORT_SHARE`] of the loop's time, and small events are rewritten
/// after every game as before. The end and a stop rewrite them at once.
#[derive(Debug, Default)]
pub struct ReportPace {
    /// When a result came that is not in the files yet (the first since
    /// the last rewrite).
    due_since: Option<Instant>,
    /// The last rewrite: when it ended and what it cost.
    last: Option<(Instant, Duration)>,
}

/// The least time between two rewrites of the report, in times the last
/// rewrite's cost.
const REPORT_SHARE: u32 = 20;

impl ReportPace {
    /// A result came at `now`: the files are to be rewritten.
    fn result(&mut self, now: Instant) {
        self.due_since.get_or_insert(now);
    }

    /// When the files are to be rewritten next, if they are: when the
    /// result came, or later if the last rewrite was too recent.
    fn next(&self) -> Option<Instant> {
        let since = self.due_since?;
        Some(match self.last {
            Some((at, cost)) => since.max(at + cost * REPORT_SHARE),
            None => since,
        })
    }

    /// Whether the files are to be rewritten at `now`.
    fn ready(&self, now: Instant) -> bool {
        self.next().is_some_and(|t| t <= now)
    }

    /// They were rewritten from `start` to `end`.
    fn written(&mut self, start: Instant, end: Instant) {
        self.due_since = None;
        self.last = Some((end, end.saturating_duration_since(start)));
    }
}

/// The relay overhead of every move on every board (a reply's last byte in
/// to the last byte out of the `respond` that relays it), counted in fixed
/// memory and said at the end of the tournament; each timing also handed
/// on to whoever asked for them (the relay benchmark: [`Relays::also_to`]).
pub struct Relays {
    tx: Sender<RelayTiming>,
    rx: Receiver<RelayTiming>,
    counted: Latencies,
    /// Where each timing goes too, once counted (until it is gone).
    also: Option<Sender<RelayTiming>>,
}

impl Default for Relays {
    fn default() -> Self {
        let (tx, rx) = unbounded();
        Relays {
            tx,
            rx,
            counted: Latencies::default(),
            also: None,
        }
    }
}

impl Relays {
    /// Relays that also hand each timing to `tx` as it is counted (once a
    /// loop turn); a receiver that is gone is no longer sent to.
    pub fn also_to(tx: Option<Sender<RelayTiming>>) -> Relays {
        Relays {
            also: tx,
            ..Relays::default()
        }
    }

    /// Has `board` report its relays here.
    fn watch(&self, board: &mut Board) {
        board.time_relays(self.tx.clone());
    }

    /// Counts the relays reported since the last look.
    fn count(&mut self) {
        for t in self.rx.try_iter() {
            self.counted.add(t.overhead_us());
            if let Some(also) = &self.also
                && also.send(t).is_err()
            {
                self.also = None;
            }
        }
    }
}

/// The loop's state beside the settings.
struct Floor {
    seats: PerInstance<Seat>,
    boards: Vec<Option<Board>>,
    syzygy: Option<Syzygy>,
    /// Why the tournament cannot go on, once something failed.
    failure: Option<Failure>,
    /// The players were sent `disconnect` (the end, or a stop): what they
    /// do now changes nothing.
    leaving: Option<Leaving>,
    /// When to say whom the tournament waits for.
    reminder: Reminder<PlayerId>,
}

impl Floor {
    /// How the tournament ends, once the players have left: every
    /// `disconnect` has left its link, or the grace is over.
    fn left(&self) -> Option<Completion> {
        let l = self.leaving.as_ref()?;
        let drained = self.seats.values().all(|s| s.book.in_flight == 0);
        (drained || Instant::now() >= l.until).then(|| l.ending.clone())
    }
}

/// The wall-clock time of the loop's `epoch`: the transcripts' times (its
/// links' events, counted from the epoch) are measured from it.
pub fn wall_origin(epoch: Instant) -> std::time::SystemTime {
    std::time::SystemTime::now()
        .checked_sub(epoch.elapsed())
        .unwrap_or(std::time::SystemTime::UNIX_EPOCH)
}

/// The board instance `p` plays on among `boards`, and its seat there.
fn board_of(boards: &mut [Option<Board>], p: Instance) -> Option<(ClientId, &mut Board)> {
    boards
        .iter_mut()
        .flatten()
        .find_map(|b| Some((b.client_of(p)?, b)))
}

/// The players were sent `disconnect`.
struct Leaving {
    /// The end of the grace for those records to leave.
    until: Instant,
    ending: Completion,
}

/// When the board view was last drawn and the web page last published.
#[derive(Default)]
struct Shown {
    last_draw: Option<Instant>,
    last_publish: Option<Instant>,
}

impl Director {
    /// Runs the tournament until every game is decided (or it is stopped);
    /// with the audience's page when the tournament was played out, to
    /// serve its final state (once the feed is closed).
    pub fn run(mut self) -> (Exit, Option<Audience>) {
        let mut floor = match self.open_floor() {
            Ok(f) => f,
            Err(e) => {
                self.field.close();
                return (Err(e), None);
            }
        };
        // A match resumed when it was already over only bids its players
        // farewell (`argus resume` said so): nothing to open or carry on.
        let over = self.core.is_over();
        if !over {
            for line in self.opening() {
                self.say(&line);
            }
        }
        if self.resumed && !over {
            self.carry_on(&mut floor);
        } else if let Some(pairing) = self.core.pairing_due() {
            let now = self.now();
            self.hand_to_tournament(pairing, now, &mut floor);
        }
        let mut keys = self.screen.as_ref().map_or_else(never, |s| s.keys.clone());
        let mut shown = Shown::default();
        loop {
            self.relays.count();
            self.concede(&mut floor);
            self.write_report_when_due();
            self.free_boards(&mut floor);
            if let Some(f) = floor.failure.take() {
                self.close(floor);
                return (Err(f), None);
            }
            if floor.leaving.is_none()
                && self.core.is_over()
                && floor.boards.iter().all(Option::is_none)
            {
                self.leave(&mut floor, Completion::Normal);
            }
            if let Some(ending) = floor.left() {
                return self.finish(floor, ending);
            }
            self.remind(&mut floor);
            let wait = match self.show(&floor, &mut shown) {
                Ok(wait) => wait,
                Err(_) if crate::display::hung_up() => {
                    self.lose_terminal(&mut floor);
                    continue;
                }
                Err(e) => {
                    floor.failure = Some(e);
                    continue;
                }
            };
            match select_event(&self.field.events, &keys, &self.ctrl_c, wait) {
                Wake::Source(Some(ev)) => {
                    self.on_link(ev, &mut floor);
                    for _ in 1..TURN_EVENTS {
                        let Ok(ev) = self.field.events.try_recv() else {
                            break;
                        };
                        self.on_link(ev, &mut floor);
                    }
                    self.commit(&mut floor);
                }
                Wake::Source(None) => {
                    floor.failure = Some(Failure::failed("the link threads stopped"));
                }
                Wake::KeysGone => keys = never(),
                Wake::Key(InputEvent::HungUp) => {
                    keys = never();
                    self.lose_terminal(&mut floor);
                }
                Wake::Key(ev) => {
                    shown.last_draw = None;
                    if self.on_key(ev, &mut floor) {
                        self.stop(&mut floor, "the supervisor");
                    }
                }
                Wake::Stop(stop) => {
                    self.stop(&mut floor, stop.map_or("a stop request", Stop::name))
                }
                Wake::Timer => self.on_timer(&mut floor),
            }
        }
    }

    /// The loop's state at the start: the endgame tables, the board view,
    /// the boards a resume carries on.
    fn open_floor(&mut self) -> Result<Floor, Failure> {
        let mut told = None;
        let syzygy = open_tables(self.referee.syzygy.as_deref(), |t| {
            told = Some(t.to_string())
        });
        if let Some(t) = told {
            self.say(&t);
        }
        if let View::Board { ascii } = self.view {
            self.screen = Some(Screen::open(ascii, crate::display::Role::Referee)?);
        }
        let mut boards = std::mem::take(&mut self.boards);
        boards.resize_with(self.core.board_count() as usize, || None);
        for b in boards.iter_mut().flatten() {
            self.relays.watch(b);
        }
        Ok(Floor {
            seats: PerInstance::new(
                self.core.players().len(),
                |p| u32::try_from(self.field.links.of(p).len()).unwrap_or(0),
                |_| Seat::default(),
            ),
            boards,
            syzygy,
            failure: None,
            leaving: None,
            reminder: Reminder::from(
                (0..self.core.players().len()).map(PlayerId).collect(),
                self.now(),
            ),
        })
    }

    /// Draws the board view and publishes to the web page when it is time;
    /// how long the loop may then wait (the cores' deadlines, the next
    /// redraw, and the drain of a board whose game is over).
    fn show(&mut self, floor: &Floor, shown: &mut Shown) -> Result<Option<Duration>, Failure> {
        let now = self.now();
        let deadline = floor
            .boards
            .iter()
            .flatten()
            .filter_map(|b| b.core.next_deadline())
            .chain(self.core.next_deadline())
            .min();
        let mut wait = deadline.map(|d| Duration::from_millis(d.saturating_sub(now)));
        let mut at_most = |w: Duration| wait = Some(wait.map_or(w, |x| x.min(w)));
        if let Some(live) = self.live.as_mut() {
            let boards = floor.boards.iter().flatten();
            live.look(
                boards.map(|b| (b.id.0, b.game.number, &b.core)),
                now,
                Instant::now(),
            );
            at_most(LIVE_GAP);
        }
        if self.audience.is_some() {
            if shown.last_publish.is_none_or(|t| t.elapsed() >= REDRAW) {
                self.publish(floor);
                shown.last_publish = Some(Instant::now());
            }
            at_most(REDRAW);
        }
        if self.screen.is_some() {
            if shown.last_draw.is_none_or(|t| t.elapsed() >= REDRAW) {
                self.draw(floor)?;
                shown.last_draw = Some(Instant::now());
            }
            at_most(REDRAW);
        }
        if floor.leaving.is_some() || floor.boards.iter().flatten().any(|b| b.core.is_over()) {
            at_most(DRAIN_TICK);
        }
        if let Some(t) = self.report_pace.next() {
            at_most(t.saturating_duration_since(Instant::now()));
        }
        if floor.leaving.is_none() && !self.core.waiting().is_empty() {
            at_most(Duration::from_millis(
                floor.reminder.next().saturating_sub(now),
            ));
        }
        Ok(wait)
    }

    /// Says whom the tournament waits for, when it is time (at once for a
    /// player newly away, then every minute).
    fn remind(&mut self, floor: &mut Floor) {
        if floor.leaving.is_some() {
            return;
        }
        let now = self.now();
        let ids: Vec<PlayerId> = self.core.waiting().into_iter().map(|(p, _)| p).collect();
        if floor.reminder.due(&ids, now) {
            let line = words::waiting_line(&self.core, &self.waiting_words());
            self.say(&line);
        }
    }

    /// "waiting for NAME since HH:MM:SS" for every player the tournament
    /// waits for (the wall-clock time, UTC, it went away).
    fn waiting_words(&self) -> Vec<String> {
        let now = self.now();
        self.core
            .waiting()
            .into_iter()
            .map(|(p, since)| words::waiting_for(&self.core, p, &since_clock(now, since)))
            .collect()
    }

    /// A stop (a signal, or the supervisor's `q`): the report is written
    /// and the players leave; every journal is kept for `argus resume`
    /// (when the event is resumable: not the demo's).
    fn stop(&mut self, floor: &mut Floor, by: &str) {
        if floor.leaving.is_some() {
            return;
        }
        let report = match &self.report {
            Some(r) => format!(", and the standings so far are in {}", r.display()),
            None => String::new(),
        };
        // A match says it as a match between ports always has.
        let (stopping, event) = match self.core.settings().form {
            Form::Match => ("ending the session", "match"),
            Form::Tournament => ("stopping the tournament", "tournament"),
        };
        // A journal no resume reads (the demo's) is not offered as kept.
        let kept = if self.resumable {
            format!(
                "its journal ({}) and each game's are kept{report}; carry it on with \
                 `argus resume {}`",
                self.journal_path(),
                self.journal_path()
            )
        } else {
            format!(
                "the games being played are left unfinished (this {event} cannot be carried \
                 on){report}"
            )
        };
        self.say(&format!("{by}: {stopping}; {kept}"));
        self.write_report();
        let why = format!("{by} stopped the {event} before it was over");
        // The journal says why it ends here (a note: resume reads past it).
        self.journal_note(&why);
        self.leave(floor, Completion::EndedEarly(why));
    }

    /// The board view's terminal hung up: the view is let go (nothing more
    /// is drawn or read) and the tournament stops as for SIGHUP.
    fn lose_terminal(&mut self, floor: &mut Floor) {
        if let Some(screen) = self.screen.take() {
            log::warn!("the terminal hung up; stopping the tournament");
            screen.close();
        }
        self.stop(floor, Stop::TerminalLost.name());
    }

    /// Every player is sent `disconnect`; the loop ends with `ending` once
    /// those records have left (or after [`DRAIN_GRACE`]).
    fn leave(&mut self, floor: &mut Floor, ending: Completion) {
        for (i, link) in self.field.links.iter() {
            // A program given up is gone: nothing would take the record.
            if floor.seats.get(i).is_some_and(|s| s.starts.given_up) {
                continue;
            }
            // Nor is an endpoint that could not be reached (it never
            // connected since): the record would only wait out the grace.
            if floor.seats.get(i).is_some_and(|s| s.book.unreachable) {
                continue;
            }
            // Nor a seat on argus's listener nobody signed on to.
            let unseated = floor.seats.get(i).is_none_or(|s| s.sign_on.is_none());
            if unseated
                && self
                    .players
                    .get(i.player.0)
                    .is_some_and(Player::seated_by_sign_on)
            {
                continue;
            }
            // A program that checks its lines (it signed on with Acrc)
            // gets its last record checked too, as every other.
            let mut record = crate::link::seats::disconnect_line();
            if floor
                .seats
                .get(i)
                .and_then(|s| s.sign_on.as_ref())
                .is_some_and(|s| s.line_check)
            {
                crate::epd::line_check::append(&mut record);
            }
            link.farewell();
            match link.send(0, record) {
                Ok(()) => {
                    if let Some(s) = floor.seats.get_mut(i) {
                        s.book.in_flight += 1;
                    }
                }
                Err(e) => warn!("{}: {e}", self.who(i)),
            }
        }
        floor.leaving = Some(Leaving {
            until: Instant::now() + DRAIN_GRACE,
            ending,
        });
    }

    /// The end: the report written and printed (the standings, after a
    /// stop) once the board view is gone; the audience's page, when the
    /// tournament was played out.
    fn finish(mut self, floor: Floor, ending: Completion) -> (Exit, Option<Audience>) {
        self.relays.count();
        if self.relays.counted.count() > 0 {
            let line = format!(
                "relay overhead on all boards: {}",
                self.relays.counted.summary()
            );
            // The log only: a watcher cannot know it, and its lines are
            // the referee's.
            log::info!("{line}");
        }
        // The page's last state: the final standings.
        self.publish(&floor);
        if let Some(mut live) = self.live.take() {
            let at = self.now();
            live.see(
                floor
                    .boards
                    .iter()
                    .flatten()
                    .map(|b| (b.id.0, b.game.number, &b.core)),
                at,
            );
            live.close();
        }
        let shown = self.screen.is_some();
        // A match says its end in its last line (`match over: ...`), as
        // `argus referee` always has; its report is a file, if asked for.
        let a_match = self.core.settings().form == Form::Match;
        let printed = if let Completion::EndedEarly(why) = &ending {
            if a_match {
                // Stopped or not, a match ends with its score so far.
                Some(words::match_summary(&self.core).to_string())
            } else {
                shown.then(|| format!("{why}; standings:\n{}", report::standings_text(&self.core)))
            }
        } else {
            self.write_report();
            match (a_match, shown) {
                (false, _) => Some(report::text(&self.core)),
                // The board view's last lines vanish with it: a match says
                // its score and statistics again after it.
                (true, true) => Some(words::match_farewell(&self.core)),
                // Headless, its last lines said them.
                (true, false) => None,
            }
        };
        let audience = self.audience.take();
        let failed = self.close(floor);
        if let Some(text) = printed {
            crate::app::stdout::line(&text);
        }
        let played_out = matches!(ending, Completion::Normal);
        match failed {
            Some(why) => (
                Err(Failure::failed(format!(
                    "{why}; the tournament went on, but not everything was written (see the log)"
                ))),
                None,
            ),
            None => (Ok(ending), audience.filter(|_| played_out)),
        }
    }

    /// The event's first lines: a tournament's size, or a match's players
    /// and where they are (as `argus referee` has always begun).
    fn opening(&self) -> Vec<String> {
        let count = self.core.board_count();
        let boards = format!("{count} board{}", if count == 1 { "" } else { "s" });
        if self.core.settings().form == Form::Tournament {
            let games = words::extent(&self.core);
            return vec![format!(
                "tournament: {} players, {games} on {boards}; waiting for the players to sign on",
                self.core.settings().names.len(),
            )];
        }
        let place = |i: usize| match self.players.get(i) {
            Some(p @ Player::Serial { .. }) => format!("{} ({})", p.place(), self.port),
            Some(p @ (Player::Socket { .. } | Player::Tcp { .. })) => {
                format!("{} (TCP)", p.place())
            }
            Some(p) => format!("{} (in-process)", p.place()),
            None => String::new(),
        };
        let games = match self.core.schedule().games().len() {
            // An endless match (`argus demo`).
            _ if self.core.schedule().is_endless() => "games until it is stopped".to_string(),
            1 => "1 game".to_string(),
            n => format!("{n} games"),
        };
        let at_once = if count > 1 {
            format!(", {count} at once")
        } else {
            String::new()
        };
        vec![
            format!(
                "referee session: A on {}, B on {}, time control {}, {games}{at_once}",
                place(0),
                place(1),
                self.referee.time_control,
            ),
            "waiting for A and B to sign on (refreq sign_on)".to_string(),
        ]
    }

    /// Draws the board view: the overview, or the focused board.
    fn draw(&mut self, floor: &Floor) -> Result<(), Failure> {
        let waiting = self.waiting_words();
        if let Some(screen) = self.screen.as_mut() {
            screen.waiting = waiting;
        }
        let boards = self.on_boards(floor);
        let title = self.core.settings().event.clone();
        let waiting_board = match self.screen {
            Some(_) => self.waiting_board(floor),
            None => None,
        };
        match self.screen.as_mut() {
            Some(screen) => screen.draw(&self.core, &title, &boards, waiting_board.as_ref()),
            None => Ok(()),
        }
    }

    /// A match's board before its first game, as the board view shows it:
    /// its players by name, the first game's clocks, and their links as
    /// they are now. `None` in a tournament, or once a game has started.
    fn waiting_board(&self, floor: &Floor) -> Option<Waiting> {
        let t = &self.core;
        let progress = t.progress();
        if t.settings().form != Form::Match
            || t.board_count() != 1
            || progress.playing() > 0
            || progress.decided() > 0
            || floor.boards.iter().flatten().next().is_some()
        {
            return None;
        }
        let players = ByClient::new(PlayerId(0), PlayerId(1));
        let mut settings = self.referee.clone();
        settings.names = players.map(|p| Some(t.name(p).to_string()));
        settings.ports =
            players.map(|p| self.players.get(p.0).map(Player::spec).unwrap_or_default());
        settings.lines = players.map(|p| self.line_of(p));
        let at = self.now();
        let mut core = RefereeCore::new(settings);
        // Whoever signed on already is shown signed on (one player only:
        // with both, the game is on its board).
        for id in ClientId::BOTH {
            let seat = floor.seats.get(Instance::new(players[id], 0));
            if let Some(sign_on) = seat.and_then(|s| s.sign_on.clone()) {
                core.handle(
                    RefInput::Seated {
                        client: id,
                        sign_on,
                    },
                    at,
                );
            }
        }
        let mut snapshot = core.snapshot(at);
        snapshot.games_total = t.games_total();
        let links = ClientId::BOTH.map(|id| {
            let player = players[id];
            let instance = Instance::new(player, 0);
            let up = PortBook::up();
            let book = floor.seats.get(instance).map_or(&up, |s| &s.book);
            link_view(
                self.field.links.get(instance),
                self.line_of(player),
                self.field.carrier(player),
                book,
            )
        });
        Some(Waiting {
            snapshot,
            links,
            at,
        })
    }

    /// The line `p` plays on: the event's port settings, with no baud
    /// rate (no wire-time credit) for a player not on a serial line.
    fn line_of(&self, p: PlayerId) -> LineSettings {
        let serial = self.field.serial.get(p.0).copied().unwrap_or(false);
        let mut l = self.port.line();
        if !serial || !self.wire_credit {
            l.baud = 0;
        }
        l
    }

    /// The boards that hold a game, as the board view shows them now.
    fn on_boards<'a>(&self, floor: &'a Floor) -> Vec<OnBoard<'a>> {
        let at = self.now();
        floor
            .boards
            .iter()
            .flatten()
            .map(|b| OnBoard {
                board: b.id,
                game: &b.game,
                core: &b.core,
                at,
                links: b.link_views(&self.field),
            })
            .collect()
    }

    /// Publishes every board in progress and the standings to the web page.
    fn publish(&mut self, floor: &Floor) {
        let now = self.now();
        let waiting = self.waiting_words();
        let Some(audience) = self.audience.as_mut() else {
            return;
        };
        let boards: Vec<(u32, u32, &crate::referee::Referee)> = floor
            .boards
            .iter()
            .flatten()
            .map(|b| (b.id.0, b.game.number, &b.core))
            .collect();
        audience.publish_tournament(&self.core, &boards, waiting, now);
    }

    /// A key in the board view; whether it asks to stop the tournament.
    fn on_key(&mut self, ev: InputEvent, floor: &mut Floor) -> bool {
        let boards = self.on_boards(floor);
        let Some(screen) = self.screen.as_mut() else {
            return false;
        };
        let (id, cmd) = match screen.key(ev, &self.core, &boards) {
            Ask::Nothing => return false,
            Ask::Stop => return true,
            Ask::Board(id, cmd) => (id, cmd),
            Ask::Withdraw(player) => {
                let now = self.now();
                self.hand_to_tournament(Input::Withdraw { player }, now, floor);
                self.concede(floor);
                return false;
            }
        };
        let now = self.now();
        if let Some(Some(board)) = floor.boards.get_mut(board_index(id)) {
            let input = RefInput::Supervisor(cmd);
            board.hand(input, now, &self.field.links, floor.syzygy.as_ref());
        }
        self.collect_results(floor);
        false
    }

    /// Ends each game a player withdrawn by the supervisor is still
    /// playing, once it is under way, as lost by that player (an
    /// adjudication on its board; both withdrawn: aborted, then forfeited
    /// by both). Called every loop turn: the core says which games
    /// ([`Tournament::concessions`]), from its state, so a game still
    /// starting is ended once it starts, and a resume ends what a kill
    /// left.
    fn concede(&mut self, floor: &mut Floor) {
        let mut handed = false;
        for (board, game, loser) in self.core.concessions() {
            let Some(Some(b)) = floor.boards.get_mut(board_index(board)) else {
                continue;
            };
            if b.game.number != game || b.core.position_in_play().is_none() {
                continue;
            }
            let cmd = match loser {
                Some(shakmaty::Color::White) => Command::Adjudicate(Verdict::BlackWins),
                Some(shakmaty::Color::Black) => Command::Adjudicate(Verdict::WhiteWins),
                None => Command::AbortGame,
            };
            let now = self.now();
            b.hand(
                RefInput::Supervisor(cmd),
                now,
                &self.field.links,
                floor.syzygy.as_ref(),
            );
            handed = true;
        }
        if handed {
            self.collect_results(floor);
        }
    }

    /// The first inputs after a resume: every board's core is told (each
    /// brings its players back in line), then the tournament core, with
    /// the players on cables, which it counts as signed on again
    /// (`Input::Resumed`). The boards go first: the tournament may start a
    /// game on a free board at once, which must not be told it resumed.
    fn carry_on(&mut self, floor: &mut Floor) {
        let now = self.now();
        for board in floor.boards.iter_mut().flatten() {
            board.hand(
                RefInput::Resumed,
                now,
                &self.field.links,
                floor.syzygy.as_ref(),
            );
        }
        let on_cables = (0..self.core.players().len())
            .filter(|&p| self.field.serial.get(p).copied().unwrap_or(false))
            .map(PlayerId)
            .collect();
        self.hand_to_tournament(Input::Resumed { on_cables }, now, floor);
        self.collect_results(floor);
    }

    /// Flushes the boards' files, gives the terminal back and closes every
    /// link; the first file that could not be written, if one could not.
    fn close(mut self, floor: Floor) -> Option<String> {
        if let Some(screen) = self.screen.take() {
            screen.close();
        }
        for b in floor.boards.into_iter().flatten() {
            self.finish_board(b);
        }
        self.field.close();
        self.write_failed.into_inner()
    }

    fn now(&self) -> u64 {
        self.base
            .saturating_add(u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX))
    }

    /// Instance `i`'s player's name, with `#K` for its instance K > 1
    /// (stripped of control characters).
    fn who(&self, i: Instance) -> String {
        i.named(&strip_control(self.core.name(i.player)))
    }

    fn journal_path(&self) -> String {
        self.journal
            .as_ref()
            .map_or_else(|| "(no journal)".into(), |j| j.path().display().to_string())
    }

    /// A player's sign-on: said as [`Director::say`] does, but a match
    /// keeps it off stdout (its log has it), as a match between ports does.
    fn say_sign_on(&mut self, text: &str) {
        if self.core.settings().form == Form::Match && self.screen.is_none() {
            info!("{text}");
        } else {
            self.say(text);
        }
    }

    /// A line on stdout when headless, in the board view's latest lines
    /// otherwise (and in the log).
    fn say(&mut self, text: &str) {
        info!("{text}");
        match self.screen.as_mut() {
            Some(screen) => screen.note(text),
            None => crate::app::stdout::line(text),
        }
    }

    /// The end of a loop turn: every board's staged input made durable,
    /// then their outputs carried out (group commit), then the results
    /// they brought told to the tournament.
    fn commit(&mut self, floor: &mut Floor) {
        let links = &self.field.links;
        let syzygy = floor.syzygy.as_ref();
        let mut staged: Vec<Committing> = floor
            .boards
            .iter_mut()
            .flatten()
            .filter(|b| b.is_staged())
            .map(|board| Committing {
                board,
                links,
                syzygy,
            })
            .collect();
        if staged.is_empty() {
            return;
        }
        let mut each: Vec<&mut dyn Staged> =
            staged.iter_mut().map(|c| c as &mut dyn Staged).collect();
        commit(&mut each);
        self.collect_results(floor);
    }

    /// The deadlines that have come: each board's (committed together),
    /// then the tournament's.
    fn on_timer(&mut self, floor: &mut Floor) {
        let now = self.now();
        for board in floor.boards.iter_mut().flatten() {
            if board.core.next_deadline().is_some_and(|d| d <= now) {
                board.stage(
                    RefInput::Timer,
                    now,
                    &self.field.links,
                    floor.syzygy.as_ref(),
                );
            }
        }
        self.commit(floor);
        if self.core.next_deadline().is_some_and(|d| d <= now) {
            self.hand_to_tournament(Input::Timer, now, floor);
        }
    }

    /// One report of an instance's link.
    fn on_link(&mut self, ev: LinkEvent<Instance>, floor: &mut Floor) {
        let p = ev.id;
        let now = self.now();
        // The instance's name is made only when a line needs it (not for
        // each move).
        if floor.leaving.is_some() {
            return self.between_games(p, &self.who(p), ev.kind, now, floor);
        }
        // A sign-on: the tournament learns the player is there (first time,
        // or back); the board it plays on brings it back in line.
        let mut to_core = Vec::new();
        match &ev.kind {
            LinkEventKind::Line { text, .. } => {
                if let Some(said) = sign_on::of_line(text) {
                    // A port's program names its player (again, if it
                    // signs on again before its first game).
                    let current = self.core.name(p.player);
                    // Its board's game, if that game's record takes the
                    // name from the sign-on (its first game).
                    let first = floor.boards.iter().flatten().find_map(|b| {
                        let c = b.client_of(p)?;
                        b.core.settings().names[c]
                            .is_none()
                            .then_some(b.game.number)
                    });
                    let again = self.core.renamed_by_sign_on(p.player, first);
                    let takes_name = self
                        .players
                        .get(p.player.0)
                        .is_some_and(|pl| pl.takes_sign_on_name(current, again));
                    let named = said.name.clone().filter(|n| takes_name && !n.is_empty());
                    if let Some(seat) = floor.seats.get_mut(p) {
                        seat.sign_on = Some(said);
                        seat.starts.signed_on();
                    }
                    if let Some(name) = named {
                        to_core.push(Input::Named {
                            player: p.player,
                            name,
                        });
                    }
                    if !self.core.is_present(p.player, p.n) {
                        if to_core.is_empty() {
                            self.say_sign_on(&format!("{} signed on", self.who(p)));
                        }
                        to_core.push(Input::SignedOn {
                            player: p.player,
                            instance: p.n,
                        });
                    }
                }
            }
            LinkEventKind::Lost { reason, .. } => {
                self.say(&format!("{}: link lost ({reason})", self.who(p)));
                to_core.push(Input::Lost {
                    player: p.player,
                    instance: p.n,
                    reason: reason.clone(),
                });
            }
            _ => {}
        }
        let syzygy = floor.syzygy.as_ref();
        match board_of(&mut floor.boards, p) {
            // Staged: its outputs leave at the turn's commit.
            Some((client, board)) => {
                board.link_event(client, ev.kind, self.base, now, &self.field.links, syzygy)
            }
            None => self.between_games(p, &self.who(p), ev.kind, now, floor),
        }
        let lost = to_core.iter().any(|i| matches!(i, Input::Lost { .. }));
        if !to_core.is_empty() {
            // The boards' outputs first, as they came.
            self.commit(floor);
        }
        for input in to_core {
            self.hand_to_tournament(input, now, floor);
        }
        if lost
            && self
                .field
                .run_here
                .get(p.player.0)
                .copied()
                .unwrap_or(false)
        {
            self.program_stopped(p, None, floor);
        }
    }

    /// A program argus runs has stopped (its engine failed and the
    /// bridge's restart failed too, or it could not start), or could not
    /// be started again (`failed`: why): what to do is
    /// [`restart::decide`]'s, carried out here. One that had signed on is
    /// started again at once (a game it was playing takes it back in
    /// line), or, if it stopped again in the game it was started again
    /// for, once that game's board is free. One that stopped before it
    /// signed on is started again up to [`restart::START_TRIES`] starts in
    /// a row, each said with its reason; then this instance is given up
    /// while another of its player's plays on, or else the player cannot
    /// be started and forfeits its remaining games. A game it was playing
    /// then is aborted, to be played again by another instance, or, for
    /// the last, lost by it.
    fn program_stopped(&mut self, p: Instance, failed: Option<String>, floor: &mut Floor) {
        let game = board_of(&mut floor.boards, p).map(|(_, b)| b.game.number);
        let others = floor
            .seats
            .of(p.player)
            .iter()
            .enumerate()
            .any(|(n, s)| n != p.n as usize && !s.starts.given_up);
        let Some(seat) = floor.seats.get(p) else {
            return;
        };
        let decision = restart::decide(&seat.starts, game, others);
        let why = match decision {
            Restart::Retry { .. } | Restart::GiveUp { .. } | Restart::CannotStart { .. } => failed
                .or_else(|| {
                    self.field
                        .start_failure(p, START_FAILURE_GRACE)
                        .map(|e| e.to_string())
                })
                .unwrap_or_else(|| "it stopped before it signed on".into()),
            _ => String::new(),
        };
        let name = self.who(p);
        let player = strip_control(self.core.name(p.player));
        if let Some(line) = restart::said(&name, &player, decision, &why) {
            self.say(&line);
        }
        let Some(starts) = floor.seats.get_mut(p).map(|s| &mut s.starts) else {
            return;
        };
        match decision {
            Restart::Now => {
                starts.restarted_in = game;
                self.say(&format!(
                    "{name}: its program stopped; argus starts it again"
                ));
                self.start_again(p, floor);
            }
            Restart::AfterGame(_) => starts.after_game = true,
            Restart::Retry { failed } => {
                starts.failed = failed;
                self.start_again(p, floor);
            }
            Restart::GiveUp { game } => {
                starts.given_up = true;
                self.end_game_of(p, game, false, floor);
            }
            Restart::CannotStart { game } => {
                starts.given_up = true;
                let now = self.now();
                let input = Input::CannotStart {
                    player: p.player,
                    reason: why,
                };
                self.hand_to_tournament(input, now, floor);
                self.end_game_of(p, game, true, floor);
            }
            Restart::Nothing => {}
        }
    }

    /// Ends `game`, which instance `p`, given up, was playing, if it is
    /// still in play on its board: lost by `p` (`lost`: its player cannot
    /// be started, as a player withdrawn loses the game it is playing),
    /// or aborted (`*`), for the tournament core to play it again.
    fn end_game_of(&mut self, p: Instance, game: Option<u32>, lost: bool, floor: &mut Floor) {
        let Some(g) = game else { return };
        let now = self.now();
        if let Some((client, board)) = board_of(&mut floor.boards, p)
            && board.game.number == g
            && board.core.position_in_play().is_some()
        {
            // Client A plays White.
            let cmd = match (lost, client) {
                (false, _) => Command::AbortGame,
                (true, ClientId::A) => Command::Adjudicate(Verdict::BlackWins),
                (true, ClientId::B) => Command::Adjudicate(Verdict::WhiteWins),
            };
            board.hand(
                RefInput::Supervisor(cmd),
                now,
                &self.field.links,
                floor.syzygy.as_ref(),
            );
        }
        self.collect_results(floor);
    }

    /// Starts instance `p`'s program again; if it cannot even be started
    /// on its way (no thread, no link), that counts as a start that
    /// stopped before it signed on.
    fn start_again(&mut self, p: Instance, floor: &mut Floor) {
        if let Some(seat) = floor.seats.get_mut(p) {
            seat.starts.started();
        }
        match self.field.restart(p) {
            Ok(()) => {
                if let Some(s) = floor.seats.get_mut(p) {
                    s.book = PortBook::up();
                }
                if let Some((client, board)) = board_of(&mut floor.boards, p) {
                    board.link_replaced(client);
                }
            }
            Err(reason) => self.program_stopped(p, Some(reason.to_string()), floor),
        }
    }

    /// A player's link event while it plays no game: the bytes go to the
    /// tournament's transcript; a line other than a sign-on is dropped.
    fn between_games(
        &mut self,
        p: Instance,
        name: &str,
        kind: LinkEventKind,
        now: u64,
        floor: &mut Floor,
    ) {
        let form = self.core.settings().form;
        let label = p.transcript_label(form);
        let at = Duration::from_millis(now);
        if let Some(seat) = floor.seats.get_mut(p) {
            seat.book.count(&kind);
        }
        // A match's words said once the transcript has the event.
        let mut match_says = None;
        let t = self.transcript.as_mut();
        let written = match kind {
            LinkEventKind::Line {
                text,
                raw,
                replaced,
                ..
            } => {
                if !sign_on::is_sign_on_line(&text) {
                    info!(
                        "{name}: line between games ignored: {}",
                        strip_control(&text)
                    );
                }
                // Bytes replaced in a quoted string (a sign-on's name):
                // said as a game's lines are.
                let note =
                    replaced.map(|what| format!("{label} ({name}): line kept, {what}: {text}"));
                if let Some(note) = &note {
                    warn!("{note}");
                }
                t.map(|t| {
                    t.incoming(at, &label, &raw)?;
                    note.map_or(Ok(()), |n| t.note(at, &n))
                })
            }
            LinkEventKind::Dropped { raw, reason, .. } => {
                t.map(|t| t.rejected(at, &label, &raw, &reason))
            }
            LinkEventKind::Sent { wire, .. } => t.map(|t| t.outgoing(at, &label, &wire)),
            LinkEventKind::SendFailed { text, reason, .. } => {
                warn!("{name}: record not sent ({reason}): {text}");
                None
            }
            LinkEventKind::Lost { reason, .. } => {
                t.map(|t| t.note(at, &format!("{label} ({name}): link lost: {reason}")))
            }
            LinkEventKind::Connected { peer, .. } => {
                // A match says it as a match between ports has: by its
                // client's letter, on stdout too and in its journal.
                let note = match form {
                    Form::Match => format!("{label}: connected from {peer}"),
                    Form::Tournament => format!("{label} ({name}): connected from {peer}"),
                };
                let written = t.map(|t| t.note(at, &note));
                match form {
                    Form::Match => match_says = Some(note),
                    Form::Tournament => info!("{note}"),
                }
                written
            }
            LinkEventKind::Back { .. } => {
                t.map(|t| t.note(at, &format!("{label} ({name}): link back")))
            }
            LinkEventKind::Error { message } | LinkEventKind::Unreachable { message } => {
                // A match names its client as a match between ports does
                // (`A: tcp://...: cannot connect`); a tournament by name,
                // unless the message begins with it (an endpoint's).
                let said = match self.core.settings().form {
                    Form::Match => format!("{label}: {message}"),
                    Form::Tournament if message.starts_with(name) => message.clone(),
                    Form::Tournament => format!("{name}: {message}"),
                };
                warn!("{said}");
                // The board view's latest lines say it too (the link says
                // it now and then, not at every attempt).
                if let Some(screen) = self.screen.as_mut() {
                    screen.note(&strip_control(&said));
                }
                // The message names the link's port or endpoint.
                t.map(|t| t.note(at, &format!("{label}: {message}")))
            }
            LinkEventKind::Receiving { .. } => None,
        };
        if let Some(Err(e)) = written {
            warn!("cannot write the tournament transcript ({e}); it stops here");
            self.transcript = None;
        }
        if let Some(note) = match_says {
            self.say(&note);
            self.journal_note(&note);
        }
    }

    /// A line for people in the event's journal (`note ...`), which
    /// replay reads past; a note that cannot be written is logged.
    fn journal_note(&mut self, note: &str) {
        if let Some(Err(e)) = self.journal.as_mut().map(|j| j.note(note)) {
            warn!(
                "cannot note in the journal {} ({e}): {note}",
                self.journal_path()
            );
        }
    }

    /// Whether `out`'s words are said now: a match with `--rating-interval
    /// N` says its statistics line (a game's `RoundOver`) every N games
    /// and after its last, as a match between ports does; everything else
    /// is said as it comes.
    fn says_now(&mut self, out: &Output) -> bool {
        if !matches!(out, Output::RoundOver { .. }) || self.core.settings().form != Form::Match {
            return true;
        }
        let last = self.core.is_over() || self.core.sprt_decided().is_some();
        let played = tournament::words::games_played(&self.core);
        match self.rating_interval.as_mut() {
            None => true,
            Some(every) => every.due(played) || last,
        }
    }

    /// Tells the tournament core of the games whose result is now known.
    fn collect_results(&mut self, floor: &mut Floor) {
        let mut finished = Vec::new();
        for board in floor.boards.iter_mut().flatten() {
            if let (Some(a), Some(over)) = (self.audience.as_mut(), board.over()) {
                a.game_over_as(board.game.number, over);
            }
            if let Some((over, sides)) = board.take_result() {
                finished.push(Input::GameFinished {
                    game: board.game.number,
                    result: over.result,
                    termination: over.termination,
                    sides,
                    ending: Some(over.ending.to_string()),
                });
            }
        }
        let now = self.now();
        let any = !finished.is_empty();
        for input in finished {
            self.hand_to_tournament(input, now, floor);
        }
        // Counted only when a result came and the figures may be due: the
        // count goes through every game, and this runs every loop turn.
        // A match says its figures with each game's end instead
        // ([`Director::says_now`]).
        if !any || self.rating_interval.is_none() || self.core.settings().form == Form::Match {
            return;
        }
        let played = tournament::words::games_played(&self.core);
        if self.rating_interval.as_mut().is_some_and(|r| r.due(played)) {
            let line = tournament::words::rating_interval(&self.core, played);
            self.say(&line);
        }
    }

    /// Frees the boards whose game is over and concluded.
    fn free_boards(&mut self, floor: &mut Floor) {
        for i in 0..floor.boards.len() {
            if !floor.boards[i].as_ref().is_some_and(Board::done) {
                continue;
            }
            let Some(board) = floor.boards[i].take() else {
                continue;
            };
            let id = board.id;
            let players = [board.seats.a, board.seats.b];
            // Its game's end is in the live PGN whenever its last look was.
            if let Some(live) = self.live.as_mut() {
                live.see([(id.0, board.game.number, &board.core)], board.time());
            }
            self.finish_board(board);
            let now = self.now();
            self.hand_to_tournament(Input::BoardFree { board: id }, now, floor);
            for p in players {
                let due = floor.leaving.is_none()
                    && floor.seats.get(p).is_some_and(|s| s.starts.after_game);
                if due {
                    let name = self.who(p);
                    self.say(&format!(
                        "{name}: its program stopped; argus starts it again"
                    ));
                    self.start_again(p, floor);
                }
            }
        }
    }

    /// Flushes a board's files; its journal is then complete (for the
    /// feed).
    fn finish_board(&self, board: Board) {
        let number = board.game.number;
        let journal = board.journal().to_path_buf();
        if let Some(why) = board.finish() {
            let _ = self.write_failed.set(format!("game {number}: {why}"));
        }
        if let Some(files) = &self.feed {
            files.close(&journal);
        }
    }

    /// Journals an input to the tournament core (synced), hands it over and
    /// carries out what it says.
    fn hand_to_tournament(&mut self, input: Input, at: u64, floor: &mut Floor) {
        let at = at.max(self.core.time());
        if let Some(j) = self.journal.as_mut()
            && let Err(e) = j.input(at, &input)
        {
            log::error!(
                "cannot write the tournament journal ({e}); it stops here: the tournament goes \
                 on, but cannot be resumed past this point"
            );
            self.journal = None;
        }
        for out in self.core.handle(input, at) {
            self.carry_out(out, at, floor);
        }
        // A round due is paired, and journaled, before anything else.
        if let Some(pairing) = self.core.pairing_due() {
            self.hand_to_tournament(pairing, at, floor);
        }
    }

    fn carry_out(&mut self, out: Output, at: u64, floor: &mut Floor) {
        if let Some(line) = words::said(&self.core, &out) {
            match &out {
                Output::Named { .. } => self.say_sign_on(&line),
                _ if self.says_now(&out) => self.say(&line),
                _ => info!("{line}"),
            }
        }
        match out {
            Output::StartGame {
                board,
                game,
                instances,
            } => self.start_game(board, game, instances, at, floor),
            Output::Scored { .. } => {
                self.report_pace.result(Instant::now());
                self.write_report_when_due();
            }
            Output::RoundOver { .. } | Output::Paired(_) => self.write_trf(),
            Output::Ignored { reason } => warn!("tournament: {reason}"),
            Output::Abort { board, .. } => {
                if let Some(Some(b)) = floor.boards.get_mut(board_index(board)) {
                    let abort = RefInput::Supervisor(Command::AbortGame);
                    b.hand(abort, at, &self.field.links, floor.syzygy.as_ref());
                }
                self.collect_results(floor);
            }
            Output::Replay { .. }
            | Output::OnCable { .. }
            | Output::Named { .. }
            | Output::Unpairable { .. }
            | Output::SprtDecided { .. }
            | Output::Withdrawn { .. }
            | Output::TournamentOver => {}
        }
    }

    /// Starts `game` on `board`: its core, journal and transcript, and
    /// the players' sign-ons handed to it.
    fn start_game(
        &mut self,
        board: BoardId,
        game: tournament::ScheduledGame,
        instances: shakmaty::ByColor<u32>,
        at: u64,
        floor: &mut Floor,
    ) {
        let seats = ByClient::new(game.white, game.black);
        let name = |p: PlayerId| self.core.name(p).to_string();
        let spec = |p: PlayerId| self.players.get(p.0).map(Player::spec).unwrap_or_default();
        let line = |p: PlayerId| self.line_of(p);
        let here = |p: PlayerId| self.field.run_here.get(p.0).copied().unwrap_or(false);
        let own = |p: PlayerId| self.own_controls.get(p.0).cloned().flatten();
        // A knockout's tie-break games: its control, checked when given
        // (and when the journal was read).
        let mut control = self
            .core
            .knockout()
            .and_then(|k| k.control_of(game.number))
            .and_then(|tc| crate::clock::parse_friendly(tc).ok());
        let mut own_controls = ByClient::new(own(seats.a), own(seats.b));
        // The decisive game's time odds: White's control and Black's (in
        // place of any the players have of their own).
        if let Some((w, b)) = self
            .core
            .knockout()
            .and_then(|k| k.armageddon_controls(game.number))
        {
            let w = crate::clock::parse_friendly(w).ok();
            let b = crate::clock::parse_friendly(b).ok();
            control = w.clone().or(control);
            own_controls = ByClient::new(w, b);
        }
        // A program that signed on is seated as it did; one on a cable
        // after a resume (counted as signed on) by its player's name.
        let sign_on = |p: Instance| {
            floor
                .seats
                .get(p)
                .and_then(|s| s.sign_on.clone())
                .unwrap_or_else(|| SignOn::named(self.core.name(p.player)))
        };
        let sign_ons = ByClient::new(
            sign_on(Instance::new(game.white, instances.white)),
            sign_on(Instance::new(game.black, instances.black)),
        );
        // A player its program named, in its first game: the game's record
        // takes the name from the sign-on, so that signing on again before
        // the game is under way names it again, as in a match between
        // ports (the event is told too: `on_link`).
        let named_by_sign_on = ByClient::new_with(|c| {
            let p = seats[c];
            self.core.renamed_by_sign_on(p, Some(game.number))
                && sign_ons[c].name.as_deref() == Some(self.core.name(p))
        });
        let setup = GameSetup {
            board,
            game,
            instances,
            named_by_sign_on,
            base: &self.referee,
            openings: &self.openings,
            control,
            port: self.port,
            names: ByClient::new(name(seats.a), name(seats.b)),
            specs: ByClient::new(spec(seats.a), spec(seats.b)),
            lines: ByClient::new(line(seats.a), line(seats.b)),
            own_search_time: ByClient::new(here(seats.a), here(seats.b)),
            own_controls,
            // A match's --round names every game's round.
            round: self
                .referee
                .round
                .clone()
                .unwrap_or_else(|| self.core.round_tag(&game)),
            voice: Voice {
                form: self.core.settings().form,
                headless: matches!(self.view, View::Headless),
            },
            games_total: self.core.games_total(),
            layout: &self.layout,
            games: self.games.clone(),
            pace: self.pace,
            run_here: here(seats.a) && here(seats.b),
        };
        let mut b = match Board::start(setup, at) {
            Ok(mut b) => {
                self.relays.watch(&mut b);
                b.set_wall_origin(wall_origin(self.epoch));
                b
            }
            Err(e) => {
                floor.failure = Some(Failure::failed(format!(
                    "cannot start game {} on {board}: {e}",
                    game.number
                )));
                return;
            }
        };
        b.seat(sign_ons, at, &self.field.links, floor.syzygy.as_ref());
        if let Some(files) = &self.feed
            && let Err(e) = files.add(b.journal(), false)
        {
            warn!("game {}: not fed: {e}", game.number);
        }
        if let Some(slot) = floor.boards.get_mut(board_index(board)) {
            *slot = Some(b);
        }
        self.collect_results(floor);
    }

    /// Rewrites the TRF file (`--trf`) atomically: the event after its
    /// complete rounds.
    fn write_trf(&self) {
        let Some(path) = &self.trf else { return };
        let facts = crate::tournament::swiss_event::TrfFacts {
            site: Some(self.referee.site.clone()),
            started_unix_ms: self.started_unix_ms,
            ended_unix_ms: Some(crate::app::wall::unix_ms_now()),
            time_control: Some(self.referee.time_control.clone()),
        };
        let text = crate::tournament::swiss_event::trf(&self.core, &facts);
        if let Err(e) = write_atomic(path, &text) {
            let line = format!("cannot write the TRF file {}: {e}", path.display());
            warn!("{line}");
            let _ = self.write_failed.set(line);
        }
    }

    /// Rewrites the report and results files if a result came and their
    /// pace allows ([`ReportPace`]).
    fn write_report_when_due(&mut self) {
        if self.report_pace.ready(Instant::now()) {
            self.write_report();
        }
    }

    /// Rewrites the report files (`--report`) and the statistics
    /// (`--results-json`), atomically.
    fn write_report(&mut self) {
        let start = Instant::now();
        self.rewrite_report();
        self.report_pace.written(start, Instant::now());
    }

    fn rewrite_report(&self) {
        if let Some(path) = &self.results_json {
            let mut json = format!("{:#}", Tallies::of(&self.core).to_json(&self.core));
            json.push('\n');
            if let Err(e) = write_atomic(path, &json) {
                let line = format!("cannot write the results file {}: {e}", path.display());
                warn!("{line}");
                let _ = self.write_failed.set(line);
            }
        }
        let Some(path) = &self.report else { return };
        let (text, md) = report_paths(path);
        for (p, body) in [
            (text, report::text(&self.core)),
            (md, report::markdown(&self.core)),
        ] {
            if let Err(e) = write_atomic(&p, &body) {
                let line = format!("cannot write the report {}: {e}", p.display());
                warn!("{line}");
                let _ = self.write_failed.set(line);
            }
        }
    }
}

/// How long a program's thread that could not start it is given to end
/// (its link is lost as it ends), for its reason.
const START_FAILURE_GRACE: Duration = Duration::from_secs(2);

fn board_index(b: BoardId) -> usize {
    (b.0 as usize).saturating_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_is_rewritten_after_a_result_at_most_once_per_twenty_times_its_cost() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let mut pace = ReportPace::default();
        assert!(!pace.ready(t0 + ms(1)), "no result, no rewrite");
        assert_eq!(pace.next(), None, "nothing to wake for");
        pace.result(t0);
        // The first at once: ready at the very moment the result came (the
        // loop asks with the time it read after handing the result on, and
        // waits no longer than until `next`).
        assert!(pace.ready(t0), "the first at once");
        assert_eq!(pace.next(), Some(t0));
        // A rewrite that cost 10 ms: the next no sooner than 200 ms on.
        pace.written(t0, t0 + ms(10));
        assert!(!pace.ready(t0 + ms(500)), "nothing new");
        assert_eq!(pace.next(), None);
        pace.result(t0 + ms(20));
        assert!(!pace.ready(t0 + ms(209)));
        assert_eq!(pace.next(), Some(t0 + ms(210)));
        assert!(pace.ready(t0 + ms(210)));
        // A cheap rewrite: the next result is written as it comes.
        pace.written(t0 + ms(210), t0 + ms(210));
        pace.result(t0 + ms(300));
        assert_eq!(pace.next(), Some(t0 + ms(300)));
        assert!(pace.ready(t0 + ms(300)));
    }
}
