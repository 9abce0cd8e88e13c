//! Keys to actions: the supervisor keys, their confirmations, and the view
//! keys (flip, help, log scrolling).

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::role::Role;
use super::ui::Ui;
use crate::referee::snapshot::Phase;
use crate::referee::{ClientId, Snapshot};
use crate::referee::{Command, Verdict};
use crate::text::strip_control;

/// Log lines scrolled by PgUp / PgDn.
const LOG_PAGE: usize = 5;

/// A question waiting for the supervisor's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pending {
    /// `y` emits the action, `n` or Esc cancels.
    Confirm(Command),
    /// After `r`: `a`/`1` or `b`/`2` picks the client to restart.
    ChooseClient,
}

impl Pending {
    /// The question and its answer keys, for the prompt.
    pub fn question(self, snap: &Snapshot) -> (String, &'static str) {
        match self {
            Pending::ChooseClient => ("Restart which client?".to_string(), "a / b, Esc: cancel"),
            Pending::Confirm(action) => {
                let q = match action {
                    Command::Adjudicate(Verdict::WhiteWins) => {
                        "Adjudicate 1-0, White wins?".to_string()
                    }
                    Command::Adjudicate(Verdict::BlackWins) => {
                        "Adjudicate 0-1, Black wins?".to_string()
                    }
                    Command::Adjudicate(Verdict::Draw) => "Adjudicate 1/2-1/2, a draw?".to_string(),
                    Command::AbortGame => "Abort this game?".to_string(),
                    Command::RestartClient(id) => format!(
                        "Restart client {} ({})?",
                        id.letter(),
                        strip_control(&snap.clients[id].name)
                    ),
                    Command::EndSession => "Quit argus?".to_string(),
                    Command::Pause => "Pause?".to_string(),
                    Command::Resume => "Resume?".to_string(),
                };
                let answers = if action == Command::EndSession {
                    "y / n (Ctrl-C: quit)"
                } else {
                    "y / n"
                };
                (q, answers)
            }
        }
    }
}

/// Whether a game is being played (adjudicate and abort make sense).
fn game_in_progress(snap: &Snapshot) -> bool {
    matches!(snap.phase, Phase::Playing | Phase::Paused { .. }) && snap.result.is_none()
}

/// Whether `action` still makes sense for `snap` (checked again when it is
/// confirmed, since the game may have ended meanwhile).
fn still_valid(action: Command, snap: &Snapshot) -> bool {
    match action {
        Command::Adjudicate(_) | Command::AbortGame => game_in_progress(snap),
        Command::Pause => snap.phase == Phase::Playing,
        Command::Resume => matches!(snap.phase, Phase::Paused { .. }),
        Command::RestartClient(_) | Command::EndSession => true,
    }
}

fn is_ctrl_c(key: &KeyEvent) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL)
        && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('C'))
}

