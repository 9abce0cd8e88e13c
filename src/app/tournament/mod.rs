//! `argus tournament`: many programs, many boards at once. The players'
//! links ([`players`]), one referee core per board ([`board`]), the
//! tournament core above them and the loop that drives them all
//! ([`director`]); docs/tournament.md.

pub mod args;
pub mod board;
pub mod copy;
pub mod director;
pub mod gate;
pub mod layout;
pub mod live;
pub mod players;
pub mod restart;
pub mod screen;
pub mod watch;

use crate::app::writers::{GameFiles, RelayTiming};
use std::path::{Path, PathBuf};

use crossbeam_channel::{Receiver, Sender};
use std::time::{Instant, SystemTime};

use crate::app::audience::Audience;
use crate::app::links::{EndpointArgs, EndpointsError};
use crate::app::options::{LineOptions, OutputOptions, ResumeArgs};
use crate::app::signals::{self, Stop};
use crate::app::start::{LogDir, Writes, check_outputs};
use crate::app::tournament::args::{TournamentArgs, TournamentPlan};
use crate::app::tournament::board::Board;
use crate::app::tournament::director::{Director, Relays};
use crate::app::tournament::layout::{Claimed, Layout};
use crate::app::tournament::live::LiveGames;
use crate::app::tournament::players::{EnginePlay, Field, Net};
use crate::app::wall::unix_ms_now;
use crate::app::{Exit, Failure, logging};
use crate::journal::feed::{Feed, FileSet};
use crate::record::timestamp::pgn_date;
use crate::record::transcript::Transcript;
use crate::tournament::PlayerId;
use crate::tournament::journal::{self as tjournal, Header, TournamentWriter};
use crate::tournament::{Form, GameState, Instance, Settings, Tournament};

pub use layout::JOURNAL;

/// The arguments after `tournament` on this process's command line (a
/// match run as a tournament of two: those of the tournament it is, see
/// [`args::match_as_tournament`]).
fn command_line() -> Vec<String> {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let argv = args::match_as_tournament(&argv).unwrap_or_else(|| {
        argv.iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    });
    args::withhold_password(
        argv.into_iter()
            .skip_while(|a| a != "tournament")
            .skip(1)
            .collect(),
    )
}

/// Refuses, before the tournament starts, an output that could not be
/// written: those it shares with a match (`--pgn`, `--epd-out`,
/// `--live-pgn`, `--results-json`, `--cbf`), checked as a match checks
/// them, and `--report` (its text and Markdown).
fn check_outputs_of(args: &TournamentArgs) -> Result<(), Failure> {
    OutputOptions {
        pgn: args.pgn.clone(),
        epd_out: args.epd_out.clone(),
        live_pgn: args.live_pgn.clone(),
        results_json: args.results_json.clone(),
        cbf: args.cbf.clone(),
        ..OutputOptions::default()
    }
    .check()
    .map_err(Failure::usage)?;
    let Some((text, md)) = args.event.report.as_deref().map(args::report_paths) else {
        return Ok(());
    };
    check_outputs(&[
        ("--report", text.as_path(), Writes::Replace),
        ("--report", md.as_path(), Writes::Replace),
    ])
    .map_err(Failure::usage)
}

/// Runs `argus tournament`: how it ended, or why it could not start or
/// went wrong.
pub fn run(args: TournamentArgs) -> Exit {
    launch(
        args,
        Launch {
            me: ME,
            command: command_line(),
            plan: Box::new(|_| {}),
            opened: Box::new(|| {}),
            relay_timings: None,
        },
    )
}

/// What a command that runs an event of its own making (`argus demo`)
/// gives the director beyond its arguments.
pub struct Launch<'a> {
    /// The command's name in messages (`argus demo`).
    pub me: &'static str,
    /// The command line the journal records (for `argus resume`: the
    /// arguments after `argus tournament`, or `demo ...`, which no resume
    /// carries on).
    pub command: Vec<String>,
    /// What its arguments cannot say, set on the plan before the event is
    /// made (a demo's endless match, its cables' missing wire time).
    pub plan: Box<dyn FnOnce(&mut TournamentPlan) + 'a>,
    /// Called once the players' links are open, before the loop reads
    /// them (a demo starts its clients on the cables' far ends then:
    /// opening a port clears its stale input).
    pub opened: Box<dyn FnOnce() + 'a>,
    /// Where every board's relay timings go as well (the relay
    /// benchmark), beside the overhead the director counts for its log.
    pub relay_timings: Option<Sender<RelayTiming>>,
}

