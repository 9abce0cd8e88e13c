//! Clocks: time controls, the wire-time credit, flag fall.

use super::*;
use crate::clock::{self, Arrival};
use crate::referee::ByClient;

#[test]
fn the_clock_runs_from_the_respond_leaving_to_the_reply_less_wire_time() {
    let mut h = Harness::new(timed("300"));
    h.sign_on(A, 0, None);
    h.sign_on(B, 0, None);
    h.acks = Acks::Held;
    h.timer(); // 5000: inform, respond handed to the writer
    assert!(!h.snap().clock(Color::White).running, "not before it left");
    h.ack(A, 5_150); // the respond's last byte is out
    h.ack(B, 5_150);
    assert!(h.snap().clock(Color::White).running);
    let out = h.line_bytes(A, 7_150, &h.reply_text(A, Some("e4"), ""), 100);
    let charged = out.iter().find_map(|o| match o {
        Output::Event(Event::MoveMade { charged_ms, .. }) => *charged_ms,
        _ => None,
    });
    assert_eq!(charged, Some(2_000 - wire_ms(100)));
    assert_eq!(
        h.snap().clock(Color::White).remaining_ms,
        Some(300_000 - 2_000 + wire_ms(100))
    );
}

/// White's first move: the respond leaves at 5_150, the reply of `bytes`
/// bytes (coming in as `arrival` says) ends at 5_300, 150 ms later. What
/// it was charged.
fn charge_of_a_150_ms_move(bytes: usize, arrival: Option<Arrival>) -> Option<u64> {
    let mut h = Harness::new(timed("300"));
    h.sign_on(A, 0, None);
    h.sign_on(B, 0, None);
    h.acks = Acks::Held;
    h.timer();
    h.ack(A, 5_150);
    h.ack(B, 5_150);
    let text = h.reply_text(A, Some("e4"), "");
    let out = h.line_arrived(A, 5_300, &text, (bytes, arrival));
    out.iter().find_map(|o| match o {
        Output::Event(Event::MoveMade { charged_ms, .. }) => *charged_ms,
        _ => None,
    })
}

#[test]
fn a_reply_that_came_all_at_once_is_charged_its_whole_time() {
    // A socat pair set to 9600 baud hands over a 160-byte line in one read:
    // the line took 166 ms at 9600 baud, but no time on a wire. The full
    // credit would charge the 150 ms move nothing.
    let at_once = Arrival {
        first_bytes: 160,
        span_us: 0,
    };
    assert!(wire_ms(160) > 150);
    assert_eq!(charge_of_a_150_ms_move(160, Some(at_once)), Some(150));
    assert_eq!(
        charge_of_a_150_ms_move(160, None),
        Some(0),
        "the full credit"
    );
    // Two reads 2 ms apart, the second with the last 10 bytes: the line
    // came at 10 bytes in 2 ms, so its 100 bytes took 20 ms.
    let fast = Arrival {
        first_bytes: 90,
        span_us: 2_000,
    };
    assert_eq!(charge_of_a_150_ms_move(100, Some(fast)), Some(130));
}

#[test]
fn a_reply_paced_at_its_baud_rate_gets_its_full_wire_time() {
    // The first read brought 3 bytes, the other 97 took their wire time.
    let paced = Arrival {
        first_bytes: 3,
        span_us: clock::wire_time_us(97, &clock::LineSettings::default()),
    };
    assert_eq!(
        charge_of_a_150_ms_move(100, Some(paced)),
        Some(150 - wire_ms(100))
    );
    // Slower than the baud rate (the client paused in the line): never
    // more than the line's wire time.
    let slow = Arrival {
        first_bytes: 3,
        span_us: 140_000,
    };
    assert_eq!(
        charge_of_a_150_ms_move(100, Some(slow)),
        Some(150 - wire_ms(100))
    );
}

