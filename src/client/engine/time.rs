//! Clock times for engines: from the referee's `TimeControl` (sent with
//! `inform`) and its clocks on every record to UCI `go wtime .. btime ..
//! winc .. binc .. movestogo ..` and XBoard `level` / `time` / `otim`.
//!
//! The referee's clocks are the truth. argus sends them to the millisecond
//! (`Aclk`, the time left; docs/protocol.md "Clocks"), and the engine gets
//! exactly those. A referee that sends only `cc` (time used, whole seconds,
//! truncated) leaves each side's time uncertain by up to 999 ms; the
//! bridge then counts its own engine's time as it measured it (from each
//! `respond` to its reply), kept within what `cc` allows, and the
//! opponent's as the middle of that second ([`used_from_cc`]). Assuming
//! the worst instead starved the engine: a 2-second game began with 1 s.
//! No engine is ever told a clock shows 0 ms (most read 0 as "no limit"):
//! at least 1 ms (XBoard: 1 cs) is sent.

use std::time::Duration;

use shakmaty::{ByColor, Color, Position};

use crate::client::track::Tracker;
use crate::clock::{Period, TimeControl};

/// An engine's own search limits (cutechess-cli's per-engine `st=`,
/// `depth=`, `nodes=`): `--movetime`, `--depth`, `--nodes`. They hold in
/// every game: in a timed one the engine gets them with its clocks and
/// stops at whichever comes first; in an untimed one they are the whole
/// search, and without any the engine thinks [`UNTIMED_MOVETIME_MS`] per
/// move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Milliseconds per move (UCI `movetime`, XBoard `st`).
    pub movetime_ms: Option<u64>,
    /// Plies (UCI `depth`, XBoard `sd`).
    pub depth: Option<u32>,
    /// Nodes (UCI `nodes`; XBoard has none: [`SearchLimits::check`]).
    pub nodes: Option<u64>,
}

/// The move time of an untimed game when the engine has no limit of its
/// own.
pub const UNTIMED_MOVETIME_MS: u64 = 1000;

impl SearchLimits {
    /// Only a move time.
    pub fn movetime(ms: u64) -> SearchLimits {
        SearchLimits {
            movetime_ms: Some(ms),
            ..SearchLimits::default()
        }
    }

    /// Only a depth.
    pub fn depth(plies: u32) -> SearchLimits {
        SearchLimits {
            depth: Some(plies),
            ..SearchLimits::default()
        }
    }

    /// The limits as the whole search of an untimed game: these, or
    /// [`UNTIMED_MOVETIME_MS`] when none is set.
    pub fn untimed(self) -> SearchLimits {
        if self == SearchLimits::default() {
            SearchLimits::movetime(UNTIMED_MOVETIME_MS)
        } else {
            self
        }
    }

    /// Whether an engine speaking `protocol` can take these limits, each
    /// at least 1: an XBoard engine takes no node limit (CECP's `nps`
    /// turns its clock into nodes, not a node count per move).
    pub fn check(&self, protocol: super::Protocol) -> Result<(), LimitError> {
        if self.movetime_ms == Some(0) {
            return Err(LimitError::ZeroMoveTime);
        }
        if self.depth == Some(0) || self.nodes == Some(0) {
            return Err(LimitError::ZeroDepthOrNodes);
        }
        if protocol == super::Protocol::Xboard && self.nodes.is_some() {
            return Err(LimitError::XboardNodes);
        }
        Ok(())
    }

    /// The limits in `go`'s words, each with a space before it.
    fn uci_words(&self) -> String {
        let mut s = String::new();
        if let Some(ms) = self.movetime_ms {
            s.push_str(&format!(" movetime {ms}"));
        }
        if let Some(d) = self.depth {
            s.push_str(&format!(" depth {d}"));
        }
        if let Some(n) = self.nodes {
            s.push_str(&format!(" nodes {n}"));
        }
        s
    }
}

