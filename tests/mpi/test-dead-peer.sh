#!/bin/sh
# A peer that dies mid-run (kill -9 of rank 1 at its first receive of 4096 B, from the PMPI library)
# ends the whole job non-zero within seconds. Rows already written stay complete lines; --output is
# never half-written: either FILE is in place with an end record saying the run was cut short (the
# launcher stopped rank 0 with SIGTERM: Open MPI), or FILE does not exist and only FILE.tmp.PID holds
# the complete rows, with no end record (the launcher used SIGKILL at once: MPICH's hydra).
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"

for program in latency bw bibw; do
    rm -f "$work"/result.json*
    run_with_fault 2 sm "FP_DIE_SIZE=4096" "fabperf_$program" -m 1K:16K -i 20 -x 2 --format json \
        --output "$work/result.json"
    check "$program, rank 1 killed at 4096 B: exit non-zero, not the test's own guard" sh -c "[ $rc -ne 0 ] && [ $rc -ne 124 ]"
    check "$program, rank 1 killed: job ended within 10 s (took ${elapsed_ms} ms)" [ "$elapsed_ms" -lt 10000 ]
    if [ -e "$work/result.json" ]; then
        check "$program, rank 1 killed: FILE complete lines, rows 1K (2K), end says cut short" \
            json_check "$work/result.json" \
            "[r['size'] for r in rows] in ([1024], [1024, 2048]) and end is not None and end['status'].startswith('cut short: ')"
        check "$program, rank 1 killed: no temporary file left" sh -c "! ls '$work'/result.json.tmp.* 2>/dev/null"
    else
        temp=$(find "$work" -name 'result.json.tmp.*' | head -1)
        check "$program, rank 1 killed: no FILE, FILE.tmp.PID has complete rows 1K (2K) and no end" \
            json_check "${temp:-$work/missing}" "[r['size'] for r in rows] in ([1024], [1024, 2048]) and end is None"
    fi
done

# Without --output: the rows on standard output are whole lines.
run_with_fault 2 sm "FP_DIE_SIZE=4096" fabperf_latency -m 1K:16K -i 20 -x 2
check "text, rank 1 killed: exit non-zero" rc_not 0
# Rank 0 may be stopped before it writes the 2048 row (rank 1 is already at 4096 B then): the rows
# are 1K, or 1K and 2K. A whole row has one field per header column ("# Size  Avg Latency(us) ...": two more words).
# shellcheck disable=SC2016 # an awk program
check "text, rank 1 killed: rows 1K (and 2K) complete, all columns" awk '
    /^# Size/ { columns = NF - 2 }
    /^[0-9]/ { rows++; if (NF != columns || ($1 != 1024 && $1 != 2048)) bad++ }
    END { exit !(columns >= 8 && (rows == 1 || rows == 2) && !bad) }' "$work/out"
finish
