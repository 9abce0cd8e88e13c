//! The XBoard (CECP, `protover 2`) side of the bridge.
//!
//! Start: `xboard`, `protover 2`, the engine's `feature` lines answered
//! with `accepted` until `done=1` ([`Handshake`]: every 50 ms of silence
//! before that gets the engine an empty line, which GNU Chess 6.2.7 needs
//! to get going; an engine silent for 2 s is a protocol-version-1 one, and
//! one that speaks gets up to 10 s; either then goes on with the
//! protocol's defaults for the features it did not send, and features that
//! come later are still taken), `easy` (no pondering; `hard` with
//! `--ponder`), the `--option`s as
//! `option NAME=VALUE`; with `ping`, a `ping` it must answer.
//! GNU Chess's answer to an empty line (`Invalid move: ` naming nothing)
//! is ignored. Its move is read in every form CECP documents: `move MOVE`, `N. ... MOVE`, `My move
//! is: MOVE`; a line the bridge does not understand is said on the console.
//!
//! Each move: the engine is kept in `force` mode between moves. If it
//! already knows the game so far, it gets the new moves (`usermove`);
//! otherwise `new`, `force`, `post` (its thinking lines are read into the
//! reply's `ce`, `acd`, `pv`), the level, `setboard FEN` (for a position
//! other than the initial one; `edit` for an engine without `setboard`)
//! and the whole game. Then `time`/`otim`,
//! `draw` if the opponent offered one, and `go`; the engine answers
//! `move MOVE`, after which it is put back in `force` mode.
//!
//! With `--ponder` (`hard`) it is left out of `force` mode after its move,
//! so it thinks on the opponent's time as it likes; when the opponent's
//! move comes it gets `time`/`otim` and that move, and answers with its
//! own (no `go`). Anything else (a draw offer, a game taken back, a new
//! game) puts it in `force` mode first, which ends its pondering, and
//! goes as above; so does the end of the game (`result`).
//!
//! What the engine says besides its move: `offer draw` (an offer, sent
//! with its next move, or the acceptance of the opponent's offer),
//! `resign`, `1/2-1/2 {...}` (a draw claim), `1-0`/`0-1 {...}` (a loss
//! for its own side counts as resignation; a win claim is left to the
//! referee, who ends decided games itself), `Illegal move` (it does not
//! follow the game: a fault).

use std::time::{Duration, Instant};

use shakmaty::{Chess, Color, Move, Position};

use super::analysis::{Analysis, Collector, Search, parse_xboard_thinking};
use super::log::Dir;
use super::notation;
use super::process::{EngineProcess, Next};
use super::search::Pending;
use super::time::{Limit, xboard_clocks, xboard_level};
use super::{Answer, Driver, EngineSettings, Fault, HANDSHAKE, Job, Refusal, Trouble};
use crate::game::{self, Variant};

/// How long an engine that says nothing at all gets to send its features
/// before it is taken as a protocol-version-1 engine (CECP's two seconds).
pub const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// How long the handshake waits in silence, until `feature done=1`, before
/// it sends the engine an empty line.
pub const NUDGE_AFTER: Duration = Duration::from_millis(50);

/// How long the handshake sleeps after a nudge, before it waits for the
/// engine's answer (see [`Handshake`]).
pub const NUDGE_REST: Duration = Duration::from_millis(2);

/// How many empty lines a nudge is, in one write, while the budget lasts.
pub const NUDGE_BURST: usize = 4;

/// How many empty lines the handshake sends in all in bursts; one at a
/// time after that. GNU Chess keeps every line it gets before its start
/// in a pipe its front end reads 4096 bytes at a time into a 4096-byte
/// buffer (two bytes a line): 1000 lines, then 20 a second for the rest
/// of [`FEATURE_LATE`], stay well under it.
pub const NUDGE_BUDGET: usize = 1000;

/// How long an engine that has said anything (`feature done=0`, a banner,
/// GNU Chess's `Chess`) gets for its `feature done=1`. CECP lets an engine
/// that sent `done=0` take as long as it likes; 30 s bounds the wait and
/// covers GNU Chess 6.2.7 on a loaded machine (one start in 20 took more
/// than 10 s while a 2-core CI machine ran the whole test suite).
pub const FEATURE_LATE: Duration = Duration::from_secs(30);

/// How long an engine that has spoken but sent no `feature` line waits
/// before it is asked `protover 2` again.
pub const ASK_AGAIN_AFTER: Duration = Duration::from_secs(1);

/// How many times `protover 2` is sent again, at most.
pub const ASK_AGAIN_TIMES: u32 = 5;

