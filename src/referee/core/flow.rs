//! Game flow: starting the game, its automatic ends (rules, adjudication,
//! flag), ending the game and the session, pause and resume, and bringing a
//! restarted client back in line (resync).

// The core's types, constants and imports are shared by its parts.
use super::*;

impl Referee {
    /// Starts the game once both clients have signed on: White and the
    /// start position as the settings say (the event chose them).
    pub(super) fn start_game(&mut self, at: u64, out: &mut Vec<Output>) {
        let white = self.settings.white;
        let start = self.settings.opening.clone().unwrap_or_else(Start::initial);
        let mut game = Game::new(start.position.clone());
        for m in &start.moves {
            if game.play(*m).is_err() {
                break; // openings are checked when loaded; stop at a bad one
            }
        }
        let round = self
            .settings
            .round
            .clone()
            .unwrap_or_else(|| GAME_NUMBER.to_string());
        self.game = Some(GameState {
            white,
            opening_plies: game.ply(),
            game,
            clocks: Clocks::per_side(self.settings.controls(white)),
            played: Vec::new(),
            adjudication: adjudication::Counters::default(),
            awaiting: None,
            draw_offer: None,
            pause: None,
            flagged: None,
            end: None,
            final_comment: None,
            round,
            started: self.wall_time(at),
            ended: None,
        });
        for id in ClientId::BOTH {
            self.clients[id].resync_due = None;
            self.send_reset(id, out);
        }
        self.stage = Stage::Starting {
            until: at.saturating_add(self.settings.reset_delay_ms),
        };
    }

    pub(super) fn begin_play(&mut self, at: u64, out: &mut Vec<Output>) {
        self.stage = Stage::Playing;
        let Some(g) = self.game.as_ref() else { return };
        let (white, black) = (self.client_name(g.white), self.client_name(g.white.other()));
        for id in ClientId::BOTH {
            if self.clients[id].signed_on {
                self.send_inform(id, "*", at, out);
                self.send_executes(id, at, out);
            }
        }
        let started = Event::GameStarted {
            game: GAME_NUMBER,
            games: 1,
            white,
            black,
        };
        self.emit(out, started);
        if self.check_automatic_end(at, out) {
            return;
        }
        let Some(g) = self.game.as_ref() else { return };
        let to_move = g.client_of(g.game.position().turn());
        self.send_respond(to_move, at, out, Respond::New);
    }

    /// Ends the game if the position ends it by rule (mate, stalemate, dead
    /// position, 75 moves, fivefold repetition). Returns whether it did.
    pub(super) fn check_automatic_end(&mut self, at: u64, out: &mut Vec<Output>) -> bool {
        let Some(g) = self.game.as_ref() else {
            return false;
        };
        let Some(end) = g.game.automatic_end() else {
            return false;
        };
        let (result, reason) = match end {
            AutomaticEnd::Checkmate { winner } => (
                GameResult::Win(winner),
                Ending::Checkmate { loser: !winner },
            ),
            AutomaticEnd::Stalemate => (GameResult::Draw, Ending::Stalemate),
            AutomaticEnd::DeadPosition => (GameResult::Draw, Ending::DeadPosition),
            AutomaticEnd::SeventyFiveMoves => (GameResult::Draw, Ending::SeventyFiveMoves),
            AutomaticEnd::FivefoldRepetition => (GameResult::Draw, Ending::FivefoldRepetition),
        };
        self.end_game(result, Termination::Normal, reason, at, out);
        true
    }

    /// After a move the clients played: ends the game if an adjudication
    /// rule of the settings does (`--draw-adjudication`,
    /// `--resign-adjudication` on the move's evaluation, then
    /// `--max-moves`), with the reason as the PGN's final comment. Returns
    /// whether it did.
    pub(super) fn check_adjudication(&mut self, at: u64, out: &mut Vec<Output>) -> bool {
        let s = &self.settings;
        let Some(g) = self.game.as_mut() else {
            return false;
        };
        let pos = g.game.position();
        let facts = adjudication::MoveFacts {
            mover: !pos.turn(),
            ce: g.played.last().and_then(|p| p.eval.as_ref()).map(|e| e.ce),
            irreversible: pos.halfmoves() == 0,
            plies: g.game.ply(),
        };
        let by_eval = g
            .adjudication
            .after_move(facts, s.draw_adjudication, s.resign_adjudication);
        let Some(rule) =
            by_eval.or_else(|| adjudication::max_moves_reached(g.game.ply(), s.max_moves))
        else {
            return false;
        };
        let ending = Ending::Rule(rule);
        self.end_game(rule.result(), Termination::Adjudication, ending, at, out);
        true
    }

    /// The endgame tables' verdict (`--syzygy`, probed at the edge after a
    /// move): ends the game by adjudication if it is still in progress at
    /// the position that was probed; a verdict on a position the game has
    /// left (a move came in first) is ignored, as the next move is probed
    /// again.
    pub(super) fn on_tablebase(&mut self, v: TablebaseVerdict, at: u64, out: &mut Vec<Output>) {
        let at_probed = self.position_in_play().is_some_and(|(_, ply)| ply == v.ply);
        if !at_probed {
            return;
        }
        let ending = v.ending();
        self.end_game(v.result(), Termination::Adjudication, ending, at, out);
    }

    pub(super) fn flag_fall(&mut self, at: u64, out: &mut Vec<Output>) {
        let Some(g) = self.game.as_mut() else { return };
        let Some(color) = g.clocks.running() else {
            return;
        };
        g.flagged = Some(color);
        let drawn = !game::can_mate(g.game.position(), !color);
        let result = if drawn {
            GameResult::Draw
        } else {
            GameResult::Win(!color)
        };
        let why = Ending::Flag { color, drawn };
        self.end_game(result, Termination::TimeForfeit, why, at, out);
    }

