//! The Syzygy endgame tables on disk (`--syzygy DIR`): opened once, probed
//! at the edge after every move of a game (the core does no file I/O); a
//! verdict goes to the core as [`Input::Tablebase`], journaled like every
//! input. Probing uses shakmaty-syzygy, the tables' reader for the chess
//! crate the project is built on.
//!
//! A position is judged when it has no more pieces than the largest table
//! found and no castling rights. Right after a capture or pawn move the
//! WDL tables alone decide; later in an ending the DTZ tables are needed
//! too, to tell whether the 50-move rule spoils a win, and a verdict that
//! stays ambiguous (DTZ rounding) is not given.
//!
//! [`Input::Tablebase`]: crate::referee::Input::Tablebase

use shakmaty::{Chess, Color, Position, Role};
use shakmaty_syzygy::{SyzygyError, Tablebase, Wdl};

use crate::referee::tablebase::{TablebaseOutcome, TablebaseVerdict};

/// The tables of one or more directories.
pub struct Syzygy {
    tables: Tablebase<Chess>,
    /// What `--syzygy` named (for messages).
    paths: String,
}

/// Why `--syzygy` gives no tables: the directory and what was wrong.
#[derive(Debug, thiserror::Error)]
pub enum TablesError {
    #[error("--syzygy: cannot read the tables in {}: {source}", .dir.display())]
    Unreadable {
        dir: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("--syzygy: no Syzygy tables (files such as KRvK.rtbw) in {0}")]
    NoTables(String),
}

error_words!(TablesError);

/// A table that could not be read while probing: where the tables are (as
/// given) and the reader's error; the position goes without a verdict.
#[derive(Debug, thiserror::Error)]
#[error("Syzygy tables in {paths}: {error}")]
pub struct ProbeError {
    pub paths: String,
    pub error: SyzygyError,
}

impl Syzygy {
    /// Opens the tables in `paths`: one directory, or several joined as
    /// the platform joins paths (`:` on Unix, `;` on Windows), as engines'
    /// `SyzygyPath` option takes them. Fails, saying which, if a directory
    /// cannot be read or none holds a table.
    pub fn open(paths: &str) -> Result<Syzygy, TablesError> {
        let mut tables = Tablebase::new();
        let mut found = 0;
        for dir in std::env::split_paths(paths) {
            found += tables
                .add_directory(&dir)
                .map_err(|source| TablesError::Unreadable { dir, source })?;
        }
        if found == 0 {
            return Err(TablesError::NoTables(paths.to_string()));
        }
        Ok(Syzygy {
            tables,
            paths: paths.to_string(),
        })
    }

    /// Where the tables are, as given.
    pub fn paths(&self) -> &str {
        &self.paths
    }

    /// The most pieces a position may have to be found in the tables.
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// The tables' verdict on `pos`, reached after `ply` plies; `None` when
    /// the position is not in the tables (too many pieces, castling rights,
    /// a table missing) or the verdict is ambiguous. An error is a table
    /// that could not be read, with what was wrong.
    pub fn probe(&self, pos: &Chess, ply: usize) -> Result<Option<TablebaseVerdict>, ProbeError> {
        if pos.board().occupied().count() > self.max_pieces() || pos.castles().any() {
            return Ok(None);
        }
        let wdl = if pos.halfmoves() == 0 {
            self.tables.probe_wdl_after_zeroing(pos).map(Some)
        } else {
            self.tables.probe_wdl(pos).map(|w| w.unambiguous())
        };
        let wdl = match wdl {
            Ok(Some(w)) => w,
            Ok(None)
            | Err(SyzygyError::MissingTable { .. })
            | Err(SyzygyError::Castling)
            | Err(SyzygyError::TooManyPieces) => return Ok(None),
            Err(error) => {
                return Err(ProbeError {
                    paths: self.paths.clone(),
                    error,
                });
            }
        };
        let mover = pos.turn();
        let outcome = match wdl {
            Wdl::Win => TablebaseOutcome::Win(mover),
            Wdl::Loss => TablebaseOutcome::Win(!mover),
            Wdl::CursedWin => TablebaseOutcome::CursedWin(mover),
            Wdl::BlessedLoss => TablebaseOutcome::CursedWin(!mover),
            Wdl::Draw => TablebaseOutcome::Draw,
        };
        Ok(Some(TablebaseVerdict {
            ply,
            material: material(pos),
            outcome,
        }))
    }
}