/// Both sides' clocks as the engine should see them, before a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Times {
    /// Time left on each clock, in milliseconds.
    pub remaining_ms: ByColor<u64>,
    /// Time each side gets after each move, in milliseconds.
    pub increment_ms: ByColor<u64>,
    /// Moves each side still has to make before its next time control
    /// (`None` in sudden death and with a sandclock).
    pub moves_to_go: ByColor<Option<u32>>,
}

/// What the engine is told for one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// Play on the clock, within the engine's own limits.
    Clock(Times, SearchLimits),
    /// No time control: the fixed search ([`SearchLimits::untimed`]).
    Fixed(SearchLimits),
}

/// The search limit for the side to move now in the game `tracker`
/// follows: its clocks under the game's time control with the engine's own
/// `limits`, or those limits alone when the game is not timed. The clocks are the referee's
/// `Aclk` when the last record had it; else they come from `cc` and
/// `measured_ms`, the time the side to move has used in this game as the
/// client measured it ([`used_from_cc`]).
pub fn limit(tracker: &Tracker, limits: SearchLimits, measured_ms: u64) -> Limit {
    let tcs = tracker.time_controls();
    let moves = tracker.moves_made();
    let me = tracker.position().turn();
    let t = match tracker.clock_left() {
        Some(left) => times_per_side(tcs, ByColor::new_with(|_| 0), moves, me).map(|t| Times {
            remaining_ms: left,
            ..t
        }),
        None => times_per_side(
            tcs,
            used_from_cc(tracker.cc_seconds(), me, measured_ms),
            moves,
            me,
        ),
    };
    match t {
        Some(t) => Limit::Clock(t, limits),
        None => Limit::Fixed(limits.untimed()),
    }
}

/// [`times`] when each colour has its own control (time odds): each
/// side's figures under its own control. `None` when `me`'s control is
/// not timed; an untimed opponent's figures are taken from `me`'s
/// control (the referee refuses such odds before a game).
pub fn times_per_side(
    tcs: ByColor<&TimeControl>,
    used_ms: ByColor<u64>,
    moves: ByColor<u32>,
    me: Color,
) -> Option<Times> {
    if tcs.white == tcs.black {
        return times(tcs.white, used_ms, moves);
    }
    let mine = times(tcs.get(me), used_ms, moves)?;
    let each = ByColor::new_with(|c| times(tcs.get(c), used_ms, moves).unwrap_or(mine));
    Some(Times {
        remaining_ms: ByColor::new_with(|c| *each.get(c).remaining_ms.get(c)),
        increment_ms: ByColor::new_with(|c| *each.get(c).increment_ms.get(c)),
        moves_to_go: ByColor::new_with(|c| *each.get(c).moves_to_go.get(c)),
    })
}

/// Milliseconds each side has used, from `cc`'s whole seconds (truncated:
/// a side has used from `s` s to `s` s + 999 ms): `me`, the client's own
/// side, as it measured (`measured_ms`) within that second; the opponent,
/// whose time the client cannot see, as the middle of it.
pub fn used_from_cc(cc_seconds: ByColor<u64>, me: Color, measured_ms: u64) -> ByColor<u64> {
    ByColor::new_with(|c| {
        let floor = cc_seconds.get(c).saturating_mul(1000);
        if c == me {
            measured_ms.clamp(floor, floor.saturating_add(999))
        } else {
            floor.saturating_add(500)
        }
    })
}

