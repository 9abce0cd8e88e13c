//! What the supervisor decides before a match: names, event tags, the time
//! control, the number of games, openings and the policies for faults.

use shakmaty::{Chess, Move};

use crate::clock::{LineSettings, TimeControl};
use crate::referee::adjudication::{DrawRule, ResignRule};
use crate::referee::client::ByClient;
use crate::stats::sprt::Sprt;

/// What to do with a draw claim that the rules do not support.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FalseClaim {
    /// The claimant loses (Termination "rules infraction").
    #[default]
    Forfeit,
    /// The claim is rejected with a notice; a move given with it is played.
    PlayOn,
}

/// What to do with an illegal or unparsable move, a reply without a move,
/// or an echoed position that stays wrong after the resends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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

/// What a client's `refreq fault;` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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

/// The whole configuration of a referee session.
#[derive(Debug, Clone)]
pub struct Settings {
    /// PGN Event, Site and Date (`yyyy.mm.dd`; the core never reads the
    /// clock, so the caller supplies the date).
    pub event: String,
    pub site: String,
    pub date: String,
    /// PGN Round; `None` numbers the rounds by game (1, 2, 3, ...).
    pub round: Option<String>,
    /// Names of clients A and B given by the supervisor; `None` takes the
    /// client's `tcsi` name, else the port name.
    pub names: ByClient<Option<String>>,
    /// The port names of clients A and B (for messages and default names).
    pub ports: ByClient<String>,
    /// The line settings of each client's port, for the wire-time credit.
    pub lines: ByClient<LineSettings>,
    pub time_control: TimeControl,
    /// Number of games in the match (at least 1).
    pub games: u32,
    /// Alternate colours each game (A has White in game 1).
    pub swap_colors: bool,
    /// Starting points; empty means the initial position for every game.
    pub openings: Vec<Start>,
    /// Shuffle the openings with this seed; `None` keeps file order.
    pub openings_seed: Option<u64>,
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
    /// Stop the match when this test on the game pairs accepts H0 or H1.
    pub sprt: Option<Sprt>,
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
            time_control: TimeControl::Untimed,
            games: 1,
            swap_colors: true,
            openings: Vec::new(),
            openings_seed: None,
            reset_delay_ms: 5_000,
            conclude_delay_ms: 5_000,
            false_claim: FalseClaim::Forfeit,
            illegal_move: IllegalMove::Forfeit,
            client_fault: ClientFault::Pause,
            max_resends: 2,
            resend_after_ms: 0,
            sprt: None,
            max_moves: None,
            draw_adjudication: None,
            resign_adjudication: None,
            syzygy: None,
        }
    }
}
