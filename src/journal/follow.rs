//! The one journal follower: a journal's lines go in one at a time, in
//! order, and each gives back what it changed (the outputs of the core it
//! was replayed into). `argus resume` loads a journal through it, `argus
//! watch` follows a match's journal, a tournament's and its games' through
//! it, and a watcher's copy of a feed is read back through it.
//!
//! It is generic over the kind of journal ([`Journal`]): a match's journal
//! and a tournament's have different lines, headers and cores, but the
//! same framing (`reader::LineChain`) and the same way of being followed
//! (the header starts the core, every line after it is applied to it in
//! order, a bad line is held back until it is known to be the last). So
//! the framing and the following have one home here, and each kind says
//! only how its core starts and takes a line: [`crate::journal::MatchJournal`]
//! (the referee core, through [`crate::journal::Replay`]) and
//! `tournament::journal::TournamentJournal` (the tournament core).
//!
//! Sans-IO: it reads no file and no clock; [`load_from`] reads a whole
//! journal from any reader through it.

use std::io::Read;

use crate::journal::reader::{self, Decoded, JournalError, LineChain, LineDecoder, Problem, Torn};

/// A kind of journal, as the follower replays it.
pub trait Journal {
    /// What the journal's header says.
    type Header;
    /// A line after the header.
    type Entry;
    /// The core rebuilt from the journal, with what its replay keeps.
    type Replay;
    /// What the core gives for a line.
    type Output;
    /// Checks the journal's lines and turns them into what they say.
    type Decoder: LineDecoder<Item = Decoded<Self::Header, Self::Entry>> + Default;
    /// What the journal is called in messages (`journal`, `tournament
    /// journal`).
    const WHAT: &'static str;

    /// Why a header's core cannot start (`Infallible` when it always
    /// can).
    type StartError: std::error::Error + Send + Sync + 'static;

    /// The core the header describes, before any line after it.
    fn start(header: &Self::Header) -> Result<Self::Replay, Self::StartError>;

    /// Applies line number `line` to the core: what the core gave.
    fn apply(
        replay: &mut Self::Replay,
        line: usize,
        entry: Self::Entry,
    ) -> Result<Vec<Self::Output>, JournalError>;
}

/// What a line changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Followed<O> {
    /// A bad line, held back until it is known whether it is the last (a
    /// torn line a writer is still writing): not (yet) part of the journal.
    Held,
    /// A line of the header.
    HeaderLine,
    /// The header is complete ([`Follower::header`]), its core started
    /// ([`Follower::replay`]).
    Started,
    /// A line after the header, and what the core gave for it.
    Applied(Vec<O>),
}

impl<O> Followed<O> {
    /// Whether the line is part of the journal (a copy keeps it).
    pub fn is_good(&self) -> bool {
        !matches!(self, Followed::Held)
    }
}

/// A journal followed line by line into its core.
pub struct Follower<J: Journal> {
    decoder: J::Decoder,
    header: Option<J::Header>,
    replay: Option<J::Replay>,
}

impl<J: Journal> Default for Follower<J> {
    fn default() -> Self {
        Follower {
            decoder: J::Decoder::default(),
            header: None,
            replay: None,
        }
    }
}

impl<J: Journal> std::fmt::Debug for Follower<J> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Follower")
            .field("kind", &J::WHAT)
            .field("lines", &self.lines())
            .field("started", &self.replay.is_some())
            .finish()
    }
}

impl<J: Journal> Follower<J> {
    /// A follower for a journal's first line.
    pub fn new() -> Self {
        Follower::default()
    }

    /// Takes one line, without its `\n`: what it changed. An error (a
    /// damaged line, one the core cannot take) says the line's number.
    pub fn push(&mut self, line: &[u8]) -> Result<Followed<J::Output>, JournalError> {
        let decoded = self.decode(line)?;
        self.take(decoded)
    }

    /// The first half of [`Follower::push`], for a caller that looks at
    /// what a line says before it is applied: the line checked and read.
    pub fn decode(&mut self, line: &[u8]) -> Result<Decoded<J::Header, J::Entry>, JournalError> {
        self.decoder.push(line)
    }

