//! Proving the mate an engine claims (pfms), I/O-free: does the side to
//! move mate in at most N moves against every defence? An engine searching
//! with `go mate N` may stop its principal variation short of the mate
//! (Stockfish: `score mate 2 ... pv d5f6 g7f6`), so its line alone proves
//! nothing; this search, on argus's own rules (shakmaty), finishes it.
//!
//! The search is a plain AND-OR tree search, shortest mates first
//! (iterative deepening: a mate in 1, then 2, ...), the engine's line
//! tried first and checks before quiet moves. It visits at most a budget
//! of positions: a mate in 3 or less, the lengths `argus epd mate` is
//! used for, is small; past the budget the claim is left undecided and
//! said so, never taken on trust.

use shakmaty::{Chess, Move, Position};

use crate::client::engine::analysis::replay;
use crate::game;

/// Positions the prover visits at most, by default.
pub const BUDGET: u64 = 2_000_000;

/// The prover's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proof {
    /// The side to move mates in `moves` (and in no fewer) against every
    /// defence. `line` is one main line in SAN, ending in checkmate: the
    /// engine's own moves for as long as they are part of the proof.
    Mate { moves: u32, line: Vec<String> },
    /// There is no mate in that many moves or fewer.
    Refuted,
    /// The budget ran out before the search could tell.
    Undecided,
}

/// The budget ran out.
struct Spent;

/// Proves a mate in at most `n` moves for the side to move in `pos`;
/// `hint` is the engine's line in SAN (its legal beginning is used to
/// order the search), `budget` the most positions to visit.
pub fn prove_mate(pos: &Chess, hint: &[String], n: u32, budget: u64) -> Proof {
    let hint = legal_prefix(pos, hint);
    let mut visited = 0u64;
    for k in 1..=n {
        match mate_in(pos, k, &hint, &mut visited, budget) {
            Ok(Some(line)) => {
                return Proof::Mate {
                    moves: k,
                    line: san_line(pos, &line),
                };
            }
            Ok(None) => {}
            Err(Spent) => return Proof::Undecided,
        }
    }
    Proof::Refuted
}

/// The moves of the legal beginning of a SAN line.
fn legal_prefix(pos: &Chess, san: &[String]) -> Vec<Move> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for s in san {
        let Ok(m) = game::parse_san(&p, s) else { break };
        p.play_unchecked(m);
        out.push(m);
    }
    out
}

fn san_line(pos: &Chess, line: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for m in line {
        out.push(game::san_of(&p, m));
        p.play_unchecked(*m);
    }
    debug_assert!(replay(pos, &out).is_ok_and(|e| e.is_checkmate()));
    out
}

/// The attacker's moves in the order tried: the hinted one, then checks,
/// then the rest.
fn attacker_moves(pos: &Chess, hint: Option<&Move>) -> Vec<(Move, Chess)> {
    let mut first = Vec::new();
    let mut checks = Vec::new();
    let mut quiet = Vec::new();
    for m in pos.legal_moves() {
        let mut after = pos.clone();
        after.play_unchecked(m);
        if Some(&m) == hint {
            first.push((m, after));
        } else if after.is_check() {
            checks.push((m, after));
        } else {
            quiet.push((m, after));
        }
    }
    first.extend(checks);
    first.extend(quiet);
    first
}

