//! When argus starts again a program it runs (`engine:`, `mover:`) that
//! stopped, and when it gives up: a pure decision on one instance's
//! record of starts, which the director carries out, and the words it
//! says; and which failures of a player's first start refuse the event
//! before it begins ([`first_start`]). docs/tournament.md, "Programs argus
//! runs".

use crate::client::engine::FaultKind;

/// How many starts in a row may stop before the program signs on before
/// argus gives up that instance (the count starts again at each sign-on).
/// A start fails under load (128 engines starting at once on two cores:
/// one misses its handshake), so one failure is not enough; a command
/// that fails every time costs three quick tries.
pub const START_TRIES: u32 = 3;

/// One instance's program, as the director has seen it start and stop.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Starts {
    /// It signed on since it was last started.
    pub signed_on: bool,
    /// Starts in a row that stopped before it signed on (0 once it
    /// signs on).
    pub failed: u32,
    /// The game during which argus last started it again after it had
    /// signed on: once per game, so a program that stops at every move
    /// cannot loop.
    pub restarted_in: Option<u32>,
    /// It stopped again in that game: start it once the game's board is
    /// free.
    pub after_game: bool,
    /// argus gave it up: it is not started again (until a resume).
    pub given_up: bool,
}

impl Starts {
    /// Its program signed on: its failed starts are forgiven.
    pub fn signed_on(&mut self) {
        self.signed_on = true;
        self.failed = 0;
    }

    /// argus starts its program again.
    pub fn started(&mut self) {
        self.signed_on = false;
        self.after_game = false;
    }
}

/// What to do about a program argus runs that stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Restart {
    /// It had signed on: start it again now (a game it plays takes it
    /// back in line).
    Now,
    /// It stopped again in this game, which it was started again for:
    /// start it when the game is over.
    AfterGame(u32),
    /// It stopped before it signed on, for the `failed`-th time in a row
    /// (fewer than [`START_TRIES`]): start it again now.
    Retry { failed: u32 },
    /// Its tries are spent, and another instance of its player is still
    /// in the event: this instance is given up, the others play on. The
    /// game it was playing, if any, is aborted, to be played again from
    /// its start.
    GiveUp { game: Option<u32> },
    /// Its tries are spent and it was its player's last instance: the
    /// player cannot be started, and forfeits the games it has not
    /// played; the one it was playing, if any, it loses (adjudicated, as
    /// a player withdrawn by the supervisor does).
    CannotStart { game: Option<u32> },
    /// It was given up already: nothing more.
    Nothing,
}

/// What to do about the program of an instance that stopped while playing
/// `game` (if any); `others` says whether another instance of its player
/// is still in the event (not given up).
pub fn decide(starts: &Starts, game: Option<u32>, others: bool) -> Restart {
    if starts.given_up {
        return Restart::Nothing;
    }
    if starts.signed_on {
        return match game.filter(|&g| starts.restarted_in == Some(g)) {
            Some(g) => Restart::AfterGame(g),
            None => Restart::Now,
        };
    }
    let failed = starts.failed.saturating_add(1);
    if failed < START_TRIES {
        Restart::Retry { failed }
    } else if others {
        Restart::GiveUp { game }
    } else {
        Restart::CannotStart { game }
    }
}

/// What the start of an event makes of its player's first program start
/// failing (the check, before any game, that the program runs at all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstStart {
    /// The program cannot play: no such command, it exits at once, or it
    /// refuses what it is given (an option, the event's rules). Every
    /// start would fail the same way: the event is refused (status 2).
    Refuse,
    /// It did not answer in time. A program that is merely slow (128
    /// engines starting at once on two cores) must not end an event
    /// before it begins: the event begins, and this start counts as one
    /// that stopped before its sign-on ([`decide`]'s retries), so a
    /// program that never answers is given up by the same rules as any
    /// other instance.
    Retry,
}

/// What a player's first start failing with `kind` does to the event.
pub fn first_start(kind: FaultKind) -> FirstStart {
    match kind {
        FaultKind::Hung => FirstStart::Retry,
        FaultKind::NotStarted | FaultKind::Failed => FirstStart::Refuse,
    }
}

