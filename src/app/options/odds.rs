//! Time odds on the command line: `--tc NAME:CONTROL` beside the event's
//! `--tc CONTROL` (cutechess-cli's per-engine `tc=`), and the config
//! file's `tc` (a string, or a list of the flag's values).

use serde::{Deserialize, Deserializer};

use crate::clock::{BadTimeControl, TimeControl, parse_friendly};

/// A `--tc` value (or the config file's `tc`) that does not give a time
/// control: the value as given and why. Nothing is played on it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OddsError {
    /// The event's control does not read.
    #[error("--tc {value:?}: {why}")]
    Event { value: String, why: BadTimeControl },
    /// A player's own control (`NAME:CONTROL`) is not one.
    #[error("--tc {value:?}: {why}")]
    Own { value: String, why: OwnControlError },
    /// Neither a control nor `NAME:CONTROL` for a player.
    #[error("--tc {value:?}: {why}; nor is it NAME:CONTROL for a player (the players: {players})")]
    Neither {
        value: String,
        why: Box<BadTimeControl>,
        /// The players' names, comma-separated.
        players: String,
    },
    /// With some players on their own control, the event's is not timed.
    #[error(
        "--tc NAME:CONTROL gives a player its own time control; the others play the event's \
         --tc, which must then be timed by moves and seconds, not {0}"
    )]
    EventNotTimed(TimeControl),
}

error_words!(OddsError);

/// Why a player's own control is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OwnControlError {
    /// It does not read.
    #[error(transparent)]
    Bad(#[from] BadTimeControl),
    /// A sandclock is the event's.
    #[error("a sandclock is shared by both sides: give it as the event's --tc")]
    Sandclock,
    /// `-` and `?` are the event's.
    #[error("a player's own control must be timed (`-` and `?` are the event's)")]
    Untimed,
}

/// What the `--tc` values give: the event's control and each player's.
#[derive(Debug, Clone)]
pub struct Controls {
    /// The event's values as given (the last one counts).
    pub event_values: Vec<String>,
    /// The event's control (`-` when none is given).
    pub event: TimeControl,
    /// Each player's own, in the order of the names asked for.
    pub own: Vec<Option<TimeControl>>,
}

/// Reads the `--tc` values for players `names`, checked: the event's
/// control and each player's own (see [`split_named`] and
/// [`check_event_control`]).
pub fn controls(values: &[String], names: &[String]) -> Result<Controls, OddsError> {
    let (event_values, named) = split_named(values, names)?;
    let event = match event_values.last() {
        Some(s) => parse_friendly(s).map_err(|why| OddsError::Event {
            value: s.clone(),
            why,
        })?,
        None => TimeControl::Untimed,
    };
    let own: Vec<Option<TimeControl>> = names
        .iter()
        .map(|n| named.iter().find(|(o, _)| o == n).map(|(_, tc)| tc.clone()))
        .collect();
    check_event_control(
        &event,
        own.iter().any(Option::is_some),
        own.iter().all(Option::is_some),
    )?;
    Ok(Controls {
        event_values,
        event,
        own,
    })
}

/// Players' own controls by name.
type Named = Vec<(String, TimeControl)>;

/// The `--tc` values split into the event's (in the order given; the last
/// wins) and the players' own (`NAME:CONTROL`, NAME one of `names`).
///
/// A control may hold `:` itself (`0:30+1`, `40/7200:3600`), so a value is
/// a player's only when what comes before its first `:` names a player;
/// anything else is the event's, and must read as a control. A player
/// given twice keeps the last.
fn split_named(values: &[String], names: &[String]) -> Result<(Vec<String>, Named), OddsError> {
    let mut event = Vec::new();
    let mut own: Vec<(String, TimeControl)> = Vec::new();
    for v in values {
        let named = v
            .split_once(':')
            .filter(|(name, _)| names.iter().any(|n| n == name));
        match named {
            Some((name, control)) => {
                let tc = own_control(control).map_err(|why| OddsError::Own {
                    value: v.clone(),
                    why,
                })?;
                own.retain(|(n, _)| n != name);
                own.push((name.to_string(), tc));
            }
            None => {
                if let Err(why) = parse_friendly(v) {
                    return Err(OddsError::Neither {
                        value: v.clone(),
                        why: Box::new(why),
                        players: names.join(", "),
                    });
                }
                event.push(v.clone());
            }
        }
    }
    Ok((event, own))
}

