"""HoDoKu's forcing chains and forcing nets, for the HoDoKu-order pass.

HoDoKu finds both with tables (Trebor's tables): for every candidate, taken true
(*on*) and taken false (*off*), the table lists what that premise implies; each
table is then closed under the others (whatever an implied premise implies is
implied too), and a premise whose table holds a contradiction is false, while a
conclusion that every premise of a set that must hold one true (a candidate's on
and off, a cell's candidates, a digit's places in a unit) implies is true.
The two kinds differ only in what a table holds before the closure:

- forcing chains: the premise's direct links: on, its cell's other candidates
  and its digit's peers are off; off, the cell's other candidate (a bivalue
  cell) and the digit's other place in a unit (a conjugate pair) are on;
- forcing nets: the premise applied to a copy of the grid, followed by up to
  `LOOK_AHEAD` rounds of every naked and hidden single, each recorded (a
  single reached from several eliminations is where a chain becomes a net).

Both add HoDoKu's group nodes (two or three places of a digit in one box and one
line) with their weak and strong links.  A contradiction is an on and an off of
the same candidate (two digits in a cell or twice a digit in a unit come down to
that through the closure), a cell whose every candidate goes off, or a unit
whose every place of a digit goes off (HoDoKu counts here the places the placed
digits leave, whatever techniques removed since).

HoDoKu scores such a step by its kind alone (500 a chain, 700 a net) and takes,
of all the conclusions, a placement first, in the lowest cell, then the
elimination in the lowest cell, lowest digit; so this module only needs the set
of conclusions, not the chains: every table's closure is the set of literals
reachable in the graph of direct implications, computed once per state by its
strongly connected components.  Forcing nets are asked only where forcing chains
found nothing (the pass's order), so every net conclusion is a net for HoDoKu
too.  HoDoKu's limit of 1000 entries a table is not modelled.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from functools import cache
from typing import Any

from solvers.grid import Shape
from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.closure import digit_cells, tables
from solvers.human.techniques.common import bits

LOOK_AHEAD = 4
"""Rounds of singles a forcing net's table looks ahead (HoDoKu's default net depth)."""


DigitBits = Sequence[tuple[int, ...]] | dict[int, tuple[int, ...]]
"""`bits` of digit masks, indexed by the mask."""


def digit_bits(n: int) -> DigitBits:
    """`bits` of every digit mask of a grid of size n, indexed by the mask."""
    if n <= 12:
        return _all_digit_bits(n)
    return _DigitBits()


@cache
def _all_digit_bits(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(bits(m)) for m in range(1 << n))


class _DigitBits(dict):
    """`bits` of digit masks, filled as they are asked for (grids too large to list all)."""

    def __missing__(self, mask: int) -> tuple[int, ...]:
        found = self[mask] = tuple(bits(mask))
        return found


class Tables:
    """The literals of one state and their direct implications.

    Literal numbering: candidate (cell, digit d, 0-based) *on* is ``d * N + cell``,
    *off* is ``OFF + d * N + cell`` (``N`` cells, ``OFF = n * N``), so a table's
    ons and offs of one digit are two slices of one integer; group nodes follow
    from ``2 * OFF``, each an on and an off.
    """

    def __init__(self, state: CandidateState, nets: bool) -> None:
        shape = state.shape
        self.n = n = state.n
        self.N = N = shape.ncells
        self.off = OFF = n * N
        self.cell_mask = (1 << N) - 1
        self.cand = list(state.cand)
        self.values = list(state.values)
        unit_masks, peer_masks, _ = tables(shape)
        self.unit_masks = unit_masks
        self.cell_units = shape.cell_units
        self.peer_masks = peer_masks
        self.pos = digit_cells(self.cand, n)  # per digit, the cells taking it
        self.digit_bits = digit_bits(n)
        self.open = sum(1 << c for c, v in enumerate(self.values) if not v)
        self.succ: list[int] = [0] * (2 * OFF)
        self.literals: list[int] = []
        for c, m in enumerate(self.cand):
            for d in bits(m):
                self.literals += [d * N + c, OFF + d * N + c]
                if nets:
                    self.succ[d * N + c] = self.look_ahead(c, d, True)
                    if self.chain_off(c, d):  # else nothing follows the premise
                        self.succ[OFF + d * N + c] = self.look_ahead(c, d, False)
                else:
                    self.succ[d * N + c] = self.chain_on(c, d)
                    self.succ[OFF + d * N + c] = self.chain_off(c, d)
        self.add_group_nodes(state)

    # -- direct implications ---------------------------------------------
    def chain_on(self, c: int, d: int) -> int:
        """On: the cell's other candidates and the digit's peers go off."""
        N, OFF = self.N, self.off
        out = (self.pos[d] & self.peer_masks[c]) << (OFF + d * N)
        for e in bits(self.cand[c] & ~(1 << d)):
            out |= 1 << (OFF + e * N + c)
        return out

    def chain_off(self, c: int, d: int) -> int:
        """Off: a bivalue cell's other candidate and a conjugate place go on."""
        N = self.N
        out = 0
        m = self.cand[c] & ~(1 << d)
        if m and not m & (m - 1):
            out |= 1 << ((m.bit_length() - 1) * N + c)
        here = self.pos[d]
        for u in self.cell_units[c]:
            places = here & self.unit_masks[u]
            if places.bit_count() == 2:
                out |= (places & ~(1 << c)) << (d * N)
        return out

    def look_ahead(self, c0: int, d0: int, on: bool) -> int:
        """A net's table: the premise applied to a copy, then rounds of singles, each
        placement recording its on and its offs (the peers that held the digit before
        the premise, the cell's candidates left at the time)."""
        N, OFF = self.N, self.off
        base_pos, peer_masks, unit_masks, cell_units = (
            self.pos,
            self.peer_masks,
            self.unit_masks,
            self.cell_units,
        )
        digit_bits = self.digit_bits
        cand = self.cand[:]
        pos = base_pos[:]
        found: list[tuple[int, int, bool]] = []  # (cell, digit, naked) as they appear
        out = 0

        def place(c: int, d: int) -> int:
            rec = (1 << (d * N + c)) | ((base_pos[d] & peer_masks[c]) << (OFF + d * N))
            m = cand[c]
            cand[c] = 0
            keep = ~(1 << c)
            units = cell_units[c]
            for e in digit_bits[m]:
                here = pos[e] = pos[e] & keep
                if e == d:
                    continue
                rec |= 1 << (OFF + e * N + c)
                for u in units:  # the hidden singles of the cell's lost candidates
                    places = here & unit_masks[u]
                    if places and not places & (places - 1):
                        found.append((places.bit_length() - 1, e, False))
            gone = pos[d] & peer_masks[c]
            here = pos[d] = pos[d] & ~gone
            keep = ~(1 << d)
            while gone:  # the peers losing the digit: naked and hidden singles
                low = gone & -gone
                gone ^= low
                p = low.bit_length() - 1
                m = cand[p] = cand[p] & keep
                if m and not m & (m - 1):
                    found.append((p, m.bit_length() - 1, True))
                for u in cell_units[p]:
                    places = here & unit_masks[u]
                    if places and not places & (places - 1):
                        found.append((places.bit_length() - 1, d, False))
            return rec

        if on:
            out = place(c0, d0)
        else:
            out = 1 << (OFF + d0 * N + c0)
            m = cand[c0] = cand[c0] & ~(1 << d0)
            here = pos[d0] = pos[d0] & ~(1 << c0)
            if m and not m & (m - 1):
                found.append((c0, m.bit_length() - 1, True))
            for u in cell_units[c0]:
                places = here & unit_masks[u]
                if places and not places & (places - 1):
                    found.append((places.bit_length() - 1, d0, False))
            if m and not m & (m - 1):
                out |= place(c0, m.bit_length() - 1)
        for _ in range(LOOK_AHEAD):
            naked = []
            hidden = []
            seen: set[int] = set()
            for c, d, is_naked in found:
                m = cand[c]
                if not m >> d & 1:
                    continue
                if is_naked:
                    if not m & (m - 1):
                        naked.append((c, d))
                elif c not in seen:
                    here = pos[d]
                    alone = 1 << c
                    for u in cell_units[c]:
                        if here & unit_masks[u] == alone:
                            seen.add(c)
                            hidden.append((c, d))
                            break
            if not naked and not hidden:
                break
            found = []
            for c, d in dict.fromkeys(naked + hidden):
                out |= place(c, d)
        return out

    def add_group_nodes(self, state: CandidateState) -> None:
        """HoDoKu's group nodes (`group_links`, kept for the state: the forcing nets ask
        for them where the forcing chains just did)."""
        count, links = state.derived("hodoku-group-links", group_links)
        succ = self.succ
        succ.extend([0] * (2 * count))
        for node, mask in links:
            succ[node] |= mask

    # -- closure ------------------------------------------------------------
    def closures(self) -> list[int]:
        """Every literal's table closed: the literals reachable from it (itself
        included), by Tarjan's strongly connected components (iterative), each
        component's reach the union of the reaches below it.  Visited and stacked
        literals are bitmasks, so an edge to a finished component costs nothing."""
        succ = self.succ
        total = len(succ)
        index = [0] * total
        low = [0] * total
        reach = [0] * total
        visited = 0
        stacked = 0
        stack: list[int] = []
        counter = 0
        for root in self.literals + list(range(2 * self.off, total)):
            if visited >> root & 1:
                continue
            index[root] = low[root] = counter
            counter += 1
            visited |= 1 << root
            stacked |= 1 << root
            stack.append(root)
            work = [root]
            while work:
                v = work[-1]
                fresh = succ[v] & ~visited
                if fresh:
                    w = (fresh & -fresh).bit_length() - 1
                    index[w] = low[w] = counter
                    counter += 1
                    visited |= 1 << w
                    stacked |= 1 << w
                    stack.append(w)
                    work.append(w)
                    continue
                work.pop()
                lv = low[v]
                back = succ[v] & stacked
                while back:
                    b = back & -back
                    back ^= b
                    i = index[b.bit_length() - 1]
                    if i < lv:
                        lv = i
                low[v] = lv
                if work:
                    u = work[-1]
                    if lv < low[u]:
                        low[u] = lv
                if lv != index[v]:
                    continue
                members = []
                r = 0
                while True:
                    w = stack.pop()
                    members.append(w)
                    r |= 1 << w
                    if w == v:
                        break
                stacked &= ~r
                for w in members:
                    rest = succ[w] & ~r
                    while rest:
                        r |= reach[(rest & -rest).bit_length() - 1]
                        rest &= ~r
                for w in members:
                    reach[w] = r
        return reach


