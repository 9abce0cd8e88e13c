//! The match score: counting each result, the summary line, the statistics
//! (Elo, LOS, SPRT).

// The core's types, constants and imports are shared by its parts.
use super::*;

impl Referee {
    /// The match result in one line, with the statistics for A.
    pub fn summary(&self) -> String {
        let played = self.stats.wdl().iter().sum::<u32>();
        let mut s = format!(
            "match over: {} {} - {} {} ({} game{} with a result)",
            self.client_name(ClientId::A),
            half_points(self.score_halves.a),
            half_points(self.score_halves.b),
            self.client_name(ClientId::B),
            played,
            if played == 1 { "" } else { "s" }
        );
        if let Some(h) = self.sprt_result() {
            s.push_str(&format!("; SPRT: {} accepted", h.as_str()));
        }
        s
    }

    /// The match statistics so far, from client A's view.
    pub fn stats(&self) -> Report {
        self.stats.report(self.settings.sprt.as_ref())
    }

    /// The hypothesis the SPRT accepted, once a bound is crossed.
    pub(super) fn sprt_result(&self) -> Option<Hypothesis> {
        self.stats().sprt.and_then(|t| t.result)
    }

    /// Counts a finished game for A and, when it completes a pair that
    /// decides the SPRT, says so (the session ends after this game).
    pub(super) fn count_result(
        &mut self,
        number: u32,
        white: ClientId,
        result: GameResult,
        out: &mut Vec<Output>,
    ) {
        let score = match result {
            GameResult::Win(c) if (c == Color::White) == (white == ClientId::A) => {
                Some(GameScore::Win)
            }
            GameResult::Win(_) => Some(GameScore::Loss),
            GameResult::Draw => Some(GameScore::Draw),
            GameResult::None => None,
        };
        let before = self.sprt_result();
        self.stats.record(number, score);
        if before.is_none()
            && let Some(t) = self.stats().sprt
            && let Some(h) = t.result
        {
            self.notice(
                out,
                EventKind::Info,
                format!(
                    "SPRT: {} accepted (LLR {:.2}, bounds {:.2} to {:.2}); the match stops",
                    h.as_str(),
                    t.llr,
                    t.lower_bound,
                    t.upper_bound
                ),
            );
        }
    }
}
