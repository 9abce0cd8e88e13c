//! The audience's page in a real headless browser (Chromium through
//! chromedriver, `common::browser`): it follows a match live, shows
//! client strings as text, and fits a projector and a phone.

use std::path::PathBuf;
use std::time::Duration;

use super::{FOOLS_MATE, HOSTILE, Match, PLAY, START, demo, plies, wait_state};

/// Where screenshots go: `ARGUS_WEB_SCREENSHOTS`, else a temporary
/// directory (they are still taken, so that taking one is tested).
pub(super) fn screenshot_dir() -> (PathBuf, Option<tempfile::TempDir>) {
    match std::env::var_os("ARGUS_WEB_SCREENSHOTS") {
        Some(d) => (PathBuf::from(d), None),
        None => {
            let t = tempfile::tempdir().unwrap();
            (t.path().to_path_buf(), Some(t))
        }
    }
}

/// A JavaScript expression: the text of the element `selector` (or
/// undefined).
fn text_of(selector: &str) -> String {
    format!("(document.querySelector('{selector}') || {{}}).textContent")
}

/// A script returning the text of the element `selector`.
fn get_text(selector: &str) -> String {
    format!("return {};", text_of(selector))
}

/// Installs `window.seenAt`: each move's SAN, with the time (`Date.now()`)
/// it first showed in a move list; also marks the page, to tell a reload.
const SEEN_AT: &str = "
    window.notReloaded = true;
    window.seenAt = {};
    const note = () => {
        for (const e of document.querySelectorAll('.moves .san')) {
            if (!(e.textContent in window.seenAt)) window.seenAt[e.textContent] = Date.now();
        }
    };
    note();
    new MutationObserver(note).observe(document.getElementById('boards'),
        { childList: true, subtree: true, characterData: true });
    return null;";

#[test]
fn the_page_follows_the_match_live_and_shows_names_as_text() {
    let Some(mut m) = Match::start() else {
        return;
    };
    let b = browser_or_skip!(1280, 800);
    b.goto(&format!("http://{}/", m.addr));
    // The board: 32 pieces, the names as text, the link live.
    b.wait_js(
        START,
        "the pieces",
        "return document.querySelectorAll('cg-board piece').length === 32;",
    );
    b.wait_js(
        START,
        "the live link",
        &format!("return {} === 'live';", text_of("#link")),
    );
    let white = b.js(&get_text(".bottom .name"));
    assert_eq!(white, HOSTILE, "White's name is shown as its text");
    assert_eq!(b.js(&get_text(".top .name")), "Bob");
    assert_eq!(b.js("return document.querySelectorAll('img').length;"), 0);
    assert_eq!(b.alert_text(), None, "the name ran as markup");
    // White's clock runs: it ticks down without any new state.
    let clock = get_text(".bottom .clock");
    let first = b.js(&clock);
    std::thread::sleep(Duration::from_millis(1500));
    let second = b.js(&clock);
    assert_ne!(first, second, "White's clock did not tick");
    assert_eq!(
        b.js(&get_text(".top .clock")),
        "5:00",
        "Black's clock stands"
    );
    // Each move appears within a second, without a reload: the page notes
    // (in the browser's own time) when each move first shows, so that the
    // test's polling adds nothing to the figure.
    b.js(SEEN_AT);
    for (k, (i, san)) in FOOLS_MATE.iter().enumerate() {
        if k > 0 {
            m.play(*i, "expect respond");
        }
        let before = b.js("return Date.now();").as_f64().unwrap();
        m.play(*i, &format!("reply {san}"));
        let seen = b.wait_js(
            PLAY,
            san,
            &format!("return window.seenAt['{san}'] || null;"),
        );
        let took = seen.as_f64().unwrap() - before;
        assert!(took < 1000.0, "{san} took {took} ms to appear");
    }
    assert_eq!(b.js("return window.notReloaded === true;"), true);
    // The finished game shows its result, the king in check marked.
    let result = b.wait_js(
        START,
        "the result",
        &format!(
            "const t = {}; return t && t.startsWith('0-1') ? t : null;",
            text_of(".result")
        ),
    );
    assert!(result.as_str().unwrap().contains("mates"), "{result}");
    b.wait_js(
        START,
        "the check",
        "return document.querySelector('cg-board square.check') !== null;",
    );
    assert_eq!(b.alert_text(), None);
    let (dir, _keep) = screenshot_dir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("web-hostile-name.png"), b.screenshot()).unwrap();
}

