//! Builders for the operations the referee sends, and the sanitisers that
//! make sure a built operation always writes as parseable EPD.
//!
//! Every builder here yields an operation that, written by
//! [`Record`](super::Record)'s `Display`, parses back to itself; text that
//! came from elsewhere (a client's name, a PGN tag value) is sanitised, not
//! rejected. The only limit a builder cannot enforce is the 4096-byte line
//! ([`MAX_LINE`](super::parse::MAX_LINE)): a record with very many or very
//! long operations is the caller's to keep short.

use super::basetype::ClockValue;
use super::ops::{RefCom, RefReq};
use super::parse::MAX_STRING;
use super::record::Operation;

/// Makes `s` safe as a string operand: control characters (tabs included)
/// and `"` are removed, other non-ASCII characters become `?`, and the
/// result is cut to at most 255 bytes.
pub fn sanitize_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(MAX_STRING));
    for c in s.chars() {
        if out.len() >= MAX_STRING {
            break;
        }
        if c == '"' || c.is_control() {
            continue;
        }
        out.push(if c.is_ascii() { c } else { '?' });
    }
    out
}

/// Makes `s` safe as an unquoted operand: only printing ASCII other than
/// blank, `"` and `;` is kept, cut to at most 255 bytes. The result may be
/// empty.
pub fn sanitize_token(s: &str) -> String {
    s.bytes()
        .filter(|&c| c.is_ascii_graphic() && c != b'"' && c != b';')
        .take(MAX_STRING)
        .map(char::from)
        .collect()
}

/// Makes `s` an identifier (spec 5.2.1): only letters, digits and `_`
/// kept, cut to 15 characters. The result may be empty.
fn sanitize_identifier(s: &str) -> String {
    s.bytes()
        .filter(|&c| c.is_ascii_alphanumeric() || c == b'_')
        .take(15)
        .map(char::from)
        .collect()
}

/// An integer operand clamped to the `i32` range the spec requires.
fn clamped(n: u32, min: u32) -> String {
    n.clamp(min, i32::MAX.unsigned_abs()).to_string()
}

impl Operation {
    /// `refcom <command>;`
    pub fn refcom(command: RefCom) -> Operation {
        Operation::new("refcom").token(command.as_str())
    }

    /// `refreq <request>;`
    pub fn refreq(request: RefReq) -> Operation {
        Operation::new("refreq").token(request.as_str())
    }

    /// `sm <move>;` The move is sanitised with [`sanitize_token`]; if
    /// nothing is left the operation has no operand (`sm;`), which parses
    /// but which [`Record::sm`](super::Record::sm) reports as malformed.
    pub fn sm(san: &str) -> Operation {
        let t = sanitize_token(san);
        let op = Operation::new("sm");
        if t.is_empty() { op } else { op.token(t) }
    }

    /// `cc <white used> <black used>;`
    pub fn cc(white: ClockValue, black: ClockValue) -> Operation {
        Operation::new("cc")
            .token(white.to_string())
            .token(black.to_string())
    }

    /// `Aclk <white left> <black left>;` (an argus opcode, private by EPD
    /// spec 5.1): the time left on White's and Black's clocks in
    /// milliseconds, each clamped to `i32::MAX` (the spec's integer range,
    /// about 24 days). See [`CLOCK_LEFT`](super::CLOCK_LEFT).
    pub fn clock_left(white_ms: u64, black_ms: u64) -> Operation {
        let ms = |n: u64| n.min(i32::MAX.unsigned_abs().into()).to_string();
        Operation::new(super::CLOCK_LEFT)
            .token(ms(white_ms))
            .token(ms(black_ms))
    }

    /// `Atc "<white's control>" "<black's control>";` (an argus opcode):
    /// each colour's own time control. See
    /// [`TIME_CONTROLS`](super::TIME_CONTROLS).
    pub fn time_controls(white: &str, black: &str) -> Operation {
        Operation::new(super::TIME_CONTROLS)
            .string(sanitize_string(white))
            .string(sanitize_string(black))
    }

    /// `hmvc <n>;` with `n` clamped to `i32::MAX` (the spec's integer range).
    pub fn hmvc(n: u32) -> Operation {
        Operation::new("hmvc").token(clamped(n, 0))
    }

    /// `fmvn <n>;` with `n` clamped to 1..=`i32::MAX` (it must be positive).
    pub fn fmvn(n: u32) -> Operation {
        Operation::new("fmvn").token(clamped(n, 1))
    }

    /// `ptp <name> "<value>" ...;` PGN tag pairs in the given order. Names
    /// are cut down to identifiers (letters, digits, `_`, at most 15); a
    /// pair whose name is then empty is left out. Values are sanitised with
    /// [`sanitize_string`].
    pub fn ptp<N: AsRef<str>, V: AsRef<str>>(pairs: &[(N, V)]) -> Operation {
        let mut op = Operation::new("ptp");
        for (name, value) in pairs {
            let name = sanitize_identifier(name.as_ref());
            if !name.is_empty() {
                op = op.token(name).string(sanitize_string(value.as_ref()));
            }
        }
        op
    }

