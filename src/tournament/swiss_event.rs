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
//!
//! The entries' rules, each in [`pair`]: a player who withdrew (away too
//! long under `--absent-forfeit`, or whose program cannot be started) is
//! paired no more, a zero-point bye each round; a late entry (`--late
//! NAME:ROUND`) has a zero-point bye for each round before the one it
//! joins, as arbiters give; a requested bye (`--bye NAME:ROUND`) is worth
//! what the event says (`--bye-points`: half a point or none); the
//! pairing-allocated bye is a win's point.

use crate::swiss::{self, Event, Game, Identity, Player, PointSystem};
use crate::tournament::core::{GameState, Tournament};
use crate::tournament::messages::Outcome;
use crate::tournament::schedule::{ByeKind, PlayerId, RoundPairing};
use crate::tournament::standings::Tiebreak;

/// What a Swiss event says of its entries and its standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwissSettings {
    /// Byes asked for: the player, the round.
    pub byes: Vec<(PlayerId, u32)>,
    /// Late entries: the player, the first round it plays.
    pub late: Vec<(PlayerId, u32)>,
    /// What a bye asked for is worth: [`ByeKind::Half`] or
    /// [`ByeKind::Zero`].
    pub bye: ByeKind,
    /// The tie-breaks after the points, in order.
    pub tiebreaks: Vec<Tiebreak>,
}

impl Default for SwissSettings {
    fn default() -> SwissSettings {
        SwissSettings {
            byes: Vec::new(),
            late: Vec::new(),
            bye: ByeKind::Half,
            tiebreaks: Tiebreak::DEFAULT.to_vec(),
        }
    }
}

/// The rounds whose every game is decided, counted from the first.
pub fn complete_rounds(t: &Tournament) -> u32 {
    let mut open = t
        .games()
        .filter(|(_, s)| !s.is_decided())
        .map(|(g, _)| g.round);
    match open.next() {
        Some(r) => r.min(open.min().unwrap_or(r)) - 1,
        None => t.schedule().rounds(),
    }
}

/// The event as a TRF-2026 file after its complete rounds: the event's
/// name (`012`), then what [`crate::swiss::trf::write`] writes (rounds,
/// first colour, a line per player by pairing number).
pub fn trf(t: &Tournament) -> String {
    let (event, _) = event(t, complete_rounds(t));
    let name: String = t
        .settings()
        .event
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    swiss::trf::write(&event, &[format!("012 {name}")])
}

/// What player `p` has instead of a game in round `round`, if it is not
/// to be paired: withdrawn or not yet entered, a zero-point bye; a bye
/// asked for, what the event says it is worth.
fn not_paired(t: &Tournament, p: PlayerId, round: u32) -> Option<ByeKind> {
    let s = &t.settings().swiss;
    let late = s.late.iter().any(|&(q, from)| q == p && round < from);
    if t.players()[p.0].withdrawn || late {
        Some(ByeKind::Zero)
    } else if s.byes.contains(&(p, round)) {
        Some(s.bye)
    } else {
        None
    }
}

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

/// Round `round` of a Swiss tournament by the Dutch rules, on the rounds
/// before (all decided): the players not to be paired this round first
/// (withdrawn, not yet entered, a bye asked for), each with its bye; the
/// others paired, boards in the order FIDE publishes them, the
/// pairing-allocated bye last.
pub fn pair(t: &Tournament, round: u32) -> Result<RoundPairing, String> {
    let played = round.saturating_sub(1);
    let (mut event, order) = event(t, played);
    let mut pairing = RoundPairing {
        round,
        ..RoundPairing::default()
    };
    for (i, &p) in order.iter().enumerate() {
        if let Some(kind) = not_paired(t, p, round) {
            event.players[i].games.push(bye_game(kind));
            pairing.byes.push((p, kind));
        }
    }
    event.update_ranks();
    let boards = swiss::dutch::pair(&event).map_err(|e| format!("round {round}: {e}"))?;
    let mut allocated = Vec::new();
    for b in boards {
        match b.black {
            Some(black) => pairing.games.push((order[b.white], order[black])),
            None => allocated.push((order[b.white], ByeKind::Allocated)),
        }
    }
    pairing.byes.extend(allocated);
    Ok(pairing)
}