/// The XBoard start-up after `xboard` and `protover 2`, I/O-free: it is
/// told the time and what the engine said, and says what to do next.
///
/// * `feature done=1` ends it.
/// * Each [`NUDGE_AFTER`] of silence before that gets the engine an empty
///   line. GNU Chess 6.2.7 needs them: its input thread sits in `fgets` on
///   standard input holding the stream's lock while another of its
///   threads, still starting, waits for that lock to `setbuf` the same
///   stream (seen with gdb); only when a line arrives is the lock let go
///   for a moment, and the starting thread takes it or not. Until then it
///   has printed `Chess` and handles nothing. Every line is one more
///   chance: one every 300 ms let it hang for 15 s; one every 50 ms gets
///   it going within a second or two, but not always (one start in 20
///   took 30 s in a CI run on an idle machine). A nudge is therefore
///   [`NUDGE_BURST`] lines in one write (until [`NUDGE_BUDGET`] lines
///   went): its input thread then reads them from its buffer without
///   waiting, letting go of the lock between lines while it passes each
///   on, so the starting thread has several chances in a row (python
///   harness on the idle machine, 50 starts each: single lines took up
///   to 7.5 s, bursts of 4 at most 1.6 s). After each nudge the bridge
///   sleeps [`NUDGE_REST`] before it waits for the answer: its wait spins
///   a little first, and on a 2-core machine that CPU was the one the
///   starting thread needed to run while the lock was free (argus alone
///   on an idle machine: GNU Chess's features took 8 to 60 s in six of
///   six starts; with the rest, 0.2 s).
/// * An engine that has spoken but sent no `feature` line for
///   [`ASK_AGAIN_AFTER`] is sent `protover 2` again (at most
///   [`ASK_AGAIN_TIMES`] times). GNU Chess 6.2.7 sometimes loses the
///   first: every thread started and idle (seen with gdb), `Chess` and an
///   `Invalid move:` per nudge printed, no `feature` line ever, however
///   long it is nudged (on an idle machine, about one start in 60). Asked
///   again, it answers. Features that come twice are taken twice.
/// * An engine that says nothing at all is, after [`FEATURE_WAIT`], one
///   that does not know `protover` (CECP: version-1 defaults). One that
///   says anything (`feature done=0`, GNU Chess's `Chess`) gets up to
///   [`FEATURE_LATE`]; after that it too goes on with the features it sent
///   and the defaults for the rest. Silence is never taken as a hang
///   here: a hung engine shows it when it is asked for a move.
#[derive(Debug, Clone)]
pub struct Handshake {
    started: Instant,
    deadline: Instant,
    /// When the engine last said something or was last nudged.
    last: Instant,
    done: bool,
    /// It sent at least one `feature` line.
    pub featured: bool,
    /// It said anything.
    spoke: bool,
    /// When `protover 2` last went out.
    asked: Instant,
    /// How many times it went out again.
    asked_again: u32,
    /// How many empty lines went out.
    nudged: usize,
}

/// What the handshake does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Wait for the engine's next line until then.
    Wait(Instant),
    /// Send it this many empty lines in one write (then ask again).
    Nudge(usize),
    /// Send it `protover 2` again (then ask again).
    AskAgain,
    Finish(HandshakeEnd),
}

/// How the handshake ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandshakeEnd {
    /// `feature done=1`.
    Done,
    /// No `done=1` within the wait: the features sent so far, the
    /// protocol's defaults for the rest.
    Defaults { waited: Duration },
}

impl Handshake {
    /// `protover 2` went out at `now`.
    pub fn new(now: Instant) -> Handshake {
        Handshake {
            started: now,
            deadline: now + FEATURE_WAIT,
            last: now,
            done: false,
            featured: false,
            spoke: false,
            asked: now,
            asked_again: 0,
            nudged: 0,
        }
    }

    /// The engine said `line` at `now`; `done` is the value of its
    /// `feature done=...`, if the line had one.
    pub fn heard(&mut self, line: &str, done: Option<bool>, now: Instant) {
        self.last = now;
        self.spoke = true;
        self.featured |= line.trim_start().starts_with("feature");
        match done {
            Some(true) => self.done = true,
            // done=0, or any other line: it is alive and starting.
            _ => self.deadline = self.deadline.max(self.started + FEATURE_LATE),
        }
    }

    /// What to do at `now`.
    pub fn step(&mut self, now: Instant) -> Step {
        if self.done {
            return Step::Finish(HandshakeEnd::Done);
        }
        if now >= self.deadline {
            return Step::Finish(HandshakeEnd::Defaults {
                waited: now.saturating_duration_since(self.started),
            });
        }
        if self.spoke
            && !self.featured
            && self.asked_again < ASK_AGAIN_TIMES
            && now >= self.asked + ASK_AGAIN_AFTER
        {
            self.asked = now;
            self.asked_again += 1;
            self.last = now;
            return Step::AskAgain;
        }
        let nudge_at = self.last + NUDGE_AFTER;
        if now >= nudge_at {
            self.last = now;
            let lines = if self.nudged + NUDGE_BURST <= NUDGE_BUDGET {
                NUDGE_BURST
            } else {
                1
            };
            self.nudged += lines;
            return Step::Nudge(lines);
        }
        Step::Wait(nudge_at.min(self.deadline))
    }
}

/// An XBoard engine after its handshake.
pub struct Xboard {
    proc: EngineProcess,
    name: Option<String>,
    /// The engine wants and sends moves in SAN.
    san: bool,
    usermove: bool,
    setboard: bool,
    ping: bool,
    next_ping: u32,
    /// The game the engine follows (start and moves), if it is in step.
    known: Option<(Chess, Vec<Move>)>,
    /// Seen between moves: to go with the next answer.
    offered: bool,
    resigned: bool,
    /// The options the engine declared (`feature option="NAME -TYPE ..."`).
    declared: Vec<String>,
    /// The variants the engine plays (`feature variants="normal,..."`;
    /// CECP's default is `normal` alone).
    variants: Vec<String>,
    /// Lines not understood so far (the first [`UNKNOWN_SAID`] are said
    /// on the console).
    unknown: u32,
    settings: EngineSettings,
    /// Out of `force` mode after its move (`--ponder`): it may be
    /// pondering.
    free: bool,
    /// The search in progress.
    search: Option<Pending>,
}

/// CECP's name of Chess960.
pub(super) const FISCHERANDOM: &str = "fischerandom";

/// Most variants kept from `feature variants` (Fairy-Max lists about 30).
const MAX_VARIANTS: usize = 64;

