//! The move list: SAN numbered from the start position, wrapped to the
//! pane, scrolled to the latest move, with the result at the end.

use ratatui::text::{Line, Span};
use shakmaty::{Color, Position};

use super::style;
use crate::referee::Snapshot;
use crate::text::strip_control;

/// One move number with its one or two moves, kept on one line.
type Unit = Vec<Span<'static>>;

/// The move list wrapped to `width` columns, keeping only the last `rows`
/// lines so that the latest move is always visible. The first move is
/// numbered from the start position (`12... Nf6` when Black moved first),
/// the last move is highlighted, and a finished game ends with its result.
pub fn move_lines(snap: &Snapshot, width: u16, rows: u16) -> Vec<Line<'static>> {
    let units = units(snap);
    let mut lines = wrap(units, usize::from(width));
    if lines.is_empty() {
        lines.push(Line::styled("no moves yet", style::dim()));
    }
    let keep = usize::from(rows);
    if lines.len() > keep {
        lines.drain(..lines.len() - keep);
    }
    lines
}

/// Groups the moves into numbered units, plus the result.
fn units(snap: &Snapshot) -> Vec<Unit> {
    let mut number = u64::from(snap.start.fullmoves().get());
    let mut turn = snap.start.turn();
    let mut units: Vec<Unit> = Vec::new();
    let last = snap.sans.len().saturating_sub(1);
    for (i, san) in snap.sans.iter().enumerate() {
        let san_style = if i == last {
            style::last_san()
        } else {
            ratatui::style::Style::new()
        };
        let san = Span::styled(strip_control(san), san_style);
        match turn {
            Color::White => units.push(vec![
                Span::styled(format!("{number}."), style::dim()),
                Span::raw(" "),
                san,
            ]),
            Color::Black => match units.last_mut() {
                Some(unit) if i > 0 => {
                    unit.push(Span::raw(" "));
                    unit.push(san);
                }
                _ => units.push(vec![
                    Span::styled(format!("{number}..."), style::dim()),
                    Span::raw(" "),
                    san,
                ]),
            },
        }
        if turn == Color::Black {
            number = number.saturating_add(1);
        }
        turn = !turn;
    }
    if let Some(result) = &snap.result {
        units.push(vec![Span::styled(
            strip_control(&result.result),
            style::result(),
        )]);
    }
    units
}

/// Lays units out on lines of at most `width` columns (a unit wider than
/// that gets a line of its own and is clipped when drawn).
fn wrap(units: Vec<Unit>, width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut current: Vec<Span<'static>> = Vec::new();
    let mut used = 0usize;
    for unit in units {
        let w: usize = unit.iter().map(Span::width).sum();
        if used > 0 && used.saturating_add(1).saturating_add(w) > width {
            lines.push(Line::from(std::mem::take(&mut current)));
            used = 0;
        }
        if used > 0 {
            current.push(Span::raw(" "));
            used += 1;
        }
        current.extend(unit);
        used = used.saturating_add(w);
    }
    if !current.is_empty() {
        lines.push(Line::from(current));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::display::testkit;
    use crate::referee::event::Ending;

    fn text(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn numbers_from_the_start_position() {
        let snap = testkit::snapshot(None, &["e4", "e5", "Nf3"]);
        assert_eq!(text(&move_lines(&snap, 40, 5)), ["1. e4 e5 2. Nf3"]);
    }

    #[test]
    fn black_first_uses_ellipsis() {
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 12";
        let snap = testkit::snapshot(Some(fen), &["Nf6", "Nc3", "Bc5"]);
        assert_eq!(text(&move_lines(&snap, 40, 5)), ["12... Nf6 13. Nc3 Bc5"]);
    }

    #[test]
    fn wraps_without_splitting_a_move_and_follows_the_latest() {
        let snap = testkit::snapshot(None, &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]);
        let all = text(&move_lines(&snap, 12, 10));
        assert_eq!(all, ["1. e4 e5", "2. Nf3 Nc6", "3. Bb5 a6", "4. Ba4"]);
        let last_two = text(&move_lines(&snap, 12, 2));
        assert_eq!(last_two, ["3. Bb5 a6", "4. Ba4"]);
    }

    #[test]
    fn last_move_is_highlighted_and_result_appended() {
        let mut snap = testkit::snapshot(None, &["f3", "e5", "g4", "Qh4#"]);
        snap.result = Some(testkit::result(
            "0-1",
            Ending::Checkmate {
                loser: Color::White,
            },
        ));
        let lines = move_lines(&snap, 40, 5);
        assert_eq!(text(&lines), ["1. f3 e5 2. g4 Qh4# 0-1"]);
        let spans = &lines[0].spans;
        let qh4 = spans
            .iter()
            .find(|s| s.content == "Qh4#")
            .expect("last move drawn");
        assert_eq!(qh4.style, style::last_san());
        let e5 = spans.iter().find(|s| s.content == "e5").expect("e5 drawn");
        assert_ne!(e5.style, style::last_san());
    }

    #[test]
    fn empty_list_says_so() {
        let snap = testkit::snapshot(None, &[]);
        assert_eq!(text(&move_lines(&snap, 40, 5)), ["no moves yet"]);
        assert!(move_lines(&snap, 40, 0).is_empty());
    }
}
