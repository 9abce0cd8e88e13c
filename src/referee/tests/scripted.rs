//! Scripted-transcript tests of every protocol behaviour, through the
//! core's public interface with fake time (see `harness`). The transcripts
//! in `docs/protocol.md` are checked against the core in `doc`.

mod adjudication;
mod doc;
mod evals;
mod harness;
mod sprt;

use shakmaty::Color;

use self::harness::*;
use crate::epd::RefCom::{self, *};
use crate::referee::client::ClientId;
use crate::referee::io::{Command, GameResult, Input, Output, Termination, Verdict};
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

fn pgn_tag(g: &crate::referee::io::GameOver, name: &str) -> Option<String> {
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
    out.iter().any(|o| {
        matches!(
            o,
            Output::Notice {
                kind: EventKind::Rejected,
                ..
            }
        )
    })
}

/// Asserts the game is over with this result, termination, and a reason
/// containing `why`; and that both clients got `inform` with the result
/// and then `conclude` with the final position.
fn assert_over(h: &mut Harness, result: &str, termination: Termination, why: &str) {
    let g = h.game_over();
    assert_eq!(g.result.as_str(), result, "{}", g.reason);
    assert_eq!(g.termination, termination, "{}", g.reason);
    assert!(
        g.reason.contains(why),
        "reason {:?} lacks {why:?}",
        g.reason
    );
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

// ----- sign-on and the start of a game --------------------------------

#[test]
fn sign_on_reset_inform_respond() {
    let mut h = Harness::new(settings());
    let out = h.sign_on(A, 0, Some("Alpha"));
    assert_eq!(sends(&out), 0, "nothing until both are signed on");
    assert_eq!(h.snap().phase, Phase::WaitingForSignOn);
    assert_eq!(h.referee.next_deadline(), None);

    h.sign_on(B, 100, None);
    for who in [A, B] {
        let got = h.take(who);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].refcom(), Reset);
        assert_eq!(
            got[0].fen(),
            crate::game::fen_of(&shakmaty::Chess::default())
        );
        assert_eq!(got[0].sm(), None);
    }
    assert_eq!(h.snap().phase, Phase::Starting);
    assert_eq!(h.referee.next_deadline(), Some(100 + 5_000));

    assert_eq!(h.timer(), 5_100);
    assert_eq!(h.snap().phase, Phase::Playing);
    let a = h.take(A);
    let b = h.take(B);
    assert_eq!(
        a.iter().map(Got::refcom).collect::<Vec<_>>(),
        [Inform, Respond]
    );
    assert_eq!(b.iter().map(Got::refcom).collect::<Vec<_>>(), [Inform]);
    for tags in [inform_tags(&a[0]), inform_tags(&b[0])] {
        let names: Vec<&str> = tags.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "Event",
                "Site",
                "Date",
                "Round",
                "White",
                "Black",
                "Result",
                "TimeControl"
            ]
        );
        assert_eq!(tag(&tags, "Event"), Some("Test"));
        assert_eq!(tag(&tags, "Site"), Some("Lab"));
        assert_eq!(tag(&tags, "Date"), Some("2025.01.31"));
        assert_eq!(tag(&tags, "Round"), Some("1"));
        assert_eq!(tag(&tags, "White"), Some("Alpha"), "tcsi names A");
        assert_eq!(
            tag(&tags, "Black"),
            Some("ttyS1"),
            "B falls back to its port"
        );
        assert_eq!(tag(&tags, "Result"), Some("*"));
        assert_eq!(tag(&tags, "TimeControl"), Some("-"));
    }
    // respond with the position and no move
    assert_eq!(a[1].fen(), crate::game::fen_of(&shakmaty::Chess::default()));
    assert_eq!(a[1].sm(), None);
    assert_eq!(a[1].cc(), ("000:00:00:00".into(), "000:00:00:00".into()));
    assert_eq!(h.snap().clients[0].name, "Alpha");
}

#[test]
fn names_come_from_settings_then_tcsi_then_port() {
    let mut h = Harness::new(Settings {
        names: [Some("Deep Thought".into()), None].into(),
        ..settings()
    });
    h.sign_on(A, 0, Some("Alpha"));
    h.sign_on(B, 0, Some("Beta"));
    h.timer();
    let tags = inform_tags(&h.take(A)[1]);
    assert_eq!(tag(&tags, "White"), Some("Deep Thought"));
    assert_eq!(tag(&tags, "Black"), Some("Beta"));
}

#[test]
fn sign_on_fields_and_extra_opcodes_are_ignored() {
    let mut h = Harness::new(settings());
    // Any position, clock and counters: only refreq and tcsi matter.
    h.line(
        A,
        0,
        "8/8/8/8/8/8/8/8 b - - refreq sign_on; cc 001:00:00:00 0:0:0:0; hmvc 7;",
    );
    h.line(
        B,
        0,
        "k7/8/8/8/8/8/8/K7 w - - fmvn 99; refreq sign_on; tcsi \"x\" \"  Beta  \";",
    );
    assert_eq!(h.take_cmds(A), [Reset]);
    h.timer();
    let tags = inform_tags(&h.take(B)[1]);
    assert_eq!(tag(&tags, "Black"), Some("Beta"), "name trimmed");
    assert_eq!(h.snap().position, shakmaty::Chess::default());
}

// ----- replies and relay --------------------------------------------------

#[test]
fn legal_moves_are_relayed_in_canonical_san() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.clear();
    h.reply(A, t + 1_000, "Ng1f3");
    let b = h.take(B);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].refcom(), Respond);
    assert_eq!(
        b[0].fen(),
        crate::game::fen_of(&shakmaty::Chess::default()),
        "position before the move"
    );
    assert_eq!(b[0].sm(), Some("Nf3"));
    assert!(h.take(A).is_empty(), "the mover gets nothing");

    h.play(t + 1_000, 1_000, &["d5", "g3", "Nc6", "Bg2", "e5"]);
    h.clear();
    h.reply(A, t + 9_000, "0-0");
    let b = h.take(B);
    assert_eq!(b[0].sm(), Some("O-O"));
    assert_eq!(
        b[0].fen(),
        "r1bqkbnr/ppp2ppp/2n5/3pp3/8/5NP1/PPPPPPBP/RNBQK2R w KQkq e6 0 4"
    );
    assert_eq!(
        h.snap().sans,
        ["Nf3", "d5", "g3", "Nc6", "Bg2", "e5", "O-O"]
    );
    let made: Vec<(usize, Color, String)> = h
        .outputs
        .iter()
        .filter_map(|(_, o)| match o {
            Output::MoveMade {
                ply, color, san, ..
            } => Some((*ply, *color, san.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(made.len(), 7);
    assert_eq!(made[6], (7, Color::White, "O-O".to_string()));
    // respond carries fmvn and hmvc of the position before the move
    assert_eq!(b[0].record.fmvn().unwrap(), Some(4));
    assert_eq!(b[0].record.hmvc().unwrap(), Some(0));
}

#[test]
fn echo_with_or_without_en_passant_square_is_accepted() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    // B echoes with "-" where the double push gives e3.
    h.clear();
    h.line(
        B,
        t + 2_000,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - refreq reply; sm e5;",
    );
    let a = h.take(A);
    assert_eq!(a.len(), 1, "accepted: {:?}", h.notices());
    assert_eq!(a[0].sm(), Some("e5"));
    // A echoes with the double-push square.
    let echo = h.echo(A);
    assert!(echo.ends_with(" e6"), "{echo}");
    h.reply(A, t + 3_000, "Nf3");
    assert_eq!(h.take(B)[0].sm(), Some("Nf3"));
    // A wrong square is a mismatch: the respond goes out again.
    h.line(
        B,
        t + 4_000,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq e3 refreq reply; sm Nc6;",
    );
    let again = h.take(B);
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].refcom(), Respond);
    assert_eq!(again[0].sm(), Some("Nf3"));
    assert_eq!(h.snap().sans, ["e4", "e5", "Nf3"]);
}

