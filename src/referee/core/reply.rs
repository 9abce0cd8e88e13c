//! The reply of the client on move: its checks in order (echo, legality, draw
//! offers and claims, resignation), the clock, and what a refused or damaged
//! reply costs (ask again, counted; forfeit).

// The core's types, constants and imports are shared by its parts.
use super::*;

impl Referee {
    pub(super) fn on_reply(
        &mut self,
        from: ClientId,
        record: &Record,
        text: &str,
        wire_bytes: usize,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        let Some(g) = self.game.as_ref() else {
            return self.reject(out, from, "reply while no game is in progress", text);
        };
        if g.is_over() || self.stage != Stage::Playing {
            return self.reject(out, from, "reply while no game is in progress", text);
        }
        match &g.awaiting {
            Some(a) if a.client == from => {}
            Some(_) => return self.reject(out, from, "reply out of turn", text),
            None => return self.reject(out, from, "reply while no reply is expected", text),
        }
        if self.clients[from].resync_due.is_some() {
            return self.reject(
                out,
                from,
                "reply before the client was brought back in line",
                text,
            );
        }
        if g.pause.is_some() {
            return self.hold_reply(from, text, out);
        }
        let color = g.color_of(from);

        // The echoed position: the position the client was given with the
        // opponent's move applied, i.e. the current position.
        let echo_diff = game::echo_mismatch(g.game.position(), &record.fields);

        // A reply that echoes a position the client was asked about earlier,
        // but not the current one, answers an earlier record: refuse it
        // before anything in it (a resignation included) counts.
        if echo_diff.is_some()
            && self.clients[from]
                .asked
                .iter()
                .any(|p| game::echo_mismatch(p, &record.fields).is_none())
        {
            return self.reject(
                out,
                from,
                "late reply to an earlier respond (its position is no longer current)",
                text,
            );
        }

        // The move's time: from the respond's last byte out to the reply's
        // last byte in, less the reply's own time on the wire.
        let credit = clock::wire_time_ms(wire_bytes, &self.settings.lines[from]);
        let g = self.game.as_mut().expect("checked above");
        if let Some(a) = g.awaiting.as_mut()
            && !a.sent
        {
            a.sent = true;
            g.clocks.start(color, a.est_sent_at.min(at));
        }
        if g.clocks.flag(at.saturating_sub(credit)) == Some(color) {
            return self.flag_fall(at.saturating_sub(credit), out);
        }

        if record.resign() {
            let who = color_name(color);
            return self.end_game(
                GameResult::Win(!color),
                Termination::Normal,
                format!("{who} resigned"),
                at,
                out,
            );
        }

        // A wrong echo (a resignation stands whatever position came with
        // it).
        if let Some(diff) = echo_diff {
            return self.echo_mismatch(from, &diff, text, at, out);
        }

        let sm = match record.sm() {
            Ok(sm) => sm.map(str::to_owned),
            Err(e) => {
                let reason = e.to_string();
                return self.illegal(from, color, None, &reason, at, out);
            }
        };

        let offer_open = g.draw_offer == Some(!color);
        if record.draw_accept() {
            if offer_open {
                let who = color_name(color);
                return self.end_game(
                    GameResult::Draw,
                    Termination::Normal,
                    format!("drawn by agreement ({who} accepted the offer)"),
                    at,
                    out,
                );
            }
            self.notice(
                out,
                EventKind::Warning,
                format!(
                    "{}: draw_accept without an open offer ignored",
                    from.letter()
                ),
            );
        }
        if record.draw_reject() && offer_open {
            self.notice(
                out,
                EventKind::Info,
                format!("{}: draw offer declined", from.letter()),
            );
        }

        // Parse the move (if any) against the current position.
        let g = self.game.as_ref().expect("checked above");
        let mv: Option<Move> = match &sm {
            Some(s) => match game::parse_san(g.game.position(), s) {
                Ok(m) => Some(m),
                Err(e) => {
                    let kind = match e.kind {
                        SanErrorKind::Unparsable => "unparsable",
                        SanErrorKind::Illegal => "illegal",
                        SanErrorKind::Ambiguous => "ambiguous",
                    };
                    let reason = format!("{kind} move {}: {}", quote(s), e.reason);
                    return self.illegal(from, color, Some(s), &reason, at, out);
                }
            },
            None => None,
        };

        if record.draw_claim() {
            let claim = g
                .game
                .claimable_draw()
                .or_else(|| mv.as_ref().and_then(|m| g.game.claimable_draw_after(m)));
            match claim {
                Some(kind) => {
                    if let Some(m) = &mv {
                        // FIDE 9.2: with a valid claim the move is written
                        // down but not played.
                        let san = game::san_of(g.game.position(), m);
                        self.game.as_mut().expect("game").final_comment = Some(format!(
                            "{} claimed a draw with the move {san}",
                            color_name(color)
                        ));
                    }
                    return self.end_game(
                        GameResult::Draw,
                        Termination::Normal,
                        format!(
                            "draw claimed by {}: {}",
                            color_name(color),
                            claim_name(kind)
                        ),
                        at,
                        out,
                    );
                }
                None if mv.as_ref().is_some_and(|m| mates(g.game.position(), m)) => {
                    // The claim is false, but the move given with it mates:
                    // the mate ends the game (FIDE 5.1.1).
                    self.notice(
                        out,
                        EventKind::Warning,
                        format!(
                            "{}: false draw claim with a mating move; the mate stands",
                            from.letter()
                        ),
                    );
                }
                None => match self.settings.false_claim {
                    FalseClaim::Forfeit => {
                        self.game.as_mut().expect("game").final_comment =
                            Some(format!("{} claimed a draw falsely", color_name(color)));
                        return self.end_game(
                            GameResult::Win(!color),
                            Termination::RulesInfraction,
                            format!("{} made a false draw claim", color_name(color)),
                            at,
                            out,
                        );
                    }
                    FalseClaim::PlayOn => {
                        self.notice(
                            out,
                            EventKind::Warning,
                            format!(
                                "{}: false draw claim by {} rejected; play goes on",
                                from.letter(),
                                color_name(color)
                            ),
                        );
                        if mv.is_none() {
                            // Nothing to play: ask again for a move.
                            let reason = "false draw claim without a move";
                            return self.ask_again_counted(from, color, None, reason, at, out);
                        }
                    }
                },
            }
        }

        let Some(mv) = mv else {
            if record.draw_accept() {
                // An accept with no offer to accept, and no move: ask again.
                let reason = "draw_accept without an open offer, and no move";
                return self.ask_again_counted(from, color, None, reason, at, out);
            }
            let reason = "reply without a move (sm) while a legal move exists".to_string();
            return self.illegal(from, color, None, &reason, at, out);
        };

        // Accept the move.
        let g = self.game.as_mut().expect("game");
        let mt = g.clocks.stop(color, at, credit);
        let timed = self.settings.time_control.is_timed();
        let (clk, emt) = if timed {
            (mt.remaining_ms, Some(mt.charged_ms))
        } else {
            (None, None)
        };
        let san = match g.game.play(mv) {
            Ok(s) => s.to_string(),
            Err(e) => {
                // Cannot happen: the move came from the legal list.
                let reason = e.to_string();
                return self.illegal(from, color, sm.as_deref(), &reason, at, out);
            }
        };
        g.times.push((clk, emt));
        g.awaiting = None;
        g.draw_offer = if record.draw_offer() {
            Some(color)
        } else {
            None
        };
        let ply = g.game.ply();
        let number = g.number;
        out.push(Output::MoveMade {
            game_number: number,
            ply,
            color,
            san: san.clone(),
            charged_ms: emt,
        });
        if record.draw_offer() {
            self.notice(
                out,
                EventKind::Info,
                format!("{} offers a draw with {san}", color_name(color)),
            );
        }
        if self.check_automatic_end(at, out) || self.check_adjudication(at, out) {
            return;
        }
        let opponent = from.other();
        self.send_respond(opponent, at, out, Respond::New);
    }