def group_links(state: CandidateState) -> tuple[int, tuple[tuple[int, int], ...]]:
    """HoDoKu's group nodes of a state: for each digit, its two or three places in a line
    and a box (the line's places in the box), with their links to single candidates
    and to the other group nodes of the digit; as the number of groups and the links
    (a node, the nodes it implies) to add to a table's direct implications, whose
    literals they number from ``2 * OFF`` (see `Tables`)."""
    n, N = state.n, state.shape.ncells
    OFF = n * N
    units, _, _ = tables(state.shape)
    pos = digit_cells(list(state.cand), n)
    groups = []  # (digit, cells, line unit, box unit)
    for d in range(n):
        here = pos[d]
        for line in range(2 * n):
            in_line = here & units[line]
            if in_line.bit_count() < 2:
                continue
            for box in range(2 * n, 3 * n):
                cells = in_line & units[box]
                if cells.bit_count() >= 2:
                    groups.append((d, cells, line, box))
    by_house: dict[tuple[int, int], list[int]] = {}
    for g, (d, _, line, box) in enumerate(groups):
        by_house.setdefault((d, line), []).append(g)
        by_house.setdefault((d, box), []).append(g)
    succ: dict[int, int] = {}

    def link(node: int, mask: int) -> None:
        succ[node] = succ.get(node, 0) | mask

    base = 2 * OFF
    for g, (d, cells, line, box) in enumerate(groups):
        g_on, g_off = base + 2 * g, base + 2 * g + 1
        seeing = (units[line] | units[box]) & ~cells
        visible = pos[d] & seeing
        link(g_on, visible << (OFF + d * N))
        for v in bits(visible):
            link(d * N + v, 1 << g_off)
        for house in (box, line):
            only = visible & units[house]
            if only and not only & (only - 1):
                link(g_off, only << (d * N))
                link(OFF + d * N + only.bit_length() - 1, 1 << g_on)
        others: dict[int, list[int]] = {line: [], box: []}
        for house in (line, box):
            for h in by_house[d, house]:
                if h != g and not cells & groups[h][1]:
                    others[house].append(h)
                    link(g_on, 1 << (base + 2 * h + 1))
        for house, hs in others.items():
            if len(hs) == 1:
                h = hs[0]
                rest = pos[d] & units[house] & ~cells & ~groups[h][1]
                if not rest:
                    link(g_off, 1 << (base + 2 * h))
    return len(groups), tuple(succ.items())


