//! `argus referee`: open the two ports, start the journal and run a
//! session.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use log::info;

use crate::app::audience::Audience;
use crate::app::links::{self, line_of, line_view};
use crate::app::logging;
use crate::app::options::{OutputOptions, RefereeArgs, RefereePlan, plan};
use crate::app::session::{self, Session, View};
use crate::app::signals;
use crate::app::start::LogDir;
use crate::app::wall::wall_clock_now;
use crate::app::writers::Writers;
use crate::app::{Exit, Failure};
use crate::journal::feed::Feed;
use crate::journal::{Header, JournalWriter, OutputSettings, new_session_id};
use crate::link::Endpoint;
use crate::record::timestamp::pgn_date;
use crate::referee::{ByClient, ClientId, Referee, WallClock};

/// Runs `argus referee`: how the session ended, or why it could not
/// start or went wrong.
pub fn run(args: RefereeArgs) -> Exit {
    const ME: &str = "argus referee";
    let endpoints = args.ends.endpoints().map_err(Failure::usage)?;
    let plan = plan_for(&args, &endpoints)?;
    let ps = plan.port_settings;
    // Every output can be written (this touches no file), then the ports:
    // a start that cannot have them touches no file.
    plan.output.check().map_err(Failure::usage)?;
    let epoch = Instant::now();
    let wall = wall_clock_now(0);
    links::check_endpoints(&endpoints).map_err(Failure::usage)?;
    let names = ClientId::BOTH.map(|id| plan.settings.names[id].clone());
    let (links, rx) =
        links::open_links(&endpoints, &args.ends.net, names, ps, epoch).map_err(Failure::usage)?;
    let mut dir = LogDir::claim(&plan.output.log_dir()).map_err(Failure::usage)?;
    let journal_path = plan
        .output
        .journal
        .clone()
        .unwrap_or_else(|| dir.path().join("journal.log"));
    let explicit = plan.output.journal.is_some();
    let header = Header {
        session: new_session_id(),
        settings: plan.settings.clone(),
        port: plan.port_settings,
        output: recorded(&plan.output, dir.path(), &journal_path),
    };
    let started = start_files(
        &mut dir,
        &plan.output,
        args.view.headless,
        &journal_path,
        |path| open_new_journal(path, explicit, &header, wall),
    );
    let (outputs, feed) = started.map_err(Failure::usage)?;
    let web = args.web.clone().or_file(plan.output.http.clone());
    let audience = Audience::start(&web).map_err(Failure::usage)?;
    let outputs = outputs.with_audience(audience);
    dir.keep();
    info!(
        "journal {} (session {})",
        journal_path.display(),
        header.session
    );
    let ctrl_rx = signals::stop_requests(ME);
    let opening = opening_line(&plan, &endpoints);
    info!("{opening}");
    outputs.headless_line(&opening);
    outputs.headless_line("waiting for A and B to sign on (refreq sign_on)");
    let view = View::from_flags(args.view.headless, args.view.ascii);
    let mut core = Referee::new(plan.settings);
    core.set_wall_clock(wall);
    let ending = session::run(Session {
        core,
        links,
        link_events: rx,
        line_views: ByClient::new(line_view(&endpoints[0], &ps), line_view(&endpoints[1], &ps)),
        epoch,
        outputs,
        view,
        ctrl_c: ctrl_rx,
        resumed_at: None,
    });
    close_feed(feed);
    drop(dir);
    ending
}

/// The match's plan: flags over the config file over the defaults
/// (`--journal` over the config file's), checked, with each client's line
/// as its endpoint makes it.
fn plan_for(args: &RefereeArgs, endpoints: &[Endpoint; 2]) -> Result<RefereePlan, Failure> {
    let date = pgn_date(SystemTime::now());
    let mut output = args.output.clone();
    output.journal = args.journal.clone().or(output.journal);
    let mut plan = plan(
        endpoints.clone().map(|e| e.to_string()),
        args.line.clone(),
        args.matches.clone(),
        output,
        args.config.as_deref(),
        date,
        args.view.headless,
    )
    .map_err(Failure::usage)?;
    let ps = plan.port_settings;
    plan.settings.lines = ByClient::new(line_of(&endpoints[0], &ps), line_of(&endpoints[1], &ps));
    Ok(plan)
}

