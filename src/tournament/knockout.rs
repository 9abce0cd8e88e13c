//! A knockout's bracket, sans IO: the seeding, the byes, each match's
//! games, when a match is decided, which tie-break games follow a level
//! match, who advances, and the bracket as data and as text.
//!
//! * Seeding: by rating, highest first, then by name
//!   ([`Knockout::seeding`]). The bracket has `P` places, the power of
//!   two at or above the count of players; seed `s` meets seed `P + 1 - s`
//!   in the first round (1 the lowest, 2 the second lowest, ...) and the
//!   places beyond the last player are byes, so the byes go to the top
//!   seeds. Seeds 1 and 2 can only meet in the final, 1 to 4 only from
//!   the semi-finals on.
//! * A match is [`KnockoutSettings::games`] games, colours alternating,
//!   the higher seed White in the first. It stops as soon as one side
//!   leads by more than the games left can make up.
//! * A level match goes to the tie-break: sets of [`Tiebreak::games`]
//!   games at the tie-break's control, each set a match of its own, while
//!   level up to [`TIEBREAK_SETS`] sets; then one decisive game
//!   (Armageddon: White must win, a draw is Black's), in which the higher
//!   seed has Black. Without a tie-break a level match goes straight to
//!   the decisive game, at the event's control.
//! * A player that withdraws loses its match by walkover (its games not
//!   yet played are the core's to forfeit); a match whose two players
//!   both withdrew sends nobody on, and the player it would have met
//!   advances by walkover.
//!
//! The games of one match are played one at a time: each call of
//! [`Knockout::next_games`] gives the next game of every match still
//! open, a round of the tournament's schedule, and the next round of the
//! bracket opens once every match of the current one is decided.

use std::fmt;

/// How many tie-break sets a level match plays at most before the
/// decisive game.
pub const TIEBREAK_SETS: u32 = 3;

/// The most players a knockout takes (a bracket of 1024 places).
pub const MAX_PLAYERS: usize = 1024;

use crate::tournament::schedule::PlayerId;

/// The tie-break of a level match: sets of `games` games at `control`,
/// then the decisive game at `control`, or with time odds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tiebreak {
    /// Games a set (at least 1).
    pub games: u32,
    /// The time control, as `--tc` takes it (checked by the caller).
    pub control: String,
    /// The decisive game's time odds: White's control, then Black's (the
    /// higher seed, who has the draw odds, usually with less time), as
    /// `--tc` takes them; `None`: both at `control`.
    pub armageddon: Option<(String, String)>,
}

/// Why a knockout's tie-break (`G@CONTROL[,armageddon=WHITE/BLACK]`) does
/// not read: the part at fault and the whole text, as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TiebreakError {
    #[error(
        "{0:?} in {1:?}: after the comma, armageddon=WHITE/BLACK (the decisive game's \
         controls: 5+0.05/4+0.05)"
    )]
    NotArmageddon(String, String),
    #[error("{0:?} in {1:?}: armageddon=WHITE/BLACK, two controls")]
    NotTwoControls(String, String),
    #[error("{0:?} in {1:?}: a control is missing")]
    MissingControl(String, String),
    #[error("{0:?} is not GAMES@CONTROL (2@1+0.01: sets of 2 games at 1 s + 10 ms)")]
    NotSets(String),
    #[error("{0:?} in {1:?}: the games of a set are 1 to 100")]
    Games(String, String),
    #[error("{0:?}: no time control after the @")]
    NoControl(String),
}

/// Why a knockout's bracket cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BracketError {
    #[error("a knockout takes 2 to {MAX_PLAYERS} players ({0} given)")]
    Players(usize),
    #[error("a knockout match needs at least 1 game")]
    NoGames,
}

error_words!(TiebreakError, BracketError);

