//! What the outside sees: the PGN of a game (final and live), client names,
//! the events (emitted, and the last ones kept for the display), and the
//! snapshot.

// The core's types, constants and imports are shared by its parts.
use super::*;

/// Where the game stands, as a journal checkpoint records it
/// ([`Referee::progress`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress<'a> {
    pub game_number: u32,
    /// Plies in the game (opening moves included).
    pub ply: usize,
    /// The position; `None` before the first game.
    pub position: Option<&'a Chess>,
    pub used_ms: shakmaty::ByColor<u64>,
}

impl Referee {
    pub(super) fn game_tags(&self, result: &str) -> Vec<(String, String)> {
        let s = &self.settings;
        let (white, black, round) = match &self.game {
            Some(g) => (
                self.client_name(g.white),
                self.client_name(g.white.other()),
                g.round.clone(),
            ),
            None => (
                self.client_name(ClientId::A),
                self.client_name(ClientId::B),
                "?".into(),
            ),
        };
        vec![
            ("Event".into(), s.event.clone()),
            ("Site".into(), s.site.clone()),
            ("Date".into(), s.date.clone()),
            ("Round".into(), round),
            ("White".into(), white),
            ("Black".into(), black),
            ("Result".into(), result.into()),
            ("TimeControl".into(), s.time_control.to_string()),
        ]
        .into_iter()
        .chain(self.side_controls())
        .chain(
            s.variant
                .pgn_tag()
                .map(|v| ("Variant".to_string(), v.to_string())),
        )
        .collect()
    }

    /// Time odds: `WhiteTimeControl` and `BlackTimeControl` (as
    /// cutechess-cli writes them) when the sides' controls differ, beside
    /// the match's `TimeControl`. Before the first game A is White.
    fn side_controls(&self) -> Vec<(String, String)> {
        match self.odds_controls() {
            Some(c) => vec![
                ("WhiteTimeControl".into(), c.white.to_string()),
                ("BlackTimeControl".into(), c.black.to_string()),
            ],
            None => Vec::new(),
        }
    }

    /// With time odds, each colour's own control in the current game
    /// (before the first, A is White); `None` without.
    pub(super) fn odds_controls(&self) -> Option<ByColor<TimeControl>> {
        if !self.settings.has_time_odds() {
            return None;
        }
        let white = self.game.as_ref().map_or(ClientId::A, |g| g.white);
        Some(self.settings.controls(white))
    }

    /// The PGN of the current game: finished, or (`live`) in progress with
    /// Result `*` and the `Clock` tag. `None` before the first game.
    pub fn live_pgn(&self, at: u64) -> Option<PgnGame> {
        self.pgn(at, true)
    }

