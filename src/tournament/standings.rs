//! The standings: points, games, wins, draws, losses, forfeits,
//! Sonneborn-Berger, the ranking with its tie-breaks, the crosstable and
//! each player's statistics, computed from the decided games. Numbers
//! only; `report` puts them into words.
//!
//! Tie-breaks, in order: points; Sonneborn-Berger (for each game played,
//! the opponent's final points times the points scored against it, so a
//! win counts the beaten player's points in full and a draw half of them;
//! forfeited games add nothing); wins over the board; then the seed (the
//! order the players were given), which only orders, it does not break
//! the tie: players equal on the first three share a rank.
//!
//! A knockout's tie-break games and its decisive games decide a match, not
//! the score table: they add no points, games, wins, draws, losses or
//! Sonneborn-Berger and are not in the crosstable; a row counts them in
//! [`Row::tiebreak_games`], and its statistics (moves, time) include them.

use shakmaty::Color;

use crate::referee::GameResult;
use crate::tournament::core::{GameState, Tournament};
use crate::tournament::messages::{Absent, GameDecision};
use crate::tournament::schedule::{Format, PlayerId};

/// One player's line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Row {
    pub player: PlayerId,
    /// 1-based; players equal on every tie-break share one.
    pub rank: usize,
    /// Points in half points.
    pub halves: u32,
    /// Decided games (forfeits included).
    pub games: u32,
    /// Games played over the board.
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games won or lost by forfeit.
    pub forfeits_won: u32,
    pub forfeits_lost: u32,
    /// Sonneborn-Berger in quarter points.
    pub sb_quarters: u64,
    /// A knockout's tie-break and decisive games it played or forfeited,
    /// counted apart from the points.
    pub tiebreak_games: u32,
    /// A Swiss event's tie-breaks, in the event's order
    /// ([`crate::tournament::swiss_event::SwissSettings::tiebreaks`]), each
    /// in its [`Tiebreak`]'s unit; empty for a round robin or a gauntlet.
    pub tiebreaks: Vec<u32>,
    pub stats: PlayerStats,
}

/// What a player's games say about it (from the boards' reports).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PlayerStats {
    /// Moves it played and the time its clock was charged for them.
    pub moves: u64,
    pub used_ms: u64,
    /// Time left at the end of its timed games: sum, count, least.
    pub left_sum_ms: u64,
    pub left_games: u32,
    pub left_min_ms: Option<u64>,
    pub faults: u32,
    pub restarts: u32,
    /// Moves its engine pondered for, and the hits among them.
    pub ponders: u32,
    pub ponder_hits: u32,
}

impl PlayerStats {
    /// Average time per move, in ms.
    pub fn average_move_ms(&self) -> Option<u64> {
        (self.moves > 0).then(|| self.used_ms / self.moves)
    }

    /// Average time left at the end of a timed game, in ms.
    pub fn average_left_ms(&self) -> Option<u64> {
        (self.left_games > 0).then(|| self.left_sum_ms / u64::from(self.left_games))
    }
}

/// A Swiss event's tie-breaks by FIDE's regulations (C.07), computed by
/// [`crate::swiss::tiebreak`] over the rounds complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tiebreak {
    BuchholzCut1,
    Buchholz,
    SonnebornBerger,
    DirectEncounter,
    Wins,
}

/// Why a list of tie-breaks does not read: the word, unknown or given
/// twice.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TiebreakListError {
    #[error("unknown tie-break {:?} ({})", .0, Tiebreak::DEFAULT.map(|t| t.name()).join(", "))]
    Unknown(String),
    #[error("tie-break {0:?} given twice")]
    Twice(String),
}

error_words!(TiebreakListError);

impl Tiebreak {
    /// A Swiss event's order when `--tiebreaks` is not given.
    pub const DEFAULT: [Tiebreak; 5] = [
        Tiebreak::BuchholzCut1,
        Tiebreak::Buchholz,
        Tiebreak::SonnebornBerger,
        Tiebreak::DirectEncounter,
        Tiebreak::Wins,
    ];

