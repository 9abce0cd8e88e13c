//! The simulated clients: each a [`ClientProtocol`] with a seeded mover,
//! thinking time and optional misbehaviour, single-threaded (lines that
//! arrive while it thinks wait in its inbox), on its own 9600 8N1 uplink.

use std::collections::VecDeque;

use crate::client::{Action, ClientProtocol, Mover};
use crate::clock::wire_time_ms;
use crate::epd::{Operation, Record, RefCom};
use crate::game::Game;
use crate::referee::ClientId;

use super::super::spec::{Faults, MatchSpec, OffenceKind, Think};
use super::super::spoil::{
    fault_record, has_move, illegal_san, junk_line, sign_off_record, spoil_echo, stray_reply,
    with_move, with_op,
};
use super::Sim;
use super::queue::{EventBody, Expect};

pub(super) struct SimClient {
    pub(super) proto: ClientProtocol,
    pub(super) think: Think,
    pub(super) faults: Faults,
    pub(super) rng: fastrand::Rng,
    /// Whether the client considers itself signed on (it sent sign_on and
    /// not sign_off since).
    pub(super) signed_on: bool,
    /// The client is thinking (or sending) until then; lines that arrive
    /// meanwhile wait in `inbox`, as with a single-threaded program.
    pub(super) busy_until: u64,
    pub(super) inbox: VecDeque<(String, u32)>,
    /// The game of the record the client read last: what its lines
    /// answer.
    pub(super) reading_game: u32,
    /// The uplink is busy until then.
    pub(super) uplink_free: u64,
    pub(super) disconnects: u32,
}

impl SimClient {
    /// Client `id` of `spec`, not signed on yet; its mover and its own
    /// random numbers are seeded from `rng`.
    pub(super) fn new(id: ClientId, spec: &MatchSpec, rng: &mut fastrand::Rng) -> SimClient {
        let i = id.index();
        let mover = Mover::new(spec.movers[i], rng.u64(..));
        SimClient {
            proto: ClientProtocol::new(&format!("sim-{}", id.letter()), mover, spec.claim_draws[i]),
            think: spec.think[i],
            faults: spec.faults[i].clone(),
            rng: fastrand::Rng::with_seed(rng.u64(..)),
            signed_on: false,
            busy_until: 0,
            inbox: VecDeque::new(),
            reading_game: 0,
            uplink_free: 0,
            disconnects: 0,
        }
    }
}

/// How a client spoils a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spoil {
    /// Sends it twice.
    Duplicate,
    BadEcho,
    Illegal,
    Unparsable,
    /// Claims a draw with the move.
    FalseClaim,
    /// Signs on again just before replying.
    SignOnAgain,
}

/// Picks how to spoil a reply, if at all, at the rates of `f`.
fn pick_spoil(f: &Faults, rng: &mut fastrand::Rng) -> Option<Spoil> {
    let total =
        f.duplicate + f.bad_echo + f.illegal + f.unparsable + f.false_claim + f.sign_on_again;
    if total == 0 {
        return None;
    }
    let r = rng.u32(..1000);
    let mut acc = 0;
    [
        (f.duplicate, Spoil::Duplicate),
        (f.bad_echo, Spoil::BadEcho),
        (f.illegal, Spoil::Illegal),
        (f.unparsable, Spoil::Unparsable),
        (f.false_claim, Spoil::FalseClaim),
        (f.sign_on_again, Spoil::SignOnAgain),
    ]
    .into_iter()
    .find_map(|(rate, k)| {
        acc += rate;
        (r < acc).then_some(k)
    })
}

impl Sim {
    /// A client with `reply_before_sign_on` sends a stray reply and a junk
    /// line at `start`, before it signs on.
    pub(super) fn reply_before_sign_on(&mut self, id: ClientId, start: u64) {
        let text = stray_reply(&Game::new(shakmaty::Chess::default()), &mut self.rng);
        self.schedule(
            start,
            EventBody::Line {
                from: id,
                text,
                expect: Expect::Stray,
                game: 0,
            },
        );
        let junk = junk_line(&mut self.rng);
        self.schedule(
            start,
            EventBody::Line {
                from: id,
                text: junk,
                expect: Expect::Junk,
                game: 0,
            },
        );
    }

    /// Sends a line from a client: it goes on the wire after `ready` (when
    /// the line is free) and reaches the referee when its last byte does.
    pub(super) fn client_send(&mut self, from: ClientId, text: String, ready: u64, expect: Expect) {
        let c = &mut self.clients[from.index()];
        let start = ready.max(c.uplink_free);
        let done = start + wire_time_ms(text.len() + 2, &self.line);
        c.uplink_free = done;
        let game = c.reading_game;
        self.schedule(
            done,
            EventBody::Line {
                from,
                text,
                expect,
                game,
            },
        );
    }

    pub(super) fn client_sign_on(&mut self, id: ClientId, at: u64) {
        let c = &mut self.clients[id.index()];
        c.signed_on = true;
        let text = c.proto.sign_on();
        self.client_send(id, text, at, Expect::Normal);
    }

    /// A record from the referee reaches client `to`: it reads it now, or
    /// when it has finished its current move.
    pub(super) fn client_receives(&mut self, to: ClientId, text: String, game: u32) {
        let c = &mut self.clients[to.index()];
        if !c.signed_on {
            return; // gone: nobody listens
        }
        if self.now < c.busy_until || !c.inbox.is_empty() {
            c.inbox.push_back((text, game));
        } else {
            c.reading_game = game;
            self.client_reads(to, &text);
        }
    }

