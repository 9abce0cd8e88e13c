//! The two players' clocks, each under its own [`TimeControl`] (the same
//! one for both unless the sides have time odds), driven entirely by
//! times the caller passes in (milliseconds since the session started).
//! See the [module documentation](super) for how the referee drives them.

use shakmaty::{ByColor, Color};

use super::control::TimeControl;

/// What [`Clocks::stop`] reports about the move it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveTime {
    /// Wall time the move took: every running stretch of this side's clock
    /// since the move began (stretches split by [`Clocks::halt`] are added).
    pub elapsed_ms: u64,
    /// Time taken off the clock and added to time used: `elapsed_ms` less
    /// the credit, never below zero.
    pub charged_ms: u64,
    /// Time left on this side's clock after the move, including any
    /// increment and any new period's time; `None` when untimed. This is
    /// the value for `[%clk]`.
    pub remaining_ms: Option<u64>,
    /// The charged time reached the time left: the flag fell before the
    /// move was completed. The clock is left at zero and the move is not
    /// counted (no increment, no period rollover). Always `false` untimed.
    pub flagged: bool,
}

/// One side's clock state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Side {
    /// Time left in the current control (timed controls only), not
    /// counting `pending_ms` or the running stretch.
    left_ms: u64,
    /// Time used in the game, not counting `pending_ms` or the running stretch.
    used_ms: u64,
    /// Time run in earlier stretches of the move in progress (before a halt);
    /// charged when the move ends.
    pending_ms: u64,
    /// Moves made in the current period.
    moves_in_period: u32,
    /// Moves made in the game.
    moves_made: u32,
    /// Index of the current period (see [`TimeControl::period`]).
    period: usize,
}

/// The clock that is running and since when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run {
    side: Color,
    since_ms: u64,
}

/// How a side's clock behaves, from its control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Untimed,
    Periods,
    Sandclock,
}

impl Kind {
    /// `side`'s kind under `controls`. A sandclock is shared sand: only
    /// when both sides have the same one; a sandclock against another
    /// control is its half as sudden death (the referee refuses that
    /// pairing before a game; the clocks stay well defined).
    fn of(controls: &ByColor<TimeControl>, side: Color) -> Kind {
        let control = controls.get(side);
        match control {
            _ if !control.is_timed() => Kind::Untimed,
            TimeControl::Sandclock { .. } if controls.white == controls.black => Kind::Sandclock,
            _ => Kind::Periods,
        }
    }
}

/// Both players' clocks for one game.
///
/// At most one clock runs at a time. All times are milliseconds since the
/// session started, passed in by the caller; a time earlier than the
/// running clock's start counts as no time (never a panic or a wrap). All
/// arithmetic saturates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clocks {
    controls: ByColor<TimeControl>,
    kinds: ByColor<Kind>,
    sides: ByColor<Side>,
    running: Option<Run>,
    halted: Option<Color>,
}

impl Clocks {
    /// Clocks at the start of a game under `control` for both sides: each
    /// side has the control's initial time (see
    /// [`TimeControl::initial_ms`]), nothing is used, no clock runs.
    pub fn new(control: &TimeControl) -> Clocks {
        Clocks::per_side(ByColor::new_with(|_| control.clone()))
    }

    /// Clocks at the start of a game where each side has its own control
    /// (time odds: `1+0.01` against `10+0.1`). Each side starts with its
    /// control's initial time and gets its control's increments and
    /// periods; its flag falls by its own clock. Equal controls are
    /// [`Clocks::new`].
    pub fn per_side(controls: ByColor<TimeControl>) -> Clocks {
        let kinds = ByColor::new_with(|c| Kind::of(&controls, c));
        let sides = ByColor::new_with(|c| Side {
            left_ms: controls.get(c).initial_ms(c).unwrap_or(0),
            ..Side::default()
        });
        Clocks {
            controls,
            kinds,
            sides,
            running: None,
            halted: None,
        }
    }

    /// The time control `side`'s clock follows.
    pub fn control(&self, side: Color) -> &TimeControl {
        self.controls.get(side)
    }

