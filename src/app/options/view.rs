//! The view flags of every command that shows a board: declared once and
//! flattened into each (`referee`, `resume`, `watch`, `demo`,
//! `tournament`), and the [`View`] they ask for.

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

impl ViewOptions {
    /// The view the flags ask for.
    pub fn view(&self) -> View {
        if self.headless {
            View::Headless
        } else {
            View::Board { ascii: self.ascii }
        }
    }
}

/// How a referee or a watcher is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// One line per event that matters, on stdout.
    Headless,
    /// The live board in the terminal.
    Board { ascii: bool },
}
