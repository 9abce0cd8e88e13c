//! The core fuzzer: arbitrary input sequences through the referee core, on
//! fake time.
//!
//! Lines of every kind a client or a noisy line can deliver: text that
//! looks like a record, junk, random bytes (control and non-ASCII ones
//! too), sign-ons, sign-offs, faults, replies built from the referee's own
//! position (so that games move on; with a wrong echo, draw offers, claims,
//! resignations, evaluations), and records argus sent coming back. Each
//! client checks its own records (`Acrc`) or not, chosen per run, and any
//! line may then be damaged as a noisy line damages it (flipped bits, lost,
//! doubled and inserted bytes, cut lines), so damaged checked lines reach
//! the core too. Besides lines: `Sent` for every record in order, as a
//! port reports them (in some runs), or with random and latest sequence
//! numbers; links lost and back, dropped lines, timers (at the deadline or
//! not) and supervisor commands, at non-decreasing times with gaps from
//! none to minutes. (What is thrown, and the strategies that make it:
//! `inputs`.)
//!
//! After every input: no panic; every record sent parses, carries a
//! `refcom`, is at most a line long and its `sm` is legal where it stands;
//! every event's words are free of control characters; every finished
//! game's PGN reads back and replays; repeated timers at one instant
//! settle; and after every step the snapshot is sane (clocks in range,
//! score) and memory stays bounded (at most 200 events and 2,000 moves
//! kept).
//!
//! `ARGUS_FUZZ_SESSIONS` sets the number of runs (default 800, of up to
//! 300 steps each: about 120,000 inputs, a few seconds); `PROPTEST_RNG_SEED`
//! fixes the seed. `scripts/fuzz.sh` runs millions of inputs in release
//! mode. (The EPD parser, the framer and the ChessBase decoders have
//! their fuzzers in hw-tests/fuzz.rs.)

mod inputs;

use proptest::prelude::*;
use shakmaty::{Chess, Position};

use crate::clock::TimeControl;
use crate::epd::{Operation, Record, RefReq, line_check};
use crate::game;
use crate::referee::{ByClient, ClientId, Event, Input, Output, Referee, Settings, words};

use super::checks;
use super::spoil::junk_line;
use inputs::{Damage, Echo, Line, Run, SESSIONS, Step, delay, run, step};

/// A reply to the referee's current position.
fn reply(r: &Referee, at: u64, mv: usize, echo: Echo, extra: Option<&str>) -> String {
    let pos = r.snapshot(at).position;
    let echoed = match echo {
        Echo::Right | Echo::Flipped => pos.clone(),
        Echo::Initial => Chess::default(),
    };
    let mut fields = game::fields_of(&echoed);
    if let Echo::Flipped = echo {
        fields.side = if fields.side == "w" { "b" } else { "w" }.into();
    }
    let mut rec = Record::new(fields).with(Operation::refreq(RefReq::Reply));
    let moves = pos.legal_moves();
    if !moves.is_empty() {
        let m = &moves[mv % moves.len()];
        rec.set(Operation::sm(&game::san_of(&pos, m)));
    }
    let text = rec.to_canonical();
    match extra {
        Some(ops) => format!("{text} {ops}"),
        None => text,
    }
}

fn simple(c: ClientId, req: RefReq) -> String {
    Record::new(game::fields_of(&Chess::default()))
        .with(Operation::refreq(req))
        .with(Operation::tcsi("", &format!("fuzz {}", c.letter())))
        .to_canonical()
}

/// `line` as a noisy line leaves it.
fn damaged(line: &str, damages: &[Damage]) -> String {
    let mut v = line.as_bytes().to_vec();
    for d in damages {
        let n = v.len();
        if n == 0 {
            v.push(d.byte());
            continue;
        }
        match *d {
            Damage::Flip(i, bit) => v[i % n] ^= 1 << bit,
            Damage::Lose(i) => {
                v.remove(i % n);
            }
            Damage::Insert(i, b) => v.insert(i % n, b),
            Damage::Cut(i) => v.truncate(i % n),
            Damage::Double(i, j) => {
                let (i, j) = (i % n, j % n);
                let (from, to) = (i.min(j), i.max(j));
                let piece = v[from..to].to_vec();
                v.splice(to..to, piece);
            }
            Damage::Byte(i, b) => v[i % n] = b,
        }
    }
    String::from_utf8_lossy(&v).into_owned()
}

fn line_input(from: ClientId, text: String) -> Input {
    Input::Line {
        from,
        wire_bytes: text.len() + 2,
        text,
        arrival: None,
    }
}

/// The referee under test, its fake time and what the clients know.
struct Driver {
    r: Referee,
    tc: TimeControl,
    checks: ByClient<bool>,
    ports_report: bool,
    now: u64,
    /// The latest sequence number sent to each client.
    latest: ByClient<Option<u64>>,
    /// The records sent and not yet reported (with `ports_report`).
    pending: Vec<(ClientId, u64)>,
    /// The latest record argus sent.
    returned: Option<String>,
    games_over: usize,
}

impl Driver {
    fn new(run: Run) -> Driver {
        let mut d = Driver {
            tc: run.settings.time_control.clone(),
            r: Referee::new(run.settings),
            checks: run.checks,
            ports_report: run.ports_report,
            now: 0,
            latest: ByClient::default(),
            pending: Vec::new(),
            returned: None,
            games_over: 0,
        };
        if run.sign_on_first {
            for c in [ClientId::A, ClientId::B] {
                d.step(0, Step::Line(c, Line::SignOn, Vec::new()));
            }
        }
        d
    }

