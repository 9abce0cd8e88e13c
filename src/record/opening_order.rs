//! Which opening each game of a match plays, and with which colours.

use crate::splitmix::{splitmix64, splitmix64_step};

/// The opening of each of `games` games, as `(opening index, second game)`.
///
/// Each opening is played twice in a row, once with each colour: games 1 and
/// 2 use the first opening (`(o, false)`, then `(o, true)`, where `true` means
/// "the second game with this opening: swap the colours"), games 3 and 4 the
/// next, and so on; after all `n` openings the order starts again.
/// With `shuffle_seed`, the openings are first put in a pseudo-random order
/// that depends only on the seed (a Fisher-Yates shuffle driven by
/// splitmix64), so a match can be repeated exactly.
///
/// Returns an empty list when `n` is 0 (there is nothing to choose from).
/// The list takes 16 bytes per game (`games` is the operator's match length).
pub fn order_openings(n: usize, games: u32, shuffle_seed: Option<u64>) -> Vec<(usize, bool)> {
    if n == 0 {
        return Vec::new();
    }
    let order = opening_order(n, shuffle_seed);
    (0..games).map(|g| nth_of(&order, g)).collect()
}

/// The opening of game `game` (0-based) of [`order_openings`]'s list, got
/// without the list: for a match with no end (`argus demo`), whose games
/// are added as it goes. `None` when `n` is 0.
pub fn nth_opening(n: usize, game: u32, shuffle_seed: Option<u64>) -> Option<(usize, bool)> {
    (n > 0).then(|| nth_of(&opening_order(n, shuffle_seed), game))
}

/// The `n` openings in the order they are played (shuffled with `seed`).
fn opening_order(n: usize, shuffle_seed: Option<u64>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    if let Some(seed) = shuffle_seed {
        shuffle(&mut order, seed);
    }
    order
}

/// Game `g`'s opening in `order`, and whether it is its pair's second.
fn nth_of(order: &[usize], g: u32) -> (usize, bool) {
    let pair = usize::try_from(g / 2).unwrap_or(usize::MAX);
    let opening = order.get(pair % order.len()).copied().unwrap_or(0);
    (opening, g % 2 == 1)
}

/// splitmix64 (Steele, Lea, Flood 2014): a tiny, well-mixed generator.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        let out = splitmix64(self.0);
        self.0 = splitmix64_step(self.0);
        out
    }

    /// Uniform in `0..bound` (bound > 0), by Lemire's multiply-shift with
    /// rejection, so no value is favoured.
    fn below(&mut self, bound: u64) -> u64 {
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let m = u128::from(self.next()) * u128::from(bound);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }
}

fn shuffle(v: &mut [usize], seed: u64) {
    let mut rng = SplitMix64(seed);
    for i in (1..v.len()).rev() {
        let j = usize::try_from(rng.below(i as u64 + 1)).unwrap_or(i);
        v.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_of_games_share_an_opening() {
        assert_eq!(
            order_openings(3, 7, None),
            vec![
                (0, false),
                (0, true),
                (1, false),
                (1, true),
                (2, false),
                (2, true),
                (0, false),
            ]
        );
    }

    #[test]
    fn no_openings_or_no_games() {
        assert!(order_openings(0, 10, Some(1)).is_empty());
        assert!(order_openings(5, 0, None).is_empty());
    }

    #[test]
    fn shuffle_is_a_deterministic_permutation() {
        let a = order_openings(10, 20, Some(42));
        let b = order_openings(10, 20, Some(42));
        assert_eq!(a, b);
        let mut firsts: Vec<usize> = a.iter().step_by(2).map(|x| x.0).collect();
        for pair in a.chunks(2) {
            assert_eq!(pair[0].0, pair[1].0);
            assert_eq!((pair[0].1, pair[1].1), (false, true));
        }
        firsts.sort_unstable();
        assert_eq!(firsts, (0..10).collect::<Vec<_>>());
        assert_ne!(a, order_openings(10, 20, None));
        assert_ne!(a, order_openings(10, 20, Some(43)));
    }

    #[test]
    fn splitmix_reference_values() {
        // First outputs for seed 0 (reference implementation by Vigna).
        let mut r = SplitMix64(0);
        assert_eq!(r.next(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = SplitMix64(7);
        for bound in 1..200u64 {
            assert!(r.below(bound) < bound);
        }
    }
}
