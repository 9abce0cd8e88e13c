//! The tournament journal: lines round-trip, a bad journal is refused with
//! its line, and a resume after a kill at any point carries on every
//! unfinished game and the rest of the schedule, nothing played twice.

use std::collections::BTreeSet;

use super::{Run, finished, settings};
use crate::tournament::journal::{Header, Line, TournamentWriter, load, load_from};
use crate::tournament::{
    Absence, BoardId, GameState, Input, Output, PlayerId, Settings, Standings,
};

pub(super) fn header(s: Settings) -> Header {
    let specs = (0..s.names.len())
        .map(|i| format!("/dev/ttyUSB{i}"))
        .collect();
    Header {
        writer: "argus test".into(),
        settings: s,
        specs,
        command: vec!["mover:a".into(), "--tc".into(), "60+1".into()],
        directory: "/home/club/event".into(),
    }
}

#[test]
fn every_line_round_trips() {
    let s = settings(3, |s| {
        s.schedule.openings = 4;
        s.schedule.openings_seed = Some(7);
        s.schedule.swap = false;
        s.boards = Some(1);
        s.absence = Absence::Forfeit { after_ms: 90_000 };
        s.names[1] = "Deep \\ Thought - é".into();
        s.instances = 8;
    });
    let mut lines = header(s).lines();
    lines.extend([
        Line::Epoch {
            at: 5,
            unix_ms: 1_700_000_000_000,
        },
        Line::Input {
            at: 1,
            input: Input::SignedOn {
                instance: 0,
                player: PlayerId(2),
            },
        },
        Line::Input {
            at: 2,
            input: Input::Lost {
                instance: 0,
                player: PlayerId(0),
                reason: "hang up\n".into(),
            },
        },
        Line::Input {
            at: 2,
            input: Input::SignedOn {
                instance: 7,
                player: PlayerId(1),
            },
        },
        Line::Input {
            at: 2,
            input: Input::Lost {
                instance: 3,
                player: PlayerId(2),
                reason: "engine gone".into(),
            },
        },
        Line::Input {
            at: 2,
            input: Input::CannotStart {
                player: PlayerId(1),
                reason: "cannot run \"x\": not found".into(),
            },
        },
        Line::Input {
            at: 3,
            input: finished(4),
        },
        Line::Input {
            at: 3,
            input: finished(5),
        },
        Line::Input {
            at: 4,
            input: Input::BoardFree { board: BoardId(2) },
        },
        Line::Input {
            at: 5,
            input: Input::Timer,
        },
        Line::Input {
            at: 6,
            input: Input::Resumed { on_cables: vec![] },
        },
        Line::Input {
            at: 7,
            input: Input::Resumed {
                on_cables: vec![PlayerId(0), PlayerId(2)],
            },
        },
        Line::Note("resumed".into()),
    ]);
    for l in lines {
        let p = l.payload();
        assert!(p.bytes().all(|b| (0x20..=0x7e).contains(&b)), "{p}");
        assert_eq!(Line::parse(&p), Ok(l), "{p}");
    }
}

#[test]
fn bad_lines_say_what_is_wrong() {
    for (p, want) in [
        ("in 1 on x", "the player \"x\" is not a number"),
        ("in 1 on 2/x", "the instance in \"2/x\" is not a number"),
        ("in 1 result 2 2-0 normal", "unknown result"),
        ("in 1 result 2 1-0 resigned", "unknown termination"),
        (
            "in 1 result 2 1-0 normal 1 2 3 4",
            "White's restarts is missing",
        ),
        ("in 1 free", "the board is missing"),
        ("in 1 dance", "unknown kind of input"),
        ("in 1 timer now", "unexpected \"now\""),
        (
            "in 1 resumed 0 x",
            "a player on a cable \"x\" is not a number",
        ),
    ] {
        let e = Line::parse(p).unwrap_err().to_string();
        assert!(e.contains(want), "{p}: {e}");
    }
    assert_eq!(
        Line::parse("in 1 on x"),
        Err(crate::tournament::journal::line::BadLine::Player(
            "x".into()
        ))
    );
    assert!(matches!(
        Line::parse("in 1 dance"),
        Err(crate::tournament::journal::line::BadLine::Field(
            crate::journal::format::LineError::UnknownInput(_)
        ))
    ));
}

/// The driver's whole run, journaled to `path`: sign on, play out.
fn journaled_run(path: &std::path::Path, s: Settings) -> Run {
    let mut w = TournamentWriter::create(path, &header(s.clone()), 1_700_000_000_000).unwrap();
    let mut r = Run::new(s);
    r.sign_on(0..4);
    r.play_out();
    for (at, input) in &r.inputs {
        w.input(*at, input).unwrap();
    }
    r
}

