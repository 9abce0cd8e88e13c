//! How the harness judges what the referee did with a line it delivered:
//! what it must do is decided before the core sees the line (refuse it,
//! or punish an offence as the policies say), and checked after against
//! the state before and after and the outputs.

use shakmaty::Color;

use crate::epd::{Record, RefCom};
use crate::game::{self, Game};
use crate::referee::snapshot::{EventKind, Phase};
use crate::referee::{
    ClientId, Event, FalseClaim, GameOver, GameResult, IllegalMove, Input, Output, Termination,
};

use super::super::checks::Fingerprint;
use super::super::spec::{Offence, OffenceKind};
use super::Sim;
use super::queue::Expect;

impl Sim {
    /// What the line must be judged as, given the referee's state: an
    /// offence from a client the referee is not waiting for is a stray,
    /// and an offence in a reply whose echo is wrong anyway (the client's
    /// view was out of date) is judged as a bad echo first.
    pub(super) fn judged_as(
        &self,
        expect: Expect,
        from: Option<ClientId>,
        input: &Input,
    ) -> Expect {
        let mut expect = expect;
        if let (Expect::Offence(_), Some(from)) = (expect, from)
            && self.awaited != Some(from)
        {
            expect = Expect::Stray;
        }
        if let (Expect::Offence(k), Input::Line { text, .. }) = (expect, input)
            && k != OffenceKind::BadEcho
            && !self.echo_matches(text)
        {
            expect = Expect::Offence(OffenceKind::BadEcho);
        }
        expect
    }

    /// Whether the line must be rejected: junk always, a stray when the
    /// referee is not waiting for its client.
    pub(super) fn must_reject(&self, expect: Expect, from: Option<ClientId>) -> bool {
        match (expect, from) {
            (Expect::Junk, _) => true,
            (Expect::Stray, Some(from)) => {
                self.awaited != Some(from) || self.referee.is_over() || {
                    // A client the referee holds as signed off is refused
                    // whatever it sends (other than sign_on).
                    !self.referee.snapshot(self.now).clients[from].signed_on
                }
            }
            _ => false,
        }
    }

    /// For a false claim: whether the claim is valid after all.
    pub(super) fn claim_validity(&self, expect: Expect, input: &Input) -> Option<bool> {
        match (expect, input) {
            (Expect::Offence(OffenceKind::FalseClaim), Input::Line { text, .. }) => {
                Some(self.claim_is_valid(text))
            }
            _ => None,
        }
    }

    /// A line that must be rejected was, was logged as such, and changed
    /// nothing.
    pub(super) fn check_rejected(
        &mut self,
        outs: &[Output],
        shown: &str,
        before: &Fingerprint,
        after: &Fingerprint,
    ) {
        let at = self.now;
        self.report.checked_rejections += 1;
        assert!(
            outs.iter()
                .all(|o| o.event().is_some_and(|e| e.kind() == EventKind::Rejected)),
            "t={at}: a line that must be rejected gave {outs:?}"
        );
        assert!(
            !outs.is_empty(),
            "t={at}: a rejected line must be logged as rejected: {shown}"
        );
        assert_eq!(before, after, "t={at}: a rejected line changed the state");
    }

    /// Whether the position echoed in `text` is the referee's current one.
    fn echo_matches(&self, text: &str) -> bool {
        let pos = self.referee.snapshot(self.now).position;
        Record::parse(text).is_ok_and(|r| game::echo_mismatch(&pos, &r.fields).is_none())
    }

    /// A reply with an offence reached the referee while it was waiting
    /// for that client: check what it did against the policies.
    pub(super) fn check_offence(
        &mut self,
        kind: OffenceKind,
        from: ClientId,
        claim_valid: Option<bool>,
        before: &Fingerprint,
        after: &Fingerprint,
        outs: &[Output],
    ) {
        let at = self.now;
        let only_rejected = outs
            .iter()
            .all(|o| o.event().is_some_and(|e| e.kind() == EventKind::Rejected));
        // Held during a pause, it is judged at resume.
        let held = outs
            .iter()
            .any(|o| matches!(o.event(), Some(Event::ReplyHeld { client }) if *client == from));
        if held && !(kind == OffenceKind::FalseClaim && claim_valid == Some(true)) {
            // Its consequence comes at resume: count the offence now.
            self.count_offence(from, kind);
        }
        if only_rejected || held {
            // Refused before it was looked at (e.g. the client is being
            // brought back in line), or held for the resume: nothing may
            // change yet.
            assert_eq!(before, after, "t={at}: a refused offence changed the state");
            return;
        }
        let judged = Judged::new(at, kind, from, before, after, outs);
        if judged
            .over
            .is_some_and(|g| g.termination == Termination::TimeForfeit)
        {
            // The reply came after the flag fell: it was never looked at.
            assert_eq!(before.sans, after.sans);
            return;
        }
        let offence = match kind {
            OffenceKind::FalseClaim if claim_valid == Some(true) => None,
            k => Some(k),
        };
        if let Some(k) = offence {
            self.count_offence(from, k);
        }
        match offence {
            None => judged.check_valid_claim(),
            Some(OffenceKind::BadEcho) => judged.check_bad_echo(self.spec.illegal_move),
            Some(OffenceKind::Illegal | OffenceKind::Unparsable) => {
                judged.check_bad_move(self.spec.illegal_move);
            }
            Some(OffenceKind::FalseClaim) => judged.check_false_claim(self.spec.false_claim),
        }
    }

    /// Counts an offence by `from` in the current game.
    fn count_offence(&mut self, from: ClientId, kind: OffenceKind) {
        self.report.offences.push(Offence {
            game: self.current_game,
            client: from,
            kind,
        });
    }

