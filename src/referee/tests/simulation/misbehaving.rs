//! Clients that break the protocol: junk, strays, replies out of turn or
//! twice or before signing on, illegal and unparsable moves, bad echoes,
//! false claims, signing on twice, signing off mid-game, fault reports and
//! a client that stops answering. The harness checks each offence as it
//! arrives (a refused line changes nothing; an offence is punished as the
//! policy says, and the move is never played) and every game's result.

use shakmaty::{Chess, Position};

use crate::client::MoverKind;
use crate::epd::{Operation, Record, RefReq};
use crate::game;
use crate::referee::event::Rejection;
use crate::referee::{
    ClientId, Ending, Event, FalseClaim, IllegalMove, Input, Output, Referee, Settings, Termination,
};

use super::checks::Fingerprint;
use super::harness::run_match;
use super::matches::{category, distribution};
use super::spec::{Faults, MatchReport, MatchSpec, OffenceKind, Think};

/// Every kind of misbehaviour at `per_mille` (the rarer ones at a fraction
/// of it, so that games still get somewhere).
pub fn everything(per_mille: u32) -> Faults {
    Faults {
        junk: per_mille,
        out_of_turn: per_mille,
        duplicate: per_mille,
        bad_echo: per_mille / 2,
        illegal: per_mille / 4,
        unparsable: per_mille / 4,
        false_claim: per_mille / 4,
        sign_on_again: per_mille / 4,
        sign_off: per_mille / 4,
        fault_report: per_mille / 4,
        reply_before_sign_on: true,
        hang_in_game: None,
    }
}

fn run(name: &str, spec: MatchSpec) -> MatchReport {
    let r = run_match(spec);
    eprintln!(
        "{name}: {} games, {} rejected ({} checked unchanged), {} faults, {} offences; {:?}",
        r.games.len(),
        r.rejected,
        r.checked_rejections,
        r.fault_notices,
        r.offences.len(),
        distribution(&r.games)
    );
    r
}

fn offences(r: &MatchReport, kind: OffenceKind) -> usize {
    r.offences.iter().filter(|o| o.kind == kind).count()
}

#[test]
fn junk_strays_and_early_replies_are_refused_without_effect() {
    let faults = Faults {
        junk: 150,
        out_of_turn: 150,
        duplicate: 100,
        reply_before_sign_on: true,
        ..Faults::default()
    };
    let mut spec = MatchSpec::new(11, 16, "-");
    spec.faults = [faults.clone(), faults];
    spec.snapshot_every = 1;
    let r = run("junk", spec);
    assert!(r.checked_rejections > 200, "{}", r.checked_rejections);
    assert_eq!(
        r.rejected, r.checked_rejections,
        "only the junk was refused"
    );
    assert!(r.offences.is_empty());
    assert_eq!(r.fault_notices, 0);
    assert_eq!(r.disconnects, [16, 16], "at each game's end");
}

#[test]
fn illegal_and_unparsable_moves_forfeit() {
    let faults = Faults {
        illegal: 15,
        unparsable: 15,
        ..Faults::default()
    };
    let mut spec = MatchSpec::new(12, 40, "300+5");
    spec.faults = [faults.clone(), faults];
    spec.movers = [MoverKind::Greedy, MoverKind::Random];
    let r = run("illegal/forfeit", spec);
    let forfeits = r
        .games
        .iter()
        .filter(|g| g.termination == Termination::RulesInfraction)
        .count();
    assert!(forfeits > 10, "{forfeits}");
    assert_eq!(
        forfeits,
        offences(&r, OffenceKind::Illegal) + offences(&r, OffenceKind::Unparsable),
        "every illegal move forfeited its game"
    );
}

#[test]
fn illegal_moves_under_the_fault_policy_pause_and_resume() {
    let faults = Faults {
        illegal: 20,
        unparsable: 20,
        bad_echo: 20,
        ..Faults::default()
    };
    let mut spec = MatchSpec::new(13, 20, "-");
    spec.faults = [faults.clone(), faults];
    spec.illegal_move = IllegalMove::Fault;
    let r = run("illegal/fault", spec);
    assert!(r.fault_notices > 5, "{}", r.fault_notices);
    let forfeits = r
        .games
        .iter()
        .filter(|g| g.termination == Termination::RulesInfraction)
        .count();
    assert_eq!(forfeits, 0, "the fault policy never forfeits");
}

