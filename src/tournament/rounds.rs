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
pub fn pair(t: &Tournament, round: u32) -> Result<RoundPairing, String> {
    match t.settings().schedule.format {
        Format::Swiss => crate::tournament::swiss_event::pair(t, round),
        Format::Knockout => knockout_round(t, round),
        f @ (Format::RoundRobin | Format::Gauntlet) => Err(format!(
            "a {} is fixed in advance: it pairs no round as it goes",
            f.as_str()
        )),
    }
}

/// A knockout's round `round`: the next game of every match still open
/// (the bracket's next round opened once the current one is decided).
fn knockout_round(t: &Tournament, round: u32) -> Result<RoundPairing, String> {
    let mut k = t
        .knockout()
        .ok_or("a knockout without its bracket")?
        .clone();
    let first = u32::try_from(t.schedule().games().len() + 1).unwrap_or(u32::MAX);
    let games: Vec<_> = k
        .next_games(first)
        .iter()
        .map(|g| (g.white, g.black))
        .collect();
    if games.is_empty() {
        return Err("the knockout is over".into());
    }
    Ok(RoundPairing {
        round,
        games,
        byes: Vec::new(),
    })
}
