#!/bin/sh
# Every command of README.md's shell code blocks, read from the README itself (readme_commands.py),
# so that an edit to the README is tested:
#   - the set-up scripts (scripts/demo.sh, scripts/check.sh) install packages, build and run the
#     whole suite, this test among it: they are not run again; each must exist, be executable and
#     pass shellcheck;
#   - the build commands (autoreconf, ./configure, make) built what this test runs: not run again;
#     the files they start from (configure.ac, configure, Makefile.am) must exist;
#   - the commands on a cluster run here on 2 local ranks: mpirun or srun and their options become
#     tests/launch.sh 2 sm, the program its built path, -i 20 -x 2 appended (sizes as written);
#     the tools run as written, RUN_FOLDER being a real run folder (tests/report/golden/run).
# Each must exit as the README promises: 0; with --expect, 0, 3 or 4 and a verdict line for each
# judged size that says pass, fail or inconclusive to match; --expect uniform on one host, 4 (the
# README: "4 when the matrix cannot be judged (fewer than 4 nodes"), with the judge's line saying
# so; --isolate on 2 ranks, 4 (the README: "4 when it cannot be decided (fewer than 4 ranks"), the
# search's line saying so; -o FILE, the file written (an HTML page for fabperf-report). The
# README's wording of those promises is checked too, and a command of a kind this test does not
# know fails it.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
top=$(cd "$FABPERF_TESTS_DIR/.." && pwd)
readme=$top/README.md

# promises TEXT: the README says TEXT (its line breaks and indentation read as single spaces).
promises() {
    tr '\n' ' ' <"$readme" | tr -s ' ' | grep -q -F -e "$1" || { echo "  README.md no longer says: $1"; return 1; }
}

# resolve NAME: the built program or the tool of that name.
resolve() {
    for dir in "$FABPERF_PT2PT_BIN" "$FABPERF_COLL_BIN" "$FABPERF_PAIRS_BIN" "$(dirname "$FABPERF_PREFLIGHT")" \
        "$(dirname "$FABPERF_COMPARE")"; do
        [ -f "$dir/$1" ] && [ -x "$dir/$1" ] && { echo "$dir/$1"; return 0; }
    done
    return 1
}

# rc_in STATUS...: $rc is one of them.
rc_in() {
    for status; do
        [ "$rc" -eq "$status" ] && return 0
    done
    echo "  exit code $rc, expected one of: $*; stderr:"
    sed 's/^/    /' "$work/err" | head -20
    return 1
}

# executable FILE: a file, executable.
executable() {
    [ -f "$1" ] && [ -x "$1" ]
}

# verdicts_match: the status $rc and the "# expect size N: VERDICT" lines of $work/out agree
# (0: all pass; 3: one fail; 4: one inconclusive, none failed).
verdicts_match() {
    grep -E '^# expect size [0-9]+: (pass|fail|inconclusive):' "$work/out" | sed 's/^# expect size [0-9]*: \([a-z]*\):.*/\1/' >"$work/verdicts"
    [ -s "$work/verdicts" ] || { echo "  no '# expect size N: VERDICT' line"; return 1; }
    case $rc in
    0) ! grep -q -v '^pass$' "$work/verdicts" ;;
    3) grep -q '^fail$' "$work/verdicts" ;;
    4) grep -q '^inconclusive$' "$work/verdicts" && ! grep -q '^fail$' "$work/verdicts" ;;
    *) false ;;
    esac || { echo "  exit $rc with verdicts: $(tr '\n' ' ' <"$work/verdicts")"; return 1; }
}

check "README: --expect's statuses as this test holds them" promises \
    "exit 0 when the whole interval is at or above 10000 MB/s, 3 when it lies wholly below (fail), 4 when it straddles"
check "README: --expect uniform's status on too few nodes as this test holds it" promises \
    "4 when the matrix cannot be judged (fewer than 4 nodes"
