//! Each group's sentences: the match, the clients and the replies.

use shakmaty::Color;

use super::display::client_fault;
use super::{color_name, game_label, quote};
use crate::referee::client::ClientId;
use crate::referee::event::{Event, GameOver};

/// Games, the match, the referee and the supervisor.
pub(super) fn match_said(e: &Event) -> Option<String> {
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
        SessionOver => "game concluded, board free".into(),
        Restarted => {
            "the referee restarted from its journal; bringing the clients back in line".into()
        }
        Supervisor { command } => format!("supervisor: {command}"),
        CommandRefused { why } => why.to_string(),
        _ => return None,
    })
}

/// A client: signing on and off, its lines and its link.
pub(super) fn client_said(e: &Event) -> Option<String> {
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
pub(super) fn reply_said(e: &Event) -> Option<String> {
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

/// `game N: 0-1 (Black mates)`: a game's end in the log and on the
/// console.
pub(super) fn game_over(g: &GameOver) -> String {
    format!(
        "game {}: {} ({})",
        g.game_number,
        g.result.as_str(),
        g.ending
    )
}
