//! The tournament referee's own core, above the boards' referee cores:
//! the schedule, which game starts on which board and when, what a
//! player's absence costs, the standings and the final report, and the
//! tournament's journal. Like the referee core it does no I/O and reads
//! no clock: [`Tournament::handle`] takes an [`Input`] and its time and
//! returns [`Output`]s. docs/tournament.md describes it.
//!
//! * [`schedule`]: Berger round robin, gauntlet, cycles, repeats, openings;
//! * [`rounds`]: rounds paired as the event goes (Swiss), journaled first;
//! * [`swiss_event`]: the tournament as a Swiss event (Dutch pairing, TRF);
//! * [`core`]: the state machine ([`Tournament`]);
//! * [`progress`]: where each game stands, and the counts kept in step;
//! * [`knockout`]: a knockout's bracket: seeding, byes, matches, tie-breaks;
//! * [`messages`]: its inputs and outputs, and a game's [`GameDecision`];
//! * [`standings`]: points, tie-breaks, crosstable, player statistics;
//! * [`report`]: the final report as text and Markdown;
//! * [`journal`]: the tournament journal, for resume after a kill;
//! * [`player`]: the `PLAYER` arguments (serial, `tcp:`, `engine:`).

pub mod core;
pub mod journal;
pub mod knockout;
pub mod messages;
pub mod player;
pub mod progress;
pub mod report;
pub mod rounds;
pub mod schedule;
pub mod standings;
pub mod stats;
pub mod swiss_event;
pub mod words;

pub use self::core::{Form, GameState, PlayerState, Settings, Tournament};
pub use messages::{
    Absence, Absent, BoardId, GameDecision, Input, Instance, Output, SideStats, SprtRunning,
    Withdrawal,
};
pub use player::{EngineSpec, Player};
pub use schedule::{
    Bye, ByeKind, Format, PlayerId, RoundPairing, Schedule, ScheduleSettings, ScheduledGame,
};
pub use standings::{Mark, Row, Standings, Tiebreak};

#[cfg(test)]
mod tests;
