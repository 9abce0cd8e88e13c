//! What the core fuzzer throws at the referee: the kinds of lines, damage
//! and steps, the settings of a run, and the proptest strategies that make
//! them.

use proptest::prelude::*;

use crate::clock::TimeControl;
use crate::referee::{
    ByClient, ClientFault, ClientId, Command, FalseClaim, IllegalMove, Policy, Settings, Verdict,
};

/// Runs of the property test unless `ARGUS_FUZZ_SESSIONS` says otherwise.
pub(super) const SESSIONS: u32 = 800;

/// Bytes a damaged line often gains.
pub(super) const SPICE: &[u8] = b" ;\"/\\-0123456789abcdefghKQRBNPkqrbnpwx+#=\t\r\n\0\x7f\xff";

#[derive(Debug, Clone, Copy)]
pub(super) enum Echo {
    Right,
    Initial,
    Flipped,
}

/// A line a client sends, before any damage.
#[derive(Debug, Clone)]
pub(super) enum Line {
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
pub(super) enum Damage {
    Flip(usize, u8),
    Lose(usize),
    Insert(usize, u8),
    Cut(usize),
    Double(usize, usize),
    Byte(usize, u8),
}

impl Damage {
    /// The byte an empty line gains instead.
    pub(super) fn byte(&self) -> u8 {
        match *self {
            Damage::Insert(_, b) | Damage::Byte(_, b) => b,
            Damage::Flip(i, _) | Damage::Lose(i) | Damage::Cut(i) | Damage::Double(i, _) => {
                SPICE[i % SPICE.len()]
            }
        }
    }
}

#[derive(Debug, Clone)]
pub(super) enum Step {
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
pub(super) struct Run {
    pub(super) settings: Settings,
    /// Both clients sign on before the first step.
    pub(super) sign_on_first: bool,
    /// Which clients check their own records (`Acrc`).
    pub(super) checks: ByClient<bool>,
    /// Every record sent is reported `Sent`, in order, before the next
    /// step (as a port does), besides the steps' own `Sent`.
    pub(super) ports_report: bool,
}

pub(super) fn client() -> impl Strategy<Value = ClientId> {
    prop_oneof![Just(ClientId::A), Just(ClientId::B)]
}

pub(super) fn command() -> impl Strategy<Value = Command> {
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
pub(super) fn extra() -> impl Strategy<Value = Option<&'static str>> {
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

pub(super) fn echo() -> impl Strategy<Value = Echo> {
    prop_oneof![8 => Just(Echo::Right), 1 => Just(Echo::Initial), 1 => Just(Echo::Flipped)]
}

/// Text that looks like a record more often than not.
pub(super) fn text() -> impl Strategy<Value = String> {
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
pub(super) fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300),
        prop::collection::vec(prop::sample::select(SPICE), 0..300),
        prop::collection::vec(0x20u8..0x7f, 0..200),
    ]
}

pub(super) fn line() -> impl Strategy<Value = Line> {
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

pub(super) fn damage() -> impl Strategy<Value = Damage> {
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
pub(super) fn damages() -> impl Strategy<Value = Vec<Damage>> {
    prop_oneof![
        3 => Just(Vec::new()),
        1 => prop::collection::vec(damage(), 1..16),
    ]
}

pub(super) fn step() -> impl Strategy<Value = Step> {
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
pub(super) fn delay() -> impl Strategy<Value = u64> {
    prop_oneof![
        2 => Just(0u64),
        2 => 0u64..50,
        6 => 0u64..2_000,
        2 => 0u64..5_000,
        2 => 0u64..100_000,
        1 => 0u64..400_000,
    ]
}

pub(super) fn settings() -> impl Strategy<Value = Settings> {
    (
        prop_oneof![
            Just("-"),
            Just("60"),
            Just("5+1"),
            Just("2/10:5"),
            Just("*20")
        ],
        prop::sample::select(&ClientId::BOTH[..]),
        prop_oneof![Just(0u64), Just(5_000)],
        prop::sample::select(IllegalMove::ALL),
        prop::sample::select(FalseClaim::ALL),
        prop::sample::select(ClientFault::ALL),
        0u32..3,
        prop_oneof![3 => Just(0u64), 1 => Just(3_000)],
    )
        .prop_map(
            |(tc, white, delay, illegal, claim, fault, resends, resend_after)| Settings {
                time_control: tc.parse::<TimeControl>().expect("a valid control"),
                white,
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

pub(super) fn run() -> impl Strategy<Value = Run> {
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
