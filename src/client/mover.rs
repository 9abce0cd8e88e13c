//! Built-in movers for the reference client: a random legal move, or the
//! best capture by material (else random).
//!
//! The choice is a pure function of the seed, the game (the key set from
//! the `Round` tag of `inform`) and the position (its zobrist hash and move
//! counters): nothing carries over from one move to the next. So a client
//! that is asked again for the same move (its reply was lost when the
//! referee crashed, and the restarted referee asks again) plays the same
//! move, and a match replays exactly for the same seeds.

use crate::splitmix::splitmix64;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position, Role};

/// Which mover to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MoverKind {
    /// A uniformly random legal move.
    Random,
    /// The capture that wins the most material (ties broken at random),
    /// else a random legal move.
    Greedy,
}

impl MoverKind {
    /// The mover's name, as `--mover` takes it.
    pub fn name(self) -> &'static str {
        match self {
            MoverKind::Random => "random",
            MoverKind::Greedy => "greedy",
        }
    }
}

/// Picks moves with a random generator (`fastrand`, whose sequence for a
/// seed is stable across its 2.x versions) seeded afresh for every move
/// from the mover's seed, the game key and the position.
#[derive(Debug, Clone)]
pub struct Mover {
    kind: MoverKind,
    seed: u64,
    game_key: u64,
}

impl Mover {
    /// A mover of this kind; the same seed plays the same moves.
    pub fn new(kind: MoverKind, seed: u64) -> Mover {
        Mover {
            kind,
            seed,
            game_key: 0,
        }
    }

    /// The client's name when the user gives none: the mover, its seed and
    /// the port's file name (`argus-random-1@ttyUSB0`), so two default
    /// clients are told apart in the match line and the PGN. Only ASCII
    /// letters, digits, `.`, `_` and `-` are kept from the port name (the
    /// rest become `_`), so the name is always a clean quoted operand.
    pub fn default_name(&self, port: &str) -> String {
        let kind = self.kind.name();
        let file = std::path::Path::new(port)
            .file_name()
            .map_or_else(|| port.into(), |f| f.to_string_lossy());
        let port: String = file
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!("argus-{kind}-{}@{port}", self.seed)
    }

    /// Sets the game the next moves belong to, from a text that names it
    /// (the reference client uses the `Round` tag of `inform`), so that
    /// the same position in two games need not get the same move.
    pub fn set_game(&mut self, name: &str) {
        self.game_key = fnv1a(name.as_bytes());
    }

    /// A legal move in `pos`, or `None` when there is none (mate or
    /// stalemate). The same seed, game and position (with its move
    /// counters) always give the same move.
    pub fn choose(&self, pos: &Chess) -> Option<Move> {
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
        let mut rng = fastrand::Rng::with_seed(self.seed_for(pos));
        let i = rng.usize(..pool.len());
        pool.get(i).map(|m| *(*m))
    }

    /// The generator's seed for one move: seed, game key, zobrist hash and
    /// the move counters (so that a repeated position later in the game is
    /// not bound to repeat the same move), mixed.
    fn seed_for(&self, pos: &Chess) -> u64 {
        let Zobrist64(hash) = pos.zobrist_hash(EnPassantMode::Legal);
        let counters = (u64::from(pos.fullmoves().get()) << 32) | u64::from(pos.halfmoves());
        [self.game_key, hash, counters]
            .into_iter()
            .fold(splitmix64(self.seed), |acc, v| splitmix64(acc ^ v))
    }
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
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

    #[test]
    fn default_names_tell_two_clients_apart() {
        let a = Mover::new(MoverKind::Random, 1).default_name("/dev/ttyUSB0");
        let b = Mover::new(MoverKind::Random, 1).default_name("/dev/ttyUSB1");
        assert_eq!(a, "argus-random-1@ttyUSB0");
        assert_ne!(a, b);
        let c = Mover::new(MoverKind::Greedy, 7).default_name("COM3");
        assert_eq!(c, "argus-greedy-7@COM3");
        let odd = Mover::new(MoverKind::Random, 2).default_name("/tmp/a \"b\"/Kabel ö");
        assert_eq!(odd, "argus-random-2@Kabel__");
    }
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        let f: Fen = fen.parse().unwrap();
        f.into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn same_seed_same_moves() {
        let a = Mover::new(MoverKind::Random, 7);
        let b = Mover::new(MoverKind::Random, 7);
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
    fn a_move_asked_again_is_the_same_move() {
        // A mover that played on, and a fresh one (a restarted client),
        // choose the same move in the same position of the same game.
        let mut played = Mover::new(MoverKind::Random, 3);
        played.set_game("4");
        let mut p = Chess::default();
        for _ in 0..20 {
            let m = played.choose(&p).unwrap();
            let mut fresh = Mover::new(MoverKind::Random, 3);
            fresh.set_game("4");
            assert_eq!(fresh.choose(&p), Some(m));
            p.play_unchecked(m);
        }
    }

    #[test]
    fn seed_and_game_change_the_moves() {
        let differs = |a: &Mover, b: &Mover| {
            let mut p = Chess::default();
            for _ in 0..30 {
                let (ma, mb) = (a.choose(&p), b.choose(&p));
                if ma != mb {
                    return true;
                }
                match ma {
                    Some(m) => p.play_unchecked(m),
                    None => return false,
                }
            }
            false
        };
        let base = Mover::new(MoverKind::Random, 1);
        assert!(differs(&base, &Mover::new(MoverKind::Random, 2)));
        let mut other_game = Mover::new(MoverKind::Random, 1);
        other_game.set_game("2");
        assert!(differs(&base, &other_game));
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
