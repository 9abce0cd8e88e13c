//! What one visitor may hold of the audience's server, I/O-free: the
//! request slots (all of them, and those of one address), why a
//! connection is refused, and the log lines a client can cause at will
//! (refusals, heads too slow or malformed) thinned to one per address per
//! [`LOG_EVERY`], so that no visitor can take every slot or fill the log.
//!
//! An address is a [`Source`]: an IPv4 address, or an IPv6 address's /64
//! (one household's or one machine's share of IPv6), so that a client
//! cannot step around its limit by taking more addresses from its own
//! prefix. The live stream's viewers are counted by the hub, by the same
//! [`Source`] and with the same [`Refused`] reasons.

use std::collections::HashMap;
use std::fmt;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// At most one log line of a kind per address this often (with the count
/// of those left out since).
pub const LOG_EVERY: Duration = Duration::from_secs(10);

/// The most addresses whose last log line of a kind is remembered; past
/// it, the lines about other addresses share one line per [`LOG_EVERY`].
const LOGGED_SOURCES: usize = 1024;

/// Where a connection comes from, as far as the limits are concerned: an
/// IPv4 address (also one mapped into IPv6), or an IPv6 /64.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Source(IpAddr);

impl Source {
    pub fn of(ip: IpAddr) -> Source {
        match ip.to_canonical() {
            IpAddr::V6(v6) => {
                let prefix = u128::from(v6) & !u128::from(u64::MAX);
                Source(IpAddr::V6(Ipv6Addr::from(prefix)))
            }
            v4 => Source(v4),
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            IpAddr::V6(v6) => write!(f, "{v6}/64"),
            v4 => write!(f, "{v4}"),
        }
    }
}

/// What a refused connection wanted, for its answer and the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wanted {
    /// A request (the page, its files, JSON, PGN).
    Request,
    /// A viewer's place on the live stream.
    Stream,
}

/// Why a connection is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Every place of the server is taken (`max` of them).
    AllTaken { wanted: Wanted, max: usize },
    /// The connection's address holds its `max` places already.
    FromSource {
        wanted: Wanted,
        source: Source,
        max: usize,
    },
}

impl Refused {
    /// The answer's status: `503` when the server is full, `429` when the
    /// address is.
    pub fn status(&self) -> u16 {
        match self {
            Refused::AllTaken { .. } => 503,
            Refused::FromSource { .. } => 429,
        }
    }

    /// The address (or prefix) that holds its places, if that is why.
    pub fn source(&self) -> Option<Source> {
        match self {
            Refused::AllTaken { .. } => None,
            Refused::FromSource { source, .. } => Some(*source),
        }
    }
}

impl fmt::Display for Refused {
    /// One line, for the answer's body and the log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::AllTaken {
                wanted: Wanted::Request,
                max,
            } => write!(f, "busy: {max} requests are being served, try again"),
            Refused::AllTaken {
                wanted: Wanted::Stream,
                max,
            } => write!(f, "too many viewers (at most {max})"),
            Refused::FromSource {
                wanted: Wanted::Request,
                source,
                max,
            } => write!(
                f,
                "too many requests at once from {source} (at most {max} from one address)"
            ),
            Refused::FromSource {
                wanted: Wanted::Stream,
                source,
                max,
            } => write!(
                f,
                "too many live streams from {source} (at most {max} from one address)"
            ),
        }
    }
}

/// A lock that survives a panicked holder (the web server's shared data
/// is plain values and counts).
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The requests being served: at most `max` at once, and at most
/// `per_source` of them from one [`Source`].
#[derive(Debug)]
pub struct Slots {
    max: usize,
    per_source: usize,
    /// How many each source holds (a source holding none has no entry,
    /// so there are never more entries than `max`).
    held: Mutex<HashMap<Source, usize>>,
}

/// One request being served: its place is given back when dropped (also
/// when answering panics, so a panic cannot leak a place).
#[derive(Debug)]
pub struct Slot {
    slots: Arc<Slots>,
    source: Source,
}

