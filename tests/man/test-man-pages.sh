#!/bin/sh
# The man pages that make install installs: one per program, fabperf-compare's, fabperf-report's,
# fabperf-rails', fabperf-heatmap's and fabperf-baseline's, each naming the program and its title, and documenting
# every option its --help lists, and an EXAMPLES section (man/<program>.h2m) of at least two
# command lines, each described, whose options the program's parser accepts (the example with
# --help appended exits 0) and which run here: the launcher (mpirun and its options) becomes
# tests/launch.sh 2 sm, the measuring programs get -i 20 -x 2 appended unless adaptive (sizes as
# written), RUN_FOLDER names a run folder (tests/report/golden/run; for fabperf-rails one of
# rails_fixtures.py, for fabperf-baseline 60 healthy launches of baseline_fixtures.py, its build
# example writing the baseline.json its check example reads), sweep.jsonl an all-pairs result made here; each must exit 0, or 3 or 4 where
# it states a verdict that this machine decides either way, never 1 or 2.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"

if [ -z "${FABPERF_HELP2MAN:-}" ]; then
    echo "SKIP: configure found no help2man, so no man pages were built"
    exit 77
fi

# page_documents PAGE HELP-COMMAND...: every --option of the help text is in the page.
page_documents() {
    page=$1
    shift
    "$@" --help 2>&1 | grep -o -e '--[a-z][a-z-]*' | sort -u >"$work/options"
    sed 's/\\//g' "$page" >"$work/page"
    missing=$(while read -r option; do grep -q -F -e "$option" "$work/page" || echo "$option"; done <"$work/options")
    if [ ! -s "$work/options" ] || [ -n "$missing" ]; then
        echo "  $page lacks: ${missing:-(no options found in --help)}"
        return 1
    fi
}

# examples PAGE: the command lines of the page's EXAMPLES section, one a line, unescaped.
examples() {
    awk '/^\.SH/ { on = ($0 ~ /^\.SH EXAMPLES/); next } on && sub(/^\.B /, "")' "$1" | sed 's/\\-/-/g'
}

# has_examples PAGE: an EXAMPLES section of at least two command lines, each with its description.
has_examples() {
    n=$(examples "$1" | grep -c .)
    described=$(awk '/^\.SH/ { on = ($0 ~ /^\.SH EXAMPLES/); next }
        on && /^\.B / { b = 1; next } on && b && !/^\./ { n++ } { b = 0 } END { print n + 0 }' "$1")
    if [ "$n" -lt 2 ] || [ "$described" -ne "$n" ]; then
        echo "  $1: $n example(s), $described described"
        return 1
    fi
}

# resolve NAME: the path of a program or tool by its name, or NAME.
resolve() {
    for dir in "$FABPERF_PT2PT_BIN" "$FABPERF_COLL_BIN" "$FABPERF_PAIRS_BIN" "$(dirname "$FABPERF_PREFLIGHT")" \
        "$(dirname "$FABPERF_COMPARE")"; do
        [ -x "$dir/$1" ] && [ -f "$dir/$1" ] && { echo "$dir/$1"; return; }
    done
    echo "$1"
}

# example_args LINE: the example's words from its program on, one a line, placeholders replaced;
# sets $launched when a launcher starts it.
example_args() {
    eval "set -- $1"
    launched=
    while [ $# -gt 0 ]; do
        case $1 in fabperf_* | fabperf-*) break ;; esac
        launched=yes
        shift
    done
    for word; do
        case $word in
        RUN_FOLDER)
            case $1 in
            fabperf-rails) echo "$work/rails" ;;
            fabperf-baseline) echo "$work/healthy" ;;
            *) echo "$FABPERF_TESTS_DIR/report/golden/run" ;;
            esac
            ;;
        *) echo "$word" ;;
        esac
    done
}

# example_parses LINE: the program accepts the example's options (--help appended: no MPI, no run).
example_parses() {
    example_args "$1" >"$work/args"
    set --
    while IFS= read -r word; do set -- "$@" "$word"; done <"$work/args"
    ex_program=$(resolve "$1")
    shift
    (cd "$work/ex" && "$ex_program" "$@" --help) </dev/null >/dev/null 2>"$work/err" || { echo "  $1: $(head -3 "$work/err")"; return 1; }
}

