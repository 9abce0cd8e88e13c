//! The audience of a session: the web view (`--http`) and the broadcast
//! push (`--broadcast-push`). Starts the server (`crate::web`) and the
//! pusher (`crate::web::push`) and, from the loop, publishes the board
//! after every change and each game as it ends, to both. Without either
//! flag there is no [`Audience`] and nothing of this runs.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, after, never, select};

use crate::app::options::{WebOptions, seconds_ms};
use crate::app::signals::Stop;
use crate::record::pgn::{PgnGame, write_pgn};
use crate::referee::{GameOver, Referee};
use crate::text::strip_control;
use crate::tournament::{Tournament, report};
use crate::web::hub::GAMES_KEPT;
use crate::web::push::{PUSH_GAP, Pusher, Round, Token};
use crate::web::{
    self, GamePgn, Games, Limits, Publisher, StandingRow, Standings, WebState, board_of,
};

/// The games that ended before the server started (a resumed match or
/// tournament, a watched one), to put in `/games.pgn` at once: the last
/// [`GAMES_KEPT`] of them (the server keeps no more), by their numbers in
/// the event.
#[derive(Debug, Default)]
pub struct Ended(VecDeque<(u32, Arc<PgnGame>)>);

impl Ended {
    /// Game `number` ended with `pgn`.
    pub fn add(&mut self, number: u32, pgn: Arc<PgnGame>) {
        if self.0.len() >= GAMES_KEPT {
            self.0.pop_front();
        }
        self.0.push_back((number, pgn));
    }
}

/// The loop's side of the web view and the broadcast push.
pub struct Audience {
    /// The web view, with `--http`.
    page: Option<Page>,
    /// The broadcast pusher, with `--broadcast-push`.
    pusher: Option<Pusher>,
    /// The event's ended games (the last [`GAMES_KEPT`]).
    games: Games,
    /// The games in progress, as last published.
    live: Vec<(u32, PgnGame)>,
}

/// The web view's part of the audience.
struct Page {
    publisher: Publisher,
    addr: SocketAddr,
    /// How long the final state is served once the event is over (`None`:
    /// until a stop request).
    linger: Option<Duration>,
}

impl Audience {
    /// Starts the server when `--http` asks for one, and says where it is
    /// (on stdout and in the log), and the pusher when `--broadcast-push`
    /// asks for one (its URL and token file checked first).
    pub fn start(options: &WebOptions) -> Result<Option<Audience>, String> {
        let pusher = match (&options.broadcast_push, &options.broadcast_token_file) {
            (Some(url), Some(file)) => {
                web::push::check_url(url)?;
                Some(Pusher::start(url, Token::read(file)?, PUSH_GAP)?)
            }
            (Some(_), None) => return Err("--broadcast-push needs --broadcast-token-file".into()),
            (None, Some(_)) => return Err("--broadcast-token-file needs --broadcast-push".into()),
            (None, None) => None,
        };
        let page = match &options.http {
            Some(addr) => Some(Page::start(options, addr)?),
            None => None,
        };
        if page.is_none() && pusher.is_none() {
            return Ok(None);
        }
        Ok(Some(Audience {
            page,
            pusher,
            games: Games::default(),
            live: Vec::new(),
        }))
    }

    /// The event is over and the page shows its final state: keeps serving
    /// it until a stop request comes on `stop` (Ctrl-C, SIGTERM, SIGHUP) or
    /// `--http-linger` has passed, and says so first on the console. The
    /// broadcast push delivers its final state first (within its bound).
    pub fn linger(mut self, stop: &Receiver<Stop>) {
        if let Some(p) = self.pusher.take() {
            p.close();
        }
        if let Some(page) = self.page.take() {
            page.linger(stop);
        }
    }

    /// Where the server listens, with `--http`.
    pub fn addr(&self) -> Option<SocketAddr> {
        self.page.as_ref().map(|p| p.addr)
    }

    /// The games that ended before the server started join `/games.pgn`.
    pub fn ended_before(&mut self, ended: Ended) {
        for (number, pgn) in ended.0 {
            self.finish(number, write_pgn(&pgn));
        }
    }

