//! Ctrl-C, SIGTERM and SIGHUP as a channel, so that every command's loop can
//! end cleanly by selecting on it, and say which signal ended it.

use crossbeam_channel::{Receiver, unbounded};

/// What asked the process to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// SIGINT: Ctrl-C in the terminal (or `kill -INT`).
    Interrupt,
    /// SIGTERM: `kill`, a service manager, a shutdown.
    Terminate,
    /// SIGHUP: the terminal went away.
    HangUp,
    /// The board's terminal was found gone (read as a hang-up) without a
    /// signal: a hang-up all the same.
    TerminalLost,
}

impl Stop {
    /// The signal by name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Stop::Interrupt => "Ctrl-C (SIGINT)",
            Stop::Terminate => "SIGTERM",
            Stop::HangUp => "SIGHUP",
            Stop::TerminalLost => "the terminal hung up",
        }
    }
}

/// A channel that receives a [`Stop`] each time the process is asked to
/// stop (Ctrl-C, SIGTERM, SIGHUP). If the handler cannot be installed (it
/// can be only once per process), `program` says so on stderr and the
/// channel never fires: the process then stops the default way.
pub fn stop_requests(program: &str) -> Receiver<Stop> {
    let (tx, rx) = unbounded();
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
            Ok(mut signals) => {
                let spawned = std::thread::Builder::new()
                    .name("signals".into())
                    .spawn(move || {
                        for sig in signals.forever() {
                            let stop = match sig {
                                SIGTERM => Stop::Terminate,
                                SIGHUP => Stop::HangUp,
                                _ => Stop::Interrupt,
                            };
                            if tx.send(stop).is_err() {
                                return;
                            }
                        }
                    });
                if let Err(e) = spawned {
                    eprintln!("{program}: cannot watch for signals: {e}");
                }
            }
            Err(e) => eprintln!("{program}: cannot catch Ctrl-C or SIGTERM: {e}"),
        }
    }
    #[cfg(not(unix))]
    if let Err(e) = ctrlc::set_handler(move || {
        let _ = tx.send(Stop::Interrupt);
    }) {
        eprintln!("{program}: cannot catch Ctrl-C: {e}");
    }
    rx
}
