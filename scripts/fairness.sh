#!/usr/bin/env bash
# fairness.sh [THINK_MS] [SECONDS] [BAUD]
#
# The clock-fairness figure: two reference clients that think exactly
# THINK_MS (default 500) per move play through `argus wire` at BAUD (default
# 9600) 8N1 on both lines; after SECONDS (default 90) the referee is stopped
# with Ctrl-C. From the referee's byte transcript it computes, per move,
# the time from the respond's last byte out to the reply's line end
# (elapsed), the time argus charges (elapsed less the reply's wire time),
# and compares both with THINK_MS: mean and worst error.
#
# On a virtual cable the referee's port is a pseudo-terminal, which drains
# at once: the time the respond (and anything queued before it, such as an
# inform) still spends on the simulated line after the pty is therefore
# inside "elapsed" too, where a real UART's drain would have waited for
# it. The script models the line (bytes one after the other at the baud
# rate) and also reports the errors without that lag.
# Needs socat, python3 and a built argus (cargo build --release).
set -euo pipefail
cd "$(dirname "$0")/.."
T=${1:-500}
SECS=${2:-90}
BAUD=${3:-9600}
BIN=${ARGUS_BIN:-target/release/argus}
[ -x "$BIN" ] || cargo build --release
DIR=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$DIR"; }
trap cleanup EXIT
for c in ra rb ca cb; do
  socat PTY,rawer,link="$DIR/$c.1" PTY,rawer,link="$DIR/$c.2" 2>/dev/null & pids+=($!)
done
for _ in $(seq 50); do [ -e "$DIR/cb.2" ] && [ -e "$DIR/ra.1" ] && [ -e "$DIR/rb.1" ] && [ -e "$DIR/ca.2" ] && break; sleep 0.1; done
"$BIN" wire "$DIR/ra.2" "$DIR/ca.1" --baud "$BAUD" 2>/dev/null >/dev/null & pids+=($!)
"$BIN" wire "$DIR/rb.2" "$DIR/cb.1" --baud "$BAUD" 2>/dev/null >/dev/null & pids+=($!)
sleep 0.5
"$BIN" client "$DIR/ca.2" --baud "$BAUD" --think-ms "$T" --seed 1 2>/dev/null & pids+=($!)
"$BIN" client "$DIR/cb.2" --baud "$BAUD" --think-ms "$T" --seed 2 --mover greedy 2>/dev/null & pids+=($!)
"$BIN" referee "$DIR/ra.1" "$DIR/rb.1" --baud "$BAUD" --headless --games 1000 \
  --reset-delay 0.5 --conclude-delay 0.5 --log-dir "$DIR/logs" >/dev/null 2>&1 & ref=$!
sleep "$SECS"
kill -INT "$ref"; wait "$ref" || true
python3 - "$DIR/logs/transcript.log" "$T" "$BAUD" <<'PY'
import re, sys
path, think, baud = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def unescape(s):
    return re.sub(r'\\x([0-9a-fA-F]{2})', lambda m: chr(int(m.group(1), 16)), s)
def wire_ms(n):  # 8N1: 10 bits per character, rounded down as argus does
    return n * 10 * 1000 // baud
out = {}
busy = {}  # per port: when the simulated line has carried all bytes sent so far
rows = []
for line in open(path, encoding='latin-1'):
    parts = line.rstrip('\n').split(' ', 4)
    if len(parts) < 5:
        continue
    t = float(parts[0]) * 1000
    port, d, raw = parts[2], parts[3], unescape(parts[4])
    if d == '>':
        busy[port] = max(busy.get(port, 0.0), t) + len(raw) * 10 * 1000 / baud
    if d == '>' and 'refcom respond;' in raw:
        out[port] = (t, busy[port] - t)
    elif d == '<' and 'refreq reply;' in raw and port in out:
        t0, lag = out.pop(port)
        elapsed = t - t0
        rows.append((elapsed, elapsed - wire_ms(len(raw)), lag))
if not rows:
    sys.exit("no moves found in the transcript")
def stats(errs):
    s = sorted(errs)
    return sum(errs) / len(errs), s[len(s) // 2], max(errs, key=abs)
without = stats([e - think for e, c, r in rows])
withc = stats([c - think for e, c, r in rows])
withc_net = stats([c - r - think for e, c, r in rows])
print(f"moves: {len(rows)}, think {think} ms, {baud} baud 8N1")
print(f"without credit: mean error {without[0]:+.1f} ms, median {without[1]:+.1f} ms, worst {without[2]:+.1f} ms")
print(f"with credit:    mean error {withc[0]:+.1f} ms, median {withc[1]:+.1f} ms, worst {withc[2]:+.1f} ms")
print(f"both less the time the respond (and what was queued before it) still spent on the")
print(f"simulated line after the pty had drained (an artefact of virtual cables):")
without_net = stats([e - r - think for e, c, r in rows])
print(f"without credit: mean error {without_net[0]:+.1f} ms, median {without_net[1]:+.1f} ms, worst {without_net[2]:+.1f} ms")
print(f"with credit:    mean error {withc_net[0]:+.1f} ms, median {withc_net[1]:+.1f} ms, worst {withc_net[2]:+.1f} ms")
PY
