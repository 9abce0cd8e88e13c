//! Who a tournament's players are, as the command line gives them: a
//! serial port, a program that will connect over TCP and sign on by name,
//! or an engine argus starts itself behind its bridge. [`Player::parse`]
//! reads one `PLAYER`; [`players`] reads them all with their engine flags
//! ([`EngineFlags`]: `--engine-option`, `--protocol`, `--book`,
//! `--book-depth`, the search limits `--movetime`, `--depth`,
//! `--nodes`, and `--ponder`) and checks them together.
//!
//! ```text
//! /dev/ttyUSB0, COM3, serial:/dev/ttyUSB0   the program cabled to that port
//! tcp:NAME                                   the program that signs on as NAME
//! engine:NAME=CMD                            an engine argus starts (CMD [ARGS])
//! mover:NAME[=random|greedy]                 argus's built-in mover (random)
//! --engine-option NAME:OPT=VALUE             an option for engine NAME
//! --protocol NAME:uci|xboard                 engine NAME's protocol (default uci)
//! --book NAME:FILE                           engine NAME's Polyglot opening book
//! --book-depth NAME:N                        its book plays the game's first N plies
//! --movetime NAME:MS                         engine NAME thinks at most MS per move
//! --depth NAME:N                             ... searches at most N plies
//! --nodes NAME:N                             ... searches at most N nodes (UCI only)
//! --ponder NAME                              engine NAME thinks on the opponent's time
//! ```

use clap::ValueEnum;

use crate::client::MoverKind;
use crate::client::engine::process::CommandError;
use crate::client::engine::{CommandLine, Protocol, SearchLimits};
use crate::link::Endpoint;
use crate::referee::ClientId;
use crate::tournament::Form;

/// How to reach a player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Player {
    /// The program cabled to this serial port.
    Serial { port: String },
    /// The program on a TCP link argus opens itself, as a match's
    /// endpoint: argus connects to it (`tcp://HOST:PORT`) or listens for it
    /// on an address of its own (`tcp-listen://ADDRESS:PORT`). One
    /// program, as a serial port is; `text` as given.
    Socket {
        endpoint: Endpoint,
        text: String,
        /// Its name until its program signs on: `text`, or for one of a
        /// match's two seats on one listener ([`players`]) its client's
        /// letter and `text` (`A (tcp-listen://ADDR)`, as a match says a
        /// client with no name yet).
        name: String,
    },
    /// The program that connects to the tournament's TCP port and signs on
    /// with this name (`tcsi` name).
    Tcp { name: String },
    /// An engine argus starts itself.
    Engine(EngineSpec),
    /// argus's own built-in mover, run in-process (a sparring partner
    /// that needs no engine installed).
    Mover { name: String, kind: MoverKind },
}

/// An engine argus starts, with its initialization data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    /// The command as given.
    pub command: String,
    /// The command split into program and arguments.
    pub command_line: CommandLine,
    pub protocol: Protocol,
    /// `--engine-option` values, in the order given.
    pub options: Vec<(String, String)>,
    /// `--book`: the Polyglot book the bridge plays the opening from (the
    /// edge reads it).
    pub book: Option<String>,
    /// `--book-depth`: the book plays only the game's first N plies.
    pub book_depth: Option<u32>,
    /// `--movetime`, `--depth`, `--nodes`: its own search limits.
    pub limits: SearchLimits,
    /// `--ponder NAME`: it thinks on the opponent's time.
    pub ponder: bool,
}

/// The per-engine flags of a tournament, each `NAME:...` as given.
#[derive(Debug, Clone, Default)]
pub struct EngineFlags {
    /// `--engine-option NAME:OPT=VALUE`.
    pub options: Vec<String>,
    /// `--protocol NAME:uci|xboard`.
    pub protocols: Vec<String>,
    /// `--book NAME:FILE`.
    pub books: Vec<String>,
    /// `--book-depth NAME:N`.
    pub book_depths: Vec<String>,
    /// `--movetime NAME:MS`.
    pub movetimes: Vec<String>,
    /// `--depth NAME:N`.
    pub depths: Vec<String>,
    /// `--nodes NAME:N`.
    pub nodes: Vec<String>,
    /// `--ponder NAME`.
    pub ponder: Vec<String>,
}

