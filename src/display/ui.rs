//! The view state of the live board and the drawing of one whole screen.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use shakmaty::{Color, Position};

use super::board::{BoardLook, board_lines};
use super::clock::{color_name, player_lines};
use super::keys::Pending;
use super::layout::{self, MIN_HEIGHT, MIN_WIDTH};
use super::log::log_lines;
use super::moves::move_lines;
use super::overlay::{render_help, render_prompt};
use super::role::Role;
use super::status::{LinkView, render_status};
use super::style;
use crate::referee::Snapshot;
use crate::referee::snapshot::Phase;
use crate::text::points;
use crate::text::strip_control;

/// The view state of the live board: orientation, piece set, help, a pending
/// confirmation, log scrolling and the last notice.
///
/// The display decides nothing about the game: [`Ui::render`] draws a
/// [`Snapshot`] as it is, and [`Ui::handle_key`] turns keys into
/// [`Command`](super::Command)s for the caller to send to the referee core.
#[derive(Debug, Clone)]
pub struct Ui {
    pub(super) ascii: bool,
    pub(super) role: Role,
    pub(super) flipped: bool,
    pub(super) help_open: bool,
    pub(super) pending: Option<Pending>,
    /// Events scrolled back from the newest (0 follows the newest).
    pub(super) log_scroll: usize,
    /// A short message about the last key (e.g. why it did nothing).
    pub(super) notice: Option<String>,
    /// Whom the session waits for, in words (`waiting for NAME since
    /// HH:MM:SS`), for the status bar's bottom line.
    pub(super) waiting: Vec<String>,
}

impl Ui {
    /// A view with White at the bottom. `ascii` draws pieces as letters
    /// (upper case White, lower case Black) for terminals that draw the
    /// chess glyphs as wide emoji; `role` decides which keys work.
    pub fn new(ascii: bool, role: Role) -> Ui {
        Ui {
            ascii,
            role,
            flipped: false,
            help_open: false,
            pending: None,
            log_scroll: 0,
            notice: None,
            waiting: Vec::new(),
        }
    }

    /// Whom the session waits for, in words (`waiting for NAME since
    /// HH:MM:SS`; none: nobody), shown on the status bar's bottom line.
    pub fn set_waiting(&mut self, waiting: Vec<String>) {
        self.waiting = waiting;
    }

    /// Whether Black is drawn at the bottom.
    pub fn is_flipped(&self) -> bool {
        self.flipped
    }

    /// Whether pieces are drawn as letters.
    pub fn is_ascii(&self) -> bool {
        self.ascii
    }

    /// Whether the key help is shown.
    pub fn is_help_open(&self) -> bool {
        self.help_open
    }

    /// Whether a question (y/n, or which client) waits for an answer.
    pub fn is_asking(&self) -> bool {
        self.pending.is_some()
    }

    /// The viewer's role.
    pub fn role(&self) -> Role {
        self.role
    }

    /// Draws the whole screen for `snap` at `now_ms` (ms since the session
    /// started; running clocks count down from the snapshot to it), with the
    /// two links' states in the status bar. Draws only; changes nothing. A
    /// terminal smaller than 80x24 gets a message instead of the board.
    pub fn render(&self, frame: &mut Frame, snap: &Snapshot, links: &[LinkView; 2], now_ms: u64) {
        let area = frame.area();
        let Some(p) = layout::panes(area) else {
            // A question must stay answerable (q asks first).
            let question = self.pending.map(|pending| pending.question(snap));
            render_too_small(frame, area, question);
            return;
        };
        let (top, bottom) = if self.flipped {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        for (color, rect) in [(top, p.top_player), (bottom, p.bottom_player)] {
            let lines = player_lines(snap, color, now_ms, self.ascii);
            frame.render_widget(Paragraph::new(lines), rect);
        }
        let look = BoardLook {
            scale: p.scale,
            flipped: self.flipped,
            ascii: self.ascii,
        };
        frame.render_widget(Paragraph::new(board_lines(snap, look)), p.board);
        frame.render_widget(Paragraph::new(header_lines(snap)), p.header);

        let moves_block = titled("Moves");
        let inner = moves_block.inner(p.moves);
        let moves = move_lines(snap, inner.width, inner.height);
        frame.render_widget(Paragraph::new(moves).block(moves_block), p.moves);

        let log_title = if self.log_scroll > 0 {
            "Log (scrolled back; End: newest)"
        } else {
            "Log"
        };
        let log_block = titled(log_title);
        let inner = log_block.inner(p.log);
        let log = log_lines(&snap.events, inner.height, inner.width, self.log_scroll);
        frame.render_widget(Paragraph::new(log).block(log_block), p.log);

        render_status(
            frame,
            p.status,
            snap,
            links,
            self.role,
            self.notice.as_deref(),
            &self.waiting,
        );

        if self.help_open {
            render_help(frame, area, self.role);
        }
        if let Some(pending) = self.pending {
            let (question, answers) = pending.question(snap);
            render_prompt(frame, area, &question, answers);
        }
    }
}

/// A bordered block with a bold title.
fn titled(title: &str) -> Block<'_> {
    Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(format!(" {title} "), style::title()))
}

