//! The simulation harness: a [`Referee`] and two simulated clients (each a
//! [`ClientProtocol`](crate::client::ClientProtocol) with a seeded mover,
//! thinking time and optional misbehaviour: `client`) wired together by a
//! deterministic event loop with fake time (events wait in `queue`).
//! Records travel over simulated 9600 8N1 lines: each direction is busy
//! while a record is on it, and a record's `Input::Sent` is reported when
//! its last byte has left. The core's timer fires at
//! [`Referee::next_deadline`].
//!
//! Every output is checked as it comes (records parse, `sm` is legal in the
//! record's position, rejected lines change nothing, offences are punished
//! as the policies say: `judge`), and every finished game by
//! [`super::checks::check_game_over`].

mod client;
mod judge;
mod queue;

use std::collections::BinaryHeap;

use shakmaty::Color;

use crate::clock::{LineSettings, TimeControl, wire_time_ms};
use crate::epd::RefCom;
use crate::referee::snapshot::{EventKind, Phase};
use crate::referee::{
    ClientId, Command, Event, GameOver, GameResult, Input, Output, Referee, Settings, words,
};

use super::checks::{self, Fingerprint, GameContext};
use super::spec::{GameSummary, MatchReport, MatchSpec};
use client::SimClient;
use queue::{EventBody, Expect, Scheduled};

/// Steps without the session ending after which the harness gives up.
const STEP_LIMIT: u64 = 20_000_000;
/// Timers at one instant after which the core is taken to be stuck.
const SAME_TIME_TIMERS: u32 = 16;

/// Plays `spec`'s games one after the other, each on a referee core of
/// its own (as the event's boards do: the core referees one game), with
/// the event's sequencing: colours alternating (A has White in odd
/// games), the openings taken in turn, each game seeded apart. Returns
/// the games' reports added up, the games numbered as the match numbers
/// them.
pub fn run_match(spec: MatchSpec) -> MatchReport {
    let mut all = MatchReport::default();
    for number in 1..=spec.games {
        let white = if number % 2 == 1 {
            ClientId::A
        } else {
            ClientId::B
        };
        let opening = match spec.openings.len() {
            0 => None,
            n => spec.openings.get((number as usize - 1) % n).cloned(),
        };
        let game = GameSpec {
            number,
            white,
            opening,
            seed: spec.seed ^ (u64::from(number) << 40),
        };
        let r = Sim::new(spec.clone(), game).run();
        all.add(r);
    }
    for (i, g) in all.games.iter().enumerate() {
        assert_eq!(g.number as usize, i + 1, "games end in order");
    }
    for g in &all.games {
        match g.result {
            GameResult::Win(c) => {
                let winner = if c == Color::White {
                    g.white
                } else {
                    g.white.other()
                };
                all.final_score[winner.index()] += 2;
            }
            GameResult::Draw => {
                all.final_score[0] += 1;
                all.final_score[1] += 1;
            }
            GameResult::None => {}
        }
    }
    all
}

/// What the event decided for one game of the match.
#[derive(Debug, Clone)]
struct GameSpec {
    /// The game's number in the match (the core numbers its game 1).
    number: u32,
    white: ClientId,
    opening: Option<crate::referee::Start>,
    seed: u64,
}

/// The simulation of one game: the referee, two clients and the event
/// queue.
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
    /// The game in progress (from `GameStarted`): 1 once the core's game
    /// has started.
    current_game: u32,
    /// The game's number in the match.
    number: u32,
    /// The last game that ended.
    last_ended: u32,
    resume_pending: bool,
    report: MatchReport,
    timers_at_now: u32,
    /// The notices of the last input (for diagnostics).
    last_notices: Vec<String>,
}

