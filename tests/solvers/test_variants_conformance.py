"""Every solver on every constraint kind it claims, and metamorphic checks on variants.

``tests/data/variants6.json`` holds one 6x6 puzzle per constraint kind, in the
native format, with its solution.  They were made by
`corpora.variant_generate.make` (the title of each says how); each solution was
checked by the verifier and its uniqueness proved by CP-SAT in both its models
and counting strategies.  Here the verifier checks the stored solutions again,
every solver whose `handles` takes a puzzle must find exactly that solution and,
when it is complete, prove it unique (pairs a solver refuses are not cases:
`test_variants_support` checks the refusals).  Transposing a puzzle (its constraints move with
the cells) and relabelling the digits of a puzzle whose constraints survive it
must map the solution accordingly.
"""

from __future__ import annotations

import json
import random

import pytest

import solvers
from solvers.transforms import relabel_digits, transpose
from solvers.variants import KINDS
from solvers.variants.canonical import puzzle_from_data
from solvers.verify import check
from tests.paths import DATA

DATA = DATA / "variants6.json"


def _load():
    found = {}
    for data in json.loads(DATA.read_text(encoding="utf-8")):
        grid, extra = puzzle_from_data(data)
        found[extra["title"].split(":")[0]] = (grid, extra["solution"])
    return found


PUZZLES = _load()


def test_every_kind_has_a_puzzle_and_its_solution_is_right():
    assert set(PUZZLES) == set(KINDS)
    for kind, (puzzle, solution) in PUZZLES.items():
        assert kind in {c.kind for c in puzzle.constraints}
        assert check(puzzle, solution) == [], kind


def _cases():
    """(solver, kind) for every kind a solver claims: the pairs it must get right."""
    for name in solvers.names(runtime=False):
        cls = solvers.solver_class(name)
        for kind, (puzzle, _) in sorted(PUZZLES.items()):
            if not cls.handles(puzzle):
                continue  # refused: test_variants_support checks that nothing wrong comes back
            marks = []
            if not cls.standalone or not cls.supported():
                marks.append(pytest.mark.skip(reason=f"{name} is not runnable here"))
            yield pytest.param(name, kind, id=f"{name}-{kind}", marks=marks)


@pytest.mark.parametrize(("name", "kind"), list(_cases()))
def test_a_solver_solves_every_kind_it_claims(name, kind):
    puzzle, solution = PUZZLES[kind]
    solver = solvers.get(name)
    result = solver.solve(puzzle, limit=2, time_limit=60)
    assert result.status is solvers.Status.SOLVED, result.message
    assert check(puzzle, result.solution) == []
    assert result.solution.cells == solution.cells
    if solver.complete:
        assert result.exhausted


@pytest.mark.parametrize("kind", sorted(PUZZLES))
def test_transposing_a_variant_puzzle_transposes_its_solution(kind):
    puzzle, solution = PUZZLES[kind]
    flip = transpose(puzzle.size)
    box = (puzzle.box_cols, puzzle.box_rows)
    turned = flip.apply(puzzle, box=box)
    assert {c.kind for c in turned.constraints} == {c.kind for c in puzzle.constraints}
    result = solvers.get("cpsat").solve(turned, limit=2)
    assert result.unique
    back = flip.inverse().apply(
        result.solution.with_constraints(()), box=(puzzle.box_rows, puzzle.box_cols)
    )
    assert back.cells == solution.cells


RELABELLED = sorted(k for k, (p, _) in PUZZLES.items() if all(c.relabels for c in p.constraints))


def test_the_kinds_that_survive_relabelling_are_the_declared_ones():
    assert (
        sorted(
            ["anti-king", "anti-knight", "diagonal", "disjoint-groups", "extra-region", "jigsaw"]
        )
        == RELABELLED
    )


@pytest.mark.parametrize("kind", RELABELLED)
def test_relabelling_digits_relabels_the_solution(kind):
    puzzle, solution = PUZZLES[kind]
    digits = list(range(1, puzzle.size + 1))
    random.Random(kind).shuffle(digits)
    relabel = relabel_digits(puzzle.size, digits)
    result = solvers.get("cpsat").solve(relabel.apply(puzzle), limit=2)
    assert result.unique
    assert result.solution.cells == tuple(digits[v - 1] for v in solution.cells)


@pytest.mark.parametrize("kind", sorted(set(PUZZLES) - set(RELABELLED)))
def test_relabelling_a_puzzle_whose_meaning_it_changes_is_refused(kind):
    puzzle, _ = PUZZLES[kind]
    relabel = relabel_digits(puzzle.size, [2, 1, *range(3, puzzle.size + 1)])
    with pytest.raises(ValueError, match="relabelling the digits changes the meaning"):
        relabel.apply(puzzle)
