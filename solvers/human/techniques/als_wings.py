"""Wings built on an almost locked set: WXYZ-, VWXYZ- and UVWXYZ-Wing (Sukaku Explainer).

An *almost locked set* (ALS) is k cells of one unit holding k+1 digits
between them: were one digit removed, the rest would be locked.  Joined to a
bivalue cell xz outside it whose two digits both occur in the ALS, with x
*restricted* (every ALS cell holding x sees the bivalue cell), one of the two
holds z: if the bivalue cell is not z it is x, which leaves the ALS k digits
for k cells, so z is in it.  Cells that see the bivalue cell and every ALS
cell holding z lose z.  When z is restricted as well (doubly linked), both
sets are locked: each other ALS digit leaves the cells seeing all its places
in the ALS, and x and z leave the cells seeing all their places in both.

Sukaku Explainer names them by size (three ALS cells: WXYZ-Wing, four: VWXYZ,
five: UVWXYZ) and rates them by the largest ALS cell (see `RATINGS`); the XY-
and XYZ-Wings are the one- and two-cell cases, found by their own finders.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import bits, cells_with, peer_masks


def _wxyz_rating(biggest: int) -> float:
    return round(5.5 + 0.1 * (1 - abs(3 - biggest)), 1)


def _vwxyz_rating(biggest: int) -> float:
    return round(6.2 + 0.1 * (2 - abs(3 - biggest)), 1)


def _uvwxyz_rating(biggest: int) -> float:
    return 6.6


RATINGS: dict[int, Callable[[int], float]] = {3: _wxyz_rating, 4: _vwxyz_rating, 5: _uvwxyz_rating}
"""ALS size -> rating from the largest ALS cell's candidate count (Sukaku Explainer's
WXYZ-Wing 5.5-5.6, VWXYZ-Wing 6.2-6.4, UVWXYZ-Wing 6.6)."""


def _sets(state: CandidateState, size: int) -> list[tuple[tuple[int, ...], int]]:
    """Every ALS of `size` cells within one unit, as (cells, digit mask), each once."""
    cand = state.cand
    seen: set[tuple[int, ...]] = set()
    out = []
    for unit in state.shape.units:
        open_ = [c for c in unit if cand[c] and cand[c] & (cand[c] - 1)]
        for cells in combinations(open_, size):
            union = 0
            for c in cells:
                union |= cand[c]
            if union.bit_count() != size + 1:
                continue
            key = tuple(sorted(cells))
            if key not in seen:
                seen.add(key)
                out.append((key, union))
    return out


def als_wing(state: CandidateState, size: int, name: str) -> Step | None:
    """The ALS-wing of `size` ALS cells with the lowest rating, then the most eliminations."""
    cand = state.cand
    peers = peer_masks(state.shape)
    rate = RATINGS[size]
    biv = [c for c, m in enumerate(cand) if m and m.bit_count() == 2]
    best: tuple | None = None
    for cells, union in _sets(state, size):
        als_mask = sum(1 << c for c in cells)
        seen_by_all: dict[int, int] = {}  # digit bit -> cells seeing every ALS cell holding it
        for c in cells:
            for b in bits(cand[c]):
                seen_by_all[b] = seen_by_all.get(b, -1) & peers[c]
        rating = rate(max(cand[c].bit_count() for c in cells))
        if best is not None and rating > best[0]:
            continue
        for yz in biv:
            m = cand[yz]
            if m & union != m or als_mask >> yz & 1:
                continue
            restricted = [b for b in bits(m) if seen_by_all[b] & (1 << yz) == 1 << yz]
            if not restricted:
                continue
            outside = ~(als_mask | 1 << yz)
            elims: list[tuple[int, int]] = []
            if len(restricted) == 2:  # doubly linked: both sets locked
                for b in bits(union):
                    targets = seen_by_all[b] & outside
                    if m >> b & 1:
                        targets &= peers[yz]
                    targets &= cells_with(state, b + 1)
                    elims += [(t, b + 1) for t in bits(targets)]
            else:
                z = bits(m & ~(1 << restricted[0]))[0]
                targets = seen_by_all[z] & peers[yz] & outside & cells_with(state, z + 1)
                elims = [(t, z + 1) for t in bits(targets)]
            if not elims:
                continue
            key = (rating, -len(elims))
            if best is None or key < best[:2]:
                best = (rating, -len(elims), cells, yz, tuple(sorted(elims)), m)
    if best is None:
        return None
    rating, _, cells, yz, elims, m = best
    return Step(
        name,
        (),
        tuple(elims),
        (*cells, yz),
        (),
        tuple(b + 1 for b in bits(m)),
        rating,
        state.shape,
    )


def wxyz_wing(state: CandidateState) -> Step | None:
    """A three-cell ALS (four digits in one unit) and a bivalue cell: Sukaku Explainer's
    WXYZ-Wing, 5.5 or 5.6."""
    return als_wing(state, 3, "wxyz_wing")


def vwxyz_wing(state: CandidateState) -> Step | None:
    """A four-cell ALS (five digits in one unit) and a bivalue cell: VWXYZ-Wing, 6.2-6.4."""
    return als_wing(state, 4, "vwxyz_wing")


def uvwxyz_wing(state: CandidateState) -> Step | None:
    """A five-cell ALS (six digits in one unit) and a bivalue cell: UVWXYZ-Wing, 6.6."""
    return als_wing(state, 5, "uvwxyz_wing")
