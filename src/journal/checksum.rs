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
    let mut bytes = Vec::with_capacity(payload.len() + 9);
    bytes.extend_from_slice(format!("{previous:08x} ").as_bytes());
    bytes.extend_from_slice(payload.as_bytes());
    crc32(&bytes)
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
    }
}
