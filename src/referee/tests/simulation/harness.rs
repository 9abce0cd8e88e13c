//! The simulation harness: a [`Referee`] and two simulated clients (each a
//! [`ClientProtocol`] with a seeded mover, thinking time and optional
//! misbehaviour) wired together by a deterministic event loop with fake
//! time. Records travel over simulated 9600 8N1 lines: each direction is
//! busy while a record is on it, and a record's `Input::Sent` is reported
//! when its last byte has left. The core's timer fires at
//! [`Referee::next_deadline`].
//!
//! Every output is checked as it comes (records parse, `sm` is legal in the
//! record's position, rejected lines change nothing), and every finished
//! game by [`super::checks::check_game_over`].

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

use shakmaty::Color;

use crate::client::{Action, ClientProtocol, Mover};
use crate::clock::{LineSettings, TimeControl, wire_time_ms};
use crate::epd::{Operation, Record, RefCom};
use crate::game::{self, Game};
use crate::referee::snapshot::{EventKind, Phase};
use crate::referee::{
    ClientId, Command, Event, FalseClaim, GameOver, GameResult, IllegalMove, Input, Output,
    Referee, Settings, Termination, words,
};

use super::checks::{self, Fingerprint, GameContext};
use super::spec::{Faults, GameSummary, MatchReport, MatchSpec, Offence, OffenceKind, Think};
use super::spoil::{
    fault_record, has_move, illegal_san, junk_line, sign_off_record, spoil_echo, stray_reply,
    with_move, with_op,
};

/// What the harness expects of a line it delivers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// A genuine reply, sign-on or sign-off: only the global checks.
    Normal,
    /// Never valid: must be rejected and change nothing.
    Junk,
    /// A reply the referee may not be waiting for: if it is not, the line
    /// must be rejected and change nothing.
    Stray,
    /// A reply with an offence in it.
    Offence(OffenceKind),
}

#[derive(Debug, Clone)]
enum EventBody {
    /// The last byte of a record from the referee has left for `to` (and
    /// reached it).
    Arrive {
        to: ClientId,
        seq: u64,
        text: String,
        /// The game in progress when the referee sent it.
        game: u32,
    },
    /// A line from a client has fully reached the referee.
    Line {
        from: ClientId,
        text: String,
        expect: Expect,
        /// The game in progress when the client wrote the line.
        game: u32,
    },
    /// A client has sent its reply and reads its next line.
    ClientFree { client: ClientId },
    /// A line the framer dropped.
    Dropped { from: ClientId },
    /// A signed-off client comes back.
    SignOnAgain { client: ClientId },
    /// The supervisor acts.
    Supervisor(Command),
}

/// Something scheduled to happen in the simulation at a time.
#[derive(Debug, Clone)]
struct Scheduled {
    at: u64,
    order: u64,
    body: EventBody,
}

impl PartialEq for Scheduled {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Scheduled {}
impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Scheduled {
    /// Reversed, so that the max-heap pops the earliest event first (ties
    /// in the order they were scheduled).
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at, other.order).cmp(&(self.at, self.order))
    }
}

struct SimClient {
    proto: ClientProtocol,
    think: Think,
    faults: Faults,
    rng: fastrand::Rng,
    /// Whether the client considers itself signed on (it sent sign_on and
    /// not sign_off since).
    signed_on: bool,
    /// The client is thinking (or sending) until then; lines that arrive
    /// meanwhile wait in `inbox`, as with a single-threaded program.
    busy_until: u64,
    inbox: VecDeque<(String, u32)>,
    /// The game of the record the client read last: what its lines
    /// answer.
    reading_game: u32,
    /// The uplink is busy until then.
    uplink_free: u64,
    disconnects: u32,
}

/// Steps without the session ending after which the harness gives up.
const STEP_LIMIT: u64 = 20_000_000;
/// Timers at one instant after which the core is taken to be stuck.
const SAME_TIME_TIMERS: u32 = 16;

