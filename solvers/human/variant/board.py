"""A variant puzzle's geometry as the engine reads it: houses, peers, cages and neighbour rules.

A *house* is a group of N cells holding every digit once: rows, columns,
boxes (or the jigsaw regions instead), the diagonals, disjoint groups and
extra regions or killer cages of N cells.  Every other all-different group
(a smaller cage or extra region) and the anti-knight and anti-king rules only
make *peers*: cells that cannot hold the same digit.  Houses come first in the
classic order (rows, columns, boxes or regions: the ``3N`` units of
`solvers.grid.Shape`), so a step on a row or a box names it as a classic step
does; the rest follow, named by `HouseShape.unit_name`.

>>> from solvers.grid import Grid
>>> from solvers.variants import Diagonal
>>> board = Board.of(Grid.parse("." * 81).with_constraints((Diagonal("main"),)))
>>> len(board.houses), board.shape.unit_name(27), 80 in board.peers[0]
(28, 'main diagonal', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from solvers.grid import Grid, Shape
from solvers.variants import (
    AntiKing,
    AntiKnight,
    Diagonal,
    DisjointGroups,
    ExtraRegion,
    Killer,
    NonConsecutive,
    Parity,
    houses,
)
from solvers.variants.constraints import disjoint_groups

KINDS = frozenset(
    {
        "jigsaw",
        "diagonal",
        "extra-region",
        "disjoint-groups",
        "anti-knight",
        "anti-king",
        "non-consecutive",
        "parity",
        "killer",
    }
)
"""The constraint kinds the engine takes."""


@dataclass(frozen=True)
class HouseShape(Shape):
    """A `Shape` whose unit names cover a puzzle's own houses (``house_names[u]``), so the
    explanations of steps on a jigsaw region or a diagonal name it rightly."""

    house_names: tuple[str, ...] = field(default=(), compare=False)

    def unit_name(self, unit: int) -> str:
        return self.house_names[unit]


@dataclass(frozen=True)
class Cage:
    """A killer cage: its cells and their sum (None: different digits, sum not given)."""

    cells: tuple[int, ...]
    total: int | None
    name: str


@dataclass
class Board:
    """The rules of one variant puzzle, read once: see the module docstring."""

    grid: Grid
    houses: tuple[tuple[int, ...], ...]
    groups: tuple[tuple[int, ...], ...]  # every all-different group (houses first), named by
    # ``shape.unit_name(index)``
    peers: tuple[frozenset[int], ...]
    cages: tuple[Cage, ...]
    neighbours: tuple[tuple[int, ...], ...]  # orthogonal neighbours under non-consecutive
    start: tuple[int, ...]  # each cell's first candidates (parity)
    shape: HouseShape

    @classmethod
    def of(cls, grid: Grid) -> Board:
        """The board of a puzzle; ValueError for a constraint kind outside `KINDS`."""
        other = sorted({c.kind for c in grid.constraints} - KINDS)
        if other:
            raise ValueError(f"the human engine does not take {', '.join(other)} constraints")
        n = grid.size
        names = [grid.shape.unit_name(u) for u in range(2 * n)]
        found = list(houses(grid))
        regions = "region" if any(c.kind == "jigsaw" for c in grid.constraints) else "box"
        names += [f"{regions} {i + 1}" for i in range(n)]
        groups: list[tuple[int, ...]] = []
        group_names: list[str] = []
        pairs: set[frozenset[int]] = set()
        cages: list[Cage] = []
        neighbours: list[list[int]] = [[] for _ in range(n * n)]
        full = (1 << n) - 1
        odd = sum(1 << (d - 1) for d in range(1, n + 1, 2))
        start = [full] * (n * n)
        for c in grid.constraints:
            if isinstance(c, Diagonal):
                found.append(c.cells_on(n))
                names.append(c.describe(n))
            elif isinstance(c, DisjointGroups):
                for i, group in enumerate(disjoint_groups(grid.shape)):
                    found.append(tuple(sorted(group)))
                    names.append(f"disjoint group {i + 1}")
            elif isinstance(c, ExtraRegion | Killer):
                cells = tuple(sorted(c.cells))
                if isinstance(c, Killer):
                    cages.append(Cage(cells, c.total, c.describe(n)))
                if len(cells) == n:
                    found.append(cells)
                    names.append(c.describe(n))
                else:
                    groups.append(cells)
                    group_names.append(c.describe(n))
            elif isinstance(c, AntiKnight | AntiKing):
                pairs |= c.ties(grid.shape)
            elif isinstance(c, NonConsecutive):
                for pair in c.ties(grid.shape):
                    a, b = sorted(pair)
                    neighbours[a].append(b)
                    neighbours[b].append(a)
            elif isinstance(c, Parity):
                start[c.cell] &= odd if c.parity == "odd" else full & ~odd
        peer_sets: list[set[int]] = [set() for _ in range(n * n)]
        for group in (*found, *groups):
            for a in group:
                peer_sets[a].update(group)
        for pair in pairs:
            a, b = tuple(pair)
            peer_sets[a].add(b)
            peer_sets[b].add(a)
        for cell, ps in enumerate(peer_sets):
            ps.discard(cell)
        shape = HouseShape(grid.box_rows, grid.box_cols, (*names, *group_names))
        return cls(
            grid,
            tuple(found),
            (*found, *groups),
            tuple(frozenset(ps) for ps in peer_sets),
            tuple(cages),
            tuple(tuple(sorted(ns)) for ns in neighbours),
            tuple(start),
            shape,
        )

    @property
    def size(self) -> int:
        return self.grid.size

    @cached_property
    def cell_houses(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the houses holding it."""
        found: list[list[int]] = [[] for _ in range(self.size**2)]
        for u, cells in enumerate(self.houses):
            for c in cells:
                found[c].append(u)
        return tuple(tuple(us) for us in found)

    @cached_property
    def house_bits(self) -> tuple[int, ...]:
        """Each house as a bitmask of cells (bit ``c`` for cell ``c``)."""
        return tuple(sum(1 << c for c in cells) for cells in self.houses)

    @cached_property
    def peer_bits(self) -> tuple[int, ...]:
        """Each cell's peers as a bitmask of cells."""
        return tuple(sum(1 << p for p in ps) for ps in self.peers)

    @cached_property
    def kinds(self) -> tuple[str, ...]:
        """Each house's kind: ``line`` (row or column), ``box`` (a box or jigsaw region) or
        ``extra``."""
        n = self.size
        return tuple(
            "line" if u < 2 * n else "box" if u < 3 * n else "extra"
            for u in range(len(self.houses))
        )

    def kind_of(self, unit: int) -> str:
        return self.kinds[unit]