#[test]
fn minimal_clients_with_lf_only_and_no_optional_opcodes_play() {
    let mut h = Harness::new(settings());
    // No tcsi, and every line one byte shorter (LF only).
    let so = format!("{INITIAL} refreq sign_on;");
    h.line_bytes(A, 0, &so, so.len() + 1);
    h.line_bytes(B, 0, &so, so.len() + 1);
    let t = h.timer();
    for (i, san) in ["e4", "e5", "Nf3"].iter().enumerate() {
        let who = h.on_move().unwrap();
        let text = h.reply_text(who, Some(san), "");
        assert!(!text.contains("hmvc") && !text.contains("cc ") && !text.contains("fmvn"));
        h.line_bytes(who, t + 1_000 * (i as u64 + 1), &text, text.len() + 1);
    }
    assert_eq!(h.snap().sans, ["e4", "e5", "Nf3"]);
    // A client that sends every opcode (with its own clock values) is fine too.
    let text = h.reply_text(
        B,
        Some("Nc6"),
        "cc 000:00:01:00 000:00:02:00; fmvn 2; hmvc 1; c0 \"book\";",
    );
    h.line(B, t + 4_000, &text);
    assert_eq!(h.snap().sans, ["e4", "e5", "Nf3", "Nc6"]);
}

// ----- draws ---------------------------------------------------------------

#[test]
fn draw_offer_travels_with_the_move_and_accept_ends_drawn() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.clear();
    h.reply_with(A, t + 1_000, Some("e4"), "draw_offer;");
    let b = h.take(B);
    assert_eq!(b[0].refcom(), Respond);
    assert_eq!(b[0].sm(), Some("e4"));
    assert!(b[0].record.draw_offer(), "{}", b[0].text);
    h.reply_with(B, t + 2_000, None, "draw_accept;");
    assert_over(&mut h, "1/2-1/2", Termination::Normal, "agreement");
    assert_eq!(h.game_over().pgn.moves.len(), 1);
}

#[test]
fn draw_reject_with_a_move_declines() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply_with(A, t + 1_000, Some("e4"), "draw_offer;");
    h.clear();
    h.reply_with(B, t + 2_000, Some("e5"), "draw_reject;");
    let a = h.take(A);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].sm(), Some("e5"));
    assert!(!a[0].record.draw_offer());
    assert!(
        h.notices()
            .iter()
            .any(|n| n.contains("draw offer declined"))
    );
    assert!(h.game_overs().is_empty());
}

#[test]
fn a_plain_move_declines_silently_and_the_offer_is_not_repeated() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply_with(A, t + 1_000, Some("e4"), "draw_offer;");
    h.clear();
    h.reply(B, t + 2_000, "e5");
    assert!(!h.take(A)[0].record.draw_offer());
    h.reply(A, t + 3_000, "Nf3");
    assert!(
        !h.take(B)[0].record.draw_offer(),
        "the offer is not repeated"
    );
    // A late accept of the expired offer is ignored; its move is played.
    h.reply_with(B, t + 4_000, Some("Nc6"), "draw_accept;");
    assert!(h.game_overs().is_empty());
    assert_eq!(h.snap().sans, ["e4", "e5", "Nf3", "Nc6"]);
    assert!(
        h.notices()
            .iter()
            .any(|n| n.contains("without an open offer"))
    );
}

#[test]
fn threefold_claim_without_a_move_draws() {
    let mut h = Harness::new(settings());
    let t = h.start();
    let t = h.play(
        t,
        500,
        &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"],
    );
    h.reply_with(A, t + 500, None, "draw_claim;");
    assert_over(
        &mut h,
        "1/2-1/2",
        Termination::Normal,
        "threefold repetition",
    );
    assert_eq!(h.game_over().pgn.moves.len(), 8);
}

#[test]
fn threefold_claim_with_the_move_that_repeats_draws_without_playing_it() {
    let mut h = Harness::new(settings());
    let t = h.start();
    let t = h.play(t, 500, &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]);
    h.reply_with(B, t + 500, Some("Ng8"), "draw_claim;");
    assert_over(
        &mut h,
        "1/2-1/2",
        Termination::Normal,
        "draw claimed by Black: threefold",
    );
    let g = h.game_over();
    assert_eq!(
        g.pgn.moves.len(),
        7,
        "the claimed move is written down, not played"
    );
    assert!(g.pgn.final_comment.unwrap().contains("Ng8"));
}

#[test]
fn fifty_move_claims_with_and_without_a_move() {
    // hmvc 100 already: claim without a move.
    let mut h = Harness::new(at_fen("8/8/8/4k3/8/8/R7/4K3 w - - 100 80"));
    let t = h.start();
    h.reply_with(A, t + 500, None, "draw_claim;");
    assert_over(&mut h, "1/2-1/2", Termination::Normal, "fifty-move rule");

    // hmvc 99: the claimed move makes it 100.
    let mut h = Harness::new(at_fen("8/8/8/4k3/8/8/R7/4K3 w - - 99 80"));
    let t = h.start();
    h.reply_with(A, t + 500, Some("Ra3"), "draw_claim;");
    assert_over(&mut h, "1/2-1/2", Termination::Normal, "fifty-move rule");

    // hmvc 98: one move short, a false claim.
    let mut h = Harness::new(at_fen("8/8/8/4k3/8/8/R7/4K3 w - - 98 80"));
    let t = h.start();
    h.reply_with(A, t + 500, Some("Ra3"), "draw_claim;");
    assert_over(
        &mut h,
        "0-1",
        Termination::RulesInfraction,
        "false draw claim",
    );
}

#[test]
fn insufficient_material_claim_with_the_move_draws() {
    // Kxb2 leaves king against king.
    let mut h = Harness::new(at_fen("k7/8/8/8/8/8/1n6/K7 w - - 0 1"));
    let t = h.start();
    h.reply_with(A, t + 500, Some("Kxb2"), "draw_claim;");
    assert_over(
        &mut h,
        "1/2-1/2",
        Termination::Normal,
        "insufficient material",
    );
}

#[test]
fn a_false_claim_forfeits_by_default() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply_with(A, t + 500, None, "draw_claim;");
    assert_over(
        &mut h,
        "0-1",
        Termination::RulesInfraction,
        "White made a false draw claim",
    );
    let g = h.game_over();
    assert!(
        g.pgn
            .final_comment
            .unwrap()
            .contains("claimed a draw falsely")
    );
    assert!(g.pgn.moves.is_empty());
}

#[test]
fn a_false_claim_with_play_on_is_rejected_and_play_goes_on() {
    let mut h = Harness::new(Settings {
        false_claim: FalseClaim::PlayOn,
        ..settings()
    });
    let t = h.start();
    h.clear();
    // Without a move: asked again with the same respond.
    let first = h.last(A).text.clone();
    h.reply_with(A, t + 500, None, "draw_claim;");
    let a = h.take(A);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].refcom(), Respond);
    assert_eq!(a[0].text, first);
    // With a move: the move is played.
    h.reply_with(A, t + 1_000, Some("e4"), "draw_claim;");
    assert_eq!(h.take(B)[0].sm(), Some("e4"));
    assert!(h.game_overs().is_empty());
    assert!(h.notices().iter().any(|n| n.contains("false draw claim")));
}

#[test]
fn repeated_replies_without_a_move_are_asked_again_only_within_the_turns_budget() {
    // A draw_accept with nothing to accept and no move, sent for ever, and
    // a false claim without a move under play-on: each is asked again
    // max_resends times, then costs the game (it used to be asked for ever).
    for (extra, false_claim) in [
        ("draw_accept;", FalseClaim::Forfeit),
        ("draw_claim;", FalseClaim::PlayOn),
    ] {
        let mut h = Harness::new(Settings {
            false_claim,
            ..settings()
        });
        let t = h.start();
        h.clear();
        for i in 0..2u64 {
            h.reply_with(A, t + 500 + i * 500, None, extra);
            assert_eq!(h.take_cmds(A), [Respond], "{extra} {i}");
        }
        h.reply_with(A, t + 2_000, None, extra);
        assert_over(
            &mut h,
            "0-1",
            Termination::RulesInfraction,
            "(asked again 2 times)",
        );
    }
}

// ----- resignation and automatic ends ------------------------------------

#[test]
fn resign_loses() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 500, "e4");
    h.reply_with(B, t + 1_000, None, "resign;");
    assert_over(&mut h, "1-0", Termination::Normal, "Black resigned");
}

#[test]
fn checkmate_ends_the_game_at_once() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.play(t, 500, &FOOLS_MATE);
    assert_over(&mut h, "0-1", Termination::Normal, "White checkmated");
    assert_eq!(h.snap().sans.last().map(String::as_str), Some("Qh4#"));
    assert_eq!(h.game_over().pgn.moves.len(), 4);
}

