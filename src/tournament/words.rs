//! The tournament core's outputs in words: the one place that says them,
//! for the headless printout, the board view's latest lines, the log and
//! `argus watch`. Names are stripped of control characters.

use crate::stats::sprt::Hypothesis;
use crate::text::strip_control;
use crate::tournament::Form;
use crate::tournament::core::{GameState, Tournament};
use crate::tournament::messages::{Output, Withdrawal};
use crate::tournament::report;
use crate::tournament::schedule::{ByeKind, PlayerId};
use crate::tournament::standings::Standings;
use crate::tournament::stats::Tallies;

/// Each player's statistics against the field, a line each, in seed
/// order (`stats::Tallies`).
pub fn against_the_field(t: &Tournament) -> String {
    let tallies = Tallies::of(t);
    let mut s = String::new();
    for (i, tally) in tallies.players.iter().enumerate() {
        let name = strip_control(t.name(PlayerId(i)));
        let sprt = t.sprt_for(PlayerId(i));
        s.push_str(&format!("  {name}: {}\n", tally.report(sprt).line()));
    }
    s
}

/// How big the event is, in words: `12 games in 6 rounds`, or for rounds
/// paired as it goes `a Swiss of 7 rounds`, or `games until it is stopped`
/// for an endless match.
pub fn extent(t: &Tournament) -> String {
    let sch = t.schedule();
    if let Some(k) = t.knockout() {
        format!(
            "a knockout of {} rounds (each match's games added as it goes)",
            k.round_count()
        )
    } else if sch.is_dynamic() {
        format!("a Swiss of {} rounds", sch.planned_rounds())
    } else if sch.is_endless() {
        "games until it is stopped".to_string()
    } else {
        format!("{} games in {} rounds", sch.games().len(), sch.rounds())
    }
}

/// The latest round of a Swiss event or a knockout, for the board view:
/// its title (`round 3 of 7`) and a line per game in board order with its
/// result, or where it is played, or that it waits, then a line per bye;
/// `None` before the first round is paired, or for a schedule fixed in
/// advance (its rounds overlap on the boards).
pub fn round_lines(t: &Tournament) -> Option<(String, Vec<String>)> {
    let sch = t.schedule();
    if !sch.is_dynamic() || sch.rounds() == 0 {
        return None;
    }
    let round = sch.rounds();
    let name = |p| strip_control(t.name(p));
    let title = match t.knockout() {
        Some(_) => format!("round {round}"),
        None => format!("round {round} of {}", sch.planned_rounds()),
    };
    let mut lines: Vec<String> = t
        .games()
        .filter(|(g, _)| g.round == round)
        .map(|(g, s)| {
            let stage = t
                .knockout()
                .and_then(|k| k.stage_of(g.number))
                .filter(|st| *st != crate::tournament::knockout::Stage::Regular)
                .map(|st| format!(" ({})", st.name()))
                .unwrap_or_default();
            let state = match s {
                GameState::Decided(o) => o.result_text().to_string(),
                GameState::Playing(b) => format!("playing on {b}"),
                GameState::Pending => "not begun".into(),
            };
            format!(
                "{}. {} - {}{stage}  {state}",
                g.board,
                name(g.white),
                name(g.black)
            )
        })
        .collect();
    lines.extend(
        sch.byes()
            .iter()
            .filter(|b| b.round == round)
            .map(|b| format!("{} {}", name(b.player), bye_words(b.kind))),
    );
    Some((title, lines))
}

/// A bye in words, with what it is worth.
pub fn bye_words(kind: ByeKind) -> &'static str {
    match kind {
        ByeKind::Allocated => "has the bye (1 point)",
        ByeKind::Half => "has a bye it asked for (1/2 point)",
        ByeKind::Zero => "does not play (0 points)",
        ByeKind::Rest => "has no game",
    }
}

/// A withdrawal in words: who, why and what it costs (the line said when
/// it happens).
pub fn withdrawal_line(name: &str, why: &Withdrawal) -> String {
    match why {
        Withdrawal::AwayTooLong => {
            format!("{name} was away too long: it forfeits the games it has not played")
        }
        Withdrawal::CannotStart(reason) => format!(
            "{name}: argus cannot start its program ({}): it forfeits the games it has not played",
            strip_control(reason)
        ),
        Withdrawal::Supervisor { round } => format!(
            "{name} is withdrawn by the supervisor {}: it loses the game it is playing, \
             forfeits those it has not begun, and is paired no more",
            match round {
                0 => "before round 1".to_string(),
                r => format!("in round {r}"),
            }
        ),
        Withdrawal::Planned { round } => format!(
            "{name} withdraws from round {round} on, as announced (--withdraw): it is paired \
             no more"
        ),
    }
}