impl Slots {
    pub fn new(max: usize, per_source: usize) -> Arc<Slots> {
        Arc::new(Slots {
            max,
            per_source,
            held: Mutex::new(HashMap::new()),
        })
    }

    /// A place for a request from `source`, unless every place is taken
    /// or `source` holds `per_source` already.
    pub fn take(self: &Arc<Self>, source: Source) -> Result<Slot, Refused> {
        let wanted = Wanted::Request;
        let mut held = lock(&self.held);
        let mine = held.get(&source).copied().unwrap_or(0);
        if mine >= self.per_source {
            return Err(Refused::FromSource {
                wanted,
                source,
                max: self.per_source,
            });
        }
        if held.values().sum::<usize>() >= self.max {
            return Err(Refused::AllTaken {
                wanted,
                max: self.max,
            });
        }
        held.insert(source, mine + 1);
        Ok(Slot {
            slots: self.clone(),
            source,
        })
    }

    /// How many places are taken.
    pub fn taken(&self) -> usize {
        lock(&self.held).values().sum()
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut held = lock(&self.slots.held);
        if let Some(n) = held.get_mut(&self.source) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.source);
            }
        }
    }
}

/// A log line about an address is due: how many lines about the same
/// address (or, for `source: None`, about addresses past
/// [`LOGGED_SOURCES`]) were left out since its last one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    pub source: Option<Source>,
    pub unlogged: u64,
}

impl LogLine {
    /// What the line adds to its text: the count of those left out.
    pub fn suffix(&self) -> String {
        match (self.unlogged, self.source) {
            (0, _) => String::new(),
            (n, Some(_)) => format!(
                " (and {n} more from it since its last such line; at most one a {LOG_EVERY:?})"
            ),
            (n, None) => format!(" (and {n} more from other addresses since the last such line)"),
        }
    }
}

/// One address's lines since its last one logged.
#[derive(Debug, Clone, Copy)]
struct Logged {
    at: Instant,
    unlogged: u64,
}

/// Thins one kind of log line (the refusals, say) that a client can
/// cause as often as it likes: at most one line per address per
/// [`LOG_EVERY`], in memory for at most [`LOGGED_SOURCES`] addresses.
#[derive(Debug, Default)]
pub struct ThinnedLog {
    /// `None`: the addresses that found the table full.
    last: HashMap<Option<Source>, Logged>,
}

impl ThinnedLog {
    /// A line about `source` at `now`: whether to log it, and what to add.
    pub fn note(&mut self, source: Source, now: Instant) -> Option<LogLine> {
        let mut key = Some(source);
        if !self.last.contains_key(&key) && self.last.len() >= LOGGED_SOURCES {
            self.last
                .retain(|_, l| now.saturating_duration_since(l.at) < LOG_EVERY);
            if self.last.len() >= LOGGED_SOURCES {
                key = None;
            }
        }
        match self.last.get_mut(&key) {
            Some(l) if now.saturating_duration_since(l.at) < LOG_EVERY => {
                l.unlogged += 1;
                None
            }
            Some(l) => {
                let line = LogLine {
                    source: key,
                    unlogged: l.unlogged,
                };
                *l = Logged {
                    at: now,
                    unlogged: 0,
                };
                Some(line)
            }
            None => {
                self.last.insert(
                    key,
                    Logged {
                        at: now,
                        unlogged: 0,
                    },
                );
                Some(LogLine {
                    source: key,
                    unlogged: 0,
                })
            }
        }
    }

