//! `argus watch DIR/tournament.journal`: follow a tournament, read-only.
//! The tournament journal is followed as it grows and replayed into a
//! tournament core of our own; so is the journal of every game in progress
//! (`DIR/game-NNN/journal.log`), into a referee core each. Headless, each
//! move (as the match's watcher prints it, by the game's number in the
//! tournament), each result and the standings after each round are
//! printed (the words the referee prints); otherwise the board view shows the overview, and any
//! board full size, as an observer (no supervisor keys).
//!
//! A tournament's feed (`tcp://HOST:PORT` of `argus tournament --feed`) is
//! followed the same way: its lines are written into a copy directory with
//! the tournament's layout ([`crate::app::tournament::copy`]), and the copy
//! is followed as above.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, never, unbounded};

use crate::app::audience::Audience;
use crate::app::options::View;
use crate::app::options::WebOptions;
use crate::app::signals;
use crate::app::tail::{SourceReport, follow_file};
use crate::app::tournament::board;
use crate::app::tournament::copy::{self, CopyDir, FeedReport};
use crate::app::tournament::layout::game_journal;
use crate::app::tournament::screen::{Ask, OnBoard, Screen};
use crate::app::turn::{Wake, select_event};
use crate::app::{Completion, Exit, Failure};
use crate::display::{LinkState, LinkView, Role};
use crate::journal::MatchFollower;
use crate::journal::follow::Followed;
use crate::journal::kind::Kind;
use crate::record::durable::append_pgn;
use crate::referee::{ClientId, Event, GameOver, Output};
use crate::tournament::journal::{self as tjournal, Line, TournamentFollower};
use crate::tournament::{BoardId, Input, ScheduledGame, Tournament, report, words};

/// How often the view is redrawn and the games' journals looked at.
const TICK: Duration = Duration::from_millis(100);
/// Once the tournament is over, how long to wait for its feed to close
/// (after the last lines of the games' journals).
const FEED_END: Duration = Duration::from_secs(20);
/// Once the tournament is over, how long to wait for the last lines of the
/// games still followed.
const LAST_LINES: Duration = Duration::from_secs(2);

/// A game in progress, followed from its journal.
struct GameFollow {
    /// The journal followed (the game's attempt then being played).
    path: std::path::PathBuf,
    board: BoardId,
    game: ScheduledGame,
    lines: Receiver<SourceReport>,
    follower: MatchFollower,
    /// The game's end, seen in its journal, until the web page has it.
    ended: Vec<GameOver>,
    /// Its moves seen in its journal, in words, until they are printed.
    moves: Vec<String>,
}

impl GameFollow {
    /// Replays the lines its journal got since the last look.
    fn drain(&mut self) {
        while let Ok(report) = self.lines.try_recv() {
            let SourceReport::Line(line) = report else {
                continue;
            };
            match self.follower.push(&line) {
                Ok(Followed::Applied(outs)) => {
                    for o in outs {
                        self.output(o);
                    }
                }
                Ok(_) => {}
                Err(e) => log::warn!("game {}: {e}", self.game.number),
            }
        }
    }

    /// An output of the game's replayed core: a move, in the words the
    /// match's watcher prints it, by the game's number in the tournament
    /// (the board's core plays it as its game 1); the game's end.
    fn output(&mut self, o: Output) {
        match o {
            Output::Event(e @ Event::MoveMade { .. }) => {
                self.moves.extend(move_line(self.game.number, &e));
            }
            Output::Event(Event::GameOver(g)) => self.ended.push(g),
            _ => {}
        }
    }

    /// Whether the game's journal has reached the game's end.
    fn over(&self) -> bool {
        self.follower.replay().is_some_and(|r| r.core().is_over())
    }
}

/// A move of the tournament's game `game` in the words the match's
/// watcher prints it (the board's core plays the game as its game 1).
fn move_line(game: u32, e: &Event) -> Option<String> {
    let Event::MoveMade {
        ply,
        number,
        color,
        san,
        charged_ms,
        ..
    } = e
    else {
        return None;
    };
    crate::referee::words::watch_line(&Event::MoveMade {
        game,
        ply: *ply,
        number: *number,
        color: *color,
        san: san.clone(),
        charged_ms: *charged_ms,
    })
}