/// How many lines the bridge does not understand it says on the console;
/// the rest go to the engine log only (Sjeng prints a dozen statistics
/// lines after every move: a thousand lines in two fast games).
pub const UNKNOWN_SAID: u32 = 10;

/// Splits a `feature` line into (name, value) pairs; quoted values may
/// hold spaces.
pub fn parse_features(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let rest = line.trim().strip_prefix("feature").unwrap_or("");
    let mut chars = rest.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let mut name = String::new();
        while let Some(&c) = chars.peek() {
            if c == '=' || c.is_whitespace() {
                break;
            }
            name.push(c);
            chars.next();
        }
        if name.is_empty() {
            break;
        }
        if chars.peek() != Some(&'=') {
            continue;
        }
        chars.next();
        let mut value = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            for c in chars.by_ref() {
                if c == '"' {
                    break;
                }
                value.push(c);
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                value.push(c);
                chars.next();
            }
        }
        out.push((name, value));
    }
    out
}

/// What one line from the engine means while it is on move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// Its move, in any form CECP documents: `move MOVE`, the older
    /// `N. ... MOVE` and `My move is: MOVE` (GNU Chess writes `My move is :`).
    Move(String),
    OfferDraw,
    Resign,
    /// A result claim: the result and the engine's comment.
    Result(String, String),
    /// The engine refused a move or command of ours.
    Illegal(String),
    /// A line CECP lets an engine send that needs nothing from us: thinking
    /// output (`9 156 1084 48000 Nf3 Nc6`), `#` comments, `feature`, `pong`,
    /// `tell...`, and the echo of a move given to it (`1. e2e4`).
    Other,
    /// A line the bridge does not understand (said on the console).
    Unknown,
}

/// Reads one engine line.
pub fn classify(line: &str) -> Said {
    let t = line.trim();
    if let Some(rest) = t.strip_prefix("My move is") {
        let m = rest.trim_start().trim_start_matches(':').trim();
        return match m.split_whitespace().next() {
            Some(m) => Said::Move(m.into()),
            None => Said::Unknown,
        };
    }
    let mut words = t.split_whitespace();
    let first = words.next();
    if let Some(n) = first.and_then(|w| w.strip_suffix('.'))
        && !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
    {
        // `12. ... Nf6` is the engine's move; `12. Nf3` echoes ours.
        return match (words.next(), words.next()) {
            (Some("..."), Some(m)) => Said::Move(m.into()),
            _ => Said::Other,
        };
    }
    match first {
        None => Said::Other,
        Some("move") => words.next().map_or(Said::Unknown, |m| Said::Move(m.into())),
        Some("offer") if words.next() == Some("draw") => Said::OfferDraw,
        Some("resign") => Said::Resign,
        Some(r @ ("1-0" | "0-1" | "1/2-1/2")) => {
            let comment = t[r.len()..]
                .trim()
                .trim_start_matches('{')
                .trim_end_matches('}')
                .trim();
            Said::Result(r.into(), comment.into())
        }
        Some(w) if w.starts_with("Illegal") => Said::Illegal(t.into()),
        // GNU Chess's answer to an empty line (a nudge): nothing.
        Some("Invalid")
            if t.strip_prefix("Invalid move:")
                .is_some_and(|r| r.trim().is_empty()) =>
        {
            Said::Other
        }
        Some(
            "feature" | "pong" | "telluser" | "tellusererror" | "tellopponent" | "tellothers"
            | "tellall" | "tellics" | "tellicsnoalias" | "askuser" | "hint:",
        ) => Said::Other,
        Some(w) if w.starts_with('#') || w.bytes().next().is_some_and(|b| b.is_ascii_digit()) => {
            Said::Other
        }
        Some(_) => Said::Unknown,
    }
}

/// CECP's `edit` set-up of a position's pieces, for an engine without
/// `setboard`: `edit`, `#` (clear the board), White's pieces (`Pa2`,
/// `Ke1`...), `c` (the colour switches to Black), Black's pieces (upper
/// case too: the colour is the current one), `.` (done). The side to move
/// is not set (`edit` keeps it); CECP's engine assumes castling for a king
/// and rook on their home squares and no en passant capture.
pub fn edit_commands(position: &Chess) -> Vec<String> {
    let board = position.board();
    let mut out = vec!["edit".to_string(), "#".to_string()];
    for color in [Color::White, Color::Black] {
        if color == Color::Black {
            out.push("c".to_string());
        }
        for sq in board.by_color(color) {
            if let Some(piece) = board.piece_at(sq) {
                out.push(format!("{}{sq}", piece.role.upper_char()));
            }
        }
    }
    out.push(".".to_string());
    out
}

