//! Writing EPD records: as given ([`Display`](std::fmt::Display)) and in the
//! canonical form of spec section 7.1 (pfdn, data normalisation).
//!
//! Both forms use single blanks between fields, operations and operands,
//! no leading or trailing blanks, and double quotes around string operands.
//! For any record that [`Record::parse`] accepted,
//! `Record::parse(&r.to_string()) == Ok(r)`.

use std::cmp::Ordering;
use std::fmt;

use super::record::{Operand, Operation, Record};

/// Opcodes whose operands are a sequence, not a set: normalisation keeps
/// their operands in the given order. Private opcodes (starting with an
/// upper-case letter) are kept as given too; see [`is_order_dependent`].
pub const ORDERED_OPCODES: &[&str] = &["cc", "noop", "ptp", "pv", "sv", "tcri", "tcsi", "ts"];

/// Whether normalisation must keep this opcode's operands in the given
/// order: the opcodes in [`ORDERED_OPCODES`], and every private opcode
/// (one starting with an upper-case letter), since argus cannot know what
/// its operands mean. All other opcodes (`am`, `bm`, unknown lower-case
/// ones, ...) are treated as sets and get their operands sorted.
pub fn is_order_dependent(opcode: &str) -> bool {
    opcode.starts_with(|c: char| c.is_ascii_uppercase()) || ORDERED_OPCODES.contains(&opcode)
}

/// Orders two operands by their external representation (a string
/// including its quotes), as spec section 7.1 asks.
pub fn cmp_external(a: &Operand, b: &Operand) -> Ordering {
    fn external(o: &Operand) -> impl Iterator<Item = u8> + '_ {
        let quote: &[u8] = match o {
            Operand::Token(_) => b"",
            Operand::Str(_) => b"\"",
        };
        quote
            .iter()
            .chain(o.text().as_bytes())
            .chain(quote)
            .copied()
    }
    external(a).cmp(external(b))
}

impl Record {
    /// Appends the record, as given, to `out` (no line end). The cheapest
    /// way to write many records: reuse one buffer.
    pub fn write_into(&self, out: &mut String) {
        out.reserve(self.written_len());
        // Writing into a String cannot fail.
        let _ = write_record(self, out, false);
    }

    /// The record in canonical form (spec 7.1, pfdn): operations in ASCII
    /// order of opcode; operands of set-like opcodes in ASCII order of their
    /// external representation; operands of order-dependent opcodes
    /// ([`is_order_dependent`]: `pv`, `sv`, `ptp`, `cc`, `ts`, `tcri`,
    /// `tcsi`, `noop` and private upper-case opcodes) as given.
    pub fn to_canonical(&self) -> String {
        let mut out = String::with_capacity(self.written_len());
        let _ = write_record(self, &mut out, true);
        out
    }

    /// Puts the record itself in the canonical form of
    /// [`Record::to_canonical`]. Idempotent; keeps every operation and
    /// operand, only their order changes.
    pub fn normalize(&mut self) {
        self.ops.sort_by(|a, b| a.opcode.cmp(&b.opcode));
        for op in &mut self.ops {
            if !is_order_dependent(&op.opcode) {
                op.operands.sort_by(cmp_external);
            }
        }
    }

    /// The exact length in bytes of the written record.
    fn written_len(&self) -> usize {
        let f = &self.fields;
        let fields = f.placement.len() + f.side.len() + f.castling.len() + f.en_passant.len() + 3;
        let ops: usize = self
            .ops
            .iter()
            .map(|op| {
                // " opcode" ... ";"
                let operands: usize = op
                    .operands
                    .iter()
                    .map(|o| match o {
                        Operand::Token(t) => t.len() + 1,
                        Operand::Str(s) => s.len() + 3,
                    })
                    .sum();
                op.opcode.len() + 2 + operands
            })
            .sum();
        fields + ops
    }
}

impl fmt::Display for Record {
    /// Writes the record as given: single blanks, operations and operands
    /// in their stored order, strings in double quotes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_record(self, f, false)
    }
}

fn write_record<W: fmt::Write>(r: &Record, w: &mut W, canonical: bool) -> fmt::Result {
    let f = &r.fields;
    w.write_str(&f.placement)?;
    w.write_char(' ')?;
    w.write_str(&f.side)?;
    w.write_char(' ')?;
    w.write_str(&f.castling)?;
    w.write_char(' ')?;
    w.write_str(&f.en_passant)?;
    if canonical {
        let mut ops: Vec<&Operation> = r.ops.iter().collect();
        ops.sort_by(|a, b| a.opcode.cmp(&b.opcode));
        for op in ops {
            if is_order_dependent(&op.opcode) || op.operands.len() < 2 {
                write_operation(w, &op.opcode, op.operands.iter())?;
            } else {
                let mut operands: Vec<&Operand> = op.operands.iter().collect();
                operands.sort_by(|a, b| cmp_external(a, b));
                write_operation(w, &op.opcode, operands.into_iter())?;
            }
        }
    } else {
        for op in &r.ops {
            write_operation(w, &op.opcode, op.operands.iter())?;
        }
    }
    Ok(())
}

fn write_operation<'a, W: fmt::Write>(
    w: &mut W,
    opcode: &str,
    operands: impl Iterator<Item = &'a Operand>,
) -> fmt::Result {
    w.write_char(' ')?;
    w.write_str(opcode)?;
    for o in operands {
        w.write_char(' ')?;
        match o {
            Operand::Token(t) => w.write_str(t)?,
            Operand::Str(s) => {
                w.write_char('"')?;
                w.write_str(s)?;
                w.write_char('"')?;
            }
        }
    }
    w.write_char(';')
}
