//! One input handed to a board's referee core: journaled first, then its
//! records out to the links (one unit per client), then its events' words
//! and files; the tables' verdict and a refused record fed back at once.
//! The director's loop turn splits the way in two (group commit): each
//! board's input decided and journaled, then every journal written
//! synced, then the outputs.

use std::collections::VecDeque;

use log::{info, warn};

use super::PortBook;
use crate::app::syzygy::Syzygy;
use crate::app::writers::{Writers, sync_journals, wants_checkpoint};
use crate::link::SendError;
use crate::referee::{ByClient, ClientId, Event, Input, Output, Referee};

/// Where a referee core's records go: the links of its two clients (the
/// links of a board's players).
pub(crate) trait Wires {
    /// Hands `to`'s records to its link as one unit, in order.
    fn send_all(&self, to: ClientId, unit: Vec<(u64, String)>) -> Result<(), SendError>;
}

/// What the core's outputs go out through, and what answers them at once.
#[derive(Clone, Copy)]
pub(crate) struct Edges<'a> {
    pub links: &'a dyn Wires,
    /// The endgame tables, probed after each move (`--syzygy`).
    pub syzygy: Option<&'a Syzygy>,
}

/// Opens the endgame tables the settings name, if any. Tables that are
/// gone (a resumed match or tournament) are done without: that is logged
/// and told through `tell`.
pub(crate) fn open_tables(dirs: Option<&str>, tell: impl FnOnce(&str)) -> Option<Syzygy> {
    match Syzygy::open(dirs?) {
        Ok(t) => {
            info!(
                "Syzygy tables in {} (up to {} pieces)",
                t.paths(),
                t.max_pieces()
            );
            Some(t)
        }
        Err(e) => {
            let told = format!("{e}; play goes on without tablebase adjudication");
            warn!("{told}");
            tell(&told);
            None
        }
    }
}

/// The tables' verdict on the game's position after a move, if they have
/// one. A table that cannot be read is logged and the game goes on.
fn probe_tables(syzygy: Option<&Syzygy>, core: &Referee) -> Option<Input> {
    let (pos, ply) = core.position_in_play()?;
    match syzygy?.probe(pos, ply) {
        Ok(verdict) => verdict.map(Input::Tablebase),
        Err(e) => {
            warn!("{e}; no tablebase adjudication for this position");
            None
        }
    }
}

/// [`decide`], then the journal synced on its own if the outputs must
/// wait for it (outside a loop turn's group commit: the inputs
/// [`deliver`] feeds back at once).
fn decide_durably(input: Input, at: u64, core: &mut Referee, outputs: &mut Writers) -> Decided {
    let decided = decide(input, at, core, outputs);
    if decided.wants_sync() {
        outputs.journal_sync();
    }
    decided
}

/// An input its core has taken, journaled but not yet synced: its outputs
/// wait here until the journal is on disk (when [`Decided::wants_sync`]),
/// then go out with [`deliver`]. The boards stage an input each in a loop
/// turn, and one round of syncs covers them all before any of their
/// outputs leave (group commit: [`commit`]).
pub(crate) struct Decided {
    outs: Vec<Output>,
    /// The time the core took the input at.
    at: u64,
    /// The client whose line it was, when relays are timed.
    mover: Option<ClientId>,
}

impl Decided {
    /// Whether the journal must be on disk before these outputs are
    /// carried out: a record is about to leave, or a game or the session
    /// ended (its PGN is written).
    pub(crate) fn wants_sync(&self) -> bool {
        wants_sync(&self.outs)
    }
}

/// Journals `input` (held in memory, not synced) and hands it to the core;
/// what the core said waits in the returned [`Decided`].
pub(crate) fn decide(input: Input, at: u64, core: &mut Referee, outputs: &mut Writers) -> Decided {
    // Events from different threads can arrive slightly out of time order
    // (a link event stamped just before a timer that was handled first):
    // the core takes such a time as its current one, and the journal must
    // record the time the core used, so that its times never go back.
    let at = at.max(core.time());
    outputs.journal_input(&input, at);
    let mover = match &input {
        Input::Line { from, .. } if outputs.times_relays() => Some(*from),
        _ => None,
    };
    let outs = core.handle(input, at);
    Decided { outs, at, mover }
}

