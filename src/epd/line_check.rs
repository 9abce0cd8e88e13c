//! The line check: argus's private extension against line noise.
//!
//! EPD has no checksum, so a bit flipped on a serial line can turn a legal
//! move into another legal move (`sm Kf3;` into `sm Kf1;`) that nobody can
//! tell from the real one. A sender that checks its lines ends each with
//! one more operation, `Acrc HHHHHHHH;`: the CRC-32 (IEEE, as in zip) of
//! every byte of the line before the space that precedes `Acrc`, as eight
//! lowercase hex digits. A receiver recomputes it; CRC-32 catches every
//! error of up to three flipped bits in a line of this size, and every
//! burst up to 32 bits.
//!
//! The opcode starts with an upper-case letter: a private opcode (EPD spec
//! 5.3), which programs that do not know it ignore (spec 5.3: "that
//! operation is simply ignored"). So a client that checks can talk to any
//! referee, and argus checks only the lines of clients that sign on with a
//! checked line (see docs/protocol.md, "Line check").

/// The opcode of the check.
pub const OPCODE: &str = "Acrc";

/// The opcode of a client's "your last record reached me damaged": a
/// record with the client's position fields, `Anak;` and no `refreq`.
/// The referee sends the client on move its `respond` again at once.
pub const NAK: &str = "Anak";

/// Bytes the check adds to a line: ` Acrc ` + 8 hex digits + `;`.
pub const LEN: usize = 1 + OPCODE.len() + 1 + 8 + 1;

/// What [`verify`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checked<'a> {
    /// The line carries no check.
    Absent,
    /// The check is right; the line without it.
    Valid(&'a str),
    /// The line carries a check that is malformed or wrong: it was damaged.
    Invalid(String),
}

/// `line` with its check appended.
pub fn append(line: &mut String) {
    let crc = crc32fast::hash(line.as_bytes());
    line.push(' ');
    line.push_str(OPCODE);
    line.push_str(&format!(" {crc:08x};"));
}

/// Looks for the check at the end of `line` (trailing blanks allowed) and
/// verifies it. A line that names the opcode anywhere else, or gives it a
/// malformed operand, is [`Checked::Invalid`]: a flipped bit may have
/// moved or mangled it.
pub fn verify(line: &str) -> Checked<'_> {
    let marker = format!(" {OPCODE} ");
    let Some(at) = line.rfind(&marker) else {
        return if line.contains(OPCODE) {
            Checked::Invalid(format!(
                "{OPCODE} is not an operation at the end of the line"
            ))
        } else {
            Checked::Absent
        };
    };
    let payload = &line[..at];
    let rest = line[at + marker.len()..].trim_end_matches([' ', '\t']);
    let Some(digits) = rest.strip_suffix(';') else {
        return Checked::Invalid(format!("{OPCODE} is not the last operation of the line"));
    };
    if digits.len() != 8
        || !digits
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        return Checked::Invalid(format!(
            "{OPCODE} operand {digits:?} is not 8 lowercase hex digits"
        ));
    }
    let want = crc32fast::hash(payload.as_bytes());
    if format!("{want:08x}") == digits {
        Checked::Valid(payload)
    } else {
        Checked::Invalid(format!(
            "{OPCODE} {digits} does not match the line (its CRC-32 is {want:08x})"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const LINE: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - refreq reply; sm Nf3;";

    fn checked(line: &str) -> String {
        let mut s = line.to_string();
        append(&mut s);
        s
    }

    #[test]
    fn a_checked_line_verifies_and_gives_the_line_back() {
        let s = checked(LINE);
        assert_eq!(s.len(), LINE.len() + LEN);
        assert!(s.starts_with(LINE) && s.contains(" Acrc "), "{s}");
        assert_eq!(verify(&s), Checked::Valid(LINE));
        assert_eq!(verify(&format!("{s}  ")), Checked::Valid(LINE));
    }

    #[test]
    fn the_check_is_the_crc32_of_the_line_before_it() {
        // CRC-32 of "123456789" is cbf43926 (the standard check value).
        assert_eq!(checked("123456789"), "123456789 Acrc cbf43926;");
    }

    #[test]
    fn a_line_without_the_check_is_absent() {
        assert_eq!(verify(LINE), Checked::Absent);
    }

    #[test]
    fn a_mangled_check_is_invalid() {
        let s = checked(LINE);
        for bad in [
            s.replace(" Acrc ", " Acrc  "),
            s.replace(';', ""),
            format!("{s} c0 \"x\";"),
            s.replace("Acrc", "Acrc x"),
        ] {
            assert!(matches!(verify(&bad), Checked::Invalid(_)), "{bad}");
        }
        // A flip in the opcode itself leaves no check at all: the referee
        // refuses such a line from a client that checks its lines.
        assert_eq!(verify(&s.replace("Acrc", "ACrc")), Checked::Absent);
    }

    #[test]
    fn the_move_flip_of_the_noise_run_is_caught() {
        // Kf3 became Kf1 on the line: one flipped bit ('3' 0x33 -> '1' 0x31).
        let s = checked("8/5k2/8/4p3/8/8/5K2/8 w - - refreq reply; sm Kf3;");
        let flipped = s.replace("Kf3", "Kf1");
        assert!(matches!(verify(&flipped), Checked::Invalid(_)), "{flipped}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        /// Every single and double bit flip of a checked line, wherever it
        /// falls (in the line, the opcode or the digits), is caught.
        #[test]
        fn every_one_or_two_bit_flip_is_caught(
            line in "[ -~]{0,200}",
            a in any::<prop::sample::Index>(),
            bit_a in 0u8..7,
            b in any::<prop::sample::Index>(),
            bit_b in 0u8..7,
            two in any::<bool>(),
        ) {
            let s = checked(&line);
            let mut bytes = s.clone().into_bytes();
            let i = a.index(bytes.len());
            bytes[i] ^= 1 << bit_a;
            let j = b.index(bytes.len());
            if two && (i, bit_a) != (j, bit_b) {
                bytes[j] ^= 1 << bit_b;
            }
            // Only flips that leave the line printable ASCII reach the
            // core; the others are dropped by the framer.
            if let Ok(damaged) = String::from_utf8(bytes) {
                prop_assert_ne!(verify(&damaged), Checked::Valid(line.as_str()));
                if let Checked::Valid(p) = verify(&damaged) {
                    prop_assert!(false, "a damaged line passed as {p:?}");
                }
            }
        }

        #[test]
        fn any_text_verifies_without_panicking(line in ".{0,300}") {
            let _ = verify(&line);
        }
    }
}
