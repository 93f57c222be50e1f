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

import importlib.util
from collections.abc import Callable, Iterable
from functools import cache
from itertools import islice
from operator import itemgetter
from typing import Any

from solvers.grid import Shape
from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import bit_tuple, bit_tuples, bits, peer_masks

RATING = 6.2


def _classes(state: CandidateState) -> tuple[int, int, int]:
    """The open cells with two candidates, with two or three, and with two or more, as
    cell bitmasks."""
    two = small = multi = 0
    bit = 1
    values = state.values
    for c, m in enumerate(state.cand):
        if not values[c]:
            k = m.bit_count()
            if k >= 2:
                multi |= bit
                if k <= 3:
                    small |= bit
                    if k == 2:
                        two |= bit
        bit <<= 1
    return two, small, multi


Combo = tuple  # (the cells, in order, then the excluders as a cell mask)
Prior = tuple[int, Any] | None  # a combination's excluders and note when it last found nothing
Check = Callable[[Combo, Prior, int], tuple["Step | None", Any]]


def _incremental(
    state: CandidateState,
    name: str,
    signature: tuple[int, ...],
    build: Callable[[], tuple[list[Combo], list[int]]],
    check: Check,
) -> Step | None:
    """The first combination, in scan order, that `check` turns into a step.

    `build` lists the combinations in scan order and the cells each one's answer reads
    (as a cell mask); the list depends on the cell classes in `signature` only.  Most
    searches follow a step that changed a cell or two and come up empty again, so the
    list, the candidates it was searched at and how many combinations at its start
    found nothing are kept in `state.fruitless`: while the classes stand, only the
    combinations reading a changed cell are searched again, then those not reached
    yet; when they change, the list is rebuilt and a combination that found nothing
    is skipped while it and the cells it reads are the same.

    `check(combo, prior, changed)` gives the step and a note kept with a combination
    that found nothing; `prior` is its excluders and note when it found nothing at
    the kept candidates (None otherwise), `changed` the cells changed since."""
    cand = state.cand
    memo = state.fruitless.get(name)
    todo: Iterable[int]
    changed = -1
    priors: dict[int, Prior] = {}
    if memo is None:
        combos, deps = build()
        notes: list[Any] = [None] * len(combos)
        todo = range(len(combos))
    else:
        old, old_signature, combos, deps, done, notes = memo
        changed = 0
        bit = 1
        for x, y in zip(cand, old, strict=True):
            if x != y:
                changed |= bit
            bit <<= 1
        if old_signature == signature:
            todo = [i for i in range(done) if deps[i] & changed]
            for i in todo:
                priors[i] = (combos[i][1], notes[i])
            todo += range(done, len(combos))
            notes = notes[:]
        else:
            old_combos, old_notes = combos, notes
            # where each combination searched last time stood in the old list
            known = dict(
                zip(map(itemgetter(0), islice(old_combos, done)), range(done), strict=False)
            )
            combos, deps = build()
            notes = [None] * len(combos)
            todo = []
            for i, (cells, common) in enumerate(combos):
                j = known.get(cells)
                if j is not None:
                    if old_combos[j][1] == common and not deps[i] & changed:
                        notes[i] = old_notes[j]
                        continue
                    priors[i] = (old_combos[j][1], old_notes[j])
                todo.append(i)
    found = len(combos)
    step = None
    for i in todo:
        step, notes[i] = check(combos[i], priors.get(i), changed)
        if step is not None:
            found = i
            break
    state.fruitless[name] = (tuple(cand), signature, combos, deps, found, notes)
    return step


def aligned_pair_exclusion(state: CandidateState) -> Step | None:
    """Two cells whose digit pairs are each ruled out by an excluder or by their
    shared unit: the digits that take part in no allowed pair leave their cell.

    A pair's answer reads the candidates of its cells and of the bivalue cells seeing
    both: searched incrementally (see `_incremental`)."""
    peers = peer_masks(state.shape)
    bivalue, _, multi = _classes(state)
    if COMPILED:
        return compiled_pair(state, bivalue, peers)

    def build() -> tuple[list[Combo], list[int]]:
        return _pairs(bivalue, multi, peers, seeing_two_table(state))

    def check(combo: Combo, prior: Prior, changed: int) -> tuple[Step | None, None]:
        (a, b), common = combo
        return _pair(state, a, b, common, peers), None

    return _incremental(state, "aligned_pair_exclusion", (bivalue, multi), build, check)


