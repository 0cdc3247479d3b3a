#!/bin/sh
# UCX's selection, recorded from UCX's own log, when the MPI runs over UCX: MPICH built for
# ch4:ucx (UCX loaded with the program: a log handler), Open MPI with its pml ucx (UCX loaded in
# MPI_Init: a log file). With UCX_TLS forced the recorded transport is the forced one; what the
# user did not ask for is neither printed nor left behind. Skips (77) where the MPI is not on UCX
# or the build has no UCX headers.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"

[ "${FABPERF_UCX_BUILT:-}" = yes ] || { echo "built without UCX's headers: nothing is captured"; exit 77; }
case ${FABPERF_MPI_FLAVOR:-} in
mpich)
    ldd "$FABPERF_BIN/fabperf_latency" | grep -q 'libucp\.so' || { echo "this MPICH is not on UCX"; exit 77; }
    ;;
openmpi)
    ompi_info 2>/dev/null | grep -q 'MCA pml: ucx' || { echo "this Open MPI has no pml ucx"; exit 77; }
    # Open MPI 4.1 takes its pml ucx only for RDMA devices unless told any will do.
    OMPI_MCA_pml=ucx OMPI_MCA_pml_ucx_tls=any OMPI_MCA_pml_ucx_devices=any
    export OMPI_MCA_pml OMPI_MCA_pml_ucx_tls OMPI_MCA_pml_ucx_devices
    ;;
*) echo "unknown MPI"; exit 77 ;;
esac
# Our own log file (Open MPI) goes to TMPDIR: nothing may be left there.
mkdir "$work/tmp"
TMPDIR=$work/tmp
export TMPDIR

# One run over TCP, the rest over shared memory: MPICH 4.0 over UCX's tcp now and then hangs in
# MPI_Finalize, after the results are written (here roughly one launch in ten on a loaded
# machine, as often without fabperf's capture): --finalize-timeout ends it with the run's status,
# the timeout below anything else.
# ucx_job TLS ARGS...: fabperf_latency (-i 50; -m 8:8 unless ARGS give -m) on 2 ranks over the
# transports UCX_TLS names, through the launcher's default (Open MPI: the pml ucx chosen above).
ucx_job() {
    job_tls=$1
    shift
    case " $* " in *" -m "*) ;; *) set -- -m 8:8 "$@" ;; esac
    UCX_TLS=$job_tls UCX_NET_DEVICES=lo timeout 30 "$FABPERF_LAUNCH" 2 default "$FABPERF_BIN/fabperf_latency" \
        -i 50 --finalize-timeout 5 "$@" </dev/null >"$work/out" 2>"$work/err"
    rc=$?
}

# results EXPR: EXPR (json_check's) holds over fabperf's JSON lines. MPICH's UCX prints its own
# lines (the user's log level, its warnings) to the same output: they are set aside.
results() {
    grep '^{' "$work/out" >"$work/json"
    grep -v '^{' "$work/out" | sed 's/^/  (not fabperf'"'"'s) /' | head -5
    json_check "$work/json" "$1"
}

# ucx_holds EXPR: EXPR (Python, over u = the meta line's "ucx") holds.
ucx_holds() {
    results "meta['ucx'] is not None and (lambda u: $1)(meta['ucx'])"
}

nothing_left() {
    [ -z "$(ls -A "$work/tmp")" ] || { echo "  left in TMPDIR:"; ls -l "$work/tmp"; return 1; }
}

# exit 0, or MPICH's hang in MPI_Finalize after complete results (see above): the test's timeout
# (124), or --finalize-timeout's exit, said on stderr, after which MPICH's process manager may
# report the closed connection and exit with a status of its own.
tcp_done() {
    [ "$rc" -eq 0 ] && return 0
    if [ "$FABPERF_MPI_FLAVOR" = mpich ] && results 'end is not None and end["status"] == "complete"'; then
        [ "$rc" -eq 124 ] && echo "  (MPI_Finalize hung after complete results)" && return 0
        grep -q 'MPI_Finalize did not return within 5 s (--finalize-timeout); the results are complete' "$work/err" &&
            echo "  (MPI_Finalize hung after complete results; --finalize-timeout ended it, exit $rc)" && return 0
    fi
    rc_is 0
}

ucx_job tcp,self --format json
check "UCX_TLS=tcp: exit 0 (MPICH: or complete results before a hang in MPI_Finalize)" tcp_done
check "UCX_TLS=tcp: the transport to the peer is tcp/lo, UCX's version and a peer endpoint recorded" ucx_holds \
    'u["transports"] == "tcp/lo" and u["version"] and u["note"] is None and any(
     e["to"] == "peer" and e["lanes"].startswith("tag(tcp/lo") for e in u["endpoints"])'
check "UCX_TLS=tcp: the variables set for UCX are not in the recorded environment" results \
    '"UCX_TLS" in meta["env"] and not any(k in meta["env"] for k in ("UCX_LOG_LEVEL", "UCX_LOG_FILE", "UCX_PROTO_INFO"))'
