#!/bin/sh
# --topology FILE for the all-pairs sweeps: the header's topology line and the JSON meta's
# "topology" object place this machine's host on its switch, exactly, from fabperf's format and
# ibnetdiscover's output; a Slurm topology.conf that lacks the host names it and gives it a switch
# of its own; a bad or missing file, or a program that does not sweep, is refused with one line
# and exit 2 on every rank. With the fault library's slow uplink, the judge names that uplink.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
FABPERF_BIN=${FABPERF_PAIRS_BIN:?run through make check}
data=$FABPERF_TESTS_DIR/data/topology

# what MPI calls this host is what the file must name
run_job 2 sm fabperf_allpairs -m 4K:4K -i 4 -x 1 --format json
check "allpairs without --topology: exit 0, no topology in the header, no classes in the rounds" json_check "$work/out" "'topology' not in meta and all('classes' not in r for r in records if r.get('type') == 'cells')"
mpi_host=$("$PYTHON3" -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["hosts"][0]["name"])' "$work/out")

printf 'switch spine\nswitch leaf1 parent=spine # a comment\nnode %s switch=leaf1\nnode other[1-3] switch=leaf1\n' \
    "$mpi_host" >"$work/own.txt"
run_job 2 sm fabperf_allpairs -m 4K:4K -i 4 -x 1 --topology "$work/own.txt" --format json
check "fabperf format: exit 0" rc_is 0
check "fabperf format: JSON topology places the host on leaf1 under spine" json_check "$work/out" \
    "meta['topology'] == {'file': '$work/own.txt', 'format': 'fabperf', 'switches': 2, 'nodes': 4, 'job': [{'switch': 'leaf1', 'parent': 'spine', 'listed': True, 'hosts': ['$mpi_host']}], 'not_in_topology': 0}"
run_job 2 sm fabperf_allpairs -m 4K:4K -i 4 -x 1 --topology "$work/own.txt"
check "fabperf format: the text header's topology line" \
    grep -q -x -F "# topology: $work/own.txt (fabperf: 2 switches, 4 nodes); this job's 1 host(s) on 1 switch(es): leaf1 under spine ($mpi_host)" "$work/out"

sed "s/\"a01 /\"$mpi_host /g" "$data/fabric.ibnet" >"$work/fabric.ibnet"
run_job 2 sm fabperf_allpairs_lat -m 8:8 -i 4 -x 1 --topology "$work/fabric.ibnet" --format json
check "ibnetdiscover: exit 0" rc_is 0
check "ibnetdiscover: the host on leaf-a (its first adapter's leaf) under the spine" json_check "$work/out" \
    "meta['topology']['format'] == 'ibnetdiscover' and meta['topology']['switches'] == 3 and meta['topology']['nodes'] == 4 and meta['topology']['job'] == [{'switch': 'leaf-a', 'parent': 'spine', 'listed': True, 'hosts': ['$mpi_host']}]"

run_job 2 sm fabperf_allpairs -m 4K:4K -i 4 -x 1 --topology "$data/slurm-tree.conf" --format json
check "Slurm topology.conf without this host: exit 0" rc_is 0
check "Slurm: the host named as not in the topology, on a switch of its own" json_check "$work/out" \
    "meta['topology']['format'] == 'slurm' and meta['topology']['switches'] == 4 and meta['topology']['nodes'] == 18 and meta['topology']['not_in_topology'] == 1 and meta['topology']['job'] == [{'switch': '$mpi_host (not in the topology)', 'parent': None, 'listed': False, 'hosts': ['$mpi_host']}]"
run_job 2 sm fabperf_allpairs -m 4K:4K -i 4 -x 1 --topology "$data/slurm-tree.conf"
check "Slurm: the text says so" grep -q -F "this job's 1 host(s) on 1 switch(es): $mpi_host (not in the topology: a switch of its own)" "$work/out"

