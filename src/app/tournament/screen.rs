//! The tournament's board view in the terminal: the overview of every
//! board with the standings and the latest lines, and any one board full
//! size (the match's own view and keys: pause, resume, adjudicate, abort,
//! restart a program) on its number key. The loop owns it; it decides
//! nothing but what is shown.

use std::collections::VecDeque;

use crossbeam_channel::{Receiver, unbounded};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::app::Failure;
use crate::display::overview::{self, BoardLine, Overview};
use crate::display::{InputEvent, InputThread, LinkView, Role, TerminalGuard, Ui};
use crate::referee::{ByClient, Command, Referee, Snapshot};
use crate::text::strip_control;
use crate::tournament::{BoardId, Form, PlayerId, ScheduledGame, Tournament, report, words};

/// How many of the latest lines the overview keeps.
const RECENT: usize = 200;

/// A board that holds a game, as the view shows it: the game, its core,
/// the time to show it at, and its two links.
pub struct OnBoard<'a> {
    pub board: BoardId,
    pub game: &'a ScheduledGame,
    pub core: &'a Referee,
    pub at: u64,
    pub links: [LinkView; 2],
}

/// A match's board before its first game: the board its players will
/// sit at, waiting for them to sign on, with their links as they are
/// now (a match between ports has always shown it from the start).
pub struct Waiting {
    pub snapshot: Snapshot,
    pub links: [LinkView; 2],
    pub at: u64,
}

/// What a key asks the loop to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    /// Nothing (the view changed, or the key did nothing).
    Nothing,
    /// Stop the tournament (confirmed).
    Stop,
    /// Hand this command to this board's core.
    Board(BoardId, Command),
    /// Withdraw this player from the event (confirmed).
    Withdraw(PlayerId),
}

/// The supervisor's withdrawal of a player, as it is being asked for:
/// which player is shown, and whether the choice awaits its `y`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Withdrawing {
    player: PlayerId,
    confirm: bool,
}

/// The terminal, its keys and what is shown.
pub struct Screen {
    guard: TerminalGuard,
    input: Option<InputThread>,
    pub keys: Receiver<InputEvent>,
    /// The full-size view of the focused board.
    ui: Ui,
    ascii: bool,
    focus: Option<BoardId>,
    /// The board shown full size whenever it has a game (a match on one
    /// board: the view a match has always had), until Esc; `None` until
    /// the first draw, which knows the event.
    follow: Option<Option<BoardId>>,
    recent: VecDeque<String>,
    /// A quit was asked for and awaits `y`.
    confirm_quit: bool,
    /// A withdrawal being asked for (`x`).
    withdrawing: Option<Withdrawing>,
    /// The supervisor's view (quit stops the tournament) or an observer's
    /// (quit stops watching; no supervisor keys).
    role: Role,
    notice: Option<String>,
    /// Whom the tournament waits for, in words, shown on the bottom line
    /// when there is no other notice.
    pub waiting: Vec<String>,
    /// The waiting board last drawn, while it is shown (its keys are the
    /// board's).
    waiting_shown: Option<Snapshot>,
}

impl Screen {
    /// Takes the terminal and starts reading keys.
    pub fn open(ascii: bool, role: Role) -> Result<Screen, Failure> {
        let guard = TerminalGuard::init()
            .map_err(|e| Failure::failed(format!("cannot set up the terminal: {e}")))?;
        let (tx, keys) = unbounded();
        let input = InputThread::spawn(tx).map_err(Failure::failed)?;
        Ok(Screen {
            guard,
            input: Some(input),
            keys,
            ui: Ui::new(ascii, role),
            ascii,
            role,
            focus: None,
            follow: None,
            recent: VecDeque::new(),
            confirm_quit: false,
            withdrawing: None,
            notice: None,
            waiting: Vec::new(),
            waiting_shown: None,
        })
    }

    /// A line for the overview's latest lines.
    pub fn note(&mut self, line: &str) {
        for l in line.lines() {
            if self.recent.len() == RECENT {
                self.recent.pop_front();
            }
            self.recent.push_back(l.to_string());
        }
    }

