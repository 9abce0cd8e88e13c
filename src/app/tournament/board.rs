//! One board of a tournament at the edge: a referee core playing one
//! scheduled game between two players, with the game's own journal and
//! transcript (`DIR/game-NNN/`), its records going out through the
//! players' links. The core is the match referee's, unchanged: a one-game
//! match whose clients are the two players, White as client A, that
//! concludes without disconnecting them (they stay for their next game).

use crate::app::writers::GameFiles;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crossbeam_channel::Sender;
use shakmaty::ByColor;

use crate::app::audience::Ended;
use crate::app::syzygy::Syzygy;
use crate::app::tournament::layout::{GameDirs, Layout, game_journal};
use crate::app::tournament::players::{Carrier, Field, PerInstance};
use crate::app::turn::{Decided, Edges, PortBook, Staged, Wires, decide, deliver, link_input};
use crate::app::wall::wall_clock_now;
use crate::app::writers::{OpenError, RelayTiming, Writers};
use crate::clock::LineSettings;
use crate::display::LinkView;
use crate::epd::sign_on::SignOn;
use crate::journal::follow::LoadError;
use crate::journal::{Entry, Header, JournalWriter, OutputSettings, new_session_id};
use crate::link::{Link, LinkEvent, LinkEventKind, PortSettings, SendError};
use crate::record::pgn::PgnGame;
use crate::referee::{ByClient, ClientId, Event, GameOver, Input, Referee, Settings, WallClock};
use crate::tournament::stats::GameTally;
use crate::tournament::{BoardId, Form, Instance, ScheduledGame, SideStats};
use crate::web::hub::GAMES_KEPT;

/// The PGN of game `number` as its journal under `root` (the event
/// journal's directory) ended it (the last end, if it was played again);
/// `None` when it has no journal or the journal holds no end (a game
/// forfeited was played on no board).
pub fn ended_pgn(root: &Path, number: u32) -> Result<Option<Arc<PgnGame>>, LoadError> {
    let path = game_journal(root, number);
    if !path.is_file() {
        return Ok(None);
    }
    let mut last = None;
    crate::journal::load_seeing(&path, &mut |e| {
        if let Event::GameOver(g) = e {
            last = Some(g.pgn.clone());
        }
    })?;
    Ok(last)
}

/// Games `numbers` (the last [`GAMES_KEPT`] of them), each as its journal
/// under `root` (the event journal's directory) ended it, for the web
/// page of a resumed or watched tournament; a game played on no board (a
/// forfeit) has none. A journal that cannot be read is said in the log
/// and left out.
pub fn ended_games(root: &Path, numbers: &[u32]) -> Ended {
    let mut ended = Ended::default();
    let first = numbers.len().saturating_sub(GAMES_KEPT);
    for &number in &numbers[first..] {
        match ended_pgn(root, number) {
            Ok(Some(pgn)) => ended.add(number, pgn),
            Ok(None) => {}
            Err(e) => log::warn!("game {number}: {e}; the web page goes without its PGN"),
        }
    }
    ended
}

/// The players' links, as a board's core sees them: its client A and B.
struct Seated<'a> {
    links: &'a PerInstance<Link<Instance>>,
    seats: ByClient<Instance>,
}

impl Wires for Seated<'_> {
    fn send_all(&self, to: ClientId, unit: Vec<(u64, String)>) -> Result<(), SendError> {
        match self.links.get(self.seats[to]) {
            Some(link) => link.send_all(unit),
            None => Err(SendError::Closed),
        }
    }
}

/// A board with its players' links, as the loop's group commit sees it
/// ([`crate::app::turn::commit`]).
pub struct Committing<'a> {
    pub board: &'a mut Board,
    pub links: &'a PerInstance<Link<Instance>>,
    pub syzygy: Option<&'a Syzygy>,
}

