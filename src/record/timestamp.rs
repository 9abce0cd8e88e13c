//! Civil (proleptic Gregorian) dates and times from `SystemTime` or
//! milliseconds since 1970, without a date crate: UTC, or local time given
//! its offset from UTC (`app::wall::local_offset_min` reads it at the edge).

use std::time::{SystemTime, UNIX_EPOCH};

/// The date `(year, month 1-12, day 1-31)` that is `days` days after
/// 1970-01-01 (negative: before). Howard Hinnant's `civil_from_days`
/// algorithm; exact for every `i64` input.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = i128::from(days) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11]
    let day = doy - (153 * mp + 2) / 5 + 1; // [1, 31]
    let month = if mp < 10 { mp + 3 } else { mp - 9 }; // [1, 12]
    let year = yoe + era * 400 + i128::from(month <= 2);
    (
        i64::try_from(year).unwrap_or(i64::MAX),
        u32::try_from(month).unwrap_or(1),
        u32::try_from(day).unwrap_or(1),
    )
}

/// The UTC date of `t` as PGN writes it: `YYYY.MM.DD`.
pub fn pgn_date(t: SystemTime) -> String {
    let secs: i128 = match t.duration_since(UNIX_EPOCH) {
        Ok(d) => i128::from(d.as_secs()),
        Err(e) => -i128::from(e.duration().as_secs()),
    };
    let days = i64::try_from(secs.div_euclid(86_400)).unwrap_or(i64::MAX);
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// `t` as `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC, milliseconds truncated).
pub fn format_utc(t: SystemTime) -> String {
    let mut s = String::with_capacity(24);
    write_utc(&mut s, t);
    s
}

/// [`format_utc`] appended to `s` (a line built in one buffer).
pub fn write_utc(s: &mut String, t: SystemTime) {
    use std::fmt::Write;
    let ms: i128 = match t.duration_since(UNIX_EPOCH) {
        Ok(d) => i128::try_from(d.as_millis()).unwrap_or(i128::MAX),
        Err(e) => -i128::try_from(e.duration().as_millis()).unwrap_or(i128::MAX),
    };
    let secs = ms.div_euclid(1000);
    let milli = ms.rem_euclid(1000);
    let days = i64::try_from(secs.div_euclid(86_400)).unwrap_or(i64::MAX);
    let sod = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    // Years 0 to 9999 (every time a journal or transcript stamps) are
    // written digit by digit, not through `fmt` (a stamp on every line);
    // others as `{:04}` writes them.
    if let Ok(year @ 0..=9999) = u32::try_from(y) {
        push_digits(s, year, 4);
        s.push('-');
        push_digits(s, m, 2);
        s.push('-');
        push_digits(s, d, 2);
        s.push('T');
        // Of a day and of a second: below 86,400 and 1,000, so in `u32`.
        for (n, width, after) in [
            (sod / 3600, 2, ':'),
            (sod / 60 % 60, 2, ':'),
            (sod % 60, 2, '.'),
            (milli, 3, 'Z'),
        ] {
            push_digits(s, u32::try_from(n).unwrap_or(0), width);
            s.push(after);
        }
        return;
    }
    // Writing to a String cannot fail.
    let _ = write!(
        s,
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{milli:03}Z",
        sod / 3600,
        sod / 60 % 60,
        sod % 60
    );
}

/// The last `width` decimal digits of `n`, with leading zeros.
fn push_digits(s: &mut String, n: u32, width: u32) {
    for place in (0..width).rev() {
        let digit = n / 10u32.pow(place) % 10;
        s.push(char::from(b'0' + u8::try_from(digit).unwrap_or(0)));
    }
}

/// The wall-clock time `unix_ms` (ms since 1970) as the PGN's
/// `GameStartTime` and `GameEndTime` tags write it (fastchess's form): the
/// local time `offset_min` minutes east of UTC, to the second, with the
/// offset, `YYYY-MM-DDTHH:MM:SS +hhmm`. The one home of that form.
pub fn pgn_game_time(unix_ms: u64, offset_min: i32) -> String {
    let secs = i128::from(unix_ms / 1000) + i128::from(offset_min) * 60;
    let days = i64::try_from(secs.div_euclid(86_400)).unwrap_or(i64::MAX);
    let sod = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    let sign = if offset_min < 0 { '-' } else { '+' };
    let off = offset_min.unsigned_abs();
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02} {sign}{:02}{:02}",
        sod / 3600,
        sod / 60 % 60,
        sod % 60,
        off / 60,
        off % 60
    )
}