/// The simulation: the referee, two clients and the event queue.
pub struct Sim {
    referee: Referee,
    clients: [SimClient; 2],
    queue: BinaryHeap<Scheduled>,
    order: u64,
    now: u64,
    downlink_free: [u64; 2],
    line: LineSettings,
    rng: fastrand::Rng,
    spec: MatchSpec,
    time_control: TimeControl,
    /// The client the referee last sent `respond` to, until a move or the
    /// game's end (the harness's model of the core's turn).
    awaited: Option<ClientId>,
    /// The game in progress (from `GameStarted`).
    current_game: u32,
    /// The last game that ended.
    last_ended: u32,
    resume_pending: bool,
    report: MatchReport,
    timers_at_now: u32,
    /// The notices of the last input (for diagnostics).
    last_notices: Vec<String>,
}

impl Sim {
    /// A simulation of `spec`, both clients about to sign on.
    pub fn new(spec: MatchSpec) -> Sim {
        let time_control: TimeControl = spec
            .time_control
            .parse()
            .unwrap_or_else(|e| panic!("bad time control {:?}: {e}", spec.time_control));
        let settings = Settings {
            event: "simulation".into(),
            date: "2025.01.01".into(),
            time_control: time_control.clone(),
            games: spec.games,
            reset_delay_ms: 0,
            conclude_delay_ms: spec.conclude_delay_ms,
            false_claim: spec.false_claim,
            illegal_move: spec.illegal_move,
            openings: spec.openings.clone(),
            ..Settings::default()
        };
        let line = settings.lines.a;
        let mut rng = fastrand::Rng::with_seed(spec.seed);
        let clients = ClientId::BOTH.map(|id| {
            let i = id.index();
            let mover = Mover::new(spec.movers[i], rng.u64(..));
            SimClient {
                proto: ClientProtocol::new(
                    &format!("sim-{}", id.letter()),
                    mover,
                    spec.claim_draws[i],
                ),
                think: spec.think[i],
                faults: spec.faults[i].clone(),
                rng: fastrand::Rng::with_seed(rng.u64(..)),
                signed_on: false,
                busy_until: 0,
                inbox: VecDeque::new(),
                reading_game: 0,
                uplink_free: 0,
                disconnects: 0,
            }
        });
        let mut sim = Sim {
            referee: Referee::new(settings),
            clients,
            queue: BinaryHeap::new(),
            order: 0,
            now: 0,
            downlink_free: [0, 0],
            line,
            rng,
            spec,
            time_control,
            awaited: None,
            current_game: 0,
            last_ended: 0,
            resume_pending: false,
            report: MatchReport::default(),
            timers_at_now: 0,
            last_notices: Vec::new(),
        };
        for id in ClientId::BOTH {
            let start = sim.rng.u64(0..300);
            if sim.clients[id.index()].faults.reply_before_sign_on {
                let text = stray_reply(&Game::new(shakmaty::Chess::default()), &mut sim.rng);
                sim.schedule(
                    start,
                    EventBody::Line {
                        from: id,
                        text,
                        expect: Expect::Stray,
                        game: 0,
                    },
                );
                let junk = junk_line(&mut sim.rng);
                sim.schedule(
                    start,
                    EventBody::Line {
                        from: id,
                        text: junk,
                        expect: Expect::Junk,
                        game: 0,
                    },
                );
            }
            sim.client_sign_on(id, start + 50);
        }
        sim
    }

