//! Every round of an event re-paired from the rounds before it and
//! compared with the pairing it had (bbpPairings' checker): what `argus
//! swiss check` reports.

use super::dutch::{self, PairingError};
use super::{Color, Event, Pairing};

/// One round's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The event's pairing is the one the Dutch rules give.
    Same,
    /// It differs: the rules' pairing, then the event's (each in
    /// publication order).
    Differs {
        /// What the rules give.
        expected: Vec<Pairing>,
        /// What the event had.
        actual: Vec<Pairing>,
    },
    /// The rules give no pairing for the round.
    NoPairing(PairingError),
}

/// A round's number (1-based) and its verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundCheck {
    /// The round, from 1.
    pub round: usize,
    /// The verdict.
    pub verdict: Verdict,
}

/// The pairing an event had in round `round` (0-based), in publication
/// order, by the state of `before` (the event as it stood before it).
fn actual_pairing(event: &Event, before: &Event, round: usize) -> Vec<Pairing> {
    let mut boards = Vec::new();
    for &i in &event.by_rank {
        let Some(game) = event.players[i].games.get(round) else {
            continue;
        };
        if !game.paired {
            continue;
        }
        match game.opponent {
            None => boards.push(Pairing {
                white: i,
                black: None,
            }),
            Some(o) => {
                let white = game.color != Some(Color::Black);
                if white && (game.color.is_some() || i < o) {
                    boards.push(Pairing {
                        white: i,
                        black: Some(o),
                    });
                }
            }
        }
    }
    dutch::sort_boards(before, &mut boards);
    boards
}

/// Re-pairs every paired round of `event` and compares.
pub fn check(event: &Event) -> Vec<RoundCheck> {
    let mut state = event.clone();
    for player in &mut state.players {
        player.games.clear();
        player.score = 0;
    }
    let mut out = Vec::new();
    for round in 0..event.played_rounds {
        state.played_rounds = round;
        // Byes and absences of the round first: those players are not paired.
        for &i in &event.by_rank {
            let game = event.players[i].games[round];
            if !game.paired {
                state.players[i].games.push(game);
            }
        }
        state.update_ranks();
        let actual = actual_pairing(event, &state, round);
        let verdict = match dutch::pair(&state) {
            Err(e) => Verdict::NoPairing(e),
            Ok(expected) if expected == actual => Verdict::Same,
            Ok(expected) => Verdict::Differs { expected, actual },
        };
        out.push(RoundCheck {
            round: round + 1,
            verdict,
        });
        for &i in &event.by_rank {
            let game = event.players[i].games[round];
            if game.paired {
                state.players[i].games.push(game);
            }
            state.players[i].score += event.points.points(&game);
        }
    }
    out
}
