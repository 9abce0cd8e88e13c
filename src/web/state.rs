//! What the audience sees, as plain serializable values: the event, a list
//! of boards, and (for a tournament) the standings. Built from the
//! referee's [`Snapshot`] by pure functions; no I/O, no clock (the time a
//! state was true at is whoever built it's business: see
//! [`crate::web::hub`]).
//!
//! The JSON shape is documented in docs/web.md; the field names here are
//! that document's.

use serde::Serialize;
use shakmaty::{Color, Position};

use crate::game::fen_of;
use crate::record::pgn::PgnMove;
use crate::referee::ClientId;
use crate::referee::snapshot::{Phase, Snapshot};
use crate::web::analysis::{PlyState, SideEval, analysis_of};

/// Everything the page shows, in one document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct WebState {
    /// The event's name (the PGN `Event` tag).
    pub event: String,
    /// The boards, in board order (one for a match).
    pub boards: Vec<BoardState>,
    /// The standings of a tournament; `None` for a match.
    pub standings: Option<Standings>,
    /// A knockout's bracket (names stripped of control characters, still
    /// to be escaped where shown); left out for other events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub knockout: Option<crate::tournament::knockout::BracketData>,
    /// Whom the match or tournament waits for, in words (`waiting for
    /// NAME since HH:MM:SS`); left out when it waits for nobody.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub waiting: Vec<String>,
    /// A tournament's schedule, round by round (at most
    /// [`ROUNDS_GAMES_SHOWN`] games, the rounds nearest the current one);
    /// left out for a match.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rounds: Vec<RoundState>,
    /// The round being played: the first with a game not decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_round: Option<u32>,
}

/// The most games of a schedule the state carries (every state goes to
/// every viewer): the rounds nearest the current one, up to this many.
pub const ROUNDS_GAMES_SHOWN: usize = 400;

/// One round of a tournament's schedule: its pairings, and who has no
/// game in it. Round robin and gauntlet fill it from their schedule; a
/// Swiss or knockout round is the same data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundState {
    /// 1-based.
    pub round: u32,
    pub pairings: Vec<Pairing>,
    /// Players without a game in this round (a bye, a rest).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub byes: Vec<RoundBye>,
}

