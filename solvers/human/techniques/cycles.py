"""Bidirectional cycles, the Sudoku Explainer way: X-cycles, Y-cycles and XY-cycles.

A *cycle* is a loop of implications that leads from a candidate assumed
true back to itself:

- true(c, d) makes false d in c's peers and, in Y and XY-cycles, c's other
  digits;
- false(c, d) makes true the other digit of a bivalue c (Y and XY-cycles)
  or the other place of d in a unit where d has two places (X and
  XY-cycles).

Every such link also holds backwards with true and false swapped, so the
loop read backwards, from the candidate assumed false, is a cycle too: the
candidates of the loop are either all as the forward reading says or all
the opposite.  A candidate outside the loop's cells that sees a true
candidate of the same digit in both readings is false.

An X-cycle stays on one digit (a continuous nice loop of strong and weak
links), a Y-cycle is a loop of bivalue cells, and an XY-cycle mixes both.
Sudoku Explainer rates X and Y-cycles 6.5 and XY-cycles 7.0, plus the
chain length bonus of the loop's candidates.  The search follows its way:
from every candidate, breadth first, each candidate made true reached once,
and the cheapest loop with eliminations wins (ties: the fewer candidates,
then X before Y before XY, then the lowest candidate).  Nothing here
assumes a unique solution.
"""

from __future__ import annotations

from functools import cache

from solvers.grid import Shape
from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.chains import length_bonus
from solvers.human.techniques.common import bits, cells_with, peer_masks

CYCLE_RATING = 6.5  # X- and Y-cycles
XY_CYCLE_RATING = 7.0
MAX_NODES = 40  # the longest loop searched, in candidates

X, Y, XY = "x", "y", "xy"
KINDS = {X: "X-cycle", Y: "Y-cycle", XY: "XY-cycle"}


def _limit(base: float, ceiling: float) -> int:
    """The most candidates a loop rated from `base` may have without passing `ceiling`."""
    nodes = 4
    while nodes < MAX_NODES and base + length_bonus(nodes + 1) <= ceiling + 1e-9:
        nodes += 1
    return nodes


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


class _Grid:
    """The links of one candidate grid for each kind of cycle, built once per state.

    Only candidates that can lie on a loop take part: one made true needs a link into
    it and one made false a link out of it, both the strong kind (the cell is bivalue,
    for Y and XY-cycles; the digit has two places in one of its units, for X and
    XY-cycles).  The others cannot lead back to a loop's first candidate, so leaving
    them out changes neither the loops found nor their order."""

    def __init__(self, state: CandidateState) -> None:
        shape = state.shape
        n = state.n
        self.n = n
        self.off = shape.ncells * n
        self.cand = state.cand
        self.count = state.count
        self.units = shape.units
        # units of a cell: box, row, column (Sudoku Explainer's order)
        self.cell_units = [(b, r, c) for r, c, b in shape.cell_units]
        self.parts = _peer_parts(shape)
        self.unit_masks = [sum(1 << c for c in cells) for cells in shape.units]
        self.with_digit = [cells_with(state, k + 1) for k in range(n)]
        self.kinds: dict[tuple[bool, bool], dict[int, list[tuple[int, int]]]] = {}

    def links(self, y: bool, x: bool) -> dict[int, list[tuple[int, int]]]:
        """What each candidate that can lie on a loop forces, by node, in a cycle search
        with cell links (`y`) and unit links (`x`); each forced false candidate with its
        own bit (a true one with 0)."""
        found = self.kinds.get((y, x))
        if found is None:
            found = self.kinds[(y, x)] = self._links(y, x)
        return found

    def _links(self, y: bool, x: bool) -> dict[int, list[tuple[int, int]]]:
        n, off, cand, count = self.n, self.off, self.cand, self.count
        live = [0] * n  # by digit index: the cells whose candidate can lie on a loop
        if y:
            bivalue = 0
            for cell, m in enumerate(cand):
                if m.bit_count() == 2:
                    bivalue |= 1 << cell
            for k in range(n):
                live[k] = bivalue & self.with_digit[k]
        if x:
            for u, mask in enumerate(self.unit_masks):
                base = u * n
                for k in range(n):
                    if count[base + k] == 2:
                        live[k] |= mask & self.with_digit[k]
        links: dict[int, list[int]] = {}
        for k in range(n):
            rest = live[k]
            while rest:
                low = rest & -rest
                rest ^= low
                cell = low.bit_length() - 1
                node = cell * n + k
                links[node] = self._on_to_off(cell, k, y, live)
                links[off + node] = self._off_to_on(cell, k, y, x)
        # a false candidate's bit in the masks of a path's false candidates
        flag = {node: 1 << i for i, node in enumerate(links) if node >= off}
        return {
            node: [(q, flag[q]) for q in after] if node < off else [(q, 0) for q in after]
            for node, after in links.items()
        }

    def _on_to_off(self, cell: int, k: int, y: bool, live: list[int]) -> list[int]:
        off, n = self.off, self.n
        out = []
        if y:
            out += [
                off + cell * n + j for j in bits(self.cand[cell]) if j != k and live[j] >> cell & 1
            ]
        here = live[k] & ~(1 << cell)
        for part in self.parts[cell]:
            out += [off + c * n + k for c in bits(part & here)]
        return out

    def _off_to_on(self, cell: int, k: int, y: bool, x: bool) -> list[int]:
        n, cand = self.n, self.cand
        out = []
        if y and cand[cell].bit_count() == 2:
            out.append(cell * n + (cand[cell] & ~(1 << k)).bit_length() - 1)
        if x:
            bit = 1 << k
            for u in self.cell_units[cell]:
                if self.count[u * n + k] == 2:
                    other = next(c for c in self.units[u] if c != cell and cand[c] & bit)
                    node = other * n + k
                    if node not in out:
                        out.append(node)
        return out


