#!/bin/sh
# The man pages that make install installs: one per program, fabperf-compare's, fabperf-report's,
# fabperf-rails' and fabperf-heatmap's, each naming the program and its title, and documenting
# every option its --help lists.
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

# names_title PAGE TEXT: the page, its escapes removed, holds TEXT (titles may hold quotes).
names_title() {
    sed 's/\\//g' "$1" | grep -q -F -e "$2"
}

for path in "$FABPERF_PT2PT_BIN"/fabperf_* "$FABPERF_COLL_BIN"/fabperf_* "$FABPERF_PAIRS_BIN"/fabperf_* "$FABPERF_PREFLIGHT"; do
    case $path in *.1) continue ;; esac
    dir=$(dirname "$path") program=$(basename "$path")
    page=$path.1
    title=$("$dir/$program" --help | sed -n '2s/\.$//p')
    check "$program: man page built" [ -s "$page" ]
    check "$program: NAME names the program and its title" names_title "$page" "$program - $title"
    check "$program: the page documents every option of --help" page_documents "$page" "$dir/$program"
    check "$program: --help fits 80 columns" sh -c "'$dir/$program' --help | awk 'length(\$0) > 80 { print; bad = 1 } END { exit bad }'"
done
tools=$(dirname "$FABPERF_PT2PT_BIN")/tools
for command in "$FABPERF_COMPARE" "$FABPERF_REPORT" "$FABPERF_RAILS_TOOL" "$FABPERF_HEATMAP"; do
    tool=$(basename "$command")
    check "$tool: man page built" [ -s "$tools/$tool.1" ]
    check "$tool: the page documents every option of --help" page_documents "$tools/$tool.1" "$command"
done
finish
