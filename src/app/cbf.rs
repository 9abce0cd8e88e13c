//! `argus cbf`: ChessBase 1993 bases (a CBF file and its CBI index) to
//! PGN, from PGN, and checked. The codec is [`crate::chessbase`]; this
//! module opens the files, reports and sets the exit status.
//!
//! Exit status as `argus epd`: 0 when every game was good, 1 when some game
//! was bad (reported with its number; the others are still read and
//! written), 2 when a file cannot be read or written, or is not a base.

use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::{Path, PathBuf};

use clap::Subcommand;

use crate::chessbase::CbGame;
use crate::chessbase::pgn::{from_pgn, to_tree};
use crate::epd_kit::STDIO;
use crate::exit::{Completion, Exit, Failure};
use crate::record::cbf_files::{BaseFileError, BaseWriter, open_base, sibling};
use crate::record::durable::AtomicFile;
use crate::record::pgn_read::{PgnErrorKind, PgnReader, PgnText};
use crate::record::pgn_tree::write_tree;

/// The verbs of `argus cbf`.
#[derive(Debug, Clone, Subcommand)]
pub enum CbfVerb {
    /// Write every game of a base as PGN: variations as RAVs, comments
    /// and evaluations ($n NAGs) kept.
    ///
    /// BASE names the base with or without its extension (GAMES, GAMES.CBI
    /// and GAMES.CBF name the same two files). A bad game is reported on
    /// standard error as BASE.cbi: game N: FILE byte B: reason, and left
    /// out; the others are written. OUT is replaced atomically. A summary
    /// line "N games, M bad" ends the report.
    #[command(after_help = "Examples:\n  \
        argus cbf to-pgn GAMES.CBI games.pgn\n  \
        argus cbf to-pgn /dos/cbase/ENGLISH\n  \
        argus cbf to-pgn match.cbi - | grep -c Result")]
    ToPgn {
        /// The base: BASE, BASE.cbi or BASE.cbf.
        #[arg(value_name = "BASE")]
        base: PathBuf,
        /// Where to write (standard output when omitted or "-"); not a
        /// file of the base.
        #[arg(value_name = "OUT")]
        output: Option<PathBuf>,
    },
    /// Write the games of a PGN file as a base (BASE.cbf and BASE.cbi).
    ///
    /// Moves, variations (nested up to 32 deep), comments, one NAG of each
    /// kind per move, players, Event, the year, Elo, ECO and a FEN start
    /// are kept. What the format cannot hold is reported per game on
    /// standard error as IN: game N (line L): what, never cut silently:
    /// more than 250 half-moves, texts over 63 bytes, Elo outside
    /// 1605-2875, comments before a line's first move, other tags (listed).
    /// A game that cannot be stored at all (an illegal move) is left out
    /// and reported. Both files are replaced atomically. Exit status 1 when
    /// a game was left out or lost more than its other tags.
    #[command(after_help = "Examples:\n  \
        argus cbf from-pgn match.pgn MATCH\n  \
        argus cbf from-pgn games.pgn /dos/cbase/GAMES.CBF")]
    FromPgn {
        /// The PGN file to read ("-": standard input).
        #[arg(value_name = "IN")]
        input: PathBuf,
        /// The base to write: BASE, BASE.cbf or BASE.cbi.
        #[arg(value_name = "BASE")]
        base: PathBuf,
    },
    /// Read every game of a base and report each bad one with its number,
    /// the file and byte, and the reason.
    ///
    /// Reports go to standard output (BASE.cbi: game N: FILE byte B:
    /// reason), then a summary line "N games, M bad".
    #[command(after_help = "Examples:\n  \
        argus cbf check GAMES.CBI\n  \
        argus cbf check match")]
    Check {
        /// The base: BASE, BASE.cbi or BASE.cbf.
        #[arg(value_name = "BASE")]
        base: PathBuf,
    },
}

/// Runs `argus cbf VERB`. A file that cannot be read or written, or is
/// not a base or a PGN file, is a usage failure (the docs' exit status 2).
pub fn run(verb: CbfVerb) -> Exit {
    let result = match verb {
        CbfVerb::ToPgn { base, output } => {
            to_pgn(&base, output.as_deref(), &mut io::stderr().lock())
        }
        CbfVerb::FromPgn { input, base } => from_pgn_file(&input, &base, &mut io::stderr().lock()),
        CbfVerb::Check { base } => check(&base, &mut io::stdout().lock()),
    };
    result.map_err(Failure::usage)
}

