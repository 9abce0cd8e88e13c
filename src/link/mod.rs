//! Serial links: port settings, opening, the line framer, reader and writer
//! threads.
