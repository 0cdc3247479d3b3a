#!/bin/sh
# Is a change neutral for speed? Runs bench/overhead.sh (one round each) for two builds, in the
# order A B B A repeated PAIRS times, so that drift over time favours neither, and prints each
# run's table under its build's name.
# Usage: bench/overhead-compare.sh BUILD-A BUILD-B   (environment: PAIRS, default 1)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 2 ] || { echo "usage: $0 BUILD-A BUILD-B" >&2; exit 2; }
a=$1 b=$2
pairs=${PAIRS:-1}
run() { # NAME BUILD
    echo "=== $1 ($2)"
    ROUNDS=1 "$here/overhead.sh" "$2"
}
i=1
while [ "$i" -le "$pairs" ]; do
    run A "$a"
    run B "$b"
    run B "$b"
    run A "$a"
    i=$((i + 1))
done