    /// How many addresses are remembered.
    #[cfg(test)]
    fn remembered(&self) -> usize {
        self.last.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread;

    fn src(ip: &str) -> Source {
        Source::of(ip.parse().unwrap())
    }

    #[test]
    fn a_source_is_an_ipv4_address_or_an_ipv6_64() {
        assert_eq!(src("192.0.2.4"), src("::ffff:192.0.2.4"));
        assert_ne!(src("192.0.2.4"), src("192.0.2.5"));
        assert_eq!(src("2001:db8:1:2::1"), src("2001:db8:1:2:ffff::9"));
        assert_ne!(src("2001:db8:1:2::1"), src("2001:db8:1:3::1"));
        assert_eq!(src("2001:db8:1:2::1").to_string(), "2001:db8:1:2::/64");
        assert_eq!(src("::ffff:192.0.2.4").to_string(), "192.0.2.4");
    }

    #[test]
    fn one_source_holds_at_most_its_share_and_the_others_get_the_rest() {
        let slots = Slots::new(5, 2);
        let a = src("127.0.0.2");
        let held: Vec<Slot> = (0..2).map(|_| slots.take(a).unwrap()).collect();
        let refused = slots.take(a).unwrap_err();
        assert_eq!(
            refused,
            Refused::FromSource {
                wanted: Wanted::Request,
                source: a,
                max: 2
            }
        );
        assert_eq!(refused.status(), 429);
        assert_eq!(
            refused.to_string(),
            "too many requests at once from 127.0.0.2 (at most 2 from one address)"
        );
        // The others share the rest, up to the total.
        let b = slots.take(src("127.0.0.1")).unwrap();
        let c = slots.take(src("127.0.0.3")).unwrap();
        let d = slots.take(src("127.0.0.4")).unwrap();
        let full = slots.take(src("127.0.0.5")).unwrap_err();
        assert_eq!(full.status(), 503);
        assert_eq!(full.source(), None);
        assert_eq!(
            full.to_string(),
            "busy: 5 requests are being served, try again"
        );
        drop((b, c, d));
        drop(held);
        assert_eq!(slots.taken(), 0);
        assert!(
            lock(&slots.held).is_empty(),
            "a freed source keeps an entry"
        );
        assert!(slots.take(a).is_ok());
    }

    #[test]
    fn a_slot_is_given_back_when_its_thread_panics() {
        let slots = Slots::new(2, 2);
        let a = slots.take(src("127.0.0.1")).unwrap();
        let panicked = thread::spawn(move || {
            let _held = a;
            panic!("answering failed");
        })
        .join();
        assert!(panicked.is_err());
        assert_eq!(slots.taken(), 0, "the panic leaked a slot");
    }

    #[test]
    fn refusals_are_logged_once_per_source_per_interval_with_the_count_left_out() {
        let mut log = ThinnedLog::default();
        let t0 = Instant::now();
        let a = src("127.0.0.2");
        let b = src("127.0.0.3");
        let first = log.note(a, t0).expect("the first refusal is logged");
        assert_eq!(first.unlogged, 0);
        for ms in 1..1000 {
            assert_eq!(log.note(a, t0 + Duration::from_millis(ms)), None);
        }
        // Another address has its own line.
        assert!(log.note(b, t0 + Duration::from_millis(5)).is_some());
        let next = log
            .note(a, t0 + LOG_EVERY)
            .expect("a line after the interval");
        assert_eq!(next.unlogged, 999);
        let r = Refused::FromSource {
            wanted: Wanted::Stream,
            source: a,
            max: 8,
        };
        assert_eq!(
            format!("web: 127.0.0.2:5000 refused: {r}{}", next.suffix()),
            "web: 127.0.0.2:5000 refused: too many live streams from 127.0.0.2 \
             (at most 8 from one address) (and 999 more from it since its last \
             such line; at most one a 10s)"
        );
        assert_eq!(log.note(a, t0 + LOG_EVERY).map(|l| l.unlogged), None);
    }

    #[test]
    fn the_refusal_log_remembers_a_bounded_number_of_sources() {
        let mut log = ThinnedLog::default();
        let t0 = Instant::now();
        let many = |n: u32| Source::of(IpAddr::V4(n.into()));
        let mut lines = 0;
        for n in 0..(LOGGED_SOURCES as u32 * 4) {
            lines += usize::from(log.note(many(n), t0).is_some());
        }
        assert_eq!(log.remembered(), LOGGED_SOURCES + 1);
        // Those past the table share one line in the interval.
        assert_eq!(lines, LOGGED_SOURCES + 1);
        // Once their interval is over, the table makes room again.
        let later = t0 + LOG_EVERY;
        assert!(log.note(many(u32::MAX), later).is_some());
        assert_eq!(log.remembered(), 1);
    }
}