/// Runs an event from `args` as `how` says: [`run`]'s, or a demo's.
pub fn launch(args: TournamentArgs, how: Launch) -> Exit {
    // Caught from the start: a stop while the engines start up is a stop.
    let ctrl_c = signals::stop_requests(how.me);
    let args = args.with_config_outputs().map_err(Failure::usage)?;
    let mut plan = args
        .plan(pgn_date(SystemTime::now()))
        .map_err(Failure::usage)?;
    (how.plan)(&mut plan);
    let settings = settings_of(&plan);
    let core = Tournament::new(settings.clone()).map_err(Failure::usage)?;
    check_outputs_of(&args)?;
    let layout = plan.layout();
    let mut dirs = layout.claim()?;
    layout.refuse_taken().map_err(Failure::usage)?;
    let journal = layout.journal().to_path_buf();
    let epoch = Instant::now();
    let edges = open_edges(&plan, &args, &core, &mut dirs.logs, epoch)?;
    (how.opened)();
    let header = Header {
        writer: format!("argus {}", env!("CARGO_PKG_VERSION")),
        settings,
        specs: plan.players.iter().map(|p| p.spec()).collect(),
        command: how.command,
        directory: std::env::current_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_default(),
    };
    dirs.note_journal(&journal);
    let started = unix_ms_now();
    let writer = TournamentWriter::create(&journal, &header, started).map_err(|e| {
        Failure::usage(format!(
            "cannot start the journal {}: {e}",
            journal.display()
        ))
    })?;
    let carried = Carried {
        core,
        journal: writer,
        base: 0,
        boards: Vec::new(),
        game_journals: Vec::new(),
        resumed: false,
        started_unix_ms: Some(started),
    };
    direct(
        carried,
        &plan,
        &args,
        edges,
        (layout, dirs),
        (ctrl_c, how.relay_timings),
    )
}

/// Lets the watchers receive the end of the journals, then stops the feed.
fn close_feed(feed: Option<Feed>) {
    if let Some(f) = feed {
        f.close(std::time::Duration::from_secs(3));
    }
}