/// Why a player withdrew, short (the report's list of withdrawals).
pub fn withdrawal_reason(why: &Withdrawal) -> String {
    match why {
        Withdrawal::AwayTooLong => "away too long (--absent-forfeit)".into(),
        Withdrawal::CannotStart(_) => "argus cannot start its program".into(),
        Withdrawal::Supervisor { round: 0 } => "by the supervisor, before round 1".into(),
        Withdrawal::Supervisor { round } => format!("by the supervisor in round {round}"),
        Withdrawal::Planned { round } => format!("from round {round} on, as announced"),
    }
}

/// What `out` says to people, if anything (`t` as it stands after it).
/// `Ignored` is for the log only, and says `None`. A match says a game's
/// start and end and its own end in a match's words ([`match_said`]).
pub fn said(t: &Tournament, out: &Output) -> Option<String> {
    if t.settings().form == Form::Match
        && let Some(line) = match_said(t, out)
    {
        return Some(line);
    }
    let name = |p| strip_control(t.name(p));
    Some(match out {
        Output::StartGame { board, game, .. } => format!(
            "game {} (round {}) starts on {board}: {} - {}",
            game.number,
            game.round_tag(),
            name(game.white),
            name(game.black)
        ),
        Output::Scored {
            game,
            outcome,
            ending,
        } => {
            let g = t.schedule().game(*game)?;
            // How it ended: the referee's words, as a match's result line
            // says them (`Black resigns`), or the PGN Termination where
            // they are not known (an older journal), or who forfeited.
            let how = match ending {
                Some(words) => strip_control(words),
                None => outcome.how().to_string(),
            };
            format!(
                "game {game} (round {}): {} - {} {} ({how})",
                g.round_tag(),
                name(g.white),
                name(g.black),
                outcome.result_text(),
            )
        }
        Output::Replay { game } => {
            format!("game {game} ended without a result: it will be played again")
        }
        Output::Withdrawn { player, why } => withdrawal_line(&name(*player), why),
        // A match (two players): its running statistics, as a match's
        // referee says them after each game, not a standings table a game.
        // A knockout: the bracket as it stands.
        Output::RoundOver { round } if t.knockout().is_some() => {
            let k = t.knockout()?;
            let name = |p: PlayerId| strip_control(t.name(p));
            format!("round {round} is over; the bracket:\n{}", k.text(&name))
        }
        Output::TournamentOver if t.knockout().is_some_and(|k| k.champion().is_some()) => {
            let p = t.knockout()?.champion()?;
            format!(
                "tournament over: {} wins the knockout",
                strip_control(t.name(p))
            )
        }
        // Kept as the games end: a match of many games says it after
        // each one.
        Output::RoundOver { .. } if t.schedule().players() == 2 => t
            .pairing_tally()?
            .report(t.sprt_for(PlayerId(0)))
            .line_for(t.name(PlayerId(0))),
        Output::RoundOver { round } => format!("round {round} is over; {}", figures(t)),
        Output::Paired(p) => {
            let mut line = format!("round {} paired:", p.round);
            let boards: Vec<String> = p
                .games
                .iter()
                .enumerate()
                .map(|(i, &(w, b))| format!(" {}. {} - {}", i + 1, name(w), name(b)))
                .collect();
            line.push_str(&boards.join(";"));
            for &(player, kind) in &p.byes {
                line.push_str(&format!("; {} {}", name(player), bye_words(kind)));
            }
            line
        }
        Output::Unpairable { round, reason } => format!(
            "round {round} cannot be paired ({}): the event ends with the rounds played",
            strip_control(reason)
        ),
        Output::SprtDecided {
            hypothesis,
            llr,
            bounds: (lower, upper),
        } => {
            let running = t.progress().playing();
            let mut line = format!(
                "SPRT: {} accepted (LLR {llr:.2}, bounds {lower:.2}, {upper:.2}) after {} \
                 games; no more games start",
                hypothesis.as_str(),
                t.progress().decided()
            );
            if running > 0 {
                line.push_str(&format!(
                    ", the {running} running {} played out",
                    if running == 1 { "is" } else { "are" }
                ));
            }
            line
        }
        Output::Abort { board, game } => {
            format!("game {game} on {board} is aborted: the SPRT has decided")
        }
        Output::TournamentOver => "tournament over".to_string(),
        Output::OnCable { player } => {
            format!(
                "{}: on its cable, counted as signed on again",
                name(*player)
            )
        }
        Output::Named { was, name, .. } => format!(
            "{} signed on as {}",
            strip_control(was),
            strip_control(name)
        ),
        Output::Ignored { .. } => return None,
    })
}

