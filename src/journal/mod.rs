//! The journal: every input to the referee core with its time, appended and
//! synced to disk before the outputs it caused are carried out, so that a
//! referee that crashed can be rebuilt exactly (`argus resume`) and a match
//! can be followed elsewhere (`argus watch`). The format is plain text, one
//! line per entry, each with a chained CRC-32; docs/journal.md describes it.
//!
//! * [`format`]: the entries and their text form;
//! * [`checksum`]: the per-line check;
//! * [`kind`]: a match's journal or a tournament's, by its first word;
//! * [`header`]: settings and ports in the header;
//! * [`writer`]: appending, syncing, locking;
//! * [`reader`]: checking lines, torn and damaged lines;
//! * [`replay`]: rebuilding the core and verifying checkpoints;
//! * [`follow`]: the one journal follower (lines in, what they changed
//!   out), for resume, watch and a watcher's copy, of a match's journal
//!   ([`MatchJournal`]) or a tournament's;
//! * [`feed`]: the journal over TCP.

pub mod checksum;
pub mod feed;
pub mod follow;
pub mod format;
pub mod header;
pub mod kind;
pub mod reader;
pub mod replay;
pub mod writer;

#[cfg(test)]
mod tests;

pub use format::{Checkpoint, Entry};
pub use header::{Header, OutputSettings, new_session_id};
pub use reader::{Decoded, Decoder, JournalError, Problem, Torn};
pub use replay::Replay;
pub use writer::JournalWriter;

use std::path::Path;

use crate::referee::{Event, Output};

/// A match's journal, as [`follow::Follower`] replays it: into the referee
/// core, through [`Replay`] (its checkpoints verified, its unsaved games
/// kept).
#[derive(Debug)]
pub struct MatchJournal;

impl follow::Journal for MatchJournal {
    type Header = Header;
    type Entry = Entry;
    type Replay = Replay;
    type Output = Output;
    type Decoder = Decoder;
    const WHAT: &'static str = "journal";
    type StartError = std::convert::Infallible;

    fn start(header: &Header) -> Result<Replay, std::convert::Infallible> {
        Ok(Replay::new(header))
    }

    fn apply(replay: &mut Replay, line: usize, entry: Entry) -> Result<Vec<Output>, JournalError> {
        replay.apply(line, entry)
    }
}

/// A match's journal followed line by line.
pub type MatchFollower = follow::Follower<MatchJournal>;

/// What a match's journal holds, read and replayed in full: the core
/// rebuilt from every input (`replay`), checkpoints verified.
pub type Loaded = follow::Loaded<MatchJournal>;

/// Reads and replays a whole journal file. The error names the file and,
/// for a bad line, its number.
pub fn load(path: &Path) -> Result<Loaded, follow::LoadError> {
    load_seeing(path, &mut |_| {})
}

/// [`load`], showing `seen` every event the replayed core emits (what
/// happened before the stop, for a tournament board's tallies).
pub fn load_seeing(path: &Path, seen: &mut dyn FnMut(&Event)) -> Result<Loaded, follow::LoadError> {
    follow::load::<MatchJournal>(path, &mut |o| {
        if let Some(event) = o.event() {
            seen(event);
        }
    })
}
