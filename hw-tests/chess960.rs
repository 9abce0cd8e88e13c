//! Chess960 through argus (docs/chess960.md): Stockfish engines in a
//! tournament and bridged over cables, the built-in movers from double
//! Chess960 positions, and engines that cannot play it refused at their
//! start. Every game is read by python-chess with its Chess960 rules.

use std::path::Path;
use std::time::Duration;

use argus::game::{Variant, chess960_start, double_chess960_start, fen_of};
use argus::record::openings::order_openings;
use serde_json::Value;

use crate::common::process::Proc;
use crate::common::python_chess;
use crate::common::tool::games_program;
use crate::common::{argus_bin, temp_dir};
use crate::engine::{play, side, stockfish, stockfish_tournament};

/// Reads the games of the PGN files as python-chess does: per game its
/// tags, what it found wrong (an illegal move is one), its start position
/// and Scharnagl number (null when the sides' back ranks differ), its
/// castling moves (SAN and king-takes-rook UCI) and its plies.
const READ_960: &str = "import sys, json, chess.pgn\n\
out = []\n\
for path in sys.argv[1:]:\n\
\x20   with open(path) as f:\n\
\x20       while True:\n\
\x20           g = chess.pgn.read_game(f)\n\
\x20           if g is None:\n\
\x20               break\n\
\x20           b = g.board()\n\
\x20           start = {'fen': b.fen(), 'number': b.chess960_pos(), 'chess960': b.chess960}\n\
\x20           castles = []\n\
\x20           plies = 0\n\
\x20           for m in g.mainline_moves():\n\
\x20               if b.is_castling(m):\n\
\x20                   castles.append([b.san(m), b.uci(m, chess960=True)])\n\
\x20               b.push(m)\n\
\x20               plies += 1\n\
\x20           out.append({'headers': dict(g.headers), 'errors': [str(e) for e in g.errors],\n\
\x20                       'start': start, 'castles': castles, 'plies': plies})\n\
print(json.dumps(out))\n";

/// The games of `pgn` (a file) as python-chess reads them, each checked:
/// `Variant "Chess960"`, `SetUp "1"` and a `FEN`, python-chess set up in
/// Chess960 and finding nothing wrong, a result.
fn read_chess960_games(pgn: &Path) -> Vec<Value> {
    let o = python_chess::run(READ_960, &[pgn]);
    assert!(
        o.status.success(),
        "python-chess failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let games: Vec<Value> = serde_json::from_slice(&o.stdout).expect("python's JSON");
    let text = std::fs::read_to_string(pgn).unwrap_or_default();
    assert!(!games.is_empty(), "no game:\n{text}");
    for g in &games {
        let h = &g["headers"];
        assert_eq!(h["Variant"], "Chess960", "{g}\n{text}");
        assert_eq!(h["SetUp"], "1", "{g}\n{text}");
        assert!(h["FEN"].is_string(), "{g}\n{text}");
        assert_eq!(g["start"]["chess960"], true, "{g}");
        assert_eq!(g["errors"], serde_json::json!([]), "{g}\n{text}");
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&h["Result"].as_str().unwrap_or("")),
            "{g}"
        );
    }
    games
}

/// Castling was played in `games`, and each castling move went to an
/// engine (whose traffic is `logs`) as the king taking its rook.
fn castled_and_sent_as_king_takes_rook(games: &[Value], logs: &str) {
    let castles: Vec<&Value> = games
        .iter()
        .flat_map(|g| g["castles"].as_array().unwrap().iter())
        .collect();
    assert!(!castles.is_empty(), "no castling in {games:?}");
    for c in castles {
        let uci = c[1].as_str().unwrap();
        let sent = logs
            .lines()
            .any(|l| l.contains("> position fen") && l.contains(&format!(" {uci}")));
        assert!(sent, "castling {c} never sent as {uci}");
    }
}

/// Two Stockfish engines play ten Chess960 games in a tournament from the
/// start positions `--shuffle 1` draws (`chess960:random`, implied by
/// `--variant chess960`): each opening twice, once with each colour, the
/// positions argus's numbering gives python-chess's too; every game legal
/// by the Chess960 rules; both engines told `UCI_Chess960`; castling
/// played (at 20 000 nodes a move, one thread, the second opening, number
/// 889, has Black castle short with king c8 and rook f8, so the king
/// taking its rook, `c8f8`, is not the king's step to g8), and each
/// castling move sent on to the other engine as the king taking its rook.
#[test]
fn stockfish_plays_chess960_in_a_tournament_and_castles() {
    let Some(sf) = stockfish() else { return };
    if !python_chess::available() {
        return;
    }
    let dir = temp_dir("chess960-sf");
    let d = dir.path();
    stockfish_tournament(
        &sf,
        d,
        &[
            "--variant",
            "chess960",
            "--shuffle",
            "1",
            "--games-per-pairing",
            "10",
            "--nodes",
            "a:20000",
            "--nodes",
            "b:20000",
            "--max-moves",
            "40",
        ],
    );
    let games = read_chess960_games(&d.join("games.pgn"));
    assert_eq!(games.len(), 10);
    let expected: Vec<usize> = order_openings(960, 10, Some(1))
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    for (g, n) in games.iter().zip(&expected) {
        assert_eq!(g["start"]["number"], *n, "{g}");
        let ours = chess960_start(u16::try_from(*n).unwrap()).unwrap();
        assert_eq!(g["headers"]["FEN"], fen_of(&ours).as_str(), "{g}");
    }
    let read = |f: &str| std::fs::read_to_string(d.join("logs").join(f)).unwrap_or_default();
    let logs = read("engine-a.log") + &read("engine-b.log");
    for name in ["a", "b"] {
        let log = read(&format!("engine-{name}.log"));
        assert!(
            log.contains("> setoption name UCI_Chess960 value true"),
            "{log}"
        );
    }
    castled_and_sent_as_king_takes_rook(&games, &logs);
}

