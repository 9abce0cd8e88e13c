//! The EPD record as data: the four position fields and the operations, in
//! the order they were given. Parsing lives in `parse`, writing in `write`,
//! typed access to the opcodes in `ops`.

/// The four position fields of an EPD record (spec section 4), kept as the
/// text that was given. Whether they describe a legal position is for the
/// `game` module to say.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fields {
    /// Piece placement, e.g. `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR`.
    pub placement: String,
    /// Active colour: `w` or `b`.
    pub side: String,
    /// Castling availability: `KQkq`, a subset, or `-`.
    pub castling: String,
    /// En passant target square (`e3`) or `-`.
    pub en_passant: String,
}

impl Fields {
    /// The four fields of the standard starting position.
    pub fn initial() -> Fields {
        Fields {
            placement: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR".into(),
            side: "w".into(),
            castling: "KQkq".into(),
            en_passant: "-".into(),
        }
    }
}

/// One operand, keeping its kind so that a record writes back as it came.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operand {
    /// An unquoted token: a run of non-blank printing characters.
    Token(String),
    /// A string: the text between the double quotes (quotes not included).
    Str(String),
}

impl Operand {
    /// The operand's text, without quotes for a string.
    pub fn text(&self) -> &str {
        match self {
            Operand::Token(s) | Operand::Str(s) => s,
        }
    }
}

/// An operation: an opcode and its operands, in order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Operation {
    pub opcode: String,
    pub operands: Vec<Operand>,
}

impl Operation {
    /// An operation with no operands (e.g. `resign;`).
    pub fn new(opcode: impl Into<String>) -> Operation {
        Operation {
            opcode: opcode.into(),
            operands: Vec::new(),
        }
    }

    /// Adds an unquoted operand.
    pub fn token(mut self, t: impl Into<String>) -> Operation {
        self.operands.push(Operand::Token(t.into()));
        self
    }

    /// Adds a string operand (written in double quotes).
    pub fn string(mut self, s: impl Into<String>) -> Operation {
        self.operands.push(Operand::Str(s.into()));
        self
    }
}

/// A whole EPD record: four fields and zero or more operations, each opcode
/// at most once, in the order given.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Record {
    pub fields: Fields,
    pub ops: Vec<Operation>,
}

impl Record {
    /// A record with the given fields and no operations.
    pub fn new(fields: Fields) -> Record {
        Record {
            fields,
            ops: Vec::new(),
        }
    }

    /// The operation with this opcode, if present.
    pub fn op(&self, opcode: &str) -> Option<&Operation> {
        self.ops.iter().find(|o| o.opcode == opcode)
    }

    /// Whether an operation with this opcode is present.
    pub fn has(&self, opcode: &str) -> bool {
        self.op(opcode).is_some()
    }

    /// Adds an operation, replacing one with the same opcode (an opcode
    /// appears at most once per record).
    pub fn set(&mut self, op: Operation) -> &mut Record {
        match self.ops.iter_mut().find(|o| o.opcode == op.opcode) {
            Some(slot) => *slot = op,
            None => self.ops.push(op),
        }
        self
    }

    /// Builder form of [`Record::set`].
    pub fn with(mut self, op: Operation) -> Record {
        self.set(op);
        self
    }

    /// Removes the operation with this opcode; returns it if it was there.
    pub fn remove(&mut self, opcode: &str) -> Option<Operation> {
        let i = self.ops.iter().position(|o| o.opcode == opcode)?;
        Some(self.ops.remove(i))
    }
}
