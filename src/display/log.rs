//! The log pane: the snapshot's events, newest at the bottom, coloured and
//! tagged by kind, wrapped to the pane's width, scrollable back.

use std::collections::VecDeque;

use ratatui::text::{Line, Span};

use super::style;
use crate::clock::format_hms;
use crate::referee::snapshot::{EventKind, EventView};
use crate::referee::words;

/// Most rows one event takes; a longer text is cut and ends with `…`.
pub const MAX_EVENT_ROWS: usize = 3;

/// Below this many columns for the text, events are not wrapped (the pane
/// clips them instead).
const MIN_WRAP: usize = 12;

/// The lines of a log pane of `rows` x `width`, `scroll` events back from
/// the newest (0 shows the newest at the bottom). Scrolled back so far that
/// the oldest event is shown, the pane fills from the top instead, so it is
/// never half empty while there is more to show.
pub fn log_lines(events: &[EventView], rows: u16, width: u16, scroll: usize) -> Vec<Line<'static>> {
    let rows = usize::from(rows);
    if rows == 0 || events.is_empty() {
        return Vec::new();
    }
    let end = events.len() - scroll.min(events.len() - 1);
    let mut blocks: VecDeque<Vec<Line<'static>>> = VecDeque::new();
    let mut used = 0usize;
    // Back from `end` until the pane is full...
    let mut first = end;
    while first > 0 && used < rows {
        first -= 1;
        let block = event_lines(&events[first], width);
        used += block.len();
        blocks.push_front(block);
    }
    // ...and, if the oldest event left room, forward from `end`.
    let mut next = end;
    while used < rows && next < events.len() {
        let block = event_lines(&events[next], width);
        used += block.len();
        blocks.push_back(block);
        next += 1;
    }
    let mut lines: Vec<Line<'static>> = blocks.into_iter().flatten().collect();
    if lines.len() > rows {
        if next > end {
            // Filled forwards: the newest lines fall off the bottom.
            lines.truncate(rows);
        } else {
            // Filled backwards: the oldest lines fall off the top.
            lines.drain(..lines.len() - rows);
        }
    }
    lines
}

/// One event: time since the session started, kind tag, text, wrapped to
/// `width` in at most [`MAX_EVENT_ROWS`] rows (continuations indented
/// under the text).
fn event_lines(e: &EventView, width: u16) -> Vec<Line<'static>> {
    let stamp = format!("{} ", format_hms(e.at_ms));
    let kind = e.event.kind();
    let tag = format!("{:<6}", tag(kind));
    let indent = stamp.chars().count() + tag.chars().count();
    let style = style::event(kind);
    let text = words::sentence(&e.event);
    let room = usize::from(width).saturating_sub(indent);
    let chunks = if room < MIN_WRAP {
        vec![text]
    } else {
        wrap(&text, room, MAX_EVENT_ROWS)
    };
    let mut chunks = chunks.into_iter();
    let first = chunks.next().unwrap_or_default();
    let mut lines = vec![Line::from(vec![
        Span::styled(stamp, style::dim()),
        Span::styled(tag, style),
        Span::styled(first, style),
    ])];
    for chunk in chunks {
        lines.push(Line::from(vec![
            Span::raw(" ".repeat(indent)),
            Span::styled(chunk, style),
        ]));
    }
    lines
}