impl Tiebreak {
    /// Reads `G@CONTROL` (`2@1+0.01`: sets of 2 games at 1 s + 10 ms),
    /// with `,armageddon=WHITE/BLACK` after it for the decisive game's
    /// time odds (`2@1+0.01,armageddon=5+0.05/4+0.05`). The controls are
    /// returned as given, for the caller to check.
    pub fn parse(s: &str) -> Result<Tiebreak, TiebreakError> {
        let (sets, odds) = match s.split_once(',') {
            Some((sets, odds)) => (sets, Some(odds)),
            None => (s, None),
        };
        let armageddon = match odds {
            None => None,
            Some(odds) => {
                let at = || (odds.to_string(), s.to_string());
                let controls = odds
                    .strip_prefix("armageddon=")
                    .ok_or_else(|| TiebreakError::NotArmageddon(at().0, at().1))?;
                let (w, b) = controls
                    .split_once('/')
                    .ok_or_else(|| TiebreakError::NotTwoControls(at().0, at().1))?;
                let bad = |c: &str| c.is_empty() || c.chars().any(char::is_whitespace);
                if bad(w) || bad(b) {
                    return Err(TiebreakError::MissingControl(at().0, at().1));
                }
                Some((w.to_string(), b.to_string()))
            }
        };
        let s = sets;
        let (games, control) = s
            .split_once('@')
            .ok_or_else(|| TiebreakError::NotSets(s.to_string()))?;
        let games: u32 = games
            .parse()
            .ok()
            .filter(|&g| (1..=100).contains(&g))
            .ok_or_else(|| TiebreakError::Games(games.to_string(), s.to_string()))?;
        if control.is_empty() || control.chars().any(char::is_whitespace) {
            return Err(TiebreakError::NoControl(s.to_string()));
        }
        Ok(Tiebreak {
            games,
            control: control.to_string(),
            armageddon,
        })
    }

    /// Every control it names, to be checked (`--tc`'s forms).
    pub fn controls(&self) -> Vec<&str> {
        let mut all = vec![self.control.as_str()];
        if let Some((w, b)) = &self.armageddon {
            all.extend([w.as_str(), b.as_str()]);
        }
        all
    }
}

impl fmt::Display for Tiebreak {
    /// As [`Tiebreak::parse`] reads it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.games, self.control)?;
        if let Some((w, b)) = &self.armageddon {
            write!(f, ",armageddon={w}/{b}")?;
        }
        Ok(())
    }
}

/// How the matches are played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnockoutSettings {
    /// Games a match (at least 1).
    pub games: u32,
    /// The tie-break of a level match; `None`: straight to the decisive
    /// game.
    pub tiebreak: Option<Tiebreak>,
}

/// Which part of its match a game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// One of the match's games.
    Regular,
    /// A game of tie-break set `n` (from 1).
    Tiebreak(u32),
    /// The decisive game: White must win, a draw is Black's.
    Armageddon,
}

impl Stage {
    /// `regular`, `tiebreak N`, `armageddon`.
    pub fn name(&self) -> String {
        match self {
            Stage::Regular => "regular".into(),
            Stage::Tiebreak(n) => format!("tiebreak {n}"),
            Stage::Armageddon => "armageddon".into(),
        }
    }
}

/// One game of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchGame {
    /// Its number in the tournament's schedule.
    pub number: u32,
    pub white: PlayerId,
    pub black: PlayerId,
    pub stage: Stage,
    /// Half points of White and Black once decided (a double forfeit is
    /// 0 and 0).
    pub halves: Option<(u32, u32)>,
}

impl MatchGame {
    /// Half points of `p` (a player of the game) and its opponent.
    fn halves_of(&self, p: PlayerId) -> Option<(u32, u32)> {
        let (w, b) = self.halves?;
        Some(if p == self.white { (w, b) } else { (b, w) })
    }
}

/// How a match was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By {
    /// No opponent in the first round.
    Bye,
    /// The match's own games.
    Score,
    /// Tie-break set `n`.
    Tiebreak(u32),
    /// The decisive game.
    Armageddon,
    /// The opponent withdrew, or never came (both players of the match
    /// it would have come from withdrew).
    Walkover,
}

impl By {
    /// `bye`, `score`, `tiebreak N`, `armageddon`, `walkover`.
    pub fn name(&self) -> String {
        match self {
            By::Bye => "bye".into(),
            By::Score => "score".into(),
            By::Tiebreak(n) => format!("tiebreak {n}"),
            By::Armageddon => "armageddon".into(),
            By::Walkover => "walkover".into(),
        }
    }
}

