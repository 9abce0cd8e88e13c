//! The PGN `TimeControl` (PGN standard 9.6.1): its value type, the strict
//! PGN parser and printer, and a friendlier parser for the command line.
//!
//! # The PGN form
//!
//! A TimeControl is `?` (unknown), `-` (no time control), a sandclock `*N`,
//! or one or more period descriptors separated by `:`:
//!
//! | descriptor | meaning                                        | example       |
//! |------------|------------------------------------------------|---------------|
//! | `M/S`      | `M` moves in `S` seconds                       | `40/7200`     |
//! | `S`        | sudden death: the rest of the game in `S` s    | `300`         |
//! | `S+I`      | sudden death, `I` seconds added after each move| `4500+60`     |
//!
//! A sudden-death descriptor (with or without increment) may only be the
//! last one; `?`, `-` and `*N` must be alone. Every number is plain ASCII
//! digits (no sign, no spaces); move counts and period lengths must be
//! positive, an increment may be `0` (`300+0` reads as `300`).
//!
//! **After the last period.** When the last descriptor is a counted period
//! (`40/7200`, `40/7200:20/3600`), that last period repeats for the rest of
//! the game: after every further `M` moves, another `S` seconds are added.
//! This is the traditional reading of such controls.

use std::fmt;
use std::str::FromStr;

use shakmaty::Color;

/// Largest number of seconds accepted in one field. Far above any real
/// control (about 31 years), and small enough that sums of many periods
/// in milliseconds stay far from `u64` overflow.
pub const MAX_SECONDS: u64 = 1_000_000_000;

/// One period of a time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Period {
    /// Moves to be made in this period; `None` is sudden death (the rest of
    /// the game).
    pub moves: Option<u32>,
    /// Time given for the period, in milliseconds (added to the clock when
    /// the period begins).
    pub base_ms: u64,
    /// Time added to a player's clock after each move made in this period,
    /// in milliseconds (Fischer increment).
    pub increment_ms: u64,
}

/// A PGN TimeControl value. See the module documentation for the forms.
///
/// Build one with [`str::parse`] (strict PGN), [`parse_friendly`] (command
/// line), or [`TimeControl::periods`] (checked). `Display` prints the PGN
/// form, which round-trips through `parse` for every value those three
/// produce.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// `?`: the time control is unknown. Clocks count time used, never flag.
    Unknown,
    /// `-`: no time control. Clocks count time used, never flag.
    Untimed,
    /// One or more periods, played in order. Only the last may be sudden
    /// death (`moves: None`); if the last is counted it repeats (see the
    /// module documentation). An empty list behaves like `Untimed`.
    Periods(Vec<Period>),
    /// `*N`: a sandclock of `total_ms` milliseconds, half in each chamber at
    /// the start; time used by one side flows to the other.
    Sandclock {
        /// Total time in both chambers, in milliseconds.
        total_ms: u64,
    },
}

impl TimeControl {
    /// Builds a `Periods` control after checking the PGN rules: at least
    /// one period, counted periods have at least one move, every period has
    /// a positive base time, only the last period may be sudden death and
    /// only a sudden-death period may carry an increment, and all times are
    /// at most [`MAX_SECONDS`]. Times are milliseconds; the PGN form writes a
    /// fraction of a second with up to three decimals, so it stays exact.
    pub fn periods(periods: Vec<Period>) -> Result<TimeControl, TimeControlError> {
        if periods.is_empty() {
            return Err(TimeControlError::NoPeriod);
        }
        let last = periods.len() - 1;
        for (i, p) in periods.iter().enumerate() {
            let n = i + 1;
            if p.moves == Some(0) {
                return Err(TimeControlError::PeriodZeroMoves(n));
            }
            if p.base_ms == 0 {
                return Err(TimeControlError::PeriodNoTime(n));
            }
            for (what, ms) in [("time", p.base_ms), ("increment", p.increment_ms)] {
                if ms / 1000 > MAX_SECONDS {
                    return Err(TimeControlError::PeriodAboveLimit {
                        n,
                        what,
                        seconds: ms / 1000,
                    });
                }
            }
            if p.moves.is_none() && i != last {
                return Err(TimeControlError::PeriodSuddenDeathNotLast(n));
            }
            if p.moves.is_some() && p.increment_ms != 0 {
                return Err(TimeControlError::PeriodCountedIncrement(n));
            }
        }
        Ok(TimeControl::Periods(periods))
    }

