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
//! none to minutes.
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

use proptest::prelude::*;
use shakmaty::{Chess, Position};

use crate::clock::TimeControl;
use crate::epd::{Operation, Record, RefReq, line_check};
use crate::game;
use crate::referee::{
    ByClient, ClientFault, ClientId, Command, Event, FalseClaim, IllegalMove, Input, Output,
    Policy, Referee, Settings, Verdict, words,
};

use super::checks;
use super::spoil::junk_line;

/// Runs of the property test unless `ARGUS_FUZZ_SESSIONS` says otherwise.
const SESSIONS: u32 = 800;

/// Bytes a damaged line often gains.
const SPICE: &[u8] = b" ;\"/\\-0123456789abcdefghKQRBNPkqrbnpwx+#=\t\r\n\0\x7f\xff";

#[derive(Debug, Clone, Copy)]
enum Echo {
    Right,
    Initial,
    Flipped,
}

/// A line a client sends, before any damage.
#[derive(Debug, Clone)]
enum Line {
    Text(String),
    Junk(u64),
    Bytes(Vec<u8>),
    SignOn,
    SignOff,
    ClientFault,
    /// A reply from the current position: move index, echo, extra
    /// operations.
    Reply(usize, Echo, Option<&'static str>),
    /// The last record argus sent, to either client, coming back.
    Returned,
}

/// One change a noisy line makes to a line's bytes; the positions are
/// taken modulo the line's length.
#[derive(Debug, Clone)]
enum Damage {
    Flip(usize, u8),
    Lose(usize),
    Insert(usize, u8),
    Cut(usize),
    Double(usize, usize),
    Byte(usize, u8),
}

impl Damage {
    /// The byte an empty line gains instead.
    fn byte(&self) -> u8 {
        match *self {
            Damage::Insert(_, b) | Damage::Byte(_, b) => b,
            Damage::Flip(i, _) | Damage::Lose(i) | Damage::Cut(i) | Damage::Double(i, _) => {
                SPICE[i % SPICE.len()]
            }
        }
    }
}

#[derive(Debug, Clone)]
enum Step {
    Line(ClientId, Line, Vec<Damage>),
    Sent(ClientId, u64),
    SentLatest(ClientId),
    LinkLost(ClientId),
    LinkBack(ClientId),
    Dropped(ClientId),
    Timer,
    /// Jump to the core's deadline and fire the timer there.
    TimerAtDeadline,
    Supervisor(Command),
}

/// What a run is: the settings and how its clients and ports behave.
#[derive(Debug, Clone)]
struct Run {
    settings: Settings,
    /// Both clients sign on before the first step.
    sign_on_first: bool,
    /// Which clients check their own records (`Acrc`).
    checks: ByClient<bool>,
    /// Every record sent is reported `Sent`, in order, before the next
    /// step (as a port does), besides the steps' own `Sent`.
    ports_report: bool,
}

fn client() -> impl Strategy<Value = ClientId> {
    prop_oneof![Just(ClientId::A), Just(ClientId::B)]
}

fn command() -> impl Strategy<Value = Command> {
    prop_oneof![
        Just(Command::Pause),
        Just(Command::Resume),
        Just(Command::Adjudicate(Verdict::WhiteWins)),
        Just(Command::Adjudicate(Verdict::BlackWins)),
        Just(Command::Adjudicate(Verdict::Draw)),
        Just(Command::AbortGame),
        Just(Command::RestartClient(ClientId::A)),
        Just(Command::RestartClient(ClientId::B)),
        Just(Command::EndSession),
    ]
}

/// Operations a reply may carry after its move.
fn extra() -> impl Strategy<Value = Option<&'static str>> {
    prop_oneof![
        12 => Just(None),
        2 => Just(Some("draw_claim;")),
        2 => Just(Some("draw_offer;")),
        2 => Just(Some("draw_accept;")),
        1 => Just(Some("draw_reject;")),
        2 => Just(Some("resign;")),
        1 => Just(Some("acd 12; acn 40000; ce -35; pv e4 e5 Nf3;")),
        1 => Just(Some("ce 32767; pfdn \"mate\";")),
        1 => Just(Some("c0 \"a \\\"quoted\\\" comment\"; id \"x\"; bm e4 d4;")),
        1 => Just(Some("hmvc 0; fmvn 1;")),
    ]
}

fn echo() -> impl Strategy<Value = Echo> {
    prop_oneof![8 => Just(Echo::Right), 1 => Just(Echo::Initial), 1 => Just(Echo::Flipped)]
}

