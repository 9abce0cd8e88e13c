//! The tournament core's tests, on fake time with no sleeps, and a small
//! driver that plays the boards' part: it starts what the core says, and
//! finishes games with results that depend only on the game number.

mod core;
mod endless;
mod follow;
mod instances;
mod knockout;
mod names;
mod props;
mod resume;
mod schedule;
mod standings;
mod stats;
mod swiss;
mod withdraw;
mod words;

use std::collections::VecDeque;

use shakmaty::{ByColor, Color};

use crate::referee::{GameResult, Termination};
use crate::tournament::{BoardId, Input, Output, ScheduledGame, Settings, SideStats, Tournament};

/// Settings for `n` players named P1, P2, ...
pub(super) fn settings(n: usize, f: impl FnOnce(&mut Settings)) -> Settings {
    let mut s = Settings::round_robin("Club event", (1..=n).map(|i| format!("P{i}")).collect());
    f(&mut s);
    s
}

/// The result every game with this number gets: White wins, a draw,
/// Black wins, in turn.
pub(super) fn result_for(game: u32) -> GameResult {
    match game % 3 {
        0 => GameResult::Win(Color::White),
        1 => GameResult::Draw,
        _ => GameResult::Win(Color::Black),
    }
}

pub(super) fn sides(game: u32) -> ByColor<SideStats> {
    ByColor {
        white: SideStats {
            moves: 30,
            used_ms: 60_000,
            left_ms: Some(240_000 - u64::from(game) * 1000),
            faults: 0,
            restarts: 0,
            // Odd games: White's engine pondered (a journal line with
            // the ponder figures), even ones not (a line without).
            ponders: 20 * (game % 2),
            ponder_hits: 11 * (game % 2),
        },
        black: SideStats {
            moves: 29,
            used_ms: 87_000,
            left_ms: Some(213_000),
            faults: game % 2,
            restarts: 1,
            ponders: 0,
            ponder_hits: 0,
        },
    }
}

pub(super) fn finished(game: u32) -> Input {
    Input::GameFinished {
        game,
        result: result_for(game),
        termination: Termination::Normal,
        sides: sides(game),
        // The referee's words for even games; none (an older journal)
        // for odd ones.
        ending: game.is_multiple_of(2).then(|| "Black resigns".to_string()),
    }
}

/// The core with the boards' part played: every input and output kept.
pub(super) struct Run {
    pub t: Tournament,
    pub at: u64,
    pub inputs: Vec<(u64, Input)>,
    pub outputs: Vec<Output>,
    /// Games started and not yet finished, oldest first.
    pub running: VecDeque<(BoardId, ScheduledGame)>,
    /// The instances (White's, Black's) playing each running game, by
    /// game number.
    pub instances: std::collections::HashMap<u32, ByColor<u32>>,
}

impl Run {
    /// A new tournament; a round due at the start (a Swiss event's first)
    /// paired, as the referee's loop does.
    pub fn new(settings: Settings) -> Run {
        let mut r = Run::from(Tournament::new(settings).unwrap());
        r.pair_due();
        r
    }

    /// Pairs the round due, if one is, as the referee's loop does after
    /// every input: the pairing is an input of its own.
    pub fn pair_due(&mut self) {
        if let Some(pairing) = self.t.pairing_due() {
            self.input(pairing);
        }
    }

    pub fn from(t: Tournament) -> Run {
        Run {
            instances: t
                .in_progress()
                .iter()
                .map(|(b, g)| (g.number, t.instances_on(*b).unwrap()))
                .collect(),
            running: t.in_progress().into(),
            at: t.time(),
            t,
            inputs: Vec::new(),
            outputs: Vec::new(),
        }
    }

    /// Hands one input to the core at the current time; checks that no
    /// instance of a player is started on a second game, no board twice,
    /// and no instance the tournament does not have.
    pub fn input(&mut self, input: Input) -> Vec<Output> {
        self.inputs.push((self.at, input.clone()));
        let out = self.t.handle(input, self.at);
        for o in &out {
            if let Output::StartGame {
                board,
                game,
                instances,
            } = o
            {
                assert!(
                    instances.white < self.t.instances() && instances.black < self.t.instances()
                );
                let seats = [(game.white, instances.white), (game.black, instances.black)];
                for (b, g) in &self.running {
                    assert_ne!(b, board, "{board} given game {} while busy", game.number);
                    let theirs = self.instances[&g.number];
                    let busy = [(g.white, theirs.white), (g.black, theirs.black)];
                    assert!(
                        !seats.iter().any(|s| busy.contains(s)),
                        "game {} started while game {} of the same instance runs",
                        game.number,
                        g.number
                    );
                }
                self.instances.insert(game.number, *instances);
                self.running.push_back((*board, *game));
            }
        }
        self.outputs.extend(out.iter().cloned());
        self.pair_due();
        out
    }

    pub fn sign_on(&mut self, players: impl IntoIterator<Item = usize>) {
        for p in players {
            self.input(Input::SignedOn {
                instance: 0,
                player: crate::tournament::PlayerId(p),
            });
        }
    }

    /// Finishes the oldest running game and frees its board, a second
    /// later.
    pub fn finish_next(&mut self) -> Option<u32> {
        let game = self.running.front()?.1.number;
        self.finish(game, result_for(game));
        Some(game)
    }

    /// Finishes running game `number` with `result` and frees its board,
    /// a second later.
    pub fn finish(&mut self, number: u32, result: GameResult) {
        self.finish_saying(number, result, None);
    }

    /// [`Run::finish`], the board saying how it ended (`ending`).
    pub fn finish_saying(&mut self, number: u32, result: GameResult, ending: Option<&str>) {
        let i = self.running.iter().position(|(_, g)| g.number == number);
        let (board, _) = self.running.remove(i.expect("the game runs")).unwrap();
        self.instances.remove(&number);
        self.at += 1000;
        self.input(Input::GameFinished {
            game: number,
            result,
            termination: Termination::Normal,
            sides: sides(number),
            ending: ending.map(str::to_string),
        });
        self.input(Input::BoardFree { board });
    }

    /// Plays every game the core starts until none runs.
    pub fn play_out(&mut self) {
        while self.finish_next().is_some() {}
    }

    /// The numbers of the games started, in order.
    pub fn started(&self) -> Vec<u32> {
        self.outputs
            .iter()
            .filter_map(|o| match o {
                Output::StartGame { game, .. } => Some(game.number),
                _ => None,
            })
            .collect()
    }

    pub fn count(&self, f: impl Fn(&Output) -> bool) -> usize {
        self.outputs.iter().filter(|o| f(o)).count()
    }
}
