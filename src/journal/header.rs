//! The journal's header: the format version, the session id and everything
//! needed to rebuild the core ([`Settings`], openings included) and to
//! reopen the ports ([`PortSettings`]), as `set` and `opening` lines.

use std::path::PathBuf;
use std::str::FromStr;

use shakmaty::Position;
use shakmaty::uci::UciMove;

use crate::clock::{BadTimeControl, LineSettings, TimeControl};
use crate::game::UnknownVariant;
use crate::game::{self, Variant};
use crate::journal::format::{Entry, VERSION};
use crate::link::{Flow, LineEnd, Parity, PortSettings, SettingsError};
use crate::referee::adjudication::RuleError;
use crate::referee::settings::UnknownChoice;
use crate::referee::{ByClient, ClientId, Settings, Start};

/// What a journal starts with.
#[derive(Debug, Clone)]
pub struct Header {
    /// The match's id: a journal only ever holds one match.
    pub session: String,
    /// The core's settings.
    pub settings: Settings,
    /// How the ports were set up (a resume reopens them the same way
    /// unless told otherwise).
    pub port: PortSettings,
    /// Where the match writes (a resume writes to the same places unless
    /// told otherwise).
    pub output: OutputSettings,
}

/// Where a match writes its records, as it was started (paths absolute).
/// Journals written before these were recorded load with none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutputSettings {
    /// `--pgn`: finished games.
    pub pgn: Option<PathBuf>,
    /// `--live-pgn`: the game in progress.
    pub live_pgn: Option<PathBuf>,
    /// The log directory (application log, transcript).
    pub log_dir: Option<PathBuf>,
    /// The journal's own path when the match started.
    pub journal: Option<PathBuf>,
    /// `--feed`: the address the journal was published on.
    pub feed: Option<String>,
    /// `--results-json`: the match statistics file.
    pub results_json: Option<PathBuf>,
    /// `--cbf`: the ChessBase base the games are appended to.
    pub cbf: Option<PathBuf>,
    /// `--pgn-min`: the PGN without comments.
    pub pgn_min: bool,
    /// `--epd-out`: each game's final position.
    pub epd_out: Option<PathBuf>,
    /// `--rating-interval`: the statistics every N games.
    pub rating_interval: Option<u32>,
}

/// The output keys of the header: optional, so that journals written
/// before they existed still load.
const OUTPUT_KEYS: [&str; 10] = [
    "output-pgn-min",
    "output-epd-out",
    "output-rating-interval",
    "output-pgn",
    "output-live-pgn",
    "output-log-dir",
    "output-journal",
    "output-feed",
    "output-results-json",
    "output-cbf",
];

/// Settings added after the first journals were written: optional too,
/// and off when absent (as they were then).
const LATER_KEYS: [&str; 10] = [
    "own-search-time",
    "variant",
    "white",
    "max-moves",
    "draw-adjudication",
    "resign-adjudication",
    "syzygy",
    "disconnect-at-end",
    "time-control-a",
    "time-control-b",
];

/// A key a header may lack.
fn is_optional(key: &str) -> bool {
    OUTPUT_KEYS.contains(&key) || LATER_KEYS.contains(&key)
}

/// The match's sequencing that headers written by argus 0.2.0 carry, from
/// when the referee core played a whole match: `games` (always 1 on an
/// event's board), `swap-colors`, `openings-seed` and `sprt`. The event
/// keeps these now; a header's lines for them are read and ignored, so
/// that a game begun by 0.2.0 still resumes.
const RETIRED_KEYS: [&str; 4] = ["games", "swap-colors", "openings-seed", "sprt"];

/// A setting written as one value: its text with commas for spaces.
fn spaceless(v: &Option<impl ToString>) -> Vec<String> {
    v.iter().map(|t| t.to_string().replace(' ', ",")).collect()
}

fn optional_path(p: &Option<PathBuf>) -> Vec<String> {
    p.iter().map(|p| p.to_string_lossy().into_owned()).collect()
}

/// A new session id: 16 hex digits, random.
pub fn new_session_id() -> String {
    format!("{:016x}", fastrand::u64(..))
}

fn one(v: impl ToString) -> Vec<String> {
    vec![v.to_string()]
}

fn optional(v: &Option<String>) -> Vec<String> {
    v.iter().cloned().collect()
}

fn line_values(l: &LineSettings) -> Vec<String> {
    vec![
        l.baud.to_string(),
        l.data_bits.to_string(),
        u8::from(l.parity).to_string(),
        l.stop_bits.to_string(),
    ]
}

