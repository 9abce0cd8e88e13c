#!/usr/bin/env python3
"""What a referee charged each engine move against the engine's own time.

scripts/bench/fairness_moves.py --pgn GAMES.PGN --style argus|fastchess
                                 (--argus-logs LOG... | --fastchess-log LOG)

Used by scripts/bench/fairness_engines.sh (issue 35's fairness figure).

For every move of every game in the PGN, the time the referee charged it
(argus: `[%emt h:mm:ss.mmm]`; fastchess: the `0.123s` after the score in
its comment), and from the engines' traffic the engine's own time for the
same search: the `time` of the last `info` line before its `bestmove`
(what the engine itself measured). The difference, charged - own, is what
the referee charged the engine for time that was not its search: its
pipes, its threads, its waits for a core. Printed: how many moves were
matched, and the difference's median, p90, p99 and max in ms.

A search is matched to its move by the position it was asked about and
the move it gave (the `position` command's moves plus its `bestmove`);
the same key on two searches or two moves (the first moves of games
that repeat) is left out, as is a move with no `info ... time`.

Engine traffic, one file per engine instance:
* argus (`engine-NAME.log`, `engine-NAME.K.log`; an `argus client --log`
  file): `  SSS.mmm > position ...`, `  SSS.mmm < info ...`;
* fastchess (`-log file=F level=trace engine=true`): one file for all;
  a stream is a game thread's engine: `[Engine] [time] <THREAD> NAME <--- position ...`
  and `... NAME ---> info ...`.

Needs python-chess (pip install chess) to turn the PGN's SAN into UCI.
"""

import argparse
import re
import sys

import chess
import chess.pgn


def searches_argus(path):
    """(key, own ms) for each search in an argus engine log."""
    stream = Stream()
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"\s*\d+\.\d+ ([<>]) (.*)$", line.rstrip("\n"))
            if m:
                stream.see(m.group(1) == ">", m.group(2))
    return stream.found


FC_LINE = re.compile(r"\[Engine\s*\] \[[^\]]*\] <\s*([^>]*)> (.*?) (<---|--->) (.*)$")


def searches_fastchess(path):
    """(key, own ms) for each search in a fastchess log, by stream."""
    streams = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = FC_LINE.match(line.rstrip("\n"))
            if not m:
                continue
            thread, name, arrow, text = m.groups()
            if name.startswith("<stderr>"):
                continue
            s = streams.setdefault((thread, name), Stream())
            s.see(arrow == "<---", text)
    return [x for s in streams.values() for x in s.found]


class Stream:
    """One engine instance's traffic, in order."""

    def __init__(self):
        self.position = None
        self.own = None
        self.found = []

    def see(self, to_engine, text):
        words = text.split()
        if not words:
            return
        if to_engine:
            if words[0] == "position":
                self.position = position_key(words)
            elif words[0] == "go":
                self.own = None
            return
        if words[0] == "info" and "time" in words:
            i = words.index("time")
            if i + 1 < len(words) and words[i + 1].isdigit():
                self.own = int(words[i + 1])
        elif words[0] == "bestmove" and len(words) > 1 and self.position is not None:
            if self.own is not None:
                self.found.append((self.position + (words[1],), self.own))
            self.own = None


def position_key(words):
    """`position startpos moves a b` -> ('startpos', 'a', 'b')."""
    if len(words) > 1 and words[1] == "startpos":
        start = "startpos"
        rest = words[2:]
    elif len(words) > 1 and words[1] == "fen":
        rest = words[2:]
        fen = []
        while rest and rest[0] != "moves":
            fen.append(rest.pop(0))
        start = " ".join(fen)
    else:
        return None
    if rest and rest[0] == "moves":
        rest = rest[1:]
    return (start,) + tuple(rest)


EMT = re.compile(r"\[%emt (\d+):(\d+):(\d+(?:\.\d+)?)\]")
FC_TIME = re.compile(r"(?:^|\s)(\d+\.\d{3})s(?:[,\s]|$)")


def charged_ms(comment, style):
    if style == "argus":
        m = EMT.search(comment)
        if not m:
            return None
        h, mi, s = m.groups()
        return round((int(h) * 3600 + int(mi) * 60 + float(s)) * 1000)
    if comment.strip().startswith("book"):
        return None
    m = FC_TIME.search(comment)
    return round(float(m.group(1)) * 1000) if m else None


def moves_of(pgn_path, style):
    """(key, charged ms) for each move of each game."""
    found = []
    with open(pgn_path, encoding="utf-8", errors="replace") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            board = game.board()
            start = "startpos" if board.fen() == chess.STARTING_FEN else board.fen()
            ucis = []
            for node in game.mainline():
                ucis.append(node.move.uci())
                c = charged_ms(node.comment, style)
                if c is not None:
                    found.append(((start,) + tuple(ucis), c))
    return found


def hops_of(journal):
    """For each reply with `Asearch` in an argus game journal: the time
    argus measured for the move (the respond's `sent` to the reply's
    `line`) minus the engine's own time the bridge sent (`Asearch`):
    argus's own hops, which the referee credits to programs it runs."""
    sent = {}
    hops = []
    with open(journal, encoding="utf-8", errors="replace") as f:
        for line in f:
            w = line.split()
            if len(w) < 5 or w[0] != "in" or not w[1].isdigit():
                continue
            at, kind, who = int(w[1]), w[2], w[3]
            if kind == "sent":
                sent[who] = at
            elif kind == "line" and "refreq\\x20reply" in line and who in sent:
                m = re.search(r"Asearch\\x20(\d+);", line)
                if m:
                    hops.append(at - sent[who] - int(m.group(1)))
    return hops


def summary(xs):
    xs = sorted(xs)
    return (
        f"median {quantile(xs, 0.5)}, p90 {quantile(xs, 0.9)},"
        f" p99 {quantile(xs, 0.99)}, max {xs[-1]}"
    )


def unique(pairs):
    seen = {}
    for k, v in pairs:
        seen.setdefault(k, []).append(v)
    return {k: v[0] for k, v in seen.items() if len(v) == 1}


def quantile(xs, q):
    """The q-quantile of sorted xs, nearest rank."""
    if not xs:
        return float("nan")
    i = min(len(xs) - 1, max(0, int(round(q * len(xs) + 0.5)) - 1))
    return xs[i]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pgn", required=True)
    p.add_argument("--style", choices=["argus", "fastchess"], required=True)
    p.add_argument("--argus-logs", nargs="*", default=[])
    p.add_argument("--fastchess-log")
    p.add_argument("--label", default="")
    p.add_argument("--argus-journals", nargs="*", default=[])
    a = p.parse_args()
    searches = []
    for log in a.argus_logs:
        searches += searches_argus(log)
    if a.fastchess_log:
        searches += searches_fastchess(a.fastchess_log)
    own = unique(searches)
    moves = unique(moves_of(a.pgn, a.style))
    diffs = sorted(c - own[k] for k, c in moves.items() if k in own)
    if not diffs:
        print(f"{a.label}: no move matched ({len(moves)} moves, {len(searches)} searches)")
        return 1
    print(
        f"{a.label}: {len(diffs)} of {len(moves)} moves matched; charged - engine's own time (ms):"
        f" {summary(diffs)}"
    )
    hops = [h for j in a.argus_journals for h in hops_of(j)]
    if hops:
        print(
            f"{a.label}: argus's own hops (measured - Asearch, ms; credited to engine: players only), {len(hops)} moves:"
            f" {summary(hops)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
