//! A tournament at a glance: one line per board (players, clocks, moves,
//! last move, status), the standings, and the latest results. The caller
//! builds an [`Overview`] from its cores (each board's line from its
//! referee [`Snapshot`] with [`BoardLine::of`]); this module only draws
//! it. Names come stripped of control characters (the snapshot's are).

use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Row, Table};
use shakmaty::Color;

use crate::display::clock::format_clock;
use crate::referee::snapshot::Phase;
use crate::referee::{ClientId, Snapshot};
use crate::text::strip_control;

/// One board's line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardLine {
    /// 1, 2, ...: the key that shows it full size.
    pub board: u32,
    /// `game 7, round 3.2`, or empty for a free board.
    pub game: String,
    pub white: String,
    pub black: String,
    /// The clocks, `-` without a time control.
    pub clocks: [String; 2],
    /// Plies played, and the last move in SAN.
    pub plies: usize,
    pub last: String,
    /// `playing`, `paused`, `starting`, `over`, `free`.
    pub status: String,
}

impl BoardLine {
    /// A board with no game.
    pub fn free(board: u32) -> BoardLine {
        BoardLine {
            board,
            game: String::new(),
            white: String::new(),
            black: String::new(),
            clocks: [String::new(), String::new()],
            plies: 0,
            last: String::new(),
            status: "free".into(),
        }
    }

    /// Board `board`'s line from its core's snapshot; `game` says which
    /// game it is.
    pub fn of(board: u32, game: String, snap: &Snapshot) -> BoardLine {
        // Client A is White on a tournament board.
        let clock = |color: Color| {
            snap.clock(color)
                .remaining_ms
                .map_or_else(|| "-".to_string(), format_clock)
        };
        let status = match &snap.phase {
            Phase::WaitingForSignOn => "waiting",
            Phase::Starting => "starting",
            Phase::Playing => "playing",
            Phase::Paused { .. } => "paused",
            Phase::GameOver | Phase::SessionOver => "over",
        };
        let status = match &snap.result {
            Some(r) if matches!(snap.phase, Phase::GameOver | Phase::SessionOver) => {
                format!("{status} {}", r.result)
            }
            _ => status.to_string(),
        };
        BoardLine {
            board,
            game,
            white: snap.clients[ClientId::A].name.clone(),
            black: snap.clients[ClientId::B].name.clone(),
            clocks: [clock(Color::White), clock(Color::Black)],
            plies: snap.sans.len(),
            last: snap.sans.last().cloned().unwrap_or_default(),
            status,
        }
    }
}

/// Everything the overview shows.
#[derive(Debug, Clone, Default)]
pub struct Overview {
    /// `club championship: 7 of 12 games decided`.
    pub title: String,
    pub boards: Vec<BoardLine>,
    /// The standings as a text table (one line each).
    pub standings: Vec<String>,
    /// The latest round of a Swiss event or a knockout: its title
    /// (`round 3 of 7`) and a line per game (with its result or state)
    /// and per bye; `None` for a schedule fixed in advance.
    pub round: Option<(String, Vec<String>)>,
    /// The latest lines (results, sign-ons), oldest first.
    pub recent: Vec<String>,
    /// The supervisor may withdraw a player (`x`): a Swiss event or a
    /// knockout, seen by its referee.
    pub can_withdraw: bool,
    /// A question or a notice for the bottom line, if any.
    pub notice: Option<String>,
}

/// The keys the overview's bottom line names.
const KEYS: &str = "1-9 show a board full size (Esc back) · q quit";
/// ... and with a player to withdraw.
const WITHDRAW_KEY: &str = " · x withdraw a player";

