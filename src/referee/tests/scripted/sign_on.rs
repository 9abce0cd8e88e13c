//! Signing on and the start of a game.

use super::*;

#[test]
fn sign_on_reset_inform_respond() {
    let mut h = Harness::new(settings());
    let out = h.sign_on(A, 0, Some("Alpha"));
    assert_eq!(sends(&out), 0, "nothing until both are signed on");
    assert_eq!(h.snap().phase, Phase::WaitingForSignOn);
    assert_eq!(h.referee.next_deadline(), None);

    h.sign_on(B, 100, None);
    for who in [A, B] {
        let got = h.take(who);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].refcom(), Reset);
        assert_eq!(
            got[0].fen(),
            crate::game::fen_of(&shakmaty::Chess::default())
        );
        assert_eq!(got[0].sm(), None);
    }
    assert_eq!(h.snap().phase, Phase::Starting);
    assert_eq!(h.referee.next_deadline(), Some(100 + 5_000));

    assert_eq!(h.timer(), 5_100);
    assert_eq!(h.snap().phase, Phase::Playing);
    let a = h.take(A);
    let b = h.take(B);
    assert_eq!(
        a.iter().map(Got::refcom).collect::<Vec<_>>(),
        [Inform, Respond]
    );
    assert_eq!(b.iter().map(Got::refcom).collect::<Vec<_>>(), [Inform]);
    for tags in [inform_tags(&a[0]), inform_tags(&b[0])] {
        check_first_game_tags(&tags);
    }
    // respond with the position and no move
    assert_eq!(a[1].fen(), crate::game::fen_of(&shakmaty::Chess::default()));
    assert_eq!(a[1].sm(), None);
    assert_eq!(a[1].cc(), ("000:00:00:00".into(), "000:00:00:00".into()));
    assert_eq!(h.snap().clients.a.name, "Alpha");
}

/// A tournament's board: each client is seated with the sign-on its
/// program signed on to the event with, no line of its own; both seated,
/// the game starts as after two sign-on lines, each client named and
/// checked as its sign-on said.
#[test]
fn seated_clients_start_the_game_named_and_checked_as_their_sign_on_said() {
    use crate::epd::line_check;
    use crate::epd::sign_on::SignOn;
    let mut h = Harness::new(settings());
    let alpha = SignOn {
        name: Some("Alpha".into()),
        line_check: true,
    };
    let out = h.feed(
        Input::Seated {
            client: A,
            sign_on: alpha,
        },
        0,
    );
    assert_eq!(sends(&out), 0, "nothing until both are seated");
    h.assert_noticed("A: Alpha signed on, its lines checked (Acrc)");
    let b = Input::Seated {
        client: B,
        sign_on: SignOn::default(),
    };
    h.feed(b, 100);
    assert_eq!(h.take_cmds(A), [Reset]);
    assert_eq!(h.take_cmds(B), [Reset]);
    assert_eq!(h.timer(), 5_100);
    let a = h.take(A);
    assert_eq!(
        a.iter().map(Got::refcom).collect::<Vec<_>>(),
        [Inform, Respond]
    );
    // White is named by its seat, Black (no name) by its port.
    check_first_game_tags(&inform_tags(&a[0]));
    h.assert_only_a_checked();
    // A checks its lines: a reply without its check is refused.
    h.reply(A, 5_600, "e4");
    assert!(h.snap().sans.is_empty());
    let mut checked = h.reply_text(A, Some("e4"), "");
    line_check::append(&mut checked);
    h.line(A, 6_000, &checked);
    assert_eq!(h.snap().sans, ["e4"]);
}

/// The tags `inform` sends for the first game of `settings()`, A named
/// by its `tcsi` and B by its port.
fn check_first_game_tags(tags: &[(String, String)]) {
    let names: Vec<&str> = tags.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "TimeControl"
        ]
    );
    assert_eq!(tag(tags, "Event"), Some("Test"));
    assert_eq!(tag(tags, "Site"), Some("Lab"));
    assert_eq!(tag(tags, "Date"), Some("2025.01.31"));
    assert_eq!(tag(tags, "Round"), Some("1"));
    assert_eq!(tag(tags, "White"), Some("Alpha"), "tcsi names A");
    assert_eq!(
        tag(tags, "Black"),
        Some("ttyS1"),
        "B falls back to its port"
    );
    assert_eq!(tag(tags, "Result"), Some("*"));
    assert_eq!(tag(tags, "TimeControl"), Some("-"));
}

#[test]
fn names_come_from_settings_then_tcsi_then_port() {
    let mut h = Harness::new(Settings {
        names: [Some("Deep Thought".into()), None].into(),
        ..settings()
    });
    h.sign_on(A, 0, Some("Alpha"));
    h.sign_on(B, 0, Some("Beta"));
    h.timer();
    let tags = inform_tags(&h.take(A)[1]);
    assert_eq!(tag(&tags, "White"), Some("Deep Thought"));
    assert_eq!(tag(&tags, "Black"), Some("Beta"));
}

#[test]
fn sign_on_fields_and_extra_opcodes_are_ignored() {
    let mut h = Harness::new(settings());
    // Any position, clock and counters: only refreq and tcsi matter.
    h.line(
        A,
        0,
        "8/8/8/8/8/8/8/8 b - - refreq sign_on; cc 001:00:00:00 0:0:0:0; hmvc 7;",
    );
    h.line(
        B,
        0,
        "k7/8/8/8/8/8/8/K7 w - - fmvn 99; refreq sign_on; tcsi \"x\" \"  Beta  \";",
    );
    assert_eq!(h.take_cmds(A), [Reset]);
    h.timer();
    let tags = inform_tags(&h.take(B)[1]);
    assert_eq!(tag(&tags, "Black"), Some("Beta"), "name trimmed");
    assert_eq!(h.snap().position, shakmaty::Chess::default());
}
