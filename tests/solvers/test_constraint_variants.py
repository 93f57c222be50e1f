"""python-constraint's model of every constraint kind (`solvers.cp.constraint_variants`),
against the verifier over every 4x4 Latin square: asked for every solution, `constraint`
must find exactly the squares the verifier accepts, none twice, and prove it found them all."""

from __future__ import annotations

import pytest

import solvers
from solvers.grid import Grid
from solvers.variants import Sandwich
from solvers.variants.samples import SETS, accepted, latin_squares
from solvers.verify import check

pytest.importorskip("constraint")

from solvers.cp.constraint_variants import KINDS  # noqa: E402


@pytest.fixture(scope="module")
def every_grid():
    return latin_squares()


def test_every_kind_is_encoded_declared_and_tested():
    assert set(SETS) == set(KINDS) == set(solvers.solver_class("constraint").constraint_kinds)


def _cases():
    for kind, sets in sorted(SETS.items()):
        for i, constraints in enumerate(sets):
            yield pytest.param(constraints, id=f"{kind}-{i}")


@pytest.mark.parametrize("constraints", list(_cases()))
def test_constraint_finds_exactly_the_grids_the_verifier_accepts(every_grid, constraints):
    puzzle = Grid.empty(2).with_constraints(constraints)
    result = solvers.get("constraint").solve(puzzle, limit=1000)
    found = [s.cells for s in result.solutions]
    assert len(found) == len(set(found))
    assert set(found) == accepted(constraints, every_grid)
    assert result.exhausted
    for solution in result.solutions:
        assert check(puzzle, solution) == []


@pytest.mark.parametrize("algorithm", ["optimized", "recursive"])
def test_the_other_complete_algorithms_agree(every_grid, algorithm):
    constraints = (Sandwich((1, 5, 9, 13), 5), Sandwich((4, 5, 6, 7), 2))
    puzzle = Grid.empty(2).with_constraints(constraints)
    result = solvers.get("constraint", algorithm=algorithm).solve(puzzle, limit=1000)
    assert {s.cells for s in result.solutions} == accepted(constraints, every_grid)
    assert result.exhausted
