"""Figures of the comparison statistics: the performance profile, the runtime distributions,
the critical-difference diagram and the hardness map.

Drawn as the other plots are (`harness.report.plots`: a fresh Figure on the
Agg canvas, each solver's colour, marker and line style), from the numbers
`harness.report.statistics` computed, so figure and table always agree.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from harness.report import plots as base
from harness.report.plots import Plot, slug
from harness.report.significance import p_text as _p
from harness.report.statistics import Statistics
from harness.report.study import Report


def profile_plot(report: Report, stats: Statistics, fmt: str = "png") -> Plot | None:
    """ρ(τ) against τ (log 2 scale) for every solver: higher and further left is better."""
    profiles = [p for p in stats.profiles if p.puzzles]
    if not profiles:
        return None
    styles = base.solver_styles(report)
    top = max((p.ratios[-1] for p in profiles if p.ratios), default=2.0)
    right = max(2.0, top * 1.5)
    fig = base.new_figure(8.0, 4.5 + 0.15 * max(0, len(profiles) - 10))
    ax = fig.add_subplot()
    for p in profiles:
        style = styles[p.solver]
        xs = [1.0, *p.ratios, right]
        ys = [p.share(1.0), *(p.share(r) for r in p.ratios), p.solved]
        ax.step(xs, ys, where="post", color=style["color"], linestyle=style["linestyle"],
                marker=style["marker"], markevery=0.1, markersize=4, linewidth=1.4,
                label=f"{style['label']}: {p.share(1.0):.0%} fastest")  # fmt: skip
    ax.set_xscale("log", base=2)
    ax.set_xlim(1.0, right)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("τ: within this factor of the fastest solver on the puzzle (log scale)")
    ax.set_ylabel("share of puzzles")
    ax.set_title(
        f"Performance profile ({profiles[0].puzzles} puzzles)\n"
        "higher and further left is better; the right end is the share solved",
        fontsize=10,
    )
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return Plot("performance-profile", "Performance profile", base.save(fig, fmt), fmt)


def runtime_plot(report: Report, stats: Statistics, corpus: str, fmt: str = "png") -> Plot | None:
    """F(t) per solver with its 95% band: the share of the corpus solved within t."""
    curves = [c for c in stats.curves.get(corpus, []) if c.times]
    if not curves:
        return None
    styles = base.solver_styles(report)
    limit = base.largest_limit(report, corpus)
    fig = base.new_figure(8.0, 4.5 + 0.15 * max(0, len(curves) - 10))
    ax = fig.add_subplot()
    end = limit or max(c.times[-1] for c in curves) * 1.5
    for c in curves:
        style = styles[c.solver]
        xs, ys = [*c.times, end], [*c.solved_share, c.solved_share[-1]]
        ax.step(xs, ys, where="post", color=style["color"], linestyle=style["linestyle"],
                marker=style["marker"], markevery=0.1, markersize=4, linewidth=1.4,
                label=f"{style['label']}: {c.solved_share[-1]:.1%}")  # fmt: skip
        ax.fill_between(xs, [*c.low, c.low[-1]], [*c.high, c.high[-1]], step="post",
                        color=style["color"], alpha=0.15, linewidth=0)  # fmt: skip
    if limit:
        ax.axvline(limit, color="grey", linewidth=0.8, linestyle="--")
        ax.annotate("time limit: unsolved puzzles censored here", (limit, 0.5), rotation=90,
                    va="center", ha="right", fontsize=8)  # fmt: skip
    ax.set_xscale("log")
    base.time_axis(ax.xaxis)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("wall time per puzzle (log scale)")
    ax.set_ylabel("share of the corpus solved within t")
    ax.set_title(
        f"Runtime distribution: {corpus} (Kaplan–Meier, 95% band)\n"
        "higher and further left is better",
        fontsize=10,
    )
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False,
              title="F(limit)", title_fontsize=8, alignment="left")  # fmt: skip
    title = f"Runtime distribution: {corpus}"
    return Plot(f"runtime-{slug(corpus)}", title, base.save(fig, fmt), fmt)


def critical_difference_plot(report: Report, stats: Statistics, fmt: str = "png") -> Plot | None:
    """The mean ranks on a line; a bar joins solvers the Nemenyi test cannot tell apart."""
    result = stats.significance
    if result is None:
        return None
    import pandas as pd
    import scikit_posthocs as posthocs

    solvers = result.solvers
    ranks = pd.Series(result.mean_ranks)
    matrix = pd.DataFrame(
        [[result.pairwise[(a, b)] for b in solvers] for a in solvers], index=solvers,
        columns=solvers,
    )  # fmt: skip
    styles = base.solver_styles(report)
    fig = base.new_figure(8.0, 2.2 + 0.22 * len(solvers))
    ax = fig.add_subplot()
    posthocs.critical_difference_diagram(
        ranks, matrix, ax=ax, alpha=result.alpha,
        color_palette={s: styles[s]["color"] for s in solvers},
        label_props={"fontsize": 8}, label_fmt_left="{label} ({rank:.2f})",
        label_fmt_right="({rank:.2f}) {label}",
    )  # fmt: skip
    verdict = "the ranks differ" if result.significant else "no significant difference"
    ax.set_title(
        f"Critical difference diagram: mean rank over {result.puzzles} puzzles (1 = best)\n"
        f"Friedman p {_p(result.p_value)} ({verdict}); a bar joins solvers the Nemenyi "
        f"test cannot tell apart (α = {result.alpha:g}; CD = {result.critical_difference:.2f})",
        fontsize=9,
    )
    return Plot("critical-difference", "Critical difference diagram", base.save(fig, fmt), fmt)


def hardness_plot(report: Report, stats: Statistics, fmt: str = "png") -> Plot | None:
    """A map of Spearman's ρ: a row per solver, a column per puzzle feature."""
    if not stats.correlations:
        return None
    import numpy as np

    features = list(dict.fromkeys(c.feature for c in stats.correlations))
    solvers = list(dict.fromkeys(c.solver for c in stats.correlations))
    by = {(c.solver, c.feature): c.rho for c in stats.correlations}
    values = np.array([[by[(s, f)] if by[(s, f)] is not None else math.nan for f in features]
                       for s in solvers])  # fmt: skip
    fig = base.new_figure(2.0 + 1.6 * len(features), 1.6 + 0.32 * len(solvers))
    ax = fig.add_subplot()
    image = ax.imshow(values, cmap="PuOr_r", vmin=-1, vmax=1, aspect="auto")
    for (i, j), rho in np.ndenumerate(values):
        text = "—" if math.isnan(rho) else f"{rho:+.2f}"
        ax.text(j, i, text, ha="center", va="center", fontsize=8,
                color="white" if not math.isnan(rho) and abs(rho) > 0.6 else "black")  # fmt: skip
    ax.set_xticks(range(len(features)), features, fontsize=8)
    ax.set_yticks(range(len(solvers)), solvers, fontsize=8)
    fig.colorbar(image, ax=ax, label="Spearman's ρ with the time")
    ax.set_title("What makes a puzzle hard, and for whom", fontsize=10)
    return Plot("hardness", "What makes a puzzle hard", base.save(fig, fmt), fmt)


def statistics_plots(report: Report, fmt: str = "png") -> Iterator[Plot]:
    """Every statistics figure the report has data for."""
    stats = report.statistics
    if stats is None:
        return
    drawn = [profile_plot(report, stats, fmt)]
    drawn += [runtime_plot(report, stats, corpus, fmt) for corpus in report.corpora]
    drawn += [critical_difference_plot(report, stats, fmt), hardness_plot(report, stats, fmt)]
    yield from (plot for plot in drawn if plot is not None)


STATISTICS_PLOTS = ("performance-profile", "runtime-", "critical-difference", "hardness")


def is_statistics_plot(plot: Plot) -> bool:
    """Whether a plot belongs to the statistics section (the others go under Plots)."""
    return plot.name.startswith(STATISTICS_PLOTS)
