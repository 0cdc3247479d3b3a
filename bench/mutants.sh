#!/bin/sh
# Mutation testing of fabperf's arithmetic: each mutant of bench/mutants.list changes one line of
# a formula (core, families, tools); the tests that cover that line must then fail. A mutant they
# pass is a survivor: a formula no test pins down.
#
# Works in a scratch copy of the committed tree (git archive HEAD), never in the working tree:
# configured once (and kept for the next run), then per mutant the line is patched, the tree
# rebuilt (make), the covering tests run one at a time up to the first that fails (make check
# TESTS=...) and the file restored. The covering tests are first run unmutated:
# one that fails there cannot judge a mutant and is left out (reported).
# Outcomes: killed (a covering test failed), compiler (did not build; not counted in the kill
# rate), survived, untested (no covering test present: survived, and said so) and list errors (a
# pattern that is not on exactly one line of its file; the run exits 1).
#
# Usage: bench/mutants.sh [--list] [NAME...]
#   --list  the mutants, their files, covering tests (missing ones marked) and descriptions
#   NAME    only these mutants (default: all)
# Environment: MUTANTS_LIST (bench/mutants.list), MUTANTS_DIR (the scratch folder,
# /tmp/fabperf-mutants), CC (mpicc), JOBS (make -j, 2).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
list=${MUTANTS_LIST:-$top/bench/mutants.list}
scratch=${MUTANTS_DIR:-/tmp/fabperf-mutants}
jobs=${JOBS:-2}
tab=$(printf '\t')

die() {
    echo "mutants.sh: $*" >&2
    exit 2
}

# entries: the list without comments and blank lines.
entries() {
    grep -v -e '^#' -e '^[[:space:]]*$' "$list"
}

# present TREE TEST: TEST is a test of TREE (its file exists and Makefile.am names it).
present() {
    { [ -f "$1/$2" ] || [ -f "$1/$2.c" ]; } && grep -q -F -- "$2" "$1/Makefile.am"
}

# selected NAME: NAME was asked for (or nothing was).
selected() {
    [ -z "$names" ] && return 0
    case " $names " in *" $1 "*) return 0 ;; esac
    return 1
}

listing=0
names=""
for arg in "$@"; do
    case $arg in
    --list) listing=1 ;;
    -h | --help) sed -n '2,/^set -u/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option '$arg' (see --help)" ;;
    *) names="$names $arg" ;;
    esac
done
[ -f "$list" ] || die "no mutants list: $list"
for name in $names; do
    entries | cut -f1 | grep -q -x -F -- "$name" || die "no mutant named '$name' in $list"
done

if [ "$listing" -eq 1 ]; then
    entries | while IFS=$tab read -r name file _ _ tests description; do
        selected "$name" || continue
        shown=""
        for t in $tests; do
            if present "$top" "$t"; then shown="$shown $t"; else shown="$shown $t(missing)"; fi
        done
        printf '%-26s %-28s %s\n%26s tests:%s\n' "$name" "$file" "$description" "" "$shown"
    done
    exit 0
fi

command -v python3 >/dev/null || die "python3 is needed to apply the mutants"
git -C "$top" rev-parse --verify -q HEAD >/dev/null || die "$top is not a git repository with a commit"
commit=$(git -C "$top" rev-parse HEAD)
src=$scratch/src
build=$src/build
out=$scratch/run
# The scratch tree is configured once and kept: at another commit, only the files that differ are
# copied in (make then rebuilds what they touch); a half-made one is made again.
if [ ! -f "$build/Makefile" ]; then
    echo "== scratch tree of $commit in $src"
    # Only a folder this script made (marked) or an empty one is emptied.
    if [ -d "$scratch" ] && [ ! -f "$scratch/.fabperf-mutants" ] && [ -n "$(ls -A "$scratch")" ]; then
        die "$scratch is not empty and not a scratch folder of mutants.sh (MUTANTS_DIR)"
    fi
    rm -rf "$scratch"
    mkdir -p "$src" || die "cannot create $src"
    : >"$scratch/.fabperf-mutants"
    git -C "$top" archive HEAD | tar -x -C "$src" || die "git archive failed"
    (cd "$src" && autoreconf -fi >"$scratch/autoreconf.log" 2>&1) || die "autoreconf failed ($scratch/autoreconf.log)"
    mkdir -p "$build"
    (cd "$build" && ../configure -q CC="${CC:-mpicc}" >"$scratch/configure.log" 2>&1) ||
        die "configure failed ($scratch/configure.log)"
    echo "$commit" >"$scratch/commit"
