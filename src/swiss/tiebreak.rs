//! FIDE's tie-breaks (handbook C.07, the 2023 regulations) for a Swiss
//! event, a pure function of the same player records the pairing reads:
//! Buchholz Cut-1, Buchholz, Sonneborn-Berger, direct encounter and the
//! number of wins, the default order for a Swiss in issue 32.
//!
//! Unplayed rounds (byes, forfeits, absences) as the regulations' article
//! 16 treats them: an opponent's score is adjusted, each of their unplayed
//! rounds counting as a draw; a player's own unplayed round counts as a game
//! against a virtual opponent whose score is the player's own, and such a
//! contribution is the first one Cut-1 removes.
//!
//! Direct encounter is applied when every pair of the tied players has met
//! over the board (the points among them, more is better); when some have
//! not met, it separates no one (the regulations' partial case, where a
//! player who beat everyone else in the group still ranks first, is not
//! applied).

use super::Event;

/// One player's tie-break values. Points and Buchholz are in tenths of a
/// point, Sonneborn-Berger in hundredths (a score times a result).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tiebreaks {
    /// The player's index in [`Event::players`].
    pub player: usize,
    /// The score.
    pub points: u32,
    /// Buchholz less its lowest contribution.
    pub buchholz_cut1: u32,
    /// Buchholz: the opponents' adjusted scores.
    pub buchholz: u32,
    /// Sonneborn-Berger: each opponent's adjusted score times the points
    /// scored against them, in hundredths of a point.
    pub sonneborn_berger: u32,
    /// Direct encounter: points in games among the players on the same
    /// score, when they have all met (else 0).
    pub direct: u32,
    /// Rounds in which the player scored a win's points, played or not.
    pub wins: u32,
}

/// The score used for a player as somebody's opponent: their unplayed
/// rounds counted as draws.
fn adjusted_score(event: &Event, index: usize) -> u32 {
    event.players[index]
        .games
        .iter()
        .take(event.played_rounds)
        .map(|g| {
            if g.played {
                event.points.points(g)
            } else {
                event.points.draw
            }
        })
        .sum()
}

/// Every valid player's tie-breaks, after [`Event::played_rounds`] rounds,
/// in [`Event::by_rank`] order.
pub fn tiebreaks(event: &Event) -> Vec<Tiebreaks> {
    let rounds = event.played_rounds;
    let mut out: Vec<Tiebreaks> = event
        .by_rank
        .iter()
        .map(|&i| {
            let player = &event.players[i];
            let points: u32 = player
                .games
                .iter()
                .take(rounds)
                .map(|g| event.points.points(g))
                .sum();
            // Each round's contribution, and whether it is a virtual one.
            let mut contributions: Vec<(bool, u32)> = Vec::new();
            let mut sonneborn_berger = 0;
            let mut wins = 0;
            for round in 0..rounds {
                let game = player
                    .games
                    .get(round)
                    .copied()
                    .unwrap_or_else(super::Game::absent);
                let scored = event.points.points(&game);
                let opponent_score = match (game.played, game.opponent) {
                    (true, Some(o)) => adjusted_score(event, o),
                    _ => points,
                };
                contributions.push((!game.played, opponent_score));
                sonneborn_berger += opponent_score * scored;
                if scored >= event.points.win {
                    wins += 1;
                }
            }
            let buchholz: u32 = contributions.iter().map(|c| c.1).sum();
            // Cut-1: a virtual opponent first, else the lowest.
            let cut = contributions
                .iter()
                .find(|c| c.0)
                .or_else(|| contributions.iter().min_by_key(|c| c.1))
                .map_or(0, |c| c.1);
            Tiebreaks {
                player: i,
                points,
                buchholz_cut1: buchholz - cut,
                buchholz,
                sonneborn_berger,
                direct: 0,
                wins,
            }
        })
        .collect();
    // Direct encounter within each group of equal points.
    let scores: Vec<(usize, u32)> = out.iter().map(|t| (t.player, t.points)).collect();
    for t in &mut out {
        let group: Vec<usize> = scores
            .iter()
            .filter(|s| s.1 == t.points)
            .map(|s| s.0)
            .collect();
        if group.len() < 2 {
            continue;
        }
        let met = |a: usize, b: usize| {
            event.players[a]
                .games
                .iter()
                .take(rounds)
                .any(|g| g.played && g.opponent == Some(b))
        };
        let all_met = group
            .iter()
            .all(|&a| group.iter().all(|&b| a == b || met(a, b)));
        if all_met {
            t.direct = event.players[t.player]
                .games
                .iter()
                .take(rounds)
                .filter(|g| g.played && g.opponent.is_some_and(|o| group.contains(&o)))
                .map(|g| event.points.points(g))
                .sum();
        }
    }
    out
}