/// Carries on the tournament whose journal is `journal` (`argus resume`):
/// the same command line, run from the same directory, the tournament core
/// and each game in progress rebuilt from their journals, then every core
/// told it was resumed; the time the referee was down is charged to
/// nobody. `--headless` and `--http` given to the resume win over the
/// command line's; so do `ends`, a match's endpoints now (its players on
/// other ports than when it started, or `--listen ADDR` for both), for a
/// match of two programs on ports or TCP endpoints, and `--allow` and
/// `--password` given to the resume.
pub fn resume(given: &ResumeArgs) -> Exit {
    let (journal, headless, web, ends) = (
        given.journal.as_path(),
        given.view.headless,
        &given.web,
        &given.ends,
    );
    // Paths given to the resume are the resume's, read before it goes to
    // where the event was started.
    let output = absolute_outputs(&given.output);
    let moved = moved_to(ends).map_err(Failure::usage)?;
    let ctrl_c = signals::stop_requests(ME);
    let journal = std::path::absolute(journal).unwrap_or_else(|_| journal.to_path_buf());
    let loaded = tjournal::load(&journal).map_err(Failure::usage)?;
    let over = loaded.tournament.is_over();
    if over {
        let t = &loaded.tournament;
        if t.settings().form == Form::Tournament {
            // Nothing to carry on: no player is started, no file touched.
            crate::app::stdout::line(&format!(
                "the tournament in {} is already over: nothing to carry on; its report:\n{}",
                journal.display(),
                crate::tournament::report::text(t)
            ));
            return Ok(crate::app::Completion::Normal);
        }
        // A match over whose referee stopped before its farewell: its
        // players (on cables, waiting) are sent `disconnect`, as a match
        // between ports always ended, and nothing else is played.
        crate::app::stdout::line(&format!(
            "the match in {} is already over: {}; nothing to carry on but the players' \
             farewell",
            journal.display(),
            crate::tournament::words::match_summary(t)
        ));
    }
    let header = &loaded.header;
    refuse_a_demo(&journal, &header.command).map_err(Failure::usage)?;
    if header.command.is_empty() {
        return Err(Failure::usage(format!(
            "{} does not record the command line that started the tournament (an older argus \
             wrote it): it cannot be carried on",
            journal.display()
        )));
    }
    if !header.directory.is_empty() {
        std::env::set_current_dir(&header.directory).map_err(|e| {
            Failure::usage(format!(
                "cannot go to {}, where the tournament was started (its files are named from \
                 there): {e}",
                header.directory
            ))
        })?;
    }
    let mut args = TournamentArgs::from_command(&header.command)
        .and_then(TournamentArgs::with_config_outputs)
        .map_err(Failure::usage)?;
    args.view.headless |= headless;
    given_wins(&mut args, &output, &given.line);
    if web.http.is_some() {
        // The resume's --http (the hall's address may have changed).
        args.web = web.clone();
    }
    if let Some(moved) = moved {
        (args.players, args.listen) = moved_players(&loaded.tournament, &header.specs, moved)
            .map_err(|e| Failure::usage(format!("{}: {e}", journal.display())))?;
    }
    if !ends.net.allow.is_empty() {
        args.allow.clone_from(&ends.net.allow);
    }
    if ends.net.password.is_some() {
        args.password.clone_from(&ends.net.password);
    } else if args.password_withheld {
        return Err(Failure::usage(format!(
            "{} was started with --password, which its journal does not record: give it \
             again (argus resume {} --password SECRET)",
            journal.display(),
            journal.display()
        )));
    }
    let mut plan = args
        .plan(pgn_date(SystemTime::now()))
        .map_err(Failure::usage)?;
    // The players keep the names the journal gave them, wherever they are.
    plan.names.clone_from(&header.settings.names);
    if settings_of(&plan) != header.settings {
        return Err(Failure::usage(format!(
            "{}: its settings are not those its command line gives now (an openings file \
             changed?): it cannot be carried on",
            journal.display()
        )));
    }
    check_outputs_of(&args)?;
    let mut layout = Layout::resumed(&journal, &plan.layout());
    if let Some(dir) = &output.log_dir {
        layout = layout.with_log_dir(dir);
    }
    plan.log_dir = layout.log_dir().to_path_buf();
    let mut dirs = layout.claim()?;
    let mut edges = open_edges(
        &plan,
        &args,
        &loaded.tournament,
        &mut dirs.logs,
        Instant::now(),
    )?;
    let core = loaded.tournament.clone();
    if let Some(a) = edges.audience.as_mut() {
        // Every game decided before the stop, for /games.pgn.
        a.ended_before(board::ended_games(
            layout.journal_dir(),
            &core.decided().collect::<Vec<_>>(),
        ));
    }
    let voice = board::Voice {
        form: core.settings().form,
        headless: args.view.headless,
    };
    let boards = resume_boards(&core, &layout, &args.game_files(), voice)?;
    let base = boards
        .iter()
        .flatten()
        .map(Board::time)
        .fold(loaded.last_at, u64::max);
    let writer = TournamentWriter::resume(&journal, &loaded, base, unix_ms_now())
        .map_err(|e| Failure::usage(format!("cannot go on with {}: {e}", journal.display())))?;
    if let Some(t) = &loaded.torn {
        log::warn!("{}: {t}", journal.display());
    }
    let decided = core.progress().decided();
    let story = format!(
        "resuming the tournament from {}: {decided} of {} games decided, {} in progress; \
         the time the referee was down is charged to nobody",
        journal.display(),
        core.schedule().games().len(),
        boards.iter().flatten().count()
    );
    log::info!("{story}");
    if !over {
        crate::app::stdout::line(&story);
    }
    let playing: Vec<u32> = boards.iter().flatten().map(|b| b.game.number).collect();
    let game_journals = core
        .games()
        .map(|(g, _)| {
            let path = layout::game_journal(layout.journal_dir(), g.number);
            (path, !playing.contains(&g.number))
        })
        .filter(|(path, _)| path.is_file())
        .collect();
    let carried = Carried {
        core,
        journal: writer,
        base,
        boards,
        game_journals,
        resumed: true,
        started_unix_ms: loaded.started_unix_ms,
    };
    direct(carried, &plan, &args, edges, (layout, dirs), (ctrl_c, None))
}

