//! Analysis with an engine: fixed searches (`movetime`, `depth`, `nodes`,
//! UCI `mate`), the engine's progress reports read into [`Info`] (UCI
//! `info ... depth ... score cp|mate ... nodes ... time ... pv ...`,
//! XBoard `post` thinking lines `ply score time nodes pv`), and what a
//! search left behind ([`Analysis`]): the best move, the last report, and
//! the first moment the engine settled on the move it kept.
//!
//! Scores become EPD `ce` values ([`Score::ce`], spec 6.7) and mate
//! lengths (`dm`, spec 6.8). Everything here is I/O-free; the drivers
//! ([`super::uci`], [`super::xboard`]) feed it lines.

use std::time::Duration;

use shakmaty::{Chess, Move, Position};

use super::notation;
use super::time::LimitError;
use crate::game;

/// How much search one position gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchLimit {
    /// Milliseconds of search.
    MoveTime(u64),
    /// Plies.
    Depth(u32),
    /// Nodes.
    Nodes(u64),
}

/// A search request: the limit, whether it is soft (the engine manages
/// its time around it, spec 7.2) and, for a mate search, the longest mate
/// wanted in moves (UCI `go mate N`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Search {
    pub limit: SearchLimit,
    pub soft: bool,
    pub mate: Option<u32>,
}

/// Moves a soft time limit is spread over (the engine gets this many
/// times the move time for as many moves).
const SOFT_MOVES: u64 = 40;

impl Search {
    /// The UCI `go` command.
    pub fn uci_go(&self) -> String {
        let mut s = String::from("go");
        if let Some(n) = self.mate {
            s.push_str(&format!(" mate {n}"));
        }
        match self.limit {
            SearchLimit::MoveTime(ms) if self.soft => {
                let total = ms.saturating_mul(SOFT_MOVES);
                s.push_str(&format!(
                    " wtime {total} btime {total} movestogo {SOFT_MOVES}"
                ));
            }
            SearchLimit::MoveTime(ms) => s.push_str(&format!(" movetime {ms}")),
            SearchLimit::Depth(d) => s.push_str(&format!(" depth {d}")),
            SearchLimit::Nodes(n) => s.push_str(&format!(" nodes {n}")),
        }
        s
    }

    /// The XBoard commands that set the limit before `go` (`st`, `sd`,
    /// `level` for a soft limit), or why XBoard cannot take it.
    pub fn xboard_limit(&self) -> Result<Vec<String>, LimitError> {
        match self.limit {
            SearchLimit::MoveTime(ms) if self.soft => {
                let total_s = (ms.saturating_mul(SOFT_MOVES)).div_ceil(1000).max(1);
                Ok(vec![
                    format!("level {SOFT_MOVES} {}:{:02} 0", total_s / 60, total_s % 60),
                    format!("time {}", total_s * 100),
                    format!("otim {}", total_s * 100),
                ])
            }
            // `st` takes whole seconds; never less than one.
            SearchLimit::MoveTime(ms) => Ok(vec![format!("st {}", ms.div_ceil(1000).max(1))]),
            SearchLimit::Depth(d) => Ok(vec![format!("sd {d}")]),
            SearchLimit::Nodes(_) => Err(LimitError::XboardNodes),
        }
    }

    /// How long to wait for the answer before the engine counts as hung:
    /// the move time (or `other` for depth, node and soft searches) plus
    /// `margin`. XBoard rounds `st` up to whole seconds, so does this.
    pub fn wait(&self, margin: Duration, other: Duration) -> Duration {
        let own = match self.limit {
            SearchLimit::MoveTime(ms) if !self.soft => {
                Duration::from_millis(ms.div_ceil(1000) * 1000)
            }
            _ => other,
        };
        own.saturating_add(margin)
    }
}

/// An engine's score, from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (positive: the side to move mates;
    /// negative: it is mated; 0: it is mated now).
    Mate(i32),
}

/// XBoard's mate scores: 100000 + N for a mate in N moves (the CECP
/// convention); scores above this many centipawns are read as mates.
const XBOARD_MATE: i64 = 100_000;

