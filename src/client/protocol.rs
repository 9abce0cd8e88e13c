//! The reference client's protocol logic, without I/O: it turns the
//! referee's records into the records to send back. The runner
//! (`client::run`) does the port and the thinking time.
//!
//! It follows the EPD spec section 8 to the letter: `reset` sets up a new
//! game from the record's position; `execute` and `respond` first adopt
//! the record's position if it differs from the client's own (clearing the
//! history, as the spec says), then play the record's `sm`; `respond` is
//! answered with the position reached and `refreq reply;` with `sm` = the
//! chosen move; `conclude` ends the game, `disconnect` the session.

use shakmaty::{Chess, Position};

use crate::client::mover::Mover;
use crate::epd::{Operation, Record, RefCom, RefReq};
use crate::game::{self, Game};
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
    game: Option<Game>,
    tags: Vec<(String, String)>,
}

impl ClientProtocol {
    pub fn new(name: &str, mover: Mover, claim_draws: bool) -> ClientProtocol {
        ClientProtocol {
            name: strip_control(name).replace('"', "'"),
            mover,
            claim_draws,
            game: None,
            tags: Vec::new(),
        }
    }

    /// The sign-on record: the initial position, `refreq sign_on;` and
    /// `tcsi` with the client's name.
    pub fn sign_on(&self) -> String {
        let pos = self
            .game
            .as_ref()
            .map_or_else(Chess::default, |g| g.position().clone());
        Record::new(game::fields_of(&pos))
            .with(Operation::refreq(RefReq::SignOn))
            .with(Operation::tcsi("", &self.name))
            .to_canonical()
    }

    /// The PGN tags the referee sent with `inform` (latest values).
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The game as the client follows it.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
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
        match cmd {
            RefCom::Reset => match self.adopt(&rec) {
                Ok(()) => vec![Action::Log("reset: new game".into())],
                Err(e) => self.fault(format!("reset with a bad position: {e}")),
            },
            RefCom::Inform => {
                if let Ok(tags) = rec.ptp() {
                    for (k, v) in tags {
                        let v = strip_control(&v);
                        if k == "Round" {
                            // The game's key for the mover: a move asked
                            // again is then the same move.
                            self.mover.set_game(&v);
                        }
                        match self.tags.iter_mut().find(|(t, _)| *t == k) {
                            Some(slot) => slot.1 = v,
                            None => self.tags.push((k, v)),
                        }
                    }
                }
                vec![Action::Log(format!("inform: {}", self.describe_tags()))]
            }
            RefCom::Execute => match self.sync_and_play(&rec) {
                Ok(()) => Vec::new(),
                Err(e) => self.fault(format!("execute: {e}")),
            },
            RefCom::Respond => {
                if let Err(e) = self.sync_and_play(&rec) {
                    return self.fault(format!("respond: {e}"));
                }
                self.reply(rec.draw_offer())
            }
            RefCom::Conclude => vec![Action::Log("conclude: game over".into())],
            RefCom::Fault => vec![Action::Log("the referee reported a fault".into())],
            RefCom::Disconnect => vec![Action::Disconnect],
        }
    }

    fn describe_tags(&self) -> String {
        self.tags
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn fault(&self, why: String) -> Vec<Action> {
        let pos = self
            .game
            .as_ref()
            .map_or_else(Chess::default, |g| g.position().clone());
        let rec = Record::new(game::fields_of(&pos)).with(Operation::refreq(RefReq::Fault));
        vec![Action::Log(why), Action::Send(rec.to_canonical())]
    }

    /// Sets up a new game from the record's position.
    fn adopt(&mut self, rec: &Record) -> Result<(), String> {
        self.game = Some(Game::new(game::position_of_record(rec)?));
        Ok(())
    }

    /// Adopts the record's position if it differs from ours, then plays its
    /// `sm` if there is one.
    fn sync_and_play(&mut self, rec: &Record) -> Result<(), String> {
        let same = self
            .game
            .as_ref()
            .is_some_and(|g| game::echo_mismatch(g.position(), &rec.fields).is_none());
        if !same {
            self.adopt(rec)?;
        }
        if let Some(san) = rec.sm().map_err(|e| e.to_string())? {
            let g = self.game.as_mut().ok_or("no game")?;
            g.play_san(san).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Chooses a move and builds the reply; an offered draw is declined
    /// by playing on.
    fn reply(&mut self, _draw_offered: bool) -> Vec<Action> {
        let Some(g) = self.game.as_mut() else {
            return vec![Action::Log("respond without a game".into())];
        };
        let mut rec = Record::new(game::fields_of(g.position()))
            .with(Operation::refreq(RefReq::Reply))
            .with(Operation::fmvn(g.position().fullmoves().get()))
            .with(Operation::hmvc(g.position().halfmoves()));
        let claim = self.claim_draws && g.claimable_draw().is_some();
        match self.mover.choose(g.position()) {
            Some(m) => {
                let san = game::san_of(g.position(), &m);
                rec.set(Operation::sm(&san));
                if claim {
                    rec.set(Operation::new("draw_claim"));
                }
                if g.play(m).is_err() {
                    return vec![Action::Log(format!(
                        "own move {san} was refused by the rules"
                    ))];
                }
            }
            None => {
                if claim {
                    rec.set(Operation::new("draw_claim"));
                }
            }
        }
        vec![Action::Reply(rec.to_canonical())]
    }
}