# example_runs LINE: the example runs here and exits 0, 3 or 4.
example_runs() {
    example_args "$1" >"$work/args"
    set --
    while IFS= read -r word; do set -- "$@" "$word"; done <"$work/args"
    ex_program=$(resolve "$1")
    shift
    case $ex_program in
    */fabperf_preflight) ;;
    */fabperf_*) case " $* " in *" -a "* | *" --adaptive "*) ;; *) set -- "$@" -i 20 -x 2 ;; esac ;;
    esac
    if [ -n "$launched" ]; then
        (cd "$work/ex" && timeout 300 "$FABPERF_LAUNCH" 2 sm "$ex_program" "$@") </dev/null >"$work/out" 2>"$work/err"
    else
        (cd "$work/ex" && timeout 300 "$ex_program" "$@") </dev/null >"$work/out" 2>"$work/err"
    fi
    rc=$?
    case $rc in 0 | 3 | 4) return 0 ;; esac
    echo "  exit $rc; stderr:"
    sed 's/^/    /' "$work/err" | head -10
    return 1
}

# names_title PAGE TEXT: the page, its escapes removed, holds TEXT (titles may hold quotes).
names_title() {
    sed 's/\\//g' "$1" | grep -q -F -e "$2"
}

# The examples' inputs: a run folder of rails (fabperf-rails) and an all-pairs sweep at 1 MiB.
mkdir "$work/ex"
"$PYTHON3" "$FABPERF_TESTS_DIR/compare/rails_fixtures.py" "$work/rails" rail
"$PYTHON3" "$FABPERF_TESTS_DIR/tools/baseline_fixtures.py" "$work/healthy" 60 1.0 1
timeout 300 "$FABPERF_LAUNCH" 2 sm "$FABPERF_PAIRS_BIN/fabperf_allpairs" -m 1M:1M -i 20 -x 2 --format json \
    --output "$work/ex/sweep.jsonl" </dev/null >/dev/null 2>&1
check "examples' input: an all-pairs sweep in sweep.jsonl" [ -s "$work/ex/sweep.jsonl" ]

# check_examples PAGE: the page's EXAMPLES section, and each example parsed and run.
check_examples() {
    name=$(basename "$1" .1)
    check "$name: the page has an EXAMPLES section, each example described" has_examples "$1"
    examples "$1" >"$work/examples"
    while IFS= read -r line; do
        check "$name example parses: $line" example_parses "$line"
        check "$name example runs here: $line" example_runs "$line"
    done <"$work/examples"
}

for path in "$FABPERF_PT2PT_BIN"/fabperf_* "$FABPERF_COLL_BIN"/fabperf_* "$FABPERF_PAIRS_BIN"/fabperf_* "$FABPERF_PREFLIGHT"; do
    case $path in *.1) continue ;; esac
    dir=$(dirname "$path") program=$(basename "$path")
    page=$path.1
    title=$("$dir/$program" --help | sed -n '2s/\.$//p')
    check "$program: man page built" [ -s "$page" ]
    check "$program: NAME names the program and its title" names_title "$page" "$program - $title"
    check "$program: the page documents every option of --help" page_documents "$page" "$dir/$program"
    check_examples "$page"
    check "$program: --help fits 80 columns" sh -c "'$dir/$program' --help | awk 'length(\$0) > 80 { print; bad = 1 } END { exit bad }'"
done
tools=$(dirname "$FABPERF_PT2PT_BIN")/tools
for command in "$FABPERF_COMPARE" "$FABPERF_REPORT" "$FABPERF_RAILS_TOOL" "$FABPERF_HEATMAP" "$FABPERF_BASELINE"; do
    tool=$(basename "$command")
    check "$tool: man page built" [ -s "$tools/$tool.1" ]
    check "$tool: the page documents every option of --help" page_documents "$tools/$tool.1" "$command"
    check_examples "$tools/$tool.1"
done
finish
