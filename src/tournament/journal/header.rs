//! The tournament journal's header: the settings and the players, as
//! `set` and `player` lines, and back.

use crate::clock::BadTimeControl;
use crate::stats::sprt::SprtError;
use crate::tournament::core::{Form, Settings};
use crate::tournament::journal::line::{Line, MAGIC, VERSION};
use crate::tournament::knockout::{Tiebreak, TiebreakError};
use crate::tournament::messages::{Absence, SprtRunning, UnknownSprtRunning};
use crate::tournament::schedule::{Format, ScheduleSettings, UnknownFormat};
use crate::tournament::standings::TiebreakListError;

/// What a tournament journal starts with.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// The program that wrote it.
    pub writer: String,
    pub settings: Settings,
    /// Each player's spec as given (`/dev/ttyUSB0`, `tcp:NAME`, ...), to
    /// reach it again on resume.
    pub specs: Vec<String>,
    /// The command line that started it (the arguments after
    /// `argus tournament`), for `argus resume` to start the same players
    /// with the same settings; empty when not recorded.
    pub command: Vec<String>,
    /// The working directory it was started in (its relative paths are
    /// relative to it); empty when not recorded.
    pub directory: String,
}

impl Header {
    /// The header's lines, in order.
    pub fn lines(&self) -> Vec<Line> {
        let s = &self.settings;
        let sch = &s.schedule;
        let set = |key: &str, values: Vec<String>| Line::Set {
            key: key.into(),
            values,
        };
        let mut lines = vec![
            Line::Magic {
                version: VERSION,
                writer: self.writer.clone(),
            },
            set("event", vec![s.event.clone()]),
            set("schedule", vec![sch.format.as_str().into()]),
            set("cycles", vec![sch.cycles.to_string()]),
            set("games-per-pairing", vec![sch.games_per_pairing.to_string()]),
            set(
                "boards",
                vec![s.boards.map_or("auto".into(), |b| b.to_string())],
            ),
            set(
                "absence",
                match s.absence {
                    Absence::Wait => vec!["wait".into()],
                    Absence::Forfeit { after_ms } => vec!["forfeit".into(), after_ms.to_string()],
                },
            ),
            set(
                "openings",
                vec![
                    sch.openings.to_string(),
                    sch.openings_seed.map_or("-".into(), |x| x.to_string()),
                ],
            ),
        ];
        if sch.format.is_dynamic() {
            lines.push(set("rounds", vec![sch.rounds.to_string()]));
        }
        if !sch.swap {
            // Written only when fixed: the journals of before read the same.
            lines.push(set("colours", vec!["fixed".into()]));
        }
        if sch.endless {
            // Written only for a match with no end (`argus demo`).
            lines.push(set("games", vec!["endless".into()]));
        }
        if s.ratings.iter().any(|&r| r != 0) {
            lines.push(set(
                "ratings",
                s.ratings.iter().map(u16::to_string).collect(),
            ));
        }
        let sw = &s.swiss;
        let pairs = |v: &[(crate::tournament::PlayerId, u32)]| {
            v.iter().map(|(p, r)| format!("{}:{r}", p.0)).collect()
        };
        if !sw.byes.is_empty() {
            lines.push(set("byes", pairs(&sw.byes)));
        }
        if !sw.late.is_empty() {
            lines.push(set("late", pairs(&sw.late)));
        }
        if !sw.withdrawals.is_empty() {
            lines.push(set("withdraw", pairs(&sw.withdrawals)));
        }
        let default = crate::tournament::swiss_event::SwissSettings::default();
        if sw.bye != default.bye {
            lines.push(set("bye-points", vec![bye_points(sw.bye).into()]));
        }
        if sw.tiebreaks != default.tiebreaks {
            lines.push(set(
                "tiebreaks",
                sw.tiebreaks.iter().map(|t| t.name().to_string()).collect(),
            ));
        }
        if s.instances != 1 {
            lines.push(set("instances", vec![s.instances.to_string()]));
        }
        if let Some(t) = &s.sprt {
            lines.push(set("sprt", vec![t.to_string()]));
        }
        if s.sprt_running != SprtRunning::Finish {
            lines.push(set("sprt-running", vec![s.sprt_running.as_str().into()]));
        }
        if let Some(t) = &s.tiebreak {
            lines.push(set("knockout-tiebreak", vec![t.to_string()]));
        }
        if s.form == Form::Match {
            lines.push(set("form", vec!["match".into()]));
        }
        for (name, spec) in s.names.iter().zip(&self.specs) {
            lines.push(Line::Player {
                name: name.clone(),
                spec: spec.clone(),
            });
        }
        if !self.directory.is_empty() {
            lines.push(Line::Set {
                key: "directory".into(),
                values: vec![self.directory.clone()],
            });
        }
        if !self.command.is_empty() {
            lines.push(Line::Set {
                key: "command".into(),
                values: self.command.clone(),
            });
        }
        lines.push(Line::Begin);
        lines
    }
}

