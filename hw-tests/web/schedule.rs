//! A tournament's event on the page, in a real headless browser: the
//! schedule with its pairings, byes and results, a board that keeps its
//! finished game until its next one, and a finished game stepped through
//! move by move (buttons and arrow keys), each position as python-chess
//! plays the game's PGN.

use std::time::{Duration, Instant};

use serde_json::json;

use super::{PLAY, START};
use crate::common::http::{get, request};

/// The board of the step-through view as chessground draws it, as a
/// FEN board field: each piece element's square (`cgKey`) and class.
const DRAWN_BOARD: &str = "
    const letters = { pawn: 'p', knight: 'n', bishop: 'b', rook: 'r', queen: 'q', king: 'k' };
    const grid = Array.from({ length: 8 }, () => Array(8).fill(''));
    for (const p of document.querySelectorAll('#replay cg-board piece')) {
        if (p.classList.contains('ghost') || p.classList.contains('fading') || !p.cgKey) continue;
        const [colour, role] = p.className.split(' ');
        const file = p.cgKey.charCodeAt(0) - 97, rank = Number(p.cgKey[1]) - 1;
        const l = letters[role];
        grid[7 - rank][file] = colour === 'white' ? l.toUpperCase() : l;
    }
    return grid.map((row) => {
        let out = '', empty = 0;
        for (const c of row) {
            if (c === '') { empty++; continue; }
            if (empty) { out += empty; empty = 0; }
            out += c;
        }
        return out + (empty ? empty : '');
    }).join('/');";

