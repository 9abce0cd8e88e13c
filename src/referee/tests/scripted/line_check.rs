//! The line check (`Acrc`, `Anak`).

use super::*;

fn checked(line: &str) -> String {
    let mut s = line.to_string();
    crate::epd::line_check::append(&mut s);
    s
}

/// A (White) signs on with a checked line, B without; the game starts.
fn start_with_a_checking(h: &mut Harness) -> u64 {
    h.line(
        A,
        0,
        &checked(&format!(
            "{INITIAL} refreq sign_on; tcsi \"ttyS0\" \"Alpha\";"
        )),
    );
    h.sign_on(B, 0, None);
    h.timer()
}

#[test]
fn a_client_that_signs_on_with_a_check_gets_checked_records_the_other_does_not() {
    let mut h = Harness::new(settings());
    let t = start_with_a_checking(&mut h);
    h.assert_noticed("A: Alpha signed on, its lines checked (Acrc)");
    let to_a = h.all(A).to_vec();
    assert!(to_a.len() >= 3, "{to_a:?}");
    h.assert_only_a_checked();
    h.line(A, t + 500, &checked(&h.reply_text(A, Some("e4"), "")));
    assert_eq!(
        h.take(B)
            .last()
            .and_then(|g| g.sm().map(str::to_owned))
            .as_deref(),
        Some("e4")
    );
    assert_eq!(h.snap().sans, ["e4"]);
}

#[test]
fn a_damaged_checked_reply_is_refused_and_asked_again_at_once() {
    let mut h = Harness::new(timed("300"));
    let t = start_with_a_checking(&mut h);
    h.clear();
    let first = h.last(A).clone();
    // On the line "e4" became "d4": a legal move, caught only by the check.
    let damaged = checked(&h.reply_text(A, Some("e4"), "")).replace("e4;", "d4;");
    let out = h.line(A, t + 500, &damaged);
    assert!(rejected(&out), "{out:?}");
    let again = h.take(A);
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(again[0].refcom(), Respond);
    assert_eq!(again[0].record.fields, first.record.fields);
    assert!(h.take(B).is_empty());
    assert!(h.snap().sans.is_empty(), "the damaged move was played");
    // A line of a checking client without its check is damaged too.
    h.line(A, t + 700, &h.reply_text(A, Some("d4"), ""));
    assert_eq!(h.take_cmds(A), [Respond]);
    assert!(h.snap().sans.is_empty());
    // The good reply is taken; the clock ran throughout.
    h.line(A, t + 1_000, &checked(&h.reply_text(A, Some("e4"), "")));
    assert_eq!(h.snap().sans, ["e4"]);
    assert!(h.game_overs().is_empty());
    assert!(
        h.notices().iter().any(|n| n.contains("damaged line")),
        "{:?}",
        h.notices()
    );
}

#[test]
fn an_anak_from_the_client_on_move_sends_its_respond_again_once_per_line_time() {
    let mut h = Harness::new(settings());
    let t = start_with_a_checking(&mut h);
    h.clear();
    let first = h.last(A).clone();
    let nak = checked(&format!("{INITIAL} Anak;"));
    h.line(A, t + 1_000, &nak);
    let again = h.take(A);
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(again[0].refcom(), Respond);
    assert_eq!(again[0].record.fields, first.record.fields);
    // A second one while that respond is still on the line (9600 baud:
    // ~150 ms) sends nothing: a client cannot queue records faster than
    // its line carries them.
    h.line(A, t + 1_010, &nak);
    assert!(h.take(A).is_empty());
    h.line(A, t + 2_000, &nak);
    assert_eq!(h.take_cmds(A), [Respond]);
    // From the client not on move it sends nothing.
    h.line(B, t + 2_100, &format!("{INITIAL} Anak;"));
    assert!(h.take(B).is_empty() && h.take(A).is_empty());
    assert!(
        h.notices()
            .iter()
            .any(|n| n.contains("B: a record arrived damaged (Anak)")),
        "{:?}",
        h.notices()
    );
    // The game goes on.
    h.line(A, t + 3_000, &checked(&h.reply_text(A, Some("e4"), "")));
    assert_eq!(h.snap().sans, ["e4"]);
}

#[test]
fn damaged_lines_do_not_queue_responds_faster_than_the_line_carries_them() {
    let mut h = Harness::new(settings());
    let t = start_with_a_checking(&mut h);
    h.clear();
    for i in 0..20 {
        h.line(A, t + 1_000 + i, "x Acrc 00000000;");
    }
    assert_eq!(
        h.take_cmds(A),
        [Respond],
        "one resend for a burst of damage"
    );
}

#[test]
fn signing_on_again_without_a_check_turns_the_check_off() {
    use crate::epd::line_check::{Checked, verify};
    let mut h = Harness::new(settings());
    let t = start_with_a_checking(&mut h);
    h.sign_on(A, t + 100, Some("Alpha"));
    h.clear();
    h.timer();
    let to_a = h.take(A);
    assert!(!to_a.is_empty());
    for got in &to_a {
        assert_eq!(verify(&got.text), Checked::Absent, "{}", got.text);
    }
    // Its plain reply is taken.
    let t = h.referee.next_deadline().unwrap_or(t + 6_000);
    h.reply(A, t + 500, "e4");
    assert_eq!(h.snap().sans, ["e4"]);
}
