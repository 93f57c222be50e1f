"""Forcing chains, the Sudoku Explainer way: assume a candidate, follow what it forces.

Every technique here assumes one candidate true (*on*) or false (*off*) and
follows its consequences on a private copy of the candidates — a *branch* —
recording for every consequence the facts that forced it:

- on(c, d) forces off for the other digits of c and for d in c's peers;
- off(c, d) forces on for the last digit of a cell (naked single) and the
  last place of a digit in a unit (hidden single).

A branch ends in a *contradiction* when a cell or a unit runs out of room
for a digit, or a candidate is forced both on and off; then the assumption
was wrong.  When every digit of a cell (every place of a digit in a unit)
forces the same fact, the fact is true.  And when a candidate forces a fact
both when it is on and when it is off, the fact is true.

The kinds, easiest first, with Sudoku Explainer's base ratings:

- ``forcing_chain`` (7.0; 6.6 when the chain stays on one digit): one
  candidate's *static* consequences (a single needs the cell or unit to have
  had two candidates or places to begin with) reach a contradiction;
- ``nishio`` (7.5): one digit only, dynamic (singles judged on the branch's
  candidates), a contradiction;
- ``cell_forcing_chain``, ``region_forcing_chain`` (8.0): static
  consequences of every digit of a cell, or every place of a digit in a
  unit, agree;
- ``dynamic_forcing_chain`` (8.5): dynamic consequences, all the forms
  above plus both states of one candidate agreeing;
- ``dynamic_forcing_chain_plus`` (9.0): branches also use locked candidates;
- ``nested_forcing_chain`` (9.5): branches also use dynamic contradictions
  (a candidate of the branch that leads to a contradiction is off).

The rating adds the chain length the Sudoku-Explainer way: the *complexity*
is the number of facts the conclusion rests on (its ancestors in the
branches), and `length_bonus` turns it into tenths.  Every candidate is
tried and the conclusion with the lowest rating (then the smallest
complexity, then the lowest cell) is returned, so chains are found shortest
first; the nested kind returns its first conclusion (its search is costly).
Nothing here assumes a unique solution: each conclusion holds in every
solution.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from contextvars import ContextVar
from functools import cache
from typing import NamedTuple

from solvers.grid import Shape
from solvers.human.state import CandidateState, cell_tables
from solvers.human.step import Step
from solvers.human.techniques.chains import length_bonus
from solvers.human.techniques.closure import (
    Closure,
    changed_mask,
    digit_cells,
    placed_units,
    since,
)
from solvers.human.techniques.common import bits, crossings
from solvers.human.techniques.one_digit import conflicting_cells
from solvers.human.techniques.static_graph import StaticGraph, static_graph

FORCING_RATING = 7.0
X_FORCING_RATING = 6.6
NISHIO_RATING = 7.5
MULTIPLE_RATING = 8.0
DYNAMIC_RATING = 8.5
PLUS_RATING = 9.0
NESTED_RATING = 9.5

STATIC, NISHIO, DYNAMIC, PLUS, NESTED = range(5)

DEADLINE: ContextVar[float] = ContextVar("forcing_deadline", default=float("inf"))
"""The engine's deadline (``perf_counter`` seconds): a search can take seconds, so it looks."""


class OutOfTime(Exception):
    """A forcing-chain search passed the engine's deadline."""


def _check_time() -> None:
    if time.perf_counter() >= DEADLINE.get():
        raise OutOfTime