/// The board field of the position after each move of `pgn` (the start
/// first), as python-chess plays it.
fn python_positions(pgn: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.pgn");
    std::fs::write(&file, pgn).unwrap();
    let script = "import sys, json, chess.pgn\n\
g = chess.pgn.read_game(open(sys.argv[1]))\n\
b = g.board()\n\
out = [b.board_fen()]\n\
for m in g.mainline_moves():\n\
\x20   b.push(m)\n\
\x20   out.append(b.board_fen())\n\
print(json.dumps(out))\n";
    let o = crate::common::python_chess::run(script, &[&file]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("positions")
}

fn wait_until(what: &str, within: Duration, ok: impl Fn() -> bool) {
    let deadline = Instant::now() + within;
    while !ok() {
        assert!(Instant::now() < deadline, "{what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_schedule_keeps_finished_games_and_steps_through_them() {
    let b = browser_or_skip!(1920, 1080);
    if !crate::common::python_chess::available() {
        return;
    }
    let logs = tempfile::tempdir().unwrap();
    let (mut t, addr) = super::three_movers(logs.path(), "12", "8", &[]);
    b.goto(&format!("http://{addr}/"));
    // The schedule: three rounds, one game and one bye each.
    let rounds = b.wait_js(
        START,
        "the schedule",
        "const r = [...document.querySelectorAll('#schedule details')]; return r.length === 3 ? r.map(d => d.querySelectorAll('tr').length + ':' + d.querySelector('.byes').textContent) : null;",
    );
    let byes: Vec<String> = rounds
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    assert!(byes.iter().all(|r| r.starts_with("1:bye: ")), "{byes:?}");
    // The first game to end: its board is free (8 s until the next game),
    // and the page still shows it with its result, the schedule too.
    let kept = b.wait_js(
        PLAY,
        "a finished game kept on its board after its end",
        "const c = document.querySelector('.card.over'); if (!c) return null; const n = c.querySelector('.game').textContent.replace('game ', ''); const row = document.querySelector('#schedule tr[data-game=\"' + n + '\"]'); return row && row.classList.contains('finished') ? [n, c.querySelector('.result').textContent, row.querySelector('.res').textContent] : null;",
    );
    let result = kept[2].as_str().unwrap();
    assert!(
        kept[1].as_str().unwrap().starts_with(result),
        "the card and the schedule disagree: {kept}"
    );
    // The event ends; the page stays (--http-linger).
    t.wait_stdout(PLAY * 3, "the end", |l| l.contains("the event is over"));
    let pgn_of = |n: u32| get(&addr, &format!("/game/{n}.pgn"));
    let all = get(&addr, "/games.pgn");
    let results: Vec<String> = argus::record::pgn_read::read_pgn_games(&all)
        .unwrap()
        .iter()
        .map(|g| g.tag("Result").unwrap_or("?").to_string())
        .collect();
    assert_eq!(results.len(), 3, "{all}");
    // Every pairing shows its game's result as the PGN has it.
    let shown = b.wait_js(
        START,
        "three results",
        "const r = [...document.querySelectorAll('#schedule tr.finished')].map(tr => tr.dataset.game + ':' + tr.querySelector('.res').textContent); return r.length === 3 ? r : null;",
    );
    let want: Vec<String> = results
        .iter()
        .enumerate()
        .map(|(i, r)| format!("{}:{r}", i + 1))
        .collect();
    assert_eq!(shown, json!(want));
    // The board is free for good: it still shows its last game, ended.
    assert_eq!(
        b.js("return document.querySelectorAll('.card.over').length;"),
        json!(1)
    );
    // Game 2 clicked in the schedule: its view opens at its last move.
    let positions = python_positions(&pgn_of(2));
    let moves = positions.len() - 1;
    assert!(moves >= 2, "{}", pgn_of(2));
    b.js("document.querySelector('#schedule tr[data-game=\"2\"]').click(); return null;");
    b.wait_js(
        START,
        "the step-through view of game 2",
        &format!(
            "const r = document.querySelector('#replay'); return !r.hidden && r.dataset.game === '2' && r.dataset.ply === '{}';",
            moves - 1
        ),
    );
    // The board drawn for move `ply` (-1: the start) once it is `want`
    // (chessground may still be moving a piece); fails after START.
    let drawn = |ply: i64, want: &str| {
        b.wait_js(
            START,
            &format!("move {ply} drawn as {want}"),
            &format!(
                "if (document.querySelector('#replay').dataset.ply !== '{ply}') return null; const got = (() => {{ {DRAWN_BOARD} }})(); return got === '{want}' ? got : null;"
            ),
        );
    };
    drawn(moves as i64 - 1, &positions[moves]);
    // Home: the start; then each ArrowRight a move on, each position as
    // python-chess has it, the graph's mark on the move shown.
    let key = |k: &str| {
        b.js(&format!(
            "document.dispatchEvent(new KeyboardEvent('keydown', {{ key: '{k}' }})); return null;"
        ));
    };
    key("Home");
    drawn(-1, &positions[0]);
    for ply in 0..moves {
        key("ArrowRight");
        drawn(ply as i64, &positions[ply + 1]);
        let marked = b.js("const l = document.querySelector('#replay .moves .san.last'); return l ? l.dataset.ply : null;");
        assert_eq!(marked, json!(ply.to_string()));
    }
    // The buttons and the arrow back.
    key("ArrowLeft");
    drawn(moves as i64 - 2, &positions[moves - 1]);
    b.js("document.querySelector('#replay [data-step=\"first\"]').click(); return null;");
    drawn(-1, &positions[0]);
    b.js("document.querySelector('#replay [data-step=\"next\"]').click(); return null;");
    drawn(0, &positions[1]);
    // A move clicked in the list.
    b.js("document.querySelector('#replay .moves .san[data-ply=\"1\"]').click(); return null;");
    drawn(1, &positions[2]);
    std::thread::sleep(Duration::from_millis(300));
    let (dir, _keep) = super::page::screenshot_dir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("web-schedule-1920.png"), b.screenshot()).unwrap();
    b.viewport(390, 844, true);
    b.js("document.querySelector('#replay').scrollIntoView(); return null;");
    std::thread::sleep(Duration::from_millis(500));
    std::fs::write(dir.join("web-schedule-390.png"), b.screenshot()).unwrap();
    // Escape closes it.
    key("Escape");
    assert_eq!(
        b.js("return document.querySelector('#replay').hidden;"),
        json!(true)
    );
    // A game that never finished has no view.
    assert_eq!(request(&addr, "GET", "/game/9.json").status, 404);
    wait_until("the page is still there", START, || {
        request(&addr, "GET", "/state.json").status == 200
    });
    t.kill();
}
