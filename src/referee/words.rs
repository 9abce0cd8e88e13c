//! The one place where the referee's events become words: the sentences of
//! the transcript, the application log and the display's log pane
//! ([`sentence`]), the lines headless output prints ([`headline`]), those
//! `argus watch` prints ([`watch_line`]), and the PGN's final comments.
//! Pure: no I/O, no state. Every sentence is stripped of control
//! characters, so a client's name or line can never reach a terminal or a
//! file raw; a web page renders the events themselves (as JSON) and
//! escapes what it shows.

use std::fmt;

use shakmaty::Color;

use crate::epd::line_check;
use crate::game::{DrawClaim, SanErrorKind};
use crate::referee::adjudication::Adjudged;
use crate::referee::client::ClientId;
use crate::referee::eval::BadEval;
use crate::referee::event::{
    AgainCause, CommandRefusal, Ending, Event, FaultOutcome, GameOver, MatchSummary, Offence,
    PauseReason, Problem, Rejection,
};
use crate::referee::io::{Command, Verdict};
use crate::referee::tablebase::TablebaseOutcome;
use crate::text::strip_control;

/// How much of a refused line a sentence quotes.
const QUOTE_LIMIT: usize = 80;

/// The event as one sentence for the log: the transcript, the application
/// log and the display's log pane.
pub fn sentence(e: &Event) -> String {
    strip_control(&said(e))
}

/// The line headless output prints for the event, if it prints one: a
/// game's start and end, the match's end, faults and links.
pub fn headline(e: &Event) -> Option<String> {
    let line = match e {
        Event::GameStarted {
            game, white, black, ..
        } => format!("game {game}: {white} (White) vs {black} (Black)"),
        Event::GameOver(g) => format!(
            "game {}: {} {} ({})",
            g.game_number,
            g.result.as_str(),
            g.termination.as_str(),
            g.ending
        ),
        Event::SessionOver(s) => s.to_string(),
        e if matches!(
            e.kind(),
            crate::referee::EventKind::Fault | crate::referee::EventKind::Link
        ) =>
        {
            said(e)
        }
        _ => return None,
    };
    Some(strip_control(&line))
}

/// The line `argus watch` prints for the event, if it prints one: a
/// game's start, every move, a game's end and the match's end.
pub fn watch_line(e: &Event) -> Option<String> {
    match e {
        Event::GameStarted { .. } => headline(e),
        Event::MoveMade { .. } | Event::GameOver(_) | Event::SessionOver(_) => Some(sentence(e)),
        _ => None,
    }
}

/// `White` or `Black`.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A line quoted in a sentence: control characters removed, cut to a
/// readable length.
pub fn quote(text: &str) -> String {
    let clean = strip_control(text);
    if clean.chars().count() > QUOTE_LIMIT {
        let cut: String = clean.chars().take(QUOTE_LIMIT).collect();
        format!("\"{cut}...\" ({} bytes)", text.len())
    } else {
        format!("\"{clean}\"")
    }
}

/// `game 3 of 10`, or `game 3` when the match has no fixed length
/// (`games` is `u32::MAX`).
pub fn game_label(number: u32, games: u32) -> String {
    if games == u32::MAX {
        format!("game {number}")
    } else {
        format!("game {number} of {games}")
    }
}

/// The PGN's final comment of a game a bad reply cost: what was played
/// (if a move was given) and what was wrong.
pub fn forfeit_comment(color: Color, move_text: Option<&str>, offence: &Offence) -> String {
    let who = color_name(color);
    match move_text {
        Some(m) => format!("{who} played {}: {offence}", quote(m)),
        None => format!("{who}: {offence}"),
    }
}

/// The PGN's final comment of a valid draw claim made with a move (FIDE
/// 9.2: the move is written down but not played).
pub fn claim_comment(color: Color, san: &str) -> String {
    format!("{} claimed a draw with the move {san}", color_name(color))
}

/// The PGN's final comment of a false draw claim that cost the game.
pub fn false_claim_comment(color: Color) -> String {
    format!("{} claimed a draw falsely", color_name(color))
}

/// The sentence, before control characters are stripped. The match is
/// exhaustive, so a new event must be given a group (and words there);
/// each group is said by its own function below, the longer sentences by
/// the functions after them. An event routed to a group that has no words
/// for it is a bug: the tests (debug builds) stop on it; a release build
/// says the event's name rather than stop a match.
fn said(e: &Event) -> String {
    said_by_group(e).unwrap_or_else(|| {
        if cfg!(debug_assertions) {
            panic!("an event was routed to a group that has no words for it: {e:?}");
        }
        serde_json::to_value(e)
            .ok()
            .and_then(|v| v["event"].as_str().map(|n| n.replace('_', " ")))
            .unwrap_or_else(|| "an event".into())
    })
}

