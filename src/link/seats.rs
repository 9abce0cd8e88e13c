//! Who gets a seat on a TCP listener, decided from lines and times alone
//! (no sockets, no clock): the I/O-free half of [`listen`](super::listen).
//!
//! * [`Greeting`]: one connection from its accept to its sign-on: an
//!   optional password line first (`Apassword "...";`, a private opcode,
//!   read here and never passed on), then `refreq sign_on;`, within a time
//!   limit and a byte budget.
//! * [`Seats`]: which seat a signed-on connection takes. A seat belongs to
//!   one connection at a time. With an expected name (`--name-a`), a seat
//!   takes only a client that signs on with that `tcsi` name; otherwise
//!   seats are taken in sign-on order, and a seat remembers the name it was
//!   first taken by, so a program that comes back gets its own seat again
//!   (one that comes back under another name gets a free seat). So two
//!   clients on one listener need two names.

use crate::epd::sign_on;
use crate::epd::{Fields, Operation, Record, RefCom};

/// The private opcode that carries the shared secret (`--password`).
pub const PASSWORD_OPCODE: &str = "Apassword";

/// How long a connection may take to sign on.
pub const SIGN_ON_LIMIT_MS: u64 = 10_000;

/// Bytes a connection may send before its sign-on (a password line and a
/// sign-on line are well under 1 KiB; more is a flood).
pub const SIGN_ON_BUDGET: usize = 16 * 1024;

/// The password line a client sends first on each connection.
pub fn password_line(password: &str) -> String {
    Record::new(Fields::initial())
        .with(Operation::new(PASSWORD_OPCODE).string(password))
        .to_canonical()
}

/// The record a refused connection gets before it is closed.
pub fn disconnect_line() -> String {
    Record::new(Fields::initial())
        .with(Operation::refcom(RefCom::Disconnect))
        .to_canonical()
}

/// What a greeting asks for after a line or a tick.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Keep reading.
    Wait,
    /// Signed on: seat it with this `tcsi` name (if it gave one).
    SignedOn { name: Option<String> },
    /// Drop the connection (after `refcom disconnect;`), for this reason.
    Refuse(String),
}

/// One connection from its accept to its sign-on.
#[derive(Debug)]
pub struct Greeting {
    password: Option<String>,
    password_ok: bool,
    started_ms: u64,
    bytes: usize,
}

impl Greeting {
    /// A connection accepted at `now_ms`; `password` is the one it must
    /// give, if any.
    pub fn new(password: Option<&str>, now_ms: u64) -> Greeting {
        Greeting {
            password: password.map(str::to_string),
            password_ok: false,
            started_ms: now_ms,
            bytes: 0,
        }
    }

    /// When the connection runs out of time to sign on.
    pub fn deadline(&self) -> u64 {
        self.started_ms.saturating_add(SIGN_ON_LIMIT_MS)
    }

    /// `n` more bytes arrived (counted before framing, so a flood with no
    /// line end counts too).
    pub fn received(&mut self, n: usize) -> Step {
        self.bytes = self.bytes.saturating_add(n);
        if self.bytes > SIGN_ON_BUDGET {
            return Step::Refuse(format!(
                "sent over {SIGN_ON_BUDGET} bytes without signing on"
            ));
        }
        Step::Wait
    }

    /// A line that was dropped by the framer (too long, not ASCII).
    pub fn dropped(&mut self, why: &str) -> Step {
        Step::Refuse(format!("sent a bad line before signing on ({why})"))
    }

    /// The time is `now_ms`.
    pub fn tick(&self, now_ms: u64) -> Step {
        if now_ms >= self.deadline() {
            return Step::Refuse(format!(
                "did not sign on within {} s",
                SIGN_ON_LIMIT_MS / 1000
            ));
        }
        Step::Wait
    }

    /// A whole line (text without its line end).
    pub fn line(&mut self, text: &str) -> Step {
        let (record, signed_on) = match sign_on::read(text) {
            sign_on::Line::SignOn { record, name } => (record, Some(name)),
            sign_on::Line::Other(record) => (record, None),
            sign_on::Line::Damaged(why) => {
                return Step::Refuse(format!("its line check failed before sign-on ({why})"));
            }
            // Chatter before the sign-on (a banner, an empty line) is
            // ignored, within the time limit and byte budget.
            sign_on::Line::NotRecord => return Step::Wait,
        };
        if let Some(op) = record.op(PASSWORD_OPCODE) {
            let given = op.operands.first().map_or("", |o| o.text());
            self.password_ok = self
                .password
                .as_ref()
                .is_none_or(|p| constant_time_eq(p.as_bytes(), given.as_bytes()));
            if !self.password_ok {
                return Step::Refuse("gave a wrong password".into());
            }
            return Step::Wait;
        }
        let Some(name) = signed_on else {
            return Step::Wait;
        };
        if self.password.is_some() && !self.password_ok {
            return Step::Refuse(
                "signed on without the password (this referee has --password)".into(),
            );
        }
        Step::SignedOn { name }
    }
}

