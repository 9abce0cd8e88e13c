//! The tournament's players at the edge: one link per player (a serial
//! port, a seat of the TCP listener, or an in-process link to a program
//! argus runs itself), all reporting on one channel with the player's id.
//! Engines and built-in movers run on threads of their own, each the
//! reference client (`app::client::serve`) on its end of the in-process
//! link, so they speak the protocol exactly as a cabled program does.

use std::path::Path;
use std::sync::Mutex;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, bounded, unbounded};

use crate::app::client::{Answerer, ClientError, Voice, serve};
use crate::app::links::LINK_EVENTS;
use crate::app::options::{DEPTH_WAIT, ENGINE_MARGIN_MS};
use crate::client::engine::{Bridge, EngineLog, EngineSettings, Untimed};
use crate::client::{ClientProtocol, Mover};
use crate::link::{
    Connector, Link, LinkEvent, ListenConfig, PortSettings, listen_addr, local_pair, parse_allow,
};
use crate::tournament::{Player, PlayerId};

/// How long the end of a tournament waits for the programs it runs to
/// take their `disconnect` and stop.
const PROGRAM_GRACE: Duration = Duration::from_secs(5);

/// The network side of the players: where tcp:NAME players connect.
#[derive(Debug, Clone, Default)]
pub struct Net {
    pub listen: Option<String>,
    pub allow: Vec<String>,
    pub password: Option<String>,
}

/// Every player's link, and the programs argus runs.
pub struct Field {
    pub links: Vec<Link<PlayerId>>,
    pub events: Receiver<LinkEvent<PlayerId>>,
    /// Whether each player is on a serial line (with a baud rate, hence a
    /// wire-time credit); TCP and in-process links have none.
    pub serial: Vec<bool>,
    programs: Vec<(String, JoinHandle<()>)>,
}

impl Field {
    /// Opens every player's link: serial ports first (a wrong port fails
    /// before anything starts), then the listener, then the programs argus
    /// runs (each started and through its handshake before the
    /// tournament begins, so a wrong engine fails at once). Engine traffic
    /// goes to `engine-NAME.log` in `log_dir`.
    pub fn open(
        players: &[Player],
        settings: PortSettings,
        net: &Net,
        untimed: Untimed,
        log_dir: &Path,
        epoch: Instant,
    ) -> Result<Field, String> {
        let (tx, events) = bounded(LINK_EVENTS);
        let open = |i: usize, c: Connector| {
            Link::open_with(
                PlayerId(i),
                c,
                &link_name(&players[i]),
                settings,
                epoch,
                tx.clone(),
            )
            .map_err(|e| e.to_string())
        };
        let mut links: Vec<Option<Link<PlayerId>>> = Vec::new();
        for (i, p) in players.iter().enumerate() {
            links.push(match p {
                Player::Serial { port } => Some(open(
                    i,
                    Connector::Serial {
                        path: port.clone(),
                        settings,
                    },
                )?),
                _ => None,
            });
        }
        for (i, c) in listen(players, net)? {
            links[i] = Some(open(i, c)?);
        }
        let mut programs = Vec::new();
        for (i, p) in players.iter().enumerate() {
            let Some(program) = Program::start(i, p, untimed, log_dir)? else {
                continue;
            };
            let (near, far) = local_pair()
                .map_err(|e| format!("{}: cannot make an in-process link: {e}", p.name()))?;
            programs.push(program.spawn(p.name(), far, settings)?);
            links[i] = Some(open(i, Connector::InProcess(Mutex::new(Some(near))))?);
        }
        let links = links
            .into_iter()
            .collect::<Option<Vec<_>>>()
            .ok_or("a player with no way to reach it")?;
        Ok(Field {
            serial: players
                .iter()
                .map(|p| matches!(p, Player::Serial { .. }))
                .collect(),
            links,
            events,
            programs,
        })
    }