/// The tournament core the journal followed has rebuilt so far.
fn core_of(follower: &TournamentFollower) -> Option<&Tournament> {
    follower.replay().map(|r| &r.tournament)
}

/// The watching side.
struct Watch {
    dir: PathBuf,
    /// The tournament's journal, followed into its core.
    tournament: TournamentFollower,
    games: BTreeMap<u32, GameFollow>,
    screen: Option<Screen>,
    /// The audience's web page (`--http`), served from the watcher.
    audience: Option<Audience>,
    /// The journals come from a feed (whose reports are [`Heard::Feed`]).
    fed: bool,
    /// The feed closed since it last connected: the copy holds it all.
    feed_closed: bool,
    /// Games the tournament journal says were decided, whose PGN the web
    /// page may not have yet (it is read from their journals).
    decided: Vec<u32>,
    /// Games whose moves were printed (as their journals were followed,
    /// or at their end).
    followed: std::collections::BTreeSet<u32>,
    /// `--pgn`: every game decided while watching is appended to it.
    pgn: Option<KeptPgn>,
}

/// The watcher's `--pgn`: each game the tournament decides while it
/// watches, appended once, from the game's journal.
struct KeptPgn {
    path: PathBuf,
    /// Games decided before the watch began (not appended) or appended.
    done: std::collections::BTreeSet<u32>,
    /// Games decided whose journal (a feed's copy) has not reached their
    /// end yet: appended once it has.
    pending: std::collections::BTreeSet<u32>,
}

impl KeptPgn {
    /// `--pgn FILE` for the journal `journal`: the games it already has
    /// decided are not the watch's to append.
    fn new(path: &Path, journal: &Path) -> KeptPgn {
        let done = tjournal::load(journal)
            .map(|l| l.tournament.decided().collect())
            .unwrap_or_default();
        KeptPgn {
            path: path.to_path_buf(),
            done,
            pending: Default::default(),
        }
    }

    /// Appends the games whose journals have reached their end since.
    fn retry(&mut self, dir: &Path) {
        for game in std::mem::take(&mut self.pending) {
            self.done.remove(&game);
            self.append(dir, game);
        }
    }

    /// Appends game `game`, read from its journal under `dir`, once.
    fn append(&mut self, dir: &Path, game: u32) {
        if !self.done.insert(game) {
            return;
        }
        let path = &self.path;
        match board::ended_pgn(dir, game) {
            Ok(Some(pgn)) => {
                if let Err(e) = append_pgn(path, &pgn) {
                    log::warn!("cannot append game {game} to {}: {e}", path.display());
                    eprintln!(
                        "argus watch: cannot append game {game} to {}: {e}",
                        path.display()
                    );
                }
            }
            // Its journal has not reached its end yet: later.
            Ok(None) if game_journal(dir, game).is_file() => {
                self.pending.insert(game);
            }
            // A forfeit: no game was played.
            Ok(None) => {}
            Err(e) => {
                log::warn!("game {game}: {e}; not appended to {}", path.display());
                eprintln!(
                    "argus watch: game {game}: {e}; not appended to {}",
                    path.display()
                );
            }
        }
    }
}

/// The boards followed whose game's journal has begun, as the board view
/// shows them: at the time of their last input, their links as the journal
/// knows them.
fn on_boards(games: &BTreeMap<u32, GameFollow>) -> Vec<OnBoard<'_>> {
    games
        .values()
        .filter_map(|g| {
            let r = g.follower.replay()?;
            let core = r.core();
            let clients = core.snapshot(r.last_at()).clients;
            let links = ClientId::BOTH.map(|id| LinkView {
                port: clients[id].port.clone(),
                settings: "watching its journal".into(),
                state: LinkState::up_or_lost(clients[id].link_up),
                bytes_in: 0,
                bytes_out: 0,
            });
            Some(OnBoard {
                board: g.board,
                game: &g.game,
                core,
                at: r.last_at(),
                links,
            })
        })
        .collect()
}

