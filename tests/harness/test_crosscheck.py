"""Verdicts: the verifier on every answer, then the claim against the truth."""

from __future__ import annotations

from dataclasses import replace

import pytest

from harness.crosscheck import (
    EVIDENCE,
    ORACLE_WRONG,
    SOLVABLE,
    answer_problems,
    evidence,
    judge,
    truth_from,
)
from harness.records import ResultRecord, Truth
from solvers.grid import Grid

PUZZLE = "1...3..2...3..2."
SOLUTION = "1234341221434321"
OTHER = "2143341212344321"  # a valid grid that does not keep the givens
OPEN = "1..............."  # many solutions
SOLUTION_A = "1234341221434321"
SOLUTION_B = "1234342121434312"


def result(
    status: str,
    solution: str | None = None,
    *,
    exhausted: bool = False,
    limit: int = 2,
    puzzle: str = PUZZLE,
) -> ResultRecord:
    return ResultRecord(
        run_id=1,
        solver="s",
        corpus="c",
        puzzle_id="c:1",
        puzzle=puzzle,
        repeat=0,
        status=status,
        solution=solution,
        solutions_found=int(solution is not None),
        exhausted=exhausted,
        limit=limit,
    )


def truth(kind: str, solution: str | None = None, oracle: str = "dlx") -> Truth:
    return Truth(PUZZLE, kind, solution, oracle)


def test_the_verifier_reports_bad_grids_and_changed_givens() -> None:
    given = Grid.parse(PUZZLE)
    assert answer_problems(given, "SOLVED", [SOLUTION]) == ""
    assert "r1c1 is 2, but the given is 1" in answer_problems(given, "SOLVED", [OTHER])
    assert "twice" in answer_problems(given, "SOLVED", ["1134341221434321"])
    assert "empty" in answer_problems(given, "SOLVED", ["1.34341221434321"])
    assert "not a grid" in answer_problems(given, "SOLVED", ["12"])


@pytest.mark.parametrize(
    ("status", "solutions", "problem"),
    [
        ("SOLVED", [], "SOLVED without a solution"),
        ("MULTIPLE", [SOLUTION_A], "fewer than two"),
        ("MULTIPLE", [SOLUTION_A, SOLUTION_A], "the same solution twice"),
        ("INVALID", [], "false INVALID"),
    ],
)
def test_claims_the_answers_do_not_support(status: str, solutions: list[str], problem: str) -> None:
    puzzle = OPEN if status == "MULTIPLE" else PUZZLE
    assert problem in answer_problems(Grid.parse(puzzle), status, solutions)


def test_two_distinct_verified_solutions_prove_multiple() -> None:
    assert answer_problems(Grid.parse(OPEN), "MULTIPLE", [SOLUTION_A, SOLUTION_B]) == ""


@pytest.mark.parametrize(
    ("claim", "known", "verdict", "reason"),
    [
        (result("UNSOLVABLE", exhausted=True), truth("none"), "CORRECT", ""),
        (
            result("UNSOLVABLE", exhausted=True),
            truth("unique", SOLUTION),
            "WRONG",
            "false UNSOLVABLE",
        ),
        (result("UNSOLVABLE", exhausted=True), None, None, ""),
        (result("SOLVED", SOLUTION, exhausted=True), truth("unique", SOLUTION), "CORRECT", ""),
        (
            result("SOLVED", SOLUTION, exhausted=True),
            truth("multiple"),
            "WRONG",
            "false claim of uniqueness",
        ),
        (result("SOLVED", SOLUTION, exhausted=True), None, None, ""),
        (result("SOLVED", SOLUTION, exhausted=True, limit=1), truth("multiple"), "CORRECT", ""),
        (result("SOLVED", SOLUTION), truth("multiple"), "CORRECT", ""),
        (result("SOLVED", SOLUTION), None, "CORRECT", ""),
        (result("SOLVED", SOLUTION), truth("none"), "CORRECT", ORACLE_WRONG),
        (result("SOLVED", SOLUTION), truth("unique", OTHER), "CORRECT", ORACLE_WRONG),
        (
            result("SOLVED", SOLUTION, exhausted=True),
            truth("unique", OTHER),
            "WRONG",
            "false claim of uniqueness",
        ),
        (result("MULTIPLE", SOLUTION_A), truth("multiple"), "CORRECT", ""),
        (result("MULTIPLE", SOLUTION_A), truth("unique", SOLUTION_A), "CORRECT", ORACLE_WRONG),
        (result("INVALID"), None, "CORRECT", ""),
        (result("TIMEOUT"), truth("unique", SOLUTION), "UNKNOWN", ""),
        (result("STUCK"), None, "UNKNOWN", ""),
        (result("ERROR"), None, "UNKNOWN", ""),
        (result("MEMOUT"), None, "UNKNOWN", ""),
    ],
)
def test_claims_against_the_truth(
    claim: ResultRecord, known: Truth | None, verdict: str | None, reason: str
) -> None:
    got_verdict, got_reason = judge(claim, known)
    assert got_verdict == verdict
    assert got_reason.startswith(reason)


def test_evidence_from_the_run_stands_in_for_a_missing_oracle() -> None:
    one = evidence([result("SOLVED", SOLUTION), result("TIMEOUT")])
    assert one == Truth(PUZZLE, SOLVABLE, SOLUTION, EVIDENCE)
    assert judge(result("UNSOLVABLE", exhausted=True), one)[0] == "WRONG"
    assert judge(result("SOLVED", SOLUTION, exhausted=True), one)[0] == "UNKNOWN"
    two = evidence([result("SOLVED", SOLUTION_A), result("SOLVED", SOLUTION_B)])
    assert two is not None
    assert two.kind == "multiple"
    assert judge(result("SOLVED", SOLUTION_A, exhausted=True), two)[0] == "WRONG"
    # A wrong answer is no evidence; no answer, no evidence.
    assert evidence([replace(result("SOLVED", OTHER), verdict="WRONG")]) is None
    assert evidence([result("STUCK")]) is None


@pytest.mark.parametrize(
    ("claim", "kind"),
    [
        (result("SOLVED", SOLUTION, exhausted=True), "unique"),
        (result("SOLVED", SOLUTION), None),
        (result("SOLVED", SOLUTION, exhausted=True, limit=1), None),
        (result("MULTIPLE", SOLUTION_A), "multiple"),
        (result("UNSOLVABLE", exhausted=True), "none"),
        (result("UNSOLVABLE"), None),
        (result("INVALID"), "invalid"),
        (result("TIMEOUT"), None),
    ],
)
def test_only_conclusive_oracle_answers_become_truth(claim: ResultRecord, kind: str | None) -> None:
    found = truth_from(claim, [claim.solution] if claim.solution else [], "dlx")
    assert (found.kind if found else None) == kind
    if kind == "unique":
        assert found is not None
        assert found.solution == SOLUTION
        assert found.oracle == "dlx"


def test_the_verifier_checks_every_solution_not_only_the_first() -> None:
    given = Grid.parse(OPEN)
    assert "solution 2 is not a grid" in answer_problems(given, "MULTIPLE", [SOLUTION_A, "12"])
    assert "bad grid" in answer_problems(given, "MULTIPLE", [SOLUTION_A, "1234341221434312"])
