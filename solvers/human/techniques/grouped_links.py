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
4.3 for two links, 5.7 for three.  A digit's links, and which can follow
which, are built once for its cells and serve both searches; a chain whose far
ends cannot see more candidates than the best so far is not tried.  With numba the
search runs compiled (`grouped_kernel`: the same links in the same order, the same
loops); the Python search here is the route without numba.
"""

from __future__ import annotations

from functools import cache
from importlib.util import find_spec
from itertools import combinations

from solvers.grid import Shape
from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import (
    bits,
    boxes,
    cells_with,
    peer_masks,
    unit_cell_masks,
)

RATINGS = {2: 4.3, 3: 5.7}

Link = tuple[int, int, int, bool]  # unit, one node, the other node (cell masks), grouped


@cache
def _line_parts(shape: Shape) -> tuple[tuple[int, ...], ...]:
    """For each row and column, its cells in each box it crosses, as cell masks in cell
    order; and for each row, then each column, its cells."""
    box = boxes(shape)
    out = []
    for cells in shape.units[: 2 * shape.size]:
        by_box: dict[int, int] = {}
        for c in cells:
            by_box[box[c]] = by_box.get(box[c], 0) | 1 << c
        out.append(tuple(by_box.values()))
    return tuple(out)


def digit_links(state: CandidateState, digit: int) -> list[Link]:
    """Every strong link on `digit`, plain or grouped, once per split of its unit."""
    shape = state.shape
    n = shape.size
    with_d = cells_with(state, digit)
    counts = state.count
    k = digit - 1
    unit_masks = unit_cell_masks(shape)
    parts = _line_parts(shape)
    out: list[Link] = []
    for u, unit in enumerate(unit_masks):
        count = counts[u * n + k]
        if count < 2:
            continue
        places = unit & with_d
        if count == 2:
            low = places & -places
            out.append((u, low, places ^ low, False))
            continue
        if u < 2 * n:  # a line: two boxes
            split = [p for part in parts[u] if (p := places & part)]
            if len(split) == 2:
                out.append((u, split[0], split[1], True))
            continue
        cells = bits(places)
        rows = {c // n for c in cells}  # (the order sets take them in is the search's)
        cols = {c % n for c in cells}
        for r in rows:
            in_row = places & unit_masks[r]
            for col in cols:
                in_col = places & unit_masks[n + col]
                if in_row | in_col != places:
                    continue
                heart = 1 << (r * n + col)
                if not in_row & ~heart or not in_col & ~heart:
                    continue
                out.append((u, in_row, in_col & ~heart, True))
                if in_row & heart:
                    out.append((u, in_row & ~heart, in_col, True))
    return out


Node = tuple[tuple[int, ...], tuple[int, ...], int]  # units, cells, the cells seeing them all


@cache
def _nodes(shape: Shape) -> dict[int, Node]:
    """Nodes by cell mask: every cell, and every group (two cells or more of one box
    and one line: a few hundred in a 9x9 grid); read it, never change it."""
    peers = peer_masks(shape)
    known: dict[int, Node] = {
        1 << c: (units, (c,), peers[c]) for c, units in enumerate(shape.cell_units)
    }
    masks = unit_cell_masks(shape)
    n = shape.size
    for box in range(2 * n, 3 * n):
        for line in range(2 * n):
            crossing = bits(masks[box] & masks[line])
            for size in range(2, len(crossing) + 1):
                for cells in combinations(crossing, size):
                    m = sum(1 << c for c in cells)
                    known[m] = _node(shape, m)
    return known


def _node(shape: Shape, m: int) -> Node:
    """The units of the cells of mask `m` (those holding them all), the cells, and the
    cells that see them all."""
    peers = peer_masks(shape)
    cell_units = _cell_units(shape)
    um = see = -1
    cells = bits(m)
    for c in cells:
        um &= cell_units[c]
        see &= peers[c]
    return tuple(bits(um)), tuple(cells), see


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
            found = best_chain(state, d, k, with_d)
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


class _Links:
    """One digit's strong links, plain and grouped, oriented both ways, with what can
    follow each through a weak link; built once per set of the digit's cells, for the
    searches of two and of three links alike."""

    __slots__ = ("ends", "nxt", "seen", "far", "grouped", "unit_of", "_ahead")

    def __init__(self, state: CandidateState, d: int) -> None:
        shape = state.shape
        links = digit_links(state, d)
        # oriented links (unit, start node, end node, grouped)
        ends = [(u, a, b, g) for u, a, b, g in links] + [(u, b, a, g) for u, a, b, g in links]
        self.ends = ends
        # each node's units, cells, and the cells that see all of it
        known = _nodes(shape)
        info: dict[int, Node] = {}
        for _, a, b, _ in links:
            for m in (a, b):
                if m not in info:
                    info[m] = known.get(m) or _node(shape, m)
        self.seen = seen = {m: v[2] for m, v in info.items()}
        # as bitmasks over the oriented links: those starting inside a unit, those lying
        # in a unit, those whose start node holds a cell
        starting_in = [0] * len(shape.units)
        in_unit = [0] * len(shape.units)
        holding = [0] * shape.ncells
        grouped = 0
        for j, (u, x, _, g) in enumerate(ends):
            bit = 1 << j
            units, cells, _ = info[x]
            for w in units:
                starting_in[w] |= bit
            in_unit[u] |= bit
            for c in cells:
                holding[c] |= bit
            if g:
                grouped |= bit
        self.grouped = grouped
        self.unit_of = in_unit
        # the links that can follow a node through a weak link (starting in a unit with
        # it, on other cells); nxt[i]: those that can follow link i (in another unit)
        follow = {}
        for m, (units, cells, _) in info.items():
            found = 0
            for w in units:
                found |= starting_in[w]
            for c in cells:
                found &= ~holding[c]
            follow[m] = found
        nxt = [follow[b] & ~in_unit[u] for u, _, b, _ in ends]
        self.nxt = nxt
        self.far = [seen[b] for _, _, b, _ in ends]  # what each link's end node sees
        self._ahead: list[int] | None = None

    def ahead(self) -> list[int]:
        """For each oriented link, what the end nodes of the links that can follow it see."""
        if self._ahead is None:
            far = self.far
            out = []
            for follow in self.nxt:
                seen = 0
                while follow:
                    low = follow & -follow
                    seen |= far[low.bit_length() - 1]
                    follow ^= low
                out.append(seen)
            self._ahead = out
        return self._ahead


def _digit_links(state: CandidateState, d: int, with_d: int) -> _Links:
    """`_Links` of digit `d`, kept with the digit's cells in `state.fruitless`."""
    mark = state.fruitless.get(("grouped-links", d))
    if mark is not None and mark[0] == with_d:
        return mark[1]
    found = _Links(state, d)
    state.fruitless[("grouped-links", d)] = (with_d, found)
    return found


