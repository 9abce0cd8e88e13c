#!/bin/sh
# scripts/bench/tournament.sh [CYCLES]
#
# A tournament of 8 built-in movers (argus's own reference client, run
# in-process, answering at once) on 4 boards, headless, every game
# journaled, transcribed and written to the PGN: what the tournament loop
# costs when nothing waits for a program. CYCLES double round robins of
# 28 games (default 36: 1,008 games). Prints the wall time, the games and
# plies per second (overall and per board, from the PGN's Round tags), the
# relay overhead of every move on all boards (median, p99: the line the
# referee writes to its log at the end), the referee's CPU time and its resident memory sampled every second (it must
# stay flat), and the machine it ran on.
#
# Needs GNU time (/usr/bin/time). Run from anywhere; it builds the release
# binary first.
set -eu
cd "$(dirname "$0")/../.."
cycles=${1:-36}
cargo build --release --quiet
bin=target/release/argus
dir=$(mktemp -d /tmp/argus-bench-tournament-XXXXXX)
trap 'rm -rf "$dir"' EXIT

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
/usr/bin/time -f '%e %U %S %M' -o "$dir/time" \
    "$bin" tournament mover:p1 mover:p2=greedy mover:p3 mover:p4=greedy \
    mover:p5 mover:p6=greedy mover:p7 mover:p8=greedy \
    --headless --boards 4 --cycles "$cycles" --tc 600+0 --max-moves 40 \
    --reset-delay 0 --conclude-delay 0 \
    --log-dir "$dir/logs" --pgn "$dir/games.pgn" >"$dir/out" 2>"$dir/err" &
pid=$!
# The referee is the child of GNU time.
sleep 1
argus=$(pgrep -P "$pid" -f 'argus tournament' | head -1)
: >"$dir/rss"
while kill -0 "$pid" 2>/dev/null; do
    if [ -n "$argus" ] && [ -r "/proc/$argus/status" ]; then
        grep VmRSS "/proc/$argus/status" | awk '{print $2}' >>"$dir/rss"
    fi
    sleep 1
done
wait "$pid" || { echo "the tournament failed:"; tail -5 "$dir/err"; exit 1; }
read -r wall user sys maxrss <"$dir/time"
games=$(grep -c '^\[Event ' "$dir/games.pgn")
plies=$(grep -o '\[%clk' "$dir/games.pgn" | wc -l)
echo "games: $games in ${wall} s: $(echo "$games / $wall" | bc -l | cut -c1-6) games/s"
echo "plies: $plies: $(echo "$plies / $wall" | bc -l | cut -c1-7) plies/s overall"
for b in 1 2 3 4; do
    n=$(awk -v b="$b" '/^\[Round "/ { split($2, r, "\""); split(r[2], rb, "."); on = (rb[2] == b) } on && /\[%clk/ { c += gsub(/\[%clk/, "") } END { print c + 0 }' "$dir/games.pgn")
    echo "  board $b: $n plies, $(echo "$n / $wall" | bc -l | cut -c1-7) plies/s"
done
grep -ho 'relay overhead on all boards.*' "$dir/logs/argus.log" || echo "relay overhead: not reported"
echo "cpu: user ${user} s, system ${sys} s ($(echo "($user + $sys) * 100 / $wall" | bc -l | cut -c1-5) % of one core)"
samples=$(wc -l <"$dir/rss")
first=$(head -1 "$dir/rss")
mid=$(sed -n "$(( (samples + 1) / 2 ))p" "$dir/rss")
last=$(tail -1 "$dir/rss")
echo "rss (kB, sampled each second, $samples samples): first $first, middle $mid, last $last; peak ${maxrss}"
