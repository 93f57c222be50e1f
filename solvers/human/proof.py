"""A forcing chain's proof, rebuilt for the explanation from the step and the grid before it.

The engine keeps of a forcing-chain step only what it needs to rank it (the facts it
rests on, as a set).  A person needs the links: which fact forced which.  Branches are
deterministic, so following the step's assumptions again from the candidates before the
step (`Step.before`, kept when the engine traces) gives the very facts the engine used,
with their causes; the engine's own search is not touched.  A fact a nested chain gave
rests on the outer facts that inner chain needed; where the candidate's own dynamic
branch, from the outer branch's candidates at that point, ends in a contradiction, that
contradiction is shown under it (for the level-4 chains it is the inner chain itself).
The static chains of levels 2 and 3 are found again on the outer branch's grid where
they ran and shown themselves: a forcing chain to its contradiction, a cell or unit
chain case by case.

The rebuilt proof is checked against the step: its complexity must be the step's (the
number of facts, counted the engine's way, with the facts of the chains nested in it),
else `forcing_proof` answers None.
"""

from __future__ import annotations

from typing import NamedTuple

from solvers.grid import Shape
from solvers.human.state import CandidateState, digits
from solvers.human.step import Step
from solvers.human.techniques.branches import (
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
)
from solvers.human.techniques.forcing import nested_sum
from solvers.human.techniques.nested import pure_hints, rule_parents
from solvers.human.techniques.static_graph import static_branch, static_graph

MODES = {
    "forcing_chain": STATIC,
    "cell_forcing_chain": STATIC,
    "region_forcing_chain": STATIC,
    "nishio": NISHIO,
    "dynamic_forcing_chain": DYNAMIC,
    "dynamic_forcing_chain_plus": PLUS,
    "nested_forcing_chain": NESTED,
    "nested_multiple_chain": NESTED_MULTIPLE,
    "nested_dynamic_chain": NESTED_DYNAMIC,
}
"""The branch mode of each forcing-chain technique."""


class Link(NamedTuple):
    """One fact of a branch and the facts that forced it (none for the assumption)."""

    fact: int
    because: tuple[int, ...]
    nested: BranchProof | None = None  # the inner chain that refuted the fact's negation
    refuted: bool = False  # a nested chain gave the fact (`nested` or `cases` when rebuilt)
    cases: tuple[BranchProof, ...] = ()  # an inner cell or unit chain: each case to its end


class BranchProof(NamedTuple):
    """What one assumption forces, in the order found: the links up to the end."""

    seed: int
    links: tuple[Link, ...]
    end: tuple[int, ...]  # the clash (an on and an off fact) or the conclusion
    clash: bool


class Proof(NamedTuple):
    """A forcing chain's branches, with the node encoding to name their facts."""

    kind: str  # contradiction | both | cell | region
    branches: tuple[BranchProof, ...]
    target: int
    n: int
    off: int
    shape: Shape

    def name(self, node: int) -> str:
        """'r1c2=5' or 'r1c2<>5'."""
        on = node < self.off
        cell, k = divmod(node if on else node - self.off, self.n)
        return f"{self.shape.cell_name(cell)}{'=' if on else '<>'}{k + 1}"

    def cell_digit(self, node: int) -> tuple[int, int, bool]:
        """(cell, digit, on) of a node."""
        on = node < self.off
        cell, k = divmod(node if on else node - self.off, self.n)
        return cell, k + 1, on


def state_of(snapshot: tuple[int, ...], grid_shape: Shape) -> CandidateState:
    """The candidate state a snapshot (`CandidateState.snapshot`) was taken of."""
    state = CandidateState(grid_shape)
    full = state.full_mask
    for cell, v in enumerate(snapshot):
        if v > 0:
            for d in digits(full & ~v):
                state.eliminate(cell, d)
    for cell, v in enumerate(snapshot):
        if v < 0 and not state.values[cell]:
            state.place(cell, -v)
    return state