/// One match of the bracket: the higher seed first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// The players' seeds (1-based) and the players; `None`: no player
    /// (a bye, or nobody came on from the match before).
    pub sides: [Option<(u32, PlayerId)>; 2],
    pub games: Vec<MatchGame>,
    /// Once decided: how, and the side (0 or 1) that goes on, `None` when
    /// neither does.
    pub decided: Option<(By, Option<usize>)>,
}

impl Match {
    fn new(a: Option<(u32, PlayerId)>, b: Option<(u32, PlayerId)>) -> Match {
        // The higher seed first.
        let sides = match (a, b) {
            (Some(x), Some(y)) if y.0 < x.0 => [b, a],
            (None, Some(_)) => [b, a],
            _ => [a, b],
        };
        Match {
            sides,
            games: Vec::new(),
            decided: None,
        }
    }

    /// What a side without a player is called: `bye` in the first round,
    /// `nobody` after a double withdrawal.
    pub fn absent(&self) -> &'static str {
        if matches!(self.decided, Some((By::Bye, _))) {
            "bye"
        } else {
            "nobody"
        }
    }

    fn player(&self, side: usize) -> Option<PlayerId> {
        self.sides[side].map(|(_, p)| p)
    }

    /// The player that goes on, once decided.
    pub fn winner(&self) -> Option<PlayerId> {
        let (_, side) = self.decided?;
        self.player(side?)
    }

    fn winner_seeded(&self) -> Option<(u32, PlayerId)> {
        let (_, side) = self.decided?;
        self.sides[side?]
    }

    /// Half points of side 0 and side 1 in the games of `stage`, and the
    /// number of them decided and not.
    pub fn score(&self, stage: Stage) -> (u32, u32) {
        let Some(a) = self.player(0) else {
            return (0, 0);
        };
        self.games
            .iter()
            .filter(|g| g.stage == stage)
            .filter_map(|g| g.halves_of(a))
            .fold((0, 0), |(x, y), (p, q)| (x + p, y + q))
    }

    /// The tie-break sets begun so far.
    pub fn sets(&self) -> u32 {
        self.games
            .iter()
            .filter_map(|g| match g.stage {
                Stage::Tiebreak(n) => Some(n),
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }

    /// The stages it has games of, in order.
    pub fn stages(&self) -> Vec<Stage> {
        let mut stages = vec![Stage::Regular];
        stages.extend((1..=self.sets()).map(Stage::Tiebreak));
        stages.push(Stage::Armageddon);
        stages.retain(|&st| self.games.iter().any(|g| g.stage == st));
        stages
    }

    fn count(&self, stage: Stage) -> (u32, u32) {
        let all = self.games.iter().filter(|g| g.stage == stage);
        let done = all.clone().filter(|g| g.halves.is_some()).count() as u32;
        (done, all.count() as u32)
    }

    /// The side that leads `stage` by more than its games left (of `of`)
    /// can make up; `Some(None)` when all `of` are played and level.
    fn verdict(&self, stage: Stage, of: u32) -> Option<Option<usize>> {
        let (a, b) = self.score(stage);
        let (done, _) = self.count(stage);
        let left = 2 * of.saturating_sub(done);
        if a > b + left {
            Some(Some(0))
        } else if b > a + left {
            Some(Some(1))
        } else if left == 0 {
            Some(None)
        } else {
            None
        }
    }

    /// Decides the match if it can be: a missing or withdrawn side, a
    /// lead that cannot be made up, the decisive game.
    fn settle(&mut self, round: usize, s: &KnockoutSettings, withdrawn: &[bool]) {
        if self.decided.is_some() {
            return;
        }
        let gone = |side: usize| match self.sides[side] {
            None => true,
            Some((_, p)) => withdrawn.get(p.0).copied().unwrap_or(false),
        };
        let missing = [self.sides[0].is_none(), self.sides[1].is_none()];
        self.decided = match (gone(0), gone(1)) {
            (true, true) => Some((By::Walkover, None)),
            (false, true) if round == 0 && missing[1] => Some((By::Bye, Some(0))),
            (false, true) => Some((By::Walkover, Some(0))),
            (true, false) => Some((By::Walkover, Some(1))),
            (false, false) => self.by_games(s),
        };
    }

    fn by_games(&self, s: &KnockoutSettings) -> Option<(By, Option<usize>)> {
        if let Some(side) = self.verdict(Stage::Regular, s.games)? {
            return Some((By::Score, Some(side)));
        }
        if let Some(tb) = &s.tiebreak {
            for n in 1..=TIEBREAK_SETS {
                if let Some(side) = self.verdict(Stage::Tiebreak(n), tb.games)? {
                    return Some((By::Tiebreak(n), Some(side)));
                }
            }
        }
        let g = self
            .games
            .iter()
            .find(|g| g.stage == Stage::Armageddon && g.halves.is_some())?;
        let (w, b) = g.halves?;
        let white_side = usize::from(self.player(0) != Some(g.white));
        Some(match (w, b) {
            (2, _) => (By::Armageddon, Some(white_side)),
            (0, 0) => (By::Armageddon, None),
            _ => (By::Armageddon, Some(1 - white_side)),
        })
    }

    /// The next game of an open match with no game pending: its stage,
    /// and White's and Black's sides.
    fn next(&self, s: &KnockoutSettings) -> Option<(Stage, usize)> {
        if self.decided.is_some() || self.games.iter().any(|g| g.halves.is_none()) {
            return None;
        }
        let (_, regular) = self.count(Stage::Regular);
        let stage = if regular < s.games {
            Stage::Regular
        } else if let Some(tb) = &s.tiebreak {
            let set = self.sets().max(1);
            let (_, played) = self.count(Stage::Tiebreak(set));
            if played < tb.games {
                Stage::Tiebreak(set)
            } else if set < TIEBREAK_SETS {
                Stage::Tiebreak(set + 1)
            } else {
                Stage::Armageddon
            }
        } else {
            Stage::Armageddon
        };
        // The higher seed is White in the first game of each stage and
        // Black in the decisive game.
        let white = match stage {
            Stage::Armageddon => 1,
            _ => (self.count(stage).1 % 2) as usize,
        };
        Some((stage, white))
    }
}

/// A game for the tournament's schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewGame {
    /// Its number in the schedule.
    pub number: u32,
    pub white: PlayerId,
    pub black: PlayerId,
    pub stage: Stage,
    /// How many games its match played before it (for the opening).
    pub index: u32,
}

