//! The settings and starts the scripted tests begin from, and the
//! snapshot state a rejected line must leave alone.

use shakmaty::Chess;

use crate::clock::{self, TimeControl};
use crate::game;
use crate::referee::settings::{Settings, Start};
use crate::referee::snapshot::Snapshot;

/// Settings for tests: no delays worth waiting for are needed (fake time),
/// but keep the spec's 5 s so transcripts show them; date fixed.
pub fn settings() -> Settings {
    Settings {
        event: "Test".into(),
        site: "Lab".into(),
        date: "2025.01.31".into(),
        ports: ["ttyS0".into(), "ttyS1".into()].into(),
        ..Settings::default()
    }
}

/// The same settings with lines of unknown speed: no wire-time credit and
/// no flag grace, so that times in assertions come out round.
pub fn no_credit(s: Settings) -> Settings {
    let line = clock::LineSettings {
        baud: 0,
        ..clock::LineSettings::default()
    };
    Settings {
        lines: [line, line].into(),
        ..s
    }
}

/// Settings with this PGN time control.
pub fn timed(tc: &str) -> Settings {
    Settings {
        time_control: tc.parse::<TimeControl>().expect("valid time control"),
        ..settings()
    }
}

/// A start position from a FEN with no opening moves.
pub fn from_fen(fen: &str) -> Start {
    Start {
        position: game::position_from_fen(fen).expect("valid FEN"),
        moves: Vec::new(),
        source: format!("test FEN {fen}"),
    }
}

/// A start from the initial position with these moves (SAN).
pub fn from_moves(sans: &[&str]) -> Start {
    let mut g = game::Game::new(Chess::default());
    let moves = sans
        .iter()
        .map(|s| g.play_san(s).expect("legal opening move"))
        .collect();
    Start {
        position: Chess::default(),
        moves,
        source: "test opening".into(),
    }
}

/// Settings whose single game starts at this FEN.
pub fn at_fen(fen: &str) -> Settings {
    Settings {
        opening: Some(from_fen(fen)),
        ..settings()
    }
}

/// Wire time of `bytes` at the default line (9600 8N1), ms.
pub fn wire_ms(bytes: usize) -> u64 {
    clock::wire_time_ms(bytes, &clock::LineSettings::default())
}

/// The state a rejected line must not change: everything in the snapshot
/// except the event log and the time it was taken.
pub fn state(s: &Snapshot) -> String {
    format!(
        "{:?} {} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        s.phase,
        game::fen_of(&s.position),
        s.sans,
        s.last_move,
        s.clients,
        s.clocks,
        s.score_halves,
        s.result,
        s.game_number
    )
}