    /// Starts `side`'s clock at `at_ms` (the move begins, or continues if
    /// it was halted).
    ///
    /// * Already running for `side`: nothing changes.
    /// * The other clock is running, or halted in the middle of a move: that
    ///   move is abandoned; the time it ran is charged to its side (taken
    ///   off its clock, added to used; the sand flows) without counting a
    ///   move. The referee normally never does this; it stops one side
    ///   before starting the other.
    /// * `side` was halted by [`halt`](Self::halt): its move continues, as
    ///   with [`resume`](Self::resume).
    pub fn start(&mut self, side: Color, at_ms: u64) {
        if let Some(run) = self.running {
            if run.side == side {
                return;
            }
            self.halt(at_ms);
        }
        if let Some(h) = self.halted.take()
            && h != side
        {
            self.settle(h);
        }
        self.running = Some(Run {
            side,
            since_ms: at_ms,
        });
    }

    /// Ends `side`'s move at `at_ms` and returns what it cost.
    ///
    /// The move's elapsed time (see [`MoveTime::elapsed_ms`]) less
    /// `credit_ms` (the reply's own time on the wire, see
    /// [`wire_time_ms`](super::wire_time_ms)), never below zero, is charged:
    /// taken off the clock and added to time used. Then, unless the flag
    /// fell ([`MoveTime::flagged`]):
    ///
    /// * periods: the move is counted; the current period's increment is
    ///   added; if this was the last move of a counted period, the next
    ///   period begins and its time is added (the last period repeats);
    /// * sandclock: the charged time flows to the opponent's side (the total
    ///   of both sides never changes);
    /// * untimed and unknown: the move is counted, time used grows.
    ///
    /// If `side`'s clock was halted, the move ends with the time run before
    /// the halt. If `side`'s clock was not running at all, the move is
    /// counted with no elapsed time; a running opponent clock is not touched.
    pub fn stop(&mut self, side: Color, at_ms: u64, credit_ms: u64) -> MoveTime {
        let segment = match self.running {
            Some(run) if run.side == side => {
                self.running = None;
                at_ms.saturating_sub(run.since_ms)
            }
            _ => 0,
        };
        if self.halted == Some(side) {
            self.halted = None;
        }
        let kind = *self.kinds.get(side);
        let s = self.sides.get_mut(side);
        let elapsed_ms = s.pending_ms.saturating_add(segment);
        s.pending_ms = 0;
        let charged_ms = elapsed_ms.saturating_sub(credit_ms);
        s.used_ms = s.used_ms.saturating_add(charged_ms);
        let flagged = kind != Kind::Untimed && charged_ms >= s.left_ms;
        match kind {
            Kind::Untimed => s.count_move(),
            Kind::Periods => {
                if flagged {
                    s.left_ms = 0;
                } else {
                    s.left_ms -= charged_ms;
                    s.count_move();
                    self.apply_period_rules(side);
                }
            }
            Kind::Sandclock => {
                let flow = charged_ms.min(s.left_ms);
                s.left_ms -= flow;
                if !flagged {
                    s.count_move();
                }
                let other = self.sides.get_mut(side.other());
                other.left_ms = other.left_ms.saturating_add(flow);
            }
        }
        MoveTime {
            elapsed_ms,
            charged_ms,
            remaining_ms: self.remaining(side, at_ms),
            flagged,
        }
    }

    /// Adds the increment of the period the move was made in and, after the
    /// last move of a counted period, begins the next period.
    fn apply_period_rules(&mut self, side: Color) {
        let s = self.sides.get_mut(side);
        let (given, period, moves) = self
            .controls
            .get(side)
            .after_move(s.period, s.moves_in_period);
        s.left_ms = s.left_ms.saturating_add(given);
        s.period = period;
        s.moves_in_period = moves;
    }

    /// Charges the time of an abandoned move (see [`start`](Self::start))
    /// without counting a move.
    fn settle(&mut self, side: Color) {
        let kind = *self.kinds.get(side);
        let s = self.sides.get_mut(side);
        let ran = s.pending_ms;
        s.pending_ms = 0;
        s.used_ms = s.used_ms.saturating_add(ran);
        let flow = ran.min(s.left_ms);
        match kind {
            Kind::Untimed => {}
            Kind::Periods => s.left_ms -= flow,
            Kind::Sandclock => {
                s.left_ms -= flow;
                let other = self.sides.get_mut(side.other());
                other.left_ms = other.left_ms.saturating_add(flow);
            }
        }
    }

