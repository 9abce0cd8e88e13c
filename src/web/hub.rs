//! The slot between the referee's loop and the web server's threads.
//!
//! The loop hands the latest state to a [`Publisher`]: that stores it in
//! a one-value slot (a newer state replaces one not yet sent) and wakes the
//! fan-out thread, never waiting for anyone. The fan-out thread turns the
//! state into JSON once and offers the frame to every viewer's bounded
//! queue; a viewer whose queue is full is too slow and is dropped (its
//! socket shut down), so no viewer can hold back the others or the loop.
//! The viewers are capped in all and per address ([`Source`]), so that no
//! visitor can take every place.

use std::net::{Shutdown, SocketAddr, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TrySendError, bounded};
use log::{info, warn};

use crate::record::pgn::{PgnGame, write_pgn};
use crate::web::guard::{Refused, Source, Wanted, lock};
use crate::web::state::WebState;

/// The most games the server keeps in memory for `/games.pgn` (the oldest
/// go first; the PGN file keeps them all). About 3 kB a game.
pub const GAMES_KEPT: usize = 2_000;

/// The least time between two states sent to the viewers: a state
/// published sooner waits, and a newer one replaces it. It bounds the
/// server's work (and so the CPU it takes from the loop) however fast the
/// moves come; the page is at most this much later.
pub const SEND_EVERY: Duration = Duration::from_millis(100);

/// The most recent finished games the server keeps whole ([`GamePgn::game`])
/// for the page to step through (`/game/N.json`); older ones keep only
/// their PGN text.
pub const VIEWS_KEPT: usize = 200;

/// One game's PGN text and number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GamePgn {
    pub number: u32,
    pub text: Arc<str>,
    /// The game itself, for a finished game among the last [`VIEWS_KEPT`]
    /// (shared with the referee's record; `None` for a game in progress).
    pub game: Option<Arc<PgnGame>>,
}

impl GamePgn {
    /// Game `number` in progress, as its PGN `g` stands now.
    pub fn live(number: u32, g: &PgnGame) -> GamePgn {
        GamePgn {
            number,
            text: write_pgn(g).into(),
            game: None,
        }
    }

    /// Game `number`, finished: its PGN text and the game, whole.
    pub fn finished(number: u32, g: Arc<PgnGame>) -> GamePgn {
        GamePgn {
            number,
            text: write_pgn(&g).into(),
            game: Some(g),
        }
    }
}

/// The games of the event so far: the finished ones (shared, cheap to
/// clone) and the ones in progress.
#[derive(Debug, Clone, Default)]
pub struct Games {
    finished: Arc<Vec<GamePgn>>,
    live: Vec<GamePgn>,
}

impl Games {
    /// Game `number` has ended with this PGN (it leaves the live ones; a
    /// game told again replaces the first telling). Past [`GAMES_KEPT`],
    /// the lowest numbered game goes.
    pub fn finish(&mut self, game: GamePgn) {
        self.live.retain(|g| g.number != game.number);
        let finished = Arc::make_mut(&mut self.finished);
        match finished.binary_search_by_key(&game.number, |g| g.number) {
            Ok(i) => finished[i] = game,
            Err(i) => {
                finished.insert(i, game);
                if finished.len() > GAMES_KEPT {
                    finished.remove(0);
                }
            }
        }
        // Only the newest games stay whole: drop the oldest one's.
        let whole = finished.iter().filter(|g| g.game.is_some()).count();
        if whole > VIEWS_KEPT
            && let Some(old) = finished.iter_mut().find(|g| g.game.is_some())
        {
            old.game = None;
        }
    }

    /// Finished game `number` whole, if it is among the last kept so.
    pub fn whole(&self, number: u32) -> Option<&Arc<PgnGame>> {
        let i = self
            .finished
            .binary_search_by_key(&number, |g| g.number)
            .ok()?;
        self.finished[i].game.as_ref()
    }

    /// The games in progress now, replacing the last ones (a game already
    /// finished is left out).
    pub fn set_live(&mut self, live: Vec<GamePgn>) {
        self.live = live
            .into_iter()
            .filter(|g| !self.finished.iter().any(|f| f.number == g.number))
            .collect();
    }

    /// Every game, finished or in progress, in number order.
    pub fn all(&self) -> impl Iterator<Item = &GamePgn> {
        let mut all: Vec<&GamePgn> = self.finished.iter().chain(self.live.iter()).collect();
        all.sort_by_key(|g| g.number);
        all.into_iter()
    }

