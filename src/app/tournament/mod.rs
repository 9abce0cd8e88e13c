//! `argus tournament`: many programs, many boards at once. The players'
//! links ([`players`]), one referee core per board ([`board`]), the
//! tournament core above them and the loop that drives them all
//! ([`director`]); docs/tournament.md.

pub mod args;
pub mod board;
pub mod director;
pub mod players;

use std::time::{Instant, SystemTime};

use crate::app::signals;
use crate::app::start::LogDir;
use crate::app::tournament::args::TournamentArgs;
use crate::app::tournament::director::Director;
use crate::app::tournament::players::{Field, Net};
use crate::app::{Failure, Outcome, logging};
use crate::record::civil::pgn_date;
use crate::record::transcript::Transcript;
use crate::tournament::journal::{Header, TournamentWriter};
use crate::tournament::{Settings, Tournament};

/// The tournament journal's file name in the log directory.
pub const JOURNAL: &str = "tournament.journal";

/// Runs `argus tournament`: how it ended, or why it could not start or
/// went wrong.
pub fn run(args: TournamentArgs) -> Outcome {
    const ME: &str = "argus tournament";
    // Caught from the start: a stop while the engines start up is a stop.
    let ctrl_c = signals::stop_requests(ME);
    let plan = args
        .plan(pgn_date(SystemTime::now()))
        .map_err(Failure::usage)?;
    let settings = Settings {
        event: plan.referee.event.clone(),
        names: plan.players.iter().map(|p| p.name().to_string()).collect(),
        schedule: plan.schedule.clone(),
        boards: plan.boards,
        absence: plan.absence,
    };
    let core = Tournament::new(settings.clone()).map_err(Failure::usage)?;
    let mut dir = LogDir::claim(&plan.log_dir).map_err(Failure::usage)?;
    let journal = dir.path().join(JOURNAL);
    if std::fs::metadata(&journal).is_ok_and(|m| m.len() > 0) {
        return Err(Failure::usage(format!(
            "{} already holds a tournament: carry it on with `argus resume {}`, or give \
             another --log-dir",
            journal.display(),
            journal.display()
        )));
    }
    dir.note(&dir.path().join("argus.log"));
    logging::init(dir.path(), "argus.log", args.headless).map_err(Failure::usage)?;
    let epoch = Instant::now();
    let net = Net {
        listen: args.listen.clone(),
        allow: args.allow.clone(),
        password: args.password.clone(),
    };
    let field = Field::open(
        &plan.players,
        plan.port_settings,
        &net,
        plan.untimed,
        dir.path(),
        epoch,
    )
    .map_err(Failure::usage)?;
    let specs: Vec<String> = plan.players.iter().map(|p| p.spec()).collect();
    let header = Header {
        writer: format!("argus {}", env!("CARGO_PKG_VERSION")),
        settings,
        specs: specs.clone(),
    };
    dir.note(&journal);
    let writer = TournamentWriter::create(&journal, &header, crate::app::referee::unix_ms_now())
        .map_err(|e| {
            Failure::usage(format!(
                "cannot start the journal {}: {e}",
                journal.display()
            ))
        })?;
    let transcript_path = dir.path().join("transcript.log");
    dir.note(&transcript_path);
    let transcript = Transcript::create(&transcript_path).map_err(|e| {
        Failure::usage(format!(
            "cannot open the transcript {}: {e}",
            transcript_path.display()
        ))
    })?;
    dir.keep();
    let director = Director {
        core,
        journal: Some(writer),
        field,
        referee: plan.referee,
        port: plan.port_settings,
        specs,
        log_dir: dir.path().to_path_buf(),
        pgn: args.pgn.clone(),
        report: args.report.clone(),
        headless: args.headless,
        epoch,
        base: 0,
        ctrl_c,
        transcript: Some(transcript),
    };
    let outcome = director.run();
    drop(dir);
    outcome
}