    /// Whether clocks can run out (periods or sandclock). `Unknown`,
    /// `Untimed` and an empty period list are not timed.
    pub fn is_timed(&self) -> bool {
        match self {
            TimeControl::Unknown | TimeControl::Untimed => false,
            TimeControl::Periods(p) => !p.is_empty(),
            TimeControl::Sandclock { .. } => true,
        }
    }

    /// The time on `side`'s clock before the first move, in milliseconds;
    /// `None` when not timed. A sandclock starts half full on each side
    /// (White gets the odd millisecond, if any).
    pub fn initial_ms(&self, side: Color) -> Option<u64> {
        match self {
            TimeControl::Unknown | TimeControl::Untimed => None,
            TimeControl::Periods(p) => p.first().map(|p| p.base_ms),
            TimeControl::Sandclock { total_ms } => {
                let black = total_ms / 2;
                Some(match side {
                    Color::White => total_ms - black,
                    Color::Black => black,
                })
            }
        }
    }

    /// The period with index `index` (0 = first), following the rule that
    /// the last period repeats: any index past the end gives the last
    /// period. `None` only for non-period controls or an empty list.
    pub fn period(&self, index: usize) -> Option<&Period> {
        match self {
            TimeControl::Periods(p) => p.get(index).or_else(|| p.last()),
            _ => None,
        }
    }

    /// The period rules for one move, made in period `index` as the
    /// `moves_in_period`-th move there (this one counted): the time it
    /// gives the side (the period's increment, plus the next period's base
    /// when the move ends the period; the last period repeats) and the
    /// side's new `(index, moves_in_period)`. `(0, index, moves_in_period)`
    /// for controls without periods. The referee's clocks and the engine
    /// bridge's estimate both follow this one rule.
    pub fn after_move(&self, index: usize, moves_in_period: u32) -> (u64, usize, u32) {
        let Some(period) = self.period(index) else {
            return (0, index, moves_in_period);
        };
        let mut given = period.increment_ms;
        if period.moves.is_none_or(|m| moves_in_period < m) {
            return (given, index, moves_in_period);
        }
        let count = match self {
            TimeControl::Periods(p) => p.len(),
            _ => 1,
        };
        let next = index.saturating_add(1).min(count.saturating_sub(1));
        given = given.saturating_add(self.period(next).map_or(0, |p| p.base_ms));
        (given, next, 0)
    }
}

/// Writes milliseconds as PGN seconds; a fraction is written with up to
/// three decimals (`10+0.1`, as cutechess-cli and fastchess write it).
fn write_seconds(f: &mut fmt::Formatter<'_>, ms: u64) -> fmt::Result {
    let (s, frac) = (ms / 1000, ms % 1000);
    if frac == 0 {
        write!(f, "{s}")
    } else {
        let digits = format!("{frac:03}");
        write!(f, "{s}.{}", digits.trim_end_matches('0'))
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Unknown => f.write_str("?"),
            TimeControl::Untimed => f.write_str("-"),
            TimeControl::Periods(periods) if periods.is_empty() => f.write_str("-"),
            TimeControl::Periods(periods) => {
                for (i, p) in periods.iter().enumerate() {
                    if i > 0 {
                        f.write_str(":")?;
                    }
                    if let Some(m) = p.moves {
                        write!(f, "{m}/")?;
                    }
                    write_seconds(f, p.base_ms)?;
                    if p.increment_ms > 0 {
                        f.write_str("+")?;
                        write_seconds(f, p.increment_ms)?;
                    }
                }
                Ok(())
            }
            TimeControl::Sandclock { total_ms } => {
                f.write_str("*")?;
                write_seconds(f, *total_ms)
            }
        }
    }
}

impl FromStr for TimeControl {
    type Err = BadTimeControl;

    /// Parses the strict PGN form (see the module documentation).
    /// Surrounding whitespace is ignored.
    fn from_str(s: &str) -> Result<TimeControl, BadTimeControl> {
        parse_with(s, Syntax::Pgn).map_err(|why| BadTimeControl {
            text: s.trim().to_string(),
            pgn: true,
            why,
        })
    }
}

/// A time control that does not read: the text (trimmed), whether it was
/// read as a PGN tag's value or as typed by a user, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct BadTimeControl {
    /// The text as given, trimmed.
    pub text: String,
    /// Read as the strict PGN form (a tag, a journal) rather than as typed.
    pub pgn: bool,
    /// What was wrong with it.
    pub why: TimeControlError,
}

