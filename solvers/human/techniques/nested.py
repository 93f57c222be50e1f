"""Nested forcing chains: branches that use forcing chains of their own.

Sudoku Explainer's nested levels are dynamic forcing chains whose branches, once their
singles, locked candidates, pairs and X-Wings run dry (`inner_rules`), look for forcing
chains on the branch's candidates, and take every candidate those remove as an off
fact.  The levels, each tried only when the one before finds nothing:

- level 2, ``nested_forcing_chain`` (9.5), "Nested Forcing Chains (+ Forcing Chains)":
  static forcing chains, a candidate whose static consequences on the branch's
  candidates contradict each other (`static_chains`);
- level 3, ``nested_multiple_chain`` (10.0), "(+ Multiple Forcing Chains)": when level 2's
  rule finds nothing, static cell and region forcing chains too (`static_agreements`);
- level 4, ``nested_dynamic_chain`` (10.5), "(+ Dynamic Forcing Chains)": dynamic
  contradictions inside the branch instead (`Context` follows them).

An inner chain's conclusions rest on its *rule parents*: for every single of the inner
chain (and, for a cell or region chain, its assumptions), the candidates of its cell
(naked) or places of its unit (hidden) that the outer branch removed; an inner chain
that needs none held before the branch and is left out (the engine applies such chains
itself).  When several inner chains remove one candidate, the cheapest comes first
and the candidate rests on it (Sudoku Explainer sorts the inner hints the same way).
The outer conclusion's complexity adds, once each, the complexity of the inner chains
its facts rest on (`forcing.nested_complexity`).

The inner chains depend on the branch's candidates alone (their rule parents on the
grid the search started from too), so they are kept in the solve's memo by the branch's
candidates: the branches of the next step's search often meet the same grids.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from importlib.util import find_spec
from itertools import count
from types import ModuleType
from typing import TYPE_CHECKING

from solvers.grid import Shape
from solvers.human.state import CandidateState
from solvers.human.techniques.branches import NESTED, Context, ancestors, se_tables
from solvers.human.techniques.chains import length_bonus
from solvers.human.techniques.common import bits
from solvers.human.techniques.static_graph import StaticGraph, static_branch

if TYPE_CHECKING:
    from solvers.human.techniques.inner_rules import Found

FORCING = 7.0  # Sudoku Explainer's static forcing chain (6.6 on one digit)
X_FORCING = 6.6
MULTIPLE = 8.0  # its static cell and region forcing chains

_ids = count()


class Hint:
    """An inner chain: its rank, what it removes, and the facts its rule parents come from
    (per on fact of the chain, the off fact that forced it; the seeds with their cause).

    The compiled route (`compiled_hints`) gives the chains' paths instead of the singles
    (`paths`: off_base, the flat paths, start, end, and whether each path comes with its
    length): most hints are never applied, so their singles are read when first asked
    for."""

    __slots__ = (
        "rank",
        "removable",
        "found",
        "seeds",
        "key",
        "complexity",
        "paths",
        "chain",
        "cases",
    )

    def __init__(self, rating, complexity, order, removable, singles, seeds, key, paths=None):
        self.rank = (rating, complexity, order)
        self.complexity = complexity
        self.removable = removable  # [(cell, k)]
        self.found = singles  # [(on node, the off node that forced it)], or None
        self.seeds = seeds  # ("cell", cell) | ("unit", unit, k) | None
        self.key = key
        self.paths = paths
        # for `explain`: the chain, seed first (`static_chains`); per seed its path to the
        # target (`static_agreements`)
        self.chain: tuple[int, ...] = ()
        self.cases: tuple[tuple[int, ...], ...] = ()

    @property
    def singles(self) -> list[tuple[int, int]]:
        """Per on fact of the chain but its seeds, the off fact that forced it, in the
        order `static_chains` and `static_agreements` list them."""
        if self.found is None:
            off_base, flat, start, end, counted = self.paths
            path = flat[start:end].tolist()
            found: list[tuple[int, int]] = []
            if not counted:
                found = _singles(path, off_base)
            i = 0
            while counted and i < len(path):
                length = path[i]
                found.extend(_singles(path[i + 1 : i + 1 + length], off_base))
                i += 1 + length
            self.found = found
            self.paths = None
        return self.found


def chain_rules(ctx: Context, mode: int, cand, pos, placed, parents, off, inner) -> Found:
    """Level 2's rule (static forcing chains) and, from level 3 (`mode` above `NESTED`),
    when it finds nothing, static cell and region forcing chains."""
    known = ctx.state.memo.table("nested-inner-hints", ctx.state.shape, 3000)
    key = tuple(cand)
    hints: list[list[Hint] | None] | None = known.get(key)
    if hints is None:
        hints = known[key] = _hints(ctx, cand, pos, placed, mode > NESTED)
    found = _apply(ctx, hints[0] or [], cand, pos, parents, off, inner)
    if found is None and mode > NESTED:
        multiple = hints[1]
        if multiple is None:
            multiple = hints[1] = _agreements(ctx, cand, pos, placed)
        found = _apply(ctx, multiple, cand, pos, parents, off, inner)
    return found


def _hints(ctx: Context, cand, pos, placed, multiple: bool) -> list[list[Hint] | None]:
    """A branch grid's inner chains: [static forcing chains, static cell and region
    chains (None until asked for: `multiple` False)].  Only the hints are kept, not the
    grid's state and graph: those are large, and the memo holds thousands of grids."""
    # Without a strong link the grid the search started from lacks, every static forcing
    # chain of the branch's grid held there too, and rests on no fact of the branch.
    new = _new_links(ctx, cand, pos, placed)
    if not new and not multiple:
        return [[], None]
    found = compiled_hints(ctx.state.shape, cand, pos, placed, new, multiple)
    if found is not None:
        return found
    st = graph = None
    forcing: list[Hint] = []
    if new:
        st, graph = _graph(ctx, cand, pos, placed)
        forcing = static_chains(st, graph)
    if not multiple:
        return [forcing, None]
    if st is None or graph is None:
        st, graph = _graph(ctx, cand, pos, placed)
    return [forcing, static_agreements(st, graph)]


