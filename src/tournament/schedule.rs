//! Who plays whom, in which round, on which board, with which colours and
//! opening: the whole tournament fixed in advance, a pure function of its
//! settings.
//!
//! * Round robin: FIDE's Berger tables. With an odd number of players a
//!   dummy player is added and whoever meets it has a bye that round.
//! * Gauntlet: the first player against each of the others in turn.
//! * `cycles`: the whole schedule again, colours reversed in every second
//!   cycle (2 = a double round robin).
//! * `games_per_pairing`: each pairing of a Berger round is played this
//!   many times in a row, colours alternating; each game is a round of its
//!   own, so that a program still plays one game at a time.
//!
//! Openings: the k-th game of a pairing (counting through cycles and
//! repeats) plays opening `k / 2` of the opening order of
//! [`crate::record::openings::order_openings`], so games `2j` and `2j + 1`
//! of a pairing share an opening and have their colours reversed: every
//! opening is played with both colours by every pairing, and all the games
//! of one round start from the same opening.

use std::fmt;

use crate::record::openings::order_openings;

/// The most games a schedule may hold (its list takes ~40 bytes a game).
pub const MAX_GAMES: usize = 1_000_000;

/// A player, by its place in the player list (its seed: 0 is the first
/// player given).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct PlayerId(pub usize);

impl fmt::Display for PlayerId {
    /// `player N`, counting from 1 as the player list does.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.0 + 1)
    }
}

/// How the pairings are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Everyone against everyone (Berger tables).
    RoundRobin,
    /// The first player against each of the others.
    Gauntlet,
}

impl Format {
    /// The name used on the command line and in the journal.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        }
    }

    /// Reads [`Format::as_str`].
    pub fn parse(s: &str) -> Result<Format, String> {
        match s {
            "round-robin" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            other => Err(format!(
                "unknown schedule {other:?} (round-robin or gauntlet)"
            )),
        }
    }
}

/// What the schedule is made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduleSettings {
    pub format: Format,
    /// Number of players (at least 2).
    pub players: usize,
    /// Times the whole schedule is played (at least 1).
    pub cycles: u32,
    /// Games each pairing plays in a row (at least 1).
    pub games_per_pairing: u32,
    /// Number of openings (0: every game from the initial position).
    pub openings: usize,
    /// Shuffle the openings with this seed; `None` keeps file order.
    pub openings_seed: Option<u64>,
}

impl Default for ScheduleSettings {
    fn default() -> ScheduleSettings {
        ScheduleSettings {
            format: Format::RoundRobin,
            players: 2,
            cycles: 1,
            games_per_pairing: 1,
            openings: 0,
            openings_seed: None,
        }
    }
}

/// One game of the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScheduledGame {
    /// 1-based, in schedule order (round by round, board by board).
    pub number: u32,
    /// 1-based round.
    pub round: u32,
    /// 1-based board of the round's pairing table: the `B` of the PGN
    /// Round tag `R.B`.
    pub board: u32,
    pub white: PlayerId,
    pub black: PlayerId,
    /// Index into the openings, if there are any.
    pub opening: Option<usize>,
}

impl ScheduledGame {
    /// The PGN Round tag: `R.B`.
    pub fn round_tag(&self) -> String {
        format!("{}.{}", self.round, self.board)
    }

    /// Whether `p` plays in this game.
    pub fn has(&self, p: PlayerId) -> bool {
        self.white == p || self.black == p
    }

    /// `p`'s opponent (`p` must play in the game).
    pub fn opponent(&self, p: PlayerId) -> PlayerId {
        if self.white == p {
            self.black
        } else {
            self.white
        }
    }
}

/// A player without a game in a round (odd number of players).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bye {
    pub round: u32,
    pub player: PlayerId,
}

/// The whole tournament's games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    settings: ScheduleSettings,
    games: Vec<ScheduledGame>,
    byes: Vec<Bye>,
    rounds: u32,
}

/// The pairings of round `round` (0-based) of FIDE's Berger table for `n`
/// players (`n` even), board by board, White first, as 0-based players.
///
/// The last player is fixed; the opponent it meets moves on by `n / 2`
/// places each round, and it has White in every second round; the other
/// boards pair the players either side of that opponent.
pub fn berger_round(n: usize, round: usize) -> Vec<(usize, usize)> {
    debug_assert!(
        n >= 2 && n.is_multiple_of(2),
        "Berger tables need an even count"
    );
    let m = n - 1;
    let a = (round % m) * (n / 2) % m;
    let mut boards = Vec::with_capacity(n / 2);
    boards.push(if round.is_multiple_of(2) {
        (a, m)
    } else {
        (m, a)
    });
    for k in 1..n / 2 {
        boards.push(((a + k) % m, (a + m - k) % m));
    }
    boards
}

