//! Which argus journal a file is, from the first word of its first line:
//! a match's (`argus-journal`) or a tournament's (`argus-tournament`).
//! The one place that recognises a journal and says, in the same words
//! for `argus resume` and `argus watch`, that a file is not one.

use std::io::Read;
use std::path::Path;

/// The kinds of argus journal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A match's journal (`argus referee`, `argus demo`, a tournament's
    /// game).
    Match,
    /// A tournament's journal (`tournament.journal`).
    Tournament,
}

impl Kind {
    const ALL: [Kind; 2] = [Kind::Match, Kind::Tournament];

    /// The first word of the kind's first line.
    pub fn magic(self) -> &'static str {
        match self {
            Kind::Match => crate::journal::format::MAGIC,
            Kind::Tournament => crate::tournament::journal::MAGIC,
        }
    }

    /// Whether a file that begins with `start` is, or may still become
    /// (it is being written), a journal of this kind.
    pub fn may_be(self, start: &[u8]) -> bool {
        let want = format!("{} ", self.magic());
        let n = start.len().min(want.len());
        start[..n] == want.as_bytes()[..n]
    }
}

/// The kind of journal a file that begins with `start` is: its first line
/// begins with a kind's first word and a space.
pub fn kind_of(start: &[u8]) -> Option<Kind> {
    Kind::ALL.into_iter().find(|k| {
        start
            .strip_prefix(k.magic().as_bytes())
            .is_some_and(|rest| rest.first() == Some(&b' '))
    })
}

/// The words for a file at `path` that is not a journal (of the kind
/// `kind`, when one is expected).
pub fn not_a_journal(path: &Path, kind: Option<Kind>) -> String {
    let first = match kind {
        Some(k) => format!("`{} `", k.magic()),
        None => Kind::ALL.map(|k| format!("`{} `", k.magic())).join(" or "),
    };
    format!(
        "{} is not an argus journal (a journal's first line begins with {first})",
        path.display()
    )
}

/// The kind of the journal at `path`, or `None` when it may still become
/// one (it is empty, or begins as one); the error says why it cannot be
/// read, or that it is not a journal.
pub fn recognise_file(path: &Path) -> Result<Option<Kind>, KindError> {
    let mut start = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(64).read_to_end(&mut start))
        .map_err(|error| KindError::Open {
            path: path.to_path_buf(),
            error,
        })?;
    match kind_of(&start) {
        Some(k) => Ok(Some(k)),
        None if Kind::ALL.iter().any(|k| k.may_be(&start)) => Ok(None),
        None => Err(KindError::NotAJournal(path.to_path_buf())),
    }
}

/// The kind of the journal at `path`; the error says why it cannot be
/// read, or that it is not a journal.
pub fn kind_of_file(path: &Path) -> Result<Kind, KindError> {
    recognise_file(path)?.ok_or_else(|| KindError::NotAJournal(path.to_path_buf()))
}

/// The program that wrote a journal beginning with `start`, as its first
/// line names it (`argus-journal 1 argus\x200.1.0 CHECK`: `argus 0.1.0`);
/// `None` when `start` is no journal's first line.
pub fn writer_of(start: &[u8]) -> Option<String> {
    kind_of(start)?;
    let line = start.split(|&b| b == b'\n').next()?;
    let writer = std::str::from_utf8(line).ok()?.split(' ').nth(2)?;
    crate::journal::format::untoken(writer).ok()
}

/// The program that wrote the journal at `path` ([`writer_of`] its first
/// line); `None` when it cannot be read or is no journal.
pub fn writer_of_file(path: &Path) -> Option<String> {
    let mut start = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(256).read_to_end(&mut start))
        .ok()?;
    writer_of(&start)
}

/// Why a file's kind of journal cannot be told: it cannot be read, or it
/// is no journal (the file's path, as given).
#[derive(Debug, thiserror::Error)]
pub enum KindError {
    #[error("cannot open the journal {}: {error}", path.display())]
    Open {
        path: std::path::PathBuf,
        error: std::io::Error,
    },
    #[error("{}", not_a_journal(.0, None))]
    NotAJournal(std::path::PathBuf),
}

error_words!(KindError);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_is_known_by_its_first_word() {
        assert_eq!(kind_of(b"argus-journal 1 argus\n"), Some(Kind::Match));
        assert_eq!(kind_of(b"argus-tournament 1 x"), Some(Kind::Tournament));
        assert_eq!(kind_of(b"argus-journalx 1"), None);
        assert_eq!(kind_of(b"argus-journal"), None, "the word alone");
        assert_eq!(kind_of(b"[Event \"x\"]\n"), None);
        assert_eq!(kind_of(b""), None);
    }

    #[test]
    fn a_journal_names_the_program_that_wrote_it() {
        let first = b"argus-journal 1 argus\\x200.1.0 3e7c050f\nsession x 1\n";
        assert_eq!(writer_of(first).as_deref(), Some("argus 0.1.0"));
        let t = b"argus-tournament 1 argus\\x200.2.0 4e924e78\n";
        assert_eq!(writer_of(t).as_deref(), Some("argus 0.2.0"));
        assert_eq!(writer_of(b"argus-journal 1"), None, "no writer");
        assert_eq!(writer_of(b"[Event \"x\"]\n"), None);
    }

    #[test]
    fn a_file_being_written_may_still_become_one() {
        let m = Kind::Match;
        assert!(m.may_be(b""));
        assert!(m.may_be(b"argus-jo"));
        assert!(m.may_be(b"argus-journal 1 argus 0.1\nsession x\n"));
        assert!(!m.may_be(b"argus-journalx"));
        assert!(!m.may_be(b"[Event \"x\"]\n"));
        assert!(!m.may_be(b"\x7fELF\x02\x01"));
        assert!(!Kind::Tournament.may_be(b"argus-journal 1"));
    }

    #[test]
    fn a_file_that_is_not_one_is_named_with_the_first_words_wanted() {
        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("games.pgn");
        std::fs::write(&pgn, "[Event \"x\"]\n\n1. e4 *\n").unwrap();
        let e = kind_of_file(&pgn).unwrap_err();
        assert!(
            matches!(&e, KindError::NotAJournal(p) if *p == pgn),
            "{e:?}"
        );
        let e = e.to_string();
        assert!(e.contains("games.pgn is not an argus journal"), "{e}");
        assert!(e.contains("`argus-journal ` or `argus-tournament `"), "{e}");
        let e = kind_of_file(&dir.path().join("gone")).unwrap_err();
        assert!(matches!(&e, KindError::Open { .. }), "{e:?}");
        assert!(e.to_string().starts_with("cannot open the journal"), "{e}");
        let j = dir.path().join("t.journal");
        std::fs::write(&j, "argus-tournament 1 argus\n").unwrap();
        assert!(matches!(kind_of_file(&j), Ok(Kind::Tournament)));
        std::fs::write(&j, "argus-tour").unwrap();
        assert!(matches!(recognise_file(&j), Ok(None)), "being written");
        assert!(matches!(kind_of_file(&j), Err(KindError::NotAJournal(_))));
    }
}
