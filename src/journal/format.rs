//! One journal line: what it can say ([`Entry`]), how it is written
//! (space-separated tokens, then the line's check) and read back.
//!
//! Every token is whitespace-free printable ASCII: text is escaped with
//! `\xNN` for a space, a backslash and every byte outside printable ASCII;
//! the empty text is written `-` (and the text `-` as `\x2d`). So any text
//! round-trips, and a line is always one line. See docs/journal.md.

use crate::clock::Arrival;
use crate::epd::sign_on::SignOn;
use crate::record::escape::{escape_field, unescape};
use crate::referee::{ClientId, Command, Input, Verdict, WallClock};

/// The first word of the first line of every journal.
pub const MAGIC: &str = "argus-journal";
/// The version of the format this build writes and reads.
pub const VERSION: u32 = 1;
/// The longest line read (a record line is at most 4096 bytes, four times
/// that escaped; openings with long move lists stay well below).
pub const MAX_LINE: usize = 64 * 1024;

/// The state the replay must reach, written after the outputs of an input
/// that moved or ended a game were carried out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// Journal time of the input.
    pub at: u64,
    pub game: u32,
    /// Plies in the game (opening moves included).
    pub ply: usize,
    /// The position, as FEN.
    pub fen: String,
    /// Time used by White and by Black at `at`, in ms.
    pub used_ms: [u64; 2],
}

/// One line of the journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// `argus-journal VERSION WRITER`: the format version and the program
    /// that wrote the journal (first line).
    Magic { version: u32, writer: String },
    /// `session ID`: the match's id (second line).
    Session(String),
    /// `set KEY VALUE...`: one setting of the match (header).
    Set { key: String, values: Vec<String> },
    /// `opening SOURCE FEN UCI...`: one opening, in file order (header).
    Opening {
        source: String,
        fen: String,
        moves: Vec<String>,
    },
    /// `begin`: the header is complete.
    Begin,
    /// `epoch AT UNIX_MS OFFSET`: journal time AT was this wall-clock time
    /// (ms since 1970), in a local time OFFSET minutes east of UTC; written
    /// when a referee starts or resumes. A journal written before the
    /// offset was added has none: UTC.
    Epoch(WallClock),
    /// `in AT ...`: an input to the core and its time.
    Input { at: u64, input: Input },
    /// `check AT GAME PLY FEN WHITE_USED BLACK_USED`.
    Check(Checkpoint),
    /// `pgn GAME`: the finished game went to the PGN file (or, without
    /// one, to the application log).
    Saved { game: u32 },
    /// `note TEXT`: for people; the replay skips it.
    Note(String),
}

/// Writes `text` as one token.
pub fn token(text: &str) -> String {
    match text {
        "" => "-".into(),
        "-" => "\\x2d".into(),
        t => escape_field(t.as_bytes()),
    }
}

/// `head` followed by each of `texts` as a token: the form of every line
/// that ends in a list (`set KEY VALUE...`, `opening SOURCE FEN UCI...`).
pub(crate) fn with_tokens<'a>(head: String, texts: impl IntoIterator<Item = &'a String>) -> String {
    let mut s = head;
    for t in texts {
        s.push(' ');
        s.push_str(&token(t));
    }
    s
}

/// Reads a token written by [`token`].
pub fn untoken(t: &str) -> Result<String, LineError> {
    if t == "-" {
        return Ok(String::new());
    }
    String::from_utf8(unescape(t)).map_err(|_| LineError::NotText(t.to_string()))
}

