//! Scripted-transcript tests of every protocol behaviour, through the
//! core's public interface with fake time (see `harness`). The transcripts
//! in `docs/protocol.md` are checked against the core in `doc`.

mod adjudication;
mod doc;
mod evals;
mod harness;

// The tests, by the part of the protocol they check.
mod clocks;
mod draws;
mod ends;
mod illegal;
mod line_check;
mod links;
mod one_game;
mod records;
mod rejected;
mod replies;
mod sign_on;
mod supervisor;

use shakmaty::Color;

use self::harness::*;
use crate::epd::RefCom::{self, *};
use crate::referee::client::ClientId;
use crate::referee::event::{Ending, Event, FaultOutcome, PauseReason};
use crate::referee::messages::{Command, GameResult, Input, Output, Termination, Verdict};
use crate::referee::settings::{ClientFault, FalseClaim, IllegalMove, Settings};
use crate::referee::snapshot::{EventKind, Phase};

const FOOLS_MATE: [&str; 4] = ["f3", "e5", "g4", "Qh4"];

/// The tag pairs of the `inform` record a game starts with.
fn inform_tags(g: &Got) -> Vec<(String, String)> {
    assert_eq!(g.refcom(), Inform);
    g.record.ptp().expect("valid ptp")
}

fn tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

fn pgn_tag(g: &crate::referee::event::GameOver, name: &str) -> Option<String> {
    g.pgn
        .tags
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.clone())
}

fn sends(out: &[Output]) -> usize {
    out.iter()
        .filter(|o| matches!(o, Output::Send { .. }))
        .count()
}

fn rejected(out: &[Output]) -> bool {
    out.iter()
        .any(|o| o.event().is_some_and(|e| e.kind() == EventKind::Rejected))
}

/// Asserts the game is over with this result, termination, and a reason
/// containing `why`; and that both clients got `inform` with the result
/// and then `conclude` with the final position.
fn assert_over(h: &mut Harness, result: &str, termination: Termination, why: &str) {
    let g = h.game_over();
    let reason = g.ending.to_string();
    assert_eq!(g.result.as_str(), result, "{reason}");
    assert_eq!(g.termination, termination, "{reason}");
    assert!(reason.contains(why), "reason {reason:?} lacks {why:?}");
    assert_eq!(g.pgn.result, result);
    assert_eq!(
        pgn_tag(&g, "Termination").as_deref(),
        Some(termination.as_str())
    );
    let fen = crate::game::fen_of(&h.snap().position);
    for who in [A, B] {
        let got = h.take(who);
        let n = got.len();
        assert!(n >= 2, "{who:?} got {got:?}");
        assert_eq!(got[n - 2].refcom(), Inform);
        assert_eq!(got[n - 2].tag("Result").as_deref(), Some(result));
        assert_eq!(got[n - 1].refcom(), Conclude);
        assert_eq!(got[n - 1].fen(), fen, "conclude carries the final position");
        assert_eq!(got[n - 1].sm(), None);
    }
    assert_eq!(h.snap().phase, Phase::GameOver);
    assert_eq!(h.snap().result.map(|r| r.result), Some(result.to_string()));
}
