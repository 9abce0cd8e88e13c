//! The UCI side of the bridge: `uci` / `id name` / `uciok`, `setoption`,
//! `isready` / `readyok`, `ucinewgame`, and for every move the whole game
//! (`position startpos|fen FEN moves ...`) and `go` with the clocks, read
//! back as `bestmove`. A Chess960 game turns the engine's `UCI_Chess960`
//! option on before its first `position` (off again for a standard game);
//! an engine without the option is refused for it.
//!
//! With `--ponder` the `Ponder` option is set and the engine ponders on
//! the reply it predicts (`bestmove X ponder Y`): `position ... X Y` and
//! `go ponder` with its clocks go out before its move is handed back, so
//! no record of the referee can come between. When it is next asked for
//! a move, the game is the one it pondered on (`ponderhit`, and its
//! search goes on) or another (`stop`, its move dropped, then the game as
//! it is); a game that ends while it ponders stops it ([`super::ponder`]).
//!
//! UCI has no draw offers, no draw claims and no resignation: a UCI engine
//! always answers with a move (an offer from the opponent is declined by
//! that move).

use std::time::{Duration, Instant};

use shakmaty::{Chess, Position};

use super::analysis::{Analysis, Collector, Search, parse_uci_info};
use super::log::Dir;
use super::notation;
use super::ponder::{Ponder, Resume, ponder_go, ponder_move};
use super::process::{EngineProcess, Next, STOP_WAIT};
use super::search::Pending;
use super::time::uci_go;
use super::{Answer, Driver, EngineSettings, Fault, HANDSHAKE, Job, Refusal, Trouble};
use crate::game::{self, Variant};

/// The UCI option that switches an engine to Chess960 (castling read and
/// written as king takes rook).
pub(super) const CHESS960_OPTION: &str = "UCI_Chess960";

/// A UCI engine after its handshake.
pub struct Uci {
    proc: EngineProcess,
    name: Option<String>,
    /// The engine declared `UCI_Chess960`.
    chess960_option: bool,
    /// The rules the engine was last told (standard until told otherwise).
    told: Variant,
    /// `--ponder`: what it ponders on (`None`: it does not ponder).
    ponder: Option<Ponder>,
    /// It did not stop pondering when told to: it is restarted when next
    /// asked for anything.
    stuck: Option<Fault>,
    /// The search in progress.
    search: Option<Pending>,
}

