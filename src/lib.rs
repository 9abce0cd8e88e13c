//! argus: a referee for computer chess played across serial cables.
//!
//! The crate is laid out by concern (see `docs/architecture.md`):
//!
//! * [`epd`]: EPD records (parse, write, normalise), no chess knowledge.
//! * [`game`]: position and history on top of `shakmaty`; SAN; draw rules.
//! * [`clock`]: PGN TimeControl, per-side clocks, clock formats. No I/O.
//! * [`referee`]: the sans-IO referee core: protocol, decisions, match.
//! * [`chessbase`]: the 1993 ChessBase CBF/CBI game and FBK book formats (codec, no I/O).
//! * [`record`]: PGN writer and reader, openings, transcript and journal files.
//! * [`journal`]: the core's inputs on disk: resume after a crash, watch.
//! * [`link`]: serial ports, the line framer, reader and writer threads.
//! * [`stats`]: match statistics: Elo with its error, LOS, pentanomial counts, SPRT.
//! * [`tournament`]: the tournament core: schedule, boards, standings, report, journal.
//! * [`splitmix`]: stable 64-bit mixing (SplitMix64) for seeded, repeatable choices.
//! * [`display`]: the ratatui board view.
//! * [`client`]: the reference client and its movers.
//! * [`web`]: the audience's read-only web view (`--http`), an edge.
//! * [`exit`]: how a command ended, and the one mapping to its exit status.
//! * [`app`]: the event loops that wire ports, core, records and display.

/// `From<$error> for String` for each error type given: the callers whose
/// errors are still strings (the session and tournament loops, the
/// tournament journal, the engine bridge) take a typed error's words with
/// `?`. A type leaves the list once its callers are typed (issue 31).
macro_rules! error_words {
    ($($error:ty),+ $(,)?) => {
        $(impl From<$error> for String {
            fn from(e: $error) -> String {
                e.to_string()
            }
        })+
    };
}

pub mod app;
pub mod chessbase;
pub mod client;
pub mod clock;
pub mod display;
pub mod epd;
pub mod epd_kit;
pub mod exit;
pub mod game;
pub mod journal;
pub mod link;
pub mod record;
pub mod referee;
pub mod splitmix;
pub mod stats;
pub mod swiss;
pub mod text;
pub mod tournament;
pub mod web;
