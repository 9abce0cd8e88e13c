//! Time controls and chess clocks. Pure: no I/O, and the system clock is
//! never read; every time is passed in by the caller as `u64` milliseconds
//! since the session started (`at_ms`).
//!
//! * [`TimeControl`] (file `control.rs`): the PGN `TimeControl` value, its
//!   strict PGN parser (`str::parse`) and printer (`Display`), and
//!   [`parse_friendly`] for the command line (`60+1`, `10+0.1`, `3m+2`, `0:30+1`).
//!   Records always carry the PGN form.
//! * [`Clocks`] (file `clocks.rs`): both players' clocks under a control.
//! * [`wire_time_ms`] (file `credit.rs`): a record's own time on the serial
//!   line; [`line_credit_ms`]: the credit for a reply line, as much of its
//!   wire time as the way it came in ([`Arrival`]) shows it really took.
//! * Formats (file `format.rs`): the rounding rule [`whole_seconds`]
//!   (truncate), EPD `cc` values, PGN `[%clk]`/`[%emt]`, the `Clock`,
//!   `WhiteClock` and `BlackClock` tags.
//!
//! # Driving a game
//!
//! ```
//! use argus::clock::{Clocks, LineSettings, TimeControl, wire_time_ms};
//! use shakmaty::Color;
//!
//! let tc: TimeControl = "40/7200:3600".parse().unwrap();
//! let mut clocks = Clocks::new(&tc);
//! let line = LineSettings::default(); // 9600 8N1
//!
//! // The last byte of `refcom respond;` to White left the port at 5_000 ms:
//! clocks.start(Color::White, 5_000);
//! // Arm the referee's timer for the flag:
//! assert_eq!(clocks.next_deadline(), Some(5_000 + 7_200_000));
//!
//! // White's 80-byte reply line ended at 17_000 ms: stop with the wire credit.
//! let mt = clocks.stop(Color::White, 17_000, wire_time_ms(80, &line));
//! assert_eq!(mt.charged_ms, 12_000 - 83);
//! assert!(!mt.flagged);
//! // mt.remaining_ms -> `[%clk]`, mt.elapsed_ms -> `[%emt]`.
//!
//! // The respond record to Black left at 17_400 ms:
//! clocks.start(Color::Black, 17_400);
//! // ... and so on. A supervisor pause:
//! clocks.halt(20_000);
//! clocks.resume(60_000);
//! ```
//!
//! 1. Build [`Clocks::new`] from the game's control when the game starts.
//! 2. When the last byte of a `respond` record to a side has left the port,
//!    [`Clocks::start`] that side at that instant.
//! 3. When that side's reply line has arrived (time of its line end),
//!    [`Clocks::stop`] it with `credit_ms` = [`line_credit_ms`] of the reply
//!    line's length (line end included) and its arrival at the port's
//!    settings. Check
//!    [`MoveTime::flagged`]: if set, the flag fell before the move was
//!    completed and the move must not be played.
//! 4. After every call that changes the clocks, (re)arm the timer for
//!    [`Clocks::next_deadline`]. When it fires, [`Clocks::flag`]`(now)`
//!    names the side whose time is gone (then the game ends on time, or is
//!    drawn if the opponent cannot mate). `flag` is `None` for every
//!    instant before the deadline and `Some` from it on; it uses the raw
//!    time, as no reply (and so no wire credit) is known yet.
//! 5. A supervisor pause: [`Clocks::halt`], later [`Clocks::resume`]; the
//!    move is not ended, its time before and after the pause adds up.
//! 6. For every record: [`cc_values`]`(used(White), used(Black))`; for the
//!    live PGN: [`ClockTag::from_clocks`].
//!
//! Untimed (`-`) and unknown (`?`) controls: clocks count time used and
//! moves, [`Clocks::remaining`] is `None`, they never flag and have no
//! deadline.
//!
//! State is never restored by setters: after a crash the referee rebuilds
//! the clocks by replaying the same `start`/`stop`/`halt`/`resume` calls
//! with the same times, which gives the same state.

mod clocks;
mod control;
mod credit;
mod format;
#[cfg(test)]
mod proptests;

pub use clocks::{Clocks, MoveTime};
pub use control::{
    BadTimeControl, MAX_SECONDS, Period, TimeControl, TimeControlError, parse_friendly,
};
pub use credit::{
    Arrival, HOP_GRACE_MS, LineSettings, hop_credit_ms, line_credit_ms, wire_time_ms, wire_time_us,
};
pub use format::{
    ClockTag, ClockTagError, HmsError, HmsProblem, TimeCommandError, cc_values, clk_command,
    emt_command, find_command, format_hms, format_span, parse_hms, parse_time_command,
    start_clock_tags, whole_seconds,
};
