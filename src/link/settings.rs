//! Serial line settings: baud rate, character format, flow control and the
//! line end argus writes. Usable from the CLI (`clap::ValueEnum`) and from a
//! TOML config (`serde::Deserialize`).

use std::fmt;

use serde::Deserialize;

/// Parity bit of each character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Parity {
    /// No parity bit (the `N` in `8N1`).
    #[default]
    None,
    /// Odd parity (`O`).
    Odd,
    /// Even parity (`E`).
    Even,
}

impl Parity {
    /// The letter used in the `8N1` notation: `N`, `O` or `E`.
    pub fn letter(self) -> char {
        match self {
            Parity::None => 'N',
            Parity::Odd => 'O',
            Parity::Even => 'E',
        }
    }
}

/// Flow control on the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Flow {
    /// No flow control (the usual three-wire null-modem cable).
    #[default]
    None,
    /// RTS/CTS hardware handshake (needs a cable that wires those lines).
    #[serde(alias = "rts-cts", alias = "rtscts")]
    #[value(alias = "rts-cts")]
    Hardware,
    /// XON/XOFF software handshake.
    #[serde(alias = "xon-xoff", alias = "xonxoff")]
    #[value(alias = "xon-xoff")]
    Software,
}

/// The line end argus appends to every record it writes. (Argus accepts all
/// of LF, CR, CRLF and NUL on input whatever this says.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize, clap::ValueEnum)]
pub enum LineEnd {
    /// Carriage return then line feed, `\r\n` (the default; what DOS
    /// programs expect).
    #[default]
    #[serde(rename = "crlf")]
    #[value(name = "crlf")]
    CrLf,
    /// Line feed only, `\n`.
    #[serde(rename = "lf")]
    #[value(name = "lf")]
    Lf,
    /// Carriage return only, `\r`.
    #[serde(rename = "cr")]
    #[value(name = "cr")]
    Cr,
}

impl LineEnd {
    /// The bytes of this line end.
    pub fn as_bytes(self) -> &'static [u8] {
        match self {
            LineEnd::CrLf => b"\r\n",
            LineEnd::Lf => b"\n",
            LineEnd::Cr => b"\r",
        }
    }
}

/// How one serial port is configured. `Default` is `9600 8N1`, no flow
/// control, CRLF line ends.
///
/// In a TOML config every field is optional:
///
/// ```toml
/// baud = 19200
/// data_bits = 8
/// parity = "none"      # none | odd | even
/// stop_bits = 1        # 1 | 2
/// flow = "hardware"    # none | hardware (rts-cts) | software (xon-xoff)
/// line_end = "crlf"    # crlf | lf | cr
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PortSettings {
    /// Bits per second, e.g. 9600. Must be at least [`PortSettings::MIN_BAUD`].
    pub baud: u32,
    /// Data bits per character, 5 to 8.
    pub data_bits: u8,
    /// Parity bit.
    pub parity: Parity,
    /// Stop bits per character, 1 or 2.
    pub stop_bits: u8,
    /// Flow control.
    pub flow: Flow,
    /// Line end appended to records argus writes.
    pub line_end: LineEnd,
}

impl Default for PortSettings {
    fn default() -> Self {
        PortSettings {
            baud: 9600,
            data_bits: 8,
            parity: Parity::None,
            stop_bits: 1,
            flow: Flow::None,
            line_end: LineEnd::CrLf,
        }
    }
}

impl PortSettings {
    /// The character format as the clock's wire-time credit needs it.
    pub fn line(&self) -> crate::clock::LineSettings {
        crate::clock::LineSettings {
            baud: self.baud,
            data_bits: self.data_bits,
            parity: self.parity != Parity::None,
            stop_bits: self.stop_bits,
        }
    }

    /// The lowest baud rate accepted (0 would mean "hang up" to a POSIX tty).
    pub const MIN_BAUD: u32 = 50;

    /// Bits on the wire per character: start bit, data bits, parity bit if
    /// any, stop bits. `8N1` gives 10. Together with [`PortSettings::baud`]
    /// this gives the time a line spends on the wire.
    pub fn bits_per_char(&self) -> u32 {
        let parity = match self.parity {
            Parity::None => 0,
            Parity::Odd | Parity::Even => 1,
        };
        1 + u32::from(self.data_bits) + parity + u32::from(self.stop_bits)
    }

