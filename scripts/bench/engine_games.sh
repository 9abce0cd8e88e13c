#!/bin/sh
# scripts/bench/engine_games.sh [--pairs N] [--games N] [--depth N | --tc TC]
#                                [--via cables|engines] [--concurrency N]
#                                [--openings EPD] [--keep]
#
# Engine games (issue 20): Stockfish against Stockfish at a fixed depth
# (default 1), refereed by argus and by fastchess, interleaved, and the
# time each takes per ply.
#
# * argus: the release `argus referee A.ref B.ref --headless --games N`
#   (untimed, --reset-delay 0 --conclude-delay 0, with its PGN, journal,
#   transcript and log in a temporary directory, as at an event) and two
#   `argus client --engine STOCKFISH --depth D` on the other ends of two
#   socat cables (`socat pty,raw,echo=0,link=A.ref pty,raw,echo=0,link=A.cli`).
# * fastchess: one process, the engines on pipes, `-each tc=inf depth=D
#   proto=uci -rounds N/2 -games 2 -concurrency 1`, its PGN beside it.
#
# Each run is timed from its start (the referee's, the cables already up;
# fastchess's) to the moment its last game's result line is read from its
# output (each output line is stamped as it comes): so both include
# starting the engines and every game, and neither the shutdown.
# fastchess looks for the end of its tournament once a second (the 1 s
# sleep loop of RoundRobin::start), so its exit comes up to 1 s after its
# last game: timed to its exit, 20 and 30 games from the initial position
# both took 2.2 s (2 and 10 games 1.2 s). The time to each one's exit (for
# argus: the referee's and both clients') is printed too, with its ratio.
# The plies are counted in each run's PGN (each referee's own PlyCount
# tags must agree). ms per ply = time / plies. Per pair it prints both and the
# ratio argus/fastchess; and each referee's own CPU (user + system of its
# process and its threads, not its children) per ply, from /proc, with
# its ratio; at the end the median ratios. The pairs alternate
# which of the two goes first.
#
# Both play every game from the initial position unless --openings gives an
# EPD file (one position a line, N/2 of them, each played with both
# colours, in file order). Stockfish at a fixed depth is deterministic, so from the
# initial position the games repeat: a benchmark of the referees, not of
# the engines. UCI engines never claim draws: argus plays a repeated
# position on to fivefold repetition (or the 75-move rule), where fastchess
# stops at threefold (or 50 moves), so drawn games run longer under argus;
# the figure is per ply.
#
#   FASTCHESS  the fastchess binary (required; build it from its public
#              source, https://github.com/Disservin/fastchess, `make -j`)
#   STOCKFISH  the Stockfish binary (default: stockfish on PATH, else
#              /usr/games/stockfish)
#   ARGUS      the argus binary to measure (default: the release build,
#              built first), e.g. a copy of an earlier build
#   TMPDIR     where the runs' files go (default /tmp; the line "files:"
#              names its file system). argus syncs its journal before each
#              relayed move: on disk that is part of its time per ply,
#              /dev/shm (tmpfs) leaves it out.
#
# --pairs N   argus/fastchess pairs (default 3)
# --games N   games per run, even (default 20)
# --depth N   search depth (default 1)
# --tc TC     play at this time control instead of a fixed depth (2+0.02,
#             10+0.1: the controls testers use): both referees get the
#             same control (argus --tc TC, fastchess tc=TC); per run the
#             time forfeits of each (PGN Termination "time forfeit") and
#             the wall time are printed, and the ratio of wall times
# --via W     how argus reaches the engines: cables (default: the referee
#             and two `argus client --engine` on socat cables) or engines
#             (`argus tournament engine:sf-a=... engine:sf-b=...`, the
#             engines on pipes as fastchess has them; untimed with
#             --depth D as each player's `--depth NAME:D`)
# --concurrency N  games at once (default 1; needs --via engines): argus
#             `--boards N` (each engine started once per board), fastchess
#             `-concurrency N`; the run ends at the last result, whichever
#             game it is
# --openings EPD  start positions for both (default: the initial position)
# --keep      keep the temporary directory (PGNs, logs) and print its path
#
# Needs socat and a Stockfish. Run from anywhere; it builds the release
# binary first.
set -eu
cd "$(dirname "$0")/../.."

