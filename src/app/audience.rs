//! The audience's web view of a session (`--http`): starts the server
//! (`crate::web`) and, from the loop, publishes the board after every
//! change and each game as it ends. Without `--http` there is no
//! [`Audience`] and nothing of this runs.

use std::net::SocketAddr;
use std::time::Instant;

use crate::app::options::WebOptions;
use crate::record::pgn::{PgnGame, write_pgn};
use crate::referee::{GameOver, Referee};
use crate::text::strip_control;
use crate::tournament::Tournament;
use crate::web::{self, Limits, Publisher, StandingRow, Standings, WebState, board_of};

/// The loop's side of the web view.
pub struct Audience {
    publisher: Publisher,
    addr: SocketAddr,
}

impl Audience {
    /// Starts the server when `--http` asks for one, and says where it is
    /// (on stdout and in the log).
    pub fn start(options: &WebOptions) -> Result<Option<Audience>, String> {
        let Some(addr) = &options.http else {
            return Ok(None);
        };
        let limits = Limits {
            viewers: usize::from(options.http_viewers),
            ..Limits::default()
        };
        let served = web::serve(addr, limits)?;
        println!("the audience's page: http://{}/", served.addr);
        Ok(Some(Audience {
            publisher: served.publisher,
            addr: served.addr,
        }))
    }

    /// Where the server listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Game `g` has ended: its PGN joins `/games.pgn`.
    pub fn game_over(&mut self, g: &GameOver) {
        self.game_over_as(g.game_number, g);
    }

    /// Game `g` has ended, numbered `number` in the event (a tournament's
    /// board plays its game as game 1 of its own).
    pub fn game_over_as(&mut self, number: u32, g: &GameOver) {
        self.publisher.game_over(number, write_pgn(&g.pgn));
    }

    /// Publishes `state`, with the PGN of each game in progress (by its
    /// number in the event).
    pub fn publish_state(&mut self, state: WebState, live: Vec<(u32, PgnGame)>) {
        self.publisher.publish(state, live, Instant::now());
    }

    /// Publishes a tournament: each board with a game (board number, the
    /// game's number in the tournament, its referee core) as the cores
    /// have them at `at`, and the standings.
    pub fn publish_tournament(&mut self, t: &Tournament, boards: &[(u32, u32, &Referee)], at: u64) {
        let mut states = Vec::new();
        let mut live = Vec::new();
        for &(board, game, core) in boards {
            let snap = core.snapshot(at);
            let mut state = board_of(&snap, board);
            state.game = game;
            state.games_total = None;
            states.push(state);
            if let Some(pgn) = core.live_pgn(at) {
                live.push((game, pgn));
            }
        }
        let rows = crate::tournament::Standings::of(t)
            .rows
            .iter()
            .map(|r| StandingRow {
                name: strip_control(t.name(r.player)),
                points_halves: r.halves,
                games: r.games,
            })
            .collect();
        let state = WebState {
            event: t.settings().event.clone(),
            boards: states,
            standings: Some(Standings { rows }),
        };
        self.publish_state(state, live);
    }

    /// Publishes the board as `core` has it at `at` (core time, now).
    pub fn publish(&mut self, core: &Referee, at: u64) {
        let snap = core.snapshot(at);
        let live = core
            .live_pgn(at)
            .map(|g| (snap.game_number, g))
            .into_iter()
            .collect();
        let state = WebState {
            event: core.settings().event.clone(),
            boards: vec![board_of(&snap, 1)],
            standings: None,
        };
        self.publish_state(state, live);
    }
}
