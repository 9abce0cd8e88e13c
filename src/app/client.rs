//! `argus client`: the reference client on a serial port or over TCP.

use std::io::Write;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Select, Sender, TryRecvError, unbounded};

use crate::app::options::ClientArgs;
use crate::app::{Completion, Exit, Failure};
use crate::client::engine::Bridge;
use crate::client::engine::bridge::GaveUp;
use crate::client::engine::process::Heard;
use crate::client::repeat::LastAnswer;
use crate::client::{Action, ClientProtocol, Mover};
use crate::epd::line_check::{self as check, Checked};
use crate::epd::{Fields, Operation, Record};
use crate::link::seats::password_line;
use crate::link::{
    Connector, Endpoint, Link, LinkEvent, LinkEventKind, OpenError, PortSettings, SendError,
};

/// How long the client waits for the referee's first record before it
/// signs on again.
pub const SIGN_ON_REPEAT: Duration = Duration::from_secs(3);

/// Runs `argus client`: it ends normally on `disconnect`; a bad usage, a
/// port that cannot be opened or an engine that cannot be started is a
/// usage failure, link threads that stop or an engine that fails for good
/// a failure on the way.
pub fn run(args: ClientArgs) -> Exit {
    let settings = args.line.port_settings().map_err(Failure::usage)?;
    let endpoint = Endpoint::parse(&args.port).map_err(Failure::usage)?;
    let engine = args.engine.settings().map_err(Failure::usage)?;
    let book = args.engine.book(args.seed).map_err(Failure::usage)?;
    let password = args.password.as_deref();
    let voice = if args.verbose {
        Voice::Verbose
    } else {
        Voice::Normal
    };
    let line_check = !args.no_line_check;
    let outcome = match engine {
        Some(engine) => {
            // The port is checked (opened) before the engine is started:
            // a wrong port fails at once, not after the engine's start-up.
            let (tx, rx) = unbounded();
            let link = open_link(&endpoint, settings, password, tx).map_err(Failure::usage)?;
            let bridge = Bridge::start(engine, args.name.as_deref())
                .map_err(Failure::usage)?
                .with_draw_claims(!args.no_claims)
                .with_book(book.clone());
            eprintln!("client: {}", ready_line(&bridge));
            if let Some(b) = &book {
                eprintln!("client: {}", book_line(b));
            }
            serve(&link, &rx, bridge, Duration::ZERO, voice, line_check)
        }
        None => {
            let mover = Mover::new(args.mover, args.seed);
            let name = args
                .name
                .clone()
                .unwrap_or_else(|| mover.default_name(&args.port));
            let protocol = ClientProtocol::new(&name, mover, !args.no_claims);
            let (tx, rx) = unbounded();
            let link = open_link(&endpoint, settings, password, tx).map_err(Failure::usage)?;
            serve(
                &link,
                &rx,
                protocol,
                Duration::from_millis(args.think_ms),
                voice,
                line_check,
            )
        }
    };
    exit_of(outcome)
}

/// How a client run ends: a port that cannot be opened is a usage
/// failure, anything that stops it on the way a failure.
fn exit_of(outcome: Result<(), ClientError>) -> Exit {
    match outcome {
        Ok(()) => Ok(Completion::Normal),
        Err(e @ ClientError::Open(_)) => Err(Failure::usage(e)),
        Err(e) => Err(Failure::failed(e)),
    }
}

/// What the client loop needs from the protocol logic: the reference
/// client ([`ClientProtocol`]) and the engine bridge ([`Bridge`]).
pub trait Answerer {
    /// The sign-on record.
    fn sign_on(&self) -> String;
    /// What to do about one line from the referee.
    fn handle_line(&mut self, line: &str) -> Vec<Action>;
    /// Why the client cannot go on, if so (checked after every line).
    fn failure(&self) -> Option<GaveUp> {
        None
    }
    /// While an engine searches for a move: where its output arrives (the
    /// loop waits on it beside the referee's lines) and when it is to be
    /// looked at even if it says nothing (its time is up).
    fn engine(&mut self) -> Option<(Receiver<Heard>, Instant)> {
        None
    }
    /// What to do about what the engine said (or its time being up).
    fn engine_said(&mut self) -> Vec<Action> {
        Vec::new()
    }
}