impl Staged for Committing<'_> {
    fn writers(&mut self) -> &mut Writers {
        &mut self.board.outputs
    }

    fn deliver(&mut self) {
        self.board.deliver(self.links, self.syzygy);
    }
}

/// How a link is shown on a board's full-size view: its port or endpoint,
/// its line (its baud rate; `no line delay` for a serial line with no
/// wire time, the demo's cables; `TCP`; `in-process` for a program argus
/// runs), and its state and bytes as `book` counted them.
pub(crate) fn link_view(
    link: Option<&Link<Instance>>,
    line: LineSettings,
    carrier: Carrier,
    book: &PortBook,
) -> LinkView {
    LinkView {
        port: link.map_or_else(String::new, |l| l.path().to_string()),
        settings: line_words(carrier, line.baud),
        state: book.state(),
        bytes_in: book.bytes_in,
        bytes_out: book.bytes_out,
    }
}

/// A link's line in the board view's words.
fn line_words(carrier: Carrier, baud: u32) -> String {
    match (carrier, baud) {
        (Carrier::Serial, 0) => "no line delay".into(),
        (Carrier::Serial, baud) => format!("{baud} baud"),
        (Carrier::Tcp, _) => "TCP".into(),
        (Carrier::InProcess, _) => "in-process".into(),
    }
}

/// The instances that play `game`: White's as client A, Black's as B.
fn seats_of(game: &ScheduledGame, instances: ByColor<u32>) -> ByClient<Instance> {
    ByClient::new(
        Instance::new(game.white, instances.white),
        Instance::new(game.black, instances.black),
    )
}

/// Which of the referee's delays were given (`--reset-delay`,
/// `--conclude-delay`, or the config file's `[match]` table). A given
/// delay holds for every game; one not given is the spec's default (5 s)
/// in a game with a player on a cable or the LAN, and 0 in a game between
/// two programs argus runs itself (`engine:`, `mover:`), which need no
/// time to get ready: a 2,000-game engine test would otherwise sit idle
/// for hours. Decided per game (a board that mixes the two kinds keeps
/// the spec's default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pace {
    pub reset_given: bool,
    pub conclude_given: bool,
}

impl Pace {
    /// `settings` with the delays of a game whose players are both
    /// programs argus runs (`run_here`), or as they are.
    pub fn apply(self, settings: &mut Settings, run_here: bool) {
        if !run_here {
            return;
        }
        if !self.reset_given {
            settings.reset_delay_ms = 0;
        }
        if !self.conclude_given {
            settings.conclude_delay_ms = 0;
        }
    }
}

/// What a board needs to start a game.
pub struct GameSetup<'a> {
    pub board: BoardId,
    pub game: ScheduledGame,
    /// The instances of its players (White's, Black's) that play it.
    pub instances: ByColor<u32>,
    /// Every board's settings: time control, delays, policies.
    pub base: &'a Settings,
    /// The event's openings; the game starts from its own
    /// (`ScheduledGame::opening`), White its client A.
    pub openings: &'a [crate::referee::Start],
    /// The game's own time control, when not the base's (a knockout's
    /// tie-break games).
    pub control: Option<crate::clock::TimeControl>,
    pub port: PortSettings,
    /// The players' names and specs (for the PGN and the journal).
    pub names: ByClient<String>,
    /// Whether a client's name in the game's record is the one its program
    /// signs on with (`names` then is that name as the event has it):
    /// signing on again renames it, as in a match between ports.
    pub named_by_sign_on: ByClient<bool>,
    pub specs: ByClient<String>,
    /// Each player's line, for the wire-time credit.
    pub lines: ByClient<LineSettings>,
    /// Whether each player is a program argus runs (its bridge's
    /// `Asearch` is charged: `Settings::own_search_time`).
    pub own_search_time: ByClient<bool>,
    /// Each player's own time control (time odds), if it has one.
    pub own_controls: ByClient<Option<crate::clock::TimeControl>>,
    /// Its PGN Round tag ([`crate::tournament::Tournament::round_tag`], or
    /// a match's `--round`).
    pub round: String,
    /// How the board speaks: a match's or a tournament's.
    pub voice: Voice,
    /// The event's games (its game `game.number` of these): the
    /// transcript says `game 2 of 6`, not its core's one-game match.
    pub games_total: u32,
    /// Where the game's journal and transcript go.
    pub layout: &'a Layout,
    /// The tournament's PGN and EPD files, every finished game appended.
    pub games: GameFiles,
    /// Which delays were given, and whether both players are programs
    /// argus runs.
    pub pace: Pace,
    pub run_here: bool,
}

