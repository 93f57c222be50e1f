"""Catching wrong answers: the verifier on every solution, and the truth per puzzle.

A result is judged in two steps.  First the independent verifier checks every
solution it carries against the rules and the givens (`answer_problems`, run
by the worker right after the solve, so the parent is not the bottleneck); a
bad grid is ``WRONG`` whatever else is known.  Then its claim is compared with
the truth about the puzzle (`judge`, in the parent): the oracle's answer (a
complete solver asked for two solutions: no solution, unique or multiple),
or, when the oracle gave none, the evidence of verified solutions from the
run itself.

Verdicts: ``CORRECT``; ``WRONG`` for a bad grid, a false ``UNSOLVABLE``, a
false claim of uniqueness or a false ``INVALID``; ``UNKNOWN`` when the solver
gave no answer (timeout, stuck, error) or its claim cannot be checked.  A
verified answer that contradicts the oracle proves the oracle wrong: the
result stays ``CORRECT`` and its reason starts with `ORACLE_WRONG`, so
`sudoku-bench verify` reports it too.
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.records import ResultRecord, Truth, Verdict, grid_of
from solvers.base import Status
from solvers.grid import Grid
from solvers.verify import check, conflicts

ANSWERS = (Status.SOLVED, Status.MULTIPLE, Status.UNSOLVABLE, Status.INVALID)
ORACLE_WRONG = "contradicts the oracle"
NO_TRUTH = "no truth"  # the reason of an answer judged UNKNOWN for want of a truth starts so
EVIDENCE = "evidence"  # Truth.oracle when the truth comes from the run's verified solutions
SOLVABLE = "solvable"  # a kind only evidence gives: solvable, uniqueness not known


def answer_problems(
    given: Grid, status: Status, solutions: Sequence[Grid | str], box: str = ""
) -> str:
    """What is wrong with a result's answers by the rules alone ("" when nothing).

    Solutions are grids, or their text as stored (read with the puzzle's `box`).
    """
    for number, answer in enumerate(solutions, 1):
        try:
            grid = answer if isinstance(answer, Grid) else grid_of(answer, box)
        except ValueError as exc:
            return f"solution {number} is not a grid: {exc}"
        violations = check(given, grid)
        if violations:
            listed = "; ".join(str(v) for v in violations[:3])
            more = f" (+{len(violations) - 3} more)" if len(violations) > 3 else ""
            return f"bad grid: {listed}{more}"
    if status == Status.SOLVED and not solutions:
        return "SOLVED without a solution"
    if status == Status.MULTIPLE:
        if len(solutions) < 2:
            return "MULTIPLE with fewer than two solutions"
        if solutions[0] == solutions[1]:
            return "MULTIPLE with the same solution twice"
    if status == Status.INVALID and not conflicts(given):
        return "false INVALID: no two givens conflict"
    return ""


def claims_unique(status: Status, exhausted: bool, limit: int) -> bool:
    """True when a result says its solution is the only one."""
    return status == Status.SOLVED and exhausted and limit >= 2


def judge(record: ResultRecord, truth: Truth | None) -> tuple[Verdict | None, str]:
    """The verdict on a result whose answers passed the verifier, and why.

    Returns ``(None, "")`` when the verdict needs a truth that is not known yet.
    """
    status, solution = record.status, record.solution
    if status not in ANSWERS:
        return Verdict.UNKNOWN, ""
    if status == Status.INVALID:
        return Verdict.CORRECT, ""
    kind = truth.kind if truth else None
    source = f"the oracle ({truth.oracle})" if truth and truth.oracle != EVIDENCE else "the run"
    if status == Status.UNSOLVABLE:
        if kind is None:
            return None, ""
        if kind in ("none", "invalid"):
            return Verdict.CORRECT, ""
        return Verdict.WRONG, f"false UNSOLVABLE: {source} found a solution"
    if status == Status.MULTIPLE:
        if kind in ("none", "invalid", "unique") and truth and truth.oracle != EVIDENCE:
            return Verdict.CORRECT, f"{ORACLE_WRONG}, which says {kind}: two verified solutions"
        return Verdict.CORRECT, ""
    # SOLVED with a verified solution.
    if kind in ("none", "invalid") and truth and truth.oracle != EVIDENCE:
        return Verdict.CORRECT, f"{ORACLE_WRONG}, which says {kind}: a verified solution"
    differs = kind in ("unique", SOLVABLE) and truth is not None and truth.solution != solution
    if claims_unique(status, record.exhausted, record.limit):
        if kind is None:
            return None, ""
        if kind == "multiple":
            return Verdict.WRONG, f"false claim of uniqueness: {source} found two solutions"
        if differs:
            return Verdict.WRONG, f"false claim of uniqueness: {source} found another solution"
        if kind == SOLVABLE:
            return Verdict.UNKNOWN, "uniqueness claimed; no oracle truth to confirm it"
        return Verdict.CORRECT, ""
    if differs and kind == "unique":
        return Verdict.CORRECT, f"{ORACLE_WRONG}, which says unique: another verified solution"
    return Verdict.CORRECT, ""


def unchecked(status: Status, verdict: Verdict | None) -> bool:
    """True for an answer the cross-check could not confirm or refute (verdict UNKNOWN)."""
    return status in ANSWERS and verdict == Verdict.UNKNOWN


def truth_from(record: ResultRecord, solutions: Sequence[str], oracle: str) -> Truth | None:
    """The truth an oracle's verified result establishes, if it is conclusive."""
    kind = None
    if record.status == Status.SOLVED and record.exhausted and record.limit >= 2:
        kind = "unique"
    elif record.status == Status.MULTIPLE:
        kind = "multiple"
    elif record.status == Status.UNSOLVABLE and record.exhausted:
        kind = "none"
    elif record.status == Status.INVALID:
        kind = "invalid"
    if kind is None:
        return None
    solution = solutions[0] if kind == "unique" else None
    return Truth(record.puzzle, kind, solution, oracle, record.box)


def evidence(records: Sequence[ResultRecord]) -> Truth | None:
    """A partial truth from a run's verified answers on one puzzle (no oracle truth).

    Two distinct solutions prove it has several; one proves it is solvable.
    """
    seen: set[str] = set()
    multiple = False
    for r in records:
        if r.verdict == Verdict.WRONG or r.status not in (Status.SOLVED, Status.MULTIPLE):
            continue
        multiple = multiple or r.status == Status.MULTIPLE
        if r.solution:
            seen.add(r.solution)
    if not seen:
        return None
    first = records[0]
    if multiple or len(seen) > 1:
        return Truth(first.puzzle, "multiple", None, EVIDENCE, first.box)
    return Truth(first.puzzle, SOLVABLE, next(iter(seen)), EVIDENCE, first.box)
