"""Wings built on an almost locked set: WXYZ-, VWXYZ- and UVWXYZ-Wing (Sukaku Explainer).

An *almost locked set* (ALS) is k cells of one unit holding k+1 digits
between them: were one digit removed, the rest would be locked.  Joined to a
bivalue cell xz outside it whose two digits both occur in the ALS, with x
*restricted* (every ALS cell holding x sees the bivalue cell), one of the two
holds z: if the bivalue cell is not z it is x, which leaves the ALS k digits
for k cells, so z is in it.  Cells that see the bivalue cell and every ALS
cell holding z lose z.  When z is restricted as well (doubly linked), both
sets are locked: each other ALS digit leaves the cells seeing all its places
in the ALS, and x and z leave the cells seeing all their places in both.

Sukaku Explainer names them by size (three ALS cells: WXYZ-Wing, four: VWXYZ,
five: UVWXYZ) and rates them by the largest ALS cell (see `RATINGS`); the XY-
and XYZ-Wings are the one- and two-cell cases, found by their own finders.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from functools import cache
from math import comb
from typing import Any

from solvers.grid import Shape
from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import (
    bit_tuple,
    bit_tuples,
    bits,
    cells_with_each,
    peer_masks,
    unit_masks,
)


def _wxyz_rating(biggest: int) -> float:
    return round(5.5 + 0.1 * (1 - abs(3 - biggest)), 1)


def _vwxyz_rating(biggest: int) -> float:
    return round(6.2 + 0.1 * (2 - abs(3 - biggest)), 1)


def _uvwxyz_rating(biggest: int) -> float:
    return 6.6


RATINGS: dict[int, Callable[[int], float]] = {3: _wxyz_rating, 4: _vwxyz_rating, 5: _uvwxyz_rating}
"""ALS size -> rating from the largest ALS cell's candidate count (Sukaku Explainer's
WXYZ-Wing 5.5-5.6, VWXYZ-Wing 6.2-6.4, UVWXYZ-Wing 6.6)."""


Als = tuple[tuple[int, ...], int, int, list[int], int]
"""An ALS as (cells, digit mask, cell mask, for each digit the cells seeing every set
cell holding it (all cells for a digit it lacks), its largest cell's candidate count)."""

UNIT_ENTRY_BYTES = 250  # a unit's entry in the solve's memo: about this many bytes per cell


def unit_entry(
    unit: tuple[int, ...], masks: tuple[int, ...], size: int, state: CandidateState
) -> tuple[list[Als], list[int]]:
    """A unit's sets of `size` cells, and for each digit x the cells that could join one
    of them as the bivalue cell of a wing through x (cells outside the set seeing every
    set cell holding x).  They depend on nothing else (given the grid's shape, whose
    boxes decide the peers: a row of a 2x3 grid has the cells of a row of a 3x2 one), so
    they are kept in the solve's memo.  A depth-first walk drops a partial set as soon
    as it holds more than size + 1 digits."""
    memo = state.memo.table("als-wing-unit-sets", state.shape, UNIT_ENTRY_BYTES * state.n)
    key = (size, unit, masks)
    entry = memo.get(key)
    if entry is not None:
        return entry
    limit = size + 1
    open_ = []
    small = []
    for c, m in zip(unit, masks, strict=True):
        if m & (m - 1) and m.bit_count() <= limit:
            open_.append(c)
            small.append(m)
    found: list[tuple[tuple[int, ...], int]] = []
    if len(open_) >= size:
        _extend(open_, small, len(open_), 0, size, (), 0, limit, found)
    n = state.n
    peers = peer_masks(state.shape)
    mask_of = dict(zip(unit, masks, strict=True))
    digit_lists = bit_tuples(state)
    links = [0] * n
    sets: list[Als] = []
    for cells, union in found:
        cells = tuple(sorted(cells))
        als_mask = 0
        seen = [-1] * n
        biggest = 0
        for c in cells:
            als_mask |= 1 << c
            m = mask_of[c]
            biggest = max(biggest, m.bit_count())
            p = peers[c]
            for b in digit_lists.get(m) or bit_tuple(digit_lists, m):
                seen[b] &= p
        for b in bit_tuple(digit_lists, union):
            links[b] |= seen[b] & ~als_mask
        sets.append((cells, union, als_mask, seen, biggest))
    entry = memo[key] = (sets, links)
    return entry


def _extend(open_, masks, total, start, left, cells, union, limit, found) -> None:
    """Add to `found` the sets extending `cells` by `left` cells of ``open_[start:]``."""
    last = total - left
    for i in range(start, last + 1):
        u = union | masks[i]
        if u.bit_count() > limit:
            continue
        if left == 1:
            if u.bit_count() == limit:
                found.append(((*cells, open_[i]), u))
        else:
            _extend(open_, masks, total, i + 1, left - 1, (*cells, open_[i]), u, limit, found)


def als_wing(state: CandidateState, size: int, name: str) -> Step | None:
    """The ALS-wing of `size` ALS cells with the lowest rating, then the most eliminations.

    A unit whose sets gave nothing stays fruitless while no cell that could
    link to one of its sets becomes bivalue (a bivalue cell keeps its pair
    until it is solved, and eliminations only shrink the targets); when some
    of its cells lose candidates, only the sets holding one of them are
    searched again.  `state.fruitless` keeps the unit's candidates, the
    bivalue cells of that search and the cells that could link.  With numba, grids up
    to 16x16 are searched by the compiled kernel (`compiled_wing`), with the same rules."""
    if COMPILED and state.n <= KERNEL_MAX_SIZE:
        return compiled_wing(state, size, name)
    cand = state.cand
    n = state.n
    shape = state.shape
    peers = peer_masks(shape)
    rate = RATINGS[size]
    # Bivalue cells as cell masks: all of them, and those holding each digit.
    biv_all = 0
    biv_with = [0] * n
    for c, m in enumerate(cand):
        if m and m.bit_count() == 2:
            bit = 1 << c
            biv_all |= bit
            low = m & -m
            biv_with[low.bit_length() - 1] |= bit
            biv_with[(m ^ low).bit_length() - 1] |= bit
    if not biv_all:
        return None
    full = state.full_mask
    cw = cells_with_each(state)
    digit_lists = bit_tuples(state)
    fruitless = state.fruitless
    within: dict[int, int] = {}  # digit mask -> bivalue cells holding only its digits
    seen: set[tuple[int, ...]] = set()  # sets searched by an earlier unit ...
    unsettled: set[tuple[int, ...]] = set()  # ... and those of them not known fruitless
    best: tuple | None = None
    for u, (unit, masks) in enumerate(zip(shape.units, unit_masks(state), strict=True)):
        fkey = (name, u)
        mark = fruitless.get(fkey)
        changed = -1  # the cells whose sets are searched
        if mark is not None:
            old, marked_biv, links = mark
            new = biv_all & ~marked_biv
            while new:
                low = new & -new
                new ^= low
                m = cand[low.bit_length() - 1]
                x1 = m & -m
                if (links[x1.bit_length() - 1] | links[(m ^ x1).bit_length() - 1]) & low:
                    break
            else:  # no new bivalue cell can be a wing of the sets found fruitless
                if old == masks:
                    continue
                changed = 0  # search only the sets holding a cell that changed
                for c, m, o in zip(unit, masks, old, strict=True):
                    if m != o:
                        changed |= 1 << c
        clean = True
        sets, links = unit_entry(unit, masks, size, state)
        for cells, union, als_mask, seen_by_all, biggest in sets:
            if cells in seen:
                if cells in unsettled:
                    clean = False
                continue
            seen.add(cells)
            if not als_mask & changed:
                continue  # its cells and the bivalue cells it could link to are unchanged
            inside = within.get(union)
            if inside is None:
                inside = biv_all
                rest = full & ~union
                while rest:
                    low = rest & -rest
                    rest ^= low
                    inside &= ~biv_with[low.bit_length() - 1]
                within[union] = inside
            inside &= ~als_mask
            rating = 0.0
            while inside:
                low = inside & -inside
                inside ^= low
                yz = low.bit_length() - 1
                m = cand[yz]
                # x is restricted when every ALS cell holding x sees the bivalue cell.
                x1 = m & -m
                b1 = x1.bit_length() - 1
                b2 = (m ^ x1).bit_length() - 1
                not_seen = als_mask & ~peers[yz]
                r1 = not not_seen & cw[b1]
                r2 = not not_seen & cw[b2]
                if not (r1 or r2):
                    continue
                if not rating:
                    rating = rate(biggest)
                    if best is not None and rating > best[0]:
                        clean = False  # not searched: outrated
                        unsettled.add(cells)
                        break
                outside = ~(als_mask | low)
                elims: list[tuple[int, int]] = []
                if r1 and r2:  # doubly linked: both sets locked
                    for b in digit_lists.get(union) or bit_tuple(digit_lists, union):
                        targets = seen_by_all[b] & outside
                        if m >> b & 1:
                            targets &= peers[yz]
                        targets &= cw[b]
                        elims += [(t, b + 1) for t in bits(targets)]
                else:
                    z = b2 if r1 else b1
                    targets = seen_by_all[z] & peers[yz] & outside & cw[z]
                    elims = [(t, z + 1) for t in bits(targets)]
                if not elims:
                    continue
                clean = False
                unsettled.add(cells)
                key = (rating, -len(elims))
                if best is None or key < best[:2]:
                    best = (rating, -len(elims), cells, yz, tuple(sorted(elims)), m)
        if clean:
            fruitless[fkey] = (masks, biv_all, links)
    if best is None:
        return None
    rating, _, cells, yz, elims, m = best
    return Step(
        name,
        (),
        tuple(elims),
        (*cells, yz),
        (),
        tuple(b + 1 for b in bits(m)),
        rating,
        state.shape,
    )


COMPILED = (
    importlib.util.find_spec("numba") is not None and importlib.util.find_spec("numpy") is not None
)
"""Whether the ALS wings run compiled (`wing_kernel`): numba is installed."""

KERNEL_MAX_SIZE = 16  # the largest grid side the kernel takes (`wing_kernel.MAX_SIZE`)


def compiled_wing(state: CandidateState, size: int, name: str) -> Step | None:
    """`als_wing` by the compiled kernel: the same step, its fruitless marks kept as
    arrays in `state.fruitless` (copied before the kernel updates them: the state's
    copies share them)."""
    import numpy as np

    from solvers.human.techniques.wing_kernel import wing_search

    units, sees, peers, cell_units, caps = wing_geometry(state.shape)
    n = state.n
    key = (name, "compiled")
    marks = state.fruitless.get(key)
    if marks is None:
        marks = fresh_marks(len(units), n, peers.shape[1])
    old, rows = marks[0].copy(), marks[1].copy()
    cand = np.array(state.cand, dtype=np.int64)
    rating, found = wing_search(
        cand, size, units, sees, peers, cell_units, wing_rates(size, n), caps[size], old, rows
    )
    state.fruitless[key] = (old, rows)
    if not len(found):
        return None
    values = found.tolist()
    yz = values[0]
    pairs = values[1 + size :]
    return Step(
        name,
        (),
        tuple(zip(pairs[::2], pairs[1::2], strict=True)),
        (*values[1 : 1 + size], yz),
        (),
        tuple(b + 1 for b in bits(state.cand[yz])),
        rating,
        state.shape,
    )


def fresh_marks(nunits: int, n: int, words: int) -> tuple[Any, Any]:
    """No unit marked fruitless yet: the kernel's marks (per unit its candidates and
    whether it is marked; its bivalue cells and links, as rows)."""
    import numpy as np

    return (
        np.zeros((nunits, n + 1), dtype=np.int64),
        np.zeros((nunits, n + 1, words), dtype=np.uint64),
    )


@cache
def wing_geometry(shape: Shape) -> tuple[Any, Any, Any, Any, dict[int, int]]:
    """The shape as the kernel's arrays: each unit's cells, whether two cells are peers,
    each cell's peers as a row of words, each cell's units; and per ALS size a bound on
    the sets inside a line's part of a box."""
    import numpy as np

    ncells = shape.ncells
    words = (ncells + 63) >> 6
    sees = np.zeros((ncells, ncells), dtype=np.bool_)
    peers = np.zeros((ncells, words), dtype=np.uint64)
    for cell, row in enumerate(shape.peers):
        for p in row:
            sees[cell, p] = True
            peers[cell, p >> 6] |= np.uint64(1 << (p & 63))
    part = max(shape.box_rows, shape.box_cols)
    caps = {size: len(shape.units) * comb(part, size) for size in RATINGS}
    units = np.array(shape.units, dtype=np.int64)
    return units, sees, peers, np.array(shape.cell_units, dtype=np.int64), caps


@cache
def wing_rates(size: int, n: int) -> Any:
    """The rating of an ALS of `size` cells by its largest cell's candidate count."""
    import numpy as np

    return np.array([RATINGS[size](b) for b in range(n + 1)], dtype=np.float64)


def wxyz_wing(state: CandidateState) -> Step | None:
    """A three-cell ALS (four digits in one unit) and a bivalue cell: Sukaku Explainer's
    WXYZ-Wing, 5.5 or 5.6."""
    return als_wing(state, 3, "wxyz_wing")


def vwxyz_wing(state: CandidateState) -> Step | None:
    """A four-cell ALS (five digits in one unit) and a bivalue cell: VWXYZ-Wing, 6.2-6.4."""
    return als_wing(state, 4, "vwxyz_wing")


def uvwxyz_wing(state: CandidateState) -> Step | None:
    """A five-cell ALS (six digits in one unit) and a bivalue cell: UVWXYZ-Wing, 6.6."""
    return als_wing(state, 5, "uvwxyz_wing")
