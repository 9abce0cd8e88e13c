//! The broadcast push (`--broadcast-push URL`): an edge thread that POSTs
//! the event's PGN (what `/games.pgn` serves) to a lichess broadcast
//! round's push URL after every change, with the token as `Authorization:
//! Bearer`. The loop hands over the newest state and goes on at once
//! ([`Pusher::offer`]: a one-value slot, as `record::latest` does for the
//! live PGN); the thread renders and sends it, backing off after a failure
//! (a connection error, a status other than 2xx), always with the newest
//! state, never a queue of old ones ([`schedule`]). Closing gives the final
//! state a bounded time to arrive and says so if it did not. The token is
//! never written anywhere: not in a log line, an error message or a
//! `Debug` form.

pub mod schedule;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use log::{debug, info, warn};

use crate::record::pgn::PgnGame;
use crate::text::strip_control;
use crate::web::hub::{GamePgn, Games};
use schedule::{Schedule, Step};

/// The least time between two deliveries: the states in between are
/// coalesced (lichess takes a round's PGN at most so often; the newest
/// state always goes in the end).
pub const PUSH_GAP: Duration = Duration::from_secs(1);
/// How long closing waits for the final state to be delivered.
pub const CLOSE_GRACE: Duration = Duration::from_secs(20);
/// The most games one push carries: lichess keeps at most 64 games
/// (chapters) in a broadcast round; past that, the newest go.
pub const PUSH_GAMES_MAX: usize = 64;
/// How long one request may take, connecting to the last byte.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(15);
/// The most of a receiver's answer read (for its error message).
const ANSWER_KEPT: u64 = 4_096;

/// The token of `--broadcast-token-file`. Its `Debug` form hides it.
#[derive(Clone)]
pub struct Token(String);

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(hidden)")
    }
}

impl Token {
    /// The token in `path`: the file's text less surrounding white space.
    /// A missing, unreadable or empty file, or a token with white space or
    /// control characters inside, is refused; the message names the file,
    /// never what is in it.
    pub fn read(path: &Path) -> Result<Token, PushError> {
        let text = std::fs::read_to_string(path).map_err(|source| PushError::TokenUnreadable {
            path: path.to_path_buf(),
            source,
        })?;
        let token = text.trim();
        if token.is_empty() {
            return Err(PushError::TokenEmpty(path.to_path_buf()));
        }
        if token.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(PushError::TokenNotAlone(path.to_path_buf()));
        }
        Ok(Token(token.to_string()))
    }
}

/// Why the broadcast push cannot start: its URL or token file (never the
/// token itself), or its thread. Nothing is pushed then.
#[derive(Debug, thiserror::Error)]
pub enum PushError {
    #[error("--broadcast-token-file {}: cannot read it ({source})", .path.display())]
    TokenUnreadable { path: PathBuf, source: io::Error },
    #[error(
        "--broadcast-token-file {}: the file is empty (it should hold the lichess token, on one \
         line)",
        .0.display()
    )]
    TokenEmpty(PathBuf),
    #[error(
        "--broadcast-token-file {}: the token has white space or control characters inside (the \
         file should hold the token alone, on one line)",
        .0.display()
    )]
    TokenNotAlone(PathBuf),
    /// `http://` to another machine (the URL, control characters removed).
    #[error(
        "--broadcast-push {0}: http:// only to this machine (localhost, 127.0.0.1, ::1); lichess \
         takes https://lichess.org/api/broadcast/round/ID/push"
    )]
    NotLocal(String),
    /// Neither `https://` nor `http://` (the URL, control characters removed).
    #[error(
        "--broadcast-push {0}: not an https:// URL (lichess's is \
         https://lichess.org/api/broadcast/round/ID/push)"
    )]
    NotHttps(String),
    #[error("cannot start the broadcast pusher's thread: {0}")]
    Thread(io::Error),
}

error_words!(PushError);

/// Checks a push URL: `https://`, or `http://` to this machine only (a
/// receiver in a test, a local proxy): the token is not sent in clear text
/// across a network.
pub fn check_url(url: &str) -> Result<(), PushError> {
    let lower = url.to_ascii_lowercase();
    if lower.starts_with("https://") {
        return Ok(());
    }
    if let Some(rest) = lower.strip_prefix("http://") {
        let host = rest.split(['/', '?']).next().unwrap_or("");
        let host = host
            .strip_prefix('[')
            .and_then(|h| h.split(']').next())
            .unwrap_or_else(|| host.rsplit_once(':').map_or(host, |(h, _)| h));
        let loopback = host == "localhost"
            || host
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback());
        if loopback {
            return Ok(());
        }
        return Err(PushError::NotLocal(strip_control(url)));
    }
    Err(PushError::NotHttps(strip_control(url)))
}

