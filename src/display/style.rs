//! The colours and text styles of the live board, in one place.
//!
//! Colours come from the xterm 256-colour palette, which nearly every
//! terminal in use draws (true colour is not assumed). The square colours are
//! mid tones so that both white and black pieces stand out on them.

use ratatui::style::{Color, Modifier, Style};

use crate::referee::snapshot::EventKind;

/// Background of a light square.
pub const LIGHT_SQUARE: Color = Color::Indexed(180);
/// Background of a dark square.
pub const DARK_SQUARE: Color = Color::Indexed(137);
/// Background of the last move's from and to squares.
pub const LAST_MOVE: Color = Color::Indexed(143);
/// Background of a king in check.
pub const CHECK: Color = Color::Indexed(160);
/// Foreground of White's pieces.
pub const WHITE_PIECE: Color = Color::Indexed(231);
/// Foreground of Black's pieces.
pub const BLACK_PIECE: Color = Color::Indexed(16);

/// Style of a piece of the given colour.
pub fn piece(white: bool) -> Style {
    let fg = if white { WHITE_PIECE } else { BLACK_PIECE };
    Style::new().fg(fg).add_modifier(Modifier::BOLD)
}

/// Style of the file and rank labels around the board.
pub fn label() -> Style {
    Style::new().fg(Color::Gray)
}

/// Style of a block title.
pub fn title() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}

/// Style of a running clock.
pub fn clock_running() -> Style {
    Style::new()
        .fg(Color::Black)
        .bg(Color::LightGreen)
        .add_modifier(Modifier::BOLD)
}

/// Style of a stopped clock.
pub fn clock_stopped() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}

/// Style of an alarm: a fallen flag, a lost link.
pub fn alarm() -> Style {
    Style::new()
        .fg(Color::White)
        .bg(Color::Red)
        .add_modifier(Modifier::BOLD)
}

/// Style of a link that is up.
pub fn link_up() -> Style {
    Style::new().fg(Color::Green)
}

/// Style of secondary text (settings, counters, hints).
pub fn dim() -> Style {
    Style::new().fg(Color::DarkGray)
}

/// Style of a key name in the help and in hints.
pub fn key() -> Style {
    Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD)
}

/// Style of a transient notice from the key handler.
pub fn notice() -> Style {
    Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
}

/// Style of the last move in the move list.
pub fn last_san() -> Style {
    Style::new().add_modifier(Modifier::REVERSED)
}

/// Style of the game result.
pub fn result() -> Style {
    Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
}

/// Style of a log line of the given kind.
pub fn event(kind: EventKind) -> Style {
    match kind {
        EventKind::Info => Style::new(),
        EventKind::Warning => Style::new().fg(Color::Yellow),
        EventKind::Fault => Style::new()
            .fg(Color::LightRed)
            .add_modifier(Modifier::BOLD),
        EventKind::Rejected => Style::new().fg(Color::Magenta),
        EventKind::Link => Style::new().fg(Color::Cyan),
    }
}