/// `text` in pieces of at most `width` characters, broken at spaces where
/// possible, at most `max_rows` of them; a cut text ends with `…`.
fn wrap(text: &str, width: usize, max_rows: usize) -> Vec<String> {
    let width = width.max(1);
    let mut rows: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut len = 0usize;
    for word in text.split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        // The space before the word, if it fits on this row.
        if len > 0 && len + 1 + word.len() <= width {
            current.push(' ');
            current.extend(word.iter());
            len += 1 + word.len();
            continue;
        }
        if len > 0 {
            rows.push(std::mem::take(&mut current));
        }
        // A word longer than a row is broken.
        while word.len() > width {
            let rest = word.split_off(width);
            rows.push(word.into_iter().collect());
            word = rest;
        }
        current.extend(word.iter());
        len = word.len();
        if rows.len() > max_rows {
            break;
        }
    }
    if len > 0 || rows.is_empty() {
        rows.push(current);
    }
    if rows.len() > max_rows {
        rows.truncate(max_rows);
        if let Some(last) = rows.last_mut() {
            let mut chars: Vec<char> = last.chars().collect();
            chars.truncate(width - 1);
            chars.push('…');
            *last = chars.into_iter().collect();
        }
    }
    rows
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
    use crate::game::SanErrorKind;
    use crate::referee::ClientId;
    use crate::referee::event::{Event, Offence, Problem, Rejection};

    /// `n` sign-ons, of clients named `e0`, `e1`, ...
    fn events(n: u64) -> Vec<EventView> {
        (0..n)
            .map(|i| event(i * 1000, EventKind::Info, &format!("e{i}")))
            .collect()
    }

    /// What the log says of event `i` of [`events`].
    fn said(i: &[u32]) -> Vec<String> {
        i.iter().map(|i| format!("A: e{i} signed on")).collect()
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

    fn all_text(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn newest_at_the_bottom() {
        assert_eq!(texts(&log_lines(&events(5), 3, 80, 0)), said(&[2, 3, 4]));
        assert_eq!(texts(&log_lines(&events(2), 3, 80, 0)), said(&[0, 1]));
        assert!(log_lines(&[], 3, 80, 0).is_empty());
        assert!(log_lines(&events(5), 0, 80, 0).is_empty());
    }

    #[test]
    fn scrolls_back_and_clamps() {
        assert_eq!(texts(&log_lines(&events(5), 3, 80, 1)), said(&[1, 2, 3]));
        // Back past the oldest: the pane fills from the top.
        assert_eq!(texts(&log_lines(&events(5), 3, 80, 4)), said(&[0, 1, 2]));
        assert_eq!(texts(&log_lines(&events(5), 3, 80, 99)), said(&[0, 1, 2]));
        assert_eq!(texts(&log_lines(&events(2), 3, 80, 99)), said(&[0, 1]));
    }

    #[test]
    fn line_has_time_tag_and_colour() {
        let offence = Offence {
            problem: Problem::BadMove {
                kind: SanErrorKind::Illegal,
                text: "Ke7\x1b[2J".into(),
                why: "no king on e8".into(),
            },
            asked_again: 0,
        };
        let e = EventView {
            at_ms: 3_723_000,
            event: Event::Forfeit {
                client: ClientId::A,
                offence,
            },
        };
        let lines = event_lines(&e, 80);
        assert_eq!(
            all_text(&lines),
            ["1:02:03 FAULT A: illegal move \"Ke7[2J\": no king on e8"]
        );
        assert_eq!(lines[0].spans[2].style, style::event(EventKind::Fault));
        assert_ne!(
            style::event(EventKind::Fault),
            style::event(EventKind::Info)
        );
    }

    #[test]
    fn long_events_wrap_under_the_text_and_are_cut_after_three_rows() {
        let e = EventView {
            at_ms: 5_000,
            event: Event::Rejected {
                client: ClientId::A,
                why: Rejection::OutOfTurn,
                line: "refreply rm Qxh7 ?".into(),
            },
        };
        // 14 columns of stamp and tag leave 26 for the text.
        let lines = all_text(&event_lines(&e, 40));
        assert_eq!(
            lines,
            [
                "0:00:05 rej   A: rejected (reply out of",
                "              turn): \"refreply rm Qxh7",
                "              ?\"",
            ]
        );
        for l in &lines {
            assert!(l.chars().count() <= 40, "{l:?}");
        }
        let long = event(0, EventKind::Info, &"word ".repeat(100));
        let lines = all_text(&event_lines(&long, 40));
        assert_eq!(lines.len(), MAX_EVENT_ROWS);
        assert!(lines[2].ends_with('…'), "{lines:?}");
        assert!(lines.iter().all(|l| l.chars().count() <= 40), "{lines:?}");
        // An unbroken string is broken by characters.
        let blob = event(0, EventKind::Info, &"x".repeat(60));
        let lines = all_text(&event_lines(&blob, 40));
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[1].trim(), "x".repeat(26));
        // Too narrow to wrap: one line, clipped by the pane.
        assert_eq!(event_lines(&long, 20).len(), 1);
    }

    #[test]
    fn wrapped_events_fill_the_pane_newest_at_the_bottom() {
        let mut evs = events(3);
        evs.push(event(
            9_000,
            EventKind::Info,
            "long long long long long long",
        ));
        // The long event takes two rows at width 40; e2 fits above it.
        let lines = all_text(&log_lines(&evs, 3, 40, 0));
        assert_eq!(lines.len(), 3);
        assert!(lines[0].ends_with("e2 signed on"), "{lines:?}");
        assert!(lines[1].starts_with("0:00:09 info  A: long"), "{lines:?}");
        // One row: only the end of the newest event.
        let lines = all_text(&log_lines(&evs, 1, 40, 0));
        assert_eq!(lines.len(), 1);
        assert!(lines[0].starts_with("              long"), "{lines:?}");
        // Scrolled back to the oldest: from the top, the long one cut off.
        let lines = all_text(&log_lines(&evs, 4, 40, 3));
        assert_eq!(lines.len(), 4);
        assert!(
            lines[0].ends_with("e0 signed on") && lines[3].contains("long"),
            "{lines:?}"
        );
    }
}