#[test]
fn the_page_fits_a_projector_and_a_phone() {
    // Slow enough moves that a screenshot falls between two animations.
    let (_demo, addr) = demo(&["--think-ms", "1000", "--seed", "3"]);
    wait_state(&addr, "twelve moves", |s| plies(s) >= 12);
    let b = browser_or_skip!(1920, 1080);
    let (dir, _keep) = screenshot_dir();
    std::fs::create_dir_all(&dir).unwrap();
    for (name, w, h, mobile) in [
        ("web-projector.png", 1920, 1080, false),
        ("web-phone.png", 390, 844, true),
    ] {
        b.viewport(w, h, mobile);
        b.goto(&format!("http://{addr}/"));
        b.wait_js(
            START,
            "the pieces",
            "return document.querySelectorAll('cg-board piece').length > 0;",
        );
        b.wait_js(
            START,
            "the moves",
            "return document.querySelectorAll('.moves .san').length >= 12;",
        );
        // The whole board is in view, and not tiny.
        let rect = b.js("const r = document.querySelector('cg-board').getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];");
        let r: Vec<f64> = rect
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let (w, h) = (f64::from(w), f64::from(h));
        assert!(
            r[0] >= 0.0 && r[1] >= 0.0 && r[2] <= w && r[3] <= h,
            "{name}: the board {r:?} is not all in {w}x{h}"
        );
        assert!(
            r[2] - r[0] >= 0.5 * w.min(h),
            "{name}: the board {r:?} is small for {w}x{h}"
        );
        // No sideways scrolling.
        assert_eq!(
            b.js("return document.documentElement.scrollWidth <= window.innerWidth;"),
            true,
            "{name}"
        );
        // Right after a move has shown and its animation ended.
        let count = "return document.querySelectorAll('.moves .san').length";
        let n = b.js(count);
        b.wait_js(PLAY, "a new move", &format!("{count} > {n};"));
        std::thread::sleep(Duration::from_millis(400));
        std::fs::write(dir.join(name), b.screenshot()).unwrap();
    }
}

/// A board for [`several_boards_with_standings_and_one_clicked_large`].
fn board(n: u32, white: &str, black: &str) -> argus::web::BoardState {
    use argus::web::state::ClockState;
    let clock = ClockState {
        remaining_ms: Some(60_000),
        running: false,
        flagged: false,
    };
    argus::web::BoardState {
        board: n,
        game: n,
        games_total: None,
        white: white.into(),
        black: black.into(),
        phase: "playing",
        paused: None,
        fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
        turn: "black",
        check: false,
        last_move: Some(["e2".into(), "e4".into()]),
        clocks: [clock, clock],
        time_control: "60".into(),
        moves: vec!["e4".into()],
        first_move_number: 1,
        black_first: false,
        result: None,
        plies: vec![],
        analysis: [None, None],
        pv_arrows: vec![],
    }
}

