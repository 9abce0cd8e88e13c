//! The EPD Kit file verbs (spec section 7), behind `argus epd ...`:
//!
//! * **check** – parse every record and check its position; report each bad
//!   record as `FILE:LINE: reason` and end with `N records, M bad`.
//! * **normalize** (pfdn, spec 7.1) – write every good record in canonical
//!   form, same order; bad records are reported and left out.
//! * **purge** (pfop, spec 7.4) – copy every good record without one
//!   opcode; bad records are reported and left out.
//!
//! The engine verbs analyse (pfga), mate (pfms) and solve (pfts) are in
//! [`annotate`] (what a record gets), [`batch`] (the run through N
//! workers) and [`verbs`] (the engine worker and the files); the report
//! (the spec's Gastric) is in [`report`]. See docs/epd-kit.md.
//!
//! All verbs stream: one line in memory at a time, at most
//! [`MAX_LINE`] bytes of it (a longer line is reported and skipped
//! without being held), so memory stays constant on files of any size.
//! Blank lines are skipped silently; EPD has no comment lines. Lines may
//! end in LF, CR LF or CR.
//!
//! Chess legality is not this module's business: the caller passes a
//! [`PositionCheck`] (in the binary, the `game` module's legality check).
//!
//! The `*_stream` and `*_file(s)` functions are the library API (tests use
//! them); the `run_*` functions are what `main` calls: they print to
//! stdout/stderr and give how the verb ended ([`crate::exit::Exit`]: every
//! record good, some bad, or the verb could not run), which
//! [`crate::exit::status`] turns into the exit status.

pub mod annotate;
pub mod batch;
pub mod prove;
pub mod report;
pub mod verbs;

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::epd::parse::is_valid_opcode;
use crate::epd::{MAX_LINE, Record};
use crate::exit::{Completion, Exit, Failure};
use crate::record::lines;

/// Checks that a record's position is legal; `Err` says why not. The
/// kit calls it once per record that parsed.
pub type PositionCheck<'a> = &'a dyn Fn(&Record) -> Result<(), crate::game::RecordError>;

/// A stream whose first this many records are all bad is not an EPD file
/// (a binary file, a PGN file): reading it stops there, so that it does
/// not fill the report with one error per line.
pub const NOT_EPD_AFTER: u64 = 20;

/// The path that means standard input (for inputs) or standard output
/// (for outputs).
pub const STDIO: &str = "-";

/// What a verb saw: records read (blank lines not counted) and how many
/// of them were bad. Display gives `N records, M bad`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    /// Non-blank lines read.
    pub records: u64,
    /// Lines that did not parse, were too long, or failed the position check.
    pub bad: u64,
}

impl Summary {
    /// Normal when nothing was bad, else some bad (each reported, and
    /// left out of any output).
    pub fn completion(&self) -> Completion {
        Completion::bad_if(self.bad > 0)
    }

    fn add(&mut self, other: Summary) {
        self.records = self.records.saturating_add(other.records);
        self.bad = self.bad.saturating_add(other.bad);
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} records, {} bad", self.records, self.bad)
    }
}

/// A verb could not run: what was wrong, naming the file
/// (`opening games.epd`), and the underlying I/O error if there was one.
/// Bad records are not errors; they are counted in [`Summary`].
#[derive(Debug)]
pub struct KitError {
    /// What was being done or what was wrong, naming the file.
    pub message: String,
    /// The I/O error behind it, if any.
    pub source: Option<io::Error>,
}

impl KitError {
    fn io(context: impl Into<String>, source: io::Error) -> KitError {
        KitError {
            message: context.into(),
            source: Some(source),
        }
    }

    fn usage(message: impl Into<String>) -> KitError {
        KitError {
            message: message.into(),
            source: None,
        }
    }
}