def _pairs(
    bivalue: int, multi: int, peers: tuple[int, ...], known: dict[int, int]
) -> tuple[list[Combo], list[int]]:
    """The pairs of base cells, in scan order, with their excluders, and the cells each
    pair reads."""
    excluders = _excluders(multi, bivalue, peers)
    base_mask = 0
    for c in excluders:
        base_mask |= 1 << c
    combos: list[Combo] = []
    deps: list[int] = []
    for a, ex_a in excluders.items():
        partners = _seeing_two(ex_a, peers, known) & base_mask & ~((2 << a) - 1)
        while partners:  # the bases after a with two excluders or more in common
            low = partners & -partners
            partners ^= low
            b = low.bit_length() - 1
            common = ex_a & excluders[b]
            combos.append(((a, b), common))
            deps.append(1 << a | low | common)
    return combos, deps


def _excluders(multi: int, small: int, peers: tuple[int, ...]) -> dict[int, int]:
    """The base cells in order (open, two candidates or more, seeing a cell of `small`)
    and the cells of `small` each one sees."""
    excluders: dict[int, int] = {}
    while multi:
        low = multi & -multi
        multi ^= low
        c = low.bit_length() - 1
        ex = peers[c] & small
        if ex:
            excluders[c] = ex
    return excluders


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
    for da in bit_tuple(bit_tuples(state), ma):
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
    candidates seeing all three: searched incrementally (see `_incremental`), or, with
    numba, by the compiled scan (`compiled_triple`), which finds the same triple."""
    peers = peer_masks(state.shape)
    _, small, multi = _classes(state)
    if COMPILED:
        return compiled_triple(state, small, peers)

    def build() -> tuple[list[Combo], list[int]]:
        return _triples(small, multi, peers, seeing_two_table(state))

    def check(combo: Combo, prior: Prior, changed: int) -> tuple[Step | None, Any]:
        cells, common = combo
        if prior is not None and prior[1] is not None:
            kept = _witnessed(state, cells, common, prior, changed)
            if kept is not None:
                return None, kept
        return _triple(state, cells, common, peers)

    return _incremental(state, "aligned_triple_exclusion", (small, multi), build, check)


COMPILED = (
    importlib.util.find_spec("numba") is not None and importlib.util.find_spec("numpy") is not None
)
"""Whether aligned triple exclusion runs compiled (`aligned_kernel`): numba is installed."""


def compiled_triple(state: CandidateState, small: int, peers: tuple[int, ...]) -> Step | None:
    """The first aligned triple exclusion of the scan, found by the compiled kernel and
    built by `_triple` (the same step as the Python search)."""
    import numpy as np

    from solvers.human.techniques.aligned_kernel import first_triple

    cand = np.array(state.cand, dtype=np.int64)
    values = np.array(state.values, dtype=np.int64)
    sees, peer_lists = peer_arrays(state.shape)
    ncells = state.shape.ncells
    if ncells > MAX_STAMPED:
        unstamped = np.zeros(1, dtype=np.int32)
        a, b, c = first_triple(cand, values, sees, peer_lists, cand, unstamped, 0)
    else:
        table = state.memo.table("aligned-triple-scan", state.shape, 4 * ncells**3)
        before, stamps, stamp = table.get("scan") or (cand, np.zeros(ncells**3, np.int32), 2)
        a, b, c = first_triple(cand, values, sees, peer_lists, before, stamps, stamp)
        table["scan"] = (cand, stamps, stamp + 1)
    if a < 0:
        return None
    cells = (int(a), int(b), int(c))
    common = peers[a] & peers[b] & peers[c] & small
    step, _ = _triple(state, cells, common, peers)
    if step is None:
        raise RuntimeError(f"the compiled aligned triple {cells} eliminates nothing")
    return step


def compiled_pair(state: CandidateState, bivalue: int, peers: tuple[int, ...]) -> Step | None:
    """The first aligned pair exclusion of the scan, found by the compiled kernel and
    built by `_pair` (the same step as the Python search)."""
    import numpy as np

    from solvers.human.techniques.aligned_kernel import first_pair

    cand = np.array(state.cand, dtype=np.int64)
    values = np.array(state.values, dtype=np.int64)
    sees, peer_lists = peer_arrays(state.shape)
    a, b = first_pair(cand, values, sees, peer_lists)
    if a < 0:
        return None
    step = _pair(state, int(a), int(b), peers[a] & peers[b] & bivalue, peers)
    if step is None:
        raise RuntimeError(f"the compiled aligned pair {(a, b)} eliminates nothing")
    return step


MAX_STAMPED = 81
"""The largest grid (in cells) whose triple scan is incremental: it keeps a stamp per
triple of cells (two megabytes for 9x9) in the solve's memo."""


