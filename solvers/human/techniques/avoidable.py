"""Avoidable rectangles of types 1 and 2 (HoDoKu's; Sudoku Explainer lacks them).

Four cells on two rows, two columns and two boxes, none of them a given,
holding a and b crosswise (a in two diagonal corners, b in the other two)
would leave the puzzle two solutions: a and b could be swapped in them and
every unit and given would still be satisfied.  Digits already *solved*
(placed by deduction, not given) count like candidates that are true:

- type 1: three corners are solved, a in two diagonal corners and b in the
  third: the fourth corner loses b;
- type 2: two corners in one line are solved as a and b, and the corners
  facing them hold exactly b plus x and a plus x: one of them is x, so cells
  seeing both lose x.

They need to know which cells were given: on a state made from a pencil-mark
grid (`CandidateState.givens()` is None) they find nothing.  Both are sound
only for puzzles with a unique solution.
"""

from __future__ import annotations

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import bits, boxes, cells_with, peer_masks

RATING = 4.5  # Sudoku Explainer's unique rectangles of types 1 and 2


def _rectangles(state: CandidateState) -> list[tuple[int, int, int, int]]:
    """The corners (r1c1, r1c2, r2c1, r2c2, with r1 < r2 and c1 < c2) of every rectangle on
    two boxes with no given and two corners of one line solved as different digits, in
    that order (memoised; none when the givens are unknown)."""
    return state.derived("avoidable-rectangles", _find)


def _find(state: CandidateState) -> list[tuple[int, int, int, int]]:
    givens = state.givens()
    if givens is None:
        return []
    n = state.n
    values = state.values
    units = state.shape.units  # rows 0..n-1, then columns n..2n-1, each in order
    box = boxes(state.shape)
    found: set[tuple[int, int, int, int]] = set()
    for u in range(2 * n):
        line = units[u]
        solved = [i for i, c in enumerate(line) if values[c] and not givens[c]]
        for j, i1 in enumerate(solved):
            for i2 in solved[j + 1 :]:
                if values[line[i1]] == values[line[i2]]:
                    continue
                for o in range(u - u % n, u - u % n + n):  # the lines parallel to u
                    other = units[o]
                    if o == u or givens[other[i1]] or givens[other[i2]]:
                        continue
                    a, b, c, d = sorted((line[i1], line[i2], other[i1], other[i2]))
                    if len({box[a], box[b], box[c], box[d]}) == 2:
                        found.add((a, b, c, d))
    return sorted(found)


def _step(state, name, corners, a, b, elims, detail) -> Step:
    return Step(
        name,
        (),
        tuple(sorted(elims)),
        corners,
        (),
        tuple(sorted((a, b))),
        RATING,
        state.shape,
        detail=detail,
    )


def avoidable_rectangle_1(state: CandidateState) -> Step | None:
    """Three solved corners, a in two diagonal ones and b in the third: the open corner
    loses b."""
    values = state.values
    cand = state.cand
    for corners in _rectangles(state):
        tl, tr, bl, br = corners
        for open_, side1, side2, opposite in (
            (tl, tr, bl, br),
            (tr, tl, br, bl),
            (bl, tl, br, tr),
            (br, tr, bl, tl),
        ):
            a, b = values[side1], values[opposite]
            if values[open_] or not a or values[side2] != a or not b or b == a:
                continue
            if cand[open_] >> (b - 1) & 1:
                return _step(state, "avoidable_rectangle_1", corners, a, b, [(open_, b)], (open_,))
    return None


def avoidable_rectangle_2(state: CandidateState) -> Step | None:
    """Two corners in one line solved as a and b; the corners facing them hold exactly
    b plus x and a plus x: cells seeing both lose x."""
    values = state.values
    cand = state.cand
    peers = peer_masks(state.shape)
    for corners in _rectangles(state):
        tl, tr, bl, br = corners
        # (solved corner, its partner in the line, the corner facing each)
        for s1, s2, f1, f2 in (
            (tl, tr, bl, br),
            (bl, br, tl, tr),
            (tl, bl, tr, br),
            (tr, br, tl, bl),
        ):
            a, b = values[s1], values[s2]
            if not a or not b or values[f1] or values[f2]:
                continue
            # completing the rectangle puts b in f1 (facing a) and a in f2
            x = cand[f1] & ~(1 << (b - 1))
            if x.bit_count() != 1 or cand[f2] != x | 1 << (a - 1) or cand[f1] == x:
                continue
            digit = x.bit_length()
            targets = peers[f1] & peers[f2] & cells_with(state, digit)
            if targets:
                elims = [(t, digit) for t in bits(targets)]
                return _step(
                    state, "avoidable_rectangle_2", corners, a, b, elims, (digit, (f1, f2))
                )
    return None
