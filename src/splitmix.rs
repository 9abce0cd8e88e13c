//! Stable mixing of 64-bit values: the same input gives the same output
//! in every version and on every machine, because matches are repeated
//! from their seeds (the opening order, the reference client's moves).
//! Library generators do not promise that across releases.

/// The golden-ratio increment of SplitMix64.
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64 (Steele, Lea, Flood 2014) applied to `x`: a well-mixed
/// 64-bit value from any input. A generator whose state steps by the
/// golden ratio yields `splitmix64(state)` at each step.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The SplitMix64 generator's next state after `state`.
pub fn splitmix64_step(state: u64) -> u64 {
    state.wrapping_add(GOLDEN)
}
