//! What the referee core is told before its one game: names, event tags,
//! the time control, who plays White, where the game starts and the
//! policies for faults. How many games, which opening and which colours
//! are the event's (`crate::tournament`).

use serde::Deserialize;
use shakmaty::{ByColor, Chess, Move};

use crate::clock::{LineSettings, TimeControl};
use crate::game::Variant;
use crate::referee::adjudication::{DrawRule, ResignRule};
use crate::referee::client::{ByClient, ClientId};

/// A policy the supervisor picks by name: on the command line, in the
/// config file (TOML) and in the journal header, always spelled as
/// [`Policy::name`] says. Each policy enum is defined once, below; its
/// `Display`, `FromStr` and serde `Deserialize` all come from its list.
/// (The command line builds its choices from [`Policy::ALL`] in `app`, so
/// clap stays out of this layer.)
pub trait Policy: Copy + Eq + Default + 'static {
    /// Every choice, in the order `--help` lists them.
    const ALL: &'static [Self];
    /// The choice's name: `forfeit`, `play-on`, ...
    fn name(self) -> &'static str;
    /// What the choice does, in a line for `--help`.
    fn help(self) -> &'static str;
}

/// `name` as one of `P`'s choices, or an error that lists them.
pub fn parse_policy<P: Policy>(name: &str) -> Result<P, UnknownChoice> {
    P::ALL
        .iter()
        .copied()
        .find(|p| p.name() == name)
        .ok_or_else(|| UnknownChoice {
            name: name.to_string(),
            choices: P::ALL.iter().map(|p| p.name()).collect(),
        })
}

/// A policy's name that is none of its choices: the name as given, and
/// the choices it could have been.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{name}` is not one of {}", choices.join(", "))]
pub struct UnknownChoice {
    pub name: String,
    pub choices: Vec<&'static str>,
}

/// `Display` (the name), `FromStr` and `TryFrom<String>` (for serde's
/// `try_from`) of a [`Policy`].
macro_rules! policy_names {
    ($t:ty) => {
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
        impl std::str::FromStr for $t {
            type Err = UnknownChoice;
            fn from_str(s: &str) -> Result<$t, UnknownChoice> {
                parse_policy(s)
            }
        }
        impl TryFrom<String> for $t {
            type Error = UnknownChoice;
            fn try_from(s: String) -> Result<$t, UnknownChoice> {
                parse_policy(&s)
            }
        }
    };
}

/// What to do with a draw claim that the rules do not support.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(try_from = "String")]
pub enum FalseClaim {
    /// The claimant loses (Termination "rules infraction").
    #[default]
    Forfeit,
    /// The claim is rejected with a notice; a move given with it is played.
    PlayOn,
}

impl Policy for FalseClaim {
    const ALL: &'static [FalseClaim] = &[FalseClaim::Forfeit, FalseClaim::PlayOn];
    fn name(self) -> &'static str {
        match self {
            FalseClaim::Forfeit => "forfeit",
            FalseClaim::PlayOn => "play-on",
        }
    }
    fn help(self) -> &'static str {
        match self {
            FalseClaim::Forfeit => "the claimant loses the game",
            FalseClaim::PlayOn => "the claim is rejected and play goes on",
        }
    }
}
policy_names!(FalseClaim);

/// What to do with an illegal or unparsable move, a reply without a move,
/// or an echoed position that stays wrong after the resends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(try_from = "String")]
pub enum IllegalMove {
    /// The offender loses (computer chess rules; Termination "rules
    /// infraction").
    #[default]
    Forfeit,
    /// `refcom fault;` to the offender, clocks stopped, and a pause for the
    /// supervisor, who resumes (the offender is asked again) or adjudicates.
    Fault,
    /// The offender is sent its respond record again, its clock still
    /// running, up to `Settings::max_resends` times a turn (the budget the
    /// echo resends use too); then it loses as with `Forfeit`. For noisy
    /// lines, where one flipped bit turns a legal move into an unparsable
    /// one.
    Retry,
}

impl Policy for IllegalMove {
    const ALL: &'static [IllegalMove] =
        &[IllegalMove::Forfeit, IllegalMove::Fault, IllegalMove::Retry];
    fn name(self) -> &'static str {
        match self {
            IllegalMove::Forfeit => "forfeit",
            IllegalMove::Fault => "fault",
            IllegalMove::Retry => "retry",
        }
    }
    fn help(self) -> &'static str {
        match self {
            IllegalMove::Forfeit => "the offender loses the game (computer chess rules)",
            IllegalMove::Fault => "`refcom fault;` and a pause for the supervisor",
            IllegalMove::Retry => {
                "ask again (the respond once more, the clock running), up to \
                 --max-resends times a turn; then the offender loses. For noisy lines"
            }
        }
    }
}
policy_names!(IllegalMove);

