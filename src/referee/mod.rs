//! The sans-IO referee core.

pub mod snapshot;

pub use snapshot::{ClientId, Snapshot};