/// Carries out what the core decided (call it once the journal is synced,
/// if [`Decided::wants_sync`]), then the inputs that calls for at once,
/// each through the core and out in turn: a record the link refuses (the
/// core must not wait for it to leave), the tables' verdict on a move just
/// played. Returns whether there were outputs.
pub(crate) fn deliver(
    decided: Decided,
    core: &mut Referee,
    edges: Edges,
    books: &mut ByClient<PortBook>,
    outputs: &mut Writers,
    seen: &mut dyn FnMut(&Event),
) -> bool {
    let at = decided.at;
    let mut hand = Hand {
        core,
        edges,
        books,
        outputs,
        seen,
    };
    let (mut any, next) = hand.settle(decided);
    let mut queue = VecDeque::from(next);
    while let Some(input) = queue.pop_front() {
        let decided = decide_durably(input, at, hand.core, hand.outputs);
        let (outs, next) = hand.settle(decided);
        any |= outs;
        queue.extend(next);
    }
    any
}

/// A core with an input staged ([`decide`]d, its journal not yet synced),
/// as [`commit`] sees it.
pub(crate) trait Staged {
    /// The writers whose journal holds the staged input.
    fn writers(&mut self) -> &mut Writers;
    /// Carries out the staged input's outputs ([`deliver`]); the journal
    /// is on disk.
    fn deliver(&mut self);
}

/// Group commit, the end of a loop turn: every journal holding a staged
/// input is synced ([`sync_journals`]: with many, one `syncfs` for all),
/// and only then are the staged outputs carried out, core by core. So
/// nothing leaves before what caused it is on disk, and the cores of a
/// turn wait for one sync together instead of for one another's.
pub(crate) fn commit(staged: &mut [&mut dyn Staged]) {
    let mut journals: Vec<&mut Writers> = staged.iter_mut().map(|s| s.writers()).collect();
    sync_journals(&mut journals);
    for s in staged.iter_mut() {
        s.deliver();
    }
}

/// What [`deliver`] works with.
struct Hand<'a> {
    core: &'a mut Referee,
    edges: Edges<'a>,
    books: &'a mut ByClient<PortBook>,
    outputs: &'a mut Writers,
    seen: &'a mut dyn FnMut(&Event),
}

impl Hand<'_> {
    /// Carries out what the core decided on one input. Returns whether
    /// there were outputs, and the inputs they call for at once (a refused
    /// record, then the tables' verdict on a move).
    fn settle(&mut self, decided: Decided) -> (bool, Vec<Input>) {
        let Decided { outs, at, mover } = decided;
        let any = !outs.is_empty();
        let checkpoint = wants_checkpoint(&outs);
        let moved = outs
            .iter()
            .any(|o| matches!(o.event(), Some(Event::MoveMade { .. })));
        if let Some(from) = mover
            && let Some((to, seq)) = relayed_move(&outs, from)
        {
            self.outputs
                .relay_expected(to, seq, self.books[from].last_line_us);
        }
        let (refused, others) = self.send_records(outs, at);
        for o in others {
            if let Some(event) = o.event() {
                (self.seen)(event);
            }
            carry_out(o, self.core, self.outputs, at);
        }
        if checkpoint {
            self.outputs.journal_checkpoint(self.core, at);
        }
        let verdict = if moved {
            probe_tables(self.edges.syzygy, self.core)
        } else {
            None
        };
        (any, refused.into_iter().chain(verdict).collect())
    }

    /// Sends the records among `outs` first, in order: the file work of
    /// the other outputs (the live PGN is written and synced to disk) must
    /// not hold back a respond, whose clock starts only once it has left.
    /// The records to one client from one input go to its link as one unit
    /// (a resync is hundreds of records late in a game), in order. Returns
    /// the first refused record as an input, and the other outputs.
    fn send_records(&mut self, outs: Vec<Output>, at: u64) -> (Option<Input>, Vec<Output>) {
        let mut units: Vec<(ClientId, Vec<(u64, String)>)> = Vec::new();
        let mut others = Vec::new();
        for o in outs {
            match o {
                Output::Send { to, seq, text } => match units.iter_mut().find(|(t, _)| *t == to) {
                    Some((_, unit)) => unit.push((seq, text)),
                    None => units.push((to, vec![(seq, text)])),
                },
                o => others.push(o),
            }
        }
        let mut refused = None;
        for (to, unit) in units {
            if let Some(seq) = send_unit(to, unit, self.edges.links, self.books, self.outputs, at) {
                refused.get_or_insert(Input::Refused { to, seq });
            }
        }
        (refused, others)
    }
}

