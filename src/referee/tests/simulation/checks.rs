//! The checks the simulation applies to what the referee produces: every
//! record it sends, every snapshot, every finished game.

use shakmaty::{ByColor, Chess, Color, Position};

use crate::clock::{TimeControl, parse_time_command};
use crate::epd::Record;
use crate::game::{self, AutomaticEnd, Game};
use crate::record::pgn::PgnGame;
use crate::record::pgn::write_pgn;
use crate::record::pgn_read::read_pgn_games;
use crate::referee::snapshot::{ClientView, ClockView, Phase, ResultView};
use crate::referee::{
    ByClient, ClientId, Ending, GameOver, GameResult, Referee, Snapshot, Termination,
};

use super::spec::{Offence, OffenceKind};

/// No clock in these tests can show more than this (the longest control
/// used plus a generous allowance for increments); a larger value means an
/// underflow that wrapped around.
const CLOCK_CAP_MS: u64 = 24 * 3_600_000;
/// How many events the core keeps for the display.
const EVENT_LIMIT: usize = 200;

/// Checks a record the referee sends: it parses as EPD, and its `sm`, if
/// any, is a legal move in the record's position. Returns the record.
pub fn check_sent_record(text: &str) -> Record {
    let rec = Record::parse(text)
        .unwrap_or_else(|e| panic!("the referee sent a record that does not parse ({e}): {text}"));
    assert!(
        matches!(rec.refcom(), Ok(Some(_))),
        "the referee sent a record without a valid refcom: {text}"
    );
    match rec.sm() {
        Ok(None) => {}
        Ok(Some(sm)) => {
            let pos = game::position_from_fields(
                &rec.fields,
                rec.hmvc().ok().flatten(),
                rec.fmvn().ok().flatten(),
            )
            .unwrap_or_else(|e| panic!("record with sm in an illegal position ({e}): {text}"));
            if let Err(e) = game::parse_san(&pos, sm) {
                panic!("the referee sent an illegal sm ({e}): {text}");
            }
        }
        Err(e) => panic!("the referee sent a malformed sm ({e}): {text}"),
    }
    rec
}

/// Checks a snapshot: clocks in range, events bounded, score sensible.
pub fn check_snapshot(snap: &Snapshot, tc: &TimeControl) {
    for color in [Color::White, Color::Black] {
        let c = snap.clock(color);
        assert!(
            c.used_ms <= snap.at_ms,
            "{color:?} used {} ms of a session {} ms long",
            c.used_ms,
            snap.at_ms
        );
        match c.remaining_ms {
            Some(r) => {
                assert!(tc.is_timed(), "an untimed game shows a remaining time");
                assert!(r <= CLOCK_CAP_MS, "{color:?} clock shows {r} ms: wrapped");
            }
            None => assert!(!tc.is_timed(), "a timed game shows no remaining time"),
        }
        if c.flagged {
            assert_eq!(c.remaining_ms, Some(0), "a fallen flag shows time left");
            assert!(!c.running, "a fallen flag's clock still runs");
        }
    }
    assert!(
        !(snap.clocks.white.running && snap.clocks.black.running),
        "both clocks run"
    );
    if let TimeControl::Sandclock { total_ms } = tc
        && let (Some(w), Some(b)) = (
            snap.clocks.white.remaining_ms,
            snap.clocks.black.remaining_ms,
        )
    {
        assert!(
            w + b <= *total_ms,
            "sandclock holds {} ms of {total_ms}",
            w + b
        );
    }
    assert!(snap.events.len() <= EVENT_LIMIT, "events unbounded");
    assert!(
        snap.score_halves.a + snap.score_halves.b <= 2 * snap.game_number,
        "more points than games"
    );
}

/// What the harness knows about the game besides the referee's output.
pub struct GameContext<'a> {
    /// The referee's snapshot right after the game ended.
    pub snapshot: &'a Snapshot,
    pub time_control: &'a TimeControl,
    /// Offences received so far in the match.
    pub offences: &'a [Offence],
    /// The client that stopped answering in this game, if any.
    pub hung: Option<ClientId>,
}

