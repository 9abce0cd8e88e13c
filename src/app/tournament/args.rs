//! `argus tournament PLAYER... [options]`: the command line, and how it
//! becomes the tournament's settings and each board's referee settings.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::app::options::{LineOptions, MatchOptions, OutputOptions, plan, seconds_ms};
use crate::client::engine::Untimed;
use crate::referee::Settings;
use crate::tournament::schedule::{Format, ScheduleSettings};
use crate::tournament::{Absence, Player};

/// The match options that make no sense in a tournament (each game is one
/// game between the players its schedule names), with what to use instead.
const MATCH_ONLY: [(&str, &str); 6] = [
    (
        "games",
        "the schedule decides the games: --cycles, --games-per-pairing",
    ),
    ("no-swap", "the schedule gives each player its colours"),
    ("round", "each game's Round tag is ROUND.BOARD"),
    (
        "name-a",
        "a player's name is its port, tcp:NAME or engine:NAME",
    ),
    (
        "name-b",
        "a player's name is its port, tcp:NAME or engine:NAME",
    ),
    ("sprt", "a tournament plays its whole schedule"),
];

/// `argus tournament PLAYER... [options]`.
#[derive(Debug, Clone, Args)]
pub struct TournamentArgs {
    /// The players, in seed order: a serial port (/dev/ttyUSB0, COM3,
    /// serial:PORT) for a program cabled to it; tcp:NAME for a program that
    /// connects to --listen and signs on as NAME; engine:NAME=CMD for an
    /// engine argus starts itself (UCI unless --protocol NAME:xboard);
    /// mover:NAME[=random|greedy] for argus's built-in mover.
    #[arg(value_name = "PLAYER", required = true, num_args = 2..)]
    pub players: Vec<String>,
    /// An option for engine player NAME: NAME:OPT=VALUE (UCI setoption,
    /// XBoard option); may be repeated.
    #[arg(long = "engine-option", value_name = "NAME:OPT=VALUE")]
    pub engine_options: Vec<String>,
    /// Engine player NAME's protocol: NAME:uci or NAME:xboard [default: uci].
    #[arg(long = "protocol", value_name = "NAME:PROTOCOL")]
    pub protocols: Vec<String>,
    /// Without a time control: milliseconds per move for the engine
    /// players [default: 1000].
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// round-robin (Berger tables: everyone meets everyone, colours
    /// balanced) or gauntlet (the first player against each of the others).
    #[arg(long, value_name = "KIND", default_value = "round-robin")]
    pub schedule: String,
    /// Play the whole schedule this many times, colours reversed every
    /// second time (2: a double round robin).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub cycles: u32,
    /// Games each pairing plays in a row, colours alternating (each
    /// opening is played with both colours).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub games_per_pairing: u32,
    /// Games at once [default: as many as a round has: a program plays one
    /// game at a time].
    #[arg(long, value_name = "K")]
    pub boards: Option<u32>,
    /// A player away this many seconds (from the start, or since its link
    /// was lost) forfeits every game it has not started [default: its
    /// games wait for it].
    #[arg(long, value_name = "SECS")]
    pub absent_forfeit: Option<f64>,
    /// Listen on ADDR:PORT for the tcp:NAME players; each is seated by the
    /// tcsi name it signs on with.
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<String>,
    /// Accept TCP connections only from this address or network (e.g.
    /// 192.168.1.0/24); may be repeated [default: any].
    #[arg(long, value_name = "CIDR", requires = "listen")]
    pub allow: Vec<String>,
    /// A shared secret the tcp:NAME players must send (argus client
    /// --password) before they sign on.
    #[arg(long, value_name = "SECRET", requires = "listen")]
    pub password: Option<String>,
    #[command(flatten)]
    pub line: LineOptions,
    #[command(flatten)]
    pub matches: MatchOptions,
    /// Append every finished game to this PGN file, with Round tags
    /// ROUND.BOARD.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Write the tournament report (standings, crosstable, games, player
    /// statistics) to FILE as text and beside it as Markdown (FILE.md),
    /// rewritten after every game.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Directory for the logs, the tournament journal and each game's
    /// journal and transcript [default: argus-logs].
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
    /// Read settings from this TOML file (tables [line] and [match] as for
    /// `argus referee`); command-line flags win.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// No board view: print one line per game result and the standings
    /// after every round.
    #[arg(long)]
    pub headless: bool,
    /// Draw pieces as letters instead of chess glyphs.
    #[arg(long)]
    pub ascii: bool,
}

/// Everything a tournament runs with, merged and checked.
#[derive(Debug, Clone)]
pub struct TournamentPlan {
    pub players: Vec<Player>,
    pub schedule: ScheduleSettings,
    pub boards: Option<u32>,
    pub absence: Absence,
    /// What every board's referee starts from: time control, openings,
    /// delays, policies, adjudication (names, ports and round are set per
    /// game).
    pub referee: Settings,
    pub port_settings: crate::link::PortSettings,
    /// The engine players' search without a time control.
    pub untimed: Untimed,
    pub log_dir: PathBuf,
}