/// A port setting as the journal words it (`none`, `even`, `software`,
/// `crlf`, ...): fixed here, not taken from the command line's names, so
/// that renaming a flag's value never changes the file format.
trait JournalWord: Sized {
    fn word(&self) -> &'static str;
    fn from_word(word: &str) -> Option<Self>;
}

impl JournalWord for Parity {
    fn word(&self) -> &'static str {
        match self {
            Parity::None => "none",
            Parity::Odd => "odd",
            Parity::Even => "even",
        }
    }
    fn from_word(word: &str) -> Option<Self> {
        [Parity::None, Parity::Odd, Parity::Even]
            .into_iter()
            .find(|v| v.word() == word)
    }
}

impl JournalWord for Flow {
    fn word(&self) -> &'static str {
        match self {
            Flow::None => "none",
            Flow::Hardware => "hardware",
            Flow::Software => "software",
        }
    }
    fn from_word(word: &str) -> Option<Self> {
        [Flow::None, Flow::Hardware, Flow::Software]
            .into_iter()
            .find(|v| v.word() == word)
    }
}

impl JournalWord for LineEnd {
    fn word(&self) -> &'static str {
        match self {
            LineEnd::CrLf => "crlf",
            LineEnd::Lf => "lf",
            LineEnd::Cr => "cr",
        }
    }
    fn from_word(word: &str) -> Option<Self> {
        [LineEnd::CrLf, LineEnd::Lf, LineEnd::Cr]
            .into_iter()
            .find(|v| v.word() == word)
    }
}

/// A client's own time control from its journal value (none: the match's).
fn own_control(value: Option<String>) -> Result<Option<TimeControl>, BadTimeControl> {
    value.map(|v| TimeControl::from_str(&v)).transpose()
}

/// The port setting worded `word` (see [`JournalWord`]); `what` for the
/// error.
fn parse_value<E: JournalWord>(word: &str, what: &'static str) -> Result<E, SettingError> {
    E::from_word(word).ok_or_else(|| SettingError::PortField {
        what,
        value: word.to_string(),
    })
}

/// Why a match journal's header cannot be read (the reader adds the line
/// number): the kind of fault, with what the line said.
#[derive(Debug, thiserror::Error)]
pub enum HeaderError {
    #[error("a second format line")]
    SecondMagic,
    /// A journal of another format version: the version, and the program
    /// that wrote it.
    #[error(
        "journal format version {version} (written by {writer}); this argus reads version {VERSION}"
    )]
    Version { version: u32, writer: String },
    #[error("not an argus journal (the first line must be `argus-journal VERSION ...`)")]
    NotAJournal,
    #[error("a second session line")]
    SecondSession,
    #[error("empty session id")]
    EmptySession,
    #[error("setting {0:?} given twice")]
    SettingTwice(String),
    #[error(transparent)]
    Variant(#[from] UnknownVariant),
    #[error("setting variant: one value expected ({0:?})")]
    VariantValues(Vec<String>),
    #[error("opening {opening}: {error}")]
    Opening {
        opening: String,
        error: game::PositionError,
    },
    #[error("opening {opening}: illegal move {mv:?}")]
    OpeningMove { opening: String, mv: String },
    /// A line that is not part of a header (its payload) before `begin`.
    #[error("`{0}` before the header is complete (`begin`)")]
    Early(String),
    #[error("the header has no session line")]
    NoSession,
    /// A setting whose values do not read: the key, the values and why.
    #[error("setting {key}: {why} (values {values:?})")]
    Setting {
        key: String,
        values: Vec<String>,
        why: Box<SettingError>,
    },
    #[error("unknown setting {0:?}")]
    UnknownSetting(String),
    #[error("the header lacks the setting {0:?}")]
    Lacks(String),
}