/// The clocks under `tc` when each side has used `used_ms` and made
/// `moves` moves (counted since the clocks began, openings excluded);
/// `None` when the control is not timed. The rules are those of
/// `crate::clock::Clocks`: a period's time is added when it begins, the
/// increment of the period a move was made in after that move, the last
/// counted period repeats, and a sandclock's sand flows to the opponent.
pub fn times(tc: &TimeControl, used_ms: ByColor<u64>, moves: ByColor<u32>) -> Option<Times> {
    match tc {
        TimeControl::Periods(periods) if !periods.is_empty() => {
            let state = ByColor::new_with(|c| PeriodState::after(tc, periods, *moves.get(c)));
            Some(Times {
                remaining_ms: ByColor::new_with(|c| {
                    state.get(c).granted_ms.saturating_sub(*used_ms.get(c))
                }),
                increment_ms: ByColor::new_with(|c| state.get(c).period.increment_ms),
                moves_to_go: ByColor::new_with(|c| {
                    let s = state.get(c);
                    s.period
                        .moves
                        .map(|m| m.saturating_sub(s.moves_in_period).max(1))
                }),
            })
        }
        TimeControl::Sandclock { total_ms } => {
            let initial = ByColor::new_with(|c| tc.initial_ms(c).unwrap_or(0));
            Some(Times {
                remaining_ms: ByColor::new_with(|c| {
                    initial
                        .get(c)
                        .saturating_add(*used_ms.get(!c))
                        .saturating_sub(*used_ms.get(c))
                        .min(*total_ms)
                }),
                increment_ms: ByColor::new_with(|_| 0),
                moves_to_go: ByColor::new_with(|_| None),
            })
        }
        _ => None,
    }
}

/// A side's place in a periods control after some moves.
#[derive(Debug, Clone, Copy)]
struct PeriodState {
    /// All time given so far: every begun period's base and every increment.
    granted_ms: u64,
    /// The current period.
    period: Period,
    moves_in_period: u32,
}

impl PeriodState {
    /// `periods` (those of `tc`) must not be empty.
    fn after(tc: &TimeControl, periods: &[Period], moves: u32) -> PeriodState {
        let mut index = 0;
        let mut granted_ms = periods[0].base_ms;
        let mut moves_in_period = 0u32;
        for _ in 0..moves {
            let (given, i, m) = tc.after_move(index, moves_in_period.saturating_add(1));
            granted_ms = granted_ms.saturating_add(given);
            (index, moves_in_period) = (i, m);
        }
        PeriodState {
            granted_ms,
            period: periods[index.min(periods.len() - 1)],
            moves_in_period,
        }
    }
}

/// The UCI `go` command for one move (`to_move` is the engine's side; only
/// its `movestogo` is sent): the clocks, if any, then the engine's own
/// limits (`movetime`, `depth`, `nodes`), as cutechess-cli sends them.
pub fn uci_go(limit: &Limit, to_move: Color) -> String {
    match limit {
        Limit::Fixed(limits) => format!("go{}", limits.uci_words()),
        Limit::Clock(t, limits) => {
            // Never 0: Stockfish and others read `wtime 0` as no limit.
            let mut s = format!(
                "go wtime {} btime {}",
                t.remaining_ms.white.max(1),
                t.remaining_ms.black.max(1)
            );
            if t.increment_ms.white > 0 || t.increment_ms.black > 0 {
                s.push_str(&format!(
                    " winc {} binc {}",
                    t.increment_ms.white, t.increment_ms.black
                ));
            }
            if let Some(n) = t.moves_to_go.get(to_move) {
                s.push_str(&format!(" movestogo {n}"));
            }
            s.push_str(&limits.uci_words());
            s
        }
    }
}

