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
    shared unit: the digits that take part in no allowed pair leave their cell.

    A pair's answer reads the candidates of its cells and of the bivalue cells seeing
    both; one that found nothing is skipped while none of those changed (kept in
    `state.fruitless`)."""
    cand = state.cand
    values = state.values
    peers = peer_masks(state.shape)
    ncells = state.shape.ncells
    bivalue = _open_cells_with(state, 2, 2)
    before = state.fruitless.get("aligned_pair_exclusion")
    empty_before: frozenset[tuple[int, int]] = frozenset()
    changed = changed_bivalue = -1  # every cell
    if before is not None:
        cand_before, bivalue_before, empty_before = before
        changed = 0
        for c in range(ncells):
            if cand[c] != cand_before[c]:
                changed |= 1 << c
        changed_bivalue = changed & (bivalue | bivalue_before)
    empty: list[tuple[int, int]] = []
    excluders: dict[int, int] = {}
    for c in range(ncells):
        if values[c] or cand[c].bit_count() < 2:
            continue
        ex = peers[c] & bivalue
        if ex:
            excluders[c] = ex
    base_mask = 0
    for c in excluders:
        base_mask |= 1 << c
    step = None
    for a, ex_a in excluders.items():
        partners = _seeing_two(ex_a, peers) & base_mask & ~((2 << a) - 1)
        while partners:  # the bases after a with two excluders or more in common
            low = partners & -partners
            partners ^= low
            b = low.bit_length() - 1
            common = ex_a & excluders[b]
            if (
                (a, b) in empty_before
                and not (1 << a | 1 << b) & changed
                and not peers[a] & peers[b] & changed_bivalue
            ):
                empty.append((a, b))
                continue
            step = _pair(state, a, b, common, peers)
            if step is not None:
                break
            empty.append((a, b))
        if step is not None:
            break
    state.fruitless["aligned_pair_exclusion"] = (tuple(cand), bivalue, frozenset(empty))
    return step


def _pair(state: CandidateState, a: int, b: int, common: int, peers) -> Step | None:
    """The aligned pair exclusion of cells `a` and `b` with the excluders `common`, if it
    removes something."""
    cand = state.cand
    partner = [0] * state.n  # partner[d]: the digits e such that an excluder holds {d, e}
    for x in bits(common):
        m = cand[x]
        low = m & -m
        high = m ^ low
        partner[low.bit_length() - 1] |= high
        partner[high.bit_length() - 1] |= low
    see = peers[a] >> b & 1
    ma, mb = cand[a], cand[b]
    allowed_a = allowed_b = 0
    for da in _digits(ma):
        bit = 1 << da
        with_da = mb & ~partner[da]
        if see:
            with_da &= ~bit
        if with_da:
            allowed_a |= bit
            allowed_b |= with_da
    elims = [(a, d + 1) for d in bits(ma & ~allowed_a)]
    elims += [(b, d + 1) for d in bits(mb & ~allowed_b)]
    if not elims:
        return None
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


TRIPLE_RATING = 7.5


Triple = tuple[int, int, int]


def aligned_triple_exclusion(state: CandidateState) -> Step | None:
    """Three cells, two of them with some cell of two or three candidates seeing one of the
    first two as the third: their digit triples are ruled out by cells of two or three
    candidates seeing all three (which would be left empty) or by two of them sharing a
    unit; digits that take part in no allowed triple leave their cell (Sudoku Explainer:
    7.5, searched after the static forcing chains).

    The search runs at nearly every hard step and most triples come up empty again.  A
    triple's answer reads the candidates of its cells and of the cells of two or three
    candidates seeing all three; one that found nothing is skipped while none of those
    changed, and a first pair of cells whose triples all found nothing while no candidate
    changed in the pair or in a cell of two or three candidates seeing either (kept in
    `state.fruitless`)."""
    cand = state.cand
    values = state.values
    peers = peer_masks(state.shape)
    ncells = state.shape.ncells
    small = _open_cells_with(state, 2, 3)
    before = state.fruitless.get("aligned_triple_exclusion")
    empty_before: frozenset[Triple] = frozenset()
    pairs_before: dict[tuple[int, int], tuple[Triple, ...]] = {}
    changed = changed_small = -1  # every cell
    if before is not None:
        cand_before, small_before, empty_before, pairs_before = before
        changed = 0
        for c in range(ncells):
            if cand[c] != cand_before[c]:
                changed |= 1 << c
        changed_small = changed & (small | small_before)
    empty: set[Triple] = set()
    empty_pairs: dict[tuple[int, int], tuple[Triple, ...]] = {}
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
    seen: set[Triple] = set()
    step = None
    for a in bases:
        ex_a = excluders[a]
        partners = _seeing_two(ex_a, peers) & base_mask & ~((2 << a) - 1)
        while partners:  # the bases after a with two excluders or more in common
            low = partners & -partners
            partners ^= low
            b = low.bit_length() - 1
            ex_b = excluders[b]
            pair = ex_a & ex_b
            keys = pairs_before.get((a, b))
            if (
                keys is not None
                and not (1 << a | 1 << b) & changed
                and not (peers[a] | peers[b]) & changed_small
            ):
                seen.update(keys)
                empty.update(keys)
                empty_pairs[(a, b)] = keys
                continue
            found: list[Triple] = []
            twin = (ex_a | ex_b) & base_mask & _seeing_two(pair, peers) & ~(1 << a | 1 << b)
            while twin:
                low = twin & -twin
                twin ^= low
                c = low.bit_length() - 1
                common = pair & excluders[c]
                key = (a, b, c) if c > b else (a, c, b) if c > a else (c, a, b)
                if key in seen:
                    continue
                seen.add(key)
                found.append(key)
                if (
                    key in empty_before
                    and not (1 << a | 1 << b | low) & changed
                    and not peers[a] & peers[b] & peers[c] & changed_small
                ):
                    continue
                step = _triple(state, key, common, peers)
                if step is not None:
                    break
            if step is not None:
                break
            empty.update(found)
            empty_pairs[(a, b)] = tuple(found)
        if step is not None:
            break
    memo = (tuple(cand), small, frozenset(empty), empty_pairs)
    state.fruitless["aligned_triple_exclusion"] = memo
    return step


def _seeing_two(cells: int, peers: tuple[int, ...]) -> int:
    """The cells that see two of `cells` or more."""
    once = twice = 0
    while cells:
        low = cells & -cells
        cells ^= low
        seeing = peers[low.bit_length() - 1]
        twice |= once & seeing
        once |= seeing
    return twice


@cache
def _digits(mask: int) -> tuple[int, ...]:
    return tuple(bits(mask))


def _keeps(free_one: int, free_other: int) -> bool:
    """Whether a cell keeps all its digits when the other two cells have `free_one` and
    `free_other` digits in no excluder."""
    return min(free_one, free_other) >= 2 and max(free_one, free_other) >= 3


def _triple(state: CandidateState, cells: tuple[int, int, int], common: int, peers):
    """The aligned triple exclusion of `cells` with the excluders `common`, if it removes
    something."""
    cand = state.cand
    a, b, c = cells
    ma, mb, mc = cand[a], cand[b], cand[c]
    excluded = [cand[x] for x in bits(common)]
    # a combination of three different digits, two of them in no excluder, is allowed: a
    # cell keeps its digits when the other two have two and three such digits
    held = 0
    for m in excluded:
        held |= m
    free_a = (ma & ~held).bit_count()
    free_b = (mb & ~held).bit_count()
    free_c = (mc & ~held).bit_count()
    if _keeps(free_b, free_c) and _keeps(free_a, free_c) and _keeps(free_a, free_b):
        return None
    # partner[d]: the digits e such that an excluder holds exactly {d, e}; a digit pair
    # {d, e} of the three cells rules out every combination containing it
    partner = [0] * state.n
    # third[d | e]: the digits f such that an excluder holds exactly {d, e, f}
    third: dict[int, int] = {}
    for m in excluded:
        if m.bit_count() == 2:
            low = m & -m
            high = m ^ low
            partner[low.bit_length() - 1] |= high
            partner[high.bit_length() - 1] |= low
        else:
            rest = m
            while rest:
                low = rest & -rest
                rest ^= low
                two = m ^ low
                third[two] = third.get(two, 0) | low
    ab = peers[a] >> b & 1
    ac = peers[a] >> c & 1
    bc = peers[b] >> c & 1
    ok_a = ok_b = ok_c = 0
    digits_b = _digits(mb)
    for da in _digits(ma):
        bit_a = 1 << da
        free_a = mc & ~partner[da]
        if ac:
            free_a &= ~bit_a
        allowed_b = mb & ~partner[da]
        if ab:
            allowed_b &= ~bit_a
        for db in digits_b:
            bit_b = 1 << db
            if not allowed_b & bit_b:
                continue
            free = free_a & ~partner[db] & ~third.get(bit_a | bit_b, 0)
            if bc:
                free &= ~bit_b
            if free:
                ok_a |= bit_a
                ok_b |= bit_b
                ok_c |= free
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
