//! A player named by its program's sign-on (`Input::Named`): the name
//! the event uses from then on, told apart from another player's.

use super::{Run, settings};
use crate::tournament::journal::Line;
use crate::tournament::player::Player;
use crate::tournament::{Input, Output, PlayerId, words};

fn named(p: usize, name: &str) -> Input {
    Input::Named {
        player: PlayerId(p),
        name: name.into(),
    }
}

#[test]
fn a_port_player_takes_the_name_its_program_signs_on_with() {
    let mut r = Run::new(settings(2, |s| {
        s.names = vec!["/dev/ttyS0".into(), "/dev/ttyS1".into()];
    }));
    let out = r.input(named(0, "Fritz 5"));
    assert_eq!(
        out,
        vec![Output::Named {
            player: PlayerId(0),
            was: "/dev/ttyS0".into(),
            name: "Fritz 5".into()
        }]
    );
    assert_eq!(r.t.name(PlayerId(0)), "Fritz 5");
    assert_eq!(
        words::said(&r.t, &out[0]).as_deref(),
        Some("/dev/ttyS0 signed on as Fritz 5")
    );
    // The same program on the other port: told apart by its old name.
    r.input(named(1, "Fritz 5"));
    assert_eq!(r.t.name(PlayerId(1)), "Fritz 5 (/dev/ttyS1)");
    // Its games are played under those names.
    r.sign_on(0..2);
    let (_, game) = &r.running[0];
    let names = [r.t.name(game.white), r.t.name(game.black)];
    assert!(names.contains(&"Fritz 5"), "{names:?}");
}

#[test]
fn a_name_that_is_empty_or_the_same_or_for_no_player_changes_nothing() {
    let mut r = Run::new(settings(2, |_| {}));
    assert_eq!(r.input(named(0, " \u{7} ")), vec![]);
    assert_eq!(r.input(named(0, "P1")), vec![]);
    assert!(matches!(
        &r.input(named(5, "X"))[..],
        [Output::Ignored { reason }] if reason.contains("not in the event")
    ));
    assert_eq!([r.t.name(PlayerId(0)), r.t.name(PlayerId(1))], ["P1", "P2"]);
    // Control characters are gone from a name taken.
    r.input(named(1, "Deep\u{1b}[2JThought"));
    assert_eq!(r.t.name(PlayerId(1)), "Deep[2JThought");
}

#[test]
fn a_name_is_journaled_and_read_back() {
    let line = Line::Input {
        at: 12,
        input: named(1, "Fritz \"5\" (ChessBase)"),
    };
    assert_eq!(Line::parse(&line.payload()).unwrap(), line);
}

#[test]
fn only_a_player_still_called_by_its_port_takes_its_sign_on_name() {
    let port = Player::parse("/dev/ttyS0").unwrap();
    assert!(port.takes_sign_on_name("/dev/ttyS0", false));
    // Named with --name, or named already and playing.
    assert!(!port.takes_sign_on_name("Fritz", false));
    // Named by its program before its first game: named again.
    assert!(port.takes_sign_on_name("Fritz", true));
    let socket = Player::parse("tcp://10.0.0.2:7000").unwrap();
    assert!(socket.takes_sign_on_name("tcp://10.0.0.2:7000", false));
    for spec in ["tcp:Fritz", "mover:m", "engine:sf=stockfish"] {
        let p = Player::parse(spec).unwrap();
        assert!(!p.takes_sign_on_name(p.name(), true), "{spec}");
    }
}

/// A program that signs on twice before its first game names its player
/// twice (the last sign-on is what it says it is now, as in a match
/// between ports); once a game of its has started, the name stays.
#[test]
fn a_second_sign_on_renames_a_player_only_before_its_first_game() {
    let mut r = Run::new(settings(2, |s| {
        s.names = vec!["/dev/ttyS0".into(), "/dev/ttyS1".into()];
    }));
    let p = PlayerId(1);
    assert!(
        !r.t.renamed_by_sign_on(p, None),
        "not named by its program yet"
    );
    r.input(named(1, "x\u{1b}[31mevil"));
    assert!(r.t.renamed_by_sign_on(p, None));
    r.input(named(1, "bad"));
    assert_eq!(r.t.name(p), "bad");
    r.sign_on(0..2);
    assert!(!r.running.is_empty());
    assert!(!r.t.renamed_by_sign_on(p, None), "its game has started");
    // Its first game, whose record takes the name from the sign-on, does
    // not count; any other does.
    let first = r.running[0].1.number;
    assert!(r.t.renamed_by_sign_on(p, Some(first)));
    assert!(!r.t.renamed_by_sign_on(p, Some(first + 1)));
}

#[test]
fn a_matchs_journal_reads_back_as_a_match_with_its_names() {
    use super::resume::header;
    use crate::journal::checksum::checked_lines;
    use crate::tournament::Form;
    use crate::tournament::journal::load_from;
    let s = settings(2, |s| {
        s.form = Form::Match;
        s.names = vec!["/dev/ttyS0".into(), "/dev/ttyS1".into()];
    });
    let mut run = Run::new(s.clone());
    run.input(named(1, "Fritz"));
    run.sign_on(0..2);
    run.play_out();
    let mut lines = header(s).lines();
    assert!(lines.contains(&Line::Set {
        key: "form".into(),
        values: vec!["match".into()]
    }));
    lines.extend(run.inputs.iter().map(|(at, input)| Line::Input {
        at: *at,
        input: input.clone(),
    }));
    let text = checked_lines(&lines.iter().map(Line::payload).collect::<Vec<_>>());
    let bytes: Vec<u8> = text.iter().flat_map(|l| [&l[..], b"\n"].concat()).collect();
    let loaded = load_from(&bytes[..], "t").unwrap();
    assert_eq!(loaded.tournament, run.t);
    assert_eq!(loaded.tournament.settings().form, Form::Match);
    assert_eq!(loaded.tournament.name(PlayerId(1)), "Fritz");
    // A form this argus does not know is refused with its value.
    let mut bad = header(settings(2, |_| {})).lines();
    bad.insert(
        2,
        Line::Set {
            key: "form".into(),
            values: vec!["duel".into()],
        },
    );
    let text = checked_lines(&bad.iter().map(Line::payload).collect::<Vec<_>>());
    let bytes: Vec<u8> = text.iter().flat_map(|l| [&l[..], b"\n"].concat()).collect();
    let e = load_from(&bytes[..], "t").unwrap_err().to_string();
    assert!(e.contains("setting form: \"duel\" is not one"), "{e}");
}
