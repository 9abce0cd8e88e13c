//! Where an event's files go. Its journal is `tournament.journal` in the
//! log directory, or the file `--journal FILE` names; each game's journal
//! goes beside the event's (`game-NNN/journal.log` in the event journal's
//! directory), so that `resume`, `watch`, the feed and a watcher's copy
//! find the games from the event journal alone. The logs, the transcripts
//! (the event's and each game's, `game-NNN/transcript.log`) and the
//! engines' logs stay in the log directory. A game played again (it ended
//! without a result) starts in a directory of its own in both
//! (`game-007-2/`), numbered by the journals there are.

use std::path::{Path, PathBuf};

use crate::app::Failure;
use crate::app::start::{LogDir, StartError};
use crate::journal::kind::{Kind, kind_of_file, writer_of_file};

/// The event journal's file name in the log directory (without
/// `--journal`), and the name a feed serves it by whatever its file is
/// called.
pub const JOURNAL: &str = "tournament.journal";
/// A game's journal's name in its directory.
const GAME_JOURNAL: &str = "journal.log";

/// Where an event keeps its journals and its logs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The event's journal.
    journal: PathBuf,
    /// Its journal's directory: the games' journals' root.
    journal_dir: PathBuf,
    /// The logs and transcripts.
    log_dir: PathBuf,
}

/// Where one start of a game writes: its journal (a file) and its
/// transcript's directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameDirs {
    pub journal: PathBuf,
    pub logs: PathBuf,
}

/// The directory of the `attempt`-th start (1, 2, ...) of game `game`
/// under `root`: `game-007`, then `game-007-2`, ...
pub fn attempt_dir(root: &Path, game: u32, attempt: u32) -> PathBuf {
    match attempt {
        0 | 1 => root.join(format!("game-{game:03}")),
        n => root.join(format!("game-{game:03}-{n}")),
    }
}

/// The game's latest attempt under the journals' root `root`: the last
/// whose journal exists (1 when none does).
fn latest_attempt(root: &Path, game: u32) -> u32 {
    let mut latest = 1;
    while attempt_dir(root, game, latest + 1)
        .join(GAME_JOURNAL)
        .exists()
    {
        latest += 1;
    }
    latest
}

/// The journal of game `game` (its latest attempt's) under the journals'
/// root `root`, the event journal's directory: `game-007/journal.log`.
pub fn game_journal(root: &Path, game: u32) -> PathBuf {
    attempt_dir(root, game, latest_attempt(root, game)).join(GAME_JOURNAL)
}

impl Layout {
    /// The layout of an event whose log directory is `log_dir` and whose
    /// journal is `journal` (`--journal`; made absolute), or
    /// `tournament.journal` in the log directory.
    pub fn new(log_dir: &Path, journal: Option<&Path>) -> Layout {
        let journal = match journal {
            Some(j) => std::path::absolute(j).unwrap_or_else(|_| j.to_path_buf()),
            None => log_dir.join(JOURNAL),
        };
        let journal_dir = match journal.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Layout {
            journal,
            journal_dir,
            log_dir: log_dir.to_path_buf(),
        }
    }

    /// The layout a resume from the event journal `journal` writes to:
    /// the event's own (`recorded`, as its command line gives it) when
    /// `journal` is the file that command wrote; else (a watcher's copy,
    /// or a directory moved) everything beside `journal`, its directory
    /// the log directory as well.
    pub fn resumed(journal: &Path, recorded: &Layout) -> Layout {
        let same = match (
            std::fs::canonicalize(journal),
            std::fs::canonicalize(&recorded.journal),
        ) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        if same {
            return Layout {
                journal: journal.to_path_buf(),
                ..recorded.clone()
            };
        }
        let dir = Layout::new(Path::new(""), Some(journal)).journal_dir;
        Layout::new(&dir, Some(journal))
    }

    /// This layout with its transcripts and logs in `dir` (a resume's
    /// `--log-dir`); the journals stay where they are.
    pub fn with_log_dir(self, dir: &Path) -> Layout {
        Layout {
            log_dir: dir.to_path_buf(),
            ..self
        }
    }

    /// The event's journal.
    pub fn journal(&self) -> &Path {
        &self.journal
    }

