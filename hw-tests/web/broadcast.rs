//! The broadcast push (`--broadcast-push`) against a receiver in the test:
//! a loopback HTTP server that keeps every request and answers 500 to some
//! (the first, and the first telling of the finished game) to make the
//! pusher back off and send again.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::thread;

use super::*;

/// The token the test gives; it must reach the receiver and nothing else.
const TOKEN: &str = "lip_TestToken4xQ9Zk2";

/// One request the receiver got, and what it answered.
#[derive(Debug, Clone)]
struct Got {
    method: String,
    path: String,
    authorization: Option<String>,
    content_type: Option<String>,
    body: String,
    status: u16,
}

/// A loopback HTTP receiver: it answers 500 to its first request and to
/// the first request whose body holds a finished game (`[Result "0-1"]`),
/// 200 to the others; it keeps every request.
struct Receiver {
    addr: String,
    got: Arc<Mutex<Vec<Got>>>,
}

impl Receiver {
    fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let got = Arc::new(Mutex::new(Vec::new()));
        let g = got.clone();
        thread::spawn(move || {
            for s in listener.incoming().flatten() {
                let g = g.clone();
                thread::spawn(move || serve(s, &g));
            }
        });
        Receiver { addr, got }
    }

    fn got(&self) -> Vec<Got> {
        self.got.lock().unwrap().clone()
    }

    /// Waits until a request answered 200 passes `pred`.
    fn wait_delivered(&self, what: &str, pred: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + PLAY;
        while !self.got().iter().any(|g| g.status == 200 && pred(&g.body)) {
            assert!(
                Instant::now() < deadline,
                "no push with {what} within {PLAY:?}: {:#?}",
                self.got()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Answers the requests of one connection (kept alive) until it closes.
fn serve(s: TcpStream, got: &Mutex<Vec<Got>>) {
    s.set_read_timeout(Some(PLAY)).unwrap();
    let mut out = s.try_clone().unwrap();
    let mut r = BufReader::new(s);
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut parts = line.split_whitespace();
        let (method, path) = (
            parts.next().unwrap_or("").to_string(),
            parts.next().unwrap_or("").to_string(),
        );
        let (mut length, mut authorization, mut content_type) = (0usize, None, None);
        loop {
            let mut h = String::new();
            if r.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            let (name, value) = h.split_once(':').unwrap();
            let value = value.trim().to_string();
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = value.parse().unwrap(),
                "authorization" => authorization = Some(value),
                "content-type" => content_type = Some(value),
                _ => {}
            }
        }
        let mut body = vec![0; length];
        if r.read_exact(&mut body).is_err() {
            return;
        }
        let body = String::from_utf8(body).unwrap();
        let status = {
            let mut got = got.lock().unwrap();
            let finished = body.contains("[Result \"0-1\"]");
            let first_finished =
                finished && !got.iter().any(|g| g.body.contains("[Result \"0-1\"]"));
            let status = if got.is_empty() || first_finished {
                500
            } else {
                200
            };
            got.push(Got {
                method,
                path,
                authorization,
                content_type,
                body,
                status,
            });
            status
        };
        let answer = if status == 200 {
            "{\"games\":[]}"
        } else {
            "busy"
        };
        let head = format!(
            "HTTP/1.1 {status} {}\r\nContent-Length: {}\r\n\r\n{answer}",
            if status == 200 {
                "OK"
            } else {
                "Internal Server Error"
            },
            answer.len()
        );
        if out.write_all(head.as_bytes()).is_err() {
            return;
        }
    }
}

/// Every file under `dir`, read as text (lossily).
fn texts_under(dir: &Path) -> Vec<(String, String)> {
    let mut all = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            all.extend(texts_under(&p));
        } else {
            let bytes = std::fs::read(&p).unwrap_or_default();
            all.push((
                p.display().to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            ));
        }
    }
    all
}

