//! Rounds paired as the event goes: the hook of every format whose rounds
//! are not fixed in advance (Swiss, knockouts).
//!
//! The mechanism, in the core ([`Tournament::round_due`],
//! [`Tournament::pairing_due`]): once every game of round R-1 is decided
//! (at once for round 1), the event asks its pairer for round R. The pairer
//! is [`pair`]: a pure function of the event so far (its settings, the
//! decided games, the byes, who withdrew), chosen by the format. Its answer
//! is an input, [`Input::Paired`] (or [`Input::Unpairable`] when no round
//! can be paired), that the loop journals before handing it to the core;
//! the core appends the round to its schedule and starts its games on
//! free boards. A resumed or followed event replays the journaled pairing,
//! so no round is ever paired twice, or differently.
//!
//! [`Input::Paired`]: crate::tournament::Input::Paired
//! [`Input::Unpairable`]: crate::tournament::Input::Unpairable

use crate::tournament::core::Tournament;
use crate::tournament::schedule::{Format, RoundPairing};

/// Round `round` of `t`, as its format's pairer makes it; the error says
/// why it cannot be paired. Call it through [`Tournament::pairing_due`].
pub fn pair(t: &Tournament, round: u32) -> Result<RoundPairing, Unpairable> {
    match t.settings().schedule.format {
        Format::Swiss => crate::tournament::swiss_event::pair(t, round),
        Format::Knockout => knockout_round(t, round),
        f @ (Format::RoundRobin | Format::Gauntlet) => Err(Unpairable::Fixed(f)),
    }
}

/// Why a round cannot be paired (said in the journal's `unpairable`
/// line).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unpairable {
    /// A round robin or gauntlet: its rounds were made at the start.
    #[error("a {} is fixed in advance: it pairs no round as it goes", .0.as_str())]
    Fixed(Format),
    #[error("a knockout without its bracket")]
    NoBracket,
    #[error("the knockout is over")]
    KnockoutOver,
    /// The Dutch rules pair no one for the round.
    #[error("round {round}: {error}")]
    Swiss {
        round: u32,
        error: crate::swiss::dutch::PairingError,
    },
}

/// A knockout's round `round`: the next game of every match still open
/// (the bracket's next round opened once the current one is decided).
fn knockout_round(t: &Tournament, round: u32) -> Result<RoundPairing, Unpairable> {
    let mut k = t.knockout().ok_or(Unpairable::NoBracket)?.clone();
    let first = u32::try_from(t.schedule().games().len() + 1).unwrap_or(u32::MAX);
    let games: Vec<_> = k
        .next_games(first)
        .iter()
        .map(|g| (g.white, g.black))
        .collect();
    if games.is_empty() {
        return Err(Unpairable::KnockoutOver);
    }
    Ok(RoundPairing {
        round,
        games,
        byes: Vec::new(),
    })
}