    /// Whether the draw claim in `text` (with its move) is valid in the
    /// referee's current game, rebuilt from the snapshot.
    fn claim_is_valid(&self, text: &str) -> bool {
        let snap = self.referee.snapshot(self.now);
        let mut g = Game::new(snap.start.clone());
        for san in &snap.sans {
            g.play_san(san).expect("the referee's own moves replay");
        }
        if g.claimable_draw().is_some() {
            return true;
        }
        let Ok(rec) = Record::parse(text) else {
            return false;
        };
        match rec.sm() {
            Ok(Some(sm)) => game::parse_san(g.position(), sm)
                .ok()
                .and_then(|m| g.claimable_draw_after(&m))
                .is_some(),
            _ => false,
        }
    }
}

/// An offence the referee looked at (not refused, held or overtaken by a
/// flag), with what it did about it.
struct Judged<'a> {
    at: u64,
    kind: OffenceKind,
    from: ClientId,
    /// The offender's colour.
    color: Color,
    before: &'a Fingerprint,
    after: &'a Fingerprint,
    outs: &'a [Output],
    /// The game's end, if the reply ended it.
    over: Option<&'a GameOver>,
    /// Whether a move was played.
    moved: bool,
}

impl<'a> Judged<'a> {
    fn new(
        at: u64,
        kind: OffenceKind,
        from: ClientId,
        before: &'a Fingerprint,
        after: &'a Fingerprint,
        outs: &'a [Output],
    ) -> Judged<'a> {
        let color = before.clients[from]
            .color
            .expect("a client on move has a colour");
        let over = outs.iter().find_map(|o| match o.event() {
            Some(Event::GameOver(g)) => Some(g),
            _ => None,
        });
        let moved = outs
            .iter()
            .any(|o| matches!(o.event(), Some(Event::MoveMade { .. })));
        Judged {
            at,
            kind,
            from,
            color,
            before,
            after,
            outs,
            over,
            moved,
        }
    }

    /// The game was lost by the offender for a rules infraction.
    fn check_forfeit(&self, g: &GameOver) {
        let (at, kind, color) = (self.at, self.kind, self.color);
        assert_eq!(g.result, GameResult::Win(!color), "t={at}: {kind:?}: {g:?}");
        assert_eq!(g.termination, Termination::RulesInfraction);
    }

    /// Whether the referee sent `cmd` to the offender.
    fn sent_to_offender(&self, cmd: RefCom) -> bool {
        self.outs.iter().any(|o| is_record_to(o, self.from, cmd))
    }

    /// The offender's move was not played (else fails saying `why`).
    fn check_no_move_played(&self, why: std::fmt::Arguments<'_>) {
        assert_eq!(self.before.sans, self.after.sans, "{why}");
    }

    /// A claim that was valid after all: a draw.
    fn check_valid_claim(&self) {
        let at = self.at;
        let g = self.over.expect("a valid claim ends the game");
        assert_eq!(g.result, GameResult::Draw, "t={at}: {g:?}");
        assert_eq!(g.termination, Termination::Normal);
        self.check_no_move_played(format_args!("a claimed move is not played"));
    }

    /// A bad echo plays no move, and forfeits, pauses under the fault
    /// policy, or is resent.
    fn check_bad_echo(&self, policy: IllegalMove) {
        let (at, outs) = (self.at, self.outs);
        self.check_no_move_played(format_args!("t={at}: bad echo played a move"));
        match self.over {
            Some(g) => self.check_forfeit(g),
            None if policy == IllegalMove::Fault
                && matches!(self.after.phase, Phase::Paused { .. }) => {}
            None => assert!(
                self.sent_to_offender(RefCom::Respond),
                "t={at}: bad echo without a resend: {outs:?}"
            ),
        }
    }

    /// An illegal or unparsable move is never played, and is punished as
    /// the illegal-move policy says.
    fn check_bad_move(&self, policy: IllegalMove) {
        let (at, outs) = (self.at, self.outs);
        self.check_no_move_played(format_args!("t={at}: an illegal move was played"));
        assert!(!self.moved);
        match policy {
            IllegalMove::Forfeit => {
                self.check_forfeit(self.over.expect("an illegal move forfeits"))
            }
            IllegalMove::Fault => {
                assert!(self.over.is_none());
                assert!(matches!(self.after.phase, Phase::Paused { .. }));
                assert!(self.sent_to_offender(RefCom::Fault));
            }
            // Asked again while the turn's retries last, then lost.
            IllegalMove::Retry => match self.over {
                Some(g) => self.check_forfeit(g),
                None => assert!(
                    self.sent_to_offender(RefCom::Respond),
                    "t={at}: a bad move under retry was not asked again: {outs:?}"
                ),
            },
        }
    }

    /// A false claim forfeits without its move, or under play-on the move
    /// is played and the game goes on (or ends normally).
    fn check_false_claim(&self, policy: FalseClaim) {
        let (at, over) = (self.at, self.over);
        match policy {
            FalseClaim::Forfeit => {
                self.check_forfeit(over.expect("a false claim forfeits"));
                assert_eq!(self.before.sans, self.after.sans);
            }
            FalseClaim::PlayOn => {
                assert!(
                    over.is_none_or(|g| g.termination == Termination::Normal),
                    "t={at}: a false claim under play-on ended the game: {over:?}"
                );
                assert!(
                    self.moved,
                    "t={at}: the move given with a false claim is played"
                );
                assert_eq!(self.after.sans.len(), self.before.sans.len() + 1);
            }
        }
    }
}

fn is_record_to(o: &Output, client: ClientId, cmd: RefCom) -> bool {
    match o {
        Output::Send { to, text, .. } if *to == client => {
            Record::parse(text)
                .ok()
                .and_then(|r| r.refcom().ok().flatten())
                == Some(cmd)
        }
        _ => false,
    }
}
