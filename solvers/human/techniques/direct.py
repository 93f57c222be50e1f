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
from solvers.human.techniques.common import crossings, fruitless, mark_fruitless, unit_cells

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


def _live(state: CandidateState, key: str) -> list[int]:
    """The digit indices (k = digit - 1) whose one-digit search `key` may find something."""
    return [k for k in range(state.n) if not fruitless(state, key, k + 1)]


def _mark(state: CandidateState, key: str, live: list[int]) -> None:
    for k in live:
        mark_fruitless(state, key, k + 1)


def direct_pointing(state: CandidateState) -> Step | None:
    """A box confines a digit to a line, leaving one place for it in another box on the line.

    The search reads one digit's places at a time, so a digit it found nothing on is
    skipped until its candidates change (`common.fruitless`)."""
    n = state.n
    shape = state.shape
    pos = state.pos
    live = _live(state, "direct_pointing")
    if not live:
        return None
    _, line_boxes = crossings(shape)
    for b, lines in enumerate(_box_lines(shape)):
        box = 2 * n + b
        base = box * n
        for line, in_box in lines:
            for k in live:
                p = pos[base + k]
                if p.bit_count() < 2 or p & ~in_box:
                    continue
                others = ((o, m) for o, _, m in line_boxes[line] if o != box)
                step = _lone_place(state, k, box, line, p, others, POINTING)
                if step is not None:
                    return step
    _mark(state, "direct_pointing", live)
    return None


def direct_claiming(state: CandidateState) -> Step | None:
    """A line confines a digit to a box, leaving one place for it in a parallel line.

    Digits found fruitless at the same candidates are skipped, as in `direct_pointing`."""
    n = state.n
    shape = state.shape
    pos = state.pos
    live = _live(state, "direct_claiming")
    if not live:
        return None
    box_lines, line_boxes = crossings(shape)
    for line in _lines(n):
        rows = line < n
        base = line * n
        for box, in_line, _ in line_boxes[line]:
            for k in live:
                p = pos[base + k]
                if p.bit_count() < 2 or p & ~in_line:
                    continue
                others = (
                    (o, m) for o, _, m in box_lines[box - 2 * n] if o != line and (o < n) == rows
                )
                step = _lone_place(state, k, line, box, p, others, CLAIMING)
                if step is not None:
                    return step
    _mark(state, "direct_claiming", live)
    return None


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


def _direct_hidden(state: CandidateState, k: int) -> Step | None:
    n = state.n
    shape = state.shape
    pos = state.pos
    free = state.free
    marks = state.fruitless
    name = f"direct_hidden_{'pair' if k == 2 else 'triple'}"
    for u in list(range(2 * n, 3 * n)) + _lines(n):
        # The search in a unit reads the unit's places only (a placed cell's digit
        # leaves them): a unit that gave nothing is skipped until they change.
        base = u * n
        mark = tuple(pos[base : base + n])
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
