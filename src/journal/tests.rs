//! The journal end to end without ports: a simulated match between two
//! reference clients (sans-IO) with fake time, journaled to a real file;
//! crashes at many points, each resumed from the journal, must give the
//! same games as the match played without a crash. Also: torn and damaged
//! lines.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::Path;

use super::*;
use crate::client::{Action, ClientProtocol, Mover, MoverKind};
use crate::link::PortSettings;
use crate::record::pgn::{PgnGame, write_pgn};
use crate::referee::{ClientId, Event, Input, Output, Referee, Settings, Start, WallClock};

fn settings() -> Settings {
    Settings {
        reset_delay_ms: 20,
        conclude_delay_ms: 30,
        // An opening's moves, then a game of at most 40 moves: long
        // enough for a crash at many points, short enough to crash at
        // every one.
        opening: Some(Start {
            position: shakmaty::Chess::default(),
            moves: {
                let mut g = crate::game::Game::new(shakmaty::Chess::default());
                ["e4", "e5"].map(|m| g.play_san(m).unwrap()).to_vec()
            },
            source: "test".into(),
        }),
        max_moves: Some(40),
        ..Settings::default()
    }
}

fn header() -> Header {
    header_with(settings())
}

fn header_with(settings: Settings) -> Header {
    Header {
        session: "5e55105e55105e55".into(),
        settings,
        port: PortSettings::default(),
        output: crate::journal::OutputSettings::default(),
    }
}

fn clients() -> [ClientProtocol; 2] {
    [
        ClientProtocol::new("alpha", Mover::new(MoverKind::Random, 11), true),
        ClientProtocol::new("beta", Mover::new(MoverKind::Greedy, 12), true),
    ]
}

/// A referee session with two in-memory clients and fake time: a record
/// reaches its client 1 ms after it is sent, the reply comes 1 ms later.
struct Sim {
    core: Referee,
    clients: [ClientProtocol; 2],
    /// (time, order) -> input.
    queue: BTreeMap<(u64, u64), Input>,
    order: u64,
    journal: JournalWriter,
    /// The PGN file: every finished game as written.
    pgn: Vec<String>,
    inputs: usize,
    /// Whether each client has heard from the referee (until then it
    /// signs on again now and then, as `client::serve` does).
    heard: [bool; 2],
}

impl Sim {
    fn push(&mut self, at: u64, input: Input) {
        self.order += 1;
        self.queue.insert((at, self.order), input);
    }

    /// The next input and its time, or `None` when the session is over.
    fn next(&mut self) -> Option<(Input, u64)> {
        if self.core.is_over() {
            return None;
        }
        let queued = self.queue.keys().next().copied();
        match (queued, self.core.next_deadline()) {
            (Some((t, _)), Some(d)) if d < t => Some((Input::Timer, d)),
            (Some(k), _) => self.queue.remove(&k).map(|i| (i, k.0)),
            (None, Some(d)) => Some((Input::Timer, d)),
            (None, None) => None,
        }
    }

    /// Journals and handles one input; the outputs are returned, not yet
    /// carried out.
    fn take(&mut self, input: Input, at: u64) -> Vec<Output> {
        self.journal.write(&Entry::Input {
            at,
            input: input.clone(),
        });
        self.inputs += 1;
        self.core.handle(input, at)
    }

    fn carry_out(&mut self, outs: Vec<Output>, at: u64) {
        let checkpoint = outs
            .iter()
            .any(|o| matches!(o.event(), Some(Event::MoveMade { .. } | Event::GameOver(_))));
        for o in outs {
            match o {
                Output::Send { to, seq, text } => {
                    self.heard[to.index()] = true;
                    self.push(at + 1, Input::Sent { to, seq });
                    for a in self.clients[to.index()].handle_line(&text) {
                        if let Action::Reply(r) | Action::Send(r) = a {
                            let wire_bytes = r.len() + 2;
                            self.push(
                                at + 2,
                                Input::Line {
                                    from: to,
                                    text: r,
                                    wire_bytes,
                                    arrival: None,
                                },
                            );
                        }
                    }
                }
                Output::Event(Event::GameOver(g)) => self.save(g.game_number, &g.pgn),
                _ => {}
            }
        }
        if checkpoint {
            self.journal
                .write(&Entry::Check(Replay::checkpoint(&self.core, at)));
        }
    }

