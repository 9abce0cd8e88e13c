//! The game: position and history on top of `shakmaty`, SAN in and out, and
//! the rules that end or may end a game.
