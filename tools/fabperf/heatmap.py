"""All-pairs matrices (the "matrix" records of fabperf_allpairs and fabperf_allpairs_lat): checked,
then rendered as a text table, a gnuplot PNG (fabperf-heatmap) or inline SVG with an embedded PNG
above SVG_HEATMAP_NODES nodes (fabperf-report)."""

import colorsys
import json
import math
import os
import re
import statistics
import struct
import tempfile
import zlib
from base64 import b64encode

from . import InputError
from .plot import find_gnuplot, gnuplot_terminal, gp_string, h, run_gnuplot
from .results import num
from .units import fmt_num

SVG_HEATMAP_NODES = 64  # above this a heatmap is an embedded PNG, one pixel per pair


def check_matrix(rec, where):
    nodes = rec.get("nodes")
    if not isinstance(nodes, list) or not nodes:
        raise InputError(f"{where}: matrix without a list of nodes")
    n = len(nodes)
    for key in ("values", "ci_lo", "ci_hi"):
        m = rec.get(key)
        if not isinstance(m, list) or len(m) != n or any(
                not isinstance(r, list) or len(r) != n for r in m):
            raise InputError(f"{where}: matrix field {key!r} is not {n} x {n}")
        for r in m:
            for v in r:
                if v is not None and not isinstance(v, (int, float)):
                    raise InputError(f"{where}: matrix field {key!r} holds {v!r}, not a number or null")
    for key in ("size", "quantity", "unit"):
        if key not in rec:
            raise InputError(f"{where}: matrix without {key!r}")


def read_matrices(path):
    """The matrix records of a result file, each checked; InputError when there is none."""
    matrices = []
    try:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as e:
                    raise InputError(f"{path}:{number}: not JSON ({e.msg})") from None
                if isinstance(rec, dict) and rec.get("type") == "matrix":
                    check_matrix(rec, f"{path}:{number}")
                    matrices.append(rec)
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    if not matrices:
        raise InputError(f"{path}: no matrix record (is it a fabperf_allpairs --format json result?)")
    return matrices


def fmt(v):
    return "-" if v is None else f"{v:.4g}"


def render_table(m, out):
    nodes = m["nodes"]
    width = max(8, max(len(s) for s in nodes) + 1)
    out.write(f"# {m['quantity']} ({m['unit']}) at {m['size']} bytes; rows send, columns receive\n")
    out.write(" " * width + "".join(f"{s:>{width}}" for s in nodes) + "\n")
    for name, row in zip(nodes, m["values"]):
        out.write(f"{name:<{width}}" + "".join(f"{fmt(v):>{width}}" for v in row) + "\n")


def heatmap_script(m, term, data, png):
    nodes = m["nodes"]
    n = len(nodes)
    step = max(1, math.ceil(n / 32))  # at most ~32 names per axis
    tics = ", ".join(f"{gp_string(nodes[i])} {i}" for i in range(0, n, step))
    better = "lower" if m.get("better") == "lower" else "higher"
    side = min(1600, max(500, 40 * n + 200))
    title = f"{m['quantity']} at {m['size']} bytes ({m['unit']}, {better} is better)"
    return "\n".join([
        f"set terminal {term} size {side + 150},{side}",
        f"set output {gp_string(png)}",
        f"set title {gp_string(title)} noenhanced",
        'set xlabel "receiver"', 'set ylabel "sender"',
        f"set xtics ({tics}) rotate by 60 right noenhanced",
        f"set ytics ({tics}) noenhanced",
        f"set xrange [-0.5:{n - 0.5}]", f"set yrange [{n - 0.5}:-0.5]",
        f"set cblabel {gp_string(m['unit'])} noenhanced",
        "set palette defined (0 '#b2182b', 0.5 '#fddbc7', 1 '#2166ac')" if better == "higher"
        else "set palette defined (0 '#2166ac', 0.5 '#fddbc7', 1 '#b2182b')",
        f"plot {gp_string(data)} matrix with image notitle",
        "set output", ""])


