//! [`Bridge`]: the engine client's protocol logic. It follows the game
//! with a [`Tracker`], asks the engine (behind a [`Driver`]) for a move on
//! every `respond`, and builds the reply record: `sm` in SAN, with
//! `draw_offer`, `draw_accept`, `draw_claim` or `resign` as the engine
//! said.
//!
//! The engine's search does not hold the bridge: a `respond` gives the
//! engine the game and its `go` ([`Bridge::take_line`]) and returns, and
//! the engine's lines are taken as they come ([`Bridge::engine_said`]) by
//! the caller, which waits on the engine's output
//! ([`Bridge::engine_output`], until [`Bridge::engine_due`]) beside the
//! referee's lines on one thread; so the referee's records are read while
//! the engine thinks, and no thread of the bridge's own stands between
//! the engine's pipe reader and the reply. A game that ends meanwhile
//! (a flag, an adjudication, the supervisor's abort, the next `reset`)
//! stops the search (UCI `stop`, XBoard `?`): the stale move is dropped
//! and the engine is ready for the next game at once; that is neither a
//! hang nor a fault.
//!
//! Draw claims: UCI has none, so a UCI engine would play a repeated
//! position on to fivefold repetition or the 75-move rule. The bridge
//! claims for it (unless told not to, [`Bridge::with_draw_claims`]): a
//! threefold repetition or fifty moves reached by the opponent's move is
//! claimed at once, without asking the engine; one the engine's move
//! reaches goes as `draw_claim;` with that move (FIDE 9.2, 9.3, as the
//! referee judges claims). XBoard engines claim for themselves.
//!
//! Opening books ([`BookPlay`], `--book`): while the game is in the book
//! and below its depth, a `respond` is answered with the book's move (no
//! `ce`: a book move has no score) and the engine is not asked; it gets
//! the whole game with its next search. The first position the book has
//! no move for ends the book for that game.
//!
//! A book move's reply carries the private opcode `Abook` (the referee
//! marks it `{book}` in the PGN); a move the engine pondered for carries
//! `Aponder hit` or `Aponder miss` (docs/protocol.md), and the hits and
//! ponders are counted for the summary (`--ponder`, [`super::ponder`]).
//! A move the engine searched carries `Asearch MS`: the engine's own time
//! for it, `go` out to its move read from the pipe (a referee that runs
//! the bridge itself charges that, not its own hops).
//!
//! Faults: an engine that dies, hangs past its time plus the margin, or
//! sends an illegal move is reported to the referee with `refreq fault;`
//! (the supervisor sees it), its last output lines are logged, and it is
//! restarted once and given the whole game again; the pending `respond`
//! is then answered by the new engine. If the new engine fails too, the
//! bridge gives up ([`Bridge::failure`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::Receiver;
use shakmaty::{Chess, Move, Position};

use super::analysis::{Analysis, pv_operation};
use super::log::Dir;
use super::ponder::Tally;
use super::process::Heard;
use super::{
    Answer, Driver, EngineSettings, Fault, FaultKind, Job, Limit, Protocol, Refusal, Trouble,
    start, time,
};
use crate::client::Action;
use crate::client::book::Book;
use crate::client::track::{Event, Tracker};
use crate::clock::TimeControl;
use crate::epd::{Operation, Record};
use crate::game::{DrawClaim, Variant};
use crate::text::strip_control;

/// Longest name sent with `tcsi`.
const NAME_LIMIT: usize = 64;

/// The search for the pending `respond`.
struct Search {
    /// The game's length and position searched: a `respond` for them
    /// again while the engine thinks is the same turn.
    ply: usize,
    position: Chess,
    /// When the `respond` arrived: the engine's time runs from here.
    asked_at: Instant,
    draw_offered: bool,
    /// The clocks as the `respond` gave them.
    limit: Limit,
    /// The engine was restarted for this search already.
    retried: bool,
    /// What the engine was given, once it was (`None` before).
    job: Option<OwnedJob>,
}

