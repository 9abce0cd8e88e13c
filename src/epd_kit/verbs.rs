//! `argus epd analyse | mate | solve`: the engine worker (one engine
//! process per worker, restarted after a fault) and the run around
//! [`batch::run`]: files, `--resume`, progress on standard error, the
//! summary and the exit code.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crossbeam_channel::Receiver;
use shakmaty::Chess;

use super::annotate::{
    MateFound, add_analysis, add_mate, add_solve, mark_fault, mark_unproven, no_moves_ce,
    wants_mate,
};
use super::batch::{self, Batch, BatchSummary, Done, Worker, bar, progress_text, resume_keys};
use super::prove::BUDGET;
use super::{KitError, STDIO, open_input};
use crate::client::engine::analysis::{Analysis, Search};
use crate::client::engine::{Driver, EngineSettings, Fault, Protocol, Trouble, start};
use crate::epd::Record;
use crate::exit::{Completion, Exit, Failure};

/// Which analysis verb.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    /// pfga.
    Analyse,
    /// pfms: mates in `moves`; with `upto`, passes 1..=moves.
    Mate { moves: u32, upto: bool },
    /// pfts.
    Solve,
}

/// One engine and what to do with it.
pub struct EngineWorker {
    settings: EngineSettings,
    driver: Option<Box<dyn Driver>>,
    verb: Verb,
    search: Search,
}

impl EngineWorker {
    pub fn new(settings: EngineSettings, verb: Verb, search: Search) -> EngineWorker {
        EngineWorker {
            settings,
            driver: None,
            verb,
            search,
        }
    }

    /// Searches with the engine, starting it first if needed; a fault
    /// stops it (the next search starts a new one).
    fn search(&mut self, pos: &Chess, search: &Search) -> Result<Analysis, Fault> {
        if self.driver.is_none() {
            self.driver = Some(start(&self.settings)?);
        }
        let wait = search.wait(self.settings.margin, self.settings.depth_wait);
        let Some(d) = self.driver.as_mut() else {
            return Err(Fault::bare(Trouble::NotRunning));
        };
        // Each position on its own: no hash or history from the last one.
        let r = d.new_game().and_then(|()| d.analyse(pos, search, wait));
        if r.is_err() {
            // Dropping the driver kills the process.
            self.driver = None;
        }
        r
    }

    /// pfms: `Ok(Some(found))`; a claimed mate that could not be proven
    /// in any pass marks the record (`Ar_unproven`) and is `unproven`.
    fn mate(
        &mut self,
        rec: &mut Record,
        pos: &Chess,
        moves: u32,
        upto: bool,
        unproven: &mut bool,
    ) -> Result<Option<bool>, Fault> {
        if !wants_mate(rec, moves) || no_moves_ce(pos).is_some() {
            return Ok(None);
        }
        let first = if upto { 1 } else { moves };
        let mut why = None;
        for k in first..=moves {
            if !wants_mate(rec, k) {
                continue;
            }
            let search = Search {
                mate: (self.settings.protocol == Protocol::Uci).then_some(k),
                ..self.search
            };
            let a = self.search(pos, &search)?;
            // A pass may find a longer mate than it asked for: any proven
            // mate within the longest sought counts.
            match add_mate(rec, pos, &a, moves, BUDGET) {
                MateFound::Proven(_) => return Ok(Some(true)),
                MateFound::Unproven(w) => why = Some(w),
                MateFound::None => {}
            }
        }
        if let Some(w) = why {
            ::log::warn!("{}: {w}", rec.id().ok().flatten().unwrap_or("a record"));
            mark_unproven(rec, &w);
            *unproven = true;
        }
        Ok(Some(false))
    }
}

impl Worker for EngineWorker {
    fn work(&mut self, mut record: Record, pos: &Chess) -> Done {
        let mut unproven = false;
        let outcome = match self.verb {
            Verb::Mate { moves, upto } => self.mate(&mut record, pos, moves, upto, &mut unproven),
            Verb::Analyse | Verb::Solve => {
                let a = if no_moves_ce(pos).is_some() {
                    Ok(None)
                } else {
                    let search = self.search;
                    self.search(pos, &search).map(Some)
                };
                a.map(|a| match self.verb {
                    Verb::Solve => add_solve(&mut record, pos, a.as_ref()),
                    _ => {
                        add_analysis(&mut record, pos, a.as_ref());
                        None
                    }
                })
            }
        };
        match outcome {
            Ok(solved) => Done {
                record,
                solved,
                fault: false,
                unproven,
            },
            Err(f) => {
                ::log::warn!("engine fault: {f}; restarting it for the next record");
                mark_fault(&mut record, &f.what.to_string());
                Done {
                    record,
                    solved: None,
                    fault: true,
                    unproven: false,
                }
            }
        }
    }
}

impl Drop for EngineWorker {
    fn drop(&mut self) {
        if let Some(d) = self.driver.take() {
            d.quit();
        }
    }
}

/// The files and flags of a run.
#[derive(Debug, Clone)]
pub struct RunFiles {
    pub input: PathBuf,
    /// `None` or [`STDIO`]: standard output.
    pub output: Option<PathBuf>,
    pub concurrency: usize,
    pub drop_bad: bool,
    pub resume: bool,
}

/// Runs a verb with `make_worker`'s workers; messages on standard error.
/// A run that could not start or go on is a usage failure (the docs'
/// exit status 2); an interrupted one says how to go on.
pub fn run_verb(
    files: &RunFiles,
    make_worker: &dyn Fn() -> Box<dyn Worker>,
    stop: Receiver<()>,
) -> Exit {
    run_verb_inner(files, make_worker, stop).map_err(Failure::usage)
}

