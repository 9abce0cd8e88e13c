//! A fake-time harness that drives [`Referee`] only through its public
//! interface: it feeds client lines, supervisor commands and timer wake-ups
//! at chosen times, acknowledges every [`Output::Send`] with
//! [`Input::Sent`], keeps what each client was sent (parsed), plays simple
//! clients that echo positions correctly, and renders the whole exchange as
//! a transcript for `docs/protocol.md`.

use std::fmt::Write as _;

use shakmaty::{Chess, Position};

use crate::clock::Arrival;
use crate::epd::{Record, RefCom};
use crate::game;
use crate::record::pgn::write_pgn;
use crate::referee::Referee;
use crate::referee::client::ClientId;
use crate::referee::event::{Event, GameOver};
use crate::referee::messages::{Command, Input, Output};
use crate::referee::settings::Settings;
use crate::referee::snapshot::Snapshot;
use crate::referee::words;

mod setup;

pub use ClientId::{A, B};
pub use setup::*;

/// One record argus sent, as a client received it.
#[derive(Debug, Clone)]
pub struct Got {
    pub seq: u64,
    pub text: String,
    pub record: Record,
}

impl Got {
    /// The `refcom` operand (every record argus sends has one).
    pub fn refcom(&self) -> RefCom {
        match self.record.refcom() {
            Ok(Some(c)) => c,
            other => panic!("record without a valid refcom ({other:?}): {}", self.text),
        }
    }

    /// The `sm` operand, if any.
    pub fn sm(&self) -> Option<&str> {
        self.record.sm().expect("valid sm")
    }

    /// The `ptp` tag value named `name`.
    pub fn tag(&self, name: &str) -> Option<String> {
        self.record
            .ptp()
            .expect("valid ptp")
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }

    /// The `cc` operands as written (`ddd:hh:mm:ss`), White's first.
    pub fn cc(&self) -> (String, String) {
        let (w, b) = self.record.cc().expect("valid cc").expect("cc present");
        (w.to_string(), b.to_string())
    }

    /// The position the four fields (with `hmvc` and `fmvn`) describe.
    pub fn position(&self) -> Chess {
        game::position_of_record(&self.record)
            .unwrap_or_else(|e| panic!("record with an illegal position ({e}): {}", self.text))
    }

    /// The FEN of [`Got::position`].
    pub fn fen(&self) -> String {
        game::fen_of(&self.position())
    }
}

/// How sent records are acknowledged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Acks {
    /// `Input::Sent` at the same instant the record was handed out.
    Immediate,
    /// Kept back until the test calls [`Harness::ack`].
    Held,
}

/// The harness: a referee, fake time, and what each side saw.
pub struct Harness {
    pub referee: Referee,
    /// The harness clock (ms): the time of the last input fed.
    pub now: u64,
    pub acks: Acks,
    /// Every output, in order, with its time.
    pub outputs: Vec<(u64, Output)>,
    /// Everything each client was sent (A, B).
    got: [Vec<Got>; 2],
    /// How many of `got` a test has already taken.
    taken: [usize; 2],
    /// Sends not yet acknowledged (with [`Acks::Held`]).
    pending: Vec<(ClientId, u64)>,
    /// What each client holds as its current position (its last record
    /// from argus, with the supplied move played).
    view: [Option<Chess>; 2],
    /// The transcript, one line per event.
    transcript: Vec<String>,
}

impl Harness {
    /// A referee with these settings, nothing fed yet.
    pub fn new(settings: Settings) -> Harness {
        Harness {
            referee: Referee::new(settings),
            now: 0,
            acks: Acks::Immediate,
            outputs: Vec::new(),
            got: [Vec::new(), Vec::new()],
            taken: [0, 0],
            pending: Vec::new(),
            view: [None, None],
            transcript: Vec::new(),
        }
    }

    /// Tells the referee what the wall clock read (as a session does when
    /// it starts or resumes).
    pub fn wall_clock(&mut self, wall: crate::referee::WallClock) {
        self.referee.set_wall_clock(wall);
    }