    /// Its name on the command line, in the journal and in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Tiebreak::BuchholzCut1 => "buchholz-cut1",
            Tiebreak::Buchholz => "buchholz",
            Tiebreak::SonnebornBerger => "sonneborn-berger",
            Tiebreak::DirectEncounter => "direct-encounter",
            Tiebreak::Wins => "wins",
        }
    }

    /// Its column head in the standings.
    pub fn short(self) -> &'static str {
        match self {
            Tiebreak::BuchholzCut1 => "BH-C1",
            Tiebreak::Buchholz => "BH",
            Tiebreak::SonnebornBerger => "SB",
            Tiebreak::DirectEncounter => "DE",
            Tiebreak::Wins => "WIN",
        }
    }

    /// Reads a comma-separated list of [`Tiebreak::name`]s; the error
    /// names the word it does not know, or one given twice.
    pub fn parse_list(s: &str) -> Result<Vec<Tiebreak>, TiebreakListError> {
        let mut list = Vec::new();
        for word in s.split(',').map(str::trim) {
            let t = Tiebreak::DEFAULT
                .into_iter()
                .find(|t| t.name() == word)
                .ok_or_else(|| TiebreakListError::Unknown(word.to_string()))?;
            if list.contains(&t) {
                return Err(TiebreakListError::Twice(word.to_string()));
            }
            list.push(t);
        }
        Ok(list)
    }

    /// Its value in a player's record of [`crate::swiss::tiebreak`].
    fn of(self, t: &crate::swiss::tiebreak::Tiebreaks) -> u32 {
        match self {
            Tiebreak::BuchholzCut1 => t.buchholz_cut1,
            Tiebreak::Buchholz => t.buchholz,
            Tiebreak::SonnebornBerger => t.sonneborn_berger,
            Tiebreak::DirectEncounter => t.direct,
            Tiebreak::Wins => t.wins,
        }
    }

    /// A value as a number of points (wins: a count).
    pub fn value(self, v: u32) -> f64 {
        match self {
            Tiebreak::SonnebornBerger => f64::from(v) / 100.0,
            Tiebreak::Wins => f64::from(v),
            _ => f64::from(v) / 10.0,
        }
    }

    /// A value as the standings show it: `12.5`, `31.25`, `3`.
    pub fn text(self, v: u32) -> String {
        match self {
            Tiebreak::SonnebornBerger => format!("{}.{:02}", v / 100, v % 100),
            Tiebreak::Wins => v.to_string(),
            _ => format!("{}.{}", v / 10, v % 10),
        }
    }
}

/// One game's mark in the crosstable, from the row player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Win,
    Draw,
    Loss,
    ForfeitWin,
    ForfeitLoss,
    /// Both forfeited.
    ForfeitBoth,
    /// Not decided yet.
    Pending,
}

/// The standings at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standings {
    /// In ranking order.
    pub rows: Vec<Row>,
    /// `cells[i][j]`: the marks of the games of the player ranked `i`
    /// against the player ranked `j`, in schedule order (empty when
    /// `i == j` or they do not meet).
    pub cells: Vec<Vec<Vec<Mark>>>,
}

impl Standings {
    /// The standings of `t` as its games stand now.
    pub fn of(t: &Tournament) -> Standings {
        let n = t.schedule().players();
        let mut rows: Vec<Row> = (0..n)
            .map(|p| Row {
                player: PlayerId(p),
                ..Row::default()
            })
            .collect();
        for (g, s) in t.games() {
            let GameState::Decided(o) = s else { continue };
            let halves = o.halves();
            for (colour, p) in [(Color::White, g.white), (Color::Black, g.black)] {
                if scores(t, g.number) {
                    add_game(&mut rows[p.0], &o, colour, halves[colour]);
                } else {
                    rows[p.0].tiebreak_games += 1;
                    add_stats(&mut rows[p.0], &o, colour);
                }
            }
        }
        for (g, s) in t.games() {
            let GameState::Decided(o @ GameDecision::Played { .. }) = s else {
                continue;
            };
            if !scores(t, g.number) {
                continue;
            }
            let halves = o.halves();
            let (w, b) = (rows[g.white.0].halves, rows[g.black.0].halves);
            rows[g.white.0].sb_quarters += u64::from(b * halves.white);
            rows[g.black.0].sb_quarters += u64::from(w * halves.black);
        }
        for b in t.schedule().byes() {
            rows[b.player.0].halves += b.kind.halves();
        }
        if t.settings().schedule.format == Format::Swiss {
            return swiss_standings(t, rows);
        }
        rank_by(
            &mut rows,
            |r| (r.halves, r.sb_quarters, r.wins),
            |r| r.player.0,
        );
        Standings::with_cells(t, rows)
    }

