//! Listing the serial ports of this machine, for `argus ports`.

use std::fmt;

use serialport::SerialPortType;

use crate::text::strip_control;

/// How a port is attached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortKind {
    /// A USB adapter.
    Usb,
    /// A PCI card or on-board UART.
    Pci,
    /// A Bluetooth serial link.
    Bluetooth,
    /// Not known (on Linux without udev this includes all built-in
    /// `ttyS*` UARTs, present or not).
    Unknown,
}

impl fmt::Display for PortKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PortKind::Usb => "USB",
            PortKind::Pci => "PCI",
            PortKind::Bluetooth => "Bluetooth",
            PortKind::Unknown => "serial",
        })
    }
}

/// USB details of an adapter. The strings come from the device and have
/// had control characters removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsbDetails {
    /// Vendor id.
    pub vid: u16,
    /// Product id.
    pub pid: u16,
    /// Manufacturer string, if the device gives one.
    pub manufacturer: Option<String>,
    /// Product string, if the device gives one.
    pub product: Option<String>,
    /// Serial number, if the device gives one.
    pub serial_number: Option<String>,
}

/// One serial port found on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortInfo {
    /// The name to pass to argus, e.g. `/dev/ttyUSB0` or `COM3`.
    pub name: String,
    /// How it is attached.
    pub kind: PortKind,
    /// USB ids and strings, for USB adapters.
    pub usb: Option<UsbDetails>,
}

impl fmt::Display for PortInfo {
    /// One line: `/dev/ttyUSB0  USB 0403:6001 FTDI FT232R USB UART (serial A50285BI)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}  {}", self.name, self.kind)?;
        if let Some(usb) = &self.usb {
            write!(f, " {:04x}:{:04x}", usb.vid, usb.pid)?;
            for s in [&usb.manufacturer, &usb.product].into_iter().flatten() {
                write!(f, " {s}")?;
            }
            if let Some(serial) = &usb.serial_number {
                write!(f, " (serial {serial})")?;
            }
        }
        Ok(())
    }
}

/// Why the serial ports could not be listed.
#[derive(Debug, thiserror::Error)]
pub enum ListError {
    /// Linux without `/sys/class/tty`, where the ports are found.
    #[error("cannot list serial ports: /sys/class/tty does not exist (is /sys mounted?)")]
    NoSysfs,
    #[error("cannot list serial ports: {0}")]
    System(serialport::Error),
}

/// The serial ports the operating system knows of, sorted by name.
/// Virtual ports (ptys, socat links) are not listed.
///
/// Errors say why the list could not be made (e.g. `/sys` not mounted).
pub fn list_ports() -> Result<Vec<PortInfo>, ListError> {
    // Without libudev the crate scans /sys/class/tty and panics if it is
    // missing; check first.
    #[cfg(target_os = "linux")]
    if !std::path::Path::new("/sys/class/tty").is_dir() {
        return Err(ListError::NoSysfs);
    }
    let found = serialport::available_ports().map_err(ListError::System)?;
    let mut ports: Vec<PortInfo> = found
        .into_iter()
        .map(|p| {
            let (kind, usb) = match p.port_type {
                SerialPortType::UsbPort(u) => (
                    PortKind::Usb,
                    Some(UsbDetails {
                        vid: u.vid,
                        pid: u.pid,
                        manufacturer: clean(u.manufacturer),
                        product: clean(u.product),
                        serial_number: clean(u.serial_number),
                    }),
                ),
                SerialPortType::PciPort => (PortKind::Pci, None),
                SerialPortType::BluetoothPort => (PortKind::Bluetooth, None),
                SerialPortType::Unknown => (PortKind::Unknown, None),
            };
            PortInfo {
                name: strip_control(&p.port_name),
                kind,
                usb,
            }
        })
        .collect();
    ports.sort_by(|a, b| natural_key(&a.name).cmp(&natural_key(&b.name)));
    Ok(ports)
}

/// Strips control characters; an empty result becomes `None`.
fn clean(s: Option<String>) -> Option<String> {
    s.map(|s| strip_control(&s).trim().to_string())
        .filter(|s| !s.is_empty())
}

/// Sort key that puts `ttyS2` before `ttyS10`: the name without its
/// trailing digits, then the number they make.
fn natural_key(name: &str) -> (&str, u64, &str) {
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
    let digits = name.get(stem.len()..).unwrap_or("");
    (stem, digits.parse().unwrap_or(u64::MAX), name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usb_port_line_shows_ids_and_strings() {
        let p = PortInfo {
            name: "/dev/ttyUSB0".into(),
            kind: PortKind::Usb,
            usb: Some(UsbDetails {
                vid: 0x0403,
                pid: 0x6001,
                manufacturer: Some("FTDI".into()),
                product: Some("FT232R USB UART".into()),
                serial_number: Some("A50285BI".into()),
            }),
        };
        assert_eq!(
            p.to_string(),
            "/dev/ttyUSB0  USB 0403:6001 FTDI FT232R USB UART (serial A50285BI)"
        );
    }

    #[test]
    fn device_strings_lose_control_characters() {
        assert_eq!(
            clean(Some("Evil\x1b[2J Co".into())),
            Some("Evil[2J Co".into())
        );
        assert_eq!(clean(Some("\x07".into())), None);
    }

    #[test]
    fn names_sort_naturally() {
        let mut names = vec!["/dev/ttyS10", "/dev/ttyUSB0", "/dev/ttyS2", "COM3"];
        names.sort_by(|a, b| natural_key(a).cmp(&natural_key(b)));
        assert_eq!(
            names,
            vec!["/dev/ttyS2", "/dev/ttyS10", "/dev/ttyUSB0", "COM3"]
        );
    }

    #[test]
    fn listing_does_not_fail_here() {
        // Whatever the machine has, listing must not panic; on Linux with
        // /sys it must succeed.
        let result = list_ports();
        if cfg!(target_os = "linux") && std::path::Path::new("/sys/class/tty").is_dir() {
            assert!(result.is_ok(), "{result:?}");
        }
    }
}
