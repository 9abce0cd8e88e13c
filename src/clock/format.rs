//! Clock times as text: EPD `cc` values, PGN `[%clk]` / `[%emt]` comment
//! commands and the `Clock`, `WhiteClock` and `BlackClock` tags
//! (specs/pgn-supplement-2001-clock.txt). Every formatter rounds through
//! [`whole_seconds`], except `[%emt]` under a minute (milliseconds).

use std::fmt;
use std::str::FromStr;

use shakmaty::Color;

use super::clocks::Clocks;
use super::control::TimeControl;
use crate::epd::ClockValue;

/// The one rounding rule for every displayed or recorded clock time:
/// milliseconds are **truncated** to whole seconds. A clock showing time
/// left therefore never shows time the player does not have (0.9 s left
/// shows `0:00:00`, as the flag is about to fall), and time used or a move
/// time counts a second only once it has fully passed, like a clock face.
pub fn whole_seconds(ms: u64) -> u64 {
    ms / 1000
}

/// The EPD `cc` operands (time used by White, time used by Black) as
/// `ddd:hh:mm:ss` values, in whole seconds (see [`whole_seconds`]),
/// saturating at [`ClockValue::MAX`].
pub fn cc_values(white_used_ms: u64, black_used_ms: u64) -> (ClockValue, ClockValue) {
    (
        ClockValue::from_secs(whole_seconds(white_used_ms)),
        ClockValue::from_secs(whole_seconds(black_used_ms)),
    )
}

/// Formats a time as PGN `h:mm:ss` (hours unpadded and unbounded, minutes
/// and seconds two digits), truncated to whole seconds: `1:05:23`,
/// `0:00:07`, `100:00:00`.
pub fn format_hms(ms: u64) -> String {
    let s = whole_seconds(ms);
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// A time in a table of figures (the report's time per move and time
/// left): under 10 s with milliseconds (`0.048 s`, `1.234 s`), as the
/// controls testers use (2+0.02) need; under a minute to a tenth
/// (`12.3 s`); from a minute on [`format_hms`]. Truncated, as every clock
/// time is ([`whole_seconds`]).
pub fn format_span(ms: u64) -> String {
    match ms {
        0..10_000 => format!("{}.{:03} s", ms / 1000, ms % 1000),
        10_000..60_000 => format!("{}.{} s", ms / 1000, ms % 1000 / 100),
        _ => format_hms(ms),
    }
}

/// Parses PGN `h:mm:ss` into milliseconds: one or more hour digits, then
/// exactly two minute digits (00-59) and two second digits (00-59). A
/// fraction of a second with one to three digits (`0:00:07.5`, written by
/// some programs) is accepted. Surrounding whitespace is ignored.
pub fn parse_hms(s: &str) -> Result<u64, HmsError> {
    let t = s.trim();
    let err = |why: HmsProblem| HmsError {
        text: t.to_string(),
        why,
    };
    let (whole, frac) = match t.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (t, None),
    };
    let mut parts = whole.split(':');
    let (Some(h), Some(m), Some(sec), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(err(HmsProblem::Fields));
    };
    let digits = |f: &str| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit());
    if !digits(h) {
        return Err(err(HmsProblem::Hours));
    }
    if m.len() != 2 || !digits(m) || sec.len() != 2 || !digits(sec) {
        return Err(err(HmsProblem::TwoDigits));
    }
    let (m, sec): (u64, u64) = (m.parse().unwrap_or(99), sec.parse().unwrap_or(99));
    if m > 59 || sec > 59 {
        return Err(err(HmsProblem::Sixty));
    }
    let frac_ms = match frac {
        None => 0,
        Some(f) if (1..=3).contains(&f.len()) && digits(f) => {
            let n: u64 = f.parse().unwrap_or(0);
            n * 10u64.pow(3 - f.len() as u32)
        }
        Some(_) => return Err(err(HmsProblem::Fraction)),
    };
    h.parse::<u64>()
        .ok()
        .and_then(|h| h.checked_mul(3600))
        .and_then(|s| s.checked_add(m * 60 + sec))
        .and_then(|s| s.checked_mul(1000))
        .and_then(|ms| ms.checked_add(frac_ms))
        .ok_or_else(|| err(HmsProblem::TooLarge))
}

/// A time that is not PGN `h:mm:ss`: the text (trimmed) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("time {text:?} is not h:mm:ss: {why}")]
pub struct HmsError {
    /// The text, trimmed.
    pub text: String,
    /// What is wrong with it.
    pub why: HmsProblem,
}