class Conclusions:
    """The tables' conclusions as HoDoKu ranks them: a placement in the lowest cell first,
    then the elimination in the lowest cell, lowest digit (placements and eliminations
    of one candidate each)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.placement: tuple[int, int] | None = None
        self.elimination: tuple[int, int] | None = None
        n, N, OFF = tables.n, tables.N, tables.off
        self.lit_mask = (1 << (2 * OFF)) - 1
        self.on_mask = (1 << OFF) - 1
        self.cell_ons = [sum(1 << (d * N + c) for d in range(n)) for c in range(N)]
        self.cell_lits = [m | m << OFF for m in self.cell_ons]
        # the sets of offs that make a contradiction together (a cell's candidates, a
        # unit's places of a digit), filed under their lowest off (offset from OFF):
        # only units whose every allowed place is still a candidate can go empty in a table
        self.emptiable: dict[int, list[int]] = {}
        allowed = _allowed(tables)
        for c, m in enumerate(tables.cand):
            if m:
                self.file(sum(1 << (d * N + c) for d in bits(m)))
        for d in range(n):
            for u in tables.unit_masks:
                m = allowed[d] & u
                if m and not m & ~tables.pos[d]:
                    self.file(m << (d * N))
        self.witnesses = sum(1 << b for b in self.emptiable)

    def file(self, offs: int) -> None:
        self.emptiable.setdefault((offs & -offs).bit_length() - 1, []).append(offs)

    def place(self, c: int, d: int) -> None:
        if self.placement is None or (c, d) < self.placement:
            self.placement = (c, d)

    def eliminate(self, c: int, d: int) -> None:
        if self.elimination is None or (c, d) < self.elimination:
            self.elimination = (c, d)

    def contradictory(self, r: int) -> bool:
        """Whether a table holds a contradiction: an on and an off of one candidate, a
        cell with every candidate off, a unit with a digit's every place off (a cell or
        unit with an on too has an on and an off of one candidate)."""
        OFF = self.tables.off
        ons = r & self.on_mask
        offs = r >> OFF & self.on_mask
        if ons & offs:
            return True
        rest = offs & self.witnesses
        while rest:
            low = rest & -rest
            rest ^= low
            for m in self.emptiable[low.bit_length() - 1]:
                if not m & ~offs:
                    return True
        return False

    def conclude(self, r: int) -> None:
        """Every on of `r` is a placement, every off an elimination."""
        N, OFF = self.tables.N, self.tables.off
        rest = r & self.lit_mask
        while rest:
            low = rest & -rest
            rest ^= low
            b = low.bit_length() - 1
            if b < OFF:
                self.place(b % N, b // N)
            else:
                self.eliminate((b - OFF) % N, (b - OFF) // N)


def _conclusion(tables: Tables, reach: list[int]) -> tuple[int, int, bool] | None:
    """HoDoKu's pick among the tables' conclusions (see `Conclusions`): (cell, digit,
    placed), or None when the tables conclude nothing.  Contradictions come from single
    tables, verities from a candidate's on and off (outside its cell), from a cell's
    candidates and from a digit's places in a unit."""
    N, OFF = tables.N, tables.off
    found = Conclusions(tables)
    for c, m in enumerate(tables.cand):
        if not m:
            continue
        common = -1
        for d in bits(m):
            r_on, r_off = reach[d * N + c], reach[OFF + d * N + c]
            # (a contradiction matters only where it would be the pick: a placement
            # before any found, an elimination before any found while none is placed)
            first = found.placement
            if first is None:
                last = found.elimination
                if (last is None or (c, d) < last) and found.contradictory(r_on):
                    found.eliminate(c, d)
            if (first is None or (c, d) < first) and found.contradictory(r_off):
                found.place(c, d)
            found.conclude(r_on & r_off & ~found.cell_lits[c])
            common &= r_on
        found.conclude(common)
    for d in range(tables.n):
        here = tables.pos[d]
        for u in tables.unit_masks:
            places = here & u
            if places:
                common = -1
                for c in bits(places):
                    common &= reach[d * N + c]
                found.conclude(common)
    if found.placement is not None:
        c, d = found.placement
        return c, d + 1, True
    if found.elimination is not None:
        c, d = found.elimination
        return c, d + 1, False
    return None