/// Which of the event's rounds one push URL takes (`--broadcast-push`
/// given several times: one lichess round per tournament round).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rounds {
    /// Every game (one URL).
    #[default]
    All,
    /// The games of round `R` only.
    One(u32),
    /// The games of round `R` and every later one (the last URL).
    From(u32),
}

impl Rounds {
    /// Which rounds the `i`-th (0-based) of `n` push URLs takes: all of
    /// them for one URL; else round `i + 1`, and for the last, every
    /// round from there on.
    pub fn of(i: usize, n: usize) -> Rounds {
        let round = u32::try_from(i + 1).unwrap_or(u32::MAX);
        match n {
            0 | 1 => Rounds::All,
            _ if i + 1 >= n => Rounds::From(round),
            _ => Rounds::One(round),
        }
    }

    /// Whether a game of round `round` (`None`: its `Round` tag names
    /// none) goes to this URL.
    pub fn takes(self, round: Option<u32>) -> bool {
        match (self, round) {
            (Rounds::All, _) => true,
            (Rounds::One(r), Some(g)) => g == r,
            (Rounds::From(r), Some(g)) => g >= r,
            (_, None) => false,
        }
    }

    /// As the log says it.
    fn words(self) -> String {
        match self {
            Rounds::All => "the games".into(),
            Rounds::One(r) => format!("round {r}'s games"),
            Rounds::From(r) => format!("the games of round {r} on"),
        }
    }
}

/// What the loop hands over: the event's games, the ones in progress not
/// yet rendered (the pusher's thread renders them, not the loop), and the
/// rounds this URL takes.
#[derive(Debug, Clone, Default)]
pub struct Round {
    pub games: Games,
    pub live: Vec<(u32, PgnGame)>,
    pub rounds: Rounds,
}

impl Round {
    /// The PGN pushed: every game of [`Round::rounds`] in number order, as
    /// `/games.pgn` (`/round/N.pgn` for one round); past
    /// [`PUSH_GAMES_MAX`] games, the newest that many. Empty when none
    /// is there yet.
    pub fn pgn(self) -> String {
        let mut games = self.games;
        games.set_live(
            self.live
                .iter()
                .map(|(number, g)| GamePgn::live(*number, g))
                .collect(),
        );
        let rounds = self.rounds;
        let taken: Vec<&GamePgn> = games
            .all()
            .filter(|g| rounds.takes(crate::web::hub::round_of(&g.text)))
            .collect();
        let skip = taken.len().saturating_sub(PUSH_GAMES_MAX);
        taken.iter().skip(skip).map(|g| g.text.as_ref()).collect()
    }
}

struct Shared {
    schedule: Mutex<Schedule<Round>>,
    wake: Condvar,
    epoch: Instant,
}

impl Shared {
    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// The loop's end of the pusher. Dropping it closes it
/// ([`Pusher::close`]).
pub struct Pusher {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Pusher {
    /// Starts the pusher's thread for `url` with `token` (both checked:
    /// [`check_url`], [`Token::read`]). `gap`: the least time between two
    /// deliveries.
    pub fn start(
        url: &str,
        token: Token,
        gap: Duration,
        rounds: Rounds,
    ) -> Result<Pusher, PushError> {
        check_url(url)?;
        let gap_ms = u64::try_from(gap.as_millis()).unwrap_or(u64::MAX);
        let shared = Arc::new(Shared {
            schedule: Mutex::new(Schedule::new(gap_ms)),
            wake: Condvar::new(),
            epoch: Instant::now(),
        });
        let s = shared.clone();
        let target = url.to_string();
        let thread = thread::Builder::new()
            .name("broadcast push".into())
            .spawn(move || run(&s, &target, &token))
            .map_err(PushError::Thread)?;
        info!(
            "broadcast: pushing {} to {} (at most every {gap_ms} ms)",
            rounds.words(),
            url_shown(url)
        );
        Ok(Pusher {
            shared,
            thread: Some(thread),
        })
    }

    /// Hands the newest state over; never waits.
    pub fn offer(&self, round: Round) {
        let mut s = lock(&self.shared.schedule);
        s.offer(round);
        drop(s);
        self.shared.wake.notify_one();
    }

