//! What engine testers expect of a tournament, per pairing and per player
//! against the field: wins, draws and losses, Elo with its 95 % error, LOS,
//! and the pentanomial counts of game pairs (docs/statistics.md). Pure: a
//! tournament in, the tallies out.
//!
//! A game pair is two games of one pairing with one opening and the
//! colours swapped: the pairing's games 1 and 2, 3 and 4, ... in schedule
//! order (the schedule gives every opening to a pairing twice so, and
//! reverses the colours between cycles). Only games played over the board
//! count; a forfeit, a game not decided yet, breaks its pair.
//!
//! Per game, [`GameTally`] keeps what a board's referee core says of its
//! game (the end, each side's faults and restarts) and gives each side's
//! [`SideStats`] when the game is over.

use serde_json::{Map, Value, json};
use shakmaty::{ByColor, Color};

use crate::record::pgn::PgnGame;
use crate::referee::{ByClient, ClientId, Event, GameOver, GameResult};
use crate::stats::{GameScore, MatchStats};
use crate::tournament::core::{GameState, Tournament};
use crate::tournament::messages::{GameDecision, SideStats};
use crate::tournament::schedule::PlayerId;

/// The tallies of a tournament.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tallies {
    /// Each pairing that has a game in the schedule, in seed order of its
    /// first player then its second: the two players and the tally from
    /// the first one's view.
    pub pairings: Vec<(PlayerId, PlayerId, MatchStats)>,
    /// Each player against the field, in seed order.
    pub players: Vec<MatchStats>,
}

/// The score of `p` in a game with `outcome`, played with `color`; `None`
/// when the game counts for nothing (a forfeit, or not decided).
fn score(state: GameState, color: Color) -> Option<GameScore> {
    match state {
        GameState::Decided(GameDecision::Played { result, .. }) => match result {
            GameResult::Win(c) if c == color => Some(GameScore::Win),
            GameResult::Win(_) => Some(GameScore::Loss),
            GameResult::Draw => Some(GameScore::Draw),
            GameResult::None => None,
        },
        _ => None,
    }
}

/// A two-player event's one pairing from the first player's view, kept
/// as its games are decided: the figures of [`Tallies::of`]'s pairing
/// (and of the first player against the field), without going through
/// every game of the event after each result, which the SPRT is tested
/// after. In a two-player event every game is of the one pairing, so a
/// game's place in the pairing is its number: games 1 and 2 are a pair,
/// 3 and 4, and so on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PairTally {
    stats: MatchStats,
}

impl PairTally {
    /// A game was decided: `game` is its White and its state, `other` the
    /// other game of its pair's (when the schedule has it); `first` the
    /// player whose view the tally takes. A forfeit counts for nothing;
    /// the pair counts once both games are played.
    pub fn decided(
        &mut self,
        first: PlayerId,
        game: (PlayerId, GameState),
        other: Option<(PlayerId, GameState)>,
    ) {
        let view = |(white, state): (PlayerId, GameState)| {
            score(
                state,
                if white == first {
                    Color::White
                } else {
                    Color::Black
                },
            )
        };
        if let Some(s) = view(game) {
            self.stats.count(s, other.and_then(view));
        }
    }

    /// The tally as it stands.
    pub fn stats(&self) -> MatchStats {
        self.stats.clone()
    }
}

impl Tallies {
    /// The tallies of `t` as it stands.
    pub fn of(t: &Tournament) -> Tallies {
        let n = t.schedule().players();
        let mut players = vec![MatchStats::default(); n];
        // Each player's next pair number: its pairings' games are numbered
        // on from there, so that pairs never span two pairings.
        let mut next = vec![0u32; n];
        let mut pairings = Vec::new();
        for p in 0..n {
            for q in p + 1..n {
                let (p, q) = (PlayerId(p), PlayerId(q));
                let games: Vec<(Color, GameState)> = t
                    .games()
                    .filter(|(g, _)| g.has(p) && g.opponent(p) == q)
                    .map(|(g, s)| {
                        let c = if g.white == p {
                            Color::White
                        } else {
                            Color::Black
                        };
                        (c, s)
                    })
                    .collect();
                if games.is_empty() {
                    continue;
                }
                let mut pairing = MatchStats::default();
                for (k, &(color, state)) in games.iter().enumerate() {
                    let k = u32::try_from(k).unwrap_or(u32::MAX);
                    pairing.record(k + 1, score(state, color));
                    players[p.0].record(next[p.0] + k + 1, score(state, color));
                    players[q.0].record(next[q.0] + k + 1, score(state, !color));
                }
                let len = u32::try_from(games.len()).unwrap_or(u32::MAX);
                for x in [p.0, q.0] {
                    // An even step: a new pairing starts a new pair.
                    next[x] = next[x].saturating_add(len.saturating_add(1) / 2 * 2);
                }
                pairings.push((p, q, pairing));
            }
        }
        Tallies { pairings, players }
    }