/// A knockout's bracket on the page, from the state's `knockout` data: a
/// row per match with the seeds, each stage's score, who went on and how,
/// and the winner; a hostile name stays text.
#[test]
fn a_knockouts_bracket_is_drawn_match_by_match() {
    use argus::tournament::knockout::{BracketData, MatchData, RoundData, SideData, StageScore};
    let b = browser_or_skip!(1280, 800);
    let mut served = argus::web::serve("127.0.0.1:0", argus::web::Limits::default()).unwrap();
    let side = |seed, name: &str| {
        Some(SideData {
            seed,
            name: name.into(),
        })
    };
    let score = |stage: &str, a, b| StageScore {
        stage: stage.into(),
        halves: [a, b],
    };
    let m = |sides, scores, winner: &str, by: &str| MatchData {
        sides,
        scores,
        winner_side: Some(0),
        winner: Some(winner.into()),
        decided_by: Some(by.into()),
        games: Vec::new(),
    };
    let bracket = BracketData {
        games_per_match: 2,
        tiebreak: Some("2@1+0.01".into()),
        round_count: 2,
        rounds: vec![
            RoundData {
                round: 1,
                name: "semi-finals".into(),
                matches: vec![
                    m([side(1, "Alpha"), None], vec![], "Alpha", "bye"),
                    m(
                        [side(2, super::HOSTILE), side(3, "Gamma")],
                        vec![
                            score("regular", 2, 2),
                            score("tiebreak 1", 2, 2),
                            score("armageddon", 1, 1),
                        ],
                        super::HOSTILE,
                        "armageddon",
                    ),
                ],
            },
            RoundData {
                round: 2,
                name: "final".into(),
                matches: vec![m(
                    [side(1, "Alpha"), side(2, super::HOSTILE)],
                    vec![score("regular", 3, 1)],
                    "Alpha",
                    "score",
                )],
            },
        ],
        winner: Some("Alpha".into()),
        over: true,
    };
    let state = argus::web::WebState {
        event: "Knockout".into(),
        boards: vec![board(1, "Alpha", super::HOSTILE)],
        knockout: Some(bracket),
        ..Default::default()
    };
    served.publisher.publish(
        state,
        Default::default(),
        Vec::new(),
        std::time::Instant::now(),
    );
    b.goto(&format!("http://{}/", served.addr));
    let rows = b.wait_js(
        START,
        "the bracket",
        "const r = [...document.querySelectorAll('#bracket tbody tr')].map(tr => [...tr.cells].map(c => c.textContent)); return r.length === 3 ? r : null;",
    );
    let h = super::HOSTILE;
    assert_eq!(
        rows,
        serde_json::json!([
            ["semi-finals", "1", "Alpha (1)", "bye", "", "Alpha", "bye"],
            [
                "semi-finals",
                "2",
                format!("{h} (2)"),
                "Gamma (3)",
                "1-1, tiebreak 1 1-1, armageddon ½-½",
                h,
                "armageddon"
            ],
            [
                "final",
                "1",
                "Alpha (1)",
                format!("{h} (2)"),
                "1½-½",
                "Alpha",
                "score"
            ],
        ])
    );
    assert_eq!(
        b.js("return document.querySelector('#bracket .winner').textContent;"),
        "Winner: Alpha"
    );
    assert_eq!(b.js("return document.querySelectorAll('img').length;"), 0);
    assert_eq!(b.alert_text(), None, "a name ran as markup");
}

