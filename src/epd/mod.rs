//! EPD records (Extended Position Description, spec sections 4-7): parse,
//! write, normalise, and typed access to the opcodes the referee uses. This
//! module knows nothing of chess rules.

pub mod basetype;
pub mod record;

pub use basetype::{ClockValue, Date, TimeOfDay};
pub use record::{Fields, Operand, Operation, Record};