impl Answerer for ClientProtocol {
    fn sign_on(&self) -> String {
        ClientProtocol::sign_on(self)
    }

    fn handle_line(&mut self, line: &str) -> Vec<Action> {
        ClientProtocol::handle_line(self, line)
    }
}

impl Answerer for Bridge {
    fn sign_on(&self) -> String {
        Bridge::sign_on(self)
    }

    fn handle_line(&mut self, line: &str) -> Vec<Action> {
        Bridge::take_line(self, line)
    }

    fn failure(&self) -> Option<GaveUp> {
        Bridge::failure(self).cloned()
    }

    fn engine(&mut self) -> Option<(Receiver<Heard>, Instant)> {
        let due = self.engine_due()?;
        Some((self.engine_output()?.clone(), due))
    }

    fn engine_said(&mut self) -> Vec<Action> {
        Bridge::engine_said(self)
    }
}

/// The `Anak` record ("your last record reached me damaged"), with the
/// client's position fields (those of its sign-on record).
fn nak<A: Answerer>(protocol: &A) -> String {
    let fields =
        Record::parse(&protocol.sign_on()).map_or_else(|_| Fields::initial(), |r| r.fields);
    Record::new(fields)
        .with(Operation::new(check::NAK))
        .to_canonical()
}

/// How much the client says on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Voice {
    /// Nothing (the demo's clients, whose referee shows the game).
    Quiet,
    /// What matters: connections, link losses, games, the end.
    Normal,
    /// Also every record sent (`-v`): each reply, each repeated one.
    Verbose,
}

/// What the bridge plays from its book: the file, its size, the depth and
/// the seed.
fn book_line(b: &crate::client::engine::bridge::BookPlay) -> String {
    let depth = match b.depth {
        Some(d) => format!("the first {d} plies"),
        None => "as long as it has a move".into(),
    };
    format!(
        "book {}: {} entries, played {depth}, seed {}",
        b.file,
        b.book.len(),
        b.seed
    )
}

/// `engine "NAME" is ready`, with the engine's own name when the sign-on
/// name (`--name`) hides it.
fn ready_line(bridge: &Bridge) -> String {
    match bridge.own_name() {
        Some(own) if own != bridge.name() => {
            format!("engine {:?} ({own}) is ready", bridge.name())
        }
        _ => format!("engine {:?} is ready", bridge.name()),
    }
}

/// Why a client run ended badly: its port could not be opened (a usage
/// failure), or it stopped on the way.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The port could not be opened.
    #[error("{0}")]
    Open(LinkOpenError),
    /// The link's threads stopped.
    #[error("the serial link threads stopped")]
    LinkStopped,
    /// The link refused a record.
    #[error("{0}")]
    Send(SendError),
    /// The referee said `disconnect` before anything else.
    #[error(
        "disconnect before anything else: the referee refused this \
         client or has no match for it (over TCP: a wrong or missing \
         --password, a seat taken by a program of the same name, or \
         a name it does not expect; its log says which)"
    )]
    Refused,
    /// The engine failed for good.
    #[error("{0}")]
    Engine(GaveUp),
}

/// Why the client's link could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum LinkOpenError {
    /// The endpoint is one that listens (`tcp-listen://`): the client
    /// connects.
    #[error(
        "{0}: the client connects to the referee, which listens: give \
         tcp://HOST:PORT (the referee's --listen address)"
    )]
    Listens(String),
    #[error("{0}")]
    Port(OpenError),
}