    pub(super) fn echo_mismatch(
        &mut self,
        from: ClientId,
        diff: &str,
        text: &str,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        let max = self.settings.max_resends;
        let resends = self
            .game
            .as_ref()
            .and_then(|g| g.awaiting.as_ref())
            .map_or(0, |a| a.resends);
        if resends < max {
            self.notice(
                out,
                EventKind::Warning,
                format!(
                    "{}: echoed position differs ({diff}); resending the position ({} of {max}): {}",
                    from.letter(),
                    resends + 1,
                    quote(text)
                ),
            );
            if let Some(a) = self.game.as_mut().and_then(|g| g.awaiting.as_mut()) {
                a.resends += 1;
            }
            self.send_respond(from, at, out, Respond::Again);
        } else {
            let color = self
                .game
                .as_ref()
                .map_or(Color::White, |g| g.color_of(from));
            let reason = format!("echoed position still differs after {max} resends ({diff})");
            match self.settings.illegal_move {
                // The retries are spent: asking once more would not help.
                IllegalMove::Retry => self.forfeit(from, color, None, &reason, at, out),
                _ => self.illegal(from, color, None, &reason, at, out),
            }
        }
    }

    /// An illegal or unparsable move, a missing move, or a persistent bad
    /// echo: forfeit, fault or ask again, as the settings say.
    pub(super) fn illegal(
        &mut self,
        from: ClientId,
        color: Color,
        move_text: Option<&str>,
        reason: &str,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        match self.settings.illegal_move {
            IllegalMove::Forfeit => self.forfeit(from, color, move_text, reason, at, out),
            IllegalMove::Retry => self.ask_again_counted(from, color, move_text, reason, at, out),
            IllegalMove::Fault => {
                let text = format!(
                    "{}: {reason}; game paused for the supervisor",
                    from.letter()
                );
                self.pause_game(format!("{}: {reason}", from.letter()), true, at);
                self.send_simple(from, RefCom::Fault, at, out);
                self.notice(out, EventKind::Fault, text);
            }
        }
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
        move_text: Option<&str>,
        reason: &str,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        let max = self.settings.max_resends;
        let awaiting = self
            .game
            .as_mut()
            .and_then(|g| g.awaiting.as_mut())
            .filter(|a| a.client == from && a.resends < max);
        if let Some(a) = awaiting {
            a.resends += 1;
            let n = a.resends;
            self.notice(
                out,
                EventKind::Warning,
                format!("{}: {reason}; asking again ({n} of {max})", from.letter()),
            );
            return self.send_respond(from, at, out, Respond::Again);
        }
        let reason = match max {
            0 => reason.to_owned(),
            _ => format!("{reason} (asked again {max} times)"),
        };
        match self.settings.illegal_move {
            IllegalMove::Fault => self.illegal(from, color, move_text, &reason, at, out),
            IllegalMove::Forfeit | IllegalMove::Retry => {
                self.forfeit(from, color, move_text, &reason, at, out)
            }
        }
    }