/// The line said for a decision about instance `name` of player `player`,
/// `why` its program stopped before it signed on (the thread's reason);
/// `None` for [`Restart::Now`] (said as it is started) and
/// [`Restart::Nothing`]. (After [`Restart::CannotStart`] the tournament
/// core's withdrawal says the forfeit, with `why`.)
pub fn said(name: &str, player: &str, decision: Restart, why: &str) -> Option<String> {
    Some(match decision {
        Restart::AfterGame(g) => format!(
            "{name}: its program stopped again in game {g}; argus starts it again when that \
             game is over"
        ),
        Restart::Retry { failed } => format!(
            "{name}: its program stopped before it signed on ({why}); argus starts it again \
             (start {} of {START_TRIES})",
            failed + 1
        ),
        Restart::GiveUp { game } => format!(
            "{name}: its program stopped {START_TRIES} times in a row before it signed on \
             ({why}); argus gives this instance up, and {player}'s other instances play on{}",
            match game {
                Some(g) => format!("; game {g}, which it was playing, is aborted"),
                None => String::new(),
            }
        ),
        Restart::CannotStart { game } => format!(
            "{name}: its program stopped {START_TRIES} times in a row before it signed on, and \
             it is {player}'s last instance{}",
            match game {
                Some(g) => format!("; it loses game {g}, which it was playing"),
                None => String::new(),
            }
        ),
        Restart::Now | Restart::Nothing => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signed() -> Starts {
        Starts {
            signed_on: true,
            ..Starts::default()
        }
    }

    #[test]
    fn a_program_that_had_signed_on_is_started_again_once_per_game() {
        // Between games, or in a game it was not started again for: now.
        assert_eq!(decide(&signed(), None, false), Restart::Now);
        assert_eq!(decide(&signed(), Some(3), true), Restart::Now);
        // Stopped again in the game it was started again for: after it.
        let again = Starts {
            restarted_in: Some(3),
            ..signed()
        };
        assert_eq!(decide(&again, Some(3), false), Restart::AfterGame(3));
        assert_eq!(decide(&again, Some(4), false), Restart::Now);
        assert_eq!(decide(&again, None, false), Restart::Now);
    }

    #[test]
    fn a_start_that_stops_before_the_sign_on_is_tried_three_times_in_a_row() {
        let mut s = Starts::default();
        assert_eq!(decide(&s, None, false), Restart::Retry { failed: 1 });
        s.failed = 1;
        assert_eq!(decide(&s, Some(2), true), Restart::Retry { failed: 2 });
        s.failed = 2;
        // Spent: this instance only, while another of its player plays on.
        assert_eq!(decide(&s, Some(2), true), Restart::GiveUp { game: Some(2) });
        assert_eq!(decide(&s, None, true), Restart::GiveUp { game: None });
        // Its player's last instance: the player cannot be started.
        assert_eq!(
            decide(&s, Some(2), false),
            Restart::CannotStart { game: Some(2) }
        );
        assert_eq!(decide(&s, None, false), Restart::CannotStart { game: None });
        // Given up: nothing more, whatever comes.
        s.given_up = true;
        assert_eq!(decide(&s, None, true), Restart::Nothing);
        assert_eq!(decide(&signed_given_up(), Some(1), true), Restart::Nothing);
    }

    fn signed_given_up() -> Starts {
        Starts {
            given_up: true,
            ..signed()
        }
    }

    #[test]
    fn a_sign_on_forgives_the_failed_starts() {
        let mut s = Starts {
            failed: 2,
            ..Starts::default()
        };
        s.signed_on();
        assert_eq!(decide(&s, None, false), Restart::Now);
        s.started();
        // Stopped before it signed on since: the first failure again.
        assert_eq!(decide(&s, None, false), Restart::Retry { failed: 1 });
    }

    #[test]
    fn only_a_first_start_that_did_not_answer_in_time_lets_the_event_begin() {
        assert_eq!(first_start(FaultKind::Hung), FirstStart::Retry);
        assert_eq!(first_start(FaultKind::NotStarted), FirstStart::Refuse);
        assert_eq!(first_start(FaultKind::Failed), FirstStart::Refuse);
    }

    #[test]
    fn each_decision_says_who_why_and_what_follows() {
        let retry = said("e #3", "e", Restart::Retry { failed: 1 }, "no uciok").unwrap();
        assert_eq!(
            retry,
            "e #3: its program stopped before it signed on (no uciok); argus starts it again \
             (start 2 of 3)"
        );
        let up = said("e #3", "e", Restart::GiveUp { game: Some(7) }, "no uciok").unwrap();
        assert!(
            up.contains("e #3: its program stopped 3 times in a row")
                && up.contains("(no uciok)")
                && up.contains("gives this instance up, and e's other instances play on")
                && up.ends_with("game 7, which it was playing, is aborted"),
            "{up}"
        );
        let up = said("e #3", "e", Restart::GiveUp { game: None }, "x").unwrap();
        assert!(up.ends_with("play on"), "{up}");
        let last = said("e", "e", Restart::CannotStart { game: Some(2) }, "x").unwrap();
        assert!(
            last.contains("stopped 3 times in a row before it signed on, and it is e's last")
                && last.ends_with("it loses game 2, which it was playing"),
            "{last}"
        );
        let last = said("e", "e", Restart::CannotStart { game: None }, "x").unwrap();
        assert!(last.ends_with("e's last instance"), "{last}");
        let after = said("e", "e", Restart::AfterGame(4), "x").unwrap();
        assert!(after.contains("stopped again in game 4; argus starts it again when"));
        for quiet in [Restart::Now, Restart::Nothing] {
            assert_eq!(said("e", "e", quiet, "x"), None);
        }
    }
}