/// Refuses to carry on an `argus demo`'s journal (its recorded command
/// line starts [`DEMO`]): its cables and clients were inside the argus
/// that ended.
fn refuse_a_demo(journal: &Path, command: &[String]) -> Result<(), ResumeRefused> {
    if command.first().map(String::as_str) == Some(DEMO) {
        return Err(ResumeRefused::Demo(journal.to_path_buf()));
    }
    Ok(())
}

/// Why `argus resume` does not carry an event on as it was asked to: a
/// demo's journal, or a match's players said to be elsewhere in a way
/// that does not go (the journal is left as it is).
#[derive(Debug, thiserror::Error)]
pub enum ResumeRefused {
    /// The journal (its path) is an `argus demo`'s.
    #[error(
        "{} is the journal of an `argus demo`, which is not carried on (its cables and \
         clients were inside the argus that ended): start `argus demo` again",
        .0.display()
    )]
    Demo(PathBuf),
    /// `--listen` given with PORT_A and PORT_B.
    #[error(transparent)]
    Endpoints(#[from] EndpointsError),
    /// One of PORT_A and PORT_B given without the other.
    #[error(
        "give both endpoints (PORT_A PORT_B) or --listen ADDR:PORT, or none to reach the \
         players where the journal says"
    )]
    OneEndpoint,
    /// Ports or `--listen` given for a tournament's journal.
    #[error("a tournament journal records its players: give it alone, without ports or --listen")]
    Tournament,
    /// Ports or `--listen` given for a match whose players (as the journal
    /// records them) are not two on ports or TCP endpoints.
    #[error(
        "its players are {}: give it alone (ports are given for a match between ports)",
        .0.join(" and ")
    )]
    NotOnPorts(Vec<String>),
    /// A port given that does not read as a player.
    #[error(transparent)]
    Player(#[from] crate::tournament::player::PlayerError),
    /// A port given that is a program, not a port or a TCP endpoint.
    #[error("{0:?} is not a port or a TCP endpoint")]
    NotAPort(String),
}

/// Where a resumed match's players are now: on these two endpoints
/// (`argus resume JOURNAL PORT_A PORT_B`), or both on this listener
/// (`--listen ADDR`).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Moved {
    Ports([String; 2]),
    Listen(String),
}

/// Where `argus resume` says a match's players are now, if it says.
/// The output flags given to `argus resume`, their paths made absolute
/// (the resume goes to the directory the event was started in).
fn absolute_outputs(given: &OutputOptions) -> OutputOptions {
    let abs = |p: &Option<PathBuf>| {
        p.as_deref()
            .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()))
    };
    OutputOptions {
        pgn: abs(&given.pgn),
        epd_out: abs(&given.epd_out),
        live_pgn: abs(&given.live_pgn),
        log_dir: abs(&given.log_dir),
        results_json: abs(&given.results_json),
        cbf: abs(&given.cbf),
        journal: abs(&given.journal),
        ..given.clone()
    }
}

/// What `argus resume` was given wins over what the event's command line
/// recorded: its outputs (`--pgn`, `--log-dir`, ...; a standby resuming
/// from a watcher's copy writes its own files) and its line settings (the
/// players' ports now).
fn given_wins(args: &mut TournamentArgs, output: &OutputOptions, line: &LineOptions) {
    args.line = line.clone().or(args.line.clone());
    let o = output.clone();
    if o.pgn.is_some() {
        args.pgn = o.pgn;
        args.pgn_min = o.pgn_min;
    }
    args.epd_out = o.epd_out.or(args.epd_out.take());
    args.live_pgn = o.live_pgn.or(args.live_pgn.take());
    args.log_dir = o.log_dir.or(args.log_dir.take());
    args.feed = o.feed.or(args.feed.take());
    args.results_json = o.results_json.or(args.results_json.take());
    args.cbf = o.cbf.or(args.cbf.take());
    args.rating_interval = o.rating_interval.or(args.rating_interval);
}

