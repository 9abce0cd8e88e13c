//! Typed access to the opcodes the referee uses (spec sections 6 and 8).
//!
//! Every accessor returns `Ok(None)` (or `false`, or an empty list) when
//! the opcode is absent, and an [`OpError`] naming the opcode when it is
//! present but malformed. Being lenient about form, accessors read a
//! string operand where the spec asks for an unquoted token and the other
//! way round; only the text counts.

use std::fmt;
use std::str::FromStr;

use super::basetype::{ClockValue, Date, TimeOfDay};
use super::record::{Operand, Record};

/// Why an operation present on a record is not usable, e.g.
/// `cc: expected 2 operands, got 1` or `refcom: unknown command "foo"`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OpError {
    /// The opcode of the offending operation.
    pub opcode: String,
    /// What was wrong with it.
    pub message: String,
}

impl OpError {
    fn new(opcode: &str, message: impl Into<String>) -> OpError {
        OpError {
            opcode: opcode.to_string(),
            message: message.into(),
        }
    }
}

impl fmt::Display for OpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.opcode, self.message)
    }
}

impl std::error::Error for OpError {}

/// Quotes at most 40 bytes of an operand for a message.
fn quoted(s: &str) -> String {
    let mut end = s.len().min(40);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    let more = if end < s.len() { "..." } else { "" };
    format!("\"{}{more}\"", s.get(..end).unwrap_or_default())
}