/// Why one header setting's values do not read.
#[derive(Debug, thiserror::Error)]
pub enum SettingError {
    #[error("one value expected")]
    OneValue,
    #[error("at most one value expected")]
    AtMostOne,
    #[error("not a number")]
    NotANumber,
    #[error("too large")]
    TooLarge,
    #[error("yes or no expected")]
    YesOrNo,
    #[error("yes, or no value")]
    YesOrNothing,
    #[error(transparent)]
    Control(#[from] BadTimeControl),
    #[error(transparent)]
    Variant(#[from] UnknownVariant),
    #[error(transparent)]
    Choice(#[from] UnknownChoice),
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// `own-search-time`, `white`: a word that is not a client.
    #[error("a or b expected, got {0:?}")]
    Client(String),
    #[error("baud, data bits, parity (0/1) and stop bits expected")]
    LineShape,
    #[error("{0:?} is not a number")]
    LineNumber(String),
    #[error("parity {0:?}: 0 or 1 expected")]
    LineParity(String),
    #[error("baud, data bits, parity, stop bits, flow and line end expected")]
    PortShape,
    /// A port field (`baud`, `parity`, ...) and its value as written.
    #[error("{what} {value:?}")]
    PortField { what: &'static str, value: String },
    #[error(transparent)]
    Port(#[from] SettingsError),
}

error_words!(HeaderError);

impl Header {
    /// The header's lines, `begin` last.
    pub fn entries(&self) -> Vec<Entry> {
        // Every field by name: a setting added to `Settings` must be added
        // here too, or a resumed match would not be the same match.
        let Settings {
            event,
            site,
            date,
            round,
            names,
            ports,
            lines,
            own_search_time,
            time_control,
            own_controls,
            variant,
            white,
            opening,
            reset_delay_ms,
            conclude_delay_ms,
            false_claim,
            illegal_move,
            client_fault,
            max_resends,
            resend_after_ms,
            max_moves,
            draw_adjudication,
            resign_adjudication,
            syzygy,
            disconnect_at_end,
        } = &self.settings;
        let set = |key: &str, values: Vec<String>| Entry::Set {
            key: key.into(),
            values,
        };
        let p = &self.port;
        let mut v = vec![
            Entry::Magic {
                version: VERSION,
                writer: format!("argus {}", env!("CARGO_PKG_VERSION")),
            },
            Entry::Session(self.session.clone()),
            set("event", one(event)),
            set("site", one(site)),
            set("date", one(date)),
            set("round", optional(round)),
            set("name-a", optional(&names.a)),
            set("name-b", optional(&names.b)),
            set("port-a", one(&ports.a)),
            set("port-b", one(&ports.b)),
            set("line-a", line_values(&lines.a)),
            set("line-b", line_values(&lines.b)),
            set("own-search-time", own_search_time_values(own_search_time)),
            set("time-control", one(time_control)),
            // Time odds; a journal without these keys (older, or no odds)
            // gives both clients the match's control.
            set(
                "time-control-a",
                own_controls.a.iter().map(|c| c.to_string()).collect(),
            ),
            set(
                "time-control-b",
                own_controls.b.iter().map(|c| c.to_string()).collect(),
            ),
            set("variant", one(variant)),
            set("white", one(client_word(*white))),
            set("reset-delay-ms", one(reset_delay_ms)),
            set("conclude-delay-ms", one(conclude_delay_ms)),
            set("false-claim", one(false_claim)),
            set("illegal-move", one(illegal_move)),
            set("client-fault", one(client_fault)),
            set("max-resends", one(max_resends)),
            set("resend-after-ms", one(resend_after_ms)),
            set("max-moves", max_moves.iter().map(u32::to_string).collect()),
            // One value each: the spec with commas for spaces.
            set("draw-adjudication", spaceless(draw_adjudication)),
            set("resign-adjudication", spaceless(resign_adjudication)),
            set("syzygy", optional(syzygy)),
            set(
                "disconnect-at-end",
                one(if *disconnect_at_end { "yes" } else { "no" }),
            ),
            set(
                "link",
                vec![
                    p.baud.to_string(),
                    p.data_bits.to_string(),
                    p.parity.word().to_string(),
                    p.stop_bits.to_string(),
                    p.flow.word().to_string(),
                    p.line_end.word().to_string(),
                ],
            ),
        ];
        let o = &self.output;
        for (key, values) in OUTPUT_KEYS.into_iter().zip([
            if o.pgn_min {
                vec!["yes".to_string()]
            } else {
                Vec::new()
            },
            optional_path(&o.epd_out),
            o.rating_interval.iter().map(u32::to_string).collect(),
            optional_path(&o.pgn),
            optional_path(&o.live_pgn),
            optional_path(&o.log_dir),
            optional_path(&o.journal),
            optional(&o.feed),
            optional_path(&o.results_json),
            optional_path(&o.cbf),
        ]) {
            v.push(set(key, values));
        }
        if let Some(o) = opening {
            let mut pos = o.position.clone();
            let mut moves = Vec::new();
            for m in &o.moves {
                moves.push(m.to_uci(variant.castling_mode()).to_string());
                pos.play_unchecked(*m);
            }
            v.push(Entry::Opening {
                source: o.source.clone(),
                fen: game::fen_of(&o.position),
                moves,
            });
        }
        v.push(Entry::Begin);
        v
    }
}

/// Builds a [`Header`] from the lines before `begin`.
#[derive(Debug, Default)]
pub struct HeaderBuilder {
    magic: bool,
    session: Option<String>,
    sets: Vec<(String, Vec<String>)>,
    openings: Vec<Start>,
}

impl HeaderBuilder {
    /// Takes one header line; returns the header at `begin`. Errors say
    /// what is wrong (the caller adds the line number).
    pub fn push(&mut self, entry: Entry) -> Result<Option<Header>, HeaderError> {
        match entry {
            Entry::Magic { version, writer } => {
                if self.magic {
                    return Err(HeaderError::SecondMagic);
                }
                if version != VERSION {
                    return Err(HeaderError::Version { version, writer });
                }
                self.magic = true;
            }
            _ if !self.magic => {
                return Err(HeaderError::NotAJournal);
            }
            Entry::Session(id) => {
                if self.session.is_some() {
                    return Err(HeaderError::SecondSession);
                }
                if id.is_empty() {
                    return Err(HeaderError::EmptySession);
                }
                self.session = Some(id);
            }
            Entry::Set { key, values } => {
                if self.sets.iter().any(|(k, _)| *k == key) {
                    return Err(HeaderError::SettingTwice(key));
                }
                self.sets.push((key, values));
            }
            Entry::Opening { source, fen, moves } => {
                // The variant is set before the openings (a journal
                // without it is standard chess).
                let variant = match self.sets.iter().find(|(k, _)| k == "variant") {
                    Some((_, v)) => match v.as_slice() {
                        [v] => v.parse::<Variant>()?,
                        _ => return Err(HeaderError::VariantValues(v.clone())),
                    },
                    None => Variant::Standard,
                };
                let position = game::position_from_fen_in(&fen, variant).map_err(|error| {
                    HeaderError::Opening {
                        opening: source.clone(),
                        error,
                    }
                })?;
                let mut pos = position.clone();
                let mut list = Vec::new();
                for m in &moves {
                    let mv = UciMove::from_str(m)
                        .ok()
                        .and_then(|u| u.to_move(&pos).ok())
                        .ok_or_else(|| HeaderError::OpeningMove {
                            opening: source.clone(),
                            mv: m.clone(),
                        })?;
                    pos.play_unchecked(mv);
                    list.push(mv);
                }
                self.openings.push(Start {
                    position,
                    moves: list,
                    source,
                });
            }
            Entry::Begin => return self.finish().map(Some),
            other => {
                return Err(HeaderError::Early(other.payload()));
            }
        }
        Ok(None)
    }

    fn finish(&mut self) -> Result<Header, HeaderError> {
        let session = self.session.take().ok_or(HeaderError::NoSession)?;
        // A header has at most one opening: its game's. (One written by
        // argus 0.2.0 for a board has one too; were there more, its core
        // would have played the first, as it kept the file's order.)
        let mut s = Settings {
            opening: std::mem::take(&mut self.openings).into_iter().next(),
            ..Settings::default()
        };
        let mut port = PortSettings::default();
        let mut output = OutputSettings::default();
        let sets = std::mem::take(&mut self.sets);
        let mut seen = Vec::new();
        for (key, values) in &sets {
            let bad = |why: SettingError| HeaderError::Setting {
                key: key.clone(),
                values: values.clone(),
                why: Box::new(why),
            };
            let single = || match values.as_slice() {
                [v] => Ok(v.clone()),
                _ => Err(bad(SettingError::OneValue)),
            };
            let opt = || match values.as_slice() {
                [] => Ok(None),
                [v] => Ok(Some(v.clone())),
                _ => Err(bad(SettingError::AtMostOne)),
            };
            let num = || -> Result<u64, HeaderError> {
                single()?.parse().map_err(|_| bad(SettingError::NotANumber))
            };
            match key.as_str() {
                "event" => s.event = single()?,
                "site" => s.site = single()?,
                "date" => s.date = single()?,
                "round" => s.round = opt()?,
                "name-a" => s.names.a = opt()?,
                "name-b" => s.names.b = opt()?,
                "port-a" => s.ports.a = single()?,
                "port-b" => s.ports.b = single()?,
                "line-a" => s.lines.a = parse_line(values).map_err(bad)?,
                "line-b" => s.lines.b = parse_line(values).map_err(bad)?,
                "own-search-time" => {
                    s.own_search_time = parse_own_search_time(values).map_err(bad)?
                }
                "time-control" => {
                    s.time_control = TimeControl::from_str(&single()?).map_err(|e| bad(e.into()))?
                }
                "time-control-a" => {
                    s.own_controls.a = own_control(opt()?).map_err(|e| bad(e.into()))?
                }
                "time-control-b" => {
                    s.own_controls.b = own_control(opt()?).map_err(|e| bad(e.into()))?
                }
                "variant" => {
                    s.variant = single()?
                        .parse()
                        .map_err(|e: crate::game::UnknownVariant| bad(e.into()))?
                }
                "white" => s.white = parse_client(&single()?).map_err(bad)?,
                key if RETIRED_KEYS.contains(&key) => {}
                "reset-delay-ms" => s.reset_delay_ms = num()?,
                "conclude-delay-ms" => s.conclude_delay_ms = num()?,
                "false-claim" => {
                    s.false_claim = single()?
                        .parse()
                        .map_err(|e: UnknownChoice| bad(e.into()))?
                }
                "illegal-move" => {
                    s.illegal_move = single()?
                        .parse()
                        .map_err(|e: UnknownChoice| bad(e.into()))?
                }
                "client-fault" => {
                    s.client_fault = single()?
                        .parse()
                        .map_err(|e: UnknownChoice| bad(e.into()))?
                }
                "resend-after-ms" => s.resend_after_ms = num()?,
                "max-resends" => {
                    s.max_resends =
                        u32::try_from(num()?).map_err(|_| bad(SettingError::TooLarge))?
                }
                "max-moves" => {
                    s.max_moves = match opt()? {
                        None => None,
                        Some(v) => Some(v.parse().map_err(|_| bad(SettingError::NotANumber))?),
                    }
                }
                "draw-adjudication" => {
                    s.draw_adjudication = match opt()? {
                        None => None,
                        Some(v) => Some(v.parse().map_err(|e: RuleError| bad(e.into()))?),
                    }
                }
                "resign-adjudication" => {
                    s.resign_adjudication = match opt()? {
                        None => None,
                        Some(v) => Some(v.parse().map_err(|e: RuleError| bad(e.into()))?),
                    }
                }
                "syzygy" => s.syzygy = opt()?,
                "disconnect-at-end" => {
                    s.disconnect_at_end = match single()?.as_str() {
                        "yes" => true,
                        "no" => false,
                        _ => return Err(bad(SettingError::YesOrNo)),
                    }
                }
                "link" => port = parse_port(values).map_err(bad)?,
                "output-pgn" => output.pgn = opt()?.map(PathBuf::from),
                "output-live-pgn" => output.live_pgn = opt()?.map(PathBuf::from),
                "output-log-dir" => output.log_dir = opt()?.map(PathBuf::from),
                "output-journal" => output.journal = opt()?.map(PathBuf::from),
                "output-feed" => output.feed = opt()?,
                "output-results-json" => output.results_json = opt()?.map(PathBuf::from),
                "output-cbf" => output.cbf = opt()?.map(PathBuf::from),
                "output-pgn-min" => {
                    output.pgn_min = match opt()?.as_deref() {
                        None => false,
                        Some("yes") => true,
                        Some(_) => return Err(bad(SettingError::YesOrNothing)),
                    }
                }
                "output-epd-out" => output.epd_out = opt()?.map(PathBuf::from),
                "output-rating-interval" => {
                    output.rating_interval = match opt()? {
                        None => None,
                        Some(n) => Some(n.parse().map_err(|_| bad(SettingError::NotANumber))?),
                    }
                }
                other => return Err(HeaderError::UnknownSetting(other.to_string())),
            }
            seen.push(key.as_str());
        }
        for key in required_keys() {
            if !seen.contains(&key.as_str()) {
                return Err(HeaderError::Lacks(key));
            }
        }
        Ok(Header {
            session,
            settings: s,
            port,
            output,
        })
    }
}

/// Every setting a header must have: every key [`Header::entries`]
/// writes (taken from it, so that the two cannot drift apart).
fn required_keys() -> Vec<String> {
    let any = Header {
        session: String::new(),
        settings: Settings::default(),
        port: PortSettings::default(),
        output: OutputSettings::default(),
    };
    any.entries()
        .into_iter()
        .filter_map(|e| match e {
            Entry::Set { key, .. } if !is_optional(&key) => Some(key),
            _ => None,
        })
        .collect()
}

/// `own-search-time`'s values: the clients whose `Asearch` counts, `a`
/// and/or `b` (none: neither).
fn own_search_time_values(own: &ByClient<bool>) -> Vec<String> {
    ClientId::BOTH
        .into_iter()
        .filter(|&c| own[c])
        .map(client_word)
        .collect()
}

fn parse_own_search_time(v: &[String]) -> Result<ByClient<bool>, SettingError> {
    let mut own = ByClient::default();
    for w in v {
        own[parse_client(w)?] = true;
    }
    Ok(own)
}

/// A client as the header words it: `a` or `b`.
fn client_word(c: ClientId) -> String {
    c.letter().to_lowercase()
}

fn parse_client(w: &str) -> Result<ClientId, SettingError> {
    ClientId::BOTH
        .into_iter()
        .find(|&c| client_word(c) == w)
        .ok_or_else(|| SettingError::Client(w.to_string()))
}

fn parse_line(v: &[String]) -> Result<LineSettings, SettingError> {
    let [baud, data, parity, stop] = v else {
        return Err(SettingError::LineShape);
    };
    let n = |s: &String| {
        s.parse::<u32>()
            .map_err(|_| SettingError::LineNumber(s.clone()))
    };
    let small = |s: &String| {
        s.parse::<u8>()
            .map_err(|_| SettingError::LineNumber(s.clone()))
    };
    Ok(LineSettings {
        baud: n(baud)?,
        data_bits: small(data)?,
        parity: match parity.as_str() {
            "0" => false,
            "1" => true,
            _ => return Err(SettingError::LineParity(parity.clone())),
        },
        stop_bits: small(stop)?,
    })
}

fn parse_port(v: &[String]) -> Result<PortSettings, SettingError> {
    let [baud, data, parity, stop, flow, end] = v else {
        return Err(SettingError::PortShape);
    };
    let field = |what: &'static str, value: &String| SettingError::PortField {
        what,
        value: value.clone(),
    };
    let p = PortSettings {
        baud: baud.parse().map_err(|_| field("baud", baud))?,
        data_bits: data.parse().map_err(|_| field("data bits", data))?,
        parity: parse_value(parity, "parity")?,
        stop_bits: stop.parse().map_err(|_| field("stop bits", stop))?,
        flow: parse_value(flow, "flow")?,
        line_end: parse_value(end, "line end")?,
    };
    p.validate()?;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    use crate::referee::{ClientFault, FalseClaim, IllegalMove, Policy};
    use shakmaty::Chess;

    fn sample() -> Header {
        let mut g = Game::new(Chess::default());
        let e4 = g.play_san("e4").unwrap();
        let c5 = g.play_san("c5").unwrap();
        Header {
            session: "00ff00ff00ff00ff".into(),
            settings: Settings {
                event: "Club match \"autumn\"".into(),
                site: "".into(),
                date: "2024.10.01".into(),
                round: Some("-".into()),
                names: [Some("Fritz 3".into()), None].into(),
                ports: ["/dev/ttyS0".into(), "COM 3".into()].into(),
                lines: [
                    LineSettings {
                        baud: 2400,
                        data_bits: 7,
                        parity: true,
                        stop_bits: 2,
                    },
                    LineSettings::default(),
                ]
                .into(),
                own_search_time: ByClient::new(false, true),
                time_control: "40/7200:3600".parse().unwrap(),
                own_controls: [None, Some("1+0.01".parse().unwrap())].into(),
                variant: Variant::Standard,
                white: ClientId::B,
                opening: Some(Start {
                    position: Chess::default(),
                    moves: vec![e4, c5],
                    source: "book.pgn:3".into(),
                }),
                reset_delay_ms: 250,
                conclude_delay_ms: 0,
                false_claim: FalseClaim::PlayOn,
                illegal_move: IllegalMove::Fault,
                client_fault: ClientFault::Continue,
                max_resends: 5,
                resend_after_ms: 30_000,
                max_moves: Some(120),
                draw_adjudication: Some("movenumber=40 movecount=8 score=10".parse().unwrap()),
                resign_adjudication: Some("movecount=3 score=400 twosided".parse().unwrap()),
                syzygy: Some("/srv/syzygy 3-4-5:/srv/syzygy/6".into()),
                disconnect_at_end: false,
            },
            port: PortSettings {
                baud: 2400,
                data_bits: 7,
                parity: Parity::Even,
                stop_bits: 2,
                flow: Flow::Software,
                line_end: LineEnd::Lf,
            },
            output: OutputSettings {
                pgn: Some("/home/td/match \"one\".pgn".into()),
                live_pgn: None,
                log_dir: Some("/var/log/argus".into()),
                journal: Some("/var/log/argus/journal.log".into()),
                feed: Some("0.0.0.0:7070".into()),
                results_json: Some("/home/td/results.json".into()),
                cbf: Some("/home/td/MATCH".into()),
                pgn_min: true,
                epd_out: Some("/home/td/final.epd".into()),
                rating_interval: Some(50),
            },
        }
    }

    fn rebuild(h: &Header) -> Result<Header, String> {
        let mut b = HeaderBuilder::default();
        for e in h.entries() {
            // Through the text form, as on disk.
            let e = Entry::parse(&e.payload())?;
            if let Some(h) = b.push(e)? {
                return Ok(h);
            }
        }
        Err("no begin".into())
    }

    #[test]
    fn settings_round_trip() {
        let h = sample();
        let back = rebuild(&h).unwrap();
        assert_eq!(back.session, h.session);
        assert_eq!(back.port, h.port);
        assert_eq!(back.output, h.output);
        let (a, b) = (&h.settings, &back.settings);
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }

    /// Whose `Asearch` counts is kept; a header without it (written
    /// before it was) counts neither's; a bad value is refused.
    #[test]
    fn own_search_time_round_trips_and_defaults_to_neither() {
        let mut h = sample();
        for own in [(true, true), (true, false), (false, false)] {
            h.settings.own_search_time = ByClient::new(own.0, own.1);
            let back = rebuild(&h).unwrap().settings.own_search_time;
            assert_eq!((back.a, back.b), own);
        }
        h.settings.own_search_time = ByClient::new(true, true);
        let mut b = HeaderBuilder::default();
        let mut back = None;
        for e in h.entries() {
            if !e.payload().starts_with("set own-search-time") {
                back = back.or(b.push(Entry::parse(&e.payload()).unwrap()).unwrap());
            }
        }
        let own = back.unwrap().settings.own_search_time;
        assert_eq!((own.a, own.b), (false, false));
        assert!(parse_own_search_time(&["c".to_string()]).is_err());
    }

    /// A Chess960 match's openings come back as Chess960 positions, a
    /// castling move among their moves as the king taking its rook (what
    /// the header writes), and a header without the variant is standard.
    #[test]
    fn a_chess960_header_round_trips_with_its_castling() {
        let mut h = sample();
        h.settings.variant = Variant::Chess960;
        let start = game::position_from_fen_in(
            "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w KQkq - 0 1",
            Variant::Chess960,
        )
        .unwrap();
        let mut g = Game::new(start.clone());
        let castle = g.play_san("O-O").unwrap();
        h.settings.opening = Some(Start {
            position: start,
            moves: vec![castle],
            source: "chess960:x".into(),
        });
        let entries: Vec<String> = h.entries().iter().map(Entry::payload).collect();
        assert!(
            entries.contains(&"set variant chess960".to_string()),
            "{entries:?}"
        );
        let opening = entries.iter().find(|e| e.starts_with("opening")).unwrap();
        assert!(opening.ends_with("f1g1"), "{opening}");
        let back = rebuild(&h).unwrap();
        assert_eq!(back.settings.variant, Variant::Chess960);
        let opening = back.settings.opening.unwrap();
        assert_eq!(opening.moves, vec![castle]);
        assert_eq!(Variant::of(&opening.position), Variant::Chess960);
        // Without the line (a journal from before variants): standard.
        let mut b = HeaderBuilder::default();
        let mut standard = None;
        let sample = sample().entries();
        for e in sample
            .iter()
            .filter(|e| !e.payload().starts_with("set variant"))
        {
            if let Some(done) = b.push(Entry::parse(&e.payload()).unwrap()).unwrap() {
                standard = Some(done);
            }
        }
        assert_eq!(standard.unwrap().settings.variant, Variant::Standard);
    }

    #[test]
    fn time_odds_round_trip_and_an_older_journal_has_none() {
        let h = sample();
        let back = rebuild(&h).unwrap();
        assert_eq!(back.settings.own_controls.a, None);
        assert_eq!(
            back.settings
                .own_controls
                .b
                .map(|c| c.to_string())
                .as_deref(),
            Some("1+0.01")
        );
        // A journal written before time odds has neither key.
        let mut b = HeaderBuilder::default();
        let mut built = None;
        for e in h.entries() {
            let text = e.payload();
            if text.contains("time-control-") {
                continue;
            }
            if let Some(h) = b.push(Entry::parse(&text).unwrap()).unwrap() {
                built = Some(h);
            }
        }
        let old = built.expect("the header is complete without the keys");
        assert_eq!(old.settings.own_controls.a, None);
        assert_eq!(old.settings.own_controls.b, None);
        assert_eq!(old.settings.time_control.to_string(), "40/7200:3600");
    }

    #[test]
    fn every_illegal_move_policy_round_trips() {
        for &policy in IllegalMove::ALL {
            let mut h = sample();
            h.settings.illegal_move = policy;
            let back = rebuild(&h).unwrap();
            assert_eq!(back.settings.illegal_move, policy);
        }
    }

    #[test]
    fn port_setting_names_are_those_journals_have_always_had() {
        let names = [
            Parity::None.word(),
            Parity::Odd.word(),
            Parity::Even.word(),
            Flow::None.word(),
            Flow::Hardware.word(),
            Flow::Software.word(),
            LineEnd::CrLf.word(),
            LineEnd::Lf.word(),
            LineEnd::Cr.word(),
        ];
        assert_eq!(
            names,
            [
                "none", "odd", "even", "none", "hardware", "software", "crlf", "lf", "cr"
            ]
        );
        assert!(matches!(
            parse_value::<Flow>("software", "flow"),
            Ok(Flow::Software)
        ));
        let e = parse_value::<Flow>("sideways", "flow").unwrap_err();
        assert!(
            matches!(&e, SettingError::PortField { what: "flow", value } if value == "sideways"),
            "{e:?}"
        );
        assert_eq!(e.to_string(), "flow \"sideways\"");
    }

    #[test]
    fn defaults_round_trip() {
        let h = Header {
            session: new_session_id(),
            settings: Settings::default(),
            port: PortSettings::default(),
            output: OutputSettings::default(),
        };
        let back = rebuild(&h).unwrap();
        assert_eq!(format!("{:?}", back.settings), format!("{:?}", h.settings));
    }

    #[test]
    fn a_header_without_any_one_of_its_settings_is_refused() {
        let h = sample();
        let keys: Vec<String> = h
            .entries()
            .into_iter()
            .filter_map(|e| match e {
                Entry::Set { key, .. } if !is_optional(&key) => Some(key),
                _ => None,
            })
            .collect();
        assert!(keys.len() > 15, "{keys:?}");
        for missing in &keys {
            let mut b = HeaderBuilder::default();
            let mut err = None;
            for e in h.entries() {
                if matches!(&e, Entry::Set { key, .. } if key == missing) {
                    continue;
                }
                if let Err(e) = b.push(e) {
                    err = Some(e);
                }
            }
            let err = err.unwrap_or_else(|| panic!("a header without {missing:?} was taken"));
            assert!(
                err.to_string().contains(&format!("{missing:?}")),
                "{missing}: {err}"
            );
        }
    }

    #[test]
    fn a_header_from_before_the_output_and_later_settings_loads_with_none() {
        let h = sample();
        assert!(h.settings.max_moves.is_some());
        assert_eq!(h.settings.white, ClientId::B);
        assert!(h.settings.draw_adjudication.is_some());
        assert!(h.settings.resign_adjudication.is_some());
        assert!(h.settings.syzygy.is_some());
        let mut b = HeaderBuilder::default();
        for e in h.entries() {
            if matches!(&e, Entry::Set { key, .. } if is_optional(key)) {
                continue;
            }
            if let Some(back) = b.push(e).unwrap() {
                assert_eq!(back.output, OutputSettings::default());
                assert_eq!(back.settings.max_moves, None);
                assert_eq!(back.settings.white, ClientId::A, "A had White then");
                assert_eq!(back.settings.draw_adjudication, None);
                assert_eq!(back.settings.resign_adjudication, None);
                assert_eq!(back.settings.syzygy, None);
                return;
            }
        }
        panic!("no header");
    }

    #[test]
    fn a_missing_or_unknown_setting_is_refused() {
        let h = sample();
        let mut b = HeaderBuilder::default();
        let mut err = None;
        for e in h.entries() {
            if matches!(&e, Entry::Set { key, .. } if key == "time-control") {
                continue;
            }
            match b.push(e) {
                Ok(_) => {}
                Err(e) => err = Some(e),
            }
        }
        assert!(matches!(err, Some(HeaderError::Lacks(k)) if k == "time-control"));
        let mut b = HeaderBuilder::default();
        assert!(
            b.push(Entry::Begin)
                .unwrap_err()
                .to_string()
                .contains("not an argus journal")
        );
        let mut b = HeaderBuilder::default();
        b.push(h.entries()[0].clone()).unwrap();
        let e = b
            .push(Entry::Set {
                key: "colour".into(),
                values: vec![],
            })
            .and_then(|_| b.push(Entry::Session("x".into())))
            .and_then(|_| b.push(Entry::Begin))
            .unwrap_err();
        assert!(
            matches!(&e, HeaderError::UnknownSetting(k) if k == "colour"),
            "{e:?}"
        );
    }

    #[test]
    fn another_version_is_refused() {
        let mut b = HeaderBuilder::default();
        let e = b
            .push(Entry::Magic {
                version: 2,
                writer: "argus 9".into(),
            })
            .unwrap_err();
        assert!(
            matches!(&e, HeaderError::Version { version: 2, writer } if writer == "argus 9"),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!(
                "journal format version 2 (written by argus 9); this argus reads version {VERSION}"
            )
        );
    }
}
