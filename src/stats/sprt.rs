//! The sequential probability ratio test on game pairs, as fishtest and
//! fastchess compute it: the generalised SPRT of Michel Van den Bergh
//! ("Comments on Normalized Elo"), with the log-likelihood ratio of the
//! pentanomial counts under the maximum-likelihood distributions whose Elo
//! is `elo0` (H0) and `elo1` (H1). See docs/statistics.md.

use std::fmt;
use std::str::FromStr;

use super::pentanomial::{PAIR_SCORES, Pentanomial};

/// How `elo0` and `elo1` are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SprtModel {
    /// Normalised Elo (fishtest's default and fastchess's): the Elo scale
    /// divided by the spread of the results.
    Normalized,
    /// Logistic Elo: the bounds are expected scores `1 / (1 + 10^(−elo/400))`.
    Logistic,
}

/// Which hypothesis a finished test accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Hypothesis {
    /// The difference is `elo0` (or less): no gain.
    H0,
    /// The difference is `elo1` (or more).
    H1,
}

impl Hypothesis {
    /// `"H0"` or `"H1"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Hypothesis::H0 => "H0",
            Hypothesis::H1 => "H1",
        }
    }
}

/// An SPRT set up with its hypotheses and error rates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

/// `800 / ln 10`: the slope of the logistic Elo curve at a score of ½, in
/// Elo per unit of score, times 4.
const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

impl Sprt {
    /// The LLR below which H0 is accepted: `ln(β / (1 − α))`.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The LLR above which H1 is accepted: `ln((1 − β) / α)`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The hypothesis accepted at this LLR, if a bound is crossed.
    pub fn decide(&self, llr: f64) -> Option<Hypothesis> {
        if llr >= self.upper_bound() {
            Some(Hypothesis::H1)
        } else if llr <= self.lower_bound() {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }

    /// The log-likelihood ratio of H1 against H0 for these pair counts.
    /// Empty bins count as 0.001 (as fastchess regularises them), so a
    /// handful of pairs already gives a finite answer; 0 with no pair.
    pub fn llr(&self, counts: &Pentanomial) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let reg: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { 1e-3 } else { f64::from(c) })
            .collect();
        let total: f64 = reg.iter().sum();
        let probs: [f64; 5] = std::array::from_fn(|i| reg[i] / total);
        let (p0, p1) = match self.model {
            SprtModel::Normalized => {
                let t = |elo: f64| std::f64::consts::SQRT_2 * elo / NELO_SCALE;
                (
                    mle_normalized(&probs, t(self.elo0)),
                    mle_normalized(&probs, t(self.elo1)),
                )
            }
            SprtModel::Logistic => {
                let s = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
                (
                    mle_expected(&probs, s(self.elo0)),
                    mle_expected(&probs, s(self.elo1)),
                )
            }
        };
        total
            * (0..5)
                .map(|i| probs[i] * (p1[i].ln() - p0[i].ln()))
                .sum::<f64>()
    }
}

