//! What argus writes and reads as files: PGN, openings.
