"""`Solver.stage`: the split the harness times, and the warm-up before any limit.

The conformance suite checks that every registered solver answers the same
staged as direct; these tests pin what the split promises.
"""

from __future__ import annotations

import time

import pytest

from solvers import Grid, Limits, Solver, SolveResult, Staged, Status
from solvers.grid import easy_grid


class Clocked(Solver):
    """Records when its limits started, and answers STUCK."""

    name, family, complete, summary, source = "clocked", "search", False, "test", "test"

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        self.limits = limits
        return SolveResult(Status.STUCK)


def test_the_limits_start_when_the_work_runs_not_when_it_is_staged() -> None:
    solver = Clocked()
    staged = solver.stage(easy_grid(2, 2), time_limit=5.0, budget=7)
    before_run = time.perf_counter()
    assert staged.finish(staged.run()).status is Status.STUCK
    assert solver.limits.started >= before_run
    assert solver.limits.budget == 7
    assert solver.limits.deadline == pytest.approx(solver.limits.started + 5.0)


def test_conflicting_givens_are_answered_at_staging_without_running_the_solver() -> None:
    solver = Clocked()
    staged = solver.stage(Grid.parse("11.. .... .... ...."))
    result = staged.finish(staged.run())
    assert result.status is Status.INVALID
    assert not hasattr(solver, "limits")


def test_bad_arguments_are_refused_at_staging() -> None:
    with pytest.raises(ValueError, match="limit must be a positive integer"):
        Clocked().stage(easy_grid(2, 2), limit=0)
    with pytest.raises(TypeError, match="takes a Grid"):
        Clocked().stage("1...")  # type: ignore[arg-type]


def test_a_staged_default_finish_passes_the_result_through() -> None:
    result = SolveResult(Status.UNSOLVABLE, exhausted=True)
    assert Staged(lambda: result).finish(result) is result


def test_easy_grid_is_a_valid_puzzle_with_one_blank_per_row_for_every_shape() -> None:
    import solvers

    for box in ((2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)):
        grid = easy_grid(*box)
        assert grid.cells.count(0) == grid.size
        assert solvers.get("dlx").solve(grid, limit=2).unique
