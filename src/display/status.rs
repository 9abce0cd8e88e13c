//! The status bar: both links (port, settings, up or LOST, byte counts),
//! the session phase, the viewer's role, a notice, and the key hint.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use shakmaty::Position;

use super::clock::color_name;
use super::role::Role;
use super::style;
use crate::referee::Snapshot;
use crate::referee::snapshot::{ClientView, Phase};
use crate::text::strip_control;

/// Whether a link works, as its status line says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkState {
    /// Open and working (`up`).
    Up,
    /// It was up and went away (`LOST`).
    Lost,
    /// A connection argus makes (`tcp://HOST:PORT`) that cannot be made
    /// yet, refused or unanswered (`UNREACHABLE`; the log says why).
    Unreachable,
}

impl LinkState {
    /// [`LinkState::Up`] or [`LinkState::Lost`].
    pub fn up_or_lost(up: bool) -> LinkState {
        if up { LinkState::Up } else { LinkState::Lost }
    }
}

/// The state of one serial link, as the caller (the link layer) knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkView {
    /// The port name, e.g. `/dev/ttyS0` or `COM1`.
    pub port: String,
    /// Line settings for people, e.g. `9600 8N1`.
    pub settings: String,
    /// Whether the link works, was lost, or cannot be made.
    pub state: LinkState,
    /// Bytes received from the client so far.
    pub bytes_in: u64,
    /// Bytes sent to the client so far.
    pub bytes_out: u64,
}

/// Formats a byte count compactly: `999`, `1.2k`, `34.5M`, `6.7G`.
pub fn format_bytes(n: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1_000_000_000, "G"), (1_000_000, "M"), (1_000, "k")];
    for (size, unit) in UNITS {
        if n >= size {
            return format!("{}.{}{unit}", n / size, n % size / (size / 10));
        }
    }
    n.to_string()
}

/// What the session is doing, for the status bar.
pub fn phase_text(snap: &Snapshot) -> String {
    match &snap.phase {
        Phase::WaitingForSignOn => {
            let who: Vec<String> = snap
                .clients
                .values()
                .map(|c| {
                    let state = if c.signed_on { "signed on" } else { "waiting" };
                    format!("{} {state}", c.id.letter())
                })
                .collect();
            format!("waiting for sign-on: {}", who.join(", "))
        }
        Phase::Starting => format!("starting {}", snap.game_label()),
        Phase::Playing => format!("playing: {} to move", color_name(snap.position.turn())),
        Phase::Paused { reason } => format!("PAUSED: {}", strip_control(&reason.to_string())),
        Phase::GameOver => match &snap.result {
            Some(r) => format!(
                "game over: {} {}",
                strip_control(&r.result),
                strip_control(&r.ending.to_string())
            ),
            None => "game over".to_string(),
        },
        Phase::SessionOver => "session over".to_string(),
    }
}

/// The match statistics, between games and at the end (while a game is on
/// the row is for the phase and notices).
pub fn stats_text(snap: &Snapshot) -> Option<String> {
    match (&snap.phase, &snap.stats) {
        (Phase::GameOver | Phase::SessionOver, Some(stats)) => Some(stats.short()),
        _ => None,
    }
}

/// The spans of one link: letter, port (shortened from the left so that
/// the line fits `width`), settings, state, byte counts, and whether its
/// client has signed on.
fn link_spans(
    letter: &str,
    link: &LinkView,
    client: &ClientView,
    width: usize,
) -> Vec<Span<'static>> {
    let settings = strip_control(&link.settings);
    let state = match link.state {
        LinkState::Up => Span::styled("up", style::link_up()),
        LinkState::Lost => Span::styled(" LOST ", style::alarm()),
        LinkState::Unreachable => Span::styled(" UNREACHABLE ", style::alarm()),
    };
    let counters = format!(
        "  in {}  out {}",
        format_bytes(link.bytes_in),
        format_bytes(link.bytes_out)
    );
    let client = match (client.signed_on, client.line_check) {
        (true, true) => "  signed on, lines checked",
        (true, false) => "  signed on",
        (false, _) => "  not signed on",
    };
    let fixed = letter.len()
        + 1
        + 2
        + settings.chars().count()
        + 2
        + state.width()
        + counters.len()
        + client.len();
    let port = shorten_left(
        &strip_control(&link.port),
        width.saturating_sub(fixed).max(1),
    );
    vec![
        Span::styled(format!("{letter} "), style::title()),
        Span::raw(port),
        Span::raw("  "),
        Span::styled(settings, style::dim()),
        Span::raw("  "),
        state,
        Span::styled(counters, style::dim()),
        Span::styled(client, style::dim()),
    ]
}

