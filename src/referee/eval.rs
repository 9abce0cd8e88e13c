//! The evaluation a client sends with its move: EPD `ce` (spec 6.7) and,
//! when present, `acd` (depth), `acn` (nodes), `pv` and the private
//! `Aseldepth` (selective depth) and `Anps` (speed), read from the
//! reply into a [`MoveEval`] for the PGN and the adjudication rules. A bad
//! operand is left out and said, never a reason to refuse the move.

use serde::Serialize;

use crate::epd::Record;
use crate::record::pgn::MoveEval;

/// The longest principal variation kept, in moves.
const PV_LIMIT: usize = 24;
/// `ce -32768` says the position is illegal (spec 6.7): no evaluation.
const ILLEGAL_POSITION_CE: i32 = -32768;

/// What was wrong with an operation of a reply's evaluation, and what was
/// left out for it (the move stands); `error` is the EPD reader's.
/// `referee::words` says it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "bad", rename_all = "snake_case")]
pub enum BadEval {
    /// `ce -32768`: the client says the position is illegal; no evaluation.
    IllegalPosition,
    /// `ce` could not be read: no evaluation kept.
    Ce { error: String },
    /// `acd` could not be read: the depth left out.
    Depth { error: String },
    /// `acn` could not be read: the node count left out.
    Nodes { error: String },
    /// `Aseldepth` could not be read: the selective depth left out.
    Seldepth { error: String },
    /// `Anps` could not be read: the speed left out.
    Nps { error: String },
}

/// The evaluation in `record`, a reply whose move took `time_ms`, and what
/// was wrong with its operations (one each, for a notice). Without a
/// usable `ce` there is no evaluation.
pub fn read_eval(record: &Record, time_ms: u64) -> (Option<MoveEval>, Vec<BadEval>) {
    let mut problems = Vec::new();
    let ce = match record.ce() {
        Ok(Some(ILLEGAL_POSITION_CE)) => {
            problems.push(BadEval::IllegalPosition);
            None
        }
        Ok(ce) => ce,
        Err(e) => {
            problems.push(BadEval::Ce {
                error: e.to_string(),
            });
            None
        }
    };
    let Some(ce) = ce else {
        return (None, problems);
    };
    let depth = record.acd().unwrap_or_else(|e| {
        problems.push(BadEval::Depth {
            error: e.to_string(),
        });
        None
    });
    let nodes = record.acn().unwrap_or_else(|e| {
        problems.push(BadEval::Nodes {
            error: e.to_string(),
        });
        None
    });
    let seldepth = record.seldepth().unwrap_or_else(|e| {
        problems.push(BadEval::Seldepth {
            error: e.to_string(),
        });
        None
    });
    let nps = record.nps().unwrap_or_else(|e| {
        problems.push(BadEval::Nps {
            error: e.to_string(),
        });
        None
    });
    let pv = record
        .operands("pv")
        .unwrap_or_default()
        .iter()
        .take(PV_LIMIT)
        .map(|o| o.text().to_string())
        .collect();
    let eval = MoveEval {
        ce,
        depth,
        seldepth,
        time_ms,
        nodes: nodes.map(u64::from),
        nps: nps.map(u64::from),
        pv,
    };
    (Some(eval), problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Option<MoveEval>, Vec<BadEval>) {
        let rec = Record::parse(text).unwrap();
        read_eval(&rec, 500)
    }

    #[test]
    fn every_operation_is_read() {
        let (e, problems) = read(
            "8/8/8/8/8/8/8/K6k w - - ce 35; acd 12; acn 4000; pv e4 e5; Aseldepth 19; Anps 8000;",
        );
        assert!(problems.is_empty(), "{problems:?}");
        let e = e.unwrap();
        assert_eq!(
            (e.ce, e.depth, e.nodes, e.time_ms, e.seldepth, e.nps),
            (35, Some(12), Some(4000), 500, Some(19), Some(8000))
        );
        assert_eq!(e.pv, ["e4", "e5"]);
    }

    #[test]
    fn no_ce_is_no_evaluation_and_no_problem() {
        assert_eq!(read("8/8/8/8/8/8/8/K6k w - - acd 12;"), (None, vec![]));
    }

    #[test]
    fn a_bad_ce_is_no_evaluation_and_said() {
        for bad in ["ce x;", "ce 40000;", "ce 1 2;", "ce -32768;"] {
            let (e, problems) = read(&format!("8/8/8/8/8/8/8/K6k w - - {bad}"));
            assert_eq!(e, None, "{bad}");
            assert_eq!(problems.len(), 1, "{bad}");
            assert!(
                matches!(problems[0], BadEval::Ce { .. } | BadEval::IllegalPosition),
                "{problems:?}"
            );
            let said = problems[0].to_string();
            assert!(said.starts_with("ce"), "{said}");
            assert!(said.contains("no evaluation"), "{said}");
        }
        let (_, problems) = read("8/8/8/8/8/8/8/K6k w - - ce -32768;");
        assert_eq!(
            problems[0].to_string(),
            "ce -32768 (an illegal position) is no evaluation"
        );
    }

    #[test]
    fn a_bad_depth_or_node_count_is_left_out_and_said() {
        let (e, problems) =
            read("8/8/8/8/8/8/8/K6k w - - ce -20; acd deep; acn -1; Aseldepth x; Anps 1 2;");
        let e = e.unwrap();
        assert_eq!(
            (e.ce, e.depth, e.nodes, e.seldepth, e.nps),
            (-20, None, None, None, None)
        );
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert!(
            matches!(problems[2], BadEval::Seldepth { .. }),
            "{problems:?}"
        );
        assert!(matches!(problems[3], BadEval::Nps { .. }), "{problems:?}");
        assert!(
            problems[3].to_string().ends_with("; the speed left out"),
            "{problems:?}"
        );
        assert!(matches!(problems[0], BadEval::Depth { .. }), "{problems:?}");
        assert!(matches!(problems[1], BadEval::Nodes { .. }), "{problems:?}");
        let said: Vec<String> = problems.iter().map(BadEval::to_string).collect();
        assert!(said[0].starts_with("acd: "), "{said:?}");
        assert!(said[0].ends_with("; the depth left out"), "{said:?}");
        assert!(said[1].starts_with("acn: "), "{said:?}");
        assert!(said[1].ends_with("; the node count left out"), "{said:?}");
    }

    #[test]
    fn a_long_pv_is_cut() {
        let pv = "Nf3 Nf6 Ng1 Ng8 ".repeat(20);
        let (e, _) = read(&format!("8/8/8/8/8/8/8/K6k w - - ce 0; pv {pv};"));
        assert_eq!(e.unwrap().pv.len(), PV_LIMIT);
    }
}
