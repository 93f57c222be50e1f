"""The report's plots, drawn with matplotlib's object API on the Agg canvas.

No pyplot and no display: each plot is a fresh `Figure`, so drawing is free of
global state and works on a headless machine.  Colours are Paul Tol's *muted*
palette (distinguishable with the common colour-vision deficiencies), and
each solver also gets its own line style or marker, so plots survive
grey-scale printing.  Solvers that gave a wrong answer are drawn in grey and
labelled ``(WRONG)``.

- cactus: puzzles solved (y) within a time per puzzle (x, log), per corpus;
- scatter: solver A against solver B per puzzle, log-log, with the diagonal,
  the 2x lines and the time limit; unsolved puzzles sit beyond the limit;
- distribution: box plots of solved times per solver, per corpus;
- difficulty: time against the puzzles' difficulty rating, one panel per
  solver, with the median per rating step (when ratings exist).
"""

from __future__ import annotations

import io
import itertools
import math
import re
import statistics
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from harness.report.study import Report
from harness.report.summary import VBS
from harness.report.tables import format_seconds

TOL_MUTED = (
    "#332288",
    "#88CCEE",
    "#44AA99",
    "#117733",
    "#999933",
    "#DDCC77",
    "#CC6677",
    "#882255",
    "#AA4499",
)
LINE_STYLES = ("-", "--", "-.")  # dotted is the virtual best solver's
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h")
WRONG_COLOUR = "#BBBBBB"
DPI = 110


@dataclass(frozen=True)
class Plot:
    """A rendered plot: a file-friendly name, a title, and the image bytes."""

    name: str
    title: str
    data: bytes
    format: str  # png | svg


def slug(text: str) -> str:
    """A file-name-safe version of a solver or corpus name."""
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "x"


def _figure(width: float = 7.0, height: float = 4.5, layout: Any = "constrained") -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout=layout)


def _time_axis(axis: Any) -> None:
    """A log time axis labelled 100 µs, 1 ms, 10 ms ... (decades only, no mathtext).

    Plain labels read better than 10^-3, and leaving out the minor ticks
    halves the drawing time, which matters for the dozens of scatter plots of
    a large study.
    """
    from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

    axis.set_major_locator(LogLocator(base=10))
    axis.set_major_formatter(FuncFormatter(lambda value, _: format_seconds(value)))
    axis.set_minor_locator(NullLocator())


