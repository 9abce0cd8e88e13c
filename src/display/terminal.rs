//! The terminal's lifecycle: raw mode and the alternate screen on start,
//! and the terminal given back on quit, on error (the guard's `Drop`) and on
//! panic (a hook that restores first, then runs the previous hook).

use std::io::{self, Stdout};
use std::mem::ManuallyDrop;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

use crossterm::cursor::{Hide, Show};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use super::input::Ready;

/// The terminal type the live board draws on.
pub type Tui = Terminal<CrosstermBackend<Stdout>>;

/// Whether this process has the terminal in raw mode / alternate screen.
static ACTIVE: AtomicBool = AtomicBool::new(false);
/// Guards the one-time installation of the panic hook.
static HOOK: Once = Once::new();

/// Owns the terminal while the live board is shown; gives it back (cooked
/// mode, main screen, cursor shown) when dropped, so an early return with
/// `?` leaves the terminal usable.
pub struct TerminalGuard {
    /// Dropped only while the terminal is there: ratatui's own drop shows
    /// the cursor and, when that fails, prints to stderr, which panics on
    /// a terminal that hung up.
    terminal: ManuallyDrop<Tui>,
}

impl TerminalGuard {
    /// Installs the panic hook (once per process), switches the terminal to
    /// raw mode and the alternate screen, and hides the cursor. On failure
    /// whatever was already changed is undone and the error says which step
    /// failed.
    pub fn init() -> io::Result<TerminalGuard> {
        install_panic_hook();
        enable_raw_mode().map_err(|e| step_error("switch the terminal to raw mode", e))?;
        ACTIVE.store(true, Ordering::SeqCst);
        let setup = execute!(io::stdout(), EnterAlternateScreen, Hide)
            .map_err(|e| step_error("enter the alternate screen", e))
            .and_then(|()| {
                Terminal::new(CrosstermBackend::new(io::stdout()))
                    .map_err(|e| step_error("set up the terminal", e))
            });
        match setup {
            Ok(terminal) => Ok(TerminalGuard {
                terminal: ManuallyDrop::new(terminal),
            }),
            Err(e) => {
                // Best effort: the first error is the one worth reporting.
                let _ = restore();
                Err(e)
            }
        }
    }

    /// The terminal to draw on.
    pub fn terminal(&mut self) -> &mut Tui {
        &mut self.terminal
    }

    /// Gives the terminal back now and reports a failure (dropping the guard
    /// does the same but can only ignore errors).
    pub fn restore(self) -> io::Result<()> {
        restore()
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        // Nothing useful can be done with an error while dropping.
        let _ = restore();
        if !hung_up() {
            // SAFETY: dropped once, here, and never used again.
            unsafe { ManuallyDrop::drop(&mut self.terminal) };
        }
    }
}

/// Gives the terminal back: leaves raw mode and the alternate screen and
/// shows the cursor. Does nothing if this process did not take the terminal
/// (or gave it back already), so calling it twice is harmless.
pub fn restore() -> io::Result<()> {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return Ok(());
    }
    // Raw mode first: it matters most for the shell afterwards. Try every
    // step even if one fails, and report the first failure.
    let raw = disable_raw_mode().map_err(|e| step_error("leave raw mode", e));
    let screen = execute!(io::stdout(), LeaveAlternateScreen, Show)
        .map_err(|e| step_error("leave the alternate screen", e));
    raw.and(screen)
}

/// Installs, once per process, a panic hook that gives the terminal back
/// before the previous hook prints the panic message (which would otherwise
/// be lost in the alternate screen). [`TerminalGuard::init`] calls it.
pub fn install_panic_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let _ = restore();
            previous(info);
        }));
    });
}

/// Waits up to `timeout` for the terminal's input (the one crossterm reads:
/// stdin when it is a terminal, else `/dev/tty`) to be readable; says
/// [`Ready::HungUp`] once the terminal hung up. Only looks: reads nothing.
pub fn wait_readable(timeout: std::time::Duration) -> io::Result<Ready> {
    #[cfg(unix)]
    {
        let fd = input_fd()?;
        let ms = i32::try_from(timeout.as_millis()).unwrap_or(i32::MAX);
        look(fd, libc::POLLIN, ms)
    }
    #[cfg(not(unix))]
    {
        Ok(if crossterm::event::poll(timeout)? {
            Ready::Event
        } else {
            Ready::Nothing
        })
    }
}

