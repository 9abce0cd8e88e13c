//! One readiness loop for every TCP link: a single thread (`argus-links`)
//! polls every socket of the process (`mio`), frames what it reads with
//! the same [`Framer`] and writes the records queued for each link, and
//! reports the same [`LinkEventKind`]s on each link's channel as a serial
//! link's reader and writer threads do (`Line` stamped when its read
//! returned, `Receiving`, `Sent` when the record's last byte was taken by
//! the socket, `Lost`, `Connected`, `Back`). Nothing above
//! [`Link`](super::Link) sees the difference.
//!
//! Measured against a reader and a writer thread per link
//! (docs/performance.md, "Thread-per-link against one readiness loop"):
//! about 5 KiB a connection instead of 120, three threads in all instead
//! of two a connection, less CPU a line and a shorter tail of hops from ten
//! boards on. Serial ports keep their two threads.
//!
//! * The owner's side of a link, [`PolledLink`], sends the loop
//!   [`Command`]s over one channel and wakes it (a `mio::Waker`, rung
//!   only when the loop is not already due to look).
//! * The loop owns each link's [`Entry`]: its socket (when up), framer,
//!   queue of records, and how long its writing has been stalled (a write
//!   that makes no progress is said after [`STALL_REPORT`] and loses the
//!   link after the connector's stall limit, by the poll's timeout).
//! * A listener ([`listen`](super::listen())) is on the loop as well: it
//!   accepts, and each connection is read by the loop until it signs on
//!   and is handed to its seat, or is refused ([`Greeter`]: the time limit
//!   is a timer of the loop).
//! * A link that is down (lost, or not connected yet) waits for its next
//!   connection: a listener's seat rings the loop when a client was seated
//!   there ([`Command::Seated`]); a `tcp://` link has a thread of its own
//!   only while it waits (the backoff and the blocking connect,
//!   [`Connector::redial`]), whose connection comes back to the loop as
//!   [`Command::Redialled`].
//!
//! The loop blocks only where a serial link's threads would: on a full
//! bounded event channel (its owner is behind; the input waits in the
//! sockets' buffers, nothing is lost), and then every TCP link of the
//! process waits with it.

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use mio::{Events, Interest, Poll, Registry, Token, Waker};

use super::connector::{Connection, Connector, Stream};
use super::event::{LinkEvent, LinkEventKind, LinkId, Stamp};
use super::listen::{Greeted, Greeter, Listener, Refusal};
use super::open::{OpenError, OpenErrorKind};
use super::reader::{Intake, connected};
use super::thread::{MAX_QUEUED, SendError, dequeued};
use super::writer::{Pending, STALL_REPORT, stall_limit_words, stalled_words};

/// Bytes asked for per read.
const READ_CHUNK: usize = 4096;

/// Whether a read that filled less than the buffer emptied the socket, so
/// that the read that would say `WouldBlock` can be saved (one system
/// call a line). True of epoll, which mio uses edge-triggered on Linux:
/// data that comes after the read raises a new event. Elsewhere the
/// loop reads until `WouldBlock`.
const SHORT_READ_DRAINS: bool = cfg!(any(target_os = "linux", target_os = "android"));

/// Reads of one link per loop turn before the others get theirs (a link
/// with more waiting is read again at the next turn, which does not wait).
const READS_PER_TURN: usize = 16;

/// Connections a listener accepts per loop turn before the links get
/// theirs (a listener with more waiting accepts again at the next turn).
const ACCEPTS_PER_TURN: usize = 64;

/// How long closing a link waits for the loop to report its unsent
/// records (the loop may wait on an owner's full event channel).
const CLOSE_WAIT: Duration = Duration::from_secs(2);

/// The waker's token (no link's: keys count up from 0).
const WAKE: Token = Token(usize::MAX);

/// How a link's events reach its owner (its id and channel inside).
type Emit = Arc<dyn Fn(LinkEventKind) + Send + Sync>;

/// What the owners' side asks of the loop.
enum Command {
    /// A new link: its key, entry and, if it has one, its first connection.
    Open(usize, Box<Entry>, Option<Connection>),
    /// Queue records (a unit given to `Link::send_all`).
    Send(usize, Vec<(u64, String)>),
    /// Close the link: report its unsent records, then say done.
    Close(usize, Sender<()>),
    /// A down link's thread got it a connection, after this many attempts.
    Redialled(usize, Connection, u64),
    /// A listener handed a connection to the seat of this link.
    Seated(usize),
    /// A new listening socket under this key.
    Listen(usize, Box<Listener>),
    /// Close the listener of this key, refusing the connections still
    /// signing on.
    Unlisten(usize),
}

/// The owners' way to the loop: its command channel and waker.
struct Handle {
    commands: Sender<Command>,
    waker: Waker,
    /// Set when the loop was rung and has not looked at its commands since.
    rung: Arc<AtomicBool>,
    /// The next key (a link's, a listener's or a greeting's token).
    next_key: Arc<AtomicUsize>,
}

impl Handle {
    /// Sends `command` and wakes the loop if it is not already due to look.
    fn command(&self, command: Command) -> Result<(), ()> {
        self.commands.send(command).map_err(|_| ())?;
        if !self.rung.swap(true, Ordering::SeqCst) {
            self.waker.wake().map_err(|e| {
                log::error!("the links' loop cannot be woken: {e}");
            })?;
        }
        Ok(())
    }
}

/// The process's one loop, started with the first TCP link.
static LOOP: OnceLock<Result<Handle, String>> = OnceLock::new();

