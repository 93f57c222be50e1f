"""Findings: every wrong answer and every disagreement, with both answers.

A finding names the puzzle, the solver and its answer, and — where one
exists — another solver's answer that contradicts it.  Besides the outcomes
judged ``WRONG`` (by the cross-check or the verifier), the answers to one
puzzle are compared with each other, because agreement is checkable without
knowing the truth:

- a valid solution refutes every ``UNSOLVABLE`` and ``INVALID`` claim;
- two different valid solutions refute every claim of uniqueness (``SOLVED``
  with the search exhausted);
- ``MULTIPLE`` against a proved-unique answer is a conflict only the truth
  can settle (a record keeps one solution), so it is listed, not judged.

An outcome that was never cross-checked is judged wrong when refuted; one the
cross-check called correct keeps its verdict, and the contradiction is listed
as a disagreement for a human to look at.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from harness.report.outcomes import Outcome, violations
from solvers.base import Status

WRONG = "wrong"
DISAGREEMENT = "disagreement"


@dataclass(frozen=True)
class Finding:
    """One wrong answer or disagreement about one puzzle."""

    kind: str  # WRONG or DISAGREEMENT
    corpus: str
    puzzle_id: str
    puzzle: str
    solver: str
    answer: str
    other_solver: str | None
    other_answer: str | None
    detail: str
    variant: int = 0  # 0: the puzzle as given; k: its k-th metamorphic form


def answer_text(outcome: Outcome) -> str:
    """The status, and the solution when there is one."""
    if outcome.solution:
        return f"{outcome.status} {outcome.solution}"
    return outcome.status


def _claims_unique(o: Outcome) -> bool:
    return o.status == Status.SOLVED and o.exhausted


def _violation(o: Outcome) -> str | None:
    if not o.solution:
        return None
    problems = violations(o.puzzle, o.solution, o.box)
    if not problems:
        return None
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"{problems[0]}{more}"


def _valid(group: Sequence[Outcome]) -> list[Outcome]:
    return [
        o
        for o in group
        if o.solution and o.status in (Status.SOLVED, Status.MULTIPLE) and not o.wrong
    ]


def _refutation(o: Outcome, valid: list[Outcome]) -> tuple[Outcome, str] | None:
    """Another outcome that proves `o` wrong, and why; None when none does."""
    if o.wrong:
        return None
    if o.status in (Status.UNSOLVABLE, Status.INVALID) and valid:
        claim = "no solution" if o.status == Status.UNSOLVABLE else "givens that break the rules"
        return valid[0], f"claims {claim}; {valid[0].solver} found a valid solution"
    if _claims_unique(o):
        others = [v for v in valid if v.solution != o.solution]
        if others and o.solution and o in valid:
            return others[0], f"claims a unique solution; {others[0].solver} found another"
    return None


def _conflict(o: Outcome, group: Sequence[Outcome]) -> Outcome | None:
    """A MULTIPLE answer set against `o`'s proof of uniqueness (unsettled)."""
    if o.wrong or not _claims_unique(o):
        return None
    return next((m for m in group if m.status == Status.MULTIPLE and not m.wrong), None)


# Looks up what the oracle established about a puzzle: (puzzle text, box) ->
# (who, answer text), e.g. ("truth (dlx)", "unique 1234..."); None when unknown.
TruthLookup = Callable[[str, str], "tuple[str, str] | None"]


def _finding(kind: str, o: Outcome, other: tuple[str, str] | None, detail: str) -> Finding:
    return Finding(
        kind,
        o.corpus,
        o.puzzle_id,
        o.puzzle,
        o.solver,
        answer_text(o),
        other[0] if other else None,
        other[1] if other else None,
        detail,
        o.variant,
    )


def _reference(
    o: Outcome, valid: list[Outcome], truth: TruthLookup | None
) -> tuple[str, str] | None:
    """The answer to show beside a wrong one: the oracle's, else another solver's."""
    known = truth(o.puzzle, o.box) if truth else None
    if known:
        return known
    other = next((v for v in valid if v.solver != o.solver), None)
    return (other.solver, answer_text(other)) if other else None


def find(
    outcomes: Sequence[Outcome], truth: TruthLookup | None = None
) -> tuple[list[Outcome], list[Finding]]:
    """Judge refuted unchecked outcomes wrong; list every wrong answer and disagreement.

    Returns the outcomes (updated where judged wrong here) and the findings,
    ordered by corpus, puzzle and solver.  Metamorphic forms of a puzzle are
    compared only with the same form (their texts differ).
    """
    groups: dict[tuple[str, str, int], list[int]] = defaultdict(list)
    for index, o in enumerate(outcomes):
        groups[(o.corpus, o.puzzle_id, o.variant)].append(index)
    updated = list(outcomes)
    findings: list[Finding] = []
    for indices in groups.values():
        group = [outcomes[i] for i in indices]
        valid = _valid(group)
        for index, o in zip(indices, group, strict=True):
            refuted = _refutation(o, valid)
            if o.wrong:
                detail = o.reason or _violation(o) or "judged WRONG by the cross-check"
                findings.append(_finding(WRONG, o, _reference(o, valid, truth), detail))
            elif refuted and not o.judged:
                updated[index] = o._replace(wrong=True, reason=refuted[1])
                findings.append(_finding(WRONG, o, _answer(refuted[0]), refuted[1]))
            elif refuted:
                detail = f"the cross-check said CORRECT, yet it {refuted[1]}"
                findings.append(_finding(DISAGREEMENT, o, _answer(refuted[0]), detail))
            elif conflict := _conflict(o, group):
                detail = f"claims a unique solution; {conflict.solver} found two or more"
                findings.append(_finding(DISAGREEMENT, o, _answer(conflict), detail))
    findings.sort(key=lambda f: (f.corpus, natural_key(f.puzzle_id), f.variant, f.kind, f.solver))
    return updated, findings


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that puts 'p2' before 'p10' and 'file:9' before 'file:10'."""
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"(\d+)", text) if p)


def _answer(o: Outcome) -> tuple[str, str]:
    return (o.solver, answer_text(o))


def count_by_solver(findings: Iterable[Finding]) -> dict[str, int]:
    """How many wrong answers each solver gave (disagreements excluded)."""
    counts: dict[str, int] = defaultdict(int)
    for f in findings:
        if f.kind == WRONG:
            counts[f.solver] += 1
    return dict(counts)
