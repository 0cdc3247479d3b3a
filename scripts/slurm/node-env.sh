#!/bin/sh
# node-env.sh PROGRAM [ARGS...], as the program of an MPI job whose ranks need different
# variables on different nodes (a launcher passes one environment to all): finds this node in
# FABPERF_NODE_SIDES (comma separated node names, side 0 first) by its host name, exports each
# FABPERF_SIDE<S>_NAME=VALUE of its side S as NAME=VALUE, then runs PROGRAM. The node is found by
# name, not by rank, so the launcher's rank order does not matter.
# Exit status: PROGRAM's; 2 when this node is not in FABPERF_NODE_SIDES.

me_full=$(hostname 2>/dev/null)
me_short=${me_full%%.*}
side=0
found=
old_ifs=$IFS
IFS=,
for node in $FABPERF_NODE_SIDES; do
    case $node in
    "$me_full" | "$me_short" | "${SLURMD_NODENAME:-/}" | "${me_short}".*)
        found=$side
        break
        ;;
    esac
    side=$((side + 1))
done
IFS=$old_ifs
if [ -z "$found" ]; then
    echo "node-env.sh: this node ($me_full) is not in FABPERF_NODE_SIDES ($FABPERF_NODE_SIDES)" >&2
    exit 2
fi
prefix=FABPERF_SIDE${found}_
# names only: the values are read through the shell, so any byte but a newline passes intact
for name in $(env | sed -n "s/^$prefix\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p"); do
    eval "export $name=\"\${$prefix$name}\""
done
exec "$@"
