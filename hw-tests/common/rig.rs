//! The wiring for a referee session under test: two cables, each with a
//! referee end and a client end. Either virtual cables made with socat, or
//! real serial ports named by environment variables:
//!
//! * `ARGUS_HW_A`, `ARGUS_HW_B`: the referee's two ports;
//! * `ARGUS_HW_CLIENT_A`, `ARGUS_HW_CLIENT_B`: the ports at the other ends
//!   of those null-modem cables (on the same machine);
//! * `ARGUS_HW_BAUD` (optional): the baud rate for both sides;
//! * `ARGUS_HW_PATIENCE` (optional, default 10): how many times longer to
//!   wait for anything than over socat.
//!
//! With real ports, the tests that use them run one at a time (a lock),
//! since every test would otherwise open the same ports.

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use super::Cable;

/// The names of the hardware variables, in the order A, B, client A,
/// client B.
pub const HW_VARS: [&str; 4] = [
    "ARGUS_HW_A",
    "ARGUS_HW_B",
    "ARGUS_HW_CLIENT_A",
    "ARGUS_HW_CLIENT_B",
];

/// Serialises the tests on real ports.
static HARDWARE: Mutex<()> = Mutex::new(());

/// The real ports named by the environment: `Ok(None)` when none of
/// [`HW_VARS`] is set, an error naming the missing ones when only some are.
pub fn hardware_ports() -> Result<Option<[String; 4]>, String> {
    let values = HW_VARS.map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()));
    if values.iter().all(Option::is_none) {
        return Ok(None);
    }
    let missing: Vec<&str> = HW_VARS
        .iter()
        .zip(&values)
        .filter(|(_, v)| v.is_none())
        .map(|(n, _)| *n)
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "hardware tests need all of {}; missing: {}",
            HW_VARS.join(", "),
            missing.join(", ")
        ));
    }
    Ok(Some(values.map(Option::unwrap_or_default)))
}

/// Two cables for one referee session (see the module documentation).
pub struct Rig {
    /// The referee's ends, A and B.
    pub referee: [String; 2],
    /// The clients' ends, A and B.
    pub client: [String; 2],
    cables: Option<[Cable; 2]>,
    patience: u32,
    line_args: Vec<String>,
    _hardware: Option<MutexGuard<'static, ()>>,
}

impl Rig {
    /// Real ports when [`HW_VARS`] are set, else two socat cables. Returns
    /// `None` (after printing `SKIPPED: ...`) when there is neither;
    /// panics instead when `ARGUS_REQUIRE_SOCAT=1`, or when the hardware
    /// variables are only partly set.
    pub fn new() -> Option<Rig> {
        match hardware_ports() {
            Err(e) => panic!("{e}"),
            Ok(Some([a, b, ca, cb])) => {
                let guard = HARDWARE.lock().unwrap_or_else(|p| p.into_inner());
                let patience = std::env::var("ARGUS_HW_PATIENCE")
                    .ok()
                    .and_then(|v| v.parse().ok())
                    .filter(|&p| p > 0)
                    .unwrap_or(10);
                let line_args = match std::env::var("ARGUS_HW_BAUD") {
                    Ok(b) if !b.is_empty() => vec!["--baud".to_string(), b],
                    _ => Vec::new(),
                };
                Some(Rig {
                    referee: [a, b],
                    client: [ca, cb],
                    cables: None,
                    patience,
                    line_args,
                    _hardware: Some(guard),
                })
            }
            Ok(None) => {
                if !super::socat_or_skip() {
                    return None;
                }
                let cables = [Cable::new(), Cable::new()];
                Some(Rig {
                    referee: [cables[0].a_str().into(), cables[1].a_str().into()],
                    client: [cables[0].b_str().into(), cables[1].b_str().into()],
                    cables: Some(cables),
                    patience: 1,
                    line_args: Vec::new(),
                    _hardware: None,
                })
            }
        }
    }

    /// Whether the ports are real hardware.
    pub fn is_hardware(&self) -> bool {
        self.cables.is_none()
    }

    /// `secs` seconds, stretched for slow real lines.
    pub fn within(&self, secs: u64) -> Duration {
        Duration::from_secs(secs.saturating_mul(u64::from(self.patience)))
    }

    /// Serial line options for every argus process (the baud rate on real
    /// ports, when set).
    pub fn line_args(&self) -> &[String] {
        &self.line_args
    }

    /// Whether cables can be pulled (socat only). Prints
    /// `SKIPPED: ...` when not.
    pub fn can_pull_or_skip(&self) -> bool {
        if self.cables.is_some() {
            return true;
        }
        let current = std::thread::current();
        println!(
            "SKIPPED: pulling a cable needs socat, not real ports ({})",
            current.name().unwrap_or("test")
        );
        false
    }

    /// Pulls cable `i` (0 = A, 1 = B): both its ends hang up.
    pub fn pull(&mut self, i: usize) {
        match self.cables.as_mut().and_then(|c| c.get_mut(i)) {
            Some(c) => c.kill(),
            None => panic!("cable {i} cannot be pulled (real ports, or no such cable)"),
        }
    }

    /// Plugs cable `i` in again at the same paths.
    pub fn replug(&mut self, i: usize) {
        match self.cables.as_mut().and_then(|c| c.get_mut(i)) {
            Some(c) => c.remake(),
            None => panic!("cable {i} cannot be replugged (real ports, or no such cable)"),
        }
    }
}

/// Evaluates to a [`Rig`], or returns from the calling test when there is
/// neither socat nor hardware (after printing `SKIPPED: ...`).
#[macro_export]
macro_rules! rig_or_skip {
    () => {
        match $crate::common::rig::Rig::new() {
            Some(r) => r,
            None => return,
        }
    };
}
