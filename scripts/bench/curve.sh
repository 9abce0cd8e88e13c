#!/bin/sh
# scripts/bench/curve.sh [--boards "1 10 50 100"] [--via "mover tcp engine"]
#                        [--games-per-board N] [--max-moves N]
#                        [--think-ms MS] [--keep]
#
# The curve of issue 35: what one referee costs as boards are added. For
# each number of boards K, a match of two instant movers played K games at
# a time (`--boards K`: each player has K instances), headless, every game
# journaled (synced before its records leave), transcribed and written to
# the PGN, under
#
# * mover: `argus tournament mover:a mover:b=greedy` (the movers are
#   argus's reference client on threads of the referee's process);
# * tcp:   `argus tournament tcp:a tcp:b --listen 127.0.0.1:PORT` and 2K
#   `argus client tcp://127.0.0.1:PORT` processes (random movers, 2K
#   connections), on the same machine;
# * engine: `argus tournament engine:a=R engine:b=R` (R the fixture UCI
#   engine, hw-tests/fixtures/uci_random.rs: a random legal move, at
#   once), 2K engine processes on pipes, each with argus's bridge.
#
# With --think-ms MS the programs think MS a move (without using the CPU:
# the tcp clients' `--think-ms`, the engine's `--think`): a steady load
# below saturation, where the relay overhead of one board's move should
# not grow with the number of boards. argus's in-process movers have no
# thinking time: --think-ms refuses mover.
#
# Per run: plies/s (the PGN's moves over the referee's wall time, start-up
# and the clients' connecting included), the relay overhead of every move
# on all boards (median, p99: the line the referee writes to its log), the
# referee's CPU time per ply (user + system; with `mover` it includes the
# movers' threads, with `tcp` the clients are other processes and not
# counted), its peak RSS (GNU time) and its RSS sampled every second (last
# sample), and the one-minute load average at the start and at the end of
# the run. The machine is shared: the figures are indicative.
#
#   ARGUS   the argus binary to measure (default: the release build,
#           built first)
#   TMPDIR  where the runs' files go (default /tmp; the journals' syncs
#           go to that disk)
#   UCI_RANDOM  the fixture engine for --via engine (default: its release
#           build, target/release/examples/uci-random, built first)
#
# --boards L           numbers of boards (default "1 10 50 100")
# --via L              mover, tcp and/or engine (default "mover tcp")
# --games-per-board N  games a run = N x K, at least 20 (default 4)
# --max-moves N        a game is drawn after N moves (default 40)
# --think-ms MS        the programs think MS a move (default 0: instant)
# --keep               keep the runs' files and print where
#
# Needs GNU time (/usr/bin/time) and python3 (for a free port).
set -eu
cd "$(dirname "$0")/../.."

me=curve
. scripts/bench/lib.sh
boards_list="1 10 50 100"
via_list="mover tcp"
per_board=4
max_moves=40
think=0
keep=0
usage() {
    echo "usage: $0 [--boards \"1 10 50 100\"] [--via \"mover tcp engine\"] [--games-per-board N] [--max-moves N] [--think-ms MS] [--keep]" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case $1 in
    --boards) [ $# -ge 2 ] || usage; boards_list=$2; shift 2 ;;
    --via) [ $# -ge 2 ] || usage; via_list=$2; shift 2 ;;
    --games-per-board) [ $# -ge 2 ] || usage; per_board=$2; shift 2 ;;
    --max-moves) [ $# -ge 2 ] || usage; max_moves=$2; shift 2 ;;
    --think-ms) [ $# -ge 2 ] || usage; think=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    *) usage ;;
    esac
done
for n in $boards_list $per_board $max_moves; do
    case $n in
    '' | *[!0-9]* | 0*) fail "--boards, --games-per-board and --max-moves take numbers from 1 up" ;;
    esac
done
case $think in
'' | *[!0-9]*) fail "--think-ms takes a number of milliseconds" ;;
esac
random=
for v in $via_list; do
    case $v in
    mover) [ "$think" -eq 0 ] || fail "argus's in-process movers do not think: --think-ms takes tcp and engine" ;;
    tcp) ;;
    engine)
        random=${UCI_RANDOM:-target/release/examples/uci-random}
        if [ -z "${UCI_RANDOM:-}" ]; then
            cargo build --release --quiet --example uci-random || fail "cannot build the fixture engine"
        fi
        [ -x "$random" ] || fail "UCI_RANDOM=$random is not an executable file"
        ;;
    *) fail "--via takes mover, tcp and engine" ;;
    esac
