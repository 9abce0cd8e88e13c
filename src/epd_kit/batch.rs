//! Running an analysis verb over a file: records go to `concurrency`
//! workers (one engine each) and come back in input order, streamed to
//! the output as soon as every record before them is done.
//!
//! * A record that does not parse, or whose position is illegal, is
//!   reported as `NAME:LINE: reason` and copied unchanged (or left out
//!   with `drop_bad`); a line over [`MAX_LINE`] bytes is reported and
//!   skipped.
//! * `resume`: the records already in the output are skipped (matched by
//!   their four fields and `id`, or their text for bad lines).
//! * A stop request (Ctrl-C) ends the run: what is written stays written,
//!   records in flight are dropped, and the caller says how to go on.
//! * Progress goes to a callback after each record.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, TrySendError, bounded, select, unbounded};
use shakmaty::Chess;

use super::{EpdLines, KitError, Line, writing};
use crate::clock::format_hms;
use crate::epd::{MAX_LINE, Record};
use crate::game;

/// A worker's verdict on one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Done {
    /// The output record.
    pub record: Record,
    /// Solved (pfts), mate found (pfms); `None` when not applicable.
    pub solved: Option<bool>,
    /// The engine failed on it (the record is marked).
    pub fault: bool,
    /// The engine claimed a mate argus could not prove (the record is
    /// marked `Ar_unproven`).
    pub unproven: bool,
}

/// Analyses one record at a time; owns its engine.
pub trait Worker: Send {
    fn work(&mut self, record: Record, position: &Chess) -> Done;
}

/// How the run went.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BatchSummary {
    /// Non-blank input lines.
    pub records: u64,
    /// Bad lines (reported; copied or left out).
    pub bad: u64,
    /// Records skipped because the output had them (`resume`).
    pub resumed: u64,
    /// Records analysed and written.
    pub analysed: u64,
    /// Records the verb judged solved or missed (`solve`, `mate`; `analyse`
    /// judges none), and of those the solved ones.
    pub judged: u64,
    pub solved: u64,
    pub faults: u64,
    /// Mates the engine claimed that argus could not prove (pfms).
    pub unproven: u64,
    /// Output records written (analysed and copied bad ones).
    pub written: u64,
    /// A stop request ended the run early.
    pub interrupted: bool,
}

/// The match key of a record for `resume`.
pub fn resume_key(rec: &Record) -> String {
    let f = &rec.fields;
    let id = rec.id().ok().flatten().unwrap_or("");
    format!(
        "{} {} {} {} {id}",
        f.placement, f.side, f.castling, f.en_passant
    )
}

/// The keys of the records in an existing output (a multiset: a record
/// that appears twice in the input is skipped twice at most).
pub fn resume_keys(output: &mut dyn BufRead) -> Result<HashMap<String, u64>, KitError> {
    let mut keys: HashMap<String, u64> = HashMap::new();
    let mut lines = EpdLines::new(output);
    while let Some((_, line)) = lines
        .next_line()
        .map_err(|e| KitError::io("reading the output to resume", e))?
    {
        if let Line::Text(t) = line
            && let Some(k) = key_of_line(t)
        {
            *keys.entry(k).or_default() += 1;
        }
    }
    Ok(keys)
}

fn key_of_line(t: &[u8]) -> Option<String> {
    if t.iter().all(|&c| c == b' ' || c == b'\t') {
        return None;
    }
    Some(match Record::parse_bytes(t) {
        Ok(r) => resume_key(&r),
        Err(_) => String::from_utf8_lossy(t).trim().to_string(),
    })
}

/// Options of a run.
pub struct Batch<'a> {
    /// The input's name in reports.
    pub name: &'a str,
    pub concurrency: usize,
    /// Leave bad records out instead of copying them.
    pub drop_bad: bool,
    /// Records to skip (from [`resume_keys`]).
    pub skip: HashMap<String, u64>,
    /// Fires when the run is to stop.
    pub stop: Receiver<()>,
}

enum Item {
    Copy(String),
    Job(Box<(Record, Chess)>),
}