    /// Feeds one input at `at` and carries out the outputs.
    pub fn feed(&mut self, input: Input, at: u64) -> Vec<Output> {
        assert!(at >= self.now, "time went backwards: {at} < {}", self.now);
        self.now = at;
        let out = self.referee.handle(input, at);
        self.absorb(&out, at);
        out
    }

    fn absorb(&mut self, out: &[Output], at: u64) {
        for o in out {
            self.outputs.push((at, o.clone()));
            match o {
                Output::Send { to, seq, text } => {
                    let record = Record::parse(text)
                        .unwrap_or_else(|e| panic!("argus sent a bad record ({e}): {text}"));
                    check_well_formed(&record, text);
                    self.transcript
                        .push(format!("{} > {}: {text}", stamp(at), to.letter()));
                    let got = Got {
                        seq: *seq,
                        text: text.clone(),
                        record,
                    };
                    self.view[to.index()] = Some(client_view(&got));
                    self.got[to.index()].push(got);
                    self.pending.push((*to, *seq));
                }
                Output::Event(e) if e.logged() => {
                    let text = words::sentence(e);
                    self.transcript.push(format!("{} # {text}", stamp(at)));
                }
                Output::Event(_) => {}
            }
        }
        if self.acks == Acks::Immediate {
            self.ack_all(at);
        }
    }

    /// Acknowledges every record not yet acknowledged, at `at`.
    pub fn ack_all(&mut self, at: u64) {
        let pending = std::mem::take(&mut self.pending);
        for (to, seq) in pending {
            self.now = self.now.max(at);
            let out = self.referee.handle(Input::Sent { to, seq }, at);
            assert!(out.is_empty(), "Sent produced outputs: {out:?}");
        }
    }

    /// Acknowledges the held records to `to`, at `at`.
    pub fn ack(&mut self, to: ClientId, at: u64) {
        let (mine, rest): (Vec<_>, Vec<_>) = self.pending.drain(..).partition(|(c, _)| *c == to);
        self.pending = rest;
        for (to, seq) in mine {
            self.now = self.now.max(at);
            let out = self.referee.handle(Input::Sent { to, seq }, at);
            assert!(out.is_empty(), "Sent produced outputs: {out:?}");
        }
    }

    /// The link refuses the held records to `to` (its queue is full):
    /// they are dropped and the core is told, at `at`.
    pub fn refuse(&mut self, to: ClientId, at: u64) -> Vec<Output> {
        let (mine, rest): (Vec<_>, Vec<_>) = self.pending.drain(..).partition(|(c, _)| *c == to);
        self.pending = rest;
        let seq = mine
            .first()
            .map(|(_, s)| *s)
            .expect("a record held for the client");
        self.feed(Input::Refused { to, seq }, at)
    }

    /// A line from a client, `text.len() + 2` bytes on the wire (CR LF).
    pub fn line(&mut self, from: ClientId, at: u64, text: &str) -> Vec<Output> {
        self.line_bytes(from, at, text, text.len() + 2)
    }

    /// A line from a client with an explicit wire size (how it came in
    /// not known: the full wire-time credit).
    pub fn line_bytes(
        &mut self,
        from: ClientId,
        at: u64,
        text: &str,
        wire_bytes: usize,
    ) -> Vec<Output> {
        self.line_arrived(from, at, text, (wire_bytes, None))
    }

    /// A line from a client of `wire_bytes` that came in as `arrival` said.
    pub fn line_arrived(
        &mut self,
        from: ClientId,
        at: u64,
        text: &str,
        (wire_bytes, arrival): (usize, Option<Arrival>),
    ) -> Vec<Output> {
        self.transcript
            .push(format!("{} < {}: {text}", stamp(at), from.letter()));
        self.feed(
            Input::Line {
                from,
                text: text.to_string(),
                wire_bytes,
                arrival,
            },
            at,
        )
    }

    /// A supervisor command at `at`.
    pub fn command(&mut self, cmd: Command, at: u64) -> Vec<Output> {
        self.feed(Input::Supervisor(cmd), at)
    }

    /// Wakes the core at its next deadline; returns that time.
    pub fn timer(&mut self) -> u64 {
        let at = self
            .referee
            .next_deadline()
            .expect("the core should have a deadline");
        self.feed(Input::Timer, at);
        at
    }