#[test]
fn a_journal_line_without_its_arrival_replays_with_the_full_credit() {
    // A journal written before arrivals were recorded: its reply line
    // replays as it was played then, less its full wire time; a line
    // with its arrival replays with the arrival's credit.
    let input = |payload: &str| match crate::journal::Entry::parse(payload) {
        Ok(crate::journal::Entry::Input {
            input:
                Input::Line {
                    wire_bytes,
                    arrival,
                    ..
                },
            ..
        }) => (wire_bytes, arrival),
        other => panic!("{payload}: {other:?}"),
    };
    let old = input("in 5300 line A 160 x");
    let new = input("in 5300 line A 160 x 160 0");
    assert_eq!(old, (160, None));
    assert_eq!(charge_of_a_150_ms_move(old.0, old.1), Some(0));
    assert_eq!(charge_of_a_150_ms_move(new.0, new.1), Some(150));
}

#[test]
fn flag_fall_by_the_cores_own_deadline_loses() {
    let mut h = Harness::new(timed("60"));
    let t = h.start();
    assert_eq!(h.referee.next_deadline(), Some(t + 60_000 + wire_ms(256)));
    let fell = h.timer();
    assert_eq!(fell, t + 60_000 + wire_ms(256));
    assert_over(
        &mut h,
        "0-1",
        Termination::TimeForfeit,
        "White loses on time",
    );
    assert!(h.snap().clock(Color::White).flagged);
    assert_eq!(
        h.referee.next_deadline(),
        Some(fell + 5_000),
        "conclude delay"
    );
}

#[test]
fn flag_fall_against_a_lone_king_draws() {
    let mut h = Harness::new(Settings {
        opening: Some(from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")),
        ..timed("60")
    });
    h.start();
    h.timer();
    assert_over(
        &mut h,
        "1/2-1/2",
        Termination::TimeForfeit,
        "no mating material",
    );
}

#[test]
fn a_reply_in_time_by_its_wire_credit_is_accepted_after_the_raw_deadline() {
    let mut h = Harness::new(timed("60"));
    let t = h.start();
    // 100 ms late by arrival, but 200 bytes took 208 ms on the wire.
    let text = h.reply_text(A, Some("e4"), "");
    h.line_bytes(A, t + 60_100, &text, 200);
    assert!(h.game_overs().is_empty(), "{:?}", h.notices());
    assert_eq!(h.snap().sans, ["e4"]);
    assert_eq!(
        h.snap().clock(Color::White).remaining_ms,
        Some(60_000 - (60_100 - wire_ms(200)))
    );
}

#[test]
fn a_reply_late_even_with_its_wire_credit_loses_on_time() {
    let mut h = Harness::new(timed("60"));
    let t = h.start();
    let text = h.reply_text(A, Some("e4"), "");
    h.line_bytes(A, t + 60_100, &text, 50); // 52 ms of credit
    assert_over(&mut h, "0-1", Termination::TimeForfeit, "loses on time");
    assert!(h.game_over().pgn.moves.is_empty());
}

#[test]
fn a_client_fault_pauses_with_clocks_stopped_until_resume() {
    let mut h = Harness::new(timed("300"));
    let t = h.start();
    h.clear();
    h.line(B, t + 1_000, &format!("{INITIAL} refreq fault;"));
    let s = h.snap();
    assert!(matches!(s.phase, Phase::Paused { .. }), "{:?}", s.phase);
    assert!(!s.clock(Color::White).running);
    let left = s.clock(Color::White).remaining_ms;
    assert_eq!(left, Some(299_000));
    assert_eq!(
        h.referee
            .snapshot(t + 100_000)
            .clock(Color::White)
            .remaining_ms,
        left
    );
    assert_eq!(h.referee.next_deadline(), None);
    h.command(Command::Resume, t + 100_000);
    // The client on move is asked again; its clock runs on.
    assert_eq!(h.take_cmds(A), [Respond]);
    assert!(h.take(B).is_empty());
    assert_eq!(
        h.referee
            .snapshot(t + 101_000)
            .clock(Color::White)
            .remaining_ms,
        Some(298_000)
    );
}

#[test]
fn with_client_fault_continue_a_fault_is_logged_and_play_goes_on() {
    let mut h = Harness::new(Settings {
        client_fault: ClientFault::Continue,
        ..timed("300")
    });
    let t = h.start();
    h.clear();
    let out = h.line(A, t + 1_000, &format!("{INITIAL} refreq fault;"));
    assert!(out.iter().any(|o| matches!(
        o.event(),
        Some(Event::ClientFault {
            client: A,
            outcome: FaultOutcome::PlayGoesOn,
            ..
        })
    )));
    let s = h.snap();
    assert_eq!(s.phase, Phase::Playing);
    assert!(s.clock(Color::White).running);
    assert!(h.take(A).is_empty() && h.take(B).is_empty());
    h.reply(A, t + 2_000, "e4");
    assert_eq!(h.snap().sans, ["e4"]);
}

#[test]
fn a_client_fault_can_be_adjudicated() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.line(A, t + 1_000, &format!("{INITIAL} refreq fault;"));
    h.command(Command::Adjudicate(Verdict::Draw), t + 2_000);
    assert_over(
        &mut h,
        "1/2-1/2",
        Termination::Adjudication,
        "Draw by adjudication",
    );
}

