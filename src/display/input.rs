//! The input thread: reads terminal events and sends keys and resizes to
//! the main loop over a channel, until it is stopped.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crossbeam_channel::Sender;
use crossterm::event::{self, Event, KeyEvent};

/// How long one wait for terminal input lasts; also the longest time
/// [`InputThread::stop`] waits for the thread to notice.
pub const POLL: Duration = Duration::from_millis(100);

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
}

/// Where terminal events come from: the real terminal, or a script in
/// tests.
pub trait EventSource: Send + 'static {
    /// Waits up to `timeout` for an event; `true` when one is ready.
    fn poll(&mut self, timeout: Duration) -> io::Result<bool>;
    /// Reads the ready event.
    fn read(&mut self) -> io::Result<Event>;
}

/// The process's terminal, through crossterm.
#[derive(Debug, Default, Clone, Copy)]
pub struct TerminalEvents;

impl EventSource for TerminalEvents {
    fn poll(&mut self, timeout: Duration) -> io::Result<bool> {
        event::poll(timeout)
    }

    fn read(&mut self) -> io::Result<Event> {
        event::read()
    }
}

/// A running input thread. It ends when [`InputThread::stop`] is called or
/// the guard is dropped, when the receiving end of its channel is gone, or
/// after a read error (reported as [`InputEvent::Failed`]).
#[derive(Debug)]
pub struct InputThread {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
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
        let handle = thread::Builder::new()
            .name("argus-input".to_string())
            .spawn(move || run(source, &tx, &flag))
            .map_err(|e| {
                io::Error::new(e.kind(), format!("could not start the input thread: {e}"))
            })?;
        Ok(InputThread {
            stop,
            handle: Some(handle),
        })
    }

    /// Stops the thread and waits for it (at most about [`POLL`]).
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(handle) = self.handle.take() {
            // A panic in the thread has already been reported by the hook.
            let _ = handle.join();
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
            Ok(false) => continue,
            Ok(true) => source.read(),
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

    /// Events fed by the test; poll waits on the channel (no sleeping).
    struct Script {
        events: Receiver<io::Result<Event>>,
        ready: Option<io::Result<Event>>,
        /// Dropped with the source, i.e. when the thread ends.
        _alive: Sender<()>,
    }

    impl EventSource for Script {
        fn poll(&mut self, timeout: Duration) -> io::Result<bool> {
            match self.events.recv_timeout(timeout) {
                Ok(e) => {
                    self.ready = Some(e);
                    Ok(true)
                }
                Err(RecvTimeoutError::Timeout) => Ok(false),
                Err(RecvTimeoutError::Disconnected) => Err(io::Error::other("script ended")),
            }
        }

        fn read(&mut self) -> io::Result<Event> {
            self.ready
                .take()
                .unwrap_or_else(|| Err(io::Error::other("read without poll")))
        }
    }

    fn script() -> (Script, Sender<io::Result<Event>>, Receiver<()>) {
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
        feed.send(Ok(Event::Key(key('f')))).expect("feed");
        feed.send(Ok(Event::FocusGained)).expect("feed");
        feed.send(Ok(Event::Resize(100, 30))).expect("feed");
        feed.send(Ok(Event::Key(key('q')))).expect("feed");
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
        feed.send(Err(io::Error::other("tty gone"))).expect("feed");
        match rx.recv() {
            Ok(InputEvent::Failed(msg)) => assert!(msg.contains("tty gone"), "{msg}"),
            other => panic!("expected Failed, got {other:?}"),
        }
        assert!(ended.recv().is_err());
    }

    #[test]
    fn ends_when_the_receiver_is_gone() {
        let (source, feed, ended) = script();
        let (tx, rx) = unbounded();
        let _thread = InputThread::spawn_with(source, tx).expect("spawn");
        drop(rx);
        feed.send(Ok(Event::Key(key('x')))).expect("feed");
        assert!(ended.recv().is_err());
    }
}
