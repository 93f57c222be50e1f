"""From result records to outcomes: one solver on one puzzle, its repeats folded.

Every table and plot of a report counts *outcomes*, not raw records: with
``--repeat K`` a run stores K records per solver and puzzle, and a puzzle must
count once.  Folding rules (conservative, so noise never flatters a solver):

- the time is the median wall time of the repeats;
- the status is the least favourable one among the repeats (a puzzle solved in
  two repeats and timed out in the third counts as timed out);
- the outcome is wrong when any repeat was judged ``WRONG``.

A record without a verdict (not cross-checked yet) still has its solution
checked against the rules and the givens here, so a bad grid is never counted
as solved.  Labels are solver specs; when the selected runs share a spec, the
label names the run too (``dlx (run 3)``), so runs are never silently merged.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from harness.records import ResultRecord, Verdict
from solvers.base import Status

# Statuses that answer the question asked of the solver (if the answer is right).
ANSWERED = frozenset({Status.SOLVED, Status.MULTIPLE, Status.UNSOLVABLE, Status.INVALID})
TIMED_OUT = frozenset({Status.TIMEOUT, Status.BUDGET})

# Least favourable first: the folded status of mixed repeats is the lowest.
_RANK = {
    Status.ERROR: 0,
    Status.MEMOUT: 1,
    Status.TIMEOUT: 2,
    Status.BUDGET: 3,
    Status.STUCK: 4,
    Status.UNSOLVABLE: 5,
    Status.INVALID: 6,
    Status.MULTIPLE: 7,
    Status.SOLVED: 8,
}

# Keys under which a record's stats may carry a difficulty rating of its puzzle.
RATING_KEYS = ("rating", "se_rating", "er")


class Outcome(NamedTuple):
    """One solver on one puzzle: what the summary counts and the plots draw.

    A named tuple rather than a dataclass: a large study makes hundreds of
    thousands of them, and tuples are built several times faster.
    """

    solver: str  # label: the spec, plus the run when specs collide
    corpus: str
    puzzle_id: str
    puzzle: str
    status: Status
    wrong: bool
    wall: float | None  # median seconds over the repeats
    time_limit: float | None
    nodes: float | None
    guesses: float | None
    solution: str | None
    exhausted: bool
    repeats: int
    run_id: int
    spec: str
    judged: bool = False  # the cross-check gave a verdict
    variant: int = 0  # 0: the puzzle as given; k >= 1: its k-th metamorphic form
    box: str = ""  # "RxC" for an unusual box shape (see `harness.records.grid_of`)
    reason: str = ""  # the cross-check's reason for a WRONG verdict
    walls: tuple[float, ...] = ()  # each repeat's seconds, when there are several
    cpu: float | None = None  # median CPU seconds over the repeats, child processes included
    peak_mb: float | None = None  # the largest resident high-water mark of the repeats
    error: str = ""  # the solver's error text (the first repeat's that has one)

    @property
    def solved(self) -> bool:
        """Answered, and not judged wrong."""
        return self.status in ANSWERED and not self.wrong


class SolutionChecker:
    """Checks a record's solution against the rules and givens, once per distinct pair."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str, str], bool] = {}

    def is_wrong(self, puzzle: str, solution: str, box: str = "") -> bool:
        key = (puzzle, solution, box)
        if key not in self._seen:
            self._seen[key] = bool(violations(puzzle, solution, box))
        return self._seen[key]


def violations(puzzle: str, solution: str, box: str = "") -> list[str]:
    """What is wrong with a stored solution of a stored puzzle (empty when it is right)."""
    from harness.records import grid_of
    from solvers.verify import check

    try:
        given = grid_of(puzzle, box)
        answer = grid_of(solution, box)
    except ValueError as exc:  # unreadable text, or a grid of another size
        return [f"unreadable solution: {exc}"]
    if answer.size != given.size or answer.shape != given.shape:
        return [f"a {answer.size}x{answer.size} solution of a {given.size}x{given.size} puzzle"]
    return [str(v) for v in check(given, answer)]


def record_is_wrong(record: ResultRecord, checker: SolutionChecker) -> bool:
    """The cross-check's verdict when there is one, else the verifier on the solution."""
    if record.verdict is not None:
        return record.verdict == Verdict.WRONG
    if record.solution and record.status in (Status.SOLVED, Status.MULTIPLE):
        return checker.is_wrong(record.puzzle, record.solution, record.box)
    return False


