//! The tournament's players at the edge: one link per instance of a
//! player (a serial port; a seat of the TCP listener, one per board a
//! `tcp:NAME` player may connect to; an in-process link to a program argus
//! runs itself, one per board), all reporting on one channel with the
//! instance's id.
//! Engines and built-in movers run on threads of their own, each the
//! reference client (`app::client::serve`) on its end of the in-process
//! link, so they speak the protocol exactly as a cabled program does.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, bounded, unbounded};

use crate::app::client::{Answerer, ClientError, Voice, serve};
use crate::app::links::LINK_EVENTS;
use crate::app::options::{BookError, DEPTH_WAIT, ENGINE_MARGIN_MS, book_play};
use crate::app::tournament::gate::StartGate;
use crate::app::tournament::restart::{self, FirstStart};
use crate::client::engine::bridge::BookPlay;
use crate::client::engine::log::LogCreateError;
use crate::client::engine::{Bridge, EngineLog, EngineSettings, Fault, FaultKind, Refusal};
use crate::client::{ClientProtocol, Mover};
use crate::link::{
    AddressError, BadAllow, Connector, Endpoint, Link, LinkEvent, ListenConfig, ListenError,
    LocalEnd, PortSettings, listen_addr, parse_allow,
};
use crate::splitmix::splitmix64;
use crate::tournament::{Instance, Player, PlayerId};

/// How long the end of a tournament waits for the programs it runs to
/// take their `disconnect` and stop.
const PROGRAM_GRACE: Duration = Duration::from_secs(5);

/// The network side of the players: where tcp:NAME players connect, and
/// how the players on listeners of their own are seated.
#[derive(Debug, Clone, Default)]
pub struct Net {
    pub listen: Option<String>,
    pub allow: Vec<String>,
    pub password: Option<String>,
    /// Each player's seat, in player order, if it is on a listener of its
    /// own (`tcp-listen://`): the seat's label and the `tcsi` name it
    /// takes, if only one. A player without one here is labelled by its
    /// name and takes any program.
    pub seats: Vec<(String, Option<String>)>,
}

impl Net {
    /// A listener's configuration with these seats (each a label and the
    /// `tcsi` name it takes, if only one): `--allow` and `--password`.
    fn listen_config(
        &self,
        seats: Vec<(String, Option<String>)>,
    ) -> Result<ListenConfig, FieldError> {
        let allow = self
            .allow
            .iter()
            .map(|a| parse_allow(a))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ListenConfig {
            allow,
            password: self.password.clone(),
            seats,
        })
    }
}

/// How argus runs its engine players: whether their bridge claims draws
/// for them (their search limits are each engine's own, in its
/// `EngineSpec`).
#[derive(Debug, Clone, Copy)]
pub struct EnginePlay {
    pub claim_draws: bool,
    /// The tournament's rules: an engine that cannot play them is refused
    /// at its start.
    pub variant: crate::game::Variant,
}

/// One value per instance of each player (a player's instances numbered
/// from 0).
#[derive(Debug)]
pub struct PerInstance<T>(Vec<Vec<T>>);

impl<T> PerInstance<T> {
    /// `count(p)` values for each of `players` players, made by `make`.
    pub fn new(
        players: usize,
        count: impl Fn(PlayerId) -> u32,
        mut make: impl FnMut(Instance) -> T,
    ) -> PerInstance<T> {
        PerInstance(
            (0..players)
                .map(|p| {
                    let p = PlayerId(p);
                    (0..count(p)).map(|n| make(Instance::new(p, n))).collect()
                })
                .collect(),
        )
    }

    pub fn get(&self, i: Instance) -> Option<&T> {
        self.0.get(i.player.0)?.get(i.n as usize)
    }

    pub fn get_mut(&mut self, i: Instance) -> Option<&mut T> {
        self.0.get_mut(i.player.0)?.get_mut(i.n as usize)
    }

    /// Every instance with its value, player by player.
    pub fn iter(&self) -> impl Iterator<Item = (Instance, &T)> {
        self.0.iter().enumerate().flat_map(|(p, v)| {
            v.iter()
                .enumerate()
                .map(move |(n, t)| (Instance::new(PlayerId(p), n as u32), t))
        })
    }

    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter().flatten()
    }

    /// Player `p`'s instances' values.
    pub fn of(&self, p: PlayerId) -> &[T] {
        self.0.get(p.0).map_or(&[], Vec::as_slice)
    }

    fn into_values(self) -> impl Iterator<Item = T> {
        self.0.into_iter().flatten()
    }
}

