//! The Swiss system by FIDE's Dutch rules (handbook C.04.3, the rules in
//! force from 2026), sans-IO: an event's players and their games in, the
//! next round's pairings out.
//!
//! * [`Event`], [`Player`], [`Game`]: the records the pairing reads (start
//!   rank, rating, score, each round's opponent, colour and result, byes,
//!   absences), the same whether they come from a TRF file or a running
//!   tournament.
//! * [`dutch`]: the pairing itself, a translation of bbpPairings' Dutch
//!   engine (Apache-2.0): a maximum-weight matching whose edge weights
//!   encode the absolute and quality criteria in priority order.
//! * [`matching`]: the maximum-weight matching (Edmonds' blossoms), over
//!   [`wide`] integers of a few hundred bits.
//! * [`trf`]: FIDE's Tournament Report File (TRF-2026, and JaVaFo's TRF(x)
//!   codes), read and written.
//! * [`check`]: every round of an event re-paired and compared with the
//!   pairings it had.
//! * [`tiebreak`]: FIDE's tie-breaks (C.07) over the same records.
//!
//! Scores are in tenths of a point throughout (a win is 10), as TRF writes
//! them with one decimal.

pub mod check;
pub mod dutch;
pub mod matching;
pub mod tiebreak;
pub mod trf;
pub mod wide;

/// A side's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// White.
    White,
    /// Black.
    Black,
}

impl Color {
    /// The other colour.
    pub fn invert(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// A round's result for one player, as the pairing counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundScore {
    /// Lost, forfeited, or no point (absent, zero-point bye).
    Loss,
    /// Drawn, or a half-point bye.
    Draw,
    /// Won, won by forfeit, a full-point bye or the pairing-allocated bye.
    Win,
}

/// One round of one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// The opponent's index in [`Event::players`], `None` when the player
    /// had no opponent (a bye or an absence).
    pub opponent: Option<usize>,
    /// The colour, when the player was paired against an opponent.
    pub color: Option<Color>,
    /// The result.
    pub outcome: RoundScore,
    /// Whether the game was played over the board (not a forfeit, not a
    /// bye).
    pub played: bool,
    /// Whether the player took part in the round's pairing: paired with an
    /// opponent (played or forfeited) or given the pairing-allocated bye.
    /// Requested byes and absences are not.
    pub paired: bool,
}

impl Game {
    /// A round the player was not paired in, with no point.
    pub fn absent() -> Game {
        Game {
            opponent: None,
            color: None,
            outcome: RoundScore::Loss,
            played: false,
            paired: false,
        }
    }

    /// The pairing-allocated bye.
    pub fn pairing_bye() -> Game {
        Game {
            opponent: None,
            color: None,
            outcome: RoundScore::Win,
            played: false,
            paired: true,
        }
    }
}

/// A player and their rounds so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The player's pairing number less one (their index in
    /// [`Event::players`]).
    pub id: usize,
    /// The name (TRF field, for reports).
    pub name: String,
    /// The rating (0 when unknown).
    pub rating: u16,
    /// The TRF line's other identity fields, kept for writing the file
    /// back: sex, title, federation, FIDE id, birth date (columns 10-14,
    /// 45-47 and 54-79 as read, trimmed).
    pub identity: Identity,
    /// Score in tenths of a point, as of [`Event::played_rounds`].
    pub score: u32,
    /// Each round, from the first; a round beyond the played ones is a
    /// requested bye or an absence for the round being paired.
    pub games: Vec<Game>,
    /// Whether the pairing number is in use (false for a gap in the
    /// numbering, or a player not taking part).
    pub valid: bool,
    /// The player's place in the pairing order among the valid players
    /// (the pairing number's order, or the file's order under `XXC rank`).
    pub rank: usize,
}

/// A TRF player line's identity fields that the pairing does not read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Identity {
    /// Sex (column 10).
    pub sex: String,
    /// Title (columns 11-13).
    pub title: String,
    /// Federation (columns 54-56).
    pub federation: String,
    /// FIDE id (columns 58-68).
    pub fide_id: String,
    /// Birth date (columns 70-79).
    pub birth: String,
}

/// What each kind of result is worth, in tenths of a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointSystem {
    /// A win (over the board or by forfeit).
    pub win: u32,
    /// A draw (or a half-point bye).
    pub draw: u32,
    /// A loss over the board.
    pub loss: u32,
    /// A zero-point bye or an absence.
    pub zero_bye: u32,
    /// A loss by forfeit.
    pub forfeit_loss: u32,
    /// The pairing-allocated bye.
    pub pairing_bye: u32,
}

impl Default for PointSystem {
    fn default() -> Self {
        PointSystem {
            win: 10,
            draw: 5,
            loss: 0,
            zero_bye: 0,
            forfeit_loss: 0,
            pairing_bye: 10,
        }
    }
}

impl PointSystem {
    /// What `game` is worth to its player.
    pub fn points(&self, game: &Game) -> u32 {
        match game.outcome {
            RoundScore::Loss if !game.paired => self.zero_bye,
            RoundScore::Loss if game.played => self.loss,
            RoundScore::Loss => self.forfeit_loss,
            RoundScore::Win if game.opponent.is_none() && game.paired => self.pairing_bye,
            RoundScore::Win => self.win,
            RoundScore::Draw => self.draw,
        }
    }
}

/// An event: its players, how many rounds are paired and planned, its
/// point system and the first round's colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The players by pairing number (index = number - 1).
    pub players: Vec<Player>,
    /// The valid players' indices in pairing order.
    pub by_rank: Vec<usize>,
    /// The rounds paired so far (the next round to pair has this index).
    pub played_rounds: usize,
    /// The rounds the event will have.
    pub expected_rounds: usize,
    /// The point system.
    pub points: PointSystem,
    /// The colour of the top player in the first round (the colour every
    /// odd pairing number gets when no preference decides).
    pub initial_color: Color,
    /// Whether pairing order follows the file's order of players (`XXC
    /// rank`) rather than the pairing numbers.
    pub use_rank: bool,
}

/// One board of a round's pairing, by player index; `black` is `None` for
/// the pairing-allocated bye.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// White, or the player with the bye.
    pub white: usize,
    /// Black, `None` for the bye.
    pub black: Option<usize>,
}

impl Event {
    /// Recomputes each player's `valid` flag and `rank` as bbpPairings'
    /// `updateRanks` does for the round being paired: a player counts if
    /// they have no entry yet for that round or took part in some pairing.
    pub fn update_ranks(&mut self) {
        let mut next = 0;
        for &index in &self.by_rank {
            let player = &mut self.players[index];
            player.valid =
                player.games.len() <= self.played_rounds || player.games.iter().any(|g| g.paired);
            if player.valid {
                player.rank = next;
                next += 1;
            }
        }
    }

    /// A player's score `rounds_back` rounds ago.
    pub fn score_back(&self, player: &Player, rounds_back: usize) -> u32 {
        let mut score = player.score;
        for round in self.played_rounds - rounds_back..self.played_rounds {
            score = score.saturating_sub(self.points.points(&player.games[round]));
        }
        score
    }
}

#[cfg(test)]
mod tests;