    /// The event journal's directory, where the games' journals are.
    pub fn journal_dir(&self) -> &Path {
        &self.journal_dir
    }

    /// The log directory.
    pub fn log_dir(&self) -> &Path {
        &self.log_dir
    }

    /// Whether the journals are kept apart from the log directory.
    fn apart(&self) -> bool {
        let same = match (
            std::fs::canonicalize(&self.journal_dir),
            std::fs::canonicalize(&self.log_dir),
        ) {
            (Ok(a), Ok(b)) => a == b,
            _ => self.journal_dir == self.log_dir,
        };
        !same
    }

    /// Where game `game` was last started (`game-007` when it has not
    /// been): its journal and its transcript's directory.
    pub fn latest_game(&self, game: u32) -> GameDirs {
        self.attempt(game, latest_attempt(&self.journal_dir, game))
    }

    /// Where a start of game `game` goes: its latest attempt if that has
    /// no journal yet (or an empty one: a stop as it was being set up),
    /// else the next attempt.
    pub fn fresh_game(&self, game: u32) -> GameDirs {
        let latest = latest_attempt(&self.journal_dir, game);
        let dirs = self.attempt(game, latest);
        if std::fs::metadata(&dirs.journal).map_or(true, |m| m.len() == 0) {
            dirs
        } else {
            self.attempt(game, latest + 1)
        }
    }

    fn attempt(&self, game: u32, attempt: u32) -> GameDirs {
        GameDirs {
            journal: attempt_dir(&self.journal_dir, game, attempt).join(GAME_JOURNAL),
            logs: attempt_dir(&self.log_dir, game, attempt),
        }
    }

    /// Takes the log directory, and the journal's directory when it is
    /// another (one event's journals per directory: its games' are named
    /// `game-NNN` there).
    pub fn claim(&self) -> Result<Claimed, Failure> {
        let logs = LogDir::claim(&self.log_dir).map_err(Failure::usage)?;
        let journals = if self.apart() {
            Some(LogDir::claim(&self.journal_dir).map_err(|e| self.journal_dir_refused(e))?)
        } else {
            None
        };
        Ok(Claimed { logs, journals })
    }

    /// Why the journal's directory cannot be taken, in `--journal`'s words.
    fn journal_dir_refused(&self, e: StartError) -> Failure {
        let (file, dir) = (self.journal.display(), self.journal_dir.display());
        Failure::usage(match e {
            StartError::LogDirInUse { holder, .. } => format!(
                "--journal {file}: its directory {dir} is in use by another argus ({holder}), \
                 whose games' journals go there too: give --journal in another directory"
            ),
            StartError::CreateLogDir { source, .. } => {
                format!("--journal {file}: cannot create its directory {dir}: {source}")
            }
            StartError::OpenLock { path, source } | StartError::WriteLock { path, source } => {
                format!(
                    "--journal {file}: its directory {dir} cannot be written (the lock file {}: \
                     {source})",
                    path.display()
                )
            }
            e => format!("--journal {file}: {e}"),
        })
    }

    /// Refuses a new event where another's journals are: a journal at the
    /// event journal's path (an event's: resume it; a match's of the
    /// layout before a match ran as a tournament of two: named with the
    /// version that wrote it), or games' journals in its directory.
    pub fn refuse_taken(&self) -> Result<(), TakenError> {
        let path = &self.journal;
        let another = if self.journal == self.log_dir.join(JOURNAL) {
            "another --log-dir"
        } else {
            "another --journal"
        };
        if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            return Err(TakenError::Directory(path.clone()));
        }
        if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
            let path = path.clone();
            return Err(match kind_of_file(&path) {
                Ok(Kind::Tournament) => TakenError::Event { path, another },
                Ok(Kind::Match) => TakenError::OldMatch {
                    held: old_match(&path),
                    writer: writer_of_file(&path).unwrap_or_else(|| "an argus".into()),
                    path,
                    another,
                },
                Err(error) => TakenError::NotAJournal {
                    path,
                    error,
                    another,
                },
            });
        }
        if let Some(game) = games_in(&self.journal_dir) {
            return Err(TakenError::Games {
                dir: self.journal_dir.clone(),
                game,
                another,
            });
        }
        Ok(())
    }
}

