//! `argus tournament PLAYER... [options]`: the command line, and how it
//! becomes the tournament's settings and each board's referee settings.

use crate::app::writers::GameFiles;
use std::path::{Path, PathBuf};

use clap::Args;
use serde::Deserialize;

use crate::app::links::EndpointsError;
use crate::app::options::{
    BadSeconds, ConfigError, EventOptions, LineOptions, MatchOptions, OddsError, OutputOptions,
    PlanError, ProgramOptions, ViewOptions, WebOptions, plan, read_toml, seconds_ms,
};
use crate::app::start::StartError;
use crate::app::tournament::board::Pace;
use crate::clock::BadTimeControl;
use crate::referee::{ByClient, ClientId, Settings, Start};
use crate::tournament::journal::header::BadByePoints;
use crate::tournament::knockout::Tiebreak;
use crate::tournament::knockout::TiebreakError;
use crate::tournament::messages::UnknownSprtRunning;
use crate::tournament::player::EngineFlags;
use crate::tournament::player::{PlayerError, PlayersError};
use crate::tournament::schedule::UnknownFormat;
use crate::tournament::schedule::{Format, ScheduleSettings};
use crate::tournament::standings::TiebreakListError;
use crate::tournament::{Absence, Form, Player, PlayerId};

/// The match options that make no sense in a tournament (each game is one
/// game between the players its schedule names), with what to use instead.
const MATCH_ONLY: [(&str, &str); 4] = [
    (
        "games",
        "the schedule decides the games: --cycles, --games-per-pairing",
    ),
    ("round", "each game's Round tag is ROUND.BOARD"),
    (
        "name-a",
        "a player's name is its tcp:NAME or engine:NAME, or the name a port's program signs \
         on with",
    ),
    (
        "name-b",
        "a player's name is its tcp:NAME or engine:NAME, or the name a port's program signs \
         on with",
    ),
];

/// `argus tournament PLAYER... [options]`. The match-only options are
/// read (to be refused with what to use instead) but not offered in the
/// help.
#[derive(Debug, Clone, Default, Args)]
#[command(mut_args(hide_match_only))]
pub struct TournamentArgs {
    /// The players, in seed order: a serial port (/dev/ttyUSB0, COM3,
    /// serial:PORT) for a program cabled to it; tcp://HOST:PORT for a
    /// program argus connects to, tcp-listen://ADDRESS:PORT for one that
    /// connects to argus on an address of its own (each one program, as a
    /// match's endpoints); tcp:NAME for a program that
    /// connects to --listen and signs on as NAME; engine:NAME=CMD for an
    /// engine argus starts itself (UCI unless --protocol NAME:xboard);
    /// mover:NAME[=random|greedy] for argus's built-in mover.
    /// (More players may come from the config file's `[[player]]` tables,
    /// after these.)
    #[arg(value_name = "PLAYER")]
    pub players: Vec<String>,
    #[command(flatten)]
    pub programs: ProgramOptions,
    /// round-robin (Berger tables: everyone meets everyone, colours
    /// balanced), gauntlet (the first player against each of the others),
    /// swiss (FIDE's Dutch system, --rounds N: each round paired once
    /// the one before is over) or knockout (matches of --games-per-pairing
    /// games in a bracket seeded by rating, byes to the top seeds)
    /// [default: round-robin].
    #[arg(long, value_name = "KIND")]
    pub schedule: Option<String>,
    /// The rounds of a Swiss event (--schedule swiss).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: Option<u32>,
    /// A knockout's tie-break of a level match: sets of GAMES games at
    /// CONTROL (2@1+0.01), up to 3 sets while level, then one decisive
    /// game at CONTROL (Armageddon: the higher seed has Black and a draw
    /// is Black's); ',armageddon=WHITE/BLACK' after it gives that game
    /// time odds (2@1+0.01,armageddon=5+0.05/4+0.05: White, the lower
    /// seed, more time) [default: straight to the decisive game at --tc].
    #[arg(long, value_name = "GAMES@CONTROL")]
    pub knockout_tiebreak: Option<String>,
    /// Player NAME's rating, for a Swiss event's initial order or a
    /// knockout's seeding (by rating, then name): NAME:RATING; may be
    /// repeated [default: 0, unknown].
    #[arg(long = "rating", value_name = "NAME:RATING")]
    pub ratings: Vec<String>,
    /// A Swiss event: player NAME asks for a bye in round ROUND
    /// (NAME:ROUND), worth --bye-points; may be repeated.
    #[arg(long = "bye", value_name = "NAME:ROUND")]
    pub byes: Vec<String>,
    /// What a bye asked for is worth: 0.5 or 0 [default: 0.5].
    #[arg(long, value_name = "POINTS", value_parser = ["0.5", "0"])]
    pub bye_points: Option<String>,
    /// A Swiss event: player NAME enters late, from round ROUND
    /// (NAME:ROUND), with a zero-point bye for each round before; may be
    /// repeated.
    #[arg(long = "late", value_name = "NAME:ROUND")]
    pub late: Vec<String>,
    /// A Swiss event or a knockout: player NAME withdraws from round ROUND
    /// on (NAME:ROUND; a knockout's ROUND is a round of its bracket): it
    /// plays the rounds before and is paired no more; may be repeated
    /// (the supervisor withdraws a player during the event with the board
    /// view's x key).
    #[arg(long = "withdraw", value_name = "NAME:ROUND")]
    pub withdraw: Vec<String>,
    /// A Swiss event's tie-breaks after the points, in order (FIDE C.07):
    /// a comma-separated list of buchholz-cut1, buchholz,
    /// sonneborn-berger, direct-encounter, wins [default: all five, in
    /// that order].
    #[arg(long, value_name = "LIST")]
    pub tiebreaks: Option<String>,
    /// A Swiss event: write it as a FIDE TRF-2026 file after every round
    /// (atomically), for `argus swiss check FILE` or any arbiter's program.
    #[arg(long, value_name = "FILE")]
    pub trf: Option<PathBuf>,
    /// Play the whole schedule this many times, colours reversed every
    /// second time (2: a double round robin) [default: 1].
    #[arg(long, value_name = "N")]
    pub cycles: Option<u32>,
    /// Games each pairing plays in a row, colours alternating (each
    /// opening is played with both colours) [default: 1].
    #[arg(long, value_name = "N")]
    pub games_per_pairing: Option<u32>,
    #[command(flatten)]
    pub event: EventOptions,
    /// Listen on ADDR:PORT for the tcp:NAME players; each is seated by the
    /// tcsi name it signs on with.
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<String>,
    /// Accept TCP connections (on --listen and the tcp-listen:// players'
    /// addresses) only from this address or network (e.g.
    /// 192.168.1.0/24); may be repeated [default: any].
    #[arg(long, value_name = "CIDR")]
    pub allow: Vec<String>,
    /// Publish the tournament over TCP on this address (e.g.
    /// 0.0.0.0:7070): its journal and every game's, for
    /// `argus watch tcp://HOST:PORT` on other machines.
    #[arg(long, value_name = "ADDR:PORT")]
    pub feed: Option<String>,
    /// A shared secret the programs that connect to argus (tcp:NAME and
    /// tcp-listen:// players) must send (argus client --password) before
    /// they sign on.
    #[arg(long, value_name = "SECRET")]
    pub password: Option<String>,
    #[command(flatten)]
    pub line: LineOptions,
    #[command(flatten)]
    pub matches: MatchOptions,
    /// Append every finished game to this PGN file, with Round tags
    /// ROUND.BOARD.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Write the --pgn file's games minimal: the Seven Tag Roster (with
    /// SetUp and FEN for a set-up start), the moves and the result; no
    /// comments, evaluations or clocks (cutechess-cli's `-pgnout FILE
    /// min`).
    #[arg(long, requires = "pgn")]
    pub pgn_min: bool,
    /// Append each finished game's final position to this file as one EPD
    /// line, with its move counters (hmvc, fmvn), synced like the PGN
    /// (cutechess-cli's `-epdout`).
    #[arg(long, value_name = "FILE")]
    pub epd_out: Option<PathBuf>,
    /// Also append every finished game to this ChessBase 1993 base
    /// (BASE.cbf + BASE.cbi; created if missing), as `argus referee
    /// --cbf` does: the games file synced, then the index replaced
    /// atomically; what the format cannot hold is reported with the game
    /// (docs/chessbase.md).
    #[arg(long, value_name = "BASE")]
    pub cbf: Option<PathBuf>,
    /// Rewrite the games being played to this PGN file as they are played,
    /// one game per board in board order (a board's last game stays until
    /// it starts another), atomically and at most ten times a second, for
    /// broadcast viewers (with one board: the match's --live-pgn).
    #[arg(long, value_name = "FILE")]
    pub live_pgn: Option<PathBuf>,
    /// Rewrite the statistics to this JSON file (atomically) after every
    /// game: `players` (each against the field) and `pairings`, each with
    /// games, wins, draws, losses, pentanomial, elo, elo_error95, los
    /// (docs/statistics.md).
    #[arg(long, value_name = "FILE")]
    pub results_json: Option<PathBuf>,
    /// Say the standings and each player's rating against the field
    /// (what a round's end says) every N games played over the board
    /// (forfeits not counted), on stdout (or the board view's log) and in
    /// the log, as cutechess-cli's -ratinginterval.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub rating_interval: Option<u32>,
    /// Directory for the logs, each game's transcript and (without
    /// --journal) the tournament journal and each game's journal
    /// [default: argus-logs].
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
    /// Read settings from this TOML file: [line], [match] and [output]
    /// as for `argus referee`, [tournament] (schedule, cycles, games_per_pairing,
    /// boards, absent_forfeit, movetime, feed, http) and one [[player]]
    /// table per player (player = "PLAYER", protocol, options = { NAME = "VALUE" },
    /// book = "FILE", book_depth = N, movetime = MS, depth = N, nodes = N,
    /// ponder = true, tc = "CONTROL");
    /// command-line flags win.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub web: WebOptions,
    #[command(flatten)]
    pub view: ViewOptions,
    /// The event's journal [default: tournament.journal in the log
    /// directory]; each game's journal goes beside it (game-NNN/ in its
    /// directory, one event's journals per directory), the transcripts and
    /// logs stay in the log directory. `argus resume FILE` carries the
    /// event on, `argus watch FILE` follows it.
    #[arg(long, value_name = "FILE")]
    pub journal: Option<PathBuf>,
    /// Run as `argus referee A B` (`match_as_tournament` adds it): a
    /// match of two, said in a match's words, with a match's --round,
    /// --name-a and --name-b.
    #[arg(long = "as-match", hide = true)]
    pub as_match: bool,
    /// The journal's record of a command line that had `--password`
    /// ([`withhold_password`]): a resume must be given it again.
    #[arg(long = "password-withheld", hide = true)]
    pub password_withheld: bool,
}