/// Every instance's link, and the programs argus runs.
pub struct Field {
    pub links: PerInstance<Link<Instance>>,
    pub events: Receiver<LinkEvent<Instance>>,
    /// Whether each player is on a serial line (with a baud rate, hence a
    /// wire-time credit); TCP and in-process links have none.
    pub serial: Vec<bool>,
    /// Whether each player is a program argus runs (`engine:`, `mover:`).
    pub run_here: Vec<bool>,
    /// The thread of each program argus runs, by instance.
    programs: PerInstance<Option<Running>>,
    /// What a program started again needs.
    again: Again,
}

/// How a player's link is carried, as the board view names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carrier {
    /// A serial line (a cable, or the demo's virtual cable).
    Serial,
    /// A TCP connection.
    Tcp,
    /// A program argus runs, linked in-process (`engine:`, `mover:`).
    InProcess,
}

impl Field {
    /// How player `p`'s link is carried.
    pub fn carrier(&self, p: PlayerId) -> Carrier {
        let flag = |v: &Vec<bool>| v.get(p.0).copied().unwrap_or(false);
        if flag(&self.run_here) {
            Carrier::InProcess
        } else if flag(&self.serial) {
            Carrier::Serial
        } else {
            Carrier::Tcp
        }
    }
}

/// A program's thread: it ends with why the program could not be
/// started, or `None` once it started (and later stopped).
struct Running {
    name: String,
    /// `None` once joined.
    handle: Option<JoinHandle<Option<StartError>>>,
    /// How many times it was started (1 at first).
    starts: u32,
}

/// What starting a program again needs: the players, the links' settings,
/// epoch and channel, and where engine logs go.
struct Again {
    players: Vec<Player>,
    settings: PortSettings,
    engines: EnginePlay,
    /// Each player's opening book, read once.
    books: Vec<Option<BookPlay>>,
    log_dir: PathBuf,
    epoch: Instant,
    tx: Sender<LinkEvent<Instance>>,
    /// How many programs may be starting at once.
    gate: StartGate,
}

