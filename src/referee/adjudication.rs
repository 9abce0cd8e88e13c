//! Adjudication for unattended matches: rules that end a game the players
//! have not ended, decided from the game so far, the evaluations the
//! players sent with their moves (EPD `ce`) and the settings. Pure
//! functions and a small set of counters kept through the game; the core
//! applies them after every move (Termination "adjudication").
//!
//! The evaluation rules are cutechess-cli's (`-draw`, `-resign`; its
//! `GameAdjudicator`): counters of consecutive moves whose score passes a
//! threshold, reset by a move that does not. What a rule decided is an
//! [`Adjudged`], a value; `referee::words` says it.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use shakmaty::Color;

use crate::referee::event::color_str;
use crate::referee::messages::GameResult;

/// `--max-moves N` (as cutechess-cli's `-maxmoves`): once `N` full moves of
/// the game have been played (opening moves included), the game is a draw.
/// Returns the adjudication when the limit is reached.
pub fn max_moves_reached(plies: usize, max_moves: Option<u32>) -> Option<Adjudged> {
    let n = max_moves?;
    let limit = usize::try_from(n).ok()?.checked_mul(2)?;
    (plies >= limit).then_some(Adjudged::MaxMoves { moves: n })
}

/// `--draw-adjudication movenumber=M movecount=N score=S`: a draw once at
/// least `M` full moves have been played and both players' scores have
/// stayed within `S` centipawns of zero for `N` consecutive moves each. A
/// capture or pawn move, or a move without an evaluation, starts the count
/// again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: u32,
}

/// `--resign-adjudication movecount=N score=S [twosided]`: a player whose
/// score has been `S` centipawns or more below zero for `N` consecutive
/// moves of its own loses; with `twosided` only if the opponent's score
/// has also been `S` or more above zero for its last `N` moves. A move
/// without an evaluation starts its player's counts again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: u32,
    pub two_sided: bool,
}

/// Which adjudication rule ended a game and what it found: the data of
/// the reason the PGN, the transcript and the log give
/// (`referee::words` says it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum Adjudged {
    /// `--max-moves`: `moves` full moves were played; a draw.
    MaxMoves { moves: u32 },
    /// `--draw-adjudication`: both scores stayed within `score`
    /// centipawns of zero for `moves` moves each; a draw.
    Draw { score: u32, moves: u32 },
    /// `--resign-adjudication`: the loser's score stayed at or below
    /// `-score` for `moves` moves of its own (and, `two_sided`, the
    /// winner's at or above `score`); `winner` wins.
    Resign {
        #[serde(serialize_with = "color_str")]
        winner: Color,
        score: u32,
        moves: u32,
        two_sided: bool,
    },
}

impl Adjudged {
    /// The game's result.
    pub fn result(&self) -> GameResult {
        match *self {
            Adjudged::MaxMoves { .. } | Adjudged::Draw { .. } => GameResult::Draw,
            Adjudged::Resign { winner, .. } => GameResult::Win(winner),
        }
    }
}

/// A move as the evaluation rules see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveFacts {
    /// Who made it.
    pub mover: Color,
    /// The mover's `ce` with it, if it sent a usable one.
    pub ce: Option<i32>,
    /// It was a capture or a pawn move.
    pub irreversible: bool,
    /// Plies in the game after it, opening moves included.
    pub plies: usize,
}

/// The counts the evaluation rules keep through one game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counters {
    /// Consecutive plies with a score within the draw threshold.
    draw: u32,
    /// Per colour (white, black): consecutive own moves with a score at or
    /// below minus the resign threshold.
    losing: [u32; 2],
    /// Per colour: consecutive own moves at or above the threshold.
    winning: [u32; 2],
}