/// The loop, started if it was not.
fn handle() -> Result<&'static Handle, &'static str> {
    LOOP.get_or_init(start).as_ref().map_err(String::as_str)
}

fn start() -> Result<Handle, String> {
    let poll = Poll::new().map_err(|e| format!("cannot poll sockets: {e}"))?;
    let waker =
        Waker::new(poll.registry(), WAKE).map_err(|e| format!("cannot make a waker: {e}"))?;
    let (commands, rx) = crossbeam_channel::unbounded();
    let rung = Arc::new(AtomicBool::new(false));
    let next_key = Arc::new(AtomicUsize::new(0));
    let mut the_loop = Loop {
        poll,
        commands: rx,
        rung: Arc::clone(&rung),
        next_key: Arc::clone(&next_key),
        listeners: HashMap::new(),
        greeters: HashMap::new(),
        links: HashMap::new(),
        stalled: HashSet::new(),
        again: Vec::new(),
        buf: vec![0; READ_CHUNK],
    };
    std::thread::Builder::new()
        .name("argus-links".into())
        .spawn(move || the_loop.run())
        .map_err(|e| format!("cannot start the links' thread: {e}"))?;
    Ok(Handle {
        commands,
        waker,
        rung,
        next_key,
    })
}

/// A listener on the loop; dropping it closes the listener.
pub(super) struct Listening {
    key: usize,
    handle: &'static Handle,
}

/// Puts `listener` on the loop: it accepts, greets and seats from now on.
pub(super) fn listen(listener: Listener) -> Result<Listening, &'static str> {
    let handle = handle()?;
    let key = handle.next_key.fetch_add(1, Ordering::SeqCst);
    handle
        .command(Command::Listen(key, Box::new(listener)))
        .map_err(|()| "the links' loop is gone")?;
    Ok(Listening { key, handle })
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.handle.command(Command::Unlisten(self.key));
    }
}

/// The owner's side of a TCP link on the loop.
pub(super) struct PolledLink<Id> {
    pub id: Id,
    pub path: String,
    key: usize,
    handle: &'static Handle,
    /// Units accepted by `send_all` and not yet sent or failed.
    queued: Arc<AtomicUsize>,
    /// Set once the owner said goodbye: a loss is then expected.
    farewell: Arc<AtomicBool>,
}

impl<Id: LinkId> PolledLink<Id> {
    /// Puts the link on the loop with its first connection, if
    /// `connector` has one now (see [`Link::open_with`](super::Link::open_with)).
    pub fn open(
        id: Id,
        connector: Connector,
        path: &str,
        line_end: &'static [u8],
        epoch: Instant,
        events: Sender<LinkEvent<Id>>,
    ) -> Result<PolledLink<Id>, OpenError> {
        let handle = handle().map_err(|why| {
            OpenError::new(
                path,
                OpenErrorKind::Other,
                format!("{why} (the links' loop)"),
            )
        })?;
        let first = connector.first()?;
        let key = handle.next_key.fetch_add(1, Ordering::SeqCst);
        let queued = Arc::new(AtomicUsize::new(0));
        let farewell = Arc::new(AtomicBool::new(false));
        let emit: Emit = {
            let id = id.clone();
            Arc::new(move |kind| {
                let _ = events.send(LinkEvent {
                    id: id.clone(),
                    kind,
                });
            })
        };
        let entry = Entry {
            name: id.to_string(),
            path: path.to_string(),
            epoch,
            line_end,
            emit,
            connector: Arc::new(connector),
            queued: Arc::clone(&queued),
            farewell: Arc::clone(&farewell),
            intake: Intake::new(),
            queue: VecDeque::new(),
            socket: None,
            was_up: false,
            stall: None,
            redial_stop: None,
            peer_closed: false,
        };
        handle
            .command(Command::Open(key, Box::new(entry), first))
            .map_err(|()| {
                OpenError::new(
                    path,
                    OpenErrorKind::Other,
                    "the links' loop is gone".to_string(),
                )
            })?;
        Ok(PolledLink {
            id,
            path: path.to_string(),
            key,
            handle,
            queued,
            farewell,
        })
    }

    /// Queues one unit of records (checked by the caller) if fewer than
    /// [`MAX_QUEUED`] wait.
    pub fn send_all(&self, records: Vec<(u64, String)>) -> Result<(), SendError> {
        if self.queued.fetch_add(1, Ordering::SeqCst) >= MAX_QUEUED {
            dequeued(&self.queued);
            return Err(SendError::QueueFull);
        }
        self.handle
            .command(Command::Send(self.key, records))
            .map_err(|()| {
                dequeued(&self.queued);
                SendError::Closed
            })
    }

    /// The owner said goodbye to the peer.
    pub fn farewell(&self) {
        self.farewell.store(true, Ordering::SeqCst);
    }
}

impl<Id> Drop for PolledLink<Id> {
    fn drop(&mut self) {
        let (done, closed) = crossbeam_channel::bounded(1);
        if self.handle.command(Command::Close(self.key, done)).is_err() {
            return;
        }
        if let Err(RecvTimeoutError::Timeout) = closed.recv_timeout(CLOSE_WAIT) {
            log::warn!(
                "port {}: the links' loop did not close it within {CLOSE_WAIT:?} (an owner's \
                 event channel full?); it will when it can",
                self.path
            );
        }
    }
}

