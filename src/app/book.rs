//! A Polyglot book file read at the edge (`--book`), whole, within
//! [`MAX_BOOK_BYTES`]; [`crate::client::book`] reads its bytes.

use std::io::Read;
use std::path::Path;

use crate::client::book::{Book, BookError, MAX_BOOK_BYTES};
use crate::record::cbf_files::open_sized;

/// Reads the book at `path`; the error names the file and says what is
/// wrong with it (and at which entry).
pub fn load(path: &Path) -> Result<Book, String> {
    let name = path.display();
    let (f, len) = open_sized(path).map_err(|e| format!("book: {e}"))?;
    if len > MAX_BOOK_BYTES {
        return Err(format!(
            "book {name}: {}",
            BookError::TooLarge { bytes: len }
        ));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    f.take(MAX_BOOK_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("book {name}: cannot read: {e}"))?;
    Book::from_bytes(bytes).map_err(|e| format!("book {name}: {e}"))
}