/// `secs` seconds as the PGN's `GameDuration` tag writes it (fastchess's
/// form): `HH:MM:SS` (more digits of hours past 99).
pub fn pgn_duration(secs: u64) -> String {
    format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn pgn_dates() {
        assert_eq!(pgn_date(UNIX_EPOCH), "1970.01.01");
        assert_eq!(
            pgn_date(UNIX_EPOCH + Duration::from_secs(19_782 * 86_400 + 86_399)),
            "2024.02.29"
        );
    }

    #[test]
    fn known_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-719_468), (0, 3, 1));
        let _ = civil_from_days(i64::MIN);
        let _ = civil_from_days(i64::MAX);
    }

    #[test]
    fn days_are_consecutive() {
        let days_in = |y: i64, m: u32| match m {
            2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        let mut prev = civil_from_days(-800_000);
        for z in -799_999..800_000 {
            let cur = civil_from_days(z);
            let (y, m, d) = prev;
            let expect = if d < days_in(y, m) {
                (y, m, d + 1)
            } else if m < 12 {
                (y, m + 1, 1)
            } else {
                (y + 1, 1, 1)
            };
            assert_eq!(cur, expect, "day {z}");
            prev = cur;
        }
    }

    #[test]
    fn game_times_as_fastchess_writes_them() {
        let t = 1_700_000_000_999; // 2023-11-14T22:13:20.999Z
        assert_eq!(pgn_game_time(t, 0), "2023-11-14T22:13:20 +0000");
        assert_eq!(pgn_game_time(t, 60), "2023-11-14T23:13:20 +0100");
        assert_eq!(pgn_game_time(t, 150), "2023-11-15T00:43:20 +0230");
        assert_eq!(pgn_game_time(t, -300), "2023-11-14T17:13:20 -0500");
        assert_eq!(pgn_game_time(t, -30), "2023-11-14T21:43:20 -0030");
        assert_eq!(pgn_game_time(0, -60), "1969-12-31T23:00:00 -0100");
        let _ = pgn_game_time(u64::MAX, i32::MAX);
        let _ = pgn_game_time(0, i32::MIN);
    }

    #[test]
    fn durations_as_fastchess_writes_them() {
        assert_eq!(pgn_duration(0), "00:00:00");
        assert_eq!(pgn_duration(59), "00:00:59");
        assert_eq!(pgn_duration(3_723), "01:02:03");
        assert_eq!(pgn_duration(100 * 3600 + 1), "100:00:01");
    }

    #[test]
    fn formats_utc() {
        let t = UNIX_EPOCH + Duration::from_millis(1_700_000_000_123);
        assert_eq!(format_utc(t), "2023-11-14T22:13:20.123Z");
        assert_eq!(format_utc(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let before = UNIX_EPOCH - Duration::from_millis(1);
        assert_eq!(format_utc(before), "1969-12-31T23:59:59.999Z");
        let far = UNIX_EPOCH + Duration::from_millis(253_402_300_800_000);
        assert_eq!(format_utc(far), "10000-01-01T00:00:00.000Z");
    }

    proptest::proptest! {
        /// Digit by digit, a stamp is what `fmt` writes with the widths
        /// `{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z`, from before year
        /// 0 to after 9999.
        #[test]
        fn a_stamp_is_its_fields_zero_padded(ms in -70_000_000_000_000i64..300_000_000_000_000) {
            let t = if ms < 0 {
                UNIX_EPOCH - Duration::from_millis(ms.unsigned_abs())
            } else {
                UNIX_EPOCH + Duration::from_millis(ms.unsigned_abs())
            };
            let secs = ms.div_euclid(1000);
            let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
            let sod = secs.rem_euclid(86_400);
            let expected = format!(
                "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
                sod / 3600,
                sod / 60 % 60,
                sod % 60,
                ms.rem_euclid(1000)
            );
            proptest::prop_assert_eq!(format_utc(t), expected);
        }
    }
}