impl fmt::Display for KitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.source {
            Some(e) => write!(f, "{}: {e}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for KitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_ref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// One line from [`EpdLines`].
enum Line<'a> {
    /// The line without its line end.
    Text(&'a [u8]),
    /// The line was longer than [`MAX_LINE`]; it was skipped. Its length
    /// in bytes (its line end not counted).
    TooLong(u64),
}

/// The lines of an EPD input, at most [`MAX_LINE`] bytes of each kept
/// (the project's one bounded line reader, [`lines::LineReader`]).
struct EpdLines<'r>(lines::LineReader<&'r mut dyn BufRead>);

impl<'r> EpdLines<'r> {
    fn new(inner: &'r mut dyn BufRead) -> EpdLines<'r> {
        EpdLines(lines::LineReader::new(inner, MAX_LINE))
    }

    /// The next line and its 1-based number, or `None` at end of input.
    fn next_line(&mut self) -> io::Result<Option<(u64, Line<'_>)>> {
        let Some(info) = self.0.next_bytes()? else {
            return Ok(None);
        };
        let line = if info.overlong {
            Line::TooLong(info.length)
        } else {
            Line::Text(self.0.bytes())
        };
        Ok(Some((info.number as u64, line)))
    }
}

/// The common loop of every verb: read records from `input` (named `name`
/// in reports), report bad ones to `report`, and hand good ones to `emit`.
fn process(
    name: &str,
    input: &mut dyn BufRead,
    check_position: PositionCheck<'_>,
    report: &mut dyn Write,
    mut emit: impl FnMut(Record) -> Result<(), KitError>,
) -> Result<Summary, KitError> {
    let mut summary = Summary::default();
    let mut lines = EpdLines::new(input);
    let reading = |e| KitError::io(format!("reading {name}"), e);
    let reporting = |e| KitError::io("writing the report", e);
    while let Some((line_no, line)) = lines.next_line().map_err(reading)? {
        let problem = match line {
            Line::Text(t) if t.iter().all(|&c| c == b' ' || c == b'\t') => continue,
            Line::TooLong(len) => {
                format!("line is {len} bytes long; the limit is {MAX_LINE}; skipped")
            }
            Line::Text(t) => match Record::parse_bytes(t) {
                Err(e) => e.to_string(),
                Ok(r) => match check_position(&r) {
                    Err(why) => crate::text::strip_control(&why.to_string()),
                    Ok(()) => {
                        summary.records = summary.records.saturating_add(1);
                        emit(r)?;
                        continue;
                    }
                },
            },
        };
        summary.records = summary.records.saturating_add(1);
        summary.bad = summary.bad.saturating_add(1);
        writeln!(report, "{name}:{line_no}: {problem}").map_err(reporting)?;
        if summary.bad == NOT_EPD_AFTER && summary.records == summary.bad {
            return Err(KitError::usage(format!(
                "{name} is not an EPD file (its first {NOT_EPD_AFTER} records are all bad); \
                 stopped reading it"
            )));
        }
    }
    Ok(summary)
}

/// `check` on one stream: reports each bad record as `NAME:LINE: reason`
/// to `report`. Does not print the summary line.
pub fn check_stream(
    name: &str,
    input: &mut dyn BufRead,
    check_position: PositionCheck<'_>,
    report: &mut dyn Write,
) -> Result<Summary, KitError> {
    process(name, input, check_position, report, |_| Ok(()))
}

/// `check` on files ([`STDIO`] is standard input): reports each bad record
/// as `FILE:LINE: reason`, then the summary line `N records, M bad`, to
/// `report`. Stops at the first file that cannot be read.
pub fn check_files(
    paths: &[PathBuf],
    check_position: PositionCheck<'_>,
    report: &mut dyn Write,
) -> Result<Summary, KitError> {
    let mut total = Summary::default();
    for path in paths {
        let (name, mut input) = open_input(path)?;
        total.add(check_stream(&name, &mut *input, check_position, report)?);
    }
    writeln!(report, "{total}").map_err(|e| KitError::io("writing the report", e))?;
    Ok(total)
}

/// `normalize` (pfdn) on one stream: writes each good record in canonical
/// form ([`Record::to_canonical`]) to `output`, one per line, same order;
/// bad records (unparsable or failing `check_position`) are reported as
/// `NAME:LINE: reason` to `report` and left out.
pub fn normalize_stream(
    name: &str,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    check_position: PositionCheck<'_>,
    report: &mut dyn Write,
) -> Result<Summary, KitError> {
    let mut buf = String::with_capacity(MAX_LINE + 1);
    let summary = process(name, input, check_position, report, |mut r| {
        r.normalize();
        write_record(&r, &mut buf, output)
    })?;
    output.flush().map_err(writing)?;
    Ok(summary)
}

/// `purge` (pfop) on one stream: writes each good record to `output` as
/// given (single blanks) without the operation `opcode`, if it had one;
/// bad (unparsable) records are reported as `NAME:LINE: reason` to `report`
/// and left out. Positions are not checked. An `opcode` that is not a
/// valid opcode is an error.
pub fn purge_stream(
    opcode: &str,
    name: &str,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    report: &mut dyn Write,
) -> Result<Summary, KitError> {
    check_opcode(opcode)?;
    let mut buf = String::with_capacity(MAX_LINE + 1);
    let summary = process(name, input, &|_| Ok(()), report, |mut r| {
        r.remove(opcode);
        write_record(&r, &mut buf, output)
    })?;
    output.flush().map_err(writing)?;
    Ok(summary)
}

/// [`normalize_stream`] from the file `input` to the file `output`
/// (standard output when `None` or [`STDIO`]). The output may not be the
/// input file.
pub fn normalize_file(
    input: &Path,
    output: Option<&Path>,
    check_position: PositionCheck<'_>,
    report: &mut dyn Write,
) -> Result<Summary, KitError> {
    let (name, mut reader) = open_input(input)?;
    with_output(input, output, |out| {
        normalize_stream(&name, &mut *reader, out, check_position, report)
    })
}

/// [`purge_stream`] from the file `input` to the file `output` (standard
/// output when `None` or [`STDIO`]). The output may not be the input file.
pub fn purge_file(
    opcode: &str,
    input: &Path,
    output: Option<&Path>,
    report: &mut dyn Write,
) -> Result<Summary, KitError> {
    check_opcode(opcode)?;
    let (name, mut reader) = open_input(input)?;
    with_output(input, output, |out| {
        purge_stream(opcode, &name, &mut *reader, out, report)
    })
}

/// `argus epd check FILE...`: reports and summary on stdout.
pub fn run_check(paths: &[PathBuf], check_position: PositionCheck<'_>) -> Exit {
    let stdout = io::stdout();
    let mut report = stdout.lock();
    finished(check_files(paths, check_position, &mut report))
}

/// `argus epd normalize IN [OUT]`: records to OUT (or stdout), reports on
/// stderr.
pub fn run_normalize(
    input: &Path,
    output: Option<&Path>,
    check_position: PositionCheck<'_>,
) -> Exit {
    let stderr = io::stderr();
    let mut report = stderr.lock();
    finished(normalize_file(input, output, check_position, &mut report))
}

/// `argus epd purge OPCODE IN [OUT]`: records to OUT (or stdout), reports
/// on stderr.
pub fn run_purge(opcode: &str, input: &Path, output: Option<&Path>) -> Exit {
    let stderr = io::stderr();
    let mut report = stderr.lock();
    finished(purge_file(opcode, input, output, &mut report))
}

/// How a file verb ended: a verb that could not run (unreadable input,
/// unwritable output, bad arguments) is a usage failure.
fn finished(result: Result<Summary, KitError>) -> Exit {
    result
        .map(|summary| summary.completion())
        .map_err(Failure::usage)
}

fn writing(e: io::Error) -> KitError {
    KitError::io("writing the output", e)
}

fn write_record(r: &Record, buf: &mut String, output: &mut dyn Write) -> Result<(), KitError> {
    buf.clear();
    r.write_into(buf);
    buf.push('\n');
    output.write_all(buf.as_bytes()).map_err(writing)
}

fn check_opcode(opcode: &str) -> Result<(), KitError> {
    if is_valid_opcode(opcode) {
        Ok(())
    } else {
        Err(KitError::usage(format!(
            "{:?} is not an opcode (a letter, then up to 14 letters, digits or '_')",
            crate::text::strip_control(opcode)
        )))
    }
}

/// Opens an input file (or stdin for [`STDIO`]), with its name for reports.
fn open_input(path: &Path) -> Result<(String, Box<dyn BufRead>), KitError> {
    let name = crate::text::strip_control(&path.display().to_string());
    if path == Path::new(STDIO) {
        return Ok(("<stdin>".to_string(), Box::new(io::stdin().lock())));
    }
    let file = File::open(path).map_err(|e| KitError::io(format!("opening {name}"), e))?;
    Ok((name, Box::new(BufReader::with_capacity(64 * 1024, file))))
}

/// Runs `f` with the output file (or stdout), refusing to overwrite the input.
fn with_output(
    input: &Path,
    output: Option<&Path>,
    f: impl FnOnce(&mut dyn Write) -> Result<Summary, KitError>,
) -> Result<Summary, KitError> {
    let Some(path) = output.filter(|p| *p != Path::new(STDIO)) else {
        let stdout = io::stdout();
        let mut out = BufWriter::new(stdout.lock());
        return f(&mut out);
    };
    let name = crate::text::strip_control(&path.display().to_string());
    if let (Ok(a), Ok(b)) = (input.canonicalize(), path.canonicalize())
        && a == b
    {
        return Err(KitError::usage(format!(
            "the output {name} is the input file; write to another file"
        )));
    }
    let file = File::create(path).map_err(|e| KitError::io(format!("creating {name}"), e))?;
    let mut out = BufWriter::new(file);
    let summary = f(&mut out)?;
    out.into_inner()
        .map_err(|e| e.into_error())
        .and_then(|file| file.sync_all())
        .map_err(|e| KitError::io(format!("writing {name}"), e))?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{PositionError, RecordError};
    use std::io::Cursor;

    const GOOD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

    fn accept(_: &Record) -> Result<(), RecordError> {
        Ok(())
    }

    /// A stand-in legality check: rejects positions without a white king.
    fn needs_white_king(r: &Record) -> Result<(), RecordError> {
        if r.fields.placement.contains('K') {
            Ok(())
        } else {
            Err(PositionError("illegal position: no white king".to_string()).into())
        }
    }

    fn write_file(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    fn text(b: Vec<u8>) -> String {
        String::from_utf8(b).unwrap()
    }

    #[test]
    fn check_reports_bad_records_with_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let a = write_file(
            &dir,
            "a.epd",
            &format!("{GOOD} bm e4;\n\n   \t\n{GOOD} bm e4\r\n8/8/8/8/8/8/8/k7 w - -\n"),
        );
        let b = write_file(&dir, "b.epd", &format!("{GOOD} id \"x\";\r\n"));
        let mut report = Vec::new();
        let s = check_files(&[a.clone(), b], &needs_white_king, &mut report).unwrap();
        assert_eq!(s, Summary { records: 4, bad: 2 });
        assert_eq!(s.completion(), Completion::SomeBad);
        let a = a.display();
        assert_eq!(
            text(report),
            format!(
                "{a}:4: column 59: operation \"bm\" not ended by ';'\n\
                 {a}:5: illegal position: no white king\n\
                 4 records, 2 bad\n"
            )
        );
    }

    #[test]
    fn a_file_whose_first_records_are_all_bad_is_not_an_epd_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut junk: Vec<u8> = (0..=255u8).cycle().take(200_000).collect();
        junk.extend_from_slice(format!("\n{GOOD}\n").as_bytes());
        let path = dir.path().join("argus.bin");
        std::fs::write(&path, &junk).unwrap();
        let mut report = Vec::new();
        let e = check_files(std::slice::from_ref(&path), &accept, &mut report).unwrap_err();
        assert!(e.message.contains("is not an EPD file"), "{e}");
        assert_eq!(text(report).lines().count() as u64, NOT_EPD_AFTER);
        // One good record among the first ones: every line is read.
        let mut lines = vec!["not epd"; NOT_EPD_AFTER as usize + 5];
        lines[3] = GOOD;
        let path = write_file(&dir, "mixed.epd", &lines.join("\n"));
        let s = check_files(&[path], &accept, &mut Vec::new()).unwrap();
        assert_eq!(s.bad, NOT_EPD_AFTER + 4);
    }

