//! The tournament state machine: which scheduled game starts on which
//! board and when, what a player's absence costs, and when a round and the
//! tournament are over. It does no I/O and reads no clock; the same inputs
//! at the same times give the same outputs, so its journal of inputs
//! rebuilds it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use shakmaty::{ByColor, Color};

use crate::referee::GameResult;
use crate::stats::sprt::{Hypothesis, Sprt};
use crate::text::strip_control;
use crate::tournament::knockout::{BracketError, Knockout, KnockoutSettings, Tiebreak};
use crate::tournament::messages::{
    Absence, Absent, BoardId, GameDecision, Input, Output, SprtRunning, Withdrawal,
};
pub use crate::tournament::progress::GameState;
use crate::tournament::progress::Progress;
use crate::tournament::schedule::{
    Format, PlayerId, RoundPairing, Schedule, ScheduleError, ScheduleSettings, ScheduledGame,
};
use crate::tournament::stats::PairTally;

/// The whole configuration of a tournament.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// PGN Event.
    pub event: String,
    /// The players' names, in seed order (`schedule.players` of them).
    pub names: Vec<String>,
    pub schedule: ScheduleSettings,
    /// Games at once; `None`, or more than a round has: as many as a
    /// round has.
    pub boards: Option<u32>,
    pub absence: Absence,
    /// The most instances of one player that may play at once (games at
    /// once for a player): 1, each player plays one game at a time and a
    /// round's games are the most that run at once; more, each player may
    /// play that many games at once, each with an instance of its own
    /// (an engine started once per board, a `tcp:NAME` connected once per
    /// board), and the boards take games from any round.
    pub instances: u32,
    /// Two players only: stop starting games once this test accepts a
    /// hypothesis on the completed game pairs (the games still running
    /// are played out).
    pub sprt: Option<Sprt>,
    /// What happens to the games running when the SPRT decides.
    pub sprt_running: SprtRunning,
    /// Each player's rating, in seed order (0: unknown); shorter than the
    /// player list: the rest are 0. A Swiss event's initial order and a
    /// knockout's seeding are by rating, then name.
    pub ratings: Vec<u16>,
    /// A Swiss event's byes asked for, late entries and tie-breaks.
    pub swiss: crate::tournament::swiss_event::SwissSettings,
    /// A knockout's tie-break of a level match (`--knockout-tiebreak`);
    /// `None`: straight to the decisive game.
    pub tiebreak: Option<Tiebreak>,
    /// How the event is said: a tournament, or a match (`argus referee`).
    pub form: Form,
}

impl Settings {
    /// A single round robin of `names`, one game a pairing, every other
    /// setting at its default (players wait for each other, one instance
    /// each, no SPRT): the event a test starts from.
    pub fn round_robin(event: &str, names: Vec<String>) -> Settings {
        Settings {
            event: event.to_string(),
            schedule: ScheduleSettings {
                players: names.len(),
                ..Default::default()
            },
            names,
            boards: None,
            absence: Absence::Wait,
            instances: 1,
            sprt: None,
            sprt_running: Default::default(),
            ratings: Vec::new(),
            swiss: Default::default(),
            tiebreak: None,
            form: Form::Tournament,
        }
    }
}

/// How an event is said to people. A match is a tournament of two run by
/// `argus referee`: the same event, said in a match's words (`game 3:
/// Alpha (White) vs Beta (Black)`, `game 3: 1-0 (Black resigns)`, `match
/// over: Alpha 2 - 1 Beta (3 games with a result)`), with no report unless
/// one is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Form {
    #[default]
    Tournament,
    Match,
}

/// Where a player stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayerState {
    /// Signed on and not lost since.
    pub present: bool,
    /// Away since this time (ms), while not present.
    pub away_since: Option<u64>,
    /// It forfeited its remaining games.
    pub withdrawn: bool,
    /// Its name is the one its program signed on with
    /// ([`Input::Named`]).
    pub named_by_program: bool,
}

/// The tournament: feed it [`Input`]s with their times through
/// [`Tournament::handle`], carry out the [`Output`]s, and wake it with
/// [`Input::Timer`] at [`Tournament::next_deadline`].
#[derive(Debug, Clone, PartialEq)]
pub struct Tournament {
    settings: Settings,
    schedule: Schedule,
    /// Where each game stands, with the counts kept in step.
    progress: Progress,
    /// A two-player event's one pairing, tallied as its games are decided
    /// (what the SPRT tests).
    pairing: Option<PairTally>,
    /// How each decided game ended in the board's words (`Black resigns`),
    /// when the board said (a forfeit and an older journal do not).
    endings: Vec<Option<String>>,
    /// The game each board holds, from its start until the board is free,
    /// and the instances of its players (White's, Black's) playing it.
    boards: Vec<Option<(u32, ByColor<u32>)>>,
    players: Vec<PlayerState>,
    /// Which instances of each player are signed on.
    present: Vec<Vec<bool>>,
    /// The hypothesis the SPRT accepted, once it did: no game starts
    /// after it.
    sprt_decided: Option<Hypothesis>,
    /// A dynamic schedule's pairer could pair no further round: the event
    /// ends with the rounds it has.
    pairing_ended: bool,
    /// A knockout's bracket: the pairer of its rounds, told every result
    /// and withdrawal.
    knockout: Option<Knockout>,
    /// Who withdrew, and why, in the order they did.
    withdrawals: Vec<(PlayerId, Withdrawal)>,
    over: bool,
    now: u64,
}

