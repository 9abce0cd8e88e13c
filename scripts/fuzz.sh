#!/bin/sh
# fuzz.sh [INPUTS] [SEED]
#
# Runs the fuzz targets in release mode: the three of hw-tests/fuzz.rs (the
# EPD parser, the line framer, the ChessBase decoders) with INPUTS inputs
# each (default 10,000,000), in parallel (one test thread each), and the
# referee core's (src/referee/tests/simulation/fuzz.rs, a property test) with
# INPUTS / 150 sessions, about as many inputs. Prints the hw targets' counts
# and times (FUZZ ... lines) and the core's time. A failure prints the seed,
# the case number and the input (the core's: the smallest failing sequence
# proptest found). See docs/robustness.md.
set -eu
cd "$(dirname "$0")/.."
echo "fuzz: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -sm), $(nproc) cores"
start=$(date +%s)
inputs=${1:-10000000}
seed=${2:-1}
ARGUS_FUZZ_CASES=$inputs ARGUS_FUZZ_SEED=$seed \
    cargo test --release --test hw fuzz:: -- --nocapture --test-threads 4
core=$(date +%s)
ARGUS_FUZZ_SESSIONS=$(( inputs / 150 )) PROPTEST_RNG_SEED=$seed \
    cargo test --release --lib referee::tests::simulation::fuzz::arbitrary_inputs
echo "fuzz: referee core done in $(( $(date +%s) - core )) s (including the build)"
echo "fuzz: all targets done in $(( $(date +%s) - start )) s (including the build)"
