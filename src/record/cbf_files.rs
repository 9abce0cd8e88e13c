//! ChessBase bases on disk: a CBF file and its CBI index side by side
//! (`GAMES.CBF` + `GAMES.CBI`). Opening them for reading, one record in
//! memory at a time ([`crate::chessbase::base::BaseReader`]), and writing
//! one game after another, each file replaced atomically.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::chessbase::base::{BaseReader, NoCount};
use crate::chessbase::index::{ENTRY, encode_index, entry_offset, game_count};
use crate::record::durable::AtomicFile;

/// Largest CBI read (4 bytes a game: 16 million games).
pub const MAX_CBI_BYTES: u64 = 64 << 20;

/// Why a base on disk cannot be read or written: what was wrong and with
/// which file. Nothing of the base is changed by an error (its files are
/// replaced atomically, or appended to only once the index is read).
#[derive(Debug, thiserror::Error)]
pub enum BaseFileError {
    /// A file of the base cannot be opened.
    #[error("cannot open {}: {source}", .path.display())]
    Open { path: PathBuf, source: io::Error },
    /// A file of the base cannot be read.
    #[error("cannot read {}: {source}", .path.display())]
    Read { path: PathBuf, source: io::Error },
    /// The CBF cannot be written (appended to, cut back or synced).
    #[error("cannot write {}: {source}", .path.display())]
    Write { path: PathBuf, source: io::Error },
    /// A file written atomically cannot be (the error names the file).
    #[error(transparent)]
    Replace(#[from] io::Error),
    /// The CBI is larger than any index.
    #[error("{}: {len} bytes is more than an index can be ({MAX_CBI_BYTES})", .path.display())]
    IndexTooBig { path: PathBuf, len: u64 },
    /// The CBI has not even its count of games.
    #[error("{}: {count}", .path.display())]
    NoCount { path: PathBuf, count: NoCount },
    /// The CBI is not an index (what is wrong with it).
    #[error("{}: {what} (not a ChessBase index)", .path.display())]
    NotAnIndex { path: PathBuf, what: String },
    /// One more game would put an offset past what an index holds.
    #[error("{}: the base would pass 4 GiB", .path.display())]
    Full { path: PathBuf },
    /// A CBF without its index: appending would lose its games.
    #[error("{} exists without its index {} (not overwritten)", .cbf.display(), .cbi.display())]
    NoIndex { cbf: PathBuf, cbi: PathBuf },
    /// The CBF is shorter than its index says.
    #[error(
        "{} has {len} bytes, its index {} says {end} (not appended to)",
        .cbf.display(),
        .cbi.display()
    )]
    Shorter {
        cbf: PathBuf,
        cbi: PathBuf,
        len: u64,
        end: u32,
    },
}

/// The file of the base `path` with extension `ext` (`cbf`, `cbi`): the
/// extension replaced, or added when `path` has none, in upper case when
/// `path`'s own extension is upper case (DOS names).
pub fn sibling(path: &Path, ext: &str) -> PathBuf {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("cbf") || e.eq_ignore_ascii_case("cbi") => {
            if e.chars().all(|c| c.is_ascii_uppercase()) {
                path.with_extension(ext.to_ascii_uppercase())
            } else {
                path.with_extension(ext)
            }
        }
        _ => {
            let mut s = path.as_os_str().to_owned();
            s.push(".");
            s.push(ext);
            PathBuf::from(s)
        }
    }
}

/// Opens the base `path` (`BASE`, `BASE.cbi` or `BASE.cbf`) for reading.
pub fn open_base(path: &Path) -> Result<BaseReader<BufReader<File>>, BaseFileError> {
    let cbi_path = sibling(path, "cbi");
    let (cbi_file, cbi_len) = open_sized(&cbi_path)?;
    if cbi_len > MAX_CBI_BYTES {
        return Err(BaseFileError::IndexTooBig {
            path: cbi_path,
            len: cbi_len,
        });
    }
    let mut cbi = Vec::with_capacity(cbi_len as usize);
    if let Err(source) = cbi_file.take(MAX_CBI_BYTES).read_to_end(&mut cbi) {
        return Err(BaseFileError::Read {
            path: cbi_path,
            source,
        });
    }
    let (cbf, cbf_len) = open_sized(&sibling(path, "cbf"))?;
    BaseReader::new(cbi, BufReader::new(cbf), cbf_len).map_err(|count| BaseFileError::NoCount {
        path: cbi_path,
        count,
    })
}

