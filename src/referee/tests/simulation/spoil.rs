//! The lines a misbehaving simulated client writes: junk, strays, and its
//! own replies spoiled (wrong echo, illegal or unparsable move, claims).

use shakmaty::Position;

use crate::client::ClientProtocol;
use crate::epd::{Operation, Record, RefReq};
use crate::game::{self, Game};

/// A reply a client might send on its own: its position and a legal move
/// there (or none).
pub fn stray_reply(g: &Game, rng: &mut fastrand::Rng) -> String {
    let pos = g.position();
    let mut rec = Record::new(game::fields_of(pos)).with(Operation::refreq(RefReq::Reply));
    let moves = pos.legal_moves();
    if !moves.is_empty() {
        let m = &moves[rng.usize(..moves.len())];
        rec.set(Operation::sm(&game::san_of(pos, m)));
    }
    rec.to_canonical()
}

pub fn sign_off_record(p: &ClientProtocol) -> String {
    let pos = p
        .game()
        .map_or_else(shakmaty::Chess::default, |g| g.position().clone());
    Record::new(game::fields_of(&pos))
        .with(Operation::refreq(RefReq::SignOff))
        .to_canonical()
}

pub fn fault_record(p: &ClientProtocol) -> String {
    let pos = p
        .game()
        .map_or_else(shakmaty::Chess::default, |g| g.position().clone());
    Record::new(game::fields_of(&pos))
        .with(Operation::refreq(RefReq::Fault))
        .to_canonical()
}

/// A line the referee must refuse whenever it comes: not EPD, a record
/// without `refreq`, an unknown or malformed `refreq`, a referee command.
pub fn junk_line(rng: &mut fastrand::Rng) -> String {
    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    match rng.u32(..9) {
        0 => "hello referee".into(),
        1 => String::new(),
        2 => format!("{START} sm e4;"),
        3 => format!("{START} refreq dance;"),
        4 => format!("{START} refreq;"),
        5 => format!("{START} refcom respond;"),
        6 => format!("{START} refreq reply sign_on;"),
        7 => {
            let n = rng.usize(1..200);
            (0..n).map(|_| char::from(rng.u8(32..127))).collect()
        }
        _ => "x".repeat(rng.usize(100..3_000)),
    }
}

/// The reply with its echoed side to move flipped (a wrong echo).
pub fn spoil_echo(reply: &str) -> String {
    let mut rec = Record::parse(reply).expect("the protocol's own reply parses");
    rec.fields.side = if rec.fields.side == "w" { "b" } else { "w" }.into();
    rec.to_canonical()
}

pub fn has_move(reply: &str) -> bool {
    Record::parse(reply).is_ok_and(|r| matches!(r.sm(), Ok(Some(_))))
}

pub fn with_op(reply: &str, op: Operation) -> String {
    let mut rec = Record::parse(reply).expect("the protocol's own reply parses");
    rec.set(op);
    rec.to_canonical()
}

pub fn with_move(reply: &str, san: String) -> String {
    with_op(reply, Operation::sm(&san))
}

/// A move in SAN that is illegal in the reply's echoed position: a legal
/// move of the side not on move, else a king move off the board's reach.
pub fn illegal_san(reply: &str, rng: &mut fastrand::Rng) -> String {
    let rec = Record::parse(reply).expect("the protocol's own reply parses");
    let pos = game::position_from_fields(
        &rec.fields,
        rec.hmvc().ok().flatten(),
        rec.fmvn().ok().flatten(),
    )
    .expect("the protocol echoes a legal position");
    // The other side's moves, as if it were on move.
    let candidates: Vec<String> = pos
        .clone()
        .swap_turn()
        .map(|other| {
            other
                .legal_moves()
                .iter()
                .map(|m| game::san_of(&other, m))
                .filter(|s| game::parse_san(&pos, s).is_err())
                .collect()
        })
        .unwrap_or_default();
    if candidates.is_empty() {
        "Qa1xh8".into()
    } else {
        candidates[rng.usize(..candidates.len())].clone()
    }
}
