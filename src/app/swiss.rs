//! `argus swiss`: the Dutch pairing engine on a TRF file, in the form
//! arbiters' tools use (JaVaFo's and bbpPairings' `-p` output). The
//! pairing, the file format and the checker are [`crate::swiss`]; this
//! module reads the file, prints, and sets the exit status.
//!
//! Exit status: 0 when the pairing was made (`pair`) or every round agrees
//! (`check`); 1 when no pairing exists (`pair`) or some round differs or
//! cannot be paired (`check`); 2 when the file cannot be read or is not a
//! TRF file argus can pair (the error names the line).

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use clap::Subcommand;

use crate::exit::{Completion, Exit, Failure};
use crate::swiss::check::{Verdict, check};
use crate::swiss::{Pairing, dutch, trf};
use crate::text::strip_control;

/// The largest TRF file read (a 9999-player event of 99 rounds is under
/// 11 MB).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The verbs of `argus swiss`.
#[derive(Debug, Clone, Subcommand)]
pub enum SwissVerb {
    /// Pair the next round of a TRF file by the Dutch system.
    ///
    /// Prints the number of boards (the bye counts as one), then a line
    /// "WHITE BLACK" per board by pairing number, the bye as "N 0" last;
    /// the order is the publication order (highest scores first). The file
    /// must give the number of rounds (142 or XXR) and, before the first
    /// round, the first colour (152 W/B or XXC white1/black1). A player
    /// entry in the round after the last paired one is a requested bye or
    /// an absence: that player is not paired.
    #[command(after_help = "Examples:\n  \
        argus swiss pair event.trf\n  \
        argus swiss pair event.trf --output round5.txt")]
    Pair {
        /// The TRF file ("-": standard input).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Write the pairing here instead of standard output.
        #[arg(long, short = 'o', value_name = "OUT")]
        output: Option<PathBuf>,
    },
    /// Re-pair every round of a TRF file and report each difference.
    ///
    /// Each round is paired from the rounds before it, as the event stood
    /// then, and compared with the pairing the file gives. A round that
    /// differs is reported with both pairings side by side; a summary line
    /// ends the report. Exit status 1 when any round differs.
    #[command(after_help = "Examples:\n  \
        argus swiss check event.trf\n  \
        argus swiss check random-001.trf")]
    Check {
        /// The TRF file ("-": standard input).
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
}

impl SwissVerb {
    /// The command as messages name it (`argus swiss pair`).
    pub fn command(&self) -> &'static str {
        match self {
            SwissVerb::Pair { .. } => "argus swiss pair",
            SwissVerb::Check { .. } => "argus swiss check",
        }
    }
}

/// Runs a verb. A file that cannot be read or paired is a usage failure
/// (exit status 2); a round that cannot be paired, or a check that finds
/// a difference, is "some bad" (1).
pub fn run(verb: SwissVerb) -> Exit {
    match verb {
        SwissVerb::Pair { file, output } => pair(&file, output.as_deref()),
        SwissVerb::Check { file } => check_file(&file),
    }
}

/// A path as it may be shown.
fn shown(path: &Path) -> String {
    strip_control(&path.display().to_string())
}

/// Why `argus swiss` cannot read its TRF file or write its pairing: the
/// file (as shown: "-" for standard input) and what went wrong; nothing
/// is paired or written.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file cannot be opened or read.
    #[error("{}: {source}", shown(.path))]
    Read { path: PathBuf, source: io::Error },
    /// It is larger than [`MAX_FILE_BYTES`].
    #[error("{}: larger than {MAX_FILE_BYTES} bytes, not read", shown(.path))]
    TooLarge { path: PathBuf },
    /// It is not UTF-8 from byte `at` on.
    #[error("{}: not UTF-8 text (byte {at})", shown(.path))]
    NotUtf8 { path: PathBuf, at: usize },
    /// It is not a TRF file argus can pair (the error names the line).
    #[error("{}: {error}", shown(.path))]
    Trf { path: PathBuf, error: trf::TrfError },
    /// The pairing cannot be written to `--output`.
    #[error("{}: {source}", shown(.path))]
    Write { path: PathBuf, source: io::Error },
    /// The pairing cannot be written to standard output.
    #[error("standard output: {0}")]
    Stdout(io::Error),
}

/// The file's text, within [`MAX_FILE_BYTES`].
fn read_text(path: &Path) -> Result<String, FileError> {
    let mut bytes = Vec::new();
    let result = if path.as_os_str() == "-" {
        io::stdin().take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
    };
    let path = path.to_path_buf();
    if let Err(source) = result {
        return Err(FileError::Read { path, source });
    }
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(FileError::TooLarge { path });
    }
    String::from_utf8(bytes).map_err(|e| FileError::NotUtf8 {
        path,
        at: e.utf8_error().valid_up_to(),
    })
}

