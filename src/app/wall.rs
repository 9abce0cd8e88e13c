//! The wall clock, read at the edge: the cores take it as a value
//! (`referee::WallClock`) and never read it themselves.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::record::timestamp::local_offset_min;
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
