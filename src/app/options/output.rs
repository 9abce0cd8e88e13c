//! Where the referee writes (`--pgn`, `--log-dir`, ..., the `[output]`
//! table of the config file) and the audience's web view (`--http`).

use std::path::{Path, PathBuf};

use clap::Args;
use serde::Deserialize;

use crate::app::start::{StartError, Writes, check_outputs};
use crate::record::cbf_files::sibling;

/// Where the referee writes its records.
#[derive(Debug, Clone, Default, Args, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputOptions {
    /// Append every finished game to this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Write the --pgn file's games minimal: the Seven Tag Roster (with
    /// SetUp and FEN for a set-up start), the moves and the result; no
    /// comments, evaluations or clocks (cutechess-cli's `-pgnout FILE
    /// min`).
    #[arg(long, requires = "pgn")]
    #[serde(default)]
    pub pgn_min: bool,
    /// Append each finished game's final position to this file as one EPD
    /// line, with its move counters (hmvc, fmvn), synced like the PGN
    /// (cutechess-cli's `-epdout`).
    #[arg(long, value_name = "FILE")]
    pub epd_out: Option<PathBuf>,
    /// Rewrite the game in progress to this PGN file as it is played
    /// (atomically, at most ten times a second, by its own thread; the last
    /// position is always written), for broadcast viewers.
    #[arg(long, value_name = "FILE")]
    pub live_pgn: Option<PathBuf>,
    /// Directory for the application log and the byte transcript
    /// [default: argus-logs].
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
    /// Publish the journal over TCP on this address (e.g. 0.0.0.0:7070)
    /// for `argus watch tcp://HOST:PORT` on other machines.
    #[arg(long, value_name = "ADDR:PORT")]
    pub feed: Option<String>,
    /// The journal file: `journal` in the config file's `[output]` table,
    /// `--journal` on `argus referee`'s command line (resume is given its
    /// journal).
    #[arg(skip)]
    pub journal: Option<PathBuf>,
    /// Rewrite the match statistics to this JSON file (atomically) after
    /// every game: games, wins, draws, losses, pentanomial, elo,
    /// elo_error95 (null while not known yet), los, and with --sprt llr,
    /// lower_bound, upper_bound, sprt_result.
    #[arg(long, value_name = "FILE")]
    pub results_json: Option<PathBuf>,
    /// Also append every finished game to this ChessBase 1993 base
    /// (BASE.cbf + BASE.cbi; created if missing): the games file synced,
    /// then the index replaced atomically. What the format cannot hold
    /// (over 250 half-moves, names over 63 bytes, ...) is reported with the
    /// game's number (docs/chessbase.md).
    #[arg(long, value_name = "BASE")]
    pub cbf: Option<PathBuf>,
    /// Say the match statistics line (W-D-L, score, Elo, LOS, ...) every
    /// N games, not after every game (cutechess-cli's -ratinginterval);
    /// the match's end says them all the same.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub rating_interval: Option<u32>,
    /// The audience's web view: `http` in the config file's `[output]`
    /// table; the flag `--http` ([`WebOptions`]) wins over it.
    #[arg(skip)]
    pub http: Option<String>,
}

impl OutputOptions {
    /// These options, each missing one taken from `f`.
    pub fn or(self, f: OutputOptions) -> OutputOptions {
        OutputOptions {
            pgn: self.pgn.or(f.pgn),
            pgn_min: self.pgn_min || f.pgn_min,
            epd_out: self.epd_out.or(f.epd_out),
            live_pgn: self.live_pgn.or(f.live_pgn),
            log_dir: self.log_dir.or(f.log_dir),
            feed: self.feed.or(f.feed),
            journal: self.journal.or(f.journal),
            results_json: self.results_json.or(f.results_json),
            cbf: self.cbf.or(f.cbf),
            rating_interval: self.rating_interval.or(f.rating_interval),
            http: self.http.or(f.http),
        }
    }

