//! Rounds paired as the event goes (a Swiss event by the Dutch rules):
//! each round paired once, after the one before is decided and before any
//! of its games starts; journaled, so a resume after a kill at any point
//! replays the same pairings and pairs no round twice.

use std::collections::{BTreeMap, BTreeSet};

use super::{Run, settings};
use crate::tournament::journal::{Line, TournamentWriter, load};
use crate::tournament::schedule::Format;
use crate::tournament::{
    ByeKind, GameState, Input, Output, PlayerId, RoundPairing, Settings, Tournament,
};

/// A Swiss event of `n` players and `rounds` rounds.
pub(super) fn swiss(n: usize, rounds: u32, f: impl FnOnce(&mut Settings)) -> Settings {
    settings(n, |s| {
        s.schedule.format = Format::Swiss;
        s.schedule.rounds = rounds;
        f(s);
    })
}

/// Every round's pairing, from the outputs, in the order made.
pub(super) fn pairings(outputs: &[Output]) -> Vec<RoundPairing> {
    outputs
        .iter()
        .filter_map(|o| match o {
            Output::Paired(p) => Some(p.clone()),
            _ => None,
        })
        .collect()
}

/// Checks what a Swiss event's run did: every round paired once, in
/// order, after the round before was decided and before its own games
/// started; everyone once a round (a game or a bye); nobody met twice; at
/// most one bye a round and nobody given it twice.
fn check_rounds(r: &Run, n: usize, rounds: u32) {
    let mut replay = Tournament::new(r.t.settings().clone()).unwrap();
    let mut paired = 0;
    for (at, input) in &r.inputs {
        if let Input::Paired(p) = input {
            assert_eq!(p.round, paired + 1, "rounds paired in order, once");
            assert!(
                replay.games().all(|(_, s)| s.is_decided()),
                "round {} paired before the one before was decided",
                p.round
            );
            paired += 1;
        }
        for o in replay.handle(input.clone(), *at) {
            if let Output::StartGame { game, .. } = o {
                assert_eq!(
                    game.round, paired,
                    "game {} of an unpaired round",
                    game.number
                );
            }
        }
    }
    assert_eq!(paired, rounds);
    let mut met = BTreeSet::new();
    let mut byes = BTreeSet::new();
    for p in pairings(&r.outputs) {
        let mut seen = BTreeSet::new();
        for &(w, b) in &p.games {
            assert!(seen.insert(w) && seen.insert(b), "round {}: twice", p.round);
            assert!(met.insert((w.min(b), w.max(b))), "{w} and {b} met twice");
        }
        let allocated: Vec<PlayerId> = p
            .byes
            .iter()
            .filter(|b| b.1 == ByeKind::Allocated)
            .map(|b| b.0)
            .collect();
        assert!(allocated.len() <= 1, "round {}: two byes", p.round);
        for &(b, _) in &p.byes {
            assert!(seen.insert(b), "round {}: {b} twice", p.round);
        }
        for b in allocated {
            assert!(byes.insert(b), "{b} given the bye twice");
        }
        assert_eq!(seen.len(), n, "round {}: someone left out", p.round);
    }
}

#[test]
fn each_round_is_paired_once_when_the_one_before_is_decided() {
    let mut r = Run::new(swiss(7, 5, |_| {}));
    // Round 1 is paired at the start, before anyone signs on.
    assert_eq!(pairings(&r.outputs).len(), 1);
    assert_eq!(r.t.schedule().games().len(), 3);
    assert_eq!(r.t.board_count(), 3);
    r.sign_on(0..7);
    assert_eq!(r.started().len(), 3);
    // Two games of round 1 decided: round 2 waits for the third.
    r.finish_next();
    r.finish_next();
    assert_eq!(pairings(&r.outputs).len(), 1);
    assert_eq!(r.t.round_due(), None);
    r.finish_next();
    assert_eq!(pairings(&r.outputs).len(), 2);
    r.play_out();
    assert!(r.t.is_over());
    assert_eq!(r.count(|o| *o == Output::TournamentOver), 1);
    assert_eq!(r.t.schedule().games().len(), 15);
    assert_eq!(r.t.schedule().byes().len(), 5);
    assert_eq!(r.t.round_due(), None);
    assert_eq!(r.t.pairing_due(), None);
    check_rounds(&r, 7, 5);
}