#[test]
fn a_flag_falling_when_the_silence_resend_is_due_ends_the_game_first() {
    // The flag and the resend after silence fall due at the same instant:
    // the timers fire flag first (time is the hardest fact), so the game is
    // lost on time and the respond is not sent again.
    let mut h = Harness::new(Settings {
        resend_after_ms: 60_000,
        ..no_credit(timed("60"))
    });
    let t = h.start();
    let before = h.all(A).len();
    assert_eq!(h.referee.next_deadline(), Some(t + 60_000));
    h.timer();
    let got: Vec<RefCom> = h.all(A)[before..].iter().map(Got::refcom).collect();
    assert!(!got.contains(&Respond), "respond sent again: {got:?}");
    assert_over(
        &mut h,
        "0-1",
        Termination::TimeForfeit,
        "White loses on time",
    );
}

/// `Aclk` (time left, both sides, in ms) on a record.
fn aclk(g: &Got) -> Option<(u64, u64)> {
    g.record.clock_left().expect("a well-formed Aclk")
}

#[test]
fn aclk_carries_both_clocks_to_the_millisecond_through_a_1_second_game() {
    let mut h = Harness::new(no_credit(timed("1+0.01")));
    let mut at = h.start();
    let (mut white, mut black) = (1_000u64, 1_000u64);
    // Every record of the game so far (reset, inform, respond) has it.
    for who in [A, B] {
        for g in h.take(who) {
            assert_eq!(aclk(&g), Some((1_000, 1_000)), "{}", g.text);
        }
    }
    // Each side takes 127 ms a move (and gets 10 ms back): cc says 0 s
    // used for the first 7 moves while Aclk counts every millisecond.
    let moves = ["Nf3", "Nf6", "Ng1", "Ng8"];
    for ply in 0..14 {
        let who = h.on_move().expect("someone on move");
        at += 127;
        h.reply(who, at, moves[ply % 4]);
        if ply % 2 == 0 {
            white -= 117;
        } else {
            black -= 117;
        }
        let other = if who == A { B } else { A };
        let respond = h.last(other).clone();
        assert_eq!(respond.refcom(), RefCom::Respond);
        assert_eq!(aclk(&respond), Some((white, black)), "{}", respond.text);
    }
    assert_eq!((white, black), (181, 181));
    assert_eq!(h.last(A).cc().0, "000:00:00:00", "cc still says 0 s");
    // White's eighth move never comes: its flag falls (after the grace).
    h.timer();
    assert_over(
        &mut h,
        "0-1",
        Termination::TimeForfeit,
        "White loses on time",
    );
    let end = h.all(A).last().expect("conclude");
    assert_eq!(end.refcom(), RefCom::Conclude);
    assert_eq!(aclk(end), Some((0, 181)), "{}", end.text);
}

