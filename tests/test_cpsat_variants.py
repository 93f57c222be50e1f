"""CP-SAT's encoding of every constraint kind, against the verifier over every 4x4 grid.

There are 576 Latin squares of side 4 (288 of them are Sudoku solutions; a
jigsaw keeps others).  For each set of constraints below, the squares the
verifier accepts are found by brute force; CP-SAT, asked for them all, must
find exactly those (each verified, none twice) and prove it found them all,
in both its models.  An encoding that is too strict misses some, one too loose
adds some, an auxiliary variable left free lists a grid twice.
"""

from __future__ import annotations

import itertools

import pytest

import solvers
from solvers.grid import Grid
from solvers.variants import (
    KINDS,
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    Diagonal,
    DisjointGroups,
    ExtraRegion,
    GreaterThan,
    Jigsaw,
    Killer,
    Kropki,
    KropkiNegative,
    LittleKiller,
    NonConsecutive,
    Parity,
    Sandwich,
    Thermometer,
    XVNegative,
)
from solvers.verify import check

pytest.importorskip("ortools")

# AAAB / ABBB / CCDD / CCDD
JIGSAW = Jigsaw(((0, 1, 2, 4), (3, 5, 6, 7), (8, 9, 12, 13), (10, 11, 14, 15)))
SETS = {
    "jigsaw": [(JIGSAW,), (Jigsaw(tuple(tuple(r * 4 + c for r in range(4)) for c in range(4))),)],
    "extra-region": [(ExtraRegion((0, 5, 10, 15)),), (ExtraRegion((1, 6)), ExtraRegion((8, 13)))],
    "disjoint-groups": [(DisjointGroups(),)],
    "diagonal": [(Diagonal("main"),), (Diagonal("main"), Diagonal("anti"))],
    "anti-knight": [(AntiKnight(),)],
    "anti-king": [(AntiKing(),), (AntiKing(), JIGSAW)],
    "non-consecutive": [(NonConsecutive(),), (NonConsecutive(), JIGSAW)],
    "killer": [(Killer((0, 1), 3),), (Killer((0, 1, 4), 7), Killer((0, 5)))],
    "little-killer": [
        (LittleKiller((0, 5, 10, 15), 10),),
        (LittleKiller((1, 6, 11), 6), LittleKiller((12,), 3)),
    ],
    "thermometer": [(Thermometer((0, 1, 2)),), (Thermometer((4, 9, 14)), Thermometer((3, 7)))],
    "arrow": [
        (Arrow((0,), (5,)),),
        (Arrow((3,), (6, 9)),),
        (Arrow((0, 1), (4, 8, 12, 13, 14, 15, 11, 7)),),
    ],
    "kropki": [
        (Kropki((0, 1)),),
        (Kropki((0, 4), "black"), Kropki((1, 2), "white", 2)),
    ],
    "kropki-negative": [
        (KropkiNegative("white"), Kropki((0, 1)), Kropki((5, 6)), Kropki((10, 14))),
        (KropkiNegative("black"), Kropki((0, 4), "black")),
        (KropkiNegative("white"), KropkiNegative("black"), Kropki((0, 1), "black")),
    ],
    "xv": [(XV((0, 1), 5),), (XV((0, 1), 5), XV((4, 8), 5))],
    "xv-negative": [(XVNegative(), XV((0, 1), 5), XV((10, 11), 5))],
    "parity": [(Parity(0, "odd"), Parity(5, "even")), (Parity(0, "even"), Parity(1, "even"))],
    "greater-than": [(GreaterThan((0, 1)), GreaterThan((4, 0)))],
    "sandwich": [
        (Sandwich((0, 1, 2, 3), 0),),
        (Sandwich((1, 5, 9, 13), 5), Sandwich((4, 5, 6, 7), 2)),
    ],
}


@pytest.fixture(scope="module")
def every_grid():
    """Every Latin square of side 4, built from row permutations alone."""
    rows = list(itertools.permutations(range(1, 5)))
    squares = [
        Grid(2, 2, sum(choice, ()))
        for choice in itertools.product(rows, repeat=4)
        if all(len({row[c] for row in choice}) == 4 for c in range(4))
    ]
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