/// The group's words for `e`, if its group has them.
fn said_by_group(e: &Event) -> Option<String> {
    use Event::*;
    match e {
        GameStarted { .. }
        | MoveMade { .. }
        | DrawOffered { .. }
        | GameOver(_)
        | SessionOver(_)
        | SprtDecided { .. }
        | WaitingForSignOn
        | Restarted
        | Supervisor { .. }
        | CommandRefused { .. } => match_said(e),
        SignedOn { .. }
        | SignedOff { .. }
        | ClientFault { .. }
        | Rejected { .. }
        | LineDropped { .. }
        | LineIgnored { .. }
        | LinkLost { .. }
        | LinkBack { .. }
        | LinkRefused { .. }
        | SilenceResend { .. }
        | Resync { .. } => client_said(e),
        EchoResent { .. }
        | AskedAgain { .. }
        | AskedAgainAtOnce { .. }
        | NakUnanswered { .. }
        | FaultPaused { .. }
        | Forfeit { .. }
        | DrawAcceptIgnored { .. }
        | DrawDeclined { .. }
        | FalseClaimMateStands { .. }
        | FalseClaimRejected { .. }
        | EvalProblem { .. }
        | ReplyHeld { .. } => reply_said(e),
    }
}

/// Games, the match, the referee and the supervisor.
fn match_said(e: &Event) -> Option<String> {
    use Event::*;
    Some(match e {
        GameStarted {
            game,
            games,
            white,
            black,
        } => format!(
            "{}: {white} (White) vs {black} (Black)",
            game_label(*game, *games)
        ),
        MoveMade {
            game,
            number,
            color,
            san,
            ..
        } => move_made(*game, *number, *color, san),
        DrawOffered { color, san } => format!("{} offers a draw with {san}", color_name(*color)),
        GameOver(g) => game_over(g),
        SessionOver(s) => s.to_string(),
        SprtDecided {
            hypothesis,
            llr,
            lower_bound: lo,
            upper_bound: hi,
        } => format!(
            "SPRT: {} accepted (LLR {llr:.2}, bounds {lo:.2} to {hi:.2}); the match stops",
            hypothesis.as_str()
        ),
        WaitingForSignOn => "waiting for both clients to sign on before the next game".into(),
        Restarted => {
            "the referee restarted from its journal; bringing the clients back in line".into()
        }
        Supervisor { command } => format!("supervisor: {command}"),
        CommandRefused { why } => why.to_string(),
        _ => return None,
    })
}

/// A client: signing on and off, its lines and its link.
fn client_said(e: &Event) -> Option<String> {
    use Event::*;
    Some(match e {
        SignedOn {
            client,
            name,
            again,
            line_check,
        } => signed_on(*client, name, *again, *line_check),
        SignedOff {
            client,
            name,
            clock_running,
        } => signed_off(*client, name, *clock_running),
        ClientFault {
            client,
            name,
            outcome,
        } => format!("{}{outcome}", client_fault(*client, name)),
        Rejected { client, why, line } => format!("{client}: rejected ({why}): {}", quote(line)),
        LineDropped { client, reason } => format!("{client}: line dropped: {reason}"),
        LineIgnored { client, line } => format!(
            "{client}: line after the session ended ignored: {}",
            quote(line)
        ),
        LinkLost { client, reason } => format!("{client}: link lost: {reason}"),
        LinkBack { client } => format!("{client}: link back"),
        LinkRefused {
            client,
            seq,
            resync,
        } => link_refused(*client, *seq, *resync),
        SilenceResend { client, after_ms } => format!(
            "{client}: no reply for {:.0} s; sending the respond again",
            *after_ms as f64 / 1000.0
        ),
        Resync { client } => {
            format!("{client}: bringing the client back in line (reset, inform, execute)")
        }
        _ => return None,
    })
}