fn side(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn bump(count: &mut u32, yes: bool) {
    *count = if yes { count.saturating_add(1) } else { 0 };
}

impl Counters {
    /// Takes one move (in cutechess-cli's order: the draw rule, then the
    /// resign rule) and returns the adjudication, if a rule decides.
    pub fn after_move(
        &mut self,
        m: MoveFacts,
        draw: Option<DrawRule>,
        resign: Option<ResignRule>,
    ) -> Option<Adjudged> {
        let me = side(m.mover);
        if m.irreversible {
            self.draw = 0;
        }
        let Some(ce) = m.ce else {
            self.draw = 0;
            self.losing[me] = 0;
            self.winning[me] = 0;
            return None;
        };
        let ce = i64::from(ce);
        if let Some(rule) = draw {
            bump(&mut self.draw, ce.abs() <= i64::from(rule.score));
            let full_moves = m.plies / 2;
            let moves_in = usize::try_from(rule.move_number).unwrap_or(usize::MAX);
            if full_moves >= moves_in && u64::from(self.draw) >= u64::from(rule.move_count) * 2 {
                return Some(Adjudged::Draw {
                    score: rule.score,
                    moves: rule.move_count,
                });
            }
        }
        if let Some(rule) = resign {
            let threshold = i64::from(rule.score);
            bump(&mut self.losing[me], ce <= -threshold);
            bump(&mut self.winning[me], ce >= threshold);
            let other = side(!m.mover);
            if self.losing[me] >= rule.move_count
                && (!rule.two_sided || self.winning[other] >= rule.move_count)
            {
                return Some(Adjudged::Resign {
                    winner: !m.mover,
                    score: rule.score,
                    moves: rule.move_count,
                    two_sided: rule.two_sided,
                });
            }
        }
        None
    }
}

/// The `KEY=VALUE` fields of a rule (spaces or commas between them), with
/// bare words (flags) as keys without a value.
fn fields(s: &str) -> impl Iterator<Item = (&str, Option<&str>)> {
    s.split([' ', ','])
        .filter(|f| !f.is_empty())
        .map(|f| match f.split_once('=') {
            Some((k, v)) => (k, Some(v)),
            None => (f, None),
        })
}

/// Why a draw or resign rule's text is not one: which field, and what
/// was wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("{key} needs a value ({key}=N)")]
    NoValue { key: String },
    #[error("{key}: `{value}` is not a whole number")]
    NotANumber { key: String, value: String },
    #[error("{key} must be at least {min}, not {n}")]
    TooSmall { key: String, min: u32, n: u32 },
    #[error("twosided: `{0}` is not true or false")]
    NotABool(String),
    /// A field the rule does not have; `known` lists the ones it has.
    #[error("unknown field `{key}` ({known})")]
    UnknownField { key: String, known: &'static str },
    #[error("{0} is missing")]
    Missing(&'static str),
}

/// The value of `key`, a whole number from `min` on.
fn number(key: &str, value: Option<&str>, min: u32) -> Result<u32, RuleError> {
    let key = key.to_string();
    let v = value.ok_or_else(|| RuleError::NoValue { key: key.clone() })?;
    let n: u32 = v.parse().map_err(|_| RuleError::NotANumber {
        key: key.clone(),
        value: v.to_string(),
    })?;
    if n < min {
        return Err(RuleError::TooSmall { key, min, n });
    }
    Ok(n)
}

impl FromStr for DrawRule {
    type Err = RuleError;

    /// `movenumber=M movecount=N score=S` (spaces or commas between the
    /// fields; all three needed; movecount at least 1).
    fn from_str(s: &str) -> Result<DrawRule, RuleError> {
        let (mut move_number, mut count, mut score) = (None, None, None);
        for (key, value) in fields(s) {
            match key {
                "movenumber" => move_number = Some(number(key, value, 0)?),
                "movecount" => count = Some(number(key, value, 1)?),
                "score" => score = Some(number(key, value, 0)?),
                _ => {
                    return Err(RuleError::UnknownField {
                        key: key.to_string(),
                        known: "movenumber, movecount, score",
                    });
                }
            }
        }
        Ok(DrawRule {
            move_number: move_number.ok_or(RuleError::Missing("movenumber"))?,
            move_count: count.ok_or(RuleError::Missing("movecount"))?,
            score: score.ok_or(RuleError::Missing("score"))?,
        })
    }
}

impl fmt::Display for DrawRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "movenumber={} movecount={} score={}",
            self.move_number, self.move_count, self.score
        )
    }
}

impl FromStr for ResignRule {
    type Err = RuleError;