def _agreements(ctx: Context, cand, pos, placed) -> list[Hint]:
    """A branch grid's static cell and region chains (level 3's rule, asked for late)."""
    found = compiled_hints(ctx.state.shape, cand, pos, placed, False, True)
    if found is not None and found[1] is not None:
        return found[1]
    return static_agreements(*_graph(ctx, cand, pos, placed))


def pure_hints(
    ctx: Context, cand, pos, placed, chains: bool, agreements: bool
) -> tuple[list[Hint], list[Hint]]:
    """A branch grid's static forcing chains (if `chains`) and static cell and region
    chains (if `agreements`) by the pure-Python route, for grids the compiled kernel
    leaves to it."""
    st, graph = _graph(ctx, cand, pos, placed)
    forcing = static_chains(st, graph) if chains else []
    return forcing, static_agreements(st, graph) if agreements else []


@cache
def static_kernel(shape: Shape) -> ModuleType | None:
    """The compiled static analysis (`static_kernel`) for grids of `shape`, or None:
    without numba, or for grids too large for it."""
    if find_spec("numba") is None or find_spec("numpy") is None:
        return None
    kernel = import_module("solvers.human.techniques.static_kernel")
    return kernel if shape.size <= kernel.MAX_SIZE else None


def compiled_hints(
    shape: Shape, cand, pos, placed, chains: bool, agreements: bool
) -> list[list[Hint] | None] | None:
    """`_hints` by the compiled kernel: [static forcing chains (empty unless `chains`),
    static cell and region chains (None unless `agreements`)], the same hints in the same
    order as `static_chains` and `static_agreements` give; None when the kernel is not
    there or leaves the grid to them."""
    kernel = static_kernel(shape)
    if kernel is None:
        return None
    found = kernel.run(shape, cand, pos, placed, chains, agreements)
    if found is None:
        return None
    n = shape.size
    off_base = shape.ncells * n
    forcing = _chain_hints(found.chains, found.chain_paths, cand, n, off_base)
    if not agreements:
        return [forcing, None]
    return [forcing, _agreement_hints(found.agreements, found.agreed_paths, cand, n, off_base)]