    /// `refreq sign_on;` from a client, with a `tcsi` name if given.
    pub fn sign_on(&mut self, from: ClientId, at: u64, name: Option<&str>) -> Vec<Output> {
        let text = match name {
            Some(n) => format!(
                "{INITIAL} refreq sign_on; tcsi \"ttyS{}\" \"{n}\";",
                from.index()
            ),
            None => format!("{INITIAL} refreq sign_on;"),
        };
        self.line(from, at, &text)
    }

    /// Both sign on at 0, and the reset delay passes: the game is on and
    /// White (A) has been asked to respond. Returns the time.
    pub fn start(&mut self) -> u64 {
        self.sign_on(A, 0, None);
        self.sign_on(B, 0, None);
        self.timer()
    }

    /// The fields a correct client echoes: its current position.
    pub fn echo(&self, who: ClientId) -> String {
        let pos = self.view[who.index()]
            .as_ref()
            .expect("the client has been sent a position");
        fields_text(pos)
    }

    /// A correct reply: the echoed position, `refreq reply;`, `sm` and any
    /// `extra` operations (e.g. `draw_offer;`).
    pub fn reply_text(&self, who: ClientId, san: Option<&str>, extra: &str) -> String {
        let mut t = format!("{} refreq reply;", self.echo(who));
        if let Some(s) = san {
            write!(t, " sm {s};").expect("string write");
        }
        if !extra.is_empty() {
            t.push(' ');
            t.push_str(extra);
        }
        t
    }

    /// Sends a correct reply with this move.
    pub fn reply(&mut self, who: ClientId, at: u64, san: &str) -> Vec<Output> {
        let t = self.reply_text(who, Some(san), "");
        self.line(who, at, &t)
    }

    /// Sends a correct reply with these extra operations (and `san` if any).
    pub fn reply_with(
        &mut self,
        who: ClientId,
        at: u64,
        san: Option<&str>,
        extra: &str,
    ) -> Vec<Output> {
        let t = self.reply_text(who, san, extra);
        self.line(who, at, &t)
    }

    /// Plays `sans` alternately, starting with whoever is asked to respond,
    /// one move every `step` ms from `at`; returns the time of the last.
    pub fn play(&mut self, mut at: u64, step: u64, sans: &[&str]) -> u64 {
        for san in sans {
            let who = self.on_move().expect("someone is on move");
            at += step;
            self.reply(who, at, san);
        }
        at
    }

    /// The client that was last asked to respond and has not answered, as
    /// seen from the outside (the latest respond record, if nothing came
    /// after it on either side).
    pub fn on_move(&self) -> Option<ClientId> {
        let last = |c: ClientId| {
            self.got[c.index()]
                .iter()
                .rev()
                .find(|g| g.refcom() == RefCom::Respond)
                .map(|g| g.seq)
        };
        match (last(A), last(B)) {
            (Some(a), Some(b)) => Some(if a > b { A } else { B }),
            (Some(_), None) => Some(A),
            (None, Some(_)) => Some(B),
            (None, None) => None,
        }
    }

    /// Records sent to `who` since the last `take` (and marks them taken).
    pub fn take(&mut self, who: ClientId) -> Vec<Got> {
        let i = who.index();
        let new = self.got[i][self.taken[i]..].to_vec();
        self.taken[i] = self.got[i].len();
        new
    }

    /// Drops what both clients were sent so far.
    pub fn clear(&mut self) {
        self.take(A);
        self.take(B);
    }

    /// The refcom operands of the records sent to `who` since the last take.
    pub fn take_cmds(&mut self, who: ClientId) -> Vec<RefCom> {
        self.take(who).iter().map(Got::refcom).collect()
    }

    /// Everything `who` was ever sent.
    pub fn all(&self, who: ClientId) -> &[Got] {
        &self.got[who.index()]
    }

    /// The last record sent to `who`.
    pub fn last(&self, who: ClientId) -> &Got {
        self.got[who.index()].last().expect("something was sent")
    }

    /// The games that ended, in order.
    pub fn game_overs(&self) -> Vec<GameOver> {
        self.outputs
            .iter()
            .filter_map(|(_, o)| match o {
                Output::Event(Event::GameOver(g)) => Some(g.clone()),
                _ => None,
            })
            .collect()
    }

