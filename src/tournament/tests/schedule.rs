//! The schedule: Berger tables, byes, cycles, repeats, gauntlets, openings.

use crate::tournament::schedule::*;

fn schedule(players: usize, f: impl FnOnce(&mut ScheduleSettings)) -> Schedule {
    let mut s = ScheduleSettings {
        players,
        ..Default::default()
    };
    f(&mut s);
    Schedule::new(&s).unwrap()
}

/// Each player's colours round by round: `W`, `B`, or `-` for a bye.
fn colours(s: &Schedule) -> Vec<String> {
    (0..s.players())
        .map(|p| {
            (1..=s.rounds())
                .map(|r| {
                    let g = s
                        .games()
                        .iter()
                        .find(|g| g.round == r && g.has(PlayerId(p)));
                    match g {
                        Some(g) if g.white.0 == p => 'W',
                        Some(_) => 'B',
                        None => '-',
                    }
                })
                .collect()
        })
        .collect()
}

/// Games between each pair (i < j), and each player's whites.
fn counts(s: &Schedule) -> (Vec<Vec<u32>>, Vec<u32>) {
    let n = s.players();
    let mut met = vec![vec![0; n]; n];
    let mut whites = vec![0; n];
    for g in s.games() {
        let (a, b) = (g.white.0.min(g.black.0), g.white.0.max(g.black.0));
        assert_ne!(a, b, "game {} pairs a player with itself", g.number);
        met[a][b] += 1;
        whites[g.white.0] += 1;
    }
    (met, whites)
}

#[test]
fn six_players_follow_fide_berger_table() {
    // FIDE Handbook C.05 Annex 1, the table for 5 or 6 players (1-based).
    let fide = [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ];
    for (r, boards) in fide.iter().enumerate() {
        let got: Vec<(usize, usize)> = berger_round(6, r)
            .into_iter()
            .map(|(w, b)| (w + 1, b + 1))
            .collect();
        assert_eq!(got, boards.to_vec(), "round {}", r + 1);
    }
    // With five players, whoever meets player 6 has a bye.
    let s = schedule(5, |_| {});
    let byes: Vec<(u32, usize)> = s.byes().iter().map(|b| (b.round, b.player.0 + 1)).collect();
    assert_eq!(byes, vec![(1, 1), (2, 4), (3, 2), (4, 5), (5, 3)]);
    let round2: Vec<(u32, usize, usize)> = s
        .games()
        .iter()
        .filter(|g| g.round == 2)
        .map(|g| (g.board, g.white.0 + 1, g.black.0 + 1))
        .collect();
    assert_eq!(round2, vec![(1, 5, 3), (2, 1, 2)]);
}

/// The Berger property: in a single round robin every pair meets once;
/// with an even number n of players each has n/2 or n/2 - 1 Whites (half
/// of them each), and its colours alternate round by round but for at
/// most one repeat; with an odd number each has exactly (n - 1) / 2 Whites,
/// one bye, and colours that alternate strictly (the bye skipped).
#[test]
fn single_round_robin_of_3_to_10_players_is_balanced() {
    for n in 3..=10 {
        let s = schedule(n, |_| {});
        let (met, whites) = counts(&s);
        for (i, row) in met.iter().enumerate() {
            for (j, &m) in row.iter().enumerate().skip(i + 1) {
                assert_eq!(m, 1, "n={n}: players {i} and {j}");
            }
        }
        assert_eq!(s.games().len(), n * (n - 1) / 2);
        assert_eq!(s.rounds() as usize, n - 1 + n % 2);
        let seqs = colours(&s);
        if n % 2 == 0 {
            for (p, &w) in whites.iter().enumerate() {
                assert!(
                    w as usize == n / 2 || w as usize == n / 2 - 1,
                    "n={n} p={p}: {w} Whites"
                );
            }
            assert_eq!(
                whites.iter().filter(|&&w| w as usize == n / 2).count(),
                n / 2
            );
            assert!(s.byes().is_empty());
        } else {
            assert!(
                whites.iter().all(|&w| w as usize == (n - 1) / 2),
                "n={n}: {whites:?}"
            );
            for p in 0..n {
                assert_eq!(s.byes().iter().filter(|b| b.player.0 == p).count(), 1);
            }
        }
        for (p, seq) in seqs.iter().enumerate() {
            let played: Vec<char> = seq.chars().filter(|&c| c != '-').collect();
            let repeats = played.windows(2).filter(|w| w[0] == w[1]).count();
            assert!(repeats <= usize::from(n % 2 == 0), "n={n} p={p}: {seq}");
        }
        // Nobody plays twice in a round; boards are numbered 1, 2, ...
        for r in 1..=s.rounds() {
            let round: Vec<&ScheduledGame> = s.games().iter().filter(|g| g.round == r).collect();
            let boards: Vec<u32> = round.iter().map(|g| g.board).collect();
            assert_eq!(boards, (1..=round.len() as u32).collect::<Vec<_>>());
            for p in 0..n {
                assert!(round.iter().filter(|g| g.has(PlayerId(p))).count() <= 1);
            }
        }
        let numbers: Vec<u32> = s.games().iter().map(|g| g.number).collect();
        assert_eq!(numbers, (1..=s.games().len() as u32).collect::<Vec<_>>());
    }
}

