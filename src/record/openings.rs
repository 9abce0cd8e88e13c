//! Opening lines for a match, from an EPD file (one position per line), a
//! PGN file (the first moves of each game), a ChessBase base (the main line
//! of each game) or a ChessBase FBK book (each line).

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

use shakmaty::{Chess, Position};

use super::cbf_files::{BaseFileError, open_base, open_sized};
use super::lines::LineReader;
use super::pgn_read::PgnReader;
use crate::chessbase::base::BaseError;
use crate::chessbase::fbk::read_book;
use crate::game::san_of;

pub use super::opening_order::{nth_opening, order_openings};

/// Longest EPD line accepted (the serial line limit).
pub const MAX_EPD_LINE: usize = 4096;
/// Largest FBK book read (two bytes a move: more than the 100 000 lines of
/// 500 moves the reader keeps would need).
pub const MAX_FBK_BYTES: u64 = 100 << 20;

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
    Cbi,
    Fbk,
}

/// Loads the openings in the file at `path`, keeping at most `ply_limit`
/// moves of each PGN game.
///
/// The kind of file is decided by its extension (`.epd`, `.pgn`, `.cbi`
/// or `.cbf`, `.fbk`, any case); without one of those, by its first
/// non-blank line: `[` starts a PGN file, a line whose first field holds
/// `/` (a piece placement) an EPD file.
///
/// EPD: every non-blank line is one [`Opening::Position`].
/// PGN: every game is one [`Opening::Moves`].
/// CBI (a ChessBase base, its CBF beside it): every game's main line is one
/// [`Opening::Moves`] (from its starting position, if it has one).
/// FBK (a ChessBase book): every line is one [`Opening::Moves`].
///
/// Errors (as `file:line: what`, `file: game N: ...` or `file: byte B:
/// ...`) for a file that cannot be read, a PGN game that does not parse, a
/// bad game in a base, a book line with an illegal move, an EPD line over
/// [`MAX_EPD_LINE`] bytes, an EPD file that looks like PGN, an unknown
/// kind, or no opening at all.
pub fn load_openings(
    path: impl AsRef<Path>,
    ply_limit: usize,
) -> Result<Vec<Opening>, OpeningsError> {
    let path = path.as_ref();
    let name = path.display().to_string();
    let kind = match kind_from_extension(path) {
        Some(k) => k,
        None => sniff(path, &name)?,
    };
    let openings = match kind {
        Kind::Epd => load_epd(path, &name)?,
        Kind::Pgn => load_pgn(path, &name, ply_limit)?,
        Kind::Cbi => load_cbi(path, &name, ply_limit)?,
        Kind::Fbk => load_fbk(path, &name, ply_limit)?,
    };
    if openings.is_empty() {
        return Err(OpeningsError::NoOpenings(name));
    }
    Ok(openings)
}

/// Why an openings file gives no openings: the file (and line, game or
/// byte) and what is wrong there. No opening of the file is used then.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    #[error("{name}: cannot open: {source}")]
    Open { name: String, source: io::Error },
    #[error("{name}: cannot read: {source}")]
    Read { name: String, source: io::Error },
    /// Neither EPD nor PGN by its first line (the line's number).
    #[error(
        "{name}:{line}: cannot tell whether this is an EPD or a PGN file (name it .epd or .pgn; \
         a PGN file starts with a tag pair, an EPD line with a piece placement)"
    )]
    UnknownKind { name: String, line: usize },
    #[error("{0}: no openings in the file")]
    NoOpenings(String),
    /// `at`: the file and line.
    #[error("{at}: line longer than {MAX_EPD_LINE} bytes")]
    LineTooLong { at: String },
    #[error("{at}: this looks like PGN, not EPD (a tag pair)")]
    LooksLikePgn { at: String },
    /// A PGN game that does not read (the line and what the reader said).
    #[error("{name}:{line}: {message}")]
    Pgn {
        name: String,
        line: usize,
        message: String,
    },
    /// A ChessBase base that cannot be opened (the error names the file).
    #[error(transparent)]
    Base(#[from] BaseFileError),
    /// A bad game in a ChessBase base.
    #[error("{name}: {game}")]
    BadGame { name: String, game: BaseError },
    #[error("{name}: {len} bytes is more than a book can be ({MAX_FBK_BYTES})")]
    BookTooLarge { name: String, len: u64 },
    /// A ChessBase book with bad lines: the first, and how many more.
    #[error("{name}: {first}{}", more_lines(.more))]
    BookLines {
        name: String,
        first: String,
        more: usize,
    },
}

error_words!(OpeningsError);

fn more_lines(more: &usize) -> String {
    match more {
        0 => String::new(),
        k => format!(" (and {k} more bad lines)"),
    }
}

