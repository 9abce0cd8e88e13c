//! The live board: a ratatui view of the referee's [`Snapshot`] with the
//! supervisor's keys and the terminal's lifecycle.
//!
//! The display decides nothing. The caller (the app loop) owns a [`Ui`],
//! and for each screen calls [`Ui::render`] with the latest snapshot, the
//! two [`LinkView`]s and the current time; for each key from the
//! [`InputThread`] it calls [`Ui::handle_key`] and sends any returned
//! [`Command`] to the referee core. [`next_redraw_in`] says when to redraw
//! without new input (10 Hz while a clock runs). [`TerminalGuard`] takes the
//! terminal and gives it back on quit, error or panic.
//!
//! ```no_run
//! # fn demo(snap: argus::referee::Snapshot, links: [argus::display::LinkView; 2])
//! # -> std::io::Result<()> {
//! use argus::display::{InputEvent, InputThread, Role, TerminalGuard, Ui};
//! use argus::referee::Command;
//! let mut guard = TerminalGuard::init()?;
//! let (tx, rx) = crossbeam_channel::unbounded();
//! let input = InputThread::spawn(tx)?;
//! let mut ui = Ui::new(false, Role::Referee);
//! loop {
//!     guard.terminal().draw(|f| ui.render(f, &snap, &links, snap.at_ms))?;
//!     match rx.recv() {
//!         Ok(InputEvent::Key(k)) => {
//!             if ui.handle_key(k, &snap) == Some(Command::EndSession) {
//!                 break;
//!             }
//!         }
//!         Ok(InputEvent::Resize { .. }) => {}
//!         Ok(InputEvent::Failed(_) | InputEvent::HungUp) | Err(_) => break,
//!     }
//! }
//! input.stop();
//! guard.restore()
//! # }
//! ```
//!
//! [`Snapshot`]: crate::referee::Snapshot

mod board;
mod clock;
mod input;
mod keys;
mod layout;
mod log;
mod moves;
mod overlay;
pub mod overview;
mod redraw;
mod role;
mod status;
mod style;
mod terminal;
mod ui;

#[cfg(test)]
mod screen_tests;
#[cfg(test)]
mod testkit;

pub use clock::format_clock;
pub use input::{EventSource, InputEvent, InputThread, POLL, Ready, TerminalEvents};
pub use layout::{MIN_HEIGHT, MIN_WIDTH};
pub use redraw::{TICK, next_redraw_in};
pub use role::Role;
pub use status::{LinkState, LinkView, format_bytes};
pub use terminal::{TerminalGuard, Tui, hung_up, install_panic_hook, restore};
pub use ui::Ui;
