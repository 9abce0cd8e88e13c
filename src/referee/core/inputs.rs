//! What each input does: lines from the clients (sign-on, sign-off, faults,
//! the reply's way in), the links' reports (sent, refused, lost, back), the
//! referee's own restart and the supervisor's commands.

// The core's types, constants and imports are shared by its parts.
use super::*;
use crate::epd::sign_on::SignOn;

impl Referee {
    /// A byte from `from` arrived at `at`: if it is on move, its silence
    /// (for the resend after silence) starts again from here.
    pub(super) fn heard(&mut self, from: ClientId, at: u64) {
        if let Some(a) = self.game.as_mut().and_then(|g| g.awaiting.as_mut())
            && a.client == from
        {
            a.heard_at = at;
        }
    }

    pub(super) fn on_line(
        &mut self,
        from: ClientId,
        text: &str,
        credit_ms: u64,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        let checked = line_check::verify(text);
        let payload = match &checked {
            Checked::Valid(payload) => payload,
            Checked::Invalid(why) => {
                let why = Rejection::Damaged { why: why.clone() };
                return self.damaged(from, why, text, at, out);
            }
            Checked::Absent => text,
        };
        let record = match Record::parse(payload) {
            Ok(r) => r,
            Err(e) => {
                let why = Rejection::NotEpd {
                    error: e.to_string(),
                };
                return self.reject(out, from, why, text);
            }
        };
        let req = match record.refreq() {
            Ok(Some(r)) => r,
            Ok(None) if record.has(line_check::NAK) && self.clients[from].signed_on => {
                return self.on_nak(from, at, out);
            }
            Ok(None) => return self.reject(out, from, Rejection::NoRefreq, text),
            Err(e) => {
                let why = Rejection::BadRefreq {
                    error: e.to_string(),
                };
                return self.reject(out, from, why, text);
            }
        };
        match req {
            // A sign-on says whether the client checks its lines from now.
            RefReq::SignOn => {
                let said = SignOn::of_record(&record, checked != Checked::Absent);
                self.on_sign_on(from, said, at, out)
            }
            _ if checked == Checked::Absent && self.clients[from].line_check => {
                self.damaged(from, Rejection::Unchecked, text, at, out)
            }
            _ if !self.clients[from].signed_on => {
                self.reject(out, from, Rejection::NotSignedOn, text)
            }
            RefReq::SignOff => self.on_sign_off(from, at, out),
            RefReq::Fault => self.on_client_fault(from, at, out),
            RefReq::Reply => self.on_reply(from, &record, text, credit_ms, at, out),
        }
    }

    /// `from` signed on, by its line or seated by the event, as `said`:
    /// its name (if it gave one) and whether it checks its lines from now.
    pub(super) fn on_sign_on(
        &mut self,
        from: ClientId,
        said: SignOn,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        self.clients[from].line_check = said.line_check;
        if let Some(name) = said.name {
            self.clients[from].tcsi_name = Some(name);
        }
        let again = self.clients[from].signed_on;
        self.clients[from].resend_due = None;
        self.clients[from].signed_on = true;
        self.clients[from].link_up = true;
        self.clients[from].away_since = None;
        let event = Event::SignedOn {
            client: from,
            name: self.client_name(from),
            again,
            line_check: self.clients[from].line_check,
        };
        self.emit(out, event);
        match self.stage {
            Stage::WaitingForSignOn => {
                if self.clients.values().all(|c| c.signed_on) {
                    self.start_game(at, out);
                }
            }
            Stage::Starting { .. } => {
                // It missed (or lost) the reset: send it again; inform
                // follows with the other client's at the same time.
                self.send_reset(from, out);
            }
            Stage::Playing => {
                if self.game.as_ref().is_some_and(|g| !g.is_over()) {
                    self.begin_resync(from, at, out);
                }
            }
            Stage::GameOver { .. } | Stage::SessionOver => {}
        }
    }

    pub(super) fn on_sign_off(&mut self, from: ClientId, at: u64, out: &mut Vec<Output>) {
        self.clients[from].signed_on = false;
        self.clients[from].away_since.get_or_insert(at);
        self.clients[from].resync_due = None;
        let running = self
            .game
            .as_ref()
            .is_some_and(|g| !g.is_over() && g.awaiting.as_ref().is_some_and(|a| a.client == from));
        let event = Event::SignedOff {
            client: from,
            name: self.client_name(from),
            clock_running: running,
        };
        self.emit(out, event);
    }

