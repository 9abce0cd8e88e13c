//! `argus resume JOURNAL PORT_A PORT_B`: carry on with a match whose
//! referee stopped. The journal is replayed into a new core (its outputs
//! discarded: they were carried out before the crash), the checkpoints are
//! verified, games that ended but never reached the PGN file are written,
//! and the session goes on with [`Input::Resumed`] as its first input,
//! appending to the same journal. Times go on from the journal's last
//! input, so the outage is charged to nobody.
//!
//! [`Input::Resumed`]: crate::referee::Input::Resumed

use std::path::Path;
use std::time::Instant;

use log::{info, warn};

use crate::app::audience::{Audience, Ended};
use crate::app::links::{self, line_view};
use crate::app::options::{LineOptions, OutputOptions, ResumeArgs};
use crate::app::referee::{close_feed, start_files};
use crate::app::session::{self, Session, View};
use crate::app::signals;
use crate::app::start::LogDir;
use crate::app::wall::wall_clock_now;
use crate::app::writers::Writers;
use crate::app::{Exit, Failure};
use crate::journal::kind::Kind;
use crate::journal::{self, Entry, JournalWriter, Loaded, OutputSettings};
use crate::link::PortSettings;
use crate::referee::{ByClient, ClientId, Event};

/// Runs `argus resume`: how the session ended, or why it could not
/// start or went wrong.
pub fn run(args: ResumeArgs) -> Exit {
    const ME: &str = "argus resume";
    match journal::kind::kind_of_file(&args.journal).map_err(Failure::usage)? {
        Kind::Tournament => return resume_tournament(&args),
        Kind::Match => {}
    }
    // The games that ended before the stop, for the web page's /games.pgn.
    let mut ended = Ended::default();
    let loaded = journal::load_seeing(&args.journal, &mut |e| {
        if let Event::GameOver(g) = e {
            ended.add(g.game_number, g.pgn.clone());
        }
    })
    .map_err(Failure::usage)?;
    let port_settings = port_settings(&args.line, &loaded.header.port).map_err(Failure::usage)?;
    let output = outputs_of(&args.output, &loaded.header.output);

    let endpoints = args.ends.endpoints().map_err(Failure::usage)?;
    output.check().map_err(Failure::usage)?;
    // The ports first: if another referee still holds them, nothing is
    // touched. TCP clients are seated by the names they had (they come
    // back in any order).
    let epoch = Instant::now();
    links::check_endpoints(&endpoints).map_err(Failure::usage)?;
    let names = ClientId::BOTH.map(|id| loaded.replay.core().known_name(id));
    let (links, rx) = links::open_links(&endpoints, &args.ends.net, names, port_settings, epoch)
        .map_err(Failure::usage)?;
    let mut dir = LogDir::claim(&output.log_dir()).map_err(Failure::usage)?;
    let started = start_files(
        &mut dir,
        &output,
        args.view.headless,
        &args.journal,
        |path| {
            JournalWriter::append(path, loaded.valid_len, loaded.chain, loaded.lines)
                .map_err(|e| e.to_string())
        },
    );
    let (outputs, feed) = started.map_err(Failure::usage)?;
    let mut audience = Audience::start(&args.web).map_err(Failure::usage)?;
    if let Some(a) = audience.as_mut() {
        a.ended_before(ended);
    }
    let mut outputs = outputs.with_audience(audience);
    dir.keep();
    say_doubts(&loaded, &args.journal, &mut outputs);

    let last_at = loaded.replay.last_at();
    let wall = wall_clock_now(last_at);
    let now_wall = wall.unix_ms;
    let story = story(&loaded, &args.journal, now_wall);
    info!("{story}");
    if args.view.headless || loaded.replay.core().is_over() {
        crate::app::stdout::line(&story);
    }
    outputs.journal_mark(&Entry::Epoch(wall));
    outputs.journal_note(&story);
    outputs.journal_sync();

    outputs.save_unsaved(&loaded.replay);
    let mut core = loaded.replay.into_core();
    core.set_wall_clock(wall);
    outputs.live_pgn(|| core.live_pgn(last_at));

    let ctrl_rx = signals::stop_requests(ME);
    let view = View::from_flags(args.view.headless, args.view.ascii);
    let ending = session::run(Session {
        core,
        links,
        link_events: rx,
        line_views: ByClient::new(
            line_view(&endpoints[0], &port_settings),
            line_view(&endpoints[1], &port_settings),
        ),
        epoch,
        outputs,
        view,
        ctrl_c: ctrl_rx,
        resumed_at: Some(last_at),
    });
    close_feed(feed);
    drop(dir);
    ending
}

/// `argus resume` given a tournament's journal: it alone, or a match's
/// with the two endpoints its players are on now (or `--listen ADDR` for
/// both).
fn resume_tournament(args: &ResumeArgs) -> Exit {
    crate::app::tournament::resume(&args.journal, args.view.headless, &args.web, &args.ends)
}

