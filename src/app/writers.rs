//! The referee's records at the edge: the journal, the byte transcript, the
//! PGN files, the application log, and the headless printout. A failure to
//! write is logged with what was kept; it never stops the match.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crossbeam_channel::Sender;
use log::{error, info, warn};

use crate::chessbase::pgn::from_pgn_game;
use crate::journal::replay::Replay;
use crate::journal::{Entry, JournalWriter};
use crate::record::cbf_files::{append_game, base_ends_with};
use crate::record::durable::{append_pgn, append_text, write_atomic};
use crate::record::epd_out;
use crate::record::latest::Latest;
use crate::record::pgn::{PgnGame, write_pgn};
use crate::record::transcript::Transcript;
use crate::referee::words;
use std::collections::VecDeque;

use crate::referee::{ByClient, ClientId, Event, EventKind, Input, Output, Referee};

/// The timing of one relayed move, for benchmarks: when the mover's reply
/// arrived and when the respond that carries the move to the opponent
/// had left the port. Both are link stamps in microseconds since the
/// session's epoch, taken on the referee's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RelayTiming {
    /// The client that receives the relayed move.
    pub to: ClientId,
    /// The reply's last byte in (its `Line` event's `at_us`).
    pub line_at_us: u64,
    /// The respond's last byte out (its `Sent` event's `at_us`).
    pub sent_at_us: u64,
}

impl RelayTiming {
    /// The relay overhead: from the reply in to the respond out, in
    /// microseconds (zero if the stamps are out of order).
    pub fn overhead_us(&self) -> u64 {
        self.sent_at_us.saturating_sub(self.line_at_us)
    }
}

/// Relay timings for the benchmark, watched from outside the core's
/// path: told which record relays a move (by its sequence number) and when
/// the reply came in, it reports the timing when that record has left.
struct RelayWatch {
    tx: Sender<RelayTiming>,
    /// Per receiver, the records that relay a move to it and are not yet
    /// reported sent, oldest first: seq and the reply's `at_us`. Kept per
    /// receiver, and more than one, because a writer's `Sent` and the
    /// readers' lines come to the loop on different channels in either
    /// order: on a loaded machine the receiver's reply, the opponent's
    /// answer and the next relay to the same receiver were all handled
    /// before the first relay's `Sent` (a single slot lost that timing).
    /// At most [`RELAYS_PENDING`] each.
    expected: ByClient<VecDeque<(u64, u64)>>,
}

/// The most relays to one receiver awaiting their `Sent` that are kept
/// (the oldest is dropped past it: memory stays bounded when a writer
/// never reports).
const RELAYS_PENDING: usize = 8;

/// The least time between two rewrites of the live PGN: at most ten a
/// second, however fast the moves come (a site polling it needs no more).
pub const LIVE_PGN_GAP: Duration = Duration::from_millis(100);

/// Renders a game and replaces the live PGN file with it atomically.
fn write_live_pgn(path: &Path, game: &PgnGame) -> std::io::Result<()> {
    write_atomic(path, &write_pgn(game))
}

/// The session's writers: where what the core says goes at the edge (the
/// journal, the transcript, the PGN files, the results JSON, the ChessBase
/// base and the headless printout). Not to be confused with
/// the core's [`Output`], which they carry out.
pub struct Writers {
    transcript: Option<Transcript>,
    journal: Option<JournalWriter>,
    pgn: Option<PathBuf>,
    /// `--live-pgn`: rewritten by its own thread, the newest game only.
    live_pgn: Option<Latest<PgnGame>>,
    headless: bool,
    /// What of the core's events the headless printout shows.
    relay_timings: Option<RelayWatch>,
    cbf: Option<PathBuf>,
    /// `--pgn-min`: the PGN file gets [`PgnGame::minimal`].
    pgn_min: bool,
    /// `--epd-out`: each finished game's final position appended.
    epd_out: Option<PathBuf>,
    /// Said before each line this session writes to the application log
    /// (`board 2: `), where several sessions share it.
    label: String,
    /// Each client's label in the transcript: `A` and `B` (White and
    /// Black on a tournament's board), or what [`Writers::with_sides`]
    /// gives (a match's players, whatever colour they play).
    sides: ByClient<String>,
    /// A board's game as the event numbers it (its number, of how many):
    /// the core of a board plays a one-game match, `game 1 of 1`.
    numbering: Option<(u32, u32)>,
    /// The first output that could not be written ([`Writers::failed`]).
    failed: Option<String>,
}