impl Field {
    /// Opens every instance's link: serial ports first (a wrong port fails
    /// before anything starts), then the listener (`instances` seats for
    /// each `tcp:NAME` player), then the programs argus runs, `instances`
    /// of each, each on a thread of its own, signing on once through its
    /// handshake. Each program's first instance is started before the
    /// others, and its start waited for: one that cannot play (no such
    /// command, it exits at once, it refuses an option or the rules) fails
    /// the tournament here; one that did not answer in time does not
    /// ([`restart::first_start`]): its link is lost, and the director
    /// starts it again by its usual rules. Engine traffic
    /// goes to `engine-NAME.log` in `log_dir` (`engine-NAME.N.log` for
    /// instance N > 1).
    pub fn open(
        players: &[Player],
        instances: &[u32],
        settings: PortSettings,
        net: &Net,
        engines: EnginePlay,
        log_dir: &Path,
        epoch: Instant,
    ) -> Result<Field, FieldError> {
        let (tx, events) = bounded(LINK_EVENTS);
        let count = |p: PlayerId| match players.get(p.0) {
            Some(pl) if !pl.is_one_program() => instances.get(p.0).copied().unwrap_or(1).max(1),
            _ => 1,
        };
        let open = |i: Instance, c: Connector| {
            Link::open_with(
                i,
                c,
                &link_name(&players[i.player.0], i),
                settings,
                epoch,
                tx.clone(),
            )
            .map_err(FieldError::Link)
        };
        let mut links: PerInstance<Option<Link<Instance>>> =
            PerInstance::new(players.len(), count, |_| None);
        for (i, p) in players.iter().enumerate() {
            // One program on a link argus opens (a `tcp-listen://` one
            // below, on its listener).
            let endpoint = match p {
                Player::Serial { port } => Endpoint::Serial(port.clone()),
                Player::Socket { endpoint, .. } if !matches!(endpoint, Endpoint::Listen(_)) => {
                    endpoint.clone()
                }
                _ => continue,
            };
            let c = Connector::to(&endpoint, settings, None)
                .ok_or_else(|| FieldError::NoWay(endpoint.clone()))?;
            let first = Instance::new(PlayerId(i), 0);
            *links.get_mut(first).ok_or(FieldError::NoSuch(first))? = Some(open(first, c)?);
        }
        for (i, c) in own_listeners(players, net)?
            .into_iter()
            .chain(listen(players, &count, net)?)
        {
            *links.get_mut(i).ok_or(FieldError::NoSuch(i))? = Some(open(i, c)?);
        }
        let books = books(players)?;
        let mut programs: PerInstance<Option<Running>> =
            PerInstance::new(players.len(), count, |_| None);
        let again = Again {
            players: players.to_vec(),
            settings,
            engines,
            books,
            log_dir: log_dir.to_path_buf(),
            epoch,
            tx: tx.clone(),
            gate: StartGate::for_this_machine(),
        };
        let run_here = Player::runs_here;
        // Each program's first instance first, all at once: the check that
        // the program runs at all, before the other instances add their
        // load (128 engines starting on two cores).
        let mut checks = Vec::new();
        for (i, p) in players.iter().enumerate().filter(|(_, p)| run_here(p)) {
            let first = Instance::new(PlayerId(i), 0);
            let (report, started) = bounded(1);
            let (link, running) = again.spawn(first, 1, Some(report))?;
            *programs.get_mut(first).ok_or(FieldError::NoSuch(first))? = Some(running);
            *links.get_mut(first).ok_or(FieldError::NoSuch(first))? = Some(link);
            checks.push((p.name(), started));
        }
        for (name, started) in checks {
            match started.recv() {
                Ok(Ok(())) => {}
                Ok(Err(f)) => match restart::first_start(f.kind()) {
                    FirstStart::Refuse => return Err(f.into()),
                    FirstStart::Retry => log::warn!(
                        "{name}: its program's first start did not answer in time ({}); the \
                         event begins, and argus starts it again as it does any start that \
                         stops before its sign-on",
                        f
                    ),
                },
                Err(_) => {
                    return Err(FieldError::ThreadEnded(name.to_string()));
                }
            }
        }
        for (i, _) in players.iter().enumerate().filter(|(_, p)| run_here(p)) {
            for n in 1..count(PlayerId(i)) {
                let more = Instance::new(PlayerId(i), n);
                let (link, running) = again.spawn(more, 1, None)?;
                *programs.get_mut(more).ok_or(FieldError::NoSuch(more))? = Some(running);
                *links.get_mut(more).ok_or(FieldError::NoSuch(more))? = Some(link);
            }
        }
        let links = PerInstance(
            links
                .0
                .into_iter()
                .map(|v| v.into_iter().collect::<Option<Vec<_>>>())
                .collect::<Option<Vec<_>>>()
                .ok_or(FieldError::Unreached)?,
        );
        Ok(Field {
            serial: players
                .iter()
                .map(|p| matches!(p, Player::Serial { .. }))
                .collect(),
            run_here: players.iter().map(run_here).collect(),
            links,
            events,
            programs,
            again,
        })
    }

    /// Starts instance `i`'s program again (its engine, or its built-in
    /// mover) on a fresh in-process link, which takes the place of the old
    /// one. The program starts on a thread of its own, so an engine's
    /// handshake never holds up the loop: once through, it signs on; if it
    /// cannot be started, its link is lost before it signed on, and
    /// [`Field::start_failure`] says why. An engine started again writes
    /// its traffic to `engine-NAME-N.log` (N = 2, 3, ...).
    pub fn restart(&mut self, i: Instance) -> Result<(), FieldError> {
        let p = self
            .again
            .players
            .get(i.player.0)
            .ok_or(FieldError::NoSuch(i))?;
        let slot = self
            .programs
            .get_mut(i)
            .ok_or(FieldError::NoSuch(i))?
            .as_mut()
            .ok_or_else(|| StartError::NotAProgram(p.name().to_string()))?;
        let starts = slot.starts + 1;
        let (link, running) = self.again.spawn(i, starts, None)?;
        if let Some(old) = slot.handle.take()
            && old.is_finished()
        {
            let _ = old.join();
        }
        *slot = running;
        if let Some(l) = self.links.get_mut(i) {
            std::mem::replace(l, link).close();
        }
        Ok(())
    }

