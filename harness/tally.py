"""The table `run` and `verify` print when they end: one row per solver x corpus.

Computed in SQL from the store (counts grouped by status and verdict, times
read sorted), so it costs the same memory for ten puzzles or a million.
Times (median, p90) are over the solved puzzles, as in `sudoku-bench report`;
puzzles/s is over every result.  Rows come per corpus, solvers by
their rank on it (by PAR-2, counting an unsolved result at twice the run's
time limit; the unranked after, in `harness.report.summary.rank_order`), as in
the report's tables; the report gives the full
analysis, this is the quick look.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter

from tabulate import tabulate

from harness.report.escape import terminal
from harness.report.summary import rank_order
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
    "unknown",
    "median solved",
    "p90 solved",
    "puzzles/s",
    "rank",
)
ANSWERED = {"SOLVED", "MULTIPLE", "UNSOLVABLE", "INVALID"}
REASONS_SHOWN = 3  # the most common reasons an answer went unchecked, in the note


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
    """The summary rows of a run: per corpus, solvers in rank order."""
    groups: dict[tuple[str, str], Counter[str]] = {}
    for solver, corpus, status, verdict, count in store.status_counts(run_id):
        c = groups.setdefault((solver, corpus), Counter())
        c["results"] += count
        c[status] += count
        if verdict == "WRONG":
            c["wrong"] += count
        elif status in ANSWERED:
            c["solved"] += count
            if verdict == "UNKNOWN":
                c["unknown"] += count
    limit = store.run(run_id).settings.get("timeout")
    table: dict[tuple[str, str], list[object]] = {}
    scores: dict[tuple[str, str], tuple[float, int, float]] = {}
    for (solver, corpus), c in groups.items():
        walls = store.walls(run_id, solver, corpus)
        solved = store.walls(run_id, solver, corpus, statuses=sorted(ANSWERED))
        median = statistics.median(solved) if solved else None
        p90 = solved[min(len(solved) - 1, int(0.9 * len(solved)))] if solved else None
        total = sum(walls)
        table[(solver, corpus)] = [
            solver,
            corpus,
            c["results"],
            c["solved"],
            c["STUCK"],
            c["TIMEOUT"] + c["BUDGET"],
            c["ERROR"],
            c["MEMOUT"],
            c["wrong"],
            c["unknown"],
            seconds(median),
            seconds(p90),
            f"{len(walls) / total:.1f}" if total > 0 else "",
        ]
        unsolved = c["results"] - len(solved)
        par = (sum(solved) + 2 * unsolved * limit) / c["results"] if limit else math.inf
        mean = statistics.fmean(solved) if solved else math.inf
        scores[(solver, corpus)] = (par, -len(solved), mean)
    ranks = _ranks(groups, scores)
    order = {s: i for i, s in enumerate(rank_order(ranks, _registry_order()))}
    corpora = list(dict.fromkeys(corpus for _, corpus in groups))
    keys = sorted(
        table, key=lambda k: (corpora.index(k[1]), *_place(ranks[k[0]][k[1]]), order[k[0]])
    )
    return [[*table[k], ranks[k[0]][k[1]] or "—"] for k in keys]


def _place(rank: int | None) -> tuple[bool, int]:
    """Sort key of a rank on one corpus: ranked solvers by rank, the unranked after."""
    return (rank is None, rank or 0)


def _ranks(
    groups: dict[tuple[str, str], Counter[str]], scores: dict[tuple[str, str], tuple]
) -> dict[str, dict[str, int | None]]:
    """Rank per solver and corpus, as the report ranks: only solvers with no wrong
    answer anywhere that attempted as many tasks as the most complete one."""
    wrong = {solver for (solver, _), counts in groups.items() if counts["wrong"]}
    most: Counter[str] = Counter()
    for (_, corpus), counts in groups.items():
        most[corpus] = max(most[corpus], counts["results"])
    ranks: dict[str, dict[str, int | None]] = {}
    for corpus in most:
        eligible = [
            s for (s, name), counts in groups.items()
            if name == corpus and s not in wrong and counts["results"] == most[corpus]
        ]  # fmt: skip
        placed = {s: i for i, s in enumerate(sorted(eligible, key=lambda s: scores[s, corpus]), 1)}
        for solver, name in groups:
            if name == corpus:
                ranks.setdefault(solver, {})[corpus] = placed.get(solver)
    return ranks


def _registry_order() -> list[str]:
    from solvers.registry import names

    try:
        return list(names())
    except Exception:  # a broken third-party entry point must not break the summary
        return []


def unchecked_note(store: Store, run_id: int) -> str:
    """A line saying how many answers could not be checked and why ("" when none)."""
    reasons = store.unchecked_reasons(run_id)
    total = sum(count for _, count in reasons)
    if not total:
        return ""
    shown = [f"{count} {reason or 'no reason recorded'}" for reason, count in reasons]
    if len(shown) > REASONS_SHOWN:
        shown[REASONS_SHOWN:] = [f"{len(shown) - REASONS_SHOWN} other reasons"]
    answers = "answer" if total == 1 else "answers"
    return (
        f"{total} {answers} could not be checked (verdict UNKNOWN, counted in 'unknown'): "
        + "; ".join(shown)
    )


def render(store: Store, run_id: int) -> str:
    """The summary as a plain-text table, and a note on answers that could not be checked."""
    cells = [[terminal(str(cell)) for cell in row] for row in rows(store, run_id)]
    table = tabulate(cells, headers=HEADERS, disable_numparse=True)
    note = terminal(unchecked_note(store, run_id))
    return f"{table}\nnote: {note}" if note else table