    /// `movecount=N score=S [twosided]` (also `twosided=true|false`, as
    /// cutechess-cli writes it; spaces or commas between the fields).
    fn from_str(s: &str) -> Result<ResignRule, RuleError> {
        let (mut count, mut score, mut two_sided) = (None, None, false);
        for (key, value) in fields(s) {
            match key {
                "movecount" => count = Some(number(key, value, 1)?),
                "score" => score = Some(number(key, value, 0)?),
                "twosided" => {
                    two_sided = match value {
                        None | Some("true") => true,
                        Some("false") => false,
                        Some(v) => return Err(RuleError::NotABool(v.to_string())),
                    }
                }
                _ => {
                    return Err(RuleError::UnknownField {
                        key: key.to_string(),
                        known: "movecount, score, twosided",
                    });
                }
            }
        }
        Ok(ResignRule {
            move_count: count.ok_or(RuleError::Missing("movecount"))?,
            score: score.ok_or(RuleError::Missing("score"))?,
            two_sided,
        })
    }
}

impl fmt::Display for ResignRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "movecount={} score={}", self.move_count, self.score)?;
        if self.two_sided {
            f.write_str(" twosided")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_counts_full_moves() {
        assert_eq!(max_moves_reached(500, None), None);
        assert_eq!(max_moves_reached(19, Some(10)), None);
        let r = max_moves_reached(20, Some(10)).unwrap();
        assert_eq!(r, Adjudged::MaxMoves { moves: 10 });
        assert_eq!(
            r.to_string(),
            "Draw by adjudication: 10 moves played (--max-moves)"
        );
        assert!(max_moves_reached(usize::MAX, Some(u32::MAX)).is_some());
        let one = max_moves_reached(2, Some(1)).unwrap();
        assert_eq!(
            one.to_string(),
            "Draw by adjudication: 1 move played (--max-moves)"
        );
    }

    /// Feeds moves alternately from White, each `(ce, irreversible)`,
    /// starting after `opening` plies; returns the ply (1-based, counted
    /// from the first fed) and what decided, if anything did.
    fn feed(
        draw: Option<DrawRule>,
        resign: Option<ResignRule>,
        opening: usize,
        moves: &[(Option<i32>, bool)],
    ) -> Option<(usize, Adjudged)> {
        let mut c = Counters::default();
        for (i, &(ce, irreversible)) in moves.iter().enumerate() {
            let plies = opening + i + 1;
            let mover = if (plies - 1).is_multiple_of(2) {
                Color::White
            } else {
                Color::Black
            };
            let m = MoveFacts {
                mover,
                ce,
                irreversible,
                plies,
            };
            if let Some(a) = c.after_move(m, draw, resign) {
                return Some((i + 1, a));
            }
        }
        None
    }

    fn quiet(ce: i32) -> (Option<i32>, bool) {
        (Some(ce), false)
    }

    const DRAW: DrawRule = DrawRule {
        move_number: 10,
        move_count: 3,
        score: 10,
    };

    #[test]
    fn draw_needs_the_move_move_numberand_movecount_moves_of_each_side() {
        // From the start: 20 plies reach move 10; six quiet plies before.
        let moves = vec![quiet(5); 40];
        let (ply, a) = feed(Some(DRAW), None, 0, &moves).unwrap();
        assert_eq!(ply, 20, "move 10 is reached at ply 20");
        assert_eq!(
            a,
            Adjudged::Draw {
                score: 10,
                moves: 3
            }
        );
        assert_eq!(
            a.to_string(),
            "Draw by adjudication: both scores within 10 cp of 0 for 3 moves \
             (--draw-adjudication)"
        );
        // After 30 opening plies: six plies within the score are enough.
        let (ply, _) = feed(Some(DRAW), None, 30, &moves).unwrap();
        assert_eq!(ply, 6);
        // Five are not.
        assert_eq!(feed(Some(DRAW), None, 30, &moves[..5]), None);
    }

    #[test]
    fn draw_counts_restart_on_a_big_score_a_capture_or_no_evaluation() {
        for breaker in [quiet(11), quiet(-11), (Some(0), true), (None, false)] {
            let mut moves = vec![quiet(0); 5];
            moves.push(breaker);
            moves.extend(vec![quiet(-10); 6]);
            let (ply, _) = feed(Some(DRAW), None, 30, &moves).unwrap();
            // A capture with a quiet score counts itself: five after it.
            let want = if breaker == (Some(0), true) { 11 } else { 12 };
            assert_eq!(ply, want, "{breaker:?}");
        }
    }

    #[test]
    fn mate_scores_are_never_drawish() {
        let moves = vec![quiet(32760); 20];
        assert_eq!(feed(Some(DRAW), None, 30, &moves), None);
    }

    const RESIGN: ResignRule = ResignRule {
        move_count: 3,
        score: 400,
        two_sided: false,
    };

    #[test]
    fn resign_after_movecount_own_moves_at_or_below_minus_score() {
        // Black (the second mover) says -400, -500, -32765 (mated soon).
        let moves = [
            quiet(0),
            quiet(-400),
            quiet(0),
            quiet(-500),
            quiet(0),
            quiet(-32765),
        ];
        let (ply, a) = feed(None, Some(RESIGN), 0, &moves).unwrap();
        assert_eq!(ply, 6);
        assert_eq!(a.result(), GameResult::Win(Color::White));
        assert_eq!(
            a.to_string(),
            "White wins by adjudication: Black's score at or below -400 cp for 3 moves \
             (--resign-adjudication)"
        );
        // -399 is not low enough and restarts the count.
        let mut moves = moves.to_vec();
        moves[3] = quiet(-399);
        assert_eq!(feed(None, Some(RESIGN), 0, &moves), None);
        // So does a move without an evaluation.
        moves[3] = (None, false);
        assert_eq!(feed(None, Some(RESIGN), 0, &moves), None);
    }

    #[test]
    fn two_sided_resign_needs_the_winner_to_agree() {
        let rule = ResignRule {
            two_sided: true,
            ..RESIGN
        };
        // White says only +300: it does not agree.
        let mut moves: Vec<_> = [300, -450].repeat(4).into_iter().map(quiet).collect();
        assert_eq!(feed(None, Some(rule), 0, &moves), None);
        // One sided, the same moves end it at Black's third.
        assert_eq!(feed(None, Some(RESIGN), 0, &moves).unwrap().0, 6);
        // White at +400 from its second move: its third agrees at ply 7,
        // and Black's fourth (ply 8) ends it.
        for (i, m) in moves.iter_mut().enumerate() {
            if i % 2 == 0 && i >= 2 {
                *m = quiet(400);
            }
        }
        let (ply, a) = feed(None, Some(rule), 0, &moves).unwrap();
        assert_eq!(ply, 8);
        assert_eq!(a.result(), GameResult::Win(Color::White));
        assert_eq!(
            a.to_string(),
            "White wins by adjudication: Black's score at or below -400 cp for 3 moves \
             and White's at or above +400 (--resign-adjudication)"
        );
    }

    #[test]
    fn rules_parse_as_cutechess_cli_writes_them() {
        let d: DrawRule = "movenumber=40 movecount=8 score=10".parse().unwrap();
        assert_eq!(
            d,
            DrawRule {
                move_number: 40,
                move_count: 8,
                score: 10
            }
        );
        assert_eq!(d.to_string().parse::<DrawRule>(), Ok(d));
        assert_eq!(
            "movenumber=40,movecount=8,score=10".parse::<DrawRule>(),
            Ok(d)
        );
        let r: ResignRule = "movecount=3 score=400 twosided".parse().unwrap();
        assert!(r.two_sided);
        assert_eq!(r.to_string(), "movecount=3 score=400 twosided");
        assert_eq!(r.to_string().parse::<ResignRule>(), Ok(r));
        let r: ResignRule = "movecount=3 score=400 twosided=false".parse().unwrap();
        assert!(!r.two_sided);
        assert_eq!(r.to_string(), "movecount=3 score=400");
    }

    #[test]
    fn bad_rules_say_what_is_wrong() {
        let cases = [
            ("movecount=8 score=10", "movenumber is missing"),
            (
                "movenumber=40 movecount=0 score=10",
                "movecount must be at least 1",
            ),
            (
                "movenumber=40 movecount=8 score=-5",
                "score: `-5` is not a whole number",
            ),
            ("movenumber=40 movecount=8 score", "score needs a value"),
            (
                "movenumber=4 movecount=8 score=1 plies=3",
                "unknown field `plies`",
            ),
        ];
        for (s, want) in cases {
            let e = s.parse::<DrawRule>().unwrap_err().to_string();
            assert!(e.contains(want), "{s}: {e}");
        }
        let cases = [
            ("score=400", "movecount is missing"),
            ("movecount=3", "score is missing"),
            ("movecount=3 score=400 twosided=maybe", "not true or false"),
            ("movecount=3 score=400 onesided", "unknown field `onesided`"),
        ];
        for (s, want) in cases {
            let e = s.parse::<ResignRule>().unwrap_err().to_string();
            assert!(e.contains(want), "{s}: {e}");
        }
    }
}