/// Why an event cannot be made from its settings: which setting is
/// wrong, with its value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    #[error("{names} player names for {players} players")]
    Names { names: usize, players: usize },
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    #[error(transparent)]
    Bracket(#[from] BracketError),
    #[error("an SPRT tests one engine against another: it needs 2 players, not {0}")]
    SprtPlayers(usize),
    #[error("an SPRT is for a match, not a knockout")]
    SprtKnockout,
    #[error("a player needs at least 1 instance")]
    NoInstances,
    #[error("a tournament needs at least 1 board")]
    NoBoards,
}

error_words!(EventError);

impl Tournament {
    /// A tournament waiting for its players to sign on. The error says
    /// which setting is wrong.
    pub fn new(settings: Settings) -> Result<Tournament, EventError> {
        if settings.names.len() != settings.schedule.players {
            return Err(EventError::Names {
                names: settings.names.len(),
                players: settings.schedule.players,
            });
        }
        let schedule = Schedule::new(&settings.schedule)?;
        let knockout = if settings.schedule.format == Format::Knockout {
            let ratings: Vec<u32> = settings.ratings.iter().map(|&r| u32::from(r)).collect();
            let seeds = Knockout::seeding(&settings.names, &ratings);
            let ko = KnockoutSettings {
                games: settings.schedule.games_per_pairing,
                tiebreak: settings.tiebreak.clone(),
            };
            Some(Knockout::new(ko, seeds)?)
        } else {
            None
        };
        if settings.sprt.is_some() && settings.names.len() != 2 {
            return Err(EventError::SprtPlayers(settings.names.len()));
        }
        if settings.sprt.is_some() && knockout.is_some() {
            return Err(EventError::SprtKnockout);
        }
        if settings.instances == 0 {
            return Err(EventError::NoInstances);
        }
        // With one instance each, more boards than a round has games would
        // stay idle; with more, more than the games or the instances can
        // fill would.
        let most = if settings.instances == 1 {
            schedule.widest_round()
        } else {
            let games = if schedule.is_dynamic() {
                schedule.widest_round()
            } else if schedule.is_endless() {
                // As many games as the boards want: pairs are added.
                u32::MAX
            } else {
                u32::try_from(schedule.games().len()).unwrap_or(u32::MAX)
            };
            let seats = u32::try_from(schedule.players())
                .unwrap_or(u32::MAX)
                .saturating_mul(settings.instances)
                / 2;
            games.min(seats)
        };
        let boards = match settings.boards {
            Some(0) => return Err(EventError::NoBoards),
            Some(k) => k.min(most.max(1)),
            None => schedule.widest_round().max(1),
        };
        let away = PlayerState {
            present: false,
            away_since: Some(0),
            withdrawn: false,
            named_by_program: false,
        };
        let mut progress = Progress::new(schedule.players());
        for g in schedule.games() {
            progress.add(g);
        }
        Ok(Tournament {
            progress,
            pairing: (schedule.players() == 2).then(PairTally::default),
            endings: vec![None; schedule.games().len()],
            boards: vec![None; boards as usize],
            players: vec![away; schedule.players()],
            present: vec![vec![false; settings.instances as usize]; schedule.players()],
            schedule,
            settings,
            sprt_decided: None,
            pairing_ended: false,
            knockout,
            withdrawals: Vec::new(),
            over: false,
            now: 0,
        })
        .map(|mut t| {
            // A withdrawal announced for round 1: out before it is paired.
            t.withdraw_as_planned(&mut Vec::new());
            t
        })
    }

    /// Who withdrew, and why, in the order they did.
    pub fn withdrawals(&self) -> &[(PlayerId, Withdrawal)] {
        &self.withdrawals
    }

    /// The games a player withdrawn by the supervisor is still playing,
    /// each with its board and who loses it (`None`: both withdrew, the
    /// game ends without a result and is forfeited by both). The loop
    /// tells each board to end its game so (an adjudication) once the
    /// game is under way; derived from the state, so a resume carries out
    /// what a kill left undone. The loop asks every turn: it looks at the
    /// games being played only.
    pub fn concessions(&self) -> Vec<(BoardId, u32, Option<Color>)> {
        let supervisor = |why: &Withdrawal| matches!(why, Withdrawal::Supervisor { .. });
        if !self.withdrawals.iter().any(|(_, why)| supervisor(why)) {
            return Vec::new();
        }
        let by_supervisor = |p: PlayerId| {
            self.withdrawals
                .iter()
                .any(|(q, why)| *q == p && supervisor(why))
        };
        self.in_progress()
            .into_iter()
            .filter_map(|(board, g)| {
                let loser = match (by_supervisor(g.white), by_supervisor(g.black)) {
                    (false, false) => return None,
                    (true, false) => Some(Color::White),
                    (false, true) => Some(Color::Black),
                    (true, true) => None,
                };
                Some((board, g.number, loser))
            })
            .collect()
    }

