"""Single-digit colouring: simple colouring and multi-colouring.

For one digit, the strong links (units where it has two places) join cells
into clusters that can be coloured in two colours, so that exactly one colour
holds the digit.  Simple colouring reads one cluster.  *Wrap*: two cells of one
colour see each other, so that colour is false everywhere.  *Trap*: a cell
outside the cluster that sees both colours cannot hold the digit.

Multi-colouring reads two clusters, colours A/A' and B/B'.  When a cell of A
sees a cell of B, A and B are not both true, so A' or B' is: a cell seeing
both A' and B' loses the digit (trap).  When cells of A see cells of both B
and B', A is false everywhere (wrap).
"""

from __future__ import annotations

from itertools import combinations

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import (
    bits,
    cells_with,
    eliminate_from,
    fruitless,
    mark_fruitless,
    peer_masks,
    seen_by,
)
from solvers.human.techniques.wings import strong_links

RATING = 6.5


def _clusters(
    state: CandidateState, digit: int, smallest: int = 3
) -> list[tuple[int, int, tuple[int, ...]]]:
    """The two-coloured clusters of a digit's strong links, of `smallest` cells or more:
    (colour A, colour B, units)."""
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
        if len(colour) < smallest:
            continue  # a lone strong link: nothing simple colouring can use
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


def multi_colouring(state: CandidateState, rating: float) -> Step | None:
    """Two clusters of one digit: a wrap (a colour seeing both colours of the other cluster
    is false) or a trap (a cell seeing the partners of two colours that see each other)."""
    peers = peer_masks(state.shape)
    for d in range(1, state.n + 1):
        if fruitless(state, "multi_colouring", d):
            continue
        clusters = _clusters(state, d, smallest=2)
        with_d = cells_with(state, d)
        seen = {m: seen_by(peers, m) for a, b, _ in clusters for m in (a, b)}
        for (a1, b1, u1), (a2, b2, u2) in combinations(clusters, 2):
            cells = tuple(bits(a1 | b1 | a2 | b2))
            units = tuple(sorted(set(u1) | set(u2)))
            for x, y, y_partner in ((a1, a2, b2), (b1, a2, b2), (a2, a1, b1), (b2, a1, b1)):
                if seen[x] & y and seen[x] & y_partner:  # x rules out both colours of the other
                    return _multi_step(state, eliminate_from(x, d), cells, units, d, rating, x)
            targets = 0
            for x, x_partner in ((a1, b1), (b1, a1)):
                for y, y_partner in ((a2, b2), (b2, a2)):
                    if not seen[x] & y:
                        continue
                    # x and y are not both true, so x's partner or y's is
                    targets |= seen[x_partner] & seen[y_partner]
            targets &= with_d & ~(a1 | b1 | a2 | b2)
            if targets:
                return _multi_step(state, eliminate_from(targets, d), cells, units, d, rating)
        mark_fruitless(state, "multi_colouring", d)
    return None


def _multi_step(
    state: CandidateState,
    elims: tuple[tuple[int, int], ...],
    cells: tuple[int, ...],
    units: tuple[int, ...],
    d: int,
    rating: float,
    false_colour: int = 0,
) -> Step:
    """A multi-colouring step; `chain` lists the false colour of a wrap (empty for a trap)."""
    return Step(
        "multi_colouring",
        (),
        tuple(sorted(elims)),
        cells,
        units,
        (d,),
        rating,
        state.shape,
        tuple((c, d) for c in bits(false_colour)),
    )