def _chain_hints(records, flat, cand, n: int, off_base: int) -> list[Hint]:
    """`static_chains` from the kernel's chains (seed, on one digit, start, end)."""
    out: list[Hint] = []
    last = -1
    removable: list[tuple[int, int]] = []
    for seed, alone, start, end in records:
        if seed != last:  # a seed's chain on its digit alone shares its removals
            last = seed
            cell, k = divmod(seed % off_base, n)
            if seed < off_base:
                removable = [(cell, k)]
            else:
                removable = [(cell, j) for j in bits(cand[cell] & ~(1 << k))]
        c = end - start
        rating = _rating(X_FORCING if alone else FORCING, c)
        paths = (off_base, flat, start, end, False)
        out.append(Hint(rating, c, len(out), removable, None, None, next(_ids), paths))
    out.sort(key=lambda h: h.rank)
    return out


def _agreement_hints(records, flat, cand, n: int, off_base: int) -> list[Hint]:
    """`static_agreements` from the kernel's agreements (seeds, target, complexity, start,
    end)."""
    out: list[Hint] = []
    for seeds, t, c, start, end in records:
        if t < off_base:
            cell, k = divmod(t, n)
            removable = [(cell, j) for j in bits(cand[cell] & ~(1 << k))]
        else:
            removable = [divmod(t - off_base, n)]
        paths = (off_base, flat, start, end, True)
        out.append(
            Hint(_rating(MULTIPLE, c), c, len(out), removable, None, seeds, next(_ids), paths)
        )
    out.sort(key=lambda h: h.rank)
    return out


@cache
def _rating(base: float, c: int) -> float:
    return round(base + length_bonus(c), 1)


def _singles(path: list[int], off_base: int) -> list[tuple[int, int]]:
    """Per on fact of a chain (seed first) but its seed, with the fact before it: in the
    order `static_chains` lists them, that of the set `ancestors` builds."""
    parent = dict(zip(path[1:], path[:-1], strict=True))
    return [(x, parent[x]) for x in path_set(path) if x < off_base and x in parent]


def path_set(path: list[int]) -> set[int]:
    """The nodes of a chain (seed first) as a set built as `ancestors` builds it from its
    last node (a set's order depends on how it grew: the singles are listed in it)."""
    seen = {path[-1]}
    for y in reversed(path[:-1]):
        seen |= {y}
    return seen


def _graph(ctx: Context, cand, pos, placed) -> tuple[CandidateState, StaticGraph]:
    """The branch grid as a state, and its static links."""
    st = _branch_state(ctx.state, cand, pos, placed)
    return st, StaticGraph(st)


def _new_links(ctx: Context, cand, pos, placed) -> bool:
    """Whether the branch's grid has a bivalue cell or a unit with two places for a digit
    that the start grid had with more."""
    start_cand = ctx.cand
    for cell, m in enumerate(cand):
        if m.bit_count() == 2 and start_cand[cell] != m:
            return True
    start_pos = ctx.pos
    n = ctx.n
    for u, digits in enumerate(placed):
        at = u * n
        for k in range(n):
            p = pos[at + k]
            if p.bit_count() == 2 and start_pos[at + k] != p and not digits >> k & 1:
                return True
    return False


def _branch_state(state: CandidateState, cand, pos, placed) -> CandidateState:
    st = state.copy()
    st.cand = cand[:]
    st.pos = pos[:]
    st.placed = placed[:]
    st.changes += 1
    return st


