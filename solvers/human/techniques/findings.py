"""A forcing-chain conclusion: its rating, its rank among others, and the step it makes.

The rating adds the chain length the Sudoku-Explainer way: the *complexity* is the
number of facts the conclusion rests on (its ancestors in the branches), and
`length_bonus` turns it into tenths.  Between conclusions, the lowest rating wins,
then the smallest complexity, then the kind Sudoku Explainer applies first, then the
lowest target.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from solvers.human.state import CandidateState
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
from solvers.human.techniques.chains import length_bonus

FORCING_RATING = 7.0
X_FORCING_RATING = 6.6
NISHIO_RATING = 7.5
MULTIPLE_RATING = 8.0
DYNAMIC_RATING = 8.5
PLUS_RATING = 9.0
NESTED_RATING = 9.5
NESTED_MULTIPLE_RATING = 10.0
NESTED_DYNAMIC_RATING = 10.5


class Finding(NamedTuple):
    """A conclusion and what it rests on, before it becomes a `Step`."""

    rating: float
    complexity: int
    target: int  # the node concluded true
    kind: str  # contradiction | both | cell | region
    source: tuple[int, ...]  # the assumed nodes (a cell's digits, a unit's places, one node)
    chain: tuple[int, ...]  # the facts it rests on, in the order found


SORT_KEY = {"both": 1, "cell": 5, "region": 6, "contradiction": 7}
"""Between conclusions of one rating and complexity, the kind Sudoku Explainer applies first."""


def finding_rank(f: Finding) -> tuple[float, int, int, int]:
    """The order of conclusions: the lowest first (see the module's docstring)."""
    return (f.rating, f.complexity, SORT_KEY[f.kind], f.target)


def conflict_chain(chains: dict, seed: int, b: Branch, mode: int) -> tuple[set[int], int]:
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


def is_useful(ctx: Context, node: int) -> bool:
    """Whether concluding `node` true changes the real grid."""
    n = ctx.n
    if node < ctx.off:
        cell, k = divmod(node, n)
        return bool(ctx.cand[cell] >> k & 1)
    cell, k = divmod(node - ctx.off, n)
    return bool(ctx.cand[cell] >> k & 1)


def opposite(ctx: Context, node: int) -> int:
    return node + ctx.off if node < ctx.off else node - ctx.off


def useful_limit(best: Finding | None, least_base: float, cap: int) -> int:
    """The most facts a conclusion may rest on and still beat `best` (at most `cap`; 0: any)."""
    if best is None:
        return cap
    return _limit(best.rating, best.complexity, least_base, cap)


@cache
def _limit(rating: float, complexity: int, least_base: float, cap: int) -> int:
    """`useful_limit` for a best conclusion of that rating and complexity (searches ask
    for the same few thousands of times)."""
    c = 1
    while not cap or c < cap:
        r = round(least_base + length_bonus(c + 1), 1)
        if r > rating or (r == rating and c + 1 > complexity):
            return c
        c += 1
    return cap


NAMES = {
    STATIC: "forcing_chain",
    NISHIO: "nishio",
    DYNAMIC: "dynamic_forcing_chain",
    PLUS: "dynamic_forcing_chain_plus",
    NESTED: "nested_forcing_chain",
    NESTED_MULTIPLE: "nested_multiple_chain",
    NESTED_DYNAMIC: "nested_dynamic_chain",
}


def finding_step(state: CandidateState, ctx: Context, f: Finding, mode: int) -> Step:
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