/// A job the bridge keeps while the engine searches.
struct OwnedJob {
    start: Chess,
    moves: Vec<Move>,
    position: Chess,
    time_control: TimeControl,
    limit: Limit,
    asked_at: Instant,
    wait: Duration,
    draw_offered: bool,
}

impl OwnedJob {
    fn job(&self) -> Job<'_> {
        Job {
            start: &self.start,
            moves: &self.moves,
            position: &self.position,
            time_control: &self.time_control,
            limit: self.limit,
            asked_at: self.asked_at,
            wait: self.wait,
            draw_offered: self.draw_offered,
        }
    }
}

/// The engine client.
pub struct Bridge {
    settings: EngineSettings,
    /// The engine (`None` once it is gone: it is started again when next
    /// needed).
    driver: Option<Box<dyn Driver>>,
    name: String,
    /// The engine's own name (`id name`, `feature myname`), if it gave one.
    own_name: Option<String>,
    tracker: Tracker,
    failure: Option<GaveUp>,
    search: Option<Search>,
    /// The time the engine took in this game, as the bridge measured it
    /// (from each `respond` to the reply): the clocks' fallback when the
    /// referee sends only `cc`.
    thought_ms: u64,
    claim_draws: bool,
    /// The opening book the bridge plays from, if any.
    book: Option<Booked>,
    /// The engine's ponder hits and ponders since the bridge started.
    ponder: Tally,
}

/// An opening book for the bridge (`--book FILE --book-depth N`): while
/// the book has a move and the game is shorter than the depth, the bridge
/// plays the book's move itself and the engine is not asked.
#[derive(Debug, Clone)]
pub struct BookPlay {
    pub book: Arc<Book>,
    /// The file, for what the bridge says.
    pub file: String,
    /// The game's plies the book plays in: it plays no move at ply
    /// `depth` or later (`None`: until it has no move).
    pub depth: Option<usize>,
    /// The seed of the choice among the book's moves by weight.
    pub seed: u64,
}

/// A book in play: the choice's generator and the counts.
struct Booked {
    play: BookPlay,
    state: u64,
    /// Book moves played since the bridge started.
    played: u64,
    /// Book moves played in this game.
    in_game: u32,
    /// The game has left the book (it had no move, or the depth is
    /// reached): the engine plays the rest of it.
    out: bool,
}

/// Why the bridge gave its engine up: it failed again after its restart,
/// or could not be restarted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GaveUp {
    #[error("the restarted engine failed too: {0}")]
    FailedAgain(Fault),
    #[error("the engine could not be restarted: {0}")]
    NoRestart(Fault),
}

impl Bridge {
    /// Starts the engine. The sign-on name is `name` if given, else the
    /// engine's own, else the command's file name. An engine that started
    /// but failed its first handshake (one that hangs on a loaded machine)
    /// is started once more, as an engine that fails mid-game is restarted
    /// once; the first failure is logged. A program that cannot be started
    /// at all is not tried again.
    pub fn start(settings: EngineSettings, name: Option<&str>) -> Result<Bridge, Fault> {
        let driver = match start(&settings) {
            Ok(d) => d,
            Err(f) if f.kind() == FaultKind::NotStarted => return Err(f),
            Err(f) => {
                log::warn!("the engine did not start: {f}; starting it once more");
                eprintln!(
                    "client: the engine did not start ({}); starting it once more",
                    f.what
                );
                start(&settings)?
            }
        };
        let own = driver.name().map(str::to_owned);
        let fallback = std::path::Path::new(&settings.command.program)
            .file_name()
            .map_or_else(|| "engine".into(), |f| f.to_string_lossy().into_owned());
        let name = name.map(str::to_owned).or(own.clone()).unwrap_or(fallback);
        let name: String = strip_control(&name)
            .replace('"', "'")
            .trim()
            .chars()
            .take(NAME_LIMIT)
            .collect();
        Ok(Bridge {
            settings,
            driver: Some(driver),
            name,
            own_name: own.map(|n| strip_control(&n).trim().chars().take(NAME_LIMIT).collect()),
            tracker: Tracker::new(),
            failure: None,
            search: None,
            thought_ms: 0,
            claim_draws: true,
            book: None,
            ponder: Tally::default(),
        })
    }