fn moved_to(ends: &EndpointArgs) -> Result<Option<Moved>, ResumeRefused> {
    match (&ends.net.listen, &ends.port_a, &ends.port_b) {
        (None, None, None) => Ok(None),
        (Some(addr), None, None) => Ok(Some(Moved::Listen(addr.clone()))),
        (Some(_), _, _) => Err(EndpointsError::ListenAndPorts.into()),
        (None, Some(a), Some(b)) => Ok(Some(Moved::Ports([a.clone(), b.clone()]))),
        (None, _, _) => Err(ResumeRefused::OneEndpoint),
    }
}

/// A match's players where `moved` says (`argus resume JOURNAL PORT_A
/// PORT_B`, or `--listen ADDR`) in place of those its journal records
/// (`specs`): the players and the `--listen` to run with (the match's
/// listener for both, or none). Only a match's, and only players on a
/// port or a TCP endpoint (one program each; a program argus runs is where
/// its command says).
fn moved_players(
    t: &Tournament,
    specs: &[String],
    moved: Moved,
) -> Result<(Vec<String>, Option<String>), ResumeRefused> {
    if t.settings().form != crate::tournament::Form::Match {
        return Err(ResumeRefused::Tournament);
    }
    let on_ports = specs.len() == 2
        && specs
            .iter()
            .all(|s| crate::tournament::Player::parse(s).is_ok_and(|p| p.is_one_program()));
    if !on_ports {
        return Err(ResumeRefused::NotOnPorts(specs.to_vec()));
    }
    let ports = match moved {
        // Both on the listener: the plan makes them its two seats.
        Moved::Listen(addr) => return Ok((Vec::new(), Some(addr))),
        Moved::Ports(ports) => ports,
    };
    for p in &ports {
        let player = crate::tournament::Player::parse(p)?;
        if !player.is_one_program() {
            return Err(ResumeRefused::NotAPort(p.clone()));
        }
    }
    Ok((ports.to_vec(), None))
}

/// Each game in progress rebuilt from its journal (where `layout` keeps
/// it), on its board (a game whose result the tournament already holds is
/// told so).
fn resume_boards(
    core: &Tournament,
    layout: &Layout,
    games: &GameFiles,
    voice: board::Voice,
) -> Result<Vec<Option<Board>>, Failure> {
    let mut boards: Vec<Option<Board>> = (0..core.board_count()).map(|_| None).collect();
    let total = core.games_total();
    for (board, game) in core.in_progress() {
        let instances = core.instances_on(board).unwrap_or_default();
        let resumed = Board::resume(board, game, instances, layout, games, voice, total)
            .map_err(Failure::failed)?;
        let Some(mut b) = resumed else { continue };
        if !matches!(core.game_state(game.number), Some(GameState::Playing(_))) {
            b.result_known();
        }
        if let Some(slot) = boards.get_mut((board.0 as usize).saturating_sub(1)) {
            *slot = Some(b);
        }
    }
    Ok(boards)
}

/// The command's name in messages.
const ME: &str = "argus tournament";

/// The first word of the command line an `argus demo` records in its
/// journal ([`Launch::command`]): no resume carries a demo on.
pub const DEMO: &str = "demo";

/// The tournament core's settings from a plan.
fn settings_of(plan: &TournamentPlan) -> Settings {
    Settings {
        event: plan.referee.event.clone(),
        names: plan.names.clone(),
        schedule: plan.schedule.clone(),
        boards: plan.boards,
        absence: plan.absence,
        instances: instances_of(plan),
        sprt: plan.sprt,
        sprt_running: plan.sprt_running,
        swiss: plan.swiss.clone(),
        // None known: none kept (as the journal's header reads back).
        ratings: if plan.ratings.iter().all(|&r| r == 0) {
            Vec::new()
        } else {
            plan.ratings.clone()
        },
        tiebreak: plan.tiebreak.clone(),
        form: plan.form,
    }
}

/// How many instances of one player may play at once: with `--boards K`
/// (K > 1) and a player that can be more than one program (an engine or
/// mover argus starts once per board, a `tcp:NAME` that connects once per
/// board), K; else 1 (a serial port is one program).
fn instances_of(plan: &TournamentPlan) -> u32 {
    let many = plan.players.iter().any(|p| !p.is_one_program());
    match plan.boards {
        Some(k) if k > 1 && many => k,
        _ => 1,
    }
}

