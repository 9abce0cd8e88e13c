//! The FIDE Dutch system (C.04.3, the 2025 rules in force from 2026): the
//! next round's pairing of an [`Event`].
//!
//! This is a translation to Rust of the Dutch engine of bbpPairings
//! (`src/swisssystems/dutch.cpp` and the parts of `common.cpp` and
//! `tournament.cpp` it uses), by Bierema Boyz Programming, licensed under
//! the Apache License 2.0 (<https://www.apache.org/licenses/LICENSE-2.0>;
//! <https://github.com/BieremaBoyzProgramming/bbpPairings>; "BBP Pairings, Copyright
//! 2016-2026 Jeremy Bierema"). bbpPairings is
//! a FIDE-endorsed pairing engine; following its algorithm step by step is
//! what makes argus's pairings the same as its pairings. Changes from the
//! original: Rust data types in place of its tournament classes, the
//! matching computer replaced by [`super::matching`] (which solves each
//! matching afresh rather than updating the previous one), no
//! acceleration, no forbidden pairs other than earlier games, no checklist
//! output.
//!
//! The method: every pair of players gets an edge weight whose bit fields,
//! from the highest, say how well the pair serves each criterion in the
//! rules' order of priority (the completion of the round and the bye, the
//! pairs and scores in the current bracket and the next, the bye
//! assignee's unplayed games, the colour criteria, the floaters of the last
//! two rounds). Brackets are paired from the top score down; in each the
//! maximum-weight matching is computed and its choices are fixed one at a
//! time (which moved-down players are paired, with whom, which players are
//! exchanged, the first group's opponents) by raising one edge's weight and
//! computing the matching again, so the result does not depend on which of
//! several equally good matchings the algorithm happens to return.

use std::collections::HashMap;

use super::matching::Matcher;
use std::ops::{Add, Shl};

use super::wide::Wide;
use super::{Color, Event, Pairing, Player};

/// Why no pairing was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairingError {
    /// No pairing satisfies the absolute criteria (no rematches, the
    /// colour rules, at most one bye to an eligible player).
    NoValidPairing,
    /// More than [`MAX_PAIRED`] players to pair, or weights wider than
    /// the widest integer here (2048 bits).
    TooLarge,
}

impl std::fmt::Display for PairingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairingError::NoValidPairing => write!(
                f,
                "no pairing satisfies the absolute criteria (no rematch, no colour three times running or two games apart, one bye to an eligible player)"
            ),
            PairingError::TooLarge => write!(
                f,
                "more than {MAX_PAIRED} players to pair, or too many score groups for the pairing weights"
            ),
        }
    }
}

/// A player's colour history as the Dutch rules read it (bbpPairings'
/// `computePlayerData`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColourState {
    /// Games with one colour less games with the other (played games only).
    pub imbalance: usize,
    /// The colour the player should get, if any.
    pub preference: Option<Color>,
    /// The colour of the last two played games when they were the same.
    pub repeated: Option<Color>,
    /// A strong (not absolute) preference.
    pub strong: bool,
    /// The number of games played over the board.
    pub played_games: usize,
}

impl ColourState {
    /// Reads a player's games.
    pub fn of(player: &Player) -> ColourState {
        let (mut white, mut black, mut run, mut played) = (0usize, 0usize, 0usize, 0usize);
        let mut last: Option<Color> = None;
        for game in player.games.iter().filter(|g| g.played) {
            let Some(color) = game.color else { continue };
            played += 1;
            match color {
                Color::White => white += 1,
                Color::Black => black += 1,
            }
            if run == 0 || Some(color) != last {
                run = 1;
            } else {
                run += 1;
            }
            last = Some(color);
        }
        let lower = if white > black {
            Color::Black
        } else {
            Color::White
        };
        let imbalance = white.abs_diff(black);
        let preference = if imbalance > 1 {
            Some(lower)
        } else if run > 1 {
            last.map(Color::invert)
        } else if imbalance > 0 {
            Some(lower)
        } else if run > 0 {
            last.map(Color::invert)
        } else {
            None
        };
        let repeated = if run > 1 { last } else { None };
        let mut state = ColourState {
            imbalance,
            preference,
            repeated,
            strong: false,
            played_games: played,
        };
        state.strong = !state.absolute() && imbalance > 0;
        state
    }