check "UCX_TLS=tcp: no log file left behind" nothing_left
check "UCX_TLS=tcp: nothing configured during the sweep, no ucx_end" results \
    'end is not None and "ucx_end" not in end'

ucx_job sm,self --format json
check "UCX_TLS=sm: exit 0" rc_is 0
check "UCX_TLS=sm: shared memory to the peer, no tcp" ucx_holds \
    'u["transports"] and "tcp" not in u["transports"] and all(t.split("/")[1].startswith("memory")
     for t in u["transports"].split())'

ucx_job sm,self
check "text: the header names the peer's lanes" grep -Eq \
    "^# ucx \(rank 0, from UCX's log\): [0-9.]+: .*peer tag\([a-z]+/memory" "$work/out"
check "text: UCX's info lines that raising its level let through are not shown" sh -c \
    "! grep -Eq 'UCX +(INFO|DIAG)' '$work/out' '$work/err'"

ucx_job sm,self --format json --path-evidence off
check "--path-evidence off: ucx null" results 'meta["ucx"] is None'

# The new protocols log a table per operation, only into a log file: here the user's.
UCX_PROTO_ENABLE=y UCX_LOG_FILE=$work/ucx.%p.log ucx_job sm,self --format json
check "UCX_PROTO_ENABLE=y with UCX_LOG_FILE: the tag-matching protocols toward the peer, over shared memory" \
    ucx_holds 'u["transports"] and "tcp" not in u["transports"] and any(
     p["operation"].startswith("tagged message") and p["ranges"][0]["range"].startswith("0..") and
     p["ranges"][0]["protocol"] == "eager short" and all(r["via"].endswith("/memory") for r in p["ranges"])
     for p in u["protocols"])'

# UCX's warnings (an unknown transport) are shown once per rank: MPICH's UCX prints them itself,
# from Open MPI's fabperf copies them from its log file to standard error.
ucx_job sm,self,nosuchtransport
check "a UCX warning: shown once per rank" sh -c \
    "[ \$(cat '$work/out' '$work/err' | grep -c \"UCX  WARN  transport 'nosuchtransport' is not available\") -eq 2 ]"

if [ "$FABPERF_MPI_FLAVOR" = mpich ]; then
    # UCX was loaded with the program: its log goes to the output unless UCX_LOG_FILE was set.
    UCX_PROTO_ENABLE=y ucx_job sm,self --format json
    check "MPICH, UCX_PROTO_ENABLE=y without UCX_LOG_FILE: unknown, and the note says what to set" ucx_holds \
        'u["endpoints"] == [] and u["protocols"] == [] and "set it at launch" in u["note"]'
    # The user's own level: shown, and still read.
    UCX_LOG_LEVEL=info ucx_job sm,self --format json
    check "MPICH, user's UCX_LOG_LEVEL=info: UCX's lines shown" grep -q 'UCX  INFO' "$work/out"
    check "MPICH, user's UCX_LOG_LEVEL=info: the selection read" ucx_holds \
        'u["transports"] and "tcp" not in u["transports"]'
else
    # UCX loaded in MPI_Init logs into fabperf's file, tables included; Open MPI's blocking sends
    # of 4 KiB and more select a protocol of their own on first use, in the first size's warm-up:
    # the end record.
    UCX_PROTO_ENABLE=y ucx_job sm,self --format json -m 4K:4K
    check "Open MPI, UCX_PROTO_ENABLE=y: tables from fabperf's own log file" ucx_holds \
        'any(p["operation"].startswith("tagged message") and p["ranges"][0]["via"].endswith("/memory") for p in u["protocols"])'
    check "Open MPI, UCX_PROTO_ENABLE=y: the protocol selected during the sweep is in ucx_end" results \
        '(end is not None and any("fast-completion" in p["operation"] for p in end["ucx_end"]["protocols"]) and
          not any("fast-completion" in p["operation"] for p in meta["ucx"]["protocols"]))'
    check "Open MPI, UCX_PROTO_ENABLE=y: no log file left behind" nothing_left
    # The user's own file without the level: read, but UCX writes the lanes only at info.
    UCX_LOG_FILE=$work/user.%p.log ucx_job sm,self --format json
    check "Open MPI, user's UCX_LOG_FILE without UCX_LOG_LEVEL: unknown, and why" ucx_holds \
        'u["endpoints"] == [] and "without UCX_LOG_LEVEL=info" in u["note"]'
    # The user's own level without a file: UCX prints to the output, where fabperf cannot read.
    UCX_LOG_LEVEL=info ucx_job sm,self --format json
    check "Open MPI, user's UCX_LOG_LEVEL=info without UCX_LOG_FILE: unknown, and why" ucx_holds \
        'u["endpoints"] == [] and "without UCX_LOG_FILE" in u["note"]'
fi
finish
