//! When the broadcast pusher sends, and what (I/O-free, told the time):
//! the newest state only (a state that a newer one replaces before it was
//! delivered is never sent, and a failed one is sent again only if nothing
//! newer came), a least gap between two deliveries, exponential back-off
//! after failures, and a bounded time to deliver the final state at
//! closing.

/// The first wait after a failure.
pub const FIRST_BACKOFF_MS: u64 = 1_000;
/// The longest wait after failures.
pub const MAX_BACKOFF_MS: u64 = 60_000;

/// What the pusher does next.
#[derive(Debug, PartialEq, Eq)]
pub enum Step<T> {
    /// Send this state now.
    Send(T),
    /// A state waits: look again at this time (or when told more).
    WaitUntil(u64),
    /// Nothing to send: wait to be told more.
    Wait,
    /// Closing, and the newest state is delivered.
    Stop,
    /// Closing, and the time to deliver this state (the newest) has run
    /// out: it was not delivered.
    GiveUp(T),
}

/// The pusher's state.
#[derive(Debug)]
pub struct Schedule<T> {
    pending: Option<T>,
    /// Failures in a row.
    failures: u32,
    /// No send before this time.
    ready_at: u64,
    /// The least time between a delivery and the next send.
    gap_ms: u64,
    /// Closing: the newest state must be delivered by then.
    close_by: Option<u64>,
    /// States replaced before they were delivered (for the figures).
    replaced: u64,
}

/// The wait after `failures` failures in a row (at least one): one second,
/// doubling, at most a minute.
pub fn backoff_ms(failures: u32) -> u64 {
    let doublings = failures.saturating_sub(1).min(16);
    (FIRST_BACKOFF_MS << doublings).min(MAX_BACKOFF_MS)
}

impl<T> Schedule<T> {
    /// A schedule with `gap_ms` between two deliveries.
    pub fn new(gap_ms: u64) -> Schedule<T> {
        Schedule {
            pending: None,
            failures: 0,
            ready_at: 0,
            gap_ms,
            close_by: None,
            replaced: 0,
        }
    }

    /// A newer state, replacing one not sent yet.
    pub fn offer(&mut self, state: T) {
        if self.pending.replace(state).is_some() {
            self.replaced += 1;
        }
    }

    /// Closing at `now`: the newest state is sent at once (the gap and a
    /// back-off do not hold it back), then retried until `now + grace_ms`.
    pub fn close(&mut self, now: u64, grace_ms: u64) {
        if self.close_by.is_none() {
            self.close_by = Some(now.saturating_add(grace_ms));
            self.ready_at = self.ready_at.min(now);
        }
    }

    /// What to do at `now`.
    pub fn step(&mut self, now: u64) -> Step<T> {
        match (&self.pending, self.close_by) {
            (None, None) => Step::Wait,
            (None, Some(_)) => Step::Stop,
            (Some(_), _) if now >= self.ready_at => {
                Step::Send(self.pending.take().expect("a state waits"))
            }
            (Some(_), Some(by)) if now >= by => {
                Step::GiveUp(self.pending.take().expect("a state waits"))
            }
            (Some(_), by) => Step::WaitUntil(by.map_or(self.ready_at, |b| b.min(self.ready_at))),
        }
    }

    /// The state sent was delivered at `now`.
    pub fn delivered(&mut self, now: u64) {
        self.failures = 0;
        self.ready_at = now.saturating_add(self.gap_ms);
    }

    /// Sending `state` failed at `now`: it is sent again after the back-off
    /// unless a newer state came meanwhile. Returns the back-off.
    pub fn failed(&mut self, state: T, now: u64) -> u64 {
        if self.pending.is_none() {
            self.pending = Some(state);
        } else {
            self.replaced += 1;
        }
        self.failures = self.failures.saturating_add(1);
        let wait = backoff_ms(self.failures);
        self.ready_at = now.saturating_add(wait);
        wait
    }

    /// Failures in a row.
    pub fn failures(&self) -> u32 {
        self.failures
    }

