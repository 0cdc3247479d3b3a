#!/bin/sh
# fabperf-report pages in headless Chromium (Debian's chromium): no console message, no script
# error, every image decodes (the page's own check writes data-check, data-images and
# data-script-errors on <html>; --dump-dom reads them back), the summary table holds the expected
# rows, a column sorts on click, a link into a collapsed section opens it, and the same checks
# catch a page with a broken image and a throwing script. The screenshot and the page are kept:
# $FABPERF_ARTIFACTS (default tests/report under the current folder, the build tree in make
# check)/report-screenshot.png and report-sample.html.
#
# Environment: FABPERF_REPORT, FABPERF_TESTS_DIR, PYTHON3, CHROMIUM [chromium].
# Exit status: 0 pass, 1 failure, 77 Chromium is not installed or cannot start here.

# The assertion functions run through check, which shellcheck does not follow.
# shellcheck disable=SC2317
set -u
here=$(cd "$(dirname "$0")" && pwd)
tests=${FABPERF_TESTS_DIR:-$here/..}
report=${FABPERF_REPORT:-$tests/../tools/fabperf-report}
golden=$tests/report/golden/run
artifacts=${FABPERF_ARTIFACTS:-$(pwd)/tests/report}
# shellcheck source=tests/checks.sh
. "$tests/checks.sh"

chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
if [ -z "$chromium" ]; then
    echo "# SKIP: chromium is not installed (scripts/install-deps.sh installs Debian's chromium)"
    exit 77
fi

# browse NAME URL [CHROMIUM-ARGS...]: loads the page, DOM after load in $work/NAME.dom, the
# browser's log in $work/NAME.log.
browse() {
    name=$1 url=$2
    shift 2
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$work/profile-$name" --enable-logging=stderr --v=0 \
        --virtual-time-budget=10000 "$@" "$url" >"$work/$name.dom" 2>"$work/$name.log"
}

# html_attr NAME ATTRIBUTE: the value of ATTRIBUTE on <html> in the dumped DOM.
html_attr() {
    sed -n "s/.*<html[^>]* $2=\"\\([^\"]*\\)\".*/\\1/p" "$work/$1.dom" | head -n 1
}

attr_is() {
    value=$(html_attr "$1" "$2")
    [ "$value" = "$3" ] || { echo "  <html $2> is '$value', expected '$3'"; return 1; }
}

# inject PAGE OUT HTML: OUT is PAGE with HTML put before </body>.
inject() {
    "$PYTHON3" -c 'import sys; page = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(page.replace("</body>", sys.argv[3] + "</body>"))' "$1" "$2" "$3"
}

no_console() {
    if grep -q CONSOLE "$work/$1.log"; then
        echo "  console messages:"
        grep CONSOLE "$work/$1.log" | sed 's/^/    /' | head -5
        return 1
    fi
}

# Chromium must start and run a script here, else there is nothing to test.
printf '<!DOCTYPE html><html><head><title>t</title></head><body><script>document.title="ran"</script></body></html>' >"$work/probe.html"
if ! browse probe "file://$work/probe.html" --dump-dom || ! grep -q '<title>ran</title>' "$work/probe.dom"; then
    echo "# SKIP: $chromium cannot run headless here:"
    tail -n 3 "$work/probe.log" | sed 's/^/#   /'
    exit 77
fi

"$PYTHON3" "$report" "$golden" -o "$work/golden.html" || exit 1
"$PYTHON3" "$tests/report/derive.py" assumed "$golden" "$work/assumed" 100
"$PYTHON3" "$report" "$work/assumed" -o "$work/assumed.html" || exit 1

# The golden page, with a script that sorts the summary by the launches column (ascending, then
# descending) and records the first and last configuration; opened at a size row of the
# collapsed tcp-stalled section.
cat >"$work/sorting.js" <<'EOF'
window.addEventListener("load", function () { setTimeout(function () {
  var th = document.querySelector("#summary-all-launches th:nth-child(3)");
  function ends() {
    var r = document.querySelectorAll("#summary-all-launches tbody tr"), last = r[r.length - 1];
    return r[0].dataset.config + "/" + r[0].dataset.program + " " + last.dataset.config + "/" + last.dataset.program;
  }
  th.click();
  var up = ends();
  th.click();
  document.documentElement.setAttribute("data-sorted", up + " | " + ends());
}, 0); });
EOF
inject "$work/golden.html" "$work/sorting.html" "<script>$(cat "$work/sorting.js")</script>"
browse golden "file://$work/sorting.html#c5-s2048" --dump-dom
check "golden page: the page's check ran, no script error, no image to load" \
    sh -c "[ '$(html_attr golden data-check)' = done ] && [ '$(html_attr golden data-script-errors)' = 0 ] && [ '$(html_attr golden data-images)' = 0/0 ]"
