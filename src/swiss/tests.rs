//! The pairing core on small hand-checked events, and properties over many
//! random events it pairs itself, round after round.

use super::check::{Verdict, check};
use super::dutch::{ColourState, PairingError, eligible_for_bye, pair};
use super::{Color, Event, Game, Identity, Pairing, Player, PointSystem, RoundScore, trf};
use crate::splitmix::splitmix64;

/// An event of players numbered by rating order, before round 1.
fn event(players: usize, rounds: usize, first: Color) -> Event {
    Event {
        players: (0..players)
            .map(|id| Player {
                id,
                name: format!("Player {}", id + 1),
                rating: 2500 - 10 * id as u16,
                identity: Identity::default(),
                score: 0,
                games: Vec::new(),
                valid: true,
                rank: id,
            })
            .collect(),
        by_rank: (0..players).collect(),
        played_rounds: 0,
        expected_rounds: rounds,
        points: PointSystem::default(),
        initial_color: first,
        use_rank: false,
    }
}

/// Boards as `(white, black)` pairing numbers (1-based, 0 for the bye).
fn boards(pairing: &[Pairing]) -> Vec<(usize, usize)> {
    pairing
        .iter()
        .map(|p| (p.white + 1, p.black.map_or(0, |b| b + 1)))
        .collect()
}

/// Plays a round: each board's result for White from `result`, the bye a
/// pairing-allocated bye, anyone else absent with no point.
fn play(
    event: &mut Event,
    pairing: &[Pairing],
    mut result: impl FnMut(usize, usize) -> RoundScore,
) {
    let round = event.played_rounds;
    for board in pairing {
        match board.black {
            None => event.players[board.white].games.push(Game::pairing_bye()),
            Some(black) => {
                let white_result = result(board.white, board.black.unwrap_or(0));
                let black_result = match white_result {
                    RoundScore::Win => RoundScore::Loss,
                    RoundScore::Loss => RoundScore::Win,
                    RoundScore::Draw => RoundScore::Draw,
                };
                for (me, them, colour, outcome) in [
                    (board.white, black, Color::White, white_result),
                    (black, board.white, Color::Black, black_result),
                ] {
                    event.players[me].games.push(Game {
                        opponent: Some(them),
                        color: Some(colour),
                        outcome,
                        played: true,
                        paired: true,
                    });
                }
            }
        }
    }
    for player in &mut event.players {
        if player.games.len() == round {
            player.games.push(Game::absent());
        }
        let points = event.points.points(&player.games[round]);
        player.score += points;
    }
    event.played_rounds += 1;
}

fn paired(event: &Event) -> Vec<(usize, usize)> {
    boards(&pair(event).expect("a pairing"))
}

#[test]
fn the_first_round_pairs_the_top_half_with_the_bottom_half() {
    assert_eq!(
        paired(&event(6, 5, Color::White)),
        vec![(1, 4), (5, 2), (3, 6)]
    );
    assert_eq!(
        paired(&event(6, 5, Color::Black)),
        vec![(4, 1), (2, 5), (6, 3)]
    );
    // Odd: the lowest-rated player gets the bye.
    assert_eq!(
        paired(&event(7, 5, Color::White)),
        vec![(1, 4), (5, 2), (3, 6), (7, 0)]
    );
}

#[test]
fn colours_alternate_and_an_exchange_beats_a_rematch() {
    // Round 1: 1-3 and 4-2, both drawn: everyone on 1/2, 1 and 4 due
    // Black, 2 and 3 due White. 1-3 would be a rematch, 1-4 and 2-3 would
    // give two players their colour twice; 2-1 and 3-4 give everyone the
    // other colour.
    let mut e = event(4, 5, Color::White);
    assert_eq!(paired(&e), vec![(1, 3), (4, 2)]);
    let round1 = pair(&e).expect("a pairing");
    play(&mut e, &round1, |_, _| RoundScore::Draw);
    assert_eq!(paired(&e), vec![(2, 1), (3, 4)]);
}

#[test]
fn the_bye_goes_to_the_lowest_player_who_has_not_had_one() {
    // Three players, a bye worth nothing: after round 1 (1-2 drawn, 3 the
    // bye) player 3 is lowest but has had the bye, so 2 gets it and 3
    // plays 1 with White (1 had White).
    let mut e = event(3, 5, Color::White);
    e.points.pairing_bye = 0;
    let round1 = pair(&e).expect("a pairing");
    assert_eq!(boards(&round1), vec![(1, 2), (3, 0)]);
    play(&mut e, &round1, |_, _| RoundScore::Draw);
    assert!(!eligible_for_bye(&e, &e.players[2]));
    assert_eq!(paired(&e), vec![(3, 1), (2, 0)]);
}

