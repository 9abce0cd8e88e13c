#!/bin/sh
# bench.sh [--quick]
#
# Runs all of argus's benchmarks (release build) and prints the figures that
# docs/performance.md quotes, with the machine they were taken on:
#
#   epd     criterion: EPD parse, write, parse+write of one referee record
#   game    criterion: SAN parse+play, SAN writing, end checks (one game)
#   relay   plies/s and relay overhead over virtual cables, the match on the
#           director in-process (its journals and transcripts always
#           written): instant movers, the same with 200 viewers of the web
#           page, with the PGN, with the live PGN too; and movers thinking
#           30 ms with all files
#   tcp_relay  a move's hop from one client to the other through the
#           release `argus referee --listen` over TCP loopback, against a
#           dumb socat TCP relay in the same run
#           (needs socat; skipped without it)
#   cable_relay  the same over socat cables with the release `argus referee`
#           (journal synced on disk and on tmpfs) against socat joining the
#           same cables, with the fdatasync floor of each (needs socat)
#   links   issue 35: argus's reader and writer threads per TCP link against
#           one mio readiness loop for all sockets (and against that loop
#           handing lines to a loop thread), 1 to 100 boards of two
#           ping-ponging clients over loopback: hop latency, lines/s, the
#           referee process's CPU, memory and threads
#   engine_games  Stockfish against Stockfish at depth 1, 20 games refereed
#           by argus (two `argus client --engine` over socat cables) and by
#           fastchess (pipes), interleaved: ms per ply of each and the
#           argus/fastchess ratio, median of 3 pairs
#           (scripts/bench/engine_games.sh; needs FASTCHESS=path to a
#           fastchess binary built from its public source, Stockfish and
#           socat; skipped without them)
#   callgrind instructions per EPD parse+write (needs valgrind; skipped
#           without it). Stable across load, unlike the timings.
#
# --quick: shorter criterion runs and fewer plies, one engine pair of 4
# games (a smoke run, not figures to quote).
#
# Run from anywhere; it works in the crate's directory. Criterion keeps its
# reports under target/criterion.
set -eu

cd "$(dirname "$0")/.."

quick=0
if [ "${1:-}" = "--quick" ]; then
    quick=1
elif [ $# -gt 0 ]; then
    echo "usage: $0 [--quick]" >&2
    exit 2
fi

if [ $quick -eq 1 ]; then
    crit="--warm-up-time 1 --measurement-time 2"
    plies=1000
    engine_games="--pairs 1 --games 4"
else
    crit=""
    plies=4000
    engine_games=""
fi

echo "== machine"
date -u '+date: %Y-%m-%d %H:%M UTC'
grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/^model name[[:space:]]*: /cpu: /' || true
echo "cores: $(nproc 2>/dev/null || echo '?')"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') (1, 5, 15 min)"
rustc --version

echo "== epd (criterion)"
# shellcheck disable=SC2086 # $crit is a list of words
cargo bench --bench epd -- $crit 2>/dev/null | grep -E '^epd/|time:|thrpt:' | grep -v '%'

echo "== game (criterion)"
# shellcheck disable=SC2086
cargo bench --bench game -- $crit 2>/dev/null | grep -E '^game/|time:|thrpt:' | grep -v '%'

files=$(mktemp -d "${TMPDIR:-/tmp}/argus-bench.XXXXXX")
trap 'rm -rf "$files"' EXIT INT TERM
echo "== relay: instant movers, journals only (a temporary directory)"
cargo bench --bench relay -- --plies "$plies" 2>/dev/null
echo "== relay: instant movers, journals only, 200 viewers of the web page (--http)"
cargo bench --bench relay -- --plies "$plies" --viewers 200 2>/dev/null
echo "== relay: instant movers, journals, transcripts and PGN file (in $files)"
cargo bench --bench relay -- --plies "$plies" --files "$files/plain" 2>/dev/null | tee "$files/plain.out"
echo "== relay: instant movers, journals, transcripts, PGN file and live PGN"
cargo bench --bench relay -- --plies "$plies" --files "$files/live" --live-pgn 2>/dev/null | tee "$files/live.out"
# The live PGN's cost (issue 20: at most 10 %): steady plies/s of the two.
steady() { sed -n 's/.*; \([0-9]*\) in steady play.*/\1/p' "$1"; }
without=$(steady "$files/plain.out")
with=$(steady "$files/live.out")
if [ -n "$without" ] && [ -n "$with" ] && [ "$without" -gt 0 ]; then
    echo "relay: the live PGN costs $(( (without - with) * 100 / without )) % of steady plies/s ($with against $without; goal at most 10 %; one pair: run it a few times)"
fi
echo "== relay: movers thinking 30 ms, journals, transcripts, PGN file and live PGN"
cargo bench --bench relay -- --plies 300 --think-ms 30 --files "$files/think" --live-pgn 2>/dev/null

echo "== tcp_relay: argus over TCP loopback against a socat relay"
if command -v socat >/dev/null 2>&1; then
    cargo bench --bench tcp_relay -- --plies "$plies" 2>/dev/null
else
    echo "socat not found: skipped"
fi

echo "== cable_relay: argus referee between socat cables against socat, journal on disk and tmpfs"
if command -v socat >/dev/null 2>&1; then
    cargo bench --bench cable_relay -- --plies "$plies" 2>/dev/null
else
    echo "socat not found: skipped"
fi

echo "== links: thread-per-link against one readiness loop, 1 to 100 boards over TCP loopback"
cargo bench --bench links 2>/dev/null

echo "== engine_games: Stockfish depth 1, argus against fastchess"
if [ -n "${STOCKFISH:-}" ]; then
    stockfish=$STOCKFISH
else
    stockfish=$(command -v stockfish || { [ -x /usr/games/stockfish ] && echo /usr/games/stockfish; } || true)
fi
if [ -z "${FASTCHESS:-}" ]; then
    echo "FASTCHESS not set (the path of a fastchess binary built from https://github.com/Disservin/fastchess): skipped"
elif [ -z "$stockfish" ] || [ ! -x "$stockfish" ]; then
    echo "Stockfish not found (install it or set STOCKFISH): skipped"
elif ! command -v socat >/dev/null 2>&1; then
    echo "socat not found: skipped"
else
    # shellcheck disable=SC2086 # $engine_games is a list of words
    STOCKFISH=$stockfish scripts/bench/engine_games.sh $engine_games
fi

echo "== callgrind: instructions per EPD parse+write"
if command -v valgrind >/dev/null 2>&1; then
    # The profiling profile: release code with debug info, so that
    # callgrind_annotate can name the functions.
    exe=$(cargo bench --profile profiling --bench epd_instructions --no-run --message-format=json 2>/dev/null |
        grep '"executable":"[^"]*epd_instructions' |
        sed 's/.*"executable":"\([^"]*\)".*/\1/' | tail -n 1)
    if [ -z "$exe" ] || [ ! -x "$exe" ]; then
        echo "cannot find the epd_instructions executable" >&2
        exit 1
    fi
    count() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$exe" --count "$1" 2>&1 |
            sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
    }
    low=$(count 1000)
    high=$(count 11000)
    echo "instructions: $(((high - low) / 10000)) per parse+write ($low for 1000 runs, $high for 11000)"
else
    echo "valgrind not installed: skipped"
fi