/// The XBoard commands that set the engine's time control at the start of
/// a game: `level MPS BASE INC` (BASE in minutes, or `min:sec`) for timed
/// games, then the engine's own limits: `st SECONDS` for a move time
/// (whole seconds, rounded up, at least 1; CECP's `st` replaces the
/// `level`, so the engine plays by it and the referee's clock still
/// counts) and `sd DEPTH`. An untimed game gets its fixed search
/// ([`SearchLimits::untimed`]). A control with several different periods
/// is given by its first; the exact times follow with `time`/`otim`
/// before every move.
pub fn xboard_level(tc: &TimeControl, limits: SearchLimits) -> Vec<String> {
    let base = |ms: u64| {
        // `level` counts whole seconds; a base under one second (`0.5+0.1`)
        // is given as one, never as 0 (which engines read as no limit).
        let s = (ms / 1000).max(1);
        if s.is_multiple_of(60) {
            format!("{}", s / 60)
        } else {
            format!("{}:{:02}", s / 60, s % 60)
        }
    };
    let secs = |ms: u64| {
        if ms.is_multiple_of(1000) {
            format!("{}", ms / 1000)
        } else {
            format!("{:.3}", ms as f64 / 1000.0)
        }
    };
    let (level, limits) = match tc {
        TimeControl::Periods(p) if !p.is_empty() => {
            let first = p[0];
            let level = format!(
                "level {} {} {}",
                first.moves.unwrap_or(0),
                base(first.base_ms),
                secs(first.increment_ms)
            );
            (Some(level), limits)
        }
        TimeControl::Sandclock { .. } => {
            let level = format!(
                "level 0 {} 0",
                base(tc.initial_ms(Color::White).unwrap_or(0))
            );
            (Some(level), limits)
        }
        _ => (None, limits.untimed()),
    };
    let mut out = Vec::new();
    match limits.movetime_ms {
        // `st` takes whole seconds; never less than one.
        Some(ms) => out.push(format!("st {}", ms.div_ceil(1000).max(1))),
        None => out.extend(level),
    }
    if let Some(d) = limits.depth {
        out.push(format!("sd {d}"));
    }
    out
}

/// XBoard's `time` (the engine's clock) and `otim` (the opponent's) in
/// centiseconds, for an engine playing `engine`; never 0 (at least 1 cs).
pub fn xboard_clocks(t: &Times, engine: Color) -> [String; 2] {
    let cs = |c: Color| (t.remaining_ms.get(c) / 10).max(1);
    [
        format!("time {}", cs(engine)),
        format!("otim {}", cs(!engine)),
    ]
}

/// How long to wait for the engine's move before calling it hung: the
/// time it has (its clock, or the fixed move time) plus `margin`. A depth
/// or node search without a clock gets `depth_wait` plus `margin`.
pub fn wait_bound(
    limit: &Limit,
    to_move: Color,
    margin: Duration,
    depth_wait: Duration,
) -> Duration {
    let own = match limit {
        Limit::Clock(t, _) => Duration::from_millis(*t.remaining_ms.get(to_move)),
        Limit::Fixed(l) => l.movetime_ms.map_or(depth_wait, Duration::from_millis),
    };
    own.saturating_add(margin)
}

