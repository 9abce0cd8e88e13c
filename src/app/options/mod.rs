//! The referee's command-line options, the TOML config file that can hold
//! the same settings, and how the two are merged into the core's
//! [`Settings`] (command-line flags win over the file, the file over the
//! defaults).
//!
//! One file per group of options: `line` (the serial line), `matches`
//! (the match and its policies), `output` (files and the web view),
//! `commands` (the arguments of `referee`, `resume`, `watch`, `demo`),
//! `client` (`argus client` and the engine bridge), `config` (the TOML
//! file), `odds` (`--tc NAME:CONTROL`), `programs` (the programs argus
//! starts and the games at once: `argus referee`'s and `argus tournament`'s),
//! `plan` (the merge into the core's
//! settings, which the tournament's plan starts from), `openings` (the
//! openings file, checked) and `view` (`--headless`, `--ascii`: the
//! [`View`]).

mod client;
mod commands;
mod config;
mod line;
mod matches;
mod odds;
mod openings;
mod output;
mod plan;
mod programs;
mod view;

pub use client::{
    BookError, ClientArgs, DEPTH_WAIT, ENGINE_MARGIN_MS, EngineFlagError, EngineOptions, book_play,
};
pub use commands::{DemoArgs, RefereeArgs, ResumeArgs, WatchArgs};
pub use config::{ConfigError, ConfigFile, read_toml};
pub use line::{LineOptions, PortOptionError};
pub use matches::MatchOptions;
pub use odds::{Controls, OddsError, controls};
pub use openings::load_starts;
pub use output::{OutputOptions, WebOptions};
pub use plan::{PlanError, RefereePlan, plan};
pub use programs::{EventOptions, ProgramOptions};
pub use view::{View, ViewOptions};

/// A `--NAME SECS` option's value in milliseconds: from 0 to `max`
/// seconds, fractions allowed (rounded to the millisecond).
pub fn seconds_ms(v: f64, name: &str, max: f64) -> Result<u64, BadSeconds> {
    if v.is_finite() && (0.0..=max).contains(&v) {
        Ok((v * 1000.0).round() as u64)
    } else {
        Err(BadSeconds {
            flag: name.to_string(),
            max,
            given: v,
        })
    }
}

/// A `--NAME SECS` value out of its range: the flag (without `--`), the
/// largest value and the value given.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("--{flag} must be between 0 and {max} seconds, not {given}")]
pub struct BadSeconds {
    pub flag: String,
    pub max: f64,
    pub given: f64,
}

error_words!(BadSeconds);
