//! Work a loop does at most once an interval for changes that come more
//! often: the match loop builds the web page's state after a change, but
//! no sooner than [`Pace::every_ms`] after it last built one (the page
//! sends at most one state every `web::hub::SEND_EVERY`). Time comes in
//! as milliseconds on the loop's clock; nothing here reads a clock.

/// When paced work is due.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pace {
    every_ms: u64,
    /// When the work was last done.
    done_at: Option<u64>,
    /// A change came since.
    pending: bool,
}

impl Pace {
    /// Work done at most once every `every_ms`.
    pub const fn new(every_ms: u64) -> Pace {
        Pace {
            every_ms,
            done_at: None,
            pending: false,
        }
    }

    /// The least time between two runs of the work.
    pub fn every_ms(&self) -> u64 {
        self.every_ms
    }

    /// Something changed: the work is to be done.
    pub fn changed(&mut self) {
        self.pending = true;
    }

    /// Whether a change waits for the work.
    pub fn pending(&self) -> bool {
        self.pending
    }

    /// When the work is due (`None`: no change waits): at once the first
    /// time, else `every_ms` after it was last done.
    pub fn due(&self) -> Option<u64> {
        self.pending
            .then(|| self.done_at.map_or(0, |t| t.saturating_add(self.every_ms)))
    }

    /// Whether the work is to be done at `now`.
    pub fn ready(&self, now: u64) -> bool {
        self.due().is_some_and(|d| d <= now)
    }

    /// The work was done at `now`.
    pub fn done(&mut self, now: u64) {
        self.done_at = Some(now);
        self.pending = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_worked_at_once_then_at_most_once_an_interval() {
        let mut p = Pace::new(100);
        assert_eq!(p.due(), None, "nothing changed");
        assert!(!p.ready(5_000));
        p.changed();
        assert!(p.ready(0), "the first change at once");
        p.done(10);
        assert_eq!(p.due(), None);
        // Changes within the interval wait for its end, together.
        p.changed();
        p.changed();
        assert_eq!(p.due(), Some(110));
        assert!(!p.ready(109));
        assert!(p.ready(110));
        p.done(110);
        // A change long after is worked as it comes.
        p.changed();
        assert!(p.pending());
        assert_eq!(p.due(), Some(210));
        assert!(p.ready(900));
    }
}