    /// The second half of [`Follower::push`]: applies what the line just
    /// decoded said.
    pub fn take(
        &mut self,
        decoded: Decoded<J::Header, J::Entry>,
    ) -> Result<Followed<J::Output>, JournalError> {
        let number = self.decoder.lines();
        match decoded {
            Decoded::Held => Ok(Followed::Held),
            Decoded::HeaderLine => Ok(Followed::HeaderLine),
            Decoded::Header(h) => {
                let replay = J::start(&h)
                    .map_err(|e| JournalError::new(number, Problem::Start(e.into())))?;
                self.replay = Some(replay);
                self.header = Some(*h);
                Ok(Followed::Started)
            }
            Decoded::Entry(e) => {
                let Some(replay) = self.replay.as_mut() else {
                    return Err(JournalError::new(number, Problem::EntryBeforeHeader));
                };
                J::apply(replay, number, e).map(Followed::Applied)
            }
        }
    }

    /// The journal's header, once it is complete.
    pub fn header(&self) -> Option<&J::Header> {
        self.header.as_ref()
    }

    /// The core as the lines so far left it (from the end of the header).
    pub fn replay(&self) -> Option<&J::Replay> {
        self.replay.as_ref()
    }

    /// Good lines so far.
    pub fn lines(&self) -> usize {
        self.decoder.lines()
    }

    /// Bytes of the good lines so far, line ends included.
    pub fn offset(&self) -> u64 {
        self.decoder.framing().offset()
    }

    /// The check of the last good line (to append after it).
    pub fn chain(&self) -> u32 {
        self.decoder.framing().chain()
    }

    /// Forgets a bad line held back (the file was cut before it, or the
    /// caller knows it was the last).
    pub fn drop_held(&mut self) {
        self.decoder.framing_mut().drop_held();
    }

    /// What the journal holds, once [`LineDecoder::finish`] has found its
    /// end (`torn`: its torn last line, if any).
    pub fn into_loaded(self, torn: Option<Torn>) -> Result<Loaded<J>, JournalError> {
        let (lines, valid_len, chain) = (self.lines(), self.offset(), self.chain());
        let (Some(header), Some(replay)) = (self.header, self.replay) else {
            return Err(JournalError::new(0, Problem::NoHeader));
        };
        Ok(Loaded {
            header,
            replay,
            torn,
            lines,
            valid_len,
            chain,
        })
    }
}

impl<J: Journal> LineDecoder for Follower<J> {
    type Item = Followed<J::Output>;
    fn push(&mut self, line: &[u8]) -> Result<Followed<J::Output>, JournalError> {
        Follower::push(self, line)
    }
    /// The end of the journal: `tail` is what follows the last line end.
    /// Its torn last line, if any; a journal that ends inside its header
    /// is refused.
    fn finish(&mut self, tail: &[u8]) -> Result<Option<Torn>, JournalError> {
        self.decoder.finish(tail)
    }
    fn framing(&self) -> &LineChain {
        self.decoder.framing()
    }
    fn framing_mut(&mut self) -> &mut LineChain {
        self.decoder.framing_mut()
    }
}

/// What a journal holds, read and replayed in full.
#[derive(Debug)]
pub struct Loaded<J: Journal> {
    pub header: J::Header,
    /// The core rebuilt from every line.
    pub replay: J::Replay,
    /// A torn last line that was ignored.
    pub torn: Option<Torn>,
    /// Good lines.
    pub lines: usize,
    /// Bytes of the good lines (a torn line starts here).
    pub valid_len: u64,
    /// The check of the last good line.
    pub chain: u32,
}

/// Reads the whole journal `input` (`name` for errors) through a
/// follower, handing `each` every output of its core; memory stays bounded
/// by the longest line whatever the input. The error names the journal
/// and, for a bad line, its number.
pub fn load_from<J: Journal>(
    input: impl Read,
    name: &str,
    each: &mut dyn FnMut(J::Output),
) -> Result<Loaded<J>, LoadError> {
    let mut follower = Follower::<J>::new();
    reader::read_all(input, &mut follower, |_, followed| {
        if let Followed::Applied(outs) = followed {
            outs.into_iter().for_each(&mut *each);
        }
        Ok(())
    })
    .and_then(|torn| follower.into_loaded(torn))
    .map_err(|error| LoadError::Bad {
        what: J::WHAT,
        name: name.to_string(),
        error,
    })
}