    /// The round of the event a withdrawal announced for it
    /// (`--withdraw NAME:ROUND`) takes effect at, when the next one is due
    /// to be paired: a Swiss round, or the knockout's bracket round that
    /// the next games open (or continue).
    fn event_round_due(&self) -> Option<u32> {
        let due = self.round_due()?;
        Some(match &self.knockout {
            Some(k) => {
                let opened = u32::try_from(k.rounds().len()).unwrap_or(u32::MAX);
                let current_open = k
                    .rounds()
                    .last()
                    .is_some_and(|r| r.iter().any(|m| m.decided.is_none()));
                if current_open { opened } else { opened + 1 }
            }
            None => due,
        })
    }

    /// Withdraws, before the round due is paired, the players whose
    /// announced withdrawal (`--withdraw NAME:ROUND`) it reaches.
    fn withdraw_as_planned(&mut self, out: &mut Vec<Output>) {
        let Some(round) = self.event_round_due() else {
            return;
        };
        let due: Vec<(PlayerId, Withdrawal)> = self
            .settings
            .swiss
            .withdrawals
            .iter()
            .filter(|&&(p, from)| {
                from <= round && self.players.get(p.0).is_some_and(|s| !s.withdrawn)
            })
            .map(|&(p, from)| (p, Withdrawal::Planned { round: from }))
            .collect();
        if !due.is_empty() {
            self.withdraw(&due, out);
        }
    }

    /// A knockout's bracket.
    pub fn knockout(&self) -> Option<&Knockout> {
        self.knockout.as_ref()
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// How many games player `p` plays in all, when the schedule knows
    /// them all from the start (a round robin's, a gauntlet's); `None`
    /// for a Swiss event, a knockout or an endless match, paired as they
    /// go.
    pub fn games_in_all(&self, p: PlayerId) -> Option<u32> {
        (self.games_total() != u32::MAX).then(|| {
            let n = self.schedule.games().iter().filter(|g| g.has(p)).count();
            u32::try_from(n).unwrap_or(u32::MAX)
        })
    }

    /// How many games the event has, for `game N of M`: a round robin's,
    /// a gauntlet's or a match's, fixed from the start; `u32::MAX` (no
    /// fixed number) for a Swiss event or a knockout, which pair round by
    /// round, and for an endless match (`argus demo`).
    pub fn games_total(&self) -> u32 {
        match self.schedule.settings().format {
            _ if self.schedule.is_endless() => u32::MAX,
            crate::tournament::schedule::Format::RoundRobin
            | crate::tournament::schedule::Format::Gauntlet => {
                u32::try_from(self.schedule.games().len()).unwrap_or(u32::MAX)
            }
            crate::tournament::schedule::Format::Swiss
            | crate::tournament::schedule::Format::Knockout => u32::MAX,
        }
    }

    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The name of player `p`.
    pub fn name(&self, p: PlayerId) -> &str {
        self.settings.names.get(p.0).map_or("?", String::as_str)
    }

    /// Whether player `p`'s name is one its program gave when it signed on
    /// ([`Input::Named`]).
    pub fn named_by_program(&self, p: PlayerId) -> bool {
        self.players.get(p.0).is_some_and(|s| s.named_by_program)
    }

    /// Whether player `p`'s program may name it again when it signs on
    /// again: its name is one its program gave ([`Input::Named`]), and no
    /// game of its has started but `first` (the game on its board, when
    /// that game's record takes its name from the sign-on, as a match
    /// between ports does): a name its games were recorded under stays.
    pub fn renamed_by_sign_on(&self, p: PlayerId, first: Option<u32>) -> bool {
        self.named_by_program(p)
            && !self.games().any(|(g, state)| {
                g.has(p) && state != GameState::Pending && Some(g.number) != first
            })
    }

    /// Game `g`'s PGN Round tag: `ROUND.BOARD` in a tournament
    /// ([`ScheduledGame::round_tag`]), the game's number in a match (as a
    /// match of games one after another numbers them).
    pub fn round_tag(&self, g: &ScheduledGame) -> String {
        match self.settings.form {
            Form::Tournament => g.round_tag(),
            Form::Match => g.number.to_string(),
        }
    }

    /// Player `p`'s rating (0: unknown).
    pub fn rating(&self, p: PlayerId) -> u16 {
        self.settings.ratings.get(p.0).copied().unwrap_or(0)
    }

    /// The round a dynamic schedule wants paired now: the next one, once
    /// every game before it is decided (none before round 1), while the
    /// event goes on. `None` for a schedule fixed in advance.
    pub fn round_due(&self) -> Option<u32> {
        let next = self.schedule.rounds() + 1;
        let due = self.schedule.is_dynamic()
            && !self.over
            && !self.pairing_ended
            && self.sprt_decided.is_none()
            && next <= self.schedule.planned_rounds()
            && self.knockout.as_ref().is_none_or(|k| !k.is_over())
            && self.progress.undecided() == 0;
        due.then_some(next)
    }

    /// The input that pairs the round due ([`Tournament::round_due`]), from
    /// the event's pairer ([`crate::tournament::rounds::pair`]): a pure
    /// function of the event so far. Journal it, then hand it to
    /// [`Tournament::handle`], before anything else: a resumed event
    /// replays the journaled pairing and never pairs a round again.
    pub fn pairing_due(&self) -> Option<Input> {
        let round = self.round_due()?;
        Some(match crate::tournament::rounds::pair(self, round) {
            Ok(pairing) => Input::Paired(pairing),
            Err(reason) => Input::Unpairable {
                round,
                reason: reason.to_string(),
            },
        })
    }

    /// Every game with where it stands, in schedule order.
    pub fn games(&self) -> impl Iterator<Item = (&ScheduledGame, GameState)> + '_ {
        self.schedule.games().iter().zip(self.progress.states())
    }

