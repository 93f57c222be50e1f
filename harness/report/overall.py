"""The overall standing: each solver's ranks over the corpora, and one place for all.

Each corpus ranks its solvers on its own (by PAR-k, `harness.report.summary`);
this module only gathers those ranks into one row per solver, in the order of
`harness.report.summary.rank_order` (solvers ranked on every corpus first, by
mean rank).  Only those get an overall place, so the place column reads
1, 2, 3 ... down the table and a solver missing a rank never outplaces one
that has them all.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from harness.report.summary import SummaryRow


@dataclass(frozen=True)
class Standing:
    """One solver over every corpus."""

    solver: str
    place: int | None  # 1, 2, ... among solvers ranked on every corpus; None otherwise
    mean_rank: float | None  # over the corpora where it has a rank
    ranks: tuple[int | None, ...]  # per corpus, in the report's corpus order
    puzzles: int
    solved: int
    flagged: bool


def standings(summary: Sequence[SummaryRow], order: Sequence[str]) -> list[Standing]:
    """One `Standing` per solver of `order` (the overall order), in that order."""
    corpora = list(dict.fromkeys(r.corpus for r in summary))
    rows = {(r.solver, r.corpus): r for r in summary if not r.is_vbs}
    result = []
    place = 0
    for solver in order:
        mine = [rows.get((solver, c)) for c in corpora]
        ranks = tuple(r.rank if r is not None else None for r in mine)
        ranked = [r for r in ranks if r is not None]
        complete = len(ranked) == len(corpora)
        place += complete
        result.append(
            Standing(
                solver=solver,
                place=place if complete else None,
                mean_rank=statistics.fmean(ranked) if ranked else None,
                ranks=ranks,
                puzzles=sum(r.puzzles for r in mine if r is not None),
                solved=sum(r.solved for r in mine if r is not None),
                flagged=any(r.flagged for r in mine if r is not None),
            )
        )
    return result
