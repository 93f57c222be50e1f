"""The per-puzzle view as data: a row per puzzle, a cell per solver (status, time, answer).

The HTML report turns this into a matrix a reader can filter and click
(`harness.report.html_matrix`).  Kept compact for large studies: statuses
are indices into one list, each puzzle lists its distinct answers and error
texts once and the cells point into them, and times are seconds rounded to
four significant figures.  At most `limit` puzzles are kept: those with a
disagreement first, then the others in corpus order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from harness.records import Verdict
from harness.report.findings import natural_key
from harness.report.outcomes import ANSWERED, Outcome
from harness.report.study import Report
from solvers.base import Status

WRONG = Verdict.WRONG  # shown instead of the status of an answer judged wrong
STATUSES = (Status.SOLVED, Status.MULTIPLE, Status.UNSOLVABLE, Status.INVALID, Status.STUCK,
            Status.TIMEOUT, Status.BUDGET, Status.MEMOUT, Status.ERROR, WRONG)  # fmt: skip
LIMIT = 2000  # puzzles in the matrix by default


@dataclass(frozen=True)
class Matrix:
    """The data of the matrix: `rows` as written into the page, and what was left out."""

    solvers: list[str]
    corpora: list[str]
    statuses: Sequence[str]
    rows: list[list[Any]]  # [corpus, id, puzzle, disagreement, answers, texts, cells]
    puzzles: int  # in the report; len(rows) of them are shown

    def document(self) -> dict[str, Any]:
        return {"solvers": self.solvers, "corpora": self.corpora,
                "statuses": list(self.statuses), "rows": self.rows,
                "puzzles": self.puzzles}  # fmt: skip


def _status(o: Outcome) -> str:
    return WRONG if o.wrong else o.status


def _disagreement(outcomes: list[Outcome], flagged: set[tuple[str, str]]) -> bool:
    """Whether the solvers' answers to a puzzle differ (or a finding names it)."""
    if (outcomes[0].corpus, outcomes[0].puzzle_id) in flagged:
        return True
    answers = {(o.status, o.solution or "") for o in outcomes if o.status in ANSWERED}
    return len(answers) > 1 or any(o.wrong for o in outcomes)


def _seconds(value: float | None) -> float | None:
    return float(f"{value:.4g}") if value is not None else None


def _row(outcomes: list[Outcome], solvers: list[str], corpora: list[str], disagree: bool) -> list:
    by_solver = {o.solver: o for o in outcomes}
    answers: list[str] = []
    texts: list[str] = []

    def index(values: list[str], value: str) -> int:
        if not value:
            return -1
        if value not in values:
            values.append(value)
        return values.index(value)

    cells: list[list[Any] | None] = []
    for solver in solvers:
        o = by_solver.get(solver)
        if o is None:
            cells.append(None)
            continue
        text = f"{o.reason}" if o.wrong and o.reason else o.error
        shown = _status(o) if _status(o) in STATUSES else Status.ERROR
        cells.append([STATUSES.index(shown), _seconds(o.wall), index(answers, o.solution or ""),
                      index(texts, text)])  # fmt: skip
    first = outcomes[0]
    return [corpora.index(first.corpus), first.puzzle_id, first.puzzle, int(disagree), answers,
            texts, cells]  # fmt: skip


def matrix(report: Report, limit: int = LIMIT) -> Matrix:
    """The matrix of `report`: at most `limit` puzzles, those with a disagreement first."""
    solvers, corpora = report.solvers, report.corpora
    by_puzzle: dict[tuple[str, str], list[Outcome]] = {}
    for o in report.outcomes:
        by_puzzle.setdefault((o.corpus, o.puzzle_id), []).append(o)
    named = {(f.corpus, f.puzzle_id) for f in report.findings}
    keys = sorted(by_puzzle, key=lambda k: (corpora.index(k[0]), natural_key(k[1])))
    disagree = {k: _disagreement(by_puzzle[k], named) for k in keys}
    if len(keys) > limit:
        chosen = set(sorted(keys, key=lambda k: not disagree[k])[:limit])
        keys = [k for k in keys if k in chosen]
    rows = [_row(by_puzzle[k], solvers, corpora, disagree[k]) for k in keys]
    return Matrix(solvers, corpora, STATUSES, rows, len(by_puzzle))