impl Sim {
    /// A simulation of `game` of `spec`, both clients about to sign on.
    fn new(spec: MatchSpec, game: GameSpec) -> Sim {
        let time_control: TimeControl = spec
            .time_control
            .parse()
            .unwrap_or_else(|e| panic!("bad time control {:?}: {e}", spec.time_control));
        let settings = settings_for(&spec, &game, &time_control);
        let line = settings.lines.a;
        let mut rng = fastrand::Rng::with_seed(game.seed);
        let clients = ClientId::BOTH.map(|id| SimClient::new(id, &spec, &mut rng));
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
            number: game.number,
            last_ended: 0,
            resume_pending: false,
            report: MatchReport::default(),
            timers_at_now: 0,
            last_notices: Vec::new(),
        };
        for id in ClientId::BOTH {
            let start = sim.rng.u64(0..300);
            if sim.clients[id.index()].faults.reply_before_sign_on {
                sim.reply_before_sign_on(id, start);
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
        assert_eq!(
            self.report.games.len(),
            1,
            "game {}: played to an end",
            self.number
        );
        assert_eq!(snap.score_halves, [0, 0].into(), "no match score kept");
        // Every client still signed on got exactly one disconnect.
        for id in ClientId::BOTH {
            let c = &self.clients[id.index()];
            let expected = u32::from(snap.clients[id].signed_on);
            assert_eq!(
                c.disconnects,
                expected,
                "{}: disconnects received (signed on at the end: {})",
                id.letter(),
                snap.clients[id].signed_on
            );
            self.report.disconnects[id.index()] = c.disconnects;
        }
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
            } => self.line_arrives(from, text, expect, game),
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

    /// A line from a client reaches the referee; the notices a genuine
    /// line got are counted (as late, or as unexpected).
    fn line_arrives(&mut self, from: ClientId, text: String, expect: Expect, game: u32) {
        let wire_bytes = text.len() + 2;
        let input = Input::Line {
            from,
            text,
            wire_bytes,
            arrival: None,
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

    /// Hands one input to the referee, checks what the expectation says,
    /// and carries out the outputs. Returns the notices it gave.
    fn feed(&mut self, input: Input, expect: Expect, from: Option<ClientId>) -> u32 {
        let at = self.now;
        if self.spec.trace {
            self.trace(format!("{at} in {input:?}"));
        }
        // Decide what must happen before the core sees the line.
        let expect = self.judged_as(expect, from, &input);
        let must_reject = self.must_reject(expect, from);
        let claim_valid = self.claim_validity(expect, &input);
        let before = (must_reject || matches!(expect, Expect::Offence(_)))
            .then(|| Fingerprint::of(&self.referee, at));

        let shown = format!("{input:?}");
        let outs = self.referee.handle(input, at);

        if let Some(before) = &before {
            let after = Fingerprint::of(&self.referee, at);
            if must_reject {
                self.check_rejected(&outs, &shown, before, &after);
            } else if let (Expect::Offence(kind), Some(from)) = (expect, from) {
                self.check_offence(kind, from, claim_valid, before, &after, &outs);
            }
        }
        let notices = self.note_notices(&outs);
        self.apply(outs);
        notices
    }

    /// Keeps the logged sentences of `outs` (for diagnostics) and counts
    /// its rejections, warnings and faults.
    fn note_notices(&mut self, outs: &[Output]) -> u32 {
        self.last_notices = outs
            .iter()
            .filter_map(Output::event)
            .filter(|e| e.logged())
            .map(words::sentence)
            .collect();
        outs.iter()
            .filter_map(Output::event)
            .filter(|e| {
                matches!(
                    e.kind(),
                    EventKind::Rejected | EventKind::Warning | EventKind::Fault
                )
            })
            .count() as u32
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
            Event::SessionOver => {
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
            .find(|&id| snap.clients[id].color == Some(Color::White))
            .expect("a game has a White");
        let hung = ClientId::BOTH
            .into_iter()
            .find(|id| self.clients[id.index()].faults.hang_in_game == Some(self.number));
        let ctx = GameContext {
            snapshot: &snap,
            time_control: &self.time_control,
            offences: &self.report.offences,
            hung,
        };
        let plies = checks::check_game_over(&over, &ctx);
        assert_eq!(over.game_number, 1, "the core's one game");
        self.report.games.push(GameSummary {
            number: self.number,
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
}

/// The referee's settings for `spec`.
fn settings_for(spec: &MatchSpec, game: &GameSpec, time_control: &TimeControl) -> Settings {
    Settings {
        event: "simulation".into(),
        date: "2025.01.01".into(),
        round: Some(game.number.to_string()),
        time_control: time_control.clone(),
        white: game.white,
        opening: game.opening.clone(),
        reset_delay_ms: 0,
        conclude_delay_ms: spec.conclude_delay_ms,
        false_claim: spec.false_claim,
        illegal_move: spec.illegal_move,
        ..Settings::default()
    }
}