def static_chains(st: CandidateState, graph: StaticGraph) -> list[Hint]:
    """Every static forcing chain of a grid: a candidate whose static consequences reach
    its own negation, sorted cheapest first.  Each counts as Sudoku Explainer counts it,
    the one chain from the assumption to its negation (`_se_chain`); a chain through
    several digits also comes on its digit alone when there is one (a forcing X-chain,
    6.6), which may rate lower."""
    n = st.n
    off_base = graph.off
    failed_on, failed_off = graph.failed
    out: list[Hint] = []

    def add(base: float, found: tuple, removable: list[tuple[int, int]]) -> None:
        parents, goal = found
        chain = ancestors(parents, (goal,))
        c = len(chain)
        singles = [(x, parents[x][0]) for x in chain if x < off_base and parents[x]]
        rating = round(base + length_bonus(c), 1)
        hint = Hint(rating, c, len(out), removable, singles, None, next(_ids))
        path = [goal]
        while parents[path[-1]]:
            path.append(parents[path[-1]][0])
        hint.chain = tuple(reversed(path))
        out.append(hint)

    for cell, m in enumerate(st.cand):
        if not m & (m - 1):
            continue
        for k in bits(m):
            node = cell * n + k
            for seed, failed in ((node, failed_on), (off_base + node, failed_off)):
                if not failed >> node & 1:
                    continue
                se_chain = _se_chain(st, seed, True)
                if se_chain is None:
                    continue
                parents, goal = se_chain
                digits = {x % off_base % n for x in ancestors(parents, (goal,))}
                base = X_FORCING if len(digits) == 1 else FORCING
                if seed < off_base:
                    removable = [(cell, k)]
                else:
                    removable = [(cell, j) for j in bits(m & ~(1 << k))]
                add(base, se_chain, removable)
                # the chain on this digit alone (Sudoku Explainer's forcing X-chain, 6.6),
                # when there is one: it may rate lower than the chain through other digits
                x_chain = _se_chain(st, seed, False) if base == FORCING else None
                if x_chain is not None:
                    add(X_FORCING, x_chain, removable)
    out.sort(key=lambda h: h.rank)
    return out


def _se_chain(st: CandidateState, seed: int, y_links: bool):
    """Sudoku Explainer's static forcing chain from `seed`: breadth first on the grid's
    static links (with `y_links`, those of bivalue cells too; else those between the places
    of the seed's digit alone) until the seed's negation follows, as (parents, that
    negation), or None.  Its complexity is the length of that one chain (a clash on the
    way does not stop it)."""
    n = st.n
    off_base = st.shape.ncells * n
    cand = st.cand
    pos = st.pos
    placed = st.placed
    units = st.shape.units
    cell_units = st.shape.cell_units
    peers, _ = se_tables(st.shape)
    goal = seed - off_base if seed >= off_base else seed + off_base
    parents: dict[int, tuple[int, ...]] = {seed: ()}
    queue = [seed]
    i = 0
    only = seed % off_base % n  # the digit of X-links
    while i < len(queue):
        node = queue[i]
        i += 1
        cell, k = divmod(node % off_base, n)
        if not y_links and k != only:
            continue
        bit = 1 << k
        why = (node,)
        found: list[int] = []
        if node < off_base:
            if y_links:
                found.extend(off_base + cell * n + j for j in bits(cand[cell] & ~bit))
            found.extend(off_base + p * n + k for p in peers[cell] if cand[p] & bit)
        else:
            m = cand[cell]
            if y_links and m.bit_count() == 2:
                found.append(cell * n + (m & ~bit).bit_length() - 1)
            row, col, box = cell_units[cell]
            for u in (box, row, col):
                p = pos[u * n + k]
                if p.bit_count() != 2 or placed[u] & bit:
                    continue
                cells = units[u]
                a, b = cells[(p & -p).bit_length() - 1], cells[p.bit_length() - 1]
                if cell in (a, b):
                    found.append((b if a == cell else a) * n + k)
        for x in found:
            if x in parents:
                continue
            parents[x] = why
            if x == goal:
                return parents, x
            queue.append(x)
    return None