    /// Refuses, before anything starts, an output file that could not be
    /// written (a directory, a directory that does not exist, ...): the
    /// flag, the path and why ([`check_outputs`]). The log directory and
    /// the journal are checked as they are opened.
    pub fn check(&self) -> Result<(), StartError> {
        let cbf = self
            .cbf
            .as_deref()
            .map(|b| [sibling(b, "cbf"), sibling(b, "cbi")]);
        let files: Vec<(&str, &Path, Writes)> = [
            ("--pgn", self.pgn.as_deref(), Writes::Append),
            ("--epd-out", self.epd_out.as_deref(), Writes::Append),
            ("--live-pgn", self.live_pgn.as_deref(), Writes::Replace),
            (
                "--results-json",
                self.results_json.as_deref(),
                Writes::Replace,
            ),
        ]
        .into_iter()
        .filter_map(|(flag, path, writes)| Some((flag, path?, writes)))
        .chain(
            cbf.iter()
                .flatten()
                .map(|p| ("--cbf", p.as_path(), Writes::Replace)),
        )
        .collect();
        check_outputs(&files)
    }

    /// The log directory, defaulted.
    pub fn log_dir(&self) -> PathBuf {
        self.log_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from("argus-logs"))
    }
}

/// The audience's web view (`--http`) and the broadcast push
/// (`--broadcast-push`), on `referee`, `resume`, `watch`, `demo` and
/// `tournament`.
#[derive(Debug, Clone, Default, Args)]
pub struct WebOptions {
    /// Serve the audience's live page on this address (e.g.
    /// 0.0.0.0:8080 for everyone on the network, 127.0.0.1:8080 for this
    /// machine only; port 0 picks a free one): the board, clocks and moves
    /// at /, the live stream at /events, /state.json, and every game as PGN
    /// at /games.pgn and /game/N.pgn (docs/web.md). Read-only. A config
    /// file may give it as http in its [output] or [tournament] table.
    #[arg(long, value_name = "ADDR:PORT")]
    pub http: Option<String>,
    /// The most viewers of the live page at once; more are turned away.
    #[arg(long, value_name = "N", default_value_t = 256, requires = "http",
          value_parser = clap::value_parser!(u16).range(1..))]
    pub http_viewers: u16,
    /// The most the live page serves one address (an IPv6 /64) at once:
    /// N requests being answered and N viewers of the live stream; past
    /// either, that address gets 429 while the others are served. Raise it
    /// when many viewers share one address (a hall behind one NAT).
    #[arg(long, value_name = "N", default_value_t = crate::web::server::PER_ADDRESS, requires = "http",
          value_parser = clap::value_parser!(u16).range(1..))]
    pub http_per_address: u16,
    /// Once the match or tournament is over, keep serving its final state
    /// this many seconds, then end [default: until Ctrl-C ends argus].
    #[arg(long, value_name = "SECS")]
    pub http_linger: Option<f64>,
    /// Push the event's games as PGN (what /games.pgn serves, clocks as
    /// [%clk]) to this URL after every move, with back-off while it fails:
    /// a lichess broadcast round's push URL,
    /// https://lichess.org/api/broadcast/round/ID/push (docs/broadcast.md).
    /// Given once, every game goes to it; given N times (one lichess round
    /// per tournament round), round R's games go to the R-th URL and every
    /// round from the N-th on to the last. Needs --broadcast-token-file;
    /// works with or without --http.
    #[arg(long, value_name = "URL", requires = "broadcast_token_file")]
    pub broadcast_push: Vec<String>,
    /// The file holding the lichess API token for --broadcast-push (scope
    /// study:write), alone on one line. The token is never logged.
    #[arg(long, value_name = "FILE", requires = "broadcast_push")]
    pub broadcast_token_file: Option<PathBuf>,
}

impl WebOptions {
    /// These options, `--http` taken from a config file's `http` when the
    /// flag is not given.
    pub fn or_file(mut self, http: Option<String>) -> WebOptions {
        self.http = self.http.or(http);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::options::ConfigFile;

    #[test]
    fn http_comes_from_the_output_table_unless_the_flag_gives_it() {
        let file: ConfigFile = toml::from_str("[output]\nhttp = \"0.0.0.0:8080\"\n").unwrap();
        let flags = OutputOptions::default();
        let merged = flags.or(file.output);
        assert_eq!(merged.http.as_deref(), Some("0.0.0.0:8080"));
        let web = WebOptions::default().or_file(merged.http.clone());
        assert_eq!(web.http.as_deref(), Some("0.0.0.0:8080"));
        let given = WebOptions {
            http: Some("127.0.0.1:9090".into()),
            ..WebOptions::default()
        };
        assert_eq!(
            given.or_file(merged.http).http.as_deref(),
            Some("127.0.0.1:9090")
        );
        let wrong = toml::from_str::<ConfigFile>("[output]\nhttp = 8080\n");
        assert!(wrong.is_err());
    }
}