/// Whether the journal is synced to disk before the outputs are carried
/// out: a record is about to leave, or a game or the session ended.
fn wants_sync(outs: &[Output]) -> bool {
    outs.iter().any(|o| {
        matches!(
            o,
            Output::Send { .. } | Output::Event(Event::GameOver(_) | Event::SessionOver)
        )
    })
}

/// Hands the records for `to` to its link as one unit. If the link refuses
/// them, says so and returns the first one's sequence number.
fn send_unit(
    to: ClientId,
    unit: Vec<(u64, String)>,
    links: &dyn Wires,
    books: &mut ByClient<PortBook>,
    outputs: &mut Writers,
    at: u64,
) -> Option<u64> {
    let first = unit.first().map(|(seq, _)| *seq);
    let count = unit.len();
    match links.send_all(to, unit.clone()) {
        Ok(()) => {
            books[to].in_flight += count;
            None
        }
        Err(e) => {
            for (_, text) in &unit {
                warn!("{to}: cannot queue a record ({e}): {text}");
                outputs.transcript_note(at, &format!("{to}: record not queued ({e}): {text}"));
            }
            first
        }
    }
}

/// For relay timings: when the core's answer to a line from `from` plays
/// a move and relays it (a `MoveMade`, no `GameOver`, and a record to the
/// opponent: the `respond` carrying the move), the opponent and that
/// record's sequence number.
fn relayed_move(outs: &[Output], from: ClientId) -> Option<(ClientId, u64)> {
    let moved = outs
        .iter()
        .any(|o| matches!(o.event(), Some(Event::MoveMade { .. })));
    let over = outs
        .iter()
        .any(|o| matches!(o.event(), Some(Event::GameOver(_))));
    let to = from.other();
    let seq = outs.iter().find_map(|o| match o {
        Output::Send { to: t, seq, .. } if *t == to => Some(*seq),
        _ => None,
    })?;
    (moved && !over).then_some((to, seq))
}