def static_agreements(st: CandidateState, graph: StaticGraph) -> list[Hint]:
    """Every static cell and region forcing chain of a grid (from cells with three digits
    or more, as Sudoku Explainer looks for them), sorted cheapest first."""
    n = st.n
    off_base = graph.off
    cand = st.cand
    clean = graph.clean()
    shape = st.shape
    order_units = _se_units(shape)
    out: list[Hint] = []
    order = 0
    branches: dict[int, dict] = {}

    def agreed(nodes: list[int], seeds) -> None:
        nonlocal order
        common = -1
        for x in nodes:
            common &= clean[x]
            if not common:
                return
        for t in bits(common):
            if t < off_base:
                cell, k = divmod(t, n)
                removable = [(cell, j) for j in bits(cand[cell] & ~(1 << k))]
            else:
                cell, k = divmod(t - off_base, n)
                removable = [(cell, k)] if cand[cell] >> k & 1 else []
            if not removable:
                continue
            c = 0
            singles: list[tuple[int, int]] = []
            cases = []
            for x in nodes:
                b = branches.get(x)
                if b is None:
                    b = branches[x] = static_branch(graph, x, 0).parents
                chain = ancestors(b, (t,))
                c += len(chain)
                singles.extend((y, b[y][0]) for y in chain if y < off_base and b[y])
                path = [t]
                while b[path[-1]]:
                    path.append(b[path[-1]][0])
                cases.append(tuple(reversed(path)))
            rating = round(MULTIPLE + length_bonus(c), 1)
            hint = Hint(rating, c, order, removable, singles, seeds, next(_ids))
            hint.cases = tuple(cases)
            out.append(hint)
            order += 1

    pos = st.pos
    for cell, m in enumerate(cand):
        if m.bit_count() < 3:
            continue
        nodes = [cell * n + k for k in bits(m)]
        agreed(nodes, ("cell", cell))
        for k in bits(m):
            for u in order_units[cell]:
                p = pos[u * n + k]
                cells = shape.units[u]
                if p & (p - 1) and cells[(p & -p).bit_length() - 1] == cell:
                    agreed([cells[i] * n + k for i in bits(p)], ("unit", u, k))
    out.sort(key=lambda h: h.rank)
    return out


def _se_units(shape) -> list[tuple[int, ...]]:
    """Per cell, its units in Sudoku Explainer's order: box, row, column."""
    return [(us[2], us[0], us[1]) for us in shape.cell_units]


def _apply(ctx: Context, hints: list[Hint], cand, pos, parents, off, inner) -> Found:
    """Add the removals of `hints` (cheapest first) that have rule parents as off facts."""
    n = ctx.n
    off_base = ctx.off
    chosen = []  # the rule parents are read on the grid the hints were found on
    for h in hints:
        fresh = [
            (cell, k)
            for cell, k in h.removable
            if off_base + cell * n + k not in parents and cand[cell] >> k & 1
        ]
        if fresh and (why := rule_parents(ctx, h, cand, pos, parents)):
            chosen.append((h, fresh, why))
    if not chosen:
        return None
    for h, fresh, why in chosen:
        for cell, k in fresh:
            x = off_base + cell * n + k
            if x in parents:
                continue
            inner[x] = (h.key, h.complexity)
            if conflict := off(cell, k, why):
                return conflict
    return False


def rule_parents(ctx: Context, h: Hint, cand, pos, parents) -> tuple[int, ...]:
    """The outer off facts an inner chain needs (see the module's docstring)."""
    n = ctx.n
    off_base = ctx.off
    start_cand = ctx.cand
    start_pos = ctx.pos
    shape = ctx.state.shape
    unit_cells = ctx.unit_cells
    out: dict[int, None] = {}

    def naked(cell: int) -> None:
        for j in bits(start_cand[cell] & ~cand[cell]):
            y = off_base + cell * n + j
            if y in parents:
                out[y] = None

    def hidden(u: int, k: int) -> None:
        cells = unit_cells[u]
        for i in bits(start_pos[u * n + k] & ~pos[u * n + k]):
            y = off_base + cells[i] * n + k
            if y in parents:
                out[y] = None

    if h.seeds is not None:
        if h.seeds[0] == "cell":
            naked(h.seeds[1])
        else:
            hidden(h.seeds[1], h.seeds[2])
    for x, w in h.singles:
        cell, k = divmod(x, n)
        other = (w - off_base) // n
        if other == cell:
            naked(cell)
            continue
        us = shape.cell_units[cell]
        for u in (us[2], us[0], us[1]):
            cells = unit_cells[u]
            if other in cells and pos[u * n + k].bit_count() <= 2:
                hidden(u, k)
                break
    return tuple(sorted(out))  # (ascending: the compiled route lists them so too)
