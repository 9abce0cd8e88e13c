//! The reference client: a correct EPD referee client with a built-in
//! mover. It is the other half of every test and of the demo.

pub mod mover;
pub mod protocol;

pub use mover::{Mover, MoverKind};
pub use protocol::{Action, ClientProtocol};