/// Search limits an engine cannot take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    #[error("the move time must be at least 1 ms")]
    ZeroMoveTime,
    #[error("a depth or node limit must be at least 1")]
    ZeroDepthOrNodes,
    #[error(
        "XBoard engines take no node limit (CECP has none per move); use a move time or a depth"
    )]
    XboardNodes,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    fn by(w: u64, b: u64) -> ByColor<u64> {
        ByColor { white: w, black: b }
    }

    fn moves(w: u32, b: u32) -> ByColor<u32> {
        ByColor { white: w, black: b }
    }

    #[test]
    fn sudden_death() {
        let t = times(&tc("300"), by(10_000, 42_000), moves(5, 5)).unwrap();
        assert_eq!(t.remaining_ms, by(290_000, 258_000));
        assert_eq!(t.increment_ms, by(0, 0));
        assert_eq!(t.moves_to_go, ByColor::new_with(|_| None));
        assert_eq!(
            uci_go(&Limit::Clock(t, SearchLimits::default()), Color::White),
            "go wtime 290000 btime 258000"
        );
        assert_eq!(
            xboard_level(&tc("300"), SearchLimits::default()),
            ["level 0 5 0"]
        );
        assert_eq!(
            xboard_clocks(&t, Color::Black),
            ["time 25800".to_string(), "otim 29000".to_string()]
        );
    }

    #[test]
    fn increment_is_added_for_every_move_made() {
        // 3 min + 2 s: White made 10 moves, Black 9.
        let t = times(&tc("180+2"), by(50_000, 70_000), moves(10, 9)).unwrap();
        assert_eq!(
            t.remaining_ms,
            by(180_000 + 20_000 - 50_000, 180_000 + 18_000 - 70_000)
        );
        assert_eq!(t.increment_ms, by(2_000, 2_000));
        assert_eq!(
            uci_go(&Limit::Clock(t, SearchLimits::default()), Color::Black),
            "go wtime 150000 btime 128000 winc 2000 binc 2000"
        );
        assert_eq!(
            xboard_level(&tc("180+2"), SearchLimits::default()),
            ["level 0 3 2"]
        );
        assert_eq!(
            xboard_level(&tc("90+5"), SearchLimits::default()),
            ["level 0 1:30 5"]
        );
    }

    #[test]
    fn periods_give_movestogo_and_add_the_next_period() {
        let c = tc("40/7200:20/3600:900");
        // Before any move.
        let t = times(&c, by(0, 0), moves(0, 0)).unwrap();
        assert_eq!(t.remaining_ms, by(7_200_000, 7_200_000));
        assert_eq!(
            t.moves_to_go,
            ByColor {
                white: Some(40),
                black: Some(40)
            }
        );
        // White made 39 moves (1 to go), Black 40 (now in period 2).
        let t = times(&c, by(7_000_000, 7_100_000), moves(39, 40)).unwrap();
        assert_eq!(t.remaining_ms, by(200_000, 100_000 + 3_600_000));
        assert_eq!(
            t.moves_to_go,
            ByColor {
                white: Some(1),
                black: Some(20)
            }
        );
        assert_eq!(
            uci_go(&Limit::Clock(t, SearchLimits::default()), Color::White),
            "go wtime 200000 btime 3700000 movestogo 1"
        );
        assert_eq!(
            uci_go(&Limit::Clock(t, SearchLimits::default()), Color::Black),
            "go wtime 200000 btime 3700000 movestogo 20"
        );
        // After 60 moves: the sudden-death period.
        let t = times(&c, by(10_000_000, 0), moves(60, 0)).unwrap();
        assert_eq!(
            t.remaining_ms.white,
            7_200_000 + 3_600_000 + 900_000 - 10_000_000
        );
        assert_eq!(t.moves_to_go.white, None);
        assert_eq!(
            xboard_level(&c, SearchLimits::default()),
            ["level 40 120 0"]
        );
    }

    #[test]
    fn a_last_counted_period_repeats() {
        let c = tc("40/7200");
        let t = times(&c, by(0, 0), moves(85, 80)).unwrap();
        assert_eq!(t.remaining_ms, by(3 * 7_200_000, 3 * 7_200_000));
        assert_eq!(
            t.moves_to_go,
            ByColor {
                white: Some(35),
                black: Some(40)
            }
        );
    }

    #[test]
    fn time_used_beyond_the_clock_shows_zero() {
        let t = times(&tc("60"), by(75_000, 0), moves(3, 3)).unwrap();
        assert_eq!(t.remaining_ms.white, 0);
    }

    #[test]
    fn no_engine_is_told_a_clock_shows_0_ms() {
        let t = times(&tc("2+0.02"), by(2_100, 2_019), moves(5, 5)).unwrap();
        assert_eq!(t.remaining_ms, by(0, 81));
        assert_eq!(
            uci_go(&Limit::Clock(t, SearchLimits::default()), Color::White),
            "go wtime 1 btime 81 winc 20 binc 20"
        );
        let t = times(&tc("2"), by(2_000, 1_995), moves(5, 5)).unwrap();
        assert_eq!(
            xboard_clocks(&t, Color::White),
            ["time 1".to_string(), "otim 1".to_string()]
        );
    }

    #[test]
    fn cc_alone_gives_the_measured_time_within_its_second() {
        let cc = by(3, 7);
        // The client's own side (White): what it measured, if cc allows it.
        assert_eq!(used_from_cc(cc, Color::White, 3_250), by(3_250, 7_500));
        assert_eq!(used_from_cc(cc, Color::White, 100), by(3_000, 7_500));
        assert_eq!(used_from_cc(cc, Color::White, 9_000), by(3_999, 7_500));
        assert_eq!(used_from_cc(cc, Color::Black, 7_020), by(3_500, 7_020));
        // A 2-second game starts with its 2 seconds, not 1.
        let t = times(
            &tc("2+0.02"),
            used_from_cc(by(0, 0), Color::White, 0),
            moves(0, 0),
        );
        assert_eq!(t.unwrap().remaining_ms.white, 2_000);
    }

    #[test]
    fn aclk_gives_the_clocks_and_cc_is_the_fallback() {
        use crate::client::track::Tracker;
        use crate::epd::Record;
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        let mut t = Tracker::new();
        let mut feed = |ops: &str| {
            t.handle(&Record::parse(&format!("{start} {ops}")).unwrap())
                .unwrap();
            limit(&t, SearchLimits::default(), 400)
        };
        feed("refcom reset;");
        feed("ptp TimeControl \"2+0.02\"; refcom inform;");
        let clock = |l: Limit| match l {
            Limit::Clock(t, _) => t,
            other => panic!("{other:?}"),
        };
        let c = clock(feed(
            "Aclk 1234 1987; cc 000:00:00:00 000:00:00:01; refcom respond;",
        ));
        assert_eq!(c.remaining_ms, by(1_234, 1_987));
        assert_eq!(c.increment_ms, by(20, 20));
        // The same without Aclk: cc and the measured 400 ms.
        let c = clock(feed("cc 000:00:00:00 000:00:00:01; refcom respond;"));
        assert_eq!(c.remaining_ms, by(1_600, 500));
    }

    #[test]
    fn sandclock_time_flows_to_the_opponent() {
        let c = tc("*120");
        let t = times(&c, by(20_000, 5_000), moves(4, 4)).unwrap();
        assert_eq!(
            t.remaining_ms,
            by(60_000 - 20_000 + 5_000, 60_000 - 5_000 + 20_000)
        );
        assert_eq!(t.increment_ms, by(0, 0));
        assert_eq!(t.moves_to_go, ByColor::new_with(|_| None));
        assert_eq!(xboard_level(&c, SearchLimits::default()), ["level 0 1 0"]);
        // Never more than the whole glass.
        let t = times(&c, by(0, 500_000), moves(0, 0)).unwrap();
        assert_eq!(t.remaining_ms.white, 120_000);
    }

    #[test]
    fn untimed_uses_the_fixed_search() {
        for c in [TimeControl::Untimed, TimeControl::Unknown] {
            assert_eq!(times(&c, by(1, 2), moves(1, 1)), None);
        }
        let m = Limit::Fixed(SearchLimits::movetime(250));
        let d = Limit::Fixed(SearchLimits::depth(6));
        assert_eq!(uci_go(&m, Color::White), "go movetime 250");
        assert_eq!(uci_go(&d, Color::Black), "go depth 6");
        assert_eq!(
            xboard_level(&TimeControl::Untimed, SearchLimits::movetime(250)),
            ["st 1"]
        );
        assert_eq!(
            xboard_level(&TimeControl::Untimed, SearchLimits::movetime(2500)),
            ["st 3"]
        );
        assert_eq!(
            xboard_level(&TimeControl::Unknown, SearchLimits::depth(6)),
            ["sd 6"]
        );
    }

    #[test]
    fn an_engines_own_limits_go_with_its_clocks() {
        let all = SearchLimits {
            movetime_ms: Some(700),
            depth: Some(12),
            nodes: Some(20_000),
        };
        let nodes = SearchLimits {
            nodes: Some(5000),
            ..SearchLimits::default()
        };
        // Untimed: the limits alone, and 1 s per move without any.
        assert_eq!(
            uci_go(&Limit::Fixed(all), Color::White),
            "go movetime 700 depth 12 nodes 20000"
        );
        assert_eq!(uci_go(&Limit::Fixed(nodes), Color::White), "go nodes 5000");
        assert_eq!(
            SearchLimits::default().untimed(),
            SearchLimits::movetime(1000)
        );
        assert_eq!(nodes.untimed(), nodes);
        // Timed: the clocks, then the limits (whichever comes first).
        let t = times(&tc("60+1"), by(0, 0), moves(0, 0)).unwrap();
        assert_eq!(
            uci_go(&Limit::Clock(t, nodes), Color::White),
            "go wtime 60000 btime 60000 winc 1000 binc 1000 nodes 5000"
        );
        assert_eq!(
            uci_go(&Limit::Clock(t, all), Color::Black),
            "go wtime 60000 btime 60000 winc 1000 binc 1000 movetime 700 depth 12 nodes 20000"
        );
        // XBoard: `st` (rounded up) in place of `level`, `sd` after it.
        assert_eq!(
            xboard_level(&tc("60+1"), SearchLimits::depth(9)),
            ["level 0 1 1", "sd 9"]
        );
        assert_eq!(
            xboard_level(&tc("60+1"), SearchLimits::movetime(1500)),
            ["st 2"]
        );
        assert_eq!(
            xboard_level(&TimeControl::Untimed, SearchLimits::default()),
            ["st 1"]
        );
        assert_eq!(
            xboard_level(
                &TimeControl::Untimed,
                SearchLimits {
                    movetime_ms: Some(3000),
                    depth: Some(5),
                    nodes: None
                }
            ),
            ["st 3", "sd 5"]
        );
        // The wait of a node search without a clock is the depth wait's.
        let deep = Duration::from_secs(60);
        assert_eq!(
            wait_bound(&Limit::Fixed(nodes), Color::White, Duration::ZERO, deep),
            deep
        );
    }

    #[test]
    fn xboard_engines_take_no_node_limit() {
        use crate::client::engine::Protocol;
        let nodes = SearchLimits {
            nodes: Some(100),
            ..SearchLimits::default()
        };
        assert_eq!(nodes.check(Protocol::Uci), Ok(()));
        let e = nodes.check(Protocol::Xboard).unwrap_err();
        assert_eq!(e, LimitError::XboardNodes);
        let e = e.to_string();
        assert!(e.contains("XBoard engines take no node limit"), "{e}");
        assert!(SearchLimits::depth(3).check(Protocol::Xboard).is_ok());
        assert!(SearchLimits::depth(0).check(Protocol::Uci).is_err());
        assert!(SearchLimits::movetime(0).check(Protocol::Uci).is_err());
    }

    #[test]
    fn the_wait_is_the_engines_own_time_plus_the_margin() {
        let margin = Duration::from_secs(2);
        let deep = Duration::from_secs(60);
        let t = times(&tc("300"), by(100_000, 0), moves(1, 1)).unwrap();
        assert_eq!(
            wait_bound(
                &Limit::Clock(t, SearchLimits::default()),
                Color::White,
                margin,
                deep
            ),
            Duration::from_millis(202_000)
        );
        assert_eq!(
            wait_bound(
                &Limit::Fixed(SearchLimits::movetime(500)),
                Color::White,
                margin,
                deep
            ),
            Duration::from_millis(2_500)
        );
        assert_eq!(
            wait_bound(
                &Limit::Fixed(SearchLimits::depth(9)),
                Color::Black,
                margin,
                deep
            ),
            Duration::from_secs(62)
        );
    }
}
