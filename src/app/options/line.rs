//! The serial line's options (`--baud`, `--parity`, ...), shared by
//! `referee`, `client`, `demo`, `resume`, `wire` and `tournament`, and the
//! `[line]` table of the config file.

use clap::Args;
use serde::Deserialize;

use crate::link::{Flow, LineEnd, Parity, PortSettings};

/// Serial line options shared by `referee`, `client` and `demo`.
#[derive(Debug, Clone, Default, Args, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineOptions {
    /// Baud rate [default: 9600].
    #[arg(long)]
    pub baud: Option<u32>,
    /// Data bits, 5-8 [default: 8].
    #[arg(long)]
    pub data_bits: Option<u8>,
    /// Parity [default: none].
    #[arg(long, value_enum)]
    pub parity: Option<Parity>,
    /// Stop bits, 1 or 2 [default: 1].
    #[arg(long)]
    pub stop_bits: Option<u8>,
    /// Flow control [default: none].
    #[arg(long, value_enum)]
    pub flow: Option<Flow>,
    /// Line end argus sends [default: crlf]; it accepts LF, CR, CRLF and NUL.
    #[arg(long, value_enum)]
    pub line_end: Option<LineEnd>,
}

impl LineOptions {
    /// `self` where set, else `file`.
    pub fn or(self, file: LineOptions) -> LineOptions {
        LineOptions {
            baud: self.baud.or(file.baud),
            data_bits: self.data_bits.or(file.data_bits),
            parity: self.parity.or(file.parity),
            stop_bits: self.stop_bits.or(file.stop_bits),
            flow: self.flow.or(file.flow),
            line_end: self.line_end.or(file.line_end),
        }
    }

    /// The port settings, checked.
    pub fn port_settings(&self) -> Result<PortSettings, PortOptionError> {
        let d = PortSettings::default();
        let s = PortSettings {
            baud: self.baud.unwrap_or(d.baud),
            data_bits: self.data_bits.unwrap_or(d.data_bits),
            parity: self.parity.unwrap_or(d.parity),
            stop_bits: self.stop_bits.unwrap_or(d.stop_bits),
            flow: self.flow.unwrap_or(d.flow),
            line_end: self.line_end.unwrap_or(d.line_end),
        };
        if s.baud == 0 {
            return Err(PortOptionError::Baud);
        }
        if !(5..=8).contains(&s.data_bits) {
            return Err(PortOptionError::DataBits(s.data_bits));
        }
        if !(1..=2).contains(&s.stop_bits) {
            return Err(PortOptionError::StopBits(s.stop_bits));
        }
        Ok(s)
    }
}

/// A serial line flag out of its range (the flag and the value given).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PortOptionError {
    #[error("--baud must be above 0")]
    Baud,
    #[error("--data-bits must be 5 to 8, not {0}")]
    DataBits(u8),
    #[error("--stop-bits must be 1 or 2, not {0}")]
    StopBits(u8),
}

error_words!(PortOptionError);