/// Why a new event does not start where it was told to
/// ([`Layout::refuse_taken`]): what is already there, and the flag to
/// change (`another`: `another --journal` or `another --log-dir`);
/// nothing there is touched.
#[derive(Debug, thiserror::Error)]
pub enum TakenError {
    /// The event journal's path is a directory.
    #[error("--journal {} is a directory; give a file", .0.display())]
    Directory(PathBuf),
    /// It holds an event's journal.
    #[error(
        "{} already holds an event: carry it on with `argus resume {}`, or give {another}",
        .path.display(),
        .path.display()
    )]
    Event {
        path: PathBuf,
        another: &'static str,
    },
    /// It holds a match's journal of the layout before a match ran on the
    /// tournament's director (one journal for all its games): `held` says
    /// which match, `writer` the argus that wrote it.
    #[error(
        "the journal {} already holds {held}, written by {writer} as a match's one \
         journal; a new match never writes into another match's journal: carry that one on \
         with `argus resume {} PORT_A PORT_B` (by {writer}, which wrote it), or move it \
         away, or give {another}",
        .path.display(),
        .path.display()
    )]
    OldMatch {
        path: PathBuf,
        held: String,
        writer: String,
        another: &'static str,
    },
    /// It holds something else, or cannot be read.
    #[error(
        "{} exists and is not an empty journal ({error}); a new event does not write into \
         it: move it away, or give {another}",
        .path.display()
    )]
    NotAJournal {
        path: PathBuf,
        error: crate::journal::kind::KindError,
        another: &'static str,
    },
    /// Its directory holds another event's games' journals (`game`, the
    /// first of them).
    #[error(
        "{} already holds another event's games' journals ({}): one event's journals per \
         directory; give {another}",
        .dir.display(),
        .game.display()
    )]
    Games {
        dir: PathBuf,
        game: PathBuf,
        another: &'static str,
    },
}

/// Which match the journal at `path` of the layout before a match ran on
/// the tournament's director (one journal for all its games) holds.
fn old_match(path: &Path) -> String {
    match crate::journal::load(path) {
        Ok(old) => format!(
            "another match (session {}, {})",
            old.header.session,
            if old.replay.core().is_over() {
                "over"
            } else {
                "not over"
            }
        ),
        Err(e) => format!("another match's journal, which does not load ({e})"),
    }
}

/// The first game journal in `dir` (`game-NNN/journal.log` or an attempt's,
/// not empty), if any.
fn games_in(dir: &Path) -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("game-"))
        .map(|e| e.path().join(GAME_JOURNAL))
        .filter(|j| std::fs::metadata(j).is_ok_and(|m| m.len() > 0))
        .collect();
    found.sort();
    found.into_iter().next()
}

/// The directories an event holds while it runs: the log directory, and
/// the journal's when it is another. Until [`Claimed::keep`], dropping it
/// removes what the start made.
#[derive(Debug)]
pub struct Claimed {
    pub logs: LogDir,
    journals: Option<LogDir>,
}

impl Claimed {
    /// Call before creating a journal: a failed start removes it.
    pub fn note_journal(&mut self, path: &Path) {
        self.journals.as_mut().unwrap_or(&mut self.logs).note(path);
    }