def best_chain(state: CandidateState, d: int, k: int, with_d: int) -> tuple | None:
    """The chain of `k` strong links on digit `d` that removes the most candidates (the
    first found on a tie), as (count, d, links, targets), or None: compiled where numba
    is installed (`grouped_kernel`, the same chain), else `searched_chain`."""
    if COMPILED:
        return compiled_chain(state, d, k, with_d)
    return searched_chain(state, d, k, with_d)


COMPILED = find_spec("numba") is not None
"""Whether the chains are searched compiled (`grouped_kernel`): numba is installed."""


def compiled_chain(state: CandidateState, d: int, k: int, with_d: int) -> tuple | None:
    """`searched_chain` by the compiled kernel."""
    import numpy as np

    from solvers.human.techniques.grouped_kernel import best_chain as kernel_chain
    from solvers.human.techniques.grouped_kernel import geometry

    units, parts, counts, cell_units, peers = geometry(state.shape)
    row = np.frombuffer(with_d.to_bytes(8 * peers.shape[1], "little"), dtype="<u8")
    top, unit, grouped, start, end, targets = kernel_chain(
        row, k, units, parts, counts, cell_units, peers
    )
    if not top:
        return None
    links = [(int(unit[t]), _mask(start[t]), _mask(end[t]), bool(grouped[t])) for t in range(k)]
    return int(top), d, links, _mask(targets)


def _mask(row) -> int:
    """A row of words as a cell mask."""
    return int.from_bytes(row.tobytes(), "little")


def searched_chain(state: CandidateState, d: int, k: int, with_d: int) -> tuple | None:
    """`best_chain` in Python.  A chain whose first far end sees no more candidates than
    the best so far removes no more."""
    g = _digit_links(state, d, with_d)
    ends, nxt, seen, far, grouped = g.ends, g.nxt, g.seen, g.far, g.grouped
    if len(ends) < 2 * k or not grouped:
        return None
    ahead = g.ahead() if k == 3 else far
    best: tuple | None = None
    top = 0  # the most candidates removed so far
    for i, (u, a, _, gi) in enumerate(ends):
        reach = seen[a] & with_d  # what the first far end sees
        if reach.bit_count() <= top:
            continue
        follow = nxt[i]
        if k == 2 and not gi:
            follow &= grouped
        other_units = ~g.unit_of[u]
        while follow:
            low = follow & -follow
            follow ^= low
            j = low.bit_length() - 1
            if (reach & ahead[j]).bit_count() <= top:
                continue
            if k == 2:
                found = _chain(ends, (i, j), seen, with_d)
                if found is not None and found[0] > top:
                    top = found[0]
                    best = (top, d, found[1], found[2])
                continue
            last = nxt[j] & other_units
            if not gi and not ends[j][3]:
                last &= grouped
            while last:
                low = last & -last
                last ^= low
                h = low.bit_length() - 1
                if (reach & far[h]).bit_count() > top:
                    found = _chain(ends, (i, j, h), seen, with_d)
                    if found is not None and found[0] > top:
                        top = found[0]
                        best = (top, d, found[1], found[2])
    return best


def _chain(ends: list[Link], chain: tuple[int, ...], seen: dict[int, int], with_d: int):
    """(eliminations, links, targets) of a chain of oriented links with disjoint nodes
    and something to remove, or None."""
    links = [ends[i] for i in chain]
    total = 0
    for _, a, b, _ in links:
        for m in (a, b):
            if total & m:
                return None  # the nodes must not overlap
            total |= m
    far1, far2 = links[0][1], links[-1][2]
    targets = seen[far1] & seen[far2] & with_d & ~(far1 | far2)
    if targets:
        return targets.bit_count(), links, targets
    return None


def grouped_turbot_fish(state: CandidateState) -> Step | None:
    """Two strong links on a digit, one with a group end (an empty rectangle is one): 4.3."""
    return grouped_strong_links(state, 2, "grouped_turbot_fish")


def grouped_three_strong_links(state: CandidateState) -> Step | None:
    """Three strong links on a digit, one with a group end: 5.7."""
    return grouped_strong_links(state, 3, "grouped_three_strong_links")
