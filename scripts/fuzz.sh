#!/bin/sh
# fuzz.sh [INPUTS] [SEED]
#
# Runs the four fuzz targets (hw-tests/fuzz.rs: the EPD parser, the line
# framer, the referee core, the ChessBase decoders) in release mode with
# INPUTS inputs each (default 10,000,000), in parallel (one test thread
# each), and prints
# their counts and times (FUZZ ... lines). A failure prints the seed, the
# case number and the input. See docs/robustness.md.
set -eu
cd "$(dirname "$0")/.."
echo "fuzz: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -sm), $(nproc) cores"
start=$(date +%s)
ARGUS_FUZZ_CASES=${1:-10000000} ARGUS_FUZZ_SEED=${2:-1} \
    cargo test --release --test hw fuzz:: -- --nocapture --test-threads 4
echo "fuzz: all targets done in $(( $(date +%s) - start )) s (including the build)"