/// The session's first line: where A and B are, the time control, the
/// games.
fn opening_line(plan: &RefereePlan, endpoints: &[Endpoint; 2]) -> String {
    let ps = plan.port_settings;
    format!(
        "referee session: A on {} ({}), B on {} ({}), time control {}, {} game{}",
        plan.ports[0],
        line_view(&endpoints[0], &ps),
        plan.ports[1],
        line_view(&endpoints[1], &ps),
        plan.settings.time_control,
        plan.settings.games,
        if plan.settings.games == 1 { "" } else { "s" }
    )
}

/// The files of a session in the log directory `dir` (which removes them
/// again if the start fails): the application log, the transcript, the
/// journal at `journal` (opened by `open_journal`) and the feed.
pub fn start_files(
    dir: &mut LogDir,
    output: &OutputOptions,
    headless: bool,
    journal: &Path,
    open_journal: impl FnOnce(&Path) -> Result<JournalWriter, String>,
) -> Result<(Writers, Option<Feed>), String> {
    let log = dir.path().join("argus.log");
    dir.note(&log);
    logging::init(dir.path(), "argus.log", headless)?;
    let transcript = dir.path().join("transcript.log");
    dir.note(&transcript);
    let mut outputs = Writers::open(
        dir.path(),
        output.pgn.clone(),
        output.live_pgn.clone(),
        headless,
    )?
    .with_results_json(output.results_json.clone())
    .with_cbf(output.cbf.clone())
    .with_pgn_min(output.pgn_min)
    .with_epd_out(output.epd_out.clone())
    .with_rating_interval(output.rating_interval);
    dir.note(journal);
    outputs.set_journal(open_journal(journal)?);
    let feed = start_feed(output.feed.as_deref(), journal)?;
    Ok((outputs, feed))
}

/// The output settings a journal records: every path made absolute, so
/// that a resume from another directory writes to the same files.
pub fn recorded(output: &OutputOptions, log_dir: &Path, journal: &Path) -> OutputSettings {
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    OutputSettings {
        pgn: output.pgn.as_deref().map(abs),
        live_pgn: output.live_pgn.as_deref().map(abs),
        log_dir: Some(abs(log_dir)),
        journal: Some(abs(journal)),
        feed: output.feed.clone(),
        results_json: output.results_json.as_deref().map(abs),
        cbf: output.cbf.as_deref().map(abs),
        pgn_min: output.pgn_min,
        epd_out: output.epd_out.as_deref().map(abs),
        rating_interval: output.rating_interval,
    }
}

/// Starts the journal of a new match at `path` (`wall`: the wall clock at
/// the match's time 0). A journal holds one match:
/// an existing, non-empty file is refused, except that the default
/// journal (`explicit` false) of a match that is over (or never got an
/// input) is first moved aside to `journal-SESSION.log`.
pub fn open_new_journal(
    path: &Path,
    explicit: bool,
    header: &Header,
    wall: WallClock,
) -> Result<JournalWriter, String> {
    let len = std::fs::metadata(path).map_or(0, |m| m.len());
    if len > 0 {
        let existing = crate::journal::load(path);
        match &existing {
            Ok(old) if !explicit && (old.replay.core().is_over() || old.replay.inputs() == 0) => {
                let aside = aside_path(path, &old.header.session);
                std::fs::rename(path, &aside).map_err(|e| {
                    format!(
                        "cannot move the finished journal {} aside to {}: {e}",
                        path.display(),
                        aside.display()
                    )
                })?;
                info!(
                    "the journal of the last match (session {}) moved to {}",
                    old.header.session,
                    aside.display()
                );
            }
            Ok(old) => {
                return Err(format!(
                    "the journal {} already holds another match (session {}, {}); a new match \
                     never writes into another match's journal: carry that one on with \
                     `argus resume {} PORT_A PORT_B`, or move it away, or give another --journal",
                    path.display(),
                    old.header.session,
                    if old.replay.core().is_over() {
                        "over"
                    } else {
                        "not over"
                    },
                    path.display()
                ));
            }
            Err(e) => {
                return Err(format!(
                    "{} exists and is not an empty journal ({e}); a new match does not write \
                     into it: move it away, or give another --journal",
                    path.display()
                ));
            }
        }
    }
    JournalWriter::create(path, header, wall).map_err(|e| e.to_string())
}

/// `DIR/journal-SESSION.log`, or with `-2`, `-3`, ... if that exists.
fn aside_path(path: &Path, session: &str) -> PathBuf {
    let safe: String = session
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .take(32)
        .collect();
    let stem = path
        .file_stem()
        .map_or_else(|| "journal".into(), |s| s.to_string_lossy().into_owned());
    let mut n = 1;
    loop {
        let name = if n == 1 {
            format!("{stem}-{safe}.log")
        } else {
            format!("{stem}-{safe}-{n}.log")
        };
        let p = path.with_file_name(name);
        if !p.exists() {
            return p;
        }
        n += 1;
    }
}