/// What a bye asked for is worth, as `--bye-points` and the journal say
/// it.
pub fn bye_points(kind: crate::tournament::ByeKind) -> &'static str {
    match kind {
        crate::tournament::ByeKind::Half => "0.5",
        _ => "0",
    }
}

/// Reads [`bye_points`].
pub fn parse_bye_points(s: &str) -> Result<crate::tournament::ByeKind, BadByePoints> {
    match s {
        "0.5" | "1/2" => Ok(crate::tournament::ByeKind::Half),
        "0" => Ok(crate::tournament::ByeKind::Zero),
        other => Err(BadByePoints(other.to_string())),
    }
}

/// A bye's worth that is neither 0.5 nor 0 (as given).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?}: a bye asked for is worth 0.5 or 0")]
pub struct BadByePoints(pub String);

/// Why a tournament journal's header cannot be read (the reader adds the
/// line number): the kind of fault, with the setting and what it said.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum HeaderError {
    #[error("tournament journal version {0}; this argus reads version {VERSION}")]
    Version(u32),
    #[error("not a tournament journal (no {MAGIC} line)")]
    NotATournament,
    #[error("setting {0} given twice")]
    SetTwice(String),
    /// A line that has no place in a header (its payload).
    #[error("{0:?} inside the header")]
    Inside(String),
    #[error("the header has no {0} setting")]
    Missing(String),
    #[error("setting {key}: one value expected, {given} given")]
    NotOne { key: String, given: usize },
    #[error("setting {key}: {value:?} is not a number")]
    NotANumber { key: String, value: String },
    #[error("setting {key}: {word:?} is not PLAYER:ROUND")]
    NotPlayerRound { key: String, word: String },
    #[error("unknown setting {0:?}")]
    Unknown(String),
    #[error("setting absence: {0:?} (wait, or forfeit MS)")]
    Absence(Vec<String>),
    #[error("setting openings: {0:?} (N SEED, or N -)")]
    Openings(Vec<String>),
    #[error("setting colours: {0:?} (alternate or fixed)")]
    Colours(String),
    #[error("setting games: {0:?} (endless)")]
    Games(String),
    #[error("setting ratings: {ratings} ratings for {players} players")]
    Ratings { ratings: usize, players: usize },
    #[error(transparent)]
    Format(#[from] UnknownFormat),
    #[error("setting sprt: {0}")]
    Sprt(SprtError),
    #[error("setting bye-points: {0}")]
    ByePoints(BadByePoints),
    #[error("setting tiebreaks: {0}")]
    Tiebreaks(TiebreakListError),
    #[error("setting sprt-running: {0}")]
    SprtRunning(UnknownSprtRunning),
    #[error("setting knockout-tiebreak: {0}")]
    KnockoutTiebreak(TiebreakError),
    /// One of the knockout tie-break's controls.
    #[error("setting knockout-tiebreak: {0}")]
    KnockoutControl(BadTimeControl),
    #[error("setting form: {0:?} is not one (match, or none for a tournament)")]
    Form(String),
}

error_words!(BadByePoints, HeaderError);

/// `P:R` words (a player's number, a round).
fn player_rounds(
    key: &str,
    v: &[String],
) -> Result<Vec<(crate::tournament::PlayerId, u32)>, HeaderError> {
    v.iter()
        .map(|w| {
            let (p, r) = w
                .split_once(':')
                .ok_or_else(|| HeaderError::NotPlayerRound {
                    key: key.to_string(),
                    word: w.clone(),
                })?;
            Ok((
                crate::tournament::PlayerId(number(key, p)?),
                number(key, r)?,
            ))
        })
        .collect()
}

/// The header's lines gathered until `begin`.
#[derive(Debug, Default)]
pub(super) struct HeaderBuilder {
    writer: Option<String>,
    sets: Vec<(String, Vec<String>)>,
    players: Vec<(String, String)>,
}

