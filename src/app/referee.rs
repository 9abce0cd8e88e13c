//! `argus referee`: open the two ports and run a session.

use std::time::{Instant, SystemTime};

use crossbeam_channel::unbounded;
use log::{error, info};

use crate::app::logging;
use crate::app::options::{RefereeArgs, plan};
use crate::app::output::Outputs;
use crate::app::session::{self, Ending, Session, View};
use crate::link::Link;
use crate::record::civil::pgn_date;
use crate::referee::Referee;

/// Exit status: the session ended normally.
pub const EXIT_OK: u8 = 0;
/// Exit status: something failed during the session.
pub const EXIT_FAILED: u8 = 1;
/// Exit status: bad usage, or a port that cannot be opened.
pub const EXIT_USAGE: u8 = 2;

/// Runs `argus referee`; returns the exit status.
pub fn main(args: RefereeArgs) -> u8 {
    let date = pgn_date(SystemTime::now());
    let plan = match plan(
        [args.port_a.clone(), args.port_b.clone()],
        args.line,
        args.matches,
        args.output,
        args.config.as_deref(),
        date,
    ) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("argus referee: {e}");
            return EXIT_USAGE;
        }
    };
    let log_dir = plan.output.log_dir();
    if let Err(e) = logging::init(&log_dir, "argus.log", args.headless) {
        eprintln!("argus referee: {e}");
        return EXIT_USAGE;
    }
    let outputs = match Outputs::open(
        &log_dir,
        plan.output.pgn.clone(),
        plan.output.live_pgn.clone(),
        args.headless,
    ) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("argus referee: {e}");
            return EXIT_USAGE;
        }
    };
    let epoch = Instant::now();
    let (tx, rx) = unbounded();
    let mut links = Vec::new();
    for (label, path) in ["A", "B"].into_iter().zip(plan.ports.iter()) {
        match Link::open(label, path, plan.port_settings, epoch, tx.clone()) {
            Ok(l) => links.push(l),
            Err(e) => {
                eprintln!("argus referee: {e}");
                error!("{e}");
                return EXIT_USAGE;
            }
        }
    }
    let Ok(links): Result<[Link; 2], _> = links.try_into() else {
        return EXIT_FAILED;
    };
    let (ctrl_tx, ctrl_rx) = unbounded();
    if let Err(e) = ctrlc::set_handler(move || {
        let _ = ctrl_tx.send(());
    }) {
        eprintln!("argus referee: cannot catch Ctrl-C: {e}");
    }
    let opening = format!(
        "referee session: A on {}, B on {}, {}, time control {}, {} game{}",
        plan.ports[0],
        plan.ports[1],
        plan.port_settings,
        plan.settings.time_control,
        plan.settings.games,
        if plan.settings.games == 1 { "" } else { "s" }
    );
    info!("{opening}");
    outputs.headless_line(&opening);
    let view = if args.headless {
        View::Headless
    } else {
        View::Board { ascii: args.ascii }
    };
    let ending = session::run(Session {
        core: Referee::new(plan.settings),
        links,
        link_events: rx,
        port_settings: [plan.port_settings, plan.port_settings],
        epoch,
        outputs,
        view,
        ctrl_c: ctrl_rx,
    });
    match ending {
        Ending::Normal => EXIT_OK,
        Ending::Failed(why) => {
            error!("{why}");
            eprintln!("argus referee: {why}");
            EXIT_FAILED
        }
    }
}
