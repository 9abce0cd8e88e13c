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

use crate::app::options::{BadSeconds, WebOptions, seconds_ms};
use crate::app::signals::Stop;
use crate::record::pgn::PgnGame;
use crate::referee::{GameOver, Referee};
use crate::text::strip_control;
use crate::tournament::{Tournament, report};
use crate::web::hub::GAMES_KEPT;
use crate::web::push::{PUSH_GAP, PushError, Pusher, Round, Rounds, Token};
use crate::web::server::ServeError;
use crate::web::state::{Pairing, ROUNDS_GAMES_SHOWN, RoundBye, RoundState, TiebreakValue};
use crate::web::{
    self, BoardState, GamePgn, Games, Limits, Publisher, StandingRow, Standings, WebState, board_of,
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
    /// The broadcast pushers, one per `--broadcast-push` URL, each with
    /// the rounds it takes.
    pushers: Vec<(Pusher, Rounds)>,
    /// The event's ended games (the last [`GAMES_KEPT`]).
    games: Games,
    /// The games in progress, as last published.
    live: Vec<(u32, PgnGame)>,
    /// A tournament's boards as last published, by board number: a board
    /// whose game has ended keeps showing it (with its result) until the
    /// board starts its next game.
    shown: std::collections::BTreeMap<u32, BoardState>,
}