/// A reply's troubles and what the referee did.
fn reply_said(e: &Event) -> Option<String> {
    use Event::*;
    Some(match e {
        EchoResent {
            client,
            diff,
            resend,
            max,
            line,
        } => format!(
            "{client}: echoed position differs ({diff}); resending the position ({resend} of {max}): {}",
            quote(line)
        ),
        AskedAgain {
            client,
            problem,
            resend,
            max,
        } => format!("{client}: {problem}; asking again ({resend} of {max})"),
        AskedAgainAtOnce { client, cause } => format!("{client}: asking again {cause}"),
        NakUnanswered { client } => {
            format!("{client}: a record arrived damaged (Anak); nothing to send again")
        }
        FaultPaused { client, offence } => {
            format!("{client}: {offence}; game paused for the supervisor")
        }
        Forfeit { client, offence } => format!("{client}: {offence}"),
        DrawAcceptIgnored { client } => {
            format!("{client}: draw_accept without an open offer ignored")
        }
        DrawDeclined { client } => format!("{client}: draw offer declined"),
        FalseClaimMateStands { client } => {
            format!("{client}: false draw claim with a mating move; the mate stands")
        }
        FalseClaimRejected { client, color } => format!(
            "{client}: false draw claim by {} rejected; play goes on",
            color_name(*color)
        ),
        EvalProblem {
            client,
            problem,
            san,
        } => format!("{client}: {problem} (the move {san} stands)"),
        ReplyHeld { client } => {
            format!("{client}: reply arrived during the pause; it is held and played at resume")
        }
        _ => return None,
    })
}

/// `game 3: 12. Nf3` or `game 3: 12... Nf6`.
fn move_made(game: u32, number: u32, color: Color, san: &str) -> String {
    let dots = if color == Color::White { "." } else { "..." };
    format!("game {game}: {number}{dots} {san}")
}

fn signed_off(client: ClientId, name: &str, clock_running: bool) -> String {
    let then = if clock_running {
        "; its clock keeps running"
    } else {
        ""
    };
    format!("{client}: {name} signed off{then}")
}

fn signed_on(client: ClientId, name: &str, again: bool, line_check: bool) -> String {
    format!(
        "{client}: {name} signed on{}{}",
        if again { " again" } else { "" },
        if line_check {
            ", its lines checked (Acrc)"
        } else {
            ""
        }
    )
}

fn link_refused(client: ClientId, seq: u64, resync: bool) -> String {
    format!(
        "{client}: the link refused records from #{seq} on (its queue is full){}",
        if resync {
            "; bringing the client back in line"
        } else {
            ""
        }
    )
}

/// `game N: 1-0 (White checkmated)`: a game's end in the log.
fn game_over(g: &GameOver) -> String {
    format!(
        "game {}: {} ({})",
        g.game_number,
        g.result.as_str(),
        g.ending
    )
}

/// A game adjudicated by the endgame tables.
fn tablebase(f: &mut fmt::Formatter<'_>, m: &str, outcome: TablebaseOutcome) -> fmt::Result {
    match outcome {
        TablebaseOutcome::Win(c) => write!(
            f,
            "{} wins by adjudication: {m} is won in the Syzygy tables",
            color_name(c)
        ),
        TablebaseOutcome::Draw => {
            write!(f, "draw by adjudication: {m} is drawn in the Syzygy tables")
        }
        TablebaseOutcome::CursedWin(c) => write!(
            f,
            "draw by adjudication: {m} is won for {} in the Syzygy tables, but not \
             before the 50-move rule",
            color_name(c)
        ),
    }
}

fn client_fault(client: ClientId, name: &str) -> String {
    format!("{client}: {name} reported a fault (refreq fault)")
}

fn claim_name(c: DrawClaim) -> &'static str {
    match c {
        DrawClaim::ThreefoldRepetition => "threefold repetition",
        DrawClaim::FiftyMoves => "fifty-move rule",
        DrawClaim::InsufficientMaterial => "insufficient material",
    }
}

fn half_points(h: u32) -> String {
    if h.is_multiple_of(2) {
        format!("{}", h / 2)
    } else {
        format!("{}.5", h / 2)
    }
}

