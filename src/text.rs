//! Small text helpers shared by every edge that shows or stores strings
//! that came from a client.

/// Removes control characters (C0, DEL and C1) from a string that came from
/// a client, so that it cannot move the cursor or change colours on the
/// supervisor's terminal, or break a file name or a log line.
pub fn strip_control(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_lose_their_escape() {
        assert_eq!(strip_control("a\x1b[2Jb\u{9b}c\td\r\n"), "a[2Jbcd");
    }
}
