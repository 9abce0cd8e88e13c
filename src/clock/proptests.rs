//! Property tests for the clocks: random time controls and random games
//! (think times, wire credits, supervisor pauses).

use proptest::prelude::*;
use shakmaty::Color;

use super::clocks::Clocks;
use super::control::{Period, TimeControl, parse_friendly};

/// One move in a random game: the side to move alternates.
#[derive(Debug, Clone)]
struct Move {
    /// Gap between the previous stop and this start.
    gap: u64,
    /// Time the clock runs for this move.
    think: u64,
    /// Wire credit given at the stop.
    credit: u64,
    /// Optional supervisor pause: (run time before the halt, pause length).
    pause: Option<(u64, u64)>,
    /// The move is never stopped: the opponent's clock is started instead
    /// (the move is abandoned and charged without being counted).
    abandon: bool,
}

fn moves(max_think: u64) -> impl Strategy<Value = Vec<Move>> {
    let one = (
        0..2_000u64,
        0..max_think,
        0..300u64,
        proptest::option::of((0..max_think, 0..100_000u64)),
        proptest::bool::weighted(0.1),
    )
        .prop_map(|(gap, think, credit, pause, abandon)| Move {
            gap,
            think,
            credit,
            // The halt falls inside the move.
            pause: pause.map(|(before, len)| (before.min(think), len)),
            abandon,
        });
    proptest::collection::vec(one, 0..120)
}

fn secs(s: u64) -> u64 {
    s * 1000
}

fn any_control() -> impl Strategy<Value = TimeControl> {
    let period = (1..30u32, 1..600u64).prop_map(|(m, b)| Period {
        moves: Some(m),
        base_ms: secs(b),
        increment_ms: 0,
    });
    prop_oneof![
        (1..600u64, 0..30u64).prop_map(|(b, i)| TimeControl::Periods(vec![Period {
            moves: None,
            base_ms: secs(b),
            increment_ms: secs(i),
        }])),
        (
            proptest::collection::vec(period, 1..4),
            proptest::option::of((1..600u64, 0..10u64))
        )
            .prop_map(|(mut ps, sd)| {
                if let Some((b, i)) = sd {
                    ps.push(Period {
                        moves: None,
                        base_ms: secs(b),
                        increment_ms: secs(i),
                    });
                }
                TimeControl::Periods(ps)
            }),
        (1..600u64).prop_map(|t| TimeControl::Sandclock { total_ms: secs(t) }),
        Just(TimeControl::Untimed),
        Just(TimeControl::Unknown),
    ]
}

/// Plays `game` on `clocks` (abandoned moves are left running and the
/// opponent is started), calling `check(clocks, side, running_since,
/// now)` whenever a clock has just started or resumed, and `after(clocks,
/// side, before, result)` after each stop with the side's time left just
/// before the move began.
fn play(
    clocks: &mut Clocks,
    game: &[Move],
    mut check: impl FnMut(&Clocks, Color, u64),
    mut after: impl FnMut(&Clocks, Color, Option<u64>, super::MoveTime),
) {
    let mut t = 0u64;
    let mut side = Color::White;
    for m in game {
        t += m.gap;
        let before = clocks.remaining(side, t);
        clocks.start(side, t);
        check(clocks, side, t);
        let mut run_end = t + m.think;
        if let Some((before_halt, len)) = m.pause {
            let h = t + before_halt;
            assert_eq!(clocks.halt(h), Some(side));
            let r = h + len;
            assert_eq!(clocks.resume(r), Some(side));
            check(clocks, side, r);
            run_end = r + (m.think - before_halt);
        }
        t = run_end;
        if m.abandon {
            side = side.other();
            continue;
        }
        let mt = clocks.stop(side, t, m.credit);
        assert_eq!(mt.elapsed_ms, m.think);
        assert_eq!(mt.charged_ms, m.think.saturating_sub(m.credit));
        after(clocks, side, before, mt);
        side = side.other();
    }
}

