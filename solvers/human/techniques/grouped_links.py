"""Grouped strong links: turbot fish and three-link chains whose ends may be groups.

A *group* is two or three places of a digit inside one box and one line; it
holds the digit when one of its cells does.  A unit whose places of a digit
fall into two such nodes (cells or groups) makes a *strong link*: one of the
two holds the digit.  In a line, the places must lie in two boxes; in a box,
they must lie in one row and one column of it (the shape of an empty
rectangle), split into the row's part and the column's part.

As in any X-chain, k strong links joined end to end by weak links (both
nodes inside one unit, so at most one holds the digit) force one of the two
far ends to hold it: cells that see every cell of both far ends lose it.
Sukaku Explainer rates a chain with a grouped link 0.3 above its plain form:
4.3 for two links, 5.7 for three.
"""

from __future__ import annotations

from functools import cache

from solvers.grid import Shape
from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import (
    bits,
    boxes,
    cells_with,
    peer_masks,
)

RATINGS = {2: 4.3, 3: 5.7}

Link = tuple[int, int, int, bool]  # unit, one node, the other node (cell masks), grouped


@cache
def _unit_masks(shape: Shape) -> tuple[int, ...]:
    return tuple(sum(1 << c for c in cells) for cells in shape.units)


def _seen_by_all(peers: tuple[int, ...], node: int) -> int:
    seen = -1
    for c in bits(node):
        seen &= peers[c]
    return seen


def _links(state: CandidateState, digit: int) -> list[Link]:
    """Every strong link on `digit`, plain or grouped, once per split of its unit."""
    shape = state.shape
    n = shape.size
    box = boxes(shape)
    with_d = cells_with(state, digit)
    out: list[Link] = []
    for u, unit in enumerate(_unit_masks(shape)):
        places = unit & with_d
        cells = bits(places)
        if len(cells) < 2:
            continue
        if len(cells) == 2:
            out.append((u, 1 << cells[0], 1 << cells[1], False))
            continue
        if u < 2 * n:  # a line: two boxes
            by_box: dict[int, int] = {}
            for c in cells:
                by_box[box[c]] = by_box.get(box[c], 0) | 1 << c
            if len(by_box) == 2:
                a, b = by_box.values()
                out.append((u, a, b, True))
            continue
        rows = {c // n for c in cells}
        cols = {c % n for c in cells}
        for r in rows:
            for col in cols:
                in_row = sum(1 << c for c in cells if c // n == r)
                in_col = sum(1 << c for c in cells if c % n == col)
                if in_row | in_col != places:
                    continue
                heart = 1 << (r * n + col)
                if not in_row & ~heart or not in_col & ~heart:
                    continue
                out.append((u, in_row, in_col & ~heart, True))
                if in_row & heart:
                    out.append((u, in_row & ~heart, in_col, True))
    return out


@cache
def _cell_units(shape: Shape) -> tuple[int, ...]:
    """For each cell, its units as a bitmask over unit indices."""
    out = [0] * shape.ncells
    for u, cells in enumerate(shape.units):
        for c in cells:
            out[c] |= 1 << u
    return tuple(out)


def grouped_strong_links(state: CandidateState, k: int, name: str) -> Step | None:
    """The chain of `k` strong links on one digit, one of them grouped, that removes the
    most candidates (the lowest digit on a tie).  Each digit's best chain is kept with
    the digit's cells in `state.fruitless` and searched again only when they change."""
    shape = state.shape
    marks = state.fruitless
    best: tuple | None = None
    for d in range(1, state.n + 1):
        with_d = cells_with(state, d)
        mark = marks.get((name, "best", d))
        if mark is not None and mark[0] == with_d:
            found = mark[1]
        else:
            found = _best_chain(state, d, k, with_d)
            marks[(name, "best", d)] = (with_d, found)
        if found is not None and (best is None or found[0] > best[0]):
            best = found
    if best is None:
        return None
    _, d, chain, targets = best
    nodes = [m for _, a, b, _ in chain for m in (a, b)]
    cells = tuple(c for m in nodes for c in bits(m))
    return Step(
        name,
        (),
        tuple((c, d) for c in bits(targets)),
        cells,
        tuple(u for u, *_ in chain),
        (d,),
        RATINGS[k],
        shape,
    )


def _best_chain(state: CandidateState, d: int, k: int, with_d: int) -> tuple | None:
    """The chain of `k` strong links on digit `d` that removes the most candidates, as
    (count, d, links, targets), or None."""
    shape = state.shape
    peers = peer_masks(shape)
    cell_units = _cell_units(shape)
    links = _links(state, d)
    if len(links) < k or not any(g for *_, g in links):
        return None
    # oriented links (unit, start node, end node, grouped)
    ends = [(u, a, b, g) for u, a, b, g in links] + [(u, b, a, g) for u, a, b, g in links]
    units_of: dict[int, int] = {}
    seen: dict[int, int] = {}
    for _, a, b, _ in links:
        for m in (a, b):
            if m not in units_of:
                um = -1
                for c in bits(m):
                    um &= cell_units[c]
                units_of[m] = um
                seen[m] = _seen_by_all(peers, m)
    # nxt[i]: the oriented links that can follow link i through a weak link
    starting_in: dict[int, list[int]] = {}  # unit -> oriented links starting inside it
    for j, (_, x, _, _) in enumerate(ends):
        for w in bits(units_of[x]):
            starting_in.setdefault(w, []).append(j)
    nxt: list[list[int]] = []
    for u, _, b, _ in ends:
        found: set[int] = set()
        for w in bits(units_of[b]):
            found.update(starting_in.get(w, ()))
        nxt.append(sorted(j for j in found if ends[j][0] != u and not ends[j][1] & b))
    best: tuple | None = None
    for count, chain, targets in _chains(ends, nxt, k, seen, with_d):
        if best is None or count > best[0]:
            best = (count, d, chain, targets)
    return best


def _chains(ends: list[Link], nxt: list[list[int]], k: int, seen: dict[int, int], with_d: int):
    """(eliminations, links, targets) of every chain of `k` oriented links, one grouped,
    with disjoint nodes and something to remove."""
    for i in range(len(ends)):
        reach = seen[ends[i][1]] & with_d  # what the first far end sees
        if not reach:
            continue
        for j in nxt[i]:
            if k == 2:
                if reach & seen[ends[j][2]]:
                    yield from _chain(ends, [i, j], seen, with_d)
                continue
            for h in nxt[j]:
                if ends[h][0] != ends[i][0] and reach & seen[ends[h][2]]:
                    yield from _chain(ends, [i, j, h], seen, with_d)


def _chain(ends: list[Link], chain: list[int], seen: dict[int, int], with_d: int):
    links = [ends[i] for i in chain]
    if not any(g for *_, g in links):
        return
    total = 0
    for _, a, b, _ in links:
        for m in (a, b):
            if total & m:
                return  # the nodes must not overlap
            total |= m
    far1, far2 = links[0][1], links[-1][2]
    targets = seen[far1] & seen[far2] & with_d & ~(far1 | far2)
    if targets:
        yield targets.bit_count(), links, targets


def grouped_turbot_fish(state: CandidateState) -> Step | None:
    """Two strong links on a digit, one with a group end (an empty rectangle is one): 4.3."""
    return grouped_strong_links(state, 2, "grouped_turbot_fish")


def grouped_three_strong_links(state: CandidateState) -> Step | None:
    """Three strong links on a digit, one with a group end: 5.7."""
    return grouped_strong_links(state, 3, "grouped_three_strong_links")