/// What is wrong with a journal line's payload: the field (in words) and
/// the text found there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("empty field where {0} should be")]
    EmptyField(String),
    #[error("{0} is missing")]
    Missing(String),
    #[error("token {0:?} is not UTF-8 text")]
    NotText(String),
    /// A field's token is not text.
    #[error("{what}: token {token:?} is not UTF-8 text")]
    FieldNotText { what: String, token: String },
    #[error("{what} {word:?} is not a number")]
    NotANumber { what: String, word: String },
    #[error("{what} {word:?} is not a number in range")]
    OutOfRange { what: String, word: String },
    #[error("unknown client {0:?} (A or B)")]
    UnknownClient(String),
    #[error("the UTC offset {0:?} is not minutes from -1440 to 1440")]
    UtcOffset(String),
    #[error("empty field in a list")]
    EmptyInList,
    #[error("unexpected {0:?} at the end of the line")]
    Trailing(String),
    #[error("unknown kind of line {0:?}")]
    UnknownLine(String),
    #[error("unknown kind of input {0:?}")]
    UnknownInput(String),
    #[error("unknown command {0:?}")]
    UnknownCommand(String),
    #[error("unknown verdict {0:?}")]
    UnknownVerdict(String),
    /// A seat's word for its line check, neither of the two.
    #[error("{0:?}: checked or unchecked")]
    UnknownLineCheck(String),
    /// A tablebase input whose verdict does not read (what it said).
    #[error(transparent)]
    Tablebase(#[from] crate::referee::tablebase::VerdictError),
}

error_words!(LineError);

impl Entry {
    /// The line's text without its check.
    pub fn payload(&self) -> String {
        match self {
            Entry::Magic { version, writer } => format!("{MAGIC} {version} {}", token(writer)),
            Entry::Session(id) => format!("session {}", token(id)),
            Entry::Set { key, values } => with_tokens(format!("set {}", token(key)), values),
            Entry::Opening { source, fen, moves } => {
                with_tokens(format!("opening {} {}", token(source), token(fen)), moves)
            }
            Entry::Begin => "begin".into(),
            Entry::Epoch(w) => format!("epoch {} {} {}", w.at, w.unix_ms, w.utc_offset_min),
            Entry::Input { at, input } => format!("in {at} {}", input_payload(input)),
            Entry::Check(c) => format!(
                "check {} {} {} {} {} {}",
                c.at,
                c.game,
                c.ply,
                token(&c.fen),
                c.used_ms[0],
                c.used_ms[1]
            ),
            Entry::Saved { game } => format!("pgn {game}"),
            Entry::Note(text) => format!("note {}", token(text)),
        }
    }

    /// Reads a payload (a line without its check). The error says what is
    /// wrong with it.
    pub fn parse(payload: &str) -> Result<Entry, LineError> {
        let mut t = Tokens::new(payload);
        let kind = t.word("the kind of line")?;
        let entry = match kind {
            MAGIC => Entry::Magic {
                version: t.number("the format version")?,
                writer: t.text("the writer")?,
            },
            "session" => Entry::Session(t.text("the session id")?),
            "set" => Entry::Set {
                key: t.text("the setting's name")?,
                values: t.rest()?,
            },
            "opening" => Entry::Opening {
                source: t.text("the opening's source")?,
                fen: t.text("the opening's FEN")?,
                moves: t.rest()?,
            },
            "begin" => Entry::Begin,
            "epoch" => Entry::Epoch(WallClock {
                at: t.number("the time")?,
                unix_ms: t.number("the wall-clock time")?,
                utc_offset_min: t.offset()?,
            }),
            "in" => {
                let at = t.number("the time")?;
                Entry::Input {
                    at,
                    input: parse_input(&mut t)?,
                }
            }
            "check" => Entry::Check(Checkpoint {
                at: t.number("the time")?,
                game: t.number("the game number")?,
                ply: t.number("the ply")?,
                fen: t.text("the FEN")?,
                used_ms: [
                    t.number("White's time used")?,
                    t.number("Black's time used")?,
                ],
            }),
            "pgn" => Entry::Saved {
                game: t.number("the game number")?,
            },
            "note" => Entry::Note(t.text("the note")?),
            other => return Err(LineError::UnknownLine(other.to_string())),
        };
        t.end()?;
        Ok(entry)
    }
}

