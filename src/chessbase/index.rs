//! The CBI index (document section 1): a count, then one longword per game
//! holding its CBF offset plus its number plus one, then the first free
//! offset (stored the same way, as entry number count + 1). Big-endian.

/// Bytes of one index entry.
pub const ENTRY: usize = 4;

/// The CBI bytes for games at `offsets` in a CBF file of `end` bytes.
pub fn encode_index(offsets: &[u32], end: u32) -> Vec<u8> {
    let n = offsets.len() as u32;
    let mut out = Vec::with_capacity((offsets.len() + 2) * ENTRY);
    out.extend_from_slice(&(n + 1).to_be_bytes());
    for (i, off) in offsets.iter().chain(std::iter::once(&end)).enumerate() {
        out.extend_from_slice(&(off.wrapping_add(i as u32 + 2)).to_be_bytes());
    }
    out
}

/// The number of games an index's first longword announces.
pub fn game_count(first: [u8; ENTRY]) -> u32 {
    u32::from_be_bytes(first).saturating_sub(1)
}

/// The CBF offset stored in entry `number` (1-based; count + 1 is the
/// first free offset); `None` when the value is too small to be one.
pub fn entry_offset(entry: [u8; ENTRY], number: u32) -> Option<u32> {
    u32::from_be_bytes(entry).checked_sub(number.checked_add(1)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document's example: games of 48, 39 and 35 bytes.
    #[test]
    fn the_documents_example() {
        let cbi = encode_index(&[0, 48, 87], 122);
        let words: Vec<u32> = cbi
            .chunks(4)
            .map(|c| u32::from_be_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(words, [4, 2, 51, 91, 127]);
        assert_eq!(game_count([0, 0, 0, 4]), 3);
        assert_eq!(entry_offset(91u32.to_be_bytes(), 3), Some(87));
        assert_eq!(entry_offset(127u32.to_be_bytes(), 4), Some(122));
        assert_eq!(entry_offset(3u32.to_be_bytes(), 4), None);
    }
}