/// Follows the tournament whose journal is `journal` until it is over (or
/// the watcher quits).
pub fn run(journal: &Path, view: View, web: &WebOptions, pgn: Option<&Path>) -> Exit {
    watch(journal, view, web, pgn, unbounded(), false)
}

/// Follows the tournament whose feed is at `addr` until it is over (or the
/// watcher quits), into the copy directory `copy` (a temporary one, removed
/// at the end, without it).
pub fn run_feed(
    addr: &str,
    copy: Option<&Path>,
    view: View,
    web: &WebOptions,
    pgn: Option<&Path>,
) -> Exit {
    let (dir, temporary) = match copy {
        Some(d) => (d.to_path_buf(), false),
        None => {
            let stamp = crate::app::wall::unix_ms_now();
            let d =
                std::env::temp_dir().join(format!("argus-watch-{}-{stamp}", std::process::id()));
            std::fs::create_dir(&d).map_err(|e| {
                Failure::failed(format!("cannot make a copy directory {}: {e}", d.display()))
            })?;
            (d, true)
        }
    };
    let outcome = follow_feed(addr, &dir, view, web, pgn);
    if temporary && let Err(e) = std::fs::remove_dir_all(&dir) {
        log::warn!("cannot remove the copy {}: {e}", dir.display());
    }
    outcome
}

fn follow_feed(addr: &str, dir: &Path, view: View, web: &WebOptions, pgn: Option<&Path>) -> Exit {
    let copy = CopyDir::open(dir, crate::app::tournament::JOURNAL).map_err(Failure::usage)?;
    let (tx, rx) = unbounded();
    let addr = addr.to_string();
    let feed_tx = tx.clone();
    thread::Builder::new()
        .name("watch feed".into())
        .spawn(move || copy::follow(&addr, copy, &feed_tx))
        .map_err(|e| Failure::failed(format!("cannot start: {e}")))?;
    watch(
        &dir.join(crate::app::tournament::JOURNAL),
        view,
        web,
        pgn,
        (tx, rx),
        true,
    )
}

/// What the watcher's source threads send: the tournament journal's
/// lines and, when the journals come from a feed, the feed's reports.
enum Heard {
    Journal(SourceReport),
    Feed(FeedReport),
}

impl From<SourceReport> for Heard {
    fn from(r: SourceReport) -> Heard {
        Heard::Journal(r)
    }
}

impl From<FeedReport> for Heard {
    fn from(r: FeedReport) -> Heard {
        Heard::Feed(r)
    }
}

/// Follows the tournament journal `journal`: its follower sends on
/// `heard`, as does the feed's reader if the journals come from one
/// (`fed`).
fn watch(
    journal: &Path,
    view: View,
    web: &WebOptions,
    pgn: Option<&Path>,
    (tx, heard): (Sender<Heard>, Receiver<Heard>),
    fed: bool,
) -> Exit {
    let ctrl_c = signals::stop_requests("argus watch");
    std::fs::File::open(journal).map_err(|e| {
        Failure::usage(format!(
            "cannot open the journal {}: {e}",
            journal.display()
        ))
    })?;
    follow(journal, Kind::Tournament, tx)?;
    let audience = Audience::start(web).map_err(Failure::usage)?;
    let mut w = Watch {
        dir: journal.parent().map(Path::to_path_buf).unwrap_or_default(),
        tournament: TournamentFollower::new(),
        games: BTreeMap::new(),
        screen: None,
        audience,
        fed,
        feed_closed: false,
        decided: Vec::new(),
        followed: Default::default(),
        pgn: pgn.map(|p| KeptPgn::new(p, journal)),
    };
    if let View::Board { ascii } = view {
        w.screen = Some(Screen::open(ascii, Role::Observer)?);
    }
    let outcome = w.run(&heard, &ctrl_c);
    let screen = w.screen.take();
    let on_board = screen.is_some();
    if let Some(s) = screen {
        s.close();
    }
    let ending = outcome?;
    if core_of(&w.tournament).is_some_and(Tournament::is_over) {
        w.await_feed_end(&heard);
    }
    let over = core_of(&w.tournament).is_some_and(Tournament::is_over);
    if let (Completion::Normal, Some(core), false) =
        (&ending, core_of(&w.tournament), crate::app::stdout::gone())
    {
        match core.settings().form {
            crate::tournament::Form::Tournament => {
                crate::app::stdout::line(&report::text(core));
            }
            // A match's end is its last line (`match over: ...`), as its
            // referee says it: no report. Headless it was printed as it
            // was followed; after the board view, as the referee's board
            // view says it once the board is gone.
            crate::tournament::Form::Match if on_board && over => {
                crate::app::stdout::line(&words::match_farewell(core));
            }
            crate::tournament::Form::Match => {}
        }
    }
    if let (true, Some(a)) = (over, w.audience.take()) {
        a.linger(&ctrl_c);
    }
    Ok(ending)
}