impl fmt::Display for Ending {
    /// Why the game ended, as the log and the PGN's readers say it:
    /// `Black checkmated`, `White forfeits: illegal move "Ke7": ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Checkmate { loser } => write!(f, "{} checkmated", color_name(*loser)),
            Ending::Stalemate => f.write_str("stalemate"),
            Ending::DeadPosition => f.write_str("dead position (insufficient material)"),
            Ending::SeventyFiveMoves => f.write_str("75-move rule"),
            Ending::FivefoldRepetition => f.write_str("fivefold repetition"),
            Ending::Resigned { color } => write!(f, "{} resigned", color_name(*color)),
            Ending::DrawAgreed { accepted_by } => write!(
                f,
                "drawn by agreement ({} accepted the offer)",
                color_name(*accepted_by)
            ),
            Ending::DrawClaimed { by, claim } => write!(
                f,
                "draw claimed by {}: {}",
                color_name(*by),
                claim_name(*claim)
            ),
            Ending::FalseClaim { by } => write!(f, "{} made a false draw claim", color_name(*by)),
            Ending::Flag {
                color,
                drawn: false,
            } => write!(f, "{} lost on time", color_name(*color)),
            Ending::Flag { color, drawn: true } => write!(
                f,
                "{}'s flag fell, but {} has no mating material",
                color_name(*color),
                color_name(!*color)
            ),
            Ending::Forfeit { color, offence } => {
                write!(f, "{} forfeits: {offence}", color_name(*color))
            }
            Ending::Verdict { verdict } => f.write_str(match verdict {
                Verdict::WhiteWins => "White wins by adjudication",
                Verdict::BlackWins => "Black wins by adjudication",
                Verdict::Draw => "drawn by adjudication",
            }),
            Ending::Rule(rule) => rule.fmt(f),
            Ending::Tablebase { material, outcome } => tablebase(f, material, *outcome),
            Ending::Aborted => f.write_str("aborted by the supervisor"),
            Ending::SessionEnded => f.write_str("the session was ended by the supervisor"),
        }
    }
}