#[test]
fn the_initial_order_is_by_rating_then_name() {
    let mut s = swiss(4, 1, |_| {});
    s.names = vec!["Zed".into(), "Amy".into(), "Bob".into(), "Cy".into()];
    s.ratings = vec![1800, 0, 2100, 1800];
    let r = Run::new(s);
    let order = crate::tournament::swiss_event::initial_order(&r.t);
    assert_eq!(
        order,
        vec![PlayerId(2), PlayerId(3), PlayerId(0), PlayerId(1)]
    );
    // Round 1 of the Dutch system: 1 - 3, 4 - 2 (top half against the
    // bottom half, White to the first player on board 1).
    let p = &pairings(&r.outputs)[0];
    assert_eq!(
        p.games,
        vec![(PlayerId(2), PlayerId(0)), (PlayerId(1), PlayerId(3))]
    );
}

#[test]
fn a_round_that_cannot_be_paired_ends_the_event() {
    // Four players meet each other in three rounds: a fourth cannot be
    // paired without a rematch.
    let mut r = Run::new(swiss(4, 5, |_| {}));
    r.sign_on(0..4);
    r.play_out();
    assert!(r.t.is_over());
    assert_eq!(pairings(&r.outputs).len(), 3);
    assert_eq!(
        r.count(|o| matches!(o, Output::Unpairable { round: 4, .. })),
        1
    );
    assert_eq!(r.count(|o| *o == Output::TournamentOver), 1);
    assert_eq!(r.t.round_due(), None);
}

#[test]
fn a_pairing_not_due_or_naming_a_player_twice_is_ignored() {
    let mut r = Run::new(swiss(4, 3, |_| {}));
    let before = r.t.clone();
    let twice = RoundPairing {
        round: 2,
        games: vec![(PlayerId(0), PlayerId(1))],
        byes: vec![],
    };
    let out = r.t.handle(Input::Paired(twice), 5);
    assert!(matches!(&out[..], [Output::Ignored { .. }]), "{out:?}");
    let mut fresh = Tournament::new(before.settings().clone()).unwrap();
    let bad = RoundPairing {
        round: 1,
        games: vec![(PlayerId(0), PlayerId(1)), (PlayerId(1), PlayerId(2))],
        byes: vec![],
    };
    let out = fresh.handle(Input::Paired(bad), 5);
    assert!(
        matches!(&out[..], [Output::Ignored { reason }] if reason.contains("twice")),
        "{out:?}"
    );
    assert!(fresh.schedule().games().is_empty());
    let unknown = RoundPairing {
        round: 1,
        games: vec![(PlayerId(0), PlayerId(9))],
        byes: vec![],
    };
    let out = fresh.handle(Input::Paired(unknown), 5);
    assert!(matches!(&out[..], [Output::Ignored { .. }]), "{out:?}");
    assert_eq!(fresh.round_due(), Some(1));
}

#[test]
fn pairing_lines_round_trip() {
    for input in [
        Input::Paired(RoundPairing {
            round: 3,
            games: vec![(PlayerId(4), PlayerId(0)), (PlayerId(2), PlayerId(5))],
            byes: vec![
                (PlayerId(1), ByeKind::Allocated),
                (PlayerId(3), ByeKind::Half),
            ],
        }),
        Input::Paired(RoundPairing {
            round: 1,
            games: vec![],
            byes: vec![(PlayerId(0), ByeKind::Zero)],
        }),
        Input::Unpairable {
            round: 9,
            reason: "no pairing \"without\" a rematch".into(),
        },
    ] {
        let line = Line::Input { at: 7, input };
        assert_eq!(Line::parse(&line.payload()).unwrap(), line);
    }
    for bad in [
        "in 1 paired 2 0-x",
        "in 1 paired 2 01",
        "in 1 paired 2 bye 3 Q",
        "in 1 paired",
    ] {
        assert!(Line::parse(bad).is_err(), "{bad}");
    }
}

