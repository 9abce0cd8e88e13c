//! When the screen must be drawn again without any new input.

use std::time::Duration;

use crate::referee::Snapshot;

/// How often the screen is redrawn while a clock runs (10 Hz, so that the
/// tenths shown under ten seconds tick smoothly).
pub const TICK: Duration = Duration::from_millis(100);

/// The time until the next redraw that no event will trigger: [`TICK`] while
/// a clock is running, `None` otherwise (redraw only when something changes:
/// a new snapshot, a key, a resize).
pub fn next_redraw_in(snap: &Snapshot) -> Option<Duration> {
    snap.clock_running().then_some(TICK)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::display::testkit;

    #[test]
    fn ticks_only_while_a_clock_runs() {
        let mut snap = testkit::snapshot(None, &["e4"]);
        assert_eq!(next_redraw_in(&snap), Some(TICK));
        snap.clocks.white.running = false;
        snap.clocks.black.running = false;
        assert_eq!(next_redraw_in(&snap), None);
    }
}