me=engine_games
. scripts/bench/lib.sh
pairs=3
games=20
depth=1
tc=
via=cables
openings=
concurrency=1
keep=0
usage() {
    echo "usage: $0 [--pairs N] [--games N] [--depth N | --tc TC] [--via cables|engines] [--openings EPD] [--keep]" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case $1 in
    --pairs) [ $# -ge 2 ] || usage; pairs=$2; shift 2 ;;
    --games) [ $# -ge 2 ] || usage; games=$2; shift 2 ;;
    --depth) [ $# -ge 2 ] || usage; depth=$2; shift 2 ;;
    --tc) [ $# -ge 2 ] || usage; tc=$2; shift 2 ;;
    --via) [ $# -ge 2 ] || usage; via=$2; shift 2 ;;
    --openings) [ $# -ge 2 ] || usage; openings=$2; shift 2 ;;
    --concurrency) [ $# -ge 2 ] || usage; concurrency=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    *) usage ;;
    esac
done
for n in "$pairs" "$games" "$depth" "$concurrency"; do
    case $n in
    '' | *[!0-9]* | 0*) echo "$me: --pairs, --games, --depth and --concurrency take a number from 1 up" >&2; exit 2 ;;
    esac
done
case $via in
cables | engines) ;;
*) echo "$me: --via takes cables or engines" >&2; exit 2 ;;
esac
if [ "$concurrency" -gt 1 ] && [ "$via" != engines ]; then
    echo "$me: --concurrency needs --via engines (two cables play one game at a time)" >&2
    exit 2
fi
case $tc in
*[!0-9.+/:]*) echo "$me: --tc takes a time control such as 2+0.02 or 10+0.1" >&2; exit 2 ;;
esac
if [ $((games % 2)) -ne 0 ]; then
    echo "$me: --games must be even (fastchess plays each opening with both colours)" >&2
    exit 2
fi


# What is needed, each missing one named.
[ -n "${FASTCHESS:-}" ] || fail "set FASTCHESS to a fastchess binary (build it from https://github.com/Disservin/fastchess)"
[ -x "$FASTCHESS" ] || fail "FASTCHESS=$FASTCHESS is not an executable file"
find_stockfish
[ -x "$stockfish" ] || fail "Stockfish $stockfish is not an executable file"
command -v socat >/dev/null 2>&1 || fail "socat not found (the cables are socat pseudo-terminals)"
if [ -n "$openings" ]; then
    [ -r "$openings" ] || fail "cannot read the openings file $openings"
    openings=$(cd "$(dirname "$openings")" && pwd)/$(basename "$openings")
fi
case $(date +%s%N) in
*N) fail "date cannot print nanoseconds (GNU date is needed)" ;;
esac

find_argus
[ -x "$argus" ] || fail "no release binary at $argus"