/// A mate in exactly `k` moves or fewer for the side to move, against
/// every defence: its main line (following `hint` while it fits), or none.
fn mate_in(
    pos: &Chess,
    k: u32,
    hint: &[Move],
    visited: &mut u64,
    budget: u64,
) -> Result<Option<Vec<Move>>, Spent> {
    for (m, after) in attacker_moves(pos, hint.first()) {
        *visited += 1;
        if *visited > budget {
            return Err(Spent);
        }
        if after.is_checkmate() {
            return Ok(Some(vec![m]));
        }
        // A mate in one is a check; the last move of any mate is one.
        if k == 1 {
            continue;
        }
        let rest: &[Move] = if hint.first() == Some(&m) {
            &hint[1..]
        } else {
            &[]
        };
        let mut replies: Vec<Move> = after.legal_moves().into_iter().collect();
        if replies.is_empty() {
            // Stalemate: no mate this way.
            continue;
        }
        if let Some(i) = rest
            .first()
            .and_then(|r| replies.iter().position(|x| x == r))
        {
            replies.swap(0, i);
        }
        let mut main: Option<Vec<Move>> = None;
        let mut all = true;
        for r in replies {
            *visited += 1;
            if *visited > budget {
                return Err(Spent);
            }
            let mut next = after.clone();
            next.play_unchecked(r);
            let sub: &[Move] = if rest.first() == Some(&r) {
                &rest[1..]
            } else {
                &[]
            };
            match mate_in(&next, k - 1, sub, visited, budget)? {
                Some(line) => {
                    if main.is_none() {
                        let mut l = vec![m, r];
                        l.extend(line);
                        main = Some(l);
                    }
                }
                None => {
                    all = false;
                    break;
                }
            }
        }
        if all && let Some(line) = main {
            return Ok(Some(line));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Chess {
        game::position_from_fen(fen).unwrap()
    }

    fn line(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    /// Scholar's mate: Qxf7# at once.
    const MATE_1: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1";
    /// Back rank: 1. Qb8+ Rxb8 2. Rxb8#.
    const MATE_2: &str = "r6k/6pp/8/8/8/8/1Q6/1RR3K1 w - - 0 1";
    /// Two rooks: 1. Rb6 Kg7 2. Ra7+ Kg8 3. Rb8#, and none shorter.
    const MATE_3: &str = "8/7k/8/8/8/8/R7/1R4K1 w - - 0 1";

    #[test]
    fn mates_in_one_two_and_three_are_proven_at_their_length() {
        assert_eq!(
            prove_mate(&pos(MATE_1), &[], 3, BUDGET),
            Proof::Mate {
                moves: 1,
                line: line("Qxf7#")
            }
        );
        match prove_mate(&pos(MATE_2), &[], 3, BUDGET) {
            Proof::Mate { moves: 2, line } => {
                assert!(replay(&pos(MATE_2), &line).unwrap().is_checkmate());
                assert_eq!(line.len(), 3);
            }
            other => panic!("{other:?}"),
        }
        match prove_mate(&pos(MATE_3), &[], 3, BUDGET) {
            Proof::Mate { moves: 3, line } => {
                assert!(replay(&pos(MATE_3), &line).unwrap().is_checkmate());
                assert_eq!(line.len(), 5);
            }
            other => panic!("{other:?}"),
        }
        // Not within 2.
        assert_eq!(prove_mate(&pos(MATE_3), &[], 2, BUDGET), Proof::Refuted);
    }

    #[test]
    fn a_line_cut_short_is_completed() {
        // Stockfish's `score mate 2 ... pv b2b8 a8b8`: the pv stops before
        // the mate; the proof goes on from it.
        let p = pos(MATE_2);
        match prove_mate(&p, &line("Qb8+ Rxb8"), 2, BUDGET) {
            Proof::Mate { moves, line: l } => {
                assert_eq!(moves, 2);
                assert_eq!(l, line("Qb8+ Rxb8 Rxb8#"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_false_mate_claim_is_refuted_and_a_small_budget_is_undecided() {
        // The opening position: no mate in 2, whatever an engine says.
        let start = Chess::default();
        assert_eq!(
            prove_mate(&start, &line("e4 e5"), 2, BUDGET),
            Proof::Refuted
        );
        // A mate in 2 cannot be shown in a handful of positions.
        assert_eq!(
            prove_mate(&pos(MATE_2), &line("Qb8+ Rxb8"), 2, 5),
            Proof::Undecided
        );
    }
}
