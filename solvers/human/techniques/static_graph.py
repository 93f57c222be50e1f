"""The static implication graph of a state, built once and shared by the static forcing chains.

A *static* forcing-chain branch depends on the grid alone (see `forcing`): a node is
``cell * n + digit - 1`` for on(cell, digit), plus ``off`` for off, and

- on(c, d) forces off for c's other digits and for d in c's peers;
- off(c, d) forces on for the other digit of a bivalue cell and for the other place
  of d in a unit where d has two places.

Every link has its contrapositive (on(c, d) -> off(p, d) and on(p, d) -> off(c, d), ...),
so a branch reaches a candidate both on and off exactly when it reaches the negation
of its own seed.  A branch holds the facts its seed reaches; breadth first, a fact's
chain has one fact per link from the seed, so what a branch rests on for a fact is
its distance plus one: the level sets of a breadth-first search (level k = the nodes
first reached after k links) give the complexities without recording causes.
"""

from __future__ import annotations

from collections.abc import Generator
from functools import cache, cached_property
from importlib.util import find_spec

from solvers.grid import Shape
from solvers.human.state import CandidateState
from solvers.human.techniques.branches import COMPILED, Branch
from solvers.human.techniques.closure import digit_cells, tables
from solvers.human.techniques.common import bits


@cache
def _geometry(shape: Shape) -> tuple:
    """Per cell its peers as a cell mask and spread over nodes (bit ``peer * n``); per
    unit its cells."""
    n = shape.size
    spread = tuple(sum(1 << (p * n) for p in ps) for ps in shape.peers)
    return tables(shape)[1], spread, shape.units


