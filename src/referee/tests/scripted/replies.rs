//! Replies and their relay to the opponent.

use super::*;

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
    let made: Vec<(usize, u32, Color, String)> = h
        .outputs
        .iter()
        .filter_map(|(_, o)| match o {
            Output::Event(Event::MoveMade {
                ply,
                number,
                color,
                san,
                ..
            }) => Some((*ply, *number, *color, san.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(made.len(), 7);
    assert_eq!(made[5], (6, 3, Color::Black, "e5".to_string()));
    assert_eq!(made[6], (7, 4, Color::White, "O-O".to_string()));
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