impl fmt::Display for BadTimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = if self.pgn {
            "bad PGN TimeControl"
        } else {
            "bad time control"
        };
        write!(f, "{what} {:?}: {}", self.text, self.why)
    }
}

/// What is wrong with a time control (the PGN rules a list of periods
/// breaks, or the part of the text that does not read, inside the
/// descriptor or time it belongs to).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    #[error("a time control needs at least one period")]
    NoPeriod,
    #[error("period {0} has zero moves; it needs at least one")]
    PeriodZeroMoves(usize),
    #[error("period {0} has no time; it needs a positive time")]
    PeriodNoTime(usize),
    #[error("period {n} {what} {seconds} s is above the limit of {MAX_SECONDS} s")]
    PeriodAboveLimit {
        n: usize,
        what: &'static str,
        seconds: u64,
    },
    #[error("period {0} is sudden death (no move count) but is not the last period")]
    PeriodSuddenDeathNotLast(usize),
    #[error(
        "period {0} has both a move count and an increment; PGN allows an increment only on a \
         final sudden-death period"
    )]
    PeriodCountedIncrement(usize),
    #[error("empty")]
    Empty,
    #[error("a sandclock (*N) must be the only descriptor")]
    SandclockNotAlone,
    #[error("sandclock: {0}")]
    Sandclock(Box<TimeControlError>),
    #[error("a sandclock needs a positive number of seconds")]
    SandclockZero,
    /// Descriptor `n` (1-based), as written, and what is wrong with it.
    #[error("descriptor {n} {text:?}: {why}")]
    Descriptor {
        n: usize,
        text: String,
        why: Box<TimeControlError>,
    },
    #[error("an increment is allowed only in the last descriptor")]
    IncrementNotLast,
    #[error("a sudden-death period must be the last descriptor")]
    SuddenDeathNotLast,
    #[error("empty (two ':' in a row, or ':' at an end)")]
    EmptyDescriptor,
    #[error("{0:?} must be the only descriptor")]
    NotAlone(String),
    #[error("missing move count before '/'")]
    MissingMoveCount,
    #[error("missing seconds after '/'")]
    MissingTimeAfterSlash,
    #[error("a period with a move count cannot have an increment")]
    CountedIncrement,
    #[error("move count: {0}")]
    MoveCount(Box<TimeControlError>),
    #[error("move count {0} is too large")]
    MoveCountTooLarge(u64),
    #[error("move count must be at least 1")]
    MoveCountZero,
    #[error("missing seconds before '+'")]
    MissingTimeBeforePlus,
    #[error("missing increment after '+'")]
    MissingIncrement,
    #[error("increment: {0}")]
    Increment(Box<TimeControlError>),
    #[error("the period's time must be positive")]
    NotPositive,
    #[error("missing number")]
    MissingNumber,
    #[error("{0:?} is not a plain whole number")]
    NotWhole(String),
    #[error("{0} is too large (limit {MAX_SECONDS})")]
    TooLarge(String),
    #[error("{0} is too large (limit {MAX_SECONDS} s)")]
    TooManySeconds(String),
    #[error("{0:?} is not a number like 10 or 0.1")]
    NotDecimal(String),
    #[error("{0:?} is finer than a millisecond")]
    FinerThanMs(String),
    #[error("{0:?} is not a time like 90, 1:30 or 1:00:00")]
    NotClockForm(String),
    #[error("{text:?}: {field} is not below 60")]
    NotBelow60 { text: String, field: String },
    #[error("{0:?} is too long (limit {MAX_SECONDS} s)")]
    TooLong(String),
    #[error("{0:?} is not a duration like 90, 90s, 5m or 1h30m")]
    NotDuration(String),
    #[error("{text:?}: the number {number} has no unit (h, m or s)")]
    NoUnit { text: String, number: String },
    #[error("{text:?}: unknown unit {unit:?} (use h, m or s)")]
    UnknownUnit { text: String, unit: char },
    #[error("{0:?}: units must come in the order h, m, s, each once")]
    UnitOrder(String),
}

impl TimeControlError {
    /// This error inside descriptor `n` (1-based) written `text`.
    fn in_descriptor(self, n: usize, text: &str) -> TimeControlError {
        TimeControlError::Descriptor {
            n,
            text: text.to_string(),
            why: Box::new(self),
        }
    }
}