#[test]
fn no_one_meets_an_opponent_twice() {
    // Four players, 1 beats 3 and 2 beats 4 twice over would be the score
    // order; the third round must find the one pairing left unplayed.
    let mut e = event(4, 3, Color::White);
    for _ in 0..3 {
        let round = pair(&e).expect("a pairing");
        for board in &round {
            let black = board.black.expect("four players, no bye");
            assert!(
                !e.players[board.white]
                    .games
                    .iter()
                    .any(|g| g.opponent == Some(black)),
                "{} and {} met before",
                board.white + 1,
                black + 1
            );
        }
        play(&mut e, &round, |white, black| {
            if white < black {
                RoundScore::Win
            } else {
                RoundScore::Loss
            }
        });
    }
    // Three rounds, three different opponents each: a round robin.
    for player in &e.players {
        let mut opponents: Vec<_> = player.games.iter().filter_map(|g| g.opponent).collect();
        opponents.sort_unstable();
        opponents.dedup();
        assert_eq!(opponents.len(), 3);
    }
    // A fourth round has no pairing left.
    assert_eq!(pair(&e), Err(PairingError::NoValidPairing));
}

#[test]
fn three_rounds_of_six_players_pair_as_bbppairings_does() {
    // Round 1 the top half wins: 1, 2, 3 on 1, 4, 5, 6 on 0. Round 2 the
    // odd top group sends its lowest, 3, down to meet 4.
    let mut e = event(6, 5, Color::White);
    let round1 = pair(&e).expect("a pairing");
    play(&mut e, &round1, |white, black| {
        if white < black {
            RoundScore::Win
        } else {
            RoundScore::Loss
        }
    });
    let round2 = pair(&e).expect("a pairing");
    assert_eq!(boards(&round2), vec![(2, 1), (4, 3), (6, 5)]);
    // White wins everywhere: 2 on 2 floats down to the group on 1 and
    // meets 3, the one it has not met; colours by preference.
    play(&mut e, &round2, |_, _| RoundScore::Win);
    assert_eq!(paired(&e), vec![(3, 2), (1, 6), (5, 4)]);
}

#[test]
fn a_player_who_floated_down_last_round_does_not_float_again() {
    // Seven players, round 1: 1 and 2 win, 3-6 drawn, 7 has the bye (a
    // downfloat). The top group 1, 2, 7 is odd, so one of them floats down
    // to 3 and 6; by rating it would be 7, but 7 floated down last round:
    // 1 meets 7 and 2 floats (C.04.3's float criteria; bbpPairings pairs
    // the same).
    let mut e = event(7, 5, Color::White);
    let round1 = pair(&e).expect("a pairing");
    assert_eq!(boards(&round1), vec![(1, 4), (5, 2), (3, 6), (7, 0)]);
    play(&mut e, &round1, |white, black| match (white, black) {
        (0, 3) => RoundScore::Win,
        (4, 1) => RoundScore::Loss,
        _ => RoundScore::Draw,
    });
    assert_eq!(paired(&e), vec![(7, 1), (2, 3), (6, 5), (4, 0)]);
}

#[test]
fn colour_state_reads_absolute_and_strong_preferences() {
    let mut e = event(2, 5, Color::White);
    let game = |colour| Game {
        opponent: Some(1),
        color: Some(colour),
        outcome: RoundScore::Draw,
        played: true,
        paired: true,
    };
    e.players[0].games = vec![game(Color::White), game(Color::White)];
    let s = ColourState::of(&e.players[0]);
    assert_eq!(s.preference, Some(Color::Black));
    assert!(s.absolute() && s.absolute_imbalance());
    e.players[0].games = vec![game(Color::White), game(Color::Black), game(Color::White)];
    let s = ColourState::of(&e.players[0]);
    assert_eq!(s.preference, Some(Color::Black));
    assert!(s.strong && !s.absolute());
    e.players[0].games = vec![game(Color::Black), game(Color::White)];
    let s = ColourState::of(&e.players[0]);
    assert_eq!(
        (s.preference, s.strong, s.absolute()),
        (Some(Color::Black), false, false)
    );
    // Unplayed rounds do not break a run of one colour.
    e.players[0].games = vec![game(Color::White), Game::absent(), game(Color::White)];
    assert_eq!(ColourState::of(&e.players[0]).repeated, Some(Color::White));
}

/// Whether `players` (by index) can all be paired, one bye to an
/// eligible player when odd, without a rematch or two players with the
/// same absolute colour preference meeting: a brute-force search.
fn some_pairing_exists(event: &Event, players: &[usize]) -> bool {
    fn go(event: &Event, left: &[usize], bye_left: bool) -> bool {
        let Some(&first) = left.first() else {
            return true;
        };
        let states: Vec<ColourState> = left
            .iter()
            .map(|&p| ColourState::of(&event.players[p]))
            .collect();
        if bye_left
            && eligible_for_bye(event, &event.players[first])
            && go(event, &left[1..], false)
        {
            return true;
        }
        for k in 1..left.len() {
            let other = left[k];
            let met = event.players[first]
                .games
                .iter()
                .any(|g| g.played && g.opponent == Some(other));
            let (a, b) = (states[0], states[k]);
            let clash = a.absolute() && b.absolute() && a.preference == b.preference;
            if met || clash {
                continue;
            }
            let rest: Vec<usize> = left
                .iter()
                .copied()
                .filter(|&p| p != first && p != other)
                .collect();
            if go(event, &rest, bye_left) {
                return true;
            }
        }
        false
    }
    go(event, players, players.len() % 2 == 1)
}

