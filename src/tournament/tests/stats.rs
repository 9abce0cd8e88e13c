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
}
