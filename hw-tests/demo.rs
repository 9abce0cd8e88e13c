//! `argus demo` end to end, as a user sees it: the real binary on a real
//! terminal (a private tmux server), its screen read back with
//! `capture-pane`, keys typed with `send-keys`; and the headless demo's PGN
//! replayed move by move with the crate's own PGN reader and rules.
//!
//! The tmux tests print `SKIPPED` without tmux unless `ARGUS_REQUIRE_TMUX=1`.
//! Every wait is bounded; a failing wait shows the last screen.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::tmux::Tmux;
use argus::game::{AutomaticEnd, Game};
use argus::record::pgn_read::read_pgn_games;
use shakmaty::{Chess, Color, Position};

/// Long enough for a debug build on a busy two-core machine.
const START: Duration = Duration::from_secs(30);
const PLAY: Duration = Duration::from_secs(60);
const EXIT: Duration = Duration::from_secs(30);

const GLYPHS: [char; 12] = ['♔', '♕', '♖', '♗', '♘', '♙', '♚', '♛', '♜', '♝', '♞', '♟'];

fn argus() -> &'static str {
    env!("CARGO_BIN_EXE_argus")
}

/// A demo in tmux; the shell line records the exit status and the terminal
/// modes right after argus ends, then keeps the pane open.
struct Demo {
    /// Dropped first: ends argus and the pane.
    tmux: Tmux,
    status: PathBuf,
    stty: PathBuf,
    /// The working directory, also TMPDIR (argus puts its logs there).
    _cwd: tempfile::TempDir,
}

impl Demo {
    fn start(width: u16, height: u16, args: &str) -> Demo {
        let cwd = tempfile::tempdir().expect("working directory");
        let dir = cwd.path().to_str().expect("UTF-8 path");
        let status = cwd.path().join("status");
        let stty = cwd.path().join("stty");
        for p in [argus(), dir] {
            assert!(!p.contains('\''), "path with a quote: {p}");
        }
        let command = format!(
            "TMPDIR='{dir}' '{bin}' demo {args}; echo $? > '{status}'; \
             stty -a > '{stty}'; echo argus-test-done; sleep 600",
            bin = argus(),
            status = status.display(),
            stty = stty.display(),
        );
        let tmux = Tmux::start(width, height, cwd.path(), &command);
        Demo {
            tmux,
            status,
            stty,
            _cwd: cwd,
        }
    }

    /// Waits for argus to end and checks that it exited 0 and gave the
    /// terminal back: main screen, the board gone, cooked mode with echo.
    fn expect_clean_exit(&self) {
        let status = self.tmux.wait_for_file(&self.status, EXIT);
        assert_eq!(status.trim(), "0", "argus demo exit status");
        let screen = self.tmux.wait_for("the shell line after argus", EXIT, |s| {
            s.contains("argus-test-done")
        });
        assert!(
            !self.tmux.alternate_screen(),
            "still on the alternate screen:\n{screen}"
        );
        assert!(
            !screen.contains("Moves") && !screen.chars().any(|c| GLYPHS.contains(&c)),
            "the board is still shown after exit:\n{screen}"
        );
        assert!(
            screen.contains("argus demo: logs in"),
            "no closing line:\n{screen}"
        );
        assert_eq!(self.tmux.format("#{cursor_flag}"), "1", "cursor hidden");
        let stty = std::fs::read_to_string(&self.stty).expect("stty output");
        let modes: Vec<&str> = stty.split_whitespace().collect();
        for mode in ["icanon", "echo", "isig"] {
            assert!(
                modes.contains(&mode),
                "terminal left without {mode}: {stty}"
            );
        }
    }
}