    /// Closes every link, then waits a little for the programs argus runs
    /// to stop (they stop on `disconnect`; one that does not is left to
    /// end with the process).
    pub fn close(self) {
        drop(self.events);
        for l in self.links {
            l.close();
        }
        let until = Instant::now() + PROGRAM_GRACE;
        for (name, handle) in self.programs {
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

/// A program argus runs for a player.
enum Program {
    Engine(Bridge),
    Mover(ClientProtocol),
}

impl Program {
    /// Player `i`'s program, if argus runs it: an engine started and
    /// through its handshake, or a built-in mover.
    fn start(
        i: usize,
        p: &Player,
        untimed: Untimed,
        log_dir: &Path,
    ) -> Result<Option<Program>, String> {
        Ok(Some(match p {
            Player::Engine(spec) => {
                let log = log_dir.join(format!("engine-{}.log", file_safe(&spec.name)));
                let settings = EngineSettings {
                    command: spec.command_line.clone(),
                    protocol: spec.protocol,
                    options: spec.options.clone(),
                    untimed,
                    margin: Duration::from_millis(ENGINE_MARGIN_MS),
                    depth_wait: DEPTH_WAIT,
                    log: EngineLog::create(&log)?,
                };
                let bridge = Bridge::start(settings, Some(&spec.name))
                    .map_err(|f| format!("engine {:?} ({}): {f}", spec.name, spec.command))?;
                log::info!("engine {:?} is ready", spec.name);
                Program::Engine(bridge)
            }
            // Each mover its own seed: two random movers play different
            // games.
            Player::Mover { name, kind } => {
                let seed = u64::try_from(i).unwrap_or(0) + 1;
                Program::Mover(ClientProtocol::new(name, Mover::new(*kind, seed), true))
            }
            Player::Serial { .. } | Player::Tcp { .. } => return Ok(None),
        }))
    }

    /// Runs the program on a thread of its own, on the client's end of an
    /// in-process link; its name and thread.
    fn spawn(
        self,
        name: &str,
        end: std::net::TcpStream,
        settings: PortSettings,
    ) -> Result<(String, JoinHandle<()>), String> {
        let (tx, rx) = unbounded();
        let connector = Connector::InProcess(Mutex::new(Some(end)));
        let link = Link::open_with(
            "client",
            connector,
            "in-process",
            settings,
            Instant::now(),
            tx,
        )
        .map_err(|e| format!("{name}: {e}"))?;
        let label = name.to_string();
        let handle = std::thread::Builder::new()
            .name(format!("argus-player-{}", file_safe(name)))
            .spawn(move || program_thread(self, &label, &link, &rx))
            .map_err(|e| format!("{name}: cannot start its thread: {e}"))?;
        Ok((name.to_string(), handle))
    }
}

/// Plays until the referee says `disconnect` (or the link is gone).
fn program_thread(
    program: Program,
    name: &str,
    link: &Link<&'static str>,
    events: &Receiver<LinkEvent<&'static str>>,
) {
    let outcome = match program {
        Program::Engine(b) => run(link, events, b),
        Program::Mover(p) => run(link, events, p),
    };
    match outcome {
        Ok(()) => log::info!("{name}: disconnected by the referee"),
        Err(ClientError::Open(e) | ClientError::Failed(e)) => {
            log::warn!("{name}: stopped: {e}")
        }
    }
}

/// Where a player's link is, for the log: its port, `tcp:NAME`,
/// `engine:NAME` or `mover:NAME`.
fn link_name(p: &Player) -> String {
    match p {
        Player::Serial { port } => port.clone(),
        Player::Tcp { name } => format!("tcp:{name}"),
        Player::Engine(e) => format!("engine:{}", e.name),
        Player::Mover { name, .. } => format!("mover:{name}"),
    }
}

/// The listener's seats for the `tcp:NAME` players, each taking only the
/// program that signs on with its NAME: (player, connector) each.
fn listen(players: &[Player], net: &Net) -> Result<Vec<(usize, Connector)>, String> {
    let seats: Vec<(usize, String)> = players
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match p {
            Player::Tcp { name } => Some((i, name.clone())),
            _ => None,
        })
        .collect();
    if seats.is_empty() {
        return Ok(Vec::new());
    }
    let listen = net
        .listen
        .as_deref()
        .ok_or("tcp:NAME players connect to the tournament: give --listen ADDR:PORT")?;
    let addr = listen_addr(listen).map_err(|e| format!("--listen {listen}: {e}"))?;
    let allow = net
        .allow
        .iter()
        .map(|a| parse_allow(a))
        .collect::<Result<Vec<_>, _>>()?;
    let config = ListenConfig {
        allow,
        password: net.password.clone(),
        seats: seats
            .iter()
            .map(|(_, name)| (name.clone(), Some(name.clone())))
            .collect(),
    };
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
