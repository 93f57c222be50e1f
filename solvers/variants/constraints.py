"""The constraint kinds a puzzle may carry beyond the classic rules, as immutable values.

A *constraint* is one typed fact about a grid: a killer cage and its sum, a
thermometer, a Kropki dot, "no two cells a knight's move apart hold the same
digit".  Cells are indices in reading order, as everywhere in the project
(``r1c1`` is 0, ``r2c1`` is N).  Each kind is a frozen, hashable dataclass that
normalises and checks itself when built (cells distinct, sums positive, a
region set without overlaps), and `Constraint.validate` checks what depends on
the grid (cells inside it, region sizes, sums its digits can reach), so a
`Grid` never holds a constraint it cannot mean.  Bad constraints raise
`ConstraintError` with a message naming the constraint.

>>> shape = Shape(3, 3)
>>> Killer((0, 1), 17).validate(shape)
>>> Killer((0, 1), 18).validate(shape)
Traceback (most recent call last):
...
solvers.variants.constraints.ConstraintError: killer cage r1c1 r1c2 (sum 18): 2 distinct
digits 1..9 sum to 3..17, never 18
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from solvers.grid import Shape

Cells = tuple[int, ...]
Pair = frozenset[int]

KNIGHT = ((1, 2), (2, 1), (1, -2), (2, -1))
KING = ((0, 1), (1, 0), (1, 1), (1, -1))
ORTHOGONAL = ((0, 1), (1, 0))
DIAGONAL_STEPS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


class ConstraintError(ValueError):
    """A constraint no grid of this shape can carry, or one built from bad values."""


# -- geometry ----------------------------------------------------------------------
def cell_names(cells: Iterable[int], size: int) -> str:
    """``r1c1 r1c2`` for cells of a grid of side `size`."""
    return " ".join(f"r{c // size + 1}c{c % size + 1}" for c in cells)


@cache
def pairs(size: int, steps: tuple[tuple[int, int], ...]) -> frozenset[Pair]:
    """Every unordered pair of cells of a side-`size` grid one of `steps` apart."""
    found = set()
    for r in range(size):
        for c in range(size):
            for dr, dc in steps:
                rr, cc = r + dr, c + dc
                if 0 <= rr < size and 0 <= cc < size:
                    found.add(frozenset((r * size + c, rr * size + cc)))
    return frozenset(found)


def adjacent(a: int, b: int, size: int, *, diagonal: bool = False) -> bool:
    """Whether two cells touch along an edge (or at a corner too, with `diagonal`)."""
    dr, dc = abs(a // size - b // size), abs(a % size - b % size)
    return max(dr, dc) == 1 if diagonal else dr + dc == 1


def _cells(value: Any, what: str, *, ordered: bool = True) -> Cells:
    """Cells as a tuple of distinct non-negative ints (sorted unless `ordered`)."""
    try:
        cells = tuple(value)
    except TypeError:
        raise ConstraintError(f"{what}: cells must be a list of cell indices") from None
    if not cells:
        raise ConstraintError(f"{what}: no cells")
    if not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in cells):
        raise ConstraintError(f"{what}: cells must be non-negative integers, not {cells!r}")
    if len(set(cells)) != len(cells):
        twice = next(c for c in cells if cells.count(c) > 1)
        raise ConstraintError(f"{what}: cell {twice} is listed twice")
    return cells if ordered else tuple(sorted(cells))


def _integer(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ConstraintError(f"{what}: expected an integer, not {value!r}")
    return value


def _choice(value: Any, choices: tuple[str, ...], what: str) -> str:
    if value not in choices:
        raise ConstraintError(f"{what}: expected one of {', '.join(choices)}, not {value!r}")
    return str(value)


# -- the base class ----------------------------------------------------------------
class Constraint:
    """One rule of a puzzle beyond rows, columns and boxes.

    Subclasses are frozen dataclasses.  ``cell_fields`` names the fields that
    hold cells (a tuple of cells, or ``cell`` for one), so moving a constraint
    with the grid (`mapped`) and writing it (`solvers.variants.canonical`) are
    one generic mechanism.  A rule about the whole grid (anti-knight) has no
    cell fields and instead says which pairs or groups of cells it ties
    (`ties`); it survives a cell permutation only when that maps its ties onto
    themselves.
    """

    kind: ClassVar[str]
    title: ClassVar[str]  # how a message names it: "killer cage"
    cell_fields: ClassVar[tuple[str, ...]] = ()

    @property
    def relabels(self) -> bool:
        """True when any relabelling of the digits maps a solution to a solution."""
        return False

    def footprint(self) -> Cells:
        """Every cell the constraint names (empty for a rule about the whole grid)."""
        found: list[int] = []
        for name in self.cell_fields:
            value = getattr(self, name)
            found.extend((value,) if isinstance(value, int) else _flatten(value))
        return tuple(found)

    def describe(self, size: int) -> str:
        """The constraint named for a message: ``killer cage r1c1 r1c2 (sum 15)``."""
        return f"{self.title} {cell_names(self.footprint(), size)}".strip()

    def validate(self, shape: Shape) -> None:
        """Raise `ConstraintError` unless the constraint means something on this grid."""
        outside = [c for c in self.footprint() if c >= shape.ncells]
        if outside:
            raise ConstraintError(
                f"{self.describe(shape.size)}: cell {cell_names(outside[:1], shape.size)} is "
                f"outside the {shape.size}x{shape.size} grid"
            )
        problem = self.misfit(shape)
        if problem:
            raise ConstraintError(f"{self.describe(shape.size)}: {problem}")

    def misfit(self, shape: Shape) -> str:
        """Why the constraint cannot hold on this grid ('' when it can); cells are inside."""
        return ""

    def ties(self, shape: Shape) -> frozenset[frozenset[int]]:
        """The cell groups a whole-grid rule relates (empty for a rule with cells)."""
        return frozenset()

    def mapped(self, move: Callable[[int], int], before: Shape, after: Shape) -> Constraint:
        """The constraint after the grid's cells move (cell ``c`` goes to ``move(c)``).

        Raises `ConstraintError` when the move breaks the constraint's geometry
        (an anti-knight rule under a row swap, a thermometer torn apart).
        """
        if not self.cell_fields:
            moved = frozenset(frozenset(map(move, tie)) for tie in self.ties(before))
            if moved != self.ties(after):
                raise ConstraintError(f"{self.describe(before.size)} does not survive this move")
            return self
        changes = {}
        for name in self.cell_fields:
            value = getattr(self, name)
            changes[name] = move(value) if isinstance(value, int) else _move(value, move)
        result = dataclasses.replace(self, **changes)  # type: ignore[type-var]
        result.validate(after)
        return result


def _flatten(value: tuple[Any, ...]) -> list[int]:
    return [c for part in value for c in (_flatten(part) if isinstance(part, tuple) else (part,))]


def _move(value: tuple[Any, ...], move: Callable[[int], int]) -> tuple[Any, ...]:
    return tuple(_move(part, move) if isinstance(part, tuple) else move(part) for part in value)


# -- region rules ------------------------------------------------------------------
@dataclass(frozen=True)
class Jigsaw(Constraint):
    """Irregular regions replacing the boxes: N regions of N cells covering the grid,
    each holding every digit once.  The grid's box shape is then ignored."""

    regions: tuple[Cells, ...]
    kind: ClassVar[str] = "jigsaw"
    title: ClassVar[str] = "jigsaw regions"
    cell_fields: ClassVar[tuple[str, ...]] = ("regions",)

    def __post_init__(self) -> None:
        try:
            regions = [
                _cells(r, f"jigsaw region {i + 1}", ordered=False)
                for i, r in enumerate(self.regions)
            ]
        except TypeError:
            raise ConstraintError("jigsaw regions: expected a list of regions") from None
        object.__setattr__(self, "regions", tuple(sorted(regions)))

    @property
    def relabels(self) -> bool:
        return True

    def describe(self, size: int) -> str:
        return f"jigsaw ({len(self.regions)} regions)"

    def misfit(self, shape: Shape) -> str:
        n = shape.size
        seen: set[int] = set()
        for region in self.regions:
            twice = seen.intersection(region)
            if twice:
                return f"regions overlap: {cell_names(sorted(twice)[:1], n)} is in two regions"
            seen.update(region)
        if len(self.regions) != n:
            return f"a {n}x{n} grid has {n} regions, not {len(self.regions)}"
        for region in self.regions:
            if len(region) != n:
                return f"region {cell_names(region[:1], n)}... has {len(region)} cells, not {n}"
        return ""