#[test]
fn an_untimed_game_has_no_aclk() {
    let mut h = Harness::new(settings());
    h.start();
    h.reply(A, 6_000, "e4");
    assert!(h.all(B).iter().all(|g| aclk(g).is_none()));
}

/// Settings for a game of `tc` between two programs argus runs itself
/// (in-process links: no wire time), whose `Asearch` counts when `own`.
fn programs_here(tc: &str, own: bool) -> Settings {
    Settings {
        own_search_time: ByClient::new(own, own),
        ..no_credit(timed(tc))
    }
}

/// White's first move, its reply `elapsed` ms after the respond left,
/// with `extra` operations: what it was charged.
fn charge_of_a_reply(own: bool, elapsed: u64, extra: &str) -> Option<u64> {
    let mut h = Harness::new(programs_here("300", own));
    let t = h.start();
    let text = h.reply_text(A, Some("e4"), extra);
    let out = h.line(A, t + elapsed, &text);
    out.iter().find_map(|o| match o {
        Output::Event(Event::MoveMade { charged_ms, .. }) => *charged_ms,
        _ => None,
    })
}

#[test]
fn a_program_argus_runs_is_charged_its_engines_own_time() {
    // argus measured 130 ms; the engine searched 100: the 30 ms in argus's
    // own threads are not the engine's.
    assert_eq!(charge_of_a_reply(true, 130, " Asearch 100;"), Some(100));
    // Not a program argus runs (a TCP client could say anything): what
    // argus measured.
    assert_eq!(charge_of_a_reply(false, 130, " Asearch 100;"), Some(130));
    // No Asearch, a malformed one, or one longer than the move took: what
    // argus measured, never more.
    assert_eq!(charge_of_a_reply(true, 130, ""), Some(130));
    assert_eq!(charge_of_a_reply(true, 130, " Asearch x;"), Some(130));
    assert_eq!(charge_of_a_reply(true, 130, " Asearch 500;"), Some(130));
}

#[test]
fn a_program_argus_runs_has_its_move_judged_by_its_engines_time() {
    // The reply comes 400 ms after a 60 s clock ran out (argus's threads
    // were slow to carry it): the engine searched 59.9 s, so it stands,
    // charged that.
    let mut h = Harness::new(programs_here("60", true));
    let t = h.start();
    assert_eq!(
        h.referee.next_deadline(),
        Some(t + 60_000 + clock::HOP_GRACE_MS),
        "the flag waits for a move on its way"
    );
    let text = h.reply_text(A, Some("e4"), " Asearch 59900;");
    h.line(A, t + 60_400, &text);
    assert!(h.game_overs().is_empty(), "{:?}", h.notices());
    assert_eq!(h.snap().sans, ["e4"]);
    assert_eq!(h.snap().clock(Color::White).remaining_ms, Some(100));

    // The same reply with the engine's own time over: the flag.
    let mut h = Harness::new(programs_here("60", true));
    let t = h.start();
    let text = h.reply_text(A, Some("e4"), " Asearch 60001;");
    h.line(A, t + 60_400, &text);
    assert_over(&mut h, "0-1", Termination::TimeForfeit, "loses on time");

    // A client argus does not run: no grace, the flag falls at 0.
    let mut h = Harness::new(programs_here("60", false));
    let t = h.start();
    assert_eq!(h.referee.next_deadline(), Some(t + 60_000));
    let text = h.reply_text(A, Some("e4"), " Asearch 59900;");
    h.line(A, t + 60_400, &text);
    assert_over(&mut h, "0-1", Termination::TimeForfeit, "loses on time");
}