fn client_token(c: ClientId) -> &'static str {
    match c {
        ClientId::A => "A",
        ClientId::B => "B",
    }
}

fn input_payload(input: &Input) -> String {
    match input {
        Input::Line {
            from,
            text,
            wire_bytes,
            arrival,
        } => {
            let line = format!("line {} {wire_bytes} {}", client_token(*from), token(text));
            match arrival {
                Some(a) => format!("{line} {} {}", a.first_bytes, a.span_us),
                None => line,
            }
        }
        Input::Dropped { from, reason } => {
            format!("dropped {} {}", client_token(*from), token(reason))
        }
        Input::Receiving { from } => format!("receiving {}", client_token(*from)),
        Input::Refused { to, seq } => format!("refused {} {seq}", client_token(*to)),
        Input::Sent { to, seq } => format!("sent {} {seq}", client_token(*to)),
        Input::LinkLost { client, reason } => {
            format!("lost {} {}", client_token(*client), token(reason))
        }
        Input::LinkBack { client } => format!("back {}", client_token(*client)),
        Input::Timer => "timer".into(),
        Input::Seated { client, sign_on } => format!(
            "seated {} {} {}",
            client_token(*client),
            if sign_on.line_check {
                "checked"
            } else {
                "unchecked"
            },
            token(sign_on.name.as_deref().unwrap_or_default())
        ),
        Input::Resumed => "resumed".into(),
        Input::Tablebase(v) => format!("tablebase {v}"),
        Input::Supervisor(cmd) => match cmd {
            Command::Pause => "cmd pause".into(),
            Command::Resume => "cmd resume".into(),
            Command::Adjudicate(Verdict::WhiteWins) => "cmd adjudicate 1-0".into(),
            Command::Adjudicate(Verdict::BlackWins) => "cmd adjudicate 0-1".into(),
            Command::Adjudicate(Verdict::Draw) => "cmd adjudicate 1/2-1/2".into(),
            Command::AbortGame => "cmd abort".into(),
            Command::RestartClient(c) => format!("cmd restart {}", client_token(*c)),
            Command::EndSession => "cmd end".into(),
        },
    }
}

fn parse_input(t: &mut Tokens<'_>) -> Result<Input, LineError> {
    let kind = t.word("the kind of input")?;
    Ok(match kind {
        "line" => Input::Line {
            from: t.client()?,
            wire_bytes: t.number("the line's size on the wire")?,
            text: t.text("the line")?,
            // Journals written before arrivals were recorded end here.
            arrival: match t.maybe_number("the bytes of the line's first read")? {
                Some(first_bytes) => Some(Arrival {
                    first_bytes,
                    span_us: t.number("the microseconds from its first read to its line end")?,
                }),
                None => None,
            },
        },
        "dropped" => Input::Dropped {
            from: t.client()?,
            reason: t.text("the reason")?,
        },
        "receiving" => Input::Receiving { from: t.client()? },
        "refused" => Input::Refused {
            to: t.client()?,
            seq: t.number("the sequence number")?,
        },
        "sent" => Input::Sent {
            to: t.client()?,
            seq: t.number("the sequence number")?,
        },
        "lost" => Input::LinkLost {
            client: t.client()?,
            reason: t.text("the reason")?,
        },
        "back" => Input::LinkBack {
            client: t.client()?,
        },
        "timer" => Input::Timer,
        "seated" => Input::Seated {
            client: t.client()?,
            sign_on: SignOn {
                line_check: match t.word("whether its lines are checked")? {
                    "checked" => true,
                    "unchecked" => false,
                    other => return Err(LineError::UnknownLineCheck(other.to_string())),
                },
                name: Some(t.text("the name")?).filter(|n| !n.is_empty()),
            },
        },
        "resumed" => Input::Resumed,
        "tablebase" => {
            let ply: u64 = t.number("the ply")?;
            let material = t.word("the material")?;
            let outcome = t.word("the outcome")?;
            Input::Tablebase(
                format!("{ply} {material} {outcome}")
                    .parse()
                    .map_err(LineError::Tablebase)?,
            )
        }
        "cmd" => Input::Supervisor(match t.word("the command")? {
            "pause" => Command::Pause,
            "resume" => Command::Resume,
            "adjudicate" => Command::Adjudicate(match t.word("the verdict")? {
                "1-0" => Verdict::WhiteWins,
                "0-1" => Verdict::BlackWins,
                "1/2-1/2" => Verdict::Draw,
                other => return Err(LineError::UnknownVerdict(other.to_string())),
            }),
            "abort" => Command::AbortGame,
            "restart" => Command::RestartClient(t.client()?),
            "end" => Command::EndSession,
            other => return Err(LineError::UnknownCommand(other.to_string())),
        }),
        other => return Err(LineError::UnknownInput(other.to_string())),
    })
}

