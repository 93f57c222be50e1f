"""Bivalue universal grave (BUG) types 2, 3 and 4 (BUG+1, type 1, is in `uniqueness`).

A *BUG* is a grid where every open cell has two candidates and every digit
has two places in every unit it is missing from: such a grid has no unique
solution (its candidates split into two solutions or none).  When a few
*BUG cells* hold candidates beyond such a pattern (their *extra digits*:
the ones that give a digit three places in a unit), a puzzle with one
solution must place at least one extra digit in a BUG cell.

- type 2: every extra digit is the same digit x: cells seeing every BUG
  cell lose x (Sudoku Explainer: 5.7);
- type 3: the BUG cells share a unit; their extra digits act as one cell
  that forms a naked subset with other cells of that unit seeing every BUG
  cell, whose digits leave the unit's remaining such cells (5.7 plus 0.1
  per digit of the subset beyond the first: 5.8 for a pair);
- type 4: two BUG cells share a unit and one more digit v besides their
  extras, and v has no other place in that unit: one of them is v and the
  other takes its extra digit, so neither can hold its third digit (5.7).

- BUG+n: whatever the extra digits, one extra candidate is true (else the
  candidates left form a BUG); a candidate that would make every extra
  candidate false (in the cell of each, or seeing it and of its digit) is
  false.  This is the sound rule behind type 2, which it extends to extras of
  several digits.  (The rule sometimes given for BUG+n, that cells seeing
  every BUG cell lose an extra digit, holds only when every extra is that
  digit: type 2.)  Sudoku Explainer and HoDoKu have no BUG+n beyond these.

All four assume the puzzle has a unique solution.
"""

from __future__ import annotations

from itertools import combinations

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import bits, cells_with_each, peer_masks, unit_cell_masks

TYPE_2_RATING = 5.7
TYPE_3_RATING = 5.7  # plus 0.1 per digit of the naked subset beyond the first
TYPE_4_RATING = 5.7
PLUS_N_RATING = 5.7  # rated like type 2, the case of one extra digit
MAX_SUBSET = 6  # the largest naked subset type 3 builds (with the BUG cells' extras)


def _unit_order(n: int) -> list[int]:
    """Boxes, then rows, then columns (Sudoku Explainer's order of unit kinds)."""
    return [*range(2 * n, 3 * n), *range(n), *range(n, 2 * n)]


def bug_pattern(state: CandidateState) -> tuple[dict[int, int], int] | None:
    """The BUG cells with their extra digits (cell -> mask) and the cells seeing every
    BUG cell (a bit mask), when the grid is a BUG plus extras in two or more cells."""
    found = state.derived("bug_pattern", _bug_pattern)
    return found or None


_NONE: tuple = ()  # `_bug_pattern`'s "no pattern", memoised like a pattern


def _bug_pattern(state: CandidateState):
    n = state.n
    cand = state.cand
    count = state.count
    placed = state.placed
    units = state.shape.units
    peers = peer_masks(state.shape)
    # A digit with three places or more in a unit, none of them in a cell of three
    # candidates or more, rules out a pattern; the one that did last time is looked
    # at first, as it mostly still does (kept in `state.fruitless`).
    witness = state.fruitless.get("bug_pattern")
    if witness is not None and _no_room(state, *witness):
        return _NONE
    roomy = 0  # the cells with three candidates or more
    for c, m in enumerate(cand):
        if m.bit_count() >= 3:
            roomy |= 1 << c
    with_digit = cells_with_each(state)
    unit_cells = unit_cell_masks(state.shape)
    extras: dict[int, int] = {}
    for u in _unit_order(n):
        room = unit_cells[u] & roomy
        for k in range(n):
            if placed[u] >> k & 1 or count[u * n + k] in (0, 2):
                continue
            wide = room & with_digit[k]
            if not wide:
                state.fruitless["bug_pattern"] = (u, k)
                return _NONE  # three places, none in a cell with room for an extra
            if not wide & (wide - 1):  # else another unit decides which cell it is
                c = wide.bit_length() - 1
                extras[c] = extras.get(c, 0) | 1 << k
    if len(extras) < 2:
        return _NONE  # none, or BUG+1
    # Without the extras, every open cell is bivalue and every digit has two places.
    reduced = [m & ~extras.get(c, 0) for c, m in enumerate(cand)]
    if any(m and m.bit_count() != 2 for c, m in enumerate(reduced) if not state.values[c]):
        return _NONE
    for u in range(3 * n):
        for k in range(n):
            if placed[u] >> k & 1:
                continue
            places = sum(1 for c in units[u] if reduced[c] >> k & 1)
            if places not in (0, 2):
                return _NONE
    common = -1
    for c in extras:
        common &= peers[c]
    for c in extras:
        common &= ~(1 << c)
    return extras, common