/// How many instances of each player argus opens: [`instances_of`], but
/// a program argus starts no more times than it has games when the
/// schedule knows them all (a gauntlet's opponents, one game each, are
/// started once whatever --boards says). A `tcp:NAME` player keeps its
/// seats: its program may connect as many times as there are boards.
fn instances_per_player(plan: &TournamentPlan, core: &Tournament) -> Vec<u32> {
    let k = instances_of(plan);
    plan.players
        .iter()
        .enumerate()
        .map(|(i, p)| match core.games_in_all(PlayerId(i)) {
            Some(games) if p.runs_here() => k.min(games.max(1)),
            _ => k,
        })
        .collect()
}

/// What `run` or `resume` made of the journal: the tournament core, its
/// writer, and (on resume) the games in progress.
struct Carried {
    core: Tournament,
    journal: TournamentWriter,
    /// Journal time when the loop starts (the last input's, on resume).
    base: u64,
    /// The boards' games in progress (empty at a start).
    boards: Vec<Option<Board>>,
    /// The games' journals there are already, each with whether its game
    /// is over (for the feed; empty at a start).
    game_journals: Vec<(PathBuf, bool)>,
    resumed: bool,
    /// The wall-clock time the tournament started (ms since 1970).
    started_unix_ms: Option<u64>,
}

/// The start succeeded: keeps the log directory, hands the tournament to
/// its loop (stopped by `ctrl_c`; every relay's timing also to
/// `relay_timings`, if given), then lets go of the directory.
fn direct(
    carried: Carried,
    plan: &TournamentPlan,
    args: &TournamentArgs,
    edges: Edges,
    (layout, mut dirs): (Layout, Claimed),
    (ctrl_c, relay_timings): (Receiver<Stop>, Option<Sender<RelayTiming>>),
) -> Exit {
    let files = FileSet::new(layout.journal_dir());
    let feed = start_feed(
        plan.feed.as_deref(),
        &files,
        carried.journal.path(),
        &carried.game_journals,
    )?;
    dirs.keep();
    let stop = ctrl_c.clone();
    let played = crate::tournament::words::games_played(&carried.core);
    let rating_interval = args
        .rating_interval
        .and_then(std::num::NonZeroU32::new)
        .map(|n| crate::stats::interval::RatingInterval::new(n, played));
    // The transcripts' wall-clock times are counted from the loop's epoch.
    let origin = director::wall_origin(edges.epoch);
    let mut transcript = edges.transcript;
    transcript.set_wall_origin(origin);
    let mut boards = carried.boards;
    for b in boards.iter_mut().flatten() {
        b.set_wall_origin(origin);
    }
    let director = Director {
        feed: feed.as_ref().map(|_| files.clone()),
        core: carried.core,
        journal: Some(carried.journal),
        field: edges.field,
        referee: plan.referee.clone(),
        openings: plan.openings.clone(),
        own_controls: plan.own_controls.clone(),
        pace: plan.pace,
        port: plan.port_settings,
        wire_credit: plan.wire_credit,
        resumable: plan.resumable,
        players: plan.players.clone(),
        layout,
        games: args.game_files(),
        report: args.event.report.clone(),
        results_json: args.results_json.clone(),
        trf: args.trf.clone(),
        started_unix_ms: carried.started_unix_ms,
        rating_interval,
        view: args.view.view(),
        epoch: edges.epoch,
        base: carried.base,
        ctrl_c,
        transcript: Some(transcript),
        boards,
        resumed: carried.resumed,
        screen: None,
        audience: edges.audience,
        live: edges.live,
        relays: Relays::also_to(relay_timings),
        write_failed: Default::default(),
        report_pace: Default::default(),
    };
    let (outcome, audience) = director.run();
    close_feed(feed);
    drop(dirs);
    // Played out: the page keeps the final standings until the operator
    // ends argus (the feed's watchers are gone by then).
    if let Some(a) = audience {
        a.linger(&stop);
    }
    outcome
}

