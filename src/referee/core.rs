//! The referee core: a synchronous state machine that carries out the EPD
//! referee protocol (spec section 8, with the decisions of
//! `docs/protocol.md`). It does no I/O and never reads the clock: every
//! input comes with its time, and everything it decides is a function of its
//! inputs, so replaying them rebuilds it exactly.

use std::collections::VecDeque;

use shakmaty::uci::UciMove;
use shakmaty::{ByColor, Chess, Color, Move, Position, Square};

use crate::clock::{self, ClockTag, Clocks, TimeControl};
use crate::epd::line_check::{self, Checked};
use crate::epd::{Operation, Record, RefCom, RefReq};
use crate::game::{self, AutomaticEnd, Game, Variant};
use crate::record::pgn::{MoveEval, PgnGame, PgnMove};
use crate::record::timestamp;
use crate::referee::adjudication;
use crate::referee::client::{ByClient, ClientId};
use crate::referee::eval::read_eval;
use crate::referee::event::{
    AgainCause, CommandRefusal, Ending, Event, FaultOutcome, GameOver, Offence, PauseReason,
    Problem, Rejection,
};
use crate::referee::messages::{
    Command, GameResult, Input, Output, Termination, Verdict, WallClock,
};
use crate::referee::settings::{ClientFault, FalseClaim, IllegalMove, Settings, Start};
use crate::referee::snapshot::{ClientView, ClockView, EventView, Phase, ResultView, Snapshot};
use crate::referee::tablebase::TablebaseVerdict;
use crate::referee::words;
use crate::text::strip_control;

mod flow;
mod inputs;
mod records;
mod refusal;
mod reply;
mod timer;
mod view;

pub use view::Progress;

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
/// A flag falls this many bytes' wire time after the clock reaches zero, so
/// that a reply already on its way (its credit would put it in time) is
/// not cut off. See docs/protocol.md, "Clocks".
pub const FLAG_GRACE_BYTES: usize = 256;
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
    /// Since when the session has been waiting for this client (core
    /// time): from the start until it signs on, from its link's loss or
    /// its sign-off until it is back; `None` while it is here.
    away_since: Option<u64>,
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
    /// oldest first. A reply that echoes one of them but not
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
    /// The game ended; the session ends at `until` (the conclude delay).
    GameOver {
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
    reason: PauseReason,
    /// Send the respond record again on resume (after a fault).
    resend_on_resume: bool,
    /// The respond record left the port during the pause: start the clock
    /// on resume.
    start_on_resume: bool,
    /// The reply of the client on move that arrived during the pause (the
    /// whole line): it is played at resume, in place of asking again.
    held_reply: Option<String>,
}

/// What the PGN keeps of a move the clients played: the mover's clock
/// after it and the time it took (timed games), and the evaluation its
/// reply carried.
#[derive(Debug, Clone)]
struct Played {
    clk_ms: Option<u64>,
    emt_ms: Option<u64>,
    eval: Option<MoveEval>,
    /// The reply said the move came from the client's book (`Abook`).
    book: bool,
    /// The reply said the engine pondered, and whether it hit (`Aponder`).
    ponder_hit: Option<bool>,
}

/// The number the core gives its one game in its events, snapshot and
/// journal checkpoints: the event numbers its games itself (a board's
/// writers say the event's number).
pub const GAME_NUMBER: u32 = 1;

#[derive(Debug, Clone)]
struct GameState {
    white: ClientId,
    game: Game,
    clocks: Clocks,
    /// Moves played through `execute` before the clients took over.
    opening_plies: usize,
    /// What the PGN keeps of each move after the opening.
    played: Vec<Played>,
    /// The counts of the evaluation adjudication rules.
    adjudication: adjudication::Counters,
    awaiting: Option<Awaiting>,
    /// A draw offered by this colour with its last move, open until the
    /// opponent answers.
    draw_offer: Option<Color>,
    pause: Option<Pause>,
    flagged: Option<Color>,
    /// Set when the game is over.
    end: Option<(GameResult, Termination, Ending)>,
    final_comment: Option<String>,
    round: String,
    /// When the game started (its `reset`) and ended, by the wall clock
    /// the core was given (`Referee::set_wall_clock`): taken then, so a
    /// resumed referee's new reading leaves a game's start as it was.
    started: Option<WallTime>,
    ended: Option<WallTime>,
}

/// A moment by the wall clock: ms since 1970, and the local time's offset
/// from UTC then (minutes east).
#[derive(Debug, Clone, Copy)]
struct WallTime {
    unix_ms: u64,
    utc_offset_min: i32,
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
    clients: ByClient<ClientState>,
    stage: Stage,
    /// The game, once it has started.
    game: Option<GameState>,
    /// Each client's ponder hits and ponders in the game, from its
    /// replies' `Aponder` ([`Referee::ponder_counts`]).
    ponders: ByClient<(u32, u32)>,
    next_seq: u64,
    events: VecDeque<EventView>,
    now: u64,
    /// The latest wall-clock reading (`set_wall_clock`), if any: the game's
    /// start and end times are dated by it.
    wall: Option<WallClock>,
}

