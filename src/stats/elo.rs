//! The Elo difference a match result implies, with a 95% confidence margin:
//! the logistic model, with the interval taken on the score and mapped to
//! Elo as cutechess-cli and fastchess do (see docs/statistics.md).

/// An Elo difference estimate from a match result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// The first player's rating minus the second's. `+inf` when the first
    /// player scored 100%, `-inf` at 0%.
    pub diff: f64,
    /// Half the width of the 95% confidence interval of `diff`: the interval
    /// is about `diff ± margin95`. `+inf` when the interval reaches a score of
    /// 0% or 100%. `None` when the sample has no spread at all (one game or
    /// pair, or every one scored alike, a perfect or zero score too): its
    /// variance is 0, so the interval cannot be estimated from it yet (a
    /// margin of 0 would claim a certainty the sample does not have).
    pub margin95: Option<f64>,
}

/// The 97.5% quantile of the standard normal distribution.
pub const Z_975: f64 = 1.959_963_984_540_054;

/// The mean score of a sample and the variance of that mean.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreSample {
    /// Mean score per unit (game or pair), from 0 to 1.
    pub score: f64,
    /// Variance of one unit's score around the mean.
    pub variance: f64,
    /// How many units (games or pairs).
    pub n: f64,
}

impl ScoreSample {
    /// The sample of `counts[i]` units that each scored `values[i]`; `None`
    /// when there are none.
    pub fn from_counts(values: &[f64], counts: &[u32]) -> Option<ScoreSample> {
        let n: f64 = counts.iter().map(|&c| f64::from(c)).sum();
        if n == 0.0 {
            return None;
        }
        let score = values
            .iter()
            .zip(counts)
            .map(|(v, &c)| v * f64::from(c) / n)
            .sum::<f64>();
        let variance = values
            .iter()
            .zip(counts)
            .map(|(v, &c)| f64::from(c) / n * (v - score).powi(2))
            .sum::<f64>();
        Some(ScoreSample { score, variance, n })
    }

    /// The standard error of the mean score.
    pub fn std_error(&self) -> f64 {
        (self.variance / self.n).sqrt()
    }

    /// The logistic Elo difference with the half width of its 95% interval:
    /// the score interval `score ± 1.95996 · std_error` mapped through
    /// [`logistic_diff`], `margin95 = (diff(high) − diff(low)) / 2` (the
    /// logistic curve makes the interval asymmetric; this is its half width).
    ///
    /// No margin (`None`) when the variance is 0: nothing in the sample
    /// says how far off its score may be.
    pub fn elo(&self) -> EloEstimate {
        let stderr = self.std_error();
        let high = self.score + Z_975 * stderr;
        let low = self.score - Z_975 * stderr;
        let margin95 = if self.variance <= 0.0 || !self.variance.is_finite() {
            None
        } else if low <= 0.0 || high >= 1.0 {
            Some(f64::INFINITY)
        } else {
            Some((logistic_diff(high) - logistic_diff(low)) / 2.0)
        };
        EloEstimate {
            diff: logistic_diff(self.score),
            margin95,
        }
    }
}

/// Game scores of a loss, a draw and a win.
pub const GAME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// Elo difference for `wins`, `draws` and `losses` of the first player.
///
/// With `n = w + d + l`, the score is `p = (w + d/2) / n` and the difference
/// is the logistic model's `diff(p) = -400 · log10(1/p − 1)`.
///
/// The margin is that of cutechess-cli and fastchess: the per-game score
/// variance `s² = (w/n)(1−p)² + (d/n)(½−p)² + (l/n)(0−p)²` (trinomial), the
/// standard error `s / sqrt(n)`, then [`ScoreSample::elo`].
///
/// `None` when no game was played. Never panics.
pub fn elo_difference(wins: u32, draws: u32, losses: u32) -> Option<EloEstimate> {
    ScoreSample::from_counts(&GAME_SCORES, &[losses, draws, wins]).map(|s| s.elo())
}

/// `-400 log10(1/p - 1)`, infinite at p = 0 or 1.
pub fn logistic_diff(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.01
    }

    #[test]
    fn no_games_no_estimate() {
        assert_eq!(elo_difference(0, 0, 0), None);
    }

    #[test]
    fn sixty_twenty_twenty() {
        // p = 0.7, diff = -400 log10(3/7) = 147.19
        // s = sqrt(.6*.09 + .2*.04 + .2*.49) = 0.4, se = 0.04
        // interval 0.7 ± 0.078399 = [0.621601, 0.778399]
        // diff(high) = 218.24, diff(low) = 86.21, margin = 66.01
        let e = elo_difference(60, 20, 20).unwrap();
        assert!(close(e.diff, 147.19), "{e:?}");
        assert!(close(e.margin95.unwrap(), 66.01), "{e:?}");
    }

    #[test]
    fn fastchess_trinomial_figure() {
        // fastchess app/tests/elo_test.cpp "EloWDL 2": 136 W, 111 D, 96 L
        // give 40.70 +/- 30.43.
        let e = elo_difference(136, 111, 96).unwrap();
        assert!(close(e.diff, 40.70), "{e:?}");
        assert!(close(e.margin95.unwrap(), 30.43), "{e:?}");
    }

    #[test]
    fn even_result_is_zero_and_symmetric() {
        let e = elo_difference(10, 0, 10).unwrap();
        assert_eq!(e.diff, 0.0);
        // s = 0.5, se = 0.5/sqrt(20) = 0.111803, interval [0.280873, 0.719127]
        // diff(0.719127) = 163.32, margin = 163.32
        assert!(close(e.margin95.unwrap(), 163.32), "{e:?}");
        let r = elo_difference(7, 3, 2).unwrap();
        let s = elo_difference(2, 3, 7).unwrap();
        assert!(close(r.diff, -s.diff));
        assert!(close(r.margin95.unwrap(), s.margin95.unwrap()));
    }

    #[test]
    fn no_spread_no_margin() {
        // All draws, or a single game: the variance is 0 and the interval
        // is not known (not 0).
        let e = elo_difference(0, 5, 0).unwrap();
        assert_eq!((e.diff, e.margin95), (0.0, None));
        let e = elo_difference(0, 1, 0).unwrap();
        assert_eq!((e.diff, e.margin95), (0.0, None));
    }

    #[test]
    fn perfect_and_zero_scores_are_infinite_without_a_margin() {
        let e = elo_difference(5, 0, 0).unwrap();
        assert_eq!((e.diff, e.margin95), (f64::INFINITY, None));
        let e = elo_difference(0, 0, 3).unwrap();
        assert_eq!((e.diff, e.margin95), (f64::NEG_INFINITY, None));
        // One draw among the losses: a spread, the interval reaching 0%.
        let e = elo_difference(0, 1, 3).unwrap();
        assert_eq!(e.margin95, Some(f64::INFINITY));
    }

    #[test]
    fn huge_counts_are_finite() {
        let e = elo_difference(u32::MAX, u32::MAX, u32::MAX - 1).unwrap();
        assert!(e.diff.is_finite() && e.margin95.is_some_and(f64::is_finite));
    }
}