    fn save(&mut self, number: u32, game: &PgnGame) {
        self.pgn.push(write_pgn(game));
        self.journal.write(&Entry::Saved { game: number });
    }

    /// Runs to the end of the session, or until `crash_at` inputs have
    /// been journaled (the last one's outputs are then lost). Returns
    /// whether it crashed.
    fn run(&mut self, crash_at: Option<usize>) -> bool {
        let mut steps = 0;
        while let Some((input, at)) = self.next() {
            steps += 1;
            assert!(steps < 100_000, "the simulated session does not end");
            let outs = self.take(input, at);
            if Some(self.inputs) == crash_at {
                return true;
            }
            self.carry_out(outs, at);
        }
        false
    }
}

fn start(path: &Path) -> Sim {
    start_with(path, settings())
}

/// The wall clock at time 0 reading `unix_ms`, in UTC.
fn utc(unix_ms: u64) -> WallClock {
    WallClock {
        at: 0,
        unix_ms,
        utc_offset_min: 0,
    }
}

fn start_with(path: &Path, settings: Settings) -> Sim {
    let h = header_with(settings);
    let journal = JournalWriter::create(path, &h, utc(1_700_000_000_000)).unwrap();
    let mut core = Referee::new(h.settings);
    core.set_wall_clock(utc(1_700_000_000_000));
    let mut sim = Sim {
        core,
        clients: clients(),
        queue: BTreeMap::new(),
        order: 0,
        journal,
        pgn: Vec::new(),
        inputs: 0,
        heard: [false, false],
    };
    sim.sign_on_unheard(0);
    sim
}

impl Sim {
    /// Clients that have not heard from the referee sign on (again).
    fn sign_on_unheard(&mut self, at: u64) {
        for (i, id) in ClientId::BOTH.into_iter().enumerate() {
            if self.heard[i] {
                continue;
            }
            let text = self.clients[i].sign_on();
            let wire_bytes = text.len() + 2;
            self.push(
                at + 1 + i as u64,
                Input::Line {
                    from: id,
                    text,
                    wire_bytes,
                    arrival: None,
                },
            );
        }
    }
}

/// Resumes a crashed simulation from its journal, as `argus resume` does:
/// the clients keep their state, everything in flight is lost.
fn resume(path: &Path, crashed: Sim) -> Sim {
    let Sim {
        clients,
        pgn,
        heard,
        journal: dead,
        ..
    } = crashed;
    drop(dead);
    let loaded = load(path).unwrap();
    assert_eq!(loaded.torn, None);
    let journal =
        JournalWriter::append(path, loaded.valid_len, loaded.chain, loaded.lines).unwrap();
    let at = loaded.replay.last_at();
    // The resumed referee reads the wall clock again, as `argus resume`
    // does: no time passed in this simulation, so it reads on from the
    // last reading (the games' times come out as without a crash).
    let wall = loaded.replay.epoch().expect("an epoch line");
    let wall = WallClock {
        at,
        unix_ms: wall.wall_of(at),
        ..wall
    };
    let mut journal = journal;
    journal.write(&Entry::Epoch(wall));
    let unsaved: Vec<(u32, PgnGame)> = loaded
        .replay
        .unsaved()
        .map(|(n, g)| (*n, g.clone()))
        .collect();
    let mut core = loaded.replay.into_core();
    core.set_wall_clock(wall);
    let mut sim = Sim {
        core,
        clients,
        queue: BTreeMap::new(),
        order: 0,
        journal,
        pgn,
        inputs: 0,
        heard,
    };
    for (n, g) in unsaved {
        if sim.pgn.last() != Some(&write_pgn(&g)) {
            sim.save(n, &g);
        }
    }
    let outs = sim.take(Input::Resumed, at);
    sim.carry_out(outs, at);
    sim.sign_on_unheard(at);
    sim
}

