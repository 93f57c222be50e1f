"""Subsets: naked and hidden pairs, triples and quads, and locked pairs and triples.

A *naked* subset is k cells of a unit whose candidates together are k digits:
those digits go in those cells, so no other cell of the unit takes them.  A
*hidden* subset is k digits of a unit that fit only in k cells: those cells
take no other digit.  A *locked* subset is a naked one whose cells share a box
and a line, so it clears both.
"""

from __future__ import annotations

from itertools import combinations

from solvers.human.state import CandidateState, digits
from solvers.human.step import Step
from solvers.human.techniques.common import unit_masks

NAMES = {2: "pair", 3: "triple", 4: "quad"}


def _clear(state: CandidateState, cells: list[int], keep: tuple[int, ...], m: int) -> list:
    """Eliminations of the digits of `m` from `cells` not in `keep`."""
    cand = state.cand
    return [(c, d) for c in cells if c not in keep for d in digits(cand[c] & m)]


def naked_subset(state: CandidateState, k: int, rating: float) -> Step | None:
    """The first naked subset of size k, rows then columns then boxes."""
    cand = state.cand
    marks = state.fruitless
    name = f"naked_{NAMES[k]}"
    for u, (unit, masks) in enumerate(zip(state.shape.units, unit_masks(state), strict=True)):
        # The search in a unit reads its cells' candidates only: a unit that gave
        # nothing is skipped until they change.
        if marks.get((name, u)) == masks:
            continue
        marks[(name, u)] = masks  # set before the search: it returns at the first find
        if state.free[u] <= k:
            continue
        open_cells = [c for c in unit if cand[c]]
        small = [c for c in open_cells if cand[c].bit_count() <= k]
        if len(small) < k:
            continue
        for combo in combinations(small, k):
            m = 0
            for c in combo:
                m |= cand[c]
            if m.bit_count() != k:
                continue
            elims = _clear(state, open_cells, combo, m)
            if elims:
                del marks[(name, u)]
                return Step(
                    name,
                    (),
                    tuple(sorted(elims)),
                    combo,
                    (u,),
                    tuple(digits(m)),
                    rating,
                    state.shape,
                )
    return None


def hidden_subset(state: CandidateState, k: int, rating: float) -> Step | None:
    """The first hidden subset of size k, rows then columns then boxes."""
    n = state.n
    cand = state.cand
    count = state.count
    positions = state.unit_positions()
    marks = state.fruitless
    name = f"hidden_{NAMES[k]}"
    for u, (unit, masks) in enumerate(zip(state.shape.units, unit_masks(state), strict=True)):
        # As for naked subsets, the search reads the unit's candidates only.
        if marks.get((name, u)) == masks:
            continue
        marks[(name, u)] = masks
        if state.free[u] <= k:
            continue
        base = u * n
        # A placed digit has count 0, so only missing digits with 2..k places remain.
        ds = [d for d in range(1, n + 1) if 2 <= count[base + d - 1] <= k]
        if len(ds) < k:
            continue
        for combo in combinations(ds, k):
            where = 0
            for d in combo:
                where |= positions[base + d - 1]
            if where.bit_count() != k:
                continue
            m = 0
            for d in combo:
                m |= 1 << (d - 1)
            cells = tuple(c for i, c in enumerate(unit) if where >> i & 1)
            elims = [(c, d) for c in cells for d in digits(cand[c] & ~m)]
            if elims:
                del marks[(name, u)]
                return Step(name, (), tuple(sorted(elims)), cells, (u,), combo, rating, state.shape)
    return None


def locked_subset(state: CandidateState, k: int, rating: float) -> Step | None:
    """The first naked subset of size k inside a box and a line, clearing both."""
    n = state.n
    cand = state.cand
    shape = state.shape
    units = shape.units
    marks = state.fruitless
    name = f"locked_{NAMES[k]}"
    masks = unit_masks(state)
    for u in range(2 * n, 3 * n):
        # The subsets of a box depend on its cells' candidates only, and their
        # targets can only shrink: a box that gave nothing is skipped until its
        # cells change.
        if marks.get((name, u)) == masks[u]:
            continue
        marks[(name, u)] = masks[u]
        if state.free[u] <= k:
            continue
        small = [c for c in units[u] if cand[c] and cand[c].bit_count() <= k]
        for combo in combinations(small, k):
            rows = {c // n for c in combo}
            cols = {c % n for c in combo}
            if len(rows) == 1:
                line = rows.pop()
            elif len(cols) == 1:
                line = n + cols.pop()
            else:
                continue
            m = 0
            for c in combo:
                m |= cand[c]
            if m.bit_count() != k:
                continue
            elims = _clear(state, list(units[line]), combo, m)
            elims += [e for e in _clear(state, list(units[u]), combo, m) if e not in elims]
            if elims:
                del marks[(name, u)]
                return Step(
                    name,
                    (),
                    tuple(sorted(elims)),
                    combo,
                    (line, u),
                    tuple(digits(m)),
                    rating,
                    shape,
                )
    return None