/// A write that has made no progress since `since`.
struct Stall {
    since: Instant,
    /// Whether it was said ([`STALL_REPORT`]).
    reported: bool,
}

/// One link as the loop keeps it.
struct Entry {
    /// The owner's id, for the log.
    name: String,
    /// The endpoint, for the log and the events' words.
    path: String,
    epoch: Instant,
    line_end: &'static [u8],
    emit: Emit,
    connector: Arc<Connector>,
    queued: Arc<AtomicUsize>,
    farewell: Arc<AtomicBool>,
    /// Its lines and `Receiving`, from the bytes read.
    intake: Intake,
    /// Records not yet written, oldest first (the head may be part written).
    queue: VecDeque<Pending>,
    /// The connection, registered with the poll; `None` while down.
    socket: Option<mio::net::TcpStream>,
    /// Whether it had a connection before (a new one is then `Back`).
    was_up: bool,
    stall: Option<Stall>,
    /// Dropping it stops the thread that waits for the next connection.
    redial_stop: Option<Sender<()>>,
    /// The poll said the peer closed its side (or the socket failed): its
    /// input is read to the end, short reads or not, since no event will
    /// come again for that.
    peer_closed: bool,
}

impl Entry {
    fn emit(&self, kind: LinkEventKind) {
        (self.emit)(kind);
    }

    fn stamp(&self) -> Stamp {
        Stamp::since(self.epoch)
    }
}

/// What one read of a link came to.
enum Reading {
    /// Read until the socket had nothing more.
    Drained,
    /// Read its fill for this turn; more may wait.
    More,
    /// The link was lost, for this reason.
    Lost(String),
}

/// What writing a link's queue came to.
enum Written {
    /// Everything queued is written, or the socket takes no more now.
    Done,
    /// The link was lost, for this reason.
    Lost(String),
}

/// The loop's state: the poll, every link, and which links are stalled or
/// have input left.
struct Loop {
    poll: Poll,
    commands: Receiver<Command>,
    rung: Arc<AtomicBool>,
    /// Shared with the owners' side: keys for new greetings.
    next_key: Arc<AtomicUsize>,
    listeners: HashMap<usize, Listener>,
    /// Connections signing on, each with its listener's key.
    greeters: HashMap<usize, (usize, Greeter)>,
    links: HashMap<usize, Entry>,
    /// Links whose writing is stalled (their deadlines set the poll's
    /// timeout).
    stalled: HashSet<usize>,
    /// Links read to their fill last turn (and listeners that accepted
    /// theirs), read again this turn.
    again: Vec<usize>,
    buf: Vec<u8>,
}

impl Loop {
    fn run(&mut self) {
        let mut events = Events::with_capacity(1024);
        loop {
            let timeout = if self.again.is_empty() {
                self.next_deadline()
                    .map(|d| d.saturating_duration_since(Instant::now()))
            } else {
                Some(Duration::ZERO)
            };
            if let Err(e) = self.poll.poll(&mut events, timeout) {
                if e.kind() != ErrorKind::Interrupted {
                    log::error!("the links' loop cannot poll: {e}; trying again");
                    std::thread::sleep(Duration::from_millis(50));
                }
                continue;
            }
            self.rung.store(false, Ordering::SeqCst);
            while let Ok(command) = self.commands.try_recv() {
                self.command(command);
            }
            for event in &events {
                let key = event.token().0;
                if event.token() == WAKE {
                    continue;
                }
                if self.listeners.contains_key(&key) {
                    self.accept(key);
                    continue;
                }
                if self.greeters.contains_key(&key) {
                    self.greet(key);
                    continue;
                }
                if event.is_writable() {
                    self.write(key);
                }
                if (event.is_read_closed() || event.is_error())
                    && let Some(e) = self.links.get_mut(&key)
                {
                    e.peer_closed = true;
                }
                if event.is_readable() || event.is_read_closed() || event.is_error() {
                    self.read(key);
                }
            }
            for key in std::mem::take(&mut self.again) {
                match self.listeners.contains_key(&key) {
                    true => self.accept(key),
                    false => self.read(key),
                }
            }
            self.check_stalls(Instant::now());
            self.check_greetings(Instant::now());
        }
    }

    fn command(&mut self, command: Command) {
        match command {
            Command::Open(key, entry, first) => {
                self.links.insert(key, *entry);
                match first {
                    Some(c) => self.connected(key, c, None),
                    None => self.redial(key),
                }
            }
            Command::Send(key, records) => {
                if let Some(e) = self.links.get_mut(&key) {
                    e.queue.extend(Pending::unit(records, e.line_end));
                    self.write(key);
                }
            }
            Command::Close(key, done) => {
                self.close(key);
                let _ = done.send(());
            }
            Command::Seated(key) => self.seated(key),
            Command::Listen(key, mut listener) => {
                match self.poll.registry().register(
                    &mut listener.socket,
                    Token(key),
                    Interest::READABLE,
                ) {
                    Ok(()) => {
                        self.listeners.insert(key, *listener);
                    }
                    Err(e) => log::error!(
                        "listener {}: cannot poll it: {e}; it accepts nothing",
                        listener.addr()
                    ),
                }
            }
            Command::Unlisten(key) => self.unlisten(key),
            Command::Redialled(key, c, attempts) => {
                if let Some(e) = self.links.get_mut(&key) {
                    e.redial_stop = None;
                    self.connected(key, c, Some(attempts));
                }
                // Else the link was closed meanwhile: the connection goes.
            }
        }
    }