/// Checks a finished game: its PGN replays legally to the referee's final
/// position, its `[%clk]` values read back, and its result is what the
/// rules (and policies) say for the way it ended. Returns its plies.
pub fn check_game_over(over: &GameOver, ctx: &GameContext<'_>) -> usize {
    let snap = ctx.snapshot;
    let label = format!(
        "game {} ({} {})",
        over.game_number,
        over.result.as_str(),
        over.ending
    );
    check_snapshot_result(over, snap, &label);

    let (text, replay) = replay_pgn(over, &label);
    check_replay_reaches_snapshot(&replay, snap, &label);

    let timed_moves = over.pgn.moves.iter().filter(|m| m.clk_ms.is_some()).count();
    check_clock_comments(&text, ctx.time_control, timed_moves, &label);

    check_result_for_ending(over, ctx, &replay, &label);
    if let Some(hung) = ctx.hung {
        check_hung_client_lost_on_time(over, snap, replay.position().turn(), hung, &label);
    }
    replay.ply()
}

/// The snapshot shows the game's result.
fn check_snapshot_result(over: &GameOver, snap: &Snapshot, label: &str) {
    assert!(
        snap.result
            .as_ref()
            .is_some_and(|r| r.result == over.result.as_str()),
        "{label}: snapshot result {:?}",
        snap.result
    );
}

/// The replayed PGN starts, goes and ends where the referee's game did.
fn check_replay_reaches_snapshot(replay: &Game, snap: &Snapshot, label: &str) {
    assert_eq!(replay.start(), &snap.start, "{label}: PGN start position");
    assert_eq!(replay.sans(), snap.sans.as_slice(), "{label}: moves");
    assert_eq!(
        game::fen_of(replay.position()),
        game::fen_of(&snap.position),
        "{label}: final position"
    );
}

/// The result agrees with the final position and the way it ended.
fn check_result_for_ending(over: &GameOver, ctx: &GameContext<'_>, replay: &Game, label: &str) {
    match (replay.automatic_end(), over.termination) {
        (Some(end), Termination::Normal) => check_automatic_end(over, end, label),
        (Some(end), t) => panic!("{label}: the position ended the game ({end:?}) but {t:?}"),
        (None, Termination::TimeForfeit) => check_time_forfeit(over, ctx, replay, label),
        (None, Termination::Normal) => check_draw_claim(over, replay, label),
        (None, Termination::RulesInfraction) => check_rules_forfeit(over, ctx, replay, label),
        (None, t) => panic!("{label}: unexpected termination {t:?}"),
    }
}

/// A game the position ended (mate, stalemate, ...) has that end's result.
fn check_automatic_end(over: &GameOver, end: AutomaticEnd, label: &str) {
    assert_eq!(over.result.as_str(), end.result(), "{label}: {end:?}");
    if let AutomaticEnd::Checkmate { winner } = end {
        assert_eq!(over.result, GameResult::Win(winner), "{label}");
    }
}

/// A flag fell, in a timed game, for the side on move only, and the
/// result is a win for the other side if it can mate, else a draw.
fn check_time_forfeit(over: &GameOver, ctx: &GameContext<'_>, replay: &Game, label: &str) {
    let snap = ctx.snapshot;
    let fin = replay.position();
    let to_move = fin.turn();
    assert!(
        ctx.time_control.is_timed(),
        "{label}: flag in an untimed game"
    );
    let clock = snap.clock(to_move);
    assert!(clock.flagged, "{label}: the side on move shows no flag");
    assert_eq!(clock.remaining_ms, Some(0), "{label}: flag with time left");
    assert!(!snap.clock(!to_move).flagged, "{label}: both flags");
    let expected = if game::can_mate(fin, !to_move) {
        GameResult::Win(!to_move)
    } else {
        GameResult::Draw
    };
    assert_eq!(over.result, expected, "{label}: flag result");
}

/// Only a valid draw claim ends a game normally here (the simulated
/// clients never resign, offer or accept draws): a draw, claimed on
/// grounds in the final position or after the move given with it.
fn check_draw_claim(over: &GameOver, replay: &Game, label: &str) {
    let fin = replay.position();
    assert_eq!(over.result, GameResult::Draw, "{label}");
    assert!(matches!(over.ending, Ending::DrawClaimed { .. }), "{label}");
    let with_move = over
        .pgn
        .final_comment
        .as_deref()
        .and_then(|c| c.split_once("with the move "))
        .map(|(_, m)| m.trim().to_string());
    let valid = replay.claimable_draw().is_some()
        || with_move.is_some_and(|m| {
            game::parse_san(fin, &m)
                .ok()
                .and_then(|mv| replay.claimable_draw_after(&mv))
                .is_some()
        });
    assert!(valid, "{label}: draw claimed without grounds");
}