/// How a board speaks: in a match, its transcript names the clients by
/// player (`A`, `B`: the match's command line's, whatever colour each
/// plays) and, headless, its faults and link events are printed
/// (`referee::words::headline`); in a tournament its transcript names White `A`
/// and Black `B` and prints nothing.
#[derive(Debug, Clone, Copy)]
pub struct Voice {
    pub form: Form,
    pub headless: bool,
}

impl Voice {
    fn faults_on_stdout(self) -> bool {
        self.headless && self.form == Form::Match
    }

    /// The transcript's labels of the board's seats.
    fn sides(self, seats: &ByClient<Instance>) -> ByClient<String> {
        match self.form {
            Form::Match => ByClient::new_with(|c| seats[c].transcript_label(self.form)),
            Form::Tournament => ByClient::new_with(|c| c.letter().to_string()),
        }
    }
}

/// Why a board cannot set up or carry on its game ([`Board::start`],
/// [`Board::resume`]): the file or directory and what went wrong; the
/// board is not made (the director says which game it was).
#[derive(Debug, thiserror::Error)]
pub enum BoardError {
    /// Its log directory or transcript cannot be had.
    #[error(transparent)]
    Writers(#[from] OpenError),
    /// The directory its journal goes in cannot be made.
    #[error("cannot create the directory {}: {source}", .dir.display())]
    JournalDir { dir: PathBuf, source: io::Error },
    /// Its journal cannot be created.
    #[error("cannot start the journal {}: {source}", .path.display())]
    JournalStart { path: PathBuf, source: io::Error },
    /// The journal of a game in progress does not load.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The journal of a game in progress cannot be appended to.
    #[error("cannot go on with the journal {}: {source}", .path.display())]
    JournalAppend { path: PathBuf, source: io::Error },
}

/// Makes the directory a game's journal goes in (its transcript's is made
/// by its writers; apart with `--journal`).
fn make_parent(journal: &Path) -> Result<(), BoardError> {
    match journal.parent() {
        Some(dir) => std::fs::create_dir_all(dir).map_err(|source| BoardError::JournalDir {
            dir: dir.to_path_buf(),
            source,
        }),
        None => Ok(()),
    }
}

/// A board with its game.
pub struct Board {
    pub id: BoardId,
    pub game: ScheduledGame,
    /// White is client A, Black client B: the players' instances that
    /// play here.
    pub seats: ByClient<Instance>,
    pub core: Referee,
    outputs: Writers,
    books: ByClient<PortBook>,
    /// The game's end, until the tournament is told.
    /// Its game's end and each side's faults and restarts, as the core
    /// said them.
    tally: GameTally,
    /// Plies played from the opening before the players took over.
    opening_plies: usize,
    /// An input decided and journaled whose outputs wait for the journal's
    /// sync (group commit: [`Board::stage`], then [`Board::deliver`]).
    staged: Option<Decided>,
    /// Its game's journal (the attempt this board plays).
    journal: PathBuf,
}

impl Board {
    /// Reports each move this board relays, with its timing, to `tx`.
    pub fn time_relays(&mut self, tx: Sender<RelayTiming>) {
        self.outputs.time_relays(tx);
    }

    /// This board's game journal.
    pub fn journal(&self) -> &Path {
        &self.journal
    }

