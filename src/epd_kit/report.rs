//! `argus epd report RESULT.epd...`: the spec's "Gastric" (section 3.3)
//! for files written by `argus epd solve` (or `analyse`): solved and
//! missed records, when they were solved (time, depth, nodes), nodes per
//! second, and for two or more files a comparison. Markdown for the
//! terminal, or a self-contained HTML page with an SVG chart (the
//! cumulative number solved against time).
//!
//! [`Suite::read`] reads a file; [`markdown`] and [`html`] render the
//! suites. Rendering is pure: no clock, no files.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::BufRead;

use super::annotate::{FAULT, MISSED, has_any, millis, number, old, solved_at};
use super::batch::resume_key;
use super::{EpdLines, KitError, Line};
use crate::epd::Record;

/// One record of a result file, as the report sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The record's `id`, or `line N`.
    pub name: String,
    /// Matches the same position in another file.
    pub key: String,
    /// `Some((depth, ms, nodes))` when solved, `None` when missed or not a
    /// test (see `tested`).
    pub solved: Option<(u64, u64, u64)>,
    /// The record had `ar_solved` or `ar_missed`.
    pub tested: bool,
    pub fault: bool,
    pub nodes: Option<u64>,
    pub ms: Option<u64>,
}

/// One result file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Suite {
    pub name: String,
    pub entries: Vec<Entry>,
    /// Lines that were not records.
    pub bad: u64,
}

impl Suite {
    /// Reads a result file named `name`.
    pub fn read(name: &str, input: &mut dyn BufRead) -> Result<Suite, KitError> {
        let mut suite = Suite {
            name: name.to_string(),
            ..Suite::default()
        };
        let mut lines = EpdLines::new(input);
        while let Some((line_no, line)) = lines
            .next_line()
            .map_err(|e| KitError::io(format!("reading {name}"), e))?
        {
            let Line::Text(t) = line else {
                suite.bad += 1;
                continue;
            };
            if t.iter().all(|&c| c == b' ' || c == b'\t') {
                continue;
            }
            let Ok(rec) = Record::parse_bytes(t) else {
                suite.bad += 1;
                continue;
            };
            let solved = solved_at(&rec);
            let name = rec
                .id()
                .ok()
                .flatten()
                .map_or_else(|| format!("line {line_no}"), crate::text::strip_control);
            suite.entries.push(Entry {
                name,
                key: resume_key(&rec),
                solved,
                tested: solved.is_some() || has_any(&rec, &[MISSED, old::MISSED]),
                fault: has_any(&rec, &[FAULT, old::FAULT]),
                nodes: number(&rec, "acn", 0),
                ms: millis(&rec),
            });
        }
        Ok(suite)
    }

    pub fn tested(&self) -> usize {
        self.entries.iter().filter(|e| e.tested).count()
    }

    pub fn solved(&self) -> usize {
        self.entries.iter().filter(|e| e.solved.is_some()).count()
    }

    pub fn missed(&self) -> Vec<&str> {
        self.entries
            .iter()
            .filter(|e| e.tested && e.solved.is_none())
            .map(|e| e.name.as_str())
            .collect()
    }

    pub fn faults(&self) -> usize {
        self.entries.iter().filter(|e| e.fault).count()
    }

    /// Nodes per second over the records with both `acn` and `ar_ms`.
    pub fn nodes_per_second(&self) -> Option<u64> {
        let (n, ms) = self
            .entries
            .iter()
            .filter_map(|e| Some((e.nodes?, e.ms?)))
            .fold((0u64, 0u64), |(n, ms), (a, b)| {
                (n.saturating_add(a), ms.saturating_add(b))
            });
        (ms > 0).then(|| n.saturating_mul(1000) / ms)
    }

    /// Milliseconds to solve, in increasing order.
    fn solve_times(&self) -> Vec<u64> {
        let mut t: Vec<u64> = self
            .entries
            .iter()
            .filter_map(|e| Some(e.solved?.1))
            .collect();
        t.sort_unstable();
        t
    }
}

/// Upper bounds of the time buckets, in milliseconds, with their labels.
const TIME_BUCKETS: [(u64, &str); 6] = [
    (10, "≤ 0.01 s"),
    (100, "≤ 0.1 s"),
    (1_000, "≤ 1 s"),
    (10_000, "≤ 10 s"),
    (60_000, "≤ 60 s"),
    (u64::MAX, "> 60 s"),
];

