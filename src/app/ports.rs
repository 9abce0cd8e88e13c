//! `argus ports`: one line per serial port of this machine.

use crate::exit::{Completion, Exit, Failure};

/// Runs `argus ports`. A port list that cannot be had is a failure on the
/// way (exit status 1).
pub fn run() -> Exit {
    let ports = crate::link::list_ports().map_err(Failure::failed)?;
    if ports.is_empty() {
        crate::app::stdout::line(
            "no serial ports found (virtual ports such as socat links are not listed)",
        );
    }
    for p in ports {
        crate::app::stdout::line(&p.to_string());
    }
    Ok(Completion::Normal)
}
