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
from solvers.human.techniques.common import bits, fruitless, mark_fruitless

NAMES = {2: "x_wing", 3: "swordfish", 4: "jellyfish"}


def fish(state: CandidateState, k: int, rating: float) -> Step | None:
    """The first fish of size k: digits ascending, rows as base before columns."""
    n = state.n
    pos = state.unit_positions()
    key = NAMES[k]
    for d in range(1, n + 1):
        if fruitless(state, key, d):
            continue
        j = d - 1
        for first in (0, n):  # base: rows (cover columns), then columns (cover rows)
            lines = []
            for u in range(first, first + n):
                where = pos[u * n + j]  # a row's positions are columns, a column's rows
                if 2 <= where.bit_count() <= k:
                    lines.append((u, where))
            if len(lines) < k:
                continue
            other = n - first  # the first cover unit
            for combo in combinations(lines, k):
                cover = 0
                for _, where in combo:
                    cover |= where
                if cover.bit_count() != k:
                    continue
                base = 0
                for u, _ in combo:
                    base |= 1 << (u - first)
                elims = []
                for i in bits(cover):
                    for b in bits(pos[(other + i) * n + j] & ~base):
                        elims.append((_cell(first, b, i, n), d))
                if elims:
                    cells = sorted(_cell(first, u - first, i, n) for u, w in combo for i in bits(w))
                    units = tuple(u for u, _ in combo) + tuple(other + i for i in bits(cover))
                    return Step(
                        NAMES[k],
                        (),
                        tuple(sorted(elims)),
                        tuple(cells),
                        units,
                        (d,),
                        rating,
                        state.shape,
                    )
        mark_fruitless(state, key, d)
    return None


def _cell(first: int, line: int, index: int, n: int) -> int:
    """The cell at position `index` of base line `line` (a row when first == 0)."""
    return line * n + index if first == 0 else index * n + line
