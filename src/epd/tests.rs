//! Unit tests for parsing and writing, many from the spec's own examples.

use super::*;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

fn parse(s: &str) -> Record {
    match Record::parse(s) {
        Ok(r) => r,
        Err(e) => panic!("{s:?} did not parse: {e}"),
    }
}

/// The error for `s`, as `(column, message)`.
fn err(s: &str) -> (usize, String) {
    match Record::parse(s) {
        Ok(r) => panic!("{s:?} parsed as {r:?}"),
        Err(e) => (e.column, e.message),
    }
}

fn assert_err(s: &str, column: usize, needle: &str) {
    let (c, m) = err(s);
    assert_eq!(c, column, "column for {s:?}: {m}");
    assert!(
        m.contains(needle),
        "message for {s:?} was {m:?}, wanted {needle:?}"
    );
}

#[test]
fn starting_array_from_section_4() {
    let r = parse(START);
    assert_eq!(r.fields, Fields::initial());
    assert!(r.ops.is_empty());
    assert_eq!(r.to_string(), START);
}

#[test]
fn spec_operation_examples() {
    let r = parse(&format!(
        "{START} bm e4 d4; id \"BK.15\"; ce -32767; c0 \"a comment\"; dm 3;"
    ));
    assert_eq!(
        r.op("bm").unwrap().operands,
        vec![Operand::Token("e4".into()), Operand::Token("d4".into())]
    );
    assert_eq!(r.id().unwrap(), Some("BK.15"));
    assert_eq!(r.ce().unwrap(), Some(-32767));
    assert_eq!(r.comment(0).unwrap(), Some(Some("a comment")));
    assert_eq!(
        r.op("dm").unwrap().operands,
        vec![Operand::Token("3".into())]
    );
    assert_eq!(r.ops.len(), 5);
}

#[test]
fn referee_records() {
    let r = parse(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 cc 000:00:01:02 000:00:00:00; fmvn 1; hmvc 0; refcom respond; sm e4;",
    );
    assert_eq!(r.refcom().unwrap(), Some(RefCom::Respond));
    assert_eq!(r.cc().unwrap(), Some((ClockValue(62), ClockValue(0))));
    assert_eq!(r.fmvn().unwrap(), Some(1));
    assert_eq!(r.hmvc().unwrap(), Some(0));
    assert_eq!(r.sm().unwrap(), Some("e4"));
    let r = parse(&format!(
        "{START} refreq sign_on; tcsi \"a@b\" \"Crafty 8.1\";"
    ));
    assert_eq!(r.refreq().unwrap(), Some(RefReq::SignOn));
    assert_eq!(
        r.tcsi().unwrap(),
        Some(("a@b".to_string(), "Crafty 8.1".to_string()))
    );
}

#[test]
fn no_operand_operations() {
    let r = parse(&format!("{START} draw_offer; sm Nf3;"));
    assert!(r.draw_offer());
    assert!(!r.resign());
    assert_eq!(r.op("draw_offer").unwrap().operands, vec![]);
}

#[test]
fn whitespace_is_lenient() {
    let messy = "  \trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR \t w  KQkq\t-   bm  e4\td4 ;id \"BK.15\"  ;resign ;  \t";
    let r = parse(messy);
    assert_eq!(
        r.to_string(),
        format!("{START} bm e4 d4; id \"BK.15\"; resign;")
    );
}

#[test]
fn strings_keep_their_spaces_and_kind() {
    let r = parse(&format!(
        "{START} c0 \"  two  blanks \"; c1 \"\"; noop a \"a\";"
    ));
    assert_eq!(r.comment(0).unwrap(), Some(Some("  two  blanks ")));
    assert_eq!(r.comment(1).unwrap(), Some(Some("")));
    assert_eq!(
        r.op("noop").unwrap().operands,
        vec![Operand::Token("a".into()), Operand::Str("a".into())]
    );
    assert_eq!(
        r.to_string(),
        format!("{START} c0 \"  two  blanks \"; c1 \"\"; noop a \"a\";")
    );
}

#[test]
fn unknown_and_private_opcodes_are_kept() {
    let s = format!("{START} Xyz_1 \"private\" 3; zz9 q; bm e4;");
    let r = parse(&s);
    assert_eq!(r.ops.len(), 3);
    assert_eq!(r.op("Xyz_1").unwrap().operands.len(), 2);
    assert_eq!(r.to_string(), s);
}

#[test]
fn string_length_limit() {
    let ok = "x".repeat(255);
    let r = parse(&format!("{START} c0 \"{ok}\";"));
    assert_eq!(r.comment(0).unwrap(), Some(Some(ok.as_str())));
    let long = "x".repeat(256);
    assert_err(
        &format!("{START} c0 \"{long}\";"),
        START.len() + 5,
        "256 bytes long",
    );
}