/// A match's words for a game's start (`game 3: Alpha (White) vs Beta
/// (Black)`, `on board 2` when it has more than one), a game's end (`game
/// 3: 1-0 (Black resigns)`) and its own end (`match over: ...`, as
/// [`MatchSummary`] says it); `None` for the rest, said as a
/// tournament says them.
fn match_said(t: &Tournament, out: &Output) -> Option<String> {
    let name = |p| strip_control(t.name(p));
    Some(match out {
        Output::StartGame { board, game, .. } => {
            let mut line = format!(
                "game {}: {} (White) vs {} (Black)",
                game.number,
                name(game.white),
                name(game.black)
            );
            if t.board_count() > 1 {
                line.push_str(&format!(" on {board}"));
            }
            line
        }
        Output::Scored {
            game,
            outcome,
            ending,
        } => {
            let how = match ending {
                Some(words) => strip_control(words),
                None => outcome.how().to_string(),
            };
            format!("game {game}: {} ({how})", outcome.result_text())
        }
        Output::TournamentOver => match_summary(t).to_string(),
        _ => return None,
    })
}

/// A match at its end: names and points of its two players, how many
/// games had a result, and the SPRT's decision if it made one.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MatchSummary {
    pub names: [String; 2],
    /// Points in halves, the first player's then the second's.
    pub score_halves: [u32; 2],
    pub games_with_result: u32,
    pub sprt: Option<Hypothesis>,
}

impl std::fmt::Display for MatchSummary {
    /// `match over: Alpha 2.5 - 1.5 Beta (4 games with a result)`, and the
    /// SPRT's decision if it made one. Names are stripped of control
    /// characters.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let played = self.games_with_result;
        write!(
            f,
            "match over: {} {} - {} {} ({played} game{} with a result)",
            strip_control(&self.names[0]),
            crate::text::points_decimal(self.score_halves[0]),
            crate::text::points_decimal(self.score_halves[1]),
            strip_control(&self.names[1]),
            if played == 1 { "" } else { "s" }
        )?;
        if let Some(h) = self.sprt {
            write!(f, "; SPRT: {} accepted", h.as_str())?;
        }
        Ok(())
    }
}

/// A match's end as the referee says it: each player's points and the
/// games with a result (forfeits included), and the SPRT's decision if
/// it made one.
pub fn match_summary(t: &Tournament) -> MatchSummary {
    let standings = Standings::of(t);
    let halves = |p: PlayerId| {
        standings
            .rows
            .iter()
            .find(|r| r.player == p)
            .map_or(0, |r| r.halves)
    };
    MatchSummary {
        names: [t.name(PlayerId(0)), t.name(PlayerId(1))].map(str::to_string),
        score_halves: [halves(PlayerId(0)), halves(PlayerId(1))],
        games_with_result: u32::try_from(t.progress().decided()).unwrap_or(u32::MAX),
        sprt: t.sprt_decided(),
    }
}

/// The standings and each player's rating against the field: what a
/// round's end says, and `--rating-interval`.
fn figures(t: &Tournament) -> String {
    format!(
        "standings:\n{}against the field:\n{}",
        report::standings_text(t),
        against_the_field(t)
    )
}

/// The games played over the board so far (forfeits not counted): what
/// `--rating-interval` counts.
pub fn games_played(t: &Tournament) -> u32 {
    u32::try_from(t.progress().played()).unwrap_or(u32::MAX)
}

/// `--rating-interval`'s words after `played` games: the figures a
/// round's end says.
pub fn rating_interval(t: &Tournament, played: u32) -> String {
    format!(
        "after {played} game{}; {}",
        if played == 1 { "" } else { "s" },
        figures(t)
    )
}

/// A match's last words, said again once the board view is gone (its
/// screen vanishes with the alternate screen): its score (`match over:
/// ...`) and, once a game has a result, its statistics (`stats for ...`),
/// as `argus referee` always ended.
pub fn match_farewell(t: &Tournament) -> String {
    let mut text = match_summary(t).to_string();
    if let Some(tally) = t.pairing_tally() {
        text.push('\n');
        text.push_str(
            &tally
                .report(t.sprt_for(PlayerId(0)))
                .line_for(t.name(PlayerId(0))),
        );
    }
    text
}

/// The words for a player the tournament waits for, away since the
/// wall-clock time `since` (`HH:MM:SS`): `waiting for NAME since
/// HH:MM:SS` (`referee::words::waiting_for`, a match's words too).
pub fn waiting_for(t: &Tournament, player: PlayerId, since: &str) -> String {
    crate::referee::words::waiting_for(t.name(player), since)
}

/// The line that says the tournament waits: `tournament: waiting for A
/// since HH:MM:SS, waiting for B since ...`, from [`waiting_for`]'s words;
/// a match's as a match between ports says it (no `tournament: `).
pub fn waiting_line(t: &Tournament, each: &[String]) -> String {
    let each = crate::referee::words::waiting_line(each);
    match t.settings().form {
        Form::Tournament => format!("tournament: {each}"),
        Form::Match => each,
    }
}
