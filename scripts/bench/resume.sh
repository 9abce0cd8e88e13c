#!/bin/sh
# scripts/bench/resume.sh [--games N] [--boards K] [--max-moves M] [--keep]
#
# A long event's files, and resuming it (issue 35): a match of two
# instant movers (`argus tournament mover:a mover:b=greedy --boards K`),
# N + 2K games scheduled, each game drawn after M moves, with the PGN,
# the report (text and Markdown) and the results JSON written after every
# game; stopped with SIGKILL once N games are in the PGN (a crash, games
# running on every board), then carried on with `argus resume`.
#
# Prints how the writing went (games in the PGN every 10 s: the rate must
# not fall as the files grow), then for the resume: the time to its first
# line ("resuming the tournament ...", the journals read and replayed),
# to the first game it starts, and to its end (the 2K games left played
# out), each from the resume's start; and the same resume's first line
# once more with the event over ("already over": the journal read, the
# report printed).
#
#   ARGUS   the argus binary (default: the release build, built first)
#   TMPDIR  where the files go (default /tmp)
#
# --games N      games before the kill (default 10000)
# --boards K     games at once (default 8)
# --max-moves M  a game is drawn after M moves (default 5)
# --keep         keep the files and print where
set -eu
cd "$(dirname "$0")/../.."

me=resume
. scripts/bench/lib.sh
games=10000
boards=8
max_moves=5
keep=0
usage() {
    echo "usage: $0 [--games N] [--boards K] [--max-moves M] [--keep]" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case $1 in
    --games) [ $# -ge 2 ] || usage; games=$2; shift 2 ;;
    --boards) [ $# -ge 2 ] || usage; boards=$2; shift 2 ;;
    --max-moves) [ $# -ge 2 ] || usage; max_moves=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    *) usage ;;
    esac
done
for n in $games $boards $max_moves; do
    case $n in
    '' | *[!0-9]* | 0*) fail "--games, --boards and --max-moves take numbers from 1 up" ;;
    esac
done
find_argus

dir=$(mktemp -d "${TMPDIR:-/tmp}/argus-bench-resume-XXXXXX")
ref=
cleanup() {
    [ -z "$ref" ] || kill -9 "$ref" 2>/dev/null || true
    if [ $keep -eq 1 ]; then echo "kept: $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

now() { date +%s.%N; }
since() { echo "$(now) - $1" | bc -l | cut -c1-6; }
in_pgn() { grep -c '^\[Event ' "$dir/games.pgn" 2>/dev/null || echo 0; }

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores;" \
    "load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC'); files in ${TMPDIR:-/tmp}"
total=$((games + 2 * boards))
echo "writing: $total games scheduled on $boards boards, --max-moves $max_moves, killed at $games"
t0=$(now)
"$argus" tournament mover:a mover:b=greedy --headless --boards "$boards" \
    --games-per-pairing "$total" --tc 600+0 --max-moves "$max_moves" \
    --reset-delay 0 --conclude-delay 0 --log-dir "$dir/logs" --pgn "$dir/games.pgn" \
    --report "$dir/report.txt" --results-json "$dir/results.json" \
    >"$dir/out" 2>"$dir/err" &
ref=$!
last=0
tick=$(now)
while :; do
    n=$(in_pgn)
    [ "$n" -lt "$games" ] || break
    kill -0 "$ref" 2>/dev/null || { tail -n 5 "$dir/err" >&2; fail "the event ended before $games games"; }
    if [ "$(echo "$(now) - $tick >= 10" | bc)" -eq 1 ]; then
        echo "  $(since "$t0") s: $n games ($(( (n - last) / 10 )) games/s in the last 10 s; load $(cut -d' ' -f1 /proc/loadavg))"
        last=$n
        tick=$(now)
    fi
    sleep 0.2
done
kill -9 "$ref"
wait "$ref" 2>/dev/null || true
ref=
echo "killed after $(since "$t0") s with $(in_pgn) games in the PGN; journals: $(du -sh "$dir/logs" | cut -f1)," \
    "tournament journal $(wc -l <"$dir/logs/tournament.journal") lines"

echo "resume (load $(cut -d' ' -f1-3 /proc/loadavg)):"
t0=$(now)
"$argus" resume "$dir/logs/tournament.journal" --headless >"$dir/resume.out" 2>"$dir/resume.err" &
ref=$!
first= start=
while kill -0 "$ref" 2>/dev/null; do
    if [ -z "$first" ] && grep -q 'resuming the tournament' "$dir/resume.out"; then first=$(since "$t0"); fi
    if [ -z "$start" ] && grep -q 'starts on board' "$dir/resume.out"; then start=$(since "$t0"); fi
    sleep 0.01
done
rc=0
wait "$ref" || rc=$?
ref=
end=$(since "$t0")
[ $rc -eq 0 ] || { tail -n 5 "$dir/resume.err" >&2; fail "argus resume exited with $rc"; }
echo "  first line after ${first:-?} s, first game started after ${start:-?} s, done after $end s;" \
    "$(in_pgn) games in the PGN ($total scheduled)"
t0=$(now)
"$argus" resume "$dir/logs/tournament.journal" --headless >"$dir/over.out" 2>&1
echo "  once over: $(since "$t0") s ($(head -c 60 "$dir/over.out")...)"
