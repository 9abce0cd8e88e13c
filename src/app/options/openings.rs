//! The `--openings` file loaded and every opening checked against the
//! rules, or the Chess960 start positions it names (`chess960:random`,
//! `chess960:N`, `dfrc:random`, `dfrc:W:B`).

use std::path::Path;

use shakmaty::Chess;

use crate::epd::{EpdError, Record};
use crate::game::{
    self, CHESS960_POSITIONS, Game, PositionError, RecordError, STANDARD_NUMBER, SanError, Variant,
};
use crate::record::openings::{Opening, OpeningsError, load_openings};
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
    pub fn parse(spec: &str) -> Option<Result<Generated, GeneratedError>> {
        let (kind, rest) = spec.split_once(':')?;
        let number = |t: &str| -> Result<u16, GeneratedError> {
            t.parse::<u16>()
                .ok()
                .filter(|n| *n < CHESS960_POSITIONS)
                .ok_or_else(|| GeneratedError::Number {
                    spec: crate::text::strip_control(spec),
                    number: crate::text::strip_control(t),
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
                None => Err(GeneratedError::Double(crate::text::strip_control(spec))),
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

/// An `--openings chess960:…`/`dfrc:…` that names no start positions (the
/// value, control characters removed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GeneratedError {
    #[error(
        "--openings {spec}: {number:?} is not a start position number (0 to 959, 518 the \
         standard one) nor random"
    )]
    Number { spec: String, number: String },
    #[error("--openings {0}: expected dfrc:random or dfrc:W:B (two numbers 0 to 959)")]
    Double(String),
}

/// Why an openings file gives no start positions: the file, or the
/// opening (its source: file and line or game) and what is wrong with it.
#[derive(Debug, thiserror::Error)]
pub enum StartsError {
    #[error(transparent)]
    File(#[from] OpeningsError),
    #[error("openings file {} holds no openings", .0.display())]
    Empty(std::path::PathBuf),
    #[error("{opening}: {why}")]
    Record { opening: String, why: EpdError },
    #[error("{opening}: {why}")]
    Position { opening: String, why: RecordError },
    #[error("{opening}: {why}")]
    Fen { opening: String, why: PositionError },
    /// A move of a line (`at`: its own line in the file) that does not
    /// play (`number`: its place in the line of the game at `opening`).
    #[error("{at}: {why} (move {number} of the game at {opening})")]
    Move {
        at: String,
        why: SanError,
        number: usize,
        opening: String,
    },
}

error_words!(GeneratedError, StartsError);

/// Loads an openings file and checks every opening against the rules of
/// `variant`: a position must be legal, moves must be legal in order (a
/// PGN game without a `FEN` tag starts from the standard position, in
/// Chess960 its number 518).
pub fn load_starts(
    path: &Path,
    ply_limit: usize,
    variant: Variant,
) -> Result<Vec<Start>, StartsError> {
    let openings = load_openings(path, ply_limit)?;
    if openings.is_empty() {
        return Err(StartsError::Empty(path.to_path_buf()));
    }
    openings
        .into_iter()
        .map(|o| opening_to_start(o, variant))
        .collect()
}

fn opening_to_start(o: Opening, variant: Variant) -> Result<Start, StartsError> {
    match o {
        Opening::Position { epd, source } => {
            let rec = match Record::parse(&epd) {
                Ok(rec) => rec,
                Err(why) => {
                    return Err(StartsError::Record {
                        opening: source,
                        why,
                    });
                }
            };
            let position = match game::position_of_record_in(&rec, variant) {
                Ok(p) => p,
                Err(why) => {
                    return Err(StartsError::Position {
                        opening: source,
                        why,
                    });
                }
            };
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
                (Some(f), _) => match game::position_from_fen_in(f, variant) {
                    Ok(p) => p,
                    Err(why) => {
                        return Err(StartsError::Fen {
                            opening: source,
                            why,
                        });
                    }
                },
                (None, Variant::Standard) => Chess::default(),
                // Number 518 is the standard start position, always there.
                (None, Variant::Chess960) => {
                    game::chess960_start(STANDARD_NUMBER).unwrap_or_default()
                }
            };
            let mut line = Game::new(start.clone());
            for (i, san) in sans.iter().enumerate() {
                // The move's own line (the game's if it is not known).
                let at = move_sources.get(i).unwrap_or(&source);
                if let Err(why) = line.play_san(san) {
                    return Err(StartsError::Move {
                        at: at.clone(),
                        why,
                        number: i + 1,
                        opening: source,
                    });
                }
            }
            Ok(Start {
                position: start,
                moves: line.moves().to_vec(),
                source,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_openings_are_named_and_checked() {
        assert_eq!(Generated::parse("book.epd"), None);
        assert_eq!(Generated::parse("/tmp/a:b.pgn"), None);
        for (spec, want) in [
            ("chess960:random", Generated::Random),
            ("fischerandom:518", Generated::Number(518)),
            ("frc:0", Generated::Number(0)),
            ("chess960:959", Generated::Number(959)),
            ("dfrc:random", Generated::DoubleRandom),
            ("dfrc:12:700", Generated::Double(12, 700)),
        ] {
            assert_eq!(Generated::parse(spec), Some(Ok(want)), "{spec}");
        }
        for (spec, why) in [
            (
                "chess960:960",
                "\"960\" is not a start position number (0 to 959",
            ),
            ("chess960:x", "\"x\" is not a start position number"),
            ("dfrc:1", "expected dfrc:random or dfrc:W:B"),
            ("dfrc:1:999", "\"999\" is not a start position number"),
        ] {
            let e = Generated::parse(spec).unwrap().unwrap_err().to_string();
            assert!(e.contains(why), "{spec}: {e}");
        }
    }

    #[test]
    fn generated_starts() {
        let all = Generated::Random.starts(0);
        assert_eq!(all.len(), 960);
        assert_eq!(all[518].source, "chess960:518");
        assert_eq!(
            game::fen_of(&all[518].position),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        let one = Generated::Double(0, 959).starts(0);
        assert_eq!(one[0].source, "dfrc:0:959");
        // dfrc:random: 960 pairs from the seed, the same for the same seed.
        let (a, b) = (
            Generated::DoubleRandom.starts(7),
            Generated::DoubleRandom.starts(8),
        );
        let sources = |v: &[Start]| v.iter().map(|s| s.source.clone()).collect::<Vec<_>>();
        assert_eq!(a.len(), 960);
        assert_eq!(sources(&a), sources(&Generated::DoubleRandom.starts(7)));
        assert_ne!(sources(&a), sources(&b));
        assert!(
            a.iter()
                .all(|s| Variant::of(&s.position) == Variant::Chess960)
        );
        assert!(a.iter().filter(|s| s.source.starts_with("dfrc:")).count() > 900);
    }

    #[test]
    fn an_openings_file_is_read_by_the_variants_rules() {
        let dir = tempfile::tempdir().unwrap();
        let epd = dir.path().join("frc.epd");
        std::fs::write(
            &epd,
            "bnnqrkrb/pppppppp/8/8/8/8/PPPPPPPP/BNNQRKRB w GEge - id \"35\";\n",
        )
        .unwrap();
        let starts = load_starts(&epd, 16, Variant::Chess960).unwrap();
        assert_eq!(game::castling_text(&starts[0].position), "KQkq");
        let e = load_starts(&epd, 16, Variant::Standard)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("frc.epd:1") && e.contains("castling field"),
            "{e}"
        );
        // A PGN game without a FEN starts from number 518 in Chess960.
        let pgn = dir.path().join("o.pgn");
        std::fs::write(&pgn, "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n").unwrap();
        let starts = load_starts(&pgn, 16, Variant::Chess960).unwrap();
        assert_eq!(Variant::of(&starts[0].position), Variant::Chess960);
        assert_eq!(starts[0].moves.len(), 3);
    }
}