fn kind_from_extension(path: &Path) -> Option<Kind> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "epd" => Some(Kind::Epd),
        "pgn" => Some(Kind::Pgn),
        "cbi" | "cbf" => Some(Kind::Cbi),
        "fbk" => Some(Kind::Fbk),
        _ => None,
    }
}

fn open_lines(
    path: &Path,
    name: &str,
    max: usize,
) -> Result<LineReader<BufReader<File>>, OpeningsError> {
    let f = File::open(path).map_err(|source| OpeningsError::Open {
        name: name.to_string(),
        source,
    })?;
    Ok(LineReader::new(BufReader::new(f), max))
}

fn read_error(name: &str) -> impl Fn(io::Error) -> OpeningsError + '_ {
    move |source| OpeningsError::Read {
        name: name.to_string(),
        source,
    }
}

fn sniff(path: &Path, name: &str) -> Result<Kind, OpeningsError> {
    let mut lines = open_lines(path, name, MAX_EPD_LINE)?;
    let mut line = String::new();
    while let Some(info) = lines.next_line(&mut line).map_err(read_error(name))? {
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
        return Err(OpeningsError::UnknownKind {
            name: name.to_string(),
            line: info.number,
        });
    }
    Err(OpeningsError::NoOpenings(name.to_string()))
}

fn load_epd(path: &Path, name: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut lines = open_lines(path, name, MAX_EPD_LINE)?;
    let mut line = String::new();
    let mut out = Vec::new();
    while let Some(info) = lines.next_line(&mut line).map_err(read_error(name))? {
        let at = format!("{name}:{}", info.number);
        if info.overlong {
            return Err(OpeningsError::LineTooLong { at });
        }
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if t.starts_with('[') {
            return Err(OpeningsError::LooksLikePgn { at });
        }
        out.push(Opening::Position {
            epd: t.to_string(),
            source: at,
        });
    }
    Ok(out)
}

