//! The terminal's lifecycle: raw mode and the alternate screen on start,
//! and the terminal given back on quit, on error (the guard's `Drop`) and on
//! panic (a hook that restores first, then runs the previous hook).

use std::io::{self, Stdout};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

use crossterm::cursor::{Hide, Show};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

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
    terminal: Tui,
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
            Ok(terminal) => Ok(TerminalGuard { terminal }),
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

fn step_error(step: &str, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("terminal: could not {step}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

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