class StaticGraph:
    """The static links of a state: what every candidate's on and off reach (`reach`,
    bitmasks), whose branches end in a contradiction (`failed`), each node's successors
    as a bitmask (`succ`) and in the order a branch adds them (`successors`, built when
    first asked for, kept in `links`), and per seed its branch's level sets (`levels`).

    Most off facts force nothing (the candidate is neither bivalue nor one of two places
    in a unit): the reach search links on facts only to the off facts that force
    something, and adds the others as a bitmask.  With the static kernel, the reach stays
    in the kernel's rows until a search reads it (most read only `failed`)."""

    def __init__(self, state: CandidateState) -> None:
        n = state.n
        self.n = n
        self.off = off_base = state.shape.ncells * n
        # copies: the links are worked out from them when first asked for
        self.cand = state.cand[:]
        self._pos = state.pos[:]
        self._placed = state.placed[:]
        self.shape = state.shape
        self.geometry = _geometry(state.shape)
        self._reach: dict[int, int] | None = None
        self._rows = compiled_rows(state)
        if self._rows is not None:
            self.failed = self._rows.failed
        else:
            self._reach = reach = self._reach_by_links()
            # the on facts (bit ``cell * n + k``) and off facts (the same bit) whose
            # branches reach their negation: those that end in a contradiction
            failed_on = failed_off = 0
            for x, r in reach.items():
                if x < off_base:
                    if r >> (x + off_base) & 1:
                        failed_on |= 1 << x
                elif r >> (x - off_base) & 1:
                    failed_off |= 1 << (x - off_base)
            self.failed = failed_on, failed_off
        self.links: list[tuple[int, ...] | None] = [None] * (2 * off_base)
        self.succ_masks: dict[int, int] = {}
        self._levels: dict[int, list[int]] = {}  # per seed, its levels so far
        self._seen: dict[int, int] = {}  # per seed, the facts in its levels so far
        self._clean: list[int] | None = None

    @cached_property
    def every(self) -> int:
        """The on nodes of every candidate."""
        n = self.n
        every = 0
        for cell, m in enumerate(self.cand):
            every |= m << (cell * n)
        return every

    @cached_property
    def with_digit(self) -> list[int]:
        """The cells taking each digit."""
        return digit_cells(self.cand, self.n)

    @cached_property
    def strong(self) -> dict[int, list[int]]:
        """The on facts each off fact forces (unordered), for the off facts forcing any."""
        n = self.n
        off_base = self.off
        pos = self._pos
        placed = self._placed
        strong: dict[int, list[int]] = {}
        for cell, m in enumerate(self.cand):
            if m.bit_count() == 2:
                a = (m & -m).bit_length() - 1
                b = m.bit_length() - 1
                at = cell * n
                strong[off_base + at + a] = [at + b]
                strong[off_base + at + b] = [at + a]
        for u, cells in enumerate(self.geometry[2]):
            base = u * n
            for k in range(n):
                p = pos[base + k]
                if p.bit_count() != 2 or placed[u] >> k & 1:
                    continue
                a = cells[(p & -p).bit_length() - 1] * n + k
                b = cells[p.bit_length() - 1] * n + k
                strong.setdefault(off_base + a, []).append(b)
                strong.setdefault(off_base + b, []).append(a)
        return strong

    @property
    def reach(self) -> dict[int, int]:
        """Per node (on, then off, candidate by candidate), every fact its static links
        reach, as a bitmask over nodes (read from the kernel's rows when first asked)."""
        if self._reach is None:
            assert self._rows is not None  # (without them the reach is searched at once)
            self._reach = self._rows.reach()
        return self._reach

    def _reach_by_links(self) -> dict[int, int]:
        """Every node's reach (`reach`), searched on the links in Python."""
        n = self.n
        off_base = self.off
        cand = self.cand
        strong = self.strong
        every = self.every
        peer_masks, spread, _ = self.geometry
        live = [0] * n  # per digit, the cells whose off fact for it forces something
        live_digits = [0] * len(cand)  # per cell, the digits whose off fact forces something
        for x in strong:
            cell, k = divmod(x - off_base, n)
            live[k] |= 1 << cell
            live_digits[cell] |= 1 << k
        # The reach search's links (to the on facts and the off facts forcing something),
        # each node's own part of its reach (itself and the off facts it forces), and the
        # reach of the nodes linked to nothing the search follows.
        size = 2 * off_base
        graph: list[list[int]] = [[]] * size
        own = [0] * size
        done = [0] * size
        index = [-1] * size  # for the search: 0 for the nodes whose reach is known
        roots = []
        nodes = []
        for cell, m in enumerate(cand):
            at = cell * n
            at_off = off_base + at
            peers = peer_masks[cell]
            around = spread[cell]
            cell_live = live_digits[cell]
            ms = m
            while ms:
                low = ms & -ms
                ms ^= low
                k = low.bit_length() - 1
                node = at + k
                mask = ((m ^ low) << at_off | ((around << k) & every) << off_base) | 1 << node
                js = cell_live & ~low
                ps = peers & live[k]
                if js or ps:
                    succ = []
                    while js:
                        j = js & -js
                        js ^= j
                        succ.append(at_off + j.bit_length() - 1)
                    while ps:
                        p = ps & -ps
                        ps ^= p
                        succ.append(off_base + (p.bit_length() - 1) * n + k)
                    graph[node] = succ
                    own[node] = mask
                    roots.append(node)
                else:
                    done[node] = mask
                    index[node] = 0
                x = at_off + k
                if cell_live & low:
                    graph[x] = strong[x]
                    own[x] = 1 << x
                    roots.append(x)
                else:
                    done[x] = 1 << x
                    index[x] = 0
                nodes.append(node)
                nodes.append(x)
        _reach(graph, own, done, index, roots)
        return {x: done[x] for x in nodes}

    def _on_succ(self, cell: int, k: int, m: int) -> int:
        """The off facts on(cell, k) forces, as a bitmask (`m`: the cell's candidates)."""
        n = self.n
        spread = self.geometry[1][cell]
        return ((m & ~(1 << k)) << (self.off + cell * n)) | (
            ((spread << k) & self.every) << self.off
        )

    def opposite(self, node: int) -> int:
        """The negation of a node."""
        return node + self.off if node < self.off else node - self.off

    def conflicting(self, node: int) -> bool:
        """Whether the static branch of `node` reaches a candidate both on and off
        (it does exactly when it reaches the negation of `node`)."""
        return bool(self.reach[node] >> self.opposite(node) & 1)

    def succ(self, node: int) -> int:
        """The facts `node` forces, as a bitmask (memoised)."""
        mask = self.succ_masks.get(node)
        if mask is None:
            if node < self.off:
                cell, k = divmod(node, self.n)
                mask = self._on_succ(cell, k, self.cand[cell])
            else:
                mask = 0
                for x in self.strong.get(node, ()):
                    mask |= 1 << x
            self.succ_masks[node] = mask
        return mask

    def successors(self, node: int) -> tuple[int, ...]:
        """The facts `node` forces, in the order `branches.Context.branch` adds them
        (memoised in `links`): for on(c, d), off for c's other digits, then for the peers
        taking d, ascending; for off(c, d), the other digit of a bivalue cell, then the
        other place in c's units in turn (as `strong` lists them).  (`Context.branch` also
        skips units where the branch placed d: their other place is on already, so
        nothing changes.)"""
        found = self.links[node]
        if found is not None:
            return found
        n = self.n
        off_base = self.off
        if node >= off_base:
            found = self.links[node] = tuple(self.strong.get(node, ()))
            return found
        cell, k = divmod(node, n)
        m = self.cand[cell] & ~(1 << k)
        at = off_base + cell * n
        out = []
        while m:
            low = m & -m
            m ^= low
            out.append(at + low.bit_length() - 1)
        ps = self.geometry[0][cell] & self.with_digit[k]
        at = off_base + k - n
        while ps:
            low = ps & -ps
            ps ^= low
            out.append(at + low.bit_length() * n)
        found = self.links[node] = tuple(out)
        return found

    def levels(self, seed: int, wanted: int = -1) -> list[int]:
        """The level sets of the static branch of `seed`, as far as needed to hold the
        facts of `wanted` it reaches (all by default): level k holds the facts first
        reached after k links (level 0: the seed) (memoised, and resumed when asked for
        more)."""
        known = self._levels.get(seed)
        if known is None:
            known = self._levels[seed] = [1 << seed]
            self._seen[seed] = 1 << seed
        seen = self._seen[seed]
        frontier = known[-1]
        if not frontier or not wanted & ~seen:
            return known
        succ = self.succ_masks
        while True:
            reached = 0
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                node = low.bit_length() - 1
                mask = succ.get(node)
                if mask is None:
                    mask = self.succ(node)
                reached |= mask
            frontier = reached & ~seen
            seen |= frontier
            known.append(frontier)  # the last level empty: the branch is complete
            if not frontier or not wanted & ~seen:
                break
        self._seen[seed] = seen
        return known

    def clean(self) -> list[int]:
        """Per on fact, what its static branch holds besides it, or 0 when the branch ends
        in a contradiction (memoised)."""
        if self._clean is None:
            off_base = self.off
            clean = [0] * off_base
            rows = self._rows
            if rows is not None and self._reach is None:  # the on facts' rows alone
                failed_on = self.failed[0]
                for j, x in enumerate(rows.nodes[: len(rows.nodes) // 2]):
                    if not failed_on >> x & 1:
                        clean[x] = rows.row(j) ^ (1 << x)
            else:
                for x, r in self.reach.items():
                    if x < off_base and not r >> (x + off_base) & 1:
                        clean[x] = r ^ (1 << x)
            self._clean = clean
        return self._clean

    def shared_groups(self, by_cell: bool) -> list[tuple[list[int], int]] | None:
        """The groups whose static branches all end without a contradiction and share a
        fact besides their seeds, in order, each as (its nodes, the facts shared): with
        `by_cell` the cells with three digits or more, else per unit (in order) and digit
        the unit's places of the digit, where its first place's cell has three digits or
        more.  None without the kernel's rows (`clean` tells the same)."""
        rows = self._rows
        if rows is None:
            return None

        from solvers.human.techniques.static_kernel import geometry, shared_groups

        n = self.n
        ids, commons = shared_groups(
            rows.rows, rows.node_array, n, *rows.grid, geometry(self.shape)[0], by_cell
        )
        data = commons.tobytes()
        width = commons.shape[1] * 8
        out = []
        for i, g in enumerate(ids.tolist()):
            common = int.from_bytes(data[i * width : (i + 1) * width], "little")
            if by_cell:
                nodes = [g * n + k for k in bits(self.cand[g])]
            else:
                u, k = divmod(g, n)
                cells = self.geometry[2][u]
                nodes = [cells[i] * n + k for i in bits(self._pos[g])]
            out.append((nodes, common))
        return out

    def agreement(self, nodes: list[int], common: int) -> tuple[int, int]:
        """The cheapest of `common`, facts the static branches of `nodes` (a cell's digits
        or a unit's places, none ending in a contradiction) all hold: (the facts it rests
        on, counted per branch, the node), the lowest node among the cheapest."""
        cost: dict[int, int] = {}
        for x in nodes:
            for depth, level in enumerate(self.levels(x, common), 1):
                hit = level & common
                while hit:
                    low = hit & -hit
                    hit ^= low
                    t = low.bit_length() - 1
                    cost[t] = cost.get(t, 0) + depth
        return min((c, t) for t, c in cost.items())


def static_graph(state: CandidateState) -> StaticGraph:
    """The state's `StaticGraph` (memoised until the state changes)."""
    return state.derived("forcing-static-graph", StaticGraph)


def _reach(
    graph: list[list[int]], own: list[int], done: list[int], index: list[int], roots: list[int]
) -> None:
    """Fill in `done`, for each of `roots`, with every node its links reach, as a bitmask:
    its `own` bits (itself and the successors left out of `graph`) and the reach of its
    successors (those that are not roots have theirs in `done` already, and 0 in `index`;
    the others -1).

    A static branch that ends without a conflict holds exactly these facts, and a
    static branch ends in a conflict exactly when they include a candidate both on
    and off.  Strongly connected components (Tarjan's algorithm, iteratively) come out
    in reverse topological order, so each one's reach is its members' bits and the
    reach of the components its links enter, all known by then.
    """
    low = [0] * len(graph)
    stack: list[int] = []
    counter = 0
    for root in roots:
        if index[root] >= 0:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        work = [(root, iter(graph[root]))]
        while work:
            v, succ = work[-1]
            for w in succ:
                if index[w] < 0:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    work.append((w, iter(graph[w])))
                    break
                if not done[w] and index[w] < low[v]:
                    low[v] = index[w]  # w is on the stack: same component
            else:
                work.pop()
                lv = low[v]
                if work:
                    u = work[-1][0]
                    if lv < low[u]:
                        low[u] = lv
                if lv != index[v]:
                    continue
                if stack[-1] == v:  # a component of one node
                    stack.pop()
                    mask = own[v]
                    for x in graph[v]:
                        mask |= done[x]
                    done[v] = mask
                    continue
                at = stack.index(v)
                members = stack[at:]
                del stack[at:]
                mask = 0
                for w in members:
                    mask |= own[w]
                for w in members:
                    for x in graph[w]:
                        mask |= done[x]  # 0 for x in this component
                for w in members:
                    done[w] = mask


def static_branch(graph: StaticGraph, seed: int, limit: int):
    """`Context.branch([seed], STATIC, limit)` on the state's static links."""
    steps = static_steps(graph, seed)
    try:
        while True:
            depth = next(steps)
            if limit and depth + 2 > limit:
                return None  # a conflict found from here rests on more than `limit` facts
    except StopIteration as done:
        return done.value


def static_steps(graph: StaticGraph, seed: int) -> Generator[int, None, Branch]:
    """`static_branch` as a generator: before it takes the facts ``depth + 1`` links away
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


class ReachRows:
    """The static kernel's reach (`static_kernel.full_reach`): per row its node (on
    nodes, then off nodes, candidate by candidate) and its reach as words, read as a
    bitmask over nodes by `row`; `failed` as `StaticGraph.failed`."""

    def __init__(self, grid, nodes, rows, failed) -> None:
        self.grid = grid  # the candidates and the units' positions as the kernel read them
        self.node_array = nodes
        self.rows = rows
        self.nodes: list[int] = nodes.tolist()
        self._data = rows.tobytes()
        self._width = rows.shape[1] * 8
        self.failed = (
            int.from_bytes(failed[0].tobytes(), "little"),
            int.from_bytes(failed[1].tobytes(), "little"),
        )

    def row(self, j: int) -> int:
        """Row `j`'s reach as a bitmask over nodes."""
        w = self._width
        return int.from_bytes(self._data[j * w : (j + 1) * w], "little")

    def reach(self) -> dict[int, int]:
        """Every row as `StaticGraph.reach` has it: on, then off, candidate by candidate
        (the order of the links' search)."""
        nodes = self.nodes
        ncand = len(nodes) // 2
        reach: dict[int, int] = {}
        for i in range(ncand):
            for j in (i, ncand + i):
                reach[nodes[j]] = self.row(j)
        return reach


def compiled_rows(state: CandidateState) -> ReachRows | None:
    """The state's static reach by the static kernel; None without numba, for grids above
    16x16, or when the compiled routes are switched off (`branches.COMPILED`)."""
    if not COMPILED.get() or state.n > 16 or find_spec("numba") is None:
        return None
    import numpy as np

    from solvers.human.techniques.static_kernel import full_reach, geometry

    units, cell_units, peers, _ = geometry(state.shape)
    ints = np.int64
    cand = np.array(state.cand, dtype=ints)
    pos = np.array(state.pos, dtype=ints)
    placed = np.array(state.placed, dtype=ints)
    found = full_reach(cand, pos, placed, state.n, units, cell_units, peers)
    return ReachRows((cand, pos), *found)


def compiled_reach(state: CandidateState) -> dict[int, int] | None:
    """`StaticGraph.reach` by the static kernel (`compiled_rows`): the same reach, in the
    same order; None where the kernel does not serve."""
    rows = compiled_rows(state)
    return None if rows is None else rows.reach()
