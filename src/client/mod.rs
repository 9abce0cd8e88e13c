//! The reference client: a correct EPD referee client with a built-in
//! mover, and the engine bridge that plays with a UCI or XBoard engine
//! instead. The reference client is the other half of every test and of
//! the demo.

pub mod book;
pub mod engine;
pub mod mover;
pub mod protocol;
pub mod repeat;
pub mod track;

pub use mover::{Mover, MoverKind};
pub use protocol::{Action, ClientProtocol};