def _allowed(tables: Tables) -> list[int]:
    """Per digit, the open cells no placed copy of it sees (HoDoKu's places for a unit's
    contradiction, blind to the eliminations of techniques)."""
    out = []
    for d in range(tables.n):
        m = tables.open
        for c, v in enumerate(tables.values):
            if v == d + 1:
                m &= ~tables.peer_masks[c]
        out.append(m)
    return out


def table_conclusion(state: CandidateState, nets: bool) -> tuple[int, int, bool] | None:
    """HoDoKu's pick among the conclusions of the state's tables (`_conclusion`), in
    Python: (cell, digit, placed), or None."""
    tables = Tables(state, nets)
    return _conclusion(tables, tables.closures())


def tabled_step(state: CandidateState, nets: bool) -> Step | None:
    """HoDoKu's forcing chain (`nets` False) or forcing net step in this state, or None
    (compiled where `compiled_fits` says so, with the same pick)."""
    if compiled_fits(state.shape):
        found = compiled_conclusion(state, nets)
    else:
        found = table_conclusion(state, nets)
    if found is None:
        return None
    cell, digit, placed = found
    name = "hodoku_forcing_net" if nets else "hodoku_forcing_chain"
    pair = ((cell, digit),)
    if placed:
        return Step(name, pair, (), (cell,), (), (digit,), 0.0, state.shape)
    return Step(name, (), pair, (cell,), (), (digit,), 0.0, state.shape)


