#!/bin/sh
# virtual-cable.sh NAME
#
# A virtual null-modem cable: two pseudo-terminals joined by socat, reachable
# as NAME.a and NAME.b (symbolic links to /dev/pts/N). Whatever is written to
# one end is read at the other. Give NAME.a to argus and NAME.b to a client.
#
# Prints both link paths once they exist, then stays in the foreground until
# killed (Ctrl-C or kill PID); socat then removes the links.
#
# Needs socat. Uses the `rawer` option when socat has it (1.7.3 and later),
# else `raw,echo=0`.
set -eu

if [ $# -ne 1 ] || [ -z "$1" ]; then
    echo "usage: $0 NAME   (creates NAME.a and NAME.b)" >&2
    exit 2
fi
name=$1
a="$name.a"
b="$name.b"

if ! command -v socat >/dev/null 2>&1; then
    echo "$0: socat is not installed (e.g. apt-get install socat)" >&2
    exit 1
fi

for link in "$a" "$b"; do
    if [ -e "$link" ]; then
        echo "$0: $link already exists (another cable running?)" >&2
        exit 1
    fi
    # A dangling link left by a killed socat is safe to replace.
    [ -L "$link" ] && rm -f "$link"
done

if socat -hhh 2>/dev/null | grep -qw rawer; then
    mode=rawer
else
    mode="raw,echo=0"
fi

socat -d -d "PTY,$mode,link=$a" "PTY,$mode,link=$b" &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; exit 0' INT TERM HUP

# Wait (at most 10 s) for both links.
tries=0
while [ ! -e "$a" ] || [ ! -e "$b" ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
        echo "$0: socat exited before the links appeared" >&2
        wait "$pid" || true
        exit 1
    fi
    tries=$((tries + 1))
    if [ "$tries" -gt 100 ]; then
        echo "$0: $a and $b did not appear within 10 s" >&2
        kill "$pid" 2>/dev/null || true
        exit 1
    fi
    sleep 0.1
done

echo "$a -> $(readlink "$a")"
echo "$b -> $(readlink "$b")"
echo "virtual cable up (socat pid $pid); stop it with Ctrl-C or: kill $$"
wait "$pid"
