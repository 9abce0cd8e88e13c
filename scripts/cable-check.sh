#!/bin/sh
# cable-check.sh END_1 END_2 [LINE OPTIONS...]
#
# Checks one serial cable whose two ends are plugged into this machine
# (e.g. two USB adapters joined by a null-modem cable): plays one quick game
# with argus referee on END_1 and an argus client on END_2; the other
# player sits on a virtual cable (socat), so one real cable is enough.
#
# LINE OPTIONS are argus serial options given to both sides, e.g.
#   --baud 19200 --flow hardware
#
# Prints the referee's lines, how many lines crossed the cable each way,
# how many arrived garbled (rejected), and the round trip from a respond
# record leaving END_1 to the reply arriving back (wire time both ways,
# adapter latency, and the client's own reaction time).
#
# Exit status 0 when the game was played and no line was garbled; 1
# otherwise; 2 for bad usage. Set ARGUS to the argus binary (default:
# argus on the PATH). Needs socat and the virtual-cable.sh script next to
# this one. Files are kept in a temporary directory (printed at the end).
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 END_1 END_2 [LINE OPTIONS...]   (e.g. /dev/ttyUSB0 /dev/ttyUSB1 --baud 19200)" >&2
    exit 2
fi
end1=$1
end2=$2
shift 2
argus=${ARGUS:-argus}
here=$(dirname "$0")

if ! command -v "$argus" >/dev/null 2>&1; then
    echo "$0: cannot run $argus (set ARGUS to the argus binary)" >&2
    exit 2
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/argus-cable-check.XXXXXX")
pids=""
cleanup() {
    for p in $pids; do
        kill "$p" 2>/dev/null || true
    done
    for p in $pids; do
        wait "$p" 2>/dev/null || true
    done
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# The second player's cable is virtual.
sh "$here/virtual-cable.sh" "$dir/v" >"$dir/virtual-cable.log" 2>&1 &
pids="$pids $!"
tries=0
while [ ! -e "$dir/v.a" ] || [ ! -e "$dir/v.b" ]; do
    tries=$((tries + 1))
    if [ "$tries" -gt 100 ]; then
        echo "$0: the virtual cable did not come up:" >&2
        cat "$dir/virtual-cable.log" >&2
        exit 1
    fi
    sleep 0.1
done

"$argus" referee "$end1" "$dir/v.a" --headless --log-dir "$dir/logs" \
    --pgn "$dir/game.pgn" --reset-delay 0.5 --conclude-delay 0.5 \
    --name-a cable --name-b virtual "$@" >"$dir/referee.out" 2>"$dir/referee.err" &
referee=$!
pids="$pids $referee"
# Let the referee open its ports before the clients sign on.
tries=0
until grep -q "referee session:" "$dir/logs/argus.log" 2>/dev/null; do
    tries=$((tries + 1))
    if ! kill -0 "$referee" 2>/dev/null || [ "$tries" -gt 100 ]; then
        echo "$0: the referee did not start:" >&2
        cat "$dir/referee.err" >&2
        exit 1
    fi
    sleep 0.1
done
"$argus" client "$end2" --seed 1 "$@" >/dev/null 2>"$dir/client-cable.err" &
pids="$pids $!"
"$argus" client "$dir/v.b" --seed 2 "$@" >/dev/null 2>"$dir/client-virtual.err" &
pids="$pids $!"

# At most 10 minutes: a long random game at a slow baud rate.
waited=0
while kill -0 "$referee" 2>/dev/null; do
    waited=$((waited + 1))
    if [ "$waited" -gt 6000 ]; then
        echo "$0: no result within 10 minutes; the cable may pass bytes one way only" >&2
        kill "$referee" 2>/dev/null || true
        break
    fi
    sleep 0.1
done
status=0
wait "$referee" || status=$?

cat "$dir/referee.out"
[ -s "$dir/referee.err" ] && cat "$dir/referee.err" >&2

# Transcript fields: secs wall port dir bytes...
awk '
    $3 == "A" && $4 == ">" { out++; if ($0 ~ /refcom respond;/) { t = $1; pending = 1 } }
    $3 == "A" && $4 == "<" { inn++; if (pending && $0 ~ /refreq reply;/) {
        d = ($1 - t) * 1000; n++; sum += d; if (d > max) max = d; pending = 0 } }
    $3 == "A" && $4 == "!" { bad++ }
    END {
        printf "cable: %d lines out, %d lines in, %d garbled\n", out, inn, bad
        if (n > 0) printf "round trip respond -> reply: %d moves, average %.0f ms, max %.0f ms\n", n, sum / n, max
        exit (bad > 0 || inn == 0)
    }
' "$dir/logs/transcript.log" || status=1

grep -Eq '^game 1: (1-0|0-1|1/2-1/2) ' "$dir/referee.out" || status=1
echo "files: $dir"
if [ "$status" -eq 0 ]; then
    echo "cable OK"
else
    echo "cable check FAILED (see $dir/logs/transcript.log)"
    exit 1
fi
