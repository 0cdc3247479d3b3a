"""Plots of values over message sizes: gnuplot PNG files (fabperf-compare --plot, and the
gnuplot helpers fabperf-heatmap draws with) and inline SVG (fabperf-report's page)."""

import html
import math
import os
import re
import shutil
import subprocess
import tempfile

from .units import fmt_num, fmt_size

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")


class PlotError(RuntimeError):
    """The plot could not be made: exit status 1."""


# ---------------------------------------------------------------- gnuplot

def find_gnuplot(why):
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        raise PlotError(why)
    return gnuplot


def gnuplot_terminal(gnuplot):
    try:
        listing = subprocess.run([gnuplot, "-e", "set terminal"], capture_output=True, text=True,
                                 timeout=30, check=False)
    except (OSError, subprocess.SubprocessError) as e:
        raise PlotError(f"cannot run {gnuplot}: {e}") from None
    text = listing.stdout + listing.stderr
    for term in ("pngcairo", "png"):
        if re.search(rf"^\s*{term}\s", text, re.M):
            return term
    raise PlotError("gnuplot has neither the pngcairo nor the png terminal")


def gp_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def run_gnuplot(gnuplot, script_path, png):
    """Runs one script that writes png; PlotError unless a PNG image is there afterwards."""
    result = subprocess.run([gnuplot, script_path], capture_output=True, text=True,
                            timeout=120, check=False)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no message"])[-1]
        raise PlotError(f"gnuplot failed for {png}: {last}")
    try:
        with open(png, "rb") as f:
            ok = f.read(8) == b"\x89PNG\r\n\x1a\n"
    except OSError:
        ok = False
    if not ok:
        raise PlotError(f"gnuplot did not write a PNG image to {png}")


def plot_file_name(program, used):
    name = re.sub(r"[^A-Za-z0-9._-]", "_", program) or "plot"
    base, n = name, 2
    while name in used:
        name, n = f"{base}-{n}", n + 1
    used.add(name)
    return name + ".png"


def make_plots(tables, folder):
    """One PNG per comparison table (fabperf-compare --plot): [paths written]."""
    gnuplot = find_gnuplot("--plot needs gnuplot, which is not installed")
    term = gnuplot_terminal(gnuplot)
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise PlotError(f"cannot create {folder}: {e.strerror}") from None
    written, used = [], set()
    with tempfile.TemporaryDirectory(prefix="fabperf-compare.") as tmp:
        for t_index, t in enumerate(tables):
            png = os.path.join(folder, plot_file_name(t["program"], used))
            plots, sizes = [], set()
            for c_index, c in enumerate(t["configurations"]):
                data = os.path.join(tmp, f"{t_index}-{c_index}.dat")
                points = 0
                with open(data, "w", encoding="utf-8") as f:
                    for row in t["rows"]:
                        v = row["values"][c["name"]]
                        if not v or v["value"] <= 0:
                            continue
                        lo = v["ci_lo"] if v["ci_lo"] and v["ci_lo"] > 0 else v["value"]
                        hi = v["ci_hi"] if v["ci_hi"] and v["ci_hi"] > 0 else v["value"]
                        f.write(f"{row['size']} {v['value']!r} {lo!r} {hi!r}\n")
                        sizes.add(row["size"])
                        points += 1
                if points:
                    plots.append(f"{gp_string(data)} using 1:2:3:4 with yerrorlines "
                                 f"title {gp_string(c['name'])}")
            if not plots:
                continue
            tics = sorted(sizes)
            step = max(1, math.ceil(len(tics) / 12))
            xtics = ", ".join(f"{gp_string(fmt_size(s))} {s}" for s in tics[::step])
            ylabel = f"{t['title']} ({t['unit']})"
            title = (f"{t['program']}: {t['title']}, {t['better']} is better "
                     f"(error bars: interval over launches; one launch: its 95% CI)")
            script = "\n".join([
                f"set terminal {term} size 1000,650",
                f"set output {gp_string(png)}",
                f"set title {gp_string(title)} noenhanced",
                'set xlabel "message size (bytes)"',
                f"set ylabel {gp_string(ylabel)} noenhanced",
                "set logscale xy",
                f"set xtics ({xtics})",
                "set grid",
                "set key left top noenhanced",
                "set autoscale xfix",
                "set offsets graph 0.03, graph 0.03, 0, 0",
                "plot " + ", \\\n     ".join(plots),
                "set output",
                "",
            ])
            script_path = os.path.join(tmp, f"{t_index}.gp")
            with open(script_path, "w", encoding="utf-8") as f:
                f.write(script)
            run_gnuplot(gnuplot, script_path, png)
            written.append(png)
    return written


