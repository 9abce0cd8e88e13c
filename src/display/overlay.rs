//! Pop-ups drawn over the board: the key help and the y/n confirmation.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::layout::centered;
use super::role::Role;
use super::style;

/// The keys, their meaning, and whether only the referee may use them.
const KEYS: [(&str, &str, bool); 14] = [
    ("space, p", "pause / resume the clocks", true),
    ("w", "adjudicate: White wins (y/n)", true),
    ("b", "adjudicate: Black wins (y/n)", true),
    ("d", "adjudicate: draw (y/n)", true),
    ("a", "abort the game (y/n)", true),
    ("r a, r b", "restart client A / B (y/n)", true),
    ("1, 2", "restart client A / B (y/n)", true),
    ("f", "flip the board", false),
    ("g", "piece glyphs / letters", false),
    ("Up, Down", "scroll the log one line", false),
    ("PgUp, PgDn", "scroll the log a page", false),
    ("Home, End", "the oldest / newest log lines", false),
    ("?, Esc", "close this help", false),
    ("q, Ctrl-C", "quit (y/n; Ctrl-C twice quits)", false),
];

/// Width of the key column in the help.
const KEY_COL: usize = 12;

/// The help's lines for `role` (keys an observer may not use are dimmed).
pub fn help_lines(role: Role) -> Vec<Line<'static>> {
    let mut lines = Vec::with_capacity(KEYS.len() + 2);
    if role == Role::Observer {
        lines.push(Line::styled(
            "observer: supervisor keys are disabled",
            style::notice(),
        ));
    }
    for (key, what, referee_only) in KEYS {
        let disabled = referee_only && role == Role::Observer;
        let (key_style, text_style) = if disabled {
            (style::dim(), style::dim())
        } else {
            (style::key(), ratatui::style::Style::new())
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{key:<KEY_COL$}"), key_style),
            Span::styled(what, text_style),
        ]));
    }
    lines
}

/// Draws the help over the middle of `area`.
pub fn render_help(frame: &mut Frame, area: Rect, role: Role) {
    let lines = help_lines(role);
    let w = lines.iter().map(Line::width).max().unwrap_or(0) + 4;
    let h = lines.len() + 2;
    let rect = centered(
        area,
        u16::try_from(w).unwrap_or(u16::MAX),
        u16::try_from(h).unwrap_or(u16::MAX),
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(" Keys ", style::title()));
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}

/// Draws a question with its answer keys over the middle of `area`.
pub fn render_prompt(frame: &mut Frame, area: Rect, question: &str, answers: &str) {
    let line = Line::from(vec![
        Span::styled(question.to_string(), style::notice()),
        Span::raw("  "),
        Span::styled(answers.to_string(), style::key()),
    ]);
    let w = u16::try_from(line.width() + 4).unwrap_or(u16::MAX);
    let rect = centered(area, w, 3);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(" Confirm ", style::title()));
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(line).block(block), rect);
}