    /// The client has sent its reply: it reads what came meanwhile.
    pub(super) fn client_free(&mut self, id: ClientId) {
        while self.now >= self.clients[id.index()].busy_until {
            let Some((text, game)) = self.clients[id.index()].inbox.pop_front() else {
                break;
            };
            self.clients[id.index()].reading_game = game;
            if self.clients[id.index()].signed_on {
                self.client_reads(id, &text);
            }
        }
    }

    /// The client reads one record and acts on it.
    fn client_reads(&mut self, to: ClientId, text: &str) {
        let now = self.now;
        // The match's number of the game in progress (0 before it starts).
        let game_number = if self.current_game > 0 {
            self.number
        } else {
            0
        };
        let i = to.index();
        let is_respond = Record::parse(text)
            .ok()
            .and_then(|r| r.refcom().ok().flatten())
            == Some(RefCom::Respond);
        let faults = self.clients[i].faults.clone();
        // Junk at a random later time.
        if roll(&mut self.clients[i].rng, faults.junk) {
            let delay = self.clients[i].rng.u64(0..5_000);
            if self.clients[i].rng.u32(..8) == 0 {
                self.schedule(now + delay, EventBody::Dropped { from: to });
            } else {
                let junk = junk_line(&mut self.clients[i].rng);
                self.client_send(to, junk, now + delay, Expect::Junk);
            }
        }
        if is_respond {
            if faults.hang_in_game == Some(game_number) {
                return; // stopped answering
            }
            if roll(&mut self.clients[i].rng, faults.sign_off) {
                let off = sign_off_record(&self.clients[i].proto);
                self.client_send(to, off, now, Expect::Normal);
                self.clients[i].signed_on = false;
                let back = now + self.clients[i].rng.u64(1_000..30_000);
                self.schedule(back, EventBody::SignOnAgain { client: to });
                return;
            }
            if roll(&mut self.clients[i].rng, faults.fault_report) {
                let f = fault_record(&self.clients[i].proto);
                self.client_send(to, f, now, Expect::Normal);
            }
        }
        let actions = self.clients[i].proto.handle_line(text);
        for a in actions {
            match a {
                Action::Reply(reply) => self.client_replies(to, reply),
                Action::Send(line) => self.client_send(to, line, now, Expect::Normal),
                Action::Log(_) => {}
                Action::Disconnect => self.clients[i].disconnects += 1,
            }
        }
    }

    /// The client's protocol produced `reply`: think, then send it (or a
    /// spoiled version of it).
    fn client_replies(&mut self, id: ClientId, reply: String) {
        let now = self.now;
        let i = id.index();
        let think = {
            let c = &mut self.clients[i];
            c.think.sample(&mut c.rng)
        };
        let ready = now + think;
        self.clients[i].busy_until = ready;
        self.schedule(ready, EventBody::ClientFree { client: id });
        let c = &mut self.clients[i];
        let pick = pick_spoil(&c.faults, &mut c.rng);
        self.send_reply(id, reply, ready, pick);
    }

    /// Sends `reply` when the client is `ready`, spoiled as `pick` says.
    fn send_reply(&mut self, id: ClientId, reply: String, ready: u64, pick: Option<Spoil>) {
        let rng = &mut self.clients[id.index()].rng;
        match pick {
            Some(Spoil::Duplicate) => {
                self.client_send(id, reply.clone(), ready, Expect::Normal);
                self.client_send(id, reply, ready + 1, Expect::Stray);
            }
            Some(Spoil::BadEcho) => {
                let bad = spoil_echo(&reply);
                self.client_send(id, bad, ready, Expect::Offence(OffenceKind::BadEcho));
            }
            Some(Spoil::Illegal) => {
                let bad = with_move(&reply, illegal_san(&reply, rng));
                self.client_send(id, bad, ready, Expect::Offence(OffenceKind::Illegal));
            }
            Some(Spoil::Unparsable) => {
                let junk = ["@@", "e9", "Zz", "0-0-0-0", "P", "exd", "Nb1b1b1", "--"];
                let m = junk[rng.usize(..junk.len())];
                let bad = with_move(&reply, m.to_string());
                self.client_send(id, bad, ready, Expect::Offence(OffenceKind::Unparsable));
            }
            Some(Spoil::FalseClaim) if has_move(&reply) => {
                let claim = with_op(&reply, Operation::new("draw_claim"));
                self.client_send(id, claim, ready, Expect::Offence(OffenceKind::FalseClaim));
            }
            Some(Spoil::SignOnAgain) => {
                self.client_sign_on(id, self.now);
                self.client_send(id, reply, ready, Expect::Normal);
            }
            _ => self.client_send(id, reply, ready, Expect::Normal),
        }
    }

    /// The referee sent `respond` to `to`: maybe the other client replies
    /// out of turn, arriving right after the respond has left.
    pub(super) fn maybe_out_of_turn(&mut self, to: ClientId) {
        let other = to.other();
        let o = &mut self.clients[other.index()];
        if !roll(&mut o.rng, o.faults.out_of_turn) {
            return;
        }
        let text = match o.proto.game() {
            Some(g) => stray_reply(g, &mut o.rng),
            None => stray_reply(&Game::new(shakmaty::Chess::default()), &mut o.rng),
        };
        let at = self.now;
        self.client_send(other, text, at, Expect::Stray);
    }
}

fn roll(rng: &mut fastrand::Rng, per_mille: u32) -> bool {
    per_mille > 0 && rng.u32(..1000) < per_mille
}
