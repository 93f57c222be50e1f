"""Dynamic forcing chains' end states, worked out once per state and carried over.

The dynamic search asks, for every candidate, where its branch ends (`Closure`); the
static links tell much of it first (a branch holds every fact its static links reach,
unless it ends in a contradiction), and most of the rest carries over from the grid
of the last pass: the engine moves from grid to grid by removing candidates, a few at
a time, and most branches never look at them.  The last pass is kept in the solve's
memo (`CandidateState.memo`).
"""

from __future__ import annotations

from solvers.human.state import CandidateState
from solvers.human.techniques.branches import Context, check_time, new_cache
from solvers.human.techniques.closure import Closure, changed_mask, since
from solvers.human.techniques.common import bits
from solvers.human.techniques.static_graph import static_graph


def fact_bit(node: int, n: int, off_base: int) -> int:
    """Where a node is in a packed end state (`Closure.pack`)."""
    ncells = off_base // n
    if node < off_base:
        cell, k = divmod(node, n)
        return k * ncells + cell
    cell, k = divmod(node - off_base, n)
    return (n + k) * ncells + cell


def end_states(state: CandidateState, ctx: Context, links: bool):
    """`Closure.facts` of this state's branches, memoised per seed.

    With `links` (dynamic branches) the static links help: a dynamic branch holds every
    fact its static links reach (`StaticGraph.reach`), unless it ends in a contradiction.  So
    a seed that reaches a seed whose branch ends in one ends in one too, and seeds that
    reach each other end in the same state.  The end states of all candidates are worked
    out first, in an order where the seeds a seed reaches come before it, each from the
    largest end state of a seed it reaches; or carried over from the grid of the last
    pass (`carried_ends`): unchanged where the steps since removed no candidate near its
    facts, else followed on from there when the grid has no singles."""
    known: dict = state.derived(f"forcing-facts-{links}", new_cache)
    closure = state.derived("forcing-closure", lambda st: Closure(st.shape, st.cand, st.placed))
    if not links:

        def end_state(node: int) -> int | None:
            if node in known:
                return known[node]
            facts = known[node] = closure.facts(node, links)
            return facts

        return end_state
    ready: dict = state.derived("forcing-facts-ready", new_cache)
    if not ready:
        ready[True] = True  # worked out below (past the deadline, the rest when asked for)
        reach = static_graph(state).reach
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
        carried, changed, steps = carried_ends(state, links)
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
                check_time()
                end = closure.end(node, links, largest_end(r & done & ~(1 << node), ends))
            ends[node] = end
            facts = known[node] = by_reach[r] = end[0]
            if facts is None:
                failed |= 1 << node
            else:
                done |= 1 << node
        last_grid, last_ends = last_pass(state)
        last_grid["grid"] = (links, state.cand[:], state.placed[:])
        last_ends.clear()
        last_ends.update(ends)

    def known_state(node: int) -> int | None:
        if node in known:
            return known[node]
        facts = known[node] = closure.facts(node, links)
        return facts

    return known_state


def largest_end(seeds: int, ends: dict[int, tuple[int | None, int]]) -> int:
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


def last_pass(state: CandidateState) -> tuple[dict, dict]:
    """Where the solve's memo keeps the last `end_states` pass: its grid and rules
    (``"grid"``: (`links`, candidates, placed digits)), and its `Closure.end` results by
    seed.  The reuse rests on the two grids alone, not on how one came from the other:
    `changed_mask` refuses the pass unless this grid is that one with candidates
    removed."""
    shape = state.shape
    ncells = shape.ncells
    grid = state.memo.table("forcing-last-grid", shape, 40 * (ncells + 3 * state.n))
    ends = state.memo.table("forcing-last-ends", shape, ncells * state.n // 2 + 200)
    return grid, ends


def carried_ends(
    state: CandidateState, links: bool
) -> tuple[dict[int, tuple[int | None, int]], int, tuple[int, list[int]] | None]:
    """The `Closure.end` results of the last `end_states` pass; the facts (packed) a
    branch must not hold there to end the same way here (`changed_mask`); and, when this
    grid has no singles, how it came from that one (`since`, for `Closure.end_since`).
    The engine moves from grid to grid by removing candidates, a few at a time, and most
    branches never look at them; ({}, 0, None) when this grid is not the last one with
    candidates removed (whatever removed them) or its branches followed other rules
    (`links`)."""
    last_grid, ends = last_pass(state)
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
        if no_singles(state)
        else None
    )
    return ends, changed, steps


def no_singles(state: CandidateState) -> bool:
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
