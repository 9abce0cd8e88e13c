//! `argus ports`: one line per serial port of this machine.

/// Runs `argus ports`; returns the exit status.
pub fn main() -> u8 {
    match crate::link::list_ports() {
        Ok(ports) if ports.is_empty() => {
            crate::app::stdout::line(
                "no serial ports found (virtual ports such as socat links are not listed)",
            );
            0
        }
        Ok(ports) => {
            for p in ports {
                crate::app::stdout::line(&p.to_string());
            }
            0
        }
        Err(e) => {
            eprintln!("argus ports: {e}");
            1
        }
    }
}