@dataclass(frozen=True)
class ExtraRegion(Constraint):
    """Extra cells that hold different digits (all N digits when N cells): windoku windows."""

    cells: Cells
    kind: ClassVar[str] = "extra-region"
    title: ClassVar[str] = "extra region"
    cell_fields: ClassVar[tuple[str, ...]] = ("cells",)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", _cells(self.cells, self.title, ordered=False))

    @property
    def relabels(self) -> bool:
        return True

    def misfit(self, shape: Shape) -> str:
        if not 2 <= len(self.cells) <= shape.size:
            return f"a region holds 2 to {shape.size} cells, not {len(self.cells)}"
        return ""


@dataclass(frozen=True)
class DisjointGroups(Constraint):
    """Cells in the same position of their boxes hold different digits."""

    kind: ClassVar[str] = "disjoint-groups"
    title: ClassVar[str] = "disjoint groups"

    @property
    def relabels(self) -> bool:
        return True

    def ties(self, shape: Shape) -> frozenset[frozenset[int]]:
        return frozenset(frozenset(g) for g in disjoint_groups(shape))


def disjoint_groups(shape: Shape) -> list[Cells]:
    """The N groups of cells sharing a position within their box."""
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    return [
        tuple(r * n + c for r in range(n) for c in range(n) if (r % br, c % bc) == (i, j))
        for i in range(br)
        for j in range(bc)
    ]


