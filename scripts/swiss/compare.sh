#!/bin/sh
# Compare argus's Dutch pairings with bbpPairings' on random tournaments.
#
# bbpPairings (https://github.com/BieremaBoyzProgramming/bbpPairings,
# Apache-2.0) is a FIDE-endorsed Dutch pairing engine. It generates random
# tournaments paired by itself (-g); `argus swiss check` re-pairs every
# round of each and reports any round where argus pairs differently. It is
# not part of this repository; get and build it once:
#
#   git clone https://github.com/BieremaBoyzProgramming/bbpPairings /tmp/bbp
#   make -C /tmp/bbp            # gives /tmp/bbp/bbpPairings.exe
#
# Usage: scripts/swiss/compare.sh [COUNT] [FIRST_SEED]
#   BBP      the bbpPairings binary (default /tmp/bbp/bbpPairings.exe)
#   ARGUS    the argus binary (default target/release/argus)
#   WORK     where the generated files go (default a new temporary directory;
#            files that differ are kept there)
#
# Each tournament has 7 to 64 players and 5 to 11 rounds (at most two
# thirds of the players), chosen from the seed; bbpPairings' own generator picks the
# results, forfeits, byes and withdrawals. Prints one line per tournament
# that differs and a summary "N of M tournaments identical"; the exit
# status is 1 if any differs.
set -eu

COUNT=${1:-100}
SEED=${2:-1}
BBP=${BBP:-/tmp/bbp/bbpPairings.exe}
ARGUS=${ARGUS:-target/release/argus}
WORK=${WORK:-$(mktemp -d)}

if [ ! -x "$BBP" ]; then
    echo "compare.sh: no bbpPairings at $BBP (see the comment at the top for how to build it)" >&2
    exit 2
fi
if [ ! -x "$ARGUS" ]; then
    echo "compare.sh: no argus at $ARGUS (cargo build --release)" >&2
    exit 2
fi
mkdir -p "$WORK"

same=0
differ=0
failed=0
i=0
while [ "$i" -lt "$COUNT" ]; do
    seed=$((SEED + i))
    # Players 7..64 and rounds 5..11 from the seed (a small LCG step).
    mix=$(( (seed * 1103515245 + 12345) % 2147483648 ))
    players=$(( 7 + mix % 58 ))
    rounds=$(( 5 + (mix / 58) % 7 ))
    # bbpPairings' generator gives up when a round cannot be paired, which
    # is likely when the rounds come near the players.
    if [ "$rounds" -gt $((players * 2 / 3)) ]; then
        rounds=$((players * 2 / 3))
    fi
    config="$WORK/config-$seed.txt"
    trf="$WORK/random-$seed.trf"
    printf 'PlayersNumber=%s\nRoundsNumber=%s\n' "$players" "$rounds" > "$config"
    if ! "$BBP" --dutch -g "$config" -o "$trf" -s "$seed" > /dev/null 2>&1; then
        echo "seed $seed: bbpPairings could not generate a tournament ($players players, $rounds rounds)"
        failed=$((failed + 1))
        i=$((i + 1))
        continue
    fi
    if "$ARGUS" swiss check "$trf" > "$WORK/check-$seed.txt" 2>&1; then
        same=$((same + 1))
        rm -f "$trf" "$config" "$WORK/check-$seed.txt"
    else
        differ=$((differ + 1))
        echo "seed $seed ($players players, $rounds rounds): $(tail -n 1 "$WORK/check-$seed.txt") (kept: $trf)"
    fi
    i=$((i + 1))
done

echo "$same of $((same + differ)) tournaments identical ($differ differ, $failed not generated); files in $WORK"
[ "$differ" -eq 0 ]
