//! What the analysis verbs add to a record (spec 7.2, 7.3, 7.5), from an
//! engine's [`Analysis`]: no I/O, no engine, no clock.
//!
//! * pfga ([`add_analysis`]): `pv`, `ce`, `pm`, `sm`, `acn`, `acs`, `acd`,
//!   and `Ar_ms` (the search's milliseconds; `acs` has whole seconds only).
//! * pfts ([`add_solve`]): the same, then `Ar_solved_depth DEPTH;
//!   Ar_solved_ms MS; Ar_solved_nodes NODES;` (the first moment the engine
//!   settled on the solving move it kept) or `Ar_missed;`, for records
//!   with `bm` or `am`.
//! * pfms ([`add_mate`]): `dm` and `pm` (and `pv`, `acn`, `acs`) when the
//!   engine's mate is proven: its line reaches checkmate on the board, or
//!   argus's own search ([`super::prove`]) finishes a line the engine cut
//!   short. A claimed mate that cannot be proven gets `Ar_unproven "..."`
//!   ([`mark_unproven`]), which says why.
//!
//! argus's own operations are private ones: their opcodes start with an
//! upper-case letter (spec 5.1), and each has one operand at most, so
//! that common EPD readers (python-chess's `Board.from_epd`) load the
//! files. `Ar_fault "..."` marks a record whose engine failed. Files that
//! argus wrote before used lower-case `ar_` names and `ar_solved DEPTH MS
//! NODES;`: the report still reads them ([`solved_at`], [`has_any`]).

use shakmaty::{Chess, Move, Position};

use super::prove::{self, Proof};
use crate::client::engine::analysis::{Analysis, Score, mate_length, pv_operation};
use crate::epd::{Operation, Record};
use crate::game;

/// Opcode: the depth at which the solving move was kept.
pub const SOLVED_DEPTH: &str = "Ar_solved_depth";
/// Opcode: the millisecond at which the solving move was kept.
pub const SOLVED_MS: &str = "Ar_solved_ms";
/// Opcode: the node count at which the solving move was kept.
pub const SOLVED_NODES: &str = "Ar_solved_nodes";
/// Opcode: the record has `bm` or `am` and the engine's move missed.
pub const MISSED: &str = "Ar_missed";
/// Opcode: the engine failed on this record (its operand says how).
pub const FAULT: &str = "Ar_fault";
/// Opcode: milliseconds the search took.
pub const MILLIS: &str = "Ar_ms";
/// Opcode: the engine claimed a mate argus could not prove (why).
pub const UNPROVEN: &str = "Ar_unproven";

/// The names argus wrote before (lower case, spec 5.1 not followed), read
/// still: `ar_solved DEPTH MS NODES`, `ar_missed`, `ar_fault`, `ar_ms`.
pub mod old {
    pub const SOLVED: &str = "ar_solved";
    pub const MISSED: &str = "ar_missed";
    pub const FAULT: &str = "ar_fault";
    pub const MILLIS: &str = "ar_ms";
}

/// Whether `rec` has any of `opcodes`.
pub fn has_any(rec: &Record, opcodes: &[&str]) -> bool {
    opcodes.iter().any(|o| rec.has(o))
}

/// Operand `i` of `opcode` as a number.
pub fn number(rec: &Record, opcode: &str, i: usize) -> Option<u64> {
    rec.op(opcode)?.operands.get(i)?.text().parse().ok()
}

/// The milliseconds of the search (`Ar_ms`, or the old `ar_ms`).
pub fn millis(rec: &Record) -> Option<u64> {
    number(rec, MILLIS, 0).or_else(|| number(rec, old::MILLIS, 0))
}