    /// A connection for link `key`: its first (`attempts` none) or one its
    /// redial thread made. Registered, reported (`Connected`, and `Back`
    /// if the link had one before), then what waited is written.
    fn connected(&mut self, key: usize, c: Connection, attempts: Option<u64>) {
        let registry = self.poll.registry();
        let Some(e) = self.links.get_mut(&key) else {
            return;
        };
        let socket = match c.stream {
            Stream::Tcp(s) => s,
            Stream::Port { .. } => {
                // Cannot happen: the loop is given TCP links only.
                log::error!("port {} ({}): not a socket; not polled", e.name, e.path);
                return;
            }
        };
        let socket = match register(registry, key, socket) {
            Ok(s) => s,
            Err(why) => {
                log::warn!(
                    "port {} ({}): cannot use the new connection: {why}",
                    e.name,
                    e.path
                );
                e.connector.lost();
                self.redial(key);
                return;
            }
        };
        if let Some(peer) = c.peer {
            e.emit(connected(&e.name, &e.path, peer, e.stamp()));
        }
        if e.was_up {
            let at = e.stamp();
            log::info!(
                "port {} ({}): link back after {} attempt(s)",
                e.name,
                e.path,
                attempts.unwrap_or(1)
            );
            e.emit(LinkEventKind::Back {
                at_ms: at.ms,
                at_us: at.us,
            });
        }
        e.socket = Some(socket);
        e.peer_closed = false;
        if !c.preread.is_empty() {
            let at = e.stamp();
            let emit = &e.emit;
            e.intake.preread(&c.preread, at, |k| emit(k));
        }
        // Registered, the socket reports what is already waiting to be
        // read; the queue goes out now.
        self.write(key);
    }