/// Starts the tournament's feed when `--feed` was given: the tournament
/// journal `journal` and the games' journals `games` (each with whether it
/// is closed: its game is no longer played) served from the start; the
/// director adds each game's journal as it starts.
fn start_feed(
    addr: Option<&str>,
    files: &FileSet,
    journal: &Path,
    games: &[(PathBuf, bool)],
) -> Result<Option<Feed>, Failure> {
    let Some(addr) = addr else {
        return Ok(None);
    };
    let add = |path: &Path, closed: bool| {
        files
            .add(path, closed)
            .map_err(|e| Failure::usage(format!("--feed: {e}")))
    };
    // The event journal by the name a copy's layout gives it, whatever its
    // file is called (`--journal FILE`).
    files
        .add_as(journal, JOURNAL, false)
        .map_err(|e| Failure::usage(format!("--feed: {e}")))?;
    for (path, closed) in games {
        add(path, *closed)?;
    }
    let feed = Feed::start_files(addr, files.clone())
        .map_err(|e| Failure::usage(format!("--feed: {e}")))?;
    log::info!("tournament feed on {}", feed.local_addr());
    Ok(Some(feed))
}

/// What a tournament opens at its edges before its loop runs.
struct Edges {
    field: Field,
    transcript: Transcript,
    audience: Option<Audience>,
    /// `--live-pgn`: the games being played.
    live: Option<LiveGames>,
    /// The instant the links' times count from.
    epoch: Instant,
}

/// The seats of the players on listeners of their own (`tcp-listen://`):
/// a match's labelled by client (`A`, `B`, the transcripts' labels, as
/// `argus referee` has always seated them), each taking only the name the
/// match knows its client by, if it knows one (given with `--name-a` or
/// `--name-b`, or signed on with before a resume), so that a client coming
/// back gets its own seat whoever comes first; a tournament's labelled by
/// the player's name, taking any program. `core` is the event as it
/// starts or resumes.
fn listen_seats(plan: &TournamentPlan, core: &Tournament) -> Vec<(String, Option<String>)> {
    plan.players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let id = crate::tournament::PlayerId(i);
            match plan.form {
                Form::Match => {
                    let known = plan.names_given.get(i).copied().unwrap_or(false)
                        || core.named_by_program(id);
                    (
                        Instance::new(id, 0).transcript_label(Form::Match),
                        known.then(|| core.name(id).to_string()),
                    )
                }
                Form::Tournament => (p.name().to_string(), None),
            }
        })
        .collect()
}

/// The application log, the players' links, the tournament's transcript in
/// the log directory `dir` and the audience's page; `core` is the event as
/// it starts or resumes (whom a match's listener seats).
fn open_edges(
    plan: &TournamentPlan,
    args: &TournamentArgs,
    core: &Tournament,
    dir: &mut LogDir,
    epoch: Instant,
) -> Result<Edges, Failure> {
    dir.note(&dir.path().join("argus.log"));
    logging::init(dir.path(), "argus.log", args.view.headless).map_err(Failure::usage)?;
    let net = Net {
        listen: args.listen.clone(),
        allow: args.allow.clone(),
        password: args.password.clone(),
        seats: listen_seats(plan, core),
    };
    let field = Field::open(
        &plan.players,
        &instances_per_player(plan, core),
        plan.port_settings,
        &net,
        EnginePlay {
            claim_draws: plan.claim_draws,
            variant: plan.referee.variant,
        },
        dir.path(),
        epoch,
    )
    .map_err(Failure::usage)?;
    let path = dir.path().join("transcript.log");
    dir.note(&path);
    let transcript = Transcript::create(&path).map_err(|e| {
        Failure::usage(format!(
            "cannot open the transcript {}: {e}",
            path.display()
        ))
    })?;
    let audience = Audience::start(&plan.web).map_err(Failure::usage)?;
    let live = match &args.live_pgn {
        Some(path) => Some(LiveGames::start(path.clone()).map_err(|e| {
            Failure::usage(format!(
                "cannot start the writer of the live PGN {}: {e}",
                path.display()
            ))
        })?),
        None => None,
    };
    Ok(Edges {
        field,
        transcript,
        audience,
        live,
        epoch,
    })
}

#[cfg(test)]
mod tests {
    use super::{Moved, ResumeRefused, moved_players, moved_to};
    use crate::app::links::{EndpointArgs, EndpointsError, NetOptions};
    use crate::tournament::{Form, Settings, Tournament};

    fn event(form: Form) -> Tournament {
        let mut s = Settings::round_robin("e", vec!["a".into(), "b".into()]);
        s.form = form;
        Tournament::new(s).unwrap()
    }