const DEPTH_BUCKETS: [(u64, &str); 5] = [
    (4, "1-4"),
    (8, "5-8"),
    (12, "9-12"),
    (16, "13-16"),
    (u64::MAX, "> 16"),
];

const NODE_BUCKETS: [(u64, &str); 5] = [
    (1_000, "≤ 1k"),
    (100_000, "≤ 100k"),
    (10_000_000, "≤ 10M"),
    (1_000_000_000, "≤ 1G"),
    (u64::MAX, "> 1G"),
];

fn histogram(values: impl Iterator<Item = u64>, buckets: &[(u64, &str)]) -> Vec<u64> {
    let mut counts = vec![0u64; buckets.len()];
    for v in values {
        if let Some(i) = buckets.iter().position(|(max, _)| v <= *max) {
            counts[i] += 1;
        }
    }
    counts
}

/// The distributions of one suite: (title, bucket labels, counts).
fn distributions(s: &Suite) -> Vec<(&'static str, Vec<&'static str>, Vec<u64>)> {
    let solved: Vec<(u64, u64, u64)> = s.entries.iter().filter_map(|e| e.solved).collect();
    let labels = |b: &[(u64, &'static str)]| b.iter().map(|(_, l)| *l).collect::<Vec<_>>();
    vec![
        (
            "Solved by time",
            labels(&TIME_BUCKETS),
            histogram(solved.iter().map(|x| x.1), &TIME_BUCKETS),
        ),
        (
            "Solved by depth",
            labels(&DEPTH_BUCKETS),
            histogram(solved.iter().map(|x| x.0), &DEPTH_BUCKETS),
        ),
        (
            "Solved by nodes",
            labels(&NODE_BUCKETS),
            histogram(solved.iter().map(|x| x.2), &NODE_BUCKETS),
        ),
    ]
}

/// Two suites side by side: names solved by `a` only, by `b` only, and
/// the geometric mean of b's time to solve over a's (records both solved).
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub only_a: Vec<String>,
    pub only_b: Vec<String>,
    pub both: usize,
    pub time_ratio: Option<f64>,
}

pub fn compare(a: &Suite, b: &Suite) -> Comparison {
    let mut in_b: HashMap<&str, Vec<&Entry>> = HashMap::new();
    for e in &b.entries {
        in_b.entry(e.key.as_str()).or_default().push(e);
    }
    let mut c = Comparison {
        only_a: Vec::new(),
        only_b: Vec::new(),
        both: 0,
        time_ratio: None,
    };
    let mut log_sum = 0.0;
    for ea in a.entries.iter().filter(|e| e.tested) {
        let Some(eb) = in_b
            .get_mut(ea.key.as_str())
            .and_then(|v| (!v.is_empty()).then(|| v.remove(0)))
        else {
            continue;
        };
        match (ea.solved, eb.solved) {
            (Some(x), Some(y)) => {
                c.both += 1;
                log_sum += ((y.1.max(1)) as f64 / (x.1.max(1)) as f64).ln();
            }
            (Some(_), None) => c.only_a.push(ea.name.clone()),
            (None, Some(_)) => c.only_b.push(ea.name.clone()),
            (None, None) => {}
        }
    }
    if c.both > 0 {
        c.time_ratio = Some((log_sum / c.both as f64).exp());
    }
    c
}

fn nps_text(s: &Suite) -> String {
    s.nodes_per_second()
        .map_or_else(|| "-".to_string(), |n| n.to_string())
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }
}