/// The root of a decreasing function `f` on the open interval `(lo, hi)`
/// (`f > 0` near `lo`, `< 0` near `hi`), by bisection.
fn decreasing_root(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if mid <= lo || mid >= hi {
            break;
        }
        let v = f(mid);
        if v == 0.0 {
            return mid;
        } else if v > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The distribution nearest (in likelihood) to the empirical `probs` whose
/// expected pair score is `s` (proposition 1.1 of Van den Bergh).
fn mle_expected(probs: &[f64; 5], s: f64) -> [f64; 5] {
    let a = PAIR_SCORES;
    let theta = decreasing_root(
        |x| {
            (0..5)
                .map(|i| probs[i] * (a[i] - s) / (1.0 + x * (a[i] - s)))
                .sum()
        },
        -1.0 / (a[4] - s),
        -1.0 / (a[0] - s),
    );
    std::array::from_fn(|i| probs[i] / (1.0 + theta * (a[i] - s)))
}

/// The distribution nearest to `probs` whose normalised score
/// `(mean − ½) / sigma` is `t` (section 4.1 of Van den Bergh): a fixed
/// point iteration from the uniform distribution.
fn mle_normalized(probs: &[f64; 5], t: f64) -> [f64; 5] {
    let a = PAIR_SCORES;
    let mut p = [0.2; 5];
    for _ in 0..1000 {
        let mu: f64 = (0..5).map(|i| a[i] * p[i]).sum();
        let var: f64 = (0..5).map(|i| p[i] * (a[i] - mu).powi(2)).sum();
        let sigma = var.sqrt();
        let phi: [f64; 5] = std::array::from_fn(|i| {
            let z = (a[i] - mu) / sigma;
            a[i] - 0.5 - 0.5 * t * sigma * (1.0 + z * z)
        });
        let u = phi.iter().copied().fold(f64::INFINITY, f64::min);
        let v = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !(u < 0.0 && v > 0.0) {
            break; // no distribution has this t: keep the last estimate
        }
        let theta = decreasing_root(
            |x| (0..5).map(|i| probs[i] * phi[i] / (1.0 + x * phi[i])).sum(),
            -1.0 / v,
            -1.0 / u,
        );
        let mut max_diff: f64 = 0.0;
        for i in 0..5 {
            let next = probs[i] / (1.0 + theta * phi[i]);
            max_diff = max_diff.max((next - p[i]).abs());
            p[i] = next;
        }
        if max_diff < 1e-4 {
            break;
        }
    }
    p
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={} model={}",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            match self.model {
                SprtModel::Normalized => "normalized",
                SprtModel::Logistic => "logistic",
            }
        )
    }
}

