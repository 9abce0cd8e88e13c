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
//! * [`feed`]: the journal over TCP.

pub mod checksum;
pub mod feed;
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
pub use reader::{Decoded, Decoder, JournalError, Torn};
pub use replay::Replay;
pub use writer::JournalWriter;

use std::path::Path;

/// What a journal file holds, read and replayed in full.
#[derive(Debug)]
pub struct Loaded {
    pub header: Header,
    /// The core rebuilt from every input, checkpoints verified.
    pub replay: Replay,
    /// A torn last line that was ignored.
    pub torn: Option<Torn>,
    /// Good lines.
    pub lines: usize,
    /// Bytes of the good lines (a torn line starts here).
    pub valid_len: u64,
    /// The check of the last good line.
    pub chain: u32,
}

/// Reads and replays a whole journal file. The error names the file and,
/// for a bad line, its number.
pub fn load(path: &Path) -> Result<Loaded, String> {
    load_seeing(path, &mut |_| {})
}

/// [`load`], showing `seen` every event the replayed core emits (what
/// happened before the stop, for a tournament board's tallies).
pub fn load_seeing(
    path: &Path,
    seen: &mut dyn FnMut(&crate::referee::Event),
) -> Result<Loaded, String> {
    let mut decoder = Decoder::new();
    let mut header: Option<Header> = None;
    let mut replay: Option<Replay> = None;
    let torn = reader::read_file(path, &mut decoder, |line, d| {
        match d {
            Decoded::Header(h) => {
                replay = Some(Replay::new(&h));
                header = Some(*h);
            }
            Decoded::Entry(e) => {
                if let Some(r) = replay.as_mut() {
                    for o in r.apply(line, e)? {
                        if let Some(event) = o.event() {
                            seen(event);
                        }
                    }
                }
            }
            Decoded::HeaderLine | Decoded::Held => {}
        }
        Ok(())
    })?;
    let (Some(header), Some(replay)) = (header, replay) else {
        return Err(format!("journal {}: no header", path.display()));
    };
    Ok(Loaded {
        header,
        replay,
        torn,
        lines: decoder.lines(),
        valid_len: decoder.offset(),
        chain: decoder.chain(),
    })
}
