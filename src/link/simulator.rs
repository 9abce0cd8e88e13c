//! A line simulator: copies bytes both ways between two ends (serial ports
//! or TCP connections, `link::wire_ends`) the way a
//! real serial cable would carry them — paced at the line's character
//! rate, optionally flipping bits, dropping bytes, and "pulling the cable"
//! for a while — seeded, so that a run can be repeated. `argus wire` runs
//! it between the inner ends of two virtual cables.
//!
//! The pure parts ([`Impairer`], [`Pacer`], [`LineCounter`]) are tested
//! without ports; [`Wire::run`] does the copying with one thread per
//! direction.

use std::io::{self, ErrorKind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crate::link::settings::PortSettings;
use crate::link::wire_ends::WireEnd;

/// How the simulated line misbehaves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Impairments {
    /// Probability that any one bit of a byte is flipped (e.g. `1e-4`).
    pub bit_error_rate: f64,
    /// Probability that a byte is lost.
    pub drop_rate: f64,
    /// When the cable is pulled (time since the wire started), and for how
    /// long: bytes sent meanwhile are lost in both directions.
    pub cut: Option<(Duration, Duration)>,
    /// Seed of the random generator (each direction derives its own).
    pub seed: u64,
}

impl Default for Impairments {
    fn default() -> Impairments {
        Impairments {
            bit_error_rate: 0.0,
            drop_rate: 0.0,
            cut: None,
            seed: 1,
        }
    }
}

/// What happened to one byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// Delivered; `flipped` bits were changed on the way.
    Delivered { byte: u8, flipped: u32 },
    /// Lost on the line.
    Dropped,
}

/// Decides each byte's fate with a seeded generator.
#[derive(Debug, Clone)]
pub struct Impairer {
    rng: fastrand::Rng,
    bit_error_rate: f64,
    drop_rate: f64,
}

impl Impairer {
    /// An impairer; rates outside 0..=1 are clamped.
    pub fn new(seed: u64, bit_error_rate: f64, drop_rate: f64) -> Impairer {
        let clamp = |p: f64| {
            if p.is_finite() {
                p.clamp(0.0, 1.0)
            } else {
                0.0
            }
        };
        Impairer {
            rng: fastrand::Rng::with_seed(seed),
            bit_error_rate: clamp(bit_error_rate),
            drop_rate: clamp(drop_rate),
        }
    }

    /// The fate of `byte` (8 bits are exposed to bit errors).
    pub fn pass(&mut self, byte: u8) -> Fate {
        if self.drop_rate > 0.0 && self.rng.f64() < self.drop_rate {
            return Fate::Dropped;
        }
        let mut out = byte;
        let mut flipped = 0;
        if self.bit_error_rate > 0.0 {
            for bit in 0..8 {
                if self.rng.f64() < self.bit_error_rate {
                    out ^= 1 << bit;
                    flipped += 1;
                }
            }
        }
        Fate::Delivered { byte: out, flipped }
    }
}

/// Paces bytes at a line's character rate: each byte occupies the line for
/// `bits per character / baud` seconds, one after the other.
#[derive(Debug, Clone)]
pub struct Pacer {
    char_time: Duration,
    next_free: Option<Instant>,
}

impl Pacer {
    /// A pacer for this line (9600 baud 8N1: 1.0417 ms per character).
    pub fn new(settings: &PortSettings) -> Pacer {
        let bits = u64::from(settings.bits_per_char());
        let baud = u64::from(settings.baud.max(1));
        Pacer {
            char_time: Duration::from_nanos(bits.saturating_mul(1_000_000_000) / baud),
            next_free: None,
        }
    }

    /// The time one character takes.
    pub fn char_time(&self) -> Duration {
        self.char_time
    }

    /// The instant the byte handed over at `handed_over` has fully crossed
    /// the line. The schedule is absolute, as a UART sends queued bytes back
    /// to back: while the line is busy, the byte starts when the previous
    /// one ends, so a burst takes exactly its line time however late the
    /// caller's sleeps wake. A byte handed over less than one character
    /// after the line went idle was queued while the caller slept (it
    /// learns of bytes only between sleeps), so it also follows on at once;
    /// after a longer gap the line starts afresh at `handed_over`.
    pub fn slot(&mut self, handed_over: Instant) -> Instant {
        let start = match self.next_free {
            Some(t) if handed_over <= t + self.char_time => t,
            _ => handed_over,
        };
        let done = start + self.char_time;
        self.next_free = Some(done);
        done
    }
}

/// Counts lines and which of them were hit by an impairment, so that a run
/// can say how many records were corrupted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineCounter {
    pub lines: u64,
    pub damaged_lines: u64,
    current_damaged: bool,
    last_cr: bool,
}

