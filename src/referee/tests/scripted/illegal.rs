//! Illegal moves and client faults, under each policy.

use super::*;

#[test]
fn an_illegal_move_forfeits_and_is_never_a_pgn_move() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 500, "e4");
    h.reply(B, t + 1_000, "e4");
    assert_over(
        &mut h,
        "1-0",
        Termination::RulesInfraction,
        "Black forfeits: illegal move",
    );
    let g = h.game_over();
    assert_eq!(g.pgn.moves.len(), 1);
    let comment = g.pgn.final_comment.clone().unwrap();
    assert!(comment.contains("\"e4\""), "{comment}");
    let pgn = h.final_pgn();
    assert!(pgn.contains("1. e4 {Black forfeits: illegal move"), "{pgn}");
}

#[test]
fn an_unparsable_move_forfeits() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 500, "Zz9");
    assert_over(
        &mut h,
        "0-1",
        Termination::RulesInfraction,
        "unparsable move",
    );
    assert!(h.game_over().pgn.moves.is_empty());
}

#[test]
fn an_illegal_move_with_the_fault_policy_pauses_and_resume_asks_again() {
    let mut h = Harness::new(no_credit(Settings {
        illegal_move: IllegalMove::Fault,
        ..timed("300")
    }));
    let t = h.start();
    h.clear();
    let first = h.last(A).record.clone();
    h.reply(A, t + 1_000, "e5");
    let a = h.take(A);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].refcom(), RefCom::Fault);
    assert!(h.take(B).is_empty());
    assert!(matches!(h.snap().phase, Phase::Paused { .. }));
    assert!(h.game_overs().is_empty());
    let left = h
        .referee
        .snapshot(t + 1_000)
        .clock(Color::White)
        .remaining_ms;
    assert_eq!(
        h.referee
            .snapshot(t + 50_000)
            .clock(Color::White)
            .remaining_ms,
        left
    );
    assert_eq!(h.referee.next_deadline(), None, "no flag while paused");
    // Resume: A is asked again with the same position and no move.
    h.command(Command::Resume, t + 10_000);
    let a = h.take(A);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].refcom(), Respond);
    assert_eq!(a[0].record.fields, first.fields);
    assert_eq!(a[0].sm(), None);
    h.reply(A, t + 11_000, "e4");
    assert_eq!(h.take(B)[0].sm(), Some("e4"));
    // 1 s before the fault and 1 s after the resume.
    assert_eq!(
        h.referee.snapshot(t + 11_000).clock(Color::White).used_ms,
        2_000
    );
}

#[test]
fn an_unparsable_move_with_the_retry_policy_is_asked_again_with_the_clock_running() {
    let mut h = Harness::new(no_credit(Settings {
        illegal_move: IllegalMove::Retry,
        ..timed("300")
    }));
    let t = h.start();
    h.reply(A, t + 500, "e4");
    h.clear();
    let first = h.last(B).clone();
    // A flipped bit on the line: "e5" became "e%".
    h.reply(B, t + 1_500, "e%");
    let again = h.take(B);
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(again[0].refcom(), Respond);
    assert_eq!(again[0].record.fields, first.record.fields);
    assert_eq!(again[0].sm(), Some("e4"), "the same question again");
    assert!(h.take(A).is_empty());
    assert!(h.game_overs().is_empty());
    assert!(
        h.notices()
            .iter()
            .any(|n| n.contains("unparsable move") && n.contains("asking again (1 of 2)")),
        "{:?}",
        h.notices()
    );
    // The clock ran through the retry: 1 s to the bad reply, 1 s more.
    h.reply(B, t + 2_500, "e5");
    assert_eq!(h.take(A)[0].sm(), Some("e5"));
    assert_eq!(
        h.referee.snapshot(t + 2_500).clock(Color::Black).used_ms,
        2_000
    );
    assert_eq!(h.snap().sans, ["e4", "e5"]);
}

#[test]
fn an_illegal_move_with_the_retry_policy_forfeits_when_the_retries_are_spent() {
    let mut h = Harness::new(Settings {
        illegal_move: IllegalMove::Retry,
        max_resends: 2,
        ..settings()
    });
    let t = h.start();
    h.clear();
    for i in 0..2u64 {
        h.reply(A, t + 500 + i * 500, "Ke2");
        assert_eq!(h.take_cmds(A), [Respond], "retry {i}");
        assert!(h.game_overs().is_empty());
    }
    h.reply(A, t + 2_000, "Ke2");
    assert_over(
        &mut h,
        "0-1",
        Termination::RulesInfraction,
        "White forfeits: illegal move \"Ke2\"",
    );
    let g = h.game_over();
    let Ending::Forfeit { offence, .. } = &g.ending else {
        panic!("not a forfeit: {:?}", g.ending)
    };
    assert_eq!(offence.asked_again, 2, "{offence:?}");
    assert!(g.ending.to_string().contains("(asked again 2 times)"));
    assert!(g.pgn.moves.is_empty(), "an illegal move is never recorded");
}