def _number(stats: Mapping[str, Any], key: str) -> float | None:
    value = stats.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _fold_group(
    label: str, group: list[ResultRecord], checker: SolutionChecker, variant: int
) -> Outcome:
    """One outcome from the repeats of one task (the common case: a single record)."""
    first = group[0]
    walls: tuple[float, ...] = ()
    if len(group) == 1:
        wrong = record_is_wrong(first, checker)
        stats = first.stats
        status, wall = first.status, first.wall
        nodes, guesses = _number(stats, "nodes"), _number(stats, "guesses")
        reason = first.reason if wrong else ""
        cpu, peak = first.cpu, first.peak_rss_mb
    else:
        judged = [(r, record_is_wrong(r, checker)) for r in group]
        wrong = any(w for _, w in judged)
        status = min((r.status for r in group), key=lambda s: _RANK.get(s, 0))
        walls = tuple(r.wall for r in group if r.wall is not None)
        wall = _median(list(walls))
        nodes = _median([v for r in group if (v := _number(r.stats, "nodes")) is not None])
        guesses = _median([v for r in group if (v := _number(r.stats, "guesses")) is not None])
        reason = next((r.reason for r, w in judged if w), "")
        cpu = _median([r.cpu for r in group if r.cpu is not None])
        peak = max((r.peak_rss_mb for r in group if r.peak_rss_mb is not None), default=None)
    return Outcome(
        label, first.corpus, first.puzzle_id, first.puzzle, status, wrong, wall,
        first.time_limit, nodes, guesses, first.solution, first.exhausted, len(group),
        first.run_id, first.solver, first.verdict is not None, variant, first.box, reason,
        walls, cpu, peak, next((r.error for r in group if r.error), ""),
    )  # fmt: skip


@dataclass
class Folded:
    """Outcomes of the selected records, with the ratings the records carried."""

    outcomes: list[Outcome]
    ratings: dict[tuple[str, str], float]  # (corpus, puzzle_id) -> rating
    records: int


def fold(records: Iterable[ResultRecord], checker: SolutionChecker | None = None) -> Folded:
    """Fold a stream of records into one `Outcome` per run x solver x corpus x puzzle x form."""
    checker = checker or SolutionChecker()
    groups: dict[tuple[int, str, str, str, int], list[ResultRecord]] = {}
    ratings: dict[tuple[str, str], float] = {}
    rating_keys = frozenset(RATING_KEYS)
    count = 0
    for record in records:
        count += 1
        key = (record.run_id, record.solver, record.corpus, record.puzzle_id, record.variant)
        group = groups.get(key)
        if group is None:
            groups[key] = [record]
        else:
            group.append(record)
        if record.stats and not rating_keys.isdisjoint(record.stats):
            for rating_key in RATING_KEYS:
                rating = _number(record.stats, rating_key)
                if rating is not None:
                    ratings.setdefault((record.corpus, record.puzzle_id), rating)
                    break
    runs_per_spec: dict[str, set[int]] = {}
    for run_id, spec, *_ in groups:
        runs_per_spec.setdefault(spec, set()).add(run_id)
    labels = {
        (run_id, spec): spec if len(runs) == 1 else f"{spec} (run {run_id})"
        for spec, runs in runs_per_spec.items()
        for run_id in runs
    }
    outcomes = [
        _fold_group(labels[(key[0], key[1])], group, checker, key[4])
        for key, group in groups.items()
    ]
    return Folded(outcomes, ratings, count)


def primary(outcomes: Iterable[Outcome]) -> list[Outcome]:
    """The outcomes on the puzzles as given, each wrong when any metamorphic form was.

    Tables and plots count each puzzle once, on its given form; a wrong answer
    on a transformed form still makes the puzzle count as wrong.
    """
    outcomes = list(outcomes)
    wrong_forms = {
        (o.run_id, o.solver, o.corpus, o.puzzle_id): o.reason
        for o in outcomes
        if o.variant and o.wrong
    }
    result = []
    for o in outcomes:
        if o.variant:
            continue
        key = (o.run_id, o.solver, o.corpus, o.puzzle_id)
        if key in wrong_forms and not o.wrong:
            o = o._replace(wrong=True, reason=wrong_forms[key] or "wrong on a transformed form")
        result.append(o)
    return result
