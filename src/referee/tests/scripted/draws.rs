//! Draw offers, acceptances and claims.

use super::*;

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
        "Draw by 3-fold repetition",
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
        "Draw by 3-fold repetition: claimed by Black",
    );
    let g = h.game_over();
    assert_eq!(
        g.pgn.moves.len(),
        7,
        "the claimed move is written down, not played"
    );
    assert!(g.pgn.final_comment.clone().unwrap().contains("Ng8"));
}

#[test]
fn fifty_move_claims_with_and_without_a_move() {
    // hmvc 100 already: claim without a move.
    let mut h = Harness::new(at_fen("8/8/8/4k3/8/8/R7/4K3 w - - 100 80"));
    let t = h.start();
    h.reply_with(A, t + 500, None, "draw_claim;");
    assert_over(
        &mut h,
        "1/2-1/2",
        Termination::Normal,
        "Draw by fifty moves rule",
    );

    // hmvc 99: the claimed move makes it 100.
    let mut h = Harness::new(at_fen("8/8/8/4k3/8/8/R7/4K3 w - - 99 80"));
    let t = h.start();
    h.reply_with(A, t + 500, Some("Ra3"), "draw_claim;");
    assert_over(
        &mut h,
        "1/2-1/2",
        Termination::Normal,
        "Draw by fifty moves rule",
    );

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
        "Draw by insufficient mating material",
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
        "White makes a false draw claim",
    );
    let g = h.game_over();
    assert!(
        g.pgn
            .final_comment
            .clone()
            .unwrap()
            .contains("White makes a false draw claim")
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