    /// Why the engine cannot play `variant`, if it cannot (see
    /// [`Driver::refuses`]): for a player whose rules are known before its
    /// first game, refused at its start rather than at its first move.
    pub fn refuses(&self, variant: Variant) -> Option<Refusal> {
        self.driver.as_ref().and_then(|d| d.refuses(variant))
    }

    /// Plays the opening from `book` (see [`BookPlay`]).
    pub fn with_book(mut self, book: Option<BookPlay>) -> Bridge {
        self.book = book.map(|play| Booked {
            state: play.seed,
            play,
            played: 0,
            in_game: 0,
            out: false,
        });
        self
    }

    /// Whether the bridge claims threefold repetition and fifty moves for
    /// a UCI engine (on by default; see the module documentation).
    pub fn with_draw_claims(mut self, on: bool) -> Bridge {
        self.claim_draws = on;
        self
    }

    /// The name sent with `tcsi`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The engine's own name, as it gave it (`id name`, `feature myname`).
    pub fn own_name(&self) -> Option<&str> {
        self.own_name.as_deref()
    }

    /// The engine's ponder hits and ponders so far.
    pub fn ponder_tally(&self) -> Tally {
        self.ponder
    }

    /// The game as the bridge follows it.
    pub fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    /// Why the bridge cannot go on (the engine failed again after its
    /// restart), if so.
    pub fn failure(&self) -> Option<&GaveUp> {
        self.failure.as_ref()
    }

    /// The sign-on record: the position, `refreq sign_on;`, `tcsi`.
    pub fn sign_on(&self) -> String {
        self.tracker.sign_on_record(&self.name)
    }

    /// Where the engine's output arrives while it searches for the
    /// pending `respond` (`None` when it does not): when it is ready, or
    /// at [`Bridge::engine_due`], hand it to [`Bridge::engine_said`].
    pub fn engine_output(&mut self) -> Option<&Receiver<Heard>> {
        if !self.searching() {
            return None;
        }
        self.driver.as_mut().map(|d| d.output())
    }

    /// When the search counts as hung if the engine says nothing: look
    /// at it then ([`Bridge::engine_said`]) all the same.
    pub fn engine_due(&mut self) -> Option<Instant> {
        if !self.searching() {
            return None;
        }
        self.driver.as_mut().and_then(|d| d.deadline())
    }

    /// Whether the engine is searching for the pending `respond`.
    pub fn searching(&self) -> bool {
        self.search.as_ref().is_some_and(|s| s.job.is_some())
    }

    /// Handles one line from the referee and, if it asked for a move,
    /// waits for the engine's answer: the reply is among the actions.
    pub fn handle_line(&mut self, line: &str) -> Vec<Action> {
        let mut out = self.take_line(line);
        while self.searching() && self.failure.is_none() {
            let Some(due) = self.engine_due() else { break };
            if let Some(output) = self.engine_output().cloned() {
                let mut wait = crossbeam_channel::Select::new();
                wait.recv(&output);
                // Ready or not: `engine_said` takes what came, or finds
                // the search past its time.
                let _ = wait.ready_deadline(due);
            }
            out.extend(self.engine_said());
        }
        out
    }

