//! What the supervisor may ask for: the viewer's role and the actions the
//! display hands to the caller.

use shakmaty::KnownOutcome;

use crate::referee::ClientId;

/// Who is looking at the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The supervisor of the referee: every key works.
    Referee,
    /// A read-only viewer (for example a replay of the journal elsewhere):
    /// only flip, help, log scrolling and quit work; the status line says
    /// `observer`.
    Observer,
}

/// An action the supervisor asked for. [`Ui::handle_key`](super::Ui::handle_key)
/// returns one only after the supervisor confirmed it where a confirmation is
/// needed; the caller sends it to the referee core (which may still refuse
/// it) or, for [`UiAction::Quit`], ends the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UiAction {
    /// Stop both clocks (the game is paused by the supervisor).
    Pause,
    /// Start the clocks again after a pause.
    Resume,
    /// End the current game with this result: white wins, black wins, or a
    /// draw.
    Adjudicate(KnownOutcome),
    /// End the current game without a result (`*`).
    AbortGame,
    /// Restart the session with one client (send it `reset` and replay).
    RestartClient(ClientId),
    /// Leave argus.
    Quit,
}
