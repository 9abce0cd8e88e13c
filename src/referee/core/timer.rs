//! The core's deadlines in one table: each [`Timer`] names one thing that
//! happens at a time, [`Referee::deadline`] says when (from the state, so
//! a deadline can never be left stale), the next wake-up is their minimum
//! and [`Referee::on_timer`] fires the expired ones in a fixed order.
//! quinn-proto's `connection/timer.rs` (`TimerTable`) is the model; here
//! the table is derived, not stored, because every deadline follows from
//! state the core keeps anyway.

use super::{FLAG_GRACE_BYTES, Referee, Respond, Stage};
use crate::clock;
use crate::referee::client::ClientId;
use crate::referee::event::Event;
use crate::referee::messages::Output;

/// One of the core's deadlines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Timer {
    /// The clock of the side on move runs out (with the grace for a reply
    /// already on the wire).
    Flag,
    /// The client on move has been silent for `resend_after_ms`: its
    /// respond record is sent again (a record lost on a noisy line would
    /// otherwise stall an untimed game for ever).
    Silence,
    /// The link to this client came back: its respond record goes out
    /// again (unless it signs on again first).
    Resend(ClientId),
    /// This restarted client is brought back in line (`inform`,
    /// `execute`s, `respond`) after the reset delay.
    Resync(ClientId),
    /// The reset delay (`Stage::Starting`) or the conclude delay
    /// (`Stage::GameOver`) is over.
    Stage,
}

impl Timer {
    /// Every timer, in the order expired ones fire: flag fall first (time
    /// is the hardest fact), the stage last (a game that just ended does
    /// not end the session in the same turn).
    pub(super) const ORDER: [Timer; 7] = [
        Timer::Flag,
        Timer::Silence,
        Timer::Resend(ClientId::A),
        Timer::Resync(ClientId::A),
        Timer::Resend(ClientId::B),
        Timer::Resync(ClientId::B),
        Timer::Stage,
    ];
}

impl Referee {
    /// When `timer` is due, if it is set.
    pub(super) fn deadline(&self, timer: Timer) -> Option<u64> {
        match timer {
            Timer::Flag if self.stage == Stage::Playing => self.flag_deadline(),
            Timer::Silence if self.stage == Stage::Playing => self.silence_deadline(),
            Timer::Resend(id) if self.stage != Stage::SessionOver => self.clients[id].resend_due,
            Timer::Resync(id) if self.stage != Stage::SessionOver => self.clients[id].resync_due,
            Timer::Stage => match self.stage {
                Stage::Starting { until } | Stage::GameOver { until } => Some(until),
                _ => None,
            },
            _ => None,
        }
    }

    /// The earliest deadline of all.
    pub(super) fn earliest_deadline(&self) -> Option<u64> {
        Timer::ORDER.iter().filter_map(|&t| self.deadline(t)).min()
    }

    /// The timer input: fires every timer due at `at`, in [`Timer::ORDER`],
    /// each checked again just before (firing one can move another).
    pub(super) fn on_timer(&mut self, at: u64, out: &mut Vec<Output>) {
        for timer in Timer::ORDER {
            if self.deadline(timer).is_some_and(|d| at >= d) {
                self.fire(timer, at, out);
            }
        }
    }

    fn fire(&mut self, timer: Timer, at: u64, out: &mut Vec<Output>) {
        match timer {
            Timer::Flag => self.flag_fall(at, out),
            Timer::Silence => self.silence_ended(at, out),
            Timer::Resend(id) => {
                self.clients[id].resend_due = None;
                if self.awaits(id) && self.clients[id].resync_due.is_none() {
                    self.send_respond(id, at, out, Respond::Again);
                }
            }
            Timer::Resync(id) => {
                self.clients[id].resync_due = None;
                self.finish_resync(id, at, out);
            }
            Timer::Stage => match self.stage {
                Stage::Starting { .. } => self.begin_play(at, out),
                Stage::GameOver { .. } => self.after_conclude(at, out),
                _ => {}
            },
        }
    }

    /// When the client on move has been silent long enough that its
    /// respond record is sent again.
    fn silence_deadline(&self) -> Option<u64> {
        let after = self.settings.resend_after_ms;
        if after == 0 {
            return None;
        }
        let g = self.game.as_ref()?;
        if g.is_over() || g.pause.is_some() {
            return None;
        }
        let a = g.awaiting.as_ref()?;
        if self.clients[a.client].resync_due.is_some() {
            return None;
        }
        Some(a.asked_at.max(a.heard_at).saturating_add(after))
    }

    /// When the running clock's flag falls: its deadline plus the wire
    /// time of [`FLAG_GRACE_BYTES`] on the mover's line, or for a program
    /// argus runs itself, [`clock::HOP_GRACE_MS`].
    fn flag_deadline(&self) -> Option<u64> {
        let g = self.game.as_ref()?;
        if g.is_over() || g.pause.is_some() {
            return None;
        }
        let running = g.clocks.running()?;
        let d = g.clocks.next_deadline()?;
        let client = g.client_of(running);
        let line = &self.settings.lines[client];
        let grace = if self.settings.own_search_time[client] {
            clock::HOP_GRACE_MS
        } else {
            0
        };
        let wire = clock::wire_time_ms(FLAG_GRACE_BYTES, line);
        Some(d.saturating_add(wire.max(grace)))
    }

    /// [`Timer::Silence`]: the respond record goes out again.
    fn silence_ended(&mut self, at: u64, out: &mut Vec<Output>) {
        let Some(to) = self
            .game
            .as_ref()
            .and_then(|g| g.awaiting.as_ref())
            .map(|a| a.client)
        else {
            return;
        };
        let after_ms = self.settings.resend_after_ms;
        self.emit(
            out,
            Event::SilenceResend {
                client: to,
                after_ms,
            },
        );
        self.send_respond(to, at, out, Respond::Again);
    }

    /// The conclude delay is over: the session ends with its one game
    /// (the event starts the next one on a new core).
    fn after_conclude(&mut self, at: u64, out: &mut Vec<Output>) {
        self.end_session(at, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_timer_fires_once_in_a_turn_and_the_stage_last() {
        for (i, t) in Timer::ORDER.iter().enumerate() {
            assert_eq!(
                Timer::ORDER.iter().position(|o| o == t),
                Some(i),
                "{t:?} twice"
            );
        }
        assert_eq!(Timer::ORDER[0], Timer::Flag);
        assert_eq!(Timer::ORDER[Timer::ORDER.len() - 1], Timer::Stage);
        for id in ClientId::BOTH {
            assert!(Timer::ORDER.contains(&Timer::Resend(id)));
            assert!(Timer::ORDER.contains(&Timer::Resync(id)));
        }
    }
}
