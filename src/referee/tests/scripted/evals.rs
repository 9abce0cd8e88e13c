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
        pgn.contains(
            "1. e4 {+0.35/12 0.50s, tl=299.500s, n=4000 [%clk 0:04:59] [%emt 0:00:00.500]}"
        ),
        "{pgn}"
    );
    assert!(
        pgn.contains("1... e5 {+M5 2.0s, tl=298.000s, pv=\"e5 Nf3\" [%clk"),
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

/// A move the client's book played (`Abook`) is marked `{book}` in place
/// of an evaluation, as cutechess-cli marks one; the next move, searched,
/// has its evaluation.
#[test]
fn a_book_move_is_marked_book_in_place_of_its_evaluation() {
    let mut h = Harness::new(no_credit(timed("300")));
    let t = h.start();
    let a = h.on_move().unwrap();
    h.reply_with(a, t + 5, Some("e4"), "Abook;");
    let b = h.on_move().unwrap();
    h.reply_with(b, t + 500, Some("c5"), "ce -20; acd 9; Abook;");
    let a = h.on_move().unwrap();
    h.reply_with(a, t + 1_500, Some("Nf3"), "ce 30; acd 10;");
    let pgn = h.live_pgn().replace('\n', " ");
    assert!(
        pgn.contains("1. e4 {book [%clk 0:04:59] [%emt 0:00:00.005]}"),
        "{pgn}"
    );
    assert!(pgn.contains("1... c5 {book [%clk"), "{pgn}");
    assert!(
        !pgn.contains("-0.20"),
        "a book move has no evaluation: {pgn}"
    );
    assert!(
        pgn.contains("2. Nf3 {+0.30/10 1.0s, tl=298.995s [%clk"),
        "{pgn}"
    );
}

/// `Aponder hit|miss` on a reply is counted for its client over the
/// match, a bad one not at all; the move stands either way.
#[test]
fn ponder_hits_are_counted_per_client() {
    let mut h = Harness::new(settings());
    let t = h.start();
    let a = h.on_move().unwrap();
    h.reply_with(a, t + 100, Some("e4"), "Aponder hit;");
    let b = h.on_move().unwrap();
    h.reply_with(b, t + 200, Some("e5"), "Aponder sometimes;");
    let a2 = h.on_move().unwrap();
    assert_eq!(a2, a, "a bad Aponder leaves the move standing");
    h.reply_with(a, t + 300, Some("Nf3"), "Aponder miss;");
    h.reply_with(b, t + 400, Some("Nc6"), "");
    h.reply_with(a, t + 500, Some("Bb5"), "Aponder hit;");
    let counts = h.referee.ponder_counts();
    assert_eq!(counts[a], (2, 3));
    assert_eq!(counts[b], (0, 0));
    assert_eq!(h.game_overs().len(), 0);
}