/// Compares without stopping at the first difference, so that the time a
/// refusal takes says nothing about how much of a guess was right.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let mut diff = a.len() ^ b.len();
    for (i, x) in a.iter().enumerate() {
        diff |= usize::from(x ^ b.get(i).copied().unwrap_or(!x));
    }
    diff == 0
}

/// One seat.
#[derive(Debug, Clone)]
struct Seat {
    label: String,
    /// Only a client with this `tcsi` name may take it.
    expected: Option<String>,
    /// The name of the first client that took it (`Some("")`: one that
    /// gave no name).
    holder: Option<String>,
    occupied: bool,
}

/// Which seat a signed-on connection gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// The seat at this index.
    Seat(usize),
    /// None: why, in words.
    Refuse(String),
}

/// The seats of one listener.
#[derive(Debug, Clone)]
pub struct Seats {
    seats: Vec<Seat>,
}

impl Seats {
    /// Seats with their labels (`A`, `B`) and expected names, in the order
    /// they are filled.
    pub fn new(seats: Vec<(String, Option<String>)>) -> Seats {
        Seats {
            seats: seats
                .into_iter()
                .map(|(label, expected)| Seat {
                    label,
                    expected,
                    holder: None,
                    occupied: false,
                })
                .collect(),
        }
    }

    /// The seat for a client that signed on as `name`; taken if given.
    pub fn sign_on(&mut self, name: Option<&str>) -> Decision {
        let name = name.unwrap_or("");
        let mine = |s: &Seat| match &s.expected {
            Some(e) => e == name,
            None => !name.is_empty() && s.holder.as_deref() == Some(name),
        };
        // A name may hold several seats (a `tcp:NAME` player that plays on
        // several boards at once): its first free one, else its first.
        let free_mine = self.seats.iter().position(|s| mine(s) && !s.occupied);
        let pick = match free_mine.or_else(|| self.seats.iter().position(mine)) {
            Some(i) => Some(i),
            None => {
                let open = |s: &Seat| s.expected.is_none() && !s.occupied;
                let fresh = self
                    .seats
                    .iter()
                    .position(|s| open(s) && s.holder.is_none());
                // Else any free seat: a program that came back under
                // another name (or none) is not locked out.
                fresh.or_else(|| self.seats.iter().position(open))
            }
        };
        let Some(i) = pick else {
            return Decision::Refuse(self.no_seat(name));
        };
        let Some(seat) = self.seats.get_mut(i) else {
            return Decision::Refuse(self.no_seat(name));
        };
        if seat.occupied {
            return Decision::Refuse(format!(
                "seat {} is taken by a live connection{}",
                seat.label,
                if name.is_empty() {
                    String::new()
                } else {
                    format!(" of {name:?} (two programs with one name? give each its own --name)")
                }
            ));
        }
        seat.occupied = true;
        seat.holder.get_or_insert_with(|| name.to_string());
        Decision::Seat(i)
    }

    fn no_seat(&self, name: &str) -> String {
        let expected: Vec<String> = self
            .seats
            .iter()
            .filter_map(|s| {
                s.expected
                    .as_ref()
                    .map(|e| format!("{e:?} (seat {})", s.label))
            })
            .collect();
        if expected.len() == self.seats.len() {
            format!(
                "{name:?} is not an expected name: this referee seats only {}",
                expected.join(" and ")
            )
        } else {
            format!("no free seat for {name:?}: every seat is held")
        }
    }

    /// The connection on seat `i` is gone: the seat may be taken again.
    pub fn freed(&mut self, i: usize) {
        if let Some(s) = self.seats.get_mut(i) {
            s.occupied = false;
        }
    }

    /// Whether seat `i` has a live connection.
    pub fn occupied(&self, i: usize) -> bool {
        self.seats.get(i).is_some_and(|s| s.occupied)
    }

