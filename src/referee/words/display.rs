//! How the events' parts read: the endings, adjudications, problems,
//! offences and summaries as `Display`.

use std::fmt;

use super::{color_name, quote};
use crate::epd::line_check;
use crate::game::{DrawClaim, SanErrorKind};
use crate::referee::adjudication::Adjudged;
use crate::referee::client::ClientId;
use crate::referee::eval::BadEval;
use crate::referee::event::{
    AgainCause, CommandRefusal, Ending, FaultOutcome, Offence, PauseReason, Problem, Rejection,
};
use crate::referee::messages::{Command, Verdict};
use crate::referee::tablebase::TablebaseOutcome;

/// A game adjudicated by the endgame tables, in fastchess's words
/// (`Draw by adjudication: SyzygyTB`) with what the tables said.
fn tablebase(f: &mut fmt::Formatter<'_>, m: &str, outcome: TablebaseOutcome) -> fmt::Result {
    match outcome {
        TablebaseOutcome::Win(c) => write!(
            f,
            "{} wins by adjudication: SyzygyTB ({m} is won in the tables)",
            color_name(c)
        ),
        TablebaseOutcome::Draw => {
            write!(
                f,
                "Draw by adjudication: SyzygyTB ({m} is drawn in the tables)"
            )
        }
        TablebaseOutcome::CursedWin(c) => write!(
            f,
            "Draw by adjudication: SyzygyTB ({m} is won for {} in the tables, but not \
             before the 50-move rule)",
            color_name(c)
        ),
    }
}

pub(super) fn client_fault(client: ClientId, name: &str) -> String {
    format!("{client}: {name} reported a fault (refreq fault)")
}

/// A claimable draw as cutechess-cli says a draw by it.
fn claim_name(c: DrawClaim) -> &'static str {
    match c {
        DrawClaim::ThreefoldRepetition => "Draw by 3-fold repetition",
        DrawClaim::FiftyMoves => "Draw by fifty moves rule",
        DrawClaim::InsufficientMaterial => "Draw by insufficient mating material",
    }
}

impl fmt::Display for Ending {
    /// How the game ended, in cutechess-cli's words (its PGN's closing
    /// comment and its result lines), with argus's detail after a colon:
    /// `Black mates`, `White resigns`, `Draw by 3-fold repetition`,
    /// `White loses on time`, `Black forfeits: illegal move "Ke7": ...`,
    /// `Draw by adjudication: SyzygyTB (KPvK is drawn in the tables)`.
    /// The log, the console, the board, the web page and the PGN's
    /// closing comment all say this.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Checkmate { loser } => write!(f, "{} mates", color_name(!*loser)),
            Ending::Stalemate => f.write_str("Draw by stalemate"),
            Ending::DeadPosition => f.write_str("Draw by insufficient mating material"),
            Ending::SeventyFiveMoves => f.write_str("Draw by 75-move rule"),
            Ending::FivefoldRepetition => f.write_str("Draw by 5-fold repetition"),
            Ending::Resigned { color } => write!(f, "{} resigns", color_name(*color)),
            Ending::DrawAgreed { accepted_by } => write!(
                f,
                "Draw by agreement: {} accepted the offer",
                color_name(*accepted_by)
            ),
            Ending::DrawClaimed { by, claim } => {
                write!(f, "{}: claimed by {}", claim_name(*claim), color_name(*by))
            }
            Ending::FalseClaim { by } => {
                write!(f, "{} makes a false draw claim", color_name(*by))
            }
            Ending::Flag {
                color,
                drawn: false,
            } => write!(f, "{} loses on time", color_name(*color)),
            Ending::Flag { color, drawn: true } => write!(
                f,
                "Draw by timeout: {}'s flag fell, but {} has no mating material",
                color_name(*color),
                color_name(!*color)
            ),
            Ending::Forfeit { color, offence } => {
                write!(f, "{} forfeits: {offence}", color_name(*color))
            }
            Ending::Verdict { verdict } => f.write_str(match verdict {
                Verdict::WhiteWins => "White wins by adjudication: the supervisor's verdict",
                Verdict::BlackWins => "Black wins by adjudication: the supervisor's verdict",
                Verdict::Draw => "Draw by adjudication: the supervisor's verdict",
            }),
            Ending::Rule(rule) => rule.fmt(f),
            Ending::Tablebase { material, outcome } => tablebase(f, material, *outcome),
            Ending::Aborted => f.write_str("No result: aborted by the supervisor"),
            Ending::SessionEnded => {
                f.write_str("No result: the session was ended by the supervisor")
            }
        }
    }
}

impl fmt::Display for Adjudged {
    /// Why an adjudication rule ended the game, and which option set it:
    /// `Draw by adjudication: 80 moves played (--max-moves)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Adjudged::MaxMoves { moves } => write!(
                f,
                "Draw by adjudication: {} played (--max-moves)",
                moves_said(moves)
            ),
            Adjudged::Draw { score, moves } => write!(
                f,
                "Draw by adjudication: both scores within {score} cp of 0 for {} \
                 (--draw-adjudication)",
                moves_said(moves)
            ),
            Adjudged::Resign {
                winner,
                score,
                moves,
                two_sided,
            } => {
                let (w, l) = (color_name(winner), color_name(!winner));
                write!(
                    f,
                    "{w} wins by adjudication: {l}'s score at or below -{score} cp for {}",
                    moves_said(moves)
                )?;
                if two_sided {
                    write!(f, " and {w}'s at or above +{score}")?;
                }
                f.write_str(" (--resign-adjudication)")
            }
        }
    }
}