    /// Sets up the board's core, journal and transcript for `setup.game`,
    /// at tournament time `at`. The game starts when the players' sign-on
    /// records are handed to it ([`Board::seat`]).
    pub fn start(setup: GameSetup, at: u64) -> Result<Board, BoardError> {
        let g = &setup.game;
        let mut settings = setup.base.clone();
        settings.names =
            ByClient::new_with(|c| (!setup.named_by_sign_on[c]).then(|| setup.names[c].clone()));
        settings.ports = setup.specs.clone();
        settings.lines = setup.lines;
        settings.own_search_time = setup.own_search_time;
        settings.own_controls = setup.own_controls.clone();
        settings.round = Some(setup.round.clone());
        if let Some(tc) = setup.control {
            settings.time_control = tc;
        }
        settings.opening = g.opening.and_then(|i| setup.openings.get(i).cloned());
        settings.white = ClientId::A;
        setup.pace.apply(&mut settings, setup.run_here);
        let opening_plies = settings.opening.as_ref().map_or(0, |s| s.moves.len());
        let dirs = setup.layout.fresh_game(g.number);
        let label = format!(
            "{} (game {}, {} - {})",
            setup.board, g.number, setup.names.a, setup.names.b
        );
        let seats = seats_of(g, setup.instances);
        let outputs = Writers::open(
            &dirs.logs,
            setup.games.pgn.clone(),
            None,
            setup.voice.faults_on_stdout(),
        )?
        .with_sides(setup.voice.sides(&seats))
        .with_numbering(g.number, setup.games_total)
        .with_game_files(&setup.games)
        .with_label(&label);
        let journal = dirs.journal;
        make_parent(&journal)?;
        let header = Header {
            session: new_session_id(),
            settings: settings.clone(),
            port: setup.port,
            output: OutputSettings {
                pgn: setup.games.pgn.clone(),
                log_dir: Some(dirs.logs.clone()),
                journal: Some(journal.clone()),
                ..OutputSettings::default()
            },
        };
        // The journal's times are the tournament's: time 0 was `at` ago.
        let now = wall_clock_now(at);
        let wall = WallClock {
            at: 0,
            unix_ms: now.unix_ms.saturating_sub(at),
            ..now
        };
        let writer = match JournalWriter::create(&journal, &header, wall) {
            Ok(w) => w,
            Err(source) => {
                return Err(BoardError::JournalStart {
                    path: journal,
                    source,
                });
            }
        };
        let mut outputs = outputs;
        outputs.set_journal(writer);
        Ok(Board {
            id: setup.board,
            seats,
            game: setup.game,
            core: {
                let mut core = Referee::new(settings);
                core.set_wall_clock(wall);
                core
            },
            outputs,
            books: ByClient::new_with(|_| PortBook::up()),
            tally: GameTally::default(),
            opening_plies,
            staged: None,
            journal,
        })
    }