impl Ui {
    /// Handles one key with `snap` as the current state, and returns the
    /// action to send, if any. Adjudication, abort, restart and quit ask for
    /// a `y` first (`n` or Esc cancels); pause and resume act at once.
    /// Ctrl-C (a key event in raw mode) asks to quit, and a second Ctrl-C
    /// quits. An observer gets only the view keys and quit. Key releases and
    /// other Ctrl/Alt chords are ignored. Why a key did nothing is shown as a
    /// notice in the status bar.
    pub fn handle_key(&mut self, key: KeyEvent, snap: &Snapshot) -> Option<Command> {
        if key.kind == KeyEventKind::Release {
            return None;
        }
        self.notice = None;
        if is_ctrl_c(&key) {
            if self.pending == Some(Pending::Confirm(Command::EndSession)) {
                self.pending = None;
                return Some(Command::EndSession);
            }
            self.help_open = false;
            self.pending = Some(Pending::Confirm(Command::EndSession));
            return None;
        }
        if let Some(pending) = self.pending {
            return self.answer(pending, key, snap);
        }
        if key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return None;
        }
        if self.help_open {
            self.help_open = false;
            if matches!(key.code, KeyCode::Char('?') | KeyCode::Esc | KeyCode::F(1)) {
                return None;
            }
        }
        match key.code {
            KeyCode::Char(c) => self.char_key(c.to_ascii_lowercase(), snap),
            KeyCode::F(1) => {
                self.help_open = true;
                None
            }
            KeyCode::Up => self.scroll_back(1, snap),
            KeyCode::PageUp => self.scroll_back(LOG_PAGE, snap),
            KeyCode::Down => self.scroll_forward(1),
            KeyCode::PageDown => self.scroll_forward(LOG_PAGE),
            KeyCode::Home => self.scroll_back(usize::MAX, snap),
            KeyCode::End => self.scroll_forward(usize::MAX),
            _ => None,
        }
    }

    /// A plain character key (lower-cased).
    fn char_key(&mut self, c: char, snap: &Snapshot) -> Option<Command> {
        match c {
            '?' => self.help_open = true,
            'f' => self.flipped = !self.flipped,
            'g' => self.ascii = !self.ascii,
            'q' => self.pending = Some(Pending::Confirm(Command::EndSession)),
            ' ' | 'p' | 'w' | 'b' | 'd' | 'a' | 'r' | '1' | '2' => {
                return self.supervisor_key(c, snap);
            }
            _ => {}
        }
        None
    }

    /// A key that acts on the referee: disabled for an observer.
    fn supervisor_key(&mut self, c: char, snap: &Snapshot) -> Option<Command> {
        if self.role == Role::Observer {
            self.notice = Some("observer: supervisor keys are disabled".to_string());
            return None;
        }
        let confirm = match c {
            ' ' | 'p' => {
                return match snap.phase {
                    Phase::Playing => Some(Command::Pause),
                    Phase::Paused { .. } => Some(Command::Resume),
                    _ => {
                        self.notice = Some("no game is being played; nothing to pause".to_string());
                        None
                    }
                };
            }
            'r' => {
                self.pending = Some(Pending::ChooseClient);
                return None;
            }
            '1' => Command::RestartClient(ClientId::A),
            '2' => Command::RestartClient(ClientId::B),
            'w' => Command::Adjudicate(Verdict::WhiteWins),
            'b' => Command::Adjudicate(Verdict::BlackWins),
            'd' => Command::Adjudicate(Verdict::Draw),
            _ => Command::AbortGame,
        };
        if still_valid(confirm, snap) {
            self.pending = Some(Pending::Confirm(confirm));
        } else {
            self.notice = Some("no game is being played".to_string());
        }
        None
    }

    /// A key while a question is open.
    fn answer(&mut self, pending: Pending, key: KeyEvent, snap: &Snapshot) -> Option<Command> {
        let KeyCode::Char(c) = key.code else {
            if key.code == KeyCode::Esc {
                self.cancel();
            }
            return None;
        };
        match (pending, c.to_ascii_lowercase()) {
            (Pending::ChooseClient, 'a' | '1') => {
                self.pending = Some(Pending::Confirm(Command::RestartClient(ClientId::A)));
            }
            (Pending::ChooseClient, 'b' | '2') => {
                self.pending = Some(Pending::Confirm(Command::RestartClient(ClientId::B)));
            }
            (Pending::Confirm(action), 'y') => {
                self.pending = None;
                if still_valid(action, snap) {
                    return Some(action);
                }
                self.notice = Some("the game is no longer being played; nothing done".to_string());
            }
            (_, 'n') => self.cancel(),
            _ => {}
        }
        None
    }

    fn cancel(&mut self) {
        self.pending = None;
        self.notice = Some("cancelled".to_string());
    }

    fn scroll_back(&mut self, n: usize, snap: &Snapshot) -> Option<Command> {
        let max = snap.events.len().saturating_sub(1);
        self.log_scroll = self.log_scroll.saturating_add(n).min(max);
        None
    }

    fn scroll_forward(&mut self, n: usize) -> Option<Command> {
        self.log_scroll = self.log_scroll.saturating_sub(n);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::display::testkit;
    use crate::referee::event::{Ending, PauseReason};
    use crossterm::event::KeyEventState;
    use shakmaty::Color;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn ch(c: char) -> KeyEvent {
        key(KeyCode::Char(c))
    }

    fn ctrl_c() -> KeyEvent {
        KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)
    }

    fn playing() -> Snapshot {
        testkit::snapshot(None, &["e4", "e5"])
    }

    /// Presses `keys` in order and returns the actions emitted.
    fn press(ui: &mut Ui, snap: &Snapshot, keys: &[KeyEvent]) -> Vec<Command> {
        keys.iter()
            .filter_map(|k| ui.handle_key(*k, snap))
            .collect()
    }

    const WHITE_WINS: Command = Command::Adjudicate(Verdict::WhiteWins);
    const BLACK_WINS: Command = Command::Adjudicate(Verdict::BlackWins);
    const DRAW: Command = Command::Adjudicate(Verdict::Draw);

    #[test]
    fn pause_and_resume_act_at_once() {
        let mut ui = Ui::new(false, Role::Referee);
        let mut snap = playing();
        assert_eq!(ui.handle_key(ch(' '), &snap), Some(Command::Pause));
        assert_eq!(ui.handle_key(ch('p'), &snap), Some(Command::Pause));
        snap.phase = Phase::Paused {
            reason: PauseReason::Supervisor,
        };
        assert_eq!(ui.handle_key(ch('p'), &snap), Some(Command::Resume));
        assert_eq!(ui.handle_key(ch(' '), &snap), Some(Command::Resume));
        snap.phase = Phase::WaitingForSignOn;
        assert_eq!(ui.handle_key(ch('p'), &snap), None);
        assert!(ui.notice.is_some());
    }

    #[test]
    fn each_confirmed_key_gives_its_action() {
        let snap = playing();
        let cases: [(&[KeyEvent], Command); 9] = [
            (&[ch('w'), ch('y')], WHITE_WINS),
            (&[ch('b'), ch('y')], BLACK_WINS),
            (&[ch('d'), ch('y')], DRAW),
            (&[ch('a'), ch('y')], Command::AbortGame),
            (
                &[ch('r'), ch('a'), ch('y')],
                Command::RestartClient(ClientId::A),
            ),
            (
                &[ch('r'), ch('b'), ch('y')],
                Command::RestartClient(ClientId::B),
            ),
            (&[ch('1'), ch('y')], Command::RestartClient(ClientId::A)),
            (&[ch('2'), ch('Y')], Command::RestartClient(ClientId::B)),
            (&[ch('q'), ch('y')], Command::EndSession),
        ];
        for (keys, want) in cases {
            let mut ui = Ui::new(false, Role::Referee);
            let (last, first) = keys.split_last().expect("keys");
            assert_eq!(press(&mut ui, &snap, first), [], "{keys:?} acted before y");
            assert!(ui.is_asking(), "{keys:?} did not ask");
            assert_eq!(ui.handle_key(*last, &snap), Some(want), "{keys:?}");
            assert!(!ui.is_asking());
        }
    }

    #[test]
    fn n_and_esc_cancel_and_other_keys_keep_the_question() {
        let snap = playing();
        for cancel in [ch('n'), key(KeyCode::Esc)] {
            for start in [
                &[ch('w')][..],
                &[ch('a')],
                &[ch('q')],
                &[ch('r')],
                &[ch('r'), ch('b')],
            ] {
                let mut ui = Ui::new(false, Role::Referee);
                press(&mut ui, &snap, start);
                assert_eq!(
                    press(&mut ui, &snap, &[ch('x'), ch('f'), key(KeyCode::Enter)]),
                    []
                );
                assert!(ui.is_asking(), "{start:?}: stray key dropped the question");
                assert!(
                    !ui.is_flipped(),
                    "{start:?}: keys leaked through the question"
                );
                assert_eq!(ui.handle_key(cancel, &snap), None);
                assert!(!ui.is_asking());
                assert_eq!(ui.handle_key(ch('y'), &snap), None, "y after cancel");
            }
        }
    }

    #[test]
    fn ctrl_c_asks_then_quits() {
        let snap = playing();
        let mut ui = Ui::new(false, Role::Referee);
        assert_eq!(ui.handle_key(ctrl_c(), &snap), None);
        assert!(ui.is_asking());
        assert_eq!(ui.handle_key(ctrl_c(), &snap), Some(Command::EndSession));
        // Ctrl-C during another question turns it into the quit question.
        let mut ui = Ui::new(false, Role::Referee);
        press(&mut ui, &snap, &[ch('w')]);
        assert_eq!(ui.handle_key(ctrl_c(), &snap), None);
        assert_eq!(ui.handle_key(ch('y'), &snap), Some(Command::EndSession));
    }

    #[test]
    fn observer_gets_view_keys_only() {
        let snap = playing();
        let mut ui = Ui::new(false, Role::Observer);
        for c in [' ', 'p', 'w', 'b', 'd', 'a', 'r', '1', '2'] {
            assert_eq!(ui.handle_key(ch(c), &snap), None, "{c:?}");
            assert!(!ui.is_asking(), "{c:?} asked a question");
            assert!(ui.notice.as_deref().is_some_and(|n| n.contains("observer")));
            // A following y must not confirm anything.
            assert_eq!(ui.handle_key(ch('y'), &snap), None);
        }
        assert_eq!(ui.handle_key(ch('f'), &snap), None);
        assert!(ui.is_flipped());
        assert_eq!(ui.handle_key(ch('?'), &snap), None);
        assert!(ui.is_help_open());
        assert_eq!(
            press(&mut ui, &snap, &[ch('?'), ch('q'), ch('y')]),
            [Command::EndSession]
        );
    }

    #[test]
    fn adjudication_needs_a_game_in_progress() {
        let mut snap = playing();
        snap.phase = Phase::GameOver;
        snap.result = Some(testkit::result(
            "1-0",
            Ending::Resigned {
                color: Color::Black,
            },
        ));
        let mut ui = Ui::new(false, Role::Referee);
        for c in ['w', 'b', 'd', 'a'] {
            assert_eq!(press(&mut ui, &snap, &[ch(c), ch('y')]), [], "{c:?}");
        }
        // Asked while playing, the game ended before the y: nothing is sent.
        let mut ui = Ui::new(false, Role::Referee);
        press(&mut ui, &playing(), &[ch('w')]);
        assert_eq!(ui.handle_key(ch('y'), &snap), None);
        assert!(ui.notice.is_some());
    }

    #[test]
    fn flip_help_and_glyph_toggles() {
        let snap = playing();
        let mut ui = Ui::new(false, Role::Referee);
        press(&mut ui, &snap, &[ch('f')]);
        assert!(ui.is_flipped());
        press(&mut ui, &snap, &[ch('F')]);
        assert!(!ui.is_flipped());
        press(&mut ui, &snap, &[ch('g')]);
        assert!(ui.is_ascii());
        press(&mut ui, &snap, &[ch('?')]);
        assert!(ui.is_help_open());
        press(&mut ui, &snap, &[key(KeyCode::Esc)]);
        assert!(!ui.is_help_open());
        press(&mut ui, &snap, &[key(KeyCode::F(1))]);
        assert!(ui.is_help_open());
        // Another key closes the help and still does its job.
        press(&mut ui, &snap, &[ch('f')]);
        assert!(!ui.is_help_open() && ui.is_flipped());
    }

    #[test]
    fn releases_and_other_chords_are_ignored() {
        let snap = playing();
        let mut ui = Ui::new(false, Role::Referee);
        let mut release = ch('f');
        release.kind = KeyEventKind::Release;
        release.state = KeyEventState::NONE;
        assert_eq!(ui.handle_key(release, &snap), None);
        assert!(!ui.is_flipped());
        let ctrl_w = KeyEvent::new(KeyCode::Char('w'), KeyModifiers::CONTROL);
        let alt_q = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::ALT);
        assert_eq!(press(&mut ui, &snap, &[ctrl_w, alt_q, ch('y')]), []);
        assert!(!ui.is_asking());
    }

    #[test]
    fn log_scrolls_and_clamps() {
        let snap = playing();
        let n = snap.events.len();
        let mut ui = Ui::new(false, Role::Referee);
        press(&mut ui, &snap, &[key(KeyCode::Up)]);
        assert_eq!(ui.log_scroll, 1);
        press(
            &mut ui,
            &snap,
            &[key(KeyCode::PageUp), key(KeyCode::PageUp)],
        );
        assert_eq!(ui.log_scroll, n - 1);
        press(&mut ui, &snap, &[key(KeyCode::Down)]);
        assert_eq!(ui.log_scroll, n - 2);
        press(&mut ui, &snap, &[key(KeyCode::End)]);
        assert_eq!(ui.log_scroll, 0);
        press(
            &mut ui,
            &snap,
            &[key(KeyCode::PageDown), key(KeyCode::Home)],
        );
        assert_eq!(ui.log_scroll, n - 1);
    }

    #[test]
    fn restart_question_names_the_client_without_control_characters() {
        let mut snap = playing();
        snap.clients.b.name = "Bad\x1b[2JName".into();
        let (q, answers) = Pending::Confirm(Command::RestartClient(ClientId::B)).question(&snap);
        assert_eq!(q, "Restart client B (Bad[2JName)?");
        assert_eq!(answers, "y / n");
    }
}
