//! `argus epd`: the EPD Kit verbs on files (check, normalize, purge).

use std::path::PathBuf;

use clap::Subcommand;

use crate::epd::Record;
use crate::game;
use crate::kit;

/// The verbs of `argus epd`.
#[derive(Debug, Clone, Subcommand)]
pub enum EpdVerb {
    /// Check every record: EPD syntax and a legal position.
    ///
    /// Prints FILE:LINE: reason for each bad record, then a summary line
    /// "N records, M bad" (all on standard output).
    #[command(after_help = "Examples:\n  \
        argus epd check openings.epd\n  \
        argus epd check suite1.epd suite2.epd\n  \
        argus epd check - < positions.epd")]
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
    #[command(after_help = "Examples:\n  \
        argus epd normalize suite.epd suite-clean.epd\n  \
        argus epd normalize suite.epd | sort -u > suite-unique.epd")]
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
    #[command(after_help = "Examples:\n  \
        argus epd purge ce analysed.epd plain.epd\n  \
        argus epd purge c0 suite.epd -")]
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

/// The position check used by `check` and `normalize`: the four fields
/// (with `hmvc`/`fmvn` when present) must give a legal position.
pub fn check_position(record: &Record) -> Result<(), String> {
    game::position_of_record(record).map(|_| ())
}

/// Runs `argus epd VERB`; returns the exit status.
pub fn main(verb: EpdVerb) -> u8 {
    match verb {
        EpdVerb::Check { files } => kit::run_check(&files, &check_position),
        EpdVerb::Normalize { input, output } => {
            kit::run_normalize(&input, output.as_deref(), &check_position)
        }
        EpdVerb::Purge {
            opcode,
            input,
            output,
        } => kit::run_purge(&opcode, &input, output.as_deref()),
    }
}