    /// Runs until the session is over and every record has arrived, then
    /// checks the match as a whole.
    pub fn run(mut self) -> MatchReport {
        loop {
            self.report.steps += 1;
            assert!(
                self.report.steps < STEP_LIMIT,
                "the simulation did not end after {STEP_LIMIT} steps (game {}, t={} ms)",
                self.current_game,
                self.now
            );
            let next_event = self.queue.peek().map(|e| e.at);
            let deadline = self.referee.next_deadline();
            let timer_first = match (deadline, next_event) {
                (Some(d), Some(e)) => d <= e,
                (Some(_), None) => true,
                (None, _) => false,
            };
            if timer_first {
                if let Some(d) = deadline {
                    let at = d.max(self.now);
                    if at == self.now {
                        self.timers_at_now += 1;
                        assert!(
                            self.timers_at_now < SAME_TIME_TIMERS,
                            "the core's deadline stays at {at} ms after {SAME_TIME_TIMERS} timers"
                        );
                    } else {
                        self.timers_at_now = 0;
                    }
                    self.now = at;
                    let _ = self.feed(Input::Timer, Expect::Normal, None);
                }
            } else {
                let Some(ev) = self.queue.pop() else { break };
                if ev.at > self.now {
                    self.timers_at_now = 0;
                }
                self.now = self.now.max(ev.at);
                self.event(ev.body);
            }
            if self
                .report
                .steps
                .is_multiple_of(self.spec.snapshot_every.max(1))
            {
                self.check_snapshot();
            }
        }
        self.finish()
    }

