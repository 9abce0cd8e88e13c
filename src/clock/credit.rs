//! Time a record spends on a serial line: the credit a client gets for the
//! time its reply took to travel, so that a slow line does not cost it
//! clock time.

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

#[cfg(test)]
mod tests {
    use super::*;

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
