//! The UCI side of the bridge: `uci` / `id name` / `uciok`, `setoption`,
//! `isready` / `readyok`, `ucinewgame`, and for every move the whole game
//! (`position startpos|fen FEN moves ...`) and `go` with the clocks, read
//! back as `bestmove`. A Chess960 game turns the engine's `UCI_Chess960`
//! option on before its first `position` (off again for a standard game);
//! an engine without the option is refused for it.
//!
//! UCI has no draw offers, no draw claims and no resignation: a UCI engine
//! always answers with a move (an offer from the opponent is declined by
//! that move).

use std::time::{Duration, Instant};

use shakmaty::{Chess, Position};

use super::analysis::{Analysis, Collector, Search, parse_uci_info};
use super::notation;
use super::process::{EngineProcess, Next};
use super::time::uci_go;
use super::{Answer, Driver, EngineSettings, Fault, HANDSHAKE, Job};
use crate::game::{self, Variant};

/// The UCI option that switches an engine to Chess960 (castling read and
/// written as king takes rook).
const CHESS960_OPTION: &str = "UCI_Chess960";

/// A UCI engine after its handshake.
pub struct Uci {
    proc: EngineProcess,
    name: Option<String>,
    /// The engine declared `UCI_Chess960`.
    chess960_option: bool,
    /// The rules the engine was last told (standard until told otherwise).
    told: Variant,
}

impl Uci {
    /// Starts the engine, reads its name and options, sets the
    /// `--option`s and waits until it is ready.
    pub fn start(settings: &EngineSettings) -> Result<Uci, Fault> {
        let proc = EngineProcess::spawn(&settings.command, settings.log.clone())
            .map_err(Fault::not_started)?;
        let mut uci = Uci {
            proc,
            name: None,
            chess960_option: false,
            told: Variant::Standard,
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
                return Err(Fault::new(
                    format!(
                        "the engine has no option {name:?} (it declares: {})",
                        declared.join(", ")
                    ),
                    Vec::new(),
                ));
            }
        }
        uci.chess960_option = declared
            .iter()
            .any(|d| d.eq_ignore_ascii_case(CHESS960_OPTION));
        for (name, value) in &settings.options {
            uci.send(&format!("setoption name {name} value {value}"))?;
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
            return Err(Fault::new(why, Vec::new()));
        }
        let on = variant == Variant::Chess960;
        self.send(&format!("setoption name {CHESS960_OPTION} value {on}"))?;
        self.ready()?;
        self.told = variant;
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.proc
            .send(line)
            .map_err(|e| Fault::new(e, self.proc.recent()))
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
                format!("the engine hung: no {awaited} in time"),
                self.proc.recent(),
            )),
            Next::Gone(why) => Err(Fault::new(
                format!("{why} while argus waited for {awaited}"),
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
            Some(why) => Err(Fault::new(why, self.proc.recent())),
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
        s.push_str(" moves");
        for m in moves {
            s.push(' ');
            s.push_str(&notation::to_uci(m, game::Variant::of(start)));
        }
    }
    s
}

impl Driver for Uci {
    fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    fn new_game(&mut self) -> Result<(), Fault> {
        self.drain()?;
        self.send("ucinewgame")?;
        self.ready()
    }

    fn play(&mut self, job: &Job<'_>) -> Result<Answer, Fault> {
        self.drain()?;
        self.tell_variant(job.start)?;
        self.send(&position_command(job.start, job.moves))?;
        self.send(&uci_go(&job.limit_now(), job.position.turn()))?;
        let started = Instant::now();
        let deadline = started + job.wait;
        let mut thinking = Collector::new(job.position.clone(), false);
        loop {
            let next = self.proc.next_line_or_stop(deadline, job.stop, "stop");
            let line = match self.heard(next, "bestmove") {
                Ok(l) => l,
                Err(mut f) => {
                    if f.what.contains("hung") {
                        f.what = format!(
                            "the engine hung: no bestmove within {:.1} s (its time plus the margin)",
                            job.wait.as_secs_f64()
                        );
                    }
                    return Err(f);
                }
            };
            if let Some(info) = parse_uci_info(&line) {
                thinking.take(info);
                continue;
            }
            let mut words = line.split_whitespace();
            if words.next() != Some("bestmove") {
                continue;
            }
            let text = words.next().unwrap_or("");
            return match notation::from_uci(job.position, text) {
                Ok(m) => Ok(Answer {
                    mv: Some(m),
                    thinking: Some(thinking.finish(Some(m), started.elapsed())),
                    ..Answer::default()
                }),
                Err(e) => Err(Fault::new(
                    format!("the engine sent an illegal move: {e}"),
                    self.proc.recent(),
                )),
            };
        }
    }

    fn game_over(&mut self, _result: &str) {}

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
                text => Some(notation::from_uci(position, text).map_err(|e| {
                    Fault::new(
                        format!("the engine sent an illegal move: {e}"),
                        self.proc.recent(),
                    )
                })?),
            };
            return Ok(collector.finish(best, started.elapsed()));
        }
    }

    fn refuses(&self, variant: Variant) -> Option<String> {
        (variant == Variant::Chess960 && !self.chess960_option).then(|| {
            format!("the engine cannot play Chess960: it declares no {CHESS960_OPTION} option")
        })
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