/// The forms a PLAYER may take, for errors.
const FORMS: &str = "a serial port (/dev/ttyUSB0, COM3, serial:PORT), tcp://HOST:PORT, \
                     tcp-listen://ADDRESS:PORT, tcp:NAME, engine:NAME=CMD or \
                     mover:NAME[=random|greedy]";

/// Whether `spec` is a player only a tournament takes: `tcp:NAME`,
/// `engine:NAME=CMD` or `mover:NAME` (not a port, nor the `tcp://HOST:PORT`
/// a referee connects to).
pub fn is_tournament_only(spec: &str) -> bool {
    !spec.starts_with("tcp://")
        && ["tcp:", "engine:", "mover:"]
            .iter()
            .any(|kind| spec.starts_with(kind))
}

/// The address of the one listener both of two players are on (the same
/// `tcp-listen://` endpoint given twice, however it is spelled): a
/// match's `--listen ADDR`, whose seats its clients take in sign-on order.
pub fn one_listener_for_both(players: &[Player]) -> Option<std::net::SocketAddr> {
    match players {
        [
            Player::Socket {
                endpoint: Endpoint::Listen(a),
                ..
            },
            Player::Socket {
                endpoint: Endpoint::Listen(b),
                ..
            },
        ] if a == b => Some(*a),
        _ => None,
    }
}

fn printable(what: &'static str, text: &str) -> Result<(), PlayerFault> {
    if text.trim().is_empty() {
        return Err(PlayerFault::Blank(what));
    }
    if text.chars().any(char::is_control) {
        return Err(PlayerFault::Control {
            what,
            text: text.to_string(),
        });
    }
    Ok(())
}

/// A `PLAYER` argument that does not read: the argument as given, and
/// what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("player {spec:?}: {fault}")]
pub struct PlayerError {
    pub spec: String,
    pub fault: PlayerFault,
}

