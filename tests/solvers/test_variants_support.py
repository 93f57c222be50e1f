"""`Solver.handles`: a solver takes only the constraint kinds it declares, and says why not."""

from __future__ import annotations

import pytest

import solvers
from harness.records import grid_of, puzzle_text, solution_text
from solvers.base import Support, UnsupportedPuzzle
from solvers.grid import Grid
from solvers.variants import Jigsaw, Killer, Thermometer

COLUMNS4 = tuple(tuple(r * 4 + c for r in range(4)) for c in range(4))
# Rows and columns are Latin, the 2x2 boxes are not: a jigsaw of columns solves it,
# so a solver that used the boxes would answer "no solution" or a box-valid grid.
JIGSAW4 = Grid.parse("1234 2341 3412 4...").with_constraints((Jigsaw(COLUMNS4),))


def _classic_solvers():
    for name in solvers.names(runtime=False):
        cls = solvers.solver_class(name)
        marks = []
        if not cls.standalone or not cls.supported():
            marks.append(pytest.mark.skip(reason=f"{name} not runnable here"))
        if "jigsaw" in cls.constraint_kinds:
            marks.append(pytest.mark.skip(reason=f"{name} takes jigsaws"))
        yield pytest.param(name, id=name, marks=marks)


@pytest.mark.parametrize("name", list(_classic_solvers()))
def test_a_solver_refuses_a_constraint_kind_it_does_not_declare(name):
    solver = solvers.get(name)
    ok, reason = solver.handles(JIGSAW4)
    assert not ok
    assert reason == f"{name} does not take jigsaw constraints"
    with pytest.raises(UnsupportedPuzzle, match="does not take jigsaw constraints"):
        solver.solve(JIGSAW4)


def test_handles_says_yes_to_classic_grids_and_takes_a_side():
    odometer = solvers.solver_class("odometer")
    assert odometer.handles(JIGSAW4.with_constraints(()))
    assert odometer.handles(16)
    assert tuple(odometer.handles(JIGSAW4)) == (False, "odometer does not take jigsaw constraints")


def test_handles_names_every_missing_kind_and_the_sizes():
    puzzle = Grid.empty(3).with_constraints((Killer((0, 1), 3), Thermometer((2, 3))))
    assert solvers.solver_class("odometer").handles(puzzle).reason == (
        "odometer does not take killer, thermometer constraints"
    )
    fast = solvers.solver_class("fast")
    assert fast.handles(26).reason == "fast does not solve 26x26 grids (sizes: 2..25)"


def test_a_declared_kind_is_taken():
    class Declares(solvers.Solver):
        name, family, complete, summary, source = "declares", "search", False, "-", "-"
        constraint_kinds = frozenset({"jigsaw"})

        def _solve(self, puzzle, limit, limits, trace):
            return solvers.SolveResult(solvers.Status.STUCK)

    assert Declares.handles(JIGSAW4) == Support(True)
    assert Declares().solve(JIGSAW4).status is solvers.Status.STUCK
    both = JIGSAW4.with_constraints((Jigsaw(COLUMNS4), Killer((0, 1))))
    assert Declares.handles(both).reason == "declares does not take killer constraints"


def test_fast_batches_refuse_puzzles_with_constraints():
    pytest.importorskip("numba")
    from solvers.fast.batch import solve_many

    with pytest.raises(UnsupportedPuzzle, match="classic Sudoku only, not jigsaw"):
        solve_many([JIGSAW4])


def test_the_harness_text_of_a_puzzle_keeps_its_constraints():
    text, box = puzzle_text(JIGSAW4)
    assert text.startswith("{")
    assert grid_of(text, box) == JIGSAW4
    assert solution_text(JIGSAW4) == "1234234134124..."
    classic = JIGSAW4.with_constraints(())
    assert puzzle_text(classic) == ("1234234134124...", "")
