#!/bin/bash
# The cross-rail matrix of scripts/slurm/rails.sbatch (FABPERF_RAIL_CROSS=1) on two network-namespace
# hosts with a NIC on each of three rails (netns-rails.sh up 2 3 2): rails fpr0 and fpr1 reach each
# other through the switch, which routes between them; fpr2 reaches only itself. fpr0 is shaped to
# 100 Mbit/s and fpr1 to 10 Mbit/s. Open MPI's TCP BTL, one launch a cell:
#  - the job ends 0 although the four launches between fpr2 and another rail failed (no path is a
#    result, not a failed job);
#  - the summary's NIC x NIC table: a value in the five cells with a path, "no path" in the four
#    others (each log says the peer could not be reached); fpr2 reaches only itself;
#  - a cross cell's path evidence names fpr0 on the first host and fpr1 on the other;
#  - the cells through fpr1 are slower than fpr0 alone, and fpr0 alone slower than fpr2;
#  - with --cross-rail required the summary names the four pairs of rails (exit 3).
# Environment: FABPERF_BIN (directory with fabperf_bw, Open MPI build).
# Exit status: 0 pass, 1 fail, 77 skip.

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export FABPERF_RAILS_PREFIX=fpxr FABPERF_RAILS_STATE=/run/fabperf-cross-rails
nr=$here/netns-rails.sh

# shellcheck source=tests/launchers/netns-test.sh
. "$here/netns-test.sh"
netns_need_openmpi fabperf_bw
bin=$(dirname "$program_path")
work=$(mktemp -d "${TMPDIR:-/tmp}/fabperf-cross-rails.XXXXXX")
chmod 0755 "$work"
trap '"$nr" down; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
"$nr" up 2 3 2
rc=$?
[[ $rc -eq 0 ]] || exit "$rc"
mapfile -t hosts < <("$nr" hosts)
# 100 and 10 Mbit/s: rates that hold on a loaded 2-core machine
"$nr" shape 0 100mbit || failed "tc tbf 100mbit on rail 0"
"$nr" shape 1 10mbit || failed "tc tbf 10mbit on rail 1"

t0=$(date +%s)
timeout 600 "$nr" exec "${hosts[0]}" env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    FABPERF_NETNS_MAP="$FABPERF_RAILS_STATE/map" FABPERF_RAIL_NODES="${hosts[*]}" FABPERF_RAILS="fpr0 fpr1 fpr2" \
    MPIRUN_ARGS="--mca plm rsh --mca plm_rsh_agent $here/ns-ssh --mca oob_tcp_if_include fpr0" \
    FABPERF_BIN="$bin" FABPERF_PREFLIGHT=off FABPERF_RUN_DIR="$work/run" FABPERF_PROGRAMS=fabperf_bw REPEATS=1 \
    FABPERF_RAIL_CROSS=1 FABPERF_RAIL_CROSS_STARTUP=15 FABPERF_ARGS="-m 64K:64K -W 4 -i 6 -x 1" \
    bash "$top/scripts/slurm/rails.sbatch" >"$work/out" 2>&1 </dev/null
rc=$?
echo "rails.sbatch: exit $rc in $(($(date +%s) - t0)) s"
sed 's/^/    /' "$work/out"
[[ $rc -eq 0 ]] || failed "exit $rc, expected 0 (the cross launches that failed are the summary's)"
[[ $(awk -F'\t' '$4 ~ /^failed/' "$work/run/launches.tsv" | cut -f1 | sort | tr '\n' ' ') == \
    "fpr0->fpr2@${hosts[0]}-${hosts[1]} fpr1->fpr2@${hosts[0]}-${hosts[1]} fpr2->fpr0@${hosts[0]}-${hosts[1]} fpr2->fpr1@${hosts[0]}-${hosts[1]} " ]] ||
    failed "the failed launches are not the four between fpr2 and another rail"

python3 - "$work/run/summary/rails.json" "${hosts[@]}" <<'EOF' || failed "the summary's cross-rail table does not check"
import json, sys
d = json.load(open(sys.argv[1]))
first, other = sys.argv[2:4]
ok = True
def need(cond, what):
    global ok
    print(("ok - " if cond else "not ok - ") + what)
    ok = ok and cond
cross = [t for t in d["tables"] if t.get("kind") == "cross"]
need(len(cross) == 1 and cross[0]["rails"] == ["fpr0", "fpr1", "fpr2"] and cross[0]["nodes"] == [first, other],
     "one NIC x NIC table of fpr0..fpr2, rows the first host's rails")
t = cross[0]
status = {(c["local"], c["remote"]): c["status"] for c in t["cells"]}
value = {(c["local"], c["remote"]): c["value"] for c in t["cells"]}
want = {(a, b): "path" if a == b or {a, b} == {"fpr0", "fpr1"} else "no-path"
        for a in ("fpr0", "fpr1", "fpr2") for b in ("fpr0", "fpr1", "fpr2")}
need(status == want, f"a path between fpr0 and fpr1 and from each rail to itself, none to or from fpr2: {status}")
need(t["reach"] == {"fpr0": ["fpr0", "fpr1"], "fpr1": ["fpr0", "fpr1"], "fpr2": ["fpr2"]}, f"reach {t['reach']}")
need(t["fabric"] == "partly cross-rail: 2 of 6 pairs of different rails have a path; fpr2 reaches only itself",
     f"fabric: {t['fabric']}")
need(not t["findings"] and t["undecided"] == 0 and d["findings"] == 0, "nothing named, nothing undecided")
need(all("no path: " in n for n in t["notes"]) and len(t["notes"]) == 4,
     f"one note a cell without a path, no path-evidence note: {t['notes']}")
if status == want:
    need(all(value[c] < 0.5 * value[("fpr0", "fpr0")] for c in (("fpr0", "fpr1"), ("fpr1", "fpr0"), ("fpr1", "fpr1")))
         and value[("fpr0", "fpr0")] < 0.5 * value[("fpr2", "fpr2")],
         f"the cells through the 10 Mbit/s rail below the 100 Mbit/s one, below the unshaped one: {value}")
sys.exit(0 if ok else 1)
EOF

# The cross cell's own path evidence: the payload left on fpr0 of the first host, came in on fpr1.
python3 - "$work/run"/fpr0-_fpr1_*.1.fabperf_bw.json "${hosts[@]}" <<'EOF' || failed "fpr0->fpr1's path evidence"
import json, sys
rows = [r for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "row"]
nics = {(n["node"], n["name"]) for r in rows for n in r["path"]["nics"]}
print(f"fpr0->fpr1 path: {sorted(nics)}")
sys.exit(nics != {(sys.argv[2], "fpr0"), (sys.argv[3], "fpr1")})
EOF

python3 "$top/tools/fabperf-rails" --cross-rail required --format json --output "$work/required.json" "$work/run"
rc=$?
[[ $rc -eq 3 ]] || failed "--cross-rail required: exit $rc, expected 3"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
got = sorted((f["rail"], f["remote_rail"]) for t in d["tables"] for f in t["findings"])
print("required:", got)
sys.exit(got != [("fpr0", "fpr2"), ("fpr1", "fpr2"), ("fpr2", "fpr0"), ("fpr2", "fpr1")])' "$work/required.json" ||
    failed "--cross-rail required does not name the four pairs of rails without a path"

if [[ $fail -eq 0 ]]; then
    echo "PASS: the cross-rail matrix on two namespace hosts"
    exit 0
fi
exit 1
