//! The tournament core's outputs in words: the one place that says them,
//! for the headless printout, the board view's latest lines, the log and
//! `argus watch`. Names are stripped of control characters.

use crate::text::strip_control;
use crate::tournament::core::Tournament;
use crate::tournament::io::Output;
use crate::tournament::report;

/// What `out` says to people, if anything (`t` as it stands after it).
/// `Ignored` is for the log only, and says `None`.
pub fn said(t: &Tournament, out: &Output) -> Option<String> {
    let name = |p| strip_control(t.name(p));
    Some(match out {
        Output::StartGame { board, game } => format!(
            "game {} (round {}) starts on {board}: {} - {}",
            game.number,
            game.round_tag(),
            name(game.white),
            name(game.black)
        ),
        Output::Scored { game, outcome } => {
            let g = t.schedule().game(*game)?;
            format!(
                "game {game} (round {}): {} - {} {} ({})",
                g.round_tag(),
                name(g.white),
                name(g.black),
                outcome.result_text(),
                outcome.how()
            )
        }
        Output::Replay { game } => {
            format!("game {game} ended without a result: it will be played again")
        }
        Output::Withdrawn { player } => format!(
            "{} was away too long: it forfeits the games it has not played",
            name(*player)
        ),
        Output::RoundOver { round } => format!(
            "round {round} is over; standings:\n{}",
            report::standings_text(t)
        ),
        Output::TournamentOver => "tournament over".to_string(),
        Output::Ignored { .. } => return None,
    })
}