/// What kind of point the kill after `k` inputs is.
fn kind(r: &Run, k: usize) -> &'static str {
    let mut t = crate::tournament::Tournament::new(r.t.settings().clone()).unwrap();
    let mut last = Vec::new();
    for (at, input) in &r.inputs[..k] {
        last = t.handle(input.clone(), *at);
    }
    if t.is_over() {
        "after the last result"
    } else if t.games().all(|(_, s)| s == GameState::Pending) {
        "before any game"
    } else if last.iter().any(|o| matches!(o, Output::RoundOver { .. })) {
        "between rounds"
    } else if !t.in_progress().is_empty() {
        "mid-game"
    } else {
        "other"
    }
}

#[test]
fn a_resume_after_a_kill_at_any_point_finishes_the_schedule_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.journal");
    let s = settings(4, |s| {
        s.schedule.cycles = 2;
        s.absence = Absence::Forfeit { after_ms: 600_000 };
    });
    let whole = journaled_run(&full, s);
    let want = Standings::of(&whole.t);
    let bytes = std::fs::read(&full).unwrap();
    let line_ends: Vec<usize> = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .map(|(i, _)| i + 1)
        .collect();
    // Header (magic, 7 settings, 4 players, directory, command, begin)
    // and epoch: 16 lines.
    let head = 16;
    assert_eq!(line_ends.len(), head + whole.inputs.len());
    let mut kinds = BTreeSet::new();
    for k in 0..=whole.inputs.len() {
        kinds.insert(kind(&whole, k));
        let path = dir.path().join(format!("kill-{k}.journal"));
        let mut cut = bytes[..line_ends[head + k - 1]].to_vec();
        cut.extend_from_slice(b"in 999 tim"); // the line the kill tore
        std::fs::write(&path, &cut).unwrap();
        resume_after_kill(&path, &whole, k, &want);
    }
    for want in [
        "before any game",
        "mid-game",
        "between rounds",
        "after the last result",
    ] {
        assert!(kinds.contains(want), "no kill {want}: {kinds:?}");
    }
}

#[test]
fn a_damaged_journal_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.journal");
    journaled_run(&path, settings(4, |_| {}));
    let good = std::fs::read_to_string(&path).unwrap();
    let changed = good.replacen("in 0 on 1", "in 0 on 2", 1);
    let e = load_from(changed.as_bytes(), "t").unwrap_err().to_string();
    assert!(e.contains("tournament journal t: line 18: check"), "{e}");
    let e = load_from(&b""[..], "t").unwrap_err().to_string();
    assert!(e.contains("the journal is empty"), "{e}");
    let e = load_from(good.lines().next().unwrap().as_bytes(), "t")
        .unwrap_err()
        .to_string();
    assert!(e.contains("is this an argus journal"), "{e}");
    let cut: String = good.lines().take(5).map(|l| format!("{l}\n")).collect();
    let e = load_from(cut.as_bytes(), "t").unwrap_err().to_string();
    assert!(e.contains("ends inside its header (after line 5)"), "{e}");
    // A match journal is not a tournament journal.
    let (line, _) = {
        let p = "argus-journal 1 argus";
        let c = crate::journal::checksum::line_check(0, p);
        (format!("{p} {c:08x}\n"), c)
    };
    let e = load_from(line.as_bytes(), "t").unwrap_err().to_string();
    assert!(e.contains("unknown kind of line \"argus-journal\""), "{e}");
}

#[test]
fn a_tournament_journal_is_told_from_a_match_journal_by_its_first_bytes() {
    use crate::journal::kind::{Kind, kind_of_file};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.journal");
    journaled_run(&path, settings(3, |_| {}));
    assert!(matches!(kind_of_file(&path), Ok(Kind::Tournament)));
    let other = dir.path().join("m.journal");
    std::fs::write(&other, "argus-journal 1 argus 00000000\n").unwrap();
    assert!(matches!(kind_of_file(&other), Ok(Kind::Match)));
    std::fs::write(&other, "argus-tourn").unwrap();
    assert!(
        kind_of_file(&other).is_err(),
        "a file shorter than the magic"
    );
    assert!(kind_of_file(&dir.path().join("missing")).is_err());
}

