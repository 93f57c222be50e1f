"""A puzzle's canonical form: one text for every puzzle equivalent to it, so isomorphic
duplicates can be found inside and across corpora.

Two puzzles are *isomorphic* when one becomes the other by the moves that
keep Sudoku's rules: relabelling the digits, permuting the rows within a
band, the bands, the columns within a stack, the stacks, and (square boxes
only) transposing.  The canonical form is the least of all those images,
read row by row with a blank as 0 and the digits relabelled in order of
first appearance, as in the minlex form of the Sudoku literature::

    canonical(Grid.parse(text)) == canonical(Grid.parse(isomorphic_text))

It is found without listing the group (over 10^12 images for 9x9): the rows
are chosen one at a time, each time keeping only the partial images whose
rows so far are least, with every tie carried on.  The column arrangements
are listed outright, so the whole group is searched where they are few —
4x4, 6x6, 8x8 and 9x9 (at most 1,296).  For larger shapes (12x12, 16x16,
25x25: 82,944 column arrangements and more) the form is *partial*: the
least of the grid and (square boxes) its transpose with the digits
relabelled; it still finds relabelled and transposed copies, not other
isomorphs.  `kind` says which form a puzzle got.

A puzzle with so much symmetry that the ties grow past `MAX_TIES` (a nearly
empty grid) has no canonical form (None); puzzles with constraints
(variants) have none either, since the moves need not keep their rules.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from solvers.grid import Grid

SYMBOLS = "0123456789ABCDEFGHIJKLMNOPQ"  # labels 0 (blank) .. 25
MAX_COLUMN_ARRANGEMENTS = 1296  # the full group where column arrangements are this few
MAX_TIES = 100_000  # partial images carried at once; past it, no canonical form
FULL, PARTIAL = "full", "partial"


def kind(grid: Grid) -> str:
    """``"full"`` where the whole group is searched for this shape, else ``"partial"``."""
    width, stacks = grid.box_cols, grid.size // grid.box_cols
    count = _factorial(stacks) * _factorial(width) ** stacks
    return FULL if count <= MAX_COLUMN_ARRANGEMENTS else PARTIAL


def _column_arrangements(grid: Grid) -> list[tuple[int, ...]]:
    """Every order of the columns that keeps the stacks: the stacks permuted, and the columns
    within each."""
    width, stacks = grid.box_cols, grid.size // grid.box_cols
    inside = list(itertools.permutations(range(width)))
    result = []
    for order in itertools.permutations(range(stacks)):
        for within in itertools.product(inside, repeat=stacks):
            result.append(tuple(s * width + c for s, w in zip(order, within, strict=True)
                                for c in w))  # fmt: skip
    return result


def _factorial(n: int) -> int:
    result = 1
    for k in range(2, n + 1):
        result *= k
    return result


def _orientations(grid: Grid) -> list[list[tuple[int, ...]]]:
    n = grid.size
    rows = [grid.cells[r * n : (r + 1) * n] for r in range(n)]
    if grid.box_rows != grid.box_cols:
        return [rows]
    return [rows, [tuple(rows[r][c] for r in range(n)) for c in range(n)]]


def _prefix(grid: Grid) -> str:
    return "" if (grid.box_rows, grid.box_cols) == (3, 3) else f"{grid.box_rows}x{grid.box_cols}:"


class Canonicalizer:
    """Canonical forms of many puzzles: keeps each shape's column arrangements (one
    canonicalizer per corpus or command, never a module-wide cache)."""

    def __init__(self) -> None:
        self._arrangements: dict[tuple[int, int], Any] = {}

    def __call__(self, grid: Grid) -> str | None:
        """The canonical text of `grid` (see the module's docstring), or None for a variant
        or a puzzle too symmetric to settle within `MAX_TIES`."""
        if grid.constraints:
            return None
        if grid.givens == 0:
            return _prefix(grid) + "0" * len(grid.cells)
        if kind(grid) == PARTIAL:
            return _prefix(grid) + min(_relabelled(rows) for rows in _orientations(grid))
        shape = (grid.box_rows, grid.box_cols)
        if shape not in self._arrangements:
            import numpy as np

            self._arrangements[shape] = np.array(_column_arrangements(grid), dtype=np.intp)
        found = _least(grid, self._arrangements[shape])
        return None if found is None else _prefix(grid) + found


def canonical(grid: Grid) -> str | None:
    """The canonical text of one puzzle (`Canonicalizer` for many)."""
    return Canonicalizer()(grid)


def _relabelled(rows: Sequence[Sequence[int]]) -> str:
    labels: dict[int, int] = {0: 0}
    return "".join(SYMBOLS[labels.setdefault(d, len(labels))] for row in rows for d in row)


# a partial image: (orientation, column order, rows used so far, digit labels, next label)
Partial = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], int]


def _first_rows(oriented: list[list[tuple[int, ...]]], arrangements: Any) -> list[Partial]:
    """The partial images whose first row is least.  A row's image depends only on where its
    blanks fall (the givens are labelled 1, 2, ... left to right), so numpy compares every
    (orientation, row, column order) at once by the bit pattern of its givens."""
    import numpy as np

    n = len(oriented[0])
    rows = np.array([row for rows in oriented for row in rows])  # (orientations x n, n)
    given = (rows != 0)[:, arrangements]  # (rows, arrangements, n)
    weights = 1 << np.arange(n - 1, -1, -1, dtype=np.int64)
    patterns = (given * weights).sum(axis=2)  # a blank first is a 0 bit: smaller is less
    least = patterns.min()
    ties: list[Partial] = []
    for index, a in zip(*np.nonzero(patterns == least), strict=True):
        o, r = divmod(int(index), n)
        cols = tuple(int(c) for c in arrangements[a])
        mapping = [0] * (n + 1)
        label = 1
        for c in cols:
            d = oriented[o][r][c]
            if d:
                mapping[d] = label
                label += 1
        ties.append((o, cols, (r,), tuple(mapping), label))
    return ties


def _least(grid: Grid, arrangements: Any) -> str | None:
    """The least image over the whole group: rows chosen one at a time, ties carried on."""
    n, height = grid.size, grid.box_rows
    oriented = _orientations(grid)
    ties = _first_rows(oriented, arrangements)
    o, cols, (r,), labels, _ = ties[0]
    text = ["".join(SYMBOLS[labels[oriented[o][r][c]]] for c in cols)]
    for position in range(1, n):
        best: tuple[int, ...] | None = None
        kept: list[Partial] = []
        for o, cols, used, labels, next_label in ties:
            for r in _next_rows(used, position, height, n):
                row = oriented[o][r]
                mapping = list(labels)
                label = next_label
                out = []
                for c in cols:
                    d = row[c]
                    if d and not mapping[d]:
                        mapping[d] = label
                        label += 1
                    out.append(mapping[d])
                image = tuple(out)
                if best is None or image < best:
                    best, kept = image, []
                if image == best:
                    kept.append((o, cols, (*used, r), tuple(mapping), label))
        if len(kept) > MAX_TIES:
            return None
        ties = kept
        text.append("".join(SYMBOLS[v] for v in best or ()))
    return "".join(text)


def _next_rows(used: tuple[int, ...], position: int, height: int, n: int) -> list[int]:
    """The rows that may come at `position`: any row of an unused band at a band's start,
    else the unused rows of the current band."""
    if position % height == 0:
        bands = {r // height for r in used}
        return [r for r in range(n) if r // height not in bands]
    band = used[position - position % height] // height
    return [r for r in range(band * height, band * height + height) if r not in used]
