//! The wire form of a feed of several journals (a tournament's: its own
//! and every game's). The first line says what it is:
//!
//! ```text
//! argus-feed-files 1
//! NAME NUMBER LINE
//! ```
//!
//! then every line of every file, each as the file's name (its path
//! relative to the directory served, `/` between the parts), the line's
//! number in that file (from 1) and the line itself. The lines of one file
//! come in order; the files' lines are interleaved as they are written. A
//! connection gets every file from its first line, so a watcher that
//! reconnects skips the lines it has by their numbers.
//!
//! Nothing here trusts the wire: a name is a short relative path of plain
//! parts (no `..`, no hidden or absolute parts), a line is at most
//! [`MAX_LINE`] bytes, and a line that does not read is an error that
//! says why (never a panic).

use crate::journal::format::MAX_LINE;

/// The first word of a files feed's first line.
pub const MAGIC: &str = "argus-feed-files";
/// The version of the form.
pub const VERSION: u32 = 1;
/// The longest file name.
pub const MAX_NAME: usize = 128;
/// The most parts in a file name (`game-007/journal.log` has two).
pub const MAX_PARTS: usize = 4;
/// The longest line of a files feed: a name, a number (at most 20
/// digits), a journal line, the spaces between.
pub const MAX_FEED_LINE: usize = MAX_NAME + 1 + 20 + 1 + MAX_LINE;

/// The feed's first line, without its line end.
pub fn greeting() -> String {
    format!("{MAGIC} {VERSION}")
}

/// Whether a feed's first line says it is a files feed (of a version this
/// argus reads); a files feed of another version is an error.
pub fn is_greeting(line: &[u8]) -> Result<bool, FeedLineError> {
    let Some(rest) = line
        .strip_prefix(MAGIC.as_bytes())
        .and_then(|r| r.strip_prefix(b" "))
    else {
        return Ok(false);
    };
    let version = std::str::from_utf8(rest).ok().and_then(|v| v.parse().ok());
    match version {
        Some(VERSION) => Ok(true),
        _ => Err(FeedLineError::Version(
            String::from_utf8_lossy(&rest[..rest.len().min(20)]).into_owned(),
        )),
    }
}

/// Checks a file name from the wire or from the server's directory: a
/// relative path of at most [`MAX_PARTS`] parts, each of ASCII letters,
/// digits, `-`, `_` and `.`, none empty or beginning with `.`.
pub fn check_name(name: &str) -> Result<(), FeedLineError> {
    if name.is_empty() || name.len() > MAX_NAME {
        return Err(FeedLineError::NameLength(name.len()));
    }
    let parts: Vec<&str> = name.split('/').collect();
    if parts.len() > MAX_PARTS {
        return Err(FeedLineError::NameParts);
    }
    for part in parts {
        let plain = part
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
        if part.is_empty() || part.starts_with('.') || !plain {
            return Err(FeedLineError::NotPlain(crate::text::strip_control(name)));
        }
    }
    Ok(())
}

/// Appends the feed line for line `number` of file `name` (with its line
/// end) to `out`.
pub fn encode(name: &str, number: u64, line: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(name.as_bytes());
    out.push(b' ');
    out.extend_from_slice(number.to_string().as_bytes());
    out.push(b' ');
    out.extend_from_slice(line);
    out.push(b'\n');
}

/// One line of a files feed, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileLine<'a> {
    /// The file's name, checked ([`check_name`]).
    pub name: &'a str,
    /// The line's number in the file, from 1.
    pub number: u64,
    /// The file's line, without its line end.
    pub line: &'a [u8],
}

/// Reads one line of a files feed (without its line end); the error says
/// what is wrong with it.
pub fn parse(line: &[u8]) -> Result<FileLine<'_>, FeedLineError> {
    if line.len() > MAX_FEED_LINE {
        return Err(FeedLineError::TooLong);
    }
    let mut parts = line.splitn(3, |&b| b == b' ');
    let (Some(name), Some(number), Some(rest)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(FeedLineError::NotNameNumberLine);
    };
    let name = std::str::from_utf8(name).map_err(|_| FeedLineError::NameNotUtf8)?;
    check_name(name)?;
    let number = std::str::from_utf8(number)
        .ok()
        .filter(|n| !n.is_empty() && n.len() <= 20 && n.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|n| n.parse::<u64>().ok())
        .filter(|&n| n >= 1)
        .ok_or_else(|| FeedLineError::Number(name.to_string()))?;
    if rest.len() > MAX_LINE {
        return Err(FeedLineError::LineTooLong {
            name: name.to_string(),
            number,
        });
    }
    Ok(FileLine {
        name,
        number,
        line: rest,
    })
}