class Branch(NamedTuple):
    """What an assumption forces: every fact with its causes, and the contradiction if any."""

    parents: dict[int, tuple[int, ...]]  # fact -> the facts that forced it
    conflict: tuple[int, ...] | None  # facts that cannot hold together


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
        self.crossing_of = state.memo.table("locked-crossing", state.shape, 150)

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
        looked: list[int] | None = None  # for `_locked`

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

        conflict = None
        for seed in seeds:
            if seed < off_base:
                conflict = on(*divmod(seed, n), ())
            else:
                conflict = off(*divmod(seed - off_base, n), ())
            if conflict:
                return Branch(parents, conflict)
        qi = 0
        level_end = len(queue)  # where the facts one step further from the seeds start
        depth = 0
        flat = self.flat
        while True:
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
                                        return Branch(parents, (at_on + j, x))
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
                                    return Branch(parents, (on_node, off_node))
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
                                    return Branch(parents, conflict)
                        elif not m & (m - 1) and cell not in placed_cells:
                            gone = start_cand[cell] & ~m
                            at_cell = off_base + cell * n - 1
                            facts = []
                            while gone:
                                low = gone & -gone
                                gone ^= low
                                x = at_cell + low.bit_length()
                                if x in parents:
                                    facts.append(x)
                            why = tuple(facts)
                            if not m:
                                return Branch(parents, _emptied(parents, why, off_base))
                            if conflict := on(cell, m.bit_length() - 1, why):
                                return Branch(parents, conflict)
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
                                        return Branch(parents, conflict)
                            continue
                        p = pos[base + k]
                        if p & (p - 1):
                            continue
                        cells = unit_cells[u]
                        if p and cells[p.bit_length() - 1] * n + k in parents:
                            continue  # found already (`on` would change nothing)
                        gone = start_pos[base + k] & ~p
                        facts = []
                        while gone:
                            low = gone & -gone
                            gone ^= low
                            x = off_base + cells[low.bit_length() - 1] * n + k
                            if x in parents:
                                facts.append(x)
                        why = tuple(facts)
                        if not p:
                            return Branch(parents, _emptied(parents, why, off_base))
                        if conflict := on(cells[p.bit_length() - 1], k, why):
                            return Branch(parents, conflict)
                qi = level_end
            if mode < PLUS:
                break
            if looked is None:
                looked = [-1] * len(pos)
            found = self._locked(pos, placed, parents, off, looked)
            if found is None and mode == NESTED:
                found = self._nested(cand, parents, off)
            if found is None:
                break
            if isinstance(found, tuple):
                return Branch(parents, found)
        return Branch(parents, None)

    def _locked(self, pos, placed, parents, off, looked) -> tuple[int, ...] | None | bool:
        """Locked candidates inside a branch: False when something new followed, None when
        nothing did, a conflict when one arose.  `looked` holds, per unit and digit, the
        places it had when last looked at in this branch: nothing new can follow from them
        (what followed then removed what was outside the crossing, places are only ever
        lost, and the facts `why` names are the off facts of the places lost)."""
        n = self.n
        off_base = self.off
        shape = self.state.shape
        box_lines, line_boxes = crossings(shape)
        look = self.crossing_of  # by unit << n | positions
        unit_cells = self.unit_cells
        start_pos = self.pos
        progress: tuple[int, ...] | None | bool = None
        for outer in range(3 * n):
            at_outer = outer * n
            if pos[at_outer : at_outer + n] == looked[at_outer : at_outer + n]:
                continue
            at_look = outer << n
            placed_outer = placed[outer]
            for k in range(n):
                p = pos[at_outer + k]
                if p == looked[at_outer + k]:
                    continue
                looked[at_outer + k] = p
                if not p or placed_outer >> k & 1:
                    continue
                hit = look.get(at_look | p)
                if hit is None:  # the first crossing holding every place of k, if any
                    crossing = box_lines[outer - 2 * n] if outer >= 2 * n else line_boxes[outer]
                    hit = look[at_look | p] = next(
                        (
                            (inner, in_inner)
                            for inner, in_outer, in_inner in crossing
                            if not p & ~in_outer
                        ),
                        (),
                    )
                if not hit:
                    continue
                inner, in_inner = hit
                outside = pos[inner * n + k] & ~in_inner
                if outside:
                    cells = unit_cells[outer]
                    why = tuple(
                        off_base + cells[i] * n + k
                        for i in bits(start_pos[at_outer + k] & ~p)
                        if off_base + cells[i] * n + k in parents
                    )
                    if not why:
                        continue  # true before the branch: the engine applies it itself
                    inner_cells = unit_cells[inner]
                    for i in bits(outside):
                        if conflict := off(inner_cells[i], k, why):
                            return conflict
                    progress = False
        return progress

    def _nested(self, cand, parents, off) -> tuple[int, ...] | None | bool:
        """Dynamic contradictions inside a branch: a candidate that leads to one is off.
        (Whether a dynamic branch from the branch's candidates ends in a contradiction is
        what `Closure.facts` tells, without following it fact by fact.)"""
        closure = Closure(self.state.shape, cand, self._placed_units(parents))
        n = self.n
        for cell, m in enumerate(cand):
            if not m or not m & (m - 1):
                continue
            _check_time()
            for k in bits(m):
                if closure.facts(cell * n + k) is None:
                    return off(cell, k, ()) or False
        return None

    def _placed_units(self, parents: dict[int, tuple[int, ...]]) -> list[int]:
        placed = self.placed[:]
        n = self.n
        for node in parents:
            if node < self.off:
                cell, k = divmod(node, n)
                for u, _, _ in self.units[cell]:
                    placed[u] |= 1 << k
        return placed


def _emptied(parents: dict[int, tuple[int, ...]], offs: tuple[int, ...], off_base: int):
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


def _chain(chains: dict, seed: int, b: Branch, mode: int) -> tuple[set[int], int]:
    """The facts the conflict of `b`, the branch of `seed`, rests on, and its complexity
    (`conflict_size`), memoised in `chains`."""
    found = chains.get(seed)
    if found is None:
        conflict = b.conflict or ()
        if mode != STATIC and len(conflict) == 2:  # two sides (`conflict_size`)
            on = ancestors(b.parents, conflict[:1])
            off = ancestors(b.parents, conflict[1:])
            found = chains[seed] = (on | off, len(on) + len(off))
        else:
            chain = ancestors(b.parents, conflict)
            found = chains[seed] = (chain, len(chain))
    return found


class Finding(NamedTuple):
    """A conclusion and what it rests on, before it becomes a `Step`."""

    rating: float
    complexity: int
    target: int  # the node concluded true
    kind: str  # contradiction | both | cell | region
    source: tuple[int, ...]  # the assumed nodes (a cell's digits, a unit's places, one node)
    chain: tuple[int, ...]  # the facts it rests on, in the order found