impl Uci {
    /// Starts the engine, reads its name and options, sets the
    /// `--option`s and waits until it is ready.
    pub fn start(settings: &EngineSettings) -> Result<Uci, Fault> {
        let proc = EngineProcess::spawn(&settings.command, settings.log.clone())
            .map_err(|e| Fault::bare(Trouble::NotStarted(e.to_string())))?;
        let mut uci = Uci {
            proc,
            name: None,
            chess960_option: false,
            told: Variant::Standard,
            ponder: settings.ponder.then(Ponder::default),
            stuck: None,
            search: None,
        };
        uci.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE;
        let mut declared: Vec<String> = Vec::new();
        loop {
            let line = uci.line(deadline, "uciok")?;
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (Some("uciok"), _) => break,
                (Some("id"), Some("name")) => {
                    let name = words.collect::<Vec<_>>().join(" ");
                    if !name.is_empty() {
                        uci.name = Some(name);
                    }
                }
                (Some("option"), Some("name")) => {
                    let rest: Vec<&str> = words.take_while(|w| *w != "type").collect();
                    declared.push(rest.join(" "));
                }
                _ => {}
            }
        }
        // A misspelt option (`Skil Level`) would otherwise be ignored by
        // the engine, seen only in the log: it is an error before the game.
        for (name, _) in &settings.options {
            if !declared.iter().any(|d| d.eq_ignore_ascii_case(name)) {
                return Err(Fault::bare(Trouble::NoOption {
                    name: name.clone(),
                    declared,
                }));
            }
        }
        uci.chess960_option = declared
            .iter()
            .any(|d| d.eq_ignore_ascii_case(CHESS960_OPTION));
        for (name, value) in &settings.options {
            uci.send(&format!("setoption name {name} value {value}"))?;
        }
        let ponder_set = settings
            .options
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("Ponder"));
        if settings.ponder && !ponder_set {
            // UCI: the engine is told it may ponder before its first go
            // ponder; one that declares no such option ponders all the same.
            if declared.iter().any(|d| d.eq_ignore_ascii_case("Ponder")) {
                uci.send("setoption name Ponder value true")?;
            } else {
                settings.log.line(
                    Dir::Note,
                    "the engine declares no Ponder option: go ponder is sent all the same",
                );
            }
        }
        uci.ready()?;
        Ok(uci)
    }

    /// Tells the engine the rules of `start`'s game when they differ from
    /// what it was told last: `setoption name UCI_Chess960 value true`
    /// (or `false`), then `isready`. A Chess960 game needs the option.
    fn tell_variant(&mut self, start: &Chess) -> Result<(), Fault> {
        let variant = Variant::of(start);
        if variant == self.told {
            return Ok(());
        }
        if let Some(why) = self.refuses(variant) {
            return Err(Fault::bare(Trouble::CannotPlay(why)));
        }
        let on = variant == Variant::Chess960;
        self.send(&format!("setoption name {CHESS960_OPTION} value {on}"))?;
        self.ready()?;
        self.told = variant;
        Ok(())
    }

    /// Stops a ponder the game no longer needs (the game is over, a new
    /// one begins): `stop`, and its `bestmove` read and dropped within
    /// [`STOP_WAIT`]. An engine that does not answer is restarted when
    /// next asked for anything.
    fn end_ponder(&mut self, why: &str) {
        if !self.ponder.as_mut().is_some_and(Ponder::abandon) {
            return;
        }
        self.proc
            .log_note(&format!("{why} while the engine pondered: stopping it"));
        if let Err(f) = self.stop_ponder() {
            self.stuck = Some(f);
        }
    }

    /// `stop` to a pondering engine; its `bestmove` is read and dropped.
    fn stop_ponder(&mut self) -> Result<(), Fault> {
        self.send("stop")?;
        let deadline = Instant::now() + STOP_WAIT;
        loop {
            let line = self.line(deadline, "bestmove after stop (pondering)")?;
            if line.split_whitespace().next() == Some("bestmove") {
                return Ok(());
            }
        }
    }

    /// A fault kept from a ponder the engine did not stop.
    fn unstuck(&mut self) -> Result<(), Fault> {
        match self.stuck.take() {
            Some(f) => Err(f),
            None => Ok(()),
        }
    }

    /// After its move `best` (in the job's position): the engine ponders
    /// on its `ponder` reply, if it gave a legal one, with the clocks as
    /// they are after its move.
    fn start_ponder(
        &mut self,
        job: &Job<'_>,
        best: &shakmaty::Move,
        ponder: Option<&str>,
        spent_ms: u64,
    ) -> Result<(), Fault> {
        let Some(reply) = ponder_move(job.position, best, ponder) else {
            return Ok(());
        };
        let mut moves = job.moves.to_vec();
        moves.extend([*best, reply]);
        self.send(&position_command(job.start, &moves))?;
        let me = job.position.turn();
        self.send(&ponder_go(&job.limit, me, spent_ms))?;
        if let Some(p) = self.ponder.as_mut() {
            p.started(job.start, moves);
        }
        Ok(())
    }

    /// Where a ponder stands when the engine is asked for `job`: a hit
    /// gets `ponderhit` (its search goes on), a miss `stop` (its move
    /// dropped); the caller then sends the game unless it was a hit.
    fn resume_ponder(&mut self, job: &Job<'_>) -> Result<Resume, Fault> {
        let resume = match self.ponder.as_mut() {
            Some(p) => p.resume(job.start, job.moves),
            None => Resume::Idle,
        };
        match resume {
            Resume::Hit => self.send("ponderhit")?,
            Resume::Miss => self.stop_ponder()?,
            Resume::Idle => {}
        }
        Ok(resume)
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.proc
            .send(line)
            .map_err(|e| Fault::new(Trouble::Write(e.to_string()), self.proc.recent()))
    }

    /// The next line, or a fault naming what was awaited.
    fn line(&mut self, deadline: Instant, awaited: &str) -> Result<String, Fault> {
        let next = self.proc.next_line(deadline);
        self.heard(next, awaited)
    }

    /// A line the engine said, or a fault naming what was awaited.
    fn heard(&mut self, next: Next, awaited: &str) -> Result<String, Fault> {
        match next {
            Next::Line(l) => Ok(l),
            Next::Timeout => Err(Fault::new(
                Trouble::Hung {
                    awaited: awaited.to_string(),
                },
                self.proc.recent(),
            )),
            Next::Gone(exit) => Err(Fault::new(
                Trouble::GoneAwaiting {
                    exit,
                    awaited: awaited.to_string(),
                },
                self.proc.recent(),
            )),
        }
    }

    fn ready(&mut self) -> Result<(), Fault> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        while self.line(deadline, "readyok")?.trim() != "readyok" {}
        Ok(())
    }

    /// Reads lines that came in since the last move (an engine that died
    /// meanwhile is found here).
    fn drain(&mut self) -> Result<(), Fault> {
        match self.proc.drain(|_| {}) {
            Some(exit) => Err(Fault::new(Trouble::Gone { exit }, self.proc.recent())),
            None => Ok(()),
        }
    }
}

/// The `position` command for a game.
pub fn position_command(start: &Chess, moves: &[shakmaty::Move]) -> String {
    let mut s = if *start == Chess::default() && start.fullmoves().get() == 1 {
        "position startpos".to_string()
    } else {
        format!("position fen {}", game::fen_of(start))
    };
    if !moves.is_empty() {
        let variant = game::Variant::of(start);
        s.reserve(6 + 6 * moves.len());
        s.push_str(" moves");
        for m in moves {
            s.push(' ');
            notation::push_uci(&mut s, m, variant);
        }
    }
    s
}

