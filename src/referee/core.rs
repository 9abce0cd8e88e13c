//! The referee core: a synchronous state machine that carries out the EPD
//! referee protocol (spec section 8, with the decisions of
//! `docs/protocol.md`). It does no I/O and never reads the clock: every
//! input comes with its time, and everything it decides is a function of its
//! inputs, so replaying them rebuilds it exactly.

use std::collections::VecDeque;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use crate::clock::{self, ClockTag, Clocks};
use crate::epd::line_check::{self, Checked};
use crate::epd::{Operation, Record, RefCom, RefReq};
use crate::game::{self, AutomaticEnd, DrawClaim, Game, SanErrorKind};
use crate::record::openings::order_openings;
use crate::record::pgn::{PgnGame, PgnMove};
use crate::referee::adjudication;
use crate::referee::io::{Command, GameOver, GameResult, Input, Output, Termination, Verdict};
use crate::referee::settings::{ClientFault, FalseClaim, IllegalMove, Settings, Start};
use crate::referee::snapshot::{
    ClientId, ClientView, ClockView, EventKind, EventView, Phase, ResultView, Snapshot, color_index,
};
use crate::stats::sprt::Hypothesis;
use crate::stats::{GameScore, MatchStats, Report};
use crate::text::strip_control;

/// Which respond record to send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Respond {
    /// A new turn: the position before the opponent's last move and that
    /// move in `sm` (or the current position when no client has moved yet).
    New,
    /// The same turn again (bad echo, fault resumed, link back): same
    /// record, the turn's clock and counters kept.
    Again,
    /// After a client was brought back in line with `execute`s: it already
    /// has every move, so the current position and no `sm`.
    AfterExecute,
}

/// How many events the core keeps for the display.
const EVENT_LIMIT: usize = 200;
/// The longest client name kept (from `tcsi`).
const NAME_LIMIT: usize = 64;
/// A flag falls this many bytes' wire time after the clock reaches zero, so
/// that a reply already on its way (its credit would put it in time) is
/// not cut off. See docs/protocol.md, "Clocks".
pub const FLAG_GRACE_BYTES: usize = 256;
/// How much of a rejected line a notice quotes.
const QUOTE_LIMIT: usize = 80;
/// `Awaiting::first_seq` after a referee restart, until the new respond
/// record is sent: no "sent" report matches it.
const RESPOND_PENDING: u64 = u64::MAX;
/// How many earlier positions a client was asked to move in are kept, to
/// tell a late reply to one of them from a wrong echo.
const ASKED_LIMIT: usize = 8;

#[derive(Debug, Clone, Default)]
struct ClientState {
    signed_on: bool,
    link_up: bool,
    /// It signed on with a checked line (`Acrc`, see `epd::line_check`):
    /// its lines must carry a good check, and records to it carry one.
    line_check: bool,
    tcsi_name: Option<String>,
    /// When a resync (restart) of this client is due: `inform`, `execute`s
    /// and `respond` go out then, after the reset delay.
    resync_due: Option<u64>,
    /// When to send the respond record again after the link came back
    /// (unless the client signs on again first).
    resend_due: Option<u64>,
    /// The positions this client was last asked to move in (`respond`),
    /// oldest first, across games. A reply that echoes one of them but not
    /// the current position answers an earlier record (a slow client whose
    /// game ended meanwhile, or a resent respond it answered twice): it is
    /// refused as late, not resent, or every resend would breed another
    /// late reply until the client forfeits.
    asked: VecDeque<Chess>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Stage {
    WaitingForSignOn,
    /// `reset` sent; `inform` and the first `respond` go out at `until`.
    Starting {
        until: u64,
    },
    Playing,
    /// A game ended; the next one starts (or the session ends) at `until`.
    Concluding {
        until: u64,
    },
    SessionOver,
}

/// The reply the core is waiting for.
#[derive(Debug, Clone)]
struct Awaiting {
    client: ClientId,
    /// The first respond record of this turn; later ones are resends.
    first_seq: u64,
    /// Whether the respond record has left the port (the clock starts then).
    sent: bool,
    /// Estimated time the respond record left the port, for when the
    /// "sent" report comes late or never (link lost).
    est_sent_at: u64,
    /// Respond records sent again because the echoed position differed.
    resends: u32,
    /// When the client was last sent its respond record (queued), for the
    /// resend after silence (`Settings::resend_after_ms`).
    asked_at: u64,
    /// When a byte from the client last arrived in this turn (a line, a
    /// dropped line, or part of a line): silence counts from the later of
    /// this and `asked_at`, so a resend never crosses a reply on the wire.
    heard_at: u64,
    /// Before this time the last respond record is still on the line: a
    /// damaged line or a `Anak` does not send another yet, so a client
    /// cannot make argus queue records faster than its line carries them.
    again_ok_at: u64,
}

#[derive(Debug, Clone)]
struct Pause {
    reason: String,
    /// Send the respond record again on resume (after a fault).
    resend_on_resume: bool,
    /// The respond record left the port during the pause: start the clock
    /// on resume.
    start_on_resume: bool,
    /// The reply of the client on move that arrived during the pause (the
    /// whole line): it is played at resume, in place of asking again.
    held_reply: Option<String>,
}

#[derive(Debug, Clone)]
struct GameState {
    number: u32,
    white: ClientId,
    game: Game,
    clocks: Clocks,
    /// Moves played through `execute` before the clients took over.
    opening_plies: usize,
    /// Clock data per move (after the opening), for the PGN.
    times: Vec<(Option<u64>, Option<u64>)>,
    awaiting: Option<Awaiting>,
    /// A draw offered by this colour with its last move, open until the
    /// opponent answers.
    draw_offer: Option<Color>,
    pause: Option<Pause>,
    flagged: Option<Color>,
    /// Set when the game is over.
    end: Option<(GameResult, Termination, String)>,
    final_comment: Option<String>,
    round: String,
}

impl GameState {
    fn client_of(&self, color: Color) -> ClientId {
        if color == Color::White {
            self.white
        } else {
            self.white.other()
        }
    }

