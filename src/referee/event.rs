//! What the core tells the world happened: typed facts with their data,
//! never sentences. [`crate::referee::Output::Event`] carries them;
//! `referee::words` turns them into the words the transcript, the
//! application log, the display, headless output and `argus watch` show,
//! and the web view serialises them as JSON (`serde::Serialize`). Strings
//! a client sent (names, lines, reasons a link gave) are kept here as
//! data, raw: whoever shows them strips or escapes them.

use std::sync::Arc;

use serde::{Serialize, Serializer};
use shakmaty::Color;

use crate::game::{DrawClaim, SanErrorKind};
use crate::record::pgn::PgnGame;
use crate::referee::adjudication::Adjudged;
use crate::referee::client::ClientId;
use crate::referee::eval::BadEval;
use crate::referee::messages::{Command, GameResult, Termination, Verdict};
use crate::referee::tablebase::TablebaseOutcome;

/// How notable an event is (the log's level, the display's colour).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    Info,
    Warning,
    Fault,
    /// A line from a client that was refused or dropped.
    Rejected,
    /// A link lost or back.
    Link,
}

/// Something that happened in the session.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A game has begun (after `reset`, at `inform`). The core says game 1
    /// of 1; a board's writers say the event's `game` of `games`
    /// (`u32::MAX`: no fixed number, as in the demo).
    GameStarted {
        game: u32,
        games: u32,
        white: String,
        black: String,
    },
    /// A move was played and accepted; the live PGN has changed.
    MoveMade {
        game: u32,
        /// 1-based ply in the game.
        ply: usize,
        /// The move's number as a game score writes it (`12` in `12. Nf3`).
        number: u32,
        #[serde(serialize_with = "color_str")]
        color: Color,
        san: String,
        /// Time charged for the move, if the game has clocks.
        charged_ms: Option<u64>,
    },
    /// The mover offered a draw with its move.
    DrawOffered {
        #[serde(serialize_with = "color_str")]
        color: Color,
        san: String,
    },
    GameOver(GameOver),
    /// The session has ended (its game over and concluded, or the
    /// supervisor's order): nothing more is sent.
    SessionOver,

    /// `refreq sign_on`; `again` when it had signed on before.
    SignedOn {
        client: ClientId,
        name: String,
        again: bool,
        line_check: bool,
    },
    /// `refreq sign_off`; `clock_running` when it was on move.
    SignedOff {
        client: ClientId,
        name: String,
        clock_running: bool,
    },
    /// `refreq fault`, and what came of it.
    ClientFault {
        client: ClientId,
        name: String,
        outcome: FaultOutcome,
    },

    /// A line refused, and why; `line` is the line as it came.
    Rejected {
        client: ClientId,
        why: Rejection,
        line: String,
    },
    /// A line the framer dropped (too long, bytes outside ASCII).
    LineDropped {
        client: ClientId,
        reason: String,
    },
    /// A line after the session ended.
    LineIgnored {
        client: ClientId,
        line: String,
    },

    /// The echoed position differs: the position goes out again.
    EchoResent {
        client: ClientId,
        diff: String,
        resend: u32,
        max: u32,
        line: String,
    },
    /// A bad reply; the client is asked again (counted against the turn).
    AskedAgain {
        client: ClientId,
        problem: Problem,
        resend: u32,
        max: u32,
    },
    /// The respond is sent again at once (after a damaged line or `Anak`).
    AskedAgainAtOnce {
        client: ClientId,
        cause: AgainCause,
    },
    /// An `Anak` while nothing waits to be sent again.
    NakUnanswered {
        client: ClientId,
    },
    /// A bad reply under `--illegal fault`: the game is paused.
    FaultPaused {
        client: ClientId,
        offence: Offence,
    },
    /// A bad reply costs the game (the `GameOver` follows).
    Forfeit {
        client: ClientId,
        offence: Offence,
    },
    /// `draw_accept` with no open offer.
    DrawAcceptIgnored {
        client: ClientId,
    },
    /// `draw_reject` of an open offer.
    DrawDeclined {
        client: ClientId,
    },
    /// A false draw claim with a mating move: the mate stands.
    FalseClaimMateStands {
        client: ClientId,
    },
    /// A false draw claim under `--false-claim play-on`.
    FalseClaimRejected {
        client: ClientId,
        #[serde(serialize_with = "color_str")]
        color: Color,
    },
    /// Something in a reply's evaluation could not be read; the move stands.
    EvalProblem {
        client: ClientId,
        problem: BadEval,
        san: String,
    },
    /// A reply during a pause: held and played at resume.
    ReplyHeld {
        client: ClientId,
    },

    LinkLost {
        client: ClientId,
        reason: String,
    },
    LinkBack {
        client: ClientId,
    },
    /// The link refused the records from `seq` on (its queue was full);
    /// `resync` when the client is brought back in line for it.
    LinkRefused {
        client: ClientId,
        seq: u64,
        resync: bool,
    },
    /// No reply for `after_ms`: the respond goes out again.
    SilenceResend {
        client: ClientId,
        after_ms: u64,
    },
    /// A client is brought back in line (reset, inform, execute).
    Resync {
        client: ClientId,
    },
    /// The referee restarted from its journal.
    Restarted,
    /// The supervisor gave a command...
    Supervisor {
        command: Command,
    },
    /// ...that could not be carried out now.
    CommandRefused {
        why: CommandRefusal,
    },
}

