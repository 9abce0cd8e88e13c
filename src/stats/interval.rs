//! `--rating-interval N`: the standings and ratings said again every N
//! finished games, as cutechess-cli's `-ratinginterval` and fastchess's
//! `-ratinginterval` print them. Pure: it is told how many games are
//! finished and says whether the figures are due.

use std::num::NonZeroU32;

/// When the figures are due: each time the count of finished games
/// reaches a multiple of `every`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatingInterval {
    every: NonZeroU32,
    /// The count of finished games last seen.
    seen: u32,
}

impl RatingInterval {
    /// Every `every` games, `finished` finished already (a resumed
    /// tournament or match goes on from its count: the figures are not
    /// said again for games it said them for).
    pub fn new(every: NonZeroU32, finished: u32) -> RatingInterval {
        RatingInterval {
            every,
            seen: finished,
        }
    }

    /// `finished` games are finished now: whether a multiple of the
    /// interval was reached since the last look (once, however many
    /// games finished at the same moment).
    pub fn due(&mut self, finished: u32) -> bool {
        let n = self.every.get();
        let due = finished / n > self.seen / n;
        self.seen = self.seen.max(finished);
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every(n: u32, finished: u32) -> RatingInterval {
        RatingInterval::new(NonZeroU32::new(n).unwrap(), finished)
    }

    #[test]
    fn it_fires_at_each_multiple_once() {
        let mut r = every(3, 0);
        let fired: Vec<u32> = (0..=10).filter(|&g| r.due(g)).collect();
        assert_eq!(fired, [3, 6, 9]);
        // The same count again: not again.
        assert!(!r.due(9));
        assert!(!r.due(10));
        let mut r = every(1, 0);
        let fired: Vec<u32> = (0..=4).filter(|&g| r.due(g)).collect();
        assert_eq!(fired, [1, 2, 3, 4]);
    }

    #[test]
    fn games_that_finish_together_across_a_multiple_fire_once() {
        let mut r = every(4, 0);
        assert!(!r.due(3));
        assert!(r.due(5), "3 -> 5 passes 4");
        assert!(!r.due(7));
        assert!(r.due(12), "7 -> 12 passes 8 and 12: said once");
    }

    #[test]
    fn a_resumed_count_goes_on_from_where_it_was() {
        let mut r = every(5, 7);
        assert!(!r.due(7));
        assert!(!r.due(9));
        assert!(r.due(10));
        // A count that goes back (it cannot) fires nothing.
        assert!(!r.due(2));
        assert!(!r.due(10));
    }
}