    /// Game `g` has ended: its PGN joins `/games.pgn`.
    pub fn game_over(&mut self, g: &GameOver) {
        self.game_over_as(g.game_number, g);
    }

    /// Game `g` has ended, numbered `number` in the event (a tournament's
    /// board plays its game as game 1 of its own).
    pub fn game_over_as(&mut self, number: u32, g: &GameOver) {
        self.finish(number, write_pgn(&g.pgn));
        // The result goes out as it happens, not with the next move.
        self.push();
    }

    fn finish(&mut self, number: u32, text: String) {
        self.games.finish(GamePgn {
            number,
            text: text.into(),
        });
    }

    /// Whether game `number` is among the ended games kept.
    pub fn has_ended(&self, number: u32) -> bool {
        self.games.has_ended(number)
    }

    /// Hands the event's games to the pusher (not before there is one: a
    /// round is not emptied).
    fn push(&self) {
        if self.games.all().next().is_none() && self.live.is_empty() {
            return;
        }
        if let Some(p) = &self.pusher {
            p.offer(Round {
                games: self.games.clone(),
                live: self.live.clone(),
            });
        }
    }

    /// Publishes `state`, with the PGN of each game in progress (by its
    /// number in the event).
    pub fn publish_state(&mut self, state: WebState, live: Vec<(u32, PgnGame)>) {
        self.live = live;
        self.push();
        if let Some(page) = &mut self.page {
            page.publisher
                .publish(state, self.games.clone(), self.live.clone(), Instant::now());
        }
    }

    /// Publishes a tournament: each board with a game (board number, the
    /// game's number in the tournament, its referee core) as the cores
    /// have them at `at`, and the standings.
    /// `waiting`: whom the tournament waits for, in words (`waiting for
    /// NAME since HH:MM:SS`).
    pub fn publish_tournament(
        &mut self,
        t: &Tournament,
        boards: &[(u32, u32, &Referee)],
        waiting: Vec<String>,
        at: u64,
    ) {
        let mut states = Vec::new();
        let mut live = Vec::new();
        for &(board, game, core) in boards {
            let snap = core.snapshot(at);
            let pgn = core.live_pgn(at);
            let moves = pgn.as_ref().map_or(&[][..], |g| &g.moves[..]);
            let mut state = board_of(&snap, board, moves);
            state.game = game;
            state.games_total = None;
            states.push(state);
            if let Some(pgn) = pgn {
                live.push((game, pgn));
            }
        }
        let state = WebState {
            event: t.settings().event.clone(),
            boards: states,
            standings: Some(standings_of(t)),
            knockout: t.knockout().map(|k| k.data(&|p| strip_control(t.name(p)))),
            waiting,
        };
        self.publish_state(state, live);
    }

    /// Publishes the board as `core` has it at `at` (core time, now), and
    /// whom the match waits for.
    pub fn publish(&mut self, core: &Referee, at: u64) {
        let snap = core.snapshot(at);
        let pgn = core.live_pgn(at);
        let moves = pgn.as_ref().map_or(&[][..], |g| &g.moves[..]);
        let board = board_of(&snap, 1, moves);
        let live = pgn.map(|g| (snap.game_number, g)).into_iter().collect();
        let state = WebState {
            event: core.settings().event.clone(),
            boards: vec![board],
            standings: None,
            knockout: None,
            waiting: crate::app::waiting::match_waiting(core, at),
        };
        self.publish_state(state, live);
    }
}

impl Page {
    /// Starts the server on `addr`, and says where it is.
    fn start(options: &WebOptions, addr: &str) -> Result<Page, String> {
        let limits = Limits {
            viewers: usize::from(options.http_viewers),
            per_address: usize::from(options.http_per_address),
            ..Limits::default()
        };
        let linger = options
            .http_linger
            .map(|secs| seconds_ms(secs, "http-linger", 366.0 * 86_400.0))
            .transpose()?
            .map(Duration::from_millis);
        let served = web::serve(addr, limits)?;
        crate::app::stdout::line(&format!("the audience's page: http://{}/", served.addr));
        Ok(Page {
            publisher: served.publisher,
            addr: served.addr,
            linger,
        })
    }

