//! One input handed to a referee core: journaled first, then its records
//! out to the links (one unit per client), then its events' words and
//! files; the tables' verdict and a refused record fed back at once. The
//! match's loop and a tournament's boards share it.

use std::collections::VecDeque;

use log::{info, warn};

use super::PortBook;
use crate::app::links::Links;
use crate::app::syzygy::Syzygy;
use crate::app::writers::{Writers, wants_checkpoint};
use crate::link::SendError;
use crate::referee::{ByClient, ClientId, Event, Input, Output, Referee};

/// Where a referee core's records go: the links of its two clients
/// (a match's two links, or the links of a tournament board's players).
pub(crate) trait Wires {
    /// Hands `to`'s records to its link as one unit, in order.
    fn send_all(&self, to: ClientId, unit: Vec<(u64, String)>) -> Result<(), SendError>;

    /// The core's match is over and its last records (the `disconnect`)
    /// are about to leave: told before they do, since a client may close
    /// its link the moment it has them. A tournament's board plays on.
    fn match_over(&self) {}
}

impl Wires for Links {
    fn send_all(&self, to: ClientId, unit: Vec<(u64, String)>) -> Result<(), SendError> {
        self[to].send_all(unit)
    }

    /// A client that closes its link now does as it was told: no warning.
    fn match_over(&self) {
        for link in self.values() {
            link.farewell();
        }
    }
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

/// Hands one input to the core: journaled (and synced) first, then its
/// outputs carried out, then the journal's checkpoint if a move was played
/// or a game ended. `seen` is shown every event the core emitted (a
/// tournament board learns its game's result and the players' faults so).
/// Returns whether there were outputs.
pub(crate) fn hand_to_core(
    input: Input,
    at: u64,
    core: &mut Referee,
    edges: Edges,
    books: &mut ByClient<PortBook>,
    outputs: &mut Writers,
    seen: &mut dyn FnMut(&Event),
) -> bool {
    // A record the link refuses is an input too (the core must not wait
    // for it to leave): it is fed right after the input that sent it; so
    // is the tables' verdict on a move just played.
    let mut hand = Hand {
        core,
        edges,
        books,
        outputs,
        seen,
    };
    let mut any = false;
    let mut queue = VecDeque::from([input]);
    while let Some(input) = queue.pop_front() {
        // Events from different threads can arrive slightly out of time order
        // (a link event stamped just before a timer that was handled first):
        // the core takes such a time as its current one, and the journal must
        // record the time the core used, so that its times never go back.
        let at = at.max(hand.core.time());
        let (outs, next) = hand.one(input, at);
        any |= outs;
        queue.extend(next);
    }
    any
}

/// What [`hand_to_core`] works with.
struct Hand<'a> {
    core: &'a mut Referee,
    edges: Edges<'a>,
    books: &'a mut ByClient<PortBook>,
    outputs: &'a mut Writers,
    seen: &'a mut dyn FnMut(&Event),
}

impl Hand<'_> {
    /// Hands one input to the core and carries out its outputs. Returns
    /// whether there were outputs, and the inputs they call for at once (a
    /// refused record, then the tables' verdict on a move).
    fn one(&mut self, input: Input, at: u64) -> (bool, Vec<Input>) {
        self.outputs.journal_input(&input, at);
        let mover = match &input {
            Input::Line { from, .. } if self.outputs.times_relays() => Some(*from),
            _ => None,
        };
        let outs = self.core.handle(input, at);
        if self.core.is_over() {
            self.edges.links.match_over();
        }
        let any = !outs.is_empty();
        let checkpoint = wants_checkpoint(&outs);
        let moved = outs
            .iter()
            .any(|o| matches!(o.event(), Some(Event::MoveMade { .. })));
        if wants_sync(&outs) {
            self.outputs.journal_sync();
        }
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
            Output::Send { .. } | Output::Event(Event::GameOver(_) | Event::SessionOver(_))
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
            outputs.audience_game_over(&g);
            // The match's last game: its number or the SPRT's decision.
            let last = core.is_over()
                || g.game_number >= core.settings().games
                || core.stats().sprt.is_some_and(|t| t.result.is_some());
            let counts = core.ponder_counts();
            let ponder: Vec<(String, (u32, u32))> = ClientId::BOTH
                .into_iter()
                .filter(|id| counts[*id].1 > 0)
                .map(|id| (core.client_name(id), counts[id]))
                .collect();
            outputs.match_stats(&core.stats(), &core.client_name(ClientId::A), last, &ponder);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Color;

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
