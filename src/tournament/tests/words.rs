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

#[test]
fn the_latest_round_of_a_swiss_is_listed_with_results_states_and_byes() {
    use crate::tournament::words::round_lines;
    let mut r = Run::new(super::swiss::swiss(5, 2, |s| s.boards = Some(1)));
    // Before anyone signs on: every game waits, the lowest has the bye.
    let (title, lines) = round_lines(&r.t).unwrap();
    assert_eq!(title, "round 1 of 2");
    assert_eq!(
        lines,
        vec![
            "1. P1 - P3  not begun",
            "2. P4 - P2  not begun",
            "P5 has the bye (1 point)",
        ]
    );
    r.sign_on(0..5);
    let (_, lines) = round_lines(&r.t).unwrap();
    assert_eq!(lines[0], "1. P1 - P3  playing on board 1");
    r.finish_next();
    let (_, lines) = round_lines(&r.t).unwrap();
    // Game 1 (1 mod 3): a draw.
    assert_eq!(lines[0], "1. P1 - P3  1/2-1/2");
    assert_eq!(lines[1], "2. P4 - P2  playing on board 1");
    r.play_out();
    let (title, _) = round_lines(&r.t).unwrap();
    assert_eq!(title, "round 2 of 2");
    // A round robin's rounds overlap on the boards: none.
    assert_eq!(round_lines(&Run::new(settings(4, |_| {})).t), None);
}

#[test]
fn a_match_is_said_in_a_matchs_words() {
    use crate::tournament::{Form, PlayerId};
    let mut r = Run::new(settings(2, |s| {
        s.form = Form::Match;
        s.names = vec!["Alpha".into(), "Beta".into()];
        s.schedule.games_per_pairing = 3;
    }));
    r.sign_on(0..2);
    r.play_out();
    let lines: Vec<String> = r.outputs.iter().filter_map(|o| said(&r.t, o)).collect();
    assert!(
        lines.contains(&"game 1: Alpha (White) vs Beta (Black)".to_string()),
        "{lines:#?}"
    );
    assert!(
        lines.contains(&"game 2: Beta (White) vs Alpha (Black)".to_string()),
        "{lines:#?}"
    );
    // Results as the referee says them: game 1 a draw, 2 a win for Black
    // (the driver's results), each with its termination's words.
    assert!(
        lines.iter().any(|l| l.starts_with("game 1: 1/2-1/2 (")),
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("game 2: 0-1 (")),
        "{lines:#?}"
    );
    // Alpha: a draw, a win with Black (game 2), a win with White (game
    // 3): 2.5 of 3.
    assert_eq!(
        lines.last().map(String::as_str),
        Some("match over: Alpha 2.5 - 0.5 Beta (3 games with a result)")
    );
    assert_eq!(r.t.round_tag(&r.t.schedule().games()[1]), "2");
    assert_eq!(r.t.name(PlayerId(0)), "Alpha");
    // One board: no board named in a game's start.
    assert!(!lines.iter().any(|l| l.contains(" on board")), "{lines:#?}");
    // Whom it waits for, as a match between ports says it.
    let each = [crate::tournament::words::waiting_for(
        &r.t,
        PlayerId(0),
        "09:00:00",
    )];
    assert_eq!(
        crate::tournament::words::waiting_line(&r.t, &each),
        "waiting for Alpha since 09:00:00"
    );
    let t = Run::new(settings(2, |_| {})).t;
    assert_eq!(
        crate::tournament::words::waiting_line(&t, &each),
        "tournament: waiting for Alpha since 09:00:00"
    );
}

#[test]
fn the_summary_counts_halves_and_says_the_sprt() {
    let mut s = crate::tournament::words::MatchSummary {
        names: ["random mover".into(), "greedy mover".into()],
        score_halves: [3, 3],
        games_with_result: 3,
        sprt: None,
    };
    assert_eq!(
        s.to_string(),
        "match over: random mover 1.5 - 1.5 greedy mover (3 games with a result)"
    );
    s.games_with_result = 1;
    s.sprt = Some(crate::stats::sprt::Hypothesis::H1);
    assert!(
        s.to_string()
            .ends_with("(1 game with a result); SPRT: H1 accepted")
    );
}
