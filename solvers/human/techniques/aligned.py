"""Aligned pair exclusion (Sudoku Explainer's rating: 6.2).

Take two open cells (the *base* cells) and the bivalue cells that see both
of them (the *excluders*).  A pair of digits for the two base cells is
impossible when the cells see each other and the digits are equal, or when
some excluder holds exactly those two digits (it would have none left).  A
digit of a base cell that takes part in no possible pair is false there.

Sudoku Explainer looks at every pair of open cells that have at least two
excluders in common (the base cells need not share a unit); it takes the
first pair, in its scan order, that removes something.
"""

from __future__ import annotations

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import bits, peer_masks

RATING = 6.2


def aligned_pair_exclusion(state: CandidateState) -> Step | None:
    """Two cells whose digit pairs are each ruled out by an excluder or by their
    shared unit: the digits that take part in no allowed pair leave their cell."""
    cand = state.cand
    values = state.values
    peers = peer_masks(state.shape)
    ncells = state.shape.ncells
    bivalue = 0
    for c in range(ncells):
        if not values[c] and cand[c].bit_count() == 2:
            bivalue |= 1 << c
    bases = []
    for c in range(ncells):
        if values[c] or cand[c].bit_count() < 2:
            continue
        excluders = peers[c] & bivalue
        if excluders:
            bases.append((c, excluders))
    for i, (a, ex_a) in enumerate(bases):
        for b, ex_b in bases[i + 1 :]:
            common = ex_a & ex_b
            if common.bit_count() < 2:
                continue
            locked = {cand[x] for x in bits(common)}
            see = peers[a] >> b & 1
            allowed_a = allowed_b = 0
            ma, mb = cand[a], cand[b]
            for da in bits(ma):
                for db in bits(mb):
                    if da == db and see:
                        continue
                    if (1 << da | 1 << db) in locked:
                        continue
                    allowed_a |= 1 << da
                    allowed_b |= 1 << db
            elims = [(a, d + 1) for d in bits(ma & ~allowed_a)]
            elims += [(b, d + 1) for d in bits(mb & ~allowed_b)]
            if elims:
                return Step(
                    "aligned_pair_exclusion",
                    (),
                    tuple(elims),
                    (a, b, *bits(common)),
                    (),
                    (),
                    RATING,
                    state.shape,
                )
    return None