/// Parses a time control as typed on the command line.
///
/// One rule, as in PGN TimeControl, cutechess-cli and fastchess: **a bare
/// number is seconds**, everywhere (`60+1` is 60 s + 1 s, `5` is 5 s,
/// `40/60` is 40 moves in 60 s). Accepted, besides every strict PGN form
/// (see [`TimeControl`]'s `FromStr`):
///
/// * **Fractions** of a second, to the millisecond: `10+0.1`, `2.5`.
/// * **Clock form** `M:SS` or `H:MM:SS` for a sudden-death time or a
///   sandclock: `0:30+1` (30 s + 1 s), `1:30+1`, `1:00:00`, `*3:00`.
/// * **Unit suffixes** `h`, `m`, `s` (any case, in that order, each at
///   most once, fractions allowed): `90s`, `3m`, `1h`, `1h30m`, `1.5m`,
///   `3m+2`, `40/2h:30m`.
///
/// Examples: `60+1`, `10+0.1`, `3m+2`, `0:30+1`, `40/2h:30m`, `*3m`, `?`,
/// `-`. Structure rules are those of PGN (a sudden-death period only last,
/// increments only on it, `*N`, `?`, `-` alone). Times are kept to the
/// millisecond and are at most [`MAX_SECONDS`]. Callers should echo the
/// result's `Display` (the PGN form) so the user sees how it was read.
pub fn parse_friendly(s: &str) -> Result<TimeControl, BadTimeControl> {
    parse_with(s, Syntax::Friendly).map_err(|why| BadTimeControl {
        text: s.trim().to_string(),
        pgn: false,
        why,
    })
}

/// Which number syntax a parse accepts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Syntax {
    Pgn,
    Friendly,
}

fn parse_with(s: &str, syntax: Syntax) -> Result<TimeControl, TimeControlError> {
    let s = s.trim();
    if s.is_empty() {
        return Err(TimeControlError::Empty);
    }
    if s == "?" {
        return Ok(TimeControl::Unknown);
    }
    if s == "-" {
        return Ok(TimeControl::Untimed);
    }
    if let Some(rest) = s.strip_prefix('*') {
        // The clock form (`*3:00`) is a time, not a second descriptor.
        let clock_form = syntax == Syntax::Friendly && is_clock_form(rest);
        if rest.contains(['/', '+', '*']) || (rest.contains(':') && !clock_form) {
            return Err(TimeControlError::SandclockNotAlone);
        }
        let total_ms =
            parse_time(rest, syntax).map_err(|e| TimeControlError::Sandclock(Box::new(e)))?;
        if total_ms == 0 {
            return Err(TimeControlError::SandclockZero);
        }
        return Ok(TimeControl::Sandclock { total_ms });
    }
    let descriptors = split_descriptors(s, syntax);
    let mut periods = Vec::with_capacity(descriptors.len());
    for (i, d) in descriptors.iter().enumerate() {
        let n = i + 1;
        periods.push(parse_descriptor(d, syntax).map_err(|e| e.in_descriptor(n, d))?);
    }
    // Structure: only the last descriptor may be sudden death or carry an increment.
    let count = descriptors.len();
    for (i, (d, p)) in descriptors
        .iter()
        .zip(&periods)
        .enumerate()
        .take(count.saturating_sub(1))
    {
        let n = i + 1;
        if d.contains('+') {
            return Err(TimeControlError::IncrementNotLast.in_descriptor(n, d));
        }
        if p.moves.is_none() {
            return Err(TimeControlError::SuddenDeathNotLast.in_descriptor(n, d));
        }
    }
    TimeControl::periods(periods)
}

