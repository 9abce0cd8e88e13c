//! Time a record spends on a serial line: the credit a client gets for the
//! time its reply took to travel, so that a slow line does not cost it
//! clock time; and how much of it a line that came in shows it really took
//! ([`line_credit_ms`]: a pseudo-terminal pair set to 9600 baud carries a
//! line at once, and must not credit a program time it never spent on a
//! wire).

/// The framing of a serial line (asynchronous, one start bit per char).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LineSettings {
    /// Bits per second, e.g. 9600.
    pub baud: u32,
    /// Data bits per character, usually 8 (5 to 8 on real UARTs).
    pub data_bits: u8,
    /// Whether a parity bit is present (even, odd, mark or space all count).
    pub parity: bool,
    /// Stop bits per character, 1 or 2.
    pub stop_bits: u8,
}

impl Default for LineSettings {
    /// 9600 baud, 8 data bits, no parity, 1 stop bit (9600 8N1).
    fn default() -> LineSettings {
        LineSettings {
            baud: 9600,
            data_bits: 8,
            parity: false,
            stop_bits: 1,
        }
    }
}

impl LineSettings {
    /// Bits on the wire per character: 1 start bit + data bits + parity
    /// bit (if any) + stop bits. 10 for 8N1.
    pub fn bits_per_char(&self) -> u32 {
        1 + u32::from(self.data_bits) + u32::from(self.parity) + u32::from(self.stop_bits)
    }
}

/// Time `bytes` characters take on the line, `bytes * bits_per_char /
/// baud` seconds, in `unit`s per second, rounded down, saturating.
fn wire_time(bytes: usize, line: &LineSettings, units_per_sec: u128) -> u64 {
    if line.baud == 0 {
        return 0;
    }
    let bits = (bytes as u128).saturating_mul(u128::from(line.bits_per_char()));
    let t = bits.saturating_mul(units_per_sec) / u128::from(line.baud);
    u64::try_from(t).unwrap_or(u64::MAX)
}

/// Milliseconds `bytes` characters take on the line:
/// `bytes * bits_per_char / baud` seconds, **rounded down** to a whole
/// millisecond (a credit never exceeds the real wire time). At 9600 8N1,
/// 80 bytes take 83 ms (83.3 exactly). A baud rate of 0 (unknown) gives 0:
/// no credit.
pub fn wire_time_ms(bytes: usize, line: &LineSettings) -> u64 {
    wire_time(bytes, line, 1_000)
}

/// Like [`wire_time_ms`], in microseconds (rounded down).
pub fn wire_time_us(bytes: usize, line: &LineSettings) -> u64 {
    wire_time(bytes, line, 1_000_000)
}

/// How a line came in through the port, as the reader saw it: the read
/// that brought its first byte, and the time from that read to the one
/// that brought its line end. A line paced at its baud rate (a real serial
/// line, or `argus wire`) comes in over many reads as its bytes cross the
/// wire; a line over a pseudo-terminal pair (socat) comes whole in one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Arrival {
    /// Bytes of the line (line end included) the first read brought.
    pub first_bytes: usize,
    /// Microseconds from the first read to the read of the line end.
    pub span_us: u64,
}

/// The wire-time credit of a line of `bytes` bytes (line end included)
/// that came in as `arrival` tells: the time the whole line took at the
/// rate its bytes after the first read came in (`span_us * bytes /
/// (bytes - first_bytes)`), rounded down to the millisecond, never more
/// than its [`wire_time_ms`] at the baud rate.
///
/// * A line paced at its baud rate gets its full wire time: the bytes
///   after the first read took their wire time to come, so the first
///   read's bytes are credited at that pace too.
/// * A line that came whole in one read gets no credit: nothing shows
///   that it crossed a wire (a pseudo-terminal pair delivers a line at
///   once whatever baud rate it was set to). On a real line at 9600 baud
///   a reply of some tens of bytes never comes in one read, as the UART
///   hands its bytes over as they come.
/// * A line that came in pieces faster than the baud rate gets the time
///   it took at that pace.
///
/// Without `arrival` (a journal written before arrivals were recorded)
/// the credit is the full wire time, as it was then.
///
/// ```
/// use argus::clock::{Arrival, LineSettings, line_credit_ms};
/// let line = LineSettings::default(); // 9600 8N1: 100 bytes take 104 ms
/// // All at once (a socat pair): no credit.
/// let at_once = Arrival { first_bytes: 100, span_us: 0 };
/// assert_eq!(line_credit_ms(100, Some(at_once), &line), 0);
/// // Paced: the first read brought 4 bytes, the other 96 took 100 ms.
/// let paced = Arrival { first_bytes: 4, span_us: 100_000 };
/// assert_eq!(line_credit_ms(100, Some(paced), &line), 104);
/// // Unknown: the full wire time.
/// assert_eq!(line_credit_ms(100, None, &line), 104);
/// ```
pub fn line_credit_ms(bytes: usize, arrival: Option<Arrival>, line: &LineSettings) -> u64 {
    let full = wire_time_ms(bytes, line);
    let Some(a) = arrival else {
        return full;
    };
    let rest = bytes.saturating_sub(a.first_bytes);
    if rest == 0 {
        return 0;
    }
    let paced_us = u128::from(a.span_us).saturating_mul(bytes as u128) / rest as u128;
    u64::try_from(paced_us / 1_000)
        .unwrap_or(u64::MAX)
        .min(full)
}