impl Xboard {
    /// Starts the engine and reads its features.
    pub fn start(settings: &EngineSettings) -> Result<Xboard, Fault> {
        let proc = EngineProcess::spawn(&settings.command, settings.log.clone())
            .map_err(|e| Fault::bare(Trouble::NotStarted(e.to_string())))?;
        let mut x = Xboard {
            proc,
            name: None,
            san: false,
            usermove: false,
            setboard: false,
            ping: false,
            next_ping: 1,
            known: None,
            offered: false,
            resigned: false,
            declared: Vec::new(),
            variants: Vec::new(),
            unknown: 0,
            settings: settings.clone(),
            free: false,
            search: None,
        };
        x.send("xboard")?;
        x.send("protover 2")?;
        let mut hs = Handshake::new(Instant::now());
        let ending = loop {
            match hs.step(Instant::now()) {
                Step::Finish(ending) => break ending,
                Step::Nudge(lines) => {
                    x.proc
                        .nudge(lines)
                        .map_err(|e| Fault::new(Trouble::Write(e.to_string()), x.proc.recent()))?;
                    // Leave the CPU at once (see `Handshake`).
                    std::thread::sleep(NUDGE_REST);
                }
                Step::AskAgain => x.send("protover 2")?,
                Step::Wait(until) => match x.proc.next_line(until) {
                    Next::Line(line) => {
                        let done = x.take_features(&line)?;
                        hs.heard(&line, done, Instant::now());
                    }
                    Next::Timeout => {}
                    Next::Gone(why) => {
                        return Err(Fault::new(
                            Trouble::GoneInHandshake { exit: why },
                            x.proc.recent(),
                        ));
                    }
                },
            }
        };
        if let HandshakeEnd::Defaults { waited } = ending {
            x.settings.log.line(
                Dir::Note,
                &format!(
                    "no feature done=1 within {:.1} s: going on with the protocol's defaults \
                     for every feature not sent (features that come later are taken)",
                    waited.as_secs_f64()
                ),
            );
        }
        let featured = hs.featured;
        x.send(if settings.ponder { "hard" } else { "easy" })?;
        x.check_options(featured)?;
        for (name, value) in &settings.options {
            x.send(&format!("option {name}={value}"))?;
        }
        x.sync()?;
        Ok(x)
    }

    /// Takes note of a `feature` line and accepts each feature; returns
    /// its `done` value, if it has one. Features that come late (after the
    /// handshake gave up waiting) are taken too.
    fn take_features(&mut self, line: &str) -> Result<Option<bool>, Fault> {
        let mut done = None;
        if !line.trim_start().starts_with("feature") {
            return Ok(done);
        }
        for (name, value) in parse_features(line) {
            let on = value == "1";
            match name.as_str() {
                "done" => done = Some(on),
                "myname" if !value.trim().is_empty() => self.name = Some(value.clone()),
                "san" => self.san = on,
                "usermove" => self.usermove = on,
                "setboard" => self.setboard = on,
                "ping" => self.ping = on,
                "variants" => {
                    self.variants = value
                        .split(',')
                        .map(|v| v.trim().to_ascii_lowercase())
                        .filter(|v| !v.is_empty())
                        .take(MAX_VARIANTS)
                        .collect();
                }
                "option" => {
                    let name = value.split(" -").next().unwrap_or_default().trim();
                    if !name.is_empty() {
                        self.declared.push(name.to_string());
                    }
                }
                _ => {}
            }
            self.send(&format!("accepted {name}"))?;
        }
        Ok(done)
    }

    /// A misspelt `--option` (`Skil Level`) would otherwise be ignored by
    /// the engine, seen only in the log: an option the engine did not
    /// declare is an error before the game. (An engine that sent no
    /// features at all cannot be checked: it gets its options as given.)
    fn check_options(&self, featured: bool) -> Result<(), Fault> {
        if !featured {
            return Ok(());
        }
        for (name, _) in &self.settings.options {
            if !self.declared.iter().any(|d| d.eq_ignore_ascii_case(name)) {
                return Err(Fault::bare(Trouble::NoOption {
                    name: name.clone(),
                    declared: self.declared.clone(),
                }));
            }
        }
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.proc
            .send(line)
            .map_err(|e| Fault::new(Trouble::Write(e.to_string()), self.proc.recent()))
    }

