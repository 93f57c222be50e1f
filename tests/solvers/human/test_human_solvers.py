"""The `human` and `assume` solvers: statuses, proofs, parameters, statistics, traces."""

from __future__ import annotations

import pytest

import solvers
from solvers import Grid, Status, UnknownOption
from solvers.human import CandidateState
from solvers.search.assume import Assumption
from solvers.testing import PUZZLE_9X9_TWO_SOLUTIONS

# The puzzles come from the project's generated corpora (corpora/data/*.txt).
# corpora/data/gen9-easy.txt line 53
EASY = "...8.15...2....89.45.....3.7..6.8.............4...5...1...7..58.7.3149..6.....7.."
# corpora/data/gen9-minimal.txt line 60: needs an X-Wing, beyond the first tier.
EXPERT = "..7.6......812.6.4..39.....4......8...57.13..1.....2...6...7.3.........8.....27.5"
# corpora/data/gen9-extreme.txt line 7: human without forcing chains is stuck; the first
# value assumed solves it, the other one is refuted.
ONE_ASSUMPTION = "1.9.4.......26....7.......1...71.2..3...8.....6....58..9...2..4..84........8..95."
# corpora/data/gen9-extreme.txt line 50: the same; at depth 1 neither value of
# the chosen cell settles anything.
DEEPER = "5.....4.2..9.6785.......76....49..2.8....1.4.......3..2.8..5.3..94....7...5..4..6"
NO_SOLUTION = "1.3...1.3....2.4"


def _solve(spec, text, **kwargs):
    puzzle = Grid.parse(text)
    result = solvers.get(spec).solve(puzzle, **kwargs)
    for solution in result.solutions:
        assert solvers.is_solution(puzzle, solution)
    return result


def test_human_solves_by_logic_and_proves_uniqueness():
    result = _solve("human", EASY, limit=2)
    assert (result.status, result.exhausted) == (Status.SOLVED, True)
    assert result.stats["nodes"] == result.stats["steps"] > 0
    assert result.stats["guesses"] == 0
    assert result.stats["hidden_single"] > 0


def test_human_stuck_reports_the_candidates():
    result = _solve("human[techniques=classic]", ONE_ASSUMPTION)
    assert result.status is Status.STUCK
    assert "open cells" in result.message
    state = CandidateState.from_candidates(result.stats["candidates"])
    assert state.empty == int(result.message.split("with ")[1].split()[0])


def test_human_proves_no_solution():
    result = _solve("human", NO_SOLUTION, limit=2)
    assert (result.status, result.exhausted) == (Status.UNSOLVABLE, True)


def test_human_trace_explains_each_step():
    result = _solve("human", EASY, trace=True)
    assert len(result.trace) == result.stats["steps"]
    assert str(result.trace[0]).startswith(("Hidden single", "Full house", "Naked single"))
    assert _solve("human", EASY).trace is None


def test_human_technique_parameter():
    solver = solvers.get("human[techniques=tier1]")
    assert solver.spec == "human[techniques=tier1]"
    result = solver.solve(Grid.parse(EXPERT))
    assert result.status is Status.STUCK
    with pytest.raises(UnknownOption, match="unknown technique"):
        solvers.get("human", techniques="magic")


def test_human_budget_is_in_steps():
    result = _solve("human", EASY, budget=10)
    assert result.status is Status.BUDGET
    assert result.stats["nodes"] == 10


def test_human_multiple_solutions_are_never_claimed_unique():
    result = _solve("human", PUZZLE_9X9_TWO_SOLUTIONS, limit=2)
    assert result.status is Status.STUCK
    assert not result.unique


def test_assume_solves_with_one_assumption_and_proves_uniqueness():
    result = _solve("assume", ONE_ASSUMPTION, limit=2)
    assert (result.status, result.exhausted) == (Status.SOLVED, True)
    assert result.stats["assumptions"] == result.stats["nodes"] == 2
    assert result.stats["contradictions"] == 1


def test_assume_finds_two_solutions():
    result = _solve("assume", PUZZLE_9X9_TWO_SOLUTIONS, limit=2)
    assert result.status is Status.MULTIPLE
    assert len(set(result.solutions)) == 2


def test_assume_gives_up_after_max_values():
    result = _solve("assume[max_values=1]", DEEPER)
    assert result.status is Status.STUCK
    assert result.message == "unable to solve: gave up after the first value"
    result = _solve("assume", DEEPER)
    assert result.status is Status.STUCK
    assert result.message == "unable to solve: logic ran out inside the assumptions"


def test_assume_depth_nests_assumptions():
    result = _solve("assume[depth=2]", DEEPER)
    assert result.status is Status.SOLVED
    assert result.stats["assumptions"] > 2


def test_assume_without_need_for_assumptions_is_the_engine():
    result = _solve("assume", EASY, limit=2)
    assert (result.status, result.exhausted, result.stats["assumptions"]) == (
        Status.SOLVED,
        True,
        0,
    )


def test_assume_trace_marks_the_assumptions():
    result = _solve("assume", ONE_ASSUMPTION, trace=True, limit=2)
    marks = [entry for entry in result.trace if isinstance(entry, Assumption)]
    assert [m.outcome for m in marks] == ["solved", "contradiction"]
    first = _solve("assume", ONE_ASSUMPTION, trace=True)
    assert [str(m) for m in first.trace if isinstance(m, Assumption)] == [str(marks[0])]
    assert str(marks[0]).startswith("Assume r")


def test_assume_budget_caps_assumptions():
    result = _solve("assume[depth=3]", DEEPER, budget=1)
    assert result.status is Status.BUDGET
    assert result.stats["nodes"] <= 1


@pytest.mark.parametrize("bad", ["max_values=0", "depth=0", "depth=x"])
def test_assume_rejects_bad_parameters(bad):
    with pytest.raises(UnknownOption):
        solvers.get(f"assume[{bad}]")
