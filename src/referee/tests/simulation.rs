//! Random-mover simulation and misbehaving clients, through the core.
//!
//! Two simulated clients ([`crate::client::ClientProtocol`] with seeded
//! movers) play whole matches against the [`crate::referee::Referee`] in a
//! deterministic event loop with fake time (`harness`, matches described
//! in `spec`, misbehaving lines made by `spoil`); every record,
//! snapshot and finished game is checked (`checks`). `matches` plays over
//! a thousand games under every kind of time control; `misbehaving` adds
//! clients that break the protocol in every way we could think of;
//! `fuzz` throws arbitrary inputs at the core.

mod checks;
mod fuzz;
mod harness;
mod matches;
mod misbehaving;
mod spec;
mod spoil;