    /// Handles one line from the referee without waiting for the engine:
    /// a `respond` starts a search, whose answer comes to
    /// [`Bridge::answers`].
    pub fn take_line(&mut self, line: &str) -> Vec<Action> {
        let received = Instant::now();
        let rec = match Record::parse(line) {
            Ok(r) => r,
            Err(e) => {
                return vec![Action::Log(format!(
                    "ignored a line that is not a record ({e})"
                ))];
            }
        };
        let event = match self.tracker.handle(&rec) {
            Ok(ev) => ev,
            Err(e) => return self.fault_report(format!("bad record from the referee: {e}")),
        };
        match event {
            Event::NewGame => {
                let mut out = self.stop_search("a new game");
                out.push(Action::Log("reset: new game".into()));
                self.thought_ms = 0;
                if let Some(b) = self.book.as_mut() {
                    b.in_game = 0;
                    b.out = false;
                }
                if let Err(f) = self.with_driver(|d| d.new_game()) {
                    out.extend(self.recover(f));
                }
                out
            }
            Event::Inform { result } => {
                let mut out = Vec::new();
                if let Some(r) = &result {
                    out.extend(self.stop_search("the game is over"));
                    if let Some(d) = self.driver.as_mut() {
                        d.stop_pondering();
                        d.game_over(r);
                    }
                }
                let tags = self
                    .tracker
                    .tags()
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(" ");
                out.push(Action::Log(format!("inform: {tags}")));
                out
            }
            Event::Executed => Vec::new(),
            Event::Respond { draw_offered } => self.respond(draw_offered, received),
            Event::Conclude => {
                let mut out = self.stop_search("the game is over");
                if let Some(d) = self.driver.as_mut() {
                    d.stop_pondering();
                }
                out.push(Action::Log("conclude: game over".into()));
                out
            }
            Event::RefereeFault => vec![Action::Log("the referee reported a fault".into())],
            Event::Disconnect => {
                self.stop_search("the session is over");
                if let Some(d) = self.driver.take() {
                    d.quit();
                }
                let mut out = Vec::new();
                if let Some(b) = &self.book {
                    out.push(Action::Log(format!(
                        "book {}: {} book move{} played",
                        b.play.file,
                        b.played,
                        if b.played == 1 { "" } else { "s" }
                    )));
                }
                if self.settings.ponder {
                    // An XBoard engine ponders by itself: whether it
                    // guessed right is not said.
                    let line = match self.settings.protocol {
                        Protocol::Uci => self.ponder.line(),
                        Protocol::Xboard => "ponder: the engine pondered (hard); an XBoard \
                                             engine does not say its hits"
                            .to_string(),
                    };
                    self.settings.log.line(Dir::Note, &line);
                    out.push(Action::Log(line));
                }
                out.push(Action::Disconnect);
                out
            }
        }
    }

    /// Stops the engine.
    pub fn shutdown(&mut self) {
        self.stop_search("the client stops");
        if let Some(d) = self.driver.take() {
            d.quit();
        }
    }

    fn with_driver<T>(
        &mut self,
        f: impl FnOnce(&mut dyn Driver) -> Result<T, Fault>,
    ) -> Result<T, Fault> {
        match self.driver.as_mut() {
            Some(d) => f(d.as_mut()),
            None => Err(Fault::bare(Trouble::NotRunning)),
        }
    }

    /// Stops the search in progress, if any, because of `why` (the game
    /// it was for is over): the engine is told to stop and its move,
    /// when it comes, is dropped. Waits for the engine (it answers a stop
    /// at once; [`super::process::STOP_WAIT`] at most, else it counts as failed and is
    /// restarted when next needed).
    fn stop_search(&mut self, why: &str) -> Vec<Action> {
        let Some(job) = self.search.take().and_then(|s| s.job) else {
            return Vec::new();
        };
        let Some(stopped) = self.driver.as_mut().and_then(|d| d.stop(&job.job())) else {
            return Vec::new();
        };
        let what = match stopped {
            Ok(_) => "its move dropped".to_string(),
            Err(f) => format!("it then failed: {f}"),
        };
        let note = format!("{why} while the engine thought: search stopped, {what}");
        self.settings.log.line(Dir::Note, &note);
        vec![Action::Log(note)]
    }

