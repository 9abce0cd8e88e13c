//! What the relay benchmarks share: for those against a dumb relay
//! (`tcp_relay`, `cable_relay`), bench clients on real links that stamp
//! each hop, the watcher that pairs a reply with the respond relaying it,
//! and the summary line; for those that run the director (`relay`,
//! `tcp_relay`), the directory its files go to. Included with `#[path]`:
//! each bench is its own crate and uses only some of it.
#![allow(dead_code)]

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use argus::client::{Action, ClientProtocol, Mover, MoverKind};
use argus::link::{Connector, Link, LinkEventKind, PortSettings};
use crossbeam_channel::{Receiver, Sender, unbounded};

/// The first hops are left out (threads and caches warm up).
pub const WARM_UP: usize = 50;
/// A run that sees nothing for this long has failed.
pub const STALL: Duration = Duration::from_secs(20);

/// What a bench client saw, stamped from the shared epoch.
pub enum Stamp {
    /// Client `who` wrote a line (its write returned: the link's `Sent`).
    Wrote { who: usize, at_us: u64 },
    /// Client `who` read the line that carries the other's (the link's
    /// `Line`).
    Read { who: usize, at_us: u64 },
}

/// The directory the referee's files go to: `given` (made if need be,
/// and kept), or a
/// temporary one (removed when the returned guard goes), on disk or in
/// `/dev/shm` with `tmpfs`.
pub fn files_dir(
    given: Option<&Path>,
    tmpfs: bool,
    prefix: &str,
) -> Result<(PathBuf, Option<tempfile::TempDir>), String> {
    if let Some(d) = given {
        if tmpfs {
            return Err(
                "--tmpfs is for the temporary directory: not with a directory given".into(),
            );
        }
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        return Ok((d.to_path_buf(), None));
    }
    let b = tempfile::Builder::new().prefix(prefix).clone();
    let made = if tmpfs {
        b.tempdir_in("/dev/shm")
    } else {
        b.tempdir()
    };
    let t = made.map_err(|e| format!("cannot make a directory for the journals: {e}"))?;
    Ok((t.path().to_path_buf(), Some(t)))
}

/// The nearest-rank percentile `p` (0..=100) of sorted values (0 when
/// empty).
pub fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Prints `bench: what: N hops, us: median .. p90 .. p99 .. max ..`;
/// returns (median, p90).
pub fn summary(bench: &str, what: &str, hops: &[u64]) -> (u64, u64) {
    let mut v: Vec<u64> = hops.get(WARM_UP..).unwrap_or_default().to_vec();
    v.sort_unstable();
    let p = |q: f64| percentile(&v, q);
    let (median, p90) = (p(50.0), p(90.0));
    println!(
        "{bench}: {what}: {} hops, us: median {median} p90 {p90} p99 {} max {}",
        v.len(),
        p(99.0),
        v.last().copied().unwrap_or(0)
    );
    (median, p90)
}

/// Pairs each client's written line with the other's next read, until
/// `n` hops (or a stall): a hop is the time from one to the other.
pub fn collect_hops(stamps: &Receiver<Stamp>, n: usize) -> Vec<u64> {
    collect_timed_hops(stamps, n)
        .into_iter()
        .map(|(hop, _)| hop)
        .collect()
}

/// [`collect_hops`], each hop with the time its read returned (us since
/// the epoch): how many hops a second the relay carries.
pub fn collect_timed_hops(stamps: &Receiver<Stamp>, n: usize) -> Vec<(u64, u64)> {
    let mut wrote = [None::<u64>; 2];
    let mut hops = Vec::with_capacity(n);
    while hops.len() < n {
        match stamps.recv_timeout(STALL) {
            Ok(Stamp::Wrote { who, at_us }) => wrote[who] = Some(at_us),
            Ok(Stamp::Read { who, at_us }) => {
                if let Some(sent) = wrote[1 - who].take() {
                    hops.push((at_us.saturating_sub(sent), at_us));
                }
            }
            Err(_) => break,
        }
    }
    hops
}

