//! `argus resume JOURNAL PORT_A PORT_B`: carry on with a match whose
//! referee stopped. The journal is replayed into a new core (its outputs
//! discarded: they were carried out before the crash), the checkpoints are
//! verified, games that ended but never reached the PGN file are written,
//! and the session goes on with [`Input::Resumed`] as its first input,
//! appending to the same journal. Times go on from the journal's last
//! input, so the outage is charged to nobody.
//!
//! [`Input::Resumed`]: crate::referee::Input::Resumed

use std::time::Instant;

use log::{error, info, warn};

use crate::app::EXIT_USAGE;
use crate::app::logging;
use crate::app::options::{LineOptions, ResumeArgs};
use crate::app::output::Outputs;
use crate::app::referee::{close_feed, start_feed, unix_ms_now};
use crate::app::session::{self, Session, View};
use crate::app::signals;
use crate::journal::{self, Entry, JournalWriter};
use crate::link::PortSettings;

/// Runs `argus resume`; returns the exit status.
pub fn main(args: ResumeArgs) -> u8 {
    let fail = |e: &str| {
        eprintln!("argus resume: {e}");
        error!("{e}");
        EXIT_USAGE
    };
    let loaded = match journal::load(&args.journal) {
        Ok(l) => l,
        Err(e) => return fail(&e),
    };
    let session_id = loaded.header.session.clone();
    if loaded.replay.core().is_over() {
        // It ended, but the process may have died before its disconnect
        // left: the resumed session sends it again and ends.
        info!(
            "the match in {} (session {session_id}) is over: sending disconnect again",
            args.journal.display()
        );
    }
    let port_settings = match port_settings(&args.line, &loaded.header.port) {
        Ok(p) => p,
        Err(e) => return fail(&e),
    };
    let log_dir = args.output.log_dir();
    if let Err(e) = logging::init(&log_dir, "argus.log", args.headless) {
        eprintln!("argus resume: {e}");
        return EXIT_USAGE;
    }
    let mut outputs = match Outputs::open(
        &log_dir,
        args.output.pgn.clone(),
        args.output.live_pgn.clone(),
        args.headless,
    ) {
        Ok(o) => o.with_results_json(args.output.results_json.clone()),
        Err(e) => return fail(&e),
    };
    if let Some(t) = &loaded.torn {
        warn!("journal {}: {t}", args.journal.display());
        outputs.headless_line(&format!("journal {}: {t}", args.journal.display()));
    }

    // The ports first: if another referee still holds them, nothing is
    // touched.
    let epoch = Instant::now();
    let ports = [args.port_a.as_str(), args.port_b.as_str()];
    let (links, rx) = match session::open_links(ports, port_settings, epoch) {
        Ok(l) => l,
        Err(e) => return fail(&e.to_string()),
    };

    let last_at = loaded.replay.last_at();
    let now_wall = unix_ms_now();
    let mut writer =
        match JournalWriter::append(&args.journal, loaded.valid_len, loaded.chain, loaded.lines) {
            Ok(w) => w,
            Err(e) => return fail(&e.to_string()),
        };
    let gap = loaded
        .replay
        .epoch()
        .map(|e| now_wall.saturating_sub(e.wall_of(last_at)));
    let story = format!(
        "resuming session {session_id} from {}: {} inputs replayed, {} checkpoints verified; \
         the last input came at {:.1} s{}; that time is charged to nobody",
        args.journal.display(),
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
    );
    info!("{story}");
    outputs.headless_line(&story);
    let marks = [
        Entry::Epoch {
            at: last_at,
            unix_ms: now_wall,
        },
        Entry::Note(story.clone()),
    ];
    for m in &marks {
        if let Err(e) = writer.write(m) {
            return fail(&e.to_string());
        }
    }
    outputs.set_journal(writer);

    // Games that ended before the crash but never reached the PGN file.
    let unsaved: Vec<_> = loaded
        .replay
        .unsaved()
        .map(|(n, g)| (*n, g.clone()))
        .collect();
    for (number, game) in unsaved {
        if outputs.pgn_ends_with(&game) {
            info!("game {number} is already in the PGN file");
            outputs.journal_note(&format!("game {number} found in the PGN file"));
            // Mark it as saved without writing it again.
            outputs.journal_saved(number);
        } else {
            info!("game {number} ended before the crash: writing it to the PGN now");
            outputs.finished_game(number, &game);
        }
    }
    let core = loaded.replay.into_core();
    outputs.live_pgn(|| core.live_pgn(last_at));

    let feed = match start_feed(args.feed.as_deref(), &args.journal) {
        Ok(f) => f,
        Err(e) => return fail(&e),
    };
    let ctrl_rx = signals::stop_requests("argus resume");
    let view = View::from_flags(args.headless, args.ascii);
    let ending = session::run(Session {
        core,
        links,
        link_events: rx,
        port_settings: [port_settings, port_settings],
        epoch,
        outputs,
        view,
        ctrl_c: ctrl_rx,
        resumed_at: Some(last_at),
    });
    close_feed(feed);
    ending.exit_status("argus resume")
}

/// The journal's port settings with the command line's on top.
fn port_settings(line: &LineOptions, journal: &PortSettings) -> Result<PortSettings, String> {
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