    /// The board of `game` as its journal left it when the tournament was
    /// stopped: its core replayed (the tallies too), its journal appended
    /// to from here on, a game that ended unsaved written to the PGN.
    /// `None` when the game has no journal yet (the stop came before it
    /// was set up).
    pub fn resume(
        board: BoardId,
        game: ScheduledGame,
        instances: ByColor<u32>,
        layout: &Layout,
        games: &GameFiles,
        voice: Voice,
        games_total: u32,
    ) -> Result<Option<Board>, BoardError> {
        let GameDirs {
            journal: path,
            logs: dir,
        } = layout.latest_game(game.number);
        if std::fs::metadata(&path).map_or(true, |m| m.len() == 0) {
            return Ok(None);
        }
        let mut tally = GameTally::default();
        let loaded = crate::journal::load_seeing(&path, &mut |e| tally.see(e))?;
        // The names as the game has them (a name taken from a sign-on is
        // the replayed core's, not the header's).
        let replayed = loaded.replay.core();
        let label = format!(
            "{board} (game {}, {} - {})",
            game.number,
            replayed.client_name(ClientId::A),
            replayed.client_name(ClientId::B)
        );
        let seats = seats_of(&game, instances);
        let mut outputs = Writers::open(&dir, games.pgn.clone(), None, voice.faults_on_stdout())?
            .with_sides(voice.sides(&seats))
            .with_numbering(game.number, games_total)
            .with_game_files(games)
            .with_label(&label);
        let writer =
            match JournalWriter::append(&path, loaded.valid_len, loaded.chain, loaded.lines) {
                Ok(w) => w,
                Err(source) => return Err(BoardError::JournalAppend { path, source }),
            };
        outputs.set_journal(writer);
        let last_at = loaded.replay.last_at();
        let wall = wall_clock_now(last_at);
        outputs.journal_mark(&Entry::Epoch(wall));
        outputs.journal_note("the tournament was resumed");
        outputs.journal_sync();
        outputs.save_unsaved(&loaded.replay);
        let mut core = loaded.replay.into_core();
        core.set_wall_clock(wall);
        let opening_plies = core
            .settings()
            .opening
            .as_ref()
            .map_or(0, |s| s.moves.len());
        Ok(Some(Board {
            id: board,
            seats,
            game,
            core,
            outputs,
            books: ByClient::new_with(|_| PortBook::up()),
            tally,
            opening_plies,
            staged: None,
            journal: path,
        }))
    }

    /// Its transcript's times are measured from `origin`: the wall-clock
    /// time of the loop's epoch, from which the times of its links' events
    /// are counted.
    pub fn set_wall_origin(&mut self, origin: std::time::SystemTime) {
        self.outputs.set_wall_origin(origin);
    }

    /// The journal time of the last thing the board's core took.
    pub fn time(&self) -> u64 {
        self.core.time()
    }

    /// Forgets a result the tournament already has (it was told before the
    /// stop).
    pub fn result_known(&mut self) {
        self.tally.forget_end();
    }

    /// Seats each player's instance on the board with the sign-on it
    /// signed on to the tournament with (`Input::Seated`, journaled as
    /// such): both seated, the game starts with `reset`, as a match's next
    /// game does.
    pub fn seat(
        &mut self,
        sign_ons: ByClient<SignOn>,
        at: u64,
        links: &PerInstance<Link<Instance>>,
        syzygy: Option<&Syzygy>,
    ) {
        for (client, sign_on) in [(ClientId::A, sign_ons.a), (ClientId::B, sign_ons.b)] {
            self.hand(Input::Seated { client, sign_on }, at, links, syzygy);
        }
    }

    /// The client seat instance `who` has on this board, if it plays
    /// here.
    pub fn client_of(&self, who: Instance) -> Option<ClientId> {
        ClientId::BOTH.into_iter().find(|&id| self.seats[id] == who)
    }

    /// One report of a player's link, as its client's input, staged
    /// ([`Board::stage`]). The event's time counts from the links' epoch,
    /// which is journal time `base` (the last input's time before a
    /// resume, 0 at a start): the core takes it as `base` plus that, as a
    /// resumed match's session does, or a resumed game's clocks would stop
    /// at the time of the stop.
    pub fn link_event(
        &mut self,
        client: ClientId,
        kind: LinkEventKind,
        base: u64,
        now: u64,
        links: &PerInstance<Link<Instance>>,
        syzygy: Option<&Syzygy>,
    ) {
        let ev = LinkEvent { id: client, kind };
        match link_input(ev, &mut self.books, &mut self.outputs, now) {
            Some((input, at)) => self.stage(input, at.saturating_add(base), links, syzygy),
            // No input, but perhaps a transcript line (ends the turn as
            // `deliver` does).
            None if self.staged.is_none() => self.outputs.end_turn(),
            None => {}
        }
    }

