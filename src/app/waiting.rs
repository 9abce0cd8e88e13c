//! Saying whom a match or a tournament waits for: when to say it (at once
//! for one newly awaited, then every minute: [`Reminder`], deciding on the
//! time passed in) and since what wall-clock time ([`since_clock`]). The
//! words are `referee::words::waiting_for`'s.

use std::time::{Duration, UNIX_EPOCH};

use crate::app::wall::unix_ms_now;
use crate::record::timestamp::format_utc;
use crate::referee::words::waiting_for;
use crate::referee::{ClientId, Referee};

/// How often a session says again whom it waits for.
pub const REMIND_EVERY_MS: u64 = 60_000;

/// When to say whom a session waits for: at once when someone is newly
/// waited for, then every minute while anyone is. Decided on the session
/// time passed in (`P`: a tournament's players, a match's clients).
#[derive(Debug, Default)]
pub struct Reminder<P> {
    /// Those waited for when it was last said.
    said_for: Vec<P>,
    /// When it was last said.
    last: u64,
}

impl<P: PartialEq + Clone> Reminder<P> {
    /// A reminder that counts `waited`, waited for at `at`, as said then
    /// (at the start and after a resume the session's own first line says
    /// it waits for its players to sign on).
    pub fn from(waited: Vec<P>, at: u64) -> Reminder<P> {
        Reminder {
            said_for: waited,
            last: at,
        }
    }

    /// Whether to say now (`at`) that the session waits for `waiting`; if
    /// so, it counts as said.
    pub fn due(&mut self, waiting: &[P], at: u64) -> bool {
        let newly = waiting.iter().any(|p| !self.said_for.contains(p));
        self.said_for.retain(|p| waiting.contains(p));
        let due = newly || (!waiting.is_empty() && at >= self.next());
        if due {
            self.said_for = waiting.to_vec();
            self.last = at;
        }
        due
    }

    /// When a minute will have passed since it was last said.
    pub fn next(&self) -> u64 {
        self.last.saturating_add(REMIND_EVERY_MS)
    }
}

/// The wall-clock time (UTC, `HH:MM:SS`) of session time `since`, the
/// session's time being `now` at this moment.
pub fn since_clock(now: u64, since: u64) -> String {
    let ago = Duration::from_millis(now.saturating_sub(since));
    let when = UNIX_EPOCH + Duration::from_millis(unix_ms_now()).saturating_sub(ago);
    let stamp = format_utc(when);
    stamp.get(11..19).unwrap_or(&stamp).to_string()
}

/// "waiting for NAME since HH:MM:SS" for every client a match's core
/// waits for at `now` (core time). A client known by no name yet is
/// named by its letter and port.
pub fn match_waiting(core: &Referee, now: u64) -> Vec<String> {
    core.waiting()
        .into_iter()
        .map(|(id, since)| waiting_for(&client_label(core, id), &since_clock(now, since)))
        .collect()
}

/// A client's name, or its letter and port while it has none.
fn client_label(core: &Referee, id: ClientId) -> String {
    core.known_name(id)
        .unwrap_or_else(|| format!("{} ({})", id.letter(), core.client_name(id)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_waiting_is_said_at_once_for_one_newly_awaited_then_every_minute() {
        let (a, b) = (0, 1);
        // At the start both are waited for: the first line says so.
        let mut r = Reminder::from(vec![a, b], 0);
        assert!(!r.due(&[a, b], 59_999));
        assert!(r.due(&[a, b], 60_000));
        assert!(!r.due(&[a], 61_000));
        assert!(!r.due(&[], 90_000));
        // One lost later: said at once, then a minute on.
        assert!(r.due(&[b], 100_000));
        assert!(!r.due(&[b], 159_999));
        assert!(r.due(&[b], 160_000));
        assert_eq!(r.next(), 220_000);
        // Back and away again: said at once.
        assert!(!r.due(&[], 170_000));
        assert!(r.due(&[b], 171_000));
    }
}
