"""Forcing chains that end in a contradiction: the best one, found without following
every branch to its end.

Every candidate's contradiction has its own target, so the order candidates are tried
in does not change the best one; branches run breadth first, so a branch can stop once
any conflict it could still find would rest on too many facts to beat the best so far.
Nishio branches are tried only where `one_digit` says they fail; static ones only
where the static graph says they do.
"""

from __future__ import annotations

from collections.abc import Generator

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.branches import STATIC, Branch, Context, check_time, new_cache
from solvers.human.techniques.chains import length_bonus
from solvers.human.techniques.closure import digit_cells, placed_units
from solvers.human.techniques.common import bits
from solvers.human.techniques.findings import (
    X_FORCING_RATING,
    Finding,
    conflict_chain,
    finding_step,
    opposite,
    useful_limit,
)
from solvers.human.techniques.one_digit import conflicting_cells
from solvers.human.techniques.static_graph import static_graph, static_steps


def nishio_contradictions(
    state: CandidateState, ctx: Context, mode: int, base: float
) -> Step | None:
    """`forcing`'s search for nishio contradictions alone: the same best finding, sooner.

    Every candidate's conclusion has its own target, so the order they are tried in does
    not change the best one; branches run breadth first, so a branch can stop once any
    conflict it could still find would rest on too many facts to beat the best so far.
    """
    n = ctx.n
    on_branches: dict[int, Branch] = state.derived(f"forcing-on-{mode}", new_cache)
    chains: dict[int, tuple[set[int], int]] = state.derived(f"forcing-chains-{mode}", new_cache)
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
    hopeless = side_by_side(ctx, base, seeds, mode, chains)
    seeds = [(x, known) for x, known in seeds if x not in hopeless]
    best, _ = _best_conflict(
        ctx, mode, base, seeds, (0,), lambda seed, limit: ctx.follow([seed], mode, limit), chains
    )
    if best is None:
        return None
    return finding_step(state, ctx, best, mode)


def static_contradictions(state: CandidateState, ctx: Context, base: float) -> Step | None:
    """`nishio_contradictions` for static chains: the seeds whose branches contradict themselves
    are those whose reach holds their own negation (`StaticGraph.failed`); they are
    followed on the state's static links in passes capped by `_DEPTHS`, which find a good
    bound cheaply."""
    n = ctx.n
    off_base = ctx.off
    graph = static_graph(state)
    on_branches: dict[int, Branch] = state.derived(f"forcing-on-{STATIC}", new_cache)
    off_branches: dict[int, Branch] = state.derived(f"forcing-off-{STATIC}", new_cache)
    chains: dict[int, tuple[set[int], int]] = state.derived(f"forcing-chains-{STATIC}", new_cache)
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
            steps = static_steps(graph, seed)
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
    return finding_step(state, ctx, best, STATIC)


_DEPTHS = (6, 10, 16, 28)  # complexity caps of the first passes of `static_contradictions`


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
        limit = useful_limit(best, least_base, cap)
        for seed, known in seeds:
            b = known.get(seed)
            if b is None:
                check_time()
                b = follow(seed, limit)
                if b is None:
                    left.append((seed, known))
                    continue
                known[seed] = b
            if not b.conflict:
                continue
            chain, c = conflict_chain(chains, seed, b, mode)
            single = static and len({x % off_base % n for x in chain}) == 1
            r = round((X_FORCING_RATING if single else base) + length_bonus(c), 1)
            target = seed + off_base if seed < off_base else seed - off_base
            if best is None or (r, c, target) < (best.rating, best.complexity, best.target):
                best = Finding(r, c, target, "contradiction", (seed,), tuple(chain))
                limit = useful_limit(best, least_base, cap)
        if not left:
            break
    return best, left


def side_by_side(ctx: Context, base: float, seeds: list, mode: int, chains: dict) -> set[int]:
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
        c = conflict_chain(chains, seed, b, mode)[1]
        f = Finding(round(base + length_bonus(c), 1), c, opposite(ctx, seed), "", (), ())
        if best is None or (f.rating, c, f.target) < (best.rating, best.complexity, best.target):
            best = f
            limit = useful_limit(best, base, 0)

    for seed, known in seeds:
        if seed in known:
            ended(seed, known[seed])
        else:
            alive.append((seed, known, ctx.steps([seed], mode)))
    while alive:
        check_time()
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