    /// Why instance `i`'s program could not be started, once its thread
    /// has ended without starting it (a few tries for `grace`: its link is
    /// lost as the thread ends).
    pub fn start_failure(&mut self, i: Instance, grace: Duration) -> Option<StartError> {
        let slot = self.programs.get_mut(i)?.as_mut()?;
        let until = Instant::now() + grace;
        while !slot.handle.as_ref()?.is_finished() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        if !slot.handle.as_ref()?.is_finished() {
            return None;
        }
        slot.handle.take()?.join().ok().flatten()
    }

    /// Closes every link, then waits a little for the programs argus runs
    /// to stop (they stop on `disconnect`; one that does not is left to
    /// end with the process).
    pub fn close(self) {
        drop(self.events);
        for l in self.links.into_values() {
            l.close();
        }
        let until = Instant::now() + PROGRAM_GRACE;
        for (name, handle) in self
            .programs
            .into_values()
            .flatten()
            .filter_map(|r| Some((r.name, r.handle?)))
        {
            while !handle.is_finished() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(20));
            }
            if handle.is_finished() {
                let _ = handle.join();
            } else {
                log::warn!("{name} did not stop after the tournament; leaving it");
            }
        }
    }
}

impl Again {
    /// Starts instance `i`'s program, for its `starts`-th time, on a
    /// thread of its own and an in-process link: the link and the thread.
    /// The program is started once the start gate lets it in (a few at a
    /// time, `app::tournament::gate`), so its handshake's time runs only
    /// while it has the CPU to answer.
    /// How the start went (through its handshake, or why not) is sent on
    /// `report`, if given, before the program plays.
    fn spawn(
        &self,
        i: Instance,
        starts: u32,
        report: Option<Sender<Result<(), StartError>>>,
    ) -> Result<(Link<Instance>, Running), FieldError> {
        let p = self
            .players
            .get(i.player.0)
            .cloned()
            .ok_or(FieldError::NoSuch(i))?;
        let (link, far) = self.pair(i, &p);
        let (engines, log_dir) = (self.engines, self.log_dir.clone());
        let book = self.books.get(i.player.0).cloned().flatten();
        let name = p.name().to_string();
        let thread = name.clone();
        let running = name.clone();
        let gate = self.gate.clone();
        let handle = spawn_named(&thread, move || {
            let pass = gate.enter();
            let started = Program::start(i, &p, engines, book.as_ref(), &log_dir, starts);
            drop(pass);
            if let Some(report) = report {
                let _ = report.send(started.as_ref().map(|_| ()).map_err(Clone::clone));
            }
            match started {
                Ok(program) => {
                    program.play(&name, far);
                    None
                }
                Err(e) => Some(e),
            }
        })?;
        Ok((
            link,
            Running {
                name: running,
                handle: Some(handle),
                starts,
            },
        ))
    }
}

impl Again {
    /// Instance `i`'s in-process link: the referee's end, reporting on the
    /// tournament's channel, and the program's, with a channel of its own.
    fn pair(&self, i: Instance, p: &Player) -> (Link<Instance>, ProgramEnd) {
        let (tx, rx) = unbounded();
        let (near, far) = Link::in_process(
            LocalEnd {
                id: i,
                path: link_name(p, i),
                epoch: self.epoch,
                events: self.tx.clone(),
            },
            LocalEnd {
                id: "client",
                path: format!("{}'s program", p.name()),
                epoch: Instant::now(),
                events: tx,
            },
            self.settings,
        );
        (
            near,
            ProgramEnd {
                link: far,
                events: rx,
            },
        )
    }
}

/// The program's end of its in-process link, and where its events come.
struct ProgramEnd {
    link: Link<&'static str>,
    events: Receiver<LinkEvent<&'static str>>,
}