    /// Link `key` is down: a listener's seat rings the loop when its next
    /// client is seated ([`Command::Seated`]); for a `tcp://` link a thread
    /// of its own waits and connects again, and hands the connection back
    /// as [`Command::Redialled`].
    fn redial(&mut self, key: usize) {
        let Some(e) = self.links.get_mut(&key) else {
            return;
        };
        if let Connector::Seat(seat) = &*e.connector {
            seat.on_handoff(Some(Box::new(move || {
                if let Ok(h) = handle() {
                    let _ = h.command(Command::Seated(key));
                }
            })));
            // One may have been seated before the bell was hung.
            self.seated(key);
            return;
        }
        let (stop, stopped) = crossbeam_channel::bounded::<()>(1);
        let connector = Arc::clone(&e.connector);
        let emit = Arc::clone(&e.emit);
        let path = e.path.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("argus-redial-{}", e.name))
            .spawn(move || {
                let got = connector.redial(&path, &stopped, |message| {
                    emit(LinkEventKind::Unreachable { message });
                });
                if let (Some((c, attempts)), Ok(h)) = (got, handle()) {
                    let _ = h.command(Command::Redialled(key, c, attempts));
                }
            });
        match spawned {
            Ok(_) => e.redial_stop = Some(stop),
            Err(why) => {
                let message = format!(
                    "port {} ({}): cannot start a thread to connect again: {why}; the link \
                     stays down",
                    e.name, e.path
                );
                log::error!("{message}");
                e.emit(LinkEventKind::Error { message });
            }
        }
    }

    /// A connection may wait for link `key`'s seat: it is taken if the link
    /// is down (a ring for a connection already taken does nothing).
    fn seated(&mut self, key: usize) {
        let Some(e) = self.links.get(&key) else {
            return;
        };
        let Connector::Seat(seat) = &*e.connector else {
            return;
        };
        if e.socket.is_some() {
            return;
        }
        if let Some(c) = seat.try_take() {
            seat.on_handoff(None);
            self.connected(key, c, Some(1));
        }
    }

    /// Reads link `key` until its socket has nothing more (or its fill for
    /// this turn), framing and reporting what came.
    fn read(&mut self, key: usize) {
        let Some(e) = self.links.get_mut(&key) else {
            return;
        };
        match read_some(e, &mut self.buf) {
            Reading::Drained => {}
            Reading::More => self.again.push(key),
            Reading::Lost(why) => self.lose(key, why),
        }
    }

    /// Writes what link `key` has queued, as far as its socket takes it.
    fn write(&mut self, key: usize) {
        let Some(e) = self.links.get_mut(&key) else {
            return;
        };
        match write_queue(e) {
            Written::Done => {}
            Written::Lost(why) => self.lose(key, why),
        }
        match self.links.get(&key).is_some_and(|e| e.stall.is_some()) {
            true => self.stalled.insert(key),
            false => self.stalled.remove(&key),
        };
    }

    /// Link `key` lost its connection: what was half read is dropped, the
    /// socket closed, the loss reported, the record being written kept to
    /// be written again in full; then it waits for the next connection.
    fn lose(&mut self, key: usize, reason: String) {
        let registry = self.poll.registry();
        let Some(e) = self.links.get_mut(&key) else {
            return;
        };
        let at = e.stamp();
        let emit = &e.emit;
        e.intake.lost(at, |k| emit(k));
        e.stall = None;
        e.peer_closed = false;
        self.stalled.remove(&key);
        if let Some(mut socket) = e.socket.take() {
            let _ = registry.deregister(&mut socket);
        }
        e.connector.lost();
        e.was_up = true;
        let level = match e.farewell.load(Ordering::SeqCst) {
            true => log::Level::Info,
            false => log::Level::Warn,
        };
        log::log!(level, "port {} ({}): link lost: {reason}", e.name, e.path);
        e.emit(LinkEventKind::Lost {
            reason,
            at_ms: at.ms,
            at_us: at.us,
        });
        let line_end = e.line_end;
        if let Some(head) = e.queue.front_mut() {
            head.cut_off(line_end);
        }
        self.redial(key);
    }

    /// Link `key` is closed by its owner: its records not written are
    /// reported `SendFailed`, its socket closed, its redial thread stopped.
    fn close(&mut self, key: usize) {
        self.stalled.remove(&key);
        let Some(mut e) = self.links.remove(&key) else {
            return;
        };
        if let Connector::Seat(seat) = &*e.connector {
            seat.on_handoff(None);
        }
        if let Some(mut socket) = e.socket.take() {
            let _ = self.poll.registry().deregister(&mut socket);
        }
        for p in std::mem::take(&mut e.queue) {
            if p.ends_unit {
                dequeued(&e.queued);
            }
            e.emit(LinkEventKind::SendFailed {
                seq: p.seq,
                text: p.text,
                reason: "the link was closed before the record could be sent".to_string(),
            });
        }
    }

    /// When the first stalled link is due to be said or lost, or the first
    /// greeting runs out of time.
    fn next_deadline(&self) -> Option<Instant> {
        let stalls = self
            .stalled
            .iter()
            .filter_map(|key| self.links.get(key))
            .filter_map(stall_deadline);
        let greetings = self.greeters.values().map(|(_, g)| g.deadline());
        stalls.chain(greetings).min()
    }

    /// Accepts what waits on listener `key`: each connection its address
    /// allows, while a greeting place is free, is read by the loop until it
    /// signs on; the others are closed unread.
    fn accept(&mut self, key: usize) {
        for _ in 0..ACCEPTS_PER_TURN {
            let Some(listener) = self.listeners.get(&key) else {
                return;
            };
            let (stream, peer) = match listener.socket.accept() {
                Ok(got) => got,
                Err(e) if e.kind() == ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => {
                    // Out of descriptors and the like: the connection waits
                    // in the backlog until the next one comes.
                    log::warn!("listener {}: accept failed: {e}", listener.addr());
                    return;
                }
            };
            let Some(mut greeter) = listener.admit(stream, peer) else {
                continue;
            };
            let gkey = self.next_key.fetch_add(1, Ordering::SeqCst);
            if let Err(e) =
                self.poll
                    .registry()
                    .register(&mut greeter.stream, Token(gkey), Interest::READABLE)
            {
                log::warn!("listener {}: cannot read from {peer}: {e}", listener.addr());
                continue;
            }
            self.greeters.insert(gkey, (key, greeter));
        }
        // A storm of connections: the links get their turn first.
        self.again.push(key);
    }

    /// Reads what greeting `gkey`'s connection sent; ends the greeting
    /// when it signed on or is refused.
    fn greet(&mut self, gkey: usize) {
        let Some((_, greeter)) = self.greeters.get_mut(&gkey) else {
            return;
        };
        if let Some(ended) = greeter.read() {
            self.end_greeting(gkey, ended);
        }
    }

    /// Takes greeting `gkey` off the poll and ends it as `ended` says.
    fn end_greeting(&mut self, gkey: usize, ended: Greeted) {
        if let Some((_, mut greeter)) = self.greeters.remove(&gkey) {
            let _ = self.poll.registry().deregister(&mut greeter.stream);
            greeter.finish(ended);
        }
    }

    /// Ends the greetings out of time.
    fn check_greetings(&mut self, now: Instant) {
        if self.greeters.is_empty() {
            return;
        }
        let late: Vec<(usize, Greeted)> = self
            .greeters
            .iter()
            .filter_map(|(gkey, (_, g))| g.tick(now).map(|ended| (*gkey, ended)))
            .collect();
        for (gkey, ended) in late {
            self.end_greeting(gkey, ended);
        }
    }

    /// Closes listener `key` (its last seat was let go of): the
    /// connections still signing on are refused.
    fn unlisten(&mut self, key: usize) {
        let Some(mut listener) = self.listeners.remove(&key) else {
            return;
        };
        let _ = self.poll.registry().deregister(&mut listener.socket);
        let theirs: Vec<usize> = self
            .greeters
            .iter()
            .filter(|(_, (l, _))| *l == key)
            .map(|(gkey, _)| *gkey)
            .collect();
        for gkey in theirs {
            self.end_greeting(gkey, Greeted::Refused(Refusal::Closing));
        }
        log::info!("listener {}: stopped", listener.addr());
    }

    /// Says the writes stalled for [`STALL_REPORT`]; loses the links whose
    /// writes are stalled past their limit.
    fn check_stalls(&mut self, now: Instant) {
        if self.stalled.is_empty() {
            return;
        }
        let mut lost = Vec::new();
        for key in &self.stalled {
            let Some(e) = self.links.get_mut(key) else {
                continue;
            };
            let Some(stall) = e.stall.as_mut() else {
                continue;
            };
            let limit = e.connector.stall_limit();
            if now.saturating_duration_since(stall.since) >= limit {
                lost.push((*key, stall_limit_words(limit)));
            } else if !stall.reported && now.saturating_duration_since(stall.since) >= STALL_REPORT
            {
                stall.reported = true;
                if let Some(head) = e.queue.front() {
                    let message = stalled_words(&e.path, &head.text);
                    e.emit(LinkEventKind::Error { message });
                }
            }
        }
        for (key, why) in lost {
            self.lose(key, why);
        }
    }
}

