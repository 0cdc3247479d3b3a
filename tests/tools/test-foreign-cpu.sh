#!/bin/sh
# tests/foreign_cpu.py, which tells the fault tests whether a second job shared the cores: the
# command's own CPU time is not foreign, that of a daemon it leaves behind (setsid, not waited for,
# as Open MPI's remote orted) included; a busy process beside the command is; the command's exit
# status passes through. Each figure is compared with a run beside it, never with a speed.
#
# Environment: FABPERF_TESTS_DIR [tests], PYTHON3 [python3]. Exit status: 0 pass, 1 failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tests=${FABPERF_TESTS_DIR:-$here/..}
PY=${PYTHON3:-python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/fabperf-foreign.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
# spin N: a shell command that keeps one core busy for N to N + 1 seconds
# shellcheck disable=SC2016 # expanded by the shell that runs it
spin() { echo 'end=$(($(date +%s) + '"$1"')); while [ "$(date +%s)" -lt "$end" ]; do :; done'; }

# own: two spinning processes of the command, one a daemon (setsid, its parent gone at once);
# idle: the command sleeps 2 s. Beside: a process spinning through it, started outside the command.
"$PY" "$tests/foreign_cpu.py" "$work/own" sh -c "(setsid sh -c '$(spin 2)' &); $(spin 2)"
"$PY" "$tests/foreign_cpu.py" "$work/idle" sleep 2
sh -c "$(spin 3)" &
"$PY" "$tests/foreign_cpu.py" "$work/beside" sleep 2
wait
own=$(cat "$work/own") idle=$(cat "$work/idle") beside=$(cat "$work/beside")
echo "foreign share: own spinning $own, idle $idle, beside a spinning process $beside ($(nproc) cores)"
"$PY" -c "import sys; sys.exit(0 if $own <= $idle + 0.2 else 1)" ||
    { echo "FAIL: the command's own CPU (a daemon's included) counted as foreign"; fail=1; }
"$PY" -c "import sys; sys.exit(0 if $beside >= min(0.9, 1 / $(nproc)) - 0.15 else 1)" ||
    { echo "FAIL: a process spinning beside the command not counted"; fail=1; }
"$PY" "$tests/foreign_cpu.py" "$work/rc" sh -c 'exit 3'
rc=$?
[ "$rc" -eq 3 ] || { echo "FAIL: exit status $rc, expected the command's 3"; fail=1; }
[ "$fail" -eq 0 ] && echo "PASS: foreign_cpu.py"
exit "$fail"