/// How much longer than its clock allows a program argus runs itself
/// (an `engine:` player) may take to have its move reach the referee
/// before its flag falls: the move is charged the engine's own time
/// ([`hop_credit_ms`]), so a move the engine made in time must not be cut
/// off while it crosses argus's own threads, which on a machine with more
/// busy threads than cores can each wait for one. A move that comes in
/// the grace is judged by the engine's own time: in time, it stands; out
/// of time, the flag falls as before.
pub const HOP_GRACE_MS: u64 = 1_000;

/// The credit for a move of a program argus runs itself, whose bridge
/// measured the engine's own time for it, `search_ms` (from its `go`
/// written to its move read from the pipe, as fastchess measures it):
/// the time argus measured, `elapsed_ms` (the respond out to the reply in,
/// through the in-process link and the bridge's threads), less the
/// engine's own. The move is then charged the engine's time: argus's hops
/// before the `go` and after the move are its own, not the engine's, as a
/// cable's wire time is the line's ([`line_credit_ms`]). Never more than
/// `elapsed_ms` is charged (a search said to be longer than the move took
/// gets no credit): what the referee measured is always an upper bound.
/// Only for programs argus runs: a client on a port or socket could say
/// anything.
///
/// ```
/// use argus::clock::hop_credit_ms;
/// // argus measured 130 ms; the engine searched 100: 30 ms credited.
/// assert_eq!(hop_credit_ms(130, 100), 30);
/// // A search said to be longer than the move took: no credit.
/// assert_eq!(hop_credit_ms(100, 130), 0);
/// ```
pub fn hop_credit_ms(elapsed_ms: u64, search_ms: u64) -> u64 {
    elapsed_ms.saturating_sub(search_ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The credit at 9600 8N1 of a line of `bytes` whose first read
    /// brought `first_bytes`, the rest coming in `span_us`.
    fn credit(bytes: usize, first_bytes: usize, span_us: u64) -> u64 {
        let arrival = Arrival {
            first_bytes,
            span_us,
        };
        line_credit_ms(bytes, Some(arrival), &LineSettings::default())
    }

    #[test]
    fn a_line_that_came_at_once_gets_no_credit() {
        for bytes in [1, 80, 104, 4096] {
            assert_eq!(credit(bytes, bytes, 0), 0, "{bytes}");
        }
        // A first read said to bring more than the line (a bad journal).
        assert_eq!(credit(100, 200, 50_000), 0);
    }

    #[test]
    fn a_line_paced_at_its_baud_rate_gets_its_full_wire_time() {
        let l = LineSettings::default();
        // 100 bytes at 9600 8N1 take 104.17 ms; the first read brought 1,
        // the other 99 came in 103.1 ms.
        assert_eq!(wire_time_ms(100, &l), 104);
        assert_eq!(credit(100, 1, wire_time_us(99, &l)), 104);
        // A USB adapter's latency timer: 16 bytes at first, the rest at
        // the wire's pace or slower (the client paused).
        for span_us in [wire_time_us(84, &l), 200_000, u64::MAX] {
            assert_eq!(credit(100, 16, span_us), 104, "{span_us}");
        }
        // The last read came 1 ms sooner after the first than the wire
        // allows (the first read was handed over late): 1.2 ms less.
        assert_eq!(credit(100, 16, wire_time_us(84, &l) - 1_000), 102);
    }

    #[test]
    fn a_line_that_came_faster_than_its_baud_rate_gets_the_time_it_took() {
        // 80 bytes then 20 more 5 ms later: 100 bytes at that pace, 25 ms.
        assert_eq!(credit(100, 80, 5_000), 25);
        // No baud rate (TCP): no credit however it came.
        let tcp = LineSettings {
            baud: 0,
            ..LineSettings::default()
        };
        let a = Arrival {
            first_bytes: 80,
            span_us: 5_000,
        };
        assert_eq!(line_credit_ms(100, Some(a), &tcp), 0);
        assert_eq!(line_credit_ms(100, None, &tcp), 0);
    }

    #[test]
    fn without_an_arrival_the_credit_is_the_full_wire_time() {
        let l = LineSettings::default();
        for bytes in [0, 1, 80, 4096] {
            assert_eq!(line_credit_ms(bytes, None, &l), wire_time_ms(bytes, &l));
        }
    }

    #[test]
    fn wire_times() {
        let l = LineSettings::default();
        assert_eq!(l.bits_per_char(), 10);
        assert_eq!(wire_time_ms(80, &l), 83);
        assert_eq!(wire_time_us(80, &l), 83_333);
        assert_eq!(wire_time_ms(0, &l), 0);
        let slow = LineSettings {
            baud: 300,
            data_bits: 7,
            parity: true,
            stop_bits: 2,
        };
        assert_eq!(slow.bits_per_char(), 11);
        assert_eq!(wire_time_ms(30, &slow), 1_100);
        let fast = LineSettings { baud: 115_200, ..l };
        assert_eq!(wire_time_ms(4096, &fast), 355);
        assert_eq!(wire_time_ms(100, &LineSettings { baud: 0, ..l }), 0);
        assert_eq!(
            wire_time_us(usize::MAX, &LineSettings { baud: 1, ..l }),
            u64::MAX
        );
    }
}
