"""Techniques that assume the puzzle has exactly one solution.

*Unique rectangle type 1*: four open cells on two rows, two columns and two
boxes; three hold only the pair ab and the fourth holds ab and more.  If the
fourth were a or b too, a and b could be swapped around the rectangle,
giving a second solution, so the fourth cell loses a and b.
*BUG+1*: every open cell has two candidates except one, which has three; if
that cell lost its extra digit every digit would have two places in every
unit (a "bivalue universal grave", which has no unique solution), so the
cell takes the digit that has three places in its units.

Both are sound only for puzzles with a unique solution; the engine records
when it used them.
"""

from __future__ import annotations

from solvers.human.state import CandidateState, digits
from solvers.human.step import Step

UR_RATING = 4.5
BUG_RATING = 5.6


def unique_rectangle(state: CandidateState) -> Step | None:
    """Type 1: three corners hold only ab, the fourth loses a and b."""
    n = state.n
    cand = state.cand
    box = state.shape.box_of
    biv = [c for c, m in enumerate(cand) if m and m.bit_count() == 2]
    for corner in biv:
        m = cand[corner]
        r, c = divmod(corner, n)
        in_row = [x for x in biv if x // n == r and x != corner and cand[x] == m]
        in_col = [x for x in biv if x % n == c and x != corner and cand[x] == m]
        for a in in_row:
            for b in in_col:
                fourth = (b // n) * n + a % n
                fm = cand[fourth]
                if fm & m != m or fm == m:
                    continue
                if len({box(corner), box(a), box(b), box(fourth)}) != 2:
                    continue
                elims = tuple((fourth, d) for d in digits(m))
                cells = tuple(sorted((corner, a, b, fourth)))
                return Step(
                    "unique_rectangle",
                    (),
                    elims,
                    cells,
                    (),
                    tuple(digits(m)),
                    UR_RATING,
                    state.shape,
                )
    return None


def bug_plus_one(state: CandidateState) -> Step | None:
    """All open cells bivalue but one trivalue cell: it takes its digit with three places."""
    n = state.n
    cand = state.cand
    extra = -1
    for cell, m in enumerate(cand):
        if m.bit_count() <= 2:
            continue  # placed, or one or two candidates
        if extra >= 0 or m.bit_count() != 3:
            return None
        extra = cell
    if extra < 0:
        return None
    # Every missing digit must have two places per unit, except one digit with
    # three places in each unit of the extra cell.
    count = state.count
    extra_units = state.shape.cell_units[extra]
    three = set()
    for u in range(3 * n):
        for k in range(n):
            if state.placed[u] >> k & 1:
                continue
            c = count[u * n + k]
            if c == 2:
                continue
            if c == 3 and u in extra_units and cand[extra] >> k & 1:
                three.add((u, k + 1))
                continue
            return None
    found = {d for _, d in three}
    if len(found) != 1 or len(three) != 3:
        return None
    digit = found.pop()
    return Step(
        "bug_plus_one",
        ((extra, digit),),
        (),
        (extra,),
        tuple(sorted(extra_units)),
        (digit,),
        BUG_RATING,
        state.shape,
    )