    #[test]
    fn check_of_good_files_exits_zero() {
        let dir = tempfile::tempdir().unwrap();
        let a = write_file(
            &dir,
            "a.epd",
            &format!("{GOOD}\n{GOOD} c0 \"no newline at end\";"),
        );
        let mut report = Vec::new();
        let s = check_files(&[a], &accept, &mut report).unwrap();
        assert_eq!(
            (s, s.completion()),
            (Summary { records: 2, bad: 0 }, Completion::Normal)
        );
        assert_eq!(text(report), "2 records, 0 bad\n");
    }

    #[test]
    fn a_missing_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.epd");
        let e = check_files(std::slice::from_ref(&missing), &accept, &mut Vec::new()).unwrap_err();
        assert_eq!(e.message, format!("opening {}", missing.display()));
        assert_eq!(e.source.map(|e| e.kind()), Some(io::ErrorKind::NotFound));
    }

    #[test]
    fn overlong_lines_are_skipped_and_the_next_line_survives() {
        let long = format!("{GOOD} c0 \"{}\";", "x".repeat(5000));
        let exact = format!("{GOOD}{} c0 \"\";", " ".repeat(MAX_LINE - GOOD.len() - 7));
        assert_eq!(exact.len(), MAX_LINE);
        let input = format!("{long}\n{exact}\r\n{exact} \n{GOOD} bm d4;\n");
        let mut out = Vec::new();
        let mut report = Vec::new();
        // A small buffer makes the reader see the long line in many pieces.
        let mut reader = BufReader::with_capacity(7, Cursor::new(input.clone()));
        let s = normalize_stream("in", &mut reader, &mut out, &accept, &mut report).unwrap();
        assert_eq!(s, Summary { records: 4, bad: 2 });
        assert_eq!(
            text(report),
            format!(
                "in:1: line is {} bytes long; the limit is 4096; skipped\n\
                 in:3: line is 4097 bytes long; the limit is 4096; skipped\n",
                long.len()
            )
        );
        assert_eq!(text(out), format!("{GOOD} c0 \"\";\n{GOOD} bm d4;\n"));
    }

