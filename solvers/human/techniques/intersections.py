"""Locked candidates: where a box and a line meet.

*Pointing*: when a digit's places in a box all lie on one row or column, the
digit is in that line inside the box, so the rest of the line loses it.
*Claiming* (box-line reduction): when a digit's places in a row or column all
lie in one box, the rest of the box loses it.
"""

from __future__ import annotations

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import crossings, unit_cells

POINTING_RATING = 2.6
CLAIMING_RATING = 2.8


def pointing(state: CandidateState) -> Step | None:
    """A digit confined to one line within a box leaves the rest of that line."""
    n = state.n
    shape = state.shape
    pos = state.unit_positions()
    box_lines, _ = crossings(shape)
    for b in range(n):
        box = 2 * n + b
        for k in range(n):
            p = pos[box * n + k]
            if not p:
                continue
            for line, in_box, in_line in box_lines[b]:
                if p & ~in_box:
                    continue
                outside = pos[line * n + k] & ~in_line
                if outside:
                    d = k + 1
                    elims = tuple((c, d) for c in sorted(unit_cells(shape, line, outside)))
                    cells = tuple(sorted(unit_cells(shape, box, p)))
                    return Step(
                        "pointing", (), elims, cells, (box, line), (d,), POINTING_RATING, shape
                    )
    return None


def claiming(state: CandidateState) -> Step | None:
    """A digit confined to one box within a line leaves the rest of that box."""
    n = state.n
    shape = state.shape
    pos = state.unit_positions()
    _, line_boxes = crossings(shape)
    for line in range(2 * n):
        for k in range(n):
            p = pos[line * n + k]
            if not p:
                continue
            for box, in_line, in_box in line_boxes[line]:
                if p & ~in_line:
                    continue
                outside = pos[box * n + k] & ~in_box
                if outside:
                    d = k + 1
                    elims = tuple((c, d) for c in sorted(unit_cells(shape, box, outside)))
                    cells = tuple(sorted(unit_cells(shape, line, p)))
                    return Step(
                        "claiming", (), elims, cells, (line, box), (d,), CLAIMING_RATING, shape
                    )
                break
    return None