/// When the solving move was kept, (depth, ms, nodes): from the three
/// `Ar_solved_*` operations or the old `ar_solved DEPTH MS NODES;`;
/// `None` when the record was not solved.
pub fn solved_at(rec: &Record) -> Option<(u64, u64, u64)> {
    if rec.has(SOLVED_DEPTH) || rec.has(SOLVED_MS) || rec.has(SOLVED_NODES) {
        return Some((
            number(rec, SOLVED_DEPTH, 0).unwrap_or(0),
            number(rec, SOLVED_MS, 0).unwrap_or(0),
            number(rec, SOLVED_NODES, 0).unwrap_or(0),
        ));
    }
    rec.has(old::SOLVED).then(|| {
        (
            number(rec, old::SOLVED, 0).unwrap_or(0),
            number(rec, old::SOLVED, 1).unwrap_or(0),
            number(rec, old::SOLVED, 2).unwrap_or(0),
        )
    })
}

/// The `ce` of a position without legal moves: -32767 when checkmated,
/// 0 when stalemated; `None` when there are moves.
pub fn no_moves_ce(pos: &Chess) -> Option<i32> {
    if pos.is_checkmate() {
        Some(-32767)
    } else if pos.is_stalemate() {
        Some(0)
    } else {
        None
    }
}

/// pfga: adds the analysis to `rec` (the record of `pos`). A position
/// without moves gets an empty `pv` and its `ce` and nothing else; give
/// it `None` for `a`.
pub fn add_analysis(rec: &mut Record, pos: &Chess, a: Option<&Analysis>) {
    let Some(a) = a.filter(|_| no_moves_ce(pos).is_none()) else {
        rec.set(Operation::new("pv"));
        rec.set(Operation::new("ce").token(no_moves_ce(pos).unwrap_or(0).to_string()));
        return;
    };
    rec.set(pv_operation(&a.pv));
    let ce = a.score.map_or(0, Score::ce);
    rec.set(Operation::new("ce").token(ce.to_string()));
    if let Some(first) = a.pv.first() {
        rec.set(Operation::new("pm").token(first.clone()));
        rec.set(Operation::new("sm").token(first.clone()));
    }
    add_counts(rec, a);
}

/// `acn`, `acs`, `acd`, `Ar_ms` from the analysis (the engine's own time
/// when it gave one, else argus's wait).
fn add_counts(rec: &mut Record, a: &Analysis) {
    if let Some(n) = a.nodes {
        rec.set(Operation::new("acn").token(n.to_string()));
    }
    let ms = a.time_ms.unwrap_or(a.elapsed_ms);
    rec.set(Operation::new("acs").token((ms / 1000).to_string()));
    if let Some(d) = a.depth {
        rec.set(Operation::new("acd").token(d.to_string()));
    }
    rec.set(Operation::new(MILLIS).token(ms.to_string()));
}

/// The moves of a set opcode (`bm`, `am`) that are legal SAN here; the
/// ones that are not are ignored.
fn moves_of(rec: &Record, pos: &Chess, opcode: &str) -> Vec<Move> {
    rec.op(opcode).map_or_else(Vec::new, |op| {
        op.operands
            .iter()
            .filter_map(|o| game::parse_san(pos, o.text()).ok())
            .collect()
    })
}

/// Whether `mv` solves the record: in `bm` (if it has one) and not in
/// `am`; `None` when the record has neither.
pub fn solves(rec: &Record, pos: &Chess, mv: Option<&Move>) -> Option<bool> {
    if !rec.has("bm") && !rec.has("am") {
        return None;
    }
    let Some(mv) = mv else {
        return Some(false);
    };
    let best = moves_of(rec, pos, "bm");
    let avoid = moves_of(rec, pos, "am");
    Some((!rec.has("bm") || best.contains(mv)) && !avoid.contains(mv))
}

/// pfts: [`add_analysis`], then `Ar_solved_depth`, `Ar_solved_ms`,
/// `Ar_solved_nodes` or `Ar_missed`. Returns
/// whether it was solved (`None`: no `bm`/`am`).
pub fn add_solve(rec: &mut Record, pos: &Chess, a: Option<&Analysis>) -> Option<bool> {
    add_analysis(rec, pos, a);
    let best = a.and_then(|a| a.best);
    let solved = solves(rec, pos, best.as_ref())?;
    if solved && let Some(a) = a {
        let at = a.settled.unwrap_or_default();
        let ms = at.time_ms.or(a.time_ms).unwrap_or(a.elapsed_ms);
        let depth = at.depth.or(a.depth).unwrap_or(0);
        let nodes = at.nodes.or(a.nodes).unwrap_or(0);
        rec.set(Operation::new(SOLVED_DEPTH).token(depth.to_string()));
        rec.set(Operation::new(SOLVED_MS).token(ms.to_string()));
        rec.set(Operation::new(SOLVED_NODES).token(nodes.to_string()));
    } else {
        rec.set(Operation::new(MISSED));
    }
    Some(solved)
}

