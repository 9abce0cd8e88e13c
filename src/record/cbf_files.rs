//! ChessBase bases on disk: a CBF file and its CBI index side by side
//! (`GAMES.CBF` + `GAMES.CBI`). Opening them for reading, one record in
//! memory at a time ([`crate::chessbase::base::BaseReader`]), and writing
//! one game after another, each file replaced atomically.

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};

use crate::chessbase::base::BaseReader;
use crate::chessbase::index::encode_index;
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
        let mut cbi = AtomicFile::create(&self.cbi_path).map_err(|e| e.to_string())?;
        cbi.write_all(&encode_index(&self.offsets, self.end))
            .and_then(|()| cbi.commit())
            .map_err(|e| e.to_string())
    }
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
}
