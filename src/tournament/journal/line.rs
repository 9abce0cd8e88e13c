//! One line of the tournament journal: what it can say ([`Line`]), how it
//! is written (the match journal's tokens) and read back.

use shakmaty::ByColor;

use crate::journal::format::{LineError, Tokens, token, with_tokens};
use crate::referee::{GameResult, Termination};
use crate::tournament::messages::{BoardId, Input, SideStats};
use crate::tournament::schedule::{ByeKind, PlayerId, RoundPairing};

/// The first word of a tournament journal.
pub const MAGIC: &str = "argus-tournament";
/// The version of the format this build writes and reads.
pub const VERSION: u32 = 1;

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
    pub fn parse(payload: &str) -> Result<Line, BadLine> {
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
            other => return Err(LineError::UnknownLine(other.to_string()).into()),
        };
        t.end()?;
        Ok(line)
    }
}

/// A player's instance as one word: `P` for instance 0 (as journals
/// written before instances were), `P/N` for instance N.
fn who(player: PlayerId, instance: u32) -> String {
    match instance {
        0 => player.0.to_string(),
        n => format!("{}/{n}", player.0),
    }
}

/// What is wrong with a tournament journal line's payload: a field as
/// every journal reads it ([`LineError`]), or one only a tournament's
/// lines have, with the text found there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadLine {
    #[error(transparent)]
    Field(#[from] LineError),
    #[error("the player {0:?} is not a number (P or P/INSTANCE)")]
    Player(String),
    #[error("the instance in {0:?} is not a number")]
    Instance(String),
    #[error("unknown kind of bye {0:?} (U, H, Z or R)")]
    ByeKind(String),
    #[error("game {0:?} is not WHITE-BLACK")]
    NotAGame(String),
    #[error("game {game:?}: {player:?} is not a player number")]
    GamePlayer { game: String, player: String },
    #[error("{colour}'s time left {word:?} is not a number")]
    TimeLeft { colour: String, word: String },
    #[error("unknown result {0:?}")]
    Result(String),
    #[error("unknown termination {0:?}")]
    Termination(String),
}

error_words!(BadLine);

/// Reads [`who`].
fn parse_who(t: &mut Tokens<'_>) -> Result<(PlayerId, u32), BadLine> {
    let w = t.word("the player")?;
    let (p, n) = w.split_once('/').unwrap_or((w, "0"));
    let player = p.parse().map_err(|_| BadLine::Player(w.to_string()))?;
    let instance = n.parse().map_err(|_| BadLine::Instance(w.to_string()))?;
    Ok((PlayerId(player), instance))
}

/// A side's figures; `pHITS/PONDERS` after them when its engine pondered
/// (a journal written before pondering has none).
fn side_payload(s: &SideStats) -> String {
    let left = s.left_ms.map_or("-".to_string(), |l| l.to_string());
    let mut p = format!(
        "{} {} {left} {} {}",
        s.moves, s.used_ms, s.faults, s.restarts
    );
    if s.ponders > 0 {
        p.push_str(&format!(" p{}/{}", s.ponder_hits, s.ponders));
    }
    p
}

/// `pHITS/PONDERS`, if that is the next word (no ending's words take
/// that form: they are sentences).
fn ponder_figures(t: &mut Tokens<'_>) -> Option<(u32, u32)> {
    let next = t.peek()?;
    let (hits, ponders) = next.strip_prefix('p')?.split_once('/')?;
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    let figures = (number(hits)?, number(ponders)?);
    t.word("the ponder figures").ok()?;
    Some(figures)
}

fn input_payload(input: &Input) -> String {
    match input {
        Input::SignedOn { player, instance } => format!("on {}", who(*player, *instance)),
        Input::Named { player, name } => format!("named {} {}", player.0, token(name)),
        Input::Lost {
            player,
            instance,
            reason,
        } => format!("lost {} {}", who(*player, *instance), token(reason)),
        Input::CannotStart { player, reason } => {
            format!("cannot-start {} {}", player.0, token(reason))
        }
        Input::GameFinished {
            game,
            result,
            termination,
            sides,
            ending,
        } => {
            let how = TERMINATIONS
                .iter()
                .find(|(t, _)| t == termination)
                .map_or("normal", |(_, s)| s);
            let mut line = format!(
                "result {game} {} {how} {} {}",
                result.as_str(),
                side_payload(&sides.white),
                side_payload(&sides.black)
            );
            if let Some(words) = ending {
                line.push(' ');
                line.push_str(&token(words));
            }
            line
        }
        Input::BoardFree { board } => format!("free {}", board.0),
        Input::Timer => "timer".into(),
        Input::Resumed { on_cables } => {
            let mut line = "resumed".to_string();
            for p in on_cables {
                line.push_str(&format!(" {}", p.0));
            }
            line
        }
        Input::Paired(p) => pairing_payload(p),
        Input::Unpairable { round, reason } => format!("unpairable {round} {}", token(reason)),
        Input::Withdraw { player } => format!("withdraw {}", player.0),
    }
}

