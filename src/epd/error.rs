//! The error returned when a line is not a well-formed EPD record.

use std::fmt;

/// Why a line is not a well-formed EPD record, and where.
///
/// `column` is the 1-based byte column of the offending byte (for a missing
/// item: one past the end of the line). Display gives
/// `column 57: string operand not closed`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EpdError {
    /// 1-based byte column where the problem was found.
    pub column: usize,
    /// What was wrong, in words (no column prefix).
    pub message: String,
}

impl EpdError {
    /// An error at the given 0-based byte offset (stored as a 1-based column).
    pub(crate) fn at(offset: usize, message: impl Into<String>) -> EpdError {
        EpdError {
            column: offset.saturating_add(1),
            message: message.into(),
        }
    }
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for EpdError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_column() {
        let e = EpdError::at(56, "string operand not closed");
        assert_eq!(e.column, 57);
        assert_eq!(e.to_string(), "column 57: string operand not closed");
    }
}
