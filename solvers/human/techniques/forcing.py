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
- ``dynamic_forcing_chain_plus`` (9.0): when a branch's singles run dry, it also
  uses locked candidates, then hidden pairs, naked pairs and X-Wings (`inner_rules`),
  the first rule that concludes anything;
- ``nested_forcing_chain`` (9.5), ``nested_multiple_chain`` (10.0),
  ``nested_dynamic_chain`` (10.5): Sudoku Explainer's nested levels 2, 3 and 4, whose
  branches also use forcing chains of their own (`nested`: static ones; static cell and
  region ones too; dynamic contradictions); such a fact rests on the outer facts its
  inner chain needed, and the complexity adds the inner chains' own, once each
  (`nested_complexity`), as Sudoku Explainer counts them.

The rating adds the chain length the Sudoku-Explainer way: the *complexity*
is the number of facts the conclusion rests on (its ancestors in the
branches), and `length_bonus` turns it into tenths.  Every candidate is
tried and the conclusion with the lowest rating (then the smallest
complexity, then the lowest cell) is returned, so chains are found shortest
first; level 4 returns its first conclusion (its search is costly).  Where other
rules run inside the branches, a branch that ends in a contradiction still counts,
with the facts it had by then, for the agreements of its cell or unit (as Sudoku
Explainer counts it).
Nothing here assumes a unique solution: each conclusion holds in every
solution.

