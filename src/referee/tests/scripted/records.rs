//! The records of a game (PGN, tags).

use super::*;

#[test]
fn live_pgn_mid_game_and_final_pgn_with_clock_comments() {
    let mut h = Harness::new(no_credit(timed("40/7200")));
    let t = h.start();
    let t = h.play(t, 2_000, &FOOLS_MATE[..2]);
    let live = h.referee.live_pgn(t + 500).unwrap();
    assert_eq!(live.result, "*");
    let clock = live
        .tags
        .iter()
        .find(|(n, _)| n == "Clock")
        .map(|(_, v)| v.as_str());
    assert_eq!(
        clock,
        Some("W/1:59:57"),
        "White on move, 0.5 s into the move"
    );
    assert!(!live.tags.iter().any(|(n, _)| n == "Termination"));
    h.play(t, 2_000, &FOOLS_MATE[2..]);
    let g = h.game_over();
    assert!(
        g.pgn
            .moves
            .iter()
            .all(|m| m.clk_ms.is_some() && m.emt_ms == Some(2_000))
    );
    let pgn = h.final_pgn();
    assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
    assert!(pgn.contains("[TimeControl \"40/7200\"]"), "{pgn}");
    assert!(
        pgn.contains("1. f3 {[%clk 1:59:58] [%emt 0:00:02.000]}"),
        "{pgn}"
    );
    assert_eq!(pgn.matches("[%clk").count(), 4, "{pgn}");
    let live = h.referee.live_pgn(t + 10_000).unwrap();
    assert_eq!(
        live.result, "0-1",
        "after the end the live PGN is the final one"
    );
}

#[test]
fn untimed_games_have_no_clock_comments_but_cc_counts_time_used() {
    let mut h = Harness::new(no_credit(settings()));
    let t = h.start();
    h.reply(A, t + 61_000, "e4");
    assert_eq!(
        h.last(B).cc(),
        ("000:00:01:01".into(), "000:00:00:00".into())
    );
    h.command(Command::Adjudicate(Verdict::Draw), t + 62_000);
    assert!(
        h.game_over()
            .pgn
            .moves
            .iter()
            .all(|m| m.clk_ms.is_none() && m.emt_ms.is_none())
    );
    assert!(!h.final_pgn().contains("%clk"));
}

#[test]
fn the_same_inputs_give_the_same_outputs() {
    fn run() -> (String, String) {
        let mut h = Harness::new(timed("60+1"));
        h.sign_on(A, 0, Some("Alpha"));
        h.sign_on(B, 7, Some("Beta"));
        let t = h.timer();
        let t = h.play(t, 1_234, &["e4", "c5", "Nf3", "d6"]);
        h.reply_with(A, t + 99, Some("d4"), "draw_offer;");
        h.line(B, t + 150, "junk");
        h.reply(B, t + 2_000, "cxd4");
        h.command(Command::Pause, t + 2_500);
        h.command(Command::Resume, t + 3_000);
        h.timer(); // A flags
        h.timer(); // the conclude delay: the end
        (format!("{:?}", h.outputs), h.transcript())
    }
    let (a, ta) = run();
    let (b, tb) = run();
    assert_eq!(a, b);
    assert_eq!(ta, tb);
    assert!(a.contains("SessionOver"));
}

#[test]
fn a_client_that_signs_on_after_its_link_came_back_is_resynced_not_sent_the_respond_twice() {
    let mut h = Harness::new(timed("300"));
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    h.clear();
    h.feed(
        Input::LinkLost {
            client: B,
            reason: "cable pulled".into(),
        },
        t + 2_000,
    );
    h.feed(Input::LinkBack { client: B }, t + 3_000);
    h.sign_on(B, t + 3_500, None);
    assert_eq!(h.take_cmds(B), [Reset]);
    // The resync's own respond is the only one: the link-back resend is
    // cancelled by the sign-on.
    assert_eq!(h.timer(), t + 3_500 + 5_000);
    assert_eq!(h.take_cmds(B), [Inform, Execute, Respond]);
    h.reply(B, t + 9_000, "c5");
    assert_eq!(h.snap().sans, ["e4", "c5"]);
}

#[test]
fn a_silent_client_gets_its_respond_again_after_resend_after() {
    let mut h = Harness::new(Settings {
        resend_after_ms: 30_000,
        ..settings()
    });
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    h.clear();
    let first = h.last(B).clone();
    // Nothing from B: after 30 s of silence the same respond goes out again.
    assert_eq!(h.timer(), t + 1_000 + 30_000);
    let again = h.take(B);
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].refcom(), Respond);
    assert_eq!(again[0].record.fields, first.record.fields);
    assert_eq!(again[0].sm(), Some("e4"));
    // And again 30 s after that, not before.
    assert_eq!(h.timer(), t + 1_000 + 60_000);
    assert_eq!(h.take_cmds(B), [Respond]);
    h.reply(B, t + 62_000, "e5");
    assert_eq!(h.snap().sans, ["e4", "e5"]);
}

#[test]
fn a_reply_on_the_wire_is_not_crossed_by_a_resend_after_silence() {
    let mut h = Harness::new(Settings {
        resend_after_ms: 7_000,
        ..settings()
    });
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    h.clear();
    let asked = t + 1_000;
    assert_eq!(h.referee.next_deadline(), Some(asked + 7_000));
    // B's reply starts arriving 10 ms before the silence would end; its
    // line end comes 20 ms after it would have ended.
    let out = h.feed(Input::Receiving { from: B }, asked + 6_990);
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(
        h.referee.next_deadline(),
        Some(asked + 6_990 + 7_000),
        "silence counts from the last byte"
    );
    let out = h.feed(Input::Timer, asked + 7_000);
    assert_eq!(sends(&out), 0, "no resend while a reply is arriving");
    h.reply(B, asked + 7_010, "e5");
    assert!(h.take(B).is_empty(), "B was never asked twice");
    assert_eq!(h.snap().sans, ["e4", "e5"]);
    // Bytes from the client not on move do not hold back A's resend.
    let asked = asked + 7_010;
    h.feed(Input::Receiving { from: B }, asked + 5_000);
    assert_eq!(h.referee.next_deadline(), Some(asked + 7_000));
    // A damaged (dropped) line from A is bytes too.
    h.feed(
        Input::Dropped {
            from: A,
            reason: "noise".into(),
        },
        asked + 6_000,
    );
    assert_eq!(h.referee.next_deadline(), Some(asked + 6_000 + 7_000));
}

#[test]
fn without_resend_after_a_silent_client_is_not_asked_again() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    h.clear();
    // Untimed and no resend: nothing is due.
    assert_eq!(h.referee.next_deadline(), None);
    assert!(h.take(B).is_empty());
}

#[test]
fn a_referee_resumed_after_the_match_ended_sends_disconnect_again() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.command(Command::EndSession, t + 1_000);
    assert!(h.referee.is_over());
    h.clear();
    h.feed(Input::Resumed, t + 2_000);
    assert_eq!(h.take_cmds(A), [Disconnect]);
    assert_eq!(h.take_cmds(B), [Disconnect]);
    assert!(h.referee.is_over());
}