    /// The crosstable of `rows` (in ranking order).
    fn with_cells(t: &Tournament, rows: Vec<Row>) -> Standings {
        let n = rows.len();
        let mut order = vec![0; n];
        for (i, r) in rows.iter().enumerate() {
            order[r.player.0] = i;
        }
        let mut cells = vec![vec![Vec::new(); n]; n];
        for (g, s) in t.games().filter(|(g, _)| scores(t, g.number)) {
            let (w, b) = (order[g.white.0], order[g.black.0]);
            cells[w][b].push(mark(s, Color::White));
            cells[b][w].push(mark(s, Color::Black));
        }
        Standings { rows, cells }
    }
}

/// A Swiss event's standings: points (byes' included), then the event's
/// tie-breaks over the rounds complete, then the initial order (which
/// orders, and does not break the tie: players equal on every tie-break
/// share a rank).
fn swiss_standings(t: &Tournament, mut rows: Vec<Row>) -> Standings {
    use crate::tournament::swiss_event;
    let list = &t.settings().swiss.tiebreaks;
    let (event, order) = swiss_event::event(t, swiss_event::complete_rounds(t));
    let values = crate::swiss::tiebreak::tiebreaks(&event);
    let mut place = vec![0; rows.len()];
    for (i, p) in order.iter().enumerate() {
        place[p.0] = i;
        if let (Some(row), Some(v)) = (rows.get_mut(p.0), values.get(i)) {
            row.tiebreaks = list.iter().map(|k| k.of(v)).collect();
        }
    }
    rank_by(
        &mut rows,
        |r| (r.halves, r.tiebreaks.clone()),
        |r| place[r.player.0],
    );
    Standings::with_cells(t, rows)
}

/// Sorts `rows` by `key`, greater first, then by `order` (which orders
/// and does not break a tie), and ranks them: rows equal on `key` share a
/// rank.
fn rank_by<K: Ord>(rows: &mut [Row], key: impl Fn(&Row) -> K, order: impl Fn(&Row) -> usize) {
    rows.sort_by(|a, b| key(b).cmp(&key(a)).then(order(a).cmp(&order(b))));
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) {
            rows[i - 1].rank
        } else {
            i + 1
        };
    }
}

/// Whether game `number` counts in the score table: every game but a
/// knockout's tie-break and decisive games.
pub fn scores(t: &Tournament, number: u32) -> bool {
    t.knockout()
        .and_then(|k| k.stage_of(number))
        .is_none_or(|s| s == crate::tournament::knockout::Stage::Regular)
}

fn add_game(row: &mut Row, o: &GameDecision, colour: Color, halves: u32) {
    row.games += 1;
    row.halves += halves;
    match *o {
        GameDecision::Played { result, .. } => match result {
            GameResult::Win(c) if c == colour => row.wins += 1,
            GameResult::Win(_) => row.losses += 1,
            _ => row.draws += 1,
        },
        GameDecision::Forfeited(_) if halves > 0 => row.forfeits_won += 1,
        GameDecision::Forfeited(_) => row.forfeits_lost += 1,
    }
    add_stats(row, o, colour);
}

/// What a played game adds to the player's statistics (moves, time,
/// faults), whether it scores or not.
fn add_stats(row: &mut Row, o: &GameDecision, colour: Color) {
    match *o {
        GameDecision::Played { sides, .. } => {
            let side = sides[colour];
            let st = &mut row.stats;
            st.moves += u64::from(side.moves);
            st.used_ms += side.used_ms;
            st.faults += side.faults;
            st.restarts += side.restarts;
            st.ponders += side.ponders;
            st.ponder_hits += side.ponder_hits;
            if let Some(left) = side.left_ms {
                st.left_sum_ms += left;
                st.left_games += 1;
                st.left_min_ms = Some(st.left_min_ms.map_or(left, |m| m.min(left)));
            }
        }
        GameDecision::Forfeited(_) => {}
    }
}

fn mark(s: GameState, colour: Color) -> Mark {
    match s {
        GameState::Decided(GameDecision::Forfeited(Absent::Both)) => Mark::ForfeitBoth,
        GameState::Decided(GameDecision::Forfeited(Absent::One(c))) if c == colour => {
            Mark::ForfeitLoss
        }
        GameState::Decided(GameDecision::Forfeited(_)) => Mark::ForfeitWin,
        GameState::Decided(o) => match o.halves()[colour] {
            2 => Mark::Win,
            1 => Mark::Draw,
            _ => Mark::Loss,
        },
        _ => Mark::Pending,
    }
}
