#!/bin/sh
# scripts/bench/fairness_engines.sh [--boards "1 2 8"] [--games N] [--tc TC]
#                                   [--via "engines tcp fastchess"] [--keep]
#
# Clock fairness with engines (issue 35): for every move of Stockfish
# against itself, the time the referee charged it minus the engine's own
# time for the search (the `time` of its last `info` line before its
# `bestmove`), at each number of boards, under
#
# * engines: `argus tournament engine:sf-a=SF engine:sf-b=SF --boards N`
#   (the engines on pipes, argus's bridge on threads of the referee);
# * tcp: `argus tournament tcp:sf-a tcp:sf-b --boards N --listen ...` and
#   2N `argus client tcp://... --engine SF` processes on the same machine;
# * fastchess: `fastchess -concurrency N` (-force-concurrency above the
#   CPUs), `-log ... engine=true` for the engines' traffic.
#
# One after the other at each number of boards, so that the load of the
# moment hits all three alike. Per run: the time forfeits (PGN Termination
# "time forfeit") and, from scripts/bench/fairness_moves.py, the moves
# matched and charged - own: median, p90, p99, max (ms); for argus also
# its own hops per move: the time it measured (its game journals' respond
# `sent` to reply `line`) minus the bridge's `Asearch` (the engine's time,
# go out to bestmove in): what the referee credits to an engine: player,
# and charged a tcp: one (it cannot trust a client's word). Charged: argus's
# `[%emt]`, fastchess's move time in its comment. argus's own engine logs
# (engine-NAME.K.log in its log directory, the clients' --log) and
# fastchess's log give the engines' `info` lines.
#
#   FASTCHESS  the fastchess binary (for --via fastchess; build it from its
#              public source, https://github.com/Disservin/fastchess, `make -j`)
#   STOCKFISH  the Stockfish binary (default: stockfish on PATH, else
#              /usr/games/stockfish)
#   ARGUS      the argus binary to measure (default: the release build,
#              built first)
#   TMPDIR     where the runs' files go (default /tmp)
#
# --boards L  the numbers of boards (games at once), default "1 2 8"
# --games N   games a run, even (default 16)
# --tc TC     time control (default 2+0.02)
# --via L     which referees, default "engines tcp fastchess"
# --keep      keep the temporary directory and print its path
#
# Needs python3 with python-chess and a Stockfish.
set -eu
cd "$(dirname "$0")/../.."

me=fairness_engines
. scripts/bench/lib.sh
boards_list="1 2 8"
games=16
tc=2+0.02
via_list="engines tcp fastchess"
keep=0
usage() {
    echo "usage: $0 [--boards \"1 2 8\"] [--games N] [--tc TC] [--via \"engines tcp fastchess\"] [--keep]" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case $1 in
    --boards) [ $# -ge 2 ] || usage; boards_list=$2; shift 2 ;;
    --games) [ $# -ge 2 ] || usage; games=$2; shift 2 ;;
    --tc) [ $# -ge 2 ] || usage; tc=$2; shift 2 ;;
    --via) [ $# -ge 2 ] || usage; via_list=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    *) usage ;;
    esac
done
for n in $games $boards_list; do
    case $n in
    '' | *[!0-9]* | 0*) fail "--games and --boards take numbers from 1 up" ;;
    esac
done
[ $((games % 2)) -eq 0 ] || fail "--games must be even (fastchess plays each opening with both colours)"
case $tc in
*[!0-9.+/:]* | '') fail "--tc takes a time control such as 2+0.02 or 10+0.1" ;;
esac
for v in $via_list; do
    case $v in
    engines | tcp | fastchess) ;;
    *) fail "--via takes engines, tcp and fastchess" ;;
    esac
done
case " $via_list " in
*" fastchess "*)
    [ -n "${FASTCHESS:-}" ] || fail "set FASTCHESS to a fastchess binary (or leave fastchess out of --via)"
    [ -x "$FASTCHESS" ] || fail "FASTCHESS=$FASTCHESS is not an executable file"
    ;;
esac
find_stockfish
python3 -c 'import chess' 2>/dev/null || fail "python3 with python-chess is needed (pip install chess)"
find_argus
moves=$(pwd)/scripts/bench/fairness_moves.py