dir=$(mktemp -d "${TMPDIR:-/tmp}/argus-bench-engines-XXXXXX")
# What runs: the referee, the clients or fastchess ($pids), and the socat
# cables ($cables), stopped after the others (a referee whose cables go
# at the same time as its SIGTERM takes 3 s to end).
pids=
cables=
stop() {
    for pid in "$@"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "$@"; do
        wait "$pid" 2>/dev/null || true
    done
}
cleanup() {
    # shellcheck disable=SC2086 # lists of process ids
    stop $pids
    # shellcheck disable=SC2086
    stop $cables
    pids=
    cables=
    if [ $keep -eq 1 ]; then
        echo "kept: $dir"
    else
        rm -rf "$dir"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

now_ns() { date +%s%N; }

# Copies standard input to standard output, each line after the time it
# was read (ns).
stamp() {
    while IFS= read -r line; do
        printf '%s %s\n' "$(now_ns)" "$line"
    done
}

# Makes the fifo $1 a run's output goes to, and stamps what comes out of
# it into $2 in the background ($st, the first of $pids).
start_stamp() {
    mkfifo "$1"
    stamp <"$1" >"$2" &
    st=$!
    pids=$st
}

# Waits for a run's process $1, then for its stamped output; sets $t2 (the
# exit). When it failed: the tail of the files after $2, and "$2 exited".
await_run() {
    rc=0
    wait "$1" || rc=$?
    t2=$(now_ns)
    wait "$st" || true
    pids=
    if [ $rc -ne 0 ]; then
        what=$2
        shift 2
        tail -n 5 "$@" >&2
        fail "$what exited with $rc"
    fi
}

# Samples process $1's own CPU time (user + system of all its threads,
# not its children: the engines and the clients are not in it) into $2
# every 0.1 s while it runs: the last sample, taken at most 0.1 s before
# it is reaped (a finished process keeps its figures until then), is the
# run's CPU in clock ticks.
cpu_watch() {
    while [ -r "/proc/$1/stat" ]; do
        t=$(awk '{ print $14, $15 }' "/proc/$1/stat" 2>/dev/null) || break
        [ -z "$t" ] || echo "$t" >"$2"
        sleep 0.1
    done
}

# After await_run: sets $cpu_us, the run's process's CPU (µs) as its
# cpu_watch $cw last sampled it in $1, and of it $sys_us, the kernel's
# part (system calls: the journal's syncs and writes, the wakeups).
cpu_of() {
    wait "$cw" 2>/dev/null || true
    cpu_us=$(awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", ($1 + $2) * 1000000 / hz }' "$1" 2>/dev/null)
    sys_us=$(awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", $2 * 1000000 / hz }' "$1" 2>/dev/null)
    [ -n "$cpu_us" ] || cpu_us=0
    [ -n "$sys_us" ] || sys_us=0
}

# Waits (up to 10 s) until each file named exists.
wait_for() {
    i=0
    for f in "$@"; do
        while [ ! -e "$f" ]; do
            i=$((i + 1))
            [ $i -le 500 ] || fail "timed out waiting for $f"
            sleep 0.02
        done
    done
}

# The plies of a PGN file: the movetext's moves, without tags, comments,
# move numbers and results.
plies() {
    # Tag pairs only: a comment wrapped onto a line of its own may start
    # with `[%clk` or `[%emt` and is movetext.
    grep -vE '^\[[A-Za-z0-9_]+ +"' "$1" | tr '\n' ' ' | sed 's/{[^}]*}//g' | tr ' ' '\n' |
        sed 's/^[0-9][0-9]*\.\.*//' | grep -cEv '^$|^(1-0|0-1|1/2-1/2|\*)$' || true
}

# A run's figures: sets $n_plies, $games_ms (to the last result) and
# $exit_ms (to the exit). (The runs are not in command substitutions: a
# subshell would not share $pids with the trap.)
figures() { # PGN START_NS LAST_RESULT_NS EXIT_NS
    g=$(grep -c '^\[Event ' "$1" || true)
    [ "$g" -eq "$games" ] || fail "$1 holds $g games, not $games"
    [ -n "$3" ] || fail "no time for the last result of $1"
    n_plies=$(plies "$1")
    # The referee's own count (its PlyCount tags) must agree with ours.
    own=$(sed -n 's/^\[PlyCount "\([0-9]*\)"\]/\1/p' "$1" | awk '{ s += $1 } END { print s + 0 }')
    [ "$own" -eq "$n_plies" ] || fail "$1: $n_plies plies counted, its PlyCount tags say $own"
    forfeits=$(grep -c '^\[Termination "time forfeit"\]' "$1" || true)
    games_ms=$((($3 - $2) / 1000000))
    exit_ms=$((($4 - $2) / 1000000))
}

# One argus match in $dir/argus-$1; sets its figures.
run_argus() {
    d=$dir/argus-$1
    mkdir -p "$d"
    socat pty,raw,echo=0,link="$d/A.ref" pty,raw,echo=0,link="$d/A.cli" 2>"$d/socat-a.err" &
    sa=$!
    socat pty,raw,echo=0,link="$d/B.ref" pty,raw,echo=0,link="$d/B.cli" 2>"$d/socat-b.err" &
    sb=$!
    cables="$sa $sb"
    wait_for "$d/A.ref" "$d/A.cli" "$d/B.ref" "$d/B.cli"
    if [ -n "$openings" ]; then
        set -- --openings "$openings"
    else
        set --
    fi
    start_stamp "$d/referee.fifo" "$d/referee.out"
    t0=$(now_ns)
    "$argus" referee "$d/A.ref" "$d/B.ref" --headless --games "$games" --tc "${tc:--}" \
        --reset-delay 0 --conclude-delay 0 "$@" \
        --pgn "$d/games.pgn" --log-dir "$d/logs" >"$d/referee.fifo" 2>"$d/referee.err" &
    ref=$!
    pids="$pids $ref"
    cpu_watch "$ref" "$d/cpu" &
    cw=$!
    # The referee opens its ports (clearing what waits on them) before it
    # asks for the sign-on: the clients start after that.
    i=0
    until grep -q 'sign on' "$d/referee.out" 2>/dev/null; do
        kill -0 "$ref" 2>/dev/null || { cat "$d/referee.err" >&2; fail "the referee did not start"; }
        i=$((i + 1))
        [ $i -le 1000 ] || fail "the referee did not ask for the sign-on in 10 s"
        sleep 0.01
    done
    "$argus" client "$d/A.cli" --engine "'$stockfish'" $client_limit --name sf-a \
        >"$d/client-a.out" 2>&1 &
    ca=$!
    "$argus" client "$d/B.cli" --engine "'$stockfish'" $client_limit --name sf-b \
        >"$d/client-b.out" 2>&1 &
    cb=$!
    pids="$pids $ca $cb"
    rc=0
    wait "$ref" || rc=$?
    wait "$ca" || true
    wait "$cb" || true
    t2=$(now_ns)
    wait "$st" || true # at the end of the referee's output
    pids=
    stop "$sa" "$sb"
    cables=
    if [ $rc -ne 0 ]; then
        tail -n 5 "$d/referee.err" "$d/client-a.out" "$d/client-b.out" >&2
        fail "the argus referee exited with $rc"
    fi
    # The result line of the last game: "game N: 1-0 normal (...)".
    t1=$(awk -v g="$games:" '$2 == "game" && $3 == g && $4 ~ /^(1-0|0-1|1\/2-1\/2)$/ { t = $1 } END { print t }' "$d/referee.out")
    figures "$d/games.pgn" "$t0" "$t1" "$t2"
    cpu_of "$d/cpu"
}

# One argus tournament of two engine: players in $dir/argus-$1 (the
# engines on pipes, started by argus); sets its figures.
run_argus_engines() {
    d=$dir/argus-$1
    mkdir -p "$d"
    if [ -n "$openings" ]; then
        set -- --openings "$openings"
    else
        set --
    fi
    if [ -n "$tc" ]; then
        set -- "$@" --tc "$tc"
    else
        set -- "$@" --depth "sf-a:$depth" --depth "sf-b:$depth"
    fi
    start_stamp "$d/referee.fifo" "$d/referee.out"
    t0=$(now_ns)
    "$argus" tournament "engine:sf-a=$stockfish" "engine:sf-b=$stockfish" --headless \
        --games-per-pairing "$games" --boards "$concurrency" --reset-delay 0 --conclude-delay 0 "$@" \
        --pgn "$d/games.pgn" --log-dir "$d/logs" >"$d/referee.fifo" 2>"$d/referee.err" &
    ref=$!
    pids="$pids $ref"
    cpu_watch "$ref" "$d/cpu" &
    cw=$!
    await_run "$ref" "the argus tournament" "$d/referee.err" "$d/referee.out"
    # The last result line, once all N are in: "game K (round R.B): A - B
    # RESULT ..." (with boards, the games end in any order).
    t1=$(awk -v g="$games" '$2 == "game" && / (1-0|0-1|1\/2-1\/2)/ { n++; t = $1 } END { if (n == g) print t }' "$d/referee.out")
    figures "$d/games.pgn" "$t0" "$t1" "$t2"
    cpu_of "$d/cpu"
}

# fastchess refuses more games at once than CPUs unless forced (argus
# plays as many as --boards says).
force=
if [ "$concurrency" -gt "$(nproc)" ]; then
    force=-force-concurrency
fi

# One fastchess match in $dir/fastchess-$1; sets its figures.
run_fastchess() {
    d=$dir/fastchess-$1
    mkdir -p "$d"
    if [ -n "$openings" ]; then
        set -- -openings file="$openings" format=epd order=sequential
    else
        set --
    fi
    start_stamp "$d/fastchess.fifo" "$d/fastchess.out"
    t0=$(now_ns)
    # In its directory: it writes its config.json where it runs. In the
    # background, so that a signal reaches the trap at once.
    (cd "$d" && exec "$FASTCHESS" -engine cmd="$stockfish" name=sf-a \
        -engine cmd="$stockfish" name=sf-b -each $fastchess_limit proto=uci \
        -rounds $((games / 2)) -games 2 -concurrency "$concurrency" $force $fastchess_startup "$@" \
        -pgnout file="$d/fc.pgn" >"$d/fastchess.fifo" 2>&1) &
    fc=$!
    pids="$pids $fc"
    cpu_watch "$fc" "$d/cpu" &
    cw=$!
    await_run "$fc" fastchess "$d/fastchess.out"
    # "Finished game N (...)": the last of them, once all N are in.
    t1=$(awk -v g="$games" '$2 == "Finished" && $3 == "game" { n++; t = $1 } END { if (n == g) print t }' "$d/fastchess.out")
    figures "$d/fc.pgn" "$t0" "$t1" "$t2"
    cpu_of "$d/cpu"
}

ms_per_ply() { echo "$1 $2" | awk '{ printf "%.3f", $1 / $2 }'; }
ratio() { echo "$1 $2 $3 $4" | awk '{ printf "%.3f", ($1 / $2) / ($3 / $4) }'; }
median() { sort -n | awk '{ r[NR] = $1 } END { printf "%.3f", (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2 }'; }

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
if [ -n "$tc" ]; then
    limit="time control $tc"
    client_limit=
    fastchess_limit="tc=$tc"
else
    limit="depth $depth"
    client_limit="--depth $depth"
    fastchess_limit="tc=inf depth=$depth"
fi
echo "stockfish: $stockfish ($(echo quit | "$stockfish" 2>/dev/null | head -n 1)), $limit; argus via $via"
echo "fastchess: $FASTCHESS ($("$FASTCHESS" -version 2>/dev/null | head -n 1))"
echo "concurrency: $concurrency game(s) at once"
echo "files: $dir ($(df -PT "$dir" | awk 'NR == 2 { print $2 }')); $games games a run from ${openings:-the initial position}"

: >"$dir/ratios"
pair=1
while [ $pair -le "$pairs" ]; do
    if [ $((pair % 2)) -eq 1 ]; then order="argus fastchess"; else order="fastchess argus"; fi
    for which in $order; do
        case $which in
        argus)
            if [ "$via" = engines ]; then run_argus_engines "$pair"; else run_argus "$pair"; fi
            a_plies=$n_plies a_ms=$games_ms a_exit=$exit_ms a_forfeits=$forfeits a_cpu=$cpu_us a_sys=$sys_us
            ;;
        fastchess)
            run_fastchess "$pair"
            f_plies=$n_plies f_ms=$games_ms f_exit=$exit_ms f_forfeits=$forfeits f_cpu=$cpu_us f_sys=$sys_us
            ;;
        esac
    done
    ratio=$(ratio "$a_ms" "$a_plies" "$f_ms" "$f_plies")
    ratio_exit=$(ratio "$a_exit" "$a_plies" "$f_exit" "$f_plies")
    wall=$(echo "$a_ms $f_ms" | awk '{ printf "%.3f", $1 / $2 }')
    cpu_ratio=$(ratio "$a_cpu" "$a_plies" "$f_cpu" "$f_plies")
    echo "$ratio $ratio_exit $wall $cpu_ratio" >>"$dir/ratios"
    if [ -n "$tc" ]; then
        echo "pair $pair: time forfeits argus $a_forfeits of $games, fastchess $f_forfeits of $games;" \
            "wall time argus $a_ms ms, fastchess $f_ms ms: ratio $wall"
    fi
    echo "pair $pair: argus $a_plies plies in $a_ms ms: $(ms_per_ply "$a_ms" "$a_plies") ms/ply" \
        "(to exit $a_exit ms); fastchess $f_plies plies in $f_ms ms: $(ms_per_ply "$f_ms" "$f_plies") ms/ply" \
        "(to exit $f_exit ms); ratio $ratio (to exit $ratio_exit)"
    echo "pair $pair: referee CPU (its own process, not the engines'): argus $(ms_per_ply "$a_cpu" "$a_plies") µs/ply," \
        "fastchess $(ms_per_ply "$f_cpu" "$f_plies") µs/ply; ratio $cpu_ratio"
    echo "pair $pair: of it the kernel's (system time): argus $(ms_per_ply "$a_sys" "$a_plies") µs/ply," \
        "fastchess $(ms_per_ply "$f_sys" "$f_plies") µs/ply"
    pair=$((pair + 1))
done
if [ -n "$tc" ]; then
    echo "argus/fastchess wall time: median ratio $(cut -d' ' -f3 "$dir/ratios" | median) of $pairs pairs"
fi
echo "argus/fastchess per ply: median ratio $(cut -d' ' -f1 "$dir/ratios" | median) of $pairs pairs" \
    "(to exit: $(cut -d' ' -f2 "$dir/ratios" | median))"
echo "argus/fastchess referee CPU per ply: median ratio $(cut -d' ' -f4 "$dir/ratios" | median) of $pairs pairs"
