//! The application log: a file in the log directory (info and above), and
//! warnings on stderr in headless mode.

use std::fs::OpenOptions;
use std::path::Path;

use log::LevelFilter;
use simplelog::{
    ColorChoice, CombinedLogger, ConfigBuilder, SharedLogger, TermLogger, TerminalMode, WriteLogger,
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
    let config = ConfigBuilder::new()
        .set_time_format_rfc3339()
        .set_thread_level(LevelFilter::Off)
        .set_target_level(LevelFilter::Off)
        .build();
    let mut loggers: Vec<Box<dyn SharedLogger>> =
        vec![WriteLogger::new(LevelFilter::Info, config.clone(), file)];
    if stderr {
        loggers.push(TermLogger::new(
            LevelFilter::Warn,
            config,
            TerminalMode::Stderr,
            ColorChoice::Never,
        ));
    }
    CombinedLogger::init(loggers).map_err(|e| format!("cannot start logging: {e}"))
}
