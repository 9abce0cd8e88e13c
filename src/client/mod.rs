//! The reference client and its movers.