    /// The start succeeded: everything stays.
    pub fn keep(&mut self) {
        self.logs.keep();
        if let Some(j) = self.journals.as_mut() {
            j.keep();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn a_game_played_again_starts_in_a_directory_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path();
        let l = Layout::new(log, None);
        assert_eq!(l.journal(), log.join(JOURNAL));
        let first = log.join("game-007");
        let at = |d: &Path| GameDirs {
            journal: d.join(GAME_JOURNAL),
            logs: d.to_path_buf(),
        };
        assert_eq!(l.latest_game(7), at(&first));
        assert_eq!(l.fresh_game(7), at(&first), "nothing there yet");
        write(&first.join(GAME_JOURNAL), "");
        assert_eq!(l.fresh_game(7), at(&first), "an empty journal is taken");
        write(&first.join(GAME_JOURNAL), "argus-journal 1\n");
        let second = log.join("game-007-2");
        assert_eq!(l.fresh_game(7), at(&second));
        assert_eq!(game_journal(log, 7), first.join(GAME_JOURNAL));
        write(&second.join(GAME_JOURNAL), "argus-journal 1\n");
        assert_eq!(
            game_journal(log, 7),
            second.join(GAME_JOURNAL),
            "the latest"
        );
        assert_eq!(l.latest_game(7), at(&second));
        assert_eq!(l.fresh_game(7), at(&log.join("game-007-3")));
        assert_eq!(l.latest_game(8), at(&log.join("game-008")), "each its own");
    }

    /// With `--journal FILE`, the games' journals go beside FILE and their
    /// transcripts to the log directory, attempt for attempt; the
    /// attempts are counted by the journals.
    #[test]
    fn a_journal_elsewhere_takes_the_games_journals_with_it() {
        let dir = tempfile::tempdir().unwrap();
        let (logs, kept) = (dir.path().join("logs"), dir.path().join("kept"));
        let l = Layout::new(&logs, Some(&kept.join("m.journal")));
        assert_eq!(l.journal(), kept.join("m.journal"));
        assert_eq!(l.journal_dir(), kept);
        assert_eq!(
            l.fresh_game(2),
            GameDirs {
                journal: kept.join("game-002/journal.log"),
                logs: logs.join("game-002"),
            }
        );
        // A transcript in the log directory does not count as a start.
        write(&logs.join("game-002/transcript.log"), "x\n");
        assert_eq!(l.fresh_game(2).logs, logs.join("game-002"));
        write(&kept.join("game-002/journal.log"), "argus-journal 1\n");
        assert_eq!(
            l.fresh_game(2),
            GameDirs {
                journal: kept.join("game-002-2/journal.log"),
                logs: logs.join("game-002-2"),
            }
        );
        assert_eq!(l.latest_game(2).logs, logs.join("game-002"));
        // A bare file name is in the working directory, made absolute.
        let bare = Layout::new(&logs, Some(Path::new("m.journal")));
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(bare.journal(), cwd.join("m.journal"));
        assert_eq!(bare.journal_dir(), cwd);
    }

    /// A resume from the file the event's command line named writes the
    /// logs where that command said; from any other file (a watcher's
    /// copy), everything goes beside the file.
    #[test]
    fn a_resume_writes_the_logs_where_the_event_did_unless_from_a_copy() {
        let dir = tempfile::tempdir().unwrap();
        let (logs, kept) = (dir.path().join("logs"), dir.path().join("kept"));
        let recorded = Layout::new(&logs, Some(&kept.join("m.journal")));
        write(&kept.join("m.journal"), "argus-tournament 1\n");
        let via = kept.join(".").join("m.journal");
        let r = Layout::resumed(&via, &recorded);
        assert_eq!(r.log_dir(), logs);
        assert_eq!(r.journal_dir(), kept);
        assert_eq!(r.journal(), via);
        let copy = dir.path().join("copy").join(JOURNAL);
        write(&copy, "argus-tournament 1\n");
        let r = Layout::resumed(&copy, &recorded);
        assert_eq!(r.log_dir(), dir.path().join("copy"));
        assert_eq!(r.journal_dir(), dir.path().join("copy"));
        // A tournament's own directory: the same either way.
        let t = Layout::new(&logs, None);
        write(t.journal(), "argus-tournament 1\n");
        assert_eq!(Layout::resumed(t.journal(), &t), t);
    }

    #[test]
    fn another_events_journals_are_refused_naming_them() {
        let dir = tempfile::tempdir().unwrap();
        let kept = dir.path().join("kept");
        let file = kept.join("m.journal");
        let l = Layout::new(&dir.path().join("logs"), Some(&file));
        assert!(l.refuse_taken().is_ok(), "nothing there");
        write(&file, "");
        assert!(l.refuse_taken().is_ok(), "an empty file is taken");
        write(&file, "argus-tournament 1 argus 0\n");
        let e = l.refuse_taken().unwrap_err();
        assert!(matches!(e, TakenError::Event { .. }), "{e:?}");
        let e = e.to_string();
        let f = file.display();
        assert_eq!(
            e,
            format!(
                "{f} already holds an event: carry it on with `argus resume {f}`, or give \
                 another --journal"
            )
        );
        write(&file, "[Event \"x\"]\n");
        let e = l.refuse_taken().unwrap_err();
        assert!(matches!(e, TakenError::NotAJournal { .. }), "{e:?}");
        let e = e.to_string();
        assert!(e.contains("is not an argus journal"), "{e}");
        assert!(
            e.ends_with("move it away, or give another --journal"),
            "{e}"
        );
        std::fs::remove_file(&file).unwrap();
        write(&kept.join("game-004-2/journal.log"), "argus-journal 1\n");
        let e = l.refuse_taken().unwrap_err();
        assert!(matches!(e, TakenError::Games { .. }), "{e:?}");
        let e = e.to_string();
        assert!(
            e.ends_with(&format!(
                "already holds another event's games' journals ({}): one event's journals \
                 per directory; give another --journal",
                kept.join("game-004-2/journal.log").display()
            )),
            "{e}"
        );
        // In the log directory, the flag to change is --log-dir.
        let t = Layout::new(&kept, None);
        let e = t.refuse_taken().unwrap_err().to_string();
        assert!(e.ends_with("give another --log-dir"), "{e}");
        std::fs::create_dir_all(&file).unwrap();
        let e = l.refuse_taken().unwrap_err();
        assert!(matches!(e, TakenError::Directory(_)), "{e:?}");
        let e = e.to_string();
        assert_eq!(e, format!("--journal {f} is a directory; give a file"));
    }

    /// A match's journal of the layout before the switch (one journal for
    /// the match, written by the match's own loop) is refused with its
    /// session and the version that wrote it.
    #[test]
    fn an_old_matchs_journal_is_refused_naming_the_version_that_wrote_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("journal.log");
        let header = crate::journal::Header {
            session: "0123456789abcdef".into(),
            settings: crate::referee::Settings::default(),
            port: crate::link::PortSettings::default(),
            output: crate::journal::OutputSettings::default(),
        };
        let wall = crate::referee::WallClock {
            at: 0,
            unix_ms: 0,
            utc_offset_min: 0,
        };
        drop(crate::journal::JournalWriter::create(&file, &header, wall).unwrap());
        let l = Layout::new(&dir.path().join("logs"), Some(&file));
        let e = l.refuse_taken().unwrap_err();
        assert!(matches!(e, TakenError::OldMatch { .. }), "{e:?}");
        let e = e.to_string();
        let (f, v) = (file.display(), env!("CARGO_PKG_VERSION"));
        assert_eq!(
            e,
            format!(
                "the journal {f} already holds another match (session 0123456789abcdef, not \
                 over), written by argus {v} as a match's one journal; a new match never \
                 writes into another match's journal: carry that one on with `argus resume \
                 {f} PORT_A PORT_B` (by argus {v}, which wrote it), or move it away, or give \
                 another --journal"
            )
        );
    }