/// pfms: whether the record is to be searched for a mate in `n`: it has
/// no `dm`, or a `dm` larger than `n` (a `dm` that is not a number
/// counts as none).
pub fn wants_mate(rec: &Record, n: u32) -> bool {
    let dm = rec
        .op("dm")
        .and_then(|o| o.operands.first())
        .and_then(|o| o.text().parse::<u32>().ok());
    dm.is_none_or(|d| d > n)
}

/// What pfms made of one search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MateFound {
    /// A proven mate in this many moves (written as `dm`).
    Proven(u32),
    /// The engine claimed a mate within the length sought that argus could
    /// not prove: why (for [`mark_unproven`]).
    Unproven(String),
    /// No mate claimed within the length sought.
    None,
}

/// pfms: when the engine claims a mate in at most `n` moves and it is
/// proven, adds `dm` (the mate's length), `pm`, `pv` (the whole line to
/// checkmate), `acn`, `acs`. Proven means: the engine's line replays to
/// checkmate within its claim, or else argus's own search
/// ([`prove::prove_mate`], at most `budget` positions) shows the mate
/// against every defence, finishing a line that `go mate` cut short.
pub fn add_mate(rec: &mut Record, pos: &Chess, a: &Analysis, n: u32, budget: u64) -> MateFound {
    let Some(claimed) = a.score.and_then(Score::mate_in) else {
        return MateFound::None;
    };
    let within = claimed.min(n);
    if let Some(k) = mate_length(pos, &a.pv).filter(|&k| k <= within) {
        write_mate(rec, a, k, &a.pv);
        return MateFound::Proven(k);
    }
    if claimed > n {
        return MateFound::None;
    }
    let line = a.pv.join(" ");
    match prove::prove_mate(pos, &a.pv, claimed, budget) {
        Proof::Mate { moves, line } => {
            write_mate(rec, a, moves, &line);
            MateFound::Proven(moves)
        }
        Proof::Refuted => MateFound::Unproven(format!(
            "the engine claimed mate in {claimed} (pv {line}); argus finds no mate in {claimed}"
        )),
        Proof::Undecided => MateFound::Unproven(format!(
            "the engine claimed mate in {claimed} (pv {line}); argus could not decide it within {budget} positions"
        )),
    }
}

fn write_mate(rec: &mut Record, a: &Analysis, k: u32, line: &[String]) {
    rec.set(Operation::new("dm").token(k.to_string()));
    if let Some(first) = line.first() {
        rec.set(Operation::new("pm").token(first.clone()));
    }
    rec.set(pv_operation(line));
    add_counts(rec, a);
}

/// Marks a record whose claimed mate could not be proven (`why`).
pub fn mark_unproven(rec: &mut Record, why: &str) {
    rec.set(Operation::new(UNPROVEN).string(clean(why)));
}

/// A string operand: no control characters, no double quotes, 200
/// characters at most.
fn clean(what: &str) -> String {
    crate::text::strip_control(what)
        .replace('"', "'")
        .chars()
        .take(200)
        .collect()
}

