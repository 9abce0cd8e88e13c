//! Tablebase adjudication (`--syzygy`): what the endgame tables said of a
//! position, as an input to the core. The tables are files, so they are
//! probed at the edge (`app::syzygy`); the core gets the verdict with the
//! ply it was probed after, journaled like every input, so a resumed or
//! watched match replays it without the tables.
//!
//! The 50-move rule is respected, as cutechess-cli does by default: a win
//! the rule frustrates (a "cursed" win) is a draw.

use std::fmt;
use std::str::FromStr;

use shakmaty::Color;

use crate::referee::event::Ending;
use crate::referee::messages::GameResult;

/// What the tables say the game's result is with best play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TablebaseOutcome {
    /// This side wins.
    Win(Color),
    /// A draw with best play.
    Draw,
    /// This side could force mate, but not before the 50-move rule draws
    /// the game: a draw.
    CursedWin(Color),
}

/// The tables' verdict on the position after `ply` plies of the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TablebaseVerdict {
    /// Plies played when the position was probed (opening moves included);
    /// a verdict for a position the game has left is ignored.
    pub ply: usize,
    /// The material, as the tables name it: `KRvK`, `KQvKP`.
    pub material: String,
    pub outcome: TablebaseOutcome,
}

impl TablebaseVerdict {
    /// The game's result under the verdict.
    pub fn result(&self) -> GameResult {
        match self.outcome {
            TablebaseOutcome::Win(c) => GameResult::Win(c),
            TablebaseOutcome::Draw | TablebaseOutcome::CursedWin(_) => GameResult::Draw,
        }
    }

    /// Why the game ends under the verdict (`referee::words` says it).
    pub fn ending(&self) -> Ending {
        Ending::Tablebase {
            material: self.material.clone(),
            outcome: self.outcome,
        }
    }
}

impl TablebaseOutcome {
    /// As the journal writes it: `1-0`, `1/2-1/2`, `cursed-0-1`.
    pub fn as_str(self) -> &'static str {
        match self {
            TablebaseOutcome::Win(Color::White) => "1-0",
            TablebaseOutcome::Win(Color::Black) => "0-1",
            TablebaseOutcome::Draw => "1/2-1/2",
            TablebaseOutcome::CursedWin(Color::White) => "cursed-1-0",
            TablebaseOutcome::CursedWin(Color::Black) => "cursed-0-1",
        }
    }
}

impl serde::Serialize for TablebaseOutcome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// The journal's form: `PLY MATERIAL OUTCOME`, e.g. `57 KRvK 1-0` or
/// `80 KBNvK cursed-0-1`.
impl fmt::Display for TablebaseVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}",
            self.ply,
            self.material,
            self.outcome.as_str()
        )
    }
}

/// Why a journal's tablebase verdict cannot be read: which of its three
/// words is wrong, as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerdictError {
    #[error("a tablebase verdict is 'PLY MATERIAL RESULT', not {0:?}")]
    Shape(String),
    #[error("the tablebase verdict's ply {0:?} is not a number")]
    Ply(String),
    #[error("the tablebase verdict's material {0:?} is not like KRvK")]
    Material(String),
    #[error("unknown tablebase outcome {0:?}")]
    Outcome(String),
}

impl FromStr for TablebaseVerdict {
    type Err = VerdictError;

    fn from_str(s: &str) -> Result<TablebaseVerdict, VerdictError> {
        let mut words = s.split_ascii_whitespace();
        let (Some(ply), Some(material), Some(outcome), None) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return Err(VerdictError::Shape(s.to_string()));
        };
        let ply = ply
            .parse()
            .map_err(|_| VerdictError::Ply(ply.to_string()))?;
        if !is_material(material) {
            return Err(VerdictError::Material(material.to_string()));
        }
        let outcome = match outcome {
            "1-0" => TablebaseOutcome::Win(Color::White),
            "0-1" => TablebaseOutcome::Win(Color::Black),
            "1/2-1/2" => TablebaseOutcome::Draw,
            "cursed-1-0" => TablebaseOutcome::CursedWin(Color::White),
            "cursed-0-1" => TablebaseOutcome::CursedWin(Color::Black),
            o => return Err(VerdictError::Outcome(o.to_string())),
        };
        Ok(TablebaseVerdict {
            ply,
            material: material.to_string(),
            outcome,
        })
    }
}

/// `KRvK`, `KQPvKR`: two sides of piece letters, each starting with its
/// king, joined by `v`.
fn is_material(s: &str) -> bool {
    let mut sides = s.split('v');
    let side_ok = |p: Option<&str>| {
        p.is_some_and(|p| {
            p.starts_with('K') && p.len() <= 16 && p[1..].chars().all(|c| "QRBNP".contains(c))
        })
    };
    side_ok(sides.next()) && side_ok(sides.next()) && sides.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_reads_back_from_its_journal_form() {
        for outcome in [
            TablebaseOutcome::Win(Color::White),
            TablebaseOutcome::Win(Color::Black),
            TablebaseOutcome::Draw,
            TablebaseOutcome::CursedWin(Color::White),
            TablebaseOutcome::CursedWin(Color::Black),
        ] {
            let v = TablebaseVerdict {
                ply: 57,
                material: "KRvKP".into(),
                outcome,
            };
            assert_eq!(v.to_string().parse::<TablebaseVerdict>(), Ok(v));
        }
    }

    #[test]
    fn a_damaged_verdict_is_refused_with_the_reason() {
        for (bad, says) in [
            ("57 KRvK", "PLY MATERIAL RESULT"),
            ("x KRvK 1-0", "not a number"),
            ("57 K<b>vK 1-0", "not like KRvK"),
            ("57 RvK 1-0", "not like KRvK"),
            ("57 KRvK 2-0", "unknown tablebase outcome"),
            ("57 KRvK 1-0 extra", "PLY MATERIAL RESULT"),
        ] {
            let e = bad.parse::<TablebaseVerdict>().unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn a_cursed_win_is_a_draw_and_says_why() {
        let v = TablebaseVerdict {
            ply: 80,
            material: "KBNvK".into(),
            outcome: TablebaseOutcome::CursedWin(Color::Black),
        };
        assert_eq!(v.result(), GameResult::Draw);
        assert_eq!(
            v.ending().to_string(),
            "Draw by adjudication: SyzygyTB (KBNvK is won for Black in the tables, but not \
             before the 50-move rule)"
        );
        let won = TablebaseVerdict {
            outcome: TablebaseOutcome::Win(Color::White),
            ..v
        };
        assert_eq!(won.result(), GameResult::Win(Color::White));
        assert!(
            won.ending()
                .to_string()
                .starts_with("White wins by adjudication: SyzygyTB (KBNvK")
        );
    }
}