/// The standings: points, then Buchholz Cut-1, Buchholz,
/// Sonneborn-Berger, direct encounter and wins (more is better in each),
/// then the pairing order.
pub fn standings(event: &Event) -> Vec<Tiebreaks> {
    let mut table = tiebreaks(event);
    table.sort_by(|a, b| {
        let key = |t: &Tiebreaks| {
            (
                t.points,
                t.buchholz_cut1,
                t.buchholz,
                t.sonneborn_berger,
                t.direct,
                t.wins,
            )
        };
        key(b).cmp(&key(a)).then(
            event.players[a.player]
                .rank
                .cmp(&event.players[b.player].rank),
        )
    });
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swiss::trf;

    fn line(id: usize, score: &str, rounds: &[&str]) -> String {
        let mut line = format!(
            "001 {id:>4}      {:<33} {:>4}                            {score:>4} {id:>4}",
            format!("P{id}"),
            2500 - 10 * id
        );
        for r in rounds {
            line.push_str("  ");
            line.push_str(r);
        }
        line
    }

    /// Five players, three rounds, a bye each round, one forfeit:
    ///   round 1: 1-2 1-0, 3-4 ½, 5 bye;
    ///   round 2: 5-1 0-1, 2-3 1-0, 4 bye;
    ///   round 3: 1-4 forfeit to 1 (unplayed), 3-5 1-0, 2 bye.
    fn five() -> Event {
        let text = [
            "XXR 3".to_string(),
            line(1, "3.0", &["   2 w 1", "   5 b 1", "   4 w +"]),
            line(2, "2.0", &["   1 b 0", "   3 w 1", "0000 - U"]),
            line(3, "1.5", &["   4 w =", "   2 b 0", "   5 w 1"]),
            line(4, "1.5", &["   3 b =", "0000 - U", "   1 b -"]),
            line(5, "1.0", &["0000 - U", "   1 w 0", "   3 b 0"]),
        ]
        .join("\n");
        trf::read(&text, false).expect("valid").event
    }

    #[test]
    fn buchholz_counts_unplayed_rounds_as_the_regulations_say() {
        let t = tiebreaks(&five());
        // Adjusted scores (unplayed rounds as draws): 1: 1+1+½ = 2.5,
        // 2: 0+1+½ = 1.5, 3: ½+0+1 = 1.5, 4: ½+½+½ = 1.5, 5: ½+0+0 = 0.5.
        // Player 1: 2 (1.5) + 5 (0.5) + a virtual opponent on 1's own 3.0
        // for the forfeit = 5.0; Cut-1 takes the virtual one: 2.0.
        assert_eq!((t[0].buchholz, t[0].buchholz_cut1), (50, 20));
        // Player 3: 4 (1.5) + 2 (1.5) + 5 (0.5) = 3.5, cut the 0.5: 3.0.
        assert_eq!((t[2].buchholz, t[2].buchholz_cut1), (35, 30));
        // Player 4: 3 (1.5) + virtual 1.5 (bye) + virtual 1.5 (forfeit).
        assert_eq!((t[3].buchholz, t[3].buchholz_cut1), (45, 30));
    }

    #[test]
    fn sonneborn_berger_weighs_each_opponent_by_the_result() {
        let t = tiebreaks(&five());
        // Player 1: beat 2 (1.5) and 5 (0.5), forfeit win against a
        // virtual 3.0: 1.5 + 0.5 + 3.0 = 5.0 (in hundredths: 500).
        assert_eq!(t[0].sonneborn_berger, 500);
        // Player 3: drew 4 (1.5 × ½), lost to 2, beat 5 (0.5): 1.25.
        assert_eq!(t[2].sonneborn_berger, 125);
    }

    #[test]
    fn wins_and_direct_encounter() {
        let t = tiebreaks(&five());
        // Player 2 won a game and had the bye: two rounds with a win's points.
        assert_eq!(t[1].wins, 2);
        assert_eq!(t[0].wins, 3);
        // 3 and 4 are tied on 1.5 and met (a draw): ½ each.
        assert_eq!((t[2].direct, t[3].direct), (5, 5));
        assert_eq!(t[0].direct, 0);
    }

    #[test]
    fn standings_order_by_points_then_the_tiebreaks() {
        let order: Vec<usize> = standings(&five()).iter().map(|t| t.player + 1).collect();
        // 3 and 4 tie on 1.5 and on Buchholz Cut-1 (3.0); 4's Buchholz 4.5
        // beats 3's 3.5.
        assert_eq!(order, vec![1, 2, 4, 3, 5]);
    }
}
