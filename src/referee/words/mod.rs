//! The one place where the referee's events become words: the sentences of
//! the transcript, the application log and the display's log pane
//! ([`sentence`]), the lines headless output prints ([`headline`]), those
//! `argus watch` prints ([`watch_line`]), and the PGN's closing comment
//! ([`closing_comment`]).
//! Pure: no I/O, no state. Every sentence is stripped of control
//! characters, so a client's name or line can never reach a terminal or a
//! file raw; a web page renders the events themselves (as JSON) and
//! escapes what it shows. The groups' sentences are in [`sentences`], how
//! an event's parts read in [`display`].

mod display;
mod sentences;
#[cfg(test)]
mod tests;

use shakmaty::Color;

use crate::referee::ByClient;
use crate::referee::event::{Ending, Event};
use crate::text::strip_control;
use sentences::{client_said, match_said, reply_said};

/// The words for a client or player the session waits for, away since
/// the wall-clock time `since` (`HH:MM:SS`): `waiting for NAME since
/// HH:MM:SS`, for every text output and the web page, a match's and a
/// tournament's alike.
pub fn waiting_for(name: &str, since: &str) -> String {
    format!(
        "waiting for {} since {}",
        strip_control(name),
        strip_control(since)
    )
}

/// Whom the session waits for, in one line: each of [`waiting_for`]'s
/// words, joined.
pub fn waiting_line(each: &[String]) -> String {
    each.join(", ")
}

/// How much of a refused line a sentence quotes.
const QUOTE_LIMIT: usize = 80;

/// The event as one sentence for the log: the transcript, the application
/// log and the display's log pane.
pub fn sentence(e: &Event) -> String {
    strip_control(&said(e))
}

/// The line headless output prints for a board's event, if it prints
/// one: its faults and its links' changes. The event a board is part of
/// says its games' starts and ends and its own end
/// (`tournament::words`).
pub fn headline(e: &Event) -> Option<String> {
    matches!(
        e.kind(),
        crate::referee::EventKind::Fault | crate::referee::EventKind::Link
    )
    .then(|| strip_control(&said(e)))
}

/// `said` ([`sentence`] or [`headline`] of `e`) with the client it
/// begins with named as `sides` names it: a match on the tournament's
/// boards calls its clients by player (`A`, `B`), whatever colour each
/// plays, where a board's core calls White `A`. Unchanged when the event
/// is about no client.
pub fn naming_sides(e: &Event, said: String, sides: &ByClient<String>) -> String {
    let Some(c) = e.client() else {
        return said;
    };
    match said
        .strip_prefix(c.letter())
        .and_then(|r| r.strip_prefix(": "))
    {
        Some(rest) if sides[c] != c.letter() => {
            format!("{}: {rest}", strip_control(&sides[c]))
        }
        _ => said,
    }
}

/// The line `argus watch` prints for the event, if it prints one: a
/// game's start, every move, a game's end and the match's end.
pub fn watch_line(e: &Event) -> Option<String> {
    match e {
        Event::GameStarted {
            game, white, black, ..
        } => Some(strip_control(&format!(
            "game {game}: {white} (White) vs {black} (Black)"
        ))),
        Event::MoveMade { .. } | Event::GameOver(_) | Event::SessionOver => Some(sentence(e)),
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

/// The PGN's closing comment of a game, written before its result as
/// cutechess-cli writes one: how it ended ([`Ending`]'s words), and
/// `note` after a semicolon when there is one (the move a draw claim came
/// with).
pub fn closing_comment(ending: &Ending, note: Option<&str>) -> String {
    match note {
        Some(n) => format!("{ending}; {n}"),
        None => ending.to_string(),
    }
}

/// The note of a valid draw claim made with a move (FIDE 9.2: the move is
/// written down but not played).
pub fn claim_note(san: &str) -> String {
    format!("the move {san} written down, not played")
}

/// The sentence, before control characters are stripped. The match in
/// [`said_by_group`] is exhaustive, so a new event must be given a group
/// (and words there); each group is said by its own function in
/// [`sentences`], and the events' parts (endings, offences, problems,
/// summaries) read as their `Display` in [`display`]. An event routed to a group that has no words
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
        | SessionOver
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