impl Event {
    /// How notable the event is.
    pub fn kind(&self) -> EventKind {
        use Event::*;
        match self {
            GameStarted { .. }
            | MoveMade { .. }
            | DrawOffered { .. }
            | GameOver(_)
            | SessionOver
            | SignedOn { .. }
            | NakUnanswered { .. }
            | DrawDeclined { .. }
            | ReplyHeld { .. }
            | Resync { .. }
            | Restarted
            | Supervisor { .. } => EventKind::Info,
            SignedOff { .. }
            | EchoResent { .. }
            | AskedAgain { .. }
            | AskedAgainAtOnce { .. }
            | DrawAcceptIgnored { .. }
            | FalseClaimMateStands { .. }
            | FalseClaimRejected { .. }
            | EvalProblem { .. }
            | LinkRefused { .. }
            | SilenceResend { .. }
            | CommandRefused { .. } => EventKind::Warning,
            ClientFault { .. } | FaultPaused { .. } | Forfeit { .. } => EventKind::Fault,
            Rejected { .. } | LineDropped { .. } | LineIgnored { .. } => EventKind::Rejected,
            LinkLost { .. } | LinkBack { .. } => EventKind::Link,
        }
    }

    /// The client the event is about, if it is about one (its sentence
    /// then begins `A: ` or `B: `: [`crate::referee::words::naming_sides`]).
    pub fn client(&self) -> Option<ClientId> {
        match self {
            Event::SignedOn { client, .. }
            | Event::SignedOff { client, .. }
            | Event::ClientFault { client, .. }
            | Event::Rejected { client, .. }
            | Event::LineDropped { client, .. }
            | Event::LineIgnored { client, .. }
            | Event::EchoResent { client, .. }
            | Event::AskedAgain { client, .. }
            | Event::AskedAgainAtOnce { client, .. }
            | Event::NakUnanswered { client, .. }
            | Event::FaultPaused { client, .. }
            | Event::Forfeit { client, .. }
            | Event::DrawAcceptIgnored { client, .. }
            | Event::DrawDeclined { client, .. }
            | Event::FalseClaimMateStands { client, .. }
            | Event::FalseClaimRejected { client, .. }
            | Event::EvalProblem { client, .. }
            | Event::ReplyHeld { client, .. }
            | Event::LinkLost { client, .. }
            | Event::LinkBack { client, .. }
            | Event::LinkRefused { client, .. }
            | Event::SilenceResend { client, .. }
            | Event::Resync { client, .. } => Some(*client),
            _ => None,
        }
    }

    /// Whether the event goes to the log (the transcript, the application
    /// log, the display's log pane): every one but a move, which the game
    /// score and the board show.
    pub fn logged(&self) -> bool {
        !matches!(self, Event::MoveMade { .. })
    }
}

/// A game that has ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameOver {
    pub game_number: u32,
    pub result: GameResult,
    pub termination: Termination,
    /// Why it ended.
    pub ending: Ending,
    /// The moves the clients played in it (an opening's moves not
    /// counted).
    pub moves_played: usize,
    /// The finished game, ready to be written (shared: events are kept
    /// for the display and copied into every snapshot).
    #[serde(skip)]
    pub pgn: Arc<PgnGame>,
}

impl GameOver {
    /// Whether it is a game to record: it has a result, or the clients
    /// played in it. A game ended without a result before either client
    /// moved (the session was quit or the game aborted between its reset
    /// and its first move) is not one: it is said in the log, but not
    /// written to the PGN or ChessBase files.
    pub fn is_a_game(&self) -> bool {
        self.result != GameResult::None || self.moves_played > 0
    }
}