def _useful(ctx: Context, node: int) -> bool:
    """Whether concluding `node` true changes the real grid."""
    n = ctx.n
    if node < ctx.off:
        cell, k = divmod(node, n)
        return bool(ctx.cand[cell] >> k & 1)
    cell, k = divmod(node - ctx.off, n)
    return bool(ctx.cand[cell] >> k & 1)


def _opposite(ctx: Context, node: int) -> int:
    return node + ctx.off if node < ctx.off else node - ctx.off


def cannot_be_unique(state: CandidateState) -> bool:
    """True when the placed digits already show the puzzle has no single solution.

    Two digits that appear nowhere could be swapped in any solution, and a 9x9
    puzzle with fewer than 17 clues is never unique (McGuire, Tugemann and
    Civario, 2012).  Logic cannot finish such a puzzle, so the forcing chains,
    which search every candidate, are not worth their seconds there (an empty
    grid took minutes); every other technique still runs.
    """
    placed = [v for v in state.values if v]
    if len(set(placed)) < state.n - 1:
        return True
    return state.n == 9 and len(placed) < 17


def _search(state: CandidateState, mode: int, kinds: frozenset[str], base: float) -> Step | None:
    """The best conclusion of the given kinds, or None."""
    if cannot_be_unique(state):
        return None
    ctx = Context(state)
    if mode == STATIC:  # static chains have searches of their own
        if kinds == _CONTRADICTION:
            return _static_contradictions(state, ctx, base)
        if kinds <= _AGREEMENTS:
            return _agreements(state, ctx, kinds, base)
        raise ValueError(f"no static search for {sorted(kinds)}")
    if mode == NISHIO and kinds == _CONTRADICTION:
        return _contradictions(state, ctx, mode, base)
    n = ctx.n
    off_base = ctx.off
    cand = state.cand
    best: Finding | None = None
    # Branches depend only on the grid and the mode: techniques of one mode share them.
    on_branches: dict[int, Branch] = state.derived(f"forcing-on-{mode}", _new_cache)
    off_branches: dict[int, Branch] = state.derived(f"forcing-off-{mode}", _new_cache)
    first_only = mode == NESTED
    chains: dict[int, tuple[set[int], int]] = state.derived(f"forcing-chains-{mode}", _new_cache)

    def consider(f: Finding) -> None:
        nonlocal best
        if best is None or _rank(f) < _rank(best):
            best = f

    def rating(complexity: int) -> float:
        return round(base + length_bonus(complexity), 1)

    def on_branch(node: int) -> Branch:
        b = on_branches.get(node)
        if b is None:
            b = on_branches[node] = ctx.branch([node], mode)
        return b

    def off_branch(node: int) -> Branch:
        b = off_branches.get(node)
        if b is None:
            b = off_branches[node] = ctx.branch([node], mode)
        return b

    # Dynamic branches: their end states (`closure`) say which need following fact by fact.
    end_state = _end_states(state, ctx, True) if mode == DYNAMIC else None

    def conflicted(node: int) -> bool:
        if end_state is not None:
            return end_state(node) is None
        return (on_branch if node < off_base else off_branch)(node).conflict is not None

    def shared(nodes: list[int]) -> bool:
        """Whether the branches of `nodes`, none in conflict, may share a fact besides them."""
        if end_state is None:
            return True
        common = -1
        for x in nodes:
            common &= end_state(x)
        for x in nodes:
            common &= ~(1 << _fact_bit(x, n, off_base))
        return bool(common)

    def agree(nodes: list[int], kind: str) -> None:
        if end_state is not None and (any(conflicted(x) for x in nodes) or not shared(nodes)):
            return
        _agree(ctx, [on_branch(x) for x in nodes], nodes, kind, consider, rating)

    contradictions = "contradiction" in kinds

    # Dynamic contradictions: the conflicting branches are followed side by side, one link
    # further at a time, each only as far as it could still beat the best one found.
    hopeless: set[int] = set()
    if end_state is not None and contradictions:
        seeds: list[tuple[int, dict[int, Branch]]] = []
        for cell, m in enumerate(cand):
            if not m or not m & (m - 1):
                continue
            for k in bits(m):
                node = cell * n + k
                if end_state(node) is None:
                    seeds.append((node, on_branches))
                if m.bit_count() > 2 and end_state(off_base + node) is None:
                    seeds.append((off_base + node, off_branches))
        hopeless = _side_by_side(ctx, base, seeds, mode, chains)

    def conflict_branch(node: int) -> Branch | None:
        """The branch of a conflicting node, None when it cannot beat the best."""
        if end_state is None:
            return on_branch(node) if node < off_base else off_branch(node)
        if node in hopeless:
            return None
        known = on_branches if node < off_base else off_branches
        b = known.get(node)
        if b is None:
            b = ctx.follow([node], mode, _useful_limit(best, base, 0))
            if b is None:
                return None
            known[node] = b
        return b

    for cell, m in enumerate(cand):
        if not m or not m & (m - 1) or not (contradictions or "both" in kinds):
            continue
        _check_time()
        for k in bits(m):
            node = cell * n + k
            on_conflict = conflicted(node)
            if contradictions and on_conflict and (b_on := conflict_branch(node)):
                on_chain, c = _chain(chains, node, b_on, mode)
                consider(
                    Finding(
                        rating(c),
                        c,
                        off_base + node,
                        "contradiction",
                        (node,),
                        tuple(on_chain),
                    )
                )
                if first_only and best is not None:
                    return _step(state, ctx, best, mode)
            if mode == NISHIO or not (contradictions or "both" in kinds) or m.bit_count() == 2:
                # in a bivalue cell, d off is the other digit on: its branch is tried already
                continue
            off_conflict = conflicted(off_base + node)
            if contradictions and off_conflict and (b_off := conflict_branch(off_base + node)):
                chain, size = _chain(chains, off_base + node, b_off, mode)
                consider(
                    Finding(
                        rating(size),
                        size,
                        node,
                        "contradiction",
                        (off_base + node,),
                        tuple(chain),
                    )
                )
                if first_only and best is not None:
                    return _step(state, ctx, best, mode)
            if (
                "both" in kinds
                and not on_conflict
                and not off_conflict
                and m.bit_count() > 2
                and shared([node, off_base + node])
            ):
                b_on = on_branch(node)
                b_off = off_branch(off_base + node)
                for target in b_on.parents.keys() & b_off.parents.keys():
                    if target in (node, off_base + node) or not _useful(ctx, target):
                        continue
                    a = ancestors(b_on.parents, (target,))
                    b = ancestors(b_off.parents, (target,))
                    c = len(a) + len(b)
                    consider(
                        Finding(rating(c), c, target, "both", (node, off_base + node), (*a, *b))
                    )
    if "cell" in kinds:
        for cell, m in enumerate(cand):
            if not m or not m & (m - 1):
                continue
            nodes = [cell * n + k for k in bits(m)]
            _check_time()
            agree(nodes, "cell")
    if "region" in kinds:
        pos = state.pos
        for u, cells in enumerate(state.shape.units):
            for k in range(n):
                p = pos[u * n + k]
                if not p or not p & (p - 1):
                    continue
                agree([cells[i] * n + k for i in bits(p)], "region")
    if best is None:
        return None
    return _step(state, ctx, best, mode)