    /// How game `game` ended, in words: the board's closing words
    /// (`Black resigns`, `Draw by 3-fold repetition`) when it said them,
    /// else the outcome's own ([`GameDecision::how`]); `None` while undecided.
    pub fn how(&self, game: u32) -> Option<String> {
        let i = (game as usize).checked_sub(1)?;
        match self.progress.state(game)? {
            GameState::Decided(o) => Some(match self.endings.get(i).cloned().flatten() {
                Some(words) => words,
                None => o.how().to_string(),
            }),
            _ => None,
        }
    }

    /// The numbers of the games decided so far, in schedule order.
    pub fn decided(&self) -> impl Iterator<Item = u32> + '_ {
        self.games()
            .filter(|(_, s)| s.is_decided())
            .map(|(g, _)| g.number)
    }

    /// Where game `number` stands.
    pub fn game_state(&self, number: u32) -> Option<GameState> {
        self.progress.state(number)
    }

    /// Where the games stand, counted: decided, being played, played
    /// over the board.
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// A two-player event's one pairing from the first player's view, as
    /// its games were decided (`stats::Tallies`' pairing and the first
    /// player's figures, kept as the games end); `None` for more players.
    pub fn pairing_tally(&self) -> Option<crate::stats::MatchStats> {
        self.pairing.as_ref().map(PairTally::stats)
    }

    /// The games being played, in schedule order, with their boards
    /// (after a resume: the games whose boards must carry on from their
    /// journals). A game being played holds its board, so the boards are
    /// what is looked through.
    pub fn in_progress(&self) -> Vec<(BoardId, ScheduledGame)> {
        let mut playing: Vec<(BoardId, ScheduledGame)> = self
            .boards
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let game = self.schedule.game((*b)?.0)?;
                // A game played again may be on a board while the one it
                // ended on still concludes it.
                match self.progress.state(game.number)? {
                    GameState::Playing(board) if board_index(board) == i => Some((board, *game)),
                    _ => None,
                }
            })
            .collect();
        playing.sort_by_key(|(_, g)| g.number);
        playing
    }

    /// The game each board holds, from its start until the board is free
    /// (a decided game still holds its board while it concludes).
    pub fn held(&self) -> Vec<(BoardId, ScheduledGame)> {
        self.boards
            .iter()
            .enumerate()
            .filter_map(|(i, g)| {
                let game = self.schedule.game((*g)?.0)?;
                Some((BoardId(u32::try_from(i + 1).ok()?), *game))
            })
            .collect()
    }

    /// The instances of its players (White's, Black's) that play the game
    /// `board` holds.
    pub fn instances_on(&self, board: BoardId) -> Option<ByColor<u32>> {
        let i = usize::try_from(board.0).ok()?.checked_sub(1)?;
        Some(self.boards.get(i)?.as_ref()?.1)
    }

    /// The most instances of one player that play at once.
    pub fn instances(&self) -> u32 {
        self.settings.instances
    }

    /// Whether instance `n` of player `p` is signed on.
    pub fn is_present(&self, p: PlayerId, n: u32) -> bool {
        self.present
            .get(p.0)
            .and_then(|v| v.get(n as usize))
            .copied()
            .unwrap_or(false)
    }

    /// Number of boards.
    pub fn board_count(&self) -> u32 {
        self.boards.len() as u32
    }

    /// Where each player stands, in seed order.
    pub fn players(&self) -> &[PlayerState] {
        &self.players
    }

    /// Whether every game is decided, or the SPRT decided and the games
    /// that were running then are.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The hypothesis the SPRT accepted, once it did.
    pub fn sprt_decided(&self) -> Option<Hypothesis> {
        self.sprt_decided
    }

    /// The SPRT player `p`'s statistics against the field carry: the test
    /// is of the first player against the second, so the first player's
    /// only.
    pub fn sprt_for(&self, p: PlayerId) -> Option<&Sprt> {
        self.settings.sprt.as_ref().filter(|_| p == PlayerId(0))
    }

    /// The time of the last input handled.
    pub fn time(&self) -> u64 {
        self.now
    }

    /// The players the tournament waits for, each with the time it has
    /// been away since: away (not signed on, or lost), not withdrawn, and
    /// with a game it has not started or a game being played (which waits
    /// for it: a match's client lost in its last game is waited for).
    pub fn waiting(&self) -> Vec<(PlayerId, u64)> {
        (0..self.players.len())
            .map(PlayerId)
            .filter(|&p| {
                let s = self.players[p.0];
                !s.present
                    && !s.withdrawn
                    && (self.has_pending(p) || self.in_progress().iter().any(|(_, g)| g.has(p)))
            })
            .filter_map(|p| Some((p, self.players[p.0].away_since?)))
            .collect()
    }

    /// When to wake the core with [`Input::Timer`]: the earliest moment a
    /// player away forfeits its remaining games.
    pub fn next_deadline(&self) -> Option<u64> {
        (0..self.players.len())
            .filter_map(|p| self.forfeit_deadline(PlayerId(p)))
            .min()
    }

    fn forfeit_deadline(&self, p: PlayerId) -> Option<u64> {
        let Absence::Forfeit { after_ms } = self.settings.absence else {
            return None;
        };
        let s = self.players[p.0];
        if s.present || s.withdrawn || !self.has_pending(p) {
            return None;
        }
        s.away_since.map(|t| t.saturating_add(after_ms))
    }

    fn has_pending(&self, p: PlayerId) -> bool {
        self.progress.has_pending(p)
    }

    /// Handles one input that happened at `at` (ms since the tournament
    /// started; an earlier time than the last input's counts as that one)
    /// and returns what to do.
    pub fn handle(&mut self, input: Input, at: u64) -> Vec<Output> {
        let at = at.max(self.now);
        self.now = at;
        let mut out = Vec::new();
        match input {
            Input::SignedOn { player, instance } => self.on_signed_on(player, instance, &mut out),
            Input::Named { player, name } => self.on_named(player, &name, &mut out),
            Input::Lost {
                player, instance, ..
            } => self.on_lost(player, instance, at, &mut out),
            Input::GameFinished {
                game,
                result,
                termination,
                sides,
                ending,
            } => {
                let outcome = GameDecision::Played {
                    result,
                    termination,
                    sides,
                };
                self.on_finished(game, outcome, ending, &mut out);
            }
            Input::BoardFree { board } => self.on_board_free(board, &mut out),
            Input::Timer => self.on_timer(at, &mut out),
            Input::CannotStart { player, reason } => {
                if self
                    .player_mut(player, &mut out)
                    .is_some_and(|s| !s.withdrawn)
                {
                    self.withdraw(&[(player, Withdrawal::CannotStart(reason))], &mut out);
                }
            }
            Input::Resumed { on_cables } => self.on_resumed(at, &on_cables, &mut out),
            Input::Paired(pairing) => self.on_paired(pairing, &mut out),
            Input::Unpairable { round, reason } => self.on_unpairable(round, reason, &mut out),
            Input::Withdraw { player } => self.on_withdraw(player, &mut out),
        }
        self.withdraw_as_planned(&mut out);
        self.dispatch(&mut out);
        self.end_if_stopped(&mut out);
        out
    }

    /// A round's pairing: its games appended to the schedule (started as
    /// boards and players are free), its byes recorded.
    fn on_paired(&mut self, pairing: RoundPairing, out: &mut Vec<Output>) {
        if self.round_due() != Some(pairing.round) {
            out.push(Output::Ignored {
                reason: format!(
                    "a pairing for round {}, which is not due (round {} paired of {})",
                    pairing.round,
                    self.schedule.rounds(),
                    self.schedule.planned_rounds()
                ),
            });
            return;
        }
        // A knockout's round: the games its bracket gives, or none.
        let bracket = match &self.knockout {
            Some(k) => {
                let mut k = k.clone();
                let first = u32::try_from(self.schedule.games().len() + 1).unwrap_or(u32::MAX);
                let games: Vec<_> = k
                    .next_games(first)
                    .iter()
                    .map(|g| (g.white, g.black))
                    .collect();
                if games != pairing.games || !pairing.byes.is_empty() {
                    out.push(Output::Ignored {
                        reason: format!(
                            "a pairing for round {} that is not the bracket's next games",
                            pairing.round
                        ),
                    });
                    return;
                }
                Some(k)
            }
            None => None,
        };
        if let Err(e) = self.schedule.add_round(&pairing) {
            out.push(Output::Ignored {
                reason: e.to_string(),
            });
            return;
        }
        if bracket.is_some() {
            self.knockout = bracket;
        }
        let before = self.progress.len();
        for g in &self.schedule.games()[before..] {
            self.progress.add(g);
        }
        let n = self.schedule.games().len();
        self.endings.resize(n, None);
        let round = pairing.round;
        out.push(Output::Paired(pairing));
        // A pairer that paired a withdrawn player: its game is forfeited
        // at once.
        self.forfeit_withdrawn(out);
        // The round's games are those just added.
        if n == before {
            out.push(Output::RoundOver { round });
            self.end_if_done(out);
        }
    }

    /// The supervisor withdraws `p` (a Swiss event or a knockout): it
    /// forfeits the games it has not begun and is paired no more; the one
    /// it is playing it loses on its board ([`Tournament::concessions`]).
    fn on_withdraw(&mut self, p: PlayerId, out: &mut Vec<Output>) {
        let Some(s) = self.player_mut(p, out) else {
            return;
        };
        let reason = if s.withdrawn {
            format!("{} has already withdrawn", self.name(p))
        } else if !self.schedule.is_dynamic() {
            format!(
                "{} cannot be withdrawn from a {}: only from a Swiss event or a knockout",
                self.name(p),
                self.settings.schedule.format.as_str()
            )
        } else if self.over {
            format!("{} cannot be withdrawn: the event is over", self.name(p))
        } else {
            let round = self.schedule.rounds();
            return self.withdraw(&[(p, Withdrawal::Supervisor { round })], out);
        };
        out.push(Output::Ignored { reason });
    }

    /// The pairer could not pair round `round`: the event ends with the
    /// rounds it has.
    fn on_unpairable(&mut self, round: u32, reason: String, out: &mut Vec<Output>) {
        if self.round_due() != Some(round) {
            out.push(Output::Ignored {
                reason: format!("no pairing for round {round}, which is not due"),
            });
            return;
        }
        self.pairing_ended = true;
        out.push(Output::Unpairable { round, reason });
        self.end_if_done(out);
    }

    /// Whether every round there will be is paired.
    fn rounds_to_come(&self) -> bool {
        if let Some(k) = &self.knockout {
            return !k.is_over();
        }
        self.schedule.is_dynamic()
            && !self.pairing_ended
            && self.schedule.rounds() < self.schedule.planned_rounds()
    }

    /// The tournament is over once every game is decided and no round is
    /// to come.
    fn end_if_done(&mut self, out: &mut Vec<Output>) {
        if !self.over && !self.rounds_to_come() && self.progress.undecided() == 0 {
            self.over = true;
            out.push(Output::TournamentOver);
        }
    }

    /// After the SPRT decided: the tournament is over once no game runs.
    fn end_if_stopped(&mut self, out: &mut Vec<Output>) {
        let running = self.progress.playing() > 0;
        if self.sprt_decided.is_some() && !self.over && !running {
            self.over = true;
            out.push(Output::TournamentOver);
        }
    }

    /// Runs the SPRT on the completed pairs, once a game is decided: the
    /// first time it accepts a hypothesis, said, and no game starts after.
    fn test_sprt(&mut self, out: &mut Vec<Output>) {
        let Some(sprt) = self.settings.sprt else {
            return;
        };
        if self.sprt_decided.is_some() {
            return;
        }
        let Some(stats) = self.pairing_tally() else {
            return;
        };
        let Some(test) = stats.report(Some(&sprt)).sprt else {
            return;
        };
        if let Some(h) = test.result {
            self.sprt_decided = Some(h);
            out.push(Output::SprtDecided {
                hypothesis: h,
                llr: test.llr,
                bounds: (test.lower_bound, test.upper_bound),
            });
            if self.settings.sprt_running == SprtRunning::Abort {
                let running = self
                    .in_progress()
                    .into_iter()
                    .map(|(board, g)| Output::Abort {
                        board,
                        game: g.number,
                    });
                out.extend(running.collect::<Vec<_>>());
            }
        }
    }

    /// Whether instance `n` of player `p` is one the tournament has (said
    /// when not).
    fn instance_known(&self, p: PlayerId, n: u32, out: &mut Vec<Output>) -> bool {
        let known = self
            .present
            .get(p.0)
            .is_some_and(|v| (n as usize) < v.len());
        if !known {
            out.push(Output::Ignored {
                reason: format!(
                    "instance {} of {p} is not in the tournament ({} instance{} a player)",
                    n + 1,
                    self.settings.instances,
                    if self.settings.instances == 1 {
                        ""
                    } else {
                        "s"
                    }
                ),
            });
        }
        known
    }

    fn player_mut(&mut self, p: PlayerId, out: &mut Vec<Output>) -> Option<&mut PlayerState> {
        if p.0 >= self.players.len() {
            out.push(Output::Ignored {
                reason: format!("{p} is not in the tournament"),
            });
        }
        self.players.get_mut(p.0)
    }

    /// The referee restarted: nobody is signed on but the players on
    /// cables (counted as signed on again at once, and said); a board
    /// whose game was already decided is free (its board core is not
    /// rebuilt); a game being played stays on its board, whose core
    /// carries it on.
    fn on_resumed(&mut self, at: u64, on_cables: &[PlayerId], out: &mut Vec<Output>) {
        for s in self.players.iter_mut().filter(|s| !s.withdrawn) {
            s.present = false;
            s.away_since = Some(at);
        }
        for p in &mut self.present {
            p.fill(false);
        }
        for b in 0..self.boards.len() {
            if let Some((game, _)) = self.boards[b]
                && !matches!(self.game_state(game), Some(GameState::Playing(_)))
            {
                self.boards[b] = None;
            }
        }
        // A player that forfeited its remaining games takes no further
        // part: it is not counted.
        for &player in on_cables {
            if self.instance_known(player, 0, out) && !self.players[player.0].withdrawn {
                out.push(Output::OnCable { player });
                self.on_signed_on(player, 0, out);
            }
        }
    }

    fn on_signed_on(&mut self, p: PlayerId, n: u32, out: &mut Vec<Output>) {
        if !self.instance_known(p, n, out) {
            return;
        }
        self.present[p.0][n as usize] = true;
        let Some(s) = self.player_mut(p, out) else {
            return;
        };
        s.present = true;
        s.away_since = None;
        if s.withdrawn {
            out.push(Output::Ignored {
                reason: format!(
                    "{} signed on again but has forfeited its remaining games",
                    self.name(p)
                ),
            });
        }
    }

    /// Player `p` is called `name` from now on (cleaned as a `tcsi` name
    /// is; told apart by its old name if another player has it already).
    fn on_named(&mut self, p: PlayerId, name: &str, out: &mut Vec<Output>) {
        let name = crate::text::client_name(name);
        let Some(was) = self.settings.names.get(p.0).cloned() else {
            out.push(Output::Ignored {
                reason: format!(
                    "a name ({name}) for player {}, who is not in the event",
                    p.0
                ),
            });
            return;
        };
        if name.is_empty() || name == was {
            return;
        }
        let taken = self.settings.names.contains(&name);
        let name = if taken {
            format!("{name} ({was})")
        } else {
            name
        };
        self.settings.names[p.0] = name.clone();
        if let Some(s) = self.players.get_mut(p.0) {
            s.named_by_program = true;
        }
        out.push(Output::Named {
            player: p,
            was,
            name,
        });
    }

    fn on_lost(&mut self, p: PlayerId, n: u32, at: u64, out: &mut Vec<Output>) {
        if !self.instance_known(p, n, out) {
            return;
        }
        self.present[p.0][n as usize] = false;
        let any = self.present[p.0].iter().any(|&x| x);
        let Some(s) = self.player_mut(p, out) else {
            return;
        };
        if s.present && !any {
            s.present = false;
            s.away_since = Some(at);
        }
    }

    fn on_finished(
        &mut self,
        game: u32,
        outcome: GameDecision,
        ending: Option<String>,
        out: &mut Vec<Output>,
    ) {
        let Some(GameState::Playing(_)) = self.game_state(game) else {
            out.push(Output::Ignored {
                reason: format!("a result for game {game}, which is not being played"),
            });
            return;
        };
        match outcome {
            GameDecision::Played {
                result: GameResult::None,
                ..
            } => {
                self.replay(game, out);
            }
            o => self.decide(game, o, ending, out),
        }
    }

    fn on_board_free(&mut self, board: BoardId, out: &mut Vec<Output>) {
        let slot = usize::try_from(board.0)
            .ok()
            .and_then(|b| b.checked_sub(1))
            .and_then(|b| self.boards.get_mut(b));
        let Some(slot) = slot else {
            out.push(Output::Ignored {
                reason: format!("{board} is not one of the tournament's boards"),
            });
            return;
        };
        let Some((game, _)) = slot.take() else {
            out.push(Output::Ignored {
                reason: format!("{board} was already free"),
            });
            return;
        };
        if let Some(GameState::Playing(_)) = self.game_state(game) {
            // Freed without a result: the game is played again.
            self.replay(game, out);
        }
    }

    /// Game `game` ended without a result: it is played again, said,
    /// but not after the SPRT decided (nothing is), and not when one of
    /// its players has withdrawn (it is forfeited).
    fn replay(&mut self, game: u32, out: &mut Vec<Output>) {
        self.progress.set(game, GameState::Pending);
        let withdrawn = self.schedule.game(game).is_some_and(|g| {
            self.players[g.white.0].withdrawn || self.players[g.black.0].withdrawn
        });
        if self.sprt_decided.is_none() && !withdrawn {
            out.push(Output::Replay { game });
        }
        self.forfeit_withdrawn(out);
    }

    /// Every player whose time away is up forfeits its remaining games;
    /// a game between two of them is lost by both.
    fn on_timer(&mut self, at: u64, out: &mut Vec<Output>) {
        let due: Vec<(PlayerId, Withdrawal)> = (0..self.players.len())
            .map(PlayerId)
            .filter(|&p| self.forfeit_deadline(p).is_some_and(|d| d <= at))
            .map(|p| (p, Withdrawal::AwayTooLong))
            .collect();
        self.withdraw(&due, out);
    }

    /// Players `due` forfeit every game they have not started, each for
    /// its reason; a game between two of them is lost by both.
    fn withdraw(&mut self, withdrawn: &[(PlayerId, Withdrawal)], out: &mut Vec<Output>) {
        let mut due = Vec::new();
        for (p, why) in withdrawn {
            self.players[p.0].withdrawn = true;
            self.withdrawals.push((*p, why.clone()));
            out.push(Output::Withdrawn {
                player: *p,
                why: why.clone(),
            });
            due.push(*p);
        }
        // All at once: two that withdraw together from one match send
        // nobody on.
        if let Some(k) = &mut self.knockout {
            k.withdraw(&due);
        }
        self.forfeit_games_of(&due, out);
    }

    /// A game to be played again whose player has withdrawn (it was
    /// playing it then, and the game ended without a result) is forfeited:
    /// nobody would ever start it.
    fn forfeit_withdrawn(&mut self, out: &mut Vec<Output>) {
        let gone: Vec<PlayerId> = (0..self.players.len())
            .map(PlayerId)
            .filter(|p| self.players[p.0].withdrawn)
            .collect();
        self.forfeit_games_of(&gone, out);
    }

    /// Every game not started of a player in `due` is forfeited; a game
    /// between two of them is lost by both.
    fn forfeit_games_of(&mut self, due: &[PlayerId], out: &mut Vec<Output>) {
        // Their games not started, in schedule order.
        let games: std::collections::BTreeSet<u32> = due
            .iter()
            .flat_map(|&p| self.progress.pending_of(p, 0))
            .collect();
        let forfeits: Vec<(u32, Absent)> = games
            .into_iter()
            .filter_map(|n| self.schedule.game(n))
            .map(|g| {
                let absent = match (due.contains(&g.white), due.contains(&g.black)) {
                    (true, true) => Absent::Both,
                    (true, false) => Absent::One(Color::White),
                    _ => Absent::One(Color::Black),
                };
                (g.number, absent)
            })
            .collect();
        for (game, absent) in forfeits {
            self.decide(game, GameDecision::Forfeited(absent), None, out);
        }
    }

    fn decide(
        &mut self,
        game: u32,
        outcome: GameDecision,
        ending: Option<String>,
        out: &mut Vec<Output>,
    ) {
        self.progress.set(game, GameState::Decided(outcome));
        if let (Some(tally), Some(g)) = (&mut self.pairing, self.schedule.game(game)) {
            // The other game of its pair (games 1 and 2, 3 and 4, ...: in
            // a two-player event every game is of the one pairing).
            let other = if game % 2 == 1 {
                game.saturating_add(1)
            } else {
                game - 1
            };
            let other = self
                .schedule
                .game(other)
                .zip(self.progress.state(other))
                .map(|(o, s)| (o.white, s));
            tally.decided(PlayerId(0), (g.white, GameState::Decided(outcome)), other);
        }
        // Stripped of control characters as it is kept: it may come from a
        // journal file, and it goes to the report and the terminal.
        self.endings[game as usize - 1] = ending.as_deref().map(strip_control);
        out.push(Output::Scored {
            game,
            outcome,
            ending,
        });
        if let Some(k) = &mut self.knockout {
            let h = outcome.halves();
            k.record(game, (h.white, h.black));
        }
        let round = self.schedule.games()[game as usize - 1].round;
        if self.progress.undecided_in(round) == 0 {
            out.push(Output::RoundOver { round });
        }
        self.test_sprt(out);
        self.end_if_done(out);
    }

    /// Starts every pending game, in schedule order, whose players are both
    /// not withdrawn and have an instance signed on and free, while a board
    /// is free; each side plays with its lowest such instance.
    fn dispatch(&mut self, out: &mut Vec<Output>) {
        if self.sprt_decided.is_some() {
            return;
        }
        self.add_pairs();
        let mut busy: Vec<Vec<bool>> = self.present.iter().map(|v| vec![false; v.len()]).collect();
        for (g, inst) in self.boards.iter().flatten() {
            let g = &self.schedule.games()[*g as usize - 1];
            busy[g.white.0][inst.white as usize] = true;
            busy[g.black.0][inst.black as usize] = true;
        }
        let free_instance = |p: PlayerId, busy: &[Vec<bool>]| -> Option<u32> {
            if self.players[p.0].withdrawn {
                return None;
            }
            let n =
                (0..self.present[p.0].len()).find(|&n| self.present[p.0][n] && !busy[p.0][n])?;
            u32::try_from(n).ok()
        };
        let mut starts = Vec::new();
        let mut free = self.boards.iter().filter(|b| b.is_none()).count();
        // The games not started of the players with an instance free,
        // merged in schedule order: each such player's next one, the
        // earliest first (a game of a player without one cannot start, so
        // the games before them all are never looked at).
        let mut next: BinaryHeap<Reverse<(u32, usize)>> = BinaryHeap::new();
        if free > 0 {
            for p in (0..self.players.len()).map(PlayerId) {
                if free_instance(p, &busy).is_some()
                    && let Some(g) = self.progress.pending_of(p, 0).next()
                {
                    next.push(Reverse((g, p.0)));
                }
            }
        }
        // The game last looked at: it comes once for each player.
        let mut last = 0;
        // A game needs two players with an instance free.
        while free > 0 && next.len() >= 2 {
            let Some(Reverse((number, p))) = next.pop() else {
                break;
            };
            if number != last
                && let Some(g) = self.schedule.game(number)
            {
                last = number;
                if let (Some(w), Some(b)) =
                    (free_instance(g.white, &busy), free_instance(g.black, &busy))
                {
                    busy[g.white.0][w as usize] = true;
                    busy[g.black.0][b as usize] = true;
                    free -= 1;
                    starts.push((*g, ByColor { white: w, black: b }));
                }
            }
            let p = PlayerId(p);
            if free_instance(p, &busy).is_some()
                && let Some(g) = self.progress.pending_of(p, number).next()
            {
                next.push(Reverse((g, p.0)));
            }
        }
        for (game, instances) in starts {
            let i = self.boards.iter().position(Option::is_none).unwrap_or(0);
            self.boards[i] = Some((game.number, instances));
            let board = BoardId(i as u32 + 1);
            self.progress.set(game.number, GameState::Playing(board));
            out.push(Output::StartGame {
                board,
                game,
                instances,
            });
        }
        self.add_pairs();
    }

    /// An endless match's next game pairs, added while fewer games wait to
    /// start than it has boards (so that a game waits for every board that
    /// comes free): the schedule grows as the games are played, never
    /// ahead of them by more than the boards and a pair. None once a
    /// player withdrew (the match then ends with the games it has).
    fn add_pairs(&mut self) {
        if !self.schedule.is_endless() || self.players.iter().any(|p| p.withdrawn) {
            return;
        }
        while self
            .progress
            .undecided()
            .saturating_sub(self.progress.playing())
            < self.boards.len()
            && self.schedule.add_pair()
        {
            let before = self.progress.len();
            for g in &self.schedule.games()[before..] {
                self.progress.add(g);
            }
            self.endings.resize(self.schedule.games().len(), None);
        }
    }
}

/// Board `b`'s place in the list of boards (board 1 at 0).
fn board_index(b: BoardId) -> usize {
    (b.0 as usize).saturating_sub(1)
}