/// A board as the `-p` output writes it.
fn board_line(pairing: &Pairing) -> String {
    format!(
        "{} {}",
        pairing.white + 1,
        pairing.black.map_or(0, |b| b + 1)
    )
}

/// The pairing as `-p` output: the count, then a line per board.
pub fn pairing_text(pairing: &[Pairing]) -> String {
    let mut out = format!("{}\n", pairing.len());
    for board in pairing {
        out.push_str(&board_line(board));
        out.push('\n');
    }
    out
}

/// The file read as TRF (`for_pairing` as [`trf::read`]).
fn load(path: &Path, for_pairing: bool) -> Result<trf::Trf, FileError> {
    let text = read_text(path)?;
    trf::read(&text, for_pairing).map_err(|error| FileError::Trf {
        path: path.to_path_buf(),
        error,
    })
}

fn pair(path: &Path, output: Option<&Path>) -> Exit {
    let file = load(path, true).map_err(Failure::usage)?;
    if !file.colour_known {
        return Err(Failure::usage(format!(
            "{}: the first round's colour is not given: add \"152 W\" (or XXC white1) for White on the top board, \"152 B\" for Black",
            shown(path)
        )));
    }
    let mut event = file.event;
    event.update_ranks();
    let pairing = match dutch::pair(&event) {
        Ok(p) => p,
        Err(e) => {
            eprintln!(
                "argus swiss pair: {}: round {}: {e}",
                shown(path),
                event.played_rounds + 1
            );
            return Ok(Completion::SomeBad);
        }
    };
    let text = pairing_text(&pairing);
    let written = match output {
        Some(out) => std::fs::write(out, &text).map_err(|source| FileError::Write {
            path: out.to_path_buf(),
            source,
        }),
        None => io::stdout()
            .write_all(text.as_bytes())
            .map_err(FileError::Stdout),
    };
    written.map(|()| Completion::Normal).map_err(Failure::usage)
}

/// The report of `check`: a block per round that differs, then the
/// summary; and whether every round agreed.
pub fn check_report(name: &str, checks: &[crate::swiss::check::RoundCheck]) -> (String, bool) {
    let mut out = String::new();
    let mut bad = 0;
    for round in checks {
        match &round.verdict {
            Verdict::Same => {}
            Verdict::NoPairing(e) => {
                bad += 1;
                out.push_str(&format!(
                    "{name}: round {}: {e}, but the file pairs it\n",
                    round.round
                ));
            }
            Verdict::Differs { expected, actual } => {
                bad += 1;
                out.push_str(&format!(
                    "{name}: round {}: the pairing differs\n",
                    round.round
                ));
                out.push_str(&format!("  {:<14}{}\n", "argus", "file"));
                for i in 0..expected.len().max(actual.len()) {
                    let cell = |p: Option<&Pairing>| {
                        p.map_or(String::new(), |p| {
                            format!("{:>4} - {:<4}", p.white + 1, p.black.map_or(0, |b| b + 1))
                        })
                    };
                    out.push_str(
                        format!("  {:<14}{}\n", cell(expected.get(i)), cell(actual.get(i)))
                            .trim_end(),
                    );
                    out.push('\n');
                }
            }
        }
    }
    out.push_str(&format!(
        "{name}: {} rounds checked, {bad} differ\n",
        checks.len()
    ));
    (out, bad == 0)
}

fn check_file(path: &Path) -> Exit {
    let file = load(path, false).map_err(Failure::usage)?;
    let checks = check(&file.event);
    let (report, all_same) = check_report(&shown(path), &checks);
    print!("{report}");
    Ok(Completion::bad_if(!all_same))
}

#[cfg(test)]
mod tests {
    use super::{FileError, read_text};

    #[test]
    fn a_file_that_does_not_read_is_said_by_its_kind_and_name() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("none.trf");
        let e = read_text(&missing).unwrap_err();
        assert!(matches!(e, FileError::Read { .. }), "{e:?}");
        assert!(
            e.to_string()
                .starts_with(&format!("{}: ", missing.display())),
            "{e}"
        );
        let latin = dir.path().join("latin1.trf");
        std::fs::write(&latin, b"012 Caf\xe9\n").unwrap();
        let e = read_text(&latin).unwrap_err();
        assert!(matches!(e, FileError::NotUtf8 { at: 7, .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!("{}: not UTF-8 text (byte 7)", latin.display())
        );
    }
}