#[test]
fn illegal_moves_under_the_retry_policy_are_asked_again() {
    // About one reply in seventeen is bad; a game is lost only after three
    // bad replies in a row (the default two retries): 1 turn in ~5,000,
    // where the forfeit policy loses every game at its first bad reply.
    let faults = Faults {
        illegal: 30,
        unparsable: 30,
        ..Faults::default()
    };
    let mut spec = MatchSpec::new(14, 20, "-");
    spec.faults = [faults.clone(), faults];
    spec.illegal_move = IllegalMove::Retry;
    let r = run("illegal/retry", spec);
    // The harness checked each offence: never played, asked again or lost.
    // Each retry is a warning.
    assert!(r.warnings > 50, "{}", r.warnings);
    let forfeits: Vec<_> = r
        .games
        .iter()
        .filter(|g| g.termination == Termination::RulesInfraction)
        .collect();
    assert!(
        forfeits.len() < r.games.len() / 2,
        "{} forfeits",
        forfeits.len()
    );
    for g in forfeits {
        assert!(
            matches!(&g.ending, Ending::Forfeit { offence, .. } if offence.asked_again == 2),
            "{:?}",
            g.ending
        );
    }
}

#[test]
fn bad_echoes_are_resent_then_forfeit() {
    let faults = Faults {
        bad_echo: 300,
        ..Faults::default()
    };
    let mut spec = MatchSpec::new(14, 12, "600");
    spec.faults = [faults, Faults::default()];
    let r = run("bad echo", spec);
    assert!(offences(&r, OffenceKind::BadEcho) > 50);
    assert!(r.warnings > 50, "each bad echo is warned about");
    // With 30% bad echoes and two resends, some games run out of resends.
    assert!(r.games.iter().any(|g| category(g) == "forfeit"));
}

#[test]
fn false_claims_forfeit() {
    let faults = Faults {
        false_claim: 20,
        ..Faults::default()
    };
    let mut spec = MatchSpec::new(15, 30, "-");
    spec.faults = [faults.clone(), faults];
    let r = run("false claims/forfeit", spec);
    assert!(offences(&r, OffenceKind::FalseClaim) > 10);
    assert!(r.games.iter().any(|g| category(g) == "forfeit"));
}

#[test]
fn false_claims_under_play_on_are_refused_and_play_goes_on() {
    let faults = Faults {
        false_claim: 50,
        ..Faults::default()
    };
    let mut spec = MatchSpec::new(16, 20, "-");
    spec.faults = [faults.clone(), faults];
    spec.false_claim = FalseClaim::PlayOn;
    let r = run("false claims/play on", spec);
    assert!(offences(&r, OffenceKind::FalseClaim) > 50);
    assert!(r.games.iter().all(|g| category(g) != "forfeit"));
}

#[test]
fn clients_that_sign_on_twice_or_sign_off_mid_game_are_brought_back() {
    let faults = Faults {
        sign_on_again: 20,
        sign_off: 20,
        fault_report: 10,
        ..Faults::default()
    };
    for (seed, tc) in [(17, "-"), (18, "180+2"), (19, "*300")] {
        let mut spec = MatchSpec::new(seed, 15, tc);
        spec.faults = [faults.clone(), faults.clone()];
        spec.think = [Think::QUICK, Think::SOMETIMES_SLOW];
        let r = run(&format!("sign on/off {tc}"), spec);
        assert!(r.warnings > 0, "sign-offs are warned about");
    }
}

#[test]
fn a_client_that_stops_answering_loses_on_time() {
    // The harness checks that each hung game ends by time forfeit against
    // the client that stopped answering.
    let mut spec = MatchSpec::new(20, 4, "60+1");
    spec.faults[0].hang_in_game = Some(2);
    spec.faults[1].hang_in_game = Some(3);
    let r = run("stops answering", spec);
    for n in [2, 3] {
        assert_eq!(r.games[n - 1].termination, Termination::TimeForfeit);
    }
}

#[test]
fn everything_at_once() {
    for (seed, tc, illegal) in [
        (21, "-", IllegalMove::Forfeit),
        (22, "300", IllegalMove::Fault),
        (23, "40/300:120", IllegalMove::Forfeit),
        (24, "*300", IllegalMove::Fault),
        (25, "300", IllegalMove::Retry),
    ] {
        let mut spec = MatchSpec::new(seed, 15, tc);
        spec.faults = [everything(40), everything(40)];
        spec.movers = [MoverKind::Greedy, MoverKind::Random];
        spec.think = [Think::SOMETIMES_SLOW, Think::SOMETIMES_SLOW];
        spec.illegal_move = illegal;
        spec.snapshot_every = 1;
        let r = run(&format!("everything {tc}"), spec);
        assert!(r.checked_rejections > 0);
    }
}