impl Schedule {
    /// The schedule for `settings`; the error says which setting is out of
    /// range.
    pub fn new(settings: &ScheduleSettings) -> Result<Schedule, String> {
        let s = settings;
        if s.players < 2 {
            return Err(format!(
                "a tournament needs at least 2 players ({} given)",
                s.players
            ));
        }
        if s.cycles == 0 || s.games_per_pairing == 0 {
            return Err("cycles and games per pairing must be at least 1".into());
        }
        let pairings = match s.format {
            Format::RoundRobin => s.players * (s.players - 1) / 2,
            Format::Gauntlet => s.players - 1,
        };
        let total = (pairings as u128) * u128::from(s.cycles) * u128::from(s.games_per_pairing);
        if total > MAX_GAMES as u128 {
            return Err(format!(
                "{total} games is more than a schedule may hold ({MAX_GAMES})"
            ));
        }
        let openings = order_openings(
            s.openings,
            s.cycles.saturating_mul(s.games_per_pairing),
            s.openings_seed,
        );
        let mut b = Builder {
            games: Vec::with_capacity(total as usize),
            byes: Vec::new(),
            round: 0,
            openings,
        };
        for cycle in 0..s.cycles {
            match s.format {
                Format::RoundRobin => b.round_robin_cycle(s, cycle),
                Format::Gauntlet => b.gauntlet_cycle(s, cycle),
            }
        }
        Ok(Schedule {
            settings: s.clone(),
            games: b.games,
            byes: b.byes,
            rounds: b.round,
        })
    }

    pub fn settings(&self) -> &ScheduleSettings {
        &self.settings
    }

    /// Every game, in order (game `n` is at index `n - 1`).
    pub fn games(&self) -> &[ScheduledGame] {
        &self.games
    }

    /// Game `number`, if the schedule has it.
    pub fn game(&self, number: u32) -> Option<&ScheduledGame> {
        let i = usize::try_from(number).ok()?.checked_sub(1)?;
        self.games.get(i)
    }

    /// Every bye, round by round.
    pub fn byes(&self) -> &[Bye] {
        &self.byes
    }

    /// Number of rounds.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.settings.players
    }

    /// The most games any round has (the boards that can be busy at once).
    pub fn widest_round(&self) -> u32 {
        self.games.iter().map(|g| g.board).max().unwrap_or(0)
    }
}

struct Builder {
    games: Vec<ScheduledGame>,
    byes: Vec<Bye>,
    /// Rounds made so far.
    round: u32,
    /// The opening of the k-th game of a pairing.
    openings: Vec<(usize, bool)>,
}

impl Builder {
    fn round_robin_cycle(&mut self, s: &ScheduleSettings, cycle: u32) {
        let n = s.players + s.players % 2;
        for r in 0..n - 1 {
            let table = berger_round(n, r);
            for repeat in 0..s.games_per_pairing {
                self.round += 1;
                let k = cycle * s.games_per_pairing + repeat;
                let mut board = 0;
                for &(w, b) in &table {
                    if w == s.players || b == s.players {
                        let player = PlayerId(w.min(b));
                        self.byes.push(Bye {
                            round: self.round,
                            player,
                        });
                        continue;
                    }
                    board += 1;
                    self.push(board, (w, b), (cycle + repeat) % 2 == 1, k);
                }
            }
        }
    }

    fn gauntlet_cycle(&mut self, s: &ScheduleSettings, cycle: u32) {
        for opponent in 1..s.players {
            for repeat in 0..s.games_per_pairing {
                self.round += 1;
                let k = cycle * s.games_per_pairing + repeat;
                let pair = if opponent % 2 == 1 {
                    (0, opponent)
                } else {
                    (opponent, 0)
                };
                self.push(1, pair, (cycle + repeat) % 2 == 1, k);
            }
        }
    }

    /// Adds the game of `pair` (White first) on `board` of the current
    /// round, colours swapped if `swap`, as the `k`-th game of its pairing.
    fn push(&mut self, board: u32, pair: (usize, usize), swap: bool, k: u32) {
        let (w, b) = if swap { (pair.1, pair.0) } else { pair };
        let opening = usize::try_from(k)
            .ok()
            .and_then(|k| self.openings.get(k))
            .map(|&(o, _)| o);
        self.games.push(ScheduledGame {
            number: u32::try_from(self.games.len() + 1).unwrap_or(u32::MAX),
            round: self.round,
            board,
            white: PlayerId(w),
            black: PlayerId(b),
            opening,
        });
    }
}