fn run_verb_inner(
    files: &RunFiles,
    make_worker: &dyn Fn() -> Box<dyn Worker>,
    stop: Receiver<()>,
) -> Result<Completion, KitError> {
    let output = files.output.as_deref().filter(|p| *p != Path::new(STDIO));
    if files.resume && output.is_none() {
        return Err(KitError::usage("--resume needs an output file OUT"));
    }
    let total = count_records(&files.input);
    let (name, mut input) = open_input(&files.input)?;
    let (skip, mut out): (_, Box<dyn Write>) = match output {
        None => (
            Default::default(),
            Box::new(BufWriter::new(io::stdout().lock())),
        ),
        Some(path) => {
            let (skip, file) = open_output(&files.input, path, files.resume)?;
            (skip, Box::new(BufWriter::new(file)))
        }
    };
    let started = Instant::now();
    let mut shown = Progress::new(total, started);
    let stderr = io::stderr();
    let batch = Batch {
        name: &name,
        concurrency: files.concurrency,
        drop_bad: files.drop_bad,
        skip,
        stop,
    };
    let s = batch::run(
        batch,
        &mut *input,
        &mut *out,
        &mut stderr.lock(),
        make_worker,
        &mut |s| shown.show(s, false),
    )?;
    shown.show(&s, true);
    drop(out);
    let out_name = output.map_or_else(
        || "standard output".to_string(),
        |p| p.display().to_string(),
    );
    let out_name = crate::text::strip_control(&out_name);
    let mut solved = if s.judged > 0 {
        format!("{} solved, ", s.solved)
    } else {
        String::new()
    };
    if s.unproven > 0 {
        solved.push_str(&format!(
            "{} claimed mates unproven (marked Ar_unproven), ",
            s.unproven
        ));
    }
    eprintln!(
        "argus epd: {} records analysed ({solved}{} engine faults), {} bad, {} already done, in {:.1} s",
        s.analysed,
        s.faults,
        s.bad,
        s.resumed,
        started.elapsed().as_secs_f64()
    );
    if s.interrupted {
        eprintln!(
            "argus epd: interrupted: {} records are in {out_name}; run the same command with --resume to go on",
            s.written + s.resumed
        );
        return Ok(Completion::Interrupted);
    }
    Ok(Completion::bad_if(s.bad > 0 || s.faults > 0))
}

/// Non-blank lines of a file (for the progress total); `None` for
/// standard input or an unreadable file.
fn count_records(path: &Path) -> Option<u64> {
    if path == Path::new(STDIO) {
        return None;
    }
    let mut r = BufReader::new(File::open(path).ok()?);
    let mut n = 0u64;
    let mut line = Vec::new();
    loop {
        line.clear();
        match r.read_until(b'\n', &mut line) {
            Ok(0) => return Some(n),
            Ok(_) => n += u64::from(line.iter().any(|c| !c.is_ascii_whitespace())),
            Err(_) => return None,
        }
    }
}

/// Opens OUT: created (it must not hold records unless resuming), or,
/// with `resume`, read for its keys (a last line without its line end,
/// cut by an interruption, is removed) and opened to append.
fn open_output(
    input: &Path,
    path: &Path,
    resume: bool,
) -> Result<(std::collections::HashMap<String, u64>, File), KitError> {
    let name = crate::text::strip_control(&path.display().to_string());
    if let (Ok(a), Ok(b)) = (input.canonicalize(), path.canonicalize())
        && a == b
    {
        return Err(KitError::usage(format!(
            "the output {name} is the input file; write to another file"
        )));
    }
    let exists = path.metadata().is_ok_and(|m| m.len() > 0);
    if !resume {
        if exists {
            return Err(KitError::usage(format!(
                "{name} already holds records: --resume continues it; remove it to start again"
            )));
        }
        let f = File::create(path).map_err(|e| KitError::io(format!("creating {name}"), e))?;
        return Ok((Default::default(), f));
    }
    let mut f = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| KitError::io(format!("opening {name}"), e))?;
    let io_err = |e| KitError::io(format!("reading {name}"), e);
    let mut text = Vec::new();
    io::Read::read_to_end(&mut f, &mut text).map_err(io_err)?;
    if !text.is_empty() && text.last() != Some(&b'\n') {
        let keep = text.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
        f.set_len(keep as u64).map_err(io_err)?;
        text.truncate(keep);
        eprintln!("argus epd: {name}: its last line was cut short; removed (it is analysed again)");
    }
    f.seek(SeekFrom::End(0)).map_err(io_err)?;
    let keys = resume_keys(&mut &text[..])?;
    Ok((keys, f))
}

/// Progress on standard error: a bar redrawn in place on a terminal, a
/// plain line every few seconds otherwise.
struct Progress {
    total: Option<u64>,
    started: Instant,
    last: Option<Instant>,
    tty: bool,
}

/// Plain progress lines come this often at most.
const PLAIN_EVERY: Duration = Duration::from_secs(5);

impl Progress {
    fn new(total: Option<u64>, started: Instant) -> Progress {
        Progress {
            total,
            started,
            last: None,
            tty: io::stderr().is_terminal(),
        }
    }

    fn show(&mut self, s: &BatchSummary, last: bool) {
        let now = Instant::now();
        let every = if self.tty {
            Duration::from_millis(100)
        } else {
            PLAIN_EVERY
        };
        if !last && self.last.is_some_and(|t| now.duration_since(t) < every) {
            return;
        }
        self.last = Some(now);
        let text = progress_text(s, self.total, now.duration_since(self.started));
        if self.tty {
            let done = s.analysed + s.bad + s.resumed;
            let b = self.total.map(|t| bar(done, t, 30)).unwrap_or_default();
            eprint!("\r{b} {text}\x1b[K");
            if last {
                eprintln!();
            }
        } else {
            eprintln!("argus epd: {text}");
        }
    }
}
