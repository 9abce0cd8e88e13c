//! The engines' evaluations on the audience's page, in headless Chromium:
//! a Stockfish game's graph, side panels and PV arrows agree with what the
//! engines said (as the live PGN records it), and a game between programs
//! that send no `ce` shows no evaluation and no error.

use std::time::{Duration, Instant};

use argus::game::parse_san;
use argus::record::pgn_read::read_pgn_games;
use argus::web::analysis::{ARROWS, PV_PUBLISHED};
use serde_json::Value;
use shakmaty::{Chess, Position};

use super::{PLAY, START, demo, plies, served_addr, strings, wait_state};
use crate::common::argus_bin;
use crate::common::http::get;
use crate::common::process::Proc;

/// What one move's PGN comment says of the engine's evaluation: its depth,
/// nodes and PV (`+0.35/12 0.50s, n=..., pv="e4 e5"`); `None` when it
/// carries no score.
fn said(comment: &str) -> Option<Eval> {
    // The PGN writer wraps long comments.
    let comment = comment.split_whitespace().collect::<Vec<_>>().join(" ");
    let first = comment.chars().next()?;
    if !(first == '+' || first == '-' || first.is_ascii_digit()) {
        return None;
    }
    let head = comment.split(' ').next().unwrap_or("");
    let depth = head.split_once('/').map(|(_, d)| d.to_string());
    let nodes = comment
        .split_once(", n=")
        .map(|(_, rest)| rest.split([',', ' ']).next().unwrap_or("").to_string());
    let pv = comment
        .split_once("pv=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map(|(pv, _)| pv.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    Some((depth, nodes, pv))
}

/// Depth, nodes and PV, as the PGN comment gives them.
type Eval = (Option<String>, Option<String>, Vec<String>);

/// The live game as its PGN has it: the moves, and for each the
/// evaluation its comment carries.
type Said = (Vec<String>, Vec<Option<Eval>>);

fn live_game(addr: &str, game: u64) -> Said {
    let text = get(addr, &format!("/game/{game}.pgn"));
    let games = read_pgn_games(&text).expect("the live PGN reads");
    let g = &games[0];
    let moves = g.tree.moves.iter().map(|m| m.san.clone()).collect();
    let evals = g
        .tree
        .moves
        .iter()
        .map(|m| m.comments.first().and_then(|c| said(c)))
        .collect();
    (moves, evals)
}

/// The page now: the graph's points, each panel's depth, nodes and PV (White's
/// then Black's; `null` for a hidden panel), the arrows drawn on the board
/// (x1, y1, x2, y2 in chessground's -4..4 board units), the moves shown
/// and whether each chart shows.
const PAGE: &str = "
    const q = (s) => [...document.querySelectorAll(s)];
    return {
        points: q('.eval-graph circle.pt').length,
        panels: q('.panel').map(p => p.hidden || p.closest('.evals').hidden ? null :
            [p.querySelector('.ev-meta').dataset.depth, p.querySelector('.ev-meta').dataset.nodes,
             q('.san').filter(e => p.contains(e)).map(e => e.textContent).join(' ')]),
        arrows: q('svg.cg-shapes line').map(l => ['x1', 'y1', 'x2', 'y2'].map(a => Number(l.getAttribute(a)))),
        moves: q('.moves .san').length,
        graph: !document.querySelector('.eval-chart').hidden,
        times: !document.querySelector('.time-chart').hidden,
    };";

/// The centre of `square` in chessground's board units, White at the
/// bottom.
fn centre(square: shakmaty::Square) -> (f64, f64) {
    let file = f64::from(u32::from(square.file()));
    let rank = f64::from(u32::from(square.rank()));
    (file - 3.5, 3.5 - rank)
}

/// Whether the page agrees with the live game `(moves, evals)`: one point
/// per scored move, each side's panel with the depth and PV of its last
/// scored move (its depth, nodes, and PV as far as the page publishes it), and the last
/// mover's PV past its move drawn as an arrow
/// from its square towards its target. `None` when it does; else what
/// differs.
fn disagreement(page: &Value, game: &Said) -> Option<String> {
    let (moves, evals) = game;
    if page["moves"].as_u64() != Some(moves.len() as u64) {
        return Some(format!("{} moves in the PGN", moves.len()));
    }
    let scored = evals.iter().flatten().count();
    if page["points"].as_u64() != Some(scored as u64) {
        return Some(format!("{scored} scored moves in the PGN"));
    }
    for side in 0..2 {
        let last = (0..moves.len())
            .rev()
            .filter(|i| i % 2 == side)
            .find_map(|i| evals[i].as_ref());
        let want = last.map(|(d, n, pv)| {
            Value::from(vec![
                Value::from(d.clone().unwrap_or_default()),
                Value::from(n.clone().unwrap_or_default()),
                Value::from(pv[..pv.len().min(PV_PUBLISHED)].join(" ")),
            ])
        });
        if page["panels"][side] != want.unwrap_or(Value::Null) {
            return Some(format!("side {side}'s last evaluation {last:?}"));
        }
    }
    // The last mover's PV past its move, from the position now: its
    // next ARROWS moves, each an arrow, and no other arrow.
    let mut pos = Chess::default();
    for m in moves {
        let mv = parse_san(&pos, m).expect("the PGN's moves are legal");
        pos.play_unchecked(mv);
    }
    let pv = evals
        .last()
        .and_then(|e| e.as_ref())
        .map(|(_, _, pv)| pv.clone())
        .unwrap_or_default();
    let mut want = Vec::new();
    for san in pv.iter().skip(1).take(ARROWS) {
        let mv = parse_san(&pos, san).expect("the PV's moves are legal");
        want.push((centre(mv.from().unwrap()), centre(mv.to())));
        pos.play_unchecked(mv);
    }
    let drawn: Vec<Vec<f64>> = page["arrows"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter_map(|a| Some(a.as_array()?.iter().filter_map(Value::as_f64).collect()))
        .collect();
    let found = want.iter().all(|((fx, fy), (tx, ty))| {
        drawn.iter().any(|v| {
            v.len() == 4
                && (v[0] - fx).abs() < 0.01
                && (v[1] - fy).abs() < 0.01
                && (v[2] - tx).abs() < 0.6
                && (v[3] - ty).abs() < 0.6
        })
    });
    (!found || drawn.len() != want.len()).then(|| {
        format!(
            "arrows for {:?} of {pv:?}, drawn {drawn:?}",
            &pv[1.min(pv.len())..]
        )
    })
}

#[test]
fn a_stockfish_game_shows_its_scores_panels_and_pv_arrows() {
    let Some(sf) = crate::common::tool::stockfish() else {
        return;
    };
    let logs = tempfile::tempdir().unwrap();
    let mut args = vec![
        "tournament".to_string(),
        format!("engine:Stockfish-1={sf}"),
        format!("engine:Stockfish-2={sf}"),
    ];
    args.extend(strings(&[
        "--engine-option",
        "Stockfish-1:Threads=1",
        "--engine-option",
        "Stockfish-2:Threads=1",
        "--engine-option",
        "Stockfish-1:Hash=16",
        "--engine-option",
        "Stockfish-2:Hash=16",
        "--tc",
        "60+1",
        "--headless",
        "--http",
        "127.0.0.1:0",
        "--log-dir",
    ]));
    args.push(logs.path().display().to_string());
    let mut p = Proc::spawn("tournament", &argus_bin(), &args);
    let addr = served_addr(&mut p);
    let b = browser_or_skip!(1920, 1080);
    b.goto(&format!("http://{addr}/"));
    // Some moves into the game, each with Stockfish's score.
    let s = wait_state(&addr, "six moves", |s| plies(s) >= 6);
    let game = s["boards"][0]["game"].as_u64().unwrap();
    // The page and the live PGN read one after the other agree once the
    // page has the latest state (an engine's move takes about a second).
    let deadline = Instant::now() + PLAY;
    let mut agreed = 0;
    let mut last = String::new();
    while agreed < 3 {
        let page = b.js(PAGE);
        let said = live_game(&addr, game);
        match disagreement(&page, &said) {
            None if said.1.iter().flatten().count() >= 6 => agreed += 1,
            None => {}
            Some(why) => last = format!("{why}; page {page}"),
        }
        assert!(
            Instant::now() < deadline,
            "the page never agreed with the live PGN: {last}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    assert_eq!(
        b.js("return document.querySelectorAll('.eval-chart:not([hidden])').length;"),
        1
    );
    let (dir, _keep) = super::page::screenshot_dir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("web-eval-1920.png"), b.screenshot()).unwrap();
    b.viewport(390, 844, true);
    b.wait_js(
        START,
        "one column",
        "return document.querySelector('.eval-graph').getBoundingClientRect().width < 390;",
    );
    // The board's lower half, the panels and the graphs in view.
    b.js("window.scrollTo(0, document.querySelector('.evals').getBoundingClientRect().top + window.scrollY - 420); return null;");
    std::thread::sleep(Duration::from_millis(500));
    std::fs::write(dir.join("web-eval-390.png"), b.screenshot()).unwrap();
    // Switched off, the arrows go; the switch is remembered on reload.
    b.js("document.querySelector('.arrows-toggle input').click(); return null;");
    let none = "return document.querySelectorAll('svg.cg-shapes line').length === 0;";
    b.wait_js(START, "no arrows once switched off", none);
    b.goto(&format!("http://{addr}/"));
    b.wait_js(
        START,
        "the board",
        "return document.querySelectorAll('.moves .san').length > 0;",
    );
    assert_eq!(
        b.js("return document.querySelector('.arrows-toggle input').checked;"),
        false
    );
    b.wait_js(
        START,
        "a move drawn after the reload",
        "return window.seen = document.querySelectorAll('.moves .san').length;",
    );
    let seen = b.js("return window.seen;");
    b.wait_js(
        PLAY,
        "another move",
        &format!("return document.querySelectorAll('.moves .san').length > {seen};"),
    );
    assert_eq!(b.js(none), true);
    p.kill();
}

#[test]
fn a_game_without_ce_shows_no_evaluation_and_no_error() {
    let (mut p, addr) = demo(&[]);
    let b = browser_or_skip!(1280, 800);
    b.goto(&format!("http://{addr}/"));
    b.wait_js(
        START,
        "the board",
        "return document.querySelectorAll('cg-board piece').length > 0;",
    );
    // Every state from here on is drawn with an eye on errors.
    b.js(
        "window.errors = []; window.addEventListener('error', e => window.errors.push(String(e.message))); return null;",
    );
    let s = wait_state(&addr, "four moves", |s| plies(s) >= 4);
    assert!(
        s["boards"][0]["analysis"] == serde_json::json!([null, null]),
        "{s}"
    );
    let shown = plies(&s) + 2;
    b.wait_js(
        PLAY,
        "two more moves on the page",
        &format!("return document.querySelectorAll('.moves .san').length >= {shown};"),
    );
    let page = b.js(PAGE);
    assert_eq!(page["points"], 0, "{page}");
    assert_eq!(page["graph"], false, "{page}");
    assert_eq!(page["panels"], serde_json::json!([null, null]), "{page}");
    assert_eq!(page["arrows"], serde_json::json!([]), "{page}");
    // The referee's own times are shown: the demo is timed.
    assert_eq!(page["times"], true, "{page}");
    assert_eq!(b.js("return window.errors;"), serde_json::json!([]));
    p.kill();
}