    /// The offender loses the game (Termination "rules infraction").
    pub(super) fn forfeit(
        &mut self,
        from: ClientId,
        color: Color,
        move_text: Option<&str>,
        reason: &str,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        let who = color_name(color);
        if let Some(g) = self.game.as_mut() {
            g.final_comment = Some(match move_text {
                Some(m) => format!("{who} played {}: {reason}", quote(m)),
                None => format!("{who}: {reason}"),
            });
        }
        self.notice(
            out,
            EventKind::Fault,
            format!("{}: {reason}", from.letter()),
        );
        self.end_game(
            GameResult::Win(!color),
            Termination::RulesInfraction,
            format!("{who} forfeits: {reason}"),
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
        why: &str,
        text: &str,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        self.reject(out, from, &format!("damaged line: {why}"), text);
        self.ask_again_at_once(from, "after a damaged line", at, out);
    }

    /// A client that checks its lines got a record that failed its check
    /// (or that its framer dropped) and says so with `Anak`: if it is on
    /// move, that was probably its respond, which is sent again.
    pub(super) fn on_nak(&mut self, from: ClientId, at: u64, out: &mut Vec<Output>) {
        if !self.ask_again_at_once(from, "its record arrived damaged (Anak)", at, out) {
            self.notice(
                out,
                EventKind::Info,
                format!(
                    "{}: a record arrived damaged (Anak); nothing to send again",
                    from.letter()
                ),
            );
        }
    }

    /// Sends the client on move its respond again now, unless the last
    /// one is still on the line (then it is not asked twice). Returns
    /// whether it was asked.
    pub(super) fn ask_again_at_once(
        &mut self,
        from: ClientId,
        why: &str,
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
        self.notice(
            out,
            EventKind::Warning,
            format!("{}: asking again {why}", from.letter()),
        );
        self.send_respond(from, at, out, Respond::Again);
        true
    }

    pub(super) fn reject(
        &mut self,
        out: &mut Vec<Output>,
        from: ClientId,
        reason: &str,
        text: &str,
    ) {
        self.notice(
            out,
            EventKind::Rejected,
            format!("{}: rejected ({reason}): {}", from.letter(), quote(text)),
        );
    }
}