    pub(super) fn end_game(
        &mut self,
        result: GameResult,
        termination: Termination,
        ending: Ending,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        let ended = self.wall_time(at);
        let Some(g) = self.game.as_mut() else { return };
        if g.is_over() {
            return;
        }
        g.ended = ended;
        if g.clocks.running().is_some() {
            g.clocks.halt(at);
        }
        // A move that ends the game (mate, stalemate, ...) was played but
        // not relayed: the client that did not make it learns it from the
        // final inform.
        let unrelayed = (g.awaiting.is_none() && g.game.ply() > g.opening_plies)
            .then(|| g.client_of(g.game.position().turn()));
        g.awaiting = None;
        g.pause = None;
        g.final_comment = Some(words::closing_comment(&ending, g.final_comment.as_deref()));
        g.end = Some((result, termination, ending.clone()));
        for id in ClientId::BOTH {
            if self.clients[id].signed_on {
                if unrelayed == Some(id) {
                    self.send_final_inform(id, result.as_str(), at, out);
                } else {
                    self.send_inform(id, result.as_str(), at, out);
                }
                self.send_simple(id, RefCom::Conclude, at, out);
            }
        }
        let pgn = self.pgn(at, false).expect("a game is in progress");
        let moves_played = self.game.as_ref().map_or(0, |g| g.played.len());
        let over = GameOver {
            game_number: GAME_NUMBER,
            result,
            termination,
            ending,
            moves_played,
            pgn: std::sync::Arc::new(pgn),
        };
        self.emit(out, Event::GameOver(over));
        self.stage = Stage::GameOver {
            until: at.saturating_add(self.settings.conclude_delay_ms),
        };
    }

    pub(super) fn end_session(&mut self, at: u64, out: &mut Vec<Output>) {
        for id in ClientId::BOTH {
            if self.clients[id].signed_on && self.settings.disconnect_at_end {
                self.send_simple(id, RefCom::Disconnect, at, out);
            }
            self.clients[id].resync_due = None;
        }
        self.stage = Stage::SessionOver;
        self.emit(out, Event::SessionOver);
    }

    pub(super) fn pause_game(&mut self, reason: PauseReason, resend_on_resume: bool, at: u64) {
        let Some(g) = self.game.as_mut() else { return };
        if g.clocks.running().is_some() {
            g.clocks.halt(at);
        }
        match g.pause.as_mut() {
            Some(p) => p.resend_on_resume |= resend_on_resume,
            None => {
                g.pause = Some(Pause {
                    reason,
                    resend_on_resume,
                    start_on_resume: false,
                    held_reply: None,
                })
            }
        }
    }

    pub(super) fn resume_game(&mut self, at: u64, out: &mut Vec<Output>) {
        let Some(g) = self.game.as_mut() else { return };
        let Some(p) = g.pause.take() else { return };
        if g.clocks.halted().is_some() {
            g.clocks.resume(at);
        } else if p.start_on_resume
            && let Some(a) = &g.awaiting
        {
            let c = g.color_of(a.client);
            g.clocks.start(c, at);
        }
        if let Some(text) = p.held_reply
            && let Some(a) = g.awaiting.as_ref()
        {
            // The reply came during the pause: it answers the respond the
            // client was sent, so it is played now (not asked for again,
            // which a client that follows the game by moves would take as
            // a second turn). The pause is not charged to anybody.
            let from = a.client;
            self.on_line(from, &text, 0, at, out);
        } else if p.resend_on_resume
            && let Some(a) = g.awaiting.as_ref()
        {
            let to = a.client;
            self.send_respond(to, at, out, Respond::Again);
        }
    }

    /// A reply from the client on move while the game is paused: kept, and
    /// played at resume. A second one during the same pause is refused.
    pub(super) fn hold_reply(&mut self, from: ClientId, text: &str, out: &mut Vec<Output>) {
        let Some(p) = self.game.as_mut().and_then(|g| g.pause.as_mut()) else {
            return;
        };
        if p.held_reply.is_some() {
            return self.reject(out, from, Rejection::SecondReplyInPause, text);
        }
        p.held_reply = Some(text.to_string());
        self.emit(out, Event::ReplyHeld { client: from });
    }

    pub(super) fn begin_resync(&mut self, id: ClientId, at: u64, out: &mut Vec<Output>) {
        self.send_reset(id, out);
        self.clients[id].resync_due = Some(at.saturating_add(self.settings.reset_delay_ms));
        self.emit(out, Event::Resync { client: id });
    }

    pub(super) fn finish_resync(&mut self, id: ClientId, at: u64, out: &mut Vec<Output>) {
        let Some(g) = self.game.as_ref() else { return };
        if g.is_over() || !self.clients[id].signed_on {
            return;
        }
        let on_move = g.awaiting.as_ref().is_some_and(|a| a.client == id);
        self.send_inform(id, "*", at, out);
        self.send_executes(id, at, out);
        if on_move {
            self.send_respond(id, at, out, Respond::AfterExecute);
        }
    }

    pub(super) fn send_executes(&mut self, id: ClientId, at: u64, out: &mut Vec<Output>) {
        let Some(g) = self.game.as_ref() else { return };
        let mut records = Vec::new();
        for (i, m) in g.game.moves().iter().enumerate() {
            let Some(before) = g.game.position_at(i) else {
                break;
            };
            let mut r = self.base_record(before, at);
            r.set(Operation::refcom(RefCom::Execute));
            r.set(Operation::sm(&game::san_of(before, m)));
            records.push(r);
        }
        for r in records {
            self.send(id, r, out);
        }
    }
}
