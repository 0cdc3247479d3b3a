"""fabperf-report's page: its style, its script (sorting, opening a link's target, the self-check
the browser test reads back) and the page made of the sections."""

from .plot import h
from .report_config import config_section
from .report_html import link
from .report_isolate import isolate_section
from .report_rails import cross_section
from .report_sections import pairs_section, plots_section, preflight_section, soak_section
from .report_summary import launch_summary, pairs_summary, preflight_summary, skipped_summary, verdict_summary


# ================================================================ page

STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:2px 6px;text-align:left}
th{background:#eee;cursor:pointer;user-select:none}td[data-v]{text-align:right}
caption{text-align:left;font-weight:bold}summary{cursor:pointer;padding:2px 0}
.v.pass,.st.ok{color:#176b1e;font-weight:bold}.v.fail,.st.failed{color:#b00;font-weight:bold}
.v.inconclusive,.v.mixed,.v.warn,.st.cut{color:#a65c00;font-weight:bold}
.v.undecided,.v.cannot-judge,.v.found{color:#7a3e9d;font-weight:bold}.v.stands{color:#b00;font-weight:bold}
.v.cleared{color:#555;font-weight:bold}.why,.cells{color:#555}
.frame{fill:none;stroke:#888}.grid{stroke:#e4e4e4}.series{fill:none;stroke-width:1.5}.soak-step-mark{stroke:#d62728;stroke-dasharray:4 3}
svg text{font-size:11px;fill:#333}.pt{font-size:13px;font-weight:bold}svg{display:block;margin:.5em 0}
.marked{fill:none;stroke:#000;stroke-width:1.5}.anchor{fill:none}
.switch-block{fill:none;stroke:#333;stroke-width:1}.switch-edge{stroke:#fff;stroke-width:2}
.topo{font-size:12px;color:#444}.topo-tree{margin:.2em 0;padding-left:1.2em}.topo-switch{font-weight:bold}
rect:target{stroke:#f0b400;stroke-width:3}.differs{color:#b00}tr.differs td{color:#b00}
dl.prov{display:grid;grid-template-columns:max-content auto;gap:0 1em}dd{margin:0}
pre{white-space:pre-wrap;background:#f6f6f6;padding:4px}:target{outline:3px solid #f0b400}
"""

# Sorting by a column (numbers by data-v), opening the <details> around a link's target, and a
# self-check the browser test reads back: script errors seen and images that decoded.
SCRIPT = """
(function () {
  var errors = 0;
  window.addEventListener('error', function () { errors++; }, true);
  function key(td) {
    if (!td) return '';
    var v = td.getAttribute('data-v');
    return v !== null ? parseFloat(v) : td.textContent.toLowerCase();
  }
  document.addEventListener('click', function (e) {
    var th = e.target.closest && e.target.closest('table.sortable th');
    if (!th) return;
    var table = th.closest('table'), body = table.tBodies[0];
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var dir = th.getAttribute('data-dir') === 'asc' ? -1 : 1;
    th.setAttribute('data-dir', dir > 0 ? 'asc' : 'desc');
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[col]), y = key(b.cells[col]);
      return (x < y ? -1 : x > y ? 1 : 0) * dir;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    for (var p = el; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
    if (el && el.scrollIntoView) el.scrollIntoView();
  }
  window.addEventListener('hashchange', openTarget);
  window.addEventListener('load', function () {
    openTarget();
    var sources = [];
    Array.prototype.forEach.call(document.images, function (i) { sources.push(i.src); });
    Array.prototype.forEach.call(document.querySelectorAll('svg image'), function (i) {
      sources.push(i.getAttribute('href'));
    });
    var loaded = 0, done = 0, root = document.documentElement;
    function finish() {
      root.setAttribute('data-images', loaded + '/' + sources.length);
      root.setAttribute('data-script-errors', String(errors));
      root.setAttribute('data-check', 'done');
    }
    if (!sources.length) return finish();
    sources.forEach(function (src) {
      var img = new Image();
      img.onload = function () { if (img.naturalWidth > 0) loaded++; if (++done === sources.length) finish(); };
      img.onerror = function () { if (++done === sources.length) finish(); };
      img.src = src;
    });
  });
})();
"""


def page(run, title):
    total = sum(len(c.launches) for c in run.configs)
    bad = sum(1 for c in run.configs for x in c.launches if x.state != "ok")
    sections = [("summary", "summary"), ("plots", "plots"), ("soaks", "soaks"), ("pairs", "all pairs"),
                ("isolate", "collective searches"), ("cross-rail", "cross-rail"), ("preflight", "preflight"), ("configurations", "configurations")]
    present = {"plots": any(c.sizes for c in run.configs), "pairs": bool(run.pairs),
               "soaks": any(x.soak for c in run.configs for x in c.launches),
               "isolate": any(x.isolate for c in run.configs for x in c.launches), "preflight": bool(run.preflight),
               "cross-rail": bool(run.cross)}
    nav = ", ".join(link(k, text) for k, text in sections if present.get(k, True))
    head = (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{h(title)}</title><style>{STYLE}</style></head><body>"
            f"<h1>{h(title)}</h1><p>Run folder <code>{h(run.folder)}</code>: "
            f"{len(run.configs)} configurations, {total} launches, {bad} not ok. "
            f"Sections: {nav}.</p>")
    summary = ('<h2 id="summary">Summary</h2>' + verdict_summary(run) + preflight_summary(run)
               + pairs_summary(run) + launch_summary(run) + skipped_summary(run))
    configs = '<h2 id="configurations">Configurations</h2>' + "".join(
        config_section(c) for c in run.configs)
    warnings = ""
    if run.warnings:
        warnings = '<h2 id="warnings">Warnings</h2><ul>' + "".join(
            f"<li>{h(w)}</li>" for w in run.warnings) + "</ul>"
    return (head + summary + plots_section(run) + soak_section(run) + pairs_section(run) + isolate_section(run) + cross_section(run) + preflight_section(run)
            + configs + warnings + f"<script>{SCRIPT}</script></body></html>\n")