    /// A `respond`: a draw to claim for the engine at once, else a search.
    fn respond(&mut self, draw_offered: bool, received: Instant) -> Vec<Action> {
        let Some(g) = self.tracker.game() else {
            return self.fault_report("respond without a game".into());
        };
        let (ply, position) = (g.ply(), g.position().clone());
        if self
            .search
            .as_ref()
            .is_some_and(|s| s.ply == ply && s.position == position)
        {
            return vec![Action::Log(
                "the same respond again while the engine thinks: its move answers it".into(),
            )];
        }
        let claim = due(g.claimable_draw());
        let mut out = self.stop_search("another respond");
        if self.claims()
            && let Some(c) = claim
        {
            out.push(Action::Log(format!(
                "claiming a draw for the engine ({c}) before it moves"
            )));
            let mut rec = self.tracker.reply_record();
            rec.set(Operation::new("draw_claim"));
            out.push(Action::Reply(rec.to_canonical()));
            return out;
        }
        let (book_move, note) = self.book_move(ply, &position);
        out.extend(note.map(Action::Log));
        if let Some(m) = book_move {
            out.extend(self.reply(Answer {
                mv: Some(m),
                book: true,
                ..Answer::default()
            }));
            return out;
        }
        let limit = time::limit(&self.tracker, self.settings.limits, self.thought_ms);
        self.search = Some(Search {
            ply,
            position,
            asked_at: received,
            draw_offered,
            limit,
            retried: false,
            job: None,
        });
        out.extend(self.launch());
        out
    }

    /// The book's move at `ply` in `position`, if the game is still in
    /// the book; and a note when the game leaves it. The engine is not
    /// asked for a book move: it gets the whole game before its next
    /// search, as after any move.
    fn book_move(&mut self, ply: usize, position: &Chess) -> (Option<Move>, Option<String>) {
        let Some(b) = self.book.as_mut().filter(|b| !b.out) else {
            return (None, None);
        };
        let why = if let Some(d) = b.play.depth.filter(|d| ply >= *d) {
            format!("the book depth, {d} plies, is reached")
        } else if let Some(m) = b.play.book.pick(position, &mut b.state) {
            b.played += 1;
            b.in_game += 1;
            let note = format!(
                "book move {} at ply {ply}",
                super::notation::to_uci(&m, Variant::of(position))
            );
            self.settings.log.line(Dir::Note, &note);
            return (Some(m), None);
        } else {
            format!("the book has no move at ply {ply}")
        };
        b.out = true;
        let note = format!(
            "out of book after {} book move{} this game: {why}; the engine plays on",
            b.in_game,
            if b.in_game == 1 { "" } else { "s" }
        );
        self.settings.log.line(Dir::Note, &note);
        (None, Some(note))
    }

    /// Gives the pending search to the engine: the game and its `go`
    /// (its answer comes to [`Bridge::engine_said`]).
    fn launch(&mut self) -> Vec<Action> {
        let Some(g) = self.tracker.game() else {
            self.search = None;
            return Vec::new();
        };
        let Some(search) = self.search.as_mut() else {
            return Vec::new();
        };
        let me = g.position().turn();
        let limit = search.limit;
        // The wait runs from now: on a clock the time spent already (a
        // restart) is off it, as it is off the clock the engine is told
        // (`limit_now`); a fixed search gets its whole time again.
        let wait = time::wait_bound(&limit, me, self.settings.margin, self.settings.depth_wait);
        let wait = match limit {
            Limit::Clock(..) => wait.saturating_sub(search.asked_at.elapsed()),
            Limit::Fixed(_) => wait,
        };
        let job = search.job.insert(OwnedJob {
            start: g.start().clone(),
            moves: g.moves().to_vec(),
            position: g.position().clone(),
            time_control: self.tracker.time_control_of(me).clone(),
            limit,
            asked_at: search.asked_at,
            wait,
            draw_offered: search.draw_offered,
        });
        let began = match self.driver.as_mut() {
            Some(d) => d.begin(&job.job()),
            None => Err(Fault::bare(Trouble::NotRunning)),
        };
        match began {
            Ok(None) => Vec::new(),
            Ok(Some(answer)) => self.searched(Ok(answer)),
            Err(f) => self.searched(Err(f)),
        }
    }

