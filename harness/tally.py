"""The table `run` and `verify` print when they end: one row per solver x corpus.

It counts what the report counts: puzzles, not stored results.  The results are
streamed from the store grouped by task, and each puzzle's repeats and
equivalent forms are folded by the report's own rules
(`harness.report.outcomes`): the median time and the least favourable status of
the repeats, wrong when any form was wrong.  Memory grows with the solved times
of one solver on one corpus, not with the run.  Times (median, p90) are over
the solved puzzles; puzzles/s is over every puzzle.  Rows come per corpus,
solvers by their rank on it (by PAR-2, an unsolved puzzle counting twice the
run's time limit; the unranked after, in `harness.report.summary.rank_order`),
as in the report's tables; the report gives the full analysis, this is the
quick look.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections import Counter
from dataclasses import dataclass, field

from tabulate import tabulate

from harness.records import Verdict
from harness.report.escape import terminal
from harness.report.outcomes import ANSWERED, Outcome, SolutionChecker, fold, primary
from harness.report.summary import penalised_time, percentile, rank_order
from harness.store import Store
from solvers.base import Status

HEADERS = (
    "solver",
    "corpus",
    "puzzles",
    "solved",
    "stuck",
    "timeouts",
    "errors",
    "memouts",
    "wrong",
    "unknown",
    "median solved",
    "p90 solved",
    "puzzles/s",
    "rank",
)
REASONS_SHOWN = 3  # the most common reasons an answer went unchecked, in the note
PENALTY = 2.0  # PAR-2, as the report ranks by default


def seconds(value: float | None) -> str:
    """A duration with a readable unit: ``850 µs``, ``1.96 ms``, ``12.3 s``."""
    if value is None:
        return ""
    if value < 1e-3:
        return f"{value * 1e6:.0f} µs"
    if value < 1:
        return f"{value * 1e3:.3g} ms"
    return f"{value:.3g} s"


@dataclass
class _Tally:
    """The running figures of one solver on one corpus, one folded puzzle at a time."""

    counts: Counter[str] = field(default_factory=Counter)
    solved_walls: list[float] = field(default_factory=list)
    walls: int = 0
    total: float = 0.0
    par: float = 0.0

    def add(self, outcome: Outcome, unknown: bool, limit: float | None) -> None:
        self.counts["puzzles"] += 1
        self.counts[outcome.status] += 1
        self.counts["wrong"] += outcome.wrong
        self.counts["solved"] += outcome.solved
        self.counts["unknown"] += outcome.solved and unknown
        if outcome.wall is not None:
            self.walls += 1
            self.total += outcome.wall
            if outcome.solved:
                self.solved_walls.append(outcome.wall)
        term = penalised_time(outcome, PENALTY, outcome.time_limit or limit)
        self.par += math.inf if term is None else term

    def cells(self, solver: str, corpus: str) -> list[object]:
        c, solved = self.counts, sorted(self.solved_walls)
        return [
            solver,
            corpus,
            c["puzzles"],
            c["solved"],
            c[Status.STUCK],
            c[Status.TIMEOUT] + c[Status.BUDGET],
            c[Status.ERROR],
            c[Status.MEMOUT],
            c["wrong"],
            c["unknown"],
            seconds(statistics.median(solved) if solved else None),
            seconds(percentile(solved, 0.9) if solved else None),
            f"{self.walls / self.total:.1f}" if self.total > 0 else "",
        ]

    def score(self) -> tuple[float, int, float]:
        """The report's ranking key: PAR-2, then more solved, then the mean solved time."""
        mean = statistics.fmean(self.solved_walls) if self.solved_walls else math.inf
        return (self.par / self.counts["puzzles"], -self.counts["solved"], mean)


def tallies(store: Store, run_id: int) -> dict[tuple[str, str], _Tally]:
    """Per (solver, corpus) the figures of its puzzles, each folded as the report folds it:
    repeats into one outcome (the median time, the least favourable status), equivalent
    forms with their puzzle (wrong when any form was)."""
    limit = store.run(run_id).settings.get("timeout")
    checker = SolutionChecker()
    result: dict[tuple[str, str], _Tally] = {}
    for (solver, corpus, _), group in itertools.groupby(
        store.task_results(run_id), key=lambda r: (r.solver, r.corpus, r.puzzle_id)
    ):
        records = list(group)
        for outcome in primary(fold(records, checker).outcomes):
            unknown = any(r.verdict == Verdict.UNKNOWN and r.status in ANSWERED for r in records)
            result.setdefault((solver, corpus), _Tally()).add(outcome, unknown, limit)
    return result


def rows(store: Store, run_id: int) -> list[list[object]]:
    """The summary rows of a run: per corpus (in the order stored), solvers by rank."""
    figures = tallies(store, run_id)
    groups = {key: t.counts for key, t in figures.items()}
    scores = {key: t.score() for key, t in figures.items()}
    ranks = _ranks(groups, scores)
    order = {s: i for i, s in enumerate(rank_order(ranks, _registry_order()))}
    stored = dict.fromkeys(corpus for _, corpus, *_ in store.status_counts(run_id))
    corpora = list(stored)
    keys = sorted(
        figures, key=lambda k: (corpora.index(k[1]), *_place(ranks[k[0]][k[1]]), order[k[0]])
    )
    return [[*figures[k].cells(*k), ranks[k[0]][k[1]] or "—"] for k in keys]


def _place(rank: int | None) -> tuple[bool, int]:
    """Sort key of a rank on one corpus: ranked solvers by rank, the unranked after."""
    return (rank is None, rank or 0)


def _ranks(
    groups: dict[tuple[str, str], Counter[str]], scores: dict[tuple[str, str], tuple]
) -> dict[str, dict[str, int | None]]:
    """Rank per solver and corpus, as the report ranks: only solvers with no wrong
    answer anywhere that attempted as many tasks as the most complete one and
    solved at least one."""
    wrong = {solver for (solver, _), counts in groups.items() if counts["wrong"]}
    most: Counter[str] = Counter()
    for (_, corpus), counts in groups.items():
        most[corpus] = max(most[corpus], counts["puzzles"])
    ranks: dict[str, dict[str, int | None]] = {}
    for corpus in most:
        eligible = [
            s for (s, name), counts in groups.items()
            if name == corpus and s not in wrong and counts["puzzles"] == most[corpus]
            and counts["solved"]
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


def folding_note(store: Store, run_id: int) -> str:
    """Why the counts are fewer than the results stored ("" when each puzzle is one result)."""
    settings = store.run(run_id).settings
    repeat, forms = settings.get("repeat") or 1, settings.get("metamorphic") or 0
    parts = []
    if isinstance(repeat, int) and repeat > 1:
        parts.append(
            f"each puzzle's {repeat} repeats fold into one (median time, least favourable status)"
        )
    if isinstance(forms, int) and forms > 0:
        parts.append(
            f"each puzzle's {forms} equivalent form{'s' if forms != 1 else ''} count with it "
            "(wrong when any form was)"
        )
    if not parts:
        return ""
    return "counts are per puzzle, as in the report: " + "; ".join(parts)


def render(store: Store, run_id: int) -> str:
    """The summary as a plain-text table, with notes on folded results and on answers
    that could not be checked."""
    cells = [[terminal(str(cell)) for cell in row] for row in rows(store, run_id)]
    lines = [tabulate(cells, headers=HEADERS, disable_numparse=True)]
    for note in (folding_note(store, run_id), unchecked_note(store, run_id)):
        if note:
            lines.append(f"note: {terminal(note)}")
    return "\n".join(lines)