    /// Draws the overview of `t` (titled `title`), the focused board, or
    /// a match's board waiting for its first game.
    pub fn draw(
        &mut self,
        t: &Tournament,
        title: &str,
        boards: &[OnBoard],
        waiting: Option<&Waiting>,
    ) -> Result<(), Failure> {
        // A match on one board shows its board whenever it has a game.
        let follow = *self.follow.get_or_insert(
            (t.settings().form == Form::Match && t.board_count() == 1).then_some(BoardId(1)),
        );
        if let (None, Some(f)) = (self.focus, follow)
            && boards.iter().any(|b| b.board == f)
        {
            self.focus = Some(f);
            // The match's board shown waiting for its first game is this
            // board: its view stays (a question asked there, the flip).
            if self.waiting_shown.is_none() {
                self.ui = Ui::new(self.ascii, self.role);
            }
        }
        let focused = self
            .focus
            .and_then(|f| boards.iter().find(|b| b.board == f));
        self.waiting_shown = None;
        // Whom the event waits for now, on the waiting board and the
        // game's alike (nobody once both play: not the list the waiting
        // board showed before).
        self.ui.set_waiting(self.waiting.clone());
        if let (None, Some(_), Some(w)) = (focused, follow, waiting) {
            let ui = &self.ui;
            let drawn = self
                .guard
                .terminal()
                .draw(|f| ui.render(f, &w.snapshot, &w.links, w.at));
            self.waiting_shown = Some(w.snapshot.clone());
            return drawn
                .map(|_| ())
                .map_err(|e| Failure::failed(format!("cannot draw on the terminal: {e}")));
        }
        let drawn = match focused {
            Some(b) => {
                // The board's core plays a one-game match: its game is
                // the tournament's game `number` of all of them.
                let mut snap = b.core.snapshot(b.at);
                snap.game_number = b.game.number;
                snap.games_total = t.games_total();
                // A match's score is the event's, its players as seated
                // here (A White, B Black).
                if t.settings().form == Form::Match {
                    let halves = words::match_summary(t).score_halves;
                    let of = |p: PlayerId| halves.get(p.0).copied().unwrap_or(0);
                    snap.score_halves = ByClient::new(of(b.game.white), of(b.game.black));
                }
                let ui = &self.ui;
                self.guard
                    .terminal()
                    .draw(|f| ui.render(f, &snap, &b.links, b.at))
            }
            None => {
                // A board whose game is over goes back to the overview.
                self.focus = None;
                let overview = self.overview(t, title, boards);
                self.guard
                    .terminal()
                    .draw(|f| overview::render(f, &overview))
            }
        };
        drawn
            .map(|_| ())
            .map_err(|e| Failure::failed(format!("cannot draw on the terminal: {e}")))
    }

    /// The overview: every board with its game or free, the standings,
    /// the latest lines and the question or notice.
    fn overview(&self, t: &Tournament, title: &str, boards: &[OnBoard]) -> Overview {
        let decided = t.progress().decided();
        let lines = (1..=t.board_count())
            .map(|n| match boards.iter().find(|b| b.board == BoardId(n)) {
                Some(b) => BoardLine::of(
                    n,
                    format!("game {}, round {}", b.game.number, t.round_tag(b.game)),
                    &b.core.snapshot(b.at),
                ),
                None => BoardLine::free(n),
            })
            .collect();
        let notice = if let Some(w) = self.withdrawing {
            Some(withdraw_question(t, w))
        } else if self.confirm_quit {
            Some(match self.role {
                Role::Referee => format!(
                    "quit the {}? y: yes, any other key: no",
                    match t.settings().form {
                        Form::Match => "match",
                        Form::Tournament => "tournament",
                    }
                ),
                Role::Observer => "stop watching? y: yes, any other key: no".into(),
            })
        } else {
            self.notice
                .clone()
                .or_else(|| (!self.waiting.is_empty()).then(|| self.waiting.join("; ")))
        };
        Overview {
            title: if t.schedule().is_endless() {
                format!("{title}: {decided} games decided")
            } else {
                format!(
                    "{title}: {decided} of {} games decided",
                    t.schedule().games().len()
                )
            },
            boards: lines,
            // A knockout's overview shows its bracket.
            standings: match t.knockout() {
                Some(k) => k.text(&|p| strip_control(t.name(p))),
                None => report::standings_text(t),
            }
            .lines()
            .map(str::to_string)
            .collect(),
            round: words::round_lines(t),
            recent: self.recent.iter().cloned().collect(),
            notice,
            can_withdraw: self.role == Role::Referee
                && !withdrawable(t).is_empty()
                && t.schedule().is_dynamic(),
        }
    }

    /// One key or terminal event, with the tournament and the boards that
    /// hold a game.
    pub fn key(&mut self, ev: InputEvent, t: &Tournament, boards: &[OnBoard]) -> Ask {
        let key = match ev {
            InputEvent::Key(k) if k.kind != KeyEventKind::Release => k,
            InputEvent::Failed(why) => {
                log::warn!("terminal input failed: {why}; stopping");
                return Ask::Stop;
            }
            _ => return Ask::Nothing,
        };
        let focused = self
            .focus
            .and_then(|f| boards.iter().find(|b| b.board == f));
        if let Some(b) = focused {
            return self.board_key(b.board, key, &b.core.snapshot(b.at));
        }
        if let Some(snap) = self.waiting_shown.clone() {
            // A board with no game yet: Esc shows the overview, quit
            // ends the match, and nothing else has a game to act on.
            let ask = self.board_key(BoardId(1), key, &snap);
            if self.follow == Some(None) {
                self.waiting_shown = None;
            }
            return match ask {
                Ask::Board(..) => Ask::Nothing,
                ask => ask,
            };
        }
        self.focus = None;
        if self.withdrawing.is_some() {
            return self.withdraw_key(key, t);
        }
        self.overview_key(key, t, &|id| boards.iter().any(|b| b.board == id))
    }