    /// Whether game `number` is among the finished games kept.
    pub fn has_ended(&self, number: u32) -> bool {
        self.finished
            .binary_search_by_key(&number, |g| g.number)
            .is_ok()
    }

    /// Game `number`, finished or in progress.
    pub fn get(&self, number: u32) -> Option<&GamePgn> {
        self.all().find(|g| g.number == number)
    }

    /// Every game as one PGN text, in number order (`/games.pgn`, and what
    /// the broadcast push sends).
    pub fn pgn(&self) -> String {
        self.all().map(|g| g.text.as_ref()).collect()
    }

    /// The games of round `round` as one PGN text, in number order: those
    /// whose `Round` tag is `round` or `round.BOARD` (`/round/N.pgn`).
    pub fn round_pgn(&self, round: u32) -> String {
        self.all()
            .filter(|g| round_of(&g.text) == Some(round))
            .map(|g| g.text.as_ref())
            .collect()
    }
}

/// The round a game's PGN text names in its `Round` tag: `R` of `R` or
/// `R.B`; `None` for `?`, a missing tag or anything else.
pub fn round_of(pgn: &str) -> Option<u32> {
    let value = pgn
        .lines()
        .take_while(|l| l.starts_with('['))
        .find_map(|l| l.strip_prefix("[Round \""))?
        .split('"')
        .next()?;
    round_in_tag(value)
}

/// The round a `Round` tag's value names: `R` of `R` or `R.B`; `None`
/// for `?` or anything else.
pub fn round_in_tag(value: &str) -> Option<u32> {
    let round = value.split('.').next()?;
    if round.is_empty() || round.len() > 9 || !round.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    round.parse().ok()
}

/// A state as the viewers get it: serialized once.
#[derive(Debug)]
pub struct Frame {
    /// Counts up from 1 with every published state.
    pub seq: u64,
    /// The [`WebState`] as JSON.
    pub json: String,
    /// When the state was true (its clocks count from here).
    pub at: Instant,
    pub games: Games,
}

impl Frame {
    /// The document sent on `/events` and `/state.json`: the state with its
    /// sequence number and its age in milliseconds at `now` (the page counts
    /// a running clock down from its `remaining_ms` less the age).
    pub fn envelope(&self, now: Instant) -> String {
        let age = now.saturating_duration_since(self.at).as_millis();
        format!(
            "{{\"seq\":{},\"age_ms\":{age},\"state\":{}}}",
            self.seq, self.json
        )
    }
}

/// What the loop hands over: the latest state, not yet sent. The games
/// in progress are rendered as PGN by the fan-out thread, not the loop.
struct Pending {
    state: WebState,
    games: Games,
    live: Vec<(u32, PgnGame)>,
    at: Instant,
}

/// One connected viewer of `/events`.
struct Viewer {
    id: u64,
    peer: SocketAddr,
    tx: Sender<Arc<Frame>>,
    /// Shut down when the viewer is dropped, to end a blocked write.
    stream: Option<TcpStream>,
}

/// The state shared by the loop's publisher and the server's threads.
pub struct Hub {
    pending: Mutex<Option<Pending>>,
    /// The last frame's sequence number; held while a frame is made and
    /// stored, so a flush and the fan-out thread never store an older
    /// frame over a newer one.
    fanning: Mutex<u64>,
    latest: Mutex<Option<Arc<Frame>>>,
    viewers: Mutex<Vec<Viewer>>,
    next_viewer: AtomicU64,
    /// The most viewers at once.
    pub max_viewers: usize,
    /// The most viewers at once from one [`Source`].
    pub per_source: usize,
    /// The most frames queued for one viewer.
    pub queue: usize,
}

/// A viewer's end: its frames, and its id to leave with.
pub struct Ticket {
    pub id: u64,
    pub frames: Receiver<Arc<Frame>>,
}

impl Hub {
    pub fn new(max_viewers: usize, per_source: usize, queue: usize) -> Arc<Hub> {
        Arc::new(Hub {
            pending: Mutex::new(None),
            fanning: Mutex::new(0),
            latest: Mutex::new(None),
            viewers: Mutex::new(Vec::new()),
            next_viewer: AtomicU64::new(1),
            max_viewers,
            per_source,
            queue: queue.max(1),
        })
    }

    /// The latest frame, if anything was published.
    pub fn latest(&self) -> Option<Arc<Frame>> {
        lock(&self.latest).clone()
    }

    /// How many viewers are connected.
    pub fn viewer_count(&self) -> usize {
        lock(&self.viewers).len()
    }