/// A referee with two clients and no clock: everything happens at one
/// instant, and every record leaves at once.
struct Untimed {
    referee: Referee,
}

/// The one instant of [`Untimed`].
const AT: u64 = 0;

impl Untimed {
    fn new() -> Untimed {
        Untimed {
            referee: Referee::new(Settings {
                reset_delay_ms: 0,
                conclude_delay_ms: 0,
                ..Settings::default()
            }),
        }
    }

    /// Hands `input` to the referee and reports every record it sends as
    /// sent; returns its outputs.
    fn step(&mut self, input: Input) -> Vec<Output> {
        let outs = self.referee.handle(input, AT);
        for o in &outs {
            if let Output::Send { to, seq, .. } = o {
                self.referee.handle(Input::Sent { to: *to, seq: *seq }, AT);
            }
        }
        outs
    }

    /// A line from client `from`.
    fn line(&mut self, from: ClientId, text: String) -> Vec<Output> {
        self.step(Input::Line {
            from,
            wire_bytes: text.len() + 2,
            text,
            arrival: None,
        })
    }

    fn sans(&self) -> Vec<String> {
        self.referee.snapshot(AT).sans
    }

    /// Both sign on, the game starts, A plays e4 and B e5. Returns A's
    /// reply with e4.
    fn play_e4_e5(&mut self) -> String {
        let sign_on = Record::new(game::fields_of(&Chess::default()))
            .with(Operation::refreq(RefReq::SignOn))
            .to_canonical();
        self.line(ClientId::A, sign_on.clone());
        self.line(ClientId::B, sign_on);
        self.step(Input::Timer);
        let start = Chess::default();
        let first = reply(&start, "e4");
        let outs = self.line(ClientId::A, first.clone());
        assert!(
            outs.iter()
                .any(|o| matches!(o.event(), Some(Event::MoveMade { .. })))
        );
        let after_e4 = self.referee.snapshot(AT).position;
        self.line(ClientId::B, reply(&after_e4, "e5"));
        assert_eq!(self.sans(), ["e4", "e5"]);
        first
    }
}

/// A reply with `san` echoing `pos`.
fn reply(pos: &Chess, san: &str) -> String {
    Record::new(game::fields_of(pos))
        .with(Operation::refreq(RefReq::Reply))
        .with(Operation::sm(san))
        .to_canonical()
}

/// A's first reply arrives again, late: refused, nothing sent.
fn check_late_reply_refused(u: &mut Untimed, first: String) {
    let before = Fingerprint::of(&u.referee, AT);
    let outs = u.line(ClientId::A, first);
    assert!(
        outs.iter().all(|o| matches!(
            o.event(),
            Some(Event::Rejected {
                why: Rejection::LateReply,
                ..
            })
        )),
        "{outs:?}"
    );
    assert!(!outs.is_empty());
    assert_eq!(Fingerprint::of(&u.referee, AT), before);
}

/// A wrong echo that A was never asked about is still resent.
fn check_unasked_wrong_echo_resent(u: &mut Untimed) {
    let mut wrong = Chess::default();
    wrong.play_unchecked(game::parse_san(&wrong, "d4").unwrap());
    let outs = u.line(ClientId::A, reply(&wrong, "d5"));
    assert!(
        outs.iter().any(
            |o| matches!(o, Output::Send { to: ClientId::A, text, .. } if text.contains("respond"))
        ),
        "{outs:?}"
    );
}

/// The late-reply rule found by the timed simulations: a reply that
/// echoes a position the client was asked about before (here: its first
/// reply, sent again after the game moved on) is refused as late, with no
/// resend (which would breed one more late reply each time, until a slow
/// but correct client forfeited on "bad echoes").
#[test]
fn a_late_reply_to_an_earlier_respond_is_refused_without_a_resend() {
    let mut u = Untimed::new();
    let first = u.play_e4_e5();
    check_late_reply_refused(&mut u, first);
    check_unasked_wrong_echo_resent(&mut u);

    // The right reply is played.
    let pos = u.referee.snapshot(AT).position;
    assert!(pos.turn().is_white());
    u.line(ClientId::A, reply(&pos, "Nf3"));
    assert_eq!(u.sans(), ["e4", "e5", "Nf3"]);
}