/// The largest score read as `100000 + N` (a mate in at most 1000
/// moves); larger ones (Sjeng's `-999997`) are centipawns, clamped.
const XBOARD_MATE_MOVES: i64 = 101_000;

/// The other convention around [`XBOARD_MATE`]: 100000 - P for a mate P
/// plies away (HoiChess: `-99996` with a pv of 4 plies ending in mate);
/// scores from here up to 100000 are read as mates in (P + 1) / 2 moves.
const XBOARD_MATE_PLIES: i64 = 99_000;

impl Score {
    /// The EPD `ce` value (spec 6.7): centipawns clamped to -32000..=32000
    /// (beyond that are mates); a mate in N moves is 32767 - (2N - 1), a
    /// mate against the side to move in N is -32767 + 2N, mated now is
    /// -32767.
    pub fn ce(self) -> i32 {
        match self {
            Score::Cp(cp) => cp.clamp(-32000, 32000),
            Score::Mate(n) if n > 0 => 32767 - (2 * n.min(16000) - 1),
            Score::Mate(n) => -32767 + 2 * n.saturating_neg().min(16000),
        }
    }

    /// The score an EPD `ce` value stands for.
    pub fn from_ce(ce: i32) -> Score {
        if ce > 32000 {
            Score::Mate((32767 - ce + 1) / 2)
        } else if ce < -32000 {
            Score::Mate(-((ce + 32767) / 2))
        } else {
            Score::Cp(ce)
        }
    }

    /// Mate for the side to move in this many moves, if so (`dm`).
    pub fn mate_in(self) -> Option<u32> {
        match self {
            Score::Mate(n) if n > 0 => u32::try_from(n).ok(),
            _ => None,
        }
    }
}

/// One progress report of the engine. Moves are as the engine wrote them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    /// UCI `seldepth`: the selective depth in plies.
    pub seldepth: Option<u32>,
    /// UCI `nps`: the engine's own speed in nodes a second.
    pub nps: Option<u64>,
    pub score: Option<Score>,
    pub nodes: Option<u64>,
    pub time_ms: Option<u64>,
    pub pv: Vec<String>,
}

/// Longest principal variation kept from one report.
pub const MAX_PV: usize = 128;

/// Reads a UCI `info` line; `None` for other lines and for `info` lines
/// with neither a score nor a pv (`info string`, `currmove` reports).
/// Bound scores (`lowerbound`, `upperbound`) and multi-pv lines other than
/// the first are not final and are left out.
pub fn parse_uci_info(line: &str) -> Option<Info> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let mut info = Info::default();
    while let Some(w) = words.next() {
        match w {
            "string" => return None,
            "depth" => info.depth = words.next().and_then(|v| v.parse().ok()),
            "seldepth" => info.seldepth = words.next().and_then(|v| v.parse().ok()),
            "nps" => info.nps = words.next().and_then(|v| v.parse().ok()),
            "nodes" => info.nodes = words.next().and_then(|v| v.parse().ok()),
            "time" => info.time_ms = words.next().and_then(|v| v.parse().ok()),
            "multipv" if words.next() != Some("1") => return None,
            "lowerbound" | "upperbound" => return None,
            "score" => {
                let kind = words.next();
                let value: Option<i32> = words.next().and_then(|v| v.parse().ok());
                info.score = match (kind, value) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                };
            }
            "pv" => {
                info.pv = words.by_ref().take(MAX_PV).map(str::to_owned).collect();
                break;
            }
            _ => {}
        }
    }
    (info.score.is_some() || !info.pv.is_empty()).then_some(info)
}