elif [ "$(cat "$scratch/commit" 2>/dev/null)" != "$commit" ]; then
    echo "== scratch tree brought to $commit"
    rm -rf "$scratch/next"
    mkdir -p "$scratch/next"
    git -C "$top" archive HEAD | tar -x -C "$scratch/next" || die "git archive failed"
    (cd "$scratch/next" && find . -type f) | while read -r f; do
        cmp -s "$scratch/next/$f" "$src/$f" && continue
        mkdir -p "$(dirname "$src/$f")" && cp "$scratch/next/$f" "$src/$f"
    done
    rm -rf "$scratch/next"
    echo "$commit" >"$scratch/commit"
fi
rm -rf "$out"
mkdir -p "$out"
echo "== build (make -j$jobs)"
make -C "$build" -j"$jobs" >"$out/build.log" 2>&1 || die "the unmutated tree does not build ($out/build.log)"

# check NAME TESTS...: make check of TESTS in the build; the log in $out/NAME.log, the failed
# tests in $out/NAME.failed.
check() {
    check_name=$1
    shift
    make -C "$build" -j1 check TESTS="$*" </dev/null >"$out/$check_name.log" 2>&1
    check_rc=$?
    grep -E '^(FAIL|ERROR|XPASS):' "$out/$check_name.log" | sed 's/^[A-Z]*: //' >"$out/$check_name.failed"
    # A failure make reports without a test's verdict (no rule, a build error) names no test.
    [ "$check_rc" -eq 0 ] || [ -s "$out/$check_name.failed" ] || echo "(make check: exit $check_rc)" >"$out/$check_name.failed"
    return "$check_rc"
}

# The covering tests, unmutated: each must pass to judge anything.
union=$(entries | while IFS=$tab read -r name _ _ _ tests _; do
    # shellcheck disable=SC2086 # the tests are words
    selected "$name" && printf '%s\n' $tests
done | sort -u)
usable=""
missing=""
for t in $union; do
    if present "$src" "$t"; then usable="$usable $t"; else missing="$missing $t"; fi
done
[ -z "$missing" ] || echo "== covering tests missing from this tree:$missing"
broken=""
if [ -n "$usable" ]; then
    echo "== covering tests, unmutated:$usable"
    # shellcheck disable=SC2086 # the tests are words
    if ! check baseline $usable; then
        grep -q '^(make check' "$out/baseline.failed" && die "make check failed unmutated ($out/baseline.log)"
        broken=$(tr '\n' ' ' <"$out/baseline.failed")
        echo "== failing unmutated, so left out: $broken"
    fi
fi

# apply FILE PATTERN REPLACEMENT: PATTERN replaced on the one line that holds it; exit 3 when
# not exactly one line does.
apply() {
    python3 - "$@" <<'PY'
import sys
path, pattern, replacement = sys.argv[1:4]
with open(path) as f:
    lines = f.readlines()
hits = [i for i, line in enumerate(lines) if pattern in line]
if len(hits) != 1:
    print(f"the pattern is on {len(hits)} lines, not 1: {pattern}", file=sys.stderr)
    sys.exit(3)
lines[hits[0]] = lines[hits[0]].replace(pattern, replacement)
with open(path, "w") as f:
    f.writelines(lines)
PY
}