    /// The one game that ended (panics unless exactly one did).
    pub fn game_over(&self) -> GameOver {
        let g = self.game_overs();
        assert_eq!(g.len(), 1, "expected exactly one finished game");
        g.into_iter().next().expect("one game")
    }

    /// The final PGN text of the one finished game.
    pub fn final_pgn(&self) -> String {
        write_pgn(&self.game_over().pgn)
    }

    /// The PGN text of the game in progress (or the last one).
    pub fn live_pgn(&self) -> String {
        write_pgn(&self.referee.live_pgn(self.now).expect("a game was started"))
    }

    /// The events so far, in order.
    pub fn events(&self) -> Vec<Event> {
        self.outputs
            .iter()
            .filter_map(|(_, o)| o.event().cloned())
            .collect()
    }

    /// Asserts that one of the notices so far says `words`.
    pub fn assert_noticed(&self, words: &str) {
        let notices = self.notices();
        assert!(notices.iter().any(|n| n.contains(words)), "{notices:?}");
    }

    /// Asserts that every record A was sent carries its line check
    /// (`Acrc`) and none that B was sent does: A signed on checking its
    /// lines, B not.
    pub fn assert_only_a_checked(&self) {
        use crate::epd::line_check::{Checked, verify};
        for got in self.all(ClientId::A) {
            assert!(
                matches!(verify(&got.text), Checked::Valid(_)),
                "{}",
                got.text
            );
        }
        for got in self.all(ClientId::B) {
            assert_eq!(verify(&got.text), Checked::Absent, "{}", got.text);
        }
    }

    /// The logged events so far in words (`referee::words::sentence`), in
    /// order: what the transcript and the log show.
    pub fn notices(&self) -> Vec<String> {
        self.events()
            .iter()
            .filter(|e| e.logged())
            .map(words::sentence)
            .collect()
    }

    /// A snapshot at the harness time.
    pub fn snap(&self) -> Snapshot {
        self.referee.snapshot(self.now)
    }

    /// The transcript: one line per record in or out and per notice.
    pub fn transcript(&self) -> String {
        let mut s = self.transcript.join("\n");
        s.push('\n');
        s
    }
}

/// The four fields of the initial position.
pub const INITIAL: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

/// `12.345` seconds, right-aligned.
fn stamp(at: u64) -> String {
    format!("{:>3}.{:03}", at / 1000, at % 1000)
}

/// The four EPD fields of `pos` as text.
pub fn fields_text(pos: &Chess) -> String {
    let f = game::fields_of(pos);
    format!("{} {} {} {}", f.placement, f.side, f.castling, f.en_passant)
}

/// What a client holds after receiving `got`: the position given, with the
/// supplied move played (respond and execute carry one).
fn client_view(got: &Got) -> Chess {
    let mut pos = got.position();
    if let Some(sm) = got.sm() {
        let m = game::parse_san(&pos, sm)
            .unwrap_or_else(|e| panic!("argus sent an illegal sm ({e:?}): {}", got.text));
        pos.play_unchecked(m);
    }
    pos
}

/// Every record argus sends carries the four fields, `refcom`, `cc`,
/// `fmvn` and `hmvc`, and the fields describe a legal position that agrees
/// with `fmvn` and `hmvc`.
fn check_well_formed(r: &Record, text: &str) {
    for op in ["refcom", "cc", "fmvn", "hmvc"] {
        assert!(r.has(op), "record without {op}: {text}");
    }
    assert!(
        matches!(r.refcom(), Ok(Some(_))),
        "bad refcom operand: {text}"
    );
    assert!(matches!(r.cc(), Ok(Some(_))), "bad cc: {text}");
    let (hmvc, fmvn) = (r.hmvc(), r.fmvn());
    let (Ok(Some(h)), Ok(Some(f))) = (hmvc, fmvn) else {
        panic!("bad hmvc or fmvn: {text}");
    };
    let pos = game::position_from_fields(&r.fields, Some(h), Some(f))
        .unwrap_or_else(|e| panic!("illegal position ({e}): {text}"));
    assert_eq!(pos.halfmoves(), h);
    assert_eq!(pos.fullmoves().get(), f);
}