def draw(matrices, folder):
    """One PNG per matrix, DIR/<quantity>-<size>.png: [paths written]; PlotError when gnuplot
    cannot make one."""
    gnuplot = find_gnuplot("gnuplot is not installed")
    term = gnuplot_terminal(gnuplot)
    os.makedirs(folder, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory(prefix="fabperf-heatmap.") as tmp:
        for i, m in enumerate(matrices):
            name = re.sub(r"[^A-Za-z0-9._-]", "_", f"{m['quantity']}-{m['size']}")
            png = os.path.join(folder, name + ".png")
            data = os.path.join(tmp, f"{i}.dat")
            with open(data, "w", encoding="utf-8") as f:
                for row in m["values"]:
                    f.write(" ".join("NaN" if v is None else repr(float(v)) for v in row) + "\n")
            script = os.path.join(tmp, f"{i}.gp")
            with open(script, "w", encoding="utf-8") as f:
                f.write(heatmap_script(m, term, data, png))
            run_gnuplot(gnuplot, script, png)
            written.append(png)
    return written


def png_data_uri(pixels, width, height):
    """pixels: rows of (r, g, b); a PNG as a data: URI (no imaging library needed)."""
    raw = b"".join(b"\x00" + bytes(c for px in row for c in px) for row in pixels)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
    return "data:image/png;base64," + b64encode(png).decode("ascii")


def matrix_scale(matrix):
    """Function value -> (r, g, b): red at half the median or worse, green at the median or better."""
    values = [num(v) for row in matrix.get("values") or [] for v in row if num(v) is not None]
    median = statistics.median(values) if values else None
    lower = matrix.get("better") == "lower"

    def color(v):
        v = num(v)
        if v is None or not median or v <= 0:
            return (200, 200, 200)
        ratio = median / v if lower else v / median
        hue = max(0.0, min(1.0, (ratio - 0.5) / 0.5)) / 3  # 0 red .. 1/3 green
        return tuple(int(255 * c) for c in colorsys.hsv_to_rgb(hue, 0.75, 0.92))
    return color, median


def switch_groups(matrix, topology):
    """The matrix's nodes grouped by the switch --topology placed their host on, in the header's
    order of switches: [(switch, [node indices])], or None without a usable topology. A node is
    "host" or "host:rank" (several ranks on one host); a node of no listed host stays last, alone."""
    job = (topology or {}).get("job") if isinstance(topology, dict) else None
    if not isinstance(job, list):
        return None
    switch_of = {}
    for k, entry in enumerate(job):
        if isinstance(entry, dict):
            for host in entry.get("hosts") or []:
                switch_of[str(host)] = (k, str(entry.get("switch")))
    groups = {}
    for i, node in enumerate(matrix["nodes"]):
        node = str(node)
        host = node if node in switch_of else node.rsplit(":", 1)[0]
        key = switch_of.get(host, (len(job), "(no switch)"))
        groups.setdefault(key, []).append(i)
    if all(name == "(no switch)" for _, name in groups):
        return None
    return [(name, members) for (_, name), members in sorted(groups.items())]


def heatmap_cells_svg(matrix, color, cell, mid, pos):
    nodes, unit, parts = matrix["nodes"], matrix.get("unit", ""), []
    for i, row in enumerate(matrix["values"]):
        for j, v in enumerate(row):
            r, g, b = color(v)
            text = f"{nodes[i]} → {nodes[j]}: {fmt_num(num(v))} {unit}"
            parts.append(f'<rect id="{mid}-{i}-{j}" x="{pos[j] * cell}" y="{pos[i] * cell}" width="{cell}" '
                         f'height="{cell}" fill="rgb({r},{g},{b})"><title>{h(text)}</title></rect>')
    return parts


def switch_edges_svg(groups, cell, side):
    """A line between the switches' blocks of rows and of columns, and each block's switch named
    in a tooltip over its diagonal block."""
    parts, start = [], 0
    for name, members in groups:
        parts.append(f'<rect class="switch-block" x="{start * cell}" y="{start * cell}" width="{len(members) * cell}" '
                     f'height="{len(members) * cell}"><title>{h(name)}: {len(members)} node(s)</title></rect>')
        start += len(members)
        if start < side // cell:
            parts.append(f'<line class="switch-edge" x1="{start * cell}" y1="0" x2="{start * cell}" y2="{side}"/>'
                         f'<line class="switch-edge" x1="0" y1="{start * cell}" x2="{side}" y2="{start * cell}"/>')
    return parts


def heatmap_svg(matrix, mid, marked, groups=None):
    """Inline SVG; above SVG_HEATMAP_NODES the cells are one embedded PNG (a pixel per pair) and
    only the cells behind findings are drawn, outlined, as anchors. With groups (switch_groups),
    rows and columns are ordered by switch and the switches' blocks are outlined; cell ids keep
    the matrix's own indices, so that links to them still hold."""
    n = len(matrix["nodes"])
    color, _ = matrix_scale(matrix)
    cell = max(2, min(24, 640 // max(n, 1)))
    side, margin = n * cell, 90
    order = [i for _, members in groups for i in members] if groups else list(range(n))
    pos = [0] * n
    for p, i in enumerate(order):
        pos[i] = p
    parts = []
    if n <= SVG_HEATMAP_NODES:
        parts.extend(heatmap_cells_svg(matrix, color, cell, mid, pos))
    else:
        pixels = [[color(matrix["values"][i][j]) for j in order] for i in order]
        parts.append(f'<image href="{png_data_uri(pixels, n, n)}" x="0" y="0" width="{side}" '
                     f'height="{side}" style="image-rendering:pixelated"/>')
    if groups:
        parts.extend(switch_edges_svg(groups, cell, side))
    outline = "marked" if cell >= 6 else "anchor"  # outlines would hide cells of 2-5 pixels
    for i, j in sorted(marked):
        parts.append(f'<rect id="{mid}-m-{i}-{j}" x="{pos[j] * cell}" y="{pos[i] * cell}" width="{cell}" '
                     f'height="{cell}" class="{outline}"/>')
    step = max(1, math.ceil(n * 11 / max(side, 1)))
    labels = []
    for k in range(0, n, step):
        name = h(matrix["nodes"][order[k]][:12])
        labels.append(f'<text x="-4" y="{k * cell + cell / 2 + 4:.1f}" text-anchor="end">{name}</text>'
                      f'<text transform="translate({k * cell + cell / 2 + 4:.1f} -4) rotate(-90)">'
                      f'{name}</text>')
    total = side + margin + 10
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="heatmap" width="{total}" '
            f'height="{total}" viewBox="{-margin} {-margin} {total} {total}" role="img" '
            f'aria-label="all-pairs heatmap"><g>{"".join(parts)}</g>{"".join(labels)}</svg>')