/// Starts the TCP feed of the journal when `--feed` was given.
pub fn start_feed(addr: Option<&str>, journal: &Path) -> Result<Option<Feed>, String> {
    let Some(addr) = addr else {
        return Ok(None);
    };
    let feed = Feed::start(addr, journal).map_err(|e| e.to_string())?;
    info!("journal feed on {}", feed.local_addr());
    Ok(Some(feed))
}

/// Lets the watchers receive the end of the journal, then stops the feed.
pub fn close_feed(feed: Option<Feed>) {
    if let Some(f) = feed {
        f.close(Duration::from_secs(3));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::PortSettings;
    use crate::referee::Settings;

    fn header(session: &str) -> Header {
        Header {
            session: session.into(),
            settings: Settings::default(),
            port: PortSettings::default(),
            output: crate::journal::OutputSettings::default(),
        }
    }

    #[test]
    fn the_config_files_output_table_takes_every_output() {
        use crate::app::options::{LineOptions, MatchOptions};
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("match.toml");
        std::fs::write(
            &config,
            "[output]\npgn = \"g.pgn\"\nlive_pgn = \"live.pgn\"\nlog_dir = \"logs\"\n\
             journal = \"j.log\"\nfeed = \"127.0.0.1:7070\"\nhttp = \"127.0.0.1:8080\"\n",
        )
        .unwrap();
        let given = OutputOptions {
            feed: Some("0.0.0.0:9000".into()),
            ..OutputOptions::default()
        };
        let p = plan(
            ["a".into(), "b".into()],
            LineOptions::default(),
            MatchOptions::default(),
            given,
            Some(&config),
            "2026.01.01".into(),
            true,
        )
        .unwrap();
        assert_eq!(p.output.pgn, Some("g.pgn".into()));
        assert_eq!(p.output.live_pgn, Some("live.pgn".into()));
        assert_eq!(p.output.log_dir, Some("logs".into()));
        assert_eq!(p.output.journal, Some("j.log".into()));
        assert_eq!(p.output.http.as_deref(), Some("127.0.0.1:8080"));
        // The command line wins.
        assert_eq!(p.output.feed, Some("0.0.0.0:9000".into()));
    }

    #[test]
    fn a_journal_of_another_match_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.log");
        let mut j = open_new_journal(&path, true, &header("aaaa"), wall_clock_now(0)).unwrap();
        j.write(&crate::journal::Entry::Input {
            at: 5,
            input: crate::referee::Input::Timer,
        });
        drop(j);
        for explicit in [true, false] {
            let e =
                open_new_journal(&path, explicit, &header("bbbb"), wall_clock_now(0)).unwrap_err();
            assert!(e.contains("another match (session aaaa, not over)"), "{e}");
            assert!(e.contains("argus resume"), "{e}");
        }
        std::fs::write(&path, "not a journal\n").unwrap();
        let e = open_new_journal(&path, true, &header("bbbb"), wall_clock_now(0)).unwrap_err();
        assert!(e.contains("is not an empty journal"), "{e}");
        // An empty file is fine.
        std::fs::write(&path, "").unwrap();
        open_new_journal(&path, true, &header("cccc"), wall_clock_now(0)).unwrap();
    }

    #[test]
    fn the_default_journal_of_a_finished_match_moves_aside() {
        use crate::journal::Entry;
        use crate::referee::{Command, Input};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.log");
        let mut j = open_new_journal(&path, false, &header("dddd"), wall_clock_now(0)).unwrap();
        j.write(&Entry::Input {
            at: 5,
            input: Input::Supervisor(Command::EndSession),
        });
        drop(j);
        // Given explicitly, even a finished journal is refused.
        let e = open_new_journal(&path, true, &header("eeee"), wall_clock_now(0)).unwrap_err();
        assert!(e.contains("session dddd, over"), "{e}");
        drop(open_new_journal(&path, false, &header("eeee"), wall_clock_now(0)).unwrap());
        let aside = dir.path().join("journal-dddd.log");
        assert_eq!(crate::journal::load(&aside).unwrap().header.session, "dddd");
        assert_eq!(crate::journal::load(&path).unwrap().header.session, "eeee");
    }
}
