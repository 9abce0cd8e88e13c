//! The log pane: the snapshot's events, newest at the bottom, coloured and
//! tagged by kind, scrollable back.

use ratatui::text::{Line, Span};

use super::style;
use crate::referee::snapshot::{EventKind, EventView};
use crate::text::strip_control;

/// The largest useful scroll offset: the oldest event at the top.
pub fn max_scroll(events: usize, rows: u16) -> usize {
    events.saturating_sub(usize::from(rows))
}

/// The lines of the log pane with `rows` rows, `scroll` events back from the
/// newest (0 shows the newest at the bottom; larger values are clamped).
pub fn log_lines(events: &[EventView], rows: u16, scroll: usize) -> Vec<Line<'static>> {
    let scroll = scroll.min(max_scroll(events.len(), rows));
    let end = events.len() - scroll;
    let start = end.saturating_sub(usize::from(rows));
    events
        .get(start..end)
        .unwrap_or_default()
        .iter()
        .map(event_line)
        .collect()
}

/// One event: time since the session started, kind tag, text.
fn event_line(e: &EventView) -> Line<'static> {
    let s = e.at_ms / 1000;
    let stamp = format!("{}:{:02}:{:02} ", s / 3600, s / 60 % 60, s % 60);
    let style = style::event(e.kind);
    Line::from(vec![
        Span::styled(stamp, style::dim()),
        Span::styled(format!("{:<6}", tag(e.kind)), style),
        Span::styled(strip_control(&e.text), style),
    ])
}

/// A short word for the kind, so the log reads without colour too.
fn tag(kind: EventKind) -> &'static str {
    match kind {
        EventKind::Info => "info",
        EventKind::Warning => "warn",
        EventKind::Fault => "FAULT",
        EventKind::Rejected => "rej",
        EventKind::Link => "link",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::display::testkit::event;

    fn events(n: u64) -> Vec<EventView> {
        (0..n)
            .map(|i| event(i * 1000, EventKind::Info, &format!("e{i}")))
            .collect()
    }

    fn texts(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| {
                l.spans
                    .last()
                    .map(|s| s.content.to_string())
                    .unwrap_or_default()
            })
            .collect()
    }

    #[test]
    fn newest_at_the_bottom() {
        assert_eq!(texts(&log_lines(&events(5), 3, 0)), ["e2", "e3", "e4"]);
        assert_eq!(texts(&log_lines(&events(2), 3, 0)), ["e0", "e1"]);
        assert!(log_lines(&[], 3, 0).is_empty());
        assert!(log_lines(&events(5), 0, 0).is_empty());
    }

    #[test]
    fn scrolls_back_and_clamps() {
        assert_eq!(texts(&log_lines(&events(5), 3, 1)), ["e1", "e2", "e3"]);
        assert_eq!(texts(&log_lines(&events(5), 3, 99)), ["e0", "e1", "e2"]);
        assert_eq!(max_scroll(5, 3), 2);
        assert_eq!(max_scroll(2, 3), 0);
    }

    #[test]
    fn line_has_time_tag_and_colour() {
        let e = event(3_723_000, EventKind::Fault, "A sent an illegal move\x1b[2J");
        let line = event_line(&e);
        assert_eq!(line.to_string(), "1:02:03 FAULT A sent an illegal move[2J");
        assert_eq!(line.spans[2].style, style::event(EventKind::Fault));
        assert_ne!(
            style::event(EventKind::Fault),
            style::event(EventKind::Info)
        );
    }
}