    /// With `ping`: waits for the engine to catch up.
    fn sync(&mut self) -> Result<(), Fault> {
        if !self.ping {
            return Ok(());
        }
        let n = self.next_ping;
        self.next_ping = self.next_ping.wrapping_add(1);
        self.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            match self.proc.next_line(deadline) {
                Next::Line(l) if l.trim() == want => return Ok(()),
                Next::Line(l) => self.note(&l)?,
                Next::Timeout => {
                    return Err(Fault::new(
                        Trouble::Hung { awaited: want },
                        self.proc.recent(),
                    ));
                }
                Next::Gone(exit) => {
                    return Err(Fault::new(Trouble::Gone { exit }, self.proc.recent()));
                }
            }
        }
    }

    /// Takes note of a line that came while the engine was not on move.
    fn note(&mut self, line: &str) -> Result<(), Fault> {
        self.take_features(line)?;
        match classify(line) {
            Said::OfferDraw => self.offered = true,
            Said::Resign => self.resigned = true,
            Said::Illegal(t) => {
                self.known = None;
                return Err(Fault::new(
                    Trouble::Refused {
                        what: "the game",
                        said: t,
                    },
                    self.proc.recent(),
                ));
            }
            _ => {}
        }
        Ok(())
    }

    fn drain(&mut self) -> Result<(), Fault> {
        let mut lines = Vec::new();
        let gone = self.proc.drain(|l| lines.push(l.to_string()));
        for l in &lines {
            self.note(l)?;
        }
        match gone {
            Some(exit) => Err(Fault::new(Trouble::Gone { exit }, self.proc.recent())),
            None => Ok(()),
        }
    }

    fn user_move(&mut self, pos: &Chess, m: &Move) -> Result<(), Fault> {
        let text = notation::to_xboard(pos, m, self.san);
        if self.usermove {
            self.send(&format!("usermove {text}"))
        } else {
            self.send(&text)
        }
    }

    /// The engine was left out of `force` mode after its move and the job
    /// is the game it knows with one more move, the opponent's, without a
    /// draw offer: that move is all it needs (it answers with its own).
    /// The move, and the position before it.
    fn ponder_move(&self, job: &Job<'_>) -> Option<(Chess, Move)> {
        let (start, moves) = self.known.as_ref()?;
        let continues = self.free
            && !job.draw_offered
            && start == job.start
            && job.moves.len() == moves.len() + 1
            && job.moves[..moves.len()] == moves[..];
        if !continues {
            return None;
        }
        let mut pos = job.start.clone();
        for m in moves {
            pos.play_unchecked(*m);
        }
        Some((pos, *job.moves.last()?))
    }

    /// Ends the engine's pondering: back to `force` mode.
    fn bind(&mut self) -> Result<(), Fault> {
        if std::mem::take(&mut self.free) {
            self.send("force")?;
        }
        Ok(())
    }

    /// Brings the engine to the job's position, in force mode.
    fn set_up(&mut self, job: &Job<'_>) -> Result<(), Fault> {
        self.free = false;
        let in_step = self.known.as_ref().is_some_and(|(start, moves)| {
            start == job.start
                && moves.len() <= job.moves.len()
                && job.moves[..moves.len()] == moves[..]
        });
        let from = if in_step {
            self.send("force")?;
            self.known.as_ref().map_or(0, |(_, m)| m.len())
        } else {
            // `post`: its thinking (score, depth, pv) goes with the reply.
            for c in ["new", "force", "post"] {
                self.send(c)?;
            }
            for c in xboard_level(job.time_control, self.settings.limits) {
                self.send(&c)?;
            }
            self.set_position(job.start)?;
            0
        };
        let mut pos = job.start.clone();
        for (i, m) in job.moves.iter().enumerate() {
            if i >= from {
                self.user_move(&pos, m)?;
            }
            pos.play_unchecked(*m);
        }
        self.known = Some((job.start.clone(), job.moves.to_vec()));
        Ok(())
    }

    /// After `new` and `force`: sets up `start` when it is not the
    /// initial position, with `setboard FEN`, or, for an engine without
    /// `feature setboard=1` (Fairy-Max), with CECP's older `edit` (see
    /// [`edit_commands`]).
    fn set_position(&mut self, start: &Chess) -> Result<(), Fault> {
        if Variant::of(start) == Variant::Chess960 {
            return self.set_chess960(start);
        }
        if *start == Chess::default() {
            return Ok(());
        }
        if self.setboard {
            return self.send(&format!("setboard {}", game::fen_of(start)));
        }
        if start.turn() == Color::Black {
            // CECP: `edit` keeps the side to move; xboard plays a2a3
            // first to set up a position with Black to move.
            let a3 = Move::Normal {
                role: shakmaty::Role::Pawn,
                from: shakmaty::Square::A2,
                capture: None,
                to: shakmaty::Square::A3,
                promotion: None,
            };
            self.user_move(&Chess::default(), &a3)?;
        }
        for c in edit_commands(start) {
            self.send(&c)?;
        }
        self.settings.log.line(
            Dir::Note,
            "no feature setboard=1: the position set up with edit (castling assumed where \
             king and rook stand at home, no en passant on the first move)",
        );
        Ok(())
    }

    /// Why the engine cannot play Chess960, if it cannot: its `feature
    /// variants` does not list `fischerandom`, or it has no `setboard`.
    fn chess960_refusal(&self) -> Option<Refusal> {
        if !self.variants.iter().any(|v| v == FISCHERANDOM) {
            return Some(Refusal::NoFischerandom {
                listed: self.variants.clone(),
            });
        }
        (!self.setboard).then_some(Refusal::NoSetboard)
    }

    /// A Chess960 game: `variant fischerandom` (after `new`, as CECP
    /// asks), then `setboard FEN` with X-FEN castling. Refused when the
    /// engine's `feature variants` does not list `fischerandom`, or it has
    /// no `setboard` (`edit` cannot give Chess960 castling rights).
    fn set_chess960(&mut self, start: &Chess) -> Result<(), Fault> {
        if let Some(why) = self.chess960_refusal() {
            return Err(Fault::bare(Trouble::CannotPlay(why)));
        }
        self.send(&format!("variant {FISCHERANDOM}"))?;
        self.send(&format!("setboard {}", game::fen_of(start)))
    }

    /// Says on the console (the first [`UNKNOWN_SAID`] of them), and in the engine log, that a line from the
    /// engine was not understood (and so was ignored).
    fn not_understood(&mut self, line: &str) {
        let text = crate::text::strip_control(line.trim());
        self.unknown = self.unknown.saturating_add(1);
        if self.unknown <= UNKNOWN_SAID {
            eprintln!("client: engine line not understood (ignored): {text}");
        }
        if self.unknown == UNKNOWN_SAID {
            eprintln!(
                "client: {UNKNOWN_SAID} engine lines not understood; more go to the engine log only"
            );
        }
        self.settings
            .log
            .line(Dir::Note, &format!("not understood (ignored): {text}"));
    }

    /// The engine answered (`answer`: its move, resignation or claim):
    /// out of thinking, and what it said just after its move caught.
    fn after_move(&mut self, job: &Job<'_>, mut answer: Answer) -> Result<Answer, Fault> {
        // Stop it from thinking on (with --ponder it thinks on the
        // opponent's time); catch a claim or offer sent just after the
        // move.
        if self.settings.ponder {
            self.free = true;
        } else {
            self.send("force")?;
        }
        // With `ping`, wait until the engine has said all it had to say
        // about this move (GNU Chess sends `1. ... e5` and then `My move
        // is : e5`): the second form must not be read as the next move.
        self.sync()?;
        // An offer the sync read goes with this move, as one drained would.
        if std::mem::take(&mut self.offered) {
            if job.draw_offered {
                answer.accept_draw = true;
            } else {
                answer.offer_draw = true;
            }
        }
        // (An engine that died right after its move is found next time.)
        let _ = self.proc.drain(|l| match classify(l) {
            Said::Result(r, _) if r == "1/2-1/2" => answer.claim_draw = true,
            Said::OfferDraw if job.draw_offered => answer.accept_draw = true,
            Said::OfferDraw => answer.offer_draw = true,
            _ => {}
        });
        Ok(answer)
    }
}

