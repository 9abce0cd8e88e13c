//! Following the game from the referee's records: the one game-follower of
//! both clients, the reference client (`client::protocol`) and the engine
//! bridge (`client::engine::bridge`).
//!
//! It obeys EPD section 8: `reset` starts a game from the record's
//! position, `execute` and `respond` adopt the record's position when it
//! differs and play its `sm`. When the referee sends a position the game
//! has already passed through (a respond sent again after a pause or a bad
//! echo), the game is taken back to that point instead of adopted afresh,
//! so the history (and with it repetitions) is kept.
//!
//! It also keeps what an engine needs for its clocks: the `TimeControl`
//! tag from `inform`, the time left to the millisecond from `Aclk` (argus's
//! private opcode, docs/protocol.md "Clocks"), the time used in whole
//! seconds from `cc` (all a referee that does not send `Aclk` gives), and
//! the moves each side has made since the clocks began (moves sent with
//! `execute` before the first `respond` of a game are the opening, which
//! the referee does not time).
//!
//! The rules come with `inform`'s `Variant` tag (`Chess960`; none for
//! standard chess): the game is set up again by them, before any move is
//! asked for. A `reset` that comes before (the first game's) is read by
//! the rules known so far, and as Chess960 when standard chess cannot
//! read it (its castling field in Shredder-FEN, or a king between its
//! rooks off the e-file).

use shakmaty::{ByColor, Chess, Color, Move, Position};

use crate::clock::{BadTimeControl, TimeControl};
use crate::epd::{OpError, Operation, Record, RefCom, RefReq};
use crate::game::{self, Game, RecordError, SanError, UnknownVariant, Variant};