/// The file at `path`, opened for reading, and its length.
pub fn open_sized(path: &Path) -> Result<(File, u64), BaseFileError> {
    let f = File::open(path).map_err(|source| BaseFileError::Open {
        path: path.to_path_buf(),
        source,
    })?;
    let len = f
        .metadata()
        .map_err(|source| BaseFileError::Read {
            path: path.to_path_buf(),
            source,
        })?
        .len();
    Ok((f, len))
}

/// A base being written: records go to a temporary CBF as they come;
/// [`BaseWriter::finish`] puts the CBF in place, then the CBI, each
/// atomically (the CBF first, so that an old index never points past the
/// end of the file beside it).
pub struct BaseWriter {
    cbf: AtomicFile,
    cbf_path: PathBuf,
    cbi_path: PathBuf,
    offsets: Vec<u32>,
    end: u32,
}

impl BaseWriter {
    /// Starts the base `base` (`BASE`, `BASE.cbf` or `BASE.cbi`); nothing
    /// on disk changes before [`BaseWriter::finish`].
    pub fn create(base: &Path) -> Result<Self, BaseFileError> {
        let cbf_path = sibling(base, "cbf");
        let cbi_path = sibling(base, "cbi");
        let cbf = AtomicFile::create(&cbf_path)?;
        Ok(BaseWriter {
            cbf,
            cbf_path,
            cbi_path,
            offsets: Vec::new(),
            end: 0,
        })
    }

    /// Appends one encoded record.
    pub fn push(&mut self, record: &[u8]) -> Result<(), BaseFileError> {
        let end = next_end(self.end, record.len(), self.offsets.len()).ok_or_else(|| {
            BaseFileError::Full {
                path: self.cbf_path.clone(),
            }
        })?;
        self.cbf.write_all(record)?;
        self.offsets.push(self.end);
        self.end = end;
        Ok(())
    }

    /// Games written so far.
    pub fn count(&self) -> usize {
        self.offsets.len()
    }

    /// Puts the CBF in place, then writes the CBI.
    pub fn finish(self) -> Result<(), BaseFileError> {
        self.cbf.commit()?;
        write_index(&self.cbi_path, &self.offsets, self.end)
    }
}

/// Appends one encoded record to the base `base` (created if neither of
/// its files exists), as a match does after every game: the CBF is cut
/// back to the end its index records (a tail an interrupted append left),
/// the record appended and synced, then the CBI replaced atomically. A
/// reader sees the old index or the new one, both whole. Returns the
/// game's number in the base. Refuses a CBF without its index (it is not
/// overwritten) and an index that is not one.
pub fn append_game(base: &Path, record: &[u8]) -> Result<u32, BaseFileError> {
    let cbf_path = sibling(base, "cbf");
    let cbi_path = sibling(base, "cbi");
    let (mut offsets, end) = read_index(&cbi_path, &cbf_path)?;
    if offsets.is_empty() && !cbi_path.exists() {
        // The index first: a crash before the record is whole then leaves
        // an empty base, not a games file without an index.
        write_index(&cbi_path, &[], 0)?;
    }
    let new_end =
        next_end(end, record.len(), offsets.len()).ok_or_else(|| BaseFileError::Full {
            path: cbf_path.clone(),
        })?;
    let io = |source: io::Error| BaseFileError::Write {
        path: cbf_path.clone(),
        source,
    };
    let mut cbf = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(&cbf_path)
        .map_err(io)?;
    let len = cbf.metadata().map_err(io)?.len();
    if len < u64::from(end) {
        return Err(BaseFileError::Shorter {
            cbf: cbf_path.clone(),
            cbi: cbi_path.clone(),
            len,
            end,
        });
    }
    cbf.set_len(u64::from(end)).map_err(io)?;
    cbf.seek(SeekFrom::Start(u64::from(end))).map_err(io)?;
    cbf.write_all(record).map_err(io)?;
    cbf.sync_all().map_err(io)?;
    offsets.push(end);
    write_index(&cbi_path, &offsets, new_end)?;
    Ok(offsets.len() as u32)
}

