//! `argus demo`: two reference clients play each other over two in-process
//! virtual cables, refereed live by the tournament's director as a match of
//! two ports (`argus tournament --as-match PORT_A PORT_B`, built here from
//! the demo's settings). Needs no hardware and no socat.

use std::path::PathBuf;
use std::thread;
use std::time::{Duration, Instant};

use crate::app::client::{self, ClientError, Voice};
use crate::app::options::{DemoArgs, MatchOptions};
use crate::app::tournament::args::{TournamentArgs, TournamentPlan};
use crate::app::tournament::{self, DEMO, Launch};
use crate::app::{Completion, Exit, Failure};
use crate::client::{ClientProtocol, Mover, MoverKind};
use crate::clock::{TimeControl, parse_friendly};
use crate::link::{PortSettings, VirtualCable};

/// The pause between `reset` and the first move with the board: long enough
/// to see the new game's starting position.
const RESET_DELAY_MS: u64 = 1_000;
/// The pause after a game with the board: long enough to read the result.
const CONCLUDE_DELAY_MS: u64 = 3_000;
/// Both pauses in headless mode, where nobody watches: the reference
/// clients need no time to reset.
const HEADLESS_DELAY_MS: u64 = 200;

/// Runs `argus demo`: it plays until it is stopped, so a match ended early
/// is its normal end; it fails only if it cannot run.
pub fn run(args: DemoArgs) -> Exit {
    let time_control =
        parse_friendly(&args.tc).map_err(|e| Failure::usage(format!("--tc {:?}: {e}", args.tc)))?;
    if args.games == Some(0) {
        return Err(Failure::usage("--games must be at least 1"));
    }
    let log_dir = std::env::temp_dir().join(format!("argus-demo-{}", std::process::id()));
    let cables = [
        VirtualCable::new().map_err(Failure::failed)?,
        VirtualCable::new().map_err(Failure::failed)?,
    ];
    let port_settings = PortSettings::default();
    let mut clients = Vec::new();
    let ending = tournament::launch(
        match_args(
            &args,
            cables.each_ref().map(|c| c.a().to_string()),
            log_dir.clone(),
        ),
        Launch {
            me: "argus demo",
            command: std::iter::once(DEMO.to_string())
                .chain(std::env::args().skip_while(|a| a != DEMO).skip(1))
                .collect(),
            plan: Box::new(|plan| demo_plan(plan, &args, time_control)),
            // The clients start once the referee's ends are open (opening
            // a port clears its stale input).
            opened: Box::new(|| clients = start_clients(&cables, port_settings, &args)),
            relay_timings: None,
        },
    );
    // The clients end on `disconnect`; give them a moment, then let the
    // cables go (which ends any client still waiting).
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline && clients.iter().any(|c| !c.is_finished()) {
        thread::sleep(Duration::from_millis(20));
    }
    drop(cables);
    // The demo plays until it is stopped: that is its normal end.
    match ending? {
        Completion::EndedEarly(_) | Completion::Normal => {}
        other => return Ok(other),
    }
    if !args.view.headless {
        crate::app::stdout::line(&format!("argus demo: logs in {}", log_dir.display()));
    }
    Ok(Completion::Normal)
}

/// The match the demo is, as `argus tournament --as-match` takes it: the
/// cables' referee ends (`ports`) as its two ports, `--games` as its games (or one
/// pair, made endless by [`demo_plan`]), the view, the web page, the PGN
/// and the logs in `log_dir`.
fn match_args(args: &DemoArgs, ports: [String; 2], log_dir: PathBuf) -> TournamentArgs {
    TournamentArgs {
        players: ports.to_vec(),
        as_match: true,
        games_per_pairing: args.games,
        matches: MatchOptions {
            event: Some("argus demo".into()),
            site: Some("this computer".into()),
            ..MatchOptions::default()
        },
        pgn: args.pgn.clone(),
        log_dir: Some(log_dir),
        web: args.web.clone(),
        view: args.view,
        ..TournamentArgs::default()
    }
}

/// What the demo's arguments cannot say as flags: endless unless
/// `--games`, the time control as the demo reads it (a bare number is
/// seconds), no wire time on the in-process cables, short delays when
/// headless, and a journal no resume carries on.
fn demo_plan(plan: &mut TournamentPlan, args: &DemoArgs, time_control: TimeControl) {
    plan.schedule.endless = args.games.is_none();
    plan.referee.time_control = time_control;
    // The in-process cables carry bytes at once: no wire time to credit.
    plan.wire_credit = false;
    plan.resumable = false;
    let (reset, conclude) = if args.view.headless {
        (HEADLESS_DELAY_MS, HEADLESS_DELAY_MS)
    } else {
        (RESET_DELAY_MS, CONCLUDE_DELAY_MS)
    };
    plan.referee.reset_delay_ms = reset;
    plan.referee.conclude_delay_ms = conclude;
    plan.pace.reset_given = true;
    plan.pace.conclude_given = true;
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

#[cfg(test)]
mod tests {
    use super::{demo_plan, match_args};
    use crate::app::options::DemoArgs;
    use crate::clock::parse_friendly;
    use crate::tournament::Form;

    fn demo(games: Option<u32>, headless: bool) -> DemoArgs {
        DemoArgs {
            games,
            tc: "1m+1".into(),
            seed: 1,
            think_ms: 5,
            pgn: None,
            view: crate::app::options::ViewOptions {
                headless,
                ..Default::default()
            },
            web: Default::default(),
        }
    }

    /// The demo's plan as the director runs it: two character devices
    /// stand for the cables' referee ends.
    fn plan_of(args: &DemoArgs) -> crate::app::tournament::args::TournamentPlan {
        let ports = ["/dev/null".to_string(), "/dev/zero".to_string()];
        let mut plan = match_args(args, ports, "/tmp/argus-demo-test".into())
            .plan("2026.11.29".into())
            .unwrap();
        demo_plan(&mut plan, args, parse_friendly(&args.tc).unwrap());
        plan
    }

    #[test]
    fn the_demo_is_a_match_of_its_two_cables_endless_unless_games_is_given() {
        let plan = plan_of(&demo(None, true));
        assert_eq!(plan.form, Form::Match);
        assert_eq!(plan.players.len(), 2);
        assert!(plan.schedule.endless, "no --games: until it is stopped");
        assert_eq!(plan.referee.event, "argus demo");
        assert_eq!(plan.referee.site, "this computer");
        assert_eq!(plan.referee.time_control, parse_friendly("60+1").unwrap());
        assert!(!plan.wire_credit, "the in-process cables have no wire time");
        assert!(!plan.resumable);
        assert_eq!(
            (plan.referee.reset_delay_ms, plan.referee.conclude_delay_ms),
            (200, 200),
            "headless: short delays"
        );
        assert!(plan.pace.reset_given && plan.pace.conclude_given);

        let plan = plan_of(&demo(Some(3), false));
        assert!(!plan.schedule.endless);
        assert_eq!(plan.schedule.games_per_pairing, 3);
        assert_eq!(
            (plan.referee.reset_delay_ms, plan.referee.conclude_delay_ms),
            (1_000, 3_000),
            "with the board: time to see the start and the result"
        );
    }
}