/// Why a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "ending", rename_all = "snake_case")]
pub enum Ending {
    Checkmate {
        #[serde(serialize_with = "color_str")]
        loser: Color,
    },
    Stalemate,
    /// Neither side can mate (insufficient material).
    DeadPosition,
    SeventyFiveMoves,
    FivefoldRepetition,
    Resigned {
        #[serde(serialize_with = "color_str")]
        color: Color,
    },
    DrawAgreed {
        #[serde(serialize_with = "color_str")]
        accepted_by: Color,
    },
    DrawClaimed {
        #[serde(serialize_with = "color_str")]
        by: Color,
        claim: DrawClaim,
    },
    FalseClaim {
        #[serde(serialize_with = "color_str")]
        by: Color,
    },
    /// A flag fell; `drawn` when the opponent had no mating material.
    Flag {
        #[serde(serialize_with = "color_str")]
        color: Color,
        drawn: bool,
    },
    /// A bad reply cost the game.
    Forfeit {
        #[serde(serialize_with = "color_str")]
        color: Color,
        offence: Offence,
    },
    /// The supervisor's verdict.
    Verdict {
        verdict: Verdict,
    },
    /// An adjudication rule of the settings (`--draw-adjudication`,
    /// `--resign-adjudication`, `--max-moves`), with what it found.
    Rule(Adjudged),
    /// The endgame tables' verdict (`--syzygy`) on `material`.
    Tablebase {
        material: String,
        outcome: TablebaseOutcome,
    },
    /// The supervisor aborted the game.
    Aborted,
    /// The supervisor ended the session during the game.
    SessionEnded,
}

/// What was wrong with a reply that asked for a move and got none fit to
/// play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "problem", rename_all = "snake_case")]
pub enum Problem {
    /// The `sm` operand itself was bad (the record's error says how).
    BadSm { error: String },
    /// The move (as the client wrote it) could not be played.
    BadMove {
        kind: SanErrorKind,
        text: String,
        why: String,
    },
    /// No move while a legal move exists.
    NoMove,
    /// `draw_accept` with no offer open, and no move.
    AcceptWithoutOffer,
    /// A false draw claim with no move.
    FalseClaimWithoutMove,
    /// The echoed position still differed after `resends` resends.
    EchoDiffers { diff: String, resends: u32 },
    /// The game refused a move from its own legal list (cannot happen).
    Unplayable { error: String },
}

/// A [`Problem`] that costs the game or pauses it, with how many times
/// the client had been asked again before.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Offence {
    pub problem: Problem,
    pub asked_again: u32,
}

/// What came of a client's `refreq fault`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultOutcome {
    /// Play goes on (`--client-fault continue`).
    PlayGoesOn,
    /// The game is paused for the supervisor.
    Paused,
    /// No game in play: noted only.
    Noted,
}

/// Why a line was refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "rejection", rename_all = "snake_case")]
pub enum Rejection {
    NotEpd {
        error: String,
    },
    NoRefreq,
    /// The `refreq` value could not be read.
    BadRefreq {
        error: String,
    },
    NotSignedOn,
    /// The line's check (`Acrc`) was wrong.
    Damaged {
        why: String,
    },
    /// A client that checks its lines sent one without a check.
    Unchecked,
    NoGame,
    OutOfTurn,
    NotExpected,
    BeforeResync,
    LateReply,
    SecondReplyInPause,
}

/// Why the respond went out again at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AgainCause {
    DamagedLine,
    Nak,
}

/// Why the supervisor's command could not be carried out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "refusal", rename_all = "snake_case")]
pub enum CommandRefusal {
    NoGameToPause,
    AlreadyPaused,
    NotPaused,
    NoGameToAdjudicate,
    NoGameToAbort,
    NotSignedOn { client: ClientId },
}

/// Why the game is paused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "pause", rename_all = "snake_case")]
pub enum PauseReason {
    Supervisor,
    /// The client reported a fault (`refreq fault`).
    ClientFault {
        client: ClientId,
        name: String,
    },
    /// A bad reply under `--illegal fault`.
    Offence {
        client: ClientId,
        offence: Offence,
    },
}

/// A colour as `"white"` or `"black"` (shakmaty's `Color` has no serde
/// without a feature this crate does not need elsewhere).
pub(crate) fn color_str<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match c {
        Color::White => "white",
        Color::Black => "black",
    })
}