impl TournamentArgs {
    /// The arguments of a command line recorded in a tournament journal
    /// (those after `argus tournament`).
    pub fn from_command(command: &[String]) -> Result<TournamentArgs, String> {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: TournamentArgs,
        }
        let argv = std::iter::once("tournament".to_string()).chain(command.iter().cloned());
        <Cli as clap::Parser>::try_parse_from(argv)
            .map(|c| c.args)
            .map_err(|e| format!("the recorded command line does not read: {e}"))
    }

    /// The options given on the command line that belong to a match only.
    fn match_only_given(&self) -> Option<(&'static str, &'static str)> {
        let m = &self.matches;
        let given = [
            m.games.is_some(),
            m.no_swap,
            m.round.is_some(),
            m.name_a.is_some(),
            m.name_b.is_some(),
            m.sprt.is_some(),
        ];
        MATCH_ONLY
            .into_iter()
            .zip(given)
            .find_map(|(flag, given)| given.then_some(flag))
    }

    /// Merges and checks everything; `date` is today's (`yyyy.mm.dd`).
    pub fn plan(&self, date: String) -> Result<TournamentPlan, String> {
        if let Some((flag, instead)) = self.match_only_given() {
            return Err(format!(
                "--{flag} is for a match, not a tournament: {instead}"
            ));
        }
        let players = crate::tournament::player::players(
            &self.players,
            &self.engine_options,
            &self.protocols,
        )?;
        if players.iter().any(|p| matches!(p, Player::Tcp { .. })) && self.listen.is_none() {
            return Err(
                "tcp:NAME players connect to the tournament: give --listen ADDR:PORT".into(),
            );
        }
        let format = Format::parse(&self.schedule).map_err(|e| format!("--schedule: {e}"))?;
        if self.cycles == 0 || self.games_per_pairing == 0 {
            return Err("--cycles and --games-per-pairing must be at least 1".into());
        }
        let mut matches = self.matches.clone();
        matches.event = matches.event.or(Some("argus tournament".into()));
        let ports = [players[0].name().to_string(), players[1].name().to_string()];
        let p = plan(
            ports,
            self.line.clone(),
            matches,
            OutputOptions::default(),
            self.config.as_deref(),
            date,
            self.headless,
        )?;
        if p.settings.sprt.is_some() {
            return Err("--sprt (in the config file) is for a match, not a tournament".into());
        }
        let mut referee = p.settings;
        referee.games = 1;
        referee.swap_colors = false;
        referee.disconnect_at_end = false;
        let schedule = ScheduleSettings {
            format,
            players: players.len(),
            cycles: self.cycles,
            games_per_pairing: self.games_per_pairing,
            openings: referee.openings.len(),
            openings_seed: referee.openings_seed,
        };
        let absence = match self.absent_forfeit {
            None => Absence::Wait,
            Some(secs) => Absence::Forfeit {
                after_ms: seconds_ms(secs, "absent-forfeit", 7.0 * 86_400.0)?,
            },
        };
        let untimed = match self.movetime {
            Some(0) => return Err("--movetime must be at least 1 ms".into()),
            Some(ms) => Untimed::MoveTime(ms),
            None => Untimed::default(),
        };
        Ok(TournamentPlan {
            players,
            schedule,
            boards: self.boards,
            absence,
            referee,
            port_settings: p.port_settings,
            untimed,
            log_dir: self
                .log_dir
                .clone()
                .unwrap_or_else(|| PathBuf::from("argus-logs")),
        })
    }
}

/// Where `--report FILE` writes the text and the Markdown: FILE and
/// FILE.md (or, for FILE.md, FILE.txt and FILE.md).
pub fn report_paths(file: &Path) -> (PathBuf, PathBuf) {
    if file.extension().is_some_and(|e| e == "md") {
        (file.with_extension("txt"), file.to_path_buf())
    } else {
        let mut md = file.as_os_str().to_owned();
        md.push(".md");
        (file.to_path_buf(), PathBuf::from(md))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: TournamentArgs,
    }

    fn args(v: &[&str]) -> TournamentArgs {
        let mut all = vec!["t"];
        all.extend_from_slice(v);
        Cli::try_parse_from(all).map(|c| c.args).unwrap()
    }

    #[test]
    fn a_plan_takes_the_schedule_and_the_match_settings() {
        let a = args(&[
            "mover:a",
            "mover:b=greedy",
            "mover:c",
            "--cycles",
            "2",
            "--tc",
            "60+1",
            "--absent-forfeit",
            "30",
        ]);
        let p = a.plan("2026.11.23".into()).unwrap();
        assert_eq!(p.players.len(), 3);
        assert_eq!(p.schedule.cycles, 2);
        assert_eq!(p.absence, Absence::Forfeit { after_ms: 30_000 });
        assert_eq!(p.referee.time_control.to_string(), "60+1");
        assert_eq!(p.referee.event, "argus tournament");
        assert!(!p.referee.disconnect_at_end);
        assert_eq!(p.referee.games, 1);
    }

    #[test]
    fn match_only_flags_and_missing_listen_are_refused_with_the_way_out() {
        let e = args(&["mover:a", "mover:b", "--games", "4"])
            .plan("2026.11.23".into())
            .unwrap_err();
        assert!(
            e.contains("--games is for a match") && e.contains("--cycles"),
            "{e}"
        );
        let e = args(&["mover:a", "tcp:b"])
            .plan("2026.11.23".into())
            .unwrap_err();
        assert!(e.contains("--listen"), "{e}");
        let e = args(&["mover:a", "mover:b", "--schedule", "swiss"])
            .plan("2026.11.23".into())
            .unwrap_err();
        assert!(e.starts_with("--schedule"), "{e}");
    }

    #[test]
    fn the_report_goes_to_text_and_markdown() {
        assert_eq!(
            report_paths(Path::new("r/final.txt")),
            ("r/final.txt".into(), "r/final.txt.md".into())
        );
        assert_eq!(
            report_paths(Path::new("final.md")),
            ("final.txt".into(), "final.md".into())
        );
    }
}
