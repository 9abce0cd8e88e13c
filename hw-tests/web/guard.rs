//! One visitor that misbehaves does not keep the audience out: an
//! address (127.0.0.2) that holds as many half-sent requests and live
//! streams as it can, and opens them again as soon as they close, while
//! another (127.0.0.1) loads the page and its stream, again and again.

use std::collections::HashMap;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::{START, demo};
use crate::common::http::{answer, connect_from, read_until, request_within, send};

/// The misbehaving visitor's address.
const ATTACKER: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
/// The viewers the test's server takes (`--http-viewers`), fewer than
/// the attacker asks for.
const VIEWERS: usize = 16;
/// The live streams the attacker asks for at once.
const STREAMS: usize = 20;
/// The half-sent requests the attacker keeps open at once: more than the
/// server's 32 request places.
const HALF_HEADS: usize = 40;
/// What one address may hold (the default of `--http-per-address`).
const PER_ADDRESS: usize = 8;
/// How long each of the other viewer's reads may take: generous for a
/// page on loopback, a deadline rather than a measurement.
const PROMPT: Duration = Duration::from_secs(1);
/// The attacker's pause before trying again after a refusal.
const AGAIN: Duration = Duration::from_millis(20);

/// The attacker's threads and what they saw.
struct Attack {
    stop: Arc<AtomicBool>,
    /// Its live streams open now.
    streams: Arc<AtomicUsize>,
    /// Every answer it got, by its first and last lines (one line for a
    /// stream it held until the end; "" for a connection reset or closed
    /// without an answer).
    answers: Arc<Mutex<HashMap<String, usize>>>,
    threads: Vec<JoinHandle<()>>,
}

impl Attack {
    fn new() -> Attack {
        Attack {
            stop: Arc::new(AtomicBool::new(false)),
            streams: Arc::new(AtomicUsize::new(0)),
            answers: Arc::new(Mutex::new(HashMap::new())),
            threads: Vec::new(),
        }
    }

    fn answers(&self) -> HashMap<String, usize> {
        self.answers.lock().unwrap().clone()
    }

    /// How many of its answers had `part` in them.
    fn count(&self, part: &str) -> usize {
        count(&self.answers(), part)
    }

    /// A thread that asks for `request` again and again: a stream that is
    /// let in is held (read) until the attack stops; any other answer is
    /// noted and the request made again.
    fn spawn(&mut self, addr: &str, request: &'static str) {
        let (addr, stop) = (addr.to_string(), self.stop.clone());
        let (streams, answers) = (self.streams.clone(), self.answers.clone());
        self.threads.push(thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                let Some(mut s) = connect_from(ATTACKER, &addr) else {
                    thread::sleep(AGAIN);
                    continue;
                };
                if s.write_all(request.as_bytes()).is_err() {
                    continue;
                }
                let got = answer_or_stream(&mut s, &stop, &streams);
                let lines: Vec<&str> = got.lines().collect();
                let key = match (lines.first(), lines.last()) {
                    (Some(first), Some(last)) => format!("{first} / {last}"),
                    _ => String::new(),
                };
                *answers.lock().unwrap().entry(key).or_default() += 1;
                thread::sleep(AGAIN);
            }
        }));
    }

    fn stop(self) -> HashMap<String, usize> {
        self.stop.store(true, Ordering::SeqCst);
        for t in self.threads {
            t.join().unwrap();
        }
        self.answers.lock().unwrap().clone()
    }
}

/// How many of `answers` had `part` in them.
fn count(answers: &HashMap<String, usize>, part: &str) -> usize {
    answers
        .iter()
        .filter(|(a, _)| a.contains(part))
        .map(|(_, n)| n)
        .sum()
}

/// The server's answer; a stream that starts is counted in `streams` and
/// held until `stop`.
fn answer_or_stream(s: &mut TcpStream, stop: &AtomicBool, streams: &AtomicUsize) -> String {
    use std::io::Read;
    let mut first = [0u8; 12];
    if s.read_exact(&mut first).is_err() {
        return String::from_utf8_lossy(&first)
            .trim_end_matches('\0')
            .to_string();
    }
    if &first != b"HTTP/1.1 200" {
        return format!("{}{}", String::from_utf8_lossy(&first), answer(s));
    }
    streams.fetch_add(1, Ordering::SeqCst);
    s.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let mut buf = [0u8; 4096];
    while !stop.load(Ordering::SeqCst) {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => break,
        }
    }
    streams.fetch_sub(1, Ordering::SeqCst);
    "HTTP/1.1 200 (a stream, held)".to_string()
}

