//! A Swiss tournament as the records of [`crate::swiss`] (the Dutch
//! pairing, TRF, tie-breaks), and its pairer: one home for how the
//! tournament's games, byes and withdrawals read as a Swiss event.
//!
//! Players are numbered by their initial order, rating (higher first) then
//! name (then the order given), as FIDE's pairing numbers are; a decided
//! game is a round with an opponent, a colour and a result (a forfeit is
//! paired, not played); the pairing-allocated bye is a win's point; a
//! round a player was not paired in (withdrawn) is an absence with no
//! point.

use crate::swiss::{self, Event, Game, Identity, Player, PointSystem};
use crate::tournament::core::{GameState, Tournament};
use crate::tournament::messages::Outcome;
use crate::tournament::schedule::{ByeKind, PlayerId, RoundPairing};

/// The players in initial order: rating (higher first), then name, then
/// the order they were given.
pub fn initial_order(t: &Tournament) -> Vec<PlayerId> {
    let mut order: Vec<PlayerId> = (0..t.schedule().players()).map(PlayerId).collect();
    order.sort_by(|&a, &b| {
        t.rating(b)
            .cmp(&t.rating(a))
            .then_with(|| t.name(a).cmp(t.name(b)))
            .then(a.cmp(&b))
    });
    order
}

/// The event as [`crate::swiss`] reads it, after its first `rounds` rounds
/// (each of them decided), players by initial order; and that order
/// (`order[i]` is the pairing number `i + 1`).
pub fn event(t: &Tournament, rounds: u32) -> (Event, Vec<PlayerId>) {
    let order = initial_order(t);
    let mut number = vec![0; order.len()];
    for (i, p) in order.iter().enumerate() {
        number[p.0] = i;
    }
    let points = PointSystem::default();
    let mut players: Vec<Player> = order
        .iter()
        .enumerate()
        .map(|(i, &p)| Player {
            id: i,
            name: t.name(p).to_string(),
            rating: t.rating(p),
            identity: Identity::default(),
            score: 0,
            games: vec![Game::absent(); rounds as usize],
            valid: true,
            rank: i,
        })
        .collect();
    for (g, s) in t.games() {
        if g.round > rounds {
            continue;
        }
        let GameState::Decided(o) = s else { continue };
        let halves = o.halves();
        let played = matches!(o, Outcome::Played { .. });
        for (colour, me, them) in [
            (swiss::Color::White, g.white, g.black),
            (swiss::Color::Black, g.black, g.white),
        ] {
            let mine = match colour {
                swiss::Color::White => halves.white,
                swiss::Color::Black => halves.black,
            };
            players[number[me.0]].games[g.round as usize - 1] = Game {
                opponent: Some(number[them.0]),
                color: Some(colour),
                outcome: outcome_of(mine),
                played,
                paired: true,
            };
        }
    }
    for b in t.schedule().byes().iter().filter(|b| b.round <= rounds) {
        players[number[b.player.0]].games[b.round as usize - 1] = bye_game(b.kind);
    }
    for p in &mut players {
        p.score = p.games.iter().map(|g| points.points(g)).sum();
    }
    let mut event = Event {
        by_rank: (0..players.len()).collect(),
        players,
        played_rounds: rounds as usize,
        expected_rounds: t.schedule().planned_rounds() as usize,
        points,
        initial_color: swiss::Color::White,
        use_rank: false,
    };
    event.update_ranks();
    (event, order)
}

/// A round's result in half points as the pairing counts it.
fn outcome_of(halves: u32) -> swiss::Outcome {
    match halves {
        2.. => swiss::Outcome::Win,
        1 => swiss::Outcome::Draw,
        0 => swiss::Outcome::Loss,
    }
}

/// A round without a game as the pairing counts it.
fn bye_game(kind: ByeKind) -> Game {
    match kind {
        ByeKind::Allocated => Game::pairing_bye(),
        ByeKind::Half => Game {
            outcome: swiss::Outcome::Draw,
            ..Game::absent()
        },
        ByeKind::Zero | ByeKind::Rest => Game::absent(),
    }
}

/// Round `round` of a Swiss tournament by the Dutch rules: the players
/// who withdrew are not paired (an absence with no point); the others are
/// paired on the rounds before, all decided.
pub fn pair(t: &Tournament, round: u32) -> Result<RoundPairing, String> {
    let played = round.saturating_sub(1);
    let (mut event, order) = event(t, played);
    for (i, &p) in order.iter().enumerate() {
        if t.players()[p.0].withdrawn {
            event.players[i].games.push(Game::absent());
        }
    }
    event.update_ranks();
    let boards = swiss::dutch::pair(&event).map_err(|e| format!("round {round}: {e}"))?;
    let mut pairing = RoundPairing {
        round,
        ..RoundPairing::default()
    };
    for b in boards {
        match b.black {
            Some(black) => pairing.games.push((order[b.white], order[black])),
            None => pairing.byes.push((order[b.white], ByeKind::Allocated)),
        }
    }
    Ok(pairing)
}