#[test]
fn the_broadcast_push_delivers_every_move_and_the_final_pgn_after_failures_and_never_shows_the_token()
 {
    let receiver = Receiver::start();
    let files = tempfile::tempdir().unwrap();
    let token_file = files.path().join("token");
    std::fs::write(&token_file, format!("{TOKEN}\n")).unwrap();
    let pgn_file = files.path().join("games.pgn");
    let url = format!("http://{}/api/broadcast/round/Test1234/push", receiver.addr);
    let Some(mut m) = Match::start_with(&strings(&[
        "--broadcast-push",
        &url,
        "--broadcast-token-file",
        token_file.to_str().unwrap(),
        "--pgn",
        pgn_file.to_str().unwrap(),
        // The final state is pushed before the page lingers: the test
        // reads /games.pgn then.
        "--http-linger",
        "60",
    ])) else {
        return;
    };
    let mut played: Vec<&str> = Vec::new();
    for (k, (i, san)) in FOOLS_MATE.iter().enumerate() {
        if k > 0 {
            m.play(*i, "expect respond");
        }
        m.play(*i, &format!("reply {san}"));
        played.push(san);
        // Each move reaches the receiver, its clock with it.
        receiver.wait_delivered(san, |body| {
            read_pgn_games(body).is_ok_and(|g| g.len() == 1 && g[0].sans == played)
                && body.matches("[%clk ").count() == played.len()
        });
    }
    m.referee.wait_stdout(START, "the event is over", |l| {
        l.starts_with("the event is over")
    });
    let games_pgn = get(&m.addr, "/games.pgn");
    // The match's game is round 1 (its Round tag): the round's PGN, for a
    // broadcast that polls it, is the same game.
    assert_eq!(get(&m.addr, "/round/1.pgn"), games_pgn);
    assert_eq!(get(&m.addr, "/round/2.pgn"), "");
    let got = receiver.got();
    m.referee.interrupt();
    m.referee.wait_exit(PLAY);
    // The first push failed and so did the first with the result: each was
    // sent again after the back-off, and the last one delivered is the
    // final state, as /games.pgn and the PGN file have it.
    assert_eq!(got[0].status, 500, "{got:#?}");
    let failed_final = got
        .iter()
        .position(|g| g.body.contains("[Result \"0-1\"]"))
        .expect("the result was pushed");
    assert_eq!(got[failed_final].status, 500);
    let last = got.last().unwrap();
    assert_eq!(last.status, 200, "{got:#?}");
    assert!(got.len() > failed_final + 1);
    assert_eq!(last.body, games_pgn);
    assert_eq!(last.body, std::fs::read_to_string(&pgn_file).unwrap());
    // The bodies grow: each game as pushed is the start of the final one.
    let fin = &read_pgn_games(&last.body).unwrap()[0].sans;
    for g in &got {
        let sans = &read_pgn_games(&g.body).unwrap()[0].sans;
        assert!(
            fin.starts_with(sans),
            "{sans:?} is not the start of {fin:?}"
        );
        assert_eq!(g.method, "POST");
        assert_eq!(g.path, "/api/broadcast/round/Test1234/push");
        assert_eq!(
            g.authorization.as_deref(),
            Some(&*format!("Bearer {TOKEN}"))
        );
        assert_eq!(g.content_type.as_deref(), Some("text/plain; charset=utf-8"));
    }
    // The token is nowhere else: not in the log, the transcript, the
    // journal, the PGN, stdout or stderr.
    let log_dir = m.journal.parent().unwrap();
    let mut everything = texts_under(log_dir);
    everything.extend(
        texts_under(files.path())
            .into_iter()
            .filter(|(p, _)| !p.ends_with("token")),
    );
    everything.push(("stdout".into(), m.referee.stdout_lines().join("\n")));
    everything.push(("stderr".into(), m.referee.stderr_text()));
    let log = everything
        .iter()
        .find(|(p, _)| p.ends_with("argus.log"))
        .map(|(_, t)| t.clone())
        .unwrap_or_default();
    assert!(
        log.contains("broadcast: the final state is delivered"),
        "{log}"
    );
    assert!(log.contains("failed (HTTP 500"), "{log}");
    for (place, text) in &everything {
        assert!(!text.contains(TOKEN), "the token is in {place}");
        assert!(
            !text.contains("TestToken"),
            "part of the token is in {place}"
        );
    }
}

/// `--broadcast-push` given twice in a tournament of three rounds (three
/// movers, one board): the first URL gets round 1's games only, the
/// second every round from 2 on; each URL's last delivered push equals
/// what `/round/N.pgn` serves for its rounds, and no push to the first
/// carries a game of another round.
#[test]
fn a_tournament_pushes_each_round_to_its_own_url() {
    let receiver = Receiver::start();
    let files = tempfile::tempdir().unwrap();
    let token_file = files.path().join("token");
    std::fs::write(&token_file, format!("{TOKEN}\n")).unwrap();
    let first = format!("http://{}/api/broadcast/round/Round001/push", receiver.addr);
    let rest = format!("http://{}/api/broadcast/round/Round002/push", receiver.addr);
    let logs = files.path().join("logs");
    let (mut t, addr) = three_movers(
        &logs,
        "8",
        "0",
        &[
            "--broadcast-token-file",
            token_file.to_str().unwrap(),
            "--broadcast-push",
            &first,
            "--broadcast-push",
            &rest,
        ],
    );
    // The pushers deliver their final states before the page lingers.
    t.wait_stdout(PLAY * 3, "the end", |l| l.contains("the event is over"));
    let last_to = |path: &str| -> String {
        receiver
            .got()
            .iter()
            .rev()
            .find(|g| g.path == path && g.status == 200)
            .map(|g| g.body.clone())
            .unwrap_or_else(|| panic!("nothing delivered to {path}: {:#?}", receiver.got()))
    };
    let rounds: Vec<String> = (1..=3)
        .map(|r| get(&addr, &format!("/round/{r}.pgn")))
        .collect();
    assert!(rounds.iter().all(|r| r.contains("[Round ")), "{rounds:?}");
    assert_eq!(last_to("/api/broadcast/round/Round001/push"), rounds[0]);
    assert_eq!(
        last_to("/api/broadcast/round/Round002/push"),
        format!("{}{}", rounds[1], rounds[2])
    );
    for g in receiver.got() {
        if g.path.contains("Round001") {
            assert!(
                !g.body.contains("[Round \"2.") && !g.body.contains("[Round \"3."),
                "{}",
                g.body
            );
        }
        assert_eq!(
            g.authorization.as_deref(),
            Some(format!("Bearer {TOKEN}").as_str())
        );
    }
    t.kill();
}