/// Draws the overview on the whole frame.
pub fn render(frame: &mut Frame, o: &Overview) {
    let area = frame.area();
    let boards_h = u16::try_from(o.boards.len())
        .unwrap_or(u16::MAX)
        .saturating_add(3);
    let standings_h = u16::try_from(o.standings.len())
        .unwrap_or(u16::MAX)
        .saturating_add(2);
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Length(1),
            Constraint::Length(boards_h),
            Constraint::Length(standings_h),
            Constraint::Min(3),
            Constraint::Length(1),
        ])
        .split(area);
    let bold = Style::default().add_modifier(Modifier::BOLD);
    frame.render_widget(
        Paragraph::new(Line::from(Span::styled(strip_control(&o.title), bold))),
        rows[0],
    );
    boards(frame, rows[1], &o.boards);
    let standings: Vec<Line> = o.standings.iter().map(|l| Line::from(l.as_str())).collect();
    frame.render_widget(
        Paragraph::new(standings).block(Block::default().borders(Borders::ALL).title("Standings")),
        rows[2],
    );
    // The latest round beside the latest lines, as wide as its widest
    // line (at most half the width).
    let (round_area, recent_area) = match &o.round {
        Some((_, lines)) => {
            let widest = lines
                .iter()
                .map(|l| strip_control(l).chars().count())
                .max()
                .unwrap_or(0)
                .max(20)
                .saturating_add(2);
            let w = u16::try_from(widest)
                .unwrap_or(u16::MAX)
                .min(area.width / 2);
            let split = Layout::default()
                .direction(Direction::Horizontal)
                .constraints([Constraint::Length(w), Constraint::Min(10)])
                .split(rows[3]);
            (Some(split[0]), split[1])
        }
        None => (None, rows[3]),
    };
    if let (Some(area), Some((title, lines))) = (round_area, &o.round) {
        let text: Vec<Line> = lines.iter().map(|l| Line::from(strip_control(l))).collect();
        frame.render_widget(
            Paragraph::new(text).block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(strip_control(title)),
            ),
            area,
        );
    }
    let room = usize::from(recent_area.height.saturating_sub(2));
    let recent: Vec<Line> = o
        .recent
        .iter()
        .skip(o.recent.len().saturating_sub(room))
        .map(|l| Line::from(strip_control(l)))
        .collect();
    frame.render_widget(
        Paragraph::new(recent).block(Block::default().borders(Borders::ALL).title("Latest")),
        recent_area,
    );
    let bottom = o.notice.clone().unwrap_or_else(|| {
        let mut keys = KEYS.to_string();
        if o.can_withdraw {
            keys.push_str(WITHDRAW_KEY);
        }
        keys
    });
    frame.render_widget(Paragraph::new(bottom), rows[4]);
}

