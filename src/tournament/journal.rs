//! The tournament's journal: its settings and players, then every input
//! to the tournament core with its time, each line with the chained check
//! of the match journal (`crate::journal`: the same framing, reader and
//! writer), so that a killed tournament is rebuilt exactly by replaying
//! it. docs/tournament.md describes the lines.
//!
//! ```text
//! argus-tournament 1 WRITER
//! set event TEXT | set schedule round-robin|gauntlet | set cycles N
//! set games-per-pairing N | set boards N|auto | set absence wait|forfeit MS
//! set openings N SEED|-
//! player NAME SPEC                      (one per player, in seed order)
//! begin
//! epoch AT UNIX_MS                      (journal time AT was this wall-clock time)
//! in AT on P | in AT lost P REASON | in AT free BOARD | in AT timer | in AT resumed
//! in AT result GAME RESULT TERMINATION  W_MOVES W_USED W_LEFT W_FAULTS W_RESTARTS  B_...
//! note TEXT
//! ```

use std::io;
use std::path::Path;

use shakmaty::ByColor;

use crate::journal::format::{Tokens, token, with_tokens};
use crate::journal::reader::{self, JournalError, LineChain, LineDecoder, Torn};
use crate::journal::writer::JournalWriter;
use crate::referee::{GameResult, Termination};
use crate::tournament::core::{Settings, Tournament};
use crate::tournament::io::{Absence, BoardId, Input, Output, SideStats};
use crate::tournament::schedule::{Format, PlayerId, ScheduleSettings};

/// The first word of a tournament journal.
pub const MAGIC: &str = "argus-tournament";
/// The version of the format this build writes and reads.
pub const VERSION: u32 = 1;

/// What a tournament journal starts with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The program that wrote it.
    pub writer: String,
    pub settings: Settings,
    /// Each player's spec as given (`/dev/ttyUSB0`, `tcp:NAME`, ...), to
    /// reach it again on resume.
    pub specs: Vec<String>,
}

/// One line of a tournament journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Magic { version: u32, writer: String },
    Set { key: String, values: Vec<String> },
    Player { name: String, spec: String },
    Begin,
    Epoch { at: u64, unix_ms: u64 },
    Input { at: u64, input: Input },
    Note(String),
}

const TERMINATIONS: [(Termination, &str); 6] = [
    (Termination::Normal, "normal"),
    (Termination::TimeForfeit, "time-forfeit"),
    (Termination::RulesInfraction, "rules-infraction"),
    (Termination::Adjudication, "adjudication"),
    (Termination::Abandoned, "abandoned"),
    (Termination::Unterminated, "unterminated"),
];

const RESULTS: [GameResult; 4] = [
    GameResult::Win(shakmaty::Color::White),
    GameResult::Win(shakmaty::Color::Black),
    GameResult::Draw,
    GameResult::None,
];

impl Line {
    /// The line's text without its check.
    pub fn payload(&self) -> String {
        match self {
            Line::Magic { version, writer } => format!("{MAGIC} {version} {}", token(writer)),
            Line::Set { key, values } => with_tokens(format!("set {}", token(key)), values),
            Line::Player { name, spec } => format!("player {} {}", token(name), token(spec)),
            Line::Begin => "begin".into(),
            Line::Epoch { at, unix_ms } => format!("epoch {at} {unix_ms}"),
            Line::Input { at, input } => format!("in {at} {}", input_payload(input)),
            Line::Note(text) => format!("note {}", token(text)),
        }
    }

    /// Reads a payload; the error says what is wrong with it.
    pub fn parse(payload: &str) -> Result<Line, String> {
        let mut t = Tokens::new(payload);
        let line = match t.word("the kind of line")? {
            MAGIC => Line::Magic {
                version: t.number("the format version")?,
                writer: t.text("the writer")?,
            },
            "set" => Line::Set {
                key: t.text("the setting's name")?,
                values: t.rest()?,
            },
            "player" => Line::Player {
                name: t.text("the player's name")?,
                spec: t.text("the player's spec")?,
            },
            "begin" => Line::Begin,
            "epoch" => Line::Epoch {
                at: t.number("the time")?,
                unix_ms: t.number("the wall-clock time")?,
            },
            "in" => Line::Input {
                at: t.number("the time")?,
                input: parse_input(&mut t)?,
            },
            "note" => Line::Note(t.text("the note")?),
            other => return Err(format!("unknown kind of line {other:?}")),
        };
        t.end()?;
        Ok(line)
    }
}