/// The files each finished game of a tournament's boards goes to: the PGN
/// (`--pgn`, minimal with `--pgn-min`), the final positions (`--epd-out`)
/// and the ChessBase base (`--cbf`).
#[derive(Debug, Clone, Default)]
pub struct GameFiles {
    pub pgn: Option<PathBuf>,
    pub pgn_min: bool,
    pub epd_out: Option<PathBuf>,
    pub cbf: Option<PathBuf>,
}

/// From how many journals on one file system a group sync is one
/// `syncfs` rather than an `fdatasync` each: measured on this project's
/// virtual disk (docs/performance.md, "Group commit"), one `syncfs` costs
/// about one `fdatasync` on an idle machine whatever the number of files,
/// but while other programs write to the disk it also waits for their
/// data: then it costs several `fdatasync`s, and only beyond about ten
/// files is it the cheaper.
pub const SYNCFS_FROM: usize = 4;

/// Syncs the journals of `all` (a loop turn's group commit): one by one
/// when they are fewer than [`SYNCFS_FROM`]; else each one's lines written
/// and one `syncfs` per file system covering them all
/// ([`crate::record::durable::sync_file_systems`]). If that fails, each
/// journal is synced on its own, so that the one that fails is known
/// (and stops, as [`Writers::journal_sync`] says).
pub fn sync_journals(all: &mut [&mut Writers]) {
    if all.len() >= SYNCFS_FROM {
        let files: Vec<&std::fs::File> =
            all.iter_mut().filter_map(|w| w.journal_flushed()).collect();
        match crate::record::durable::sync_file_systems(&files) {
            Ok(()) => return,
            Err(e) => warn!("cannot sync the journals' file system ({e}); syncing each journal"),
        }
    }
    for w in all.iter_mut() {
        w.journal_sync();
    }
}

/// Whether the outputs of an input call for a journal checkpoint (a move
/// was played or a game ended).
pub fn wants_checkpoint(outs: &[Output]) -> bool {
    outs.iter()
        .any(|o| matches!(o.event(), Some(Event::MoveMade { .. } | Event::GameOver(_))))
}

