//! `argus watch SOURCE`: follow a match from its journal, read-only. The
//! journal's lines (from a file that grows, or a referee's `--feed` over
//! TCP) are checked and replayed into a core of our own; the board shows
//! its snapshot (as an observer: no supervisor keys), or, headless, each
//! move and result is printed as a line. With `--copy` the fed lines are
//! also kept in a file, for a standby machine to take over with
//! `argus resume`.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, Seek, SeekFrom, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender, never, unbounded};

use crate::app::turn::{Wake, select_event};
use log::{info, warn};

use crate::app::audience::Audience;
use crate::app::options::WatchArgs;
use crate::app::signals;
use crate::app::tail::{
    FeedState, RECONNECT, SourceError, SourceReport, connect, each_connection, follow_file,
};
use crate::app::{Completion, Exit, Failure};
use crate::display::{
    InputEvent, InputThread, LinkState, LinkView, Role, TerminalGuard, Ui, next_redraw_in,
};
use crate::journal::follow::Followed;
use crate::journal::kind::{Kind, recognise_file};
use crate::journal::reader::{JournalError, RawLine, read_line};
use crate::journal::{Decoded, Entry, MatchFollower, Replay};
use crate::record::durable::append_pgn;
use crate::referee::{ClientId, Command, Event, GameOver, Output, words};

/// At most this many lines are replayed between two draws of the board.
const DRAIN_LIMIT: usize = 10_000;