/// Whether the base's last game is `record` (it was appended just before a
/// crash that kept the journal from saying so).
pub fn base_ends_with(base: &Path, record: &[u8]) -> bool {
    let cbf_path = sibling(base, "cbf");
    let Ok((offsets, end)) = read_index(&sibling(base, "cbi"), &cbf_path) else {
        return false;
    };
    let Some(&last) = offsets.last() else {
        return false;
    };
    let Ok(f) = File::open(&cbf_path) else {
        return false;
    };
    let mut f = BufReader::new(f);
    let mut got = Vec::new();
    f.seek(SeekFrom::Start(u64::from(last))).is_ok()
        && f.take(u64::from(end - last)).read_to_end(&mut got).is_ok()
        && got == record
}

/// The game offsets and the first free offset of the index at `cbi_path`;
/// none when neither it nor a non-empty CBF exists.
fn read_index(cbi_path: &Path, cbf_path: &Path) -> Result<(Vec<u32>, u32), BaseFileError> {
    let cbi = match std::fs::metadata(cbi_path) {
        Ok(m) if m.len() > MAX_CBI_BYTES => {
            return Err(BaseFileError::IndexTooBig {
                path: cbi_path.to_path_buf(),
                len: m.len(),
            });
        }
        Ok(_) => std::fs::read(cbi_path),
        Err(e) => Err(e),
    };
    let cbi = match cbi {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return match std::fs::metadata(cbf_path) {
                Ok(m) if m.len() > 0 => Err(BaseFileError::NoIndex {
                    cbf: cbf_path.to_path_buf(),
                    cbi: cbi_path.to_path_buf(),
                }),
                _ => Ok((Vec::new(), 0)),
            };
        }
        Err(source) => {
            return Err(BaseFileError::Read {
                path: cbi_path.to_path_buf(),
                source,
            });
        }
    };
    let bad = |what: &str| BaseFileError::NotAnIndex {
        path: cbi_path.to_path_buf(),
        what: what.to_string(),
    };
    let words: Vec<[u8; ENTRY]> = cbi
        .chunks(ENTRY)
        .map(|c| {
            c.try_into()
                .map_err(|_| bad("a length not a multiple of 4"))
        })
        .collect::<Result<_, _>>()?;
    let Some(first) = words.first() else {
        return Err(bad("empty"));
    };
    let count = game_count(*first);
    if words.len() != count as usize + 2 {
        return Err(bad(&format!(
            "{} entries for {count} games",
            words.len() - 1
        )));
    }
    let mut offsets = Vec::with_capacity(count as usize + 1);
    for (i, w) in words[1..].iter().enumerate() {
        let at = entry_offset(*w, i as u32 + 1)
            .filter(|o| offsets.last().is_none_or(|l| o >= l))
            .ok_or_else(|| bad(&format!("entry {} out of order", i + 1)))?;
        offsets.push(at);
    }
    let end = offsets.pop().unwrap_or(0);
    Ok((offsets, end))
}

/// Replaces the index at `path` atomically.
fn write_index(path: &Path, offsets: &[u32], end: u32) -> Result<(), BaseFileError> {
    let mut cbi = AtomicFile::create(path)?;
    cbi.write_all(&encode_index(offsets, end))?;
    Ok(cbi.commit()?)
}