/// A command line as the journal records it: `--password SECRET` left out
/// (the secret is never written to a journal, which `--feed` serves to
/// others), and `--password-withheld` in its place, so that a resume asks
/// for it again.
pub fn withhold_password(argv: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(argv.len());
    let mut withheld = false;
    let mut words = argv.into_iter();
    while let Some(a) = words.next() {
        if a == "--password" {
            words.next();
            withheld = true;
        } else if a.starts_with("--password=") {
            withheld = true;
        } else {
            out.push(a);
        }
    }
    if withheld {
        out.push("--password-withheld".into());
    }
    out
}

/// Everything a tournament runs with, merged and checked.
#[derive(Debug, Clone)]
pub struct TournamentPlan {
    pub players: Vec<Player>,
    /// The players' names in the event, in player order: each player's
    /// own ([`Player::name`]), or a match's `--name-a`/`--name-b`.
    pub names: Vec<String>,
    /// Whether each player's name was given (a match's `--name-a`,
    /// `--name-b`, or its config file's `name_a`, `name_b`), in player
    /// order.
    pub names_given: Vec<bool>,
    /// A tournament, or a match (`argus referee`, `--as-match`).
    pub form: Form,
    /// Each player's rating (`--rating`, `rating` in `[[player]]`), in
    /// player order; 0 when unknown.
    pub ratings: Vec<u16>,
    /// A Swiss event's byes, late entries and tie-breaks.
    pub swiss: crate::tournament::swiss_event::SwissSettings,
    pub schedule: ScheduleSettings,
    /// A knockout's tie-break (`--knockout-tiebreak`).
    pub tiebreak: Option<Tiebreak>,
    pub boards: Option<u32>,
    pub absence: Absence,
    /// `--sprt`: two players only; the tournament stops starting games
    /// once it decides.
    pub sprt: Option<crate::stats::sprt::Sprt>,
    /// `--sprt-running`.
    pub sprt_running: crate::tournament::SprtRunning,
    /// Each player's own time control (`--tc NAME:CONTROL`, time odds),
    /// by seed; `None`: the event's.
    pub own_controls: Vec<Option<crate::clock::TimeControl>>,
    /// What every board's referee starts from: time control, openings,
    /// delays, policies, adjudication (names, ports and round are set per
    /// game).
    pub referee: Settings,
    /// The openings the event's games start from (the schedule gives
    /// each game its index; a board's referee gets that one).
    pub openings: Vec<Start>,
    /// Which of the referee's delays were given (the others are 0 in a
    /// game between two programs argus runs).
    pub pace: Pace,
    pub port_settings: crate::link::PortSettings,
    /// Whether a player on a serial line is credited the wire time of its
    /// records (not on `argus demo`'s in-process cables, which carry bytes
    /// at once).
    pub wire_credit: bool,
    /// Whether `argus resume` can carry the event on from its journal (not
    /// a demo's: its cables and clients end with it); what a stop says.
    pub resumable: bool,
    /// Whether argus claims draws for its UCI engine players (not
    /// `--no-claims`).
    pub claim_draws: bool,
    pub log_dir: PathBuf,
    /// `--journal`: the event's journal, when not in the log directory.
    pub journal: Option<PathBuf>,
    /// Where the tournament is published (`--feed`).
    pub feed: Option<String>,
    /// The audience's web view: `--http` over the `[tournament]` table's
    /// `http`.
    pub web: WebOptions,
}

impl TournamentPlan {
    /// Where the event's journals and logs go.
    pub fn layout(&self) -> crate::app::tournament::layout::Layout {
        crate::app::tournament::layout::Layout::new(&self.log_dir, self.journal.as_deref())
    }
}

/// Whether `format` pairs its rounds as it goes (its colours too).
fn swiss_or_knockout(format: Format) -> bool {
    matches!(format, Format::Swiss | Format::Knockout)
}

/// The tournament options a match refuses (`argus referee` does not
/// offer them): the schedule, Swiss and knockout settings. A match of two
/// plays its --games, colours alternating.
pub const TOURNAMENT_ONLY: [&str; 11] = [
    "schedule",
    "rounds",
    "knockout-tiebreak",
    "rating",
    "bye",
    "bye-points",
    "late",
    "withdraw",
    "tiebreaks",
    "trf",
    "cycles",
];

/// A match-only option hidden from the tournament's help (any other
/// option as it is).
fn hide_match_only(arg: clap::Arg) -> clap::Arg {
    let match_only = MATCH_ONLY
        .iter()
        .any(|(flag, _)| arg.get_long() == Some(*flag));
    if match_only { arg.hide(true) } else { arg }
}

/// The first option in `m` that belongs to a match only, with what a
/// tournament has instead.
fn match_only_given(m: &MatchOptions) -> Option<(&'static str, &'static str)> {
    let given = [
        m.games.is_some(),
        m.round.is_some(),
        m.name_a.is_some(),
        m.name_b.is_some(),
    ];
    MATCH_ONLY
        .into_iter()
        .zip(given)
        .find_map(|(flag, given)| given.then_some(flag))
}

