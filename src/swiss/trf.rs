//! FIDE's Tournament Report File (TRF-2026), with the TRF(x) codes JaVaFo
//! and bbpPairings read: read into an [`Event`] and written back.
//!
//! What is read:
//!
//! * `001` player lines: pairing number (columns 5-8), sex, title, name,
//!   rating (49-52), federation, FIDE id, birth date, points (81-84), and
//!   from column 92 one 10-column block per round: opponent (`0000` or
//!   blank for none), colour (`w`, `b`, `-` or blank), result (`1 = 0` over
//!   the board, `+ -` by forfeit, `U` the pairing-allocated bye, `F H Z`
//!   full-, half- and zero-point byes, and the TRF-2016 letters `W D L`).
//! * the number of rounds: `142 N` (TRF-2026) or `XXR N` (TRF(x));
//! * the first round's colour: `152 W`/`152 B` or `XXC white1`/`black1`,
//!   and `XXC rank` (pairing order by the file's order of players); when
//!   absent it is inferred from the first round played, as bbpPairings
//!   does;
//! * the point system: `162` (`W`, `D`, `L`, `Z`, `P` with points) or
//!   bbpPairings' `BBW BBD BBL BBZ BBF BBU`;
//! * `240` requested byes for a round (the players are not paired in it);
//! * `192` the tournament type, which must be a Dutch one.
//!
//! Other numbered lines (`012` the event's name, `022` its city, ...) are
//! kept verbatim and written back. Accelerations (`250`, `XXA`), forbidden
//! pairs (`260`, `XXP`), abnormal points (`299`) and team lines (`013`,
//! `310`) are refused with the line number, as is any line that is none of
//! these. Lines end with CR, LF or CRLF (bbpPairings writes CR).

use super::{Color, Event, Game, Identity, Player, PointSystem, RoundScore};

/// The highest pairing number read (TRF's four columns).
pub const MAX_PLAYERS: usize = 9999;
/// The most rounds read.
pub const MAX_ROUNDS: usize = 999;

/// What was wrong with a file, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrfError {
    /// The line (1-based), 0 for the file as a whole.
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

impl std::fmt::Display for TrfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for TrfError {}

fn error(line: usize, message: impl Into<String>) -> TrfError {
    TrfError {
        line,
        message: message.into(),
    }
}

/// A TRF file read: the event, and the lines kept for writing it back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trf {
    /// The event.
    pub event: Event,
    /// Numbered lines not interpreted (`012 name`, ...), verbatim.
    pub kept: Vec<String>,
    /// Whether the file named the first round's colour (or had games to
    /// infer it from).
    pub colour_known: bool,
}

/// The lines of a text, with their 1-based numbers; CR, LF and CRLF each
/// end a line.
fn lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut number = 0;
    for chunk in text.split('\n') {
        let mut parts: Vec<&str> = chunk.split('\r').collect();
        if parts.len() > 1 && parts.last() == Some(&"") {
            parts.pop();
        }
        for part in parts {
            number += 1;
            out.push((number, part));
        }
    }
    out
}

