//! The live board: a ratatui view of the referee's snapshot.
