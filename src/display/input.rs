//! The input thread: reads terminal events and sends keys and resizes to
//! the main loop over a channel, until it is stopped or the terminal hangs
//! up.
//!
//! A terminal that went away (its window closed, `tmux kill-server`, an ssh
//! link dropped) reads as end of file for ever, and crossterm's reader
//! loops on such a read without end. So the thread waits on the terminal
//! itself (`poll(2)`) and hands crossterm only a terminal that is still
//! there: a hang-up is seen there and reported as [`InputEvent::HungUp`].
//! Should the hang-up still fall between that look and crossterm's read,
//! [`InputThread::stop`] waits for the thread only a bounded time, so the
//! process can always end.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, bounded};
use crossterm::event::{self, Event, KeyEvent};

/// How long one wait for terminal input lasts; also the longest time
/// [`InputThread::stop`] waits for the thread to notice.
pub const POLL: Duration = Duration::from_millis(100);

/// The longest [`InputThread::stop`] waits for the thread to end; a thread
/// caught in a read of a terminal that hung up is left behind (it ends with
/// the process).
const STOP_WAIT: Duration = Duration::from_millis(500);

/// What the input thread reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputEvent {
    /// A key (presses, repeats and releases; [`Ui::handle_key`](super::Ui::handle_key)
    /// ignores releases).
    Key(KeyEvent),
    /// The terminal now has this size; redraw.
    Resize { width: u16, height: u16 },
    /// Reading the terminal failed; the thread has ended. The text says why.
    Failed(String),
    /// The terminal hung up (it is gone: its window closed, its
    /// multiplexer or ssh link ended); the thread has ended. A hang-up, as
    /// SIGHUP is.
    HungUp,
}

/// What a wait for terminal input found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ready {
    /// An event can be read.
    Event,
    /// Nothing within the wait.
    Nothing,
    /// The terminal hung up: nothing more will come from it.
    HungUp,
}

/// Where terminal events come from: the real terminal, or a script in
/// tests.
pub trait EventSource: Send + 'static {
    /// Waits up to `timeout` for an event.
    fn poll(&mut self, timeout: Duration) -> io::Result<Ready>;
    /// Reads the ready event.
    fn read(&mut self) -> io::Result<Event>;
}

/// The process's terminal, through crossterm, watched for a hang-up
/// first ([`super::terminal::wait_readable`]).
#[derive(Debug, Default, Clone, Copy)]
pub struct TerminalEvents;

impl EventSource for TerminalEvents {
    fn poll(&mut self, timeout: Duration) -> io::Result<Ready> {
        if super::terminal::wait_readable(timeout)? == Ready::HungUp {
            return Ok(Ready::HungUp);
        }
        // crossterm is asked even when the terminal had no bytes: a resize
        // comes to it as a signal, and a key may wait in its buffer.
        Ok(match event::poll(Duration::ZERO)? {
            true => Ready::Event,
            false => Ready::Nothing,
        })
    }

    fn read(&mut self) -> io::Result<Event> {
        event::read()
    }
}

/// A running input thread. It ends when [`InputThread::stop`] is called or
/// the guard is dropped, when the receiving end of its channel is gone, or
/// after a read error or a hang-up (reported as [`InputEvent::Failed`] and
/// [`InputEvent::HungUp`]).
#[derive(Debug)]
pub struct InputThread {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
    /// Closed when the thread ends (its sender is dropped with it).
    ended: Receiver<()>,
}

impl InputThread {
    /// Starts reading the terminal, sending to `tx`.
    pub fn spawn(tx: Sender<InputEvent>) -> io::Result<InputThread> {
        InputThread::spawn_with(TerminalEvents, tx)
    }

    /// Starts reading `source`, sending to `tx`. Fails only if the thread
    /// cannot be created.
    pub fn spawn_with<S: EventSource>(
        source: S,
        tx: Sender<InputEvent>,
    ) -> io::Result<InputThread> {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let (alive, ended) = bounded::<()>(0);
        let handle = thread::Builder::new()
            .name("argus-input".to_string())
            .spawn(move || {
                let _alive = alive;
                run(source, &tx, &flag);
            })
            .map_err(|e| {
                io::Error::new(e.kind(), format!("could not start the input thread: {e}"))
            })?;
        Ok(InputThread {
            stop,
            handle: Some(handle),
            ended,
        })
    }

    /// Stops the thread and waits for it: about [`POLL`], at most
    /// [`STOP_WAIT`], after which a thread stuck in a read is left to end
    /// with the process.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let Some(handle) = self.handle.take() else {
            return;
        };
        match self.ended.recv_timeout(STOP_WAIT) {
            // A panic in the thread has already been reported by the hook.
            Err(RecvTimeoutError::Disconnected) => {
                let _ = handle.join();
            }
            Ok(()) | Err(RecvTimeoutError::Timeout) => {
                log::warn!(
                    "the terminal's input thread did not stop within {STOP_WAIT:?}; left behind"
                );
            }
        }
    }
}