#[test]
fn a_journal_replays_to_the_same_core() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.log");
    let mut sim = start(&path);
    assert!(!sim.run(None));
    assert_eq!(sim.pgn.len(), 1, "the game played");
    // Dated by the wall clock of the journal's epoch line (time 0 was
    // 2023-11-14T22:13:20Z).
    assert!(
        sim.pgn[0].contains("[GameStartTime \"2023-11-14T22:13:20 +0000\"]"),
        "{}",
        sim.pgn[0]
    );
    drop(sim.journal);
    let loaded = load(&path).unwrap();
    assert!(loaded.replay.core().is_over());
    assert!(loaded.replay.checks() > 10);
    assert_eq!(loaded.replay.unsaved().count(), 0);
    assert_eq!(loaded.header.session, "5e55105e55105e55");
    assert_eq!(
        loaded.replay.epoch().map(|e| e.wall_of(1000)),
        Some(1_700_000_001_000)
    );
    assert_eq!(
        format!("{:?}", loaded.replay.core().snapshot(0).sans),
        format!("{:?}", sim.core.snapshot(0).sans)
    );
}

#[test]
fn a_crash_anywhere_loses_and_repeats_nothing() {
    crash_everywhere(settings());
}

#[test]
fn a_crash_anywhere_in_a_timed_match_keeps_the_clocks() {
    // The outage and the resync are charged to nobody: the clocks in the
    // PGN ([%clk], [%emt]) come out as without a crash.
    crash_everywhere(Settings {
        time_control: "300+2".parse().unwrap(),
        ..settings()
    });
}

fn crash_everywhere(settings: Settings) {
    let dir = tempfile::tempdir().unwrap();
    let clean_path = dir.path().join("clean.log");
    let mut clean = start_with(&clean_path, settings.clone());
    clean.run(None);
    let total = clean.inputs;
    assert!(total > 50, "{total} inputs");
    for k in 1..total {
        let path = dir.path().join(format!("crash-{k}.log"));
        let mut sim = start_with(&path, settings.clone());
        assert!(sim.run(Some(k)), "crash at input {k}");
        let mut sim = resume(&path, sim);
        assert!(!sim.run(None), "crash at {k}: the resumed session ends");
        assert_eq!(
            sim.pgn, clean.pgn,
            "crash after input {k} of {total}: the games differ"
        );
        // The journal, resumed and all, still replays to the end.
        drop(sim.journal);
        let loaded = load(&path).unwrap();
        assert!(loaded.replay.core().is_over(), "crash at {k}");
    }
}

#[test]
fn two_crashes_in_a_row() {
    let dir = tempfile::tempdir().unwrap();
    let clean_path = dir.path().join("clean.log");
    let mut clean = start(&clean_path);
    clean.run(None);
    let path = dir.path().join("twice.log");
    let mut sim = start(&path);
    assert!(sim.run(Some(40)));
    let mut sim = resume(&path, sim);
    // Crash again right after the resume, before anything else happened.
    assert!(sim.run(Some(2)));
    let mut sim = resume(&path, sim);
    assert!(!sim.run(None));
    assert_eq!(sim.pgn, clean.pgn);
}

/// A finished journal's lines.
fn journal_text(dir: &Path) -> String {
    let path = dir.join("j.log");
    let mut sim = start(&path);
    sim.run(Some(60));
    drop(sim.journal);
    fs::read_to_string(&path).unwrap()
}