impl LineCounter {
    /// Notes one byte as it was sent (before impairment) and whether it was
    /// damaged or lost.
    pub fn note(&mut self, sent: u8, damaged: bool) {
        self.current_damaged |= damaged;
        // LF, CR, CR LF and NUL end a line, as the framer reads them.
        let after_cr = std::mem::replace(&mut self.last_cr, sent == b'\r');
        let ends = match sent {
            b'\r' | 0 => true,
            b'\n' => !after_cr,
            _ => false,
        };
        if ends {
            self.lines += 1;
            if self.current_damaged {
                self.damaged_lines += 1;
            }
            self.current_damaged = false;
        }
    }
}

/// What one direction of the wire did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DirectionStats {
    pub bytes: u64,
    pub delivered: u64,
    pub flipped_bits: u64,
    pub corrupted_bytes: u64,
    pub dropped: u64,
    pub cut: u64,
    pub lines: LineCounter,
    /// Why the direction stopped before it was told to, if it did: the
    /// end of its input (ending with [`CLOSED`]) or an error.
    pub stopped: Option<String>,
}

/// How [`DirectionStats::stopped`] ends when the reading side was closed
/// (a TCP peer hung up).
pub const CLOSED: &str = "the other side closed the connection";

/// A running line simulator between two open ports.
pub struct Wire {
    stop: Arc<AtomicBool>,
    threads: Vec<thread::JoinHandle<DirectionStats>>,
}

/// Why a [`Wire`] could not start: what the system refused.
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    /// An end could not be given a second handle (one per direction).
    #[error("cannot share {name} between the directions: {error}")]
    Share { name: String, error: io::Error },
    #[error("cannot start the wire's threads: {0}")]
    Thread(io::Error),
}

impl Wire {
    /// Starts copying between two open ends (`link::wire_ends`), named
    /// `names` in the log. `log` gets a line for every impairment (for
    /// `--log`); pass a closure that ignores them if not wanted.
    pub fn start(
        [p1, p2]: [Box<dyn WireEnd>; 2],
        [port_1, port_2]: [&str; 2],
        settings: PortSettings,
        impairments: Impairments,
        log: Arc<dyn Fn(&str) + Send + Sync>,
    ) -> Result<Wire, WireError> {
        let clone = |p: &dyn WireEnd, name: &str| {
            p.try_clone_end().map_err(|error| WireError::Share {
                name: name.to_string(),
                error,
            })
        };
        let (p1w, p2w) = (clone(p1.as_ref(), port_1)?, clone(p2.as_ref(), port_2)?);
        let stop = Arc::new(AtomicBool::new(false));
        let epoch = Instant::now();
        let mut threads = Vec::new();
        for (i, (from, to, label)) in [
            (p1, p2w, format!("{port_1} -> {port_2}")),
            (p2, p1w, format!("{port_2} -> {port_1}")),
        ]
        .into_iter()
        .enumerate()
        {
            let stop = Arc::clone(&stop);
            let log = Arc::clone(&log);
            let imp = Impairer::new(
                impairments.seed.wrapping_mul(2).wrapping_add(i as u64),
                impairments.bit_error_rate,
                impairments.drop_rate,
            );
            let pacer = Pacer::new(&settings);
            let cut = impairments.cut;
            let handle = thread::Builder::new()
                .name(format!("argus-wire-{i}"))
                .spawn(move || copy(from, to, imp, pacer, cut, epoch, &stop, &label, &*log))
                .map_err(WireError::Thread)?;
            threads.push(handle);
        }
        Ok(Wire { stop, threads })
    }

    /// Stops copying and returns what each direction did (1 -> 2 first).
    pub fn stop(mut self) -> Vec<DirectionStats> {
        self.stop.store(true, Ordering::Relaxed);
        self.threads
            .drain(..)
            .map(|t| t.join().unwrap_or_default())
            .collect()
    }

    /// Whether both directions are still copying (a port error ends one).
    pub fn running(&self) -> bool {
        self.threads.iter().all(|t| !t.is_finished())
    }
}

