"""Forcing-chain branches: assume a candidate, follow what it forces, record why.

A *branch* assumes one candidate true (*on*) or false (*off*) and follows its
consequences on a private copy of the candidates, recording for every consequence
the facts that forced it:

- on(c, d) forces off for the other digits of c and for d in c's peers;
- off(c, d) forces on for the last digit of a cell (naked single) and the last place
  of a digit in a unit (hidden single).

A branch ends in a *contradiction* when a cell or a unit runs out of room for a
digit, or a candidate is forced both on and off.  How far a branch looks depends on
its mode: *static* singles need the cell or unit to have had two candidates or
places to begin with; *nishio* follows one digit only; *dynamic* singles are judged
on the branch's candidates; *plus* also uses locked candidates, then hidden pairs,
naked pairs and X-Wings (`inner_rules`), and the nested modes also forcing chains inside
the branch (`nested`).  `forcing` turns branches into steps; `closure` computes their
end states without recording causes.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Generator
from contextvars import ContextVar
from functools import cache
from itertools import compress
from operator import ne
from typing import NamedTuple

from solvers.grid import Shape
from solvers.human.state import CandidateState, cell_tables
from solvers.human.techniques.closure import Closure
from solvers.human.techniques.common import bits, crossings
from solvers.human.techniques.inner_rules import other_rules

STATIC, NISHIO, DYNAMIC, PLUS, NESTED, NESTED_MULTIPLE, NESTED_DYNAMIC = range(7)
"""Branch modes.  From `PLUS` on, a branch whose singles run dry uses other rules; from
`NESTED` on, forcing chains inside it (`nested`: static ones, static cell and region ones
too, or dynamic contradictions)."""


DEADLINE: ContextVar[float] = ContextVar("forcing_deadline", default=float("inf"))
"""The engine's deadline (``perf_counter`` seconds): a search can take seconds, so it looks."""


COMPILED: ContextVar[bool] = ContextVar("compiled_branches", default=True)
"""Whether dynamic, (+) and nested branches may be followed by the compiled kernel
(`compiled_branches`), and the static graph's reach taken from the static kernel
(`static_graph.compiled_reach`); the same results either way: tests compare the routes."""


class OutOfTime(Exception):
    """A forcing-chain search passed the engine's deadline."""


def check_time() -> None:
    """Raise `OutOfTime` once the engine's deadline has passed."""
    if time.perf_counter() >= DEADLINE.get():
        raise OutOfTime


class Branch(NamedTuple):
    """What an assumption forces: every fact with its causes, and the contradiction if any."""

    parents: dict[int, tuple[int, ...]]  # fact -> the facts that forced it
    conflict: tuple[int, ...] | None  # facts that cannot hold together
    inner: dict[int, tuple] | None = None  # nested facts -> (their inner chain, its complexity)


@cache
def se_tables(shape: Shape) -> tuple:
    """Sudoku Explainer's orders, per cell: its peers (its box's cells, then its row's,
    then its column's) and its units (box, row, column) as `cell_tables` gives them."""
    units, _ = cell_tables(shape)
    peers = []
    for cell, (row, col, box) in enumerate(shape.cell_units):
        seen: dict[int, None] = {}
        for u in (box, row, col):
            for c in shape.units[u]:
                if c != cell:
                    seen[c] = None
        peers.append(tuple(seen))
    return tuple(peers), tuple((us[2], us[0], us[1]) for us in units)


def new_cache(_state: CandidateState) -> dict:
    """An empty dict: the first value of a search's cache kept with `CandidateState.derived`
    (branches depend only on the grid and the mode, so searches of one mode share them)."""
    return {}


@cache
def _geometry(shape: Shape) -> tuple:
    """Per cell: its units as (unit, base index, position bit); per unit: its cells;
    per cell, its three units flattened as (unit, base index, ~position bit) * 3."""
    units, peers = cell_tables(shape)
    flat = tuple(tuple(x for u, base, at in us for x in (u, base, ~at)) for us in units)
    return units, peers, shape.units, flat


