//! The supervisor's commands.

use super::*;

#[test]
fn supervisor_pause_stops_the_clock_and_resume_restarts_it() {
    let mut h = Harness::new(no_credit(timed("300")));
    let t = h.start();
    h.clear();
    h.command(Command::Pause, t + 1_000);
    assert_eq!(
        h.snap().phase,
        Phase::Paused {
            reason: PauseReason::Supervisor
        }
    );
    h.command(Command::Resume, t + 30_000);
    assert!(h.take(A).is_empty(), "no resend after a plain pause");
    assert!(h.snap().clock(Color::White).running);
    h.reply(A, t + 31_000, "e4");
    assert_eq!(
        h.referee.snapshot(t + 31_000).clock(Color::White).used_ms,
        2_000
    );
}

#[test]
fn a_reply_that_arrives_during_a_pause_is_held_and_played_at_resume() {
    let mut h = Harness::new(no_credit(timed("300")));
    let t = h.start();
    h.clear();
    // The supervisor pauses while A's reply is on the wire.
    h.command(Command::Pause, t + 1_000);
    let out = h.reply(A, t + 1_200, "e4");
    assert!(!rejected(&out), "a pause is not a rejected line: {out:?}");
    assert_eq!(sends(&out), 0, "nothing is played during the pause");
    assert!(
        h.notices().iter().any(|n| n.contains("held")),
        "{:?}",
        h.notices()
    );
    assert!(h.take(B).is_empty());
    // A second reply during the same pause does not replace the first.
    assert!(rejected(&h.reply(A, t + 1_500, "d4")));
    h.command(Command::Resume, t + 60_000);
    // A is not asked again; the held move goes to B at once.
    assert!(h.take(A).is_empty(), "A must not be asked again");
    let b = h.take(B);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].refcom(), Respond);
    assert_eq!(b[0].sm(), Some("e4"));
    assert_eq!(h.snap().sans, ["e4"]);
    // A is charged up to the pause only; Black's clock runs from the resume.
    assert_eq!(
        h.referee.snapshot(t + 61_000).clock(Color::White).used_ms,
        1_000
    );
    assert_eq!(
        h.referee.snapshot(t + 61_000).clock(Color::Black).used_ms,
        1_000
    );
    // Nobody loses on time for the pause.
    assert!(h.game_overs().is_empty());
}

#[test]
fn a_reply_held_in_a_fault_pause_is_played_in_place_of_asking_again() {
    let mut h = Harness::new(no_credit(Settings {
        illegal_move: IllegalMove::Fault,
        ..timed("300")
    }));
    let t = h.start();
    h.clear();
    h.reply(A, t + 1_000, "e5");
    assert_eq!(h.take(A)[0].refcom(), RefCom::Fault);
    h.reply(A, t + 2_000, "e4");
    h.command(Command::Resume, t + 10_000);
    assert!(
        h.take(A).is_empty(),
        "the held reply answers; no respond again"
    );
    assert_eq!(h.take(B)[0].sm(), Some("e4"));
}

#[test]
fn a_respond_that_leaves_during_a_pause_starts_the_clock_on_resume() {
    let mut h = Harness::new(no_credit(timed("300")));
    h.sign_on(A, 0, None);
    h.sign_on(B, 0, None);
    h.acks = Acks::Held;
    h.timer(); // 5000: respond handed to A's writer
    h.command(Command::Pause, 5_100);
    h.ack_all(5_200); // it leaves during the pause
    assert!(!h.snap().clock(Color::White).running);
    assert_eq!(h.referee.next_deadline(), None);
    h.command(Command::Resume, 9_000);
    assert!(h.snap().clock(Color::White).running);
    assert_eq!(
        h.referee.snapshot(10_000).clock(Color::White).remaining_ms,
        Some(299_000)
    );
    assert_eq!(h.referee.next_deadline(), Some(9_000 + 300_000));
}

#[test]
fn supervisor_adjudicates_each_result() {
    for (v, result, why) in [
        (Verdict::WhiteWins, "1-0", "White wins"),
        (Verdict::BlackWins, "0-1", "Black wins"),
        (Verdict::Draw, "1/2-1/2", "Draw by adjudication"),
    ] {
        let mut h = Harness::new(settings());
        let t = h.start();
        h.reply(A, t + 1_000, "e4");
        h.command(Command::Adjudicate(v), t + 2_000);
        assert_over(&mut h, result, Termination::Adjudication, why);
    }
}

#[test]
fn supervisor_abort_records_no_result_and_the_session_ends() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    h.command(Command::AbortGame, t + 2_000);
    assert_over(&mut h, "*", Termination::Abandoned, "aborted");
    h.timer(); // the conclude delay: the end (the event plays it again)
    assert_eq!(h.take_cmds(A), [Disconnect]);
    assert_eq!(h.take_cmds(B), [Disconnect]);
    assert!(h.referee.is_over());
}

#[test]
fn supervisor_ends_the_session_mid_game() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    let out = h.command(Command::EndSession, t + 2_000);
    assert!(
        out.iter()
            .any(|o| matches!(o.event(), Some(Event::SessionOver)))
    );
    let g = h.game_over();
    assert_eq!(g.result, GameResult::None);
    assert_eq!(g.termination, Termination::Unterminated);
    assert_eq!(pgn_tag(&g, "Termination").as_deref(), Some("unterminated"));
    // A move was played: it is a game, recorded without a result.
    assert_eq!(g.moves_played, 1);
    assert!(g.is_a_game());
    for who in [A, B] {
        let cmds = h.take_cmds(who);
        assert_eq!(cmds[cmds.len() - 3..], [Inform, Conclude, Disconnect]);
    }
    assert!(h.referee.is_over());
    assert_eq!(h.snap().phase, Phase::SessionOver);
    assert_eq!(h.referee.next_deadline(), None);
    let out = h.reply(B, t + 3_000, "e5");
    assert_eq!(sends(&out), 0);
}

#[test]
fn a_game_ended_before_its_first_move_without_a_result_is_not_a_game() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.command(Command::EndSession, t + 500);
    let g = h.game_over();
    assert_eq!(g.result, GameResult::None);
    assert_eq!(g.moves_played, 0);
    assert!(!g.is_a_game(), "an unstarted game is recorded");
    // An aborted game before any move is not one either; a verdict given
    // before any move is (it has a result).
    let mut h = Harness::new(settings());
    let t = h.start();
    h.command(Command::AbortGame, t + 500);
    assert!(!h.game_over().is_a_game());
    let mut h = Harness::new(settings());
    let t = h.start();
    h.command(Command::Adjudicate(Verdict::Draw), t + 500);
    assert!(h.game_over().is_a_game());
}