/// Reads an XBoard thinking line (`post`): `ply score time nodes pv...`,
/// time in centiseconds; a trailing `.` or `&` on the ply is allowed, the
/// pv's move numbers (`1.`, `2...`) and annotations are skipped.
pub fn parse_xboard_thinking(line: &str) -> Option<Info> {
    let mut words = line.split_whitespace();
    let ply: u32 = words.next()?.trim_end_matches(['.', '&']).parse().ok()?;
    let score: i64 = words.next()?.parse().ok()?;
    let time_cs: u64 = words.next()?.parse().ok()?;
    let nodes: u64 = words.next()?.parse().ok()?;
    let sign = if score < 0 { -1 } else { 1 };
    let size = score.unsigned_abs();
    let moves = if size > XBOARD_MATE_MOVES.unsigned_abs() {
        // Sjeng's 1000000 - P and the like: no convention says how far.
        None
    } else if size > XBOARD_MATE.unsigned_abs() {
        Some(size - XBOARD_MATE.unsigned_abs())
    } else if size >= XBOARD_MATE_PLIES.unsigned_abs() {
        Some((XBOARD_MATE.unsigned_abs() - size).div_ceil(2))
    } else {
        None
    };
    let score = match moves {
        Some(n) => Score::Mate(sign * i32::try_from(n).unwrap_or(i32::MAX)),
        None => Score::Cp(i32::try_from(score).unwrap_or(0)),
    };
    let pv = words
        .filter(|w| {
            let first = w.chars().next().unwrap_or('.');
            !first.is_ascii_digit() && !matches!(first, '.' | '(' | '{' | '<' | '[')
        })
        .map(|w| w.trim_end_matches(['!', '?', '+', '#']).to_string())
        .take(MAX_PV)
        .collect();
    Some(Info {
        depth: Some(ply),
        score: Some(score),
        nodes: Some(nodes),
        time_ms: Some(time_cs.saturating_mul(10)),
        pv,
        ..Info::default()
    })
}

/// The moment the engine first had the move it kept.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Moment {
    pub depth: Option<u32>,
    pub time_ms: Option<u64>,
    pub nodes: Option<u64>,
}

/// What one search gave.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Analysis {
    /// The engine's move (`bestmove`, XBoard `move`); `None` when it had
    /// none (`bestmove (none)` in a mate or stalemate).
    pub best: Option<Move>,
    /// The last report's values, with its pv made legal SAN (cut at the
    /// first move that is not legal, or that contradicts `best`).
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub nodes: Option<u64>,
    /// The engine's own speed (UCI `nps`), when it said it.
    pub nps: Option<u64>,
    pub time_ms: Option<u64>,
    pub pv: Vec<String>,
    /// When the engine's first choice last changed to the move it played.
    pub settled: Option<Moment>,
    /// Milliseconds argus waited for the answer (a fall-back for
    /// `time_ms`).
    pub elapsed_ms: u64,
}

/// Reads a search's reports as they come, keeping only the last one and
/// the moment the first move last changed: constant memory.
#[derive(Debug, Clone)]
pub struct Collector {
    position: Chess,
    last: Option<Info>,
    first: Option<(Move, Moment)>,
    /// Moves in the engine's notation are read as XBoard moves (either
    /// coordinates or SAN) rather than UCI only.
    xboard: bool,
}

impl Collector {
    pub fn new(position: Chess, xboard: bool) -> Collector {
        Collector {
            position,
            last: None,
            first: None,
            xboard,
        }
    }

    fn read_move(&self, pos: &Chess, text: &str) -> Option<Move> {
        if self.xboard {
            notation::from_xboard(pos, text).ok()
        } else {
            notation::from_uci(pos, text).ok()
        }
    }

    /// Takes one report.
    pub fn take(&mut self, info: Info) {
        if let Some(m) = info
            .pv
            .first()
            .and_then(|t| self.read_move(&self.position, t))
            && self.first.as_ref().is_none_or(|(f, _)| *f != m)
        {
            let at = Moment {
                depth: info.depth,
                time_ms: info.time_ms,
                nodes: info.nodes,
            };
            self.first = Some((m, at));
        }
        if info.pv.is_empty()
            && let Some(last) = &self.last
        {
            // A report without a pv (a score update) keeps the last pv.
            let pv = last.pv.clone();
            self.last = Some(Info { pv, ..info });
        } else {
            self.last = Some(info);
        }
    }