/// Why the audience's page or pusher cannot be started: the flags that
/// are wrong, or what the web server or the pusher said.
#[derive(Debug, thiserror::Error)]
pub enum AudienceError {
    #[error("--broadcast-push needs --broadcast-token-file")]
    NoTokenFile,
    #[error("--broadcast-token-file needs --broadcast-push")]
    NoPush,
    /// `--http-linger` out of its range.
    #[error("{0}")]
    Linger(#[from] BadSeconds),
    /// A push URL, the token file, or the pusher's start.
    #[error("{0}")]
    Push(#[from] PushError),
    /// The web server did not start.
    #[error("{0}")]
    Serve(#[from] ServeError),
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
    pub fn start(options: &WebOptions) -> Result<Option<Audience>, AudienceError> {
        let urls = &options.broadcast_push;
        let pushers = match (urls.is_empty(), &options.broadcast_token_file) {
            (false, Some(file)) => {
                for url in urls {
                    web::push::check_url(url)?;
                }
                let token = Token::read(file)?;
                let mut pushers = Vec::with_capacity(urls.len());
                for (i, url) in urls.iter().enumerate() {
                    let rounds = Rounds::of(i, urls.len());
                    pushers.push((Pusher::start(url, token.clone(), PUSH_GAP, rounds)?, rounds));
                }
                pushers
            }
            (false, None) => return Err(AudienceError::NoTokenFile),
            (true, Some(_)) => return Err(AudienceError::NoPush),
            (true, None) => Vec::new(),
        };
        let page = match &options.http {
            Some(addr) => Some(Page::start(options, addr)?),
            None => None,
        };
        if page.is_none() && pushers.is_empty() {
            return Ok(None);
        }
        Ok(Some(Audience {
            page,
            pushers,
            games: Games::default(),
            live: Vec::new(),
            shown: Default::default(),
        }))
    }

    /// The event is over and the page shows its final state: keeps serving
    /// it until a stop request comes on `stop` (Ctrl-C, SIGTERM, SIGHUP) or
    /// `--http-linger` has passed, and says so first on the console. The
    /// broadcast push delivers its final state first (within its bound).
    pub fn linger(mut self, stop: &Receiver<Stop>) {
        // Each closes within its grace; together they wait at most that
        // much, not that much each.
        let closing: Vec<std::thread::JoinHandle<()>> = self
            .pushers
            .drain(..)
            .filter_map(|(p, _)| std::thread::Builder::new().spawn(move || p.close()).ok())
            .collect();
        for c in closing {
            let _ = c.join();
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
            self.games.finish(GamePgn::finished(number, pgn));
        }
    }

    /// Game `g` has ended: its PGN joins `/games.pgn`.
    pub fn game_over(&mut self, g: &GameOver) {
        self.game_over_as(g.game_number, g);
    }

    /// Game `g` has ended, numbered `number` in the event (a tournament's
    /// board plays its game as game 1 of its own).
    pub fn game_over_as(&mut self, number: u32, g: &GameOver) {
        self.games.finish(GamePgn::finished(number, g.pgn.clone()));
        // A board that showed it keeps it, ended.
        for b in self.shown.values_mut().filter(|b| b.game == number) {
            b.phase = "over";
            b.paused = None;
            for c in &mut b.clocks {
                c.running = false;
            }
            b.result = Some(web::state::ResultState {
                result: g.result.as_str().to_string(),
                termination: g.termination.as_str().to_string(),
                reason: g.ending.to_string(),
            });
        }
        // The result goes out as it happens, not with the next move.
        self.push();
    }

    /// Whether game `number` is among the ended games kept.
    pub fn has_ended(&self, number: u32) -> bool {
        self.games.has_ended(number)
    }

    /// Hands the event's games to each pusher, the games in progress of
    /// its rounds only (not before there is one: a round is not emptied;
    /// the pusher's thread leaves out the finished games of other rounds).
    fn push(&self) {
        if self.games.all().next().is_none() && self.live.is_empty() {
            return;
        }
        for (p, rounds) in &self.pushers {
            let live = self
                .live
                .iter()
                .filter(|(_, g)| rounds.takes(round_tag(g)))
                .cloned()
                .collect();
            p.offer(Round {
                games: self.games.clone(),
                live,
                rounds: *rounds,
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
    /// have them at `at`, each board whose game has ended since as it was
    /// last shown (its game and result stay until the board starts its
    /// next one), the schedule and the standings.
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
            // A match's game is one of its games (as its terminal board
            // says it); a tournament's count is in its schedule.
            state.games_total = (t.settings().form == crate::tournament::Form::Match)
                .then(|| t.games_total())
                .filter(|&n| n != u32::MAX);
            self.shown.insert(board, state.clone());
            states.push(state);
            if let Some(pgn) = pgn {
                live.push((game, pgn));
            }
        }
        for (n, kept) in &self.shown {
            if !boards.iter().any(|(b, _, _)| b == n) && self.games.has_ended(kept.game) {
                let mut kept = kept.clone();
                // The event is over: its boards are finished, not only
                // their games (as a match's board always said).
                if t.is_over() {
                    kept.phase = "finished";
                }
                states.push(kept);
            }
        }
        states.sort_by_key(|b| b.board);
        let (rounds, current_round) = rounds_of(t);
        let state = WebState {
            event: t.settings().event.clone(),
            boards: states,
            standings: Some(standings_of(t)),
            knockout: t.knockout().map(|k| k.data(&|p| strip_control(t.name(p)))),
            waiting,
            rounds,
            current_round,
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
            ..WebState::default()
        };
        self.publish_state(state, live);
    }
}

impl Page {
    /// Starts the server on `addr`, and says where it is.
    fn start(options: &WebOptions, addr: &str) -> Result<Page, AudienceError> {
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
    fn linger(mut self, stop: &Receiver<Stop>) {
        // What is served from now on is the final state, not the last
        // frame the fan-out thread got round to.
        self.publisher.flush();
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
            tiebreaks: tiebreaks_of(t, r),
            cells: cells
                .iter()
                .enumerate()
                .map(|(j, marks)| (i != j).then(|| report::cell(marks)))
                .collect(),
        })
        .collect();
    Standings { rows }
}

/// A standings row's tie-breaks for the page: a Swiss event's own
/// (`--tiebreaks`), else Sonneborn-Berger and wins, as the report orders
/// a round robin.
fn tiebreaks_of(t: &Tournament, r: &crate::tournament::standings::Row) -> Vec<TiebreakValue> {
    // The rows carry the event's own tie-breaks when it ranks by them.
    let swiss = &t.settings().swiss.tiebreaks;
    if !r.tiebreaks.is_empty() {
        return swiss
            .iter()
            .zip(&r.tiebreaks)
            .map(|(k, v)| TiebreakValue {
                name: k.name().into(),
                short: k.short().into(),
                value: k.text(*v),
            })
            .collect();
    }
    vec![
        TiebreakValue {
            name: "sonneborn-berger".into(),
            short: "SB".into(),
            value: quarters_text(r.sb_quarters),
        },
        TiebreakValue {
            name: "wins".into(),
            short: "Wins".into(),
            value: r.wins.to_string(),
        },
    ]
}

/// The round a game's `Round` tag names (`R` of `R` or `R.B`).
fn round_tag(g: &PgnGame) -> Option<u32> {
    let value = g.tags.iter().find(|(k, _)| k == "Round")?.1.as_str();
    crate::web::hub::round_in_tag(value)
}

/// Quarter points as the report writes them: `6.25`, `3.5`, `2`.
fn quarters_text(q: u64) -> String {
    let text = format!("{}.{:02}", q / 4, (q % 4) * 25);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The schedule of `t` round by round for the page (the rounds nearest
/// the current one, at most [`ROUNDS_GAMES_SHOWN`] games), and the
/// current round: the first with a game not decided.
fn rounds_of(t: &Tournament) -> (Vec<RoundState>, Option<u32>) {
    use crate::tournament::GameState;
    let games: Vec<_> = t.games().collect();
    let current = games
        .iter()
        .find(|(_, s)| !s.is_decided())
        .map(|(g, _)| g.round);
    let last = games.iter().map(|(g, _)| g.round).max().unwrap_or(0);
    let mut counts = vec![0usize; last as usize + 1];
    for (g, _) in &games {
        counts[g.round as usize] += 1;
    }
    // Widen a window around the current round (the last when all are
    // decided) while the games fit.
    let centre = current.unwrap_or(last).max(1);
    let (mut lo, mut hi) = (centre, centre);
    let mut shown = counts.get(centre as usize).copied().unwrap_or(0);
    loop {
        let mut grew = false;
        if lo > 1 && shown + counts[lo as usize - 1] <= ROUNDS_GAMES_SHOWN {
            lo -= 1;
            shown += counts[lo as usize];
            grew = true;
        }
        if hi < last && shown + counts[hi as usize + 1] <= ROUNDS_GAMES_SHOWN {
            hi += 1;
            shown += counts[hi as usize];
            grew = true;
        }
        if !grew {
            break;
        }
    }
    let mut rounds: Vec<RoundState> = (lo..=hi.min(last))
        .map(|round| RoundState {
            round,
            pairings: Vec::new(),
            byes: Vec::new(),
        })
        .collect();
    for (g, state) in &games {
        let Some(r) = rounds.iter_mut().find(|r| r.round == g.round) else {
            continue;
        };
        r.pairings.push(Pairing {
            game: g.number,
            board: g.board,
            white: strip_control(t.name(g.white)),
            black: strip_control(t.name(g.black)),
            result: match state {
                GameState::Decided(o) => Some(o.result_text().to_string()),
                _ => None,
            },
            on_board: match state {
                GameState::Playing(b) => Some(b.0),
                _ => None,
            },
        });
    }
    for bye in t.schedule().byes() {
        if let Some(r) = rounds.iter_mut().find(|r| r.round == bye.round) {
            r.byes.push(RoundBye {
                player: strip_control(t.name(bye.player)),
                kind: bye.kind.letter().to_string(),
                points_halves: bye.kind.halves(),
            });
        }
    }
    (rounds, current)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::{GameResult, Termination};
    use crate::tournament::{Input, Output, PlayerId, Settings};

    /// The flags are checked before anything starts, each mistake its own
    /// kind; no flags, no audience.
    #[test]
    fn audience_flags_that_do_not_go_together_are_refused_by_kind() {
        let start = |o: WebOptions| Audience::start(&o).map(|a| a.is_some());
        let push = WebOptions {
            broadcast_push: vec!["http://127.0.0.1:9/push".into()],
            ..WebOptions::default()
        };
        assert!(matches!(start(push), Err(AudienceError::NoTokenFile)));
        let token = WebOptions {
            broadcast_token_file: Some("token".into()),
            ..WebOptions::default()
        };
        assert!(matches!(start(token), Err(AudienceError::NoPush)));
        let linger = WebOptions {
            http: Some("127.0.0.1:0".into()),
            http_linger: Some(-1.0),
            ..WebOptions::default()
        };
        let e = start(linger).unwrap_err();
        assert!(matches!(e, AudienceError::Linger(_)), "{e}");
        assert!(e.to_string().starts_with("--http-linger must be"), "{e}");
        assert!(!start(WebOptions::default()).unwrap());
    }

    #[test]
    fn the_page_gets_the_standings_and_the_crosstable_of_the_report() {
        let names = vec!["A".into(), "B\x1b[31m<b>".into(), "C".into()];
        let mut t = Tournament::new(Settings::round_robin("e", names)).unwrap();
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
        // The tie-breaks, as the report orders players.
        let names: Vec<&str> = s.rows[w]
            .tiebreaks
            .iter()
            .map(|t| t.short.as_str())
            .collect();
        assert_eq!(names, ["SB", "Wins"]);
        assert_eq!(s.rows[w].tiebreaks[1].value, "1");
        assert_eq!(quarters_text(9), "2.25");
        assert_eq!(quarters_text(2), "0.5");
        assert_eq!(quarters_text(8), "2");
        // The schedule: three rounds of one game and a bye each; the first
        // game's result, the others on no board or on one.
        let (rounds, current) = rounds_of(&t);
        assert_eq!(rounds.len(), 3);
        for r in &rounds {
            assert_eq!((r.pairings.len(), r.byes.len()), (1, 1), "{r:?}");
            let p = &r.pairings[0];
            let bye = &r.byes[0];
            assert!(bye.player != p.white && bye.player != p.black, "{r:?}");
            assert_eq!((bye.kind.as_str(), bye.points_halves), ("R", 0));
        }
        let decided = rounds
            .iter()
            .flat_map(|r| &r.pairings)
            .find(|p| p.game == first.number)
            .unwrap();
        assert_eq!(decided.result.as_deref(), Some("1-0"));
        assert_eq!(decided.on_board, None);
        assert_eq!(
            current,
            Some(
                rounds
                    .iter()
                    .find(|r| r.pairings[0].result.is_none())
                    .unwrap()
                    .round
            )
        );
    }
}