fn side_payload(s: &SideStats) -> String {
    let left = s.left_ms.map_or("-".to_string(), |l| l.to_string());
    format!(
        "{} {} {left} {} {}",
        s.moves, s.used_ms, s.faults, s.restarts
    )
}

fn input_payload(input: &Input) -> String {
    match input {
        Input::SignedOn { player } => format!("on {}", player.0),
        Input::Lost { player, reason } => format!("lost {} {}", player.0, token(reason)),
        Input::GameFinished {
            game,
            result,
            termination,
            sides,
        } => {
            let how = TERMINATIONS
                .iter()
                .find(|(t, _)| t == termination)
                .map_or("normal", |(_, s)| s);
            format!(
                "result {game} {} {how} {} {}",
                result.as_str(),
                side_payload(&sides.white),
                side_payload(&sides.black)
            )
        }
        Input::BoardFree { board } => format!("free {}", board.0),
        Input::Timer => "timer".into(),
        Input::Resumed => "resumed".into(),
    }
}

fn parse_side(t: &mut Tokens<'_>, colour: &str) -> Result<SideStats, String> {
    let moves = t.number(&format!("{colour}'s moves"))?;
    let used_ms = t.number(&format!("{colour}'s time used"))?;
    let left_ms = match t.word(&format!("{colour}'s time left"))? {
        "-" => None,
        w => Some(
            w.parse()
                .map_err(|_| format!("{colour}'s time left {w:?} is not a number"))?,
        ),
    };
    Ok(SideStats {
        moves,
        used_ms,
        left_ms,
        faults: t.number(&format!("{colour}'s faults"))?,
        restarts: t.number(&format!("{colour}'s restarts"))?,
    })
}

fn parse_input(t: &mut Tokens<'_>) -> Result<Input, String> {
    Ok(match t.word("the kind of input")? {
        "on" => Input::SignedOn {
            player: PlayerId(t.number("the player")?),
        },
        "lost" => Input::Lost {
            player: PlayerId(t.number("the player")?),
            reason: t.text("the reason")?,
        },
        "result" => {
            let game = t.number("the game number")?;
            let r = t.word("the result")?;
            let result = RESULTS
                .into_iter()
                .find(|x| x.as_str() == r)
                .ok_or_else(|| format!("unknown result {r:?}"))?;
            let w = t.word("the termination")?;
            let termination = TERMINATIONS
                .iter()
                .find(|(_, s)| *s == w)
                .map(|(t, _)| *t)
                .ok_or_else(|| format!("unknown termination {w:?}"))?;
            Input::GameFinished {
                game,
                result,
                termination,
                sides: ByColor {
                    white: parse_side(t, "White")?,
                    black: parse_side(t, "Black")?,
                },
            }
        }
        "free" => Input::BoardFree {
            board: BoardId(t.number("the board")?),
        },
        "timer" => Input::Timer,
        "resumed" => Input::Resumed,
        other => return Err(format!("unknown kind of input {other:?}")),
    })
}

impl Header {
    /// The header's lines, in order.
    pub fn lines(&self) -> Vec<Line> {
        let s = &self.settings;
        let sch = &s.schedule;
        let set = |key: &str, values: Vec<String>| Line::Set {
            key: key.into(),
            values,
        };
        let mut lines = vec![
            Line::Magic {
                version: VERSION,
                writer: self.writer.clone(),
            },
            set("event", vec![s.event.clone()]),
            set("schedule", vec![sch.format.as_str().into()]),
            set("cycles", vec![sch.cycles.to_string()]),
            set("games-per-pairing", vec![sch.games_per_pairing.to_string()]),
            set(
                "boards",
                vec![s.boards.map_or("auto".into(), |b| b.to_string())],
            ),
            set(
                "absence",
                match s.absence {
                    Absence::Wait => vec!["wait".into()],
                    Absence::Forfeit { after_ms } => vec!["forfeit".into(), after_ms.to_string()],
                },
            ),
            set(
                "openings",
                vec![
                    sch.openings.to_string(),
                    sch.openings_seed.map_or("-".into(), |x| x.to_string()),
                ],
            ),
        ];
        for (name, spec) in s.names.iter().zip(&self.specs) {
            lines.push(Line::Player {
                name: name.clone(),
                spec: spec.clone(),
            });
        }
        lines.push(Line::Begin);
        lines
    }
}

/// The header's lines gathered until `begin`.
#[derive(Debug, Default)]
struct HeaderBuilder {
    writer: Option<String>,
    sets: Vec<(String, Vec<String>)>,
    players: Vec<(String, String)>,
}