def _loops(g: _Grid, source: int, y: bool, x: bool, limit: list[int]):
    """The loops back to `source` (a true candidate), breadth first, as node lists
    (source first), with at most ``limit[0]`` candidates (it may shrink meanwhile)."""
    links = g.links(y, x)
    if source not in links:
        return
    # instance i: nodes[i] and its parent instance; the pending instances of a round
    # as (node, instance, the bits of its false ancestors)
    nodes = [source]
    parents = [-1]
    reached = {source}
    pending_on = [(source, 0, 0)]
    length = 0
    while pending_on and length < limit[0]:
        length += 1
        pending_off = []
        for node, i, mask in pending_on:
            for q, bit in links[node]:
                if not mask & bit:
                    pending_off.append((q, len(nodes), mask | bit))
                    nodes.append(q)
                    parents.append(i)
        length += 1
        pending_on = []
        for node, i, mask in pending_off:
            for q, _ in links[node]:
                if q == source and length >= 4:
                    loop = []
                    j = i
                    while j >= 0:
                        loop.append(nodes[j])
                        j = parents[j]
                    loop.reverse()
                    yield loop
                    if length > limit[0]:
                        return
                if q not in reached and length < limit[0]:
                    reached.add(q)
                    pending_on.append((q, len(nodes), mask))
                    nodes.append(q)
                    parents.append(i)


def _eliminations(g: _Grid, loop: list[int], peers) -> tuple[tuple[int, int], ...]:
    """Candidates outside the loop's cells that see a true candidate of their digit in
    both readings of the loop."""
    n, off, cand = g.n, g.off, g.cand
    cells = 0
    for node in loop:
        cells |= 1 << (node % off) // n
    seen_on: dict[int, int] = {}  # digit index -> cells seeing a true candidate (forward reading)
    seen_off: dict[int, int] = {}  # ... a false one (true in the backward reading)
    for node in loop:
        on = node < off
        cell, k = divmod(node if on else node - off, n)
        book = seen_on if on else seen_off
        book[k] = book.get(k, 0) | peers[cell]
    out = []
    for k, mask in seen_on.items():
        both = mask & seen_off.get(k, 0) & ~cells
        out += [(c, k + 1) for c in bits(both) if cand[c] >> k & 1]
    return tuple(sorted(out))


def _best(state: CandidateState, g: _Grid, kind: str, ceiling: float, best):
    """The cheapest loop of one kind rated at most `ceiling` (and cheaper than `best`)."""
    y = kind != X
    x = kind != Y
    base = XY_CYCLE_RATING if kind == XY else CYCLE_RATING
    if base > ceiling:
        return best
    limit = [_limit(base, ceiling)]
    peers = peer_masks(state.shape)
    n = g.n
    for cell, m in enumerate(g.cand):
        if m.bit_count() < 2 or (kind == Y and m.bit_count() > 2):
            continue
        for k in bits(m):
            for loop in _loops(g, cell * n + k, y, x, limit):
                rating = round(base + length_bonus(len(loop)), 1)
                if best is not None and (rating, len(loop)) >= best[:2]:
                    continue
                elims = _eliminations(g, loop, peers)
                if elims:
                    best = (rating, len(loop), kind, loop, elims)
                    limit[0] = min(limit[0], len(loop))
    return best


def bidirectional_cycle(
    state: CandidateState, ceiling: float = 9.9, kinds: tuple[str, ...] = (X, Y, XY)
) -> Step | None:
    """The cheapest cycle of `kinds` (X, Y and XY-cycles) with eliminations, rated at
    most `ceiling`."""
    g = state.derived("cycle-links", _Grid)
    best = None
    for kind in kinds:
        cap = ceiling if best is None else best[0]
        best = _best(state, g, kind, cap, best)
    if best is None:
        return None
    rating, _, kind, loop, elims = best
    n, off = g.n, g.off
    chain = tuple(
        ((node if node < off else node - off) // n, (node if node < off else node - off) % n + 1)
        for node in loop
    )
    cells = tuple(dict.fromkeys(c for c, _ in chain))
    digits = tuple(sorted({d for _, d in chain}))
    return Step(
        "bidirectional_cycle",
        (),
        elims,
        cells,
        (),
        digits,
        rating,
        state.shape,
        chain,
        detail=(kind, tuple(node < off for node in loop)),
    )