#[test]
fn the_retry_budget_is_per_turn_and_shared_with_echo_resends() {
    let mut h = Harness::new(Settings {
        illegal_move: IllegalMove::Retry,
        max_resends: 1,
        ..settings()
    });
    let t = h.start();
    // White spends its one retry, then moves: Black's turn starts afresh.
    h.reply(A, t + 500, "Zz9");
    h.reply(A, t + 1_000, "d4");
    h.reply(B, t + 1_500, "Zz9");
    h.reply(B, t + 2_000, "d5");
    assert!(h.game_overs().is_empty());
    assert_eq!(h.snap().sans, ["d4", "d5"]);
    // A bad echo takes the retry of this turn; the bad move after it
    // forfeits.
    h.clear();
    h.line(A, t + 2_500, "8/8/8/8/8/8/8/8 w - - refreq reply; sm c4;");
    assert_eq!(h.take_cmds(A).last(), Some(&Respond));
    h.reply(A, t + 3_000, "Zz9");
    assert_over(
        &mut h,
        "0-1",
        Termination::RulesInfraction,
        "unparsable move",
    );
}

#[test]
fn an_illegal_move_with_the_fault_policy_can_be_adjudicated() {
    let mut h = Harness::new(Settings {
        illegal_move: IllegalMove::Fault,
        ..settings()
    });
    let t = h.start();
    h.reply(A, t + 1_000, "Ke2");
    h.command(Command::Adjudicate(Verdict::BlackWins), t + 5_000);
    assert_over(
        &mut h,
        "0-1",
        Termination::Adjudication,
        "Black wins by adjudication",
    );
}

#[test]
fn a_reply_without_a_move_forfeits() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 500, "d4");
    h.reply_with(B, t + 1_000, None, "");
    assert_over(
        &mut h,
        "1-0",
        Termination::RulesInfraction,
        "reply without a move",
    );
}

#[test]
fn a_bad_echo_is_answered_by_resends_then_forfeit() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 500, "e4");
    h.clear();
    let first = h.last(B).clone();
    // B did not apply e4: it echoes the initial position.
    let bad = format!("{INITIAL} refreq reply; sm e5;");
    for i in 1..=2u64 {
        h.line(B, t + 500 + i * 1_000, &bad);
        let again = h.take(B);
        assert_eq!(again.len(), 1, "resend {i}");
        assert_eq!(again[0].refcom(), Respond);
        assert_eq!(again[0].record.fields, first.record.fields);
        assert_eq!(again[0].sm(), Some("e4"));
        assert!(h.take(A).is_empty());
    }
    h.line(B, t + 4_000, &bad);
    assert_over(
        &mut h,
        "1-0",
        Termination::RulesInfraction,
        "echoed position still differs after 2 resends",
    );
    assert!(
        h.game_over()
            .pgn
            .final_comment
            .clone()
            .unwrap()
            .contains("placement differs")
    );
}

#[test]
fn a_good_echo_after_a_resend_is_accepted() {
    let mut h = Harness::new(Settings {
        max_resends: 1,
        ..settings()
    });
    let t = h.start();
    h.reply(A, t + 500, "e4");
    h.line(B, t + 1_000, &format!("{INITIAL} refreq reply; sm e5;"));
    h.clear();
    h.reply(B, t + 2_000, "e5");
    assert_eq!(h.take(A)[0].sm(), Some("e5"));
    assert!(h.game_overs().is_empty());
}

#[test]
fn a_bad_echo_with_the_fault_policy_ends_in_a_fault() {
    let mut h = Harness::new(Settings {
        illegal_move: IllegalMove::Fault,
        max_resends: 0,
        ..settings()
    });
    let t = h.start();
    h.clear();
    h.line(A, t + 500, "8/8/8/8/8/8/8/8 w - - refreq reply; sm e4;");
    assert_eq!(h.take_cmds(A), [RefCom::Fault]);
    assert!(matches!(h.snap().phase, Phase::Paused { .. }));
}
