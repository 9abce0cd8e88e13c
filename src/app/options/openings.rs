//! The `--openings` file loaded and every opening checked against the
//! rules.

use std::path::Path;

use shakmaty::Chess;

use crate::epd::Record;
use crate::game::{self, Game};
use crate::record::openings::{Opening, load_openings};
use crate::referee::Start;

/// Loads an openings file and checks every opening against the rules: a
/// position must be legal, moves must be legal in order.
pub fn load_starts(path: &Path, ply_limit: usize) -> Result<Vec<Start>, String> {
    let openings = load_openings(path, ply_limit)?;
    if openings.is_empty() {
        return Err(format!(
            "openings file {} holds no openings",
            path.display()
        ));
    }
    openings.into_iter().map(opening_to_start).collect()
}

fn opening_to_start(o: Opening) -> Result<Start, String> {
    match o {
        Opening::Position { epd, source } => {
            let rec = Record::parse(&epd).map_err(|e| format!("{source}: {e}"))?;
            let position = game::position_of_record(&rec).map_err(|e| format!("{source}: {e}"))?;
            Ok(Start {
                position,
                moves: Vec::new(),
                source,
            })
        }
        Opening::Moves {
            sans,
            fen,
            source,
            move_sources,
        } => {
            let start = match &fen {
                Some(f) => game::position_from_fen(f).map_err(|e| format!("{source}: {e}"))?,
                None => Chess::default(),
            };
            let mut line = Game::new(start.clone());
            for (i, san) in sans.iter().enumerate() {
                // The move's own line (the game's if it is not known).
                let at = move_sources.get(i).unwrap_or(&source);
                line.play_san(san)
                    .map_err(|e| format!("{at}: {e} (move {} of the game at {source})", i + 1))?;
            }
            Ok(Start {
                position: start,
                moves: line.moves().to_vec(),
                source,
            })
        }
    }
}