/// The client's link to the referee at `endpoint`: a serial port, a TCP
/// connection made again with backoff after a drop (each one starting
/// with the password line, if there is a password).
pub fn open_link(
    endpoint: &Endpoint,
    settings: PortSettings,
    password: Option<&str>,
    tx: Sender<LinkEvent<&'static str>>,
) -> Result<Link<&'static str>, LinkOpenError> {
    let hello = password.map(password_line);
    let connector = Connector::to(endpoint, settings, hello)
        .ok_or_else(|| LinkOpenError::Listens(endpoint.to_string()))?;
    let name = endpoint.to_string();
    Link::open_with("client", connector, &name, settings, Instant::now(), tx)
        .map_err(LinkOpenError::Port)
}

/// Runs a reference client on `port` until the referee sends
/// `disconnect`. It signs on at start and again whenever its link comes
/// back after a loss (the referee then brings it back in line). With
/// `line_check`, every line it sends carries the `Acrc` check
/// (`epd::line_check`).
pub fn run_on_port<A: Answerer>(
    port: &str,
    settings: PortSettings,
    protocol: A,
    think: Duration,
    voice: Voice,
    line_check: bool,
) -> Result<(), ClientError> {
    let (tx, rx) = unbounded();
    let link = Link::open("client", port, settings, Instant::now(), tx)
        .map_err(|e| ClientError::Open(LinkOpenError::Port(e)))?;
    serve(&link, &rx, protocol, think, voice, line_check)
}

/// The client loop on an open link. A record from the referee whose
/// `Acrc` check is wrong was damaged on the way: it is ignored, and (with
/// `line_check`) the client says so with an `Anak` record, after which the
/// referee sends the client on move its respond again. A respond that
/// repeats the one just answered gets the same reply at once
/// ([`LastAnswer`]): the engine is not asked twice.
pub fn serve<A: Answerer>(
    link: &Link<&'static str>,
    events: &Receiver<LinkEvent<&'static str>>,
    protocol: A,
    think: Duration,
    voice: Voice,
    line_check: bool,
) -> Result<(), ClientError> {
    let mut client = Serving {
        link,
        protocol,
        think,
        voice,
        line_check,
        seq: 0,
        last: LastAnswer::default(),
        heard: false,
        unreachable: false,
    };
    client.sign_on()?;
    // Until the referee answers, sign on again now and then: a referee that
    // started after us clears its stale input and never saw the first one.
    let mut quiet_since = Instant::now();
    loop {
        // An engine's lines are waited for beside the referee's, on this
        // thread, so the referee's lines are read while it thinks (a game
        // may end meanwhile) and its move is replied as it comes.
        let engine = client.protocol.engine();
        let repeat = quiet_since + SIGN_ON_REPEAT;
        let mut wait = Select::new();
        let referee = wait.recv(events);
        if let Some((output, _)) = &engine {
            wait.recv(output);
        }
        let due = engine.as_ref().map_or(repeat, |(_, due)| repeat.min(*due));
        let flow = match wait.ready_deadline(due) {
            Ok(i) if i == referee => match events.try_recv() {
                Ok(ev) => {
                    quiet_since = Instant::now();
                    client.link.took(&ev.kind);
                    client.on_event(ev.kind)?
                }
                Err(TryRecvError::Empty) => ControlFlow::Continue(()),
                Err(TryRecvError::Disconnected) => {
                    return Err(ClientError::LinkStopped);
                }
            },
            Ok(_) => client.engine_said()?,
            Err(_) if engine.is_some() && Instant::now() < repeat => client.engine_said()?,
            Err(_) => {
                quiet_since = Instant::now();
                // Not while no connection can be made: the link says why,
                // and the sign-on waiting in it goes out once one is.
                if !client.heard && !client.unreachable {
                    client.say("no answer from the referee yet: signing on again");
                    client.sign_on()?;
                }
                ControlFlow::Continue(())
            }
        };
        if flow.is_break() {
            return Ok(());
        }
    }
}

