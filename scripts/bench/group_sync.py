#!/usr/bin/env python3
"""scripts/bench/group_sync.py [DIR] [ROUNDS]

What making N journals durable together costs, one loop turn's worth:
N files (one per board) each get a 100-byte line appended, then are made
durable in one of three ways, the ways alternated round by round:

* seq:     fdatasync each file, one after another (one sync per dirty
           journal, on the loop's thread);
* threads: fdatasync each file on a pool of 8 threads at once (the file
           system's journal may commit them together);
* syncfs:  one syncfs(2) of the file system that holds them (covers every
           file written in the turn, and whatever else is dirty there).

Prints the median and p90 time of one turn per way and N, and the
machine's load. DIR defaults to target/tmp (the disk the journals go to
in the benchmarks); ROUNDS to 200.
"""

import ctypes
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

libc = ctypes.CDLL(None, use_errno=True)


def syncfs(fd):
    if libc.syncfs(fd) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else "target/tmp"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    os.makedirs(base, exist_ok=True)
    line = b"in 123456 line A 86 refreq reply; sm e4; 1234abcd " + b"x" * 49 + b"\n"
    pool = ThreadPoolExecutor(max_workers=8)
    print(
        f"load {open('/proc/loadavg').read().split()[:3]}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, dir {base}"
    )
    for n in (1, 10, 50, 100):
        with tempfile.TemporaryDirectory(dir=base) as d:
            fds = [
                os.open(os.path.join(d, f"j{i}"), os.O_WRONLY | os.O_CREAT | os.O_APPEND)
                for i in range(n)
            ]
            times = {"seq": [], "threads": [], "syncfs": []}
            ways = list(times)
            for r in range(rounds):
                way = ways[r % len(ways)]
                t0 = time.perf_counter()
                for fd in fds:
                    os.write(fd, line)
                if way == "seq":
                    for fd in fds:
                        os.fdatasync(fd)
                elif way == "threads":
                    list(pool.map(os.fdatasync, fds))
                else:
                    syncfs(fds[0])
                times[way].append((time.perf_counter() - t0) * 1e6)
            for fd in fds:
                os.close(fd)
            for way, ts in times.items():
                ts.sort()
                p90 = ts[int(len(ts) * 0.9)]
                print(
                    f"N={n:3} {way:8} median {statistics.median(ts):8.0f} us"
                    f"  p90 {p90:8.0f} us  per file {statistics.median(ts) / n:6.0f} us"
                )
    print(f"load {open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    main()
