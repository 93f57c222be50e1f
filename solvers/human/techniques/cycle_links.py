"""The link graph of a bidirectional cycle search, built once per state and kind.

The cycle search (`cycles`) walks from a candidate made true (*on*) to
candidates made false (*off*) and back.  This module numbers the candidates
that can lie on a loop, lists each one's links in the order the search takes
them, and keeps only the links inside a strongly connected component of the
graph of on and off nodes: a link between two components lies on no loop, so
no search from any candidate can come back along it.  The search then gives
the same loops in the same order, with less to walk.

A component whose candidates cannot together eliminate anything (no cell sees
an on node and an off node of one digit in it) is left out whole: a loop in it
would take its eliminations from those views.
"""

from __future__ import annotations

from functools import cache

from solvers.grid import Shape
from solvers.human.state import CandidateState
from solvers.human.techniques.common import cells_with_each, peer_masks, unit_cell_masks


@cache
def _peer_parts(shape: Shape) -> tuple[tuple[int, int, int], ...]:
    """For each cell, its box, then its row outside the box, then its column outside the
    box, as cell masks: a cell's peers in the order the search takes them."""
    out = []
    for r, c, b in shape.cell_units:
        box = sum(1 << x for x in shape.units[b])
        row = sum(1 << x for x in shape.units[r]) & ~box
        col = sum(1 << x for x in shape.units[c]) & ~box
        out.append((box, row, col))
    return tuple(out)


def live_cells(state: CandidateState, y: bool, x: bool) -> list[int]:
    """By digit index, the cells whose candidate can lie on a loop: one made true needs
    a link into it and one made false a link out of it, both the strong kind (a
    bivalue cell with cell links `y`; a unit with two places of the digit, with unit
    links `x`)."""
    n = state.n
    with_digit = cells_with_each(state)
    live = [0] * n
    if y:
        bivalue = 0
        for cell, m in enumerate(state.cand):
            if m.bit_count() == 2:
                bivalue |= 1 << cell
        live = [bivalue & w for w in with_digit]
    if x:
        unit_masks = unit_cell_masks(state.shape)
        for i in [i for i, count in enumerate(state.count) if count == 2]:
            u, k = divmod(i, n)
            live[k] |= unit_masks[u] & with_digit[k]
    return live


