//! Tests of the referee core through its public interface, with fake time
//! (no threads, no sleeps).

mod scripted;
mod simulation;