/// Why a journal could not be loaded: which journal (its kind's word and
/// its name), and whether it could not be opened or what is wrong in it
/// (the line and why).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot open the {what} {}: {error}", path.display())]
    Open {
        what: &'static str,
        path: std::path::PathBuf,
        error: std::io::Error,
    },
    #[error("{what} {name}: {error}")]
    Bad {
        what: &'static str,
        name: String,
        error: JournalError,
    },
}

error_words!(LoadError);

/// Reads the journal file at `path` (see [`load_from`]).
pub fn load<J: Journal>(
    path: &std::path::Path,
    each: &mut dyn FnMut(J::Output),
) -> Result<Loaded<J>, LoadError> {
    let f = std::fs::File::open(path).map_err(|error| LoadError::Open {
        what: J::WHAT,
        path: path.to_path_buf(),
        error,
    })?;
    load_from(f, &path.display().to_string(), each)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::checksum::checked_lines as checked;
    use crate::journal::{Entry, Header, MatchFollower, MatchJournal, OutputSettings, Replay};
    use crate::link::PortSettings;
    use crate::referee::{ClientId, Input, Output, Referee, Settings};

    const INITIAL: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

    fn header() -> Header {
        Header {
            session: "f011011ef011011e".into(),
            settings: Settings {
                reset_delay_ms: 20,
                ..Settings::default()
            },
            port: PortSettings::default(),
            output: OutputSettings::default(),
        }
    }

    fn sign_on(from: ClientId) -> Input {
        let text = format!("{INITIAL} refreq sign_on;");
        Input::Line {
            from,
            wire_bytes: text.len() + 2,
            text,
            arrival: None,
        }
    }

    /// The inputs of a match's start: both sign on, the reset delay
    /// passes.
    fn inputs() -> Vec<(u64, Input)> {
        vec![
            (5, sign_on(ClientId::A)),
            (7, sign_on(ClientId::B)),
            (27, Input::Timer),
        ]
    }

    /// The header's payloads, then an input line for each of `inputs`,
    /// a checkpoint after the last, a note and a saved mark.
    fn payloads() -> Vec<String> {
        let mut core = Referee::new(header().settings);
        let mut p: Vec<String> = header().entries().iter().map(Entry::payload).collect();
        for (at, input) in inputs() {
            core.handle(input.clone(), at);
            p.push(Entry::Input { at, input }.payload());
        }
        p.push(Entry::Check(Replay::checkpoint(&core, 27)).payload());
        p.push(Entry::Note("a note".into()).payload());
        p.push(Entry::Saved { game: 1 }.payload());
        p
    }

    /// What a line changed, as text (the core's outputs are not `Eq`).
    fn said(f: Result<Followed<Output>, JournalError>) -> String {
        match f {
            Ok(Followed::Applied(outs)) => format!("{outs:?}"),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn a_match_journal_s_lines_start_the_core_then_give_what_it_gave() {
        let header_lines = header().entries().len();
        let lines = checked(&payloads());
        let mut f = MatchFollower::new();
        for line in &lines[..header_lines - 1] {
            assert_eq!(said(f.push(line)), "Ok(HeaderLine)");
            assert!(f.replay().is_none() && f.header().is_none());
        }
        assert_eq!(said(f.push(&lines[header_lines - 1])), "Ok(Started)");
        assert_eq!(
            f.header().map(|h| h.session.as_str()),
            Some("f011011ef011011e")
        );
        assert_eq!(f.replay().map(Replay::inputs), Some(0));
        // Each input: what a core fed the same inputs gives for it.
        let mut core = Referee::new(header().settings);
        for (k, (at, input)) in inputs().into_iter().enumerate() {
            let want = core.handle(input, at);
            assert!(!want.is_empty(), "input {k}");
            assert_eq!(
                said(f.push(&lines[header_lines + k])),
                format!("{want:?}"),
                "input {k}"
            );
            assert_eq!(f.replay().map(Replay::last_at), Some(at));
        }
        // The checkpoint is verified; it, the note and the mark give nothing.
        for line in &lines[header_lines + 3..] {
            assert_eq!(said(f.push(line)), "[]");
        }
        let r = f.replay().unwrap();
        assert_eq!((r.inputs(), r.checks()), (3, 1));
        assert_eq!(f.lines(), lines.len());
        let bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
        assert_eq!(f.offset(), bytes as u64);
    }

    #[test]
    fn a_bad_line_is_held_until_a_line_follows_it_then_refused_with_its_number() {
        let lines = checked(&payloads());
        let mut f = MatchFollower::new();
        for line in &lines[..10] {
            assert!(f.push(line).unwrap().is_good());
        }
        let (chain, offset) = (f.chain(), f.offset());
        let mut torn = lines[10].clone();
        torn.truncate(torn.len() / 2);
        let held = f.push(&torn).unwrap();
        assert!(!held.is_good(), "{held:?}");
        assert_eq!((f.lines(), f.chain(), f.offset()), (10, chain, offset));
        // Dropped (the file was cut before it): the whole line goes on.
        f.drop_held();
        assert!(f.push(&lines[10]).unwrap().is_good());
        // Held, then another line: the journal is damaged at line 12.
        assert!(!f.push(b"damaged 00000000").unwrap().is_good());
        let e = f.push(&lines[11]).unwrap_err();
        assert_eq!(e.line, 12, "{e}");
        assert!(matches!(e.problem, Problem::Damaged(_)), "{e}");
        assert!(e.to_string().contains("the journal is damaged"), "{e}");
    }

    #[test]
    fn a_line_the_core_refuses_is_an_error_with_its_number() {
        let mut p = payloads();
        let header_lines = header().entries().len();
        // An input earlier than the one before it.
        p.insert(
            header_lines + 1,
            Entry::Input {
                at: 1,
                input: Input::Timer,
            }
            .payload(),
        );
        let mut f = MatchFollower::new();
        let got: Vec<_> = checked(&p).iter().map(|l| f.push(l)).collect();
        let e = got.into_iter().find_map(Result::err).expect("an error");
        assert_eq!(e.line, header_lines + 2, "{e}");
        assert!(
            matches!(e.problem, Problem::TimeBackwards { at: 1, previous: _ }),
            "{e}"
        );
    }

    #[test]
    fn a_whole_journal_loads_through_the_follower_with_its_torn_end() {
        let lines = checked(&payloads());
        let mut text: Vec<u8> = lines
            .iter()
            .flat_map(|l| [&l[..], b"\n"].concat())
            .collect();
        let valid = text.len() as u64;
        text.extend_from_slice(b"in 30 tim");
        let mut seen = Vec::new();
        let loaded = load_from::<MatchJournal>(&text[..], "j", &mut |o| seen.push(o)).unwrap();
        let mut f = MatchFollower::new();
        let mut want = Vec::new();
        for line in &lines {
            if let Ok(Followed::Applied(outs)) = f.push(line) {
                want.extend(outs);
            }
        }
        assert_eq!(format!("{seen:?}"), format!("{want:?}"));
        assert!(!seen.is_empty());
        assert_eq!(loaded.header.session, "f011011ef011011e");
        assert_eq!(loaded.replay.inputs(), 3);
        assert_eq!(
            (loaded.lines, loaded.valid_len, loaded.chain),
            (lines.len(), valid, f.chain())
        );
        assert_eq!(loaded.torn.map(|t| t.offset), Some(valid));
        // A journal that ends inside its header is refused, by its name.
        let e = load_from::<MatchJournal>(&text[..50], "j", &mut |_| {}).unwrap_err();
        assert!(
            matches!(&e, LoadError::Bad { what: "journal", name, .. } if name == "j"),
            "{e:?}"
        );
        assert!(e.to_string().starts_with("journal j: "), "{e}");
    }
}