    /// A match's results file (`argus referee --results-json`), as a
    /// match has always written it: the first player's statistics against
    /// the second at the top (games, wins, draws, losses, Elo, the SPRT's
    /// state), and `ponder` (each player that pondered: its `hits` and
    /// `ponders`) when one did.
    fn match_json(&self, t: &Tournament) -> Value {
        let first = PlayerId(0);
        let stats = self.players.first().cloned().unwrap_or_default();
        let mut out = stats.report(t.sprt_for(first)).to_json();
        let st = crate::tournament::standings::Standings::of(t);
        let ponder: Map<String, Value> = st
            .rows
            .iter()
            .filter(|r| r.stats.ponders > 0)
            .map(|r| {
                let v = json!({ "hits": r.stats.ponder_hits, "ponders": r.stats.ponders });
                (t.name(r.player).to_string(), v)
            })
            .collect();
        if let (Some(o), false) = (out.as_object_mut(), ponder.is_empty()) {
            o.insert("ponder".into(), Value::Object(ponder));
        }
        out
    }

    /// The results file (`--results-json`): `players` (name: the match
    /// statistics' object against the field) and `pairings` (each with its
    /// two `players`, the object from the first one's view).
    pub fn to_json(&self, t: &Tournament) -> Value {
        if t.settings().form == crate::tournament::Form::Match {
            return self.match_json(t);
        }
        let mut players = Map::new();
        let st = crate::tournament::standings::Standings::of(t);
        for (i, s) in self.players.iter().enumerate() {
            let mut v = s.report(t.sprt_for(PlayerId(i))).to_json();
            let row = st.rows.iter().find(|r| r.player == PlayerId(i));
            if let (Some(o), Some(r)) = (v.as_object_mut(), row)
                && r.stats.ponders > 0
            {
                o.insert(
                    "ponder".into(),
                    json!({ "hits": r.stats.ponder_hits, "ponders": r.stats.ponders }),
                );
            }
            players.insert(t.name(PlayerId(i)).to_string(), v);
        }
        let pairings: Vec<Value> = self
            .pairings
            .iter()
            .map(|(p, q, s)| {
                let mut v = s.report(t.settings().sprt.as_ref()).to_json();
                if let Some(o) = v.as_object_mut() {
                    o.insert("players".into(), json!([t.name(*p), t.name(*q)]));
                }
                v
            })
            .collect();
        let mut out = json!({ "players": players, "pairings": pairings });
        if t.settings().schedule.format == crate::tournament::Format::Swiss
            && let Some(o) = out.as_object_mut()
        {
            o.insert("standings".into(), swiss_json(t, &st));
        }
        if !t.withdrawals().is_empty()
            && let Some(o) = out.as_object_mut()
        {
            let list: Vec<Value> = t
                .withdrawals()
                .iter()
                .map(|(p, why)| withdrawal_json(t.name(*p), why))
                .collect();
            o.insert("withdrawals".into(), Value::Array(list));
        }
        if let (Some(k), Some(o)) = (t.knockout(), out.as_object_mut()) {
            let name = |p: PlayerId| t.name(p).to_string();
            o.insert(
                "knockout".into(),
                serde_json::to_value(k.data(&name)).unwrap_or(Value::Null),
            );
            // The score table: regular games only; the tie-break and
            // decisive games apart (`tiebreak_games`).
            let rows: Vec<Value> = st
                .rows
                .iter()
                .map(|r| {
                    json!({
                        "rank": r.rank,
                        "player": t.name(r.player),
                        "points": f64::from(r.halves) / 2.0,
                        "games": r.games,
                        "tiebreak_games": r.tiebreak_games,
                    })
                })
                .collect();
            o.insert("standings".into(), json!({ "rows": rows }));
        }
        out
    }
}

/// A withdrawal in the results JSON: `{player, why, round}`, `why` one of
/// `away`, `cannot-start`, `supervisor` (`round`: the rounds paired
/// then), `announced` (`round`: the first round not played).
fn withdrawal_json(name: &str, why: &crate::tournament::Withdrawal) -> Value {
    use crate::tournament::Withdrawal as W;
    let (kind, round) = match why {
        W::AwayTooLong => ("away", None),
        W::CannotStart(_) => ("cannot-start", None),
        W::Supervisor { round } => ("supervisor", Some(*round)),
        W::Planned { round } => ("announced", Some(*round)),
    };
    json!({ "player": name, "why": kind, "round": round })
}