def _seeds(step: Step, n: int, off: int) -> tuple[list[int], int]:
    """The assumptions of a forcing-chain step and the node it concludes."""
    kind = step.detail[0]
    if step.placements:
        cell, d = step.placements[0]
        target = cell * n + d - 1
    else:
        cell, d = step.eliminations[0]
        target = off + cell * n + d - 1
    if kind == "contradiction":
        return [target - off if target >= off else target + off], target
    if kind == "both":
        node = step.cells[0] * n + step.digits[0] - 1
        return [node, off + node], target
    if kind == "cell":
        return [step.cells[0] * n + d - 1 for d in step.digits], target
    return [c * n + step.digits[0] - 1 for c in step.cells], target


def _branch(state: CandidateState, seed: int, mode: int) -> Branch:
    if mode == STATIC:
        found = static_branch(static_graph(state), seed, 0)
        if found is None:
            raise RuntimeError("a static branch without a limit stopped early")
        return found
    return Context(state).branch([seed], mode)


def _clash_facts(b: Branch, mode: int) -> tuple[set[int], int]:
    """The facts a branch's contradiction rests on, and its complexity (`conflict_chain`)."""
    conflict = b.conflict or ()
    if mode != STATIC and len(conflict) == 2:
        on = ancestors(b.parents, conflict[:1])
        off = ancestors(b.parents, conflict[1:])
        return on | off, len(on) + len(off)
    facts = ancestors(b.parents, conflict)
    return facts, len(facts)


def _links(
    state: CandidateState, b: Branch, seed: int, used: set[int], mode: int, depth: int
) -> tuple[Link, ...]:
    """The facts of `used`, in the order the branch found them, with their causes (and,
    for a nested fact, its inner chain)."""
    out = []
    facts = list(b.parents)
    for i, fact in enumerate(facts):
        if fact not in used:
            continue
        because = b.parents[fact]
        inner = None
        refuted = fact in (b.inner or ())
        if refuted and depth < 2:
            cases: tuple[BranchProof, ...] = ()
            if mode in (NESTED, NESTED_MULTIPLE):
                found = _static_inner(state, b, facts, i, mode)
                if isinstance(found, BranchProof):
                    inner = found
                elif found:
                    cases = found
            if inner is None and not cases:
                inner = _inner(state, facts[:i], fact, depth + 1)
            out.append(Link(fact, because, inner, refuted, cases))
            continue
        out.append(Link(fact, because, inner, refuted))
    return tuple(out)


def _static_inner(
    state: CandidateState, b: Branch, facts: list[int], i: int, mode: int
) -> BranchProof | tuple[BranchProof, ...] | None:
    """The static chain (the nested levels' inner rule) that gave fact `i` of branch `b`,
    found again, as the branch met it, on the branch's grid when the rule ran (the facts
    before the run of nested facts `i` is in, or before one of that run): a forcing chain
    as its proof, a cell or unit chain (level 3) as its cases; None when no chain of the
    fact's complexity gave it."""
    fact = facts[i]
    inner = b.inner or {}
    complexity = inner[fact][1]
    ctx = Context(state)
    cell, k = divmod(fact - ctx.off, ctx.n)
    first = i
    while first > 0 and facts[first - 1] in inner:
        first -= 1
    for boundary in range(first, i + 1):
        cand, pos, placed = _grid_after(ctx, facts[:boundary])
        before = {x: b.parents[x] for x in facts[:boundary]}
        chains, agreements = pure_hints(ctx, cand, pos, placed, True, mode == NESTED_MULTIPLE)
        for level in (chains, agreements):
            chosen = [h for h in level if _fresh(ctx, h, cand, before)]
            chosen = [h for h in chosen if rule_parents(ctx, h, cand, pos, before)]
            if not chosen:
                continue  # (level 3's rule runs when level 2's finds nothing)
            h = next((h for h in chosen if (cell, k) in _fresh(ctx, h, cand, before)), None)
            if h is None or h.complexity != complexity:
                break
            if h.chain:
                return _chain_proof(h.chain, fact, ctx.off)
            return tuple(
                BranchProof(path[0], tuple(_path_links(path)), (path[-1],), False)
                for path in h.cases
            )
    return None


