//! The two player panels: colour, client, name and clock, plus the text
//! format of a clock time on the board.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use shakmaty::Color;

use super::style;
use crate::clock::format_hms;
use crate::referee::Snapshot;
use crate::text::strip_control;

/// Formats a clock time as `h:mm:ss`, or `h:mm:ss.t` (tenths, rounded down)
/// under ten seconds, when every tenth counts.
pub fn format_clock(ms: u64) -> String {
    let hms = format_hms(ms);
    if ms < 10_000 {
        format!("{hms}.{}", ms / 100 % 10)
    } else {
        hms
    }
}

/// The name of a colour for people.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The two lines of `color`'s panel at `now_ms`: who plays it, then the
/// clock (running marker, time left or time used, flag).
pub fn player_lines(snap: &Snapshot, color: Color, now_ms: u64, ascii: bool) -> Vec<Line<'static>> {
    // Colours are given when a game starts; before the first one, say so
    // rather than show an empty name.
    let who = match snap.client_of(color) {
        Some(c) => Span::raw(format!("{} {}", c.id.letter(), strip_control(&c.name))),
        None => Span::styled("not assigned yet", style::dim()),
    };
    let first = Line::from(vec![
        Span::styled(format!("{:<6}", color_name(color)), style::title()),
        who,
    ]);
    let clock = snap.clock(color);
    let marker = match (clock.running, ascii) {
        (false, _) => "  ",
        (true, false) => "▸ ",
        (true, true) => "> ",
    };
    let time_style = if clock.running {
        style::clock_running()
    } else {
        style::clock_stopped()
    };
    let mut second = vec![Span::styled(marker, time_style)];
    match snap.remaining_at(color, now_ms) {
        Some(left) => second.push(Span::styled(
            format!(" {} ", format_clock(left)),
            time_style,
        )),
        None => {
            second.push(Span::styled(
                format!(" {} ", format_clock(clock.used_ms)),
                time_style,
            ));
            second.push(Span::styled(" used, no clock", style::dim()));
        }
    }
    if clock.flagged {
        second.push(Span::raw(" "));
        second.push(Span::styled(" FLAG ", style::alarm()));
    }
    vec![first, Line::from(second).style(Style::new())]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_format() {
        assert_eq!(format_clock(0), "0:00:00.0");
        assert_eq!(format_clock(99), "0:00:00.0");
        assert_eq!(format_clock(9_999), "0:00:09.9");
        assert_eq!(format_clock(10_000), "0:00:10");
        assert_eq!(format_clock(59_999), "0:00:59");
        assert_eq!(format_clock(3_600_000 + 62_000), "1:01:02");
        assert_eq!(format_clock(100 * 3_600_000), "100:00:00");
        // Never panics or overflows, even on absurd values.
        assert_eq!(format_clock(u64::MAX), "5124095576030:25:51");
    }

    fn spans_text(lines: &[Line]) -> String {
        lines
            .iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn player_names_lose_control_characters() {
        let mut snap = crate::display::testkit::snapshot(None, &[]);
        snap.clients.a.name = "Evil\x1b[2J\u{9b}1mBot".into();
        let text = spans_text(&player_lines(&snap, Color::White, 0, false));
        assert!(text.contains("A Evil[2J1mBot"), "{text}");
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{text:?}"
        );
    }

    #[test]
    fn panel_without_clock_shows_time_used() {
        let mut snap = crate::display::testkit::snapshot(None, &[]);
        snap.clocks.white.remaining_ms = None;
        snap.clocks.white.used_ms = 75_000;
        let text = spans_text(&player_lines(&snap, Color::White, 0, true));
        assert!(text.contains(">  0:01:15  used, no clock"), "{text}");
    }
}
