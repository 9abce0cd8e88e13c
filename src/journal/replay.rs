//! Rebuilding the core from a journal: every input handed to a new
//! [`Referee`] with its time, every checkpoint compared with the state the
//! replay reached.

use std::collections::BTreeMap;

use crate::game;
use crate::journal::format::{Checkpoint, Entry};
use crate::journal::header::Header;
use crate::journal::reader::{JournalError, Problem};
use crate::record::pgn::PgnGame;
use crate::referee::{Event, Output, Referee, WallClock};

/// A core rebuilt from a journal, line by line.
#[derive(Debug, Clone)]
pub struct Replay {
    core: Referee,
    /// The time of the last input.
    last_at: u64,
    inputs: usize,
    checks: usize,
    epoch: Option<WallClock>,
    /// Finished games not (yet) marked as saved, by game number.
    unsaved: BTreeMap<u32, PgnGame>,
}

/// A checkpoint the replay does not reach: the state the journal recorded
/// and the one the replayed core has at the same time.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the replay does not reach the recorded state (was the journal written by another version \
     of argus?): recorded game {} ply {} {} with {} ms / {} ms used, replay has game {} ply {} {} \
     with {} ms / {} ms used",
    .recorded.game,
    .recorded.ply,
    .recorded.fen,
    .recorded.used_ms[0],
    .recorded.used_ms[1],
    .replayed.game,
    .replayed.ply,
    .replayed.fen,
    .replayed.used_ms[0],
    .replayed.used_ms[1]
)]
pub struct Mismatch {
    pub recorded: Checkpoint,
    pub replayed: Checkpoint,
}

impl Replay {
    /// A fresh core with the header's settings.
    pub fn new(header: &Header) -> Replay {
        Replay {
            core: Referee::new(header.settings.clone()),
            last_at: 0,
            inputs: 0,
            checks: 0,
            epoch: None,
            unsaved: BTreeMap::new(),
        }
    }

    /// Takes one entry (`line` is its line number, for errors) and returns
    /// the core's outputs for an input (none for other lines). A
    /// checkpoint the replay does not reach is an error.
    pub fn apply(&mut self, line: usize, entry: Entry) -> Result<Vec<Output>, JournalError> {
        match entry {
            Entry::Input { at, input } => {
                if at < self.last_at {
                    return Err(JournalError::new(
                        line,
                        Problem::TimeBackwards {
                            at,
                            previous: self.last_at,
                        },
                    ));
                }
                self.last_at = at;
                self.inputs += 1;
                let outs = self.core.handle(input, at);
                for o in &outs {
                    if let Some(Event::GameOver(g)) = o.event()
                        && g.is_a_game()
                    {
                        self.unsaved.insert(g.game_number, (*g.pgn).clone());
                    }
                }
                Ok(outs)
            }
            Entry::Check(c) => {
                self.verify(&c)
                    .map_err(|e| JournalError::new(line, Problem::Check(e)))?;
                self.checks += 1;
                Ok(Vec::new())
            }
            Entry::Saved { game } => {
                self.unsaved.remove(&game);
                Ok(Vec::new())
            }
            Entry::Epoch(wall) => {
                // The core dates its games by it, as it did when the line
                // was written.
                self.epoch = Some(wall);
                self.core.set_wall_clock(wall);
                Ok(Vec::new())
            }
            Entry::Note(_) => Ok(Vec::new()),
            other => Err(JournalError::new(
                line,
                Problem::Unexpected(other.payload()),
            )),
        }
    }

    /// The checkpoint the core's state gives at `at`.
    pub fn checkpoint(core: &Referee, at: u64) -> Checkpoint {
        let p = core.progress(at);
        Checkpoint {
            at,
            game: p.game_number,
            ply: p.ply,
            fen: match p.position {
                Some(position) => game::fen_of(position),
                None => game::fen_of(&shakmaty::Chess::default()),
            },
            used_ms: [p.used_ms.white, p.used_ms.black],
        }
    }

    fn verify(&self, c: &Checkpoint) -> Result<(), Box<Mismatch>> {
        let got = Replay::checkpoint(&self.core, c.at);
        if got == *c {
            return Ok(());
        }
        Err(Box::new(Mismatch {
            recorded: c.clone(),
            replayed: got,
        }))
    }

    /// The rebuilt core.
    pub fn core(&self) -> &Referee {
        &self.core
    }

    /// Takes the rebuilt core.
    pub fn into_core(self) -> Referee {
        self.core
    }

    /// The time of the last input (0 before any).
    pub fn last_at(&self) -> u64 {
        self.last_at
    }

    /// Inputs replayed.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Checkpoints verified.
    pub fn checks(&self) -> usize {
        self.checks
    }

    /// The latest `epoch` line.
    pub fn epoch(&self) -> Option<WallClock> {
        self.epoch
    }

    /// Finished games the journal does not mark as saved (the referee
    /// stopped between ending the game and writing it), oldest first.
    pub fn unsaved(&self) -> impl Iterator<Item = (&u32, &PgnGame)> {
        self.unsaved.iter()
    }
}