impl fmt::Display for Adjudged {
    /// Why an adjudication rule ended the game, and which option set it:
    /// `draw by adjudication: 80 moves played (--max-moves)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Adjudged::MaxMoves { moves } => write!(
                f,
                "draw by adjudication: {} played (--max-moves)",
                moves_said(moves)
            ),
            Adjudged::Draw { score, moves } => write!(
                f,
                "draw by adjudication: both scores within {score} cp of 0 for {} \
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

impl fmt::Display for MatchSummary {
    /// `match over: Alpha 2.5 - 1.5 Beta (4 games with a result)`, and the
    /// SPRT's decision if it made one. Names are stripped of control
    /// characters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let played = self.games_with_result;
        write!(
            f,
            "match over: {} {} - {} {} ({played} game{} with a result)",
            strip_control(&self.names[0]),
            half_points(self.score_halves[0]),
            half_points(self.score_halves[1]),
            strip_control(&self.names[1]),
            if played == 1 { "" } else { "s" }
        )?;
        if let Some(h) = self.sprt {
            write!(f, "; SPRT: {} accepted", h.as_str())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::referee::event::EventKind;
    use crate::referee::io::{GameResult, Termination};
    use crate::stats::sprt::Hypothesis;

    fn over(ending: Ending) -> Event {
        Event::GameOver(GameOver {
            game_number: 4,
            result: GameResult::Win(Color::White),
            termination: Termination::Normal,
            ending,
            pgn: Arc::default(),
        })
    }

    #[test]
    fn a_game_over_reads_as_the_docs_show_it() {
        let e = over(Ending::Resigned {
            color: Color::Black,
        });
        assert_eq!(sentence(&e), "game 4: 1-0 (Black resigned)");
        assert_eq!(
            headline(&e).as_deref(),
            Some("game 4: 1-0 normal (Black resigned)")
        );
        assert_eq!(watch_line(&e), Some(sentence(&e)));
        let offence = Offence {
            problem: Problem::BadMove {
                kind: SanErrorKind::Illegal,
                text: "O-O".into(),
                why: "Black cannot castle kingside here".into(),
            },
            asked_again: 0,
        };
        let forfeit = Ending::Forfeit {
            color: Color::Black,
            offence,
        };
        assert_eq!(
            forfeit.to_string(),
            "Black forfeits: illegal move \"O-O\": Black cannot castle kingside here"
        );
        let claim = Ending::DrawClaimed {
            by: Color::Black,
            claim: DrawClaim::ThreefoldRepetition,
        };
        assert_eq!(
            claim.to_string(),
            "draw claimed by Black: threefold repetition"
        );
    }

    #[test]
    fn games_and_moves_read_as_watch_prints_them() {
        let started = Event::GameStarted {
            game: 1,
            games: 2,
            white: "alpha".into(),
            black: "beta".into(),
        };
        assert_eq!(
            sentence(&started),
            "game 1 of 2: alpha (White) vs beta (Black)"
        );
        assert_eq!(
            watch_line(&started).as_deref(),
            Some("game 1: alpha (White) vs beta (Black)")
        );
        let moved = |color, number| Event::MoveMade {
            game: 1,
            ply: 3,
            number,
            color,
            san: "Kc7+".into(),
            charged_ms: None,
        };
        assert_eq!(
            watch_line(&moved(Color::White, 12)).as_deref(),
            Some("game 1: 12. Kc7+")
        );
        assert_eq!(
            watch_line(&moved(Color::Black, 1)).as_deref(),
            Some("game 1: 1... Kc7+")
        );
        assert!(
            !moved(Color::White, 1).logged(),
            "moves stay out of the log"
        );
        assert_eq!(headline(&moved(Color::White, 1)), None);
    }

    #[test]
    fn the_summary_counts_halves_and_says_the_sprt() {
        let mut s = MatchSummary {
            names: ["random mover".into(), "greedy mover".into()],
            score_halves: [3, 3],
            games_with_result: 3,
            sprt: None,
        };
        assert_eq!(
            s.to_string(),
            "match over: random mover 1.5 - 1.5 greedy mover (3 games with a result)"
        );
        s.games_with_result = 1;
        s.sprt = Some(Hypothesis::H1);
        assert!(
            s.to_string()
                .ends_with("(1 game with a result); SPRT: H1 accepted")
        );
    }

    #[test]
    fn client_strings_lose_their_control_characters() {
        let e = Event::SignedOn {
            client: ClientId::B,
            name: "Evil\x1b[2J\x07Bot".into(),
            again: true,
            line_check: true,
        };
        assert_eq!(
            sentence(&e),
            "B: Evil[2JBot signed on again, its lines checked (Acrc)"
        );
        let lost = Event::LinkLost {
            client: ClientId::A,
            reason: "gone\r\n\x1b]0;pwned\x07".into(),
        };
        assert_eq!(lost.kind(), EventKind::Link);
        assert_eq!(
            headline(&lost).as_deref(),
            Some("A: link lost: gone]0;pwned")
        );
        // A long refused line is quoted cut, with its length.
        let e = Event::Rejected {
            client: ClientId::A,
            why: Rejection::NoRefreq,
            line: "x".repeat(100),
        };
        let s = sentence(&e);
        assert!(
            s.ends_with(&format!("{}...\" (100 bytes)", "x".repeat(80))),
            "{s}"
        );
    }

    #[test]
    fn offences_say_how_often_the_client_was_asked_again() {
        let offence = Offence {
            problem: Problem::NoMove,
            asked_again: 2,
        };
        let e = Event::Forfeit {
            client: ClientId::A,
            offence: offence.clone(),
        };
        assert_eq!(
            sentence(&e),
            "A: reply without a move (sm) while a legal move exists (asked again 2 times)"
        );
        assert_eq!(
            forfeit_comment(Color::White, Some("Ke7"), &offence),
            "White played \"Ke7\": reply without a move (sm) while a legal move exists \
             (asked again 2 times)"
        );
        let pause = PauseReason::Offence {
            client: ClientId::A,
            offence,
        };
        assert!(pause.to_string().starts_with("A: reply without a move"));
    }

    #[test]
    fn events_serialise_as_tagged_json_without_the_pgn() {
        let e = over(Ending::Checkmate {
            loser: Color::Black,
        });
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "event": "game_over",
                "game_number": 4,
                "result": "1-0",
                "termination": "normal",
                "ending": { "ending": "checkmate", "loser": "black" },
            })
        );
        let cmd = Event::Supervisor {
            command: Command::RestartClient(ClientId::B),
        };
        assert_eq!(
            serde_json::to_value(&cmd).unwrap(),
            serde_json::json!({
                "event": "supervisor",
                "command": { "command": "restart_client", "arg": "B" },
            })
        );
        // An adjudication says which rule and what it found.
        let rule = over(Ending::Rule(Adjudged::Resign {
            winner: Color::White,
            score: 400,
            moves: 3,
            two_sided: true,
        }));
        assert_eq!(
            serde_json::to_value(&rule).unwrap()["ending"],
            serde_json::json!({
                "ending": "rule",
                "rule": "resign",
                "winner": "white",
                "score": 400,
                "moves": 3,
                "two_sided": true,
            })
        );
        // Client strings are data, kept as they came.
        let dropped = Event::LineDropped {
            client: ClientId::A,
            reason: "<b>".into(),
        };
        assert_eq!(
            serde_json::to_value(&dropped).unwrap(),
            serde_json::json!({ "event": "line_dropped", "client": "A", "reason": "<b>" })
        );
    }
}
