//! Opening lines for a match, from an EPD file (one position per line) or a
//! PGN file (the first moves of each game).

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use super::lines::LineReader;
use super::pgn_read::PgnReader;

pub use super::opening_order::order_openings;

/// Longest EPD line accepted (the serial line limit).
pub const MAX_EPD_LINE: usize = 4096;

/// One opening a game can start from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opening {
    /// Moves to play from the start position (or from `fen` when the PGN
    /// game had a `FEN` tag), up to the ply limit.
    Moves {
        /// The moves in SAN, as written in the file (not checked here).
        sans: Vec<String>,
        /// The game's `FEN` tag, if it had one.
        fen: Option<String>,
        /// `file:line` where the game starts, for error messages.
        source: String,
        /// `file:line` of each move, for error messages about it.
        move_sources: Vec<String>,
    },
    /// A position: one EPD line, trimmed, not parsed here (the caller parses
    /// it with `crate::epd::Record::parse`).
    Position {
        /// The EPD record text.
        epd: String,
        /// `file:line` of the record, for error messages.
        source: String,
    },
}

impl Opening {
    /// `file:line` where this opening comes from.
    pub fn source(&self) -> &str {
        match self {
            Opening::Moves { source, .. } | Opening::Position { source, .. } => source,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Epd,
    Pgn,
}

/// Loads the openings in the file at `path`, keeping at most `ply_limit`
/// moves of each PGN game.
///
/// The kind of file is decided by its extension (`.epd`, `.pgn`, any case);
/// without one of those, by its first non-blank line: `[` starts a PGN file,
/// a line whose first field holds `/` (a piece placement) an EPD file.
///
/// EPD: every non-blank line is one [`Opening::Position`].
/// PGN: every game is one [`Opening::Moves`].
///
/// Errors (as `file:line: what`) for a file that cannot be read, a PGN game
/// that does not parse, an EPD line over [`MAX_EPD_LINE`] bytes, an EPD
/// file that looks like PGN, an unknown kind, or no opening at all.
pub fn load_openings(path: impl AsRef<Path>, ply_limit: usize) -> Result<Vec<Opening>, String> {
    let path = path.as_ref();
    let name = path.display().to_string();
    let kind = match kind_from_extension(path) {
        Some(k) => k,
        None => sniff(path, &name)?,
    };
    let openings = match kind {
        Kind::Epd => load_epd(path, &name)?,
        Kind::Pgn => load_pgn(path, &name, ply_limit)?,
    };
    if openings.is_empty() {
        return Err(format!("{name}: no openings in the file"));
    }
    Ok(openings)
}

fn kind_from_extension(path: &Path) -> Option<Kind> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "epd" => Some(Kind::Epd),
        "pgn" => Some(Kind::Pgn),
        _ => None,
    }
}

fn open_lines(path: &Path, name: &str, max: usize) -> Result<LineReader<BufReader<File>>, String> {
    let f = File::open(path).map_err(|e| format!("{name}: cannot open: {e}"))?;
    Ok(LineReader::new(BufReader::new(f), max))
}

fn sniff(path: &Path, name: &str) -> Result<Kind, String> {
    let mut lines = open_lines(path, name, MAX_EPD_LINE)?;
    let mut line = String::new();
    while let Some(info) = lines
        .next_line(&mut line)
        .map_err(|e| format!("{name}: cannot read: {e}"))?
    {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if t.starts_with('[') {
            return Ok(Kind::Pgn);
        }
        if t.split_whitespace().next().is_some_and(|f| f.contains('/')) {
            return Ok(Kind::Epd);
        }
        return Err(format!(
            "{name}:{}: cannot tell whether this is an EPD or a PGN file \
             (name it .epd or .pgn; a PGN file starts with a tag pair, an EPD line with a piece placement)",
            info.number
        ));
    }
    Err(format!("{name}: no openings in the file"))
}

fn load_epd(path: &Path, name: &str) -> Result<Vec<Opening>, String> {
    let mut lines = open_lines(path, name, MAX_EPD_LINE)?;
    let mut line = String::new();
    let mut out = Vec::new();
    while let Some(info) = lines
        .next_line(&mut line)
        .map_err(|e| format!("{name}: cannot read: {e}"))?
    {
        let at = format!("{name}:{}", info.number);
        if info.overlong {
            return Err(format!("{at}: line longer than {MAX_EPD_LINE} bytes"));
        }
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if t.starts_with('[') {
            return Err(format!("{at}: this looks like PGN, not EPD (a tag pair)"));
        }
        out.push(Opening::Position {
            epd: t.to_string(),
            source: at,
        });
    }
    Ok(out)
}

