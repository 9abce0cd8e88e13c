//! Rejected lines.

use super::*;

#[test]
fn bad_lines_are_rejected_without_changing_the_game() {
    let mut h = Harness::new(timed("300"));
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    h.clear();
    let before = state(&h.referee.snapshot(t + 5_000));
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3";
    let bad: Vec<(ClientId, String)> = vec![
        (A, "hello world".into()),
        (A, String::new()),
        // a second reply from the side that just moved
        (A, format!("{after_e4} refreq reply; sm d5;")),
        (B, format!("{after_e4} refreq dance;")),
        (B, format!("{after_e4} sm e5;")),
        (B, format!("{after_e4} refcom respond;")),
        (B, format!("{after_e4} refreq reply; sm e5; sm e6;")),
    ];
    for (i, (who, text)) in bad.iter().enumerate() {
        let out = h.line(*who, t + 1_100 + i as u64, text);
        assert!(rejected(&out), "not rejected: {text:?}");
        assert_eq!(sends(&out), 0, "{text:?}");
    }
    assert!(h.take(A).is_empty() && h.take(B).is_empty());
    assert_eq!(state(&h.referee.snapshot(t + 5_000)), before);
    h.reply(B, t + 6_000, "e5");
    assert_eq!(h.snap().sans, ["e4", "e5"]);
}

#[test]
fn lines_from_a_client_not_signed_on_or_before_the_game_are_rejected() {
    let mut h = Harness::new(settings());
    let out = h.line(A, 0, &format!("{INITIAL} refreq reply; sm e4;"));
    assert!(rejected(&out));
    let out = h.line(A, 1, &format!("{INITIAL} refreq fault;"));
    assert!(rejected(&out));
    assert_eq!(h.snap().phase, Phase::WaitingForSignOn);
    h.sign_on(A, 2, None);
    h.sign_on(B, 3, None);
    // Starting: the reset delay is running.
    let before = state(&h.snap());
    let out = h.line(A, 4, &format!("{INITIAL} refreq reply; sm e4;"));
    assert!(rejected(&out));
    assert_eq!(state(&h.snap()), before);
    assert!(h.all(A).iter().all(|g| g.refcom() == Reset));
}