/// The bracket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Knockout {
    settings: KnockoutSettings,
    /// Players in seed order: `seeds[0]` is seed 1.
    seeds: Vec<PlayerId>,
    /// The rounds opened so far, first round first, each match in bracket
    /// order (round `r + 1`'s match `j` is between the winners of round
    /// `r`'s matches `2j` and `2j + 1`).
    rounds: Vec<Vec<Match>>,
    withdrawn: Vec<bool>,
}

/// Bracket order for `p` places (a power of two): the seeds (1-based) by
/// place, so that place `2j` meets place `2j + 1` and seeds 1 and 2 are in
/// different halves: for 8, `1 8 4 5 2 7 3 6`.
pub fn bracket_order(p: usize) -> Vec<u32> {
    let mut order = vec![1u32];
    while order.len() < p {
        let size = 2 * order.len() as u32;
        order = order.iter().flat_map(|&s| [s, size + 1 - s]).collect();
    }
    order
}

impl Knockout {
    /// The seed order of players named `names` with `ratings` (0 when
    /// unknown): by rating, highest first, then by name, then as given.
    pub fn seeding(names: &[String], ratings: &[u32]) -> Vec<PlayerId> {
        let mut order: Vec<PlayerId> = (0..names.len()).map(PlayerId).collect();
        let rating = |p: &PlayerId| ratings.get(p.0).copied().unwrap_or(0);
        order.sort_by(|a, b| {
            rating(b)
                .cmp(&rating(a))
                .then_with(|| names[a.0].cmp(&names[b.0]))
                .then_with(|| a.cmp(b))
        });
        order
    }

