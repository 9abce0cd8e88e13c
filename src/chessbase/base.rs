//! A whole base: the games of a CBF file through its CBI index, one record
//! in memory at a time. Works on any `Read + Seek` (a file, or bytes in a
//! `Cursor` in tests); opening files is the caller's business.

use std::fmt;
use std::io::{Read, Seek, SeekFrom};

use super::index::{ENTRY, entry_offset, game_count};
use super::record::{HEADER_LEN, decode_record, record_len};
use super::{CbFault, CbGame};

/// A game that could not be read: its number, the file and byte where the
/// problem is, and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseError {
    /// The game's number (1-based).
    pub game: u32,
    /// `"CBI"` or `"CBF"`.
    pub file: &'static str,
    /// Byte offset in that file.
    pub offset: u64,
    /// What was wrong.
    pub problem: Problem,
}

/// What was wrong with a game of a base.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// The index is shorter than the count it starts with: no game from
    /// this one on has an entry.
    #[error("the index ends before this entry")]
    IndexEnds,
    /// The game's index entry is not an offset into the CBF.
    #[error("entry {0} is not an offset")]
    NotAnOffset(u32),
    /// The game's index entry points past the CBF's end.
    #[error("the index points outside the CBF (offset {offset}, the CBF has {cbf_len} bytes)")]
    OutsideCbf { offset: u64, cbf_len: u64 },
    /// The CBF could not be read there.
    #[error("cannot read: {0}")]
    Read(String),
    /// The record there is bad (what the decoder found).
    #[error("{0}")]
    Record(CbFault),
}

impl fmt::Display for BaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}: {} byte {}: {}",
            self.game, self.file, self.offset, self.problem
        )
    }
}

/// An index too short to hold even its count of games.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the index has {0} bytes, not even a count")]
pub struct NoCount(pub usize);

/// The games of a base in index order: `(number, game or error)`. A bad
/// game does not stop the others.
pub struct BaseReader<R> {
    cbi: Vec<u8>,
    cbf: R,
    cbf_len: u64,
    count: u32,
    next: u32,
}

impl<R: Read + Seek> BaseReader<R> {
    /// A reader over the index bytes `cbi` and the games file `cbf` of
    /// `cbf_len` bytes. Fails when the index has not even its count.
    pub fn new(cbi: Vec<u8>, cbf: R, cbf_len: u64) -> Result<Self, NoCount> {
        let first: [u8; ENTRY] = cbi
            .get(..ENTRY)
            .and_then(|b| b.try_into().ok())
            .ok_or(NoCount(cbi.len()))?;
        Ok(BaseReader {
            count: game_count(first),
            cbi,
            cbf,
            cbf_len,
            next: 1,
        })
    }

    /// The number of games the index announces.
    pub fn announced(&self) -> u32 {
        self.count
    }

    /// What the index's last entry (the first free offset) says against
    /// the CBF's length, when they differ: the message for a check to
    /// report. `None` when they agree or the entry is missing or bad (the
    /// games' own errors say so).
    pub fn end_mismatch(&self) -> Option<String> {
        let n = self.count.checked_add(1)?;
        let at = n as usize * ENTRY;
        let entry: [u8; ENTRY] = self.cbi.get(at..at + ENTRY)?.try_into().ok()?;
        let end = u64::from(entry_offset(entry, n)?);
        (end != self.cbf_len).then(|| {
            format!(
                "CBI byte {at}: the index ends the games at byte {end}, the CBF has {} bytes",
                self.cbf_len
            )
        })
    }

    fn read(&mut self, n: u32) -> Result<CbGame, BaseError> {
        let at = n as usize * ENTRY;
        let err = |file, offset, problem| BaseError {
            game: n,
            file,
            offset,
            problem,
        };
        let entry: [u8; ENTRY] = self
            .cbi
            .get(at..at + ENTRY)
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| err("CBI", at as u64, Problem::IndexEnds))?;
        let offset = entry_offset(entry, n).ok_or_else(|| {
            err(
                "CBI",
                at as u64,
                Problem::NotAnOffset(u32::from_be_bytes(entry)),
            )
        })?;
        let offset = u64::from(offset);
        if offset >= self.cbf_len {
            return Err(err(
                "CBI",
                at as u64,
                Problem::OutsideCbf {
                    offset,
                    cbf_len: self.cbf_len,
                },
            ));
        }
        let io = |e: std::io::Error| err("CBF", offset, Problem::Read(e.to_string()));
        self.cbf.seek(SeekFrom::Start(offset)).map_err(io)?;
        let mut head = [0u8; HEADER_LEN];
        let have = (self.cbf_len - offset).min(HEADER_LEN as u64) as usize;
        self.cbf.read_exact(&mut head[..have]).map_err(io)?;
        let len = if have < HEADER_LEN {
            have
        } else {
            let len = record_len(&head)
                .map_err(|e| err("CBF", offset + e.offset as u64, Problem::Record(e.fault)))?;
            len.min((self.cbf_len - offset) as usize)
        };
        let mut bytes = head[..have].to_vec();
        bytes.resize(len, 0);
        self.cbf.read_exact(&mut bytes[have..]).map_err(io)?;
        decode_record(&bytes)
            .map_err(|e| err("CBF", offset + e.offset as u64, Problem::Record(e.fault)))
    }
}