fn number<N: std::str::FromStr>(key: &str, v: &str) -> Result<N, HeaderError> {
    v.parse().map_err(|_| HeaderError::NotANumber {
        key: key.to_string(),
        value: v.to_string(),
    })
}

impl HeaderBuilder {
    pub(super) fn push(&mut self, line: Line) -> Result<Option<Header>, HeaderError> {
        match (line, &self.writer) {
            (Line::Magic { version, writer }, None) => {
                if version != VERSION {
                    return Err(HeaderError::Version(version));
                }
                self.writer = Some(writer);
            }
            (_, None) => return Err(HeaderError::NotATournament),
            (Line::Set { key, values }, _) => {
                if self.sets.iter().any(|(k, _)| *k == key) {
                    return Err(HeaderError::SetTwice(key));
                }
                self.sets.push((key, values));
            }
            (Line::Player { name, spec }, _) => self.players.push((name, spec)),
            (Line::Begin, _) => return self.build().map(Some),
            (other, _) => return Err(HeaderError::Inside(other.payload())),
        }
        Ok(None)
    }

    fn get(&self, key: &str) -> Result<&[String], HeaderError> {
        self.sets
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_slice())
            .ok_or_else(|| HeaderError::Missing(key.to_string()))
    }

    fn one(&self, key: &str) -> Result<&str, HeaderError> {
        match self.get(key)? {
            [v] => Ok(v),
            v => Err(HeaderError::NotOne {
                key: key.to_string(),
                given: v.len(),
            }),
        }
    }

    fn build(&mut self) -> Result<Header, HeaderError> {
        const KEYS: [&str; 23] = [
            "form",
            "games",
            "byes",
            "late",
            "withdraw",
            "bye-points",
            "tiebreaks",
            "knockout-tiebreak",
            "rounds",
            "colours",
            "ratings",
            "sprt-running",
            "instances",
            "sprt",
            "command",
            "directory",
            "event",
            "schedule",
            "cycles",
            "games-per-pairing",
            "boards",
            "absence",
            "openings",
        ];
        if let Some((k, _)) = self.sets.iter().find(|(k, _)| !KEYS.contains(&k.as_str())) {
            return Err(HeaderError::Unknown(k.clone()));
        }
        let absence = match self.get("absence")? {
            [w] if w == "wait" => Absence::Wait,
            [f, ms] if f == "forfeit" => Absence::Forfeit {
                after_ms: number("absence", ms)?,
            },
            v => return Err(HeaderError::Absence(v.to_vec())),
        };
        let (openings, seed) = match self.get("openings")? {
            [n, s] => (
                number("openings", n)?,
                (s != "-").then(|| number("openings", s)).transpose()?,
            ),
            v => return Err(HeaderError::Openings(v.to_vec())),
        };
        let boards = match self.one("boards")? {
            "auto" => None,
            b => Some(number("boards", b)?),
        };
        let settings = Settings {
            event: self.one("event")?.to_string(),
            names: self.players.iter().map(|(n, _)| n.clone()).collect(),
            schedule: ScheduleSettings {
                format: Format::parse(self.one("schedule")?)?,
                players: self.players.len(),
                cycles: number("cycles", self.one("cycles")?)?,
                games_per_pairing: number("games-per-pairing", self.one("games-per-pairing")?)?,
                openings,
                openings_seed: seed,
                rounds: match self.get("rounds") {
                    Ok(_) => number("rounds", self.one("rounds")?)?,
                    Err(_) => 0,
                },
                endless: match self.get("games") {
                    Err(_) => false,
                    Ok(_) => match self.one("games")? {
                        "endless" => true,
                        v => return Err(HeaderError::Games(v.to_string())),
                    },
                },
                swap: match self.get("colours") {
                    Err(_) => true,
                    Ok(_) => match self.one("colours")? {
                        "alternate" => true,
                        "fixed" => false,
                        v => {
                            return Err(HeaderError::Colours(v.to_string()));
                        }
                    },
                },
            },
            boards,
            absence,
            // Journals written before instances: one each.
            instances: match self.get("instances") {
                Ok(_) => number("instances", self.one("instances")?)?,
                Err(_) => 1,
            },
            sprt: match self.get("sprt") {
                Ok(_) => Some(self.one("sprt")?.parse().map_err(HeaderError::Sprt)?),
                Err(_) => None,
            },
            ratings: match self.get("ratings") {
                Ok(v) if v.len() != self.players.len() => {
                    return Err(HeaderError::Ratings {
                        ratings: v.len(),
                        players: self.players.len(),
                    });
                }
                Ok(v) => v
                    .iter()
                    .map(|r| number("ratings", r))
                    .collect::<Result<_, _>>()?,
                Err(_) => Vec::new(),
            },
            swiss: {
                let mut sw = crate::tournament::swiss_event::SwissSettings::default();
                if let Ok(v) = self.get("byes") {
                    sw.byes = player_rounds("byes", v)?;
                }
                if let Ok(v) = self.get("late") {
                    sw.late = player_rounds("late", v)?;
                }
                if let Ok(v) = self.get("withdraw") {
                    sw.withdrawals = player_rounds("withdraw", v)?;
                }
                if self.get("bye-points").is_ok() {
                    sw.bye = parse_bye_points(self.one("bye-points")?)
                        .map_err(HeaderError::ByePoints)?;
                }
                if let Ok(v) = self.get("tiebreaks") {
                    sw.tiebreaks = crate::tournament::standings::Tiebreak::parse_list(&v.join(","))
                        .map_err(HeaderError::Tiebreaks)?;
                }
                sw
            },
            sprt_running: match self.get("sprt-running") {
                Ok(_) => SprtRunning::parse(self.one("sprt-running")?)
                    .map_err(HeaderError::SprtRunning)?,
                Err(_) => SprtRunning::Finish,
            },
            // Journals written before knockouts: none.
            tiebreak: match self.get("knockout-tiebreak") {
                Ok(_) => {
                    let t = Tiebreak::parse(self.one("knockout-tiebreak")?)
                        .map_err(HeaderError::KnockoutTiebreak)?;
                    for control in t.controls() {
                        crate::clock::parse_friendly(control)
                            .map_err(HeaderError::KnockoutControl)?;
                    }
                    Some(t)
                }
                Err(_) => None,
            },
            // Journals written before a match ran on the director, and
            // every tournament's: none.
            form: match self.get("form") {
                Ok(_) => match self.one("form")? {
                    "match" => Form::Match,
                    v => return Err(HeaderError::Form(v.to_string())),
                },
                Err(_) => Form::Tournament,
            },
        };
        Ok(Header {
            writer: self.writer.clone().unwrap_or_default(),
            settings,
            specs: self.players.iter().map(|(_, s)| s.clone()).collect(),
            command: self
                .get("command")
                .map(<[String]>::to_vec)
                .unwrap_or_default(),
            directory: self
                .one("directory")
                .map(str::to_string)
                .unwrap_or_default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(key: &str, values: &[&str]) -> Line {
        Line::Set {
            key: key.into(),
            values: values.iter().map(|v| v.to_string()).collect(),
        }
    }

    #[test]
    fn a_bad_header_says_which_kind_of_fault_in_the_old_words() {
        let magic = |version| Line::Magic {
            version,
            writer: "argus".into(),
        };
        let e = HeaderBuilder::default()
            .push(magic(VERSION + 1))
            .unwrap_err();
        assert_eq!(e, HeaderError::Version(VERSION + 1));
        assert_eq!(
            e.to_string(),
            format!(
                "tournament journal version {}; this argus reads version {VERSION}",
                VERSION + 1
            )
        );
        let e = HeaderBuilder::default().push(Line::Begin).unwrap_err();
        assert_eq!(e, HeaderError::NotATournament);
        assert_eq!(
            e.to_string(),
            format!("not a tournament journal (no {MAGIC} line)")
        );
        let mut b = HeaderBuilder::default();
        b.push(magic(VERSION)).unwrap();
        b.push(set("event", &["x"])).unwrap();
        let e = b.push(set("event", &["y"])).unwrap_err();
        assert_eq!(e.to_string(), "setting event given twice");
        let e = b.push(Line::Begin).unwrap_err();
        assert_eq!(e, HeaderError::Missing("absence".into()));
        assert_eq!(e.to_string(), "the header has no absence setting");
        let mut b = HeaderBuilder::default();
        b.push(magic(VERSION)).unwrap();
        b.push(set("absence", &["forfeit", "soon"])).unwrap();
        let e = b.push(Line::Begin).unwrap_err();
        assert_eq!(e.to_string(), "setting absence: \"soon\" is not a number");
        assert!(matches!(e, HeaderError::NotANumber { .. }), "{e:?}");
    }
}
