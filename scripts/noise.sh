#!/bin/sh
# noise.sh [GAMES] [SESSIONS] [BER] [SEED] [TC]
#
# The noise experiment: GAMES games (default 50) between two reference
# clients, every line through `argus wire` at 9600 baud 8N1 with bit error
# rate BER (default 1e-4), split over SESSIONS referee sessions run at once
# (default 5), under time control TC (default 60: sudden death, 60 s), with
# --resend-after 2 and --illegal retry. Prints per-session and total
# figures (NOISE ... lines): damaged lines (wire statistics), detected
# (lines the referee rejected or dropped, resends, bad moves asked again,
# faults), how the games ended, and any move in a
# PGN game that neither client played (FOREIGN MOVE lines; the run fails
# if there is one). Needs socat. See docs/robustness.md.
set -eu
cd "$(dirname "$0")/.."
ARGUS_NOISE_GAMES=${1:-50} \
ARGUS_NOISE_SESSIONS=${2:-5} \
ARGUS_NOISE_BER=${3:-1e-4} \
ARGUS_NOISE_SEED=${4:-1} \
ARGUS_NOISE_TC=${5:-60} \
ARGUS_REQUIRE_SOCAT=1 \
    cargo test --test hw -- --ignored --exact wire::noise_experiment --nocapture
