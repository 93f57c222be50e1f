"""Broken puzzles on purpose, for testing solvers' error paths.

Each starts from a generated puzzle with a unique solution and changes it so
the truth is known without trusting any one solver: conflicting givens
(``INVALID``), no solution (``UNSOLVABLE``), or several (``MULTIPLE``).  The
oracle confirms the last two.
"""

from __future__ import annotations

import random

from corpora.symmetry import orbits
from solvers import oracle
from solvers.base import Status
from solvers.grid import Grid
from solvers.verify import conflicts


def break_puzzle(
    kind: str, puzzle: Grid, solution: Grid, rng: random.Random, symmetry: str = "none"
) -> tuple[Grid, Status] | None:
    """The broken puzzle and its status, or None when this puzzle cannot be broken so."""
    return BREAKERS[kind](puzzle, solution, rng, symmetry)


def _invalid(
    puzzle: Grid, solution: Grid, rng: random.Random, symmetry: str
) -> tuple[Grid, Status] | None:
    """Copy a given into an empty peer cell: two equal digits in one unit."""
    peers = puzzle.shape.peers
    choices = [
        (cell, puzzle.cells[p])
        for cell in range(len(puzzle.cells))
        if not puzzle.cells[cell]
        for p in peers[cell]
        if puzzle.cells[p]
    ]
    if not choices:
        return None
    cell, digit = rng.choice(sorted(set(choices)))
    cells = list(puzzle.cells)
    cells[cell] = digit
    broken = puzzle.replace(cells)
    if not conflicts(broken):  # cannot happen: the digit repeats a peer's
        return None
    return broken, Status.INVALID


def _unsolvable(
    puzzle: Grid, solution: Grid, rng: random.Random, symmetry: str
) -> tuple[Grid, Status] | None:
    """Add a clue that breaks no rule but differs from the unique solution.

    Any solution of the new puzzle would solve the old one, whose only
    solution has another digit there: so there is none.  The oracle confirms.
    """
    peers = puzzle.shape.peers
    options: list[tuple[int, int]] = []
    for cell, v in enumerate(puzzle.cells):
        if v:
            continue
        used = {puzzle.cells[p] for p in peers[cell]}
        options.extend(
            (cell, d)
            for d in range(1, puzzle.size + 1)
            if d not in used and d != solution.cells[cell]
        )
    if not options:
        return None
    cell, digit = rng.choice(options)
    cells = list(puzzle.cells)
    cells[cell] = digit
    broken = puzzle.replace(cells)
    result = oracle.solve_many([broken], limit=2)[0]
    if result.solutions or not result.exhausted:
        return None
    return broken, Status.UNSOLVABLE


def _multiple(
    puzzle: Grid, solution: Grid, rng: random.Random, symmetry: str
) -> tuple[Grid, Status] | None:
    """Remove one more clue group, one whose removal admits a second solution."""
    groups = [g for g in orbits(puzzle.size, symmetry) if puzzle.cells[g[0]]]
    rng.shuffle(groups)
    for group in groups[:20]:
        cells = list(puzzle.cells)
        for i in group:
            cells[i] = 0
        broken = puzzle.replace(cells)
        if len(oracle.solve_many([broken], limit=2)[0].solutions) >= 2:
            return broken, Status.MULTIPLE
    return None


BREAKERS = {"invalid": _invalid, "unsolvable": _unsolvable, "multiple": _multiple}