/// Runs the verb: reads `input`, writes `output`, reports bad records to
/// `report`, calls `progress` after each record done. `make_worker` is
/// called once per worker thread.
pub fn run(
    batch: Batch<'_>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    report: &mut dyn Write,
    make_worker: &dyn Fn() -> Box<dyn Worker>,
    progress: &mut dyn FnMut(&BatchSummary),
) -> Result<BatchSummary, KitError> {
    let Batch {
        name,
        concurrency,
        drop_bad,
        mut skip,
        stop,
    } = batch;
    let concurrency = concurrency.max(1);
    let (job_tx, job_rx) = bounded::<(u64, Record, Chess)>(concurrency);
    let (done_tx, done_rx) = unbounded::<(u64, Done)>();
    let halt = Arc::new(AtomicBool::new(false));
    let mut handles = Vec::new();
    for i in 0..concurrency {
        let job_rx = job_rx.clone();
        let done_tx = done_tx.clone();
        let halt = Arc::clone(&halt);
        let mut worker = make_worker();
        let h = thread::Builder::new()
            .name(format!("analysis-{i}"))
            .spawn(move || {
                while let Ok((idx, rec, pos)) = job_rx.recv() {
                    if halt.load(Ordering::Relaxed) {
                        break;
                    }
                    if done_tx.send((idx, worker.work(rec, &pos))).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| KitError::io("starting a worker thread", e))?;
        handles.push(h);
    }
    drop(job_rx);
    drop(done_tx);

    let mut s = BatchSummary::default();
    let mut out = Ordered::default();
    let mut lines = EpdLines::new(input);
    let mut next_index = 0u64;
    let reporting = |e| KitError::io("writing the report", e);
    let mut buf = String::with_capacity(MAX_LINE + 1);
    'input: while let Some((line_no, line)) = lines
        .next_line()
        .map_err(|e| KitError::io(format!("reading {name}"), e))?
    {
        let item = match line {
            Line::Text(t) if t.iter().all(|&c| c == b' ' || c == b'\t') => continue,
            Line::TooLong(len) => {
                s.records += 1;
                s.bad += 1;
                writeln!(
                    report,
                    "{name}:{line_no}: line is {len} bytes long; the limit is {MAX_LINE}; skipped"
                )
                .map_err(reporting)?;
                continue;
            }
            Line::Text(t) => {
                s.records += 1;
                if let Some(k) = key_of_line(t)
                    && let Some(n) = skip.get_mut(&k)
                    && *n > 0
                {
                    *n -= 1;
                    s.resumed += 1;
                    continue;
                }
                let parsed = Record::parse_bytes(t)
                    .map_err(|e| e.to_string())
                    .and_then(|r| {
                        game::position_of_record(&r)
                            .map(|p| (r, p))
                            .map_err(|e| crate::text::strip_control(&e.to_string()))
                    });
                match parsed {
                    Ok(job) => Item::Job(Box::new(job)),
                    Err(why) => {
                        s.bad += 1;
                        let what = if drop_bad {
                            "left out"
                        } else {
                            "copied unchanged"
                        };
                        writeln!(report, "{name}:{line_no}: {why}; {what}").map_err(reporting)?;
                        if drop_bad {
                            continue;
                        }
                        Item::Copy(String::from_utf8_lossy(t).into_owned())
                    }
                }
            }
        };
        let idx = next_index;
        next_index += 1;
        match item {
            Item::Copy(text) => {
                out.pending.insert(idx, text);
                out.flush(output, &mut s)?;
            }
            Item::Job(job) => {
                let (r, p) = *job;
                if stop.try_recv().is_ok() {
                    s.interrupted = true;
                    break 'input;
                }
                let mut job = (idx, r, p);
                loop {
                    match job_tx.try_send(job) {
                        Ok(()) => break,
                        Err(TrySendError::Full(j)) => job = j,
                        Err(TrySendError::Disconnected(_)) => {
                            return Err(KitError::usage("every analysis worker stopped"));
                        }
                    }
                    select! {
                        recv(done_rx) -> d => if let Ok((i, d)) = d {
                            out.take(i, d, &mut buf, &mut s);
                            out.flush(output, &mut s)?;
                            progress(&s);
                        },
                        recv(stop) -> _ => {
                            s.interrupted = true;
                            break 'input;
                        },
                        default(Duration::from_millis(200)) => {}
                    }
                }
            }
        }
    }
    drop(job_tx);
    if s.interrupted {
        halt.store(true, Ordering::Relaxed);
    }
    while !s.interrupted && out.next < next_index {
        select! {
            recv(done_rx) -> d => match d {
                Ok((i, d)) => {
                    out.take(i, d, &mut buf, &mut s);
                    out.flush(output, &mut s)?;
                    progress(&s);
                }
                Err(_) => return Err(KitError::usage("an analysis worker died")),
            },
            recv(stop) -> _ => {
                s.interrupted = true;
                halt.store(true, Ordering::Relaxed);
            },
        }
    }
    output.flush().map_err(writing)?;
    if !s.interrupted {
        for h in handles {
            let _ = h.join();
        }
    }
    Ok(s)
}

/// Output lines waiting for the ones before them.
#[derive(Default)]
struct Ordered {
    pending: BTreeMap<u64, String>,
    next: u64,
}

impl Ordered {
    fn take(&mut self, idx: u64, d: Done, buf: &mut String, s: &mut BatchSummary) {
        s.analysed += 1;
        s.judged += u64::from(d.solved.is_some());
        s.solved += u64::from(d.solved == Some(true));
        s.faults += u64::from(d.fault);
        s.unproven += u64::from(d.unproven);
        buf.clear();
        d.record.write_into(buf);
        self.pending.insert(idx, buf.clone());
    }

    fn flush(&mut self, output: &mut dyn Write, s: &mut BatchSummary) -> Result<(), KitError> {
        let mut any = false;
        while let Some(text) = self.pending.remove(&self.next) {
            output.write_all(text.as_bytes()).map_err(writing)?;
            output.write_all(b"\n").map_err(writing)?;
            self.next += 1;
            s.written += 1;
            any = true;
        }
        if any {
            output.flush().map_err(writing)?;
        }
        Ok(())
    }
}

/// The progress line: `12/100 records, 7 solved, 3.2 positions/s, ETA 28 s`
/// (`total` when known, `rate` in records per second; "solved" only for a
/// verb that judges its records).
pub fn progress_text(s: &BatchSummary, total: Option<u64>, elapsed: Duration) -> String {
    let done = s.analysed + s.bad + s.resumed;
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        s.analysed as f64 / secs
    } else {
        0.0
    };
    let mut t = match total {
        Some(n) => format!("{done}/{n} records"),
        None => format!("{done} records"),
    };
    if s.judged > 0 {
        t.push_str(&format!(", {} solved", s.solved));
    }
    if s.unproven > 0 {
        t.push_str(&format!(", {} mates unproven", s.unproven));
    }
    t.push_str(&format!(", {rate:.1} positions/s"));
    if s.faults > 0 {
        t.push_str(&format!(", {} engine faults", s.faults));
    }
    if let Some(n) = total
        && rate > 0.0
    {
        let left = n.saturating_sub(done) as f64 / rate;
        t.push_str(&format!(", ETA {}", duration_text(left)));
    }
    t
}

fn duration_text(secs: f64) -> String {
    let s = secs.round() as u64;
    if s < 60 {
        format!("{s} s")
    } else if s < 3600 {
        format!("{}:{:02} min", s / 60, s % 60)
    } else {
        format!("{} h", format_hms(s.saturating_mul(1000)))
    }
}

/// A progress bar of `width` cells for `done` of `total`.
pub fn bar(done: u64, total: u64, width: usize) -> String {
    let filled = if total == 0 {
        width
    } else {
        (done.min(total) as usize * width) / total as usize
    };
    format!("[{}{}]", "#".repeat(filled), ".".repeat(width - filled))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epd::Operation;
    use std::io::Cursor;

    const GOOD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

    /// Adds `n N` (its position in a call sequence) and `w ID` per worker;
    /// records with id "crash" come back as faults.
    struct Fake(u64);

    impl Worker for Fake {
        fn work(&mut self, mut record: Record, _: &Chess) -> Done {
            self.0 += 1;
            let fault = record.id().ok().flatten() == Some("crash");
            record.set(Operation::new("acn").token(self.0.to_string()));
            Done {
                record,
                solved: Some(!fault),
                fault,
                unproven: false,
            }
        }
    }

    fn batch(concurrency: usize, skip: HashMap<String, u64>, drop_bad: bool) -> Batch<'static> {
        Batch {
            name: "in",
            concurrency,
            drop_bad,
            skip,
            stop: crossbeam_channel::never(),
        }
    }

    fn go(b: Batch<'_>, input: &str) -> (BatchSummary, String, String, usize) {
        let mut out = Vec::new();
        let mut report = Vec::new();
        let mut calls = 0;
        let s = run(
            b,
            &mut Cursor::new(input.to_string()),
            &mut out,
            &mut report,
            &|| Box::new(Fake(0)),
            &mut |_| calls += 1,
        )
        .unwrap();
        (
            s,
            String::from_utf8(out).unwrap(),
            String::from_utf8(report).unwrap(),
            calls,
        )
    }

    #[test]
    fn order_is_kept_and_bad_records_are_copied_or_dropped() {
        let mut input = String::new();
        for i in 0..40 {
            input.push_str(&format!("{GOOD} id \"r{i}\";\n"));
            if i == 7 {
                input.push_str("not a record\n\n");
                input.push_str("8/8/8/8/8/8/8/k7 w - - id \"nok\";\n");
            }
        }
        let (s, out, report, calls) = go(batch(3, HashMap::new(), false), &input);
        assert_eq!((s.records, s.bad, s.analysed, s.written), (42, 2, 40, 42));
        assert_eq!(calls, 40);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[8], "not a record");
        assert_eq!(lines[9], "8/8/8/8/8/8/8/k7 w - - id \"nok\";");
        let ids: Vec<String> = lines
            .iter()
            .filter_map(|l| Record::parse(l).ok())
            .filter_map(|r| r.id().ok().flatten().map(str::to_owned))
            .collect();
        let want: Vec<String> = (0..40)
            .map(|i| format!("r{i}"))
            .chain(["nok".to_string()])
            .collect();
        let mut sorted_ids = ids.clone();
        sorted_ids.retain(|i| i != "nok");
        assert_eq!(sorted_ids, want[..40]);
        assert!(report.starts_with("in:9: column 2:"), "{report}");
        assert!(report.contains("in:11: illegal position"), "{report}");
        assert!(report.contains("copied unchanged"), "{report}");

        let (s, out, report, _) = go(batch(2, HashMap::new(), true), &input);
        assert_eq!((s.bad, s.written), (2, 40));
        assert!(!out.contains("not a record"));
        assert!(report.contains("left out"));
    }

    #[test]
    fn resume_skips_what_the_output_has() {
        let input = format!("{GOOD} id \"a\";\n{GOOD} id \"b\";\nbad line\n{GOOD} id \"c\";\n");
        let done = format!("{GOOD} acn 1; id \"a\";\nbad line\n");
        let keys = resume_keys(&mut Cursor::new(done)).unwrap();
        let (s, out, _, _) = go(batch(1, keys, false), &input);
        assert_eq!((s.resumed, s.analysed, s.written), (2, 2, 2));
        assert_eq!(
            out,
            format!("{GOOD} id \"b\"; acn 1;\n{GOOD} id \"c\"; acn 2;\n")
        );
    }

    #[test]
    fn faults_are_counted_and_the_run_goes_on() {
        let input = format!("{GOOD} id \"crash\";\n{GOOD} id \"x\";\n");
        let (s, out, _, _) = go(batch(1, HashMap::new(), false), &input);
        assert_eq!((s.faults, s.solved, s.written), (1, 1, 2));
        assert_eq!(out.lines().count(), 2);
    }

    #[test]
    fn a_stop_request_ends_the_run_with_what_is_written() {
        let (tx, rx) = unbounded();
        tx.send(()).unwrap();
        let mut input = String::new();
        for i in 0..50 {
            input.push_str(&format!("{GOOD} id \"r{i}\";\n"));
        }
        let mut b = batch(1, HashMap::new(), false);
        b.stop = rx;
        let (s, out, _, _) = go(b, &input);
        assert!(s.interrupted);
        assert_eq!((s.written, out.as_str()), (0, ""));
    }

    #[test]
    fn progress_lines_and_bars() {
        let mut s = BatchSummary {
            analysed: 10,
            judged: 10,
            solved: 7,
            bad: 2,
            ..BatchSummary::default()
        };
        assert_eq!(
            progress_text(&s, Some(100), Duration::from_secs(5)),
            "12/100 records, 7 solved, 2.0 positions/s, ETA 44 s"
        );
        assert_eq!(
            progress_text(&s, None, Duration::ZERO),
            "12 records, 7 solved, 0.0 positions/s"
        );
        // `analyse` judges nothing: no "0 solved".
        (s.judged, s.solved) = (0, 0);
        assert_eq!(
            progress_text(&s, None, Duration::ZERO),
            "12 records, 0.0 positions/s"
        );
        assert_eq!(bar(5, 10, 4), "[##..]");
        assert_eq!(bar(0, 0, 3), "[###]");
        assert_eq!(duration_text(3725.0), "1:02:05 h");
    }
}
