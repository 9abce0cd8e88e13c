//! Sign-off, lost links and restarted clients.

use super::*;

#[test]
fn sign_off_keeps_the_clock_running_and_sign_on_resyncs_with_execute() {
    let mut h = Harness::new(no_credit(timed("300")));
    let t = h.start();
    let t = h.play(t, 1_000, &["e4", "e5", "Nf3", "Nc6"]);
    h.clear();
    h.line(A, t + 1_000, &format!("{INITIAL} refreq sign_off;"));
    let s = h.snap();
    assert!(!s.clients.a.signed_on);
    assert!(s.clock(Color::White).running, "its clock keeps running");
    // A reply from a client that signed off is rejected.
    let out = h.reply(A, t + 2_000, "Bb5");
    assert!(rejected(&out));
    assert_eq!(h.snap().sans.len(), 4);

    // It signs on again: reset now; inform, execute per move, respond later.
    h.sign_on(A, t + 3_000, None);
    assert_eq!(h.take_cmds(A), [Reset]);
    assert!(h.take(B).is_empty());
    let out = h.reply(A, t + 4_000, "Bb5");
    assert!(rejected(&out), "no replies before it is back in line");
    assert_eq!(h.referee.next_deadline(), Some(t + 8_000));
    h.timer();
    let a = h.take(A);
    let cmds: Vec<RefCom> = a.iter().map(Got::refcom).collect();
    assert_eq!(cmds, [Inform, Execute, Execute, Execute, Execute, Respond]);
    let mut g = crate::game::Game::new(shakmaty::Chess::default());
    for (i, san) in ["e4", "e5", "Nf3", "Nc6"].iter().enumerate() {
        let e = &a[1 + i];
        assert_eq!(
            e.fen(),
            crate::game::fen_of(g.position()),
            "position before move {i}"
        );
        assert_eq!(e.sm(), Some(*san));
        g.play_san(san).unwrap();
    }
    assert_eq!(a[5].fen(), crate::game::fen_of(g.position()));
    assert_eq!(a[5].sm(), None, "it already has every move");
    // The clock ran all along: 1 s thinking + 7 s away.
    assert_eq!(h.snap().clock(Color::White).used_ms, 2_000 + 8_000);
    h.reply(A, t + 9_000, "Bb5");
    assert_eq!(h.take(B)[0].sm(), Some("Bb5"));
}

#[test]
fn a_restarted_client_not_on_move_gets_no_respond() {
    let mut h = Harness::new(settings());
    let t = h.start();
    let t = h.play(t, 1_000, &["d4", "d5", "c4"]);
    h.clear();
    h.command(Command::RestartClient(A), t + 1_000);
    assert_eq!(h.take_cmds(A), [Reset]);
    h.timer();
    assert_eq!(h.take_cmds(A), [Inform, Execute, Execute, Execute]);
    assert!(h.take(B).is_empty());
    h.reply(B, t + 7_000, "e6");
    assert_eq!(h.take(A)[0].sm(), Some("e6"));
}

#[test]
fn nothing_is_sent_during_a_resync_reset_delay_and_the_turn_starts_at_once() {
    let mut h = Harness::new(no_credit(timed("300")));
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    h.sign_on(A, t + 2_000, None); // A restarted
    h.clear();
    // B moves during A's reset delay: A is sent nothing yet.
    h.reply(B, t + 3_000, "e5");
    assert!(h.take(A).is_empty(), "{}", h.transcript());
    let s = h.referee.snapshot(t + 4_000);
    assert!(
        s.clock(Color::White).running,
        "A's turn began with B's move"
    );
    // A link coming back during the delay sends nothing either.
    h.feed(Input::LinkBack { client: A }, t + 4_000);
    assert!(h.take(A).is_empty());
    assert_eq!(h.timer(), t + 7_000);
    assert_eq!(h.take_cmds(A), [Inform, Execute, Execute, Respond]);
    assert_eq!(h.last(A).sm(), None);
    h.reply(A, t + 8_000, "Nf3");
    assert_eq!(h.take(B)[0].sm(), Some("Nf3"));
    // 1 s for e4, 5 s from e5 to Nf3.
    assert_eq!(h.snap().clock(Color::White).used_ms, 6_000);
}

