"""Building `Grid`s from cells already known to be valid, without re-checking them.

`Grid.__post_init__` validates every cell; readers and the generator build
millions of grids from cells they have just checked (a lookup table, a
solution with clues removed), and the re-check is most of their run time.
These helpers build them with `Grid.trusted`, which skips it.

>>> trusted_grid(2, 2, (1, 2, 3, 4) * 4, "1234") == Grid(2, 2, (1, 2, 3, 4) * 4)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solvers.grid import Grid

if TYPE_CHECKING:
    from solvers.variants import Constraint


def trusted_grid(
    rows: int,
    cols: int,
    cells: tuple[int, ...],
    symbols: str = "",
    constraints: tuple[Constraint, ...] = (),
) -> Grid:
    """A Grid of valid cells (ints 0..N, N*N of them), built without the check;
    `constraints` must be a grid's already settled ones for this shape."""
    return Grid.trusted(rows, cols, cells, symbols, constraints)


def with_cells(grid: Grid, cells: list[int] | tuple[int, ...]) -> Grid:
    """`grid.replace(cells)` for cells known to be valid for its shape."""
    return Grid.trusted(grid.box_rows, grid.box_cols, tuple(cells), grid.symbols, grid.constraints)
