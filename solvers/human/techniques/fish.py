"""Basic fish: X-Wing, Swordfish and Jellyfish.

When a digit's places in k rows (the *base*) all lie in the same k columns (the
*cover*), those k rows hold the digit's k copies in those columns, so the
other cells of the cover columns lose it.  The same with rows and columns
swapped.
"""

from __future__ import annotations

from itertools import combinations

from solvers.human.state import CandidateState
from solvers.human.step import Step

NAMES = {2: "x_wing", 3: "swordfish", 4: "jellyfish"}


def fish(state: CandidateState, k: int, rating: float) -> Step | None:
    """The first fish of size k: digits ascending, rows as base before columns."""
    n = state.n
    cand = state.cand
    count = state.count
    placed = state.placed
    units = state.shape.units
    for d in range(1, n + 1):
        bit = 1 << (d - 1)
        for first in (0, n):  # base: rows (cover columns), then columns (cover rows)
            lines = []
            for u in range(first, first + n):
                if 2 <= count[u * n + d - 1] <= k and not placed[u] & bit:
                    where = 0
                    for i, c in enumerate(units[u]):
                        if cand[c] & bit:
                            where |= 1 << i
                    lines.append((u, where))
            if len(lines) < k:
                continue
            for combo in combinations(lines, k):
                cover = 0
                for _, where in combo:
                    cover |= where
                if cover.bit_count() != k:
                    continue
                base = {u for u, _ in combo}
                cover_units = [n - first + i for i in range(n) if cover >> i & 1]
                base_cells = set()
                for u in base:
                    base_cells.update(units[u])
                elims = tuple(
                    sorted(
                        (c, d)
                        for cu in cover_units
                        for c in units[cu]
                        if cand[c] & bit and c not in base_cells
                    )
                )
                if elims:
                    cells = tuple(sorted(c for u in base for c in units[u] if cand[c] & bit))
                    return Step(
                        NAMES[k],
                        (),
                        elims,
                        cells,
                        tuple(sorted(base)) + tuple(cover_units),
                        (d,),
                        rating,
                        state.shape,
                    )
    return None
