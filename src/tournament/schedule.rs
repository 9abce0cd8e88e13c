//! Who plays whom, in which round, on which board, with which colours and
//! opening: for a round robin or a gauntlet the whole tournament fixed in
//! advance, a pure function of its settings; for a Swiss event, rounds
//! appended one at a time as the event pairs them ([`Schedule::add_round`],
//! see [`crate::tournament::rounds`]).
//!
//! * Round robin: FIDE's Berger tables. With an odd number of players a
//!   dummy player is added and whoever meets it has a bye that round.
//! * Gauntlet: the first player against each of the others in turn.
//! * `cycles`: the whole schedule again, colours reversed in every second
//!   cycle (2 = a double round robin).
//! * `games_per_pairing`: each pairing of a Berger round is played this
//!   many times in a row, colours alternating; each game is a round of its
//!   own, so that a program still plays one game at a time.
//! * `swap: false` (`--no-swap`): no colours reversed, by repeat or cycle:
//!   every game of a pairing has the colours of its first.
//! * `endless` (a match with no number of games, `argus demo`): a round
//!   robin of two players that starts with one game pair and is given the
//!   next pair ([`Schedule::add_pair`]) as the event needs it, until it is
//!   stopped (or holds [`MAX_GAMES`]).
//!
//! Openings: the k-th game of a pairing (counting through cycles and
//! repeats) plays opening `k / 2` of the opening order of
//! [`crate::record::openings::order_openings`], so games `2j` and `2j + 1`
//! of a pairing share an opening and have their colours reversed: every
//! opening is played with both colours by every pairing, and all the games
//! of one round start from the same opening.

use std::fmt;

use crate::record::openings::{nth_opening, order_openings};

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
    /// FIDE's Dutch system: each round paired once the one before is
    /// decided, `rounds` of them.
    Swiss,
    /// Matches in a bracket ([`crate::tournament::knockout`]): each round
    /// of the schedule is added once the one before is decided.
    Knockout,
}

impl Format {
    /// The name used on the command line and in the journal.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
            Format::Swiss => "swiss",
            Format::Knockout => "knockout",
        }
    }

    /// Whether its rounds are paired as the event goes (each once the one
    /// before is decided) rather than fixed in advance.
    pub fn is_dynamic(self) -> bool {
        matches!(self, Format::Swiss | Format::Knockout)
    }

    /// Reads [`Format::as_str`].
    pub fn parse(s: &str) -> Result<Format, UnknownFormat> {
        match s {
            "round-robin" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            "swiss" => Ok(Format::Swiss),
            "knockout" => Ok(Format::Knockout),
            other => Err(UnknownFormat(other.to_string())),
        }
    }
}

/// A schedule's name that is none of the formats (as given).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown schedule {0:?} (round-robin, gauntlet, swiss or knockout)")]
pub struct UnknownFormat(pub String);

/// Why a schedule cannot be made from its settings: which setting is out
/// of range, and its value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    #[error("a tournament needs at least 2 players ({0} given)")]
    TooFewPlayers(usize),
    #[error("cycles and games per pairing must be at least 1")]
    NoCycles,
    #[error("{0} games is more than a schedule may hold ({MAX_GAMES})")]
    TooManyGames(u128),
    #[error("a knockout plays its bracket once: cycles is 1")]
    KnockoutCycles,
    #[error("a {} event needs at least 1 round", .0.as_str())]
    NoRounds(Format),
    #[error(
        "a {} event pairs each round from the results so far: cycles and games per \
         pairing are 1",
        .0.as_str()
    )]
    DynamicCycles(Format),
    #[error(
        "a {} event gives each game its colours as it pairs: they cannot be kept fixed",
        .0.as_str()
    )]
    FixedColours(Format),
    #[error(
        "only a match (a round robin of 2 players, one cycle) plays until it is stopped: \
         not a {} of {players} players",
        .format.as_str()
    )]
    Endless { format: Format, players: usize },
}

