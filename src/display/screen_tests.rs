//! Whole-screen tests: the text of the screen (insta snapshots, in
//! `snapshots/`) and the colours of the cells that matter.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color as Colour;
use shakmaty::{ByColor, Color, Square};

use super::board::LABEL_WIDTH;
use super::layout::panes;
use super::testkit;
use super::{LinkState, LinkView, Role, Ui, style};
use crate::referee::event::{Ending, Event, GameOver, PauseReason};
use crate::referee::snapshot::{EventKind, Phase};
use crate::referee::{ClientId, Snapshot};
use crate::referee::{GameResult, Termination};

fn links() -> [LinkView; 2] {
    [
        LinkView {
            port: "/dev/ttyS0".into(),
            settings: "9600 8N1".into(),
            state: LinkState::Up,
            bytes_in: 1_234,
            bytes_out: 5_678,
        },
        LinkView {
            port: "/dev/ttyUSB1".into(),
            settings: "9600 8N1".into(),
            state: LinkState::Up,
            bytes_in: 987,
            bytes_out: 4_321,
        },
    ]
}

fn draw_with(
    ui: &Ui,
    snap: &Snapshot,
    links: &[LinkView; 2],
    w: u16,
    h: u16,
    now_ms: u64,
) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
    terminal
        .draw(|f| ui.render(f, snap, links, now_ms))
        .expect("draw");
    terminal.backend().buffer().clone()
}

fn draw(ui: &Ui, snap: &Snapshot, w: u16, h: u16) -> Buffer {
    draw_with(ui, snap, &links(), w, h, snap.at_ms)
}