/// Time odds: A plays 1+0.01 (its own control), B the match's 10+0.1.
/// Each side's clock follows its own control whatever colour it has; the
/// PGN and `inform` carry `WhiteTimeControl`/`BlackTimeControl` beside
/// `TimeControl`; the flag falls by the side's own time.
#[test]
fn time_odds_time_each_client_by_its_own_control_in_both_colours() {
    let odds = Settings {
        own_controls: [Some("1+0.01".parse().unwrap()), None].into(),
        ..no_credit(timed("10+0.1"))
    };
    let mut h = Harness::new(odds.clone());
    h.sign_on(A, 0, Some("Alpha"));
    h.sign_on(B, 0, Some("Beta"));
    let t = h.timer();
    for who in [A, B] {
        let got = h.take(who);
        let inform = got.iter().find(|g| g.refcom() == Inform).unwrap();
        // The PGN's WhiteTimeControl is no EPD identifier (16 letters):
        // the wire has each colour's own as `Atc`.
        assert_eq!(inform.tag("TimeControl").as_deref(), Some("10+0.1"));
        assert_eq!(inform.tag("WhiteTimeControl"), None);
        assert_eq!(
            inform.record.time_controls().unwrap(),
            Some(("1+0.01".into(), "10+0.1".into()))
        );
        assert!(
            inform.text.contains("Atc \"1+0.01\" \"10+0.1\";"),
            "{}",
            inform.text
        );
        assert_eq!(aclk(inform), Some((1_000, 10_000)));
    }
    // White (A) moves in 300 ms and gets 10 ms; Black (B) in 2 s, 100 ms.
    let t = h.play(t, 300, &["e4"]);
    let t = h.play(t, 2_000, &["e5"]);
    let b = h.take(A);
    let respond = b.iter().rfind(|g| g.refcom() == Respond).unwrap();
    assert_eq!(aclk(respond), Some((710, 8_100)));
    // White's 710 ms run out: it flags at its own deadline.
    assert_eq!(h.referee.next_deadline(), Some(t + 710));
    h.timer();
    assert_over(
        &mut h,
        "0-1",
        Termination::TimeForfeit,
        "White loses on time",
    );
    let pgn = h.final_pgn();
    for tag in [
        "[TimeControl \"10+0.1\"]",
        "[WhiteTimeControl \"1+0.01\"]",
        "[BlackTimeControl \"10+0.1\"]",
    ] {
        assert!(pgn.contains(tag), "{tag} in\n{pgn}");
    }
    // The other colours (the event's next game): B has White, and A's
    // control goes with A.
    let mut h = Harness::new(Settings { white: B, ..odds });
    h.sign_on(A, 0, Some("Alpha"));
    h.sign_on(B, 0, Some("Beta"));
    h.timer();
    let got = h.take(B);
    let inform = got.iter().find(|g| g.refcom() == Inform).unwrap();
    assert_eq!(
        inform.record.time_controls().unwrap(),
        Some(("10+0.1".into(), "1+0.01".into()))
    );
    assert_eq!(aclk(inform), Some((10_000, 1_000)));
    assert_eq!(h.snap().time_control, "10+0.1 / 1+0.01");
}

#[test]
fn without_odds_the_pgn_has_the_time_control_alone() {
    let mut h = Harness::new(Settings {
        own_controls: [Some("60".parse().unwrap()), Some("60".parse().unwrap())].into(),
        ..timed("60")
    });
    let t = h.start();
    h.play(t, 1_000, &FOOLS_MATE);
    let pgn = h.final_pgn();
    assert!(pgn.contains("[TimeControl \"60\"]"), "{pgn}");
    assert!(!pgn.contains("WhiteTimeControl"), "{pgn}");
    let informs: Vec<Got> = h
        .all(A)
        .iter()
        .filter(|g| g.refcom() == Inform)
        .cloned()
        .collect();
    assert!(!informs.is_empty());
    assert!(informs.iter().all(|g| !g.text.contains("Atc")));
    assert_eq!(h.snap().time_control, "60");
}