    /// Takes what the engine said while it searches (see
    /// [`Bridge::engine_output`]): the reply once its answer is in; a
    /// fault restarts the engine and asks again, once.
    pub fn engine_said(&mut self) -> Vec<Action> {
        let Some(job) = self.search.as_ref().and_then(|s| s.job.as_ref()) else {
            return Vec::new();
        };
        match self.driver.as_mut().and_then(|d| d.poll(&job.job())) {
            Some(result) => self.searched(result),
            None => Vec::new(),
        }
    }

    /// The engine's answer to the pending search: the reply; a fault
    /// restarts the engine and asks again, once.
    fn searched(&mut self, result: Result<Answer, Fault>) -> Vec<Action> {
        match result {
            Ok(answer) => {
                if let Some(search) = self.search.take() {
                    let took = search.asked_at.elapsed().as_millis() as u64;
                    self.thought_ms = self.thought_ms.saturating_add(took);
                }
                self.reply(answer)
            }
            Err(f) => self.failed(f),
        }
    }

    /// The search failed with `f`: the engine is restarted and asked
    /// again, once; a second failure gives up.
    fn failed(&mut self, f: Fault) -> Vec<Action> {
        let retried = self.search.as_ref().is_none_or(|s| s.retried);
        if retried {
            let why = GaveUp::FailedAgain(f);
            self.search = None;
            let said = why.to_string();
            self.give_up(why);
            return vec![Action::Log(said)];
        }
        let mut out = self.recover(f);
        if self.failure.is_some() {
            self.search = None;
            return out;
        }
        if let Some(s) = self.search.as_mut() {
            s.retried = true;
        }
        out.extend(self.launch());
        out
    }

    /// Whether the bridge claims draws for its engine.
    fn claims(&self) -> bool {
        self.claim_draws && self.settings.protocol == Protocol::Uci
    }

    /// Reports the fault, logs it and restarts the engine (once).
    fn recover(&mut self, f: Fault) -> Vec<Action> {
        let mut out = self.fault_report(format!("engine fault: {f}"));
        self.settings.log.line(
            Dir::Note,
            &format!("engine fault: {}; restarting it", f.what),
        );
        if let Some(d) = self.driver.take() {
            drop(d); // kills the process
        }
        match start(&self.settings).and_then(|mut d| d.new_game().map(|()| d)) {
            Ok(d) => {
                out.push(Action::Log("engine restarted".into()));
                self.driver = Some(d);
            }
            Err(e) => {
                let why = GaveUp::NoRestart(e);
                out.push(Action::Log(why.to_string()));
                self.give_up(why);
            }
        }
        out
    }

    fn give_up(&mut self, why: GaveUp) {
        self.settings.log.line(Dir::Note, &why.to_string());
        self.failure = Some(why);
    }

    /// `refreq fault;` with the current position, and a log line.
    fn fault_report(&self, why: String) -> Vec<Action> {
        vec![Action::Log(why), Action::Send(self.tracker.fault_record())]
    }