/// A field of a few columns, trimmed, as a number.
fn number(field: &str) -> Option<usize> {
    let t = field.trim();
    if t.is_empty() || t.len() > 9 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// Points with at most one decimal (`6.5`, `10`, `3.0`) in tenths.
fn points(field: &str) -> Option<u32> {
    let t = field.trim();
    let (whole, tenth) = match t.split_once('.') {
        Some((w, f)) if f.len() == 1 => (w, f),
        Some(_) => return None,
        None => (t, "0"),
    };
    if whole.is_empty() || whole.len() > 4 {
        return None;
    }
    if !whole.bytes().all(|b| b.is_ascii_digit()) || !tenth.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(whole.parse::<u32>().ok()? * 10 + tenth.parse::<u32>().ok()?)
}

/// Points in tenths written with one decimal.
pub fn format_points(tenths: u32) -> String {
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// The characters `from..to` of a line (columns are characters), blank
/// past its end.
fn cols(chars: &[char], from: usize, to: usize) -> String {
    (from..to)
        .map(|i| chars.get(i).copied().unwrap_or(' '))
        .collect()
}

/// A pairing number field: 1 to 9999.
fn player_number(field: &str, line: usize, what: &str) -> Result<usize, TrfError> {
    match number(field) {
        Some(n) if (1..=MAX_PLAYERS).contains(&n) => Ok(n - 1),
        _ => Err(error(
            line,
            format!(
                "{what} {:?} is not a pairing number from 1 to {MAX_PLAYERS}",
                field.trim()
            ),
        )),
    }
}

/// Reads a `001` line (bbpPairings' `readPlayer`): the player, and whether
/// any round entry took part in a pairing beyond those seen (the caller
/// tracks the rounds).
fn read_player(chars: &[char], line: usize) -> Result<Player, TrfError> {
    if chars.len() < 84 {
        return Err(error(
            line,
            format!(
                "a player line needs at least 84 columns (to the points), this one has {}",
                chars.len()
            ),
        ));
    }
    let id = player_number(&cols(chars, 4, 8), line, "the pairing number (columns 5-8)")?;
    let rating_field = cols(chars, 48, 52);
    let rating = if rating_field.trim().is_empty() {
        0
    } else {
        match number(&rating_field) {
            Some(r) if r <= 9999 => r as u16,
            _ => {
                return Err(error(
                    line,
                    format!(
                        "the rating (columns 49-52) {:?} is not a number",
                        rating_field.trim()
                    ),
                ));
            }
        }
    };
    let score_field = cols(chars, 80, 84);
    let score = points(&score_field).ok_or_else(|| {
        error(
            line,
            format!(
                "the points (columns 81-84) {:?} are not a score like 4.5",
                score_field.trim()
            ),
        )
    })?;
    let mut games = Vec::new();
    let mut skipped = 0usize;
    let mut start = 91;
    while start + 8 <= chars.len() {
        let round = (start - 91) / 10 + 1;
        let at = |what: &str| {
            format!(
                "round {round} (columns {}-{}): {what}",
                start + 1,
                start + 8
            )
        };
        let mut skip = true;
        let mut played = true;
        let opponent_field = cols(chars, start, start + 4);
        let mut opponent = None;
        if opponent_field != "    " {
            if opponent_field != "0000" {
                let o = player_number(&opponent_field, line, &at("the opponent"))?;
                if o == id {
                    return Err(error(line, at("the player is their own opponent")));
                }
                opponent = Some(o);
            }
            skip = false;
        }
        if opponent.is_none() {
            played = false;
        }
        let colour_char = chars[start + 5];
        let color = match colour_char {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            _ => None,
        };
        match colour_char {
            'w' | 'b' => skip = false,
            '-' => {
                skip = false;
                played = false;
            }
            ' ' => played = false,
            other => {
                return Err(error(
                    line,
                    at(&format!("the colour {other:?} is none of w, b, - or blank")),
                ));
            }
        }
        if opponent.is_none() && color.is_some() {
            return Err(error(line, at("a colour without an opponent")));
        }
        let result_char = chars[start + 7].to_ascii_uppercase();
        let outcome = match result_char {
            'D' | '=' | 'H' => RoundScore::Draw,
            '+' | 'W' | '1' | 'F' | 'U' => RoundScore::Win,
            '-' | 'L' | '0' | 'Z' | ' ' => RoundScore::Loss,
            other => {
                return Err(error(
                    line,
                    at(&format!("the result {other:?} is not a TRF result")),
                ));
            }
        };
        if matches!(result_char, '+' | '-' | 'H' | 'F' | 'U' | 'Z' | ' ') {
            played = false;
            if !matches!(result_char, '+' | '-') && opponent.is_some() {
                return Err(error(
                    line,
                    at(&format!(
                        "the result {result_char:?} is a bye but an opponent is given"
                    )),
                ));
            }
        } else if color.is_none() && (result_char != '=' || opponent.is_some()) {
            return Err(error(line, at("a game result without a colour")));
        }
        if result_char != ' ' {
            skip = false;
        }
        let paired = opponent.is_some() || result_char == 'U' || result_char == '+';
        if skip {
            skipped += 1;
        } else {
            games.extend(std::iter::repeat_n(Game::absent(), skipped));
            skipped = 0;
            games.push(Game {
                opponent,
                color,
                outcome,
                played,
                paired,
            });
            if games.len() > MAX_ROUNDS {
                return Err(error(line, format!("more than {MAX_ROUNDS} rounds")));
            }
        }
        start += 10;
    }
    if chars[start.min(chars.len())..].iter().any(|&c| c != ' ') {
        return Err(error(
            line,
            format!(
                "columns {}-{} are not a whole round entry",
                start + 1,
                chars.len()
            ),
        ));
    }
    Ok(Player {
        id,
        name: cols(chars, 14, 47).trim().to_string(),
        rating,
        identity: Identity {
            sex: cols(chars, 9, 10).trim().to_string(),
            title: cols(chars, 10, 13).trim().to_string(),
            federation: cols(chars, 53, 56).trim().to_string(),
            fide_id: cols(chars, 57, 68).trim().to_string(),
            birth: cols(chars, 69, 79).trim().to_string(),
        },
        score,
        games,
        valid: true,
        rank: 0,
    })
}

/// A `162` line: `W`, `D`, `L`, `Z`, `P` each with points, every 9 columns
/// from column 6.
fn read_point_system(
    chars: &[char],
    line: usize,
    system: &mut PointSystem,
    bye_given: &mut bool,
) -> Result<(), TrfError> {
    if chars.len() < 10 {
        return Err(error(
            line,
            "a 162 line needs a result letter and its points from column 6",
        ));
    }
    let mut start = 5;
    while start + 5 <= chars.len() {
        let value = points(&cols(chars, start + 1, start + 5)).ok_or_else(|| {
            error(
                line,
                format!("columns {}-{}: not points", start + 2, start + 5),
            )
        })?;
        match chars[start] {
            'W' => {
                system.win = value;
                if !*bye_given {
                    system.pairing_bye = value;
                }
            }
            'D' => system.draw = value,
            'L' => system.loss = value,
            'Z' | 'A' => {
                system.zero_bye = value;
                system.forfeit_loss = value;
            }
            'P' => {
                system.pairing_bye = value;
                *bye_given = true;
            }
            other => {
                return Err(error(
                    line,
                    format!("column {}: {other:?} is none of W, D, L, Z, P", start + 1),
                ));
            }
        }
        start += 9;
    }
    if chars[start.min(chars.len())..].iter().any(|&c| c != ' ') {
        return Err(error(line, "trailing characters after the point system"));
    }
    Ok(())
}

/// Reads a TRF file. `for_pairing`: the file is to be paired (`argus
/// swiss pair`), so entries for the round after the last paired one are
/// requested byes or absences for it, and the number of rounds must be
/// given; otherwise (`argus swiss check`) every entry is a past round.
pub fn read(text: &str, for_pairing: bool) -> Result<Trf, TrfError> {
    let mut players: Vec<Player> = Vec::new();
    let mut present: Vec<bool> = Vec::new();
    let mut by_rank: Vec<usize> = Vec::new();
    let mut played_rounds = 0usize;
    let mut expected_rounds = 0usize;
    let mut system = PointSystem::default();
    let mut bye_given = false;
    let mut initial: Option<Color> = None;
    let mut use_rank = false;
    let mut kept = Vec::new();
    let mut byes: Vec<(usize, usize, usize)> = Vec::new();
    for (n, line) in lines(text) {
        let chars: Vec<char> = line.chars().collect();
        if chars.iter().all(|c| c.is_whitespace()) {
            continue;
        }
        if chars.len() < 3 {
            return Err(error(
                n,
                format!("{line:?} is not a TRF line (a three-character code first)"),
            ));
        }
        let code: String = chars[..3].iter().collect();
        let rest: String = chars[3..].iter().collect();
        match code.as_str() {
            "001" => {
                let player = read_player(&chars, n)?;
                let last_paired = player
                    .games
                    .iter()
                    .rposition(|g| g.paired)
                    .map_or(0, |i| i + 1);
                let last_any = player.games.len();
                played_rounds = played_rounds
                    .max(last_paired)
                    .max(last_any.saturating_sub(1));
                let id = player.id;
                if id >= players.len() {
                    players.resize_with(id + 1, || Player {
                        id: 0,
                        name: String::new(),
                        rating: 0,
                        identity: Identity::default(),
                        score: 0,
                        games: Vec::new(),
                        valid: false,
                        rank: 0,
                    });
                    present.resize(id + 1, false);
                }
                if present[id] {
                    return Err(error(n, format!("pairing number {} is used twice", id + 1)));
                }
                present[id] = true;
                players[id] = player;
                by_rank.push(id);
            }
            "142" | "XXR" => match number(&rest) {
                Some(r) if (1..=MAX_ROUNDS).contains(&r) => expected_rounds = r,
                _ => {
                    return Err(error(
                        n,
                        format!(
                            "{code}: {:?} is not a number of rounds from 1 to {MAX_ROUNDS}",
                            rest.trim()
                        ),
                    ));
                }
            },
            "XXC" => {
                for word in rest.split_whitespace() {
                    match word {
                        "rank" => use_rank = true,
                        "white1" => initial = Some(Color::White),
                        "black1" => initial = Some(Color::Black),
                        other => {
                            return Err(error(
                                n,
                                format!("XXC: {other:?} is none of white1, black1, rank"),
                            ));
                        }
                    }
                }
            }
            "152" => match rest.trim() {
                "W" => initial = Some(Color::White),
                "B" => initial = Some(Color::Black),
                other => return Err(error(n, format!("152: {other:?} is neither W nor B"))),
            },
            "162" => read_point_system(&chars, n, &mut system, &mut bye_given)?,
            "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => {
                let value = points(&cols(&chars, 4, 12)).ok_or_else(|| {
                    error(
                        n,
                        format!("{code}: {:?} is not points like 1.0", rest.trim()),
                    )
                })?;
                match code.as_str() {
                    "BBW" => {
                        system.win = value;
                        if !bye_given {
                            system.pairing_bye = value;
                        }
                    }
                    "BBD" => system.draw = value,
                    "BBL" => system.loss = value,
                    "BBZ" => system.zero_bye = value,
                    "BBF" => system.forfeit_loss = value,
                    _ => {
                        system.pairing_bye = value;
                        bye_given = true;
                    }
                }
            }
            "192" => match rest.trim() {
                "FIDE_DUTCH_2025" | "FIDE_DUTCH" => kept.push(line.to_string()),
                other => {
                    return Err(error(
                        n,
                        format!(
                            "192: the tournament type {other:?} is not the Dutch system (FIDE_DUTCH_2025)"
                        ),
                    ));
                }
            },
            "240" => {
                if chars.len() < 11 {
                    return Err(error(
                        n,
                        "a 240 line needs a round (columns 7-9) and players",
                    ));
                }
                let round = match number(&cols(&chars, 6, 9)) {
                    Some(r) if (1..=MAX_ROUNDS).contains(&r) => r - 1,
                    _ => return Err(error(n, "240: columns 7-9 are not a round number")),
                };
                let mut start = 10;
                while start + 4 <= chars.len() {
                    let id = player_number(&cols(&chars, start, start + 4), n, "240: the player")?;
                    byes.push((n, round, id));
                    start += 5;
                }
                kept.push(line.to_string());
            }
            "250" | "XXA" => {
                return Err(error(
                    n,
                    format!("{code}: accelerated pairings are not supported"),
                ));
            }
            "260" | "XXP" => {
                return Err(error(
                    n,
                    format!("{code}: forbidden pairs are not supported"),
                ));
            }
            "299" => return Err(error(n, "299: abnormal points are not supported")),
            "013" | "310" => {
                return Err(error(
                    n,
                    format!("{code}: team tournaments are not supported"),
                ));
            }
            c if c.bytes().all(|b| b.is_ascii_digit()) => kept.push(line.to_string()),
            "XXS" | "XXY" | "XXZ" | "XXB" => kept.push(line.to_string()),
            _ => {
                return Err(error(
                    n,
                    format!("{code:?} is not a TRF line code this reader knows"),
                ));
            }
        }
    }
    if players.is_empty() {
        return Err(error(0, "no player lines (001)"));
    }
    if !use_rank && present.iter().any(|p| !p) {
        let missing = present.iter().position(|p| !p).unwrap_or(0);
        return Err(error(
            0,
            format!("pairing number {} is missing", missing + 1),
        ));
    }
    // bbpPairings' `evenUpMatchHistories`: an entry beyond the paired
    // rounds is a past round when checking if anyone has one, and the
    // round to pair when pairing if everyone has one.
    let valid: Vec<usize> = by_rank.clone();
    let beyond = |p: &Player| p.games.len() > played_rounds;
    let forward_complete = if for_pairing {
        valid.iter().all(|&i| beyond(&players[i]))
    } else {
        valid.iter().any(|&i| beyond(&players[i]))
    };
    if forward_complete {
        played_rounds += 1;
    }
    for &i in &valid {
        if players[i].games.len() < played_rounds {
            players[i].games.resize(played_rounds, Game::absent());
        }
    }
    let reach = played_rounds + usize::from(for_pairing);
    if expected_rounds != 0 && reach > expected_rounds {
        return Err(error(
            0,
            format!(
                "{reach} rounds are paired or to be paired, more than the {expected_rounds} the file gives (142/XXR)"
            ),
        ));
    }
    if for_pairing && expected_rounds == 0 {
        return Err(error(
            0,
            "the number of rounds is needed to pair (a 142 or XXR line)",
        ));
    }
    if expected_rounds == 0 {
        expected_rounds = played_rounds;
    }
    if !use_rank {
        by_rank.sort_unstable();
    }
    for (rank, &i) in by_rank.iter().enumerate() {
        players[i].rank = rank;
    }
    if for_pairing {
        for &(n, round, id) in &byes {
            if round != played_rounds {
                continue;
            }
            if id >= players.len() || !players[id].valid {
                return Err(error(n, format!("240: no player {}", id + 1)));
            }
            if players[id].games.len() <= played_rounds {
                players[id].games.push(Game::absent());
            }
        }
    }
    let inferred = infer_first_colour(&players, &by_rank);
    let colour_known = initial.is_some() || inferred.is_some();
    let mut event = Event {
        players,
        by_rank,
        played_rounds,
        expected_rounds,
        points: system,
        initial_color: initial.or(inferred).unwrap_or(Color::White),
        use_rank,
    };
    check_opponents(&event)?;
    check_scores(&mut event)?;
    Ok(Trf {
        event,
        kept,
        colour_known,
    })
}

/// The first round's colour for the top player, from the first round in
/// which anyone had a colour (bbpPairings' `inferFirstColor`).
fn infer_first_colour(players: &[Player], by_rank: &[usize]) -> Option<Color> {
    let first = by_rank
        .iter()
        .filter_map(|&i| players[i].games.iter().position(|g| g.color.is_some()))
        .min()?;
    let mut number = 0usize;
    for &i in by_rank {
        let player = &players[i];
        if player.games.iter().take(first + 1).any(|g| g.paired) {
            if let Some(colour) = player.games.get(first).and_then(|g| g.color) {
                return Some(if number % 2 == 1 {
                    colour.invert()
                } else {
                    colour
                });
            }
            number += 1;
        }
    }
    None
}

/// Every game's opponent lists the player back, with the other colour
/// (bbpPairings' `validatePairConsistency`).
fn check_opponents(event: &Event) -> Result<(), TrfError> {
    for &i in &event.by_rank {
        let player = &event.players[i];
        for (round, game) in player.games.iter().enumerate() {
            let Some(o) = game.opponent else { continue };
            let theirs = event
                .players
                .get(o)
                .filter(|p| p.valid)
                .and_then(|p| p.games.get(round));
            let consistent = match theirs {
                Some(t) => {
                    t.opponent == Some(i) && (!game.played || (t.played && t.color != game.color))
                }
                None => false,
            };
            if !consistent {
                return Err(error(
                    0,
                    format!(
                        "round {}: player {} is given opponent {}, whose line does not give player {} back with the other colour",
                        round + 1,
                        i + 1,
                        o + 1,
                        i + 1
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Each player's points agree with their results, counted to the last
/// paired round (or to the round to pair, for a bye already given in it);
/// the score kept is the one to the last paired round.
fn check_scores(event: &mut Event) -> Result<(), TrfError> {
    let played = event.played_rounds;
    let system = event.points;
    for &i in &event.by_rank.clone() {
        let player = &mut event.players[i];
        let counted: u32 = player
            .games
            .iter()
            .take(played)
            .map(|g| system.points(g))
            .sum();
        let with_next = counted + player.games.get(played).map_or(0, |g| system.points(g));
        if player.score != counted && player.score != with_next {
            return Err(error(
                0,
                format!(
                    "player {}'s points {} do not match their results ({})",
                    i + 1,
                    format_points(player.score),
                    format_points(counted)
                ),
            ));
        }
        player.score = counted;
    }
    Ok(())
}

/// The TRF text of a round entry.
fn game_text(game: &Game) -> String {
    if !game.paired {
        let letter = match game.outcome {
            RoundScore::Win => 'F',
            RoundScore::Draw => 'H',
            RoundScore::Loss => 'Z',
        };
        return format!("0000 - {letter}");
    }
    let Some(opponent) = game.opponent else {
        return "0000 - U".to_string();
    };
    let colour = match game.color {
        Some(Color::White) => 'w',
        Some(Color::Black) => 'b',
        None => '-',
    };
    let result = match (game.played, game.outcome) {
        (true, RoundScore::Win) => '1',
        (true, RoundScore::Draw) => '=',
        (true, RoundScore::Loss) => '0',
        (false, RoundScore::Win) => '+',
        (false, _) => '-',
    };
    format!("{:>4} {colour} {result}", opponent + 1)
}

/// A string cut or padded to `width` characters.
fn fit(text: &str, width: usize, right: bool) -> String {
    let cut: String = text
        .chars()
        .filter(|c| !c.is_control())
        .take(width)
        .collect();
    let pad = width - cut.chars().count();
    if right {
        format!("{}{cut}", " ".repeat(pad))
    } else {
        format!("{cut}{}", " ".repeat(pad))
    }
}

/// Writes the event as TRF-2026 (LF line ends): the kept lines, the number
/// of rounds (`142`, and TRF(x)'s `XXR` for JaVaFo and bbpPairings), the
/// first colour (`152`), the point system when it
/// is not the usual one (`162`), and a `001` line per player with every
/// round so far. The places (columns 86-89) are by score, then pairing
/// order.
pub fn write(event: &Event, kept: &[String]) -> String {
    let mut out = String::new();
    for line in kept {
        out.push_str(line);
        out.push('\n');
    }
    // TRF-2026's record, and TRF(x)'s for the programs that read only it.
    out.push_str(&format!("142 {}\n", event.expected_rounds));
    out.push_str(&format!("XXR {}\n", event.expected_rounds));
    out.push_str(match event.initial_color {
        Color::White => "152 W\n",
        Color::Black => "152 B\n",
    });
    if event.use_rank {
        out.push_str("XXC rank\n");
    }
    let p = event.points;
    if p != PointSystem::default() {
        out.push_str("162  ");
        for (letter, value) in [
            ('W', p.win),
            ('D', p.draw),
            ('L', p.loss),
            ('Z', p.zero_bye),
            ('P', p.pairing_bye),
        ] {
            out.push_str(&format!("{letter}{:>4}    ", format_points(value)));
        }
        let trimmed = out.trim_end_matches(' ').len();
        out.truncate(trimmed);
        out.push('\n');
    }
    let mut order: Vec<usize> = event.by_rank.clone();
    order.sort_by(|&a, &b| {
        let (pa, pb) = (&event.players[a], &event.players[b]);
        pb.score.cmp(&pa.score).then(pa.rank.cmp(&pb.rank))
    });
    let mut place = vec![0; event.players.len()];
    for (n, &i) in order.iter().enumerate() {
        place[i] = n + 1;
    }
    let mut listed = event.by_rank.clone();
    if !event.use_rank {
        listed.sort_unstable();
    }
    for &i in &listed {
        let player = &event.players[i];
        let id = &player.identity;
        let mut line = format!(
            "001 {:>4} {}{} {} {} {} {} {} {:>4} {:>4}",
            i + 1,
            fit(&id.sex, 1, false),
            fit(&id.title, 3, false),
            fit(&player.name, 33, false),
            if player.rating == 0 {
                "    ".to_string()
            } else {
                format!("{:>4}", player.rating)
            },
            fit(&id.federation, 3, false),
            fit(&id.fide_id, 11, true),
            fit(&id.birth, 10, false),
            format_points(player.score),
            place[i],
        );
        for game in player.games.iter().take(event.played_rounds) {
            line.push_str("  ");
            line.push_str(&game_text(game));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player_line(id: usize, rating: u16, score: &str, rounds: &[&str]) -> String {
        let mut line = format!(
            "001 {:>4}      {:<33} {:>4}                            {:>4} {:>4}",
            id,
            format!("Player {id}"),
            rating,
            score,
            id
        );
        for r in rounds {
            line.push_str("  ");
            line.push_str(r);
        }
        line
    }

    fn four_players() -> String {
        [
            "012 Test event".to_string(),
            "XXR 3".to_string(),
            "XXC white1".to_string(),
            player_line(1, 2400, "1.0", &["   3 w 1"]),
            player_line(2, 2300, "0.5", &["   4 b ="]),
            player_line(3, 2200, "0.0", &["   1 b 0"]),
            player_line(4, 2100, "0.5", &["   2 w ="]),
        ]
        .join("\r")
    }

    #[test]
    fn reads_players_rounds_and_codes() {
        let trf = read(&four_players(), true).expect("a valid file");
        let event = &trf.event;
        assert_eq!(event.players.len(), 4);
        assert_eq!(event.played_rounds, 1);
        assert_eq!(event.expected_rounds, 3);
        assert_eq!(event.initial_color, Color::White);
        assert_eq!(event.players[0].score, 10);
        assert_eq!(event.players[1].score, 5);
        assert_eq!(event.players[0].rating, 2400);
        assert_eq!(event.players[0].name, "Player 1");
        let g = event.players[2].games[0];
        assert_eq!(g.opponent, Some(0));
        assert_eq!(g.color, Some(Color::Black));
        assert_eq!(g.outcome, RoundScore::Loss);
        assert!(g.played && g.paired);
        assert_eq!(trf.kept, vec!["012 Test event".to_string()]);
    }

    #[test]
    fn written_files_read_back_the_same() {
        let trf = read(&four_players(), false).expect("a valid file");
        let text = write(&trf.event, &trf.kept);
        let again = read(&text, false).expect("its own output reads");
        assert_eq!(again.event, trf.event);
        assert_eq!(write(&again.event, &again.kept), text);
    }

    #[test]
    fn byes_and_forfeits_round_trip() {
        let text = [
            "XXR 2".to_string(),
            player_line(1, 2400, "2.0", &["0000 - U", "   2 w +"]),
            player_line(2, 2300, "0.5", &["0000 - H", "   1 b -"]),
            player_line(3, 2200, "0.0", &["0000 - Z", "0000 - Z"]),
        ]
        .join("\n");
        let trf = read(&text, false).expect("a valid file");
        let p1 = &trf.event.players[0];
        assert_eq!(p1.games[0], Game::pairing_bye());
        assert!(p1.games[1].paired && !p1.games[1].played);
        assert_eq!(trf.event.players[1].games[0].outcome, RoundScore::Draw);
        assert!(!trf.event.players[1].games[0].paired);
        let written = write(&trf.event, &trf.kept);
        assert!(written.contains("0000 - U     2 w +"), "{written}");
        assert_eq!(read(&written, false).expect("reads back").event, trf.event);
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        let mut text = four_players();
        text.push_str("\rXYZ what");
        assert_eq!(read(&text, true).unwrap_err().line, 8);
        let bad_result = four_players().replace("   3 w 1", "   3 w ?");
        let err = read(&bad_result, true).unwrap_err();
        assert_eq!(err.line, 4);
        assert!(err.message.contains("round 1"), "{err}");
        let short = "001    1 Someone";
        assert_eq!(read(short, true).unwrap_err().line, 1);
        let bad_score = four_players().replace("  1.0    1", "  1.x    1");
        assert!(
            read(&bad_score, true)
                .unwrap_err()
                .message
                .contains("points")
        );
        let wrong_score = four_players().replace("  1.0    1", "  0.0    1");
        assert!(
            read(&wrong_score, true)
                .unwrap_err()
                .message
                .contains("do not match")
        );
        let inconsistent = four_players().replace("   1 b 0", "   2 b 0");
        assert!(read(&inconsistent, true).is_err());
        assert!(
            read("XXA 1 2", true)
                .unwrap_err()
                .message
                .contains("accelerated")
        );
        assert!(read("", true).is_err());
    }

    #[test]
    fn pairing_needs_the_number_of_rounds() {
        let text = four_players().replace("XXR 3\r", "");
        assert!(
            read(&text, true)
                .unwrap_err()
                .message
                .contains("number of rounds")
        );
        assert_eq!(
            read(&text, false)
                .expect("checking infers it")
                .event
                .expected_rounds,
            1
        );
    }

    #[test]
    fn the_first_colour_is_inferred_from_the_first_round() {
        let text = four_players().replace("XXC white1\r", "");
        let trf = read(&text, true).expect("valid");
        assert!(trf.colour_known);
        assert_eq!(trf.event.initial_color, Color::White);
        let black = text
            .replace("   3 w 1", "   3 b 1")
            .replace("   1 b 0", "   1 w 0");
        assert_eq!(
            read(&black, true).expect("valid").event.initial_color,
            Color::Black
        );
    }

    #[test]
    fn point_systems_are_read() {
        let text = format!(
            "162  W 3.0    D 1.0\n{}",
            four_players()
                .replace("1.0    1", "3.0    1")
                .replace("0.5    2", "1.0    2")
                .replace("0.5    4", "1.0    4")
        );
        let trf = read(&text, true).expect("valid");
        assert_eq!(trf.event.points.win, 30);
        assert_eq!(trf.event.points.draw, 10);
        assert_eq!(trf.event.points.pairing_bye, 30);
    }
}