#[test]
fn line_length_limit() {
    let base = format!("{START} c0 \"\";");
    let pad = MAX_LINE - base.len();
    let exact = format!("{START}{} c0 \"\";", " ".repeat(pad));
    assert_eq!(exact.len(), MAX_LINE);
    assert!(Record::parse(&exact).is_ok());
    let over = format!("{exact} ");
    assert_err(&over, 4097, "4097 bytes long; the limit is 4096");
}

#[test]
fn opcode_length_limit() {
    let ok = format!("a{}", "b".repeat(14));
    assert!(Record::parse(&format!("{START} {ok};")).is_ok());
    assert_err(
        &format!("{START} {ok}c;"),
        START.len() + 2,
        "16 characters long",
    );
}

#[test]
fn duplicate_opcode_is_an_error() {
    assert_err(
        &format!("{START} bm e4; id \"x\"; bm d4;"),
        START.len() + 17,
        "duplicate opcode \"bm\"",
    );
}

#[test]
fn position_field_errors() {
    let tail = " w KQkq -";
    // Column of the offending byte in the placement.
    assert_err(
        &format!("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR{tail}"),
        14,
        "unexpected 'x'",
    );
    assert_err(
        &format!("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR{tail}"),
        17,
        "rank 7 has 7 squares",
    );
    assert_err(
        &format!("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR{tail}"),
        19,
        "unexpected '9'",
    );
    assert_err(
        &format!("rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR{tail}"),
        19,
        "unexpected '0'",
    );
    assert_err(
        &format!("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR{tail}"),
        20,
        "two digits",
    );
    assert_err(
        &format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR{tail}"),
        44,
        "more than 8 squares",
    );
    assert_err(
        &format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8{tail}"),
        44,
        "more than 8 ranks",
    );
    assert_err(
        &format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP{tail}"),
        35,
        "has 7 ranks",
    );
    assert_err(
        &format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/{tail}"),
        36,
        "rank 1 has 0 squares",
    );
    assert_err(
        &format!("/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP{tail}"),
        1,
        "rank 8 has 0 squares",
    );
    // Side, castling, en passant.
    let p = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    assert_err(&format!("{p} W KQkq -"), 45, "active color");
    assert_err(&format!("{p} wb KQkq -"), 45, "active color");
    assert_err(&format!("{p} w QK -"), 48, "castling");
    assert_err(&format!("{p} w KK -"), 48, "castling");
    assert_err(&format!("{p} w KQkqx -"), 51, "castling");
    assert_err(&format!("{p} w -K -"), 47, "castling");
    assert_err(&format!("{p} w KQkq e4"), 52, "en passant");
    assert_err(&format!("{p} w KQkq i3"), 52, "en passant");
    assert_err(&format!("{p} w KQkq -;"), 52, "en passant");
    // Chess960's X-FEN and Shredder-FEN: White's letters, then Black's,
    // two at most each.
    for ok in ["HAha", "GBgb", "KBkq", "Bb", "h", "QH"] {
        let r = Record::parse(&format!("{p} w {ok} -"));
        assert_eq!(r.map(|r| r.fields.castling), Ok(ok.to_string()), "{ok}");
    }
    for bad in ["hA", "HAG", "Hahgb", "IK", "Hz"] {
        assert_err(&format!("{p} w {bad} -"), 47, "castling");
    }
    for ok in ["K", "Qk", "Kq", "kq", "KQkq", "Q", "q"] {
        assert!(Record::parse(&format!("{p} w {ok} -")).is_ok(), "{ok}");
    }
    for ok in ["a3", "h6", "e3"] {
        assert!(Record::parse(&format!("{p} b - {ok}")).is_ok(), "{ok}");
    }
}

#[test]
fn missing_fields() {
    assert_err("", 1, "missing piece placement field");
    assert_err("   ", 4, "missing piece placement field");
    assert_err("8/8/8/8/8/8/8/8", 16, "missing active color field");
    assert_err(
        "8/8/8/8/8/8/8/8 w",
        18,
        "missing castling availability field",
    );
    assert_err(
        "8/8/8/8/8/8/8/8 w - ",
        21,
        "missing en passant target square field",
    );
}

#[test]
fn operation_errors() {
    let n = START.len();
    assert_err(
        &format!("{START} c0 \"open;"),
        n + 5,
        "string operand not closed",
    );
    assert_err(
        &format!("{START} bm e4"),
        n + 7,
        "operation \"bm\" not ended by ';'",
    );
    assert_err(
        &format!("{START} resign"),
        n + 8,
        "operation \"resign\" not ended by ';'",
    );
    assert_err(
        &format!("{START} ;"),
        n + 2,
        "expected an opcode (a letter), found ';'",
    );
    assert_err(&format!("{START} 1bm e4;"), n + 2, "expected an opcode");
    assert_err(&format!("{START} _x;"), n + 2, "expected an opcode");
    assert_err(
        &format!("{START} b-m e4;"),
        n + 3,
        "invalid character '-' in opcode",
    );
    assert_err(
        &format!("{START} id \"a\"b;"),
        n + 8,
        "after a string operand",
    );
    assert_err(
        &format!("{START} bm e\"4;"),
        n + 6,
        "inside an unquoted operand",
    );
    assert_err(
        &format!("{START} c0 \"a\tb\";"),
        n + 7,
        "tab inside a string",
    );
}

