#!/usr/bin/env python3
"""Compare argus's Dutch pairings with bbpPairings' on random tournaments.

bbpPairings (https://github.com/BieremaBoyzProgramming/bbpPairings,
Apache-2.0) is a FIDE-endorsed Dutch pairing engine. It is not part of this
repository; get and build it once:

    git clone https://github.com/BieremaBoyzProgramming/bbpPairings /tmp/bbp
    make -C /tmp/bbp            # gives /tmp/bbp/bbpPairings.exe

For each seed, bbpPairings generates a random tournament of 7 to 64 players
and 5 to 11 rounds (at most two thirds of the players), paired by itself,
with its own random results, forfeits, byes and withdrawals. Then:

* `argus swiss check` re-pairs every round of the file and must find every
  round identical to bbpPairings' pairing;
* the file is cut after a round chosen from the seed (the scores recomputed,
  the number of rounds kept), and `argus swiss pair` must print exactly what
  `bbpPairings --dutch FILE -p` prints for the next round.

Usage: scripts/swiss/compare.py [COUNT [FIRST_SEED]]
Environment: BBP (default /tmp/bbp/bbpPairings.exe), ARGUS (default
target/release/argus), WORK (default a new temporary directory; the files of
tournaments that differ are kept there).

Prints a line per tournament that differs and a summary; exit status 1 if
any differs.
"""

import os
import random
import subprocess
import sys
import tempfile

BBP = os.environ.get("BBP", "/tmp/bbp/bbpPairings.exe")
ARGUS = os.environ.get("ARGUS", "target/release/argus")

# Points in tenths of each TRF result letter (bbpPairings' default point
# system: a win and the pairing-allocated bye 1, a draw 1/2).
POINTS = {"1": 10, "+": 10, "W": 10, "F": 10, "U": 10, "=": 5, "D": 5, "H": 5}


def cut(text, rounds_kept, total_rounds):
    """The TRF text with only the first `rounds_kept` rounds, scores
    recomputed, and the number of rounds given."""
    out = ["XXR %d" % total_rounds]
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if not line.startswith("001"):
            if line.strip() and not line.startswith(("XXR", "142")):
                out.append(line)
            continue
        end = 91 + 10 * rounds_kept - 2
        kept = line[:end].rstrip()
        score = 0
        for r in range(rounds_kept):
            at = 91 + 10 * r + 7
            if at < len(kept):
                score += POINTS.get(kept[at].upper(), 0)
        score_text = "%d.%d" % (score // 10, score % 10)
        kept = kept.ljust(84)
        kept = kept[:80] + score_text.rjust(4) + kept[84:]
        out.append(kept.rstrip())
    return "\n".join(out) + "\n"


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    if not os.access(BBP, os.X_OK):
        sys.exit("compare.py: no bbpPairings at %s (see the top of this script)" % BBP)
    if not os.access(ARGUS, os.X_OK):
        sys.exit("compare.py: no argus at %s (cargo build --release)" % ARGUS)
    work = os.environ.get("WORK") or tempfile.mkdtemp(prefix="argus-swiss-")
    os.makedirs(work, exist_ok=True)
    checked = same = not_generated = pairs_same = pairs_checked = 0
    for seed in range(first, first + count):
        rng = random.Random(seed)
        players = rng.randint(7, 64)
        rounds = min(rng.randint(5, 11), players * 2 // 3)
        config = os.path.join(work, "config-%d.txt" % seed)
        trf = os.path.join(work, "random-%d.trf" % seed)
        with open(config, "w") as f:
            f.write("PlayersNumber=%d\nRoundsNumber=%d\n" % (players, rounds))
        gen = subprocess.run([BBP, "--dutch", "-g", config, "-o", trf, "-s", str(seed)],
                             capture_output=True)
        if gen.returncode != 0 or not os.path.exists(trf):
            not_generated += 1
            print("seed %d: bbpPairings could not generate a tournament (%d players, %d rounds)"
                  % (seed, players, rounds))
            continue
        checked += 1
        keep = False
        check = subprocess.run([ARGUS, "swiss", "check", trf], capture_output=True, text=True)
        if check.returncode == 0:
            same += 1
        else:
            keep = True
            print("seed %d (%d players, %d rounds): check: %s"
                  % (seed, players, rounds, (check.stdout + check.stderr).strip().splitlines()[-1]))
        with open(trf, encoding="utf-8") as f:
            text = f.read()
        kept_rounds = rng.randint(1, rounds - 1)
        part = os.path.join(work, "cut-%d.trf" % seed)
        with open(part, "w", encoding="utf-8") as f:
            f.write(cut(text, kept_rounds, rounds))
        expected = os.path.join(work, "bbp-%d.txt" % seed)
        theirs = subprocess.run([BBP, "--dutch", part, "-p", expected], capture_output=True, text=True)
        ours = subprocess.run([ARGUS, "swiss", "pair", part], capture_output=True, text=True)
        if theirs.returncode == 0:
            pairs_checked += 1
            with open(expected) as f:
                wanted = f.read()
            if ours.returncode == 0 and ours.stdout == wanted:
                pairs_same += 1
            else:
                keep = True
                print("seed %d: pair after round %d differs: %s"
                      % (seed, kept_rounds, (ours.stdout + ours.stderr).strip().splitlines()[:3]))
        elif ours.returncode == 0:
            keep = True
            print("seed %d: bbpPairings could not pair %s, argus did" % (seed, part))
        if not keep:
            for path in (config, trf, part, expected):
                if os.path.exists(path):
                    os.remove(path)
    print("check: %d of %d tournaments identical in every round; pair: %d of %d next rounds identical; "
          "%d not generated; files in %s" % (same, checked, pairs_same, pairs_checked, not_generated, work))
    sys.exit(0 if same == checked and pairs_same == pairs_checked else 1)


if __name__ == "__main__":
    main()