/// The tokens of a payload, one at a time, with errors that say which
/// field was missing or bad.
pub(crate) struct Tokens<'a> {
    parts: std::str::Split<'a, char>,
}

impl<'a> Tokens<'a> {
    pub(crate) fn new(payload: &'a str) -> Tokens<'a> {
        Tokens {
            parts: payload.split(' '),
        }
    }

    pub(crate) fn word(&mut self, what: &str) -> Result<&'a str, LineError> {
        match self.parts.next() {
            Some("") => Err(LineError::EmptyField(what.to_string())),
            Some(w) => Ok(w),
            None => Err(LineError::Missing(what.to_string())),
        }
    }

    /// The next word, without taking it.
    pub(crate) fn peek(&self) -> Option<&'a str> {
        self.parts.clone().next()
    }

    /// A number if the line goes on, `None` if it ends here.
    fn maybe_number<N: std::str::FromStr>(&mut self, what: &str) -> Result<Option<N>, LineError> {
        match self.parts.clone().next() {
            None => Ok(None),
            Some(_) => self.number(what).map(Some),
        }
    }

    pub(crate) fn text(&mut self, what: &str) -> Result<String, LineError> {
        let w = self.word(what)?;
        untoken(w).map_err(|_| LineError::FieldNotText {
            what: what.to_string(),
            token: w.to_string(),
        })
    }

    pub(crate) fn number<N: std::str::FromStr>(&mut self, what: &str) -> Result<N, LineError> {
        let w = self.word(what)?;
        let err = |number: bool| {
            let (what, word) = (what.to_string(), w.to_string());
            if number {
                LineError::OutOfRange { what, word }
            } else {
                LineError::NotANumber { what, word }
            }
        };
        if !w.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err(false));
        }
        w.parse().map_err(|_| err(true))
    }

    fn client(&mut self) -> Result<ClientId, LineError> {
        match self.word("the client")? {
            "A" => Ok(ClientId::A),
            "B" => Ok(ClientId::B),
            other => Err(LineError::UnknownClient(other.to_string())),
        }
    }

    /// An optional last field: a local time's offset from UTC in minutes
    /// (`-300`, `60`), at most a day either way; 0 when there is none.
    fn offset(&mut self) -> Result<i32, LineError> {
        let mut rest = self.parts.clone();
        let Some(w) = rest.next() else {
            return Ok(0);
        };
        self.parts = rest;
        let digits = w.strip_prefix('-').unwrap_or(w);
        match w.parse::<i32>() {
            Ok(m)
                if !digits.is_empty()
                    && digits.bytes().all(|b| b.is_ascii_digit())
                    && m.unsigned_abs() <= 24 * 60 =>
            {
                Ok(m)
            }
            _ => Err(LineError::UtcOffset(w.to_string())),
        }
    }

    /// An optional last field: a text, or `None` when the line ends.
    pub(crate) fn optional_text(&mut self, what: &str) -> Result<Option<String>, LineError> {
        let mut rest = self.parts.clone();
        if rest.next().is_none() {
            return Ok(None);
        }
        self.text(what).map(Some)
    }

    pub(crate) fn rest(&mut self) -> Result<Vec<String>, LineError> {
        let mut v = Vec::new();
        for w in self.parts.by_ref() {
            if w.is_empty() {
                return Err(LineError::EmptyInList);
            }
            v.push(untoken(w)?);
        }
        Ok(v)
    }

    pub(crate) fn end(&mut self) -> Result<(), LineError> {
        match self.parts.next() {
            None => Ok(()),
            Some(w) => Err(LineError::Trailing(w.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn round_trip(e: &Entry) {
        let payload = e.payload();
        assert!(
            payload.bytes().all(|b| (0x20..=0x7e).contains(&b)),
            "{payload}"
        );
        assert_eq!(&Entry::parse(&payload).unwrap(), e, "{payload}");
    }

    #[test]
    fn every_kind_round_trips() {
        let inputs = vec![
            Input::Line {
                from: ClientId::A,
                text: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - refreq sign_on;".into(),
                wire_bytes: 70,
                arrival: None,
            },
            Input::Line {
                from: ClientId::B,
                text: String::new(),
                wire_bytes: 1,
                arrival: Some(Arrival {
                    first_bytes: 1,
                    span_us: 0,
                }),
            },
            Input::Line {
                from: ClientId::B,
                text: "-".into(),
                wire_bytes: 2,
                arrival: Some(Arrival {
                    first_bytes: 1,
                    span_us: u64::MAX,
                }),
            },
            Input::Dropped {
                from: ClientId::B,
                reason: "line too long (5000 bytes)".into(),
            },
            Input::Sent {
                to: ClientId::A,
                seq: 17,
            },
            Input::Receiving { from: ClientId::B },
            Input::Refused {
                to: ClientId::A,
                seq: 18,
            },
            Input::LinkLost {
                client: ClientId::B,
                reason: "hang-up \\ é".into(),
            },
            Input::LinkBack {
                client: ClientId::A,
            },
            Input::Timer,
            Input::Seated {
                client: ClientId::A,
                sign_on: SignOn {
                    name: Some("Deep \\ Thought - é".into()),
                    line_check: true,
                },
            },
            Input::Seated {
                client: ClientId::B,
                sign_on: SignOn::default(),
            },
            Input::Resumed,
            Input::Supervisor(Command::Pause),
            Input::Supervisor(Command::Resume),
            Input::Supervisor(Command::Adjudicate(Verdict::WhiteWins)),
            Input::Supervisor(Command::Adjudicate(Verdict::BlackWins)),
            Input::Supervisor(Command::Adjudicate(Verdict::Draw)),
            Input::Supervisor(Command::AbortGame),
            Input::Supervisor(Command::RestartClient(ClientId::B)),
            Input::Supervisor(Command::EndSession),
            Input::Tablebase("61 KQvKR cursed-0-1".parse().unwrap()),
        ];
        for (i, input) in inputs.into_iter().enumerate() {
            round_trip(&Entry::Input {
                at: i as u64 * 1000,
                input,
            });
        }
        for e in [
            Entry::Magic {
                version: 1,
                writer: "argus 0.1.0".into(),
            },
            Entry::Session("0123456789abcdef".into()),
            Entry::Set {
                key: "round".into(),
                values: vec![],
            },
            Entry::Set {
                key: "event".into(),
                values: vec!["Club match, round 1".into()],
            },
            Entry::Opening {
                source: "openings.pgn:12".into(),
                fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
                moves: vec!["e2e4".into(), "e7e5".into()],
            },
            Entry::Begin,
            Entry::Epoch(WallClock {
                at: 0,
                unix_ms: 1_700_000_000_000,
                utc_offset_min: 0,
            }),
            Entry::Epoch(WallClock {
                at: 12,
                unix_ms: 1_700_000_000_000,
                utc_offset_min: -570,
            }),
            Entry::Epoch(WallClock {
                at: 12,
                unix_ms: 1_700_000_000_000,
                utc_offset_min: 345,
            }),
            Entry::Check(Checkpoint {
                at: 12_345,
                game: 2,
                ply: 17,
                fen: "8/8/8/8/8/8/8/K6k w - - 0 60".into(),
                used_ms: [1000, 2000],
            }),
            Entry::Saved { game: 3 },
            Entry::Note("resumed after 12 s".into()),
        ] {
            round_trip(&e);
        }
    }

    #[test]
    fn an_epoch_without_an_offset_is_utc() {
        assert_eq!(
            Entry::parse("epoch 5 1700000000000"),
            Ok(Entry::Epoch(WallClock {
                at: 5,
                unix_ms: 1_700_000_000_000,
                utc_offset_min: 0,
            }))
        );
    }

    #[test]
    fn bad_payloads_say_what_is_wrong() {
        for (p, want) in [
            ("", "empty field"),
            ("nonsense 1", "unknown kind of line \"nonsense\""),
            ("in 12", "the kind of input is missing"),
            ("in x timer", "the time \"x\" is not a number"),
            ("in -1 timer", "is not a number"),
            ("in 1 sent C 4", "unknown client \"C\""),
            ("in 1 timer extra", "unexpected \"extra\""),
            ("in 1  timer", "empty field"),
            ("in 99999999999999999999999 timer", "not a number in range"),
            ("in 1 cmd adjudicate 2-0", "unknown verdict"),
            (
                "epoch 0 1700000000000 +60",
                "UTC offset \"+60\" is not minutes",
            ),
            (
                "epoch 0 1700000000000 1441",
                "is not minutes from -1440 to 1440",
            ),
            ("epoch 0 1700000000000 -", "is not minutes"),
            ("epoch 0 1700000000000 60 1", "unexpected \"1\""),
            ("in 1 line A 5 \\xff", "not UTF-8"),
            (
                "in 1 line A 5 x 3",
                "microseconds from its first read to its line end is missing",
            ),
            ("in 1 line A 5 x y 3", "first read \"y\" is not a number"),
            ("in 1 line A 5 x 3 4 5", "unexpected \"5\""),
        ] {
            let e = Entry::parse(p).unwrap_err().to_string();
            assert!(e.contains(want), "{p:?}: {e}");
        }
        assert_eq!(
            Entry::parse("in 1 sent C 4"),
            Err(LineError::UnknownClient("C".into()))
        );
        assert_eq!(
            Entry::parse("in 1 line A 5 x y 3"),
            Err(LineError::NotANumber {
                what: "the bytes of the line's first read".into(),
                word: "y".into()
            })
        );
    }

    #[test]
    fn a_line_of_an_old_journal_reads_without_its_arrival() {
        // Written before arrivals were recorded: the credit is then the
        // line's full wire time, as it was when the journal was written.
        let old = Entry::parse("in 7 line B 12 refreq\\x20sign_on;").unwrap();
        let new = Entry::parse("in 7 line B 12 refreq\\x20sign_on; 12 0").unwrap();
        let line = |arrival| Entry::Input {
            at: 7,
            input: Input::Line {
                from: ClientId::B,
                text: "refreq sign_on;".into(),
                wire_bytes: 12,
                arrival,
            },
        };
        assert_eq!(old, line(None));
        assert_eq!(
            new,
            line(Some(Arrival {
                first_bytes: 12,
                span_us: 0
            }))
        );
        assert_eq!(new.payload(), "in 7 line B 12 refreq\\x20sign_on; 12 0");
    }

    proptest! {
        #[test]
        fn any_text_round_trips(text in "\\PC*|[ \\\\x-]*", reason in ".*") {
            let e = Entry::Input {
                at: 5,
                input: Input::Line { from: ClientId::A, text, wire_bytes: 3, arrival: None },
            };
            round_trip(&e);
            round_trip(&Entry::Note(reason));
        }

        #[test]
        fn parse_never_panics(s in "\\PC*") {
            let _ = Entry::parse(&s);
        }
    }
}
