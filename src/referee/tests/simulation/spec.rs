//! What a simulated match is (clients' movers, thinking times and
//! misbehaviour, the referee's policies) and what it reports.

use crate::client::MoverKind;
use crate::referee::{ClientId, Ending, FalseClaim, GameResult, IllegalMove, Start, Termination};

/// How long a simulated client thinks about a move.
#[derive(Debug, Clone, Copy)]
pub struct Think {
    /// Usual thinking time, uniform in `min_ms..=max_ms`.
    pub min_ms: u64,
    pub max_ms: u64,
    /// Chance per move (per mille) of a long think instead.
    pub long_per_mille: u32,
    /// Long thinking time, uniform in `long_min_ms..=long_max_ms`.
    pub long_min_ms: u64,
    pub long_max_ms: u64,
}

impl Think {
    /// Quick moves, never a long think.
    pub const QUICK: Think = Think {
        min_ms: 5,
        max_ms: 800,
        long_per_mille: 0,
        long_min_ms: 0,
        long_max_ms: 0,
    };

    /// Quick moves with an occasional long think (20 s to 4 min), long
    /// enough to lose on time under the short controls the tests use.
    pub const SOMETIMES_SLOW: Think = Think {
        min_ms: 5,
        max_ms: 1_500,
        long_per_mille: 4,
        long_min_ms: 20_000,
        long_max_ms: 240_000,
    };

    /// A thinking time for one move.
    pub fn sample(&self, rng: &mut fastrand::Rng) -> u64 {
        if self.long_per_mille > 0 && rng.u32(..1000) < self.long_per_mille {
            rng.u64(self.long_min_ms..=self.long_max_ms)
        } else {
            rng.u64(self.min_ms..=self.max_ms)
        }
    }
}

/// How a simulated client misbehaves. Rates are per mille; the per-reply
/// faults are exclusive (one roll picks at most one of them).
#[derive(Debug, Clone, Default)]
pub struct Faults {
    /// Per line the client receives: send a junk line at a random later time.
    pub junk: u32,
    /// Per `respond` to the other client: send a reply out of turn.
    pub out_of_turn: u32,
    /// Per reply: send it twice.
    pub duplicate: u32,
    /// Per reply: echo a wrong position.
    pub bad_echo: u32,
    /// Per reply: an illegal move instead of the chosen one.
    pub illegal: u32,
    /// Per reply: an unparsable move instead of the chosen one.
    pub unparsable: u32,
    /// Per reply: claim a draw with the move (whether or not it is valid).
    pub false_claim: u32,
    /// Per reply: sign on again just before replying.
    pub sign_on_again: u32,
    /// Per `respond`: sign off instead of replying, and sign on again
    /// 1 to 30 s later.
    pub sign_off: u32,
    /// Per `respond`: report a fault (`refreq fault;`) before replying.
    pub fault_report: u32,
    /// Send a reply (and junk) before signing on.
    pub reply_before_sign_on: bool,
    /// Stop answering `respond` in this game (1-based).
    pub hang_in_game: Option<u32>,
}

/// What a client did wrong in a reply, recorded when the referee got it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OffenceKind {
    BadEcho,
    Illegal,
    Unparsable,
    /// A draw claim the rules did not support when it arrived.
    FalseClaim,
}

/// An offence the referee received while it was waiting for that client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offence {
    pub game: u32,
    pub client: ClientId,
    pub kind: OffenceKind,
}

/// One simulated match.
#[derive(Debug, Clone)]
pub struct MatchSpec {
    pub seed: u64,
    pub games: u32,
    /// PGN TimeControl value.
    pub time_control: &'static str,
    pub movers: [MoverKind; 2],
    pub claim_draws: [bool; 2],
    pub think: [Think; 2],
    pub faults: [Faults; 2],
    pub false_claim: FalseClaim,
    pub illegal_move: IllegalMove,
    pub openings: Vec<Start>,
    /// The referee's pause after a game (the reset delay is always 0). With
    /// 0, a flag that falls on the timer and the next game's start come
    /// out of one call, and the finished game's clocks can no longer be
    /// seen in a snapshot; timed matches use 1 ms.
    pub conclude_delay_ms: u64,
    /// Keep every input and output as text (for the determinism test).
    pub trace: bool,
    /// Check a full snapshot every this many steps (and at every game end).
    pub snapshot_every: u64,
}

impl MatchSpec {
    /// A well-behaved match of `games` games under `time_control`.
    pub fn new(seed: u64, games: u32, time_control: &'static str) -> MatchSpec {
        MatchSpec {
            seed,
            games,
            time_control,
            movers: [MoverKind::Random, MoverKind::Random],
            claim_draws: [false, false],
            think: [Think::QUICK, Think::QUICK],
            faults: [Faults::default(), Faults::default()],
            false_claim: FalseClaim::Forfeit,
            illegal_move: IllegalMove::Forfeit,
            openings: Vec::new(),
            conclude_delay_ms: 1,
            trace: false,
            snapshot_every: 64,
        }
    }
}

/// A finished game as the harness saw it.
#[derive(Debug, Clone)]
pub struct GameSummary {
    pub number: u32,
    pub white: ClientId,
    pub result: GameResult,
    pub termination: Termination,
    pub ending: Ending,
    pub plies: usize,
}

/// What a match produced.
#[derive(Debug, Clone, Default)]
pub struct MatchReport {
    pub games: Vec<GameSummary>,
    pub trace: Vec<String>,
    /// Notices by kind.
    pub rejected: u32,
    pub fault_notices: u32,
    pub warnings: u32,
    pub offences: Vec<Offence>,
    /// Rejected and warning notices for well-formed lines written for a
    /// game that had ended when they arrived (slow clients' replies).
    pub late_notices: u32,
    /// Rejected and warning notices for any other well-formed line.
    pub unexpected_notices: u32,
    /// The first few of those, with their time, for the failure message.
    pub unexpected: Vec<String>,
    /// Stray and junk lines checked to change nothing.
    pub checked_rejections: u32,
    pub steps: u64,
    /// Each client's disconnects: one at the end of each game's session.
    pub disconnects: [u32; 2],
    pub sessions_over: u32,
    pub final_score: [u32; 2],
    pub end_time_ms: u64,
}

impl MatchReport {
    /// Adds one game's report to the match's (its trace after theirs).
    pub fn add(&mut self, r: MatchReport) {
        self.games.extend(r.games);
        self.trace.extend(r.trace);
        self.rejected += r.rejected;
        self.fault_notices += r.fault_notices;
        self.warnings += r.warnings;
        self.offences.extend(r.offences);
        self.late_notices += r.late_notices;
        self.unexpected_notices += r.unexpected_notices;
        self.unexpected.extend(r.unexpected);
        self.checked_rejections += r.checked_rejections;
        self.steps += r.steps;
        for i in 0..2 {
            self.disconnects[i] += r.disconnects[i];
        }
        self.sessions_over += r.sessions_over;
        self.end_time_ms += r.end_time_ms;
    }
}