/// The screen as text, one line per row, trailing blanks trimmed.
fn text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in area.top()..area.bottom() {
        let mut line = String::new();
        for x in area.left()..area.right() {
            line.push_str(buf.cell((x, y)).map(|c| c.symbol()).unwrap_or(" "));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The cell where the piece on `sq` is drawn.
fn square_cell(buf: &Buffer, flipped: bool, sq: Square) -> (u16, u16) {
    let p = panes(buf.area).expect("screen big enough");
    let (file, rank) = (u16::from(sq.file()), u16::from(sq.rank()));
    let col = if flipped { 7 - file } else { file };
    let row = if flipped { rank } else { 7 - rank };
    (
        p.board.x + LABEL_WIDTH + col * p.scale.w + p.scale.w / 2,
        p.board.y + row * p.scale.h + p.scale.h / 2,
    )
}

fn bg_at(buf: &Buffer, flipped: bool, sq: Square) -> Colour {
    let at = square_cell(buf, flipped, sq);
    buf.cell(at).expect("square on screen").bg
}

fn symbol_at(buf: &Buffer, flipped: bool, sq: Square) -> String {
    let at = square_cell(buf, flipped, sq);
    buf.cell(at).expect("square on screen").symbol().to_string()
}

/// Before the game: B has not signed on yet, no colours, no clock running.
fn waiting() -> Snapshot {
    let mut s = testkit::snapshot(None, &[]);
    s.phase = Phase::WaitingForSignOn;
    s.game_number = 1;
    s.score_halves = [0, 0].into();
    s.clients.a.color = None;
    s.clients.b.color = None;
    s.clients.b.signed_on = false;
    s.clocks = ByColor {
        white: testkit::clock(7_200_000, false),
        black: testkit::clock(7_200_000, false),
    };
    s.events.truncate(2);
    s
}

/// Légal's trap up to 6. Bxf7+: a capture with check.
const LEGAL: [&str; 11] = [
    "e4", "e5", "Nf3", "d6", "Bc4", "Bg4", "Nc3", "g6", "Nxe5", "Bxd1", "Bxf7+",
];

fn capture_with_check() -> Snapshot {
    testkit::snapshot(None, &LEGAL)
}

/// Légal's mate, 7. Nd5#, 1-0.
fn finished() -> Snapshot {
    let mut moves = LEGAL.to_vec();
    moves.extend(["Ke7", "Nd5#"]);
    let mut s = testkit::snapshot(None, &moves);
    s.phase = Phase::GameOver;
    s.clocks.white.running = false;
    s.clocks.black.running = false;
    s.result = Some(testkit::result(
        "1-0",
        Ending::Checkmate {
            loser: Color::Black,
        },
    ));
    s.score_halves = [5, 1].into();
    let over = GameOver {
        game_number: 3,
        result: GameResult::Win(Color::White),
        termination: Termination::Normal,
        ending: Ending::Checkmate {
            loser: Color::Black,
        },
        moves_played: 1,
        pgn: Default::default(),
    };
    s.events.push(testkit::view(95_000, Event::GameOver(over)));
    s
}

#[test]
fn start_waiting_for_sign_on_80x24() {
    let buf = draw(&Ui::new(false, Role::Referee), &waiting(), 80, 24);
    insta::assert_snapshot!(text(&buf));
}

#[test]
fn the_bottom_line_says_whom_the_match_waits_for_and_since_when() {
    let mut ui = Ui::new(false, Role::Referee);
    ui.set_waiting(vec!["waiting for B (/dev/ttyUSB1) since 16:20:01".into()]);
    // While it waits for a sign-on, in place of the phase.
    let screen = text(&draw(&ui, &waiting(), 80, 24));
    let bottom = screen.lines().nth(23).unwrap();
    assert!(
        bottom.starts_with("waiting for B (/dev/ttyUSB1) since 16:20:01"),
        "{screen}"
    );
    // During a game (a link lost), after the phase.
    let screen = text(&draw(&ui, &testkit::snapshot(None, &["e4"]), 100, 30));
    let bottom = screen.lines().nth(29).unwrap();
    assert!(
        bottom.starts_with("playing: Black to move · waiting for B (/dev/ttyUSB1) since 16:20:01"),
        "{screen}"
    );
    // Nobody waited for: the phase alone.
    ui.set_waiting(Vec::new());
    let screen = text(&draw(&ui, &waiting(), 80, 24));
    assert!(
        screen
            .lines()
            .nth(23)
            .unwrap()
            .starts_with("waiting for sign-on: A signed on, B waiting"),
        "{screen}"
    );
}

#[test]
fn start_just_started_ascii_120x40() {
    let buf = draw(
        &Ui::new(true, Role::Referee),
        &testkit::snapshot(None, &[]),
        120,
        40,
    );
    insta::assert_snapshot!(text(&buf));
}

#[test]
fn capture_with_check_80x24() {
    let buf = draw(
        &Ui::new(false, Role::Referee),
        &capture_with_check(),
        80,
        24,
    );
    insta::assert_snapshot!(text(&buf));
}

#[test]
fn capture_with_check_ascii_flipped_120x40() {
    let mut ui = Ui::new(true, Role::Referee);
    ui.flipped = true;
    let buf = draw(&ui, &capture_with_check(), 120, 40);
    insta::assert_snapshot!(text(&buf));
}

#[test]
fn finished_ascii_80x24() {
    let buf = draw(&Ui::new(true, Role::Referee), &finished(), 80, 24);
    insta::assert_snapshot!(text(&buf));
}

#[test]
fn finished_120x40() {
    let buf = draw(&Ui::new(false, Role::Referee), &finished(), 120, 40);
    insta::assert_snapshot!(text(&buf));
}

#[test]
fn help_overlay_observer_80x24() {
    let mut ui = Ui::new(false, Role::Observer);
    ui.help_open = true;
    let mut snap = capture_with_check();
    snap.phase = Phase::Paused {
        reason: PauseReason::Supervisor,
    };
    let buf = draw(&ui, &snap, 80, 24);
    insta::assert_snapshot!(text(&buf));
}

#[test]
fn confirmation_prompt_80x24() {
    let mut ui = Ui::new(false, Role::Referee);
    let snap = capture_with_check();
    let key = crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char('d'),
        crossterm::event::KeyModifiers::NONE,
    );
    assert_eq!(ui.handle_key(key, &snap), None);
    let buf = draw(&ui, &snap, 80, 24);
    let t = text(&buf);
    assert!(t.contains("Adjudicate 1/2-1/2, a draw?  y / n"), "{t}");
}

#[test]
fn flag_fall_and_lost_link_80x24() {
    let mut snap = testkit::snapshot(None, &["d4", "d5", "c4"]);
    snap.phase = Phase::GameOver;
    snap.clocks = ByColor {
        white: testkit::clock(61_000, false),
        black: testkit::clock(0, false),
    };
    snap.clocks.black.flagged = true;
    let mut result = testkit::result(
        "1-0",
        Ending::Flag {
            color: Color::Black,
            drawn: false,
        },
    );
    result.termination = "time forfeit".into();
    snap.result = Some(result);
    let mut links = links();
    links[1].state = LinkState::Lost;
    let buf = draw_with(
        &Ui::new(false, Role::Referee),
        &snap,
        &links,
        80,
        24,
        snap.at_ms,
    );
    let t = text(&buf);
    assert!(t.contains("0:00:00.0   FLAG"), "{t}");
    assert!(t.contains("LOST"), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn too_small_says_so() {
    let snap = capture_with_check();
    for (w, h) in [(79, 24), (80, 23), (40, 10), (1, 1)] {
        let buf = draw(&Ui::new(false, Role::Referee), &snap, w, h);
        let t = text(&buf);
        assert!(t.contains("too small") || w < 20, "{w}x{h}: {t}");
        assert!(!t.contains('♖'), "{w}x{h}: board drawn anyway");
    }
    let buf = draw(&Ui::new(false, Role::Referee), &snap, 60, 20);
    insta::assert_snapshot!(text(&buf));
}

#[test]
fn last_move_and_check_are_coloured() {
    let snap = capture_with_check();
    for flipped in [false, true] {
        for (w, h) in [(80, 24), (120, 40)] {
            let mut ui = Ui::new(false, Role::Referee);
            ui.flipped = flipped;
            let buf = draw(&ui, &snap, w, h);
            let from = bg_at(&buf, flipped, Square::C4);
            let to = bg_at(&buf, flipped, Square::F7);
            let king = bg_at(&buf, flipped, Square::E8);
            assert_eq!(from, style::LAST_MOVE);
            assert_eq!(to, style::LAST_MOVE);
            assert_eq!(king, style::CHECK);
            assert_eq!(symbol_at(&buf, flipped, Square::E8), "♚");
            assert_eq!(symbol_at(&buf, flipped, Square::F7), "♗");
            // Ordinary squares keep their colours, which differ from both.
            assert_eq!(bg_at(&buf, flipped, Square::A1), style::DARK_SQUARE);
            assert_eq!(bg_at(&buf, flipped, Square::H1), style::LIGHT_SQUARE);
            for normal in [style::DARK_SQUARE, style::LIGHT_SQUARE] {
                assert_ne!(normal, style::LAST_MOVE);
                assert_ne!(normal, style::CHECK);
            }
            assert_ne!(style::LAST_MOVE, style::CHECK);
            // Pieces are told apart by colour too.
            let white = buf
                .cell(square_cell(&buf, flipped, Square::F7))
                .map(|c| c.fg);
            let black = buf
                .cell(square_cell(&buf, flipped, Square::E8))
                .map(|c| c.fg);
            assert_eq!(white, Some(style::WHITE_PIECE));
            assert_eq!(black, Some(style::BLACK_PIECE));
        }
    }
}

#[test]
fn no_check_no_check_colour() {
    let snap = testkit::snapshot(None, &["e4"]);
    let buf = draw(&Ui::new(false, Role::Referee), &snap, 80, 24);
    assert_eq!(bg_at(&buf, false, Square::E8), style::LIGHT_SQUARE);
    assert_eq!(bg_at(&buf, false, Square::E1), style::DARK_SQUARE);
    assert_eq!(bg_at(&buf, false, Square::E2), style::LAST_MOVE);
    assert_eq!(bg_at(&buf, false, Square::E4), style::LAST_MOVE);
}

#[test]
fn flip_moves_a1_from_bottom_left_to_top_right() {
    let snap = testkit::snapshot(None, &[]);
    for ascii in [false, true] {
        let mut ui = Ui::new(ascii, Role::Referee);
        let rook = if ascii { "R" } else { "♖" };
        let black_rook = if ascii { "r" } else { "♜" };
        let buf = draw(&ui, &snap, 80, 24);
        let p = panes(buf.area).expect("fits");
        let (s, h) = (p.scale, p.board);
        let left = h.x + LABEL_WIDTH + s.w / 2;
        let right = h.x + LABEL_WIDTH + 7 * s.w + s.w / 2;
        let (top, bottom) = (h.y + s.h / 2, h.y + 7 * s.h + s.h / 2);
        let at = |b: &Buffer, x, y| b.cell((x, y)).map(|c| c.symbol().to_string());
        assert_eq!(
            at(&buf, left, bottom).as_deref(),
            Some(rook),
            "a1 bottom-left"
        );
        assert_eq!(
            at(&buf, right, top).as_deref(),
            Some(black_rook),
            "h8 top-right"
        );
        assert_eq!(at(&buf, h.x, bottom).as_deref(), Some("1"));
        assert_eq!(at(&buf, left, h.bottom() - 1).as_deref(), Some("a"));
        ui.flipped = true;
        let buf = draw(&ui, &snap, 80, 24);
        assert_eq!(at(&buf, right, top).as_deref(), Some(rook), "a1 top-right");
        assert_eq!(
            at(&buf, left, bottom).as_deref(),
            Some(black_rook),
            "h8 bottom-left"
        );
        assert_eq!(at(&buf, h.x, bottom).as_deref(), Some("8"));
        assert_eq!(at(&buf, left, h.bottom() - 1).as_deref(), Some("h"));
    }
}

#[test]
fn flipped_board_puts_white_clock_on_top() {
    let snap = capture_with_check();
    let mut ui = Ui::new(false, Role::Referee);
    let buf = draw(&ui, &snap, 80, 24);
    let p = panes(buf.area).expect("fits");
    let row = |b: &Buffer, y: u16| -> String {
        (p.top_player.x..p.top_player.right())
            .filter_map(|x| b.cell((x, y)).map(|c| c.symbol().to_string()))
            .collect()
    };
    assert!(row(&buf, p.top_player.y).starts_with("Black"));
    assert!(row(&buf, p.bottom_player.y).starts_with("White"));
    ui.flipped = true;
    let buf = draw(&ui, &snap, 80, 24);
    assert!(row(&buf, p.top_player.y).starts_with("White"));
    assert!(row(&buf, p.bottom_player.y).starts_with("Black"));
}

#[test]
fn control_characters_never_reach_the_screen() {
    let mut snap = capture_with_check();
    snap.clients.a.name = "Evil\x1b[2J\x07Bot\u{9b}31m\r\n".into();
    snap.clients.b.port = "/dev/tty\x1b]0;pwned\x07S1".into();
    snap.time_control = "40/7200\x1b[H".into();
    snap.phase = Phase::Paused {
        reason: PauseReason::ClientFault {
            client: ClientId::A,
            name: "fault\x1b[31m by A".into(),
        },
    };
    snap.events.push(testkit::event(
        70_000,
        EventKind::Rejected,
        "bad\x1b[2Jline\x08",
    ));
    let mut links = links();
    links[0].port = "COM1\x1b[2J".into();
    let mut ui = Ui::new(false, Role::Referee);
    // The restart prompt shows the name too.
    let key = crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char('1'),
        crossterm::event::KeyModifiers::NONE,
    );
    ui.handle_key(key, &snap);
    for (w, h) in [(80, 24), (120, 40)] {
        let buf = draw_with(&ui, &snap, &links, w, h, snap.at_ms);
        for cell in buf.content() {
            assert!(
                !cell.symbol().chars().any(char::is_control),
                "control character drawn: {:?}",
                cell.symbol()
            );
        }
        let t = text(&buf);
        assert!(t.contains("EvilBot") || t.contains("Evil[2JBot31m"), "{t}");
        assert!(t.contains("Restart client A (Evil[2JBot31m)?"), "{t}");
        assert!(t.contains("PAUSED: A: fault[31m by A"), "{t}");
        assert!(t.contains("bad[2Jline"), "{t}");
    }
}

#[test]
fn running_clock_counts_down_to_now() {
    let snap = testkit::snapshot(None, &["e4"]);
    // Black's clock runs: 6_012_300 ms at 60 s into the session.
    let ui = Ui::new(false, Role::Referee);
    let t = text(&draw_with(&ui, &snap, &links(), 80, 24, 60_000));
    assert!(t.contains("▸  1:40:12 "), "{t}");
    let t = text(&draw_with(&ui, &snap, &links(), 80, 24, 65_500));
    assert!(t.contains("▸  1:40:06 "), "{t}");
    // White's stopped clock does not move.
    assert!(t.contains("1:30:00"), "{t}");
    // Under ten seconds, tenths.
    let t = text(&draw_with(
        &ui,
        &snap,
        &links(),
        80,
        24,
        60_000 + 6_012_300 - 9_870,
    ));
    assert!(t.contains("0:00:09.8"), "{t}");
    assert_eq!(snap.clock(Color::Black).remaining_ms, Some(6_012_300));
}

#[test]
fn renders_every_size_without_panicking() {
    let snaps = [waiting(), capture_with_check(), finished()];
    let mut ui = Ui::new(false, Role::Referee);
    ui.help_open = true;
    for snap in &snaps {
        for (w, h) in [
            (0, 0),
            (1, 1),
            (80, 24),
            (81, 60),
            (200, 24),
            (80, 100),
            (250, 80),
        ] {
            let buf = draw(&ui, snap, w, h);
            assert_eq!(buf.area, Rect::new(0, 0, w, h));
        }
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Whatever the clients send and whatever the terminal size, drawing
        /// neither panics nor puts a control character on the screen.
        #[test]
        fn any_strings_any_size_draw_safely(
            name in any::<String>(),
            port in any::<String>(),
            event in any::<String>(),
            reason in any::<String>(),
            w in 0u16..160,
            h in 0u16..60,
            now in any::<u64>(),
            scroll in any::<usize>(),
            flipped in any::<bool>(),
            ascii in any::<bool>(),
        ) {
            let mut snap = capture_with_check();
            snap.clients.b.name = name;
            snap.clients.a.port = port.clone();
            snap.events.push(testkit::event(now, EventKind::Fault, &event));
            snap.phase = Phase::Paused {
                reason: PauseReason::ClientFault { client: ClientId::A, name: reason },
            };
            let mut links = links();
            links[1].port = port;
            links[0].bytes_in = now;
            let mut ui = Ui::new(ascii, Role::Referee);
            ui.flipped = flipped;
            ui.log_scroll = scroll;
            let buf = draw_with(&ui, &snap, &links, w, h, now);
            for cell in buf.content() {
                prop_assert!(!cell.symbol().chars().any(char::is_control), "{:?}", cell.symbol());
            }
        }
    }
}

#[test]
fn too_small_still_shows_the_open_question() {
    let snap = capture_with_check();
    let mut ui = Ui::new(false, Role::Referee);
    let q = crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char('q'),
        crossterm::event::KeyModifiers::NONE,
    );
    ui.handle_key(q, &snap);
    let t = text(&draw(&ui, &snap, 70, 20));
    assert!(t.contains("Terminal too small: 70x20"), "{t}");
    assert!(t.contains("Quit argus?  y / n"), "{t}");
}

#[test]
fn pause_hint_only_where_pausing_works() {
    let ui = Ui::new(false, Role::Referee);
    let mut snap = capture_with_check();
    let last_row = |snap: &Snapshot| -> String {
        text(&draw(&ui, snap, 80, 24))
            .lines()
            .last()
            .unwrap_or_default()
            .to_string()
    };
    assert!(last_row(&snap).ends_with("space pause  ? help  q quit"));
    snap.phase = Phase::Paused {
        reason: PauseReason::Supervisor,
    };
    assert!(last_row(&snap).ends_with("space resume  ? help  q quit"));
    for phase in [Phase::WaitingForSignOn, Phase::Starting, Phase::GameOver] {
        snap.phase = phase;
        let row = last_row(&snap);
        assert!(
            !row.contains("space") && row.ends_with("? help  q quit"),
            "{row}"
        );
    }
    // An observer never gets the hint.
    let observer = Ui::new(false, Role::Observer);
    let t = text(&draw(&observer, &capture_with_check(), 80, 24));
    assert!(!t.contains("space pause"), "{t}");
}

#[test]
fn header_says_what_happens_between_games() {
    let ui = Ui::new(false, Role::Referee);
    let mut snap = testkit::snapshot(None, &[]);
    snap.phase = Phase::Starting;
    let t = text(&draw(&ui, &snap, 100, 30));
    assert!(t.contains("Starting: the clients set up the game"), "{t}");
    assert!(t.contains("starting game 3 of 4"), "{t}");
    let t = text(&draw(&ui, &finished(), 100, 30));
    assert!(t.contains("Result 1-0  White mates (normal)"), "{t}");
}

#[test]
fn largest_squares_at_200x60() {
    let ui = Ui::new(true, Role::Referee);
    let buf = draw(&ui, &capture_with_check(), 200, 60);
    let p = panes(buf.area).expect("fits");
    assert_eq!((p.scale.w, p.scale.h), (9, 4));
    let t = text(&buf);
    assert!(
        t.lines()
            .any(|l| l.starts_with("      a        b        c")),
        "{t}"
    );
}
