//! Arbitrary input sequences: random lines (many of them valid-looking
//! records, and replies built from the referee's own position so that games
//! move on), `Sent` with random sequence numbers, links lost and back,
//! timers and supervisor commands, at non-decreasing times. The core must
//! never panic, keep its events bounded, and never send a record that does
//! not parse or whose `sm` is illegal in the record's position.

use proptest::prelude::*;
use shakmaty::{Chess, Position};

use crate::clock::TimeControl;
use crate::epd::{Operation, Record, RefReq};
use crate::game;
use crate::referee::{
    ClientId, Command, Event, FalseClaim, IllegalMove, Input, Output, Referee, Settings, Verdict,
    words,
};

use super::checks;
use super::spoil::junk_line;

#[derive(Debug, Clone, Copy)]
enum Echo {
    Right,
    Initial,
    Flipped,
}

#[derive(Debug, Clone)]
enum Step {
    Text(ClientId, String),
    Junk(ClientId, u64),
    SignOn(ClientId),
    SignOff(ClientId),
    ClientFault(ClientId),
    /// A reply from the current position: move index, echo, extra opcode.
    Reply(ClientId, usize, Echo, Option<&'static str>),
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

fn extra() -> impl Strategy<Value = Option<&'static str>> {
    prop_oneof![
        6 => Just(None),
        1 => Just(Some("draw_claim")),
        1 => Just(Some("draw_offer")),
        1 => Just(Some("draw_accept")),
        1 => Just(Some("draw_reject")),
        1 => Just(Some("resign")),
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

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        2 => (client(), text()).prop_map(|(c, t)| Step::Text(c, t)),
        1 => (client(), any::<u64>()).prop_map(|(c, s)| Step::Junk(c, s)),
        3 => client().prop_map(Step::SignOn),
        1 => client().prop_map(Step::SignOff),
        1 => client().prop_map(Step::ClientFault),
        12 => (client(), any::<usize>(), echo(), extra())
            .prop_map(|(c, m, e, x)| Step::Reply(c, m, e, x)),
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

fn delay() -> impl Strategy<Value = u64> {
    prop_oneof![6 => 0u64..2_000, 1 => 0u64..400_000]
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
        0u8..3,
        any::<bool>(),
        0u32..3,
    )
        .prop_map(|(tc, games, delay, illegal, play_on, resends)| Settings {
            time_control: tc.parse::<TimeControl>().expect("a valid control"),
            games,
            reset_delay_ms: delay,
            conclude_delay_ms: delay,
            illegal_move: [IllegalMove::Forfeit, IllegalMove::Fault, IllegalMove::Retry]
                [usize::from(illegal)],
            false_claim: if play_on {
                FalseClaim::PlayOn
            } else {
                FalseClaim::Forfeit
            },
            max_resends: resends,
            ..Settings::default()
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
    if let Some(op) = extra {
        rec.set(Operation::new(op));
    }
    rec.to_canonical()
}

fn simple(c: ClientId, req: RefReq) -> Input {
    let text = Record::new(game::fields_of(&Chess::default()))
        .with(Operation::refreq(req))
        .with(Operation::tcsi("", &format!("fuzz {}", c.letter())))
        .to_canonical();
    Input::Line {
        from: c,
        wire_bytes: text.len() + 2,
        text,
    }
}

fn line(from: ClientId, text: String) -> Input {
    Input::Line {
        from,
        wire_bytes: text.len() + 2,
        text,
    }
}

/// Runs the steps and checks every output and the state after each step.
fn drive(settings: Settings, steps: Vec<(u64, Step)>) -> usize {
    let tc = settings.time_control.clone();
    let mut r = Referee::new(settings);
    let mut now = 0u64;
    let mut latest: [Option<u64>; 2] = [None, None];
    let mut games_over = 0usize;
    for (dt, step) in steps {
        now += dt;
        let mut inputs: Vec<(Input, u64)> = Vec::new();
        match step {
            Step::Text(c, t) => inputs.push((line(c, t), now)),
            Step::Junk(c, seed) => {
                let t = junk_line(&mut fastrand::Rng::with_seed(seed));
                inputs.push((line(c, t), now));
            }
            Step::SignOn(c) => inputs.push((simple(c, RefReq::SignOn), now)),
            Step::SignOff(c) => inputs.push((simple(c, RefReq::SignOff), now)),
            Step::ClientFault(c) => inputs.push((simple(c, RefReq::Fault), now)),
            Step::Reply(c, mv, e, x) => inputs.push((line(c, reply(&r, now, mv, e, x)), now)),
            Step::Sent(c, seq) => inputs.push((Input::Sent { to: c, seq }, now)),
            Step::SentLatest(c) => {
                if let Some(seq) = latest[c.index()] {
                    inputs.push((Input::Sent { to: c, seq }, now));
                }
            }
            Step::LinkLost(c) => inputs.push((
                Input::LinkLost {
                    client: c,
                    reason: "cable pulled\u{7}".into(),
                },
                now,
            )),
            Step::LinkBack(c) => inputs.push((Input::LinkBack { client: c }, now)),
            Step::Dropped(c) => inputs.push((
                Input::Dropped {
                    from: c,
                    reason: "bytes outside printable ASCII".into(),
                },
                now,
            )),
            Step::Timer => inputs.push((Input::Timer, now)),
            Step::TimerAtDeadline => {
                if let Some(d) = r.next_deadline() {
                    now = now.max(d);
                    inputs.push((Input::Timer, now));
                }
            }
            Step::Supervisor(cmd) => inputs.push((Input::Supervisor(cmd), now)),
        }
        for (input, at) in inputs {
            let was_timer = matches!(input, Input::Timer);
            let outs = r.handle(input, at);
            for o in &outs {
                match o {
                    Output::Send { to, seq, text } => {
                        checks::check_sent_record(text);
                        assert!(text.len() <= crate::epd::MAX_LINE, "record too long");
                        latest[to.index()] = Some(*seq);
                    }
                    Output::Event(e) => {
                        let text = words::sentence(e);
                        assert!(!text.chars().any(char::is_control), "{text:?}");
                        if let Event::GameOver(over) = e {
                            games_over += 1;
                            checks::replay_pgn(over, "fuzz");
                        }
                    }
                }
            }
            // A timer at or after the deadline moves the deadline on (or
            // does something): repeated timers at one instant settle.
            if was_timer {
                let mut n = 0;
                while r.next_deadline().is_some_and(|d| d <= at) {
                    n += 1;
                    assert!(n < 16, "the deadline stays at or before {at}");
                    for o in r.handle(Input::Timer, at) {
                        if let Output::Send { text, .. } = &o {
                            checks::check_sent_record(text);
                        }
                    }
                }
            }
        }
        let snap = r.snapshot(now);
        checks::check_snapshot(&snap, &tc);
        assert!(snap.sans.len() <= 2_000);
    }
    games_over
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_inputs_never_break_the_core(
        settings in settings(),
        steps in prop::collection::vec((delay(), step()), 1..150),
    ) {
        drive(settings, steps);
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
        let mut steps = vec![
            (0, Step::SignOn(ClientId::A)),
            (0, Step::SignOn(ClientId::B)),
        ];
        for _ in 0..2_000 {
            let c = if rng.bool() { ClientId::A } else { ClientId::B };
            let s = match rng.u32(..20) {
                0 => Step::Junk(c, rng.u64(..)),
                1 => Step::TimerAtDeadline,
                2..=9 => Step::SentLatest(c),
                _ => Step::Reply(c, rng.usize(..), Echo::Right, None),
            };
            steps.push((rng.u64(0..3_000), s));
        }
        total += drive(settings, steps);
    }
    assert!(total >= 10, "only {total} games ended");
}
