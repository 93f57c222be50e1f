"""Building `Grid`s from cells already known to be valid, without re-checking them.

`Grid.__post_init__` validates every cell; readers and the generator build
millions of grids from cells they have just checked (a lookup table, a
solution with clues removed), and the re-check is most of their run time.
`trusted_grid` skips it while `Grid` has exactly the fields set here, and
falls back to the checked constructor otherwise.

>>> trusted_grid(2, 2, (1, 2, 3, 4) * 4, "1234") == Grid(2, 2, (1, 2, 3, 4) * 4)
True
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from solvers.grid import Grid, default_symbols

if TYPE_CHECKING:
    from solvers.variants import Constraint

_FIELDS = ("box_rows", "box_cols", "cells", "symbols", "constraints")
_KNOWN = tuple(f.name for f in dataclasses.fields(Grid)) == _FIELDS


def trusted_grid(
    rows: int,
    cols: int,
    cells: tuple[int, ...],
    symbols: str = "",
    constraints: tuple[Constraint, ...] = (),
) -> Grid:
    """A Grid of valid cells (ints 0..N, N*N of them), built without the check;
    `constraints` must be a grid's already settled ones for this shape."""
    symbols = symbols or default_symbols(rows * cols)
    if not _KNOWN:
        return Grid(rows, cols, cells, symbols, constraints)
    grid = object.__new__(Grid)
    for name, value in zip(_FIELDS, (rows, cols, cells, symbols, constraints), strict=True):
        object.__setattr__(grid, name, value)
    return grid


def with_cells(grid: Grid, cells: list[int] | tuple[int, ...]) -> Grid:
    """`grid.replace(cells)` for cells known to be valid for its shape."""
    return trusted_grid(grid.box_rows, grid.box_cols, tuple(cells), grid.symbols, grid.constraints)