    /// A supervisor pause: stops the running clock at `at_ms` without
    /// ending the move. Returns the side that was halted, or `None` if no
    /// clock was running (then nothing changes).
    pub fn halt(&mut self, at_ms: u64) -> Option<Color> {
        let run = self.running.take()?;
        let s = self.sides.get_mut(run.side);
        s.pending_ms = s
            .pending_ms
            .saturating_add(at_ms.saturating_sub(run.since_ms));
        self.halted = Some(run.side);
        Some(run.side)
    }

    /// Ends a supervisor pause: restarts, at `at_ms`, the clock that
    /// [`halt`](Self::halt) stopped. Returns that side, or `None` if no
    /// clock was halted (then nothing changes).
    pub fn resume(&mut self, at_ms: u64) -> Option<Color> {
        let side = self.halted.take()?;
        self.running = Some(Run {
            side,
            since_ms: at_ms,
        });
        Some(side)
    }

    /// The side whose clock is running, if any.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|r| r.side)
    }

    /// The side whose clock is halted by a supervisor pause, if any.
    pub fn halted(&self) -> Option<Color> {
        self.halted
    }

    /// Time `side` has run in the move in progress (all stretches) at `at_ms`.
    fn consumed(&self, side: Color, at_ms: u64) -> u64 {
        let segment = match self.running {
            Some(run) if run.side == side => at_ms.saturating_sub(run.since_ms),
            _ => 0,
        };
        self.sides.get(side).pending_ms.saturating_add(segment)
    }

    /// Time left on `side`'s clock at `at_ms` (the running stretch
    /// included; for a sandclock, the sand that has flowed in from the
    /// opponent's running clock included); `None` when untimed. Never
    /// negative: a clock whose time is gone shows 0.
    pub fn remaining(&self, side: Color, at_ms: u64) -> Option<u64> {
        let s = self.sides.get(side);
        let own = self.consumed(side, at_ms).min(s.left_ms);
        match self.kinds.get(side) {
            Kind::Untimed => None,
            Kind::Periods => Some(s.left_ms - own),
            Kind::Sandclock => {
                let o = self.sides.get(side.other());
                let inflow = self.consumed(side.other(), at_ms).min(o.left_ms);
                Some((s.left_ms - own).saturating_add(inflow))
            }
        }
    }

    /// Time `side`'s move in progress has run at `at_ms` (every stretch of
    /// it, across pauses): what [`stop`](Self::stop) would charge it
    /// before any credit.
    pub fn in_move(&self, side: Color, at_ms: u64) -> u64 {
        self.consumed(side, at_ms)
    }

    /// Total time `side` has used in the game at `at_ms`, the move in
    /// progress included. Counted under every control, untimed too.
    pub fn used(&self, side: Color, at_ms: u64) -> u64 {
        self.sides
            .get(side)
            .used_ms
            .saturating_add(self.consumed(side, at_ms))
    }

    /// Moves `side` has made in the current period (for sandclock, untimed
    /// and sudden-death controls: in the game). Resets to 0 when a new
    /// period begins.
    pub fn moves_in_period(&self, side: Color) -> u32 {
        self.sides.get(side).moves_in_period
    }

    /// Moves `side` has completed in the game (a flagged move is not counted).
    pub fn moves_made(&self, side: Color) -> u32 {
        self.sides.get(side).moves_made
    }

    /// The running side whose time is gone at `at_ms` (its
    /// [`remaining`](Self::remaining) is 0), if any. Only a running clock
    /// can flag; untimed and unknown controls never flag. Uses the raw
    /// time, without any wire credit.
    pub fn flag(&self, at_ms: u64) -> Option<Color> {
        let run = self.running?;
        (self.remaining(run.side, at_ms) == Some(0)).then_some(run.side)
    }

    /// The first instant at which [`flag`](Self::flag) returns the running
    /// side: `flag(d)` is `Some` and, for every `t` from the clock's start
    /// up to `d - 1`, `flag(t)` is `None`. If the time was already gone
    /// when the clock started (or resumed), `d` is that start instant.
    /// `None` when no clock runs, the game is untimed, or the instant lies
    /// beyond `u64` milliseconds. Arm the timer for this instant after
    /// every call that changes the clocks.
    pub fn next_deadline(&self) -> Option<u64> {
        let run = self.running?;
        let kind = *self.kinds.get(run.side);
        if kind == Kind::Untimed {
            return None;
        }
        let s = self.sides.get(run.side);
        if kind == Kind::Sandclock {
            let o = self.sides.get(run.side.other());
            if o.pending_ms.min(o.left_ms) > 0 {
                // Sand from an abandoned stretch of the opponent is never
                // charged while this side runs; it keeps this side alive.
                return None;
            }
        }
        if s.pending_ms >= s.left_ms {
            return Some(run.since_ms);
        }
        run.since_ms.checked_add(s.left_ms - s.pending_ms)
    }
}