impl TournamentArgs {
    /// The first of [`TOURNAMENT_ONLY`] these arguments give.
    fn tournament_only_given(&self) -> Option<&'static str> {
        let given = [
            self.schedule.is_some(),
            self.rounds.is_some(),
            self.knockout_tiebreak.is_some(),
            !self.ratings.is_empty(),
            !self.byes.is_empty(),
            self.bye_points.is_some(),
            !self.late.is_empty(),
            !self.withdraw.is_empty(),
            self.tiebreaks.is_some(),
            self.trf.is_some(),
            self.cycles.is_some(),
        ];
        TOURNAMENT_ONLY
            .into_iter()
            .zip(given)
            .find_map(|(flag, given)| given.then_some(flag))
    }

    /// These arguments with the config file's `[output]` table under the
    /// flags: each of `pgn`, `pgn_min`, `epd_out`, `live_pgn`, `log_dir`,
    /// `journal`, `feed`, `results_json`, `cbf`, `rating_interval` and
    /// `http` the flags do not give is the file's.
    pub fn with_config_outputs(mut self) -> Result<TournamentArgs, ArgsError> {
        let Some(path) = &self.config else {
            return Ok(self);
        };
        let out = TournamentConfig::load(path)?.output;
        self.journal = self.journal.or(out.journal);
        self.pgn = self.pgn.or(out.pgn);
        self.pgn_min |= out.pgn_min;
        self.epd_out = self.epd_out.or(out.epd_out);
        self.live_pgn = self.live_pgn.or(out.live_pgn);
        self.log_dir = self.log_dir.or(out.log_dir);
        self.feed = self.feed.or(out.feed);
        self.results_json = self.results_json.or(out.results_json);
        self.cbf = self.cbf.or(out.cbf);
        self.rating_interval = self.rating_interval.or(out.rating_interval);
        self.web.http = self.web.http.or(out.http);
        Ok(self)
    }

    /// Where each finished game goes: `--pgn` (with `--pgn-min`) and
    /// `--epd-out`.
    pub fn game_files(&self) -> GameFiles {
        GameFiles {
            pgn: self.pgn.clone(),
            pgn_min: self.pgn_min,
            epd_out: self.epd_out.clone(),
            cbf: self.cbf.clone(),
        }
    }

    /// The arguments of a command line recorded in a tournament journal
    /// (those after `argus tournament`).
    pub fn from_command(command: &[String]) -> Result<TournamentArgs, ArgsError> {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: TournamentArgs,
        }
        let argv = std::iter::once("tournament".to_string()).chain(command.iter().cloned());
        <Cli as clap::Parser>::try_parse_from(argv)
            .map(|c| c.args)
            .map_err(ArgsError::Recorded)
    }

    /// Merges the flags over the config file over the defaults and checks
    /// everything; `date` is today's (`yyyy.mm.dd`).
    pub fn plan(&self, date: String) -> Result<TournamentPlan, ArgsError> {
        // A match's own flags are its, as `argus referee` runs.
        let mut only = self.matches.clone();
        if self.as_match {
            (only.round, only.name_a, only.name_b) = (None, None, None);
        }
        if let Some((flag, instead)) = match_only_given(&only) {
            return Err(ArgsError::MatchOnly { flag, instead });
        }
        if let Some(flag) = self.tournament_only_given().filter(|_| self.as_match) {
            return Err(ArgsError::TournamentOnly(flag));
        }
        if let Some(j) = &self.journal
            && j.file_name().is_none()
        {
            return Err(ArgsError::JournalNotAFile(j.clone()));
        }
        let file = match &self.config {
            Some(p) => TournamentConfig::load(p)?,
            None => TournamentConfig::default(),
        };
        let t = &file.tournament;
        let mut specs = self.players.clone();
        let mut flags = EngineFlags {
            options: self.programs.engine_options.clone(),
            protocols: self.programs.protocols.clone(),
            books: self.programs.books.clone(),
            book_depths: self.programs.book_depths.clone(),
            movetimes: Vec::new(),
            depths: self.programs.depths.clone(),
            nodes: self.programs.nodes.clone(),
            ponder: self.programs.ponder.clone(),
        };
        let (every, named): (Vec<&String>, Vec<&String>) = self
            .programs
            .movetimes
            .iter()
            .partition(|m| !m.contains(':'));
        flags.movetimes = named.into_iter().cloned().collect();
        let every = match every.as_slice() {
            [] => t.movetime,
            [ms] => Some(
                ms.trim()
                    .parse::<u64>()
                    .map_err(|_| ArgsError::Movetime(ms.to_string()))?,
            ),
            _ => return Err(ArgsError::MovetimeTwice),
        };
        if every == Some(0) {
            return Err(ArgsError::MovetimeZero);
        }
        let mut rating_flags = self.ratings.clone();
        file.add_players(&mut specs, &mut flags, &mut rating_flags)?;
        let form = if self.as_match {
            Form::Match
        } else {
            Form::Tournament
        };
        if self.as_match {
            listen_for_both(&mut specs, self.listen.as_deref())?;
            two_of_a_match(&specs)?;
        }
        let mut players = crate::tournament::player::players(&specs, &flags, form)?;
        let ratings = ratings_of(&players, &rating_flags)?;
        for p in &mut players {
            if let Player::Engine(e) = p {
                e.limits.movetime_ms = e.limits.movetime_ms.or(every);
            }
        }
        let listens = self.listen.is_some()
            || players.iter().any(|p| {
                matches!(
                    p,
                    Player::Socket {
                        endpoint: crate::link::Endpoint::Listen(_),
                        ..
                    }
                )
            });
        if !listens && (!self.allow.is_empty() || self.password.is_some()) {
            return Err(ArgsError::NoListener);
        }
        if players.iter().any(|p| matches!(p, Player::Tcp { .. })) && self.listen.is_none() {
            return Err(ArgsError::TcpWithoutListen);
        }
        let schedule = self.schedule.clone().or(t.schedule.clone());
        let format = Format::parse(schedule.as_deref().unwrap_or("round-robin"))
            .map_err(ArgsError::Schedule)?;
        let rounds = self.rounds.or(t.rounds);
        // A Swiss event's rounds are given; a knockout's follow from its
        // bracket and its matches.
        let swiss = format == Format::Swiss;
        match (swiss, rounds) {
            (true, None) => return Err(ArgsError::RoundsNeeded(format)),
            (false, Some(_)) => return Err(ArgsError::RoundsGiven(format)),
            _ => {}
        }
        if swiss
            && (self.cycles.or(t.cycles).is_some_and(|c| c != 1)
                || self
                    .games_per_pairing
                    .or(t.games_per_pairing)
                    .is_some_and(|g| g != 1))
        {
            return Err(ArgsError::CyclesOfSwiss(format));
        }
        // A knockout's --withdraw names a round of its bracket.
        let event_rounds = match format {
            Format::Knockout => players.len().next_power_of_two().trailing_zeros(),
            _ => rounds.unwrap_or(0),
        };
        let swiss = self.swiss_settings(&players, format, event_rounds)?;
        let cycles = self.cycles.or(t.cycles).unwrap_or(1);
        // A match's `games` in the file's [match] table is its games.
        let file_games = file.matches.games.filter(|_| self.as_match);
        let games_per_pairing = self
            .games_per_pairing
            .or(t.games_per_pairing)
            .or(file_games)
            .unwrap_or(1);
        if cycles == 0 || games_per_pairing == 0 {
            return Err(ArgsError::ZeroCycles);
        }
        let tiebreak = knockout_tiebreak(
            self.knockout_tiebreak
                .as_deref()
                .or(t.knockout_tiebreak.as_deref()),
            format,
            cycles,
        )?;
        if let Some((key, instead)) = match_only_given(&file.matches).filter(|_| !self.as_match) {
            return Err(ArgsError::MatchTable { key, instead });
        }
        let mut matches = self.matches.clone().or(file.matches.clone());
        let no_swap = matches.no_swap;
        if no_swap && swiss_or_knockout(format) {
            return Err(ArgsError::NoSwap(format));
        }
        // A match keeps a match's Event tag (`argus match`).
        if !self.as_match {
            matches.event = matches.event.or(Some("argus tournament".into()));
        }
        let own_controls = file.own_controls(&mut matches, &players)?;
        let pace = Pace {
            reset_given: matches.reset_delay.is_some(),
            conclude_given: matches.conclude_delay.is_some(),
        };
        let ports = [players[0].name().to_string(), players[1].name().to_string()];
        let p = plan(
            ports,
            self.line.clone().or(file.line.clone()),
            matches,
            OutputOptions::default(),
            None,
            date,
            self.view.headless,
        )?;
        let mut referee = p.settings;
        let names = names_of(&players, form, &referee.names)?;
        let names_given = (0..players.len())
            .map(|i| {
                form == Form::Match
                    && ClientId::BOTH
                        .get(i)
                        .is_some_and(|&id| referee.names[id].is_some())
            })
            .collect();
        // Each game's names are the event's (set per game).
        referee.names = ByClient::default();
        // The event runs the test on its pairs; a board plays one game.
        let sprt = p.sprt;
        if sprt.is_some() && players.len() != 2 {
            return Err(ArgsError::SprtPlayers(players.len()));
        }
        referee.disconnect_at_end = false;
        let schedule = ScheduleSettings {
            format,
            players: players.len(),
            cycles,
            games_per_pairing,
            openings: p.openings.len(),
            openings_seed: p.openings_seed,
            rounds: rounds.unwrap_or(0),
            swap: !no_swap,
            // Only `argus demo` plays until it is stopped.
            endless: false,
        };
        let absence = match self.event.absent_forfeit.or(t.absent_forfeit) {
            None => Absence::Wait,
            Some(secs) => Absence::Forfeit {
                after_ms: seconds_ms(secs, "absent-forfeit", 7.0 * 86_400.0)?,
            },
        };
        Ok(TournamentPlan {
            players,
            names,
            names_given,
            form,
            ratings,
            swiss,
            schedule,
            tiebreak,
            boards: self.event.boards.or(t.boards),
            absence,
            sprt,
            sprt_running: crate::tournament::SprtRunning::parse(
                self.event.sprt_running.as_deref().unwrap_or("finish"),
            )
            .map_err(ArgsError::SprtRunning)?,
            own_controls,
            referee,
            openings: p.openings,
            pace,
            port_settings: p.port_settings,
            wire_credit: true,
            resumable: true,
            claim_draws: !self.programs.no_claims,
            log_dir: self
                .log_dir
                .clone()
                .unwrap_or_else(|| PathBuf::from("argus-logs")),
            journal: self.journal.clone(),
            feed: self.feed.clone().or(t.feed.clone()),
            web: self.web.clone().or_file(t.http.clone()),
        })
    }
}