    /// The result once the engine gave its move (`None`: no move).
    pub fn finish(self, best: Option<Move>, elapsed: Duration) -> Analysis {
        let last = self.last.clone().unwrap_or_default();
        let mut moves = Vec::new();
        let mut pos = self.position.clone();
        for text in &last.pv {
            let Some(m) = self.read_move(&pos, text) else {
                break;
            };
            if moves.is_empty() && best.is_some_and(|b| b != m) {
                break;
            }
            moves.push(game::san_of(&pos, &m));
            pos.play_unchecked(m);
        }
        if moves.is_empty()
            && let Some(b) = best
        {
            moves.push(game::san_of(&self.position, &b));
        }
        let settled = match (&self.first, best) {
            (Some((m, at)), Some(b)) if *m == b => Some(*at),
            _ => None,
        };
        Analysis {
            best,
            score: last.score,
            depth: last.depth,
            seldepth: last.seldepth,
            nodes: last.nodes,
            nps: last.nps,
            time_ms: last.time_ms,
            pv: moves,
            settled,
            elapsed_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
        }
    }
}

/// The EPD `pv` operation of SAN moves (no operands for none).
pub fn pv_operation(moves: &[String]) -> crate::epd::Operation {
    moves
        .iter()
        .fold(crate::epd::Operation::new("pv"), |op, m| {
            op.token(m.clone())
        })
}

/// Replays SAN moves from `pos`; the position after them, or the first
/// move that is not legal.
pub fn replay(pos: &Chess, san: &[String]) -> Result<Chess, BadMove> {
    let mut p = pos.clone();
    for s in san {
        let m = game::parse_san(&p, s).map_err(|why| BadMove {
            san: s.clone(),
            why,
        })?;
        p.play_unchecked(m);
    }
    Ok(p)
}

/// A move of a line that does not read or is not legal where it is
/// played: the move as written, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{san}: {why}")]
pub struct BadMove {
    pub san: String,
    pub why: game::SanError,
}