impl<R: Read + Seek> Iterator for BaseReader<R> {
    type Item = (u32, Result<CbGame, BaseError>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.next > self.count {
            return None;
        }
        let n = self.next;
        let r = self.read(n);
        // A truncated index ends the reading with one error, not one per
        // announced game.
        self.next = match &r {
            Err(BaseError {
                problem: Problem::IndexEnds,
                ..
            }) => u32::MAX,
            _ => n + 1,
        };
        Some((n, r))
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;
    use crate::chessbase::index::encode_index;
    use crate::chessbase::record::encode_record;

    fn base(games: &[CbGame]) -> (Vec<u8>, Vec<u8>) {
        let mut cbf = Vec::new();
        let mut offsets = Vec::new();
        for g in games {
            offsets.push(cbf.len() as u32);
            cbf.extend(encode_record(g).unwrap());
        }
        let cbi = encode_index(&offsets, cbf.len() as u32);
        (cbi, cbf)
    }

    fn read(cbi: Vec<u8>, cbf: Vec<u8>) -> Vec<(u32, Result<CbGame, BaseError>)> {
        let len = cbf.len() as u64;
        BaseReader::new(cbi, Cursor::new(cbf), len)
            .unwrap()
            .collect()
    }

    fn game(white: &str) -> CbGame {
        CbGame {
            white: white.into(),
            ..CbGame::default()
        }
    }

    #[test]
    fn games_come_in_index_order_and_bad_ones_do_not_stop_the_rest() {
        let (mut cbi, mut cbf) = base(&[game("A"), game("B"), game("C")]);
        let all = read(cbi.clone(), cbf.clone());
        let names: Vec<_> = all.iter().map(|(_, g)| g.clone().unwrap().white).collect();
        assert_eq!(names, ["A", "B", "C"]);
        // Game 2 points past the end; game 3's record is cut short.
        cbi[8..12].copy_from_slice(&5000u32.to_be_bytes());
        let cut = cbf.len() - 3;
        cbf.truncate(cut);
        let all = read(cbi, cbf);
        assert!(all[0].1.is_ok());
        let e2 = all[1].1.clone().unwrap_err();
        assert_eq!((e2.game, e2.file, e2.offset), (2, "CBI", 8));
        assert!(e2.to_string().contains("outside the CBF"), "{e2}");
        let e3 = all[2].1.clone().unwrap_err();
        assert_eq!((e3.game, e3.file), (3, "CBF"));
        assert!(
            matches!(
                &e3.problem,
                Problem::Record(CbFault::TruncatedHeader { .. } | CbFault::TruncatedRecord { .. })
            ),
            "{e3}"
        );
    }

    #[test]
    fn an_end_entry_that_disagrees_with_the_cbf_is_told() {
        let (cbi, mut cbf) = base(&[game("A")]);
        let len = cbf.len() as u64;
        let r = BaseReader::new(cbi.clone(), Cursor::new(cbf.clone()), len).unwrap();
        assert_eq!(r.end_mismatch(), None);
        cbf.extend_from_slice(b"tail");
        let r = BaseReader::new(cbi, Cursor::new(cbf), len + 4).unwrap();
        let m = r.end_mismatch().unwrap();
        assert_eq!(
            m,
            format!(
                "CBI byte 8: the index ends the games at byte {len}, the CBF has {} bytes",
                len + 4
            )
        );
    }

    #[test]
    fn a_truncated_index_gives_one_error() {
        let (mut cbi, cbf) = base(&[game("A"), game("B")]);
        cbi[..4].copy_from_slice(&1_000_000u32.to_be_bytes());
        let all = read(cbi, cbf);
        assert_eq!(all.len(), 4);
        let e = all[3].1.as_ref().unwrap_err();
        assert_eq!(e.problem, Problem::IndexEnds);
        assert!(e.to_string().contains("ends before"), "{e}");
        assert_eq!(
            BaseReader::new(vec![0, 0], Cursor::new(vec![]), 0)
                .err()
                .map(|e| e.to_string()),
            Some("the index has 2 bytes, not even a count".into())
        );
    }
}
