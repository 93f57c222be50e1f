"""A grid's constraints taken together: checked, put in canonical order, and read.

A puzzle is a `Grid` whose ``constraints`` tuple lists its rules beyond rows,
columns and boxes (see `Grid`).  `settle` is what the grid runs on that tuple
when it is built: every constraint validated against the shape, the rules
between constraints checked (one jigsaw at most, one dot per pair), duplicates
dropped and the rest sorted, so equal puzzles are equal values whatever order
their constraints came in.  The other functions answer what solvers ask of a
puzzle: its houses (rows, columns and boxes, or the jigsaw regions instead of
boxes), its extra all-different groups, its constraint kinds.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from solvers.grid import Shape
from solvers.variants.constraints import (
    KINDS,
    XV,
    Constraint,
    ConstraintError,
    Diagonal,
    DisjointGroups,
    ExtraRegion,
    Jigsaw,
    Killer,
    Kropki,
    cell_names,
    disjoint_groups,
    fields_of,
)

if TYPE_CHECKING:
    from solvers.grid import Grid

KIND_ORDER = {kind: i for i, kind in enumerate(KINDS)}


def settle(constraints: Iterable[Constraint], shape: Shape) -> tuple[Constraint, ...]:
    """The constraints validated for `shape`, without duplicates, in canonical order."""
    found = []
    for constraint in constraints:
        if not isinstance(constraint, Constraint):
            raise TypeError(
                f"a grid's constraints are Constraint values, not {type(constraint).__name__}"
            )
        constraint.validate(shape)
        found.append(constraint)
    settled = tuple(sorted(set(found), key=sort_key))
    _check_together(settled, shape)
    return settled


def sort_key(constraint: Constraint) -> tuple[Any, ...]:
    """The canonical order: by kind (as `KINDS` lists them), then by their fields."""
    values = tuple(_sortable(getattr(constraint, f.name)) for f in fields_of(type(constraint)))
    return (KIND_ORDER[constraint.kind], values)


def _sortable(value: Any) -> Any:
    if value is None:
        return (0,)
    if isinstance(value, tuple):
        return (1, tuple(_sortable(v) for v in value))
    return (1, value)


def _check_together(constraints: tuple[Constraint, ...], shape: Shape) -> None:
    """The rules between constraints: what no single one can check alone."""
    n = shape.size
    jigsaws = [c for c in constraints if isinstance(c, Jigsaw)]
    if len(jigsaws) > 1:
        raise ConstraintError("a puzzle has one set of jigsaw regions, not several")
    if jigsaws and any(isinstance(c, DisjointGroups) for c in constraints):
        raise ConstraintError("disjoint groups are positions within boxes: a jigsaw has none")
    for kind in (Kropki, XV):
        seen: set[tuple[int, ...]] = set()
        for c in constraints:
            if isinstance(c, kind):
                if c.cells in seen:
                    raise ConstraintError(
                        f"two {c.title}s between {cell_names(c.cells, n)}: one per pair"
                    )
                seen.add(c.cells)


def kinds(grid: Grid) -> frozenset[str]:
    """The constraint kinds a puzzle uses (empty for classic Sudoku)."""
    return frozenset(c.kind for c in grid.constraints)


def jigsaw(grid: Grid) -> Jigsaw | None:
    """The puzzle's jigsaw regions, if it has some."""
    return next((c for c in grid.constraints if isinstance(c, Jigsaw)), None)


def houses(grid: Grid) -> tuple[tuple[int, ...], ...]:
    """Rows, columns, then boxes, or the jigsaw regions when the puzzle has them:
    the 3N groups that hold every digit once."""
    units = grid.shape.units
    regions = jigsaw(grid)
    if regions is None:
        return units
    return units[: 2 * grid.size] + regions.regions


def distinct_groups(grid: Grid) -> list[tuple[str, tuple[int, ...]]]:
    """The extra groups whose digits differ, named: extra regions, diagonals,
    disjoint groups and killer cages."""
    n = grid.size
    found: list[tuple[str, tuple[int, ...]]] = []
    for c in grid.constraints:
        if isinstance(c, ExtraRegion | Killer):
            found.append((c.describe(n), c.cells))
        elif isinstance(c, Diagonal):
            found.append((c.describe(n), c.cells_on(n)))
        elif isinstance(c, DisjointGroups):
            groups = disjoint_groups(grid.shape)
            found += [(f"disjoint group {i + 1}", group) for i, group in enumerate(groups)]
    return found