    #[test]
    fn a_matchs_players_on_ports_may_be_reached_on_others_at_resume() {
        let specs = [
            "serial:/dev/ttyS0".to_string(),
            "tcp://10.0.0.2:7000".into(),
        ];
        let ports = || {
            [
                "/dev/ttyUSB0".to_string(),
                "tcp-listen://0.0.0.0:7001".into(),
            ]
        };
        let moved = || Moved::Ports(ports());
        assert_eq!(
            moved_players(&event(Form::Match), &specs, moved()).unwrap(),
            (ports().to_vec(), None)
        );
        // Both on one listener now: no players given, --listen for both.
        let listen = Moved::Listen("0.0.0.0:7002".into());
        assert_eq!(
            moved_players(&event(Form::Match), &specs, listen.clone()).unwrap(),
            (Vec::new(), Some("0.0.0.0:7002".to_string()))
        );
        // Not a tournament's, not programs argus runs, not onto a program.
        for m in [moved(), listen.clone()] {
            let e = moved_players(&event(Form::Tournament), &specs, m).unwrap_err();
            assert!(matches!(e, ResumeRefused::Tournament), "{e:?}");
            assert!(
                e.to_string()
                    .contains("give it alone, without ports or --listen"),
                "{e}"
            );
        }
        let engines = ["engine:a=sf".to_string(), "serial:/dev/ttyS0".into()];
        let e = moved_players(&event(Form::Match), &engines, listen).unwrap_err();
        assert!(matches!(e, ResumeRefused::NotOnPorts(_)), "{e:?}");
        assert!(
            e.to_string().starts_with("its players are engine:a=sf and"),
            "{e}"
        );
        let onto = ["/dev/ttyUSB0".to_string(), "mover:m".into()];
        let e = moved_players(&event(Form::Match), &specs, Moved::Ports(onto)).unwrap_err();
        assert!(matches!(e, ResumeRefused::NotAPort(_)), "{e:?}");
        assert_eq!(e.to_string(), "\"mover:m\" is not a port or a TCP endpoint");
    }

    #[test]
    fn a_demos_journal_is_refused_by_resume_and_a_tournaments_is_not() {
        let j = std::path::Path::new("/tmp/argus-demo-7/tournament.journal");
        let demo = ["demo", "--games", "3"].map(String::from);
        let e = super::refuse_a_demo(j, &demo).unwrap_err();
        assert!(matches!(e, ResumeRefused::Demo(_)), "{e:?}");
        assert_eq!(
            e.to_string(),
            "/tmp/argus-demo-7/tournament.journal is the journal of an `argus demo`, which is \
             not carried on (its cables and clients were inside the argus that ended): start \
             `argus demo` again"
        );
        let tournament = ["mover:a", "mover:b", "--tc", "60+1"].map(String::from);
        assert!(super::refuse_a_demo(j, &tournament).is_ok());
        assert!(super::refuse_a_demo(j, &[]).is_ok());
    }

    #[test]
    fn a_resume_says_where_a_matchs_players_are_now_by_ports_or_listen() {
        let ends = |a: Option<&str>, b: Option<&str>, listen: Option<&str>| EndpointArgs {
            port_a: a.map(String::from),
            port_b: b.map(String::from),
            net: NetOptions {
                listen: listen.map(String::from),
                ..NetOptions::default()
            },
        };
        assert_eq!(moved_to(&ends(None, None, None)).unwrap(), None);
        assert_eq!(
            moved_to(&ends(None, None, Some("0.0.0.0:7000"))).unwrap(),
            Some(Moved::Listen("0.0.0.0:7000".into()))
        );
        assert_eq!(
            moved_to(&ends(Some("COM1"), Some("COM2"), None)).unwrap(),
            Some(Moved::Ports(["COM1".into(), "COM2".into()]))
        );
        let e = moved_to(&ends(Some("COM1"), None, Some("0.0.0.0:7000"))).unwrap_err();
        assert!(
            matches!(e, ResumeRefused::Endpoints(EndpointsError::ListenAndPorts)),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "--listen takes both clients: give it without PORT_A and PORT_B"
        );
        let e = moved_to(&ends(Some("COM1"), None, None)).unwrap_err();
        assert!(matches!(e, ResumeRefused::OneEndpoint), "{e:?}");
        assert!(e.to_string().starts_with("give both endpoints"), "{e}");
    }
}