#[test]
fn the_mated_side_gets_the_mating_move_as_sm_in_the_final_inform() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.play(t, 500, &FOOLS_MATE[..3]);
    h.clear();
    let before = h.echo(B);
    h.reply(B, t + 5_000, "Qh4");
    // A (White) never got a respond with Qh4: the result inform carries
    // it with the position it is played from; conclude has the final one.
    let a = h.take(A);
    assert_eq!(
        a.iter().map(Got::refcom).collect::<Vec<_>>(),
        [Inform, Conclude]
    );
    assert_eq!(a[0].sm(), Some("Qh4#"));
    assert_eq!(a[0].tag("Result").as_deref(), Some("0-1"));
    assert_eq!(fields_text(&a[0].position()), before);
    assert_eq!(a[1].sm(), None);
    assert!(shakmaty::Position::is_checkmate(&a[1].position()));
    // B played the move: its records carry no sm (it would play it twice).
    let b = h.take(B);
    assert_eq!(
        b.iter().map(Got::refcom).collect::<Vec<_>>(),
        [Inform, Conclude]
    );
    assert!(b.iter().all(|g| g.sm().is_none()));
}

#[test]
fn a_game_ended_without_a_move_sends_no_sm_in_the_final_inform() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 500, "e4");
    h.clear();
    // B got e4 in its respond and resigns: nobody lacks a move.
    h.reply_with(B, t + 1_000, None, "resign;");
    for who in [A, B] {
        assert!(h.take(who).iter().all(|g| g.sm().is_none()));
    }
}

#[test]
fn stalemate_ends_drawn() {
    let mut h = Harness::new(at_fen("k7/8/8/2Q5/8/8/8/K7 w - - 0 1"));
    let t = h.start();
    h.reply(A, t + 500, "Qc7");
    assert_over(&mut h, "1/2-1/2", Termination::Normal, "stalemate");
}

#[test]
fn dead_position_ends_drawn() {
    let mut h = Harness::new(at_fen("k7/8/8/8/8/8/1n6/K7 w - - 0 1"));
    let t = h.start();
    h.reply(A, t + 500, "Kxb2");
    assert_over(&mut h, "1/2-1/2", Termination::Normal, "dead position");
}

#[test]
fn seventy_five_move_rule_ends_drawn() {
    let mut h = Harness::new(at_fen("8/8/8/4k3/8/8/R7/4K3 w - - 149 100"));
    let t = h.start();
    h.reply(A, t + 500, "Ra3");
    assert_over(&mut h, "1/2-1/2", Termination::Normal, "75-move rule");
}

#[test]
fn fivefold_repetition_ends_drawn() {
    let mut h = Harness::new(settings());
    let t = h.start();
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let t = h.play(t, 100, &shuffle);
    let t = h.play(t, 100, &shuffle);
    let t = h.play(t, 100, &shuffle);
    assert!(h.game_overs().is_empty(), "fourfold is not the end");
    h.play(t, 100, &shuffle);
    assert_over(
        &mut h,
        "1/2-1/2",
        Termination::Normal,
        "fivefold repetition",
    );
}

// ----- illegal moves and faults ---------------------------------------------

#[test]
fn an_illegal_move_forfeits_and_is_never_a_pgn_move() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 500, "e4");
    h.reply(B, t + 1_000, "e4");
    assert_over(
        &mut h,
        "1-0",
        Termination::RulesInfraction,
        "Black forfeits: illegal move",
    );
    let g = h.game_over();
    assert_eq!(g.pgn.moves.len(), 1);
    let comment = g.pgn.final_comment.clone().unwrap();
    assert!(comment.contains("\"e4\""), "{comment}");
    let pgn = h.final_pgn();
    assert!(pgn.contains("1. e4 {Black played"), "{pgn}");
}

#[test]
fn an_unparsable_move_forfeits() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 500, "Zz9");
    assert_over(
        &mut h,
        "0-1",
        Termination::RulesInfraction,
        "unparsable move",
    );
    assert!(h.game_over().pgn.moves.is_empty());
}

#[test]
fn an_illegal_move_with_the_fault_policy_pauses_and_resume_asks_again() {
    let mut h = Harness::new(no_credit(Settings {
        illegal_move: IllegalMove::Fault,
        ..timed("300")
    }));
    let t = h.start();
    h.clear();
    let first = h.last(A).record.clone();
    h.reply(A, t + 1_000, "e5");
    let a = h.take(A);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].refcom(), RefCom::Fault);
    assert!(h.take(B).is_empty());
    assert!(matches!(h.snap().phase, Phase::Paused { .. }));
    assert!(h.game_overs().is_empty());
    let left = h
        .referee
        .snapshot(t + 1_000)
        .clock(Color::White)
        .remaining_ms;
    assert_eq!(
        h.referee
            .snapshot(t + 50_000)
            .clock(Color::White)
            .remaining_ms,
        left
    );
    assert_eq!(h.referee.next_deadline(), None, "no flag while paused");
    // Resume: A is asked again with the same position and no move.
    h.command(Command::Resume, t + 10_000);
    let a = h.take(A);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].refcom(), Respond);
    assert_eq!(a[0].record.fields, first.fields);
    assert_eq!(a[0].sm(), None);
    h.reply(A, t + 11_000, "e4");
    assert_eq!(h.take(B)[0].sm(), Some("e4"));
    // 1 s before the fault and 1 s after the resume.
    assert_eq!(
        h.referee.snapshot(t + 11_000).clock(Color::White).used_ms,
        2_000
    );
}

#[test]
fn an_unparsable_move_with_the_retry_policy_is_asked_again_with_the_clock_running() {
    let mut h = Harness::new(no_credit(Settings {
        illegal_move: IllegalMove::Retry,
        ..timed("300")
    }));
    let t = h.start();
    h.reply(A, t + 500, "e4");
    h.clear();
    let first = h.last(B).clone();
    // A flipped bit on the line: "e5" became "e%".
    h.reply(B, t + 1_500, "e%");
    let again = h.take(B);
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(again[0].refcom(), Respond);
    assert_eq!(again[0].record.fields, first.record.fields);
    assert_eq!(again[0].sm(), Some("e4"), "the same question again");
    assert!(h.take(A).is_empty());
    assert!(h.game_overs().is_empty());
    assert!(
        h.notices()
            .iter()
            .any(|n| n.contains("unparsable move") && n.contains("asking again (1 of 2)")),
        "{:?}",
        h.notices()
    );
    // The clock ran through the retry: 1 s to the bad reply, 1 s more.
    h.reply(B, t + 2_500, "e5");
    assert_eq!(h.take(A)[0].sm(), Some("e5"));
    assert_eq!(
        h.referee.snapshot(t + 2_500).clock(Color::Black).used_ms,
        2_000
    );
    assert_eq!(h.snap().sans, ["e4", "e5"]);
}

#[test]
fn an_illegal_move_with_the_retry_policy_forfeits_when_the_retries_are_spent() {
    let mut h = Harness::new(Settings {
        illegal_move: IllegalMove::Retry,
        max_resends: 2,
        ..settings()
    });
    let t = h.start();
    h.clear();
    for i in 0..2u64 {
        h.reply(A, t + 500 + i * 500, "Ke2");
        assert_eq!(h.take_cmds(A), [Respond], "retry {i}");
        assert!(h.game_overs().is_empty());
    }
    h.reply(A, t + 2_000, "Ke2");
    assert_over(
        &mut h,
        "0-1",
        Termination::RulesInfraction,
        "White forfeits: illegal move \"Ke2\"",
    );
    let g = h.game_over();
    assert!(g.reason.contains("(asked again 2 times)"), "{}", g.reason);
    assert!(g.pgn.moves.is_empty(), "an illegal move is never recorded");
}

#[test]
fn the_retry_budget_is_per_turn_and_shared_with_echo_resends() {
    let mut h = Harness::new(Settings {
        illegal_move: IllegalMove::Retry,
        max_resends: 1,
        ..settings()
    });
    let t = h.start();
    // White spends its one retry, then moves: Black's turn starts afresh.
    h.reply(A, t + 500, "Zz9");
    h.reply(A, t + 1_000, "d4");
    h.reply(B, t + 1_500, "Zz9");
    h.reply(B, t + 2_000, "d5");
    assert!(h.game_overs().is_empty());
    assert_eq!(h.snap().sans, ["d4", "d5"]);
    // A bad echo takes the retry of this turn; the bad move after it
    // forfeits.
    h.clear();
    h.line(A, t + 2_500, "8/8/8/8/8/8/8/8 w - - refreq reply; sm c4;");
    assert_eq!(h.take_cmds(A).last(), Some(&Respond));
    h.reply(A, t + 3_000, "Zz9");
    assert_over(
        &mut h,
        "0-1",
        Termination::RulesInfraction,
        "unparsable move",
    );
}

