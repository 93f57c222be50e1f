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
from solvers.human.techniques.common import bits, cells_with, peer_masks


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


@cache
def _unit_masks(shape: Shape) -> tuple[int, ...]:
    return tuple(sum(1 << c for c in cells) for cells in shape.units)


def live_cells(state: CandidateState, y: bool, x: bool) -> list[int]:
    """By digit index, the cells whose candidate can lie on a loop: one made true needs
    a link into it and one made false a link out of it, both the strong kind (a
    bivalue cell with cell links `y`; a unit with two places of the digit, with unit
    links `x`)."""
    n = state.n
    with_digit = [cells_with(state, k + 1) for k in range(n)]
    live = [0] * n
    if y:
        bivalue = 0
        for cell, m in enumerate(state.cand):
            if m.bit_count() == 2:
                bivalue |= 1 << cell
        live = [bivalue & w for w in with_digit]
    if x:
        pos = state.unit_positions()
        for u, mask in enumerate(_unit_masks(state.shape)):
            base = u * n
            for k in range(n):
                if pos[base + k].bit_count() == 2:
                    live[k] |= mask & with_digit[k]
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
        self.n = n
        nodes: list[int] = []
        any_live = 0
        for m in live:
            any_live |= m
        for cell in bits(any_live):
            nodes += [cell * n + k for k in bits(cand[cell]) if live[k] >> cell & 1]
        self.nodes = nodes
        self.cells = [node // n for node in nodes]
        self.digits = [node % n for node in nodes]
        index = {node: i for i, node in enumerate(nodes)}
        parts = _peer_parts(state.shape)
        unit_masks = _unit_masks(state.shape)
        cell_units = state.shape.cell_units
        pos = state.unit_positions()
        out: list[list[int]] = []
        into: list[list[int]] = []
        for cell, k in zip(self.cells, self.digits, strict=True):
            m = cand[cell]
            after = []
            if y:
                after += [index[cell * n + j] for j in bits(m) if j != k and live[j] >> cell & 1]
            here = live[k] & ~(1 << cell)
            for part in parts[cell]:
                after += [index[c * n + k] for c in bits(part & here)]
            out.append(after)
            before = []
            if y and m.bit_count() == 2:
                before.append(index[cell * n + (m & ~(1 << k)).bit_length() - 1])
            if x:
                with_k = cells_with(state, k + 1)
                r, c, b = cell_units[cell]
                for u in (b, r, c):
                    if pos[u * n + k].bit_count() == 2:
                        partner = ((unit_masks[u] & with_k) ^ 1 << cell).bit_length() - 1
                        other = index[partner * n + k]
                        if other not in before:
                            before.append(other)
            into.append(before)
        self._prune(state, out, into)

    def _prune(self, state: CandidateState, out: list[list[int]], into: list[list[int]]) -> None:
        """Keep the links inside a component that can eliminate something."""
        size = len(out)
        comp = _components(out, into)
        peers = peer_masks(state.shape)
        # per component and digit: the cells its on nodes see, and its off nodes
        seen_on: dict[tuple[int, int], int] = {}
        seen_off: dict[tuple[int, int], int] = {}
        for i in range(size):
            key = (comp[i], self.digits[i])
            seen_on[key] = seen_on.get(key, 0) | peers[self.cells[i]]
            key = (comp[size + i], self.digits[i])
            seen_off[key] = seen_off.get(key, 0) | peers[self.cells[i]]
        useful = set()
        for (c, k), mask in seen_on.items():
            if mask & seen_off.get((c, k), 0) & cells_with(state, k + 1):
                useful.add(c)
        self.out = [
            [(j, 1 << j) for j in after if comp[size + j] == comp[i] and comp[i] in useful]
            for i, after in enumerate(out)
        ]
        self.into = [
            [i for i in before if comp[i] == comp[size + j] and comp[i] in useful]
            for j, before in enumerate(into)
        ]
        self.into_mask = []
        for before in self.into:
            mask = 0
            for i in before:
                mask |= 1 << i
            self.into_mask.append(mask)
        cand = state.cand
        self.sources = [
            i for i in range(size) if self.out[i] and cand[self.cells[i]].bit_count() >= 2
        ]


def _components(out: list[list[int]], into: list[list[int]]) -> list[int]:
    """Tarjan's strongly connected components of the graph with on nodes 0..size-1
    (edges `out`, to off nodes) and off nodes size..2*size-1 (edges `into`): the
    component number of each node."""
    size = len(out)
    adj = [[size + j for j in after] for after in out] + into
    total = 2 * size
    order = [-1] * total
    low = [0] * total
    comp = [-1] * total
    stack: list[int] = []
    counter = 0
    ncomp = 0
    for root in range(total):
        if order[root] >= 0:
            continue
        work = [(root, 0)]
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        while work:
            v, i = work[-1]
            edges = adj[v]
            if i < len(edges):
                work[-1] = (v, i + 1)
                w = edges[i]
                if order[w] < 0:
                    order[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    work.append((w, 0))
                elif comp[w] < 0 and order[w] < low[v]:
                    low[v] = order[w]
                continue
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
