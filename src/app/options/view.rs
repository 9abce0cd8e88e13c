//! The view flags of every command that shows a board: declared once and
//! flattened into each (`referee`, `resume`, `watch`, `demo`,
//! `tournament`).

use clap::Args;

/// `--headless` and `--ascii`.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct ViewOptions {
    /// No board: print plain lines instead, one per event that matters
    /// (each move too when watching), for scripts, tests and logs.
    #[arg(long)]
    pub headless: bool,
    /// Draw pieces as letters instead of chess glyphs.
    #[arg(long)]
    pub ascii: bool,
}