fn boards(frame: &mut Frame, area: Rect, lines: &[BoardLine]) {
    let header = Row::new([
        "#", "game", "White", "Black", "clock W", "clock B", "plies", "last", "status",
    ])
    .style(Style::default().add_modifier(Modifier::BOLD));
    let rows = lines.iter().map(|b| {
        Row::new([
            b.board.to_string(),
            strip_control(&b.game),
            strip_control(&b.white),
            strip_control(&b.black),
            b.clocks[0].clone(),
            b.clocks[1].clone(),
            if b.status == "free" {
                String::new()
            } else {
                b.plies.to_string()
            },
            b.last.clone(),
            b.status.clone(),
        ])
    });
    // The board number and the game's label are as wide as the widest
    // (a hundred boards, `game 1234, round 32.10`): cut, they would name
    // another game.
    let widest = |min: usize, width: &dyn Fn(&BoardLine) -> usize| {
        let w = lines.iter().map(width).max().unwrap_or(0).max(min);
        Constraint::Length(u16::try_from(w).unwrap_or(u16::MAX))
    };
    let widths = [
        widest(2, &|b| b.board.to_string().len()),
        widest(18, &|b| strip_control(&b.game).chars().count()),
        Constraint::Fill(2),
        Constraint::Fill(2),
        Constraint::Length(9),
        Constraint::Length(9),
        Constraint::Length(5),
        Constraint::Length(7),
        Constraint::Length(12),
    ];
    frame.render_widget(
        Table::new(rows, widths)
            .header(header)
            .block(Block::default().borders(Borders::ALL).title("Boards")),
        area,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    /// Every cell of the test terminal, row after row.
    fn screen_of(t: &Terminal<TestBackend>) -> String {
        t.backend()
            .buffer()
            .content()
            .iter()
            .map(|c| c.symbol())
            .collect()
    }

    #[test]
    fn the_overview_shows_every_board_the_standings_and_the_latest() {
        let o = Overview {
            title: "club: 1 of 6 games decided".into(),
            boards: vec![
                BoardLine {
                    board: 1,
                    game: "game 2, round 1.2".into(),
                    white: "alpha".into(),
                    black: "beta\u{1b}[2J".into(),
                    clocks: ["0:59.9".into(), "1:00.0".into()],
                    plies: 3,
                    last: "Nf3".into(),
                    status: "playing".into(),
                },
                BoardLine::free(2),
            ],
            standings: vec!["Rank  Player  Points".into(), "   1  alpha        1".into()],
            round: None,
            recent: vec!["game 1 (round 1.1): gamma - delta 1-0 (normal)".into()],
            notice: None,
            can_withdraw: false,
        };
        let mut t = Terminal::new(TestBackend::new(100, 24)).unwrap();
        t.draw(|f| render(f, &o)).unwrap();
        let screen = screen_of(&t);
        for want in [
            "club: 1 of 6 games decided",
            "game 2, round 1.2",
            "alpha",
            "0:59.9",
            "Nf3",
            "playing",
            "free",
            "Standings",
            "gamma - delta 1-0",
            "1-9 show a board",
        ] {
            assert!(
                screen.contains(want),
                "{want:?} not on the screen:\n{screen}"
            );
        }
        assert!(!screen.contains('\u{1b}'));
    }

    #[test]
    fn a_swiss_overview_shows_the_round_beside_the_latest_and_the_withdraw_key() {
        let o = Overview {
            title: "open: 4 of 9 games decided".into(),
            boards: vec![BoardLine::free(1)],
            standings: vec!["Rank  Player  Points".into()],
            round: Some((
                "round 2 of 3".into(),
                vec![
                    "1. dee - ada  1-0".into(),
                    "2. gus - cyd\u{7}  playing on board 1".into(),
                    "bob has a bye it asked for (1/2 point)".into(),
                ],
            )),
            recent: vec!["round 2 paired: 1. dee - ada".into()],
            notice: None,
            can_withdraw: true,
        };
        let mut t = Terminal::new(TestBackend::new(100, 16)).unwrap();
        t.draw(|f| render(f, &o)).unwrap();
        let screen = screen_of(&t);
        for want in [
            "round 2 of 3",
            "1. dee - ada  1-0",
            "2. gus - cyd  playing on board 1",
            "bob has a bye it asked for (1/2 point)",
            "Latest",
            "round 2 paired",
            "x withdraw a player",
        ] {
            assert!(
                screen.contains(want),
                "{want:?} not on the screen:\n{screen}"
            );
        }
        assert!(!screen.contains('\u{7}'));
    }

    #[test]
    fn a_long_game_label_and_a_three_digit_board_are_not_cut() {
        let line = BoardLine {
            board: 100,
            game: "game 1234, round 32.10".into(),
            white: "alpha".into(),
            black: "beta".into(),
            clocks: ["0:59.9".into(), "1:00.0".into()],
            plies: 3,
            last: "Nf3".into(),
            status: "playing".into(),
        };
        let mut t = Terminal::new(TestBackend::new(120, 6)).unwrap();
        t.draw(|f| boards(f, f.area(), &[line])).unwrap();
        let screen = screen_of(&t);
        for want in ["100 ", "game 1234, round 32.10 "] {
            assert!(screen.contains(want), "{want:?} cut:\n{screen}");
        }
    }
}