/// Why a watch stopped before its match was over.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// A line of the journal that does not read, or that its match cannot
    /// take (the error says the line's number).
    #[error(transparent)]
    Line(#[from] JournalError),
    /// The journal file was cut below what was already read.
    #[error("the journal was cut to {len} bytes, below what was already read ({read} bytes)")]
    Shrunk { len: u64, read: u64 },
    /// The source's reader failed (a file that cannot be read, a feed
    /// that serves another match than the copy).
    #[error("{0}")]
    Source(SourceError),
    #[error("the source stopped")]
    SourceStopped,
    #[error("cannot set up the terminal: {0}")]
    Terminal(std::io::Error),
    #[error("{0}")]
    InputStart(std::io::Error),
    #[error("cannot draw on the terminal: {0}")]
    Draw(std::io::Error),
    #[error("terminal input failed: {0}")]
    InputFailed(String),
    #[error("terminal input stopped")]
    InputStopped,
    /// The local copy (`--copy`).
    #[error(transparent)]
    Copy(#[from] CopyError),
}

/// Why the local copy of a fed journal (`--copy FILE`) cannot be kept.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    /// The copy cannot be opened, read, prepared (cut to its whole
    /// lines), written or synced: what was being done, and the error.
    #[error("cannot {doing} the copy {}: {source}", path.display())]
    Io {
        doing: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    /// It is locked by another watcher, or cannot be locked (the error
    /// names the file).
    #[error("{0}")]
    Lock(std::io::Error),
    /// A line of it that does not read as the match's journal.
    #[error("the copy {}: {error}", path.display())]
    Line { path: PathBuf, error: JournalError },
}

fn copy_io(doing: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> CopyError {
    let path = path.to_path_buf();
    move |source| CopyError::Io {
        doing,
        path,
        source,
    }
}

/// Where the lines come from.
#[derive(Debug, Clone)]
enum Source {
    File(PathBuf),
    Tcp(String),
}

impl Source {
    fn parse(s: &str) -> Source {
        match s.strip_prefix("tcp://") {
            Some(addr) => Source::Tcp(addr.trim_end_matches('/').to_string()),
            None => Source::File(PathBuf::from(s)),
        }
    }
}

/// Runs `argus watch`: it ends normally when the match is over; a damaged
/// journal or a feed that fails for good is a failure.
pub fn run(args: WatchArgs) -> Exit {
    let source = Source::parse(&args.source);
    let kind = match &source {
        Source::File(path) => recognise_file(path).map_err(Failure::usage)?,
        Source::Tcp(_) => None,
    };
    if let (Source::File(path), Some(Kind::Tournament)) = (&source, kind) {
        if args.copy.is_some() {
            return Err(Failure::usage(
                "watching a tournament's journal takes no --copy (a journal file is its own \
                 copy; --copy is for its --feed, tcp://HOST:PORT)",
            ));
        }
        let view = args.view.view();
        return crate::app::tournament::watch::run(path, view, &args.web, args.pgn.as_deref());
    }
    if let Source::Tcp(addr) = &source
        && serves_files(addr)?
    {
        let view = args.view.view();
        return crate::app::tournament::watch::run_feed(
            addr,
            args.copy.as_deref(),
            view,
            &args.web,
            args.pgn.as_deref(),
        );
    }
    if args.copy.is_some() && matches!(source, Source::File(_)) {
        return Err(Failure::usage(
            "--copy is for a tcp:// source (a journal file is its own copy)",
        ));
    }
    let mut watcher = Watcher::new(args.view.headless, args.pgn.clone());
    watcher.audience = Audience::start(&args.web).map_err(Failure::usage)?;
    // An existing copy: replay it quietly, and skip its lines in the feed.
    let mut copy = None;
    let mut skip = None;
    if let Some(path) = &args.copy {
        let (c, s) = JournalCopy::open(path, &mut watcher).map_err(Failure::usage)?;
        copy = Some(c);
        skip = s;
    }
    let (tx, rx) = unbounded();
    let spawned = match source.clone() {
        Source::File(path) => thread::Builder::new()
            .name("watch file".into())
            .spawn(move || follow_file(&path, Kind::Match, &tx)),
        Source::Tcp(addr) => thread::Builder::new()
            .name("watch feed".into())
            .spawn(move || follow_tcp(&addr, skip, &tx)),
    };
    spawned.map_err(|e| Failure::failed(format!("cannot start: {e}")))?;
    let result = if args.view.headless {
        watcher.run_headless(&rx, copy.as_mut())
    } else {
        watcher.run_board(&rx, copy.as_mut(), args.view.ascii, &args.source)
    };
    result.map_err(Failure::failed)?;
    if watcher.over()
        && let Some(a) = watcher.audience.take()
    {
        a.linger(&signals::stop_requests("argus watch"));
    }
    Ok(Completion::Normal)
}

/// The replaying side: the journal's follower, printing.
struct Watcher {
    follower: MatchFollower,
    headless: bool,
    pgn: Option<PathBuf>,
    /// When the last input arrived (for the clocks between lines).
    last_input: Option<Instant>,
    quiet: bool,
    /// The web view (`--http`), and whether the core changed since it
    /// was last published.
    audience: Option<Audience>,
    unpublished: bool,
}

impl Watcher {
    fn new(headless: bool, pgn: Option<PathBuf>) -> Watcher {
        Watcher {
            follower: MatchFollower::new(),
            headless,
            pgn,
            last_input: None,
            quiet: false,
            audience: None,
            unpublished: false,
        }
    }

    fn replay(&self) -> Option<&Replay> {
        self.follower.replay()
    }

    fn over(&self) -> bool {
        self.replay().is_some_and(|r| r.core().is_over())
    }

    /// The journal time now: the last input's, plus the time since it came.
    fn now(&self) -> u64 {
        let at = self.replay().map_or(0, Replay::last_at);
        let since = self
            .last_input
            .map_or(0, |t| t.elapsed().as_millis() as u64);
        at.saturating_add(since)
    }

    fn say(&self, text: &str) {
        if self.headless && !self.quiet {
            crate::app::stdout::line(text);
        }
    }

    /// Takes one line. Returns whether the line is good (to be copied).
    fn line(&mut self, line: &[u8]) -> Result<bool, JournalError> {
        let decoded = self.follower.decode(line)?;
        let is_input = matches!(decoded, Decoded::Entry(Entry::Input { .. }));
        let followed = self.follower.take(decoded)?;
        let good = followed.is_good();
        match followed {
            Followed::Held | Followed::HeaderLine => {}
            Followed::Started => {
                if let Some(h) = self.follower.header() {
                    let s = &h.settings;
                    self.say(&format!(
                        "watching session {}: {}, 1 game, time control {}",
                        h.session, s.event, s.time_control
                    ));
                }
            }
            Followed::Applied(outs) => {
                if is_input {
                    self.last_input = Some(Instant::now());
                    self.unpublished = true;
                }
                for o in outs {
                    self.output(o);
                }
            }
        }
        Ok(good)
    }

    /// An output of the replayed core: its line (`referee::words`), and a
    /// finished game appended to `--pgn`.
    fn output(&mut self, o: Output) {
        let Output::Event(event) = o else { return };
        if let Some(line) = words::watch_line(&event) {
            self.say(&line);
        }
        if let Event::GameOver(g) = event {
            self.game_over(&g);
        }
    }

    /// Publishes the board to the web view if it changed: once per burst
    /// of lines, not per line (a long journal is replayed at the start).
    fn publish(&mut self) {
        if !self.unpublished {
            return;
        }
        self.unpublished = false;
        let at = self.now();
        if let (Some(a), Some(r)) = (self.audience.as_mut(), self.follower.replay()) {
            a.publish(r.core(), at);
        }
    }

    fn game_over(&mut self, g: &GameOver) {
        if let Some(a) = self.audience.as_mut() {
            a.game_over(g);
        }
        if self.quiet {
            return;
        }
        if let Some(path) = &self.pgn
            && let Err(e) = append_pgn(path, &g.pgn)
        {
            warn!("cannot append to {}: {e}", path.display());
            eprintln!("argus watch: cannot append to {}: {e}", path.display());
        }
    }

    /// Handles one report of the source; `Err` ends the watch.
    fn take_report(
        &mut self,
        report: SourceReport,
        copy: Option<&mut JournalCopy>,
    ) -> Result<(), WatchError> {
        match report {
            SourceReport::Line(l) => {
                if self.line(&l)?
                    && let Some(c) = copy
                {
                    c.push(&l)?;
                }
            }
            SourceReport::Shrunk(len) => {
                if len != self.follower.offset() {
                    return Err(WatchError::Shrunk {
                        len,
                        read: self.follower.offset(),
                    });
                }
                self.follower.drop_held();
            }
            SourceReport::Status(s) => {
                info!("{s}");
                if self.headless {
                    eprintln!("argus watch: {s}");
                }
            }
            SourceReport::Idle => {}
            SourceReport::Failed(e) => return Err(WatchError::Source(e)),
        }
        Ok(())
    }

    /// A source's report and everything queued behind it (at most
    /// [`DRAIN_LIMIT`]; the rest stays queued), then one publish and, once
    /// the queue is empty, the copy's sync: the board view draws once per
    /// burst.
    fn take_burst(
        &mut self,
        first: SourceReport,
        rx: &Receiver<SourceReport>,
        status: &mut String,
        mut copy: Option<&mut JournalCopy>,
    ) -> Result<(), WatchError> {
        for f in std::iter::once(first)
            .chain(rx.try_iter())
            .take(DRAIN_LIMIT)
        {
            match f {
                SourceReport::Status(s) => *status = s,
                f => self.take_report(f, copy.as_deref_mut())?,
            }
        }
        self.publish();
        if rx.is_empty()
            && let Some(c) = copy
        {
            c.sync()?;
        }
        Ok(())
    }

    fn run_headless(
        &mut self,
        rx: &Receiver<SourceReport>,
        mut copy: Option<&mut JournalCopy>,
    ) -> Result<(), WatchError> {
        let ctrl_rx = signals::stop_requests("argus watch");
        let no_keys = never();
        // A watcher whose stdout went (`| head`) has no one to tell.
        while !self.over() && !crate::app::stdout::gone() {
            match select_event(rx, &no_keys, &ctrl_rx, None) {
                Wake::Source(Some(f)) => {
                    self.take_report(f, copy.as_deref_mut())?;
                    // Sync the copy and publish once the burst is read.
                    if rx.is_empty() {
                        self.publish();
                        if let Some(c) = copy.as_deref_mut() {
                            c.sync()?;
                        }
                    }
                }
                Wake::Source(None) => return Err(WatchError::SourceStopped),
                Wake::Stop(_) => break,
                Wake::Key(_) | Wake::KeysGone | Wake::Timer => {}
            }
        }
        if let Some(c) = copy {
            c.sync()?;
        }
        Ok(())
    }

    fn run_board(
        &mut self,
        rx: &Receiver<SourceReport>,
        mut copy: Option<&mut JournalCopy>,
        ascii: bool,
        source: &str,
    ) -> Result<(), WatchError> {
        let mut guard = TerminalGuard::init().map_err(WatchError::Terminal)?;
        let (key_tx, key_rx) = unbounded();
        let input = InputThread::spawn(key_tx).map_err(WatchError::InputStart)?;
        let mut ui = Ui::new(ascii, Role::Observer);
        // Ctrl-C, SIGTERM and SIGHUP end the watch with the terminal put
        // back (the default action left it raw, on the alternate screen).
        let stop_rx = signals::stop_requests("argus watch");
        let mut status = String::from("waiting for the journal");
        let result = loop {
            let snap = self.replay().map(|r| r.core().snapshot(self.now()));
            if let Some(snap) = &snap {
                let links = self.link_views(source, &status);
                if let Err(e) = guard
                    .terminal()
                    .draw(|f| ui.render(f, snap, &links, self.now()))
                {
                    if crate::display::hung_up() {
                        break Ok(());
                    }
                    break Err(WatchError::Draw(e));
                }
            }
            let tick = snap.as_ref().and_then(next_redraw_in);
            match select_event(rx, &key_rx, &stop_rx, tick) {
                Wake::Source(Some(f)) => {
                    if let Err(e) = self.take_burst(f, rx, &mut status, copy.as_deref_mut()) {
                        break Err(e);
                    }
                }
                Wake::Source(None) => break Err(WatchError::SourceStopped),
                Wake::Key(InputEvent::Key(k)) => {
                    let quit = match &snap {
                        Some(snap) => ui.handle_key(k, snap) == Some(Command::EndSession),
                        None => matches!(k.code, crossterm::event::KeyCode::Char('q')),
                    };
                    if quit {
                        break Ok(());
                    }
                }
                Wake::Key(InputEvent::Resize { .. }) | Wake::Timer => {}
                Wake::Key(InputEvent::Failed(why)) => break Err(WatchError::InputFailed(why)),
                // Nobody is left to watch.
                Wake::Key(InputEvent::HungUp) => break Ok(()),
                Wake::KeysGone => break Err(WatchError::InputStopped),
                Wake::Stop(_) => break Ok(()),
            }
        };
        input.stop();
        let _ = guard.restore();
        if let Some(c) = copy {
            c.sync()?;
        }
        if let Some(r) = self.replay()
            && r.core().is_over()
        {
            crate::app::stdout::line(&game_summary(r.core(), r.last_at()).to_string());
        }
        result
    }

    fn link_views(&self, source: &str, status: &str) -> [LinkView; 2] {
        let ports = self
            .replay()
            .map(|r| r.core().settings().ports.clone())
            .unwrap_or_default();
        let up = self
            .replay()
            .map(|r| r.core().snapshot(r.last_at()).clients.map(|c| c.link_up))
            .unwrap_or_default();
        ClientId::BOTH.map(|id| LinkView {
            port: ports[id].clone(),
            settings: match id {
                ClientId::A => format!("watching {source}"),
                ClientId::B => status.to_string(),
            },
            state: LinkState::up_or_lost(up[id]),
            bytes_in: 0,
            bytes_out: 0,
        })
    }
}

/// The local copy of a fed journal.
struct JournalCopy {
    file: File,
    path: PathBuf,
}

/// What the feed's first lines must be to continue a copy: how many lines
/// the copy has, its second line (the session) and its last line.
#[derive(Debug, Clone)]
struct Skip {
    lines: usize,
    session: Vec<u8>,
    last: Vec<u8>,
}

impl JournalCopy {
    /// Opens (or creates) the copy; an existing copy is replayed quietly
    /// into `watcher` and its torn tail cut off.
    fn open(path: &Path, watcher: &mut Watcher) -> Result<(JournalCopy, Option<Skip>), CopyError> {
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .truncate(false)
            .open(path)
            .map_err(copy_io("open", path))?;
        crate::journal::writer::lock(&file, path, "copy").map_err(CopyError::Lock)?;
        let mut skip = Skip {
            lines: 0,
            session: Vec::new(),
            last: Vec::new(),
        };
        watcher.quiet = true;
        let mut reader = BufReader::new(&file);
        let mut buf = Vec::new();
        loop {
            let line = read_line(&mut reader, &mut buf).map_err(copy_io("read", path))?;
            if line != RawLine::Whole {
                break;
            }
            let good = watcher.line(&buf).map_err(|error| CopyError::Line {
                path: path.to_path_buf(),
                error,
            })?;
            if !good {
                break; // held: torn if it is the last, cut below
            }
            skip.lines += 1;
            if skip.lines == 2 {
                skip.session = buf.clone();
            }
            skip.last = buf.clone();
        }
        drop(reader);
        watcher.quiet = false;
        watcher.follower.drop_held();
        let valid = watcher.follower.offset();
        file.set_len(valid)
            .and_then(|()| file.seek(SeekFrom::Start(valid)).map(|_| ()))
            .map_err(copy_io("prepare", path))?;
        let skip = (skip.lines > 0).then_some(skip);
        if let Some(s) = &skip {
            info!(
                "the copy {} holds {} lines; the feed goes on after them",
                path.display(),
                s.lines
            );
        }
        Ok((
            JournalCopy {
                file,
                path: path.to_path_buf(),
            },
            skip,
        ))
    }

    fn push(&mut self, line: &[u8]) -> Result<(), CopyError> {
        self.file
            .write_all(line)
            .and_then(|()| self.file.write_all(b"\n"))
            .map_err(copy_io("write", &self.path))
    }

    fn sync(&mut self) -> Result<(), CopyError> {
        self.file.sync_data().map_err(copy_io("sync", &self.path))
    }
}

/// Reads the feed's lines, reconnecting when it closes; an existing copy's
/// lines are skipped once they are seen to match.
fn follow_tcp(addr: &str, skip: Option<Skip>, tx: &Sender<SourceReport>) {
    let mut have = skip.as_ref().map_or(0, |s| s.lines);
    let session = skip.as_ref().map(|s| s.session.clone());
    let mut last = skip.map(|s| s.last).unwrap_or_default();
    let tell = |state: FeedState| {
        let report = match state {
            FeedState::Unreachable(say) | FeedState::Connected(say) => SourceReport::Status(say),
            FeedState::Waiting => SourceReport::Idle,
        };
        tx.send(report).is_ok()
    };
    each_connection(addr, tell, |stream| {
        let mut reader = BufReader::new(stream);
        let mut n = 0usize;
        let mut buf = Vec::new();
        let why = loop {
            match read_line(&mut reader, &mut buf) {
                Ok(RawLine::End) => break "the feed closed".to_string(),
                Ok(RawLine::Partial) => break "the feed sent a line without an end".to_string(),
                Ok(RawLine::Whole) => {}
                Err(e) => break format!("the feed failed: {e}"),
            }
            n += 1;
            if n <= have {
                if n == 2
                    && let Some(s) = &session
                    && *s != buf
                {
                    let _ = tx.send(SourceReport::Failed(SourceError::OtherMatch {
                        addr: addr.to_string(),
                        served: String::from_utf8_lossy(&buf).into_owned(),
                        copied: String::from_utf8_lossy(s).into_owned(),
                    }));
                    return ControlFlow::Break(());
                }
                if n == have && buf != last {
                    let _ = tx.send(SourceReport::Failed(SourceError::Differs {
                        addr: addr.to_string(),
                        line: n,
                    }));
                    return ControlFlow::Break(());
                }
                continue;
            }
            have = n;
            last = buf.clone();
            if tx.send(SourceReport::Line(buf.clone())).is_err() {
                return ControlFlow::Break(());
            }
        };
        let say = format!("{why} after {n} lines (the referee stopped?); reconnecting to {addr}");
        match tx.send(SourceReport::Status(say)) {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()),
        }
    });
}

/// Whether the feed at `addr` serves a tournament (its first line is a
/// files feed's, [`crate::journal::feed::multi`]) rather than a match's
/// journal: it is connected to (again every second until it answers) and
/// its first line read.
fn serves_files(addr: &str) -> Result<bool, Failure> {
    use crate::journal::feed::multi;
    let mut said = false;
    loop {
        let first = connect(addr).and_then(|s| {
            let mut buf = Vec::new();
            let line = crate::journal::reader::read_line_within(
                &mut BufReader::new(s),
                &mut buf,
                multi::MAX_FEED_LINE,
            )?;
            Ok((line, buf))
        });
        match first {
            Ok((RawLine::Whole, line)) => {
                return multi::is_greeting(&line)
                    .map_err(|e| Failure::usage(format!("the feed at {addr}: {e}")));
            }
            Ok(_) | Err(_) if !said => {
                said = true;
                eprintln!(
                    "argus watch: cannot reach the feed at {addr} yet; trying again every second"
                );
            }
            _ => {}
        }
        thread::sleep(RECONNECT);
    }
}

/// A game journal's one game said as the match it once was (`match over:
/// A 1 - 0 B (1 game with a result)`), the line `argus watch` ends with.
fn game_summary(core: &crate::referee::Referee, at: u64) -> crate::tournament::words::MatchSummary {
    use shakmaty::Color;
    let snap = core.snapshot(at);
    let result = snap.result.as_ref().map(|r| r.result.as_str());
    let halves = |id: ClientId| match (result, snap.clients[id].color) {
        (Some("1-0"), Some(Color::White)) | (Some("0-1"), Some(Color::Black)) => 2,
        (Some("1/2-1/2"), _) => 1,
        _ => 0,
    };
    crate::tournament::words::MatchSummary {
        names: ClientId::BOTH.map(|id| core.client_name(id)),
        score_halves: ClientId::BOTH.map(halves),
        games_with_result: u32::from(matches!(result, Some("1-0" | "0-1" | "1/2-1/2"))),
        sprt: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_held_by_another_watcher_is_refused_as_locked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("copy.journal");
        std::fs::write(&path, "").unwrap();
        let (_held, skip) = JournalCopy::open(&path, &mut Watcher::new(true, None)).unwrap();
        assert!(skip.is_none());
        let Err(e) = JournalCopy::open(&path, &mut Watcher::new(true, None)) else {
            panic!("a copy held by another watcher was taken")
        };
        assert!(matches!(e, CopyError::Lock(_)), "{e:?}");
        assert!(e.to_string().contains("in use by another argus"), "{e}");
    }
}