    fn color_of(&self, client: ClientId) -> Color {
        if client == self.white {
            Color::White
        } else {
            Color::Black
        }
    }

    fn is_over(&self) -> bool {
        self.end.is_some()
    }
}

/// The referee: feed it [`Input`]s with their times through
/// [`Referee::handle`], carry out the [`Output`]s, and wake it with
/// [`Input::Timer`] at [`Referee::next_deadline`].
#[derive(Debug, Clone)]
pub struct Referee {
    settings: Settings,
    /// The opening of each game: index into `settings.openings`.
    order: Vec<usize>,
    clients: [ClientState; 2],
    stage: Stage,
    game: Option<GameState>,
    games_started: u32,
    score_halves: [u32; 2],
    /// Client A's results and game pairs (Elo, LOS, SPRT).
    stats: MatchStats,
    next_seq: u64,
    events: VecDeque<EventView>,
    now: u64,
}

impl Referee {
    /// A referee for this session, waiting for both clients to sign on.
    pub fn new(mut settings: Settings) -> Referee {
        settings.games = settings.games.max(1);
        let order = if settings.openings.is_empty() {
            Vec::new()
        } else {
            // One full cycle (each opening with each colour); later games
            // wrap around it.
            let n = settings.openings.len();
            let cycle = u32::try_from(n.saturating_mul(2)).unwrap_or(u32::MAX);
            order_openings(n, settings.games.min(cycle), settings.openings_seed)
                .into_iter()
                .map(|(i, _)| i)
                .collect()
        };
        Referee {
            settings,
            order,
            clients: [ClientState::default(), ClientState::default()],
            stage: Stage::WaitingForSignOn,
            game: None,
            games_started: 0,
            score_halves: [0, 0],
            stats: MatchStats::default(),
            next_seq: 1,
            events: VecDeque::new(),
            now: 0,
        }
        .with_links_up()
    }

    fn with_links_up(mut self) -> Referee {
        for c in &mut self.clients {
            c.link_up = true;
        }
        self
    }

    /// The settings the session runs with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The time of the last input handled: inputs are taken in order, and
    /// an earlier time given later counts as this one.
    pub fn time(&self) -> u64 {
        self.now
    }

    /// Whether the session has ended (nothing more will be sent).
    pub fn is_over(&self) -> bool {
        self.stage == Stage::SessionOver
    }

    /// When to wake the core with [`Input::Timer`]: the end of a reset or
    /// conclude pause, a due resync, or the instant a flag falls.
    pub fn next_deadline(&self) -> Option<u64> {
        let mut best: Option<u64> = None;
        let mut consider = |t: Option<u64>| {
            if let Some(t) = t {
                best = Some(best.map_or(t, |b| b.min(t)));
            }
        };
        match self.stage {
            Stage::Starting { until } | Stage::Concluding { until } => consider(Some(until)),
            _ => {}
        }
        if self.stage != Stage::SessionOver {
            for c in &self.clients {
                consider(c.resync_due);
                consider(c.resend_due);
            }
        }
        if self.stage == Stage::Playing {
            consider(self.flag_deadline());
            consider(self.silence_deadline());
        }
        best
    }

    /// When the client on move has been silent long enough that its
    /// respond record is sent again (a record lost or damaged on a noisy
    /// line would otherwise stall an untimed game for ever).
    fn silence_deadline(&self) -> Option<u64> {
        let after = self.settings.resend_after_ms;
        if after == 0 {
            return None;
        }
        let g = self.game.as_ref()?;
        if g.is_over() || g.pause.is_some() {
            return None;
        }
        let a = g.awaiting.as_ref()?;
        if self.clients[a.client.index()].resync_due.is_some() {
            return None;
        }
        Some(a.asked_at.max(a.heard_at).saturating_add(after))
    }

    fn flag_deadline(&self) -> Option<u64> {
        let g = self.game.as_ref()?;
        if g.is_over() || g.pause.is_some() {
            return None;
        }
        let running = g.clocks.running()?;
        let d = g.clocks.next_deadline()?;
        let line = &self.settings.lines[g.client_of(running).index()];
        Some(d.saturating_add(clock::wire_time_ms(FLAG_GRACE_BYTES, line)))
    }

    /// Handles one input that happened at `at` (ms since the session
    /// started; never earlier than the previous input's time) and returns
    /// what to do.
    pub fn handle(&mut self, input: Input, at: u64) -> Vec<Output> {
        let at = at.max(self.now);
        self.now = at;
        let mut out = Vec::new();
        if self.stage == Stage::SessionOver
            && !matches!(input, Input::Dropped { .. } | Input::Resumed)
        {
            if let Input::Line { from, text, .. } = &input {
                self.notice(
                    &mut out,
                    EventKind::Rejected,
                    format!(
                        "{}: line after the session ended ignored: {}",
                        from.letter(),
                        quote(text)
                    ),
                );
            }
            return out;
        }
        match &input {
            Input::Line { from, .. } | Input::Dropped { from, .. } | Input::Receiving { from } => {
                self.heard(*from, at);
            }
            _ => {}
        }
        match input {
            Input::Line {
                from,
                text,
                wire_bytes,
            } => self.on_line(from, &text, wire_bytes, at, &mut out),
            Input::Receiving { .. } => {}
            Input::Dropped { from, reason } => self.notice(
                &mut out,
                EventKind::Rejected,
                format!(
                    "{}: line dropped: {}",
                    from.letter(),
                    strip_control(&reason)
                ),
            ),
            Input::Sent { to, seq } => self.on_sent(to, seq, at),
            Input::Refused { to, seq } => self.on_refused(to, seq, at, &mut out),
            Input::LinkLost { client, reason } => self.on_link_lost(client, &reason, at, &mut out),
            Input::LinkBack { client } => self.on_link_back(client, at, &mut out),
            Input::Timer => self.on_timer(at, &mut out),
            Input::Supervisor(cmd) => self.on_command(cmd, at, &mut out),
            Input::Resumed => self.on_resumed(at, &mut out),
        }
        out
    }