#[test]
fn byte_errors() {
    assert_err(
        &format!("{START} c0 \"\u{e9}\";"),
        START.len() + 6,
        "non-ASCII byte 0xc3",
    );
    assert_err(&format!("{START}\r"), START.len() + 1, "control byte 0x0d");
    assert_err("\0", 1, "control byte 0x00");
    assert_err(
        &format!("{START} bm e4;\x7f"),
        START.len() + 8,
        "control byte 0x7f",
    );
    let e = Record::parse_bytes(b"8/8/8/8/8/8/8/8 w - - c0 \"\xff\";").unwrap_err();
    assert_eq!((e.column, e.message.as_str()), (27, "non-ASCII byte 0xff"));
}

#[test]
fn display_is_as_given_and_canonical_is_sorted() {
    let r = parse(&format!(
        "{START} pv e4 d4 c4; bm e4 Nf3 d4; am \"x\" b a; id \"z\"; cc 000:00:00:09 000:00:00:01; Zp b a;"
    ));
    assert_eq!(
        r.to_string(),
        format!(
            "{START} pv e4 d4 c4; bm e4 Nf3 d4; am \"x\" b a; id \"z\"; cc 000:00:00:09 000:00:00:01; Zp b a;"
        )
    );
    let canonical = format!(
        "{START} Zp b a; am \"x\" a b; bm Nf3 d4 e4; cc 000:00:00:09 000:00:00:01; id \"z\"; pv e4 d4 c4;"
    );
    assert_eq!(r.to_canonical(), canonical);
    let mut n = r.clone();
    n.normalize();
    assert_eq!(n.to_string(), canonical);
    let mut buf = String::new();
    n.write_into(&mut buf);
    assert_eq!(buf, canonical);
}

#[test]
fn canonical_form_of_a_messy_line_is_spec_7_1() {
    let r = parse(&format!("   {START}   sm e4 ;  bm  d4   c4;  "));
    assert_eq!(r.to_canonical(), format!("{START} bm c4 d4; sm e4;"));
}

#[test]
fn aclk_is_written_and_read_in_milliseconds() {
    let r = Record::new(Fields::initial()).with(Operation::clock_left(1_234, 0));
    let text = r.to_canonical();
    assert!(text.ends_with(" Aclk 1234 0;"), "{text}");
    assert_eq!(parse(&text).clock_left().unwrap(), Some((1_234, 0)));
    // More than an EPD integer holds is written as the largest one.
    let big = Record::new(Fields::initial()).with(Operation::clock_left(u64::MAX, 5));
    assert_eq!(
        parse(&big.to_canonical()).clock_left().unwrap(),
        Some((2_147_483_647, 5))
    );
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    assert_eq!(
        parse(&format!("{start} cc 1 2;")).clock_left().unwrap(),
        None
    );
    for bad in ["Aclk 5;", "Aclk -1 5;", "Aclk x 5;", "Aclk 1 2 3;"] {
        let e = parse(&format!("{start} {bad}")).clock_left().unwrap_err();
        assert!(e.to_string().contains("Aclk"), "{bad}: {e}");
    }
}

#[test]
fn the_search_time_of_a_reply_is_read() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    let rec = |ops: &str| parse(&format!("{start} {ops}"));
    assert_eq!(
        rec("sm e4; Asearch 37;").search_time_ms().unwrap(),
        Some(37)
    );
    assert_eq!(rec("sm e4; Asearch 0;").search_time_ms().unwrap(), Some(0));
    assert_eq!(rec("sm e4;").search_time_ms().unwrap(), None);
    for bad in [
        "Asearch;",
        "Asearch -3;",
        "Asearch 1 2;",
        "Asearch x;",
        "Asearch 99999999999;",
    ] {
        let e = rec(bad).search_time_ms().unwrap_err();
        assert!(e.to_string().contains("Asearch"), "{bad}: {e}");
    }
}

#[test]
fn the_book_and_ponder_marks_of_a_reply_are_read() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    let rec = |ops: &str| parse(&format!("{start} {ops}"));
    assert!(rec("sm e4; Abook;").book_move());
    assert!(!rec("sm e4; ce 3;").book_move());
    assert_eq!(rec("sm e4; Aponder hit;").ponder_hit().unwrap(), Some(true));
    assert_eq!(
        rec("sm e4; Aponder miss;").ponder_hit().unwrap(),
        Some(false)
    );
    assert_eq!(rec("sm e4;").ponder_hit().unwrap(), None);
    for bad in ["Aponder;", "Aponder yes;", "Aponder hit miss;"] {
        let e = rec(bad).ponder_hit().unwrap_err();
        assert!(e.to_string().contains("Aponder"), "{bad}: {e}");
    }
}
