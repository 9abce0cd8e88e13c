//! The tallies per pairing and per player against the field.

use shakmaty::Color;

use super::{Run, settings};
use crate::referee::GameResult;
use crate::tournament::PlayerId;
use crate::tournament::stats::Tallies;

#[test]
fn pairs_are_a_pairings_two_games_and_the_field_adds_them_up() {
    // A double round robin of 3: each pairing plays twice, colours
    // swapped. P1 wins with White and draws with Black; between the
    // others White wins.
    let mut r = Run::new(settings(3, |s| s.schedule.cycles = 2));
    r.sign_on(0..3);
    while let Some((_, g)) = r.running.front().copied() {
        let result = if g.white == PlayerId(0) {
            GameResult::Win(Color::White)
        } else if g.black == PlayerId(0) {
            GameResult::Draw
        } else {
            GameResult::Win(Color::White)
        };
        r.finish(g.number, result);
    }
    assert!(r.t.is_over());
    let t = Tallies::of(&r.t);
    assert_eq!(t.pairings.len(), 3);
    let (p, q, first) = &t.pairings[0];
    assert_eq!((*p, *q), (PlayerId(0), PlayerId(1)));
    assert_eq!(first.wdl(), [1, 1, 0]);
    // A win and a draw: three half points in the pair.
    assert_eq!(first.pentanomial(), [0, 0, 0, 1, 0]);
    assert_eq!(t.players[0].wdl(), [2, 2, 0]);
    assert_eq!(t.players[0].pentanomial(), [0, 0, 0, 2, 0]);
    // P2 and P3 each won once with White against the other: a pair of one
    // win and one loss each, and lost half a point a pair to P1.
    assert_eq!(t.players[1].wdl(), [1, 1, 2]);
    assert_eq!(t.players[1].pentanomial(), [0, 1, 1, 0, 0]);
    let json = t.to_json(&r.t);
    let players = json["players"].as_object().unwrap();
    assert_eq!(players.len(), 3);
    let name = r.t.name(PlayerId(0)).to_string();
    assert_eq!(json["players"][name.as_str()]["wins"], 2);
    assert_eq!(json["players"][name.as_str()]["pentanomial"][3], 2);
    assert_eq!(json["pairings"][0]["players"][0], name.as_str());
    assert!(json["pairings"][0]["elo"].is_number());
    // White pondered in the odd games (`sides`): 11 hits of 20 ponders
    // each, summed per player; a player that never pondered has none.
    let odd_whites: Vec<PlayerId> =
        r.t.games()
            .filter(|(g, _)| g.number % 2 == 1)
            .map(|(g, _)| g.white)
            .collect();
    assert!(!odd_whites.is_empty());
    for i in 0..3 {
        let k = odd_whites.iter().filter(|p| p.0 == i).count() as u64;
        let name = r.t.name(PlayerId(i)).to_string();
        let ponder = &json["players"][name.as_str()]["ponder"];
        if k == 0 {
            assert!(ponder.is_null(), "{ponder}");
        } else {
            assert_eq!(ponder["ponders"], 20 * k, "{name}");
            assert_eq!(ponder["hits"], 11 * k, "{name}");
        }
    }
}

mod game_tally {
    use std::sync::Arc;

    use crate::record::pgn::{PgnGame, PgnMove};
    use crate::referee::{ClientId, Ending, Event, GameOver, GameResult, Termination};
    use crate::tournament::stats::GameTally;

    fn mv(clk: Option<u64>, emt: Option<u64>) -> PgnMove {
        PgnMove {
            san: "e4".into(),
            clk_ms: clk,
            emt_ms: emt,
            eval: None,
            book: false,
            ponder_hit: None,
        }
    }

    fn over(pgn: PgnGame) -> Event {
        Event::GameOver(GameOver {
            game_number: 1,
            result: GameResult::Draw,
            termination: Termination::Normal,
            ending: Ending::Stalemate,
            moves_played: pgn.moves.len(),
            pgn: Arc::new(pgn),
        })
    }