    // ----- inputs -------------------------------------------------------

    /// A byte from `from` arrived at `at`: if it is on move, its silence
    /// (for the resend after silence) starts again from here.
    fn heard(&mut self, from: ClientId, at: u64) {
        if let Some(a) = self.game.as_mut().and_then(|g| g.awaiting.as_mut())
            && a.client == from
        {
            a.heard_at = at;
        }
    }

    fn on_line(
        &mut self,
        from: ClientId,
        text: &str,
        wire_bytes: usize,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        let checked = line_check::verify(text);
        let payload = match &checked {
            Checked::Valid(payload) => payload,
            Checked::Invalid(why) => return self.damaged(from, why, text, at, out),
            Checked::Absent => text,
        };
        let record = match Record::parse(payload) {
            Ok(r) => r,
            Err(e) => {
                return self.reject(out, from, &format!("not an EPD record ({e})"), text);
            }
        };
        let req = match record.refreq() {
            Ok(Some(r)) => r,
            Ok(None) if record.has(line_check::NAK) && self.clients[from.index()].signed_on => {
                return self.on_nak(from, at, out);
            }
            Ok(None) => return self.reject(out, from, "record without refreq", text),
            Err(e) => return self.reject(out, from, &e.to_string(), text),
        };
        let checks = &mut self.clients[from.index()].line_check;
        match (req, &checked) {
            // A sign-on says whether the client checks its lines from now.
            (RefReq::SignOn, _) => *checks = checked != Checked::Absent,
            (_, Checked::Absent) if *checks => {
                let why = format!(
                    "no {} check on a line of a client that checks its lines",
                    line_check::OPCODE
                );
                return self.damaged(from, &why, text, at, out);
            }
            _ => {}
        }
        match req {
            RefReq::SignOn => self.on_sign_on(from, &record, at, out),
            _ if !self.clients[from.index()].signed_on => {
                self.reject(out, from, "client has not signed on", text)
            }
            RefReq::SignOff => self.on_sign_off(from, out),
            RefReq::Fault => self.on_client_fault(from, at, out),
            RefReq::Reply => self.on_reply(from, &record, text, wire_bytes, at, out),
        }
    }