/// Loads the journal at `path` (cut after `k` of `whole`'s inputs, torn),
/// checks the replayed state, resumes, plays the rest, and checks that
/// each game was started once, the standings are `want` and the resumed
/// journal replays to the end state.
fn resume_after_kill(path: &std::path::Path, whole: &Run, k: usize, want: &Standings) {
    let loaded = load(path).unwrap();
    assert!(loaded.torn.is_some(), "kill at {k}");
    let mut replayed = crate::tournament::Tournament::new(loaded.header.settings.clone()).unwrap();
    for (at, i) in &whole.inputs[..k] {
        replayed.handle(i.clone(), *at);
    }
    assert_eq!(loaded.tournament, replayed, "kill at {k}");

    // Resume: the boards carry on the games in progress, everyone
    // signs on again, and the rest is played.
    let at = loaded.last_at + 5_000;
    let mut w = TournamentWriter::resume(path, &loaded, at, 1_700_000_100_000).unwrap();
    let decided_before: Vec<u32> = loaded
        .tournament
        .games()
        .filter(|(_, s)| !matches!(s, GameState::Pending))
        .map(|(g, _)| g.number)
        .collect();
    let mut r = Run::from(loaded.tournament);
    r.at = at;
    r.input(Input::Resumed { on_cables: vec![] });
    r.sign_on(0..4);
    r.play_out();
    assert!(r.t.is_over(), "kill at {k}");
    let mut started: Vec<u32> = whole
        .started()
        .into_iter()
        .filter(|g| decided_before.contains(g))
        .collect();
    started.extend(r.started());
    started.sort_unstable();
    assert_eq!(
        started,
        (1..=12).collect::<Vec<_>>(),
        "kill at {k}: each game started once"
    );
    assert_eq!(&Standings::of(&r.t), want, "kill at {k}");

    // The resumed journal replays to the finished tournament.
    for (at, input) in &r.inputs {
        w.input(*at, input).unwrap();
    }
    drop(w);
    let again = load(path).unwrap();
    assert!(again.torn.is_none());
    assert_eq!(again.tournament, r.t, "kill at {k}");
}

/// The resume rule: every player is away from the resume on, but those on
/// cables, which count as signed on again at once (said: a cable does not
/// tell a program its referee restarted); the game running on a board
/// carries on there, and no game of the player still away starts until it
/// signs on again.
#[test]
fn a_resume_counts_the_players_on_cables_as_signed_on_and_waits_for_the_others() {
    let mut r = Run::new(settings(3, |s| s.boards = Some(1)));
    r.sign_on(0..3);
    let (_, first) = r.running[0];
    // Killed during game 1; resumed 5 s later with P1 and P3 on cables.
    let mut r = Run::from(r.t.clone());
    r.at += 5_000;
    let resumed_at = r.at;
    let out = r.input(Input::Resumed {
        on_cables: vec![PlayerId(0), PlayerId(2)],
    });
    assert_eq!(
        out,
        [
            Output::OnCable {
                player: PlayerId(0)
            },
            Output::OnCable {
                player: PlayerId(2)
            },
        ]
    );
    assert_eq!(
        crate::tournament::words::said(&r.t, &out[0]).as_deref(),
        Some("P1: on its cable, counted as signed on again")
    );
    assert!(r.t.is_present(PlayerId(0), 0) && r.t.is_present(PlayerId(2), 0));
    assert!(!r.t.is_present(PlayerId(1), 0));
    assert_eq!(r.t.waiting(), [(PlayerId(1), resumed_at)]);
    assert_eq!(r.t.in_progress(), [(BoardId(1), first)], "game 1 goes on");
    // Until P2 is back, only the game without it starts.
    while r.finish_next().is_some() {}
    let without: Vec<u32> = r.started();
    assert!(
        without.iter().all(|&g| {
            let g = r.t.schedule().game(g).unwrap();
            g.white != PlayerId(1) && g.black != PlayerId(1)
        }),
        "{without:?}"
    );
    assert!(!r.t.is_over());
    r.sign_on([1]);
    r.play_out();
    assert!(r.t.is_over());
}

#[test]
fn a_resume_does_not_count_a_withdrawn_or_unknown_player_on_a_cable() {
    let mut r = Run::new(settings(2, |_| {}));
    r.input(Input::CannotStart {
        player: PlayerId(1),
        reason: "gone".into(),
    });
    let out = r.input(Input::Resumed {
        on_cables: vec![PlayerId(1), PlayerId(5)],
    });
    assert!(
        matches!(
            &out[..],
            [Output::Ignored { reason }] if reason.contains("not in the tournament")
        ),
        "{out:?}"
    );
    assert!(!r.t.is_present(PlayerId(1), 0));
    assert!(!r.t.is_present(PlayerId(5), 0));
}