#[test]
fn an_illegal_move_with_the_fault_policy_can_be_adjudicated() {
    let mut h = Harness::new(Settings {
        illegal_move: IllegalMove::Fault,
        ..settings()
    });
    let t = h.start();
    h.reply(A, t + 1_000, "Ke2");
    h.command(Command::Adjudicate(Verdict::BlackWins), t + 5_000);
    assert_over(
        &mut h,
        "0-1",
        Termination::Adjudication,
        "Black wins by adjudication",
    );
}

#[test]
fn a_reply_without_a_move_forfeits() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 500, "d4");
    h.reply_with(B, t + 1_000, None, "");
    assert_over(
        &mut h,
        "1-0",
        Termination::RulesInfraction,
        "reply without a move",
    );
}

#[test]
fn a_bad_echo_is_answered_by_resends_then_forfeit() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 500, "e4");
    h.clear();
    let first = h.last(B).clone();
    // B did not apply e4: it echoes the initial position.
    let bad = format!("{INITIAL} refreq reply; sm e5;");
    for i in 1..=2u64 {
        h.line(B, t + 500 + i * 1_000, &bad);
        let again = h.take(B);
        assert_eq!(again.len(), 1, "resend {i}");
        assert_eq!(again[0].refcom(), Respond);
        assert_eq!(again[0].record.fields, first.record.fields);
        assert_eq!(again[0].sm(), Some("e4"));
        assert!(h.take(A).is_empty());
    }
    h.line(B, t + 4_000, &bad);
    assert_over(
        &mut h,
        "1-0",
        Termination::RulesInfraction,
        "echoed position still differs after 2 resends",
    );
    assert!(
        h.game_over()
            .pgn
            .final_comment
            .unwrap()
            .contains("placement differs")
    );
}

#[test]
fn a_good_echo_after_a_resend_is_accepted() {
    let mut h = Harness::new(Settings {
        max_resends: 1,
        ..settings()
    });
    let t = h.start();
    h.reply(A, t + 500, "e4");
    h.line(B, t + 1_000, &format!("{INITIAL} refreq reply; sm e5;"));
    h.clear();
    h.reply(B, t + 2_000, "e5");
    assert_eq!(h.take(A)[0].sm(), Some("e5"));
    assert!(h.game_overs().is_empty());
}

#[test]
fn a_bad_echo_with_the_fault_policy_ends_in_a_fault() {
    let mut h = Harness::new(Settings {
        illegal_move: IllegalMove::Fault,
        max_resends: 0,
        ..settings()
    });
    let t = h.start();
    h.clear();
    h.line(A, t + 500, "8/8/8/8/8/8/8/8 w - - refreq reply; sm e4;");
    assert_eq!(h.take_cmds(A), [RefCom::Fault]);
    assert!(matches!(h.snap().phase, Phase::Paused { .. }));
}

// ----- the line check (Acrc) ---------------------------------------------------

fn checked(line: &str) -> String {
    let mut s = line.to_string();
    crate::epd::line_check::append(&mut s);
    s
}

/// A (White) signs on with a checked line, B without; the game starts.
fn start_with_a_checking(h: &mut Harness) -> u64 {
    h.line(
        A,
        0,
        &checked(&format!(
            "{INITIAL} refreq sign_on; tcsi \"ttyS0\" \"Alpha\";"
        )),
    );
    h.sign_on(B, 0, None);
    h.timer()
}

#[test]
fn a_client_that_signs_on_with_a_check_gets_checked_records_the_other_does_not() {
    use crate::epd::line_check::{Checked, verify};
    let mut h = Harness::new(settings());
    let t = start_with_a_checking(&mut h);
    assert!(
        h.notices()
            .iter()
            .any(|n| n.contains("A: Alpha signed on, its lines checked (Acrc)")),
        "{:?}",
        h.notices()
    );
    let to_a = h.all(A).to_vec();
    assert!(to_a.len() >= 3, "{to_a:?}");
    for got in &to_a {
        assert!(
            matches!(verify(&got.text), Checked::Valid(_)),
            "{}",
            got.text
        );
    }
    for got in h.all(B) {
        assert_eq!(verify(&got.text), Checked::Absent, "{}", got.text);
    }
    h.line(A, t + 500, &checked(&h.reply_text(A, Some("e4"), "")));
    assert_eq!(
        h.take(B)
            .last()
            .and_then(|g| g.sm().map(str::to_owned))
            .as_deref(),
        Some("e4")
    );
    assert_eq!(h.snap().sans, ["e4"]);
}

#[test]
fn a_damaged_checked_reply_is_refused_and_asked_again_at_once() {
    let mut h = Harness::new(timed("300"));
    let t = start_with_a_checking(&mut h);
    h.clear();
    let first = h.last(A).clone();
    // On the line "e4" became "d4": a legal move, caught only by the check.
    let damaged = checked(&h.reply_text(A, Some("e4"), "")).replace("e4;", "d4;");
    let out = h.line(A, t + 500, &damaged);
    assert!(rejected(&out), "{out:?}");
    let again = h.take(A);
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(again[0].refcom(), Respond);
    assert_eq!(again[0].record.fields, first.record.fields);
    assert!(h.take(B).is_empty());
    assert!(h.snap().sans.is_empty(), "the damaged move was played");
    // A line of a checking client without its check is damaged too.
    h.line(A, t + 700, &h.reply_text(A, Some("d4"), ""));
    assert_eq!(h.take_cmds(A), [Respond]);
    assert!(h.snap().sans.is_empty());
    // The good reply is taken; the clock ran throughout.
    h.line(A, t + 1_000, &checked(&h.reply_text(A, Some("e4"), "")));
    assert_eq!(h.snap().sans, ["e4"]);
    assert!(h.game_overs().is_empty());
    assert!(
        h.notices().iter().any(|n| n.contains("damaged line")),
        "{:?}",
        h.notices()
    );
}

#[test]
fn an_anak_from_the_client_on_move_sends_its_respond_again_once_per_line_time() {
    let mut h = Harness::new(settings());
    let t = start_with_a_checking(&mut h);
    h.clear();
    let first = h.last(A).clone();
    let nak = checked(&format!("{INITIAL} Anak;"));
    h.line(A, t + 1_000, &nak);
    let again = h.take(A);
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(again[0].refcom(), Respond);
    assert_eq!(again[0].record.fields, first.record.fields);
    // A second one while that respond is still on the line (9600 baud:
    // ~150 ms) sends nothing: a client cannot queue records faster than
    // its line carries them.
    h.line(A, t + 1_010, &nak);
    assert!(h.take(A).is_empty());
    h.line(A, t + 2_000, &nak);
    assert_eq!(h.take_cmds(A), [Respond]);
    // From the client not on move it sends nothing.
    h.line(B, t + 2_100, &format!("{INITIAL} Anak;"));
    assert!(h.take(B).is_empty() && h.take(A).is_empty());
    assert!(
        h.notices()
            .iter()
            .any(|n| n.contains("B: a record arrived damaged (Anak)")),
        "{:?}",
        h.notices()
    );
    // The game goes on.
    h.line(A, t + 3_000, &checked(&h.reply_text(A, Some("e4"), "")));
    assert_eq!(h.snap().sans, ["e4"]);
}

#[test]
fn damaged_lines_do_not_queue_responds_faster_than_the_line_carries_them() {
    let mut h = Harness::new(settings());
    let t = start_with_a_checking(&mut h);
    h.clear();
    for i in 0..20 {
        h.line(A, t + 1_000 + i, "x Acrc 00000000;");
    }
    assert_eq!(
        h.take_cmds(A),
        [Respond],
        "one resend for a burst of damage"
    );
}

#[test]
fn signing_on_again_without_a_check_turns_the_check_off() {
    use crate::epd::line_check::{Checked, verify};
    let mut h = Harness::new(settings());
    let t = start_with_a_checking(&mut h);
    h.sign_on(A, t + 100, Some("Alpha"));
    h.clear();
    h.timer();
    let to_a = h.take(A);
    assert!(!to_a.is_empty());
    for got in &to_a {
        assert_eq!(verify(&got.text), Checked::Absent, "{}", got.text);
    }
    // Its plain reply is taken.
    let t = h.referee.next_deadline().unwrap_or(t + 6_000);
    h.reply(A, t + 500, "e4");
    assert_eq!(h.snap().sans, ["e4"]);
}