/// Whether `screen` shows the whole board: file letters in order (`files`
/// is `abcdefgh`, or reversed when flipped), the eight rank numbers, both
/// players with clocks, and the move list and log panes.
fn board_shown(screen: &str, files: &str) -> bool {
    // The label row shares its row with the move list's border.
    let labels = screen.lines().any(|l| {
        l.chars()
            .take_while(|c| !matches!(c, '│' | '┌' | '└'))
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            == files
    });
    let ranks = (1..=8).all(|r| screen.lines().any(|l| l.starts_with(&format!("{r} "))));
    labels
        && ranks
        && clock(screen, Color::White).is_some()
        && clock(screen, Color::Black).is_some()
        && screen.contains("Moves")
        && screen.contains("Log")
}

/// The clock of `color` as drawn below its name: (running, `h:mm:ss`).
fn clock(screen: &str, color: Color) -> Option<(bool, String)> {
    let name = match color {
        Color::White => "White ",
        Color::Black => "Black ",
    };
    let lines: Vec<&str> = screen.lines().collect();
    let i = lines.iter().position(|l| l.starts_with(name))?;
    let line = lines.get(i + 1)?;
    let running = line.starts_with('▸') || line.starts_with('>');
    let time = line
        .trim_start_matches(['▸', '>'])
        .split_whitespace()
        .next()?;
    let parts: Vec<&str> = time.split(':').collect();
    let ok = parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit() || c == '.'));
    ok.then(|| (running, time.to_string()))
}

/// The text of the move list pane (between its borders, right of the board).
fn move_list(screen: &str) -> String {
    let mut text = String::new();
    for line in screen.lines() {
        let cols: Vec<char> = line.chars().collect();
        let bars: Vec<usize> = (0..cols.len()).filter(|&i| cols[i] == '│').collect();
        if let (Some(&first), Some(&last)) = (bars.first(), bars.last())
            && first > 0
            && last > first
        {
            text.extend(&cols[first + 1..last]);
            text.push(' ');
        }
    }
    text
}

/// The number of moves (plies) in the move list.
fn moves_shown(screen: &str) -> usize {
    move_list(screen)
        .split_whitespace()
        .filter(|t| !t.ends_with('.') && !["no", "moves", "yet"].contains(t))
        .filter(|t| t.chars().next().is_some_and(|c| c.is_ascii_alphabetic()))
        .count()
}

/// A match played out on the board view says its score and statistics on
/// the terminal once the board is gone (the last lines drawn vanish with
/// the alternate screen), as `argus referee` always has.
#[test]
fn a_match_played_out_on_the_board_says_its_score_after_the_board_is_gone() {
    skip_unless_tmux!();
    let demo = Demo::start(100, 30, "--games 1 --think-ms 0 --tc 5m+0 --seed 3");
    demo.expect_clean_exit();
    let screen = demo.tmux.screen();
    assert!(
        screen.contains("match over: random mover")
            && screen.contains("stats for random mover: 1 game"),
        "no score after the board:\n{screen}"
    );
}

