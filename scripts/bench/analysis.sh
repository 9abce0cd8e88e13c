#!/bin/sh
# Positions per second of `argus epd analyse --depth 1` with 1 and 2
# engines (Stockfish, one thread each), and argus's overhead per position:
# the wall time per position and engine, less the engine's own search time
# (the sum of ar_ms). See docs/performance.md ("Analysis verbs").
#
#   scripts/bench/analysis.sh [N]     # N positions (default 400)
#
# ARGUS: the binary (default target/release/argus, else target/debug/argus).
# ENGINE: the engine (default /usr/games/stockfish).
set -eu
n=${1:-400}
cd "$(dirname "$0")/../.."
argus=${ARGUS:-target/release/argus}
[ -x "$argus" ] || argus=target/debug/argus
engine=${ENGINE:-/usr/games/stockfish}
[ -x "$engine" ] || { echo "no engine at $engine (apt-get install stockfish)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Win At Chess 1-8, repeated with distinct ids (each search starts with
# ucinewgame, so a repeat is searched afresh).
set -- \
 "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - -" \
 "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - -" \
 "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - -" \
 "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - -" \
 "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - -" \
 "7k/p7/1R5K/6r1/6p1/6P1/8/8 w - -" \
 "rnbqkb1r/pppp1ppp/8/4P3/6n1/7P/PPPNPPP1/R1BQKBNR b KQkq -" \
 "r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - -"
i=0
while [ $i -lt "$n" ]; do
  for p in "$@"; do
    [ $i -lt "$n" ] && echo "$p id \"p$i\";"
    i=$((i + 1))
  done
done > "$tmp/in.epd"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); load: $(cut -d' ' -f1-3 /proc/loadavg); cores: $(nproc)"
echo "argus: $argus; engine: $engine; $n positions, --depth 1"
for c in 1 2; do
  start=$(date +%s.%N)
  "$argus" epd analyse "$tmp/in.epd" "$tmp/out$c.epd" --engine "$engine" \
    --option Threads=1 --option Hash=16 --depth 1 --concurrency $c 2>/dev/null
  end=$(date +%s.%N)
  engine_ms=$(grep -o 'ar_ms [0-9]*' "$tmp/out$c.epd" | awk '{s += $2} END {print s + 0}')
  awk -v s="$start" -v e="$end" -v n="$n" -v c="$c" -v ems="$engine_ms" 'BEGIN {
    wall = e - s
    printf "%d engine(s): %.2f s, %.0f positions/s, overhead %.2f ms per position and engine (engine search %.2f ms)\n",
      c, wall, n / wall, (wall * 1000 * c - ems) / n, ems / n
  }'
done