    /// Sends the newest state if it is not delivered yet, waiting at most
    /// [`CLOSE_GRACE`] for it, and stops the thread; says in the log (and on
    /// stderr if it was not delivered) what became of it.
    pub fn close(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        let Some(thread) = self.thread.take() else {
            return;
        };
        let now = self.shared.now_ms();
        let grace = u64::try_from(CLOSE_GRACE.as_millis()).unwrap_or(u64::MAX);
        lock(&self.shared.schedule).close(now, grace);
        self.shared.wake.notify_one();
        let _ = thread.join();
    }
}

impl Drop for Pusher {
    fn drop(&mut self) {
        self.stop();
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The URL as the log shows it: without a query (a URL carries no token,
/// but a query is no business of the log's).
fn url_shown(url: &str) -> String {
    strip_control(url.split('?').next().unwrap_or(url))
}

/// The pusher's thread: sends each newest state until closed.
fn run(shared: &Shared, url: &str, token: &Token) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(REQUEST_TIMEOUT))
        .http_status_as_error(false)
        // A redirect would carry the token elsewhere: none is followed.
        .max_redirects(0)
        .user_agent(concat!("argus/", env!("CARGO_PKG_VERSION")))
        .build()
        .new_agent();
    let shown = url_shown(url);
    let mut sends: u64 = 0;
    loop {
        let round = {
            let mut s = lock(&shared.schedule);
            loop {
                match s.step(shared.now_ms()) {
                    Step::Send(r) => break r,
                    Step::Wait => s = shared.wake.wait(s).unwrap_or_else(PoisonError::into_inner),
                    Step::WaitUntil(t) => {
                        let left = Duration::from_millis(t.saturating_sub(shared.now_ms()));
                        s = shared
                            .wake
                            .wait_timeout(s, left)
                            .unwrap_or_else(PoisonError::into_inner)
                            .0;
                    }
                    Step::Stop => {
                        info!(
                            "broadcast: the final state is delivered to {shown} ({sends} pushes, {} states replaced before their turn)",
                            s.replaced()
                        );
                        return;
                    }
                    Step::GiveUp(r) => {
                        let n = r.games.all().count() + r.live.len();
                        let say = format!(
                            "broadcast: the final state ({n} game{}) could not be delivered to {shown} within {} s; the --pgn file keeps the finished games",
                            if n == 1 { "" } else { "s" },
                            CLOSE_GRACE.as_secs(),
                        );
                        warn!("{say}");
                        eprintln!("argus: {say}");
                        return;
                    }
                }
            }
        };
        let body = round.clone().pgn();
        if body.is_empty() {
            // None of its rounds' games yet: nothing to push.
            lock(&shared.schedule).delivered(shared.now_ms());
            continue;
        }
        sends += 1;
        let outcome = post(&agent, url, token, body);
        let now = shared.now_ms();
        let mut s = lock(&shared.schedule);
        match outcome {
            Ok(answer) => {
                if s.failures() > 0 {
                    info!("broadcast: {shown} takes the games again");
                }
                if answer.contains("\"error\"") {
                    warn!("broadcast: {shown} took the push but not all of it: {answer}");
                } else {
                    debug!("broadcast: pushed to {shown}: {answer}");
                }
                s.delivered(now);
            }
            Err(why) => {
                let wait = s.failed(round, now);
                warn!(
                    "broadcast: push to {shown} failed ({why}); the newest state is sent again in {} s",
                    wait as f64 / 1000.0
                );
            }
        }
    }
}

/// POSTs `body` to `url`: `Ok` with the receiver's answer (shortened) on
/// 2xx, `Err` with what went wrong otherwise. Neither names the token.
fn post(
    agent: &ureq::Agent,
    url: &str,
    token: &Token,
    body: String,
) -> Result<String, Undelivered> {
    let response = agent
        .post(url)
        .header("Authorization", format!("Bearer {}", token.0))
        .content_type("text/plain; charset=utf-8")
        .send(body)
        .map_err(|e| Undelivered::Send(strip_control(&e.to_string())))?;
    let status = response.status();
    let answer = response
        .into_body()
        .with_config()
        .limit(ANSWER_KEPT)
        .lossy_utf8(true)
        .read_to_string()
        .unwrap_or_default();
    let answer: String = strip_control(&answer).chars().take(300).collect();
    if status.is_success() {
        Ok(answer)
    } else {
        Err(Undelivered::Status { status, answer })
    }
}

/// Why a push was not delivered (neither names the token): what sending
/// it said, or the receiver's status and answer (shortened, control
/// characters removed).
#[derive(Debug, thiserror::Error)]
enum Undelivered {
    #[error("{0}")]
    Send(String),
    #[error("HTTP {status}: {answer}")]
    Status {
        status: ureq::http::StatusCode,
        answer: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_push_is_the_games_as_games_pgn_has_them_and_the_newest_64_past_that() {
        let pgn = |n: u32| format!("[Round \"{n}\"]\n\n1. e4 *\n\n");
        let mut round = Round::default();
        for n in 1..=3 {
            round.games.finish(GamePgn {
                number: n,
                text: pgn(n).into(),
                game: None,
            });
        }
        round.live.push((
            4,
            PgnGame {
                tags: vec![("Round".into(), "4".into())],
                ..PgnGame::default()
            },
        ));
        let mut expected = round.games.clone();
        expected.set_live(vec![GamePgn::live(4, &round.live[0].1)]);
        assert_eq!(round.clone().pgn(), expected.pgn());
        for n in 5..=70 {
            round.games.finish(GamePgn {
                number: n,
                text: pgn(n).into(),
                game: None,
            });
        }
        let text = round.pgn();
        assert_eq!(text.matches("[Round ").count(), PUSH_GAMES_MAX);
        assert!(text.starts_with("[Round \"7\"]"), "{text}");
        assert!(text.ends_with(&pgn(70)));
    }

    #[test]
    fn several_urls_take_a_round_each_and_the_last_the_rest() {
        assert_eq!(Rounds::of(0, 1), Rounds::All);
        assert_eq!(
            (0..3).map(|i| Rounds::of(i, 3)).collect::<Vec<_>>(),
            [Rounds::One(1), Rounds::One(2), Rounds::From(3)]
        );
        assert!(Rounds::All.takes(None));
        assert!(!Rounds::One(2).takes(None) && !Rounds::One(2).takes(Some(3)));
        assert!(Rounds::From(3).takes(Some(7)) && !Rounds::From(3).takes(Some(2)));
        // Round 2's URL gets round 2's games, finished and in progress.
        let pgn = |round: u32, board: u32| format!("[Round \"{round}.{board}\"]\n\n1. e4 *\n\n");
        let mut r = Round {
            rounds: Rounds::One(2),
            ..Round::default()
        };
        for (n, round) in [(1, 1), (2, 1), (3, 2)] {
            r.games.finish(GamePgn {
                number: n,
                text: pgn(round, n).into(),
                game: None,
            });
        }
        r.live.push((
            4,
            PgnGame {
                tags: vec![("Round".into(), "2.2".into())],
                ..PgnGame::default()
            },
        ));
        let text = r.clone().pgn();
        assert!(text.starts_with(&pgn(2, 3)), "{text}");
        assert!(text.contains("[Round \"2.2\"]"), "{text}");
        assert_eq!(text.matches("[Round ").count(), 2, "{text}");
        // A round with no game yet: nothing to push.
        r.rounds = Rounds::One(3);
        assert_eq!(r.pgn(), "");
    }

    #[test]
    fn a_push_url_is_https_or_http_to_this_machine() {
        assert!(check_url("https://lichess.org/api/broadcast/round/abcd1234/push").is_ok());
        assert!(check_url("http://127.0.0.1:8080/push").is_ok());
        assert!(check_url("http://localhost/push").is_ok());
        assert!(check_url("http://[::1]:9/push").is_ok());
        let e = check_url("http://lichess.org/api/broadcast/round/x/push").unwrap_err();
        assert!(matches!(e, PushError::NotLocal(_)), "{e}");
        assert!(
            e.to_string().contains("http:// only to this machine"),
            "{e}"
        );
        assert!(check_url("http://127.0.0.1.example.com/push").is_err());
        assert!(check_url("ftp://x").is_err());
    }

    #[test]
    fn a_token_file_is_read_trimmed_and_refused_when_empty_or_missing_without_its_text() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("token");
        std::fs::write(&path, "lip_secret123\n").unwrap();
        let t = Token::read(&path).unwrap();
        assert_eq!(t.0, "lip_secret123");
        assert_eq!(format!("{t:?}"), "Token(hidden)");
        std::fs::write(&path, " \n").unwrap();
        let e = Token::read(&path).unwrap_err();
        assert!(matches!(e, PushError::TokenEmpty(_)), "{e}");
        assert!(e.to_string().contains("empty"), "{e}");
        std::fs::write(&path, "lip_a lip_b\n").unwrap();
        let e = Token::read(&path).unwrap_err().to_string();
        assert!(e.contains("white space") && !e.contains("lip_a"), "{e}");
        let e = Token::read(&dir.path().join("missing")).unwrap_err();
        assert!(matches!(e, PushError::TokenUnreadable { .. }), "{e}");
        assert!(e.to_string().contains("cannot read"), "{e}");
    }
}
