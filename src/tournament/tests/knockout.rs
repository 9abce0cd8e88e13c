//! The knockout bracket alone: seeding, byes, when a match is decided,
//! the tie-break games, walkovers, the bracket as text.

use crate::tournament::PlayerId;
use crate::tournament::knockout::{
    By, Knockout, KnockoutSettings, NewGame, Stage, Tiebreak, bracket_order,
};

const WIN: (u32, u32) = (2, 0);
const LOSS: (u32, u32) = (0, 2);
const DRAW: (u32, u32) = (1, 1);

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("P{}", i + 1)).collect()
}

fn settings(games: u32, tiebreak: Option<&str>) -> KnockoutSettings {
    KnockoutSettings {
        games,
        tiebreak: tiebreak.map(|t| Tiebreak::parse(t).unwrap()),
    }
}

/// A knockout of `n` players seeded in the order given.
fn knockout(n: usize, games: u32, tiebreak: Option<&str>) -> Knockout {
    Knockout::new(settings(games, tiebreak), (0..n).map(PlayerId).collect()).unwrap()
}

/// Plays the knockout to its end, each game's result by `result`;
/// returns every round of the schedule.
fn play(k: &mut Knockout, result: impl Fn(&NewGame) -> (u32, u32)) -> Vec<Vec<NewGame>> {
    let mut rounds = Vec::new();
    let given = k.rounds().iter().flatten().flat_map(|m| &m.games);
    let mut number = given.map(|g| g.number).max().unwrap_or(0) + 1;
    loop {
        let games = k.next_games(number);
        if games.is_empty() {
            break;
        }
        number += games.len() as u32;
        for g in &games {
            assert!(k.record(g.number, result(g)), "game {} recorded", g.number);
        }
        rounds.push(games);
        assert!(rounds.len() < 100, "the knockout never ends");
    }
    rounds
}

/// The higher seed (lower index here) wins every game.
fn higher_seed_wins(g: &NewGame) -> (u32, u32) {
    if g.white.0 < g.black.0 { WIN } else { LOSS }
}

fn pairs(k: &Knockout, round: usize) -> Vec<(Option<u32>, Option<u32>)> {
    k.rounds()[round]
        .iter()
        .map(|m| (m.sides[0].map(|s| s.0), m.sides[1].map(|s| s.0)))
        .collect()
}

fn text(k: &Knockout) -> String {
    k.text(&|p: PlayerId| format!("P{}", p.0 + 1))
}