fn load_pgn(path: &Path, name: &str, ply_limit: usize) -> Result<Vec<Opening>, OpeningsError> {
    let f = File::open(path).map_err(|source| OpeningsError::Open {
        name: name.to_string(),
        source,
    })?;
    let mut out = Vec::new();
    for game in PgnReader::new(BufReader::new(f)) {
        let mut game = game.map_err(|e| OpeningsError::Pgn {
            name: name.to_string(),
            line: e.line,
            message: e.message,
        })?;
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

fn load_cbi(path: &Path, name: &str, ply_limit: usize) -> Result<Vec<Opening>, OpeningsError> {
    let mut out = Vec::new();
    for (n, game) in open_base(path)? {
        let g = game.map_err(|game| OpeningsError::BadGame {
            name: name.to_string(),
            game,
        })?;
        let tree = crate::chessbase::pgn::to_tree(&g);
        out.push(Opening::Moves {
            sans: tree
                .moves
                .moves
                .into_iter()
                .take(ply_limit)
                .map(|m| m.san)
                .collect(),
            fen: g.start,
            source: format!("{name}: game {n}"),
            move_sources: Vec::new(),
        });
    }
    Ok(out)
}

fn load_fbk(path: &Path, name: &str, ply_limit: usize) -> Result<Vec<Opening>, OpeningsError> {
    let (f, len) = open_sized(path)?;
    if len > MAX_FBK_BYTES {
        return Err(OpeningsError::BookTooLarge {
            name: name.to_string(),
            len,
        });
    }
    let mut bytes = Vec::with_capacity(len as usize);
    f.take(MAX_FBK_BYTES)
        .read_to_end(&mut bytes)
        .map_err(read_error(name))?;
    let (lines, errors) = read_book(&bytes);
    if let Some(e) = errors.first() {
        return Err(OpeningsError::BookLines {
            name: name.to_string(),
            first: e.to_string(),
            more: errors.len() - 1,
        });
    }
    Ok(lines
        .into_iter()
        .map(|line| {
            let mut pos = Chess::default();
            let sans = line
                .moves
                .iter()
                .take(ply_limit)
                .map(|m| {
                    let san = san_of(&pos, m);
                    pos.play_unchecked(*m);
                    san
                })
                .collect();
            Opening::Moves {
                sans,
                fen: None,
                source: format!("{name}: byte {}", line.offset),
                move_sources: Vec::new(),
            }
        })
        .collect())
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
        let err = load_openings(&path, 2).unwrap_err().to_string();
        assert!(err.contains("notes.txt:1: cannot tell"), "{err}");
    }

    #[test]
    fn errors_name_file_and_line() {
        let (_d, path) = file("bad.pgn", "[Event \"x\"]\n\n1. e4 ) e5 *\n");
        let err = load_openings(&path, 2).unwrap_err().to_string();
        assert!(err.contains("bad.pgn:3: "), "{err}");

        let (_d, path) = file("pgn.epd", PGN);
        let err = load_openings(&path, 2).unwrap_err().to_string();
        assert!(err.contains("pgn.epd:1: this looks like PGN"), "{err}");

        let (_d, path) = file("long.epd", &"x".repeat(MAX_EPD_LINE + 1));
        let err = load_openings(&path, 2).unwrap_err().to_string();
        assert!(err.contains("long.epd:1: line longer"), "{err}");

        let (_d, path) = file("empty.epd", "\n \n");
        let err = load_openings(&path, 2).unwrap_err().to_string();
        assert!(err.contains("no openings"), "{err}");

        let err = load_openings("/nonexistent/dir/book.epd", 2)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("/nonexistent/dir/book.epd: cannot open"),
            "{err}"
        );
    }

    /// A base of the PGN games `pgn` as `dir/name.cbi` (and `.cbf`).
    fn base(dir: &Path, name: &str, pgn: &str) -> std::path::PathBuf {
        use crate::chessbase::{pgn::from_pgn, record::encode_record};
        let mut w = super::super::cbf_files::BaseWriter::create(&dir.join(name)).unwrap();
        for g in super::super::pgn_read::read_pgn_games(pgn).unwrap() {
            w.push(&encode_record(&from_pgn(&g).game.unwrap()).unwrap())
                .unwrap();
        }
        w.finish().unwrap();
        dir.join(format!("{name}.cbi"))
    }

    /// Move openings as (moves, FEN, source); there are no others.
    fn lines(got: &[Opening]) -> Vec<(String, Option<String>, String)> {
        got.iter()
            .map(|o| match o {
                Opening::Moves {
                    sans, fen, source, ..
                } => (sans.join(" "), fen.clone(), source.clone()),
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_chessbase_base_gives_its_main_lines() {
        let dir = tempfile::tempdir().unwrap();
        let pgn = "[White \"A\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 {book} Nc6 3. Bb5 *\n\n\
                   [SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\n1. Kb2 Kg2 *\n";
        let path = base(dir.path(), "book", pgn);
        let name = path.display().to_string();
        let fen = "8/8/8/8/8/8/8/K6k w - - 0 1".to_string();
        assert_eq!(
            lines(&load_openings(&path, 4).unwrap()),
            [
                ("e4 e5 Nf3 Nc6".into(), None, format!("{name}: game 1")),
                ("Kb2 Kg2".into(), Some(fen), format!("{name}: game 2")),
            ]
        );
        // A bad game is an error naming it; the index alone is no base.
        let cbf = dir.path().join("book.cbf");
        let bytes = std::fs::read(&cbf).unwrap();
        std::fs::write(&cbf, &bytes[..bytes.len() - 3]).unwrap();
        let err = load_openings(&path, 4).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("{name}: game 2: CBF byte ")),
            "{err}"
        );
        std::fs::remove_file(&cbf).unwrap();
        let err = load_openings(&path, 4).unwrap_err().to_string();
        assert!(err.contains("book.cbf"), "{err}");
    }

    #[test]
    fn an_fbk_book_gives_its_lines() {
        let sq = |s: &str| s.parse::<shakmaty::Square>().unwrap() as u8;
        // 1. c4 e5 2. Nc3 (ended), then 1. Nf3 d5 and a weak c4 (cut).
        let book = [
            [sq("c2"), sq("c4")],
            [0x40 | sq("e7"), sq("e5")],
            [0xC0 | sq("b1"), sq("c3")],
            [sq("g1"), sq("f3")],
            [0x40 | sq("d7"), sq("d5")],
            [0xC0 | sq("c2"), 0x80 | sq("c4")],
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("BOOK.FBK");
        std::fs::write(&path, book.concat()).unwrap();
        let name = path.display().to_string();
        assert_eq!(
            lines(&load_openings(&path, 2).unwrap()),
            [
                ("c4 e5".into(), None, format!("{name}: byte 0")),
                ("Nf3 d5".into(), None, format!("{name}: byte 6")),
            ]
        );
        std::fs::write(&path, [sq("e2"), sq("e5"), sq("d2"), sq("d4")]).unwrap();
        let err = load_openings(&path, 2).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("{name}: byte 0: e2e5 is not a legal move")),
            "{err}"
        );
        std::fs::write(&path, [sq("d2")]).unwrap();
        let err = load_openings(&path, 2).unwrap_err().to_string();
        assert!(err.contains("odd last byte"), "{err}");
    }
}