    pub(super) fn on_client_fault(&mut self, from: ClientId, at: u64, out: &mut Vec<Output>) {
        let name = self.client_name(from);
        let playing =
            self.game.as_ref().is_some_and(|g| !g.is_over()) && self.stage == Stage::Playing;
        let outcome = if playing && self.settings.client_fault == ClientFault::Continue {
            FaultOutcome::PlayGoesOn
        } else if playing {
            let reason = PauseReason::ClientFault {
                client: from,
                name: name.clone(),
            };
            self.pause_game(reason, true, at);
            FaultOutcome::Paused
        } else {
            FaultOutcome::Noted
        };
        let event = Event::ClientFault {
            client: from,
            name,
            outcome,
        };
        self.emit(out, event);
    }

    pub(super) fn on_sent(&mut self, to: ClientId, seq: u64, at: u64) {
        let Some(g) = self.game.as_mut() else { return };
        if g.is_over() {
            return;
        }
        let Some(a) = g.awaiting.as_mut() else { return };
        if a.client != to || seq < a.first_seq || a.sent {
            return;
        }
        a.sent = true;
        let color = g.color_of(to);
        match g.pause.as_mut() {
            Some(p) => p.start_on_resume = true,
            None => {
                if g.clocks.running().is_none() {
                    g.clocks.start(color, at);
                }
            }
        }
    }

    /// The link did not take records for `to` (from `seq` on): the client
    /// missed them. During a game it is brought back in line (reset, then
    /// the whole game again); a respond among them never left, so its
    /// clock waits for the new one.
    pub(super) fn on_refused(&mut self, to: ClientId, seq: u64, at: u64, out: &mut Vec<Output>) {
        let playing =
            self.stage == Stage::Playing && self.game.as_ref().is_some_and(|g| !g.is_over());
        let resyncing = self.clients[to].resync_due.is_some();
        let event = Event::LinkRefused {
            client: to,
            seq,
            resync: playing && !resyncing,
        };
        self.emit(out, event);
        if let Some(a) = self.game.as_mut().and_then(|g| g.awaiting.as_mut())
            && a.client == to
            && !a.sent
            && seq <= a.first_seq
        {
            // Its respond never left: the clock starts with the next one.
            a.first_seq = RESPOND_PENDING;
        }
        if playing && !resyncing && self.clients[to].signed_on {
            self.begin_resync(to, at, out);
        }
    }

    pub(super) fn on_link_lost(
        &mut self,
        client: ClientId,
        reason: &str,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        self.clients[client].link_up = false;
        self.clients[client].away_since.get_or_insert(at);
        // A respond record that never got out still starts the clock: the
        // client is gone and its clock keeps running.
        if let Some(g) = self.game.as_mut()
            && !g.is_over()
            && let Some(a) = g.awaiting.as_mut()
            && a.client == client
            && !a.sent
            && g.pause.is_none()
        {
            a.sent = true;
            let start = a.est_sent_at.min(at);
            let color = g.color_of(client);
            g.clocks.start(color, start);
        }
        let reason = reason.to_owned();
        self.emit(out, Event::LinkLost { client, reason });
    }

    pub(super) fn on_link_back(&mut self, client: ClientId, at: u64, out: &mut Vec<Output>) {
        self.clients[client].link_up = true;
        // A client that was signed on is back with its link; one that was
        // not is still awaited (since it went away) until it signs on.
        if self.clients[client].signed_on {
            self.clients[client].away_since = None;
        }
        self.emit(out, Event::LinkBack { client });
        // The respond record may have been lost with the link. A client that
        // noticed the loss signs on again and is brought back in line; one
        // that did not gets the respond again, after the reset delay.
        if self.awaits(client) && self.clients[client].signed_on {
            self.clients[client].resend_due = Some(at.saturating_add(self.settings.reset_delay_ms));
        }
    }

    /// Whether a game is being played and waits for `client`'s reply.
    pub(super) fn awaits(&self, client: ClientId) -> bool {
        self.stage == Stage::Playing
            && self.game.as_ref().is_some_and(|g| {
                !g.is_over()
                    && g.pause.is_none()
                    && g.awaiting.as_ref().is_some_and(|a| a.client == client)
            })
    }

