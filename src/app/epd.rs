//! `argus epd`: the EPD Kit verbs on files (check, normalize, purge) and
//! through an engine (analyse, mate, solve).

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::app::options::EngineOptions;
use crate::client::engine::Protocol;
use crate::client::engine::analysis::{Search, SearchLimit};
use crate::client::engine::time::LimitError;
use crate::epd::Record;
use crate::epd_kit;
use crate::epd_kit::verbs::{EngineWorker, RunFiles, Verb};
use crate::exit::{Exit, Failure};
use crate::game;

/// The options every engine verb takes.
#[derive(Debug, Clone, Args)]
#[command(group(clap::ArgGroup::new("limit").required(true).args(["movetime", "depth", "nodes"])))]
pub struct EngineRun {
    /// The EPD file to read ("-": standard input).
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// Where to write (standard output when omitted). Must not be IN.
    #[arg(value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// The engine's command line, "CMD [ARGS]" (quotes group words).
    #[arg(long, value_name = "CMD")]
    pub engine: String,
    /// The engine's protocol.
    #[arg(long, value_enum, default_value_t = Protocol::Uci)]
    pub protocol: Protocol,
    /// An engine option, NAME=VALUE (UCI setoption, XBoard option); may be
    /// repeated.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Search each position this many milliseconds (XBoard: whole seconds,
    /// rounded up).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Search each position to this depth (plies).
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Search each position this many nodes (UCI only).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// A soft limit: the engine manages its time around --movetime
    /// (spec 7.2; hard limits are the default and compare programs better).
    #[arg(long, requires = "movetime")]
    pub soft: bool,
    /// Engines (processes) run at once, one position each.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub concurrency: usize,
    /// Leave out records that do not parse or whose position is illegal
    /// (they are copied unchanged by default); they are reported either way.
    #[arg(long)]
    pub drop_bad: bool,
    /// Go on with an interrupted run: records already in OUT are skipped
    /// and new ones appended.
    #[arg(long)]
    pub resume: bool,
    /// Milliseconds an engine may run over its limit before it counts as
    /// hung (then it is restarted and the record marked Ar_fault).
    #[arg(long, value_name = "MS", default_value_t = 3000)]
    pub margin_ms: u64,
    /// Write the engine traffic, with times, to this file.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

/// Why `argus epd`'s search flags cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SearchFlagError {
    #[error("a search limit must be at least 1")]
    Zero,
    #[error("give --movetime, --depth or --nodes")]
    None,
    /// The engine's protocol cannot say the limit.
    #[error("{0}")]
    Protocol(#[from] LimitError),
}

impl EngineRun {
    fn search(&self) -> Result<Search, SearchFlagError> {
        let limit = match (self.movetime, self.depth, self.nodes) {
            (Some(0), _, _) | (_, Some(0), _) | (_, _, Some(0)) => {
                return Err(SearchFlagError::Zero);
            }
            (Some(ms), _, _) => SearchLimit::MoveTime(ms),
            (_, Some(d), _) => SearchLimit::Depth(d),
            (_, _, Some(n)) => SearchLimit::Nodes(n),
            (None, None, None) => return Err(SearchFlagError::None),
        };
        let search = Search {
            limit,
            soft: self.soft,
            mate: None,
        };
        if self.protocol == Protocol::Xboard {
            search.xboard_limit()?;
        }
        Ok(search)
    }