    /// The bracket of `seeds` (players in seed order), its first round
    /// open (the byes decided).
    pub fn new(settings: KnockoutSettings, seeds: Vec<PlayerId>) -> Result<Knockout, BracketError> {
        if seeds.len() < 2 || seeds.len() > MAX_PLAYERS {
            return Err(BracketError::Players(seeds.len()));
        }
        if settings.games == 0 {
            return Err(BracketError::NoGames);
        }
        let players = seeds.iter().map(|p| p.0).max().unwrap_or(0) + 1;
        let place = |s: u32| {
            let i = s as usize - 1;
            seeds.get(i).map(|&p| (s, p))
        };
        let order = bracket_order(seeds.len().next_power_of_two());
        let first = order
            .chunks(2)
            .map(|pair| Match::new(place(pair[0]), place(pair[1])))
            .collect();
        let mut k = Knockout {
            settings,
            seeds,
            rounds: vec![first],
            withdrawn: vec![false; players],
        };
        k.settle();
        Ok(k)
    }

    pub fn settings(&self) -> &KnockoutSettings {
        &self.settings
    }

    /// The players in seed order.
    pub fn seeds(&self) -> &[PlayerId] {
        &self.seeds
    }

    /// The seed (1-based) of `p`.
    pub fn seed_of(&self, p: PlayerId) -> Option<u32> {
        let i = self.seeds.iter().position(|&q| q == p)?;
        u32::try_from(i + 1).ok()
    }

    /// The rounds opened so far.
    pub fn rounds(&self) -> &[Vec<Match>] {
        &self.rounds
    }

    /// How many rounds the bracket has in all.
    pub fn round_count(&self) -> u32 {
        self.seeds.len().next_power_of_two().trailing_zeros()
    }

    /// `final`, `semi-finals`, `quarter-finals`, `round of 16`, ... for
    /// round `r` (0-based).
    pub fn round_name(&self, r: usize) -> String {
        let left = self.round_count().saturating_sub(r as u32);
        match left {
            1 => "final".into(),
            2 => "semi-finals".into(),
            3 => "quarter-finals".into(),
            n => format!("round of {}", 1u64 << n.min(63)),
        }
    }

    /// The winner of the final, once decided.
    pub fn champion(&self) -> Option<PlayerId> {
        let last = self.rounds.last()?;
        if self.rounds.len() as u32 != self.round_count() {
            return None;
        }
        last.first()?.winner()
    }

    /// Whether every match is decided and no round is left to open.
    pub fn is_over(&self) -> bool {
        let all = self.rounds.iter().flatten().all(|m| m.decided.is_some());
        all && self.rounds.len() as u32 == self.round_count()
    }

    /// The game numbered `number`, with its match.
    pub fn game(&self, number: u32) -> Option<(&Match, &MatchGame)> {
        self.rounds
            .iter()
            .flatten()
            .find_map(|m| Some((m, m.games.iter().find(|g| g.number == number)?)))
    }

    /// The stage of game `number`.
    pub fn stage_of(&self, number: u32) -> Option<Stage> {
        self.game(number).map(|(_, g)| g.stage)
    }

    /// The time control of game `number` when it is not the event's: the
    /// tie-break's, for a tie-break game or the decisive game after them.
    pub fn control_of(&self, number: u32) -> Option<&str> {
        let t = self.settings.tiebreak.as_ref()?;
        match self.stage_of(number)? {
            Stage::Regular => None,
            Stage::Tiebreak(_) | Stage::Armageddon => Some(&t.control),
        }
    }

    /// The decisive game's time odds, when game `number` is one and the
    /// tie-break gives them: White's control, then Black's.
    pub fn armageddon_controls(&self, number: u32) -> Option<(&str, &str)> {
        let (w, b) = self.settings.tiebreak.as_ref()?.armageddon.as_ref()?;
        (self.stage_of(number)? == Stage::Armageddon).then_some((w.as_str(), b.as_str()))
    }

    /// Game `number` ended with these half points of White and Black.
    /// Returns false for a game the bracket does not have or already has
    /// a result of.
    pub fn record(&mut self, number: u32, halves: (u32, u32)) -> bool {
        let slot = self
            .rounds
            .iter_mut()
            .flatten()
            .flat_map(|m| m.games.iter_mut())
            .find(|g| g.number == number && g.halves.is_none());
        let Some(g) = slot else {
            return false;
        };
        g.halves = Some(halves);
        self.settle();
        true
    }