check "README: --isolate's status on too few ranks as this test holds it" promises \
    "4 when it cannot be decided (fewer than 4 ranks"

"$PYTHON3" "$FABPERF_TESTS_DIR/docs/readme_commands.py" "$readme" >"$work/commands"
check "README: commands found in its shell code blocks" [ "$(grep -c . "$work/commands")" -ge 5 ]
mkdir "$work/run"
while IFS= read -r line; do
    eval "set -- $line"
    case $1 in
    scripts/*)
        check "README '$line': $1 exists and is executable" executable "$top/$1"
        if command -v shellcheck >/dev/null 2>&1; then
            check "README '$line': $1 passes shellcheck" sh -c "cd '$top' && shellcheck -x '$1' </dev/null"
        else
            echo "ok - README '$line': $1 passes shellcheck # SKIP no shellcheck here"
        fi
        ;;
    autoreconf) check "README '$line': configure.ac is there" [ -f "$top/configure.ac" ] ;;
    ./configure) check "README '$line': configure is there" executable "$top/configure" ;;
    make) check "README '$line': Makefile.am is there" [ -f "$top/Makefile.am" ] ;;
    mpirun | srun | fabperf_* | fabperf-*)
        launched=
        while [ $# -gt 0 ]; do
            case $1 in fabperf_* | fabperf-*) break ;; esac
            launched=yes
            shift
        done
        name=${1:-}
        if ! program=$(resolve "$name"); then
            check "README '$line': a program or tool this build has" false
            continue
        fi
        shift
        for word; do
            shift
            case $word in RUN_FOLDER) set -- "$@" "$FABPERF_TESTS_DIR/report/golden/run" ;; *) set -- "$@" "$word" ;; esac
        done
        expect=
        case " $* " in *" --expect "*) expect=$(echo " $* " | sed 's/.* --expect \([^ ]*\) .*/\1/') ;; esac
        output=
        case " $* " in *" -o "* | *" --output "*) output=$(echo " $* " | sed 's/.* \(-o\|--output\) \([^ ]*\) .*/\2/') ;; esac
        if [ -n "$launched" ]; then
            (cd "$work/run" && timeout 300 "$FABPERF_LAUNCH" 2 sm "$program" "$@" -i 20 -x 2) </dev/null >"$work/out" 2>"$work/err"
        else
            (cd "$work/run" && timeout 300 "$program" "$@") </dev/null >"$work/out" 2>"$work/err"
        fi
        rc=$?
        isolate=
        case " $* " in *" --isolate "*) isolate=yes ;; esac
        case $expect$isolate in
        yes)
            check "README '$line': exit 4 on 2 ranks" rc_is 4
            check "README '$line': the search says too few ranks" grep -q '^# isolate at [0-9]* bytes: .*undecided: too few ranks to search (2 < 4)' "$work/out"
            ;;
        '') check "README '$line': exit 0" rc_is 0 ;;
        uniform)
            check "README '$line': exit 4 on one host" rc_is 4
            check "README '$line': the judge says too few nodes" grep -q '^# judge at [0-9]* bytes: too few nodes to judge' "$work/out"
            ;;
        *)
            check "README '$line': exit 0, 3 or 4" rc_in 0 3 4
            check "README '$line': a verdict line per judged size, as the status says" verdicts_match
            ;;
        esac
        if [ -n "$output" ]; then
            check "README '$line': $output written" [ -s "$work/run/$output" ]
            case $output in
            *.html) check "README '$line': $output is an HTML page" grep -q -i '<html' "$work/run/$output" ;;
            esac
        fi
        if [ "$name" != "${name#fabperf_}" ] && [ -z "$output" ]; then
            check "README '$line': rows printed" grep -q -E '^ *[0-9]+ ' "$work/out"
        fi
        ;;
    *) check "README '$line': a command this test knows how to run or check" false ;;
    esac
done <"$work/commands"
finish