/// Game number, time control, match score, and the result or whose move.
fn header_lines(snap: &Snapshot) -> Vec<Line<'static>> {
    let game = Line::from(vec![
        Span::styled(
            {
                let mut label = snap.game_label();
                label[..1].make_ascii_uppercase();
                label
            },
            style::title(),
        ),
        Span::styled("  TimeControl ", style::dim()),
        Span::raw(strip_control(&snap.time_control)),
    ]);
    let (a, b) = (&snap.clients.a, &snap.clients.b);
    let score = Line::from(vec![
        Span::styled("Match  ", style::dim()),
        Span::raw(format!(
            "A {} - {} B",
            points(snap.score_halves.a),
            points(snap.score_halves.b)
        )),
        Span::styled(
            format!(
                "   A {}, B {}",
                strip_control(&a.name),
                strip_control(&b.name)
            ),
            style::dim(),
        ),
    ]);
    let third = match (&snap.result, &snap.phase) {
        (Some(r), _) => Line::from(vec![
            Span::styled(
                format!("Result {}", strip_control(&r.result)),
                style::result(),
            ),
            Span::raw(format!(
                "  {} ({})",
                strip_control(&r.ending.to_string()),
                strip_control(&r.termination)
            )),
        ]),
        (None, Phase::Playing | Phase::Paused { .. }) => Line::raw(format!(
            "Move {}, {} to move",
            snap.position.fullmoves(),
            color_name(snap.position.turn())
        )),
        (None, Phase::WaitingForSignOn) => {
            Line::styled("Waiting for the clients to sign on", style::dim())
        }
        (None, Phase::Starting) => {
            Line::styled("Starting: the clients set up the game", style::dim())
        }
        (None, Phase::GameOver | Phase::SessionOver) => Line::default(),
    };
    vec![game, score, third]
}

/// The message shown instead of the board when the terminal is too small,
/// with the open question (if any) below it.
fn render_too_small(frame: &mut Frame, area: Rect, question: Option<(String, &'static str)>) {
    let text = format!(
        "Terminal too small: {}x{}. argus needs at least {MIN_WIDTH}x{MIN_HEIGHT}; \
         enlarge the window or use a smaller font. (q quits)",
        area.width, area.height
    );
    let mut lines = vec![Line::styled(text, style::notice())];
    if let Some((question, answers)) = question {
        lines.push(Line::default());
        lines.push(Line::from(vec![
            Span::styled(question, style::notice()),
            Span::raw("  "),
            Span::styled(answers, style::key()),
        ]));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::display::testkit;
    use crate::referee::event::Ending;

    #[test]
    fn header_strips_client_strings_and_shows_the_score() {
        let mut snap = testkit::snapshot(None, &["e4"]);
        snap.clients.b.name = "Fritz\x1b[2J 5".into();
        snap.time_control = "40/7200\x1b[H".into();
        let text: Vec<String> = header_lines(&snap).iter().map(|l| l.to_string()).collect();
        assert_eq!(text[0], "Game 3 of 4  TimeControl 40/7200[H");
        assert_eq!(text[1], "Match  A 1½ - ½ B   A Crafty 23.4, B Fritz[2J 5");
        assert_eq!(text[2], "Move 1, Black to move");
        snap.result = Some(testkit::result("1/2-1/2\x07", Ending::Stalemate));
        let text: Vec<String> = header_lines(&snap).iter().map(|l| l.to_string()).collect();
        assert_eq!(text[2], "Result 1/2-1/2  Draw by stalemate (normal)");
    }
}
