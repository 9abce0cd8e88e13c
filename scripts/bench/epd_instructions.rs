//! Parses and writes one typical referee record N times, for counting
//! instructions with callgrind (a figure that does not depend on the
//! machine's load). `scripts/bench.sh` runs it twice under
//! `valgrind --tool=callgrind` with two counts and divides the difference.
//!
//! Run: `cargo bench --bench epd_instructions -- --count N` (prints a
//! checksum so that the work cannot be optimised away).

use std::hint::black_box;
use std::process::ExitCode;

use argus::epd::Record;

/// The record of `scripts/bench/epd.rs`: a `respond` as argus sends it.
const RECORD: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 cc 000:00:01:02 000:00:00:00; fmvn 1; hmvc 0; refcom respond; sm e4;";

fn main() -> ExitCode {
    let mut count: u64 = 1;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--count" {
            match args.next().map(|v| v.parse()) {
                Some(Ok(n)) => count = n,
                _ => {
                    eprintln!("epd_instructions: --count needs a number");
                    return ExitCode::from(2);
                }
            }
        }
    }
    let mut buf = String::with_capacity(256);
    let mut sum = 0usize;
    for _ in 0..count {
        buf.clear();
        if let Ok(r) = Record::parse(black_box(RECORD)) {
            r.write_into(&mut buf);
        }
        sum = sum.wrapping_add(black_box(&buf).len());
    }
    println!("epd_instructions: {count} parse+write, checksum {sum}");
    ExitCode::SUCCESS
}