_SORT_KEY = {"both": 1, "cell": 5, "region": 6, "contradiction": 7}
"""Between conclusions of one rating and complexity, the kind Sudoku Explainer applies first."""


def _rank(f: Finding) -> tuple[float, int, int, int]:
    return (f.rating, f.complexity, _SORT_KEY[f.kind], f.target)


def _new_cache(_state: CandidateState) -> dict:
    return {}


def _fact_bit(node: int, n: int, off_base: int) -> int:
    """Where a node is in a packed end state (`Closure.pack`)."""
    ncells = off_base // n
    if node < off_base:
        cell, k = divmod(node, n)
        return k * ncells + cell
    cell, k = divmod(node - off_base, n)
    return (n + k) * ncells + cell


def _end_states(state: CandidateState, ctx: Context, links: bool):
    """`Closure.facts` of this state's branches, memoised per seed.

    With `links` (dynamic branches) the static links help: a dynamic branch holds every
    fact its static links reach (`_static_reach`), unless it ends in a contradiction.  So
    a seed that reaches a seed whose branch ends in one ends in one too, and seeds that
    reach each other end in the same state.  The end states of all candidates are worked
    out first, in an order where the seeds a seed reaches come before it, each from the
    largest end state of a seed it reaches; or carried over from the grid of the last
    pass (`_carried`): unchanged where the steps since removed no candidate near its
    facts, else followed on from there when the grid has no singles."""
    known: dict = state.derived(f"forcing-facts-{links}", _new_cache)
    closure = state.derived("forcing-closure", lambda st: Closure(st.shape, st.cand, st.placed))
    if not links:

        def end_state(node: int) -> int | None:
            if node in known:
                return known[node]
            facts = known[node] = closure.facts(node, links)
            return facts

        return end_state
    ready: dict = state.derived("forcing-facts-ready", _new_cache)
    if not ready:
        ready[True] = True  # worked out below (past the deadline, the rest when asked for)
        reach = _static_reach(state, ctx)[1]
        n = ctx.n
        off_base = ctx.off
        nodes = []
        for cell, m in enumerate(ctx.cand):
            if not m & (m - 1):
                continue
            for k in bits(m):
                node = cell * n + k
                nodes.append(node)
                if m.bit_count() > 2:
                    nodes.append(off_base + node)
        order = sorted((reach[x].bit_count(), x) for x in nodes)
        by_reach: dict[int, int | None] = {}
        failed = 0  # the seeds whose branches end in a contradiction
        done = 0  # the seeds whose end states are known (without a contradiction)
        carried, changed, steps = _carried(state, links)
        ends: dict[int, tuple[int | None, int]] = {}
        for _, node in order:
            r = reach[node]
            if r & failed:
                known[node] = None
                continue
            if r in by_reach:
                known[node] = by_reach[r]
                continue
            end = carried.get(node)
            if end is not None and end[1] & changed:
                end = None if steps is None else closure.end_since(end[0], *steps, links)
            if end is None:
                _check_time()
                end = closure.end(node, links, _largest(r & done & ~(1 << node), ends))
            ends[node] = end
            facts = known[node] = by_reach[r] = end[0]
            if facts is None:
                failed |= 1 << node
            else:
                done |= 1 << node
        last_grid, last_ends = _last_pass(state)
        last_grid["grid"] = (links, state.cand[:], state.placed[:])
        last_ends.clear()
        last_ends.update(ends)

    def known_state(node: int) -> int | None:
        if node in known:
            return known[node]
        facts = known[node] = closure.facts(node, links)
        return facts

    return known_state