    /// The referee restarted from its journal: new ports, and clients that
    /// may have missed anything sent since the journal's last input.
    pub(super) fn on_resumed(&mut self, at: u64, out: &mut Vec<Output>) {
        for c in self.clients.values_mut() {
            c.link_up = true;
        }
        self.emit(out, Event::Restarted);
        let signed_on: Vec<ClientId> = ClientId::BOTH
            .into_iter()
            .filter(|&id| self.clients[id].signed_on)
            .collect();
        match self.stage {
            Stage::Starting { .. } => {
                for &id in &signed_on {
                    self.send_reset(id, out);
                }
                self.stage = Stage::Starting {
                    until: at.saturating_add(self.settings.reset_delay_ms),
                };
            }
            Stage::Playing if self.game.as_ref().is_some_and(|g| !g.is_over()) => {
                let due = at.saturating_add(self.settings.reset_delay_ms);
                if let Some(g) = self.game.as_mut()
                    && g.pause.is_none()
                    && let Some(a) = g.awaiting.as_mut()
                {
                    // The clock stops until the new respond record is out;
                    // the move's time so far is kept (Clocks::start goes on
                    // with a halted move).
                    g.clocks.halt(at);
                    a.sent = false;
                    a.first_seq = RESPOND_PENDING;
                    a.est_sent_at = due;
                }
                for &id in &signed_on {
                    self.begin_resync(id, at, out);
                }
            }
            Stage::SessionOver => {
                // The match had ended, but the disconnect may not have gone
                // out before the crash: send it again (if the match sends one).
                let disconnect = self.settings.disconnect_at_end;
                for &id in signed_on.iter().filter(|_| disconnect) {
                    self.send_simple(id, RefCom::Disconnect, at, out);
                }
            }
            Stage::GameOver { .. } => {
                // The result and conclude may not have gone out before the
                // crash: send them again.
                let result = self
                    .game
                    .as_ref()
                    .and_then(|g| g.end.as_ref())
                    .map_or(GameResult::None, |e| e.0);
                for &id in &signed_on {
                    self.send_inform(id, result.as_str(), at, out);
                    self.send_simple(id, RefCom::Conclude, at, out);
                }
            }
            _ => {}
        }
    }

    pub(super) fn on_command(&mut self, cmd: Command, at: u64, out: &mut Vec<Output>) {
        self.emit(out, Event::Supervisor { command: cmd });
        let playing =
            self.stage == Stage::Playing && self.game.as_ref().is_some_and(|g| !g.is_over());
        if let Some(why) = self.command_refused(cmd, playing) {
            return self.emit(out, Event::CommandRefused { why });
        }
        match cmd {
            Command::Pause => self.pause_game(PauseReason::Supervisor, false, at),
            Command::Resume => self.resume_game(at, out),
            Command::Adjudicate(verdict) => {
                let result = match verdict {
                    Verdict::WhiteWins => GameResult::Win(Color::White),
                    Verdict::BlackWins => GameResult::Win(Color::Black),
                    Verdict::Draw => GameResult::Draw,
                };
                let why = Ending::Verdict { verdict };
                self.end_game(result, Termination::Adjudication, why, at, out);
            }
            Command::AbortGame => {
                let why = Ending::Aborted;
                self.end_game(GameResult::None, Termination::Abandoned, why, at, out);
            }
            Command::RestartClient(c) if playing => self.begin_resync(c, at, out),
            Command::RestartClient(c) => self.send_reset(c, out),
            Command::EndSession => {
                if playing {
                    let why = Ending::SessionEnded;
                    self.end_game(GameResult::None, Termination::Unterminated, why, at, out);
                }
                self.end_session(at, out);
            }
        }
    }

    /// Why a supervisor command cannot be carried out now, if it cannot.
    fn command_refused(&self, cmd: Command, playing: bool) -> Option<CommandRefusal> {
        let paused = self.game.as_ref().is_some_and(|g| g.pause.is_some());
        let why = match cmd {
            Command::Pause if !playing => CommandRefusal::NoGameToPause,
            Command::Pause if paused => CommandRefusal::AlreadyPaused,
            Command::Resume if !playing || !paused => CommandRefusal::NotPaused,
            Command::Adjudicate(_) if !playing => CommandRefusal::NoGameToAdjudicate,
            Command::AbortGame if !playing => CommandRefusal::NoGameToAbort,
            Command::RestartClient(client) if !self.clients[client].signed_on => {
                CommandRefusal::NotSignedOn { client }
            }
            _ => return None,
        };
        Some(why)
    }
}