@cache
def peer_arrays(shape: Shape) -> tuple[Any, Any]:
    """Whether two cells are peers (a NumPy boolean matrix over the cells), and each
    cell's peers (a row of cells), for the kernel."""
    import numpy as np

    sees = np.zeros((shape.ncells, shape.ncells), dtype=np.bool_)
    for cell, peers in enumerate(shape.peers):
        sees[cell, list(peers)] = True
    return sees, np.array([sorted(p) for p in shape.peers], dtype=np.int64)


def _triples(
    small: int, multi: int, peers: tuple[int, ...], known: dict[int, int]
) -> tuple[list[Combo], list[int]]:
    """The triples of base cells in scan order (by first pair, each triple where it is
    first met), with the cells seeing all three, and the cells each triple reads."""
    excluders = _excluders(multi, small, peers)
    base_mask = 0
    for c in excluders:
        base_mask |= 1 << c
    seen: set[int] = set()  # the triples met, as cell masks
    combos: list[Combo] = []
    deps: list[int] = []
    for a, ex_a in excluders.items():
        partners = _seeing_two(ex_a, peers, known) & base_mask & ~((2 << a) - 1)
        while partners:  # the bases after a with two excluders or more in common
            low = partners & -partners
            partners ^= low
            b = low.bit_length() - 1
            ex_b = excluders[b]
            pair = ex_a & ex_b
            ab = 1 << a | low
            twice = known.get(pair)
            if twice is None:
                twice = _seeing_two(pair, peers, known)
            twin = (ex_a | ex_b) & base_mask & twice & ~ab
            while twin:
                one = twin & -twin
                twin ^= one
                abc = ab | one
                if abc in seen:
                    continue
                seen.add(abc)
                c = one.bit_length() - 1
                key = (a, b, c) if c > b else (a, c, b) if c > a else (c, a, b)
                common = pair & excluders[c]
                combos.append((key, common))
                deps.append(abc | common)
    return combos, deps


def seeing_two_table(state: CandidateState) -> dict[int, int]:
    """The solve's memo of `_seeing_two`, by cell mask: the builds of the combinations
    ask it again and again for the same excluders."""
    return state.memo.table("seeing-two", state.shape, 100)


def _seeing_two(cells: int, peers: tuple[int, ...], known: dict[int, int]) -> int:
    """The cells that see two of `cells` or more (kept in `known`)."""
    found = known.get(cells)
    if found is not None:
        return found
    key = cells
    once = twice = 0
    while cells:
        low = cells & -cells
        cells ^= low
        seeing = peers[low.bit_length() - 1]
        twice |= once & seeing
        once |= seeing
    known[key] = twice
    return twice


def _keeps(free_one: int, free_other: int) -> bool:
    """Whether a cell keeps all its digits when the other two cells have `free_one` and
    `free_other` digits in no excluder."""
    return min(free_one, free_other) >= 2 and max(free_one, free_other) >= 3


Witness = tuple[int, int, int]