    pub(super) fn pgn(&self, at: u64, live: bool) -> Option<PgnGame> {
        let g = self.game.as_ref()?;
        let (result, termination) = match (&g.end, live) {
            (Some((r, t, _)), _) => (r.as_str().to_string(), Some(*t)),
            (None, true) => ("*".to_string(), None),
            (None, false) => ("*".to_string(), Some(Termination::Unterminated)),
        };
        let mut tags = self.game_tags(&result);
        if let Some(t) = termination {
            tags.push(("Termination".into(), t.as_str().into()));
        }
        // A Chess960 game names its start position even when it is the
        // standard one (number 518), as PGN readers need it to set up.
        if *g.game.start() != Chess::default() || self.settings.variant != Variant::Standard {
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), game::fen_of(g.game.start())));
        }
        if live
            && g.end.is_none()
            && let Some(tag) = ClockTag::from_clocks(&g.clocks, g.game.position().turn(), at)
        {
            tags.push(("Clock".into(), tag.to_string()));
        }
        let moves = g
            .game
            .sans()
            .iter()
            .enumerate()
            .map(|(i, san)| {
                let played = i.checked_sub(g.opening_plies).and_then(|j| g.played.get(j));
                PgnMove {
                    san: san.clone(),
                    clk_ms: played.and_then(|p| p.clk_ms),
                    emt_ms: played.and_then(|p| p.emt_ms),
                    eval: played.and_then(|p| p.eval.clone()),
                    book: played.is_some_and(|p| p.book),
                    ponder_hit: played.and_then(|p| p.ponder_hit),
                }
            })
            .collect::<Vec<PgnMove>>();
        // The plies of the movetext, as fastchess writes the tag (an
        // opening's moves included: they are in the movetext).
        tags.push(("PlyCount".into(), moves.len().to_string()));
        tags.extend(game_times(g));
        Some(PgnGame {
            tags,
            first_move_number: g.game.start().fullmoves().get(),
            black_first: g.game.start().turn() == Color::Black,
            moves,
            result,
            final_comment: g.final_comment.clone(),
        })
    }

    /// The name a client is known by, if any: from the settings, else its
    /// `tcsi` name (a resumed referee seats TCP clients by it).
    pub fn known_name(&self, id: ClientId) -> Option<String> {
        self.settings.names[id]
            .clone()
            .or_else(|| self.clients[id].tcsi_name.clone())
    }

    /// The name of a client: from the settings, else its `tcsi` name, else
    /// its port.
    pub fn client_name(&self, id: ClientId) -> String {
        self.settings.names[id]
            .as_deref()
            .map(strip_control)
            .or_else(|| self.clients[id].tcsi_name.clone())
            .unwrap_or_else(|| strip_control(&self.settings.ports[id]))
    }

    /// Each client's ponder hits and ponders in the game (the moves whose
    /// reply carried `Aponder hit` or `miss`), for the results file.
    pub fn ponder_counts(&self) -> ByClient<(u32, u32)> {
        self.ponders
    }

    /// Tells the world what happened: the event goes out, and (unless it
    /// is a move) into the events kept for the display.
    pub(super) fn emit(&mut self, out: &mut Vec<Output>, event: Event) {
        if event.logged() {
            if self.events.len() >= EVENT_LIMIT {
                self.events.pop_front();
            }
            self.events.push_back(EventView {
                at_ms: self.now,
                event: event.clone(),
            });
        }
        out.push(Output::Event(event));
    }

    /// A copy of the state for the display, taken at `at`.
    pub fn snapshot(&self, at: u64) -> Snapshot {
        let (start, position, sans, last_move, result) = match &self.game {
            Some(g) => (
                g.game.start().clone(),
                g.game.position().clone(),
                g.game.sans().to_vec(),
                last_squares(g),
                g.end.as_ref().map(|(r, t, ending)| ResultView {
                    result: r.as_str().into(),
                    termination: t.as_str().into(),
                    ending: ending.clone(),
                }),
            ),
            None => (Chess::default(), Chess::default(), Vec::new(), None, None),
        };
        Snapshot {
            at_ms: at,
            phase: self.phase(),
            start,
            position,
            sans,
            last_move,
            clients: ByClient::new_with(|id| self.client_view(id)),
            clocks: shakmaty::ByColor::new_with(|c| self.clock_view(c, at)),
            time_control: self.time_control_shown(),
            game_number: GAME_NUMBER,
            games_total: 1,
            score_halves: ByClient::default(),
            result,
            stats: None,
            events: self.events.iter().cloned().collect(),
        }
    }

    /// What a journal checkpoint records at `at`: the game's number, its
    /// plies, its position (`None` before the first game: the initial
    /// position) and the time each side has used. The same as
    /// [`Referee::snapshot`] says of them, without the copy of the game's
    /// moves, events and views a snapshot makes (a checkpoint is written
    /// after every move).
    pub fn progress(&self, at: u64) -> Progress<'_> {
        Progress {
            game_number: GAME_NUMBER,
            ply: self.game.as_ref().map_or(0, |g| g.game.sans().len()),
            position: self.game.as_ref().map(|g| g.game.position()),
            used_ms: shakmaty::ByColor::new_with(|c| self.clock_view(c, at).used_ms),
        }
    }

    /// The control as the board and the page show it: the match's, or
    /// with time odds each colour's (`1+0.01 / 10+0.1`, White's first).
    fn time_control_shown(&self) -> String {
        match self.odds_controls() {
            Some(c) => format!("{} / {}", c.white, c.black),
            None => self.settings.time_control.to_string(),
        }
    }

    /// What the session is doing, as the display names it.
    fn phase(&self) -> Phase {
        match &self.stage {
            Stage::WaitingForSignOn => Phase::WaitingForSignOn,
            Stage::Starting { .. } => Phase::Starting,
            Stage::Playing => match self.game.as_ref().and_then(|g| g.pause.as_ref()) {
                Some(p) => Phase::Paused {
                    reason: p.reason.clone(),
                },
                None => Phase::Playing,
            },
            Stage::GameOver { .. } => Phase::GameOver,
            Stage::SessionOver => Phase::SessionOver,
        }
    }

    fn client_view(&self, id: ClientId) -> ClientView {
        ClientView {
            id,
            port: strip_control(&self.settings.ports[id]),
            name: self.client_name(id),
            signed_on: self.clients[id].signed_on,
            link_up: self.clients[id].link_up,
            line_check: self.clients[id].line_check,
            color: self.game.as_ref().map(|g| g.color_of(id)),
        }
    }

    /// `color`'s clock at `at`; before the first game, the time control's
    /// starting time.
    fn clock_view(&self, color: Color, at: u64) -> ClockView {
        match &self.game {
            Some(g) => ClockView {
                remaining_ms: g.clocks.remaining(color, at),
                used_ms: g.clocks.used(color, at),
                running: g.clocks.running() == Some(color) && g.pause.is_none(),
                flagged: g.flagged == Some(color),
            },
            None => ClockView {
                remaining_ms: self
                    .settings
                    .controls(ClientId::A)
                    .get(color)
                    .initial_ms(color),
                used_ms: 0,
                running: false,
                flagged: false,
            },
        }
    }
}

/// The last move's from and to squares (for the board's highlight).
fn last_squares(g: &GameState) -> Option<(Square, Square)> {
    g.game.last_move().and_then(
        |m| match m.to_uci(Variant::of(g.game.start()).castling_mode()) {
            UciMove::Normal { from, to, .. } => Some((from, to)),
            UciMove::Put { to, .. } => Some((to, to)),
            UciMove::Null => None,
        },
    )
}

/// The tags fastchess dates a game with, from the wall-clock times the
/// core took at its start and end: `GameStartTime`, and once it is over
/// `GameEndTime` and `GameDuration` (the end less the start, each to the
/// second as written, so a reader's subtraction gives the duration).
/// None without a wall clock.
fn game_times(g: &GameState) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    let Some(start) = g.started else {
        return tags;
    };
    tags.push((
        "GameStartTime".into(),
        timestamp::pgn_game_time(start.unix_ms, start.utc_offset_min),
    ));
    if let Some(end) = g.ended {
        tags.push((
            "GameEndTime".into(),
            timestamp::pgn_game_time(end.unix_ms, end.utc_offset_min),
        ));
        let secs = (end.unix_ms / 1000).saturating_sub(start.unix_ms / 1000);
        tags.push(("GameDuration".into(), timestamp::pgn_duration(secs)));
    }
    tags
}
