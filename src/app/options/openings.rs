//! The `--openings` file loaded and every opening checked against the
//! rules, or the Chess960 start positions it names (`chess960:random`,
//! `chess960:N`, `dfrc:random`, `dfrc:W:B`).

use std::path::Path;

use shakmaty::Chess;

use crate::epd::Record;
use crate::game::{self, CHESS960_POSITIONS, Game, STANDARD_NUMBER, Variant};
use crate::record::openings::{Opening, load_openings};
use crate::referee::Start;
use crate::splitmix::{splitmix64, splitmix64_step};

/// Chess960 start positions named instead of an openings file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generated {
    /// `chess960:random`: all 960, in the order the seed shuffles them.
    Random,
    /// `chess960:N`: the one with Scharnagl number N.
    Number(u16),
    /// `dfrc:random`: 960 double Chess960 positions, each side's back rank
    /// drawn from the seed.
    DoubleRandom,
    /// `dfrc:W:B`: White's back rank W, Black's B.
    Double(u16, u16),
}

impl Generated {
    /// The generated positions `spec` names, `None` when it names a file
    /// (it does not start with `chess960:`, `frc:` or `dfrc:`).
    pub fn parse(spec: &str) -> Option<Result<Generated, String>> {
        let (kind, rest) = spec.split_once(':')?;
        let number = |t: &str| -> Result<u16, String> {
            t.parse::<u16>()
                .ok()
                .filter(|n| *n < CHESS960_POSITIONS)
                .ok_or_else(|| {
                    format!(
                        "--openings {}: {:?} is not a start position number (0 to 959, \
                         518 the standard one) nor random",
                        crate::text::strip_control(spec),
                        crate::text::strip_control(t)
                    )
                })
        };
        Some(match kind.to_ascii_lowercase().as_str() {
            "chess960" | "frc" | "fischerandom" => match rest {
                "random" => Ok(Generated::Random),
                n => number(n).map(Generated::Number),
            },
            "dfrc" => match rest.split_once(':') {
                None if rest == "random" => Ok(Generated::DoubleRandom),
                Some((w, b)) => number(w).and_then(|w| Ok(Generated::Double(w, number(b)?))),
                None => Err(format!(
                    "--openings {}: expected dfrc:random or dfrc:W:B (two numbers 0 to 959)",
                    crate::text::strip_control(spec)
                )),
            },
            _ => return None,
        })
    }

    /// The start positions, each with its name as its source
    /// (`chess960:518`, `dfrc:0:959`). `seed` draws `dfrc:random`'s.
    pub fn starts(self, seed: u64) -> Vec<Start> {
        let start = |w: u16, b: u16| {
            let position = game::double_chess960_start(w, b)?;
            let source = if w == b {
                format!("chess960:{w}")
            } else {
                format!("dfrc:{w}:{b}")
            };
            Some(Start {
                position,
                moves: Vec::new(),
                source,
            })
        };
        match self {
            Generated::Random => (0..CHESS960_POSITIONS)
                .filter_map(|n| start(n, n))
                .collect(),
            Generated::Number(n) => start(n, n).into_iter().collect(),
            Generated::Double(w, b) => start(w, b).into_iter().collect(),
            Generated::DoubleRandom => {
                let mut state = seed;
                (0..CHESS960_POSITIONS)
                    .filter_map(|_| {
                        state = splitmix64_step(state);
                        let x = splitmix64(state);
                        let n = u64::from(CHESS960_POSITIONS);
                        // 960 is far below 2^32: the halves' bias is
                        // below one in four million.
                        let w = u16::try_from((x & 0xffff_ffff) % n).ok()?;
                        let b = u16::try_from((x >> 32) % n).ok()?;
                        start(w, b)
                    })
                    .collect()
            }
        }
    }
}

/// Loads an openings file and checks every opening against the rules of
/// `variant`: a position must be legal, moves must be legal in order (a
/// PGN game without a `FEN` tag starts from the standard position, in
/// Chess960 its number 518).
pub fn load_starts(path: &Path, ply_limit: usize, variant: Variant) -> Result<Vec<Start>, String> {
    let openings = load_openings(path, ply_limit)?;
    if openings.is_empty() {
        return Err(format!(
            "openings file {} holds no openings",
            path.display()
        ));
    }
    openings
        .into_iter()
        .map(|o| opening_to_start(o, variant))
        .collect()
}

fn opening_to_start(o: Opening, variant: Variant) -> Result<Start, String> {
    match o {
        Opening::Position { epd, source } => {
            let rec = Record::parse(&epd).map_err(|e| format!("{source}: {e}"))?;
            let position =
                game::position_of_record_in(&rec, variant).map_err(|e| format!("{source}: {e}"))?;
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
            let start = match (&fen, variant) {
                (Some(f), _) => {
                    game::position_from_fen_in(f, variant).map_err(|e| format!("{source}: {e}"))?
                }
                (None, Variant::Standard) => Chess::default(),
                (None, Variant::Chess960) => game::chess960_start(STANDARD_NUMBER)
                    .ok_or("the standard start position is Chess960 number 518")?,
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