    /// `tcsi "<address>" "<name>";` the sender's identification; both
    /// strings sanitised with [`sanitize_string`].
    pub fn tcsi(address: &str, name: &str) -> Operation {
        Operation::new("tcsi")
            .string(sanitize_string(address))
            .string(sanitize_string(name))
    }

    /// `tcri "<address>" "<name>";` the receiver's identification; both
    /// strings sanitised with [`sanitize_string`].
    pub fn tcri(address: &str, name: &str) -> Operation {
        Operation::new("tcri")
            .string(sanitize_string(address))
            .string(sanitize_string(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epd::Record;
    use proptest::prelude::*;

    fn with(op: Operation) -> Record {
        Record::parse("8/8/8/8/8/8/8/K6k w - -").unwrap().with(op)
    }

    fn reparsed(r: &Record) -> Record {
        match Record::parse(&r.to_string()) {
            Ok(p) => p,
            Err(e) => panic!("{r} does not parse: {e}"),
        }
    }

    #[test]
    fn builders_write_what_the_accessors_read() {
        let r = with(Operation::refcom(RefCom::Conclude))
            .with(Operation::refreq(RefReq::SignOff))
            .with(Operation::sm("O-O"))
            .with(Operation::cc(ClockValue(61), ClockValue(3600)))
            .with(Operation::hmvc(12))
            .with(Operation::fmvn(40))
            .with(Operation::ptp(&[("Event", "Test"), ("Result", "1-0")]))
            .with(Operation::tcsi("a@b", "Engine"))
            .with(Operation::tcri("c@d", "Other"));
        assert_eq!(
            r.to_string(),
            "8/8/8/8/8/8/8/K6k w - - refcom conclude; refreq sign_off; sm O-O; \
             cc 000:00:01:01 000:01:00:00; hmvc 12; fmvn 40; ptp Event \"Test\" Result \"1-0\"; \
             tcsi \"a@b\" \"Engine\"; tcri \"c@d\" \"Other\";"
        );
        let p = reparsed(&r);
        assert_eq!(p, r);
        assert_eq!(p.refcom(), Ok(Some(RefCom::Conclude)));
        assert_eq!(p.refreq(), Ok(Some(RefReq::SignOff)));
        assert_eq!(p.sm(), Ok(Some("O-O")));
        assert_eq!(p.cc(), Ok(Some((ClockValue(61), ClockValue(3600)))));
        assert_eq!(p.hmvc(), Ok(Some(12)));
        assert_eq!(p.fmvn(), Ok(Some(40)));
        assert_eq!(p.ptp().unwrap().len(), 2);
        assert_eq!(p.tcsi(), Ok(Some(("a@b".into(), "Engine".into()))));
    }

    #[test]
    fn hostile_text_is_sanitised() {
        let name = format!("Bad\"name\t\x1b[2J\u{e9}{}", "y".repeat(300));
        let r = with(Operation::tcsi(&name, "\"")).with(Operation::ptp(&[
            ("", "dropped"),
            ("White Player!", "x\"y"),
        ]));
        let p = reparsed(&r);
        assert_eq!(p, r);
        let (addr, n) = p.tcsi().unwrap().unwrap();
        assert!(addr.starts_with("Badname[2J?yyy"));
        assert_eq!(addr.len(), 255);
        assert_eq!(n, "");
        assert_eq!(p.ptp(), Ok(vec![("WhitePlayer".into(), "xy".into())]));
    }

    #[test]
    fn numbers_are_clamped_into_the_spec_range() {
        assert_eq!(with(Operation::fmvn(0)).fmvn(), Ok(Some(1)));
        assert_eq!(
            with(Operation::fmvn(u32::MAX)).fmvn(),
            Ok(Some(2_147_483_647))
        );
        assert_eq!(
            with(Operation::hmvc(u32::MAX)).hmvc(),
            Ok(Some(2_147_483_647))
        );
    }

    #[test]
    fn an_empty_move_gives_no_operand() {
        let r = with(Operation::sm(" ;\"\t"));
        assert_eq!(r.to_string(), "8/8/8/8/8/8/8/K6k w - - sm;");
        assert_eq!(reparsed(&r), r);
    }

    proptest! {
        #[test]
        fn built_records_always_parse(
            a in any::<String>(), b in any::<String>(), m in any::<String>(),
            pairs in prop::collection::vec((any::<String>(), any::<String>()), 0..4),
        ) {
            let r = with(Operation::tcsi(&a, &b))
                .with(Operation::tcri(&b, &a))
                .with(Operation::sm(&m))
                .with(Operation::ptp(&pairs));
            prop_assert_eq!(Record::parse(&r.to_string()), Ok(r.clone()));
            prop_assert!(r.ptp().is_ok());
        }
    }
}
