//! What a refused, damaged or wrong reply costs: a wrong echo is answered
//! with the position again (up to `max_resends`), an illegal move forfeits,
//! faults or is asked again as `--illegal` says, every "ask again" counts
//! against the turn, a damaged line or `Anak` is answered at once when the
//! line is free, and a refused line is noted.

// The core's types, constants and imports are shared by its parts.
use super::*;

impl Referee {
    /// The echoed position differs: the position goes out again, counted
    /// against the turn's `max_resends`; once those are spent, the bad echo
    /// costs the game (under the `fault` policy: a fault).
    pub(super) fn echo_mismatch(
        &mut self,
        from: ClientId,
        color: Color,
        diff: &str,
        text: &str,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        let max = self.settings.max_resends;
        if let Some(n) = self.count_resend(from) {
            let event = Event::EchoResent {
                client: from,
                diff: diff.to_owned(),
                resend: n,
                max,
                line: text.to_owned(),
            };
            self.emit(out, event);
            return self.send_respond(from, at, out, Respond::Again);
        }
        let problem = Problem::EchoDiffers {
            diff: diff.to_owned(),
            resends: max,
        };
        let offence = Offence {
            problem,
            asked_again: 0,
        };
        self.resends_spent(from, color, offence, at, out);
    }

    /// An illegal or unparsable move, a missing move, or a persistent bad
    /// echo: forfeit, fault or ask again, as the settings say.
    pub(super) fn illegal(
        &mut self,
        from: ClientId,
        color: Color,
        problem: Problem,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        let offence = Offence {
            problem,
            asked_again: 0,
        };
        match self.settings.illegal_move {
            IllegalMove::Forfeit => self.forfeit(from, color, offence, at, out),
            IllegalMove::Retry => {
                let problem = offence.problem;
                self.ask_again_counted(from, color, problem, at, out)
            }
            IllegalMove::Fault => self.fault_pause(from, offence, at, out),
        }
    }

    /// Under `--illegal fault`: the game pauses for the supervisor and the
    /// client gets `refcom fault;`.
    fn fault_pause(&mut self, from: ClientId, offence: Offence, at: u64, out: &mut Vec<Output>) {
        let reason = PauseReason::Offence {
            client: from,
            offence: offence.clone(),
        };
        self.pause_game(reason, true, at);
        self.send_simple(from, RefCom::Fault, at, out);
        self.emit(
            out,
            Event::FaultPaused {
                client: from,
                offence,
            },
        );
    }

    /// Asks the client on move again (the same respond, its clock still
    /// running), counted against the turn's `max_resends`; once those are
    /// spent, `reason` costs the game (under the `fault` policy: a fault).
    /// Every "ask again for a move" of the core goes through here, so no
    /// reply can make it ask for ever.
    pub(super) fn ask_again_counted(
        &mut self,
        from: ClientId,
        color: Color,
        problem: Problem,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        let max = self.settings.max_resends;
        if let Some(n) = self.count_resend(from) {
            let event = Event::AskedAgain {
                client: from,
                problem,
                resend: n,
                max,
            };
            self.emit(out, event);
            return self.send_respond(from, at, out, Respond::Again);
        }
        let offence = Offence {
            problem,
            asked_again: max,
        };
        self.resends_spent(from, color, offence, at, out);
    }

    /// Counts one more resend of `from`'s turn if it is on move and its
    /// `max_resends` are not spent; gives the count it reached.
    fn count_resend(&mut self, from: ClientId) -> Option<u32> {
        let max = self.settings.max_resends;
        let a = self
            .game
            .as_mut()
            .and_then(|g| g.awaiting.as_mut())
            .filter(|a| a.client == from && a.resends < max)?;
        a.resends += 1;
        Some(a.resends)
    }

    /// The turn's resends are spent: asking once more would not help, so
    /// `reason` costs the game (under the `fault` policy: a fault).
    fn resends_spent(
        &mut self,
        from: ClientId,
        color: Color,
        offence: Offence,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        match self.settings.illegal_move {
            IllegalMove::Fault => self.fault_pause(from, offence, at, out),
            IllegalMove::Forfeit | IllegalMove::Retry => {
                self.forfeit(from, color, offence, at, out)
            }
        }
    }

    /// The offender loses the game (Termination "rules infraction").
    pub(super) fn forfeit(
        &mut self,
        from: ClientId,
        color: Color,
        offence: Offence,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        let event = Event::Forfeit {
            client: from,
            offence: offence.clone(),
        };
        self.emit(out, event);
        let why = Ending::Forfeit { color, offence };
        self.end_game(
            GameResult::Win(!color),
            Termination::RulesInfraction,
            why,
            at,
            out,
        );
    }

    /// A line whose check (`Acrc`) is wrong or missing: it was damaged on
    /// the way and nothing in it can be trusted. It is refused; if it came
    /// from the client on move (probably its reply), that client is asked
    /// again at once, its clock still running.
    pub(super) fn damaged(
        &mut self,
        from: ClientId,
        why: Rejection,
        text: &str,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        self.reject(out, from, why, text);
        self.ask_again_at_once(from, AgainCause::DamagedLine, at, out);
    }

    /// A client that checks its lines got a record that failed its check
    /// (or that its framer dropped) and says so with `Anak`: if it is on
    /// move, that was probably its respond, which is sent again.
    pub(super) fn on_nak(&mut self, from: ClientId, at: u64, out: &mut Vec<Output>) {
        if !self.ask_again_at_once(from, AgainCause::Nak, at, out) {
            self.emit(out, Event::NakUnanswered { client: from });
        }
    }

    /// Sends the client on move its respond again now, unless the last
    /// one is still on the line (then it is not asked twice). Returns
    /// whether it was asked.
    pub(super) fn ask_again_at_once(
        &mut self,
        from: ClientId,
        cause: AgainCause,
        at: u64,
        out: &mut Vec<Output>,
    ) -> bool {
        let line_free = self
            .game
            .as_ref()
            .and_then(|g| g.awaiting.as_ref())
            .is_some_and(|a| at >= a.again_ok_at);
        if !(self.awaits(from) && self.clients[from].resync_due.is_none() && line_free) {
            return false;
        }
        self.emit(
            out,
            Event::AskedAgainAtOnce {
                client: from,
                cause,
            },
        );
        self.send_respond(from, at, out, Respond::Again);
        true
    }

    pub(super) fn reject(
        &mut self,
        out: &mut Vec<Output>,
        from: ClientId,
        why: Rejection,
        text: &str,
    ) {
        let event = Event::Rejected {
            client: from,
            why,
            line: text.to_owned(),
        };
        self.emit(out, event);
    }
}