    /// Hands one input to the core and carries out what it says, its
    /// journal synced first when it must be.
    pub fn hand(
        &mut self,
        input: Input,
        at: u64,
        links: &PerInstance<Link<Instance>>,
        syzygy: Option<&Syzygy>,
    ) {
        self.stage(input, at, links, syzygy);
        self.sync_and_deliver(links, syzygy);
    }

    /// The staged input, if any, synced to its journal on its own and its
    /// outputs carried out (outside a loop turn's group commit).
    fn sync_and_deliver(&mut self, links: &PerInstance<Link<Instance>>, syzygy: Option<&Syzygy>) {
        if self.staged.is_some() {
            self.outputs.journal_sync();
            self.deliver(links, syzygy);
        }
    }

    /// Hands one input to the core, journaled but not synced. Outputs that
    /// must wait for the journal (records to the players, the game's end)
    /// are kept until [`Board::deliver`], which the caller calls once the
    /// journal is synced (the loop's group commit); others are carried out
    /// at once. A board holds one staged input at a time: one staged
    /// before is synced and delivered first, so that the board's outputs
    /// keep the order of its inputs.
    pub fn stage(
        &mut self,
        input: Input,
        at: u64,
        links: &PerInstance<Link<Instance>>,
        syzygy: Option<&Syzygy>,
    ) {
        self.sync_and_deliver(links, syzygy);
        let decided = decide(input, at, &mut self.core, &mut self.outputs);
        self.staged = Some(decided);
        if !self.staged.as_ref().is_some_and(Decided::wants_sync) {
            self.deliver(links, syzygy);
        }
    }

    /// Whether an input waits for the journal's sync.
    pub fn is_staged(&self) -> bool {
        self.staged.is_some()
    }

    /// Carries out the staged input's outputs (none staged: nothing), then
    /// ends the board's turn (its transcript and journal lines written).
    pub fn deliver(&mut self, links: &PerInstance<Link<Instance>>, syzygy: Option<&Syzygy>) {
        let Some(decided) = self.staged.take() else {
            return;
        };
        let wires = Seated {
            links,
            seats: self.seats,
        };
        let edges = Edges {
            links: &wires,
            syzygy,
        };
        let Board {
            core,
            books,
            outputs,
            tally,
            ..
        } = self;
        deliver(decided, core, edges, books, outputs, &mut |e| tally.see(e));
        outputs.end_turn();
    }

    /// The game's end as its core gave it, until the tournament is told.
    pub fn over(&self) -> Option<&GameOver> {
        self.tally.over()
    }

    /// The game's end, once, with what each side did.
    pub fn take_result(&mut self) -> Option<(GameOver, ByColor<SideStats>)> {
        self.tally.take(self.opening_plies)
    }

    /// The game is over and concluded, nothing is staged, and every record
    /// to the players has left (but to a player whose link is down: its
    /// records wait for it, and the board does not): the board and its
    /// players are free.
    pub fn done(&self) -> bool {
        self.staged.is_none()
            && self.core.is_over()
            && self.books.values().all(|b| b.in_flight == 0 || !b.up)
    }

    /// `client`'s link was replaced by a new one (its program started
    /// again): nothing is in flight on it, and it is up.
    pub fn link_replaced(&mut self, client: ClientId) {
        self.books[client] = PortBook::up();
    }

    /// How the board's two links are shown on its full-size view.
    pub fn link_views(&self, field: &Field) -> [LinkView; 2] {
        ClientId::BOTH.map(|id| {
            link_view(
                field.links.get(self.seats[id]),
                self.core.settings().lines[id],
                field.carrier(self.seats[id].player),
                &self.books[id],
            )
        })
    }