# An interrupted run leaves no mutant behind in the scratch tree.
mutated=""
trap '[ -z "$mutated" ] || cp "$out/original" "$mutated"' EXIT
trap 'exit 130' INT TERM
entries >"$out/list"
: >"$out/outcomes"
: >"$out/errors"
# first_kill NAME TESTS...: the covering tests one at a time, in the list's order (the exact,
# fast ones first), up to the first that fails: status 1 (killed) then, 0 when all passed.
first_kill() {
    first_name=$1
    shift
    for first_test in "$@"; do
        check "$first_name" "$first_test" || return 1
    done
    return 0
}

while IFS=$tab read -r name file pattern replacement tests description; do
    selected "$name" || continue
    if [ -z "$description" ]; then
        echo "$name: LIST ERROR: fewer than six tab-separated fields" | tee -a "$out/errors"
        continue
    fi
    if [ ! -f "$src/$file" ]; then
        echo "$name: LIST ERROR: no file $file" | tee -a "$out/errors"
        continue
    fi
    cp "$src/$file" "$out/original"
    mutated=$src/$file
    if ! apply "$src/$file" "$pattern" "$replacement" 2>"$out/$name.apply"; then
        echo "$name: LIST ERROR: $file: $(cat "$out/$name.apply")" | tee -a "$out/errors"
        mutated=""
        continue
    fi
    run=""
    absent=""
    for t in $tests; do
        if ! present "$src" "$t"; then
            absent="$absent $t"
        else
            case " $broken " in *" $t "*) absent="$absent $t(fails unmutated)" ;; *) run="$run $t" ;; esac
        fi
    done
    note=""
    [ -z "$absent" ] || note="; covering tests missing:$absent"
        # shellcheck disable=SC2086 # the tests are words
    if ! make -C "$build" -j"$jobs" </dev/null >"$out/$name.build" 2>&1; then
        outcome=compiler
        echo "$name: killed by the compiler ($file)$note"
    elif [ -z "$run" ]; then
        outcome=untested
        echo "$name: SURVIVED, no covering test present ($file: $description)$note"
    elif first_kill "$name" $run; then
        outcome=survived
        echo "$name: SURVIVED$run ($file: $description)$note"
    else
        outcome=killed
        echo "$name: killed by $(tr '\n' ' ' <"$out/$name.failed")($file)$note"
    fi
    echo "$name $outcome" >>"$out/outcomes"
    # A fresh time stamp: make rebuilds what the mutant touched.
    cp "$out/original" "$src/$file"
    mutated=""
done <"$out/list"
# The tree as committed again, for the next run.
make -C "$build" -j"$jobs" </dev/null >"$out/restore.log" 2>&1 || echo "mutants.sh: rebuilding the restored tree failed ($out/restore.log)" >&2

count() {
    grep -c " $1\$" "$out/outcomes" 2>/dev/null
}
killed=$(count killed)
compiler=$(count compiler)
survived=$(($(count survived) + $(count untested)))
errors=$(grep -c . "$out/errors" 2>/dev/null)
judged=$((killed + survived))
echo
echo "killed by the compiler (not counted): $compiler"
if [ "$judged" -gt 0 ]; then
    echo "kill rate: $killed of $judged ($(awk -v k="$killed" -v m="$judged" 'BEGIN { printf "%.0f", 100 * k / m }') %)"
else
    echo "kill rate: 0 of 0"
fi
if [ "$survived" -gt 0 ]; then
    echo "survivors:"
    grep -E ' (survived|untested)$' "$out/outcomes" | while read -r name outcome; do
        if [ "$outcome" = untested ]; then echo "  $name (no covering test present)"; else echo "  $name"; fi
    done
fi
if [ "$errors" -gt 0 ]; then
    echo "LIST ERRORS: $errors ($list does not match the tree):" >&2
    sed 's/^/  /' "$out/errors" >&2
    exit 1
fi
exit 0