/// A forfeit for a rules infraction is a loss for the side on move, whose
/// client committed an offence in this game.
fn check_rules_forfeit(over: &GameOver, ctx: &GameContext<'_>, replay: &Game, label: &str) {
    let to_move = replay.position().turn();
    assert_eq!(over.result, GameResult::Win(!to_move), "{label}");
    let offender = ctx
        .snapshot
        .client_of(to_move)
        .map(|c| c.id)
        .expect("the side on move has a client");
    let offended = ctx.offences.iter().any(|o| {
        o.game == over.game_number
            && o.client == offender
            && matches!(
                o.kind,
                OffenceKind::BadEcho
                    | OffenceKind::Illegal
                    | OffenceKind::Unparsable
                    | OffenceKind::FalseClaim
            )
    });
    assert!(
        offended,
        "{label}: forfeit without an offence by {offender:?}"
    );
}

/// A client that stopped answering lost the game on time, on move.
fn check_hung_client_lost_on_time(
    over: &GameOver,
    snap: &Snapshot,
    to_move: Color,
    hung: ClientId,
    label: &str,
) {
    assert_eq!(
        over.termination,
        Termination::TimeForfeit,
        "{label}: a client that stopped answering must lose on time"
    );
    assert_eq!(snap.client_of(to_move).map(|c| c.id), Some(hung), "{label}");
}

/// Writes the game's PGN, reads it back and replays its moves from its
/// `FEN` tag (or the initial position): the tags and result must read back
/// and every move must be legal. Returns the PGN text and the game.
pub fn replay_pgn(over: &GameOver, label: &str) -> (String, Game) {
    let text = write_pgn(&over.pgn);
    let games = read_pgn_games(&text).unwrap_or_else(|e| panic!("{label}: PGN unreadable: {e}"));
    assert_eq!(games.len(), 1, "{label}: one game in {text}");
    let pgn = &games[0];
    assert_eq!(pgn.result.as_deref(), Some(over.result.as_str()), "{label}");
    assert_eq!(pgn.tag("Result"), Some(over.result.as_str()), "{label}");
    assert_eq!(pgn.tag("Termination"), Some(over.termination.as_str()));
    let start = match pgn.tag("FEN") {
        Some(fen) => game::position_from_fen(fen).unwrap_or_else(|e| panic!("{label}: FEN: {e}")),
        None => Chess::default(),
    };
    let mut replay = Game::new(start);
    for san in &pgn.sans {
        if let Err(e) = replay.play_san(san) {
            panic!("{label}: PGN move {san} does not replay ({e}):\n{text}");
        }
    }
    assert_eq!(
        replay.ply(),
        over.pgn.moves.len(),
        "{label}: every move read back"
    );
    (text, replay)
}

/// Every `[%clk]` and `[%emt]` in the PGN reads back as a time, and the
/// number of `[%clk]` matches the timed moves.
fn check_clock_comments(text: &str, tc: &TimeControl, timed_moves: usize, label: &str) {
    let movetext = text.split_once("\n\n").map_or("", |(_, m)| m);
    let mut clk = 0usize;
    let mut rest = movetext;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            panic!("{label}: unclosed comment in {text}");
        };
        let comment = &after[..close];
        for name in ["clk", "emt"] {
            if let Some(v) = parse_time_command(comment, name) {
                let ms = v.unwrap_or_else(|e| panic!("{label}: {e} in {comment:?}"));
                assert!(ms <= CLOCK_CAP_MS, "{label}: [%{name}] {ms} ms");
                if name == "clk" {
                    clk += 1;
                }
            }
        }
        rest = &after[close + 1..];
    }
    assert_eq!(
        clk, timed_moves,
        "{label}: [%clk] comments written and read"
    );
    if !tc.is_timed() {
        assert_eq!(clk, 0, "{label}: [%clk] in an untimed game");
    }
}

/// The parts of the referee's state a rejected line must not change.
#[derive(Debug, Clone, PartialEq)]
pub struct Fingerprint {
    pub phase: Phase,
    pub fen: String,
    pub sans: Vec<String>,
    pub clocks: ByColor<ClockView>,
    pub score: ByClient<u32>,
    pub result: Option<ResultView>,
    pub game_number: u32,
    pub clients: ByClient<ClientView>,
    pub live_pgn: Option<PgnGame>,
    pub deadline: Option<u64>,
}

impl Fingerprint {
    /// The referee's state at `at`.
    pub fn of(r: &Referee, at: u64) -> Fingerprint {
        let s: Snapshot = r.snapshot(at);
        Fingerprint {
            phase: s.phase,
            fen: game::fen_of(&s.position),
            sans: s.sans,
            clocks: s.clocks,
            score: s.score_halves,
            result: s.result,
            game_number: s.game_number,
            clients: s.clients,
            live_pgn: r.live_pgn(at),
            deadline: r.next_deadline(),
        }
    }
}