/// Text that looks like a record more often than not.
fn text() -> impl Strategy<Value = String> {
    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    prop_oneof![
        "[ -~]{0,80}",
        "[a-z_ ;\"0-9]{0,60}".prop_map(|ops| format!("{START} {ops}")),
        "[a-hKQRBNx1-8=+#O-]{0,8}".prop_map(|m| format!("{START} refreq reply; sm {m};")),
        Just(format!(
            "{START} refreq sign_on; tcsi \"\" \"\u{1b}[31mred\";"
        )),
        Just(format!("{START} refreq reply; sm e4; cc 99999:99:99 0;")),
    ]
}

/// Random bytes, bytes a damaged record is made of, printable text.
fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300),
        prop::collection::vec(prop::sample::select(SPICE), 0..300),
        prop::collection::vec(0x20u8..0x7f, 0..200),
    ]
}

fn line() -> impl Strategy<Value = Line> {
    prop_oneof![
        2 => text().prop_map(Line::Text),
        1 => any::<u64>().prop_map(Line::Junk),
        2 => bytes().prop_map(Line::Bytes),
        3 => Just(Line::SignOn),
        1 => Just(Line::SignOff),
        1 => Just(Line::ClientFault),
        12 => (any::<usize>(), echo(), extra()).prop_map(|(m, e, x)| Line::Reply(m, e, x)),
        1 => Just(Line::Returned),
    ]
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        2 => (any::<usize>(), 0u8..8).prop_map(|(i, bit)| Damage::Flip(i, bit)),
        1 => any::<usize>().prop_map(Damage::Lose),
        1 => (any::<usize>(), prop::sample::select(SPICE)).prop_map(|(i, b)| Damage::Insert(i, b)),
        1 => any::<usize>().prop_map(Damage::Cut),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Damage::Double(i, j)),
        1 => (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Damage::Byte(i, b)),
    ]
}

/// Most lines arrive whole; the rest are damaged once or many times.
fn damages() -> impl Strategy<Value = Vec<Damage>> {
    prop_oneof![
        3 => Just(Vec::new()),
        1 => prop::collection::vec(damage(), 1..16),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        23 => (client(), line(), damages()).prop_map(|(c, l, d)| Step::Line(c, l, d)),
        2 => (client(), 0u64..64).prop_map(|(c, s)| Step::Sent(c, s)),
        8 => client().prop_map(Step::SentLatest),
        1 => client().prop_map(Step::LinkLost),
        1 => client().prop_map(Step::LinkBack),
        1 => client().prop_map(Step::Dropped),
        1 => Just(Step::Timer),
        3 => Just(Step::TimerAtDeadline),
        1 => command().prop_map(Step::Supervisor),
    ]
}

/// The time before a step: none, a burst, a think, minutes.
fn delay() -> impl Strategy<Value = u64> {
    prop_oneof![
        2 => Just(0u64),
        2 => 0u64..50,
        6 => 0u64..2_000,
        2 => 0u64..5_000,
        2 => 0u64..100_000,
        1 => 0u64..400_000,
    ]
}

fn settings() -> impl Strategy<Value = Settings> {
    (
        prop_oneof![
            Just("-"),
            Just("60"),
            Just("5+1"),
            Just("2/10:5"),
            Just("*20")
        ],
        1u32..4,
        prop_oneof![Just(0u64), Just(5_000)],
        prop::sample::select(IllegalMove::ALL),
        prop::sample::select(FalseClaim::ALL),
        prop::sample::select(ClientFault::ALL),
        0u32..3,
        prop_oneof![3 => Just(0u64), 1 => Just(3_000)],
    )
        .prop_map(
            |(tc, games, delay, illegal, claim, fault, resends, resend_after)| Settings {
                time_control: tc.parse::<TimeControl>().expect("a valid control"),
                games,
                reset_delay_ms: delay,
                conclude_delay_ms: delay,
                illegal_move: illegal,
                false_claim: claim,
                client_fault: fault,
                max_resends: resends,
                resend_after_ms: resend_after,
                ..Settings::default()
            },
        )
}

fn run() -> impl Strategy<Value = Run> {
    (
        settings(),
        prop::bool::weighted(0.75),
        any::<[bool; 2]>(),
        any::<bool>(),
    )
        .prop_map(|(settings, sign_on_first, checks, ports_report)| Run {
            settings,
            sign_on_first,
            checks: checks.into(),
            ports_report,
        })
}

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
            games: 2,
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