/// Why a tournament's (or a match's, run as a tournament of two)
/// arguments do not make an event: the flag, config key or player, and
/// what is wrong with it, first as [`TournamentArgs::plan`] checks them.
/// Nothing is started.
#[derive(Debug, thiserror::Error)]
pub enum ArgsError {
    /// The `--config` file cannot be read or parsed.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The command line a journal records does not read.
    #[error("the recorded command line does not read: {0}")]
    Recorded(clap::Error),
    /// A match's flag given to a tournament, and what a tournament does
    /// instead.
    #[error("--{flag} is for a match, not a tournament: {instead}")]
    MatchOnly {
        flag: &'static str,
        instead: &'static str,
    },
    /// A tournament's flag given to a match.
    #[error(
        "--{0} is for a tournament (argus tournament), not a match: a match plays its \
         --games, colours alternating"
    )]
    TournamentOnly(&'static str),
    /// The config file's `[match]` table has a match's key (`key`, with
    /// `-`) for a tournament.
    #[error(
        "the config file's [match] table has {}: it is for a match, not a tournament: {instead}",
        .key.replace('-', "_")
    )]
    MatchTable {
        key: &'static str,
        instead: &'static str,
    },
    /// `--journal` names no file.
    #[error(
        "--journal {}: give a file (its games' journals go beside it, in game-NNN/)",
        .0.display()
    )]
    JournalNotAFile(PathBuf),
    /// `--movetime MS` that does not read (as given).
    #[error("--movetime {0:?}: expected MS or NAME:MS")]
    Movetime(String),
    #[error("--movetime MS given twice (NAME:MS sets one engine's)")]
    MovetimeTwice,
    #[error("--movetime must be at least 1 ms")]
    MovetimeZero,
    /// `--allow` or `--password` with nothing listening.
    #[error(
        "--allow and --password are for the programs that connect to argus: give --listen \
         ADDR:PORT (tcp:NAME players) or a tcp-listen:// player"
    )]
    NoListener,
    #[error("tcp:NAME players connect to the tournament: give --listen ADDR:PORT")]
    TcpWithoutListen,
    /// A match's `--listen` that does not read, or given with ports.
    #[error(transparent)]
    Endpoints(#[from] EndpointsError),
    /// A match's two ports that cannot be (one device, a file, ...).
    #[error(transparent)]
    Ports(#[from] StartError),
    /// A match's two players that are one port (as given).
    #[error("port A and port B are the same port ({0}): each client needs its own port")]
    SamePort(String),
    /// A match's two players that are one player (as given).
    #[error("A and B are the same player ({0}): each needs its own")]
    SamePlayer(String),
    /// A match of another number of players.
    #[error("a match is between two players (PORT_A and PORT_B), not {0}")]
    NotTwo(usize),
    /// A `[[player]]` table's player that does not read.
    #[error(transparent)]
    Player(#[from] PlayerError),
    /// A `[[player]]` table (its player) with engine keys for a player
    /// that is no engine.
    #[error(
        "[[player]] {0:?}: protocol, options, book, book_depth, movetime, depth, nodes and \
         ponder are for engine players"
    )]
    EngineKeys(String),
    /// The players and their engine flags do not agree.
    #[error(transparent)]
    Players(#[from] PlayersError),
    /// A player's own time control (`--tc NAME:CONTROL`) or the event's.
    #[error(transparent)]
    Odds(#[from] OddsError),
    /// The match settings the event's games are played with.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// `--name-a` or `--name-b` (the client's) given empty.
    #[error("--name-{}: a name is needed", .0.letter().to_lowercase())]
    NoName(ClientId),
    /// A match's A and B with one name.
    #[error("A and B are both named {0:?}: give each a name of its own (--name-a, --name-b)")]
    SameNames(String),
    #[error("--schedule: {0}")]
    Schedule(UnknownFormat),
    /// A Swiss event without `--rounds`.
    #[error("--schedule {} needs --rounds N (the rounds the event will have)", .0.as_str())]
    RoundsNeeded(Format),
    /// `--rounds` for another schedule.
    #[error(
        "--rounds is for --schedule swiss; a {}'s rounds follow from its players",
        .0.as_str()
    )]
    RoundsGiven(Format),
    /// `--cycles` or `--games-per-pairing` for a Swiss event.
    #[error(
        "--cycles and --games-per-pairing are for a round robin or a gauntlet: a {} event \
         pairs each round from the results so far (--rounds N)",
        .0.as_str()
    )]
    CyclesOfSwiss(Format),
    #[error("--cycles and --games-per-pairing must be at least 1")]
    ZeroCycles,
    /// `--no-swap` for a Swiss event or a knockout.
    #[error(
        "--no-swap keeps each pairing's colours in a round robin or a gauntlet: a {} event \
         gives each game its colours as it pairs",
        .0.as_str()
    )]
    NoSwap(Format),
    /// `--sprt` for another number of players.
    #[error("--sprt tests one engine against another: it needs 2 players, not {0}")]
    SprtPlayers(usize),
    #[error("--sprt-running {0}")]
    SprtRunning(UnknownSprtRunning),
    #[error(transparent)]
    Seconds(#[from] BadSeconds),
    /// `--withdraw` for a round robin or a gauntlet.
    #[error("--withdraw is for --schedule swiss or knockout, not {}", .0.as_str())]
    WithdrawSchedule(Format),
    /// A Swiss event's flag for another schedule.
    #[error("{0} is for --schedule swiss")]
    SwissOnly(&'static str),
    /// A `NAME:ROUND` (or `NAME:RATING`) entry of a flag, as given, and
    /// what is wrong with it.
    #[error("{flag} {value:?}: {fault}")]
    Entry {
        flag: &'static str,
        value: String,
        fault: EntryFault,
    },
    /// One `--bye NAME:ROUND` (as given) twice.
    #[error("--bye {0:?} given twice")]
    ByeTwice(String),
    #[error("--bye-points {0}")]
    ByePoints(BadByePoints),
    #[error("--tiebreaks: {0}")]
    Tiebreaks(TiebreakListError),
    /// A knockout with `--cycles`.
    #[error("--cycles is for a round robin or a gauntlet: a knockout plays its bracket once")]
    KnockoutCycles,
    /// `--knockout-tiebreak` for another schedule.
    #[error("--knockout-tiebreak is for --schedule knockout, not {}", .0.as_str())]
    KnockoutTiebreakSchedule(Format),
    #[error("--knockout-tiebreak {0}")]
    KnockoutTiebreak(TiebreakError),
    /// A `--knockout-tiebreak` (as given) whose control does not read.
    #[error("--knockout-tiebreak {given:?}: {error}")]
    KnockoutTiebreakControl {
        given: String,
        error: BadTimeControl,
    },
}

/// What is wrong with one `NAME:ROUND` entry of `--bye`, `--late` or
/// `--withdraw`, or one `NAME:RATING` of `--rating`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntryFault {
    /// Not `NAME:` and this (`ROUND`, `RATING`).
    #[error("expected NAME:{0}")]
    Form(&'static str),
    /// A round that is not one of the event's (1 to this).
    #[error("the round is not one of 1 to {0}")]
    Round(u32),
    #[error("the rating is not a number 0-9999")]
    Rating,
    #[error("no player is named {0:?}")]
    NoPlayer(String),
    #[error("a player out from round 1 on plays no game: leave it out")]
    WithdrawsAtOnce,
    #[error("that player already withdraws")]
    WithdrawsTwice,
    #[error("a player from round 1 is not late")]
    NotLate,
    #[error("that player is already late")]
    LateTwice,
    #[error("that player enters late, after that round")]
    ByeBeforeEntry,
    #[error("that player has withdrawn by that round")]
    ByeAfterWithdrawal,
}

/// The error of `flag`'s entry `value`.
fn entry(flag: &'static str, value: &str, fault: EntryFault) -> ArgsError {
    ArgsError::Entry {
        flag,
        value: value.to_string(),
        fault,
    }
}

/// A match's `--listen ADDR` for both clients, given without players:
/// they are that listener's two seats, the one `tcp-listen://ADDR`
/// endpoint given twice (as `argus referee` has always read `--listen`:
/// the first client to sign on is A, the second B, or each by its name
/// with `--name-a`/`--name-b`). With players, `--listen` is where their
/// `tcp:NAME` players connect, and is refused without one.
fn listen_for_both(specs: &mut Vec<String>, listen: Option<&str>) -> Result<(), ArgsError> {
    let Some(addr) = listen else {
        return Ok(());
    };
    if specs.is_empty() {
        let endpoint = crate::link::Endpoint::parse(&format!("tcp-listen://{addr}"))
            .map_err(EndpointsError::Listen)?;
        *specs = vec![endpoint.to_string(); 2];
        return Ok(());
    }
    let tcp_name = |s: &String| matches!(Player::parse(s), Ok(Player::Tcp { .. }));
    if specs.iter().any(tcp_name) {
        return Ok(());
    }
    Err(EndpointsError::ListenAndPorts.into())
}

/// A match's players, said in a match's words before a tournament's rules
/// read them: two (A and B), each its own, but for one listener's two
/// seats ([`listen_for_both`]).
fn two_of_a_match(specs: &[String]) -> Result<(), ArgsError> {
    match specs {
        [a, b] if a == b && a.starts_with("tcp-listen://") => Ok(()),
        // A port or endpoint said as a match between ports says it.
        [a, b] if a == b && !crate::tournament::player::is_tournament_only(a) => {
            Err(ArgsError::SamePort(a.clone()))
        }
        [a, b] if a == b => Err(ArgsError::SamePlayer(a.clone())),
        // Two ports: not the same device by two names, nor a file or a
        // directory (said before anything is opened or made).
        [a, b]
            if ![a, b]
                .iter()
                .any(|s| crate::tournament::player::is_tournament_only(s)) =>
        {
            Ok(crate::app::start::check_ports([a.as_str(), b.as_str()])?)
        }
        [_, _] => Ok(()),
        _ => Err(ArgsError::NotTwo(specs.len())),
    }
}

/// The players' names in the event: each player's own, a match's two
/// with `--name-a`/`--name-b` over them (two players only, and not the
/// same name).
fn names_of(
    players: &[Player],
    form: Form,
    given: &ByClient<Option<String>>,
) -> Result<Vec<String>, ArgsError> {
    let mut names: Vec<String> = players.iter().map(|p| p.name().to_string()).collect();
    if form == Form::Match {
        // Two players ([`two_of_a_match`]).
        for (name, id) in names.iter_mut().zip(ClientId::BOTH) {
            if let Some(n) = given[id].as_deref() {
                let n = crate::text::client_name(n);
                if n.is_empty() {
                    return Err(ArgsError::NoName(id));
                }
                *name = n;
            }
        }
        if names.first() == names.get(1) {
            return Err(ArgsError::SameNames(names[0].clone()));
        }
    }
    Ok(names)
}

impl TournamentArgs {
    /// `--bye`, `--late`, `--withdraw`, `--bye-points`, `--tiebreaks` and
    /// `--trf`, checked: for a Swiss event only (`--withdraw` also for a
    /// knockout), each NAME a player, each ROUND one of the event's
    /// (`rounds`: a knockout's bracket rounds; a late entry or a withdrawal
    /// from round 2 on), no bye before a late entry's first round, after a
    /// withdrawal, or twice.
    fn swiss_settings(
        &self,
        players: &[Player],
        format: Format,
        rounds: u32,
    ) -> Result<crate::tournament::swiss_event::SwissSettings, ArgsError> {
        let mut s = crate::tournament::swiss_event::SwissSettings::default();
        let given = [
            ("--bye", !self.byes.is_empty()),
            ("--late", !self.late.is_empty()),
            ("--bye-points", self.bye_points.is_some()),
            ("--tiebreaks", self.tiebreaks.is_some()),
            ("--trf", self.trf.is_some()),
        ];
        let player_round = |flag: &'static str, w: &str| -> Result<(PlayerId, u32), ArgsError> {
            let at = |fault| entry(flag, w, fault);
            let (name, r) = w.rsplit_once(':').ok_or(at(EntryFault::Form("ROUND")))?;
            let round = r
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|r| (1..=rounds).contains(r))
                .ok_or(at(EntryFault::Round(rounds)))?;
            let i = players
                .iter()
                .position(|p| p.name() == name)
                .ok_or_else(|| at(EntryFault::NoPlayer(name.to_string())))?;
            Ok((PlayerId(i), round))
        };
        if !self.withdraw.is_empty() && !matches!(format, Format::Swiss | Format::Knockout) {
            return Err(ArgsError::WithdrawSchedule(format));
        }
        for w in &self.withdraw {
            let (p, r) = player_round("--withdraw", w)?;
            if r == 1 {
                return Err(entry("--withdraw", w, EntryFault::WithdrawsAtOnce));
            }
            if s.withdrawals.iter().any(|l| l.0 == p) {
                return Err(entry("--withdraw", w, EntryFault::WithdrawsTwice));
            }
            s.withdrawals.push((p, r));
        }
        if format != Format::Swiss {
            if let Some((flag, _)) = given.iter().find(|g| g.1) {
                return Err(ArgsError::SwissOnly(flag));
            }
            return Ok(s);
        }
        for w in &self.late {
            let (p, r) = player_round("--late", w)?;
            if r == 1 {
                return Err(entry("--late", w, EntryFault::NotLate));
            }
            if s.late.iter().any(|l| l.0 == p) {
                return Err(entry("--late", w, EntryFault::LateTwice));
            }
            s.late.push((p, r));
        }
        for w in &self.byes {
            let (p, r) = player_round("--bye", w)?;
            if s.byes.contains(&(p, r)) {
                return Err(ArgsError::ByeTwice(w.clone()));
            }
            if s.late.iter().any(|&(q, from)| q == p && r < from) {
                return Err(entry("--bye", w, EntryFault::ByeBeforeEntry));
            }
            if s.withdrawals.iter().any(|&(q, from)| q == p && r >= from) {
                return Err(entry("--bye", w, EntryFault::ByeAfterWithdrawal));
            }
            s.byes.push((p, r));
        }
        if let Some(b) = &self.bye_points {
            s.bye = crate::tournament::journal::header::parse_bye_points(b)
                .map_err(ArgsError::ByePoints)?;
        }
        if let Some(list) = &self.tiebreaks {
            s.tiebreaks =
                crate::tournament::Tiebreak::parse_list(list).map_err(ArgsError::Tiebreaks)?;
        }
        Ok(s)
    }
}