/// A thread following the journal at `path`, sending its lines on `tx`.
fn follow<T: From<SourceReport> + Send + 'static>(
    path: &Path,
    kind: Kind,
    tx: Sender<T>,
) -> Result<(), Failure> {
    let path = path.to_path_buf();
    thread::Builder::new()
        .name("watch journal".into())
        .spawn(move || follow_file(&path, kind, &tx))
        .map_err(|e| Failure::failed(format!("cannot start: {e}")))?;
    Ok(())
}

impl Watch {
    fn run(
        &mut self,
        heard: &Receiver<Heard>,
        ctrl_c: &Receiver<crate::app::signals::Stop>,
    ) -> Result<Completion, Failure> {
        let mut keys = self.screen.as_ref().map_or_else(never, |s| s.keys.clone());
        let mut last_draw: Option<Instant> = None;
        loop {
            if last_draw.is_none_or(|t| t.elapsed() >= TICK) {
                self.follow_games();
                self.draw()?;
                self.publish();
                last_draw = Some(Instant::now());
            }
            if core_of(&self.tournament).is_some_and(Tournament::is_over) {
                self.drain_last_games();
                return Ok(Completion::Normal);
            }
            if crate::app::stdout::gone() {
                return Ok(Completion::Normal);
            }
            match select_event(heard, &keys, ctrl_c, Some(TICK)) {
                Wake::Source(Some(Heard::Journal(r))) => match r {
                    SourceReport::Line(l) => self.line(&l)?,
                    SourceReport::Failed(e) => return Err(Failure::failed(e)),
                    SourceReport::Shrunk(_) | SourceReport::Status(_) | SourceReport::Idle => {}
                },
                Wake::Source(Some(Heard::Feed(report))) => self.feed_report(report)?,
                Wake::Source(None) => {
                    return Err(Failure::failed(
                        "the journal's and the feed's readers stopped",
                    ));
                }
                Wake::Key(ev) => {
                    if self.key(ev) {
                        return Ok(Completion::Normal);
                    }
                    last_draw = None;
                }
                Wake::KeysGone => keys = never(),
                Wake::Stop(_) => return Ok(Completion::Normal),
                Wake::Timer => {}
            }
        }
    }

