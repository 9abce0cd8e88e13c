//! Time controls and chess clocks. Pure: callers pass the time in.