/// One game of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pairing {
    /// The game's number in the event (`/game/N.pgn`, `/game/N.json`).
    pub game: u32,
    /// Its place in the round's pairing table: the `B` of the PGN Round
    /// tag `R.B`.
    pub board: u32,
    /// Stripped of control characters; still to be escaped where shown.
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`, or a forfeit's `+/-`, `-/+`, `-/-`;
    /// `None` while not decided.
    pub result: Option<String>,
    /// The board it is being played on now, if it is.
    pub on_board: Option<u32>,
}

/// One board: who plays, the position, the clocks, the moves, the result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardState {
    /// 1-based board number.
    pub board: u32,
    /// The game's number in the event (the key of `/game/N.pgn`).
    pub game: u32,
    /// How many games the match has; `None` when open (the demo).
    pub games_total: Option<u32>,
    /// Stripped of control characters; still to be escaped where shown.
    pub white: String,
    pub black: String,
    /// `waiting`, `starting`, `playing`, `paused`, `over` (the game) or
    /// `finished` (the match or session).
    pub phase: &'static str,
    /// Why the clocks are stopped, when `phase` is `paused`.
    pub paused: Option<String>,
    /// The current position.
    pub fen: String,
    /// `white` or `black`: the side to move.
    pub turn: &'static str,
    /// The side to move is in check.
    pub check: bool,
    /// The last move's from and to squares (`["e2", "e4"]`).
    pub last_move: Option<[String; 2]>,
    /// White's clock, then Black's.
    pub clocks: [ClockState; 2],
    /// The PGN TimeControl, e.g. `40/7200:3600` or `180+2`.
    pub time_control: String,
    /// The moves in SAN, from the start position.
    pub moves: Vec<String>,
    /// The start position's full move number and whether Black moves first.
    pub first_move_number: u32,
    pub black_first: bool,
    /// Set once the game has ended.
    pub result: Option<ResultState>,
    /// Each move's time, the mover's clock after it and its score from
    /// White's view, aligned with `moves`.
    pub plies: Vec<PlyState>,
    /// White's last evaluation, then Black's (`None`: it sent none).
    pub analysis: [Option<SideEval>; 2],
    /// The last mover's expected continuation, from the current position
    /// (`[["g1","f3"], ...]`).
    pub pv_arrows: Vec<[String; 2]>,
}

/// One side's clock at the time of the state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ClockState {
    /// Time left in the current control; `None`: no clock.
    pub remaining_ms: Option<u64>,
    /// This clock runs (the page counts it down from the state's time).
    pub running: bool,
    /// This side's flag has fallen.
    pub flagged: bool,
}

/// A finished game's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResultState {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The PGN Termination value (`normal`, `time forfeit`, ...).
    pub termination: String,
    /// A sentence for people (`Black was checkmated`).
    pub reason: String,
}

/// A tournament's standings and crosstable, best first (filled by the
/// tournament).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Standings {
    pub rows: Vec<StandingRow>,
}

/// A player without a game in a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundBye {
    pub player: String,
    /// TRF's letter (`R` a round robin's rest): `U` the pairing-allocated bye, `H` a half-point bye
    /// asked for, `Z` a round without a point (a zero-point bye asked for,
    /// before a late entry, after a withdrawal).
    pub kind: String,
    pub points_halves: u32,
}

/// One tie-break of a standings row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TiebreakValue {
    /// As `--tiebreaks` names it (`buchholz-cut1`).
    pub name: String,
    /// The column head (`BH-C1`).
    pub short: String,
    /// As the report shows it (`12.5`).
    pub value: String,
}

/// One player's line in the standings and the crosstable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StandingRow {
    /// Stripped of control characters; still to be escaped where shown.
    pub name: String,
    /// 1-based; players equal on every tie-break share one.
    pub rank: u32,
    /// Points in half points (`3` is 1.5 points).
    pub points_halves: u32,
    pub games: u32,
    /// A Swiss event's tie-breaks, in the event's order; left out for a
    /// round robin or a gauntlet.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tiebreaks: Vec<TiebreakValue>,
    /// The crosstable's row: for each row of the standings (in their
    /// order), this player's results against that one, game by game (`1`
    /// win, `½` draw, `0` loss, `+` won by forfeit, `-` lost by forfeit,
    /// `.` not decided yet; empty when they do not meet); `None` against
    /// itself.
    pub cells: Vec<Option<String>>,
}

/// The phase's name in the JSON.
fn phase_name(phase: &Phase) -> &'static str {
    match phase {
        Phase::WaitingForSignOn => "waiting",
        Phase::Starting => "starting",
        Phase::Playing => "playing",
        Phase::Paused { .. } => "paused",
        Phase::GameOver => "over",
        Phase::SessionOver => "finished",
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Board `board` as the referee's snapshot shows it, with what the live
/// PGN keeps of each move (`moves`: the times and the evaluations).
pub fn board_of(snap: &Snapshot, board: u32, moves: &[PgnMove]) -> BoardState {
    let analysis = analysis_of(&snap.start, &snap.sans, moves);
    let name = |color: Color, fallback: ClientId| {
        snap.client_of(color)
            .unwrap_or(&snap.clients[fallback])
            .name
            .clone()
    };
    let clock = |color: Color| {
        let c = snap.clock(color);
        ClockState {
            remaining_ms: c.remaining_ms,
            running: c.running,
            flagged: c.flagged,
        }
    };
    BoardState {
        board,
        game: snap.game_number,
        games_total: (snap.games_total != u32::MAX).then_some(snap.games_total),
        white: name(Color::White, ClientId::A),
        black: name(Color::Black, ClientId::B),
        phase: phase_name(&snap.phase),
        paused: match &snap.phase {
            Phase::Paused { reason } => Some(reason.to_string()),
            _ => None,
        },
        fen: fen_of(&snap.position),
        turn: color_name(snap.position.turn()),
        check: snap.position.is_check(),
        last_move: snap
            .last_move
            .map(|(from, to)| [from.to_string(), to.to_string()]),
        clocks: [clock(Color::White), clock(Color::Black)],
        time_control: snap.time_control.clone(),
        moves: snap.sans.clone(),
        first_move_number: snap.start.fullmoves().get(),
        black_first: snap.start.turn() == Color::Black,
        result: snap.result.as_ref().map(|r| ResultState {
            result: r.result.clone(),
            termination: r.termination.clone(),
            reason: r.ending.to_string(),
        }),
        plies: analysis.plies,
        analysis: analysis.sides,
        pv_arrows: analysis.arrows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::{ByClient, ClientId};
    use crate::referee::{Input, Referee, Settings};

    fn sign_on(core: &mut Referee, id: ClientId, name: &str, at: u64) {
        let text = format!(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - refreq sign_on; tcsi \"x\" \"{name}\";"
        );
        core.handle(
            Input::Line {
                from: id,
                text,
                wire_bytes: 80,
                arrival: None,
            },
            at,
        );
    }

    #[test]
    fn a_board_before_the_game_shows_the_start_and_the_names_as_given() {
        let mut core = Referee::new(Settings {
            ports: ByClient::new("/dev/a".into(), "/dev/b".into()),
            ..Settings::default()
        });
        sign_on(&mut core, ClientId::A, "<img src=x onerror=alert(1)>", 0);
        let b = board_of(&core.snapshot(10), 1, &[]);
        assert_eq!(b.white, "<img src=x onerror=alert(1)>");
        assert_eq!(b.black, "/dev/b");
        assert_eq!(b.phase, "waiting");
        assert_eq!(
            b.fen,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(b.turn, "white");
        assert!(!b.check && b.last_move.is_none() && b.result.is_none());
        let json = serde_json::to_value(&b).unwrap();
        assert_eq!(json["clocks"][0]["running"], false);
        assert_eq!(json["games_total"], 1);
    }
}