/// What a client's `refreq fault;` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(try_from = "String")]
pub enum ClientFault {
    /// The game is paused, clocks stopped, until the supervisor resumes or
    /// adjudicates (spec 8.2.1: "signal for human intervention").
    #[default]
    Pause,
    /// The fault is logged for the supervisor and play goes on: the
    /// client's clock keeps running and its next reply is taken. For
    /// unattended (headless) matches, where nobody could resume.
    Continue,
}

impl Policy for ClientFault {
    const ALL: &'static [ClientFault] = &[ClientFault::Pause, ClientFault::Continue];
    fn name(self) -> &'static str {
        match self {
            ClientFault::Pause => "pause",
            ClientFault::Continue => "continue",
        }
    }
    fn help(self) -> &'static str {
        match self {
            ClientFault::Pause => "pause the game for the supervisor (resume or adjudicate)",
            ClientFault::Continue => "log it and play on (for unattended matches)",
        }
    }
}
policy_names!(ClientFault);

impl ClientFault {
    /// The default: pause where a supervisor watches the board, play on
    /// when headless, where nobody could resume.
    pub fn default_for(headless: bool) -> ClientFault {
        if headless {
            ClientFault::Continue
        } else {
            ClientFault::Pause
        }
    }
}

/// Where a game starts: a position, and moves to play from it before the
/// clients take over (sent to both with `refcom execute;`).
#[derive(Debug, Clone)]
pub struct Start {
    pub position: Chess,
    pub moves: Vec<Move>,
    /// Where the opening came from (`file:line`), for messages.
    pub source: String,
}

impl Start {
    /// The standard starting position with no moves.
    pub fn initial() -> Start {
        Start {
            position: Chess::default(),
            moves: Vec::new(),
            source: "initial position".into(),
        }
    }
}

/// The whole configuration of a referee session: one game.
#[derive(Debug, Clone)]
pub struct Settings {
    /// PGN Event, Site and Date (`yyyy.mm.dd`; the core never reads the
    /// clock, so the caller supplies the date).
    pub event: String,
    pub site: String,
    pub date: String,
    /// PGN Round; `None` writes `1` (the event names each game's round).
    pub round: Option<String>,
    /// Names of clients A and B given by the supervisor; `None` takes the
    /// client's `tcsi` name, else the port name.
    pub names: ByClient<Option<String>>,
    /// The port names of clients A and B (for messages and default names).
    pub ports: ByClient<String>,
    /// The line settings of each client's port, for the wire-time credit.
    pub lines: ByClient<LineSettings>,
    /// Whether each client is a program argus runs itself (an `engine:`
    /// player's bridge on an in-process link): a reply's `Asearch`, the
    /// engine's own time as the bridge measured it, is then what the move
    /// is charged, argus's hops beyond it credited
    /// ([`clock::hop_credit_ms`](crate::clock::hop_credit_ms)), and its
    /// flag falls [`HOP_GRACE_MS`](crate::referee::HOP_GRACE_MS) after its
    /// time is gone. Never for a client on a port: it could say anything.
    pub own_search_time: ByClient<bool>,
    pub time_control: TimeControl,
    /// Time odds: a client's own control, in place of `time_control`
    /// for that client (cutechess-cli's per-engine `tc=`). Its clock
    /// follows it; the PGN gets `WhiteTimeControl`/`BlackTimeControl`
    /// when the two sides' controls differ, and `inform` tells both.
    pub own_controls: ByClient<Option<TimeControl>>,
    /// The rules: standard chess or Chess960 (every opening's position is
    /// set up in it; the PGN and `inform` carry `Variant "Chess960"`).
    pub variant: Variant,
    /// The client that plays White: the event decides (its schedule
    /// alternates colours), the core only follows.
    pub white: ClientId,
    /// Where the game starts: an opening the event chose, or `None` for
    /// the initial position.
    pub opening: Option<Start>,
    /// Pause after `refcom reset;` before `inform` (spec default 5 s).
    pub reset_delay_ms: u64,
    /// Pause after `refcom conclude;` before the next game (spec default 5 s).
    pub conclude_delay_ms: u64,
    pub false_claim: FalseClaim,
    pub illegal_move: IllegalMove,
    pub client_fault: ClientFault,
    /// Send the respond record again when the client on move has sent no
    /// reply for this long (0: never). On a noisy line a lost or damaged
    /// record would otherwise stall an untimed game for ever.
    pub resend_after_ms: u64,
    /// How many times a turn a respond record is sent again to a client
    /// whose echoed position differs (or, with `IllegalMove::Retry`, whose
    /// move was illegal or unparsable), before it is treated as a fault.
    pub max_resends: u32,
    /// Adjudicate a draw once this many full moves have been played.
    pub max_moves: Option<u32>,
    /// Adjudicate a draw when both scores stay near zero (cutechess-cli's
    /// `-draw`).
    pub draw_adjudication: Option<DrawRule>,
    /// Adjudicate a loss when a player's score stays far below zero
    /// (cutechess-cli's `-resign`).
    pub resign_adjudication: Option<ResignRule>,
    /// Adjudicate by the Syzygy endgame tables in these directories
    /// (`--syzygy`, as given). The core never opens them: the session
    /// probes them after each move and hands the verdict in
    /// ([`crate::referee::Input::Tablebase`]).
    pub syzygy: Option<String>,
    /// Send `refcom disconnect;` to both clients when the game is over.
    /// A tournament's board does not: its players stay signed on for their
    /// next game, on whichever board, and are disconnected when the
    /// tournament is over.
    pub disconnect_at_end: bool,
}

