//! The reply of the client on move, as a pipeline of small checks in
//! order (turn, late reply, clock and flag, resignation, echo, the move
//! text, draw offer, the move, draw claim), each of which may deal with
//! the reply and stop the rest; then the move is played.

// The core's types, constants and imports are shared by its parts.
use super::*;

/// A reply being checked: who sent it, the record, its line and when its
/// line end arrived.
struct Reply<'a> {
    from: ClientId,
    record: &'a Record,
    text: &'a str,
    at: u64,
}

/// A check dealt with the reply (refused it, held it, or ended the game):
/// the checks after it do not run.
struct Handled;

impl Referee {
    /// A reply from `from`: the checks below in order, each of which may
    /// deal with the reply (refuse it, hold it, end the game) and stop
    /// the rest, then the move is played and the opponent asked.
    pub(super) fn on_reply(
        &mut self,
        from: ClientId,
        record: &Record,
        text: &str,
        credit_ms: u64,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        let reply = Reply {
            from,
            record,
            text,
            at,
        };
        // Err(Handled): a check dealt with the reply.
        let _ = self.reply_pipeline(&reply, credit_ms, out);
    }

    fn reply_pipeline(
        &mut self,
        r: &Reply,
        credit_ms: u64,
        out: &mut Vec<Output>,
    ) -> Result<(), Handled> {
        let color = self.check_turn(r, out)?;
        let echo_diff = self.check_not_late(r, out)?;
        let credit = self.check_clock(r, color, credit_ms, out)?;
        self.check_resignation(r, color, out)?;
        if let Some(diff) = echo_diff {
            // A wrong echo (a resignation stands whatever position came
            // with it).
            self.echo_mismatch(r.from, color, &diff, r.text, r.at, out);
            return Err(Handled);
        }
        let sm = self.read_sm(r, color, out)?;
        self.answer_draw_offer(r, color, out)?;
        let mv = self.parse_move(r, color, sm.as_deref(), out)?;
        self.check_draw_claim(r, color, mv.as_ref(), out)?;
        let mv = self.require_move(r, color, mv, out)?;
        self.play_reply(r, color, mv, credit, out)
    }

    /// The game in play, once [`Referee::check_turn`] has passed.
    fn game_in_play(&mut self) -> Result<&mut GameState, Handled> {
        self.game.as_mut().ok_or(Handled)
    }

    /// A game is in play, this client is on move and in line, and play is
    /// not paused (a reply in a pause is held for the resume). Gives the
    /// mover's colour.
    fn check_turn(&mut self, r: &Reply, out: &mut Vec<Output>) -> Result<Color, Handled> {
        let refusal = match self.game.as_ref() {
            None => Some(Rejection::NoGame),
            Some(g) if g.is_over() || self.stage != Stage::Playing => Some(Rejection::NoGame),
            Some(g) => match &g.awaiting {
                Some(a) if a.client == r.from => None,
                Some(_) => Some(Rejection::OutOfTurn),
                None => Some(Rejection::NotExpected),
            },
        };
        let refusal = refusal.or_else(|| {
            self.clients[r.from]
                .resync_due
                .map(|_| Rejection::BeforeResync)
        });
        if let Some(reason) = refusal {
            self.reject(out, r.from, reason, r.text);
            return Err(Handled);
        }
        let g = self.game_in_play()?;
        if g.pause.is_some() {
            self.hold_reply(r.from, r.text, out);
            return Err(Handled);
        }
        Ok(g.color_of(r.from))
    }

    /// A reply that echoes a position the client was asked about earlier,
    /// but not the current one, answers an earlier record: it is refused
    /// before anything in it (a resignation included) counts. Gives how
    /// the echo differs from the current position, if it does.
    fn check_not_late(
        &mut self,
        r: &Reply,
        out: &mut Vec<Output>,
    ) -> Result<Option<String>, Handled> {
        let g = self.game_in_play()?;
        // The echoed position: the position the client was given with the
        // opponent's move applied, i.e. the current position.
        let echo_diff = game::echo_mismatch(g.game.position(), &r.record.fields);
        if echo_diff.is_some()
            && self.clients[r.from]
                .asked
                .iter()
                .any(|p| game::echo_mismatch(p, &r.record.fields).is_none())
        {
            self.reject(out, r.from, Rejection::LateReply, r.text);
            return Err(Handled);
        }
        Ok(echo_diff)
    }