fn list(names: &[impl AsRef<str>]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names
            .iter()
            .map(AsRef::as_ref)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The report as Markdown.
pub fn markdown(suites: &[Suite]) -> String {
    let mut m = String::from("# EPD test-suite report\n\n");
    m.push_str("| file | records | tested | solved | missed | engine faults | nodes/s |\n");
    m.push_str("|---|---:|---:|---:|---:|---:|---:|\n");
    for s in suites {
        let _ = writeln!(
            m,
            "| {} | {} | {} | {} ({}) | {} | {} | {} |",
            s.name,
            s.entries.len(),
            s.tested(),
            s.solved(),
            percent(s.solved(), s.tested()),
            s.missed().len(),
            s.faults(),
            nps_text(s)
        );
    }
    for s in suites {
        let _ = write!(m, "\n## {}\n\n", s.name);
        let missed = s.missed();
        let _ = writeln!(m, "Missed ({}): {}\n", missed.len(), list(&missed));
        for (title, labels, counts) in distributions(s) {
            let _ = writeln!(m, "{title}:\n");
            let _ = writeln!(m, "| {} |", labels.join(" | "));
            let _ = writeln!(m, "|{}", "---:|".repeat(labels.len()));
            let cells: Vec<String> = counts.iter().map(u64::to_string).collect();
            let _ = writeln!(m, "| {} |\n", cells.join(" | "));
        }
    }
    for b in suites.iter().skip(1) {
        let a = &suites[0];
        let c = compare(a, b);
        let _ = write!(m, "\n## {} vs {}\n\n", a.name, b.name);
        let _ = writeln!(m, "- solved by both: {}", c.both);
        let _ = writeln!(
            m,
            "- solved by {} only ({}): {}",
            a.name,
            c.only_a.len(),
            list(&c.only_a)
        );
        let _ = writeln!(
            m,
            "- solved by {} only ({}): {}",
            b.name,
            c.only_b.len(),
            list(&c.only_b)
        );
        if let Some(r) = c.time_ratio {
            let _ = writeln!(
                m,
                "- time to solve, {} / {} (geometric mean over those solved by both): {r:.2}",
                b.name, a.name
            );
        }
    }
    m
}

/// Text for HTML: `&`, `<`, `>`, `"` escaped.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
];

