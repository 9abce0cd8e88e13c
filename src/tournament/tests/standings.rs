//! Standings, tie-breaks, the crosstable, and the report built on them.

use shakmaty::Color;

use super::{Run, settings};
use crate::referee::GameResult;
use crate::tournament::report::{markdown, md, text};
use crate::tournament::{Absence, Input, Mark, PlayerId, Standings};

const W: GameResult = GameResult::Win(Color::White);
const B: GameResult = GameResult::Win(Color::Black);
const D: GameResult = GameResult::Draw;

/// Four players; games (Berger): 1 P1-P4, 2 P2-P3, 3 P4-P3, 4 P1-P2,
/// 5 P2-P4, 6 P3-P1, with these results.
fn four(results: [GameResult; 6]) -> Run {
    let mut r = Run::new(settings(4, |_| {}));
    r.sign_on(0..4);
    while let Some((_, g)) = r.running.front() {
        let n = g.number;
        r.finish(n, results[n as usize - 1]);
    }
    assert!(r.t.is_over());
    r
}

fn table(s: &Standings) -> Vec<(usize, usize, u32, u64, u32)> {
    s.rows
        .iter()
        .map(|r| (r.player.0 + 1, r.rank, r.halves, r.sb_quarters, r.wins))
        .collect()
}

#[test]
fn sonneborn_berger_breaks_a_tie_on_points() {
    // P1 and P4 have 2 points; P1 beat P4 (2) and P2 (1): SB 3; P4 beat
    // P3 (1) and P2 (1): SB 2. P2 and P3 have 1; P3 beat P1 (2): SB 2,
    // ahead of P2, who beat P3: SB 1, though P2 is seeded higher.
    let r = four([W, W, W, W, B, W]);
    let s = Standings::of(&r.t);
    assert_eq!(
        table(&s),
        vec![
            (1, 1, 4, 12, 2),
            (4, 2, 4, 8, 2),
            (3, 3, 2, 8, 1),
            (2, 4, 2, 4, 1)
        ]
    );
    // The crosstable, in ranking order: P1, P4, P3, P2.
    assert_eq!(s.cells[0][1], vec![Mark::Win]);
    assert_eq!(s.cells[0][2], vec![Mark::Loss]);
    assert_eq!(s.cells[2][0], vec![Mark::Win]);
    assert!(s.cells[1][1].is_empty());
}

#[test]
fn wins_break_a_tie_on_points_and_sb_and_equals_share_a_rank() {
    let r = four([W, D, W, D, D, W]);
    let s = Standings::of(&r.t);
    assert_eq!(
        table(&s),
        vec![
            (1, 1, 3, 9, 1),
            (3, 1, 3, 9, 1),
            (4, 1, 3, 9, 1),
            (2, 4, 3, 9, 0)
        ]
    );
    let row = &s.rows[3];
    assert_eq!((row.games, row.wins, row.draws, row.losses), (3, 0, 3, 0));
}

#[test]
fn forfeits_count_as_points_not_as_sonneborn_berger_and_show_in_the_crosstable() {
    let mut r = Run::new(settings(3, |s| {
        s.absence = Absence::Forfeit { after_ms: 10 }
    }));
    r.sign_on([0, 1]);
    r.play_out();
    r.at = 10;
    r.input(Input::Timer);
    assert!(r.t.is_over());
    let s = Standings::of(&r.t);
    let p3 = s.rows.iter().find(|row| row.player == PlayerId(2)).unwrap();
    assert_eq!(
        (p3.halves, p3.games, p3.forfeits_lost, p3.sb_quarters),
        (0, 2, 2, 0)
    );
    let p1 = s.rows.iter().find(|row| row.player == PlayerId(0)).unwrap();
    assert_eq!(p1.forfeits_won, 1);
    let i3 = s
        .rows
        .iter()
        .position(|row| row.player == PlayerId(2))
        .unwrap();
    assert!(
        s.cells[i3]
            .iter()
            .flatten()
            .all(|m| *m == Mark::ForfeitLoss)
    );
    let report = text(&r.t);
    assert!(report.contains("forfeit: "), "{report}");
    assert!(report.contains("after 0 s away it forfeits"), "{report}");
}

#[test]
fn player_statistics_come_from_the_games_played() {
    let r = four([W, W, W, W, B, W]);
    let s = Standings::of(&r.t);
    let p1 = s.rows.iter().find(|row| row.player == PlayerId(0)).unwrap();
    // P1: White in games 1 and 4 (30 moves, 60 s, left 240 s - game s),
    // Black in game 6 (29 moves, 87 s, left 213 s, 0 faults, 1 restart).
    let st = p1.stats;
    assert_eq!((st.moves, st.used_ms), (89, 207_000));
    assert_eq!(st.average_move_ms(), Some(2325));
    assert_eq!(st.left_min_ms, Some(213_000));
    assert_eq!(
        st.average_left_ms(),
        Some((239_000 + 236_000 + 213_000) / 3)
    );
    assert_eq!((st.faults, st.restarts), (0, 1));
}

#[test]
fn the_reports_games_say_how_each_ended_in_the_boards_words() {
    let mut r = Run::new(settings(4, |_| {}));
    r.sign_on(0..4);
    r.finish_saying(4, D, Some("Draw by 3-fold repetition"));
    let other = r.finish_next().expect("another game running");
    let t = text(&r.t);
    assert!(t.contains("Draw by 3-fold repetition"), "{t}");
    // No words from the board (an older journal): the outcome's own.
    assert!(t.contains("normal"), "{t}");
    assert_eq!(r.t.how(4).as_deref(), Some("Draw by 3-fold repetition"));
    assert_eq!(r.t.how(other).as_deref(), Some("normal"));
    let undecided = (1..=6).find(|g| ![4, other].contains(g)).unwrap();
    assert_eq!(r.t.how(undecided), None);
}

#[test]
fn the_report_in_text_and_markdown() {
    let mut r = four([W, W, W, W, B, W]);
    insta::assert_snapshot!("report_text", text(&r.t));
    insta::assert_snapshot!("report_markdown", markdown(&r.t));
    // A report mid-event says so and shows what is pending.
    r = Run::new(settings(4, |_| {}));
    r.sign_on(0..4);
    r.finish(4, D);
    let t = text(&r.t);
    assert!(t.contains("Not over: 1 of 6 games decided."), "{t}");
    assert!(t.contains("in progress on board 2"), "{t}");
    assert!(t.contains("not played yet"), "{t}");
}

#[test]
fn names_from_clients_cannot_break_the_report() {
    let r = Run::new(settings(2, |s| {
        s.names[0] = "Evil|\x1b[2J*bot*".into();
        s.event = "Cup\r\n# x".into();
    }));
    let t = text(&r.t);
    assert!(!t.contains('\x1b') && !t.contains('\r'), "{t:?}");
    assert!(t.contains("Evil|[2J*bot*"));
    let m = markdown(&r.t);
    assert!(m.contains("Evil\\|\\[2J\\*bot\\*"), "{m}");
    assert!(m.starts_with("# Cup\\# x: tournament report\n"), "{m}");
    assert_eq!(md("a_b<c>"), "a\\_b\\<c\\>");
}