/// The page as a tournament will publish it (the library's server, fed
/// by hand): every board, the standings, a board clicked large and back.
#[test]
fn several_boards_with_standings_and_one_clicked_large() {
    use argus::web::state::{StandingRow, Standings};
    let b = browser_or_skip!(1280, 800);
    let mut served = argus::web::serve("127.0.0.1:0", argus::web::Limits::default()).unwrap();
    let row = |name: &str, rank, points_halves, cells: [Option<&str>; 3]| StandingRow {
        name: name.into(),
        rank,
        points_halves,
        games: 2,
        tiebreaks: Vec::new(),
        cells: cells.iter().map(|c| c.map(str::to_string)).collect(),
    };
    let state = argus::web::WebState {
        event: "Round robin".into(),
        boards: vec![
            board(1, "Alpha", "Beta"),
            board(2, "Gamma", super::HOSTILE),
            board(3, "Eta", "Theta"),
        ],
        knockout: None,
        standings: Some(Standings {
            rows: vec![
                row("Alpha", 1, 3, [None, Some("1"), Some("½")]),
                row(super::HOSTILE, 2, 2, [Some("0"), None, Some("1")]),
                row("Gamma", 3, 1, [Some("½"), Some("0"), None]),
            ],
        }),
        waiting: vec![format!("waiting for {} since 13:05:02", super::HOSTILE)],
        ..Default::default()
    };
    served.publisher.publish(
        state,
        Default::default(),
        Vec::new(),
        std::time::Instant::now(),
    );
    b.goto(&format!("http://{}/", served.addr));
    b.wait_js(
        START,
        "three boards",
        "return document.querySelectorAll('.card').length === 3;",
    );
    let rows = b.wait_js(
        START,
        "the standings",
        "const r = [...document.querySelectorAll('#standings tbody tr')].map(tr => tr.textContent); return r.length === 3 ? r : null;",
    );
    assert_eq!(
        rows,
        serde_json::json!(["1Alpha1.52", format!("2{}12", super::HOSTILE), "3Gamma0.52"])
    );
    // The crosstable: the same players, each cell the row's results
    // against the column's; the hostile name is text there too.
    let cross = b.wait_js(
        START,
        "the crosstable",
        "const r = [...document.querySelectorAll('#crosstable tr')].map(tr => tr.textContent); return r.length === 4 ? r : null;",
    );
    assert_eq!(
        cross,
        serde_json::json!([
            "#player123points",
            "1Alpha×1½1.5",
            format!("2{}0×11", super::HOSTILE),
            "3Gamma½0×0.5"
        ])
    );
    assert_eq!(
        b.js("return document.querySelector('#crosstable tbody tr:nth-child(2) td:nth-child(2)').textContent;"),
        super::HOSTILE
    );
    // Whom the tournament waits for, as text.
    assert_eq!(
        b.js(
            "const w = document.querySelector('#waiting'); return w.hidden ? null : w.textContent;"
        ),
        format!("waiting for {} since 13:05:02", super::HOSTILE)
    );
    assert_eq!(b.js("return document.querySelectorAll('img').length;"), 0);
    assert_eq!(b.alert_text(), None, "a name ran as markup");
    let (dir, _keep) = screenshot_dir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("web-boards.png"), b.screenshot()).unwrap();
    // Board 2 clicked: it alone, large; Escape: all three again.
    b.js("document.querySelector('.card[data-board=\"2\"]').click(); return null;");
    let shown = "return [...document.querySelectorAll('.card')].filter(c => c.offsetParent !== null).map(c => c.dataset.board);";
    assert_eq!(b.js(shown), serde_json::json!(["2"]));
    let width = b.js("return document.querySelector('.card[data-board=\"2\"] cg-board').getBoundingClientRect().width;");
    assert!(
        width.as_f64().unwrap() > 500.0,
        "the clicked board is {width} px wide"
    );
    b.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'})); return null;");
    assert_eq!(b.js(shown), serde_json::json!(["1", "2", "3"]));
}

/// The page shows the state from `/state.json` as it loads, before (and
/// here without) the stream: its one viewer's place is taken, so the
/// stream is refused.
#[test]
fn the_page_shows_the_boards_at_once_without_waiting_for_the_stream() {
    let b = browser_or_skip!(1280, 800);
    let limits = argus::web::Limits {
        viewers: 1,
        ..argus::web::Limits::default()
    };
    let mut served = argus::web::serve("127.0.0.1:0", limits).unwrap();
    let addr = served.addr.to_string();
    let state = argus::web::WebState {
        event: "At once".into(),
        boards: vec![
            board(1, "Alpha", super::HOSTILE),
            board(2, "Gamma", "Delta"),
        ],
        knockout: None,
        standings: None,
        waiting: Vec::new(),
        ..Default::default()
    };
    served.publisher.publish(
        state,
        Default::default(),
        Vec::new(),
        std::time::Instant::now(),
    );
    // The one viewer: the stream, read up to its first state.
    let _viewer = super::viewer(&addr);
    let refused = crate::common::http::request(&addr, "GET", "/events");
    assert_eq!(refused.status, 503, "{}", refused.head);
    b.goto(&format!("http://{addr}/"));
    b.wait_js(
        START,
        "two boards from /state.json",
        "return document.querySelectorAll('.card').length === 2 && document.querySelectorAll('cg-board piece').length === 64;",
    );
    assert_eq!(b.js(&get_text("#event")), "At once");
    assert_eq!(
        b.js(&get_text(".card[data-board=\"1\"] .top .name")),
        super::HOSTILE
    );
    assert_ne!(
        b.js(&get_text("#link")),
        "live",
        "the stream was refused, yet the page says it is live"
    );
    assert_eq!(b.js("return document.querySelectorAll('img').length;"), 0);
}

