//! Built-in movers for the reference client: a random legal move, or the
//! best capture by material (else random). Deterministic for a seed.

use shakmaty::{Chess, Move, Position, Role};

/// Which mover to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MoverKind {
    /// A uniformly random legal move.
    Random,
    /// The capture that wins the most material (ties broken at random),
    /// else a random legal move.
    Greedy,
}

/// Picks moves with a seeded random generator (`fastrand`, whose sequence
/// for a seed is stable across its 2.x versions).
#[derive(Debug, Clone)]
pub struct Mover {
    kind: MoverKind,
    rng: fastrand::Rng,
}

impl Mover {
    pub fn new(kind: MoverKind, seed: u64) -> Mover {
        Mover {
            kind,
            rng: fastrand::Rng::with_seed(seed),
        }
    }

    /// A legal move in `pos`, or `None` when there is none (mate or
    /// stalemate).
    pub fn choose(&mut self, pos: &Chess) -> Option<Move> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let pool: Vec<&Move> = match self.kind {
            MoverKind::Random => moves.iter().collect(),
            MoverKind::Greedy => {
                let best = moves.iter().map(capture_value).max().unwrap_or(0);
                if best == 0 {
                    moves.iter().collect()
                } else {
                    moves.iter().filter(|m| capture_value(m) == best).collect()
                }
            }
        };
        let i = self.rng.usize(..pool.len());
        pool.get(i).map(|m| *(*m))
    }
}

/// Material won by a move: the captured piece (pawn 1 .. queen 9) plus
/// what a promotion adds.
fn capture_value(m: &Move) -> u32 {
    let captured = m.capture().map_or(0, value);
    let promoted = m.promotion().map_or(0, |r| value(r).saturating_sub(1));
    captured + promoted
}

fn value(r: Role) -> u32 {
    match r {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        let f: Fen = fen.parse().unwrap();
        f.into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn same_seed_same_moves() {
        let mut a = Mover::new(MoverKind::Random, 7);
        let mut b = Mover::new(MoverKind::Random, 7);
        let mut p = Chess::default();
        for _ in 0..40 {
            let (ma, mb) = (a.choose(&p), b.choose(&p));
            assert_eq!(ma, mb);
            match ma {
                Some(m) => p.play_unchecked(m),
                None => break,
            }
        }
    }

    #[test]
    fn greedy_takes_the_queen_not_the_pawn() {
        // White knight on d5 can take a queen on c7 or a pawn on e7.
        let p = pos("4k3/2q1p3/8/3N4/8/8/8/4K3 w - - 0 1");
        for seed in 0..20 {
            let m = Mover::new(MoverKind::Greedy, seed).choose(&p).unwrap();
            assert_eq!(m.capture(), Some(Role::Queen), "seed {seed}");
        }
    }

    #[test]
    fn no_move_when_mated() {
        let p = pos("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(Mover::new(MoverKind::Random, 1).choose(&p), None);
    }
}
