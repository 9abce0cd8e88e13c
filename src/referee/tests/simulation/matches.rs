//! Over a thousand games between well-behaved random and greedy movers,
//! under every kind of time control, and the determinism of a match.

use std::collections::BTreeMap;
use std::time::Instant;

use shakmaty::Chess;

use crate::client::MoverKind;
use crate::game::{self, Game};
use crate::referee::{Ending, GameResult, Start};

use super::harness::run_match;
use super::spec::{GameSummary, MatchReport, MatchSpec, Think};

/// How a game ended, in a word, for the distribution.
pub fn category(g: &GameSummary) -> &'static str {
    match &g.ending {
        Ending::Checkmate { .. } => "checkmate",
        Ending::Stalemate => "stalemate",
        Ending::DeadPosition => "dead position",
        Ending::SeventyFiveMoves => "75-move rule",
        Ending::FivefoldRepetition => "fivefold repetition",
        Ending::DrawClaimed { .. } => "draw claim",
        Ending::Flag { drawn: true, .. } => "flag, no mating material",
        Ending::Flag { drawn: false, .. } => "flag",
        Ending::Forfeit { .. } | Ending::FalseClaim { .. } => "forfeit",
        _ => "other",
    }
}

/// The distribution of endings of a match, for the test log.
pub fn distribution(games: &[GameSummary]) -> BTreeMap<&'static str, usize> {
    let mut d = BTreeMap::new();
    for g in games {
        *d.entry(category(g)).or_insert(0) += 1;
    }
    d
}

/// Runs a match, prints what it did and checks a well-behaved match
/// never had anything rejected or faulted.
fn run_clean(name: &str, spec: MatchSpec) -> MatchReport {
    let started = Instant::now();
    let games = spec.games;
    let report = run_match(spec);
    let plies: usize = report.games.iter().map(|g| g.plies).sum();
    let [w, d, l] = wdl(&report);
    eprintln!(
        "{name}: {games} games, {plies} plies, {} steps, {:.1} s simulated, {:.2} s real; \
         A +{w} ={d} -{l}; {} late replies refused; {:?}",
        report.steps,
        report.end_time_ms as f64 / 1000.0,
        started.elapsed().as_secs_f64(),
        report.late_notices,
        distribution(&report.games)
    );
    assert_eq!(
        report.unexpected_notices, 0,
        "{name}: a well-behaved client was refused or warned about: {:#?}",
        report.unexpected
    );
    assert_eq!(
        report.rejected + report.warnings,
        report.late_notices,
        "{name}: only late replies were refused"
    );
    assert_eq!(
        report.fault_notices, 0,
        "{name}: a fault between good clients"
    );
    assert_eq!(
        report.disconnects,
        [games, games],
        "{name}: both clients disconnected at each game's end"
    );
    report
}

/// Client A's wins, draws and losses.
fn wdl(r: &MatchReport) -> [usize; 3] {
    let mut t = [0; 3];
    for g in &r.games {
        match g.result {
            GameResult::Win(c) => {
                let a_white = g.white == crate::referee::ClientId::A;
                let a_won = (c == shakmaty::Color::White) == a_white;
                t[if a_won { 0 } else { 2 }] += 1;
            }
            GameResult::Draw => t[1] += 1,
            GameResult::None => {}
        }
    }
    t
}

fn count(r: &MatchReport, what: &str) -> usize {
    r.games.iter().filter(|g| category(g) == what).count()
}

#[test]
fn untimed_random_against_random_claiming_draws() {
    let mut spec = MatchSpec::new(1, 250, "-");
    spec.claim_draws = [true, false];
    spec.conclude_delay_ms = 0;
    let r = run_clean("untimed", spec);
    // Random games mostly end by material running out or the 75-move rule.
    assert!(count(&r, "dead position") > 0);
    assert!(count(&r, "checkmate") > 0);
    assert_eq!(count(&r, "flag"), 0);
    assert!(count(&r, "draw claim") > 0, "A claims draws");
}

#[test]
fn sudden_death_greedy_against_random() {
    let mut spec = MatchSpec::new(2, 200, "300");
    spec.movers = [MoverKind::Greedy, MoverKind::Random];
    spec.think = [Think::SOMETIMES_SLOW, Think::SOMETIMES_SLOW];
    let r = run_clean("sudden death 300", spec);
    assert!(count(&r, "flag") > 0, "some long thinks lose on time");
    let [w, _, l] = wdl(&r);
    assert!(w > l, "greedy beats random");
}

#[test]
fn increment_random_against_greedy_from_openings() {
    let mut spec = MatchSpec::new(3, 200, "60+2");
    spec.movers = [MoverKind::Random, MoverKind::Greedy];
    spec.think = [Think::SOMETIMES_SLOW, Think::QUICK];
    spec.claim_draws = [false, true];
    spec.openings = openings();
    run_clean("increment 60+2", spec);
}

#[test]
fn moves_in_seconds_periods() {
    let mut spec = MatchSpec::new(4, 200, "40/120:60");
    spec.movers = [MoverKind::Greedy, MoverKind::Greedy];
    spec.think = [Think::SOMETIMES_SLOW, Think::SOMETIMES_SLOW];
    spec.claim_draws = [true, true];
    run_clean("periods 40/120:60", spec);
}

#[test]
fn sandclock() {
    let mut spec = MatchSpec::new(5, 150, "*240");
    spec.think = [Think::SOMETIMES_SLOW, Think::QUICK];
    let r = run_clean("sandclock *240", spec);
    assert!(count(&r, "flag") + count(&r, "flag, no mating material") > 0);
}

/// Two starting points: moves from the initial position, and a set-up
/// position with Black to move.
fn openings() -> Vec<Start> {
    let mut g = Game::new(Chess::default());
    let moves: Vec<_> = ["e4", "c5", "Nf3"]
        .iter()
        .map(|s| g.play_san(s).expect("a legal opening"))
        .collect();
    let set_up = game::position_from_fen("4k3/pppp4/8/8/8/8/4PPPP/R3K2R b KQ - 3 30")
        .expect("a legal position");
    vec![
        Start {
            position: Chess::default(),
            moves,
            source: "test:1".into(),
        },
        Start {
            position: set_up,
            moves: Vec::new(),
            source: "test:2".into(),
        },
    ]
}

#[test]
fn a_seeded_match_is_deterministic() {
    let spec = || {
        let mut s = MatchSpec::new(77, 12, "120+1");
        s.movers = [MoverKind::Greedy, MoverKind::Random];
        s.think = [Think::SOMETIMES_SLOW, Think::SOMETIMES_SLOW];
        s.faults = [
            super::misbehaving::everything(30),
            super::misbehaving::everything(30),
        ];
        s.trace = true;
        s
    };
    let a = run_match(spec());
    let b = run_match(spec());
    assert!(a.trace.len() > 1000, "the trace is substantial");
    assert_eq!(a.trace.len(), b.trace.len());
    for (i, (x, y)) in a.trace.iter().zip(&b.trace).enumerate() {
        assert_eq!(x, y, "trace line {i} differs");
    }
    // A different seed plays differently.
    let mut other = spec();
    other.seed = 78;
    let c = run_match(other);
    assert_ne!(a.trace, c.trace);
}