/// The client loop's state: what [`serve`] answers with.
struct Serving<'a, A> {
    link: &'a Link<&'static str>,
    protocol: A,
    think: Duration,
    voice: Voice,
    line_check: bool,
    /// The last record's number (the client numbers its records only for
    /// the link's reports).
    seq: u64,
    last: LastAnswer,
    /// Whether the referee has said anything since the link came (up).
    heard: bool,
    /// The link cannot make its connection (it said why, and keeps
    /// trying).
    unreachable: bool,
}

impl<A: Answerer> Serving<'_, A> {
    /// Says `s` on stderr (not when quiet).
    fn say(&self, s: &str) {
        if self.voice != Voice::Quiet {
            // One write (eprintln! writes its pieces one by one).
            let line = format!("client: {s}\n");
            let _ = std::io::stderr().write_all(line.as_bytes());
        }
    }

    /// Says `s` only when verbose (`-v`): every record sent.
    fn detail(&self, s: &str) {
        if self.voice == Voice::Verbose {
            self.say(s);
        }
    }

    fn send(&mut self, mut text: String) -> Result<(), ClientError> {
        if self.line_check {
            check::append(&mut text);
        }
        self.seq = self.seq.wrapping_add(1);
        self.link.send(self.seq, text).map_err(ClientError::Send)
    }

    fn sign_on(&mut self) -> Result<(), ClientError> {
        let record = self.protocol.sign_on();
        self.send(record)
    }

    /// What the engine said while it searched: its reply once it is in.
    fn engine_said(&mut self) -> Result<ControlFlow<()>, ClientError> {
        let actions = self.protocol.engine_said();
        self.carry_out(actions, false)
    }

    /// Says a line was damaged (`Anak`), with the line check on.
    fn nak(&mut self) -> Result<(), ClientError> {
        if self.line_check {
            let record = nak(&self.protocol);
            self.send(record)?;
        }
        Ok(())
    }

    /// One event of the link; `Break` once the session is over.
    fn on_event(&mut self, kind: LinkEventKind) -> Result<ControlFlow<()>, ClientError> {
        match kind {
            LinkEventKind::Line { text, .. } => return self.on_line(&text),
            LinkEventKind::Dropped { reason, .. } => {
                self.say(&format!("dropped a line: {reason}"));
                self.nak()?;
            }
            LinkEventKind::Lost { reason, .. } => self.say(&format!("link lost: {reason}")),
            LinkEventKind::Connected { peer, .. } => {
                self.unreachable = false;
                self.say(&format!("connected to {peer}"));
            }
            LinkEventKind::Back { .. } => {
                self.heard = false;
                self.say("link back: signing on again");
                self.sign_on()?;
            }
            LinkEventKind::SendFailed { reason, .. } => {
                self.say(&format!("a record was not sent: {reason}"))
            }
            LinkEventKind::Unreachable { message } => {
                self.unreachable = true;
                self.say(&message);
            }
            LinkEventKind::Error { message } => self.say(&message),
            LinkEventKind::Sent { .. } | LinkEventKind::Receiving { .. } => {}
        }
        Ok(ControlFlow::Continue(()))
    }

    /// A line from the referee: checked, then answered.
    fn on_line(&mut self, text: &str) -> Result<ControlFlow<()>, ClientError> {
        let first = !self.heard;
        self.heard = true;
        let record = match check::verify(text) {
            Checked::Valid(payload) => payload,
            Checked::Absent => text,
            Checked::Invalid(why) => {
                self.say(&format!("ignored a damaged record ({why})"));
                self.nak()?;
                return Ok(ControlFlow::Continue(()));
            }
        };
        if let Some(r) = self.last.repeat_for(record) {
            self.detail(&format!("the same respond again; the same reply: {r}"));
            self.send(r)?;
            return Ok(ControlFlow::Continue(()));
        }
        let actions = self.protocol.handle_line(record);
        self.carry_out(actions, first)
    }

    /// Does what the protocol asks, then checks that it can go on.
    fn carry_out(
        &mut self,
        actions: Vec<Action>,
        first: bool,
    ) -> Result<ControlFlow<()>, ClientError> {
        for action in actions {
            if self.act(action, first)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        match self.protocol.failure() {
            Some(why) => Err(ClientError::Engine(why)),
            None => Ok(ControlFlow::Continue(())),
        }
    }

    /// Does what the protocol asks; `Break` on `disconnect`.
    fn act(&mut self, action: Action, first: bool) -> Result<ControlFlow<()>, ClientError> {
        match action {
            Action::Reply(r) => {
                if !self.think.is_zero() {
                    std::thread::sleep(self.think);
                }
                // What the client really sent, before any line
                // noise: tests compare it with the PGN. Said once it
                // is on its way, not before.
                let said = format!("reply: {r}");
                self.last.answered(&r);
                let sent = self.send(r);
                self.detail(&said);
                sent?;
            }
            Action::Send(r) => self.send(r)?,
            Action::Log(s) => self.say(&s),
            Action::Disconnect if first => {
                // Over TCP, what a listener sends a connection
                // it refuses; on a cable, a match already over. A
                // failure: the client played nothing.
                return Err(ClientError::Refused);
            }
            Action::Disconnect => {
                self.say("disconnect: the referee ended the session");
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    #[test]
    fn the_nak_record_carries_the_clients_position_and_no_refreq() {
        use crate::client::{ClientProtocol, Mover, MoverKind};
        use crate::epd::Record;
        use crate::epd::line_check::NAK;
        let mut p = ClientProtocol::new("x", Mover::new(MoverKind::Random, 1), false);
        let r = Record::parse(&super::nak(&p)).expect("the NAK parses");
        assert!(r.has(NAK));
        assert_eq!(r.refreq().ok().flatten(), None);
        assert_eq!(r.fields, crate::epd::Fields::initial());
        // After a reset to another position, the NAK carries that one.
        let fen = "4k3/8/8/8/8/8/4P3/4K3 w - -";
        p.handle_line(&format!("{fen} refcom reset;"));
        let r = Record::parse(&super::nak(&p)).expect("the NAK parses");
        assert_eq!(r.fields.placement, "4k3/8/8/8/8/8/4P3/4K3");
    }

    use crate::app::options::BookError;
    use crate::app::options::ClientArgs;
    use crate::client::engine::{Protocol, SearchLimits};

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: ClientArgs,
    }

    fn parse(args: &[&str]) -> Result<ClientArgs, String> {
        let all = std::iter::once("client").chain(args.iter().copied());
        Cli::try_parse_from(all)
            .map(|c| c.args)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn engine_flags_become_bridge_settings() {
        let a = parse(&[
            "/dev/ttyS0",
            "--engine",
            "crafty 'x y'",
            "--protocol",
            "xboard",
            "--option",
            "Hash=64",
            "--option",
            "Book File=a=b",
            "--depth",
            "7",
        ])
        .unwrap();
        let s = a.engine.settings().unwrap().unwrap();
        assert_eq!(s.command.program, "crafty");
        assert_eq!(s.command.args, ["x y"]);
        assert_eq!(s.protocol, Protocol::Xboard);
        assert_eq!(
            s.options,
            [
                ("Hash".to_string(), "64".to_string()),
                ("Book File".to_string(), "a=b".to_string())
            ]
        );
        assert_eq!(s.limits, SearchLimits::depth(7));
        let s = parse(&["p", "--engine", "sf", "--movetime", "250"])
            .unwrap()
            .engine
            .settings()
            .unwrap()
            .unwrap();
        assert_eq!(s.limits, SearchLimits::movetime(250));
        assert_eq!(s.protocol, Protocol::Uci);
        // All three together: the engine stops at whichever comes first.
        let s = parse(&[
            "p",
            "--engine",
            "sf",
            "--movetime",
            "900",
            "--depth",
            "12",
            "--nodes",
            "50000",
        ])
        .unwrap()
        .engine
        .settings()
        .unwrap()
        .unwrap();
        assert_eq!(
            s.limits,
            SearchLimits {
                movetime_ms: Some(900),
                depth: Some(12),
                nodes: Some(50_000)
            }
        );
    }

    #[test]
    fn a_port_that_cannot_be_opened_is_a_usage_failure_anything_later_a_failure() {
        use super::{ClientError, LinkOpenError, exit_of};
        use crate::exit::{EXIT_FAILED, EXIT_USAGE, code};
        let listens = ClientError::Open(LinkOpenError::Listens("tcp-listen://:4000".into()));
        let said = listens.to_string();
        let exit = exit_of(Err(listens));
        assert_eq!(code(&exit), EXIT_USAGE);
        assert!(
            said.contains("the client connects to the referee"),
            "{said}"
        );
        for later in [ClientError::LinkStopped, ClientError::Refused] {
            assert_eq!(code(&exit_of(Err(later))), EXIT_FAILED);
        }
        assert!(exit_of(Ok(())).is_ok());
    }

    #[test]
    fn bad_engine_flags_say_what_is_wrong() {
        use crate::app::options::EngineFlagError;
        let settings = |args: &[&str]| parse(args).unwrap().engine.settings().map(|_| ());
        let e = settings(&["p", "--engine", "sf", "--option", "Hash"]).unwrap_err();
        assert!(
            matches!(&e, EngineFlagError::Option(o) if o == "Hash"),
            "{e}"
        );
        assert!(e.to_string().contains("NAME=VALUE"), "{e}");
        let e = settings(&["p", "--engine", "sf", "--depth", "0"]).unwrap_err();
        assert!(matches!(e, EngineFlagError::Limits(_)), "{e}");
        assert!(e.to_string().contains("--depth"), "{e}");
        let e = settings(&[
            "p",
            "--engine",
            "gnuchess",
            "--protocol",
            "xboard",
            "--nodes",
            "9",
        ])
        .unwrap_err();
        assert!(matches!(e, EngineFlagError::Limits(_)), "{e}");
        assert!(
            e.to_string().contains("XBoard engines take no node limit"),
            "{e}"
        );
        let e = settings(&["p", "--engine", "  "]).unwrap_err();
        assert!(matches!(e, EngineFlagError::Command(_)), "{e}");
        assert!(e.to_string().contains("empty"), "{e}");
        // Engine flags need --engine.
        assert!(parse(&["p", "--depth", "3"]).is_err());
        assert!(parse(&["p", "--nodes", "3"]).is_err());
        // Without --engine: no bridge.
        let a = parse(&["p"]).unwrap();
        assert!(a.engine.settings().unwrap().is_none());
        assert_eq!(a.name, None);
    }

    #[test]
    fn a_book_flag_reads_the_book_and_a_bad_one_is_refused_with_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = |name: &str| dir.path().join(name).display().to_string();
        let start = shakmaty::Chess::default();
        let e4 = crate::client::book::Entry {
            key: crate::client::book::polyglot_key(&start),
            mv: (1 << 9 | 4 << 6) | (3 << 3 | 4),
            weight: 1,
            learn: 0,
        };
        std::fs::write(path("ok.bin"), e4.to_bytes()).unwrap();
        let book = |file: &str, more: &[&str]| {
            let mut args = vec!["p", "--engine", "sf", "--book", file];
            args.extend(more);
            parse(&args).unwrap().engine.book(9)
        };
        let b = book(&path("ok.bin"), &["--book-depth", "6"])
            .unwrap()
            .unwrap();
        assert_eq!((b.book.len(), b.depth, b.seed), (1, Some(6), 9));
        assert!(b.file.ends_with("ok.bin"), "{}", b.file);
        let b = book(&path("ok.bin"), &[]).unwrap().unwrap();
        assert_eq!(b.depth, None, "no depth: as long as the book has a move");
        let none = parse(&["p", "--engine", "sf"]).unwrap().engine.book(9);
        assert!(none.unwrap().is_none());
        std::fs::write(path("bad.bin"), [0u8; 20]).unwrap();
        let e = book(&path("bad.bin"), &[]).unwrap_err();
        assert!(matches!(e, BookError::Book(_)), "{e:?}");
        let e = e.to_string();
        assert!(
            e.starts_with(&format!("book {}: not a Polyglot book", path("bad.bin"))),
            "{e}"
        );
        let e = book(&path("none.bin"), &[]).unwrap_err().to_string();
        assert!(e.contains("none.bin") && e.contains("cannot open"), "{e}");
        let e = book(&path("ok.bin"), &["--book-depth", "0"]).unwrap_err();
        assert!(
            matches!(&e, BookError::ZeroDepth(flag) if flag == "--book-depth"),
            "{e:?}"
        );
        let e = e.to_string();
        assert!(e.contains("--book-depth must be at least 1"), "{e}");
        // --book needs --engine, --book-depth needs --book.
        assert!(parse(&["p", "--book", "x.bin"]).is_err());
        assert!(parse(&["p", "--engine", "sf", "--book-depth", "4"]).is_err());
    }

    /// The bridge on the far end of an in-process link, served by
    /// [`super::serve`] on a thread of its own, as a tournament runs an
    /// `engine:` player; the test plays the referee on the near end.
    mod served_engine {
        use std::time::{Duration, Instant};

        use crossbeam_channel::{Receiver, unbounded};

        use crate::app::client::{Voice, serve};
        use crate::client::engine::{
            Bridge, CommandLine, EngineLog, EngineSettings, Protocol, SearchLimits,
        };
        use crate::epd::{Record, RefReq};
        use crate::link::{Link, LinkEvent, LinkEventKind, LocalEnd, PortSettings};

        const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

        /// A UCI engine in `sh` whose answer to `go` is `on_go`, to `stop`
        /// `on_stop` (shell commands; `$n` counts the `go`s).
        fn engine(on_go: &str, on_stop: &str, log: EngineLog) -> Bridge {
            let script = format!(
                "n=0; while read l; do case \"$l\" in \
                 uci) echo 'id name sh'; echo uciok;; \
                 isready) echo readyok;; \
                 go*) n=$((n+1)); {on_go};; \
                 stop) {on_stop};; \
                 quit) exit 0;; esac; done"
            );
            let settings = EngineSettings {
                command: CommandLine {
                    program: "sh".into(),
                    args: vec!["-c".into(), script],
                },
                protocol: Protocol::Uci,
                options: Vec::new(),
                limits: SearchLimits::depth(1),
                margin: Duration::from_secs(60),
                depth_wait: Duration::from_secs(60),
                log,
                ponder: false,
            };
            Bridge::start(settings, None).unwrap_or_else(|f| panic!("{f}"))
        }

        /// The referee's end of a served bridge.
        struct Referee {
            link: Link<&'static str>,
            events: Receiver<LinkEvent<&'static str>>,
            served: std::thread::JoinHandle<()>,
        }

        impl Referee {
            fn serve(bridge: Bridge) -> Referee {
                let epoch = Instant::now();
                let (near_tx, events) = unbounded();
                let (far_tx, far_rx) = unbounded();
                let end = |id, events| LocalEnd {
                    id,
                    path: format!("engine:{id}"),
                    epoch,
                    events,
                };
                let (link, far) = Link::in_process(
                    end("referee", near_tx),
                    end("sh", far_tx),
                    PortSettings::default(),
                );
                let served = std::thread::spawn(move || {
                    serve(&far, &far_rx, bridge, Duration::ZERO, Voice::Quiet, false)
                        .expect("the client loop ends on disconnect");
                });
                Referee {
                    link,
                    events,
                    served,
                }
            }

            fn send(&self, ops: &str) {
                self.link
                    .send(0, format!("{START} {ops}"))
                    .expect("the link takes the record");
            }

            /// The client's next record (a reply or a fault report), 20 s
            /// at most.
            fn next_record(&self) -> Record {
                let until = Instant::now() + Duration::from_secs(20);
                loop {
                    let ev = self
                        .events
                        .recv_deadline(until)
                        .expect("a record from the client in time");
                    if let LinkEventKind::Line { text, .. } = ev.kind {
                        let r = Record::parse(&text).expect("the client sends records");
                        if r.refreq()
                            .ok()
                            .flatten()
                            .is_some_and(|q| q != RefReq::SignOn)
                        {
                            return r;
                        }
                    }
                }
            }

            fn disconnect(self) {
                self.send("refcom disconnect;");
                self.served.join().expect("the client loop ends");
            }
        }

        fn token(r: &Record, opcode: &str) -> Option<String> {
            r.op(opcode)
                .and_then(|op| op.operands.first())
                .map(|t| t.text().to_string())
        }

        /// The engine's move comes back from the loop that reads the
        /// referee's lines (no search thread between): the reply has the
        /// move, the score of its last `info`, and `Asearch`, the engine's
        /// own time from `go` out to `bestmove` read, here its 0.3 s.
        #[test]
        fn the_engines_move_is_replied_with_its_own_search_time() {
            let b = engine(
                "sleep 0.3; echo 'info depth 1 score cp 17 time 300 pv e2e4'; echo 'bestmove e2e4'",
                "true",
                EngineLog::none(),
            );
            let referee = Referee::serve(b);
            referee.send("refcom reset;");
            referee.send("refcom respond;");
            let r = referee.next_record();
            assert_eq!(r.refreq().ok().flatten(), Some(RefReq::Reply), "{r}");
            assert_eq!(r.sm().unwrap(), Some("e4"), "{r}");
            assert_eq!(token(&r, "ce").as_deref(), Some("17"), "{r}");
            let searched: u64 = token(&r, crate::epd::SEARCH_TIME)
                .and_then(|t| t.parse().ok())
                .unwrap_or_else(|| panic!("no Asearch: {r}"));
            assert!((300..5_000).contains(&searched), "{r}");
            referee.disconnect();
        }

        /// A record from the referee is read while the engine thinks: this
        /// engine answers `go` only when told to `stop`, so its first search
        /// ends only because the loop read the referee's `conclude` and
        /// stopped it; its late move is dropped, no fault is reported, and
        /// the next game's move (its second `go`, answered at once) is the
        /// one replied.
        #[test]
        fn a_record_from_the_referee_is_read_while_the_engine_thinks() {
            let dir = tempfile::tempdir().unwrap();
            let log_path = dir.path().join("engine.log");
            let log = EngineLog::create(&log_path).unwrap();
            let b = engine(
                "if [ $n -gt 1 ]; then echo 'bestmove d2d4'; fi",
                "echo 'bestmove e2e4'",
                log,
            );
            let referee = Referee::serve(b);
            referee.send("refcom reset;");
            referee.send("refcom respond;");
            // The engine thinks (it says nothing until stopped).
            std::thread::sleep(Duration::from_millis(200));
            referee.send("refcom conclude;");
            referee.send("refcom reset;");
            referee.send("refcom respond;");
            let r = referee.next_record();
            assert_eq!(r.refreq().ok().flatten(), Some(RefReq::Reply), "{r}");
            assert_eq!(r.sm().unwrap(), Some("d4"), "{r}");
            referee.disconnect();
            let elog = std::fs::read_to_string(&log_path).unwrap();
            assert!(elog.contains("> stop"), "{elog}");
        }
    }
}