/// The first free offset after a record of `len` bytes at `end`, when the
/// index can still hold it (an entry is offset + number + 1 in 32 bits).
fn next_end(end: u32, len: usize, games: usize) -> Option<u32> {
    let end = end.checked_add(u32::try_from(len).ok()?)?;
    let games = u32::try_from(games).ok()?;
    end.checked_add(games.checked_add(3)?)?;
    Some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn siblings_keep_the_case_and_add_a_missing_extension() {
        assert_eq!(
            sibling(Path::new("d/GAMES.CBI"), "cbf"),
            Path::new("d/GAMES.CBF")
        );
        assert_eq!(
            sibling(Path::new("games.cbf"), "cbi"),
            Path::new("games.cbi")
        );
        assert_eq!(
            sibling(Path::new("my.base"), "cbi"),
            Path::new("my.base.cbi")
        );
    }

    #[test]
    fn a_written_base_reads_back_and_replaces_the_old_one() {
        use crate::chessbase::CbGame;
        use crate::chessbase::record::encode_record;
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("games");
        let game = |w: &str| CbGame {
            white: w.into(),
            ..CbGame::default()
        };
        for names in [["A", "B"], ["C", "D"]] {
            let mut w = BaseWriter::create(&base).unwrap();
            for n in names {
                w.push(&encode_record(&game(n)).unwrap()).unwrap();
            }
            assert_eq!(w.count(), 2);
            w.finish().unwrap();
        }
        let r = open_base(&dir.path().join("games.cbi")).unwrap();
        assert_eq!(r.announced(), 2);
        let got: Vec<_> = r.map(|(_, g)| g.unwrap().white).collect();
        assert_eq!(got, ["C", "D"]);
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["games.cbf", "games.cbi"]);
        let e = open_base(&dir.path().join("none")).err().unwrap();
        assert!(matches!(&e, BaseFileError::Open { path, .. } if path.ends_with("none.cbi")));
        assert!(e.to_string().starts_with("cannot open "), "{e}");
    }

    #[test]
    fn the_index_limits_the_base() {
        assert_eq!(next_end(10, 5, 1), Some(15));
        assert_eq!(next_end(u32::MAX - 10, 5, 1), Some(u32::MAX - 5));
        assert_eq!(next_end(u32::MAX, 1, 0), None);
        assert_eq!(next_end(u32::MAX - 10, 5, 20), None);
    }

    #[test]
    fn games_are_appended_one_at_a_time() {
        use crate::chessbase::CbGame;
        use crate::chessbase::record::encode_record;
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("match");
        let rec = |w: &str| {
            encode_record(&CbGame {
                white: w.into(),
                ..CbGame::default()
            })
            .unwrap()
        };
        assert!(!base_ends_with(&base, &rec("A")));
        assert_eq!(append_game(&base, &rec("A")).unwrap(), 1);
        assert!(base_ends_with(&base, &rec("A")));
        // An append cut short by a crash leaves a tail past the index's end.
        let cbf = dir.path().join("match.cbf");
        let mut f = std::fs::OpenOptions::new().append(true).open(&cbf).unwrap();
        f.write_all(b"half a record").unwrap();
        drop(f);
        assert_eq!(append_game(&base, &rec("B")).unwrap(), 2);
        assert!(base_ends_with(&base, &rec("B")));
        assert!(!base_ends_with(&base, &rec("A")));
        let names: Vec<_> = open_base(&base)
            .unwrap()
            .map(|(_, g)| g.unwrap().white)
            .collect();
        assert_eq!(names, ["A", "B"]);
        assert_eq!(
            std::fs::metadata(&cbf).unwrap().len() as usize,
            2 * rec("A").len()
        );

        // Neither a games file without its index nor a bad index is touched.
        let lone = dir.path().join("lone");
        std::fs::write(dir.path().join("lone.cbf"), b"games").unwrap();
        let e = append_game(&lone, &rec("C")).unwrap_err();
        assert!(matches!(e, BaseFileError::NoIndex { .. }), "{e}");
        assert!(e.to_string().contains("without its index"), "{e}");
        std::fs::write(dir.path().join("lone.cbi"), [0, 0, 0, 9, 1]).unwrap();
        let e = append_game(&lone, &rec("C")).unwrap_err();
        assert!(matches!(e, BaseFileError::NotAnIndex { .. }), "{e}");
        assert!(e.to_string().contains("not a ChessBase index"), "{e}");
        assert_eq!(
            std::fs::read(dir.path().join("lone.cbf")).unwrap(),
            b"games"
        );
    }
}