@dataclass(frozen=True)
class Diagonal(Constraint):
    """A main diagonal holds every digit once: ``main`` runs r1c1 to rNcN, ``anti``
    rNc1 to r1cN."""

    direction: str = "main"
    kind: ClassVar[str] = "diagonal"
    title: ClassVar[str] = "diagonal"

    def __post_init__(self) -> None:
        _choice(self.direction, ("main", "anti"), "diagonal direction")

    @property
    def relabels(self) -> bool:
        return True

    def describe(self, size: int) -> str:
        return f"{self.direction} diagonal"

    def cells_on(self, size: int) -> Cells:
        if self.direction == "main":
            return tuple(r * size + r for r in range(size))
        return tuple(r * size + size - 1 - r for r in range(size))

    def mapped(self, move: Callable[[int], int], before: Shape, after: Shape) -> Constraint:
        moved = frozenset(map(move, self.cells_on(before.size)))
        for direction in ("main", "anti"):
            if moved == frozenset(Diagonal(direction).cells_on(after.size)):
                return Diagonal(direction)
        raise ConstraintError(f"{self.describe(before.size)} does not survive this move")


# -- neighbour rules ---------------------------------------------------------------
@dataclass(frozen=True)
class AntiKnight(Constraint):
    """Cells a knight's move apart hold different digits."""

    kind: ClassVar[str] = "anti-knight"
    title: ClassVar[str] = "anti-knight"

    @property
    def relabels(self) -> bool:
        return True

    def ties(self, shape: Shape) -> frozenset[frozenset[int]]:
        return pairs(shape.size, KNIGHT)


@dataclass(frozen=True)
class AntiKing(Constraint):
    """Cells a king's move apart (diagonal neighbours included) hold different digits."""

    kind: ClassVar[str] = "anti-king"
    title: ClassVar[str] = "anti-king"

    @property
    def relabels(self) -> bool:
        return True

    def ties(self, shape: Shape) -> frozenset[frozenset[int]]:
        return pairs(shape.size, KING)


@dataclass(frozen=True)
class NonConsecutive(Constraint):
    """Orthogonal neighbours never differ by 1."""

    kind: ClassVar[str] = "non-consecutive"
    title: ClassVar[str] = "non-consecutive"

    def ties(self, shape: Shape) -> frozenset[frozenset[int]]:
        return pairs(shape.size, ORTHOGONAL)


# -- arithmetic and order ----------------------------------------------------------
@dataclass(frozen=True)
class Killer(Constraint):
    """A cage: its digits are all different and, when `total` is set, sum to it."""

    cells: Cells
    total: int | None = None
    kind: ClassVar[str] = "killer"
    title: ClassVar[str] = "killer cage"
    cell_fields: ClassVar[tuple[str, ...]] = ("cells",)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", _cells(self.cells, self.title, ordered=False))
        if self.total is not None:
            _integer(self.total, f"{self.title} sum")

    @property
    def relabels(self) -> bool:
        return self.total is None

    def describe(self, size: int) -> str:
        total = "" if self.total is None else f" (sum {self.total})"
        return f"{self.title} {cell_names(self.cells, size)}{total}"

    def misfit(self, shape: Shape) -> str:
        n, k = shape.size, len(self.cells)
        if k > n:
            return f"{k} cells cannot hold different digits 1..{n}"
        low, high = k * (k + 1) // 2, k * (2 * n - k + 1) // 2
        if self.total is not None and not low <= self.total <= high:
            return f"{k} distinct digits 1..{n} sum to {low}..{high}, never {self.total}"
        return ""