/// The whole event, journaled to `path`.
fn journaled(path: &std::path::Path, s: Settings) -> Run {
    let header = super::resume::header(s.clone());
    let mut w = TournamentWriter::create(path, &header, 1_700_000_000_000).unwrap();
    let mut r = Run::new(s);
    let n = r.t.schedule().players();
    r.sign_on(0..n);
    r.play_out();
    for (at, input) in &r.inputs {
        w.input(*at, input).unwrap();
    }
    r
}

#[test]
fn a_resume_after_a_kill_at_any_point_replays_the_pairings_and_pairs_no_round_twice() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.journal");
    let s = swiss(7, 4, |s| {
        s.ratings = vec![2400, 2300, 2350, 0, 2100, 2300, 1900]
    });
    let whole = journaled(&full, s);
    let want = pairings(&whole.outputs);
    assert_eq!(want.len(), 4);
    let bytes = std::fs::read(&full).unwrap();
    let line_ends: Vec<usize> = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .map(|(i, _)| i + 1)
        .collect();
    let head = line_ends.len() - whole.inputs.len();
    for k in 0..=whole.inputs.len() {
        let path = dir.path().join(format!("kill-{k}.journal"));
        let mut cut = bytes[..line_ends[head + k - 1]].to_vec();
        cut.extend_from_slice(b"in 999 pai"); // the line the kill tore
        std::fs::write(&path, &cut).unwrap();
        let loaded = load(&path).unwrap();
        let before: Vec<RoundPairing> = whole.inputs[..k]
            .iter()
            .filter_map(|(_, i)| match i {
                Input::Paired(p) => Some(p.clone()),
                _ => None,
            })
            .collect();
        let mut r = Run::from(loaded.tournament);
        r.at = loaded.last_at + 5_000;
        r.input(Input::Resumed { on_cables: vec![] });
        r.sign_on(0..7);
        r.play_out();
        assert!(r.t.is_over(), "kill at {k}");
        let mut made = before.clone();
        made.extend(pairings(&r.outputs));
        assert_eq!(made, want, "kill at {k}: each round paired once, the same");
        let decided: BTreeMap<u32, GameState> = r.t.games().map(|(g, s)| (g.number, s)).collect();
        assert_eq!(
            decided.len(),
            whole.t.schedule().games().len(),
            "kill at {k}"
        );
    }
}

/// The event's TRF re-paired round by round by `argus swiss check`'s
/// code: every round the same.
fn trf_checks(t: &Tournament) -> String {
    let text = crate::tournament::swiss_event::trf(t, &Default::default());
    let trf = crate::swiss::trf::read(&text, false).expect("its own TRF reads");
    for c in crate::swiss::check::check(&trf.event) {
        assert_eq!(
            c.verdict,
            crate::swiss::check::Verdict::Same,
            "round {}:\n{text}",
            c.round
        );
    }
    text
}

fn halves_of(t: &Tournament, p: usize) -> u32 {
    crate::tournament::Standings::of(t)
        .rows
        .iter()
        .find(|r| r.player == PlayerId(p))
        .unwrap()
        .halves
}