/// The material, White's first: `KRvK`, `KvKQ`, `KBPvKN`.
fn material(pos: &Chess) -> String {
    let side = |c: Color| {
        let m = pos.board().material_side(c);
        let mut s = String::from("K");
        for role in [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            for _ in 0..m[role] {
                s.push(role.upper_char());
            }
        }
        s
    };
    format!("{}v{}", side(Color::White), side(Color::Black))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn fixtures() -> String {
        concat!(env!("CARGO_MANIFEST_DIR"), "/hw-tests/fixtures/syzygy").to_string()
    }

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn won_drawn_and_lost_endings_are_judged_from_the_tables() {
        let tb = Syzygy::open(&fixtures()).unwrap();
        assert_eq!(tb.max_pieces(), 3);
        let judge = |fen: &str| {
            tb.probe(&pos(fen), 90)
                .unwrap()
                .map(|v| (v.material, v.outcome))
        };
        // White to move, queen against king: a win for White.
        assert_eq!(
            judge("8/8/8/4k3/8/8/8/4KQ2 w - - 0 60"),
            Some(("KQvK".into(), TablebaseOutcome::Win(Color::White)))
        );
        // Black's rook, White to move (after a capture): a win for Black.
        assert_eq!(
            judge("8/8/8/4k3/8/8/8/r3K3 w - - 0 60"),
            Some(("KvKR".into(), TablebaseOutcome::Win(Color::Black)))
        );
        // A rook pawn with the defending king in front: a draw.
        assert_eq!(
            judge("k7/8/8/8/8/8/P7/K7 w - - 0 60"),
            Some(("KPvK".into(), TablebaseOutcome::Draw))
        );
        // Later in the ending (no capture or pawn move for 10 plies) the
        // DTZ table decides: still a win, well inside the 50-move rule.
        assert_eq!(
            judge("8/8/8/4k3/8/8/8/4KQ2 w - - 10 65"),
            Some(("KQvK".into(), TablebaseOutcome::Win(Color::White)))
        );
        // A drawn ending needs no DTZ table (only KBvK.rtbw is there).
        assert_eq!(
            judge("8/8/8/4k3/8/8/8/4KB2 w - - 10 65"),
            Some(("KBvK".into(), TablebaseOutcome::Draw))
        );
    }

    #[test]
    fn a_win_in_a_quiet_position_without_its_dtz_table_gets_no_verdict() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(
            format!("{}/KQvK.rtbw", fixtures()),
            dir.path().join("KQvK.rtbw"),
        )
        .unwrap();
        let tb = Syzygy::open(&dir.path().display().to_string()).unwrap();
        let won = pos("8/8/8/4k3/8/8/8/4KQ2 w - - 0 60");
        assert!(
            tb.probe(&won, 1).unwrap().is_some(),
            "after a capture WDL decides"
        );
        // Ten quiet plies later: the 50-move rule could matter, DTZ is
        // needed, and there is none: no guess.
        let quiet = pos("8/8/8/4k3/8/8/8/4KQ2 w - - 10 65");
        assert_eq!(tb.probe(&quiet, 1).unwrap(), None);
    }

    #[test]
    fn a_position_outside_the_tables_gets_no_verdict() {
        let tb = Syzygy::open(&fixtures()).unwrap();
        // Four pieces: more than the largest table.
        assert_eq!(
            tb.probe(&pos("8/8/8/4k3/8/8/P7/4KQ2 w - - 0 60"), 1)
                .unwrap(),
            None
        );
        // The start position.
        assert_eq!(tb.probe(&Chess::default(), 0).unwrap(), None);
    }

    #[test]
    fn a_directory_without_tables_or_a_missing_one_is_refused_with_its_name() {
        let empty = tempfile::tempdir().unwrap();
        let e = Syzygy::open(&empty.path().display().to_string())
            .err()
            .unwrap();
        assert!(matches!(e, TablesError::NoTables(_)), "{e}");
        let e = e.to_string();
        assert!(
            e.contains("no Syzygy tables") && e.contains(&empty.path().display().to_string()),
            "{e}"
        );
        let e = Syzygy::open("/no/such/dir").err().unwrap().to_string();
        assert!(e.contains("cannot read the tables in /no/such/dir"), "{e}");
    }
}