#[test]
fn a_tournament_shows_all_its_boards_and_the_standings() {
    let logs = tempfile::tempdir().unwrap();
    let mut p = super::tournament(logs.path(), &["--http", "127.0.0.1:0"]);
    let addr = super::served_addr(&mut p);
    // Two boards at once, each game by its number in the tournament, and
    // the standings of all four.
    let s = wait_state(&addr, "two boards", |s| {
        s["boards"].as_array().map_or(0, Vec::len) == 2
    });
    assert_eq!(
        s["standings"]["rows"].as_array().map(Vec::len),
        Some(4),
        "{s}"
    );
    let games: Vec<u64> = s["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["game"].as_u64().unwrap())
        .collect();
    assert!(games.iter().all(|g| (1..=12).contains(g)), "{games:?}");
    assert!(s["boards"][0]["games_total"].is_null(), "{s}");
    let b = browser_or_skip!(1280, 800);
    b.goto(&format!("http://{addr}/"));
    b.wait_js(
        START,
        "two boards",
        "return document.querySelectorAll('.card').length === 2;",
    );
    b.wait_js(
        START,
        "four players in the standings",
        "return document.querySelectorAll('#standings tbody tr').length === 4;",
    );
    b.wait_js(
        START,
        "four players in the crosstable",
        "return document.querySelectorAll('#crosstable tbody tr').length === 4;",
    );
    // A game decided: the standings on the page count it.
    b.wait_js(
        PLAY,
        "a decided game in the standings",
        "return [...document.querySelectorAll('#standings tbody tr')].some(tr => tr.lastChild.textContent !== '0');",
    );
    let (dir, _keep) = screenshot_dir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("web-tournament.png"), b.screenshot()).unwrap();
    p.kill();
}

/// A finished board after a long game: `plies` moves, the last one marked.
fn long_board(n: u32, plies: usize) -> argus::web::BoardState {
    let mut b = board(n, "Alpha", "Beta");
    let sans = ["Nf3", "Nf6", "Ng1", "Ng8"];
    b.moves = (0..plies).map(|i| sans[i % 4].to_string()).collect();
    b.moves.push("Qxf7#".into());
    b.phase = "over";
    b.result = Some(argus::web::state::ResultState {
        result: "1-0".into(),
        termination: "normal".into(),
        reason: "Black was checkmated".into(),
    });
    b
}

/// Where each card's board and move list are, at the window's size now:
/// `[board inside its card, no move list scrolls sideways, the last move
/// in view in its list (a list no higher than the window)]`, one per card.
const LAYOUT: &str = "
    const inside = (a, b) => a.left >= b.left - 1 && a.top >= b.top - 1
        && a.right <= b.right + 1 && a.bottom <= b.bottom + 1;
    return [...document.querySelectorAll('.card')].map(card => {
        const c = card.getBoundingClientRect();
        const board = card.querySelector('cg-container').getBoundingClientRect();
        const list = card.querySelector('.moves');
        const last = card.querySelector('.moves .san.last').getBoundingClientRect();
        return [inside(board, c), list.scrollWidth <= list.clientWidth + 1,
            inside(last, list.getBoundingClientRect()) && list.clientHeight <= window.innerHeight];
    });";

