//! The match score: counting each result, the summary line, the statistics
//! (Elo, LOS, SPRT).

// The core's types, constants and imports are shared by its parts.
use super::*;

impl Referee {
    /// The match result: names, points, games with a result and the
    /// SPRT's decision (its words: `referee::words`, `Display`).
    pub fn summary(&self) -> MatchSummary {
        MatchSummary {
            names: ClientId::BOTH.map(|id| self.client_name(id)),
            score_halves: self.score_halves.into_array(),
            games_with_result: self.stats.wdl().iter().sum::<u32>(),
            sprt: self.sprt_result(),
        }
    }

    /// Adds a game's result to the match score (A and B in half points);
    /// `white` played White.
    pub(super) fn score(&mut self, white: ClientId, result: GameResult) {
        match result {
            GameResult::Win(c) => {
                let winner = if c == Color::White {
                    white
                } else {
                    white.other()
                };
                self.score_halves[winner] += 2;
            }
            GameResult::Draw => {
                for h in self.score_halves.values_mut() {
                    *h += 1;
                }
            }
            GameResult::None => {}
        }
    }

    /// The match statistics so far, from client A's view.
    pub fn stats(&self) -> Report {
        self.stats.report(self.settings.sprt.as_ref())
    }

    /// Each client's ponder hits and ponders over the match (the moves
    /// whose reply carried `Aponder hit` or `miss`), for the results file.
    pub fn ponder_counts(&self) -> ByClient<(u32, u32)> {
        self.ponders
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
            let event = Event::SprtDecided {
                hypothesis: h,
                llr: t.llr,
                lower_bound: t.lower_bound,
                upper_bound: t.upper_bound,
            };
            self.emit(out, event);
        }
    }
}
