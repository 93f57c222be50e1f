"""Validity-preserving transformations of a grid, for metamorphic testing.

Relabelling digits, permuting rows within a band, bands, columns within a
stack, stacks, and transposing (square boxes only) map every solution of a
puzzle to a solution of the transformed puzzle, and keep the solution count.
A `Transform` is a cell permutation plus a digit relabelling, so it can be
applied to a puzzle and undone on an answer.  A puzzle's constraints move with
its cells (`solvers.variants.Constraint.mapped`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solvers.grid import Grid


@dataclass(frozen=True)
class Transform:
    """new_cells[i] = relabel[old_cells[source[i]]]; relabel[0] = 0."""

    source: tuple[int, ...]
    relabel: tuple[int, ...]

    def apply(self, grid: Grid, *, box: tuple[int, int] | None = None) -> Grid:
        """The transformed grid; its constraints move with the cells.

        Raises `ValueError` for a constraint the transform does not preserve (a
        killer sum under a relabelling, anti-knight under a row swap).
        """
        cells = grid.cells
        rows, cols = box or (grid.box_rows, grid.box_cols)
        new = Grid(rows, cols, tuple(self.relabel[cells[s]] for s in self.source), grid.symbols)
        if not grid.constraints:
            return new
        if any(self.relabel[d] != d for d in range(len(self.relabel))):
            fixed = [c.describe(grid.size) for c in grid.constraints if not c.relabels]
            if fixed:
                raise ValueError(f"relabelling the digits changes the meaning of {fixed[0]}")
        target = [0] * len(self.source)
        for new_cell, old_cell in enumerate(self.source):
            target[old_cell] = new_cell
        moved = tuple(c.mapped(target.__getitem__, grid.shape, new.shape) for c in grid.constraints)
        return new.with_constraints(moved)

    def inverse(self) -> Transform:
        source = [0] * len(self.source)
        for new, old in enumerate(self.source):
            source[old] = new
        relabel = [0] * len(self.relabel)
        for old, new in enumerate(self.relabel):
            relabel[new] = old
        return Transform(tuple(source), tuple(relabel))


def identity(size: int) -> Transform:
    return Transform(tuple(range(size * size)), tuple(range(size + 1)))


def relabel_digits(size: int, mapping: list[int]) -> Transform:
    """Digit d becomes mapping[d-1]."""
    return Transform(tuple(range(size * size)), (0, *mapping))


def permute_rows(size: int, order: list[int]) -> Transform:
    """New row r is old row order[r]."""
    return Transform(
        tuple(order[i // size] * size + i % size for i in range(size * size)),
        tuple(range(size + 1)),
    )


def permute_cols(size: int, order: list[int]) -> Transform:
    """New column c is old column order[c]."""
    return Transform(
        tuple((i // size) * size + order[i % size] for i in range(size * size)),
        tuple(range(size + 1)),
    )


def transpose(size: int) -> Transform:
    """Rows become columns (maps a valid grid to a valid grid only for square boxes)."""
    return Transform(
        tuple((i % size) * size + i // size for i in range(size * size)),
        tuple(range(size + 1)),
    )


def _band_order(rng: random.Random, count: int, width: int) -> list[int]:
    """Shuffle bands of `width` lines and the lines inside each band."""
    bands = list(range(count))
    rng.shuffle(bands)
    order: list[int] = []
    for b in bands:
        inner = list(range(width))
        rng.shuffle(inner)
        order.extend(b * width + i for i in inner)
    return order


def random_transform(grid: Grid, rng: random.Random) -> tuple[Transform, tuple[int, int]]:
    """A random equivalence for the grid's shape, and the box shape it maps to.

    A puzzle with constraints gets only what all of them survive: a digit
    relabelling when every one allows it, and the transposition (their cells
    move with the grid's); band and stack shuffles would tear thermometers,
    arrows and neighbour rules apart.
    """
    n, br, bc = grid.size, grid.box_rows, grid.box_cols
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    if grid.constraints:
        t = identity(n)
        if all(c.relabels for c in grid.constraints):
            t = relabel_digits(n, digits)
    else:
        t = relabel_digits(n, digits)
        t = compose(t, permute_rows(n, _band_order(rng, n // br, br)))
        t = compose(t, permute_cols(n, _band_order(rng, n // bc, bc)))
    if br == bc and rng.random() < 0.5:
        t = compose(t, transpose(n))
    return t, (br, bc)


def compose(first: Transform, then: Transform) -> Transform:
    """The transform that applies `first`, then `then`."""
    return Transform(
        tuple(first.source[s] for s in then.source),
        tuple(then.relabel[d] for d in first.relabel),
    )
