"""``fast`` on puzzles with constraints: the compiled variant kernel against brute force,
the built-in variant corpora and their truth, CP-SAT on random constraint sets, and the
kinds it refuses.

`solvers.variants.samples` holds small constraint sets of every kind with the grids the
verifier accepts among all 576 Latin squares of side 4; the random sets below mix the
kinds ``fast`` takes on 4x4 and 6x6 grids, with a few givens, and compare solution counts
(limit 3) with CP-SAT's.
"""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import solvers
from corpora.corpus import open_corpus
from solvers import Grid, Status
from solvers.base import UnsupportedPuzzle
from solvers.grid import shape
from solvers.variants import (
    KINDS,
    AntiKing,
    AntiKnight,
    Constraint,
    ConstraintError,
    Diagonal,
    DisjointGroups,
    ExtraRegion,
    Jigsaw,
    Killer,
    NonConsecutive,
    Parity,
)
from solvers.variants.canonical import puzzle_from_data
from solvers.variants.samples import SETS, latin_squares
from solvers.verify import check
from tests.paths import DATA

pytest.importorskip("numba")

FAST = solvers.get("fast")
TAKEN = solvers.solver_class("fast").constraint_kinds
CORPORA = ("killer9", "jigsaw9", "x9", "antiknight9")


def test_fast_takes_the_region_neighbour_and_killer_kinds():
    assert {
        "jigsaw",
        "extra-region",
        "disjoint-groups",
        "diagonal",
        "anti-knight",
        "anti-king",
        "non-consecutive",
        "parity",
        "killer",
    } == TAKEN
    assert set(KINDS) >= TAKEN


@pytest.mark.parametrize("size", [4, 6, 9])
def test_a_cage_keeps_exactly_the_digit_sets_of_its_size_and_sum(size):
    from solvers.fast.variant_tables import combinations

    for cells in range(1, size + 1):
        for total in range(size * cells + 2):
            expected = sorted(
                sum(1 << (d - 1) for d in digits)
                for digits in itertools.combinations(range(1, size + 1), cells)
                if sum(digits) == total
            )
            assert list(combinations(size, cells, total)) == expected


@pytest.fixture(scope="module")
def every_grid():
    return latin_squares()


def _sample_cases():
    for kind, sets in sorted(SETS.items()):
        if kind in TAKEN:
            for i, constraints in enumerate(sets):
                yield pytest.param(constraints, id=f"{kind}-{i}")


@pytest.mark.parametrize("constraints", list(_sample_cases()))
def test_fast_finds_exactly_the_grids_the_verifier_accepts(every_grid, constraints):
    puzzle = Grid.empty(2).with_constraints(constraints)
    expected = {g.cells for g in every_grid if not check(puzzle, g)}
    result = FAST.solve(puzzle, limit=1000)
    found = [s.cells for s in result.solutions]
    assert len(found) == len(set(found))
    assert set(found) == expected
    assert result.exhausted


@pytest.mark.parametrize("name", CORPORA)
def test_fast_solves_a_variant_corpus_to_its_truth_and_proves_uniqueness(name):
    corpus = open_corpus(name)
    puzzles = list(corpus.puzzles())
    assert puzzles
    for puzzle, known in zip(puzzles, corpus.truth().values(), strict=True):
        result = FAST.solve(puzzle.grid, limit=2)
        assert result.status is Status.SOLVED, puzzle.id
        assert result.unique, puzzle.id  # one solution, the search exhausted
        assert check(puzzle.grid, result.solution) == [], puzzle.id
        assert result.solution.format("line") == known.solution, puzzle.id


def test_a_batch_of_variant_and_classic_puzzles_equals_solving_one_by_one():
    puzzles = [p.grid for name in CORPORA for p in itertools.islice(open_corpus(name).puzzles(), 3)]
    classic = [p.grid for p in itertools.islice(open_corpus("gen9-hard").puzzles(), 3)]
    mixed = [x for pair in zip(puzzles, classic * 4, strict=True) for x in pair]
    batch = FAST.solve_batch(mixed, limit=2)
    for puzzle, result in zip(mixed, batch, strict=True):
        alone = FAST.solve(puzzle, limit=2)
        assert result.status is alone.status is Status.SOLVED
        assert result.solutions == alone.solutions


def test_a_budget_stops_a_variant_search_and_a_time_limit_lets_it_finish():
    puzzle = next(iter(open_corpus("antiknight9").puzzles())).grid
    full = FAST.solve(puzzle, limit=2)
    assert full.stats["nodes"] > 1
    stopped = FAST.solve(puzzle, limit=2, budget=1)
    assert stopped.status is Status.BUDGET
    assert not stopped.exhausted
    timed = FAST.solve(puzzle, limit=2, time_limit=60)
    assert timed.solutions == full.solutions
    assert timed.exhausted