    /// `players` withdrew, together: each loses its open match, and any
    /// it would have played, by walkover (two of one match: nobody goes
    /// on).
    pub fn withdraw(&mut self, players: &[PlayerId]) {
        for p in players {
            if let Some(w) = self.withdrawn.get_mut(p.0) {
                *w = true;
            }
        }
        self.settle();
    }

    fn settle(&mut self) {
        let (s, w) = (&self.settings, &self.withdrawn);
        for (r, round) in self.rounds.iter_mut().enumerate() {
            for m in round.iter_mut() {
                m.settle(r, s, w);
            }
        }
    }

    /// The games of the next round of the schedule, numbered from
    /// `first`: the next game of every open match. When every match of
    /// the current bracket round is decided, the next bracket round is
    /// opened first. Empty when the knockout is over, or while a game
    /// given before is undecided.
    pub fn next_games(&mut self, first: u32) -> Vec<NewGame> {
        loop {
            let Some(current) = self.rounds.last() else {
                return Vec::new();
            };
            if current.iter().any(|m| m.decided.is_none()) {
                break;
            }
            if self.rounds.len() as u32 >= self.round_count() {
                return Vec::new();
            }
            let next = current
                .chunks(2)
                .map(|pair| Match::new(pair[0].winner_seeded(), pair[1].winner_seeded()))
                .collect();
            self.rounds.push(next);
            self.settle();
        }
        let s = self.settings.clone();
        let mut number = first;
        let mut out = Vec::new();
        let Some(current) = self.rounds.last_mut() else {
            return out;
        };
        for m in current.iter_mut() {
            let Some((stage, white)) = m.next(&s) else {
                continue;
            };
            let (Some(w), Some(b)) = (m.player(white), m.player(1 - white)) else {
                continue;
            };
            let game = MatchGame {
                number,
                white: w,
                black: b,
                stage,
                halves: None,
            };
            out.push(NewGame {
                number,
                white: w,
                black: b,
                stage,
                index: m.games.len() as u32,
            });
            m.games.push(game);
            number += 1;
        }
        out
    }

    /// The bracket as text, one round after the other, each match on a
    /// line: `[1] Alpha - [8] Hank  2-0  Alpha on (score)`; a level match
    /// shows each stage's score (`1-1, tb1 1-1, tb2 1½-½`).
    pub fn text(&self, name: &dyn Fn(PlayerId) -> String) -> String {
        let mut out = String::new();
        for (r, round) in self.rounds.iter().enumerate() {
            out.push_str(&format!("Round {} ({})\n", r + 1, self.round_name(r)));
            for m in round {
                out.push_str(&format!("  {}\n", self.match_line(m, name)));
            }
        }
        match self.champion() {
            Some(p) => out.push_str(&format!("Winner: {}\n", name(p))),
            None if self.is_over() => out.push_str("Winner: none (both finalists withdrew)\n"),
            None => {}
        }
        out
    }

    /// One match in words (see [`Knockout::text`]).
    pub fn match_line(&self, m: &Match, name: &dyn Fn(PlayerId) -> String) -> String {
        let side = |i: usize| match m.sides[i] {
            Some((seed, p)) => format!("[{seed}] {}", name(p)),
            None => m.absent().into(),
        };
        let mut line = format!("{} - {}", side(0), side(1));
        let scores = self.scores(m);
        if !scores.is_empty() {
            line.push_str("  ");
            line.push_str(&scores.join(", "));
        }
        match m.decided {
            Some((by, Some(s))) => {
                let who = m.player(s).map(name).unwrap_or_default();
                line.push_str(&format!("  {who} on ({})", by.name()));
            }
            Some((by, None)) => line.push_str(&format!("  nobody on ({})", by.name())),
            None if m.games.is_empty() => {}
            None => line.push_str("  playing"),
        }
        line
    }

    /// Each stage's score as text, side 0 first: `1½-½`, `tb1 1-1`,
    /// `armageddon ½-½`.
    pub fn scores(&self, m: &Match) -> Vec<String> {
        m.stages()
            .into_iter()
            .map(|st| {
                let (a, b) = m.score(st);
                let score = format!("{}-{}", halves_text(a), halves_text(b));
                match st {
                    Stage::Regular => score,
                    Stage::Tiebreak(n) => format!("tb{n} {score}"),
                    Stage::Armageddon => format!("armageddon {score}"),
                }
            })
            .collect()
    }
}

