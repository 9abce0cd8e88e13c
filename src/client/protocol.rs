//! The reference client's protocol logic, without I/O: it turns the
//! referee's records into the records to send back. The runner
//! (`app::client::run_on_port`) does the port and the thinking time.
//!
//! The game is followed by the shared [`Tracker`] (EPD section 8: `reset`
//! sets up a new game from the record's position; `execute` and `respond`
//! adopt the record's position if it differs, then play its `sm`; a
//! position the game already passed through takes the game back to it, so
//! a respond asked again keeps the history). `respond` is answered with
//! the position reached and `refreq reply;` with `sm` = the mover's move;
//! `conclude` ends the game, `disconnect` the session.

use crate::client::mover::Mover;
use crate::client::track::{Event, Tracker};
use crate::epd::{Operation, Record, RefCom};
use crate::game::Game;
use crate::text::strip_control;

/// What the runner should do after a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Send this record after the thinking time (a reply to `respond`).
    Reply(String),
    /// Send this record now (a fault report).
    Send(String),
    /// Something for the client's log.
    Log(String),
    /// The referee sent `disconnect`: close the port and exit.
    Disconnect,
}

/// The client's state: the game as it follows it, and its mover.
#[derive(Debug, Clone)]
pub struct ClientProtocol {
    name: String,
    mover: Mover,
    /// Claim a draw (threefold, fifty moves) whenever the rules allow it.
    claim_draws: bool,
    tracker: Tracker,
}

impl ClientProtocol {
    pub fn new(name: &str, mover: Mover, claim_draws: bool) -> ClientProtocol {
        ClientProtocol {
            name: strip_control(name).replace('"', "'"),
            mover,
            claim_draws,
            tracker: Tracker::new(),
        }
    }

    /// The sign-on record: the initial position, `refreq sign_on;` and
    /// `tcsi` with the client's name.
    pub fn sign_on(&self) -> String {
        self.tracker.sign_on_record(&self.name)
    }

    /// The PGN tags the referee sent with `inform` (latest values).
    pub fn tags(&self) -> &[(String, String)] {
        self.tracker.tags()
    }

    /// The game as the client follows it.
    pub fn game(&self) -> Option<&Game> {
        self.tracker.game()
    }

    /// Handles one line from the referee.
    pub fn handle_line(&mut self, line: &str) -> Vec<Action> {
        let rec = match Record::parse(line) {
            Ok(r) => r,
            Err(e) => {
                return vec![Action::Log(format!(
                    "ignored a line that is not a record ({e})"
                ))];
            }
        };
        let cmd = match rec.refcom() {
            Ok(Some(c)) => c,
            Ok(None) => return vec![Action::Log("ignored a record without refcom".into())],
            Err(e) => return vec![Action::Log(format!("ignored a record: {e}"))],
        };
        let event = self.tracker.handle(&rec);
        if cmd == RefCom::Inform {
            // The game's key for the mover: a move asked again is then
            // the same move.
            if let Some((_, round)) = self.tracker.tags().iter().find(|(k, _)| k == "Round") {
                self.mover.set_game(round);
            }
        }
        let event = match event {
            Ok(ev) => ev,
            Err(e) => {
                return match cmd {
                    RefCom::Inform => vec![Action::Log(format!("ignored {e}"))],
                    RefCom::Reset => self.fault(format!("reset with a bad position: {e}")),
                    RefCom::Execute => self.fault(format!("execute: {e}")),
                    RefCom::Respond => self.fault(format!("respond: {e}")),
                    _ => vec![Action::Log(format!("ignored a record: {e}"))],
                };
            }
        };
        match event {
            Event::NewGame => vec![Action::Log("reset: new game".into())],
            Event::Inform { .. } => {
                vec![Action::Log(format!("inform: {}", self.describe_tags()))]
            }
            Event::Executed => Vec::new(),
            Event::Respond { .. } => self.reply(),
            Event::Conclude => vec![Action::Log("conclude: game over".into())],
            Event::RefereeFault => vec![Action::Log("the referee reported a fault".into())],
            Event::Disconnect => vec![Action::Disconnect],
        }
    }