    #[test]
    fn the_journals_directory_is_taken_as_the_log_directory_is() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("kept/m.journal");
        let l = Layout::new(&dir.path().join("logs"), Some(&file));
        let mut first = l.claim().unwrap();
        assert!(dir.path().join("kept/argus.lock").exists());
        // Another event with its journal beside this one's.
        let beside = Layout::new(
            &dir.path().join("logs-b"),
            Some(&dir.path().join("kept/b.j")),
        );
        let e = beside.claim().unwrap_err().to_string();
        assert!(
            e.contains("its directory") && e.contains("is in use by another argus (pid "),
            "{e}"
        );
        first.keep();
        drop(first);
        // In the log directory: one lock.
        let t = Layout::new(&dir.path().join("t"), None);
        let c = t.claim().unwrap();
        assert!(c.journals.is_none());
        // A directory that cannot be made.
        let blocked = dir.path().join("file");
        std::fs::write(&blocked, "").unwrap();
        let l = Layout::new(&dir.path().join("logs2"), Some(&blocked.join("m.journal")));
        let e = l.claim().unwrap_err().to_string();
        assert!(
            e.starts_with(&format!(
                "--journal {}: cannot create its directory",
                blocked.join("m.journal").display()
            )),
            "{e}"
        );
    }
}