/// What is wrong with a `PLAYER` argument (or a name or file in it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerFault {
    #[error("empty: expected {FORMS}")]
    Empty,
    /// A part (`the port`, `the name`, ...) that is empty.
    #[error("{0} is empty")]
    Blank(&'static str),
    #[error("{what} {text:?} has control characters")]
    Control { what: &'static str, text: String },
    #[error("expected engine:NAME=CMD, e.g. engine:sf=/usr/games/stockfish")]
    NoCommand,
    #[error("the engine's name {0:?} has a ':' (--engine-option NAME:OPT=VALUE could not name it)")]
    ColonInName(String),
    #[error(transparent)]
    Command(#[from] CommandError),
    #[error("unknown mover {0:?}: expected random or greedy")]
    Mover(String),
    #[error("unknown kind {0:?}: expected {FORMS}")]
    Kind(String),
    /// A `tcp://` or `tcp-listen://` endpoint that does not read.
    #[error(transparent)]
    Endpoint(#[from] crate::link::EndpointError),
}

error_words!(PlayerError, PlayerFault);

impl Player {
    /// Reads one `PLAYER` argument. The error quotes it and says what the
    /// forms are.
    pub fn parse(spec: &str) -> Result<Player, PlayerError> {
        let at = |fault: PlayerFault| PlayerError {
            spec: spec.to_string(),
            fault,
        };
        if spec.trim().is_empty() {
            return Err(at(PlayerFault::Empty));
        }
        printable("the player", spec).map_err(at)?;
        if spec.starts_with("tcp://") || spec.starts_with("tcp-listen://") {
            let endpoint = Endpoint::parse(spec).map_err(|e| at(e.into()))?;
            return Ok(Player::Socket {
                endpoint,
                text: spec.into(),
                name: spec.into(),
            });
        }
        let scheme = spec
            .split_once(':')
            .filter(|(s, _)| s.len() >= 2 && s.bytes().all(|b| b.is_ascii_alphabetic()));
        let Some((scheme, rest)) = scheme else {
            return Ok(Player::Serial { port: spec.into() });
        };
        match scheme {
            "serial" => {
                printable("the port", rest).map_err(at)?;
                Ok(Player::Serial { port: rest.into() })
            }
            "tcp" => {
                printable("the name", rest).map_err(at)?;
                Ok(Player::Tcp { name: rest.into() })
            }
            "engine" => {
                let (name, command) = rest
                    .split_once('=')
                    .ok_or_else(|| at(PlayerFault::NoCommand))?;
                check_engine_name(name).map_err(at)?;
                printable("the command", command).map_err(at)?;
                let command_line = CommandLine::parse(command).map_err(|e| at(e.into()))?;
                Ok(Player::Engine(EngineSpec {
                    name: name.into(),
                    command: command.into(),
                    command_line,
                    protocol: Protocol::Uci,
                    options: Vec::new(),
                    book: None,
                    book_depth: None,
                    limits: SearchLimits::default(),
                    ponder: false,
                }))
            }
            "mover" => {
                let (name, kind) = rest.split_once('=').unwrap_or((rest, "random"));
                check_engine_name(name).map_err(at)?;
                let kind = MoverKind::from_str(kind, true)
                    .map_err(|_| at(PlayerFault::Mover(kind.to_string())))?;
                Ok(Player::Mover {
                    name: name.into(),
                    kind,
                })
            }
            other => Err(at(PlayerFault::Kind(other.to_string()))),
        }
    }

    /// The player's name until its program signs on: the port, or NAME.
    pub fn name(&self) -> &str {
        match self {
            Player::Serial { port } => port,
            Player::Socket { name, .. } => name,
            Player::Tcp { name } => name,
            Player::Engine(e) => &e.name,
            Player::Mover { name, .. } => name,
        }
    }

    /// Whether its link has a connection only once its program signs on:
    /// a seat on argus's listener (`tcp:NAME`, `tcp-listen://`), which
    /// nobody holds until then.
    pub fn seated_by_sign_on(&self) -> bool {
        matches!(
            self,
            Player::Tcp { .. }
                | Player::Socket {
                    endpoint: Endpoint::Listen(_),
                    ..
                }
        )
    }

    /// Whether the player is one program on one link argus opens (a
    /// serial port, a `tcp://` or `tcp-listen://` endpoint): it plays one
    /// game at a time, however many boards.
    pub fn is_one_program(&self) -> bool {
        matches!(self, Player::Serial { .. } | Player::Socket { .. })
    }

    /// Whether the player is a program argus starts itself (`engine:`,
    /// `mover:`).
    pub fn runs_here(&self) -> bool {
        matches!(self, Player::Engine(_) | Player::Mover { .. })
    }

    /// Where the player is, in words: its port, its endpoint,
    /// `tcp:NAME`, `engine:NAME` or `mover:NAME`.
    pub fn place(&self) -> String {
        match self {
            Player::Serial { port } => port.clone(),
            Player::Socket { text, .. } => text.clone(),
            Player::Tcp { name } => format!("tcp:{name}"),
            Player::Engine(e) => format!("engine:{}", e.name),
            Player::Mover { name, .. } => format!("mover:{name}"),
        }
    }

    /// Whether the player takes the name its program signs on with: one
    /// program on a link argus opens ([`Player::is_one_program`]), still
    /// called by where it is (`current` is its name in the event now: not
    /// one given with `--name`), or called by a name its program gave
    /// before any game of its started (`again`:
    /// [`Tournament::renamed_by_sign_on`](crate::tournament::Tournament::renamed_by_sign_on)).
    pub fn takes_sign_on_name(&self, current: &str, again: bool) -> bool {
        self.is_one_program() && (again || self.name() == current)
    }

    /// The player in the form [`Player::parse`] reads (serial ports always
    /// with `serial:`), for the journal.
    pub fn spec(&self) -> String {
        match self {
            Player::Serial { port } => format!("serial:{port}"),
            Player::Socket { text, .. } => text.clone(),
            Player::Tcp { name } => format!("tcp:{name}"),
            Player::Engine(e) => format!("engine:{}={}", e.name, e.command),
            Player::Mover { name, kind } => format!("mover:{name}={}", kind.name()),
        }
    }
}

fn check_engine_name(name: &str) -> Result<(), PlayerFault> {
    printable("the engine's name", name)?;
    if name.contains(':') {
        return Err(PlayerFault::ColonInName(name.to_string()));
    }
    Ok(())
}

/// The players and their engine flags, read together, that do not
/// agree: too few, two of one name, or a flag (quoted with its value)
/// that does not read or names no engine player.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayersError {
    #[error("a tournament needs at least 2 players ({0} given)")]
    TooFew(usize),
    #[error(transparent)]
    Player(#[from] PlayerError),
    /// Players `first` and `second` (counted from 1) share `name`.
    #[error(
        "players {first} and {second} are both named {name:?}: every player needs a name of its own"
    )]
    SameName {
        first: usize,
        second: usize,
        name: String,
    },
    /// A flag's value, as given, and what is wrong with it.
    #[error("{flag} {value:?}: {fault}")]
    Flag {
        flag: &'static str,
        value: String,
        fault: FlagFault,
    },
    /// A flag given `what` (`a book`, `a protocol`, ...) twice for one
    /// engine.
    #[error("{flag}: engine {name:?} given {what} twice")]
    Twice {
        flag: &'static str,
        name: String,
        what: &'static str,
    },
    /// An engine's search limits that its protocol does not take.
    #[error("engine {name:?}: {limits}")]
    Limits {
        name: String,
        limits: crate::client::engine::time::LimitError,
    },
    #[error("--book-depth: engine {0:?} has no --book {0}:FILE")]
    DepthWithoutBook(String),
}

/// What is wrong with one engine flag's value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FlagFault {
    /// It is not `NAME:` and this (`OPT=VALUE`, `FILE`, `MS`, ...).
    #[error("expected NAME:{0}")]
    Form(&'static str),
    /// NAME is no engine player; `engines` are the engine players' names.
    #[error("no engine player named {name:?} ({})", known_engines(.engines))]
    NoEngine { name: String, engines: Vec<String> },
    #[error("unknown protocol {0:?} (uci or xboard)")]
    Protocol(String),
    /// A file name that is empty or has control characters.
    #[error(transparent)]
    Text(#[from] PlayerFault),
    /// A number (`the depth`, `the move time in ms`, ...) given as 0.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
    #[error("{text:?} is not a whole number ({what})")]
    NotWhole { text: String, what: &'static str },
    #[error("{0:?} is not a number of plies")]
    NotPlies(String),
    #[error("{0:?}: too deep")]
    TooDeep(String),
}

error_words!(PlayersError);

fn known_engines(engines: &[String]) -> String {
    if engines.is_empty() {
        "there are none".to_string()
    } else {
        format!("engine players: {}", engines.join(", "))
    }
}

/// The error of `flag` whose value was `value`.
fn flag_error(flag: &'static str, value: &str, fault: FlagFault) -> PlayersError {
    PlayersError::Flag {
        flag,
        value: value.to_string(),
        fault,
    }
}

/// The engine player named `name` in `list`, for the flag `flag` whose
/// value was `value`.
fn engine_mut<'a>(
    list: &'a mut [Player],
    name: &str,
    flag: &'static str,
    value: &str,
) -> Result<&'a mut EngineSpec, PlayersError> {
    let engines: Vec<String> = list
        .iter()
        .filter_map(|p| match p {
            Player::Engine(e) => Some(e.name.clone()),
            _ => None,
        })
        .collect();
    list.iter_mut()
        .find_map(|p| match p {
            Player::Engine(e) if e.name == name => Some(e),
            _ => None,
        })
        .ok_or_else(|| {
            let fault = FlagFault::NoEngine {
                name: name.to_string(),
                engines,
            };
            flag_error(flag, value, fault)
        })
}

/// Reads every `PLAYER` with the engine flags: at least two players,
/// every name different, every flag naming an engine player (and the
/// protocol, book, book depth and each search limit given once per
/// engine, the limits ones its protocol takes). A match's two players may
/// be one `tcp-listen://` endpoint given twice (`argus referee --listen
/// ADDR`): its listener's two seats, A's and B's, taken in sign-on order
/// ([`one_listener_for_both`]).
pub fn players(
    specs: &[String],
    flags: &EngineFlags,
    form: Form,
) -> Result<Vec<Player>, PlayersError> {
    if specs.len() < 2 {
        return Err(PlayersError::TooFew(specs.len()));
    }
    let mut list = specs
        .iter()
        .map(|s| Player::parse(s))
        .collect::<Result<Vec<Player>, PlayerError>>()?;
    if form == Form::Match && one_listener_for_both(&list).is_some() {
        for (p, id) in list.iter_mut().zip(ClientId::BOTH) {
            if let Player::Socket { text, name, .. } = p {
                *name = format!("{} ({text})", id.letter());
            }
        }
    }
    for (i, p) in list.iter().enumerate() {
        if let Some(j) = list[..i].iter().position(|q| q.name() == p.name()) {
            return Err(PlayersError::SameName {
                first: j + 1,
                second: i + 1,
                name: p.name().to_string(),
            });
        }
    }
    for value in &flags.options {
        let flag = "--engine-option";
        let form = || flag_error(flag, value, FlagFault::Form("OPT=VALUE"));
        let (name, rest) = value.split_once(':').ok_or_else(form)?;
        let (opt, v) = rest.split_once('=').ok_or_else(form)?;
        if opt.trim().is_empty() {
            return Err(form());
        }
        engine_mut(&mut list, name, flag, value)?
            .options
            .push((opt.into(), v.into()));
    }
    once_each(
        &mut list,
        &flags.protocols,
        "--protocol",
        "a protocol",
        |e, proto| {
            e.protocol = Protocol::from_str(proto, true)
                .map_err(|_| FlagFault::Protocol(proto.to_string()))?;
            Ok(())
        },
    )?;
    once_each(&mut list, &flags.books, "--book", "a book", |e, file| {
        printable("the book's file", file)?;
        e.book = Some(file.into());
        Ok(())
    })?;
    once_each(
        &mut list,
        &flags.book_depths,
        "--book-depth",
        "a book depth",
        |e, n| match n.trim().parse::<u32>() {
            Ok(0) => Err(FlagFault::Zero("the depth")),
            Ok(d) => {
                e.book_depth = Some(d);
                Ok(())
            }
            Err(_) => Err(FlagFault::NotPlies(n.to_string())),
        },
    )?;
    once_each(
        &mut list,
        &flags.movetimes,
        "--movetime",
        "a move time",
        |e, n| {
            e.limits.movetime_ms = Some(at_least_one(n, "the move time in ms")?);
            Ok(())
        },
    )?;
    once_each(&mut list, &flags.depths, "--depth", "a depth", |e, n| {
        let d = at_least_one(n, "the depth in plies")?;
        e.limits.depth = Some(u32::try_from(d).map_err(|_| FlagFault::TooDeep(n.to_string()))?);
        Ok(())
    })?;
    once_each(
        &mut list,
        &flags.nodes,
        "--nodes",
        "a node limit",
        |e, n| {
            e.limits.nodes = Some(at_least_one(n, "the node limit")?);
            Ok(())
        },
    )?;
    for name in &flags.ponder {
        engine_mut(&mut list, name, "--ponder", name)?.ponder = true;
    }
    for p in &list {
        if let Player::Engine(e) = p {
            e.limits
                .check(e.protocol)
                .map_err(|limits| PlayersError::Limits {
                    name: e.name.clone(),
                    limits,
                })?;
        }
    }
    if let Some(e) = list.iter().find_map(|p| match p {
        Player::Engine(e) if e.book_depth.is_some() && e.book.is_none() => Some(e),
        _ => None,
    }) {
        return Err(PlayersError::DepthWithoutBook(e.name.clone()));
    }
    Ok(list)
}

/// `n` read as `what`, a whole number at least 1.
fn at_least_one(n: &str, what: &'static str) -> Result<u64, FlagFault> {
    match n.trim().parse::<u64>() {
        Ok(0) => Err(FlagFault::Zero(what)),
        Ok(v) => Ok(v),
        Err(_) => Err(FlagFault::NotWhole {
            text: n.to_string(),
            what,
        }),
    }
}

/// Hands each `NAME:VALUE` of `flag` to `set` with its engine; an engine
/// may be given `what` once. The error quotes the flag's value.
fn once_each(
    list: &mut [Player],
    values: &[String],
    flag: &'static str,
    what: &'static str,
    mut set: impl FnMut(&mut EngineSpec, &str) -> Result<(), FlagFault>,
) -> Result<(), PlayersError> {
    let mut seen = Vec::new();
    for value in values {
        let (name, v) = value
            .split_once(':')
            .ok_or_else(|| flag_error(flag, value, FlagFault::Form(form_of(flag))))?;
        let engine = engine_mut(list, name, flag, value)?;
        if seen.contains(&engine.name) {
            return Err(PlayersError::Twice {
                flag,
                name: name.to_string(),
                what,
            });
        }
        seen.push(engine.name.clone());
        set(engine, v).map_err(|fault| flag_error(flag, value, fault))?;
    }
    Ok(())
}

/// What follows `NAME:` in `flag`'s value.
fn form_of(flag: &str) -> &'static str {
    match flag {
        "--protocol" => "uci or NAME:xboard",
        "--book" => "FILE",
        "--movetime" => "MS",
        _ => "N",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_matchs_one_listener_given_twice_is_its_two_seats_named_by_client() {
        let flags = EngineFlags::default();
        let both = strings(&["tcp-listen://127.0.0.1:7000", "tcp-listen://127.0.0.1:7000"]);
        let list = players(&both, &flags, Form::Match).unwrap();
        let names: Vec<&str> = list.iter().map(Player::name).collect();
        assert_eq!(
            names,
            [
                "A (tcp-listen://127.0.0.1:7000)",
                "B (tcp-listen://127.0.0.1:7000)"
            ]
        );
        // Each is still the endpoint as given, for the journal.
        assert!(
            list.iter()
                .all(|p| p.spec() == "tcp-listen://127.0.0.1:7000")
        );
        assert_eq!(
            one_listener_for_both(&list),
            Some("127.0.0.1:7000".parse().unwrap())
        );
        // A tournament's players each need a name of their own; two
        // listeners, or a listener and a connection, are not one.
        let e = players(&both, &flags, Form::Tournament).unwrap_err();
        assert!(
            matches!(
                e,
                PlayersError::SameName {
                    first: 1,
                    second: 2,
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("both named"), "{e}");
        for other in [
            ["tcp-listen://127.0.0.1:7000", "tcp-listen://127.0.0.1:7001"],
            ["tcp-listen://127.0.0.1:7000", "tcp://127.0.0.1:7000"],
        ] {
            let list = players(&strings(&other), &flags, Form::Match).unwrap();
            assert_eq!(one_listener_for_both(&list), None, "{other:?}");
            assert_eq!(list[0].name(), other[0]);
        }
    }

    #[test]
    fn only_programs_by_name_engines_and_movers_are_tournament_only() {
        for spec in [
            "tcp:Fritz",
            "engine:sf=stockfish",
            "mover:x",
            "mover:y=greedy",
        ] {
            assert!(is_tournament_only(spec), "{spec}");
        }
        for spec in ["tcp://10.0.0.2:7000", "/dev/ttyUSB0", "COM3", "serial:COM4"] {
            assert!(!is_tournament_only(spec), "{spec}");
        }
    }

    #[test]
    fn each_form_is_read() {
        let serial = |p: &str| Player::Serial { port: p.into() };
        assert_eq!(Player::parse("/dev/ttyUSB0"), Ok(serial("/dev/ttyUSB0")));
        assert_eq!(Player::parse("COM3"), Ok(serial("COM3")));
        assert_eq!(Player::parse("serial:/dev/ttyS1"), Ok(serial("/dev/ttyS1")));
        // A by-path name has colons but is a path, not a kind.
        let by_path = "/dev/serial/by-path/pci-0000:00:14.0-usb-0:1:1.0-port0";
        assert_eq!(Player::parse(by_path), Ok(serial(by_path)));
        for text in ["tcp://10.0.0.2:7000", "tcp-listen://127.0.0.1:7001"] {
            assert_eq!(
                Player::parse(text),
                Ok(Player::Socket {
                    endpoint: Endpoint::parse(text).unwrap(),
                    text: text.into(),
                    name: text.into()
                })
            );
            assert_eq!(Player::parse(text).unwrap().spec(), text);
            assert!(Player::parse(text).unwrap().is_one_program());
        }
        let e = Player::parse("tcp://nowhere").unwrap_err();
        assert!(matches!(e.fault, PlayerFault::Endpoint(_)), "{e:?}");
        assert!(e.to_string().contains("tcp://HOST:PORT"), "{e}");
        assert_eq!(
            Player::parse("tcp:Deep Thought"),
            Ok(Player::Tcp {
                name: "Deep Thought".into()
            })
        );
        let Ok(Player::Engine(e)) = Player::parse("engine:sf=/usr/games/stockfish -q") else {
            panic!()
        };
        assert_eq!((e.name.as_str(), e.protocol), ("sf", Protocol::Uci));
        assert_eq!(e.command_line.program, "/usr/games/stockfish");
        assert_eq!(e.command_line.args, vec!["-q".to_string()]);
        assert_eq!(
            Player::parse("mover:rnd"),
            Ok(Player::Mover {
                name: "rnd".into(),
                kind: MoverKind::Random
            })
        );
        let greedy = Player::parse("mover:g=greedy").unwrap();
        assert_eq!(greedy.name(), "g");
        assert!(
            Player::parse("mover:g=clever")
                .unwrap_err()
                .to_string()
                .contains("unknown mover \"clever\"")
        );
        for spec in [
            "serial:COM3",
            "tcp:x",
            "engine:gc=gnuchess --xboard",
            "mover:g=greedy",
        ] {
            assert_eq!(Player::parse(spec).unwrap().spec(), spec);
        }
        assert_eq!(Player::parse("COM4").unwrap().spec(), "serial:COM4");
    }

    #[test]
    fn bad_players_say_what_is_wrong() {
        for (spec, want) in [
            ("", "expected a serial port"),
            ("tpc:x", "unknown kind \"tpc\": expected a serial port"),
            ("tcp:", "the name is empty"),
            ("tcp:a\u{1b}b", "has control characters"),
            ("serial:", "the port is empty"),
            ("engine:sf", "expected engine:NAME=CMD"),
            ("engine:=sf", "the engine's name is empty"),
            ("engine:a:b=sf", "has a ':'"),
            ("engine:sf=", "the command is empty"),
            ("engine:sf=\"unclosed", "player \"engine:sf=\\\"unclosed\""),
        ] {
            let e = Player::parse(spec).unwrap_err();
            assert_eq!(e.spec, spec);
            let e = e.to_string();
            assert!(e.contains(want), "{spec:?}: {e}");
        }
        assert_eq!(
            Player::parse("engine:a:b=sf").map_err(|e| e.fault),
            Err(PlayerFault::ColonInName("a:b".into()))
        );
        assert_eq!(
            Player::parse("engine:sf=").map_err(|e| e.fault),
            Err(PlayerFault::Blank("the command"))
        );
    }

    #[test]
    fn flags_go_to_their_engine_and_are_checked() {
        let specs = strings(&["COM3", "engine:sf=stockfish", "engine:gc=gnuchess", "tcp:x"]);
        let list = players(
            &specs,
            &EngineFlags {
                options: strings(&["sf:Threads=2", "sf:Hash=64", "gc:Ponder=off=really"]),
                protocols: strings(&["gc:XBoard"]),
                books: strings(&["gc:/books/gm2001.bin"]),
                book_depths: strings(&["gc:12"]),
                ..EngineFlags::default()
            },
            Form::Tournament,
        )
        .unwrap();
        let Player::Engine(sf) = &list[1] else {
            panic!()
        };
        let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        assert_eq!(sf.options, pairs(&[("Threads", "2"), ("Hash", "64")]));
        assert_eq!(sf.protocol, Protocol::Uci);
        let Player::Engine(gc) = &list[2] else {
            panic!()
        };
        assert_eq!(gc.protocol, Protocol::Xboard);
        assert_eq!(gc.options, pairs(&[("Ponder", "off=really")]));
        assert_eq!(
            (gc.book.as_deref(), gc.book_depth),
            (Some("/books/gm2001.bin"), Some(12))
        );
        assert_eq!((sf.book.as_deref(), sf.book_depth), (None, None));
        let err = |specs: &[&str], opts: &[&str], protos: &[&str]| {
            let flags = EngineFlags {
                options: strings(opts),
                protocols: strings(protos),
                ..EngineFlags::default()
            };
            players(&strings(specs), &flags, Form::Tournament)
                .unwrap_err()
                .to_string()
        };
        let book_err = |books: &[&str], depths: &[&str]| {
            let flags = EngineFlags {
                books: strings(books),
                book_depths: strings(depths),
                ..EngineFlags::default()
            };
            players(
                &strings(&["engine:sf=stockfish", "COM3"]),
                &flags,
                Form::Tournament,
            )
            .unwrap_err()
            .to_string()
        };
        for (e, want) in [
            (book_err(&["sf"], &[]), "--book \"sf\": expected NAME:FILE"),
            (
                book_err(&["sf:a.bin", "sf:b.bin"], &[]),
                "--book: engine \"sf\" given a book twice",
            ),
            (
                book_err(&["COM3:a.bin"], &[]),
                "no engine player named \"COM3\"",
            ),
            (
                book_err(&["sf:a.bin"], &["sf:0"]),
                "--book-depth \"sf:0\": the depth must be at least 1",
            ),
            (
                book_err(&["sf:a.bin"], &["sf:ten"]),
                "\"ten\" is not a number of plies",
            ),
            (
                book_err(&[], &["sf:8"]),
                "--book-depth: engine \"sf\" has no --book sf:FILE",
            ),
        ] {
            assert!(e.contains(want), "{e}");
        }
        let two = ["engine:sf=stockfish", "COM3"];
        for (e, want) in [
            (err(&["COM3"], &[], &[]), "at least 2 players (1 given)"),
            (
                err(&["COM3", "serial:COM3"], &[], &[]),
                "players 1 and 2 are both named \"COM3\"",
            ),
            (err(&two, &["sf=Threads"], &[]), "expected NAME:OPT=VALUE"),
            (err(&two, &["sf:=2"], &[]), "expected NAME:OPT=VALUE"),
            (
                err(&two, &["COM3:Hash=1"], &[]),
                "no engine player named \"COM3\" (engine players: sf)",
            ),
            (
                err(&["COM3", "COM4"], &["sf:Hash=1"], &[]),
                "(there are none)",
            ),
            (err(&two, &[], &["sf"]), "expected NAME:uci or NAME:xboard"),
            (err(&two, &[], &["sf:cecp"]), "unknown protocol \"cecp\""),
            (
                err(&two, &[], &["sf:uci", "sf:xboard"]),
                "given a protocol twice",
            ),
            (err(&["COM3", "tpc:x"], &[], &[]), "unknown kind"),
        ] {
            assert!(e.contains(want), "{e}");
        }
    }

    #[test]
    fn search_limits_go_to_their_engine_and_are_checked() {
        let specs = strings(&["engine:sf=stockfish", "engine:gc=gnuchess", "COM3"]);
        let flags = |movetimes: &[&str], depths: &[&str], nodes: &[&str]| EngineFlags {
            protocols: strings(&["gc:xboard"]),
            movetimes: strings(movetimes),
            depths: strings(depths),
            nodes: strings(nodes),
            ..EngineFlags::default()
        };
        let list = players(
            &specs,
            &flags(&["gc:1500"], &["sf:9", "gc:4"], &["sf:20000"]),
            Form::Tournament,
        )
        .unwrap();
        let limits = |i: usize| match &list[i] {
            Player::Engine(e) => e.limits,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            limits(0),
            SearchLimits {
                movetime_ms: None,
                depth: Some(9),
                nodes: Some(20_000)
            }
        );
        assert_eq!(
            limits(1),
            SearchLimits {
                movetime_ms: Some(1500),
                depth: Some(4),
                nodes: None
            }
        );
        let err = |m: &[&str], d: &[&str], n: &[&str]| {
            players(&specs, &flags(m, d, n), Form::Tournament)
                .unwrap_err()
                .to_string()
        };
        for (e, want) in [
            (
                err(&[], &[], &["gc:100"]),
                "engine \"gc\": XBoard engines take no node limit",
            ),
            (
                err(&[], &["sf:0"], &[]),
                "--depth \"sf:0\": the depth in plies must be at least 1",
            ),
            (
                err(&["sf:fast"], &[], &[]),
                "--movetime \"sf:fast\": \"fast\" is not a whole number",
            ),
            (
                err(&["sf"], &[], &[]),
                "--movetime \"sf\": expected NAME:MS",
            ),
            (
                err(&[], &[], &["sf:1", "sf:2"]),
                "--nodes: engine \"sf\" given a node limit twice",
            ),
            (
                err(&[], &[], &["COM3:5"]),
                "--nodes \"COM3:5\": no engine player named \"COM3\"",
            ),
        ] {
            assert!(e.contains(want), "{e}");
        }
    }

    #[test]
    fn ponder_goes_to_the_engines_named() {
        let specs = strings(&["engine:sf=stockfish", "engine:gc=gnuchess", "COM3"]);
        let flags = |names: &[&str]| EngineFlags {
            ponder: strings(names),
            ..EngineFlags::default()
        };
        let list = players(&specs, &flags(&["gc"]), Form::Tournament).unwrap();
        let ponder = |i: usize| match &list[i] {
            Player::Engine(e) => e.ponder,
            other => panic!("{other:?}"),
        };
        assert!(!ponder(0));
        assert!(ponder(1));
        let e = players(&specs, &flags(&["COM3"]), Form::Tournament).unwrap_err();
        assert_eq!(
            e,
            PlayersError::Flag {
                flag: "--ponder",
                value: "COM3".into(),
                fault: FlagFault::NoEngine {
                    name: "COM3".into(),
                    engines: vec!["sf".into(), "gc".into()]
                }
            }
        );
        let e = e.to_string();
        assert!(
            e.contains("--ponder \"COM3\": no engine player named \"COM3\""),
            "{e}"
        );
    }
}
