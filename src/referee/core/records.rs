//! The records the core sends: the base record with clocks, reset, inform,
//! respond (new, again, after execute) and when a respond is deferred.

// The core's types, constants and imports are shared by its parts.
use super::*;

impl Referee {
    /// The four fields of `pos` with `cc`, `fmvn` and `hmvc`, and in a
    /// timed game `Aclk` (the time left to the millisecond).
    pub(super) fn base_record(&self, pos: &Chess, at: u64) -> Record {
        let (w, b) = match &self.game {
            Some(g) => (
                g.clocks.used(Color::White, at),
                g.clocks.used(Color::Black, at),
            ),
            None => (0, 0),
        };
        let (cw, cb) = clock::cc_values(w, b);
        let mut r = Record::new(game::fields_of(pos))
            .with(Operation::cc(cw, cb))
            .with(Operation::fmvn(pos.fullmoves().get()))
            .with(Operation::hmvc(pos.halfmoves()));
        if let Some((w, b)) = self.game.as_ref().and_then(|g| clock_left(&g.clocks, at)) {
            r.set(Operation::clock_left(w, b));
        }
        r
    }

    pub(super) fn current_position(&self) -> Chess {
        self.game
            .as_ref()
            .map_or_else(Chess::default, |g| g.game.position().clone())
    }

    pub(super) fn send(&mut self, to: ClientId, record: Record, out: &mut Vec<Output>) -> u64 {
        let text = self.line_of(to, &record);
        self.send_line(to, text, out)
    }

    /// The line `record` goes out as to `to`: canonical, with the line
    /// check if `to` checks its lines (the line end is the link's).
    fn line_of(&self, to: ClientId, record: &Record) -> String {
        let mut text = record.to_canonical();
        if self.clients[to].line_check {
            line_check::append(&mut text);
        }
        text
    }