    fn on_sign_on(&mut self, from: ClientId, record: &Record, at: u64, out: &mut Vec<Output>) {
        if let Ok(Some((_, name))) = record.tcsi() {
            let name: String = strip_control(&name)
                .trim()
                .chars()
                .take(NAME_LIMIT)
                .collect();
            if !name.is_empty() {
                self.clients[from.index()].tcsi_name = Some(name);
            }
        }
        let again = self.clients[from.index()].signed_on;
        self.clients[from.index()].resend_due = None;
        self.clients[from.index()].signed_on = true;
        self.clients[from.index()].link_up = true;
        let name = self.client_name(from);
        self.notice(
            out,
            EventKind::Info,
            format!(
                "{}: {} signed on{}{}",
                from.letter(),
                name,
                if again { " again" } else { "" },
                if self.clients[from.index()].line_check {
                    ", its lines checked (Acrc)"
                } else {
                    ""
                }
            ),
        );
        match self.stage {
            Stage::WaitingForSignOn => {
                if self.clients.iter().all(|c| c.signed_on) {
                    self.start_next_game(at, out);
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
            Stage::Concluding { .. } | Stage::SessionOver => {}
        }
    }

    fn on_sign_off(&mut self, from: ClientId, out: &mut Vec<Output>) {
        self.clients[from.index()].signed_on = false;
        self.clients[from.index()].resync_due = None;
        let running = self
            .game
            .as_ref()
            .is_some_and(|g| !g.is_over() && g.awaiting.as_ref().is_some_and(|a| a.client == from));
        self.notice(
            out,
            EventKind::Warning,
            format!(
                "{}: {} signed off{}",
                from.letter(),
                self.client_name(from),
                if running {
                    "; its clock keeps running"
                } else {
                    ""
                }
            ),
        );
    }

    fn on_client_fault(&mut self, from: ClientId, at: u64, out: &mut Vec<Output>) {
        let name = self.client_name(from);
        let reason = format!(
            "{}: {} reported a fault (refreq fault)",
            from.letter(),
            name
        );
        let playing =
            self.game.as_ref().is_some_and(|g| !g.is_over()) && self.stage == Stage::Playing;
        if playing && self.settings.client_fault == ClientFault::Continue {
            self.notice(
                out,
                EventKind::Fault,
                format!("{reason}; play goes on (client faults do not pause this match)"),
            );
        } else if playing {
            self.pause_game(reason.clone(), true, at);
            self.notice(
                out,
                EventKind::Fault,
                format!("{reason}; game paused for the supervisor"),
            );
        } else {
            self.notice(out, EventKind::Fault, reason);
        }
    }

    fn on_sent(&mut self, to: ClientId, seq: u64, at: u64) {
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
    fn on_refused(&mut self, to: ClientId, seq: u64, at: u64, out: &mut Vec<Output>) {
        let playing =
            self.stage == Stage::Playing && self.game.as_ref().is_some_and(|g| !g.is_over());
        let resyncing = self.clients[to.index()].resync_due.is_some();
        self.notice(
            out,
            EventKind::Warning,
            format!(
                "{}: the link refused records from #{seq} on (its queue is full){}",
                to.letter(),
                if playing && !resyncing {
                    "; bringing the client back in line"
                } else {
                    ""
                }
            ),
        );
        if let Some(a) = self.game.as_mut().and_then(|g| g.awaiting.as_mut())
            && a.client == to
            && !a.sent
            && seq <= a.first_seq
        {
            // Its respond never left: the clock starts with the next one.
            a.first_seq = RESPOND_PENDING;
        }
        if playing && !resyncing && self.clients[to.index()].signed_on {
            self.begin_resync(to, at, out);
        }
    }

    fn on_link_lost(&mut self, client: ClientId, reason: &str, at: u64, out: &mut Vec<Output>) {
        self.clients[client.index()].link_up = false;
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
        self.notice(
            out,
            EventKind::Link,
            format!("{}: link lost: {}", client.letter(), strip_control(reason)),
        );
    }

    fn on_link_back(&mut self, client: ClientId, at: u64, out: &mut Vec<Output>) {
        self.clients[client.index()].link_up = true;
        self.notice(
            out,
            EventKind::Link,
            format!("{}: link back", client.letter()),
        );
        // The respond record may have been lost with the link. A client that
        // noticed the loss signs on again and is brought back in line; one
        // that did not gets the respond again, after the reset delay.
        if self.awaits(client) && self.clients[client.index()].signed_on {
            self.clients[client.index()].resend_due =
                Some(at.saturating_add(self.settings.reset_delay_ms));
        }
    }

    /// Whether a game is being played and waits for `client`'s reply.
    fn awaits(&self, client: ClientId) -> bool {
        self.stage == Stage::Playing
            && self.game.as_ref().is_some_and(|g| {
                !g.is_over()
                    && g.pause.is_none()
                    && g.awaiting.as_ref().is_some_and(|a| a.client == client)
            })
    }

    /// The referee restarted from its journal: new ports, and clients that
    /// may have missed anything sent since the journal's last input.
    fn on_resumed(&mut self, at: u64, out: &mut Vec<Output>) {
        for c in &mut self.clients {
            c.link_up = true;
        }
        self.notice(
            out,
            EventKind::Info,
            "the referee restarted from its journal; bringing the clients back in line".into(),
        );
        let signed_on: Vec<ClientId> = ClientId::BOTH
            .into_iter()
            .filter(|id| self.clients[id.index()].signed_on)
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
                // out before the crash: send it again.
                for &id in &signed_on {
                    self.send_simple(id, RefCom::Disconnect, at, out);
                }
            }
            Stage::Concluding { .. } => {
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

    fn on_timer(&mut self, at: u64, out: &mut Vec<Output>) {
        // Flag fall first: time is the hardest fact.
        if self.stage == Stage::Playing
            && let Some(d) = self.flag_deadline()
            && at >= d
        {
            self.flag_fall(at, out);
        }
        if self.stage == Stage::Playing
            && let Some(d) = self.silence_deadline()
            && at >= d
            && let Some(to) = self
                .game
                .as_ref()
                .and_then(|g| g.awaiting.as_ref())
                .map(|a| a.client)
        {
            let secs = self.settings.resend_after_ms as f64 / 1000.0;
            self.notice(
                out,
                EventKind::Warning,
                format!(
                    "{}: no reply for {secs:.0} s; sending the respond again",
                    to.letter()
                ),
            );
            self.send_respond(to, at, out, Respond::Again);
        }
        for id in ClientId::BOTH {
            if self.clients[id.index()].resend_due.is_some_and(|t| at >= t) {
                self.clients[id.index()].resend_due = None;
                if self.awaits(id) && self.clients[id.index()].resync_due.is_none() {
                    self.send_respond(id, at, out, Respond::Again);
                }
            }
            if self.clients[id.index()].resync_due.is_some_and(|t| at >= t) {
                self.clients[id.index()].resync_due = None;
                self.finish_resync(id, at, out);
            }
        }
        match self.stage {
            Stage::Starting { until } if at >= until => self.begin_play(at, out),
            Stage::Concluding { until } if at >= until => {
                if self.games_started >= self.settings.games || self.sprt_result().is_some() {
                    self.end_session(at, out);
                } else if self.clients.iter().all(|c| c.signed_on) {
                    self.start_next_game(at, out);
                } else {
                    self.stage = Stage::WaitingForSignOn;
                    self.notice(
                        out,
                        EventKind::Warning,
                        "waiting for both clients to sign on before the next game".into(),
                    );
                }
            }
            _ => {}
        }
    }

    fn on_command(&mut self, cmd: Command, at: u64, out: &mut Vec<Output>) {
        self.notice(
            out,
            EventKind::Info,
            format!("supervisor: {}", describe_command(cmd)),
        );
        let playing =
            self.stage == Stage::Playing && self.game.as_ref().is_some_and(|g| !g.is_over());
        match cmd {
            Command::Pause => {
                if !playing {
                    self.notice(
                        out,
                        EventKind::Warning,
                        "no game in progress to pause".into(),
                    );
                } else if self.game.as_ref().is_some_and(|g| g.pause.is_some()) {
                    self.notice(out, EventKind::Warning, "the game is already paused".into());
                } else {
                    self.pause_game("paused by the supervisor".into(), false, at);
                }
            }
            Command::Resume => {
                if !playing || self.game.as_ref().is_some_and(|g| g.pause.is_none()) {
                    self.notice(out, EventKind::Warning, "the game is not paused".into());
                } else {
                    self.resume_game(at, out);
                }
            }
            Command::Adjudicate(v) => {
                if !playing {
                    self.notice(
                        out,
                        EventKind::Warning,
                        "no game in progress to adjudicate".into(),
                    );
                } else {
                    let (result, reason) = match v {
                        Verdict::WhiteWins => {
                            (GameResult::Win(Color::White), "White wins by adjudication")
                        }
                        Verdict::BlackWins => {
                            (GameResult::Win(Color::Black), "Black wins by adjudication")
                        }
                        Verdict::Draw => (GameResult::Draw, "drawn by adjudication"),
                    };
                    self.end_game(result, Termination::Adjudication, reason.into(), at, out);
                }
            }
            Command::AbortGame => {
                if !playing {
                    self.notice(
                        out,
                        EventKind::Warning,
                        "no game in progress to abort".into(),
                    );
                } else {
                    self.end_game(
                        GameResult::None,
                        Termination::Abandoned,
                        "aborted by the supervisor".into(),
                        at,
                        out,
                    );
                }
            }
            Command::RestartClient(c) => {
                if !self.clients[c.index()].signed_on {
                    self.notice(
                        out,
                        EventKind::Warning,
                        format!(
                            "{}: not signed on; it will be brought in line when it signs on",
                            c.letter()
                        ),
                    );
                } else if playing {
                    self.begin_resync(c, at, out);
                } else {
                    self.send_reset(c, out);
                }
            }
            Command::EndSession => {
                if playing {
                    self.end_game(
                        GameResult::None,
                        Termination::Unterminated,
                        "the session was ended by the supervisor".into(),
                        at,
                        out,
                    );
                }
                self.end_session(at, out);
            }
        }
    }

    // ----- the reply ----------------------------------------------------

    fn on_reply(
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
        if self.clients[from.index()].resync_due.is_some() {
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
            && self.clients[from.index()]
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
        let credit = clock::wire_time_ms(wire_bytes, &self.settings.lines[from.index()]);
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

    fn echo_mismatch(
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
    fn illegal(
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
    fn ask_again_counted(
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
    fn forfeit(
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

    // ----- game flow ----------------------------------------------------

    fn start_next_game(&mut self, at: u64, out: &mut Vec<Output>) {
        self.games_started += 1;
        let number = self.games_started;
        let white = if self.settings.swap_colors && number.is_multiple_of(2) {
            ClientId::B
        } else {
            ClientId::A
        };
        let slot = (number as usize - 1).checked_rem(self.order.len());
        let start = match slot.and_then(|i| self.order.get(i)) {
            Some(&i) => self
                .settings
                .openings
                .get(i)
                .cloned()
                .unwrap_or_else(Start::initial),
            None => Start::initial(),
        };
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
            .unwrap_or_else(|| number.to_string());
        self.game = Some(GameState {
            number,
            white,
            opening_plies: game.ply(),
            game,
            clocks: Clocks::new(&self.settings.time_control),
            times: Vec::new(),
            awaiting: None,
            draw_offer: None,
            pause: None,
            flagged: None,
            end: None,
            final_comment: None,
            round,
        });
        for id in ClientId::BOTH {
            self.clients[id.index()].resync_due = None;
            self.send_reset(id, out);
        }
        self.stage = Stage::Starting {
            until: at.saturating_add(self.settings.reset_delay_ms),
        };
    }

    fn begin_play(&mut self, at: u64, out: &mut Vec<Output>) {
        self.stage = Stage::Playing;
        let Some(g) = self.game.as_ref() else { return };
        let number = g.number;
        let (white, black) = (self.client_name(g.white), self.client_name(g.white.other()));
        for id in ClientId::BOTH {
            if self.clients[id.index()].signed_on {
                self.send_inform(id, "*", at, out);
                self.send_executes(id, at, out);
            }
        }
        out.push(Output::GameStarted {
            game_number: number,
            white: white.clone(),
            black: black.clone(),
        });
        self.notice(
            out,
            EventKind::Info,
            format!(
                "{}: {white} (White) vs {black} (Black)",
                game_label(number, self.settings.games)
            ),
        );
        if self.check_automatic_end(at, out) {
            return;
        }
        let Some(g) = self.game.as_ref() else { return };
        let to_move = g.client_of(g.game.position().turn());
        self.send_respond(to_move, at, out, Respond::New);
    }

    /// Ends the game if the position ends it by rule (mate, stalemate, dead
    /// position, 75 moves, fivefold repetition). Returns whether it did.
    fn check_automatic_end(&mut self, at: u64, out: &mut Vec<Output>) -> bool {
        let Some(g) = self.game.as_ref() else {
            return false;
        };
        let Some(end) = g.game.automatic_end() else {
            return false;
        };
        let (result, reason) = match end {
            AutomaticEnd::Checkmate { winner } => (
                GameResult::Win(winner),
                format!("{} checkmated", color_name(!winner)),
            ),
            AutomaticEnd::Stalemate => (GameResult::Draw, "stalemate".to_string()),
            AutomaticEnd::DeadPosition => (
                GameResult::Draw,
                "dead position (insufficient material)".to_string(),
            ),
            AutomaticEnd::SeventyFiveMoves => (GameResult::Draw, "75-move rule".to_string()),
            AutomaticEnd::FivefoldRepetition => {
                (GameResult::Draw, "fivefold repetition".to_string())
            }
        };
        self.end_game(result, Termination::Normal, reason, at, out);
        true
    }

    /// Ends the game if an adjudication rule of the settings does
    /// (`--max-moves`). Returns whether it did.
    fn check_adjudication(&mut self, at: u64, out: &mut Vec<Output>) -> bool {
        let Some(g) = self.game.as_ref() else {
            return false;
        };
        let Some(reason) = adjudication::max_moves_reached(g.game.ply(), self.settings.max_moves)
        else {
            return false;
        };
        self.end_game(GameResult::Draw, Termination::Adjudication, reason, at, out);
        true
    }

    fn flag_fall(&mut self, at: u64, out: &mut Vec<Output>) {
        let Some(g) = self.game.as_mut() else { return };
        let Some(color) = g.clocks.running() else {
            return;
        };
        g.flagged = Some(color);
        let opponent_can_mate = game::can_mate(g.game.position(), !color);
        let who = color_name(color);
        let (result, reason) = if opponent_can_mate {
            (GameResult::Win(!color), format!("{who} lost on time"))
        } else {
            (
                GameResult::Draw,
                format!(
                    "{who}'s flag fell, but {} has no mating material",
                    color_name(!color)
                ),
            )
        };
        self.end_game(result, Termination::TimeForfeit, reason, at, out);
    }

    fn end_game(
        &mut self,
        result: GameResult,
        termination: Termination,
        reason: String,
        at: u64,
        out: &mut Vec<Output>,
    ) {
        let Some(g) = self.game.as_mut() else { return };
        if g.is_over() {
            return;
        }
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
        g.end = Some((result, termination, reason.clone()));
        let number = g.number;
        let white = g.white;
        // Score: A and B in half points.
        match result {
            GameResult::Win(c) => {
                let winner = if c == Color::White {
                    white
                } else {
                    white.other()
                };
                self.score_halves[winner.index()] += 2;
            }
            GameResult::Draw => {
                self.score_halves[0] += 1;
                self.score_halves[1] += 1;
            }
            GameResult::None => {}
        }
        self.count_result(number, white, result, out);
        for id in ClientId::BOTH {
            if self.clients[id.index()].signed_on {
                if unrelayed == Some(id) {
                    self.send_final_inform(id, result.as_str(), at, out);
                } else {
                    self.send_inform(id, result.as_str(), at, out);
                }
                self.send_simple(id, RefCom::Conclude, at, out);
            }
        }
        let pgn = self.pgn(at, false).expect("a game is in progress");
        self.notice(
            out,
            EventKind::Info,
            format!("game {number}: {} ({reason})", result.as_str()),
        );
        out.push(Output::GameOver(GameOver {
            game_number: number,
            result,
            termination,
            reason,
            pgn,
        }));
        self.stage = Stage::Concluding {
            until: at.saturating_add(self.settings.conclude_delay_ms),
        };
    }

    fn end_session(&mut self, at: u64, out: &mut Vec<Output>) {
        for id in ClientId::BOTH {
            if self.clients[id.index()].signed_on {
                self.send_simple(id, RefCom::Disconnect, at, out);
            }
            self.clients[id.index()].resync_due = None;
        }
        self.stage = Stage::SessionOver;
        let summary = self.summary();
        self.notice(out, EventKind::Info, summary.clone());
        out.push(Output::SessionOver { summary });
    }

    /// The match result in one line, with the statistics for A.
    pub fn summary(&self) -> String {
        let played = self.stats.wdl().iter().sum::<u32>();
        let mut s = format!(
            "match over: {} {} - {} {} ({} game{} with a result)",
            self.client_name(ClientId::A),
            half_points(self.score_halves[0]),
            half_points(self.score_halves[1]),
            self.client_name(ClientId::B),
            played,
            if played == 1 { "" } else { "s" }
        );
        if let Some(h) = self.sprt_result() {
            s.push_str(&format!("; SPRT: {} accepted", h.as_str()));
        }
        s
    }

    /// The match statistics so far, from client A's view.
    pub fn stats(&self) -> Report {
        self.stats.report(self.settings.sprt.as_ref())
    }

    /// The hypothesis the SPRT accepted, once a bound is crossed.
    fn sprt_result(&self) -> Option<Hypothesis> {
        self.stats().sprt.and_then(|t| t.result)
    }

    /// Counts a finished game for A and, when it completes a pair that
    /// decides the SPRT, says so (the session ends after this game).
    fn count_result(
        &mut self,
        number: u32,
        white: ClientId,
        result: GameResult,
        out: &mut Vec<Output>,
    ) {
        let score = match result {
            GameResult::Win(c) if (c == Color::White) == (white == ClientId::A) => {
                Some(GameScore::Win)
            }
            GameResult::Win(_) => Some(GameScore::Loss),
            GameResult::Draw => Some(GameScore::Draw),
            GameResult::None => None,
        };
        let before = self.sprt_result();
        self.stats.record(number, score);
        if before.is_none()
            && let Some(t) = self.stats().sprt
            && let Some(h) = t.result
        {
            self.notice(
                out,
                EventKind::Info,
                format!(
                    "SPRT: {} accepted (LLR {:.2}, bounds {:.2} to {:.2}); the match stops",
                    h.as_str(),
                    t.llr,
                    t.lower_bound,
                    t.upper_bound
                ),
            );
        }
    }

    fn pause_game(&mut self, reason: String, resend_on_resume: bool, at: u64) {
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

    fn resume_game(&mut self, at: u64, out: &mut Vec<Output>) {
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
    fn hold_reply(&mut self, from: ClientId, text: &str, out: &mut Vec<Output>) {
        let Some(p) = self.game.as_mut().and_then(|g| g.pause.as_mut()) else {
            return;
        };
        if p.held_reply.is_some() {
            return self.reject(
                out,
                from,
                "a second reply during the pause (the first is held for the resume)",
                text,
            );
        }
        p.held_reply = Some(text.to_string());
        self.notice(
            out,
            EventKind::Info,
            format!(
                "{}: reply arrived during the pause; it is held and played at resume",
                from.letter()
            ),
        );
    }

    // ----- resync (a client that restarted) -----------------------------

    fn begin_resync(&mut self, id: ClientId, at: u64, out: &mut Vec<Output>) {
        self.send_reset(id, out);
        self.clients[id.index()].resync_due = Some(at.saturating_add(self.settings.reset_delay_ms));
        self.notice(
            out,
            EventKind::Info,
            format!(
                "{}: bringing the client back in line (reset, inform, execute)",
                id.letter()
            ),
        );
    }

    fn finish_resync(&mut self, id: ClientId, at: u64, out: &mut Vec<Output>) {
        let Some(g) = self.game.as_ref() else { return };
        if g.is_over() || !self.clients[id.index()].signed_on {
            return;
        }
        let on_move = g.awaiting.as_ref().is_some_and(|a| a.client == id);
        self.send_inform(id, "*", at, out);
        self.send_executes(id, at, out);
        if on_move {
            self.send_respond(id, at, out, Respond::AfterExecute);
        }
    }

    fn send_executes(&mut self, id: ClientId, at: u64, out: &mut Vec<Output>) {
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

    // ----- records --------------------------------------------------------

    /// The four fields of `pos` with `cc`, `fmvn` and `hmvc`.
    fn base_record(&self, pos: &Chess, at: u64) -> Record {
        let (w, b) = match &self.game {
            Some(g) => (
                g.clocks.used(Color::White, at),
                g.clocks.used(Color::Black, at),
            ),
            None => (0, 0),
        };
        let (cw, cb) = clock::cc_values(w, b);
        Record::new(game::fields_of(pos))
            .with(Operation::cc(cw, cb))
            .with(Operation::fmvn(pos.fullmoves().get()))
            .with(Operation::hmvc(pos.halfmoves()))
    }

    fn current_position(&self) -> Chess {
        self.game
            .as_ref()
            .map_or_else(Chess::default, |g| g.game.position().clone())
    }

    fn send(&mut self, to: ClientId, record: Record, out: &mut Vec<Output>) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        let mut text = record.to_canonical();
        if self.clients[to.index()].line_check {
            line_check::append(&mut text);
        }
        out.push(Output::Send { to, seq, text });
        seq
    }

    fn send_simple(&mut self, to: ClientId, cmd: RefCom, at: u64, out: &mut Vec<Output>) {
        let pos = self.current_position();
        let mut r = self.base_record(&pos, at);
        r.set(Operation::refcom(cmd));
        self.send(to, r, out);
    }

    fn send_reset(&mut self, to: ClientId, out: &mut Vec<Output>) {
        let pos = self
            .game
            .as_ref()
            .map_or_else(Chess::default, |g| g.game.start().clone());
        let mut r = self.base_record(&pos, self.now);
        r.set(Operation::refcom(RefCom::Reset));
        self.send(to, r, out);
    }

    fn send_inform(&mut self, to: ClientId, result: &str, at: u64, out: &mut Vec<Output>) {
        let pos = self.current_position();
        let r = self.base_record(&pos, at);
        self.send_inform_record(to, r, result, out);
    }

    /// The result `inform` to the client that has not seen the game's last
    /// move: the position before it and the move as `sm` (as in a
    /// `respond`), so that a client that follows the game by moves can
    /// complete its record. `conclude` then carries the final position.
    fn send_final_inform(&mut self, to: ClientId, result: &str, at: u64, out: &mut Vec<Output>) {
        let r = self
            .last_move_record(at)
            .unwrap_or_else(|| self.base_record(&self.current_position(), at));
        self.send_inform_record(to, r, result, out);
    }

    /// The position before the game's last move, with that move as `sm`.
    fn last_move_record(&self, at: u64) -> Option<Record> {
        let g = self.game.as_ref()?;
        let before = g.game.position_at(g.game.ply().checked_sub(1)?)?;
        let last = g.game.moves().last()?;
        let mut r = self.base_record(before, at);
        r.set(Operation::sm(&game::san_of(before, last)));
        Some(r)
    }

    fn send_inform_record(
        &mut self,
        to: ClientId,
        mut r: Record,
        result: &str,
        out: &mut Vec<Output>,
    ) {
        let tags = self.game_tags(result);
        r.set(Operation::refcom(RefCom::Inform));
        r.set(Operation::ptp(&tags));
        self.send(to, r, out);
    }

    /// Sends `respond` to `to` (see [`Respond`] for which position).
    fn send_respond(&mut self, to: ClientId, at: u64, out: &mut Vec<Output>, kind: Respond) {
        if kind != Respond::AfterExecute && self.clients[to.index()].resync_due.is_some() {
            return self.defer_respond(to, at);
        }
        let Some(g) = self.game.as_ref() else { return };
        let ply = g.game.ply();
        let with_move = ply > g.opening_plies && kind != Respond::AfterExecute;
        let mut r = with_move
            .then(|| self.last_move_record(at))
            .flatten()
            .unwrap_or_else(|| self.base_record(g.game.position(), at));
        r.set(Operation::refcom(RefCom::Respond));
        if g.draw_offer.is_some_and(|c| c != g.color_of(to)) {
            r.set(Operation::new("draw_offer"));
        }
        let check_len = if self.clients[to.index()].line_check {
            line_check::LEN
        } else {
            0
        };
        let wire_len = r.to_canonical().len() + check_len + 2;
        let est = clock::wire_time_ms(wire_len, &self.settings.lines[to.index()]);
        let seq = self.send(to, r, out);
        let Some(g) = self.game.as_mut() else { return };
        let asked = &mut self.clients[to.index()].asked;
        if asked.back() != Some(g.game.position()) {
            if asked.len() >= ASKED_LIMIT {
                asked.pop_front();
            }
            asked.push_back(g.game.position().clone());
        }
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
    fn defer_respond(&mut self, to: ClientId, at: u64) {
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

    fn game_tags(&self, result: &str) -> Vec<(String, String)> {
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
    }

    /// The PGN of the current game: finished, or (`live`) in progress with
    /// Result `*` and the `Clock` tag. `None` before the first game.
    pub fn live_pgn(&self, at: u64) -> Option<PgnGame> {
        self.pgn(at, true)
    }

    fn pgn(&self, at: u64, live: bool) -> Option<PgnGame> {
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
        if *g.game.start() != Chess::default() {
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
                let (clk_ms, emt_ms) = i
                    .checked_sub(g.opening_plies)
                    .and_then(|j| g.times.get(j).copied())
                    .unwrap_or((None, None));
                PgnMove {
                    san: san.clone(),
                    clk_ms,
                    emt_ms,
                }
            })
            .collect();
        Some(PgnGame {
            tags,
            first_move_number: g.game.start().fullmoves().get(),
            black_first: g.game.start().turn() == Color::Black,
            moves,
            result,
            final_comment: g.final_comment.clone(),
        })
    }

    // ----- names, notices, snapshot ------------------------------------

    /// The name of a client: from the settings, else its `tcsi` name, else
    /// its port.
    pub fn client_name(&self, id: ClientId) -> String {
        let i = id.index();
        self.settings.names[i]
            .as_deref()
            .map(strip_control)
            .or_else(|| self.clients[i].tcsi_name.clone())
            .unwrap_or_else(|| strip_control(&self.settings.ports[i]))
    }

    fn notice(&mut self, out: &mut Vec<Output>, kind: EventKind, text: String) {
        let text = strip_control(&text);
        if self.events.len() >= EVENT_LIMIT {
            self.events.pop_front();
        }
        self.events.push_back(EventView {
            at_ms: self.now,
            kind,
            text: text.clone(),
        });
        out.push(Output::Notice { kind, text });
    }

    /// A line whose check (`Acrc`) is wrong or missing: it was damaged on
    /// the way and nothing in it can be trusted. It is refused; if it came
    /// from the client on move (probably its reply), that client is asked
    /// again at once, its clock still running.
    fn damaged(&mut self, from: ClientId, why: &str, text: &str, at: u64, out: &mut Vec<Output>) {
        self.reject(out, from, &format!("damaged line: {why}"), text);
        self.ask_again_at_once(from, "after a damaged line", at, out);
    }

    /// A client that checks its lines got a record that failed its check
    /// (or that its framer dropped) and says so with `Anak`: if it is on
    /// move, that was probably its respond, which is sent again.
    fn on_nak(&mut self, from: ClientId, at: u64, out: &mut Vec<Output>) {
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
    fn ask_again_at_once(
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
        if !(self.awaits(from) && self.clients[from.index()].resync_due.is_none() && line_free) {
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

    fn reject(&mut self, out: &mut Vec<Output>, from: ClientId, reason: &str, text: &str) {
        self.notice(
            out,
            EventKind::Rejected,
            format!("{}: rejected ({reason}): {}", from.letter(), quote(text)),
        );
    }

    /// A copy of the state for the display, taken at `at`.
    pub fn snapshot(&self, at: u64) -> Snapshot {
        let phase = match &self.stage {
            Stage::WaitingForSignOn => Phase::WaitingForSignOn,
            Stage::Starting { .. } => Phase::Starting,
            Stage::Playing => match self.game.as_ref().and_then(|g| g.pause.as_ref()) {
                Some(p) => Phase::Paused {
                    reason: p.reason.clone(),
                },
                None => Phase::Playing,
            },
            Stage::Concluding { .. } => Phase::GameOver,
            Stage::SessionOver => Phase::SessionOver,
        };
        let clients = ClientId::BOTH.map(|id| ClientView {
            id,
            port: strip_control(&self.settings.ports[id.index()]),
            name: self.client_name(id),
            signed_on: self.clients[id.index()].signed_on,
            link_up: self.clients[id.index()].link_up,
            line_check: self.clients[id.index()].line_check,
            color: self.game.as_ref().map(|g| g.color_of(id)),
        });
        let mut clocks = [ClockView {
            remaining_ms: None,
            used_ms: 0,
            running: false,
            flagged: false,
        }; 2];
        let (start, position, sans, last_move, result) = match &self.game {
            Some(g) => {
                for color in [Color::White, Color::Black] {
                    clocks[color_index(color)] = ClockView {
                        remaining_ms: g.clocks.remaining(color, at),
                        used_ms: g.clocks.used(color, at),
                        running: g.clocks.running() == Some(color) && g.pause.is_none(),
                        flagged: g.flagged == Some(color),
                    };
                }
                let last =
                    g.game
                        .last_move()
                        .and_then(|m| match m.to_uci(CastlingMode::Standard) {
                            UciMove::Normal { from, to, .. } => Some((from, to)),
                            UciMove::Put { to, .. } => Some((to, to)),
                            UciMove::Null => None,
                        });
                let result = g.end.as_ref().map(|(r, t, reason)| ResultView {
                    result: r.as_str().into(),
                    termination: t.as_str().into(),
                    reason: reason.clone(),
                });
                (
                    g.game.start().clone(),
                    g.game.position().clone(),
                    g.game.sans().to_vec(),
                    last,
                    result,
                )
            }
            None => {
                for color in [Color::White, Color::Black] {
                    clocks[color_index(color)].remaining_ms =
                        self.settings.time_control.initial_ms(color);
                }
                (Chess::default(), Chess::default(), Vec::new(), None, None)
            }
        };
        Snapshot {
            at_ms: at,
            phase,
            start,
            position,
            sans,
            last_move,
            clients,
            clocks,
            time_control: self.settings.time_control.to_string(),
            game_number: self.games_started.max(1),
            games_total: self.settings.games,
            score_halves: self.score_halves,
            result,
            stats: Some(self.stats()).filter(|r| r.games > 0),
            events: self.events.iter().cloned().collect(),
        }
    }
}

/// `game 3 of 10`, or `game 3` when the match has no fixed length.
fn game_label(number: u32, games: u32) -> String {
    if games == u32::MAX {
        format!("game {number}")
    } else {
        format!("game {number} of {games}")
    }
}

/// Whether `m` checkmates in `pos`.
fn mates(pos: &Chess, m: &Move) -> bool {
    let mut after = pos.clone();
    after.play_unchecked(*m);
    after.is_checkmate()
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn claim_name(c: DrawClaim) -> &'static str {
    match c {
        DrawClaim::ThreefoldRepetition => "threefold repetition",
        DrawClaim::FiftyMoves => "fifty-move rule",
        DrawClaim::InsufficientMaterial => "insufficient material",
    }
}

fn half_points(h: u32) -> String {
    if h.is_multiple_of(2) {
        format!("{}", h / 2)
    } else {
        format!("{}.5", h / 2)
    }
}

fn describe_command(c: Command) -> String {
    match c {
        Command::Pause => "pause".into(),
        Command::Resume => "resume".into(),
        Command::Adjudicate(Verdict::WhiteWins) => "adjudicate 1-0".into(),
        Command::Adjudicate(Verdict::BlackWins) => "adjudicate 0-1".into(),
        Command::Adjudicate(Verdict::Draw) => "adjudicate 1/2-1/2".into(),
        Command::AbortGame => "abort the game".into(),
        Command::RestartClient(c) => format!("restart client {}", c.letter()),
        Command::EndSession => "end the session".into(),
    }
}

/// A line quoted for a notice: control characters removed, cut to a
/// readable length.
fn quote(text: &str) -> String {
    let clean = strip_control(text);
    if clean.chars().count() > QUOTE_LIMIT {
        let cut: String = clean.chars().take(QUOTE_LIMIT).collect();
        format!("\"{cut}...\" ({} bytes)", text.len())
    } else {
        format!("\"{clean}\"")
    }
}
