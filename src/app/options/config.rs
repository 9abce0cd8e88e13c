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
    pub fn load(path: &Path) -> Result<ConfigFile, ConfigError> {
        read_toml(path)
    }
}

/// Reads and parses the TOML file at `path` (`argus referee`'s and
/// `argus tournament`'s `--config`); the error names the file and says
/// what is wrong (TOML errors carry line and column).
pub fn read_toml<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    toml::from_str(&text).map_err(|source| ConfigError::Toml {
        path: path.to_path_buf(),
        source,
    })
}

/// A `--config` file that gives no settings: the file, and what the system
/// or the TOML reader said (with its line and column).
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {}: {source}", .path.display())]
    Read {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("config file {}: {source}", .path.display())]
    Toml {
        path: std::path::PathBuf,
        source: toml::de::Error,
    },
}

error_words!(ConfigError);
