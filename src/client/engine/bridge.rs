//! [`Bridge`]: the engine client's protocol logic. It follows the game
//! with a [`Tracker`], asks the engine (behind a [`Driver`]) for a move on
//! every `respond`, and builds the reply record: `sm` in SAN, with
//! `draw_offer`, `draw_accept`, `draw_claim` or `resign` as the engine
//! said.
//!
//! Faults: an engine that dies, hangs past its time plus the margin, or
//! sends an illegal move is reported to the referee with `refreq fault;`
//! (the supervisor sees it), its last output lines are logged, and it is
//! restarted once and given the whole game again; the pending `respond`
//! is then answered by the new engine. If the new engine fails too, the
//! bridge gives up ([`Bridge::failure`]).

use std::time::Instant;

use shakmaty::Position;

use super::analysis::{Analysis, pv_operation};
use super::log::Dir;
use super::{Answer, Driver, EngineSettings, Fault, Job, Limit, start, time};
use crate::client::Action;
use crate::client::track::{Event, Tracker};
use crate::epd::{Operation, Record};
use crate::text::strip_control;

/// Longest name sent with `tcsi`.
const NAME_LIMIT: usize = 64;

/// The engine client.
pub struct Bridge {
    settings: EngineSettings,
    driver: Option<Box<dyn Driver>>,
    name: String,
    /// The engine's own name (`id name`, `feature myname`), if it gave one.
    own_name: Option<String>,
    tracker: Tracker,
    failure: Option<String>,
}

impl Bridge {
    /// Starts the engine. The sign-on name is `name` if given, else the
    /// engine's own, else the command's file name. An engine that started
    /// but failed its first handshake (one that hangs on a loaded machine)
    /// is started once more, as an engine that fails mid-game is restarted
    /// once; the first failure is logged. A program that cannot be started
    /// at all is not tried again.
    pub fn start(settings: EngineSettings, name: Option<&str>) -> Result<Bridge, Fault> {
        let driver = match start(&settings) {
            Ok(d) => d,
            Err(f) if f.not_started => return Err(f),
            Err(f) => {
                log::warn!("the engine did not start: {f}; starting it once more");
                eprintln!(
                    "client: the engine did not start ({}); starting it once more",
                    f.what
                );
                start(&settings)?
            }
        };
        let own = driver.name().map(str::to_owned);
        let fallback = std::path::Path::new(&settings.command.program)
            .file_name()
            .map_or_else(|| "engine".into(), |f| f.to_string_lossy().into_owned());
        let name = name.map(str::to_owned).or(own.clone()).unwrap_or(fallback);
        let name: String = strip_control(&name)
            .replace('"', "'")
            .trim()
            .chars()
            .take(NAME_LIMIT)
            .collect();
        Ok(Bridge {
            settings,
            driver: Some(driver),
            name,
            own_name: own.map(|n| strip_control(&n).trim().chars().take(NAME_LIMIT).collect()),
            tracker: Tracker::new(),
            failure: None,
        })
    }

    /// The name sent with `tcsi`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The engine's own name, as it gave it (`id name`, `feature myname`).
    pub fn own_name(&self) -> Option<&str> {
        self.own_name.as_deref()
    }

    /// The game as the bridge follows it.
    pub fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    /// Why the bridge cannot go on (the engine failed again after its
    /// restart), if so.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// The sign-on record: the position, `refreq sign_on;`, `tcsi`.
    pub fn sign_on(&self) -> String {
        self.tracker.sign_on_record(&self.name)
    }

    /// Handles one line from the referee (see the module documentation).
    pub fn handle_line(&mut self, line: &str) -> Vec<Action> {
        let received = Instant::now();
        let rec = match Record::parse(line) {
            Ok(r) => r,
            Err(e) => {
                return vec![Action::Log(format!(
                    "ignored a line that is not a record ({e})"
                ))];
            }
        };
        let event = match self.tracker.handle(&rec) {
            Ok(ev) => ev,
            Err(e) => return self.fault_report(format!("bad record from the referee: {e}")),
        };
        match event {
            Event::NewGame => {
                let mut out = vec![Action::Log("reset: new game".into())];
                if let Err(f) = self.with_driver(|d| d.new_game()) {
                    out.extend(self.recover(f));
                }
                out
            }
            Event::Inform { result } => {
                if let Some(r) = &result
                    && let Some(d) = self.driver.as_mut()
                {
                    d.game_over(r);
                }
                let tags = self
                    .tracker
                    .tags()
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(" ");
                vec![Action::Log(format!("inform: {tags}"))]
            }
            Event::Executed => Vec::new(),
            Event::Respond { draw_offered } => self.respond(draw_offered, received),
            Event::Conclude => vec![Action::Log("conclude: game over".into())],
            Event::RefereeFault => vec![Action::Log("the referee reported a fault".into())],
            Event::Disconnect => {
                if let Some(d) = self.driver.take() {
                    d.quit();
                }
                vec![Action::Disconnect]
            }
        }
    }

