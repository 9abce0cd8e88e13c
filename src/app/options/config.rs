//! The `--config` TOML file: the flags' settings in three tables.

use std::path::Path;

use serde::Deserialize;

use super::{LineOptions, MatchOptions, OutputOptions};

/// The `--config` file: the same settings as the flags, in three tables
/// (`[line]`, `[match]`, `[output]`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    #[serde(default)]
    pub line: LineOptions,
    #[serde(default, rename = "match")]
    pub matches: MatchOptions,
    #[serde(default)]
    pub output: OutputOptions,
}

impl ConfigFile {
    /// Reads and parses a config file; the error names the file and says
    /// what is wrong (TOML errors carry line and column).
    pub fn load(path: &Path) -> Result<ConfigFile, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read config file {}: {e}", path.display()))?;
        toml::from_str(&text).map_err(|e| format!("config file {}: {e}", path.display()))
    }
}