macro_rules! identifier_enum {
    ($(#[$doc:meta])* $name:ident, $opcode:literal, $what:literal,
     { $($(#[$vdoc:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vdoc])* $variant),+
        }

        impl $name {
            /// Every value, in ASCII order of its identifier.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The identifier as written in EPD.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl FromStr for $name {
            type Err = OpError;

            /// Parses the identifier exactly (lower case, as in the spec).
            fn from_str(s: &str) -> Result<$name, OpError> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err(OpError::new($opcode, format!(concat!("unknown ", $what, " {}"), quoted(s)))),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

identifier_enum!(
    /// A referee command, the operand of `refcom` (spec 8.1).
    RefCom, "refcom", "command", {
        /// End of game; the position is the final one. No reply.
        Conclude = "conclude",
        /// The referee is shutting down. No reply.
        Disconnect = "disconnect",
        /// Set up the position and play the supplied move (replay). No reply.
        Execute = "execute",
        /// The referee hit an unrecoverable fault. No reply.
        Fault = "fault",
        /// PGN tag pairs in `ptp`. No reply.
        Inform = "inform",
        /// Set up for a new game. No reply.
        Reset = "reset",
        /// Play the supplied move (if any) and reply with a move.
        Respond = "respond",
    }
);

identifier_enum!(
    /// A client request, the operand of `refreq` (spec 8.2).
    RefReq, "refreq", "request", {
        /// The client hit an unrecoverable fault.
        Fault = "fault",
        /// The client's reply to `respond`, usually with `sm`.
        Reply = "reply",
        /// The client leaves.
        SignOff = "sign_off",
        /// The client asks to be signed on.
        SignOn = "sign_on",
    }
);

/// Parses an integer operand (spec 5.2.3): an optional `+` or `-` and one or
/// more digits, within the `i32` range.
pub fn parse_integer(s: &str) -> Result<i32, IntegerError> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return Err(IntegerError::NotAnInteger(quoted(s)));
    }
    s.parse::<i32>()
        .map_err(|_| IntegerError::OutOfRange(quoted(s)))
}

/// An integer operand that does not read (the text, quoted and cut to 40
/// bytes).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IntegerError {
    #[error("expected an integer, got {0}")]
    NotAnInteger(String),
    #[error("integer {0} is out of range")]
    OutOfRange(String),
}

/// Whether `s` is an identifier (spec 5.2.1): 1 to 15 letters, digits or
/// underscores.
pub fn is_identifier(s: &str) -> bool {
    (1..=15).contains(&s.len()) && s.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

impl Record {
    /// The operands of `opcode`, if the operation is present.
    pub fn operands(&self, opcode: &str) -> Option<&[Operand]> {
        self.op(opcode).map(|o| o.operands.as_slice())
    }

    /// The operand texts of `opcode`, checked to be exactly `n` of them.
    fn exactly(&self, opcode: &str, n: usize) -> Result<Option<Vec<&str>>, OpError> {
        let Some(operands) = self.operands(opcode) else {
            return Ok(None);
        };
        if operands.len() != n {
            let s = if n == 1 { "" } else { "s" };
            return Err(OpError::new(
                opcode,
                format!("expected {n} operand{s}, got {}", operands.len()),
            ));
        }
        Ok(Some(operands.iter().map(Operand::text).collect()))
    }

    /// The single operand's text of `opcode`.
    fn single(&self, opcode: &str) -> Result<Option<&str>, OpError> {
        let Some(operands) = self.operands(opcode) else {
            return Ok(None);
        };
        match operands {
            [one] => Ok(Some(one.text())),
            _ => Err(OpError::new(
                opcode,
                format!("expected 1 operand, got {}", operands.len()),
            )),
        }
    }

    /// The single integer operand of `opcode`, checked to lie in `range`.
    fn integer(
        &self,
        opcode: &str,
        range: std::ops::RangeInclusive<i32>,
        what: &str,
    ) -> Result<Option<i32>, OpError> {
        let Some(text) = self.single(opcode)? else {
            return Ok(None);
        };
        let n = parse_integer(text).map_err(|m| OpError::new(opcode, m.to_string()))?;
        if !range.contains(&n) {
            return Err(OpError::new(opcode, format!("expected {what}, got {n}")));
        }
        Ok(Some(n))
    }

    /// `refcom`: the referee command, if present.
    pub fn refcom(&self) -> Result<Option<RefCom>, OpError> {
        self.single("refcom")?.map(str::parse).transpose()
    }

    /// `refreq`: the client request, if present.
    pub fn refreq(&self) -> Result<Option<RefReq>, OpError> {
        self.single("refreq")?.map(str::parse).transpose()
    }

    /// `sm`: the supplied move (exactly one operand), unchecked SAN text.
    pub fn sm(&self) -> Result<Option<&str>, OpError> {
        self.single("sm")
    }

    /// `sv`: the supplied variation, zero or more moves in order.
    pub fn sv(&self) -> Option<Vec<&str>> {
        self.operands("sv")
            .map(|ops| ops.iter().map(Operand::text).collect())
    }

    /// `cc`: time used by White and by Black (exactly two clock values).
    pub fn cc(&self) -> Result<Option<(ClockValue, ClockValue)>, OpError> {
        let clock = |s: &str| ClockValue::parse(s).map_err(|m| OpError::new("cc", m.to_string()));
        match self.exactly("cc", 2)?.as_deref() {
            None => Ok(None),
            Some([white, black]) => Ok(Some((clock(white)?, clock(black)?))),
            Some(_) => Err(OpError::new("cc", "expected 2 operands")),
        }
    }

    /// `Abook` ([`BOOK_MOVE`](super::BOOK_MOVE)): the move was played
    /// from the client's opening book.
    pub fn book_move(&self) -> bool {
        self.has(super::BOOK_MOVE)
    }

    /// `Aponder hit|miss` ([`super::PONDER`]): whether the engine's ponder
    /// was a hit, if it pondered.
    pub fn ponder_hit(&self) -> Result<Option<bool>, OpError> {
        let opcode = super::PONDER;
        match self.exactly(opcode, 1)?.as_deref() {
            None => Ok(None),
            Some(["hit"]) => Ok(Some(true)),
            Some(["miss"]) => Ok(Some(false)),
            Some(other) => Err(OpError::new(
                opcode,
                format!("expected hit or miss, got {:?}", other.join(" ")),
            )),
        }
    }

    /// `Asearch` ([`SEARCH_TIME`](super::SEARCH_TIME)): the engine's own
    /// time for the move in milliseconds (one non-negative integer).
    pub fn search_time_ms(&self) -> Result<Option<u64>, OpError> {
        let opcode = super::SEARCH_TIME;
        match self.exactly(opcode, 1)?.as_deref() {
            None => Ok(None),
            Some([us]) => match parse_integer(us) {
                Ok(n) if n >= 0 => Ok(Some(u64::from(n.unsigned_abs()))),
                Ok(n) => Err(OpError::new(
                    opcode,
                    format!("expected milliseconds, got {n}"),
                )),
                Err(m) => Err(OpError::new(opcode, m.to_string())),
            },
            Some(_) => Err(OpError::new(opcode, "expected 1 operand")),
        }
    }

    /// `Aclk` ([`CLOCK_LEFT`](super::CLOCK_LEFT)): the time left on
    /// White's and Black's clocks in milliseconds (exactly two
    /// non-negative integers).
    pub fn clock_left(&self) -> Result<Option<(u64, u64)>, OpError> {
        let opcode = super::CLOCK_LEFT;
        let ms = |s: &str| match parse_integer(s) {
            Ok(n) if n >= 0 => Ok(u64::from(n.unsigned_abs())),
            Ok(n) => Err(OpError::new(
                opcode,
                format!("expected milliseconds, got {n}"),
            )),
            Err(m) => Err(OpError::new(opcode, m.to_string())),
        };
        match self.exactly(opcode, 2)?.as_deref() {
            None => Ok(None),
            Some([white, black]) => Ok(Some((ms(white)?, ms(black)?))),
            Some(_) => Err(OpError::new(opcode, "expected 2 operands")),
        }
    }

    /// `Atc` ([`TIME_CONTROLS`](super::TIME_CONTROLS)): White's and
    /// Black's own time controls as written (time odds); `None` when the
    /// record has none.
    pub fn time_controls(&self) -> Result<Option<(String, String)>, OpError> {
        match self.exactly(super::TIME_CONTROLS, 2)?.as_deref() {
            None => Ok(None),
            Some([white, black]) => Ok(Some((white.to_string(), black.to_string()))),
            Some(_) => Err(OpError::new(super::TIME_CONTROLS, "expected 2 operands")),
        }
    }

    /// `hmvc`: the halfmove clock, a non-negative integer.
    pub fn hmvc(&self) -> Result<Option<u32>, OpError> {
        self.count("hmvc")
    }

    /// `acd`: analysis count: depth in plies, a non-negative integer (an
    /// opcode of later EPD, sent by the engine bridge).
    pub fn acd(&self) -> Result<Option<u32>, OpError> {
        self.count("acd")
    }

    /// `acn`: analysis count: nodes, a non-negative integer (spec 6.1).
    pub fn acn(&self) -> Result<Option<u32>, OpError> {
        self.count("acn")
    }

    /// `Aseldepth` ([`SELDEPTH`](super::SELDEPTH)): the selective
    /// search depth in plies, a non-negative integer.
    pub fn seldepth(&self) -> Result<Option<u32>, OpError> {
        self.count(super::SELDEPTH)
    }

    /// `Anps` ([`NPS`](super::NPS)): the engine's speed in nodes a
    /// second, a non-negative integer.
    pub fn nps(&self) -> Result<Option<u32>, OpError> {
        self.count(super::NPS)
    }

    /// The single non-negative integer operand of `opcode`.
    fn count(&self, opcode: &str) -> Result<Option<u32>, OpError> {
        let n = self.integer(opcode, 0..=i32::MAX, "a non-negative integer")?;
        Ok(n.map(|n| n.unsigned_abs()))
    }

    /// `fmvn`: the fullmove number, a positive integer.
    pub fn fmvn(&self) -> Result<Option<u32>, OpError> {
        let n = self.integer("fmvn", 1..=i32::MAX, "a positive integer")?;
        Ok(n.map(|n| n.unsigned_abs()))
    }

    /// `ce`: the centipawn evaluation, -32768..=32766 (spec 6.7).
    pub fn ce(&self) -> Result<Option<i32>, OpError> {
        self.integer("ce", -32768..=32766, "an integer from -32768 to 32766")
    }

    /// `ptp`: PGN tag pairs (tag name, value) in the given order; an empty
    /// list when absent. Each name must be an identifier (spec 5.2.1).
    pub fn ptp(&self) -> Result<Vec<(String, String)>, OpError> {
        let Some(operands) = self.operands("ptp") else {
            return Ok(Vec::new());
        };
        if operands.len() % 2 != 0 {
            return Err(OpError::new(
                "ptp",
                format!(
                    "expected pairs of operands (tag name, value), got {} operands",
                    operands.len()
                ),
            ));
        }
        operands
            .chunks_exact(2)
            .map(|pair| match pair {
                [name, value] if is_identifier(name.text()) => {
                    Ok((name.text().to_string(), value.text().to_string()))
                }
                [name, _] => Err(OpError::new(
                    "ptp",
                    format!("tag name {} is not an identifier", quoted(name.text())),
                )),
                _ => Err(OpError::new("ptp", "expected pairs of operands")),
            })
            .collect()
    }

    /// `tcsi`: the sender's (address, name).
    pub fn tcsi(&self) -> Result<Option<(String, String)>, OpError> {
        self.pair("tcsi")
    }

    /// `tcri`: the receiver's (address, name).
    pub fn tcri(&self) -> Result<Option<(String, String)>, OpError> {
        self.pair("tcri")
    }

    fn pair(&self, opcode: &str) -> Result<Option<(String, String)>, OpError> {
        match self.exactly(opcode, 2)?.as_deref() {
            None => Ok(None),
            Some([a, b]) => Ok(Some((a.to_string(), b.to_string()))),
            Some(_) => Err(OpError::new(opcode, "expected 2 operands")),
        }
    }

    /// `draw_offer` is present.
    pub fn draw_offer(&self) -> bool {
        self.has("draw_offer")
    }

    /// `draw_accept` is present.
    pub fn draw_accept(&self) -> bool {
        self.has("draw_accept")
    }

    /// `draw_reject` is present.
    pub fn draw_reject(&self) -> bool {
        self.has("draw_reject")
    }

    /// `draw_claim` is present.
    pub fn draw_claim(&self) -> bool {
        self.has("draw_claim")
    }

    /// `resign` is present.
    pub fn resign(&self) -> bool {
        self.has("resign")
    }

    /// Comment `c0`..`c9` (`n` = 0..=9): `None` when absent, `Some(None)`
    /// when present without operand (which clears the comment registers
    /// from `n` up, spec 6.5), `Some(Some(text))` with one operand. `n`
    /// above 9 is an error.
    pub fn comment(&self, n: u8) -> Result<Option<Option<&str>>, OpError> {
        if n > 9 {
            return Err(OpError::new(
                &format!("c{n}"),
                "no such comment opcode (c0 to c9)",
            ));
        }
        let opcode = format!("c{n}");
        let Some(operands) = self.operands(&opcode) else {
            return Ok(None);
        };
        match operands {
            [] => Ok(Some(None)),
            [one] => Ok(Some(Some(one.text()))),
            _ => Err(OpError::new(
                &opcode,
                format!("expected 0 or 1 operand, got {}", operands.len()),
            )),
        }
    }

    /// `id`: the position identification (exactly one operand).
    pub fn id(&self) -> Result<Option<&str>, OpError> {
        self.single("id")
    }

    /// `ts`: the timestamp, a date and a UTC time of day.
    pub fn ts(&self) -> Result<Option<(Date, TimeOfDay)>, OpError> {
        match self.exactly("ts", 2)?.as_deref() {
            None => Ok(None),
            Some([date, time]) => {
                let date = Date::parse(date).map_err(|m| OpError::new("ts", m.to_string()))?;
                let time = TimeOfDay::parse(time).map_err(|m| OpError::new("ts", m.to_string()))?;
                Ok(Some((date, time)))
            }
            Some(_) => Err(OpError::new("ts", "expected 2 operands")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str = "8/8/8/8/8/8/8/K6k w - -";

    fn rec(ops: &str) -> Record {
        match Record::parse(&format!("{P} {ops}")) {
            Ok(r) => r,
            Err(e) => panic!("{ops:?}: {e}"),
        }
    }

    fn op_err<T: fmt::Debug>(r: Result<T, OpError>) -> String {
        match r {
            Ok(v) => panic!("expected an error, got {v:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn identifiers_round_trip() {
        for &c in RefCom::ALL {
            assert_eq!(c.as_str().parse::<RefCom>(), Ok(c));
            assert_eq!(c.to_string(), c.as_str());
        }
        for &q in RefReq::ALL {
            assert_eq!(q.as_str().parse::<RefReq>(), Ok(q));
        }
        assert_eq!(RefCom::ALL.len(), 7);
        assert_eq!(RefReq::SignOn.as_str(), "sign_on");
        assert_eq!(
            op_err("foo".parse::<RefCom>()),
            "refcom: unknown command \"foo\""
        );
        assert_eq!(
            op_err("Reply".parse::<RefReq>()),
            "refreq: unknown request \"Reply\""
        );
    }

    #[test]
    fn absent_opcodes() {
        let r = rec("");
        assert_eq!(r.refcom(), Ok(None));
        assert_eq!(r.refreq(), Ok(None));
        assert_eq!(r.sm(), Ok(None));
        assert_eq!(r.sv(), None);
        assert_eq!(r.cc(), Ok(None));
        assert_eq!(r.hmvc(), Ok(None));
        assert_eq!(r.fmvn(), Ok(None));
        assert_eq!(r.ce(), Ok(None));
        assert_eq!(r.ptp(), Ok(vec![]));
        assert_eq!(r.tcsi(), Ok(None));
        assert_eq!(r.tcri(), Ok(None));
        assert_eq!(r.comment(3), Ok(None));
        assert_eq!(r.id(), Ok(None));
        assert_eq!(r.ts(), Ok(None));
        assert!(!r.draw_offer() && !r.draw_accept() && !r.draw_reject() && !r.draw_claim());
        assert!(!r.resign());
    }

    #[test]
    fn present_opcodes() {
        let r = rec(
            "refcom inform; sv e4 e5 Nf3; ptp Event \"Rated game\" White \"A B\"; tcri \"x@y\" \"Y\"; \
             c2; ts 1995.03.31 23:59:01; ce +32766; draw_accept; draw_reject; draw_claim; resign;",
        );
        assert_eq!(r.refcom(), Ok(Some(RefCom::Inform)));
        assert_eq!(r.sv(), Some(vec!["e4", "e5", "Nf3"]));
        assert_eq!(
            r.ptp(),
            Ok(vec![
                ("Event".to_string(), "Rated game".to_string()),
                ("White".to_string(), "A B".to_string()),
            ])
        );
        assert_eq!(r.tcri(), Ok(Some(("x@y".to_string(), "Y".to_string()))));
        assert_eq!(r.comment(2), Ok(Some(None)));
        let (d, t) = r.ts().unwrap().unwrap();
        assert_eq!(
            (d.to_string(), t.to_string()),
            ("1995.03.31".into(), "23:59:01".into())
        );
        assert_eq!(r.ce(), Ok(Some(32766)));
        assert!(r.draw_accept() && r.draw_reject() && r.draw_claim() && r.resign());
        // Lenient about form: a quoted identifier still reads.
        assert_eq!(rec("refreq \"reply\";").refreq(), Ok(Some(RefReq::Reply)));
    }

    #[test]
    fn malformed_operations_name_the_opcode() {
        let cases: Vec<(String, String)> = vec![
            (
                op_err(rec("cc 000:00:00:01;").cc()),
                "cc: expected 2 operands, got 1".into(),
            ),
            (
                op_err(rec("cc 0:0 1:1;").cc()),
                "cc: clock value \"0:0\" is not of the form ddd:hh:mm:ss".into(),
            ),
            (
                op_err(rec("refcom foo;").refcom()),
                "refcom: unknown command \"foo\"".into(),
            ),
            (
                op_err(rec("refcom;").refcom()),
                "refcom: expected 1 operand, got 0".into(),
            ),
            (
                op_err(rec("sm e4 e5;").sm()),
                "sm: expected 1 operand, got 2".into(),
            ),
            (
                op_err(rec("hmvc -1;").hmvc()),
                "hmvc: expected a non-negative integer, got -1".into(),
            ),
            (
                op_err(rec("hmvc 1.5;").hmvc()),
                "hmvc: expected an integer, got \"1.5\"".into(),
            ),
            (
                op_err(rec("fmvn 0;").fmvn()),
                "fmvn: expected a positive integer, got 0".into(),
            ),
            (
                op_err(rec("fmvn 2147483648;").fmvn()),
                "fmvn: integer \"2147483648\" is out of range".into(),
            ),
            (
                op_err(rec("ce 32767;").ce()),
                "ce: expected an integer from -32768 to 32766, got 32767".into(),
            ),
            (
                op_err(rec("ptp Event;").ptp()),
                "ptp: expected pairs of operands (tag name, value), got 1 operands".into(),
            ),
            (
                op_err(rec("ptp \"Ev ent\" \"x\";").ptp()),
                "ptp: tag name \"Ev ent\" is not an identifier".into(),
            ),
            (
                op_err(rec("tcsi \"a\";").tcsi()),
                "tcsi: expected 2 operands, got 1".into(),
            ),
            (
                op_err(rec("c0 \"a\" \"b\";").comment(0)),
                "c0: expected 0 or 1 operand, got 2".into(),
            ),
            (
                op_err(rec("").comment(10)),
                "c10: no such comment opcode (c0 to c9)".into(),
            ),
            (
                op_err(rec("ts 1995.13.01 00:00:00;").ts()),
                "ts: date \"1995.13.01\" has a field out of range".into(),
            ),
            (
                op_err(rec("ts 1995.12.01 24:00:00;").ts()),
                "ts: time of day \"24:00:00\" has a field out of range".into(),
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got, want);
        }
    }

    #[test]
    fn integers_follow_5_2_3() {
        assert_eq!(parse_integer("+7"), Ok(7));
        assert_eq!(
            parse_integer("2147483648"),
            Err(IntegerError::OutOfRange("\"2147483648\"".into()))
        );
        assert_eq!(parse_integer("-2147483648"), Ok(i32::MIN));
        assert_eq!(parse_integer("2147483647"), Ok(i32::MAX));
        for bad in [
            "",
            "+",
            "-",
            "--1",
            "1e3",
            " 1",
            "0x10",
            "2147483648",
            "+-1",
        ] {
            assert!(parse_integer(bad).is_err(), "{bad:?}");
        }
        assert_eq!(rec("ce -32768;").ce(), Ok(Some(-32768)));
        assert_eq!(rec("hmvc 2147483647;").hmvc(), Ok(Some(2_147_483_647)));
    }
}