#[test]
fn a_respond_the_link_refused_is_not_waited_for_the_client_is_brought_back_in_line() {
    let mut h = Harness::new(no_credit(timed("300")));
    let t = h.start();
    h.acks = Acks::Held;
    h.clear();
    h.reply(A, t + 1_000, "e4");
    h.ack(A, t + 1_000);
    // B's respond (with e4) is refused by its link: it never leaves.
    assert_eq!(h.take_cmds(B), [Respond]);
    let out = h.refuse(B, t + 1_000);
    assert!(h.notices().iter().any(|n| n.contains("refused")), "{out:?}");
    // B is brought back in line: reset now, the game after the delay.
    assert_eq!(h.take_cmds(B), [Reset]);
    h.ack(B, t + 1_100);
    assert!(
        !h.snap().clock(Color::Black).running,
        "no clock for a respond that never left"
    );
    assert_eq!(h.timer(), t + 6_000);
    assert_eq!(h.take_cmds(B), [Inform, Execute, Respond]);
    h.ack(B, t + 6_500);
    assert!(h.snap().clock(Color::Black).running, "the new respond left");
    h.reply(B, t + 7_500, "e5");
    assert_eq!(h.snap().sans, ["e4", "e5"]);
    assert_eq!(h.snap().clock(Color::Black).used_ms, 1_000);
}

#[test]
fn a_lost_link_keeps_the_clock_and_link_back_resends_the_respond() {
    let mut h = Harness::new(timed("300"));
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    h.clear();
    let first = h.last(B).clone();
    h.feed(
        Input::LinkLost {
            client: B,
            reason: "cable pulled".into(),
        },
        t + 2_000,
    );
    assert!(!h.snap().clients.b.link_up);
    assert!(h.snap().clock(Color::Black).running);
    h.feed(Input::LinkBack { client: B }, t + 6_000);
    assert_eq!(h.snap().clock(Color::Black).used_ms, 5_000);
    // The client may sign on again; if it does not within the reset delay,
    // the respond goes out again.
    assert!(h.take(B).is_empty());
    let resent_at = h.timer();
    assert_eq!(resent_at, t + 6_000 + 5_000);
    let b = h.take(B);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].refcom(), Respond);
    assert_eq!(b[0].record.fields, first.record.fields);
    assert_eq!(b[0].sm(), Some("e4"));
    h.reply(B, resent_at + 1_000, "c5");
    assert_eq!(h.snap().sans, ["e4", "c5"]);
}

#[test]
fn the_match_waits_for_a_client_from_the_start_until_it_signs_on_and_from_its_loss_until_it_is_back()
 {
    let mut h = Harness::new(no_credit(timed("300")));
    assert_eq!(h.referee.waiting(), [(A, 0), (B, 0)]);
    h.sign_on(A, 0, None);
    assert_eq!(h.referee.waiting(), [(B, 0)], "A is here");
    h.sign_on(B, 0, None);
    let t = h.timer();
    assert_eq!(h.referee.waiting(), []);
    let t = h.play(t, 1_000, &["e4", "e5"]);
    // B's link is lost: awaited since then, still after a second loss.
    let lost = |client| Input::LinkLost {
        client,
        reason: "gone".into(),
    };
    h.feed(lost(B), t + 1_000);
    h.feed(lost(B), t + 2_000);
    assert_eq!(h.referee.waiting(), [(B, t + 1_000)]);
    // Its link back, it is here again (it was signed on).
    h.feed(Input::LinkBack { client: B }, t + 3_000);
    assert_eq!(h.referee.waiting(), []);
    // A signs off: awaited until it signs on again, even with its link
    // lost and back meanwhile.
    h.line(A, t + 4_000, &format!("{INITIAL} refreq sign_off;"));
    h.feed(lost(A), t + 5_000);
    h.feed(Input::LinkBack { client: A }, t + 6_000);
    assert_eq!(h.referee.waiting(), [(A, t + 4_000)]);
    h.sign_on(A, t + 7_000, None);
    assert_eq!(h.referee.waiting(), []);
    // Once the session is over, nobody is waited for.
    h.feed(lost(B), t + 8_000);
    h.command(Command::EndSession, t + 9_000);
    assert!(h.referee.is_over());
    assert_eq!(h.referee.waiting(), []);
}