    /// An absolute colour imbalance (two or more).
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    /// An absolute preference: the imbalance, or the same colour twice
    /// running.
    pub fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
}

/// Whether a player may receive the pairing-allocated bye: not if they
/// already had it, or any other point without playing worth a win.
pub fn eligible_for_bye(event: &Event, player: &Player) -> bool {
    !player.games.iter().any(|game| {
        !game.played
            && (event.points.points(game) >= event.points.win
                || (game.paired && game.opponent.is_none()))
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Float {
    Down,
    Up,
    None,
}

/// One player to be paired, with what the criteria read of them.
#[derive(Clone, Debug)]
struct Seat {
    id: usize,
    rank: usize,
    score: u32,
    colour: ColourState,
    bye_eligible: bool,
    /// The float of one and two rounds ago.
    floats: [Float; 2],
}

/// The float of `player` `rounds_back` rounds ago (bbpPairings'
/// `getFloat`).
fn float_of(event: &Event, player: &Player, rounds_back: usize) -> Float {
    let game = &player.games[event.played_rounds - rounds_back];
    if !game.played {
        return if event.points.points(game) > event.points.loss {
            Float::Down
        } else {
            Float::None
        };
    }
    let own = event.score_back(player, rounds_back);
    let theirs = game
        .opponent
        .map(|o| event.score_back(&event.players[o], rounds_back))
        .unwrap_or(own);
    match own.cmp(&theirs) {
        std::cmp::Ordering::Greater => Float::Down,
        std::cmp::Ordering::Less => Float::Up,
        std::cmp::Ordering::Equal => Float::None,
    }
}

/// The number of bits needed to write `value` (0 for 0).
fn bits(value: usize) -> u32 {
    usize::BITS - value.leading_zeros()
}

/// Whether two colour preferences can both be met.
fn preferences_compatible(a: Option<Color>, b: Option<Color>) -> bool {
    a != b || a.is_none() || b.is_none()
}

/// What is shared by every weight of one pairing.
struct Context<'a> {
    event: &'a Event,
    seats: Vec<Seat>,
    /// Earlier games between seats (by seat index).
    met: Vec<Vec<bool>>,
    size_bits: u32,
    groups_shift: u32,
    group_shift: HashMap<u32, u32>,
    top_threshold: u32,
}

/// The varying part of the weights: the bye assignee's score and whether
/// the C9 criterion (the bye assignee's unplayed games) is in effect.
#[derive(Clone, Default)]
struct ByeTerms {
    score: u32,
    single_downfloater: bool,
    unplayed_ranks: HashMap<usize, usize>,
}

impl Context<'_> {
    fn compatible(&self, a: usize, b: usize) -> bool {
        let (p, q) = (&self.seats[a], &self.seats[b]);
        !self.met[a][b]
            && (!p.colour.absolute()
                || !q.colour.absolute()
                || p.colour.preference != q.colour.preference
                || (self.event.played_rounds + 1 >= self.event.expected_rounds
                    && (p.score > self.top_threshold || q.score > self.top_threshold)))
    }

    fn bye_candidate(&self, seat: &Seat, bye_score: u32) -> bool {
        seat.bye_eligible && seat.score <= bye_score
    }

    fn shift_of(&self, score: u32) -> u32 {
        self.group_shift[&score]
    }

    /// The total bits of a weight's fields, as bbpPairings' upper bound
    /// lays them out.
    fn weight_bits(&self) -> u32 {
        let (b, s) = (self.size_bits, self.groups_shift);
        let played = self.event.played_rounds;
        let mut total = 2 + b + s + b + s + 2 * b + 4 * b;
        if played >= 1 {
            total += 2 * b + 2 * s;
        }
        if played > 1 {
            total += 2 * b + 2 * s;
        }
        total + 3 * b + 1
    }

    /// The largest weight (bbpPairings' `computeEdgeWeight<true>`).
    fn max_weight<const N: usize>(&self) -> Wide<N> {
        Wide::<N>::from_u64(1).shl(self.weight_bits()).sub_u64(1)
    }

    /// The colour bits (bbpPairings' `insertColorBits`), `player` the lower
    /// of the two.
    fn colour_bits<const N: usize>(
        &self,
        mut w: Wide<N>,
        player: &Seat,
        opponent: &Seat,
        in_current: bool,
    ) -> Wide<N> {
        let (p, o) = (&player.colour, &opponent.colour);
        let b = self.size_bits;
        w = w.shl(b);
        w = w.or_u64(u64::from(
            in_current
                && (!p.absolute_imbalance()
                    || !o.absolute_imbalance()
                    || p.preference != o.preference),
        ));
        w = w.shl(b);
        let repeat_ok = if p.imbalance == o.imbalance {
            p.repeated.is_none() || p.repeated != o.repeated
        } else {
            let heavier_other = if p.imbalance > o.imbalance { o } else { p };
            heavier_other.repeated != p.preference.map(Color::invert)
        };
        w = w.or_u64(u64::from(
            in_current
                && (!p.absolute() || !o.absolute() || p.preference != o.preference || repeat_ok),
        ));
        w = w.shl(b);
        w = w.or_u64(u64::from(
            in_current && preferences_compatible(p.preference, o.preference),
        ));
        w = w.shl(b);
        w.or_u64(u64::from(
            in_current
                && ((!p.strong && !p.absolute())
                    || (!o.strong && !o.absolute())
                    || (p.absolute() && o.absolute())
                    || p.preference != o.preference),
        ))
    }

    /// The weight of pairing seat `hi` with the lower seat `lo`
    /// (bbpPairings' `computeEdgeWeight`).
    fn weight<const N: usize>(
        &self,
        hi: usize,
        lo: usize,
        lo_in_current: bool,
        lo_in_next: bool,
        bye: &ByeTerms,
    ) -> Wide<N> {
        if !self.compatible(hi, lo) {
            return Wide::ZERO;
        }
        let (h, l) = (&self.seats[hi], &self.seats[lo]);
        let (b, s) = (self.size_bits, self.groups_shift);
        let one = Wide::<N>::from_u64(1);
        let mut w = Wide::<N>::from_u64(
            1 + u64::from(!self.bye_candidate(h, bye.score))
                + u64::from(!self.bye_candidate(l, bye.score)),
        );
        // The pairs in the current bracket, and their scores.
        w = w.shl(b).or_u64(u64::from(lo_in_current));
        w = w.shl(s);
        if lo_in_current {
            w = w.add(one.shl(self.shift_of(h.score)));
        }
        // The pairs in the next bracket, and their scores.
        w = w.shl(b).or_u64(u64::from(lo_in_next));
        w = w.shl(s);
        if lo_in_next {
            w = w.add(one.shl(self.shift_of(h.score)));
        }
        // The bye assignee's unplayed games.
        w = w.shl(b).shl(b);
        if bye.single_downfloater {
            if h.score == bye.score {
                w = w.or_u64(bye.unplayed_ranks[&h.colour.played_games] as u64);
            }
            if l.score == bye.score {
                w = w.add_u64(bye.unplayed_ranks[&l.colour.played_games] as u64);
            }
        }
        w = self.colour_bits(w, l, h, lo_in_current);
        let played = self.event.played_rounds;
        for back in 0..2 {
            if played > back {
                // Downfloaters, then upfloaters, repeated from `back + 1`
                // rounds before.
                w = w.shl(b);
                if lo_in_current {
                    w = w.or_u64(u64::from(l.floats[back] == Float::Down));
                    w = w.add_u64(u64::from(
                        h.score <= l.score && h.floats[back] == Float::Down,
                    ));
                }
                w = w.shl(b);
                if lo_in_current {
                    w = w.or_u64(u64::from(
                        !(h.score > l.score && l.floats[back] == Float::Up),
                    ));
                }
            }
        }
        for back in 0..2 {
            if played > back {
                // The scores of those downfloaters, and of the upfloaters'
                // opponents.
                w = w.shl(s);
                if lo_in_current {
                    if l.floats[back] == Float::Down {
                        w = w.add(one.shl(self.shift_of(l.score)));
                    }
                    if h.floats[back] == Float::Down {
                        w = w.add(one.shl(self.shift_of(h.score)));
                    }
                }
                w = w.shl(s);
                if lo_in_current && !(l.floats[back] == Float::Up && h.score > l.score) {
                    w = w.add(one.shl(self.shift_of(h.score)));
                }
            }
        }
        // Room for the order of exchanges and of the pairs.
        w.shl(b).shl(b).shl(b).shl(1)
    }
}

/// The most players one round pairs: the matching holds a weight for
/// every pair of them (up to 256 bytes each), and each matching takes
/// O(n³) time (about a second a round for 160 players).
pub const MAX_PAIRED: usize = 1000;

/// The next round's pairing: the boards in publication order (highest
/// scores first), the bye last.
pub fn pair(event: &Event) -> Result<Vec<Pairing>, PairingError> {
    let mut sorted: Vec<&Player> = event
        .players
        .iter()
        .filter(|p| p.valid && p.games.len() <= event.played_rounds)
        .collect();
    sorted.sort_by(|a, b| b.score.cmp(&a.score).then(a.rank.cmp(&b.rank)));
    if sorted.is_empty() {
        return Ok(Vec::new());
    }
    if sorted.len() > MAX_PAIRED {
        return Err(PairingError::TooLarge);
    }
    let seat_of: HashMap<usize, usize> =
        sorted.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    let mut met = vec![vec![false; sorted.len()]; sorted.len()];
    for (i, player) in sorted.iter().enumerate() {
        for game in player.games.iter().filter(|g| g.played) {
            if let Some(j) = game.opponent.and_then(|o| seat_of.get(&o)) {
                met[i][*j] = true;
                met[*j][i] = true;
            }
        }
    }
    let seats: Vec<Seat> = sorted
        .iter()
        .map(|p| Seat {
            id: p.id,
            rank: p.rank,
            score: p.score,
            colour: ColourState::of(p),
            bye_eligible: eligible_for_bye(event, p),
            floats: [1, 2].map(|back| {
                if event.played_rounds >= back {
                    float_of(event, p, back)
                } else {
                    Float::None
                }
            }),
        })
        .collect();
    // Score groups, from the lowest: each gets bits for its size.
    let mut group_shift = HashMap::new();
    let mut groups_shift = 0;
    let mut largest = 0;
    let mut run = 0;
    for i in (0..seats.len()).rev() {
        run += 1;
        if i == 0 || seats[i].score < seats[i - 1].score {
            group_shift.insert(seats[i].score, groups_shift);
            largest = largest.max(run);
            groups_shift += bits(run);
            run = 0;
        }
    }
    let top_threshold = (event.played_rounds as u32 * event.points.win.max(event.points.draw)) >> 1;
    let context = Context {
        event,
        seats,
        met,
        size_bits: bits(largest),
        groups_shift,
        group_shift,
        top_threshold,
    };
    let needed = context.weight_bits() + 8;
    let pairs = match needed {
        0..=128 => pair_with::<2>(&context)?,
        129..=256 => pair_with::<4>(&context)?,
        257..=512 => pair_with::<8>(&context)?,
        513..=1024 => pair_with::<16>(&context)?,
        1025..=2048 => pair_with::<32>(&context)?,
        _ => return Err(PairingError::TooLarge),
    };
    let mut result: Vec<Pairing> = pairs
        .into_iter()
        .map(|(a, b)| match b {
            None => Pairing {
                white: context.seats[a].id,
                black: None,
            },
            Some(b) => {
                let (first, second) = if context.seats[a].id < context.seats[b].id {
                    (a, b)
                } else {
                    (b, a)
                };
                let (p, o) = (&context.seats[first], &context.seats[second]);
                if choose_colour(event, p, o) == Color::White {
                    Pairing {
                        white: p.id,
                        black: Some(o.id),
                    }
                } else {
                    Pairing {
                        white: o.id,
                        black: Some(p.id),
                    }
                }
            }
        })
        .collect();
    sort_boards(event, &mut result);
    Ok(result)
}

/// Orders the boards for publication (bbpPairings' `sortResults`): the bye
/// last; then by the higher player's score, the lower player's score, and
/// the higher player's rank.
pub fn sort_boards(event: &Event, boards: &mut [Pairing]) {
    let key = |pairing: &Pairing| {
        let white = &event.players[pairing.white];
        let black = &event.players[pairing.black.unwrap_or(pairing.white)];
        let white_lower = (white.score, black.rank) < (black.score, white.rank);
        let (higher, lower) = if white_lower {
            (black, white)
        } else {
            (white, black)
        };
        (
            pairing.black.is_none(),
            std::cmp::Reverse(higher.score),
            std::cmp::Reverse(lower.score),
            higher.rank,
        )
    };
    boards.sort_by_key(key);
}

/// The colours of the two players' latest played rounds in which they
/// differed (bbpPairings' `findFirstColorDifference`).
fn first_colour_difference(event: &Event, a: usize, b: usize) -> Option<(Color, Color)> {
    let colours = |id: usize| -> Vec<Color> {
        event.players[id]
            .games
            .iter()
            .filter(|g| g.played)
            .filter_map(|g| g.color)
            .rev()
            .collect()
    };
    let (ca, cb) = (colours(a), colours(b));
    ca.iter()
        .zip(cb.iter())
        .find(|(x, y)| x != y)
        .map(|(x, y)| (*x, *y))
}

/// The colour for `player` against `opponent` decided by their preferences
/// alone, if they decide it (bbpPairings' `choosePlayerNeutralColor`).
fn neutral_colour(event: &Event, player: &Seat, opponent: &Seat) -> Option<Color> {
    let (p, o) = (&player.colour, &opponent.colour);
    if preferences_compatible(p.preference, o.preference) {
        return p.preference.or(o.preference.map(Color::invert));
    }
    if p.absolute() && (p.imbalance > o.imbalance || !o.absolute()) {
        return p.preference;
    }
    if o.absolute() && (o.imbalance > p.imbalance || !p.absolute()) {
        return o.preference.map(Color::invert);
    }
    if p.strong && !o.strong {
        return p.preference;
    }
    if o.strong && !p.strong {
        return o.preference.map(Color::invert);
    }
    first_colour_difference(event, player.id, opponent.id).map(|(_, theirs)| theirs)
}

/// The colour `player` gets against `opponent` (bbpPairings'
/// `choosePlayerColor`).
fn choose_colour(event: &Event, player: &Seat, opponent: &Seat) -> Color {
    if let Some(colour) = neutral_colour(event, player, opponent) {
        return colour;
    }
    let player_lower = (player.score, opponent.rank) < (opponent.score, player.rank);
    let initial = event.initial_color;
    match player.colour.preference {
        None if player_lower => {
            if opponent.rank & 1 == 1 {
                initial
            } else {
                initial.invert()
            }
        }
        None => {
            if player.rank & 1 == 1 {
                initial.invert()
            } else {
                initial
            }
        }
        Some(own) if player_lower => opponent.colour.preference.map(Color::invert).unwrap_or(own),
        Some(own) => own,
    }
}

/// Sets the weight of the edge between `a` and `b` to `weight` and of
/// every other edge at `a` or `b` to zero (bbpPairings' `finalizePair`).
fn finalize_pair<const N: usize>(matcher: &mut Matcher<N>, a: usize, b: usize, weight: Wide<N>) {
    for other in 0..matcher.len() {
        if other != a {
            matcher.set(a, other, if other == b { weight } else { Wide::ZERO });
        }
        if other != b {
            matcher.set(b, other, if other == a { weight } else { Wide::ZERO });
        }
    }
}

/// Fixes `vertex`'s partner: its candidate edges (lowest candidate first)
/// raised by an increasing addend from `addend`, so the matching takes the
/// highest candidate it can; then that pair is finalized. `count_absent`:
/// the addend also grows past a candidate with no edge (bbpPairings does
/// so for a remainder's first group, not for moved-down players). The
/// matching found.
fn fix_partner<const N: usize>(
    matcher: &mut Matcher<N>,
    vertex: usize,
    candidates: &[(usize, Wide<N>)],
    mut addend: u64,
    count_absent: bool,
    max_weight: Wide<N>,
) -> Vec<usize> {
    for &(other, weight) in candidates {
        if !weight.is_zero() {
            matcher.set(vertex, other, weight.add_u64(addend));
            addend += 1;
        } else if count_absent {
            addend += 1;
        }
    }
    let mates = matcher.solve();
    finalize_pair(matcher, vertex, mates[vertex], max_weight);
    mates
}

/// Whether a matching leaves at most one player unpaired, and that one
/// eligible for the bye.
fn complete(context: &Context, mates: &[usize]) -> bool {
    let mut unmatched = false;
    for (v, &m) in mates.iter().enumerate() {
        if m == v {
            if unmatched || !context.seats[v].bye_eligible {
                return false;
            }
            unmatched = true;
        }
    }
    true
}

/// The pairing over `N`-limb weights: pairs of seat indices, `None` for the
/// bye (bbpPairings' `computeMatching`).
fn pair_with<const N: usize>(
    context: &Context,
) -> Result<Vec<(usize, Option<usize>)>, PairingError> {
    let seats = &context.seats;
    let count = seats.len();
    let max_weight = context.max_weight::<N>();
    let mut matcher = Matcher::<N>::new(count);
    let mut bye = ByeTerms::default();
    let odd = count % 2 == 1;
    for player in 0..count {
        for opponent in 0..player {
            let weight = if odd {
                let mut w = Wide::<N>::ZERO;
                if context.compatible(player, opponent) {
                    let (p, o) = (&seats[player], &seats[opponent]);
                    w = Wide::from_u64(1 + u64::from(!p.bye_eligible) + u64::from(!o.bye_eligible));
                    w = w.shl(context.groups_shift);
                    w = w.or_u64(u64::from(
                        context.shift_of(p.score) + context.shift_of(o.score),
                    ));
                    w = w.shl(context.size_bits);
                    w = w.or_u64(u64::from(p.score >= seats[0].score));
                }
                w
            } else {
                context.weight::<N>(opponent, player, false, false, &bye)
            };
            matcher.set(player, opponent, weight);
        }
    }
    // Whether a pairing exists at all, the bye assignee's score, and
    // whether C9 applies in the first bracket.
    let mut mates = matcher.solve();
    if !complete(context, &mates) {
        return Err(PairingError::NoValidPairing);
    }
    if odd {
        let unmatched = (0..count)
            .find(|&v| mates[v] == v)
            .expect("an odd count leaves one unpaired");
        bye.score = seats[unmatched].score;
        let top = seats[0].score;
        bye.single_downfloater = bye.score >= top
            && seats
                .iter()
                .enumerate()
                .take_while(|(_, s)| s.score >= top)
                .all(|(v, _)| seats[mates[v]].score >= top);
        let mut played: Vec<usize> = seats
            .iter()
            .filter(|s| s.score == bye.score)
            .map(|s| s.colour.played_games)
            .collect();
        played.sort_by(|a, b| b.cmp(a));
        for (rank, games) in played.into_iter().enumerate() {
            bye.unplayed_ranks.insert(games, rank);
        }
        for player in 0..count {
            for opponent in 0..player {
                matcher.set(
                    player,
                    opponent,
                    context.weight::<N>(opponent, player, false, false, &bye),
                );
            }
        }
    }

    // The players of the current bracket and the next, by seat index.
    let mut in_brackets: Vec<usize> = Vec::new();
    let mut next_group = 0;
    while next_group < count && seats[next_group].score >= seats[0].score {
        in_brackets.push(next_group);
        next_group += 1;
    }
    let mut matched = vec![false; count];
    let mut partner: Vec<Option<usize>> = vec![None; count];
    // The number of moved-down players at the head of `in_brackets`.
    let mut group_begin = 0;
    // The seat index of the current score group's first player.
    let mut group_begin_vertex = 0;

    while in_brackets.len() > 1 || next_group < count {
        let next_begin = in_brackets.len();
        let next_begin_vertex = group_begin_vertex + (next_begin - group_begin);
        let group_start = next_group;
        while next_group < count && seats[next_group].score >= seats[group_start].score {
            in_brackets.push(next_group);
            next_group += 1;
        }
        let total = in_brackets.len();
        let in_range = |v: usize| v >= group_begin_vertex && v < next_begin_vertex;

        let mut base: Vec<Vec<Wide<N>>> = vec![Vec::new(); total];
        for larger in group_begin..total {
            for smaller in 0..larger {
                base[larger].push(context.weight::<N>(
                    in_brackets[smaller],
                    in_brackets[larger],
                    larger < next_begin,
                    larger >= next_begin,
                    &bye,
                ));
            }
        }
        for (larger, row) in base.iter().enumerate() {
            for (smaller, w) in row.iter().enumerate() {
                matcher.set(in_brackets[larger], in_brackets[smaller], *w);
            }
        }
        let size_bits = context.size_bits;
        let exchange_weight = |base: &Vec<Vec<Wide<N>>>,
                               smaller: usize,
                               larger: usize,
                               smaller_index: usize,
                               pairs: usize| {
            let w = base[larger][smaller];
            if w.is_zero() {
                return w;
            }
            let addend = Wide::<N>::from_u64(u64::from(smaller_index < pairs))
                .shl(size_bits)
                .shl(size_bits)
                .sub_u64(smaller_index as u64)
                .shl(1);
            w.add(addend)
        };

        mates = matcher.solve();

        // Which moved-down players are paired in this bracket.
        let mut moved_score = 0;
        let mut moved_left = 0usize;
        let mut moved_matchable = 0usize;
        for player in 0..group_begin {
            let score = seats[in_brackets[player]].score;
            if player == 0 || score < moved_score {
                moved_score = score;
                moved_matchable = 0;
                moved_left = 0;
                let mut m = player;
                while m < total && seats[in_brackets[m]].score >= moved_score {
                    moved_left += 1;
                    if in_range(mates[in_brackets[m]]) {
                        moved_matchable += 1;
                    }
                    m += 1;
                }
            }
            if moved_matchable == 0 {
                continue;
            }
            let vertex = in_brackets[player];
            if moved_left <= moved_matchable {
                matched[vertex] = true;
                continue;
            }
            moved_left -= 1;
            if !in_range(mates[vertex]) {
                for opponent in group_begin..next_begin {
                    let w = base[opponent][player];
                    if !w.is_zero() {
                        matcher.set(vertex, in_brackets[opponent], w.or_u64(1));
                    }
                }
                mates = matcher.solve();
            }
            if in_range(mates[vertex]) {
                matched[vertex] = true;
                moved_matchable -= 1;
                for opponent in group_begin..next_begin {
                    let w = base[opponent][player];
                    if !w.is_zero() {
                        let w = w.or_u64((next_begin - group_begin) as u64).add_u64(1);
                        matcher.set(vertex, in_brackets[opponent], w);
                    }
                }
            }
        }

        // The moved-down players' opponents.
        for player in 0..group_begin {
            let vertex = in_brackets[player];
            if !matched[vertex] {
                continue;
            }
            let candidates = (group_begin..next_begin)
                .rev()
                .filter(|&o| !matched[in_brackets[o]]);
            let edges: Vec<(usize, Wide<N>)> = candidates
                .map(|o| (in_brackets[o], base[o][player]))
                .collect();
            mates = fix_partner(
                &mut matcher,
                vertex,
                &edges,
                total as u64,
                false,
                max_weight,
            );
            matched[mates[vertex]] = true;
        }

        // The remainder: the bracket's residents not paired with a
        // moved-down player.
        let mut remainder: Vec<usize> = Vec::new();
        let mut remainder_pairs = 0;
        for (player, &vertex) in in_brackets
            .iter()
            .enumerate()
            .take(next_begin)
            .skip(group_begin)
        {
            if mates[vertex] < group_begin_vertex {
                continue;
            }
            remainder.push(player);
            if mates[vertex] < vertex {
                remainder_pairs += 1;
            }
        }
        let first_group_end = remainder_pairs;

        for &opponent in &remainder {
            let opponent_vertex = in_brackets[opponent];
            for (p_pos, &player) in remainder.iter().enumerate() {
                if opponent <= player {
                    break;
                }
                matcher.set(
                    in_brackets[player],
                    opponent_vertex,
                    exchange_weight(&base, player, opponent, p_pos, remainder_pairs),
                );
            }
        }
        mates = matcher.solve();

        let exchanged = |mates: &[usize], vertex: usize| {
            mates[vertex] <= vertex || mates[vertex] >= next_begin_vertex
        };
        let mut exchange_count = 0;
        if first_group_end < remainder.len() {
            for &player in &remainder {
                if player >= remainder[first_group_end] {
                    break;
                }
                if exchanged(&mates, in_brackets[player]) {
                    exchange_count += 1;
                }
            }
        }

        // Lower players of the first group exchanged where possible.
        let mut exchanges_left = exchange_count;
        let mut pos = first_group_end;
        while pos > 0 && exchanges_left > 0 {
            pos -= 1;
            let player = remainder[pos];
            let vertex = in_brackets[player];
            if mates[vertex] > vertex && mates[vertex] < next_begin_vertex {
                for &opponent in &remainder[pos + 1..] {
                    let w = exchange_weight(&base, player, opponent, pos, remainder_pairs);
                    if !w.is_zero() {
                        matcher.set(vertex, in_brackets[opponent], w.sub_u64(1));
                    }
                }
                mates = matcher.solve();
            }
            let exchange = exchanged(&mates, vertex);
            if exchange {
                exchanges_left -= 1;
            }
            for &opponent in &remainder[pos + 1..] {
                if exchange {
                    base[opponent][player] = Wide::ZERO;
                }
                matcher.set(
                    vertex,
                    in_brackets[opponent],
                    exchange_weight(&base, player, opponent, pos, remainder_pairs),
                );
            }
        }

        // Higher players of the second group exchanged where possible.
        let mut exchanges_left = exchange_count;
        let mut pos = first_group_end;
        while pos < remainder.len() && exchanges_left > 1 {
            let player = remainder[pos];
            let vertex = in_brackets[player];
            let already = mates[vertex] > vertex && mates[vertex] < next_begin_vertex;
            if !already {
                for &opponent in &remainder[pos + 1..] {
                    let w = exchange_weight(&base, player, opponent, pos, remainder_pairs);
                    if !w.is_zero() {
                        matcher.set(vertex, in_brackets[opponent], w.add_u64(1));
                    }
                }
                mates = matcher.solve();
            }
            let exchange = mates[vertex] > vertex && mates[vertex] < next_begin_vertex;
            if exchange {
                exchanges_left -= 1;
                for &opponent in &remainder[..pos] {
                    base[player][opponent] = Wide::ZERO;
                    matcher.set(vertex, in_brackets[opponent], Wide::ZERO);
                }
                for opponent in next_begin..total {
                    base[opponent][player] = Wide::ZERO;
                    matcher.set(vertex, in_brackets[opponent], Wide::ZERO);
                }
            }
            if !already {
                for &opponent in &remainder[pos + 1..] {
                    matcher.set(
                        vertex,
                        in_brackets[opponent],
                        exchange_weight(&base, player, opponent, pos, remainder_pairs),
                    );
                }
            }
            pos += 1;
        }

        // The exchanges fixed, and the bits used to find them cleared.
        for (pos, &player) in remainder.iter().enumerate() {
            let vertex = in_brackets[player];
            for &opponent in &remainder[pos + 1..] {
                let opponent_vertex = in_brackets[opponent];
                if exchanged(&mates, vertex)
                    || (mates[opponent_vertex] > opponent_vertex
                        && mates[opponent_vertex] < next_begin_vertex)
                {
                    base[opponent][player] = Wide::ZERO;
                }
                matcher.set(vertex, opponent_vertex, base[opponent][player]);
            }
        }

        // The first group's opponents, from the top.
        for &player in &remainder {
            let vertex = in_brackets[player];
            if mates[vertex] > vertex && mates[vertex] < next_begin_vertex {
                let candidates = remainder
                    .iter()
                    .rev()
                    .filter(|&&o| o > player && !matched[in_brackets[o]]);
                let edges: Vec<(usize, Wide<N>)> = candidates
                    .map(|&o| (in_brackets[o], base[o][player]))
                    .collect();
                mates = fix_partner(&mut matcher, vertex, &edges, 0, true, max_weight);
                matched[vertex] = true;
                matched[mates[vertex]] = true;
            }
        }

        // The next bracket: the unpaired players move down.
        let mut moved = Vec::new();
        group_begin = 0;
        bye.single_downfloater =
            odd && group_start < count && bye.score >= seats[group_start].score;
        for (index, &vertex) in in_brackets.iter().enumerate() {
            if index < next_begin && matched[vertex] {
                partner[vertex] = Some(mates[vertex]);
                partner[mates[vertex]] = Some(vertex);
            } else {
                moved.push(vertex);
                if index < next_begin {
                    group_begin += 1;
                }
                if bye.single_downfloater
                    && group_start < count
                    && seats[mates[vertex]].score < seats[group_start].score
                {
                    bye.single_downfloater = false;
                }
            }
        }
        in_brackets = moved;
        group_begin_vertex = next_begin_vertex;
    }

    let mut pairs = Vec::new();
    for (v, mate) in partner.iter().enumerate() {
        match *mate {
            Some(m) if v < m => pairs.push((v, Some(m))),
            Some(_) => {}
            None => pairs.push((v, None)),
        }
    }
    Ok(pairs)
}