impl fmt::Display for BadEval {
    /// What was wrong and what was left out: `acd: ...; the depth left out`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadEval::IllegalPosition => {
                f.write_str("ce -32768 (an illegal position) is no evaluation")
            }
            BadEval::Ce { error } => write!(f, "{error}; no evaluation kept"),
            BadEval::Depth { error } => write!(f, "{error}; the depth left out"),
            BadEval::Nodes { error } => write!(f, "{error}; the node count left out"),
            BadEval::Seldepth { error } => write!(f, "{error}; the selective depth left out"),
            BadEval::Nps { error } => write!(f, "{error}; the speed left out"),
        }
    }
}

/// "1 move", "2 moves".
fn moves_said(n: u32) -> String {
    if n == 1 {
        "1 move".into()
    } else {
        format!("{n} moves")
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::BadSm { error } | Problem::Unplayable { error } => f.write_str(error),
            Problem::BadMove { kind, text, why } => {
                let kind = match kind {
                    SanErrorKind::Unparsable => "unparsable",
                    SanErrorKind::Illegal => "illegal",
                    SanErrorKind::Ambiguous => "ambiguous",
                };
                write!(f, "{kind} move {}: {why}", quote(text))
            }
            Problem::NoMove => f.write_str("reply without a move (sm) while a legal move exists"),
            Problem::AcceptWithoutOffer => {
                f.write_str("draw_accept without an open offer, and no move")
            }
            Problem::FalseClaimWithoutMove => f.write_str("false draw claim without a move"),
            Problem::EchoDiffers { diff, resends } => write!(
                f,
                "echoed position still differs after {resends} resends ({diff})"
            ),
        }
    }
}

impl fmt::Display for Offence {
    /// The problem, and how many times the client was asked again first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.asked_again {
            0 => write!(f, "{}", self.problem),
            n => write!(f, "{} (asked again {n} times)", self.problem),
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::NotEpd { error } => write!(f, "not an EPD record ({error})"),
            Rejection::NoRefreq => f.write_str("record without refreq"),
            Rejection::BadRefreq { error } => f.write_str(error),
            Rejection::NotSignedOn => f.write_str("client has not signed on"),
            Rejection::Damaged { why } => write!(f, "damaged line: {why}"),
            Rejection::Unchecked => write!(
                f,
                "damaged line: no {} check on a line of a client that checks its lines",
                line_check::OPCODE
            ),
            Rejection::NoGame => f.write_str("reply while no game is in progress"),
            Rejection::OutOfTurn => f.write_str("reply out of turn"),
            Rejection::NotExpected => f.write_str("reply while no reply is expected"),
            Rejection::BeforeResync => {
                f.write_str("reply before the client was brought back in line")
            }
            Rejection::LateReply => {
                f.write_str("late reply to an earlier respond (its position is no longer current)")
            }
            Rejection::SecondReplyInPause => {
                f.write_str("a second reply during the pause (the first is held for the resume)")
            }
        }
    }
}

impl fmt::Display for FaultOutcome {
    /// What follows a client's fault report: the text after its sentence.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FaultOutcome::PlayGoesOn => "; play goes on (client faults do not pause this match)",
            FaultOutcome::Paused => "; game paused for the supervisor",
            FaultOutcome::Noted => "",
        })
    }
}

impl fmt::Display for AgainCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AgainCause::DamagedLine => "after a damaged line",
            AgainCause::Nak => "its record arrived damaged (Anak)",
        })
    }
}

impl fmt::Display for CommandRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandRefusal::NoGameToPause => f.write_str("no game in progress to pause"),
            CommandRefusal::AlreadyPaused => f.write_str("the game is already paused"),
            CommandRefusal::NotPaused => f.write_str("the game is not paused"),
            CommandRefusal::NoGameToAdjudicate => f.write_str("no game in progress to adjudicate"),
            CommandRefusal::NoGameToAbort => f.write_str("no game in progress to abort"),
            CommandRefusal::NotSignedOn { client } => write!(
                f,
                "{client}: not signed on; it will be brought in line when it signs on"
            ),
        }
    }
}

impl fmt::Display for Command {
    /// What the supervisor asked for: `pause`, `adjudicate 1-0`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Pause => f.write_str("pause"),
            Command::Resume => f.write_str("resume"),
            Command::Adjudicate(Verdict::WhiteWins) => f.write_str("adjudicate 1-0"),
            Command::Adjudicate(Verdict::BlackWins) => f.write_str("adjudicate 0-1"),
            Command::Adjudicate(Verdict::Draw) => f.write_str("adjudicate 1/2-1/2"),
            Command::AbortGame => f.write_str("abort the game"),
            Command::RestartClient(c) => write!(f, "restart client {c}"),
            Command::EndSession => f.write_str("end the session"),
        }
    }
}

impl fmt::Display for PauseReason {
    /// Why the game is paused, as the display's status line says it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PauseReason::Supervisor => f.write_str("paused by the supervisor"),
            PauseReason::ClientFault { client, name } => f.write_str(&client_fault(*client, name)),
            PauseReason::Offence { client, offence } => write!(f, "{client}: {offence}"),
        }
    }
}