    /// Runs one step and checks the state after it.
    fn step(&mut self, dt: u64, step: Step) {
        self.now += dt;
        // Records leave the port in order, a little later.
        for (to, seq) in std::mem::take(&mut self.pending) {
            self.feed(Input::Sent { to, seq }, self.now);
        }
        if let Some(input) = self.input(step) {
            self.feed(input, self.now);
        }
        let snap = self.r.snapshot(self.now);
        checks::check_snapshot(&snap, &self.tc);
        assert!(snap.sans.len() <= 2_000, "{} moves kept", snap.sans.len());
    }

    /// The input a step makes, if any.
    fn input(&mut self, step: Step) -> Option<Input> {
        Some(match step {
            Step::Line(c, line, damages) => {
                let text = self.line(c, line)?;
                line_input(c, damaged(&text, &damages))
            }
            Step::Sent(c, seq) => Input::Sent { to: c, seq },
            Step::SentLatest(c) => Input::Sent {
                to: c,
                seq: self.latest[c]?,
            },
            Step::LinkLost(c) => Input::LinkLost {
                client: c,
                reason: "cable pulled\u{7}".into(),
            },
            Step::LinkBack(c) => Input::LinkBack { client: c },
            Step::Dropped(c) => Input::Dropped {
                from: c,
                reason: "bytes outside printable ASCII".into(),
            },
            Step::Timer => Input::Timer,
            Step::TimerAtDeadline => {
                self.now = self.now.max(self.r.next_deadline()?);
                Input::Timer
            }
            Step::Supervisor(cmd) => Input::Supervisor(cmd),
        })
    }

    /// The text of a client's line before any damage; its own records
    /// are checked if it checks its lines.
    fn line(&self, c: ClientId, line: Line) -> Option<String> {
        let mut own = match line {
            Line::Text(t) => return Some(t),
            Line::Junk(seed) => return Some(junk_line(&mut fastrand::Rng::with_seed(seed))),
            Line::Bytes(b) => return Some(String::from_utf8_lossy(&b).into_owned()),
            Line::Returned => return self.returned.clone(),
            Line::SignOn => simple(c, RefReq::SignOn),
            Line::SignOff => simple(c, RefReq::SignOff),
            Line::ClientFault => simple(c, RefReq::Fault),
            Line::Reply(mv, e, x) => reply(&self.r, self.now, mv, e, x),
        };
        if self.checks[c] {
            line_check::append(&mut own);
        }
        Some(own)
    }

    /// Hands one input to the core and checks what comes out; a timer at
    /// or after the deadline moves the deadline on (or does something):
    /// repeated timers at one instant settle.
    fn feed(&mut self, input: Input, at: u64) {
        let was_timer = matches!(input, Input::Timer);
        let outs = self.r.handle(input, at);
        self.check(outs);
        if was_timer {
            let mut n = 0;
            while self.r.next_deadline().is_some_and(|d| d <= at) {
                n += 1;
                assert!(n < 16, "the deadline stays at or before {at}");
                let outs = self.r.handle(Input::Timer, at);
                self.check(outs);
            }
        }
    }

    fn check(&mut self, outs: Vec<Output>) {
        for o in outs {
            match o {
                Output::Send { to, seq, text } => {
                    checks::check_sent_record(&text);
                    assert!(text.len() <= crate::epd::MAX_LINE, "record too long");
                    self.latest[to] = Some(seq);
                    if self.ports_report && self.pending.len() < 64 {
                        self.pending.push((to, seq));
                    }
                    self.returned = Some(text);
                }
                Output::Event(e) => {
                    let text = words::sentence(&e);
                    assert!(!text.chars().any(char::is_control), "{text:?}");
                    if let Event::GameOver(over) = &e {
                        self.games_over += 1;
                        checks::replay_pgn(over, "fuzz");
                    }
                }
            }
        }
    }
}

/// Runs the steps; returns the number of games that ended.
fn drive(run: Run, steps: Vec<(u64, Step)>) -> usize {
    let mut d = Driver::new(run);
    for (dt, step) in steps {
        d.step(dt, step);
    }
    d.games_over
}

fn sessions() -> u32 {
    std::env::var("ARGUS_FUZZ_SESSIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(SESSIONS)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: sessions(), ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_inputs_never_break_the_core(
        run in run(),
        steps in prop::collection::vec((delay(), step()), 1..300),
    ) {
        drive(run, steps);
    }
}

/// A proptest-like run with a long, mostly well-formed sequence, so that
/// whole games are played through the arbitrary-input driver too.
#[test]
fn long_mostly_valid_sequences_play_games() {
    let mut rng = fastrand::Rng::with_seed(99);
    let mut total = 0;
    for round in 0..20 {
        let settings = Settings {
            time_control: if round % 2 == 0 {
                TimeControl::Untimed
            } else {
                "30+1".parse().unwrap()
            },
            reset_delay_ms: 0,
            conclude_delay_ms: 0,
            ..Settings::default()
        };
        let run = Run {
            settings,
            sign_on_first: true,
            checks: ByClient::new(round % 4 == 1, round % 4 >= 2),
            ports_report: false,
        };
        let mut steps = Vec::new();
        for _ in 0..2_000 {
            let c = if rng.bool() { ClientId::A } else { ClientId::B };
            let s = match rng.u32(..20) {
                0 => Step::Line(c, Line::Junk(rng.u64(..)), Vec::new()),
                1 => Step::TimerAtDeadline,
                2..=9 => Step::SentLatest(c),
                _ => Step::Line(c, Line::Reply(rng.usize(..), Echo::Right, None), Vec::new()),
            };
            steps.push((rng.u64(0..3_000), s));
        }
        total += drive(run, steps);
    }
    assert!(total >= 10, "only {total} games ended");
}
