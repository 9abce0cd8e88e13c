//! The integration tests: one test binary (one link instead of one per
//! file), a module per area. They drive the real `argus` binary and the
//! library over real pseudo-terminals joined by socat, tmux, loopback
//! sockets and real engines; each skips, saying so, when its tool is
//! missing (and fails instead when `.ci/run` requires the tool). No test
//! needs real serial hardware: the ones built on a `Rig` (`common::rig`)
//! run on real ports when `ARGUS_HW_A` and its siblings name them (see
//! docs/hardware.md), and on socat cables otherwise.
//!
//! Run one area with `cargo test --test hw referee::`, one test by its
//! name (`cargo test --test hw a_clean_wire_passes_a_whole_game`).

#[macro_use]
mod common;
#[macro_use]
mod tmux;

mod badclient;
mod cbf;
mod chess960;
mod demo;
mod engine;
mod epd_kit;
mod fuzz;
mod hangup;
mod journal;
mod link;
mod referee;
mod swiss;
mod tcp;
mod tournament;
mod web;
mod wire;