/// A knockout's tie-break from `--knockout-tiebreak GAMES@CONTROL`, its
/// control checked as `--tc` checks one; the error says why it is refused
/// (given for another schedule, or with --cycles, or not well formed).
fn knockout_tiebreak(
    given: Option<&str>,
    format: Format,
    cycles: u32,
) -> Result<Option<Tiebreak>, ArgsError> {
    if format == Format::Knockout && cycles != 1 {
        return Err(ArgsError::KnockoutCycles);
    }
    let Some(s) = given else {
        return Ok(None);
    };
    if format != Format::Knockout {
        return Err(ArgsError::KnockoutTiebreakSchedule(format));
    }
    let t = Tiebreak::parse(s).map_err(ArgsError::KnockoutTiebreak)?;
    for control in t.controls() {
        crate::clock::parse_friendly(control).map_err(|error| {
            ArgsError::KnockoutTiebreakControl {
                given: s.to_string(),
                error,
            }
        })?;
    }
    Ok(Some(t))
}

/// The `--config` file of a tournament.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentConfig {
    #[serde(default)]
    pub line: LineOptions,
    #[serde(default, rename = "match")]
    pub matches: MatchOptions,
    #[serde(default)]
    pub tournament: TournamentTable,
    #[serde(default)]
    pub player: Vec<PlayerTable>,
    /// Where the event writes, as `argus referee`'s `[output]` table:
    /// each file a flag does not give ([`TournamentArgs::with_config_outputs`]).
    #[serde(default)]
    pub output: OutputOptions,
}

/// The config file's `[tournament]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentTable {
    pub schedule: Option<String>,
    pub cycles: Option<u32>,
    pub games_per_pairing: Option<u32>,
    /// A Swiss event's rounds (`--rounds`).
    pub rounds: Option<u32>,
    /// A knockout's tie-break (`--knockout-tiebreak`).
    pub knockout_tiebreak: Option<String>,
    pub boards: Option<u32>,
    pub absent_forfeit: Option<f64>,
    pub movetime: Option<u64>,
    pub feed: Option<String>,
    /// The audience's web view's address (`--http` wins).
    pub http: Option<String>,
}

/// One `[[player]]` table: the player as on the command line, and for an
/// engine its protocol, options and opening book.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerTable {
    pub player: String,
    pub protocol: Option<String>,
    #[serde(default)]
    pub options: std::collections::BTreeMap<String, String>,
    /// A Polyglot book (`--book NAME:FILE`).
    pub book: Option<String>,
    /// Its depth in plies (`--book-depth NAME:N`).
    pub book_depth: Option<u32>,
    /// Its move time in ms (`--movetime NAME:MS`).
    pub movetime: Option<u64>,
    /// Its depth limit in plies (`--depth NAME:N`).
    pub depth: Option<u32>,
    /// Its node limit (`--nodes NAME:N`).
    pub nodes: Option<u64>,
    /// It ponders (`--ponder NAME`).
    #[serde(default)]
    pub ponder: bool,
    /// Its rating (`--rating NAME:RATING`).
    pub rating: Option<u16>,
    /// Its own time control (`--tc NAME:CONTROL`); any kind of player.
    pub tc: Option<String>,
}

impl TournamentConfig {
    /// Reads and parses a config file; the error names the file and says
    /// what is wrong (TOML errors carry line and column).
    pub fn load(path: &Path) -> Result<TournamentConfig, ConfigError> {
        read_toml(path)
    }

    /// Time odds: takes the players' own controls out of `matches.tc`
    /// (the `[[player]]` tables' `tc` first, then the flags', the last
    /// one of a player winning), leaving the event's, and gives them by
    /// seed.
    fn own_controls(
        &self,
        matches: &mut MatchOptions,
        players: &[Player],
    ) -> Result<Vec<Option<crate::clock::TimeControl>>, OddsError> {
        let names: Vec<String> = players.iter().map(|p| p.name().to_string()).collect();
        let tables = self.player.iter().filter_map(|t| {
            let tc = t.tc.as_ref()?;
            let player = Player::parse(&t.player).ok()?;
            Some(format!("{}:{tc}", player.name()))
        });
        let given: Vec<String> = tables.chain(matches.tc.drain(..)).collect();
        let c = crate::app::options::controls(&given, &names)?;
        matches.tc = c.event_values;
        Ok(c.own)
    }

    /// Appends the `[[player]]` tables to the command line's players and
    /// their engine flags, in the forms the flags take.
    fn add_players(
        &self,
        specs: &mut Vec<String>,
        flags: &mut EngineFlags,
        ratings: &mut Vec<String>,
    ) -> Result<(), ArgsError> {
        for t in &self.player {
            let player = Player::parse(&t.player)?;
            let name = player.name().to_string();
            let engine = matches!(player, Player::Engine(_));
            let engine_keys = t.protocol.is_some()
                || !t.options.is_empty()
                || t.book.is_some()
                || t.book_depth.is_some()
                || t.movetime.is_some()
                || t.depth.is_some()
                || t.nodes.is_some()
                || t.ponder;
            if !engine && engine_keys {
                return Err(ArgsError::EngineKeys(t.player.clone()));
            }
            specs.push(t.player.clone());
            if let Some(p) = &t.protocol {
                flags.protocols.push(format!("{name}:{p}"));
            }
            for (opt, value) in &t.options {
                flags.options.push(format!("{name}:{opt}={value}"));
            }
            if let Some(b) = &t.book {
                flags.books.push(format!("{name}:{b}"));
            }
            if let Some(d) = t.book_depth {
                flags.book_depths.push(format!("{name}:{d}"));
            }
            if let Some(ms) = t.movetime {
                flags.movetimes.push(format!("{name}:{ms}"));
            }
            if let Some(d) = t.depth {
                flags.depths.push(format!("{name}:{d}"));
            }
            if let Some(n) = t.nodes {
                flags.nodes.push(format!("{name}:{n}"));
            }
            if t.ponder {
                flags.ponder.push(name.clone());
            }
            if let Some(r) = t.rating {
                ratings.push(format!("{name}:{r}"));
            }
        }
        Ok(())
    }
}

