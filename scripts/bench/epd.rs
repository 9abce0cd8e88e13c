//! EPD parse and write speed on a typical referee record (124 bytes).
//! Target: at least 2 million parse+write per second on one core.

use std::hint::black_box;

use argus::epd::Record;
use argus::epd::line_check::{self, Checked};

/// The same allocator as the `argus` binary (see src/main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const RECORD: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 cc 000:00:01:02 000:00:00:00; fmvn 1; hmvc 0; refcom respond; sm e4;";

fn bench(c: &mut Criterion) {
    let record = Record::parse(RECORD).expect("the bench record parses");
    let mut g = c.benchmark_group("epd");
    g.throughput(Throughput::Elements(1));
    g.bench_function("parse", |b| b.iter(|| Record::parse(black_box(RECORD))));
    g.bench_function("write", |b| {
        let mut buf = String::with_capacity(256);
        b.iter(|| {
            buf.clear();
            black_box(&record).write_into(&mut buf);
            buf.len()
        })
    });
    // The allocation floor: a parsed record owns ~21 heap strings and vecs.
    g.bench_function("clone", |b| b.iter(|| black_box(&record).clone()));
    g.bench_function("to_string", |b| b.iter(|| black_box(&record).to_string()));
    g.bench_function("parse+write", |b| {
        let mut buf = String::with_capacity(256);
        b.iter(|| {
            buf.clear();
            if let Ok(r) = Record::parse(black_box(RECORD)) {
                r.write_into(&mut buf);
            }
            buf.len()
        })
    });
    g.bench_function("to_canonical", |b| {
        b.iter(|| black_box(&record).to_canonical())
    });
    // The Acrc line check (epd::line_check) on the same record: what it
    // adds to every line a checking client sends or receives.
    let mut checked = RECORD.to_string();
    line_check::append(&mut checked);
    g.bench_function("line_check_append", |b| {
        let mut buf = String::with_capacity(256);
        b.iter(|| {
            buf.clear();
            buf.push_str(black_box(RECORD));
            line_check::append(&mut buf);
            buf.len()
        })
    });
    g.bench_function("line_check_verify", |b| {
        b.iter(|| matches!(line_check::verify(black_box(&checked)), Checked::Valid(_)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
