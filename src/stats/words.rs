//! The statistics in words (the headless line, the board's status area)
//! and as the JSON object of `--results-json`.

use serde_json::{Value, json};

use super::Report;
use super::elo::EloEstimate;
use crate::text::strip_control;

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
                elo_words(&elo, self.games, "game"),
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
                elo_words(&e, self.pairs, "pair")
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
                elo_words(&elo, self.games, "game"),
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

    /// [`Report::line`] said of `player`, the one whose wins, draws and
    /// losses they are: `stats for Alpha: 4 games, W-D-L ...` (the name
    /// stripped of control characters).
    pub fn line_for(&self, player: &str) -> String {
        format!("stats for {}: {}", strip_control(player), self.line())
    }

    /// The `--results-json` object. Infinite Elo figures (a perfect or zero
    /// score) are `null`, as JSON has no infinity; so is an error not known
    /// yet (no spread in the games or pairs: one of them, or all alike).
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
            "elo_error95": finite(self.elo.and_then(|e| e.margin95)),
            "los": self.los,
            "penta_elo_error95": finite(self.penta_elo.and_then(|e| e.margin95)),
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

/// `+58 +/- 120`, `-95 +/- inf`; with no margin (no spread among the `n`
/// games or pairs) `-191 +/- ? (1 pair is too few)` or
/// `+0 +/- ? (all 4 games alike)`: an error of 0 would claim a certainty
/// the sample does not have.
fn elo_words(e: &EloEstimate, n: u32, unit: &str) -> String {
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
    let margin = match e.margin95 {
        Some(m) if m.is_finite() => format!("{m:.0}"),
        Some(_) => "inf".into(),
        None if n == 1 => format!("? (1 {unit} is too few)"),
        None => format!("? (all {n} {unit}s alike)"),
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
        assert!(
            r.line().contains("Elo +inf +/- ? (all 2 games alike)"),
            "{}",
            r.line()
        );
        assert!(r.to_json()["elo"].is_null());
        assert_eq!(r.to_json()["los"], 1.0);
    }

    #[test]
    fn an_error_not_known_yet_is_said_so_never_zero() {
        use GameScore::*;
        // One draw: no spread.
        let r = played(&[Draw]).report(None);
        let line = r.line();
        assert!(line.contains("Elo +0 +/- ? (1 game is too few)"), "{line}");
        assert!(r.short().contains("Elo +0 +/- ? (1 game is too few)"));
        assert!(!line.contains("+/- 0"), "{line}");
        assert!(r.to_json()["elo_error95"].is_null());
        assert_eq!(r.to_json()["elo"], 0.0);
        // One pair, a draw and a loss: the games differ (a trinomial
        // interval, reaching 0%), the one pair has none.
        let r = played(&[Draw, Loss]).report(None);
        let line = r.line();
        assert!(line.contains(", Elo -191 +/- inf,"), "{line}");
        assert!(
            line.ends_with("pentanomial Elo -191 +/- ? (1 pair is too few)"),
            "{line}"
        );
        let j = r.to_json();
        assert!(j["penta_elo_error95"].is_null() && j["elo_error95"].is_null());
        // Three pairs all alike.
        let r = played(&[Draw, Draw, Win, Loss, Loss, Win]).report(None);
        assert!(
            r.line()
                .ends_with("pentanomial Elo +0 +/- ? (all 3 pairs alike)"),
            "{}",
            r.line()
        );
        // With a spread the margin is a number.
        let r = played(&[Win, Draw, Loss, Draw]).report(None);
        assert!(r.to_json()["elo_error95"].is_f64(), "{}", r.to_json());
        assert!(!r.line().contains('?'), "{}", r.line());
    }

    #[test]
    fn the_line_for_a_player_names_whose_results_they_are() {
        let r = played(&[GameScore::Win, GameScore::Loss]).report(None);
        assert_eq!(
            r.line_for("Alpha\x1b[2J"),
            format!("stats for Alpha[2J: {}", r.line())
        );
        assert!(
            r.line_for("Alpha")
                .starts_with("stats for Alpha: 2 games, W-D-L 1-0-1")
        );
    }
}