#[test]
fn board_plays_moves_ticks_clocks_and_quits_cleanly_100x30() {
    skip_unless_tmux!();
    // No increment: a clock that changes is a clock that ran.
    let demo = Demo::start(100, 30, "--think-ms 600 --tc 1m+0 --seed 7");
    let t = &demo.tmux;
    // Before sign-on the board is there but colours are not assigned yet.
    // A frame can be captured half drawn: wait for everything asserted on.
    let first = t.wait_for("the board with both players and kings", START, |s| {
        board_shown(s, "abcdefgh")
            && !s.contains("not assigned yet")
            && s.contains('♔')
            && s.contains('♚')
            && s.lines().any(|l| l.starts_with("White A random mover"))
            && s.lines().any(|l| l.starts_with("Black B greedy mover"))
    });
    assert!(
        t.alternate_screen(),
        "the board is not on the alternate screen"
    );
    assert_eq!(
        t.format("#{cursor_flag}"),
        "0",
        "cursor shown over the board"
    );
    for piece in ['♔', '♚'] {
        assert!(first.contains(piece), "no {piece}:\n{first}");
    }
    assert!(
        first.lines().any(|l| l.starts_with("White A random mover"))
            && first.lines().any(|l| l.starts_with("Black B greedy mover")),
        "players not shown:\n{first}"
    );
    // Squares are coloured (light and dark backgrounds of style.rs).
    let colours = t.screen_with_colours();
    assert!(
        colours.contains("48;5;180") && colours.contains("48;5;137"),
        "no square colours:\n{colours}"
    );

    let screen = t.wait_for("the first move, numbered", PLAY, |s| {
        moves_shown(s) >= 1 && s.contains("1. ")
    });
    let moves = moves_shown(&screen);

    // A running clock ticks: the same side's clock, marked as running,
    // shows two different times.
    let last: std::cell::RefCell<Option<(Color, String)>> = Default::default();
    t.wait_for("a running clock to tick", PLAY, |s| {
        let now = [Color::White, Color::Black]
            .into_iter()
            .find_map(|c| clock(s, c).and_then(|(running, time)| running.then_some((c, time))));
        let ticked = matches!(
            (&*last.borrow(), &now),
            (Some((c0, t0)), Some((c1, t1))) if c0 == c1 && t0 != t1
        );
        *last.borrow_mut() = now;
        ticked
    });
    let playing = t.wait_for("more moves", PLAY, |s| moves_shown(s) > moves);
    // Both players signed on: the status line waits for nobody (the
    // waiting board's "waiting for" is not left on the game's board).
    assert!(
        !playing.contains("waiting for"),
        "the status line still waits for a player who plays:\n{playing}"
    );

    t.send_keys(&["q"]);
    t.wait_for("the quit question", EXIT, |s| s.contains("Quit argus?"));
    t.send_keys(&["y"]);
    demo.expect_clean_exit();
}

#[test]
fn ascii_board_at_80x24_shows_help_flips_and_quits() {
    skip_unless_tmux!();
    let demo = Demo::start(80, 24, "--ascii --think-ms 300 --tc 1m+1");
    let t = &demo.tmux;
    // Both kings are always on the board, as letters. A frame can be
    // captured half drawn, so the wait asks for all of it.
    let kings_as_letters = |s: &str| {
        let board: String = s
            .lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .map(|l| l.chars().take(26).collect::<String>())
            .collect();
        board.contains('K') && board.contains('k')
    };
    let screen = t.wait_for("the board with both kings", START, |s| {
        board_shown(s, "abcdefgh") && kings_as_letters(s)
    });
    assert!(
        !screen.chars().any(|c| GLYPHS.contains(&c)),
        "glyphs in --ascii mode:\n{screen}"
    );

    t.send_keys(&["?"]);
    let lines = [
        "flip the board",
        "pause / resume",
        "adjudicate: draw",
        "quit (y/n",
    ];
    t.wait_for("the whole help", EXIT, |s| {
        lines.iter().all(|l| s.contains(l))
    });
    t.send_keys(&["Escape"]);
    t.wait_for("the help to close", EXIT, |s| !s.contains("flip the board"));

    t.send_keys(&["f"]);
    // Flipped: files run h to a and rank 1 is at the top.
    t.wait_for("the flipped board", EXIT, |s| {
        board_shown(s, "hgfedcba")
            && s.lines()
                .find(|l| l.starts_with(|c: char| c.is_ascii_digit()))
                .is_some_and(|l| l.starts_with("1 "))
    });

    t.send_keys(&["q"]);
    t.wait_for("the quit question", EXIT, |s| s.contains("Quit argus?"));
    t.send_keys(&["n"]);
    t.wait_for("the question to go", EXIT, |s| !s.contains("Quit argus?"));
    t.send_keys(&["q"]);
    t.wait_for("the quit question", EXIT, |s| s.contains("Quit argus?"));
    t.send_keys(&["y"]);
    demo.expect_clean_exit();
}

