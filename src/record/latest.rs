//! A file kept at the newest of the states given to it, written by its own
//! thread (the live PGN): the main loop hands over a state and goes on at
//! once; a state that a newer one replaces before the thread got to it is
//! never written (a slow disk costs writes, never a delay or memory); the
//! newest state is always written in the end ([`Latest::close`], or when
//! dropped). A least gap between two writes bounds the disk work however
//! fast the states come.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use log::warn;

/// How a state reaches the file (for the live PGN: rendered and replaced
/// atomically).
pub type WriteFn<T> = fn(&Path, &T) -> io::Result<()>;

/// What the writer thread does next.
#[derive(Debug, PartialEq, Eq)]
pub enum Turn<T> {
    /// Write this state.
    Write(T),
    /// Nothing waits: wait for a state.
    Wait,
    /// Closing, and everything is written.
    Stop,
}

/// The hand-over between the loop and the writer thread: at most one state
/// waits, the newest.
#[derive(Debug)]
pub struct Slot<T> {
    pending: Option<T>,
    closing: bool,
    /// States replaced before they were written (for the figures).
    skipped: u64,
}

impl<T> Default for Slot<T> {
    fn default() -> Self {
        Slot {
            pending: None,
            closing: false,
            skipped: 0,
        }
    }
}

impl<T> Slot<T> {
    /// Puts `state` in, replacing one still waiting.
    pub fn put(&mut self, state: T) {
        if self.pending.replace(state).is_some() {
            self.skipped += 1;
        }
    }

    /// What the writer does next.
    pub fn turn(&mut self) -> Turn<T> {
        match self.pending.take() {
            Some(s) => Turn::Write(s),
            None if self.closing => Turn::Stop,
            None => Turn::Wait,
        }
    }

    /// States replaced before they were written.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }
}

struct Shared<T> {
    slot: Mutex<Slot<T>>,
    wake: Condvar,
}

/// A file at `path` rewritten with the newest state by its own thread.
pub struct Latest<T: Send + 'static> {
    shared: Arc<Shared<T>>,
    thread: Option<JoinHandle<u64>>,
    path: PathBuf,
}

impl<T: Send + 'static> Latest<T> {
    /// Starts the writer thread for `path`; `write` puts a state there.
    /// At least `gap` passes between two writes (the states in between
    /// are coalesced; closing does not wait for it).
    pub fn start(path: PathBuf, write: WriteFn<T>, gap: Duration) -> io::Result<Latest<T>> {
        let shared = Arc::new(Shared {
            slot: Mutex::new(Slot::default()),
            wake: Condvar::new(),
        });
        let (s, p) = (shared.clone(), path.clone());
        let thread = thread::Builder::new()
            .name("latest file".into())
            .spawn(move || run(&s, &p, write, gap))?;
        Ok(Latest {
            shared,
            thread: Some(thread),
            path,
        })
    }

    /// Hands `state` over (replacing one not written yet); never waits for
    /// the disk.
    pub fn set(&self, state: T) {
        let mut slot = self
            .shared
            .slot
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        slot.put(state);
        drop(slot);
        self.shared.wake.notify_one();
    }

    /// Writes the newest state, waits until it is on disk and stops the
    /// thread. Returns how many states were replaced before being written.
    pub fn close(mut self) -> u64 {
        self.stop()
    }

    fn stop(&mut self) -> u64 {
        let Some(thread) = self.thread.take() else {
            return 0;
        };
        self.shared
            .slot
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .closing = true;
        self.shared.wake.notify_one();
        let writes = thread.join().unwrap_or(0);
        let skipped = self
            .shared
            .slot
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .skipped();
        log::debug!(
            "{}: {writes} writes, {skipped} states replaced before their turn",
            self.path.display()
        );
        skipped
    }
}

impl<T: Send + 'static> Drop for Latest<T> {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The writer thread: writes each newest state until closed. Returns the
/// number of writes.
fn run<T>(shared: &Shared<T>, path: &Path, write: WriteFn<T>, gap: Duration) -> u64 {
    let mut writes = 0;
    loop {
        let state = {
            let mut slot = shared.slot.lock().unwrap_or_else(PoisonError::into_inner);
            loop {
                match slot.turn() {
                    Turn::Write(s) => break s,
                    Turn::Stop => return writes,
                    Turn::Wait => {
                        slot = shared
                            .wake
                            .wait(slot)
                            .unwrap_or_else(PoisonError::into_inner);
                    }
                }
            }
        };
        writes += 1;
        if let Err(e) = write(path, &state) {
            warn!("cannot rewrite {}: {e}", path.display());
        }
        rest(shared, Instant::now() + gap);
    }
}

/// Waits until `until`, or until the file is closing.
fn rest<T>(shared: &Shared<T>, until: Instant) {
    let mut slot = shared.slot.lock().unwrap_or_else(PoisonError::into_inner);
    while !slot.closing {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return;
        }
        slot = shared
            .wake
            .wait_timeout(slot, left)
            .unwrap_or_else(PoisonError::into_inner)
            .0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_keeps_only_the_newest_state_and_counts_the_rest() {
        let mut slot = Slot::default();
        assert_eq!(slot.turn(), Turn::Wait);
        slot.put(1);
        slot.put(2);
        slot.put(3);
        assert_eq!(slot.skipped(), 2);
        assert_eq!(slot.turn(), Turn::Write(3));
        assert_eq!(slot.turn(), Turn::Wait, "nothing waits: the writer waits");
        slot.put(4);
        slot.closing = true;
        assert_eq!(slot.turn(), Turn::Write(4), "closing still writes the last");
        assert_eq!(slot.turn(), Turn::Stop);
    }

    #[allow(clippy::ptr_arg)] // a WriteFn<String> takes &String
    fn write_text(path: &Path, text: &String) -> io::Result<()> {
        crate::record::durable::write_atomic(path, text)
    }

    #[test]
    fn the_file_ends_at_the_newest_state() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("live.txt");
        let latest = Latest::start(path.clone(), write_text, Duration::ZERO).unwrap();
        for i in 0..500 {
            latest.set(format!("state {i}\n"));
        }
        latest.close();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "state 499\n");
        // Dropping writes the newest state too.
        let latest = Latest::start(path.clone(), write_text, Duration::ZERO).unwrap();
        latest.set("dropped\n".to_string());
        drop(latest);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "dropped\n");
    }

    #[test]
    fn with_a_gap_the_states_between_two_writes_are_coalesced_and_closing_does_not_wait() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("live.txt");
        let latest = Latest::start(path.clone(), write_text, Duration::from_secs(60)).unwrap();
        for i in 0..100 {
            latest.set(format!("state {i}\n"));
        }
        let t0 = Instant::now();
        let skipped = latest.close();
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "close waited for the gap"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "state 99\n");
        // At most the first state and the last were written.
        assert!(skipped >= 98, "{skipped} skipped of 100");
    }

    #[test]
    fn a_file_that_cannot_be_written_is_warned_about_and_the_loop_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing").join("live.txt");
        let latest = Latest::start(path.clone(), write_text, Duration::ZERO).unwrap();
        latest.set("a\n".to_string());
        latest.set("b\n".to_string());
        latest.close();
        assert!(!path.exists());
    }
}
