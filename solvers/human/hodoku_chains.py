"""Chains as HoDoKu chooses them, for the HoDoKu-order pass: the most eliminations first.

HoDoKu's X-chains, XY-chains and nice loops (AICs) come from one idea: assuming
a candidate *p* false forces, along alternating strong and weak links, another
candidate *q* true, so one of *p* and *q* is true and every candidate that sees
both is false (when *q* is *p* itself, *p* is true and its cell's other
candidates go).  HoDoKu collects every such chain and applies the one with the
most eliminations; the engine's chain finders return the shortest chain
instead, which leaves a different state behind.  This module finds, from each
candidate, everything its falsity forces (a breadth-first walk over bitmasks
of candidates, so each conclusion comes with its shortest chain), and picks the
pair of ends that clears most (then HoDoKu's tie-break on the eliminations, then
the shorter chain, then the lower ends).

The kinds differ in the links they may use: ``x``, one digit's conjugate pairs
(strong) and its peers (weak); ``xy``, bivalue cells (strong, inside the cell)
and one digit's peers among bivalue cells (weak), ending on the starting digit;
``aic``, all of them (HoDoKu's nice loops and AICs without groups).  Chains are
at most `MAX_NODES` candidates long, as HoDoKu's default limit.

With numba, grids of sixteen digits or fewer are searched by the compiled kernel
(`solvers.human.hodoku_chain_kernel`, see `compiled_best`): the same walks and the same
key, so the same chain; the Python search here is the route without numba.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from typing import Any

from solvers.grid import Shape
from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import bits, cells_with

MAX_NODES = 20
"""The longest chain considered, in candidates (HoDoKu's default chain length)."""

NAMES = {"x": "x_chain", "xy": "xy_chain", "aic": "forcing_chain"}


def chain_links(
    state: CandidateState, kind: str
) -> tuple[list[int], list[int], list[int], list[int]]:
    """Per candidate node (cell * n + digit - 1): the nodes its falsity forces true
    (strong), the nodes its truth forces false along the kind's chains (weak), the nodes
    it sees (any candidate it rules out when true), and the open nodes (read them, never
    change them: the kinds share them, kept for the state as `link_parts`)."""
    same, cell, conjugate, pair, sees, nodes, bivalue = state.derived(
        "hodoku-chain-parts", link_parts
    )
    if kind == "x":
        return conjugate, same, sees, nodes
    if kind == "xy":
        return pair, [m & bivalue for m in same], sees, nodes
    strong = [a | b for a, b in zip(conjugate, pair, strict=True)]
    weak = [a | b for a, b in zip(same, cell, strict=True)]
    return strong, weak, sees, nodes


def link_parts(state: CandidateState) -> tuple:
    """The links of every kind of chain at once, per candidate node: the same digit's
    candidates it sees, its cell's other candidates, its conjugates (the digit's other
    place in a unit with two), its cell's other candidate when the cell is bivalue, all
    it sees; then the open nodes and the nodes of bivalue cells."""
    n, cand = state.n, state.cand
    cell_nodes, peer_nodes, unit_nodes = _node_masks(state.shape)
    total = len(cand) * n
    same = [0] * total
    cell = [0] * total
    conjugate = [0] * total
    pair = [0] * total
    sees = [0] * total
    nodes = [c * n + d for c, m in enumerate(cand) for d in bits(m)]
    with_digit = [0] * n  # per digit, its candidates' nodes
    every = bivalue = 0  # every candidate's node; the nodes of bivalue cells
    for node in nodes:
        with_digit[node % n] |= 1 << node
    for m in with_digit:
        every |= m
    for c, m in enumerate(cand):
        if m.bit_count() == 2:
            bivalue |= cell_nodes[c]
    cell_units = state.shape.cell_units
    for node in nodes:
        c, d = divmod(node, n)
        here = with_digit[d]
        same[node] = peer_nodes[c] & here
        cell[node] = others = cell_nodes[c] & every & ~(1 << node)
        sees[node] = same[node] | others
        if cand[c].bit_count() == 2:
            pair[node] = others
        strong = 0
        for u in cell_units[c]:
            places = unit_nodes[u] & here
            if places.bit_count() == 2:
                strong |= places & ~(1 << node)
        conjugate[node] = strong
    return same, cell, conjugate, pair, sees, nodes, bivalue


@cache
def _node_masks(shape: Shape) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Node masks (every digit) per cell, of each cell's peers, and per unit."""
    n = shape.size
    cell_nodes = tuple(((1 << n) - 1) << (c * n) for c in range(shape.ncells))
    peer_nodes = tuple(sum(cell_nodes[p] for p in peers) for peers in shape.peers)
    unit_nodes = tuple(sum(cell_nodes[c] for c in cells) for cells in shape.units)
    return cell_nodes, peer_nodes, unit_nodes


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _forced(start: int, strong: list[int], weak: list[int]) -> dict[int, int]:
    """The nodes forced true when `start` is false, with the length of the shortest chain
    (in candidates) that forces each."""
    out: dict[int, int] = {}
    off_seen = 1 << start
    on_seen = 0
    frontier = [start]
    length = 1
    while frontier and length + 1 <= MAX_NODES:
        on = 0
        for i in frontier:
            on |= strong[i]
        on &= ~on_seen
        if not on:
            break
        on_seen |= on
        length += 1
        ons = _bits(on)
        for q in ons:
            out[q] = length
        off = 0
        for q in ons:
            off |= weak[q]
        off &= ~off_seen
        off_seen |= off
        frontier = _bits(off)
        length += 1
    return out


Best = tuple[int, int, int, int, int, int] | None
"""A chain's rank (fewest first: minus its eliminations, HoDoKu's index sum, length), its
ends p and q and its eliminations (a node mask); None for no chain."""


def best_chain(state: CandidateState, kind: str) -> Step | None:
    """The chain of `kind` (``x``, ``xy``, ``aic``) with the most eliminations, or None."""
    n = state.n
    best = _best_x_chain(state) if kind == "x" else search(state, kind, -1)
    if best is None:
        return None
    *_, p, q, targets = best
    elims = tuple((t // n, t % n + 1) for t in _bits(targets))
    ends = tuple(dict.fromkeys((p // n, q // n)))
    digits = tuple(sorted({p % n + 1, q % n + 1}))
    return Step(NAMES[kind], (), elims, ends, (), digits, 0.0, state.shape)


def _best_x_chain(state: CandidateState) -> Best:
    """The best X-chain: each digit's best, kept in the solve's memo by the digit's places
    (an X-chain reads its digit alone), then the best of those."""
    table = state.memo.table("hodoku-x-chains", state.shape, 100)
    best: Best = None
    for d in range(1, state.n + 1):
        key = (d, cells_with(state, d))
        found = table.get(key, _UNKNOWN)
        if found is _UNKNOWN:
            found = table[key] = search(state, "x", d - 1)
        if found is not None and (best is None or found < best):
            best = found  # type: ignore[assignment]
    return best


_UNKNOWN = object()
"""An answer not in the solve's memo yet (it may be None)."""


def search(state: CandidateState, kind: str, digit: int) -> Best:
    """The best chain of `kind` from the open nodes (of digit index `digit` only, when it
    is 0 or more): compiled where it fits (`compiled_best`), else in Python."""
    if compiled_fits(state):
        return compiled_best(state, kind, digit)
    return python_best(state, kind, digit)


def python_best(state: CandidateState, kind: str, digit: int) -> Best:
    """`search` in Python, the route without numba."""
    strong, weak, sees, nodes = chain_links(state, kind)
    starts = nodes if digit < 0 else [p for p in nodes if p % state.n == digit]
    return _best_from(state, kind, strong, weak, sees, starts)


def _best_from(
    state: CandidateState,
    kind: str,
    strong: list[int],
    weak: list[int],
    sees: list[int],
    starts: list[int],
) -> Best:
    """The best chain of `kind` starting from a node of `starts` (see `best_chain`)."""
    n = state.n
    best: Best = None
    for p in starts:
        if not strong[p]:
            continue
        for q, length in _forced(p, strong, weak).items():
            if q == p:
                if kind != "aic":
                    continue
                targets = _cell_others(p, n, state)
            else:
                if kind != "aic" and q % n != p % n:
                    continue
                targets = sees[p] & sees[q] & ~(1 << p | 1 << q)
            if not targets:
                continue
            key = (-targets.bit_count(), index_sum(targets, n), length, p, q, targets)
            if best is None or key < best:
                best = key
    return best


def index_sum(targets: int, n: int) -> int:
    """HoDoKu's tie-break between steps clearing as many candidates: the eliminations
    by digit, then cell, weighted 1, 81, 161 ... by rank, summing cell * weight + digit;
    the smaller sum goes first."""
    elims = sorted((t % n + 1, t // n) for t in _bits(targets))
    return sum(c * (1 + 80 * i) + d for i, (d, c) in enumerate(elims))


def _cell_others(p: int, n: int, state: CandidateState) -> int:
    """The other candidates of node p's cell, as a node mask."""
    c, d = divmod(p, n)
    return sum(1 << (c * n + e) for e in range(n) if e != d and state.cand[c] >> e & 1)


COMPILED = (
    importlib.util.find_spec("numba") is not None and importlib.util.find_spec("numpy") is not None
)
"""Whether the chains are searched by the compiled kernel (`hodoku_chain_kernel`): numba
is installed."""

_KINDS = {"x": 0, "xy": 1, "aic": 2}
"""The kinds as the kernel numbers them (``X``, ``XY``, ``AIC``)."""


def compiled_fits(state: CandidateState) -> bool:
    """Whether this state's chains are searched compiled: numba installed, sixteen digits
    or fewer (a node mask stays a short row of words)."""
    return COMPILED and state.n <= 16


def compiled_best(state: CandidateState, kind: str, digit: int) -> Best:
    """`search` by the compiled kernel: the same key as `python_best`, so the same chain."""
    import numpy as np

    from solvers.human.hodoku_chain_kernel import best_key

    node_of, rows = state.derived("hodoku-chain-rows", compiled_rows)
    key = np.zeros(5, dtype=np.int64)
    targets = np.zeros((len(state.cand) * state.n + 63) // 64, dtype=np.uint64)
    ncells = len(state.cand)
    if not best_key(node_of, rows, state.n, ncells, _KINDS[kind], digit, MAX_NODES, key, targets):
        return None
    count, isum, length, p, q = key.tolist()
    mask = int.from_bytes(targets.astype("<u8", copy=False).tobytes(), "little")
    return (-count, isum, length, p, q, mask)


def compiled_rows(state: CandidateState) -> Any:
    """The open nodes and their link rows (`hodoku_chain_kernel.chain_rows`), kept for the
    state as the kinds share them."""
    import numpy as np

    from solvers.human.hodoku_chain_kernel import chain_rows

    cand = np.array(state.cand, dtype=np.int64)
    units, peers = _geometry(state.shape)
    return chain_rows(cand, state.n, units, peers)


@cache
def _geometry(shape: Shape) -> tuple[Any, Any]:
    """The shape's units (cells per unit) and each cell's peers, as NumPy arrays."""
    import numpy as np

    units = np.array(shape.units, dtype=np.int64)
    peers = np.array([sorted(p) for p in shape.peers], dtype=np.int64)
    return units, peers