impl Settings {
    /// The control `client` plays under: its own, else the match's.
    pub fn control_of(&self, client: ClientId) -> &TimeControl {
        self.own_controls[client]
            .as_ref()
            .unwrap_or(&self.time_control)
    }

    /// Each colour's control in a game where `white` has White.
    pub fn controls(&self, white: ClientId) -> ByColor<TimeControl> {
        ByColor {
            white: self.control_of(white).clone(),
            black: self.control_of(white.other()).clone(),
        }
    }

    /// Whether the two clients play under different controls.
    pub fn has_time_odds(&self) -> bool {
        self.control_of(ClientId::A) != self.control_of(ClientId::B)
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            event: "argus match".into(),
            site: "?".into(),
            date: "????.??.??".into(),
            round: None,
            names: ByClient::default(),
            ports: ByClient::new("A".into(), "B".into()),
            lines: ByClient::default(),
            own_search_time: ByClient::default(),
            time_control: TimeControl::Untimed,
            own_controls: ByClient::default(),
            variant: Variant::Standard,
            white: ClientId::A,
            opening: None,
            reset_delay_ms: 5_000,
            conclude_delay_ms: 5_000,
            false_claim: FalseClaim::Forfeit,
            illegal_move: IllegalMove::Forfeit,
            client_fault: ClientFault::Pause,
            max_resends: 2,
            resend_after_ms: 0,
            max_moves: None,
            draw_adjudication: None,
            resign_adjudication: None,
            syzygy: None,
            disconnect_at_end: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<P: Policy + std::fmt::Debug + std::str::FromStr<Err = UnknownChoice>>() {
        for &p in P::ALL {
            assert_eq!(p.name().parse::<P>(), Ok(p));
            assert!(!p.help().is_empty());
        }
        assert!(P::ALL.contains(&P::default()));
        let err = "nonsense".parse::<P>().unwrap_err();
        assert_eq!(err.name, "nonsense");
        assert_eq!(
            err.choices,
            P::ALL.iter().map(|p| p.name()).collect::<Vec<_>>()
        );
        for &p in P::ALL {
            assert!(err.to_string().contains(p.name()), "{err}");
        }
    }

    #[test]
    fn every_policy_reads_back_the_name_it_writes() {
        round_trip::<FalseClaim>();
        round_trip::<IllegalMove>();
        round_trip::<ClientFault>();
        assert_eq!(FalseClaim::PlayOn.to_string(), "play-on");
    }

    #[test]
    fn the_config_file_takes_the_same_names() {
        #[derive(Deserialize)]
        struct Match {
            illegal: IllegalMove,
            false_claim: FalseClaim,
        }
        let m: Match = toml::from_str("illegal = \"retry\"\nfalse_claim = \"play-on\"").unwrap();
        assert_eq!(
            (m.illegal, m.false_claim),
            (IllegalMove::Retry, FalseClaim::PlayOn)
        );
        let bad = toml::from_str::<Match>("illegal = \"maybe\"\nfalse_claim = \"forfeit\"");
        let err = bad.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            err.contains("`maybe` is not one of forfeit, fault, retry"),
            "{err}"
        );
    }
}