    #[test]
    fn normalize_writes_canonical_records_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let input = write_file(
            &dir,
            "in.epd",
            &format!(
                "  {GOOD}  sm e4 ; bm  d4 c4;\n{GOOD} id \"x\"; id \"y\";\n8/8/8/8/8/8/8/k7 w - - bm a1;\n{GOOD} pv e4 d4; am Nf3 b3;\n"
            ),
        );
        let output = dir.path().join("out.epd");
        let mut report = Vec::new();
        let s = normalize_file(&input, Some(&output), &needs_white_king, &mut report).unwrap();
        assert_eq!(s, Summary { records: 4, bad: 2 });
        assert_eq!(
            std::fs::read_to_string(&output).unwrap(),
            format!("{GOOD} bm c4 d4; sm e4;\n{GOOD} am Nf3 b3; pv e4 d4;\n")
        );
        let r = text(report);
        assert!(
            r.contains("in.epd:2: column 62: duplicate opcode \"id\""),
            "{r}"
        );
        assert!(
            r.contains("in.epd:3: illegal position: no white king"),
            "{r}"
        );
    }

    #[test]
    fn normalize_refuses_to_overwrite_its_input() {
        let dir = tempfile::tempdir().unwrap();
        let input = write_file(&dir, "in.epd", &format!("{GOOD}\n"));
        let e = normalize_file(&input, Some(&input), &accept, &mut Vec::new()).unwrap_err();
        assert!(e.to_string().contains("is the input file"), "{e}");
        assert_eq!(
            std::fs::read_to_string(&input).unwrap(),
            format!("{GOOD}\n")
        );
    }

    #[test]
    fn purge_removes_one_opcode_and_keeps_the_rest_as_given() {
        let dir = tempfile::tempdir().unwrap();
        let input = write_file(
            &dir,
            "in.epd",
            &format!("{GOOD} sm e4; ce 12; bm d4 c4;\n{GOOD} bm e4;\nzz epd\n{GOOD}\n"),
        );
        let output = dir.path().join("out.epd");
        let mut report = Vec::new();
        let s = purge_file("ce", &input, Some(&output), &mut report).unwrap();
        assert_eq!(s, Summary { records: 4, bad: 1 });
        assert_eq!(s.completion(), Completion::SomeBad);
        assert_eq!(
            std::fs::read_to_string(&output).unwrap(),
            format!("{GOOD} sm e4; bm d4 c4;\n{GOOD} bm e4;\n{GOOD}\n")
        );
        assert!(text(report).starts_with(&format!("{}:3: column 1:", input.display())));
    }

    #[test]
    fn purge_rejects_a_bad_opcode() {
        let e = purge_stream(
            "1x",
            "in",
            &mut Cursor::new(""),
            &mut Vec::new(),
            &mut Vec::new(),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "\"1x\" is not an opcode (a letter, then up to 14 letters, digits or '_')"
        );
    }

    #[test]
    fn binary_garbage_is_reported_not_fatal() {
        let mut input: Vec<u8> = b"\xff\xfe\x00garbage\n".to_vec();
        input.extend_from_slice(format!("{GOOD}\n").as_bytes());
        let mut report = Vec::new();
        let s = check_stream("g", &mut Cursor::new(input), &accept, &mut report).unwrap();
        assert_eq!(s, Summary { records: 2, bad: 1 });
        assert_eq!(text(report), "g:1: column 1: non-ASCII byte 0xff\n");
    }

    #[test]
    fn position_check_messages_lose_control_characters() {
        let evil = |_: &Record| -> Result<(), RecordError> {
            Err(PositionError("bad\x1b[2J".to_string()).into())
        };
        let mut report = Vec::new();
        check_stream("e", &mut Cursor::new(GOOD), &evil, &mut report).unwrap();
        assert_eq!(text(report), "e:1: bad[2J\n");
    }
}