/// Random events paired by the core round after round, with random
/// results, absences and withdrawals: every pairing is complete and keeps
/// the absolute criteria, no pairing is refused that a search finds, and
/// the event's TRF reads back to the same event and checks clean.
#[test]
fn random_events_keep_the_absolute_criteria() {
    let mut seed = 2026u64;
    let mut rand = move |n: u64| {
        seed = splitmix64(seed);
        seed % n
    };
    let mut rounds_paired = 0;
    let mut refused = 0;
    for event_number in 0..120 {
        let players = 3 + rand(14) as usize;
        let rounds = 3 + rand(7) as usize;
        // Many rounds, so that the last-round exception to the colour rule
        // never applies: every round must keep it.
        let mut e = event(
            players,
            rounds + 20,
            if rand(2) == 0 {
                Color::White
            } else {
                Color::Black
            },
        );
        let mut withdrawn = vec![false; players];
        for _ in 0..rounds {
            // Some players sit the round out; some leave for good.
            let round = e.played_rounds;
            for (p, gone) in withdrawn.iter_mut().enumerate() {
                if !*gone && rand(40) == 0 {
                    *gone = true;
                }
                if *gone || rand(15) == 0 {
                    let half = rand(2) == 0 && !*gone;
                    e.players[p].games.push(Game {
                        outcome: if half {
                            RoundScore::Draw
                        } else {
                            RoundScore::Loss
                        },
                        ..Game::absent()
                    });
                }
            }
            e.update_ranks();
            let present: Vec<usize> = (0..players)
                .filter(|&p| e.players[p].games.len() == round)
                .collect();
            let pairing = match pair(&e) {
                Ok(p) => p,
                Err(error) => {
                    assert_eq!(error, PairingError::NoValidPairing);
                    assert!(
                        !some_pairing_exists(&e, &present),
                        "event {event_number} round {}: refused, but a pairing exists",
                        round + 1
                    );
                    refused += 1;
                    break;
                }
            };
            // Complete: every present player exactly once, at most one bye.
            let mut seen: Vec<usize> = pairing
                .iter()
                .flat_map(|b| [Some(b.white), b.black])
                .flatten()
                .collect();
            seen.sort_unstable();
            assert_eq!(seen, present, "event {event_number} round {}", round + 1);
            assert!(pairing.iter().filter(|b| b.black.is_none()).count() <= present.len() % 2);
            for board in &pairing {
                let white = &e.players[board.white];
                match board.black {
                    None => assert!(
                        !white.games.iter().any(|g| g.paired && g.opponent.is_none()),
                        "event {event_number} round {}: a second bye for {}",
                        round + 1,
                        board.white + 1
                    ),
                    Some(black) => {
                        assert!(
                            !white
                                .games
                                .iter()
                                .any(|g| g.played && g.opponent == Some(black)),
                            "event {event_number} round {}: {} and {} meet again",
                            round + 1,
                            board.white + 1,
                            black + 1
                        );
                    }
                }
            }
            play(&mut e, &pairing, |_, _| match rand(3) {
                0 => RoundScore::Win,
                1 => RoundScore::Draw,
                _ => RoundScore::Loss,
            });
            // The absolute colour rules: never the same colour three
            // times running, never two more of one colour than the other.
            for player in &e.players {
                let colours: Vec<Color> = player
                    .games
                    .iter()
                    .filter(|g| g.played)
                    .filter_map(|g| g.color)
                    .collect();
                assert!(
                    !colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
                    "event {event_number}: {} has {colours:?}",
                    player.id + 1
                );
                let whites = colours.iter().filter(|&&c| c == Color::White).count();
                assert!(whites.abs_diff(colours.len() - whites) <= 2, "{colours:?}");
            }
            rounds_paired += 1;
        }
        // The event as TRF reads back the same, and every round checks.
        let text = trf::write(&e, &[]);
        let back = trf::read(&text, false)
            .unwrap_or_else(|err| panic!("event {event_number}: {err}\n{text}"));
        assert_eq!(back.event.players.len(), e.players.len());
        for (a, b) in back.event.players.iter().zip(&e.players) {
            assert_eq!(
                (a.score, &a.games[..e.played_rounds]),
                (b.score, &b.games[..e.played_rounds]),
                "event {event_number}"
            );
        }
        for round in check(&back.event) {
            assert_eq!(
                round.verdict,
                Verdict::Same,
                "event {event_number} round {}\n{text}",
                round.round
            );
        }
    }
    assert!(rounds_paired > 400, "{rounds_paired}");
    let _ = refused;
}