    fn reply(&mut self, mut a: Answer) -> Vec<Action> {
        let mut rec = self.tracker.reply_record();
        let mut out = Vec::new();
        if a.resign {
            rec.set(Operation::new("resign"));
            out.push(Action::Log("the engine resigns".into()));
            out.push(Action::Reply(rec.to_canonical()));
            return out;
        }
        if let Some(m) = a.mv {
            if self.claims()
                && !a.claim_draw
                && let Some(c) = self
                    .tracker
                    .game()
                    .and_then(|g| due(g.claimable_draw_after(&m)))
            {
                out.push(Action::Log(format!(
                    "claiming a draw for the engine ({c}) with its move"
                )));
                a.claim_draw = true;
            }
            add_thinking(&mut rec, a.thinking.as_ref());
            if a.book {
                rec.set(Operation::new(crate::epd::BOOK_MOVE));
            }
            if let Some(t) = a.searched {
                rec.set(Operation::new(crate::epd::SEARCH_TIME).token(search_ms(t).to_string()));
            }
            if let Some(hit) = a.ponder_hit {
                self.ponder.count(hit);
                let word = if hit { "hit" } else { "miss" };
                rec.set(Operation::new(crate::epd::PONDER).token(word));
            }
            match self.tracker.play_own(m) {
                Ok(san) => rec.set(Operation::sm(&san)),
                Err(e) => {
                    // The drivers check legality; this cannot happen.
                    return self.fault_report(format!("the engine's move was refused: {e}"));
                }
            };
        }
        if a.accept_draw {
            rec.set(Operation::new("draw_accept"));
        } else if a.offer_draw {
            rec.set(Operation::new("draw_offer"));
        }
        if a.claim_draw {
            rec.set(Operation::new("draw_claim"));
        }
        out.push(Action::Reply(rec.to_canonical()));
        out
    }
}

/// A search's time as `Asearch` gives it: whole milliseconds rounded up
/// (the referee charges at least this), at most the spec's integer range.
fn search_ms(t: Duration) -> u32 {
    let ms = t.as_micros().div_ceil(1_000);
    u32::try_from(ms).map_or(i32::MAX.unsigned_abs(), |ms| {
        ms.min(i32::MAX.unsigned_abs())
    })
}

/// The draws the bridge claims for its engine: threefold repetition and
/// fifty moves (a position without mating material has ended by itself).
fn due(claim: Option<DrawClaim>) -> Option<DrawClaim> {
    claim.filter(|c| matches!(c, DrawClaim::ThreefoldRepetition | DrawClaim::FiftyMoves))
}

/// `ce`, `pv`, `acd` and `acn` from the engine's last report before its
/// move (issue 17: a reply may carry the analysis, as pfga output does;
/// issue 34: the audience's page shows the nodes and the speed), and the
/// private `Aseldepth` and `Anps` (UCI `seldepth`, `nps`) for the PGN's
/// `sd=` and `nps=`. A count past what EPD readers take (`acn`'s
/// non-negative `i32`) is left out.
fn add_thinking(rec: &mut Record, thinking: Option<&Analysis>) {
    let Some(t) = thinking else { return };
    if let Some(score) = t.score {
        rec.set(Operation::new("ce").token(score.ce().to_string()));
    }
    if !t.pv.is_empty() {
        rec.set(pv_operation(&t.pv));
    }
    if let Some(d) = t.depth {
        rec.set(Operation::new("acd").token(d.to_string()));
    }
    if let Some(n) = t.nodes.filter(|&n| i32::try_from(n).is_ok()) {
        rec.set(Operation::new("acn").token(n.to_string()));
    }
    if let Some(d) = t.seldepth {
        rec.set(Operation::new(crate::epd::SELDEPTH).token(d.to_string()));
    }
    if let Some(n) = t.nps.filter(|&n| i32::try_from(n).is_ok()) {
        rec.set(Operation::new(crate::epd::NPS).token(n.to_string()));
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        self.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_time_is_sent_in_whole_milliseconds_rounded_up() {
        assert_eq!(search_ms(Duration::ZERO), 0);
        assert_eq!(search_ms(Duration::from_micros(1)), 1);
        assert_eq!(search_ms(Duration::from_micros(37_000)), 37);
        assert_eq!(search_ms(Duration::from_micros(37_001)), 38);
        assert_eq!(
            search_ms(Duration::from_secs(1 << 40)),
            i32::MAX.unsigned_abs()
        );
    }
}