/// A Swiss event's standings and rounds in the results JSON: `standings`
/// (rank, player, points, and `tiebreaks`: `{name, value}` in the event's
/// order) and `rounds` (each round's `games`, `[white, black, result]`,
/// and `byes`, `{player, kind, points}`).
fn swiss_json(t: &Tournament, st: &crate::tournament::Standings) -> Value {
    let list = &t.settings().swiss.tiebreaks;
    let rows: Vec<Value> = st
        .rows
        .iter()
        .map(|r| {
            let tbs: Vec<Value> = list
                .iter()
                .zip(&r.tiebreaks)
                .map(|(k, v)| json!({ "name": k.name(), "value": k.value(*v) }))
                .collect();
            json!({
                "rank": r.rank,
                "player": t.name(r.player),
                "points": f64::from(r.halves) / 2.0,
                "tiebreaks": tbs,
            })
        })
        .collect();
    let rounds: Vec<Value> = (1..=t.schedule().rounds())
        .map(|round| {
            let games: Vec<Value> = t
                .games()
                .filter(|(g, _)| g.round == round)
                .map(|(g, s)| {
                    let result = match s {
                        crate::tournament::GameState::Decided(o) => o.result_text(),
                        _ => "*",
                    };
                    json!([t.name(g.white), t.name(g.black), result])
                })
                .collect();
            let byes: Vec<Value> = t
                .schedule()
                .byes()
                .iter()
                .filter(|b| b.round == round)
                .map(|b| {
                    json!({
                        "player": t.name(b.player),
                        "kind": b.kind.letter().to_string(),
                        "points": f64::from(b.kind.halves()) / 2.0,
                    })
                })
                .collect();
            json!({ "round": round, "games": games, "byes": byes })
        })
        .collect();
    json!({ "rows": rows, "rounds": rounds })
}

/// What a board's referee core said of its game, tallied: its end, and
/// each side's faults and restarts (White is client A).
#[derive(Debug, Clone, Default)]
pub struct GameTally {
    over: Option<GameOver>,
    faults: ByClient<u32>,
    restarts: ByClient<u32>,
}

impl GameTally {
    /// What the core said: its game's end, a fault or a restart of one of
    /// its players.
    pub fn see(&mut self, e: &Event) {
        match e {
            Event::GameOver(g) => self.over = Some(g.clone()),
            Event::Rejected { client, .. }
            | Event::ClientFault { client, .. }
            | Event::LinkLost { client, .. } => self.faults[*client] += 1,
            Event::Resync { client } => self.restarts[*client] += 1,
            _ => {}
        }
    }

    /// The game's end, until it is taken.
    pub fn over(&self) -> Option<&GameOver> {
        self.over.as_ref()
    }

    /// Forgets the end (the tournament already has it).
    pub fn forget_end(&mut self) {
        self.over = None;
    }

    /// The game's end, once, with what each side did after the opening's
    /// `opening_plies`.
    pub fn take(&mut self, opening_plies: usize) -> Option<(GameOver, ByColor<SideStats>)> {
        let over = self.over.take()?;
        let sides = side_stats(&over.pgn, opening_plies, self.faults, self.restarts);
        Some((over, sides))
    }
}

/// Each side's moves, time used and left (from the PGN's clock comments),
/// faults and restarts; White is client A.
fn side_stats(
    pgn: &PgnGame,
    opening_plies: usize,
    faults: ByClient<u32>,
    restarts: ByClient<u32>,
) -> ByColor<SideStats> {
    let first = if pgn.black_first {
        Color::Black
    } else {
        Color::White
    };
    let mut sides = ByColor::new_with(|c: Color| {
        let id = if c == Color::White {
            ClientId::A
        } else {
            ClientId::B
        };
        SideStats {
            faults: faults[id],
            restarts: restarts[id],
            ..SideStats::default()
        }
    });
    for (i, m) in pgn.moves.iter().enumerate() {
        let color = if i % 2 == 0 { first } else { !first };
        let s = sides.get_mut(color);
        if i >= opening_plies {
            s.moves += 1;
            s.used_ms += m.emt_ms.unwrap_or(0);
            if let Some(hit) = m.ponder_hit {
                s.ponders += 1;
                s.ponder_hits += u32::from(hit);
            }
        }
        if m.clk_ms.is_some() {
            s.left_ms = m.clk_ms;
        }
    }
    sides
}