work_dir fairness

forfeits() { grep -c '^\[Termination "time forfeit"\]' "$1" || true; }

run_engines() { # BOARDS
    d=$dir/engines-$1
    mkdir -p "$d"
    "$argus" tournament "engine:sf-a=$stockfish" "engine:sf-b=$stockfish" --headless \
        --games-per-pairing "$games" --boards "$1" --reset-delay 0 --conclude-delay 0 --tc "$tc" \
        --pgn "$d/games.pgn" --log-dir "$d/logs" >"$d/out" 2>"$d/err" ||
        { tail -n 5 "$d/err" >&2; fail "argus (engines, $1 boards) failed"; }
    report "argus engine:" "$1" "$d/games.pgn" argus --argus-logs "$d"/logs/engine-*.log \
        --argus-journals "$d"/logs/game-*/journal.log
}

run_tcp() { # BOARDS
    d=$dir/tcp-$1
    mkdir -p "$d"
    port=$(free_port)
    "$argus" tournament tcp:sf-a tcp:sf-b --listen "127.0.0.1:$port" --headless \
        --games-per-pairing "$games" --boards "$1" --reset-delay 0 --conclude-delay 0 --tc "$tc" \
        --pgn "$d/games.pgn" --log-dir "$d/logs" >"$d/out" 2>"$d/err" &
    ref=$!
    pids=$ref
    i=0
    # It listens before it says it waits for the sign-ons.
    until grep -q 'sign on' "$d/out" 2>/dev/null; do
        kill -0 "$ref" 2>/dev/null || { tail -n 5 "$d/err" >&2; fail "argus (tcp) did not start"; }
        i=$((i + 1))
        [ $i -le 3000 ] || fail "argus (tcp) did not wait for its players in 30 s"
        sleep 0.01
    done
    k=1
    while [ $k -le "$1" ]; do
        for name in sf-a sf-b; do
            "$argus" client "tcp://127.0.0.1:$port" --engine "'$stockfish'" --name "$name" \
                --log "$d/client-$name.$k.log" >"$d/client-$name.$k.out" 2>&1 &
            pids="$pids $!"
        done
        k=$((k + 1))
    done
    rc=0
    wait "$ref" || rc=$?
    for pid in $pids; do wait "$pid" 2>/dev/null || true; done
    pids=
    [ $rc -eq 0 ] || { tail -n 5 "$d/err" >&2; fail "argus (tcp, $1 boards) exited with $rc"; }
    report "argus tcp:" "$1" "$d/games.pgn" argus --argus-logs "$d"/client-*.log \
        --argus-journals "$d"/logs/game-*/journal.log
}

run_fastchess() { # BOARDS
    d=$dir/fastchess-$1
    mkdir -p "$d"
    force=
    [ "$1" -le "$(nproc)" ] || force=-force-concurrency
    (cd "$d" && "$FASTCHESS" -engine cmd="$stockfish" name=sf-a -engine cmd="$stockfish" name=sf-b \
        -each tc="$tc" proto=uci -rounds $((games / 2)) -games 2 -concurrency "$1" $force $fastchess_startup \
        -log file="$d/fc.log" level=trace engine=true \
        -pgnout file="$d/fc.pgn" >"$d/out" 2>&1) ||
        { tail -n 5 "$d/out" >&2; fail "fastchess ($1 boards) failed"; }
    report "fastchess" "$1" "$d/fc.pgn" fastchess --fastchess-log "$d/fc.log"
}

report() { # WHO BOARDS PGN STYLE LOG-ARGS...
    who=$1 n=$2 pgn=$3 style=$4
    shift 4
    g=$(grep -c '^\[Event ' "$pgn" || true)
    python3 "$moves" --pgn "$pgn" --style "$style" --label "$n boards, $who $g games, $(forfeits "$pgn") time forfeits" "$@"
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "stockfish: $stockfish, time control $tc, $games games a run; argus: $argus"
[ -z "${FASTCHESS:-}" ] || echo "fastchess: $FASTCHESS"
for n in $boards_list; do
    for v in $via_list; do
        echo "($n boards, $v: load $(cut -d' ' -f1-3 /proc/loadavg))"
        "run_$v" "$n"
    done
done