#[test]
fn a_requested_bye_a_late_entry_and_the_pairing_bye_score_as_the_event_says() {
    // P1 asks for a bye in round 2 (half a point); P6 enters from round 3
    // (zero-point byes in rounds 1 and 2); 6 players, 5 in rounds 1-2:
    // a pairing-allocated bye each of those rounds.
    let s = swiss(6, 4, |s| {
        s.swiss.byes = vec![(PlayerId(0), 2)];
        s.swiss.late = vec![(PlayerId(5), 3)];
    });
    let mut r = Run::new(s);
    r.sign_on(0..6);
    r.play_out();
    assert!(r.t.is_over());
    let p = pairings(&r.outputs);
    assert_eq!(p[0].byes.len(), 2, "{:?}", p[0]);
    assert!(p[0].byes.contains(&(PlayerId(5), ByeKind::Zero)));
    assert!(p[1].byes.contains(&(PlayerId(5), ByeKind::Zero)));
    assert!(p[1].byes.contains(&(PlayerId(0), ByeKind::Half)));
    // Round 2: P1 and P6 out, 4 players paired, no pairing bye.
    assert_eq!(p[1].games.len(), 2);
    assert!(!p[1].byes.iter().any(|b| b.1 == ByeKind::Allocated));
    for round in &p[2..] {
        assert_eq!(round.games.len(), 3, "everyone paired from round 3");
        assert!(round.byes.is_empty());
    }
    let allocated: Vec<PlayerId> = p[0]
        .byes
        .iter()
        .filter(|b| b.1 == ByeKind::Allocated)
        .map(|b| b.0)
        .collect();
    assert_eq!(allocated.len(), 1);
    // The points: games, plus 1 for the pairing bye, 1/2 for P1's.
    let from_games = |p: usize| -> u32 {
        r.t.games()
            .filter_map(|(g, s)| match s {
                GameState::Decided(o) if g.white.0 == p => Some(o.halves().white),
                GameState::Decided(o) if g.black.0 == p => Some(o.halves().black),
                _ => None,
            })
            .sum()
    };
    assert_eq!(halves_of(&r.t, 0), from_games(0) + 1);
    assert_eq!(
        halves_of(&r.t, allocated[0].0),
        from_games(allocated[0].0) + 2
    );
    assert_eq!(halves_of(&r.t, 5), from_games(5));
    let text = trf_checks(&r.t);
    assert!(text.contains("0000 - H"), "{text}");
    assert!(text.contains("0000 - Z"), "{text}");
    assert!(text.contains("0000 - U"), "{text}");
}

#[test]
fn a_requested_bye_at_zero_is_worth_nothing() {
    let s = swiss(4, 2, |s| {
        s.swiss.byes = vec![(PlayerId(2), 1)];
        s.swiss.bye = ByeKind::Zero;
    });
    let mut r = Run::new(s);
    assert!(
        pairings(&r.outputs)[0]
            .byes
            .contains(&(PlayerId(2), ByeKind::Zero))
    );
    r.sign_on(0..4);
    r.play_out();
    let p3: u32 =
        r.t.games()
            .filter_map(|(g, s)| match s {
                GameState::Decided(o) if g.has(PlayerId(2)) => Some(if g.white.0 == 2 {
                    o.halves().white
                } else {
                    o.halves().black
                }),
                _ => None,
            })
            .sum();
    assert_eq!(halves_of(&r.t, 2), p3);
    trf_checks(&r.t);
}

#[test]
fn a_player_away_too_long_forfeits_its_game_and_is_paired_no_more() {
    use crate::tournament::Absence;
    let s = swiss(5, 3, |s| s.absence = Absence::Forfeit { after_ms: 60_000 });
    let mut r = Run::new(s);
    // P1 never signs on (the first board of round 1; the lowest, P5, has
    // the bye): at 60 s it forfeits its round-1 game, then has a
    // zero-point bye in every round after.
    r.sign_on(1..5);
    r.at = 60_000;
    r.input(Input::Timer);
    assert!(r.t.players()[0].withdrawn);
    assert!(r.count(|o| matches!(o, Output::Withdrawn { .. })) == 1);
    r.play_out();
    assert!(r.t.is_over());
    let p = pairings(&r.outputs);
    assert_eq!(p.len(), 3);
    assert!(
        p[0].byes.contains(&(PlayerId(4), ByeKind::Allocated)),
        "{:?}",
        p[0]
    );
    for round in &p[1..] {
        assert!(
            round.byes.contains(&(PlayerId(0), ByeKind::Zero)),
            "{round:?}"
        );
        assert!(
            round
                .games
                .iter()
                .all(|g| g.0 != PlayerId(0) && g.1 != PlayerId(0))
        );
        assert_eq!(round.games.len(), 2);
    }
    trf_checks(&r.t);
}

