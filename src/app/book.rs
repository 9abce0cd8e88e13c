//! A Polyglot book file read at the edge (`--book`), whole, within
//! [`MAX_BOOK_BYTES`]; [`crate::client::book`] reads its bytes.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::client::book::{Book, BookError, MAX_BOOK_BYTES};
use crate::record::cbf_files::{BaseFileError, open_sized};

/// Why a `--book` file gives no book: the file, and what is wrong with it.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// It cannot be opened (the error names it).
    #[error("book: {0}")]
    Open(BaseFileError),
    #[error("cannot read: {0}")]
    Read(std::io::Error),
    /// Its bytes are not a book (too large, or which entry is bad).
    #[error(transparent)]
    Book(BookError),
}

/// A [`LoadError`] with the file it concerns (all but an open error, which
/// names it already, say "book FILE: ...").
#[derive(Debug, thiserror::Error)]
pub struct BadBook {
    pub path: PathBuf,
    pub why: LoadError,
}

impl std::fmt::Display for BadBook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.why {
            LoadError::Open(_) => write!(f, "{}", self.why),
            why => write!(f, "book {}: {why}", self.path.display()),
        }
    }
}

error_words!(BadBook);

/// Reads the book at `path`; the error names the file and says what is
/// wrong with it (and at which entry).
pub fn load(path: &Path) -> Result<Book, BadBook> {
    let bad = |why| BadBook {
        path: path.to_path_buf(),
        why,
    };
    let (f, len) = open_sized(path).map_err(|e| bad(LoadError::Open(e)))?;
    if len > MAX_BOOK_BYTES {
        return Err(bad(LoadError::Book(BookError::TooLarge { bytes: len })));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    f.take(MAX_BOOK_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad(LoadError::Read(e)))?;
    Book::from_bytes(bytes).map_err(|e| bad(LoadError::Book(e)))
}