    /// Whether a viewer from `peer` would be let in now.
    pub fn has_room(&self, peer: SocketAddr) -> Result<(), Refused> {
        self.room(&lock(&self.viewers), peer)
    }

    /// Whether there is room among `viewers` for one more from `peer`: not
    /// if its address has [`Hub::per_source`] already, or there are
    /// [`Hub::max_viewers`] in all.
    fn room(&self, viewers: &[Viewer], peer: SocketAddr) -> Result<(), Refused> {
        let wanted = Wanted::Stream;
        let source = Source::of(peer.ip());
        let mine = viewers
            .iter()
            .filter(|v| Source::of(v.peer.ip()) == source)
            .count();
        if mine >= self.per_source {
            return Err(Refused::FromSource {
                wanted,
                source,
                max: self.per_source,
            });
        }
        if viewers.len() >= self.max_viewers {
            return Err(Refused::AllTaken {
                wanted,
                max: self.max_viewers,
            });
        }
        Ok(())
    }

    /// Lets a viewer in if there is room ([`Hub::has_room`]). Its queue
    /// starts with the latest frame. `stream` is shut down if the viewer is
    /// dropped for being slow.
    pub fn join(&self, peer: SocketAddr, stream: Option<TcpStream>) -> Result<Ticket, Refused> {
        let mut viewers = lock(&self.viewers);
        self.room(&viewers, peer)?;
        let (tx, rx) = bounded(self.queue);
        if let Some(f) = self.latest() {
            let _ = tx.try_send(f);
        }
        let id = self.next_viewer.fetch_add(1, Ordering::Relaxed);
        viewers.push(Viewer {
            id,
            peer,
            tx,
            stream,
        });
        info!(
            "web: viewer {id} ({peer}) connected, {} of at most {}",
            viewers.len(),
            self.max_viewers
        );
        Ok(Ticket { id, frames: rx })
    }

    /// Viewer `id` went away.
    pub fn leave(&self, id: u64) {
        let mut viewers = lock(&self.viewers);
        if let Some(i) = viewers.iter().position(|v| v.id == id) {
            let v = viewers.remove(i);
            info!(
                "web: viewer {id} ({}) left, {} connected",
                v.peer,
                viewers.len()
            );
        }
    }

    /// Turns the pending state (if any) into a frame and offers it to every
    /// viewer; a viewer whose queue is full is dropped.
    fn fan_out(&self) {
        let mut last = lock(&self.fanning);
        let Some(mut p) = lock(&self.pending).take() else {
            return;
        };
        let live = p
            .live
            .iter()
            .map(|(number, g)| GamePgn::live(*number, g))
            .collect();
        p.games.set_live(live);
        *last += 1;
        let seq = *last;
        let json = match serde_json::to_string(&p.state) {
            Ok(j) => j,
            Err(e) => {
                warn!("web: cannot serialize the state ({e}); the last one stays");
                return;
            }
        };
        let frame = Arc::new(Frame {
            seq,
            json,
            at: p.at,
            games: p.games,
        });
        *lock(&self.latest) = Some(frame.clone());
        let queue = self.queue;
        lock(&self.viewers).retain(|v| match v.tx.try_send(frame.clone()) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) => {
                warn!(
                    "web: viewer {} ({}) dropped: it fell {queue} updates behind",
                    v.id, v.peer
                );
                if let Some(s) = &v.stream {
                    let _ = s.shutdown(Shutdown::Both);
                }
                false
            }
            Err(TrySendError::Disconnected(_)) => false,
        });
    }

    /// Drops every viewer (their streams end).
    fn close_all(&self) {
        lock(&self.viewers).clear();
    }
}

/// The loop's end: hands states over without waiting. Dropping it ends
/// the fan-out thread and every viewer's stream.
pub struct Publisher {
    hub: Arc<Hub>,
    wake: Sender<()>,
}

impl Publisher {
    /// A publisher for `hub`, with its fan-out thread.
    pub fn start(hub: Arc<Hub>) -> Result<Publisher, super::server::ServeError> {
        let (wake, woken) = bounded::<()>(1);
        let fan = hub.clone();
        thread::Builder::new()
            .name("web fan-out".into())
            .spawn(move || {
                while woken.recv().is_ok() {
                    fan.fan_out();
                    thread::sleep(SEND_EVERY);
                }
                fan.close_all();
            })
            .map_err(|source| super::server::ServeError::Thread {
                what: "the web server's fan-out thread",
                source,
            })?;
        Ok(Publisher { hub, wake })
    }

