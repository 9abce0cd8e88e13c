//! How many programs argus runs may be starting at once: a start is
//! mostly the program's own CPU (Stockfish loading its network), so 128
//! engines started together on two cores share the CPU and every one of
//! them misses its 10 s handshake (seen at 64 boards: 126 of 128 missed
//! it twice in a row, 94 instances were given up). Through the gate at
//! most a few handshakes run at once, each with the CPU it needs; the
//! rest wait their turn before their program is started, so their
//! handshake's time has not begun.

use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// At most `at_once` holders of a [`Pass`] at a time.
#[derive(Debug, Clone)]
pub struct StartGate {
    inner: Arc<(Mutex<usize>, Condvar)>,
    at_once: usize,
}

/// A place in the gate, given back when dropped.
#[derive(Debug)]
pub struct Pass {
    gate: StartGate,
}

impl StartGate {
    /// A gate for `at_once` starts at a time (at least 1).
    pub fn new(at_once: usize) -> StartGate {
        StartGate {
            inner: Arc::new((Mutex::new(0), Condvar::new())),
            at_once: at_once.max(1),
        }
    }

    /// The gate for this machine: twice its CPUs (a start that waits on
    /// the disk leaves its CPU to another), at least 2.
    pub fn for_this_machine() -> StartGate {
        let cpus = std::thread::available_parallelism().map_or(1, usize::from);
        StartGate::new(cpus.saturating_mul(2).max(2))
    }

    /// A place, waiting until one is free.
    pub fn enter(&self) -> Pass {
        let (count, freed) = &*self.inner;
        let mut n = count.lock().unwrap_or_else(PoisonError::into_inner);
        while *n >= self.at_once {
            n = freed.wait(n).unwrap_or_else(PoisonError::into_inner);
        }
        *n += 1;
        Pass { gate: self.clone() }
    }

    /// A place if one is free now.
    pub fn try_enter(&self) -> Option<Pass> {
        let (count, _) = &*self.inner;
        let mut n = count.lock().unwrap_or_else(PoisonError::into_inner);
        (*n < self.at_once).then(|| {
            *n += 1;
            Pass { gate: self.clone() }
        })
    }
}

impl Drop for Pass {
    fn drop(&mut self) {
        let (count, freed) = &*self.gate.inner;
        let mut n = count.lock().unwrap_or_else(PoisonError::into_inner);
        *n = n.saturating_sub(1);
        freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_so_many_pass_at_once_and_a_place_given_back_lets_the_next_in() {
        let gate = StartGate::new(2);
        let a = gate.enter();
        let b = gate.try_enter().expect("a second place");
        assert!(gate.try_enter().is_none(), "a third while two are in");
        drop(a);
        let c = gate.try_enter().expect("a place given back is free");
        assert!(gate.try_enter().is_none());
        // One waiting in enter() gets in when a place is given back.
        let waiting = {
            let gate = gate.clone();
            std::thread::spawn(move || drop(gate.enter()))
        };
        drop(b);
        waiting.join().unwrap();
        drop(c);
        assert!(gate.try_enter().is_some());
        assert!(StartGate::for_this_machine().at_once >= 2);
        assert_eq!(StartGate::new(0).at_once, 1);
    }
}
