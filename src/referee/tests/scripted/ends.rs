//! Resignation and the automatic ends (mate, stalemate, the rules' draws).

use super::*;

#[test]
fn resign_loses() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 500, "e4");
    h.reply_with(B, t + 1_000, None, "resign;");
    assert_over(&mut h, "1-0", Termination::Normal, "Black resigns");
    // The PGN says how it ended in a closing comment, as cutechess-cli
    // does, and counts the plies.
    let pgn = h.final_pgn();
    assert!(pgn.contains("1. e4 {Black resigns} 1-0"), "{pgn}");
    assert!(pgn.contains("[PlyCount \"1\"]"), "{pgn}");
}

/// The PGN tag `name`'s value in `pgn`, if it has the tag.
fn tag<'a>(pgn: &'a str, name: &str) -> Option<&'a str> {
    let head = format!("[{name} \"");
    let rest = &pgn[pgn.find(&head)? + head.len()..];
    Some(&rest[..rest.find("\"]")?])
}

#[test]
fn a_game_is_dated_by_the_wall_clock_it_was_given() {
    use crate::referee::WallClock;
    let mut h = Harness::new(settings());
    // Time 0 was 2023-11-14T22:13:20.500Z; local time is UTC-5.
    h.wall_clock(WallClock {
        at: 0,
        unix_ms: 1_700_000_000_500,
        utc_offset_min: -300,
    });
    let t = h.start();
    h.reply(A, t + 500, "e4");
    let live = h.live_pgn();
    assert_eq!(
        tag(&live, "GameStartTime"),
        Some("2023-11-14T17:13:20 -0500")
    );
    assert_eq!(tag(&live, "GameEndTime"), None, "{live}");
    assert_eq!(tag(&live, "GameDuration"), None, "{live}");
    // A resumed referee reads the clock again (now 1 h 2 min later, and
    // summer time): the game keeps its start, its end has the new reading.
    h.wall_clock(WallClock {
        at: t + 600,
        unix_ms: 1_700_003_720_000,
        utc_offset_min: -240,
    });
    h.reply_with(B, t + 1_600, None, "resign;");
    let pgn = h.final_pgn();
    assert_eq!(
        tag(&pgn, "GameStartTime"),
        Some("2023-11-14T17:13:20 -0500")
    );
    assert_eq!(tag(&pgn, "GameEndTime"), Some("2023-11-14T19:15:21 -0400"));
    assert_eq!(tag(&pgn, "GameDuration"), Some("01:02:01"), "{pgn}");
    // A referee given a new reading before its game starts (resumed
    // while it waited for the players) dates the game by it.
    let mut h = Harness::new(settings());
    h.wall_clock(WallClock {
        at: 0,
        unix_ms: 1_700_000_000_500,
        utc_offset_min: -300,
    });
    h.wall_clock(WallClock {
        at: 100,
        unix_ms: 1_700_003_720_000,
        utc_offset_min: -240,
    });
    h.sign_on(A, 1_000, None);
    h.sign_on(B, 1_000, None);
    h.timer();
    h.reply(A, 7_000, "e4");
    let wall = 1_700_003_720_000 + (1_000 - 100);
    let want = crate::record::timestamp::pgn_game_time(wall, -240);
    assert_eq!(tag(&h.live_pgn(), "GameStartTime"), Some(want.as_str()));
}

#[test]
fn without_a_wall_clock_a_game_has_no_times() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.reply(A, t + 500, "e4");
    h.reply_with(B, t + 1_000, None, "resign;");
    let pgn = h.final_pgn();
    for name in ["GameStartTime", "GameEndTime", "GameDuration"] {
        assert_eq!(tag(&pgn, name), None, "{pgn}");
    }
}

#[test]
fn checkmate_ends_the_game_at_once() {
    let mut h = Harness::new(settings());
    let t = h.start();
    h.play(t, 500, &FOOLS_MATE);
    assert_over(&mut h, "0-1", Termination::Normal, "Black mates");
    assert_eq!(h.snap().sans.last().map(String::as_str), Some("Qh4#"));
    assert_eq!(h.game_over().pgn.moves.len(), 4);
    let pgn = h.final_pgn();
    assert!(pgn.contains("Qh4# {Black mates} 0-1"), "{pgn}");
    assert!(pgn.contains("[PlyCount \"4\"]"), "{pgn}");
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
    assert_over(&mut h, "1/2-1/2", Termination::Normal, "Draw by stalemate");
}

#[test]
fn dead_position_ends_drawn() {
    let mut h = Harness::new(at_fen("k7/8/8/8/8/8/1n6/K7 w - - 0 1"));
    let t = h.start();
    h.reply(A, t + 500, "Kxb2");
    assert_over(
        &mut h,
        "1/2-1/2",
        Termination::Normal,
        "Draw by insufficient mating material",
    );
}

#[test]
fn seventy_five_move_rule_ends_drawn() {
    let mut h = Harness::new(at_fen("8/8/8/4k3/8/8/R7/4K3 w - - 149 100"));
    let t = h.start();
    h.reply(A, t + 500, "Ra3");
    assert_over(
        &mut h,
        "1/2-1/2",
        Termination::Normal,
        "Draw by 75-move rule",
    );
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
        "Draw by 5-fold repetition",
    );
}