/// A player's own control: timed by moves, seconds and increments (a
/// sandclock is shared by both sides, and a player without a clock
/// against one with a clock is no match argus can time).
fn own_control(s: &str) -> Result<TimeControl, OwnControlError> {
    let tc = parse_friendly(s)?;
    match tc {
        TimeControl::Periods(_) => Ok(tc),
        TimeControl::Sandclock { .. } => Err(OwnControlError::Sandclock),
        _ => Err(OwnControlError::Untimed),
    }
}

/// With time odds, every player without its own control plays the
/// event's, which must then be timed and not a sandclock.
fn check_event_control(event: &TimeControl, any_own: bool, all_own: bool) -> Result<(), OddsError> {
    if !any_own || all_own {
        return Ok(());
    }
    match event {
        TimeControl::Periods(_) => Ok(()),
        _ => Err(OddsError::EventNotTimed(event.clone())),
    }
}

/// The config file's `tc`: one control (`tc = "60+1"`) or the flag's
/// values (`tc = ["10+0.1", "sf:1+0.01"]`).
pub fn one_or_many<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_players_control_is_named_and_a_control_with_colons_is_the_events() {
        let names = strings(&["sf", "weak"]);
        let (event, own) = split_named(
            &strings(&["0:30+1", "sf:1+0.01", "weak:40/7200:3600"]),
            &names,
        )
        .unwrap();
        assert_eq!(event, ["0:30+1"]);
        let own: Vec<(String, String)> =
            own.into_iter().map(|(n, tc)| (n, tc.to_string())).collect();
        assert_eq!(
            own,
            [
                ("sf".to_string(), "1+0.01".to_string()),
                ("weak".to_string(), "40/7200:3600".to_string())
            ]
        );
        // The last of a player's wins.
        let (_, own) = split_named(&strings(&["sf:1", "sf:2"]), &names).unwrap();
        assert_eq!(own.len(), 1);
        assert_eq!(own[0].1.to_string(), "2");
    }

    #[test]
    fn bad_values_say_what_and_name_the_players() {
        let names = strings(&["sf", "weak"]);
        for (v, why) in [
            (
                "sff:10+0.1",
                "nor is it NAME:CONTROL for a player (the players: sf, weak)",
            ),
            ("sf:*60", "a sandclock is shared by both sides"),
            ("sf:-", "a player's own control must be timed"),
            ("sf:soon", "--tc \"sf:soon\""),
        ] {
            let e = split_named(&strings(&[v]), &names).unwrap_err().to_string();
            assert!(e.contains(why), "{v}: {e}");
        }
        let untimed = TimeControl::Untimed;
        let e = check_event_control(&untimed, true, false).unwrap_err();
        assert_eq!(e, OddsError::EventNotTimed(TimeControl::Untimed));
        assert!(e.to_string().contains("must then be timed"), "{e}");
        assert!(check_event_control(&untimed, true, true).is_ok());
        assert!(check_event_control(&untimed, false, false).is_ok());
        let sand: TimeControl = "*60".parse().unwrap();
        assert!(check_event_control(&sand, true, false).is_err());
    }

    #[test]
    fn the_config_file_takes_one_control_or_a_list() {
        #[derive(Deserialize)]
        struct T {
            #[serde(deserialize_with = "one_or_many")]
            tc: Vec<String>,
        }
        let one: T = toml::from_str("tc = \"60+1\"").unwrap();
        assert_eq!(one.tc, ["60+1"]);
        let many: T = toml::from_str("tc = [\"60+1\", \"sf:1+0.01\"]").unwrap();
        assert_eq!(many.tc, ["60+1", "sf:1+0.01"]);
    }
}