class LoopGraph:
    """The candidates that can lie on a loop, numbered in candidate order (cell, then
    digit), with their links inside their strongly connected component.

    ``out[i]``: the off nodes candidate i made true forces, as (index, bit), in the
    search's order; ``into[j]``: the on nodes candidate j made false forces, in order,
    and ``into_mask[j]`` the same as a bitmask; ``sources``: the candidates a search
    may start from, in order."""

    __slots__ = ("n", "nodes", "cells", "digits", "out", "into", "into_mask", "sources")

    def __init__(self, state: CandidateState, y: bool, x: bool, live: list[int]) -> None:
        n = state.n
        cand = state.cand
        shape = state.shape
        self.n = n
        index = [-1] * (shape.ncells * n)  # candidate (cell * n + digit index) -> number
        nodes: list[int] = []
        spans: list[tuple[int, int]] = []  # by node: the numbers of its cell's nodes
        rest = 0
        for m in live:
            rest |= m
        while rest:
            low = rest & -rest
            rest ^= low
            cell = low.bit_length() - 1
            base = cell * n
            first = len(nodes)
            m = cand[cell]
            while m:
                bit = m & -m
                m ^= bit
                k = bit.bit_length() - 1
                if live[k] & low:
                    index[base + k] = len(nodes)
                    nodes.append(base + k)
            spans += [(first, len(nodes))] * (len(nodes) - first)
        self.nodes = nodes
        self.cells = cells = [node // n for node in nodes]
        self.digits = digits = [node % n for node in nodes]
        size = len(nodes)
        parts = _peer_parts(shape)
        unit_masks = unit_cell_masks(shape)
        cell_units = shape.cell_units
        count = state.count
        with_digit = cells_with_each(state)
        # links as node numbers: on nodes 0..size-1, off nodes size..2*size-1
        adj: list[list[int]] = []
        into: list[list[int]] = []
        for i in range(size):
            cell = cells[i]
            k = digits[i]
            m = cand[cell]
            if y:  # the cell's other candidates that can lie on a loop, in digit order
                lo, hi = spans[i]
                after = [size + t for t in range(lo, hi) if t != i]
            else:
                after = []
            here = live[k] & ~(1 << cell)
            for part in parts[cell]:
                p = part & here
                while p:
                    low = p & -p
                    p ^= low
                    after.append(size + index[(low.bit_length() - 1) * n + k])
            adj.append(after)
            before = []
            if y and m.bit_count() == 2:
                before.append(index[cell * n + (m & ~(1 << k)).bit_length() - 1])
            if x:
                r, c, b = cell_units[cell]
                for u in (b, r, c):
                    if count[u * n + k] == 2:
                        partner = ((unit_masks[u] & with_digit[k]) ^ 1 << cell).bit_length() - 1
                        other = index[partner * n + k]
                        if other not in before:
                            before.append(other)
            into.append(before)
        self._prune(state, adj + into, with_digit)

    def _prune(self, state: CandidateState, adj: list[list[int]], with_digit: list[int]) -> None:
        """Keep the links inside a component that can eliminate something."""
        size = len(self.nodes)
        comp = components(adj)
        peers = peer_masks(state.shape)
        n = self.n
        # per component and digit: the cells its on nodes see, and its off nodes
        seen_on: dict[int, int] = {}
        seen_off: dict[int, int] = {}
        for i, (cell, k) in enumerate(zip(self.cells, self.digits, strict=True)):
            see = peers[cell]
            key = comp[i] * n + k
            seen_on[key] = seen_on.get(key, 0) | see
            key = comp[size + i] * n + k
            seen_off[key] = seen_off.get(key, 0) | see
        useful = {
            key // n
            for key, mask in seen_on.items()
            if mask & seen_off.get(key, 0) & with_digit[key % n]
        }
        out: list[list[tuple[int, int]]] = []
        self.out = out
        for i in range(size):
            c = comp[i]
            out.append(
                [(j - size, 1 << (j - size)) for j in adj[i] if comp[j] == c] if c in useful else []
            )
        into: list[list[int]] = []
        into_mask: list[int] = []
        self.into = into
        self.into_mask = into_mask
        for j in range(size, 2 * size):
            c = comp[j]
            before = [i for i in adj[j] if comp[i] == c] if c in useful else []
            into.append(before)
            mask = 0
            for i in before:
                mask |= 1 << i
            into_mask.append(mask)
        cand = state.cand
        self.sources = [i for i in range(size) if out[i] and cand[self.cells[i]].bit_count() >= 2]


def components(adj: list[list[int]]) -> list[int]:
    """Tarjan's strongly connected components of a graph given by its adjacency lists:
    the component number of each node."""
    total = len(adj)
    order = [0] * total  # 0: not visited yet
    low = [0] * total
    comp = [-1] * total
    stack: list[int] = []
    counter = 1
    ncomp = 0
    for root in range(total):
        if order[root]:
            continue
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        work = [(root, iter(adj[root]))]
        while work:
            v, edges = work[-1]
            for w in edges:
                if not order[w]:
                    order[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    work.append((w, iter(adj[w])))
                    break
                if comp[w] < 0 and order[w] < low[v]:
                    low[v] = order[w]
            else:
                work.pop()
                if work:
                    u = work[-1][0]
                    if low[v] < low[u]:
                        low[u] = low[v]
                if low[v] == order[v]:
                    while True:
                        w = stack.pop()
                        comp[w] = ncomp
                        if w == v:
                            break
                    ncomp += 1
    return comp
