"""MiniZinc's model of every constraint kind (`solvers.cp.minizinc_variants`), against the
verifier over every 4x4 Latin square: asked for every solution, `minizinc` must find
exactly the squares the verifier accepts, none twice, and prove it found them all."""

from __future__ import annotations

import pytest

import solvers
from solvers.cp.minizinc import MODEL, dzn, model_for
from solvers.cp.minizinc_variants import KINDS, model_text
from solvers.grid import Grid
from solvers.variants import Killer, Thermometer
from solvers.variants.samples import SETS, accepted, latin_squares
from solvers.verify import check

if not solvers.solver_class("minizinc").supported():
    pytest.skip("MiniZinc is not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def every_grid():
    return latin_squares()


def test_every_kind_is_encoded_declared_and_tested():
    assert set(SETS) == set(KINDS) == set(solvers.solver_class("minizinc").constraint_kinds)


def _cases():
    for kind, sets in sorted(SETS.items()):
        for i, constraints in enumerate(sets):
            yield pytest.param(constraints, id=f"{kind}-{i}")


@pytest.mark.parametrize("constraints", list(_cases()))
def test_minizinc_finds_exactly_the_grids_the_verifier_accepts(every_grid, constraints):
    puzzle = Grid.empty(2).with_constraints(constraints)
    result = solvers.get("minizinc").solve(puzzle, limit=1000)
    found = [s.cells for s in result.solutions]
    assert len(found) == len(set(found))
    assert set(found) == accepted(constraints, every_grid)
    assert result.exhausted
    for solution in result.solutions:
        assert check(puzzle, solution) == []


def test_a_variant_model_names_its_constraints_and_classic_keeps_its_model():
    puzzle = Grid.empty(2).with_constraints((Killer((0, 1), 3), Thermometer((4, 8))))
    text = model_for(puzzle)
    assert text == model_text(puzzle)
    assert "constraint sum([c[0], c[1]]) = 3;" in text
    assert "constraint strictly_increasing([c[4], c[8]]);" in text
    assert model_for(puzzle.with_constraints(())) == MODEL
    assert "givens = [|" in dzn(puzzle)