/// When link `e`'s stalled write is next due: to be said, or to lose it.
fn stall_deadline(e: &Entry) -> Option<Instant> {
    let stall = e.stall.as_ref()?;
    let after = match stall.reported {
        false => STALL_REPORT,
        true => e.connector.stall_limit(),
    };
    Some(stall.since + after)
}

/// A connected socket made non-blocking and registered for reading and
/// writing under `key`.
fn register(
    registry: &Registry,
    key: usize,
    socket: TcpStream,
) -> std::io::Result<mio::net::TcpStream> {
    socket.set_nonblocking(true)?;
    let mut socket = mio::net::TcpStream::from_std(socket);
    registry.register(
        &mut socket,
        Token(key),
        Interest::READABLE | Interest::WRITABLE,
    )?;
    Ok(socket)
}

/// Reads `e`'s socket until it would block, at most [`READS_PER_TURN`]
/// times, framing and reporting what came.
fn read_some(e: &mut Entry, buf: &mut [u8]) -> Reading {
    for _ in 0..READS_PER_TURN {
        let Some(socket) = e.socket.as_mut() else {
            return Reading::Drained;
        };
        let n = match socket.read(buf) {
            Ok(0) => {
                return Reading::Lost(
                    "end of file: the port was closed or the device is gone".to_string(),
                );
            }
            Ok(n) => n,
            Err(err) if err.kind() == ErrorKind::WouldBlock => return Reading::Drained,
            Err(err) if err.kind() == ErrorKind::Interrupted => continue,
            Err(err) => return Reading::Lost(format!("read failed: {err} ({:?})", err.kind())),
        };
        let at = e.stamp();
        let emit = &e.emit;
        e.intake
            .chunk(buf.get(..n).unwrap_or_default(), at, |k| emit(k));
        if SHORT_READ_DRAINS && n < buf.len() && !e.peer_closed {
            return Reading::Drained;
        }
    }
    Reading::More
}

