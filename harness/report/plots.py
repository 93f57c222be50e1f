"""The report's plots, drawn with matplotlib's object API on the Agg canvas.

No pyplot and no display: each plot is a fresh `Figure`, so drawing is free of
global state and works on a headless machine.  Colours are Paul Tol's *muted*
palette (distinguishable with the common colour-vision deficiencies),
extended by five of his vibrant scheme; each solver keeps one colour and one
marker (and a line style) in every plot of a report, so plots survive
grey-scale printing.  Solvers that gave a wrong answer are drawn in grey and
labelled ``(WRONG)``.

- cactus: puzzles solved (y) within a time per puzzle (x, log), per corpus
  (or the SAT competition's way: puzzles solved on x, time on y);
- versus: each solver against the best-ranked one per puzzle, one small
  panel each, log-log with the diagonal, the 2x lines and the time limit
  (unsolved puzzles sit beyond it);
- scatter: the same for one chosen pair of solvers, larger (``--pair``,
  ``--all-pairs``);
- distribution: box plots of solved times per solver, per corpus;
- difficulty: time against the puzzles' difficulty rating, one panel per
  solver, with the median per rating step (when ratings exist);
- kinds: each solver's median time per constraint kind (when the puzzles
  have constraints; a puzzle of several kinds counts for each).
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
# Past the muted nine: colours of Tol's vibrant, light and dark schemes that differ from
# them and from each other, so 24 solvers get 24 colours (the marker tells past that)
PALETTE = (
    *TOL_MUTED,
    *("#EE7733", "#0077BB", "#CC3311", "#EE3377", "#555555"),
    *("#77AADD", "#BBCC33", "#EE8866", "#FFAABB", "#44BB99", "#AAAA00"),
    *("#222255", "#225555", "#663333", "#666633"),
)
LINE_STYLES = ("-", "--", "-.")  # dotted is the virtual best solver's
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h", "<", ">", "p", "d", "8")
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


def new_figure(width: float = 7.0, height: float = 4.5, layout: Any = "constrained") -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout=layout)


def time_axis(axis: Any, ticks: int = 11) -> None:
    """A log time axis labelled 100 µs, 1 ms, 10 ms ... (decades only, no mathtext).

    Plain labels read better than 10^-3, and leaving out the minor ticks
    halves the drawing time, which matters for the dozens of scatter plots of
    a large study.  `ticks` caps the labels (every other decade past it), so
    a small panel spanning many decades keeps its labels apart.
    """
    from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

    axis.set_major_locator(LogLocator(base=10, numticks=ticks))
    axis.set_major_formatter(FuncFormatter(lambda value, _: format_seconds(value)))
    axis.set_minor_locator(NullLocator())


def _wrapped(text: str, width: int) -> str:
    """`text` broken into lines of at most `width` characters (long names at any character)."""
    import textwrap

    return "\n".join(textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False))


def solver_styles(report: Report) -> dict[str, dict[str, Any]]:
    """A stable colour, line style and marker per solver label (the report's solver order)."""
    styles: dict[str, dict[str, Any]] = {}
    for i, label in enumerate(report.solvers):
        wrong = label in report.flagged
        lap = i // len(PALETTE)  # past the palette, markers shift: (colour, marker) stays unique
        styles[label] = {
            "color": WRONG_COLOUR if wrong else PALETTE[i % len(PALETTE)],
            "linestyle": LINE_STYLES[i % len(LINE_STYLES)],
            "marker": MARKERS[(i + lap) % len(MARKERS)],
            "label": f"{label} (WRONG)" if wrong else label,
        }
    styles[VBS] = {"color": "black", "linestyle": (0, (1, 1)), "marker": "", "label": VBS}
    return styles


def save(fig: Any, fmt: str) -> bytes:
    buffer = io.BytesIO()
    options = {"pil_kwargs": {"compress_level": 3}} if fmt == "png" else {}
    fig.savefig(buffer, format=fmt, dpi=DPI, **options)
    return buffer.getvalue()


def largest_limit(report: Report, corpus: str | None = None) -> float | None:
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


CACTUS_ORIENTATIONS = ("time", "solved")


def cactus(report: Report, corpus: str, fmt: str = "png", orientation: str = "time") -> Plot:
    """Puzzles solved within t against t (log), one line per solver, with its count solved.

    `orientation` "solved" draws the SAT competition's way instead: puzzles
    solved on x, the time per puzzle (log) on y, each line sorted by time.
    """
    import numpy as np

    if orientation not in CACTUS_ORIENTATIONS:
        raise ValueError(f"cactus orientation must be time or solved, not {orientation!r}")
    many = max(0, len(report.solvers) - 10)
    fig = new_figure(8.0, 4.5 + 0.15 * many)
    ax = fig.add_subplot()
    styles = solver_styles(report)
    total = len({o.puzzle_id for o in report.outcomes if o.corpus == corpus})
    series = {VBS: _vbs_times(report, corpus)}  # drawn first: the solvers' lines on top
    series.update((s, sorted(t)) for s, t in report.times(corpus).items())
    for label, times in series.items():
        if not times:
            continue
        style = styles[label]
        counts = np.arange(1, len(times) + 1)
        x, y = (np.asarray(times), counts) if orientation == "time" else (counts, times)
        ax.step(
            x, y, where="post" if orientation == "time" else "pre",
            color=style["color"], linestyle=style["linestyle"],
            label=f"{style['label']}: {len(times)}", linewidth=1.6 if not many else 1.2,
            marker=style["marker"], markevery=0.1, markersize=5 if not many else 4,
            zorder=1 if label == VBS else 2,
        )  # fmt: skip
    axis_of_time, count_axis = (
        (ax.xaxis, ax.yaxis) if orientation == "time" else (ax.yaxis, ax.xaxis)
    )
    limit = largest_limit(report, corpus)
    line = ax.axvline if orientation == "time" else ax.axhline
    if limit:
        line(limit, color="grey", linewidth=0.8, linestyle="--")
        where = (limit, total * 0.5) if orientation == "time" else (total * 0.5, limit)
        ax.annotate("time limit", where, rotation=90 if orientation == "time" else 0,
                    va="center" if orientation == "time" else "bottom", ha="right"
                    if orientation == "time" else "center", fontsize=8)  # fmt: skip
    (ax.axhline if orientation == "time" else ax.axvline)(total, color="grey", linewidth=0.6)
    if orientation == "time":
        ax.set_xscale("log")
        ax.set_ylim(0, max(total, 1) * 1.04)
    else:
        ax.set_yscale("log")
        ax.set_xlim(0, max(total, 1) * 1.04)
    time_axis(axis_of_time)
    axis_of_time.set_label_text("wall time per puzzle (log scale)")
    count_axis.set_label_text("puzzles solved")
    how = "" if orientation == "time" else ", SAT-competition orientation"
    ax.set_title(f"Cactus plot: {corpus} ({total} puzzles{how})")
    ax.grid(True, which="major", alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    if series[VBS]:  # the virtual best solver last in the legend, as in the tables
        handles, labels = handles[1:] + handles[:1], labels[1:] + labels[:1]
    ax.legend(
        handles, labels, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0),
        frameon=False, title="solved", title_fontsize=8, alignment="left",
    )  # fmt: skip
    return Plot(f"cactus-{slug(corpus)}", f"Cactus plot: {corpus}", save(fig, fmt), fmt)


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


@dataclass(frozen=True)
class _Frame:
    """The shared axes of a scatter: lowest time, the limit line and where unsolved sit."""

    low: float
    edge: float
    beyond: float
    limit: float | None

    @property
    def span(self) -> list[float]:
        return [self.low, self.beyond * 1.4]

    def place(self, values: list[float]) -> Any:
        import numpy as np

        return np.array([self.beyond if not math.isfinite(v) else max(v, self.low) for v in values])


def _frame(report: Report, times: list[float]) -> _Frame:
    finite = [t for t in times if math.isfinite(t) and t > 0]
    limit = largest_limit(report)
    low = min(finite) / 2 if finite else 1e-6
    edge = limit if limit else (max(finite) if finite else 1.0)
    return _Frame(low, edge, edge * 1.6, limit)  # unsolved: past the limit line


def _draw_pair(
    ax: Any, frame: _Frame, xs: list[float], ys: list[float], style: dict, ticks: int = 11
) -> dict:
    """Points, diagonal, 2x lines and limit lines on one axis; returns the artists and wins."""
    import numpy as np

    x, y = frame.place(xs), frame.place(ys)
    points = ax.plot(
        x, y, style["marker"] or "o", markersize=3, alpha=0.5, color=style["color"],
        rasterized=True, mec="none",
    )[0]  # fmt: skip
    span = frame.span
    diagonal = ax.plot(span, span, color="black", linewidth=0.8)[0]
    for factor in (2.0, 0.5):
        double = ax.plot(
            span, [v * factor for v in span], color="grey", linewidth=0.6, linestyle=":"
        )[0]
    where = frame.edge * (1 if frame.limit else 1.2)
    boundary = ax.axvline(where, color="#CC6677", linestyle="--", lw=0.8)
    ax.axhline(where, color="#CC6677", linestyle="--", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    time_axis(ax.xaxis, ticks)
    time_axis(ax.yaxis, ticks)
    ax.set_xlim(span)
    ax.set_ylim(span)
    ax.set_aspect("equal")
    ax.grid(True, which="major", alpha=0.3)
    return {
        "artists": [points, diagonal, double, boundary],
        "x_faster": int(np.sum(x < y)),
        "y_faster": int(np.sum(y < x)),
    }


def _legend_labels(frame: _Frame) -> list[str]:
    where = f"time limit ({frame.edge:g} s)" if frame.limit else "slowest solve (no limit known)"
    return ["one puzzle (unsolved: beyond the dashed lines)", "equal time", "2x faster / slower",
            where]  # fmt: skip


def scatter(report: Report, a: str, b: str, fmt: str = "png") -> Plot:
    """Solver A (x) against solver B (y) per puzzle, log-log, with the timeout lines."""
    xs, ys, count = _pair_points(report, a, b)
    frame = _frame(report, xs + ys)
    fig = new_figure(5.6, 6.1, layout=None)
    fig.subplots_adjust(left=0.15, right=0.96, bottom=0.17, top=0.9)
    ax = fig.add_subplot()
    drawn = _draw_pair(
        ax, frame, xs, ys, solver_styles(report).get(b, {"color": PALETTE[0], "marker": "o"})
    )
    ax.set_xlabel(f"{_label(report, a)}: wall time per puzzle")
    ax.set_ylabel(f"{_label(report, b)}: wall time per puzzle")
    ax.set_title(
        f"{_label(report, a)} vs {_label(report, b)}: {count} puzzles\n"
        f"below the diagonal: {b} faster ({drawn['y_faster']}); "
        f"above: {a} faster ({drawn['x_faster']})",
        fontsize=9,
    )
    fig.legend(drawn["artists"], _legend_labels(frame), fontsize=8, loc="lower center", ncol=2,
               frameon=False)  # fmt: skip
    return Plot(f"scatter-{slug(a)}-vs-{slug(b)}", f"{a} vs {b}", save(fig, fmt), fmt)


def reference_solver(report: Report) -> str | None:
    """The best-ranked solver (first in the report's order), if any solver has a rank."""
    ranked = {r.solver for r in report.summary if r.rank is not None and not r.is_vbs}
    return next((s for s in report.solvers if s in ranked), None)


def versus(report: Report, fmt: str = "png") -> Plot | None:
    """Every other solver against the best-ranked one, a small log-log panel each.

    One figure instead of a scatter per pair: with nine solvers it is eight
    panels, where every pair would be 36 plots.  None without a ranked solver
    or with no other solver.
    """
    best = reference_solver(report)
    others = [s for s in report.solvers if s != best]
    if best is None or not others:
        return None
    pairs = {s: _pair_points(report, best, s) for s in others}
    frame = _frame(report, [t for xs, ys, _ in pairs.values() for t in xs + ys])
    styles = solver_styles(report)
    columns = min(3, len(others)) if len(others) <= 9 else 4
    rows = math.ceil(len(others) / columns)
    # Margins in inches: title (two lines), legend (one or two lines), a panel's title
    # (two lines) and tick labels between rows; at least 7 inches wide, so the title and
    # the legend fit beside a single panel.
    legend_columns = 4 if columns >= 3 else 2
    top = 0.6 + 0.2 * math.ceil(4 / legend_columns) + 0.45
    panel, gap, bottom, left = 2.8, 0.75, 0.75, 0.8
    width = max(7.0, (panel + 0.15) * columns + left + 0.2)
    height = top + rows * panel + (rows - 1) * gap + bottom
    fig = new_figure(width, height, layout=None)
    fig.subplots_adjust(left=left / width, right=1 - 0.2 / width, bottom=bottom / height,
                        top=1 - top / height, wspace=0.15 / panel, hspace=gap / panel)  # fmt: skip
    axes = fig.subplots(rows, columns, sharex=True, sharey=True, squeeze=False)
    drawn: dict = {}
    for ax, label in itertools.zip_longest(axes.flat, others):
        if label is None:
            ax.set_visible(False)
            continue
        xs, ys, count = pairs[label]
        drawn = _draw_pair(ax, frame, xs, ys, styles[label], ticks=5)
        ax.set_title(
            f"{_wrapped(styles[label]['label'], 34)}\nfaster on {drawn['y_faster']}, "
            f"slower on {drawn['x_faster']}",
            fontsize=8,
            color="black",
        )
        ax.tick_params(labelsize=7)
    for ax in axes.flat:  # x tick labels under every panel: a row may end early
        ax.xaxis.set_tick_params(labelbottom=True)
    fig.supxlabel(
        f"{_label(report, best)} (best-ranked): wall time per puzzle", fontsize=9, y=0.1 / height
    )
    fig.supylabel("the other solver: wall time per puzzle", fontsize=9, x=0.1 / width)
    fig.suptitle(
        f"Each solver against {_wrapped(_label(report, best), 40)}, per puzzle\n"
        "(below the diagonal: the other solver is faster)",
        fontsize=10,
        y=1 - 0.1 / height,
        va="top",
    )
    if drawn:
        from matplotlib.lines import Line2D

        point = Line2D([], [], marker="o", linestyle="", color="grey", markersize=4)
        fig.legend([point, *drawn["artists"][1:]], _legend_labels(frame), fontsize=7,
                   loc="upper center", bbox_to_anchor=(0.5, 1 - 0.6 / height),
                   ncol=legend_columns, frameon=False)  # fmt: skip
    title = f"Each solver against {best}"
    return Plot(f"versus-{slug(best)}", title, save(fig, fmt), fmt)


def _label(report: Report, solver: str) -> str:
    return f"{solver} (WRONG)" if solver in report.flagged else solver


def distribution(report: Report, corpus: str, fmt: str = "png") -> Plot:
    """Box plots of the solved times per solver (log axis)."""
    times = {s: t for s, t in report.times(corpus).items() if t}
    styles = solver_styles(report)
    fig = new_figure(7.0, 0.9 + 0.42 * max(len(times), 1))
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
        for y, label in enumerate(labels, 1):  # the solver's marker at its median
            ax.plot([statistics.median(times[label])], [y], styles[label]["marker"],
                    color=styles[label]["color"], mec="black", mew=0.6, markersize=6)  # fmt: skip
        ax.set_yticks(range(1, len(labels) + 1), [styles[s]["label"] for s in labels])
    ax.set_xscale("log")
    time_axis(ax.xaxis)
    ax.set_xlabel("wall time per solved puzzle (log scale)")
    ax.set_title(
        f"Time distribution: {corpus}\nbox: quartiles; marker: median; whiskers: 5th to 95th "
        "percentile",
        fontsize=10,
    )
    ax.grid(True, axis="x", which="major", alpha=0.3)
    title = f"Time distribution: {corpus}"
    return Plot(f"distribution-{slug(corpus)}", title, save(fig, fmt), fmt)


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
    styles = solver_styles(report)
    columns = min(3, len(solvers))
    rows = math.ceil(len(solvers) / columns)
    fig = new_figure(3.2 * columns + 0.6, 2.6 * rows + 0.8)
    axes = fig.subplots(rows, columns, sharex=True, sharey=True, squeeze=False)
    for index, (ax, label) in enumerate(itertools.zip_longest(axes.flat, solvers)):
        if label is None:
            ax.set_visible(False)
            axes.flat[index - columns].xaxis.set_tick_params(labelbottom=True)
            continue
        xs, ys = zip(*points[label], strict=True)
        colour, marker = styles[label]["color"], styles[label]["marker"]
        ax.plot(xs, ys, marker, markersize=3, alpha=0.5, color=colour, mec="none", rasterized=True)
        steps = _median_by_step(points[label])
        inside = [(r, m) for r, m in steps if r < beyond]
        ax.plot([r for r, _ in inside], [m for _, m in inside], color="black", linewidth=1.2)
        ax.plot([r for r, _ in steps if r >= beyond], [m for r, m in steps if r >= beyond],
                "_", color="black", markersize=14, markeredgewidth=1.6)  # fmt: skip
        ax.set_yscale("log")
        time_axis(ax.yaxis)
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
    return Plot(f"difficulty-{slug(corpus)}", f"Time vs difficulty: {corpus}", save(fig, fmt), fmt)


def _median_by_step(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """Median time per rating, rounded to one decimal (ratings are coarse scales)."""
    groups: dict[float, list[float]] = defaultdict(list)
    for rating, t in points:
        groups[round(rating, 1)].append(t)
    return [(r, statistics.median(ts)) for r, ts in sorted(groups.items())]


def kinds(report: Report, fmt: str = "png") -> Plot | None:
    """Median solved time per constraint kind, one line per solver (`kinds_figure`); None
    when no puzzle has constraints."""
    fig = kinds_figure(report)
    if fig is None:
        return None
    return Plot("kinds", "Time per constraint kind", save(fig, fmt), fmt)


def kinds_figure(report: Report) -> Any:
    """The figure of `kinds`: x, the kinds in `KINDS` order; y, each solver's median solved
    time (log), one line and marker per solver; None when no puzzle has constraints."""
    from harness.report.kinds import kinds_present, median_times

    medians = median_times(report)
    present = [k for k in kinds_present(report) if any(k in m for m in medians.values())]
    if not present:
        return None
    styles = solver_styles(report)
    fig = new_figure(max(6.0, 1.0 + 0.55 * len(present)), 4.5)
    ax = fig.add_subplot()
    for solver in report.solvers:
        per = medians.get(solver, {})
        points = [(i, per[k]) for i, k in enumerate(present) if k in per]
        if not points:
            continue
        style = styles[solver]
        ax.plot([x for x, _ in points], [y for _, y in points], color=style["color"],
                linestyle=style["linestyle"], marker=style["marker"], label=style["label"],
                markersize=6, linewidth=1.2, alpha=0.9)  # fmt: skip
    ax.set_xticks(range(len(present)), present, rotation=35, ha="right")
    ax.set_yscale("log")
    time_axis(ax.yaxis)
    ax.set_ylabel("median wall time per solved puzzle (log scale)")
    ax.set_title(
        "Time per constraint kind\n(a puzzle of several kinds counts for each)", fontsize=10
    )
    ax.grid(True, axis="y", which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    return fig


def solver_pairs(
    report: Report, named: Sequence[tuple[str, str]] = (), all_pairs: bool = False
) -> list[tuple[str, str]]:
    """The pairs to scatter one by one: the named ones (checked), every pair with
    `all_pairs`, else none (the `versus` figure covers the default)."""
    solvers = report.solvers
    unknown = sorted({s for pair in named for s in pair} - set(solvers))
    if unknown:
        raise ValueError(
            f"--pair names {', '.join(unknown)}, not in the report; solvers: {', '.join(solvers)}"
        )
    pairs = list(named)
    if all_pairs:
        pairs += [p for p in itertools.combinations(solvers, 2) if p not in pairs]
    return pairs


def all_plots(
    report: Report,
    pairs: Sequence[tuple[str, str]] = (),
    fmt: str = "png",
    *,
    all_pairs: bool = False,
    cactus_orientation: str = "time",
) -> Iterator[Plot]:
    """Every plot of a report, in the order a reader wants them.

    By default the pairwise comparison is one `versus` figure (each solver
    against the best-ranked one); `pairs` and `all_pairs` add one scatter per pair.
    """
    if fmt not in ("png", "svg"):
        raise ValueError(f"plot format must be png or svg, not {fmt!r}")
    for corpus in report.corpora:
        yield cactus(report, corpus, fmt, cactus_orientation)
    for corpus in report.corpora:
        yield distribution(report, corpus, fmt)
    comparison = versus(report, fmt)
    if comparison is not None:
        yield comparison
    for corpus in report.corpora:
        plot = difficulty(report, corpus, fmt)
        if plot is not None:
            yield plot
    by_kind = kinds(report, fmt)
    if by_kind is not None:
        yield by_kind
    for a, b in solver_pairs(report, pairs, all_pairs):
        yield scatter(report, a, b, fmt)
    from harness.report.stat_plots import statistics_plots  # it draws with this module

    yield from statistics_plots(report, fmt)