/// Parses one descriptor (`M/S`, `S` or `S+I`).
fn parse_descriptor(d: &str, syntax: Syntax) -> Result<Period, TimeControlError> {
    if d.is_empty() {
        return Err(TimeControlError::EmptyDescriptor);
    }
    if d == "?" || d == "-" || d.starts_with('*') {
        return Err(TimeControlError::NotAlone(d.to_string()));
    }
    if let Some((moves, time)) = d.split_once('/') {
        if moves.is_empty() {
            return Err(TimeControlError::MissingMoveCount);
        }
        if time.is_empty() {
            return Err(TimeControlError::MissingTimeAfterSlash);
        }
        if time.contains('+') {
            return Err(TimeControlError::CountedIncrement);
        }
        let moves = parse_digits(moves).map_err(|e| TimeControlError::MoveCount(Box::new(e)))?;
        let moves = u32::try_from(moves).map_err(|_| TimeControlError::MoveCountTooLarge(moves))?;
        if moves == 0 {
            return Err(TimeControlError::MoveCountZero);
        }
        let base_ms = parse_time(time, syntax)?;
        return positive(Period {
            moves: Some(moves),
            base_ms,
            increment_ms: 0,
        });
    }
    if let Some((base, inc)) = d.split_once('+') {
        if base.is_empty() {
            return Err(TimeControlError::MissingTimeBeforePlus);
        }
        if inc.is_empty() {
            return Err(TimeControlError::MissingIncrement);
        }
        let base_ms = parse_time(base, syntax)?;
        let increment_ms =
            parse_time(inc, syntax).map_err(|e| TimeControlError::Increment(Box::new(e)))?;
        return positive(Period {
            moves: None,
            base_ms,
            increment_ms,
        });
    }
    let base_ms = parse_time(d, syntax)?;
    positive(Period {
        moves: None,
        base_ms,
        increment_ms: 0,
    })
}

fn positive(p: Period) -> Result<Period, TimeControlError> {
    if p.base_ms == 0 {
        Err(TimeControlError::NotPositive)
    } else {
        Ok(p)
    }
}

/// A non-empty run of ASCII digits, at most [`MAX_SECONDS`]-sized.
fn parse_digits(s: &str) -> Result<u64, TimeControlError> {
    if s.is_empty() {
        return Err(TimeControlError::MissingNumber);
    }
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(TimeControlError::NotWhole(s.to_string()));
    }
    match s.parse::<u64>() {
        Ok(v) if v <= MAX_SECONDS => Ok(v),
        _ => Err(TimeControlError::TooLarge(s.to_string())),
    }
}

/// Splits a time control into its `:`-separated descriptors. In friendly
/// syntax a `:` inside a clock-form time (`0:30+1`, `1:00:00`) does not
/// split: it joins a descriptor that has no move count, no increment and
/// no unit (so could not be a PGN descriptor before another one) with a
/// following two-digit seconds or minutes field.
fn split_descriptors(s: &str, syntax: Syntax) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let mut start = 0;
    let mut fields = 1;
    let bytes = s.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b != b':' {
            continue;
        }
        let current = &s[start..i];
        let next = &s[i + 1..];
        let next_field = next.split(':').next().unwrap_or("");
        let joins = syntax == Syntax::Friendly
            && fields < 3
            && !current.is_empty()
            && current.bytes().all(|b| b.is_ascii_digit() || b == b':')
            && two_digit_field(next_field);
        if joins {
            fields += 1;
        } else {
            out.push(current);
            start = i + 1;
            fields = 1;
        }
    }
    out.push(&s[start..]);
    out
}

/// `SS`, `SS.fff` or `SS+INC`: the field after a clock-form `:`.
fn two_digit_field(f: &str) -> bool {
    let b = f.as_bytes();
    b.len() >= 2
        && b[0].is_ascii_digit()
        && b[1].is_ascii_digit()
        && matches!(b.get(2), None | Some(b'.' | b'+'))
}

/// `M:SS` or `H:MM:SS` (the last field may carry a fraction).
fn is_clock_form(s: &str) -> bool {
    let fields: Vec<&str> = s.split(':').collect();
    (2..=3).contains(&fields.len())
        && !fields[0].is_empty()
        && fields[0].bytes().all(|b| b.is_ascii_digit())
        && fields[1..]
            .iter()
            .all(|f| two_digit_field(f) && !f.contains('+'))
}

/// A time in milliseconds. Bare numbers are seconds (a fraction of up to a
/// millisecond allowed); in friendly syntax also the clock form `M:SS` /
/// `H:MM:SS` and `1h30m`-style durations.
fn parse_time(s: &str, syntax: Syntax) -> Result<u64, TimeControlError> {
    if s.is_empty() {
        return Err(TimeControlError::MissingNumber);
    }
    if syntax == Syntax::Pgn || s.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return parse_decimal(s, 1000);
    }
    if s.contains(':') {
        return parse_clock_form(s);
    }
    parse_duration(s)
}

