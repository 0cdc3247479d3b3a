# shellcheck shell=bash
# What the network-namespace tests share (sourced by bash tests): the skips of a build whose
# launcher is not Open MPI's or that lacks the programs, the namespace hosts brought up and taken
# down with a work folder, and the failure flag. Needs $here (the tests' folder).
nh=${here:?}/netns-hosts.sh
# shellcheck disable=SC2034 # fail and hosts are read by the tests
fail=0

failed() {
    echo "FAIL: $*"
    # shellcheck disable=SC2034
    fail=1
}

# netns_need_openmpi PROGRAM: skips (77) unless this build is Open MPI's and has PROGRAM;
# sets $program_path.
netns_need_openmpi() {
    if [[ ${FABPERF_MPI_FLAVOR:-openmpi} != openmpi ]]; then
        echo "SKIP: runs Open MPI's mpirun; this build uses ${FABPERF_MPI_FLAVOR}"
        exit 77
    fi
    program_path=$(cd "${FABPERF_BIN:-/nonexistent}" 2>/dev/null && pwd)/$1
    if [[ ! -x $program_path ]]; then
        echo "SKIP: $1 not built (FABPERF_BIN)"
        exit 77
    fi
}

# shellcheck disable=SC2317 # called from the trap
netns_cleanup() {
    "$nh" down
    rm -rf "$work"
}

# netns_start NAME: a work folder the ranks can read, the hosts up (their names in $hosts), and
# both taken down on exit; exits with netns-hosts.sh's status (77: no namespaces here) if not.
netns_start() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/fabperf-$1.XXXXXX")
    chmod 0755 "$work"
    trap netns_cleanup EXIT
    trap 'exit 1' INT TERM
    "$nh" up
    local rc=$?
    [[ $rc -eq 0 ]] || exit "$rc"
    # shellcheck disable=SC2034
    mapfile -t hosts < <("$nh" hosts)
}
