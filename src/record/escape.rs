//! A reversible, line-safe text form for arbitrary bytes: printable ASCII
//! stays as it is, everything else (and `\`) becomes `\xNN`.

/// Writes `raw` with every byte outside printable ASCII (0x20-0x7E), and the
/// backslash itself, as `\xNN` (two lowercase hex digits). The result is one
/// line of printable ASCII; [`unescape`] gives the bytes back.
///
/// ```
/// use argus::record::escape::escape_bytes;
/// assert_eq!(escape_bytes(b"refreq sign_on;\r\n"), "refreq sign_on;\\x0d\\x0a");
/// ```
pub fn escape_bytes(raw: &[u8]) -> String {
    let mut s = String::with_capacity(raw.len());
    escape_onto(&mut s, raw, false);
    s
}

/// [`escape_bytes`] (or, with `field`, [`escape_field`]) appended to `s`:
/// for a writer that builds its line in one buffer, without a string of
/// its own for each field.
pub fn escape_onto(s: &mut String, raw: &[u8], field: bool) {
    s.reserve(raw.len());
    // Runs of bytes that stay as they are are copied whole (a record is
    // almost all of them), the others escaped one by one.
    let mut rest = raw;
    while !rest.is_empty() {
        let run = rest
            .iter()
            .position(|&b| !plain(b, field))
            .unwrap_or(rest.len());
        let (kept, tail) = rest.split_at(run);
        // Plain bytes are printable ASCII, so always UTF-8.
        match std::str::from_utf8(kept) {
            Ok(text) => s.push_str(text),
            Err(_) => kept.iter().for_each(|&b| push_byte(s, b, field)),
        }
        if let Some((&b, after)) = tail.split_first() {
            push_byte(s, b, field);
            rest = after;
        } else {
            rest = tail;
        }
    }
}

/// Whether byte `b` is written as it is (printable ASCII but `\`, and but
/// a space in a field).
fn plain(b: u8, escape_space: bool) -> bool {
    (0x20..=0x7e).contains(&b) && b != b'\\' && !(escape_space && b == b' ')
}

/// Like [`escape_bytes`], but a space is escaped too, so the result is one
/// whitespace-free field.
pub fn escape_field(raw: &[u8]) -> String {
    let mut s = String::with_capacity(raw.len());
    escape_onto(&mut s, raw, true);
    s
}

fn push_byte(s: &mut String, b: u8, escape_space: bool) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    if plain(b, escape_space) {
        s.push(char::from(b));
    } else {
        s.push_str("\\x");
        s.push(char::from(HEX[usize::from(b >> 4)]));
        s.push(char::from(HEX[usize::from(b & 0x0f)]));
    }
}

/// The bytes that [`escape_bytes`] (or [`escape_field`]) wrote as `s`.
/// `\xNN` (either case) becomes the byte; anything else, including a `\`
/// that does not start a valid escape, is taken as it is. Never panics.
pub fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(rest) = b.get(i..).filter(|r| !r.is_empty()) {
        if let [b'\\', b'x', h, l, ..] = *rest
            && let (Some(h), Some(l)) = (hex(h), hex(l))
        {
            out.push(h << 4 | l);
            i += 4;
            continue;
        }
        out.extend(rest.first());
        i += 1;
    }
    out
}

fn hex(c: u8) -> Option<u8> {
    char::from(c)
        .to_digit(16)
        .and_then(|d| u8::try_from(d).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn escapes_what_is_not_printable() {
        assert_eq!(
            escape_bytes(b"a b\\c\x00\x7f\xff"),
            "a b\\x5cc\\x00\\x7f\\xff"
        );
        assert_eq!(escape_field(b"COM 1"), "COM\\x201");
    }

    #[test]
    fn lenient_unescape() {
        assert_eq!(unescape("\\x0D\\x0a"), b"\r\n");
        assert_eq!(unescape("\\xg1 \\x1 \\"), b"\\xg1 \\x1 \\");
        assert_eq!(unescape("é"), "é".as_bytes());
    }

    proptest! {
        #[test]
        fn round_trip(raw in proptest::collection::vec(any::<u8>(), 0..200)) {
            let e = escape_bytes(&raw);
            prop_assert!(e.bytes().all(|b| (0x20..=0x7e).contains(&b)));
            prop_assert_eq!(unescape(&e), raw.clone());
            let f = escape_field(&raw);
            prop_assert!(!f.contains(' '));
            prop_assert_eq!(unescape(&f), raw);
        }

        #[test]
        fn a_run_is_escaped_as_its_bytes_one_by_one(
            raw in proptest::collection::vec(any::<u8>(), 0..200),
            field in any::<bool>(),
        ) {
            let mut whole = String::from("x");
            escape_onto(&mut whole, &raw, field);
            let mut each = String::from("x");
            for &b in &raw {
                push_byte(&mut each, b, field);
            }
            prop_assert_eq!(whole, each);
        }

        #[test]
        fn unescape_never_panics(s in "\\PC*") {
            let _ = unescape(&s);
        }
    }
}