    /// The move's time runs from the respond's last byte out to the
    /// reply's last byte in, less the reply's own time on the wire (the
    /// credit, `credit`, given back: [`clock::line_credit_ms`]); for a
    /// program argus runs itself, less argus's own hops beyond the
    /// engine's time its `Asearch` gives ([`clock::hop_credit_ms`]), if
    /// that is more. A flag that fell before the reply ends the game.
    fn check_clock(
        &mut self,
        r: &Reply,
        color: Color,
        credit: u64,
        out: &mut Vec<Output>,
    ) -> Result<u64, Handled> {
        // A malformed `Asearch` counts as none: the move is charged what
        // argus measured.
        let searched = if self.settings.own_search_time[r.from] {
            r.record.search_time_ms().ok().flatten()
        } else {
            None
        };
        let g = self.game_in_play()?;
        if let Some(a) = g.awaiting.as_mut()
            && !a.sent
        {
            a.sent = true;
            g.clocks.start(color, a.est_sent_at.min(r.at));
        }
        let credit = match searched {
            Some(s) => credit.max(clock::hop_credit_ms(g.clocks.in_move(color, r.at), s)),
            None => credit,
        };
        if g.clocks.flag(r.at.saturating_sub(credit)) == Some(color) {
            self.flag_fall(r.at.saturating_sub(credit), out);
            return Err(Handled);
        }
        Ok(credit)
    }

    fn check_resignation(
        &mut self,
        r: &Reply,
        color: Color,
        out: &mut Vec<Output>,
    ) -> Result<(), Handled> {
        if !r.record.resign() {
            return Ok(());
        }
        let why = Ending::Resigned { color };
        self.end_game(GameResult::Win(!color), Termination::Normal, why, r.at, out);
        Err(Handled)
    }

    /// The `sm` operand as text (a bad one is an illegal move).
    fn read_sm(
        &mut self,
        r: &Reply,
        color: Color,
        out: &mut Vec<Output>,
    ) -> Result<Option<String>, Handled> {
        match r.record.sm() {
            Ok(sm) => Ok(sm.map(str::to_owned)),
            Err(e) => {
                let problem = Problem::BadSm {
                    error: e.to_string(),
                };
                self.illegal(r.from, color, problem, r.at, out);
                Err(Handled)
            }
        }
    }

    /// `draw_accept` of the opponent's open offer ends the game; one with
    /// no offer open is noted and the reply goes on; `draw_reject` is
    /// noted.
    fn answer_draw_offer(
        &mut self,
        r: &Reply,
        color: Color,
        out: &mut Vec<Output>,
    ) -> Result<(), Handled> {
        let offer_open = self.game_in_play()?.draw_offer == Some(!color);
        if r.record.draw_accept() {
            if offer_open {
                let why = Ending::DrawAgreed { accepted_by: color };
                self.end_game(GameResult::Draw, Termination::Normal, why, r.at, out);
                return Err(Handled);
            }
            self.emit(out, Event::DrawAcceptIgnored { client: r.from });
        }
        if r.record.draw_reject() && offer_open {
            self.emit(out, Event::DrawDeclined { client: r.from });
        }
        Ok(())
    }

    /// The move (if any) against the current position; an unparsable,
    /// illegal or ambiguous one is an illegal move.
    fn parse_move(
        &mut self,
        r: &Reply,
        color: Color,
        sm: Option<&str>,
        out: &mut Vec<Output>,
    ) -> Result<Option<Move>, Handled> {
        let Some(s) = sm else { return Ok(None) };
        let parsed = game::parse_san(self.game_in_play()?.game.position(), s);
        match parsed {
            Ok(m) => Ok(Some(m)),
            Err(e) => {
                let problem = Problem::BadMove {
                    kind: e.kind,
                    text: s.to_owned(),
                    why: e.reason,
                };
                self.illegal(r.from, color, problem, r.at, out);
                Err(Handled)
            }
        }
    }