/// Says what the journal lacks: output settings (an older argus wrote
/// it) or a torn last line.
fn say_doubts(loaded: &Loaded, journal: &Path, outputs: &mut Writers) {
    if loaded.header.output == OutputSettings::default() {
        let why = "this journal records no output settings (an older argus wrote it): \
                   the PGN goes only where --pgn and --live-pgn say";
        warn!("{why}");
        outputs.headless_line(why);
    }
    if let Some(t) = &loaded.torn {
        warn!("journal {}: {t}", journal.display());
        outputs.headless_line(&format!("journal {}: {t}", journal.display()));
    }
}

/// What the resumed session says first: the match already over, or
/// where it goes on from and how long the referee was down.
fn story(loaded: &Loaded, journal: &Path, now_wall: u64) -> String {
    let session_id = &loaded.header.session;
    let last_at = loaded.replay.last_at();
    let gap = loaded
        .replay
        .epoch()
        .map(|e| now_wall.saturating_sub(e.wall_of(last_at)));
    if loaded.replay.core().is_over() {
        // It ended, but the process may have died before its disconnect
        // left: the resumed session sends it again and ends.
        format!(
            "the match in {} (session {session_id}) is already over: {}; {} inputs replayed, \
             {} checkpoints verified; sending disconnect to both clients again",
            journal.display(),
            loaded.replay.core().summary(),
            loaded.replay.inputs(),
            loaded.replay.checks(),
        )
    } else {
        format!(
            "resuming session {session_id} from {}: {} inputs replayed, {} checkpoints verified; \
             the last input came at {:.1} s{}; that time is charged to nobody",
            journal.display(),
            loaded.replay.inputs(),
            loaded.replay.checks(),
            last_at as f64 / 1000.0,
            match gap {
                Some(g) => format!(
                    ", and the referee was down for about {:.1} s (wall clock)",
                    g as f64 / 1000.0
                ),
                None => String::new(),
            }
        )
    }
}

/// The outputs of a resumed match: the command line's, each one not given
/// taken from what the journal recorded.
fn outputs_of(given: &OutputOptions, recorded: &OutputSettings) -> OutputOptions {
    given.clone().or(OutputOptions {
        pgn: recorded.pgn.clone(),
        live_pgn: recorded.live_pgn.clone(),
        log_dir: recorded.log_dir.clone(),
        feed: recorded.feed.clone(),
        journal: None,
        results_json: recorded.results_json.clone(),
        cbf: recorded.cbf.clone(),
        pgn_min: recorded.pgn_min,
        epd_out: recorded.epd_out.clone(),
        rating_interval: recorded.rating_interval,
        // Not in the journal's header: give it to `argus resume` again.
        http: None,
    })
}

/// The journal's port settings with the command line's on top.
fn port_settings(
    line: &LineOptions,
    journal: &PortSettings,
) -> Result<PortSettings, crate::app::options::PortOptionError> {
    LineOptions {
        baud: line.baud.or(Some(journal.baud)),
        data_bits: line.data_bits.or(Some(journal.data_bits)),
        parity: line.parity.or(Some(journal.parity)),
        stop_bits: line.stop_bits.or(Some(journal.stop_bits)),
        flow: line.flow.or(Some(journal.flow)),
        line_end: line.line_end.or(Some(journal.line_end)),
    }
    .port_settings()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::{Flow, Parity};

    #[test]
    fn the_journal_sets_the_outputs_unless_told_otherwise() {
        let recorded = OutputSettings {
            pgn: Some("/m/games.pgn".into()),
            live_pgn: Some("/m/live.pgn".into()),
            log_dir: Some("/m/logs".into()),
            journal: Some("/m/logs/journal.log".into()),
            feed: Some("0.0.0.0:7070".into()),
            results_json: None,
            cbf: None,
            pgn_min: true,
            epd_out: Some("/m/final.epd".into()),
            rating_interval: Some(10),
        };
        let o = outputs_of(&OutputOptions::default(), &recorded);
        assert_eq!(o.pgn, recorded.pgn);
        assert!(o.pgn_min);
        assert_eq!(o.epd_out, recorded.epd_out);
        assert_eq!(o.rating_interval, Some(10));
        assert_eq!(o.live_pgn, recorded.live_pgn);
        assert_eq!(o.log_dir, recorded.log_dir);
        assert_eq!(o.feed, recorded.feed);
        let given = OutputOptions {
            pgn: Some("other.pgn".into()),
            ..OutputOptions::default()
        };
        let o = outputs_of(&given, &recorded);
        assert_eq!(o.pgn, Some("other.pgn".into()));
        assert_eq!(o.live_pgn, recorded.live_pgn);
    }

    #[test]
    fn the_journal_sets_the_line_unless_told_otherwise() {
        let journal = PortSettings {
            baud: 2400,
            parity: Parity::Even,
            flow: Flow::Hardware,
            ..PortSettings::default()
        };
        let p = port_settings(&LineOptions::default(), &journal).unwrap();
        assert_eq!(p, journal);
        let p = port_settings(
            &LineOptions {
                baud: Some(19200),
                ..LineOptions::default()
            },
            &journal,
        )
        .unwrap();
        assert_eq!(p.baud, 19200);
        assert_eq!(p.parity, Parity::Even);
    }
}
