//! The wall clock, read at the edge: the cores take it as a value
//! (`referee::WallClock`) and never read it themselves.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::referee::WallClock;

/// Milliseconds since 1970 now (0 if the system clock is before 1970).
pub fn unix_ms_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// What the wall clock reads now, as the core's time `at`: ms since 1970
/// and the local time's offset from UTC (the system's time zone).
pub fn wall_clock_now(at: u64) -> WallClock {
    let unix_ms = unix_ms_now();
    WallClock {
        at,
        unix_ms,
        utc_offset_min: local_offset_min(unix_ms),
    }
}

/// The local time's offset from UTC, in minutes east, at the wall-clock
/// time `unix_ms`, as the system's time zone (`TZ`, `/etc/localtime`)
/// says: `localtime_r`'s `tm_gmtoff`, thread-safe. 0 (UTC) where that
/// cannot be read, and on systems other than Unix.
#[cfg(unix)]
pub fn local_offset_min(unix_ms: u64) -> i32 {
    let Ok(t) = libc::time_t::try_from(unix_ms / 1000) else {
        return 0;
    };
    // SAFETY: `tm` is plain data that localtime_r fills; both pointers
    // are valid for the call, and localtime_r keeps neither.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    let filled = unsafe { libc::localtime_r(&t, &mut tm) };
    if filled.is_null() {
        return 0;
    }
    i32::try_from(tm.tm_gmtoff / 60).unwrap_or(0)
}

/// The local time's offset from UTC: UTC itself off Unix.
#[cfg(not(unix))]
pub fn local_offset_min(_unix_ms: u64) -> i32 {
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_local_offset_is_a_real_offset() {
        let off = local_offset_min(1_700_000_000_000);
        assert!((-14 * 60..=14 * 60).contains(&off), "{off}");
    }
}