/// Opens client `who`'s link through `connector` (`path` names it).
fn open(
    who: usize,
    connector: Connector,
    path: &str,
    epoch: Instant,
) -> Option<(Link<usize>, Receiver<argus::link::LinkEvent<usize>>)> {
    let (tx, rx) = unbounded();
    let link = Link::open_with(who, connector, path, PortSettings::default(), epoch, tx).ok()?;
    Some((link, rx))
}

/// An instant random mover on its link: stamps its replies' `Sent` and the
/// `Line` of each respond that relays the opponent's move; ends on
/// `disconnect`, a stall, or `stop`.
pub fn mover(who: usize, connector: Connector, path: &str, epoch: Instant, stamps: &Sender<Stamp>) {
    let Some((link, rx)) = open(who, connector, path, epoch) else {
        return;
    };
    let mut protocol = ClientProtocol::new(
        &format!("bench {who}"),
        Mover::new(MoverKind::Random, 1 + who as u64),
        false,
    );
    let mut seq = 0u64;
    let mut replies = HashSet::new();
    let _ = link.send(seq, protocol.sign_on());
    // Signs on again each second until the referee answers, as `argus
    // client` does: a line written while a cable is still settling is lost.
    let mut answered = false;
    let mut waited = std::time::Duration::ZERO;
    loop {
        let wait = if answered {
            STALL
        } else {
            std::time::Duration::from_secs(1)
        };
        let ev = match rx.recv_timeout(wait) {
            Ok(ev) => ev,
            Err(_) if !answered && waited < STALL => {
                waited += wait;
                let _ = link.send(seq, protocol.sign_on());
                continue;
            }
            Err(_) => return,
        };
        if matches!(ev.kind, LinkEventKind::Line { .. }) {
            answered = true;
        }
        match ev.kind {
            LinkEventKind::Sent { seq, at_us, .. }
                if replies.remove(&seq) && stamps.send(Stamp::Wrote { who, at_us }).is_err() =>
            {
                return;
            }
            LinkEventKind::Line { text, at_us, .. } => {
                if text.contains("refcom respond;") && text.contains(" sm ") {
                    let _ = stamps.send(Stamp::Read { who, at_us });
                }
                for action in protocol.handle_line(&text) {
                    match action {
                        Action::Reply(r) | Action::Send(r) => {
                            seq += 1;
                            replies.insert(seq);
                            let _ = link.send(seq, r);
                        }
                        Action::Disconnect => return,
                        Action::Log(_) => {}
                    }
                }
            }
            // The run is over: its cable was taken away.
            LinkEventKind::Lost { .. } => return,
            _ => {}
        }
    }
}

/// A ping-pong client for a dumb relay: client 0 writes a 100-byte line,
/// client 1 answers each line it reads with one of its own, `n` times
/// each way. Stamps as [`mover`] does, so the hops compare.
pub fn pinger(
    who: usize,
    connector: Connector,
    path: &str,
    epoch: Instant,
    stamps: &Sender<Stamp>,
    n: usize,
) {
    let Some((link, rx)) = open(who, connector, path, epoch) else {
        return;
    };
    let line = "x".repeat(98);
    let mut seq = 0u64;
    if who == 0 {
        let _ = link.send(seq, line.clone());
    }
    let mut read = 0;
    let mut waited = std::time::Duration::ZERO;
    while read < n {
        // Client 0 writes again until the first answer comes: a line
        // written before the other end's link was open is lost.
        let wait = if who == 0 && read == 0 {
            std::time::Duration::from_millis(500)
        } else {
            STALL
        };
        let ev = match rx.recv_timeout(wait) {
            Ok(ev) => ev,
            Err(_) if wait < STALL && waited < STALL => {
                waited += wait;
                seq += 1;
                let _ = link.send(seq, line.clone());
                continue;
            }
            Err(_) => return,
        };
        match ev.kind {
            LinkEventKind::Sent { at_us, .. }
                if stamps.send(Stamp::Wrote { who, at_us }).is_err() =>
            {
                return;
            }
            LinkEventKind::Line { at_us, .. } => {
                read += 1;
                let _ = stamps.send(Stamp::Read { who, at_us });
                seq += 1;
                let _ = link.send(seq, line.clone());
            }
            // The run is over: its cable was taken away.
            LinkEventKind::Lost { .. } => return,
            _ => {}
        }
    }
}
