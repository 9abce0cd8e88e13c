//! The tournament's journal: its settings and players, then every input
//! to the tournament core with its time, each line with the chained check
//! of the match journal (`crate::journal`: the same framing, reader and
//! writer), so that a killed tournament is rebuilt exactly by replaying
//! it. docs/tournament.md describes the lines.
//!
//! ```text
//! argus-tournament 1 WRITER
//! set event TEXT | set schedule round-robin|gauntlet | set cycles N
//! set games-per-pairing N | set boards N|auto | set absence wait|forfeit MS
//! set openings N SEED|- | set rounds N | set ratings R...
//! player NAME SPEC                      (one per player, in seed order)
//! set directory DIR | set command ARG...   (where and how it was started)
//! begin
//! epoch AT UNIX_MS                      (journal time AT was this wall-clock time)
//! in AT on P | in AT lost P REASON | in AT free BOARD | in AT timer | in AT resumed
//! in AT paired ROUND W-B ... [bye P U|H|Z ...] | in AT unpairable ROUND REASON
//! in AT result GAME RESULT TERMINATION  W_MOVES W_USED W_LEFT W_FAULTS W_RESTARTS  B_...  [ENDING]
//! note TEXT
//! ```

pub mod header;
pub mod line;

use std::io;
use std::path::Path;

use crate::journal::follow;
use crate::journal::reader::{self, JournalError, LineChain, LineDecoder, Problem, Torn};
use crate::journal::writer::JournalWriter;
use crate::tournament::core::Tournament;
use crate::tournament::messages::{Input, Output};

pub use header::Header;
use header::HeaderBuilder;
pub use line::{Line, MAGIC, VERSION};

/// What a tournament journal line gave.
pub type Decoded = reader::Decoded<Header, Line>;

/// Checks tournament journal lines in order and turns them into lines.
#[derive(Debug, Default)]
pub struct Decoder {
    framing: LineChain,
    header: Option<HeaderBuilder>,
    header_done: bool,
}

impl LineDecoder for Decoder {
    type Item = Decoded;

    fn push(&mut self, line: &[u8]) -> Result<Decoded, JournalError> {
        let number = self.framing.lines() + 1;
        let Some(payload) = self.framing.push(line)? else {
            return Ok(Decoded::Held);
        };
        let err = |p: Problem| JournalError::new(number, p);
        let line = Line::parse(payload).map_err(|e| err(Problem::Line(e.into())))?;
        if self.header_done {
            return match line {
                Line::Epoch { .. } | Line::Input { .. } | Line::Note(_) => Ok(Decoded::Entry(line)),
                _ => Err(err(Problem::HeaderAgain)),
            };
        }
        let builder = self.header.get_or_insert_with(HeaderBuilder::default);
        match builder
            .push(line)
            .map_err(|e| err(Problem::Header(e.into())))?
        {
            Some(h) => {
                self.header_done = true;
                Ok(Decoded::Header(Box::new(h)))
            }
            None => Ok(Decoded::HeaderLine),
        }
    }

    fn finish(&mut self, tail: &[u8]) -> Result<Option<Torn>, JournalError> {
        let torn = self.framing.finish(tail)?;
        if !self.header_done {
            return Err(reader::unfinished_header(torn, self.framing.lines()));
        }
        Ok(torn)
    }

    fn framing(&self) -> &LineChain {
        &self.framing
    }

    fn framing_mut(&mut self) -> &mut LineChain {
        &mut self.framing
    }
}

/// A tournament's journal, as [`follow::Follower`] replays it: into the
/// tournament core.
#[derive(Debug)]
pub struct TournamentJournal;

/// The tournament core rebuilt from a journal, and the journal time of its
/// last input or epoch.
#[derive(Debug, Clone)]
pub struct Replay {
    pub tournament: Tournament,
    pub last_at: u64,
    /// The wall-clock time (ms since 1970) of journal time 0, from the
    /// first `epoch` line.
    pub started_unix_ms: Option<u64>,
}

impl follow::Journal for TournamentJournal {
    type Header = Header;
    type Entry = Line;
    type Replay = Replay;
    type Output = Output;
    type Decoder = Decoder;
    const WHAT: &'static str = "tournament journal";
    type StartError = crate::tournament::core::EventError;

    fn start(header: &Header) -> Result<Replay, crate::tournament::core::EventError> {
        Ok(Replay {
            tournament: Tournament::new(header.settings.clone())?,
            last_at: 0,
            started_unix_ms: None,
        })
    }

