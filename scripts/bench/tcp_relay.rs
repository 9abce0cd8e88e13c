//! The TCP relay benchmark: how long a move takes from one client to the
//! other through argus over TCP loopback, against a dumb relay (socat
//! `TCP-LISTEN` to `TCP`) in the same run.
//!
//! * argus: the real referee loop (`app::session::run`) listening on
//!   loopback (`app::links::open_links`, one listener for both seats), two
//!   instant random movers connected with `tcp://` links. A hop is from
//!   the moment a client's reply write returned (its `Sent` stamp) to the
//!   moment the other client read the `respond` relaying that move (its
//!   `Line` stamp); both clients stamp from one epoch.
//! * socat: `socat TCP-LISTEN:P1 TCP:127.0.0.1:P2`, a line written to P1
//!   and read at P2, the same 100-byte line each time. A hop is from the
//!   write's return to the read's return.
//!
//! Both hops cross the kernel twice (in, and out again) and one user-space
//! program; argus also checks the move and writes the respond. It reports
//! the median and p90 of each, and their ratio.
//!
//! Run: `cargo bench --bench tcp_relay` (needs socat), or with
//! `-- --plies 2000`.

#[path = "hops.rs"]
mod hops;

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, ExitCode, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use argus::app::links::{NetOptions, open_links};
use argus::app::session::{self, Session, View};
use argus::app::writers::Writers;
use argus::link::{Connector, Endpoint, PortSettings};
use argus::referee::{ByClient, Referee, Settings};
use crossbeam_channel::unbounded;
use hops::{WARM_UP, collect_hops, summary};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let mut plies = 2_000usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--plies" {
            match args.next().and_then(|v| v.parse().ok()) {
                Some(n) if n > 0 => plies = n,
                _ => {
                    eprintln!("tcp_relay: --plies needs a number above 0");
                    return ExitCode::from(2);
                }
            }
        }
    }
    let argus = match argus_hops(plies + WARM_UP) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("tcp_relay: argus: {e}");
            return ExitCode::FAILURE;
        }
    };
    let socat = match socat_hops(plies + WARM_UP) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("tcp_relay: socat: {e}");
            return ExitCode::FAILURE;
        }
    };
    let a = summary("tcp_relay", "argus referee", &argus);
    let s = summary("tcp_relay", "socat relay", &socat);
    println!(
        "tcp_relay: ratio argus / socat: median {:.2}, p90 {:.2}",
        a.0 as f64 / s.0.max(1) as f64,
        a.1 as f64 / s.1.max(1) as f64
    );
    ExitCode::SUCCESS
}

fn argus_hops(plies: usize) -> Result<Vec<u64>, String> {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let endpoint =
        Endpoint::parse(&format!("tcp-listen://127.0.0.1:{port}")).map_err(|e| e.to_string())?;
    let endpoints = [endpoint.clone(), endpoint];
    let settings = PortSettings::default();
    let epoch = Instant::now();
    let (links, rx) = open_links(
        &endpoints,
        &NetOptions::default(),
        [None, None],
        settings,
        epoch,
    )?;
    let (stamps_tx, stamps_rx) = unbounded();
    let mut clients = Vec::new();
    for who in 0..2 {
        let tx = stamps_tx.clone();
        clients.push(thread::spawn(move || {
            let connector = Connector::Connect {
                host: "127.0.0.1".into(),
                port,
                hello: None,
            };
            hops::mover(who, connector, "bench", epoch, &tx);
        }));
    }
    drop(stamps_tx);
    let core = Referee::new(Settings {
        event: "argus tcp relay benchmark".into(),
        ports: [endpoints[0].to_string(), endpoints[1].to_string()].into(),
        games: 1_000_000,
        reset_delay_ms: 0,
        conclude_delay_ms: 0,
        ..Settings::default()
    });
    let (stop_tx, stop_rx) = unbounded();
    let watcher = thread::spawn(move || {
        let hops = collect_hops(&stamps_rx, plies);
        let _ = stop_tx.send(argus::app::signals::Stop::Interrupt);
        hops
    });
    let ending = session::run(Session {
        core,
        links,
        link_events: rx,
        line_views: ByClient::new("TCP".into(), "TCP".into()),
        epoch,
        outputs: Writers::none(false),
        view: View::Headless,
        ctrl_c: stop_rx,
        resumed_at: None,
    });
    let hops = watcher.join().map_err(|_| "the watcher panicked")?;
    ending.map_err(|e| format!("the session failed: {e}"))?;
    for c in clients {
        let _ = c.join();
    }
    if hops.len() < plies {
        return Err(format!("only {} of {plies} hops", hops.len()));
    }
    Ok(hops)
}

/// One line through `socat TCP-LISTEN:P1 TCP:127.0.0.1:P2`, `n` times.
fn socat_hops(n: usize) -> Result<Vec<u64>, String> {
    let sink = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let p2 = sink.local_addr().map_err(|e| e.to_string())?.port();
    let p1 = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let mut socat = Command::new("socat")
        .arg(format!("TCP-LISTEN:{p1},bind=127.0.0.1,reuseaddr"))
        .arg(format!("TCP:127.0.0.1:{p2},nodelay"))
        .stdin(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start socat: {e}"))?;
    let result = (|| {
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut input = loop {
            match TcpStream::connect(("127.0.0.1", p1)) {
                Ok(s) => break s,
                Err(e) if Instant::now() >= deadline => return Err(format!("socat: {e}")),
                Err(_) => thread::sleep(Duration::from_millis(20)),
            }
        };
        input.set_nodelay(true).map_err(|e| e.to_string())?;
        let (output, _) = sink.accept().map_err(|e| e.to_string())?;
        let mut output = BufReader::new(output);
        let line = format!("{}\r\n", "x".repeat(98));
        let mut got = String::new();
        let epoch = Instant::now();
        let mut hops = Vec::with_capacity(n);
        for _ in 0..n {
            input
                .write_all(line.as_bytes())
                .map_err(|e| e.to_string())?;
            let t0 = epoch.elapsed();
            got.clear();
            output.read_line(&mut got).map_err(|e| e.to_string())?;
            let t1 = epoch.elapsed();
            hops.push(u64::try_from((t1 - t0).as_micros()).unwrap_or(u64::MAX));
        }
        Ok(hops)
    })();
    let _ = socat.kill();
    let _ = socat.wait();
    result
}