/// What is wrong with an `h:mm:ss` time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum HmsProblem {
    #[error("it needs exactly three fields separated by ':'")]
    Fields,
    #[error("hours must be digits")]
    Hours,
    #[error("minutes and seconds must be two digits each")]
    TwoDigits,
    #[error("minutes and seconds must be 00 to 59")]
    Sixty,
    #[error("a fraction of a second must be 1 to 3 digits")]
    Fraction,
    #[error("too large")]
    TooLarge,
}

/// A `[%clk]` or `[%emt]` command whose time does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("[%{command}] command: {time}")]
pub struct TimeCommandError {
    /// The command's name (`clk`, `emt`).
    pub command: String,
    /// Why its time does not read.
    pub time: HmsError,
}

/// A `Clock` tag's value that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClockTagError {
    /// It does not start with the running clock.
    #[error("Clock tag {0:?} must start with W/, B/ or N/ (running clock)")]
    NoRunningClock(String),
    /// Its time is not `h:mm:ss`.
    #[error("Clock tag {text:?}: {time}")]
    Time { text: String, time: HmsError },
}

/// The `[%clk h:mm:ss]` command: time left on the mover's clock after the
/// move (to the next time control), for the comment after a move.
pub fn clk_command(remaining_ms: u64) -> String {
    format!("[%clk {}]", format_hms(remaining_ms))
}

/// Below this, a move time is written to the millisecond.
const EMT_EXACT_BELOW_MS: u64 = 60_000;

/// The `[%emt h:mm:ss]` command: the time the move took. Under a minute
/// the seconds carry milliseconds (`0:00:00.347`), so fast moves do not
/// all read `0:00:00`; python-chess, lichess and [`parse_hms`] read the
/// decimal seconds. From a minute on, whole seconds (truncated).
pub fn emt_command(elapsed_ms: u64) -> String {
    if elapsed_ms < EMT_EXACT_BELOW_MS {
        format!(
            "[%emt 0:00:{:02}.{:03}]",
            elapsed_ms / 1000,
            elapsed_ms % 1000
        )
    } else {
        format!("[%emt {}]", format_hms(elapsed_ms))
    }
}

/// Finds the embedded command `[%name operand]` in a PGN comment (the text
/// between `{` and `}`) and returns its operand text (everything between
/// the space after the name and the next `]`). The name must match exactly
/// and case-sensitively; the first complete occurrence wins; `None` if
/// there is none.
pub fn find_command<'a>(comment: &'a str, name: &str) -> Option<&'a str> {
    let needle = format!("[%{name} ");
    let mut rest = comment;
    while let Some(pos) = rest.find(&needle) {
        let after = rest.get(pos + needle.len()..)?;
        if let Some(end) = after.find(']') {
            return after.get(..end);
        }
        rest = after;
    }
    None
}

/// Reads a time command such as `[%clk 1:05:23]` or `[%emt 0:05:42]` from
/// a PGN comment: `None` if the command is absent, else its time in
/// milliseconds or why it could not be read.
pub fn parse_time_command(comment: &str, name: &str) -> Option<Result<u64, TimeCommandError>> {
    find_command(comment, name).map(|op| {
        parse_hms(op).map_err(|time| TimeCommandError {
            command: name.to_string(),
            time,
        })
    })
}

/// The value of the live `Clock` tag (supplement section 5.1), e.g.
/// `W/1:34:56`: which clock is running and the time it shows (time left
/// to the next time control).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClockTag {
    /// The running clock (`W` or `B`), or `None` when the clocks are
    /// stopped (`N`).
    pub running: Option<Color>,
    /// The displayed time of the running clock. With the clocks stopped
    /// (`N`) the supplement names no clock; argus writes the time of the
    /// side to move and reads any value back unchanged.
    pub time_ms: u64,
}

impl ClockTag {
    /// The tag for the live PGN at `at_ms`: the running clock and its time
    /// left, or, when no clock runs (a pause, before the first move, after
    /// the game), `N` with the time left of `to_move`. `None` when the game
    /// is untimed (write no `Clock` tag then).
    pub fn from_clocks(clocks: &Clocks, to_move: Color, at_ms: u64) -> Option<ClockTag> {
        let running = clocks.running();
        let time_ms = clocks.remaining(running.unwrap_or(to_move), at_ms)?;
        Some(ClockTag { running, time_ms })
    }
}

