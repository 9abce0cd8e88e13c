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
use crate::tournament::messages::GameDecision;
use crate::tournament::rounds::Unpairable;
use crate::tournament::schedule::{ByeKind, PlayerId, RoundPairing};
use crate::tournament::standings::Tiebreak;

/// What a Swiss event says of its entries and its standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwissSettings {
    /// Byes asked for: the player, the round.
    pub byes: Vec<(PlayerId, u32)>,
    /// Late entries: the player, the first round it plays.
    pub late: Vec<(PlayerId, u32)>,
    /// Withdrawals announced before the event (`--withdraw NAME:ROUND`):
    /// the player, the first round it does not play (a Swiss round, or a
    /// knockout's bracket round; the core withdraws it before that round
    /// is paired).
    pub withdrawals: Vec<(PlayerId, u32)>,
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
            withdrawals: Vec::new(),
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

/// What the edge knows of the event that its core does not, for the TRF's
/// header: each `None` is left out of the file rather than made up.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrfFacts {
    /// Where it is played (`--site`, the PGN Site): `022`.
    pub site: Option<String>,
    /// The wall-clock time it started (ms since 1970): `042`.
    pub started_unix_ms: Option<u64>,
    /// The wall-clock time it ended, once it is over: `052`.
    pub ended_unix_ms: Option<u64>,
    /// The games' time control (`--tc`): `122`.
    pub time_control: Option<crate::clock::TimeControl>,
}

/// The event as a TRF-2026 file after its complete rounds: the header
/// records argus knows (`012` the event, `022` the site, `042`/`052` the
/// dates, `062` the players, `072` the rated ones, `092` the system,
/// `122` the time control; no federation, arbiter or round dates: argus is
/// not told them), then what [`crate::swiss::trf::write`] writes (`142`
/// and `XXR` the rounds, the first colour, a line per player by pairing
/// number).
pub fn trf(t: &Tournament, facts: &TrfFacts) -> String {
    let (event, _) = event(t, complete_rounds(t));
    let clean = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_control())
            .collect::<String>()
            .trim()
            .to_string()
    };
    let mut header = vec![format!("012 {}", clean(&t.settings().event))];
    if let Some(site) = facts.site.as_deref().map(clean)
        && !site.is_empty()
        && site != "?"
    {
        header.push(format!("022 {site}"));
    }
    if let Some(ms) = facts.started_unix_ms {
        header.push(format!("042 {}", trf_date(ms)));
    }
    if let Some(ms) = facts.ended_unix_ms.filter(|_| t.is_over()) {
        header.push(format!("052 {}", trf_date(ms)));
    }
    let players = t.schedule().players();
    let rated = (0..players).filter(|&p| t.rating(PlayerId(p)) != 0).count();
    header.push(format!("062 {players}"));
    header.push(format!("072 {rated}"));
    header.push("092 Individual: Swiss-System (FIDE Dutch, C.04.3)".into());
    if let Some(tc) = facts.time_control.as_ref().and_then(trf_time_control) {
        header.push(format!("122 {tc}"));
    }
    swiss::trf::write(&event, &header)
}

/// A wall-clock time's UTC date as TRF writes dates: `YYYY/MM/DD`.
fn trf_date(unix_ms: u64) -> String {
    let days = i64::try_from(unix_ms / 86_400_000).unwrap_or(i64::MAX);
    let (y, m, d) = crate::record::timestamp::civil_from_days(days);
    format!("{y:04}/{m:02}/{d:02}")
}

/// A time control in an arbiter's words for TRF's `122`: `40 moves in
/// 7200 s, then 3600 s + 30 s per move`; `None` when there is none.
fn trf_time_control(tc: &crate::clock::TimeControl) -> Option<String> {
    use crate::clock::TimeControl;
    let seconds = |ms: u64| match ms % 1000 {
        0 => format!("{} s", ms / 1000),
        f => format!(
            "{}.{} s",
            ms / 1000,
            format!("{f:03}").trim_end_matches('0')
        ),
    };
    match tc {
        TimeControl::Unknown | TimeControl::Untimed => None,
        TimeControl::Periods(periods) if periods.is_empty() => None,
        TimeControl::Periods(periods) => Some(
            periods
                .iter()
                .map(|p| {
                    let mut words = match p.moves {
                        Some(m) => format!("{m} moves in {}", seconds(p.base_ms)),
                        None => seconds(p.base_ms),
                    };
                    if p.increment_ms > 0 {
                        words.push_str(&format!(" + {} per move", seconds(p.increment_ms)));
                    }
                    words
                })
                .collect::<Vec<_>>()
                .join(", then "),
        ),
        TimeControl::Sandclock { total_ms } => Some(format!("sandclock of {}", seconds(*total_ms))),
    }
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
        let played = matches!(o, GameDecision::Played { .. });
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
fn outcome_of(halves: u32) -> swiss::RoundScore {
    match halves {
        2.. => swiss::RoundScore::Win,
        1 => swiss::RoundScore::Draw,
        0 => swiss::RoundScore::Loss,
    }
}

/// A round without a game as the pairing counts it.
fn bye_game(kind: ByeKind) -> Game {
    match kind {
        ByeKind::Allocated => Game::pairing_bye(),
        ByeKind::Half => Game {
            outcome: swiss::RoundScore::Draw,
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
pub fn pair(t: &Tournament, round: u32) -> Result<RoundPairing, Unpairable> {
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
    let boards = swiss::dutch::pair(&event).map_err(|error| Unpairable::Swiss { round, error })?;
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