impl Driver for Uci {
    fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    fn new_game(&mut self) -> Result<(), Fault> {
        self.end_ponder("a new game");
        self.unstuck()?;
        self.drain()?;
        self.send("ucinewgame")?;
        self.ready()
    }

    fn begin(&mut self, job: &Job<'_>) -> Result<Option<Answer>, Fault> {
        self.unstuck()?;
        // A pondering engine's thinking lines wait unread until now:
        // what `resume_ponder` reads past, not drained.
        let resume = self.resume_ponder(job)?;
        if resume != Resume::Hit {
            self.drain()?;
            self.tell_variant(job.start)?;
            self.send(&position_command(job.start, job.moves))?;
            self.send(&uci_go(&job.limit_now(), job.position.turn()))?;
        }
        // The search runs from its `go` (or `ponderhit`) out.
        let answer = Answer {
            ponder_hit: resume.hit(),
            ..Answer::default()
        };
        self.search = Some(Pending::new(&self.proc, job, false, answer));
        Ok(None)
    }

    fn hear(
        &mut self,
        job: &Job<'_>,
        search: &mut Pending,
        line: String,
    ) -> Option<Result<Answer, Fault>> {
        if let Some(info) = parse_uci_info(&line) {
            search.thinking.take(info);
            return None;
        }
        let mut words = line.split_whitespace();
        if words.next() != Some("bestmove") {
            return None;
        }
        let text = words.next().unwrap_or("");
        let ponder = match (words.next(), words.next()) {
            (Some("ponder"), p) => p,
            _ => None,
        };
        let searched = self.proc.since(search.asked);
        Some(match notation::from_uci(job.position, text) {
            Ok(m) => {
                let thinking = Some(search.thought(m));
                if self.ponder.is_some() {
                    let spent = job.asked_at.elapsed().as_millis();
                    if let Err(f) =
                        self.start_ponder(job, &m, ponder, u64::try_from(spent).unwrap_or(0))
                    {
                        return Some(Err(f));
                    }
                }
                Ok(Answer {
                    mv: Some(m),
                    thinking,
                    searched,
                    ..std::mem::take(&mut search.answer)
                })
            }
            Err(e) => Err(Fault::new(Trouble::IllegalMove(e), self.proc.recent())),
        })
    }

    fn search(&mut self) -> &mut Option<Pending> {
        &mut self.search
    }

    fn process(&mut self) -> &mut EngineProcess {
        &mut self.proc
    }

    fn awaited(&self) -> &'static str {
        "bestmove"
    }

    fn stop_command(&self) -> &'static str {
        "stop"
    }

    fn game_over(&mut self, _result: &str) {
        self.end_ponder("the game is over");
    }

    fn stop_pondering(&mut self) {
        self.end_ponder("the game is over");
    }

    fn analyse(
        &mut self,
        position: &Chess,
        search: &Search,
        wait: Duration,
    ) -> Result<Analysis, Fault> {
        self.drain()?;
        self.tell_variant(position)?;
        self.send(&position_command(position, &[]))?;
        self.send(&search.uci_go())?;
        let started = Instant::now();
        let mut collector = Collector::new(position.clone(), false);
        loop {
            let line = self.line(started + wait, "bestmove")?;
            if let Some(info) = parse_uci_info(&line) {
                collector.take(info);
                continue;
            }
            let mut words = line.split_whitespace();
            if words.next() != Some("bestmove") {
                continue;
            }
            let best = match words.next().unwrap_or("(none)") {
                "(none)" | "0000" => None,
                text => Some(
                    notation::from_uci(position, text)
                        .map_err(|e| Fault::new(Trouble::IllegalMove(e), self.proc.recent()))?,
                ),
            };
            return Ok(collector.finish(best, started.elapsed()));
        }
    }

    fn refuses(&self, variant: Variant) -> Option<Refusal> {
        (variant == Variant::Chess960 && !self.chess960_option).then_some(Refusal::NoChess960Option)
    }

    fn quit(self: Box<Self>) {
        self.proc.quit(Some("quit"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_commands() {
        let start = Chess::default();
        assert_eq!(position_command(&start, &[]), "position startpos");
        let mut g = crate::game::Game::new(start.clone());
        for san in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O"] {
            g.play_san(san).unwrap();
        }
        assert_eq!(
            position_command(&start, g.moves()),
            "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1"
        );
        let fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 40";
        let p = game::position_from_fen(fen).unwrap();
        let m = notation::from_uci(&p, "a7a8n").unwrap();
        assert_eq!(
            position_command(&p, &[m]),
            format!("position fen {fen} moves a7a8n")
        );
    }
}