impl fmt::Display for ClockTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = match self.running {
            Some(Color::White) => 'W',
            Some(Color::Black) => 'B',
            None => 'N',
        };
        write!(f, "{c}/{}", format_hms(self.time_ms))
    }
}

impl FromStr for ClockTag {
    type Err = ClockTagError;

    /// Parses `W/h:mm:ss`, `B/h:mm:ss` or `N/h:mm:ss`.
    fn from_str(s: &str) -> Result<ClockTag, ClockTagError> {
        let running = match s.get(..2) {
            Some("W/") => Some(Color::White),
            Some("B/") => Some(Color::Black),
            Some("N/") => None,
            _ => return Err(ClockTagError::NoRunningClock(s.to_string())),
        };
        let time_ms = parse_hms(s.get(2..).unwrap_or("")).map_err(|time| ClockTagError::Time {
            text: s.to_string(),
            time,
        })?;
        Ok(ClockTag { running, time_ms })
    }
}

/// The `WhiteClock` and `BlackClock` tags (supplement section 6): each
/// side's clock at the start of play, as `[("WhiteClock", "2:00:00"),
/// ("BlackClock", "2:00:00")]`. `None` when the game is untimed. Parse a
/// value back with [`parse_hms`].
pub fn start_clock_tags(control: &TimeControl) -> Option<[(&'static str, String); 2]> {
    Some([
        ("WhiteClock", format_hms(control.initial_ms(Color::White)?)),
        ("BlackClock", format_hms(control.initial_ms(Color::Black)?)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    #[test]
    fn a_span_keeps_milliseconds_under_ten_seconds_and_tenths_under_a_minute() {
        assert_eq!(format_span(0), "0.000 s");
        assert_eq!(format_span(48), "0.048 s");
        assert_eq!(format_span(1_234), "1.234 s");
        assert_eq!(format_span(9_999), "9.999 s");
        assert_eq!(format_span(10_000), "10.0 s");
        assert_eq!(format_span(59_999), "59.9 s");
        assert_eq!(format_span(60_000), "0:01:00");
        assert_eq!(format_span(229_700), "0:03:49");
    }

    #[test]
    fn rounding_truncates() {
        assert_eq!(whole_seconds(999), 0);
        assert_eq!(whole_seconds(1_000), 1);
        assert_eq!(format_hms(59_999), "0:00:59");
        assert_eq!(format_hms(3_923_999), "1:05:23");
        assert_eq!(format_hms(360_000_000), "100:00:00");
        assert_eq!(format_hms(u64::MAX), "5124095576030:25:51");
    }

    #[test]
    fn cc_values_are_ddd_hh_mm_ss() {
        let (w, b) = cc_values(5_694_999, 90_061_000);
        assert_eq!(w.to_string(), "000:01:34:54");
        assert_eq!(b.to_string(), "001:01:01:01");
        assert_eq!(cc_values(u64::MAX, 0).0, ClockValue::MAX);
    }

    #[test]
    fn parse_hms_accepts_pgn_times() {
        assert_eq!(parse_hms("1:05:23"), Ok(3_923_000));
        assert_eq!(parse_hms("0:00:07"), Ok(7_000));
        assert_eq!(parse_hms("12:00:00"), Ok(43_200_000));
        assert_eq!(parse_hms(" 0:00:07.5 "), Ok(7_500));
        assert_eq!(parse_hms("0:02:59.95"), Ok(179_950));
        for ms in [0, 7_000, 3_923_000, 359_999_000] {
            assert_eq!(parse_hms(&format_hms(ms)), Ok(ms));
        }
    }

    #[test]
    fn parse_hms_rejects_bad_times() {
        for s in [
            "",
            "1:05",
            "1:5:23",
            "1:05:3",
            "1:60:00",
            "1:00:60",
            "a:00:00",
            "-1:00:00",
            "1:00:00:00",
            "0:00:07.",
            "0:00:07.1234",
            "0:00:07.x",
            "99999999999999999999:00:00",
            "+1:00:00",
        ] {
            let e = parse_hms(s).expect_err(s).to_string();
            assert!(e.contains("h:mm:ss"), "{e}");
        }
    }

    #[test]
    fn comment_commands() {
        // Supplement 3.2.1 and 3.2.6.
        let c = "Optional leading comments [%clk 1:05:23] optional trailing comments";
        assert_eq!(find_command(c, "clk"), Some("1:05:23"));
        let c = "[%clk 0:00:07][%eval -6.05] White is toast";
        assert_eq!(parse_time_command(c, "clk"), Some(Ok(7_000)));
        assert_eq!(find_command(c, "eval"), Some("-6.05"));
        assert_eq!(find_command(c, "emt"), None);
        assert_eq!(find_command("[%clkx 1:00:00]", "clk"), None);
        assert_eq!(find_command("[%clk 1:00:00", "clk"), None);
        assert!(matches!(
            parse_time_command("[%emt soon]", "emt"),
            Some(Err(_))
        ));
        assert_eq!(clk_command(6_921_999), "[%clk 1:55:21]");
        assert_eq!(emt_command(342_000), "[%emt 0:05:42]");
    }

    #[test]
    fn clock_tag_example_from_section_5() {
        let tag: ClockTag = "B/0:45:56".parse().unwrap();
        assert_eq!(
            tag,
            ClockTag {
                running: Some(Black),
                time_ms: 2_756_000
            }
        );
        assert_eq!(tag.to_string(), "B/0:45:56");
        let n: ClockTag = "N/1:00:00".parse().unwrap();
        assert_eq!(n.running, None);
        assert_eq!(n.to_string(), "N/1:00:00");
        for bad in ["", "X/1:00:00", "W1:00:00", "W/", "W/1:00", "é/1:00:00"] {
            assert!(bad.parse::<ClockTag>().is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_tag_from_clocks() {
        let tc: TimeControl = "300".parse().unwrap();
        let mut c = Clocks::new(&tc);
        let n = ClockTag::from_clocks(&c, White, 0).unwrap();
        assert_eq!(n.to_string(), "N/0:05:00");
        c.start(Black, 1_000);
        let b = ClockTag::from_clocks(&c, White, 62_500).unwrap();
        assert_eq!(b.to_string(), "B/0:03:58");
        assert_eq!(
            ClockTag::from_clocks(&Clocks::new(&TimeControl::Untimed), White, 0),
            None
        );
        assert_eq!(start_clock_tags(&TimeControl::Unknown), None);
    }

    /// The example game of supplement section 8, replayed on our clocks:
    /// every `[%clk]`, the start tags and the live `Clock` tag come out as
    /// printed there. (The example's `[%emt 0:20:00]` on 3. Nc3 is, as the
    /// supplement says, invention: its clocks imply 21 minutes.)
    #[test]
    fn example_game_from_section_8() {
        let tc: TimeControl = "40/7200:3600".parse().unwrap();
        let tags = start_clock_tags(&tc).unwrap();
        assert_eq!(
            tags,
            [
                ("WhiteClock", "2:00:00".to_string()),
                ("BlackClock", "2:00:00".to_string())
            ]
        );
        let mut c = Clocks::new(&tc);
        // (side, seconds the move took, [%clk] after it)
        let moves = [
            (White, 59, "1:59:01"),
            (Black, 28, "1:59:32"),
            (White, 61, "1:58:00"),
            (Black, 151, "1:57:01"),
            (White, 1260, "1:37:00"),
            (Black, 156, "1:54:25"),
        ];
        let mut t = 0;
        for (side, secs, clk) in moves {
            c.start(side, t);
            t += secs * 1000;
            let mt = c.stop(side, t, 0);
            assert_eq!(
                clk_command(mt.remaining_ms.unwrap()),
                format!("[%clk {clk}]")
            );
            // Reading back what we wrote gives the same time.
            let comment = format!(
                "{} and {}",
                clk_command(mt.remaining_ms.unwrap()),
                emt_command(mt.elapsed_ms)
            );
            assert_eq!(
                parse_time_command(&comment, "clk"),
                Some(Ok(mt.remaining_ms.unwrap()))
            );
            assert_eq!(parse_time_command(&comment, "emt"), Some(Ok(secs * 1000)));
        }
        c.start(White, t);
        let tag = ClockTag::from_clocks(&c, White, t + 124_000).unwrap();
        assert_eq!(tag.to_string(), "W/1:34:56");
        // And the example's own comment reads as printed.
        let nc3 = "[%clk 1:37:00] Beliavsky clearly\nsuprised here takes a full [%emt 0:20:00] on this move";
        assert_eq!(parse_time_command(nc3, "clk"), Some(Ok(5_820_000)));
        assert_eq!(parse_time_command(nc3, "emt"), Some(Ok(1_200_000)));
    }
}