/// Why a game's writers cannot be opened ([`Writers::open`]): the file
/// or directory, and the I/O error; nothing of the game is written.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The log directory cannot be made.
    #[error("cannot create the log directory {}: {source}", .dir.display())]
    LogDir {
        dir: PathBuf,
        source: std::io::Error,
    },
    /// The transcript in it cannot be opened.
    #[error("cannot open the transcript {}: {source}", .path.display())]
    Transcript {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The live PGN's writer cannot be started.
    #[error("cannot start the writer of the live PGN {}: {source}", .path.display())]
    LivePgn {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl Writers {
    /// Creates the log directory and the transcript in it
    /// (`transcript.log`, appended if it exists).
    pub fn open(
        log_dir: &Path,
        pgn: Option<PathBuf>,
        live_pgn: Option<PathBuf>,
        headless: bool,
    ) -> Result<Writers, OpenError> {
        std::fs::create_dir_all(log_dir).map_err(|source| OpenError::LogDir {
            dir: log_dir.to_path_buf(),
            source,
        })?;
        let path = log_dir.join("transcript.log");
        let transcript = match Transcript::create(&path) {
            Ok(t) => t.held(),
            Err(source) => return Err(OpenError::Transcript { path, source }),
        };
        let live_pgn = match live_pgn {
            Some(path) => match Latest::start(path.clone(), write_live_pgn, LIVE_PGN_GAP) {
                Ok(l) => Some(l),
                Err(source) => return Err(OpenError::LivePgn { path, source }),
            },
            None => None,
        };
        Ok(Writers {
            transcript: Some(transcript),
            pgn,
            live_pgn,
            ..Writers::none(headless)
        })
    }

    /// Writes nothing (for tests of the loop).
    pub fn none(headless: bool) -> Writers {
        Writers {
            transcript: None,
            journal: None,
            pgn: None,
            live_pgn: None,
            headless,
            relay_timings: None,
            cbf: None,
            pgn_min: false,
            epd_out: None,
            label: String::new(),
            sides: ByClient::new_with(|id| id.letter().to_string()),
            numbering: None,
            failed: None,
        }
    }

    /// The first output that could not be written during the session
    /// (the PGN, results file, ChessBase base, journal or transcript), in
    /// words; `None` when every write went through. The session then ends
    /// with exit status 1, whatever else it did.
    pub fn failed(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// Notes `what` failed (the first one is kept for [`Writers::failed`]).
    fn note_failure(&mut self, what: String) {
        self.failed.get_or_insert(what);
    }

    /// Appends every finished game to this ChessBase base (`--cbf`; see
    /// [`Writers::finished_game`]).
    pub fn with_cbf(mut self, base: Option<PathBuf>) -> Writers {
        self.cbf = base;
        self
    }

    /// A board's writers of finished games: `files`' PGN, EPD and
    /// ChessBase outputs (the PGN file itself is given to
    /// [`Writers::open`]).
    pub fn with_game_files(self, files: &GameFiles) -> Writers {
        self.with_pgn_min(files.pgn_min)
            .with_epd_out(files.epd_out.clone())
            .with_cbf(files.cbf.clone())
    }

    /// Writes the PGN file's games minimal (`--pgn-min`: tags, moves and
    /// result; [`PgnGame::minimal`]).
    pub fn with_pgn_min(mut self, min: bool) -> Writers {
        self.pgn_min = min;
        self
    }

    /// Appends each finished game's final position to this file as one
    /// EPD line (`--epd-out`; [`crate::record::epd_out`]).
    pub fn with_epd_out(mut self, path: Option<PathBuf>) -> Writers {
        self.epd_out = path;
        self
    }

    /// `game` as the PGN file takes it: whole, or minimal with `--pgn-min`.
    fn pgn_form(&self, game: &PgnGame) -> PgnGame {
        if self.pgn_min {
            game.minimal()
        } else {
            game.clone()
        }
    }

    /// The transcript's times are measured from `origin` (the wall-clock
    /// time of journal time 0), not from when it was opened.
    pub fn set_wall_origin(&mut self, origin: std::time::SystemTime) {
        if let Some(t) = self.transcript.as_mut() {
            t.set_wall_origin(origin);
        }
    }

    /// Starts each line this session writes to the application log with
    /// `label: ` (a tournament's boards share the log).
    pub fn with_label(mut self, label: &str) -> Writers {
        self.label = format!("{label}: ");
        self
    }

    /// Labels each client's lines in the transcript `sides` (a match's
    /// players, `A` and `B`, whichever colour each plays).
    pub fn with_sides(mut self, sides: ByClient<String>) -> Writers {
        self.sides = sides;
        self
    }

    /// Says the game's start and end as game `game` of `games` (a
    /// tournament's board: its core's game is the event's `game`).
    pub fn with_numbering(mut self, game: u32, games: u32) -> Writers {
        self.numbering = Some((game, games));
        self
    }

    /// `event` with its game numbered as the event numbers it
    /// ([`Writers::with_numbering`]).
    fn numbered<'e>(&self, event: &'e Event) -> std::borrow::Cow<'e, Event> {
        use std::borrow::Cow;
        let Some((number, total)) = self.numbering else {
            return Cow::Borrowed(event);
        };
        match event {
            Event::GameStarted { white, black, .. } => Cow::Owned(Event::GameStarted {
                game: number,
                games: total,
                white: white.clone(),
                black: black.clone(),
            }),
            Event::GameOver(g) => {
                let mut g = g.clone();
                g.game_number = number;
                Cow::Owned(Event::GameOver(g))
            }
            _ => Cow::Borrowed(event),
        }
    }

    /// Reports each relayed move's timing to `tx` from now on (for the
    /// relay benchmark, `scripts/bench/relay.rs`, through the director).
    /// Off by default.
    pub fn time_relays(&mut self, tx: Sender<RelayTiming>) {
        self.relay_timings = Some(RelayWatch {
            tx,
            expected: ByClient::default(),
        });
    }

    /// Whether relay timings are wanted (see [`Writers::time_relays`]).
    pub fn times_relays(&self) -> bool {
        self.relay_timings.is_some()
    }

    /// Record `seq` to `to` relays a move whose reply came in at
    /// `line_at_us`: its timing is reported when it has left.
    pub fn relay_expected(&mut self, to: ClientId, seq: u64, line_at_us: u64) {
        if let Some(w) = self.relay_timings.as_mut() {
            let pending = &mut w.expected[to];
            if pending.len() == RELAYS_PENDING {
                pending.pop_front();
            }
            pending.push_back((seq, line_at_us));
        }
    }

    /// Record `seq` to `to` left the port at `sent_at_us`: if it relays a
    /// move, its timing is reported. A gone receiver turns the reports off.
    pub fn relay_sent(&mut self, to: ClientId, seq: u64, sent_at_us: u64) {
        let Some(w) = self.relay_timings.as_mut() else {
            return;
        };
        let pending = &mut w.expected[to];
        // Records leave a port in order: those before `seq` were sent too.
        while pending.front().is_some_and(|&(s, _)| s < seq) {
            pending.pop_front();
        }
        let Some(&(s, line_at_us)) = pending.front() else {
            return;
        };
        if s != seq {
            return;
        }
        pending.pop_front();
        let timing = RelayTiming {
            to,
            line_at_us,
            sent_at_us,
        };
        if w.tx.send(timing).is_err() {
            self.relay_timings = None;
        }
    }

    /// Prints a line on stdout in headless mode.
    pub fn headless_line(&self, text: &str) {
        if self.headless {
            crate::app::stdout::line(text);
        }
    }

    /// Writes every input to this journal from now on.
    pub fn set_journal(&mut self, journal: JournalWriter) {
        self.journal = Some(journal);
    }

    /// Records an input to the core in the journal, when there is one: call
    /// it before the core handles the input. It reaches the disk with the
    /// next [`Writers::journal_sync`], before any output it causes leaves.
    pub fn journal_input(&mut self, input: &Input, at: u64) {
        let entry = Entry::Input {
            at,
            input: input.clone(),
        };
        self.journal_write(&entry);
    }

    /// Syncs the journal to disk (`fdatasync`): call it before carrying
    /// out outputs that leave the process (records to clients, the PGN),
    /// so that whatever the world saw, the journal has the inputs that
    /// caused it. Inputs with no such output (a rejected line, a flood of
    /// them) cost no sync of their own.
    pub fn journal_sync(&mut self) {
        let Some(j) = self.journal.as_mut() else {
            return;
        };
        if let Err(e) = j.sync() {
            self.journal_failed("sync", &e);
        }
    }

    /// The journal's file with its lines written, for a sync shared with
    /// other journals ([`sync_journals`]); `None` without a journal, or
    /// when the write failed (said: the journal stops).
    fn journal_flushed(&mut self) -> Option<&std::fs::File> {
        if let Some(e) = self.journal.as_mut()?.flush().err() {
            self.journal_failed("write", &e);
            return None;
        }
        self.journal.as_mut()?.flushed_file().ok()
    }

    /// The journal failed (`what`: "sync", "write"): it stops here, said
    /// in the log and on stdout when headless; the match goes on.
    fn journal_failed(&mut self, what: &str, e: &std::io::Error) {
        self.note_failure(format!("cannot {what} the journal: {e}"));
        error!(
            "cannot {what} the journal ({e}); it stops here: the match goes on, but cannot be resumed past this point"
        );
        self.headless_line(&format!("cannot {what} the journal: {e}"));
        self.journal = None;
    }

    /// Records the state the core reached (after a move or a game's end),
    /// for the replay to verify: call it once the input's outputs are
    /// carried out.
    pub fn journal_checkpoint(&mut self, core: &Referee, at: u64) {
        if self.journal.is_some() {
            let entry = Entry::Check(Replay::checkpoint(core, at));
            self.journal_write(&entry);
        }
    }

    /// Any other entry in the journal (not synced).
    pub fn journal_mark(&mut self, entry: &Entry) {
        self.journal_write(entry);
    }

    /// A line for people in the journal (not synced).
    pub fn journal_note(&mut self, text: &str) {
        self.journal_write(&Entry::Note(text.to_string()));
    }

    /// Appends `entry` (synced later by [`Writers::journal_sync`]).
    fn journal_write(&mut self, entry: &Entry) {
        if let Some(j) = self.journal.as_mut() {
            j.write(entry);
        }
    }

    pub fn transcript_in(&mut self, at_ms: u64, id: ClientId, raw: &[u8]) {
        if let Some(t) = self.transcript.as_mut()
            && let Err(e) = t.incoming(Duration::from_millis(at_ms), &self.sides[id], raw)
        {
            self.transcript_failed(e);
        }
    }

    /// A record that left the port: `raw` is its bytes with the line end.
    pub fn transcript_out(&mut self, at_ms: u64, id: ClientId, raw: &[u8]) {
        if let Some(t) = self.transcript.as_mut()
            && let Err(e) = t.outgoing(Duration::from_millis(at_ms), &self.sides[id], raw)
        {
            self.transcript_failed(e);
        }
    }

    pub fn transcript_rejected(&mut self, at_ms: u64, id: ClientId, raw: &[u8], reason: &str) {
        if let Some(t) = self.transcript.as_mut()
            && let Err(e) = t.rejected(Duration::from_millis(at_ms), &self.sides[id], raw, reason)
        {
            self.transcript_failed(e);
        }
    }

    pub fn transcript_note(&mut self, at_ms: u64, text: &str) {
        if let Some(t) = self.transcript.as_mut()
            && let Err(e) = t.note(Duration::from_millis(at_ms), text)
        {
            self.transcript_failed(e);
        }
    }

    fn transcript_failed(&mut self, e: std::io::Error) {
        self.note_failure(format!("cannot write the transcript: {e}"));
        error!("cannot write the transcript ({e}); it stops here, the application log goes on");
        self.transcript = None;
    }

    /// An event from the core, in words (`referee::words`): a logged one
    /// to the transcript (right after the line it is about, so a refused
    /// line is explained where it is shown) and the application log at
    /// its kind's level; on stdout in headless mode, the ones that matter
    /// there.
    pub fn event(&mut self, event: &Event, at_ms: u64) {
        let event = self.numbered(event);
        let event = event.as_ref();
        if event.logged() {
            let text = words::naming_sides(event, words::sentence(event), &self.sides);
            self.transcript_note(at_ms, &text);
            let label = &self.label;
            match event.kind() {
                EventKind::Info => info!("{label}{text}"),
                EventKind::Warning | EventKind::Rejected | EventKind::Link => {
                    warn!("{label}{text}")
                }
                EventKind::Fault => error!("{label}{text}"),
            }
        }
        if let Some(line) = words::headline(event) {
            let line = words::naming_sides(event, line, &self.sides);
            self.headless_line(&line);
        }
    }

    /// Hands the game to the live PGN's writer thread, which rewrites the
    /// file with the newest game it has (the loop never waits for the
    /// disk; the last game is always written, at the latest by
    /// [`Writers::finish`]).
    ///
    /// `game` is only called when there is a live PGN file: without one,
    /// the game's PGN is not built after every move.
    pub fn live_pgn(&mut self, game: impl FnOnce() -> Option<PgnGame>) {
        if let Some(live) = &self.live_pgn
            && let Some(g) = game()
        {
            live.set(g);
        }
    }

    /// Appends finished game number `number` to the PGN file; if that
    /// fails, the game goes into the application log so that it is not
    /// lost. Once written, the journal says so (a resume then does not
    /// write it again).
    ///
    /// With `--cbf`, the game is then appended to the ChessBase base
    /// ([`Writers::cbf_game`]).
    pub fn finished_game(&mut self, number: u32, game: &PgnGame) {
        self.finish_game(number, game, false);
    }

    /// [`Writers::finished_game`] for a game that ended before a crash and
    /// that the journal does not mark as saved: it is not appended to the
    /// ChessBase base again if it is the base's last game.
    pub fn finished_game_after_crash(&mut self, number: u32, game: &PgnGame) {
        self.finish_game(number, game, true);
    }

    /// Writes the games that ended before a crash but never reached the
    /// PGN file, as `replay` found them in the journal (one found at the
    /// file's end is only marked as saved): `argus resume` of a match, and
    /// a tournament's board carried on.
    pub fn save_unsaved(&mut self, replay: &Replay) {
        let unsaved: Vec<_> = replay.unsaved().map(|(n, g)| (*n, g.clone())).collect();
        for (number, game) in unsaved {
            if self.pgn_ends_with(&game) {
                info!("game {number} is already in the PGN file");
                self.journal_note(&format!("game {number} found in the PGN file"));
                // The ChessBase base may not have it yet.
                self.cbf_game(number, &game, true);
                // Mark it as saved without writing it again.
                self.journal_saved(number);
            } else {
                info!("game {number} ended before the crash: writing it to the PGN now");
                self.finished_game_after_crash(number, &game);
            }
        }
    }

    fn finish_game(&mut self, number: u32, game: &PgnGame, after_crash: bool) {
        let written = self.pgn_form(game);
        // The game's text is made here only for the log (append_pgn makes
        // its own): a game's PGN costs as much as a score of its moves.
        let saved = match &self.pgn {
            Some(path) => match append_pgn(path, &written) {
                Ok(()) => true,
                Err(e) => {
                    error!(
                        "cannot append to the PGN file {} ({e}); the game is kept here:\n{}",
                        path.display(),
                        write_pgn(&written)
                    );
                    let line = format!("cannot write the PGN file {}: {e}", path.display());
                    self.headless_line(&line);
                    self.note_failure(format!("{line} (the game is in the application log)"));
                    false
                }
            },
            None => {
                info!("finished game:\n{}", write_pgn(&written));
                true
            }
        };
        self.cbf_game(number, game, after_crash);
        self.epd_out_game(number, game);
        if saved {
            self.journal_saved(number);
        }
    }

    /// Appends finished game `number` to the `--cbf` base; `after_crash`,
    /// unless it is there already as the base's last game (the crash came
    /// between the append and the journal's note). What the format
    /// cannot hold (over 250 half-moves, long names, ...) is reported, in
    /// the log and on stdout when headless, and the game written without
    /// it; a game it cannot hold at all, or a base that cannot be written,
    /// is reported the same way. The match goes on either way.
    pub fn cbf_game(&mut self, number: u32, game: &PgnGame, after_crash: bool) {
        let Some(base) = self.cbf.clone() else {
            return;
        };
        let name = base.display();
        let c = from_pgn_game(game);
        for loss in &c.losses {
            let line = format!("game {number}: in the ChessBase base {name}: {loss}");
            warn!("{line}");
            self.headless_line(&line);
        }
        if !c.tags_not_kept.is_empty() {
            info!(
                "game {number}: tags the ChessBase base {name} has no place for: {}",
                c.tags_not_kept.join(", ")
            );
        }
        let written = match c.record() {
            Err(e) => Err(e.to_string()),
            Ok(record) if after_crash && base_ends_with(&base, &record) => {
                info!("game {number} is already in the ChessBase base {name}");
                Ok(())
            }
            Ok(record) => append_game(&base, &record)
                .map(|n| {
                    info!("game {number} written to the ChessBase base {name} as its game {n}")
                })
                .map_err(|e| e.to_string()),
        };
        if let Err(e) = written {
            let line = format!("game {number}: not written to the ChessBase base {name}: {e}");
            error!("{line}");
            self.headless_line(&line);
            self.note_failure(line);
        }
    }

    /// Appends finished game `number`'s final position to the `--epd-out`
    /// file, synced. A game whose moves do not read, or a file that cannot
    /// be written, is reported (the log, stdout when headless) with the
    /// game's number; the match goes on.
    fn epd_out_game(&mut self, number: u32, game: &PgnGame) {
        let Some(path) = self.epd_out.clone() else {
            return;
        };
        let written = epd_out::final_position(game)
            .map_err(|e| e.to_string())
            .and_then(|line| {
                append_text(&path, &format!("{line}\n"), "a position").map_err(|e| e.to_string())
            });
        if let Err(e) = written {
            let line = format!(
                "game {number}: its final position is not in the EPD file {}: {e}",
                path.display()
            );
            error!("{line}");
            self.headless_line(&line);
            self.note_failure(line);
        }
    }

    /// Records in the journal that finished game `number` is in the PGN
    /// file (or, without one, in the application log).
    pub fn journal_saved(&mut self, number: u32) {
        self.journal_write(&Entry::Saved { game: number });
    }

    /// Whether the PGN file ends with `game` as [`write_pgn`] renders it
    /// (it was written just before a crash, but not yet marked in the
    /// journal).
    pub fn pgn_ends_with(&self, game: &PgnGame) -> bool {
        let Some(path) = &self.pgn else {
            return false;
        };
        let want = write_pgn(&self.pgn_form(game));
        let Ok(mut f) = std::fs::File::open(path) else {
            return false;
        };
        let Ok(len) = f.metadata().map(|m| m.len()) else {
            return false;
        };
        let n = want.len() as u64;
        if len < n {
            return false;
        }
        use std::io::{Read, Seek, SeekFrom};
        let mut tail = Vec::with_capacity(want.len());
        f.seek(SeekFrom::Start(len - n)).is_ok()
            && f.take(n).read_to_end(&mut tail).is_ok()
            && tail == want.as_bytes()
    }

    /// The end of a loop turn: the transcript's lines and the journal's
    /// lines of this turn go to their files, each in one write, after the
    /// records the turn sent have left (neither is synced here: the journal
    /// was synced before any record left).
    pub fn end_turn(&mut self) {
        if let Some(j) = self.journal.as_mut()
            && let Err(e) = j.flush()
        {
            self.journal_failed("write", &e);
        }
        if let Some(t) = self.transcript.as_mut()
            && let Err(e) = t.flush()
        {
            self.transcript_failed(e);
        }
    }

    /// Flushes everything (the live PGN's last game is on disk when this
    /// returns).
    pub fn finish(&mut self) {
        if let Some(live) = self.live_pgn.take() {
            live.close();
        }
        if let Some(j) = self.journal.as_mut()
            && let Err(e) = j.sync()
        {
            error!("cannot sync the journal: {e}");
        }
        if let Some(t) = self.transcript.as_mut()
            && let Err(e) = t.flush()
        {
            error!("cannot flush the transcript: {e}");
        }
        log::logger().flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::cbf_files::open_base;
    use crate::record::pgn::PgnMove;

    fn game(sans: &[&str]) -> PgnGame {
        PgnGame {
            tags: vec![("White".into(), "alpha".into())],
            moves: sans
                .iter()
                .map(|s| PgnMove {
                    san: s.to_string(),
                    ..PgnMove::default()
                })
                .collect(),
            ..PgnGame::default()
        }
    }

    #[test]
    fn a_relay_is_timed_even_when_the_receivers_reply_is_read_before_it_was_sent() {
        let (tx, rx) = crossbeam_channel::unbounded();
        let mut w = Writers::none(true);
        w.time_relays(tx);
        // A's reply at 100 is relayed to B as record 7.
        w.relay_expected(ClientId::B, 7, 100);
        // B's instant reply is read (and relayed to A as record 8) before
        // B's writer reports record 7 sent: two threads, either order.
        w.relay_expected(ClientId::A, 8, 300);
        w.relay_sent(ClientId::B, 7, 250);
        w.relay_sent(ClientId::A, 8, 420);
        // A record that relays nothing is not timed.
        w.relay_sent(ClientId::A, 9, 500);
        let timed: Vec<_> = rx.try_iter().map(|t| (t.to, t.overhead_us())).collect();
        assert_eq!(timed, vec![(ClientId::B, 150), (ClientId::A, 120)]);
    }

    #[test]
    fn two_relays_to_one_receiver_before_the_first_is_reported_sent_are_both_timed() {
        let (tx, rx) = crossbeam_channel::unbounded();
        let mut w = Writers::none(true);
        w.time_relays(tx);
        // Relays to B as records 7 and 9 (B replied in between), and only
        // then B's writer's `Sent` of 7, then of 9.
        w.relay_expected(ClientId::B, 7, 100);
        w.relay_expected(ClientId::A, 8, 300);
        w.relay_expected(ClientId::B, 9, 500);
        w.relay_sent(ClientId::B, 7, 250);
        w.relay_sent(ClientId::A, 8, 420);
        w.relay_sent(ClientId::B, 9, 530);
        let timed: Vec<_> = rx.try_iter().map(|t| (t.to, t.overhead_us())).collect();
        assert_eq!(
            timed,
            vec![(ClientId::B, 150), (ClientId::A, 120), (ClientId::B, 30)]
        );
    }

    #[test]
    fn finished_games_go_to_the_chessbase_base_cut_where_they_do_not_fit() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("match");
        let mut out = Writers::none(false).with_cbf(Some(base.clone()));
        let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"].repeat(70);
        let long = game(&shuffle);
        out.finished_game(1, &long);
        // The same game again is a game of its own...
        out.finished_game(2, &long);
        // ...but not after a crash that came once it was written.
        out.finished_game_after_crash(2, &long);
        out.cbf_game(2, &long, true);
        // A game the format cannot hold at all is left out.
        out.finished_game(3, &game(&["e4", "Ke7"]));
        out.finished_game(4, &game(&["d4"]));
        let moves: Vec<usize> = open_base(&base)
            .unwrap()
            .map(|(_, g)| g.unwrap().moves.len())
            .collect();
        assert_eq!(moves, [250, 250, 1]);
    }

    #[test]
    fn pgn_min_writes_the_pgn_file_without_comments_and_clocks() {
        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("games.pgn");
        let mut g = game(&["e4", "e5"]);
        g.tags.push(("TimeControl".into(), "60+1".into()));
        g.moves[0].clk_ms = Some(59_000);
        g.moves[0].eval = Some(crate::record::pgn::MoveEval {
            ce: 35,
            depth: Some(12),
            ..Default::default()
        });
        g.final_comment = Some("White's flag fell".into());
        let mut full = Writers::none(false);
        full.pgn = Some(pgn.clone());
        full.finished_game(1, &g);
        let text = std::fs::read_to_string(&pgn).unwrap();
        assert!(
            text.contains("{+0.35/12") && text.contains("TimeControl"),
            "{text}"
        );
        std::fs::remove_file(&pgn).unwrap();
        let mut min = Writers::none(false).with_pgn_min(true);
        min.pgn = Some(pgn.clone());
        min.finished_game(1, &g);
        let text = std::fs::read_to_string(&pgn).unwrap();
        assert!(text.ends_with("\n\n1. e4 e5 *\n\n"), "{text}");
        assert!(
            !text.contains("TimeControl") && text.contains("[White \"alpha\"]"),
            "{text}"
        );
        // A crash after the append: the minimal game is known as written.
        assert!(min.pgn_ends_with(&g));
    }

    #[test]
    fn epd_out_appends_each_finished_games_final_position() {
        let dir = tempfile::tempdir().unwrap();
        let epd = dir.path().join("final.epd");
        let mut out = Writers::none(false).with_epd_out(Some(epd.clone()));
        out.finished_game(1, &game(&["e4"]));
        out.finished_game(2, &game(&["d4", "d5"]));
        // A game whose moves do not read is reported, not written.
        out.finished_game(3, &game(&["e4", "Ke3"]));
        assert_eq!(
            std::fs::read_to_string(&epd).unwrap(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 fmvn 1; hmvc 0;\n\
             rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 fmvn 2; hmvc 0;\n"
        );
        let failed = out.failed().unwrap();
        assert!(
            failed.starts_with("game 3: its final position is not in the EPD file"),
            "{failed}"
        );
    }
}
