//! ChessBase bases on disk: a CBF file and its CBI index side by side
//! (`GAMES.CBF` + `GAMES.CBI`). Opening them for reading, one record in
//! memory at a time ([`crate::chessbase::base::BaseReader`]), and writing
//! one game after another, each file replaced atomically.

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::chessbase::base::BaseReader;
use crate::chessbase::index::{ENTRY, encode_index, entry_offset, game_count};
use crate::record::durable::AtomicFile;

/// Largest CBI read (4 bytes a game: 16 million games).
pub const MAX_CBI_BYTES: u64 = 64 << 20;

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
pub fn open_base(path: &Path) -> Result<BaseReader<BufReader<File>>, String> {
    let cbi_path = sibling(path, "cbi");
    let (cbi_file, cbi_len) = open_sized(&cbi_path)?;
    if cbi_len > MAX_CBI_BYTES {
        return Err(format!(
            "{}: {cbi_len} bytes is more than an index can be ({MAX_CBI_BYTES})",
            cbi_path.display()
        ));
    }
    let mut cbi = Vec::with_capacity(cbi_len as usize);
    cbi_file
        .take(MAX_CBI_BYTES)
        .read_to_end(&mut cbi)
        .map_err(|e| format!("cannot read {}: {e}", cbi_path.display()))?;
    let (cbf, cbf_len) = open_sized(&sibling(path, "cbf"))?;
    BaseReader::new(cbi, BufReader::new(cbf), cbf_len)
        .map_err(|e| format!("{}: {e}", cbi_path.display()))
}

/// The file at `path`, opened for reading, and its length.
pub fn open_sized(path: &Path) -> Result<(File, u64), String> {
    let f = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let len = f
        .metadata()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
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
    pub fn create(base: &Path) -> Result<Self, String> {
        let cbf_path = sibling(base, "cbf");
        let cbi_path = sibling(base, "cbi");
        let cbf = AtomicFile::create(&cbf_path).map_err(|e| e.to_string())?;
        Ok(BaseWriter {
            cbf,
            cbf_path,
            cbi_path,
            offsets: Vec::new(),
            end: 0,
        })
    }

    /// Appends one encoded record.
    pub fn push(&mut self, record: &[u8]) -> Result<(), String> {
        let end = next_end(self.end, record.len(), self.offsets.len())
            .ok_or_else(|| format!("{}: the base would pass 4 GiB", self.cbf_path.display()))?;
        self.cbf.write_all(record).map_err(|e| e.to_string())?;
        self.offsets.push(self.end);
        self.end = end;
        Ok(())
    }

    /// Games written so far.
    pub fn count(&self) -> usize {
        self.offsets.len()
    }

    /// Puts the CBF in place, then writes the CBI.
    pub fn finish(self) -> Result<(), String> {
        self.cbf.commit().map_err(|e| e.to_string())?;
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
pub fn append_game(base: &Path, record: &[u8]) -> Result<u32, String> {
    let cbf_path = sibling(base, "cbf");
    let cbi_path = sibling(base, "cbi");
    let (mut offsets, end) = read_index(&cbi_path, &cbf_path)?;
    if offsets.is_empty() && !cbi_path.exists() {
        // The index first: a crash before the record is whole then leaves
        // an empty base, not a games file without an index.
        write_index(&cbi_path, &[], 0)?;
    }
    let new_end = next_end(end, record.len(), offsets.len())
        .ok_or_else(|| format!("{}: the base would pass 4 GiB", cbf_path.display()))?;
    let io = |e: std::io::Error| format!("cannot write {}: {e}", cbf_path.display());
    let mut cbf = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(&cbf_path)
        .map_err(io)?;
    let len = cbf.metadata().map_err(io)?.len();
    if len < u64::from(end) {
        return Err(format!(
            "{} has {len} bytes, its index {} says {end} (not appended to)",
            cbf_path.display(),
            cbi_path.display()
        ));
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
fn read_index(cbi_path: &Path, cbf_path: &Path) -> Result<(Vec<u32>, u32), String> {
    let cbi = match std::fs::metadata(cbi_path).and_then(|m| {
        if m.len() > MAX_CBI_BYTES {
            Err(std::io::Error::other(format!(
                "{} bytes is more than an index can be ({MAX_CBI_BYTES})",
                m.len()
            )))
        } else {
            std::fs::read(cbi_path)
        }
    }) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return match std::fs::metadata(cbf_path) {
                Ok(m) if m.len() > 0 => Err(format!(
                    "{} exists without its index {} (not overwritten)",
                    cbf_path.display(),
                    cbi_path.display()
                )),
                _ => Ok((Vec::new(), 0)),
            };
        }
        Err(e) => return Err(format!("cannot read {}: {e}", cbi_path.display())),
    };
    let bad = |what: &str| format!("{}: {what} (not a ChessBase index)", cbi_path.display());
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
fn write_index(path: &Path, offsets: &[u32], end: u32) -> Result<(), String> {
    let mut cbi = AtomicFile::create(path).map_err(|e| e.to_string())?;
    cbi.write_all(&encode_index(offsets, end))
        .and_then(|()| cbi.commit())
        .map_err(|e| e.to_string())
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
        assert!(e.contains("none.cbi"), "{e}");
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
        assert_eq!(append_game(&base, &rec("A")), Ok(1));
        assert!(base_ends_with(&base, &rec("A")));
        // An append cut short by a crash leaves a tail past the index's end.
        let cbf = dir.path().join("match.cbf");
        let mut f = std::fs::OpenOptions::new().append(true).open(&cbf).unwrap();
        f.write_all(b"half a record").unwrap();
        drop(f);
        assert_eq!(append_game(&base, &rec("B")), Ok(2));
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
        assert!(e.contains("without its index"), "{e}");
        std::fs::write(dir.path().join("lone.cbi"), [0, 0, 0, 9, 1]).unwrap();
        let e = append_game(&lone, &rec("C")).unwrap_err();
        assert!(e.contains("not a ChessBase index"), "{e}");
        assert_eq!(
            std::fs::read(dir.path().join("lone.cbf")).unwrap(),
            b"games"
        );
    }
}
