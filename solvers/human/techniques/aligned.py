"""Aligned pair exclusion (Sudoku Explainer's rating: 6.2).

Take two open cells (the *base* cells) and the bivalue cells that see both
of them (the *excluders*).  A pair of digits for the two base cells is
impossible when the cells see each other and the digits are equal, or when
some excluder holds exactly those two digits (it would have none left).  A
digit of a base cell that takes part in no possible pair is false there.

Sudoku Explainer looks at every pair of open cells that have at least two
excluders in common (the base cells need not share a unit); it takes the
first pair, in its scan order, that removes something.
"""

from __future__ import annotations

from functools import cache

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import bits, peer_masks

RATING = 6.2


def _open_cells_with(state: CandidateState, least: int, most: int) -> int:
    """The open cells holding `least` to `most` candidates, as a cell bitmask."""
    cand = state.cand
    values = state.values
    found = 0
    for c in range(state.shape.ncells):
        if not values[c] and least <= cand[c].bit_count() <= most:
            found |= 1 << c
    return found


def aligned_pair_exclusion(state: CandidateState) -> Step | None:
    """Two cells whose digit pairs are each ruled out by an excluder or by their
    shared unit: the digits that take part in no allowed pair leave their cell."""
    cand = state.cand
    values = state.values
    peers = peer_masks(state.shape)
    ncells = state.shape.ncells
    bivalue = _open_cells_with(state, 2, 2)
    bases = []
    for c in range(ncells):
        if values[c] or cand[c].bit_count() < 2:
            continue
        excluders = peers[c] & bivalue
        if excluders:
            bases.append((c, excluders))
    for i, (a, ex_a) in enumerate(bases):
        for b, ex_b in bases[i + 1 :]:
            common = ex_a & ex_b
            if common.bit_count() < 2:
                continue
            locked = {cand[x] for x in bits(common)}
            see = peers[a] >> b & 1
            allowed_a = allowed_b = 0
            ma, mb = cand[a], cand[b]
            for da in bits(ma):
                for db in bits(mb):
                    if da == db and see:
                        continue
                    if (1 << da | 1 << db) in locked:
                        continue
                    allowed_a |= 1 << da
                    allowed_b |= 1 << db
            elims = [(a, d + 1) for d in bits(ma & ~allowed_a)]
            elims += [(b, d + 1) for d in bits(mb & ~allowed_b)]
            if elims:
                return Step(
                    "aligned_pair_exclusion",
                    (),
                    tuple(elims),
                    (a, b, *bits(common)),
                    (),
                    (),
                    RATING,
                    state.shape,
                )
    return None


TRIPLE_RATING = 7.5


def aligned_triple_exclusion(state: CandidateState) -> Step | None:
    """Three cells, two of them with some cell of two or three candidates seeing one of the
    first two as the third: their digit triples are ruled out by cells of two or three
    candidates seeing all three (which would be left empty) or by two of them sharing a
    unit; digits that take part in no allowed triple leave their cell (Sudoku Explainer:
    7.5, searched after the static forcing chains)."""
    cand = state.cand
    values = state.values
    peers = peer_masks(state.shape)
    ncells = state.shape.ncells
    small = _open_cells_with(state, 2, 3)
    bases = []
    excluders: dict[int, int] = {}
    for c in range(ncells):
        if values[c] or cand[c].bit_count() < 2:
            continue
        ex = peers[c] & small
        if ex:
            bases.append(c)
            excluders[c] = ex
    base_mask = 0
    for c in bases:
        base_mask |= 1 << c
    seen: set[tuple[int, int, int]] = set()
    for i, a in enumerate(bases):
        for b in bases[i + 1 :]:
            pair = excluders[a] & excluders[b]
            if pair.bit_count() < 2:
                continue
            twin = (excluders[a] | excluders[b]) & base_mask & ~(1 << a | 1 << b)
            for c in bits(twin):
                common = pair & excluders[c]
                if common.bit_count() < 2:
                    continue
                key = tuple(sorted((a, b, c)))
                if key in seen:
                    continue
                seen.add(key)  # type: ignore[arg-type]
                step = _triple(state, key, common, peers)  # type: ignore[arg-type]
                if step is not None:
                    return step
    return None


@cache
def _digits(mask: int) -> tuple[int, ...]:
    return tuple(bits(mask))


def _triple(state: CandidateState, cells: tuple[int, int, int], common: int, peers):
    """The aligned triple exclusion of `cells` with the excluders `common`, if it removes
    something."""
    cand = state.cand
    a, b, c = cells
    ma, mb, mc = cand[a], cand[b], cand[c]
    pairs = tuple(cand[x] for x in bits(common) if cand[x].bit_count() == 2)
    triples = {cand[x] for x in bits(common) if cand[x].bit_count() == 3}
    ab = peers[a] >> b & 1
    ac = peers[a] >> c & 1
    bc = peers[b] >> c & 1
    ok_a = ok_b = ok_c = 0
    digits_b, digits_c = _digits(mb), _digits(mc)
    for da in _digits(ma):
        for db in digits_b:
            if da == db and ab:
                continue
            two = 1 << da | 1 << db
            for dc in digits_c:
                if (dc == da and ac) or (dc == db and bc):
                    continue
                combo = two | 1 << dc
                if combo in triples:
                    continue
                for m in pairs:
                    if m & combo == m:
                        break
                else:
                    ok_a |= 1 << da
                    ok_b |= 1 << db
                    ok_c |= 1 << dc
        if ok_a == ma and ok_b == mb and ok_c == mc:
            return None
    elims = [
        (x, d + 1)
        for x, m, ok in ((a, ma, ok_a), (b, mb, ok_b), (c, mc, ok_c))
        for d in bits(m & ~ok)
    ]
    if not elims:
        return None
    return Step(
        "aligned_triple_exclusion",
        (),
        tuple(elims),
        (a, b, c, *bits(common)),
        (),
        (),
        TRIPLE_RATING,
        state.shape,
    )
