"""Locked candidates: where a box and a line meet.

*Pointing*: when a digit's places in a box all lie on one row or column, the
digit is in that line inside the box, so the rest of the line loses it.
*Claiming* (box-line reduction): when a digit's places in a row or column all
lie in one box, the rest of the box loses it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import Found, by_digit, crossings, unit_cells

POINTING_RATING = 2.6
CLAIMING_RATING = 2.8


def _locked(
    state: CandidateState,
    name: str,
    rating: float,
    outers: Iterable[int],
    crossings_of: Callable[[int], Sequence[tuple[int, int, int]]],
    one_fit: bool,
) -> Step | None:
    """A digit confined to where an outer unit meets an inner one leaves the rest of the inner.

    `crossings_of(outer)` gives (inner unit, positions of the crossing in the outer unit, in
    the inner unit); with `one_fit`, only the first crossing holding every place is looked at
    (it is the only one that can).  Outer units, then digits, then crossings, in order;
    each digit's search reads its own places only (see `common.by_digit`).
    """
    n = state.n
    shape = state.shape
    pos = state.unit_positions()
    outers = tuple(outers)

    def search(k: int) -> Found:
        for i, outer in enumerate(outers):
            p = pos[outer * n + k]
            if not p:
                continue
            for j, (inner, in_outer, in_inner) in enumerate(crossings_of(outer)):
                if p & ~in_outer:
                    continue
                outside = pos[inner * n + k] & ~in_inner
                if outside:
                    d = k + 1
                    elims = tuple((c, d) for c in sorted(unit_cells(shape, inner, outside)))
                    cells = tuple(sorted(unit_cells(shape, outer, p)))
                    step = Step(name, (), elims, cells, (outer, inner), (d,), rating, shape)
                    return (i, k, j), step
                if one_fit:
                    break
        return None

    return by_digit(state, name, search)


def pointing(state: CandidateState) -> Step | None:
    """A digit confined to one line within a box leaves the rest of that line."""
    n = state.n
    box_lines, _ = crossings(state.shape)
    boxes = range(2 * n, 3 * n)
    return _locked(
        state, "pointing", POINTING_RATING, boxes, lambda box: box_lines[box - 2 * n], False
    )


def claiming(state: CandidateState) -> Step | None:
    """A digit confined to one box within a line leaves the rest of that box."""
    _, line_boxes = crossings(state.shape)
    lines = range(2 * state.n)
    return _locked(state, "claiming", CLAIMING_RATING, lines, line_boxes.__getitem__, True)