#[test]
fn a_torn_last_line_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let text = journal_text(dir.path());
    let full = load(&dir.path().join("j.log")).unwrap();
    let path = dir.path().join("torn.log");
    // Half of a line more, without its line end.
    let mut f = fs::File::create(&path).unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f.write_all(b"in 99999 line A 12 refreq").unwrap();
    drop(f);
    let loaded = load(&path).unwrap();
    let torn = loaded.torn.clone().unwrap();
    assert_eq!(torn.line, full.lines + 1);
    assert_eq!(torn.offset, text.len() as u64);
    assert!(torn.to_string().contains("torn"), "{torn}");
    assert_eq!(loaded.replay.inputs(), full.replay.inputs());
    // A whole last line with a bad check is torn as well.
    let mut lines: Vec<&str> = text.lines().collect();
    let last = lines.pop().unwrap().replace(' ', "  ");
    let bad = format!("{}\n{last}\n", lines.join("\n"));
    fs::write(&path, &bad).unwrap();
    let loaded = load(&path).unwrap();
    assert_eq!(loaded.torn.unwrap().line, full.lines);
    // Appending after a torn line cuts it off first.
    fs::write(&path, format!("{text}in 5 timer 0000")).unwrap();
    let loaded = load(&path).unwrap();
    let mut w = JournalWriter::append(&path, loaded.valid_len, loaded.chain, loaded.lines).unwrap();
    w.write(&Entry::Note("after the tear".into()));
    drop(w);
    let again = load(&path).unwrap();
    assert_eq!(again.torn, None);
    assert_eq!(again.lines, full.lines + 1);
}

#[test]
fn a_damaged_line_in_the_middle_is_refused_with_its_number() {
    let dir = tempfile::tempdir().unwrap();
    let text = journal_text(dir.path());
    let path = dir.path().join("bad.log");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // One byte changed in the first input line from line 40 on.
    let i = (39..lines.len())
        .find(|&i| lines[i].starts_with("in "))
        .expect("an input line after the header");
    lines[i] = lines[i].replacen("in ", "in 1", 1);
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    let e = load(&path).unwrap_err().to_string();
    assert!(e.contains(&format!("line {}:", i + 1)), "{e}");
    assert!(e.contains("damaged"), "{e}");
    // A line gone missing breaks the chain at the next one.
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines.remove(50);
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    let e = load(&path).unwrap_err().to_string();
    assert!(e.contains("line 51:"), "{e}");
    // Garbage bytes in the middle.
    let mut bytes = text.clone().into_bytes();
    bytes[300] = 0;
    fs::write(&path, &bytes).unwrap();
    let e = load(&path).unwrap_err().to_string();
    assert!(e.contains("printable ASCII") || e.contains("check"), "{e}");
}

#[test]
fn a_checkpoint_the_replay_misses_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.log");
    let mut sim = start(&path);
    sim.run(Some(40));
    // A checkpoint that claims another position.
    sim.journal.write(&Entry::Check(Checkpoint {
        at: 1,
        game: 1,
        ply: 99,
        fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
        used_ms: [0, 0],
    }));
    drop(sim.journal);
    let e = load(&path).unwrap_err().to_string();
    assert!(e.contains("does not reach the recorded state"), "{e}");
    assert!(e.contains("ply 99"), "{e}");
}

#[test]
fn empty_and_foreign_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.log");
    fs::write(&path, "").unwrap();
    assert!(load(&path).unwrap_err().to_string().contains("empty"));
    fs::write(&path, "[Event \"a PGN file\"]\n").unwrap();
    let e = load(&path).unwrap_err().to_string();
    assert!(e.contains("line 1"), "{e}");
    let e = load(&dir.path().join("missing.log"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("cannot open"), "{e}");
}

#[test]
fn a_second_writer_is_locked_out() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.log");
    let w = JournalWriter::create(&path, &header(), utc(0)).unwrap();
    let loaded = load(&path).unwrap();
    let e = JournalWriter::append(&path, loaded.valid_len, loaded.chain, loaded.lines).unwrap_err();
    assert!(e.to_string().contains("in use"), "{e}");
    drop(w);
    let e = JournalWriter::create(&path, &header(), utc(0)).unwrap_err();
    assert!(e.to_string().contains("not empty"), "{e}");
}