/// Why a program could not be started (naming the player, and for an
/// engine its command); [`StartError::kind`] says whether trying again can
/// help.
#[derive(Debug, Clone, thiserror::Error)]
pub enum StartError {
    /// The engine's log cannot be created (shared: the failure is sent to
    /// the field and kept by the program's thread).
    #[error("{0}")]
    Log(Arc<LogCreateError>),
    /// The engine did not start or get through its handshake.
    #[error("engine {name:?} ({command}): {fault}")]
    Engine {
        name: String,
        command: String,
        fault: Box<Fault>,
    },
    /// The engine cannot play the event's variant.
    #[error("engine {name:?} ({command}): {refusal}")]
    Refuses {
        name: String,
        command: String,
        refusal: Refusal,
    },
    /// The player (its name) is not a program argus runs.
    #[error("{0}: it is not a program argus runs")]
    NotAProgram(String),
}

impl StartError {
    /// Whether trying again can help: the engine's fault's kind; a
    /// failure of any other kind trying again cannot mend.
    pub fn kind(&self) -> FaultKind {
        match self {
            StartError::Engine { fault, .. } => fault.kind(),
            _ => FaultKind::Failed,
        }
    }
}

/// Why the players' links and programs cannot be opened ([`Field::open`])
/// or a program started again ([`Field::restart`]): the player, port or
/// flag and what went wrong; the tournament does not start (or the
/// instance counts a start that stopped before it signed on).
#[derive(Debug, thiserror::Error)]
pub enum FieldError {
    /// A player's port or endpoint cannot be opened.
    #[error(transparent)]
    Link(crate::link::OpenError),
    /// An endpoint argus has no way to open.
    #[error("{0}: no way to open it")]
    NoWay(Endpoint),
    /// An `--allow` that does not read.
    #[error(transparent)]
    Allow(#[from] BadAllow),
    /// A listener that cannot be had.
    #[error(transparent)]
    Listen(#[from] ListenError),
    /// A listener that gave another number of seats than it was asked.
    #[error("the listener on {addr} gave {seats} seats for {players} players")]
    Seats {
        addr: std::net::SocketAddr,
        seats: usize,
        players: usize,
    },
    /// `tcp:NAME` players without `--listen`.
    #[error("tcp:NAME players connect to the tournament: give --listen ADDR:PORT")]
    NoListen,
    /// A `--listen` address that does not read.
    #[error("--listen {listen}: {error}")]
    ListenAddr { listen: String, error: AddressError },
    /// An engine's `--book` that cannot be read.
    #[error("engine {name:?}: {error}")]
    Book { name: String, error: BookError },
    /// A player's thread cannot be started.
    #[error("{name}: cannot start its thread: {source}")]
    Thread {
        name: String,
        source: std::io::Error,
    },
    /// A program's first start that trying again cannot mend.
    #[error(transparent)]
    Start(#[from] StartError),
    /// A program's thread (its player's name) that ended before it said
    /// how its start went.
    #[error("{0}: its program's thread ended before it said how its start went")]
    ThreadEnded(String),
    /// An instance the field does not have.
    #[error("no such instance: {0}")]
    NoSuch(Instance),
    /// A player left with no link to reach it.
    #[error("a player with no way to reach it")]
    Unreached,
}

/// A program argus runs for a player.
enum Program {
    Engine(Box<Bridge>),
    Mover(Box<ClientProtocol>),
}

impl Program {
    /// Instance `i`'s program: an engine started and through its
    /// handshake, or a built-in mover; an error for a player argus does
    /// not run.
    /// `start` counts the program's starts (1 at first): a start again
    /// logs to a file of its own, and chooses from its book with a seed of
    /// its own, as each instance does.
    fn start(
        i: Instance,
        p: &Player,
        engines: EnginePlay,
        book: Option<&BookPlay>,
        log_dir: &Path,
        start: u32,
    ) -> Result<Program, StartError> {
        Ok(match p {
            Player::Engine(spec) => {
                let log = log_dir.join(engine_log(&spec.name, i.n, start));
                let settings = EngineSettings {
                    command: spec.command_line.clone(),
                    protocol: spec.protocol,
                    options: spec.options.clone(),
                    limits: spec.limits,
                    margin: Duration::from_millis(ENGINE_MARGIN_MS),
                    depth_wait: DEPTH_WAIT,
                    log: EngineLog::create(&log).map_err(|e| StartError::Log(Arc::new(e)))?,
                    ponder: spec.ponder,
                };
                let bridge = Bridge::start(settings, Some(&spec.name))
                    .map_err(|fault| StartError::Engine {
                        name: spec.name.clone(),
                        command: spec.command.clone(),
                        fault: Box::new(fault),
                    })?
                    .with_draw_claims(engines.claim_draws);
                if let Some(refusal) = bridge.refuses(engines.variant) {
                    return Err(StartError::Refuses {
                        name: spec.name.clone(),
                        command: spec.command.clone(),
                        refusal,
                    });
                }
                let book = book.map(|b| BookPlay {
                    seed: splitmix64(b.seed ^ u64::from(start) ^ (u64::from(i.n) << 32)),
                    ..b.clone()
                });
                if let Some(b) = &book {
                    log::info!(
                        "engine {:?}: book {} ({} entries), {}, seed {}",
                        spec.name,
                        b.file,
                        b.book.len(),
                        b.depth
                            .map_or("as long as it has a move".into(), |d| format!(
                                "the first {d} plies"
                            )),
                        b.seed
                    );
                }
                let bridge = bridge.with_book(book);
                log::info!("engine {:?} is ready", spec.name);
                Program::Engine(Box::new(bridge))
            }
            // Each mover its own seed: two random movers play different
            // games, and so do two instances of one.
            Player::Mover { name, kind } => {
                let seed = u64::try_from(i.player.0).unwrap_or(0) + 1;
                let seed = match i.n {
                    0 => seed,
                    n => splitmix64(seed ^ (u64::from(n) << 32)),
                };
                Program::Mover(Box::new(ClientProtocol::new(
                    name,
                    Mover::new(*kind, seed),
                    true,
                )))
            }
            Player::Serial { .. } | Player::Socket { .. } | Player::Tcp { .. } => {
                return Err(StartError::NotAProgram(p.name().to_string()));
            }
        })
    }

    /// Plays on the client's end of an in-process link until the referee
    /// says `disconnect` or the program stops (said in the log); the
    /// link's end is closed as it returns.
    fn play(self, name: &str, end: ProgramEnd) {
        program_thread(self, name, &end.link, &end.events);
    }
}

/// Each player's opening book (`--book NAME:FILE`), read and checked, a
/// file two engines share read once; each player's seed is its place in
/// the list (each start of its program mixes in the start's number).
fn books(players: &[Player]) -> Result<Vec<Option<BookPlay>>, FieldError> {
    let mut read: Vec<(String, BookPlay)> = Vec::new();
    let mut out = Vec::new();
    for (i, p) in players.iter().enumerate() {
        let Player::Engine(spec) = p else {
            out.push(None);
            continue;
        };
        let Some(file) = &spec.book else {
            out.push(None);
            continue;
        };
        let seed = u64::try_from(i).unwrap_or(0) + 1;
        let play = match read.iter().find(|(f, _)| f == file) {
            Some((_, b)) => BookPlay {
                depth: spec.book_depth.map(|d| d as usize),
                seed,
                ..b.clone()
            },
            None => {
                let flag = format!("--book-depth {}", spec.name);
                let b =
                    book_play(Path::new(file), spec.book_depth, seed, &flag).map_err(|error| {
                        FieldError::Book {
                            name: spec.name.clone(),
                            error,
                        }
                    })?;
                read.push((file.clone(), b.clone()));
                b
            }
        };
        out.push(Some(play));
    }
    Ok(out)
}

/// An engine's log: `engine-NAME.log`, and `engine-NAME-N.log` for its
/// N-th start; `engine-NAME.K.log` (`engine-NAME.K-N.log`) for its
/// instance K > 1 (0-based `instance` K - 1).
fn engine_log(name: &str, instance: u32, start: u32) -> String {
    let name = match instance {
        0 => file_safe(name),
        k => format!("{}.{}", file_safe(name), k + 1),
    };
    match start {
        0 | 1 => format!("engine-{name}.log"),
        n => format!("engine-{name}-{n}.log"),
    }
}

/// Runs `f` on a thread named after player `name`.
fn spawn_named(
    name: &str,
    f: impl FnOnce() -> Option<StartError> + Send + 'static,
) -> Result<JoinHandle<Option<StartError>>, FieldError> {
    std::thread::Builder::new()
        .name(format!("argus-player-{}", file_safe(name)))
        .spawn(f)
        .map_err(|source| FieldError::Thread {
            name: name.to_string(),
            source,
        })
}

/// Plays until the referee says `disconnect` (or the link is gone).
fn program_thread(
    program: Program,
    name: &str,
    link: &Link<&'static str>,
    events: &Receiver<LinkEvent<&'static str>>,
) {
    let outcome = match program {
        Program::Engine(b) => run(link, events, *b),
        Program::Mover(p) => run(link, events, *p),
    };
    match outcome {
        Ok(()) => log::info!("{name}: disconnected by the referee"),
        Err(e) => log::warn!("{name}: stopped: {e}"),
    }
}

/// Where an instance's link is, for the log: its port, `tcp:NAME`,
/// `engine:NAME` or `mover:NAME`, with ` #K` for instance K > 1
/// ([`Instance::named`]).
fn link_name(p: &Player, instance: Instance) -> String {
    instance.named(&p.place())
}

/// The listeners of the players on addresses of their own
/// (`tcp-listen://`), one per address (`--allow` and `--password` apply
/// to them as to `--listen`): a seat for each player on it, so a match's
/// one listener for both seats its two clients (in sign-on order, or each
/// by the name its seat takes): (instance, connector) each.
fn own_listeners(players: &[Player], net: &Net) -> Result<Vec<(Instance, Connector)>, FieldError> {
    let mut listeners: Vec<(std::net::SocketAddr, Vec<usize>)> = Vec::new();
    for (i, p) in players.iter().enumerate() {
        let Player::Socket {
            endpoint: Endpoint::Listen(addr),
            ..
        } = p
        else {
            continue;
        };
        match listeners.iter_mut().find(|(a, _)| a == addr) {
            Some((_, on)) => on.push(i),
            None => listeners.push((*addr, vec![i])),
        }
    }
    let mut out = Vec::new();
    for (addr, on) in listeners {
        let seats = on
            .iter()
            .map(|&i| {
                net.seats
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| (players[i].name().to_string(), None))
            })
            .collect();
        let seated = crate::link::listen(addr, net.listen_config(seats)?)?;
        if seated.len() != on.len() {
            return Err(FieldError::Seats {
                addr,
                seats: seated.len(),
                players: on.len(),
            });
        }
        out.extend(
            on.into_iter()
                .map(|i| Instance::new(PlayerId(i), 0))
                .zip(seated),
        );
    }
    Ok(out)
}

/// The listener's seats for the `tcp:NAME` players (`count` of each, one
/// per instance), each taking only a program that signs on with its NAME:
/// (instance, connector) each.
fn listen(
    players: &[Player],
    count: &dyn Fn(PlayerId) -> u32,
    net: &Net,
) -> Result<Vec<(Instance, Connector)>, FieldError> {
    let seats: Vec<(Instance, String)> = players
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match p {
            Player::Tcp { name } => Some((PlayerId(i), name.clone())),
            _ => None,
        })
        .flat_map(|(p, name)| (0..count(p)).map(move |n| (Instance::new(p, n), name.clone())))
        .collect();
    if seats.is_empty() {
        return Ok(Vec::new());
    }
    let listen = net.listen.as_deref().ok_or(FieldError::NoListen)?;
    let addr = listen_addr(listen).map_err(|error| FieldError::ListenAddr {
        listen: listen.to_string(),
        error,
    })?;
    let config = net.listen_config(
        seats
            .iter()
            .map(|(_, name)| (name.clone(), Some(name.clone())))
            .collect(),
    )?;
    let seated = crate::link::listen(addr, config)?;
    Ok(seats.into_iter().map(|(i, _)| i).zip(seated).collect())
}

fn run<A: Answerer>(
    link: &Link<&'static str>,
    events: &Receiver<LinkEvent<&'static str>>,
    answerer: A,
) -> Result<(), ClientError> {
    serve(link, events, answerer, Duration::ZERO, Voice::Quiet, true)
}

/// `name` with only ASCII letters, digits, `.`, `_` and `-` (the rest
/// `_`), for a file or thread name.
pub fn file_safe(name: &str) -> String {
    name.chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect()
}