#[test]
fn bracket_order_meets_one_with_the_lowest_and_keeps_the_top_seeds_apart() {
    assert_eq!(bracket_order(1), vec![1]);
    assert_eq!(bracket_order(2), vec![1, 2]);
    assert_eq!(bracket_order(4), vec![1, 4, 2, 3]);
    assert_eq!(bracket_order(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
    let o16 = bracket_order(16);
    for pair in o16.chunks(2) {
        assert_eq!(pair[0] + pair[1], 17, "{o16:?}");
    }
    // 1 and 2 in different halves, 1 to 4 in different quarters.
    assert!(o16[..8].contains(&1) && o16[8..].contains(&2));
    for q in o16.chunks(4) {
        assert_eq!(q.iter().filter(|&&s| s <= 4).count(), 1, "{o16:?}");
    }
}

#[test]
fn seeding_is_by_rating_then_name() {
    let names: Vec<String> = ["Dora", "Carl", "Bea", "Abe"].map(String::from).into();
    // Carl and Bea share a rating: Bea first by name; Abe's is unknown.
    let order = Knockout::seeding(&names, &[2100, 2400, 2400]);
    assert_eq!(
        order,
        vec![PlayerId(2), PlayerId(1), PlayerId(0), PlayerId(3)]
    );
    let unrated = Knockout::seeding(&names, &[]);
    assert_eq!(
        unrated,
        vec![PlayerId(3), PlayerId(2), PlayerId(1), PlayerId(0)]
    );
}

#[test]
fn six_players_give_byes_to_seeds_one_and_two() {
    let mut k = knockout(6, 2, None);
    assert_eq!(k.round_count(), 3);
    assert_eq!(
        pairs(&k, 0),
        vec![
            (Some(1), None),
            (Some(4), Some(5)),
            (Some(2), None),
            (Some(3), Some(6)),
        ]
    );
    assert_eq!(k.rounds()[0][0].decided, Some((By::Bye, Some(0))));
    assert_eq!(k.rounds()[0][2].decided, Some((By::Bye, Some(0))));
    // The first round's games: 4-5 and 3-6 only, the higher seed White.
    let first = k.next_games(1);
    let played: Vec<(usize, usize)> = first.iter().map(|g| (g.white.0, g.black.0)).collect();
    assert_eq!(played, vec![(3, 4), (2, 5)]);
    for g in &first {
        k.record(g.number, higher_seed_wins(g));
    }
    // Game 2 of each match, colours reversed.
    let second = k.next_games(3);
    let played: Vec<(usize, usize)> = second.iter().map(|g| (g.white.0, g.black.0)).collect();
    assert_eq!(played, vec![(4, 3), (5, 2)]);
    for g in &second {
        k.record(g.number, higher_seed_wins(g));
    }
    // Semi-finals: 1 against 4, 2 against 3.
    let semis = k.next_games(5);
    assert_eq!(pairs(&k, 1), vec![(Some(1), Some(4)), (Some(2), Some(3))]);
    assert_eq!(semis.len(), 2);
    assert_eq!(k.round_name(1), "semi-finals");
    for g in &semis {
        k.record(g.number, higher_seed_wins(g));
    }
    let rest = play(&mut k, higher_seed_wins);
    assert_eq!(
        rest.len(),
        3,
        "the semi-finals' second game and the final's two"
    );
    assert_eq!(k.champion(), Some(PlayerId(0)));
    assert!(k.is_over());
    assert_eq!(
        text(&k),
        "Round 1 (quarter-finals)\n\
         \x20 [1] P1 - bye  P1 on (bye)\n\
         \x20 [4] P4 - [5] P5  2-0  P4 on (score)\n\
         \x20 [2] P2 - bye  P2 on (bye)\n\
         \x20 [3] P3 - [6] P6  2-0  P3 on (score)\n\
         Round 2 (semi-finals)\n\
         \x20 [1] P1 - [4] P4  2-0  P1 on (score)\n\
         \x20 [2] P2 - [3] P3  2-0  P2 on (score)\n\
         Round 3 (final)\n\
         \x20 [1] P1 - [2] P2  2-0  P1 on (score)\n\
         Winner: P1\n"
    );
}

#[test]
fn five_eight_and_three_players() {
    let k = knockout(5, 1, None);
    assert_eq!(
        pairs(&k, 0),
        vec![
            (Some(1), None),
            (Some(4), Some(5)),
            (Some(2), None),
            (Some(3), None),
        ]
    );
    let k = knockout(8, 1, None);
    assert_eq!(
        pairs(&k, 0),
        vec![
            (Some(1), Some(8)),
            (Some(4), Some(5)),
            (Some(2), Some(7)),
            (Some(3), Some(6)),
        ]
    );
    let mut k = knockout(3, 1, None);
    assert_eq!(pairs(&k, 0), vec![(Some(1), None), (Some(2), Some(3))]);
    // The lower seed wins everything: 3 beats 2, then 1.
    let rounds = play(&mut k, |g| higher_seed_wins(g).swap_tuple());
    assert_eq!(rounds.len(), 2);
    assert_eq!(pairs(&k, 1), vec![(Some(1), Some(3))]);
    assert_eq!(k.champion(), Some(PlayerId(2)));
    // Eight players, lower seeds winning: 3 rounds of one game each.
    let mut k = knockout(8, 1, None);
    let rounds = play(&mut k, higher_seed_wins);
    assert_eq!(
        rounds.iter().map(Vec::len).collect::<Vec<_>>(),
        vec![4, 2, 1]
    );
    assert_eq!(k.round_name(0), "quarter-finals");
    assert_eq!(knockout(16, 1, None).round_name(0), "round of 16");
}

trait Swap {
    fn swap_tuple(self) -> Self;
}

impl Swap for (u32, u32) {
    fn swap_tuple(self) -> Self {
        (self.1, self.0)
    }
}

#[test]
fn a_match_stops_once_its_lead_cannot_be_made_up() {
    let mut k = knockout(2, 4, None);
    // 1-0, 2-0, 2½-½: decided after 3 of 4 games.
    let results = [WIN, LOSS, DRAW];
    let mut n = 1;
    for r in results {
        let g = k.next_games(n);
        assert_eq!(g.len(), 1, "game {n} is played");
        // Side 0 (P1) is White in games 1 and 3.
        k.record(g[0].number, r);
        n += 1;
    }
    assert_eq!(k.rounds()[0][0].score(Stage::Regular), (5, 1));
    assert_eq!(k.rounds()[0][0].decided, Some((By::Score, Some(0))));
    assert!(k.next_games(n).is_empty(), "the 4th game is not played");
    assert!(k.is_over());
    // 1½-½ after 2 of 4 is not yet decided.
    let mut k = knockout(2, 4, None);
    let g = k.next_games(1);
    k.record(g[0].number, WIN);
    let g = k.next_games(2);
    k.record(g[0].number, DRAW);
    assert_eq!(k.rounds()[0][0].decided, None);
    assert_eq!(k.next_games(3).len(), 1);
}

#[test]
fn a_level_match_goes_to_tiebreak_sets_then_the_decisive_game() {
    let mut k = knockout(2, 2, Some("2@1+0.01"));
    // Every game drawn: 1-1, then three sets of 1-1, then Armageddon.
    let rounds = play(&mut k, |_| DRAW);
    let stages: Vec<Stage> = rounds.iter().map(|r| r[0].stage).collect();
    assert_eq!(
        stages,
        vec![
            Stage::Regular,
            Stage::Regular,
            Stage::Tiebreak(1),
            Stage::Tiebreak(1),
            Stage::Tiebreak(2),
            Stage::Tiebreak(2),
            Stage::Tiebreak(3),
            Stage::Tiebreak(3),
            Stage::Armageddon,
        ]
    );
    // Colours alternate inside each set, the higher seed White first;
    // it has Black in the decisive game, and its draw takes it on.
    let whites: Vec<usize> = rounds.iter().map(|r| r[0].white.0).collect();
    assert_eq!(whites, vec![0, 1, 0, 1, 0, 1, 0, 1, 1]);
    let m = &k.rounds()[0][0];
    assert_eq!(m.decided, Some((By::Armageddon, Some(0))));
    assert_eq!(k.champion(), Some(PlayerId(0)));
    assert_eq!(k.stage_of(9), Some(Stage::Armageddon));
    assert_eq!(
        text(&k),
        "Round 1 (final)\n\
         \x20 [1] P1 - [2] P2  1-1, tb1 1-1, tb2 1-1, tb3 1-1, armageddon ½-½  P1 on (armageddon)\n\
         Winner: P1\n"
    );
    // White wins the decisive game: the lower seed goes on.
    let mut k = knockout(2, 2, Some("2@1+0.01"));
    play(&mut k, |g| {
        if g.stage == Stage::Armageddon {
            WIN
        } else {
            DRAW
        }
    });
    assert_eq!(k.champion(), Some(PlayerId(1)));
    // The second set decides.
    let mut k = knockout(2, 2, Some("2@1+0.01"));
    let rounds = play(&mut k, |g| match g.stage {
        Stage::Tiebreak(2) if g.white == PlayerId(1) => WIN,
        _ => DRAW,
    });
    assert_eq!(rounds.len(), 6);
    assert_eq!(k.rounds()[0][0].decided, Some((By::Tiebreak(2), Some(1))));
    assert_eq!(k.champion(), Some(PlayerId(1)));
    // No tie-break: straight to the decisive game.
    let mut k = knockout(2, 2, None);
    let rounds = play(&mut k, |_| DRAW);
    let stages: Vec<Stage> = rounds.iter().map(|r| r[0].stage).collect();
    assert_eq!(
        stages,
        vec![Stage::Regular, Stage::Regular, Stage::Armageddon]
    );
}

#[test]
fn only_the_level_match_plays_on_while_the_round_waits() {
    let mut k = knockout(4, 2, Some("2@1+0.01"));
    // 1-4 is drawn throughout the regular games; 2-3 is won by 2.
    let level = |g: &NewGame| {
        if g.white.0 + g.black.0 == 3
            && g.stage == Stage::Regular
            && g.white.0 != 0
            && g.black.0 != 0
        {
            higher_seed_wins(g)
        } else if g.stage == Stage::Tiebreak(1) {
            higher_seed_wins(g).swap_tuple()
        } else {
            DRAW
        }
    };
    let rounds = play(&mut k, level);
    let sizes: Vec<usize> = rounds.iter().map(Vec::len).collect();
    // Two regular rounds of 2 games, the tie-break set of the level match
    // alone, then the final (2 games, level, and its tie-break set).
    assert_eq!(sizes, vec![2, 2, 1, 1, 1, 1, 1, 1]);
    assert_eq!(k.rounds()[0][0].decided, Some((By::Tiebreak(1), Some(1))));
    assert_eq!(k.rounds()[0][1].decided, Some((By::Score, Some(0))));
    assert_eq!(pairs(&k, 1), vec![(Some(2), Some(4))]);
}

#[test]
fn a_withdrawal_loses_the_match_by_walkover_and_a_double_one_sends_nobody_on() {
    let mut k = knockout(4, 2, None);
    let g = k.next_games(1);
    assert_eq!(g.len(), 2);
    k.record(g[0].number, DRAW);
    k.record(g[1].number, DRAW);
    // Seed 4 withdraws after its first game: seed 1 goes on by walkover,
    // its second game is not given.
    k.withdraw(&[PlayerId(3)]);
    assert_eq!(k.rounds()[0][0].decided, Some((By::Walkover, Some(0))));
    let g = k.next_games(3);
    assert_eq!(g.len(), 1, "only 2-3 plays on");
    assert_eq!((g[0].white, g[0].black), (PlayerId(2), PlayerId(1)));
    // A game that was running when its player withdrew still gets its
    // result recorded, without changing the walkover.
    k.record(g[0].number, LOSS);
    assert_eq!(k.rounds()[0][1].decided, Some((By::Score, Some(0))));
    // The finalist withdraws before the final: the other wins it.
    k.withdraw(&[PlayerId(1)]);
    assert!(k.next_games(4).is_empty());
    assert_eq!(k.rounds()[1][0].decided, Some((By::Walkover, Some(0))));
    assert_eq!(k.champion(), Some(PlayerId(0)));

    // Both players of 4-5 withdraw together: seed 1 meets nobody in the
    // next round.
    let mut k = knockout(5, 1, None);
    k.withdraw(&[PlayerId(3), PlayerId(4)]);
    assert_eq!(k.rounds()[0][1].decided, Some((By::Walkover, None)));
    let rounds = play(&mut k, higher_seed_wins);
    assert_eq!(k.rounds()[1][0].decided, Some((By::Walkover, Some(0))));
    assert_eq!(k.champion(), Some(PlayerId(0)));
    assert_eq!(rounds.iter().map(Vec::len).collect::<Vec<_>>(), vec![1, 1]);
    assert!(
        text(&k).contains("[1] P1 - nobody  P1 on (walkover)"),
        "{}",
        text(&k)
    );
    // One after the other: the second is its match's winner by walkover,
    // and loses the next by walkover.
    let mut k = knockout(5, 1, None);
    k.withdraw(&[PlayerId(3)]);
    assert_eq!(k.rounds()[0][1].decided, Some((By::Walkover, Some(1))));
    k.withdraw(&[PlayerId(4)]);
    play(&mut k, higher_seed_wins);
    assert_eq!(k.rounds()[1][0].decided, Some((By::Walkover, Some(0))));
}

#[test]
fn a_forfeited_game_counts_and_a_result_twice_or_unknown_is_refused() {
    let mut k = knockout(2, 1, None);
    let g = k.next_games(1);
    assert!(!k.record(7, WIN), "no game 7");
    assert!(k.record(g[0].number, (0, 0)), "a double forfeit");
    assert!(!k.record(g[0].number, WIN), "already recorded");
    // 0-0 is level: the decisive game follows.
    let g = k.next_games(2);
    assert_eq!(g[0].stage, Stage::Armageddon);
    assert!(k.record(g[0].number, (0, 2)));
    assert_eq!(k.champion(), Some(PlayerId(0)));
}

#[test]
fn only_the_decisive_game_has_the_armageddon_odds() {
    let mut k = knockout(2, 2, Some("2@1+0.01,armageddon=5/4"));
    let seen: Vec<NewGame> = play(&mut k, |_| DRAW).into_iter().flatten().collect();
    // 2 regular games, 3 sets of 2, the decisive game.
    assert_eq!(seen.len(), 9);
    for g in seen {
        let (number, stage) = (g.number, g.stage);
        let odds = k.armageddon_controls(number);
        match stage {
            Stage::Armageddon => assert_eq!(odds, Some(("5", "4"))),
            _ => assert_eq!(odds, None, "game {number}"),
        }
    }
    // Without odds: none.
    let mut k = knockout(2, 1, Some("2@1"));
    let rounds = play(&mut k, |_| DRAW);
    let last = rounds.last().unwrap()[0];
    assert_eq!(last.stage, Stage::Armageddon);
    assert_eq!(k.armageddon_controls(last.number), None);
}

#[test]
fn tiebreak_settings_read_and_refuse() {
    let t = Tiebreak::parse("2@1+0.01").unwrap();
    assert_eq!((t.games, t.control.as_str()), (2, "1+0.01"));
    assert_eq!(t.to_string(), "2@1+0.01");
    for bad in [
        "2",
        "0@1+0",
        "x@1",
        "2@",
        "101@1",
        "2@1 +0",
        "2@1,5/4",
        "2@1,armageddon=5",
        "2@1,armageddon=5/",
        "2@1,armageddon=/4",
    ] {
        assert!(Tiebreak::parse(bad).is_err(), "{bad}");
    }
    let odds = Tiebreak::parse("2@1+0.01,armageddon=5+0.05/4+0.05").unwrap();
    assert_eq!(
        odds.armageddon,
        Some(("5+0.05".to_string(), "4+0.05".to_string()))
    );
    assert_eq!(odds.to_string(), "2@1+0.01,armageddon=5+0.05/4+0.05");
    assert_eq!(odds.controls(), vec!["1+0.01", "5+0.05", "4+0.05"]);
    assert!(Knockout::new(settings(1, None), vec![PlayerId(0)]).is_err());
    assert!(Knockout::new(settings(0, None), vec![PlayerId(0), PlayerId(1)]).is_err());
}

#[test]
fn names_are_used_as_given() {
    let k = knockout(2, 1, None);
    let n = names(2);
    let t = k.text(&|p: PlayerId| n[p.0].clone());
    assert_eq!(t, "Round 1 (final)\n  [1] P1 - [2] P2\n");
}

// The knockout in the tournament core: rounds added as the ones before
// end, results and withdrawals reaching the bracket, the journal.

mod in_the_core {
    use super::super::resume::header;
    use super::super::{Run, settings};
    use crate::referee::GameResult;
    use crate::tournament::journal::{TournamentWriter, load};
    use crate::tournament::knockout::{By, Stage, Tiebreak};
    use crate::tournament::schedule::Format;
    use crate::tournament::{Absence, Input, Output, PlayerId, Settings};

    /// Six players P1..P6 rated so that the seeds are P6, P5, ..., P1;
    /// matches of 2 games, tie-break sets of 2 at 1+0.01.
    fn six() -> Settings {
        settings(6, |s| {
            s.schedule.format = Format::Knockout;
            s.schedule.games_per_pairing = 2;
            s.ratings = vec![1000, 1100, 1200, 1300, 1400, 1500];
            s.tiebreak = Some(Tiebreak::parse("2@1+0.01").unwrap());
        })
    }

    /// Plays every running game: drawn, except that a seed-1 White wins
    /// its regular games.
    fn play(r: &mut Run) {
        while let Some((_, g)) = r.running.front().copied() {
            let k = r.t.knockout().unwrap();
            let result = match k.stage_of(g.number) {
                Some(Stage::Regular) if g.white == PlayerId(5) => {
                    GameResult::Win(shakmaty::Color::White)
                }
                _ => GameResult::Draw,
            };
            r.finish(g.number, result);
        }
    }

    #[test]
    fn rounds_are_added_once_the_round_before_is_over() {
        let mut r = Run::new(six());
        assert_eq!(r.t.schedule().rounds(), 1);
        // Seeds 3-6 and 4-5 play: P4 (seed 3) against P1 (seed 6), P3
        // (seed 4) against P2 (seed 5), the higher seed White.
        let first: Vec<(usize, usize)> =
            r.t.schedule()
                .games()
                .iter()
                .map(|g| (g.white.0, g.black.0))
                .collect();
        assert_eq!(first, vec![(2, 1), (3, 0)]);
        r.sign_on(0..6);
        assert_eq!(r.started(), vec![1, 2]);
        play(&mut r);
        assert!(r.t.is_over());
        let k = r.t.knockout().unwrap();
        // Every match but the top seed's is level throughout: tie-break
        // sets, then the decisive game, won by the higher seed's draw.
        assert_eq!(k.champion(), Some(PlayerId(5)));
        let final_ = &k.rounds()[2][0];
        assert_eq!(final_.decided, Some((By::Score, Some(0))));
        let semi = &k.rounds()[1][1];
        assert_eq!(semi.decided, Some((By::Armageddon, Some(0))));
        assert_eq!(semi.games.len(), 9);
        // The schedule's rounds: one game of each open match.
        let rounds = r.t.schedule().rounds();
        for round in 1..=rounds {
            let games: Vec<_> = r.t.games().filter(|(g, _)| g.round == round).collect();
            assert!(!games.is_empty() && games.len() <= 2, "round {round}");
        }
        // No game started before the round before it was over.
        let mut over = 0;
        for o in &r.outputs {
            match o {
                Output::RoundOver { round } => over = *round,
                Output::StartGame { game, .. } => assert_eq!(game.round, over + 1, "{game:?}"),
                _ => {}
            }
        }
        assert_eq!(r.count(|o| matches!(o, Output::TournamentOver)), 1);
        // The tie-break games have their control.
        let tb = k.rounds()[0][1].games[2].number;
        assert_eq!(k.control_of(tb), Some("1+0.01"));
        assert_eq!(k.control_of(1), None);
        let text = crate::tournament::report::text(&r.t);
        assert!(text.contains("Bracket\n-------\n"), "{text}");
        assert!(text.contains("Winner: P6."), "{text}");
        let md = crate::tournament::report::markdown(&r.t);
        assert!(md.contains("## Bracket"), "{md}");
        assert!(
            md.contains("| 3 (final) | 1 | P6 (1) | P5 (2) | 1½-½ | P6 | score |"),
            "{md}"
        );
        let json = crate::tournament::stats::Tallies::of(&r.t).to_json(&r.t);
        assert_eq!(json["knockout"]["winner"], "P6");
        assert_eq!(
            json["knockout"]["rounds"][1]["matches"][1]["decided_by"],
            "armageddon"
        );
        assert_eq!(
            json["knockout"]["rounds"][0]["matches"][0]["decided_by"],
            "bye"
        );
    }

    #[test]
    fn tie_break_and_decisive_games_are_not_points_of_the_event() {
        let mut r = Run::new(six());
        r.sign_on(0..6);
        play(&mut r);
        assert!(r.t.is_over());
        let st = crate::tournament::Standings::of(&r.t);
        // P3 (seed 4) drew its two regular games against P2, then 3 sets
        // of 2 and the decisive game (all drawn), then lost to P6 (White)
        // and drew with White in the semi-final: 1½ points from 4 games,
        // 7 apart.
        let p3 = st.rows.iter().find(|x| x.player == PlayerId(2)).unwrap();
        assert_eq!(
            (p3.halves, p3.games, p3.draws, p3.losses, p3.tiebreak_games),
            (3, 4, 3, 1, 7)
        );
        // Every game is counted once: in the points or apart.
        let k = r.t.knockout().unwrap();
        let regular =
            r.t.games()
                .filter(|(g, _)| k.stage_of(g.number) == Some(Stage::Regular))
                .count() as u32;
        let games: u32 = st.rows.iter().map(|x| x.games).sum();
        let apart: u32 = st.rows.iter().map(|x| x.tiebreak_games).sum();
        assert_eq!(games, 2 * regular);
        assert_eq!(games + apart, 2 * r.t.schedule().games().len() as u32);
        // Its moves in every game it played, tie-breaks included (at
        // least 29 a game in all 11; 30 at most in the 4 alone).
        assert!(p3.stats.moves >= 29 * 11, "{:?}", p3.stats);
        let text = crate::tournament::report::text(&r.t);
        assert!(
            text.contains("counted apart (TB), not as points") && text.contains("  TB\n"),
            "{text}"
        );
        let json = crate::tournament::stats::Tallies::of(&r.t).to_json(&r.t);
        let row = json["standings"]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["player"] == "P3")
            .unwrap()
            .clone();
        assert_eq!(row["points"], 1.5);
        assert_eq!(row["games"], 4);
        assert_eq!(row["tiebreak_games"], 7);
    }

    #[test]
    fn a_player_that_cannot_start_loses_its_match_by_walkover() {
        let mut r = Run::new(six());
        r.sign_on([0, 2, 3, 4, 5]);
        // P2 (seed 5) cannot be started: P3 goes on, its game forfeited.
        r.input(Input::CannotStart {
            player: PlayerId(1),
            reason: "no such program".into(),
        });
        let k = r.t.knockout().unwrap();
        // Seeds 4 and 5 (P3 and P2) meet in the first round's match 2.
        assert_eq!(k.rounds()[0][1].decided, Some((By::Walkover, Some(0))));
        play(&mut r);
        assert!(r.t.is_over());
        let k = r.t.knockout().unwrap();
        assert_eq!(k.champion(), Some(PlayerId(5)));
        // P3 (seed 4) met seed 1 (P6) in the semi-final.
        assert_eq!(k.rounds()[1][0].sides[1], Some((4, PlayerId(2))));
    }

    #[test]
    fn the_journal_replays_the_bracket_and_a_resume_carries_it_on() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ko.journal");
        let mut s = six();
        s.absence = Absence::Forfeit { after_ms: 600_000 };
        let mut w = TournamentWriter::create(&path, &header(s.clone()), 1_700_000_000_000).unwrap();
        let mut whole = Run::new(s);
        whole.sign_on(0..6);
        play(&mut whole);
        for (at, input) in &whole.inputs {
            w.input(*at, input).unwrap();
        }
        drop(w);
        let loaded = load(&path).unwrap();
        assert_eq!(loaded.header.settings.ratings, whole.t.settings().ratings);
        assert_eq!(loaded.header.settings.tiebreak, whole.t.settings().tiebreak);
        assert_eq!(loaded.tournament, whole.t);
        // Killed at every point: replayed, then played on, the same
        // bracket and every game started once.
        for k in 0..whole.inputs.len() {
            let mut t = crate::tournament::Tournament::new(whole.t.settings().clone()).unwrap();
            for (at, i) in &whole.inputs[..k] {
                t.handle(i.clone(), *at);
            }
            // Decided, or in progress (carried on by its board).
            let mut before: Vec<u32> = t.decided().collect();
            before.extend(t.in_progress().iter().map(|(_, g)| g.number));
            let mut r = Run::from(t);
            r.input(Input::Resumed { on_cables: vec![] });
            r.sign_on(0..6);
            play(&mut r);
            assert!(r.t.is_over(), "kill at {k}");
            assert_eq!(r.t.knockout(), whole.t.knockout(), "kill at {k}");
            let mut started = before;
            started.extend(r.started());
            started.sort_unstable();
            let all: Vec<u32> = (1..=whole.t.schedule().games().len() as u32).collect();
            assert_eq!(started, all, "kill at {k}");
        }
    }
}