    /// States replaced before they were delivered.
    pub fn replaced(&self) -> u64 {
        self.replaced
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_from_a_second_to_a_minute() {
        let waits: Vec<u64> = (1..=9).map(backoff_ms).collect();
        assert_eq!(
            waits,
            [
                1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000
            ]
        );
        assert_eq!(backoff_ms(u32::MAX), MAX_BACKOFF_MS);
    }

    #[test]
    fn the_newest_state_wins_and_a_delivery_holds_the_next_for_the_gap() {
        let mut s = Schedule::new(500);
        assert_eq!(s.step(0), Step::Wait);
        s.offer(1);
        s.offer(2);
        s.offer(3);
        assert_eq!(s.step(0), Step::Send(3));
        assert_eq!(s.replaced(), 2);
        s.delivered(10);
        s.offer(4);
        s.offer(5);
        assert_eq!(s.step(100), Step::WaitUntil(510), "the gap holds it");
        assert_eq!(s.step(510), Step::Send(5));
        assert_eq!(s.step(510), Step::Wait);
    }

    #[test]
    fn a_failed_state_is_sent_again_after_the_backoff_unless_a_newer_one_came() {
        let mut s = Schedule::new(0);
        s.offer("a");
        let Step::Send(a) = s.step(0) else { panic!() };
        assert_eq!(s.failed(a, 0), 1_000);
        assert_eq!(s.step(999), Step::WaitUntil(1_000));
        assert_eq!(s.step(1_000), Step::Send("a"), "the same state again");
        assert_eq!(s.failed("a", 1_000), 2_000);
        // A newer state came while the last send failed: it goes, not the
        // failed one.
        let Step::WaitUntil(t) = s.step(1_500) else {
            panic!()
        };
        assert_eq!(t, 3_000);
        s.offer("b");
        assert_eq!(s.step(2_000), Step::WaitUntil(3_000), "the back-off holds");
        let Step::Send(b) = s.step(3_000) else {
            panic!()
        };
        assert_eq!(b, "b");
        s.offer("c");
        assert_eq!(s.failed(b, 3_000), 4_000);
        assert_eq!(s.step(7_000), Step::Send("c"), "not b: c is newer");
        assert_eq!(s.failures(), 3);
        s.delivered(7_000);
        assert_eq!(s.failures(), 0);
        assert_eq!(s.step(7_000), Step::Wait);
    }

    #[test]
    fn closing_sends_at_once_then_retries_until_the_grace_runs_out() {
        let mut s = Schedule::new(1_000);
        s.offer(1);
        assert_eq!(s.step(0), Step::Send(1));
        s.delivered(0);
        s.offer(2);
        s.close(10, 5_000);
        assert_eq!(s.step(10), Step::Send(2), "the gap does not hold the last");
        s.failed(2, 10);
        assert_eq!(s.step(500), Step::WaitUntil(1_010));
        assert_eq!(s.step(1_010), Step::Send(2));
        s.failed(2, 1_010);
        assert_eq!(s.step(3_010), Step::Send(2));
        s.failed(2, 3_010);
        assert_eq!(s.step(4_000), Step::WaitUntil(5_010), "the deadline first");
        assert_eq!(s.step(5_010), Step::GiveUp(2));
        assert_eq!(s.step(5_010), Step::Stop);
    }

    #[test]
    fn closing_with_everything_delivered_stops_and_a_late_delivery_stops_too() {
        let mut s: Schedule<u32> = Schedule::new(0);
        s.close(0, 1_000);
        assert_eq!(s.step(0), Step::Stop);
        let mut s = Schedule::new(0);
        s.offer(7);
        s.close(0, 1_000);
        assert_eq!(s.step(0), Step::Send(7));
        s.failed(7, 0);
        assert_eq!(s.step(999), Step::WaitUntil(1_000));
        assert_eq!(s.step(1_000), Step::Send(7), "a last try at the deadline");
        s.delivered(1_200);
        assert_eq!(s.step(1_200), Step::Stop);
    }
}
