//! The tournament's players at the edge: one link per player (a serial
//! port, a seat of the TCP listener, or an in-process link to a program
//! argus runs itself), all reporting on one channel with the player's id.
//! Engines and built-in movers run on threads of their own, each the
//! reference client (`app::client::serve`) on its end of the in-process
//! link, so they speak the protocol exactly as a cabled program does.

use std::path::Path;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, bounded, unbounded};

use crate::app::client::{Answerer, ClientError, serve};
use crate::app::links::LINK_EVENTS;
use crate::app::options::DEPTH_WAIT;
use crate::client::engine::{Bridge, EngineLog, EngineSettings, Untimed};
use crate::client::{ClientProtocol, Mover};
use crate::link::{Connector, Link, LinkEvent, ListenConfig, PortSettings, local_pair};
use crate::tournament::{Player, PlayerId};

/// How long an engine may run over its own time before it counts as hung.
const ENGINE_MARGIN: Duration = Duration::from_millis(3000);

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
    /// How each player's line is shown and credited: `None` for a link
    /// without a baud rate (TCP, in-process).
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
        let mut connectors: Vec<Option<Connector>> = players
            .iter()
            .map(|p| match p {
                Player::Serial { port } => Some(Connector::Serial {
                    path: port.clone(),
                    settings,
                }),
                _ => None,
            })
            .collect();
        let seats: Vec<(usize, String)> = players
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p {
                Player::Tcp { name } => Some((i, name.clone())),
                _ => None,
            })
            .collect();
        if !seats.is_empty() {
            let addr = net
                .listen
                .as_deref()
                .ok_or("tcp:NAME players connect to the tournament: give --listen ADDR:PORT")?;
            let addr = crate::link::Endpoint::parse(&format!("tcp-listen://{addr}"))
                .map_err(|e| format!("--listen: {e}"))?;
            let crate::link::Endpoint::Listen(addr) = addr else {
                return Err(format!("--listen {addr}: not an address to listen on"));
            };
            let allow = net
                .allow
                .iter()
                .map(|a| crate::link::parse_allow(a))
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
            for ((i, _), c) in seats.iter().zip(seated) {
                connectors[*i] = Some(c);
            }
        }
        let mut programs = Vec::new();
        for (i, p) in players.iter().enumerate() {
            let answerer: Box<dyn FnOnce() -> Program> = match p {
                Player::Engine(spec) => {
                    let settings = EngineSettings {
                        command: spec.command_line.clone(),
                        protocol: spec.protocol,
                        options: spec.options.clone(),
                        untimed,
                        margin: ENGINE_MARGIN,
                        depth_wait: DEPTH_WAIT,
                        log: EngineLog::create(
                            &log_dir.join(format!("engine-{}.log", file_safe(&spec.name))),
                        )?,
                    };
                    let bridge = Bridge::start(settings, Some(&spec.name))
                        .map_err(|f| format!("engine {:?} ({}): {f}", spec.name, spec.command))?;
                    log::info!("engine {:?} is ready", spec.name);
                    Box::new(move || Program::Engine(bridge))
                }
                Player::Mover { name, kind } => {
                    // Each mover its own seed: two random movers play
                    // different games.
                    let seed = u64::try_from(i).unwrap_or(0) + 1;
                    let protocol = ClientProtocol::new(name, Mover::new(*kind, seed), true);
                    Box::new(move || Program::Mover(protocol))
                }
                Player::Serial { .. } | Player::Tcp { .. } => continue,
            };
            let (near, far) = local_pair()
                .map_err(|e| format!("{}: cannot make an in-process link: {e}", p.name()))?;
            connectors[i] = Some(Connector::InProcess(std::sync::Mutex::new(Some(near))));
            let (ptx, prx) = unbounded();
            let link = Link::open_with(
                "client",
                Connector::InProcess(std::sync::Mutex::new(Some(far))),
                "in-process",
                settings,
                Instant::now(),
                ptx,
            )
            .map_err(|e| format!("{}: {e}", p.name()))?;
            let program = answerer();
            let name = p.name().to_string();
            let label = name.clone();
            let handle = std::thread::Builder::new()
                .name(format!("argus-player-{}", file_safe(&name)))
                .spawn(move || program.serve(&label, &link, &prx))
                .map_err(|e| format!("{name}: cannot start its thread: {e}"))?;
            programs.push((name, handle));
        }
        let mut links = Vec::new();
        let mut serial = Vec::new();
        for (i, (p, c)) in players.iter().zip(connectors).enumerate() {
            let c = c.ok_or_else(|| format!("{}: no way to reach it", p.name()))?;
            serial.push(matches!(c, Connector::Serial { .. }));
            let name = match p {
                Player::Serial { port } => port.clone(),
                Player::Tcp { name } => format!("tcp:{name}"),
                Player::Engine(e) => format!("engine:{}", e.name),
                Player::Mover { name, .. } => format!("mover:{name}"),
            };
            let link = Link::open_with(PlayerId(i), c, &name, settings, epoch, tx.clone())
                .map_err(|e| e.to_string())?;
            links.push(link);
        }
        Ok(Field {
            links,
            events,
            serial,
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
    /// Plays until the referee says `disconnect` (or the link is gone).
    fn serve(
        self,
        name: &str,
        link: &Link<&'static str>,
        events: &Receiver<LinkEvent<&'static str>>,
    ) {
        let outcome = match self {
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
}

fn run<A: Answerer>(
    link: &Link<&'static str>,
    events: &Receiver<LinkEvent<&'static str>>,
    answerer: A,
) -> Result<(), ClientError> {
    serve(link, events, answerer, Duration::ZERO, false, true)
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