/// Each player's rating from the `NAME:RATING` flags (the config file's
/// after the command line's; the first given wins), 0 when not given. The
/// error names a flag whose player is not in the event or whose rating is
/// not a number from 0 to 9999 (as FIDE's files hold).
fn ratings_of(players: &[Player], flags: &[String]) -> Result<Vec<u16>, ArgsError> {
    let mut ratings: Vec<Option<u16>> = vec![None; players.len()];
    for flag in flags {
        let at = |fault| entry("--rating", flag, fault);
        let (name, r) = flag
            .rsplit_once(':')
            .ok_or(at(EntryFault::Form("RATING")))?;
        let rating = r
            .trim()
            .parse::<u16>()
            .ok()
            .filter(|&r| r <= 9999)
            .ok_or(at(EntryFault::Rating))?;
        let i = players
            .iter()
            .position(|p| p.name() == name)
            .ok_or_else(|| at(EntryFault::NoPlayer(name.to_string())))?;
        ratings[i].get_or_insert(rating);
    }
    Ok(ratings.into_iter().map(Option::unwrap_or_default).collect())
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

    /// `argus tournament`'s plan: `--tc NAME:CONTROL` and a `[[player]]`
    /// table's `tc` give players their own, by seed; the event's stays
    /// the boards' `TimeControl`; the last of a player's wins (the flags
    /// come after the file).
    #[test]
    fn a_tournament_plan_gives_each_player_its_own_control() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("t.toml");
        std::fs::write(
            &config,
            "[[player]]\nplayer = \"mover:c\"\ntc = \"5+0.05\"\n\n\
             [[player]]\nplayer = \"mover:d\"\ntc = \"7\"\n",
        )
        .unwrap();
        let config = config.display().to_string();
        let argv = [
            "t", "mover:a", "mover:b", "--tc", "0:10+0.1", "--tc", "a:1+0.01", "--tc", "d:9",
            "--config", &config,
        ];
        let plan = Cli::try_parse_from(argv)
            .unwrap()
            .args
            .plan("2026.01.01".into())
            .unwrap();
        let own: Vec<Option<String>> = plan
            .own_controls
            .iter()
            .map(|c| c.as_ref().map(|c| c.to_string()))
            .collect();
        assert_eq!(
            own,
            [
                Some("1+0.01".into()),
                None,
                Some("5+0.05".into()),
                Some("9".into())
            ]
        );
        assert_eq!(plan.referee.time_control.to_string(), "10+0.1");
        // Without a timed event control, the players without their own
        // would have no clock.
        let argv = ["t", "mover:a", "mover:b", "--tc", "a:1+0.01"];
        let e = Cli::try_parse_from(argv)
            .unwrap()
            .args
            .plan("2026.01.01".into())
            .unwrap_err();
        assert!(matches!(e, ArgsError::Odds(_)), "{e:?}");
        assert!(e.to_string().contains("must then be timed"), "{e}");
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
        assert!(p.referee.opening.is_none(), "each game gets its own");
    }

    #[test]
    fn a_knockout_takes_its_tiebreak_and_ratings_and_refuses_what_it_has_not() {
        let plan = |v: &[&str]| {
            let mut all = vec!["mover:a", "mover:b", "mover:c"];
            all.extend_from_slice(v);
            args(&all).plan("2026.11.23".into())
        };
        let p = plan(&[
            "--schedule",
            "knockout",
            "--games-per-pairing",
            "2",
            "--knockout-tiebreak",
            "2@1+0.01",
            "--rating",
            "c:2500",
        ])
        .unwrap();
        assert_eq!(p.schedule.format, Format::Knockout);
        assert_eq!(p.schedule.games_per_pairing, 2);
        assert_eq!(
            p.tiebreak.as_ref().map(|t| t.to_string()).as_deref(),
            Some("2@1+0.01")
        );
        assert_eq!(p.ratings, vec![0, 0, 2500]);
        for (bad, want) in [
            (
                &["--knockout-tiebreak", "2@1+0.01"][..],
                "is for --schedule knockout",
            ),
            (
                &["--schedule", "knockout", "--knockout-tiebreak", "2@fast"],
                "bad time control",
            ),
            (
                &["--schedule", "knockout", "--knockout-tiebreak", "0@1+0"],
                "1 to 100",
            ),
            (
                &["--schedule", "knockout", "--cycles", "2"],
                "plays its bracket once",
            ),
            (
                &["--schedule", "knockout", "--rounds", "3"],
                "--rounds is for --schedule swiss",
            ),
        ] {
            let e = plan(bad).unwrap_err().to_string();
            assert!(e.contains(want), "{bad:?}: {e}");
        }
    }

    #[test]
    fn match_only_flags_and_missing_listen_are_refused_with_the_way_out() {
        let e = args(&["mover:a", "mover:b", "--games", "4"])
            .plan("2026.11.23".into())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--games is for a match") && e.contains("--cycles"),
            "{e}"
        );
        let e = args(&["mover:a", "tcp:b"])
            .plan("2026.11.23".into())
            .unwrap_err()
            .to_string();
        assert!(e.contains("--listen"), "{e}");
        let e = args(&["mover:a", "mover:b", "--schedule", "swiss"])
            .plan("2026.11.23".into())
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("--schedule"), "{e}");
    }

    #[test]
    fn no_swap_keeps_colours_only_where_the_schedule_is_fixed() {
        let p = args(&["mover:a", "mover:b", "--no-swap"])
            .plan("2026.11.23".into())
            .unwrap();
        assert!(!p.schedule.swap);
        assert!(
            args(&["mover:a", "mover:b"])
                .plan("2026.11.23".into())
                .unwrap()
                .schedule
                .swap
        );
        for kind in ["swiss", "knockout"] {
            let e = args(&[
                "mover:a",
                "mover:b",
                "mover:c",
                "--no-swap",
                "--schedule",
                kind,
                "--rounds",
                "2",
            ])
            .plan("2026.11.23".into())
            .unwrap_err()
            .to_string();
            assert!(
                e.contains("--no-swap") || e.contains("--rounds is for"),
                "{kind}: {e}"
            );
        }
        let e = args(&[
            "mover:a",
            "mover:b",
            "mover:c",
            "--no-swap",
            "--schedule",
            "knockout",
        ])
        .plan("2026.11.23".into())
        .unwrap_err()
        .to_string();
        assert!(e.contains("--no-swap keeps"), "{e}");
    }

    #[test]
    fn tcp_endpoints_are_players_of_their_own() {
        let e = args(&["tcp-listen://127.0.0.1:7001", "tcp-listen://127.0.0.1:7001"])
            .plan("2026.11.23".into())
            .unwrap_err()
            .to_string();
        assert!(e.contains("a name of its own"), "{e}");
        let e = args(&["tcp://10.0.0.2:7000", "mover:m", "--allow", "10.0.0.0/8"])
            .plan("2026.11.23".into())
            .unwrap_err()
            .to_string();
        assert!(e.contains("--allow and --password are for"), "{e}");
        args(&[
            "tcp-listen://127.0.0.1:7001",
            "mover:m",
            "--password",
            "s3cret",
        ])
        .plan("2026.11.23".into())
        .unwrap();
        let p = args(&["tcp-listen://127.0.0.1:7001", "tcp://10.0.0.2:7000"])
            .plan("2026.11.23".into())
            .unwrap();
        assert!(p.players.iter().all(Player::is_one_program));
    }

    #[test]
    fn the_config_file_gives_players_and_the_schedule_and_flags_win() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("club.toml");
        std::fs::write(
            &config,
            "[tournament]\ncycles = 2\nboards = 1\nschedule = \"gauntlet\"\n\n\
             feed = \"127.0.0.1:7070\"\n\n\
             [match]\ntc = \"60+1\"\n\n\
             [[player]]\nplayer = \"engine:sf=stockfish\"\noptions = { Threads = \"1\" }\n\n\
             [[player]]\nplayer = \"engine:gnu=gnuchess\"\nprotocol = \"xboard\"\n\
             book = \"gm.bin\"\nbook_depth = 10\nponder = true\n",
        )
        .unwrap();
        let path = config.to_str().unwrap();
        let p = args(&["mover:m", "--config", path, "--cycles", "3"])
            .plan("2026.11.23".into())
            .unwrap();
        let names: Vec<&str> = p.players.iter().map(Player::name).collect();
        assert_eq!(names, ["m", "sf", "gnu"]);
        let Player::Engine(sf) = &p.players[1] else {
            panic!()
        };
        assert_eq!(sf.options, vec![("Threads".to_string(), "1".to_string())]);
        let Player::Engine(gnu) = &p.players[2] else {
            panic!()
        };
        assert_eq!(gnu.protocol, crate::client::engine::Protocol::Xboard);
        assert_eq!(
            (gnu.book.as_deref(), gnu.book_depth),
            (Some("gm.bin"), Some(10))
        );
        assert!(
            gnu.ponder && !sf.ponder,
            "ponder = true is the table's engine's"
        );
        assert_eq!(p.schedule.cycles, 3, "the flag wins");
        assert_eq!(p.schedule.format, Format::Gauntlet);
        assert_eq!(p.boards, Some(1));
        assert_eq!(p.feed.as_deref(), Some("127.0.0.1:7070"));
        assert_eq!(p.referee.time_control.to_string(), "60+1");
        std::fs::write(
            &config,
            "[[player]]\nplayer = \"mover:x\"\nprotocol = \"uci\"\n",
        )
        .unwrap();
        let e = args(&["mover:m", "--config", path])
            .plan("2026.11.23".into())
            .unwrap_err()
            .to_string();
        assert!(e.contains("are for engine players"), "{e}");
        std::fs::write(&config, "[match]\ngames = 4\n").unwrap();
        let e = args(&["mover:m", "mover:n", "--config", path])
            .plan("2026.11.23".into())
            .unwrap_err()
            .to_string();
        assert!(e.contains("for a match, not a tournament"), "{e}");
    }

    #[test]
    fn the_config_files_output_table_gives_what_the_flags_do_not() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("club.toml");
        std::fs::write(
            &config,
            "[output]\npgn = \"file.pgn\"\nlog_dir = \"file-logs\"\nrating_interval = 5\n\
             http = \"127.0.0.1:0\"\n",
        )
        .unwrap();
        let path = config.to_str().unwrap();
        let a = args(&["mover:m", "mover:n", "--config", path, "--pgn", "flag.pgn"])
            .with_config_outputs()
            .unwrap();
        assert_eq!(
            a.pgn.as_deref(),
            Some(Path::new("flag.pgn")),
            "the flag wins"
        );
        assert_eq!(a.log_dir.as_deref(), Some(Path::new("file-logs")));
        assert_eq!(a.rating_interval, Some(5));
        assert_eq!(a.web.http.as_deref(), Some("127.0.0.1:0"));
        std::fs::write(&config, "[output]\njournal = \"m.journal\"\n").unwrap();
        let a = args(&["mover:m", "mover:n", "--config", path])
            .with_config_outputs()
            .unwrap();
        assert_eq!(a.journal.as_deref(), Some(Path::new("m.journal")));
        let a = args(&["mover:m", "mover:n", "--config", path, "--journal", "f.j"])
            .with_config_outputs()
            .unwrap();
        assert_eq!(
            a.journal.as_deref(),
            Some(Path::new("f.j")),
            "the flag wins"
        );
        std::fs::write(&config, "[output]\nno_such = 1\n").unwrap();
        let e = args(&["mover:m", "mover:n", "--config", path])
            .with_config_outputs()
            .unwrap_err()
            .to_string();
        assert!(e.contains("no_such"), "{e}");
    }

    #[test]
    fn http_comes_from_the_tournament_table_unless_the_flag_gives_it() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("club.toml");
        std::fs::write(&config, "[tournament]\nhttp = \"0.0.0.0:8080\"\n").unwrap();
        let path = config.to_str().unwrap();
        let p = args(&["mover:m", "mover:n", "--config", path])
            .plan("2026.11.23".into())
            .unwrap();
        assert_eq!(p.web.http.as_deref(), Some("0.0.0.0:8080"));
        let flags = [
            "mover:m",
            "mover:n",
            "--config",
            path,
            "--http",
            "127.0.0.1:0",
        ];
        let p = args(&flags).plan("2026.11.23".into()).unwrap();
        assert_eq!(p.web.http.as_deref(), Some("127.0.0.1:0"), "the flag wins");
        let p = args(&["mover:m", "mover:n"])
            .plan("2026.11.23".into())
            .unwrap();
        assert_eq!(p.web.http, None);
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

    #[test]
    fn an_entrys_fault_is_told_by_its_kind_and_names_the_flag_and_entry() {
        use super::{ArgsError, EntryFault};
        let swiss = |v: &[&str]| {
            let mut all = vec![
                "mover:a",
                "mover:b",
                "mover:c",
                "--schedule",
                "swiss",
                "--rounds",
                "3",
            ];
            all.extend_from_slice(v);
            args(&all).plan("2026.11.23".into()).unwrap_err()
        };
        let cases: [(&[&str], EntryFault); 8] = [
            (&["--bye", "a"], EntryFault::Form("ROUND")),
            (&["--bye", "a:4"], EntryFault::Round(3)),
            (&["--late", "z:2"], EntryFault::NoPlayer("z".into())),
            (&["--late", "a:1"], EntryFault::NotLate),
            (&["--withdraw", "a:1"], EntryFault::WithdrawsAtOnce),
            (
                &["--late", "a:3", "--bye", "a:2"],
                EntryFault::ByeBeforeEntry,
            ),
            (
                &["--withdraw", "a:2", "--bye", "a:2"],
                EntryFault::ByeAfterWithdrawal,
            ),
            (&["--rating", "a:10000"], EntryFault::Rating),
        ];
        for (flags, want) in cases {
            match swiss(flags) {
                ArgsError::Entry { fault, .. } => assert_eq!(fault, want, "{flags:?}"),
                e => panic!("{flags:?}: {e:?}"),
            }
        }
        assert_eq!(
            swiss(&["--late", "a:1"]).to_string(),
            "--late \"a:1\": a player from round 1 is not late"
        );
        let e = swiss(&["--bye", "b:2", "--bye", "b:2"]);
        assert!(matches!(e, ArgsError::ByeTwice(_)), "{e:?}");
        assert_eq!(e.to_string(), "--bye \"b:2\" given twice");
        let e = args(&["mover:a", "mover:b", "--games", "4"])
            .plan("2026.11.23".into())
            .unwrap_err();
        assert!(
            matches!(e, ArgsError::MatchOnly { flag: "games", .. }),
            "{e:?}"
        );
        let dir = tempfile::tempdir().unwrap();
        let e = super::TournamentConfig::load(&dir.path().join("none.toml")).unwrap_err();
        assert!(
            matches!(e, crate::app::options::ConfigError::Read { .. }),
            "{e:?}"
        );
    }
}