check "golden page: no console message" no_console golden
check "golden page: the summary table, as the browser has it, lists tcp-stalled and bad-btl" \
    "$PYTHON3" -c '
import re, sys
dom = open(sys.argv[1]).read()
table = re.search(r"<table class=\"sortable\" id=\"summary-launches\">(.*?)</table>", dom, re.S).group(1)
rows = re.findall(r"<tr data-config=\"([^\"]*)\" data-program=\"([^\"]*)\" data-state=\"([^\"]*)\"", table)
ok = rows == [("tcp-stalled", "fabperf_latency", "partial"), ("bad-btl", "fabperf_latency", "failed")]
ok or print(f"  rows: {rows}")
sys.exit(0 if ok else 1)' "$work/golden.dom"
check "sorting: by launches ascending then descending (shm latency has 6)" \
    attr_is golden data-sorted \
    "mixed-env/fabperf_latency shm/fabperf_latency | shm/fabperf_latency bad-btl/fabperf_latency"
check "a link into a collapsed configuration opens it" \
    grep -q '<details class="config" id="c5" data-config="tcp-stalled" open="">' "$work/golden.dom"

browse preflight "file://$work/golden.html#pf1-f1" --dump-dom
check "a preflight finding's link opens its node's collapsed section" \
    grep -q '<details id="pf1-node-nodeE" open="">' "$work/preflight.dom"

browse assumed "file://$work/assumed.html" --dump-dom
check "derived page: the page's check ran, no script error" \
    sh -c "[ '$(html_attr assumed data-check)' = done ] && [ '$(html_attr assumed data-script-errors)' = 0 ]"
check "derived page: the heatmap image decodes" attr_is assumed data-images 1/1
check "derived page: no console message" no_console assumed

# Judged sweeps (derive.py judged): the colour the browser gives each verdict of the slow-column
# sweep (undecided, cannot judge) and of the one size that passes, read back from <html>.
"$PYTHON3" "$tests/report/derive.py" judged "$work/judged"
"$PYTHON3" "$report" "$work/judged" -o "$work/judged.html" || exit 1
cat >"$work/colours.js" <<'EOF'
window.addEventListener("load", function () { setTimeout(function () {
  function colours(selector) {
    return Array.prototype.map.call(document.querySelectorAll(selector), function (e) {
      return getComputedStyle(e).color; }).join(" ");
  }
  document.documentElement.setAttribute("data-slowcol", colours('#summary-verdicts tr[data-config="slowcol"] .v'));
  document.documentElement.setAttribute("data-passed", colours('#summary-verdicts tr[data-verdict="pass"] .v'));
}, 0); });
EOF
inject "$work/judged.html" "$work/colours.html" "<script>$(cat "$work/colours.js")</script>"
browse judged "file://$work/colours.html#p4-m1-m-0-2" --dump-dom
check "judged page: the page's check ran, no script error, no console message" \
    sh -c "[ '$(html_attr judged data-check)' = done ] && [ '$(html_attr judged data-script-errors)' = 0 ] && ! grep -q CONSOLE '$work/judged.log'"
check "judged page: the slow-column sweep's verdicts are drawn in the undecided colour, the one pass in green" \
    sh -c "[ '$(html_attr judged data-slowcol)' = 'rgb(122, 62, 157) rgb(122, 62, 157)' ] && [ '$(html_attr judged data-passed)' = 'rgb(23, 107, 30)' ]"

# The checks must see a broken image and a script error.
inject "$work/assumed.html" "$work/broken.html" \
    '<img alt="broken" src="data:image/png;base64,AAAA"><script>noSuchFunction();</script>'
browse broken "file://$work/broken.html" --dump-dom
check "broken page: the broken image is counted" attr_is broken data-images 1/2
check "broken page: the script error is counted and logged" \
    sh -c "[ '$(html_attr broken data-script-errors)' -ge 1 ] && grep -q 'CONSOLE.*noSuchFunction' '$work/broken.log'"

mkdir -p "$artifacts" || exit 1
cp "$work/assumed.html" "$artifacts/report-sample.html"
browse shot "file://$artifacts/report-sample.html" --hide-scrollbars --window-size=1280,3000 \
    --screenshot="$artifacts/report-screenshot.png"
check "screenshot kept: $artifacts/report-screenshot.png, a 1280x3000 PNG" \
    "$PYTHON3" -c '
import struct, sys
data = open(sys.argv[1], "rb").read()
ok = data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (1280, 3000) and len(data) > 20000
sys.exit(0 if ok else 1)' "$artifacts/report-screenshot.png"

finish