// ----- clocks -----------------------------------------------------------------

#[test]
fn the_clock_runs_from_the_respond_leaving_to_the_reply_less_wire_time() {
    let mut h = Harness::new(timed("300"));
    h.sign_on(A, 0, None);
    h.sign_on(B, 0, None);
    h.acks = Acks::Held;
    h.timer(); // 5000: inform, respond handed to the writer
    assert!(!h.snap().clock(Color::White).running, "not before it left");
    h.ack(A, 5_150); // the respond's last byte is out
    h.ack(B, 5_150);
    assert!(h.snap().clock(Color::White).running);
    let out = h.line_bytes(A, 7_150, &h.reply_text(A, Some("e4"), ""), 100);
    let charged = out.iter().find_map(|o| match o {
        Output::MoveMade { charged_ms, .. } => *charged_ms,
        _ => None,
    });
    assert_eq!(charged, Some(2_000 - wire_ms(100)));
    assert_eq!(
        h.snap().clock(Color::White).remaining_ms,
        Some(300_000 - 2_000 + wire_ms(100))
    );
}

#[test]
fn flag_fall_by_the_cores_own_deadline_loses() {
    let mut h = Harness::new(timed("60"));
    let t = h.start();
    assert_eq!(h.referee.next_deadline(), Some(t + 60_000 + wire_ms(256)));
    let fell = h.timer();
    assert_eq!(fell, t + 60_000 + wire_ms(256));
    assert_over(
        &mut h,
        "0-1",
        Termination::TimeForfeit,
        "White lost on time",
    );
    assert!(h.snap().clock(Color::White).flagged);
    assert_eq!(
        h.referee.next_deadline(),
        Some(fell + 5_000),
        "conclude delay"
    );
}

#[test]
fn flag_fall_against_a_lone_king_draws() {
    let mut h = Harness::new(Settings {
        openings: vec![from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")],
        ..timed("60")
    });
    h.start();
    h.timer();
    assert_over(
        &mut h,
        "1/2-1/2",
        Termination::TimeForfeit,
        "no mating material",
    );
}

#[test]
fn a_reply_in_time_by_its_wire_credit_is_accepted_after_the_raw_deadline() {
    let mut h = Harness::new(timed("60"));
    let t = h.start();
    // 100 ms late by arrival, but 200 bytes took 208 ms on the wire.
    let text = h.reply_text(A, Some("e4"), "");
    h.line_bytes(A, t + 60_100, &text, 200);
    assert!(h.game_overs().is_empty(), "{:?}", h.notices());
    assert_eq!(h.snap().sans, ["e4"]);
    assert_eq!(
        h.snap().clock(Color::White).remaining_ms,
        Some(60_000 - (60_100 - wire_ms(200)))
    );
}

#[test]
fn a_reply_late_even_with_its_wire_credit_loses_on_time() {
    let mut h = Harness::new(timed("60"));
    let t = h.start();
    let text = h.reply_text(A, Some("e4"), "");
    h.line_bytes(A, t + 60_100, &text, 50); // 52 ms of credit
    assert_over(&mut h, "0-1", Termination::TimeForfeit, "lost on time");
    assert!(h.game_over().pgn.moves.is_empty());
}

#[test]
fn a_client_fault_pauses_with_clocks_stopped_until_resume() {
    let mut h = Harness::new(timed("300"));
    let t = h.start();
    h.clear();
    h.line(B, t + 1_000, &format!("{INITIAL} refreq fault;"));
    let s = h.snap();
    assert!(matches!(s.phase, Phase::Paused { .. }), "{:?}", s.phase);
    assert!(!s.clock(Color::White).running);
    let left = s.clock(Color::White).remaining_ms;
    assert_eq!(left, Some(299_000));
    assert_eq!(
        h.referee
            .snapshot(t + 100_000)
            .clock(Color::White)
            .remaining_ms,
        left
    );
    assert_eq!(h.referee.next_deadline(), None);
    h.command(Command::Resume, t + 100_000);
    // The client on move is asked again; its clock runs on.
    assert_eq!(h.take_cmds(A), [Respond]);
    assert!(h.take(B).is_empty());
    assert_eq!(
        h.referee
            .snapshot(t + 101_000)
            .clock(Color::White)
            .remaining_ms,
        Some(298_000)
    );
}

#[test]
fn with_client_fault_continue_a_fault_is_logged_and_play_goes_on() {
    let mut h = Harness::new(Settings {
        client_fault: ClientFault::Continue,
        ..timed("300")
    });
    let t = h.start();
    h.clear();
    let out = h.line(A, t + 1_000, &format!("{INITIAL} refreq fault;"));
    assert!(out.iter().any(|o| matches!(
        o,
        Output::Notice { kind: EventKind::Fault, text } if text.contains("play goes on")
    )));
    let s = h.snap();
    assert_eq!(s.phase, Phase::Playing);
    assert!(s.clock(Color::White).running);
    assert!(h.take(A).is_empty() && h.take(B).is_empty());
    h.reply(A, t + 2_000, "e4");
    assert_eq!(h.snap().sans, ["e4"]);
}

#[test]
fn a_client_fault_can_be_adjudicated() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.line(A, t + 1_000, &format!("{INITIAL} refreq fault;"));
    h.command(Command::Adjudicate(Verdict::Draw), t + 2_000);
    assert_over(
        &mut h,
        "1/2-1/2",
        Termination::Adjudication,
        "drawn by adjudication",
    );
}

// ----- sign-off, lost links, restarts --------------------------------------------

#[test]
fn sign_off_keeps_the_clock_running_and_sign_on_resyncs_with_execute() {
    let mut h = Harness::new(no_credit(timed("300")));
    let t = h.start();
    let t = h.play(t, 1_000, &["e4", "e5", "Nf3", "Nc6"]);
    h.clear();
    h.line(A, t + 1_000, &format!("{INITIAL} refreq sign_off;"));
    let s = h.snap();
    assert!(!s.clients[0].signed_on);
    assert!(s.clock(Color::White).running, "its clock keeps running");
    // A reply from a client that signed off is rejected.
    let out = h.reply(A, t + 2_000, "Bb5");
    assert!(rejected(&out));
    assert_eq!(h.snap().sans.len(), 4);

    // It signs on again: reset now; inform, execute per move, respond later.
    h.sign_on(A, t + 3_000, None);
    assert_eq!(h.take_cmds(A), [Reset]);
    assert!(h.take(B).is_empty());
    let out = h.reply(A, t + 4_000, "Bb5");
    assert!(rejected(&out), "no replies before it is back in line");
    assert_eq!(h.referee.next_deadline(), Some(t + 8_000));
    h.timer();
    let a = h.take(A);
    let cmds: Vec<RefCom> = a.iter().map(Got::refcom).collect();
    assert_eq!(cmds, [Inform, Execute, Execute, Execute, Execute, Respond]);
    let mut g = crate::game::Game::new(shakmaty::Chess::default());
    for (i, san) in ["e4", "e5", "Nf3", "Nc6"].iter().enumerate() {
        let e = &a[1 + i];
        assert_eq!(
            e.fen(),
            crate::game::fen_of(g.position()),
            "position before move {i}"
        );
        assert_eq!(e.sm(), Some(*san));
        g.play_san(san).unwrap();
    }
    assert_eq!(a[5].fen(), crate::game::fen_of(g.position()));
    assert_eq!(a[5].sm(), None, "it already has every move");
    // The clock ran all along: 1 s thinking + 7 s away.
    assert_eq!(h.snap().clock(Color::White).used_ms, 2_000 + 8_000);
    h.reply(A, t + 9_000, "Bb5");
    assert_eq!(h.take(B)[0].sm(), Some("Bb5"));
}

#[test]
fn a_restarted_client_not_on_move_gets_no_respond() {
    let mut h = Harness::new(settings());
    let t = h.start();
    let t = h.play(t, 1_000, &["d4", "d5", "c4"]);
    h.clear();
    h.command(Command::RestartClient(A), t + 1_000);
    assert_eq!(h.take_cmds(A), [Reset]);
    h.timer();
    assert_eq!(h.take_cmds(A), [Inform, Execute, Execute, Execute]);
    assert!(h.take(B).is_empty());
    h.reply(B, t + 7_000, "e6");
    assert_eq!(h.take(A)[0].sm(), Some("e6"));
}