/// Whether the terminal the board is drawn on (stdout) or read from has
/// hung up: a failed draw is then a hang-up, not a fault.
pub fn hung_up() -> bool {
    #[cfg(unix)]
    {
        let input = input_fd().map(|fd| look(fd, 0, 0));
        matches!(look(libc::STDOUT_FILENO, 0, 0), Ok(Ready::HungUp))
            || matches!(input, Ok(Ok(Ready::HungUp)))
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// The terminal's input, as crossterm chooses it: stdin when it is a
/// terminal, else `/dev/tty` (opened once and kept).
#[cfg(unix)]
fn input_fd() -> io::Result<std::os::fd::RawFd> {
    use std::os::fd::AsRawFd;
    use std::sync::OnceLock;
    static TTY: OnceLock<io::Result<std::fs::File>> = OnceLock::new();
    // SAFETY: isatty only inspects the descriptor.
    if unsafe { libc::isatty(libc::STDIN_FILENO) } == 1 {
        return Ok(libc::STDIN_FILENO);
    }
    match TTY.get_or_init(|| std::fs::File::open("/dev/tty")) {
        Ok(f) => Ok(f.as_raw_fd()),
        Err(e) => Err(io::Error::new(
            e.kind(),
            format!("cannot open /dev/tty: {e}"),
        )),
    }
}

/// One `poll(2)` of `fd` for `events` (a hang-up is always reported), for
/// at most `ms` milliseconds. An interrupted wait is a wait with nothing.
#[cfg(unix)]
fn look(fd: std::os::fd::RawFd, events: libc::c_short, ms: i32) -> io::Result<Ready> {
    let mut pfd = libc::pollfd {
        fd,
        events,
        revents: 0,
    };
    // SAFETY: one valid pollfd, for the duration of the call.
    let n = unsafe { libc::poll(&mut pfd, 1, ms) };
    if n < 0 {
        let e = io::Error::last_os_error();
        return match e.kind() {
            io::ErrorKind::Interrupted => Ok(Ready::Nothing),
            _ => Err(e),
        };
    }
    Ok(
        if pfd.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
            Ready::HungUp
        } else if pfd.revents & libc::POLLIN != 0 {
            Ready::Event
        } else {
            Ready::Nothing
        },
    )
}

fn step_error(step: &str, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("terminal: could not {step}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A pseudo-terminal whose far end closes reads as a hang-up, at
    /// once and for good (what `tmux kill-server` does to a pane).
    #[cfg(unix)]
    #[test]
    fn a_closed_pseudo_terminal_is_a_hang_up() {
        use std::os::fd::AsRawFd;
        let (master, slave) = serialport::TTYPort::pair().expect("pty pair");
        let fd = slave.as_raw_fd();
        assert_eq!(look(fd, libc::POLLIN, 0).expect("poll"), Ready::Nothing);
        drop(master);
        assert_eq!(look(fd, libc::POLLIN, 1_000).expect("poll"), Ready::HungUp);
        assert_eq!(look(fd, 0, 0).expect("poll"), Ready::HungUp);
    }

    #[test]
    fn restore_without_init_is_a_no_op() {
        assert!(restore().is_ok());
        assert!(restore().is_ok());
    }

    #[test]
    fn panic_hook_chains_to_the_previous_hook() {
        let called = Arc::new(AtomicBool::new(false));
        let seen = Arc::clone(&called);
        let original = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            seen.store(true, Ordering::SeqCst);
            original(info);
        }));
        install_panic_hook();
        let result = std::panic::catch_unwind(|| panic!("test panic through the hook"));
        assert!(result.is_err());
        assert!(called.load(Ordering::SeqCst), "previous hook not called");
        assert!(!ACTIVE.load(Ordering::SeqCst));
    }
}