/// `argus referee A B [options]` as the command line of `argus
/// tournament --as-match A B [options]`: a match is a tournament of two,
/// whatever its players (ports, TCP endpoints, `--listen ADDR` for both
/// clients, [`listen_for_both`], programs argus runs, `tcp:NAME`), and
/// `--games N` is its `--games-per-pairing N`. `None` for any other
/// command.
/// `argv` is the whole command line, the program's name first (read
/// lossily as UTF-8 when it is rewritten).
pub fn match_as_tournament<S: AsRef<std::ffi::OsStr>>(argv: &[S]) -> Option<Vec<String>> {
    let argv: Vec<String> = argv
        .iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect();
    if argv.get(1).map(String::as_str) != Some("referee") {
        return None;
    }
    let mut out = vec![
        argv[0].clone(),
        "tournament".to_string(),
        "--as-match".to_string(),
    ];
    for a in &argv[2..] {
        out.push(match a.as_str() {
            "--games" => "--games-per-pairing".to_string(),
            _ => match a.strip_prefix("--games=") {
                Some(n) => format!("--games-per-pairing={n}"),
                None => a.clone(),
            },
        });
    }
    Some(out)
}

#[cfg(test)]
mod match_tests {
    use super::{TournamentArgs, match_as_tournament};
    use crate::tournament::Form;

    /// The plan of `argus referee ARGS` as the director runs it.
    fn plan_of(args: &str) -> Result<super::TournamentPlan, String> {
        let argv = match_as_tournament(&words(&format!("argus referee {args}"))).unwrap();
        TournamentArgs::from_command(&argv[2..])
            .and_then(|a| a.plan("2026.11.28".into()))
            .map_err(|e| e.to_string())
    }

