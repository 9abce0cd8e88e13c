//! `argus demo`: two reference clients play each other over two in-process
//! virtual cables, refereed live. Needs no hardware and no socat.

use std::thread;
use std::time::{Duration, Instant, SystemTime};

use crate::app::audience::Audience;
use crate::app::client::{self, ClientError, Voice};
use crate::app::logging;
use crate::app::options::DemoArgs;
use crate::app::session::{self, Session, View};
use crate::app::signals;
use crate::app::start::{Writes, check_outputs};
use crate::app::writers::Writers;
use crate::app::{Completion, Exit, Failure};
use crate::client::{ClientProtocol, Mover, MoverKind};
use crate::clock::{LineSettings, TimeControl, parse_friendly};
use crate::link::{PortSettings, VirtualCable};
use crate::record::timestamp::pgn_date;
use crate::referee::{ByClient, Referee, Settings};

/// Line settings for the wire-time credit that give no credit (baud 0):
/// the demo's pseudo-terminal cables have no line delay.
const NO_LINE_DELAY: LineSettings = LineSettings {
    baud: 0,
    data_bits: 8,
    parity: false,
    stop_bits: 1,
};

/// The number of games played when `--games` is not given: no fixed
/// number, until the user quits.
pub const ENDLESS: u32 = u32::MAX;

/// The pause between `reset` and the first move with the board: long enough
/// to see the new game's starting position.
const RESET_DELAY_MS: u64 = 1_000;
/// The pause after a game with the board: long enough to read the result.
const CONCLUDE_DELAY_MS: u64 = 3_000;
/// Both pauses in headless mode, where nobody watches: the reference
/// clients need no time to reset.
const HEADLESS_DELAY_MS: u64 = 200;

/// Runs `argus demo`: it plays until it is stopped, so a session ended
/// early is its normal end; it fails only if it cannot run.
pub fn run(args: DemoArgs) -> Exit {
    let time_control =
        parse_friendly(&args.tc).map_err(|e| Failure::usage(format!("--tc {:?}: {e}", args.tc)))?;
    if args.games == Some(0) {
        return Err(Failure::usage("--games must be at least 1"));
    }
    if let Some(pgn) = args.pgn.as_deref() {
        check_outputs(&[("--pgn", pgn, Writes::Append)]).map_err(Failure::usage)?;
    }
    let log_dir = std::env::temp_dir().join(format!("argus-demo-{}", std::process::id()));
    logging::init(&log_dir, "argus.log", args.view.headless).map_err(Failure::failed)?;
    let cables = [
        VirtualCable::new().map_err(Failure::failed)?,
        VirtualCable::new().map_err(Failure::failed)?,
    ];
    let port_settings = PortSettings::default();
    let audience = Audience::start(&args.web).map_err(Failure::usage)?;
    let outputs = Writers::open(&log_dir, args.pgn.clone(), None, args.view.headless)
        .map_err(Failure::failed)?
        .with_audience(audience);
    let epoch = Instant::now();
    let wall = crate::app::wall::wall_clock_now(0);
    let (links, rx) = session::open_links([cables[0].a(), cables[1].a()], port_settings, epoch)
        .map_err(Failure::failed)?;
    // The clients start once the referee's ends are open (opening a port
    // clears its stale input).
    let clients = start_clients(&cables, port_settings, &args);
    let settings = demo_settings(&args, &cables, time_control);
    let ctrl_rx = signals::stop_requests("argus demo");
    let view = View::from_flags(args.view.headless, args.view.ascii);
    let mut core = Referee::new(settings);
    core.set_wall_clock(wall);
    let ending = session::run(Session {
        core,
        links,
        link_events: rx,
        line_views: ByClient::new(port_settings.to_string(), port_settings.to_string()),
        epoch,
        outputs,
        view,
        ctrl_c: ctrl_rx,
        resumed_at: None,
    });
    // The clients end on `disconnect`; give them a moment, then let the
    // cables go (which ends any client still waiting).
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline && clients.iter().any(|c| !c.is_finished()) {
        thread::sleep(Duration::from_millis(20));
    }
    drop(cables);
    // The demo plays until it is stopped: that is its normal end.
    ending?;
    if !args.view.headless {
        crate::app::stdout::line(&format!("argus demo: logs in {}", log_dir.display()));
    }
    Ok(Completion::Normal)
}

/// The two clients on the cables' far ends, each on its own thread.
fn start_clients(
    cables: &[VirtualCable; 2],
    port_settings: PortSettings,
    args: &DemoArgs,
) -> Vec<thread::JoinHandle<Result<(), ClientError>>> {
    // Client A is a random mover, B a greedy one, on the far ends.
    let movers = [
        ("random mover", MoverKind::Random),
        ("greedy mover", MoverKind::Greedy),
    ];
    let mut clients = Vec::new();
    for (i, (cable, (name, kind))) in cables.iter().zip(movers).enumerate() {
        let path = cable.b().to_string();
        let settings = port_settings;
        let protocol = ClientProtocol::new(
            name,
            Mover::new(kind, args.seed.wrapping_add(i as u64)),
            true,
        );
        let think = Duration::from_millis(args.think_ms);
        clients.push(thread::spawn(move || {
            client::run_on_port(&path, settings, protocol, think, Voice::Quiet, true)
        }));
    }
    clients
}

/// The demo's match: endless unless `--games`, no wire time, short
/// delays when headless.
fn demo_settings(
    args: &DemoArgs,
    cables: &[VirtualCable; 2],
    time_control: TimeControl,
) -> Settings {
    Settings {
        event: "argus demo".into(),
        site: "this computer".into(),
        date: pgn_date(SystemTime::now()),
        ports: ByClient::new(cables[0].a().to_string(), cables[1].a().to_string()),
        // The in-process cables carry bytes at once: no wire time to credit.
        lines: ByClient::new(NO_LINE_DELAY, NO_LINE_DELAY),
        time_control,
        games: args.games.unwrap_or(ENDLESS),
        reset_delay_ms: if args.view.headless {
            HEADLESS_DELAY_MS
        } else {
            RESET_DELAY_MS
        },
        conclude_delay_ms: if args.view.headless {
            HEADLESS_DELAY_MS
        } else {
            CONCLUDE_DELAY_MS
        },
        ..Settings::default()
    }
}