/// What was wrong with a record from the referee, for the client's log
/// and fault report: the record's operand, tag or move, and what was kept
/// (the game is then as before, or newly adopted).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrackError {
    /// An operand that does not read (`refcom`, `ptp`, `sm`).
    #[error(transparent)]
    Operand(#[from] OpError),
    #[error("a record without refcom")]
    NoRefcom,
    /// The record's position (for a new game, or one not passed through).
    #[error(transparent)]
    Position(#[from] RecordError),
    /// An `inform`'s `Atc` that does not read.
    #[error("inform: {0}")]
    Odds(OpError),
    #[error("inform: Atc {side}: {why} (TimeControl's kept)")]
    SideControl { side: Color, why: BadTimeControl },
    #[error("inform: {0} (played as standard)")]
    Variant(UnknownVariant),
    #[error("inform: {0} (the other tags kept)")]
    TimeControl(BadTimeControl),
    #[error("inform: the game's start position is not {0} chess")]
    NotInVariant(Variant),
    /// The game's moves do not play by the variant `inform` names.
    #[error("inform: as {variant}: {why}")]
    AsVariant { variant: Variant, why: SanError },
    /// A move (the referee's `sm`, one taken back to, or the client's own)
    /// that does not play.
    #[error(transparent)]
    Move(#[from] SanError),
    #[error("no game")]
    NoGame,
}
use crate::text::strip_control;

/// Most tags kept from `inform` (more are ignored).
const MAX_TAGS: usize = 64;
/// Longest tag value kept.
const MAX_TAG_VALUE: usize = 256;

/// What a record meant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// `reset`: a new game (or the same one again, for a resync).
    NewGame,
    /// `inform`; `result` is the `Result` tag when it is not `*`.
    Inform {
        result: Option<String>,
    },
    /// `execute`: a move played (or a position adopted).
    Executed,
    /// `respond`: the client is on move.
    Respond {
        draw_offered: bool,
    },
    Conclude,
    /// `refcom fault`.
    RefereeFault,
    Disconnect,
}

/// The game as the bridge follows it.
#[derive(Debug, Clone)]
pub struct Tracker {
    game: Option<Game>,
    /// Plies played before the clocks began.
    opening_plies: usize,
    /// A respond came since the last reset: the opening is over.
    clocks_begun: bool,
    /// The game before the last reset (start, moves, opening plies), to
    /// tell a resync of the same game from a new one.
    previous: Option<(Chess, Vec<Move>, usize)>,
    tags: Vec<(String, String)>,
    /// The rules, from the last `inform`'s `Variant` tag.
    variant: Variant,
    time_control: TimeControl,
    /// Time odds: each colour's own control, from the last `inform`'s
    /// `Atc` (`None`: `time_control`).
    side_controls: ByColor<Option<TimeControl>>,
    /// `cc` of the last record that had it: whole seconds used.
    cc_seconds: ByColor<u64>,
    /// `Aclk` of the last record: milliseconds left (`None` when that
    /// record had none).
    clock_left: Option<ByColor<u64>>,
}

impl Default for Tracker {
    fn default() -> Tracker {
        Tracker::new()
    }
}

impl Tracker {
    pub fn new() -> Tracker {
        Tracker {
            game: None,
            opening_plies: 0,
            clocks_begun: false,
            previous: None,
            tags: Vec::new(),
            variant: Variant::Standard,
            time_control: TimeControl::Untimed,
            side_controls: ByColor::new_with(|_| None),
            cc_seconds: ByColor::new_with(|_| 0),
            clock_left: None,
        }
    }

    /// The game, once a record has set it up.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The position now (the initial position before any record).
    pub fn position(&self) -> Chess {
        self.game
            .as_ref()
            .map_or_else(Chess::default, |g| g.position().clone())
    }

    /// The time control from the last `inform` with a valid `TimeControl`
    /// tag (`-` until then).
    pub fn time_control(&self) -> &TimeControl {
        &self.time_control
    }

    /// The control `side` plays under: its own from the last `inform`
    /// (`Atc`, time odds), else the
    /// game's [`time_control`](Self::time_control).
    pub fn time_control_of(&self, side: Color) -> &TimeControl {
        self.side_controls
            .get(side)
            .as_ref()
            .unwrap_or(&self.time_control)
    }

    /// Both colours' controls ([`time_control_of`](Self::time_control_of)).
    pub fn time_controls(&self) -> ByColor<&TimeControl> {
        ByColor::new_with(|c| self.time_control_of(c))
    }

    /// The tags from `inform` (latest values, control characters removed).
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// Handles a record from the referee. An error says what was wrong
    /// with it (the game is then as before, or newly adopted).
    pub fn handle(&mut self, rec: &Record) -> Result<Event, TrackError> {
        let cmd = rec.refcom()?.ok_or(TrackError::NoRefcom)?;
        if let Ok(Some((w, b))) = rec.cc() {
            self.cc_seconds = ByColor {
                white: w.0,
                black: b.0,
            };
        }
        // A malformed `Aclk` counts as none: `cc` is still there.
        self.clock_left = rec
            .clock_left()
            .ok()
            .flatten()
            .map(|(white, black)| ByColor { white, black });
        match cmd {
            RefCom::Reset => {
                if let Some(g) = self.game.take() {
                    self.previous =
                        Some((g.start().clone(), g.moves().to_vec(), self.opening_plies));
                }
                self.adopt(rec)?;
                self.clocks_begun = false;
                self.opening_plies = 0;
                Ok(Event::NewGame)
            }
            RefCom::Inform => {
                let mut result = None;
                let mut bad = None;
                let mut variant = Variant::Standard;
                let ptp = rec.ptp()?;
                // Each `inform` tells the game's own controls: none (no
                // `Atc`) means no odds in this game.
                if let Err(e) = self.read_odds(rec) {
                    bad = Some(e);
                }
                for (k, v) in ptp {
                    let v: String = strip_control(&v).chars().take(MAX_TAG_VALUE).collect();
                    match k.as_str() {
                        "Variant" => match v.parse::<Variant>() {
                            Ok(found) => variant = found,
                            Err(e) => bad = Some(TrackError::Variant(e)),
                        },
                        "TimeControl" => match v.parse::<TimeControl>() {
                            Ok(tc) => self.time_control = tc,
                            Err(e) => bad = Some(TrackError::TimeControl(e)),
                        },
                        "Result" if v != "*" => result = Some(v.clone()),
                        _ => {}
                    }
                    let full = self.tags.len() >= MAX_TAGS;
                    match self.tags.iter_mut().find(|(t, _)| *t == k) {
                        Some(slot) => slot.1 = v,
                        None if !full => self.tags.push((k, v)),
                        None => {}
                    }
                }
                self.set_variant(variant)?;
                match bad {
                    Some(e) => Err(e),
                    None => Ok(Event::Inform { result }),
                }
            }
            RefCom::Execute => {
                self.sync(rec)?;
                self.play_sm(rec)?;
                Ok(Event::Executed)
            }
            RefCom::Respond => {
                self.sync(rec)?;
                // The opponent's move in the first respond is already timed.
                if !self.clocks_begun {
                    self.begin_clocks();
                }
                self.play_sm(rec)?;
                Ok(Event::Respond {
                    draw_offered: rec.draw_offer(),
                })
            }
            RefCom::Conclude => Ok(Event::Conclude),
            RefCom::Fault => Ok(Event::RefereeFault),
            RefCom::Disconnect => Ok(Event::Disconnect),
        }
    }

    /// Time odds from an `inform`'s `Atc` (each colour's own control);
    /// without it, none. A control that does not read is an error and
    /// that side plays `TimeControl`'s.
    fn read_odds(&mut self, rec: &Record) -> Result<(), TrackError> {
        self.side_controls = ByColor::new_with(|_| None);
        let Some((white, black)) = rec.time_controls().map_err(TrackError::Odds)? else {
            return Ok(());
        };
        let mut bad = None;
        for (side, text) in [(Color::White, white), (Color::Black, black)] {
            let text = strip_control(&text);
            match text.parse::<TimeControl>() {
                Ok(tc) => *self.side_controls.get_mut(side) = Some(tc),
                Err(why) => bad = Some(TrackError::SideControl { side, why }),
            }
        }
        bad.map_or(Ok(()), Err)
    }

    /// The first respond of a game: the moves so far were the opening,
    /// unless the referee was replaying a game already under way (a resync
    /// after the link came back), whose opening is known.
    fn begin_clocks(&mut self) {
        self.clocks_begun = true;
        let Some(g) = self.game.as_ref() else { return };
        self.opening_plies = g.ply();
        if let Some((start, moves, opening)) = &self.previous {
            let common = moves
                .iter()
                .zip(g.moves())
                .take_while(|(a, b)| a == b)
                .count();
            if start == g.start() && common > *opening && *opening <= g.ply() {
                self.opening_plies = *opening;
            }
        }
    }

    /// The rules of the game: the game (start and moves) set up again by
    /// them when it was set up by others.
    fn set_variant(&mut self, variant: Variant) -> Result<(), TrackError> {
        self.variant = variant;
        let Some(g) = self.game.as_ref() else {
            return Ok(());
        };
        if Variant::of(g.start()) == variant {
            return Ok(());
        }
        let start =
            game::in_variant(g.start(), variant).ok_or(TrackError::NotInVariant(variant))?;
        let mut again = Game::new(start);
        for m in g.moves() {
            again
                .play(*m)
                .map_err(|why| TrackError::AsVariant { variant, why })?;
        }
        self.game = Some(again);
        Ok(())
    }

    /// Sets up a new game from the record's position, by the rules known
    /// (standard chess, or Chess960 where standard chess cannot read it).
    fn adopt(&mut self, rec: &Record) -> Result<(), TrackError> {
        let pos = match game::position_of_record_in(rec, self.variant) {
            Ok(pos) => pos,
            Err(e) if self.variant == Variant::Standard => {
                game::position_of_record_in(rec, Variant::Chess960).map_err(|_| e)?
            }
            Err(e) => return Err(e.into()),
        };
        self.game = Some(Game::new(pos));
        Ok(())
    }

    /// Takes the game back to the record's position if the game passed
    /// through it (the latest such ply), else adopts the position.
    fn sync(&mut self, rec: &Record) -> Result<(), TrackError> {
        let at = self.game.as_ref().and_then(|g| {
            (0..=g.ply()).rev().find(|&ply| {
                g.position_at(ply)
                    .is_some_and(|p| game::echo_mismatch(p, &rec.fields).is_none())
            })
        });
        match (at, self.game.as_ref()) {
            (Some(ply), Some(g)) if ply == g.ply() => {}
            (Some(ply), Some(g)) => {
                let mut back = Game::new(g.start().clone());
                for m in &g.moves()[..ply] {
                    back.play(*m)?;
                }
                self.game = Some(back);
            }
            _ => self.adopt(rec)?,
        }
        Ok(())
    }

    /// Plays the record's `sm`, if any.
    fn play_sm(&mut self, rec: &Record) -> Result<(), TrackError> {
        if let Some(san) = rec.sm()? {
            let g = self.game.as_mut().ok_or(TrackError::NoGame)?;
            g.play_san(san)?;
        }
        Ok(())
    }

    /// Plays the engine's own move; returns its SAN.
    pub fn play_own(&mut self, m: Move) -> Result<String, TrackError> {
        let g = self.game.as_mut().ok_or(TrackError::NoGame)?;
        Ok(g.play(m).map(str::to_owned)?)
    }

    /// The sign-on record: the position, `refreq sign_on;`, `tcsi` with
    /// the client's name.
    pub fn sign_on_record(&self, name: &str) -> String {
        crate::epd::sign_on::record(game::fields_of(&self.position()), name)
    }

    /// A fault report: the position and `refreq fault;`.
    pub fn fault_record(&self) -> String {
        Record::new(game::fields_of(&self.position()))
            .with(Operation::refreq(RefReq::Fault))
            .to_canonical()
    }

    /// The start of a reply, before the client's move: the position on
    /// move, `refreq reply;`, `fmvn` and `hmvc`.
    pub fn reply_record(&self) -> Record {
        let pos = self.position();
        Record::new(game::fields_of(&pos))
            .with(Operation::refreq(RefReq::Reply))
            .with(Operation::fmvn(pos.fullmoves().get()))
            .with(Operation::hmvc(pos.halfmoves()))
    }

    /// Moves each side has made since the clocks began.
    pub fn moves_made(&self) -> ByColor<u32> {
        let mut n = ByColor::new_with(|_| 0u32);
        if let Some(g) = &self.game {
            for ply in self.opening_plies..g.ply() {
                if let Some(p) = g.position_at(ply) {
                    let side: Color = p.turn();
                    *n.get_mut(side) = n.get(side).saturating_add(1);
                }
            }
        }
        n
    }

    /// Whole seconds each side has used, from the last `cc`.
    pub fn cc_seconds(&self) -> ByColor<u64> {
        self.cc_seconds
    }

    /// Milliseconds left on each clock, from the last record's `Aclk`
    /// (`None` if it had none: a referee that does not send it).
    pub fn clock_left(&self) -> Option<ByColor<u64>> {
        self.clock_left
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::engine::time::{Limit, SearchLimits, limit};
    use crate::epd::Operation;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

    fn rec(pos: &Chess, cmd: &str, extra: &str) -> Record {
        let fields = game::fields_of(pos);
        let mut r = Record::new(fields);
        r.set(Operation::new("refcom").token(cmd));
        let text = format!("{} {extra}", r.to_canonical());
        Record::parse(&text).unwrap()
    }

    fn after(sans: &[&str]) -> (Chess, Game) {
        let mut g = Game::new(Chess::default());
        for s in sans {
            g.play_san(s).unwrap();
        }
        (g.position().clone(), g)
    }

    #[test]
    fn follows_a_game_and_keeps_history_on_a_resend() {
        let mut t = Tracker::new();
        let start = Chess::default();
        assert_eq!(t.handle(&rec(&start, "reset", "")).unwrap(), Event::NewGame);
        assert_eq!(
            t.handle(&rec(
                &start,
                "inform",
                "ptp TimeControl \"300+5\" Result \"*\";"
            ))
            .unwrap(),
            Event::Inform { result: None }
        );
        assert_eq!(t.time_control().to_string(), "300+5");
        // We are Black: White played e4.
        let ev = t.handle(&rec(
            &start,
            "respond",
            "sm e4; cc \"000:00:00:07\" \"000:00:00:00\";",
        ));
        assert_eq!(
            ev.unwrap(),
            Event::Respond {
                draw_offered: false
            }
        );
        assert_eq!(t.cc_seconds().white, 7);
        assert_eq!(t.clock_left(), None);
        t.play_own(game::parse_san(&t.position(), "e5").unwrap())
            .unwrap();
        // The referee paused and asks again: same position, same sm.
        let ev = t.handle(&rec(&start, "respond", "sm e4; draw_offer;"));
        assert_eq!(ev.unwrap(), Event::Respond { draw_offered: true });
        assert_eq!(t.game().unwrap().ply(), 1);
        t.play_own(game::parse_san(&t.position(), "c5").unwrap())
            .unwrap();
        let (p, _) = after(&["e4", "c5"]);
        t.handle(&rec(&p, "respond", "sm Nf3;")).unwrap();
        assert_eq!(t.game().unwrap().sans(), ["e4", "c5", "Nf3"]);
        assert_eq!(t.moves_made(), ByColor { white: 2, black: 1 });
        assert!(START.starts_with(&game::fen_of(t.game().unwrap().start())[..20]));
    }

    #[test]
    fn aclk_gives_the_clocks_and_unknown_opcodes_are_ignored() {
        let mut t = Tracker::new();
        let start = Chess::default();
        let ev = t.handle(&rec(&start, "reset", "Aclk 2000 2000; Zq 1; Apriv \"x\";"));
        assert_eq!(ev.unwrap(), Event::NewGame);
        assert_eq!(
            t.clock_left(),
            Some(ByColor {
                white: 2000,
                black: 2000
            })
        );
        let ev = t.handle(&rec(
            &start,
            "respond",
            "Aclk 1873 1999; cc 000:00:00:00 000:00:00:01; sm e4;",
        ));
        assert!(matches!(ev, Ok(Event::Respond { .. })), "{ev:?}");
        assert_eq!(
            t.clock_left(),
            Some(ByColor {
                white: 1873,
                black: 1999
            })
        );
        assert_eq!(t.cc_seconds(), ByColor { white: 0, black: 1 });
        // A record without it (a referee that does not send it), or with
        // a malformed one: cc is all there is.
        t.handle(&rec(&start, "inform", "")).unwrap();
        assert_eq!(t.clock_left(), None);
        t.handle(&rec(&start, "inform", "Aclk -5 x;")).unwrap();
        assert_eq!(t.clock_left(), None);
    }

    #[test]
    fn an_unknown_position_is_adopted() {
        let mut t = Tracker::new();
        t.handle(&rec(&Chess::default(), "reset", "")).unwrap();
        let p = game::position_from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 30").unwrap();
        t.handle(&rec(&p, "respond", "")).unwrap();
        assert_eq!(t.game().unwrap().ply(), 0);
        assert_eq!(*t.game().unwrap().start(), p);
    }

    #[test]
    fn opening_moves_are_not_timed_and_a_resync_keeps_the_opening() {
        let mut t = Tracker::new();
        let start = Chess::default();
        t.handle(&rec(&start, "reset", "")).unwrap();
        t.handle(&rec(&start, "inform", "ptp TimeControl \"40/600\";"))
            .unwrap();
        let (p1, _) = after(&["e4"]);
        t.handle(&rec(&start, "execute", "sm e4;")).unwrap();
        t.handle(&rec(&p1, "execute", "sm e5;")).unwrap();
        let (p2, _) = after(&["e4", "e5"]);
        t.handle(&rec(&p2, "respond", "")).unwrap();
        assert_eq!(t.moves_made(), ByColor { white: 0, black: 0 });
        match limit(&t, SearchLimits::default(), 0) {
            Limit::Clock(c, _) => assert_eq!(c.moves_to_go.white, Some(40)),
            other => panic!("{other:?}"),
        }
        t.play_own(game::parse_san(&p2, "Nf3").unwrap()).unwrap();
        let (p3, _) = after(&["e4", "e5", "Nf3"]);
        t.handle(&rec(&p3, "respond", "sm Nc6;")).unwrap(); // hypothetically
        assert_eq!(t.moves_made(), ByColor { white: 1, black: 1 });

        // The link came back: reset, then the whole game with execute.
        t.handle(&rec(&start, "reset", "")).unwrap();
        let (p4, g) = after(&["e4", "e5", "Nf3", "Nc6"]);
        for ply in 0..g.ply() {
            let before = g.position_at(ply).unwrap();
            let sm = format!("sm {};", g.sans()[ply]);
            t.handle(&rec(before, "execute", &sm)).unwrap();
        }
        t.handle(&rec(&p4, "respond", "")).unwrap();
        assert_eq!(t.moves_made(), ByColor { white: 1, black: 1 });

        // A new game from the same start with a shorter opening.
        t.handle(&rec(&start, "reset", "")).unwrap();
        t.handle(&rec(&start, "execute", "sm d4;")).unwrap();
        let (p5, _) = after(&["d4"]);
        t.handle(&rec(&p5, "respond", "")).unwrap();
        assert_eq!(t.moves_made(), ByColor { white: 0, black: 0 });
    }

    /// Time odds: each side's control from `inform`'s `Atc`, its
    /// increment in `go`; gone with the next game's `inform` that has none.
    #[test]
    fn each_side_is_timed_by_its_own_control_from_inform() {
        let mut t = Tracker::new();
        let start = Chess::default();
        t.handle(&rec(&start, "reset", "")).unwrap();
        let odds = "ptp TimeControl \"10+0.1\"; Atc \"1+0.01\" \"40/10\";";
        t.handle(&rec(&start, "inform", odds)).unwrap();
        assert_eq!(t.time_control_of(Color::White).to_string(), "1+0.01");
        assert_eq!(t.time_control_of(Color::Black).to_string(), "40/10");
        t.handle(&rec(&start, "respond", "")).unwrap();
        let Limit::Clock(c, _) = limit(&t, SearchLimits::default(), 0) else {
            panic!("a timed game")
        };
        // No `Aclk`: from `cc`, the opponent has used the middle of its
        // second (500 ms) of its own 10 s.
        assert_eq!(
            (c.remaining_ms, c.increment_ms, c.moves_to_go),
            (
                ByColor {
                    white: 1_000,
                    black: 9_500
                },
                ByColor {
                    white: 10,
                    black: 0
                },
                ByColor {
                    white: None,
                    black: Some(40)
                }
            )
        );
        // The next game has no odds: the event's control for both.
        t.handle(&rec(&start, "reset", "")).unwrap();
        t.handle(&rec(&start, "inform", "ptp TimeControl \"10+0.1\";"))
            .unwrap();
        assert_eq!(t.time_controls().map(|c| c.to_string()).white, "10+0.1");
        // A bad one is refused, the rest kept.
        let bad = "Atc \"soon\" \"5\";";
        let e = t.handle(&rec(&start, "inform", bad)).unwrap_err();
        assert!(
            matches!(
                e,
                TrackError::SideControl {
                    side: Color::White,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("Atc white"), "{e}");
        assert_eq!(t.time_control_of(Color::Black).to_string(), "5");
        assert_eq!(t.time_control_of(Color::White).to_string(), "10+0.1");
    }

    #[test]
    fn results_and_bad_records() {
        let mut t = Tracker::new();
        let p = Chess::default();
        assert_eq!(
            t.handle(&rec(&p, "inform", "ptp Result \"1-0\";")).unwrap(),
            Event::Inform {
                result: Some("1-0".into())
            }
        );
        assert!(
            t.handle(&rec(&p, "inform", "ptp TimeControl \"x\";"))
                .is_err()
        );
        assert!(t.handle(&rec(&p, "respond", "sm Ke2;")).is_err());
        let no_refcom = Record::parse(&format!("{START} sm e4;")).unwrap();
        assert!(t.handle(&no_refcom).is_err());
        assert_eq!(t.handle(&rec(&p, "conclude", "")).unwrap(), Event::Conclude);
        assert_eq!(
            t.handle(&rec(&p, "fault", "")).unwrap(),
            Event::RefereeFault
        );
        assert_eq!(
            t.handle(&rec(&p, "disconnect", "")).unwrap(),
            Event::Disconnect
        );
    }

    /// A Chess960 game on the wire: `reset` with a position standard chess
    /// cannot read (king b1 between rooks a1 and h1) is read as Chess960;
    /// a `reset` of number 518, readable either way, is standard until
    /// `inform`'s `Variant "Chess960"` sets it up again by the Chess960
    /// rules; `sm O-O` then castles by them, and the records the client
    /// sends write the castling field in X-FEN.
    #[test]
    fn follows_chess960_from_informs_variant_tag() {
        let mut t = Tracker::new();
        let rk = game::position_from_fen_in(
            "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1",
            Variant::Chess960,
        )
        .unwrap();
        t.handle(&rec(&rk, "reset", "")).unwrap();
        assert_eq!(Variant::of(t.game().unwrap().start()), Variant::Chess960);

        let standard = game::chess960_start(game::STANDARD_NUMBER).unwrap();
        t.handle(&rec(&standard, "reset", "")).unwrap();
        assert_eq!(Variant::of(t.game().unwrap().start()), Variant::Standard);
        let ev = t.handle(&rec(
            &standard,
            "inform",
            "ptp Event \"x\" Result \"*\" Variant \"Chess960\";",
        ));
        assert_eq!(ev.unwrap(), Event::Inform { result: None });
        assert_eq!(Variant::of(t.game().unwrap().start()), Variant::Chess960);
        let mut g = Game::new(standard);
        for san in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"] {
            g.play_san(san).unwrap();
        }
        t.handle(&rec(g.position(), "respond", "")).unwrap();
        let castle = game::parse_san(&t.position(), "O-O").unwrap();
        assert_eq!(
            castle.to_uci(shakmaty::CastlingMode::Chess960).to_string(),
            "e1h1"
        );
        t.play_own(castle).unwrap();
        assert_eq!(t.reply_record().fields.castling, "kq");
        // The next game's inform without the tag: standard again.
        t.handle(&rec(&Chess::default(), "reset", "")).unwrap();
        t.handle(&rec(&Chess::default(), "inform", "ptp Result \"*\";"))
            .unwrap();
        assert_eq!(Variant::of(t.game().unwrap().start()), Variant::Standard);
    }

    #[test]
    fn an_unknown_variant_is_said_and_played_as_standard() {
        let mut t = Tracker::new();
        t.handle(&rec(&Chess::default(), "reset", "")).unwrap();
        let e = t
            .handle(&rec(
                &Chess::default(),
                "inform",
                "ptp Variant \"Crazyhouse\";",
            ))
            .unwrap_err();
        assert!(matches!(e, TrackError::Variant(_)), "{e}");
        assert!(
            e.to_string().contains("unknown variant \"Crazyhouse\""),
            "{e}"
        );
        assert_eq!(Variant::of(t.game().unwrap().start()), Variant::Standard);
    }
}
