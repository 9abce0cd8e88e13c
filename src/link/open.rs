//! Opening and configuring one serial port.

use std::fmt;
use std::time::Duration;

use serialport::{ClearBuffer, DataBits, ErrorKind, FlowControl, SerialPort, StopBits};

use super::settings::{Flow, Parity, PortSettings};

/// How long a read or a write on an opened port waits before it returns
/// `TimedOut` (the crate's own default, 0, would make every read spin).
pub const IO_TIMEOUT: Duration = Duration::from_millis(200);

/// Why a port could not be opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenErrorKind {
    /// No such device or file.
    NotFound,
    /// Another program (or another link in this one) has the port open.
    Busy,
    /// The user may not open it.
    PermissionDenied,
    /// The settings are impossible or the port refused them.
    InvalidSettings,
    /// Anything else.
    Other,
}

/// A port that could not be opened: which one and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenError {
    /// The path or name that was given, e.g. `/dev/ttyUSB0` or `COM3`.
    pub port: String,
    /// The class of failure.
    pub kind: OpenErrorKind,
    /// What went wrong, in words.
    pub reason: String,
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.port.contains("://") {
            write!(f, "cannot use {}: {}", self.port, self.reason)
        } else {
            write!(f, "cannot open serial port {}: {}", self.port, self.reason)
        }
    }
}

impl std::error::Error for OpenError {}

impl OpenError {
    pub(crate) fn new(port: &str, kind: OpenErrorKind, reason: String) -> OpenError {
        OpenError {
            port: port.to_string(),
            kind,
            reason,
        }
    }

    /// Classifies an error from the serialport crate.
    pub(crate) fn from_serial(port: &str, e: &serialport::Error) -> OpenError {
        let (kind, reason) = match e.kind() {
            ErrorKind::NoDevice => (
                OpenErrorKind::Busy,
                format!(
                    "it is in use by another program or another link, or the device is gone ({e})"
                ),
            ),
            ErrorKind::Io(std::io::ErrorKind::NotFound) => {
                (OpenErrorKind::NotFound, format!("no such port ({e})"))
            }
            ErrorKind::Io(std::io::ErrorKind::PermissionDenied) => (
                OpenErrorKind::PermissionDenied,
                format!(
                    "permission denied ({e}); on Linux the user usually has to be in the \
                     'dialout' group"
                ),
            ),
            ErrorKind::InvalidInput => (
                OpenErrorKind::InvalidSettings,
                format!("the name or the settings were refused ({e})"),
            ),
            ErrorKind::Io(kind) => (OpenErrorKind::Other, format!("{e} ({kind:?})")),
            ErrorKind::Unknown => (OpenErrorKind::Other, e.to_string()),
        };
        OpenError::new(port, kind, reason)
    }
}

/// Opens `path` (a device path such as `/dev/ttyUSB0`, a pty or a socat
/// link, or a Windows name such as `COM3`) exclusively, applies `settings`,
/// sets reads and writes to time out after [`IO_TIMEOUT`], and discards any
/// input that was waiting in the port before it was opened.
///
/// Exclusive means `TIOCEXCL` plus an exclusive `flock` on Unix (so a second
/// open by this or another process fails, even as root) and the usual
/// exclusive open on Windows.
pub fn open_port(path: &str, settings: &PortSettings) -> Result<Box<dyn SerialPort>, OpenError> {
    if path.is_empty() {
        return Err(OpenError::new(
            path,
            OpenErrorKind::NotFound,
            "no port name given".to_string(),
        ));
    }
    settings
        .validate()
        .map_err(|why| OpenError::new(path, OpenErrorKind::InvalidSettings, why.to_string()))?;
    let data_bits = match settings.data_bits {
        5 => DataBits::Five,
        6 => DataBits::Six,
        7 => DataBits::Seven,
        _ => DataBits::Eight,
    };
    let stop_bits = match settings.stop_bits {
        2 => StopBits::Two,
        _ => StopBits::One,
    };
    let parity = match settings.parity {
        Parity::None => serialport::Parity::None,
        Parity::Odd => serialport::Parity::Odd,
        Parity::Even => serialport::Parity::Even,
    };
    let flow = match settings.flow {
        Flow::None => FlowControl::None,
        Flow::Hardware => FlowControl::Hardware,
        Flow::Software => FlowControl::Software,
    };
    let port = serialport::new(path, settings.baud)
        .data_bits(data_bits)
        .stop_bits(stop_bits)
        .parity(parity)
        .flow_control(flow)
        .timeout(IO_TIMEOUT)
        .exclusive(true)
        .open()
        .map_err(|e| OpenError::from_serial(path, &e))?;
    port.clear(ClearBuffer::Input).map_err(|e| {
        OpenError::new(
            path,
            OpenErrorKind::Other,
            format!("opened, but could not discard stale input: {e}"),
        )
    })?;
    Ok(port)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_port_says_which_and_why() {
        let e = match open_port("/nonexistent/argus-port", &PortSettings::default()) {
            Err(e) => e,
            Ok(_) => panic!("opened a port that does not exist"),
        };
        assert_eq!(e.port, "/nonexistent/argus-port");
        let text = e.to_string();
        assert!(text.contains("/nonexistent/argus-port"), "{text}");
        if cfg!(unix) {
            assert_eq!(e.kind, OpenErrorKind::NotFound, "{text}");
        }
    }

    #[test]
    fn bad_settings_are_refused_before_opening() {
        let s = PortSettings {
            data_bits: 4,
            ..PortSettings::default()
        };
        let e = match open_port("/nonexistent/argus-port", &s) {
            Err(e) => e,
            Ok(_) => panic!("opened with 4 data bits"),
        };
        assert_eq!(e.kind, OpenErrorKind::InvalidSettings);
        assert!(e.to_string().contains("data bits 4"), "{e}");
    }

    #[test]
    fn empty_name_is_refused() {
        assert!(open_port("", &PortSettings::default()).is_err());
    }
}
