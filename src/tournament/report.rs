//! The tournament's final report (the spec's "tournament final report"):
//! how it was run, the standings with their tie-breaks, the crosstable,
//! every game with its result and termination, and each player's
//! statistics, as plain text and as Markdown. Pure functions: a
//! tournament in, a string out. Both forms come from the same tables, so
//! they always say the same thing; client names are stripped of control
//! characters, and escaped in Markdown.

use std::fmt::Write as _;

use crate::clock::format_span;
use crate::text::points;
use crate::text::strip_control;
use crate::tournament::core::{GameState, Tournament};
use crate::tournament::knockout::{Knockout, Stage, TIEBREAK_SETS};
use crate::tournament::messages::Absence;
use crate::tournament::schedule::Format;
use crate::tournament::standings::{Mark, Standings};

/// The tie-break order, in words.
pub const TIE_BREAKS: &str = "points, then Sonneborn-Berger (the points of the opponents \
beaten, plus half those of the opponents drawn; forfeits add nothing), then wins over the \
board; players equal on all three share a rank and are listed in seed order";

/// One section of the report: a title, sentences, and a table.
struct Section {
    title: &'static str,
    lines: Vec<String>,
    table: Option<Table>,
}

struct Table {
    header: Vec<String>,
    /// Columns aligned to the right (numbers).
    right: Vec<bool>,
    rows: Vec<Vec<String>>,
}

/// The report as plain text.
pub fn text(t: &Tournament) -> String {
    let mut s = String::new();
    let title = format!("{}: tournament report", strip_control(&t.settings().event));
    let _ = writeln!(s, "{title}\n{}", "=".repeat(title.chars().count()));
    for sec in sections(t) {
        let _ = writeln!(s, "\n{}\n{}", sec.title, "-".repeat(sec.title.len()));
        for l in &sec.lines {
            let _ = writeln!(s, "{}", strip_control(l));
        }
        if let Some(table) = &sec.table {
            text_table(&mut s, table);
        }
    }
    s
}

/// The standings table alone, as plain text (printed after every round).
pub fn standings_text(t: &Tournament) -> String {
    let st = Standings::of(t);
    let mut s = String::new();
    if let Some(table) = &standings(t, &st).table {
        text_table(&mut s, table);
    }
    s
}

/// The report as Markdown.
pub fn markdown(t: &Tournament) -> String {
    let mut s = format!("# {}: tournament report\n", md(&t.settings().event));
    for sec in sections(t) {
        let _ = writeln!(s, "\n## {}\n", sec.title);
        for l in &sec.lines {
            let _ = writeln!(s, "{}  ", md(l));
        }
        if let Some(table) = &sec.table {
            if !sec.lines.is_empty() {
                s.push('\n');
            }
            md_table(&mut s, table);
        }
    }
    s
}

fn text_table(s: &mut String, t: &Table) {
    let cells: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|r| r.iter().map(|c| strip_control(c)).collect())
        .collect();
    let mut widths: Vec<usize> = t.header.iter().map(|h| h.chars().count()).collect();
    for r in &cells {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |s: &mut String, row: &[String]| {
        let mut l = String::new();
        for (i, c) in row.iter().enumerate() {
            let pad = widths[i].saturating_sub(c.chars().count());
            if i > 0 {
                l.push_str("  ");
            }
            if t.right[i] {
                l.push_str(&" ".repeat(pad));
                l.push_str(c);
            } else {
                l.push_str(c);
                l.push_str(&" ".repeat(pad));
            }
        }
        let _ = writeln!(s, "{}", l.trim_end());
    };
    line(s, &t.header);
    for r in &cells {
        line(s, r);
    }
}

fn md_table(s: &mut String, t: &Table) {
    let _ = writeln!(s, "| {} |", t.header.join(" | "));
    let rule: Vec<&str> = t
        .right
        .iter()
        .map(|&r| if r { "---:" } else { "---" })
        .collect();
    let _ = writeln!(s, "|{}|", rule.join("|"));
    for r in &t.rows {
        let cells: Vec<String> = r.iter().map(|c| md(c)).collect();
        let _ = writeln!(s, "| {} |", cells.join(" | "));
    }
}