    /// Sends a line made by [`Referee::line_of`]; gives its sequence number.
    fn send_line(&mut self, to: ClientId, text: String, out: &mut Vec<Output>) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        out.push(Output::Send { to, seq, text });
        seq
    }

    pub(super) fn send_simple(
        &mut self,
        to: ClientId,
        cmd: RefCom,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        let pos = self.current_position();
        let mut r = self.base_record(&pos, at);
        r.set(Operation::refcom(cmd));
        self.send(to, r, out);
    }

    pub(super) fn send_reset(&mut self, to: ClientId, out: &mut Vec<Output>) {
        let pos = self
            .game
            .as_ref()
            .map_or_else(Chess::default, |g| g.game.start().clone());
        let mut r = self.base_record(&pos, self.now);
        r.set(Operation::refcom(RefCom::Reset));
        self.send(to, r, out);
    }

    pub(super) fn send_inform(
        &mut self,
        to: ClientId,
        result: &str,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        let pos = self.current_position();
        let r = self.base_record(&pos, at);
        self.send_inform_record(to, r, result, out);
    }

    /// The result `inform` to the client that has not seen the game's last
    /// move: the position before it and the move as `sm` (as in a
    /// `respond`), so that a client that follows the game by moves can
    /// complete its record. `conclude` then carries the final position.
    pub(super) fn send_final_inform(
        &mut self,
        to: ClientId,
        result: &str,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        let r = self
            .last_move_record(at)
            .unwrap_or_else(|| self.base_record(&self.current_position(), at));
        self.send_inform_record(to, r, result, out);
    }

    /// The position before the game's last move, with that move as `sm`.
    pub(super) fn last_move_record(&self, at: u64) -> Option<Record> {
        let g = self.game.as_ref()?;
        let before = g.game.position_at(g.game.ply().checked_sub(1)?)?;
        let last = g.game.moves().last()?;
        let mut r = self.base_record(before, at);
        r.set(Operation::sm(&game::san_of(before, last)));
        Some(r)
    }

    pub(super) fn send_inform_record(
        &mut self,
        to: ClientId,
        mut r: Record,
        result: &str,
        out: &mut Vec<Output>,
    ) {
        // Tags whose names are no EPD identifier (`WhiteTimeControl`, 16
        // letters) go on the wire as argus's own opcode (`Atc`).
        let mut tags = self.game_tags(result);
        tags.retain(|(name, _)| crate::epd::ops::is_identifier(name));
        r.set(Operation::refcom(RefCom::Inform));
        r.set(Operation::ptp(&tags));
        if let Some(c) = self.odds_controls() {
            r.set(Operation::time_controls(
                &c.white.to_string(),
                &c.black.to_string(),
            ));
        }
        self.send(to, r, out);
    }

    /// Sends `respond` to `to` (see [`Respond`] for which position).
    pub(super) fn send_respond(
        &mut self,
        to: ClientId,
        at: u64,
        out: &mut Vec<Output>,
        kind: Respond,
    ) {
        if kind != Respond::AfterExecute && self.clients[to].resync_due.is_some() {
            return self.defer_respond(to, at);
        }
        let Some(record) = self.respond_record(to, at, kind) else {
            return;
        };
        // The record is made into its line once: its length (with the line
        // end) gives its time on the wire.
        let text = self.line_of(to, &record);
        let est = clock::wire_time_ms(text.len() + 2, &self.settings.lines[to]);
        let seq = self.send_line(to, text, out);
        self.remember_asked(to);
        self.await_reply(to, kind, seq, at, est);
    }

    /// The respond record for `to`: the position before the last move and
    /// that move (or the current position), the open draw offer.
    fn respond_record(&self, to: ClientId, at: u64, kind: Respond) -> Option<Record> {
        let g = self.game.as_ref()?;
        let with_move = g.game.ply() > g.opening_plies && kind != Respond::AfterExecute;
        let mut r = with_move
            .then(|| self.last_move_record(at))
            .flatten()
            .unwrap_or_else(|| self.base_record(g.game.position(), at));
        r.set(Operation::refcom(RefCom::Respond));
        if g.draw_offer.is_some_and(|c| c != g.color_of(to)) {
            r.set(Operation::new("draw_offer"));
        }
        Some(r)
    }

    /// `to` was asked to move in the current position (kept, to tell a
    /// late reply from a wrong echo).
    fn remember_asked(&mut self, to: ClientId) {
        let Some(g) = self.game.as_ref() else { return };
        let asked = &mut self.clients[to].asked;
        if asked.back() != Some(g.game.position()) {
            if asked.len() >= ASKED_LIMIT {
                asked.pop_front();
            }
            asked.push_back(g.game.position().clone());
        }
    }

    /// The turn the respond `seq` asks for: a new one, or (asked again)
    /// the same one with its clock and counters; `est` is the record's
    /// time on the wire.
    fn await_reply(&mut self, to: ClientId, kind: Respond, seq: u64, at: u64, est: u64) {
        let Some(g) = self.game.as_mut() else { return };
        match (kind, g.awaiting.as_mut()) {
            (Respond::Again | Respond::AfterExecute, Some(a)) if a.client == to => {
                a.asked_at = at;
                a.again_ok_at = at.saturating_add(est);
                if a.first_seq == RESPOND_PENDING {
                    // The first respond after a referee restart: the clock
                    // goes on when it has left the port.
                    a.first_seq = seq;
                    a.est_sent_at = at.saturating_add(est);
                }
            }
            _ => {
                g.awaiting = Some(Awaiting {
                    client: to,
                    first_seq: seq,
                    sent: false,
                    est_sent_at: at.saturating_add(est),
                    resends: 0,
                    asked_at: at,
                    heard_at: at,
                    again_ok_at: at.saturating_add(est),
                });
            }
        }
    }

    /// A client being brought back in line is sent nothing during its
    /// reset delay (spec 8.1.6); its resync ends with the respond. Its turn
    /// begins now all the same: the clock runs from here.
    pub(super) fn defer_respond(&mut self, to: ClientId, at: u64) {
        let first_seq = self.next_seq;
        let Some(g) = self.game.as_mut() else { return };
        if g.awaiting.as_ref().is_some_and(|a| a.client == to) {
            return; // the same turn: the resync asks again
        }
        g.awaiting = Some(Awaiting {
            client: to,
            first_seq,
            sent: true,
            est_sent_at: at,
            resends: 0,
            asked_at: at,
            heard_at: at,
            again_ok_at: at,
        });
        let color = g.color_of(to);
        match g.pause.as_mut() {
            Some(p) => p.start_on_resume = true,
            None => g.clocks.start(color, at),
        }
    }
}

/// The time left on both clocks at `at` for `Aclk`; `None` when the game
/// is untimed. A clock that runs shows at least 1 ms: a client is never
/// told it has no time left while its clock still runs (in the flag's
/// grace the clock shows 0 but a reply on the wire may still be in time).
fn clock_left(clocks: &clock::Clocks, at: u64) -> Option<(u64, u64)> {
    let left = |c: Color| {
        let ms = clocks.remaining(c, at)?;
        Some(if clocks.running() == Some(c) {
            ms.max(1)
        } else {
            ms
        })
    };
    Some((left(Color::White)?, left(Color::Black)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_clock_shows_at_least_1_ms() {
        let tc: clock::TimeControl = "2".parse().unwrap();
        let mut clocks = clock::Clocks::new(&tc);
        clocks.start(Color::White, 1_000);
        assert_eq!(clock_left(&clocks, 1_750), Some((1_250, 2_000)));
        // In the flag's grace the clock is at 0 but still runs.
        assert_eq!(clocks.remaining(Color::White, 3_100), Some(0));
        assert_eq!(clock_left(&clocks, 3_100), Some((1, 2_000)));
        // Stopped (flagged), it shows what it has: nothing.
        clocks.stop(Color::White, 3_100, 0);
        assert_eq!(clock_left(&clocks, 3_100), Some((0, 2_000)));
        let untimed = clock::Clocks::new(&clock::TimeControl::Untimed);
        assert_eq!(clock_left(&untimed, 5), None);
    }
}