done
[ -x /usr/bin/time ] || fail "GNU time (/usr/bin/time) is needed"
find_argus

work_dir curve

# Samples the referee's RSS (kB) into $1/rss every second while $2 runs;
# the referee is the child of GNU time ($2).
sample_rss() { # DIR PID
    : >"$1/rss"
    sleep 0.5
    referee=$(pgrep -P "$2" | head -1 || true)
    while kill -0 "$2" 2>/dev/null; do
        if [ -n "$referee" ] && [ -r "/proc/$referee/status" ]; then
            awk '/VmRSS/ { print $2 }' "/proc/$referee/status" >>"$1/rss" 2>/dev/null || true
        fi
        sleep 1
    done
}

run() { # VIA BOARDS
    via=$1 k=$2
    d=$dir/$via-$k
    mkdir -p "$d"
    games=$((per_board * k))
    [ $games -ge 20 ] || games=20
    load0=$(load)
    # The players (and the listener) as arguments.
    case $via in
    mover) set -- mover:a mover:b=greedy ;;
    engine)
        th=
        [ "$think" -eq 0 ] || th=" --think $think"
        set -- "engine:a=$random$th" "engine:b=$random$th"
        ;;
    tcp)
        port=$(free_port)
        set -- tcp:a tcp:b --listen "127.0.0.1:$port"
        ;;
    esac
    /usr/bin/time -f '%e %U %S %M' -o "$d/time" \
        "$argus" tournament "$@" --headless --boards "$k" \
        --games-per-pairing "$games" --tc 600+0 --max-moves "$max_moves" \
        --reset-delay 0 --conclude-delay 0 \
        --log-dir "$d/logs" --pgn "$d/games.pgn" >"$d/out" 2>"$d/err" &
    ref=$!
    pids=$ref
    if [ "$via" = tcp ]; then
        i=0
        # It listens before it says it waits for the sign-ons.
        until grep -q 'sign on' "$d/out" 2>/dev/null; do
            kill -0 "$ref" 2>/dev/null || { tail -n 5 "$d/err" >&2; fail "argus (tcp, $k boards) did not start"; }
            i=$((i + 1))
            [ $i -le 3000 ] || fail "argus (tcp) did not wait for its players in 30 s"
            sleep 0.01
        done
        n=1
        while [ $n -le "$k" ]; do
            for name in a b; do
                "$argus" client "tcp://127.0.0.1:$port" --name "$name" --seed "$n" \
                    --think-ms "$think" >/dev/null 2>&1 &
                pids="$pids $!"
            done
            n=$((n + 1))
        done
    fi
    sample_rss "$d" "$ref"
    rc=0
    wait "$ref" || rc=$?
    for pid in $pids; do
        [ "$pid" = "$ref" ] || kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    pids=
    [ $rc -eq 0 ] || { tail -n 5 "$d/err" >&2; fail "argus ($via, $k boards) exited with $rc"; }
    read -r wall user sys maxrss <"$d/time"
    got=$(grep -c '^\[Event ' "$d/games.pgn" || true)
    plies=$(grep -o '\[%clk' "$d/games.pgn" | wc -l)
    relay=$(grep -ho 'relay overhead on all boards: .*' "$d/logs/argus.log" |
        sed 's/relay overhead on all boards: //' || echo "not reported")
    last=$(tail -n 1 "$d/rss" 2>/dev/null || echo "?")
    echo "$via, $k boards: $got games, $plies plies in $wall s: $(echo "$plies / $wall" | bc -l | cut -c1-7) plies/s;" \
        "relay overhead: $relay;" \
        "cpu $(echo "($user + $sys) * 1000000 / $plies" | bc -l | cut -c1-6) µs/ply (user $user s, sys $sys s);" \
        "rss peak $maxrss kB, last sample $last kB; load $load0 -> $(load)"
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores;" \
    "$(date -u '+%Y-%m-%d %H:%M UTC'); files in ${TMPDIR:-/tmp}; argus: $argus"
echo "each run: $per_board games a board (at least 20), --max-moves $max_moves, --tc 600+0, the programs thinking $think ms a move"
for k in $boards_list; do
    for v in $via_list; do
        run "$v" "$k"
    done
done