#[test]
fn too_small_terminal_then_resize_then_ctrl_c_quits_cleanly() {
    skip_unless_tmux!();
    let demo = Demo::start(70, 20, "--think-ms 200 --tc 1m+1");
    let t = &demo.tmux;
    let screen = t.wait_for("the too-small message", START, |s| {
        s.contains("Terminal too small: 70x20")
    });
    assert!(!screen.contains("Moves"), "board drawn anyway:\n{screen}");
    // The quit question is shown even here.
    t.send_keys(&["q"]);
    t.wait_for("the quit question", EXIT, |s| s.contains("Quit argus?"));
    t.send_keys(&["Escape"]);
    t.wait_for("the question to go", EXIT, |s| !s.contains("Quit argus?"));

    // Bigger: the board comes, with the largest squares.
    t.resize(200, 60);
    t.wait_for("the board after a resize, squares 9 wide", START, |s| {
        board_shown(s, "abcdefgh")
            && s.lines()
                .find(|l| l.trim_start().starts_with("a "))
                .is_some_and(|l| l.contains("a        b"))
    });

    // In raw mode Ctrl-C is a key: once asks, twice quits.
    t.send_keys(&["C-c"]);
    t.wait_for("the quit question", EXIT, |s| s.contains("Quit argus?"));
    t.send_keys(&["C-c"]);
    demo.expect_clean_exit();
}

/// Runs `argus` with `args` and returns (exit code, stdout); kills it
/// after `within`.
fn run_argus(args: &[&str], cwd: &Path, within: Duration) -> (i32, String) {
    let mut child = Command::new(argus())
        .args(args)
        .current_dir(cwd)
        // argus demo puts its logs in the temporary directory.
        .env("TMPDIR", cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start argus");
    let mut out = child.stdout.take().expect("stdout");
    let reader = thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + within;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for argus") {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("argus {args:?} still running after {within:?}");
        }
        thread::sleep(Duration::from_millis(50));
    };
    let stdout = reader.join().expect("stdout reader");
    (status.code().unwrap_or(-1), stdout)
}

/// Points for White from a PGN result, in half points.
fn white_halves(result: &str) -> u32 {
    match result {
        "1-0" => 2,
        "1/2-1/2" => 1,
        _ => 0,
    }
}