/// At the common window sizes, each board stays inside its card and each
/// move list wraps and shows its latest move (it used to scroll sideways
/// and show the first moves, on a phone and on finished boards): with two
/// boards and the standings, and with one board (a match).
#[test]
fn boards_stay_in_their_cards_and_move_lists_show_the_latest_move() {
    use argus::web::state::{StandingRow, Standings};
    let b = browser_or_skip!(1280, 900);
    let mut served = argus::web::serve("127.0.0.1:0", argus::web::Limits::default()).unwrap();
    let row = |name: &str, rank| StandingRow {
        name: name.into(),
        rank,
        points_halves: 1,
        games: 1,
        tiebreaks: Vec::new(),
        cells: vec![None, Some("½".into())],
    };
    let two = argus::web::WebState {
        event: "Long games".into(),
        boards: vec![long_board(1, 120), long_board(2, 81)],
        knockout: None,
        standings: Some(Standings {
            rows: vec![row("Alpha", 1), row("Beta", 1)],
        }),
        waiting: Vec::new(),
        ..Default::default()
    };
    let one = argus::web::WebState {
        event: "A match".into(),
        boards: vec![long_board(1, 150)],
        knockout: None,
        standings: None,
        waiting: Vec::new(),
        ..Default::default()
    };
    for (what, state, cards) in [("two boards", two, 2), ("one board", one, 1)] {
        served.publisher.publish(
            state,
            Default::default(),
            Vec::new(),
            std::time::Instant::now(),
        );
        for (w, h, mobile) in [
            (1280, 900, false),
            (1366, 768, false),
            (1920, 1080, false),
            (390, 844, true),
        ] {
            b.viewport(w, h, mobile);
            b.goto(&format!("http://{}/", served.addr));
            b.wait_js(
                START,
                "the boards",
                &format!(
                    "return document.querySelectorAll('.card').length === {cards} \
                     && document.querySelectorAll('cg-board piece').length === {};",
                    32 * cards
                ),
            );
            // (Let the layout settle: the standings, a scrollbar.)
            std::thread::sleep(Duration::from_millis(300));
            let layout = b.js(LAYOUT);
            for card in layout.as_array().unwrap() {
                assert_eq!(
                    card,
                    &serde_json::json!([true, true, true]),
                    "{what} at {w}x{h}: [board in its card, no sideways scroll, last move in view]: {layout}"
                );
            }
        }
    }
}

/// Once a tournament is over its page stays (it used to go two seconds
/// after "tournament over"): a reload shows the final standings, until
/// `--http-linger` has passed and argus ends.
#[test]
fn the_page_stays_after_the_tournament_with_its_final_standings() {
    let b = browser_or_skip!(1280, 900);
    let logs = tempfile::tempdir().unwrap();
    let mut args: Vec<String> = [
        "tournament",
        "mover:alpha",
        "mover:beta=greedy",
        "mover:gamma",
        "--headless",
        "--reset-delay",
        "0",
        "--conclude-delay",
        "0",
        "--max-moves",
        "15",
        "--http",
        "127.0.0.1:0",
        "--http-linger",
        "15",
        "--log-dir",
    ]
    .map(String::from)
    .to_vec();
    args.push(logs.path().display().to_string());
    let mut p =
        crate::common::process::Proc::spawn("tournament", &crate::common::argus_bin(), &args);
    let addr = super::served_addr(&mut p);
    let said = p.wait_stdout(PLAY, "the page's linger", |l| {
        l.starts_with("the event is over")
    });
    assert!(said.contains(&format!("http://{addr}/")), "{said}");
    assert!(
        said.contains("15 s (--http-linger) or until Ctrl-C"),
        "{said}"
    );
    assert!(p.running(), "argus ended with the tournament");
    // A reload now: the final standings, every game counted.
    b.goto(&format!("http://{addr}/"));
    let rows = b.wait_js(
        START,
        "the final standings",
        "const r = [...document.querySelectorAll('#standings tbody tr')].map(tr => tr.lastChild.textContent); return r.length === 3 ? r : null;",
    );
    assert_eq!(rows, serde_json::json!(["2", "2", "2"]), "games per player");
    assert_eq!(
        b.js("return document.querySelectorAll('#crosstable tbody tr').length;"),
        3
    );
    // --http-linger ends it.
    assert_eq!(p.wait_exit(PLAY), 0, "{}", p.describe());
}

/// A match played out keeps its page, result shown, until Ctrl-C ends
/// argus, and says so.
#[test]
fn a_match_played_out_keeps_its_page_until_ctrl_c() {
    let (mut p, addr) = demo(&["--games", "1", "--think-ms", "0"]);
    let said = p.wait_stdout(PLAY, "the page's linger", |l| {
        l.starts_with("the event is over")
    });
    assert!(said.ends_with("until Ctrl-C ends argus"), "{said}");
    let s = super::state(&addr);
    assert!(!s["boards"][0]["result"].is_null(), "{s}");
    assert_eq!(s["boards"][0]["phase"], "finished", "{s}");
    // A match's board says its game of the match's games (game 1 of 1).
    assert_eq!(s["boards"][0]["games_total"], 1, "{s}");
    assert!(p.running(), "argus ended with the match");
    p.interrupt();
    assert_eq!(p.wait_exit(START), 0, "{}", p.describe());
}