class Context:
    """The state a search starts from, and the node encoding.

    A node is ``cell * n + digit - 1`` for on(cell, digit), plus `off` for off.
    """

    def __init__(self, state: CandidateState) -> None:
        self.state = state
        self.n = state.n
        self.off = state.shape.ncells * state.n
        self.units, self.peers, self.unit_cells, self.flat = _geometry(state.shape)
        self.cand = state.cand
        self.pos = state.pos
        self.placed = state.placed
        # locked candidates in branches: for a unit and a digit's positions there, the
        # first crossing holding them all (`_locked`), kept in the solve's memo
        self.crossing_of = state.memo.table("locked-crossings", state.shape, 150)

    def name(self, node: int) -> str:
        """'r1c2=5' or 'r1c2<>5'."""
        on = node < self.off
        cell, k = divmod(node if on else node - self.off, self.n)
        return f"{self.state.shape.cell_name(cell)}{'=' if on else '<>'}{k + 1}"

    def branch(self, seeds: list[int], mode: int) -> Branch:
        """Follow the consequences of `seeds` (facts assumed) until nothing more follows."""
        found = self.follow(seeds, mode)
        if found is None:
            raise RuntimeError("a branch without a limit stopped early")
        return found

    def follow(self, seeds: list[int], mode: int, limit: int = 0) -> Branch | None:
        """`branch`, except that with a `limit` (modes below `PLUS`, breadth first) it stops,
        returning None, before a conflict resting on more than `limit` facts could be found."""
        if mode >= PLUS:
            return self._se_branch(seeds, mode)
        if mode == DYNAMIC and COMPILED.get():
            from solvers.human.techniques.compiled_branches import follow_dynamic

            done, found = follow_dynamic(self, seeds, limit)
            if done:
                return found
        steps = self.steps(seeds, mode)
        try:
            while True:
                depth = next(steps)
                if limit and depth + 1 > limit:
                    return None  # any conflict from here rests on more than `limit` facts
        except StopIteration as done:
            return done.value

    def steps(self, seeds: list[int], mode: int) -> Generator[int, None, Branch]:
        """`branch` as a generator: before it takes the facts `depth` links away from the
        seeds it yields `depth` (modes below `PLUS`; a conflict found from there rests on
        at least ``depth + 1`` facts), and it returns the branch."""
        if mode >= PLUS:
            return self._se_branch(seeds, mode)
        n = self.n
        off_base = self.off
        units = self.units
        peers = self.peers
        unit_cells = self.unit_cells
        start_cand = self.cand
        start_pos = self.pos
        cand = start_cand[:]
        pos = start_pos[:]
        placed = self.placed[:]
        parents: dict[int, tuple[int, ...]] = {}
        queue: list[int] = []
        static = mode == STATIC
        y_links = mode != NISHIO
        placed_cells: set[int] = set()  # cells the branch has placed a digit in

        def off(cell: int, k: int, why: tuple[int, ...]) -> tuple[int, ...] | None:
            node = off_base + cell * n + k
            if node in parents:
                return None
            on_node = cell * n + k
            if on_node in parents:
                parents[node] = why
                return (on_node, node)
            bit = 1 << k
            if not cand[cell] & bit:
                return None
            cand[cell] ^= bit
            for _, base, at in units[cell]:
                pos[base + k] &= ~at
            parents[node] = why
            queue.append(node)
            return None

        def on(cell: int, k: int, why: tuple[int, ...]) -> tuple[int, ...] | None:
            node = cell * n + k
            if node in parents:
                return None
            parents[node] = why
            if off_base + node in parents:
                return (node, off_base + node)
            placed_cells.add(cell)
            queue.append(node)
            return None

        if conflict := assume(seeds, on, off, n, off_base):
            return Branch(parents, conflict, None)
        qi = 0
        level_end = len(queue)  # where the facts one step further from the seeds start
        depth = 0
        flat = self.flat
        while qi < len(queue):
            if qi == level_end:
                depth += 1
                level_end = len(queue)
                yield depth
            # The facts `depth` links away, in the order found (`off` and `on` inlined
            # where hot: a candidate still in `cand` has no off fact yet).
            for node in queue[qi:level_end]:
                if node < off_base:  # on(cell, k)
                    cell = node // n
                    k = node - cell * n
                    bit = 1 << k
                    why: tuple[int, ...] = (node,)
                    if y_links:
                        m = cand[cell]
                        rest = m & ~bit
                        if rest:
                            cand[cell] = m ^ rest
                            _, b0, n0, _, b1, n1, _, b2, n2 = flat[cell]
                            at_on = cell * n
                            at_off = off_base + at_on
                            while rest:
                                low = rest & -rest
                                rest ^= low
                                j = low.bit_length() - 1
                                x = at_off + j
                                parents[x] = why
                                if at_on + j in parents:
                                    return Branch(parents, (at_on + j, x), None)
                                pos[b0 + j] &= n0
                                pos[b1 + j] &= n1
                                pos[b2 + j] &= n2
                                queue.append(x)
                    # off(p, k) for the peers
                    for p in peers[cell]:
                        if cand[p] & bit:
                            on_node = p * n + k
                            off_node = off_base + on_node
                            parents[off_node] = why
                            if on_node in parents:
                                return Branch(parents, (on_node, off_node), None)
                            cand[p] ^= bit
                            _, b0, n0, _, b1, n1, _, b2, n2 = flat[p]
                            pos[b0 + k] &= n0
                            pos[b1 + k] &= n1
                            pos[b2 + k] &= n2
                            queue.append(off_node)
                    u0, b0, n0, u1, b1, n1, u2, b2, n2 = flat[cell]
                    placed[u0] |= bit
                    placed[u1] |= bit
                    placed[u2] |= bit
                    pos[b0 + k] &= n0
                    pos[b1 + k] &= n1
                    pos[b2 + k] &= n2
                    continue
                cell = (node - off_base) // n
                k = node - off_base - cell * n
                bit = 1 << k
                # The last digit of the cell.
                if y_links and cell * n + k not in parents:
                    m = cand[cell]
                    if static:
                        first = start_cand[cell]
                        if first.bit_count() == 2:
                            e = (first ^ bit).bit_length() - 1
                            if conflict := on(cell, e, (node,)):
                                return Branch(parents, conflict, None)
                    elif not m & (m - 1) and cell not in placed_cells:
                        why = lost_in_cell(parents, start_cand[cell] & ~m, off_base + cell * n)
                        if not m:
                            return Branch(parents, emptied(parents, why, off_base), None)
                        if conflict := on(cell, m.bit_length() - 1, why):
                            return Branch(parents, conflict, None)
                if y_links and not static:
                    # Most often every unit of the cell still has two places for k.
                    _, b0, _, _, b1, _, _, b2, _ = flat[cell]
                    p = pos[b0 + k]
                    if p & (p - 1):
                        p = pos[b1 + k]
                        if p & (p - 1):
                            p = pos[b2 + k]
                            if p & (p - 1):
                                continue
                # The last place of the digit in each unit of the cell.
                for u, base, _ in units[cell]:
                    if placed[u] & bit:
                        continue
                    if static:
                        first = start_pos[base + k]
                        if first.bit_count() == 2:
                            cells = unit_cells[u]
                            for i in bits(first):
                                other = cells[i]
                                if other != cell and (conflict := on(other, k, (node,))):
                                    return Branch(parents, conflict, None)
                        continue
                    p = pos[base + k]
                    if p & (p - 1):
                        continue
                    cells = unit_cells[u]
                    if p and cells[p.bit_length() - 1] * n + k in parents:
                        continue  # found already (`on` would change nothing)
                    why = lost_in_unit(parents, start_pos[base + k] & ~p, cells, off_base + k, n)
                    if not p:
                        return Branch(parents, emptied(parents, why, off_base), None)
                    if conflict := on(cells[p.bit_length() - 1], k, why):
                        return Branch(parents, conflict, None)
            qi = level_end
        return Branch(parents, None, None)

    def _se_branch(self, seeds: list[int], mode: int) -> Branch:
        """`branch` from `PLUS` on, in Sudoku Explainer's order: every on fact waiting
        before the next off fact (two queues), an off fact taking effect on the candidates
        when it is taken (not when found), peers and units box first (for the causes it
        records); when the singles run dry, the other rules, then (nested modes) the
        chains inside the branch."""
        if mode <= NESTED_MULTIPLE and COMPILED.get():
            from solvers.human.techniques.compiled_branches import follow  # (it imports this)

            compiled = follow(self, seeds, mode)
            if compiled is not None:
                return compiled
        n = self.n
        off_base = self.off
        peers, hidden_units = se_tables(self.state.shape)
        unit_cells = self.unit_cells
        start_cand = self.cand
        start_pos = self.pos
        cand = start_cand[:]
        pos = start_pos[:]
        placed = self.placed[:]
        parents: dict[int, tuple[int, ...]] = {}
        ons: list[int] = []  # on facts found, in order (taken first)
        offs: list[int] = []  # off facts found, in order
        placed_cells: set[int] = set()  # cells the branch has placed a digit in
        looked: list[int] | None = None  # for `_locked`
        inner: dict[int, tuple] | None = {} if mode >= NESTED else None  # nested facts' inner

        def off(cell: int, k: int, why: tuple[int, ...]) -> tuple[int, ...] | None:
            node = off_base + cell * n + k
            if node in parents:
                return None
            on_node = cell * n + k
            if on_node in parents:
                parents[node] = why
                return (on_node, node)
            if not cand[cell] >> k & 1:
                return None
            parents[node] = why
            offs.append(node)
            return None

        def on(cell: int, k: int, why: tuple[int, ...]) -> tuple[int, ...] | None:
            node = cell * n + k
            if node in parents:
                return None
            parents[node] = why
            if off_base + node in parents:
                return (node, off_base + node)
            placed_cells.add(cell)
            ons.append(node)
            return None

        if conflict := assume(seeds, on, off, n, off_base):
            return Branch(parents, conflict, inner)
        i_on = i_off = 0
        flat = self.flat
        while True:
            while True:
                if i_on < len(ons):
                    node = ons[i_on]
                    i_on += 1
                    cell = node // n
                    k = node - cell * n
                    bit = 1 << k
                    why: tuple[int, ...] = (node,)
                    rest = cand[cell] & ~bit
                    if rest:
                        at_on = cell * n
                        at_off = off_base + at_on
                        while rest:
                            low = rest & -rest
                            rest ^= low
                            j = low.bit_length() - 1
                            x = at_off + j
                            if x in parents:
                                continue
                            parents[x] = why
                            if at_on + j in parents:
                                return Branch(parents, (at_on + j, x), inner)
                            offs.append(x)
                    # off(p, k) for the peers
                    for p in peers[cell]:
                        if cand[p] & bit:
                            on_node = p * n + k
                            off_node = off_base + on_node
                            if off_node in parents:
                                continue
                            parents[off_node] = why
                            if on_node in parents:
                                return Branch(parents, (on_node, off_node), inner)
                            offs.append(off_node)
                    u0, b0, n0, u1, b1, n1, u2, b2, n2 = flat[cell]
                    placed[u0] |= bit
                    placed[u1] |= bit
                    placed[u2] |= bit
                    pos[b0 + k] &= n0
                    pos[b1 + k] &= n1
                    pos[b2 + k] &= n2
                    continue
                if i_off == len(offs):
                    break
                node = offs[i_off]
                i_off += 1
                at = node - off_base
                cell = at // n
                k = at - cell * n
                bit = 1 << k
                m = cand[cell]
                _, b0, n0, _, b1, n1, _, b2, n2 = flat[cell]
                if m & bit:  # the off fact takes effect now
                    cand[cell] = m = m ^ bit
                    pos[b0 + k] &= n0
                    pos[b1 + k] &= n1
                    pos[b2 + k] &= n2
                # The last digit of the cell.
                if at not in parents and not m & (m - 1) and cell not in placed_cells:
                    why = lost_in_cell(parents, start_cand[cell] & ~m, off_base + cell * n)
                    if not m:
                        return Branch(parents, emptied(parents, why, off_base), inner)
                    if conflict := on(cell, m.bit_length() - 1, why):
                        return Branch(parents, conflict, inner)
                # Most often every unit of the cell still has two places for k.
                p = pos[b0 + k]
                if p & (p - 1):
                    p = pos[b1 + k]
                    if p & (p - 1):
                        p = pos[b2 + k]
                        if p & (p - 1):
                            continue
                # The last place of the digit in each unit of the cell.
                for u, base, _ in hidden_units[cell]:
                    if placed[u] & bit:
                        continue
                    p = pos[base + k]
                    if p & (p - 1):
                        continue
                    cells = unit_cells[u]
                    if p and cells[p.bit_length() - 1] * n + k in parents:
                        continue  # found already (`on` would change nothing)
                    why = lost_in_unit(parents, start_pos[base + k] & ~p, cells, off_base + k, n)
                    if not p:
                        return Branch(parents, emptied(parents, why, off_base), inner)
                    if conflict := on(cells[p.bit_length() - 1], k, why):
                        return Branch(parents, conflict, inner)
            if looked is None:  # (a unit's places as the branch began hold nothing new)
                looked = start_pos[:]
            found = self._locked(pos, placed, parents, off, looked)
            if found is None:  # hidden and naked pairs, X-Wings
                found = other_rules(self, cand, pos, parents, off)
            if found is None and mode == NESTED_DYNAMIC:
                found = self._nested(cand, pos, placed, parents, off, inner)
            elif found is None and inner is not None:
                from solvers.human.techniques.nested import chain_rules  # (it imports this)

                found = chain_rules(self, mode, cand, pos, placed, parents, off, inner)
            if found is None:
                break
            if isinstance(found, tuple):
                return Branch(parents, found, inner)
        return Branch(parents, None, inner)

    def _locked(self, pos, placed, parents, off, looked) -> tuple[int, ...] | None | bool:
        """Locked candidates inside a branch: False when something new followed, None when
        nothing did, a conflict when one arose.  `looked` holds, per unit and digit, the
        places it had when last looked at in this branch: nothing new can follow from them
        (what followed then removed what was outside the crossing, places are only ever
        lost, and the facts `why` names are the off facts of the places lost outside it,
        Sudoku Explainer's rule parents).  The branch takes its off facts later (`steps`),
        so all of them are found on the same candidates."""
        n = self.n
        off_base = self.off
        shape = self.state.shape
        box_lines, line_boxes = crossings(shape)
        look = self.crossing_of  # by unit << n | positions
        unit_cells = self.unit_cells
        start_pos = self.pos
        progress: tuple[int, ...] | None | bool = None
        found = []  # (Sudoku Explainer's order, k, outer, inner, places outside, why)
        for i in list(compress(range(len(pos)), map(ne, pos, looked))):
            p = looked[i] = pos[i]
            outer = i // n
            k = i - outer * n
            if not p or placed[outer] >> k & 1:
                continue
            hit = look.get(outer << n | p)
            if hit is None:  # the first crossing holding every place of k, if any
                crossing = box_lines[outer - 2 * n] if outer >= 2 * n else line_boxes[outer]
                hit = look[outer << n | p] = next(
                    (
                        (inner, in_outer, in_inner)
                        for inner, in_outer, in_inner in crossing
                        if not p & ~in_outer
                    ),
                    (),
                )
            if not hit:
                continue
            inner, in_outer, in_inner = hit
            outside = pos[inner * n + k] & ~in_inner
            if outside:
                gone = start_pos[i] & ~p & ~in_outer
                if not gone:
                    continue  # true before the branch: the engine applies it itself
                cells = unit_cells[outer]
                why = tuple(x for j in bits(gone) if (x := off_base + cells[j] * n + k) in parents)
                if not why:
                    continue
                # Sudoku Explainer's order: boxes on columns, boxes on rows, columns,
                # rows; by digit, then unit
                box = outer >= 2 * n
                order = (inner < n) if box else 2 + (outer < n)
                found.append((order, k, outer, inner, outside, why))
        found.sort()
        for _, k, _, inner, outside, why in found:
            inner_cells = unit_cells[inner]
            for i in bits(outside):
                if conflict := off(inner_cells[i], k, why):
                    return conflict
            progress = False
        return progress

    def _nested(self, cand, pos, placed, parents, off, inner) -> tuple[int, ...] | None | bool:
        """Dynamic contradictions inside a branch: a candidate that leads to one is off.
        (Whether a dynamic branch from the branch's candidates ends in a contradiction is
        what `Closure.facts` tells, without following it fact by fact.)  The fact rests
        on the outer facts the inner chain's singles needed (Sudoku Explainer's rule
        parents), and `inner` keeps the inner chain's complexity."""
        closure = Closure(self.state.shape, cand, self._placed_units(parents))
        n = self.n
        for cell, m in enumerate(cand):
            if not m or not m & (m - 1):
                continue
            check_time()
            for k in bits(m):
                node = cell * n + k
                if closure.facts(node) is None:
                    within = self.within(cand, pos, placed)
                    b = within.branch([node], DYNAMIC)
                    why = self._rule_parents(b, cand, pos, parents, node)
                    c = conflict_size(b.parents, b.conflict, DYNAMIC)
                    inner[self.off + node] = (self.off + node, c)
                    return off(cell, k, why) or False
        return None

    def within(self, cand: list[int], pos: list[int], placed: list[int]) -> Context:
        """This context on a branch's candidates (for the chains nested in it)."""
        inner = copy.copy(self)
        inner.cand = cand[:]
        inner.pos = pos[:]
        inner.placed = placed[:]
        inner.__dict__.pop("compiled_start", None)  # (the compiled route's start grid)
        return inner

    def _rule_parents(self, b: Branch, cand, pos, parents, seed: int) -> tuple[int, ...]:
        """The outer facts an inner branch rests on: for each single of the inner chain,
        the candidates of its cell (naked) or places of its unit (hidden) that the outer
        branch removed."""
        n = self.n
        off_base = self.off
        start_cand = self.cand
        start_pos = self.pos
        out: dict[int, None] = {}
        for x, why in b.parents.items():
            if x >= off_base or x == seed or not why:
                continue
            cell, k = divmod(x, n)
            if all(w >= off_base and (w - off_base) // n == cell for w in why):
                for j in bits(start_cand[cell] & ~cand[cell]):
                    y = off_base + cell * n + j
                    if y in parents:
                        out[y] = None
                continue
            cells_of_why = {(w - off_base) // n for w in why if w >= off_base}
            for u, base, _ in self.units[cell]:
                ucells = self.unit_cells[u]
                if cells_of_why <= set(ucells):
                    for i in bits(start_pos[base + k] & ~pos[base + k]):
                        y = off_base + ucells[i] * n + k
                        if y in parents:
                            out[y] = None
                    break
        return tuple(out)

    def _placed_units(self, parents: dict[int, tuple[int, ...]]) -> list[int]:
        placed = self.placed[:]
        n = self.n
        for node in parents:
            if node < self.off:
                cell, k = divmod(node, n)
                for u, _, _ in self.units[cell]:
                    placed[u] |= 1 << k
        return placed


def assume(seeds: list[int], on, off, n: int, off_base: int) -> tuple[int, ...] | None:
    """Add a branch's seeds as facts with no cause (`on` and `off`: the branch's own
    recorders): the first conflict among them, or None."""
    for seed in seeds:
        if seed < off_base:
            conflict = on(*divmod(seed, n), ())
        else:
            conflict = off(*divmod(seed - off_base, n), ())
        if conflict:
            return conflict
    return None


def lost_in_cell(parents: dict[int, tuple[int, ...]], gone: int, at: int) -> tuple[int, ...]:
    """The off facts a branch holds among a cell's candidates it lost (`gone`, a digit
    mask; `at`: the off node of the cell's first digit): what its single rests on."""
    facts = []
    while gone:
        low = gone & -gone
        gone ^= low
        x = at + low.bit_length() - 1
        if x in parents:
            facts.append(x)
    return tuple(facts)


def lost_in_unit(
    parents: dict[int, tuple[int, ...]], gone: int, cells, at: int, n: int
) -> tuple[int, ...]:
    """The off facts a branch holds among a unit's places it lost for a digit (`gone`, a
    place mask over `cells`; `at`: the off node of the digit in cell 0): what its hidden
    single rests on."""
    facts = []
    while gone:
        low = gone & -gone
        gone ^= low
        x = at + cells[low.bit_length() - 1] * n
        if x in parents:
            facts.append(x)
    return tuple(facts)


def emptied(parents: dict[int, tuple[int, ...]], offs: tuple[int, ...], off_base: int):
    """The contradiction of a cell or unit left without room (`offs`: its off facts), as
    Sudoku Explainer meets it: its rules see a clash of an on and an off fact, not an empty
    cell or unit.  All but one of the off facts force the last candidate on (recorded in
    `parents`) while that candidate is off, and the clash counts both sides (see
    `conflict_size`); of the ways to read it so, the cheapest."""
    if not offs:
        return offs
    each = [ancestors(parents, (x,)) for x in offs]  # (the rest's: the union of theirs)

    def size(i: int) -> int:
        rest: set[int] = set()
        for j, facts in enumerate(each):
            if j != i:
                rest |= facts
        return len(rest) + len(each[i])

    last = offs[min(range(len(offs)), key=size)]
    on = last - off_base
    parents[on] = tuple(x for x in offs if x != last)
    return (on, last)


def conflict_size(
    parents: dict[int, tuple[int, ...]], conflict, mode: int, chain: set[int] | None = None
) -> int:
    """The complexity of a contradiction as Sudoku Explainer counts it.

    Its static chains are one chain, from the assumption to its negation: the facts it
    rests on.  Its nishio and dynamic chains are two, the on and the off fact that
    clash, each counted with every fact it rests on, so that the facts both rest on
    count twice."""
    if mode != STATIC and conflict is not None and len(conflict) == 2:
        return len(ancestors(parents, conflict[:1])) + len(ancestors(parents, conflict[1:]))
    return len(chain if chain is not None else ancestors(parents, conflict or ()))


def ancestors(parents: dict[int, tuple[int, ...]], nodes) -> set[int]:
    """The facts `nodes` rest on, themselves included."""
    seen = set(nodes)
    fresh = seen
    while fresh:
        found: set[int] = set()
        for node in fresh:
            found.update(parents.get(node, ()))
        fresh = found - seen
        seen |= fresh
    return seen