#[test]
fn the_standings_rank_by_points_then_the_swiss_tiebreaks() {
    let s = swiss(8, 3, |s| {
        s.ratings = vec![2500, 2400, 2300, 2200, 2100, 2000, 1900, 1800]
    });
    let mut r = Run::new(s);
    r.sign_on(0..8);
    r.play_out();
    let st = crate::tournament::Standings::of(&r.t);
    for w in st.rows.windows(2) {
        let key = |row: &crate::tournament::Row| (row.halves, row.tiebreaks.clone());
        assert!(key(&w[0]) >= key(&w[1]), "{st:?}");
        assert_eq!(w[0].tiebreaks.len(), 5);
    }
    let (event, order) = crate::tournament::swiss_event::event(&r.t, 3);
    let fide = crate::swiss::tiebreak::standings(&event);
    let ours: Vec<PlayerId> = st.rows.iter().map(|row| row.player).collect();
    let theirs: Vec<PlayerId> = fide.iter().map(|t| order[t.player]).collect();
    assert_eq!(ours, theirs);
    let text = crate::tournament::report::text(&r.t);
    assert!(
        text.contains("BH-C1") && text.contains("buchholz-cut1"),
        "{text}"
    );
    // A Swiss has no cycles or games per pairing to speak of.
    assert!(
        text.contains("Swiss (FIDE Dutch system), 8 players: 12 games in 3 rounds"),
        "{text}"
    );
    trf_checks(&r.t);
}

#[test]
fn the_trf_header_carries_what_argus_knows_and_nothing_made_up() {
    use crate::tournament::swiss_event::{TrfFacts, trf};
    let s = swiss(5, 2, |s| {
        s.event = "Club\u{7} open".into();
        s.ratings = vec![2400, 0, 2100, 0, 0];
    });
    let mut r = Run::new(s);
    let facts = TrfFacts {
        site: Some("Leiden NED".into()),
        // 2026-11-28 12:00 UTC, and the next day.
        started_unix_ms: Some(1_795_867_200_000),
        ended_unix_ms: Some(1_795_867_200_000 + 86_400_000),
        time_control: Some("40/7200:3600+30".parse().unwrap()),
    };
    let during = trf(&r.t, &facts);
    let head: Vec<&str> = during
        .lines()
        .take_while(|l| !l.starts_with("001"))
        .collect();
    assert_eq!(
        head,
        vec![
            "012 Club open",
            "022 Leiden NED",
            "042 2026/11/28",
            "062 5",
            "072 2",
            "092 Individual: Swiss-System (FIDE Dutch, C.04.3)",
            "122 40 moves in 7200 s, then 3600 s + 30 s per move",
            "142 2",
            "XXR 2",
            "152 W",
        ],
        "no end date while it goes on:\n{during}"
    );
    r.sign_on(0..5);
    r.play_out();
    let done = trf(&r.t, &facts);
    assert!(done.contains("\n052 2026/11/29\n"), "{done}");
    // Nothing argus is not told: federation, arbiter, round dates.
    for code in ["032", "102", "112", "132"] {
        assert!(!done.lines().any(|l| l.starts_with(code)), "{done}");
    }
    // An unknown site and no time control are left out.
    let bare = trf(
        &r.t,
        &TrfFacts {
            site: Some("?".into()),
            time_control: Some(crate::clock::TimeControl::Untimed),
            ..TrfFacts::default()
        },
    );
    assert!(!bare.contains("\n022") && !bare.contains("\n122") && !bare.contains("\n042"));
    // What is written passes `argus swiss check`.
    let read = crate::swiss::trf::read(&done, false).unwrap();
    let checks = crate::swiss::check::check(&read.event);
    assert_eq!(checks.len(), 2);
    for c in checks {
        assert_eq!(c.verdict, crate::swiss::check::Verdict::Same, "{done}");
    }
}

#[test]
fn a_swiss_events_games_have_no_fixed_total_and_a_round_robins_do() {
    let t = Tournament::new(swiss(4, 3, |_| {})).unwrap();
    assert_eq!(t.games_total(), u32::MAX, "paired round by round");
    let t = Tournament::new(super::settings(4, |_| {})).unwrap();
    assert_eq!(t.games_total(), 6, "a round robin of four");
}