#[test]
fn nothing_is_sent_during_a_resync_reset_delay_and_the_turn_starts_at_once() {
    let mut h = Harness::new(no_credit(timed("300")));
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    h.sign_on(A, t + 2_000, None); // A restarted
    h.clear();
    // B moves during A's reset delay: A is sent nothing yet.
    h.reply(B, t + 3_000, "e5");
    assert!(h.take(A).is_empty(), "{}", h.transcript());
    let s = h.referee.snapshot(t + 4_000);
    assert!(
        s.clock(Color::White).running,
        "A's turn began with B's move"
    );
    // A link coming back during the delay sends nothing either.
    h.feed(Input::LinkBack { client: A }, t + 4_000);
    assert!(h.take(A).is_empty());
    assert_eq!(h.timer(), t + 7_000);
    assert_eq!(h.take_cmds(A), [Inform, Execute, Execute, Respond]);
    assert_eq!(h.last(A).sm(), None);
    h.reply(A, t + 8_000, "Nf3");
    assert_eq!(h.take(B)[0].sm(), Some("Nf3"));
    // 1 s for e4, 5 s from e5 to Nf3.
    assert_eq!(h.snap().clock(Color::White).used_ms, 6_000);
}

#[test]
fn a_respond_the_link_refused_is_not_waited_for_the_client_is_brought_back_in_line() {
    let mut h = Harness::new(no_credit(timed("300")));
    let t = h.start();
    h.acks = Acks::Held;
    h.clear();
    h.reply(A, t + 1_000, "e4");
    h.ack(A, t + 1_000);
    // B's respond (with e4) is refused by its link: it never leaves.
    assert_eq!(h.take_cmds(B), [Respond]);
    let out = h.refuse(B, t + 1_000);
    assert!(h.notices().iter().any(|n| n.contains("refused")), "{out:?}");
    // B is brought back in line: reset now, the game after the delay.
    assert_eq!(h.take_cmds(B), [Reset]);
    h.ack(B, t + 1_100);
    assert!(
        !h.snap().clock(Color::Black).running,
        "no clock for a respond that never left"
    );
    assert_eq!(h.timer(), t + 6_000);
    assert_eq!(h.take_cmds(B), [Inform, Execute, Respond]);
    h.ack(B, t + 6_500);
    assert!(h.snap().clock(Color::Black).running, "the new respond left");
    h.reply(B, t + 7_500, "e5");
    assert_eq!(h.snap().sans, ["e4", "e5"]);
    assert_eq!(h.snap().clock(Color::Black).used_ms, 1_000);
}

#[test]
fn a_lost_link_keeps_the_clock_and_link_back_resends_the_respond() {
    let mut h = Harness::new(timed("300"));
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    h.clear();
    let first = h.last(B).clone();
    h.feed(
        Input::LinkLost {
            client: B,
            reason: "cable pulled".into(),
        },
        t + 2_000,
    );
    assert!(!h.snap().clients[1].link_up);
    assert!(h.snap().clock(Color::Black).running);
    h.feed(Input::LinkBack { client: B }, t + 6_000);
    assert_eq!(h.snap().clock(Color::Black).used_ms, 5_000);
    // The client may sign on again; if it does not within the reset delay,
    // the respond goes out again.
    assert!(h.take(B).is_empty());
    let resent_at = h.timer();
    assert_eq!(resent_at, t + 6_000 + 5_000);
    let b = h.take(B);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].refcom(), Respond);
    assert_eq!(b[0].record.fields, first.record.fields);
    assert_eq!(b[0].sm(), Some("e4"));
    h.reply(B, resent_at + 1_000, "c5");
    assert_eq!(h.snap().sans, ["e4", "c5"]);
}

// ----- the supervisor ------------------------------------------------------------

#[test]
fn supervisor_pause_stops_the_clock_and_resume_restarts_it() {
    let mut h = Harness::new(no_credit(timed("300")));
    let t = h.start();
    h.clear();
    h.command(Command::Pause, t + 1_000);
    assert_eq!(
        h.snap().phase,
        Phase::Paused {
            reason: "paused by the supervisor".into()
        }
    );
    h.command(Command::Resume, t + 30_000);
    assert!(h.take(A).is_empty(), "no resend after a plain pause");
    assert!(h.snap().clock(Color::White).running);
    h.reply(A, t + 31_000, "e4");
    assert_eq!(
        h.referee.snapshot(t + 31_000).clock(Color::White).used_ms,
        2_000
    );
}

#[test]
fn a_reply_that_arrives_during_a_pause_is_held_and_played_at_resume() {
    let mut h = Harness::new(no_credit(timed("300")));
    let t = h.start();
    h.clear();
    // The supervisor pauses while A's reply is on the wire.
    h.command(Command::Pause, t + 1_000);
    let out = h.reply(A, t + 1_200, "e4");
    assert!(!rejected(&out), "a pause is not a rejected line: {out:?}");
    assert_eq!(sends(&out), 0, "nothing is played during the pause");
    assert!(
        h.notices().iter().any(|n| n.contains("held")),
        "{:?}",
        h.notices()
    );
    assert!(h.take(B).is_empty());
    // A second reply during the same pause does not replace the first.
    assert!(rejected(&h.reply(A, t + 1_500, "d4")));
    h.command(Command::Resume, t + 60_000);
    // A is not asked again; the held move goes to B at once.
    assert!(h.take(A).is_empty(), "A must not be asked again");
    let b = h.take(B);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].refcom(), Respond);
    assert_eq!(b[0].sm(), Some("e4"));
    assert_eq!(h.snap().sans, ["e4"]);
    // A is charged up to the pause only; Black's clock runs from the resume.
    assert_eq!(
        h.referee.snapshot(t + 61_000).clock(Color::White).used_ms,
        1_000
    );
    assert_eq!(
        h.referee.snapshot(t + 61_000).clock(Color::Black).used_ms,
        1_000
    );
    // Nobody loses on time for the pause.
    assert!(h.game_overs().is_empty());
}

#[test]
fn a_reply_held_in_a_fault_pause_is_played_in_place_of_asking_again() {
    let mut h = Harness::new(no_credit(Settings {
        illegal_move: IllegalMove::Fault,
        ..timed("300")
    }));
    let t = h.start();
    h.clear();
    h.reply(A, t + 1_000, "e5");
    assert_eq!(h.take(A)[0].refcom(), RefCom::Fault);
    h.reply(A, t + 2_000, "e4");
    h.command(Command::Resume, t + 10_000);
    assert!(
        h.take(A).is_empty(),
        "the held reply answers; no respond again"
    );
    assert_eq!(h.take(B)[0].sm(), Some("e4"));
}

#[test]
fn a_respond_that_leaves_during_a_pause_starts_the_clock_on_resume() {
    let mut h = Harness::new(no_credit(timed("300")));
    h.sign_on(A, 0, None);
    h.sign_on(B, 0, None);
    h.acks = Acks::Held;
    h.timer(); // 5000: respond handed to A's writer
    h.command(Command::Pause, 5_100);
    h.ack_all(5_200); // it leaves during the pause
    assert!(!h.snap().clock(Color::White).running);
    assert_eq!(h.referee.next_deadline(), None);
    h.command(Command::Resume, 9_000);
    assert!(h.snap().clock(Color::White).running);
    assert_eq!(
        h.referee.snapshot(10_000).clock(Color::White).remaining_ms,
        Some(299_000)
    );
    assert_eq!(h.referee.next_deadline(), Some(9_000 + 300_000));
}

#[test]
fn supervisor_adjudicates_each_result() {
    for (v, result, why) in [
        (Verdict::WhiteWins, "1-0", "White wins"),
        (Verdict::BlackWins, "0-1", "Black wins"),
        (Verdict::Draw, "1/2-1/2", "drawn"),
    ] {
        let mut h = Harness::new(settings());
        let t = h.start();
        h.reply(A, t + 1_000, "e4");
        h.command(Command::Adjudicate(v), t + 2_000);
        assert_over(&mut h, result, Termination::Adjudication, why);
    }
}

#[test]
fn supervisor_abort_records_no_result_and_the_match_goes_on() {
    let mut h = Harness::new(Settings {
        games: 2,
        ..settings()
    });
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    h.command(Command::AbortGame, t + 2_000);
    assert_over(&mut h, "*", Termination::Abandoned, "aborted");
    assert_eq!(h.snap().score_halves, [0, 0]);
    h.timer(); // conclude delay: game 2
    assert_eq!(h.take_cmds(A), [Reset]);
    assert_eq!(h.take_cmds(B), [Reset]);
    h.timer();
    assert_eq!(h.take_cmds(B), [Inform, Respond], "B has White in game 2");
    assert_eq!(h.snap().game_number, 2);
}

