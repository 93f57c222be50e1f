"""The CNF of every constraint kind (`solvers.sat.variant_cnf`), against the verifier
over every 4x4 Latin square, on `sat` and through the `dimacs` file format.

`sat`, asked for every solution, must find exactly the squares the verifier
accepts, none twice, and prove it found them all, in both classic encodings.
`dimacs` runs a binary once per solution, so it gets one set per kind of the
DIMACS text instead: PySAT reads the file back and enumerates the same squares.
"""

from __future__ import annotations

import pytest

import solvers
from solvers.grid import Grid
from solvers.sat import cnf
from solvers.sat.variant_cnf import KINDS, SUMS
from solvers.variants import Killer, LittleKiller, Sandwich
from solvers.variants.samples import SETS, accepted, latin_squares
from solvers.verify import check

pytest.importorskip("pysat")


@pytest.fixture(scope="module")
def every_grid():
    squares = latin_squares()
    assert len(squares) == 576
    return squares


def test_every_kind_is_encoded_declared_and_tested():
    assert set(SETS) == set(KINDS)
    assert solvers.solver_class("sat").constraint_kinds == KINDS
    assert solvers.solver_class("dimacs").constraint_kinds == KINDS


def _cases():
    for kind, sets in sorted(SETS.items()):
        for i, constraints in enumerate(sets):
            for encoding in ("minimal", "extended"):
                for sums in SUMS:
                    yield pytest.param(
                        constraints, encoding, sums, id=f"{kind}-{i}-{encoding}-{sums}"
                    )


@pytest.mark.parametrize(("constraints", "encoding", "sums"), list(_cases()))
def test_sat_finds_exactly_the_grids_the_verifier_accepts(every_grid, constraints, encoding, sums):
    puzzle = Grid.empty(2).with_constraints(constraints)
    result = solvers.get("sat", encoding=encoding, sums=sums).solve(puzzle, limit=1000)
    found = [s.cells for s in result.solutions]
    assert len(found) == len(set(found))
    assert set(found) == accepted(constraints, every_grid)
    assert result.exhausted
    for solution in result.solutions:
        assert check(puzzle, solution) == []


def _models_of(text: str, puzzle: Grid) -> set[tuple[int, ...]]:
    """Every grid a DIMACS text admits, enumerated by PySAT over the cell variables."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    formula = CNF(from_string=text)
    grids = set()
    with Solver(name="cadical153", bootstrap_with=formula.clauses) as sat:
        while sat.solve():
            grid = cnf.decode(puzzle, sat.get_model())
            grids.add(grid.cells)
            sat.add_clause(cnf.blocking(puzzle, grid))
    return grids


@pytest.mark.parametrize("kind", sorted(SETS))
@pytest.mark.parametrize("sums", list(SUMS))
def test_the_dimacs_text_admits_exactly_the_accepted_grids(every_grid, kind, sums):
    constraints = SETS[kind][-1]
    puzzle = Grid.empty(2).with_constraints(constraints)
    text = cnf.dimacs(puzzle, "minimal", sums=sums)
    assert f"(sums={sums})" in text
    header = next(line for line in text.splitlines() if line.startswith("p cnf"))
    variables = int(header.split()[2])
    assert variables >= 64
    used = {abs(int(v)) for line in text.splitlines() if line[:1] not in "cp" for v in line.split()}
    assert max(used) <= variables
    assert _models_of(text, puzzle) == accepted(constraints, every_grid)


def test_dimacs_counts_a_variant_puzzle_with_the_binary(every_grid):
    if not solvers.solver_class("dimacs").supported():
        pytest.skip("no cadical binary")
    constraints = (Sandwich((1, 5, 9, 13), 5), Killer((0, 1), 3))
    expected = accepted(constraints, every_grid)
    assert 1 < len(expected) < 20
    puzzle = Grid.empty(2).with_constraints(constraints)
    for sums in SUMS:
        result = solvers.get("dimacs", sums=sums).solve(puzzle, limit=100)
        assert {s.cells for s in result.solutions} == expected
        assert result.exhausted


def test_the_sums_encodings_differ_for_killer_cages_only():
    cage = Grid.empty(2).with_constraints((Killer((0, 1, 4), 7),))
    ladder, combos = (cnf.puzzle_clauses(cage, "minimal", sums) for sums in SUMS)
    assert ladder != combos
    little = Grid.empty(2).with_constraints((LittleKiller((1, 6, 11), 6),))
    assert cnf.puzzle_clauses(little, "minimal", "ladder") == cnf.puzzle_clauses(
        little, "minimal", "combinations"
    )
    with pytest.raises(ValueError, match="unknown sums encoding 'pb'"):
        cnf.puzzle_clauses(cage, "minimal", "pb")


def test_incremental_sat_solves_a_variant_puzzle_on_its_own_clauses(every_grid):
    constraints = (Killer((0, 1), 3),)
    puzzle = Grid.empty(2).with_constraints(constraints)
    solver = solvers.get("sat", incremental=True)
    solver.solve(Grid.empty(2), limit=1)  # loads the classic clauses of the shape
    result = solver.solve(puzzle, limit=1000)
    assert {s.cells for s in result.solutions} == accepted(constraints, every_grid)
    assert result.exhausted
    assert len(solver.solve(Grid.empty(2), limit=1000).solutions) == 288