impl Drop for InputThread {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The thread's loop: wait with a timeout (no busy loop), forward keys and
/// resizes, ignore the rest.
fn run<S: EventSource>(mut source: S, tx: &Sender<InputEvent>, stop: &AtomicBool) {
    while !stop.load(Ordering::SeqCst) {
        let event = match source.poll(POLL) {
            Ok(Ready::Nothing) => continue,
            Ok(Ready::Event) => source.read(),
            Ok(Ready::HungUp) => {
                let _ = tx.send(InputEvent::HungUp);
                return;
            }
            Err(e) => Err(e),
        };
        let out = match event {
            Ok(Event::Key(key)) => InputEvent::Key(key),
            Ok(Event::Resize(width, height)) => InputEvent::Resize { width, height },
            Ok(_) => continue,
            Err(e) => {
                let _ = tx.send(InputEvent::Failed(format!(
                    "reading the terminal failed: {e}"
                )));
                return;
            }
        };
        if tx.send(out).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
    use crossterm::event::{KeyCode, KeyModifiers};

    /// What the script does next.
    enum Step {
        Event(io::Result<Event>),
        HangUp,
        /// The read never comes back.
        Stuck,
    }

    /// Events fed by the test; poll waits on the channel (no sleeping).
    struct Script {
        events: Receiver<Step>,
        ready: Option<io::Result<Event>>,
        /// Dropped with the source, i.e. when the thread ends.
        _alive: Sender<()>,
    }

    impl EventSource for Script {
        fn poll(&mut self, timeout: Duration) -> io::Result<Ready> {
            match self.events.recv_timeout(timeout) {
                Ok(Step::HangUp) => Ok(Ready::HungUp),
                Ok(Step::Stuck) => {
                    // As crossterm on a terminal that hung up: never back.
                    loop {
                        thread::park();
                    }
                }
                Ok(Step::Event(e)) => {
                    self.ready = Some(e);
                    Ok(Ready::Event)
                }
                Err(RecvTimeoutError::Timeout) => Ok(Ready::Nothing),
                Err(RecvTimeoutError::Disconnected) => Err(io::Error::other("script ended")),
            }
        }

        fn read(&mut self) -> io::Result<Event> {
            self.ready
                .take()
                .unwrap_or_else(|| Err(io::Error::other("read without poll")))
        }
    }

    fn script() -> (Script, Sender<Step>, Receiver<()>) {
        let (feed, events) = unbounded();
        let (alive, ended) = unbounded();
        let s = Script {
            events,
            ready: None,
            _alive: alive,
        };
        (s, feed, ended)
    }

    fn key(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    #[test]
    fn forwards_keys_and_resizes_in_order_and_ignores_the_rest() {
        let (source, feed, _ended) = script();
        let (tx, rx) = unbounded();
        let thread = InputThread::spawn_with(source, tx).expect("spawn");
        feed.send(Step::Event(Ok(Event::Key(key('f')))))
            .expect("feed");
        feed.send(Step::Event(Ok(Event::FocusGained)))
            .expect("feed");
        feed.send(Step::Event(Ok(Event::Resize(100, 30))))
            .expect("feed");
        feed.send(Step::Event(Ok(Event::Key(key('q')))))
            .expect("feed");
        assert_eq!(rx.recv(), Ok(InputEvent::Key(key('f'))));
        assert_eq!(
            rx.recv(),
            Ok(InputEvent::Resize {
                width: 100,
                height: 30
            })
        );
        assert_eq!(rx.recv(), Ok(InputEvent::Key(key('q'))));
        thread.stop();
        assert!(rx.try_recv().is_err());
    }

    #[test]
    fn stop_ends_an_idle_thread() {
        let (source, _feed, ended) = script();
        let (tx, _rx) = unbounded();
        let thread = InputThread::spawn_with(source, tx).expect("spawn");
        thread.stop();
        // The source was dropped with the thread.
        assert!(ended.recv().is_err());
    }

    #[test]
    fn read_error_is_reported_and_ends_the_thread() {
        let (source, feed, ended) = script();
        let (tx, rx) = unbounded();
        let _thread = InputThread::spawn_with(source, tx).expect("spawn");
        feed.send(Step::Event(Err(io::Error::other("tty gone"))))
            .expect("feed");
        match rx.recv() {
            Ok(InputEvent::Failed(msg)) => assert!(msg.contains("tty gone"), "{msg}"),
            other => panic!("expected Failed, got {other:?}"),
        }
        assert!(ended.recv().is_err());
    }

    #[test]
    fn a_hang_up_is_reported_and_ends_the_thread() {
        let (source, feed, ended) = script();
        let (tx, rx) = unbounded();
        let _thread = InputThread::spawn_with(source, tx).expect("spawn");
        feed.send(Step::HangUp).expect("feed");
        assert_eq!(rx.recv(), Ok(InputEvent::HungUp));
        assert!(ended.recv().is_err());
    }

    #[test]
    fn stop_gives_up_on_a_thread_stuck_in_a_read() {
        let (source, feed, _ended) = script();
        let (tx, _rx) = unbounded();
        let thread = InputThread::spawn_with(source, tx).expect("spawn");
        feed.send(Step::Stuck).expect("feed");
        // Returns (the thread is left behind) instead of waiting for ever.
        thread.stop();
    }

    #[test]
    fn ends_when_the_receiver_is_gone() {
        let (source, feed, ended) = script();
        let (tx, rx) = unbounded();
        let _thread = InputThread::spawn_with(source, tx).expect("spawn");
        drop(rx);
        feed.send(Step::Event(Ok(Event::Key(key('x')))))
            .expect("feed");
        assert!(ended.recv().is_err());
    }
}