/// Carries out one event of the core (records go out through
/// [`send_unit`]): its words to the transcript, the log and headless
/// output, then what it changes on disk.
fn carry_out(o: Output, core: &Referee, outputs: &mut Writers, at: u64) {
    let Output::Event(event) = o else { return };
    outputs.event(&event, at);
    match event {
        Event::GameStarted { .. } | Event::MoveMade { .. } => {
            outputs.live_pgn(|| core.live_pgn(at))
        }
        Event::GameOver(g) => {
            outputs.live_pgn(|| Some((*g.pgn).clone()));
            if g.is_a_game() {
                outputs.finished_game(g.game_number, &g.pgn);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Color;
    use std::cell::RefCell;
    use std::path::PathBuf;

    use crate::epd::{Fields, sign_on};
    use crate::journal::{Entry, Header, JournalWriter, OutputSettings, new_session_id};
    use crate::link::PortSettings;
    use crate::referee::{Settings, WallClock};

    /// Links that keep every record handed to them, each with what the
    /// journals `seen` held on disk at that moment.
    struct Recorder {
        seen: Vec<PathBuf>,
        sent: RefCell<Vec<(ClientId, String, Vec<String>)>>,
    }

    impl Wires for Recorder {
        fn send_all(&self, to: ClientId, unit: Vec<(u64, String)>) -> Result<(), SendError> {
            let journals: Vec<String> = self
                .seen
                .iter()
                .map(|p| std::fs::read_to_string(p).unwrap())
                .collect();
            for (_, text) in unit {
                self.sent.borrow_mut().push((to, text, journals.clone()));
            }
            Ok(())
        }
    }

    /// A referee core with its journal, its links and an input staged.
    struct Table {
        core: Referee,
        outputs: Writers,
        books: ByClient<PortBook>,
        wires: Recorder,
        staged: Option<Decided>,
    }

    impl Table {
        fn new(journal: &std::path::Path, seen: &[PathBuf]) -> Table {
            let settings = Settings::default();
            let header = Header {
                session: new_session_id(),
                settings: settings.clone(),
                port: PortSettings::default(),
                output: OutputSettings::default(),
            };
            let wall = WallClock {
                at: 0,
                unix_ms: 1_700_000_000_000,
                utc_offset_min: 0,
            };
            let mut outputs = Writers::none(true);
            outputs.set_journal(JournalWriter::create(journal, &header, wall).unwrap());
            Table {
                core: Referee::new(settings),
                outputs,
                books: ByClient::new_with(|_| PortBook::up()),
                wires: Recorder {
                    seen: seen.to_vec(),
                    sent: RefCell::default(),
                },
                staged: None,
            }
        }

        /// Decides `input`; carries it out at once unless it must wait
        /// for the journal (as a tournament's board stages an input).
        fn stage(&mut self, input: Input, at: u64) {
            let d = decide(input, at, &mut self.core, &mut self.outputs);
            if d.wants_sync() {
                self.staged = Some(d);
            } else {
                self.deliver_now(d);
            }
        }

        /// Carries out a decided input: its outputs go to the wires.
        fn deliver_now(&mut self, d: Decided) {
            let edges = Edges {
                links: &self.wires,
                syzygy: None,
            };
            deliver(
                d,
                &mut self.core,
                edges,
                &mut self.books,
                &mut self.outputs,
                &mut |_| {},
            );
        }
    }

    impl Staged for Table {
        fn writers(&mut self) -> &mut Writers {
            &mut self.outputs
        }

        fn deliver(&mut self) {
            let d = self.staged.take().unwrap();
            self.deliver_now(d);
            self.outputs.end_turn();
        }
    }

    fn signs_on(from: ClientId, name: &str) -> Input {
        let text = sign_on::record(Fields::initial(), name);
        Input::Line {
            from,
            wire_bytes: text.len() + 2,
            text,
            arrival: None,
        }
    }

    #[test]
    fn group_commit_sends_nothing_before_every_staged_input_is_on_disk() {
        // A journal synced at a time, and many with one sync.
        for boards in [2, crate::app::writers::SYNCFS_FROM + 1] {
            one_turn_on(boards);
        }
    }

    fn one_turn_on(boards: usize) {
        let dir = tempfile::tempdir().unwrap();
        let paths: Vec<PathBuf> = (1..=boards)
            .map(|i| dir.path().join(format!("board-{i}.journal")))
            .collect();
        let mut tables: Vec<Table> = paths.iter().map(|p| Table::new(p, &paths)).collect();
        // One loop turn: the second player signs on at every board (the
        // first did in an earlier turn); each core answers with `reset`s.
        for (i, t) in tables.iter_mut().enumerate() {
            t.stage(signs_on(ClientId::A, "alpha"), 10);
            assert!(t.staged.is_none(), "a first sign-on sends nothing");
            t.stage(signs_on(ClientId::B, "beta"), 20 + i as u64);
            assert!(t.staged.is_some(), "records wait for the journal");
        }
        let staged_line = |i: usize| {
            Entry::Input {
                at: 20 + i as u64,
                input: signs_on(ClientId::B, "beta"),
            }
            .payload()
        };
        for t in &tables {
            assert!(t.wires.sent.borrow().is_empty(), "a record left unsynced");
        }
        let mut each: Vec<&mut dyn Staged> =
            tables.iter_mut().map(|t| t as &mut dyn Staged).collect();
        commit(&mut each);
        for (i, t) in tables.iter().enumerate() {
            let sent = t.wires.sent.borrow();
            assert!(!sent.is_empty(), "board {i} sent nothing");
            for (to, text, journals) in sent.iter() {
                // Every board's staged input was on disk before any
                // board's record left: one round of syncs for the turn.
                for (j, journal) in journals.iter().enumerate() {
                    assert!(
                        journal.contains(&staged_line(j)),
                        "board {i} sent {to} {text:?} before board {j}'s input was synced"
                    );
                }
            }
        }
    }

    fn moved() -> Output {
        Output::Event(Event::MoveMade {
            game: 1,
            ply: 1,
            number: 1,
            color: Color::White,
            san: "e4".into(),
            charged_ms: None,
        })
    }

    fn send(to: ClientId) -> Output {
        Output::Send {
            to,
            seq: 7,
            text: "refcom respond;".into(),
        }
    }

    #[test]
    fn a_played_move_relayed_to_the_opponent_is_timed_by_its_record() {
        let outs = [moved(), send(ClientId::B)];
        assert_eq!(relayed_move(&outs, ClientId::A), Some((ClientId::B, 7)));
    }

    #[test]
    fn no_move_or_no_record_to_the_opponent_is_not_timed() {
        // A rejected reply asked again: a record back to the mover only.
        assert_eq!(relayed_move(&[send(ClientId::A)], ClientId::A), None);
        assert_eq!(relayed_move(&[moved()], ClientId::A), None);
        assert_eq!(
            relayed_move(&[moved(), send(ClientId::A)], ClientId::A),
            None
        );
    }
}
