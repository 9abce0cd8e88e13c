//! EPD operand basetypes (spec section 5.2) that need more than a string:
//! the clock basetype `ddd:hh:mm:ss`, the date `yyyy.mm.dd` and the time of
//! day `hh:mm:ss`.

use std::fmt;

/// An operand that is not of its basetype: which basetype, the text (as
/// given) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BasetypeError {
    /// Not of the basetype's form (`form`: how it is written).
    #[error("{what} {text:?} is not of the form {form}")]
    Form {
        what: &'static str,
        text: String,
        form: &'static str,
    },
    /// Of the form, but a field is out of its range.
    #[error("{what} {text:?} has a field out of range")]
    Range { what: &'static str, text: String },
}

impl BasetypeError {
    fn form(what: &'static str, text: &str, form: &'static str) -> BasetypeError {
        BasetypeError::Form {
            what,
            text: text.to_string(),
            form,
        }
    }

    fn range(what: &'static str, text: &str) -> BasetypeError {
        BasetypeError::Range {
            what,
            text: text.to_string(),
        }
    }
}

/// A clock value (spec 5.2.7): a whole number of seconds, at most
/// 999 days 23:59:59, written as `ddd:hh:mm:ss`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct ClockValue(pub u64);

impl ClockValue {
    /// The largest value the 12-character format can carry.
    pub const MAX: ClockValue = ClockValue(999 * 86_400 + 23 * 3600 + 59 * 60 + 59);

    /// Builds a value from seconds, saturating at [`ClockValue::MAX`].
    pub fn from_secs(secs: u64) -> ClockValue {
        ClockValue(secs.min(Self::MAX.0))
    }

    /// Parses exactly `ddd:hh:mm:ss` (hours 00-23, minutes and seconds 00-59).
    pub fn parse(s: &str) -> Result<ClockValue, BasetypeError> {
        let b = s.as_bytes();
        let shape_ok = b.len() == 12
            && b[3] == b':'
            && b[6] == b':'
            && b[9] == b':'
            && [0, 1, 2, 4, 5, 7, 8, 10, 11]
                .iter()
                .all(|&i| b[i].is_ascii_digit());
        if !shape_ok {
            return Err(BasetypeError::form("clock value", s, "ddd:hh:mm:ss"));
        }
        let num = |r: std::ops::Range<usize>| -> u64 { s[r].parse().unwrap_or(0) };
        let (d, h, m, sec) = (num(0..3), num(4..6), num(7..9), num(10..12));
        if h > 23 || m > 59 || sec > 59 {
            return Err(BasetypeError::range("clock value", s));
        }
        Ok(ClockValue(((d * 24 + h) * 60 + m) * 60 + sec))
    }
}

impl fmt::Display for ClockValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0.min(Self::MAX.0);
        write!(
            f,
            "{:03}:{:02}:{:02}:{:02}",
            s / 86_400,
            s / 3600 % 24,
            s / 60 % 60,
            s % 60
        )
    }
}

/// A date (spec 5.2.5): `yyyy.mm.dd`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

impl Date {
    pub fn parse(s: &str) -> Result<Date, BasetypeError> {
        let b = s.as_bytes();
        let shape_ok = b.len() == 10
            && b[4] == b'.'
            && b[7] == b'.'
            && [0, 1, 2, 3, 5, 6, 8, 9]
                .iter()
                .all(|&i| b[i].is_ascii_digit());
        if !shape_ok {
            return Err(BasetypeError::form("date", s, "yyyy.mm.dd"));
        }
        let year: u16 = s[0..4].parse().unwrap_or(0);
        let month: u8 = s[5..7].parse().unwrap_or(0);
        let day: u8 = s[8..10].parse().unwrap_or(0);
        if year == 0 || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
            return Err(BasetypeError::range("date", s));
        }
        Ok(Date { year, month, day })
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }
}

/// A time of day (spec 5.2.6): `hh:mm:ss`, UTC when used in `ts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TimeOfDay {
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
}

impl TimeOfDay {
    pub fn parse(s: &str) -> Result<TimeOfDay, BasetypeError> {
        let b = s.as_bytes();
        let shape_ok = b.len() == 8
            && b[2] == b':'
            && b[5] == b':'
            && [0, 1, 3, 4, 6, 7].iter().all(|&i| b[i].is_ascii_digit());
        if !shape_ok {
            return Err(BasetypeError::form("time of day", s, "hh:mm:ss"));
        }
        let hour: u8 = s[0..2].parse().unwrap_or(99);
        let minute: u8 = s[3..5].parse().unwrap_or(99);
        let second: u8 = s[6..8].parse().unwrap_or(99);
        if hour > 23 || minute > 59 || second > 59 {
            return Err(BasetypeError::range("time of day", s));
        }
        Ok(TimeOfDay {
            hour,
            minute,
            second,
        })
    }
}

impl fmt::Display for TimeOfDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}:{:02}", self.hour, self.minute, self.second)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_value_round_trips() {
        for s in [
            "000:00:00:00",
            "000:01:34:56",
            "001:23:59:59",
            "999:23:59:59",
        ] {
            assert_eq!(ClockValue::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(ClockValue::parse("000:01:00:05").unwrap(), ClockValue(3605));
        assert_eq!(ClockValue::from_secs(u64::MAX), ClockValue::MAX);
    }

    #[test]
    fn clock_value_rejects_bad_shapes() {
        for s in [
            "",
            "00:00:00:00",
            "000:24:00:00",
            "000:00:60:00",
            "000-00:00:00",
            "aaa:00:00:00",
        ] {
            assert!(ClockValue::parse(s).is_err(), "{s}");
        }
    }

    #[test]
    fn date_and_time_of_day() {
        assert_eq!(Date::parse("1995.03.31").unwrap().to_string(), "1995.03.31");
        assert_eq!(
            Date::parse("1995.13.01").unwrap_err().to_string(),
            "date \"1995.13.01\" has a field out of range"
        );
        assert!(Date::parse("1995-03-31").is_err());
        assert_eq!(
            TimeOfDay::parse("23:05:09").unwrap().to_string(),
            "23:05:09"
        );
        assert!(TimeOfDay::parse("24:00:00").is_err());
    }
}