    fn finish(mut self) -> MatchReport {
        let snap = self.referee.snapshot(self.now);
        assert!(self.referee.is_over(), "the session did not end");
        assert_eq!(snap.phase, Phase::SessionOver);
        assert_eq!(self.report.sessions_over, 1, "SessionOver exactly once");
        let games = &self.report.games;
        assert_eq!(
            games.len(),
            self.spec.games as usize,
            "every game of the match was played to an end"
        );
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.number as usize, i + 1, "games end in order");
        }
        // The score adds up from the results and colours.
        let mut halves = [0u32; 2];
        for g in games {
            match g.result {
                GameResult::Win(c) => {
                    let winner = if c == Color::White {
                        g.white
                    } else {
                        g.white.other()
                    };
                    halves[winner.index()] += 2;
                }
                GameResult::Draw => {
                    halves[0] += 1;
                    halves[1] += 1;
                }
                GameResult::None => {}
            }
        }
        assert_eq!(snap.score_halves, halves, "match score from the results");
        let with_result = games
            .iter()
            .filter(|g| g.result != GameResult::None)
            .count() as u32;
        assert_eq!(halves[0] + halves[1], 2 * with_result);
        // Every client still signed on got exactly one disconnect.
        for id in ClientId::BOTH {
            let c = &self.clients[id.index()];
            let expected = u32::from(snap.clients[id.index()].signed_on);
            assert_eq!(
                c.disconnects,
                expected,
                "{}: disconnects received (signed on at the end: {})",
                id.letter(),
                snap.clients[id.index()].signed_on
            );
            self.report.disconnects[id.index()] = c.disconnects;
        }
        self.report.final_score = snap.score_halves;
        self.report.end_time_ms = self.now;
        self.report
    }

    /// Keeps a trace line; with `SIM_TRACE` set in the environment, also
    /// prints it (to see what led up to a failed check).
    fn trace(&mut self, line: String) {
        if std::env::var_os("SIM_TRACE").is_some() {
            eprintln!("{line}");
        }
        self.report.trace.push(line);
    }

    // ----- events ---------------------------------------------------------

    fn schedule(&mut self, at: u64, body: EventBody) {
        self.order += 1;
        self.queue.push(Scheduled {
            at,
            order: self.order,
            body,
        });
    }

    fn event(&mut self, body: EventBody) {
        match body {
            EventBody::Arrive {
                to,
                seq,
                text,
                game,
            } => {
                let _ = self.feed(Input::Sent { to, seq }, Expect::Normal, None);
                self.client_receives(to, text, game);
            }
            EventBody::Line {
                from,
                text,
                expect,
                game,
            } => {
                let wire_bytes = text.len() + 2;
                let input = Input::Line {
                    from,
                    text,
                    wire_bytes,
                };
                // A line written for a game that has ended since (a slow
                // client's reply) may be refused; any other well-formed
                // line must not be.
                let late = game > 0 && game <= self.last_ended;
                let notices = self.feed(input, expect, Some(from));
                if expect == Expect::Normal {
                    if late {
                        self.report.late_notices += notices;
                    } else if notices > 0 {
                        self.report.unexpected_notices += notices;
                        if self.report.unexpected.len() < 10 {
                            let what = self.last_notices.join(" / ");
                            self.report
                                .unexpected
                                .push(format!("t={} game {}: {what}", self.now, self.current_game));
                        }
                    }
                }
            }
            EventBody::ClientFree { client } => self.client_free(client),
            EventBody::Dropped { from } => {
                let input = Input::Dropped {
                    from,
                    reason: "line longer than 4096 bytes".into(),
                };
                let _ = self.feed(input, Expect::Junk, Some(from));
            }
            EventBody::SignOnAgain { client } => {
                self.client_sign_on(client, self.now);
            }
            EventBody::Supervisor(cmd) => {
                if cmd == Command::Resume {
                    self.resume_pending = false;
                }
                let _ = self.feed(Input::Supervisor(cmd), Expect::Normal, None);
            }
        }
    }

    /// Hands one input to the referee, checks what the expectation says,
    /// and carries out the outputs.
    fn feed(&mut self, input: Input, expect: Expect, from: Option<ClientId>) -> u32 {
        let at = self.now;
        if self.spec.trace {
            self.trace(format!("{at} in {input:?}"));
        }
        // Decide what must happen before the core sees the line.
        let mut expect = expect;
        if let (Expect::Offence(_), Some(from)) = (expect, from)
            && self.awaited != Some(from)
        {
            expect = Expect::Stray;
        }
        // An offence in a reply whose echo is wrong anyway (the client's
        // view was out of date) is judged as a bad echo first.
        if let (Expect::Offence(k), Input::Line { text, .. }) = (expect, &input)
            && k != OffenceKind::BadEcho
            && !self.echo_matches(text)
        {
            expect = Expect::Offence(OffenceKind::BadEcho);
        }
        let must_reject = match (expect, from) {
            (Expect::Junk, _) => true,
            (Expect::Stray, Some(from)) => {
                self.awaited != Some(from) || self.referee.is_over() || {
                    // A client the referee holds as signed off is refused
                    // whatever it sends (other than sign_on).
                    !self.referee.snapshot(at).clients[from.index()].signed_on
                }
            }
            _ => false,
        };
        let claim_valid = match (expect, &input) {
            (Expect::Offence(OffenceKind::FalseClaim), Input::Line { text, .. }) => {
                Some(self.claim_is_valid(text))
            }
            _ => None,
        };
        let before = (must_reject || matches!(expect, Expect::Offence(_)))
            .then(|| Fingerprint::of(&self.referee, at));

        let shown = format!("{input:?}");
        let outs = self.referee.handle(input, at);

        if let Some(before) = &before {
            let after = Fingerprint::of(&self.referee, at);
            if must_reject {
                self.report.checked_rejections += 1;
                assert!(
                    outs.iter()
                        .all(|o| o.event().is_some_and(|e| e.kind() == EventKind::Rejected)),
                    "t={at}: a line that must be rejected gave {outs:?}"
                );
                assert!(
                    !outs.is_empty(),
                    "t={at}: a rejected line must be logged as rejected: {shown}"
                );
                assert_eq!(before, &after, "t={at}: a rejected line changed the state");
            } else if let (Expect::Offence(kind), Some(from)) = (expect, from) {
                self.check_offence(kind, from, claim_valid, before, &after, &outs);
            }
        }
        self.last_notices = outs
            .iter()
            .filter_map(Output::event)
            .filter(|e| e.logged())
            .map(words::sentence)
            .collect();
        let notices = outs
            .iter()
            .filter_map(Output::event)
            .filter(|e| {
                matches!(
                    e.kind(),
                    EventKind::Rejected | EventKind::Warning | EventKind::Fault
                )
            })
            .count() as u32;
        self.apply(outs);
        notices
    }

    /// Whether the position echoed in `text` is the referee's current one.
    fn echo_matches(&self, text: &str) -> bool {
        let pos = self.referee.snapshot(self.now).position;
        Record::parse(text).is_ok_and(|r| game::echo_mismatch(&pos, &r.fields).is_none())
    }

    /// A reply with an offence reached the referee while it was waiting
    /// for that client: check what it did against the policies.
    fn check_offence(
        &mut self,
        kind: OffenceKind,
        from: ClientId,
        claim_valid: Option<bool>,
        before: &Fingerprint,
        after: &Fingerprint,
        outs: &[Output],
    ) {
        let at = self.now;
        let only_rejected = outs
            .iter()
            .all(|o| o.event().is_some_and(|e| e.kind() == EventKind::Rejected));
        // Held during a pause, it is judged at resume.
        let held = outs
            .iter()
            .any(|o| matches!(o.event(), Some(Event::ReplyHeld { client }) if *client == from));
        if held && !(kind == OffenceKind::FalseClaim && claim_valid == Some(true)) {
            // Its consequence comes at resume: count the offence now.
            self.report.offences.push(Offence {
                game: self.current_game,
                client: from,
                kind,
            });
        }
        if only_rejected || held {
            // Refused before it was looked at (e.g. the client is being
            // brought back in line), or held for the resume: nothing may
            // change yet.
            assert_eq!(before, after, "t={at}: a refused offence changed the state");
            return;
        }
        let color = before.clients[from.index()]
            .color
            .expect("a client on move has a colour");
        let over = outs.iter().find_map(|o| match o.event() {
            Some(Event::GameOver(g)) => Some(g),
            _ => None,
        });
        let moved = outs
            .iter()
            .any(|o| matches!(o.event(), Some(Event::MoveMade { .. })));
        let flagged = over.is_some_and(|g| g.termination == Termination::TimeForfeit);
        if flagged {
            // The reply came after the flag fell: it was never looked at.
            assert_eq!(before.sans, after.sans);
            return;
        }
        let forfeit = |g: &GameOver| {
            assert_eq!(g.result, GameResult::Win(!color), "t={at}: {kind:?}: {g:?}");
            assert_eq!(g.termination, Termination::RulesInfraction);
        };
        let offence = match kind {
            OffenceKind::FalseClaim if claim_valid == Some(true) => None,
            k => Some(k),
        };
        if let Some(k) = offence {
            self.report.offences.push(Offence {
                game: self.current_game,
                client: from,
                kind: k,
            });
        }
        match offence {
            None => {
                // A claim that was valid after all: a draw.
                let g = over.expect("a valid claim ends the game");
                assert_eq!(g.result, GameResult::Draw, "t={at}: {g:?}");
                assert_eq!(g.termination, Termination::Normal);
                assert_eq!(before.sans, after.sans, "a claimed move is not played");
            }
            Some(OffenceKind::BadEcho) => {
                assert_eq!(before.sans, after.sans, "t={at}: bad echo played a move");
                match over {
                    Some(g) => forfeit(g),
                    None if self.spec.illegal_move == IllegalMove::Fault
                        && matches!(after.phase, Phase::Paused { .. }) => {}
                    None => assert!(
                        outs.iter().any(|o| is_record_to(o, from, RefCom::Respond)),
                        "t={at}: bad echo without a resend: {outs:?}"
                    ),
                }
            }
            Some(OffenceKind::Illegal | OffenceKind::Unparsable) => {
                assert_eq!(
                    before.sans, after.sans,
                    "t={at}: an illegal move was played"
                );
                assert!(!moved);
                match self.spec.illegal_move {
                    IllegalMove::Forfeit => forfeit(over.expect("an illegal move forfeits")),
                    IllegalMove::Fault => {
                        assert!(over.is_none());
                        assert!(matches!(after.phase, Phase::Paused { .. }));
                        assert!(outs.iter().any(|o| is_record_to(o, from, RefCom::Fault)));
                    }
                    // Asked again while the turn's retries last, then lost.
                    IllegalMove::Retry => match over {
                        Some(g) => forfeit(g),
                        None => assert!(
                            outs.iter().any(|o| is_record_to(o, from, RefCom::Respond)),
                            "t={at}: a bad move under retry was not asked again: {outs:?}"
                        ),
                    },
                }
            }
            Some(OffenceKind::FalseClaim) => match self.spec.false_claim {
                FalseClaim::Forfeit => {
                    forfeit(over.expect("a false claim forfeits"));
                    assert_eq!(before.sans, after.sans);
                }
                FalseClaim::PlayOn => {
                    assert!(
                        over.is_none_or(|g| g.termination == Termination::Normal),
                        "t={at}: a false claim under play-on ended the game: {over:?}"
                    );
                    assert!(moved, "t={at}: the move given with a false claim is played");
                    assert_eq!(after.sans.len(), before.sans.len() + 1);
                }
            },
        }
    }

    /// Whether the draw claim in `text` (with its move) is valid in the
    /// referee's current game, rebuilt from the snapshot.
    fn claim_is_valid(&self, text: &str) -> bool {
        let snap = self.referee.snapshot(self.now);
        let mut g = Game::new(snap.start.clone());
        for san in &snap.sans {
            g.play_san(san).expect("the referee's own moves replay");
        }
        if g.claimable_draw().is_some() {
            return true;
        }
        let Ok(rec) = Record::parse(text) else {
            return false;
        };
        match rec.sm() {
            Ok(Some(sm)) => game::parse_san(g.position(), sm)
                .ok()
                .and_then(|m| g.claimable_draw_after(&m))
                .is_some(),
            _ => false,
        }
    }

    /// Carries out the referee's outputs.
    fn apply(&mut self, outs: Vec<Output>) {
        let at = self.now;
        for o in outs {
            if self.spec.trace {
                self.trace(format!("{at} out {o:?}"));
            }
            match o {
                Output::Send { to, seq, text } => {
                    let rec = checks::check_sent_record(&text);
                    if let Ok(Some(RefCom::Respond)) = rec.refcom() {
                        self.awaited = Some(to);
                        self.maybe_out_of_turn(to);
                    }
                    let bytes = text.len() + 2;
                    let start = at.max(self.downlink_free[to.index()]);
                    let done = start + wire_time_ms(bytes, &self.line);
                    self.downlink_free[to.index()] = done;
                    let game = self.current_game;
                    self.schedule(
                        done,
                        EventBody::Arrive {
                            to,
                            seq,
                            text,
                            game,
                        },
                    );
                }
                Output::Event(event) => self.on_event(event),
            }
        }
        // The supervisor resumes a paused game after a while.
        if !self.resume_pending && matches!(self.referee.snapshot(at).phase, Phase::Paused { .. }) {
            self.resume_pending = true;
            let delay = self.rng.u64(500..5_000);
            self.schedule(at + delay, EventBody::Supervisor(Command::Resume));
        }
    }

    /// An event of the referee: games in order, and the log's sentences
    /// counted by kind (and free of control characters).
    fn on_event(&mut self, event: Event) {
        let text = words::sentence(&event);
        assert!(
            !text.chars().any(char::is_control),
            "a sentence with control characters: {text:?}"
        );
        if event.logged() {
            match event.kind() {
                EventKind::Rejected => self.report.rejected += 1,
                EventKind::Fault => self.report.fault_notices += 1,
                EventKind::Warning => self.report.warnings += 1,
                EventKind::Info | EventKind::Link => {}
            }
        }
        match event {
            Event::GameStarted { game, .. } => {
                assert_eq!(game, self.current_game + 1, "games start in order");
                self.current_game = game;
            }
            Event::MoveMade { game, .. } => {
                assert_eq!(game, self.current_game);
                self.awaited = None;
            }
            Event::GameOver(over) => {
                self.awaited = None;
                self.last_ended = over.game_number;
                self.game_over(over);
            }
            Event::SessionOver(_) => {
                self.report.sessions_over += 1;
                self.awaited = None;
            }
            _ => {}
        }
    }

    fn game_over(&mut self, over: GameOver) {
        let snap = self.referee.snapshot(self.now);
        assert_eq!(
            snap.game_number, over.game_number,
            "the next game started in the same call as game {} ended",
            over.game_number
        );
        checks::check_snapshot(&snap, &self.time_control);
        let white = ClientId::BOTH
            .into_iter()
            .find(|id| snap.clients[id.index()].color == Some(Color::White))
            .expect("a game has a White");
        let hung = ClientId::BOTH
            .into_iter()
            .find(|id| self.clients[id.index()].faults.hang_in_game == Some(over.game_number));
        let ctx = GameContext {
            snapshot: &snap,
            time_control: &self.time_control,
            offences: &self.report.offences,
            hung,
        };
        let plies = checks::check_game_over(&over, &ctx);
        self.report.games.push(GameSummary {
            number: over.game_number,
            white,
            result: over.result,
            termination: over.termination,
            ending: over.ending.clone(),
            plies,
        });
    }

    fn check_snapshot(&self) {
        let snap = self.referee.snapshot(self.now);
        checks::check_snapshot(&snap, &self.time_control);
    }

    // ----- the clients ----------------------------------------------------

    /// Sends a line from a client: it goes on the wire after `ready` (when
    /// the line is free) and reaches the referee when its last byte does.
    fn client_send(&mut self, from: ClientId, text: String, ready: u64, expect: Expect) {
        let c = &mut self.clients[from.index()];
        let start = ready.max(c.uplink_free);
        let done = start + wire_time_ms(text.len() + 2, &self.line);
        c.uplink_free = done;
        let game = c.reading_game;
        self.schedule(
            done,
            EventBody::Line {
                from,
                text,
                expect,
                game,
            },
        );
    }

    fn client_sign_on(&mut self, id: ClientId, at: u64) {
        let c = &mut self.clients[id.index()];
        c.signed_on = true;
        let text = c.proto.sign_on();
        self.client_send(id, text, at, Expect::Normal);
    }

    /// A record from the referee reaches client `to`: it reads it now, or
    /// when it has finished its current move.
    fn client_receives(&mut self, to: ClientId, text: String, game: u32) {
        let c = &mut self.clients[to.index()];
        if !c.signed_on {
            return; // gone: nobody listens
        }
        if self.now < c.busy_until || !c.inbox.is_empty() {
            c.inbox.push_back((text, game));
        } else {
            c.reading_game = game;
            self.client_reads(to, &text);
        }
    }

    /// The client has sent its reply: it reads what came meanwhile.
    fn client_free(&mut self, id: ClientId) {
        while self.now >= self.clients[id.index()].busy_until {
            let Some((text, game)) = self.clients[id.index()].inbox.pop_front() else {
                break;
            };
            self.clients[id.index()].reading_game = game;
            if self.clients[id.index()].signed_on {
                self.client_reads(id, &text);
            }
        }
    }

    /// The client reads one record and acts on it.
    fn client_reads(&mut self, to: ClientId, text: &str) {
        let now = self.now;
        let game_number = self.current_game;
        let i = to.index();
        let is_respond = Record::parse(text)
            .ok()
            .and_then(|r| r.refcom().ok().flatten())
            == Some(RefCom::Respond);
        let faults = self.clients[i].faults.clone();
        // Junk at a random later time.
        if roll(&mut self.clients[i].rng, faults.junk) {
            let delay = self.clients[i].rng.u64(0..5_000);
            if self.clients[i].rng.u32(..8) == 0 {
                self.schedule(now + delay, EventBody::Dropped { from: to });
            } else {
                let junk = junk_line(&mut self.clients[i].rng);
                self.client_send(to, junk, now + delay, Expect::Junk);
            }
        }
        if is_respond {
            if faults.hang_in_game == Some(game_number) {
                return; // stopped answering
            }
            if roll(&mut self.clients[i].rng, faults.sign_off) {
                let off = sign_off_record(&self.clients[i].proto);
                self.client_send(to, off, now, Expect::Normal);
                self.clients[i].signed_on = false;
                let back = now + self.clients[i].rng.u64(1_000..30_000);
                self.schedule(back, EventBody::SignOnAgain { client: to });
                return;
            }
            if roll(&mut self.clients[i].rng, faults.fault_report) {
                let f = fault_record(&self.clients[i].proto);
                self.client_send(to, f, now, Expect::Normal);
            }
        }
        let actions = self.clients[i].proto.handle_line(text);
        for a in actions {
            match a {
                Action::Reply(reply) => self.client_replies(to, reply),
                Action::Send(line) => self.client_send(to, line, now, Expect::Normal),
                Action::Log(_) => {}
                Action::Disconnect => self.clients[i].disconnects += 1,
            }
        }
    }

    /// The client's protocol produced `reply`: think, then send it (or a
    /// spoiled version of it).
    fn client_replies(&mut self, id: ClientId, reply: String) {
        let now = self.now;
        let i = id.index();
        let think = {
            let c = &mut self.clients[i];
            c.think.sample(&mut c.rng)
        };
        let ready = now + think;
        self.clients[i].busy_until = ready;
        self.schedule(ready, EventBody::ClientFree { client: id });
        let f = self.clients[i].faults.clone();
        let c = &mut self.clients[i];
        let total =
            f.duplicate + f.bad_echo + f.illegal + f.unparsable + f.false_claim + f.sign_on_again;
        let pick = if total == 0 {
            None
        } else {
            let r = c.rng.u32(..1000);
            let mut acc = 0;
            [
                (f.duplicate, 0u8),
                (f.bad_echo, 1),
                (f.illegal, 2),
                (f.unparsable, 3),
                (f.false_claim, 4),
                (f.sign_on_again, 5),
            ]
            .into_iter()
            .find_map(|(rate, k)| {
                acc += rate;
                (r < acc).then_some(k)
            })
        };
        match pick {
            Some(0) => {
                self.client_send(id, reply.clone(), ready, Expect::Normal);
                self.client_send(id, reply, ready + 1, Expect::Stray);
            }
            Some(1) => {
                let bad = spoil_echo(&reply);
                self.client_send(id, bad, ready, Expect::Offence(OffenceKind::BadEcho));
            }
            Some(2) => {
                let bad = with_move(&reply, illegal_san(&reply, &mut c.rng));
                self.client_send(id, bad, ready, Expect::Offence(OffenceKind::Illegal));
            }
            Some(3) => {
                let junk = ["@@", "e9", "Zz", "0-0-0-0", "P", "exd", "Nb1b1b1", "--"];
                let m = junk[c.rng.usize(..junk.len())];
                let bad = with_move(&reply, m.to_string());
                self.client_send(id, bad, ready, Expect::Offence(OffenceKind::Unparsable));
            }
            Some(4) if has_move(&reply) => {
                let claim = with_op(&reply, Operation::new("draw_claim"));
                self.client_send(id, claim, ready, Expect::Offence(OffenceKind::FalseClaim));
            }
            Some(5) => {
                self.client_sign_on(id, now);
                self.client_send(id, reply, ready, Expect::Normal);
            }
            _ => self.client_send(id, reply, ready, Expect::Normal),
        }
    }

    /// The referee sent `respond` to `to`: maybe the other client replies
    /// out of turn, arriving right after the respond has left.
    fn maybe_out_of_turn(&mut self, to: ClientId) {
        let other = to.other();
        let o = &mut self.clients[other.index()];
        if !roll(&mut o.rng, o.faults.out_of_turn) {
            return;
        }
        let text = match o.proto.game() {
            Some(g) => stray_reply(g, &mut o.rng),
            None => stray_reply(&Game::new(shakmaty::Chess::default()), &mut o.rng),
        };
        let at = self.now;
        self.client_send(other, text, at, Expect::Stray);
    }
}

fn roll(rng: &mut fastrand::Rng, per_mille: u32) -> bool {
    per_mille > 0 && rng.u32(..1000) < per_mille
}

fn is_record_to(o: &Output, client: ClientId, cmd: RefCom) -> bool {
    match o {
        Output::Send { to, text, .. } if *to == client => {
            Record::parse(text)
                .ok()
                .and_then(|r| r.refcom().ok().flatten())
                == Some(cmd)
        }
        _ => false,
    }
}
