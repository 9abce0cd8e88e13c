//! CRC-32 (IEEE 802.3, the one of zip and PNG) for the journal's per-line
//! check. Chained: each line's check covers the previous line's check too,
//! so a line that goes missing, or lines that change places, are caught as
//! surely as a changed byte.

/// The check of the line before the first one.
pub const CHAIN_START: u32 = 0;

const fn make_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
}

static TABLE: [u32; 256] = make_table();

/// CRC-32 of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    !bytes
        .iter()
        .fold(!0u32, |c, &b| TABLE[usize::from((c as u8) ^ b)] ^ (c >> 8))
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
