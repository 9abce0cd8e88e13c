//! The tournament journal followed line by line by the one journal
//! follower (`journal::follow`): fake lines, no files.

use super::resume::header;
use super::{Run, settings};
use crate::journal::Problem;
use crate::journal::checksum::checked_lines;
use crate::journal::follow::Followed;
use crate::tournament::journal::{Line, TournamentFollower, load_from};

#[test]
fn a_tournament_journal_s_lines_start_the_core_then_give_what_it_gave() {
    let s = settings(4, |_| {});
    let mut run = Run::new(s.clone());
    run.sign_on(0..4);
    run.play_out();
    let later = run.at + 5_000;
    let header_lines = header(s.clone()).lines();
    let mut lines: Vec<Line> = header_lines.clone();
    lines.push(Line::Epoch {
        at: 0,
        unix_ms: 1_700_000_000_000,
    });
    lines.extend(run.inputs.iter().map(|(at, input)| Line::Input {
        at: *at,
        input: input.clone(),
    }));
    lines.push(Line::Note("stopped".into()));
    lines.push(Line::Epoch {
        at: later,
        unix_ms: 1_700_000_100_000,
    });
    let text = checked_lines(&lines.iter().map(Line::payload).collect::<Vec<_>>());

    let mut f = TournamentFollower::new();
    let n = header_lines.len();
    for line in &text[..n - 1] {
        assert_eq!(f.push(line).unwrap(), Followed::HeaderLine);
        assert!(f.replay().is_none());
    }
    assert_eq!(f.push(&text[n - 1]).unwrap(), Followed::Started);
    assert_eq!(f.header().map(|h| &h.settings), Some(&s));
    assert_eq!(f.push(&text[n]).unwrap(), Followed::Applied(Vec::new()));
    // Each input: what a core fed the same inputs gives for it.
    let mut core = crate::tournament::Tournament::new(s).unwrap();
    for (k, (at, input)) in run.inputs.iter().enumerate() {
        let want = core.handle(input.clone(), *at);
        assert_eq!(f.push(&text[n + 1 + k]).unwrap(), Followed::Applied(want));
        assert_eq!(f.replay().map(|r| r.last_at), Some(*at));
    }
    assert!(
        run.outputs
            .iter()
            .any(|o| matches!(o, crate::tournament::Output::TournamentOver))
    );
    // A note gives nothing; an epoch moves the time on.
    for line in &text[n + 1 + run.inputs.len()..] {
        assert_eq!(f.push(line).unwrap(), Followed::Applied(Vec::new()));
    }
    let r = f.replay().unwrap();
    assert_eq!((&r.tournament, r.last_at), (&run.t, later));

    // The whole journal loads through it, its time the last epoch's.
    let bytes: Vec<u8> = text.iter().flat_map(|l| [&l[..], b"\n"].concat()).collect();
    let loaded = load_from(&bytes[..], "t").unwrap();
    assert_eq!((&loaded.tournament, loaded.last_at), (&run.t, later));
    assert_eq!((loaded.lines, loaded.chain), (text.len(), f.chain()));
}

#[test]
fn a_header_the_tournament_core_refuses_is_an_error_with_its_line() {
    let s = settings(3, |s| s.boards = Some(0));
    let lines = header(s).lines();
    let text = checked_lines(&lines.iter().map(Line::payload).collect::<Vec<_>>());
    let mut f = TournamentFollower::new();
    for line in &text[..text.len() - 1] {
        assert_eq!(f.push(line).unwrap(), Followed::HeaderLine);
    }
    let e = f.push(&text[text.len() - 1]).unwrap_err();
    assert_eq!(e.line, text.len(), "{e}");
    assert!(matches!(e.problem, Problem::Start(_)), "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "line {}: the header: a tournament needs at least 1 board",
            text.len()
        )
    );
    assert!(f.replay().is_none() && f.header().is_none());
}
