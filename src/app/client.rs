//! `argus client`: the reference client on a serial port.

use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};

use crate::app::options::ClientArgs;
use crate::client::{Action, ClientProtocol, Mover};
use crate::link::{Link, LinkEvent, LinkEventKind, PortSettings};

/// How long the client waits for the referee's first record before it
/// signs on again.
pub const SIGN_ON_REPEAT: Duration = Duration::from_secs(3);

/// Runs `argus client`; returns the exit status (0 after `disconnect`,
/// 2 when the port cannot be opened, 1 when the link threads stop).
pub fn main(args: ClientArgs) -> u8 {
    let settings = match args.line.port_settings() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("argus client: {e}");
            return 2;
        }
    };
    let protocol = ClientProtocol::new(
        &args.name,
        Mover::new(args.mover, args.seed),
        !args.no_claims,
    );
    let verbose = true;
    match run(
        &args.port,
        settings,
        protocol,
        Duration::from_millis(args.think_ms),
        verbose,
    ) {
        Ok(()) => 0,
        Err(ClientError::Open(e)) => {
            eprintln!("argus client: {e}");
            2
        }
        Err(ClientError::Failed(e)) => {
            eprintln!("argus client: {e}");
            1
        }
    }
}

/// Why a client run ended badly.
#[derive(Debug)]
pub enum ClientError {
    /// The port could not be opened.
    Open(String),
    /// The link stopped.
    Failed(String),
}

/// Runs a reference client on `port` until the referee sends
/// `disconnect`. It signs on at start and again whenever its link comes
/// back after a loss (the referee then brings it back in line).
pub fn run(
    port: &str,
    settings: PortSettings,
    protocol: ClientProtocol,
    think: Duration,
    verbose: bool,
) -> Result<(), ClientError> {
    let (tx, rx) = unbounded();
    let link = Link::open("client", port, settings, Instant::now(), tx)
        .map_err(|e| ClientError::Open(e.to_string()))?;
    serve(&link, &rx, protocol, think, verbose)
}

/// The client loop on an open link.
pub fn serve(
    link: &Link,
    events: &Receiver<LinkEvent>,
    mut protocol: ClientProtocol,
    think: Duration,
    verbose: bool,
) -> Result<(), ClientError> {
    let say = |s: &str| {
        if verbose {
            eprintln!("client: {s}");
        }
    };
    let send = |text: String| {
        link.send(text)
            .map_err(|e| ClientError::Failed(e.to_string()))
    };
    send(protocol.sign_on())?;
    // Until the referee answers, sign on again now and then: a referee that
    // started after us clears its stale input and never saw the first one.
    let mut heard = false;
    loop {
        let ev = match events.recv_timeout(SIGN_ON_REPEAT) {
            Ok(ev) => ev,
            Err(RecvTimeoutError::Timeout) => {
                if !heard {
                    say("no answer from the referee yet: signing on again");
                    send(protocol.sign_on())?;
                }
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(ClientError::Failed(
                    "the serial link threads stopped".into(),
                ));
            }
        };
        match ev.kind {
            LinkEventKind::Line { text, .. } => {
                heard = true;
                for action in protocol.handle_line(&text) {
                    match action {
                        Action::Reply(r) => {
                            if !think.is_zero() {
                                std::thread::sleep(think);
                            }
                            send(r)?;
                        }
                        Action::Send(r) => send(r)?,
                        Action::Log(s) => say(&s),
                        Action::Disconnect => {
                            say("disconnect: the referee ended the session");
                            return Ok(());
                        }
                    }
                }
            }
            LinkEventKind::Dropped { reason, .. } => say(&format!("dropped a line: {reason}")),
            LinkEventKind::Lost { reason, .. } => say(&format!("link lost: {reason}")),
            LinkEventKind::Back { .. } => {
                heard = false;
                say("link back: signing on again");
                send(protocol.sign_on())?;
            }
            LinkEventKind::SendFailed { reason, .. } => {
                say(&format!("a record was not sent: {reason}"))
            }
            LinkEventKind::Error { message } => say(&message),
            LinkEventKind::Sent { .. } => {}
        }
    }
}