def _no_room(state: CandidateState, u: int, k: int) -> bool:
    """Whether digit k has places other than two in unit u (and is not placed there),
    none of them in a cell of three candidates or more."""
    n = state.n
    if state.placed[u] >> k & 1 or state.count[u * n + k] in (0, 2):
        return False
    bit = 1 << k
    cand = state.cand
    return not any(cand[c] & bit and cand[c].bit_count() >= 3 for c in state.shape.units[u])


def _shared_units(state: CandidateState, cells) -> list[int]:
    """The units holding every cell of `cells`, boxes first, then rows, then columns."""
    cell_units = state.shape.cell_units
    shared = set(cell_units[cells[0]])
    for c in cells[1:]:
        shared &= set(cell_units[c])
    n = state.n
    return [u for u in _unit_order(n) if u in shared]


def bug_type_2(state: CandidateState) -> Step | None:
    """BUG cells whose extras are all one digit: cells seeing every BUG cell lose it."""
    found = bug_pattern(state)
    if found is None:
        return None
    extras, common = found
    values = set(extras.values())
    if len(values) != 1:
        return None
    bit = values.pop()
    if bit.bit_count() != 1:
        return None
    k = bit.bit_length() - 1
    cand = state.cand
    elims = tuple((c, k + 1) for c in bits(common) if cand[c] & bit)
    if not elims:
        return None
    cells = tuple(sorted(extras))
    return Step("bug_type_2", (), elims, cells, (), (k + 1,), TYPE_2_RATING, state.shape)


def bug_type_4(state: CandidateState) -> Step | None:
    """Two BUG cells in a unit where their one common non-extra digit has no other place:
    each is that digit or its extra digit, never its third digit."""
    found = bug_pattern(state)
    if found is None:
        return None
    extras, common = found
    if len(extras) != 2 or not common:
        return None
    c1, c2 = sorted(extras)
    all_extra = extras[c1] | extras[c2]
    cand = state.cand
    shared = cand[c1] & cand[c2] & ~all_extra
    if shared.bit_count() != 1:
        return None
    units = _shared_units(state, (c1, c2))
    if not units:
        return None
    v = shared.bit_length()
    elims = []
    for c in (c1, c2):
        rest = cand[c] & ~extras[c] & ~shared
        elims += [(c, k + 1) for k in bits(rest)]
    if not elims:
        return None
    return Step(
        "bug_type_4",
        (),
        tuple(elims),
        (c1, c2),
        (units[0],),
        (v,),
        TYPE_4_RATING,
        state.shape,
    )


def bug_type_3(state: CandidateState) -> Step | None:
    """BUG cells in one unit: their extras, as one cell, and other cells of the unit
    seeing every BUG cell make a naked subset; its digits leave the unit's other such cells."""
    found = bug_pattern(state)
    if found is None:
        return None
    extras, common = found
    all_extra = 0
    for m in extras.values():
        all_extra |= m
    if all_extra.bit_count() < 2 or not common:
        return None
    cand = state.cand
    bug_cells = sorted(extras)
    for u in _shared_units(state, bug_cells):
        region = [c for c in state.shape.units[u] if common >> c & 1 and not state.values[c]]
        for degree in range(2, MAX_SUBSET + 1):
            if len(region) < degree:
                break
            for naked in combinations(region, degree - 1):
                union = 0
                for c in naked:
                    union |= cand[c]
                if union.bit_count() != degree or (union | all_extra) != union:
                    continue
                elims = tuple(
                    (c, k + 1) for c in region if c not in naked for k in bits(cand[c] & union)
                )
                if elims:
                    return Step(
                        "bug_type_3",
                        (),
                        elims,
                        (*bug_cells, *naked),
                        (u,),
                        tuple(k + 1 for k in bits(union)),
                        round(TYPE_3_RATING + 0.1 * (degree - 1), 1),
                        state.shape,
                    )
    return None


def bug_plus_n(state: CandidateState) -> Step | None:
    """Extra candidates in two or more BUG cells: one is true, so a candidate that sees
    them all (or shares a cell with one and sees the others) is false."""
    found = bug_pattern(state)
    if found is None:
        return None
    extras, _ = found
    cand = state.cand
    peers = peer_masks(state.shape)
    extra_list = [(c, k) for c, m in sorted(extras.items()) for k in bits(m)]
    elims = []
    for cell in range(len(cand)):
        for k in bits(cand[cell] & ~extras.get(cell, 0)):
            if all((c == cell) or (k == x and peers[c] >> cell & 1) for c, x in extra_list):
                elims.append((cell, k + 1))
    if not elims:
        return None
    return Step(
        "bug_plus_n",
        (),
        tuple(elims),
        tuple(sorted(extras)),
        (),
        tuple(sorted({k + 1 for _, k in extra_list})),
        PLUS_N_RATING,
        state.shape,
        detail=tuple((c, k + 1) for c, k in extra_list),
    )