    /// Stops the engine.
    pub fn shutdown(&mut self) {
        if let Some(d) = self.driver.take() {
            d.quit();
        }
    }

    fn with_driver<T>(
        &mut self,
        f: impl FnOnce(&mut dyn Driver) -> Result<T, Fault>,
    ) -> Result<T, Fault> {
        match self.driver.as_mut() {
            Some(d) => f(d.as_mut()),
            None => Err(Fault::new("the engine is not running", Vec::new())),
        }
    }

    /// Asks the engine for its move and builds the reply.
    fn respond(&mut self, draw_offered: bool, received: Instant) -> Vec<Action> {
        let mut out = Vec::new();
        let answer = match self.ask(draw_offered, received) {
            Ok(a) => a,
            Err(f) => {
                out.extend(self.recover(f));
                match self.ask(draw_offered, received) {
                    Ok(a) => a,
                    Err(f) => {
                        let why = format!("the restarted engine failed too: {f}");
                        self.give_up(&why);
                        out.push(Action::Log(why));
                        return out;
                    }
                }
            }
        };
        out.extend(self.reply(answer));
        out
    }

    fn ask(&mut self, draw_offered: bool, received: Instant) -> Result<Answer, Fault> {
        let Some(g) = self.tracker.game() else {
            return Err(Fault::new("respond without a game", Vec::new()));
        };
        let pos = g.position().clone();
        let me = pos.turn();
        let mut limit = super::time::limit(&self.tracker, self.settings.untimed);
        // Time spent here already (a restart) is off the engine's clock.
        if let Limit::Clock(t) = &mut limit {
            let spent = received.elapsed().as_millis() as u64;
            let left = t.remaining_ms.get_mut(me);
            *left = left.saturating_sub(spent);
        }
        let wait = time::wait_bound(&limit, me, self.settings.margin, self.settings.depth_wait);
        let job = Job {
            start: g.start(),
            moves: g.moves(),
            position: &pos,
            time_control: self.tracker.time_control(),
            limit,
            wait,
            draw_offered,
        };
        let Some(d) = self.driver.as_mut() else {
            return Err(Fault::new("the engine is not running", Vec::new()));
        };
        d.play(&job)
    }

    /// Reports the fault, logs it and restarts the engine (once).
    fn recover(&mut self, f: Fault) -> Vec<Action> {
        let mut out = self.fault_report(format!("engine fault: {f}"));
        self.settings.log.line(
            Dir::Note,
            &format!("engine fault: {}; restarting it", f.what),
        );
        if let Some(d) = self.driver.take() {
            drop(d); // kills the process
        }
        match start(&self.settings).and_then(|mut d| d.new_game().map(|()| d)) {
            Ok(d) => {
                out.push(Action::Log("engine restarted".into()));
                self.driver = Some(d);
            }
            Err(e) => {
                let why = format!("the engine could not be restarted: {e}");
                self.give_up(&why);
                out.push(Action::Log(why));
            }
        }
        out
    }

    fn give_up(&mut self, why: &str) {
        self.settings.log.line(Dir::Note, why);
        self.failure = Some(why.to_string());
    }

    /// `refreq fault;` with the current position, and a log line.
    fn fault_report(&self, why: String) -> Vec<Action> {
        vec![Action::Log(why), Action::Send(self.tracker.fault_record())]
    }

    fn reply(&mut self, a: Answer) -> Vec<Action> {
        let mut rec = self.tracker.reply_record();
        let mut out = Vec::new();
        if a.resign {
            rec.set(Operation::new("resign"));
            out.push(Action::Log("the engine resigns".into()));
            out.push(Action::Reply(rec.to_canonical()));
            return out;
        }
        if let Some(m) = a.mv {
            add_thinking(&mut rec, a.thinking.as_ref());
            match self.tracker.play_own(m) {
                Ok(san) => rec.set(Operation::sm(&san)),
                Err(e) => {
                    // The drivers check legality; this cannot happen.
                    return self.fault_report(format!("the engine's move was refused: {e}"));
                }
            };
        }
        if a.accept_draw {
            rec.set(Operation::new("draw_accept"));
        } else if a.offer_draw {
            rec.set(Operation::new("draw_offer"));
        }
        if a.claim_draw {
            rec.set(Operation::new("draw_claim"));
        }
        out.push(Action::Reply(rec.to_canonical()));
        out
    }
}

/// `ce`, `pv` and `acd` from the engine's last report before its move
/// (issue 17: a reply may carry the analysis, as pfga output does).
fn add_thinking(rec: &mut Record, thinking: Option<&Analysis>) {
    let Some(t) = thinking else { return };
    if let Some(score) = t.score {
        rec.set(Operation::new("ce").token(score.ce().to_string()));
    }
    if !t.pv.is_empty() {
        rec.set(pv_operation(&t.pv));
    }
    if let Some(d) = t.depth {
        rec.set(Operation::new("acd").token(d.to_string()));
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        self.shutdown();
    }
}
