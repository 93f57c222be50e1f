"""Simple colouring (single-digit colouring): colour wrap and colour trap.

For one digit, the strong links (units where it has two places) join cells
into clusters that can be coloured in two colours, so that exactly one colour
holds the digit.  *Wrap*: two cells of one colour see each other, so that
colour is false everywhere.  *Trap*: a cell outside the cluster that sees both
colours cannot hold the digit.
"""

from __future__ import annotations

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import (
    bits,
    cells_with,
    eliminate_from,
    fruitless,
    mark_fruitless,
    peer_masks,
)
from solvers.human.techniques.wings import strong_links

RATING = 6.5


def _clusters(state: CandidateState, digit: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """The two-coloured clusters of a digit's strong links: (colour A, colour B, units)."""
    adjacent: dict[int, list[tuple[int, int]]] = {}
    for u, a, b in strong_links(state, digit):
        adjacent.setdefault(a, []).append((b, u))
        adjacent.setdefault(b, []).append((a, u))
    seen: set[int] = set()
    out = []
    for root in sorted(adjacent):
        if root in seen:
            continue
        colour = {root: 0}
        stack = [root]
        units = set()
        while stack:
            cell = stack.pop()
            for other, u in adjacent[cell]:
                units.add(u)
                if other not in colour:
                    colour[other] = 1 - colour[cell]
                    stack.append(other)
        seen.update(colour)
        if len(colour) < 3:
            continue  # a lone strong link: nothing a simpler technique misses
        a = sum(1 << c for c, k in colour.items() if k == 0)
        b = sum(1 << c for c, k in colour.items() if k == 1)
        out.append((a, b, tuple(sorted(units))))
    return out


def simple_colouring(state: CandidateState) -> Step | None:
    """Colour wrap (a colour sees itself: it is false) or trap (a cell sees both colours)."""
    n = state.n
    peers = peer_masks(state.shape)
    for d in range(1, n + 1):
        if fruitless(state, "simple_colouring", d):
            continue
        with_d = None
        for a, b, units in _clusters(state, d):
            cells = tuple(bits(a | b))
            for colour in (a, b):
                if any(peers[c] & colour for c in bits(colour)):
                    return Step(
                        "simple_colouring",
                        (),
                        eliminate_from(colour, d),
                        cells,
                        units,
                        (d,),
                        RATING,
                        state.shape,
                        tuple((c, d) for c in bits(colour)),
                    )
            if with_d is None:
                with_d = cells_with(state, d)
            sees_a = sees_b = 0
            for c in bits(a):
                sees_a |= peers[c]
            for c in bits(b):
                sees_b |= peers[c]
            targets = sees_a & sees_b & with_d & ~(a | b)
            if targets:
                return Step(
                    "simple_colouring",
                    (),
                    eliminate_from(targets, d),
                    cells,
                    units,
                    (d,),
                    RATING,
                    state.shape,
                )
        mark_fruitless(state, "simple_colouring", d)
    return None
