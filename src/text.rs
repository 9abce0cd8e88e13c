//! Small text helpers shared by every edge that shows or stores strings
//! that came from a client.

/// Removes control characters (C0, DEL and C1) from a string that came from
/// a client, so that it cannot move the cursor or change colours on the
/// supervisor's terminal, or break a file name or a log line.
pub fn strip_control(s: &str) -> String {
    // Every control character's UTF-8 starts with a byte below 0x20, 0x7F
    // or 0xC2 (C1 is U+0080-U+009F): a string without those bytes (nearly
    // every one: an engine's line, a name) has none and is copied whole.
    if s.bytes().all(|b| b >= 0x20 && b != 0x7f && b != 0xc2) {
        return s.to_owned();
    }
    s.chars().filter(|c| !c.is_control()).collect()
}

/// Characters kept of a client's `tcsi` name.
pub const NAME_LIMIT: usize = 64;

/// A client's `tcsi` name as argus keeps it: control characters removed,
/// trimmed, at most [`NAME_LIMIT`] characters. The referee core names a
/// client by it and a TCP listener seats by it, so both must agree.
pub fn client_name(raw: &str) -> String {
    strip_control(raw).trim().chars().take(NAME_LIMIT).collect()
}

/// Half points as points: `0`, `½`, `1`, `1½`, ... (the one form of a
/// score in the board view, the report and the console).
pub fn points(halves: u32) -> String {
    match (halves / 2, halves % 2) {
        (0, 1) => "½".to_string(),
        (p, 0) => p.to_string(),
        (p, _) => format!("{p}½"),
    }
}

/// Half points as points in decimals: `0`, `0.5`, `1`, `3.5` (the form of
/// a match's score in its result line, as cutechess-cli writes it).
pub fn points_decimal(halves: u32) -> String {
    match halves % 2 {
        0 => (halves / 2).to_string(),
        _ => format!("{}.5", halves / 2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_format() {
        assert_eq!(points(0), "0");
        assert_eq!(points(1), "½");
        assert_eq!(points(2), "1");
        assert_eq!(points(7), "3½");
        assert_eq!(points_decimal(0), "0");
        assert_eq!(points_decimal(1), "0.5");
        assert_eq!(points_decimal(2), "1");
        assert_eq!(points_decimal(7), "3.5");
    }

    #[test]
    fn a_client_name_is_stripped_trimmed_and_capped() {
        assert_eq!(client_name("  Crafty\x1b 20 "), "Crafty 20");
        assert_eq!(client_name(&"x".repeat(100)).len(), NAME_LIMIT);
    }

    #[test]
    fn escape_sequences_lose_their_escape() {
        assert_eq!(strip_control("a\x1b[2Jb\u{9b}c\td\r\n"), "a[2Jbcd");
        // Each kind of control character alone, then beside a character
        // that shares its first UTF-8 byte (U+00A0-U+00BF start with 0xC2
        // as C1 does) and stays.
        for c in ['\0', '\x1f', '\x7f', '\u{80}', '\u{9f}'] {
            assert_eq!(strip_control(&format!("x{c}y")), "xy", "{c:?}");
        }
        assert_eq!(strip_control("\u{a0}\u{85}½"), "\u{a0}½");
    }

    proptest::proptest! {
        /// The fast path (a string of no control byte copied whole) gives
        /// what filtering every character gives.
        #[test]
        fn stripping_is_filtering_every_character(s in "(\\PC|\\p{Cc}|[\u{80}-\u{bf}]){0,40}") {
            let filtered: String = s.chars().filter(|c| !c.is_control()).collect();
            proptest::prop_assert_eq!(strip_control(&s), filtered);
        }
    }
}
