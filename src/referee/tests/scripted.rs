//! Scripted-transcript tests of every protocol behaviour.