fn load_pgn(path: &Path, name: &str, ply_limit: usize) -> Result<Vec<Opening>, String> {
    let f = File::open(path).map_err(|e| format!("{name}: cannot open: {e}"))?;
    let mut out = Vec::new();
    for game in PgnReader::new(BufReader::new(f)) {
        let mut game = game.map_err(|e| format!("{name}:{}: {}", e.line, e.message))?;
        game.sans.truncate(ply_limit);
        out.push(Opening::Moves {
            fen: game.tag("FEN").map(str::to_string),
            move_sources: game
                .san_lines
                .iter()
                .take(game.sans.len())
                .map(|l| format!("{name}:{l}"))
                .collect(),
            sans: game.sans,
            source: format!("{name}:{}", game.line),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file(name: &str, contents: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::File::create(&path)
            .unwrap()
            .write_all(contents.as_bytes())
            .unwrap();
        (dir, path)
    }

    const EPD: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 id \"e4\";\n\
                       \n  rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - ;  \r\n";

    const PGN: &str = "[Event \"book\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n\
                       [SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\n1. Kb2 Kg7 *\n";

    #[test]
    fn epd_file_gives_positions() {
        let (_d, path) = file("book.epd", EPD);
        let got = load_openings(&path, 8).unwrap();
        assert_eq!(got.len(), 2);
        let name = path.display().to_string();
        assert_eq!(
            got[0],
            Opening::Position {
                epd: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 id \"e4\";".into(),
                source: format!("{name}:1"),
            }
        );
        assert_eq!(got[1].source(), format!("{name}:3"));
        match &got[1] {
            Opening::Position { epd, .. } => assert!(epd.ends_with("- ;")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn pgn_file_gives_moves_up_to_the_limit() {
        let (_d, path) = file("book.PGN", PGN);
        let got = load_openings(&path, 4).unwrap();
        let name = path.display().to_string();
        assert_eq!(
            got,
            vec![
                Opening::Moves {
                    sans: vec!["e4".into(), "e5".into(), "Nf3".into(), "Nc6".into()],
                    fen: None,
                    source: format!("{name}:1"),
                    move_sources: vec![format!("{name}:3"); 4],
                },
                Opening::Moves {
                    sans: vec!["Kb2".into(), "Kg7".into()],
                    fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                    source: format!("{name}:5"),
                    move_sources: vec![format!("{name}:8"); 2],
                },
            ]
        );
    }

    #[test]
    fn content_sniffing_without_extension() {
        let (_d, path) = file("book.txt", &format!("\n{PGN}"));
        assert!(matches!(
            load_openings(&path, 2).unwrap()[0],
            Opening::Moves { .. }
        ));
        let (_d, path) = file("book", EPD);
        assert!(matches!(
            load_openings(&path, 2).unwrap()[0],
            Opening::Position { .. }
        ));
        let (_d, path) = file("notes.txt", "hello world\n");
        let err = load_openings(&path, 2).unwrap_err();
        assert!(err.contains("notes.txt:1: cannot tell"), "{err}");
    }

    #[test]
    fn errors_name_file_and_line() {
        let (_d, path) = file("bad.pgn", "[Event \"x\"]\n\n1. e4 ) e5 *\n");
        let err = load_openings(&path, 2).unwrap_err();
        assert!(err.contains("bad.pgn:3: "), "{err}");

        let (_d, path) = file("pgn.epd", PGN);
        let err = load_openings(&path, 2).unwrap_err();
        assert!(err.contains("pgn.epd:1: this looks like PGN"), "{err}");

        let (_d, path) = file("long.epd", &"x".repeat(MAX_EPD_LINE + 1));
        let err = load_openings(&path, 2).unwrap_err();
        assert!(err.contains("long.epd:1: line longer"), "{err}");

        let (_d, path) = file("empty.epd", "\n \n");
        let err = load_openings(&path, 2).unwrap_err();
        assert!(err.contains("no openings"), "{err}");

        let err = load_openings("/nonexistent/dir/book.epd", 2).unwrap_err();
        assert!(
            err.contains("/nonexistent/dir/book.epd: cannot open"),
            "{err}"
        );
    }
}
