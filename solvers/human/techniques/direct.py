"""Direct techniques: a pattern whose eliminations leave a hidden single, placed at once.

Sudoku Explainer rates a locked-candidates or hidden-subset pattern lower
when a person would use it only to see a placement, without writing down
candidates:

- *direct pointing* (1.7): a digit confined to one line within a box; in
  another box along that line the digit then has one place left off the line;
- *direct claiming* (1.9): a digit confined to one box within a line; in
  another parallel line through that box the digit then has one place left
  outside the box;
- *direct hidden pair* (2.0) and *triple* (2.5): k digits fitting only in k
  cells of a unit; another digit of the unit then has one place left outside
  those cells.

The step is the placement alone (the pattern's eliminations are its reason).
Unit order follows Sudoku Explainer: boxes before lines, columns before rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import combinations

from solvers.grid import Shape
from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import Found, by_digit, crossings, unit_cells, unit_masks

DIRECT_POINTING_RATING = 1.7
DIRECT_CLAIMING_RATING = 1.9
POINTING = ("direct_pointing", DIRECT_POINTING_RATING)
CLAIMING = ("direct_claiming", DIRECT_CLAIMING_RATING)
DIRECT_HIDDEN_RATINGS = {2: 2.0, 3: 2.5}


def _lines(n: int) -> list[int]:
    """Columns, then rows."""
    return list(range(n, 2 * n)) + list(range(n))


@cache
def _box_lines(grid_shape: Shape) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each box, the lines crossing it in `_lines` order, with the crossing's
    positions in the box."""
    n = grid_shape.size
    box_lines, _ = crossings(grid_shape)
    out = []
    for b in range(n):
        by_line = {line: in_box for line, in_box, _ in box_lines[b]}
        out.append(tuple((line, by_line[line]) for line in _lines(n) if line in by_line))
    return tuple(out)


def _fits(state: CandidateState, kind: str) -> dict[tuple[int, int], tuple[tuple[int, int], ...]]:
    """The solve's memo for `kind`: (unit, positions) -> the crossing units, by index,
    holding them."""
    return state.memo.table(f"direct-{kind}-fits", state.shape, 150)


def direct_pointing(state: CandidateState) -> Step | None:
    """A box confines a digit to a line, leaving one place for it in another box on the line.

    Boxes, then the lines crossing them (columns first), then digits, in order; each
    digit's search reads its own places only (see `common.by_digit`)."""
    n = state.n
    shape = state.shape
    pos = state.pos
    _, line_boxes = crossings(shape)
    box_lines = _box_lines(shape)
    fits = _fits(state, "pointing")

    def search(k: int) -> Found:
        for b, lines in enumerate(box_lines):
            box = 2 * n + b
            p = pos[box * n + k]
            if p.bit_count() < 2:
                continue
            key = (b, p)
            fit = fits.get(key)
            if fit is None:  # the line (at most one) holding every place
                fit = fits[key] = tuple(
                    (i, line) for i, (line, in_box) in enumerate(lines) if not p & ~in_box
                )
            for i, line in fit:
                others = ((o, m) for o, _, m in line_boxes[line] if o != box)
                step = _lone_place(state, k, box, line, p, others, POINTING)
                if step is not None:
                    return (b, i, k), step
        return None

    return by_digit(state, "direct_pointing", search)


def direct_claiming(state: CandidateState) -> Step | None:
    """A line confines a digit to a box, leaving one place for it in a parallel line.

    Lines (columns first), then the boxes they cross, then digits, in order; searched
    by digit as `direct_pointing` is."""
    n = state.n
    shape = state.shape
    pos = state.pos
    box_lines, line_boxes = crossings(shape)
    lines = _lines(n)
    fits = _fits(state, "claiming")

    def search(k: int) -> Found:
        for i, line in enumerate(lines):
            p = pos[line * n + k]
            if p.bit_count() < 2:
                continue
            rows = line < n
            key = (line, p)
            fit = fits.get(key)
            if fit is None:  # the box (at most one) holding every place
                fit = fits[key] = tuple(
                    (j, box)
                    for j, (box, in_line, _) in enumerate(line_boxes[line])
                    if not p & ~in_line
                )
            for j, box in fit:
                others = (
                    (o, m) for o, _, m in box_lines[box - 2 * n] if o != line and (o < n) == rows
                )
                step = _lone_place(state, k, line, box, p, others, CLAIMING)
                if step is not None:
                    return (i, j, k), step
        return None

    return by_digit(state, "direct_claiming", search)


def _lone_place(
    state: CandidateState,
    k: int,
    unit: int,
    crossing: int,
    places: int,
    others: Iterable[tuple[int, int]],
    kind: tuple[str, float],
) -> Step | None:
    """The first of `others` (a unit, and its cells in the crossing unit as a mask) where
    digit k, confined by `unit` to the crossing, keeps one place outside it."""
    pos, shape, n = state.pos, state.shape, state.n
    for other, in_other in others:
        q = pos[other * n + k]
        rest = q & ~in_other
        if q.bit_count() > 1 and rest.bit_count() == 1:
            return Step(
                kind[0],
                ((unit_cells(shape, other, rest)[0], k + 1),),
                (),
                tuple(unit_cells(shape, unit, places)),
                (unit, crossing, other),
                (k + 1,),
                kind[1],
                shape,
            )
    return None


@cache
def _hidden_order(n: int) -> tuple[int, ...]:
    """Boxes, then columns, then rows."""
    return (*range(2 * n, 3 * n), *_lines(n))


def _direct_hidden(state: CandidateState, k: int) -> Step | None:
    n = state.n
    shape = state.shape
    pos = state.pos
    free = state.free
    marks = state.fruitless
    name = f"direct_hidden_{'pair' if k == 2 else 'triple'}"
    masks = unit_masks(state)
    for u in _hidden_order(n):
        # The search in a unit reads the unit's places only, which its cells'
        # candidates give: a unit that gave nothing is skipped until they change.
        base = u * n
        mark = masks[u]
        fkey = (name, u)
        if marks.get(fkey) == mark:
            continue
        marks[fkey] = mark  # set before the search: it returns at the first find
        if free[u] <= k:
            continue
        ds = [d for d in range(n) if pos[base + d]]
        small = [d for d in ds if pos[base + d].bit_count() <= k]
        if len(ds) <= k or len(small) < k:
            continue
        for combo in combinations(small, k):
            where = 0
            for d in combo:
                where |= pos[base + d]
            if where.bit_count() != k:
                continue
            for d in ds:
                if d in combo:
                    continue
                q = pos[base + d]
                rest = q & ~where
                if q.bit_count() > 1 and rest.bit_count() == 1:
                    del marks[fkey]
                    cell = unit_cells(shape, u, rest)[0]
                    return Step(
                        name,
                        ((cell, d + 1),),
                        (),
                        tuple(unit_cells(shape, u, where)),
                        (u,),
                        tuple(x + 1 for x in combo),
                        DIRECT_HIDDEN_RATINGS[k],
                        shape,
                    )
    return None


def direct_hidden_pair(state: CandidateState) -> Step | None:
    """Two digits fit only in two cells of a unit, leaving one place for another digit."""
    return _direct_hidden(state, 2)


def direct_hidden_triple(state: CandidateState) -> Step | None:
    """Three digits fit only in three cells of a unit, leaving one place for another digit."""
    return _direct_hidden(state, 3)