/// Over socat cables, two `argus client --engine stockfish` bridges learn
/// the rules from the referee's records alone (`inform`'s `Variant` tag;
/// the position's castling field in X-FEN), from an EPD openings file
/// whose castling field is Shredder-FEN: ten games, every one legal, both engines
/// switched to Chess960, the start position the file's, castling played
/// and relayed to the other engine as the king taking its rook.
#[test]
fn bridged_stockfish_plays_chess960_over_cables() {
    skip_unless_socat!();
    let Some(sf) = stockfish() else { return };
    if !python_chess::available() {
        return;
    }
    let dir = temp_dir("chess960-cables");
    let openings = dir.path().join("frc.epd");
    // Chess960 number 35 (BNNQRKRB: king f1, rooks e1 and g1), castling
    // in Shredder-FEN.
    let start = chess960_start(35).unwrap();
    let placement = fen_of(&start).split(' ').next().unwrap().to_string();
    std::fs::write(&openings, format!("{placement} w GEge - id \"frc 35\";\n")).unwrap();
    let flags = ["--option", "Threads=1", "--nodes", "20000"];
    let played = play(
        side(sf.clone(), &flags),
        side(sf, &flags),
        &[
            "--variant",
            "fischerandom",
            "--openings",
            &openings.display().to_string(),
            "--games",
            "10",
            "--max-moves",
            "40",
        ],
        false,
    );
    let pgn = dir.path().join("games.pgn");
    std::fs::write(&pgn, &played.pgn).unwrap();
    let games = read_chess960_games(&pgn);
    assert_eq!(games.len(), 10, "{}", played.pgn);
    for g in &games {
        assert_eq!(g["start"]["number"], 35, "{g}");
        assert_eq!(g["headers"]["FEN"], fen_of(&start).as_str(), "{g}");
    }
    let mut logs = String::new();
    for name in ["a", "b"] {
        let log = played.file(&format!("engine-{name}.log"));
        assert!(
            log.contains("> setoption name UCI_Chess960 value true"),
            "{log}"
        );
        logs += &log;
    }
    // At 20 000 nodes a move both sides castle from number 35 (as in the
    // tournament above).
    castled_and_sent_as_king_takes_rook(&games, &logs);
    assert_eq!(Variant::of(&start), Variant::Chess960);
}

/// Runs `argus tournament` with `args` in `d` (headless, no delays);
/// returns its exit code and what it printed on standard error. A
/// tournament still running after two minutes fails the test.
fn tournament(d: &Path, args: &[&str]) -> (i32, String) {
    let mut all: Vec<String> = vec!["tournament".into()];
    all.extend(args.iter().map(|a| a.to_string()));
    all.extend(
        [
            "--headless",
            "--reset-delay",
            "0",
            "--conclude-delay",
            "0",
            "--pgn",
        ]
        .map(String::from),
    );
    all.push(d.join("games.pgn").display().to_string());
    all.push("--log-dir".into());
    all.push(d.join("logs").display().to_string());
    let mut t = Proc::spawn("argus tournament", &argus_bin(), &all);
    let code = t.wait_exit(Duration::from_secs(120));
    (code, t.stderr_text())
}

/// The built-in movers play double Chess960 (`dfrc:W:B`: White's back
/// rank number 12, Black's 700): the games start there, with each
/// colour once, and every move is legal by the Chess960 rules.
#[test]
fn movers_play_double_chess960_from_the_positions_asked() {
    if !python_chess::available() {
        return;
    }
    let dir = temp_dir("chess960-movers");
    let d = dir.path();
    let (code, err) = tournament(
        d,
        &[
            "mover:x",
            "mover:y=greedy",
            "--openings",
            "dfrc:12:700",
            "--games-per-pairing",
            "2",
            "--max-moves",
            "60",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let games = read_chess960_games(&d.join("games.pgn"));
    assert_eq!(games.len(), 2);
    let start = fen_of(&double_chess960_start(12, 700).unwrap());
    for g in &games {
        assert_eq!(g["headers"]["FEN"], start.as_str(), "{g}");
        assert_eq!(g["start"]["number"], Value::Null, "{g}");
        assert!(g["plies"].as_u64().unwrap_or(0) > 10, "{g}");
    }
    assert_ne!(games[0]["headers"]["White"], games[1]["headers"]["White"]);
}

/// An engine that cannot play Chess960 is refused before the tournament
/// starts, saying why: Toga II declares no `UCI_Chess960`, HoiChess's
/// `feature variants` lists only `normal`.
#[test]
fn engines_that_cannot_play_chess960_are_refused_at_their_start() {
    let cases = [
        (
            games_program("toga2", "ARGUS_REQUIRE_TOGA2"),
            "uci",
            "it declares no UCI_Chess960 option",
        ),
        (
            games_program("hoichess", "ARGUS_REQUIRE_HOICHESS"),
            "xboard",
            "its feature variants does not list fischerandom (normal)",
        ),
    ];
    for (program, protocol, why) in cases {
        let Some(program) = program else { continue };
        let dir = temp_dir("chess960-refused");
        let (code, err) = tournament(
            dir.path(),
            &[
                &format!("engine:e={program}"),
                "mover:m",
                "--protocol",
                &format!("e:{protocol}"),
                "--variant",
                "chess960",
            ],
        );
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains(&format!(
                "engine \"e\" ({program}): the engine cannot play Chess960: {why}"
            )),
            "{err}"
        );
        assert!(!dir.path().join("games.pgn").exists(), "{err}");
    }
}