/// What is wrong with an SPRT's text (`--sprt`, the journal's `sprt`
/// setting): the field and its value as given.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("`{0}` is not KEY=VALUE")]
    NotKeyValue(String),
    #[error("{key}: `{value}` is not a number")]
    NotANumber { key: String, value: String },
    #[error("model: `{0}` is neither normalized nor logistic")]
    UnknownModel(String),
    #[error("unknown field `{0}` (elo0, elo1, alpha, beta, model)")]
    UnknownField(String),
    #[error("{0} is missing")]
    Missing(&'static str),
    #[error("elo0 ({elo0}) must be less than elo1 ({elo1})")]
    Bounds { elo0: f64, elo1: f64 },
    #[error("{name} ({value}) must be between 0 and 1")]
    Probability { name: &'static str, value: f64 },
    #[error("alpha + beta ({0}) must be below 1")]
    ErrorsSum(f64),
}

impl FromStr for Sprt {
    type Err = SprtError;

    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized|logistic]`
    /// (spaces or commas between the fields; alpha and beta default to
    /// 0.05, the model to normalized).
    fn from_str(s: &str) -> Result<Sprt, SprtError> {
        let (mut elo0, mut elo1) = (None, None);
        let (mut alpha, mut beta, mut model) = (0.05, 0.05, SprtModel::Normalized);
        for field in s.split([' ', ',']).filter(|f| !f.is_empty()) {
            let (key, value) = field
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(field.to_string()))?;
            let number = || {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| SprtError::NotANumber {
                        key: key.to_string(),
                        value: value.to_string(),
                    })
            };
            match key {
                "elo0" => elo0 = Some(number()?),
                "elo1" => elo1 = Some(number()?),
                "alpha" => alpha = number()?,
                "beta" => beta = number()?,
                "model" => {
                    model = match value {
                        "normalized" => SprtModel::Normalized,
                        "logistic" => SprtModel::Logistic,
                        _ => return Err(SprtError::UnknownModel(value.to_string())),
                    }
                }
                _ => return Err(SprtError::UnknownField(key.to_string())),
            }
        }
        let elo0 = elo0.ok_or(SprtError::Missing("elo0"))?;
        let elo1 = elo1.ok_or(SprtError::Missing("elo1"))?;
        if elo0 >= elo1 {
            return Err(SprtError::Bounds { elo0, elo1 });
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(SprtError::Probability { name, value });
            }
        }
        if alpha + beta >= 1.0 {
            return Err(SprtError::ErrorsSum(alpha + beta));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    /// fastchess app/tests/sprt_test.cpp gives Stats(LL, LD, WL, DD, WD,
    /// WW) and the LLR to within 1 %.
    fn check(s: Sprt, [ll, ld, wl, dd, wd, ww]: [u32; 6], want: f64) {
        let got = s.llr(&[ll, ld, wl + dd, wd, ww]);
        assert!(
            (got - want).abs() <= want.abs() * 0.01,
            "{s}: got {got}, want {want}"
        );
    }

    #[test]
    fn fastchess_normalized_figures() {
        let n = SprtModel::Normalized;
        check(
            sprt(0.0, 2.0, n),
            [365, 16618, 36029, 200, 16974, 390],
            2.25,
        );
        check(
            sprt(-1.75, 0.25, n),
            [127, 4883, 10311, 401, 5150, 104],
            3.01,
        );
    }

    #[test]
    fn fastchess_logistic_figures() {
        let l = SprtModel::Logistic;
        check(
            sprt(0.5, 2.5, l),
            [223, 9863, 20279, 1000, 10037, 246],
            -3.07,
        );
        check(
            sprt(0.0, 2.0, l),
            [871, 26175, 55003, 980, 26678, 821],
            -4.98,
        );
    }

    #[test]
    fn bounds_and_decisions() {
        let s = sprt(0.0, 5.0, SprtModel::Normalized);
        assert!((s.lower_bound() + 2.944_438_979).abs() < 1e-6);
        assert!((s.upper_bound() - 2.944_438_979).abs() < 1e-6);
        assert_eq!(s.decide(3.0), Some(Hypothesis::H1));
        assert_eq!(s.decide(-3.0), Some(Hypothesis::H0));
        assert_eq!(s.decide(0.0), None);
    }

    #[test]
    fn edge_cases_are_finite() {
        for model in [SprtModel::Normalized, SprtModel::Logistic] {
            let s = sprt(0.0, 5.0, model);
            assert_eq!(s.llr(&[0; 5]), 0.0);
            let draws = s.llr(&[0, 0, 50, 0, 0]);
            assert!(draws.is_finite(), "{model:?}: {draws}");
            let wins = s.llr(&[0, 0, 0, 0, 50]);
            assert!(wins.is_finite() && wins > 0.0, "{model:?}: {wins}");
            let losses = s.llr(&[50, 0, 0, 0, 0]);
            assert!(losses.is_finite() && losses < 0.0, "{model:?}: {losses}");
        }
    }

    #[test]
    fn parses_the_cutechess_style_spec() {
        let s: Sprt = "elo0=0 elo1=5 alpha=0.05 beta=0.1 model=logistic"
            .parse()
            .unwrap();
        assert_eq!(
            (s.elo0, s.elo1, s.alpha, s.beta, s.model),
            (0.0, 5.0, 0.05, 0.1, SprtModel::Logistic)
        );
        let d: Sprt = "elo0=-1,elo1=3".parse().unwrap();
        assert_eq!(d.model, SprtModel::Normalized);
        for bad in [
            "elo0=5 elo1=0",
            "elo1=5",
            "elo0=0 elo1=5 alpha=1",
            "elo0=0 elo1=5 alpha=0.6 beta=0.5",
            "elo0=0 elo1=5 model=bayesian",
            "elo0=x elo1=5",
            "elo0=0 elo1=5 gamma=1",
            "elo0",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
        assert_eq!(
            "elo0=5 elo1=0".parse::<Sprt>(),
            Err(SprtError::Bounds {
                elo0: 5.0,
                elo1: 0.0
            })
        );
        assert_eq!(
            "elo1=5".parse::<Sprt>().unwrap_err().to_string(),
            "elo0 is missing"
        );
    }
}