    /// Runs `verb`.
    fn run(&self, verb: Verb) -> Exit {
        let engine = EngineOptions {
            engine: Some(self.engine.clone()),
            protocol: self.protocol,
            options: self.options.clone(),
            movetime: None,
            depth: None,
            nodes: None,
            margin_ms: self.margin_ms,
            log: self.log.clone(),
            book: None,
            book_depth: None,
            ponder: false,
        };
        let settings = match (engine.settings(), self.search()) {
            (Ok(Some(s)), Ok(search)) => (s, search),
            (Err(e), _) => return Err(Failure::usage(e)),
            (_, Err(e)) => return Err(Failure::usage(e)),
            (Ok(None), _) => return Err(Failure::usage("an engine to run is needed (ENGINE)")),
        };
        if self.concurrency == 0 {
            return Err(Failure::usage("--concurrency must be at least 1"));
        }
        let files = RunFiles {
            input: self.input.clone(),
            output: self.output.clone(),
            concurrency: self.concurrency,
            drop_bad: self.drop_bad,
            resume: self.resume,
        };
        // The kit only needs to know that a stop was asked for, not which.
        let signals = crate::app::signals::stop_requests("argus epd");
        let (stop_tx, stop) = crossbeam_channel::bounded(1);
        std::thread::spawn(move || {
            for _ in signals {
                let _ = stop_tx.try_send(());
            }
        });
        let (settings, search) = settings;
        // An engine that cannot start at all is an error, not a fault on
        // every record.
        match crate::client::engine::start(&settings) {
            Ok(d) => d.quit(),
            Err(f) => return Err(Failure::usage(f)),
        }
        epd_kit::verbs::run_verb(
            &files,
            &|| Box::new(EngineWorker::new(settings.clone(), verb, search)),
            stop,
        )
    }
}

/// The verbs of `argus epd`.
#[derive(Debug, Clone, Subcommand)]
pub enum EpdVerb {
    /// Check every record: EPD syntax and a legal position.
    ///
    /// Prints FILE:LINE: reason for each bad record, then a summary line
    /// "N records, M bad" (all on standard output).
    #[command(after_help = "Examples:\n  \
        argus epd check openings.epd\n  \
        argus epd check suite1.epd suite2.epd\n  \
        argus epd check - < positions.epd")]
    Check {
        /// EPD files to check.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Write every record in canonical form (EPD verb pfdn, spec 7.1).
    ///
    /// Single blanks, operations in ASCII order of opcode, operands of
    /// set-like opcodes (bm, am, ...) in ASCII order; pv, sv, ptp, cc, ts,
    /// tcri, tcsi, noop and private (upper-case) opcodes keep their operand
    /// order. Records keep their order; bad records (syntax or an illegal
    /// position) are reported on standard error and left out.
    #[command(after_help = "Examples:\n  \
        argus epd normalize suite.epd suite-clean.epd\n  \
        argus epd normalize suite.epd | sort -u > suite-unique.epd")]
    Normalize {
        /// The EPD file to read.
        #[arg(value_name = "IN")]
        input: PathBuf,
        /// Where to write (standard output when omitted). Must not be IN.
        #[arg(value_name = "OUT")]
        output: Option<PathBuf>,
    },
    /// Remove one operation from every record (EPD verb pfop, spec 7.4).
    ///
    /// Records are otherwise copied as given (with single blanks), in order;
    /// records that do not parse are reported on standard error and left
    /// out.
    #[command(after_help = "Examples:\n  \
        argus epd purge ce analysed.epd plain.epd\n  \
        argus epd purge c0 suite.epd -")]
    Purge {
        /// The opcode to remove, e.g. ce.
        opcode: String,
        /// The EPD file to read.
        #[arg(value_name = "IN")]
        input: PathBuf,
        /// Where to write (standard output when omitted). Must not be IN.
        #[arg(value_name = "OUT")]
        output: Option<PathBuf>,
    },
    /// Analyse every record with an engine (EPD verb pfga, spec 7.2).
    ///
    /// Each record is copied with pv, ce (centipawns from the side to
    /// move's view; mates as spec 6.7 encodes them), pm, sm, acn, acs, acd
    /// and Ar_ms (milliseconds). Records keep their order; a position
    /// without moves gets an empty pv. Exit status: 0, 1 when a record
    /// was bad or an engine failed on one (marked Ar_fault), 2 on errors,
    /// 130 when interrupted (run again with --resume).
    #[command(after_help = "Examples:
  argus epd analyse wac.epd wac-sf.epd --engine /usr/games/stockfish --movetime 500
  argus epd analyse suite.epd out.epd --engine ./myengine --depth 12 --concurrency 2
  argus epd analyse suite.epd out.epd --engine crafty --protocol xboard --movetime 2000 --resume")]
    Analyse(EngineRun),
    /// Search for forced mates (EPD verb pfms, spec 7.3).
    ///
    /// Records without dm, or with a dm larger than --moves, are searched
    /// (UCI engines with go mate N); a mate the engine claims is written as
    /// dm (its length) and pm, with pv (the whole line to checkmate), acn,
    /// acs, only once it is proven: its line replays to checkmate on the
    /// board, or argus's own search finishes a line the engine cut short.
    /// A claim that cannot be proven is marked Ar_unproven and counted in
    /// the summary. With --upto the passes 1..N run as the spec suggests:
    /// a record solved in one pass is skipped by the next.
    #[command(after_help = "Examples:
  argus epd mate problems.epd mates.epd --engine /usr/games/stockfish --moves 3 --movetime 1000
  argus epd mate problems.epd mates.epd --engine /usr/games/stockfish --moves 5 --upto --nodes 2000000")]
    Mate {
        #[command(flatten)]
        run: EngineRun,
        /// The mate length sought, in moves.
        #[arg(long, value_name = "N")]
        moves: u32,
        /// Run the passes 1..N, shortest mates first.
        #[arg(long)]
        upto: bool,
    },
    /// Run a test suite: does the engine find bm (and avoid am)? (EPD verb
    /// pfts, spec 7.5).
    ///
    /// Each record is copied with pm, pv, ce, acn, acs, acd, Ar_ms and,
    /// when it has bm or am, Ar_solved_depth, Ar_solved_ms, Ar_solved_nodes
    /// (the first moment the engine settled on the solving move it kept) or
    /// Ar_missed. Summarise
    /// result files with argus epd report.
    #[command(after_help = "Examples:
  argus epd solve wac.epd wac-sf.epd --engine /usr/games/stockfish --movetime 1000 --concurrency 2
  argus epd solve bk.epd bk-d10.epd --engine ./myengine --depth 10
  argus epd solve wac.epd - --engine \"gnuchess --xboard\" --protocol xboard --movetime 500")]
    Solve(EngineRun),
    /// Summarise result files of solve (the spec's "Gastric", section 3.3).
    ///
    /// Solved and missed records per file (with the missed ids), how many
    /// were solved by time, depth and nodes, average nodes per second, and
    /// for two or more files a comparison of each with the first (solved by
    /// one only, time-to-solve ratio). Markdown on standard output; --html
    /// writes a self-contained page with a chart of records solved against
    /// time.
    #[command(after_help = "Examples:
  argus epd report wac-sf.epd
  argus epd report wac-sf-100ms.epd wac-sf-1s.epd --html wac.html
  argus epd report a.epd b.epd c.epd > comparison.md")]
    Report {
        /// Result files of argus epd solve (or analyse).
        #[arg(required = true, value_name = "RESULT")]
        files: Vec<PathBuf>,
        /// Also write the report as a self-contained HTML page here.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
}

/// The position check used by `check` and `normalize`: the four fields
/// (with `hmvc`/`fmvn` when present) must give a legal position.
pub fn check_position(record: &Record) -> Result<(), game::RecordError> {
    game::position_of_record(record).map(|_| ())
}

/// Runs `argus epd VERB`.
pub fn run(verb: EpdVerb) -> Exit {
    match verb {
        EpdVerb::Check { files } => epd_kit::run_check(&files, &check_position),
        EpdVerb::Normalize { input, output } => {
            epd_kit::run_normalize(&input, output.as_deref(), &check_position)
        }
        EpdVerb::Purge {
            opcode,
            input,
            output,
        } => epd_kit::run_purge(&opcode, &input, output.as_deref()),
        EpdVerb::Report { files, html } => epd_kit::report::run_report(&files, html.as_deref()),
        EpdVerb::Analyse(run) => run.run(Verb::Analyse),
        EpdVerb::Solve(run) => run.run(Verb::Solve),
        EpdVerb::Mate { run, moves, upto } => {
            if moves == 0 {
                return Err(Failure::usage("--moves must be at least 1"));
            }
            run.run(Verb::Mate { moves, upto })
        }
    }
}
