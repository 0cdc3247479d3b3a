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

# netns_need_openmpi PROGRAM [DIR]: skips (77) unless this build is Open MPI's, has PROGRAM in DIR
# (default $FABPERF_BIN) and mpirun and python3 are installed; sets $program_path.
netns_need_openmpi() {
    if [[ ${FABPERF_MPI_FLAVOR:-openmpi} != openmpi ]]; then
        echo "SKIP: runs Open MPI's mpirun; this build uses ${FABPERF_MPI_FLAVOR}"
        exit 77
    fi
    program_path=$(cd "${2:-${FABPERF_BIN:-/nonexistent}}" 2>/dev/null && pwd)/$1
    if [[ ! -x $program_path ]]; then
        echo "SKIP: $1 not built (${2:-FABPERF_BIN})"
        exit 77
    fi
    local p
    for p in mpirun python3; do
        command -v "$p" >/dev/null || { echo "SKIP: $p not installed"; exit 77; }
    done
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

# netns_bridge_start NAME N [LEAVES]: as netns_start, with N hosts on one bridge (netns-bridge.sh, as
# $nb), or on LEAVES leaf bridges under a spine.
netns_bridge_start() {
    nb=$here/netns-bridge.sh
    work=$(mktemp -d "${TMPDIR:-/tmp}/fabperf-$1.XXXXXX")
    chmod 0755 "$work"
    trap '"$nb" down; rm -rf "$work"' EXIT
    trap 'exit 1' INT TERM
    "$nb" up "$2" ${3:+"$3"}
    local rc=$?
    [[ $rc -eq 0 ]] || exit "$rc"
}

# netns_socket_mbps [BYTES]: what a plain TCP stream moves from the first host to the second over
# their veth, as it is shaped now, in MB/s (1e6 B/s): the median of three streams of BYTES, each
# timed by the receiver from its first byte to its last. The bound a shaped veth gives fabperf on
# this machine: at 1 Gbit/s about 118 MB/s on one machine, 78-109 MB/s on a loaded 2-core one.
# Prints the rate, or nothing on failure.
netns_socket_mbps() {
    local bytes=${1:-67108864} port=47917 pid
    "$nh" exec "${hosts[1]}" timeout 120 python3 -c '
import socket, statistics, sys, time
srv = socket.create_server((sys.argv[1], int(sys.argv[2])))
buf = bytearray(1 << 20)
rates = []
for _ in range(3):
    conn, _ = srv.accept()
    conn.recv_into(buf)  # the clock starts at the first byte
    start = time.monotonic()
    total = 0
    while True:
        n = conn.recv_into(buf)
        if n == 0:
            break
        total += n
    rates.append(total / (time.monotonic() - start) / 1e6)
    conn.close()
print(f"{statistics.median(rates):.1f}")' "${hosts[1]}" "$port" >"$work/socket.mbps" &
    pid=$!
    "$nh" exec "${hosts[0]}" timeout 120 python3 -c '
import socket, sys, time
chunk = bytes(1 << 20)
for _ in range(3):
    for _ in range(100):
        try:
            conn = socket.create_connection((sys.argv[1], int(sys.argv[2])))
            break
        except OSError:
            time.sleep(0.1)
    else:
        sys.exit("no receiver")
    for _ in range(int(sys.argv[3]) >> 20):
        conn.sendall(chunk)
    conn.shutdown(socket.SHUT_WR)
    conn.recv(1)  # the receiver has read everything
    conn.close()' "${hosts[1]}" "$port" "$bytes" || { kill "$pid" 2>/dev/null; wait "$pid"; return 1; }
    wait "$pid" || return 1
    cat "$work/socket.mbps"
}
