//! CRC-32 (IEEE 802.3, the one of zip and PNG) for the journal's per-line
//! check. Chained: each line's check covers the previous line's check too,
//! so a line that goes missing, or lines that change places, are caught as
//! surely as a changed byte.

/// The check of the line before the first one.
pub const CHAIN_START: u32 = 0;

/// CRC-32 of `bytes` (crc32fast: table-driven or SIMD, whichever the
/// machine has).
pub fn crc32(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

/// The check of a line whose text (without the check) is `payload`,
/// following a line whose check was `previous`: CRC-32 of the previous
/// check as 8 lowercase hex digits, a space, and the payload.
pub fn line_check(previous: u32, payload: &str) -> u32 {
    // Fed to the hasher in two parts: the payload is not copied, and the
    // hex digits are not formatted through `fmt` (a line is checked when
    // it is written and again when it is read).
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut head = [b' '; 9];
    for (i, digit) in head[..8].iter_mut().enumerate() {
        let nibble = (previous >> (28 - 4 * i)) & 0xf;
        *digit = HEX[nibble as usize];
    }
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&head);
    hasher.update(payload.as_bytes());
    hasher.finalize()
}

/// Journal lines (without their line ends) for these payloads, in order,
/// each with its chained check: fake journals for tests.
#[cfg(test)]
pub(crate) fn checked_lines(payloads: &[String]) -> Vec<Vec<u8>> {
    let mut chain = CHAIN_START;
    payloads
        .iter()
        .map(|p| {
            chain = line_check(chain, p);
            format!("{p} {chain:08x}").into_bytes()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert_eq!(crc32(b""), 0);
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
        assert_eq!(
            crc32(b"The quick brown fox jumps over the lazy dog"),
            0x414f_a339
        );
    }

    #[test]
    fn the_chain_depends_on_the_previous_check() {
        assert_ne!(line_check(0, "in 5 timer"), line_check(1, "in 5 timer"));
        assert_eq!(line_check(7, "x"), crc32(b"00000007 x"));
        assert_eq!(
            line_check(0xdead_beef, "in 5 timer"),
            crc32(b"deadbeef in 5 timer")
        );
    }

    proptest::proptest! {
        /// The check is the CRC-32 of the previous one in hex, a space and
        /// the payload, whatever both are.
        #[test]
        fn the_check_covers_the_previous_in_hex_and_the_payload(previous: u32, payload in ".{0,60}") {
            let text = format!("{previous:08x} {payload}");
            proptest::prop_assert_eq!(line_check(previous, &payload), crc32(text.as_bytes()));
        }
    }
}