    /// Seat `i`'s label.
    pub fn label(&self, i: usize) -> &str {
        self.seats.get(i).map_or("?", |s| s.label.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two(a: Option<&str>, b: Option<&str>) -> Seats {
        Seats::new(vec![
            ("A".into(), a.map(str::to_string)),
            ("B".into(), b.map(str::to_string)),
        ])
    }

    fn sign_on(name: &str) -> String {
        let mut r = sign_on::record(Fields::initial(), name);
        crate::epd::line_check::append(&mut r);
        r
    }

    #[test]
    fn seats_go_in_sign_on_order_and_come_back_to_their_holder() {
        let mut s = two(None, None);
        assert_eq!(s.sign_on(Some("one")), Decision::Seat(0));
        assert_eq!(s.sign_on(Some("two")), Decision::Seat(1));
        let stolen = s.sign_on(Some("two"));
        assert!(
            matches!(&stolen, Decision::Refuse(w) if w.contains("seat B is taken by a live connection of \"two\"")),
            "{stolen:?}"
        );
        assert!(matches!(s.sign_on(Some("three")), Decision::Refuse(_)));
        // Both drop; "two" comes back first and still gets B.
        s.freed(0);
        s.freed(1);
        assert_eq!(s.sign_on(Some("two")), Decision::Seat(1));
        assert_eq!(s.sign_on(Some("one")), Decision::Seat(0));
        assert!(s.occupied(0) && s.occupied(1));
        // One comes back renamed: it gets the free seat.
        s.freed(0);
        assert_eq!(s.sign_on(Some("one v2")), Decision::Seat(0));
    }

    #[test]
    fn a_name_with_several_seats_takes_its_free_ones_in_turn() {
        let mut s = two(Some("Fish"), Some("Fish"));
        assert_eq!(s.sign_on(Some("Fish")), Decision::Seat(0));
        assert_eq!(s.sign_on(Some("Fish")), Decision::Seat(1));
        let third = s.sign_on(Some("Fish"));
        assert!(
            matches!(&third, Decision::Refuse(w) if w.contains("taken by a live connection")),
            "{third:?}"
        );
        // The first leaves: the next connection of that name takes its seat.
        s.freed(0);
        assert_eq!(s.sign_on(Some("Fish")), Decision::Seat(0));
    }

    #[test]
    fn with_expected_names_only_those_are_seated() {
        let mut s = two(Some("Crafty"), Some("Fritz"));
        let e = s.sign_on(Some("Intruder"));
        assert!(
            matches!(&e, Decision::Refuse(w) if w.contains("seats only \"Crafty\" (seat A) and \"Fritz\" (seat B)")),
            "{e:?}"
        );
        assert_eq!(s.sign_on(Some("Fritz")), Decision::Seat(1));
        assert_eq!(s.sign_on(None).clone(), Decision::Refuse(s.no_seat("")));
        assert_eq!(s.sign_on(Some("Crafty")), Decision::Seat(0));
    }

    #[test]
    fn clients_without_a_name_take_seats_in_order_and_back() {
        let mut s = two(None, None);
        assert_eq!(s.sign_on(None), Decision::Seat(0));
        assert_eq!(s.sign_on(Some("named")), Decision::Seat(1));
        s.freed(0);
        assert_eq!(s.sign_on(None), Decision::Seat(0));
    }

    #[test]
    fn a_greeting_reads_the_password_then_the_sign_on() {
        let mut g = Greeting::new(Some("s3cret"), 1_000);
        assert_eq!(g.line("hello there"), Step::Wait);
        assert_eq!(g.line(&password_line("s3cret")), Step::Wait);
        assert_eq!(
            g.line(&sign_on("Crafty 20")),
            Step::SignedOn {
                name: Some("Crafty 20".into())
            }
        );
        let mut wrong = Greeting::new(Some("s3cret"), 0);
        assert_eq!(
            wrong.line(&password_line("guess")),
            Step::Refuse("gave a wrong password".into())
        );
        let mut none = Greeting::new(Some("s3cret"), 0);
        assert!(
            matches!(none.line(&sign_on("x")), Step::Refuse(w) if w.contains("without the password"))
        );
        // The name as the core keeps it (a resumed referee expects that).
        let long = "N".repeat(100);
        assert_eq!(
            Greeting::new(None, 0).line(&sign_on(&long)),
            Step::SignedOn {
                name: Some(crate::text::client_name(&long))
            }
        );
        // Without --password a password line is read and ignored.
        let mut open = Greeting::new(None, 0);
        assert_eq!(open.line(&password_line("whatever")), Step::Wait);
        assert!(matches!(open.line(&sign_on("x")), Step::SignedOn { .. }));
    }

    #[test]
    fn a_greeting_has_a_time_limit_and_a_byte_budget() {
        let mut g = Greeting::new(None, 5_000);
        assert_eq!(g.tick(5_000 + SIGN_ON_LIMIT_MS - 1), Step::Wait);
        assert!(
            matches!(g.tick(5_000 + SIGN_ON_LIMIT_MS), Step::Refuse(w) if w.contains("within 10 s"))
        );
        assert_eq!(g.received(SIGN_ON_BUDGET), Step::Wait);
        assert!(matches!(g.received(1), Step::Refuse(w) if w.contains("without signing on")));
    }

    #[test]
    fn passwords_compare_whole() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
        assert!(!constant_time_eq(b"", b"a"));
        assert!(constant_time_eq(b"", b""));
    }
}