#[test]
fn double_round_robin_reverses_colours_in_the_second_cycle() {
    for n in 3..=8 {
        let s = schedule(n, |s| s.cycles = 2);
        let half = s.games().len() / 2;
        let rounds = s.rounds() / 2;
        for (a, b) in s.games()[..half].iter().zip(&s.games()[half..]) {
            assert_eq!((a.white, a.black), (b.black, b.white));
            assert_eq!(b.round, a.round + rounds);
        }
        let (met, whites) = counts(&s);
        for i in 0..n {
            assert!(met[i][i + 1..].iter().all(|&m| m == 2));
        }
        assert!(
            whites.iter().all(|&w| w as usize == n - 1),
            "n={n}: {whites:?}"
        );
    }
}

#[test]
fn no_swap_keeps_each_pairings_colours_through_repeats_and_cycles() {
    let s = schedule(2, |s| {
        s.games_per_pairing = 3;
        s.cycles = 2;
        s.openings = 2;
        s.swap = false;
    });
    let games: Vec<(usize, usize, Option<usize>)> = s
        .games()
        .iter()
        .map(|g| (g.white.0, g.black.0, g.opening))
        .collect();
    // A match of six games: A White in each, each opening twice.
    assert_eq!(
        games,
        vec![
            (0, 1, Some(0)),
            (0, 1, Some(0)),
            (0, 1, Some(1)),
            (0, 1, Some(1)),
            (0, 1, Some(0)),
            (0, 1, Some(0)),
        ]
    );
    let four = schedule(4, |s| {
        s.cycles = 2;
        s.swap = false;
    });
    for g in four.games() {
        let first = four
            .games()
            .iter()
            .find(|f| f.has(g.white) && f.has(g.black))
            .unwrap();
        assert_eq!(
            (g.white, g.black),
            (first.white, first.black),
            "game {}",
            g.number
        );
    }
    let swiss = ScheduleSettings {
        format: Format::Swiss,
        players: 4,
        rounds: 3,
        swap: false,
        ..Default::default()
    };
    assert_eq!(
        Schedule::new(&swiss).unwrap_err(),
        ScheduleError::FixedColours(Format::Swiss)
    );
    let knockout = ScheduleSettings {
        format: Format::Knockout,
        ..swiss
    };
    assert_eq!(
        Schedule::new(&knockout).unwrap_err(),
        ScheduleError::FixedColours(Format::Knockout)
    );
}

#[test]
fn games_per_pairing_alternate_colours_in_rounds_of_their_own() {
    let s = schedule(4, |s| s.games_per_pairing = 3);
    assert_eq!(s.games().len(), 18);
    assert_eq!(s.rounds(), 9);
    let first: Vec<(u32, usize, usize)> = s
        .games()
        .iter()
        .filter(|g| g.has(PlayerId(0)) && g.has(PlayerId(3)))
        .map(|g| (g.round, g.white.0, g.black.0))
        .collect();
    assert_eq!(first, vec![(1, 0, 3), (2, 3, 0), (3, 0, 3)]);
    // A player still plays once a round.
    for r in 1..=s.rounds() {
        for p in 0..4 {
            let n = s
                .games()
                .iter()
                .filter(|g| g.round == r && g.has(PlayerId(p)))
                .count();
            assert_eq!(n, 1);
        }
    }
}