def _largest(seeds: int, ends: dict[int, tuple[int | None, int]]) -> int:
    """Of the end states (`ends`) of `seeds` (a node mask; none in a contradiction), the
    one holding the most facts (packed; 0 for no seeds)."""
    best = size = 0
    while seeds:
        low = seeds & -seeds
        seeds ^= low
        facts = ends[low.bit_length() - 1][0]
        assert facts is not None
        count = facts.bit_count()
        if count > size:
            best, size = facts, count
    return best


def _last_pass(state: CandidateState) -> tuple[dict, dict]:
    """Where the solve's memo keeps the last `_end_states` pass: its grid and rules
    (``"grid"``: (`links`, candidates, placed digits)), and its `Closure.end` results by
    seed.  The reuse rests on the two grids alone, not on how one came from the other:
    `changed_mask` refuses the pass unless this grid is that one with candidates
    removed."""
    shape = state.shape
    ncells = shape.ncells
    grid = state.memo.table("forcing-last-grid", shape, 40 * (ncells + 3 * state.n))
    ends = state.memo.table("forcing-last-ends", shape, ncells * state.n // 2 + 200)
    return grid, ends


def _carried(
    state: CandidateState, links: bool
) -> tuple[dict[int, tuple[int | None, int]], int, tuple[int, list[int]] | None]:
    """The `Closure.end` results of the last `_end_states` pass; the facts (packed) a
    branch must not hold there to end the same way here (`changed_mask`); and, when this
    grid has no singles, how it came from that one (`since`, for `Closure.end_since`).
    The engine moves from grid to grid by removing candidates, a few at a time, and most
    branches never look at them; ({}, 0, None) when this grid is not the last one with
    candidates removed (whatever removed them) or its branches followed other rules
    (`links`)."""
    last_grid, ends = _last_pass(state)
    last = last_grid.get("grid")
    if last is None:
        return {}, 0, None
    same_rules, cand, placed = last
    if same_rules != links:
        return {}, 0, None
    shape = state.shape
    changed = changed_mask(shape, cand, placed, state.cand, state.placed)
    if changed is None:
        return {}, 0, None
    steps = (
        since(shape, cand, placed, state.cand, state.placed, state.values)
        if _no_singles(state)
        else None
    )
    return ends, changed, steps


def _no_singles(state: CandidateState) -> bool:
    """Whether every open cell has two candidates or more and every unit two places or
    more for each digit it lacks."""
    values = state.values
    for cell, m in enumerate(state.cand):
        if not m & (m - 1) and (m or not values[cell]):
            return False
    n = state.n
    pos = state.pos
    for u, digits in enumerate(state.placed):
        at = u * n
        for k in range(n):
            if not digits >> k & 1:
                p = pos[at + k]
                if not p & (p - 1):
                    return False
    return True


_CONTRADICTION = frozenset({"contradiction"})
_AGREEMENTS = frozenset({"cell", "region"})


def _agreements(
    state: CandidateState, ctx: Context, kinds: frozenset[str], base: float
) -> Step | None:
    """`_search` for static cell and region forcing chains: the same best finding, from
    the branches' level sets (`StaticGraph.agreement`); only the winner's branches are
    followed fact by fact, for its chain."""
    graph = static_graph(state)
    best: tuple | None = None  # (rank, nodes)
    for kind in ("cell", "region"):
        if kind in kinds:
            found = state.derived(
                f"forcing-static-{kind}-{base}", lambda _st, k=kind: _agreeing(ctx, k, base)
            )
            if found and (best is None or found[0] < best[0]):
                best = found
    if best is None:
        return None
    (rating, c, _, target), nodes = best
    on_branches: dict[int, Branch] = state.derived(f"forcing-on-{STATIC}", _new_cache)
    chain: list[int] = []
    for x in nodes:
        b = on_branches.get(x)
        if b is None:
            b = on_branches[x] = _static_branch(graph, x, 0)
        chain.extend(ancestors(b.parents, (target,)))
    kind = "cell" if best[0][2] == _SORT_KEY["cell"] else "region"
    f = Finding(rating, c, target, kind, tuple(nodes), tuple(chain))
    return _step(state, ctx, f, STATIC)


def _agreeing(ctx: Context, kind: str, base: float) -> tuple:
    """The best agreement of the cells (`kind` "cell") or the units' places ("region") of
    the state, as (rank, nodes), or () for none.  Every fact a branch reaches is a
    candidate of the grid, so every agreement is useful; the first of equal ranks wins.
    Only where the branches all end without a conflict and share a fact besides their
    assumptions (`StaticGraph.clean`) can they agree on something."""
    state = ctx.state
    graph = static_graph(state)
    clean = graph.clean()
    n = ctx.n
    cand = ctx.cand
    key = _SORT_KEY[kind]
    best: tuple = ()

    def consider(nodes: list[int], common: int) -> None:
        nonlocal best
        c, target = graph.agreement(nodes, common)
        rank = (round(base + length_bonus(c), 1), c, key, target)
        if not best or rank < best[0]:
            best = (rank, nodes)

    if kind == "cell":
        for cell, m in enumerate(cand):
            if m.bit_count() < 3:
                continue
            _check_time()
            at = cell * n
            common = -1
            ms = m
            while ms and common:
                low = ms & -ms
                ms ^= low
                common &= clean[at + low.bit_length() - 1]
            if common:
                consider([at + k for k in bits(m)], common)
        return best
    pos = ctx.pos
    for u, cells in enumerate(ctx.unit_cells):
        for k in range(n):
            p = pos[u * n + k]
            if not p & (p - 1) or cand[cells[(p & -p).bit_length() - 1]].bit_count() < 3:
                # Sudoku Explainer looks at a unit's places from its first place's cell,
                # and its static search only from cells with three digits or more
                continue
            common = -1
            ps = p
            while ps and common:
                low = ps & -ps
                ps ^= low
                common &= clean[cells[low.bit_length() - 1] * n + k]
            if common:
                consider([cells[i] * n + k for i in bits(p)], common)
    return best


def _static_reach(state: CandidateState, ctx: Context) -> tuple[list, dict[int, int]]:
    """The static links (`StaticGraph.links`: filled in as branches ask for them) and what
    each candidate's on and off reach (the state's `StaticGraph`)."""
    graph = static_graph(state)
    return graph.links, graph.reach


def _static_branch(graph: StaticGraph, seed: int, limit: int):
    """`Context.branch([seed], STATIC, limit)` on the state's static links."""
    steps = _static_steps(graph, seed)
    try:
        while True:
            depth = next(steps)
            if limit and depth + 2 > limit:
                return None  # a conflict found from here rests on more than `limit` facts
    except StopIteration as done:
        return done.value


def _static_steps(graph: StaticGraph, seed: int) -> Generator[int, None, Branch]:
    """`_static_branch` as a generator: before it takes the facts ``depth + 1`` links away
    from the seed it yields `depth` (a conflict found from there rests on at least
    ``depth + 2`` facts), and it returns the branch."""
    off_base = graph.off
    links = graph.links
    parents: dict[int, tuple[int, ...]] = {seed: ()}
    queue = [seed]
    qi = 0
    level_end = 1
    depth = 0
    while qi < len(queue):
        if qi == level_end:
            depth += 1
            level_end = len(queue)
            yield depth
        node = queue[qi]
        qi += 1
        why = (node,)
        succ = links[node]
        if succ is None:
            succ = graph.successors(node)
        for nxt in succ:
            if nxt in parents:
                continue
            parents[nxt] = why
            if nxt < off_base:
                if nxt + off_base in parents:
                    return Branch(parents, (nxt, nxt + off_base))
            elif nxt - off_base in parents:
                return Branch(parents, (nxt - off_base, nxt))
            queue.append(nxt)
    return Branch(parents, None)


def _useful_limit(best: Finding | None, least_base: float, cap: int) -> int:
    """The most facts a conclusion may rest on and still beat `best` (at most `cap`; 0: any)."""
    if best is None:
        return cap
    c = 1
    while not cap or c < cap:
        r = round(least_base + length_bonus(c + 1), 1)
        if r > best.rating or (r == best.rating and c + 1 > best.complexity):
            return c
        c += 1
    return cap


def _contradictions(state: CandidateState, ctx: Context, mode: int, base: float) -> Step | None:
    """`_search` for nishio contradictions alone: the same best finding, sooner.

    Every candidate's conclusion has its own target, so the order they are tried in does
    not change the best one; branches run breadth first, so a branch can stop once any
    conflict it could still find would rest on too many facts to beat the best so far.
    """
    n = ctx.n
    on_branches: dict[int, Branch] = state.derived(f"forcing-on-{mode}", _new_cache)
    chains: dict[int, tuple[set[int], int]] = state.derived(f"forcing-chains-{mode}", _new_cache)
    multi = 0  # the cells with two digits or more
    for cell, m in enumerate(state.cand):
        if m & (m - 1):
            multi |= 1 << cell
    # per digit, the cells its nishio branches refute it in
    places = digit_cells(state.cand, n)
    placed = placed_units(state.placed, n)
    refuted = [conflicting_cells(state, places[k], placed[k], places[k] & multi) for k in range(n)]
    seeds: list[tuple[int, dict[int, Branch]]] = []
    for cell, m in enumerate(state.cand):
        if not m or not m & (m - 1):
            continue
        for k in bits(m):
            if refuted[k] >> cell & 1:
                seeds.append((cell * n + k, on_branches))
    # side by side, then the branches not left behind
    hopeless = _side_by_side(ctx, base, seeds, mode, chains)
    seeds = [(x, known) for x, known in seeds if x not in hopeless]
    best, _ = _best_conflict(
        ctx, mode, base, seeds, (0,), lambda seed, limit: ctx.follow([seed], mode, limit), chains
    )
    if best is None:
        return None
    return _step(state, ctx, best, mode)


def _static_contradictions(state: CandidateState, ctx: Context, base: float) -> Step | None:
    """`_contradictions` for static chains: the seeds whose branches contradict themselves
    are those whose reach holds their own negation (`StaticGraph.failed`); they are
    followed on the state's static links in passes capped by `_DEPTHS`, which find a good
    bound cheaply."""
    n = ctx.n
    off_base = ctx.off
    graph = static_graph(state)
    on_branches: dict[int, Branch] = state.derived(f"forcing-on-{STATIC}", _new_cache)
    off_branches: dict[int, Branch] = state.derived(f"forcing-off-{STATIC}", _new_cache)
    chains: dict[int, tuple[set[int], int]] = state.derived(f"forcing-chains-{STATIC}", _new_cache)
    two = three = 0  # the on facts of the cells with two digits or more, three or more
    full = (1 << n) - 1
    for cell, m in enumerate(state.cand):
        if m & (m - 1):
            two |= m << (cell * n)
            if m.bit_count() > 2:
                three |= full << (cell * n)
    failed_on, failed_off = graph.failed
    failed_on &= two
    failed_off &= three & two
    seeds: list[tuple[int, dict[int, Branch]]] = []
    for node in bits(failed_on | failed_off):  # by cell and digit, on before off
        if failed_on >> node & 1:
            seeds.append((node, on_branches))
        if failed_off >> node & 1:
            seeds.append((off_base + node, off_branches))

    # A branch a pass stops is taken up again where it stopped by the next.
    stopped: dict[int, tuple[Generator[int, None, Branch], int]] = {}

    def follow(seed: int, limit: int) -> Branch | None:
        steps, depth = stopped.pop(seed, (None, 0))
        if steps is None:
            steps = _static_steps(graph, seed)
        elif limit and depth + 2 > limit:
            stopped[seed] = (steps, depth)
            return None
        try:
            while True:
                depth = next(steps)
                if limit and depth + 2 > limit:
                    stopped[seed] = (steps, depth)
                    return None  # a conflict found from here rests on more than `limit` facts
        except StopIteration as done:
            return done.value

    best, _ = _best_conflict(ctx, STATIC, base, seeds, (*_DEPTHS, 0), follow, chains)
    if best is None:
        return None
    return _step(state, ctx, best, STATIC)


_DEPTHS = (6, 10, 16, 28)  # complexity caps of the first passes of `_static_contradictions`


def _agree(ctx, branches: list[Branch], nodes: list[int], kind: str, consider, rating) -> None:
    """Facts every non-contradictory branch of a cell or unit forces are true."""
    if any(b.conflict for b in branches):
        return  # a contradiction: the contradiction search finds it, rated on its own
    common = set(branches[0].parents)
    for b in branches[1:]:
        common &= b.parents.keys()
    for target in common:
        if target in nodes or not _useful(ctx, target):
            continue
        chain: list[int] = []
        for b in branches:
            chain.extend(ancestors(b.parents, (target,)))
        c = len(chain)
        consider(Finding(rating(c), c, target, kind, tuple(nodes), tuple(chain)))


NAMES = {
    STATIC: "forcing_chain",
    NISHIO: "nishio",
    DYNAMIC: "dynamic_forcing_chain",
    PLUS: "dynamic_forcing_chain_plus",
    NESTED: "nested_forcing_chain",
}


def _step(state: CandidateState, ctx: Context, f: Finding, mode: int) -> Step:
    n = ctx.n
    name = NAMES[mode]
    if mode == STATIC and f.kind in ("cell", "region"):
        name = f"{f.kind}_forcing_chain"
    target = f.target
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    if target < ctx.off:
        cell, k = divmod(target, n)
        placements = ((cell, k + 1),)
    else:
        cell, k = divmod(target - ctx.off, n)
        eliminations = ((cell, k + 1),)
    source_cells = tuple(sorted({(x % ctx.off) // n for x in f.source}))
    digits = tuple(sorted({(x % ctx.off) % n + 1 for x in f.source}))
    units: tuple[int, ...] = ()
    if f.kind == "region":
        shape = state.shape
        common = set(shape.cell_units[source_cells[0]])
        for c in source_cells[1:]:
            common &= set(shape.cell_units[c])
        units = (min(common),)
    chain = tuple(
        ((x % ctx.off) // n, ((x % ctx.off) % n + 1) * (1 if x < ctx.off else -1))
        for x in sorted(set(f.chain), key=lambda x: (x % ctx.off, x))
    )
    return Step(
        name,
        placements,
        eliminations,
        source_cells,
        units,
        digits,
        f.rating,
        state.shape,
        chain,
        detail=(f.kind, tuple(ctx.name(x) for x in f.source), f.complexity),
    )


def forcing_chain(state: CandidateState) -> Step | None:
    """A candidate whose static consequences contradict each other is false (or true)."""
    return _search(state, STATIC, frozenset({"contradiction"}), FORCING_RATING)


def nishio(state: CandidateState) -> Step | None:
    """A candidate that, followed on its own digit, leaves a unit or cell without it is false."""
    return _search(state, NISHIO, frozenset({"contradiction"}), NISHIO_RATING)


def cell_forcing_chain(state: CandidateState) -> Step | None:
    """What every digit of a cell forces (static chains) is true.

    Sudoku Explainer searches cells and units as one rule (multiple forcing chains) and
    applies the cheapest conclusion of either kind, so this finds unit ones too."""
    return _search(state, STATIC, frozenset({"cell", "region"}), MULTIPLE_RATING)


def region_forcing_chain(state: CandidateState) -> Step | None:
    """What every place of a digit in a unit forces (static chains) is true."""
    return _search(state, STATIC, frozenset({"region"}), MULTIPLE_RATING)


_ALL = frozenset({"contradiction", "both", "cell", "region"})


def dynamic_forcing_chain(state: CandidateState) -> Step | None:
    """Dynamic chains: contradictions, both states agreeing, cells and units agreeing."""
    return _search(state, DYNAMIC, _ALL, DYNAMIC_RATING)


def dynamic_forcing_chain_plus(state: CandidateState) -> Step | None:
    """Dynamic chains whose branches also use locked candidates."""
    return _search(state, PLUS, _ALL, PLUS_RATING)


def nested_forcing_chain(state: CandidateState) -> Step | None:
    """Dynamic chains whose branches also use dynamic contradictions (the first found)."""
    return _search(state, NESTED, frozenset({"contradiction"}), NESTED_RATING)


def _best_conflict(
    ctx: Context, mode: int, base: float, seeds: list, caps: tuple, follow, chains: dict
):
    """The best contradiction among the branches of `seeds` ((seed, branch cache) pairs),
    followed breadth first in passes capped by `caps` (0: no cap): (the best finding,
    the seeds whose branches stopped in the last pass without a conflict).  A branch stops
    once any conflict it could still find would rest on too many facts to beat the best
    so far; the caps find a good bound cheaply."""
    n = ctx.n
    off_base = ctx.off
    static = mode == STATIC
    least_base = X_FORCING_RATING if static else base
    best: Finding | None = None
    left = seeds
    for cap in caps:
        seeds, left = left, []
        limit = _useful_limit(best, least_base, cap)
        for seed, known in seeds:
            b = known.get(seed)
            if b is None:
                _check_time()
                b = follow(seed, limit)
                if b is None:
                    left.append((seed, known))
                    continue
                known[seed] = b
            if not b.conflict:
                continue
            chain, c = _chain(chains, seed, b, mode)
            single = static and len({x % off_base % n for x in chain}) == 1
            r = round((X_FORCING_RATING if single else base) + length_bonus(c), 1)
            target = seed + off_base if seed < off_base else seed - off_base
            if best is None or (r, c, target) < (best.rating, best.complexity, best.target):
                best = Finding(r, c, target, "contradiction", (seed,), tuple(chain))
                limit = _useful_limit(best, least_base, cap)
        if not left:
            break
    return best, left


def _side_by_side(ctx: Context, base: float, seeds: list, mode: int, chains: dict) -> set[int]:
    """Follow the branches of `seeds` ((seed, branch cache) pairs, each known to end in a
    conflict) breadth first side by side, one link further at a time, caching those that
    end.  Returns the seeds left behind because any conflict their branch could still
    reach rests on too many facts to beat the best contradiction found (which the search
    considers as well, so theirs cannot win)."""
    best: Finding | None = None
    limit = 0
    hopeless: set[int] = set()
    alive = []

    def ended(seed: int, b: Branch) -> None:
        nonlocal best, limit
        c = _chain(chains, seed, b, mode)[1]
        f = Finding(round(base + length_bonus(c), 1), c, _opposite(ctx, seed), "", (), ())
        if best is None or (f.rating, c, f.target) < (best.rating, best.complexity, best.target):
            best = f
            limit = _useful_limit(best, base, 0)

    for seed, known in seeds:
        if seed in known:
            ended(seed, known[seed])
        else:
            alive.append((seed, known, ctx.steps([seed], mode)))
    while alive:
        _check_time()
        going = []
        for seed, known, steps in alive:
            try:
                depth = next(steps)
            except StopIteration as done:
                known[seed] = done.value
                ended(seed, done.value)
                continue
            if limit and depth + 1 > limit:
                hopeless.add(seed)
                continue
            going.append((seed, known, steps))
        alive = going
    return hopeless