/// The length in moves of the mate `pv` plays from `pos`, if it is one:
/// every move legal, an odd number of plies, and checkmate at its end.
pub fn mate_length(pos: &Chess, pv: &[String]) -> Option<u32> {
    if pv.len().is_multiple_of(2) {
        return None;
    }
    let end = replay(pos, pv).ok()?;
    end.is_checkmate()
        .then(|| u32::try_from(pv.len().div_ceil(2)).unwrap_or(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Chess {
        game::position_from_fen(fen).unwrap()
    }

    #[test]
    fn ce_follows_spec_6_7() {
        assert_eq!(Score::Mate(1).ce(), 32766);
        assert_eq!(Score::Mate(5).ce(), 32758);
        assert_eq!(Score::Mate(-1).ce(), -32765);
        assert_eq!(Score::Mate(-5).ce(), -32757);
        assert_eq!(Score::Mate(0).ce(), -32767);
        assert_eq!(Score::Cp(35).ce(), 35);
        assert_eq!(Score::Cp(-40000).ce(), -32000);
        for s in [
            Score::Mate(1),
            Score::Mate(7),
            Score::Mate(-1),
            Score::Mate(-9),
            Score::Mate(0),
            Score::Cp(-120),
        ] {
            assert_eq!(Score::from_ce(s.ce()), s);
        }
        assert_eq!(Score::Mate(3).mate_in(), Some(3));
        assert_eq!(Score::Mate(-3).mate_in(), None);
        assert_eq!(Score::Cp(900).mate_in(), None);
    }

    #[test]
    fn go_commands_and_xboard_limits() {
        let s = |limit, soft, mate| Search { limit, soft, mate };
        assert_eq!(
            s(SearchLimit::MoveTime(250), false, None).uci_go(),
            "go movetime 250"
        );
        assert_eq!(s(SearchLimit::Depth(7), false, None).uci_go(), "go depth 7");
        assert_eq!(
            s(SearchLimit::Nodes(5000), false, None).uci_go(),
            "go nodes 5000"
        );
        assert_eq!(
            s(SearchLimit::MoveTime(100), false, Some(2)).uci_go(),
            "go mate 2 movetime 100"
        );
        assert_eq!(
            s(SearchLimit::MoveTime(1000), true, None).uci_go(),
            "go wtime 40000 btime 40000 movestogo 40"
        );
        assert_eq!(
            s(SearchLimit::MoveTime(250), false, None)
                .xboard_limit()
                .unwrap(),
            ["st 1"]
        );
        assert_eq!(
            s(SearchLimit::Depth(3), false, None)
                .xboard_limit()
                .unwrap(),
            ["sd 3"]
        );
        assert_eq!(
            s(SearchLimit::MoveTime(1500), true, None)
                .xboard_limit()
                .unwrap(),
            ["level 40 1:00 0", "time 6000", "otim 6000"]
        );
        assert!(
            s(SearchLimit::Nodes(1), false, None)
                .xboard_limit()
                .is_err()
        );
        let wait = s(SearchLimit::MoveTime(250), false, None)
            .wait(Duration::from_secs(2), Duration::from_secs(60));
        assert_eq!(wait, Duration::from_secs(3));
    }

    #[test]
    fn uci_info_lines() {
        let i = parse_uci_info(
            "info depth 12 seldepth 18 multipv 1 score cp -35 nodes 123456 nps 1000 time 120 pv e2e4 e7e5 g1f3",
        )
        .unwrap();
        assert_eq!(i.depth, Some(12));
        assert_eq!(i.seldepth, Some(18));
        assert_eq!(i.nps, Some(1000));
        assert_eq!(i.score, Some(Score::Cp(-35)));
        assert_eq!(i.nodes, Some(123456));
        assert_eq!(i.time_ms, Some(120));
        assert_eq!(i.pv, ["e2e4", "e7e5", "g1f3"]);
        let m = parse_uci_info("info depth 3 score mate -2 pv h7h8").unwrap();
        assert_eq!(m.score, Some(Score::Mate(-2)));
        assert_eq!(parse_uci_info("info string hello pv e2e4"), None);
        assert_eq!(
            parse_uci_info("info depth 5 currmove e2e4 currmovenumber 1"),
            None
        );
        assert_eq!(parse_uci_info("info depth 5 score cp 10 lowerbound"), None);
        assert_eq!(
            parse_uci_info("info depth 5 multipv 2 score cp 3 pv a2a3"),
            None
        );
        assert_eq!(parse_uci_info("bestmove e2e4"), None);
        assert_eq!(parse_uci_info("info score cp x"), None);
    }

    #[test]
    fn xboard_thinking_lines() {
        let i = parse_xboard_thinking("9 -35 123 45678 1. e4 e5 2. Nf3!").unwrap();
        assert_eq!(i.depth, Some(9));
        assert_eq!(i.score, Some(Score::Cp(-35)));
        assert_eq!(i.time_ms, Some(1230));
        assert_eq!(i.nodes, Some(45678));
        assert_eq!(i.pv, ["e4", "e5", "Nf3"]);
        let m = parse_xboard_thinking("4& 100002 5 99 Qh5 g6 Qxf7#").unwrap();
        assert_eq!(m.score, Some(Score::Mate(2)));
        assert_eq!(m.pv[2], "Qxf7");
        let l = parse_xboard_thinking("4. -100003 5 99 a3").unwrap();
        assert_eq!(l.score, Some(Score::Mate(-3)));
        // 100000 - plies (HoiChess): mated after 4 plies is mated in 2,
        // mating on the 3rd ply is mate in 2, on the 1st mate in 1.
        let s = |line| parse_xboard_thinking(line).unwrap().score;
        assert_eq!(
            s("5 -99996 1 30896 Nf3+ Rxf3 Bxg5 Qxg5#"),
            Some(Score::Mate(-2))
        );
        assert_eq!(s("5 99997 1 30896 Qh7 hxg5 Qh8#"), Some(Score::Mate(2)));
        assert_eq!(s("5 99999 1 30896 Qh8#"), Some(Score::Mate(1)));
        assert_eq!(s("5 100003 1 30896 a3"), Some(Score::Mate(3)));
        // Below 99000 it is centipawns (Phalanx's 30000 - plies too).
        assert_eq!(s("5 98999 1 30896 a3"), Some(Score::Cp(98999)));
        // Far above (Sjeng's 1000000 - plies): centipawns, not a mate in
        // 899897.
        assert_eq!(s("2 -999997 0 36 h2 Qe7#"), Some(Score::Cp(-999997)));
        assert_eq!(s("5 101000 1 30896 a3"), Some(Score::Mate(1000)));
        assert_eq!(s("5 -29994 1 30896 a3"), Some(Score::Cp(-29994)));
        assert_eq!(parse_xboard_thinking("move e2e4"), None);
        assert_eq!(parse_xboard_thinking("feature done=1"), None);
        assert_eq!(parse_xboard_thinking("1 2 3"), None);
    }

    #[test]
    fn the_collector_keeps_the_last_pv_and_the_settling_moment() {
        let start = Chess::default();
        let mut c = Collector::new(start.clone(), false);
        let info = |d: u32, first: &str| Info {
            depth: Some(d),
            score: Some(Score::Cp(d as i32)),
            nodes: Some(u64::from(d) * 100),
            time_ms: Some(u64::from(d) * 10),
            pv: vec![first.to_string(), "e7e5".into(), "zz".into(), "g1f3".into()],
            ..Info::default()
        };
        c.take(info(1, "d2d4"));
        c.take(info(2, "e2e4"));
        c.take(info(3, "d2d4"));
        c.take(info(4, "d2d4"));
        // A score update without a pv keeps the pv.
        c.take(Info {
            depth: Some(5),
            score: Some(Score::Cp(9)),
            ..Info::default()
        });
        let best = notation::from_uci(&start, "d2d4").ok();
        let a = c.finish(best, Duration::from_millis(70));
        assert_eq!(a.pv, ["d4", "e5"]);
        assert_eq!(a.score, Some(Score::Cp(9)));
        assert_eq!(a.depth, Some(5));
        assert_eq!(
            a.settled,
            Some(Moment {
                depth: Some(3),
                time_ms: Some(30),
                nodes: Some(300)
            })
        );
        assert_eq!(a.elapsed_ms, 70);

        // A best move that differs from the pv: the pv is the move alone,
        // and nothing settled.
        let mut c = Collector::new(start.clone(), false);
        c.take(info(1, "d2d4"));
        let best = notation::from_uci(&start, "c2c4").ok();
        let a = c.finish(best, Duration::ZERO);
        assert_eq!(a.pv, ["c4"]);
        assert_eq!(a.settled, None);
    }

    #[test]
    fn xboard_pvs_in_san_are_read() {
        let start = Chess::default();
        let mut c = Collector::new(start.clone(), true);
        c.take(parse_xboard_thinking("2 20 1 50 Nf3 d5").unwrap());
        let best = notation::from_xboard(&start, "g1f3").ok();
        let a = c.finish(best, Duration::ZERO);
        assert_eq!(a.pv, ["Nf3", "d5"]);
        assert!(a.settled.is_some());
    }

    #[test]
    fn mates_are_checked_on_the_board() {
        let scholar = pos("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 4");
        assert_eq!(mate_length(&scholar, &["Qxf7#".into()]), Some(1));
        assert_eq!(mate_length(&scholar, &["Qxf7".into()]), Some(1));
        assert_eq!(mate_length(&scholar, &["Qf6".into()]), None);
        assert_eq!(mate_length(&scholar, &["Qxf7".into(), "Ke7".into()]), None);
        assert_eq!(mate_length(&scholar, &["Qh8".into()]), None);
        assert!(replay(&scholar, &["Ne2".into()]).is_ok());
        assert!(replay(&scholar, &["Ke3".into()]).is_err());
    }
}
