//! Who is looking at the board. What the supervisor asks for is the
//! referee core's own [`Command`](crate::referee::Command):
//! [`Ui::handle_key`](super::Ui::handle_key) returns one only after the
//! supervisor confirmed it where a confirmation is needed; the caller sends
//! it to the core (which may still refuse it), and an observer takes
//! [`Command::EndSession`](crate::referee::Command::EndSession) as "leave".

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