    /// Publishes `state`, true at `at`, with the event's `games` and the
    /// games in progress `live` (their numbers and PGN). Never blocks: a
    /// state not yet sent is replaced.
    pub fn publish(
        &mut self,
        state: WebState,
        games: Games,
        live: Vec<(u32, PgnGame)>,
        at: Instant,
    ) {
        *lock(&self.hub.pending) = Some(Pending {
            state,
            games,
            live,
            at,
        });
        let _ = self.wake.try_send(());
    }

    /// Makes the state last published the one served now, without waiting
    /// for the fan-out thread (which sends at most one frame every
    /// [`SEND_EVERY`]): the final state once the event is over.
    pub fn flush(&mut self) {
        self.hub.fan_out();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn peer() -> SocketAddr {
        "127.0.0.1:1".parse().unwrap()
    }

    fn peer_at(ip: &str) -> SocketAddr {
        SocketAddr::new(ip.parse().unwrap(), 1)
    }

    fn game(n: u32) -> GamePgn {
        GamePgn {
            number: n,
            text: format!("game {n}").into(),
            game: None,
        }
    }

    #[test]
    fn only_the_newest_finished_games_stay_whole() {
        let mut g = Games::default();
        let whole = Arc::new(PgnGame::default());
        for n in 1..=(VIEWS_KEPT as u32 + 3) {
            g.finish(GamePgn {
                game: Some(whole.clone()),
                ..game(n)
            });
        }
        assert!(g.whole(3).is_none() && g.get(3).is_some());
        assert!(g.whole(4).is_some());
        assert!(g.whole(VIEWS_KEPT as u32 + 3).is_some());
        assert!(g.whole(VIEWS_KEPT as u32 + 4).is_none());
    }

    #[test]
    fn games_keep_finished_then_live_and_a_finished_game_is_not_live_twice() {
        let mut g = Games::default();
        g.set_live(vec![game(1)]);
        g.finish(game(1));
        g.set_live(vec![game(1), game(2)]);
        let numbers: Vec<u32> = g.all().map(|g| g.number).collect();
        assert_eq!(numbers, [1, 2]);
        assert_eq!(g.get(2).unwrap().text.as_ref(), "game 2");
        assert!(g.get(3).is_none());
    }

    #[test]
    fn games_come_in_number_order_whatever_order_they_end_in() {
        let mut g = Games::default();
        g.finish(game(3));
        g.finish(game(1));
        g.set_live(vec![game(4), game(2)]);
        g.finish(game(3));
        let numbers: Vec<u32> = g.all().map(|g| g.number).collect();
        assert_eq!(numbers, [1, 2, 3, 4]);
    }

    #[test]
    fn a_round_is_the_games_whose_round_tag_names_it() {
        let tagged = |number: u32, round: &str| GamePgn {
            number,
            text: format!("[Event \"e\"]\n[Round \"{round}\"]\n\n1. e4 *\n\n").into(),
            game: None,
        };
        let mut g = Games::default();
        g.finish(tagged(1, "1.1"));
        g.finish(tagged(2, "1.2"));
        g.finish(tagged(3, "2.1"));
        g.set_live(vec![tagged(4, "2.2"), tagged(5, "?"), tagged(6, "12.1")]);
        let numbers = |text: String| -> Vec<u32> {
            g.all()
                .filter(|x| text.contains(x.text.as_ref()))
                .map(|x| x.number)
                .collect()
        };
        assert_eq!(numbers(g.round_pgn(1)), [1, 2]);
        assert_eq!(numbers(g.round_pgn(2)), [3, 4]);
        assert_eq!(numbers(g.round_pgn(12)), [6]);
        assert_eq!(g.round_pgn(3), "");
        assert_eq!(g.pgn().matches("[Event").count(), 6);
        assert_eq!(round_of("[Round \"7\"]\n"), Some(7));
        assert_eq!(round_of("[Round \"\"]\n"), None);
        assert_eq!(round_of("[Round \"x.1\"]\n"), None);
        assert_eq!(round_of("[Event \"e\"]\n\n1. e4 {[Round \"3\"]} *"), None);
    }

    #[test]
    fn the_oldest_games_go_past_the_limit() {
        let mut g = Games::default();
        for n in 1..=(GAMES_KEPT as u32 + 5) {
            g.finish(game(n));
        }
        assert_eq!(g.all().count(), GAMES_KEPT);
        assert_eq!(g.all().next().unwrap().number, 6);
    }

    #[test]
    fn viewers_past_the_cap_are_refused() {
        let hub = Hub::new(2, 2, 4);
        let _a = hub.join(peer(), None).unwrap();
        let _b = hub.join(peer_at("127.0.0.2"), None).unwrap();
        let full = Refused::AllTaken {
            wanted: Wanted::Stream,
            max: 2,
        };
        assert_eq!(hub.has_room(peer_at("127.0.0.3")), Err(full));
        assert_eq!(hub.join(peer_at("127.0.0.3"), None).err(), Some(full));
        hub.leave(_a.id);
        assert!(hub.join(peer(), None).is_ok());
    }

    #[test]
    fn one_address_gets_its_share_of_the_viewers_and_the_others_the_rest() {
        let hub = Hub::new(4, 2, 4);
        let a = peer_at("127.0.0.2");
        let first = hub.join(a, None).unwrap();
        let _second = hub.join(SocketAddr::new(a.ip(), 2), None).unwrap();
        let refused = Refused::FromSource {
            wanted: Wanted::Stream,
            source: Source::of(a.ip()),
            max: 2,
        };
        assert_eq!(hub.join(a, None).err(), Some(refused));
        assert_eq!(hub.has_room(a), Err(refused));
        // The others still get in, up to the cap.
        let _b = hub.join(peer(), None).unwrap();
        let _c = hub.join(peer_at("127.0.0.3"), None).unwrap();
        assert_eq!(hub.viewer_count(), 4);
        hub.leave(first.id);
        assert!(
            hub.join(a, None).is_ok(),
            "its freed place is not given back"
        );
    }

    #[test]
    fn a_flush_serves_the_last_published_state_at_once() {
        let hub = Hub::new(10, 10, 2);
        let mut publisher = Publisher::start(hub.clone()).unwrap();
        for n in 0..50u32 {
            let state = WebState {
                event: format!("e{n}"),
                ..WebState::default()
            };
            publisher.publish(state, Games::default(), Vec::new(), Instant::now());
        }
        // The fan-out thread sends at most one frame every SEND_EVERY, so
        // without the flush the latest frame is an early one.
        publisher.flush();
        let latest = hub.latest().expect("a frame");
        assert!(latest.json.contains("\"e49\""), "{}", latest.json);
    }

    #[test]
    fn a_viewer_that_falls_behind_is_dropped_and_the_others_go_on() {
        let hub = Hub::new(10, 10, 2);
        let slow = hub.join(peer(), None).unwrap();
        let quick = hub.join(peer(), None).unwrap();
        let mut publisher = Publisher::start(hub.clone()).unwrap();
        let mut got = Vec::new();
        for n in 0..5u32 {
            let state = WebState {
                event: format!("e{n}"),
                ..WebState::default()
            };
            publisher.publish(state, Games::default(), Vec::new(), Instant::now());
            // The quick viewer reads each frame as it comes.
            let f = quick.frames.recv_timeout(Duration::from_secs(5)).unwrap();
            got.push(f.seq);
        }
        assert_eq!(got, [1, 2, 3, 4, 5]);
        assert_eq!(hub.viewer_count(), 1, "the slow viewer is dropped");
        // It keeps what was queued, then its stream ends.
        let queued: Vec<u64> = slow.frames.iter().map(|f| f.seq).collect();
        assert_eq!(queued, [1, 2]);
        drop(publisher);
        assert!(quick.frames.recv_timeout(Duration::from_secs(5)).is_err());
    }

    #[test]
    fn a_late_viewer_starts_with_the_latest_state_and_its_age() {
        let hub = Hub::new(10, 10, 4);
        let mut publisher = Publisher::start(hub.clone()).unwrap();
        let at = Instant::now();
        let pgn = PgnGame {
            tags: vec![("White".into(), "w".into())],
            ..PgnGame::default()
        };
        publisher.publish(WebState::default(), Games::default(), vec![(1, pgn)], at);
        let deadline = Instant::now() + Duration::from_secs(5);
        while hub.latest().is_none() && Instant::now() < deadline {
            thread::yield_now();
        }
        let t = hub.join(peer(), None).unwrap();
        let f = t.frames.try_recv().unwrap();
        assert!(f.games.get(1).unwrap().text.contains("[White \"w\"]"));
        let env = f.envelope(at + Duration::from_millis(1500));
        assert!(
            env.starts_with("{\"seq\":1,\"age_ms\":1500,\"state\":{"),
            "{env}"
        );
        let v: serde_json::Value = serde_json::from_str(&env).unwrap();
        assert_eq!(v["state"]["boards"], serde_json::json!([]));
    }
}