/// Marks a record whose engine failed.
pub fn mark_fault(rec: &mut Record, what: &str) {
    rec.set(Operation::new(FAULT).string(clean(what)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::engine::analysis::Moment;
    use crate::epd_kit::prove::BUDGET;
    use proptest::prelude::*;

    const SCHOLAR: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq -";

    fn rec(text: &str) -> (Record, Chess) {
        let r = Record::parse(text).unwrap();
        let p = game::position_of_record(&r).unwrap();
        (r, p)
    }

    fn analysis(pos: &Chess, pv: &[&str], score: Score) -> Analysis {
        let pv: Vec<String> = pv.iter().map(|s| s.to_string()).collect();
        Analysis {
            best: pv.first().map(|s| game::parse_san(pos, s).unwrap()),
            score: Some(score),
            depth: Some(9),
            nodes: Some(12345),
            time_ms: Some(2500),
            pv,
            settled: Some(Moment {
                depth: Some(4),
                time_ms: Some(40),
                nodes: Some(400),
            }),
            elapsed_ms: 2600,
            ..Analysis::default()
        }
    }

    #[test]
    fn pfga_adds_pv_ce_pm_sm_and_counts() {
        let (mut r, p) = rec(&format!("{SCHOLAR} id \"s\";"));
        let a = analysis(&p, &["Qxf7#"], Score::Mate(1));
        add_analysis(&mut r, &p, Some(&a));
        assert_eq!(
            r.to_canonical(),
            format!(
                "{SCHOLAR} Ar_ms 2500; acd 9; acn 12345; acs 2; ce 32766; id \"s\"; pm Qxf7#; pv Qxf7#; sm Qxf7#;"
            )
        );
    }

    #[test]
    fn positions_without_moves_get_an_empty_pv() {
        let (mut r, p) = rec("7k/5Q2/6K1/8/8/8/8/8 b - -");
        assert_eq!(no_moves_ce(&p), Some(0));
        add_analysis(&mut r, &p, None);
        assert_eq!(r.to_canonical(), "7k/5Q2/6K1/8/8/8/8/8 b - - ce 0; pv;");
        let (mut r, p) = rec("7k/6Q1/6K1/8/8/8/8/8 b - -");
        add_analysis(&mut r, &p, None);
        assert_eq!(
            r.to_canonical(),
            "7k/6Q1/6K1/8/8/8/8/8 b - - ce -32767; pv;"
        );
    }

    #[test]
    fn pfts_solved_missed_and_untargeted() {
        let (mut r, p) = rec(&format!("{SCHOLAR} bm Qxf7#;"));
        let a = analysis(&p, &["Qxf7#"], Score::Mate(1));
        assert_eq!(add_solve(&mut r, &p, Some(&a)), Some(true));
        // Three private operations of one operand each (spec 5.1: upper
        // case first), not `ar_solved 4 40 400;`, which common EPD readers
        // cannot load.
        let text = r.to_canonical();
        assert!(
            text.contains("Ar_solved_depth 4; Ar_solved_ms 40; Ar_solved_nodes 400;"),
            "{text}"
        );
        assert!(!text.contains("ar_"), "{text}");
        assert_eq!(solved_at(&r), Some((4, 40, 400)));
        // The old form still reads.
        let (old, _) = rec(&format!("{SCHOLAR} ar_solved 5 2 502; ar_ms 7;"));
        assert_eq!(
            (solved_at(&old), millis(&old)),
            (Some((5, 2, 502)), Some(7))
        );
        let (mut r, p) = rec(&format!("{SCHOLAR} am Qxf7;"));
        assert_eq!(add_solve(&mut r, &p, Some(&a)), Some(false));
        assert!(r.has(MISSED));
        let (mut r, p) = rec(&format!("{SCHOLAR} bm Bxf7+; am Qf6;"));
        assert_eq!(add_solve(&mut r, &p, Some(&a)), Some(false));
        let (mut r, p) = rec(&format!("{SCHOLAR} am Qf6;"));
        assert_eq!(add_solve(&mut r, &p, Some(&a)), Some(true));
        let (mut r, p) = rec(SCHOLAR);
        assert_eq!(add_solve(&mut r, &p, Some(&a)), None);
        assert!(solved_at(&r).is_none() && !r.has(MISSED));
    }

    #[test]
    fn pfms_writes_dm_only_for_a_proven_mate() {
        let (mut r, p) = rec(&format!("{SCHOLAR} dm 3;"));
        assert!(wants_mate(&r, 2));
        assert!(!wants_mate(&r, 3));
        let a = analysis(&p, &["Qxf7#"], Score::Mate(1));
        assert_eq!(add_mate(&mut r, &p, &a, 2, BUDGET), MateFound::Proven(1));
        assert!(r.to_canonical().contains("dm 1; "));
        assert!(r.to_canonical().contains("pm Qxf7#;"));
        // A false claim is refused, and says so.
        let (mut r, p) = rec("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
        let fake = analysis(&p, &["e4"], Score::Mate(1));
        match add_mate(&mut r, &p, &fake, 2, BUDGET) {
            MateFound::Unproven(why) => {
                assert!(why.contains("finds no mate in 1"), "{why}");
                mark_unproven(&mut r, &why);
                assert!(
                    r.to_canonical()
                        .contains("Ar_unproven \"the engine claimed mate in 1 (pv e4)")
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(!r.has("dm"));
        // A mate longer than asked for, or none claimed, is not written.
        let (mut r, p) = rec(SCHOLAR);
        let cp = analysis(&p, &["Qxf7#"], Score::Cp(900));
        assert_eq!(add_mate(&mut r, &p, &cp, 2, BUDGET), MateFound::None);
        assert_eq!(add_mate(&mut r, &p, &a, 0, BUDGET), MateFound::None);
        assert!(!r.has("dm"));
    }

    #[test]
    fn pfms_finishes_a_mate_line_the_engine_cut_short() {
        // Stockfish with `go mate 3`: `score mate 2 ... pv b2b8 a8b8`.
        let (mut r, p) = rec("r6k/6pp/8/8/8/8/1Q6/1RR3K1 w - -");
        let cut = analysis(&p, &["Qb8+", "Rxb8"], Score::Mate(2));
        assert_eq!(add_mate(&mut r, &p, &cut, 3, BUDGET), MateFound::Proven(2));
        let text = r.to_canonical();
        assert!(
            text.contains("dm 2;") && text.contains("pm Qb8+;"),
            "{text}"
        );
        assert!(text.contains("pv Qb8+ Rxb8 Rxb8#;"), "{text}");
        // Out of budget: undecided, said so.
        let (mut r, p) = rec("r6k/6pp/8/8/8/8/1Q6/1RR3K1 w - -");
        match add_mate(&mut r, &p, &cut, 3, 3) {
            MateFound::Unproven(why) => assert!(why.contains("could not decide"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert!(!r.has("dm"));
    }

    #[test]
    fn faults_are_marked_with_a_clean_string() {
        let (mut r, _) = rec(SCHOLAR);
        mark_fault(&mut r, "engine \"x\" hung\x1b");
        assert!(
            r.to_canonical().ends_with("Ar_fault \"engine 'x' hung\";"),
            "{}",
            r.to_canonical()
        );
    }

    proptest! {
        /// Output records keep every input operation (unless the verb
        /// writes that opcode) and parse back to the same record.
        #[test]
        fn outputs_keep_the_input_and_parse_back(
            id in "[a-z0-9.]{1,12}",
            c0 in "[ -!#-~]{0,30}",
            extra in proptest::collection::vec("[a-z]{2,6}", 0..4),
            which in 0usize..3,
        ) {
            let (mut r, p) = rec(&format!("{SCHOLAR} bm Qxf7#;"));
            r.set(Operation::new("id").string(id));
            r.set(Operation::new("c0").string(c0));
            for (i, e) in extra.iter().enumerate() {
                r.set(Operation::new(format!("x{e}")).token(i.to_string()));
            }
            let input = r.clone();
            let a = analysis(&p, &["Qxf7#"], Score::Mate(1));
            match which {
                0 => add_analysis(&mut r, &p, Some(&a)),
                1 => { add_solve(&mut r, &p, Some(&a)); }
                _ => { add_mate(&mut r, &p, &a, 1, BUDGET); }
            }
            for op in &input.ops {
                prop_assert_eq!(r.op(&op.opcode), Some(op));
            }
            prop_assert_eq!(&r.fields, &input.fields);
            let back = Record::parse(&r.to_canonical()).unwrap();
            let mut sorted = r.clone();
            sorted.normalize();
            let mut back_sorted = back;
            back_sorted.normalize();
            prop_assert_eq!(back_sorted, sorted);
        }
    }
}
