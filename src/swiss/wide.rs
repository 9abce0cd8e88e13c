//! A fixed-width two's-complement integer of `N` 64-bit limbs: the edge
//! weights of the Dutch system's matching, which pack every pairing
//! criterion into one number, bit field above bit field, and so need a few
//! hundred bits for a large event.
//!
//! Only what the matching and the weights use is here: addition and
//! subtraction (wrapping, so that a transient negative slack compares as
//! negative), shifts by a bit count, `|` with a small value, ordering as a
//! signed number. The width is chosen per pairing from the bits the weights
//! need (`dutch` dispatches to 2, 4, 8, 16 or 32 limbs).

use std::cmp::Ordering;
use std::ops::{Add, Shl, Shr, Sub};

/// A signed integer of `N` limbs, least significant first.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wide<const N: usize>([u64; N]);

impl<const N: usize> std::fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "0x")?;
        let mut started = false;
        for limb in self.0.iter().rev() {
            if started {
                write!(f, "{limb:016x}")?;
            } else if *limb != 0 {
                write!(f, "{limb:x}")?;
                started = true;
            }
        }
        if !started {
            write!(f, "0")?;
        }
        Ok(())
    }
}

impl<const N: usize> Wide<N> {
    /// The number of bits.
    pub const BITS: u32 = 64 * N as u32;

    /// Zero.
    pub const ZERO: Self = Wide([0; N]);

    /// A small value.
    pub fn from_u64(value: u64) -> Self {
        let mut limbs = [0; N];
        limbs[0] = value;
        Wide(limbs)
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&limb| limb == 0)
    }

    /// Whether the value is negative (its top bit set).
    pub fn is_negative(&self) -> bool {
        self.0[N - 1] >> 63 == 1
    }

    /// Wrapping sum.
    fn wrapping_add(self, other: Self) -> Self {
        let mut out = [0; N];
        let mut carry = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (sum, c1) = self.0[i].overflowing_add(other.0[i]);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            *limb = sum;
            carry = c1 || c2;
        }
        Wide(out)
    }

    /// Wrapping difference.
    fn wrapping_sub(self, other: Self) -> Self {
        let mut out = [0; N];
        let mut borrow = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (diff, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (diff, b2) = diff.overflowing_sub(u64::from(borrow));
            *limb = diff;
            borrow = b1 || b2;
        }
        Wide(out)
    }

    /// `self + value` for a small value.
    pub fn add_u64(self, value: u64) -> Self {
        self.wrapping_add(Self::from_u64(value))
    }

    /// `self - value` for a small value.
    pub fn sub_u64(self, value: u64) -> Self {
        self.wrapping_sub(Self::from_u64(value))
    }

    /// `self | value` for a small value.
    pub fn or_u64(mut self, value: u64) -> Self {
        self.0[0] |= value;
        self
    }

    /// Shifted left by `bits` (bits shifted out are lost).
    fn shift_left(self, bits: u32) -> Self {
        let limbs = (bits / 64) as usize;
        let rest = bits % 64;
        let mut out = [0; N];
        for i in (limbs..N).rev() {
            let src = i - limbs;
            let mut limb = self.0[src] << rest;
            if rest > 0 && src > 0 {
                limb |= self.0[src - 1] >> (64 - rest);
            }
            out[i] = limb;
        }
        Wide(out)
    }

    /// Shifted right by `bits`, the sign kept (arithmetic shift).
    fn shift_right(self, bits: u32) -> Self {
        let fill = if self.is_negative() { u64::MAX } else { 0 };
        let limbs = (bits / 64) as usize;
        let rest = bits % 64;
        let mut out = [fill; N];
        for (i, slot) in out.iter_mut().enumerate() {
            let src = i + limbs;
            if src >= N {
                break;
            }
            let high = if src + 1 < N { self.0[src + 1] } else { fill };
            let mut limb = self.0[src] >> rest;
            if rest > 0 {
                limb |= high << (64 - rest);
            }
            *slot = limb;
        }
        Wide(out)
    }

    /// The number of bits up to the highest set bit (0 for zero) of a
    /// non-negative value.
    pub fn bit_len(&self) -> u32 {
        for (i, limb) in self.0.iter().enumerate().rev() {
            if *limb != 0 {
                return 64 * i as u32 + (64 - limb.leading_zeros());
            }
        }
        0
    }
}

impl<const N: usize> Add for Wide<N> {
    type Output = Self;
    /// Wrapping sum.
    fn add(self, other: Self) -> Self {
        self.wrapping_add(other)
    }
}

impl<const N: usize> Sub for Wide<N> {
    type Output = Self;
    /// Wrapping difference.
    fn sub(self, other: Self) -> Self {
        self.wrapping_sub(other)
    }
}

impl<const N: usize> Shl<u32> for Wide<N> {
    type Output = Self;
    /// Shifted left (bits shifted out are lost).
    fn shl(self, bits: u32) -> Self {
        self.shift_left(bits)
    }
}

impl<const N: usize> Shr<u32> for Wide<N> {
    type Output = Self;
    /// Shifted right, the sign kept.
    fn shr(self, bits: u32) -> Self {
        self.shift_right(bits)
    }
}

impl<const N: usize> Ord for Wide<N> {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.is_negative(), other.is_negative()) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => self.0.iter().rev().cmp(other.0.iter().rev()),
        }
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type W = Wide<3>;

    /// The value as an i128 when it fits (the top limb a sign extension).
    fn small(value: W) -> i128 {
        let low = (u128::from(value.0[1]) << 64) | u128::from(value.0[0]);
        low as i128
    }

    #[test]
    fn carries_and_borrows_cross_limbs() {
        let max = W::from_u64(u64::MAX);
        let sum = max.add_u64(1);
        assert_eq!(sum.0, [0, 1, 0]);
        assert_eq!(sum.sub_u64(1), max);
        let minus_one = W::ZERO.sub_u64(1);
        assert!(minus_one.is_negative());
        assert_eq!(minus_one.0, [u64::MAX; 3]);
        assert_eq!(minus_one.add_u64(1), W::ZERO);
    }

    #[test]
    fn shifts_move_bits_across_limbs_and_keep_the_sign() {
        let one = W::from_u64(1);
        assert_eq!(one.shl(64).0, [0, 1, 0]);
        assert_eq!(one.shl(130).0, [0, 0, 4]);
        assert_eq!(W::from_u64(3).shl(63).0, [1 << 63, 1, 0]);
        assert_eq!(one.shl(130).shr(130), one);
        assert_eq!(
            W::from_u64(3).shl(63).shr(1).0,
            [(1 << 62) | (1 << 63), 0, 0]
        );
        let minus_four = W::ZERO.sub_u64(4);
        assert_eq!(small(minus_four.shr(1)), -2);
        assert_eq!(one.shl(200).0, [0, 0, 0]);
    }

    #[test]
    fn order_is_signed() {
        let minus_one = W::ZERO.sub_u64(1);
        let big = W::from_u64(1).shl(150);
        assert!(minus_one < W::ZERO);
        assert!(W::ZERO < big);
        assert!(big.sub(W::from_u64(1)) < big);
        assert!(W::from_u64(2).shl(64) > W::from_u64(u64::MAX));
        assert_eq!(big.bit_len(), 151);
        assert_eq!(W::ZERO.bit_len(), 0);
    }
}
