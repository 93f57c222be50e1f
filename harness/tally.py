"""The table `run` and `verify` print when they end: one row per solver x corpus.

Computed in SQL from the store (counts grouped by status and verdict, times
read sorted), so it costs the same memory for ten puzzles or a million.
Times (median, p90) are over the solved puzzles, as in `sudoku-bench report`;
puzzles/s is over every result.  The report gives the full analysis; this is
the quick look.
"""

from __future__ import annotations

import statistics
from collections import Counter

from tabulate import tabulate

from harness.store import Store

HEADERS = (
    "solver",
    "corpus",
    "results",
    "solved",
    "stuck",
    "timeouts",
    "errors",
    "memout",
    "wrong",
    "median solved",
    "p90 solved",
    "puzzles/s",
)
ANSWERED = {"SOLVED", "MULTIPLE", "UNSOLVABLE", "INVALID"}


def seconds(value: float | None) -> str:
    """A duration with a readable unit: ``850 µs``, ``1.96 ms``, ``12.3 s``."""
    if value is None:
        return ""
    if value < 1e-3:
        return f"{value * 1e6:.0f} µs"
    if value < 1:
        return f"{value * 1e3:.3g} ms"
    return f"{value:.3g} s"


def rows(store: Store, run_id: int) -> list[list[object]]:
    """The summary rows of a run, solvers in the order their results arrived."""
    groups: dict[tuple[str, str], Counter[str]] = {}
    for solver, corpus, status, verdict, count in store.status_counts(run_id):
        c = groups.setdefault((solver, corpus), Counter())
        c["results"] += count
        c[status] += count
        if verdict == "WRONG":
            c["wrong"] += count
        elif status in ANSWERED:
            c["solved"] += count
    table = []
    for (solver, corpus), c in groups.items():
        walls = store.walls(run_id, solver, corpus)
        solved = store.walls(run_id, solver, corpus, statuses=sorted(ANSWERED))
        median = statistics.median(solved) if solved else None
        p90 = solved[min(len(solved) - 1, int(0.9 * len(solved)))] if solved else None
        total = sum(walls)
        table.append(
            [
                solver,
                corpus,
                c["results"],
                c["solved"],
                c["STUCK"],
                c["TIMEOUT"] + c["BUDGET"],
                c["ERROR"],
                c["MEMOUT"],
                c["wrong"],
                seconds(median),
                seconds(p90),
                f"{len(walls) / total:.1f}" if total > 0 else "",
            ]
        )
    return table


def render(store: Store, run_id: int) -> str:
    """The summary as a plain-text table."""
    return tabulate(rows(store, run_id), headers=HEADERS, disable_numparse=True)