/// `paired R W-B ... bye P KIND ...`: the games board by board (White's
/// and Black's player numbers), then each bye with its TRF letter.
fn pairing_payload(p: &RoundPairing) -> String {
    let mut line = format!("paired {}", p.round);
    for (w, b) in &p.games {
        line.push_str(&format!(" {}-{}", w.0, b.0));
    }
    for (player, kind) in &p.byes {
        line.push_str(&format!(" bye {} {}", player.0, kind.letter()));
    }
    line
}

/// Reads [`pairing_payload`] after its `paired`.
fn parse_pairing(t: &mut Tokens<'_>) -> Result<RoundPairing, BadLine> {
    let mut p = RoundPairing {
        round: t.number("the round")?,
        ..RoundPairing::default()
    };
    while t.peek().is_some() {
        let w = t.word("a game or a bye")?;
        if w == "bye" {
            let player = PlayerId(t.number("the player with the bye")?);
            let k = t.word("the kind of bye")?;
            let kind = k
                .chars()
                .next()
                .filter(|_| k.len() == 1)
                .and_then(ByeKind::from_letter)
                .ok_or_else(|| BadLine::ByeKind(k.to_string()))?;
            p.byes.push((player, kind));
            continue;
        }
        let (a, b) = w
            .split_once('-')
            .ok_or_else(|| BadLine::NotAGame(w.to_string()))?;
        let number = |s: &str| {
            s.parse().map(PlayerId).map_err(|_| BadLine::GamePlayer {
                game: w.to_string(),
                player: s.to_string(),
            })
        };
        p.games.push((number(a)?, number(b)?));
    }
    Ok(p)
}

fn parse_side(t: &mut Tokens<'_>, colour: &str) -> Result<SideStats, BadLine> {
    let moves = t.number(&format!("{colour}'s moves"))?;
    let used_ms = t.number(&format!("{colour}'s time used"))?;
    let left_ms = match t.word(&format!("{colour}'s time left"))? {
        "-" => None,
        w => Some(w.parse().map_err(|_| BadLine::TimeLeft {
            colour: colour.to_string(),
            word: w.to_string(),
        })?),
    };
    let faults = t.number(&format!("{colour}'s faults"))?;
    let restarts = t.number(&format!("{colour}'s restarts"))?;
    let (ponder_hits, ponders) = ponder_figures(t).unwrap_or((0, 0));
    Ok(SideStats {
        moves,
        used_ms,
        left_ms,
        faults,
        restarts,
        ponders,
        ponder_hits,
    })
}

fn parse_input(t: &mut Tokens<'_>) -> Result<Input, BadLine> {
    Ok(match t.word("the kind of input")? {
        "on" => {
            let (player, instance) = parse_who(t)?;
            Input::SignedOn { player, instance }
        }
        "named" => Input::Named {
            player: PlayerId(t.number("the player")?),
            name: t.text("the name")?,
        },
        "lost" => {
            let (player, instance) = parse_who(t)?;
            Input::Lost {
                player,
                instance,
                reason: t.text("the reason")?,
            }
        }
        "cannot-start" => Input::CannotStart {
            player: PlayerId(t.number("the player")?),
            reason: t.text("the reason")?,
        },
        "result" => {
            let game = t.number("the game number")?;
            let r = t.word("the result")?;
            let result = RESULTS
                .into_iter()
                .find(|x| x.as_str() == r)
                .ok_or_else(|| BadLine::Result(r.to_string()))?;
            let w = t.word("the termination")?;
            let termination = TERMINATIONS
                .iter()
                .find(|(_, s)| *s == w)
                .map(|(t, _)| *t)
                .ok_or_else(|| BadLine::Termination(w.to_string()))?;
            Input::GameFinished {
                game,
                result,
                termination,
                sides: ByColor {
                    white: parse_side(t, "White")?,
                    black: parse_side(t, "Black")?,
                },
                ending: t.optional_text("the ending's words")?,
            }
        }
        "free" => Input::BoardFree {
            board: BoardId(t.number("the board")?),
        },
        "timer" => Input::Timer,
        // A journal written before the players on cables came with it
        // has none here, and an `on` line for each after it.
        "resumed" => {
            let mut on_cables = Vec::new();
            while t.peek().is_some() {
                on_cables.push(PlayerId(t.number("a player on a cable")?));
            }
            Input::Resumed { on_cables }
        }
        "paired" => Input::Paired(parse_pairing(t)?),
        "unpairable" => Input::Unpairable {
            round: t.number("the round")?,
            reason: t.text("the reason")?,
        },
        "withdraw" => Input::Withdraw {
            player: PlayerId(t.number("the player withdrawn")?),
        },
        other => return Err(LineError::UnknownInput(other.to_string()).into()),
    })
}
