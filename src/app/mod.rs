//! Event loops that wire ports, the referee core, records and the display.