    /// A key while a withdrawal is asked for: arrows choose the player,
    /// Enter chooses it, `y` confirms; Esc (or any other key at the
    /// question) lets it be.
    fn withdraw_key(&mut self, key: KeyEvent, t: &Tournament) -> Ask {
        let Some(mut w) = self.withdrawing.take() else {
            return Ask::Nothing;
        };
        let candidates = withdrawable(t);
        if candidates.is_empty() {
            self.notice = Some("nobody left to withdraw".into());
            return Ask::Nothing;
        }
        if w.confirm {
            // The player the question named, even if the list changed.
            return match key.code {
                KeyCode::Char('y' | 'Y') => {
                    self.notice = None;
                    Ask::Withdraw(w.player)
                }
                _ => {
                    self.notice = Some("nobody withdrawn".into());
                    Ask::Nothing
                }
            };
        }
        let n = candidates.len();
        let at = candidates.iter().position(|&p| p == w.player);
        match key.code {
            KeyCode::Esc => {
                self.notice = Some("nobody withdrawn".into());
                return Ask::Nothing;
            }
            KeyCode::Left | KeyCode::Up => {
                w.player = candidates[at.map_or(0, |i| (i + n - 1) % n)];
            }
            KeyCode::Right | KeyCode::Down | KeyCode::Tab => {
                w.player = candidates[at.map_or(0, |i| (i + 1) % n)];
            }
            // Chosen while still in the list (else shown again first).
            KeyCode::Enter if at.is_some() => w.confirm = true,
            KeyCode::Enter => w.player = candidates[0],
            _ => {}
        }
        self.withdrawing = Some(w);
        Ask::Nothing
    }

    fn board_key(&mut self, board: BoardId, key: KeyEvent, snap: &Snapshot) -> Ask {
        if key.code == KeyCode::Esc && !self.ui.is_asking() && !self.ui.is_help_open() {
            self.focus = None;
            self.follow = Some(None);
            return Ask::Nothing;
        }
        match self.ui.handle_key(key, snap) {
            Some(Command::EndSession) => Ask::Stop,
            Some(cmd) => Ask::Board(board, cmd),
            None => Ask::Nothing,
        }
    }

    fn overview_key(
        &mut self,
        key: KeyEvent,
        t: &Tournament,
        playing: &dyn Fn(BoardId) -> bool,
    ) -> Ask {
        let ctrl_c =
            key.modifiers.contains(KeyModifiers::CONTROL) && matches!(key.code, KeyCode::Char('c'));
        self.notice = None;
        if self.confirm_quit {
            self.confirm_quit = false;
            return match key.code {
                KeyCode::Char('y' | 'Y') => Ask::Stop,
                _ if ctrl_c => Ask::Stop,
                _ => Ask::Nothing,
            };
        }
        match key.code {
            _ if ctrl_c => self.confirm_quit = true,
            KeyCode::Char('q' | 'Q') => self.confirm_quit = true,
            KeyCode::Char('x' | 'X') if self.role == Role::Referee => {
                if !t.schedule().is_dynamic() {
                    self.notice = Some(format!(
                        "a player is withdrawn from a Swiss event or a knockout, not a {}",
                        t.settings().schedule.format.as_str()
                    ));
                } else if let Some(&player) = withdrawable(t).first() {
                    self.withdrawing = Some(Withdrawing {
                        player,
                        confirm: false,
                    });
                } else {
                    self.notice = Some("nobody left to withdraw".into());
                }
            }
            KeyCode::Char(c @ '1'..='9') => {
                let board = BoardId(c.to_digit(10).unwrap_or(1));
                if playing(board) {
                    self.focus = Some(board);
                    self.ui = Ui::new(self.ascii, self.role);
                } else {
                    self.notice = Some(format!("{board} has no game now"));
                }
            }
            _ => {}
        }
        Ask::Nothing
    }

    /// Gives the terminal back.
    pub fn close(mut self) {
        if let Some(input) = self.input.take() {
            input.stop();
        }
        if let Err(e) = self.guard.restore() {
            log::warn!("cannot restore the terminal: {e}");
        }
    }
}

/// The players the supervisor can withdraw: not withdrawn yet, while the
/// event goes on, in seed order.
fn withdrawable(t: &Tournament) -> Vec<PlayerId> {
    if t.is_over() {
        return Vec::new();
    }
    (0..t.players().len())
        .map(PlayerId)
        .filter(|p| !t.players()[p.0].withdrawn)
        .collect()
}

/// The bottom line while a withdrawal is asked for.
fn withdraw_question(t: &Tournament, w: Withdrawing) -> String {
    let candidates = withdrawable(t);
    let name = strip_control(t.name(w.player));
    if w.confirm {
        format!(
            "withdraw {name}? It loses the game it is playing, forfeits those not begun and is \
             paired no more. y: yes, any other key: no"
        )
    } else {
        format!(
            "withdraw whom? {name} ({} of {}) · ←/→ choose · Enter: this one · Esc: nobody",
            candidates
                .iter()
                .position(|&p| p == w.player)
                .map_or(0, |i| i + 1),
            candidates.len()
        )
    }
}
