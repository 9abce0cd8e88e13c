//! Latencies in microseconds, counted in fixed memory: exact below 1,024
//! µs, then in buckets 1/64 of a power of two wide (under 1.6 % error), up
//! to about 70 minutes. For figures such as a tournament's relay overhead
//! over thousands of games, where keeping every sample would grow without
//! bound.

/// Values below this are counted exactly.
const EXACT: u64 = 1024;
/// Sub-buckets per power of two above [`EXACT`].
const SUB_BITS: u32 = 6;
/// Powers of two above [`EXACT`] that are counted (2^10 .. 2^42 µs).
const OCTAVES: u32 = 32;

/// A histogram of latencies in microseconds.
#[derive(Debug, Clone)]
pub struct Latencies {
    counts: Vec<u64>,
    total: u64,
    max: u64,
}

impl Default for Latencies {
    fn default() -> Self {
        Latencies {
            counts: vec![0; EXACT as usize + (OCTAVES << SUB_BITS) as usize],
            total: 0,
            max: 0,
        }
    }
}

/// The bucket of `us`.
fn bucket(us: u64) -> usize {
    if us < EXACT {
        return us as usize;
    }
    let octave = (63 - us.leading_zeros()).min(9 + OCTAVES) - 10;
    let sub = (us >> (octave + 10 - SUB_BITS)) & ((1 << SUB_BITS) - 1);
    let top = EXACT as usize + (OCTAVES << SUB_BITS) as usize - 1;
    (EXACT as usize + ((octave << SUB_BITS) as usize) + sub as usize).min(top)
}

/// The smallest value counted in bucket `b`.
fn low(b: usize) -> u64 {
    if b < EXACT as usize {
        return b as u64;
    }
    let i = (b - EXACT as usize) as u64;
    let (octave, sub) = (i >> SUB_BITS, i & ((1 << SUB_BITS) - 1));
    (1u64 << (octave + 10)) + (sub << (octave + 10 - u64::from(SUB_BITS)))
}

impl Latencies {
    /// Counts one latency.
    pub fn add(&mut self, us: u64) {
        self.counts[bucket(us)] += 1;
        self.total += 1;
        self.max = self.max.max(us);
    }

    /// How many were counted.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// The largest counted.
    pub fn max(&self) -> u64 {
        self.max
    }

    /// The `q`-th percentile (0..=100), as the low edge of its bucket
    /// (exact below 1,024 µs); `None` when nothing was counted.
    pub fn percentile(&self, q: f64) -> Option<u64> {
        if self.total == 0 {
            return None;
        }
        let rank = ((q / 100.0) * self.total as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (b, n) in self.counts.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return Some(low(b).min(self.max));
            }
        }
        Some(self.max)
    }

    /// `N moves, median X µs, p99 Y µs, max Z µs`, or `none`.
    pub fn summary(&self) -> String {
        match (self.percentile(50.0), self.percentile(99.0)) {
            (Some(m), Some(p)) => format!(
                "{} moves, median {m} µs, p99 {p} µs, max {} µs",
                self.total, self.max
            ),
            _ => "none".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values_are_exact_and_percentiles_rank_as_sorted_samples_do() {
        let mut l = Latencies::default();
        assert_eq!(l.percentile(50.0), None);
        assert_eq!(l.summary(), "none");
        for us in (1..=100).rev() {
            l.add(us);
        }
        assert_eq!(l.count(), 100);
        assert_eq!(l.percentile(50.0), Some(50));
        assert_eq!(l.percentile(99.0), Some(99));
        assert_eq!(l.percentile(100.0), Some(100));
        assert_eq!(l.max(), 100);
        assert_eq!(
            l.summary(),
            "100 moves, median 50 µs, p99 99 µs, max 100 µs"
        );
    }

    #[test]
    fn large_values_land_within_two_percent_below_and_memory_is_fixed() {
        let mut l = Latencies::default();
        let size = l.counts.len();
        for us in [1_024, 5_000, 77_777, 1_234_567, 60_000_000, u64::MAX] {
            let b = bucket(us);
            assert!(low(b) <= us, "{us}: bucket starts at {}", low(b));
            if us < 1 << 42 {
                assert!(us - low(b) <= us / 64, "{us}: {}", low(b));
                assert!(low(b + 1) > us, "{us}: the next bucket starts above it");
            }
            l.add(us);
        }
        assert_eq!(l.counts.len(), size);
        assert_eq!(l.percentile(100.0), Some(low(bucket(u64::MAX))));
        assert_eq!(l.max(), u64::MAX);
        // Buckets are in order and do not overlap.
        assert!((1..size).all(|b| low(b) > low(b - 1)));
    }
}
