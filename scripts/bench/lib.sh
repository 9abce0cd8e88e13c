# scripts/bench/lib.sh: what the bench scripts share, sourced by each
# (`. scripts/bench/lib.sh` after `cd` to the project root and setting
# `me`, the script's name for its messages).

# Says what is wrong, as $me, and ends the script with status 1.
fail() {
    echo "$me: $*" >&2
    exit 1
}

# Each argument a whole number from 1 up, or the script ends saying
# "$what take(s) ..." (the first argument is what the message names).
numbers_from_one() {
    what=$1
    shift
    for n in "$@"; do
        case $n in
        '' | *[!0-9]* | 0*) echo "$me: $what take a number from 1 up" >&2; exit 2 ;;
        esac
    done
}

# Sets $argus: $ARGUS if given (it must be executable), else the release
# build, built first.
find_argus() {
    if [ -n "${ARGUS:-}" ]; then
        [ -x "$ARGUS" ] || fail "ARGUS=$ARGUS is not an executable"
        argus=$ARGUS
    else
        cargo build --release --quiet
        argus=$(pwd)/target/release/argus
    fi
}

# Sets $stockfish: $STOCKFISH, else stockfish on PATH, else Debian's
# /usr/games/stockfish.
find_stockfish() {
    if [ -n "${STOCKFISH:-}" ]; then
        stockfish=$STOCKFISH
    elif command -v stockfish >/dev/null 2>&1; then
        stockfish=$(command -v stockfish)
    elif [ -x /usr/games/stockfish ]; then
        stockfish=/usr/games/stockfish
    else
        fail "no Stockfish: install it (Debian: apt-get install stockfish) or set STOCKFISH"
    fi
}

# The one-minute load average.
load() { cut -d' ' -f1 /proc/loadavg; }

# A free TCP port on the loopback address.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Sets $dir to a new directory under $TMPDIR (default /tmp) named after
# $1, and $pids (empty: the script adds the processes it starts); at the
# exit every process in $pids is killed and waited for and $dir removed,
# or kept and named when $keep is 1.
work_dir() {
    dir=$(mktemp -d "${TMPDIR:-/tmp}/argus-bench-$1-XXXXXX")
    pids=
    trap work_dir_cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

work_dir_cleanup() {
    for pid in $pids; do kill "$pid" 2>/dev/null || true; done
    for pid in $pids; do wait "$pid" 2>/dev/null || true; done
    if [ "$keep" -eq 1 ]; then echo "kept: $dir"; else rm -rf "$dir"; fi
}

# fastchess waits 10 s for an engine's uciok by default and stops the
# match when one is late; with many boards on few cores (64 boards: 128
# engines starting at once on 2 cores) the last ones are later than
# that. argus lets at most twice the CPUs' number of programs be in their
# handshake at once (app::tournament::gate); fastchess starts them all and
# is given 5 minutes, so that both start every engine.
fastchess_startup="-startup-ms 300000"
