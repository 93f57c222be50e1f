"""Locked candidates: where a box and a line meet.

*Pointing*: when a digit's places in a box all lie on one row or column, the
digit is in that line inside the box, so the rest of the line loses it.
*Claiming* (box-line reduction): when a digit's places in a row or column all
lie in one box, the rest of the box loses it.
"""

from __future__ import annotations

from solvers.human.state import CandidateState
from solvers.human.step import Step

POINTING_RATING = 2.6
CLAIMING_RATING = 2.8


def _outside(state: CandidateState, unit: int, inside: list[int], digit: int) -> tuple:
    bit = 1 << (digit - 1)
    cand = state.cand
    return tuple((c, digit) for c in state.shape.units[unit] if cand[c] & bit and c not in inside)


def pointing(state: CandidateState) -> Step | None:
    """A digit confined to one line within a box leaves the rest of that line."""
    n = state.n
    shape = state.shape
    count = state.count
    for u in range(2 * n, 3 * n):
        for d in range(1, n + 1):
            c = count[u * n + d - 1]
            if not c or state.placed[u] >> (d - 1) & 1 or c > max(shape.box_rows, shape.box_cols):
                continue
            cells = state.positions(u, d)
            rows = {x // n for x in cells}
            cols = {x % n for x in cells}
            for line, same in (
                (next(iter(rows)), len(rows) == 1),
                (n + next(iter(cols)), len(cols) == 1),
            ):
                if same:
                    elims = _outside(state, line, cells, d)
                    if elims:
                        return Step(
                            "pointing",
                            (),
                            elims,
                            tuple(cells),
                            (u, line),
                            (d,),
                            POINTING_RATING,
                            shape,
                        )
    return None


def claiming(state: CandidateState) -> Step | None:
    """A digit confined to one box within a line leaves the rest of that box."""
    n = state.n
    shape = state.shape
    count = state.count
    for u in range(2 * n):
        width = shape.box_cols if u < n else shape.box_rows
        for d in range(1, n + 1):
            c = count[u * n + d - 1]
            if not c or c > width or state.placed[u] >> (d - 1) & 1:
                continue
            cells = state.positions(u, d)
            boxes = {shape.box_of(x) for x in cells}
            if len(boxes) == 1:
                box = 2 * n + boxes.pop()
                elims = _outside(state, box, cells, d)
                if elims:
                    return Step(
                        "claiming", (), elims, tuple(cells), (u, box), (d,), CLAIMING_RATING, shape
                    )
    return None
