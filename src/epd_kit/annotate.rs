//! What the analysis verbs add to a record (spec 7.2, 7.3, 7.5), from an
//! engine's [`Analysis`]: no I/O, no engine, no clock.
//!
//! * pfga ([`add_analysis`]): `pv`, `ce`, `pm`, `sm`, `acn`, `acs`, `acd`,
//!   and `ar_ms` (the search's milliseconds; `acs` has whole seconds only).
//! * pfts ([`add_solve`]): the same, then `ar_solved DEPTH MS NODES;` (the
//!   first moment the engine settled on the solving move it kept) or
//!   `ar_missed;`, for records with `bm` or `am`.
//! * pfms ([`add_mate`]): `dm` and `pm` (and `pv`, `acn`, `acs`) when the
//!   engine's line is a mate checked on the board.
//!
//! `ar_` operations are argus's own (spec 5.1 allows any opcode); the
//! report reads them. `ar_fault "..."` marks a record whose engine failed.

use shakmaty::{Chess, Move, Position};

use crate::client::engine::analysis::{Analysis, Score, mate_length, pv_operation};
use crate::epd::{Operation, Record};
use crate::game;

/// Opcode: the solving move was kept from this depth, millisecond, node.
pub const SOLVED: &str = "ar_solved";
/// Opcode: the record has `bm`/`am` and the engine's move missed.
pub const MISSED: &str = "ar_missed";
/// Opcode: the engine failed on this record (its operand says how).
pub const FAULT: &str = "ar_fault";
/// Opcode: milliseconds the search took.
pub const MILLIS: &str = "ar_ms";

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

/// `acn`, `acs`, `acd`, `ar_ms` from the analysis (the engine's own time
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

/// pfts: [`add_analysis`], then `ar_solved` or `ar_missed`. Returns
/// whether it was solved (`None`: no `bm`/`am`).
pub fn add_solve(rec: &mut Record, pos: &Chess, a: Option<&Analysis>) -> Option<bool> {
    add_analysis(rec, pos, a);
    let best = a.and_then(|a| a.best);
    let solved = solves(rec, pos, best.as_ref())?;
    if solved && let Some(a) = a {
        let at = a.settled.unwrap_or_default();
        let ms = at.time_ms.or(a.time_ms).unwrap_or(a.elapsed_ms);
        rec.set(
            Operation::new(SOLVED)
                .token(at.depth.or(a.depth).unwrap_or(0).to_string())
                .token(ms.to_string())
                .token(at.nodes.or(a.nodes).unwrap_or(0).to_string()),
        );
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

/// pfms: when the engine found a mate in at most `n` moves and its line
/// is one (replayed to checkmate on the board), adds `dm` (the mate's
/// length), `pm`, `pv`, `acn`, `acs`; returns the length.
pub fn add_mate(rec: &mut Record, pos: &Chess, a: &Analysis, n: u32) -> Option<u32> {
    let claimed = a.score.and_then(Score::mate_in)?;
    let k = mate_length(pos, &a.pv)?;
    if k > n || k > claimed {
        return None;
    }
    rec.set(Operation::new("dm").token(k.to_string()));
    rec.set(Operation::new("pm").token(a.pv[0].clone()));
    rec.set(pv_operation(&a.pv));
    add_counts(rec, a);
    Some(k)
}

/// Marks a record whose engine failed.
pub fn mark_fault(rec: &mut Record, what: &str) {
    let what: String = crate::text::strip_control(what)
        .replace('"', "'")
        .chars()
        .take(200)
        .collect();
    rec.set(Operation::new(FAULT).string(what));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::engine::analysis::Moment;
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
                "{SCHOLAR} acd 9; acn 12345; acs 2; ar_ms 2500; ce 32766; id \"s\"; pm Qxf7#; pv Qxf7#; sm Qxf7#;"
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
        assert_eq!(
            r.op(SOLVED).unwrap().operands.len(),
            3,
            "{}",
            r.to_canonical()
        );
        assert!(r.to_canonical().contains("ar_solved 4 40 400;"));
        let (mut r, p) = rec(&format!("{SCHOLAR} am Qxf7;"));
        assert_eq!(add_solve(&mut r, &p, Some(&a)), Some(false));
        assert!(r.has(MISSED));
        let (mut r, p) = rec(&format!("{SCHOLAR} bm Bxf7+; am Qf6;"));
        assert_eq!(add_solve(&mut r, &p, Some(&a)), Some(false));
        let (mut r, p) = rec(&format!("{SCHOLAR} am Qf6;"));
        assert_eq!(add_solve(&mut r, &p, Some(&a)), Some(true));
        let (mut r, p) = rec(SCHOLAR);
        assert_eq!(add_solve(&mut r, &p, Some(&a)), None);
        assert!(!r.has(SOLVED) && !r.has(MISSED));
    }

    #[test]
    fn pfms_writes_dm_only_for_a_real_mate() {
        let (mut r, p) = rec(&format!("{SCHOLAR} dm 3;"));
        assert!(wants_mate(&r, 2));
        assert!(!wants_mate(&r, 3));
        let a = analysis(&p, &["Qxf7#"], Score::Mate(1));
        assert_eq!(add_mate(&mut r, &p, &a, 2), Some(1));
        assert!(r.to_canonical().contains("dm 1; "));
        assert!(r.to_canonical().contains("pm Qxf7#;"));
        // A claimed mate whose line does not mate is not written.
        let (mut r, p) = rec(SCHOLAR);
        let fake = analysis(&p, &["Qf6"], Score::Mate(1));
        assert_eq!(add_mate(&mut r, &p, &fake, 2), None);
        assert!(!r.has("dm"));
        // A mate longer than asked for is not written either.
        let cp = analysis(&p, &["Qxf7#"], Score::Cp(900));
        assert_eq!(add_mate(&mut r, &p, &cp, 2), None);
        assert_eq!(add_mate(&mut r, &p, &a, 0), None);
    }

    #[test]
    fn faults_are_marked_with_a_clean_string() {
        let (mut r, _) = rec(SCHOLAR);
        mark_fault(&mut r, "engine \"x\" hung\x1b");
        assert!(
            r.to_canonical().ends_with("ar_fault \"engine 'x' hung\";"),
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
                _ => { add_mate(&mut r, &p, &a, 1); }
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