    /// Keeps serving the final state (see [`Audience::linger`]).
    fn linger(self, stop: &Receiver<Stop>) {
        if self.linger == Some(Duration::ZERO) {
            return;
        }
        let until = match self.linger {
            Some(d) => format!("for {} s (--http-linger) or until Ctrl-C", d.as_secs_f64()),
            None => "until Ctrl-C ends argus".into(),
        };
        let say = format!(
            "the event is over; the audience's page http://{}/ keeps its final state {until}",
            self.addr
        );
        log::info!("{say}");
        crate::app::stdout::line(&say);
        let timer = self.linger.map_or_else(never, after);
        select! {
            recv(stop) -> s => {
                let by = s.ok().map_or("a stop request", Stop::name);
                log::info!("{by}: the audience's page ends");
            }
            recv(timer) -> _ => log::info!("--http-linger has passed: the audience's page ends"),
        }
    }
}

/// The standings and crosstable of `t` for the page: the tournament's own
/// (`tournament::Standings`), each cell as the report writes it.
fn standings_of(t: &Tournament) -> Standings {
    let standings = crate::tournament::Standings::of(t);
    let rows = standings
        .rows
        .iter()
        .zip(&standings.cells)
        .enumerate()
        .map(|(i, (r, cells))| StandingRow {
            name: strip_control(t.name(r.player)),
            rank: u32::try_from(r.rank).unwrap_or(u32::MAX),
            points_halves: r.halves,
            games: r.games,
            cells: cells
                .iter()
                .enumerate()
                .map(|(j, marks)| (i != j).then(|| report::cell(marks)))
                .collect(),
        })
        .collect();
    Standings { rows }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::{GameResult, Termination};
    use crate::tournament::{Absence, Input, Output, PlayerId, ScheduleSettings, Settings};

    #[test]
    fn the_page_gets_the_standings_and_the_crosstable_of_the_report() {
        let mut t = Tournament::new(Settings {
            event: "e".into(),
            names: vec!["A".into(), "B\x1b[31m<b>".into(), "C".into()],
            schedule: ScheduleSettings {
                players: 3,
                ..Default::default()
            },
            boards: None,
            absence: Absence::Wait,
            instances: 1,
            sprt: None,
            sprt_running: Default::default(),
            ratings: Vec::new(),
            tiebreak: None,
        })
        .unwrap();
        let mut started = Vec::new();
        for p in 0..3 {
            for o in t.handle(
                Input::SignedOn {
                    instance: 0,
                    player: PlayerId(p),
                },
                0,
            ) {
                if let Output::StartGame { game, .. } = o {
                    started.push(game);
                }
            }
        }
        let first = started[0];
        t.handle(
            Input::GameFinished {
                game: first.number,
                result: GameResult::Win(shakmaty::Color::White),
                termination: Termination::Normal,
                sides: Default::default(),
                ending: None,
            },
            1000,
        );
        let s = standings_of(&t);
        assert_eq!(s.rows.len(), 3);
        let winner = t.name(first.white);
        let loser = t.name(first.black);
        let row = |name: &str| {
            let name = strip_control(name);
            s.rows.iter().position(|r| r.name == name).unwrap()
        };
        let (w, l) = (row(winner), row(loser));
        assert_eq!(w, 0, "the winner first");
        assert_eq!(s.rows[w].rank, 1);
        assert_eq!(s.rows[w].points_halves, 2);
        assert_eq!(s.rows[w].cells[l].as_deref(), Some("1"));
        assert_eq!(s.rows[l].cells[w].as_deref(), Some("0"));
        for (i, r) in s.rows.iter().enumerate() {
            assert_eq!(r.cells.len(), 3);
            assert_eq!(r.cells[i], None, "no cell against itself");
            assert!(!r.name.contains('\x1b'), "{}", r.name);
        }
        // The third player's games are not decided yet: the report's mark.
        let other = 3 - w - l;
        assert_eq!(s.rows[other].cells[w].as_deref(), Some("."));
    }
}