impl Driver for Xboard {
    fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    fn new_game(&mut self) -> Result<(), Fault> {
        self.drain()?;
        self.known = None;
        self.offered = false;
        self.resigned = false;
        Ok(())
    }

    fn begin(&mut self, job: &Job<'_>) -> Result<Option<Answer>, Fault> {
        self.drain()?;
        let answer = Answer {
            offer_draw: std::mem::take(&mut self.offered),
            resign: std::mem::take(&mut self.resigned),
            ..Answer::default()
        };
        if answer.resign {
            return Ok(Some(answer));
        }
        let me = job.position.turn();
        let clocks = |x: &mut Xboard| -> Result<(), Fault> {
            if let Limit::Clock(t, _) = &job.limit_now() {
                for c in xboard_clocks(t, me) {
                    x.send(&c)?;
                }
            }
            Ok(())
        };
        if let Some((before, m)) = self.ponder_move(job) {
            // Pondering (or done with it): the opponent's move is its cue.
            self.free = false;
            clocks(self)?;
            self.user_move(&before, &m)?;
            if let Some((_, moves)) = self.known.as_mut() {
                moves.push(m);
            }
        } else {
            self.set_up(job)?;
            self.sync()?;
            clocks(self)?;
            if job.draw_offered {
                self.send("draw")?;
            }
            self.send("go")?;
        }
        // The search runs from its `go` (or the move it pondered on) out.
        self.search = Some(Pending::new(&self.proc, job, true, answer));
        Ok(None)
    }

    fn hear(
        &mut self,
        job: &Job<'_>,
        search: &mut Pending,
        line: String,
    ) -> Option<Result<Answer, Fault>> {
        if let Some(info) = parse_xboard_thinking(&line) {
            search.thinking.take(info);
            return None;
        }
        let me = job.position.turn();
        let answer = &mut search.answer;
        match classify(&line) {
            Said::Move(text) => match notation::from_xboard(job.position, &text) {
                Ok(m) => {
                    let thinking = Some(search.thought(m));
                    let answer = &mut search.answer;
                    answer.mv = Some(m);
                    answer.searched = self.proc.since(search.asked);
                    answer.thinking = thinking;
                    if let Some((_, moves)) = self.known.as_mut() {
                        moves.push(m);
                    }
                }
                Err(e) => {
                    self.known = None;
                    return Some(Err(Fault::new(Trouble::IllegalMove(e), self.proc.recent())));
                }
            },
            Said::OfferDraw if job.draw_offered => answer.accept_draw = true,
            Said::OfferDraw => answer.offer_draw = true,
            Said::Resign => answer.resign = true,
            Said::Result(r, comment) => {
                if r == "1/2-1/2" {
                    answer.claim_draw = true;
                } else if r == if me == Color::White { "0-1" } else { "1-0" } {
                    answer.resign = true;
                } else {
                    self.settings.log.line(
                        Dir::Note,
                        &format!("the engine claims {r} {{{comment}}}; left to the referee"),
                    );
                }
            }
            Said::Illegal(t) => {
                self.known = None;
                return Some(Err(Fault::new(
                    Trouble::Refused {
                        what: "the game",
                        said: t,
                    },
                    self.proc.recent(),
                )));
            }
            Said::Unknown => self.not_understood(&line),
            Said::Other => {
                if let Err(f) = self.take_features(&line) {
                    return Some(Err(f));
                }
            }
        }
        let answer = &search.answer;
        let over = answer.mv.is_some() || answer.resign || answer.claim_draw;
        over.then(|| self.after_move(job, std::mem::take(&mut search.answer)))
    }

    fn search(&mut self) -> &mut Option<Pending> {
        &mut self.search
    }

    fn process(&mut self) -> &mut EngineProcess {
        &mut self.proc
    }