/// Why a round's pairing does not fit a schedule; nothing was added.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoundError {
    #[error("this schedule was fixed in advance")]
    Fixed,
    #[error("a pairing for round {round}, when round {next} is next (of {of})")]
    NotNext { round: u32, next: u32, of: u32 },
    #[error("round {round}'s pairing names {player}, who is not in the event")]
    Stranger { round: u32, player: PlayerId },
    #[error("round {round}'s pairing names {player} twice")]
    Twice { round: u32, player: PlayerId },
}

error_words!(UnknownFormat, ScheduleError, RoundError);

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
    /// The rounds of a format whose rounds are paired as it goes (at
    /// least 1 then; unused by the others).
    pub rounds: u32,
    /// Colours reversed in every second game of a pairing and every second
    /// cycle (`false`: `--no-swap`, each pairing's games all with the
    /// colours of its first; a round robin or a gauntlet only).
    pub swap: bool,
    /// No number of games: game pairs are added as the event goes, until it
    /// is stopped (a match only; `cycles` and `games_per_pairing` are then
    /// unused: the schedule starts with one pair).
    pub endless: bool,
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
            rounds: 0,
            swap: true,
            endless: false,
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

/// A player without a game in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bye {
    pub round: u32,
    pub player: PlayerId,
    pub kind: ByeKind,
}

/// What a round without a game is, and what it is worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByeKind {
    /// A round robin's odd player out: no game, no point (not scored).
    Rest,
    /// The pairing-allocated bye of a Swiss round: a win's point (TRF `U`).
    Allocated,
    /// A bye the player asked for, worth half a point (TRF `H`).
    Half,
    /// A round without a point: a bye asked for at zero, or a round
    /// before a late entry joined (TRF `Z`).
    Zero,
}

impl ByeKind {
    /// What it is worth, in half points.
    pub fn halves(self) -> u32 {
        match self {
            ByeKind::Allocated => 2,
            ByeKind::Half => 1,
            ByeKind::Rest | ByeKind::Zero => 0,
        }
    }

    /// Its letter in the journal (TRF's, and `R` for a rest).
    pub fn letter(self) -> char {
        match self {
            ByeKind::Rest => 'R',
            ByeKind::Allocated => 'U',
            ByeKind::Half => 'H',
            ByeKind::Zero => 'Z',
        }
    }

    /// Reads [`ByeKind::letter`].
    pub fn from_letter(c: char) -> Option<ByeKind> {
        [
            ByeKind::Rest,
            ByeKind::Allocated,
            ByeKind::Half,
            ByeKind::Zero,
        ]
        .into_iter()
        .find(|k| k.letter() == c)
    }
}

/// One round's pairing, as a pairer gives it and the journal keeps it: the
/// games board by board (White, Black) and who has no game.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RoundPairing {
    /// 1-based.
    pub round: u32,
    pub games: Vec<(PlayerId, PlayerId)>,
    pub byes: Vec<(PlayerId, ByeKind)>,
}