def test_a_killer_cage_that_misses_its_sum_has_no_solution():
    solved = solvers.get("dlx").solve(Grid.empty(2)).solution
    cells = (0, 1)
    total = solved.cells[0] + solved.cells[1]
    other = total + 1 if total < 7 else total - 1
    assert FAST.solve(solved.with_constraints((Killer(cells, total),)), limit=2).unique
    assert FAST.solve(solved.with_constraints((Killer(cells, other),))).status is (Status.INVALID)
    open_ = solved.replace([0, 0, *solved.cells[2:]])
    result = FAST.solve(open_.with_constraints((Killer(cells, other),)), limit=2)
    assert result.status is Status.UNSOLVABLE
    assert result.exhausted


def _refused():
    for data in json.loads((DATA / "variants6.json").read_text(encoding="utf-8")):
        grid, extra = puzzle_from_data(data)
        missing = sorted({c.kind for c in grid.constraints} - TAKEN)
        if missing:
            yield pytest.param(grid, missing, id=extra["title"].split(":")[0])


@pytest.mark.parametrize(("puzzle", "missing"), list(_refused()))
def test_fast_refuses_the_kinds_it_does_not_take_with_the_reason(puzzle, missing):
    support = FAST.handles(puzzle)
    reason = f"fast does not take {', '.join(missing)} constraints"
    assert not support
    assert support.reason == reason
    with pytest.raises(UnsupportedPuzzle, match=reason):
        FAST.solve(puzzle)
    with pytest.raises(UnsupportedPuzzle, match=reason):
        FAST.solve_batch([puzzle])


# -- random constraint sets against CP-SAT -----------------------------------------------
def _transposed_boxes(box: tuple[int, int]) -> Jigsaw:
    """The boxes of the transposed shape: a jigsaw that is not the grid's own boxes."""
    return Jigsaw(shape(box[1], box[0]).units[-box[0] * box[1] :])


@st.composite
def variant_puzzles(draw: st.DrawFn) -> Grid:
    box = draw(st.sampled_from([(2, 2), (2, 3), (3, 2)]))
    n = box[0] * box[1]
    cells = st.integers(0, n * n - 1)
    found: list[Constraint] = []
    rare = st.integers(0, 3).map(lambda k: k == 0)  # each whole-grid rule one time in four
    regions = draw(rare)
    if regions:
        found.append(_transposed_boxes(box))
    elif draw(rare):
        found.append(DisjointGroups())
    for rule in (Diagonal("main"), Diagonal("anti"), AntiKnight(), AntiKing(), NonConsecutive()):
        if draw(rare):
            found.append(rule)
    for _ in range(draw(st.integers(0, 2))):
        found.append(ExtraRegion(draw(st.sets(cells, min_size=2, max_size=n))))
    for _ in range(draw(st.integers(0, 4))):
        cage = draw(st.sets(cells, min_size=1, max_size=min(n, 4)))
        k = len(cage)
        low, high = k * (k + 1) // 2, k * (2 * n - k + 1) // 2
        total = draw(st.none() | st.integers(low, high))
        found.append(Killer(tuple(cage), total))
    for _ in range(draw(st.integers(0, 3))):
        found.append(Parity(draw(cells), draw(st.sampled_from(["odd", "even"]))))
    givens = draw(st.dictionaries(cells, st.integers(1, n), max_size=4))
    digits = [givens.get(i, 0) for i in range(n * n)]
    try:
        return Grid(*box, tuple(digits)).with_constraints(found)
    except ConstraintError:
        assume(False)
        raise


@pytest.mark.skipif(not solvers.solver_class("cpsat").supported(), reason="needs ortools")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant_puzzles())
def test_fast_counts_like_cpsat_on_random_constraint_sets(puzzle):
    assert FAST.handles(puzzle)
    fast = FAST.solve(puzzle, limit=3)
    cpsat = solvers.get("cpsat").solve(puzzle, limit=3)
    assert fast.status is cpsat.status
    assert len(fast.solutions) == len(cpsat.solutions)
    for solution in fast.solutions:
        assert check(puzzle, solution) == []
    if len(fast.solutions) < 3:  # every solution found: the same ones
        assert fast.exhausted
        assert {s.cells for s in fast.solutions} == {s.cells for s in cpsat.solutions}


@pytest.mark.skipif(not solvers.solver_class("cpsat").supported(), reason="needs ortools")
def test_the_oracle_keeps_cpsat_for_the_kinds_fast_takes(monkeypatch):
    from solvers import oracle

    monkeypatch.delenv(oracle.ENV, raising=False)
    puzzle = next(iter(open_corpus("x9").puzzles())).grid
    assert FAST.handles(puzzle)
    assert oracle.oracle_name(puzzle) == "cpsat"
    assert oracle.oracle_name(puzzle.with_constraints(())) == "fast"