/// A plain number (`12`, `0.1`, `2.500`) times `unit_ms`, in whole
/// milliseconds, at most [`MAX_SECONDS`].
fn parse_decimal(s: &str, unit_ms: u64) -> Result<u64, TimeControlError> {
    let (whole, frac) = match s.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (s, None),
    };
    let n = parse_digits(whole)?;
    let mut ms = n
        .checked_mul(unit_ms)
        .filter(|&v| v / 1000 <= MAX_SECONDS)
        .ok_or_else(|| TimeControlError::TooManySeconds(s.to_string()))?;
    if let Some(f) = frac {
        if f.is_empty() || f.len() > 9 || !f.bytes().all(|b| b.is_ascii_digit()) {
            return Err(TimeControlError::NotDecimal(s.to_string()));
        }
        let scale = 10u64.pow(f.len() as u32);
        let part = parse_digits(f)? * unit_ms;
        if !part.is_multiple_of(scale) {
            return Err(TimeControlError::FinerThanMs(s.to_string()));
        }
        ms += part / scale;
    }
    Ok(ms)
}

/// `M:SS` or `H:MM:SS`; minutes and seconds after the first field below 60.
fn parse_clock_form(s: &str) -> Result<u64, TimeControlError> {
    if !is_clock_form(s) {
        return Err(TimeControlError::NotClockForm(s.to_string()));
    }
    let fields: Vec<&str> = s.split(':').collect();
    let mut ms: u64 = 0;
    for (i, f) in fields.iter().enumerate() {
        let last = i + 1 == fields.len();
        let value = if last {
            parse_decimal(f, 1000)?
        } else {
            parse_digits(f)? * 1000
        };
        if i > 0 && value >= 60_000 {
            return Err(TimeControlError::NotBelow60 {
                text: s.to_string(),
                field: f.to_string(),
            });
        }
        ms = ms
            .checked_mul(60)
            .and_then(|m| m.checked_add(value))
            .filter(|&v| v / 1000 <= MAX_SECONDS)
            .ok_or_else(|| TimeControlError::TooLong(s.to_string()))?;
    }
    Ok(ms)
}

