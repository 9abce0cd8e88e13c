//! Lines on standard output that never panic. `println!` panics when
//! stdout is a closed pipe (`argus watch journal.log --headless | head`);
//! here the first failure is logged and later lines are dropped. A referee
//! goes on without its stdout (its journal, transcript and log have
//! everything); a watcher, which only prints, ends ([`gone`]).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once a line could not be written.
static GONE: AtomicBool = AtomicBool::new(false);

/// Prints `text` and a line end on stdout, in one write; nothing once
/// stdout is gone.
pub fn line(text: &str) {
    if gone() {
        return;
    }
    let mut bytes = Vec::with_capacity(text.len() + 1);
    bytes.extend_from_slice(text.as_bytes());
    bytes.push(b'\n');
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(&bytes).and_then(|()| out.flush()) {
        GONE.store(true, Ordering::Relaxed);
        log::warn!("cannot write to standard output ({e}); its lines are not printed from here on");
    }
}

/// Whether a line could not be written (the reader of a pipe left).
pub fn gone() -> bool {
    GONE.load(Ordering::Relaxed)
}