    /// Flushes the game's files; the first that could not be written
    /// during the game, if one could not.
    pub fn finish(mut self) -> Option<String> {
        self.outputs.finish();
        self.outputs.failed().map(str::to_owned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board view names each link's line by how it is carried: a
    /// serial line by its baud rate (or `no line delay` without wire
    /// time, the demo's cables), a TCP connection as `TCP`, a program
    /// argus runs as `in-process` (not `TCP`, as an engine's link once was).
    #[test]
    fn a_links_line_is_named_by_how_it_is_carried() {
        assert_eq!(line_words(Carrier::Serial, 9600), "9600 baud");
        assert_eq!(line_words(Carrier::Serial, 0), "no line delay");
        assert_eq!(line_words(Carrier::Tcp, 0), "TCP");
        assert_eq!(line_words(Carrier::InProcess, 0), "in-process");
    }

    /// Journals written by argus 0.1.0 before a seat was a typed input
    /// (each player's sign-on record handed to its board as a line) and
    /// before `resumed` named the players on cables (an `on` line after
    /// it): two movers, killed in game 2, resumed by that build, killed in
    /// game 3 (`fixtures/v0.1.0-before-seating`, as that build wrote
    /// them). They still resume: the tournament core replays to game 3 on
    /// its board and takes the resume, and the board carries game 3 on
    /// from its journal, both players signed on as their lines said.
    #[test]
    fn journals_written_before_seats_were_typed_still_resume() {
        use crate::referee::snapshot::Phase;
        use crate::tournament::{Input as EventInput, journal};
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src/app/tournament/fixtures/v0.1.0-before-seating");
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("game-003")).unwrap();
        for f in ["tournament.journal", "game-003/journal.log"] {
            std::fs::copy(fixture.join(f), dir.path().join(f)).unwrap();
        }
        let loaded = journal::load(&dir.path().join("tournament.journal")).unwrap();
        assert_eq!(loaded.header.writer, "argus 0.1.0");
        let mut event = loaded.tournament;
        let running = event.in_progress();
        let [(board, game)] = running[..] else {
            panic!("{running:?}")
        };
        assert_eq!((board, game.number), (BoardId(1), 3));
        let out = event.handle(
            EventInput::Resumed { on_cables: vec![] },
            loaded.last_at + 1_000,
        );
        assert!(out.is_empty(), "{out:?}");
        assert!(
            event.players().iter().all(|p| !p.present),
            "both must sign on again"
        );

        let games = GameFiles {
            pgn: Some(dir.path().join("games.pgn")),
            ..GameFiles::default()
        };
        let instances = event.instances_on(board).unwrap_or_default();
        let b = Board::resume(
            board,
            game,
            instances,
            &Layout::new(dir.path(), None),
            &games,
            Voice {
                form: Form::Tournament,
                headless: false,
            },
            event.games_total(),
        )
        .unwrap()
        .expect("game 3 has its journal");
        let snap = b.core.snapshot(b.time());
        assert_eq!(snap.phase, Phase::Playing);
        assert_eq!(snap.sans.len(), 20, "{:?}", snap.sans);
        for (id, name) in [(ClientId::A, "a"), (ClientId::B, "b")] {
            let c = &snap.clients[id];
            assert!(c.signed_on && c.line_check, "{c:?}");
            assert_eq!(c.name, name);
        }
    }

    #[test]
    fn games_between_programs_argus_runs_have_no_delays_unless_given() {
        let base = Settings::default();
        let delays = |pace: Pace, run_here: bool| {
            let mut s = base.clone();
            pace.apply(&mut s, run_here);
            (s.reset_delay_ms, s.conclude_delay_ms)
        };
        let none = Pace::default();
        assert_eq!(delays(none, true), (0, 0));
        // A player on a cable or the LAN: the spec's default.
        assert_eq!(delays(none, false), (5_000, 5_000));
        // Given flags always win.
        let reset = Pace {
            reset_given: true,
            conclude_given: false,
        };
        assert_eq!(delays(reset, true), (5_000, 0));
        let conclude = Pace {
            reset_given: false,
            conclude_given: true,
        };
        assert_eq!(delays(conclude, true), (0, 5_000));
    }
}