#[test]
fn every_opening_is_played_with_both_colours_by_every_pairing() {
    for (cycles, per) in [(1, 2), (2, 1), (2, 3), (1, 4)] {
        let s = schedule(5, |s| {
            s.cycles = cycles;
            s.games_per_pairing = per;
            s.openings = 3;
        });
        for i in 0..5 {
            for j in i + 1..5 {
                let games: Vec<&ScheduledGame> = s
                    .games()
                    .iter()
                    .filter(|g| g.has(PlayerId(i)) && g.has(PlayerId(j)))
                    .collect();
                assert_eq!(games.len() as u32, cycles * per);
                for pair in games.chunks_exact(2) {
                    assert_eq!(pair[0].opening, pair[1].opening);
                    assert_eq!(pair[0].white, pair[1].black, "{cycles}x{per}");
                }
                let used: Vec<Option<usize>> = games.iter().map(|g| g.opening).collect();
                let want: Vec<Option<usize>> =
                    (0..games.len()).map(|k| Some((k / 2) % 3)).collect();
                assert_eq!(used, want);
            }
        }
        // All games of a round start from the same opening.
        for r in 1..=s.rounds() {
            let mut o = s.games().iter().filter(|g| g.round == r).map(|g| g.opening);
            let first = o.next().unwrap();
            assert!(o.all(|x| x == first));
        }
    }
    let none = schedule(4, |_| {});
    assert!(none.games().iter().all(|g| g.opening.is_none()));
}

#[test]
fn gauntlet_plays_the_first_player_against_each_other() {
    let s = schedule(5, |s| {
        s.format = Format::Gauntlet;
        s.cycles = 2;
        s.games_per_pairing = 2;
    });
    assert_eq!(s.games().len(), 16);
    assert_eq!(s.rounds(), 16);
    assert!(s.games().iter().all(|g| g.has(PlayerId(0)) && g.board == 1));
    let (met, whites) = counts(&s);
    assert_eq!(met[0][1..], [4, 4, 4, 4]);
    assert_eq!(whites[0], 8);
    assert!(whites[1..].iter().all(|&w| w == 2));
    let single = schedule(5, |s| s.format = Format::Gauntlet);
    let pairs: Vec<(usize, usize)> = single
        .games()
        .iter()
        .map(|g| (g.white.0, g.black.0))
        .collect();
    assert_eq!(pairs, vec![(0, 1), (2, 0), (0, 3), (4, 0)]);
    assert_eq!(single.games()[2].round_tag(), "3.1");
}

#[test]
fn bad_settings_say_what_is_wrong() {
    let bad = |f: fn(&mut ScheduleSettings)| {
        let mut s = ScheduleSettings::default();
        f(&mut s);
        Schedule::new(&s).unwrap_err()
    };
    assert_eq!(bad(|s| s.players = 1), ScheduleError::TooFewPlayers(1));
    assert!(
        bad(|s| s.players = 1)
            .to_string()
            .contains("at least 2 players (1 given)")
    );
    assert_eq!(bad(|s| s.cycles = 0), ScheduleError::NoCycles);
    assert_eq!(bad(|s| s.games_per_pairing = 0), ScheduleError::NoCycles);
    assert!(bad(|s| s.cycles = 0).to_string().contains("at least 1"));
    let e = bad(|s| {
        s.players = 2000;
        s.cycles = 4;
    });
    assert!(matches!(e, ScheduleError::TooManyGames(_)), "{e:?}");
    assert!(
        e.to_string().contains("more than a schedule may hold"),
        "{e}"
    );
    assert_eq!(Format::parse("gauntlet"), Ok(Format::Gauntlet));
    assert_eq!(Format::parse("swiss"), Ok(Format::Swiss));
    assert!(
        Format::parse("dutch")
            .unwrap_err()
            .to_string()
            .contains("round-robin, gauntlet, swiss or knockout")
    );
    let e = bad(|s| s.format = Format::Swiss);
    assert_eq!(e, ScheduleError::NoRounds(Format::Swiss));
    assert!(e.to_string().contains("needs at least 1 round"), "{e}");
    let e = bad(|s| {
        s.format = Format::Swiss;
        s.rounds = 3;
        s.cycles = 2;
    });
    assert_eq!(e, ScheduleError::DynamicCycles(Format::Swiss));
    assert!(
        e.to_string().contains("cycles and games per pairing are 1"),
        "{e}"
    );
}