    /// The plan of a match of `ARGS` on the director, whatever
    /// [`match_as_tournament`] takes.
    fn match_plan(args: &str) -> Result<super::TournamentPlan, String> {
        let argv = words(&format!("--as-match {args}"));
        TournamentArgs::from_command(&argv)
            .and_then(|a| a.plan("2026.11.29".into()))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_file_as_a_port_is_refused_as_a_match_between_ports_refuses_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("notes.txt");
        std::fs::write(&file, "x").unwrap();
        let f = file.to_str().unwrap().to_string();
        let argv: Vec<String> = vec!["--as-match".into(), "/dev/null".into(), f.clone()];
        let e = TournamentArgs::from_command(&argv)
            .and_then(|a| a.plan("2026.11.29".into()))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!("port B ({f}) is a regular file, not a serial device")
        );
    }

    #[test]
    fn the_same_port_twice_is_refused_as_a_match_between_ports_refuses_it() {
        let argv: Vec<String> = ["--as-match", "/dev/ttyS0", "/dev/ttyS0"]
            .map(String::from)
            .to_vec();
        let e = TournamentArgs::from_command(&argv)
            .and_then(|a| a.plan("2026.11.29".into()))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "port A and port B are the same port (/dev/ttyS0): each client needs its own port"
        );
    }

    #[test]
    fn listen_for_both_clients_is_its_two_seats() {
        let p = match_plan("--listen 127.0.0.1:7000 --name-b Beta").unwrap();
        let at = "tcp-listen://127.0.0.1:7000";
        assert!(
            p.players.iter().all(|pl| pl.spec() == at),
            "{:?}",
            p.players
        );
        assert_eq!(
            crate::tournament::player::one_listener_for_both(&p.players),
            Some("127.0.0.1:7000".parse().unwrap())
        );
        assert_eq!(p.names, [format!("A ({at})"), "Beta".into()]);
        assert_eq!(p.names_given, [false, true]);
        // The same listener given twice as the endpoints is the same.
        let p = match_plan(&format!("{at} {at} --games-per-pairing 2")).unwrap();
        assert_eq!(p.names, [format!("A ({at})"), format!("B ({at})")]);
        assert_eq!(p.names_given, [false, false]);
        // With players, --listen is their tcp:NAME players'.
        let p = match_plan("/dev/ttyS0 tcp:Fritz --listen 127.0.0.1:7000").unwrap();
        assert_eq!(p.names, ["/dev/ttyS0", "Fritz"]);
        // Said in a match's words: ports too, or an address that is none.
        let e = match_plan("/dev/ttyS0 /dev/ttyS1 --listen 127.0.0.1:7000")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "--listen takes both clients: give it without PORT_A and PORT_B"
        );
        let e = match_plan("--listen referee:7000").unwrap_err().to_string();
        assert!(e.starts_with("--listen: "), "{e}");
        // A tournament's --listen is for its tcp:NAME players only.
        let argv = words("--listen 127.0.0.1:7000");
        let e = TournamentArgs::from_command(&argv)
            .and_then(|a| a.plan("2026.11.29".into()))
            .unwrap_err()
            .to_string();
        assert!(e.contains("at least 2 players"), "{e}");
    }

    #[test]
    fn the_password_is_withheld_from_the_recorded_command_line() {
        assert_eq!(
            super::withhold_password(words("--as-match --password s3cret --listen 0.0.0.0:7000")),
            words("--as-match --listen 0.0.0.0:7000 --password-withheld")
        );
        assert_eq!(
            super::withhold_password(words("mover:a tcp-listen://0.0.0.0:7000 --password=s3")),
            words("mover:a tcp-listen://0.0.0.0:7000 --password-withheld")
        );
        let none = words("mover:a mover:b --games-per-pairing 2");
        assert_eq!(super::withhold_password(none.clone()), none);
        // What is recorded reads back, without the secret.
        let argv = super::withhold_password(words("--as-match --listen 0.0.0.0:7000 --password x"));
        let args = TournamentArgs::from_command(&argv).unwrap();
        assert!(args.password_withheld && args.password.is_none());
    }

    /// `--journal FILE` puts the event's journal at FILE (its games'
    /// beside it), the logs staying in the log directory; a path that
    /// names no file is refused.
    #[test]
    fn a_journal_elsewhere_is_where_the_events_journals_go() {
        let p = plan_of("mover:a mover:b --journal kept/m.journal --log-dir logs").unwrap();
        let layout = p.layout();
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(layout.journal(), cwd.join("kept/m.journal"));
        assert_eq!(layout.journal_dir(), cwd.join("kept"));
        assert_eq!(layout.log_dir(), std::path::Path::new("logs"));
        let p = plan_of("mover:a mover:b --log-dir logs").unwrap();
        assert_eq!(
            p.layout().journal(),
            std::path::Path::new("logs/tournament.journal")
        );
        let e = plan_of("mover:a mover:b --journal ..")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "--journal ..: give a file (its games' journals go beside it, in game-NNN/)"
        );
    }

    #[test]
    fn a_matchs_config_file_gives_its_games_and_names() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("m.toml");
        std::fs::write(
            &config,
            "[match]\ngames = 4\nname_a = \"Alpha\"\nround = \"3\"\n",
        )
        .unwrap();
        let path = config.to_str().unwrap();
        let p = plan_of(&format!("mover:a mover:b --config {path}")).unwrap();
        assert_eq!(p.schedule.games_per_pairing, 4);
        assert_eq!(p.names, ["Alpha", "b"]);
        assert_eq!(p.referee.round.as_deref(), Some("3"));
        let p = plan_of(&format!("mover:a mover:b --config {path} --games 6")).unwrap();
        assert_eq!(p.schedule.games_per_pairing, 6, "the flag wins");
    }

    #[test]
    fn a_match_takes_its_names_and_round_and_is_said_as_a_match() {
        let p = plan_of("mover:a mover:b --name-a Alpha --round 7 --games 2").unwrap();
        assert_eq!(p.form, Form::Match);
        assert_eq!(p.names, ["Alpha", "b"]);
        assert_eq!(p.referee.round.as_deref(), Some("7"));
        let p = plan_of("mover:a mover:b --name-b \u{7}Beta").unwrap();
        assert_eq!(p.names, ["a", "Beta"]);
        // The same name twice, or none.
        let e = plan_of("mover:a mover:b --name-a b")
            .unwrap_err()
            .to_string();
        assert!(e.contains("both named \"b\""), "{e}");
        let e = plan_of("mover:a mover:b --name-b \u{7}")
            .unwrap_err()
            .to_string();
        assert_eq!(e, "--name-b: a name is needed");
        // Two players, each its own, said in a match's words.
        let e = plan_of("engine:a=stockfish").unwrap_err().to_string();
        assert_eq!(
            e,
            "a match is between two players (PORT_A and PORT_B), not 1"
        );
        let e = plan_of("mover:a mover:b mover:c").unwrap_err().to_string();
        assert_eq!(
            e,
            "a match is between two players (PORT_A and PORT_B), not 3"
        );
        let e = plan_of("mover:a mover:a").unwrap_err().to_string();
        assert_eq!(
            e,
            "A and B are the same player (mover:a): each needs its own"
        );
        // A tournament still refuses a match's flags, and is said as one.
        let argv = words("mover:a mover:b --name-a Alpha");
        let e = TournamentArgs::from_command(&argv)
            .and_then(|a| a.plan("2026.11.28".into()))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("--name-a is for a match"), "{e}");
        let argv = words("mover:a mover:b");
        let p = TournamentArgs::from_command(&argv)
            .and_then(|a| a.plan("2026.11.28".into()))
            .unwrap();
        assert_eq!(
            (p.form, p.names),
            (Form::Tournament, vec!["a".into(), "b".into()])
        );
    }

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(str::to_string).collect()
    }

    /// Each tournament-only option given to a match is refused, by name;
    /// the same options are a tournament's own.
    #[test]
    fn a_match_refuses_each_tournament_only_option() {
        let given = [
            ("schedule", "--schedule swiss --rounds 3"),
            ("rounds", "--rounds 3"),
            ("knockout-tiebreak", "--knockout-tiebreak 2@1+0.01"),
            ("rating", "--rating a:2500"),
            ("bye", "--bye a:2"),
            ("bye-points", "--bye-points 0"),
            ("late", "--late a:2"),
            ("withdraw", "--withdraw a:2"),
            ("tiebreaks", "--tiebreaks wins"),
            ("trf", "--trf x.trf"),
            ("cycles", "--cycles 2"),
        ];
        assert_eq!(given.len(), super::TOURNAMENT_ONLY.len());
        for (flag, args) in given {
            let e = plan_of(&format!("mover:a mover:b {args}"))
                .unwrap_err()
                .to_string();
            assert!(
                e.starts_with(&format!("--{flag} is for a tournament")),
                "{flag}: {e}"
            );
        }
        // A match's own: the programs' options and the games at once.
        let p = plan_of(
            "engine:a=sf engine:b=sf --boards 4 --ponder a --depth b:3 --sprt-running abort \
             --absent-forfeit 30 --no-claims",
        )
        .unwrap();
        assert_eq!(p.boards, Some(4));
        assert!(!p.claim_draws);
    }

    #[test]
    fn a_match_of_programs_is_the_command_line_of_a_tournament_of_two() {
        assert_eq!(
            match_as_tournament(&words(
                "argus referee engine:a=sf engine:b=sf --games 40 --boards 8 --sprt elo0=0"
            )),
            Some(words(
                "argus tournament --as-match engine:a=sf engine:b=sf --games-per-pairing 40 \
                 --boards 8 --sprt elo0=0"
            ))
        );
        assert_eq!(
            match_as_tournament(&words("argus referee /dev/ttyS0 tcp:Fritz --games=6")),
            Some(words(
                "argus tournament --as-match /dev/ttyS0 tcp:Fritz --games-per-pairing=6"
            ))
        );
        // Ports, TCP endpoints and one listener for both: the same event.
        assert_eq!(
            match_as_tournament(&words("argus referee /dev/ttyS0 /dev/ttyS1 --games 2")),
            Some(words(
                "argus tournament --as-match /dev/ttyS0 /dev/ttyS1 --games-per-pairing 2"
            ))
        );
        assert_eq!(
            match_as_tournament(&words(
                "argus referee tcp://host:7000 tcp-listen://0.0.0.0:7001"
            )),
            Some(words(
                "argus tournament --as-match tcp://host:7000 tcp-listen://0.0.0.0:7001"
            ))
        );
        assert_eq!(
            match_as_tournament(&words("argus referee --listen 0.0.0.0:7000 --games 2")),
            Some(words(
                "argus tournament --as-match --listen 0.0.0.0:7000 --games-per-pairing 2"
            ))
        );
        // Other commands are left alone.
        for line in ["argus tournament engine:a=sf mover:b", "argus"] {
            assert_eq!(match_as_tournament(&words(line)), None, "{line}");
        }
    }
}
