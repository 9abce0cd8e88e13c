//! The evaluations clients send with their moves (`ce`, `acd`, `acn`,
//! `pv`) go into the PGN as cutechess-cli's move comments.

use super::harness::*;

#[test]
fn evaluations_become_move_comments_beside_the_clock() {
    let mut h = Harness::new(no_credit(timed("300")));
    let t = h.start();
    let a = h.on_move().unwrap();
    h.reply_with(a, t + 500, Some("e4"), "ce 35; acd 12; acn 4000;");
    let b = h.on_move().unwrap();
    h.reply_with(b, t + 2_500, Some("e5"), "ce 32762; pv e5 Nf3;");
    h.play(t + 2_500, 1_000, &["Nf3"]);
    let pgn = h.live_pgn().replace('\n', " ");
    assert!(
        pgn.contains("1. e4 {+0.35/12 0.50s, n=4000 [%clk 0:04:59] [%emt 0:00:00.500]}"),
        "{pgn}"
    );
    assert!(
        pgn.contains("1... e5 {+M5 2.0s, pv=\"e5 Nf3\" [%clk"),
        "{pgn}"
    );
    assert!(pgn.contains("2. Nf3 {[%clk"), "{pgn}");
}

#[test]
fn a_bad_ce_is_said_and_the_move_stands_without_a_comment() {
    let mut h = Harness::new(settings());
    let t = h.start();
    let a = h.on_move().unwrap();
    h.reply_with(a, t + 500, Some("e4"), "ce lots;");
    let notices = h.notices().join("\n");
    assert!(
        notices.contains("A: ce: ") && notices.contains("(the move e4 stands)"),
        "{notices}"
    );
    assert!(h.on_move().is_some_and(|b| b != a), "the game goes on");
    let pgn = h.live_pgn();
    assert!(pgn.contains("1. e4 *"), "{pgn}");
}

#[test]
fn untimed_games_still_say_how_long_the_move_took() {
    let mut h = Harness::new(no_credit(settings()));
    let t = h.start();
    let a = h.on_move().unwrap();
    h.reply_with(a, t + 12_345, Some("d4"), "ce -8; acd 3;");
    let pgn = h.live_pgn();
    assert!(pgn.contains("1. d4 {-0.08/3 12s} *"), "{pgn}");
}
