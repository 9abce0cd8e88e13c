//! The application log: a file in the log directory (info and above), and
//! warnings on stderr in headless mode.

use std::fs::OpenOptions;
use std::path::Path;

use log::LevelFilter;
use simplelog::{
    ColorChoice, CombinedLogger, Config, ConfigBuilder, SharedLogger, TermLogger, TerminalMode,
    WriteLogger,
};

/// Starts logging to `dir/file_name` (appended) and, if `stderr`, warnings
/// to stderr. Call once per process.
pub fn init(dir: &Path, file_name: &str, stderr: bool) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create the log directory {}: {e}", dir.display()))?;
    let path = dir.join(file_name);
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("cannot open the log file {}: {e}", path.display()))?;
    let mut loggers: Vec<Box<dyn SharedLogger>> =
        vec![WriteLogger::new(LevelFilter::Info, config(), file)];
    if stderr {
        // Fatal errors reach stderr once, by `app::exit_status`.
        let mut quiet = ConfigBuilder::new();
        quiet.add_filter_ignore_str(crate::app::FATAL_TARGET);
        loggers.push(TermLogger::new(
            LevelFilter::Warn,
            config_from(quiet),
            TerminalMode::Stderr,
            ColorChoice::Never,
        ));
    }
    CombinedLogger::init(loggers).map_err(|e| format!("cannot start logging: {e}"))
}

fn config() -> Config {
    config_from(ConfigBuilder::new())
}

/// RFC 3339 times, no thread or target names.
fn config_from(mut builder: ConfigBuilder) -> Config {
    builder
        .set_time_format_rfc3339()
        .set_thread_level(LevelFilter::Off)
        .set_target_level(LevelFilter::Off)
        .build()
}