fn number<N: std::str::FromStr>(key: &str, v: &str) -> Result<N, String> {
    v.parse()
        .map_err(|_| format!("setting {key}: {v:?} is not a number"))
}

impl HeaderBuilder {
    fn push(&mut self, line: Line) -> Result<Option<Header>, String> {
        match (line, &self.writer) {
            (Line::Magic { version, writer }, None) => {
                if version != VERSION {
                    return Err(format!(
                        "tournament journal version {version}; this argus reads version {VERSION}"
                    ));
                }
                self.writer = Some(writer);
            }
            (_, None) => return Err(format!("not a tournament journal (no {MAGIC} line)")),
            (Line::Set { key, values }, _) => {
                if self.sets.iter().any(|(k, _)| *k == key) {
                    return Err(format!("setting {key} given twice"));
                }
                self.sets.push((key, values));
            }
            (Line::Player { name, spec }, _) => self.players.push((name, spec)),
            (Line::Begin, _) => return self.build().map(Some),
            (other, _) => return Err(format!("{:?} inside the header", other.payload())),
        }
        Ok(None)
    }

    fn get(&self, key: &str) -> Result<&[String], String> {
        self.sets
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_slice())
            .ok_or_else(|| format!("the header has no {key} setting"))
    }

    fn one(&self, key: &str) -> Result<&str, String> {
        match self.get(key)? {
            [v] => Ok(v),
            v => Err(format!(
                "setting {key}: one value expected, {} given",
                v.len()
            )),
        }
    }

    fn build(&mut self) -> Result<Header, String> {
        const KEYS: [&str; 7] = [
            "event",
            "schedule",
            "cycles",
            "games-per-pairing",
            "boards",
            "absence",
            "openings",
        ];
        if let Some((k, _)) = self.sets.iter().find(|(k, _)| !KEYS.contains(&k.as_str())) {
            return Err(format!("unknown setting {k:?}"));
        }
        let absence = match self.get("absence")? {
            [w] if w == "wait" => Absence::Wait,
            [f, ms] if f == "forfeit" => Absence::Forfeit {
                after_ms: number("absence", ms)?,
            },
            v => return Err(format!("setting absence: {v:?} (wait, or forfeit MS)")),
        };
        let (openings, seed) = match self.get("openings")? {
            [n, s] => (
                number("openings", n)?,
                (s != "-").then(|| number("openings", s)).transpose()?,
            ),
            v => return Err(format!("setting openings: {v:?} (N SEED, or N -)")),
        };
        let boards = match self.one("boards")? {
            "auto" => None,
            b => Some(number("boards", b)?),
        };
        let settings = Settings {
            event: self.one("event")?.to_string(),
            names: self.players.iter().map(|(n, _)| n.clone()).collect(),
            schedule: ScheduleSettings {
                format: Format::parse(self.one("schedule")?)?,
                players: self.players.len(),
                cycles: number("cycles", self.one("cycles")?)?,
                games_per_pairing: number("games-per-pairing", self.one("games-per-pairing")?)?,
                openings,
                openings_seed: seed,
            },
            boards,
            absence,
        };
        Ok(Header {
            writer: self.writer.clone().unwrap_or_default(),
            settings,
            specs: self.players.iter().map(|(_, s)| s.clone()).collect(),
        })
    }
}

/// What a tournament journal line gave.
#[derive(Debug, Clone)]
pub enum Decoded {
    HeaderLine,
    Header(Box<Header>),
    /// A line after the header.
    Line(Line),
    /// A bad line, held back until it is known whether it is the last.
    Held,
}

/// Checks tournament journal lines in order and turns them into lines.
#[derive(Debug, Default)]
pub struct Decoder {
    framing: LineChain,
    header: Option<HeaderBuilder>,
    header_done: bool,
}

impl LineDecoder for Decoder {
    type Item = Decoded;

    fn push(&mut self, line: &[u8]) -> Result<Decoded, JournalError> {
        let number = self.framing.lines() + 1;
        let Some(payload) = self.framing.push(line)? else {
            return Ok(Decoded::Held);
        };
        let err = |e: String| JournalError::new(number, e);
        let line = Line::parse(payload).map_err(err)?;
        if self.header_done {
            return match line {
                Line::Epoch { .. } | Line::Input { .. } | Line::Note(_) => Ok(Decoded::Line(line)),
                _ => Err(err(
                    "a header line after the header (two journals joined?)".into()
                )),
            };
        }
        let builder = self.header.get_or_insert_with(HeaderBuilder::default);
        match builder.push(line).map_err(err)? {
            Some(h) => {
                self.header_done = true;
                Ok(Decoded::Header(Box::new(h)))
            }
            None => Ok(Decoded::HeaderLine),
        }
    }

