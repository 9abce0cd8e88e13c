//! The sign-on (EPD spec 8: `refreq sign_on;`, the client's name in
//! `tcsi`): the one place a line is read as a sign-on, by the referee core,
//! the TCP listener's seats and the tournament's director, and the one
//! place a sign-on record is written, by the clients and the director.

use super::line_check::{self, Checked};
use super::{Fields, Operation, Record, RefReq};

/// A client's line, read for its sign-on.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    /// `refreq sign_on;`, with the name it gave ([`name`]).
    SignOn {
        record: Record,
        name: Option<String>,
    },
    /// Another EPD record.
    Other(Record),
    /// Not an EPD record (chatter: a banner, an empty line).
    NotRecord,
    /// Its line check failed: why.
    Damaged(String),
}

/// Reads a whole line (text without its line end), with or without its
/// line check.
pub fn read(text: &str) -> Line {
    let payload = match line_check::verify(text) {
        Checked::Valid(p) => p,
        Checked::Absent => text,
        Checked::Invalid(why) => return Line::Damaged(why),
    };
    match Record::parse(payload) {
        Ok(record) if is_sign_on(&record) => {
            let name = name(&record);
            Line::SignOn { record, name }
        }
        Ok(record) => Line::Other(record),
        Err(_) => Line::NotRecord,
    }
}

/// What a sign-on tells the referee about its client: the name it gave
/// ([`name`]) and whether it checks its lines (a sign-on that carries a
/// line check asks for checked records from then on, spec 8 with `Acrc`).
/// A tournament keeps it from the line a program signed on to the event
/// with and seats the program with it on each board it plays
/// (`referee::Input::Seated`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SignOn {
    pub name: Option<String>,
    pub line_check: bool,
}

impl SignOn {
    /// The sign-on of a program that sent none argus kept (on a cable
    /// after the referee restarted): named `name` (cleaned as a `tcsi`
    /// name is), lines unchecked.
    pub fn named(name: &str) -> SignOn {
        SignOn {
            name: Some(crate::text::client_name(name)).filter(|n| !n.is_empty()),
            line_check: false,
        }
    }
}

impl SignOn {
    /// What a sign-on record says, sent with its line check or not
    /// (`line_check`).
    pub fn of_record(record: &Record, line_check: bool) -> SignOn {
        SignOn {
            name: name(record),
            line_check,
        }
    }
}

/// A whole line read as a sign-on: what it says, or `None` when it is not
/// one (another record, chatter, or a line whose check failed).
pub fn of_line(text: &str) -> Option<SignOn> {
    if !may_sign_on(text) {
        return None;
    }
    match read(text) {
        Line::SignOn { record, .. } => Some(SignOn::of_record(
            &record,
            line_check::verify(text) != Checked::Absent,
        )),
        _ => None,
    }
}

/// Whether a whole line is a sign-on (with or without its line check).
pub fn is_sign_on_line(text: &str) -> bool {
    may_sign_on(text) && matches!(read(text), Line::SignOn { .. })
}

/// Whether a whole line may be a sign-on: it holds `sign_on`, as every
/// sign-on does (the operand of its `refreq`, written as it is: the EPD
/// has no escapes). A loop that asks of every line whether it signs a
/// player on so skips the parse and the line check of each move.
fn may_sign_on(text: &str) -> bool {
    text.contains(RefReq::SignOn.as_str())
}

/// Whether `record` is a sign-on.
pub fn is_sign_on(record: &Record) -> bool {
    record.refreq() == Ok(Some(RefReq::SignOn))
}

/// The name a record gives in its `tcsi`, stripped of control characters
/// and cut to the name limit ([`crate::text::client_name`]); none when it
/// gives none or only an empty one.
pub fn name(record: &Record) -> Option<String> {
    match record.tcsi() {
        Ok(Some((_, name))) => Some(crate::text::client_name(&name)).filter(|n| !n.is_empty()),
        _ => None,
    }
}

/// The sign-on record of `name` at the position `fields`.
pub fn record(fields: Fields, name: &str) -> String {
    Record::new(fields)
        .with(Operation::refreq(RefReq::SignOn))
        .with(Operation::tcsi("", name))
        .to_canonical()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sign_on_is_read_with_or_without_its_line_check_and_its_name_cleaned() {
        let line = record(Fields::initial(), "Crafty 20");
        let Line::SignOn { name, .. } = read(&line) else {
            panic!("{line}")
        };
        assert_eq!(name.as_deref(), Some("Crafty 20"));
        let mut checked = line.clone();
        line_check::append(&mut checked);
        assert!(matches!(read(&checked), Line::SignOn { .. }), "{checked}");
        assert!(is_sign_on_line(&checked) && is_sign_on_line(&line));
        // What it says: the name, and whether it checks its lines.
        let said = |line_check| SignOn {
            name: Some("Crafty 20".into()),
            line_check,
        };
        assert_eq!(of_line(&line), Some(said(false)));
        assert_eq!(of_line(&checked), Some(said(true)));
        assert_eq!(SignOn::named(" Crafty 20 "), said(false));
        assert_eq!(SignOn::named("").name, None);
        // Spaces around it go, an empty name is none.
        let raw = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - refreq sign_on; tcsi \"\" \"  Fritz \";";
        assert!(
            matches!(read(raw), Line::SignOn { name: Some(n), .. } if n == "Fritz"),
            "{:?}",
            read(raw)
        );
        assert!(matches!(
            read(&record(Fields::initial(), "")),
            Line::SignOn { name: None, .. }
        ));
    }

    #[test]
    fn other_records_chatter_and_damaged_lines_are_told_apart() {
        let reply = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - refreq reply; sm e4;";
        assert!(matches!(read(reply), Line::Other(_)));
        assert!(!is_sign_on_line(reply) && !is_sign_on_line("Crafty v20 ready"));
        assert_eq!(read("Crafty v20 ready"), Line::NotRecord);
        assert_eq!(read(""), Line::NotRecord);
        assert_eq!(of_line(reply), None);
        let mut damaged = record(Fields::initial(), "x");
        line_check::append(&mut damaged);
        damaged.replace_range(0..1, "R");
        assert!(matches!(read(&damaged), Line::Damaged(_)), "{damaged}");
        assert_eq!(of_line(&damaged), None);
    }
}
