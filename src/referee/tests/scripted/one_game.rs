//! The core's one game: its end and the session's, who plays White,
//! and where it starts (an opening).

use super::*;

#[test]
fn the_game_ends_concludes_and_the_session_disconnects_and_is_over() {
    let mut h = Harness::new(settings());
    h.sign_on(A, 0, Some("Alpha"));
    h.sign_on(B, 0, Some("Beta"));
    let t = h.timer();
    let t = h.play(t, 1_000, &FOOLS_MATE);
    assert_over(&mut h, "0-1", Termination::Normal, "Black mates");
    assert_eq!(h.snap().phase, Phase::GameOver);
    assert_eq!(h.referee.next_deadline(), Some(t + 5_000));
    assert!(!h.referee.is_over(), "not before the conclude delay");
    assert_eq!(h.timer(), t + 5_000);
    // No next game: the core referees one; the session ends.
    for who in [A, B] {
        let cmds = h.take_cmds(who);
        assert!(!cmds.contains(&Reset), "{who}: {cmds:?}");
        assert_eq!(cmds.last(), Some(&Disconnect), "{who}: {cmds:?}");
    }
    let over = h
        .outputs
        .iter()
        .filter(|(_, o)| matches!(o, Output::Event(Event::SessionOver)))
        .count();
    assert_eq!(over, 1);
    assert!(h.referee.is_over());
    assert_eq!(h.snap().phase, Phase::SessionOver);
    assert_eq!(h.referee.next_deadline(), None);
    // A line after the end changes nothing and sends nothing.
    h.clear();
    h.line(A, t + 9_000, &format!("{INITIAL} refreq sign_on;"));
    assert!(h.take(A).is_empty() && h.take(B).is_empty());
}

/// The game's number is 1 in everything the core says (the event numbers
/// its games itself), and the game's score is not the core's to keep.
#[test]
fn the_core_numbers_its_game_1_and_keeps_no_match_score() {
    let mut h = Harness::new(settings());
    let t = h.start();
    assert!(h.outputs.iter().any(|(_, o)| matches!(
        o,
        Output::Event(Event::GameStarted {
            game: 1,
            games: 1,
            ..
        })
    )));
    h.play(t, 1_000, &FOOLS_MATE);
    assert_eq!(h.game_overs()[0].game_number, 1);
    let snap = h.snap();
    assert_eq!((snap.game_number, snap.games_total), (1, 1));
    assert_eq!(snap.score_halves, [0, 0].into());
    assert!(snap.stats.is_none());
    assert_eq!(h.referee.progress(t).game_number, 1);
}

/// A client that signs off once the game is over does not hold the
/// session: it ends after the conclude delay all the same.
#[test]
fn a_client_that_signs_off_after_the_game_does_not_hold_the_session() {
    let mut h = Harness::new(settings());
    let t = h.start();
    let t = h.play(t, 1_000, &FOOLS_MATE);
    h.line(B, t + 1_000, &format!("{INITIAL} refreq sign_off;"));
    h.clear();
    h.timer();
    assert!(h.referee.is_over());
    assert_eq!(h.snap().phase, Phase::SessionOver);
    assert_eq!(h.take_cmds(A), [Disconnect]);
    assert!(h.take(B).is_empty(), "B signed off");
}

/// White is the client the settings say (the event chose it): here B,
/// who is told so in `inform` and asked first.
#[test]
fn white_is_the_client_the_settings_name() {
    let mut h = Harness::new(Settings {
        white: B,
        ..settings()
    });
    h.sign_on(A, 0, Some("Alpha"));
    h.sign_on(B, 0, Some("Beta"));
    h.clear();
    h.timer();
    let b = h.take(B);
    assert_eq!(
        b.iter().map(Got::refcom).collect::<Vec<_>>(),
        [Inform, Respond]
    );
    assert_eq!(b[0].tag("White").as_deref(), Some("Beta"));
    assert_eq!(b[0].tag("Black").as_deref(), Some("Alpha"));
    assert_eq!(b[0].tag("Round").as_deref(), Some("1"));
    assert_eq!(h.take_cmds(A), [Inform]);
    assert_eq!(h.snap().clients.b.color, Some(Color::White));
    assert_eq!(h.snap().clients.a.color, Some(Color::Black));
}

#[test]
fn an_opening_as_moves_is_sent_with_execute_then_respond_without_a_move() {
    let mut h = Harness::new(Settings {
        opening: Some(from_moves(&["e4", "e5", "Nf3"])),
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