# ---------------------------------------------------------------- inline SVG

def h(text):
    return html.escape(str(text), quote=True)


def log_ticks(lo, hi):
    """1-2-5 ticks covering [lo, hi] (positive)."""
    ticks, decade = [], math.floor(math.log10(lo))
    while 10 ** decade <= hi * 10:
        ticks.extend(m * 10 ** decade for m in (1, 2, 5) if lo <= m * 10 ** decade <= hi)
        decade += 1
    return ticks or [lo]


class Axes:
    """Log-log mapping of data to the plot area."""
    W, H, LEFT, RIGHT, TOP, BOTTOM = 720, 380, 70, 170, 30, 45

    def __init__(self, xs, ys):
        self.x0, self.x1 = math.log10(min(xs)), math.log10(max(xs))
        self.y0, self.y1 = math.log10(min(ys)), math.log10(max(ys))
        if self.x1 - self.x0 < 1e-9:
            self.x0, self.x1 = self.x0 - 0.5, self.x1 + 0.5
        pad = max(0.05, (self.y1 - self.y0) * 0.05)
        self.y0, self.y1 = self.y0 - pad, self.y1 + pad

    def x(self, v):
        span = self.W - self.LEFT - self.RIGHT
        return self.LEFT + (math.log10(v) - self.x0) / (self.x1 - self.x0) * span

    def y(self, v):
        span = self.H - self.TOP - self.BOTTOM
        return self.H - self.BOTTOM - (math.log10(v) - self.y0) / (self.y1 - self.y0) * span


def plot_points(config):
    """[(size, value, lo, hi)] with positive values; the bars are the compare tool's interval."""
    points = []
    for s in config.sizes:
        b = s["between"]
        if not b or b["value"] <= 0:
            continue
        lo = b["ci_lo"] if b["ci_lo"] and b["ci_lo"] > 0 else b["value"]
        hi = b["ci_hi"] if b["ci_hi"] and b["ci_hi"] > 0 else b["value"]
        points.append((s["size"], b["value"], lo, hi))
    return points


def svg_frame(ax, title, xlabel, ylabel):
    """Title, frame, the y axis' log ticks and both axis labels; the x ticks are the caller's."""
    bottom, right = ax.H - ax.BOTTOM, ax.W - ax.RIGHT
    parts = [f'<text x="{ax.W / 2:.0f}" y="18" text-anchor="middle" class="pt">{h(title)}</text>',
             f'<rect x="{ax.LEFT}" y="{ax.TOP}" width="{right - ax.LEFT}" height="{bottom - ax.TOP}" '
             f'class="frame"/>']
    for t in log_ticks(10 ** ax.y0, 10 ** ax.y1):
        y = ax.y(t)
        parts.append(f'<line x1="{ax.LEFT}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
                     f'<text x="{ax.LEFT - 5}" y="{y + 4:.1f}" text-anchor="end">{t:.6g}</text>')
    parts.append(f'<text x="{(ax.LEFT + right) / 2:.0f}" y="{ax.H - 8}" text-anchor="middle">'
                 f'{h(xlabel)}</text>')
    parts.append(f'<text transform="translate(14 {(ax.TOP + bottom) / 2:.0f}) rotate(-90)" '
                 f'text-anchor="middle">{h(ylabel)}</text>')
    return parts


def x_tick(ax, x, text):
    bottom = ax.H - ax.BOTTOM
    return (f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{ax.TOP}" y2="{bottom}" class="grid"/>'
            f'<text x="{x:.1f}" y="{bottom + 15}" text-anchor="middle">{text}</text>')


def svg_axes(ax, xs, title, ylabel):
    parts = svg_frame(ax, title, "message size (bytes)", ylabel)
    sizes = sorted(set(xs))
    step = max(1, math.ceil(len(sizes) / 10))
    parts.extend(x_tick(ax, ax.x(s), fmt_size(s)) for s in sizes[::step])
    return parts


