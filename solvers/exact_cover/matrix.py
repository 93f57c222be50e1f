"""A puzzle as an exact-cover matrix: which columns each row covers, primary or secondary.

A *cell row* ``(c, d)`` places digit ``d`` in cell ``c``.  *Primary* columns
must be covered exactly once, *secondary* ones at most once (Knuth's
generalisation: the search never branches on them, it only lets a chosen row
remove the rows that share one).  Classic Sudoku has 4N^2 primary columns:
each cell holds a digit; each row, column and box holds each digit.  The
rules that Algorithm X can state exactly add columns or leave rows out:

- a jigsaw's regions take the boxes' columns;
- a group of N cells that holds every digit once (a diagonal, a disjoint
  group, an extra region or a cage without a sum of N cells) adds N primary
  columns "group g has digit d"; a smaller group adds N secondary ones;
- two cells that must differ (anti-knight, anti-king) and share no house get
  a secondary column per digit; two orthogonal neighbours under the
  non-consecutive rule get one per pair of consecutive digits ``{d, d+1}``,
  holding ``(a, d), (a, d+1), (b, d), (b, d+1)``: the only new conflicts are
  ``(a, d)`` with ``(b, d+1)`` and ``(a, d+1)`` with ``(b, d)``, since the
  other pairs share a cell, a row or a column already;
- a parity cell has no rows for the digits of the wrong parity;
- a killer cage with a sum has one primary column, covered by one
  *combination row* per set of distinct digits of the cage's size with that
  sum, and a secondary column per digit ``(cage, d)`` holding the cage's cell
  rows with ``d`` and the combinations without ``d``.  Digits in no
  combination have no rows in the cage.

Why a solution then has exactly the chosen combination's digits in the cage:
the cage's primary column is covered by one combination ``S``, and the only
rows that cover it are combinations.  A cell row ``(c, d)`` of the cage
shares ``(cage, d)`` with every combination lacking ``d``, so ``d`` is in
``S``; two cells of the cage holding ``d`` would share ``(cage, d)`` too, so
the k cells hold k different digits of the k-digit set ``S``: all of it, and
the cage sums to its total.  The same column is thus the cage's "each digit
at most once" column.  Conversely a grid that keeps the rules picks the one
combination its cage holds, so solutions and exact covers match one for one
and counting solutions counts grids.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from solvers.grid import Grid
from solvers.variants import (
    AntiKing,
    AntiKnight,
    Diagonal,
    DisjointGroups,
    ExtraRegion,
    Killer,
    NonConsecutive,
    Parity,
    jigsaw,
)
from solvers.variants.constraints import disjoint_groups

KINDS = frozenset(
    {
        "jigsaw",
        "extra-region",
        "disjoint-groups",
        "diagonal",
        "anti-knight",
        "anti-king",
        "non-consecutive",
        "parity",
        "killer",
    }
)
"""The constraint kinds an exact-cover matrix states exactly."""

MAX_COMBINATIONS = 20_000
"""Most combination rows one killer cage may have (a 25x25 cage of 12 cells can have
tens of thousands); a puzzle with a bigger cage is refused."""


@dataclass(frozen=True)
class Matrix:
    """Rows by the columns they cover: columns ``0 .. primary-1`` are primary, the
    ``secondary`` ones after them are not.  ``labels`` gives each row's cell and
    digit as ``cell * N + digit - 1``, or -1 for a cage's combination row;
    ``keys`` names every column (``("cell", c)``, ``("cage", i, d)`` ...)."""

    primary: int
    secondary: int
    rows: tuple[tuple[int, ...], ...]
    labels: tuple[int, ...]
    keys: tuple[tuple[Any, ...], ...]


@cache
def combination_count(n: int, k: int, total: int) -> int:
    """How many sets of k distinct digits 1..n sum to `total` (digits up to n)."""
    if k == 0:
        return int(total == 0)
    if n < k or total <= 0:
        return 0
    return combination_count(n - 1, k, total) + combination_count(n - 1, k - 1, total - n)


def combinations(n: int, k: int, total: int, low: int = 1) -> Iterator[tuple[int, ...]]:
    """The sets of k distinct digits low..n summing to `total`, ascending."""
    if k == 0:
        if total == 0:
            yield ()
        return
    for d in range(low, n + 1):
        rest = total - d
        least = (k - 1) * (2 * d + k) // 2  # d+1 .. d+k-1
        most = (k - 1) * (2 * n - k + 2) // 2  # n-k+2 .. n
        if rest < least:
            break
        if rest <= most:
            for tail in combinations(n, k - 1, rest, d + 1):
                yield (d, *tail)


def oversized_cage(grid: Grid) -> str:
    """Why a cage of `grid` has too many combinations to write out ('' when none has)."""
    n = grid.size
    for c in grid.constraints:
        if isinstance(c, Killer) and c.total is not None:
            count = combination_count(n, len(c.cells), c.total)
            if count > MAX_COMBINATIONS:
                return (
                    f"{c.describe(n)} has {count} digit combinations, more than the "
                    f"{MAX_COMBINATIONS} rows dlx writes per cage"
                )
    return ""


def classic_rows(box_rows: int, box_cols: int) -> list[tuple[int, ...]]:
    """The 4N^2 primary columns of each cell row ``cell*N + d``: cell, row, column, box."""
    n = box_rows * box_cols
    rows: list[tuple[int, ...]] = []
    for cell in range(n * n):
        row, col = divmod(cell, n)
        box = (row // box_rows) * box_rows + col // box_cols
        for d in range(n):
            rows.append(
                (cell, n * n + row * n + d, 2 * n * n + col * n + d, 3 * n * n + box * n + d)
            )
    return rows


def build(grid: Grid) -> Matrix:
    """The exact-cover matrix of `grid`'s rules (its givens are not applied)."""
    n, nn = grid.size, grid.size * grid.size
    rows = classic_rows(grid.box_rows, grid.box_cols)
    regions = jigsaw(grid)
    if regions is not None:  # region r replaces box r in the fourth column block
        region_of = [0] * nn
        for r, cells in enumerate(regions.regions):
            for cell in cells:
                region_of[cell] = r
        rows = [
            (c, rc, cc, 3 * nn + region_of[c] * n + i % n) for i, (c, rc, cc, _) in enumerate(rows)
        ]
    keys: list[tuple[Any, ...]] = [("cell", c) for c in range(nn)]
    keys += [
        (unit, u, d) for unit in ("row", "column", "region") for u in range(n) for d in range(n)
    ]

    full: list[tuple[int, ...]] = []  # groups of N cells: every digit once
    partial: list[tuple[int, ...]] = []  # smaller groups: each digit at most once
    cages: list[Killer] = []
    apart: set[frozenset[int]] = set()  # pairs of cells holding different digits
    orthogonal: set[frozenset[int]] = set()  # pairs under the non-consecutive rule
    allowed = [list(range(n)) for _ in range(nn)]  # the digits (0-based) a cell may hold
    for rule in grid.constraints:
        if isinstance(rule, Killer) and rule.total is not None:
            cages.append(rule)
        elif isinstance(rule, ExtraRegion | Killer):
            (full if len(rule.cells) == n else partial).append(rule.cells)
        elif isinstance(rule, Diagonal):
            full.append(rule.cells_on(n))
        elif isinstance(rule, DisjointGroups):
            full += disjoint_groups(grid.shape)
        elif isinstance(rule, AntiKnight | AntiKing):
            apart |= rule.ties(grid.shape)
        elif isinstance(rule, NonConsecutive):
            orthogonal |= rule.ties(grid.shape)
        elif isinstance(rule, Parity):
            first = 0 if rule.parity == "odd" else 1  # digit 1 is index 0
            allowed[rule.cell] = [d for d in allowed[rule.cell] if d % 2 == first]

    house = [(c // n, n + c % n, 2 * n + rows[c * n][3] // n % n) for c in range(nn)]
    apart = {p for p in apart if not set(house[min(p)]) & set(house[max(p)])}
    keys += [("full", g, d) for g in range(len(full)) for d in range(n)]
    combos = [
        [tuple(d - 1 for d in s) for s in combinations(n, len(cage.cells), cage.total or 0)]
        for cage in cages
    ]
    # Columns by key after the classic and full-group ones: each cage's own column and
    # its digits' (primary), then the secondary ones as rows first name them.
    start = 4 * nn + n * len(full)
    index: dict[tuple[Any, ...], int] = {}
    for i, sets in enumerate(combos):
        index[("cage", i)] = start + len(index)
        for d in sorted(set().union(*sets)):
            index[("cage", i, d)] = start + len(index)
    primary = start + len(index)

    def column(key: tuple[Any, ...]) -> int:
        if key not in index:
            index[key] = start + len(index)
        return index[key]

    # Per cell, its columns beyond the classic four: a primary group's first column
    # (the digit is added), or the key of secondary columns (the digit is appended).
    extra: list[list[int | tuple[Any, ...]]] = [[] for _ in range(nn)]
    for g, cells in enumerate(full):
        for c in cells:
            extra[c].append(4 * nn + g * n)
    for g, cells in enumerate(partial):
        for c in cells:
            extra[c].append(("group", g))
    for i, (cage, sets) in enumerate(zip(cages, combos, strict=True)):
        used = set().union(*sets)
        for c in cage.cells:
            allowed[c] = [d for d in allowed[c] if d in used]
            extra[c].append(("cage", i))
    for pair in apart:
        a, b = sorted(pair)
        for c in pair:
            extra[c].append(("apart", a, b))
    for pair in orthogonal:
        a, b = sorted(pair)
        for c in pair:
            extra[c].append(("consecutive", a, b))

    found: list[tuple[int, ...]] = []
    labels: list[int] = []
    for c in range(nn):
        for d in allowed[c]:
            cols = list(rows[c * n + d])
            for tag in extra[c]:
                if isinstance(tag, int):
                    cols.append(tag + d)
                elif tag[0] == "consecutive":  # the pairs {d-1, d} and {d, d+1}
                    cols += [column((*tag, e)) for e in (d - 1, d) if 0 <= e < n - 1]
                else:
                    cols.append(column((*tag, d)))
            found.append(tuple(cols))
            labels.append(c * n + d)
    for i, sets in enumerate(combos):
        digits = sorted(set().union(*sets))
        for s in sets:
            missing = (index[("cage", i, d)] for d in digits if d not in s)
            found.append((index[("cage", i)], *missing))
            labels.append(-1)
    keys += list(index)
    return Matrix(primary, start + len(index) - primary, tuple(found), tuple(labels), tuple(keys))
