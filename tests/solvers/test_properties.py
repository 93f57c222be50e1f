"""Property-based and metamorphic tests over every registered solver.

Puzzles are made by blanking cells of random valid grids (and, for the
no-solution case, by adding a digit that breaks the only completion).
Equivalence transforms — relabelling digits, permuting rows within a band,
bands, columns within a stack, stacks, transposing — must map solutions to
solutions and keep the solution count (0, 1, 2+).
"""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solvers
from solvers import Grid, Status
from solvers.transforms import (
    compose,
    permute_cols,
    permute_rows,
    random_transform,
    relabel_digits,
    transpose,
)

SHAPES = [(2, 2), (2, 3), (3, 3)]
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _solved_grid(box: tuple[int, int], seed: int) -> Grid:
    rng = random.Random(seed)
    base = solvers.get("dlx").solve(Grid.empty(*box)).solution
    transform, shape = random_transform(base, rng)
    return transform.apply(base, box=shape)


@st.composite
def puzzles(draw, shapes=SHAPES):
    """A puzzle from a random valid grid with a random share of cells blanked."""
    box = draw(st.sampled_from(shapes))
    full = _solved_grid(box, draw(st.integers(0, 10**6)))
    n = full.size
    keep = draw(st.lists(st.booleans(), min_size=n * n, max_size=n * n))
    cells = [v if k else 0 for v, k in zip(full.cells, keep, strict=True)]
    if draw(st.booleans()) and 0 in cells:
        # Put a wrong digit into a blank cell where no given forbids it: often no solution.
        cell = cells.index(0)
        peers = {cells[p] for p in full.shape.peers[cell]}
        wrong = [d for d in range(1, n + 1) if d != full.cells[cell] and d not in peers]
        if wrong:
            cells[cell] = wrong[0]
    return full.replace(cells)


def _count(result) -> int | None:
    """0, 1 or 2 (two or more) when the result establishes it, else None."""
    if result.status is Status.UNSOLVABLE:
        return 0
    if result.status is Status.MULTIPLE:
        return 2
    if result.status is Status.SOLVED and result.exhausted:
        return 1
    return None


@cache
def _all_4x4_grids() -> tuple[tuple[int, ...], ...]:
    """Every valid 4x4 grid (288), by brute force over row permutations."""
    rows = list(itertools.permutations(range(1, 5)))
    found = []
    for top in itertools.product(rows, repeat=2):  # the first band: boxes must hold 1..4
        if {*top[0][:2], *top[1][:2]} != {1, 2, 3, 4}:
            continue
        for bottom in itertools.product(rows, repeat=2):
            grid = top + bottom
            if all(len({row[c] for row in grid}) == 4 for c in range(4)) and all(
                {*grid[r][c : c + 2], *grid[r + 1][c : c + 2]} == {1, 2, 3, 4}
                for r in (0, 2)
                for c in (0, 2)
            ):
                found.append(tuple(v for row in grid for v in row))
    return tuple(found)


def test_brute_force_oracle_sees_all_288_grids():
    assert len(_all_4x4_grids()) == 288


@SETTINGS
@given(puzzles(shapes=[(2, 2)]))
def test_dlx_counts_match_brute_force_on_4x4(puzzle):
    matches = [
        g
        for g in _all_4x4_grids()
        if all(p == 0 or p == v for p, v in zip(puzzle.cells, g, strict=True))
    ]
    result = solvers.get("dlx").solve(puzzle, limit=300)
    if solvers.conflicts(puzzle):
        assert result.status is Status.INVALID
        assert not matches
    else:
        assert sorted(s.cells for s in result.solutions) == sorted(matches)
        assert result.exhausted


def _available():
    for name in solvers.names(runtime=False):
        cls = solvers.solver_class(name)
        if not cls.standalone:  # a family that needs a definition (external): tested there
            continue
        mark = [] if cls.supported() else [pytest.mark.skip(reason=cls.install_hint)]
        if not cls.standalone:
            mark = [pytest.mark.skip(reason=f"{name} needs options (a program to run)")]
        yield pytest.param(name, id=name, marks=mark)


@pytest.mark.parametrize("name", list(_available()))
@SETTINGS
@given(puzzle=puzzles(), seed=st.integers(0, 10**6))
def test_equivalent_puzzles_agree(name, puzzle, seed):
    solver = solvers.get(name)
    if not solver.handles(puzzle.size):
        return
    transform, box = random_transform(puzzle, random.Random(seed))
    twin = transform.apply(puzzle, box=box)
    first = solver.solve(puzzle, limit=2, time_limit=20)
    second = solver.solve(twin, limit=2, time_limit=20)
    for result, grid in ((first, puzzle), (second, twin)):
        for solution in result.solutions:
            assert solvers.is_solution(grid, solution), f"{name} gave a wrong solution"
    if solver.complete and None not in (_count(first), _count(second)):
        assert _count(first) == _count(second)
    if first.unique and second.solved:
        assert transform.apply(first.solution, box=box) == second.solution
    if first.status is Status.INVALID or second.status is Status.INVALID:
        assert first.status is second.status


def test_elementary_transforms_keep_validity_and_invert():
    grid = _solved_grid((3, 3), 7)
    n = 9
    elementary = [
        relabel_digits(n, [2, 1, 3, 4, 5, 6, 7, 9, 8]),
        permute_rows(n, [1, 0, 2, 3, 4, 5, 6, 7, 8]),  # rows within a band
        permute_rows(n, [3, 4, 5, 0, 1, 2, 6, 7, 8]),  # bands
        permute_cols(n, [0, 2, 1, 3, 4, 5, 6, 7, 8]),  # columns within a stack
        permute_cols(n, [6, 7, 8, 3, 4, 5, 0, 1, 2]),  # stacks
        transpose(n),
    ]
    for t in elementary:
        image = t.apply(grid)
        assert image != grid
        assert solvers.is_solution(Grid.empty(3), image)
        assert t.inverse().apply(image) == grid
    both = compose(elementary[0], elementary[5])
    assert both.apply(grid) == elementary[5].apply(elementary[0].apply(grid))


def test_rectangular_boxes_transform_without_transpose():
    grid = _solved_grid((2, 3), 3)
    for seed in range(20):
        t, box = random_transform(grid, random.Random(seed))
        assert box == (2, 3)
        assert solvers.is_solution(Grid.empty(2, 3), t.apply(grid, box=box))