/// The SVG chart: records solved (cumulative) against time to solve, on
/// a logarithmic time axis from 1 ms.
pub fn chart(suites: &[Suite]) -> String {
    let (w, h, left, right, top, bottom) = (760.0, 380.0, 60.0, 20.0, 20.0, 50.0);
    let max_ms = suites
        .iter()
        .flat_map(Suite::solve_times)
        .max()
        .unwrap_or(1000)
        .max(10) as f64;
    let decades = max_ms.log10().ceil().max(1.0);
    let max_n = suites.iter().map(Suite::tested).max().unwrap_or(1).max(1) as f64;
    let x = |ms: f64| left + (ms.max(1.0).log10() / decades) * (w - left - right);
    let y = |n: f64| h - bottom - n / max_n * (h - top - bottom);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"records solved against time\">\n"
    );
    let _ = writeln!(
        s,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{}\" height=\"{}\" fill=\"#fafafa\" stroke=\"#999\"/>",
        w - left - right,
        h - top - bottom
    );
    for d in 0..=decades as u32 {
        let ms = 10f64.powi(d as i32);
        let label = if ms < 1000.0 {
            format!("{ms} ms")
        } else {
            format!("{} s", ms / 1000.0)
        };
        let _ = writeln!(
            s,
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{top}\" y2=\"{1}\" stroke=\"#ddd\"/><text x=\"{0:.1}\" y=\"{2}\" font-size=\"12\" text-anchor=\"middle\">{label}</text>",
            x(ms),
            h - bottom,
            h - bottom + 18.0
        );
    }
    for i in 0..=4 {
        let n = max_n * f64::from(i) / 4.0;
        let _ = writeln!(
            s,
            "<line x1=\"{left}\" x2=\"{0}\" y1=\"{1:.1}\" y2=\"{1:.1}\" stroke=\"#ddd\"/><text x=\"{2}\" y=\"{3:.1}\" font-size=\"12\" text-anchor=\"end\">{4:.0}</text>",
            w - right,
            y(n),
            left - 6.0,
            y(n) + 4.0,
            n
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\">time to solve (log scale)</text>",
        (left + w - right) / 2.0,
        h - 8.0
    );
    let _ = writeln!(
        s,
        "<text x=\"14\" y=\"{0}\" font-size=\"13\" text-anchor=\"middle\" transform=\"rotate(-90 14 {0})\">records solved</text>",
        (top + h - bottom) / 2.0
    );
    for (i, suite) in suites.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let mut points = format!("{:.1},{:.1}", x(1.0), y(0.0));
        for (k, ms) in suite.solve_times().iter().enumerate() {
            let (px, py0, py1) = (x(*ms as f64), y(k as f64), y(k as f64 + 1.0));
            let _ = write!(points, " {px:.1},{py0:.1} {px:.1},{py1:.1}");
        }
        let _ = write!(
            points,
            " {:.1},{:.1}",
            x(10f64.powf(decades)),
            y(suite.solved() as f64)
        );
        let _ = writeln!(
            s,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{points}\"/>"
        );
        let ly = top + 16.0 + 18.0 * i as f64;
        let _ = writeln!(
            s,
            "<rect x=\"{0}\" y=\"{1}\" width=\"14\" height=\"4\" fill=\"{colour}\"/><text x=\"{2}\" y=\"{3}\" font-size=\"12\">{4}</text>",
            left + 10.0,
            ly - 4.0,
            left + 30.0,
            ly + 1.0,
            escape(&suite.name)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The report as a self-contained HTML page.
pub fn html(suites: &[Suite]) -> String {
    let mut p = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>EPD test-suite report</title>\n<style>\nbody{font-family:sans-serif;margin:2em;max-width:1000px;color:#222}\ntable{border-collapse:collapse;margin:.5em 0 1.2em}\nth,td{border:1px solid #ccc;padding:.3em .7em;text-align:right}\nth:first-child,td:first-child{text-align:left}\nth{background:#f0f0f0}\n.ids{font-family:monospace;font-size:90%}\n</style></head><body>\n<h1>EPD test-suite report</h1>\n",
    );
    p.push_str("<table><tr><th>file</th><th>records</th><th>tested</th><th>solved</th><th>missed</th><th>engine faults</th><th>nodes/s</th></tr>\n");
    for s in suites {
        let _ = writeln!(
            p,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{} ({})</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&s.name),
            s.entries.len(),
            s.tested(),
            s.solved(),
            percent(s.solved(), s.tested()),
            s.missed().len(),
            s.faults(),
            nps_text(s)
        );
    }
    p.push_str("</table>\n<h2>Solved against time</h2>\n");
    p.push_str(&chart(suites));
    for s in suites {
        let _ = writeln!(p, "<h2>{}</h2>", escape(&s.name));
        let missed = s.missed();
        let _ = writeln!(
            p,
            "<p>Missed ({}): <span class=\"ids\">{}</span></p>",
            missed.len(),
            escape(&list(&missed))
        );
        for (title, labels, counts) in distributions(s) {
            let _ = write!(p, "<table><tr><th>{title}</th>");
            for l in &labels {
                let _ = write!(p, "<th>{}</th>", escape(l));
            }
            p.push_str("</tr><tr><td>records</td>");
            for c in &counts {
                let _ = write!(p, "<td>{c}</td>");
            }
            p.push_str("</tr></table>\n");
        }
    }
    for b in suites.iter().skip(1) {
        let a = &suites[0];
        let c = compare(a, b);
        let _ = writeln!(p, "<h2>{} vs {}</h2><ul>", escape(&a.name), escape(&b.name));
        let _ = writeln!(p, "<li>solved by both: {}</li>", c.both);
        for (who, ids) in [(&a.name, &c.only_a), (&b.name, &c.only_b)] {
            let _ = writeln!(
                p,
                "<li>solved by {} only ({}): <span class=\"ids\">{}</span></li>",
                escape(who),
                ids.len(),
                escape(&list(ids))
            );
        }
        if let Some(r) = c.time_ratio {
            let _ = writeln!(
                p,
                "<li>time to solve, {} / {} (geometric mean over those solved by both): {r:.2}</li>",
                escape(&b.name),
                escape(&a.name)
            );
        }
        p.push_str("</ul>\n");
    }
    p.push_str("</body></html>\n");
    p
}

/// `argus epd report FILE... [--html OUT]`: Markdown on standard output,
/// the HTML page to `html`.
pub fn run_report(
    paths: &[std::path::PathBuf],
    html_out: Option<&std::path::Path>,
) -> crate::exit::Exit {
    let read = || -> Result<Vec<Suite>, KitError> {
        paths
            .iter()
            .map(|p| {
                let (name, mut input) = super::open_input(p)?;
                Suite::read(&name, &mut *input)
            })
            .collect()
    };
    let result = read().and_then(|suites| {
        let mut stdout = std::io::stdout().lock();
        std::io::Write::write_all(&mut stdout, markdown(&suites).as_bytes())
            .and_then(|()| std::io::Write::flush(&mut stdout))
            .map_err(|e| KitError::io("writing the report", e))?;
        if let Some(out) = html_out {
            let name = crate::text::strip_control(&out.display().to_string());
            std::fs::write(out, html(&suites))
                .map_err(|e| KitError::io(format!("writing {name}"), e))?;
            eprintln!("argus epd: wrote {name}");
        }
        Ok(())
    });
    result
        .map(|()| crate::exit::Completion::Normal)
        .map_err(crate::exit::Failure::usage)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    const P: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    const Q: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3";

    fn suite(name: &str, text: &str) -> Suite {
        Suite::read(name, &mut Cursor::new(text.to_string())).unwrap()
    }

    fn a() -> Suite {
        suite(
            "a.epd",
            &format!(
                "{P} id \"one\"; acn 1000; ar_ms 500; ar_solved 7 40 800;\n\
                 {Q} id \"two\"; acn 3000; ar_ms 500; ar_missed;\n\
                 {P} id \"three\"; ar_solved 20 20000 5000000000;\n\
                 not a record\n\
                 {Q} id \"<x>\"; ar_fault \"hung\";\n"
            ),
        )
    }

    /// (`a` is in the form argus wrote before: `ar_solved DEPTH MS NODES`;
    /// `b` in today's: `Ar_solved_depth` and its siblings.)
    fn b() -> Suite {
        suite(
            "b.epd",
            &format!(
                "{P} id \"one\"; Ar_solved_depth 5; Ar_solved_ms 160; Ar_solved_nodes 100;\n\
                 {Q} id \"two\"; Ar_solved_depth 5; Ar_solved_ms 10; Ar_solved_nodes 100; Ar_ms 20;\n\
                 {P} id \"three\"; Ar_missed;\n"
            ),
        )
    }

    #[test]
    fn a_suite_is_counted() {
        let s = a();
        assert_eq!((s.entries.len(), s.bad), (4, 1));
        assert_eq!((s.tested(), s.solved(), s.faults()), (3, 2, 1));
        assert_eq!(s.missed(), ["two"]);
        assert_eq!(s.nodes_per_second(), Some(4000));
        let d = distributions(&s);
        assert_eq!(d[0].2, [0, 1, 0, 0, 1, 0]);
        assert_eq!(d[1].2, [0, 1, 0, 0, 1]);
        assert_eq!(d[2].2, [1, 0, 0, 0, 1]);
    }

    #[test]
    fn two_suites_are_compared() {
        let c = compare(&a(), &b());
        assert_eq!(c.both, 1);
        assert_eq!(c.only_a, ["three"]);
        assert_eq!(c.only_b, ["two"]);
        assert!((c.time_ratio.unwrap() - 4.0).abs() < 1e-9);
    }

    #[test]
    fn markdown_has_the_table_the_missed_and_the_comparison() {
        let m = markdown(&[a(), b()]);
        assert!(
            m.contains("| a.epd | 4 | 3 | 2 (66.7%) | 1 | 1 | 4000 |"),
            "{m}"
        );
        assert!(m.contains("Missed (1): two"), "{m}");
        assert!(m.contains("| ≤ 0.01 s | ≤ 0.1 s |"), "{m}");
        assert!(m.contains("## a.epd vs b.epd"), "{m}");
        assert!(m.contains("- solved by b.epd only (1): two"), "{m}");
        assert!(
            m.contains("geometric mean over those solved by both): 4.00"),
            "{m}"
        );
    }

    #[test]
    fn html_is_escaped_and_has_a_chart_per_file() {
        let mut evil = b();
        evil.name = "<script>".into();
        let h = html(&[a(), evil]);
        assert!(!h.contains("<script>"), "{h}");
        assert!(h.contains("&lt;script&gt;"));
        assert_eq!(h.matches("<polyline").count(), 2);
        assert!(h.starts_with("<!DOCTYPE html>") && h.ends_with("</html>\n"));
        assert!(!h.contains("http://") || h.contains("xmlns=\"http://www.w3.org/2000/svg\""));
    }
}
