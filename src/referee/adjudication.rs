//! Adjudication for unattended matches: rules that end a game the players
//! have not ended, decided from the game so far and the settings. Pure
//! functions; the core applies them after every move (Termination
//! "adjudication").

/// `--max-moves N` (as cutechess-cli's `-maxmoves`): once `N` full moves of
/// the game have been played (opening moves included), the game is a draw.
/// Returns the reason when the limit is reached.
pub fn max_moves_reached(plies: usize, max_moves: Option<u32>) -> Option<String> {
    let n = max_moves?;
    let limit = usize::try_from(n).ok()?.checked_mul(2)?;
    (plies >= limit).then(|| format!("draw by adjudication: {n} moves played (--max-moves)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_counts_full_moves() {
        assert_eq!(max_moves_reached(500, None), None);
        assert_eq!(max_moves_reached(19, Some(10)), None);
        let r = max_moves_reached(20, Some(10)).unwrap();
        assert_eq!(r, "draw by adjudication: 10 moves played (--max-moves)");
        assert!(max_moves_reached(usize::MAX, Some(u32::MAX)).is_some());
    }
}