    /// `draw_claim`: a valid claim (now, or after the move given with it)
    /// draws; a false one is overruled by a mating move, else costs the
    /// game or is refused as the settings say.
    fn check_draw_claim(
        &mut self,
        r: &Reply,
        color: Color,
        mv: Option<&Move>,
        out: &mut Vec<Output>,
    ) -> Result<(), Handled> {
        if !r.record.draw_claim() {
            return Ok(());
        }
        let false_claim = self.settings.false_claim;
        let g = self.game_in_play()?;
        let claim = g
            .game
            .claimable_draw()
            .or_else(|| mv.and_then(|m| g.game.claimable_draw_after(m)));
        if let Some(claim) = claim {
            if let Some(m) = mv {
                // FIDE 9.2: with a valid claim the move is written down but
                // not played.
                let san = game::san_of(g.game.position(), m);
                g.final_comment = Some(words::claim_note(&san));
            }
            let why = Ending::DrawClaimed { by: color, claim };
            self.end_game(GameResult::Draw, Termination::Normal, why, r.at, out);
            return Err(Handled);
        }
        if mv.is_some_and(|m| mates(g.game.position(), m)) {
            // The claim is false, but the move given with it mates: the
            // mate ends the game (FIDE 5.1.1).
            self.emit(out, Event::FalseClaimMateStands { client: r.from });
            return Ok(());
        }
        match false_claim {
            FalseClaim::Forfeit => {
                let why = Ending::FalseClaim { by: color };
                let result = GameResult::Win(!color);
                self.end_game(result, Termination::RulesInfraction, why, r.at, out);
                Err(Handled)
            }
            FalseClaim::PlayOn => {
                let event = Event::FalseClaimRejected {
                    client: r.from,
                    color,
                };
                self.emit(out, event);
                if mv.is_none() {
                    // Nothing to play: ask again for a move.
                    let problem = Problem::FalseClaimWithoutMove;
                    self.ask_again_counted(r.from, color, problem, r.at, out);
                    return Err(Handled);
                }
                Ok(())
            }
        }
    }

    /// A reply that is not a resignation or a draw must carry a move.
    fn require_move(
        &mut self,
        r: &Reply,
        color: Color,
        mv: Option<Move>,
        out: &mut Vec<Output>,
    ) -> Result<Move, Handled> {
        if let Some(mv) = mv {
            return Ok(mv);
        }
        if r.record.draw_accept() {
            // An accept with no offer to accept, and no move: ask again.
            let problem = Problem::AcceptWithoutOffer;
            self.ask_again_counted(r.from, color, problem, r.at, out);
        } else {
            self.illegal(r.from, color, Problem::NoMove, r.at, out);
        }
        Err(Handled)
    }

    /// What came with a played move: a draw offer, and what of its
    /// evaluation could not be read.
    fn move_notes(
        &mut self,
        r: &Reply,
        color: Color,
        san: &str,
        problems: Vec<crate::referee::eval::BadEval>,
        out: &mut Vec<Output>,
    ) {
        if r.record.draw_offer() {
            let san = san.to_owned();
            self.emit(out, Event::DrawOffered { color, san });
        }
        for problem in problems {
            let event = Event::EvalProblem {
                client: r.from,
                problem,
                san: san.to_owned(),
            };
            self.emit(out, event);
        }
    }

    /// Plays the accepted move: the clock stops (with the credit), the
    /// move is recorded with its time, a draw offer made with it stands,
    /// and unless the game ended the opponent is asked for its move.
    fn play_reply(
        &mut self,
        r: &Reply,
        color: Color,
        mv: Move,
        credit: u64,
        out: &mut Vec<Output>,
    ) -> Result<(), Handled> {
        let g = self.game_in_play()?;
        let timed = g.clocks.control(color).is_timed();
        let mt = g.clocks.stop(color, r.at, credit);
        let (clk, emt) = if timed {
            (mt.remaining_ms, Some(mt.charged_ms))
        } else {
            (None, None)
        };
        let san = match g.game.play(mv) {
            Ok(s) => s.to_string(),
            Err(e) => {
                // Cannot happen: the move came from the legal list.
                let problem = Problem::Unplayable {
                    error: e.to_string(),
                };
                self.illegal(r.from, color, problem, r.at, out);
                return Err(Handled);
            }
        };
        let (eval, problems) = read_eval(r.record, mt.charged_ms);
        // A bad `Aponder` counts as none: it is only a statistic.
        let ponder_hit = r.record.ponder_hit().ok().flatten();
        g.played.push(Played {
            clk_ms: clk,
            emt_ms: emt,
            eval,
            book: r.record.book_move(),
            ponder_hit,
        });
        g.awaiting = None;
        g.draw_offer = r.record.draw_offer().then_some(color);
        let ply = g.game.ply();
        let moved = Event::MoveMade {
            game: GAME_NUMBER,
            ply,
            number: move_number(g.game.start(), ply),
            color,
            san: san.clone(),
            charged_ms: emt,
        };
        self.emit(out, moved);
        if let Some(hit) = ponder_hit {
            let (hits, ponders) = &mut self.ponders[r.from];
            *ponders += 1;
            *hits += u32::from(hit);
        }
        self.move_notes(r, color, &san, problems, out);
        if self.check_automatic_end(r.at, out) || self.check_adjudication(r.at, out) {
            return Err(Handled);
        }
        self.send_respond(r.from.other(), r.at, out, Respond::New);
        Ok(())
    }
}