#[test]
fn lines_wait_for_a_flush_and_a_dropped_writer_loses_none() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.log");
    let mut w = JournalWriter::create(&path, &header(), utc(0)).unwrap();
    let created = load(&path).unwrap().lines;
    w.write(&Entry::Note("one".into()));
    w.write(&Entry::Note("two".into()));
    // Not in the file yet: a turn's lines go in one write.
    assert_eq!(load(&path).unwrap().lines, created);
    w.flush().unwrap();
    assert_eq!(load(&path).unwrap().lines, created + 2);
    w.write(&Entry::Note("three".into()));
    drop(w);
    assert_eq!(load(&path).unwrap().lines, created + 3);
}

/// A checkpoint as the display's snapshot of the core says it (how
/// checkpoints were made before `Referee::progress`).
fn checkpoint_of_snapshot(core: &Referee, at: u64) -> Checkpoint {
    let snap = core.snapshot(at);
    Checkpoint {
        at,
        game: snap.game_number,
        ply: snap.sans.len(),
        fen: crate::game::fen_of(&snap.position),
        used_ms: [snap.clocks.white.used_ms, snap.clocks.black.used_ms],
    }
}

#[test]
fn a_checkpoint_says_what_the_snapshot_of_the_core_says() {
    let dir = tempfile::tempdir().unwrap();
    let mut sim = start(&dir.path().join("j.log"));
    // Before the game, then after every input of it, and
    // a little after each (the clocks run).
    assert_eq!(
        Replay::checkpoint(&sim.core, 0),
        checkpoint_of_snapshot(&sim.core, 0)
    );
    let mut seen = 0;
    while let Some((input, at)) = sim.next() {
        let outs = sim.take(input, at);
        sim.carry_out(outs, at);
        for t in [at, at + 7] {
            assert_eq!(
                Replay::checkpoint(&sim.core, t),
                checkpoint_of_snapshot(&sim.core, t)
            );
        }
        seen += 1;
    }
    assert!(seen > 60, "the game ran {seen} inputs");
}

/// A game journal written by argus 0.2.0, when the referee core still
/// sequenced a match: its header has the `games`, `swap-colors`,
/// `openings-seed` and `sprt` lines the event now keeps
/// (`fixtures/v0.2.0-game.journal`: game 2 of `argus referee
/// mover:a=random mover:b=greedy --games 2 --tc 5+0 --openings
/// chess960:random --shuffle 7 --sprt "elo0=0 elo1=5"`, as that build
/// wrote it). It still loads, so a game begun by 0.2.0 resumes: the old
/// lines are read and ignored, its one opening is the game's, client A
/// (the event's White) has White, and the game replays to its end.
#[test]
fn a_game_journal_written_by_0_2_0_still_loads_and_replays() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src/journal/fixtures/v0.2.0-game.journal");
    let text = fs::read_to_string(&path).unwrap();
    for old in [
        "set games 1 ",
        "set swap-colors no ",
        "set openings-seed ",
        "set sprt ",
    ] {
        assert!(text.contains(old), "the fixture has {old:?}");
    }
    let loaded = load(&path).unwrap();
    let s = &loaded.header.settings;
    assert_eq!(s.white, ClientId::A);
    assert_eq!(s.variant, crate::game::Variant::Chess960);
    let opening = s.opening.as_ref().expect("its opening");
    assert_eq!(opening.source, "chess960:659");
    assert_eq!(s.round.as_deref(), Some("2"));
    let core = loaded.replay.core();
    assert!(core.is_over());
    let snap = core.snapshot(loaded.replay.last_at());
    let result = snap.result.expect("the game ended");
    assert_eq!(result.result, "1/2-1/2");
    assert_eq!(core.client_name(ClientId::A), "b");
    assert_eq!(snap.clients.a.color, Some(shakmaty::Color::White));
    // Written again, the header has none of the old lines.
    let again: Vec<String> = loaded
        .header
        .entries()
        .iter()
        .map(|e| e.payload())
        .collect();
    for old in [
        "set games",
        "set swap-colors",
        "set openings-seed",
        "set sprt",
    ] {
        assert!(!again.iter().any(|e| e.starts_with(old)), "{again:?}");
    }
    assert!(again.contains(&"set white a".to_string()), "{again:?}");
}