    fn apply(replay: &mut Replay, _line: usize, line: Line) -> Result<Vec<Output>, JournalError> {
        match line {
            Line::Input { at, input } => {
                replay.last_at = replay.last_at.max(at);
                Ok(replay.tournament.handle(input, at))
            }
            Line::Epoch { at, unix_ms } => {
                replay.last_at = replay.last_at.max(at);
                if replay.started_unix_ms.is_none() {
                    replay.started_unix_ms = Some(unix_ms.saturating_sub(at));
                }
                Ok(Vec::new())
            }
            _ => Ok(Vec::new()),
        }
    }
}

/// A tournament's journal followed line by line.
pub type TournamentFollower = follow::Follower<TournamentJournal>;

/// A tournament journal read and replayed in full.
#[derive(Debug)]
pub struct Loaded {
    pub header: Header,
    /// The tournament rebuilt from every input.
    pub tournament: Tournament,
    /// The journal time of the last input or epoch (a resume goes on after
    /// it).
    pub last_at: u64,
    /// The wall-clock time (ms since 1970) the tournament started, from
    /// its first `epoch` line.
    pub started_unix_ms: Option<u64>,
    /// A torn last line that was ignored.
    pub torn: Option<Torn>,
    /// Good lines, their bytes, and the last one's check (to append).
    pub lines: usize,
    pub valid_len: u64,
    pub chain: u32,
}

/// Reads and replays a tournament journal from `input` (`name` for
/// errors). Replaying feeds every input to a new [`Tournament`] in order;
/// its outputs were carried out before the kill and are dropped.
pub fn load_from(input: impl io::Read, name: &str) -> Result<Loaded, follow::LoadError> {
    follow::load_from::<TournamentJournal>(input, name, &mut |_| {}).map(Loaded::from)
}

/// Reads and replays the tournament journal at `path`.
pub fn load(path: &Path) -> Result<Loaded, follow::LoadError> {
    follow::load::<TournamentJournal>(path, &mut |_| {}).map(Loaded::from)
}

impl From<follow::Loaded<TournamentJournal>> for Loaded {
    fn from(l: follow::Loaded<TournamentJournal>) -> Loaded {
        Loaded {
            header: l.header,
            tournament: l.replay.tournament,
            last_at: l.replay.last_at,
            started_unix_ms: l.replay.started_unix_ms,
            torn: l.torn,
            lines: l.lines,
            valid_len: l.valid_len,
            chain: l.chain,
        }
    }
}

/// An open tournament journal: the match journal's writer with
/// tournament lines.
#[derive(Debug)]
pub struct TournamentWriter {
    inner: JournalWriter,
}

impl TournamentWriter {
    /// Starts a new journal at `path` (absent or empty): the header and
    /// `epoch 0 UNIX_MS`, synced.
    pub fn create(path: &Path, header: &Header, unix_ms: u64) -> io::Result<TournamentWriter> {
        let mut payloads: Vec<String> = header.lines().iter().map(Line::payload).collect();
        payloads.push(Line::Epoch { at: 0, unix_ms }.payload());
        Ok(TournamentWriter {
            inner: JournalWriter::create_lines(path, &payloads)?,
        })
    }

    /// Opens the journal `loaded` was read from to go on with it (a torn
    /// last line cut off), and writes `epoch AT UNIX_MS`, synced.
    pub fn resume(
        path: &Path,
        loaded: &Loaded,
        at: u64,
        unix_ms: u64,
    ) -> io::Result<TournamentWriter> {
        let inner = JournalWriter::append(path, loaded.valid_len, loaded.chain, loaded.lines)?;
        let mut w = TournamentWriter { inner };
        w.inner
            .write_payload(&Line::Epoch { at, unix_ms }.payload());
        w.inner.sync()?;
        Ok(w)
    }

    /// Records an input, synced, before its outputs are carried out.
    pub fn input(&mut self, at: u64, input: &Input) -> io::Result<()> {
        let line = Line::Input {
            at,
            input: input.clone(),
        };
        self.inner.write_payload(&line.payload());
        self.inner.sync()
    }

    /// A line for people (in the file at once, not synced).
    pub fn note(&mut self, text: &str) -> io::Result<()> {
        self.inner.write_payload(&Line::Note(text.into()).payload());
        self.inner.flush()
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        self.inner.path()
    }
}