/// Text for Markdown: control characters removed, and the characters that
/// would start markup or end a table cell escaped.
pub fn md(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in strip_control(s).chars() {
        if matches!(
            c,
            '\\' | '|' | '*' | '_' | '`' | '[' | ']' | '<' | '>' | '#'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn sections(t: &Tournament) -> Vec<Section> {
    let st = Standings::of(t);
    vec![Section {
        title: "Tournament",
        lines: about(t),
        table: None,
    }]
    .into_iter()
    .chain(bracket(t))
    .chain([standings(t, &st), crosstable(t, &st), games(t)])
    .chain(byes(t))
    .chain([statistics(t, &st)])
    .collect()
}

/// A knockout's bracket: each match of each round, the higher seed first,
/// with each stage's score and who went on, and how.
fn bracket(t: &Tournament) -> Option<Section> {
    let k = t.knockout()?;
    let name = |p| strip_control(t.name(p));
    let mut rows = Vec::new();
    for (r, round) in k.rounds().iter().enumerate() {
        for (i, m) in round.iter().enumerate() {
            let side = |s: usize| match m.sides[s] {
                Some((seed, p)) => format!("{} ({seed})", name(p)),
                None => m.absent().into(),
            };
            let (on, by) = match m.decided {
                Some((by, _)) => (m.winner().map_or_else(|| "nobody".into(), name), by.name()),
                None if m.games.is_empty() => ("".into(), "".into()),
                None => ("".into(), "playing".into()),
            };
            rows.push(vec![
                format!("{} ({})", r + 1, k.round_name(r)),
                (i + 1).to_string(),
                side(0),
                side(1),
                k.scores(m).join(", "),
                on,
                by,
            ]);
        }
    }
    let mut lines = Vec::new();
    if let Some(p) = k.champion() {
        lines.push(format!("Winner: {}.", name(p)));
    }
    Some(Section {
        title: "Bracket",
        lines,
        table: Some(Table {
            header: columns(&[
                "Round",
                "Match",
                "Higher seed",
                "Lower seed",
                "Score",
                "Goes on",
                "By",
            ]),
            right: vec![false, true, false, false, false, false, false],
            rows,
        }),
    })
}

fn about(t: &Tournament) -> Vec<String> {
    let s = t.settings();
    let sch = t.schedule();
    let kind = match s.schedule.format {
        Format::RoundRobin => "Round robin (Berger tables)",
        Format::Gauntlet => "Gauntlet (the first player against each of the others)",
        Format::Swiss => "Swiss (FIDE Dutch system)",
        Format::Knockout => "Knockout (a bracket seeded by rating, then name)",
    };
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    if let Some(k) = t.knockout() {
        return knockout_about(t, k, kind, &plural);
    }
    // Cycles and games per pairing shape a fixed schedule only; a Swiss
    // pairs each round once.
    let shape = if sch.is_dynamic() {
        String::new()
    } else {
        format!(
            ", {}, {}",
            plural(u64::from(s.schedule.cycles), "cycle", "cycles"),
            plural(
                u64::from(s.schedule.games_per_pairing),
                "game per pairing",
                "games per pairing"
            )
        )
    };
    let mut lines = vec![if sch.is_endless() {
        format!(
            "{kind}, {}: games until it is stopped, on {}.",
            plural(sch.players() as u64, "player", "players"),
            plural(u64::from(t.board_count()), "board", "boards"),
        )
    } else {
        format!(
            "{kind}, {}{shape}: {} in {}, on {}.",
            plural(sch.players() as u64, "player", "players"),
            plural(sch.games().len() as u64, "game", "games"),
            plural(u64::from(sch.rounds()), "round", "rounds"),
            plural(u64::from(t.board_count()), "board", "boards"),
        )
    }];
    lines.push(match s.absence {
        Absence::Wait => "A player that is away: its games wait until it is back; a game it \
                          was playing goes on, its clock running."
            .to_string(),
        Absence::Forfeit { after_ms } => format!(
            "A player that is away: after {} s away it forfeits every game it has not started.",
            after_ms / 1000
        ),
    });
    if s.schedule.format == Format::Swiss {
        lines.push(format!(
            "Rounds paired by the Dutch rules as the event went: {} of {}.",
            sch.rounds(),
            sch.planned_rounds()
        ));
        let names: Vec<&str> = s.swiss.tiebreaks.iter().map(|t| t.name()).collect();
        lines.push(format!(
            "Ranking: points (byes included: the pairing-allocated bye 1, a bye asked for {}), \
             then {} (FIDE C.07, over the rounds complete); players equal on all share a rank \
             and are listed in initial order (rating, then name).",
            crate::tournament::journal::header::bye_points(s.swiss.bye),
            if names.is_empty() {
                "nothing".to_string()
            } else {
                names.join(", ")
            }
        ));
    } else {
        lines.push(format!("Ranking: {TIE_BREAKS}."));
    }
    lines.push(completion(t));
    lines
}

/// Whether every game is decided, or how many are.
fn completion(t: &Tournament) -> String {
    let sch = t.schedule();
    let decided = t.decided().count();
    if t.is_over() {
        format!("Complete: all {decided} games decided.")
    } else if sch.is_endless() {
        format!("Not over: {decided} games decided; it goes on until it is stopped.")
    } else {
        format!(
            "Not over: {decided} of {} games decided.",
            sch.games().len()
        )
    }
}

/// How a knockout is run, in words.
fn knockout_about(
    t: &Tournament,
    k: &Knockout,
    kind: &str,
    plural: &dyn Fn(u64, &str, &str) -> String,
) -> Vec<String> {
    let sch = t.schedule();
    let byes = sch.players().next_power_of_two() - sch.players();
    let mut lines = vec![format!(
        "{kind}, {}, {} a match, {} to the top seeds: {} so far in {}, on {}.",
        plural(sch.players() as u64, "player", "players"),
        plural(u64::from(k.settings().games), "game", "games"),
        plural(byes as u64, "bye", "byes"),
        plural(sch.games().len() as u64, "game", "games"),
        plural(u64::from(sch.rounds()), "round", "rounds"),
        plural(u64::from(t.board_count()), "board", "boards"),
    )];
    lines.push(match &k.settings().tiebreak {
        Some(tb) => format!(
            "A level match: up to {TIEBREAK_SETS} tie-break sets of {} at {} while level, then \
             one decisive game at {} (the higher seed has Black, and a draw is Black's).",
            plural(u64::from(tb.games), "game", "games"),
            tb.control,
            match &tb.armageddon {
                Some((w, b)) => format!("{w} for White and {b} for Black"),
                None => tb.control.clone(),
            }
        ),
        None => "A level match: one decisive game at the event's control (the higher seed \
                 has Black, and a draw is Black's)."
            .into(),
    });
    lines.push(
        "A player that withdraws (or forfeits, away too long) loses its match by walkover.".into(),
    );
    lines.push(completion(t));
    lines
}

fn quarters(q: u64) -> String {
    format!("{}.{:02}", q / 4, q % 4 * 25)
}

/// The standings: rank, player, points, games, W-D-L, forfeits, then the
/// tie-breaks (a Swiss event's, as columns; else Sonneborn-Berger).
fn standings(t: &Tournament, st: &Standings) -> Section {
    let swiss = t.settings().schedule.format == Format::Swiss;
    let knockout = t.knockout().is_some();
    let list = &t.settings().swiss.tiebreaks;
    let rows = st
        .rows
        .iter()
        .map(|r| {
            let mut row = vec![
                r.rank.to_string(),
                t.name(r.player).to_string(),
                points(r.halves),
                r.games.to_string(),
                r.wins.to_string(),
                r.draws.to_string(),
                r.losses.to_string(),
                format!("+{} -{}", r.forfeits_won, r.forfeits_lost),
            ];
            if swiss {
                row.extend(list.iter().zip(&r.tiebreaks).map(|(k, v)| k.text(*v)));
            } else {
                row.push(quarters(r.sb_quarters));
            }
            if knockout {
                row.push(r.tiebreak_games.to_string());
            }
            row
        })
        .collect();
    let mut header = columns(&[
        "Rank", "Player", "Points", "Games", "W", "D", "L", "Forfeits",
    ]);
    if swiss {
        header.extend(list.iter().map(|k| k.short().to_string()));
    } else {
        header.push("SB".into());
    }
    let mut lines = Vec::new();
    if knockout {
        header.push("TB".into());
        lines.push(
            "Points, games and W-D-L count each match's regular games; its tie-break games and \
             decisive game decide the match (see the bracket) and are counted apart (TB), not \
             as points."
                .to_string(),
        );
    }
    lines.extend(withdrawals(t));
    let mut right = vec![true, false, true, true, true, true, true, false];
    right.resize(header.len(), true);
    Section {
        title: "Standings",
        lines,
        table: Some(Table {
            header,
            right,
            rows,
        }),
    }
}

/// Who withdrew, and why: one line, when anybody did.
fn withdrawals(t: &Tournament) -> Vec<String> {
    let list: Vec<String> = t
        .withdrawals()
        .iter()
        .map(|(p, why)| {
            format!(
                "{} ({})",
                strip_control(t.name(*p)),
                crate::tournament::words::withdrawal_reason(why)
            )
        })
        .collect();
    if list.is_empty() {
        return Vec::new();
    }
    vec![format!(
        "Withdrawn, paired no more: {}; their rounds after are zero-point byes (Z).",
        list.join("; ")
    )]
}

/// A Swiss event's byes, round by round: who, which kind, what it is
/// worth (the games are in the Games section).
fn byes(t: &Tournament) -> Option<Section> {
    if t.settings().schedule.format != Format::Swiss || t.schedule().byes().is_empty() {
        return None;
    }
    let rows = t
        .schedule()
        .byes()
        .iter()
        .map(|b| {
            let kind = match b.kind {
                crate::tournament::ByeKind::Allocated => "pairing-allocated bye (U)",
                crate::tournament::ByeKind::Half => "bye asked for (H)",
                crate::tournament::ByeKind::Zero => "not paired (Z)",
                crate::tournament::ByeKind::Rest => "no game",
            };
            vec![
                b.round.to_string(),
                t.name(b.player).to_string(),
                kind.to_string(),
                points(b.kind.halves()),
            ]
        })
        .collect();
    Some(Section {
        title: "Byes",
        lines: Vec::new(),
        table: Some(Table {
            header: columns(&["Round", "Player", "Bye", "Points"]),
            right: vec![true, false, false, true],
            rows,
        }),
    })
}

fn columns(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn crosstable(t: &Tournament, st: &Standings) -> Section {
    let n = st.rows.len();
    let rows = st
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row = vec![(i + 1).to_string(), t.name(r.player).to_string()];
            for j in 0..n {
                row.push(if i == j {
                    "X".into()
                } else {
                    cell(&st.cells[i][j])
                });
            }
            row.push(points(r.halves));
            row
        })
        .collect();
    let mut header = columns(&["#", "Player"]);
    header.extend((1..=n).map(|j| j.to_string()));
    header.push("Points".into());
    let mut right = vec![true, false];
    right.extend(std::iter::repeat_n(false, n));
    right.push(true);
    Section {
        title: "Crosstable",
        lines: vec![
            "Rows and columns in ranking order; each cell is the row player's results \
             against the column player, game by game: 1 win, ½ draw, 0 loss, + won by \
             forfeit, - lost by forfeit, . not decided yet."
                .into(),
        ],
        table: Some(Table {
            header,
            right,
            rows,
        }),
    }
}

/// A crosstable cell: the row player's games against the column player,
/// one mark each (1 win, ½ draw, 0 loss, + won by forfeit, - lost by
/// forfeit, . not decided yet); empty when they do not meet. The report
/// and the web page show the same cells.
pub fn cell(marks: &[Mark]) -> String {
    marks.iter().map(|m| mark(*m)).collect()
}

fn mark(m: Mark) -> &'static str {
    match m {
        Mark::Win => "1",
        Mark::Draw => "½",
        Mark::Loss => "0",
        Mark::ForfeitWin => "+",
        Mark::ForfeitLoss | Mark::ForfeitBoth => "-",
        Mark::Pending => ".",
    }
}

fn games(t: &Tournament) -> Section {
    let rows = t
        .games()
        .map(|(g, s)| {
            let (result, how) = match s {
                // `how` says the outcome's own words where the board said none.
                GameState::Decided(o) => (
                    o.result_text().to_string(),
                    t.how(g.number).unwrap_or_default(),
                ),
                GameState::Playing(b) => ("*".into(), format!("in progress on {b}")),
                GameState::Pending => ("*".into(), "not played yet".into()),
            };
            let stage = t.knockout().and_then(|k| k.stage_of(g.number));
            let round = match stage {
                Some(st) if st != Stage::Regular => format!("{} {}", g.round_tag(), st.name()),
                _ => g.round_tag(),
            };
            vec![
                g.number.to_string(),
                round,
                t.name(g.white).to_string(),
                t.name(g.black).to_string(),
                result,
                how,
            ]
        })
        .collect();
    Section {
        title: "Games",
        lines: Vec::new(),
        table: Some(Table {
            header: columns(&["Game", "Round", "White", "Black", "Result", "How it ended"]),
            right: vec![true, false, false, false, false, false],
            rows,
        }),
    }
}

fn statistics(t: &Tournament, st: &Standings) -> Section {
    let opt = |v: Option<u64>, f: fn(u64) -> String| v.map_or("-".to_string(), f);
    let mut rows: Vec<_> = st.rows.iter().collect();
    rows.sort_by_key(|r| r.player);
    let rows = rows
        .into_iter()
        .map(|r| {
            let s = r.stats;
            vec![
                t.name(r.player).to_string(),
                s.moves.to_string(),
                opt(s.average_move_ms(), format_span),
                opt(s.average_left_ms(), format_span),
                opt(s.left_min_ms, format_span),
                s.faults.to_string(),
                s.restarts.to_string(),
                r.forfeits_lost.to_string(),
            ]
        })
        .collect();
    Section {
        title: "Player statistics",
        lines: vec![
            "From the games played over the board, players in seed order; time left is at \
             the end of timed games (- when none)."
                .into(),
        ],
        table: Some(Table {
            header: columns(&[
                "Player",
                "Moves",
                "Time/move",
                "Left (avg)",
                "Left (least)",
                "Faults",
                "Restarts",
                "Forfeits",
            ]),
            right: vec![false, true, true, true, true, true, true, true],
            rows,
        }),
    }
}