/// `1h30m`, `90m`, `45s`, `1.5m`: numbers with units h, m, s in that order.
fn parse_duration(s: &str) -> Result<u64, TimeControlError> {
    let mut total_ms: u64 = 0;
    let mut rest = s;
    let mut last_rank = usize::MAX;
    while !rest.is_empty() {
        let digits = rest
            .bytes()
            .take_while(|b| b.is_ascii_digit() || *b == b'.')
            .count();
        if digits == 0 {
            return Err(TimeControlError::NotDuration(s.to_string()));
        }
        let (num, after) = rest.split_at(digits);
        let mut chars = after.chars();
        let (unit_ms, rank) = match chars.next().map(|c| c.to_ascii_lowercase()) {
            Some('h') => (3_600_000, 0),
            Some('m') => (60_000, 1),
            Some('s') => (1000, 2),
            None => {
                return Err(TimeControlError::NoUnit {
                    text: s.to_string(),
                    number: num.to_string(),
                });
            }
            Some(c) => {
                return Err(TimeControlError::UnknownUnit {
                    text: s.to_string(),
                    unit: c,
                });
            }
        };
        if last_rank != usize::MAX && rank <= last_rank {
            return Err(TimeControlError::UnitOrder(s.to_string()));
        }
        last_rank = rank;
        total_ms = parse_decimal(num, unit_ms)?
            .checked_add(total_ms)
            .filter(|&v| v / 1000 <= MAX_SECONDS)
            .ok_or_else(|| TimeControlError::TooLong(s.to_string()))?;
        rest = chars.as_str();
    }
    Ok(total_ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(moves: Option<u32>, base_s: u64, inc_s: u64) -> Period {
        Period {
            moves,
            base_ms: base_s * 1000,
            increment_ms: inc_s * 1000,
        }
    }

    #[test]
    fn every_pgn_kind_parses_and_round_trips() {
        let table: Vec<(&str, TimeControl)> = vec![
            ("?", TimeControl::Unknown),
            ("-", TimeControl::Untimed),
            ("300", TimeControl::Periods(vec![p(None, 300, 0)])),
            ("4500+60", TimeControl::Periods(vec![p(None, 4500, 60)])),
            ("*180", TimeControl::Sandclock { total_ms: 180_000 }),
            ("40/7200", TimeControl::Periods(vec![p(Some(40), 7200, 0)])),
            (
                "40/9000:3600",
                TimeControl::Periods(vec![p(Some(40), 9000, 0), p(None, 3600, 0)]),
            ),
            (
                "40/7200:20/3600:900",
                TimeControl::Periods(vec![
                    p(Some(40), 7200, 0),
                    p(Some(20), 3600, 0),
                    p(None, 900, 0),
                ]),
            ),
            (
                "40/7200:20/3600:900+30",
                TimeControl::Periods(vec![
                    p(Some(40), 7200, 0),
                    p(Some(20), 3600, 0),
                    p(None, 900, 30),
                ]),
            ),
        ];
        for (text, want) in table {
            let got: TimeControl = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(got, want, "{text}");
            assert_eq!(got.to_string(), text, "round trip of {text}");
        }
    }

    #[test]
    fn surrounding_space_and_zero_increment_are_tolerated() {
        assert_eq!(" 300 ".parse::<TimeControl>().unwrap().to_string(), "300");
        assert_eq!("300+0".parse::<TimeControl>().unwrap().to_string(), "300");
    }

    #[test]
    fn bad_pgn_values_are_rejected_with_a_reason() {
        let table = [
            ("", "empty"),
            ("   ", "empty"),
            ("40/", "missing seconds after '/'"),
            ("/300", "missing move count"),
            ("abc", "not a plain whole number"),
            ("+5", "missing seconds before '+'"),
            ("300+", "missing increment"),
            ("*0", "positive"),
            ("*", "missing number"),
            ("*180:300", "only descriptor"),
            ("40/7200:*180", "only descriptor"),
            ("4500+60:300", "increment is allowed only in the last"),
            ("300:40/7200", "sudden-death period must be the last"),
            ("40/7200+30", "cannot have an increment"),
            ("0/300", "at least 1"),
            ("40/0", "positive"),
            ("0", "positive"),
            ("40/7200::300", "empty"),
            ("40/7200:", "empty"),
            ("?:300", "only descriptor"),
            ("300:-", "only descriptor"),
            ("99999999999999999999999", "too large"),
            ("40/1000000001", "too large"),
            ("4294967296/300", "too large"),
            ("-300", "not a plain whole number"),
            ("5m", "not a plain whole number"),
            ("3 00", "not a plain whole number"),
            ("40/7200/300", "not a plain whole number"),
        ];
        for (text, needle) in table {
            match text.parse::<TimeControl>() {
                Ok(tc) => panic!("{text:?} parsed as {tc}"),
                Err(e) => {
                    assert!(e.pgn, "{e}");
                    let e = e.to_string();
                    assert!(e.contains(needle), "{text:?}: error {e:?} lacks {needle:?}");
                    assert!(e.contains("TimeControl"), "{e}");
                }
            }
        }
    }

    #[test]
    fn friendly_forms() {
        let table = [
            // A bare number is seconds everywhere.
            ("60+1", "60+1"),
            ("59+0", "59"),
            ("30+1", "30+1"),
            ("5+0", "5"),
            ("5", "5"),
            ("40/60", "40/60"),
            ("180+2", "180+2"),
            ("4500+60", "4500+60"),
            // Fractions, to the millisecond.
            ("10+0.1", "10+0.1"),
            ("2.5", "2.5"),
            ("0.001", "0.001"),
            ("1.5m", "90"),
            // Clock form.
            ("0:30+1", "30+1"),
            ("1:30+1", "90+1"),
            ("1:00:00", "3600"),
            ("0:30.5", "30.5"),
            ("40/2h:1:00:00", "40/7200:3600"),
            ("*3:00", "*180"),
            // Units.
            ("90m+30s", "5400+30"),
            ("3m+2", "180+2"),
            ("5m+3", "300+3"),
            ("1h", "3600"),
            ("1H30M", "5400"),
            ("2h0m30s", "7230"),
            ("300", "300"),
            ("45s", "45"),
            ("90s", "90"),
            ("3m", "180"),
            ("40/2h:30m", "40/7200:1800"),
            ("40/2h:20/1h:30m", "40/7200:20/3600:1800"),
            ("*3m", "*180"),
            ("*180", "*180"),
            ("?", "?"),
            ("-", "-"),
            // Strict PGN meanings are kept.
            ("40/7200:300", "40/7200:300"),
            ("40/1:30", "40/1:30"),
            ("40/7200:20/3600", "40/7200:20/3600"),
        ];
        for (text, pgn) in table {
            let tc = parse_friendly(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(tc.to_string(), pgn, "{text}");
            // The PGN form reads back to the same value.
            assert_eq!(pgn.parse::<TimeControl>().unwrap(), tc, "{text}");
        }
    }

    #[test]
    fn fractions_keep_milliseconds() {
        let tc = parse_friendly("10+0.1").unwrap();
        assert_eq!(tc.initial_ms(Color::White), Some(10_000));
        assert_eq!(tc.period(0).map(|p| p.increment_ms), Some(100));
        let tc = parse_friendly("0:30+1").unwrap();
        assert_eq!(tc.initial_ms(Color::White), Some(30_000));
        // cutechess-cli writes fractions in its PGN tags; they read back.
        assert_eq!("10+0.1".parse::<TimeControl>().unwrap(), tc_10_01());
    }

    fn tc_10_01() -> TimeControl {
        TimeControl::Periods(vec![Period {
            moves: None,
            base_ms: 10_000,
            increment_ms: 100,
        }])
    }

    #[test]
    fn friendly_errors() {
        let table = [
            ("1h30", "no unit"),
            ("30m1h", "order"),
            ("1m1m", "order"),
            ("5x", "unknown unit"),
            ("0.0001", "finer than a millisecond"),
            ("1.", "not a number"),
            ("1.2.3", "not a number"),
            ("0:75+1", "not below 60"),
            ("1:5", "sudden-death period must be the last"),
            ("h", "not a duration"),
            ("0m", "positive"),
            ("0:00", "positive"),
            ("5+3:300", "increment is allowed only in the last"),
            ("99999999h", "too large"),
            ("", "empty"),
        ];
        for (text, needle) in table {
            match parse_friendly(text) {
                Ok(tc) => panic!("{text:?} parsed as {tc}"),
                Err(e) => {
                    let e = e.to_string();
                    assert!(e.contains(needle), "{text:?}: error {e:?} lacks {needle:?}");
                }
            }
        }
    }

    #[test]
    fn errors_say_where_in_the_text() {
        let e = parse_friendly(" 40/7200:5+3:300 ").unwrap_err();
        assert_eq!(
            e.why,
            TimeControlError::IncrementNotLast.in_descriptor(2, "5+3")
        );
        assert_eq!(
            e.to_string(),
            "bad time control \"40/7200:5+3:300\": descriptor 2 \"5+3\": an increment is \
             allowed only in the last descriptor"
        );
        let e = "300+x".parse::<TimeControl>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad PGN TimeControl \"300+x\": descriptor 1 \"300+x\": increment: \"x\" is not a \
             plain whole number"
        );
    }

    #[test]
    fn checked_constructor_enforces_pgn_rules() {
        assert_eq!(
            TimeControl::periods(vec![]),
            Err(TimeControlError::NoPeriod)
        );
        assert_eq!(
            TimeControl::periods(vec![p(None, 300, 0), p(None, 300, 0)]),
            Err(TimeControlError::PeriodSuddenDeathNotLast(1))
        );
        assert_eq!(
            TimeControl::periods(vec![p(Some(40), 300, 5)]),
            Err(TimeControlError::PeriodCountedIncrement(1))
        );
        let half = Period {
            moves: None,
            base_ms: 1500,
            increment_ms: 0,
        };
        assert!(TimeControl::periods(vec![half]).is_ok());
        assert!(TimeControl::periods(vec![p(Some(40), 7200, 0), p(None, 60, 1)]).is_ok());
    }

    #[test]
    fn display_of_hand_built_fractions_is_exact() {
        let tc = TimeControl::Periods(vec![Period {
            moves: None,
            base_ms: 1500,
            increment_ms: 250,
        }]);
        assert_eq!(tc.to_string(), "1.5+0.25");
        assert_eq!(TimeControl::Periods(vec![]).to_string(), "-");
    }

    #[test]
    fn initial_times_and_repeating_last_period() {
        let tc: TimeControl = "40/7200:20/3600".parse().unwrap();
        assert_eq!(tc.initial_ms(Color::White), Some(7_200_000));
        assert_eq!(tc.period(1).map(|p| p.base_ms), Some(3_600_000));
        assert_eq!(tc.period(7).map(|p| p.moves), Some(Some(20)));
        let sand = TimeControl::Sandclock { total_ms: 1001 };
        assert_eq!(sand.initial_ms(Color::White), Some(501));
        assert_eq!(sand.initial_ms(Color::Black), Some(500));
        assert_eq!(TimeControl::Untimed.initial_ms(Color::White), None);
        assert!(!TimeControl::Unknown.is_timed());
        assert!(sand.is_timed());
    }
}