def _fresh(ctx: Context, h, cand: list[int], before: dict) -> list[tuple[int, int]]:
    """The removals of an inner chain the branch has not made yet (`nested._apply`)."""
    n = ctx.n
    return [
        (c, d) for c, d in h.removable if ctx.off + c * n + d not in before and cand[c] >> d & 1
    ]


def _path_links(path: tuple[int, ...]) -> list[Link]:
    """A path of static links, seed first, as links each forced by the one before."""
    return [Link(path[0], ()), *(Link(x, (w,)) for w, x in zip(path, path[1:], strict=False))]


def _grid_after(ctx: Context, facts: list[int]) -> tuple[list[int], list[int], list[int]]:
    """The candidates, places and placed digits of the start grid once `facts` hold (as a
    branch has them: an off fact removes a candidate, an on fact places its digit in its
    units)."""
    n = ctx.n
    cand, pos, placed = ctx.cand[:], ctx.pos[:], ctx.placed[:]
    for x in facts:
        cell, k = divmod(x % ctx.off, n)
        bit = 1 << k
        if x >= ctx.off:
            if not cand[cell] & bit:
                continue
            cand[cell] ^= bit
        for u, base, at in ctx.units[cell]:
            pos[base + k] &= ~at
            if x < ctx.off:
                placed[u] |= bit
    return cand, pos, placed


def _chain_proof(chain: tuple[int, ...], fact: int, off: int) -> BranchProof:
    """A static forcing chain (seed first, its negation last) as the proof of the off fact
    it gave: from the fact's negation (the seed itself, or for an off seed a digit of its
    cell, which implies it) to the clash."""
    seed = chain[0]
    links = _path_links(chain)
    start = seed
    if seed >= off:  # fact's negation, another digit of the seed's cell, puts the seed off
        start = fact - off
        links = [Link(start, ()), Link(seed, (start,)), *links[1:]]
    on, off_fact = (seed, chain[-1]) if seed < off else (chain[-1], seed)
    return BranchProof(start, tuple(links), (on, off_fact), True)


def _inner(state: CandidateState, before: list[int], fact: int, depth: int) -> BranchProof | None:
    """The dynamic contradiction that made `fact` (an off fact) hold inside a branch:
    the negation followed from the branch's candidates once `before` held."""
    n = state.n
    off = state.shape.ncells * n
    snap = list(state.snapshot())
    for node in before:
        cell, k = divmod(node % off, n)
        if node >= off and snap[cell] > 0:
            snap[cell] &= ~(1 << k)
        elif node < off:
            snap[cell] = -(k + 1)
    if any(v == 0 for v in snap):
        return None
    sub = state_of(tuple(snap), state.shape)
    seed = fact - off
    b = _branch(sub, seed, DYNAMIC)
    if b.conflict is None:
        return None
    used, _ = _clash_facts(b, DYNAMIC)
    return BranchProof(seed, _links(sub, b, seed, used, DYNAMIC, depth), b.conflict, True)


def forcing_proof(step: Step) -> Proof | None:
    """The proof of a forcing-chain step kept with its `before` grid, or None (another
    technique, no `before`, or a rebuilt proof that does not match the step)."""
    mode = MODES.get(step.technique)
    if mode is None or step.before is None or len(step.detail) != 3:
        return None
    state = state_of(step.before, step.shape)
    n = state.n
    off = step.shape.ncells * n
    seeds, target = _seeds(step, n, off)
    kind = step.detail[0]
    branches = []
    size = 0
    parts = []  # (branch, the facts used): for the inner chains' complexities
    for seed in seeds:
        b = _branch(state, seed, mode)
        if kind == "contradiction":
            if b.conflict is None:
                return None
            used, c = _clash_facts(b, mode)
            end, clash = b.conflict, True
        else:
            if target not in b.parents:
                return None
            used = ancestors(b.parents, (target,))
            c = len(used)
            end, clash = (target,), False
        size += c
        parts.append((b, used))
        branches.append(BranchProof(seed, _links(state, b, seed, used, mode, 0), end, clash))
    if size + nested_sum(parts) != step.detail[2]:
        return None
    return Proof(kind, tuple(branches), target, n, off, step.shape)
