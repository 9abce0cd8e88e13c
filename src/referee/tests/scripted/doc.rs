//! The transcripts in `docs/protocol.md`, produced by the core now. Each
//! block there sits between `<!-- transcript:NAME -->` and `<!-- end -->`
//! in a fenced `text` block; the test fails if any differs from what the
//! scenario of that name gives, so the document cannot drift.
//!
//! After a deliberate change to the protocol, regenerate the blocks with
//! `ARGUS_UPDATE_DOCS=1 cargo test --lib referee::tests::scripted::doc`
//! and review the diff.

use super::harness::*;
use crate::referee::{IllegalMove, Settings};

/// Both sign on with a `tcsi` name; the reset delay passes. Returns the
/// time the game began.
fn start(h: &mut Harness) -> u64 {
    h.sign_on(A, 0, Some("Alpha"));
    h.sign_on(B, 250, Some("Beta"));
    h.timer()
}

fn fools_mate() -> String {
    let mut h = Harness::new(timed("40/7200"));
    let t = start(&mut h);
    h.play(t, 1_500, &["f3", "e5", "g4", "Qh4"]);
    h.timer(); // conclude delay over: the match (one game) is over
    h.transcript()
}

fn draw_offer_accepted() -> String {
    let mut h = Harness::new(settings());
    let t = start(&mut h);
    h.reply_with(A, t + 2_000, Some("e4"), "draw_offer;");
    h.reply_with(B, t + 3_000, None, "draw_accept;");
    h.transcript()
}

fn claim() -> String {
    let mut h = Harness::new(settings());
    let t = start(&mut h);
    let t = h.play(t, 1_000, &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]);
    h.reply_with(B, t + 1_000, Some("Ng8"), "draw_claim;");
    h.transcript()
}

fn resignation() -> String {
    let mut h = Harness::new(settings());
    let t = start(&mut h);
    let t = h.play(t, 1_000, &["e4", "e5", "Qh5"]);
    h.reply_with(B, t + 1_000, None, "resign;");
    h.transcript()
}

fn illegal_move() -> String {
    let mut h = Harness::new(settings());
    let t = start(&mut h);
    let t = h.play(t, 1_000, &["e4"]);
    h.reply(B, t + 1_000, "O-O");
    h.transcript()
}

fn illegal_move_retry() -> String {
    let mut h = Harness::new(Settings {
        illegal_move: IllegalMove::Retry,
        ..settings()
    });
    let t = start(&mut h);
    let t = h.play(t, 1_000, &["e4"]);
    h.reply(B, t + 1_000, "e%");
    h.reply(B, t + 2_000, "e5");
    h.transcript()
}

fn bad_echo() -> String {
    let mut h = Harness::new(settings());
    let t = start(&mut h);
    let t = h.play(t, 1_000, &["e4"]);
    // B did not play e4 on its board: it echoes the initial position.
    h.line(B, t + 1_000, &format!("{INITIAL} refreq reply; sm e5;"));
    h.reply(B, t + 2_000, "e5");
    h.transcript()
}

fn restart() -> String {
    let mut h = Harness::new(settings());
    let t = start(&mut h);
    let t = h.play(t, 1_000, &["e4", "e5", "Nf3"]);
    // B restarts while it is on move and signs on again.
    h.sign_on(B, t + 1_000, Some("Beta"));
    let t = h.timer();
    h.reply(B, t + 1_000, "Nc6");
    h.transcript()
}

/// Every transcript block of `docs/protocol.md`, by name.
fn scenarios() -> Vec<(&'static str, String)> {
    vec![
        ("fools-mate", fools_mate()),
        ("draw-offer", draw_offer_accepted()),
        ("claim", claim()),
        ("resign", resignation()),
        ("illegal-move", illegal_move()),
        ("illegal-move-retry", illegal_move_retry()),
        ("bad-echo", bad_echo()),
        ("restart", restart()),
    ]
}

const END: &str = "<!-- end -->";
const FENCE_OPEN: &str = "```text\n";
const FENCE_CLOSE: &str = "```\n";

fn marker(name: &str) -> String {
    format!("<!-- transcript:{name} -->\n")
}

/// The byte range of the text inside the fences of block `name`.
fn block(doc: &str, name: &str) -> Option<std::ops::Range<usize>> {
    let m = marker(name);
    let at = doc.find(&m)? + m.len();
    let rest = &doc[at..];
    let body = rest.strip_prefix(FENCE_OPEN)?;
    let start = at + FENCE_OPEN.len();
    let end_rel = body.find(END)?;
    let inner = &body[..end_rel];
    let inner = inner.strip_suffix(FENCE_CLOSE)?;
    Some(start..start + inner.len())
}

#[test]
fn protocol_doc_transcripts_match_the_core() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/protocol.md");
    let mut doc = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let update = std::env::var_os("ARGUS_UPDATE_DOCS").is_some();
    let mut stale = Vec::new();
    for (name, text) in scenarios() {
        let Some(range) = block(&doc, name) else {
            panic!(
                "docs/protocol.md has no block {name:?}: want {:?}, a ```text fence, the \
                 transcript, a closing fence, then {END:?}",
                marker(name)
            );
        };
        if doc[range.clone()] != text {
            if update {
                doc.replace_range(range, &text);
            } else {
                stale.push(format!("--- {name}: the core now gives:\n{text}"));
            }
        }
    }
    if update {
        std::fs::write(&path, &doc)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
    assert!(
        stale.is_empty(),
        "docs/protocol.md is out of date (ARGUS_UPDATE_DOCS=1 rewrites it):\n{}",
        stale.join("\n")
    );
}

#[test]
fn every_transcript_block_in_the_doc_is_checked() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/protocol.md");
    let doc = std::fs::read_to_string(&path).expect("docs/protocol.md");
    let names: Vec<&str> = scenarios().iter().map(|(n, _)| *n).collect();
    for (i, _) in doc.match_indices("<!-- transcript:") {
        let rest = &doc[i + "<!-- transcript:".len()..];
        let name = rest.split(" -->").next().unwrap_or_default();
        assert!(names.contains(&name), "block {name:?} has no scenario");
    }
}
