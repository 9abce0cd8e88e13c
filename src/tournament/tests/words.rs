//! The outputs in words.

use super::{Run, settings};
use crate::tournament::Output;
use crate::tournament::words::said;

#[test]
fn each_output_is_said_in_words_and_ignored_ones_are_not() {
    let mut r = Run::new(settings(3, |_| {}));
    r.sign_on(0..3);
    r.play_out();
    let lines: Vec<String> = r.outputs.iter().filter_map(|o| said(&r.t, o)).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("(round 1.1) starts on board 1: ")),
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("game 1 (round 1.1): ")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("round 3 is over; standings:\nRank")),
        "{lines:#?}"
    );
    let round = lines
        .iter()
        .find(|l| l.starts_with("round 3 is over"))
        .unwrap();
    assert!(
        round.contains("against the field:\n  ") && round.contains("W-D-L"),
        "{round}"
    );
    assert_eq!(lines.last().map(String::as_str), Some("tournament over"));
    let ignored = Output::Ignored { reason: "x".into() };
    assert_eq!(said(&r.t, &ignored), None);
}

#[test]
fn a_result_is_said_in_the_referees_words_or_else_by_its_termination() {
    use super::finished;
    use crate::tournament::Input;
    let mut r = Run::new(settings(3, |_| {}));
    r.sign_on(0..3);
    let (board, game) = r.running.pop_front().unwrap();
    let mut input = finished(game.number);
    if let Input::GameFinished { ending, result, .. } = &mut input {
        *result = crate::referee::GameResult::Win(shakmaty::Color::White);
        *ending = Some("Black resigns\u{7}".into());
    }
    let out = r.input(input);
    let line = out.iter().find_map(|o| said(&r.t, o)).unwrap();
    assert!(
        line.starts_with(&format!("game {} (round ", game.number))
            && line.ends_with(" 1-0 (Black resigns)"),
        "{line}"
    );
    r.input(Input::BoardFree { board });
    // A journal written before the words were kept: the PGN Termination.
    let (_, game) = r.running.pop_front().unwrap();
    let mut input = finished(game.number);
    if let Input::GameFinished { ending, .. } = &mut input {
        *ending = None;
    }
    let out = r.input(input);
    let line = out.iter().find_map(|o| said(&r.t, o)).unwrap();
    assert!(line.ends_with(" (normal)"), "{line}");
}

#[test]
fn a_match_says_its_statistics_after_each_game_instead_of_a_standings_table() {
    let mut r = Run::new(settings(2, |s| s.schedule.games_per_pairing = 4));
    r.sign_on(0..2);
    r.play_out();
    let lines: Vec<String> = r.outputs.iter().filter_map(|o| said(&r.t, o)).collect();
    assert!(
        !lines.iter().any(|l| l.contains("is over; standings")),
        "{lines:#?}"
    );
    let stats: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("stats for P1: "))
        .collect();
    assert_eq!(stats.len(), 4, "{lines:#?}");
    assert!(
        stats[3].starts_with("stats for P1: 4 games, W-D-L "),
        "{}",
        stats[3]
    );
}
