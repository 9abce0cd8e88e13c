//! `argus referee`'s settings merged (flags over the config file over the
//! defaults) and checked into the core's [`Settings`].

use std::path::Path;
use std::str::FromStr;

use super::config::ConfigError;
use super::line::PortOptionError;
use super::odds::OddsError;
use super::openings::{Generated, GeneratedError, StartsError, load_starts};
use super::{
    BadSeconds, ConfigFile, LineOptions, MatchOptions, OutputOptions, controls, seconds_ms,
};
use crate::app::syzygy::{Syzygy, TablesError};
use crate::clock::TimeControl;
use crate::game::Variant;
use crate::link::PortSettings;
use crate::referee::{ByClient, ClientFault, ClientId, Settings, Start};
use crate::stats::sprt::Sprt;

/// Why `argus referee`'s settings cannot be had: the config file, or the
/// flag (with its value) that is wrong, first in the order they are
/// listed.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Port(#[from] PortOptionError),
    /// `--tc`, the match's control or a client's own.
    #[error(transparent)]
    Controls(#[from] OddsError),
    #[error("--variant: {0}")]
    Variant(crate::game::UnknownVariant),
    /// `--openings chess960:N` (and its kin) that does not read.
    #[error(transparent)]
    Generated(#[from] GeneratedError),
    /// Generated Chess960 openings (as given) with `--variant standard`.
    #[error("--openings {0}: Chess960 start positions, but --variant standard")]
    Chess960ButStandard(String),
    /// An openings file that cannot be read, or whose openings are not
    /// legal.
    #[error(transparent)]
    Starts(#[from] StartsError),
    /// A count flag (`games`, `max-moves`) given as 0.
    #[error("--{0} must be at least 1")]
    Zero(&'static str),
    /// A delay in seconds out of its range.
    #[error(transparent)]
    Seconds(#[from] BadSeconds),
    #[error("--sprt {0:?}: {1}")]
    Sprt(String, crate::stats::sprt::SprtError),
    #[error("--draw-adjudication {0:?}: {1}")]
    Draw(String, crate::referee::adjudication::RuleError),
    #[error("--resign-adjudication {0:?}: {1}")]
    Resign(String, crate::referee::adjudication::RuleError),
    /// `--syzygy` directories without tables.
    #[error(transparent)]
    Tables(#[from] TablesError),
}

error_words!(PlanError);

/// Everything `argus referee` needs, merged and checked.
#[derive(Debug, Clone)]
pub struct RefereePlan {
    pub ports: [String; 2],
    pub port_settings: PortSettings,
    /// Each game's referee settings (its opening and colours are the
    /// event's to set).
    pub settings: Settings,
    /// The openings the event's games start from, and the seed that
    /// shuffles them (`None`: file order).
    pub openings: Vec<Start>,
    pub openings_seed: Option<u64>,
    /// The test the event runs on its game pairs.
    pub sprt: Option<Sprt>,
    pub output: OutputOptions,
}

/// Merges flags over the config file over defaults and checks everything:
/// the time control parses, the openings load and are legal. `date` is
/// today's date for the PGN (`yyyy.mm.dd`).
pub fn plan(
    ports: [String; 2],
    line: LineOptions,
    matches: MatchOptions,
    output: OutputOptions,
    config: Option<&Path>,
    date: String,
    headless: bool,
) -> Result<RefereePlan, PlanError> {
    let file = match config {
        Some(p) => ConfigFile::load(p)?,
        None => ConfigFile::default(),
    };
    let line = line.or(file.line);
    let m = matches.or(file.matches);
    let output = output.or(file.output);
    let port_settings = line.port_settings()?;
    let (variant, openings, openings_seed) = openings_of(&m)?;
    let sprt_spec = m.sprt.clone();
    let settings = settings_of(&ports, &port_settings, m, variant, date, headless)?;
    let sprt = parse_spec(sprt_spec.as_deref(), PlanError::Sprt)?;
    Ok(RefereePlan {
        ports,
        port_settings,
        settings,
        openings,
        openings_seed,
        sprt,
        output,
    })
}

/// The core's settings from the merged match options, checked (in the
/// order the options are listed, so the first wrong one is named).
fn settings_of(
    ports: &[String; 2],
    port_settings: &PortSettings,
    m: MatchOptions,
    variant: Variant,
    date: String,
    headless: bool,
) -> Result<Settings, PlanError> {
    let (time_control, own_controls) = time_controls_of(ports, &m)?;
    if m.games == Some(0) {
        return Err(PlanError::Zero("games"));
    }
    let defaults = Settings::default();
    let [reset_delay_ms, conclude_delay_ms, resend_after_ms] = delays(&m, &defaults)?;
    Ok(Settings {
        event: m.event.unwrap_or(defaults.event),
        site: m.site.unwrap_or(defaults.site),
        date,
        round: m.round,
        names: ByClient::new(m.name_a, m.name_b),
        ports: ByClient::new(ports[0].clone(), ports[1].clone()),
        lines: ByClient::new(port_settings.line(), port_settings.line()),
        // A match between two ports: argus runs neither client.
        own_search_time: ByClient::default(),
        time_control,
        own_controls,
        variant,
        white: ClientId::A,
        opening: None,
        reset_delay_ms,
        conclude_delay_ms,
        false_claim: m.false_claim.unwrap_or_default(),
        illegal_move: m.illegal.unwrap_or_default(),
        client_fault: m
            .client_fault
            .unwrap_or_else(|| ClientFault::default_for(headless)),
        max_resends: m.max_resends.unwrap_or(defaults.max_resends),
        resend_after_ms,
        max_moves: match m.max_moves {
            Some(0) => return Err(PlanError::Zero("max-moves")),
            n => n,
        },
        draw_adjudication: parse_spec(m.draw_adjudication.as_deref(), PlanError::Draw)?,
        resign_adjudication: parse_spec(m.resign_adjudication.as_deref(), PlanError::Resign)?,
        // Opened here only to refuse a directory without tables before
        // anything starts; the session opens them for the match.
        syzygy: match m.syzygy {
            Some(dirs) => Syzygy::open(&dirs).map(|_| Some(dirs))?,
            None => None,
        },
        disconnect_at_end: true,
    })
}

/// The match's control and each client's own (`--tc NAME:CONTROL`, NAME
/// the client's `--name-a`/`--name-b` or its port as given).
fn time_controls_of(
    ports: &[String; 2],
    m: &MatchOptions,
) -> Result<(TimeControl, ByClient<Option<TimeControl>>), PlanError> {
    let names = [
        m.name_a.clone().unwrap_or_else(|| ports[0].clone()),
        m.name_b.clone().unwrap_or_else(|| ports[1].clone()),
    ];
    let c = controls(&m.tc, &names)?;
    let own_controls = ByClient::new(c.own[0].clone(), c.own[1].clone());
    let time_control = c.event;
    Ok((time_control, own_controls))
}

/// The variant, the openings and the seed that orders them: `--openings`
/// a file read by the variant's rules, or generated Chess960 positions
/// (which make the variant Chess960; `--variant chess960` alone plays
/// `chess960:random`).
fn openings_of(m: &MatchOptions) -> Result<(Variant, Vec<Start>, Option<u64>), PlanError> {
    let given = m
        .variant
        .as_deref()
        .map(|v| v.parse::<Variant>().map_err(PlanError::Variant))
        .transpose()?;
    let spec = m
        .openings
        .as_ref()
        .map(|p| p.to_string_lossy().into_owned());
    let generated = match spec.as_deref().and_then(Generated::parse) {
        Some(g) => Some(g?),
        None if given == Some(Variant::Chess960) && spec.is_none() => Some(Generated::Random),
        None => None,
    };
    match (generated, &m.openings) {
        (Some(g), _) => {
            if given == Some(Variant::Standard) {
                return Err(PlanError::Chess960ButStandard(
                    spec.as_deref().unwrap_or("chess960:random").to_string(),
                ));
            }
            // A seed for the random ones, whether given or not, so that
            // the positions are the same when the match is run again.
            let seed = m.shuffle.unwrap_or(0);
            let random = matches!(g, Generated::Random | Generated::DoubleRandom);
            Ok((
                Variant::Chess960,
                g.starts(seed),
                if random { Some(seed) } else { m.shuffle },
            ))
        }
        (None, Some(p)) => {
            let variant = given.unwrap_or_default();
            Ok((
                variant,
                load_starts(p, m.opening_plies.unwrap_or(16), variant)?,
                m.shuffle,
            ))
        }
        (None, None) => Ok((given.unwrap_or_default(), Vec::new(), m.shuffle)),
    }
}

/// The reset and conclude delays and the silence before a resend, in
/// milliseconds: those given, checked, else the defaults.
fn delays(m: &MatchOptions, defaults: &Settings) -> Result<[u64; 3], BadSeconds> {
    let ms = |secs: Option<f64>, name: &str, max: f64, default: u64| match secs {
        Some(secs) => seconds_ms(secs, name, max),
        None => Ok(default),
    };
    Ok([
        ms(
            m.reset_delay,
            "reset-delay",
            3600.0,
            defaults.reset_delay_ms,
        )?,
        ms(
            m.conclude_delay,
            "conclude-delay",
            3600.0,
            defaults.conclude_delay_ms,
        )?,
        ms(
            m.resend_after,
            "resend-after",
            86_400.0,
            defaults.resend_after_ms,
        )?,
    ])
}

/// A `KEY=VALUE ...` option's value parsed, or the error `wrong` makes
/// of the value and why it does not read.
fn parse_spec<T: FromStr>(
    spec: Option<&str>,
    wrong: impl FnOnce(String, T::Err) -> PlanError,
) -> Result<Option<T>, PlanError> {
    spec.map(|s| s.parse().map_err(|e| wrong(s.to_string(), e)))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(variant: Option<&str>, openings: Option<&str>, shuffle: Option<u64>) -> MatchOptions {
        MatchOptions {
            variant: variant.map(str::to_string),
            openings: openings.map(Into::into),
            shuffle,
            ..MatchOptions::default()
        }
    }

    /// Between two ports, NAME is the client's --name-a/--name-b, else
    /// its port as given.
    #[test]
    fn a_clients_own_control_is_named_by_its_name_or_its_port() {
        let ports = ["/dev/ttyUSB0".to_string(), "COM3".to_string()];
        let m = MatchOptions {
            tc: ["0:30+1", "Fritz:1+0.01", "COM3:40/60"]
                .map(String::from)
                .to_vec(),
            name_a: Some("Fritz".into()),
            ..MatchOptions::default()
        };
        let (tc, own) = time_controls_of(&ports, &m).unwrap();
        assert_eq!(tc.to_string(), "30+1");
        assert_eq!(own.a.map(|c| c.to_string()).as_deref(), Some("1+0.01"));
        assert_eq!(own.b.map(|c| c.to_string()).as_deref(), Some("40/60"));
        let m = MatchOptions {
            tc: vec!["/dev/ttyUSB0:60".into()],
            ..MatchOptions::default()
        };
        let e = time_controls_of(&ports, &m).unwrap_err();
        assert!(matches!(e, PlanError::Controls(_)), "{e:?}");
        assert!(e.to_string().contains("must then be timed"), "{e}");
    }

    #[test]
    fn the_variant_and_its_openings() {
        // --variant chess960 alone: all 960, shuffled by seed 0.
        let (v, o, seed) = openings_of(&with(Some("fischerandom"), None, None)).unwrap();
        assert_eq!((v, o.len(), seed), (Variant::Chess960, 960, Some(0)));
        // Generated openings make it Chess960; --shuffle is their seed.
        let (v, o, seed) = openings_of(&with(None, Some("chess960:35"), Some(4))).unwrap();
        assert_eq!((v, o.len(), seed), (Variant::Chess960, 1, Some(4)));
        let (_, _, seed) = openings_of(&with(None, Some("dfrc:random"), Some(9))).unwrap();
        assert_eq!(seed, Some(9));
        // Standard by default.
        let (v, o, seed) = openings_of(&with(None, None, None)).unwrap();
        assert_eq!((v, o.len(), seed), (Variant::Standard, 0, None));
        for (variant, openings, why) in [
            (
                Some("standard"),
                Some("chess960:1"),
                "Chess960 start positions, but --variant standard",
            ),
            (Some("shogi"), None, "--variant: unknown variant \"shogi\""),
            (None, Some("chess960:1000"), "not a start position number"),
        ] {
            let e = openings_of(&with(variant, openings, None))
                .unwrap_err()
                .to_string();
            assert!(e.contains(why), "{e}");
        }
        assert!(matches!(
            openings_of(&with(Some("standard"), Some("chess960:1"), None)),
            Err(PlanError::Chess960ButStandard(given)) if given == "chess960:1"
        ));
    }
}
