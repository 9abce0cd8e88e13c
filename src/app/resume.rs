//! `argus resume JOURNAL [PORT_A PORT_B]`: carry on with an event (a
//! tournament, or a match: a tournament of two) whose referee stopped,
//! from its journal ([`crate::app::tournament::resume`]). A match's one
//! journal of the layout before a match ran as an event of two is
//! refused, naming the argus that wrote it, which resumes it.

use std::path::Path;

use crate::app::options::ResumeArgs;
use crate::app::{Exit, Failure};
use crate::journal::kind::{self, Kind};

/// Runs `argus resume`: how the event ended, or why it could not start
/// or went wrong.
pub fn run(args: ResumeArgs) -> Exit {
    match kind::kind_of_file(&args.journal).map_err(Failure::usage)? {
        Kind::Tournament => crate::app::tournament::resume(&args),
        Kind::Match => Err(Failure::usage(not_an_events_journal(&args.journal))),
    }
}

/// Why a referee journal (`argus-journal`, not an event's) is not carried
/// on: it is one game's journal of an event (its `game-NNN/` directory
/// says so), or a match's one journal written before a match ran as an
/// event of two.
fn not_an_events_journal(path: &Path) -> String {
    let shown = path.display();
    let in_game_dir = path
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|d| d.to_string_lossy().starts_with("game-"));
    if in_game_dir {
        return format!(
            "{shown} is the journal of one game of an event: carry the event on with `argus \
             resume` of its journal (tournament.journal, or the --journal it was given, in the \
             directory above)"
        );
    }
    let writer = kind::writer_of_file(path).unwrap_or_else(|| "an older argus".into());
    format!(
        "{shown} is a match's one journal, written by {writer}: since argus {} a match runs as \
         an event of two (its journal tournament.journal, each game's beside it), and only \
         those are carried on; carry this one on with the argus that wrote it ({writer})",
        env!("CARGO_PKG_VERSION")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_games_journal_and_an_old_matchs_journal_are_told_apart() {
        let dir = tempfile::tempdir().unwrap();
        let game = dir.path().join("game-003");
        std::fs::create_dir(&game).unwrap();
        let e = not_an_events_journal(&game.join("journal.log"));
        assert!(e.contains("one game of an event"), "{e}");
        let old = dir.path().join("journal.log");
        std::fs::write(
            &old,
            "argus-journal 1 argus\\x200.1.0 3e7c050f\nsession x 1\n",
        )
        .unwrap();
        let e = not_an_events_journal(&old);
        assert!(
            e.contains("a match's one journal, written by argus 0.1.0"),
            "{e}"
        );
        assert!(
            e.contains("with the argus that wrote it (argus 0.1.0)"),
            "{e}"
        );
    }
}