impl Side {
    fn count_move(&mut self) {
        self.moves_in_period = self.moves_in_period.saturating_add(1);
        self.moves_made = self.moves_made.saturating_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    fn clocks(tc: &str) -> Clocks {
        Clocks::new(&tc.parse().unwrap())
    }

    #[test]
    fn sudden_death_charges_elapsed_minus_credit() {
        let mut c = clocks("300");
        assert_eq!(c.remaining(White, 0), Some(300_000));
        c.start(White, 1_000);
        assert_eq!(c.running(), Some(White));
        assert_eq!(c.remaining(White, 11_000), Some(290_000));
        assert_eq!(c.used(White, 11_000), 10_000);
        let mt = c.stop(White, 11_000, 83);
        assert_eq!(
            mt,
            MoveTime {
                elapsed_ms: 10_000,
                charged_ms: 9_917,
                remaining_ms: Some(290_083),
                flagged: false
            }
        );
        assert_eq!(c.running(), None);
        assert_eq!(c.used(White, 50_000), 9_917);
        assert_eq!(c.moves_in_period(White), 1);
        assert_eq!(c.moves_in_period(Black), 0);
        // A credit larger than the move charges nothing.
        c.start(Black, 20_000);
        let mt = c.stop(Black, 20_050, 83);
        assert_eq!((mt.elapsed_ms, mt.charged_ms), (50, 0));
        assert_eq!(mt.remaining_ms, Some(300_000));
    }

    #[test]
    fn increment_is_added_after_each_move() {
        let mut c = clocks("4500+60");
        c.start(White, 0);
        assert_eq!(c.stop(White, 30_000, 0).remaining_ms, Some(4_530_000));
        c.start(White, 40_000);
        assert_eq!(c.stop(White, 40_000, 0).remaining_ms, Some(4_590_000));
    }

    #[test]
    fn period_rollover_after_the_last_move_of_the_period() {
        let mut c = clocks("2/100:1/50:30");
        let mut t = 0;
        let mut mv = |c: &mut Clocks| {
            c.start(White, t);
            t += 10_000;
            c.stop(White, t, 0).remaining_ms
        };
        assert_eq!(mv(&mut c), Some(90_000));
        assert_eq!(c.moves_in_period(White), 1);
        assert_eq!(mv(&mut c), Some(80_000 + 50_000));
        assert_eq!(c.moves_in_period(White), 0);
        assert_eq!(mv(&mut c), Some(120_000 + 30_000));
        assert_eq!(mv(&mut c), Some(140_000));
        assert_eq!(mv(&mut c), Some(130_000));
        assert_eq!(c.moves_in_period(White), 2);
        assert_eq!(c.moves_made(White), 5);
    }

    #[test]
    fn a_counted_last_period_repeats() {
        let mut c = clocks("2/100");
        let mut left = Vec::new();
        for i in 0..6u64 {
            c.start(Black, i * 1000);
            left.push(c.stop(Black, i * 1000 + 1000, 0).remaining_ms.unwrap());
        }
        assert_eq!(left, [99_000, 198_000, 197_000, 296_000, 295_000, 394_000]);
    }

    #[test]
    fn sandclock_flows_to_the_other_side() {
        let mut c = clocks("*180");
        assert_eq!(c.remaining(White, 0), Some(90_000));
        c.start(White, 0);
        assert_eq!(c.remaining(White, 10_000), Some(80_000));
        assert_eq!(c.remaining(Black, 10_000), Some(100_000));
        c.stop(White, 10_000, 0);
        c.start(Black, 10_000);
        assert_eq!(c.next_deadline(), Some(110_000));
        assert_eq!(c.flag(109_999), None);
        assert_eq!(c.flag(110_000), Some(Black));
        assert_eq!(c.remaining(White, 200_000), Some(180_000));
        assert_eq!(c.remaining(Black, 200_000), Some(0));
    }

    #[test]
    fn untimed_counts_time_but_never_flags() {
        for tc in ["-", "?"] {
            let mut c = clocks(tc);
            c.start(White, 0);
            assert_eq!(c.flag(u64::MAX), None);
            assert_eq!(c.next_deadline(), None);
            assert_eq!(c.remaining(White, 5), None);
            let mt = c.stop(White, 7_000, 0);
            assert_eq!(mt.remaining_ms, None);
            assert!(!mt.flagged);
            assert_eq!(c.used(White, 0), 7_000);
            assert_eq!(c.moves_in_period(White), 1);
        }
    }

    #[test]
    fn halt_and_resume_split_a_move() {
        let mut c = clocks("60");
        c.start(White, 0);
        assert_eq!(c.halt(10_000), Some(White));
        assert_eq!(c.running(), None);
        assert_eq!(c.halted(), Some(White));
        assert_eq!(c.flag(1_000_000), None);
        assert_eq!(c.next_deadline(), None);
        assert_eq!(c.remaining(White, 500_000), Some(50_000));
        assert_eq!(c.halt(20_000), None);
        assert_eq!(c.resume(100_000), Some(White));
        assert_eq!(c.resume(100_000), None);
        assert_eq!(c.next_deadline(), Some(150_000));
        let mt = c.stop(White, 105_000, 0);
        assert_eq!(mt.elapsed_ms, 15_000);
        assert_eq!(mt.remaining_ms, Some(45_000));
        assert_eq!(c.moves_in_period(White), 1);
    }

    #[test]
    fn stop_while_halted_ends_the_move() {
        let mut c = clocks("60");
        c.start(Black, 0);
        c.halt(5_000);
        let mt = c.stop(Black, 9_000, 0);
        assert_eq!(mt.elapsed_ms, 5_000);
        assert_eq!(c.halted(), None);
        assert_eq!(c.resume(10_000), None);
    }

    #[test]
    fn flag_and_deadline() {
        let mut c = clocks("10");
        assert_eq!(c.next_deadline(), None);
        c.start(White, 5_000);
        assert_eq!(c.next_deadline(), Some(15_000));
        assert_eq!(c.flag(14_999), None);
        assert_eq!(c.flag(15_000), Some(White));
        assert_eq!(
            c.flag(1_000),
            None,
            "a time before the start counts as none"
        );
        let mt = c.stop(White, 16_000, 0);
        assert!(mt.flagged);
        assert_eq!(mt.remaining_ms, Some(0));
        assert_eq!(c.moves_made(White), 0);
        // A late reply saved by the wire credit is not flagged.
        let mut c = clocks("10+5");
        c.start(White, 0);
        let mt = c.stop(White, 10_050, 83);
        assert!(!mt.flagged);
        assert_eq!(mt.remaining_ms, Some(33 + 5_000));
    }

    #[test]
    fn starting_the_other_side_abandons_a_move_without_counting_it() {
        let mut c = clocks("*100");
        c.start(White, 0);
        c.start(White, 3_000); // no effect
        c.start(Black, 10_000);
        assert_eq!(c.remaining(White, 10_000), Some(40_000));
        assert_eq!(c.remaining(Black, 10_000), Some(60_000));
        assert_eq!(c.used(White, 10_000), 10_000);
        assert_eq!(c.moves_made(White), 0);
        assert_eq!(c.next_deadline(), Some(70_000));
        // Same through a halt.
        c.halt(20_000);
        c.start(White, 30_000);
        assert_eq!(c.remaining(Black, 30_000), Some(50_000));
        assert_eq!(c.remaining(White, 30_000), Some(50_000));
    }

    fn odds(white: &str, black: &str) -> Clocks {
        Clocks::per_side(ByColor {
            white: white.parse().unwrap(),
            black: black.parse().unwrap(),
        })
    }

    #[test]
    fn time_odds_give_each_side_its_own_time_and_increment() {
        // 1+0.01 for White against 10+0.1 for Black.
        let mut c = odds("1+0.01", "10+0.1");
        assert_eq!(c.control(White).to_string(), "1+0.01");
        assert_eq!(c.control(Black).to_string(), "10+0.1");
        assert_eq!(c.remaining(White, 0), Some(1_000));
        assert_eq!(c.remaining(Black, 0), Some(10_000));
        let mut t = 0;
        for _ in 0..3 {
            c.start(White, t);
            t += 100;
            c.stop(White, t, 0);
            c.start(Black, t);
            t += 100;
            c.stop(Black, t, 0);
        }
        // Each move: 100 ms off, its own increment on.
        assert_eq!(c.remaining(White, t), Some(1_000 - 3 * 100 + 3 * 10));
        assert_eq!(c.remaining(Black, t), Some(10_000 - 3 * 100 + 3 * 100));
        // The same clocks with the colours the other way round.
        let mut c = odds("10+0.1", "1+0.01");
        c.start(White, 0);
        assert_eq!(c.stop(White, 500, 0).remaining_ms, Some(9_600));
        c.start(Black, 500);
        assert_eq!(c.stop(Black, 1_000, 0).remaining_ms, Some(510));
    }

    #[test]
    fn moves_per_period_on_one_side_only() {
        // White: 2 moves in 10 s, repeating; Black: 60 s sudden death.
        let mut c = odds("2/10", "60");
        let mut t = 0;
        let mut white = Vec::new();
        let mut black = Vec::new();
        for _ in 0..4 {
            c.start(White, t);
            t += 1_000;
            white.push(c.stop(White, t, 0).remaining_ms.unwrap());
            c.start(Black, t);
            t += 1_000;
            black.push(c.stop(Black, t, 0).remaining_ms.unwrap());
        }
        assert_eq!(white, [9_000, 18_000, 17_000, 26_000]);
        assert_eq!(black, [59_000, 58_000, 57_000, 56_000]);
        assert_eq!(c.moves_in_period(White), 0);
        assert_eq!(c.moves_in_period(Black), 4);
    }

    #[test]
    fn each_side_flags_by_its_own_control() {
        let mut c = odds("1+0.01", "10+0.1");
        // White's 1 s runs out at 1 s, whoever has more.
        c.start(White, 5_000);
        assert_eq!(c.next_deadline(), Some(6_000));
        assert_eq!(c.flag(5_999), None);
        assert_eq!(c.flag(6_000), Some(White));
        // A move of 2 s: Black survives it, White would not.
        let mut c = odds("1+0.01", "10+0.1");
        c.start(White, 0);
        c.stop(White, 500, 0);
        c.start(Black, 500);
        assert_eq!(c.next_deadline(), Some(10_500));
        let mt = c.stop(Black, 2_500, 0);
        assert!(!mt.flagged);
        assert_eq!(mt.remaining_ms, Some(8_100));
        c.start(White, 2_500);
        assert_eq!(c.next_deadline(), Some(2_500 + 510));
        let mt = c.stop(White, 4_500, 0);
        assert!(mt.flagged);
        assert_eq!(c.moves_made(White), 1);
    }

    #[test]
    fn a_sandclock_against_another_control_is_its_half_as_sudden_death() {
        let mut c = odds("*20", "60");
        assert_eq!(c.remaining(White, 0), Some(10_000));
        c.start(White, 0);
        c.stop(White, 4_000, 0);
        assert_eq!(c.remaining(White, 4_000), Some(6_000));
        assert_eq!(c.remaining(Black, 4_000), Some(60_000), "no sand flows");
        // The same sandclock on both sides is shared sand.
        let mut c = odds("*20", "*20");
        c.start(White, 0);
        c.stop(White, 4_000, 0);
        assert_eq!(c.remaining(Black, 4_000), Some(14_000));
    }

    #[test]
    fn extreme_times_do_not_panic() {
        let mut c = clocks("1000000000+1000000000");
        c.start(White, u64::MAX);
        assert_eq!(c.flag(0), None);
        assert_eq!(c.next_deadline(), None);
        let mt = c.stop(White, 0, u64::MAX);
        assert_eq!(mt.charged_ms, 0);
        for i in 0..5 {
            c.start(Black, i);
            c.stop(Black, i, 0);
        }
        assert!(c.remaining(Black, 0).is_some());
    }
}