/// Waits until `done`, for at most [`START`].
fn wait(what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + START;
    while !done() {
        assert!(Instant::now() < deadline, "no {what} within {START:?}");
        thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn one_address_holding_many_requests_and_streams_leaves_the_page_and_stream_to_the_others() {
    let (demo, addr) = demo(&["--http-viewers", &VIEWERS.to_string()]);
    let started = Instant::now();
    let mut attack = Attack::new();
    for _ in 0..STREAMS {
        attack.spawn(&addr, "GET /events HTTP/1.1\r\nHost: x\r\n\r\n");
    }
    // It holds what it may and is refused more.
    wait("stream refused", || {
        attack.streams.load(Ordering::SeqCst) >= PER_ADDRESS && !attack.answers().is_empty()
    });
    for _ in 0..HALF_HEADS {
        attack.spawn(&addr, "GET / HTTP/1.1\r\nHost: x\r\n");
    }
    wait("requests refused", || {
        attack.answers().values().sum::<usize>() >= 2 * HALF_HEADS
    });
    // Another address gets the page and its stream, every time: while
    // the attacker holds its places, and again after its half-sent
    // requests timed out and it took their places again (twice over). Its
    // streams are kept (as those of as many visitors).
    let mut viewers = Vec::new();
    for cycle in 0..3 {
        wait("the attacker's heads timed out", || {
            attack.count("HTTP/1.1 408") >= cycle * PER_ADDRESS
        });
        let refused = attack.count("HTTP/1.1 429");
        wait("the attacker at its cap again", || {
            attack.count("HTTP/1.1 429") >= refused + HALF_HEADS
        });
        for round in 0..2 {
            let page = request_within(&addr, "GET", "/", PROMPT);
            let at = format!("cycle {cycle}, round {round}");
            assert_eq!(page.status, 200, "{at}: {}\n{}", page.head, page.text());
            assert!(
                page.text().contains("<main id=\"boards\">"),
                "{}",
                page.text()
            );
            for path in ["/app.js", "/state.json"] {
                let r = request_within(&addr, "GET", path, PROMPT);
                assert_eq!(r.status, 200, "{at}: {path}: {}\n{}", r.head, r.text());
            }
            let mut stream = send(&addr, "GET", "/events");
            let got = read_until(&mut stream, PROMPT, "the stream's first state", |t| {
                t.contains("\nevent: state\ndata: {\"seq\":")
            });
            assert!(got.starts_with("HTTP/1.1 200 OK\r\n"), "{at}: {got}");
            viewers.push(stream);
        }
    }
    let held = attack.streams.load(Ordering::SeqCst);
    let answers = attack.stop();
    let elapsed = started.elapsed();
    eprintln!("the attacker's answers in {elapsed:?}: {answers:#?}");
    // The attacker held its share, no more, and was told why it got no
    // more: no 503, which would mean it took every place.
    assert_eq!(held, PER_ADDRESS, "the attacker's streams; {answers:#?}");
    let from = "from 127.0.0.2 (at most 8 from one address)";
    for (answer, n) in &answers {
        let why = answer.starts_with("HTTP/1.1 429 Too Many Requests") && answer.ends_with(from)
            || answer.starts_with("HTTP/1.1 408 Request Timeout")
            || answer.starts_with("HTTP/1.1 200 (a stream, held)")
            || answer.is_empty();
        assert!(
            why,
            "the attacker got {n} times {answer:?}; all: {answers:#?}"
        );
    }
    let streams_refused = count(&answers, &format!("too many live streams {from}"));
    let requests_refused = count(&answers, &format!("too many requests at once {from}"));
    assert!(streams_refused > 0, "{answers:#?}");
    assert!(requests_refused >= HALF_HEADS, "{answers:#?}");
    // The log has a line per address per 10 s, not one per refusal.
    let stderr = demo.stderr_text();
    let lines = stderr
        .lines()
        .filter(|l| l.contains("web: 127.0.0.2:") && l.contains("refused"))
        .count();
    let allowed = 1 + elapsed.as_secs() as usize / 10;
    assert!(
        (1..=allowed).contains(&lines),
        "{lines} refusal lines for {} refusals in {elapsed:?}:\n{stderr}",
        streams_refused + requests_refused
    );
}

/// Asks for the live stream from `from`: the stream, read up to its first
/// state, or the refusal's whole answer.
fn stream_from(from: IpAddr, addr: &str) -> Result<TcpStream, String> {
    let mut s = connect_from(from, addr).expect("a connection");
    s.write_all(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let got = read_until(&mut s, START, "an answer", |t| {
        t.contains("event: state") || t.contains("\r\n\r\n") && !t.starts_with("HTTP/1.1 200")
    });
    if !got.starts_with("HTTP/1.1 200") {
        return Err(format!("{got}{}", answer(&mut s)));
    }
    Ok(s)
}

#[test]
fn a_stream_closed_by_its_viewer_gives_its_place_back_while_nothing_changes() {
    // Movers that think for ten minutes: once the game has started nothing
    // is published, so no write to a closed stream finds it gone.
    let (_demo, addr) = demo(&[
        "--think-ms",
        "600000",
        "--tc",
        "3600",
        "--http-per-address",
        "2",
    ]);
    super::wait_state(&addr, "a game", |s| s["boards"][0]["phase"] == "playing");
    let from = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3));
    for round in 0..3 {
        // The places of the last round's closed streams come back (the
        // server looks every second; its keep-alive would write only after
        // 15 s, and find a closed stream gone only at its second write).
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut held = Vec::new();
        while held.len() < 2 {
            match stream_from(from, &addr) {
                Ok(s) => held.push(s),
                Err(refused) => {
                    assert!(
                        Instant::now() < deadline,
                        "round {round}: a closed stream's place was not given back: {refused}"
                    );
                    thread::sleep(Duration::from_millis(100));
                }
            }
        }
        let third = stream_from(from, &addr).expect_err("a third stream let in");
        assert!(
            third.starts_with("HTTP/1.1 429")
                && third
                    .contains("too many live streams from 127.0.0.3 (at most 2 from one address)"),
            "{third}"
        );
        drop(held);
    }
}
