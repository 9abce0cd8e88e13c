//! Match statistics as engine testers know them from cutechess-cli and
//! fastchess: Elo difference with its 95% error, likelihood of superiority,
//! draw ratio, pentanomial counts of game pairs and the SPRT. Pure
//! arithmetic: no I/O, no clock. The formulas and their sources are in
//! docs/statistics.md.
//!
//! * [`elo`]: logistic Elo from a score sample, trinomial margin.
//! * [`los`]: likelihood of superiority.
//! * [`pentanomial`]: game-pair counts and their Elo margin.
//! * [`sprt`]: the pentanomial SPRT (normalized or logistic bounds).
//! * [`latency`]: latencies counted in fixed memory (percentiles).
//! * [`interval`]: when `--rating-interval N` says the figures again.
//! * [`MatchStats`]: the running tally of one match, and its [`Report`]
//!   (in words with [`Report::line`], as JSON with [`Report::to_json`]).

pub mod elo;
pub mod interval;
pub mod latency;
pub mod los;
pub mod pentanomial;
pub mod sprt;
mod words;

use elo::{EloEstimate, GAME_SCORES, ScoreSample};
use pentanomial::Pentanomial;
use sprt::{Hypothesis, Sprt};

/// One game's result from the first player's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameScore {
    Loss,
    Draw,
    Win,
}

impl GameScore {
    fn half_points(self) -> usize {
        match self {
            GameScore::Loss => 0,
            GameScore::Draw => 1,
            GameScore::Win => 2,
        }
    }
}

/// The running tally of a two-player match from the first player's view.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MatchStats {
    /// Wins, draws and losses.
    wdl: [u32; 3],
    /// Completed game pairs (games 1-2, 3-4, ...).
    penta: Pentanomial,
    /// The first game of the pair in progress: its number and score.
    open_pair: Option<(u32, GameScore)>,
}

impl MatchStats {
    /// Counts game `number` (1-based). `None` is a game without a result:
    /// it counts for nothing and leaves its pair incomplete. Games pair up as
    /// 1-2, 3-4, ... (the colours swap within a pair).
    pub fn record(&mut self, number: u32, score: Option<GameScore>) {
        let Some(score) = score else {
            self.open_pair = None;
            return;
        };
        if number % 2 == 1 {
            self.count(score, None);
            self.open_pair = Some((number, score));
        } else {
            let first = self
                .open_pair
                .filter(|&(first, _)| first.checked_add(1) == Some(number));
            self.count(score, first.map(|(_, s)| s));
            self.open_pair = None;
        }
    }

    /// Counts a game with `score` as it ends, in any order: with
    /// `partner`, the score of the other game of its pair when that one
    /// was counted before it, the pair is complete and counted too. (What
    /// [`MatchStats::record`] does for games given in order; this is for
    /// a tally kept as games on many boards end.)
    pub fn count(&mut self, score: GameScore, partner: Option<GameScore>) {
        let slot = match score {
            GameScore::Win => 0,
            GameScore::Draw => 1,
            GameScore::Loss => 2,
        };
        self.wdl[slot] = self.wdl[slot].saturating_add(1);
        if let Some(s) = partner {
            let bin = s.half_points() + score.half_points();
            self.penta[bin] = self.penta[bin].saturating_add(1);
        }
    }

    /// Wins, draws and losses of the first player.
    pub fn wdl(&self) -> [u32; 3] {
        self.wdl
    }

    /// The pentanomial counts `[LL, LD, DD/WL, WD, WW]`.
    pub fn pentanomial(&self) -> Pentanomial {
        self.penta
    }

    /// How many pairs are complete.
    pub fn pairs(&self) -> u32 {
        self.penta.iter().sum()
    }

    /// Everything there is to say about the match so far; with `sprt`, the
    /// test on the completed pairs too.
    pub fn report(&self, sprt: Option<&Sprt>) -> Report {
        let [wins, draws, losses] = self.wdl;
        let games = wins + draws + losses;
        let trinomial = ScoreSample::from_counts(&GAME_SCORES, &[losses, draws, wins]);
        let pairs = pentanomial::sample(&self.penta);
        Report {
            games,
            wins,
            draws,
            losses,
            score: trinomial.map(|s| s.score),
            elo: trinomial.map(|s| s.elo()),
            los: trinomial.map(|s| los::los(&s)),
            draw_ratio: (games > 0).then(|| f64::from(draws) / f64::from(games)),
            pentanomial: self.penta,
            pairs: self.pairs(),
            penta_elo: pairs.map(|s| s.elo()),
            penta_los: pairs.map(|s| los::los(&s)),
            sprt: sprt.map(|t| {
                let llr = t.llr(&self.penta);
                SprtReport {
                    llr,
                    lower_bound: t.lower_bound(),
                    upper_bound: t.upper_bound(),
                    result: t.decide(llr),
                }
            }),
        }
    }
}