    #[test]
    fn each_side_counts_its_moves_after_the_opening_its_faults_and_restarts() {
        let pgn = PgnGame {
            moves: vec![
                mv(None, None),
                mv(None, None),
                mv(Some(59_000), Some(1_000)),
                mv(Some(58_000), Some(2_000)),
                mv(Some(57_500), Some(1_500)),
            ],
            ..PgnGame::default()
        };
        let mut t = GameTally::default();
        t.see(&Event::LinkLost {
            client: ClientId::A,
            reason: "gone".into(),
        });
        t.see(&Event::Resync {
            client: ClientId::B,
        });
        t.see(&Event::Resync {
            client: ClientId::B,
        });
        assert!(t.over().is_none() && t.take(2).is_none());
        t.see(&over(pgn.clone()));
        assert!(t.over().is_some());
        let (_, s) = t.take(2).expect("the end");
        assert_eq!(s.white.moves, 2);
        assert_eq!(s.white.used_ms, 2_500);
        assert_eq!(s.white.left_ms, Some(57_500));
        assert_eq!(s.black.moves, 1);
        assert_eq!(s.black.left_ms, Some(58_000));
        assert_eq!((s.white.faults, s.black.restarts), (1, 2));
        assert_eq!((s.black.faults, s.white.restarts), (0, 0));
        // Taken once.
        assert!(t.take(2).is_none());
        // Black moved first from a set-up position.
        let mut t = GameTally::default();
        t.see(&over(PgnGame {
            black_first: true,
            ..pgn
        }));
        let (_, s) = t.take(0).expect("the end");
        assert_eq!((s.black.moves, s.white.moves), (3, 2));
    }

    #[test]
    fn ponder_hits_are_counted_per_side_after_the_opening() {
        let ponder = |hit: Option<bool>| PgnMove {
            ponder_hit: hit,
            ..mv(None, None)
        };
        let pgn = PgnGame {
            moves: vec![
                ponder(Some(true)), // the opening's: not counted
                ponder(None),
                ponder(Some(true)),
                ponder(Some(false)),
                ponder(Some(false)),
                ponder(Some(false)),
                ponder(Some(true)),
            ],
            ..PgnGame::default()
        };
        let mut t = GameTally::default();
        t.see(&over(pgn));
        let (_, s) = t.take(1).expect("the end");
        assert_eq!((s.white.ponder_hits, s.white.ponders), (2, 3));
        assert_eq!((s.black.ponder_hits, s.black.ponders), (0, 2));
    }

    #[test]
    fn a_forgotten_end_is_not_given() {
        let mut t = GameTally::default();
        t.see(&over(PgnGame::default()));
        t.forget_end();
        assert!(t.over().is_none() && t.take(0).is_none());
    }
}

/// A match's results file is the match's own: the first player's figures
/// against the second at the top (as `argus referee` has always written
/// it), with the SPRT's state and each pondering player's hits, not a
/// tournament's `players` and `pairings`.
#[test]
fn a_matchs_results_file_is_the_first_players_figures_at_the_top() {
    let mut r = Run::new(settings(2, |s| {
        s.form = crate::tournament::Form::Match;
        s.schedule.games_per_pairing = 4;
        s.sprt = Some("elo0=0 elo1=5".parse().unwrap());
    }));
    r.sign_on(0..2);
    while r.finish_next().is_some() {}
    assert!(r.t.is_over());
    let json = Tallies::of(&r.t).to_json(&r.t);
    assert!(
        json.get("players").is_none() && json.get("pairings").is_none(),
        "{json}"
    );
    // Games 1-4 (`result_for`): a draw, Black wins, White wins, a draw;
    // P1 has White in the odd games: two wins, two draws.
    assert_eq!(json["games"], 4, "{json}");
    let wdl = [&json["wins"], &json["draws"], &json["losses"]].map(|v| v.as_u64());
    assert_eq!(wdl, [Some(2), Some(2), Some(0)], "{json}");
    assert!(
        json["llr"].is_number() && json["sprt_result"].is_null(),
        "{json}"
    );
    // White pondered in the odd games: P1 twice (11 of 20 each time).
    assert_eq!(json["ponder"]["P1"]["hits"], 22, "{json}");
    assert_eq!(json["ponder"]["P1"]["ponders"], 40, "{json}");
    assert!(json["ponder"].get("P2").is_none(), "{json}");
}