/// Writes `e`'s queue as far as its socket takes it, reporting each record
/// `Sent` when its last byte is taken; notes when the socket takes no
/// more with records waiting (the stall).
fn write_queue(e: &mut Entry) -> Written {
    loop {
        let Some(socket) = e.socket.as_mut() else {
            return Written::Done;
        };
        let Some(head) = e.queue.front_mut() else {
            e.stall = None;
            return Written::Done;
        };
        match socket.write(head.rest()) {
            Ok(0) if !head.rest().is_empty() => {
                return Written::Lost("the port accepted no bytes".to_string());
            }
            Ok(n) => {
                head.wrote(n);
                e.stall = None;
                if head.rest().is_empty()
                    && let Some(done) = e.queue.pop_front()
                {
                    if done.ends_unit {
                        dequeued(&e.queued);
                    }
                    let at = e.stamp();
                    e.emit(done.sent(at));
                }
            }
            Err(err) if err.kind() == ErrorKind::WouldBlock => {
                if e.stall.is_none() {
                    e.stall = Some(Stall {
                        since: Instant::now(),
                        reported: false,
                    });
                }
                return Written::Done;
            }
            Err(err) if err.kind() == ErrorKind::Interrupted => {}
            Err(err) => {
                return Written::Lost(format!("write failed: {err} ({:?})", err.kind()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::{SocketAddr, TcpListener};

    use crossbeam_channel::Receiver;

    use super::*;
    use crate::link::{Link, PortSettings};

    /// A link to a listener of the test's own, and the connection it made.
    fn linked(
        name: &'static str,
    ) -> (
        Link<&'static str>,
        Receiver<LinkEvent<&'static str>>,
        TcpListener,
        TcpStream,
    ) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let (tx, rx) = crossbeam_channel::unbounded();
        let connector = Connector::Connect {
            host: "127.0.0.1".into(),
            port,
            hello: None,
        };
        let link = Link::open_with(
            name,
            connector,
            &format!("tcp://127.0.0.1:{port}"),
            PortSettings::default(),
            Instant::now(),
            tx,
        )
        .unwrap();
        let (peer, _) = listener.accept().unwrap();
        (link, rx, listener, peer)
    }

    /// The next event that `pick` takes, within `within`; the ones before
    /// it are skipped.
    fn next<T>(
        rx: &Receiver<LinkEvent<&'static str>>,
        within: Duration,
        pick: impl Fn(LinkEventKind) -> Option<T>,
    ) -> T {
        let end = Instant::now() + within;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(e) => {
                    if let Some(t) = pick(e.kind) {
                        return t;
                    }
                }
                Err(e) => panic!("no such event within {within:?}: {e}"),
            }
        }
    }

    const SOON: Duration = Duration::from_secs(10);

    #[test]
    fn a_polled_link_reports_lines_and_sends_records() {
        let (link, rx, _listener, peer) = linked("A");
        assert!(next(&rx, SOON, |k| match k {
            LinkEventKind::Connected { peer, .. } => Some(peer.starts_with("127.0.0.1:")),
            _ => None,
        }));
        // A line in two pieces: `Receiving` for the first, then the line.
        let mut w = peer.try_clone().unwrap();
        w.write_all(b"refreq sign").unwrap();
        next(&rx, SOON, |k| {
            matches!(k, LinkEventKind::Receiving { .. }).then_some(())
        });
        w.write_all(b"_on;\r\n").unwrap();
        let text = next(&rx, SOON, |k| match k {
            LinkEventKind::Line { text, raw, .. } => Some((text, raw)),
            _ => None,
        });
        assert_eq!(
            text,
            (
                "refreq sign_on;".to_string(),
                b"refreq sign_on;\r\n".to_vec()
            )
        );
        link.send_all(vec![(7, "refcom one;".into()), (8, "refcom two;".into())])
            .unwrap();
        let mut r = BufReader::new(peer);
        let mut got = String::new();
        r.read_line(&mut got).unwrap();
        r.read_line(&mut got).unwrap();
        assert_eq!(got, "refcom one;\r\nrefcom two;\r\n");
        let sent: Vec<(u64, Vec<u8>)> = (0..2)
            .map(|_| {
                next(&rx, SOON, |k| match k {
                    LinkEventKind::Sent { seq, wire, .. } => Some((seq, wire)),
                    _ => None,
                })
            })
            .collect();
        assert_eq!(
            sent,
            [
                (7, b"refcom one;\r\n".to_vec()),
                (8, b"refcom two;\r\n".to_vec())
            ]
        );
    }

    #[test]
    fn a_lost_connection_is_made_again_and_what_waited_goes_out_after_back() {
        let (link, rx, listener, peer) = linked("B");
        // Half a line, then the peer goes: the half is dropped, the link lost.
        (&peer).write_all(b"refreq hal").unwrap();
        next(&rx, SOON, |k| {
            matches!(k, LinkEventKind::Receiving { .. }).then_some(())
        });
        drop(peer);
        let dropped = next(&rx, SOON, |k| match k {
            LinkEventKind::Dropped { reason, .. } => Some(reason),
            _ => None,
        });
        assert!(dropped.contains("the link was lost"), "{dropped}");
        let lost = next(&rx, SOON, |k| match k {
            LinkEventKind::Lost { reason, .. } => Some(reason),
            _ => None,
        });
        assert!(lost.contains("end of file"), "{lost}");
        // Queued while down.
        link.send(1, "refcom waited;".into()).unwrap();
        let (again, _) = listener.accept().unwrap();
        let order: Vec<&str> = (0..3)
            .map(|_| {
                next(&rx, SOON, |k| match k {
                    LinkEventKind::Connected { .. } => Some("connected"),
                    LinkEventKind::Back { .. } => Some("back"),
                    LinkEventKind::Sent { .. } => Some("sent"),
                    _ => None,
                })
            })
            .collect();
        assert_eq!(order, ["connected", "back", "sent"]);
        let mut got = String::new();
        BufReader::new(again).read_line(&mut got).unwrap();
        assert_eq!(got, "refcom waited;\r\n");
    }

    #[test]
    fn closing_a_link_that_is_down_reports_its_records_unsent() {
        let (link, rx, listener, peer) = linked("C");
        drop(listener);
        drop(peer);
        next(&rx, SOON, |k| {
            matches!(k, LinkEventKind::Lost { .. }).then_some(())
        });
        link.send(1, "refcom one;".into()).unwrap();
        link.send_all(vec![(2, "refcom two;".into()), (3, "refcom three;".into())])
            .unwrap();
        link.close();
        let failed: Vec<u64> = rx
            .try_iter()
            .filter_map(|e| match e.kind {
                LinkEventKind::SendFailed { seq, .. } => Some(seq),
                _ => None,
            })
            .collect();
        assert_eq!(failed, [1, 2, 3]);
    }

    #[test]
    fn a_full_queue_refuses_more_and_frees_its_places_as_units_leave() {
        let (link, rx, _listener, peer) = linked("D");
        drop(_listener);
        // The peer reads nothing: a first unit of 40 MB fills the sockets'
        // buffers and stays queued, then small ones fill the queue.
        let big = "x".repeat(4000);
        link.send_all((0..10_000).map(|i| (i, big.clone())).collect())
            .unwrap();
        for i in 1..MAX_QUEUED {
            link.send(100_000 + i as u64, "refcom small;".into())
                .unwrap();
        }
        assert_eq!(
            link.send(1, "refcom one too many;".into()),
            Err(SendError::QueueFull)
        );
        // Reading frees them: the first unit is sent whole.
        let reader = std::thread::spawn(move || {
            let mut sink = [0u8; 65536];
            let mut peer = peer;
            while peer.read(&mut sink).is_ok_and(|n| n > 0) {}
        });
        next(&rx, Duration::from_secs(60), |k| match k {
            LinkEventKind::Sent { seq: 9999, .. } => Some(()),
            _ => None,
        });
        assert!(link.send(9, "refcom more;".into()).is_ok());
        drop(link);
        reader.join().unwrap();
    }

    #[test]
    fn a_peer_that_reads_nothing_is_said_stalled_and_then_lost() {
        let (link, rx, _listener, _peer) = linked("E");
        let big = "x".repeat(4000);
        // 40 MB: far more than the sockets' buffers take.
        link.send_all((0..10_000).map(|i| (i, big.clone())).collect())
            .unwrap();
        let said = next(&rx, Duration::from_secs(8), |k| match k {
            LinkEventKind::Error { message } => Some(message),
            _ => None,
        });
        assert!(said.contains("has been stalled for 2 s"), "{said}");
        let lost = next(&rx, Duration::from_secs(15), |k| match k {
            LinkEventKind::Lost { reason, .. } => Some(reason),
            _ => None,
        });
        assert!(lost.contains("no byte could be written for 10 s"), "{lost}");
    }

    /// A link on the one seat of a new listener on loopback, and the
    /// listener's address.
    fn seated(
        name: &'static str,
    ) -> (
        Link<&'static str>,
        Receiver<LinkEvent<&'static str>>,
        SocketAddr,
    ) {
        use crate::link::{ListenConfig, listen};
        let free = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = free.local_addr().unwrap();
        drop(free);
        let config = ListenConfig {
            seats: vec![("S".into(), None)],
            ..ListenConfig::default()
        };
        let seat = listen(addr, config).unwrap().pop().unwrap();
        let (tx, rx) = crossbeam_channel::unbounded();
        let link = Link::open_with(
            name,
            seat,
            "tcp-listen",
            PortSettings::default(),
            Instant::now(),
            tx,
        )
        .unwrap();
        (link, rx, addr)
    }

    /// A sign-on line of a program named `prog`, with its line end.
    fn sign_on_line() -> String {
        use crate::epd::{Fields, line_check, sign_on};
        let mut record = sign_on::record(Fields::initial(), "prog");
        line_check::append(&mut record);
        record.push_str("\r\n");
        record
    }

    /// The names of this process's threads.
    fn thread_names() -> Vec<String> {
        std::fs::read_dir("/proc/self/task")
            .map(|d| {
                d.filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
                    .map(|n| n.trim().to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn a_seat_waits_without_a_thread_and_takes_each_client_signed_on_there() {
        let (link, rx, addr) = seated("seat-S");
        let record = sign_on_line();
        for round in 0..2 {
            if cfg!(target_os = "linux") {
                let names = thread_names();
                assert!(
                    !names.iter().any(|n| n.starts_with("argus-redial")),
                    "{names:?}"
                );
            }
            let mut client = TcpStream::connect(addr).unwrap();
            client.write_all(record.as_bytes()).unwrap();
            let order: Vec<&str> = (0..2 + round)
                .map(|_| {
                    next(&rx, SOON, |k| match k {
                        LinkEventKind::Connected { .. } => Some("connected"),
                        LinkEventKind::Back { .. } => Some("back"),
                        LinkEventKind::Line { .. } => Some("line"),
                        _ => None,
                    })
                })
                .collect();
            let want: &[&str] = match round {
                0 => &["connected", "line"],
                _ => &["connected", "back", "line"],
            };
            assert_eq!(order, want, "round {round}");
            link.send(round, "refcom hello;".into()).unwrap();
            let mut got = String::new();
            BufReader::new(client.try_clone().unwrap())
                .read_line(&mut got)
                .unwrap();
            assert_eq!(got, "refcom hello;\r\n");
            drop(client);
            next(&rx, SOON, |k| {
                matches!(k, LinkEventKind::Lost { .. }).then_some(())
            });
        }
    }

    #[test]
    fn a_peer_that_closed_is_read_to_its_end_and_lost() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let near = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (mut far, _) = listener.accept().unwrap();
        // A last line and the close, both there before the loop looks.
        far.write_all(b"refreq last;\r\n").unwrap();
        drop(far);
        std::thread::sleep(Duration::from_millis(50));
        near.set_nonblocking(true).unwrap();
        let (tx, rx) = crossbeam_channel::unbounded();
        let mut e = Entry {
            name: "F".into(),
            path: "tcp://test".into(),
            epoch: Instant::now(),
            line_end: b"\r\n",
            emit: Arc::new(move |kind| {
                let _ = tx.send(kind);
            }),
            connector: Arc::new(Connector::Connect {
                host: "127.0.0.1".into(),
                port: 1,
                hello: None,
            }),
            queued: Arc::new(AtomicUsize::new(0)),
            farewell: Arc::new(AtomicBool::new(false)),
            intake: Intake::new(),
            queue: VecDeque::new(),
            socket: Some(mio::net::TcpStream::from_std(near)),
            was_up: false,
            stall: None,
            redial_stop: None,
            peer_closed: true,
        };
        let mut buf = vec![0; READ_CHUNK];
        // Told the peer closed, the loop reads past the short read to the
        // end of the stream: the line, then the loss.
        match read_some(&mut e, &mut buf) {
            Reading::Lost(why) => assert!(why.contains("end of file"), "{why}"),
            Reading::Drained => panic!("stopped at the short read: the loss would never be seen"),
            Reading::More => panic!("read its fill of 16 bytes"),
        }
        assert!(
            matches!(rx.try_recv(), Ok(LinkEventKind::Line { text, .. }) if text == "refreq last;")
        );
    }

    #[test]
    fn a_connection_that_does_not_sign_on_is_refused_in_time_while_another_is_seated() {
        let (_link, rx, addr) = seated("seat-T");
        let started = Instant::now();
        let mut silent = TcpStream::connect(addr).unwrap();
        // Another signs on meanwhile and is seated at once.
        let record = sign_on_line();
        let mut client = TcpStream::connect(addr).unwrap();
        client.write_all(record.as_bytes()).unwrap();
        next(&rx, SOON, |k| {
            matches!(k, LinkEventKind::Connected { .. }).then_some(())
        });
        assert!(started.elapsed() < Duration::from_secs(5));
        // The silent one is told to go when its 10 s are up, and closed.
        silent
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let mut got = String::new();
        silent.read_to_string(&mut got).unwrap();
        let waited = started.elapsed();
        assert!(got.contains("refcom disconnect;"), "{got:?}");
        assert!(
            waited >= Duration::from_millis(9_900) && waited < Duration::from_secs(15),
            "refused after {waited:?}"
        );
    }
}