/// What is wrong with a line of a files feed (or a file name in it): the
/// line is skipped, or the feed refused for its first line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FeedLineError {
    /// A files feed of another version (what its first line said).
    #[error("a files feed of version {0:?}: this argus reads version {VERSION}")]
    Version(String),
    #[error("a file name of {0} bytes (1 to {MAX_NAME})")]
    NameLength(usize),
    #[error("a file name of more than {MAX_PARTS} parts")]
    NameParts,
    /// The name, control characters removed.
    #[error("the file name {0:?} is not a plain relative path")]
    NotPlain(String),
    #[error("a line longer than {MAX_FEED_LINE} bytes")]
    TooLong,
    #[error("not NAME NUMBER LINE")]
    NotNameNumberLine,
    #[error("a file name that is not UTF-8")]
    NameNotUtf8,
    #[error("{0}: the line number is not a number from 1")]
    Number(String),
    #[error("{name} line {number}: longer than {MAX_LINE} bytes")]
    LineTooLong { name: String, number: u64 },
}

error_words!(FeedLineError);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reads_back_as_written() {
        let mut out = Vec::new();
        encode("game-007/journal.log", 12, b"in 5 line A x y", &mut out);
        assert_eq!(out, b"game-007/journal.log 12 in 5 line A x y\n");
        let got = parse(&out[..out.len() - 1]).unwrap();
        assert_eq!(
            got,
            FileLine {
                name: "game-007/journal.log",
                number: 12,
                line: b"in 5 line A x y",
            }
        );
        // An empty journal line is a line too.
        assert_eq!(parse(b"tournament.journal 1 ").unwrap().line, b"");
    }

    #[test]
    fn the_greeting_is_known_by_its_magic_and_version() {
        assert_eq!(is_greeting(greeting().as_bytes()), Ok(true));
        assert_eq!(is_greeting(b"argus-journal 1 argus 0.1.0"), Ok(false));
        assert_eq!(is_greeting(b""), Ok(false));
        assert!(is_greeting(b"argus-feed-files 2").is_err());
        assert!(is_greeting(b"argus-feed-files \xff").is_err());
    }

    #[test]
    fn names_that_leave_the_directory_or_hide_are_refused() {
        for good in ["tournament.journal", "game-007/journal.log", "a_b/c-d.e"] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        let long = "a".repeat(MAX_NAME + 1);
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            "a/../b",
            "a//b",
            ".hidden",
            "a/.b",
            "a\\b",
            "a b",
            "é",
            "a/b/c/d/e",
            "a\x1b[2J",
            long.as_str(),
        ] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn malformed_lines_say_what_is_wrong() {
        for (bad, says) in [
            (&b"no-number"[..], "NAME NUMBER LINE"),
            (b"x.log 3", "NAME NUMBER LINE"),
            (b"x.log three line", "not a number"),
            (b"x.log 0 line", "not a number"),
            (b"x.log -1 line", "not a number"),
            (b"x.log 99999999999999999999999 line", "not a number"),
            (b"../x.log 1 line", "plain relative path"),
            (b"\xff\xfe 1 line", "UTF-8"),
        ] {
            let e = parse(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{:?}: {e}", String::from_utf8_lossy(bad));
        }
        assert_eq!(
            parse(b"x.log 0 line"),
            Err(FeedLineError::Number("x.log".into()))
        );
    }

    #[test]
    fn oversize_lines_are_refused() {
        let mut line = b"x.log 1 ".to_vec();
        line.extend(std::iter::repeat_n(b'a', MAX_LINE));
        assert_eq!(parse(&line).unwrap().line.len(), MAX_LINE);
        line.push(b'a');
        assert!(
            parse(&line)
                .unwrap_err()
                .to_string()
                .contains("longer than")
        );
        let huge = vec![b'a'; MAX_FEED_LINE + 1];
        assert_eq!(parse(&huge), Err(FeedLineError::TooLong));
    }
}