# A slow uplink from the fault library (tests/faults/slow.c): six ranks named fh0..fh5 on two leaves
# of three, every message out of leaf1's ranks 3 ms late. The one standing finding is leaf1's uplink
# up (leaf2's down, the same cells), over its 9 cells, the busiest round putting 3 flows on it; both
# leaves' uplinks judged. Open MPI only: MPICH's ranks do not yield when oversubscribed.
if [ "${FABPERF_MPI_FLAVOR:-openmpi}" = openmpi ]; then
    printf 'switch spine\nswitch leaf1 parent=spine\nswitch leaf2 parent=spine\nnode fh[0-2] switch=leaf1\nnode fh[3-5] switch=leaf2\n' \
        >"$work/leaves.txt"
    FABPERF_FAULT_LIB=${FABPERF_SLOW_LIB:?run through make check} run_with_fault 6 sm \
        "FP_SLOW_HOSTS=1 FP_SLOW_RANK=0 FP_SLOW_AS=uplink FP_SLOW_GROUP=0-2 FP_SLOW_FACTOR=1 FP_SLOW_US=3000" \
        fabperf_allpairs -m 128K:128K -W 8 -i 20 -x 2 --expect uniform --topology "$work/leaves.txt" --format json
    check "slow uplink: exit 3 (a finding stands)" rc_is 3
    check "slow uplink: leaf1's up (or leaf2's down) stands alone, 9 cells, 3 flows, its hosts and cells listed" \
        json_check "$work/out" "[(f['kind'], f['switch'], f['direction'], f['also'], f['cells'], f['flows'], f['nodes'], len(f['pairs'])) for f in records if f.get('type') == 'finding' and f['status'] == 'stands'] == [('slow_uplink', 'leaf1', 'up', {'switch': 'leaf2', 'direction': 'down'}, 9, 3, ['fh0', 'fh1', 'fh2'], 9)] and [j['uplinks'] for j in records if j.get('type') == 'judge'] == [{'judged': 2, 'unjudged': 0}]"
    check "rounds' classes: per shift, the cells within a leaf and between the two leaves" \
        json_check "$work/out" "[(r['shift'], r['classes']) for r in records if r.get('type') == 'cells'] == [(k, {'same_switch': w, 'same_parent': 6 - w, 'above': 0}) for k, w in ((1, 4), (2, 2), (3, 0), (4, 2), (5, 4))]"
    FABPERF_FAULT_LIB=$FABPERF_SLOW_LIB run_with_fault 6 sm "FP_SLOW_HOSTS=1" \
        fabperf_allpairs -m 128K:128K -W 8 -i 20 -x 2 --topology "$work/leaves.txt"
    check "no fault, text: the judge line counts both uplinks judged" grep -q "uplinks: 2 judged" "$work/out"
    check "text: round 3 (shift 3) crosses between the leaves only" \
        grep -q '^# round 3/5 (shift 3): median .*; cells within a switch 0, between switches under one parent 6, higher 0$' "$work/out"
    # The ranks dealt out across the two leaves in turn: even shifts stay within a leaf, odd ones
    # all cross (docs/pairs.md).
    printf 'switch spine\nswitch leaf1 parent=spine\nswitch leaf2 parent=spine\nnode fh[0,2,4] switch=leaf1\nnode fh[1,3,5] switch=leaf2\n' \
        >"$work/dealt.txt"
    FABPERF_FAULT_LIB=$FABPERF_SLOW_LIB run_with_fault 6 sm "FP_SLOW_HOSTS=1" \
        fabperf_allpairs -m 4K:4K -i 4 -x 1 --topology "$work/dealt.txt" --format json
    check "ranks dealt out across 2 leaves: shifts 2 and 4 within a switch, 1, 3 and 5 between the leaves" \
        json_check "$work/out" "[(r['shift'], r['classes']) for r in records if r.get('type') == 'cells'] == [(k, {'same_switch': 6 * (k % 2 == 0), 'same_parent': 6 * (k % 2), 'above': 0}) for k in range(1, 6)]"
fi

# refused_once NP PROGRAM TEXT ARGS...: exit 2, one line from the program, with TEXT
refused_once() {
    np=$1 program=$2 expected=$3
    shift 3
    run_job "$np" sm "$program" "$@"
    lines=$(grep -c "^$program: " "$work/err")
    [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -F -- "$expected" "$work/err" && return 0
    echo "  exit $rc, $lines line(s):"
    sed 's/^/    /' "$work/err" | head -8
    return 1
}
check "a switch never declared: exit 2, one line with file and line" refused_once 4 fabperf_allpairs \
    "fabperf_allpairs: --topology: $data/bad-undeclared.txt:2: switch 't' of node 'n1' is not declared above it" \
    -m 4K:4K --topology "$data/bad-undeclared.txt"
check "a Slurm switch under two: exit 2, one line" refused_once 2 fabperf_allpairs_lat \
    "--topology: $data/bad-two-parents.conf:3: switch 's0' is under two switches, 's1' and 's2' (a tree has one parent)" \
    -m 8:8 --topology "$data/bad-two-parents.conf"
check "a missing file: exit 2, one line" refused_once 2 fabperf_allpairs \
    "fabperf_allpairs: --topology: $work/none.conf: No such file or directory" -m 4K:4K --topology "$work/none.conf"
check "fabperf_mbw_mr does not sweep: exit 2, one line" refused_once 2 fabperf_mbw_mr \
    "--topology does not apply to fabperf_mbw_mr" -m 4K:4K --topology "$work/own.txt"
finish