def _triple(
    state: CandidateState, cells: Triple, common: int, peers: tuple[int, ...]
) -> tuple[Step | None, tuple[Witness, ...] | None]:
    """The aligned triple exclusion of `cells` with the excluders `common`, if it removes
    something; when it does not, the allowed combinations that showed it (see
    `_witnessed`), if it had to look at them."""
    cand = state.cand
    a, b, c = cells
    ma, mb, mc = cand[a], cand[b], cand[c]
    excluded = []
    held = 0
    rest = common
    while rest:
        low = rest & -rest
        rest ^= low
        m = cand[low.bit_length() - 1]
        excluded.append(m)
        held |= m
    # a combination of three different digits, two of them in no excluder, is allowed: a
    # cell keeps its digits when the other two have two and three such digits
    free_a = (ma & ~held).bit_count()
    free_b = (mb & ~held).bit_count()
    free_c = (mc & ~held).bit_count()
    if _keeps(free_b, free_c) and _keeps(free_a, free_c) and _keeps(free_a, free_b):
        return None, None
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
    witnesses: list[Witness] = []
    digit_lists = bit_tuples(state)
    for da in digit_lists.get(ma) or bit_tuple(digit_lists, ma):
        bit_a = 1 << da
        free_a = mc & ~partner[da]
        if ac:
            free_a &= ~bit_a
        allowed_b = mb & ~partner[da]
        if ab:
            allowed_b &= ~bit_a
        for db in digit_lists.get(allowed_b) or bit_tuple(digit_lists, allowed_b):
            bit_b = 1 << db
            free = free_a & ~partner[db]
            if third:
                free &= ~third.get(bit_a | bit_b, 0)
            if bc:
                free &= ~bit_b
            if free:
                if free & ~ok_c or not ok_a & bit_a or not ok_b & bit_b:
                    witnesses.append((bit_a, bit_b, free))
                ok_a |= bit_a
                ok_b |= bit_b
                ok_c |= free
                if ok_b == mb and ok_c == mc:
                    break  # the other digits of b would find nothing new
        if ok_a == ma and ok_b == mb and ok_c == mc:
            return None, tuple(witnesses)
    elims = [
        (x, d + 1)
        for x, m, ok in ((a, ma, ok_a), (b, mb, ok_b), (c, mc, ok_c))
        for d in bits(m & ~ok)
    ]
    if not elims:
        return None, tuple(witnesses)
    return Step(
        "aligned_triple_exclusion",
        (),
        tuple(elims),
        (a, b, c, *bits(common)),
        (),
        (),
        TRIPLE_RATING,
        state.shape,
    ), None


def _witnessed(
    state: CandidateState, cells: Triple, common: int, prior: tuple[int, Any], changed: int
) -> tuple[Witness, ...] | None:
    """The witnesses of a triple that found nothing which still show that it finds
    nothing, or None when they do not.

    A witness ``(a, b, cs)`` says that digit ``a`` in the first cell, ``b`` in the
    second and any digit of ``cs`` in the third make an allowed combination; the
    witnesses kept cover every candidate of the three cells.  An excluder that is
    new or changed since (the others still allow them) rules out the combinations
    holding all its digits; a witness also needs its digits still in the cells."""
    cand = state.cand
    a, b, c = cells
    ma, mb, mc = cand[a], cand[b], cand[c]
    old_common, witnesses = prior
    fresh = [cand[x] for x in bits(common & (changed | ~old_common))]
    kept = []
    ok_a = ok_b = ok_c = 0
    for bit_a, bit_b, free in witnesses:
        if not (bit_a & ma and bit_b & mb):
            continue
        free &= mc
        two = bit_a | bit_b
        for m in fresh:
            rest = m & ~two
            if not rest & (rest - 1):
                free &= ~rest  # rest 0: the excluder holds the first two digits
                if not rest:
                    free = 0
        if free:
            kept.append((bit_a, bit_b, free))
            ok_a |= bit_a
            ok_b |= bit_b
            ok_c |= free
    if ok_a == ma and ok_b == mb and ok_c == mc:
        return tuple(kept)
    return None