/// `s` cut to at most `max` characters by dropping its start (the end of a
/// port name is the part that tells ports apart), marked with `…`.
fn shorten_left(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        return s.to_string();
    }
    let keep = max.saturating_sub(1);
    let tail: String = s.chars().skip(n - keep).collect();
    format!("…{tail}")
}

/// Draws the two status rows into `area`.
pub fn render_status(
    frame: &mut Frame,
    area: Rect,
    snap: &Snapshot,
    links: &[LinkView; 2],
    role: Role,
    notice: Option<&str>,
    waiting: &[String],
) {
    let width = usize::from(area.width);
    for (i, (link, client)) in links.iter().zip(snap.clients.values()).enumerate() {
        let Some(y) = u16::try_from(i).ok().filter(|&i| i < area.height) else {
            return;
        };
        let spans = link_spans(client.id.letter(), link, client, width);
        frame.render_widget(
            Paragraph::new(Line::from(spans)),
            Rect::new(area.x, area.y + y, area.width, 1),
        );
    }
    if area.height < 3 {
        return;
    }
    let mut hint = Vec::new();
    // The pause key only where it does something.
    let pause = match snap.phase {
        Phase::Playing => Some(" pause  "),
        Phase::Paused { .. } => Some(" resume  "),
        _ => None,
    };
    if let (Role::Referee, Some(pause)) = (role, pause) {
        hint.push(Span::styled("space", style::key()));
        hint.push(Span::raw(pause));
    }
    hint.extend([
        Span::styled("?", style::key()),
        Span::raw(" help  "),
        Span::styled("q", style::key()),
        Span::raw(" quit"),
    ]);
    let hint = Line::from(hint);
    let hint_w = u16::try_from(hint.width())
        .unwrap_or(u16::MAX)
        .min(area.width);
    let mut left = Vec::new();
    if role == Role::Observer {
        left.push(Span::styled("observer", style::key()));
        left.push(Span::raw(" · "));
    }
    let phase_style = match snap.phase {
        Phase::Paused { .. } => style::notice(),
        _ => ratatui::style::Style::new(),
    };
    // Whom the session waits for says more than the phase while it waits
    // for a sign-on; otherwise it follows the phase.
    if waiting.is_empty() || snap.phase != Phase::WaitingForSignOn {
        left.push(Span::styled(phase_text(snap), phase_style));
    }
    if !waiting.is_empty() {
        if snap.phase != Phase::WaitingForSignOn {
            left.push(Span::raw(" · "));
        }
        let words: Vec<String> = waiting.iter().map(|w| strip_control(w)).collect();
        left.push(Span::styled(words.join("; "), style::notice()));
    }
    if let Some(stats) = stats_text(snap) {
        left.push(Span::raw(" · "));
        left.push(Span::styled(stats, style::dim()));
    }
    if let Some(n) = notice {
        left.push(Span::raw("  "));
        left.push(Span::styled(n.to_string(), style::notice()));
    }
    let y = area.y + 2;
    let left_w = area.width - hint_w;
    frame.render_widget(
        Paragraph::new(Line::from(left)),
        Rect::new(area.x, y, left_w.saturating_sub(1), 1),
    );
    frame.render_widget(
        Paragraph::new(hint.right_aligned()),
        Rect::new(area.x + left_w, y, hint_w, 1),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::ClientId;
    use crate::referee::event::PauseReason;

    #[test]
    fn bytes_format() {
        assert_eq!(format_bytes(0), "0");
        assert_eq!(format_bytes(999), "999");
        assert_eq!(format_bytes(1_000), "1.0k");
        assert_eq!(format_bytes(12_345), "12.3k");
        assert_eq!(format_bytes(34_567_890), "34.5M");
        assert_eq!(format_bytes(u64::MAX), "18446744073.7G");
    }

    #[test]
    fn long_port_names_keep_their_end() {
        assert_eq!(shorten_left("/dev/ttyS0", 20), "/dev/ttyS0");
        assert_eq!(
            shorten_left("/dev/serial/by-id/usb-FTDI-A1B2", 8),
            "…DI-A1B2"
        );
        assert_eq!(shorten_left("abc", 1), "…");
        assert_eq!(shorten_left("abc", 0), "…");
    }

    #[test]
    fn link_fits_its_half() {
        let link = LinkView {
            port: "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A1B2C3-if00-port0".into(),
            settings: "115200 8N1".into(),
            state: LinkState::Lost,
            bytes_in: 123_456_789,
            bytes_out: 42,
        };
        let mut client = crate::display::testkit::client(ClientId::A, "x", "x", None);
        client.signed_on = false;
        let spans = link_spans("A", &link, &client, 79);
        let w: usize = spans.iter().map(Span::width).sum();
        assert!(w <= 79, "{w}");
        let text: String = spans.iter().map(|s| s.content.to_string()).collect();
        assert!(text.contains("LOST") && text.contains("port0"), "{text}");
        let unreachable = LinkView {
            state: LinkState::Unreachable,
            ..link
        };
        let text: String = link_spans("A", &unreachable, &client, 79)
            .iter()
            .map(|s| s.content.to_string())
            .collect();
        assert!(
            text.contains("UNREACHABLE") && !text.contains("LOST"),
            "{text}"
        );
        assert!(
            text.contains("123.4M") && text.contains("not signed on"),
            "{text}"
        );
    }

    #[test]
    fn statistics_show_between_games() {
        let mut stats = crate::stats::MatchStats::default();
        stats.record(1, Some(crate::stats::GameScore::Win));
        stats.record(2, Some(crate::stats::GameScore::Draw));
        let mut snap = crate::display::testkit::snapshot(None, &[]);
        snap.stats = Some(stats.report(None));
        assert_eq!(stats_text(&snap), None, "not while a game is on");
        snap.phase = Phase::GameOver;
        let text = stats_text(&snap).unwrap();
        assert!(text.starts_with("W-D-L 1-1-0, Elo +191 +/- "), "{text}");
        snap.phase = Phase::SessionOver;
        assert!(stats_text(&snap).is_some());
        snap.stats = None;
        assert_eq!(stats_text(&snap), None);
    }

    #[test]
    fn client_strings_lose_control_characters() {
        let mut snap = crate::display::testkit::snapshot(None, &[]);
        snap.phase = Phase::Paused {
            reason: PauseReason::ClientFault {
                client: ClientId::A,
                name: "fault\x1b[31m\x07 by A".into(),
            },
        };
        assert_eq!(
            phase_text(&snap),
            "PAUSED: A: fault[31m by A reported a fault (refreq fault)"
        );
        let link = LinkView {
            port: "COM1\x1b[2J".into(),
            settings: "9600\r8N1".into(),
            state: LinkState::Up,
            bytes_in: 0,
            bytes_out: 0,
        };
        let mut client = crate::display::testkit::client(ClientId::A, "x", "x", None);
        let text = |client: &ClientView| -> String {
            link_spans("A", &link, client, 80)
                .iter()
                .map(|s| s.content.to_string())
                .collect()
        };
        assert_eq!(
            text(&client),
            "A COM1[2J  96008N1  up  in 0  out 0  signed on"
        );
        client.line_check = true;
        assert_eq!(
            text(&client),
            "A COM1[2J  96008N1  up  in 0  out 0  signed on, lines checked"
        );
    }
}
