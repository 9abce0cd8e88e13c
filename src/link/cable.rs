//! An in-process virtual null-modem cable: two pseudo-terminals whose
//! master ends are joined by two relay threads, so that whatever is
//! written to one slave end can be read from the other. Both ends have a
//! path and are opened like any serial port. Used by `argus demo`; needs
//! no socat. Unix only.

use std::io::{ErrorKind, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use serialport::{SerialPort, TTYPort};

/// A cable with two ends, `a` and `b`. Dropping it cuts the cable.
pub struct VirtualCable {
    a: String,
    b: String,
    stop: Arc<AtomicBool>,
    relays: Vec<JoinHandle<()>>,
    // The slave ends stay open here so that the masters never see EIO
    // while nobody has opened an end; this handle never reads.
    _slaves: [TTYPort; 2],
}

/// What the system refused while making a [`VirtualCable`].
#[derive(Debug, thiserror::Error)]
pub enum CableError {
    #[error("cannot create a pseudo-terminal: {0}")]
    Create(serialport::Error),
    #[error("pseudo-terminal without a name")]
    Unnamed,
    #[error("cannot clone a pseudo-terminal: {0}")]
    Clone(serialport::Error),
    #[error("cannot start a cable thread: {0}")]
    Thread(std::io::Error),
}

error_words!(CableError);

impl VirtualCable {
    /// Makes a cable. The error says what the system refused.
    pub fn new() -> Result<VirtualCable, CableError> {
        let (m1, s1) = TTYPort::pair().map_err(CableError::Create)?;
        let (m2, s2) = TTYPort::pair().map_err(CableError::Create)?;
        let a = s1.name().ok_or(CableError::Unnamed)?;
        let b = s2.name().ok_or(CableError::Unnamed)?;
        let stop = Arc::new(AtomicBool::new(false));
        let m1r = m1.try_clone_native().map_err(CableError::Clone)?;
        let m2r = m2.try_clone_native().map_err(CableError::Clone)?;
        let relays = vec![
            relay(m1r, m2, Arc::clone(&stop))?,
            relay(m2r, m1, Arc::clone(&stop))?,
        ];
        Ok(VirtualCable {
            a,
            b,
            stop,
            relays,
            _slaves: [s1, s2],
        })
    }

    /// The path of end A.
    pub fn a(&self) -> &str {
        &self.a
    }

    /// The path of end B.
    pub fn b(&self) -> &str {
        &self.b
    }
}

impl Drop for VirtualCable {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for r in self.relays.drain(..) {
            let _ = r.join();
        }
    }
}

/// Copies bytes from `from` to `to` until stopped. Reads wait at most
/// 100 ms so that the stop flag is seen; no busy loop.
fn relay(
    mut from: TTYPort,
    mut to: TTYPort,
    stop: Arc<AtomicBool>,
) -> Result<JoinHandle<()>, CableError> {
    let _ = from.set_timeout(Duration::from_millis(100));
    thread::Builder::new()
        .name("argus-cable".into())
        .spawn(move || {
            let mut buf = [0u8; 4096];
            while !stop.load(Ordering::Relaxed) {
                match from.read(&mut buf) {
                    Ok(0) => thread::sleep(Duration::from_millis(20)),
                    Ok(n) => {
                        if to.write_all(buf.get(..n).unwrap_or_default()).is_err() {
                            thread::sleep(Duration::from_millis(20));
                        }
                    }
                    Err(e)
                        if e.kind() == ErrorKind::TimedOut
                            || e.kind() == ErrorKind::Interrupted => {}
                    Err(_) => thread::sleep(Duration::from_millis(20)),
                }
            }
        })
        .map_err(CableError::Thread)
}