def svg_series(ax, index, config, points):
    color = PALETTE[index % len(PALETTE)]
    path = " ".join(f"{'M' if i == 0 else 'L'}{ax.x(s):.1f},{ax.y(v):.1f}"
                    for i, (s, v, _, _) in enumerate(points))
    parts = [f'<path d="{path}" stroke="{color}" class="series"/>']
    for s, v, lo, hi in points:
        x = ax.x(s)
        parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{ax.y(lo):.1f}" y2="{ax.y(hi):.1f}" '
                     f'stroke="{color}"/><circle cx="{x:.1f}" cy="{ax.y(v):.1f}" r="2.5" '
                     f'fill="{color}"><title>{h(config.label)} {fmt_size(s)}: {fmt_num(v)} '
                     f'[{fmt_num(lo)}, {fmt_num(hi)}]</title></circle>')
    y = ax.TOP + 14 * index + 8
    lx = ax.W - ax.RIGHT + 10
    parts.append(f'<line x1="{lx}" x2="{lx + 18}" y1="{y}" y2="{y}" stroke="{color}" '
                 f'stroke-width="2"/><a href="#{config.ident}"><text x="{lx + 22}" y="{y + 4}">'
                 f'{h(config.label[:22])}</text></a>')
    return parts


def svg_plot(program, configs):
    """One log-log plot of up to MAX_SERIES configurations of one program; '' without points."""
    series = [(c, plot_points(c)) for c in configs]
    series = [(c, p) for c, p in series if p]
    if not series:
        return ""
    q = series[0][0].quantity
    xs = [s for _, p in series for s, _, _, _ in p]
    ys = [y for _, p in series for _, v, lo, hi in p for y in (v, lo, hi)]
    ax = Axes(xs, ys)
    title = f"{program}: {q.title}, {q.better} is better (bars: interval over launches)"
    parts = svg_axes(ax, xs, title, f"{q.title} ({q.unit})")
    for i, (c, p) in enumerate(series):
        parts.extend(svg_series(ax, i, c, p))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="plot" width="{ax.W}" height="{ax.H}" '
            f'viewBox="0 0 {ax.W} {ax.H}" role="img" aria-label="{h(title)}">'
            + "".join(parts) + "</svg>")


# ---------------------------------------------------------------- a soak's series over time

def svg_over_time(title, unit, series, steps, names=None):
    """Each size's value over a soak's time (x linear in seconds, y logarithmic): series is
    {size: [(t_s, value)]} (the first len(PALETTE) sizes drawn), steps [(t_s, size, text)] drawn as
    marks; names: {key: legend} where series' keys are not sizes."""
    series = {size: [(t, v) for t, v in points if v and v > 0] for size, points in series.items()}
    series = {size: points for size, points in series.items() if points}
    if not series:
        return ""
    ts = [t for points in series.values() for t, _ in points]
    ys = [v for points in series.values() for _, v in points]
    ax = Axes([1, 10], ys)  # y as the other plots; x mapped below
    t0, t1 = min(ts), max(ts)
    t1 = t1 if t1 > t0 else t0 + 1
    span = ax.W - ax.LEFT - ax.RIGHT
    x = lambda t: ax.LEFT + (t - t0) / (t1 - t0) * span  # noqa: E731
    bottom, right = ax.H - ax.BOTTOM, ax.W - ax.RIGHT
    parts = svg_frame(ax, title, "seconds since the soak began", unit)
    parts.extend(x_tick(ax, x(t0 + (t1 - t0) * k / 5), f"{t0 + (t1 - t0) * k / 5:.3g}") for k in range(6))
    for i, (size, points) in enumerate(sorted(series.items())[:len(PALETTE)]):
        color = PALETTE[i % len(PALETTE)]
        path = " ".join(f"{'M' if j == 0 else 'L'}{x(t):.1f},{ax.y(v):.1f}" for j, (t, v) in enumerate(points))
        name = h(names[size]) if names else fmt_size(size)
        parts.append(f'<path d="{path}" stroke="{color}" class="series"><title>{name}</title></path>')
        y = ax.TOP + 14 * i + 8
        parts.append(f'<line x1="{right + 10}" x2="{right + 28}" y1="{y}" y2="{y}" stroke="{color}" '
                     f'stroke-width="2"/><text x="{right + 32}" y="{y + 4}">{name}</text>')
    for t, size, text in steps:
        parts.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="{ax.TOP}" y2="{bottom}" class="soak-step-mark">'
                     f'<title>{h(text)}</title></line>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="plot soak-plot" width="{ax.W}" height="{ax.H}" '
            f'viewBox="0 0 {ax.W} {ax.H}" role="img" aria-label="{h(title)}">' + "".join(parts) + "</svg>")