COMPILED = (
    importlib.util.find_spec("numba") is not None and importlib.util.find_spec("numpy") is not None
)
"""Whether the compiled tables (`solvers.human.hodoku_kernel`) can run: numba is installed."""


def compiled_fits(shape: Shape) -> bool:
    """Whether this grid's tables run compiled: numba installed, nine digits or fewer and
    boxes of three cells or fewer a side (a group node holds three cells at most)."""
    return COMPILED and shape.size <= 9 and max(shape.box_rows, shape.box_cols) <= 3


def compiled_conclusion(state: CandidateState, nets: bool) -> tuple[int, int, bool] | None:
    """`_conclusion` of the state's tables, computed by the compiled kernel."""
    import numpy as np

    from solvers.human.hodoku_kernel import tabled

    units, cell_units, peers = _kernel_geometry(state.shape)
    cand = np.array(state.cand, dtype=np.int64)
    values = np.array(state.values, dtype=np.int64)
    cell, digit, placed = tabled(cand, values, nets, LOOK_AHEAD, units, cell_units, peers)
    if cell < 0:
        return None
    return int(cell), int(digit), bool(placed)


@cache
def _kernel_geometry(shape: Shape) -> tuple[Any, Any, Any]:
    """The shape's units (cells per unit), each cell's units (row, column, box) and its
    peers in cell order, as NumPy arrays for the kernel."""
    import numpy as np

    units = np.array(shape.units, dtype=np.int64)
    cell_units = np.array(shape.cell_units, dtype=np.int64)
    peers = np.array([sorted(p) for p in shape.peers], dtype=np.int64)
    return units, cell_units, peers


def forcing_chain(state: CandidateState) -> Step | None:
    """HoDoKu's forcing chain (contradiction or verity) in this state, or None."""
    return tabled_step(state, False)


def forcing_net(state: CandidateState) -> Step | None:
    """HoDoKu's forcing net (contradiction or verity) in this state, or None."""
    return tabled_step(state, True)