#[allow(clippy::too_many_arguments)]
fn copy(
    mut from: Box<dyn WireEnd>,
    mut to: Box<dyn WireEnd>,
    mut imp: Impairer,
    mut pacer: Pacer,
    cut: Option<(Duration, Duration)>,
    epoch: Instant,
    stop: &AtomicBool,
    label: &str,
    log: &(dyn Fn(&str) + Send + Sync),
) -> DirectionStats {
    let mut stats = DirectionStats::default();
    let mut buf = [0u8; 256];
    while !stop.load(Ordering::Relaxed) {
        let n = match from.read(&mut buf) {
            Ok(0) => {
                log(&format!("{label}: end of input; this direction stops"));
                stats.stopped = Some(format!("{label}: {CLOSED}"));
                break;
            }
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::TimedOut | ErrorKind::WouldBlock | ErrorKind::Interrupted
                ) =>
            {
                continue;
            }
            Err(e) => {
                log(&format!("{label}: read error ({e}); this direction stops"));
                stats.stopped = Some(format!("{label}: read error ({e})"));
                break;
            }
        };
        // Every byte of one read was handed over by now: the pacer schedules
        // from here, not from when each earlier byte's sleep ended.
        let handed_over = Instant::now();
        for &b in buf.iter().take(n) {
            stats.bytes += 1;
            let at = epoch.elapsed();
            if let Some((start, len)) = cut
                && at >= start
                && at < start + len
            {
                stats.cut += 1;
                stats.lines.note(b, true);
                continue;
            }
            let done = pacer.slot(handed_over);
            let wait = done.saturating_duration_since(Instant::now());
            if !wait.is_zero() {
                thread::sleep(wait);
            }
            match imp.pass(b) {
                Fate::Dropped => {
                    stats.dropped += 1;
                    stats.lines.note(b, true);
                    log(&format!(
                        "{:.3} s {label}: dropped byte 0x{b:02x}",
                        at.as_secs_f64()
                    ));
                }
                Fate::Delivered { byte, flipped } => {
                    if flipped > 0 {
                        stats.flipped_bits += u64::from(flipped);
                        stats.corrupted_bytes += 1;
                        log(&format!(
                            "{:.3} s {label}: byte 0x{b:02x} arrived as 0x{byte:02x}",
                            at.as_secs_f64()
                        ));
                    }
                    stats.lines.note(b, flipped > 0);
                    if let Err(e) = to.write_all(&[byte]) {
                        log(&format!("{label}: write error ({e}); this direction stops"));
                        stats.stopped = Some(format!("{label}: write error ({e})"));
                        return stats;
                    }
                    stats.delivered += 1;
                }
            }
        }
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_line_delivers_every_byte_unchanged() {
        let mut imp = Impairer::new(7, 0.0, 0.0);
        for b in 0..=255u8 {
            assert_eq!(
                imp.pass(b),
                Fate::Delivered {
                    byte: b,
                    flipped: 0
                }
            );
        }
    }

    #[test]
    fn same_seed_same_damage() {
        let run = |seed| {
            let mut imp = Impairer::new(seed, 0.01, 0.01);
            (0..10_000u32)
                .map(|i| imp.pass(i as u8))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(3), run(3));
        assert_ne!(run(3), run(4));
    }

    #[test]
    fn error_rates_are_about_right() {
        let mut imp = Impairer::new(11, 1e-2, 0.05);
        let (mut dropped, mut flipped) = (0u32, 0u32);
        let n = 100_000;
        for _ in 0..n {
            match imp.pass(0) {
                Fate::Dropped => dropped += 1,
                Fate::Delivered { byte, flipped: f } => {
                    assert_eq!(byte.count_ones(), f);
                    flipped += f;
                }
            }
        }
        // 5% of 100k dropped: 5000 +/- a few hundred; 1% of 8 bits of the rest.
        assert!((4500..5500).contains(&dropped), "{dropped}");
        let expect = (n - dropped) as f64 * 8.0 * 1e-2;
        assert!(
            (flipped as f64 - expect).abs() < expect * 0.1,
            "{flipped} vs {expect}"
        );
    }

    #[test]
    fn pacer_spaces_bytes_by_the_character_time() {
        let s = PortSettings::default(); // 9600 8N1: 10 bits
        let mut p = Pacer::new(&s);
        assert_eq!(p.char_time(), Duration::from_nanos(1_041_666));
        let t0 = Instant::now();
        let a = p.slot(t0);
        let b = p.slot(t0);
        assert_eq!(a - t0, p.char_time());
        assert_eq!(b - a, p.char_time());
        // After an idle gap the line starts fresh.
        let later = b + Duration::from_secs(1);
        assert_eq!(p.slot(later) - later, p.char_time());
    }

    #[test]
    fn a_burst_takes_its_exact_line_time_however_late_sleeps_wake() {
        // 4800 bytes at 9600 8N1 are 5.00 s of line time. The copier reads
        // them 256 at a time, sleeps until each byte's slot and wakes late
        // (fake time: 0.4 ms after every slot); the next read happens then.
        let s = PortSettings::default();
        let mut p = Pacer::new(&s);
        let oversleep = Duration::from_micros(400);
        let t0 = Instant::now();
        let mut now = t0;
        let mut last = t0;
        let mut left = 4800usize;
        while left > 0 {
            let handed_over = now;
            for _ in 0..left.min(256) {
                last = p.slot(handed_over);
                now = now.max(last + oversleep);
            }
            left = left.saturating_sub(256);
        }
        assert_eq!(last - t0, p.char_time() * 4800);
        let secs = (last - t0).as_secs_f64();
        assert!((4.99..5.01).contains(&secs), "{secs} s");
    }

    #[test]
    fn line_counter_counts_damaged_records_once() {
        let mut c = LineCounter::default();
        for (i, b) in b"abc\r\ndef\r\nghi\njkl\rmno\0".iter().enumerate() {
            c.note(*b, i == 1 || i == 2);
        }
        assert_eq!(c.lines, 5);
        assert_eq!(c.damaged_lines, 1);
    }
}