proptest! {
    /// `next_deadline()` is exactly the first instant `flag()` is true:
    /// `flag(d)` names the running side, `flag(d - 1)` is `None` (when the
    /// clock had time at its start), and untimed clocks have no deadline.
    #[test]
    fn deadline_is_the_first_flag_instant(tc in any_control(), game in moves(400_000)) {
        let mut c = Clocks::new(&tc);
        play(&mut c, &game, |c, side, since| {
            match c.next_deadline() {
                None => assert!(!tc.is_timed()),
                Some(d) => {
                    assert!(tc.is_timed());
                    assert!(d >= since);
                    assert_eq!(c.flag(d), Some(side));
                    assert_eq!(c.flag(d.saturating_add(12_345)), Some(side));
                    if d > since {
                        assert_eq!(c.flag(d - 1), None);
                        assert_eq!(c.flag(since + (d - since) / 2), None);
                        assert_eq!(c.flag(since), None);
                    }
                }
            }
            if !tc.is_timed() {
                assert_eq!(c.flag(u64::MAX), None);
            }
        }, |_, _, _, _| {});
    }

    /// Time left never goes below zero (no wrap-around) and falls exactly
    /// with the time run while the clock runs: left(t) = left(start) - run,
    /// floored at 0.
    #[test]
    fn time_left_is_never_negative(tc in any_control(), game in moves(400_000)) {
        let mut c = Clocks::new(&tc);
        let control = tc.clone();
        play(&mut c, &game, |c, side, since| {
            let Some(at_start) = c.remaining(side, since) else { return };
            for run in [0, 1, 999, 60_000, 3_600_000, 1 << 40] {
                let left = c.remaining(side, since + run).unwrap();
                assert_eq!(left, at_start.saturating_sub(run));
            }
            if let TimeControl::Sandclock { total_ms } = control {
                assert!(c.remaining(side, u64::MAX).unwrap() <= total_ms);
            }
        }, |_, _, _, mt| {
            if mt.flagged {
                assert_eq!(mt.remaining_ms, Some(0));
            }
        });
    }

    /// A sandclock's two sides always add up to its total, while a clock
    /// runs, during pauses and after every move.
    #[test]
    fn sandclock_total_is_conserved(total in 1..1_000u64, game in moves(200_000)) {
        let total_ms = secs(total);
        let mut c = Clocks::new(&TimeControl::Sandclock { total_ms });
        let sum = |c: &Clocks, t: u64| {
            c.remaining(Color::White, t).unwrap() + c.remaining(Color::Black, t).unwrap()
        };
        prop_assert_eq!(sum(&c, 0), total_ms);
        play(&mut c, &game, |c, _, since| {
            for run in [0, 1, 10_000, 10_000_000] {
                assert_eq!(sum(c, since + run), total_ms);
            }
        }, |c, _, _, _| {
            assert_eq!(sum(c, 0), total_ms);
        });
    }

    /// With `B+I`, each completed move changes the mover's time by exactly
    /// `I - charged`, and the opponent's not at all.
    #[test]
    fn increment_is_added_exactly_once_per_move(
        base in 1..5_000u64, inc in 0..60u64, game in moves(120_000),
    ) {
        let tc = TimeControl::Periods(vec![Period {
            moves: None, base_ms: secs(base), increment_ms: secs(inc),
        }]);
        let mut c = Clocks::new(&tc);
        let other_before = std::cell::Cell::new(None);
        play(&mut c, &game, |c, side, since| {
            other_before.set(c.remaining(side.other(), since));
        }, |c, side, before, mt| {
            let before = before.unwrap();
            if mt.flagged {
                assert!(mt.charged_ms >= before);
            } else {
                assert_eq!(mt.remaining_ms, Some(before - mt.charged_ms + secs(inc)));
            }
            assert_eq!(c.remaining(side.other(), 0), other_before.get());
        });
    }

    /// In `m1/b1:m2/b2[:sd]`, the next period's time arrives exactly after
    /// move m1 and move m1+m2 (and, if the last is counted, every m2 moves
    /// after that), never at any other move.
    #[test]
    fn period_rollover_happens_at_exactly_the_right_move(
        m1 in 1..20u32, m2 in 1..20u32, b2 in 1..500u64, sd in proptest::option::of(1..500u64),
        game in moves(1_000),
    ) {
        let mut ps = vec![
            Period { moves: Some(m1), base_ms: secs(100_000), increment_ms: 0 },
            Period { moves: Some(m2), base_ms: secs(b2), increment_ms: 0 },
        ];
        if let Some(sd) = sd {
            ps.push(Period { moves: None, base_ms: secs(sd), increment_ms: 0 });
        }
        let mut c = Clocks::new(&TimeControl::Periods(ps));
        let mut made = [0u32; 2];
        play(&mut c, &game, |_, _, _| {}, |c, side, before, mt| {
            assert!(!mt.flagged);
            let n = &mut made[side as usize];
            *n += 1;
            let gained = mt.remaining_ms.unwrap() + mt.charged_ms - before.unwrap();
            let want = if *n == m1 {
                secs(b2)
            } else if *n > m1 && (*n - m1) % m2 == 0 {
                match sd {
                    Some(sd) if *n == m1 + m2 => secs(sd),
                    Some(_) => 0,
                    None => secs(b2),
                }
            } else {
                0
            };
            assert_eq!(gained, want, "move {} of {:?}", *n, side);
            assert_eq!(c.moves_made(side), *n);
        });
    }

    /// A bare number is seconds, with or without an increment, and a
    /// fraction keeps its milliseconds.
    #[test]
    fn a_bare_number_is_seconds(base_ms in 1..10_000_000u64, inc_ms in 0..100_000u64) {
        let base = seconds_text(base_ms);
        let inc = seconds_text(inc_ms);
        for text in [base.clone(), format!("{base}+{inc}")] {
            let tc = parse_friendly(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(tc.initial_ms(Color::White), Some(base_ms), "{}", text);
        }
        let tc = parse_friendly(&format!("{base}+{inc}")).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(tc.period(0).map(|p| p.increment_ms), Some(inc_ms));
        // The unit and clock forms say the same time.
        let with_unit = parse_friendly(&format!("{base}s+{inc}")).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&with_unit, &tc);
        let (m, rest) = (base_ms / 60_000, base_ms % 60_000);
        let clock = format!("{m}:{:02}{}", rest / 1000, fraction_text(rest % 1000));
        let clock = parse_friendly(&format!("{clock}+{inc}")).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&clock, &tc);
    }

    /// The PGN form of every control (fractions included) reads back to
    /// the same value, strictly and on the command line.
    #[test]
    fn pgn_form_round_trips(tc in any_control(), ms in 1..1_000u64) {
        let tc = match tc {
            TimeControl::Periods(mut ps) => {
                if let Some(p) = ps.last_mut() {
                    p.base_ms += ms;
                }
                TimeControl::Periods(ps)
            }
            other => other,
        };
        let text = tc.to_string();
        prop_assert_eq!(&text.parse::<TimeControl>().map_err(|e| TestCaseError::fail(e.to_string()))?, &tc);
        prop_assert_eq!(&parse_friendly(&text).map_err(|e| TestCaseError::fail(e.to_string()))?, &tc);
    }
}

/// Milliseconds as a decimal number of seconds (`12`, `0.25`).
fn seconds_text(ms: u64) -> String {
    format!("{}{}", ms / 1000, fraction_text(ms % 1000))
}

/// `.25` for 250 ms, nothing for 0.
fn fraction_text(ms: u64) -> String {
    if ms == 0 {
        String::new()
    } else {
        format!(".{}", format!("{ms:03}").trim_end_matches('0'))
    }
}