def _style(report: Report) -> dict[str, dict[str, Any]]:
    """A stable colour, line style and marker per solver label."""
    styles: dict[str, dict[str, Any]] = {}
    for i, label in enumerate(report.solvers):
        wrong = label in report.flagged
        styles[label] = {
            "color": WRONG_COLOUR if wrong else TOL_MUTED[i % len(TOL_MUTED)],
            "linestyle": LINE_STYLES[(i // len(TOL_MUTED) + i) % len(LINE_STYLES)],
            # past the ninth solver colours repeat: those lines also carry markers
            "marker": MARKERS[i % len(MARKERS)] if i >= len(TOL_MUTED) else "",
            "label": f"{label} (WRONG)" if wrong else label,
        }
    styles[VBS] = {"color": "black", "linestyle": (0, (1, 1)), "marker": "", "label": VBS}
    return styles


def _save(fig: Any, fmt: str) -> bytes:
    buffer = io.BytesIO()
    options = {"pil_kwargs": {"compress_level": 3}} if fmt == "png" else {}
    fig.savefig(buffer, format=fmt, dpi=DPI, **options)
    return buffer.getvalue()


def _limit(report: Report, corpus: str | None = None) -> float | None:
    """The largest time limit in force (for the timeout lines), if any is known."""
    from harness.report.study import default_time_limits

    defaults = default_time_limits(report.runs)
    limits = [
        o.time_limit if o.time_limit is not None else defaults.get(o.run_id)
        for o in report.outcomes
        if corpus is None or o.corpus == corpus
    ]
    known = [lim for lim in limits if lim is not None]
    return max(known) if known else None


def _vbs_times(report: Report, corpus: str) -> list[float]:
    best: dict[str, float] = {}
    for o in report.outcomes:
        if o.corpus != corpus or o.solver in report.flagged:
            continue
        if o.solved and o.wall is not None:
            best[o.puzzle_id] = min(o.wall, best.get(o.puzzle_id, math.inf))
    return sorted(best.values())


def cactus(report: Report, corpus: str, fmt: str = "png") -> Plot:
    """Puzzles solved within t, against t on a log axis, one line per solver."""
    import numpy as np

    fig = _figure(8.0, 4.5)
    ax = fig.add_subplot()
    styles = _style(report)
    total = len({o.puzzle_id for o in report.outcomes if o.corpus == corpus})
    series = {s: sorted(t) for s, t in report.times(corpus).items()}
    series[VBS] = _vbs_times(report, corpus)
    for label, times in series.items():
        if not times:
            continue
        style = styles[label]
        ax.step(
            np.asarray(times), np.arange(1, len(times) + 1), where="post",
            color=style["color"], linestyle=style["linestyle"], label=style["label"],
            linewidth=1.6, marker=style["marker"], markevery=0.1, markersize=5,
        )  # fmt: skip
    limit = _limit(report, corpus)
    if limit:
        ax.axvline(limit, color="grey", linewidth=0.8, linestyle="--")
        ax.annotate(
            "time limit", (limit, total * 0.5), rotation=90, va="center", ha="right", fontsize=8
        )
    ax.axhline(total, color="grey", linewidth=0.6)
    ax.set_xscale("log")
    _time_axis(ax.xaxis)
    ax.set_xlabel("wall time per puzzle (log scale)")
    ax.set_ylabel("puzzles solved")
    ax.set_ylim(0, max(total, 1) * 1.04)
    ax.set_title(f"Cactus plot: {corpus} ({total} puzzles)")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return Plot(f"cactus-{slug(corpus)}", f"Cactus plot: {corpus}", _save(fig, fmt), fmt)


def _pair_points(report: Report, a: str, b: str) -> tuple[list[float], list[float], int]:
    """Per puzzle (all corpora) the two times, unsolved ones as inf; and the count of ties."""
    times: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
    for o in report.outcomes:
        if o.solver in (a, b):
            t = o.wall if o.solved and o.wall is not None else math.inf
            times[(o.corpus, o.puzzle_id)][o.solver] = t
    xs, ys = [], []
    for pair in times.values():
        if a in pair and b in pair:
            xs.append(pair[a])
            ys.append(pair[b])
    return xs, ys, len(xs)


def scatter(report: Report, a: str, b: str, fmt: str = "png") -> Plot:
    """Solver A (x) against solver B (y) per puzzle, log-log, with the timeout lines."""
    import numpy as np

    xs, ys, count = _pair_points(report, a, b)
    fig = _figure(5.6, 6.1, layout=None)
    fig.subplots_adjust(left=0.15, right=0.96, bottom=0.17, top=0.9)
    ax = fig.add_subplot()
    finite = [t for t in xs + ys if math.isfinite(t) and t > 0]
    limit = _limit(report)
    low = min(finite) / 2 if finite else 1e-6
    edge = limit if limit else (max(finite) if finite else 1.0)
    beyond = edge * 1.6  # where unsolved puzzles are drawn, past the limit line
    x = np.array([beyond if not math.isfinite(v) else max(v, low) for v in xs])
    y = np.array([beyond if not math.isfinite(v) else max(v, low) for v in ys])
    points = ax.plot(
        x, y, "o", markersize=3, alpha=0.45, color=TOL_MUTED[0], rasterized=True, mec="none"
    )[0]
    span = [low, beyond * 1.4]
    diagonal = ax.plot(span, span, color="black", linewidth=0.8)[0]
    for factor in (2.0, 0.5):
        double = ax.plot(
            span, [v * factor for v in span], color="grey", linewidth=0.6, linestyle=":"
        )[0]
    where = f"time limit ({edge:g} s)" if limit else "slowest solve (no time limit known)"
    boundary = ax.axvline(edge * (1 if limit else 1.2), color="#CC6677", linestyle="--", lw=0.8)
    ax.axhline(edge * (1 if limit else 1.2), color="#CC6677", linestyle="--", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    _time_axis(ax.xaxis)
    _time_axis(ax.yaxis)
    ax.set_xlim(span)
    ax.set_ylim(span)
    ax.set_aspect("equal")
    wins_b = int(np.sum(y < x))
    wins_a = int(np.sum(x < y))
    ax.set_xlabel(f"{_label(report, a)}: wall time per puzzle")
    ax.set_ylabel(f"{_label(report, b)}: wall time per puzzle")
    ax.set_title(
        f"{_label(report, a)} vs {_label(report, b)}: {count} puzzles\n"
        f"below the diagonal: {b} faster ({wins_b}); above: {a} faster ({wins_a})",
        fontsize=9,
    )
    ax.grid(True, which="major", alpha=0.3)
    fig.legend(
        [points, diagonal, double, boundary],
        ["one puzzle (unsolved: beyond the dashed lines)", "equal time", "2x faster / slower",
         where],
        fontsize=8, loc="lower center", ncol=2, frameon=False,
    )  # fmt: skip
    return Plot(f"scatter-{slug(a)}-vs-{slug(b)}", f"{a} vs {b}", _save(fig, fmt), fmt)


def _label(report: Report, solver: str) -> str:
    return f"{solver} (WRONG)" if solver in report.flagged else solver


def distribution(report: Report, corpus: str, fmt: str = "png") -> Plot:
    """Box plots of the solved times per solver (log axis)."""
    times = {s: t for s, t in report.times(corpus).items() if t}
    styles = _style(report)
    fig = _figure(7.0, 0.9 + 0.42 * max(len(times), 1))
    ax = fig.add_subplot()
    labels = list(times)[::-1]  # first solver on top
    if labels:
        boxes = _horizontal_boxplot(
            ax, [times[s] for s in labels], whis=(5, 95), widths=0.6, patch_artist=True,
            flierprops={"markersize": 2, "alpha": 0.4}, medianprops={"color": "black"},
        )  # fmt: skip
        for patch, label in zip(boxes["boxes"], labels, strict=True):
            patch.set_facecolor(styles[label]["color"])
            patch.set_alpha(0.7)
        ax.set_yticks(range(1, len(labels) + 1), [styles[s]["label"] for s in labels])
    ax.set_xscale("log")
    _time_axis(ax.xaxis)
    ax.set_xlabel("wall time per solved puzzle (log scale)")
    ax.set_title(f"Time distribution: {corpus} (box: quartiles, whiskers: 5th-95th percentile)")
    ax.grid(True, axis="x", which="major", alpha=0.3)
    title = f"Time distribution: {corpus}"
    return Plot(f"distribution-{slug(corpus)}", title, _save(fig, fmt), fmt)


def _horizontal_boxplot(ax: Any, data: list[list[float]], **options: Any) -> Any:
    """Horizontal boxes on matplotlib before and after 3.10 (``vert`` was deprecated)."""
    import matplotlib

    major, minor = (int(p) for p in matplotlib.__version__.split(".")[:2])
    if (major, minor) >= (3, 10):
        return ax.boxplot(data, orientation="horizontal", **options)
    return ax.boxplot(data, vert=False, **options)


def difficulty(report: Report, corpus: str, fmt: str = "png") -> Plot | None:
    """Time against difficulty rating, one panel per solver; None without ratings.

    Puzzles rated ``inf`` (logic alone cannot finish them) get their own
    column right of the scale, labelled "beyond logic".
    """
    rated = {pid: r for (c, pid), r in report.ratings.items() if c == corpus and not math.isnan(r)}
    finite = [r for r in rated.values() if math.isfinite(r)]
    beyond = (max(finite) if finite else 0.0) + 1.0
    points: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for o in report.outcomes:
        rating = rated.get(o.puzzle_id)
        if o.corpus == corpus and rating is not None and o.solved and o.wall is not None:
            points[o.solver].append((rating if math.isfinite(rating) else beyond, o.wall))
    solvers = [s for s in report.solvers if points.get(s)]
    if not solvers:
        return None
    styles = _style(report)
    columns = min(3, len(solvers))
    rows = math.ceil(len(solvers) / columns)
    fig = _figure(3.2 * columns + 0.6, 2.6 * rows + 0.8)
    axes = fig.subplots(rows, columns, sharex=True, sharey=True, squeeze=False)
    for index, (ax, label) in enumerate(itertools.zip_longest(axes.flat, solvers)):
        if label is None:
            ax.set_visible(False)
            axes.flat[index - columns].xaxis.set_tick_params(labelbottom=True)
            continue
        xs, ys = zip(*points[label], strict=True)
        colour = styles[label]["color"]
        ax.plot(xs, ys, "o", markersize=3, alpha=0.5, color=colour, mec="none", rasterized=True)
        steps = _median_by_step(points[label])
        inside = [(r, m) for r, m in steps if r < beyond]
        ax.plot([r for r, _ in inside], [m for _, m in inside], color="black", linewidth=1.2)
        ax.plot([r for r, _ in steps if r >= beyond], [m for r, m in steps if r >= beyond],
                "_", color="black", markersize=14, markeredgewidth=1.6)  # fmt: skip
        ax.set_yscale("log")
        _time_axis(ax.yaxis)
        ax.set_title(styles[label]["label"], fontsize=9)
        ax.grid(True, alpha=0.3)
    if len(finite) < len(rated):
        first = math.floor(min(finite)) if finite else 0
        ticks = [t for t in range(first, math.ceil(beyond)) if t <= beyond - 1]
        for ax in axes.flat:
            ax.set_xticks([*ticks, beyond], [*map(str, ticks), "beyond\nlogic"], fontsize=7)
    fig.supxlabel(report.rating_label)
    fig.supylabel("wall time per solved puzzle (log scale)")
    fig.suptitle(f"Time vs difficulty: {corpus} (black: median per rating step)")
    return Plot(f"difficulty-{slug(corpus)}", f"Time vs difficulty: {corpus}", _save(fig, fmt), fmt)


def _median_by_step(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """Median time per rating, rounded to one decimal (ratings are coarse scales)."""
    groups: dict[float, list[float]] = defaultdict(list)
    for rating, t in points:
        groups[round(rating, 1)].append(t)
    return [(r, statistics.median(ts)) for r, ts in sorted(groups.items())]


def solver_pairs(report: Report, named: Sequence[tuple[str, str]] = ()) -> list[tuple[str, str]]:
    """The pairs to scatter: the named ones (checked), else every pair in table order."""
    solvers = report.solvers
    if not named:
        return list(itertools.combinations(solvers, 2))
    unknown = sorted({s for pair in named for s in pair} - set(solvers))
    if unknown:
        raise ValueError(
            f"--pair names {', '.join(unknown)}, not in the report; solvers: {', '.join(solvers)}"
        )
    return list(named)


def all_plots(
    report: Report, pairs: Sequence[tuple[str, str]] = (), fmt: str = "png"
) -> Iterator[Plot]:
    """Every plot of a report, in the order a reader wants them."""
    if fmt not in ("png", "svg"):
        raise ValueError(f"plot format must be png or svg, not {fmt!r}")
    for corpus in report.corpora:
        yield cactus(report, corpus, fmt)
    for corpus in report.corpora:
        yield distribution(report, corpus, fmt)
    for corpus in report.corpora:
        plot = difficulty(report, corpus, fmt)
        if plot is not None:
            yield plot
    for a, b in solver_pairs(report, pairs):
        yield scatter(report, a, b, fmt)