#[test]
fn headless_three_games_are_legal_and_their_results_consistent() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let pgn = dir.path().join("demo.pgn");
    let (code, stdout) = run_argus(
        &[
            "demo",
            "--headless",
            "--games",
            "3",
            "--seed",
            "1",
            "--think-ms",
            "5",
            "--tc",
            "1m+1",
            "--pgn",
            pgn.to_str().expect("UTF-8 path"),
        ],
        dir.path(),
        Duration::from_secs(180),
    );
    assert_eq!(code, 0, "exit status; stdout:\n{stdout}");
    let text = std::fs::read_to_string(&pgn).expect("the PGN file");
    let games = read_pgn_games(&text).expect("the PGN reads back");
    assert_eq!(games.len(), 3, "{text}");

    let mut a_halves = 0;
    for (i, g) in games.iter().enumerate() {
        let number = i + 1;
        let tag = |name: &str| {
            g.tag(name)
                .unwrap_or_else(|| panic!("game {number}: no {name} tag"))
        };
        // Colours alternate, A (the random mover) White in game 1.
        let (white, black) = if i % 2 == 0 {
            ("random mover", "greedy mover")
        } else {
            ("greedy mover", "random mover")
        };
        assert_eq!(
            (tag("White"), tag("Black")),
            (white, black),
            "game {number}"
        );
        assert_eq!(tag("Round"), number.to_string(), "game {number}");
        let result = tag("Result");
        assert_eq!(
            g.result.as_deref(),
            Some(result),
            "game {number}: marker vs tag"
        );
        assert_ne!(result, "*", "game {number} has no result");

        // Every move is legal and written in canonical SAN.
        let mut game = Game::new(Chess::default());
        let mut claimable = [false, false];
        for (ply, san) in g.sans.iter().enumerate() {
            claimable = [claimable[1], game.claimable_draw().is_some()];
            game.play_san(san)
                .unwrap_or_else(|e| panic!("game {number}, ply {}: {san}: {e}", ply + 1));
            assert_eq!(
                game.sans().last(),
                Some(san),
                "game {number}: SAN not canonical"
            );
        }
        claimable = [claimable[1], game.claimable_draw().is_some()];

        // The result fits the final position and the termination.
        let termination = tag("Termination");
        let end = game.automatic_end();
        match end {
            Some(AutomaticEnd::Checkmate { winner }) => {
                let want = if winner == Color::White { "1-0" } else { "0-1" };
                assert_eq!(result, want, "game {number}: mate");
                assert_eq!(termination, "normal");
            }
            Some(_) => {
                assert_eq!(result, "1/2-1/2", "game {number}: {end:?}");
                assert_eq!(termination, "normal");
            }
            None => match termination {
                // A draw claimed on the last move, before or after it.
                "normal" => {
                    assert_eq!(result, "1/2-1/2", "game {number}: ended with no reason");
                    assert!(
                        claimable.iter().any(|&c| c),
                        "game {number}: no valid claim"
                    );
                }
                "time forfeit" => {
                    let loser = game.position().turn();
                    // A draw when the winner cannot mate (FIDE 6.9).
                    let want = if !argus::game::can_mate(game.position(), !loser) {
                        "1/2-1/2"
                    } else if loser == Color::White {
                        "0-1"
                    } else {
                        "1-0"
                    };
                    assert_eq!(result, want, "game {number}: {result} on time");
                }
                other => panic!("game {number}: unexpected termination {other:?}"),
            },
        }
        if game.position().is_game_over() {
            assert!(end.is_some(), "game {number}");
        }

        // The printed line says the same.
        let line = format!("game {number}: {result} (");
        assert!(stdout.contains(&line), "no {line:?} in:\n{stdout}");
        a_halves += if white == "random mover" {
            white_halves(result)
        } else {
            2 - white_halves(result)
        };
    }
    // And the match summary adds them up.
    let points = |halves: u32| {
        if halves.is_multiple_of(2) {
            format!("{}", halves / 2)
        } else {
            format!("{}.5", halves / 2)
        }
    };
    let summary = format!(
        "match over: random mover {} - {} greedy mover (3 games with a result)",
        points(a_halves),
        points(6 - a_halves)
    );
    assert!(stdout.contains(&summary), "no {summary:?} in:\n{stdout}");
}

/// The demo quit after a game has begun but before its first move: the
/// quit is said on the console with the match's score (no game with a
/// result) but the game is not appended to `--pgn`, which an unstarted game
/// would leave with an empty `*` game.
#[test]
fn a_demo_quit_before_a_games_first_move_writes_no_game() {
    use crate::common::process::Proc;
    let dir = tempfile::tempdir().expect("temporary directory");
    let pgn = dir.path().join("demo.pgn");
    let args: Vec<String> = [
        "demo",
        "--headless",
        "--games",
        "3",
        // Slow enough that the first move cannot come before the quit.
        "--think-ms",
        "5000",
        "--pgn",
        pgn.to_str().expect("UTF-8 path"),
    ]
    .map(String::from)
    .to_vec();
    let mut demo = Proc::spawn("argus demo", Path::new(argus()), &args);
    demo.wait_stdout(START, "game 1's start", |l| {
        l.starts_with("game 1: random mover (White)")
    });
    demo.interrupt();
    assert_eq!(demo.wait_exit(EXIT), 0, "{}", demo.describe());
    let out = demo.stdout_lines().join("\n");
    // On the tournament's director the game is not ended `*` but kept in
    // its journal: the stop and the score say the quit.
    assert!(
        out.contains("ending the session")
            && out.contains("match over: random mover 0 - 0 greedy mover (0 games with a result)"),
        "the quit is said:\n{out}"
    );
    // The demo's journal is not one `argus resume` carries on: the stop
    // does not offer it.
    assert!(
        out.contains(
            "the games being played are left unfinished (this match cannot be carried on)"
        ) && !out.contains("argus resume"),
        "the stop says the game is not kept:\n{out}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    assert!(
        read_pgn_games(&text).expect("the PGN reads").is_empty(),
        "an unstarted game was written:\n{text}"
    );
}
