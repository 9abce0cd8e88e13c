//! The match statistics in the core and the SPRT stopping a match.

use super::harness::*;
use crate::referee::client::ClientId;
use crate::referee::event::Event;
use crate::referee::messages::Output;
use crate::referee::settings::Settings;
use crate::stats::sprt::Hypothesis;

/// Plays games until the session ends or `limit` games were played: in
/// each, `loser` resigns as soon as it is on move (after White's 1. e4 when
/// the winner has White). Returns the number of games played.
fn play_games(h: &mut Harness, loser: ClientId, limit: u32) -> u32 {
    let mut t = h.timer();
    for n in 1..=limit {
        let who = h.on_move().expect("someone is on move");
        if who == loser {
            h.reply_with(who, t + 100, None, "resign;");
        } else {
            h.reply(who, t + 100, "e4");
            let l = h.on_move().expect("the loser is on move");
            assert_eq!(l, loser);
            h.reply_with(l, t + 200, None, "resign;");
        }
        assert_eq!(h.game_overs().len() as u32, n);
        h.timer(); // conclude delay: the next reset, or the end
        if h.referee.is_over() {
            return n;
        }
        t = h.timer(); // reset delay: inform and respond
    }
    limit
}

fn session(games: u32, sprt: &str) -> Harness {
    let mut h = Harness::new(Settings {
        games,
        sprt: Some(sprt.parse().unwrap()),
        ..settings()
    });
    h.sign_on(A, 0, Some("Alpha"));
    h.sign_on(B, 0, Some("Beta"));
    h
}

fn summary(h: &Harness) -> String {
    h.outputs
        .iter()
        .find_map(|(_, o)| match o {
            Output::Event(Event::SessionOver(summary)) => Some(summary.to_string()),
            _ => None,
        })
        .expect("the session is over")
}

#[test]
fn sprt_accepts_h1_and_stops_the_match_after_a_pair() {
    let mut h = session(200, "elo0=0 elo1=200");
    let played = play_games(&mut h, B, 200);
    assert!(played < 200 && played.is_multiple_of(2), "{played}");
    let r = h.referee.stats();
    assert_eq!((r.wins, r.draws, r.losses), (played, 0, 0));
    assert_eq!(r.pentanomial, [0, 0, 0, 0, played / 2]);
    let t = r.sprt.unwrap();
    assert_eq!(t.result, Some(Hypothesis::H1));
    assert!(t.llr >= t.upper_bound);
    // Not one pair earlier.
    let mut fewer = crate::stats::MatchStats::default();
    for n in 1..=played - 2 {
        fewer.record(n, Some(crate::stats::GameScore::Win));
    }
    let sprt = h.referee.settings().sprt.unwrap();
    assert_eq!(fewer.report(Some(&sprt)).sprt.unwrap().result, None);
    assert!(
        summary(&h).ends_with("; SPRT: H1 accepted"),
        "{}",
        summary(&h)
    );
    assert!(
        h.notices()
            .iter()
            .any(|n| n.starts_with("SPRT: H1 accepted")),
        "{:?}",
        h.notices()
    );
}

#[test]
fn sprt_accepts_h0_when_the_first_player_loses() {
    let mut h = session(200, "elo0=0 elo1=200 model=logistic");
    let played = play_games(&mut h, A, 200);
    assert!(played < 200 && played.is_multiple_of(2), "{played}");
    let r = h.referee.stats();
    assert_eq!(r.losses, played);
    assert_eq!(r.sprt.unwrap().result, Some(Hypothesis::H0));
    assert!(summary(&h).ends_with("; SPRT: H0 accepted"));
}

#[test]
fn without_a_decision_the_match_plays_all_its_games() {
    let mut h = session(4, "elo0=0 elo1=5");
    assert_eq!(play_games(&mut h, B, 10), 4);
    assert!(h.referee.is_over());
    let r = h.referee.stats();
    assert_eq!(r.pentanomial, [0, 0, 0, 0, 2]);
    assert_eq!(r.sprt.unwrap().result, None);
    assert!(!summary(&h).contains("SPRT"));
}
