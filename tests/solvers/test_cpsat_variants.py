"""CP-SAT's encoding of every constraint kind, against the verifier over every 4x4 grid.

There are 576 Latin squares of side 4 (288 of them are Sudoku solutions; a
jigsaw keeps others).  For each set of constraints below, the squares the
verifier accepts are found by brute force; CP-SAT, asked for them all, must
find exactly those (each verified, none twice) and prove it found them all,
in both its models.  An encoding that is too strict misses some, one too loose
adds some, an auxiliary variable left free lists a grid twice.
"""

from __future__ import annotations

import pytest

import solvers
from solvers.grid import Grid
from solvers.variants import KINDS, Diagonal, GreaterThan, Killer, Sandwich
from solvers.variants.samples import SETS, latin_squares
from solvers.verify import check

pytest.importorskip("ortools")


@pytest.fixture(scope="module")
def every_grid():
    squares = latin_squares()
    assert len(squares) == 576
    return squares


def test_every_kind_is_encoded_and_tested():
    assert set(SETS) == set(KINDS) == set(solvers.solver_class("cpsat").constraint_kinds)


def _cases():
    for kind, sets in sorted(SETS.items()):
        for i, constraints in enumerate(sets):
            for model in ("integer", "boolean"):
                yield pytest.param(constraints, model, id=f"{kind}-{i}-{model}")


@pytest.mark.parametrize(("constraints", "model"), list(_cases()))
def test_cpsat_finds_exactly_the_grids_the_verifier_accepts(every_grid, constraints, model):
    puzzle = Grid.empty(2).with_constraints(constraints)
    expected = {g.cells for g in every_grid if not check(puzzle, g)}
    result = solvers.get("cpsat", model=model).solve(puzzle, limit=1000)
    found = [s.cells for s in result.solutions]
    assert len(found) == len(set(found))
    assert set(found) == expected
    assert result.exhausted
    for solution in result.solutions:
        assert check(puzzle, solution) == []


def test_counting_by_blocking_agrees(every_grid):
    puzzle = Grid.empty(2).with_constraints((Sandwich((1, 5, 9, 13), 5), Killer((0, 1), 3)))
    expected = sum(1 for g in every_grid if not check(puzzle, g))
    assert expected > 1
    result = solvers.get("cpsat", counting="block").solve(puzzle, limit=1000)
    assert len(result.solutions) == expected
    assert result.exhausted


def test_givens_and_constraints_together_prove_uniqueness(every_grid):
    # 4x4 X-Sudoku: with both diagonals, r1c1=1 r1c2=2 and r3c1=4 leave one grid.
    puzzle = Grid.parse("12.. .... 4... ....").with_constraints(
        (Diagonal("main"), Diagonal("anti"))
    )
    accepted = [g for g in every_grid if not check(puzzle, g)]
    assert [g.format() for g in accepted] == ["1234341243212143"]
    result = solvers.get("cpsat").solve(puzzle, limit=2)
    assert result.unique
    assert result.solution.cells == accepted[0].cells


def test_conflicting_givens_of_a_constraint_are_invalid():
    puzzle = Grid.parse("12.. .... .... ....").with_constraints((GreaterThan((0, 1)),))
    assert solvers.get("cpsat").solve(puzzle).status is solvers.Status.INVALID


def test_the_oracle_answers_variant_puzzles_through_a_solver_that_takes_them():
    from solvers import oracle

    x_sudoku = Grid.parse("12.. .... 4... ....").with_constraints(
        (Diagonal("main"), Diagonal("anti"))
    )
    classic = Grid.parse("1... 3..2 ...3 ..2.")
    assert oracle.oracle_name(x_sudoku) == "cpsat"
    assert oracle.count_solutions(x_sudoku) == 1
    assert oracle.count_solutions(x_sudoku.with_constraints(())) == 2
    streamed = list(oracle.truth_stream([classic, x_sudoku, classic], chunk=2))
    assert [item for item, _, _ in streamed] == [classic, x_sudoku, classic]
    assert [count for _, count, _ in streamed] == [1, 1, 1]
    assert check(x_sudoku, streamed[1][2]) == []