    /// One line of the tournament journal.
    fn line(&mut self, line: &[u8]) -> Result<(), Failure> {
        let failed = |e| Failure::failed(format!("the tournament journal: {e}"));
        let decoded = self.tournament.decode(line).map_err(failed)?;
        let finished = match &decoded {
            tjournal::Decoded::Entry(Line::Input {
                input: Input::GameFinished { game, .. },
                ..
            }) => Some(*game),
            _ => None,
        };
        if let Some(game) = finished {
            self.print_unfollowed(game);
        }
        let said: Vec<String> = match self.tournament.take(decoded).map_err(failed)? {
            Followed::Started => {
                let (Some(h), Some(t)) = (self.tournament.header(), core_of(&self.tournament))
                else {
                    return Ok(());
                };
                let what = match t.settings().form {
                    crate::tournament::Form::Tournament => format!(
                        "{} players, {}",
                        h.settings.names.len(),
                        crate::tournament::words::extent(t)
                    ),
                    crate::tournament::Form::Match if t.schedule().is_endless() => {
                        "a match with no end (until it is stopped)".to_string()
                    }
                    crate::tournament::Form::Match => {
                        let n = t.schedule().games().len();
                        format!("a match of {n} game{}", if n == 1 { "" } else { "s" })
                    }
                };
                vec![format!("watching {}: {what}", h.settings.event)]
            }
            Followed::Applied(outs) => {
                let Some(core) = core_of(&self.tournament) else {
                    return Ok(());
                };
                // (A game without a result is played again: not decided.)
                if let Some(game) = finished
                    && core.game_state(game).is_some_and(|s| s.is_decided())
                {
                    if self.audience.is_some() {
                        self.decided.push(game);
                    }
                    if let Some(kept) = self.pgn.as_mut() {
                        kept.append(&self.dir, game);
                    }
                }
                outs.iter().filter_map(|o| words::said(core, o)).collect()
            }
            Followed::Held | Followed::HeaderLine => Vec::new(),
        };
        for s in said {
            self.say(&s);
        }
        Ok(())
    }

    /// A report of the feed's reader.
    fn feed_report(&mut self, report: FeedReport) -> Result<(), Failure> {
        let said = match report {
            FeedReport::Failed(e) => return Err(Failure::failed(e)),
            FeedReport::Closed(s) => {
                self.feed_closed = true;
                s
            }
            FeedReport::Status(s) => {
                self.feed_closed = false;
                s
            }
        };
        log::info!("{said}");
        match self.screen.as_mut() {
            Some(screen) => screen.note(&said),
            None => eprintln!("argus watch: {said}"),
        }
        Ok(())
    }

    /// Waits (at most [`FEED_END`]) for the feed to close, so that the copy
    /// holds the games' last lines, written after the tournament's.
    fn await_feed_end(&mut self, heard: &Receiver<Heard>) {
        if !self.fed {
            return;
        }
        let until = Instant::now() + FEED_END;
        while !self.feed_closed {
            let Some(left) = until.checked_duration_since(Instant::now()) else {
                log::warn!("the feed did not close within {FEED_END:?} of the tournament's end");
                return;
            };
            // The tournament is over: its journal's last lines are read.
            match heard.recv_timeout(left) {
                Ok(Heard::Feed(FeedReport::Closed(_))) => self.feed_closed = true,
                Ok(Heard::Feed(FeedReport::Failed(e))) => {
                    log::warn!("{e}");
                    return;
                }
                Ok(Heard::Feed(FeedReport::Status(_)) | Heard::Journal(_)) => {}
                Err(_) => return,
            }
        }
    }

    fn say(&mut self, text: &str) {
        match self.screen.as_mut() {
            Some(s) => s.note(text),
            None => crate::app::stdout::line(text),
        }
    }

    /// Starts following the journal of every game in progress whose
    /// journal is there, stops following the others, and replays what
    /// they got.
    fn follow_games(&mut self) {
        // What the games no longer played got since the last look first.
        self.drain_games();
        let Some(core) = core_of(&self.tournament) else {
            return;
        };
        let playing = core.held();
        let dir = &self.dir;
        // A game played again is followed in its new attempt's journal.
        self.games.retain(|n, f| {
            playing.iter().any(|(_, g)| g.number == *n) && f.path == game_journal(dir, *n)
        });
        for (board, game) in playing {
            if self.games.contains_key(&game.number) {
                continue;
            }
            let path = game_journal(&self.dir, game.number);
            if !path.is_file() {
                continue;
            }
            let (tx, lines) = unbounded();
            if follow(&path, Kind::Match, tx).is_ok() {
                let f = GameFollow {
                    path: path.clone(),
                    board,
                    game,
                    lines,
                    follower: MatchFollower::new(),
                    ended: Vec::new(),
                    moves: Vec::new(),
                };
                self.games.insert(game.number, f);
                self.followed.insert(game.number);
            }
        }
        self.drain_games();
        self.serve_decided();
        if let Some(kept) = self.pgn.as_mut() {
            kept.retry(&self.dir);
        }
    }

