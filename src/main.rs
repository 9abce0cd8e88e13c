use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// argus: a referee for computer chess played across serial cables.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// EPD Kit: check, normalise and purge EPD files.
    ///
    /// Every verb reads EPD records one line at a time (blank lines are
    /// skipped; lines over 4096 bytes are reported and skipped) and reports
    /// each bad record as FILE:LINE: reason. Exit status: 0 when every
    /// record was good, 1 when some record was bad, 2 when a file could not
    /// be read or written. A FILE of "-" means standard input or output.
    Epd {
        #[command(subcommand)]
        verb: EpdVerb,
    },
}

#[derive(Subcommand)]
enum EpdVerb {
    /// Check every record: EPD syntax and a legal position.
    ///
    /// Prints FILE:LINE: reason for each bad record, then a summary line
    /// "N records, M bad" (all on standard output).
    Check {
        /// EPD files to check.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Write every record in canonical form (EPD verb pfdn, spec 7.1).
    ///
    /// Single blanks, operations in ASCII order of opcode, operands of
    /// set-like opcodes (bm, am, ...) in ASCII order; pv, sv, ptp, cc, ts,
    /// tcri, tcsi, noop and private (upper-case) opcodes keep their operand
    /// order. Records keep their order; bad records (syntax or an illegal
    /// position) are reported on standard error and left out.
    Normalize {
        /// The EPD file to read.
        #[arg(value_name = "IN")]
        input: PathBuf,
        /// Where to write (standard output when omitted). Must not be IN.
        #[arg(value_name = "OUT")]
        output: Option<PathBuf>,
    },
    /// Remove one operation from every record (EPD verb pfop, spec 7.4).
    ///
    /// Records are otherwise copied as given (with single blanks), in order;
    /// records that do not parse are reported on standard error and left
    /// out.
    Purge {
        /// The opcode to remove, e.g. ce.
        opcode: String,
        /// The EPD file to read.
        #[arg(value_name = "IN")]
        input: PathBuf,
        /// Where to write (standard output when omitted). Must not be IN.
        #[arg(value_name = "OUT")]
        output: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // lead: wire game legality
    let check_position = |_: &argus::epd::Record| -> Result<(), String> { Ok(()) };
    let code = match cli.command {
        Command::Epd { verb } => match verb {
            EpdVerb::Check { files } => argus::kit::run_check(&files, &check_position),
            EpdVerb::Normalize { input, output } => {
                argus::kit::run_normalize(&input, output.as_deref(), &check_position)
            }
            EpdVerb::Purge {
                opcode,
                input,
                output,
            } => argus::kit::run_purge(&opcode, &input, output.as_deref()),
        },
    };
    ExitCode::from(code)
}
