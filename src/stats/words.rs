//! The statistics in words (the headless line, the board's status area)
//! and as the JSON object of `--results-json`.

use serde_json::{Value, json};

use super::Report;
use super::elo::EloEstimate;

impl Report {
    /// One line: games, W-D-L, score, Elo ± 95%, LOS, draw ratio, and with
    /// pairs the pentanomial counts and margin, and the SPRT.
    pub fn line(&self) -> String {
        let mut s = format!(
            "{} game{}, W-D-L {}-{}-{}",
            self.games,
            if self.games == 1 { "" } else { "s" },
            self.wins,
            self.draws,
            self.losses
        );
        if let (Some(score), Some(elo), Some(los), Some(draws)) =
            (self.score, self.elo, self.los, self.draw_ratio)
        {
            s.push_str(&format!(
                ", score {:.1}%, Elo {}, LOS {:.1}%, draws {:.1}%",
                score * 100.0,
                elo_words(&elo),
                los * 100.0,
                draws * 100.0
            ));
        }
        if let Some(e) = self.penta_elo {
            let [ll, ld, dd, wd, ww] = self.pentanomial;
            s.push_str(&format!(
                "; {} pair{} [{ll}, {ld}, {dd}, {wd}, {ww}], pentanomial Elo {}",
                self.pairs,
                if self.pairs == 1 { "" } else { "s" },
                elo_words(&e)
            ));
        }
        if let Some(t) = &self.sprt {
            s.push_str(&format!(
                "; SPRT LLR {:.2} ({:.2}, {:.2})",
                t.llr, t.lower_bound, t.upper_bound
            ));
            if let Some(h) = t.result {
                s.push_str(&format!(" {} accepted", h.as_str()));
            }
        }
        s
    }

    /// The few figures that fit the board's status row: W-D-L, Elo ± 95%,
    /// LOS and, with the SPRT, the LLR and its bounds.
    pub fn short(&self) -> String {
        let mut s = format!("W-D-L {}-{}-{}", self.wins, self.draws, self.losses);
        if let (Some(elo), Some(los)) = (self.elo, self.los) {
            s.push_str(&format!(
                ", Elo {}, LOS {:.0}%",
                elo_words(&elo),
                los * 100.0
            ));
        }
        if let Some(t) = &self.sprt {
            s.push_str(&format!(
                ", LLR {:.2} ({:.2}, {:.2})",
                t.llr, t.lower_bound, t.upper_bound
            ));
        }
        s
    }

    /// The `--results-json` object. Infinite Elo figures (a perfect or zero
    /// score) are `null`, as JSON has no infinity.
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": self.score,
            "draw_ratio": self.draw_ratio,
            "pentanomial": self.pentanomial,
            "elo": finite(self.elo.map(|e| e.diff)),
            "elo_error95": finite(self.elo.map(|e| e.margin95)),
            "los": self.los,
            "penta_elo_error95": finite(self.penta_elo.map(|e| e.margin95)),
            "penta_los": self.penta_los,
        });
        if let (Some(t), Some(map)) = (&self.sprt, v.as_object_mut()) {
            map.insert("llr".into(), json!(finite(Some(t.llr))));
            map.insert("lower_bound".into(), json!(t.lower_bound));
            map.insert("upper_bound".into(), json!(t.upper_bound));
            map.insert("sprt_result".into(), json!(t.result.map(|h| h.as_str())));
        }
        v
    }
}

/// `+58 +/- 120`, `+inf`, `-inf +/- inf`.
fn elo_words(e: &EloEstimate) -> String {
    let num = |x: f64| {
        if x.is_finite() {
            // No "-0" for a tiny negative difference.
            let r = if x.round() == 0.0 { 0.0 } else { x };
            format!("{r:+.0}")
        } else if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    };
    let margin = if e.margin95.is_finite() {
        format!("{:.0}", e.margin95)
    } else {
        "inf".into()
    };
    format!("{} +/- {margin}", num(e.diff))
}

fn finite(x: Option<f64>) -> Option<f64> {
    x.filter(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use crate::stats::sprt::Sprt;
    use crate::stats::{GameScore, MatchStats};

    fn played(scores: &[GameScore]) -> MatchStats {
        let mut s = MatchStats::default();
        for (i, g) in scores.iter().enumerate() {
            s.record(i as u32 + 1, Some(*g));
        }
        s
    }

    #[test]
    fn no_games() {
        let r = MatchStats::default().report(None);
        assert_eq!(r.line(), "0 games, W-D-L 0-0-0");
        let j = r.to_json();
        assert_eq!(j["games"], 0);
        assert!(j["elo"].is_null() && j["los"].is_null());
        assert_eq!(j["pentanomial"], serde_json::json!([0, 0, 0, 0, 0]));
        assert!(j.get("llr").is_none());
    }

    #[test]
    fn a_line_and_an_object_with_pairs_and_sprt() {
        use GameScore::*;
        let s = played(&[Win, Draw, Loss, Win, Draw, Draw]);
        let t: Sprt = "elo0=0 elo1=5".parse().unwrap();
        let r = s.report(Some(&t));
        let line = r.line();
        assert!(
            line.starts_with("6 games, W-D-L 2-3-1, score 58.3%, Elo +58 +/- "),
            "{line}"
        );
        assert!(line.contains("; 3 pairs [0, 0, 2, 1, 0], pentanomial Elo +58 +/- "));
        assert!(line.contains("; SPRT LLR "), "{line}");
        let short = r.short();
        assert!(short.starts_with("W-D-L 2-3-1, Elo +58 +/- "), "{short}");
        assert!(
            short.contains(", LOS ") && short.contains(", LLR "),
            "{short}"
        );
        let j = r.to_json();
        assert_eq!(
            (j["wins"].as_u64(), j["draws"].as_u64()),
            (Some(2), Some(3))
        );
        assert_eq!(j["pentanomial"], serde_json::json!([0, 0, 2, 1, 0]));
        assert!(j["llr"].is_f64() && j["sprt_result"].is_null());
        assert!((j["lower_bound"].as_f64().unwrap() + 2.944).abs() < 1e-3);
    }

    #[test]
    fn a_perfect_score_has_no_finite_elo() {
        let r = played(&[GameScore::Win; 2]).report(None);
        assert!(r.line().contains("Elo +inf +/- inf"), "{}", r.line());
        assert!(r.to_json()["elo"].is_null());
        assert_eq!(r.to_json()["los"], 1.0);
    }
}