    /// Replays what the games' journals got since the last look: each move
    /// printed (headless), each game's end to the web page.
    fn drain_games(&mut self) {
        let mut said = Vec::new();
        for g in self.games.values_mut() {
            g.drain();
            said.append(&mut g.moves);
            for over in g.ended.drain(..) {
                if let Some(a) = self.audience.as_mut() {
                    a.game_over_as(g.game.number, &over);
                }
            }
        }
        if self.screen.is_none() {
            for s in said {
                self.say(&s);
            }
        }
    }

    /// Headless, the moves of game `game`, which ended without its journal
    /// being followed (it ended before the watch began, or between two
    /// looks), read from its journal at once.
    fn print_unfollowed(&mut self, game: u32) {
        if self.screen.is_some() || self.followed.contains(&game) {
            return;
        }
        self.followed.insert(game);
        let path = game_journal(&self.dir, game);
        let mut said = Vec::new();
        let loaded = crate::journal::load_seeing(&path, &mut |e| said.extend(move_line(game, e)));
        if let Err(e) = loaded {
            log::warn!("game {game}: {e}");
        }
        for s in said {
            self.say(&s);
        }
    }

    /// Once the tournament is over: the last lines of the games followed,
    /// until each has its end (or [`LAST_LINES`] has passed), so that
    /// their last moves are printed too.
    fn drain_last_games(&mut self) {
        let until = Instant::now() + LAST_LINES;
        loop {
            self.drain_games();
            if let Some(kept) = self.pgn.as_mut() {
                kept.retry(&self.dir);
            }
            let pending = self.pgn.as_ref().is_some_and(|k| !k.pending.is_empty());
            if (self.games.values().all(GameFollow::over) && !pending) || Instant::now() >= until {
                return;
            }
            thread::sleep(TICK);
        }
    }

    /// Gives the web page the PGN of each game decided that it does not
    /// have from following the game (one that ended before the watch
    /// began, or between two looks), from the game's journal.
    fn serve_decided(&mut self) {
        let Some(a) = self.audience.as_mut() else {
            return;
        };
        let missing: Vec<u32> = self
            .decided
            .drain(..)
            .filter(|n| !a.has_ended(*n))
            .collect();
        if !missing.is_empty() {
            a.ended_before(board::ended_games(&self.dir, &missing));
        }
    }

    /// The overview, or the focused board.
    fn draw(&mut self) -> Result<(), Failure> {
        let (Some(core), Some(screen)) = (core_of(&self.tournament), self.screen.as_mut()) else {
            return Ok(());
        };
        let boards = on_boards(&self.games);
        let title = format!("watching {}", core.settings().event);
        screen.draw(core, &title, &boards, None)
    }

    /// Publishes the boards followed and the standings to the web page.
    fn publish(&mut self) {
        let (Some(core), Some(audience)) = (core_of(&self.tournament), self.audience.as_mut())
        else {
            return;
        };
        let boards: Vec<(u32, u32, &crate::referee::Referee)> = self
            .games
            .values()
            .filter_map(|g| Some((g.board.0, g.game.number, g.follower.replay()?.core())))
            .collect();
        let at = self
            .games
            .values()
            .filter_map(|g| Some(g.follower.replay()?.last_at()))
            .max()
            .unwrap_or(0);
        audience.publish_tournament(core, &boards, Vec::new(), at);
    }

    /// A key; whether it asks to stop watching.
    fn key(&mut self, ev: crate::display::InputEvent) -> bool {
        let boards = on_boards(&self.games);
        let (Some(core), Some(screen)) = (core_of(&self.tournament), self.screen.as_mut()) else {
            return false;
        };
        matches!(screen.key(ev, core, &boards), Ask::Stop)
    }
}