/// Half points as text: `0`, `½`, `1`, `1½`, ...
pub fn halves_text(h: u32) -> String {
    match (h / 2, h % 2) {
        (0, 1) => "½".into(),
        (n, 1) => format!("{n}½"),
        (n, _) => n.to_string(),
    }
}

/// The bracket as data (the results JSON's and the web page's
/// `knockout`): names as the caller gives them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BracketData {
    /// Games a match.
    pub games_per_match: u32,
    /// The tie-break, `GAMES@CONTROL`; `None`: straight to the decisive
    /// game.
    pub tiebreak: Option<String>,
    /// How many rounds the bracket has in all (the rounds opened so far
    /// are in `rounds`).
    pub round_count: u32,
    pub rounds: Vec<RoundData>,
    /// The winner of the final, once decided.
    pub winner: Option<String>,
    /// Whether every match is decided.
    pub over: bool,
}

/// One round of the bracket.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RoundData {
    /// 1-based.
    pub round: u32,
    /// `final`, `semi-finals`, `quarter-finals`, `round of 16`, ...
    pub name: String,
    /// In bracket order: the winners of matches `2j` and `2j + 1` meet in
    /// the next round's match `j`.
    pub matches: Vec<MatchData>,
}

/// One match: the higher seed first.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MatchData {
    /// Each side's seed and name; `None`: a bye (first round) or nobody
    /// (both players of the match before withdrew).
    pub sides: [Option<SideData>; 2],
    /// Each stage played: its name (`regular`, `tiebreak N`,
    /// `armageddon`) and the half points of side 0 and side 1.
    pub scores: Vec<StageScore>,
    /// The side that goes on (0 or 1), once decided.
    pub winner_side: Option<usize>,
    /// Its name.
    pub winner: Option<String>,
    /// How it was decided: `bye`, `score`, `tiebreak N`, `armageddon`,
    /// `walkover`; `None` while open.
    pub decided_by: Option<String>,
    pub games: Vec<GameData>,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SideData {
    pub seed: u32,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StageScore {
    pub stage: String,
    pub halves: [u32; 2],
}

/// One game of a match.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GameData {
    /// Its number in the event (the key of `/game/N.pgn`).
    pub game: u32,
    pub stage: String,
    pub white: String,
    pub black: String,
    /// White's and Black's half points once decided.
    pub halves: Option<[u32; 2]>,
}

impl Knockout {
    /// The bracket as data, each player named by `name`.
    pub fn data(&self, name: &dyn Fn(PlayerId) -> String) -> BracketData {
        let rounds = self
            .rounds
            .iter()
            .enumerate()
            .map(|(r, round)| RoundData {
                round: r as u32 + 1,
                name: self.round_name(r),
                matches: round.iter().map(|m| self.match_data(m, name)).collect(),
            })
            .collect();
        BracketData {
            games_per_match: self.settings.games,
            tiebreak: self.settings.tiebreak.as_ref().map(Tiebreak::to_string),
            round_count: self.round_count(),
            rounds,
            winner: self.champion().map(name),
            over: self.is_over(),
        }
    }

    fn match_data(&self, m: &Match, name: &dyn Fn(PlayerId) -> String) -> MatchData {
        let side = |s: usize| {
            m.sides[s].map(|(seed, p)| SideData {
                seed,
                name: name(p),
            })
        };
        MatchData {
            sides: [side(0), side(1)],
            scores: m
                .stages()
                .into_iter()
                .map(|st| {
                    let (a, b) = m.score(st);
                    StageScore {
                        stage: st.name(),
                        halves: [a, b],
                    }
                })
                .collect(),
            winner_side: m.decided.and_then(|(_, s)| s),
            winner: m.winner().map(name),
            decided_by: m.decided.map(|(by, _)| by.name()),
            games: m
                .games
                .iter()
                .map(|g| GameData {
                    game: g.number,
                    stage: g.stage.name(),
                    white: name(g.white),
                    black: name(g.black),
                    halves: g.halves.map(|(w, b)| [w, b]),
                })
                .collect(),
        }
    }
}
