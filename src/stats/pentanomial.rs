//! Game pairs: two consecutive games of the same opening with colours
//! swapped. Their combined score (0, ½, 1, 1½ or 2 points) is counted in
//! five bins, the pentanomial counts, whose variance is smaller and truer
//! than the trinomial one because the two games of a pair are correlated
//! (fastchess's `EloPentanomial`; see docs/statistics.md).

use super::elo::{EloEstimate, ScoreSample};

/// A pair's score per game, for the bins `[LL, LD, DD+WL, WD, WW]`.
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Counts of game pairs by the first player's points in the pair:
/// `[LL, LD/DL, DD/WL/LW, WD/DW, WW]`.
pub type Pentanomial = [u32; 5];

/// The pairs as a score sample (score per game of the pair, from 0 to 1);
/// `None` with no pair.
pub fn sample(counts: &Pentanomial) -> Option<ScoreSample> {
    ScoreSample::from_counts(&PAIR_SCORES, counts)
}

/// The logistic Elo difference with its pentanomial 95% margin:
/// `score = WW + ¾·WD + ½·(WL+DD) + ¼·LD` (as fractions of the pairs), the
/// per-pair variance around it, and the interval of [`ScoreSample::elo`].
/// `None` with no pair.
pub fn elo(counts: &Pentanomial) -> Option<EloEstimate> {
    sample(counts).map(|s| s.elo())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::los::los;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    // fastchess app/tests/elo_test.cpp: Stats(LL, LD, WL, DD, WD, WW).
    #[test]
    fn fastchess_pentanomial_1() {
        let c = [34, 54, 31 + 32, 64, 75];
        let e = elo(&c).unwrap();
        assert!(close(e.diff, 55.58, 0.01), "{e:?}");
        assert!(close(e.margin95.unwrap(), 27.65, 0.01), "{e:?}");
        assert!(los(&sample(&c).unwrap()) > 0.99995);
    }

    #[test]
    fn fastchess_pentanomial_2() {
        let c = [332, 433, 457 + 41, 333, 334];
        let e = elo(&c).unwrap();
        assert!(close(e.diff, -8.64, 0.01), "{e:?}");
        assert!(close(e.margin95.unwrap(), 10.33, 0.01), "{e:?}");
        assert!(close(los(&sample(&c).unwrap()), 0.0505, 5e-5));
    }

    #[test]
    fn fastchess_pentanomial_3() {
        let c = [7895, 8757, 5485 + 200, 568, 9999];
        let e = elo(&c).unwrap();
        assert!(close(e.diff, -21.04, 0.01), "{e:?}");
        assert!(close(e.margin95.unwrap(), 2.95, 0.01), "{e:?}");
    }

    #[test]
    fn edge_cases() {
        assert_eq!(elo(&[0; 5]), None);
        let draws = elo(&[0, 0, 7, 0, 0]).unwrap();
        assert_eq!((draws.diff, draws.margin95), (0.0, None));
        let wins = elo(&[0, 0, 0, 0, 3]).unwrap();
        assert_eq!((wins.diff, wins.margin95), (f64::INFINITY, None));
        // One pair, a draw and a loss: -191 Elo, its error not known.
        let one = elo(&[0, 1, 0, 0, 0]).unwrap();
        assert!(close(one.diff, -190.85, 0.01), "{one:?}");
        assert_eq!(one.margin95, None);
    }

    #[test]
    fn pairs_narrow_the_margin_when_games_in_a_pair_offset() {
        // 10 pairs, each a win and a loss: trinomially 10 W and 10 L (a wide
        // margin), but every pair scored exactly 1 point: no spread.
        let tri = crate::stats::elo::elo_difference(10, 0, 10).unwrap();
        let pen = elo(&[0, 0, 10, 0, 0]).unwrap();
        assert!(tri.margin95.unwrap() > 100.0);
        assert_eq!(pen.margin95, None);
    }
}