This module holds the kinds and their searches; `branches` follows a branch, `carry`
works out (and carries over) the dynamic branches' end states, `contradictions` finds
the best contradiction, and `findings` rates, ranks and words a conclusion.
"""

from __future__ import annotations

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.branches import (
    COMPILED,
    DYNAMIC,
    NESTED,
    NESTED_DYNAMIC,
    NESTED_MULTIPLE,
    NISHIO,
    PLUS,
    STATIC,
    Branch,
    Context,
    ancestors,
    check_time,
    new_cache,
)
from solvers.human.techniques.carry import end_states, fact_bit
from solvers.human.techniques.chains import length_bonus
from solvers.human.techniques.common import bits
from solvers.human.techniques.compiled_branches import (
    compiled,
    dynamic_ends,
    filters,
    group_agreement,
    nested_ends,
    plus_ends,
)
from solvers.human.techniques.contradictions import (
    nishio_contradictions,
    side_by_side,
    static_contradictions,
)
from solvers.human.techniques.findings import (
    DYNAMIC_RATING,
    FORCING_RATING,
    MULTIPLE_RATING,
    NESTED_DYNAMIC_RATING,
    NESTED_MULTIPLE_RATING,
    NESTED_RATING,
    NISHIO_RATING,
    PLUS_RATING,
    SORT_KEY,
    Finding,
    conflict_chain,
    finding_rank,
    finding_step,
    is_useful,
    useful_limit,
)
from solvers.human.techniques.static_graph import static_branch, static_graph


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


_CONTRADICTION = frozenset({"contradiction"})
_AGREEMENTS = frozenset({"cell", "region"})


def search_chains(
    state: CandidateState, mode: int, kinds: frozenset[str], base: float
) -> Step | None:
    """The best conclusion of the given kinds, or None."""
    if cannot_be_unique(state):
        return None
    ctx = Context(state)
    if mode == STATIC:  # static chains have searches of their own
        if kinds == _CONTRADICTION:
            return static_contradictions(state, ctx, base)
        if kinds <= _AGREEMENTS:
            return _agreements(state, ctx, kinds, base)
        raise ValueError(f"no static search for {sorted(kinds)}")
    if mode == NISHIO and kinds == _CONTRADICTION:
        return nishio_contradictions(state, ctx, mode, base)
    n = ctx.n
    off_base = ctx.off
    cand = state.cand
    best: Finding | None = None
    # Branches depend only on the grid and the mode: techniques of one mode share them.
    on_branches: dict[int, Branch] = state.derived(f"forcing-on-{mode}", new_cache)
    off_branches: dict[int, Branch] = state.derived(f"forcing-off-{mode}", new_cache)
    first_only = mode == NESTED_DYNAMIC  # (its inner search is costly)
    chains: dict[int, tuple[set[int], int]] = state.derived(f"forcing-chains-{mode}", new_cache)

    def consider(f: Finding) -> None:
        nonlocal best
        if best is None or finding_rank(f) < finding_rank(best):
            best = f

    def rating(complexity: int) -> float:
        return round(base + length_bonus(complexity), 1)

    # The branches' ends, where the kernel follows them: every branch at once, its facts
    # (None for a contradiction) telling which need following fact by fact; nested ones
    # are each made a `Branch` when needed (`compiled_branches`).
    most = None
    made = None
    nested = None
    if mode == PLUS:
        most = plus_ends(ctx)
    elif mode == DYNAMIC and compiled_dynamic(state.shape):
        most = dynamic_ends(ctx)
    elif mode in (NESTED, NESTED_MULTIPLE) and COMPILED.get():
        nested = nested_ends(ctx, mode)
        if nested is not None:
            most, made = nested.facts, nested.branch
    # Otherwise dynamic branches' end states (`closure`) tell the same.
    end_state = end_states(state, ctx, True) if mode == DYNAMIC and most is None else None
    # With the kernel's ends, which groups may conclude anything, found in one call.
    groups = filters(ctx, most, mode == DYNAMIC) if most is not None else None

    def on_branch(node: int) -> Branch:
        b = on_branches.get(node)
        if b is None:
            b = on_branches[node] = made(node) if made else ctx.branch([node], mode)
        return b

    def off_branch(node: int) -> Branch:
        b = off_branches.get(node)
        if b is None:
            b = off_branches[node] = made(node) if made else ctx.branch([node], mode)
        return b

    def conflicted(node: int) -> bool:
        if end_state is not None:
            return end_state(node) is None
        if most is not None:
            return most.failed(node)  # (the ends are the branches' own)
        return (on_branch if node < off_base else off_branch)(node).conflict is not None

    besides: dict[int, int | None] = {}

    def facts_besides(x: int) -> int | None:
        """The facts of x's branch but x, as the end states or the ends pack them; None
        for a contradiction (with the ends, also for a seed they lack)."""
        if x in besides:
            return besides[x]
        if most is not None:
            facts = most.get(x)
            found = None if facts is None else facts & ~(1 << x)
        else:
            assert end_state is not None  # (one of the two is there)
            facts = end_state(x)
            found = None if facts is None else facts & ~(1 << fact_bit(x, n, off_base))
        besides[x] = found
        return found

    def shared(nodes: list[int]) -> bool:
        """Whether the branches of `nodes`, none in conflict, may share a fact besides them
        (with the (+) and nested ends: whether the branches may share one, in conflict or
        not)."""
        if most is None and end_state is None:
            return True
        common = -1
        for x in nodes:
            facts = facts_besides(x)
            if facts is None:
                return True  # a contradiction or no closure: the branches will tell
            common &= facts
        return bool(common)

    def beaten(nodes: list[int], kind: str) -> bool:
        """Whether the group's cheapest agreement cannot beat the best so far (none at all
        included), told by the kernel without making the branches (where it follows
        them)."""
        limit = useful_limit(best, base, 0)
        if nested is not None:
            found = nested.agreement(nodes, limit)
        elif most is not None and mode in (DYNAMIC, PLUS):
            found = group_agreement(ctx, most, nodes, mode == DYNAMIC, limit)
        else:
            return False
        if found is None:
            return True
        c, target = found
        return best is not None and (rating(c), c, SORT_KEY[kind], target) >= finding_rank(best)

    def agree(nodes: list[int], kind: str) -> None:
        if mode == DYNAMIC and any(conflicted(x) for x in nodes):
            return  # a contradiction: the dynamic branches agree on nothing
        if not shared(nodes) or beaten(nodes, kind):
            return
        branches = [on_branch(x) for x in nodes]
        agreed_facts(ctx, branches, nodes, kind, consider, rating, mode >= PLUS)

    contradictions = "contradiction" in kinds

    # Dynamic contradictions: the conflicting branches are followed side by side, one link
    # further at a time, each only as far as it could still beat the best one found.
    hopeless: set[int] = set()
    if end_state is not None and contradictions and not compiled_dynamic(state.shape):
        # (compiled, each branch is cheap enough to follow on its own with a limit)
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
        hopeless = side_by_side(ctx, base, seeds, mode, chains)

    def conflict_branch(node: int) -> Branch | None:
        """The branch of a conflicting node, None when it cannot beat the best."""
        if mode != DYNAMIC:
            return on_branch(node) if node < off_base else off_branch(node)
        if node in hopeless:
            return None
        known = on_branches if node < off_base else off_branches
        b = known.get(node)
        if b is None:
            b = ctx.follow([node], mode, useful_limit(best, base, 0))
            if b is None:
                return None
            known[node] = b
        return b

    def conflict_beaten(node: int, target: int) -> bool:
        """Whether a nested branch's contradiction cannot beat the best so far, told by
        its complexity from the kernel, without making the branch."""
        if nested is None or best is None:
            return False
        c = nested.conflict_cost(node)
        return (rating(c), c, SORT_KEY["contradiction"], target) >= finding_rank(best)

    def conflict_facts(node: int) -> tuple[set[int], int] | None:
        """What the contradiction of a conflicting node's branch rests on, and its
        complexity; None when it cannot beat the best.  (Compiled dynamic branches give
        just that, without becoming a `Branch`.)"""
        if mode == DYNAMIC and compiled_dynamic(state.shape):
            found = chains.get(node)
            if found is not None:
                return found
            # the ends know it, found without a limit, and the level it was met at
            known = most.conflict(node) if most is not None else None
            assert known is not None  # (a seed of the ends whose branch failed)
            facts, size, depth = known
            limit = useful_limit(best, base, 0)
            if limit and depth + 1 > limit:
                return None  # (the limit stops the branch before it)
            chains[node] = found = (facts, size)
            return found
        if mode == PLUS and most is not None:
            found = chains.get(node)
            if found is None:  # (the ends know it: no branch to make)
                known = most.conflict(node)
                assert known is not None  # (a seed of the ends whose branch failed)
                found = chains[node] = known[:2]
            return found
        b = conflict_branch(node)
        if b is None:
            return None
        chain, c = conflict_chain(chains, node, b, mode)
        return chain, c + nested_complexity(b, chain)

    # (with the kernel's ends, only the cells where a seed's branches may conclude anything)
    for cell in groups.busy if groups else range(len(cand)):
        m = cand[cell]
        if not m or not m & (m - 1) or not (contradictions or "both" in kinds):
            continue
        check_time()
        for k in bits(m):
            node = cell * n + k
            on_conflict = conflicted(node)
            if (
                contradictions
                and on_conflict
                and not conflict_beaten(node, off_base + node)
                and (found := conflict_facts(node))
            ):
                on_chain, c = found
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
                    return finding_step(state, ctx, best, mode)
            if mode == NISHIO or not (contradictions or "both" in kinds) or m.bit_count() == 2:
                # in a bivalue cell, d off is the other digit on: its branch is tried already
                continue
            off_conflict = conflicted(off_base + node)
            if (
                contradictions
                and off_conflict
                and not conflict_beaten(off_base + node, node)
                and (found := conflict_facts(off_base + node))
            ):
                chain, size = found
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
                    return finding_step(state, ctx, best, mode)
            if (
                "both" in kinds
                and (mode >= PLUS or not (on_conflict or off_conflict))
                and m.bit_count() > 2
                and (groups.both[node] if groups else shared([node, off_base + node]))
                and not beaten([node, off_base + node], "both")
            ):
                b_on = on_branch(node)
                b_off = off_branch(off_base + node)
                for target in b_on.parents.keys() & b_off.parents.keys():
                    if target in (node, off_base + node) or not is_useful(ctx, target):
                        continue
                    a = ancestors(b_on.parents, (target,))
                    b = ancestors(b_off.parents, (target,))
                    c = len(a) + len(b) + nested_sum(((b_on, a), (b_off, b)))
                    consider(
                        Finding(rating(c), c, target, "both", (node, off_base + node), (*a, *b))
                    )
    if "cell" in kinds:
        for cell, m in enumerate(cand):
            if not m or not m & (m - 1) or (groups and not groups.cells[cell]):
                continue
            nodes = [cell * n + k for k in bits(m)]
            check_time()
            agree(nodes, "cell")
    if "region" in kinds:
        pos = state.pos
        for u, cells in enumerate(state.shape.units):
            for k in range(n):
                p = pos[u * n + k]
                if not p or not p & (p - 1) or (groups and not groups.places[u * n + k]):
                    continue
                agree([cells[i] * n + k for i in bits(p)], "region")
    if best is None:
        return None
    return finding_step(state, ctx, best, mode)


def compiled_dynamic(shape) -> bool:
    """Whether the compiled kernel follows this search's dynamic branches."""
    return COMPILED.get() and compiled(shape)


