//! Games, the match and openings.

use super::*;

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
    assert_over(&mut h, "0-1", Termination::Normal, "Black mates");
    assert_eq!(h.snap().score_halves, [0, 2].into());
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
    assert_eq!(h.snap().score_halves, [2, 2].into());
    assert_eq!(h.timer(), t + 5_000);
    for who in [A, B] {
        let cmds = h.take_cmds(who);
        assert_eq!(cmds[cmds.len() - 1], Disconnect);
    }
    let summary = h
        .outputs
        .iter()
        .find_map(|(_, o)| match o {
            Output::Event(Event::SessionOver(summary)) => Some(summary.to_string()),
            _ => None,
        })
        .unwrap();
    assert_eq!(summary, h.referee.summary().to_string());
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
    assert_eq!(h.snap().clients.a.color, Some(Color::White));
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

#[test]
fn a_tournament_board_concludes_its_game_without_disconnecting_the_players() {
    let mut h = Harness::new(Settings {
        disconnect_at_end: false,
        round: Some("3.2".into()),
        ..settings()
    });
    h.sign_on(A, 0, Some("Alpha"));
    h.sign_on(B, 0, Some("Beta"));
    let t = h.timer();
    let inform = h.take(B).into_iter().find(|g| g.refcom() == Inform);
    assert_eq!(inform.and_then(|g| g.tag("Round")).as_deref(), Some("3.2"));
    let t = h.play(t, 1_000, &FOOLS_MATE);
    assert_over(&mut h, "0-1", Termination::Normal, "Black mates");
    assert_eq!(h.timer(), t + 5_000);
    assert!(h.referee.is_over());
    for who in [A, B] {
        let cmds = h.take_cmds(who);
        assert!(!cmds.contains(&Disconnect), "{who}: {cmds:?}");
    }
    // A referee restarted from the journal of that board does not send
    // the disconnect the match never sent either.
    h.feed(Input::Resumed, t + 6_000);
    for who in [A, B] {
        assert!(!h.take_cmds(who).contains(&Disconnect));
    }
}