/// Why `argus cbf` stopped: a file that cannot be read or written, or is
/// not what it should be. Each says which file and what was wrong; a
/// file being replaced is left as it was.
#[derive(Debug, thiserror::Error)]
pub enum CbfError {
    /// The base cannot be opened, read or written.
    #[error(transparent)]
    Base(#[from] BaseFileError),
    /// The report (standard error or output) cannot be written.
    #[error("cannot write the report: {0}")]
    Report(io::Error),
    /// The PGN output cannot be written.
    #[error("cannot write the PGN: {0}")]
    Pgn(io::Error),
    /// OUT cannot be created or put in place (the error names the file).
    #[error(transparent)]
    Out(io::Error),
    /// OUT names a file of the base it is read from.
    #[error("{}: OUT must not be a file of the base", .0.display())]
    OutIsBase(PathBuf),
    /// IN names a file of the base it is written to.
    #[error("{0}: IN must not be a file of the base")]
    InIsBase(String),
    /// The PGN file cannot be opened.
    #[error("cannot open {name}: {source}")]
    OpenInput { name: String, source: io::Error },
    /// The PGN file cannot be read (at this line).
    #[error("{name}:{line}: {message}")]
    Unreadable {
        name: String,
        line: usize,
        message: String,
    },
    /// The base's first games are all bad: another kind of file.
    #[error("{name}: not a ChessBase base (its first {games} games are all bad)")]
    NotABase { name: String, games: u32 },
    /// The PGN file's first games all fail to read: another kind of file.
    #[error("{name}: not a PGN file (its first {games} games do not read)")]
    NotPgn { name: String, games: u64 },
    /// The PGN file has no games.
    #[error("{0}: no games in the file")]
    NoGames(String),
}

/// A base whose first this many games are all bad is not a base (another
/// kind of file under the name), nor a PGN file whose first this many games
/// do not read: reading stops there.
pub const NOT_A_BASE_AFTER: u64 = 20;

/// Games read and games bad.
#[derive(Debug, Default)]
struct Tally {
    games: u64,
    bad: u64,
}

impl Tally {
    fn status(&self) -> Completion {
        Completion::bad_if(self.bad > 0)
    }
}

/// Reads every game of `base`, hands the good ones to `each`, reports the
/// bad ones to `report`, then the summary line.
fn read_base(
    base: &Path,
    report: &mut dyn Write,
    mut each: impl FnMut(CbGame) -> Result<(), CbfError>,
) -> Result<Completion, CbfError> {
    let games = open_base(base)?;
    let name = sibling(base, "cbi").display().to_string();
    let w = CbfError::Report;
    let mut t = Tally::default();
    if let Some(m) = games.end_mismatch() {
        // Bytes past the end (an append cut short) or missing: the games
        // say which of them are hurt.
        writeln!(report, "{name}: {m}").map_err(w)?;
    }
    for (n, game) in games {
        t.games += 1;
        match game {
            Ok(g) => each(g)?,
            Err(e) => {
                t.bad += 1;
                writeln!(report, "{name}: {e}").map_err(w)?;
                if t.bad == t.games && t.games >= NOT_A_BASE_AFTER {
                    return Err(CbfError::NotABase { name, games: n });
                }
            }
        }
    }
    writeln!(report, "{} games, {} bad", t.games, t.bad).map_err(w)?;
    Ok(t.status())
}

/// `argus cbf to-pgn BASE [OUT]`.
fn to_pgn(
    base: &Path,
    output: Option<&Path>,
    report: &mut dyn Write,
) -> Result<Completion, CbfError> {
    let mut write = |out: &mut dyn Write| {
        read_base(base, report, |g| {
            out.write_all(write_tree(&to_tree(&g)).as_bytes())
                .map_err(CbfError::Pgn)
        })
    };
    match output.filter(|p| *p != Path::new(STDIO)) {
        Some(path) => {
            if is_base_file(path, base) {
                return Err(CbfError::OutIsBase(path.to_path_buf()));
            }
            let mut out = AtomicFile::create(path).map_err(CbfError::Out)?;
            let status = write(&mut out)?;
            out.commit().map_err(CbfError::Out)?;
            Ok(status)
        }
        None => write(&mut io::stdout().lock()),
    }
}

/// Whether `path` is one of the base's two files (as they are now).
fn is_base_file(path: &Path, base: &Path) -> bool {
    let Ok(path) = std::fs::canonicalize(path) else {
        return false;
    };
    ["cbf", "cbi"]
        .iter()
        .any(|ext| std::fs::canonicalize(sibling(base, ext)).ok().as_ref() == Some(&path))
}

/// `argus cbf check BASE`.
fn check(base: &Path, report: &mut dyn Write) -> Result<Completion, CbfError> {
    read_base(base, report, |_| Ok(()))
}

/// `argus cbf from-pgn IN BASE`.
fn from_pgn_file(
    input: &Path,
    base: &Path,
    report: &mut dyn Write,
) -> Result<Completion, CbfError> {
    let name = input.display().to_string();
    if is_base_file(input, base) {
        return Err(CbfError::InIsBase(name));
    }
    let reader: Box<dyn io::BufRead> = if input == Path::new(STDIO) {
        Box::new(io::stdin().lock())
    } else {
        let f = File::open(input).map_err(|source| CbfError::OpenInput {
            name: name.clone(),
            source,
        })?;
        Box::new(BufReader::new(f))
    };
    let w = CbfError::Report;
    let mut out = BaseWriter::create(base)?;
    let mut t = Tally::default();
    let mut damaged = 0u64;
    let mut tags_dropped = 0u64;
    for game in PgnReader::new(reader) {
        t.games += 1;
        let n = t.games;
        let text = match game {
            Ok(text) => text,
            Err(e) if e.kind == PgnErrorKind::Unreadable => {
                return Err(CbfError::Unreadable {
                    name,
                    line: e.line,
                    message: e.message,
                });
            }
            Err(e) => {
                t.bad += 1;
                writeln!(
                    report,
                    "{name}: game {n} (line {}): left out: {}",
                    e.line, e.message
                )
                .map_err(w)?;
                if t.bad == t.games && t.games >= NOT_A_BASE_AFTER {
                    return Err(CbfError::NotPgn { name, games: n });
                }
                continue;
            }
        };
        let at = format!("{name}: game {n} (line {})", text.line);
        let (lost, tags) = store_game(&text, &at, &mut out, report, &mut t)?;
        damaged += u64::from(lost);
        tags_dropped += u64::from(tags);
    }
    if t.games == 0 {
        return Err(CbfError::NoGames(name));
    }
    let stored = out.count();
    out.finish()?;
    writeln!(
        report,
        "{} games, {} bad, {stored} written to {} and {}; {damaged} lost a part the format \
         cannot hold, {tags_dropped} had tags it has no place for",
        t.games,
        t.bad,
        sibling(base, "cbf").display(),
        sibling(base, "cbi").display()
    )
    .map_err(w)?;
    Ok(if damaged > 0 {
        Completion::SomeBad
    } else {
        t.status()
    })
}

/// One game read from the PGN file into the base (or left out, counted
/// bad), with what the format could not hold said under `at`: whether it
/// lost a part, and whether it had tags the format has no place for (the
/// two kinds of lines the report gives a game, counted apart in the
/// summary).
fn store_game(
    text: &PgnText,
    at: &str,
    out: &mut BaseWriter,
    report: &mut dyn Write,
    t: &mut Tally,
) -> Result<(bool, bool), CbfError> {
    let w = CbfError::Report;
    let c = from_pgn(text);
    match c.record() {
        Ok(bytes) => out.push(&bytes)?,
        Err(e) => {
            t.bad += 1;
            writeln!(report, "{at}: left out: {e}").map_err(w)?;
        }
    }
    for loss in &c.losses {
        writeln!(report, "{at}: {loss}").map_err(w)?;
    }
    if !c.tags_not_kept.is_empty() {
        writeln!(
            report,
            "{at}: tags not kept (the format has no place for them): {}",
            c.tags_not_kept.join(", ")
        )
        .map_err(w)?;
    }
    Ok((!c.losses.is_empty(), !c.tags_not_kept.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PGN: &str = "[Event \"Test\"]\n[Site \"Here\"]\n[White \"A\"]\n[Black \"B\"]\n\
        [Result \"1-0\"]\n\n1. e4 {best} e5 (1... c5 $1 2. Nf3) 2. Nf3 $2 1-0\n\n\
        [White \"C\"]\n[Black \"D\"]\n\n1. e4 e5 2. Ke3 *\n\n\
        [White \"E\"]\n[Black \"F\"]\n[WhiteElo \"1000\"]\n\n1. d4 *\n";

    fn run(f: impl FnOnce(&mut Vec<u8>) -> Result<Completion, CbfError>) -> (Completion, String) {
        let mut report = Vec::new();
        let status = f(&mut report).unwrap();
        (status, String::from_utf8(report).unwrap())
    }

    /// [`PGN`] written as the base `name` in a new directory: the
    /// directory, the PGN file, the base and the report.
    fn written(name: &str) -> (tempfile::TempDir, PathBuf, PathBuf, (Completion, String)) {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.pgn");
        std::fs::write(&input, PGN).unwrap();
        let base = dir.path().join(name);
        let got = run(|r| from_pgn_file(&input, &base, r));
        (dir, input, base, got)
    }

    #[test]
    fn pgn_to_base_and_back_reports_each_game() {
        let (dir, input, base, (status, report)) = written("out");
        assert_eq!(status, Completion::SomeBad, "{report}");
        let name = input.display();
        for want in [
            format!(
                "{name}: game 1 (line 1): tags not kept (the format has no place for them): Site"
            ),
            format!("{name}: game 2 (line 9): left out: line 12: move \"Ke3\""),
            format!("{name}: game 3 (line 14): WhiteElo \"1000\" left out"),
            "3 games, 1 bad, 2 written".to_string(),
        ] {
            assert!(report.contains(&want), "{want} in {report}");
        }
        // The summary agrees with the lines above it: game 3 lost its Elo,
        // game 1 had a tag without a field (game 2 was left out).
        assert!(
            report.ends_with(
                "; 1 lost a part the format cannot hold, 1 had tags it has no place for\n"
            ),
            "{report}"
        );
        let out = dir.path().join("back.pgn");
        let (status, report) = run(|r| to_pgn(&base, Some(&out), r));
        assert_eq!(
            (status, report.as_str()),
            (Completion::Normal, "2 games, 0 bad\n")
        );
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(
            text.contains("1. e4 {best} 1... e5 ( 1... c5 $1 2. Nf3 ) 2. Nf3 $2 1-0"),
            "{text}"
        );
        assert!(text.contains("[White \"E\"]"), "{text}");
        let (status, report) = run(|r| check(&dir.path().join("out.cbf"), r));
        assert_eq!(
            (status, report.as_str()),
            (Completion::Normal, "2 games, 0 bad\n")
        );
    }

    #[test]
    fn a_bad_game_is_reported_by_number_and_the_rest_read() {
        let (dir, _, base, _) = written("b");
        // The last game's record is cut short.
        let cbf = dir.path().join("b.cbf");
        let mut bytes = std::fs::read(&cbf).unwrap();
        bytes.truncate(bytes.len() - 2);
        std::fs::write(&cbf, bytes).unwrap();
        let (status, report) = run(|r| check(&base, r));
        assert_eq!(status, Completion::SomeBad, "{report}");
        let cbi = dir.path().join("b.cbi").display().to_string();
        assert!(
            report.contains(&format!("\n{cbi}: game 2: CBF byte ")),
            "{report}"
        );
        assert!(report.ends_with("2 games, 1 bad\n"), "{report}");
        let (status, _) = run(|r| to_pgn(&base, Some(&dir.path().join("o.pgn")), r));
        assert_eq!(status, Completion::SomeBad);
        let text = std::fs::read_to_string(dir.path().join("o.pgn")).unwrap();
        assert!(text.contains("[White \"A\"]") && !text.contains("[White \"E\"]"));
    }

    #[test]
    fn a_file_that_is_not_a_base_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("junk");
        let mut cbi = 1000u32.to_be_bytes().to_vec();
        cbi.extend((0..1000u32).flat_map(|_| 7u32.to_be_bytes()));
        std::fs::write(dir.path().join("junk.cbi"), cbi).unwrap();
        std::fs::write(dir.path().join("junk.cbf"), [0u8; 400]).unwrap();
        let e = check(&base, &mut Vec::new()).unwrap_err();
        assert!(matches!(e, CbfError::NotABase { .. }), "{e}");
        assert!(e.to_string().contains("not a ChessBase base"), "{e}");
        let cbf = dir.path().join("junk.cbf");
        let e = to_pgn(&base, Some(&cbf), &mut Vec::new()).unwrap_err();
        assert!(matches!(e, CbfError::OutIsBase(_)), "{e}");
        assert!(
            e.to_string().contains("must not be a file of the base"),
            "{e}"
        );
        let e = from_pgn_file(&cbf, &base, &mut Vec::new()).unwrap_err();
        assert!(matches!(e, CbfError::InIsBase(_)), "{e}");
        assert!(
            e.to_string().contains("must not be a file of the base"),
            "{e}"
        );
        assert_eq!(std::fs::read(&cbf).unwrap(), [0u8; 400]);
        let e = check(&dir.path().join("none"), &mut Vec::new()).unwrap_err();
        assert!(matches!(e, CbfError::Base(_)), "{e}");
        assert!(e.to_string().contains("none.cbi"), "{e}");
        let empty = dir.path().join("empty.pgn");
        std::fs::write(&empty, "").unwrap();
        let e = from_pgn_file(&empty, &base, &mut Vec::new()).unwrap_err();
        assert!(matches!(e, CbfError::NoGames(_)), "{e}");
        assert!(e.to_string().contains("no games"), "{e}");
        let binary = dir.path().join("binary.pgn");
        std::fs::write(&binary, "[x\n\n1. )\n\n".repeat(30)).unwrap();
        let e = from_pgn_file(&binary, &dir.path().join("b2"), &mut Vec::new()).unwrap_err();
        assert!(matches!(e, CbfError::NotPgn { .. }), "{e}");
        assert!(e.to_string().contains("not a PGN file"), "{e}");
        assert!(!dir.path().join("b2.cbf").exists());
    }
}