def nested_complexity(b: Branch, chain) -> int:
    """What the chains nested in a branch add to the complexity of a conclusion resting
    on `chain` (Sudoku Explainer adds each inner chain's complexity once)."""
    if not b.inner:
        return 0
    return nested_sum(((b, chain),))


def nested_sum(pairs) -> int:
    """What the chains nested in branches add to a conclusion resting on facts of them
    (`pairs`: (branch, facts)): each inner chain once, however many facts rest on it."""
    counted: set[tuple] = set()
    for b, chain in pairs:
        if b.inner:
            inner = b.inner
            counted.update(inner[x] for x in chain if x in inner)  # (chain, its complexity)
    return sum(c for _, c in counted)


def _agreements(
    state: CandidateState, ctx: Context, kinds: frozenset[str], base: float
) -> Step | None:
    """`search_chains` for static cell and region forcing chains: the same best finding, from
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
    on_branches: dict[int, Branch] = state.derived(f"forcing-on-{STATIC}", new_cache)
    chain: list[int] = []
    for x in nodes:
        b = on_branches.get(x)
        if b is None:
            b = on_branches[x] = static_branch(graph, x, 0)
        chain.extend(ancestors(b.parents, (target,)))
    kind = "cell" if best[0][2] == SORT_KEY["cell"] else "region"
    f = Finding(rating, c, target, kind, tuple(nodes), tuple(chain))
    return finding_step(state, ctx, f, STATIC)


def _agreeing(ctx: Context, kind: str, base: float) -> tuple:
    """The best agreement of the cells (`kind` "cell") or the units' places ("region") of
    the state, as (rank, nodes), or () for none.  Every fact a branch reaches is a
    candidate of the grid, so every agreement is useful; the first of equal ranks wins.
    Only where the branches all end without a conflict and share a fact besides their
    assumptions (`StaticGraph.clean`) can they agree on something."""
    state = ctx.state
    graph = static_graph(state)
    n = ctx.n
    cand = ctx.cand
    key = SORT_KEY[kind]
    best: tuple = ()

    def consider(nodes: list[int], common: int) -> None:
        nonlocal best
        c, target = graph.agreement(nodes, common)
        rank = (round(base + length_bonus(c), 1), c, key, target)
        if not best or rank < best[0]:
            best = (rank, nodes)

    groups = graph.shared_groups(kind == "cell")  # (the kernel's, where it serves)
    if groups is not None:
        check_time()
        for nodes, common in groups:
            consider(nodes, common)
        return best
    clean = graph.clean()
    if kind == "cell":
        for cell, m in enumerate(cand):
            if m.bit_count() < 3:
                continue
            check_time()
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


def agreed_facts(
    ctx, branches: list[Branch], nodes: list[int], kind: str, consider, rating, partial: bool
) -> None:
    """Facts every branch of a cell or unit forces are true.  With `partial` (the branches
    with other rules, as Sudoku Explainer has them) a branch ending in a contradiction
    counts with the facts it had by then (the fewer facts, the fewer in common: still
    sound); without, such a branch is left to the contradiction search."""
    if not partial and any(b.conflict for b in branches):
        return
    common = set(branches[0].parents)
    for b in branches[1:]:
        common &= b.parents.keys()
    for target in common:
        if target in nodes or not is_useful(ctx, target):
            continue
        chain: list[int] = []
        parts = []
        for b in branches:
            part = ancestors(b.parents, (target,))
            parts.append((b, part))
            chain.extend(part)
        c = len(chain) + nested_sum(parts)
        consider(Finding(rating(c), c, target, kind, tuple(nodes), tuple(chain)))


def forcing_chain(state: CandidateState) -> Step | None:
    """A candidate whose static consequences contradict each other is false (or true)."""
    return search_chains(state, STATIC, frozenset({"contradiction"}), FORCING_RATING)


def nishio(state: CandidateState) -> Step | None:
    """A candidate that, followed on its own digit, leaves a unit or cell without it is false."""
    return search_chains(state, NISHIO, frozenset({"contradiction"}), NISHIO_RATING)


def cell_forcing_chain(state: CandidateState) -> Step | None:
    """What every digit of a cell forces (static chains) is true.

    Sudoku Explainer searches cells and units as one rule (multiple forcing chains) and
    applies the cheapest conclusion of either kind, so this finds unit ones too."""
    return search_chains(state, STATIC, frozenset({"cell", "region"}), MULTIPLE_RATING)


def region_forcing_chain(state: CandidateState) -> Step | None:
    """What every place of a digit in a unit forces (static chains) is true."""
    return search_chains(state, STATIC, frozenset({"region"}), MULTIPLE_RATING)


_ALL = frozenset({"contradiction", "both", "cell", "region"})


def dynamic_forcing_chain(state: CandidateState) -> Step | None:
    """Dynamic chains: contradictions, both states agreeing, cells and units agreeing."""
    return search_chains(state, DYNAMIC, _ALL, DYNAMIC_RATING)


def dynamic_forcing_chain_plus(state: CandidateState) -> Step | None:
    """Dynamic chains whose branches also use locked candidates."""
    return search_chains(state, PLUS, _ALL, PLUS_RATING)


def nested_forcing_chain(state: CandidateState) -> Step | None:
    """Dynamic chains (+) whose branches also use static forcing chains (`nested`)."""
    return search_chains(state, NESTED, _ALL, NESTED_RATING)


def nested_multiple_chain(state: CandidateState) -> Step | None:
    """Dynamic chains (+) whose branches also use static forcing chains, then static cell
    and region forcing chains (`nested`)."""
    return search_chains(state, NESTED_MULTIPLE, _ALL, NESTED_MULTIPLE_RATING)


def nested_dynamic_chain(state: CandidateState) -> Step | None:
    """Dynamic chains (+) whose branches also use dynamic contradictions (the first
    conclusion found: the inner searches are costly)."""
    return search_chains(state, NESTED_DYNAMIC, frozenset({"contradiction"}), NESTED_DYNAMIC_RATING)