@dataclass(frozen=True)
class LittleKiller(Constraint):
    """A diagonal from one edge of the grid to another, its digits (repeats allowed)
    summing to `total`; `cells` run away from the clue outside the grid."""

    cells: Cells
    total: int
    kind: ClassVar[str] = "little-killer"
    title: ClassVar[str] = "little killer"
    cell_fields: ClassVar[tuple[str, ...]] = ("cells",)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", _cells(self.cells, self.title))
        _integer(self.total, f"{self.title} sum")

    def describe(self, size: int) -> str:
        return f"{self.title} {cell_names(self.cells, size)} (sum {self.total})"

    def step(self, size: int) -> tuple[int, int]:
        """The (row, column) step along the diagonal, from the clue inwards."""
        if len(self.cells) == 1:  # a corner cell: the diagonal that leaves the grid both ways
            r, c = divmod(self.cells[0], size)
            for dr, dc in DIAGONAL_STEPS:
                if not any(0 <= r + s * dr < size and 0 <= c + s * dc < size for s in (-1, 1)):
                    return dr, dc
            return 1, 1
        (r0, c0), (r1, c1) = divmod(self.cells[0], size), divmod(self.cells[1], size)
        return r1 - r0, c1 - c0

    def misfit(self, shape: Shape) -> str:
        n, k = shape.size, len(self.cells)
        dr, dc = self.step(n)
        if (dr, dc) not in DIAGONAL_STEPS:
            return "its cells are not on one diagonal"
        for a, b in zip(self.cells, self.cells[1:], strict=False):
            if (b // n - a // n, b % n - a % n) != (dr, dc):
                return "its cells are not consecutive along one diagonal"
        for cell, sign in ((self.cells[0], -1), (self.cells[-1], 1)):
            r, c = cell // n + sign * dr, cell % n + sign * dc
            if 0 <= r < n and 0 <= c < n:
                return "the diagonal must run from one edge of the grid to another"
        if not k <= self.total <= k * n:
            return f"{k} digits 1..{n} sum to {k}..{k * n}, never {self.total}"
        return ""


@dataclass(frozen=True)
class Thermometer(Constraint):
    """Digits strictly increase from the bulb (the first cell) along the path."""

    cells: Cells
    kind: ClassVar[str] = "thermometer"
    title: ClassVar[str] = "thermometer"
    cell_fields: ClassVar[tuple[str, ...]] = ("cells",)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", _cells(self.cells, self.title))
        if len(self.cells) < 2:
            raise ConstraintError(f"{self.title}: a thermometer has at least 2 cells")

    def misfit(self, shape: Shape) -> str:
        n = shape.size
        if len(self.cells) > n:
            return f"{len(self.cells)} cells cannot strictly increase within 1..{n}"
        return _path_problem(self.cells, n)


def _path_problem(cells: Cells, size: int) -> str:
    for a, b in zip(cells, cells[1:], strict=False):
        if not adjacent(a, b, size, diagonal=True):
            return f"{cell_names((a, b), size)} do not touch: the path is broken"
    return ""


@dataclass(frozen=True)
class Arrow(Constraint):
    """The circle equals the sum of the digits along the arrow (repeats allowed).

    A circle of several cells (a pill) reads as a decimal number, in the order
    given (grids up to 9x9).
    """

    circle: Cells
    path: Cells
    kind: ClassVar[str] = "arrow"
    title: ClassVar[str] = "arrow"
    cell_fields: ClassVar[tuple[str, ...]] = ("circle", "path")

    def __post_init__(self) -> None:
        object.__setattr__(self, "circle", _cells(self.circle, f"{self.title} circle"))
        object.__setattr__(self, "path", _cells(self.path, f"{self.title} path"))
        if set(self.circle) & set(self.path):
            raise ConstraintError(f"{self.title}: a cell is both in the circle and on the path")

    def describe(self, size: int) -> str:
        return f"{self.title} {cell_names(self.circle, size)} <- {cell_names(self.path, size)}"

    def misfit(self, shape: Shape) -> str:
        n, m, k = shape.size, len(self.circle), len(self.path)
        if m > 1 and n > 9:
            return f"a circle of {m} cells reads as a decimal number: grids up to 9x9 only"
        broken = _path_problem(self.circle, n) or _path_problem(self.path, n)
        if broken:
            return broken
        if not any(adjacent(c, self.path[0], n, diagonal=True) for c in self.circle):
            return "the arrow does not start next to its circle"
        high = n if m == 1 else int(str(n) * m)
        if k > high:
            return f"{k} cells sum to at least {k}, more than the circle's {high}"
        return ""


@dataclass(frozen=True)
class Kropki(Constraint):
    """A dot between orthogonal neighbours: ``white``, digits differ by `value` (1 unless
    given); ``black``, one is `value` (2 unless given) times the other."""

    cells: Cells
    colour: str = "white"
    value: int | None = None
    kind: ClassVar[str] = "kropki"
    title: ClassVar[str] = "kropki dot"
    cell_fields: ClassVar[tuple[str, ...]] = ("cells",)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", _cells(self.cells, self.title, ordered=False))
        _choice(self.colour, ("white", "black"), f"{self.title} colour")
        default = 1 if self.colour == "white" else 2
        value = default if self.value is None else _integer(self.value, f"{self.title} value")
        object.__setattr__(self, "value", value)
        if len(self.cells) != 2:
            raise ConstraintError(f"{self.title}: a dot joins 2 cells, not {len(self.cells)}")

    def describe(self, size: int) -> str:
        return f"{self.colour} {self.title} {cell_names(self.cells, size)} ({self.value})"

    def misfit(self, shape: Shape) -> str:
        n = shape.size
        if not adjacent(self.cells[0], self.cells[1], n):
            return "the cells are not orthogonal neighbours"
        value = self.value or 0
        if self.colour == "white" and not 1 <= value <= n - 1:
            return f"digits 1..{n} differ by 1..{n - 1}, never {value}"
        if self.colour == "black" and not 2 <= value <= n:
            return f"no two digits 1..{n} have the ratio {value}"
        return ""


@dataclass(frozen=True)
class KropkiNegative(Constraint):
    """Every dot of a colour is given: orthogonal neighbours with no dot between them
    are not consecutive (``white``) or not in ratio 2 (``black``)."""

    colour: str = "white"
    kind: ClassVar[str] = "kropki-negative"
    title: ClassVar[str] = "all kropki dots given"

    def __post_init__(self) -> None:
        _choice(self.colour, ("white", "black"), f"{self.title} colour")

    def describe(self, size: int) -> str:
        return f"all {self.colour} kropki dots given"

    def ties(self, shape: Shape) -> frozenset[frozenset[int]]:
        return pairs(shape.size, ORTHOGONAL)


@dataclass(frozen=True)
class XV(Constraint):
    """An X (sum 10) or a V (sum 5) between orthogonal neighbours."""

    cells: Cells
    total: int
    kind: ClassVar[str] = "xv"
    title: ClassVar[str] = "XV"
    cell_fields: ClassVar[tuple[str, ...]] = ("cells",)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", _cells(self.cells, self.title, ordered=False))
        if self.total not in (5, 10):
            raise ConstraintError(f"{self.title}: the sum is 5 (V) or 10 (X), not {self.total!r}")
        if len(self.cells) != 2:
            raise ConstraintError(f"{self.title}: a sign joins 2 cells, not {len(self.cells)}")

    def describe(self, size: int) -> str:
        return f"{'X' if self.total == 10 else 'V'} {cell_names(self.cells, size)}"

    def misfit(self, shape: Shape) -> str:
        if not adjacent(self.cells[0], self.cells[1], shape.size):
            return "the cells are not orthogonal neighbours"
        if self.total > 2 * shape.size - 1:
            return f"two digits 1..{shape.size} never sum to {self.total}"
        return ""


@dataclass(frozen=True)
class XVNegative(Constraint):
    """Every X and V is given: orthogonal neighbours with no sign sum to neither 5 nor 10."""

    kind: ClassVar[str] = "xv-negative"
    title: ClassVar[str] = "all XV signs given"

    def ties(self, shape: Shape) -> frozenset[frozenset[int]]:
        return pairs(shape.size, ORTHOGONAL)


@dataclass(frozen=True)
class Parity(Constraint):
    """The cell holds an odd or an even digit."""

    cell: int
    parity: str = "odd"
    kind: ClassVar[str] = "parity"
    title: ClassVar[str] = "parity"
    cell_fields: ClassVar[tuple[str, ...]] = ("cell",)

    def __post_init__(self) -> None:
        _cells((self.cell,), self.title)
        _choice(self.parity, ("odd", "even"), f"{self.title} of cell {self.cell}")

    def describe(self, size: int) -> str:
        return f"{self.parity} cell {cell_names((self.cell,), size)}"


@dataclass(frozen=True)
class GreaterThan(Constraint):
    """An inequality sign between orthogonal neighbours: ``cells[0] > cells[1]``."""

    cells: Cells
    kind: ClassVar[str] = "greater-than"
    title: ClassVar[str] = "greater-than sign"
    cell_fields: ClassVar[tuple[str, ...]] = ("cells",)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", _cells(self.cells, self.title))
        if len(self.cells) != 2:
            raise ConstraintError(f"{self.title}: a sign joins 2 cells, not {len(self.cells)}")

    def describe(self, size: int) -> str:
        greater, smaller = cell_names(self.cells, size).split()
        return f"{self.title} {greater} > {smaller}"

    def misfit(self, shape: Shape) -> str:
        if adjacent(self.cells[0], self.cells[1], shape.size):
            return ""
        return "the cells are not orthogonal neighbours"


@dataclass(frozen=True)
class Sandwich(Constraint):
    """The digits between the 1 and the N of a row or column sum to `total`."""

    cells: Cells
    total: int
    kind: ClassVar[str] = "sandwich"
    title: ClassVar[str] = "sandwich"
    cell_fields: ClassVar[tuple[str, ...]] = ("cells",)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", _cells(self.cells, self.title, ordered=False))
        _integer(self.total, f"{self.title} sum")

    def describe(self, size: int) -> str:
        line = self.line(size)
        return f"{self.title} {line or cell_names(self.cells, size)} (sum {self.total})"

    def line(self, size: int) -> str:
        """``row 3`` or ``column 5`` when the cells are one, else ''."""
        rows, cols = {c // size for c in self.cells}, {c % size for c in self.cells}
        if len(self.cells) == size and len(rows) == 1:
            return f"row {rows.pop() + 1}"
        if len(self.cells) == size and len(cols) == 1:
            return f"column {cols.pop() + 1}"
        return ""

    def misfit(self, shape: Shape) -> str:
        n = shape.size
        if not self.line(n):
            return "the cells are not one whole row or column"
        if self.total not in sandwich_sums(n):
            return f"no digits strictly between 1 and {n} sum to {self.total}"
        return ""


@cache
def sandwich_sums(size: int) -> frozenset[int]:
    """Every sum a set of digits 2..N-1 can make (0 for the empty set)."""
    sums = {0}
    for digit in range(2, size):
        sums |= {s + digit for s in sums}
    return frozenset(sums)


# -- the catalogue ---------------------------------------------------------------------
KINDS: dict[str, type[Constraint]] = {
    cls.kind: cls
    for cls in (
        Jigsaw,
        ExtraRegion,
        DisjointGroups,
        Diagonal,
        AntiKnight,
        AntiKing,
        NonConsecutive,
        Killer,
        LittleKiller,
        Thermometer,
        Arrow,
        Kropki,
        KropkiNegative,
        XV,
        XVNegative,
        Parity,
        GreaterThan,
        Sandwich,
    )
}
"""Every constraint kind by name, in the canonical order puzzles list them."""


def fields_of(cls: type[Constraint]) -> tuple[dataclasses.Field[Any], ...]:
    """The data fields of a kind (what its canonical form writes)."""
    return tuple(f for f in dataclasses.fields(cls) if f.init)  # type: ignore[arg-type]


__all__ = [
    "KINDS",
    "Arrow",
    "Cells",
    "Constraint",
    "ConstraintError",
    "Diagonal",
    "DisjointGroups",
    "ExtraRegion",
    "GreaterThan",
    "Jigsaw",
    "Killer",
    "Kropki",
    "KropkiNegative",
    "LittleKiller",
    "NonConsecutive",
    "Parity",
    "Sandwich",
    "Thermometer",
    "XV",
    "XVNegative",
    "AntiKing",
    "AntiKnight",
]