impl Referee {
    /// A referee for one game, waiting for both clients to sign on.
    pub fn new(settings: Settings) -> Referee {
        Referee {
            settings,
            clients: ByClient::default(),
            stage: Stage::WaitingForSignOn,
            game: None,
            ponders: ByClient::default(),
            next_seq: 1,
            events: VecDeque::new(),
            now: 0,
            wall: None,
        }
        .with_links_up()
    }

    fn with_links_up(mut self) -> Referee {
        for c in self.clients.values_mut() {
            c.link_up = true;
            c.away_since = Some(0);
        }
        self
    }

    /// Tells the core what the wall clock read at one moment of its time
    /// (when the referee starts or resumes; a replayed journal's `epoch`
    /// lines): from then on it dates the start and end of each game by it,
    /// for the PGN. Without one, the PGN has no such times.
    pub fn set_wall_clock(&mut self, wall: WallClock) {
        self.wall = Some(wall);
    }

    /// The wall-clock time of core time `at`, with its local offset, by
    /// the latest reading.
    fn wall_time(&self, at: u64) -> Option<WallTime> {
        self.wall.map(|w| WallTime {
            unix_ms: w.wall_of(at),
            utc_offset_min: w.utc_offset_min,
        })
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

    /// The position of the game in progress and the plies played to reach
    /// it (opening moves included), while it is being played: what an edge
    /// probes the endgame tables with (`Input::Tablebase`).
    pub fn position_in_play(&self) -> Option<(&Chess, usize)> {
        let g = self.game.as_ref()?;
        (self.stage == Stage::Playing && !g.is_over()).then(|| (g.game.position(), g.game.ply()))
    }

    /// Whether the session has ended (nothing more will be sent).
    pub fn is_over(&self) -> bool {
        self.stage == Stage::SessionOver
    }

    /// The clients the session waits for, with the core time each has
    /// been away since (not signed on yet, its link lost, or signed off),
    /// A first; none once the session is over.
    pub fn waiting(&self) -> Vec<(ClientId, u64)> {
        if self.is_over() {
            return Vec::new();
        }
        ClientId::BOTH
            .into_iter()
            .filter_map(|id| Some((id, self.clients[id].away_since?)))
            .collect()
    }

    /// When to wake the core with [`Input::Timer`]: the earliest of its
    /// deadlines (the table is in `core/timer.rs`).
    pub fn next_deadline(&self) -> Option<u64> {
        self.earliest_deadline()
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
            if let Input::Line { from, text, .. } = input {
                let event = Event::LineIgnored {
                    client: from,
                    line: text,
                };
                self.emit(&mut out, event);
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
                arrival,
            } => {
                // The reply's own time on the wire, as far as it shows.
                let credit = clock::line_credit_ms(wire_bytes, arrival, &self.settings.lines[from]);
                self.on_line(from, &text, credit, at, &mut out)
            }
            Input::Receiving { .. } => {}
            Input::Dropped { from, reason } => {
                let event = Event::LineDropped {
                    client: from,
                    reason,
                };
                self.emit(&mut out, event)
            }
            Input::Sent { to, seq } => self.on_sent(to, seq, at),
            Input::Refused { to, seq } => self.on_refused(to, seq, at, &mut out),
            Input::LinkLost { client, reason } => self.on_link_lost(client, &reason, at, &mut out),
            Input::LinkBack { client } => self.on_link_back(client, at, &mut out),
            Input::Timer => self.on_timer(at, &mut out),
            Input::Supervisor(cmd) => self.on_command(cmd, at, &mut out),
            Input::Tablebase(verdict) => self.on_tablebase(verdict, at, &mut out),
            Input::Seated { client, sign_on } => self.on_sign_on(client, sign_on, at, &mut out),
            Input::Resumed => self.on_resumed(at, &mut out),
        }
        out
    }
}

/// Whether `m` checkmates in `pos`.
fn mates(pos: &Chess, m: &Move) -> bool {
    let mut after = pos.clone();
    after.play_unchecked(*m);
    after.is_checkmate()
}

/// The move number of ply `ply` (1-based) of a game that started in
/// `start`, as a game score writes it (`12` in `12. Nf3` and `12... Nf6`).
fn move_number(start: &Chess, ply: usize) -> u32 {
    let half = ply.saturating_sub(1) + usize::from(start.turn() == Color::Black);
    start
        .fullmoves()
        .get()
        .saturating_add(u32::try_from(half / 2).unwrap_or(u32::MAX))
}