#[test]
fn supervisor_ends_the_session_mid_game() {
    let mut h = Harness::new(Settings {
        games: 3,
        ..settings()
    });
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    let out = h.command(Command::EndSession, t + 2_000);
    assert!(out.iter().any(|o| matches!(o, Output::SessionOver { .. })));
    let g = h.game_over();
    assert_eq!(g.result, GameResult::None);
    assert_eq!(g.termination, Termination::Unterminated);
    assert_eq!(pgn_tag(&g, "Termination").as_deref(), Some("unterminated"));
    for who in [A, B] {
        let cmds = h.take_cmds(who);
        assert_eq!(cmds[cmds.len() - 3..], [Inform, Conclude, Disconnect]);
    }
    assert!(h.referee.is_over());
    assert_eq!(h.snap().phase, Phase::SessionOver);
    assert_eq!(h.referee.next_deadline(), None);
    let out = h.reply(B, t + 3_000, "e5");
    assert_eq!(sends(&out), 0);
}

// ----- games, the match, openings ---------------------------------------------------

#[test]
fn game_end_conclude_next_game_with_colours_swapped_then_disconnect() {
    let mut h = Harness::new(Settings {
        games: 2,
        ..settings()
    });
    h.sign_on(A, 0, Some("Alpha"));
    h.sign_on(B, 0, Some("Beta"));
    let t = h.timer();
    let t = h.play(t, 1_000, &FOOLS_MATE);
    assert_over(&mut h, "0-1", Termination::Normal, "White checkmated");
    assert_eq!(h.snap().score_halves, [0, 2]);
    assert_eq!(h.referee.next_deadline(), Some(t + 5_000));
    assert_eq!(h.timer(), t + 5_000);
    let reset = h.take(A);
    assert_eq!(reset.len(), 1);
    assert_eq!(reset[0].refcom(), Reset);
    assert_eq!(
        reset[0].fen(),
        crate::game::fen_of(&shakmaty::Chess::default())
    );
    assert_eq!(h.take_cmds(B), [Reset]);
    let t = h.timer();
    let b = h.take(B);
    assert_eq!(
        b.iter().map(Got::refcom).collect::<Vec<_>>(),
        [Inform, Respond]
    );
    assert_eq!(b[0].tag("White").as_deref(), Some("Beta"));
    assert_eq!(b[0].tag("Round").as_deref(), Some("2"));
    let t = h.play(t, 1_000, &FOOLS_MATE);
    assert_eq!(h.game_overs().len(), 2);
    assert_eq!(h.game_overs()[1].result, GameResult::Win(Color::Black));
    assert_eq!(h.snap().score_halves, [2, 2]);
    assert_eq!(h.timer(), t + 5_000);
    for who in [A, B] {
        let cmds = h.take_cmds(who);
        assert_eq!(cmds[cmds.len() - 1], Disconnect);
    }
    let summary = h
        .outputs
        .iter()
        .find_map(|(_, o)| match o {
            Output::SessionOver { summary } => Some(summary.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(summary, h.referee.summary());
    assert!(
        summary.starts_with("match over: Alpha 1 - 1 Beta (2 games with a result)"),
        "{summary}"
    );
    assert!(h.referee.is_over());
}

#[test]
fn the_next_game_waits_for_a_client_that_signed_off() {
    let mut h = Harness::new(Settings {
        games: 2,
        ..settings()
    });
    let t = h.start();
    let t = h.play(t, 1_000, &FOOLS_MATE);
    h.line(B, t + 1_000, &format!("{INITIAL} refreq sign_off;"));
    h.clear();
    h.timer();
    assert!(h.take(A).is_empty() && h.take(B).is_empty());
    assert_eq!(h.snap().phase, Phase::WaitingForSignOn);
    assert_eq!(h.referee.next_deadline(), None);
    h.sign_on(B, t + 60_000, None);
    assert_eq!(h.take_cmds(A), [Reset]);
    assert_eq!(h.take_cmds(B), [Reset]);
    h.timer();
    assert_eq!(h.take_cmds(B), [Inform, Respond]);
    assert_eq!(h.snap().game_number, 2);
}

#[test]
fn colours_stay_when_swap_colors_is_off() {
    let mut h = Harness::new(Settings {
        games: 2,
        swap_colors: false,
        ..settings()
    });
    let t = h.start();
    h.play(t, 1_000, &FOOLS_MATE);
    h.timer();
    h.clear();
    h.timer();
    assert_eq!(h.take_cmds(A), [Inform, Respond]);
    assert_eq!(h.snap().clients[0].color, Some(Color::White));
}

#[test]
fn an_opening_as_moves_is_sent_with_execute_then_respond_without_a_move() {
    let mut h = Harness::new(Settings {
        openings: vec![from_moves(&["e4", "e5", "Nf3"])],
        ..settings()
    });
    h.sign_on(A, 0, None);
    h.sign_on(B, 0, None);
    let reset = h.take(A);
    assert_eq!(
        reset[0].fen(),
        crate::game::fen_of(&shakmaty::Chess::default())
    );
    assert_eq!(h.take_cmds(B), [Reset]);
    h.timer();
    let a = h.take(A);
    let b = h.take(B);
    assert_eq!(
        a.iter().map(Got::refcom).collect::<Vec<_>>(),
        [Inform, Execute, Execute, Execute]
    );
    assert_eq!(
        b.iter().map(Got::refcom).collect::<Vec<_>>(),
        [Inform, Execute, Execute, Execute, Respond]
    );
    let sms: Vec<Option<&str>> = b[1..4].iter().map(Got::sm).collect();
    assert_eq!(sms, [Some("e4"), Some("e5"), Some("Nf3")]);
    assert_eq!(
        b[3].fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
    );
    assert_eq!(
        b[4].fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    assert_eq!(b[4].sm(), None);
    h.reply(B, 6_000, "Nc6");
    assert_eq!(h.take(A)[0].sm(), Some("Nc6"));
    let pgn = h.referee.live_pgn(6_000).unwrap();
    assert_eq!(pgn.moves.len(), 4);
    assert!(!pgn.tags.iter().any(|(n, _)| n == "FEN"));
}

#[test]
fn an_opening_as_a_position_is_set_up_and_recorded_with_fen() {
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let mut h = Harness::new(at_fen(fen));
    h.sign_on(A, 0, None);
    h.sign_on(B, 0, None);
    assert_eq!(h.last(A).refcom(), Reset);
    assert_eq!(h.last(A).fen(), fen);
    h.timer();
    assert_eq!(h.take_cmds(A), [Reset, Inform], "White waits");
    let b = h.take(B);
    assert_eq!(
        b.iter().map(Got::refcom).collect::<Vec<_>>(),
        [Reset, Inform, Respond]
    );
    assert_eq!(b[2].fen(), fen);
    assert_eq!(b[2].sm(), None);
    h.reply(B, 6_000, "c5");
    h.command(Command::Adjudicate(Verdict::Draw), 7_000);
    let g = h.game_over();
    assert_eq!(pgn_tag(&g, "SetUp").as_deref(), Some("1"));
    assert_eq!(pgn_tag(&g, "FEN").as_deref(), Some(fen));
    assert!(g.pgn.black_first);
    assert!(h.final_pgn().contains("1... c5"), "{}", h.final_pgn());
}

// ----- rejected lines -----------------------------------------------------------

#[test]
fn bad_lines_are_rejected_without_changing_the_game() {
    let mut h = Harness::new(timed("300"));
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    h.clear();
    let before = state(&h.referee.snapshot(t + 5_000));
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3";
    let bad: Vec<(ClientId, String)> = vec![
        (A, "hello world".into()),
        (A, String::new()),
        // a second reply from the side that just moved
        (A, format!("{after_e4} refreq reply; sm d5;")),
        (B, format!("{after_e4} refreq dance;")),
        (B, format!("{after_e4} sm e5;")),
        (B, format!("{after_e4} refcom respond;")),
        (B, format!("{after_e4} refreq reply; sm e5; sm e6;")),
    ];
    for (i, (who, text)) in bad.iter().enumerate() {
        let out = h.line(*who, t + 1_100 + i as u64, text);
        assert!(rejected(&out), "not rejected: {text:?}");
        assert_eq!(sends(&out), 0, "{text:?}");
    }
    assert!(h.take(A).is_empty() && h.take(B).is_empty());
    assert_eq!(state(&h.referee.snapshot(t + 5_000)), before);
    h.reply(B, t + 6_000, "e5");
    assert_eq!(h.snap().sans, ["e4", "e5"]);
}

#[test]
fn lines_from_a_client_not_signed_on_or_before_the_game_are_rejected() {
    let mut h = Harness::new(settings());
    let out = h.line(A, 0, &format!("{INITIAL} refreq reply; sm e4;"));
    assert!(rejected(&out));
    let out = h.line(A, 1, &format!("{INITIAL} refreq fault;"));
    assert!(rejected(&out));
    assert_eq!(h.snap().phase, Phase::WaitingForSignOn);
    h.sign_on(A, 2, None);
    h.sign_on(B, 3, None);
    // Starting: the reset delay is running.
    let before = state(&h.snap());
    let out = h.line(A, 4, &format!("{INITIAL} refreq reply; sm e4;"));
    assert!(rejected(&out));
    assert_eq!(state(&h.snap()), before);
    assert!(h.all(A).iter().all(|g| g.refcom() == Reset));
}

// ----- records of the game ------------------------------------------------------

#[test]
fn live_pgn_mid_game_and_final_pgn_with_clock_comments() {
    let mut h = Harness::new(no_credit(timed("40/7200")));
    let t = h.start();
    let t = h.play(t, 2_000, &FOOLS_MATE[..2]);
    let live = h.referee.live_pgn(t + 500).unwrap();
    assert_eq!(live.result, "*");
    let clock = live
        .tags
        .iter()
        .find(|(n, _)| n == "Clock")
        .map(|(_, v)| v.as_str());
    assert_eq!(
        clock,
        Some("W/1:59:57"),
        "White on move, 0.5 s into the move"
    );
    assert!(!live.tags.iter().any(|(n, _)| n == "Termination"));
    h.play(t, 2_000, &FOOLS_MATE[2..]);
    let g = h.game_over();
    assert!(
        g.pgn
            .moves
            .iter()
            .all(|m| m.clk_ms.is_some() && m.emt_ms == Some(2_000))
    );
    let pgn = h.final_pgn();
    assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
    assert!(pgn.contains("[TimeControl \"40/7200\"]"), "{pgn}");
    assert!(
        pgn.contains("1. f3 {[%clk 1:59:58] [%emt 0:00:02.000]}"),
        "{pgn}"
    );
    assert_eq!(pgn.matches("[%clk").count(), 4, "{pgn}");
    let live = h.referee.live_pgn(t + 10_000).unwrap();
    assert_eq!(
        live.result, "0-1",
        "after the end the live PGN is the final one"
    );
}

#[test]
fn untimed_games_have_no_clock_comments_but_cc_counts_time_used() {
    let mut h = Harness::new(no_credit(settings()));
    let t = h.start();
    h.reply(A, t + 61_000, "e4");
    assert_eq!(
        h.last(B).cc(),
        ("000:00:01:01".into(), "000:00:00:00".into())
    );
    h.command(Command::Adjudicate(Verdict::Draw), t + 62_000);
    assert!(
        h.game_over()
            .pgn
            .moves
            .iter()
            .all(|m| m.clk_ms.is_none() && m.emt_ms.is_none())
    );
    assert!(!h.final_pgn().contains("%clk"));
}

#[test]
fn the_same_inputs_give_the_same_outputs() {
    fn run() -> (String, String) {
        let mut h = Harness::new(Settings {
            games: 2,
            ..timed("60+1")
        });
        h.sign_on(A, 0, Some("Alpha"));
        h.sign_on(B, 7, Some("Beta"));
        let t = h.timer();
        let t = h.play(t, 1_234, &["e4", "c5", "Nf3", "d6"]);
        h.reply_with(A, t + 99, Some("d4"), "draw_offer;");
        h.line(B, t + 150, "junk");
        h.reply(B, t + 2_000, "cxd4");
        h.command(Command::Pause, t + 2_500);
        h.command(Command::Resume, t + 3_000);
        h.timer(); // A flags
        h.timer(); // game 2
        h.timer();
        h.command(Command::EndSession, h.now + 10);
        (format!("{:?}", h.outputs), h.transcript())
    }
    let (a, ta) = run();
    let (b, tb) = run();
    assert_eq!(a, b);
    assert_eq!(ta, tb);
    assert!(a.contains("SessionOver"));
}

#[test]
fn a_client_that_signs_on_after_its_link_came_back_is_resynced_not_sent_the_respond_twice() {
    let mut h = Harness::new(timed("300"));
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    h.clear();
    h.feed(
        Input::LinkLost {
            client: B,
            reason: "cable pulled".into(),
        },
        t + 2_000,
    );
    h.feed(Input::LinkBack { client: B }, t + 3_000);
    h.sign_on(B, t + 3_500, None);
    assert_eq!(h.take_cmds(B), [Reset]);
    // The resync's own respond is the only one: the link-back resend is
    // cancelled by the sign-on.
    assert_eq!(h.timer(), t + 3_500 + 5_000);
    assert_eq!(h.take_cmds(B), [Inform, Execute, Respond]);
    h.reply(B, t + 9_000, "c5");
    assert_eq!(h.snap().sans, ["e4", "c5"]);
}

#[test]
fn a_silent_client_gets_its_respond_again_after_resend_after() {
    let mut h = Harness::new(Settings {
        resend_after_ms: 30_000,
        ..settings()
    });
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    h.clear();
    let first = h.last(B).clone();
    // Nothing from B: after 30 s of silence the same respond goes out again.
    assert_eq!(h.timer(), t + 1_000 + 30_000);
    let again = h.take(B);
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].refcom(), Respond);
    assert_eq!(again[0].record.fields, first.record.fields);
    assert_eq!(again[0].sm(), Some("e4"));
    // And again 30 s after that, not before.
    assert_eq!(h.timer(), t + 1_000 + 60_000);
    assert_eq!(h.take_cmds(B), [Respond]);
    h.reply(B, t + 62_000, "e5");
    assert_eq!(h.snap().sans, ["e4", "e5"]);
}

#[test]
fn a_reply_on_the_wire_is_not_crossed_by_a_resend_after_silence() {
    let mut h = Harness::new(Settings {
        resend_after_ms: 7_000,
        ..settings()
    });
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    h.clear();
    let asked = t + 1_000;
    assert_eq!(h.referee.next_deadline(), Some(asked + 7_000));
    // B's reply starts arriving 10 ms before the silence would end; its
    // line end comes 20 ms after it would have ended.
    let out = h.feed(Input::Receiving { from: B }, asked + 6_990);
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(
        h.referee.next_deadline(),
        Some(asked + 6_990 + 7_000),
        "silence counts from the last byte"
    );
    let out = h.feed(Input::Timer, asked + 7_000);
    assert_eq!(sends(&out), 0, "no resend while a reply is arriving");
    h.reply(B, asked + 7_010, "e5");
    assert!(h.take(B).is_empty(), "B was never asked twice");
    assert_eq!(h.snap().sans, ["e4", "e5"]);
    // Bytes from the client not on move do not hold back A's resend.
    let asked = asked + 7_010;
    h.feed(Input::Receiving { from: B }, asked + 5_000);
    assert_eq!(h.referee.next_deadline(), Some(asked + 7_000));
    // A damaged (dropped) line from A is bytes too.
    h.feed(
        Input::Dropped {
            from: A,
            reason: "noise".into(),
        },
        asked + 6_000,
    );
    assert_eq!(h.referee.next_deadline(), Some(asked + 6_000 + 7_000));
}

#[test]
fn without_resend_after_a_silent_client_is_not_asked_again() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 1_000, "e4");
    h.clear();
    // Untimed and no resend: nothing is due.
    assert_eq!(h.referee.next_deadline(), None);
    assert!(h.take(B).is_empty());
}

#[test]
fn a_referee_resumed_after_the_match_ended_sends_disconnect_again() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.command(Command::EndSession, t + 1_000);
    assert!(h.referee.is_over());
    h.clear();
    h.feed(Input::Resumed, t + 2_000);
    assert_eq!(h.take_cmds(A), [Disconnect]);
    assert_eq!(h.take_cmds(B), [Disconnect]);
    assert!(h.referee.is_over());
}