/// The whole tournament's games (a dynamic format's: those paired so
/// far).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    settings: ScheduleSettings,
    games: Vec<ScheduledGame>,
    byes: Vec<Bye>,
    /// Rounds made (paired, for a dynamic format).
    rounds: u32,
    /// The opening of each round of a dynamic format (`k`-th round:
    /// `openings[k]`).
    openings: Vec<(usize, bool)>,
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
    pub fn new(settings: &ScheduleSettings) -> Result<Schedule, ScheduleError> {
        let s = settings;
        if s.players < 2 {
            return Err(ScheduleError::TooFewPlayers(s.players));
        }
        if s.endless {
            return Schedule::endless(s);
        }
        if s.cycles == 0 || s.games_per_pairing == 0 {
            return Err(ScheduleError::NoCycles);
        }
        let pairings = match s.format {
            Format::RoundRobin => s.players * (s.players - 1) / 2,
            Format::Gauntlet => s.players - 1,
            Format::Swiss | Format::Knockout => return Schedule::dynamic(s),
        };
        let total = (pairings as u128) * u128::from(s.cycles) * u128::from(s.games_per_pairing);
        if total > MAX_GAMES as u128 {
            return Err(ScheduleError::TooManyGames(total));
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
                Format::Swiss | Format::Knockout => {}
            }
        }
        Ok(Schedule {
            settings: s.clone(),
            games: b.games,
            byes: b.byes,
            rounds: b.round,
            openings: Vec::new(),
        })
    }

    /// A match without an end: its first game pair, the next ones added by
    /// [`Schedule::add_pair`].
    fn endless(s: &ScheduleSettings) -> Result<Schedule, ScheduleError> {
        if s.format != Format::RoundRobin || s.players != 2 || s.cycles != 1 {
            return Err(ScheduleError::Endless {
                format: s.format,
                players: s.players,
            });
        }
        let mut schedule = Schedule {
            settings: s.clone(),
            games: Vec::new(),
            byes: Vec::new(),
            rounds: 0,
            openings: Vec::new(),
        };
        schedule.add_pair();
        Ok(schedule)
    }

    /// Whether game pairs are added as the event goes, with no end.
    pub fn is_endless(&self) -> bool {
        self.settings.endless
    }

    /// Appends the next game pair of an endless match (each game a round of
    /// its own, as a pairing's repeats are): the `k`-th game of the pairing
    /// with the colours and opening a pairing's `k`-th game has (the pair's
    /// second game reversed, the pair sharing an opening; first White the
    /// first player). Whether it added them: not to a schedule with an end,
    /// nor past [`MAX_GAMES`].
    pub fn add_pair(&mut self) -> bool {
        if !self.settings.endless || self.games.len() + 2 > MAX_GAMES {
            return false;
        }
        for _ in 0..2 {
            let k = u32::try_from(self.games.len()).unwrap_or(u32::MAX);
            let swap = self.settings.swap && k % 2 == 1;
            let (white, black) = if swap { (1, 0) } else { (0, 1) };
            self.rounds += 1;
            self.games.push(ScheduledGame {
                number: k.saturating_add(1),
                round: self.rounds,
                board: 1,
                white: PlayerId(white),
                black: PlayerId(black),
                opening: nth_opening(self.settings.openings, k, self.settings.openings_seed)
                    .map(|(o, _)| o),
            });
        }
        true
    }

    /// A schedule whose rounds are paired as the event goes: empty until
    /// [`Schedule::add_round`].
    fn dynamic(s: &ScheduleSettings) -> Result<Schedule, ScheduleError> {
        if !s.swap {
            return Err(ScheduleError::FixedColours(s.format));
        }
        if s.format == Format::Knockout {
            // Its rounds: as many as its matches take
            // ([`crate::tournament::knockout`]); its games' openings
            // follow each match's games ([`Schedule::add_round`]).
            if s.cycles != 1 {
                return Err(ScheduleError::KnockoutCycles);
            }
            return Ok(Schedule {
                settings: s.clone(),
                games: Vec::new(),
                byes: Vec::new(),
                rounds: 0,
                openings: Vec::new(),
            });
        }
        if s.rounds == 0 {
            return Err(ScheduleError::NoRounds(s.format));
        }
        if s.cycles != 1 || s.games_per_pairing != 1 {
            return Err(ScheduleError::DynamicCycles(s.format));
        }
        let most = (s.players / 2) as u128 * u128::from(s.rounds);
        if most > MAX_GAMES as u128 {
            return Err(ScheduleError::TooManyGames(most));
        }
        Ok(Schedule {
            settings: s.clone(),
            games: Vec::new(),
            byes: Vec::new(),
            rounds: 0,
            openings: order_openings(s.openings, s.rounds, s.openings_seed),
        })
    }

    /// Whether the rounds are paired as the event goes.
    pub fn is_dynamic(&self) -> bool {
        self.settings.format.is_dynamic()
    }

    /// The rounds the event will have: those made, for a fixed schedule;
    /// the rounds asked for, for a dynamic one.
    pub fn planned_rounds(&self) -> u32 {
        if self.settings.format == Format::Knockout {
            // Not known in advance: its bracket says when it is over.
            u32::MAX
        } else if self.is_dynamic() {
            self.settings.rounds
        } else {
            self.rounds
        }
    }

    /// Appends the next round of a dynamic schedule: its games numbered on
    /// from the last, boards in the pairing's order, every game of the
    /// round from the round's opening. The error says why the pairing
    /// does not fit (another round than the next, a player twice or
    /// unknown); nothing is added then.
    pub fn add_round(&mut self, pairing: &RoundPairing) -> Result<(), RoundError> {
        if !self.is_dynamic() {
            return Err(RoundError::Fixed);
        }
        let r = pairing.round;
        if r != self.rounds + 1 || r > self.planned_rounds() {
            return Err(RoundError::NotNext {
                round: r,
                next: self.rounds + 1,
                of: self.settings.rounds,
            });
        }
        let mut seen = vec![false; self.settings.players];
        let everyone = pairing
            .games
            .iter()
            .flat_map(|&(w, b)| [w, b])
            .chain(pairing.byes.iter().map(|b| b.0));
        for p in everyone {
            match seen.get_mut(p.0) {
                None => {
                    return Err(RoundError::Stranger {
                        round: r,
                        player: p,
                    });
                }
                Some(true) => {
                    return Err(RoundError::Twice {
                        round: r,
                        player: p,
                    });
                }
                Some(s) => *s = true,
            }
        }
        let round_opening = self.openings.get(r as usize - 1).map(|&(o, _)| o);
        for (i, &(white, black)) in pairing.games.iter().enumerate() {
            // A knockout's game: the k-th of its match (the games the two
            // have played) plays as a pairing's k-th game does.
            let opening = if self.settings.format == Format::Knockout {
                let k = self
                    .games
                    .iter()
                    .filter(|g| g.has(white) && g.has(black))
                    .count();
                let k = u32::try_from(k).unwrap_or(u32::MAX);
                order_openings(
                    self.settings.openings,
                    k.saturating_add(1),
                    self.settings.openings_seed,
                )
                .last()
                .map(|&(o, _)| o)
            } else {
                round_opening
            };
            self.games.push(ScheduledGame {
                number: u32::try_from(self.games.len() + 1).unwrap_or(u32::MAX),
                round: r,
                board: u32::try_from(i + 1).unwrap_or(u32::MAX),
                white,
                black,
                opening,
            });
        }
        self.byes
            .extend(pairing.byes.iter().map(|&(player, kind)| Bye {
                round: r,
                player,
                kind,
            }));
        self.rounds = r;
        Ok(())
    }

    /// Round `round`'s pairing as it was made.
    pub fn pairing(&self, round: u32) -> RoundPairing {
        RoundPairing {
            round,
            games: self
                .games
                .iter()
                .filter(|g| g.round == round)
                .map(|g| (g.white, g.black))
                .collect(),
            byes: self
                .byes
                .iter()
                .filter(|b| b.round == round)
                .map(|b| (b.player, b.kind))
                .collect(),
        }
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

    /// The most games any round has (the boards that can be busy at once);
    /// for a dynamic schedule, the most any round can have.
    pub fn widest_round(&self) -> u32 {
        if self.is_dynamic() {
            return u32::try_from(self.settings.players / 2).unwrap_or(u32::MAX);
        }
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
                            kind: ByeKind::Rest,
                        });
                        continue;
                    }
                    board += 1;
                    self.push(board, (w, b), s.swap && (cycle + repeat) % 2 == 1, k);
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
                self.push(1, pair, s.swap && (cycle + repeat) % 2 == 1, k);
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
