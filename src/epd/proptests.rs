//! Property tests: random valid records round-trip through the writer,
//! normalisation is idempotent and keeps the content, and no input of any
//! kind makes the parser panic.

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::write::is_order_dependent;
use super::*;

fn rank() -> impl Strategy<Value = String> {
    let square = prop_oneof![
        3 => Just(None),
        1 => prop::sample::select(b"PNBRQKpnbrqk".to_vec()).prop_map(Some),
    ];
    prop::collection::vec(square, 8).prop_map(|squares| {
        let mut s = String::new();
        let mut empty = 0u8;
        for sq in squares {
            match sq {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(char::from(p));
                }
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        s
    })
}

fn fields() -> impl Strategy<Value = Fields> {
    (
        prop::collection::vec(rank(), 8),
        prop_oneof![Just("w"), Just("b")],
        prop_oneof![
            Just("-".to_string()),
            "K?Q?k?q?".prop_filter("non-empty", |s| !s.is_empty())
        ],
        prop_oneof![Just("-".to_string()), "[a-h][36]"],
    )
        .prop_map(|(ranks, side, castling, en_passant)| Fields {
            placement: ranks.join("/"),
            side: side.to_string(),
            castling,
            en_passant,
        })
}

fn operand() -> impl Strategy<Value = Operand> {
    prop_oneof![
        6 => "[!#-:<-~]{1,12}".prop_map(Operand::Token),
        6 => "[ !#-~]{0,30}".prop_map(Operand::Str),
        1 => "[ !#-~]{250,255}".prop_map(Operand::Str),
        1 => "[!#-:<-~]{200,300}".prop_map(Operand::Token),
    ]
}

fn opcode() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "bm", "am", "pv", "sv", "cc", "ptp", "noop", "id", "c0", "ts"
        ])
        .prop_map(str::to_string),
        "[a-zA-Z][a-zA-Z0-9_]{0,14}",
    ]
}

fn record() -> impl Strategy<Value = Record> {
    (
        fields(),
        prop::collection::btree_map(opcode(), prop::collection::vec(operand(), 0..5), 0..7),
    )
        .prop_flat_map(|(fields, ops)| {
            let ops: Vec<Operation> = ops
                .into_iter()
                .map(|(opcode, operands)| Operation { opcode, operands })
                .collect();
            Just(ops).prop_shuffle().prop_map(move |ops| Record {
                fields: fields.clone(),
                ops,
            })
        })
        .prop_filter("fits on one line", |r| r.to_string().len() <= MAX_LINE)
}

/// Opcode -> operands, with set-like operands sorted: what a record means.
fn meaning(r: &Record) -> BTreeMap<String, Vec<Operand>> {
    r.ops
        .iter()
        .map(|op| {
            let mut operands = op.operands.clone();
            if !is_order_dependent(&op.opcode) {
                operands.sort();
            }
            (op.opcode.clone(), operands)
        })
        .collect()
}

/// Writes `r` with random runs of blanks and tabs wherever blanks may go.
fn messy(r: &Record, gaps: &[String]) -> String {
    let mut gap = gaps.iter().cycle();
    let mut next = || gap.next().map(String::as_str).unwrap_or(" ");
    let f = &r.fields;
    let mut s = format!(
        "{}{}{}{}{}{}{}{}",
        next(),
        f.placement,
        next(),
        f.side,
        next(),
        f.castling,
        next(),
        f.en_passant
    );
    for op in &r.ops {
        s.push_str(next());
        s.push_str(&op.opcode);
        for o in &op.operands {
            s.push_str(next());
            match o {
                Operand::Token(t) => s.push_str(t),
                Operand::Str(t) => s.push_str(&format!("\"{t}\"")),
            }
        }
        s.push_str(next());
        s.push(';');
    }
    s.push_str(next());
    s
}

proptest! {
    #[test]
    fn written_records_parse_back(r in record()) {
        let line = r.to_string();
        prop_assert!(line.len() <= MAX_LINE);
        prop_assert_eq!(Record::parse(&line), Ok(r.clone()));
        let mut buf = String::from("junk");
        r.write_into(&mut buf);
        prop_assert_eq!(buf.get(4..), Some(line.as_str()));
    }

    #[test]
    fn whitespace_does_not_matter(r in record(), gaps in prop::collection::vec("[ \t]{1,3}", 1..9)) {
        let line = messy(&r, &gaps);
        prop_assert_eq!(Record::parse(&line), Ok(r));
    }

    #[test]
    fn normalize_is_idempotent_and_keeps_the_content(r in record()) {
        let mut n = r.clone();
        n.normalize();
        prop_assert_eq!(n.to_string(), r.to_canonical());
        prop_assert_eq!(meaning(&n), meaning(&r));
        prop_assert!(n.ops.windows(2).all(|w| w[0].opcode < w[1].opcode));
        let mut twice = n.clone();
        twice.normalize();
        prop_assert_eq!(&twice, &n);
        prop_assert_eq!(Record::parse(&r.to_canonical()), Ok(n));
    }

    #[test]
    fn arbitrary_bytes_never_panic(b in prop::collection::vec(any::<u8>(), 0..5000)) {
        let _ = Record::parse_bytes(&b);
    }

    #[test]
    fn epd_like_text_never_panics(s in "[ -~\t]{0,300}") {
        let _ = Record::parse(&format!("8/8/8/8/8/8/8/8 w - - {s}"));
        let _ = Record::parse(&s);
    }

    #[test]
    fn mutated_records_never_panic_and_reparse_stably(
        r in record(), at in any::<prop::sample::Index>(), byte in any::<u8>()
    ) {
        let mut b = r.to_string().into_bytes();
        let i = at.index(b.len());
        b[i] = byte;
        if let Ok(m) = Record::parse_bytes(&b) {
            prop_assert_eq!(Record::parse(&m.to_string()), Ok(m));
        }
    }
}