    /// Checks the values that a config file or a caller could get wrong.
    /// The error names the field and the value.
    pub fn validate(&self) -> Result<(), SettingsError> {
        if self.baud < Self::MIN_BAUD {
            return Err(SettingsError::Baud(self.baud));
        }
        if !(5..=8).contains(&self.data_bits) {
            return Err(SettingsError::DataBits(self.data_bits));
        }
        if !(1..=2).contains(&self.stop_bits) {
            return Err(SettingsError::StopBits(self.stop_bits));
        }
        Ok(())
    }
}

/// A line setting no serial port can have: the field and its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("baud rate {0} is too low (at least {min})", min = PortSettings::MIN_BAUD)]
    Baud(u32),
    #[error("data bits {0} is not possible (5, 6, 7 or 8)")]
    DataBits(u8),
    #[error("stop bits {0} is not possible (1 or 2)")]
    StopBits(u8),
}

impl fmt::Display for PortSettings {
    /// `9600 8N1`, followed by ` rts/cts` or ` xon/xoff` when flow control is
    /// on. The line end is not shown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}{}{}",
            self.baud,
            self.data_bits,
            self.parity.letter(),
            self.stop_bits
        )?;
        match self.flow {
            Flow::None => Ok(()),
            Flow::Hardware => f.write_str(" rts/cts"),
            Flow::Software => f.write_str(" xon/xoff"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_9600_8n1_crlf() {
        let s = PortSettings::default();
        assert_eq!(s.to_string(), "9600 8N1");
        assert_eq!(s.bits_per_char(), 10);
        assert_eq!(s.line_end.as_bytes(), b"\r\n");
        assert_eq!(s.validate(), Ok(()));
    }

    #[test]
    fn bits_per_char_counts_parity_and_stop_bits() {
        let s = PortSettings {
            data_bits: 7,
            parity: Parity::Even,
            stop_bits: 2,
            flow: Flow::Hardware,
            ..PortSettings::default()
        };
        assert_eq!(s.bits_per_char(), 11);
        assert_eq!(s.to_string(), "9600 7E2 rts/cts");
    }

    #[test]
    fn validate_names_the_bad_field() {
        let bad = |s: PortSettings| s.validate().unwrap_err().to_string();
        let d = PortSettings::default();
        assert_eq!(
            PortSettings { baud: 0, ..d }.validate(),
            Err(SettingsError::Baud(0))
        );
        assert!(bad(PortSettings { baud: 0, ..d }).contains("baud rate 0"));
        assert!(bad(PortSettings { data_bits: 9, ..d }).contains("data bits 9"));
        assert!(bad(PortSettings { stop_bits: 3, ..d }).contains("stop bits 3"));
    }

    #[test]
    fn toml_fields_are_optional_and_named_in_lowercase() {
        let s: PortSettings =
            toml::from_str("baud = 19200\nflow = \"rts-cts\"\nline_end = \"lf\"\nparity = \"odd\"")
                .unwrap();
        assert_eq!(s.baud, 19200);
        assert_eq!(s.flow, Flow::Hardware);
        assert_eq!(s.line_end, LineEnd::Lf);
        assert_eq!(s.parity, Parity::Odd);
        assert_eq!(s.data_bits, 8);
        let s: PortSettings = toml::from_str("").unwrap();
        assert_eq!(s, PortSettings::default());
    }

    #[test]
    fn toml_rejects_unknown_fields_and_values() {
        assert!(toml::from_str::<PortSettings>("bauds = 1").is_err());
        assert!(toml::from_str::<PortSettings>("line_end = \"crcr\"").is_err());
    }

    #[test]
    fn value_enums_parse_cli_names() {
        use clap::ValueEnum;
        assert_eq!(LineEnd::from_str("crlf", false), Ok(LineEnd::CrLf));
        assert_eq!(Flow::from_str("xon-xoff", false), Ok(Flow::Software));
        assert_eq!(Parity::from_str("even", false), Ok(Parity::Even));
    }
}