/// The statistics of a match at one moment. `None` fields need at least one
/// game (or pair) to mean anything.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Points per game, 0 to 1.
    pub score: Option<f64>,
    /// Logistic Elo with the trinomial 95% margin.
    pub elo: Option<EloEstimate>,
    /// Likelihood of superiority (trinomial), 0 to 1.
    pub los: Option<f64>,
    /// Draws per game, 0 to 1.
    pub draw_ratio: Option<f64>,
    pub pentanomial: Pentanomial,
    pub pairs: u32,
    /// Logistic Elo with the pentanomial 95% margin.
    pub penta_elo: Option<EloEstimate>,
    /// Likelihood of superiority from the pairs.
    pub penta_los: Option<f64>,
    pub sprt: Option<SprtReport>,
}

/// Where the SPRT stands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtReport {
    pub llr: f64,
    pub lower_bound: f64,
    pub upper_bound: f64,
    /// The accepted hypothesis once a bound is crossed.
    pub result: Option<Hypothesis>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameScore::*;

    #[test]
    fn no_games_reports_nothing_estimated() {
        let r = MatchStats::default().report(None);
        assert_eq!((r.games, r.pairs, r.pentanomial), (0, 0, [0; 5]));
        assert_eq!(
            (r.score, r.elo, r.los, r.draw_ratio),
            (None, None, None, None)
        );
        assert_eq!((r.penta_elo, r.penta_los, r.sprt), (None, None, None));
    }

    #[test]
    fn pairs_are_games_one_two_three_four() {
        let mut s = MatchStats::default();
        for (n, g) in [(1, Win), (2, Loss), (3, Draw), (4, Win), (5, Win)] {
            s.record(n, Some(g));
        }
        assert_eq!(s.wdl(), [3, 1, 1]);
        // (W, L) -> 1 point, (D, W) -> 1½ points; game 5 is still open.
        assert_eq!(s.pentanomial(), [0, 0, 1, 1, 0]);
        s.record(6, Some(Draw));
        assert_eq!(s.pentanomial(), [0, 0, 1, 2, 0]);
    }

    #[test]
    fn a_game_without_result_breaks_its_pair() {
        let mut s = MatchStats::default();
        s.record(1, Some(Win));
        s.record(2, None);
        s.record(3, None);
        s.record(4, Some(Win));
        assert_eq!(s.wdl(), [2, 0, 0]);
        assert_eq!(s.pairs(), 0);
    }

    #[test]
    fn all_draws_and_all_wins() {
        let mut d = MatchStats::default();
        let mut w = MatchStats::default();
        for n in 1..=4 {
            d.record(n, Some(Draw));
            w.record(n, Some(Win));
        }
        let rd = d.report(None);
        assert_eq!(rd.pentanomial, [0, 0, 2, 0, 0]);
        assert_eq!(
            (rd.score, rd.draw_ratio, rd.los),
            (Some(0.5), Some(1.0), Some(0.5))
        );
        assert_eq!(rd.elo.map(|e| (e.diff, e.margin95)), Some((0.0, None)));
        let rw = w.report(None);
        assert_eq!(rw.pentanomial, [0, 0, 0, 0, 2]);
        assert_eq!((rw.score, rw.los), (Some(1.0), Some(1.0)));
        assert_eq!(rw.elo.map(|e| e.diff), Some(f64::INFINITY));
    }

    #[test]
    fn report_carries_the_sprt() {
        let mut s = MatchStats::default();
        for n in 1..=400 {
            s.record(n, Some(if n % 4 == 0 { Draw } else { Win }));
        }
        let t: Sprt = "elo0=0 elo1=5".parse().unwrap();
        let r = s.report(Some(&t)).sprt.unwrap();
        assert_eq!(r.result, Some(Hypothesis::H1));
        assert!(r.llr >= r.upper_bound);
    }
}