    fn finish(&mut self, tail: &[u8]) -> Result<Option<Torn>, JournalError> {
        let torn = self.framing.finish(tail)?;
        if !self.header_done {
            return Err(reader::unfinished_header(torn, self.framing.lines()));
        }
        Ok(torn)
    }

    fn lines(&self) -> usize {
        self.framing.lines()
    }
}

/// A tournament journal read and replayed in full.
#[derive(Debug)]
pub struct Loaded {
    pub header: Header,
    /// The tournament rebuilt from every input.
    pub tournament: Tournament,
    /// The journal time of the last input or epoch (a resume goes on after
    /// it).
    pub last_at: u64,
    /// A torn last line that was ignored.
    pub torn: Option<Torn>,
    /// Good lines, their bytes, and the last one's check (to append).
    pub lines: usize,
    pub valid_len: u64,
    pub chain: u32,
}

/// Reads and replays a tournament journal from `input` (`name` for
/// errors). Replaying feeds every input to a new [`Tournament`] in order;
/// its outputs were carried out before the kill and are dropped.
pub fn load_from(input: impl io::Read, name: &str) -> Result<Loaded, String> {
    let mut decoder = Decoder::default();
    let mut state: Option<(Header, Tournament)> = None;
    let mut last_at = 0;
    let torn = reader::read_all(input, &mut decoder, |n, d| {
        match d {
            Decoded::Header(h) => {
                let t = Tournament::new(h.settings.clone())
                    .map_err(|e| JournalError::new(n, format!("the header: {e}")))?;
                state = Some((*h, t));
            }
            Decoded::Line(Line::Input { at, input }) => {
                if let Some((_, t)) = state.as_mut() {
                    let _: Vec<Output> = t.handle(input, at);
                    last_at = last_at.max(at);
                }
            }
            Decoded::Line(Line::Epoch { at, .. }) => last_at = last_at.max(at),
            _ => {}
        }
        Ok(())
    })
    .map_err(|e| format!("tournament journal {name}: {e}"))?;
    let Some((header, tournament)) = state else {
        return Err(format!("tournament journal {name}: no header"));
    };
    Ok(Loaded {
        header,
        tournament,
        last_at,
        torn,
        lines: decoder.lines(),
        valid_len: decoder.framing.offset(),
        chain: decoder.framing.chain(),
    })
}

/// Reads and replays the tournament journal at `path`.
pub fn load(path: &Path) -> Result<Loaded, String> {
    let f = std::fs::File::open(path)
        .map_err(|e| format!("cannot open the tournament journal {}: {e}", path.display()))?;
    load_from(f, &path.display().to_string())
}

/// An open tournament journal: the match journal's writer with
/// tournament lines.
#[derive(Debug)]
pub struct TournamentWriter {
    inner: JournalWriter,
}

impl TournamentWriter {
    /// Starts a new journal at `path` (absent or empty): the header and
    /// `epoch 0 UNIX_MS`, synced.
    pub fn create(path: &Path, header: &Header, unix_ms: u64) -> io::Result<TournamentWriter> {
        let mut payloads: Vec<String> = header.lines().iter().map(Line::payload).collect();
        payloads.push(Line::Epoch { at: 0, unix_ms }.payload());
        Ok(TournamentWriter {
            inner: JournalWriter::create_lines(path, &payloads)?,
        })
    }

    /// Opens the journal `loaded` was read from to go on with it (a torn
    /// last line cut off), and writes `epoch AT UNIX_MS`, synced.
    pub fn resume(
        path: &Path,
        loaded: &Loaded,
        at: u64,
        unix_ms: u64,
    ) -> io::Result<TournamentWriter> {
        let inner = JournalWriter::append(path, loaded.valid_len, loaded.chain, loaded.lines)?;
        let mut w = TournamentWriter { inner };
        w.inner
            .write_payload(&Line::Epoch { at, unix_ms }.payload())?;
        w.inner.sync()?;
        Ok(w)
    }

    /// Records an input, synced, before its outputs are carried out.
    pub fn input(&mut self, at: u64, input: &Input) -> io::Result<()> {
        let line = Line::Input {
            at,
            input: input.clone(),
        };
        self.inner.write_payload(&line.payload())?;
        self.inner.sync()
    }

    /// A line for people (not synced).
    pub fn note(&mut self, text: &str) -> io::Result<()> {
        self.inner.write_payload(&Line::Note(text.into()).payload())
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        self.inner.path()
    }
}