    fn awaited(&self) -> &'static str {
        "move"
    }

    fn stop_command(&self) -> &'static str {
        "?"
    }

    fn game_over(&mut self, result: &str) {
        if self.known.is_some() {
            let _ = self.send(&format!("result {result} {{argus}}"));
        }
        self.known = None;
        self.free = false;
    }

    fn stop_pondering(&mut self) {
        // A write that fails shows when the engine is next asked.
        let _ = self.bind();
    }

    fn analyse(
        &mut self,
        position: &Chess,
        search: &Search,
        wait: Duration,
    ) -> Result<Analysis, Fault> {
        self.drain()?;
        let limit = search
            .xboard_limit()
            .map_err(|e| Fault::new(Trouble::Limit(e), self.proc.recent()))?;
        self.known = None;
        self.free = false;
        for c in ["new", "force", "post"] {
            self.send(c)?;
        }
        for c in &limit {
            self.send(c)?;
        }
        self.set_position(position)?;
        self.sync()?;
        self.send("go")?;
        let started = Instant::now();
        let mut collector = Collector::new(position.clone(), true);
        let best = loop {
            let line = match self.proc.next_line(started + wait) {
                Next::Line(l) => l,
                Next::Timeout => {
                    return Err(Fault::new(
                        Trouble::HungSearch {
                            awaited: "move",
                            wait,
                        },
                        self.proc.recent(),
                    ));
                }
                Next::Gone(exit) => {
                    return Err(Fault::new(
                        Trouble::GoneAwaiting {
                            exit,
                            awaited: "its move".into(),
                        },
                        self.proc.recent(),
                    ));
                }
            };
            if let Some(info) = parse_xboard_thinking(&line) {
                collector.take(info);
                continue;
            }
            match classify(&line) {
                Said::Move(text) => {
                    break Some(
                        notation::from_xboard(position, &text)
                            .map_err(|e| Fault::new(Trouble::IllegalMove(e), self.proc.recent()))?,
                    );
                }
                Said::Result(..) | Said::Resign => break None,
                Said::Illegal(t) => {
                    return Err(Fault::new(
                        Trouble::Refused {
                            what: "the position",
                            said: t,
                        },
                        self.proc.recent(),
                    ));
                }
                Said::OfferDraw | Said::Other | Said::Unknown => {}
            }
        };
        let elapsed = started.elapsed();
        self.send("force")?;
        Ok(collector.finish(best, elapsed))
    }

    fn refuses(&self, variant: Variant) -> Option<Refusal> {
        match variant {
            Variant::Standard => None,
            Variant::Chess960 => self.chess960_refusal(),
        }
    }

    fn quit(self: Box<Self>) {
        self.proc.quit(Some("quit"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a handshake on fake time: `said` is what the engine says and
    /// when (ms after `protover 2`); returns the nudges (their times) and
    /// how it ended, and when.
    fn shake(said: &[(u64, &str)]) -> (Vec<u64>, HandshakeEnd, u64) {
        let (nudges, _, ending, at) = shake_asking(said);
        (nudges, ending, at)
    }

    /// [`shake`], with the times `protover 2` went out again.
    fn shake_asking(said: &[(u64, &str)]) -> (Vec<u64>, Vec<u64>, HandshakeEnd, u64) {
        let t0 = Instant::now();
        let ms = |t: Instant| t.duration_since(t0).as_millis() as u64;
        let mut hs = Handshake::new(t0);
        let mut now = t0;
        let mut said = said.iter().peekable();
        let mut nudges = Vec::new();
        let mut asks = Vec::new();
        for _ in 0..100_000 {
            match hs.step(now) {
                Step::Finish(e) => return (nudges, asks, e, ms(now)),
                Step::Nudge(_) => nudges.push(ms(now)),
                Step::AskAgain => asks.push(ms(now)),
                Step::Wait(until) => match said.peek() {
                    Some(&&(at, line)) if t0 + Duration::from_millis(at) <= until => {
                        said.next();
                        now = now.max(t0 + Duration::from_millis(at));
                        let done = parse_features(line)
                            .into_iter()
                            .find(|(n, _)| n == "done")
                            .map(|(_, v)| v == "1");
                        hs.heard(line, done, now);
                    }
                    _ => now = until,
                },
            }
        }
        panic!("the handshake never ended: {hs:?}");
    }

    #[test]
    fn a_silent_engine_gets_the_protocols_two_seconds_then_its_defaults() {
        let (nudges, ending, at) = shake(&[]);
        assert_eq!(
            ending,
            HandshakeEnd::Defaults {
                waited: FEATURE_WAIT
            }
        );
        assert_eq!(at, 2000);
        // Nudged every 50 ms of silence meanwhile.
        assert_eq!(nudges.len(), 39, "{nudges:?}");
        assert_eq!(nudges[..3], [50, 100, 150]);
    }

    #[test]
    fn done_1_ends_the_handshake_at_once() {
        let (nudges, ending, at) = shake(&[
            (10, "feature myname=\"X\" done=0"),
            (30, "feature usermove=1 done=1"),
        ]);
        assert_eq!((nudges.len(), ending, at), (0, HandshakeEnd::Done, 30));
    }

    #[test]
    fn an_engine_that_speaks_gets_longer_and_is_nudged_until_done() {
        // GNU Chess: `Chess` at once, its features only after some nudges,
        // past the two seconds.
        let (nudges, ending, at) = shake(&[
            (5, "Chess"),
            (3200, "Invalid move: "),
            (3210, "feature done=0"),
            (3220, "feature setboard=1"),
            (3600, "feature done=1"),
        ]);
        assert_eq!((ending, at), (HandshakeEnd::Done, 3600));
        // Nudged through the silences, until done=1 (not only until the
        // first feature).
        assert!(nudges.contains(&55) && nudges.contains(&3155), "{nudges:?}");
        assert!(
            nudges.contains(&3270) && nudges.contains(&3570),
            "{nudges:?}"
        );
        // done=0 and then nothing: the wait ends at 30 s with the
        // features it sent, not as a hang.
        let (_, ending, at) = shake(&[(100, "feature done=0"), (200, "feature san=1")]);
        assert_eq!(
            (ending, at),
            (
                HandshakeEnd::Defaults {
                    waited: FEATURE_LATE
                },
                30_000
            )
        );
    }

    #[test]
    fn an_engine_that_speaks_but_sends_no_feature_is_asked_again_five_times() {
        // GNU Chess having lost the first `protover 2`: `Chess`, then only
        // its answers to the nudges.
        let (nudges, asks, ending, at) = shake_asking(&[
            (5, "Chess"),
            (60, "Invalid move: "),
            (110, "Invalid move: "),
        ]);
        assert_eq!(asks, [1010, 2010, 3010, 4010, 5010]);
        assert!(!nudges.iter().any(|n| asks.contains(n)), "{nudges:?}");
        // Still nudged between and after, and waited for as long as any
        // engine that spoke.
        assert!(
            nudges.contains(&1060) && nudges.contains(&29_960),
            "{nudges:?}"
        );
        assert_eq!(
            (ending, at),
            (
                HandshakeEnd::Defaults {
                    waited: FEATURE_LATE
                },
                30_000
            )
        );
        // Asked again, it answers: the features end it.
        let (_, asks, ending, at) = shake_asking(&[
            (5, "Chess"),
            (1020, "feature done=0"),
            (1030, "feature usermove=1 done=1"),
        ]);
        assert_eq!((asks, ending, at), (vec![1005], HandshakeEnd::Done, 1030));
    }

    #[test]
    fn nudges_are_bursts_until_the_budget_then_single_lines() {
        // GNU Chess stuck at its start: `Chess`, then silence to the end.
        let t0 = Instant::now();
        let mut hs = Handshake::new(t0);
        hs.heard("Chess", None, t0);
        let (mut now, mut sizes) = (t0, Vec::new());
        loop {
            match hs.step(now) {
                Step::Nudge(n) => sizes.push(n),
                Step::AskAgain => {}
                Step::Wait(until) => now = until,
                Step::Finish(_) => break,
            }
        }
        let bursts = NUDGE_BUDGET / NUDGE_BURST;
        assert!(
            sizes[..bursts].iter().all(|&n| n == NUDGE_BURST),
            "{sizes:?}"
        );
        assert!(sizes[bursts..].iter().all(|&n| n == 1), "{sizes:?}");
        // Every 50 ms for the 30 s, and what GNU Chess's front end holds
        // while it waits (two bytes a line) stays under its 4096 bytes.
        assert!(sizes.len() > 550, "{}", sizes.len());
        let lines: usize = sizes.iter().sum();
        assert!(2 * lines < 3500, "{lines} lines");
    }

    #[test]
    fn an_engine_that_sent_a_feature_or_nothing_is_not_asked_again() {
        // Features coming slowly: no second `protover 2`.
        let (_, asks, ending, _) = shake_asking(&[
            (5, "feature done=0"),
            (2500, "feature usermove=1"),
            (4000, "feature done=1"),
        ]);
        assert_eq!((asks, ending), (vec![], HandshakeEnd::Done));
        // A silent engine (protocol version 1) is not asked again either.
        let (_, asks, _, at) = shake_asking(&[]);
        assert_eq!((asks, at), (vec![], 2000));
    }

    #[test]
    fn features_with_quotes() {
        let f = parse_features(r#"feature myname="Crafty 25.2" usermove=1 san=0  done=1"#);
        assert_eq!(
            f,
            [
                ("myname".to_string(), "Crafty 25.2".to_string()),
                ("usermove".into(), "1".into()),
                ("san".into(), "0".into()),
                ("done".into(), "1".into()),
            ]
        );
        assert!(parse_features("feature").is_empty());
        assert_eq!(parse_features("feature bare x=1").len(), 1);
        assert_eq!(
            parse_features(r#"feature myname="unclosed"#)[0].1,
            "unclosed"
        );
    }

    #[test]
    fn a_position_is_set_up_with_edit_white_then_black_after_c() {
        let pos: Chess = "4k2r/8/8/8/8/8/4P3/R3K3 b Qk - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        assert_eq!(
            edit_commands(&pos),
            ["edit", "#", "Ra1", "Ke1", "Pe2", "c", "Ke8", "Rh8", "."]
        );
    }

    #[test]
    fn engine_lines() {
        assert_eq!(classify("move e2e4"), Said::Move("e2e4".into()));
        assert_eq!(classify("move O-O"), Said::Move("O-O".into()));
        assert_eq!(classify("offer draw"), Said::OfferDraw);
        assert_eq!(classify("resign"), Said::Resign);
        assert_eq!(
            classify("1/2-1/2 {3-fold repetition}"),
            Said::Result("1/2-1/2".into(), "3-fold repetition".into())
        );
        assert_eq!(
            classify("0-1 {White resigns}"),
            Said::Result("0-1".into(), "White resigns".into())
        );
        assert!(matches!(classify("Illegal move: e2e5"), Said::Illegal(_)));
        assert!(matches!(
            classify("Illegal move (no piece): e2e5"),
            Said::Illegal(_)
        ));
        assert_eq!(classify("1 25 0 1234 e2e4 e7e5"), Said::Other);
        assert_eq!(classify("move"), Said::Unknown);
        assert_eq!(classify(""), Said::Other);
        assert_eq!(classify("Hello, I am confused"), Said::Unknown);
        assert_eq!(classify("# thinking"), Said::Other);
        assert_eq!(classify("feature done=1"), Said::Other);
        // GNU Chess answering the handshake's empty-line nudge: nothing to
        // say on the console; a named invalid move still is.
        assert_eq!(classify("Invalid move: "), Said::Other);
        assert_eq!(classify("Invalid move: e2e5"), Said::Unknown);
    }

    #[test]
    fn every_documented_move_form() {
        // CECP: `move MOVE`; older engines `N. ... MOVE` and
        // `My move is: MOVE`; GNU Chess 6.2.7 `My move is : MOVE`.
        for line in [
            "move g8f6",
            "1. ... g8f6",
            "12. ... g8f6",
            "My move is: g8f6",
            "My move is : g8f6",
        ] {
            assert_eq!(classify(line), Said::Move("g8f6".into()), "{line}");
        }
        assert_eq!(classify("3. ... Nf6"), Said::Move("Nf6".into()));
        // The echo of the move we gave it is not its move.
        assert_eq!(classify("1. e2e4"), Said::Other);
    }
}
