//! The likelihood of superiority: the probability, under the normal
//! approximation, that the first player is the stronger (fastchess's
//! formula; see docs/statistics.md).

use super::elo::ScoreSample;

/// `LOS = (1 − erf(−(score − ½) / sqrt(2 · var / n))) / 2`, from 0 to 1.
///
/// With no spread at all (every game or pair scored the same) the answer is
/// 1 above a score of ½, 0 below it and ½ at it.
pub fn los(sample: &ScoreSample) -> f64 {
    let var_of_mean = sample.variance / sample.n;
    let excess = sample.score - 0.5;
    if var_of_mean <= 0.0 || !var_of_mean.is_finite() {
        return if excess > 0.0 {
            1.0
        } else if excess < 0.0 {
            0.0
        } else {
            0.5
        };
    }
    (1.0 - libm::erf(-excess / (2.0 * var_of_mean).sqrt())) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::elo::GAME_SCORES;

    fn wdl(w: u32, d: u32, l: u32) -> f64 {
        los(&ScoreSample::from_counts(&GAME_SCORES, &[l, d, w]).unwrap())
    }

    #[test]
    fn fastchess_trinomial_figures() {
        // fastchess app/tests/elo_test.cpp, "EloWDL 1" and "EloWDL 2"
        // (Stats(wins, losses, draws)): 15.53 % and 99.60 %.
        assert!((wdl(76, 123, 89) - 0.1553).abs() < 5e-5);
        assert!((wdl(136, 111, 96) - 0.9960).abs() < 5e-5);
    }

    #[test]
    fn even_score_is_half_and_mirrors() {
        assert_eq!(wdl(5, 3, 5), 0.5);
        assert!((wdl(7, 2, 3) + wdl(3, 2, 7) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn no_spread() {
        assert_eq!(wdl(0, 9, 0), 0.5);
        assert_eq!(wdl(4, 0, 0), 1.0);
        assert_eq!(wdl(0, 0, 4), 0.0);
    }
}
