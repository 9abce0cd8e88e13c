//! Snapshots for the display's tests, built by playing real moves.

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus};
use shakmaty::{ByColor, CastlingMode, Chess, Color, Position};

use crate::referee::event::{Ending, Event, FaultOutcome};
use crate::referee::snapshot::{ClientView, ClockView, EventKind, EventView, Phase, ResultView};
use crate::referee::{ByClient, ClientId, Snapshot};

/// A game in progress between A (White, "Crafty 23.4") and B (Black,
/// "Fritz 5"), from `fen` (or the start position) after `sans`, with the
/// side to move's clock running, taken at 60 s into the session.
pub fn snapshot(fen: Option<&str>, sans: &[&str]) -> Snapshot {
    let start: Chess = match fen {
        Some(f) => f
            .parse::<Fen>()
            .expect("test FEN parses")
            .into_position(CastlingMode::Standard)
            .expect("test FEN is legal"),
        None => Chess::default(),
    };
    let mut position = start.clone();
    let mut played = Vec::new();
    let mut last_move = None;
    for san in sans {
        let m = san
            .parse::<San>()
            .expect("test SAN parses")
            .to_move(&position)
            .expect("test SAN is legal");
        last_move = m.from().map(|from| (from, m.to()));
        played.push(SanPlus::from_move_and_play_unchecked(&mut position, m).to_string());
    }
    let white_to_move = position.turn() == Color::White;
    Snapshot {
        at_ms: 60_000,
        phase: Phase::Playing,
        start,
        position,
        sans: played,
        last_move,
        clients: ByClient {
            a: client(ClientId::A, "/dev/ttyS0", "Crafty 23.4", Some(Color::White)),
            b: client(ClientId::B, "/dev/ttyS1", "Fritz 5", Some(Color::Black)),
        },
        clocks: ByColor {
            white: clock(5_400_000, white_to_move),
            black: clock(6_012_300, !white_to_move),
        },
        time_control: "40/7200:3600".to_string(),
        game_number: 3,
        games_total: 4,
        score_halves: ByClient { a: 3, b: 1 },
        result: None,
        stats: None,
        events: vec![
            view(
                1_000,
                Event::LinkBack {
                    client: ClientId::A,
                },
            ),
            event(2_000, EventKind::Info, "Crafty 23.4"),
            view(
                2_500,
                Event::SignedOn {
                    client: ClientId::B,
                    name: "Fritz 5".into(),
                    again: false,
                    line_check: false,
                },
            ),
            view(
                7_500,
                Event::SilenceResend {
                    client: ClientId::B,
                    after_ms: 30_000,
                },
            ),
        ],
    }
}

/// A client view that is signed on with its link up.
pub fn client(id: ClientId, port: &str, name: &str, color: Option<Color>) -> ClientView {
    ClientView {
        id,
        port: port.to_string(),
        name: name.to_string(),
        signed_on: true,
        link_up: true,
        line_check: false,
        color,
    }
}

/// A clock with `remaining_ms` left.
pub fn clock(remaining_ms: u64, running: bool) -> ClockView {
    ClockView {
        remaining_ms: Some(remaining_ms),
        used_ms: 0,
        running,
        flagged: false,
    }
}

/// An event for the log at `at_ms`.
pub fn view(at_ms: u64, event: Event) -> EventView {
    EventView { at_ms, event }
}

/// A log event of `kind` about client A carrying `text` as its data: a
/// sign-on (Info, "A: TEXT signed on"), a sign-off (Warning), a fault
/// report (Fault), a dropped line (Rejected, "A: line dropped: TEXT") or
/// a lost link (Link, "A: link lost: TEXT").
pub fn event(at_ms: u64, kind: EventKind, text: &str) -> EventView {
    let (client, name, text) = (ClientId::A, text.to_string(), text.to_string());
    let event = match kind {
        EventKind::Info => Event::SignedOn {
            client,
            name,
            again: false,
            line_check: false,
        },
        EventKind::Warning => Event::SignedOff {
            client,
            name,
            clock_running: false,
        },
        EventKind::Fault => Event::ClientFault {
            client,
            name,
            outcome: FaultOutcome::Noted,
        },
        EventKind::Rejected => Event::LineDropped {
            client,
            reason: text,
        },
        EventKind::Link => Event::LinkLost {
            client,
            reason: text,
        },
    };
    EventView { at_ms, event }
}

/// A game result with termination `normal`.
pub fn result(result: &str, ending: Ending) -> ResultView {
    ResultView {
        result: result.to_string(),
        termination: "normal".to_string(),
        ending,
    }
}