    fn describe_tags(&self) -> String {
        self.tracker
            .tags()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn fault(&self, why: String) -> Vec<Action> {
        vec![Action::Log(why), Action::Send(self.tracker.fault_record())]
    }

    /// Chooses a move and builds the reply; an offered draw is declined
    /// by playing on.
    fn reply(&mut self) -> Vec<Action> {
        let Some(g) = self.tracker.game() else {
            return vec![Action::Log("respond without a game".into())];
        };
        let claim = self.claim_draws && g.claimable_draw().is_some();
        let chosen = self.mover.choose(g.position());
        let mut rec = self.tracker.reply_record();
        if let Some(m) = chosen {
            match self.tracker.play_own(m) {
                Ok(san) => {
                    rec.set(Operation::sm(&san));
                }
                Err(e) => return vec![Action::Log(format!("own move was refused: {e}"))],
            }
        }
        if claim {
            rec.set(Operation::new("draw_claim"));
        }
        vec![Action::Reply(rec.to_canonical())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::MoverKind;
    use crate::epd::RefReq;
    use crate::game;
    use shakmaty::{Chess, Position};

    fn line(pos: &Chess, cmd: &str, extra: &str) -> String {
        let r = Record::new(game::fields_of(pos)).with(Operation::new("refcom").token(cmd));
        format!("{} {extra}", r.to_canonical())
    }

    fn replied(actions: &[Action]) -> Record {
        match actions {
            [Action::Reply(text)] => Record::parse(text).unwrap(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_respond_asked_again_keeps_the_history() {
        let mut p = ClientProtocol::new("x", Mover::new(MoverKind::Random, 3), true);
        let start = Chess::default();
        p.handle_line(&line(&start, "reset", ""));
        let first = replied(&p.handle_line(&line(&start, "respond", "")));
        assert_eq!(first.refreq().unwrap(), Some(RefReq::Reply));
        let mine = first.sm().unwrap().unwrap().to_owned();
        let after_mine = p.game().unwrap().position().clone();
        // The opponent answers; the referee asks for our second move.
        let theirs = game::san_of(&after_mine, &after_mine.legal_moves()[0]);
        let sm = format!("sm {theirs};");
        let second = replied(&p.handle_line(&line(&after_mine, "respond", &sm)));
        assert_eq!(p.game().unwrap().ply(), 3);
        // After a pause the referee asks again from the same position: the
        // game is taken back to it, not adopted afresh as a new start, so
        // its history (and with it repetitions) is kept.
        let again = replied(&p.handle_line(&line(&after_mine, "respond", &sm)));
        assert_eq!(again.sm().unwrap(), second.sm().unwrap(), "the same move");
        let g = p.game().unwrap();
        assert_eq!(*g.start(), start);
        assert_eq!(g.ply(), 3);
        assert_eq!(g.sans()[..2], [mine, theirs]);
    }

    #[test]
    fn a_bad_time_control_keeps_the_other_tags_and_the_round_keys_the_mover() {
        let mut p = ClientProtocol::new("x", Mover::new(MoverKind::Random, 3), true);
        let start = Chess::default();
        let out = p.handle_line(&line(
            &start,
            "inform",
            "ptp Round \"7\" TimeControl \"x\" White \"a\";",
        ));
        assert!(
            matches!(&out[..], [Action::Log(l)] if l.contains("TimeControl") || l.contains("time control")),
            "{out:?}"
        );
        assert!(p.tags().contains(&("White".into(), "a".into())));
        // The same round and position give the same move in a new client,
        // and the round does choose the move.
        let move_in_round = |round: &str| {
            let mut q = ClientProtocol::new("x", Mover::new(MoverKind::Random, 3), true);
            q.handle_line(&line(&start, "inform", &format!("ptp Round \"{round}\";")));
            let r = replied(&q.handle_line(&line(&start, "respond", "")));
            r.sm().unwrap().unwrap().to_owned()
        };
        let a = replied(&p.handle_line(&line(&start, "respond", "")));
        assert_eq!(a.sm().unwrap().unwrap(), move_in_round("7"));
        let rounds: Vec<String> = (1..=6).map(|r| move_in_round(&r.to_string())).collect();
        assert!(rounds.iter().any(|m| *m != rounds[0]), "{rounds:?}");
    }

    #[test]
    fn an_illegal_move_from_the_referee_is_reported_as_a_fault() {
        let mut p = ClientProtocol::new("x", Mover::new(MoverKind::Random, 3), true);
        let start = Chess::default();
        let out = p.handle_line(&line(&start, "execute", "sm Ke2;"));
        match &out[..] {
            [Action::Log(why), Action::Send(rec)] => {
                assert!(why.starts_with("execute:"), "{why}");
                let rec = Record::parse(rec).unwrap();
                assert_eq!(rec.refreq().unwrap(), Some(RefReq::Fault));
            }
            other => panic!("{other:?}"),
        }
    }
}
